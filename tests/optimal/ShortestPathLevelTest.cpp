// Property tests of the exact shortest path on Recast-baked levels (the project's default level, and
// the shared levels when present), on random start/end pairs, against Detour (the oracle) and our
// own findPath + findStraightPath:
//   * never longer than Detour's straight path (1e-4 tolerance), nor than ours;
//   * equal to the straight segment whenever Detour's path is one segment (a single convex run);
//   * never crosses a wall: Detour's raycast along every segment finds no hit;
//   * the polygons listed are linked one to the next; the reported length is the corner path's.
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/ShortestPath.h"
#include "tests/optimal/OptimalTestUtil.h"

#include <gtest/gtest.h>

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

using namespace opttest;

namespace {

bool segmentClear(World& w, nav::PolyRef ref, const float* a, const float* b, float* tHit);

bool linked(const nav::NavMesh& mesh, nav::PolyRef a, nav::PolyRef b) {
  const nav::MeshTile* tile = nullptr;
  const nav::Poly* poly = nullptr;
  if (!nav::statusSucceeded(mesh.getTileAndPolyByRef(a, &tile, &poly))) return false;
  for (uint32_t i = poly->firstLink; i != nav::NULL_LINK; i = tile->links[i].next)
    if (tile->links[i].ref == b) return true;
  return false;
}

struct Totals {
  int pairs = 0, compared = 0, straight = 0;
  double sumRatio = 0;
};

void checkLevel(const std::string& obj, bool tiled, int pairs, uint32_t seed) {
  World w;
  std::string why;
  ASSERT_TRUE(buildLevel(obj, tiled, w, &why)) << obj << ": " << why;
  nav::ShortestPath sp;
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&w.mesh, 16384)));
  nav::NavMeshQuery ours;
  ASSERT_TRUE(nav::statusSucceeded(ours.init(&w.mesh, 4096)));
  nav::QueryFilter filter;
  nav::QueryFilter unusedAreaCost; // area 40 is not used by the bakes here
  unusedAreaCost.setAreaCost(40, 5.0f);
  dtQueryFilter dtFilter;
  seedRandom(seed);
  Totals tot;
  std::vector<float> pts(3 * 512);
  std::vector<uint8_t> flags(512);
  std::vector<nav::PolyRef> refs(512), polys(4096), corridor(4096);
  for (int i = 0; i < pairs; ++i) {
    dtPolyRef sr = 0, er = 0;
    float s[3], e[3];
    if (dtStatusFailed(w.dtq->findRandomPoint(&dtFilter, frand, &sr, s))) continue;
    if (dtStatusFailed(w.dtq->findRandomPoint(&dtFilter, frand, &er, e))) continue;
    ++tot.pairs;
    std::vector<float> dpts;
    std::vector<uint8_t> dflags;
    const float dl = detourPath(w, sr, er, s, e, &dpts, &dflags);
    int n = 0, np = 0;
    float len = 0;
    const nav::Status st = sp.findPath(sr, er, s, e, &filter, pts.data(), flags.data(), refs.data(), &n, 512,
                                       polys.data(), &np, 4096, &len);
    SCOPED_TRACE(obj + " pair " + std::to_string(i) + " s=(" + std::to_string(s[0]) + "," + std::to_string(s[1]) +
                 "," + std::to_string(s[2]) + ") e=(" + std::to_string(e[0]) + "," + std::to_string(e[1]) + "," +
                 std::to_string(e[2]) + ")");
    ASSERT_TRUE(nav::statusSucceeded(st));
    EXPECT_FALSE(st & nav::OUT_OF_NODES);
    EXPECT_FALSE(st & nav::BUFFER_TOO_SMALL);
    ASSERT_GE(n, 1);
    EXPECT_NEAR(nav::straightPathLength(pts.data(), flags.data(), n), len, 1e-3f + 1e-5f * len);
    // The corridor is connected.
    ASSERT_GE(np, 1);
    EXPECT_EQ(polys[0], sr);
    for (int k = 0; k + 1 < np; ++k) EXPECT_TRUE(linked(w.mesh, polys[size_t(k)], polys[size_t(k + 1)])) << k;
    // Every segment stays on the mesh.
    for (int k = 0; k + 1 < n; ++k) {
      if (flags[size_t(k)] & nav::STRAIGHTPATH_OFFMESH_CONNECTION) continue;
      const float* a = &pts[size_t(k) * 3];
      const float* b = &pts[size_t(k + 1) * 3];
      if (std::hypot(b[0] - a[0], b[2] - a[2]) < 1e-3f) continue;
      float t = 0;
      const bool clear = segmentClear(w, refs[size_t(k)], a, b, &t);
      EXPECT_TRUE(clear) << "segment " << k << " hits a wall at t=" << t;
      if (!clear && std::getenv("OPT_DEBUG")) {
        for (int q = 0; q < n; ++q)
          std::printf("  pt %d (%.4f %.4f %.4f) flags %d ref %u\n", q, pts[size_t(q) * 3], pts[size_t(q) * 3 + 1],
                      pts[size_t(q) * 3 + 2], flags[size_t(q)], refs[size_t(q)]);
        for (size_t q = 0; q < dpts.size(); q += 3)
          std::printf("  detour (%.4f %.4f %.4f)\n", dpts[q], dpts[q + 1], dpts[q + 2]);
      }
    }
    // The weighted-cost machinery (piece-by-piece costs along each segment, used as soon as area
    // costs differ) must give the same answer when the differing cost is on an area the level
    // does not use.
    if (i % 4 == 0) {
      int n2 = 0;
      float len2 = 0;
      std::vector<float> pts2(3 * 512);
      const nav::Status st2 = sp.findPath(sr, er, s, e, &unusedAreaCost, pts2.data(), nullptr, nullptr, &n2, 512,
                                          nullptr, nullptr, 0, &len2);
      EXPECT_EQ(st2, st);
      EXPECT_NEAR(len2, len, 1e-3f + 1e-5f * len) << "non-uniform cost model";
    }
    if (dl < 0) {
      // Detour found no complete path: then neither may we.
      EXPECT_TRUE(st & nav::PARTIAL_RESULT);
      continue;
    }
    EXPECT_FALSE(st & nav::PARTIAL_RESULT);
    ++tot.compared;
    EXPECT_LE(len, dl + 1e-4f) << "exact " << len << " > Detour " << dl;
    tot.sumRatio += len > 0 ? dl / len : 1.0;
    if (dpts.size() == 6) {
      ++tot.straight;
      EXPECT_NEAR(len, std::hypot(e[0] - s[0], e[2] - s[2]), 1e-4f);
      EXPECT_EQ(n, 2);
    }
    // Our own findPath + findStraightPath too.
    int nc = 0;
    const nav::Status fs = ours.findPath(sr, er, s, e, &filter, corridor.data(), &nc, 4096);
    if (nav::statusSucceeded(fs) && !(fs & nav::PARTIAL_RESULT)) {
      std::vector<float> op(3 * 512);
      std::vector<uint8_t> of(512);
      int on = 0;
      if (nav::statusSucceeded(
              ours.findStraightPath(s, e, corridor.data(), nc, op.data(), of.data(), nullptr, &on, 512))) {
        EXPECT_LE(len, nav::straightPathLength(op.data(), of.data(), on) + 1e-4f);
      }
    }
  }
  EXPECT_GT(tot.compared, pairs / 5) << "too few connected pairs on " << obj;
  std::printf("[ %s%s ] %d pairs, %d compared, %d straight, mean Detour/exact %.4f\n", obj.c_str(),
              tiled ? " tiled" : "", tot.pairs, tot.compared, tot.straight,
              tot.compared ? tot.sumRatio / tot.compared : 0.0);
}

// Raycasts along a -> b (from poly `ref`, slightly inside both ends). A segment that runs exactly
// along a wall edge (a path hugging a wall, as Detour's paths do too) makes the raycast
// ill-conditioned (it reports a hit on the edge it runs along); then the segment is sampled every
// 2 cm instead and each sample must lie on the mesh (within 2 mm in xz, or 2e-6 * |x| far from the
// origin, near the segment's height).
bool segmentClear(World& w, nav::PolyRef ref, const float* a, const float* b, float* tHit) {
  dtQueryFilter f;
  float cur[3], end[3];
  for (int c = 0; c < 3; ++c) {
    cur[c] = a[c] + (b[c] - a[c]) * 1e-3f;
    end[c] = b[c] - (b[c] - a[c]) * 1e-3f;
  }
  float t = 0, nrm[3] = {0, 0, 0};
  dtPolyRef visited[256];
  int nv = 0;
  *tHit = FLT_MAX;
  if (dtStatusFailed(w.dtq->raycast(ref, cur, end, &f, &t, nrm, visited, &nv, 256))) return false;
  if (t == FLT_MAX) return true;
  *tHit = t;
  const float len = std::hypot(b[0] - a[0], b[2] - a[2]);
  const int steps = int(len / 0.02f) + 1;
  for (int i = 0; i <= steps; ++i) {
    const float u = float(i) / float(steps);
    const float p[3] = {a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u};
    // Float coordinates carry ~1e-7 * |x| of error (0.5 mm at 5 km): allow a few of those.
    const float tol = std::max(2e-3f, 2e-6f * std::max(std::fabs(p[0]), std::fabs(p[2])));
    // Any polygon under or over the point (the segment's straight-line height can be far from the
    // surface on undulating ground) that contains it in xz.
    const float ext[3] = {tol, 1000.0f, tol};
    dtPolyRef found[64];
    int nf = 0;
    w.dtq->queryPolygons(p, ext, &f, found, &nf, 64);
    bool on = false;
    for (int k = 0; k < nf && !on; ++k) {
      float cp[3];
      bool over = false;
      if (dtStatusSucceed(w.dtq->closestPointOnPoly(found[k], p, cp, &over)))
        on = std::hypot(cp[0] - p[0], cp[2] - p[2]) <= tol;
    }
    if (!on) {
      *tHit = u;
      return false;
    }
  }
  return true;
}

} // namespace

TEST(ShortestPathLevel, DefaultLevelSolo) {
  const std::string obj = defaultLevelObj();
  ASSERT_TRUE(fileExists(obj)) << obj;
  checkLevel(obj, false, 400, 7);
}

TEST(ShortestPathLevel, DefaultLevelTiled) {
  const std::string obj = defaultLevelObj();
  ASSERT_TRUE(fileExists(obj)) << obj;
  checkLevel(obj, true, 400, 11);
}

class SharedLevel : public ::testing::TestWithParam<const char*> {};

TEST_P(SharedLevel, RandomPairs) {
  const std::string obj = sharedLevelObj(GetParam());
  if (!fileExists(obj)) GTEST_SKIP() << "shared levels not found at " << obj;
  checkLevel(obj, false, 300, 3);
  checkLevel(obj, true, 300, 5);
}

INSTANTIATE_TEST_SUITE_P(ShortestPath, SharedLevel, ::testing::Values("dungeon.obj", "nav_test.obj", "undulating.obj"),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                           std::string n = p.param;
                           return n.substr(0, n.find('.'));
                         });

// The polygon cache (what an expansion reads of a polygon and its links, kept across queries) must
// not change any answer. The generated obstacle field baked as one tile of more polygons than a
// ShortestPath initialised on an empty mesh can cache (1 K): that one reads the mesh at every
// expansion, one initialised with the tile loaded reads its cache; the same pairs give the same
// bits (corners, flags, polygons, length, status).
TEST(ShortestPathLevel, PolygonCacheGivesTheAnswersOfTheMesh) {
  std::vector<float> verts;
  std::vector<int> tris;
  generateObstacleField(200.0f, 400, 12345, verts, tris);
  World w;
  std::string why;
  ASSERT_TRUE(buildLevelFromTriangles(verts, tris, false, w, &why)) << why;
  nav::TileRef tref = 0;
  for (int i = 0; i < w.mesh.getMaxTiles() && !tref; ++i)
    if (w.mesh.getTile(i)->header) tref = w.mesh.getTileRef(w.mesh.getTile(i));
  ASSERT_NE(tref, 0u);
  ASSERT_GT(w.mesh.getTileByRef(tref)->header->polyCount, 1024) << "the tile must be bigger than the smallest cache";
  // Pairs first (Detour's random points, on the same polygons), as positions.
  dtQueryFilter df;
  seedRandom(5);
  std::vector<std::array<float, 6>> pairs;
  for (int i = 0; i < 400 && pairs.size() < 150; ++i) {
    dtPolyRef a = 0, b = 0;
    std::array<float, 6> p{};
    if (dtStatusFailed(w.dtq->findRandomPoint(&df, frand, &a, p.data()))) continue;
    if (dtStatusFailed(w.dtq->findRandomPoint(&df, frand, &b, p.data() + 3))) continue;
    pairs.push_back(p);
  }
  ASSERT_GE(pairs.size(), 100u);
  // Out and back in (a copy of its data: the mesh frees what it owns); the small ShortestPath is
  // made while it is out.
  const nav::MeshTile* tile = w.mesh.getTileByRef(tref);
  const int size = tile->dataSize;
  uint8_t* data = new uint8_t[size_t(size)];
  std::memcpy(data, tile->data, size_t(size));
  ASSERT_TRUE(nav::statusSucceeded(w.mesh.removeTile(tref, nullptr, nullptr)));
  nav::ShortestPath uncached;
  ASSERT_TRUE(nav::statusSucceeded(uncached.init(&w.mesh, 65536)));
  ASSERT_TRUE(nav::statusSucceeded(w.mesh.addTile(data, size, nav::TILE_FREE_DATA, 0, &tref, &why))) << why;
  nav::ShortestPath cached;
  ASSERT_TRUE(nav::statusSucceeded(cached.init(&w.mesh, 65536)));
  nav::NavMeshQuery q;
  ASSERT_TRUE(nav::statusSucceeded(q.init(&w.mesh, 64)));
  nav::QueryFilter filter;
  const float ext[3] = {0.1f, 0.5f, 0.1f};
  int compared = 0, uncachedExpansions = 0, cachedUncached = 0, gathered = 0;
  for (const auto& p : pairs) {
    nav::PolyRef s = 0, e = 0;
    float sp[3], ep[3];
    q.findNearestPoly(p.data(), ext, &filter, &s, sp);
    q.findNearestPoly(p.data() + 3, ext, &filter, &e, ep);
    if (!s || !e) continue;
    struct Out {
      std::vector<float> pts = std::vector<float>(3 * 256);
      std::vector<uint8_t> flags = std::vector<uint8_t>(256);
      std::vector<nav::PolyRef> refs = std::vector<nav::PolyRef>(256), polys = std::vector<nav::PolyRef>(4096);
      int n = 0, np = 0;
      float len = 0;
      nav::Status st = 0;
    } a, b;
    a.st = uncached.findPath(s, e, sp, ep, &filter, a.pts.data(), a.flags.data(), a.refs.data(), &a.n, 256,
                             a.polys.data(), &a.np, 4096, &a.len);
    b.st = cached.findPath(s, e, sp, ep, &filter, b.pts.data(), b.flags.data(), b.refs.data(), &b.n, 256,
                           b.polys.data(), &b.np, 4096, &b.len);
    uncachedExpansions += uncached.lastStats().uncachedExpansions;
    cachedUncached += cached.lastStats().uncachedExpansions;
    gathered += cached.lastStats().tilesGathered;
    ASSERT_EQ(a.st, b.st);
    ASSERT_EQ(a.n, b.n);
    ASSERT_EQ(a.np, b.np);
    EXPECT_EQ(std::memcmp(&a.len, &b.len, sizeof(float)), 0) << a.len << " vs " << b.len;
    EXPECT_EQ(std::memcmp(a.pts.data(), b.pts.data(), sizeof(float) * 3 * size_t(a.n)), 0);
    EXPECT_TRUE(std::equal(a.flags.begin(), a.flags.begin() + a.n, b.flags.begin()));
    EXPECT_TRUE(std::equal(a.refs.begin(), a.refs.begin() + a.n, b.refs.begin()));
    EXPECT_TRUE(std::equal(a.polys.begin(), a.polys.begin() + a.np, b.polys.begin()));
    ++compared;
  }
  EXPECT_GE(compared, 100);
  EXPECT_GT(uncachedExpansions, 10 * compared); // the small one read the mesh throughout
  EXPECT_EQ(cachedUncached, 0);
  EXPECT_EQ(gathered, 1); // the one tile, once (kept across queries)
}
