// CheckModel.h: the Check panel's model (issue 27), headless: `navbench check`'s own checks
// (nav/check/NavCheck.h, the same code and defaults as the CLI) run on the open navmesh on a
// background thread, with progress (fraction + check name) and cancel; the findings listed by
// severity; what a finding is about as a Focus the view frames and shows; the per-poly detour
// heatmap; and a re-run when the navmesh changes (an edit, a re-bake, another file).
//
// The run works on a snapshot: start() serialises the mesh's tiles (nav/TileSetFile.h, refs kept)
// and copies the level's triangles, so edits swapping tiles on the main thread while it runs
// cannot race with it. Re-runs are whole runs (every check), started `debounceMs` after the last
// change of the mesh's generation(), and only while the caller asks for fresh results (the panel
// is shown); a change during a run cancels it first.
// Deterministic: the pairs come from `options.seed`, so the same mesh and options give the same
// findings in the same order (scenarios store the options and the selected finding, not results).
//
// A level with agent types (app/model/AgentSet.h) is checked once per type, as `navbench check
// LEVEL.json` does: each type's navmesh with `options` and that type's seeds of the level
// (levelSeeds / levelSeedAgents through nav/check/AgentSeeds.h, the CLI's code). The results are
// one report per type (reports()); the findings are grouped per type (in the order given), and
// result() and the heatmap are the shown type's (showAgent: the active one). A level without
// types is one report, as before.
#pragma once

#include "nav/check/CheckReport.h"
#include "nav/check/NavCheck.h"

#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace nav {
class NavMesh;
}

namespace navbench {

/// What a finding is about, for the view: the pair to show in Pathfind Straight, the island's polys
/// to tint, or a spot with a segment (seam span, link, portal, detail point to surface) to highlight.
struct CheckFocus {
  enum Kind { None, Pair, Island, Spot };
  Kind kind = None;
  nav::check::Vec3 pos{};        ///< Where to look (pair: start; island: centre).
  nav::check::Vec3 a{}, b{};     ///< Pair: start, end. Spot: the segment to draw.
  std::vector<nav::PolyRef> polys; ///< Island: its polys.
  nav::check::Vec3 boundsMin{}, boundsMax{}; ///< What to frame [Unit: wu], padded.
};

/// One row of the findings list.
struct CheckFinding {
  int report = 0; ///< The report it is of (CheckModel::reports(); 0 without agent types).
  int kind = 0;  ///< nav::check::CheckKind.
  int index = 0; ///< In the result's vector of that kind (islands: in `islands`).
  nav::check::Severity severity = nav::check::SEVERITY_WARNING;
  std::string text; ///< "(x, y, z): what" (describeFindings' line).
};

/// One agent type's navmesh to check (a level with agent types).
struct CheckAgent {
  int index = 0;     ///< The type's index in the level's `agents`.
  std::string name;
  uint32_t color = 0; ///< 0xRRGGBB
  const nav::NavMesh* mesh = nullptr; ///< Null: not baked yet (nothing runs).
};

/// One agent type's results (the only one, index -1 and no name, without agent types).
struct CheckReportOf {
  int index = -1;
  std::string name;
  uint32_t color = 0;
  nav::check::CheckOptions options; ///< What it ran with (its seeds included).
  nav::check::CheckResult result;
};

class CheckModel {
public:
  CheckModel();
  ~CheckModel(); ///< Cancels and joins a run.
  CheckModel(const CheckModel&) = delete;
  CheckModel& operator=(const CheckModel&) = delete;

  /// The checks and thresholds (CLI defaults: 2000 pairs, seed 1...); used by the next run.
  nav::check::CheckOptions options;
  /// The query filter of the checks (CLI default: RecastDemo's include 0xffef, exclude 0).
  uint16_t includeFlags = 0xffef, excludeFlags = 0;
  /// Re-run when the navmesh changes (while poll()'s wantFresh is true).
  bool autoRerun = true;
  double debounceMs = 400;
  /// Draw the per-poly ratio overlay (view state, kept in scenarios).
  bool heatmap = false;
  /// The Check panel is shown (view state, kept in scenarios; a scenario showing it runs the checks).
  bool shown = false;
  /// Something a scenario should keep: the panel shown, a finding selected or the heatmap on.
  bool worthSaving() const { return shown || heatmap || m_selected >= 0; }

  /// The level file's reachability seeds and their agent masks (nav/bake/LevelFile.h's seeds and
  /// seedAgents): each agent type's run takes its own (with agent types only; without, `options.seeds`).
  std::vector<nav::check::Vec3> levelSeeds;
  std::vector<uint32_t> levelSeedAgents;

  /// Level triangles for the surface check (copied by start()); null / empty: no surface check.
  struct LevelTris {
    const std::vector<float>* verts = nullptr; ///< [(x, y, z) * n]
    const std::vector<int>* tris = nullptr;    ///< [(a, b, c) * n]
  };

  /// Starts a run on a snapshot of `mesh` (a running one is cancelled first). False with `why` when
  /// it cannot start (no tiles, options out of range).
  bool start(const nav::NavMesh& mesh, const LevelTris& level, std::string* why = nullptr);
  /// Starts a run on every agent type's navmesh (snapshots; see above). False with `why` when one
  /// has no navmesh or no tiles, or the options are out of range.
  bool start(const std::vector<CheckAgent>& agents, const LevelTris& level, std::string* why = nullptr);
  /// Asks the run to stop; poll() then reports it cancelled (the old results stay).
  void cancel();
  bool running() const { return m_worker != nullptr; }
  /// The running check's name and the fraction done [0, 1].
  std::string phase() const;
  float progress() const { return m_progress.load(); }
  /// Blocks until the run ends, then polls it in (tests, headless runs).
  void wait();

  /// Once a frame: takes a finished run's results (true when new results arrived); when the mesh's
  /// generation differs from the one checked, `wantFresh` and autoRerun, starts a re-run
  /// debounceMs after the last change (nowMs: a steady clock). `mesh` null: no navmesh open.
  bool poll(const nav::NavMesh* mesh, const LevelTris& level, double nowMs, bool wantFresh);
  /// The same for a level with agent types: a change of any type's navmesh re-runs them all; an
  /// agent without a navmesh (baking) counts as no navmesh open.
  bool poll(const std::vector<CheckAgent>& agents, const LevelTris& level, double nowMs, bool wantFresh);
  /// The checked mesh changed since the results (an edit not re-checked yet).
  bool stale(const nav::NavMesh* mesh) const;
  bool stale(const std::vector<CheckAgent>& agents) const;
  /// The agent types' navmeshes moved between holders without changing (another agent made
  /// active): the results stay theirs, nothing re-runs. Only call it when they were not stale.
  void keepResults(const std::vector<CheckAgent>& agents);

  bool hasResult() const { return m_hasResult; }
  /// The shown report's result (showAgent).
  const nav::check::CheckResult& result() const { return m_reports[size_t(m_current)].result; }
  /// One report per checked agent type (one without agent types); the last run's.
  const std::vector<CheckReportOf>& reports() const { return m_reports; }
  /// The report result() and the heatmap are of: agent type `index`'s (the active one), else the first.
  void showAgent(int index);
  int shownReport() const { return m_current; }
  /// Errors first, then warnings; within a severity in check order, within a check in the
  /// result's order (detours: worst first).
  const std::vector<CheckFinding>& findings() const { return m_findings; }
  /// Findings of a check in the shown report (0 when it did not run).
  int count(int kind) const;
  /// Findings of a check in report `report`.
  int count(int report, int kind) const;
  /// "cancelled" / why the last run failed; "" after a good run.
  const std::string& error() const { return m_error; }
  /// Seconds the last finished run took.
  double seconds() const { return m_seconds; }
  /// Runs finished (results taken) since construction.
  int runs() const { return m_runs; }

  /// Selects finding `i` of findings() (-1: none), showing its report. False when out of range.
  bool select(int i);
  int selected() const { return m_selected; }
  /// What finding `i` is about (None when out of range).
  CheckFocus focus(int i) const;
  /// A ratio of the heatmap: worst sampled detour ratio of the corridors crossing `ref` (0: none).
  float heatOf(nav::PolyRef ref) const;

  /// The options and selection for a scenario: {"options": {"checks": [NAME...], "pairs", "seed",
  /// "includeFlags", "excludeFlags", "detourRatio", "detourMin", "nodeBudget", "minWidth"},
  /// "selected": {"kind": NAME, "index": N[, "agent": NAME]} | null, "heatmap": bool, "visible": bool}.
  void saveScenario(nlohmann::json& out) const;
  /// Restores saveScenario()'s JSON: the options now, the selection once the next run's results
  /// arrive (the run is deterministic, so it is the same finding). False with `why` (a JSON path
  /// and the problem); nothing changes then.
  bool loadScenario(const nlohmann::json& in, std::string* why);
  /// For --dump-state and tests: running, runs, error, counts per check, the findings (at most
  /// 20: kind, index, text), the selected one and its focus.
  void dumpState(nlohmann::json& out) const;
  /// A scenario asked for the checks: poll() runs them as soon as a navmesh is open.
  bool pendingRun() const { return m_pendingRun; }

private:
  struct Run;
  void finish();
  void buildFindings();
  bool startRun(const std::vector<CheckAgent>& agents, const LevelTris& level, std::string* why);
  bool pollRun(const std::vector<CheckAgent>& agents, const LevelTris& level, double nowMs, bool wantFresh);
  std::unique_ptr<Run> m_run;
  std::unique_ptr<std::thread> m_worker;
  std::atomic<bool> m_cancel{false}, m_done{false};
  std::atomic<float> m_progress{0.0f};
  mutable std::mutex m_phaseMutex;
  std::string m_phase;

  std::vector<CheckReportOf> m_reports{1}; ///< (one empty report before the first run)
  int m_current = 0;
  std::vector<CheckFinding> m_findings;
  std::vector<std::pair<nav::PolyRef, float>> m_heat; ///< Sorted by ref.
  bool m_hasResult = false;
  std::string m_error;
  double m_seconds = 0;
  int m_runs = 0;
  int m_selected = -1;
  uint64_t m_checkedGen = 0;  ///< Generation(s) of the mesh(es) the results (or the running run) are of.
  uint64_t m_seenGen = 0;     ///< Last generation(s) poll() saw.
  double m_changedAt = 0;     ///< When poll() saw it change.
  bool m_pendingRun = false;
  int m_pendingKind = -1, m_pendingIndex = -1; ///< A scenario's selection, for the next results.
  std::string m_pendingAgent;
};

} // namespace navbench
