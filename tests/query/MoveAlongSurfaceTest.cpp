// MoveAlongSurfaceTest.cpp: nav::NavMeshQuery::moveAlongSurface against Detour's on long moves
// over fine meshes (cell size 0.1), where the search fills Detour's 64-node tiny pool (a full
// pool refuses polygons, which changes the answer) and its 48-entry queue, with random filters and
// visited buffers from 1 entry up. QueryDiffTest covers the short moves the follower makes.
#include "DualFixture.h"
#include "DualMesh.h"

#include <DetourNavMeshQuery.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace querytest;

namespace {

struct Level {
  const char* name; // shared level file name without ".obj", or "default"
  float cellSize;
};

class MoveAlongLong : public ::testing::TestWithParam<Level>, protected DualFixture {
protected:
  void SetUp() override {
    const std::string name = GetParam().name;
    openLevel(name == "default" ? name : name + ".obj", true, 0x3a0e, GetParam().cellSize);
  }
};

TEST_P(MoveAlongLong, SameAnswersAsDetour) {
  static const uint16_t incs[] = {0xffff, 0xffff, 0x0f, 0x09, 0x0d, 0x03};
  static const uint16_t excs[] = {0, 0, 0x10, 0x02, 0x04, 0x08};
  static const int maxVisiteds[] = {1, 2, 16, 64, 256};
  dtPolyRef dpath[256];
  nav::PolyRef npath[256];
  int compared = 0, longPaths = 0;
  for (int q = 0; q < 400; ++q) {
    SCOPED_TRACE("query " + std::to_string(q));
    dtQueryFilter all, df;
    nav::QueryFilter nf;
    if (q % 3 != 0) {
      const uint16_t inc = incs[irand(6)], exc = excs[irand(6)];
      df.setIncludeFlags(inc);
      df.setExcludeFlags(exc);
      nf.setIncludeFlags(inc);
      nf.setExcludeFlags(exc);
    }
    dtPolyRef sref = 0;
    float sp[3];
    if (!dtStatusSucceed(dq->findRandomPoint(&all, frand, &sref, sp)) || !sref) continue;
    // Up to 30 m away: hundreds of polygons in the search circle at this cell size.
    const float reach = q % 4 == 0 ? 4.0f : 30.0f;
    const float ep[3] = {sp[0] + (frand() - 0.5f) * 2 * reach, sp[1] + (frand() - 0.5f),
                         sp[2] + (frand() - 0.5f) * 2 * reach};
    const int maxVisited = maxVisiteds[irand(5)];
    float dres[3], nres[3];
    int dn = -1, nn = -2;
    bool inside = false;
    const dtStatus ds = dq->moveAlongSurface(sref, sp, ep, &df, dres, dpath, &dn, maxVisited);
    const nav::Status ns = nq.moveAlongSurface(sref, sp, ep, &nf, nres, npath, &nn, maxVisited, &inside);
    ASSERT_EQ(ds, ns);
    EXPECT_EQ(0, std::memcmp(dres, nres, sizeof(dres)))
        << "Detour (" << dres[0] << ", " << dres[1] << ", " << dres[2] << "), nav (" << nres[0] << ", " << nres[1]
        << ", " << nres[2] << ")";
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn; ++i) ASSERT_EQ(dpath[i], npath[i]) << "visited entry " << i;
    if (inside) {
      EXPECT_EQ(0, std::memcmp(nres, ep, sizeof(ep)));
    }
    ++compared;
    if (dn >= 12) ++longPaths;
  }
  EXPECT_GT(compared, 300);
  if (GetParam().cellSize > 0) {
    EXPECT_GT(longPaths, 10); // the searches did run long
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, MoveAlongLong,
                         ::testing::Values(Level{"default", 0.1f}, Level{"nav_test", 0.1f}, Level{"dungeon", 0.1f},
                                           Level{"nav_test", 0.0f}),
                         [](const ::testing::TestParamInfo<Level>& p) {
                           return std::string(p.param.name) + (p.param.cellSize > 0 ? "_fine" : "");
                         });

} // namespace
