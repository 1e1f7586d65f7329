// BigWorldTest.cpp: the world generator is deterministic, and on a generated world the unlimited
// node pool (NavMeshQuery::initUnlimited) finds every reachable pair without a partial result and
// with Detour's own path, while the 2048-node mode reproduces Detour's partial results.
#include "BigWorld.h"

#include <DetourNavMeshQuery.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

using namespace querytest;

namespace {

std::string readAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string gen(float size, uint64_t seed, const char* tag, navbench::worldgen::WorldStats* st = nullptr) {
  navbench::worldgen::WorldParams p;
  p.size = size;
  p.seed = seed;
  const std::string path = std::string(NAVBENCH_BIG_TMP) + "/det_" + tag + ".obj";
  std::string why;
  EXPECT_TRUE(navbench::worldgen::writeWorldObj(p, path, st, &why)) << why;
  return readAll(path);
}

} // namespace

TEST(WorldGen, SameSeedSameBytesOtherSeedDiffers) {
  navbench::worldgen::WorldStats st;
  const std::string a = gen(300, 7, "a", &st), b = gen(300, 7, "b"), c = gen(300, 8, "c"), d = gen(320, 7, "d");
  ASSERT_GT(a.size(), 100000u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, d);
  // It has everything the issue asks for: buildings and bridges on the terrain.
  EXPECT_GT(st.buildings, 5);
  EXPECT_GE(st.bridges, 1);
  EXPECT_GT(st.triangles, 40000u);
}

TEST(WorldGen, BadSizeAndUnwritablePathAreRefused) {
  navbench::worldgen::WorldParams p;
  std::string why;
  p.size = 5;
  EXPECT_FALSE(navbench::worldgen::writeWorldObj(p, std::string(NAVBENCH_BIG_TMP) + "/x.obj", nullptr, &why));
  EXPECT_NE(why.find("size"), std::string::npos) << why;
  p.size = 64;
  EXPECT_FALSE(navbench::worldgen::writeWorldObj(p, "/nonexistent-dir/x.obj", nullptr, &why));
  EXPECT_NE(why.find("/nonexistent-dir/x.obj"), std::string::npos) << why;
}

TEST(BigWorld, UnlimitedPoolFindsEveryReachablePairAnd2048MatchesDetour) {
  std::string why;
  const std::string obj = bigtest::worldObj(512, 1, &why);
  ASSERT_FALSE(obj.empty()) << why;
  const DualMesh* m = loadDual(obj, true, false, &why, 0.2f); // 0.2 m cells: more, smaller polys
  ASSERT_NE(m, nullptr) << why;

  dtNavMeshQuery* dBig = dtAllocNavMeshQuery();
  dtNavMeshQuery* d2048 = dtAllocNavMeshQuery();
  ASSERT_TRUE(dtStatusSucceed(dBig->init(m->dt, 65535)));
  ASSERT_TRUE(dtStatusSucceed(d2048->init(m->dt, 2048)));
  nav::NavMeshQuery unl, n2048;
  ASSERT_TRUE(nav::statusSucceeded(unl.initUnlimited(&m->nav)));
  ASSERT_TRUE(nav::statusSucceeded(n2048.init(&m->nav, 2048)));

  int polys = 0;
  for (int i = 0; i < m->nav.getMaxTiles(); ++i)
    if (const nav::MeshTile* t = m->nav.getTile(i); t->header) polys += t->header->polyCount;
  ASSERT_GT(polys, 4000) << "the world is too small to exhaust a 2048-node pool";

  const dtQueryFilter df;
  const nav::QueryFilter nf;
  constexpr int MAX = 65536;
  std::vector<dtPolyRef> dpath(MAX);
  std::vector<nav::PolyRef> npath(MAX);
  seedRandom(1234);
  int reachable = 0, partial2048 = 0, compared = 0, longest = 0;
  for (int q = 0; q < 1000; ++q) {
    SCOPED_TRACE("query " + std::to_string(q));
    nav::PolyRef sref, eref;
    float sp[3], ep[3];
    ASSERT_TRUE(nav::statusSucceeded(unl.findRandomPoint(&nf, frand, &sref, sp)));
    ASSERT_TRUE(nav::statusSucceeded(unl.findRandomPoint(&nf, frand, &eref, ep)));
    // Reachability from Detour with the largest pool it allows.
    int dn = 0;
    const dtStatus ds = dBig->findPath(sref, eref, sp, ep, &df, dpath.data(), &dn, MAX);
    ASSERT_TRUE(dtStatusSucceed(ds));
    const bool detourExhausted = (ds & DT_OUT_OF_NODES) != 0;
    const bool reach = dn > 0 && dpath[size_t(dn - 1)] == eref && !(ds & DT_PARTIAL_RESULT);
    int nn = 0;
    const nav::Status ns = unl.findPath(sref, eref, sp, ep, &nf, npath.data(), &nn, MAX);
    ASSERT_TRUE(nav::statusSucceeded(ns));
    EXPECT_FALSE(ns & nav::OUT_OF_NODES);
    if (reach) {
      ++reachable;
      EXPECT_FALSE(ns & nav::PARTIAL_RESULT);
      ASSERT_GT(nn, 0);
      EXPECT_EQ(npath[size_t(nn - 1)], eref);
      if (!detourExhausted) { // same A*, same tie order: the same corridor
        EXPECT_EQ(nn, dn);
        for (int i = 0; i < std::min(nn, dn); ++i) ASSERT_EQ(npath[size_t(i)], dpath[size_t(i)]) << "at " << i;
      }
      longest = std::max(longest, nn);
    }
    // 2048 mode: Detour's answer, partial results included.
    int dn2 = 0, nn2 = 0;
    const dtStatus ds2 = d2048->findPath(sref, eref, sp, ep, &df, dpath.data(), &dn2, MAX);
    const nav::Status ns2 = n2048.findPath(sref, eref, sp, ep, &nf, npath.data(), &nn2, MAX);
    EXPECT_EQ((ds2 & DT_PARTIAL_RESULT) != 0, (ns2 & nav::PARTIAL_RESULT) != 0);
    EXPECT_EQ((ds2 & DT_OUT_OF_NODES) != 0, (ns2 & nav::OUT_OF_NODES) != 0);
    ASSERT_EQ(nn2, dn2);
    for (int i = 0; i < nn2; ++i) ASSERT_EQ(npath[size_t(i)], dpath[size_t(i)]) << "at " << i;
    if (reach && (ds2 & DT_PARTIAL_RESULT)) ++partial2048;
    ++compared;
  }
  std::printf("world 512 m: %d polys; %d pairs, %d reachable (longest corridor %d polys), "
              "%d of them partial with 2048 nodes (Detour and nav alike)\n",
              polys, compared, reachable, longest, partial2048);
  EXPECT_GT(reachable, compared / 2);
  EXPECT_GT(partial2048, 0) << "no query exhausted 2048 nodes: the comparison shows nothing";
  dtFreeNavMeshQuery(dBig);
  dtFreeNavMeshQuery(d2048);
}

// The floors are walkable and joined: polygons on the 2nd and 3rd floor slabs (y = 4.15, 8.15)
// exist and are reached from the street over the door and the ramps; the bridge decks too.
TEST(BigWorld, UpperFloorsAreReachedFromTheStreet) {
  std::string why;
  const std::string obj = bigtest::worldObj(512, 1, &why);
  ASSERT_FALSE(obj.empty()) << why;
  const DualMesh* m = loadDual(obj, true, false, &why, 0.2f);
  ASSERT_NE(m, nullptr) << why;
  nav::NavMeshQuery q;
  ASSERT_TRUE(nav::statusSucceeded(q.initUnlimited(&m->nav)));
  // A street polygon: the nearest polygon to the middle of the first street of the central district.
  const nav::QueryFilter f;
  std::vector<std::pair<nav::PolyRef, float>> floor1, floor2; // (ref, y)
  for (int i = 0; i < m->nav.getMaxTiles(); ++i) {
    const nav::MeshTile* t = m->nav.getTile(i);
    if (!t->header) continue;
    for (int k = 0; k < t->header->polyCount; ++k) {
      const nav::Poly& p = t->polys[k];
      float lo = 1e9f, hi = -1e9f;
      for (int v = 0; v < p.vertCount; ++v) {
        lo = std::min(lo, t->verts[3 * p.verts[v] + 1]);
        hi = std::max(hi, t->verts[3 * p.verts[v] + 1]);
      }
      const nav::PolyRef ref = m->nav.getPolyRefBase(t) | nav::PolyRef(k);
      if (lo > 3.9f && hi < 4.6f) floor1.emplace_back(ref, lo);
      if (lo > 7.9f && hi < 8.6f) floor2.emplace_back(ref, lo);
    }
  }
  ASSERT_GT(floor1.size(), 10u);
  ASSERT_GT(floor2.size(), 5u);
  const float street[3] = {256.0f + 30.0f - 6.0f, 0.0f, 256.0f + 55.0f}; // x: the street west of block 0
  const float ext[3] = {3, 4, 3};
  nav::PolyRef sref = 0;
  float sp[3];
  ASSERT_TRUE(nav::statusSucceeded(q.findNearestPoly(street, ext, &f, &sref, sp)));
  ASSERT_NE(sref, 0u);
  std::vector<nav::PolyRef> path(65536);
  int reached1 = 0, reached2 = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const auto& list = pass ? floor2 : floor1;
    for (size_t i = 0; i < list.size(); i += std::max<size_t>(1, list.size() / 20)) {
      float ep[3];
      bool over = false;
      q.closestPointOnPoly(list[i].first, sp, ep, &over);
      int n = 0;
      const nav::Status st = q.findPath(sref, list[i].first, sp, ep, &f, path.data(), &n, 65536);
      if (nav::statusSucceeded(st) && !(st & nav::PARTIAL_RESULT) && n > 0 && path[size_t(n - 1)] == list[i].first)
        ++(pass ? reached2 : reached1);
    }
  }
  std::printf("floor-1 polys %zu (reached %d of the sampled), floor-2 polys %zu (reached %d)\n", floor1.size(), reached1,
              floor2.size(), reached2);
  EXPECT_GT(reached1, 0);
  EXPECT_GT(reached2, 0);
}
