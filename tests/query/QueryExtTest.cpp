// QueryExtTest.cpp: what nav adds to Detour's queries (entering costs, heuristic scale, filter
// hooks), the read-only search view for visual stepping, the path follower's iterator, and bad
// input. Runs on the project's default level (no ../shared needed).
#include "DualMesh.h"

#include "nav/NavMath.h"
#include "nav/PathFollow.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

using namespace querytest;

namespace {

class QueryExt : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    mesh = loadDual(defaultLevel(), true, true, &why);
    ASSERT_NE(mesh, nullptr) << why;
    ASSERT_TRUE(nav::statusSucceeded(q.init(&mesh->nav, 2048)));
    seedRandom(77);
  }
  bool randomPoint(nav::PolyRef* ref, float* pt) {
    nav::QueryFilter f;
    return nav::statusSucceeded(q.findRandomPoint(&f, frand, ref, pt)) && *ref;
  }
  const DualMesh* mesh = nullptr;
  nav::NavMeshQuery q;
};

int closedCount(const nav::SearchView& v) {
  int n = 0;
  for (int i = 0; i < v.nodeCount; ++i)
    if (v.pool->nodeAt(i).flags & nav::NODE_CLOSED) ++n;
  return n;
}

TEST_F(QueryExt, HeuristicScaleZeroSearchesLikeDijkstra) {
  nav::QueryFilter astar, dijkstra;
  dijkstra.setHeuristicScale(0.0f);
  std::vector<nav::PolyRef> p1(2048), p2(2048);
  long closedAstar = 0, closedDijkstra = 0;
  int cheaperOrEqual = 0, queries = 0;
  double sumAstar = 0, sumDijkstra = 0;
  for (int i = 0; i < 200; ++i) {
    nav::PolyRef a, b;
    float pa[3], pb[3];
    ASSERT_TRUE(randomPoint(&a, pa) && randomPoint(&b, pb));
    int n1 = 0, n2 = 0;
    const nav::Status s1 = q.findPath(a, b, pa, pb, &astar, p1.data(), &n1, 2048);
    const nav::SearchView v1 = q.searchView();
    closedAstar += closedCount(v1);
    const float g1 = v1.bestNode ? v1.bestNode->cost : 0;
    const nav::Status s2 = q.findPath(a, b, pa, pb, &dijkstra, p2.data(), &n2, 2048);
    const nav::SearchView v2 = q.searchView();
    closedDijkstra += closedCount(v2);
    for (int k = 0; k < v2.nodeCount; ++k) EXPECT_EQ(v2.pool->nodeAt(k).total, v2.pool->nodeAt(k).cost); // h = 0
    const float g2 = v2.bestNode ? v2.bestNode->cost : 0;
    // Reaching the end does not depend on the heuristic.
    EXPECT_EQ(s1 & nav::PARTIAL_RESULT, s2 & nav::PARTIAL_RESULT);
    if (!(s1 & nav::PARTIAL_RESULT) && a != b) {
      EXPECT_EQ(p2[size_t(n2 - 1)], b);
      ++queries;
      if (g2 <= g1 * 1.0001f) ++cheaperOrEqual;
      sumAstar += g1;
      sumDijkstra += g2;
    }
  }
  ASSERT_GT(queries, 50);
  // Dijkstra expands more. (Its corridors are not always cheaper: a node's position is fixed by
  // the portal it was first reached through, so on Detour's graph neither search is exactly
  // optimal; on these levels Dijkstra's are even slightly dearer on average.)
  EXPECT_GT(closedDijkstra, closedAstar);
  EXPECT_GT(cheaperOrEqual, queries / 2);
  RecordProperty("sumCostAstar", std::to_string(sumAstar));
  RecordProperty("sumCostDijkstra", std::to_string(sumDijkstra));
}

int countArea(const nav::NavMesh& nav, const std::vector<nav::PolyRef>& path, int n, uint8_t area) {
  int c = 0;
  for (int i = 1; i + 1 < n; ++i) {
    uint8_t a = 0;
    nav.getPolyArea(path[size_t(i)], &a);
    if (a == area) ++c;
  }
  return c;
}

TEST_F(QueryExt, EnteringCostSteersAroundAnArea) {
  nav::QueryFilter plain, zero, entering;
  zero.setAreaEnterCost(2, 0.0f); // explicit zero = Detour's answers
  entering.setAreaEnterCost(2, 1000.0f);
  std::vector<nav::PolyRef> p0(2048), p1(2048);
  int withoutCost = 0, withCost = 0, compared = 0;
  for (int i = 0; i < 300; ++i) {
    nav::PolyRef a, b;
    float pa[3], pb[3];
    ASSERT_TRUE(randomPoint(&a, pa) && randomPoint(&b, pb));
    int n0 = 0, nz = 0, n1 = 0;
    const nav::Status s0 = q.findPath(a, b, pa, pb, &plain, p0.data(), &n0, 2048);
    std::vector<nav::PolyRef> pz(2048);
    EXPECT_EQ(s0, q.findPath(a, b, pa, pb, &zero, pz.data(), &nz, 2048));
    ASSERT_EQ(n0, nz);
    for (int k = 0; k < n0; ++k) EXPECT_EQ(p0[size_t(k)], pz[size_t(k)]);
    const nav::Status s1 = q.findPath(a, b, pa, pb, &entering, p1.data(), &n1, 2048);
    if ((s0 | s1) & nav::PARTIAL_RESULT) continue;
    ++compared;
    withoutCost += countArea(mesh->nav, p0, n0, 2);
    withCost += countArea(mesh->nav, p1, n1, 2);
  }
  ASSERT_GT(compared, 50);
  ASSERT_GT(withoutCost, 0) << "no corridor crossed area 2: the test would prove nothing";
  EXPECT_LT(withCost, withoutCost);
}

// Hooks replacing the flag test and the cost with equivalent code give the same answers.
bool passHook(const nav::QueryFilter& f, nav::PolyRef, const nav::MeshTile*, const nav::Poly* poly) {
  return (poly->flags & f.getIncludeFlags()) != 0 && (poly->flags & 0x10) == 0;
}
float costHook(const nav::QueryFilter& f, const float* pa, const float* pb, nav::PolyRef, const nav::MeshTile*,
               const nav::Poly*, nav::PolyRef, const nav::MeshTile*, const nav::Poly* cur, nav::PolyRef,
               const nav::MeshTile*, const nav::Poly*) {
  return nav::vdist(pa, pb) * f.getAreaCost(cur->getArea());
}

TEST_F(QueryExt, FilterHooksReplaceFlagsAndCosts) {
  nav::QueryFilter flags, hooks;
  flags.setExcludeFlags(0x10);
  flags.setAreaCost(1, 4.0f);
  hooks.setAreaCost(1, 4.0f);
  hooks.setPassFn(passHook);
  hooks.setCostFn(costHook);
  std::vector<nav::PolyRef> p0(2048), p1(2048);
  for (int i = 0; i < 100; ++i) {
    nav::PolyRef a, b;
    float pa[3], pb[3];
    ASSERT_TRUE(randomPoint(&a, pa) && randomPoint(&b, pb));
    int n0 = 0, n1 = 0;
    EXPECT_EQ(q.findPath(a, b, pa, pb, &flags, p0.data(), &n0, 2048), q.findPath(a, b, pa, pb, &hooks, p1.data(), &n1, 2048));
    ASSERT_EQ(n0, n1);
    for (int k = 0; k < n0; ++k) EXPECT_EQ(p0[size_t(k)], p1[size_t(k)]);
  }
}

// The search view a stepper draws: consistent nodes, a real heap, parents back to the start.
void checkView(const nav::SearchView& v, nav::PolyRef startRef) {
  ASSERT_NE(v.pool, nullptr);
  std::set<const nav::Node*> open;
  for (int i = 0; i < v.openCount; ++i) {
    const nav::Node* n = &v.openNode(i);
    EXPECT_TRUE(n->flags & nav::NODE_OPEN);
    EXPECT_EQ(v.open[i].total, n->total);
    if (i > 0) {
      EXPECT_LE(v.open[(i - 1) / 2].total, v.open[i].total); // heap order
    }
    open.insert(n);
  }
  for (int i = 0; i < v.nodeCount; ++i) {
    const nav::Node& n = v.pool->nodeAt(i);
    EXPECT_EQ((n.flags & nav::NODE_OPEN) != 0, open.count(&n) == 1);
    // Parents lead back to the start node.
    const nav::Node* p = &n;
    int guard = 0;
    while (v.parentOf(*p) && guard++ < v.nodeCount) p = v.parentOf(*p);
    EXPECT_EQ(p->id, startRef);
    if (v.parentOf(n)) {
      EXPECT_GE(n.cost, v.parentOf(n)->cost - 1e-3f);
    }
  }
}

TEST_F(QueryExt, SearchViewForSteppingIsConsistent) {
  nav::QueryFilter f;
  std::vector<nav::PolyRef> path(2048);
  int steppedSearches = 0;
  for (int i = 0; i < 40; ++i) {
    nav::PolyRef a, b;
    float pa[3], pb[3];
    ASSERT_TRUE(randomPoint(&a, pa) && randomPoint(&b, pb));
    if (a == b) continue;
    int n = 0;
    const nav::Status st = q.findPath(a, b, pa, pb, &f, path.data(), &n, 2048);
    nav::SearchView v = q.searchView();
    checkView(v, a);
    ASSERT_NE(v.bestNode, nullptr);
    // The corridor is the parent chain of the best node, reversed.
    int k = n - 1;
    for (const nav::Node* p = v.bestNode; p; p = v.parentOf(*p), --k) {
      ASSERT_GE(k, 0);
      EXPECT_EQ(p->id, path[size_t(k)]);
    }
    if (!(st & nav::PARTIAL_RESULT)) {
      EXPECT_EQ(v.lastExpanded->id, b);
    }

    // Stepping a sliced search one node at a time: one more node closed per step.
    nav::Status s = q.initSlicedFindPath(a, b, pa, pb, &f);
    int prevClosed = 0, steps = 0;
    while (nav::statusInProgress(s)) {
      int done = 0;
      s = q.updateSlicedFindPath(1, &done);
      const nav::SearchView sv = q.searchView();
      ASSERT_NE(sv.lastExpanded, nullptr);
      EXPECT_TRUE(sv.lastExpanded->flags & nav::NODE_CLOSED);
      const int closed = closedCount(sv);
      if (done) {
        EXPECT_GE(closed, prevClosed);
      }
      prevClosed = closed;
      if (steps++ % 5 == 0) checkView(sv, a);
    }
    ++steppedSearches;
    EXPECT_TRUE(nav::statusSucceeded(q.finalizeSlicedFindPath(path.data(), &n, 2048)));
  }
  EXPECT_GT(steppedSearches, 20);
}

TEST_F(QueryExt, PathFollowerExposesEachStep) {
  nav::QueryFilter f;
  std::vector<nav::PolyRef> path(2048);
  int walks = 0;
  for (int i = 0; i < 40; ++i) {
    nav::PolyRef a, b;
    float pa[3], pb[3];
    ASSERT_TRUE(randomPoint(&a, pa) && randomPoint(&b, pb));
    int n = 0;
    q.findPath(a, b, pa, pb, &f, path.data(), &n, 2048);
    ASSERT_GT(n, 0);
    static nav::PathFollower pf;
    ASSERT_TRUE(nav::statusSucceeded(pf.init(&q, &f, a, pa, pb, path.data(), n)));
    EXPECT_EQ(pf.stepPointCount(), 1);
    EXPECT_EQ(pf.corridor()[0], a);
    int steps = 0;
    while (pf.step()) {
      ++steps;
      ASSERT_LE(pf.corridorSize(), nav::PathFollower::MAX_CORRIDOR);
      ASSERT_GT(pf.steerPathCount(), 0);
      // Each step moves at most STEP_SIZE toward the steer target (jumps excepted).
      if (!(pf.steerFlags() & nav::STRAIGHTPATH_OFFMESH_CONNECTION) && pf.stepPointCount() == 1 && !pf.done()) {
        float rel[3];
        nav::vsub(rel, pf.position(), pf.steerTarget());
        EXPECT_LT(std::sqrt(rel[0] * rel[0] + rel[2] * rel[2]), nav::vdist2D(pf.position(), pf.steerTarget()) + 1.0f);
      }
    }
    EXPECT_TRUE(pf.done());
    if (path[size_t(n - 1)] == b && pf.pointCount() < 2048) {
      // The walk ends on the target.
      EXPECT_LT(nav::vdist2D(pf.position(), pf.targetPos()), 0.02f);
      ++walks;
    }
    EXPECT_GE(steps, 1);
  }
  EXPECT_GT(walks, 10);
}

// RecastDemo's fixupCorridor, written plainly: the furthest path poly that was visited, and its
// earliest place in visited.
int plainFixupCorridor(std::vector<nav::PolyRef>& path, int npath, int maxPath,
                       const std::vector<nav::PolyRef>& visited) {
  const int nvisited = int(visited.size());
  int fp = -1, fv = -1;
  for (int i = npath - 1; i >= 0 && fp < 0; --i)
    for (int j = 0; j < nvisited; ++j)
      if (path[size_t(i)] == visited[size_t(j)]) {
        fp = i;
        fv = j;
        break;
      }
  if (fp < 0) return npath;
  const int req = nvisited - fv;
  const int orig = std::min(fp + 1, npath);
  int size = std::max(0, npath - orig);
  if (req + size > maxPath) size = maxPath - req;
  std::vector<nav::PolyRef> out;
  for (int i = 0; i < req; ++i) out.push_back(visited[size_t(nvisited - 1 - i)]);
  for (int k = 0; k < size; ++k) out.push_back(path[size_t(orig + k)]);
  std::copy(out.begin(), out.end(), path.begin());
  return int(out.size());
}

TEST(PathFollowCorridor, FixupCorridorMatchesThePlainScan) {
  // Refs from small alphabets (many repeats, equal low bits: the filter on the low 6 bits must not
  // drop a match) and from wide ones; visited lists 0-16 long; caps below and above the sizes.
  seedRandom(4242);
  int changed = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const uint32_t alphabet = (trial % 3 == 0) ? 8u : (trial % 3 == 1) ? 200u : 1u << 20;
    // With trial & 4, refs also differ above bit 6 only: many share their low 6 bits.
    const auto pick = [&] { return uint32_t(frand() * float(alphabet)) % alphabet; };
    const auto ref = [&] { return nav::PolyRef(1 + pick() + ((trial & 4) ? 64u * pick() : 0u)); };
    const int npath = 1 + int(frand() * 60.0f);
    const int nvisited = int(frand() * 17.0f) % 17;
    const int maxPath = (trial & 1) ? 64 : npath + int(frand() * 8.0f) - 4;
    if (maxPath < nvisited + 1 || maxPath < npath) continue;
    std::vector<nav::PolyRef> path(size_t(std::max(maxPath, npath)) + 16), visited;
    for (int i = 0; i < npath; ++i) path[size_t(i)] = ref();
    for (int j = 0; j < nvisited; ++j) visited.push_back(ref());
    if (nvisited > 0 && (trial & 8)) visited[size_t(int(frand() * float(nvisited)) % nvisited)] = path[0];
    std::vector<nav::PolyRef> expected = path;
    const int nExpected = plainFixupCorridor(expected, npath, maxPath, visited);
    std::vector<nav::PolyRef> got = path;
    const int nGot = nav::fixupCorridor(got.data(), npath, maxPath, visited.data(), nvisited);
    ASSERT_EQ(nGot, nExpected) << "trial " << trial;
    for (int i = 0; i < nGot; ++i) ASSERT_EQ(got[size_t(i)], expected[size_t(i)]) << "trial " << trial << " at " << i;
    if (nGot != npath || !std::equal(got.begin(), got.begin() + nGot, path.begin())) ++changed;
  }
  EXPECT_GT(changed, 5000); // most trials do rewrite the corridor
}

TEST_F(QueryExt, BadInputIsRefusedNotCrashed) {
  nav::QueryFilter f;
  nav::PolyRef a;
  float pa[3];
  ASSERT_TRUE(randomPoint(&a, pa));
  const float nanPos[3] = {NAN, 0, 0};
  nav::PolyRef path[8];
  int n = 5;
  EXPECT_EQ(q.findPath(0, a, pa, pa, &f, path, &n, 8), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(n, 0);
  EXPECT_EQ(q.findPath(a, a, nanPos, pa, &f, path, &n, 8), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(q.findPath(a, a, pa, pa, nullptr, path, &n, 8), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(q.findPath(a, a, pa, pa, &f, path, &n, 0), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(q.findPath(a ^ 0x40000000u, a, pa, pa, &f, path, &n, 8), nav::FAILURE | nav::INVALID_PARAM); // bad salt
  float out[3];
  EXPECT_TRUE(nav::statusFailed(q.closestPointOnPoly(0, pa, out, nullptr)));
  EXPECT_TRUE(nav::statusFailed(q.moveAlongSurface(a, pa, nanPos, &f, out, path, &n, 8)));
  float t;
  EXPECT_TRUE(nav::statusFailed(q.raycast(a, nanPos, pa, &f, &t, nullptr, path, &n, 8)));
  EXPECT_TRUE(nav::statusFailed(q.findStraightPath(pa, pa, path, 0, out, nullptr, nullptr, &n, 1)));
  nav::NavMeshQuery unbound;
  EXPECT_TRUE(nav::statusFailed(unbound.findPath(a, a, pa, pa, &f, path, &n, 8)));
  EXPECT_TRUE(nav::statusFailed(unbound.init(&mesh->nav, 0)));
  char buf[128];
  const std::string s = nav::statusToString(nav::SUCCESS | nav::PARTIAL_RESULT, buf, sizeof(buf));
  EXPECT_NE(s.find("partial"), std::string::npos) << s;
}

// FINDPATH_CLOSEST_POINT (issue 9's second cost model): corridors stay valid (start to end, each
// poly linked to the next), reach the end whenever the midpoint model does, and the option really
// changes the search (some corridors differ); the default stays Detour's (QueryDiffTest).
bool linked(const nav::NavMesh& nav, nav::PolyRef a, nav::PolyRef b) {
  const nav::MeshTile* t = nullptr;
  const nav::Poly* p = nullptr;
  if (nav::statusFailed(nav.getTileAndPolyByRef(a, &t, &p))) return false;
  for (uint32_t i = p->firstLink; i != nav::NULL_LINK; i = t->links[i].next)
    if (t->links[i].ref == b) return true;
  return false;
}

TEST_F(QueryExt, ClosestPointCostModelGivesValidCorridors) {
  nav::QueryFilter f;
  std::vector<nav::PolyRef> mid(2048), cp(2048);
  int differ = 0, complete = 0;
  for (int i = 0; i < 300; ++i) {
    nav::PolyRef a, b;
    float pa[3], pb[3];
    ASSERT_TRUE(randomPoint(&a, pa) && randomPoint(&b, pb));
    int nm = 0, nc = 0;
    const nav::Status sm = q.findPath(a, b, pa, pb, &f, mid.data(), &nm, 2048);
    const nav::Status sc = q.findPath(a, b, pa, pb, &f, cp.data(), &nc, 2048, nav::FINDPATH_CLOSEST_POINT);
    ASSERT_TRUE(nav::statusSucceeded(sc)) << i;
    ASSERT_GT(nc, 0);
    EXPECT_EQ(cp[0], a);
    for (int k = 1; k < nc; ++k) ASSERT_TRUE(linked(mesh->nav, cp[size_t(k) - 1], cp[size_t(k)])) << i << " " << k;
    const bool midComplete = !(sm & nav::PARTIAL_RESULT) && mid[size_t(nm) - 1] == b;
    const bool cpComplete = !(sc & nav::PARTIAL_RESULT) && cp[size_t(nc) - 1] == b;
    EXPECT_EQ(midComplete, cpComplete) << i;
    complete += cpComplete;
    if (nm != nc || !std::equal(mid.begin(), mid.begin() + nm, cp.begin())) ++differ;
  }
  EXPECT_GT(complete, 100);
  EXPECT_GT(differ, 0) << "the closest-point model never changed a corridor";
}

} // namespace
