// OptimalTestUtil.cpp: see OptimalTestUtil.h.
#include "tests/optimal/OptimalTestUtil.h"

#include "nav/ShortestPath.h"
#include "nav/TileBuilder.h"
#include "tests/support/DetourTile.h"
#include "tests/support/RecastPolyMesh.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>

namespace opttest {

int HandTile::addVert(float x, float y, float z) {
  for (size_t i = 0; i < verts.size(); i += 3)
    if (verts[i] == x && verts[i + 1] == y && verts[i + 2] == z) return int(i / 3);
  verts.push_back(x);
  verts.push_back(y);
  verts.push_back(z);
  return int(verts.size() / 3 - 1);
}

int HandTile::addPoly(std::initializer_list<std::pair<float, float>> xz, float y, uint8_t area, uint16_t flag) {
  std::vector<int> p;
  for (const auto& c : xz) p.push_back(addVert(c.first, y, c.second));
  polys.push_back(p);
  areas.push_back(area);
  flags.push_back(flag);
  return int(polys.size() - 1);
}

World::World() = default;
World::~World() {
  if (dtq) dtFreeNavMeshQuery(dtq);
  if (dt) dtFreeNavMesh(dt);
}

namespace {

// Builds our blob for bp and adds it to both meshes (the same tile ref in both).
bool addBuilt(World& w, const nav::TileBuildParams& bp, std::string* why) {
  const std::vector<uint8_t> blob = navtest::navBuild(bp, why);
  if (blob.empty()) return false;
  const std::string err = navtest::addTileBoth(w.mesh, *w.dt, blob);
  if (err.empty()) return true;
  if (why) *why = err;
  return false;
}

bool initBoth(World& w, const nav::NavMeshParams& p, std::string* why) {
  if (!nav::statusSucceeded(w.mesh.init(p, why))) return false;
  w.dt = dtAllocNavMesh();
  dtNavMeshParams dp;
  std::memcpy(&dp, &p, sizeof(dp));
  if (dtStatusFailed(w.dt->init(&dp))) {
    if (why) *why = "dtNavMesh::init failed";
    return false;
  }
  return true;
}

bool initQuery(World& w, std::string* why) {
  w.dtq = dtAllocNavMeshQuery();
  if (dtStatusFailed(w.dtq->init(w.dt, 65535))) {
    if (why) *why = "dtNavMeshQuery::init failed";
    return false;
  }
  return true;
}

} // namespace

bool buildHandMesh(const HandMesh& hm, World& w, std::string* why) {
  nav::NavMeshParams p{};
  p.orig[0] = p.orig[1] = p.orig[2] = 0.0f;
  p.tileWidth = p.tileHeight = hm.tileSize;
  p.maxTiles = 16;
  p.maxPolys = 256;
  if (!initBoth(w, p, why)) return false;
  const bool tiled = hm.tiles.size() > 1;
  for (const HandTile& t : hm.tiles) {
    float ymin = 1e30f, ymax = -1e30f;
    for (size_t i = 1; i < t.verts.size(); i += 3) {
      ymin = std::min(ymin, t.verts[i]);
      ymax = std::max(ymax, t.verts[i]);
    }
    for (const HandOffMesh& c : t.cons) {
      ymin = std::min({ymin, c.a[1], c.b[1]});
      ymax = std::max({ymax, c.a[1], c.b[1]});
    }
    float bmin[3] = {t.tx * hm.tileSize, ymin, t.ty * hm.tileSize};
    float bmax[3] = {bmin[0] + hm.tileSize, ymax + 1.0f, bmin[2] + hm.tileSize};
    const int wcells = int(std::lround(hm.tileSize / hm.cs));
    std::vector<uint16_t> qv;
    for (size_t i = 0; i < t.verts.size(); i += 3) {
      qv.push_back(uint16_t(std::lround((t.verts[i] - bmin[0]) / hm.cs)));
      qv.push_back(uint16_t(std::lround((t.verts[i + 1] - bmin[1]) / hm.ch)));
      qv.push_back(uint16_t(std::lround((t.verts[i + 2] - bmin[2]) / hm.cs)));
    }
    const int nvp = 6;
    const int np = int(t.polys.size());
    // Polygons in Recast's winding (shoelace sum over (x_i z_j - x_j z_i) negative).
    std::vector<std::vector<int>> polys = t.polys;
    for (auto& poly : polys) {
      long a = 0;
      for (size_t j = 0; j < poly.size(); ++j) {
        const uint16_t* u = &qv[size_t(poly[j]) * 3];
        const uint16_t* v = &qv[size_t(poly[(j + 1) % poly.size()]) * 3];
        a += long(u[0]) * v[2] - long(v[0]) * u[2];
      }
      if (a > 0) std::reverse(poly.begin(), poly.end());
    }
    std::vector<uint16_t> pd(size_t(np) * nvp * 2, nav::MESH_NULL_IDX);
    for (int i = 0; i < np; ++i) {
      const auto& poly = polys[size_t(i)];
      const int n = int(poly.size());
      for (int j = 0; j < n; ++j) {
        pd[size_t(i) * nvp * 2 + j] = uint16_t(poly[size_t(j)]);
        const int a = poly[size_t(j)], b = poly[size_t((j + 1) % n)];
        uint16_t nei = nav::MESH_NULL_IDX;
        for (int k = 0; k < np && nei == nav::MESH_NULL_IDX; ++k) {
          if (k == i) continue;
          bool blocked = false;
          for (const auto& wl : t.walls)
            if ((wl.first == i && wl.second == k) || (wl.first == k && wl.second == i)) blocked = true;
          if (blocked) continue;
          const auto& q = polys[size_t(k)];
          for (size_t m = 0; m < q.size(); ++m)
            if (q[m] == b && q[(m + 1) % q.size()] == a) nei = uint16_t(k);
        }
        if (nei == nav::MESH_NULL_IDX && tiled) {
          const uint16_t* u = &qv[size_t(a) * 3];
          const uint16_t* v = &qv[size_t(b) * 3];
          if (u[0] == 0 && v[0] == 0) nei = 0x8000 | 0;
          else if (u[2] == wcells && v[2] == wcells) nei = 0x8000 | 1;
          else if (u[0] == wcells && v[0] == wcells) nei = 0x8000 | 2;
          else if (u[2] == 0 && v[2] == 0) nei = 0x8000 | 3;
        }
        pd[size_t(i) * nvp * 2 + nvp + j] = nei;
      }
    }
    navtest::OffMeshArrays om;
    for (const HandOffMesh& c : t.cons) om.add(c.a, c.b, c.rad, c.flags, c.area, c.bidir ? 1 : 0, uint32_t(om.count() + 1));
    nav::TileBuildParams bp;
    bp.verts = qv.data();
    bp.vertCount = int(qv.size() / 3);
    bp.polys = pd.data();
    bp.polyFlags = t.flags.data();
    bp.polyAreas = t.areas.data();
    bp.polyCount = np;
    bp.nvp = nvp;
    om.applyTo(bp);
    bp.tileX = t.tx;
    bp.tileY = t.ty;
    for (int k = 0; k < 3; ++k) {
      bp.bmin[k] = bmin[k];
      bp.bmax[k] = bmax[k];
    }
    bp.walkableHeight = 2.0f;
    bp.walkableRadius = 0.6f;
    bp.walkableClimb = 0.9f;
    bp.cs = hm.cs;
    bp.ch = hm.ch;
    bp.buildBvTree = true;
    if (!addBuilt(w, bp, why)) return false;
  }
  return initQuery(w, why);
}

namespace {
bool bakeInto(const navtest::TriMesh& tm, bool tiled, World& w, std::string* why);
}

bool buildLevel(const std::string& objPath, bool tiled, World& w, std::string* why) {
  navtest::TriMesh tm;
  if (!navtest::loadObj(objPath, tm, why)) return false;
  return bakeInto(tm, tiled, w, why);
}

bool buildLevelFromTriangles(const std::vector<float>& verts, const std::vector<int>& tris, bool tiled, World& w,
                             std::string* why) {
  navtest::TriMesh tm;
  tm.verts = verts;
  tm.tris = tris;
  tm.calcBounds();
  return bakeInto(tm, tiled, w, why);
}

void generateObstacleField(float size, int obstacles, uint32_t seed, std::vector<float>& verts,
                           std::vector<int>& tris) {
  verts.clear();
  tris.clear();
  uint32_t st = seed ? seed : 1;
  auto rnd = [&st]() {
    st = st * 1664525u + 1013904223u;
    return float(st >> 8) / float(1u << 24);
  };
  // An upward-facing quad (x0, z0) - (x1, z1) at height y: (v1 - v0) x (v2 - v0) points up.
  auto quadUp = [&](float x0, float z0, float x1, float z1, float y) {
    const int b = int(verts.size() / 3);
    verts.insert(verts.end(), {x0, y, z0, x0, y, z1, x1, y, z1, x1, y, z0});
    tris.insert(tris.end(), {b, b + 1, b + 2, b, b + 2, b + 3});
  };
  auto wall = [&](float ax, float az, float bx, float bz, float h) {
    const int b = int(verts.size() / 3);
    verts.insert(verts.end(), {ax, 0.0f, az, bx, 0.0f, bz, bx, h, bz, ax, h, az});
    tris.insert(tris.end(), {b, b + 1, b + 2, b, b + 2, b + 3});
  };
  quadUp(0.0f, 0.0f, size, size, 0.0f);
  const float h = 2.5f;
  for (int i = 0; i < obstacles; ++i) {
    float w = 0.5f + rnd() * 4.0f, d = 0.5f + rnd() * 4.0f;
    if (rnd() < 0.4f) { // a long thin wall
      if (rnd() < 0.5f) {
        w = 6.0f + rnd() * 18.0f;
        d = 0.5f;
      } else {
        w = 0.5f;
        d = 6.0f + rnd() * 18.0f;
      }
    }
    const float x = rnd() * (size - w), z = rnd() * (size - d);
    quadUp(x, z, x + w, z + d, h);
    wall(x, z, x + w, z, h);
    wall(x + w, z, x + w, z + d, h);
    wall(x + w, z + d, x, z + d, h);
    wall(x, z + d, x, z, h);
  }
}

namespace {
bool bakeInto(const navtest::TriMesh& tm, bool tiled, World& w, std::string* why) {
  navtest::BakedLevel lv;
  navtest::BakeSettings s;
  if (!(tiled ? navtest::bakeTiled(tm, s, lv, why) : navtest::bakeSolo(tm, s, lv, why))) return false;
  nav::NavMeshParams p{};
  for (int k = 0; k < 3; ++k) p.orig[k] = lv.orig[k];
  p.tileWidth = lv.tileWidth;
  p.tileHeight = lv.tileHeight;
  p.maxTiles = lv.maxTiles;
  p.maxPolys = lv.maxPolys;
  if (!initBoth(w, p, why)) return false;
  for (const navtest::BakedTile& t : lv.tiles) {
    const nav::TileBuildParams bp = navtest::bakedTileParams(t, s);
    if (!addBuilt(w, bp, why)) return false;
  }
  return initQuery(w, why);
}
} // namespace

nav::PolyRef findPoly(World& w, const float* pos, float* nearest) {
  const float ext[3] = {0.1f, 0.5f, 0.1f};
  dtQueryFilter f;
  dtPolyRef ref = 0;
  float pt[3];
  w.dtq->findNearestPoly(pos, ext, &f, &ref, pt);
  if (nearest) std::memcpy(nearest, pt, sizeof(pt));
  return ref;
}

std::string defaultLevelObj() { return std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.obj"; }
std::string sharedLevelObj(const std::string& file) { return std::string(NAVBENCH_SHARED_DIR) + "/levels/" + file; }
bool fileExists(const std::string& path) { return std::ifstream(path).good(); }

static uint32_t g_rng = 1;
void seedRandom(uint32_t seed) { g_rng = seed ? seed : 1; }
float frand() {
  g_rng = g_rng * 1664525u + 1013904223u;
  return float(g_rng >> 8) / float(1u << 24);
}

float detourPath(World& w, nav::PolyRef s, nav::PolyRef e, const float* sp, const float* ep, std::vector<float>* pts,
                 std::vector<uint8_t>* flags, std::vector<nav::PolyRef>* corridor) {
  dtQueryFilter f;
  static dtPolyRef path[4096];
  int n = 0;
  const dtStatus st = w.dtq->findPath(s, e, sp, ep, &f, path, &n, 4096);
  if (dtStatusFailed(st) || (st & DT_PARTIAL_RESULT) || n == 0) return -1.0f;
  static float sp3[3 * 1024];
  static unsigned char sf[1024];
  static dtPolyRef sr[1024];
  int ns = 0;
  if (dtStatusFailed(w.dtq->findStraightPath(sp, ep, path, n, sp3, sf, sr, &ns, 1024))) return -1.0f;
  if (pts) pts->assign(sp3, sp3 + ns * 3);
  if (flags) flags->assign(sf, sf + ns);
  if (corridor) corridor->assign(path, path + n);
  return nav::straightPathLength(sp3, sf, ns);
}

} // namespace opttest
