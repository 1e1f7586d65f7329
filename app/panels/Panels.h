// Panels.h: the viewer's ImGui panels, one file each. A panel's file has its factory function:
// most return makePanel(spec, draw) (a PanelSpec and one draw function), a panel with more state
// implements Panel (below); Panels.cpp lists the factories in drawing order (the one
// registration line). The app draws every panel each frame and lists the ones with a menu label
// in the View menu; a panel reaches the app only through PanelContext.
#pragma once

#include "app/Log.h"
#include "app/ViewSettings.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace render {
class Camera;
}

namespace navbench {

class Document;
class TestCasePanel;
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

/// Where the panels go, so that none covers another by default at any window size from 640x480
/// up, and a panel the user moved or resized stays where they put it.
///  - Tools: a column on the left (never taller than the window: it scrolls).
///  - A right column beside it, top down: the stats overlay, the A* stepper window (at most 410 px
///    wide, about 36% of the window's height), the Navmesh panel (collapsed), the View panel
///    at the bottom (shorter when the column is short).
///  - Log: a strip along the bottom right of the Tools panel (where the Tools reach down to it) and
///    left of the View panel; when that strip is under 200 px wide, at the bottom of the right
///    column under the View panel.
///  - In a window under 600 px high the View and Log start (or, shrunk to it, become) collapsed.
///  - The panels opened on demand (Check, Why, Agents, Captured queries, Test cases, Bake): the
///    region right of the Tools, left of the right column and above the Log, in columns against
///    the right column filled in the order they were opened (each top down), shrunk to share it;
///    where even 240 x 120 px each does not fit, cascaded (each newer one a title bar lower).
/// Panels the user has not moved or resized are put in place every frame (they follow the window
/// size and each other: a taller Tools panel, the stepper window appearing, a panel expanded). A
/// panel the user dragged or resized keeps its place across window resizes, clamped back inside
/// the window if the new size would leave it (partly) outside; which panels the user placed is
/// kept in imgui.ini ([NavBench][Panels]).
class PanelLayout {
public:
  /// Registers the imgui.ini handler that keeps which panels the user placed (before loading it).
  void installIniHandler();
  /// Once per frame after the menu bar, before the panels are drawn: notes the panels the user
  /// moved or resized since the last frame, handles a window size change (panels the user placed
  /// are clamped inside, others moved with their corner) and puts the rest in their places (from
  /// the last frame's sizes and the panels shown).
  void arrange(float menuBarHeight);
  float menuBarHeight() const { return m_menuBarHeight; }
  /// The user moved or resized the panel named `name` (its ImGui window name).
  bool userPlaced(const std::string& name) const;
  /// View > Reset panel layout: every panel back in its place (the user's places forgotten).
  void resetUserPlaced();
  /// Called by a panel opened on demand (Check, Why, Agents, Captured queries, Test cases, Bake)
  /// right before its ImGui::Begin: on the frame it opens it gets its place (and size) at once.
  void placeOnDemand(const char* name);

private:
  struct Placed {
    std::string name;
    float pos[2], size[2];
    bool sized;
  };
  Placed* placed(const std::string& name);
  /// Puts the panel `name` (not the user's) at x,y (and sizes it w x h when `sized`).
  void put(const char* name, float x, float y, float w, float h, bool sized);
  /// Notes where the layout put `name` (to see a user's move later).
  void note(const std::string& name, float x, float y, float w, float h, bool sized);
  /// Places the open on-demand panels in m_region; `opening`: the one whose Begin comes next.
  void layOutOnDemand(const char* opening);
  struct Region { ///< Where the on-demand panels go (window px), from this frame's arrange().
    bool valid = false;
    float x0 = 0, x1 = 0, y0 = 0, y1 = 0, top = 0, titleH = 0;
  };
  void setPlaced(const std::string& name, bool on);
  struct IniPos {
    std::string name;
    float x, y;
  };
  float m_menuBarHeight = 0;
  bool m_iniSection = false;        ///< imgui.ini had [NavBench][Panels].
  std::vector<IniPos> m_iniPos;     ///< An imgui.ini without it (older): its panel places.
  float m_size[2] = {0, 0};         ///< The window size the panels were placed for.
  int m_frames = 0;
  std::vector<std::string> m_user;  ///< Panels the user placed.
  std::vector<Placed> m_placed;     ///< Where arrange() put each panel last (to see a user's move).
  std::vector<std::string> m_opened; ///< The on-demand panels shown, in the order they were opened.
  Region m_region;
};

/// Log window: filter, copy, clear; follows new messages. Placed by `layout`.arrange() (this only
/// gives its first frame's place).
void drawLogPanel(Log& log, bool* open, const PanelLayout& layout);

/// Small translucent overlay in the top-right corner of the 3D view.
void drawStatsOverlay(const FrameStats& stats, float menuBarHeight);

class BakeRunner;
class Level;
class NavState;
struct NavDrawOptions;

/// Navmesh facts, drawing toggles, the hovered poly and the query filter (flags, area costs,
/// heuristic scale, node budget); with no navmesh open, the offer to bake one (BakeButtonUi.h).
/// Returns true when the filter or node budget changed.
bool drawNavPanel(NavState& nav, NavDrawOptions& draw, unsigned hoveredRef, bool hoverHit, const float* hoverPos,
                  bool* open, BakeRunner& bake, Log& log);

/// The keyboard and mouse shortcuts (F1).
void drawHelpWindow(bool* open);

/// View settings, camera controls and level facts. Returns true when "Frame level" was pressed.
bool drawViewPanel(ViewSettings& view, render::Camera& camera, const Level& level, bool* open);

/// Tool list plus the active tool's own UI. Returns the index to activate (or `active`). Its
/// height is kept within the window (the content scrolls); placed by `layout`.arrange().
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
  std::string m_title = "Open level or navmesh", m_hint = "path/to/level.obj, .glb, .gltf, .fbx, .dae, .json, .bin or .nbcap";
  // levels, level files, tile sets, path captures
  std::vector<std::string> m_exts = {".obj", ".glb", ".gltf", ".fbx", ".dae", ".3ds", ".ply", ".stl", ".json", ".bin", ".nbcap"};
  Mode m_mode = Mode::File;
  std::string m_dir, m_pathInput, m_error;
  struct Entry {
    std::string name;
    bool isDir;
  };
  std::vector<Entry> m_entries;
  int m_selected = -1;
};

/// What a panel may use this frame.
struct PanelContext {
  Document& doc;
  Log& log;
  PanelLayout& layout;
  const FrameStats& stats;
  int windowW = 0, windowH = 0;          ///< The window, in pixels.
  int navTiles = 0, navTilesPending = 0; ///< The navmesh overlay's tiles, and those still being built.
  std::function<void()> frameLevel;       ///< Aims the camera at the whole level (View > Frame level).
  TestCasePanel* testCases = nullptr;      ///< The view of the document's test-case session.
};

class Panel {
public:
  virtual ~Panel() = default;
  /// Its name (tests and the app find a panel by it: "Tools", "Help", "Bake"...).
  virtual const char* name() const = 0;
  /// Its entry in the View menu ("" = none), and where the entry goes (lower first).
  virtual const char* menuLabel() const { return ""; }
  virtual int menuOrder() const { return 0; }
  /// Where its shown / hidden state lives (some panels keep it in the document).
  virtual bool* visible(Document& /*doc*/) { return &m_visible; }
  /// Draws it when visible (and whatever it runs while hidden, such as its file dialog).
  virtual void draw(PanelContext& ctx) = 0;

protected:
  explicit Panel(bool visibleAtStart = true) : m_visible(visibleAtStart) {}
  bool m_visible;
};

/// A panel that is one draw function: its name, View menu entry and order, whether it starts shown,
/// and, when set, where in the document its shown / hidden flag lives (else the panel's own).
struct PanelSpec {
  const char* name;
  const char* menuLabel = "";
  int menuOrder = 0;
  bool visibleAtStart = true;
  bool* (*visibleIn)(Document&) = nullptr;
};
/// Such a panel; `draw` runs every frame (shown or not) with the panel's shown / hidden flag.
std::unique_ptr<Panel> makePanel(const PanelSpec& spec, std::function<void(PanelContext&, bool& shown)> draw);

/// Every panel, in drawing order (Panels.cpp).
std::vector<std::unique_ptr<Panel>> createPanels();

} // namespace navbench
