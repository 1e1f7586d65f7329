#include "RecastDemoRef.h"

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

struct OffMesh {
  std::vector<float> verts, rad;
  std::vector<unsigned char> dir, areas;
  std::vector<unsigned short> flags;
  std::vector<unsigned int> ids;
  explicit OffMesh(const BakeInput& in) {
    for (size_t i = 0; i < in.links.size(); ++i) {
      const auto& l = in.links[i];
      verts.insert(verts.end(), l.start, l.start + 3);
      verts.insert(verts.end(), l.end, l.end + 3);
      rad.push_back(l.radius);
      dir.push_back(l.bidirectional ? 1 : 0);
      areas.push_back(l.area);
      flags.push_back(l.flags);
      ids.push_back(l.userId ? l.userId : unsigned(1000 + i));
    }
  }
};

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
                        const OffMesh& om, int tx, int ty, int* outSize) {
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
    params.verts = pmesh->verts;
    params.vertCount = pmesh->nverts;
    params.polys = pmesh->polys;
    params.polyAreas = pmesh->areas;
    params.polyFlags = pmesh->flags;
    params.polyCount = pmesh->npolys;
    params.nvp = pmesh->nvp;
    params.detailMeshes = dmesh->meshes;
    params.detailVerts = dmesh->verts;
    params.detailVertsCount = dmesh->nverts;
    params.detailTris = dmesh->tris;
    params.detailTriCount = dmesh->ntris;
    if (!om.rad.empty()) {
      params.offMeshConVerts = om.verts.data();
      params.offMeshConRad = om.rad.data();
      params.offMeshConDir = om.dir.data();
      params.offMeshConAreas = om.areas.data();
      params.offMeshConFlags = om.flags.data();
      params.offMeshConUserID = om.ids.data();
      params.offMeshConCount = int(om.rad.size());
    }
    params.walkableHeight = s.agentHeight;
    params.walkableRadius = s.agentRadius;
    params.walkableClimb = s.agentMaxClimb;
    params.tileX = tx;
    params.tileY = ty;
    params.tileLayer = 0;
    rcVcopy(params.bmin, pmesh->bmin);
    rcVcopy(params.bmax, pmesh->bmax);
    params.cs = cfg.cs;
    params.ch = cfg.ch;
    params.buildBvTree = true;
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

unsigned int nextPow2(unsigned int v) {
  v--;
  v |= v >> 1; v |= v >> 2; v |= v >> 4; v |= v >> 8; v |= v >> 16;
  return v + 1;
}
unsigned int ilog2(unsigned int v) {
  unsigned int r = 0;
  while (v >>= 1) r++;
  return r;
}

} // namespace

dtNavMesh* build(const BakeInput& in, const BakeSettings& s) {
  rcContext ctx(false);
  OffMesh om(in);
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

std::vector<uint8_t> detourTileData(const nav::TileBuildParams& p) {
  dtNavMeshCreateParams d;
  memset(&d, 0, sizeof(d));
  d.verts = p.verts;
  d.vertCount = p.vertCount;
  d.polys = p.polys;
  d.polyFlags = p.polyFlags;
  d.polyAreas = p.polyAreas;
  d.polyCount = p.polyCount;
  d.nvp = p.nvp;
  d.detailMeshes = p.detailMeshes;
  d.detailVerts = p.detailVerts;
  d.detailVertsCount = p.detailVertsCount;
  d.detailTris = p.detailTris;
  d.detailTriCount = p.detailTriCount;
  d.offMeshConVerts = p.offMeshConVerts;
  d.offMeshConRad = p.offMeshConRad;
  d.offMeshConFlags = p.offMeshConFlags;
  d.offMeshConAreas = p.offMeshConAreas;
  d.offMeshConDir = p.offMeshConDir;
  d.offMeshConUserID = p.offMeshConUserID;
  d.offMeshConCount = p.offMeshConCount;
  d.userId = p.userId;
  d.tileX = p.tileX;
  d.tileY = p.tileY;
  d.tileLayer = p.tileLayer;
  rcVcopy(d.bmin, p.bmin);
  rcVcopy(d.bmax, p.bmax);
  d.walkableHeight = p.walkableHeight;
  d.walkableRadius = p.walkableRadius;
  d.walkableClimb = p.walkableClimb;
  d.cs = p.cs;
  d.ch = p.ch;
  d.buildBvTree = p.buildBvTree;
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&d, &data, &size)) return {};
  std::vector<uint8_t> out(data, data + size);
  dtFree(data);
  return out;
}

} // namespace bakeref
