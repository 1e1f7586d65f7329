// ComponentsTest.cpp: nav/crowd's components against Debian's DetourCrowd 1.5.1 classes (the
// oracle) on the same tile blobs (DualMesh: the project's default level solo and tiled, random
// off-mesh connections, random poly areas/flags; the shared RecastDemo levels when ../shared is
// present). Each case drives both sides with the same seeded random inputs and asserts the same
// refs, counts and bit-identical floats.
#include "AvoidancePair.h"
#include "DualFixture.h"
#include "DualMesh.h"

#include "nav/crowd/LocalBoundary.h"
#include "nav/crowd/ObstacleAvoidance.h"
#include "nav/crowd/PathCorridor.h"
#include "nav/crowd/PathQueue.h"
#include "nav/crowd/ProximityGrid.h"

#include <DetourCommon.h>
#include <DetourLocalBoundary.h>
#include <DetourObstacleAvoidance.h>
#include <DetourPathCorridor.h>
#include <DetourPathQueue.h>
#include <DetourProximityGrid.h>
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace querytest;
namespace nc = nav::crowd;

namespace {

struct LevelParam {
  const char* file; // shared level name or "default"
  bool tiled;
};

// Bit-equal, except that any two NaNs are equal: a NaN's sign and payload come from the operand
// order the compiler picks for commutative operations (an obstacle on top of the agent gives a NaN
// side penalty on both sides, with a sign that differs between -O1 and -O3 builds).
bool bitEq(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0; }
bool bitEq3(const float* a, const float* b) { return bitEq(a[0], b[0]) && bitEq(a[1], b[1]) && bitEq(a[2], b[2]); }

std::string v3(const float* v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.9g %.9g %.9g)", double(v[0]), double(v[1]), double(v[2]));
  return buf;
}

#define EXPECT_BITEQ3(a, b) EXPECT_TRUE(bitEq3((a), (b))) << #a " " << v3(a) << " vs " #b " " << v3(b)
#define EXPECT_BITEQ(a, b) EXPECT_TRUE(bitEq((a), (b))) << #a " " << (a) << " vs " #b " " << (b)
// Stop a case loop after the first mismatch (keeps the log readable).
#define STOP_ON_FAILURE() \
  if (::testing::Test::HasFailure()) return

class Components : public ::testing::TestWithParam<LevelParam>, protected DualFixture {
protected:
  void SetUp() override {
    openLevel(GetParam().file, GetParam().tiled, 0xc0ded);
  }

  bool randomPoint(dtPolyRef* ref, float* pt) {
    dtQueryFilter all;
    return dtStatusSucceed(dq->findRandomPoint(&all, frand, ref, pt)) && *ref;
  }
  // Detour's corridor between two random points for filter f (false if none).
  bool randomCorridor(Filters& f, dtPolyRef* sref, float* sp, float* ep, std::vector<dtPolyRef>& path, int* n) {
    dtPolyRef eref;
    if (!randomPoint(sref, sp) || !randomPoint(&eref, ep)) return false;
    *n = 0;
    dq->findPath(*sref, eref, sp, ep, &f.dt, path.data(), n, int(path.size()));
    return *n > 0;
  }

  void expectSameCorridor(const dtPathCorridor& d, const nc::PathCorridor& c) {
    ASSERT_EQ(d.getPathCount(), c.getPathCount());
    for (int i = 0; i < d.getPathCount(); ++i) ASSERT_EQ(d.getPath()[i], c.getPath()[i]) << "poly " << i;
    EXPECT_BITEQ3(d.getPos(), c.getPos());
    EXPECT_BITEQ3(d.getTarget(), c.getTarget());
    EXPECT_EQ(d.getFirstPoly(), c.getFirstPoly());
    EXPECT_EQ(d.getLastPoly(), c.getLastPoly());
  }

  // Both corridors' corners (maxCorners buffers); returns the count (asserted equal).
  int compareCorners(dtPathCorridor& d, nc::PathCorridor& c, const Filters& f, int maxCorners, float* verts,
                     unsigned char* flags, dtPolyRef* polys) {
    float nverts[32 * 3];
    uint8_t nflags[32];
    nav::PolyRef npolys[32];
    const int dn = d.findCorners(verts, flags, polys, maxCorners, dq, &f.dt);
    const int n = c.findCorners(nverts, nflags, npolys, maxCorners, &nq, &f.nav);
    EXPECT_EQ(dn, n);
    if (dn != n) return 0;
    for (int i = 0; i < n; ++i) {
      EXPECT_BITEQ3(&verts[i * 3], &nverts[i * 3]) << " corner " << i;
      EXPECT_EQ(flags[i], nflags[i]) << "corner " << i;
      EXPECT_EQ(polys[i], npolys[i]) << "corner " << i;
    }
    return n;
  }

};

// ---- PathCorridor -------------------------------------------------------------------------------

// Agents walking their corridors: findCorners, movePosition (with jitter that leaves the corridor),
// moveTargetPosition, optimizePathVisibility / Topology, moveOverOffmeshConnection, isValid.
TEST_P(Components, CorridorWalks) {
  std::vector<dtPolyRef> path(256);
  int walks = 0, steps = 0, offmesh = 0, vis = 0, topo = 0, targetMoves = 0;
  for (int w = 0; w < 500; ++w) {
    SCOPED_TRACE("walk " + std::to_string(w));
    Filters f;
    randomFilter(f, w % 2 == 0);
    dtPolyRef sref;
    float sp[3], ep[3];
    int n = 0;
    if (!randomCorridor(f, &sref, sp, ep, path, &n)) continue;
    ++walks;
    // Short buffers too, but not below 32: Detour's merges write past a buffer shorter than the
    // visited lists (16 polygons from moveAlongSurface, 32 from the topology search).
    const int maxPath = irand(4) == 0 ? 32 + irand(16) : 256;
    dtPathCorridor dc;
    nc::PathCorridor c;
    ASSERT_TRUE(dc.init(maxPath));
    ASSERT_TRUE(c.init(maxPath));
    dc.reset(sref, sp);
    c.reset(sref, sp);
    expectSameCorridor(dc, c);
    const int np = std::min(n, maxPath - 1);
    dc.setCorridor(ep, path.data(), np);
    c.setCorridor(ep, path.data(), np);
    expectSameCorridor(dc, c);
    STOP_ON_FAILURE();

    const float stepLen = 0.3f + frand() * 1.5f;
    for (int s = 0; s < 120; ++s) {
      SCOPED_TRACE("step " + std::to_string(s));
      ++steps;
      const int maxCorners = 2 + irand(4);
      float verts[32 * 3];
      unsigned char flags[32];
      dtPolyRef polys[32];
      const int nc_ = compareCorners(dc, c, f, maxCorners, verts, flags, polys);
      STOP_ON_FAILURE();
      if (nc_ == 0) break;

      // Off-mesh connection close ahead: take it.
      if ((flags[nc_ - 1] & DT_STRAIGHTPATH_OFFMESH_CONNECTION) && dtVdist2D(dc.getPos(), &verts[(nc_ - 1) * 3]) < 1.0f) {
        dtPolyRef drefs[2] = {0, 0};
        nav::PolyRef nrefs[2] = {0, 0};
        float dsp[3] = {0, 0, 0}, dep[3] = {0, 0, 0}, nsp[3] = {0, 0, 0}, nep[3] = {0, 0, 0};
        const bool dok = dc.moveOverOffmeshConnection(polys[nc_ - 1], drefs, dsp, dep, dq);
        const bool ok = c.moveOverOffmeshConnection(polys[nc_ - 1], nrefs, nsp, nep, &nq);
        ASSERT_EQ(dok, ok);
        EXPECT_EQ(drefs[0], nrefs[0]);
        EXPECT_EQ(drefs[1], nrefs[1]);
        if (dok) {
          EXPECT_BITEQ3(dsp, nsp);
          EXPECT_BITEQ3(dep, nep);
          ++offmesh;
        }
        expectSameCorridor(dc, c);
        STOP_ON_FAILURE();
        if (!dok) break;
        continue;
      }

      if (irand(3) == 0) {
        const float range = 2.0f + frand() * 20.0f;
        const float* next = &verts[std::min(1, nc_ - 1) * 3];
        dc.optimizePathVisibility(next, range, dq, &f.dt);
        c.optimizePathVisibility(next, range, &nq, &f.nav);
        expectSameCorridor(dc, c);
        ++vis;
        STOP_ON_FAILURE();
      }
      if (irand(4) == 0) {
        const bool dt = dc.optimizePathTopology(dq, &f.dt);
        const bool t = c.optimizePathTopology(&nq, &f.nav);
        EXPECT_EQ(dt, t);
        expectSameCorridor(dc, c);
        topo += dt ? 1 : 0;
        STOP_ON_FAILURE();
      }

      // Move toward the first corner, sometimes off course.
      float dir[3];
      dtVsub(dir, &verts[0], dc.getPos());
      dir[1] = 0;
      const float d = dtVlen(dir);
      float npos[3];
      dtVcopy(npos, dc.getPos());
      if (d > 0) dtVmad(npos, dc.getPos(), dir, std::min(stepLen, d) / d);
      if (irand(3) == 0) {
        npos[0] += (frand() - 0.5f) * 2.0f;
        npos[2] += (frand() - 0.5f) * 2.0f;
      }
      const bool dm = dc.movePosition(npos, dq, &f.dt);
      const bool m = c.movePosition(npos, &nq, &f.nav);
      EXPECT_EQ(dm, m);
      expectSameCorridor(dc, c);
      STOP_ON_FAILURE();

      if (irand(5) == 0) {
        float tpos[3];
        dtVcopy(tpos, dc.getTarget());
        tpos[0] += (frand() - 0.5f) * 3.0f;
        tpos[1] += (frand() - 0.5f) * 0.5f;
        tpos[2] += (frand() - 0.5f) * 3.0f;
        const bool dt = dc.moveTargetPosition(tpos, dq, &f.dt);
        const bool t = c.moveTargetPosition(tpos, &nq, &f.nav);
        EXPECT_EQ(dt, t);
        expectSameCorridor(dc, c);
        ++targetMoves;
        STOP_ON_FAILURE();
      }

      const int look = 1 + irand(10);
      EXPECT_EQ(dc.isValid(look, dq, &f.dt), c.isValid(look, &nq, &f.nav));
      STOP_ON_FAILURE();
    }
  }
  EXPECT_GT(walks, 350);
  EXPECT_GT(vis, 100);
  EXPECT_GT(topo, 10);
  EXPECT_GT(targetMoves, 100);
  std::printf("[ %s ] %d walks, %d steps, %d off-mesh moves, %d visibility and %d changed topology optimizations, "
              "%d target moves\n", mesh->name.c_str(), walks, steps, offmesh, vis, topo, targetMoves);
}

// Our corridor with buffers shorter than its visited lists (where Detour would write past them):
// the corridor stays inside its buffer and keeps a valid start.
TEST_P(Components, CorridorTinyBuffers) {
  std::vector<dtPolyRef> path(256);
  int walks = 0;
  for (int w = 0; w < 200; ++w) {
    SCOPED_TRACE("walk " + std::to_string(w));
    Filters f;
    dtPolyRef sref;
    float sp[3], ep[3];
    int n = 0;
    if (!randomCorridor(f, &sref, sp, ep, path, &n)) continue;
    ++walks;
    const int maxPath = 1 + irand(8);
    nc::PathCorridor c;
    ASSERT_TRUE(c.init(maxPath));
    c.reset(sref, sp);
    c.setCorridor(ep, path.data(), n);
    ASSERT_LE(c.getPathCount(), maxPath);
    for (int s = 0; s < 60; ++s) {
      float verts[4 * 3];
      uint8_t flags[4];
      nav::PolyRef polys[4];
      const int k = c.findCorners(verts, flags, polys, 4, &nq, &f.nav);
      if (k == 0) break;
      float npos[3];
      dtVlerp(npos, c.getPos(), &verts[0], 0.8f);
      npos[0] += (frand() - 0.5f);
      c.movePosition(npos, &nq, &f.nav);
      ASSERT_LE(c.getPathCount(), maxPath);
      c.optimizePathVisibility(&verts[0], 20.0f, &nq, &f.nav);
      ASSERT_LE(c.getPathCount(), maxPath);
      c.optimizePathTopology(&nq, &f.nav);
      ASSERT_LE(c.getPathCount(), maxPath);
      c.moveTargetPosition(ep, &nq, &f.nav);
      ASSERT_LE(c.getPathCount(), maxPath);
      ASSERT_GE(c.getPathCount(), 1);
      ASSERT_TRUE(nq.isValidPolyRef(c.getFirstPoly(), &f.nav));
    }
    c.fixPathStart(sref, sp);
    ASSERT_LE(c.getPathCount(), maxPath);
    ASSERT_EQ(c.getFirstPoly(), sref);
  }
  EXPECT_GT(walks, 100);
}

// Off-mesh connections taken from corridors that end just past one (the walk test meets them only
// by chance): corridors from a connection's start area to its end area.
TEST_P(Components, CorridorOffMeshConnections) {
  int taken = 0;
  std::vector<dtPolyRef> path(256);
  for (int i = 0; i < mesh->dt->getMaxTiles(); ++i) {
    const dtMeshTile* t = static_cast<const dtNavMesh*>(mesh->dt)->getTile(i);
    if (!t || !t->header) continue;
    for (int k = 0; k < t->header->offMeshConCount; ++k) {
      const dtOffMeshConnection& con = t->offMeshCons[k];
      SCOPED_TRACE("connection " + std::to_string(k) + " of tile " + std::to_string(i));
      for (int dir = 0; dir < 2; ++dir) {
        const float* a = &con.pos[dir * 3];
        const float* b = &con.pos[(1 - dir) * 3];
        const float ext[3] = {con.rad * 2, 2, con.rad * 2};
        dtQueryFilter dflt;
        dtPolyRef aref = 0, bref = 0;
        float ap[3], bp[3];
        dq->findNearestPoly(a, ext, &dflt, &aref, ap);
        dq->findNearestPoly(b, ext, &dflt, &bref, bp);
        if (!aref || !bref) continue;
        int n = 0;
        dq->findPath(aref, bref, ap, bp, &dflt, path.data(), &n, 256);
        if (n < 2) continue;
        Filters f;
        dtPathCorridor dc;
        nc::PathCorridor c;
        ASSERT_TRUE(dc.init(256));
        ASSERT_TRUE(c.init(256));
        dc.reset(aref, ap);
        c.reset(aref, ap);
        dc.setCorridor(bp, path.data(), n);
        c.setCorridor(bp, path.data(), n);
        // Walk to the first off-mesh corner (if the path uses one), then over it.
        for (int s = 0; s < 60; ++s) {
          float verts[8 * 3];
          unsigned char flags[8];
          dtPolyRef polys[8];
          const int nc_ = compareCorners(dc, c, f, 8, verts, flags, polys);
          STOP_ON_FAILURE();
          if (nc_ == 0) break;
          if (flags[nc_ - 1] & DT_STRAIGHTPATH_OFFMESH_CONNECTION && dtVdist2D(dc.getPos(), &verts[(nc_ - 1) * 3]) < 0.5f) {
            dtPolyRef drefs[2];
            nav::PolyRef nrefs[2];
            float dsp[3], dep[3], nsp[3], nep[3];
            const bool dok = dc.moveOverOffmeshConnection(polys[nc_ - 1], drefs, dsp, dep, dq);
            const bool ok = c.moveOverOffmeshConnection(polys[nc_ - 1], nrefs, nsp, nep, &nq);
            ASSERT_EQ(dok, ok);
            if (dok) {
              EXPECT_EQ(drefs[0], nrefs[0]);
              EXPECT_EQ(drefs[1], nrefs[1]);
              EXPECT_BITEQ3(dsp, nsp);
              EXPECT_BITEQ3(dep, nep);
              ++taken;
            }
            expectSameCorridor(dc, c);
            break;
          }
          float npos[3], toCorner[3];
          dtVsub(toCorner, &verts[0], dc.getPos());
          toCorner[1] = 0;
          const float d = dtVlen(toCorner);
          dtVcopy(npos, dc.getPos());
          if (d > 0) dtVmad(npos, dc.getPos(), toCorner, std::min(0.4f, d) / d);
          EXPECT_EQ(dc.movePosition(npos, dq, &f.dt), c.movePosition(npos, &nq, &f.nav));
          expectSameCorridor(dc, c);
          STOP_ON_FAILURE();
        }
        // A connection that is not on the corridor is not taken.
        dtPolyRef drefs[2];
        nav::PolyRef nrefs[2];
        float tmp[12];
        EXPECT_EQ(dc.moveOverOffmeshConnection(0x7fffffff, drefs, tmp, tmp + 3, dq),
                  c.moveOverOffmeshConnection(0x7fffffff, nrefs, tmp + 6, tmp + 9, &nq));
        expectSameCorridor(dc, c);
        STOP_ON_FAILURE();
      }
    }
  }
  if (mesh->offMeshCount > 0) {
    EXPECT_GT(taken, 0);
  }
  std::printf("[ %s ] %d off-mesh connections taken\n", mesh->name.c_str(), taken);
}

// fixPathStart, trimInvalidPath and isValid with filters that refuse parts of the corridor.
TEST_P(Components, CorridorRepairs) {
  std::vector<dtPolyRef> path(256);
  int trims = 0, cases = 0;
  for (int q = 0; q < 400; ++q) {
    SCOPED_TRACE("case " + std::to_string(q));
    Filters f;
    dtPolyRef sref;
    float sp[3], ep[3];
    int n = 0;
    if (!randomCorridor(f, &sref, sp, ep, path, &n)) continue;
    ++cases;
    dtPathCorridor dc;
    nc::PathCorridor c;
    ASSERT_TRUE(dc.init(256));
    ASSERT_TRUE(c.init(256));
    dc.reset(sref, sp);
    c.reset(sref, sp);
    const int np = std::min(n, 255);
    dc.setCorridor(ep, path.data(), np);
    c.setCorridor(ep, path.data(), np);

    // A stricter filter: some corridor polygons become invalid.
    Filters strict;
    randomFilter(strict, false);
    for (int look = 1; look < 12; look += 3)
      EXPECT_EQ(dc.isValid(look, dq, &strict.dt), c.isValid(look, &nq, &strict.nav));

    dtPolyRef safeRef;
    float safePos[3];
    if (!randomPoint(&safeRef, safePos)) continue;
    if (q % 2 == 0) {
      const bool dt = dc.trimInvalidPath(safeRef, safePos, dq, &strict.dt);
      const bool t = c.trimInvalidPath(safeRef, safePos, &nq, &strict.nav);
      EXPECT_EQ(dt, t);
      trims += dc.getPathCount() != np ? 1 : 0;
    } else {
      // Short corridors too (fixPathStart pads them to three polygons).
      if (irand(2) == 0) {
        const int k = 1 + irand(std::min(np, 3));
        dc.setCorridor(ep, path.data(), k);
        c.setCorridor(ep, path.data(), k);
      }
      EXPECT_EQ(dc.fixPathStart(safeRef, safePos), c.fixPathStart(safeRef, safePos));
    }
    expectSameCorridor(dc, c);
    STOP_ON_FAILURE();

    // Both keep working the same on the repaired corridor (a fixed start holds a 0 gap).
    float verts[8 * 3];
    unsigned char flags[8];
    dtPolyRef polys[8];
    const int nc_ = compareCorners(dc, c, f, 8, verts, flags, polys);
    STOP_ON_FAILURE();
    if (nc_ > 0) {
      float npos[3];
      dtVlerp(npos, dc.getPos(), &verts[0], 0.5f);
      EXPECT_EQ(dc.movePosition(npos, dq, &f.dt), c.movePosition(npos, &nq, &f.nav));
      expectSameCorridor(dc, c);
    }
    EXPECT_EQ(dc.isValid(256, dq, &f.dt), c.isValid(256, &nq, &f.nav));
    STOP_ON_FAILURE();
  }
  EXPECT_GT(cases, 300);
  EXPECT_GT(trims, 10);
}

// The merge helpers on random lists with shared polygons (including repeats and cut buffers).
TEST(CorridorMerge, MatchesDetour) {
  seedRandom(0x3e76e);
  for (int q = 0; q < 20000; ++q) {
    SCOPED_TRACE("case " + std::to_string(q));
    const int maxPath = 1 + irand(12);
    const int npath = irand(maxPath + 1);
    // Detour's merges assume the visited list fits the buffer (it writes past it otherwise).
    const int nvisited = irand(std::min(maxPath, 9) + 1);
    dtPolyRef path[16], visited[16];
    for (int i = 0; i < npath; ++i) path[i] = dtPolyRef(1 + irand(8));
    for (int i = 0; i < nvisited; ++i) visited[i] = dtPolyRef(1 + irand(8));
    for (int kind = 0; kind < 3; ++kind) {
      dtPolyRef dp[16];
      nav::PolyRef p[16];
      std::memcpy(dp, path, sizeof path);
      std::memcpy(p, path, sizeof path);
      int dn = 0, n = 0;
      if (kind == 0) {
        // Detour's start merge writes req = nvisited - furthest entries: only when they fit.
        dn = dtMergeCorridorStartMoved(dp, npath, maxPath, visited, nvisited);
        n = nc::mergeCorridorStartMoved(p, npath, maxPath, visited, nvisited);
      } else if (kind == 1) {
        dn = dtMergeCorridorEndMoved(dp, npath, maxPath, visited, nvisited);
        n = nc::mergeCorridorEndMoved(p, npath, maxPath, visited, nvisited);
      } else {
        dn = dtMergeCorridorStartShortcut(dp, npath, maxPath, visited, nvisited);
        n = nc::mergeCorridorStartShortcut(p, npath, maxPath, visited, nvisited);
      }
      ASSERT_EQ(dn, n) << "kind " << kind;
      for (int i = 0; i < n && i < 16; ++i) ASSERT_EQ(dp[i], p[i]) << "kind " << kind << " poly " << i;
    }
  }
}

// Visited lists longer than the buffer (Detour writes past it): cut to maxPath, current end kept.
TEST(CorridorMerge, LongVisitedStaysInBuffer) {
  seedRandom(0x10e6);
  for (int q = 0; q < 5000; ++q) {
    const int maxPath = 1 + irand(6);
    const int npath = irand(maxPath + 1);
    const int nvisited = irand(16);
    nav::PolyRef path[24], visited[16];
    for (int i = 0; i < 24; ++i) path[i] = i < npath ? nav::PolyRef(1 + irand(8)) : 0xdeadu;
    for (int i = 0; i < nvisited; ++i) visited[i] = nav::PolyRef(1 + irand(8));
    nav::PolyRef p[24];
    for (int kind = 0; kind < 3; ++kind) {
      std::memcpy(p, path, sizeof path);
      const int n = kind == 0   ? nc::mergeCorridorStartMoved(p, npath, maxPath, visited, nvisited)
                    : kind == 1 ? nc::mergeCorridorEndMoved(p, npath, maxPath, visited, nvisited)
                                : nc::mergeCorridorStartShortcut(p, npath, maxPath, visited, nvisited);
      ASSERT_LE(n, maxPath);
      for (int i = maxPath; i < 24; ++i) ASSERT_EQ(p[i], path[i]) << "kind " << kind << " wrote past the buffer";
      if (kind == 0 && n != npath) {
        // The corridor starts where the move ended.
        ASSERT_EQ(p[0], visited[nvisited - 1]);
      }
    }
  }
}

// ---- LocalBoundary ------------------------------------------------------------------------------

TEST_P(Components, BoundaryUpdates) {
  int withSegs = 0, full = 0;
  dtLocalBoundary db;
  nc::LocalBoundary b;
  EXPECT_BITEQ3(db.getCenter(), b.getCenter());
  for (int q = 0; q < 3000; ++q) {
    SCOPED_TRACE("case " + std::to_string(q));
    Filters f;
    randomFilter(f, q % 2 == 0);
    dtPolyRef ref;
    float pos[3];
    if (!randomPoint(&ref, pos)) continue;
    // Positions off the polygon's surface and the ref 0 (a reset) too.
    if (irand(4) == 0) pos[1] += (frand() - 0.5f) * 2.0f;
    if (irand(50) == 0) ref = 0;
    const float range = 0.3f + frand() * 12.0f;
    db.update(ref, pos, range, dq, &f.dt);
    b.update(ref, pos, range, &nq, &f.nav);
    EXPECT_BITEQ3(db.getCenter(), b.getCenter());
    ASSERT_EQ(db.getSegmentCount(), b.getSegmentCount());
    for (int i = 0; i < b.getSegmentCount(); ++i) {
      EXPECT_TRUE(std::memcmp(db.getSegment(i), b.getSegment(i), 6 * sizeof(float)) == 0)
          << "segment " << i << ": " << v3(db.getSegment(i)) << v3(db.getSegment(i) + 3) << " vs "
          << v3(b.getSegment(i)) << v3(b.getSegment(i) + 3);
    }
    withSegs += b.getSegmentCount() > 0 ? 1 : 0;
    full += b.getSegmentCount() == nc::LocalBoundary::MAX_LOCAL_SEGS ? 1 : 0;
    Filters other;
    randomFilter(other, false);
    EXPECT_EQ(db.isValid(dq, &f.dt), b.isValid(&nq, &f.nav));
    EXPECT_EQ(db.isValid(dq, &other.dt), b.isValid(&nq, &other.nav));
    if (ref && irand(10) == 0) {
      // The same filter object with other flags, then the start polygon's flags changed on both
      // meshes (restored after): isValid remembers a pass only while neither changed.
      EXPECT_EQ(db.isValid(dq, &f.dt), b.isValid(&nq, &f.nav));
      const unsigned short exc = f.nav.getExcludeFlags(), inc = f.nav.getIncludeFlags();
      const unsigned short flags = (unsigned short)irand(16);
      f.dt.setExcludeFlags(flags);
      f.nav.setExcludeFlags(flags);
      EXPECT_EQ(db.isValid(dq, &f.dt), b.isValid(&nq, &f.nav)) << "exclude " << flags;
      f.dt.setIncludeFlags(flags);
      f.nav.setIncludeFlags(flags);
      EXPECT_EQ(db.isValid(dq, &f.dt), b.isValid(&nq, &f.nav)) << "include " << flags;
      f.dt.setExcludeFlags(exc);
      f.nav.setExcludeFlags(exc);
      f.dt.setIncludeFlags(inc);
      f.nav.setIncludeFlags(inc);
      EXPECT_EQ(db.isValid(dq, &f.dt), b.isValid(&nq, &f.nav));
      unsigned short old = 0;
      ASSERT_TRUE(dtStatusSucceed(mesh->dt->getPolyFlags(ref, &old)));
      nav::NavMesh& nm = const_cast<nav::NavMesh&>(mesh->nav);
      mesh->dt->setPolyFlags(ref, flags);
      nm.setPolyFlags(ref, flags);
      EXPECT_EQ(db.isValid(dq, &f.dt), b.isValid(&nq, &f.nav)) << "poly flags " << flags;
      mesh->dt->setPolyFlags(ref, old);
      nm.setPolyFlags(ref, old);
      EXPECT_EQ(db.isValid(dq, &f.dt), b.isValid(&nq, &f.nav));
    }
    if (irand(20) == 0) {
      db.reset();
      b.reset();
      EXPECT_BITEQ3(db.getCenter(), b.getCenter());
      EXPECT_EQ(db.getSegmentCount(), b.getSegmentCount());
      EXPECT_EQ(db.isValid(dq, &f.dt), b.isValid(&nq, &f.nav));
    }
    STOP_ON_FAILURE();
  }
  EXPECT_GT(withSegs, 1000);
  EXPECT_GT(full, 100);
  std::printf("[ %s ] %d boundaries with segments, %d full\n", mesh->name.c_str(), withSegs, full);
}

// ---- PathQueue ----------------------------------------------------------------------------------

// Requests arriving over many updates with small iteration budgets: the same handles (including
// refused requests when the queue is full), statuses after every update, results read at random
// times or never (slots freed by the keep-alive).
TEST_P(Components, PathQueueRounds) {
  for (int run = 0; run < 6; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const int maxPathSize = run % 2 == 0 ? 256 : 12;
    const int maxNodes = run < 4 ? 4096 : 64; // small pools run out of nodes
    dtPathQueue dpq;
    nc::PathQueue pq;
    ASSERT_TRUE(dpq.init(maxPathSize, maxNodes, mesh->dt));
    ASSERT_TRUE(pq.init(maxPathSize, maxNodes, &mesh->nav));
    ASSERT_NE(pq.getNavQuery(), nullptr);
    Filters filters[3];
    randomFilter(filters[0], true);
    randomFilter(filters[1], false);
    randomFilter(filters[2], false);
    std::vector<unsigned> handles;
    int done = 0, refused = 0, partial = 0;
    for (int round = 0; round < 300; ++round) {
      SCOPED_TRACE("round " + std::to_string(round));
      // A burst of more than MAX_QUEUE requests first (some refused), then a trickle.
      const int nreq = round == 0 ? 12 : irand(4) == 0 ? irand(5) : 0;
      for (int k = 0; k < nreq; ++k) {
        dtPolyRef sref, eref;
        float sp[3], ep[3];
        if (!randomPoint(&sref, sp) || !randomPoint(&eref, ep)) continue;
        if (irand(30) == 0) sref = 0; // invalid request: fails at init
        const Filters& f = filters[irand(3)];
        const dtPathQueueRef dh = dpq.request(sref, eref, sp, ep, &f.dt);
        const nc::PathQueueRef h = pq.request(sref, eref, sp, ep, &f.nav);
        ASSERT_EQ(dh, h);
        if (h == nc::PATHQ_INVALID) ++refused;
        else handles.push_back(h);
      }
      const int iters = 1 + irand(120);
      dpq.update(iters);
      pq.update(iters);
      for (unsigned h : handles) ASSERT_EQ(dpq.getRequestStatus(h), pq.getRequestStatus(h)) << "handle " << h;
      // (PATHQ_INVALID matches a free slot: Detour then reads a status it never initialized, so
      // only the existence of such a slot is compared.)
      ASSERT_EQ(dpq.getRequestStatus(DT_PATHQ_INVALID) == DT_FAILURE, pq.getRequestStatus(nc::PATHQ_INVALID) == nav::FAILURE);
      // Read some results (finished or not).
      if (!handles.empty() && irand(2) == 0) {
        // Mostly a finished request (newest first), sometimes any handle: unfinished, read or freed.
        unsigned h = handles[size_t(irand(int(handles.size())))];
        if (irand(4) != 0) {
          for (size_t i = handles.size(); i-- > 0;) {
            const nav::Status st = pq.getRequestStatus(handles[i]);
            if (nav::statusSucceeded(st) || (nav::statusFailed(st) && irand(2) == 0)) {
              h = handles[i];
              break;
            }
          }
        }
        dtPolyRef dpath[256];
        nav::PolyRef npath[256];
        int dn = -1, n = -1;
        const int maxPath = irand(2) == 0 ? 256 : 1 + irand(20);
        const dtStatus ds = dpq.getPathResult(h, dpath, &dn, maxPath);
        const nav::Status s = pq.getPathResult(h, npath, &n, maxPath);
        ASSERT_EQ(ds, s) << "handle " << h;
        ASSERT_EQ(dn, n);
        for (int i = 0; i < n; ++i) ASSERT_EQ(dpath[i], npath[i]) << "poly " << i;
        if (dtStatusSucceed(ds) && n > 0) ++done;
        if (ds & DT_PARTIAL_RESULT) ++partial;
      }
    }
    EXPECT_GT(done, 20);
    EXPECT_GT(refused, 0);
    EXPECT_GT(int(handles.size()), 50);
    std::printf("[ %s ] run %d: %zu requests, %d refused, %d results read (%d partial)\n", mesh->name.c_str(), run,
                handles.size(), refused, done, partial);
  }
}

// ---- ObstacleAvoidance --------------------------------------------------------------------------

// RecastDemo's four adaptive presets (low, medium, good, high) and dtCrowd's default parameters.
void presets(dtObstacleAvoidanceParams* p, int* count) {
  dtObstacleAvoidanceParams base;
  base.velBias = 0.4f;
  base.weightDesVel = 2.0f;
  base.weightCurVel = 0.75f;
  base.weightSide = 0.75f;
  base.weightToi = 2.5f;
  base.horizTime = 2.5f;
  base.gridSize = 33;
  base.adaptiveDivs = 7;
  base.adaptiveRings = 2;
  base.adaptiveDepth = 5;
  const unsigned char divs[4] = {5, 5, 7, 7}, rings[4] = {2, 2, 2, 3}, depth[4] = {1, 2, 3, 3};
  for (int i = 0; i < 4; ++i) {
    p[i] = base;
    p[i].velBias = 0.5f;
    p[i].adaptiveDivs = divs[i];
    p[i].adaptiveRings = rings[i];
    p[i].adaptiveDepth = depth[i];
  }
  p[4] = base;
  *count = 5;
}

using crowdtest::toNav;

void expectSameDebug(const dtObstacleAvoidanceDebugData& d, const nc::ObstacleAvoidanceDebugData& n) {
  ASSERT_EQ(d.getSampleCount(), n.getSampleCount());
  for (int i = 0; i < n.getSampleCount(); ++i) {
    EXPECT_BITEQ3(d.getSampleVelocity(i), n.getSampleVelocity(i)) << " sample " << i;
    EXPECT_BITEQ(d.getSampleSize(i), n.getSampleSize(i)) << " sample " << i;
    EXPECT_BITEQ(d.getSamplePenalty(i), n.getSamplePenalty(i)) << " sample " << i;
    EXPECT_BITEQ(d.getSampleDesiredVelocityPenalty(i), n.getSampleDesiredVelocityPenalty(i)) << " sample " << i;
    EXPECT_BITEQ(d.getSampleCurrentVelocityPenalty(i), n.getSampleCurrentVelocityPenalty(i)) << " sample " << i;
    EXPECT_BITEQ(d.getSamplePreferredSidePenalty(i), n.getSamplePreferredSidePenalty(i)) << " sample " << i;
    EXPECT_BITEQ(d.getSampleCollisionTimePenalty(i), n.getSampleCollisionTimePenalty(i)) << " sample " << i;
    if (::testing::Test::HasFailure()) return;
  }
}

// Random neighbourhoods (agents as circles, walls as segments, as dtCrowd feeds them: walls from a
// LocalBoundary on the mesh) sampled with the grid and with every adaptive preset, plus random
// parameters: same sample count, same chosen velocity, same debug samples (raw and normalized) and
// the same side-selection frames on the circles.
TEST_P(Components, AvoidanceSampling) {
  dtObstacleAvoidanceParams params[8];
  int nparams = 0;
  presets(params, &nparams);
  dtObstacleAvoidanceQuery* dqa = dtAllocObstacleAvoidanceQuery();
  dtObstacleAvoidanceDebugData* ddbg = dtAllocObstacleAvoidanceDebugData();
  ASSERT_TRUE(dqa->init(6, 8));
  ASSERT_TRUE(ddbg->init(2048));
  nc::ObstacleAvoidanceQuery qa;
  nc::ObstacleAvoidanceDebugData dbg;
  ASSERT_TRUE(qa.init(6, 8));
  ASSERT_TRUE(dbg.init(2048));
  dtLocalBoundary boundary;
  dtQueryFilter all;
  long samples = 0;
  int moved = 0, cases = 0;
  for (int q = 0; q < 1500; ++q) {
    SCOPED_TRACE("case " + std::to_string(q));
    dtPolyRef ref;
    float pos[3];
    if (!randomPoint(&ref, pos)) continue;
    ++cases;
    const float rad = 0.3f + frand() * 0.5f;
    const float vmax = 1.0f + frand() * 3.0f;
    float vel[3] = {(frand() - 0.5f) * vmax, 0, (frand() - 0.5f) * vmax};
    float dvel[3] = {(frand() - 0.5f) * 2 * vmax, 0, (frand() - 0.5f) * 2 * vmax};
    if (irand(10) == 0) dtVset(dvel, 0, 0, 0);
    dqa->reset();
    qa.reset();
    const int ncircles = irand(9); // more than fit (6): the rest are dropped
    for (int i = 0; i < ncircles; ++i) {
      float p[3] = {pos[0] + (frand() - 0.5f) * 6, pos[1] + (frand() - 0.5f) * 0.5f, pos[2] + (frand() - 0.5f) * 6};
      if (irand(8) == 0) dtVcopy(p, pos); // on top of the agent
      const float r = 0.3f + frand() * 0.5f;
      float v[3] = {(frand() - 0.5f) * 4, 0, (frand() - 0.5f) * 4};
      float dv[3] = {(frand() - 0.5f) * 4, 0, (frand() - 0.5f) * 4};
      dqa->addCircle(p, r, v, dv);
      qa.addCircle(p, r, v, dv);
    }
    boundary.update(ref, pos, 2.0f + frand() * 6.0f, dq, &all);
    for (int i = 0; i < boundary.getSegmentCount() + 2; ++i) {
      const float* s = boundary.getSegment(i % std::max(1, boundary.getSegmentCount()));
      float seg[6];
      if (i < boundary.getSegmentCount()) {
        std::memcpy(seg, s, sizeof seg);
      } else {
        // A segment through the agent (touching) and a random one.
        const float a = frand() * 6.2831853f;
        seg[0] = pos[0] + std::cos(a) * (i == boundary.getSegmentCount() ? 0.0f : 2.0f);
        seg[1] = pos[1];
        seg[2] = pos[2] + std::sin(a) * (i == boundary.getSegmentCount() ? 0.0f : 2.0f);
        seg[3] = seg[0] + std::sin(a) * 3;
        seg[4] = pos[1];
        seg[5] = seg[2] - std::cos(a) * 3;
      }
      dqa->addSegment(seg, seg + 3);
      qa.addSegment(seg, seg + 3);
    }
    ASSERT_EQ(dqa->getObstacleCircleCount(), qa.getObstacleCircleCount());
    ASSERT_EQ(dqa->getObstacleSegmentCount(), qa.getObstacleSegmentCount());

    // Every preset (the grid on dtCrowd's defaults), then random parameters (odd division counts:
    // with an even one Detour samples an unwritten pattern slot).
    for (int pi = 0; pi < nparams + 2; ++pi) {
      SCOPED_TRACE("params " + std::to_string(pi));
      dtObstacleAvoidanceParams p;
      bool grid;
      if (pi < nparams) {
        p = params[pi];
        grid = pi == nparams - 1;
      } else {
        p = params[4];
        crowdtest::drawAvoidanceParams(p, frand, irand);
        grid = pi == nparams;
      }
      const bool withDebug = irand(2) == 0;
      const crowdtest::SampledPair r = crowdtest::sampleBoth(*dqa, qa, grid, pos, rad, vmax, vel, dvel, p,
                                                             withDebug ? ddbg : nullptr, withDebug ? &dbg : nullptr);
      ASSERT_EQ(r.dns, r.ns);
      EXPECT_BITEQ3(r.dn, r.n);
      samples += r.ns;
      moved += (r.n[0] != 0 || r.n[2] != 0) ? 1 : 0;
      for (int i = 0; i < qa.getObstacleCircleCount(); ++i) {
        const dtObstacleCircle* dc = dqa->getObstacleCircle(i);
        const nc::ObstacleCircle* c = qa.getObstacleCircle(i);
        EXPECT_BITEQ3(dc->dp, c->dp) << " circle " << i;
        EXPECT_BITEQ(dc->np[0], c->np[0]) << " circle " << i;
        EXPECT_BITEQ(dc->np[2], c->np[2]) << " circle " << i;
      }
      for (int i = 0; i < qa.getObstacleSegmentCount(); ++i)
        EXPECT_EQ(dqa->getObstacleSegment(i)->touch, qa.getObstacleSegment(i)->touch) << "segment " << i;
      if (withDebug) {
        expectSameDebug(*ddbg, dbg);
        ddbg->normalizeSamples();
        dbg.normalizeSamples();
        expectSameDebug(*ddbg, dbg);
      }
      STOP_ON_FAILURE();
    }
  }
  dtFreeObstacleAvoidanceDebugData(ddbg);
  dtFreeObstacleAvoidanceQuery(dqa);
  EXPECT_GT(cases, 1000);
  EXPECT_GT(moved, cases);
  std::printf("[ %s ] %d neighbourhoods, %ld samples\n", mesh->name.c_str(), cases, samples);
}

// The debug data on its own: a full buffer drops samples; normalizing constant penalties.
TEST(AvoidanceDebugData, CapacityAndNormalize) {
  dtObstacleAvoidanceDebugData* d = dtAllocObstacleAvoidanceDebugData();
  nc::ObstacleAvoidanceDebugData n;
  ASSERT_TRUE(d->init(5));
  ASSERT_TRUE(n.init(5));
  // Eight samples into room for five; three equal total penalties, a near-constant side penalty.
  seedRandom(78);
  for (int i = 0; i < 8; ++i) {
    const float v[3] = {frand(), 0, frand()};
    const float a = i < 3 ? 1.0f : frand() * 10, b = frand(), c = 0.5f + frand() * 0.0001f, e = frand();
    d->addSample(v, 0.1f, a, 0.5f, b, c, e);
    n.addSample(v, 0.1f, a, 0.5f, b, c, e);
  }
  EXPECT_EQ(n.getSampleCount(), 5);
  expectSameDebug(*d, n);
  d->normalizeSamples();
  n.normalizeSamples();
  expectSameDebug(*d, n);
  dtFreeObstacleAvoidanceDebugData(d);
}

// ---- ProximityGrid ------------------------------------------------------------------------------

// Agents' boxes added to both grids (pools small enough to overflow sometimes), then box queries:
// the same ids in the same order, the same per-cell counts and bounds.
TEST(ProximityGrid, MatchesDetour) {
  seedRandom(0x971d);
  for (int run = 0; run < 200; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const int poolSize = 1 + irand(run % 4 == 0 ? 40 : 1200);
    const float cellSize = 0.2f + frand() * 3.0f;
    dtProximityGrid* dg = dtAllocProximityGrid();
    nc::ProximityGrid g;
    ASSERT_TRUE(dg->init(poolSize, cellSize));
    ASSERT_TRUE(g.init(poolSize, cellSize));
    EXPECT_EQ(dg->getCellSize(), g.getCellSize());
    for (int rep = 0; rep < 3; ++rep) {
      dg->clear();
      g.clear();
      for (int k = 0; k < 4; ++k) EXPECT_EQ(dg->getBounds()[k], g.getBounds()[k]);
      const float spread = 2.0f + frand() * 60.0f;
      const float ox = (frand() - 0.5f) * 200, oz = (frand() - 0.5f) * 200;
      const int nitems = irand(150);
      for (int i = 0; i < nitems; ++i) {
        const float x = ox + frand() * spread, z = oz + frand() * spread, r = 0.2f + frand() * 2.0f;
        const unsigned short id = (unsigned short)irand(200);
        dg->addItem(id, x - r, z - r, x + r, z + r);
        g.addItem(id, x - r, z - r, x + r, z + r);
      }
      for (int k = 0; k < 4; ++k) ASSERT_EQ(dg->getBounds()[k], g.getBounds()[k]);
      if (nitems > 0) {
        const int* bd = dg->getBounds();
        for (int y = bd[1] - 1; y <= bd[3] + 1; y += 1 + (bd[3] - bd[1]) / 20)
          for (int x = bd[0] - 1; x <= bd[2] + 1; x += 1 + (bd[2] - bd[0]) / 20)
            ASSERT_EQ(dg->getItemCountAt(x, y), g.getItemCountAt(x, y)) << "cell " << x << "," << y;
      }
      for (int qi = 0; qi < 100; ++qi) {
        const float x = ox + frand() * spread, z = oz + frand() * spread, r = frand() * 8.0f;
        unsigned short dids[64], ids[64];
        const int maxIds = irand(3) == 0 ? 1 + irand(8) : 64;
        const int dn = dg->queryItems(x - r, z - r, x + r, z + r, dids, maxIds);
        const int n = g.queryItems(x - r, z - r, x + r, z + r, ids, maxIds);
        ASSERT_EQ(dn, n) << "query " << qi;
        for (int i = 0; i < n; ++i) ASSERT_EQ(dids[i], ids[i]) << "query " << qi << " item " << i;
      }
    }
    dtFreeProximityGrid(dg);
  }
}

// Bad init input is refused (Detour asserts instead).
// Queries between adds (the per-cell table is rebuilt after every change), crowds spread over
// more cells than the table holds and cells beyond 16 bits (both walk the buckets instead).
TEST(ProximityGrid, QueriesBetweenAddsAndWideSpreadsMatchDetour) {
  seedRandom(0x5e1d);
  for (int run = 0; run < 60; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const int poolSize = 1 + irand(400);
    const float cellSize = 0.5f + frand() * 2.0f;
    dtProximityGrid* dg = dtAllocProximityGrid();
    nc::ProximityGrid g;
    ASSERT_TRUE(dg->init(poolSize, cellSize));
    ASSERT_TRUE(g.init(poolSize, cellSize));
    // Small (the table), 1000 x 1000 cells and more (beyond the table's room), beyond 16-bit cells.
    const float spreads[] = {30.0f, 1000.0f * cellSize, 70000.0f * cellSize};
    const float spread = spreads[run % 3];
    for (int rep = 0; rep < 3; ++rep) {
      dg->clear();
      g.clear();
      const int nitems = irand(120);
      for (int i = 0; i < nitems; ++i) {
        const float x = (frand() - 0.5f) * spread, z = (frand() - 0.5f) * spread, r = 0.2f + frand() * 2.0f;
        const unsigned short id = (unsigned short)irand(500);
        dg->addItem(id, x - r, z - r, x + r, z + r);
        g.addItem(id, x - r, z - r, x + r, z + r);
        if (irand(10) != 0) continue;
        for (int qi = 0; qi < 5; ++qi) {
          // Around an item's neighbourhood or anywhere in the spread.
          const float qx = irand(2) ? x : (frand() - 0.5f) * spread, qz = irand(2) ? z : (frand() - 0.5f) * spread;
          const float qr = frand() * 8.0f;
          unsigned short dids[64], ids[64];
          const int maxIds = irand(3) == 0 ? 1 + irand(8) : 64;
          const int dn = dg->queryItems(qx - qr, qz - qr, qx + qr, qz + qr, dids, maxIds);
          const int n = g.queryItems(qx - qr, qz - qr, qx + qr, qz + qr, ids, maxIds);
          ASSERT_EQ(dn, n) << "item " << i << " query " << qi;
          for (int k = 0; k < n; ++k) ASSERT_EQ(dids[k], ids[k]) << "item " << i << " query " << qi << " id " << k;
        }
      }
    }
    dtFreeProximityGrid(dg);
  }
}

TEST(ProximityGrid, RefusesBadInit) {
  nc::ProximityGrid g;
  EXPECT_FALSE(g.init(0, 1.0f));
  EXPECT_FALSE(g.init(10, 0.0f));
  EXPECT_FALSE(g.init(10, -1.0f));
  EXPECT_FALSE(g.init(70000, 1.0f));
  unsigned short ids[4];
  EXPECT_EQ(g.queryItems(0, 0, 1, 1, ids, 4), 0);
  g.addItem(1, 0, 0, 1, 1); // no pool: ignored
  EXPECT_EQ(g.getItemCountAt(0, 0), 0);
}

const LevelParam kLevels[] = {
    {"default", false},
    {"default", true},
    {"nav_test.obj", false},
    {"nav_test.obj", true},
    {"dungeon.obj", true},
};

std::string levelName(const ::testing::TestParamInfo<LevelParam>& info) {
  std::string s = info.param.file;
  for (char& ch : s)
    if (ch == '.') ch = '_';
  return s + (info.param.tiled ? "_tiled" : "_solo");
}

INSTANTIATE_TEST_SUITE_P(Levels, Components, ::testing::ValuesIn(kLevels), levelName);

} // namespace
