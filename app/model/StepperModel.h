// StepperModel.h: the "A* Stepper" tester mode's state and compute (headless): a path search
// stepped one expansion at a time, with why it chose what it chose.
//
// The total is learnt by running the search once to the end whenever start, end, filter, node
// budget or algorithm change; any index k in 0..total is reached by replaying the search from the
// start (searches are deterministic), or, for the sliced searches going forward, by continuing the
// live search. So goTo(k) after goTo(n) holds the same state as a fresh goTo(k).
//
// Algorithms: findPath (Detour's A*, nodes at edge midpoints, one node per polygon and tile-border
// side), findPath with the closest-point cost model, Detour's sliced findPath, the sliced any-angle
// search (raycast shortcuts), the exact search (nav::ShortestPath: intervals and roots), and the
// hierarchical search (nav/HierPlanner.h: its abstract A* over tile-border entrances, one pop a
// step, then the refinement's A* inside the corridor of clusters, one expansion a step; the end is
// HierPlanner::findPath's own answer; of a refinement that had to widen the corridor or search
// without one, the pass that answered is stepped). The A*
// ones are explained through nav::SearchObserver: every neighbour relaxation of the last expansion
// with its result (accepted new / better, rejected: worse total, filtered, out of nodes, ...).
//
// Captured at each index: the A* nodes (g, h, total, parent), the open list sorted by total (the
// next to expand first), the last expansion's relaxations, the node nearest the goal; or the exact
// search's nodes (interval, root, g, f, parent) and the ones the last expansion made. At the end:
// the corridor and its straight path. The view (app/tools/ToolStepper.h) draws and lists these.
#pragma once

#include "app/model/TesterModel.h"
#include "nav/HierPlanner.h"
#include "nav/NavMeshQuery.h"

#include <memory>
#include <string>
#include <vector>

namespace nav {
class ShortestPath;
}

namespace navbench {

class StepperModel : public PathTesterModel {
public:
  StepperModel();
  ~StepperModel() override;
  const char* name() const override { return "A* Stepper"; }

  enum Algo { ALGO_FINDPATH, ALGO_CLOSEST, ALGO_SLICED, ALGO_ANY_ANGLE, ALGO_EXACT, ALGO_HIERARCHICAL, ALGO_COUNT };
  /// Stable names (scenario files, dumps): findPath, closestPoint, sliced, anyAngle, exact, hierarchical.
  static const char* algoKey(int algo);
  /// The stable name of a relaxation result ("acceptNew", "rejectWorse", ...).
  static const char* resultKey(uint8_t result);

  /// A search node as shown (A*: one per pool node, in pool order).
  struct NodeInfo {
    nav::PolyRef ref = 0;
    uint8_t state = 0, flags = 0;
    int parent = -1; ///< Index into nodes(), -1 for the start.
    float pos[3] = {0, 0, 0};
    float g = 0, h = 0, total = 0;
  };
  /// One relaxation of the last expansion.
  struct Relax {
    nav::RelaxEvent ev;       ///< ev.node is cleared (the pool changes with the next search).
    int node = -1;            ///< Index into nodes() of the neighbour's node, -1 when none.
    float pos[3] = {0, 0, 0}; ///< Where it is drawn (its node, else the portal midpoint).
  };
  /// A node of the exact search: an interval (left, right) seen from a root.
  struct ExactNode {
    float left[3], right[3], root[3];
    float f, g;
    nav::PolyRef poly;
    int parent; ///< Index into exactNodes(), -1 for the start's.
  };

  /// Moves to expansion index k (clamped to 0..total): continues or replays the search.
  void goTo(int k);
  void step() { goTo(m_index + 1); }
  int index() const { return m_index; }
  int total() const { return m_total; }
  int algorithm() const { return m_algo; }
  /// Another algorithm: counts its expansions and goes to the same index (clamped).
  void setAlgorithm(int algo);
  /// --shortest: the exact search (off: findPath).
  void setShowShortest(bool on) override;
  bool isAStar() const { return m_algo != ALGO_EXACT; }
  bool isSliced() const { return m_algo == ALGO_SLICED || m_algo == ALGO_ANY_ANGLE; }
  /// Page Down's step count (>= 1).
  int stepN() const { return m_stepN; }
  void setStepN(int n) { m_stepN = n < 1 ? 1 : n; }
  /// The node picked in the open-list table: an index into nodes() (A*) or exactNodes(), -1 none.
  int selected() const { return m_selected; }
  void select(int node) { m_selected = node; }
  /// The node drawn nearest `p` (within 0.8 wu in xz, 2 wu in y): an index into nodes() (open or
  /// closed ones) or exactNodes() (interval midpoints); -1 when none.
  int nodeNear(const glm::vec3& p) const;
  /// "poly 12 accepted: new, g 1.00 + h 2.00 = 3.00" and the like.
  std::string describe(const Relax& r) const;

  // The state at index().
  bool finished() const { return m_finished; }
  nav::Status searchStatus() const { return m_searchStatus; }
  const std::vector<NodeInfo>& nodes() const { return m_nodes; }
  const std::vector<int>& open() const { return m_open; } ///< Indices into nodes(), sorted by total.
  const std::vector<Relax>& relaxations() const { return m_relax; }
  int expanded() const { return m_expanded; } ///< The node just expanded (index into nodes()), -1 none.
  int best() const { return m_best; }         ///< The node nearest the goal, -1 none.
  const std::vector<nav::PolyRef>& finalCorridor() const { return m_corridor; } ///< At the end.
  int nodeBudget() const { return m_boundNodes; }
  const std::vector<ExactNode>& exactNodes() const { return m_exactNodes; }
  int exactOpen() const { return m_exactOpen; }
  /// Exact nodes before the last expansion (-1: none); the ones after it are its successors.
  int exactPrevCount() const { return m_exactPrevCount; }
  int exactExpanded() const { return m_exactExpanded; } ///< -1: the start or none.
  float exactLen() const { return m_exactLen; }
  float resultLength() const override;

  // The hierarchical search (ALGO_HIERARCHICAL).
  // (The planner: PathTesterModel::planner(), the app's shared one set by setHier.)
  /// Steps 0..abstractSteps() are the abstract search's pops; the rest the refinement's expansions.
  int abstractSteps() const { return m_hierAbstract; }
  bool inAbstractPhase() const { return m_algo == ALGO_HIERARCHICAL && m_index <= m_hierAbstract; }
  /// The abstract search at index() (all of it once in the refinement).
  const std::vector<nav::HierPlanner::AbstractNode>& abstractNodes() const { return m_hierNodes; }
  int abstractLastPopped() const { return m_hierLast; } ///< Node id, -1 none.
  /// The abstract path once the goal is popped: points (start, entrances, end) [(x, y, z) * n].
  const std::vector<float>& abstractPathPoints() const { return m_hierPathPts; }
  int refinePass() const { return m_hierPass; } ///< HierPlanner::lastRefinePass() of this query.

protected:
  void recompute() override;
  void dumpResult(nlohmann::json& out) const override;
  /// Scenario options: {"algorithm": algoKey, "index": the expansion shown, "stepN": Page Down's
  /// step count (optional)}; a loaded index is replayed after the recompute (clamped).
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const base::JsonIn& in) override;
  void afterScenarioLoad() override;
  std::string captionDetail() const override; ///< " (findPath, step 12/75)"

private:
  struct Observer;
  int options() const;
  bool prepare();                  ///< Query objects bound to the current mesh and node budget.
  void countTotal();               ///< Runs the whole search once: m_total.
  nav::Status runFresh(int k);     ///< From scratch to k expansions.
  /// The live exact search from expansion `from` to k (> from), noting the node count at k-1.
  nav::Status continueExact(int from, int k);
  void capture(nav::Status st);    ///< Copies the search state (and finalizes at the end).
  void countHier();                ///< m_total of the hierarchical search (abstract pops + refinement).
  void goToHier(int k);
  void clearState();

  std::unique_ptr<nav::NavMeshQuery> m_query;
  nav::NavMeshQuery* m_active = nullptr; ///< The query capture() reads (m_query, or the planner's).
  int m_hierAbstract = 0, m_hierPass = 0, m_hierLast = -1;
  bool m_hierReached = false;
  std::vector<nav::HierPlanner::AbstractNode> m_hierNodes;
  std::vector<int> m_hierPath;
  std::vector<float> m_hierPathPts;
  std::unique_ptr<Observer> m_observer;
  std::unique_ptr<nav::ShortestPath> m_exact;
  const void* m_boundMesh = nullptr;
  int m_boundNodes = 0;

  int m_algo = ALGO_FINDPATH;
  int m_index = 0, m_total = 0;
  int m_stepN = 10;
  int m_restoreIndex = 0;     ///< Scenario: the step to replay to after loading.
  bool m_live = false;        ///< The query object holds the sliced / exact search at m_index (can continue).
  nav::Status m_searchStatus = 0;
  nav::PolyRef m_lastStartRef = 0, m_lastEndRef = 0;
  glm::vec3 m_lastStart{0.0f}, m_lastEnd{0.0f};

  std::vector<NodeInfo> m_nodes;
  std::vector<int> m_open;
  std::vector<Relax> m_relax;
  int m_expanded = -1, m_best = -1;
  int m_selected = -1;
  bool m_finished = false;
  std::vector<nav::PolyRef> m_corridor; ///< Sized to the corridor (m_path of PathTesterModel is unused here).
  float m_exactLen = 0;
  std::vector<ExactNode> m_exactNodes;
  int m_exactOpen = 0;
  int m_exactPrevCount = -1;
  int m_exactExpanded = -1;
};

} // namespace navbench
