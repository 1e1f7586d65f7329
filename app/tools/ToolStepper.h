// ToolStepper.h: the "A* Stepper" tester mode (issue 7): step a path search one expansion at a
// time and see why it chose what it chose.
//
// Controls: Step (Space, Right), Step N (Page Down / Page Up back), Run to end (End), Step back
// (Left), Reset to the start (Home), and a slider over the expansion index 0..total. The total is
// learnt by running the search once to the end whenever start, end, filter, node budget or
// algorithm change; any index is reached by replaying the search from the start (searches are
// deterministic), or, for the sliced searches going forward, by continuing the live search.
//
// Algorithms: findPath (Detour's A*, nodes at edge midpoints, one node per polygon and tile-border
// side), findPath with the closest-point cost model, Detour's sliced findPath, the sliced any-angle
// search (raycast shortcuts), and the exact search (nav::ShortestPath: intervals and roots). The A*
// ones are explained through nav::SearchObserver: every neighbour relaxation of the last expansion
// with its result (accepted new / better, rejected: worse total, filtered, out of nodes, ...).
//
// Drawn at every step: closed nodes (amber), open nodes (blue), each at its position (edge
// midpoint) with an arrow from its parent, the node just expanded (red) and its neighbours coloured
// by result (green accepted, orange worse, grey filtered, red out of nodes); the node selected in the
// open-list table (white, with its parent chain) and the hovered node. At the end: the corridor and
// its straight path over the tree; the node nearest the goal when the result is partial.
// The "A* stepper" window lists the open nodes sorted by total (ref, g, h, total, parent) and the
// last expansion's relaxations with their reasons.
#pragma once

#include "app/tools/Tester.h"
#include "nav/NavMeshQuery.h"

#include <memory>
#include <string>
#include <vector>

namespace nav {
class ShortestPath;
}

namespace navbench {

class ToolStepper : public PathTester {
public:
  ToolStepper();
  ~ToolStepper() override;
  const char* name() const override { return "A* Stepper"; }
  void step() override { goTo(m_index + 1); }
  /// --shortest: step the exact search.
  void setShowShortest(bool on) override;

  enum Algo { ALGO_FINDPATH, ALGO_CLOSEST, ALGO_SLICED, ALGO_ANY_ANGLE, ALGO_EXACT, ALGO_COUNT };
  /// Stable names (scenario files, dumps).
  static const char* algoKey(int algo);

  /// Moves to expansion index k (clamped to 0..total): continues or replays the search.
  void goTo(int k);
  int index() const { return m_index; }
  int total() const { return m_total; }

protected:
  void recompute() override;
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  void dumpResult(nlohmann::json& out) const override;
  /// Scenario options: {"algorithm": "findPath" | "closestPoint" | "sliced" | "anyAngle" | "exact",
  /// "index": the expansion shown, "stepN": Page Down's step count (optional)}; a loaded index is
  /// replayed after the recompute (clamped).
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const nlohmann::json& in, std::string& error) override;
  void afterScenarioLoad() override;
  float resultLength() const override;
  std::string captionDetail() const override; ///< " (findPath, step 12/75)"

private:
  struct Observer;
  /// A search node as shown (A*: one per pool node, in pool order).
  struct NodeInfo {
    nav::PolyRef ref = 0;
    uint8_t state = 0, flags = 0;
    int parent = -1; ///< Index into m_nodes, -1 for the start.
    float pos[3] = {0, 0, 0};
    float g = 0, h = 0, total = 0;
  };
  /// One relaxation of the last expansion.
  struct Relax {
    nav::RelaxEvent ev;
    int node = -1;               ///< Index into m_nodes of the neighbour's node, -1 when none.
    float pos[3] = {0, 0, 0};    ///< Where it is drawn (its node, else the portal midpoint).
  };

  bool isAStar() const { return m_algo != ALGO_EXACT; }
  bool isSliced() const { return m_algo == ALGO_SLICED || m_algo == ALGO_ANY_ANGLE; }
  int options() const;
  bool prepare();                  ///< Query objects bound to the current mesh and node budget.
  void countTotal();               ///< Runs the whole search once: m_total.
  nav::Status runFresh(int k);     ///< From scratch to k expansions.
  /// The live exact search from expansion `from` to k (> from), noting the node count at k-1.
  nav::Status continueExact(int from, int k);
  void capture(nav::Status st);    ///< Copies the search state (and finalizes at the end).
  void clearState();
  int hoveredNode() const;
  void describe(const Relax& r, char* buf, size_t n) const;
  void summaryUi(); ///< Counts, corridor, partial / out-of-nodes notes (top of the "A* stepper" window).
  void tableUi();   ///< The "A* stepper" window: open list and the last expansion's relaxations.
  void drawFinalChain(render::DebugDraw& dd) const; ///< At the end: the corridor's branch of the tree.

  std::unique_ptr<nav::NavMeshQuery> m_query;
  std::unique_ptr<Observer> m_observer;
  std::unique_ptr<nav::ShortestPath> m_exact;
  const void* m_boundMesh = nullptr;
  int m_boundNodes = 0;

  int m_algo = ALGO_FINDPATH;
  int m_index = 0, m_total = 0;
  int m_stepN = 10;
  int m_restoreIndex = 0;      ///< Scenario: the step to replay to after loading.
  bool m_live = false;        ///< The query object holds the sliced / exact search at m_index (can continue).
  nav::Status m_searchStatus = 0;
  nav::PolyRef m_lastStartRef = 0, m_lastEndRef = 0;
  glm::vec3 m_lastStart{0.0f}, m_lastEnd{0.0f};

  // The state at m_index.
  std::vector<NodeInfo> m_nodes;
  std::vector<int> m_open;     ///< Open nodes sorted by total (the next to expand first).
  std::vector<Relax> m_relax;  ///< The last expansion's relaxations.
  int m_expanded = -1, m_best = -1;
  int m_selected = -1;         ///< Node picked in the table (index into m_nodes, or m_exactNodes for the exact search).
  float m_firstRow[3] = {-1, -1, 0}; ///< The open table's first row centre (window pixels) and row pitch.
  bool m_finished = false;
  std::vector<nav::PolyRef> m_corridor; ///< Sized to the corridor (m_path of PathTester is unused here).
  float m_exactLen = 0;
  struct ExactNode {
    float left[3], right[3], root[3];
    float f, g;
    nav::PolyRef poly;
    int parent;
  };
  std::vector<ExactNode> m_exactNodes;
  int m_exactOpen = 0;
  int m_exactPrevCount = -1; ///< Exact nodes before the last expansion (-1: none); later ones are its successors.
  int m_exactExpanded = -1;  ///< The exact node the last expansion expanded (-1: the start or none).
};

} // namespace navbench
