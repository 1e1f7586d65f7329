// NoAllocTest.cpp: no query allocates. The global operator new/delete are replaced in this
// executable to count allocations; every query runs (after init) with the counter armed.
#include "DualMesh.h"

#include "nav/PathFollow.h"
#include "tests/support/AllocCounter.h"

#include <gtest/gtest.h>

#include <new>

#include <vector>

using namespace querytest;

TEST(QueryNoAlloc, EveryQueryRunsWithoutAllocating) {
  std::string why;
  const DualMesh* m = loadDual(defaultLevel(), true, true, &why);
  ASSERT_NE(m, nullptr) << why;
  nav::NavMeshQuery q;
  ASSERT_TRUE(nav::statusSucceeded(q.init(&m->nav, 2048)));
  nav::QueryFilter f;
  std::vector<nav::PolyRef> path(2048), refs(2048), parents(2048);
  std::vector<float> pts(2048 * 3), costs(2048);
  std::vector<uint8_t> flags(2048);
  static nav::PathFollower follower; // big (its corridor): made before arming, as callers would
  seedRandom(42);
  // Warm up thread_local storage used by findSmoothPath before arming.
  {
    nav::PolyRef r;
    float p[3];
    ASSERT_TRUE(nav::statusSucceeded(q.findRandomPoint(&f, frand, &r, p)));
    int n = 0;
    q.findPath(r, r, p, p, &f, path.data(), &n, 2048);
    nav::findSmoothPath(&q, &f, r, p, p, path.data(), n, pts.data(), &n, 2048);
  }
  int ran = 0;
  // The counter itself works: one armed allocation counts once.
  navtest::startCountingAllocs();
  {
    static std::vector<int>* volatile probe = nullptr;
    probe = new std::vector<int>();
    delete probe;
  }
  ASSERT_EQ(navtest::stopCountingAllocs(), 1);
  navtest::startCountingAllocs();
  for (int i = 0; i < 50; ++i) {
    nav::PolyRef sref = 0, eref = 0;
    float sp[3], ep[3];
    q.findRandomPoint(&f, frand, &sref, sp);
    q.findRandomPoint(&f, frand, &eref, ep);
    const float ext[3] = {2, 4, 2};
    float np[3];
    nav::PolyRef nr;
    q.findNearestPoly(sp, ext, &f, &nr, np);
    int n = 0;
    q.queryPolygons(sp, ext, &f, refs.data(), &n, 2048);
    bool over;
    q.closestPointOnPoly(sref, ep, np, &over);
    q.closestPointOnPolyBoundary(sref, ep, np);
    float h;
    q.getPolyHeight(sref, sp, &h);
    int npath = 0;
    q.findPath(sref, eref, sp, ep, &f, path.data(), &npath, 2048);
    q.findPath(sref, eref, sp, ep, &f, path.data(), &npath, 2048, nav::FINDPATH_ANY_ANGLE);
    q.initSlicedFindPath(sref, eref, sp, ep, &f);
    while (nav::statusInProgress(q.updateSlicedFindPath(10, nullptr))) {}
    q.finalizeSlicedFindPath(path.data(), &npath, 2048);
    int ns = 0;
    q.findStraightPath(sp, ep, path.data(), npath, pts.data(), flags.data(), refs.data(), &ns, 2048,
                       nav::STRAIGHTPATH_ALL_CROSSINGS);
    nav::SearchView v = q.searchView();
    (void)v;
    float res[3];
    q.moveAlongSurface(sref, sp, ep, &f, res, refs.data(), &n, 16);
    float t, nrm[3];
    q.raycast(sref, sp, ep, &f, &t, nrm, refs.data(), &n, 2048);
    nav::RaycastHit hit;
    hit.path = refs.data();
    hit.maxPath = 2048;
    q.raycast(sref, sp, ep, &f, nav::RAYCAST_USE_COSTS, &hit);
    float d, hp[3], hn[3];
    q.findDistanceToWall(sref, sp, 5, &f, &d, hp, hn);
    q.findPolysAroundCircle(sref, sp, 5, &f, refs.data(), parents.data(), costs.data(), &n, 2048);
    const float shape[12] = {sp[0] - 2, sp[1], sp[2] - 2, sp[0] + 2, sp[1], sp[2] - 2,
                             sp[0] + 2, sp[1], sp[2] + 2, sp[0] - 2, sp[1], sp[2] + 2};
    q.findPolysAroundShape(sref, shape, 4, &f, refs.data(), parents.data(), costs.data(), &n, 2048);
    q.findLocalNeighbourhood(sref, sp, 5, &f, refs.data(), parents.data(), &n, 2048);
    q.getPolyWallSegments(sref, &f, pts.data(), refs.data(), &n, 256);
    nav::PolyRef rr;
    float rp[3];
    q.findRandomPointAroundCircle(sref, sp, 5, &f, frand, &rr, rp);
    int nsm = 0;
    nav::findSmoothPath(&q, &f, sref, sp, ep, path.data(), npath, pts.data(), &nsm, 2048);
    follower.init(&q, &f, sref, sp, ep, path.data(), npath);
    while (follower.step()) {}
    ++ran;
  }
  {
    // Making a follower allocates nothing either (callers keep one on the stack per walk).
    alignas(nav::PathFollower) static unsigned char storage[sizeof(nav::PathFollower)];
    nav::PathFollower* made = new (storage) nav::PathFollower();
    made->~PathFollower();
  }
  const long allocs = navtest::stopCountingAllocs();
  EXPECT_EQ(ran, 50);
  EXPECT_EQ(allocs, 0);
}
