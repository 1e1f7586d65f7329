// QueryDiffTest.cpp: every query of nav::NavMeshQuery against Detour's dtNavMeshQuery (the oracle)
// on the same tile blobs: the three shared RecastDemo levels (skipped when ../shared is absent) and
// the project's default level, each solo and tiled (tile size 48), with random off-mesh
// connections, random poly areas/flags and random filters. Thousands of seeded queries per level.
#include "DualFixture.h"
#include "DualMesh.h"
#include "RefSmoothPath.h"

#include "nav/NavMath.h"
#include "nav/PathFollow.h"

#include <DetourCommon.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace querytest;

namespace {

constexpr int MAX_POLYS = 2048;

struct LevelParam {
  const char* file; // shared level name or "default"
  bool tiled;
  float cellSize;   // 0 = RecastDemo's 0.3
  const char* seedKey = nullptr; // random areas/links seeded by this instead of the level's name
};

class QueryDiff : public ::testing::TestWithParam<LevelParam>, protected DualFixture {
protected:
  void SetUp() override {
    openLevel(GetParam().file, GetParam().tiled, 0x5eed, GetParam().cellSize,
              GetParam().seedKey ? std::string(GetParam().seedKey) : std::string());
    if (HasFatalFailure() || IsSkipped()) return;
    int polys = 0, tiles = 0;
    for (int i = 0; i < mesh->dt->getMaxTiles(); ++i) {
      const dtMeshTile* t = static_cast<const dtNavMesh*>(mesh->dt)->getTile(i);
      if (t && t->header) {
        ++tiles;
        polys += t->header->polyCount;
      }
    }
    polyCount = polys;
    tileCount = tiles;
  }

  // A random point on the mesh (Detour picks it; a plain filter).
  bool randomPoint(dtPolyRef* ref, float* pt) {
    dtQueryFilter all;
    return dtStatusSucceed(dq->findRandomPoint(&all, frand, ref, pt)) && *ref;
  }
  // A random filter, two random points on the mesh and Detour's corridor between them (the smooth
  // path tests' query). False if no points or no corridor.
  bool randomCorridor(Filters& f, int q, dtPolyRef* sref, float* sp, float* ep, std::vector<dtPolyRef>& path, int* n) {
    randomFilter(f, q % 2 == 0);
    dtPolyRef eref;
    if (!randomPoint(sref, sp) || !randomPoint(&eref, ep)) return false;
    *n = 0;
    dq->findPath(*sref, eref, sp, ep, &f.dt, path.data(), n, int(path.size()));
    return *n > 0;
  }
  // A random point near the mesh bounds (may be off the mesh).
  void randomBoxPoint(float* pt) {
    for (int i = 0; i < 3; ++i) pt[i] = mesh->bmin[i] - 2 + frand() * (mesh->bmax[i] - mesh->bmin[i] + 4);
  }

  int polyCount = 0, tileCount = 0;
};

#define EXPECT_V3_EQ(a, b)                                                                            \
  do {                                                                                                \
    EXPECT_EQ((a)[0], (b)[0]);                                                                        \
    EXPECT_EQ((a)[1], (b)[1]);                                                                        \
    EXPECT_EQ((a)[2], (b)[2]);                                                                        \
  } while (0)

#define EXPECT_V3_NEAR(a, b, eps)                                                                     \
  do {                                                                                                \
    EXPECT_NEAR((a)[0], (b)[0], eps);                                                                 \
    EXPECT_NEAR((a)[1], (b)[1], eps);                                                                 \
    EXPECT_NEAR((a)[2], (b)[2], eps);                                                                 \
  } while (0)

// Stop a query loop after the first mismatching query (keeps the log readable).
#define STOP_ON_FAILURE()                                                                             \
  if (::testing::Test::HasFailure()) return

TEST_P(QueryDiff, FindNearestPolyAndPointQueries) {
  Filters f;
  for (int q = 0; q < 600; ++q) {
    SCOPED_TRACE("query " + std::to_string(q));
    randomFilter(f, q % 3 == 0);
    float p[3];
    dtPolyRef r0;
    if (q % 2 == 0 && randomPoint(&r0, p)) {
      p[0] += (frand() - 0.5f) * 2;
      p[1] += (frand() - 0.5f) * 3;
      p[2] += (frand() - 0.5f) * 2;
    } else {
      randomBoxPoint(p);
    }
    const float ext[3] = {0.5f + frand() * 4, 0.5f + frand() * 6, 0.5f + frand() * 4};
    dtPolyRef dref = 0;
    nav::PolyRef nref = 0;
    float dpt[3] = {0, 0, 0}, npt[3] = {0, 0, 0};
    bool dover = false, nover = false;
    const dtStatus ds = dq->findNearestPoly(p, ext, &f.dt, &dref, dpt, &dover);
    const nav::Status ns = nq.findNearestPoly(p, ext, &f.nav, &nref, npt, &nover);
    ASSERT_EQ(ds, ns);
    ASSERT_EQ(dref, nref);
    if (dref) {
      EXPECT_V3_EQ(dpt, npt);
      EXPECT_EQ(dover, nover);
    }
    // queryPolygons with a small buffer now and then.
    dtPolyRef dpolys[64];
    nav::PolyRef npolys[64];
    int dn = 0, nn = 0;
    const int maxp = q % 5 == 0 ? 3 : 64;
    EXPECT_EQ(dq->queryPolygons(p, ext, &f.dt, dpolys, &dn, maxp), nq.queryPolygons(p, ext, &f.nav, npolys, &nn, maxp));
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn; ++i) EXPECT_EQ(dpolys[i], npolys[i]);
    if (!dref) continue;
    // closestPointOnPoly / Boundary / getPolyHeight on the found poly, from a random point nearby.
    float p2[3] = {p[0] + (frand() - 0.5f) * 4, p[1] + (frand() - 0.5f) * 4, p[2] + (frand() - 0.5f) * 4};
    bool dpo = false, npo = false;
    EXPECT_EQ(dq->closestPointOnPoly(dref, p2, dpt, &dpo), nq.closestPointOnPoly(nref, p2, npt, &npo));
    EXPECT_V3_EQ(dpt, npt);
    EXPECT_EQ(dpo, npo);
    EXPECT_EQ(dq->closestPointOnPolyBoundary(dref, p2, dpt), nq.closestPointOnPolyBoundary(nref, p2, npt));
    EXPECT_V3_EQ(dpt, npt);
    float dh = -1, nh = -1;
    EXPECT_EQ(dq->getPolyHeight(dref, p2, &dh), nq.getPolyHeight(nref, p2, &nh));
    EXPECT_EQ(dh, nh);
    STOP_ON_FAILURE();
  }
}

// findPath + findStraightPath (3 option sets, small buffers sometimes) + sliced findPath.
TEST_P(QueryDiff, FindPathStraightPathAndSliced) {
  Filters f;
  std::vector<dtPolyRef> dpath(MAX_POLYS);
  std::vector<nav::PolyRef> npath(MAX_POLYS);
  std::vector<float> dstr(MAX_POLYS * 3), nstr(MAX_POLYS * 3);
  std::vector<uint8_t> dfl(MAX_POLYS), nfl(MAX_POLYS);
  std::vector<dtPolyRef> drefs(MAX_POLYS);
  std::vector<nav::PolyRef> nrefs(MAX_POLYS);
  int partials = 0, offmeshCorners = 0, compared = 0, longest = 0;
  for (int q = 0; q < 400; ++q) {
    SCOPED_TRACE("query " + std::to_string(q));
    randomFilter(f, q % 4 == 0);
    float sp[3], ep[3];
    dtPolyRef sref, eref;
    if (!randomPoint(&sref, sp) || !randomPoint(&eref, ep)) continue;
    // Raw positions slightly off the mesh, as picked in the viewer.
    sp[1] += frand() * 0.5f;
    ep[1] += frand() * 0.5f;
    const float ext[3] = {2, 4, 2};
    dq->findNearestPoly(sp, ext, &f.dt, &sref, nullptr);
    dq->findNearestPoly(ep, ext, &f.dt, &eref, nullptr);
    if (!sref || !eref) continue;
    const int maxPath = q % 10 == 0 ? 1 + irand(8) : MAX_POLYS;
    int dn = 0, nn = 0;
    const dtStatus ds = dq->findPath(sref, eref, sp, ep, &f.dt, dpath.data(), &dn, maxPath);
    const nav::Status ns = nq.findPath(sref, eref, sp, ep, &f.nav, npath.data(), &nn, maxPath);
    ASSERT_EQ(ds, ns) << std::hex << ds << " vs " << ns;
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn; ++i) ASSERT_EQ(dpath[i], npath[i]) << "corridor differs at " << i;
    if (ds & DT_PARTIAL_RESULT) ++partials;
    if (dn > longest) longest = dn;
    ++compared;

    // Now and then a broken corridor (a polygon that is not the previous one's neighbour, or a
    // stale ref): the funnel stops there with a partial result.
    if (q % 6 == 5 && dn > 2) {
      const int k = 1 + irand(dn - 1);
      dtPolyRef other = 0;
      float op[3];
      if (irand(2) == 0) other = dpath[size_t(k)] ^ (1u << 31); // bad salt (or tile) bits
      else randomPoint(&other, op);
      dpath[size_t(k)] = npath[size_t(k)] = other;
    }
    for (int opt : {0, int(DT_STRAIGHTPATH_AREA_CROSSINGS), int(DT_STRAIGHTPATH_ALL_CROSSINGS)}) {
      const int maxStraight = q % 7 == 0 ? 1 + irand(4) : MAX_POLYS;
      int dsn = 0, nsn = 0;
      const dtStatus dss = dq->findStraightPath(sp, ep, dpath.data(), dn, dstr.data(), dfl.data(), drefs.data(), &dsn,
                                                maxStraight, opt);
      const nav::Status nss = nq.findStraightPath(sp, ep, npath.data(), nn, nstr.data(), nfl.data(), nrefs.data(), &nsn,
                                                  maxStraight, opt);
      ASSERT_EQ(dss, nss) << "options " << opt;
      ASSERT_EQ(dsn, nsn) << "options " << opt;
      for (int i = 0; i < dsn; ++i) {
        EXPECT_EQ(dfl[i], nfl[i]);
        EXPECT_EQ(drefs[i], nrefs[i]);
        EXPECT_V3_NEAR(&dstr[i * 3], &nstr[i * 3], 1e-4f);
        if (dfl[i] & DT_STRAIGHTPATH_OFFMESH_CONNECTION) ++offmeshCorners;
      }
    }
    STOP_ON_FAILURE();

    // Sliced, in random slices; any-angle every third query.
    const int options = q % 3 == 0 ? DT_FINDPATH_ANY_ANGLE : 0;
    dtStatus dst = dq->initSlicedFindPath(sref, eref, sp, ep, &f.dt, unsigned(options));
    nav::Status nst = nq.initSlicedFindPath(sref, eref, sp, ep, &f.nav, options);
    ASSERT_EQ(dst, nst);
    while (dtStatusInProgress(dst)) {
      const int iters = 1 + irand(40);
      int di = 0, ni = 0;
      dst = dq->updateSlicedFindPath(iters, &di);
      nst = nq.updateSlicedFindPath(iters, &ni);
      ASSERT_EQ(dst, nst);
      ASSERT_EQ(di, ni);
    }
    if (q % 2 == 0) {
      dst = dq->finalizeSlicedFindPath(dpath.data(), &dn, maxPath);
      nst = nq.finalizeSlicedFindPath(npath.data(), &nn, maxPath);
    } else {
      // Partial finalize toward a corridor from findPath (the first half of it).
      std::vector<dtPolyRef> existing(dpath.begin(), dpath.begin() + std::max(1, dn / 2));
      dst = dq->finalizeSlicedFindPathPartial(existing.data(), int(existing.size()), dpath.data(), &dn, maxPath);
      nst = nq.finalizeSlicedFindPathPartial(existing.data(), int(existing.size()), npath.data(), &nn, maxPath);
    }
    ASSERT_EQ(dst, nst) << "sliced finalize";
    // Detour 1.5.1 writes one ref past maxPath when an any-angle raycast shortcut fills the
    // corridor exactly; ours stops at maxPath (fuzz_query regression finalizeFromNode_overflow).
    if (dn > maxPath && nn == maxPath) dn = maxPath;
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn; ++i) ASSERT_EQ(dpath[i], npath[i]) << "sliced corridor differs at " << i;

    // findPath with FINDPATH_ANY_ANGLE = Detour's any-angle sliced search run to the end.
    if (q % 3 == 1) {
      dst = dq->initSlicedFindPath(sref, eref, sp, ep, &f.dt, DT_FINDPATH_ANY_ANGLE);
      while (dtStatusInProgress(dst)) dst = dq->updateSlicedFindPath(1 << 30, nullptr);
      dst = dq->finalizeSlicedFindPath(dpath.data(), &dn, maxPath);
      nst = nq.findPath(sref, eref, sp, ep, &f.nav, npath.data(), &nn, maxPath, nav::FINDPATH_ANY_ANGLE);
      ASSERT_EQ(dst, nst) << "any-angle findPath";
      // Detour 1.5.1 writes one ref past maxPath when an any-angle raycast shortcut fills the
      // corridor exactly; ours stops at maxPath (fuzz_query regression finalizeFromNode_overflow).
      if (dn > maxPath && nn == maxPath) dn = maxPath;
      ASSERT_EQ(dn, nn);
      for (int i = 0; i < dn; ++i) ASSERT_EQ(dpath[i], npath[i]) << "any-angle corridor differs at " << i;
    }
    STOP_ON_FAILURE();
  }
  EXPECT_GT(compared, 300);
  std::printf("[ info ] %s: %d tiles, %d polys; %d paths compared, %d partial, longest corridor %d, %d off-mesh corners, %d off-mesh links\n",
              mesh->name.c_str(), tileCount, polyCount, compared, partials, longest, offmeshCorners, mesh->offMeshCount);
  RecordProperty("partials", partials);
  RecordProperty("offmeshCorners", offmeshCorners);
}

TEST_P(QueryDiff, FindPathRunsOutOfNodes) {
  // A tiny pool: both run out of nodes and report it the same way, with the same partial corridor.
  dtNavMeshQuery* small = dtAllocNavMeshQuery();
  ASSERT_TRUE(dtStatusSucceed(small->init(mesh->dt, 16)));
  nav::NavMeshQuery nsmall;
  ASSERT_TRUE(nav::statusSucceeded(nsmall.init(&mesh->nav, 16)));
  dtQueryFilter df;
  nav::QueryFilter nf;
  int outOfNodes = 0;
  for (int q = 0; q < 200; ++q) {
    float sp[3], ep[3];
    dtPolyRef sref, eref;
    if (!randomPoint(&sref, sp) || !randomPoint(&eref, ep)) continue;
    dtPolyRef dpath[64];
    nav::PolyRef npath[64];
    int dn = 0, nn = 0;
    const dtStatus ds = small->findPath(sref, eref, sp, ep, &df, dpath, &dn, 64);
    const nav::Status ns = nsmall.findPath(sref, eref, sp, ep, &nf, npath, &nn, 64);
    ASSERT_EQ(ds, ns);
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn; ++i) ASSERT_EQ(dpath[i], npath[i]);
    if (ns & nav::OUT_OF_NODES) ++outOfNodes;
  }
  dtFreeNavMeshQuery(small);
  EXPECT_GT(outOfNodes, 0);
}

TEST_P(QueryDiff, RaycastAndMoveAlongSurface) {
  Filters f;
  dtPolyRef dpath[256];
  nav::PolyRef npath[256];
  int hits = 0, compared = 0;
  for (int q = 0; q < 600; ++q) {
    SCOPED_TRACE("query " + std::to_string(q));
    randomFilter(f, q % 3 == 0);
    float sp[3], ep[3];
    dtPolyRef sref, eref;
    if (!randomPoint(&sref, sp)) continue;
    if (q % 2 == 0) {
      if (!randomPoint(&eref, ep)) continue;
    } else {
      ep[0] = sp[0] + (frand() - 0.5f) * 16;
      ep[1] = sp[1];
      ep[2] = sp[2] + (frand() - 0.5f) * 16;
    }
    const int maxPath = q % 9 == 0 ? 2 : 256;
    float dt_t = 0, nt = 0, dnorm[3], nnorm[3];
    int dn = 0, nn = 0;
    const dtStatus ds = dq->raycast(sref, sp, ep, &f.dt, &dt_t, dnorm, dpath, &dn, maxPath);
    const nav::Status ns = nq.raycast(sref, sp, ep, &f.nav, &nt, nnorm, npath, &nn, maxPath);
    ASSERT_EQ(ds, ns);
    if (dt_t == FLT_MAX) {
      EXPECT_EQ(nt, FLT_MAX);
    } else {
      EXPECT_NEAR(dt_t, nt, 1e-5f);
      EXPECT_V3_NEAR(dnorm, nnorm, 1e-5f);
      ++hits;
    }
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn; ++i) EXPECT_EQ(dpath[i], npath[i]);

    // The hit-struct API with costs and a prevRef.
    dtRaycastHit dh;
    dh.path = dpath;
    dh.maxPath = 256;
    nav::RaycastHit nh;
    nh.path = npath;
    nh.maxPath = 256;
    const dtPolyRef prev = dn > 1 && q % 4 == 0 ? dpath[1] : 0;
    EXPECT_EQ(dq->raycast(sref, sp, ep, &f.dt, DT_RAYCAST_USE_COSTS, &dh, prev),
              nq.raycast(sref, sp, ep, &f.nav, nav::RAYCAST_USE_COSTS, &nh, prev));
    EXPECT_EQ(dh.t, nh.t);
    EXPECT_EQ(dh.pathCount, nh.pathCount);
    if (dh.pathCount > 0) {
      EXPECT_EQ(dh.hitEdgeIndex, nh.hitEdgeIndex); // unset by Detour otherwise
    }
    EXPECT_NEAR(dh.pathCost, nh.pathCost, 1e-4f * (1 + std::fabs(dh.pathCost)));

    // moveAlongSurface over a short distance.
    float mt[3] = {sp[0] + (frand() - 0.5f) * 6, sp[1] + (frand() - 0.5f), sp[2] + (frand() - 0.5f) * 6};
    float dres[3], nres[3];
    const int maxVisited = q % 11 == 0 ? 2 : 16;
    EXPECT_EQ(dq->moveAlongSurface(sref, sp, mt, &f.dt, dres, dpath, &dn, maxVisited),
              nq.moveAlongSurface(sref, sp, mt, &f.nav, nres, npath, &nn, maxVisited));
    EXPECT_V3_EQ(dres, nres);
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn; ++i) EXPECT_EQ(dpath[i], npath[i]);
    ++compared;
    STOP_ON_FAILURE();
  }
  EXPECT_GT(hits, 0);
  EXPECT_GT(compared, 500);
}

TEST_P(QueryDiff, LocalAreaQueries) {
  Filters f;
  constexpr int MAXR = 256;
  dtPolyRef dr[MAXR], dp[MAXR];
  nav::PolyRef nr[MAXR], np[MAXR];
  float dc[MAXR], nc[MAXR];
  float dseg[MAXR * 6], nseg[MAXR * 6];
  for (int q = 0; q < 300; ++q) {
    SCOPED_TRACE("query " + std::to_string(q));
    randomFilter(f, q % 3 == 0);
    float c[3];
    dtPolyRef ref;
    if (!randomPoint(&ref, c)) continue;
    const float radius = 0.5f + frand() * 8;
    const int maxr = q % 8 == 0 ? 4 : MAXR;
    int dn = 0, nn = 0;

    // findDistanceToWall: compare when a wall was found (Detour leaves hitPos unset otherwise).
    float dd = 0, nd = 0, dpos[3], npos[3], dnorm[3], nnorm[3];
    EXPECT_EQ(dq->findDistanceToWall(ref, c, radius, &f.dt, &dd, dpos, dnorm),
              nq.findDistanceToWall(ref, c, radius, &f.nav, &nd, npos, nnorm));
    EXPECT_EQ(dd, nd);
    if (dd < radius) {
      EXPECT_V3_EQ(dpos, npos);
      EXPECT_V3_EQ(dnorm, nnorm);
    }

    EXPECT_EQ(dq->findPolysAroundCircle(ref, c, radius, &f.dt, dr, dp, dc, &dn, maxr),
              nq.findPolysAroundCircle(ref, c, radius, &f.nav, nr, np, nc, &nn, maxr));
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn; ++i) {
      EXPECT_EQ(dr[i], nr[i]);
      EXPECT_EQ(dp[i], np[i]);
      EXPECT_EQ(dc[i], nc[i]);
    }

    float shape[4 * 3];
    const float a = frand() * 3.14159f, r2 = radius * 0.7f;
    for (int k = 0; k < 4; ++k) {
      const float ang = a + float(k) * 1.5707963f;
      shape[k * 3 + 0] = c[0] + std::cos(ang) * r2;
      shape[k * 3 + 1] = c[1];
      shape[k * 3 + 2] = c[2] + std::sin(ang) * r2 * 0.5f;
    }
    EXPECT_EQ(dq->findPolysAroundShape(ref, shape, 4, &f.dt, dr, dp, dc, &dn, maxr),
              nq.findPolysAroundShape(ref, shape, 4, &f.nav, nr, np, nc, &nn, maxr));
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn; ++i) {
      EXPECT_EQ(dr[i], nr[i]);
      EXPECT_EQ(dp[i], np[i]);
      EXPECT_EQ(dc[i], nc[i]);
    }

    EXPECT_EQ(dq->findLocalNeighbourhood(ref, c, radius, &f.dt, dr, dp, &dn, maxr),
              nq.findLocalNeighbourhood(ref, c, radius, &f.nav, nr, np, &nn, maxr));
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn; ++i) {
      EXPECT_EQ(dr[i], nr[i]);
      EXPECT_EQ(dp[i], np[i]);
    }

    const int maxSeg = q % 6 == 0 ? 2 : MAXR;
    const bool refs = q % 2 == 0;
    EXPECT_EQ(dq->getPolyWallSegments(ref, &f.dt, dseg, refs ? dr : nullptr, &dn, maxSeg),
              nq.getPolyWallSegments(ref, &f.nav, nseg, refs ? nr : nullptr, &nn, maxSeg));
    ASSERT_EQ(dn, nn);
    for (int i = 0; i < dn * 6; ++i) EXPECT_EQ(dseg[i], nseg[i]);
    if (refs) {
      for (int i = 0; i < dn; ++i) EXPECT_EQ(dr[i], nr[i]);
    }
    STOP_ON_FAILURE();
  }
}

TEST_P(QueryDiff, RandomPoints) {
  Filters f;
  for (int q = 0; q < 300; ++q) {
    SCOPED_TRACE("query " + std::to_string(q));
    randomFilter(f, q % 3 == 0);
    const uint64_t seed = 1000 + uint64_t(q);
    dtPolyRef dref = 0;
    nav::PolyRef nref = 0;
    float dpt[3] = {0, 0, 0}, npt[3] = {0, 0, 0};
    seedRandom(seed);
    const dtStatus ds = dq->findRandomPoint(&f.dt, frand, &dref, dpt);
    seedRandom(seed);
    const nav::Status ns = nq.findRandomPoint(&f.nav, frand, &nref, npt);
    ASSERT_EQ(ds, ns);
    EXPECT_EQ(dref, nref);
    EXPECT_V3_EQ(dpt, npt);
    if (!dref) continue;
    const float radius = frand() * 10;
    seedRandom(seed + 7);
    const dtStatus ds2 = dq->findRandomPointAroundCircle(dref, dpt, radius, &f.dt, frand, &dref, dpt);
    seedRandom(seed + 7);
    const nav::Status ns2 = nq.findRandomPointAroundCircle(nref, npt, radius, &f.nav, frand, &nref, npt);
    ASSERT_EQ(ds2, ns2);
    EXPECT_EQ(dref, nref);
    EXPECT_V3_EQ(dpt, npt);
    STOP_ON_FAILURE();
  }
}

// ---- The smooth path: RecastDemo's follow loop written against Detour, vs nav::PathFollower ----

TEST_P(QueryDiff, SmoothPathMatchesRecastDemoFollowLoop) {
  Filters f;
  std::vector<dtPolyRef> path(MAX_POLYS);
  std::vector<float> dsm(2048 * 3), nsm(2048 * 3);
  int compared = 0, heightFailures = 0;
  for (int q = 0; q < 60; ++q) {
    SCOPED_TRACE("query " + std::to_string(q));
    float sp[3], ep[3];
    dtPolyRef sref;
    int n = 0;
    if (!randomCorridor(f, q, &sref, sp, ep, path, &n)) continue;
    const int maxSmooth = q % 10 == 0 ? 7 : 2048;
    const int dn = referenceSmoothPath(dq, &f.dt, sref, sp, ep, path.data(), n, dsm.data(), maxSmooth, false,
                                       &heightFailures);
    int nn = 0;
    nav::findSmoothPath(&nq, &f.nav, sref, sp, ep, path.data(), n, nsm.data(), &nn, maxSmooth);
    ASSERT_EQ(dn, nn);
    ASSERT_LE(nn, maxSmooth);
    for (int i = 0; i < dn; ++i) {
      SCOPED_TRACE("point " + std::to_string(i));
      EXPECT_V3_NEAR(&dsm[i * 3], &nsm[i * 3], 1e-4f);
    }
    // The iterator gives the same points one step at a time.
    nav::PathFollower pf;
    ASSERT_TRUE(nav::statusSucceeded(pf.init(&nq, &f.nav, sref, sp, ep, path.data(), n, maxSmooth)));
    int k = pf.stepPointCount();
    while (pf.step()) {
      for (int s = 0; s < pf.stepPointCount(); ++s, ++k) EXPECT_V3_NEAR(&nsm[k * 3], &pf.stepPoints()[s * 3], 0.0f);
      EXPECT_LE(pf.corridorSize(), nav::PathFollower::MAX_CORRIDOR); // 0 is possible: RecastDemo drops the corridor at an off-mesh link it cannot find
    }
    EXPECT_EQ(k, nn);
    ++compared;
    STOP_ON_FAILURE();
  }
  EXPECT_GT(compared, 10);
  RecordProperty("heightFailures", heightFailures);
}

// RecastDemo's jump "dash hack" (`if (m_nsmoothPath & 1)` add the link start again) checks only
// that the count is odd, not that there is room: with RecastDemo's MAX_SMOOTH = 2048 (even) it
// never overflows, but with an odd cap one step ends one point past it (cap 7 gave 8 points: the
// "7 vs 8" mismatch on dungeon/tiled with the old path-derived seed, now an ExtraSeeds case).
// Every cap from 1 to the whole length, on paths that take an off-mesh link: nav stops exactly at
// the cap, never writes past the caller's buffer, and gives the capped reference's points.
TEST_P(QueryDiff, SmoothPathStopsAtEveryCapAcrossOffMeshLinks) {
  Filters f;
  std::vector<dtPolyRef> path(MAX_POLYS);
  std::vector<float> full(2048 * 3), dsm(2048 * 3), nsm(2048 * 3 + 3 * 8);
  int withLinks = 0;
  for (int q = 0; q < 400 && withLinks < 4; ++q) {
    SCOPED_TRACE("query " + std::to_string(q));
    float sp[3], ep[3];
    dtPolyRef sref;
    int n = 0;
    if (!randomCorridor(f, q, &sref, sp, ep, path, &n)) continue;
    bool crossesLink = false;
    for (int i = 0; i < n; ++i) {
      const dtMeshTile* t = nullptr;
      const dtPoly* p = nullptr;
      if (dtStatusSucceed(mesh->dt->getTileAndPolyByRef(path[size_t(i)], &t, &p)) &&
          p->getType() == DT_POLYTYPE_OFFMESH_CONNECTION)
        crossesLink = true;
    }
    if (!crossesLink) continue;
    const int total = referenceSmoothPath(dq, &f.dt, sref, sp, ep, path.data(), n, full.data(), 2048, false, nullptr);
    if (total > 300) continue; // keep the O(n^2) sweep short
    ++withLinks;
    for (int cap = 1; cap <= total; ++cap) {
      SCOPED_TRACE("cap " + std::to_string(cap));
      const int dn = referenceSmoothPath(dq, &f.dt, sref, sp, ep, path.data(), n, dsm.data(), cap, false, nullptr);
      const float canary = 12345.0f;
      std::fill(nsm.begin(), nsm.end(), canary);
      int nn = -1;
      const nav::Status st = nav::findSmoothPath(&nq, &f.nav, sref, sp, ep, path.data(), n, nsm.data(), &nn, cap);
      ASSERT_EQ(dn, nn);
      ASSERT_LE(nn, cap);
      EXPECT_EQ((st & nav::BUFFER_TOO_SMALL) != 0, nn >= cap);
      for (int i = 0; i < nn * 3; ++i) EXPECT_NEAR(nsm[size_t(i)], full[size_t(i)], 1e-4f) << "coordinate " << i;
      for (int i = 0; i < dn * 3; ++i) EXPECT_EQ(dsm[size_t(i)], full[size_t(i)]) << "coordinate " << i;
      for (size_t i = size_t(nn) * 3; i < nsm.size(); ++i) ASSERT_EQ(nsm[i], canary) << "wrote past the cap at " << i / 3;
      STOP_ON_FAILURE();
    }
  }
  RecordProperty("pathsWithLinks", withLinks);
  EXPECT_GT(withLinks, 0) << "no path crossed an off-mesh link: the test did not bite";
}

// RecastDemo bug (NavMeshTesterTool::recalc, follow mode): `float h = 0; getPolyHeight(polys[0],
// result, &h); result[1] = h;` drops the point to y = 0 when getPolyHeight fails (the moved point
// is on a polygon edge, or outside polys[0] after a corridor fix-up). nav::PathFollower keeps the
// moved point's height. Checked on the mesh directly: a point just outside a poly fails the lookup.
TEST_P(QueryDiff, SmoothPathKeepsHeightWhereRecastDemoDropsToZero) {
  dtQueryFilter df;
  std::vector<dtPolyRef> path(MAX_POLYS);
  std::vector<float> bug(2048 * 3), ours(2048 * 3);
  int dropped = 0;
  for (int q = 0; q < 80; ++q) {
    float sp[3], ep[3];
    dtPolyRef sref, eref;
    if (!randomPoint(&sref, sp) || !randomPoint(&eref, ep)) continue;
    int n = 0;
    dq->findPath(sref, eref, sp, ep, &df, path.data(), &n, MAX_POLYS);
    if (!n) continue;
    int hf = 0;
    const int bn = referenceSmoothPath(dq, &df, sref, sp, ep, path.data(), n, bug.data(), 2048, true, &hf);
    int on = 0;
    nav::QueryFilter nf;
    nav::findSmoothPath(&nq, &nf, sref, sp, ep, path.data(), n, ours.data(), &on, 2048);
    // A point is "dropped" when it is far below/above the surface under it.
    auto offSurface = [&](const float* pt) {
      const float ext[3] = {0.5f, 50.0f, 0.5f};
      dtPolyRef r = 0;
      float np[3];
      dq->findNearestPoly(pt, ext, &df, &r, np);
      if (!r) return false;
      float h = 0;
      if (dtStatusFailed(dq->getPolyHeight(r, pt, &h))) h = np[1];
      return std::fabs(pt[1] - h) > 1.0f;
    };
    for (int i = 0; i < on; ++i) EXPECT_FALSE(offSurface(&ours[i * 3])) << "our point " << i << " left the surface";
    if (hf > 0)
      for (int i = 0; i < bn; ++i)
        if (bug[i * 3 + 1] == 0.0f && offSurface(&bug[i * 3])) ++dropped;
    STOP_ON_FAILURE();
  }
  // Directly: a position outside polys[0] -> Detour's getPolyHeight fails and leaves h untouched.
  float sp[3];
  dtPolyRef sref;
  ASSERT_TRUE(randomPoint(&sref, sp));
  float far[3] = {sp[0] + 1000, sp[1], sp[2] + 1000};
  float h = 0;
  EXPECT_TRUE(dtStatusFailed(dq->getPolyHeight(sref, far, &h)));
  EXPECT_EQ(h, 0.0f);
  RecordProperty("recastDemoPointsDroppedToZero", dropped);
  // nav_test.obj has detail-surface gaps where RecastDemo's loop visibly drops (the test bites).
  if (mesh->name.rfind("nav_test", 0) == 0) {
    EXPECT_GT(dropped, 0);
  }
  std::printf("[ info ] %s: RecastDemo's follow loop dropped %d points to y = 0 where ours kept the surface\n", mesh->name.c_str(), dropped);
}

// Detour bug: findDistanceToWall leaves hitPos unset (and normalises garbage into hitNormal) when
// no wall is within maxRadius. Ours reports hitDist = maxRadius, hitPos = centre, normal 0.
TEST_P(QueryDiff, DistanceToWallWithoutWallIsDefined) {
  nav::QueryFilter nf;
  float c[3];
  dtPolyRef ref;
  ASSERT_TRUE(randomPoint(&ref, c));
  float d = -1, pos[3] = {NAN, NAN, NAN}, norm[3] = {NAN, NAN, NAN};
  ASSERT_TRUE(nav::statusSucceeded(nq.findDistanceToWall(ref, c, 0.0f, &nf, &d, pos, norm)) || d == 0.0f);
  // Radius 0: either a wall exactly at the centre, or none.
  const float tiny = 1e-4f;
  nq.findDistanceToWall(ref, c, tiny, &nf, &d, pos, norm);
  if (d == tiny) {
    EXPECT_V3_EQ(pos, c);
    EXPECT_EQ(norm[0], 0.0f);
    EXPECT_EQ(norm[1], 0.0f);
    EXPECT_EQ(norm[2], 0.0f);
  }
  EXPECT_LE(d, tiny);
}

std::vector<LevelParam> allLevels() {
  // The fine bakes (cell size 0.1) give ~10x the polygons: long searches, big open lists.
  return {{"nav_test.obj", false, 0}, {"nav_test.obj", true, 0},     {"dungeon.obj", false, 0},
          {"dungeon.obj", true, 0},   {"undulating.obj", false, 0}, {"undulating.obj", true, 0},
          {"default", false, 0},      {"default", true, 0},         {"default", true, 0.1f},
          {"nav_test.obj", true, 0.1f}};
}

std::string levelName(const ::testing::TestParamInfo<LevelParam>& info) {
  std::string n = info.param.file;
  n = n.substr(0, n.find('.'));
  return n + (info.param.tiled ? "_tiled" : "_solo") + (info.param.cellSize > 0 ? "_fine" : "");
}

INSTANTIATE_TEST_SUITE_P(Levels, QueryDiff, ::testing::ValuesIn(allLevels()), levelName);

// The same suite on other random areas/filters/off-mesh links. The first key is the clone path the
// old seeding used in CI (key = OBJ path + "#tiled#rnd"), where the smooth path differed from
// RecastDemo's loop at an odd point cap across a jump (see SmoothPathStopsAtEveryCapAcrossOffMeshLinks).
std::vector<LevelParam> extraSeeds() {
  return {{"dungeon.obj", true, 0, "/tmp/ci2/main/../shared/levels/dungeon.obj#tiled#rnd"},
          {"dungeon.obj", true, 0, "regression seed 2"},
          {"nav_test.obj", true, 0, "regression seed 3"},
          {"undulating.obj", false, 0, "regression seed 4"},
          {"default", true, 0, "regression seed 5"}};
}

std::string extraSeedName(const ::testing::TestParamInfo<LevelParam>& info) {
  return levelName(info) + "_seed" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(ExtraSeeds, QueryDiff, ::testing::ValuesIn(extraSeeds()), extraSeedName);

} // namespace
