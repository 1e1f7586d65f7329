// TesterModel.h: the headless part of the NavMeshTesterTool modes: a start and an end point on the
// navmesh, their nearest polys, the undo/redo list of those inputs, the query status and timing,
// the exact shortest-path comparison (nav::ShortestPath next to a mode's own path), and the
// scenario JSON ("start", "end", "shortest", "options") and --dump-state JSON. Each mode (declared
// in TesterModes.h, the A* stepper in StepperModel.h) computes its answer in recompute(); the views
// (app/tools/Tester.h) turn clicks into setStart / setEnd and draw what the model holds.
//
// No SDL, ImGui, GL or render here: tests/model drives these models on a NavState directly.
#pragma once

#include "app/model/HierSearch.h"
#include "nav/HierPlanner.h"
#include "nav/NavTypes.h"

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace base {
class JsonIn;
}
namespace nav {
class ShortestPath;
}

namespace navbench {

class NavState;

/// The exact shortest path (nav::ShortestPath) between the tester's start and end, compared with
/// a mode's corridor. Empty while the option is off or there is nothing to join.
struct ShortestComparison {
  std::vector<float> pts;            ///< [(x, y, z) * corners]
  std::vector<nav::PolyRef> polys;   ///< The polys the path crosses, in order.
  std::vector<nav::PolyRef> outside; ///< Of those, the ones not in the mode's corridor (each once, path order).
  nav::Status status = 0;
  float len = 0;  ///< ShortestPath's metric: xz on the mesh, 3D across off-mesh links, times area costs.
  double us = 0;  ///< Search time [Unit: microseconds].
};

class TesterModel {
public:
  static constexpr float kAgentRadius = 0.6f, kAgentHeight = 2.0f;
  static constexpr int kMaxPolys = 2048;

  TesterModel();
  virtual ~TesterModel();
  TesterModel(const TesterModel&) = delete;
  TesterModel& operator=(const TesterModel&) = delete;

  /// The mode's name in the tool list, scenarios and captions ("Pathfind Straight").
  virtual const char* name() const = 0;
  /// Does the mode use an end point? (Modes without one take every click as the start.)
  virtual bool needsEnd() const { return true; }

  /// The navmesh, query and filter to run on (null: none). Its contents may change: levelChanged().
  void setNav(NavState* nav) { m_nav = nav; }
  NavState* nav() const { return m_nav; }
  /// Called after an input change was recorded in the undo list, so that the change joins the
  /// app's one undo history. May be empty.
  std::function<void()> inputChanged;

  // ---- input ----------------------------------------------------------------------------------
  /// Sets the start / end (undoable) and recomputes.
  void setStart(const glm::vec3& p);
  void setEnd(const glm::vec3& p);
  /// A click at `p`: the start with Shift (or in a mode without an end), else the end.
  void click(const glm::vec3& p, bool shift);
  /// Forgets start and end (undoable).
  void clear();
  void undo();
  void redo();
  bool canUndo() const { return !m_undo.empty(); }
  bool canRedo() const { return !m_redo.empty(); }
  /// Forgets start, end and results (not recorded in the undo list).
  void reset();
  /// A new level or navmesh: the undo lists refer to the old one and are dropped; reset().
  void levelChanged();
  /// Snaps start/end to the mesh and recomputes (timed), then the shortest-path comparison.
  void recomputeAll();
  /// The "Shortest path" option (modes with a corridor; the sliced mode and the stepper step the
  /// exact search instead).
  virtual void setShowShortest(bool on);
  bool showShortest() const { return m_showShortest; }
  /// The mode's corridor for the shortest-path comparison (count >= 0), or -1: no such option.
  virtual int corridorForShortest(const nav::PolyRef** /*polys*/) const { return -1; }
  bool hasShortestOption() const {
    const nav::PolyRef* p = nullptr;
    return corridorForShortest(&p) >= 0;
  }

  // ---- state ----------------------------------------------------------------------------------
  bool hasStart() const { return m_hasStart; }
  bool hasEnd() const { return m_hasEnd; }
  const glm::vec3& start() const { return m_start; }
  const glm::vec3& end() const { return m_end; }
  nav::PolyRef startRef() const { return m_startRef; }
  nav::PolyRef endRef() const { return m_endRef; }
  nav::Status status() const { return m_status; }
  double queryUs() const { return m_queryUs; } ///< The last recompute [Unit: microseconds].
  int nodesUsed() const { return m_nodesUsed; }
  const ShortestComparison& shortest() const { return m_sp; }
  /// Length of the mode's path for captions [Unit: wu]; < 0 when the mode has none.
  virtual float resultLength() const { return -1.0f; }
  /// One line for screenshot captions: mode, start/end, status, path length.
  std::string caption() const;
  static float polylineLength(const float* pts, int n);

  // ---- JSON -----------------------------------------------------------------------------------
  /// --dump-state: "start"/"end" (when set), refs, status, statusText, queryUs, nodesUsed and the
  /// mode's results.
  void dumpState(nlohmann::json& out) const;
  /// Scenario files: {"start": [x, y, z], "end": [x, y, z] (each only when set, exact floats),
  /// "shortest": bool (modes with a path), "options": {the mode's options}}. loadScenario checks
  /// every key first (unknown keys are errors, messages name the JSON path), then applies them,
  /// recomputes and replays what the options ask (steps, iterations); on an error nothing changes.
  void saveScenario(nlohmann::json& out) const;
  bool loadScenario(const nlohmann::json& in, std::string& error);

protected:
  virtual void recompute() = 0;
  virtual void dumpResult(nlohmann::json& /*out*/) const {}
  /// The mode's options: loadOptions checks all of `in` and applies them only when all are valid
  /// (the default accepts an empty object only); afterScenarioLoad() runs after the recompute.
  virtual void saveOptions(nlohmann::json& /*out*/) const {}
  virtual bool loadOptions(const base::JsonIn& in);
  virtual void afterScenarioLoad() {}
  /// More for the caption after the mode's name (e.g. the stepper's " (findPath, step 12/75)").
  virtual std::string captionDetail() const { return std::string(); }

  /// Runs nav::ShortestPath when the option is on and compares it with `corridor`.
  void computeShortest(const nav::PolyRef* corridor, int ncorridor);
  void dumpShortest(nlohmann::json& out) const;
  /// "found" and "parents" [Size: n each] (a search's polys, parents 0 for a root).
  static void dumpFoundPolys(nlohmann::json& out, const nav::PolyRef* refs, const nav::PolyRef* parents, int n);
  /// Records the inputs in the undo list (and calls inputChanged).
  void pushUndo();

  NavState* m_nav = nullptr;
  bool m_showShortest = false;
  bool m_hasStart = false, m_hasEnd = false;
  glm::vec3 m_start{0.0f}, m_end{0.0f};
  nav::PolyRef m_startRef = 0, m_endRef = 0;
  nav::Status m_status = 0;
  double m_queryUs = 0;
  int m_nodesUsed = 0;

private:
  struct Input {
    bool hasStart, hasEnd;
    glm::vec3 start, end;
  };
  void restore(std::vector<Input>& from, std::vector<Input>& to);
  std::vector<Input> m_undo, m_redo;
  std::unique_ptr<nav::ShortestPath> m_spSearch;
  const void* m_spMesh = nullptr; ///< Mesh m_spSearch was initialised with.
  ShortestComparison m_sp;
};

/// The corridor search of a path mode: Detour's A* (the NavState's query and node budget) or the
/// hierarchical search over tiles (HierSearch's planner, nav/HierPlanner.h).
enum PathAlgo { PATH_DETOUR, PATH_HIERARCHICAL, PATH_ALGO_COUNT };

/// One algorithm's answer on the mode's start and end (the side-by-side table and drawing).
struct PathRun {
  bool ran = false;
  nav::Status status = 0;
  std::vector<nav::PolyRef> corridor;
  std::vector<float> straight; ///< findStraightPath along the corridor [(x, y, z) * corners]
  float len = 0;               ///< Of the straight path, 3D [Unit: wu].
  int nodes = 0;    ///< Detour: search nodes used; hierarchical: entrances popped + refinement nodes.
  double us = 0;    ///< The corridor search alone [Unit: microseconds].
  bool complete = false; ///< Succeeded, not partial, the corridor ends on the end poly.
  nav::HierStats hier;   ///< The hierarchical search's figures.
};

/// A mode with a path from the start toward the end (Pathfind Follow / Straight / Sliced, A*
/// Stepper): the polygon corridor and the straight path along it.
///
/// Modes that offer the algorithm choice (Follow, Straight) take these scenario options besides
/// their own: {"algorithm": "detour" | "hierarchical" (absent: detour), "sideBySide": bool (both
/// algorithms run, each in pathRun()), "graph": bool (the abstract graph overlay)}.
class PathTesterModel : public TesterModel {
public:
  /// comparesShortest: the mode offers the "Shortest path" comparison with its corridor;
  /// offersAlgorithm: the choice of corridor search (PathAlgo).
  explicit PathTesterModel(bool comparesShortest = false, bool offersAlgorithm = false)
      : m_offersAlgo(offersAlgorithm), m_comparesShortest(comparesShortest) {}
  ~PathTesterModel() override;

  /// Stable names (scenario files, dumps): "detour", "hierarchical".
  static const char* pathAlgoKey(int algo);
  bool offersAlgorithm() const { return m_offersAlgo; }
  int pathAlgorithm() const { return m_algo; }
  void setPathAlgorithm(int algo);
  bool sideBySide() const { return m_sideBySide; }
  void setSideBySide(bool on);
  bool showGraph() const { return m_showGraph; }
  void setShowGraph(bool on);
  /// The app's shared planner (the document's); without one the mode builds its own.
  void setHier(HierSearch* hier) { m_hier = hier; }
  /// The planner in use (built on first use), null without a navmesh.
  nav::HierPlanner* planner();
  /// Its holder (build and update times), null before the first use without a shared one.
  const HierSearch* hierSearch() const { return m_hier ? m_hier : m_ownHier.get(); }
  /// The algorithm's last answer (ran is false unless it is the mode's algorithm or sideBySide).
  const PathRun& pathRun(int algo) const { return m_runs[algo == PATH_HIERARCHICAL ? 1 : 0]; }
  /// With the graph overlay on and a hierarchical answer: the abstract path's points, the start,
  /// the entrances crossed, the end [(x, y, z) * n].
  const std::vector<float>& abstractPath() const { return m_abstractPts; }
  int corridorForShortest(const nav::PolyRef** polys) const override {
    if (!m_comparesShortest) return -1;
    *polys = m_path.data();
    return m_npath;
  }
  const nav::PolyRef* corridor() const { return m_path.data(); }
  int corridorSize() const { return m_npath; }
  const float* straight() const { return m_straight.data(); } ///< [(x, y, z) * straightSize()]
  const uint8_t* straightFlags() const { return m_flags.data(); } ///< STRAIGHTPATH_* per corner.
  int straightSize() const { return m_nstraight; }
  float straightLength() const { return polylineLength(m_straight.data(), m_nstraight); }

protected:
  /// findPath from the start to the end poly into m_path / m_npath (m_status, m_nodesUsed set),
  /// then corridorEnd(). False, with m_npath = 0 for no corridor, when there is nothing to join.
  bool findCorridor(float* endPos);
  /// Where a path along m_path ends [(x, y, z)]: the end point, or the nearest point of the last
  /// corridor poly when the corridor stops short of the end poly (a partial path). Needs m_npath > 0.
  void corridorEnd(float* endPos) const;
  /// "corridor": [poly refs], "straight": [(x, y, z) * m_nstraight].
  void dumpPath(nlohmann::json& out) const;
  /// The algorithm options ("algorithm", "sideBySide", "graph") and, side by side or with the
  /// hierarchical search, each run's figures ("runs": {"detour": {status, complete, polys, corners,
  /// len, nodes, us, corridor}, "hierarchical": {..., "hier": HierStats}}, "abstractPath").
  void dumpAlgorithm(nlohmann::json& out) const;
  /// The algorithm options (see the class comment), checked then applied by the caller's
  /// applyAlgorithmOptions() once all of a mode's options are valid.
  void saveAlgorithmOptions(nlohmann::json& out) const;
  struct AlgoOptions {
    int algo = PATH_DETOUR;
    bool sideBySide = false, graph = false;
  };
  bool parseAlgorithmOptions(const base::JsonIn& in, AlgoOptions* out) const;
  void applyAlgorithmOptions(const AlgoOptions& o);
  std::string captionDetail() const override;

  std::vector<nav::PolyRef> m_path = std::vector<nav::PolyRef>(kMaxPolys); ///< [Size: kMaxPolys], m_npath used.
  int m_npath = 0;
  std::vector<float> m_straight = std::vector<float>(kMaxPolys * 3); ///< [(x, y, z) * kMaxPolys], m_nstraight used.
  std::vector<uint8_t> m_flags = std::vector<uint8_t>(kMaxPolys);    ///< STRAIGHTPATH_* per straight path corner.
  int m_nstraight = 0;

private:
  /// Runs `algo` into `polys` [Size: kMaxPolys] and `run` (figures and straight path).
  void runAlgorithm(int algo, nav::PolyRef* polys, int* npolys, PathRun& run);
  bool m_offersAlgo;
  int m_algo = PATH_DETOUR;
  bool m_sideBySide = false, m_showGraph = false;
  HierSearch* m_hier = nullptr;
  std::unique_ptr<HierSearch> m_ownHier;
  PathRun m_runs[2];
  std::vector<nav::PolyRef> m_otherPath; ///< The side-by-side algorithm's corridor buffer [Size: kMaxPolys].
  std::vector<float> m_abstractPts;
  bool m_comparesShortest;
};

} // namespace navbench
