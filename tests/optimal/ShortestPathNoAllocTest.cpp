// ShortestPathNoAllocTest.cpp: nav::ShortestPath never allocates per query. The global operator
// new/delete are replaced in this executable (tests/support/AllocCounter.h) to count allocations;
// one-shot and sliced queries run with the counter armed, on the default level and on a generated
// obstacle field whose longer searches outgrow the slot table's first part (it doubles inside the
// preallocated table, which the test checks happens).
#include "nav/QueryFilter.h"
#include "nav/ShortestPath.h"
#include "tests/optimal/OptimalTestUtil.h"
#include "tests/support/AllocCounter.h"

#include <gtest/gtest.h>

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace opttest;

namespace {

struct Pair {
  dtPolyRef s, e;
  float sp[3], ep[3];
};

std::vector<Pair> randomPairs(World& w, int n, uint32_t seed) {
  dtQueryFilter df;
  seedRandom(seed);
  std::vector<Pair> out;
  for (int i = 0; i < n; ++i) {
    Pair p;
    if (dtStatusFailed(w.dtq->findRandomPoint(&df, frand, &p.s, p.sp))) continue;
    if (dtStatusFailed(w.dtq->findRandomPoint(&df, frand, &p.e, p.ep))) continue;
    out.push_back(p);
  }
  return out;
}

// Runs every pair one-shot and sliced (a few nodes per update) with the counter armed; returns the
// allocations seen and the largest slot count of a query.
long runArmed(World& w, const std::vector<Pair>& pairs, int* maxSlots, int* complete) {
  nav::ShortestPath sp;
  EXPECT_TRUE(nav::statusSucceeded(sp.init(&w.mesh, 65536)));
  nav::QueryFilter f;
  std::vector<float> pts(3 * 512);
  std::vector<uint8_t> flags(512);
  std::vector<nav::PolyRef> refs(512), polys(4096);
  *maxSlots = 0;
  *complete = 0;
  navtest::startCountingAllocs();
  for (const Pair& p : pairs) {
    int n = 0, np = 0;
    float len = 0;
    const nav::Status st = sp.findPath(p.s, p.e, p.sp, p.ep, &f, pts.data(), flags.data(), refs.data(), &n, 512,
                                       polys.data(), &np, 4096, &len);
    *complete += nav::statusSucceeded(st) && !(st & nav::PARTIAL_RESULT);
    *maxSlots = std::max(*maxSlots, sp.lastStats().slotsUsed);
    nav::Status ss = sp.initSlicedFindPath(p.s, p.e, p.sp, p.ep, &f);
    for (int k = 0; k < 100000 && nav::statusInProgress(ss); ++k) ss = sp.updateSlicedFindPath(7, nullptr);
    sp.finalizeSlicedFindPath(pts.data(), flags.data(), refs.data(), &n, 512, polys.data(), &np, 4096, &len);
  }
  return navtest::stopCountingAllocs();
}

} // namespace

TEST(ShortestPathNoAlloc, CounterCounts) {
  navtest::startCountingAllocs();
  {
    static std::vector<int>* volatile probe = nullptr;
    probe = new std::vector<int>();
    delete probe;
  }
  EXPECT_EQ(navtest::stopCountingAllocs(), 1);
}

TEST(ShortestPathNoAlloc, DefaultLevel) {
  World w;
  std::string why;
  ASSERT_TRUE(buildLevel(defaultLevelObj(), true, w, &why)) << why;
  const std::vector<Pair> pairs = randomPairs(w, 300, 3);
  ASSERT_GT(pairs.size(), 200u);
  int maxSlots = 0, complete = 0;
  EXPECT_EQ(runArmed(w, pairs, &maxSlots, &complete), 0);
  EXPECT_GT(complete, 100);
}

TEST(ShortestPathNoAlloc, GeneratedFieldGrowsTheSlotTable) {
  std::vector<float> verts;
  std::vector<int> tris;
  generateObstacleField(200.0f, 400, 12345, verts, tris);
  World w;
  std::string why;
  ASSERT_TRUE(buildLevelFromTriangles(verts, tris, true, w, &why)) << why;
  const std::vector<Pair> pairs = randomPairs(w, 60, 5);
  ASSERT_GT(pairs.size(), 40u);
  int maxSlots = 0, complete = 0;
  EXPECT_EQ(runArmed(w, pairs, &maxSlots, &complete), 0);
  EXPECT_GT(complete, 20);
  EXPECT_GT(maxSlots, 1024) << "no query outgrew the first part of the slot table: growth not exercised";
}
