// LayerTestUtil.h: test support for the tile cache. Builds a level's heightfield layers with Recast
// the way RecastDemo's Sample_TempObstacles does (per tile, border = walkableRadius + 3 cells,
// filters, erosion, convex volumes, rcBuildHeightfieldLayers, at most 32 layers per tile), and
// keeps each layer's header and grids as plain data, ready for dtBuildTileCacheLayer and
// nav::tilecache::buildTileCacheLayer alike. Written on Recast directly (not on nav/bake's
// pipeline) so the differential tests share no code with what they check; the level file is read
// with nav/bake's loader only to get the triangles, settings and volumes.
#pragma once

#include "nav/NavAreas.h"
#include "nav/bake/LevelFile.h"
#include "tests/support/TileParams.h"

#include <DetourTileCacheBuilder.h>
#include <Recast.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace tctest {

inline std::string sourceDir() { return NAVBENCH_SOURCE_DIR; }
inline std::string sharedLevelsDir() { return std::string(NAVBENCH_SHARED_DIR) + "/levels"; }
/// The project's default level (level file: OBJ + settings + volumes).
inline std::string defaultLevelPath() { return sourceDir() + "/assets/levels/default.json"; }
/// The shared nav_test level (absent on machines without ../shared).
inline std::string navTestPath() { return sharedLevelsDir() + "/nav_test.obj"; }
inline bool fileExists(const std::string& p) { return std::ifstream(p).good(); }

/// One layer of one tile, as Sample_TempObstacles hands it to dtBuildTileCacheLayer. The header is
/// zeroed before it is filled (padding included), magic and version set.
struct RecastLayer {
  dtTileCacheLayerHeader header;
  std::vector<uint8_t> heights, areas, cons; ///< [Size: width * height] each
};

/// The layers of a whole level plus the tile cache parameters Sample_TempObstacles would use.
struct LayerLevel {
  nav::bake::BakeSettings settings;
  float orig[3] = {0, 0, 0};  ///< Level bounds min [Unit: wu]
  float bmax[3] = {0, 0, 0};
  float cs = 0, ch = 0;        ///< [Unit: wu]
  int tileSize = 0;            ///< [Unit: cells]
  int tilesW = 0, tilesH = 0;  ///< Tile grid
  int borderSize = 0;          ///< [Unit: cells]
  int walkableHeightVx = 0, walkableClimbVx = 0, walkableRadiusVx = 0; ///< rcConfig's [Unit: cells]
  float walkableHeight = 0, walkableRadius = 0, walkableClimb = 0;   ///< dtTileCacheParams' [Unit: wu]
  /// dtTileCache::buildNavMeshTile's climb: (int)(walkableClimb / ch) [Unit: ch]
  int tileCacheClimbVx() const { return int(walkableClimb / ch); }
  float maxSimplificationError = 0;
  std::vector<RecastLayer> layers; ///< Row-major tile order (y outer), layers of a tile in Recast's order.
};

/// A tile cache poly mesh as tile build params, the way dtTileCache::buildNavMeshTile fills them
/// (no detail mesh, no BV tree). P: nav::TileBuildParams or dtNavMeshCreateParams (zeroed first);
/// M: either side's poly mesh; H: either side's layer header; A: LayerLevel or either side's tile
/// cache params (walkable sizes in wu, cs, ch).
template <class P, class M, class H, class A>
void layerTileParams(P& p, const M& mesh, int nvp, const H& header, const A& agent) {
  navtest::setPolyMesh(p, mesh, nvp);
  navtest::setTile(p, header.tx, header.ty, header.tlayer, header.bmin, header.bmax);
  navtest::setAgent(p, agent.walkableHeight, agent.walkableRadius, agent.walkableClimb);
  navtest::setGrid(p, agent.cs, agent.ch, false);
}

constexpr int MAX_LAYERS_PER_TILE = 32; ///< Sample_TempObstacles' MAX_LAYERS

/// Recast's layers for one tile of `lev` (its config fields already set) into lev.layers.
inline bool rasterizeTileLayers(const nav::bake::BakeInput& in, LayerLevel& lev, int tx, int ty, std::string* why) {
  const nav::bake::BakeSettings& s = lev.settings;
  rcContext ctx(false);
  rcConfig cfg;
  std::memset(&cfg, 0, sizeof(cfg));
  cfg.cs = lev.cs;
  cfg.ch = lev.ch;
  cfg.walkableSlopeAngle = s.agentMaxSlope;
  cfg.walkableHeight = lev.walkableHeightVx;
  cfg.walkableClimb = lev.walkableClimbVx;
  cfg.walkableRadius = lev.walkableRadiusVx;
  cfg.tileSize = lev.tileSize;
  cfg.borderSize = lev.borderSize;
  cfg.width = cfg.tileSize + cfg.borderSize * 2;
  cfg.height = cfg.tileSize + cfg.borderSize * 2;
  const float tcs = float(cfg.tileSize) * cfg.cs;
  cfg.bmin[0] = lev.orig[0] + float(tx) * tcs;
  cfg.bmin[1] = lev.orig[1];
  cfg.bmin[2] = lev.orig[2] + float(ty) * tcs;
  cfg.bmax[0] = lev.orig[0] + float(tx + 1) * tcs;
  cfg.bmax[1] = lev.bmax[1];
  cfg.bmax[2] = lev.orig[2] + float(ty + 1) * tcs;
  cfg.bmin[0] -= float(cfg.borderSize) * cfg.cs;
  cfg.bmin[2] -= float(cfg.borderSize) * cfg.cs;
  cfg.bmax[0] += float(cfg.borderSize) * cfg.cs;
  cfg.bmax[2] += float(cfg.borderSize) * cfg.cs;

  rcHeightfield* solid = rcAllocHeightfield();
  rcCompactHeightfield* chf = nullptr;
  rcHeightfieldLayerSet* lset = nullptr;
  auto cleanup = [&]() {
    rcFreeHeightField(solid);
    rcFreeCompactHeightfield(chf);
    rcFreeHeightfieldLayerSet(lset);
  };
  if (!rcCreateHeightfield(&ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch)) {
    if (why) *why = "rcCreateHeightfield failed";
    cleanup();
    return false;
  }
  // The triangles whose xz bounds touch the tile (RecastDemo asks its chunky mesh; which triangles
  // get rasterized, not the lookup, is what matters), in mesh order.
  std::vector<int> tris;
  for (int t = 0; t < in.triCount(); ++t) {
    float mn[2] = {1e30f, 1e30f}, mx[2] = {-1e30f, -1e30f};
    for (int k = 0; k < 3; ++k) {
      const float* v = &in.verts[size_t(in.tris[size_t(t) * 3 + size_t(k)]) * 3];
      mn[0] = std::fmin(mn[0], v[0]);
      mn[1] = std::fmin(mn[1], v[2]);
      mx[0] = std::fmax(mx[0], v[0]);
      mx[1] = std::fmax(mx[1], v[2]);
    }
    if (mx[0] < cfg.bmin[0] || mn[0] > cfg.bmax[0] || mx[1] < cfg.bmin[2] || mn[1] > cfg.bmax[2]) continue;
    tris.insert(tris.end(), &in.tris[size_t(t) * 3], &in.tris[size_t(t) * 3] + 3);
  }
  const int ntris = int(tris.size() / 3);
  std::vector<unsigned char> triareas(size_t(ntris) + 1, 0);
  rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, in.verts.data(), in.vertCount(), tris.data(), ntris,
                          triareas.data());
  if (!rcRasterizeTriangles(&ctx, in.verts.data(), in.vertCount(), tris.data(), triareas.data(), ntris, *solid,
                            cfg.walkableClimb)) {
    if (why) *why = "rcRasterizeTriangles failed";
    cleanup();
    return false;
  }
  if (s.filterLowHangingObstacles) rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid);
  if (s.filterLedgeSpans) rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
  if (s.filterWalkableLowHeightSpans) rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid);
  chf = rcAllocCompactHeightfield();
  if (!rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf) ||
      !rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf)) {
    if (why) *why = "rcBuildCompactHeightfield / rcErodeWalkableArea failed";
    cleanup();
    return false;
  }
  // Volumes as the bake marks them: ground is Recast's walkable area (0 would carve the cells out).
  for (const nav::bake::ConvexVolume& v : in.volumes) {
    const unsigned char area = v.area == nav::AREA_GROUND ? RC_WALKABLE_AREA : v.area;
    rcMarkConvexPolyArea(&ctx, v.verts.data(), int(v.verts.size() / 3), v.hmin, v.hmax, area, *chf);
  }
  lset = rcAllocHeightfieldLayerSet();
  if (!rcBuildHeightfieldLayers(&ctx, *chf, cfg.borderSize, cfg.walkableHeight, *lset)) {
    if (why) *why = "rcBuildHeightfieldLayers failed";
    cleanup();
    return false;
  }
  for (int i = 0; i < lset->nlayers && i < MAX_LAYERS_PER_TILE; ++i) {
    const rcHeightfieldLayer& l = lset->layers[i];
    RecastLayer out;
    std::memset(&out.header, 0, sizeof(out.header));
    out.header.magic = DT_TILECACHE_MAGIC;
    out.header.version = DT_TILECACHE_VERSION;
    out.header.tx = tx;
    out.header.ty = ty;
    out.header.tlayer = i;
    for (int k = 0; k < 3; ++k) {
      out.header.bmin[k] = l.bmin[k];
      out.header.bmax[k] = l.bmax[k];
    }
    out.header.width = (unsigned char)l.width;
    out.header.height = (unsigned char)l.height;
    out.header.minx = (unsigned char)l.minx;
    out.header.maxx = (unsigned char)l.maxx;
    out.header.miny = (unsigned char)l.miny;
    out.header.maxy = (unsigned char)l.maxy;
    out.header.hmin = (unsigned short)l.hmin;
    out.header.hmax = (unsigned short)l.hmax;
    const size_t n = size_t(l.width) * size_t(l.height);
    out.heights.assign(l.heights, l.heights + n);
    out.areas.assign(l.areas, l.areas + n);
    out.cons.assign(l.cons, l.cons + n);
    lev.layers.push_back(std::move(out));
  }
  cleanup();
  return true;
}

/// Loads a level (level file or OBJ) and builds every tile's layers, Sample_TempObstacles'
/// handleBuild config from the level's settings (tile size, agent, cell size, edge error).
inline bool buildLevelLayers(const std::string& path, LayerLevel& lev, std::string* why) {
  nav::bake::BakeInput in;
  lev = LayerLevel();
  if (!nav::bake::loadBakeInput(path, &in, &lev.settings, why)) return false;
  const nav::bake::BakeSettings& s = lev.settings;
  rcCalcBounds(in.verts.data(), in.vertCount(), lev.orig, lev.bmax);
  lev.cs = s.cellSize;
  lev.ch = s.cellHeight;
  lev.tileSize = s.tileSize;
  const navtest::VoxelAgent agent = navtest::voxelAgent(s.agentHeight, s.agentMaxClimb, s.agentRadius, lev.cs, lev.ch);
  lev.walkableHeightVx = agent.height;
  lev.walkableClimbVx = agent.climb;
  lev.walkableRadiusVx = agent.radius;
  lev.borderSize = lev.walkableRadiusVx + 3;
  navtest::setAgent(lev, s.agentHeight, s.agentRadius, s.agentMaxClimb);
  lev.maxSimplificationError = s.edgeMaxError;
  int gw = 0, gh = 0;
  rcCalcGridSize(lev.orig, lev.bmax, lev.cs, &gw, &gh);
  lev.tilesW = (gw + lev.tileSize - 1) / lev.tileSize;
  lev.tilesH = (gh + lev.tileSize - 1) / lev.tileSize;
  for (int ty = 0; ty < lev.tilesH; ++ty)
    for (int tx = 0; tx < lev.tilesW; ++tx)
      if (!rasterizeTileLayers(in, lev, tx, ty, why)) return false;
  return true;
}

} // namespace tctest
