// Areas, flags and jump links on the default level (assets/levels/default.json): the pool is
// water, the doorway into room D is a door, platform J is reachable only by a jump link. Checked
// with nav's own path query on the baked mesh, both solo and tiled.
#include "BakeTestUtil.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nav;
using namespace nav::bake;

namespace {

struct PathResult {
  nav::Status status = 0;
  bool reached = false;            ///< Complete path (not partial).
  std::vector<nav::PolyRef> polys; ///< Corridor.
  float length = 0;                ///< Straight path length [wu]
};

class DefaultLevelAreas : public testing::TestWithParam<bool> {
protected:
  void SetUp() override {
    std::string why;
    if (!baketest::fileExists(baketest::defaultLevel())) GTEST_FAIL() << "missing " << baketest::defaultLevel();
    ASSERT_TRUE(baketest::loadLevel(baketest::defaultLevel(), &input, &settings, &why)) << why;
    settings.tiled = GetParam();
    ASSERT_TRUE(baker.setInput(input, &why)) << why;
    BakeReport r;
    ASSERT_TRUE(baker.bake(settings, BakeOptions(), &r)) << r.error;
    ASSERT_TRUE(nav::statusSucceeded(query.init(baker.navMesh(), 4096)));
  }

  PathResult path(const float* a, const float* b, const nav::QueryFilter& filter) {
    PathResult res;
    const float ext[3] = {2, 4, 2};
    nav::PolyRef sa = 0, sb = 0;
    float pa[3], pb[3];
    EXPECT_TRUE(nav::statusSucceeded(query.findNearestPoly(a, ext, &filter, &sa, pa)));
    EXPECT_TRUE(nav::statusSucceeded(query.findNearestPoly(b, ext, &filter, &sb, pb)));
    if (!sa || !sb) return res; // an end point on an excluded poly
    nav::PolyRef corridor[512];
    int n = 0;
    res.status = query.findPath(sa, sb, pa, pb, &filter, corridor, &n, 512);
    res.polys.assign(corridor, corridor + n);
    res.reached = nav::statusSucceeded(res.status) && !nav::statusDetail(res.status, nav::PARTIAL_RESULT) && n > 0 &&
                  corridor[n - 1] == sb;
    float pts[3 * 256];
    int np = 0;
    query.findStraightPath(pa, pb, corridor, n, pts, nullptr, nullptr, &np, 256);
    for (int i = 1; i < np; ++i) {
      const float* p = &pts[(i - 1) * 3];
      const float* q = &pts[i * 3];
      res.length += std::sqrt((q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]) + (q[2] - p[2]) * (q[2] - p[2]));
    }
    return res;
  }

  int countArea(const PathResult& r, uint8_t area) const {
    int n = 0;
    for (nav::PolyRef ref : r.polys) {
      uint8_t a = 0xff;
      baker.navMesh()->getPolyArea(ref, &a);
      n += a == area;
    }
    return n;
  }

  /// User ids of the off-mesh connections the corridor crosses.
  std::vector<uint32_t> linksUsed(const PathResult& r) const {
    std::vector<uint32_t> ids;
    for (nav::PolyRef ref : r.polys)
      if (const nav::OffMeshConnection* c = baker.navMesh()->getOffMeshConnectionByRef(ref)) ids.push_back(c->userId);
    return ids;
  }

  BakeInput input;
  BakeSettings settings;
  Baker baker;
  nav::NavMeshQuery query;
};

TEST_P(DefaultLevelAreas, ExcludingSwimAvoidsThePool) {
  const float a[3] = {46, 0, 4}, b[3] = {46, 0, 16};
  nav::QueryFilter all;
  const PathResult straight = path(a, b, all);
  ASSERT_TRUE(straight.reached);
  EXPECT_GT(countArea(straight, AREA_WATER), 0) << "with every flag allowed the path crosses the pool";
  EXPECT_LT(straight.length, 14.0f);

  nav::QueryFilter noSwim;
  noSwim.setExcludeFlags(FLAG_SWIM);
  const PathResult around = path(a, b, noSwim);
  ASSERT_TRUE(around.reached);
  EXPECT_EQ(countArea(around, AREA_WATER), 0);
  EXPECT_GT(around.length, 20.0f);

  // The default area costs (water 10) make the walk around cheaper too.
  nav::QueryFilter costs;
  applyDefaultAreaCosts(costs);
  const PathResult costed = path(a, b, costs);
  ASSERT_TRUE(costed.reached);
  EXPECT_EQ(countArea(costed, AREA_WATER), 0);
}

TEST_P(DefaultLevelAreas, ExcludingDoorBlocksTheDoorway) {
  const float outside[3] = {46, 0, 28.9f}, farInside[3] = {54, 0, 45};
  nav::QueryFilter all;
  const PathResult open = path(outside, farInside, all);
  ASSERT_TRUE(open.reached);
  EXPECT_GT(countArea(open, AREA_DOOR), 0);

  nav::QueryFilter noDoor;
  noDoor.setExcludeFlags(FLAG_DOOR);
  const PathResult closed = path(outside, farInside, noDoor);
  EXPECT_FALSE(closed.reached) << "room D is reachable only through the doorway";
  EXPECT_EQ(countArea(closed, AREA_DOOR), 0);
}

TEST_P(DefaultLevelAreas, JumpLinksMakeTheOnlyWayOntoPlatformJ) {
  const float onM2[3] = {32, 3, 40}, farOnJ[3] = {44, 3, 42};
  nav::QueryFilter all;
  const PathResult jump = path(onM2, farOnJ, all);
  ASSERT_TRUE(jump.reached);
  EXPECT_EQ(linksUsed(jump), std::vector<uint32_t>{1000});

  nav::QueryFilter noJump;
  noJump.setExcludeFlags(FLAG_JUMP);
  const PathResult stuck = path(onM2, farOnJ, noJump);
  EXPECT_FALSE(stuck.reached);
  EXPECT_TRUE(linksUsed(stuck).empty());

  // From the ground: stairs up to M2, then the jump.
  const float ground[3] = {30, 0, 28};
  const PathResult fromGround = path(ground, farOnJ, all);
  ASSERT_TRUE(fromGround.reached);
  EXPECT_EQ(linksUsed(fromGround), std::vector<uint32_t>{1000});

  // The second link is a one-way drop from J to the alley east of it.
  const float alleyEast[3] = {46.6f, 0, 40};
  const PathResult down = path(farOnJ, alleyEast, all);
  ASSERT_TRUE(down.reached);
  EXPECT_EQ(linksUsed(down), std::vector<uint32_t>{1001});
  const PathResult up = path(alleyEast, farOnJ, all);
  ASSERT_TRUE(up.reached);
  EXPECT_EQ(linksUsed(up), std::vector<uint32_t>{1000}) << "the drop must not be climbed back";
}

INSTANTIATE_TEST_SUITE_P(SoloAndTiled, DefaultLevelAreas, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& i) { return i.param ? "tiled" : "solo"; });

} // namespace
