// TileParams.h: test support for the tests that build tile blobs. A Recast-baked tile
// (RecastPolyMesh.h) as nav::TileBuildParams, off-mesh connection arrays, and ours built from them.
// nav::TileBuildParams and dtNavMeshCreateParams have the same fields, so the templates here fill
// either (DetourTile.h hands the params to Detour). Header only: the executables that include it
// link nav; nav_test_support itself stays free of nav/.
#pragma once

#include "nav/TileBuilder.h"
#include "tests/support/RecastPolyMesh.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace navtest {

/// Off-mesh connections as the tile builders take them: parallel arrays, one entry per link.
struct OffMeshArrays {
  std::vector<float> verts; ///< [(ax, ay, az, bx, by, bz) * count()]
  std::vector<float> rad;
  std::vector<uint16_t> flags;
  std::vector<uint8_t> areas, dir; ///< dir 1 = bidirectional
  std::vector<uint32_t> ids;
  int count() const { return int(rad.size()); }
  void add(const float* a, const float* b, float radius, uint16_t flag, uint8_t area, uint8_t bidir, uint32_t id) {
    verts.insert(verts.end(), a, a + 3);
    verts.insert(verts.end(), b, b + 3);
    rad.push_back(radius);
    flags.push_back(flag);
    areas.push_back(area);
    dir.push_back(bidir);
    ids.push_back(id);
  }
  /// Points p's off-mesh fields at these arrays (left as they are when there are none).
  /// P: nav::TileBuildParams or dtNavMeshCreateParams. Keep this object alive while p is used.
  template <class P> void applyTo(P& p) const {
    if (rad.empty()) return;
    p.offMeshConVerts = verts.data();
    p.offMeshConRad = rad.data();
    p.offMeshConFlags = flags.data();
    p.offMeshConAreas = areas.data();
    p.offMeshConDir = dir.data();
    p.offMeshConUserID = ids.data();
    p.offMeshConCount = count();
  }
};

/// The array behind a vector or a pointer (poly mesh sources hold either).
template <class T> const T* rawPtr(const std::vector<T>& v) { return v.data(); }
template <class T> const T* rawPtr(const T* p) { return p; }

/// The polygon mesh of an rcPolyMesh-shaped source into p (nav::TileBuildParams or
/// dtNavMeshCreateParams): M has verts, polys, flags, areas (vectors or pointers), nverts, npolys.
template <class P, class M> void setPolyMesh(P& p, const M& m, int nvp) {
  p.verts = rawPtr(m.verts);
  p.vertCount = m.nverts;
  p.polys = rawPtr(m.polys);
  p.polyFlags = rawPtr(m.flags);
  p.polyAreas = rawPtr(m.areas);
  p.polyCount = m.npolys;
  p.nvp = nvp;
}
/// Where the tile sits: grid cell, layer, bounds [wu].
template <class P> void setTile(P& p, int tx, int ty, int layer, const float* bmin, const float* bmax) {
  p.tileX = tx;
  p.tileY = ty;
  p.tileLayer = layer;
  std::memcpy(p.bmin, bmin, sizeof p.bmin);
  std::memcpy(p.bmax, bmax, sizeof p.bmax);
}
/// The agent the tile was baked for [wu].
template <class P> void setAgent(P& p, float height, float radius, float climb) {
  p.walkableHeight = height;
  p.walkableRadius = radius;
  p.walkableClimb = climb;
}
/// The grid: cell size and height [wu], and whether the tile gets a BV tree.
template <class P> void setGrid(P& p, float cs, float ch, bool bvTree) {
  p.cs = cs;
  p.ch = ch;
  p.buildBvTree = bvTree;
}

/// Centre of a baked tile's poly in world units (mean of its quantised verts).
inline void bakedPolyCenter(const BakedTile& t, int poly, float* c) {
  c[0] = c[1] = c[2] = 0;
  int n = 0;
  for (int j = 0; j < t.nvp; ++j) {
    const uint16_t v = t.polys[size_t(poly * t.nvp * 2 + j)];
    if (v == 0xffff) break;
    c[0] += t.bmin[0] + t.verts[v * 3u + 0] * t.cs;
    c[1] += t.bmin[1] + t.verts[v * 3u + 1] * t.ch;
    c[2] += t.bmin[2] + t.verts[v * 3u + 2] * t.cs;
    ++n;
  }
  for (int k = 0; k < 3; ++k) c[k] /= float(n);
}

/// A baked tile as build params: RecastDemo's (layer 0, BV tree on, the agent from `s`), with the
/// off-mesh connections of `om` when given. The params point into t and om.
inline nav::TileBuildParams bakedTileParams(const BakedTile& t, const BakeSettings& s, const OffMeshArrays* om = nullptr) {
  nav::TileBuildParams p;
  setPolyMesh(p, t, t.nvp);
  p.detailMeshes = t.dmeshes.data();
  p.detailVerts = t.dverts.data();
  p.detailVertsCount = t.ndverts;
  p.detailTris = t.dtris.data();
  p.detailTriCount = t.ndtris;
  if (om) om->applyTo(p);
  setTile(p, t.tx, t.ty, 0, t.bmin, t.bmax);
  setAgent(p, s.agentHeight, s.agentRadius, s.agentMaxClimb);
  setGrid(p, t.cs, t.ch, true);
  return p;
}

/// Ours for the same params (nav::buildTileData; empty on failure, with *why set).
inline std::vector<uint8_t> navBuild(const nav::TileBuildParams& p, std::string* why = nullptr) {
  uint8_t* data = nullptr;
  int size = 0;
  if (!nav::buildTileData(p, &data, &size, why)) return {};
  std::vector<uint8_t> out(data, data + size);
  delete[] data;
  return out;
}

} // namespace navtest
