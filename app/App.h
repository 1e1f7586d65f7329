// App.h: the viewer: SDL2 window + GL 3.3 core context, Dear ImGui, the frame loop, input,
// picking, and all panels (shown from drawUi()).
//
// Frame order follows the ImGui SDL2 + OpenGL3 example: events -> ImGui new frame -> UI ->
// ImGui::Render -> 3D scene (level, tool debug draw) -> ImGui draw data -> swap.
// Headless: with a screenshot path the app renders a few frames (so ImGui has laid out), writes
// the last one as PNG and returns; SDL_VIDEODRIVER=offscreen needs no display.
#pragma once

#include "app/Level.h"
#include "app/Log.h"
#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/Scenario.h"
#include "app/Settings.h"
#include "app/ViewSettings.h"
#include "app/panels/BakePanel.h"
#include "app/panels/Panels.h"
#include "app/panels/TestCasePanel.h"
#include "app/tools/Tool.h"
#include "render/Camera.h"
#include "render/DebugDraw.h"
#include "render/MeshBuffer.h"
#include "render/Shader.h"

#include <SDL.h>

#include <memory>
#include <string>
#include <vector>

namespace navbench {

struct AppOptions {
  std::string levelPath;      ///< Opened at start ("" = empty scene): .obj, level .json or .bin.
  std::string navPath;        ///< A tile set (.bin) opened after levelPath ("" = the .bin next to the level, if any).
  std::string toolName;       ///< Tool activated at start (its name, e.g. "Pathfind Follow"; "" = the first).
  std::string dumpStatePath;  ///< Headless: write the app + active tool state as JSON here at exit.
  bool shortest = false;      ///< Tester modes with a path show the exact shortest path too (--shortest).
  bool allOverlays = false;   ///< Every navmesh drawing toggle on (detail mesh, BV tree...), for measurements.
  /// Headless frame benchmark: after loading (and any load-time bake), turn every overlay on, set
  /// a path on the active tester tool (the two ground polys furthest apart along x+z), render 3
  /// warm-up frames then this many, print one "bench: ..." line with CPU ms per frame
  /// (mean/min/max) and debug draw calls / vertices, and exit. 0 = off.
  int benchFrames = 0;
  std::string screenshotPath; ///< Non-empty: headless screenshot mode.
  int width = 1280, height = 720;
  bool sizeGiven = false;     ///< --size was passed (otherwise the saved window size is used).
  int screenshotFrames = 4;   ///< Frames rendered before the screenshot is taken.
  /// Scripted clicks (window pixels), replayed as real SDL input over three frames each (move,
  /// press, release) after the first frame: they hit ImGui widgets like the mouse would, or else
  /// pick the level (ray -> level hit -> active tool). For headless screenshots and tests.
  /// A drag (--drag) presses at (x, y) and holds the button to (toX, toY), where it is released
  /// (three frames as well: ImGui moves a panel taken by its title bar or an empty part).
  struct Click {
    float x, y;
    bool shift;
    bool drag = false;
    float toX = 0, toY = 0;
  };
  std::vector<Click> clicks;
  /// Keys pressed after the clicks, one every two frames (down, then up), as real SDL key events:
  /// an SDL key name with optional "ctrl+", "shift+", "alt+" prefixes ("ctrl+z", "ctrl+shift+z",
  /// "space"). For headless tests of keyboard shortcuts (undo/redo...). An entry starting with
  /// kTypePrefix is text typed instead (--type: SDL_TEXTINPUT events, as a keyboard would send).
  std::vector<std::string> keys;
  static constexpr const char* kTypePrefix = "text:";
  /// --hover X,Y: after the clicks and keys the mouse rests on window pixel (X, Y) until the run
  /// ends (the Navmesh panel's hovered poly, the A* Stepper's hovered node and its tooltip).
  bool hover = false;
  float hoverX = 0, hoverY = 0;
  /// --ask-moved: headless runs ask for a scenario's moved files (the modal) like the interactive
  /// viewer, instead of failing; the script (--type, --key return / escape) answers it.
  bool askMoved = false;
  /// --resize WxH: after the first frame the window is resized to WxH (as dragging its border).
  int resizeW = 0, resizeH = 0;
  int resizeAfterClicks = 0; ///< --resize given after this many --click/--drag: resized after them.
  /// Files "dropped" on the window after the first frame (real SDL_DROPFILE events).
  std::vector<std::string> drops;
  /// Headless: at exit, save the current scenario here (--save-scenario), as File > Save would.
  std::string saveScenarioPath;
  /// Folder of F12 screenshots ("" = ./screenshots) (--screenshot-dir).
  std::string screenshotDir;
  bool caption = false;  ///< Screenshots get a caption strip: level, start/end, status, path length (--caption).
  bool viewOnly = false; ///< Screenshots show the 3D view only, no panels (--view-only).
};

class App {
public:
  App();
  ~App();
  /// Runs until the window closes (or the screenshot is written). Returns the process exit code.
  int run(const AppOptions& options);

  /// The directories searched for shaders, in order.
  static std::vector<std::string> shaderSearchDirs();

private:
  bool init(std::string& error);
  void shutdown();
  void processEvent(const SDL_Event& e);
  void updateCamera(float dt);
  void drawUi();
  void drawScene(int w, int h);
  /// Opens a level (.obj, level .json, or .bin). `preloaded`: the level's geometry already read
  /// (scenario loading reads files first so a failure changes nothing); `siblingNav` false: do not
  /// open/bake the level's own navmesh (the caller opens one).
  /// Interactive runs load big OBJ files (over ASYNC_LEVEL_BYTES) on a worker thread: the call
  /// returns true at once, the frame loop shows a progress bar with Cancel (pollLevelLoad) and the
  /// level replaces the current one only once loaded.
  bool openLevel(const std::string& path, Level* preloaded = nullptr, bool siblingNav = true);
  void pollLevelLoad();
  void drawLevelLoad();
  bool openNav(const std::string& path, nav::NavMesh* preloaded = nullptr);
  /// Anything the user opens (command line, File > Open, drop): scenarios (.png, or .json with the
  /// navbenchScenario marker) are restored, other files opened as levels / tile sets.
  bool openAny(const std::string& path);

  // Scenario files (app/Scenario.h).
  /// The viewer's state as a scenario; paths relative to `baseDir` ("" = absolute paths).
  Scenario currentScenario(const std::string& baseDir) const;
  /// A scenario .json or a screenshot .png with one inside. Errors are logged (naming the file) and
  /// shown; the current state is left as it was.
  bool openScenarioFile(const std::string& path);
  /// Restores `s` (paths relative to `baseDir`); `source` names it in messages. Missing level or
  /// tile set: headless fails with a message; interactive asks for them (m_missing modal).
  bool applyScenario(const Scenario& s, const std::string& baseDir, const std::string& source);
  bool saveScenarioAs(const std::string& path);
  void copyScenario();
  void pasteScenario();
  /// F12: the next frame is captured (UI hidden if view-only; caption drawn) and written.
  bool writeScreenshot(const std::string& path, int w, int h, std::string& error);
  std::string nextScreenshotPath() const;
  void drawScenarioUi();
  void drawCaption();
  void notify(const std::string& text, bool error);
  void updateTitle();
  /// Opening a file or quitting drops a navmesh baked in the viewer: when it is not saved, these
  /// ask first (drawUnsavedPrompt: Save / Discard / Cancel) instead of acting at once.
  void requestOpen(const std::string& path);
  void requestQuit();
  void drawUnsavedPrompt();
  enum class Pending { None, Open, Quit };
  Pending m_pending = Pending::None;
  std::string m_pendingPath;
  void navReplaced();
  void updateHover();
  bool writeState(const std::string& path, std::string& error) const;
  Tool* activeTool() { return m_activeTool >= 0 && m_activeTool < int(m_tools.size()) ? m_tools[size_t(m_activeTool)].get() : nullptr; }
  void uploadLevel();
  void frameLevel();
  void pick(float mx, float my, bool shift);
  void saveSettings();
  void runScript(int frame);
  void setBenchPath();
  /// "ctrl+shift+z" -> SDLK_z + KMOD_LCTRL | KMOD_LSHIFT; false for an unknown key or modifier.
  static bool parseKey(const std::string& name, SDL_Keycode& sym, Uint16& mod);

  AppOptions m_opt;
  bool m_headless = false;
  SDL_Window* m_window = nullptr;
  SDL_GLContext m_gl = nullptr;
  bool m_imguiReady = false;
  bool m_running = true;
  std::string m_imguiIni;

  Log m_log;
  Settings m_settings;
  std::string m_settingsPath;
  ViewSettings m_view;
  render::Camera m_camera;
  render::Shader m_levelShader;
  render::MeshBuffer m_levelMesh;
  render::DebugDraw m_debugDraw;
  Level m_level;
  bool m_levelFromNav = false; ///< The level shown is the navmesh's own detail mesh (no OBJ open).
  std::string m_levelArg;      ///< What openLevel was given (.obj or level .json), as given.
  NavState m_nav;
  NavDrawOptions m_navDraw;
  NavDrawCache m_navCache; ///< The navmesh overlays as static GPU buffers per tile chunk.
  nav::PolyRef m_hovered = 0;
  bool m_hoverHit = false;
  glm::vec3 m_hoverPos{0.0f};
  bool m_showNav = true, m_showHelp = false, m_showBake = false;
  BakePanel m_bake;
  bool m_rightDragged = false;

  ToolContext m_toolCtx;
  std::vector<std::unique_ptr<Tool>> m_tools;
  int m_activeTool = 0;

  // Panels.
  bool m_showTools = true, m_showView = true, m_showLog = true, m_showDemo = false;
  OpenFileDialog m_openDialog;
  TestCasePanel m_testCases; ///< RecastDemo test-case files (File > Open test cases..., or drop a .txt)
  FrameStats m_stats;

  // Mouse state: a left press becomes a click if released without dragging.
  bool m_leftDown = false, m_rightDown = false, m_dragged = false;
  int m_pressX = 0, m_pressY = 0;
  float m_menuBarHeight = 0;
  PanelLayout m_panelLayout; ///< Where the panels go; which ones the user placed.
  int m_frameIndex = 0;
  bool m_scriptShift = false; ///< Shift state of the scripted click being released.
  bool m_scriptMouse = false, m_scriptMouseDown = false; ///< A scripted click drives ImGui's mouse this frame.
  float m_scriptMouseX = 0, m_scriptMouseY = 0;
  std::string m_scriptText; ///< --type text not sent yet (waits for a text field to be active).
  int m_scriptTextWait = 0;
  void typeScriptText();

  // Scenarios and screenshots.
  std::string m_scenarioPath; ///< Where Ctrl+S saves ("" = ask).
  std::string m_scenarioNote;
  OpenFileDialog m_scenarioDialog{"Open scenario", {".json", ".png"}, "path/to/scenario.json or screenshot.png"};
  bool m_saveAsOpen = false;
  std::string m_saveAsPath;
  /// A scenario whose level or tile set was not found, waiting for the user to locate them.
  struct Missing {
    bool active = false;
    Scenario scenario;
    std::string baseDir, source;
    std::string level, navmesh; ///< Resolved paths, edited by the user.
    bool levelMissing = false, navMissing = false;
  } m_missing;
  OpenFileDialog m_locateDialog{"Locate file", {".obj", ".json", ".bin"}, "path/to/the/moved/file"};
  int m_locateWhich = 0; ///< 0 level, 1 navmesh
  bool m_missingOpenRequest = false;
  /// Tool part of a scenario waiting for a load-time bake to finish (the bake resets the tools).
  bool m_afterBake = false;
  std::string m_afterBakeTool;
  nlohmann::json m_afterBakeState;
  bool m_shotRequested = false, m_captureFrame = false;
  bool m_uiCapture = false; ///< This frame is captured: view-only hides the UI, the caption is drawn.
  std::string m_shotDir;
  OpenFileDialog m_folderDialog{"Choose screenshot folder", {}, "path/to/folder (typed, or pick one above)",
                                OpenFileDialog::Mode::Folder};
  /// The screenshot folder ("" = ./screenshots) usable: an existing writable folder, or made now
  /// when `create` (else one that does not exist yet is fine). False with a message naming it.
  bool checkShotDir(bool create, std::string& why) const;
  void shotDirChanged(); ///< Logs the new screenshot folder, or why F12 cannot save there.
  bool m_shotCaption = false, m_shotViewOnly = false;
  LevelLoader m_levelLoader;      ///< A big level loading in the background (openLevel).
  bool m_levelLoadSiblingNav = true;
  std::string m_levelLoadNav; ///< Tile set to open once the background level load ends (the command line's).
  std::string m_toast;
  bool m_toastError = false;
  double m_toastUntil = 0;
};

} // namespace navbench
