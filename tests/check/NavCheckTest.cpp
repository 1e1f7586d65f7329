// NavCheckTest.cpp: each kind of defect planted on a mesh built here, found, and found where it
// is; a clean level reports nothing.
#include "CheckMeshes.h"

#include "nav/NavMeshQuery.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"
#include "nav/check/NavCheck.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace checktest;
using namespace nav::check;

namespace {

/// Level triangles: one flat rectangle at height y.
struct FlatLevel {
  std::vector<float> verts;
  std::vector<int> tris = {0, 1, 2, 0, 2, 3};
  LevelTriangles view;
  FlatLevel(float x0, float z0, float x1, float z1, float y) {
    verts = {x0, y, z0, x0, y, z1, x1, y, z1, x1, y, z0};
    view.verts = verts.data();
    view.vertCount = 4;
    view.tris = tris.data();
    view.triCount = 2;
  }
};

CheckOptions smallOptions() {
  CheckOptions o;
  o.pairs = 300;
  o.threads = 1;
  return o;
}

CheckResult run(const nav::NavMesh& mesh, const CheckOptions& o, const LevelTriangles* level = nullptr) {
  CheckResult r;
  std::string why;
  const nav::Status st = runChecks(mesh, defaultCheckFilter(), o, r, &why, level);
  EXPECT_TRUE(nav::statusSucceeded(st)) << why;
  return r;
}

} // namespace

TEST(NavCheck, CleanLevelReportsNothing) {
  auto mesh = buildMesh(twoTileField());
  ASSERT_TRUE(mesh);
  FlatLevel level(-1, -1, 21, 11, 0);
  const CheckResult r = run(*mesh, smallOptions(), &level.view);
  ASSERT_EQ(r.islands.size(), 1u);
  EXPECT_EQ(r.islands[0].polys, 8);
  EXPECT_NEAR(r.islands[0].area, 200.0f, 1e-3f);
  EXPECT_NEAR(r.islands[0].center[0], 10.0f, 1e-3f);
  EXPECT_NEAR(r.islands[0].center[2], 5.0f, 1e-3f);
  EXPECT_TRUE(r.islands[0].reachable);
  EXPECT_EQ(r.islands[0].unreachedPolys, 0);
  EXPECT_EQ(r.unreachableIslands(), 0);
  EXPECT_TRUE(r.detours.empty());
  EXPECT_TRUE(r.budget.empty());
  EXPECT_TRUE(r.seams.empty());
  EXPECT_TRUE(r.links.empty());
  EXPECT_TRUE(r.narrow.empty());
  EXPECT_TRUE(r.surface.empty());
  EXPECT_EQ(r.pairsRun, 300);
  EXPECT_LT(r.worstRatio, 1.01f); // open ground: Detour's path is the straight line, up to rounding
  for (int k = 0; k < CHECK_COUNT; ++k) EXPECT_TRUE(r.ran[k]) << checkName(k);
}

TEST(NavCheck, IslandUnreachableFromTheBiggestOrFromSeeds) {
  TestMeshSpec s = twoTileField();
  s.polys.push_back(rect(2, 12, 4, 14)); // a 2 x 2 m square beyond z = 10 (tile (0, 1)), touching nothing
  auto mesh = buildMesh(s);
  ASSERT_TRUE(mesh);
  CheckResult r = run(*mesh, smallOptions());
  ASSERT_EQ(r.islands.size(), 2u);
  EXPECT_EQ(r.islands[0].polys, 8);
  EXPECT_TRUE(r.islands[0].reachable);
  EXPECT_EQ(r.islands[1].polys, 1);
  EXPECT_NEAR(r.islands[1].area, 4.0f, 1e-3f);
  EXPECT_NEAR(r.islands[1].center[0], 3.0f, 1e-3f);
  EXPECT_NEAR(r.islands[1].center[2], 13.0f, 1e-3f);
  EXPECT_FALSE(r.islands[1].reachable);
  EXPECT_EQ(r.unreachableIslands(), 1);
  // Pairs stay inside one island: none crosses to the square.
  EXPECT_TRUE(r.budget.empty());

  // A seed on the square: now the big island is the unreachable one.
  CheckOptions o = smallOptions();
  o.seeds.push_back(Vec3{3, 0, 13});
  r = run(*mesh, o);
  ASSERT_EQ(r.islands.size(), 2u);
  EXPECT_FALSE(r.islands[0].reachable);
  EXPECT_TRUE(r.islands[1].reachable);

  // A seed off the navmesh is bad input, named.
  o.seeds = {Vec3{50, 0, 50}};
  std::string why;
  EXPECT_TRUE(nav::statusDetail(runChecks(*mesh, defaultCheckFilter(), o, r, &why), nav::INVALID_PARAM));
  EXPECT_NE(why.find("seed 1"), std::string::npos) << why;
}

TEST(NavCheck, OneWayOffMeshLinkReachesButDirectionCounts) {
  // Square B is joined to A only by a one-way off-mesh link from B to A: one island, and a seed in
  // A does not reach B following link direction.
  TestMeshSpec s;
  s.polys.push_back(rect(0, 0, 4, 4));
  s.polys.push_back(rect(6, 0, 9, 4));
  TestOffMesh link;
  const float a[3] = {7.5f, 0, 2}, b[3] = {2, 0, 2};
  std::copy(a, a + 3, link.a);
  std::copy(b, b + 3, link.b);
  link.bidir = false;
  s.offMesh.push_back(link);
  auto mesh = buildMesh(s);
  ASSERT_TRUE(mesh);
  CheckOptions o = smallOptions();
  o.seeds.push_back(Vec3{2, 0, 2});
  const CheckResult r = run(*mesh, o);
  ASSERT_EQ(r.islands.size(), 1u);
  EXPECT_EQ(r.islands[0].polys, 3); // two squares and the connection poly
  EXPECT_TRUE(r.islands[0].reachable);
  EXPECT_EQ(r.islands[0].unreachedPolys, 2); // the connection and B
  EXPECT_TRUE(r.links.empty());
}

TEST(NavCheck, SeamWithoutLinkIsFoundOnTheBorder) {
  TestMeshSpec s = twoTileField();
  // Both tiles' edges at x = 10, z in [5, 10] are walls instead of portals: Detour links neither way.
  s.walledBorder.push_back({10, 7.5f});
  auto mesh = buildMesh(s);
  ASSERT_TRUE(mesh);
  const CheckResult r = run(*mesh, smallOptions());
  ASSERT_EQ(r.seams.size(), 1u);
  const SeamFinding& f = r.seams[0];
  EXPECT_NEAR(f.pos[0], 10.0f, 1e-3f);
  EXPECT_NEAR(f.pos[2], 7.5f, 1e-3f);
  EXPECT_NEAR(std::fabs(f.b[2] - f.a[2]), 5.0f, 1e-3f);
  EXPECT_FALSE(f.oneWay);
  EXPECT_EQ(r.islands.size(), 1u); // still joined through z in [0, 5]

  // A seam whose span is more than walkableClimb apart in height is no seam.
  TestMeshSpec high = twoTileField();
  for (size_t i = 4; i < 8; ++i) high.polys[i].y = 2.0f;
  auto mesh2 = buildMesh(high);
  ASSERT_TRUE(mesh2);
  const CheckResult r2 = run(*mesh2, smallOptions());
  EXPECT_TRUE(r2.seams.empty());
  EXPECT_EQ(r2.islands.size(), 2u);
}

TEST(NavCheck, OffMeshLinkEndingInTheAir) {
  TestMeshSpec s = twoTileField();
  s.polys.resize(4); // tile 0 only: x in [0, 10]
  TestOffMesh good, bad;
  const float ga[3] = {1, 0, 1}, gb[3] = {8, 0, 8};
  const float ba[3] = {2, 0, 2}, bb[3] = {2, 3, 2}; // ends 3 m up, nowhere near a poly
  std::copy(ga, ga + 3, good.a);
  std::copy(gb, gb + 3, good.b);
  std::copy(ba, ba + 3, bad.a);
  std::copy(bb, bb + 3, bad.b);
  bad.userId = 7;
  s.offMesh = {good, bad};
  auto mesh = buildMesh(s);
  ASSERT_TRUE(mesh);
  const CheckResult r = run(*mesh, smallOptions());
  ASSERT_EQ(r.links.size(), 1u);
  EXPECT_EQ(r.links[0].userId, 7u);
  EXPECT_TRUE(r.links[0].startLinked);
  EXPECT_FALSE(r.links[0].endLinked);
  EXPECT_NEAR(r.links[0].pos[0], 2.0f, 1e-4f);
  EXPECT_NEAR(r.links[0].pos[1], 3.0f, 1e-4f);
  EXPECT_NEAR(r.links[0].pos[2], 2.0f, 1e-4f);
}

namespace {
/// Two 4 x 4 m rooms joined by a corridor x in [4, 6] of width w centred on z = 2.
TestMeshSpec doorway(float w) {
  TestMeshSpec s;
  s.tileSize = 20;
  const float z0 = 2 - w / 2, z1 = 2 + w / 2;
  TestPoly a, c, b;
  a.xz = {{0, 0}, {0, 4}, {4, 4}, {4, z1}, {4, z0}, {4, 0}};
  c.xz = {{4, z0}, {4, z1}, {6, z1}, {6, z0}};
  b.xz = {{6, 0}, {6, z0}, {6, z1}, {6, 4}, {10, 4}, {10, 0}};
  s.polys = {a, c, b};
  return s;
}
} // namespace

TEST(NavCheck, DoorwayNarrowerThanTheLimit) {
  auto mesh = buildMesh(doorway(0.3f));
  ASSERT_TRUE(mesh);
  CheckOptions o = smallOptions();
  CheckResult r = run(*mesh, o);
  EXPECT_TRUE(r.narrow.empty()); // 0.3 m passes the default 0.1 m
  o.minWidth = 0.5f;
  r = run(*mesh, o);
  ASSERT_EQ(r.narrow.size(), 2u); // both ends of the corridor
  for (const NarrowFinding& f : r.narrow) {
    EXPECT_NEAR(f.width, 0.3f, 1e-3f);
    EXPECT_NEAR(f.pos[2], 2.0f, 1e-3f);
    EXPECT_TRUE(std::fabs(f.pos[0] - 4) < 1e-3f || std::fabs(f.pos[0] - 6) < 1e-3f) << f.pos[0];
  }
  EXPECT_NE(r.narrow[0].pos[0], r.narrow[1].pos[0]);
}

namespace {
/// Start room A and end room B are 60 m deep polys joined through P (the straight way, 8 m);
/// their portals' midpoints are 30 m off the line, so Detour's midpoint A* prefers the corridor
/// below (Q1, Q2, Q3; about 12.3 m) -- a long detour between the low ends of A and B.
TestMeshSpec longDetour() {
  TestMeshSpec s;
  s.orig[0] = -10;
  s.orig[2] = -10;
  s.tileSize = 80;
  s.cs = 0.1f;
  TestPoly A, P, B, Q1, Q2, Q3;
  A.xz = {{0, 0}, {0, 60}, {2, 60}, {2, 0}};
  P.xz = {{2, 0}, {2, 60}, {8, 60}, {8, 0}};
  B.xz = {{8, 0}, {8, 60}, {10, 60}, {10, 0}};
  Q1.xz = {{0, -3}, {0, 0}, {2, 0}, {2, -2}, {2, -3}};
  Q2.xz = {{2, -3}, {2, -2}, {8, -2}, {8, -3}};
  Q3.xz = {{8, -3}, {8, -2}, {8, 0}, {10, 0}, {10, -3}};
  s.polys = {A, P, B, Q1, Q2, Q3};
  return s;
}
} // namespace

TEST(NavCheck, LongDetourFoundAndReal) {
  auto mesh = buildMesh(longDetour());
  ASSERT_TRUE(mesh);
  // The planted pair itself: Detour's path is really that long.
  {
    nav::NavMeshQuery q;
    ASSERT_TRUE(nav::statusSucceeded(q.init(mesh.get(), 2048)));
    nav::ShortestPath sp;
    ASSERT_TRUE(nav::statusSucceeded(sp.init(mesh.get())));
    const nav::QueryFilter f = defaultCheckFilter();
    const float s[3] = {1, 0, 1}, e[3] = {9, 0, 1}, ext[3] = {1, 1, 1};
    nav::PolyRef sr = 0, er = 0;
    float p[3];
    q.findNearestPoly(s, ext, &f, &sr, p);
    q.findNearestPoly(e, ext, &f, &er, p);
    nav::PolyRef path[16];
    int n = 0;
    ASSERT_TRUE(nav::statusSucceeded(q.findPath(sr, er, s, e, &f, path, &n, 16)));
    float pts[48];
    uint8_t fl[16];
    int ns = 0;
    q.findStraightPath(s, e, path, n, pts, fl, nullptr, &ns, 16);
    const float detour = nav::straightPathLength(pts, fl, ns);
    float exact = 0;
    int ens = 0;
    ASSERT_TRUE(nav::statusSucceeded(sp.findPath(sr, er, s, e, &f, pts, fl, nullptr, &ens, 16, nullptr, nullptr, 0, &exact)));
    EXPECT_NEAR(exact, 8.0f, 1e-3f);
    EXPECT_GT(detour / exact, 1.15f);
    EXPECT_GT(detour - exact, 2.0f);
  }
  CheckOptions o = smallOptions();
  o.pairs = 1000;
  const CheckResult r = run(*mesh, o);
  ASSERT_FALSE(r.detours.empty());
  for (const DetourFinding& d : r.detours) {
    EXPECT_GE(d.ratio, 1.15f);
    EXPECT_GE(d.detourMetric - d.exactLen, 2.0f);
    // Only pairs between A and B can be that long (Detour's corridor dips through Q1, Q2, Q3).
    const float lo = std::min(d.start[0], d.end[0]), hi = std::max(d.start[0], d.end[0]);
    EXPECT_LT(lo, 2.0f);
    EXPECT_GT(hi, 8.0f);
  }
  // Worst first; the heatmap holds the worst ratio on the corridor below.
  for (size_t i = 1; i < r.detours.size(); ++i) EXPECT_GE(r.detours[i - 1].ratio, r.detours[i].ratio);
  EXPECT_EQ(r.detours[0].ratio, r.worstRatio);
  // The worst corridor runs A, Q1, Q2, Q3, B: Q2 (poly 4) carries the worst ratio, the straight
  // way through P (poly 1) no detour.
  float q2Heat = 0;
  for (const HeatEntry& h : r.heat)
    if (mesh->decodePolyIdPoly(h.ref) == 4) q2Heat = h.ratio;
  EXPECT_EQ(q2Heat, r.worstRatio);
  for (const HeatEntry& h : r.heat) {
    if (mesh->decodePolyIdPoly(h.ref) == 1) {
      EXPECT_LT(h.ratio, 1.15f);
    }
  }
}

TEST(NavCheck, NodeBudgetRunsOut) {
  auto mesh = buildMesh(longDetour());
  ASSERT_TRUE(mesh);
  CheckOptions o = smallOptions();
  o.nodeBudget = 2; // the pool ends before the far side of the corridor
  const CheckResult r = run(*mesh, o);
  ASSERT_FALSE(r.budget.empty());
  for (const BudgetFinding& b : r.budget)
    EXPECT_TRUE(nav::statusDetail(b.status, nav::OUT_OF_NODES | nav::PARTIAL_RESULT));
}

TEST(NavCheck, FloatingSurfaceFound) {
  auto mesh = buildMesh(twoTileField());
  ASSERT_TRUE(mesh);
  FlatLevel low(-1, -1, 21, 11, -2); // the level lies 2 m under the navmesh
  CheckOptions o = smallOptions();
  o.detours = o.budget = false;
  CheckResult r = run(*mesh, o, &low.view);
  ASSERT_EQ(r.surface.size(), 8u); // every poly
  for (const SurfaceFinding& f : r.surface) {
    EXPECT_FALSE(f.noSurface);
    EXPECT_NEAR(f.dist, 2.0f, 1e-3f);
  }
  // Half the level missing: the polys over nothing are found, the rest are fine.
  FlatLevel half(-1, -1, 10, 11, 0);
  r = run(*mesh, o, &half.view);
  ASSERT_EQ(r.surface.size(), 4u);
  for (const SurfaceFinding& f : r.surface) {
    EXPECT_TRUE(f.noSurface);
    EXPECT_GT(f.pos[0], 10.0f);
  }
}

TEST(NavCheck, SameFindingsWithAnyThreadCount) {
  auto mesh = buildMesh(longDetour());
  ASSERT_TRUE(mesh);
  CheckOptions o = smallOptions();
  o.pairs = 8192 + 300; // pairs are drawn and run in chunks of 8192: cross a chunk border
  const CheckResult one = run(*mesh, o);
  EXPECT_EQ(one.pairsRun + one.pairsSkipped, o.pairs);
  o.threads = 3;
  const CheckResult three = run(*mesh, o);
  ASSERT_EQ(one.detours.size(), three.detours.size());
  for (size_t i = 0; i < one.detours.size(); ++i) {
    EXPECT_EQ(one.detours[i].pairIndex, three.detours[i].pairIndex);
    EXPECT_EQ(one.detours[i].ratio, three.detours[i].ratio);
  }
  EXPECT_EQ(one.heat.size(), three.heat.size());
  // Another seed draws other pairs.
  o.pairs = 500;
  o.seed = 2;
  const CheckResult other = run(*mesh, o);
  EXPECT_TRUE(other.detours.empty() || one.detours.empty() || other.detours[0].start != one.detours[0].start);
}

TEST(NavCheck, BadOptionsAndCancel) {
  auto mesh = buildMesh(twoTileField());
  ASSERT_TRUE(mesh);
  CheckResult r;
  std::string why;
  CheckOptions o;
  o.pairs = 0;
  EXPECT_EQ(runChecks(*mesh, defaultCheckFilter(), o, r, &why), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_NE(why.find("--pairs"), std::string::npos);
  o = CheckOptions();
  o.minWidth = -1;
  EXPECT_EQ(runChecks(*mesh, defaultCheckFilter(), o, r, &why), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_NE(why.find("--min-width"), std::string::npos);
  o = CheckOptions();
  o.detourRatio = 0.5f;
  EXPECT_EQ(runChecks(*mesh, defaultCheckFilter(), o, r, &why), nav::FAILURE | nav::INVALID_PARAM);
  std::atomic<bool> cancel{true};
  o = CheckOptions();
  EXPECT_EQ(runChecks(*mesh, defaultCheckFilter(), o, r, &why, nullptr, nullptr, &cancel), nav::FAILURE);
  EXPECT_EQ(why, "cancelled");
  // Progress reaches 1 and never goes back.
  float last = -1;
  bool monotone = true;
  o.pairs = 200;
  ASSERT_TRUE(nav::statusSucceeded(runChecks(*mesh, defaultCheckFilter(), o, r, &why, nullptr, [&](const char*, float f) {
    monotone = monotone && f >= last;
    last = f;
  })));
  EXPECT_TRUE(monotone);
  EXPECT_EQ(last, 1.0f);
}

TEST(NavCheck, HostileTileSetsDoNotCrashTheChecks) {
  // Bytes of the default tile set flipped at random: whatever loads (NavMesh validates every tile)
  // is checked without crashing; the checks read only what validation covers.
  const std::string path = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::vector<uint8_t> bytes;
  uint8_t buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
  std::fclose(f);
  SplitMix rng(7);
  int loaded = 0;
  for (int round = 0; round < 200; ++round) {
    std::vector<uint8_t> bad = bytes;
    const int flips = 1 + int(rng.next() % 8);
    for (int k = 0; k < flips; ++k) bad[size_t(rng.next() % bad.size())] ^= uint8_t(1u << (rng.next() % 8));
    nav::NavMesh mesh;
    if (!nav::statusSucceeded(nav::loadTileSet(bad.data(), bad.size(), mesh))) continue;
    ++loaded;
    CheckOptions o = smallOptions();
    o.pairs = 20;
    CheckResult r;
    std::string why;
    const nav::Status st = runChecks(mesh, defaultCheckFilter(), o, r, &why);
    EXPECT_TRUE(nav::statusSucceeded(st) || nav::statusDetail(st, nav::INVALID_PARAM)) << why;
  }
  EXPECT_GT(loaded, 0);
}
