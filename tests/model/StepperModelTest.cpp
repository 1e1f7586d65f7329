// The A* stepper's model, headless: back and forth (goTo(k) after goTo(n) is a fresh goTo(k); a
// step back is a replay), the total is the search's own expansion count, the state at k is findPath
// stopped after k expansions, and at the end the corridor is the search's result.
#include "TesterFixture.h"

#include "app/model/StepperModel.h"
#include "nav/NodePool.h"
#include "nav/ShortestPath.h"

#include <algorithm>
#include <climits>

using navbench::StepperModel;
using navbench::test::stateOf;
using navbench::test::TesterFixture;
using nlohmann::json;

namespace {

/// Counts expansions and stops findPath after stopAt of them.
struct Counter : nav::SearchObserver {
  int stopAt = INT_MAX, expansions = 0;
  bool beforeExpand(int done) override { return done < stopAt; }
  void onExpand(const nav::Node&) override { ++expansions; }
};

class StepperFixture : public TesterFixture {
protected:
  void make(StepperModel& m, int algo) {
    m.setNav(&nav);
    m.setStart(start);
    m.setEnd(end);
    if (algo != m.algorithm()) m.setAlgorithm(algo);
  }
};

} // namespace

TEST_F(StepperFixture, TotalIsTheSearchsExpansionCount) {
  StepperModel m;
  make(m, StepperModel::ALGO_FINDPATH);
  Counter c;
  std::vector<nav::PolyRef> path(2048);
  int n = 0;
  q.setSearchObserver(&c);
  q.findPath(ref(start), ref(end), &start.x, &end.x, &nav.filter(), path.data(), &n, 2048);
  q.setSearchObserver(nullptr);
  EXPECT_GT(c.expansions, 3);
  EXPECT_EQ(m.total(), c.expansions);
  EXPECT_EQ(m.index(), 0);
  m.setAlgorithm(StepperModel::ALGO_SLICED);
  int iters = 0;
  q.initSlicedFindPath(ref(start), ref(end), &start.x, &end.x, &nav.filter());
  q.updateSlicedFindPath(INT_MAX, &iters);
  EXPECT_EQ(m.total(), iters);
  // At the end: the search's corridor, from the start poly to the end poly.
  m.setAlgorithm(StepperModel::ALGO_FINDPATH);
  m.goTo(m.total());
  ASSERT_TRUE(m.finished());
  EXPECT_EQ(m.finalCorridor(), std::vector<nav::PolyRef>(path.begin(), path.begin() + n));
  EXPECT_EQ(m.finalCorridor().front(), m.startRef());
  EXPECT_EQ(m.finalCorridor().back(), m.endRef());
  m.goTo(m.total() + 50);
  EXPECT_EQ(m.index(), m.total()) << "clamped";
}

TEST_F(StepperFixture, StateAtKIsFindPathStoppedAfterK) {
  StepperModel m;
  make(m, StepperModel::ALGO_FINDPATH);
  const int k = std::min(12, m.total() - 1);
  m.goTo(k);
  Counter c;
  c.stopAt = k;
  std::vector<nav::PolyRef> path(2048);
  int n = 0;
  q.setSearchObserver(&c);
  q.findPath(ref(start), ref(end), &start.x, &end.x, &nav.filter(), path.data(), &n, 2048);
  q.setSearchObserver(nullptr);
  const nav::SearchView v = q.searchView();
  ASSERT_EQ(int(m.nodes().size()), v.nodeCount);
  std::vector<nav::PolyRef> closed, gotClosed;
  for (int i = 0; i < v.nodeCount; ++i)
    if (v.pool->nodeAt(i).flags & nav::NODE_CLOSED) closed.push_back(v.pool->nodeAt(i).id);
  for (const StepperModel::NodeInfo& node : m.nodes())
    if (node.flags & nav::NODE_CLOSED) gotClosed.push_back(node.ref);
  EXPECT_EQ(gotClosed, closed);
  EXPECT_EQ(int(m.open().size()), v.openCount);
  for (size_t i = 1; i < m.open().size(); ++i) // sorted by total, the next to expand first
    EXPECT_LE(m.nodes()[size_t(m.open()[0])].total, m.nodes()[size_t(m.open()[i])].total);
  ASSERT_GE(m.expanded(), 0);
  EXPECT_EQ(&v.pool->nodeAt(m.expanded()), v.lastExpanded);
  EXPECT_FALSE(m.relaxations().empty());
  for (const StepperModel::Relax& r : m.relaxations()) {
    EXPECT_FALSE(m.describe(r).empty());
    EXPECT_STRNE(StepperModel::resultKey(r.ev.result), "unknown");
  }
}

TEST_F(StepperFixture, GoToAfterGoToIsAFreshGoToForEveryAlgorithm) {
  for (int algo = 0; algo < StepperModel::ALGO_COUNT; ++algo) {
    SCOPED_TRACE(StepperModel::algoKey(algo));
    StepperModel walked;
    make(walked, algo);
    const int total = walked.total();
    ASSERT_GT(total, 3);
    const int ks[] = {0, 1, total / 3, total / 2, total - 1, total};
    for (int k : ks) {
      StepperModel fresh;
      make(fresh, algo);
      fresh.goTo(k);
      for (int n : {total, 2, total / 2 + 1}) { // from behind and from ahead (a replay or a continuation)
        walked.goTo(n);
        walked.goTo(k);
        EXPECT_EQ(stateOf(walked), stateOf(fresh)) << "goTo(" << k << ") after goTo(" << n << ")";
      }
    }
    // Stepping forward one at a time, then one step back, is a replay to that index.
    StepperModel stepped;
    make(stepped, algo);
    for (int i = 0; i < total / 2 + 1; ++i) stepped.step();
    stepped.goTo(stepped.index() - 1);
    StepperModel replay;
    make(replay, algo);
    replay.goTo(total / 2);
    EXPECT_EQ(stateOf(stepped), stateOf(replay)) << "step back equals replay";
  }
}

TEST_F(StepperFixture, ExactSearchEndsOnShortestPathsPath) {
  StepperModel m;
  make(m, StepperModel::ALGO_EXACT);
  EXPECT_FALSE(m.isAStar());
  m.goTo(m.total());
  ASSERT_TRUE(m.finished());
  nav::ShortestPath sp;
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&nav.mesh(), nav.maxNodes())));
  std::vector<float> pts(2048 * 3);
  int n = 0;
  float len = 0;
  ASSERT_TRUE(nav::statusSucceeded(
      sp.findPath(ref(start), ref(end), &start.x, &end.x, &nav.filter(), pts.data(), nullptr, nullptr, &n, 2048, nullptr, nullptr, 0, &len)));
  EXPECT_FLOAT_EQ(m.exactLen(), len);
  ASSERT_EQ(m.straightSize(), n);
  for (int i = 0; i < n * 3; ++i) EXPECT_FLOAT_EQ(m.straight()[i], pts[size_t(i)]);
  // After 10 expansions: ShortestPath's own sliced search after 10 iterations.
  m.goTo(10);
  ASSERT_TRUE(nav::statusInProgress(sp.initSlicedFindPath(ref(start), ref(end), &start.x, &end.x, &nav.filter())));
  EXPECT_EQ(m.searchStatus(), sp.updateSlicedFindPath(10, nullptr));
  EXPECT_EQ(int(m.exactNodes().size()), sp.nodeCount());
  EXPECT_EQ(m.exactOpen(), sp.openCount());
  // Mid-search: the last expansion's new intervals all have the expanded node as parent.
  m.goTo(m.total() / 2);
  ASSERT_GE(m.exactPrevCount(), 0);
  for (size_t i = size_t(m.exactPrevCount()); i < m.exactNodes().size(); ++i)
    EXPECT_EQ(m.exactNodes()[i].parent, m.exactExpanded());
  // nodeNear finds a node at its interval's midpoint.
  ASSERT_FALSE(m.exactNodes().empty());
  const StepperModel::ExactNode& e = m.exactNodes().back();
  const glm::vec3 mid((e.left[0] + e.right[0]) * 0.5f, (e.left[1] + e.right[1]) * 0.5f, (e.left[2] + e.right[2]) * 0.5f);
  const int near = m.nodeNear(mid);
  EXPECT_GE(near, 0);
}

TEST_F(StepperFixture, ScenarioKeepsAlgorithmIndexAndStepN) {
  StepperModel m;
  make(m, StepperModel::ALGO_ANY_ANGLE);
  m.setStepN(7);
  m.goTo(m.total() / 2);
  json saved;
  m.saveScenario(saved);
  EXPECT_EQ(saved["options"]["algorithm"], "anyAngle");
  EXPECT_EQ(saved["options"]["index"], m.total() / 2);
  EXPECT_EQ(saved["options"]["stepN"], 7);
  StepperModel b;
  b.setNav(&nav);
  std::string error;
  ASSERT_TRUE(b.loadScenario(saved, error)) << error;
  EXPECT_EQ(b.algorithm(), StepperModel::ALGO_ANY_ANGLE);
  EXPECT_EQ(b.index(), m.index());
  EXPECT_EQ(b.stepN(), 7);
  EXPECT_EQ(stateOf(b), stateOf(m));
  EXPECT_NE(b.caption().find("(anyAngle, step " + std::to_string(m.index()) + "/" + std::to_string(m.total()) + ")"),
            std::string::npos)
      << b.caption();
}
