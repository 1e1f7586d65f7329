// App.h: the viewer's shell: the SDL2 window and GL 3.3 core context, Dear ImGui, and the thin
// frame loop that routes input and draws. What the user has open lives in the Document; the tools
// (tools/) and panels (panels/) are registered lists; the scripted input of headless runs
// (ScriptDriver), scenario and screenshot actions (ScenarioActions), prompts (Prompts), menus and
// shortcuts (Menus.cpp), the 3D view (SceneDraw.cpp), the state dump (StateDump.cpp), the frame
// benchmark (FrameBenchmark.cpp) and the recovery journal with the stop signals (AppRecovery.cpp)
// each have a file of their own.
//
// Frame order follows the ImGui SDL2 + OpenGL3 example: events -> ImGui new frame -> UI ->
// ImGui::Render -> 3D scene (level, tool debug draw) -> ImGui draw data -> swap.
// Headless: with a screenshot path the app renders a few frames (so ImGui has laid out), writes
// the last one as PNG and returns; SDL_VIDEODRIVER=offscreen needs no display. Headless and
// offscreen runs wait for each frame (glFinish): software GL otherwise queues frames without bound.
// Unsaved work is journaled (app/model/Recovery.h, interactive runs only); SIGTERM, SIGINT and
// SIGHUP write the journal and exit (code 128 + signal) within a second, without a prompt.
#pragma once

#include "app/AppOptions.h"
#include "app/Document.h"
#include "app/Log.h"
#include "app/NavDraw.h"
#include "app/Prompts.h"
#include "app/ScenarioActions.h"
#include "app/ScriptDriver.h"
#include "app/Settings.h"
#include "app/model/Recovery.h"
#include "app/panels/Panels.h"
#include "app/panels/TestCasePanel.h"
#include "render/DebugDraw.h"
#include "render/MeshBuffer.h"
#include "render/Shader.h"

#include <SDL.h>

#include <memory>
#include <string>
#include <vector>

namespace navbench {

class App final : private DocumentHost {
public:
  App();
  ~App() override;
  /// Runs until the window closes (or the screenshot is written). Returns the process exit code.
  int run(const AppOptions& options);

  /// The directories searched for shaders, in order.
  static std::vector<std::string> shaderSearchDirs();

private:
  bool init(std::string& error);
  /// Opens what the command line names; false when a headless or displayless run must stop (exit
  /// code in `code`) (StartFiles.cpp).
  bool openStartFiles(int& code);
  /// SDL runs on its offscreen or dummy video driver: no one sees the window (StartFiles.cpp).
  static bool displayless();
  void shutdown();
  void saveSettingsAtExit();
  void processEvent(const SDL_Event& e);
  void onKeyDown(const SDL_Keysym& key); // Menus.cpp
  void updateCamera(float dt);
  void updateHover();
  /// The camera ray through window pixel (px, py) (a pixel centre: x + 0.5) and the first level
  /// surface drawn under it (the front sides of the triangles, or both with View > Two-sided
  /// level); false when the ray hits no level triangle (`ray` is set either way).
  bool levelUnder(float px, float py, render::Ray& ray, RayHit& hit) const;
  void pick(float mx, float my, bool shift, bool right = false);
  void frameLevel();
  void saveSettings();
  void drawUi();
  void drawMenuBar(std::string& toOpen); // Menus.cpp
  void drawScene(int w, int h);          // SceneDraw.cpp
  Panel* findPanel(const char* name);
  void openFileDialog();
  /// Writes the panel layout to `path` atomically ("" = not saved: headless runs).
  static void saveImguiIni(const std::string& path);
  // Recovery journal and stop signals (AppRecovery.cpp).
  /// Keeps the journal in step (interactive runs): written on a change while unsaved, removed once clean.
  void updateJournal();
  /// A level was opened: restore its journal (--recover), or ask (interactive), or leave it.
  void checkJournal(int& exitCode);
  /// A stop signal arrived: the journal is written now (interactive runs), then the process exits.
  [[noreturn]] void stopOnSignal(int sig);
  /// --dump-state: the open files, the active tool's state, the windows... as JSON (StateDump.cpp).
  bool writeState(const std::string& path, std::string& error) const;
  /// --bench-frames (FrameBenchmark.cpp): a path across the navmesh, then one frame's figures a
  /// frame; true once the last frame was measured and its line printed.
  void setBenchPath();
  bool benchFrame(int& frame, double finishMs, int w, int h);

  // DocumentHost
  bool headless() const override { return m_headless; }
  bool asksForMovedFiles() const override { return (!m_headless && !m_displayless) || m_opt.askMoved; }
  void levelReplaced() override;
  void levelRecolour() override;
  void navmeshReplaced() override { m_navCache.invalidate(); }
  void fileOpened(const std::string& path) override;
  void notify(const std::string& text, bool error) override { m_scenes.notify(text, error); }
  void askForMovedFiles(const MovedFiles& moved) override { m_prompts.askForMovedFiles(moved); }
  void loadTimeBakeStarted() override;
  void openFilesChanged() override;
  bool readImageText(const std::string& path, std::vector<std::pair<std::string, std::string>>& text,
                     std::string& error) override;

  AppOptions m_opt;
  bool m_headless = false;
  bool m_displayless = false; ///< Not headless, but on SDL's offscreen or dummy driver (displayless()).
  bool m_running = true;
  SDL_Window* m_window = nullptr;
  SDL_GLContext m_gl = nullptr;
  bool m_imguiReady = false;
  std::string m_imguiIni;

  Log m_log;
  Settings m_settings;
  std::string m_settingsPath;
  Document m_doc{m_log, *this};
  ScriptDriver m_script{m_opt};
  ScenarioActions m_scenes{m_doc, m_log};
  RecoveryJournal m_journal;
  Prompts m_prompts{m_doc, m_log, m_running, m_journal};
  TestCasePanel m_testCases{m_doc.testCases, m_doc.testCasesVisible}; ///< The Test cases window (a view).
  bool m_journalCheck = false; ///< A level was opened: look for its journal once it is loaded.
  bool m_waitFrames = false;   ///< glFinish each frame (headless, offscreen: no frame queue pile-up).
  std::vector<std::unique_ptr<Panel>> m_panels;
  PanelLayout m_panelLayout; ///< Where the panels go; which ones the user placed.
  OpenFileDialog m_openDialog;
  float m_menuBarHeight = 0;

  // Drawing.
  render::Shader m_levelShader;
  render::MeshBuffer m_levelMesh;
  render::DebugDraw m_debugDraw;
  NavDrawCache m_navCache; ///< The navmesh overlays as static GPU buffers per tile chunk.
  FrameStats m_stats;

  // Mouse state: a left press becomes a click if released without dragging.
  bool m_leftDown = false, m_rightDown = false, m_dragged = false, m_rightDragged = false;
  bool m_toolDrag = false; ///< The active tool took the left drag (Tool::dragBegin).
  int m_pressX = 0, m_pressY = 0;
  int m_frameIndex = 0;

  // --bench-frames
  std::vector<float> m_benchMs; ///< CPU ms of each measured frame.
  long long m_benchCalls = 0, m_benchVerts = 0;
  double m_benchFinishMs = 0;   ///< Rendering still queued after the submit (glFinish).
};

} // namespace navbench
