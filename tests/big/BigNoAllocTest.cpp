// BigNoAllocTest.cpp: the unlimited node pool allocates at initUnlimited only: findPath and
// findStraightPath across a generated world run without a single allocation. The global operator
// new is replaced in this executable to count allocations.
#include "BigWorld.h"
#include "tests/support/AllocCounter.h"

#include <gtest/gtest.h>

#include <vector>

using namespace querytest;

TEST(BigNoAlloc, UnlimitedPoolQueriesDoNotAllocate) {
  std::string why;
  const std::string obj = bigtest::worldObj(256, 2, &why);
  ASSERT_FALSE(obj.empty()) << why;
  const DualMesh* m = loadDual(obj, true, false, &why);
  ASSERT_NE(m, nullptr) << why;
  nav::NavMeshQuery q;
  ASSERT_TRUE(nav::statusSucceeded(q.initUnlimited(&m->nav)));
  nav::QueryFilter f;
  constexpr int MAX = 16384;
  std::vector<nav::PolyRef> path(MAX), refs(MAX);
  std::vector<float> pts(size_t(MAX) * 3);
  std::vector<uint8_t> flags(MAX);
  seedRandom(7);
  int found = 0;
  navtest::startCountingAllocs();
  for (int i = 0; i < 100; ++i) {
    nav::PolyRef s, e;
    float sp[3], ep[3];
    if (!nav::statusSucceeded(q.findRandomPoint(&f, frand, &s, sp))) continue;
    if (!nav::statusSucceeded(q.findRandomPoint(&f, frand, &e, ep))) continue;
    int n = 0;
    if (!nav::statusSucceeded(q.findPath(s, e, sp, ep, &f, path.data(), &n, MAX)) || n == 0) continue;
    int sn = 0;
    q.findStraightPath(sp, ep, path.data(), n, pts.data(), flags.data(), refs.data(), &sn, MAX);
    ++found;
  }
  const long allocs = navtest::stopCountingAllocs();
  EXPECT_GT(found, 50);
  EXPECT_EQ(allocs, 0);
}
