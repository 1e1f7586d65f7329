// Settings.h: the viewer's small persistent settings (recent files, window size), stored as
// "key=value" lines in $XDG_CONFIG_HOME/navbench/settings.ini (default ~/.config/navbench/).
// Written atomically (temp file + rename). Unknown keys are ignored, so the file can grow.
#pragma once

#include <string>
#include <vector>

namespace navbench {

struct Settings {
  static constexpr size_t kMaxRecent = 10;

  std::vector<std::string> recentFiles; ///< Most recent first, absolute paths.
  int windowWidth = 1280, windowHeight = 720;
  /// The camera when the viewer last closed, and the level it looked at (absolute path; "" = none).
  /// Restored when that level is opened again.
  std::string cameraLevel;
  float camera[6] = {0, 0, 0, 0, 0, 0}; ///< target x, y, z [wu], yaw, pitch [rad], distance [wu]
  /// F12 screenshots: the folder ("" = ./screenshots), 3D view only, caption strip.
  std::string screenshotDir;
  bool screenshotViewOnly = false, screenshotCaption = false;

  /// Moves `path` to the front of the recent files (made absolute; duplicates removed).
  void addRecent(const std::string& path);

  /// $XDG_CONFIG_HOME/navbench/settings.ini, or ~/.config/navbench/settings.ini; "" if neither is known.
  static std::string defaultPath();
  /// Missing file = defaults, true. A read error returns false with `error` set.
  bool load(const std::string& path, std::string& error);
  /// Creates the directory if needed, writes a temp file and renames it over `path`.
  bool save(const std::string& path, std::string& error) const;
};

/// Absolute, lexically normal form of `path` (no filesystem access beyond the current directory).
std::string absolutePath(const std::string& path);

} // namespace navbench
