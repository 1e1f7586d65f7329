#include "RecastDemoRef.h"

#include "tests/support/DetourTile.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <Recast.h>

#include <cmath>
#include <cstring>

namespace bakeref {

using nav::bake::BakeInput;
using nav::bake::BakeSettings;

namespace {

// RecastDemo's sample areas and flags.
enum { POLYAREA_GROUND, POLYAREA_WATER, POLYAREA_ROAD, POLYAREA_DOOR, POLYAREA_GRASS, POLYAREA_JUMP };
enum { POLYFLAGS_WALK = 0x01, POLYFLAGS_SWIM = 0x02, POLYFLAGS_DOOR = 0x04, POLYFLAGS_JUMP = 0x08 };

// The input's off-mesh links in Detour's arrays (ids from 1000 where the link has none).
navtest::OffMeshArrays offMeshOf(const BakeInput& in) {
  navtest::OffMeshArrays om;
  for (size_t i = 0; i < in.links.size(); ++i) {
    const auto& l = in.links[i];
    om.add(l.start, l.end, l.radius, l.flags, l.area, l.bidirectional ? 1 : 0, l.userId ? l.userId : unsigned(1000 + i));
  }
  return om;
}

rcConfig commonConfig(const BakeSettings& s) {
  rcConfig cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.cs = s.cellSize;
  cfg.ch = s.cellHeight;
  cfg.walkableSlopeAngle = s.agentMaxSlope;
  cfg.walkableHeight = (int)ceilf(s.agentHeight / cfg.ch);
  cfg.walkableClimb = (int)floorf(s.agentMaxClimb / cfg.ch);
  cfg.walkableRadius = (int)ceilf(s.agentRadius / cfg.cs);
  cfg.maxEdgeLen = (int)(s.edgeMaxLen / s.cellSize);
  cfg.maxSimplificationError = s.edgeMaxError;
  cfg.minRegionArea = (int)rcSqr((float)s.regionMinSize);
  cfg.mergeRegionArea = (int)rcSqr((float)s.regionMergeSize);
  cfg.maxVertsPerPoly = s.vertsPerPoly;
  cfg.detailSampleDist = s.detailSampleDist < 0.9f ? 0 : s.cellSize * s.detailSampleDist;
  cfg.detailSampleMaxError = s.cellHeight * s.detailSampleMaxError;
  return cfg;
}

/// Recast steps + dtCreateNavMeshData for one heightfield box. Returns the blob or null.
unsigned char* buildBox(rcContext* ctx, const BakeInput& in, const BakeSettings& s, rcConfig cfg, const int* tris, int ntris,
                        const navtest::OffMeshArrays& om, int tx, int ty, int* outSize) {
  rcHeightfield* solid = rcAllocHeightfield();
  rcCreateHeightfield(ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch);
  std::vector<unsigned char> triareas(size_t(ntris), 0);
  rcMarkWalkableTriangles(ctx, cfg.walkableSlopeAngle, in.verts.data(), in.vertCount(), tris, ntris, triareas.data());
  rcRasterizeTriangles(ctx, in.verts.data(), in.vertCount(), tris, triareas.data(), ntris, *solid, cfg.walkableClimb);
  if (s.filterLowHangingObstacles) rcFilterLowHangingWalkableObstacles(ctx, cfg.walkableClimb, *solid);
  if (s.filterLedgeSpans) rcFilterLedgeSpans(ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
  if (s.filterWalkableLowHeightSpans) rcFilterWalkableLowHeightSpans(ctx, cfg.walkableHeight, *solid);
  rcCompactHeightfield* chf = rcAllocCompactHeightfield();
  rcBuildCompactHeightfield(ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf);
  rcFreeHeightField(solid);
  rcErodeWalkableArea(ctx, cfg.walkableRadius, *chf);
  for (const auto& v : in.volumes)
    rcMarkConvexPolyArea(ctx, v.verts.data(), int(v.verts.size() / 3), v.hmin, v.hmax,
                         (unsigned char)(v.area == POLYAREA_GROUND ? RC_WALKABLE_AREA : v.area), *chf);
  if (s.partition == nav::bake::Partition::Watershed) {
    rcBuildDistanceField(ctx, *chf);
    rcBuildRegions(ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea);
  } else if (s.partition == nav::bake::Partition::Monotone) {
    rcBuildRegionsMonotone(ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea);
  } else {
    rcBuildLayerRegions(ctx, *chf, cfg.borderSize, cfg.minRegionArea);
  }
  rcContourSet* cset = rcAllocContourSet();
  rcBuildContours(ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset);
  unsigned char* navData = nullptr;
  *outSize = 0;
  if (cset->nconts > 0) {
    rcPolyMesh* pmesh = rcAllocPolyMesh();
    rcBuildPolyMesh(ctx, *cset, cfg.maxVertsPerPoly, *pmesh);
    rcPolyMeshDetail* dmesh = rcAllocPolyMeshDetail();
    rcBuildPolyMeshDetail(ctx, *pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *dmesh);
    for (int i = 0; i < pmesh->npolys; ++i) {
      if (pmesh->areas[i] == RC_WALKABLE_AREA) pmesh->areas[i] = POLYAREA_GROUND;
      if (pmesh->areas[i] == POLYAREA_GROUND || pmesh->areas[i] == POLYAREA_GRASS || pmesh->areas[i] == POLYAREA_ROAD)
        pmesh->flags[i] = POLYFLAGS_WALK;
      else if (pmesh->areas[i] == POLYAREA_WATER)
        pmesh->flags[i] = POLYFLAGS_SWIM;
      else if (pmesh->areas[i] == POLYAREA_DOOR)
        pmesh->flags[i] = POLYFLAGS_WALK | POLYFLAGS_DOOR;
      else if (pmesh->areas[i] == POLYAREA_JUMP) // nav_bake's one addition to RecastDemo's mapping
        pmesh->flags[i] = POLYFLAGS_JUMP;
    }
    dtNavMeshCreateParams params;
    memset(&params, 0, sizeof(params));
    navtest::setPolyMesh(params, *pmesh, pmesh->nvp);
    params.detailMeshes = dmesh->meshes;
    params.detailVerts = dmesh->verts;
    params.detailVertsCount = dmesh->nverts;
    params.detailTris = dmesh->tris;
    params.detailTriCount = dmesh->ntris;
    om.applyTo(params);
    navtest::setAgent(params, s.agentHeight, s.agentRadius, s.agentMaxClimb);
    navtest::setTile(params, tx, ty, 0, pmesh->bmin, pmesh->bmax);
    navtest::setGrid(params, cfg.cs, cfg.ch, true);
    if (pmesh->npolys == 0 || !dtCreateNavMeshData(&params, &navData, outSize)) {
      navData = nullptr;
      *outSize = 0;
    }
    rcFreePolyMeshDetail(dmesh);
    rcFreePolyMesh(pmesh);
  }
  rcFreeContourSet(cset);
  rcFreeCompactHeightfield(chf);
  return navData;
}

// Smallest power of two >= v (v >= 1); written apart from nav_bake's bit tricks on purpose.
unsigned int nextPow2(unsigned int v) {
  unsigned int p = 1;
  while (p < v) p <<= 1;
  return p;
}
unsigned int ilog2(unsigned int v) {
  unsigned int r = 0;
  while (v >>= 1) r++;
  return r;
}

} // namespace

dtNavMesh* build(const BakeInput& in, const BakeSettings& s) {
  rcContext ctx(false);
  const navtest::OffMeshArrays om = offMeshOf(in);
  float bmin[3], bmax[3];
  rcCalcBounds(in.verts.data(), in.vertCount(), bmin, bmax);
  if (!s.tiled) {
    rcConfig cfg = commonConfig(s);
    rcVcopy(cfg.bmin, bmin);
    rcVcopy(cfg.bmax, bmax);
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);
    int size = 0;
    unsigned char* data = buildBox(&ctx, in, s, cfg, in.tris.data(), in.triCount(), om, 0, 0, &size);
    if (!data) return nullptr;
    dtNavMesh* mesh = dtAllocNavMesh();
    if (dtStatusFailed(mesh->init(data, size, DT_TILE_FREE_DATA))) {
      dtFree(data);
      dtFreeNavMesh(mesh);
      return nullptr;
    }
    return mesh;
  }
  // Sample_TileMesh::handleSettings + handleBuild + buildAllTiles.
  int gw = 0, gh = 0;
  rcCalcGridSize(bmin, bmax, s.cellSize, &gw, &gh);
  const int ts = s.tileSize;
  const int tw = (gw + ts - 1) / ts;
  const int th = (gh + ts - 1) / ts;
  int tileBits = rcMin((int)ilog2(nextPow2(tw * th)), 14);
  const int polyBits = 22 - tileBits;
  dtNavMeshParams params;
  rcVcopy(params.orig, bmin);
  params.tileWidth = s.tileSize * s.cellSize;
  params.tileHeight = s.tileSize * s.cellSize;
  params.maxTiles = 1 << tileBits;
  params.maxPolys = 1 << polyBits;
  dtNavMesh* mesh = dtAllocNavMesh();
  if (dtStatusFailed(mesh->init(&params))) {
    dtFreeNavMesh(mesh);
    return nullptr;
  }
  const float tcs = s.tileSize * s.cellSize;
  std::vector<int> tileTris;
  for (int y = 0; y < th; ++y)
    for (int x = 0; x < tw; ++x) {
      rcConfig cfg = commonConfig(s);
      cfg.tileSize = s.tileSize;
      cfg.borderSize = cfg.walkableRadius + 3;
      cfg.width = cfg.tileSize + cfg.borderSize * 2;
      cfg.height = cfg.tileSize + cfg.borderSize * 2;
      cfg.bmin[0] = bmin[0] + x * tcs;
      cfg.bmin[1] = bmin[1];
      cfg.bmin[2] = bmin[2] + y * tcs;
      cfg.bmax[0] = bmin[0] + (x + 1) * tcs;
      cfg.bmax[1] = bmax[1];
      cfg.bmax[2] = bmin[2] + (y + 1) * tcs;
      cfg.bmin[0] -= cfg.borderSize * cfg.cs;
      cfg.bmin[2] -= cfg.borderSize * cfg.cs;
      cfg.bmax[0] += cfg.borderSize * cfg.cs;
      cfg.bmax[2] += cfg.borderSize * cfg.cs;
      // Plain scan instead of the chunky mesh: every triangle whose xz bounds touch the box.
      tileTris.clear();
      for (int t = 0; t < in.triCount(); ++t) {
        float mn[2] = {1e30f, 1e30f}, mx[2] = {-1e30f, -1e30f};
        for (int k = 0; k < 3; ++k) {
          const float* v = &in.verts[size_t(in.tris[size_t(t) * 3 + k]) * 3];
          mn[0] = rcMin(mn[0], v[0]); mx[0] = rcMax(mx[0], v[0]);
          mn[1] = rcMin(mn[1], v[2]); mx[1] = rcMax(mx[1], v[2]);
        }
        if (mn[0] <= cfg.bmax[0] && mx[0] >= cfg.bmin[0] && mn[1] <= cfg.bmax[2] && mx[1] >= cfg.bmin[2])
          tileTris.insert(tileTris.end(), &in.tris[size_t(t) * 3], &in.tris[size_t(t) * 3] + 3);
      }
      if (tileTris.empty()) continue;
      int size = 0;
      unsigned char* data = buildBox(&ctx, in, s, cfg, tileTris.data(), int(tileTris.size() / 3), om, x, y, &size);
      if (!data) continue;
      mesh->removeTile(mesh->getTileRefAt(x, y, 0), 0, 0);
      if (dtStatusFailed(mesh->addTile(data, size, DT_TILE_FREE_DATA, 0, 0))) dtFree(data);
    }
  return mesh;
}

std::vector<uint8_t> saveAll(const dtNavMesh* mesh) {
  struct NavMeshSetHeader {
    int magic;
    int version;
    int numTiles;
    dtNavMeshParams params;
  };
  struct NavMeshTileHeader {
    dtTileRef tileRef;
    int dataSize;
  };
  NavMeshSetHeader header;
  header.magic = 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T';
  header.version = 1;
  header.numTiles = 0;
  for (int i = 0; i < mesh->getMaxTiles(); ++i) {
    const dtMeshTile* tile = mesh->getTile(i);
    if (!tile || !tile->header || !tile->dataSize) continue;
    header.numTiles++;
  }
  memcpy(&header.params, mesh->getParams(), sizeof(dtNavMeshParams));
  std::vector<uint8_t> out;
  auto put = [&](const void* p, size_t n) { out.insert(out.end(), (const uint8_t*)p, (const uint8_t*)p + n); };
  put(&header, sizeof(header));
  for (int i = 0; i < mesh->getMaxTiles(); ++i) {
    const dtMeshTile* tile = mesh->getTile(i);
    if (!tile || !tile->header || !tile->dataSize) continue;
    NavMeshTileHeader th;
    th.tileRef = mesh->getTileRef(tile);
    th.dataSize = tile->dataSize;
    put(&th, sizeof(th));
    put(tile->data, size_t(tile->dataSize));
  }
  return out;
}

std::vector<uint8_t> detourTileData(const nav::TileBuildParams& p) { return navtest::detourBuild(p); }

} // namespace bakeref
