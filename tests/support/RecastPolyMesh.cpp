// RecastPolyMesh.cpp: RecastDemo's build pipeline (Sample_SoloMesh / Sample_TileMesh) for tests.
#include "tests/support/RecastPolyMesh.h"

#include "nav/base/BitMath.h"

#include <Recast.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

namespace navtest {

void TriMesh::calcBounds() {
  if (verts.empty()) return;
  for (int k = 0; k < 3; ++k) bmin[k] = bmax[k] = verts[size_t(k)];
  for (size_t i = 0; i < verts.size(); i += 3)
    for (int k = 0; k < 3; ++k) {
      bmin[k] = std::min(bmin[k], verts[i + size_t(k)]);
      bmax[k] = std::max(bmax[k], verts[i + size_t(k)]);
    }
}

bool loadObj(const std::string& path, TriMesh& out, std::string* why) {
  std::ifstream in(path);
  if (!in) {
    if (why) *why = path + ": cannot open";
    return false;
  }
  out = TriMesh{};
  std::string line;
  int lineNo = 0;
  std::vector<int> face;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.size() < 2) continue;
    if (line[0] == 'v' && (line[1] == ' ' || line[1] == '\t')) {
      float x, y, z;
      if (std::sscanf(line.c_str() + 2, "%f %f %f", &x, &y, &z) != 3) {
        if (why) *why = path + ":" + std::to_string(lineNo) + ": bad vertex";
        return false;
      }
      out.verts.insert(out.verts.end(), {x, y, z});
    } else if (line[0] == 'f' && (line[1] == ' ' || line[1] == '\t')) {
      face.clear();
      std::istringstream ss(line.substr(2));
      std::string tok;
      const int nv = out.vertCount();
      while (ss >> tok) {
        int idx = std::atoi(tok.c_str()); // "a/b/c" -> a
        idx = idx < 0 ? nv + idx : idx - 1;
        if (idx < 0 || idx >= nv) {
          if (why) *why = path + ":" + std::to_string(lineNo) + ": face index out of range";
          return false;
        }
        face.push_back(idx);
      }
      for (size_t i = 2; i < face.size(); ++i) out.tris.insert(out.tris.end(), {face[0], face[i - 1], face[i]});
    }
  }
  if (out.tris.empty()) {
    if (why) *why = path + ": no triangles";
    return false;
  }
  out.calcBounds();
  return true;
}

namespace {

struct Ctx : rcContext {
  Ctx() : rcContext(false) {}
};

template <class T, void (*F)(T*)> struct Del {
  void operator()(T* p) const { F(p); }
};
using HfPtr = std::unique_ptr<rcHeightfield, Del<rcHeightfield, rcFreeHeightField>>;
using ChfPtr = std::unique_ptr<rcCompactHeightfield, Del<rcCompactHeightfield, rcFreeCompactHeightfield>>;
using CsetPtr = std::unique_ptr<rcContourSet, Del<rcContourSet, rcFreeContourSet>>;
using PmeshPtr = std::unique_ptr<rcPolyMesh, Del<rcPolyMesh, rcFreePolyMesh>>;
using DmeshPtr = std::unique_ptr<rcPolyMeshDetail, Del<rcPolyMeshDetail, rcFreePolyMeshDetail>>;

rcConfig makeConfig(const BakeSettings& s) {
  rcConfig cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.cs = s.cs;
  cfg.ch = s.ch;
  cfg.walkableSlopeAngle = s.agentMaxSlope;
  const VoxelAgent agent = voxelAgent(s.agentHeight, s.agentMaxClimb, s.agentRadius, cfg.cs, cfg.ch);
  cfg.walkableHeight = agent.height;
  cfg.walkableClimb = agent.climb;
  cfg.walkableRadius = agent.radius;
  cfg.maxEdgeLen = int(s.edgeMaxLen / s.cs);
  cfg.maxSimplificationError = s.edgeMaxError;
  cfg.minRegionArea = s.regionMinSize * s.regionMinSize;
  cfg.mergeRegionArea = s.regionMergeSize * s.regionMergeSize;
  cfg.maxVertsPerPoly = s.vertsPerPoly;
  cfg.detailSampleDist = s.detailSampleDist < 0.9f ? 0 : s.cs * s.detailSampleDist;
  cfg.detailSampleMaxError = s.ch * s.detailSampleMaxError;
  return cfg;
}

// Rasterise -> filter -> compact -> erode -> watershed regions -> contours -> poly mesh -> detail.
// Returns false with a message on failure; `empty` when the tile has no polygons.
bool buildPolyMesh(const TriMesh& mesh, rcConfig& cfg, BakedTile& out, bool& empty, std::string* why) {
  Ctx ctx;
  empty = false;
  HfPtr solid(rcAllocHeightfield());
  if (!rcCreateHeightfield(&ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch)) {
    if (why) *why = "rcCreateHeightfield failed";
    return false;
  }
  // Triangles overlapping the (border-expanded) box in xz; others cannot touch the heightfield.
  std::vector<int> tris;
  for (int i = 0; i < mesh.triCount(); ++i) {
    float tmin[2] = {FLT_MAX, FLT_MAX}, tmax[2] = {-FLT_MAX, -FLT_MAX};
    for (int k = 0; k < 3; ++k) {
      const float* v = &mesh.verts[size_t(mesh.tris[size_t(i * 3 + k)]) * 3];
      tmin[0] = std::min(tmin[0], v[0]); tmax[0] = std::max(tmax[0], v[0]);
      tmin[1] = std::min(tmin[1], v[2]); tmax[1] = std::max(tmax[1], v[2]);
    }
    if (tmin[0] > cfg.bmax[0] || tmax[0] < cfg.bmin[0] || tmin[1] > cfg.bmax[2] || tmax[1] < cfg.bmin[2]) continue;
    tris.insert(tris.end(), &mesh.tris[size_t(i * 3)], &mesh.tris[size_t(i * 3)] + 3);
  }
  const int ntris = int(tris.size() / 3);
  if (ntris == 0) {
    empty = true;
    return true;
  }
  std::vector<unsigned char> areas(size_t(ntris), 0);
  rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, mesh.verts.data(), mesh.vertCount(), tris.data(), ntris,
                          areas.data());
  if (!rcRasterizeTriangles(&ctx, mesh.verts.data(), mesh.vertCount(), tris.data(), areas.data(), ntris, *solid,
                            cfg.walkableClimb)) {
    if (why) *why = "rcRasterizeTriangles failed";
    return false;
  }
  rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid);
  rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
  rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid);

  ChfPtr chf(rcAllocCompactHeightfield());
  if (!rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf) ||
      !rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf) || !rcBuildDistanceField(&ctx, *chf) ||
      !rcBuildRegions(&ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea)) {
    if (why) *why = "compact heightfield / regions failed";
    return false;
  }
  CsetPtr cset(rcAllocContourSet());
  if (!rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset)) {
    if (why) *why = "rcBuildContours failed";
    return false;
  }
  if (cset->nconts == 0) {
    empty = true;
    return true;
  }
  PmeshPtr pmesh(rcAllocPolyMesh());
  if (!rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *pmesh)) {
    if (why) *why = "rcBuildPolyMesh failed";
    return false;
  }
  DmeshPtr dmesh(rcAllocPolyMeshDetail());
  if (!rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *dmesh)) {
    if (why) *why = "rcBuildPolyMeshDetail failed";
    return false;
  }
  if (pmesh->npolys == 0) {
    empty = true;
    return true;
  }
  if (pmesh->nverts >= 0xffff) {
    if (why) *why = "too many vertices per tile";
    return false;
  }
  const int nvp = pmesh->nvp;
  out.nverts = pmesh->nverts;
  out.npolys = pmesh->npolys;
  out.nvp = nvp;
  out.verts.assign(pmesh->verts, pmesh->verts + pmesh->nverts * 3);
  out.polys.assign(pmesh->polys, pmesh->polys + pmesh->npolys * nvp * 2);
  out.areas.assign(pmesh->areas, pmesh->areas + pmesh->npolys);
  out.flags.assign(size_t(pmesh->npolys), 0);
  // RecastDemo: walkable -> ground; flags from areas.
  for (int i = 0; i < pmesh->npolys; ++i) {
    uint8_t& a = out.areas[size_t(i)];
    if (a == RC_WALKABLE_AREA) a = AREA_GROUND;
    if (a == AREA_GROUND || a == AREA_GRASS || a == AREA_ROAD) out.flags[size_t(i)] = FLAG_WALK;
    else if (a == AREA_WATER) out.flags[size_t(i)] = FLAG_SWIM;
    else if (a == AREA_DOOR) out.flags[size_t(i)] = FLAG_WALK | FLAG_DOOR;
  }
  for (int k = 0; k < 3; ++k) {
    out.bmin[k] = pmesh->bmin[k];
    out.bmax[k] = pmesh->bmax[k];
  }
  out.cs = pmesh->cs;
  out.ch = pmesh->ch;
  out.dmeshes.assign(dmesh->meshes, dmesh->meshes + dmesh->nmeshes * 4);
  out.dverts.assign(dmesh->verts, dmesh->verts + dmesh->nverts * 3);
  out.dtris.assign(dmesh->tris, dmesh->tris + dmesh->ntris * 4);
  out.ndverts = dmesh->nverts;
  out.ndtris = dmesh->ntris;
  return true;
}

} // namespace

bool bakeSolo(const TriMesh& mesh, const BakeSettings& s, BakedLevel& out, std::string* why) {
  out = BakedLevel{};
  out.settings = s;
  rcConfig cfg = makeConfig(s);
  rcVcopy(cfg.bmin, mesh.bmin);
  rcVcopy(cfg.bmax, mesh.bmax);
  rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);
  BakedTile tile;
  bool empty = false;
  if (!buildPolyMesh(mesh, cfg, tile, empty, why)) return false;
  if (empty) {
    if (why) *why = "no polygons";
    return false;
  }
  for (int k = 0; k < 3; ++k) out.orig[k] = tile.bmin[k];
  out.tileWidth = tile.bmax[0] - tile.bmin[0];
  out.tileHeight = tile.bmax[2] - tile.bmin[2];
  out.maxTiles = 1;
  out.maxPolys = tile.npolys;
  out.tiles.push_back(std::move(tile));
  return true;
}

bool bakeTiled(const TriMesh& mesh, const BakeSettings& s, BakedLevel& out, std::string* why) {
  out = BakedLevel{};
  out.settings = s;
  out.tiled = true;
  int gw = 0, gh = 0;
  rcCalcGridSize(mesh.bmin, mesh.bmax, s.cs, &gw, &gh);
  const int ts = s.tileSize;
  out.gridW = (gw + ts - 1) / ts;
  out.gridH = (gh + ts - 1) / ts;
  // RecastDemo: tile bits from the grid size (at most 14), the rest of 22 bits for polys.
  const int tileBits = base::tileBitsFor(uint32_t(out.gridW * out.gridH), 14);
  const int polyBits = 22 - tileBits;
  out.maxTiles = 1 << tileBits;
  out.maxPolys = 1 << polyBits;
  rcVcopy(out.orig, mesh.bmin);
  const float tcs = float(ts) * s.cs;
  out.tileWidth = out.tileHeight = tcs;

  for (int y = 0; y < out.gridH; ++y) {
    for (int x = 0; x < out.gridW; ++x) {
      rcConfig cfg = makeConfig(s);
      cfg.tileSize = ts;
      cfg.borderSize = cfg.walkableRadius + 3;
      cfg.width = cfg.tileSize + cfg.borderSize * 2;
      cfg.height = cfg.tileSize + cfg.borderSize * 2;
      float tbmin[3], tbmax[3];
      tbmin[0] = mesh.bmin[0] + float(x) * tcs;
      tbmin[1] = mesh.bmin[1];
      tbmin[2] = mesh.bmin[2] + float(y) * tcs;
      tbmax[0] = mesh.bmin[0] + float(x + 1) * tcs;
      tbmax[1] = mesh.bmax[1];
      tbmax[2] = mesh.bmin[2] + float(y + 1) * tcs;
      rcVcopy(cfg.bmin, tbmin);
      rcVcopy(cfg.bmax, tbmax);
      cfg.bmin[0] -= float(cfg.borderSize) * cfg.cs;
      cfg.bmin[2] -= float(cfg.borderSize) * cfg.cs;
      cfg.bmax[0] += float(cfg.borderSize) * cfg.cs;
      cfg.bmax[2] += float(cfg.borderSize) * cfg.cs;
      BakedTile tile;
      bool empty = false;
      if (!buildPolyMesh(mesh, cfg, tile, empty, why)) {
        if (why) *why = "tile (" + std::to_string(x) + "," + std::to_string(y) + "): " + *why;
        return false;
      }
      if (empty) continue;
      tile.tx = x;
      tile.ty = y;
      out.tiles.push_back(std::move(tile));
    }
  }
  if (out.tiles.empty()) {
    if (why) *why = "no polygons";
    return false;
  }
  return true;
}

} // namespace navtest
