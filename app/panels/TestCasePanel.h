// TestCasePanel.h: RecastDemo test-case files in the viewer (issue 7), a thin view over
// app/model/TestCaseSession.h. Open a `pf`/`rc` file
// (File > Open test cases..., or drop a .txt on the window), run every case with the CLI's own code
// (app/model/TestCaseRun.h: RecastDemo's conventions, 2048 nodes, the case's filter flags), and
// show one table row per case: kind, status, corridor, straight corners, path length, time, and
// the expected-vs-actual mark when the file has `# expect` lines. Clicking a row switches to
// Pathfind Straight (pf) or Raycast (rc), sets the case's start/end there and frames the camera on
// it. "Export" turns the active tester tool's start/end into a pf/rc line: to the clipboard, or
// appended to the open file (atomic write). Errors (missing file, bad line N) show in the panel
// and the log. The file's `f` line names its OBJ: when it is not the open level, the panel says so.
#pragma once

#include "app/Log.h"
#include "app/model/TestCaseSession.h"
#include "app/panels/Panels.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <string>
#include <vector>

namespace render {
class Camera;
}

namespace navbench {

class Level;
class NavState;
class PanelLayout;
class Tool;

/// The view of a TestCaseSession (app/model/TestCaseSession.h): its file dialog, window, table and
/// export row, and what a clicked row does to the app (tool switch, tester points, camera).
class TestCasePanel {
public:
  /// The view of the document's session; `visible` is the document's flag for it.
  TestCasePanel(TestCaseSession& session, bool& visible);
  ~TestCasePanel();

  /// What the panel may use and change in the app (tool switch, tester points, camera).
  struct Context {
    NavState* nav = nullptr;
    const Level* level = nullptr;
    std::vector<std::unique_ptr<Tool>>* tools = nullptr;
    int* activeTool = nullptr;
    render::Camera* camera = nullptr;
    Log* log = nullptr;
    PanelLayout* layout = nullptr; ///< Places the panel when it opens (Panels.h).
  };

  /// Opens a test-case file in the session and shows the panel. On error the panel shows (and the
  /// log gets) "<file>:<line>: <problem>" and no cases; returns false.
  bool open(const std::string& path, Log& log);
  /// Shows the file dialog (File > Open test cases...), starting in `dir`.
  void openDialog(const std::string& dir);
  /// Draws the dialog and, when visible, the panel. Runs the cases when the file or the navmesh
  /// changed since the last run.
  void draw(Context& ctx);
  /// The session's JSON plus the panel's (visible, row and button pixels) for --dump-state and tests.
  void dumpState(nlohmann::json& out) const;

  const TestCaseSession& session() const { return m_session; }

  bool& visible;

private:
  void runAll(NavState& nav, Log& log);
  void showCase(int i, Context& ctx);
  void exportUi(Context& ctx);
  void drawTable(Context& ctx);

  TestCaseSession& m_session;
  bool m_frameCamera = true, m_useCaseFlags = true;
  float m_firstRowPos[2] = {-1, -1};       ///< Window pixel of the first row's centre (for tests).
  float m_appendPos[2] = {-1, -1};         ///< ... and of the "Append to file" button.
  OpenFileDialog m_dialog;
};

} // namespace navbench
