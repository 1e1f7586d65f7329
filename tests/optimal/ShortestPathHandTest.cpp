// Exact shortest paths on hand-made meshes whose answers are known in closed form: an L-corridor, a
// room with a pillar, a ring with two routes of different lengths (also with a filter and area
// costs), a tile border with a partial portal, a jump link, two storeys joined by a ladder; dominance
// pruning (a node on an edge dropped when another root reaches all of it as cheaply); a start on an
// edge's line within float tolerance far from the origin.
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/ShortestPath.h"
#include "tests/optimal/OptimalTestUtil.h"

#include <gtest/gtest.h>

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace opttest;

namespace {

struct Result {
  nav::Status status = 0;
  std::vector<float> pts;
  std::vector<uint8_t> flags;
  std::vector<nav::PolyRef> refs, polys;
  float length = 0;
  int count() const { return int(flags.size()); }
};

Result runExact(World& w, const float* s, const float* e, const nav::QueryFilter& filter, int maxPts = 256,
                int maxNodes = 4096) {
  nav::ShortestPath sp;
  EXPECT_TRUE(nav::statusSucceeded(sp.init(&w.mesh, maxNodes)));
  const nav::PolyRef sr = findPoly(w, s), er = findPoly(w, e);
  EXPECT_NE(sr, 0u);
  EXPECT_NE(er, 0u);
  Result r;
  r.pts.resize(size_t(maxPts) * 3);
  r.flags.resize(size_t(maxPts));
  r.refs.resize(size_t(maxPts));
  r.polys.resize(512);
  int n = 0, np = 0;
  r.status = sp.findPath(sr, er, s, e, &filter, r.pts.data(), r.flags.data(), r.refs.data(), &n, maxPts,
                         r.polys.data(), &np, 512, &r.length);
  r.pts.resize(size_t(n) * 3);
  r.flags.resize(size_t(n));
  r.refs.resize(size_t(n));
  r.polys.resize(size_t(np));
  return r;
}

float d2(float ax, float az, float bx, float bz) { return std::sqrt((ax - bx) * (ax - bx) + (az - bz) * (az - bz)); }

void expectPoint(const Result& r, int i, float x, float z, float tol = 1e-4f) {
  ASSERT_LT(i, r.count());
  EXPECT_NEAR(r.pts[size_t(i) * 3 + 0], x, tol) << "point " << i;
  EXPECT_NEAR(r.pts[size_t(i) * 3 + 2], z, tol) << "point " << i;
}

HandMesh lCorridor() {
  HandMesh hm;
  HandTile t;
  t.addPoly({{0, 0}, {8, 0}, {8, 2}, {0, 2}});
  t.addPoly({{8, 0}, {10, 0}, {10, 2}, {8, 2}});
  t.addPoly({{8, 2}, {10, 2}, {10, 10}, {8, 10}});
  hm.tiles.push_back(t);
  return hm;
}

// Room [0,12]^2 with a pillar [5,7]^2 (south, east, north, west trapezoids around it).
HandMesh pillarRoom() {
  HandMesh hm;
  HandTile t;
  t.addPoly({{0, 0}, {12, 0}, {7, 5}, {5, 5}});
  t.addPoly({{12, 0}, {12, 12}, {7, 7}, {7, 5}});
  t.addPoly({{12, 12}, {0, 12}, {5, 7}, {7, 7}});
  t.addPoly({{0, 12}, {0, 0}, {5, 5}, {5, 7}});
  hm.tiles.push_back(t);
  return hm;
}

// Ring [0,20]x[0,10] around a hole [4,16]x[3,8]: the south route is 3 wide, the north one 2.
HandMesh ring(uint8_t southArea, uint16_t southFlags) {
  HandMesh hm;
  HandTile t;
  t.addPoly({{0, 0}, {20, 0}, {16, 3}, {4, 3}}, 0.0f, southArea, southFlags);
  t.addPoly({{20, 0}, {20, 10}, {16, 8}, {16, 3}});
  t.addPoly({{20, 10}, {0, 10}, {4, 8}, {16, 8}});
  t.addPoly({{0, 10}, {0, 0}, {4, 3}, {4, 8}});
  hm.tiles.push_back(t);
  return hm;
}

} // namespace

TEST(ShortestPathHand, LCorridorTurnsAtTheInnerCorner) {
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(lCorridor(), w, &why)) << why;
  const float s[3] = {1, 0, 1}, e[3] = {9, 0, 9};
  nav::QueryFilter f;
  Result r = runExact(w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_FALSE(r.status & nav::PARTIAL_RESULT);
  EXPECT_NEAR(r.length, 2.0f * std::sqrt(50.0f), 1e-4f);
  ASSERT_EQ(r.count(), 3);
  expectPoint(r, 0, 1, 1);
  expectPoint(r, 1, 8, 2);
  expectPoint(r, 2, 9, 9);
  EXPECT_EQ(r.flags[0], nav::STRAIGHTPATH_START);
  EXPECT_EQ(r.flags[2], nav::STRAIGHTPATH_END);
  EXPECT_EQ(r.refs[2], 0u);
  EXPECT_NEAR(nav::straightPathLength(r.pts.data(), r.flags.data(), r.count()), r.length, 1e-4f);
  ASSERT_EQ(r.polys.size(), 3u);
  EXPECT_EQ(r.polys.front(), findPoly(w, s));
  EXPECT_EQ(r.polys.back(), findPoly(w, e));
  // Detour finds the same here (one corridor).
  const float dl = detourPath(w, findPoly(w, s), findPoly(w, e), s, e);
  EXPECT_NEAR(dl, r.length, 1e-4f);
}

TEST(ShortestPathHand, BufferTooSmallKeepsTheStart) {
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(lCorridor(), w, &why)) << why;
  const float s[3] = {1, 0, 1}, e[3] = {9, 0, 9};
  nav::QueryFilter f;
  Result r = runExact(w, s, e, f, 2);
  EXPECT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_TRUE(r.status & nav::BUFFER_TOO_SMALL);
  ASSERT_EQ(r.count(), 2);
  expectPoint(r, 0, 1, 1);
  expectPoint(r, 1, 8, 2);
}

TEST(ShortestPathHand, InvalidInputIsRefused) {
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(lCorridor(), w, &why)) << why;
  nav::ShortestPath sp;
  EXPECT_TRUE(nav::statusFailed(sp.init(&w.mesh, 4)));
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&w.mesh, 64)));
  const float s[3] = {1, 0, 1}, e[3] = {9, 0, 9};
  nav::QueryFilter f;
  float pts[30];
  int n = 5;
  const nav::PolyRef ref = findPoly(w, s);
  nav::Status st = sp.findPath(ref, 12345678u, s, e, &f, pts, nullptr, nullptr, &n, 10);
  EXPECT_TRUE(nav::statusFailed(st) && (st & nav::INVALID_PARAM));
  EXPECT_EQ(n, 0);
  const float nanPos[3] = {NAN, 0, 0};
  st = sp.findPath(ref, ref, nanPos, e, &f, pts, nullptr, nullptr, &n, 10);
  EXPECT_TRUE(nav::statusFailed(st));
  st = sp.findPath(ref, ref, s, e, nullptr, pts, nullptr, nullptr, &n, 10);
  EXPECT_TRUE(nav::statusFailed(st));
}

TEST(ShortestPathHand, PillarRoomGoesAroundTheNearCorners) {
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(pillarRoom(), w, &why)) << why;
  nav::QueryFilter f;
  {
    const float s[3] = {1, 0, 6}, e[3] = {11, 0, 6};
    Result r = runExact(w, s, e, f);
    ASSERT_TRUE(nav::statusSucceeded(r.status));
    EXPECT_NEAR(r.length, 2.0f * std::sqrt(17.0f) + 2.0f, 1e-4f);
    ASSERT_EQ(r.count(), 4);
    const float dl = detourPath(w, findPoly(w, s), findPoly(w, e), s, e);
    EXPECT_LE(r.length, dl + 1e-4f);
  }
  {
    const float s[3] = {1, 0, 1}, e[3] = {11, 0, 11};
    Result r = runExact(w, s, e, f);
    ASSERT_TRUE(nav::statusSucceeded(r.status));
    EXPECT_NEAR(r.length, 2.0f * std::sqrt(52.0f), 1e-4f);
    ASSERT_EQ(r.count(), 3);
  }
  {
    // Seen directly: one segment, whatever the corridor.
    const float s[3] = {1, 0, 1}, e[3] = {11, 0, 2};
    Result r = runExact(w, s, e, f);
    ASSERT_TRUE(nav::statusSucceeded(r.status));
    EXPECT_NEAR(r.length, d2(1, 1, 11, 2), 1e-4f);
    EXPECT_EQ(r.count(), 2);
  }
}

TEST(ShortestPathHand, TwoRoutesTakesTheShorterOne) {
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(ring(0, 1), w, &why)) << why;
  const float s[3] = {2, 0, 5}, e[3] = {18, 0, 5};
  nav::QueryFilter f;
  Result r = runExact(w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_NEAR(r.length, 12.0f + 2.0f * std::sqrt(8.0f), 1e-4f);
  ASSERT_EQ(r.count(), 4);
  expectPoint(r, 1, 4, 3);
  expectPoint(r, 2, 16, 3);
  const float dl = detourPath(w, findPoly(w, s), findPoly(w, e), s, e);
  EXPECT_LE(r.length, dl + 1e-4f);
}

TEST(ShortestPathHand, FilterExcludesARoute) {
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(ring(0, 1 | 2), w, &why)) << why;
  const float s[3] = {2, 0, 5}, e[3] = {18, 0, 5};
  nav::QueryFilter f;
  f.setExcludeFlags(2);
  Result r = runExact(w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_NEAR(r.length, 12.0f + 2.0f * std::sqrt(13.0f), 1e-4f);
  expectPoint(r, 1, 4, 8);
  expectPoint(r, 2, 16, 8);
}

TEST(ShortestPathHand, AreaCostsMultiplyDistance) {
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(ring(1, 1), w, &why)) << why;
  const float s[3] = {2, 0, 5}, e[3] = {18, 0, 5};
  {
    // South costs 3x: the north route (19.2) beats the south one (12 * 3 + 5.7).
    nav::QueryFilter f;
    f.setAreaCost(1, 3.0f);
    Result r = runExact(w, s, e, f);
    ASSERT_TRUE(nav::statusSucceeded(r.status));
    EXPECT_NEAR(r.length, 12.0f + 2.0f * std::sqrt(13.0f), 1e-3f);
    expectPoint(r, 1, 4, 8);
  }
  {
    // South costs 1.05x: still the cheaper route, its cost counts the 12 m along the south at 1.05.
    nav::QueryFilter f;
    f.setAreaCost(1, 1.05f);
    Result r = runExact(w, s, e, f);
    ASSERT_TRUE(nav::statusSucceeded(r.status));
    EXPECT_NEAR(r.length, 12.0f * 1.05f + 2.0f * std::sqrt(8.0f), 1e-3f);
    expectPoint(r, 1, 4, 3);
  }
}

TEST(ShortestPathHand, CrossesATileBorderThroughAPartialPortal) {
  // Tile 0: [0,10]^2 in one poly. Tile 1: a strip z 0..3 that only meets tile 0 there, and a
  // room x 12..20, z 3..10 reached from the strip: the path turns at the portal's end on the border
  // (as quantised by the link's bmin/bmax), then at (12, 3).
  HandMesh hm;
  hm.tileSize = 10.0f;
  HandTile t0;
  t0.addPoly({{0, 0}, {10, 0}, {10, 10}, {0, 10}});
  HandTile t1;
  t1.tx = 1;
  t1.addPoly({{10, 0}, {20, 0}, {20, 3}, {12, 3}, {10, 3}});
  t1.addPoly({{12, 3}, {20, 3}, {20, 10}, {12, 10}});
  hm.tiles = {t0, t1};
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(hm, w, &why)) << why;
  const float s[3] = {5, 0, 8}, e[3] = {13, 0, 8};
  const nav::PolyRef sr = findPoly(w, s);
  // The portal end from tile 0's link, as Detour's getPortalPoints computes it.
  const nav::MeshTile* tile = nullptr;
  const nav::Poly* poly = nullptr;
  ASSERT_TRUE(nav::statusSucceeded(w.mesh.getTileAndPolyByRef(sr, &tile, &poly)));
  float corner[3] = {0, 0, 0};
  bool found = false;
  for (uint32_t i = poly->firstLink; i != nav::NULL_LINK; i = tile->links[i].next) {
    const nav::Link& l = tile->links[i];
    if (l.side == 0xff) continue;
    const float* va = &tile->verts[poly->verts[l.edge] * 3];
    const float* vb = &tile->verts[poly->verts[(l.edge + 1) % poly->vertCount] * 3];
    for (const float t : {l.bmin / 255.0f, l.bmax / 255.0f}) {
      const float z = va[2] + (vb[2] - va[2]) * t;
      if (std::fabs(z - 3.0f) < 0.1f) {
        corner[0] = va[0] + (vb[0] - va[0]) * t;
        corner[2] = z;
        found = true;
      }
    }
  }
  ASSERT_TRUE(found) << "no partial portal ending near z = 3";
  nav::QueryFilter f;
  Result r = runExact(w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  const float expected = d2(5, 8, corner[0], corner[2]) + d2(corner[0], corner[2], 12, 3) + d2(12, 3, 13, 8);
  EXPECT_NEAR(r.length, expected, 1e-4f);
  ASSERT_EQ(r.count(), 4);
  expectPoint(r, 1, corner[0], corner[2]);
  expectPoint(r, 2, 12, 3);
  ASSERT_EQ(r.polys.size(), 3u);
  // Our findPath + findStraightPath walks the same (only) corridor through the same portal.
  nav::NavMeshQuery q;
  ASSERT_TRUE(nav::statusSucceeded(q.init(&w.mesh, 256)));
  nav::PolyRef corridor[16];
  int nc = 0;
  ASSERT_TRUE(nav::statusSucceeded(q.findPath(sr, findPoly(w, e), s, e, &f, corridor, &nc, 16)));
  float sp[3 * 16];
  uint8_t sf[16];
  int ns = 0;
  ASSERT_TRUE(nav::statusSucceeded(q.findStraightPath(s, e, corridor, nc, sp, sf, nullptr, &ns, 16)));
  EXPECT_NEAR(nav::straightPathLength(sp, sf, ns), r.length, 1e-4f);
  // Detour links the tiles itself, with the same byte-quantised portal.
  const float dl = detourPath(w, sr, findPoly(w, e), s, e);
  EXPECT_NEAR(dl, r.length, 1e-4f);
}

TEST(ShortestPathHelpers, ClosestPointOnPortalAndPathLength) {
  const float l[3] = {0, 1, 0}, r[3] = {10, 3, 0};
  float out[3];
  const float from[3] = {4, 0, -5};
  nav::closestPointOnPortal(from, l, r, out);
  EXPECT_NEAR(out[0], 4.0f, 1e-5f);
  EXPECT_NEAR(out[1], 1.8f, 1e-5f); // y interpolated along the portal
  EXPECT_NEAR(out[2], 0.0f, 1e-5f);
  const float before[3] = {-3, 0, 2};
  nav::closestPointOnPortal(before, l, r, out);
  EXPECT_NEAR(out[0], 0.0f, 1e-5f); // clamped to the portal's end
  // Never a longer step than to the midpoint (the cost model's point).
  const float mid[3] = {5, 2, 0};
  const float p[3] = {8, 0, 7};
  nav::closestPointOnPortal(p, l, r, out);
  EXPECT_LE(std::hypot(out[0] - p[0], out[2] - p[2]), std::hypot(mid[0] - p[0], mid[2] - p[2]));

  // The goal-directed point: where from -> to crosses the portal (to mirrored when on from's side).
  const float pl[3] = {0, 0, 0}, pr[3] = {10, 0, 0};
  const float fa[3] = {2, 0, -2}, ta[3] = {6, 0, 2};
  nav::portalPointToward(fa, ta, pl, pr, out);
  EXPECT_NEAR(out[0], 4.0f, 1e-5f);
  const float tb[3] = {6, 0, -2}; // same side: mirrored to (6, 2)
  nav::portalPointToward(fa, tb, pl, pr, out);
  EXPECT_NEAR(out[0], 4.0f, 1e-5f);
  const float tc[3] = {30, 0, 2}; // crossing beyond the portal: clamped to its end
  nav::portalPointToward(fa, tc, pl, pr, out);
  EXPECT_NEAR(out[0], 10.0f, 1e-5f);

  const float pts[9] = {0, 0, 0, 3, 5, 4, 3, 9, 4};
  const uint8_t flags[3] = {nav::STRAIGHTPATH_START, nav::STRAIGHTPATH_OFFMESH_CONNECTION, nav::STRAIGHTPATH_END};
  EXPECT_NEAR(nav::straightPathLength(pts, nullptr, 3), 5.0f, 1e-5f);     // xz only
  EXPECT_NEAR(nav::straightPathLength(pts, flags, 3), 5.0f + 4.0f, 1e-5f); // the link counts in 3D
}

TEST(ShortestPathHand, SlicedSearchEqualsOneShot) {
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(pillarRoom(), w, &why)) << why;
  const float s[3] = {1, 0, 6}, e[3] = {11, 0, 6.5f};
  nav::QueryFilter f;
  Result one = runExact(w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(one.status));

  nav::ShortestPath sp;
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&w.mesh, 4096)));
  nav::Status st = sp.initSlicedFindPath(findPoly(w, s), findPoly(w, e), s, e, &f);
  ASSERT_TRUE(nav::statusInProgress(st));
  const int generatedAtStart = sp.nodeCount();
  EXPECT_GT(generatedAtStart, 0); // the start's edges are intervals already, for drawing
  int steps = 0, done = 0;
  while (nav::statusInProgress(st) && steps < 1000) {
    st = sp.updateSlicedFindPath(1, &done);
    EXPECT_LE(done, 1);
    ++steps;
  }
  ASSERT_TRUE(nav::statusSucceeded(st));
  EXPECT_GT(steps, 1);
  float pts[3 * 16];
  int n = 0;
  float len = 0;
  st = sp.finalizeSlicedFindPath(pts, nullptr, nullptr, &n, 16, nullptr, nullptr, 0, &len);
  ASSERT_TRUE(nav::statusSucceeded(st));
  EXPECT_FALSE(st & nav::PARTIAL_RESULT);
  EXPECT_FLOAT_EQ(len, one.length);
  ASSERT_EQ(n, one.count());
  for (int i = 0; i < n * 3; ++i) EXPECT_FLOAT_EQ(pts[i], one.pts[size_t(i)]);
  // A second finalize needs a new search.
  EXPECT_TRUE(nav::statusFailed(sp.finalizeSlicedFindPath(pts, nullptr, nullptr, &n, 16)));

  // Finalizing before the end gives the best partial path so far.
  ASSERT_TRUE(nav::statusInProgress(sp.initSlicedFindPath(findPoly(w, s), findPoly(w, e), s, e, &f)));
  st = sp.finalizeSlicedFindPath(pts, nullptr, nullptr, &n, 16, nullptr, nullptr, 0, &len);
  EXPECT_TRUE(nav::statusSucceeded(st));
  EXPECT_TRUE(st & nav::PARTIAL_RESULT);
  EXPECT_GE(n, 1);
  nav::ShortestPathNodeView v;
  EXPECT_TRUE(sp.getNode(0, &v));
  EXPECT_FALSE(sp.getNode(sp.nodeCount(), &v));
}

namespace {

// One ShortestPath kept across queries (its corner cache too) on a mesh that changes in between.
Result runWith(nav::ShortestPath& sp, World& w, const float* s, const float* e, const nav::QueryFilter& filter) {
  Result r;
  r.pts.resize(64 * 3);
  r.flags.resize(64);
  r.refs.resize(64);
  r.polys.resize(64);
  int n = 0, np = 0;
  r.status = sp.findPath(findPoly(w, s), findPoly(w, e), s, e, &filter, r.pts.data(), r.flags.data(), r.refs.data(),
                         &n, 64, r.polys.data(), &np, 64, &r.length);
  r.pts.resize(size_t(n) * 3);
  r.flags.resize(size_t(n));
  return r;
}

// Queries between all points of a grid (step 2 from (x0 + 1, z0 + 1)), so the corner cache holds
// the state of every vertex the searches ask about.
void warmUp(nav::ShortestPath& sp, World& w, float x0, float z0, float size, const nav::QueryFilter& filter) {
  std::vector<std::array<float, 3>> pts;
  for (float x = x0 + 1; x < x0 + size; x += 2)
    for (float z = z0 + 1; z < z0 + size; z += 2) pts.push_back({x, 0, z});
  for (const auto& a : pts)
    for (const auto& b : pts) runWith(sp, w, a.data(), b.data(), filter);
}

// One tile of hand-made polygons, a filter refusing flag 2 and a ShortestPath on it whose caches
// the queries of warmUp over [0, size]^2 have filled.
void setUpWarm(const HandTile& t, float size, World& w, nav::QueryFilter& f, nav::ShortestPath& sp) {
  HandMesh hm;
  hm.tiles.push_back(t);
  std::string why;
  ASSERT_TRUE(buildHandMesh(hm, w, &why)) << why;
  f.setExcludeFlags(2);
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&w.mesh, 256)));
  warmUp(sp, w, 0, 0, size, f);
}

} // namespace

// The corner state of a vertex is cached across queries; changing the mesh must reset it. A room of
// four quads around (5, 5) and a fifth quad east of it: the centre is no corner (a closed fan)
// until the filter refuses the south-east quad, which setPolyFlags does between two queries of the
// same ShortestPath. Then the path to the fifth quad must turn at the centre (the turn is the
// search's own, not the last one to the end).
TEST(ShortestPathHand, CornerCacheFollowsPolyFlags) {
  HandTile t;
  t.addPoly({{0, 0}, {5, 0}, {5, 5}, {0, 5}});
  t.addPoly({{5, 0}, {10, 0}, {10, 5}, {5, 5}}); // south-east
  t.addPoly({{5, 5}, {10, 5}, {10, 10}, {5, 10}});
  t.addPoly({{0, 5}, {5, 5}, {5, 10}, {0, 10}});
  t.addPoly({{10, 5}, {15, 5}, {15, 10}, {10, 10}});
  World w;
  nav::QueryFilter f;
  nav::ShortestPath sp;
  ASSERT_NO_FATAL_FAILURE(setUpWarm(t, 10, w, f, sp));
  const float s[3] = {2, 0, 1}, e[3] = {14, 0, 9}, se[3] = {8, 0, 2};
  Result r = runWith(sp, w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_NEAR(r.length, std::sqrt(208.0f), 1e-4f); // straight, through the south-east quad
  EXPECT_EQ(r.count(), 2);
  ASSERT_TRUE(nav::statusSucceeded(w.mesh.setPolyFlags(findPoly(w, se), 2)));
  r = runWith(sp, w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_FALSE(r.status & nav::PARTIAL_RESULT);
  EXPECT_NEAR(r.length, 5.0f + std::sqrt(97.0f), 1e-4f); // around the refused quad, turning at the centre
  ASSERT_EQ(r.count(), 3);
  expectPoint(r, 1, 5, 5);
  ASSERT_TRUE(nav::statusSucceeded(w.mesh.setPolyFlags(findPoly(w, se), 1)));
  r = runWith(sp, w, s, e, f);
  EXPECT_NEAR(r.length, std::sqrt(208.0f), 1e-4f);
}

// The polygon cache keeps each link's neighbour flags; setPolyFlags must reach them too. Two rows
// of four quads: from (1, 1) to (19, 1) the path runs straight along the south row until the
// filter refuses the third south quad; the search meets that quad from the second one (an interval
// node, whose polygon's links come from the cache), and must go around it through the north row.
TEST(ShortestPathHand, PolygonCacheFollowsPolyFlags) {
  HandTile t;
  for (int row = 0; row < 2; ++row)
    for (int i = 0; i < 4; ++i) {
      const float x = 5.0f * float(i), z = 5.0f * float(row);
      t.addPoly({{x, z}, {x + 5, z}, {x + 5, z + 5}, {x, z + 5}});
    }
  World w;
  nav::QueryFilter f;
  nav::ShortestPath sp;
  ASSERT_NO_FATAL_FAILURE(setUpWarm(t, 10, w, f, sp));
  const float s[3] = {1, 0, 1}, e[3] = {19, 0, 1}, third[3] = {12, 0, 2};
  Result r = runWith(sp, w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_NEAR(r.length, 18.0f, 1e-4f);
  EXPECT_EQ(r.count(), 2);
  ASSERT_TRUE(nav::statusSucceeded(w.mesh.setPolyFlags(findPoly(w, third), 2)));
  r = runWith(sp, w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_FALSE(r.status & nav::PARTIAL_RESULT);
  EXPECT_NEAR(r.length, std::sqrt(97.0f) + 5.0f + std::sqrt(32.0f), 1e-4f);
  ASSERT_EQ(r.count(), 4);
  expectPoint(r, 1, 10, 5);
  expectPoint(r, 2, 15, 5);
  EXPECT_EQ(sp.lastStats().tilesGathered, 1); // the mesh changed: its polygons gathered again
  ASSERT_TRUE(nav::statusSucceeded(w.mesh.setPolyFlags(findPoly(w, third), 1)));
  r = runWith(sp, w, s, e, f);
  EXPECT_NEAR(r.length, 18.0f, 1e-4f);
  r = runWith(sp, w, s, e, f);
  EXPECT_EQ(sp.lastStats().tilesGathered, 0); // (and kept while it does not)
}

// Four tiles meet at (10, 10) (tile (0, 1) in two halves): with all four the point is inside
// walkable space; once tile (1, 1) is removed it is the corner the path from tile (1, 0) to the
// west half of tile (0, 1) turns at.
TEST(ShortestPathHand, CornerCacheFollowsTileRemoval) {
  HandMesh hm;
  hm.tileSize = 10.0f;
  for (int ty = 0; ty < 2; ++ty)
    for (int tx = 0; tx < 2; ++tx) {
      HandTile t;
      t.tx = tx;
      t.ty = ty;
      const float x0 = 10.0f * float(tx), z0 = 10.0f * float(ty);
      if (tx == 0 && ty == 1) {
        t.addPoly({{x0, z0}, {x0 + 5, z0}, {x0 + 5, z0 + 10}, {x0, z0 + 10}});
        t.addPoly({{x0 + 5, z0}, {x0 + 10, z0}, {x0 + 10, z0 + 10}, {x0 + 5, z0 + 10}});
      } else {
        t.addPoly({{x0, z0}, {x0 + 10, z0}, {x0 + 10, z0 + 10}, {x0, z0 + 10}});
      }
      hm.tiles.push_back(t);
    }
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(hm, w, &why)) << why;
  const float s[3] = {12, 0, 9}, e[3] = {1, 0, 19};
  nav::QueryFilter f;
  nav::ShortestPath sp;
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&w.mesh, 256)));
  warmUp(sp, w, 0, 0, 20, f);
  Result r = runWith(sp, w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_NEAR(r.length, std::sqrt(221.0f), 1e-4f); // straight, through tile (1, 1)
  const nav::TileRef gone = w.mesh.getTileRefAt(1, 1, 0);
  ASSERT_NE(gone, 0u);
  ASSERT_TRUE(nav::statusSucceeded(w.mesh.removeTile(gone, nullptr, nullptr)));
  r = runWith(sp, w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_FALSE(r.status & nav::PARTIAL_RESULT);
  EXPECT_NEAR(r.length, std::sqrt(5.0f) + std::sqrt(162.0f), 1e-4f);
  ASSERT_EQ(r.count(), 3);
  expectPoint(r, 1, 10, 10);
}

namespace {

// The xz length of every segment piece: the default metric, but through a CostFn, which turns the
// uniform-cost shortcuts (dominance pruning among them) off while the answer stays the same.
float xzLengthCost(const nav::QueryFilter&, const float* pa, const float* pb, nav::PolyRef, const nav::MeshTile*,
                   const nav::Poly*, nav::PolyRef, const nav::MeshTile*, const nav::Poly*, nav::PolyRef,
                   const nav::MeshTile*, const nav::Poly*) {
  return std::hypot(pb[0] - pa[0], pb[2] - pa[2]);
}

} // namespace

// The pillar room with a strip [0,12]x[12,14] north of it (and [0,12]x[14,16] beyond), and a quad
// [0,2]x[20,22] that nothing links to. From (2, 1) the strip's south edge (z = 12) is reached by the start itself (x in [0, 7.5]),
// around the pillar's north-west corner (5, 7) (g = sqrt(45), the rest) and around its north-east
// corner (7, 7) (g = sqrt(41) + 2, all of it, later: the end is north-west); the last is dominated,
// first shrunk by one of the others and then held whole by the other one, so it is not generated.
// The search toward the unreachable quad visits everything; the same search without the pruning
// (setDominanceAfter(-1)) generates more nodes for the same answer. A reachable end behind the
// pillar: exact as before.
TEST(ShortestPathHand, DominatedIntervalIsNotGenerated) {
  HandMesh hm = pillarRoom();
  hm.tiles[0].addPoly({{0, 12}, {12, 12}, {12, 14}, {0, 14}});
  hm.tiles[0].addPoly({{0, 14}, {12, 14}, {12, 16}, {0, 16}}); // (so the strip is no dead end)
  hm.tiles[0].addPoly({{0, 20}, {2, 20}, {2, 22}, {0, 22}});
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(hm, w, &why)) << why;
  const float s[3] = {2, 0, 1}, away[3] = {1, 0, 21};
  nav::QueryFilter f;
  nav::ShortestPath sp;
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&w.mesh, 256)));
  sp.setDominanceAfter(0); // from the first expansion (the search here is small)
  Result r = runWith(sp, w, s, away, f);
  const nav::ShortestPathStats pruned = sp.lastStats();
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_TRUE(r.status & nav::PARTIAL_RESULT);
  EXPECT_GE(pruned.nodesDominated, 1);
  sp.setDominanceAfter(-1);
  Result full = runWith(sp, w, s, away, f);
  const nav::ShortestPathStats unpruned = sp.lastStats();
  EXPECT_EQ(full.status, r.status);
  EXPECT_EQ(unpruned.nodesDominated, 0);
  EXPECT_EQ(unpruned.nodesShrunk, 0);
  EXPECT_GT(unpruned.nodesGenerated, pruned.nodesGenerated);
  EXPECT_NEAR(full.length, r.length, 1e-4f);
  ASSERT_EQ(r.count(), full.count());
  // Partial results end on the search interval nearest to the end: on the strip's south edge (the
  // quad beyond it leads nowhere, so the search does not enter it: dead-end pruning).
  expectPoint(r, r.count() - 1, 1, 12);
  EXPECT_NEAR(r.length, std::sqrt(122.0f), 1e-4f);

  sp.setDominanceAfter(0);
  const float e[3] = {9, 0, 13};
  r = runWith(sp, w, s, e, f);
  ASSERT_TRUE(nav::statusSucceeded(r.status));
  EXPECT_FALSE(r.status & nav::PARTIAL_RESULT);
  EXPECT_NEAR(r.length, std::sqrt(45.0f) + std::sqrt(52.0f), 1e-4f);
  ASSERT_EQ(r.count(), 3);
  expectPoint(r, 1, 5, 7);
}

// Dominance pruning on a generated obstacle field (many roots at obstacle corners reaching the
// same edges): on random connected pairs the length is the one the unpruned search finds (the
// same metric through a CostFn), and it saves nodes.
TEST(ShortestPathHand, DominancePruningKeepsLengthsOnAnObstacleField) {
  std::vector<float> verts;
  std::vector<int> tris;
  generateObstacleField(60.0f, 40, 4242, verts, tris);
  World w;
  std::string why;
  ASSERT_TRUE(buildLevelFromTriangles(verts, tris, true, w, &why)) << why;
  nav::QueryFilter plain, viaCostFn;
  viaCostFn.setCostFn(xzLengthCost);
  nav::ShortestPath sp;
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&w.mesh, 16384)));
  dtQueryFilter df;
  seedRandom(17);
  std::vector<float> pts(3 * 256);
  int compared = 0;
  long genPruned = 0, genFull = 0, dominated = 0;
  for (int i = 0; i < 150; ++i) {
    dtPolyRef sr = 0, er = 0;
    float s[3], e[3];
    if (dtStatusFailed(w.dtq->findRandomPoint(&df, frand, &sr, s))) continue;
    if (dtStatusFailed(w.dtq->findRandomPoint(&df, frand, &er, e))) continue;
    int n = 0;
    float len = 0, lenFull = 0;
    const nav::Status st = sp.findPath(sr, er, s, e, &plain, pts.data(), nullptr, nullptr, &n, 256, nullptr, nullptr,
                                       0, &len);
    const nav::ShortestPathStats a = sp.lastStats();
    const nav::Status stFull = sp.findPath(sr, er, s, e, &viaCostFn, pts.data(), nullptr, nullptr, &n, 256, nullptr,
                                           nullptr, 0, &lenFull);
    const nav::ShortestPathStats b = sp.lastStats();
    ASSERT_TRUE(nav::statusSucceeded(st)) << "pair " << i;
    ASSERT_FALSE(st & nav::OUT_OF_NODES) << "pair " << i;
    ASSERT_FALSE(stFull & nav::OUT_OF_NODES) << "pair " << i;
    EXPECT_EQ(st & nav::PARTIAL_RESULT, stFull & nav::PARTIAL_RESULT) << "pair " << i;
    if (st & nav::PARTIAL_RESULT) continue;
    ++compared;
    EXPECT_NEAR(len, lenFull, 1e-4f + 1e-5f * lenFull) << "pair " << i;
    genPruned += a.nodesGenerated;
    genFull += b.nodesGenerated;
    dominated += a.nodesDominated;
  }
  EXPECT_GT(compared, 75);
  EXPECT_GT(dominated, 0);
  EXPECT_LT(genPruned, genFull);
  std::printf("[ field 60 m ] %d pairs: nodes generated %.1f per query pruned, %.1f unpruned\n", compared,
              double(genPruned) / compared, double(genFull) / compared);
}

// A start within the on-a-line tolerance of an edge of its polygon (m_lineTol: 3 mm at 5 km from the
// origin), where the float distance to the edge says "beyond it" while the side test says "on its
// line": the heuristic of the node through that edge walked to the edge's nearer end first, not a
// lower bound, so the node waited behind the way round (issue 18's long run, undulating tiled).
// Quads 20 m wide near (4864, 4864); the edge A-B1 slants; B1 and D1 are walled apart, so the way
// round goes up through C and D1, over to B2 and back down into B1: longer than the straight line,
// shorter than the walk to the nearer end. Starts along the edge at about the tolerance, across
// the float steps: each one is straight to the end.
TEST(ShortestPathHand, StartOnAnEdgeLineFarFromTheOrigin) {
  const float o = 64.0f * 76.0f;
  HandMesh hm;
  HandTile t;
  t.tx = t.ty = 76;
  auto quad = [&](float ax, float az, float bx, float bz, float cx, float cz, float dx, float dz) {
    return t.addPoly({{o + ax, o + az}, {o + bx, o + bz}, {o + cx, o + cz}, {o + dx, o + dz}});
  };
  quad(0, 0, 20, 0, 22, 20, 0, 20);   // A (the starts)
  quad(0, 20, 22, 20, 22, 40, 0, 40); // C
  const int b1 = quad(20, 0, 30, 0, 30, 20, 22, 20);
  quad(30, 0, 40, 0, 40, 20, 30, 20); // B2
  const int d1 = quad(22, 20, 30, 20, 30, 40, 22, 40);
  quad(30, 20, 40, 20, 40, 40, 30, 40); // D2
  t.walls.push_back({b1, d1});
  hm.tiles.push_back(t);
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(hm, w, &why)) << why;
  nav::QueryFilter f;
  nav::ShortestPath sp;
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&w.mesh, 1024)));
  const float e[3] = {o + 27.0f, 0.0f, o + 15.0f};
  const double tol = 6e-7 * double(e[0]); // ShortestPath's m_lineTol (e[0] is the largest coordinate)
  const float inA[3] = {o + 5.0f, 0.0f, o + 5.0f};
  const nav::PolyRef a = findPoly(w, inA);
  const double ex = 2.0, ez = 20.0, el = std::sqrt(ex * ex + ez * ez);
  for (int k = 0; k < 64; ++k) {
    const double along = 8.0 + 0.031 * k, across = tol * (0.96 + 0.04 * double(k % 8) / 8.0);
    // The point of the edge (20, 0) -> (22, 20) at `along` z, moved across it into A (-x).
    const double px = 20.0 + ex * along / ez - across * ez / el, pz = along + across * ex / el;
    float s[3] = {float(o + px), 0.0f, float(o + pz)};
    const nav::PolyRef sr = findPoly(w, s), er = findPoly(w, e);
    ASSERT_EQ(sr, a) << "start " << k;
    ASSERT_NE(er, 0u);
    float pts[3 * 16], len = 0;
    int n = 0;
    const nav::Status st = sp.findPath(sr, er, s, e, &f, pts, nullptr, nullptr, &n, 16, nullptr, nullptr, 0, &len);
    ASSERT_TRUE(nav::statusSucceeded(st));
    // (Straight within float steps of 5 km: the path may cross the edge at a float point beside it.)
    const double straight = std::hypot(double(e[0]) - s[0], double(e[2]) - s[2]);
    EXPECT_NEAR(len, straight, 1e-3) << "start " << k << " (" << s[0] << ", " << s[2] << "), " << n << " points";
  }
}
