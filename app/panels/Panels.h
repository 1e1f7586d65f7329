// Panels.h: the viewer's ImGui panels, one file each, all shown from App::drawUi().
#pragma once

#include "app/Log.h"
#include "app/ViewSettings.h"

#include <memory>
#include <string>
#include <vector>

namespace render {
class Camera;
}

namespace navbench {

class Tool;

/// Frame timing and draw statistics for the overlay.
struct FrameStats {
  float fps = 0;           ///< ImGui's running average.
  float frameMs = 0;       ///< Wall time of the last frame.
  float cpuMs = 0;         ///< CPU time spent building and submitting the last frame (no swap).
  int levelTris = 0;
  int debugDrawCalls = 0;
  int debugVertices = 0;
};

/// Log window: filter, copy, clear; follows new messages.
void drawLogPanel(Log& log, bool* open);

/// Small translucent overlay in the top-right corner of the 3D view.
void drawStatsOverlay(const FrameStats& stats, float menuBarHeight);

class Level;
class NavState;
struct NavDrawOptions;

/// Navmesh facts, drawing toggles, the hovered poly and the query filter (flags, area costs,
/// heuristic scale, node budget). Returns true when the filter or node budget changed.
bool drawNavPanel(NavState& nav, NavDrawOptions& draw, unsigned hoveredRef, bool hoverHit, const float* hoverPos,
                  bool* open);

/// The keyboard and mouse shortcuts (F1).
void drawHelpWindow(bool* open);

/// View settings, camera controls and level facts. Returns true when "Frame level" was pressed.
bool drawViewPanel(ViewSettings& view, render::Camera& camera, const Level& level, bool* open);

/// Tool list plus the active tool's own UI. Returns the index to activate (or `active`).
int drawToolsPanel(const std::vector<std::unique_ptr<Tool>>& tools, int active, bool* open);

/// A simple OBJ file browser in a modal popup (File > Open).
class OpenFileDialog {
public:
  OpenFileDialog() = default;
  /// A dialog titled `title` that lists folders and files with one of `exts` (lower case, with
  /// the dot); `hint` is the path field's placeholder.
  OpenFileDialog(std::string title, std::vector<std::string> exts, std::string hint)
      : m_title(std::move(title)), m_hint(std::move(hint)), m_exts(std::move(exts)) {}
  /// Opens the popup next frame, starting in `dir` (or the current directory when empty).
  void open(const std::string& dir);
  /// Draws it when open; returns true once with the chosen file in `chosen`.
  bool draw(std::string& chosen);

private:
  void refresh();
  bool m_requestOpen = false;
  std::string m_title = "Open level or navmesh", m_hint = "path/to/level.obj, .json or .bin";
  std::vector<std::string> m_exts = {".obj", ".json", ".bin"}; // levels, level files, tile sets
  std::string m_dir, m_pathInput, m_error;
  struct Entry {
    std::string name;
    bool isDir;
  };
  std::vector<Entry> m_entries;
  int m_selected = -1;
};

} // namespace navbench
