// CaptureSession.h: the Captured queries panel's state without ImGui: one open path capture
// (.nbcap, nav/CaptureFile.h: a game's navmesh, its queries and Detour's answers), each query
// replayed on NavBench's nav (app/model/CaptureReplay.h, the code `navbench replay` runs) with its
// result (ok, MISMATCH and the first difference, or stale), and the selected row. std + nav + the
// replay model only: app/panels/CapturePanel.* draws it and shows the selected query in a tester.
//
// The capture's navmesh is not held here: it is the viewer's open navmesh (NavState), which the
// caller passes to replay(). A selection asks the view to show the query (showRequested()); a
// scenario restores the selection without that request (its own tool state and filter win).
#pragma once

#include "app/model/CaptureReplay.h"
#include "nav/CaptureFile.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <utility>
#include <vector>

namespace nav {
class NavMesh;
}

namespace navbench {

/// A row's result as the panel shows it: "ok" (identical), "MISMATCH" (differs), "stale",
/// "failed", or "-" before a replay.
const char* captureRowLabel(const CaptureQueryResult* r);

class CaptureSession {
public:
  CaptureSession();
  ~CaptureSession();

  /// Takes a loaded capture's queries (nav::loadCaptureFile's `out`; its navmesh went to the
  /// viewer's NavState). The previous capture, results and selection are dropped; the first query
  /// is selected and shown (showRequested()).
  void open(const std::string& path, nav::Capture&& capture);
  /// No capture (another navmesh was opened).
  void close();
  bool isOpen() const { return !m_path.empty(); }
  const std::string& path() const { return m_path; }
  const std::vector<nav::CapturedQuery>& queries() const { return m_capture.queries; }

  /// The queries have not been replayed on the navmesh `meshKey` names (any text that changes
  /// when the navmesh does).
  bool stale(const std::string& meshKey) const { return isOpen() && (!m_ran || meshKey != m_ranOn); }
  /// Replays every query that is not stale on `mesh` (the capture's navmesh as the viewer holds it)
  /// stage by stage with the game's inputs, and compares NavBench's answers with the game's
  /// (replayCapture: what `navbench replay` runs).
  void replay(const nav::NavMesh& mesh, const std::string& meshKey);
  bool ran() const { return m_ran; }

  /// Query i's replay (outcome, first difference, NavBench's answers), or null before a replay.
  const CaptureQueryResult* result(size_t i) const { return m_ran && i < m_results.size() ? &m_results[i] : nullptr; }
  /// Queries replayed with this outcome.
  int count(CaptureOutcome o) const;

  /// Selects row i and asks the view to show it (false when out of range: nothing changes).
  bool select(int i) { return select(i, true); }
  /// The same; `show` false: only the selection (a scenario brings its own tool state).
  bool select(int i, bool show);
  int selected() const { return m_selected; }
  const nav::CapturedQuery* selectedQuery() const;
  /// The row `delta` rows from the selected one, clamped to the table (-1 when there is none).
  int rowFrom(int delta) const;
  /// A selection waits to be shown in its tester mode; taking it clears the request.
  bool showRequested() const { return m_showRequested; }
  bool takeShowRequest();
  /// The tester mode path queries are shown in ("" = Pathfind Straight; raycasts: Raycast), e.g.
  /// the A* Stepper asked for on the command line. Kept across captures.
  void setShowTool(std::string name) { m_showTool = std::move(name); }
  const std::string& showTool() const { return m_showTool; }

  /// --dump-state: file, ran, counts, selected, and per query: kind, note, flags, result, the
  /// first difference; for the selected one also the game's and NavBench's corridor and straight
  /// path (or raycast t and visited polys) and whether they are equal.
  void toJson(nlohmann::json& out) const;

private:
  std::string m_path;
  nav::Capture m_capture;
  std::vector<CaptureQueryResult> m_results;
  bool m_ran = false;
  std::string m_ranOn;
  int m_selected = -1;
  bool m_showRequested = false;
  std::string m_showTool;
};

/// "path" or "raycast".
const char* captureKindName(const nav::CapturedQuery& q);

} // namespace navbench
