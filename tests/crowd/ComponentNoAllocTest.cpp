// ComponentNoAllocTest.cpp: after init, PathCorridor, LocalBoundary, ObstacleAvoidanceQuery (+ debug
// data), ProximityGrid and PathQueue calls never allocate.
//
// Allocations are counted by tests/support/AllocCounter.h. The test first checks that a plain `new`
// is counted, so it fails loudly instead of passing vacuously if the counter leaves the executable.
#include "DualMesh.h"

#include "nav/crowd/LocalBoundary.h"
#include "nav/crowd/ObstacleAvoidance.h"
#include "nav/crowd/PathCorridor.h"
#include "nav/crowd/PathQueue.h"
#include "nav/crowd/ProximityGrid.h"
#include "tests/support/AllocCounter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

namespace nc = nav::crowd;
using namespace querytest;

TEST(ComponentNoAlloc, CallsAfterInitDoNotAllocate) {
  // The counter is live in this executable.
  navtest::startCountingAllocs();
  int* volatile probe = new int(1);
  const long probeCount = navtest::stopCountingAllocs();
  delete probe;
  ASSERT_GE(probeCount, 1) << "tests/support/alloc/AllocCounter.cpp is not linked into this executable "
                              "(tests/CMakeLists.txt); this test cannot count allocations";

  std::string why;
  const DualMesh* mesh = loadDual(defaultLevel(), true, true, &why);
  ASSERT_NE(mesh, nullptr) << why;
  nav::NavMeshQuery nq;
  ASSERT_TRUE(nav::statusSucceeded(nq.init(&mesh->nav, 2048)));
  nav::QueryFilter filter;

  nc::PathCorridor corridor;
  nc::LocalBoundary boundary;
  nc::ObstacleAvoidanceQuery avoid;
  nc::ObstacleAvoidanceDebugData debug;
  nc::ProximityGrid grid;
  nc::PathQueue queue;
  ASSERT_TRUE(corridor.init(256));
  ASSERT_TRUE(avoid.init(6, 8));
  ASSERT_TRUE(debug.init(2048));
  ASSERT_TRUE(grid.init(512, 1.2f));
  ASSERT_TRUE(queue.init(256, 4096, &mesh->nav));

  nc::ObstacleAvoidanceParams params{0.4f, 2.0f, 0.75f, 0.75f, 2.5f, 2.5f, 33, 7, 2, 5};
  std::vector<nav::PolyRef> path(256);
  seedRandom(0xa110c);

  long allocs = 0;
  int walks = 0, samples = 0, queueResults = 0;
  for (int w = 0; w < 60; ++w) {
    nav::PolyRef sref = 0, eref = 0;
    float sp[3], ep[3];
    nq.findRandomPoint(&filter, frand, &sref, sp);
    nq.findRandomPoint(&filter, frand, &eref, ep);
    if (!sref || !eref) continue;
    int n = 0;
    nq.findPath(sref, eref, sp, ep, &filter, path.data(), &n, 256);
    if (n == 0) continue;
    ++walks;

    navtest::startCountingAllocs();
    corridor.reset(sref, sp);
    corridor.setCorridor(ep, path.data(), n);
    const nc::PathQueueRef req = queue.request(sref, eref, sp, ep, &filter);
    for (int s = 0; s < 30; ++s) {
      float verts[4 * 3];
      uint8_t flags[4];
      nav::PolyRef polys[4];
      const int nc_ = corridor.findCorners(verts, flags, polys, 4, &nq, &filter);
      if (nc_ == 0) break;
      if (flags[nc_ - 1] & nav::STRAIGHTPATH_OFFMESH_CONNECTION) {
        nav::PolyRef refs[2];
        float a[3], b[3];
        corridor.moveOverOffmeshConnection(polys[nc_ - 1], refs, a, b, &nq);
        continue;
      }
      corridor.optimizePathVisibility(&verts[0], 12.0f, &nq, &filter);
      corridor.optimizePathTopology(&nq, &filter);
      float npos[3];
      nav::vlerp(npos, corridor.getPos(), &verts[0], 0.5f);
      corridor.movePosition(npos, &nq, &filter);
      corridor.moveTargetPosition(ep, &nq, &filter);
      corridor.isValid(10, &nq, &filter);

      boundary.update(corridor.getFirstPoly(), corridor.getPos(), 4.0f, &nq, &filter);
      boundary.isValid(&nq, &filter);

      avoid.reset();
      const float vel[3] = {0.5f, 0, 0.2f}, dvel[3] = {1.0f, 0, -0.5f};
      for (int i = 0; i < 4; ++i) {
        const float p[3] = {corridor.getPos()[0] + float(i) - 1.5f, corridor.getPos()[1], corridor.getPos()[2] + 1.0f};
        avoid.addCircle(p, 0.6f, vel, dvel);
      }
      for (int i = 0; i < boundary.getSegmentCount(); ++i)
        avoid.addSegment(boundary.getSegment(i), boundary.getSegment(i) + 3);
      float nvel[3];
      samples += avoid.sampleVelocityGrid(corridor.getPos(), 0.6f, 3.5f, vel, dvel, nvel, &params, &debug);
      samples += avoid.sampleVelocityAdaptive(corridor.getPos(), 0.6f, 3.5f, vel, dvel, nvel, &params, &debug);
      debug.normalizeSamples();

      grid.clear();
      for (int i = 0; i < 20; ++i) {
        const float x = corridor.getPos()[0] + float(i % 5), z = corridor.getPos()[2] + float(i / 5);
        grid.addItem(uint16_t(i), x - 0.6f, z - 0.6f, x + 0.6f, z + 0.6f);
      }
      uint16_t ids[32];
      grid.queryItems(corridor.getPos()[0] - 3, corridor.getPos()[2] - 3, corridor.getPos()[0] + 3,
                      corridor.getPos()[2] + 3, ids, 32);
      grid.getItemCountAt(0, 0);

      queue.update(50);
      if (nav::statusSucceeded(queue.getRequestStatus(req))) {
        nav::PolyRef result[256];
        int qn = 0;
        if (nav::statusSucceeded(queue.getPathResult(req, result, &qn, 256)) && qn > 0) ++queueResults;
      }
    }
    corridor.trimInvalidPath(sref, sp, &nq, &filter);
    corridor.fixPathStart(sref, sp);
    allocs += navtest::stopCountingAllocs();
  }
  EXPECT_EQ(allocs, 0);
  EXPECT_GT(walks, 40);
  EXPECT_GT(samples, 10000);
  EXPECT_GT(queueResults, 10);
}

} // namespace
