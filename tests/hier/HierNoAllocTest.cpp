// HierNoAllocTest.cpp: the hierarchical search allocates at init / update only: findPath and
// findStraightPath on its corridors across a generated world run without a single allocation.
// The global operator new is replaced in this executable to count allocations.
#include "BigWorld.h"
#include "nav/HierPlanner.h"
#include "tests/support/AllocCounter.h"

#include <gtest/gtest.h>

#include <vector>

using namespace querytest;

TEST(HierNoAlloc, QueriesDoNotAllocate) {
  std::string why;
  const std::string obj = bigtest::worldObj(256, 2, &why);
  ASSERT_FALSE(obj.empty()) << why;
  const DualMesh* m = loadDual(obj, true, false, &why);
  ASSERT_NE(m, nullptr) << why;
  nav::HierOptions o;
  o.clusterTiles = 3;
  nav::HierPlanner hp;
  ASSERT_TRUE(nav::statusSucceeded(hp.init(&m->nav, nullptr, o)));
  nav::QueryFilter f;
  constexpr int MAX = 16384;
  std::vector<nav::PolyRef> path(MAX), refs(MAX);
  std::vector<float> pts(size_t(MAX) * 3);
  std::vector<uint8_t> flags(MAX);
  seedRandom(7);
  int found = 0, corridors = 0;
  navtest::startCountingAllocs();
  for (int i = 0; i < 100; ++i) {
    nav::PolyRef s, e;
    float sp[3], ep[3];
    if (!nav::statusSucceeded(hp.query().findRandomPoint(&f, frand, &s, sp))) continue;
    if (!nav::statusSucceeded(hp.query().findRandomPoint(&f, frand, &e, ep))) continue;
    int n = 0;
    if (!nav::statusSucceeded(hp.findPath(s, e, sp, ep, &f, path.data(), &n, MAX)) || n == 0) continue;
    corridors += hp.lastStats().abstractPathNodes > 0 ? 1 : 0;
    int sn = 0;
    hp.query().findStraightPath(sp, ep, path.data(), n, pts.data(), flags.data(), refs.data(), &sn, MAX);
    ++found;
  }
  const long allocs = navtest::stopCountingAllocs();
  EXPECT_GT(found, 50);
  EXPECT_GT(corridors, 20) << "most queries cross clusters";
  EXPECT_EQ(allocs, 0);
}
