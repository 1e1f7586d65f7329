// TestCaseSession.h: the Test cases panel's state without ImGui: one open RecastDemo test-case
// file (app/model/TestCaseFile.h), its cases run on a navmesh with the CLI's own code
// (app/model/TestCaseRun.h), each case's expected-vs-actual check, the selected row, the level
// note (the file's `f` line against the open level) and the export line (a tester's start/end
// as a pf/rc line, appendable to the file). std + nav only: app/panels/TestCasePanel.* draws it.
//
// Messages for the log come back as TestCaseNotes (the caller forwards them to its log), so the
// session needs no app logger.
#pragma once

#include "app/model/TestCaseFile.h"
#include "app/model/TestCaseRun.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nav {
class NavMesh;
class NavMeshQuery;
} // namespace nav

namespace navbench {

struct TestCaseNote {
  enum Level { Info, Warning, Error } level = Info;
  std::string text;
};
using TestCaseNotes = std::vector<TestCaseNote>;

class TestCaseSession {
public:
  TestCaseSession();
  ~TestCaseSession();

  /// Reads and parses a test-case file; the previous file, results and selection are dropped.
  /// On error error() (and a note) say "<file>:<line>: <problem>", there are no cases, and false.
  bool open(const std::string& path, TestCaseNotes* notes);
  /// open() on the file again (false when none is open).
  bool reload(TestCaseNotes* notes);

  /// The cases have not run on the navmesh `meshKey` names (any text that changes when the
  /// navmesh does; "" = none).
  bool stale(const std::string& meshKey) const { return !m_cases.empty() && (!m_ran || meshKey != m_ranOn); }
  /// Runs every case on `mesh` (null: no navmesh; results stay empty) and checks each against its
  /// expectation. A case's time is the best of repeats() runs.
  void runAll(const nav::NavMesh* mesh, const std::string& meshKey, TestCaseNotes* notes);
  /// Runs per case in runAll: 3 (1 in files over 2000 cases): one run is a few µs, which a context
  /// switch would dominate.
  int repeats() const { return m_cases.size() <= 2000 ? 3 : 1; }

  /// Selects row i (false when out of range: the selection stays).
  bool select(int i);
  /// The row `delta` rows from the selected one, clamped to the table (-1 when there are no cases).
  int rowFrom(int delta) const;

  /// Sets levelNote(): "Made on X; the open level is Y: ..." when the file's `f` line names
  /// neither `levelPath` nor `navPath` (stems compared, case-insensitive); else "".
  void updateLevelNote(const std::string& levelPath, const std::string& navPath);

  /// The line to export (formatCase of a case with these values), or none.
  void setExportCase(bool raycast, const float* s, const float* e, uint16_t inc, uint16_t exc);
  void clearExport() { m_exportLine.clear(); }
  /// Appends exportLine() to the open file (atomically, in the file's line ending) and re-opens it.
  /// exportMessage() says what happened; false when nothing was written.
  bool appendExport(TestCaseNotes* notes);
  void setExportMessage(std::string msg) { m_exportMsg = std::move(msg); }

  /// path, error, sample, geometry, ran, selected, exportMessage, levelNote, exportLine and the
  /// cases (line, kind, s, e and, once run: status, polys, straight/len or t, check, diffs).
  void toJson(nlohmann::json& out) const;

  const std::string& path() const { return m_path; }
  const std::string& error() const { return m_error; }
  const TestCaseHeader& header() const { return m_header; }
  const std::vector<TestCase>& cases() const { return m_cases; }
  bool ran() const { return m_ran; }
  double runMs() const { return m_runMs; }
  int selected() const { return m_selected; }
  /// The case's result, or null before a run (or with no navmesh).
  const TestCaseResult* result(size_t i) const { return m_ran && i < m_results.size() ? &m_results[i] : nullptr; }
  /// -1 no expectation (or not run), 0 mismatch, 1 as expected.
  int check(size_t i) const { return m_ran && i < m_check.size() ? m_check[i] : -1; }
  /// The mismatch text ("corridor 12, expected 11; ...") or "".
  const std::string& diffs(size_t i) const;
  int passCount() const;
  int failCount() const;
  const std::string& levelNote() const { return m_levelNote; }
  const std::string& exportLine() const { return m_exportLine; }
  const std::string& exportMessage() const { return m_exportMsg; }

private:
  std::string m_path, m_error;
  std::vector<TestCase> m_cases;
  TestCaseHeader m_header;
  std::vector<TestCaseResult> m_results;
  std::vector<int> m_check;         ///< Per case: -1 no expectation, 0 mismatch, 1 as expected.
  std::vector<std::string> m_diffs; ///< Per case: the mismatch text.
  bool m_ran = false;
  std::string m_ranOn;              ///< meshKey of the run the results belong to.
  std::unique_ptr<nav::NavMeshQuery> m_query;
  TestCaseRunner m_runner;
  double m_runMs = 0;
  int m_selected = -1;
  std::string m_exportLine, m_exportMsg, m_levelNote;
};

} // namespace navbench
