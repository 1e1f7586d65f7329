// HierNoAllocTest.cpp: the hierarchical search allocates at init / update and when a filter's graph
// is built only: findPath (default filter, and a filter whose graph exists) and findStraightPath on
// its corridors across a generated world run without a single allocation.
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
  // A filter with a graph of its own (flags excluded, other area costs): built by its first query.
  nav::QueryFilter g;
  g.setExcludeFlags(0x10);
  g.setAreaCost(0, 2.0f);
  constexpr int MAX = 16384;
  std::vector<nav::PolyRef> path(MAX), refs(MAX);
  std::vector<float> pts(size_t(MAX) * 3);
  std::vector<uint8_t> flags(MAX);
  seedRandom(7);
  {
    const float p[3] = {0, 0, 0};
    nav::PolyRef r;
    float rp[3];
    ASSERT_TRUE(nav::statusSucceeded(hp.query().findRandomPoint(&f, frand, &r, rp)));
    int n = 0;
    hp.findPath(r, r, rp, p, &g, path.data(), &n, MAX);
    ASSERT_EQ(hp.filterGraphCount(), 1);
  }
  int found = 0, corridors = 0;
  navtest::startCountingAllocs();
  for (int i = 0; i < 100; ++i) {
    nav::PolyRef s, e;
    float sp[3], ep[3];
    if (!nav::statusSucceeded(hp.query().findRandomPoint(&f, frand, &s, sp))) continue;
    if (!nav::statusSucceeded(hp.query().findRandomPoint(&f, frand, &e, ep))) continue;
    int n = 0;
    const nav::QueryFilter& qf = i % 2 ? g : f;
    if (!nav::statusSucceeded(hp.findPath(s, e, sp, ep, &qf, path.data(), &n, MAX)) || n == 0) continue;
    EXPECT_EQ(hp.lastStats().filterGraph, i % 2 == 1);
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
