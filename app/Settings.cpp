#include "app/Settings.h"

#include "nav/base/AtomicFile.h"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace navbench {

namespace fs = std::filesystem;

std::string absolutePath(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) return path;
  return p.lexically_normal().string();
}

void Settings::addRecent(const std::string& path) {
  std::string abs = absolutePath(path);
  recentFiles.erase(std::remove(recentFiles.begin(), recentFiles.end(), abs), recentFiles.end());
  recentFiles.insert(recentFiles.begin(), abs);
  if (recentFiles.size() > kMaxRecent) recentFiles.resize(kMaxRecent);
}

std::string Settings::defaultPath() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && *xdg) return std::string(xdg) + "/navbench/settings.ini";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.config/navbench/settings.ini";
  return {};
}

bool Settings::load(const std::string& path, std::string& error) {
  std::error_code ec;
  if (path.empty() || !fs::exists(path, ec)) return true;
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot read: " + std::strerror(errno);
    return false;
  }
  Settings s;
  s.recentFiles.clear();
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "recent" && !value.empty() && s.recentFiles.size() < kMaxRecent) {
      s.recentFiles.push_back(value);
    } else if (key == "camera_level") {
      s.cameraLevel = value;
    } else if (key == "camera") {
      float c[6];
      if (std::sscanf(value.c_str(), "%f %f %f %f %f %f", &c[0], &c[1], &c[2], &c[3], &c[4], &c[5]) == 6 &&
          std::isfinite(c[0] + c[1] + c[2] + c[3] + c[4] + c[5]) && c[5] > 0)
        std::copy(c, c + 6, s.camera);
      else
        s.cameraLevel.clear();
    } else if (key == "screenshot_dir") {
      s.screenshotDir = value;
    } else if (key == "screenshot_view_only" || key == "screenshot_caption") {
      (key == "screenshot_caption" ? s.screenshotCaption : s.screenshotViewOnly) = value == "1";
    } else if (key == "window_width" || key == "window_height") {
      int v = std::atoi(value.c_str());
      if (v >= 200 && v <= 16384) (key == "window_width" ? s.windowWidth : s.windowHeight) = v;
    }
  }
  *this = std::move(s);
  return true;
}

bool Settings::save(const std::string& path, std::string& error) const {
  if (path.empty()) {
    error = "no settings path (neither XDG_CONFIG_HOME nor HOME is set)";
    return false;
  }
  std::error_code ec;
  fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  if (ec) {
    error = p.parent_path().string() + ": cannot create directory: " + ec.message();
    return false;
  }
  {
    std::ostringstream out;
    out << "# NavBench viewer settings (written by navbench)\n";
    out << "window_width=" << windowWidth << "\nwindow_height=" << windowHeight << "\n";
    if (!screenshotDir.empty()) out << "screenshot_dir=" << screenshotDir << "\n";
    out << "screenshot_view_only=" << (screenshotViewOnly ? 1 : 0) << "\nscreenshot_caption=" << (screenshotCaption ? 1 : 0) << "\n";
    for (const std::string& r : recentFiles) out << "recent=" << r << "\n";
    if (!cameraLevel.empty()) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%.9g %.9g %.9g %.9g %.9g %.9g", double(camera[0]), double(camera[1]),
                    double(camera[2]), double(camera[3]), double(camera[4]), double(camera[5]));
      out << "camera_level=" << cameraLevel << "\ncamera=" << buf << "\n";
    }
    // Temp file + rename: a failed write leaves the old settings.
    if (!base::writeFileAtomic(path, out.str(), error)) return false;
  }
  return true;
}

} // namespace navbench
