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
  int levelTris = 0;       ///< Triangles of the level mesh.
  int levelTrisDrawn = 0;  ///< Level triangles drawn by the last frame (culled cells and Level LOD).
  int debugDrawCalls = 0;
  int debugVertices = 0;
};

/// Where the Tools and Log panels go, so that neither covers the other at any window size: the
/// Tools panel is a column on the left (never taller than the window: it scrolls), the Log a strip
/// along the bottom to the right of the Tools panel (left of the View panel's corner).
struct PanelLayout {
  /// The window size changed this frame: the Tools and Log panels take their places again.
  bool relayout = false;
  float menuBarHeight = 0;
  /// The Tools panel's rectangle this frame [window pixels] (toolsShown false: hidden or closed).
  bool toolsShown = false;
  float toolsMin[2] = {0, 0}, toolsMax[2] = {0, 0};
};

/// Log window: filter, copy, clear; follows new messages. Placed by `layout` (after the Tools
/// panel was drawn): at start, when the window size changes, and whenever it meets the Tools panel.
void drawLogPanel(Log& log, bool* open, const PanelLayout& layout);

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

/// Tool list plus the active tool's own UI. Returns the index to activate (or `active`). Its
/// height is kept within the window (the content scrolls); its rectangle goes into `layout`.
int drawToolsPanel(const std::vector<std::unique_ptr<Tool>>& tools, int active, bool* open, PanelLayout& layout);

/// A simple file browser in a modal popup (File > Open), or a folder chooser.
class OpenFileDialog {
public:
  enum class Mode { File, Folder };
  OpenFileDialog() = default;
  /// A dialog titled `title` that lists folders and files with one of `exts` (lower case, with
  /// the dot); `hint` is the path field's placeholder. Mode::Folder lists folders only and
  /// chooses a folder ("Choose folder": the typed path, else the selected or current folder).
  OpenFileDialog(std::string title, std::vector<std::string> exts, std::string hint, Mode mode = Mode::File)
      : m_title(std::move(title)), m_hint(std::move(hint)), m_exts(std::move(exts)), m_mode(mode) {}
  /// Opens the popup next frame, starting in `dir` (or the current directory when empty; a
  /// folder that does not exist starts at its nearest existing parent).
  void open(const std::string& dir);
  /// Draws it when open; returns true once with the chosen file (or folder) in `chosen`.
  bool draw(std::string& chosen);
  /// Open now, about to open, or closed during this frame (its Enter / Esc are its own).
  bool isOpen() const;
  const std::string& title() const { return m_title; }

private:
  void refresh();
  bool m_shown = false;
  int m_closedFrame = -1;
  bool m_requestOpen = false;
  std::string m_title = "Open level or navmesh", m_hint = "path/to/level.obj, .json or .bin";
  std::vector<std::string> m_exts = {".obj", ".json", ".bin"}; // levels, level files, tile sets
  Mode m_mode = Mode::File;
  std::string m_dir, m_pathInput, m_error;
  struct Entry {
    std::string name;
    bool isDir;
  };
  std::vector<Entry> m_entries;
  int m_selected = -1;
};

} // namespace navbench
