// TestCasePanel.h: RecastDemo test-case files in the viewer (issue 7). Open a `pf`/`rc` file
// (File > Open test cases..., or drop a .txt on the window), run every case with the CLI's own code
// (app/cli/TestCaseRun.h: RecastDemo's conventions, 2048 nodes, the case's filter flags), and
// show one table row per case: kind, status, corridor, straight corners, path length, time, and
// the expected-vs-actual mark when the file has `# expect` lines. Clicking a row switches to
// Pathfind Straight (pf) or Raycast (rc), sets the case's start/end there and frames the camera on
// it. "Export" turns the active tester tool's start/end into a pf/rc line: to the clipboard, or
// appended to the open file (atomic write). Errors (missing file, bad line N) show in the panel
// and the log. The file's `f` line names its OBJ: when it is not the open level, the panel says so.
#pragma once

#include "app/Log.h"
#include "app/cli/TestCaseFile.h"
#include "app/cli/TestCaseRun.h"
#include "app/panels/Panels.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <string>
#include <vector>

namespace nav {
class NavMeshQuery;
}
namespace render {
class Camera;
}

namespace navbench {

class Level;
class NavState;
class Tool;

class TestCasePanel {
public:
  TestCasePanel();
  ~TestCasePanel();

  /// What the panel may use and change in the app (tool switch, tester points, camera).
  struct Context {
    NavState* nav = nullptr;
    const Level* level = nullptr;
    std::vector<std::unique_ptr<Tool>>* tools = nullptr;
    int* activeTool = nullptr;
    render::Camera* camera = nullptr;
    Log* log = nullptr;
  };

  /// Reads and parses a test-case file and shows the panel. On error the panel shows (and the
  /// log gets) "<file>:<line>: <problem>" and no cases; returns false.
  bool open(const std::string& path, Log& log);
  /// Shows the file dialog (File > Open test cases...), starting in `dir`.
  void openDialog(const std::string& dir);
  /// Draws the dialog and, when visible, the panel. Runs the cases when the file or the navmesh
  /// changed since the last run.
  void draw(Context& ctx);
  /// The file, the results and the selected row as JSON (for --dump-state and tests).
  void dumpState(nlohmann::json& out) const;

  bool visible = false;

private:
  void runAll(NavState& nav, Log& log);
  void showCase(int i, Context& ctx);
  void exportUi(Context& ctx);
  void drawTable(Context& ctx);

  std::string m_path, m_error;
  std::vector<TestCase> m_cases;
  TestCaseHeader m_header;
  std::vector<TestCaseResult> m_results;
  std::vector<int> m_check;                ///< Per case: -1 no expectation, 0 mismatch, 1 as expected.
  std::vector<std::string> m_diffs;        ///< Per case: the mismatch text.
  bool m_ran = false;
  std::string m_ranOn;                     ///< Signature of the navmesh the results belong to.
  std::unique_ptr<nav::NavMeshQuery> m_query;
  TestCaseRunner m_runner;
  double m_runMs = 0;
  int m_selected = -1;
  bool m_frameCamera = true, m_useCaseFlags = true;
  std::string m_exportLine, m_exportMsg;
  std::string m_levelNote;                 ///< "Made on X; the open level is Y..." or "".
  float m_firstRowPos[2] = {-1, -1};       ///< Window pixel of the first row's centre (for tests).
  float m_appendPos[2] = {-1, -1};         ///< ... and of the "Append to file" button.
  OpenFileDialog m_dialog;
};

} // namespace navbench
