#include "nav/bake/Bake.h"
#include "nav/bake/BakeInternal.h"
#include "nav/bake/RecastUtil.h"
#include "nav/bake/TriangleGrid.h"
#include "nav/base/BitMath.h"

#include <Recast.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <sstream>

namespace nav::bake {

using namespace detail;

const char* bakeStageName(BakeStage s) {
  switch (s) {
  case BakeStage::Prepare: return "prepare";
  case BakeStage::Rasterize: return "rasterize";
  case BakeStage::Filter: return "filter";
  case BakeStage::CompactHeightfield: return "compact heightfield";
  case BakeStage::Erode: return "erode";
  case BakeStage::MarkAreas: return "mark areas";
  case BakeStage::Regions: return "regions";
  case BakeStage::Contours: return "contours";
  case BakeStage::PolyMesh: return "poly mesh";
  case BakeStage::DetailMesh: return "detail mesh";
  case BakeStage::TileData: return "tile data";
  case BakeStage::AddTiles: return "add tiles";
  case BakeStage::Done: return "done";
  case BakeStage::Count: break;
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// Input checks
// ---------------------------------------------------------------------------------------------

bool BakeInput::validate(std::string* why, std::vector<std::string>* warnings) const {
  auto fail = [&](const std::string& msg) {
    if (why) *why = msg;
    return false;
  };
  if (verts.size() % 3 != 0) return fail("vertex array size " + std::to_string(verts.size()) + " is not a multiple of 3");
  if (tris.size() % 3 != 0) return fail("triangle array size " + std::to_string(tris.size()) + " is not a multiple of 3");
  const int nv = vertCount(), nt = triCount();
  if (nt == 0) return fail("the mesh has no triangles");
  for (int i = 0; i < nv * 3; ++i)
    if (!std::isfinite(verts[size_t(i)])) {
      std::ostringstream s;
      s << "vertex " << i / 3 << " has a non-finite coordinate (" << verts[size_t(i)] << ")";
      return fail(s.str());
    }
  int degenerate = 0;
  for (int t = 0; t < nt; ++t) {
    const int* tri = &tris[size_t(t) * 3];
    for (int k = 0; k < 3; ++k)
      if (tri[k] < 0 || tri[k] >= nv)
        return fail("triangle " + std::to_string(t) + " refers to vertex " + std::to_string(tri[k]) + ", but there are " +
                    std::to_string(nv) + " vertices");
    if (detail::degenerate(&verts[size_t(tri[0]) * 3], &verts[size_t(tri[1]) * 3], &verts[size_t(tri[2]) * 3])) ++degenerate;
  }
  if (degenerate == nt) return fail("all " + std::to_string(nt) + " triangles are degenerate (zero area)");
  if (degenerate && warnings)
    warnings->push_back(std::to_string(degenerate) + " of " + std::to_string(nt) + " triangles are degenerate (zero area)");

  for (size_t i = 0; i < volumes.size(); ++i) {
    const ConvexVolume& v = volumes[i];
    const std::string name = "convex volume " + std::to_string(i);
    if (v.verts.size() % 3 != 0 || v.verts.size() < 9 || v.verts.size() > 36)
      return fail(name + " has " + std::to_string(v.verts.size()) + " coordinates; it needs 3 to 12 points (x, y, z)");
    for (float f : v.verts)
      if (!std::isfinite(f)) return fail(name + " has a non-finite coordinate");
    if (!std::isfinite(v.hmin) || !std::isfinite(v.hmax) || v.hmin > v.hmax)
      return fail(name + " has an empty or invalid height range [" + std::to_string(v.hmin) + ", " + std::to_string(v.hmax) + "]");
    if (v.area >= AREA_LIMIT) return fail(name + " has area " + std::to_string(v.area) + " (must be 0..62)");
  }
  for (size_t i = 0; i < links.size(); ++i) {
    const OffMeshLink& l = links[i];
    const std::string name = "off-mesh link " + std::to_string(i);
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(l.start[k]) || !std::isfinite(l.end[k])) return fail(name + " has a non-finite end point");
    if (!std::isfinite(l.radius) || l.radius <= 0) return fail(name + " has radius " + std::to_string(l.radius) + " (must be > 0)");
    if (l.area >= AREA_LIMIT) return fail(name + " has area " + std::to_string(l.area) + " (must be 0..62)");
  }
  for (size_t i = 0; i < areaRules.size(); ++i) {
    std::string problem;
    if (!checkAreaRule(areaRules[i], &problem)) return fail("area rule " + std::to_string(i) + ": " + problem);
  }
  if (!triGroup.empty()) {
    if (triGroup.size() != size_t(nt))
      return fail("the triangle names cover " + std::to_string(triGroup.size()) + " triangles, not " + std::to_string(nt));
    for (size_t t = 0; t < triGroup.size(); ++t)
      if (triGroup[t] >= groups.size())
        return fail("triangle " + std::to_string(t) + " has name group " + std::to_string(triGroup[t]) + ", but there are " +
                    std::to_string(groups.size()));
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Recast part of one tile
// ---------------------------------------------------------------------------------------------

void detail::markTriangleAreas(rcContext* ctx, float walkableSlopeAngle, const float* verts, int nverts, const int* tris,
                               int ntris, const uint8_t* rules, uint8_t* areas) {
  rcMarkWalkableTriangles(ctx, walkableSlopeAngle, verts, nverts, tris, ntris, areas);
  if (!rules) return;
  // Rasterized ids with rules: ground (no rule, or a ground rule) 1, area a > 0 a + 1, so that
  // where spans merge (Recast keeps the larger id of tops within a step) a tagged surface wins
  // over plain ground (a road decal 2 cm over the floor is road); restoreRuleAreas maps them back.
  for (int i = 0; i < ntris; ++i) {
    const uint8_t r = rules[i];
    if (areas[i] == RC_NULL_AREA) continue; // steep stays unwalkable
    areas[i] = r == TRI_RULE_EXCLUDE ? RC_NULL_AREA : r == TRI_RULE_NONE || r == AREA_GROUND ? 1 : uint8_t(r + 1);
  }
}

void detail::restoreRuleAreas(rcCompactHeightfield& chf) {
  for (int i = 0; i < chf.spanCount; ++i) {
    const uint8_t a = chf.areas[i];
    if (a != RC_NULL_AREA) chf.areas[i] = a == 1 ? RC_WALKABLE_AREA : uint8_t(a - 1);
  }
}

const uint8_t* detail::gatherRules(const uint8_t* rules, const std::vector<int>& ids, std::vector<uint8_t>* out) {
  if (!rules) return nullptr;
  out->resize(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) (*out)[i] = rules[size_t(ids[i])];
  return out->data();
}

namespace {

/// Largest heightfield a bake allocates (8 bytes per cell before any span).
constexpr long long MAX_GRID_CELLS = 64ll * 1024 * 1024;

/// RecastDemo's rcConfig for the settings (tile-independent part).
rcConfig makeConfig(const BakeSettings& s) {
  rcConfig cfg;
  std::memset(&cfg, 0, sizeof(cfg));
  cfg.cs = s.cellSize;
  cfg.ch = s.cellHeight;
  cfg.walkableSlopeAngle = s.agentMaxSlope;
  cfg.walkableHeight = int(std::ceil(s.agentHeight / cfg.ch));
  cfg.walkableClimb = int(std::floor(s.agentMaxClimb / cfg.ch));
  cfg.walkableRadius = int(std::ceil(s.agentRadius / cfg.cs));
  cfg.maxEdgeLen = int(s.edgeMaxLen / s.cellSize);
  cfg.maxSimplificationError = s.edgeMaxError;
  cfg.minRegionArea = int(rcSqr(float(s.regionMinSize)));   // area = size * size
  cfg.mergeRegionArea = int(rcSqr(float(s.regionMergeSize)));
  cfg.maxVertsPerPoly = s.vertsPerPoly;
  cfg.detailSampleDist = s.detailSampleDist < 0.9f ? 0 : s.cellSize * s.detailSampleDist;
  cfg.detailSampleMaxError = s.cellHeight * s.detailSampleMaxError;
  return cfg;
}

/// The tiled part of the config for tile (tx, ty): grid size and bounds with the border.
void tileConfig(const float* bmin, const float* bmax, const BakeSettings& s, int tx, int ty, rcConfig* cfg) {
  float tbmin[3], tbmax[3];
  tileBounds(bmin, bmax, s, tx, ty, tbmin, tbmax);
  cfg->tileSize = s.tileSize;
  cfg->borderSize = cfg->walkableRadius + 3; // Reserve enough padding.
  cfg->width = cfg->tileSize + cfg->borderSize * 2;
  cfg->height = cfg->tileSize + cfg->borderSize * 2;
  rcVcopy(cfg->bmin, tbmin);
  rcVcopy(cfg->bmax, tbmax);
  cfg->bmin[0] -= float(cfg->borderSize) * cfg->cs;
  cfg->bmin[2] -= float(cfg->borderSize) * cfg->cs;
  cfg->bmax[0] += float(cfg->borderSize) * cfg->cs;
  cfg->bmax[2] += float(cfg->borderSize) * cfg->cs;
}

/// Runs Recast for tile (tx, ty) (solo: the whole level) into `pm`. Returns false on error or
/// cancel (out->error / out->cancelled); true with pm->polyCount() == 0 for an empty tile.
bool buildRecastTile(const TileJobContext& c, int tx, int ty, PolyMeshData* pm, TileOutput* out) {
  const BakeSettings& s = *c.settings;
  const BakeInput& in = *c.input;
  *pm = PolyMeshData();
  pm->tileX = tx;
  pm->tileY = ty;
  RcLog ctx;
  struct LogMover { RcLog& ctx; TileOutput* out; ~LogMover() { for (auto& l : ctx.lines) out->log.push_back(std::move(l)); } } logMover{ctx, out};
  auto fail = [&](const std::string& msg) {
    out->error = msg;
    return false;
  };
  TileStages stages{out, c.cancel};
  auto stage = [&](BakeStage next) {
    if (!stages.next(next)) return false;
    if (c.onStage) c.onStage(next);
    return true;
  };

  rcConfig cfg = makeConfig(s);
  std::vector<int> tileTris; // tiled: the tile's triangles (indices into the level's verts)
  std::vector<uint8_t> tileRules; // tiled with area rules: the tile's triangles' rule codes
  TileTriangles fetched;     // tiled from a file: the tile's own triangles
  const uint8_t* rules = c.triRules; // per triangle of `tris`, or null
  const float* verts = in.verts.data();
  int nverts = in.vertCount();
  const int* tris = in.tris.data();
  int ntris = in.triCount();
  if (!s.tiled) {
    rcVcopy(cfg.bmin, c.bmin);
    rcVcopy(cfg.bmax, c.bmax);
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);
  } else {
    tileConfig(c.bmin, c.bmax, s, tx, ty, &cfg);
    if (c.fetch) {
      std::string why;
      if (!c.fetch(tx, ty, &fetched, &why)) return fail(why);
      if (fetched.tris.empty()) return true; // nothing here
      verts = fetched.verts.data();
      nverts = int(fetched.verts.size() / 3);
      tris = fetched.tris.data();
      ntris = int(fetched.tris.size() / 3);
      rules = fetched.rules.empty() ? nullptr : fetched.rules.data();
    } else {
      const float qmin[2] = {cfg.bmin[0], cfg.bmin[2]}, qmax[2] = {cfg.bmax[0], cfg.bmax[2]};
      std::vector<int> ids;
      c.grid->query(qmin, qmax, ids);
      if (ids.empty()) return true; // nothing here
      tileTris.resize(ids.size() * 3);
      for (size_t i = 0; i < ids.size(); ++i)
        std::memcpy(&tileTris[i * 3], &in.tris[size_t(ids[i]) * 3], 3 * sizeof(int));
      tris = tileTris.data();
      ntris = int(ids.size());
      rules = gatherRules(c.triRules, ids, &tileRules);
    }
  }
  // Poly mesh vertices are 16-bit cell coordinates; the heightfield holds a pointer per cell.
  if (cfg.width > 0xffff || cfg.height > 0xffff || double(cfg.width) * double(cfg.height) > double(MAX_GRID_CELLS))
    return fail("the grid is " + std::to_string(cfg.width) + " x " + std::to_string(cfg.height) +
                " cells; at most 65535 along a side and " + std::to_string(MAX_GRID_CELLS) +
                " cells in all (raise cellSize or bake tiled)");

  if (!stage(BakeStage::Rasterize)) return false;
  std::unique_ptr<rcHeightfield, HeightfieldDel> solid(rcAllocHeightfield());
  if (!solid || !rcCreateHeightfield(&ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch))
    return fail("out of memory for the heightfield (" + std::to_string(cfg.width) + " x " + std::to_string(cfg.height) + " cells)");
  {
    std::vector<unsigned char> triAreas(size_t(ntris), 0);
    markTriangleAreas(&ctx, cfg.walkableSlopeAngle, verts, nverts, tris, ntris, rules, triAreas.data());
    if (!rcRasterizeTriangles(&ctx, verts, nverts, tris, triAreas.data(), ntris, *solid, cfg.walkableClimb))
      return fail("could not rasterize the triangles");
  }

  const bool ruled = rules != nullptr;
  fetched.release(); // the tile's input is not needed after rasterizing
  tileTris = std::vector<int>();
  tileRules = std::vector<uint8_t>();
  if (!stage(BakeStage::Filter)) return false;
  if (s.filterLowHangingObstacles) rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid);
  if (s.filterLedgeSpans) rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
  if (s.filterWalkableLowHeightSpans) rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid);

  if (!stage(BakeStage::CompactHeightfield)) return false;
  std::unique_ptr<rcCompactHeightfield, CompactDel> chf(rcAllocCompactHeightfield());
  if (!chf || !rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf))
    return fail("could not build the compact heightfield");
  solid.reset();
  if (ruled) restoreRuleAreas(*chf);

  if (!stage(BakeStage::Erode)) return false;
  if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf)) return fail("could not erode the walkable area");

  if (!stage(BakeStage::MarkAreas)) return false;
  for (const ConvexVolume& v : in.volumes) {
    // Area 0 is Recast's "not walkable"; a ground volume means plain walkable ground.
    const unsigned char area = v.area == AREA_GROUND ? RC_WALKABLE_AREA : v.area;
    rcMarkConvexPolyArea(&ctx, v.verts.data(), int(v.verts.size() / 3), v.hmin, v.hmax, area, *chf);
  }

  if (!stage(BakeStage::Regions)) return false;
  switch (s.partition) {
  case Partition::Watershed:
    if (!rcBuildDistanceField(&ctx, *chf)) return fail("could not build the distance field");
    if (!rcBuildRegions(&ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea))
      return fail("could not build watershed regions");
    break;
  case Partition::Monotone:
    if (!rcBuildRegionsMonotone(&ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea))
      return fail("could not build monotone regions");
    break;
  case Partition::Layers:
    if (!rcBuildLayerRegions(&ctx, *chf, cfg.borderSize, cfg.minRegionArea)) return fail("could not build layer regions");
    break;
  }

  if (!stage(BakeStage::Contours)) return false;
  std::unique_ptr<rcContourSet, ContourDel> cset(rcAllocContourSet());
  if (!cset || !rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset))
    return fail("could not build contours");
  if (cset->nconts == 0) {
    stage(BakeStage::Done);
    return !out->cancelled;
  }

  if (!stage(BakeStage::PolyMesh)) return false;
  std::unique_ptr<rcPolyMesh, PolyMeshDel> pmesh(rcAllocPolyMesh());
  if (!pmesh || !rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *pmesh))
    return fail("could not build the poly mesh (see the recast messages)");
  cset.reset();

  if (!stage(BakeStage::DetailMesh)) return false;
  std::unique_ptr<rcPolyMeshDetail, DetailDel> dmesh(rcAllocPolyMeshDetail());
  if (!dmesh || !rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *dmesh))
    return fail("could not build the detail mesh");
  chf.reset();
  if (pmesh->nverts >= 0xffff)
    return fail("the poly mesh has " + std::to_string(pmesh->nverts) + " vertices; a tile holds at most 65534 (use smaller tiles)");

  // Areas -> flags, as RecastDemo (plus JUMP for polys a volume marked jump).
  for (int i = 0; i < pmesh->npolys; ++i) {
    if (pmesh->areas[i] == RC_WALKABLE_AREA) pmesh->areas[i] = AREA_GROUND;
    pmesh->flags[i] = flagsForArea(pmesh->areas[i]);
  }

  const int nvp = pmesh->nvp;
  pm->nvp = nvp;
  pm->verts.assign(pmesh->verts, pmesh->verts + size_t(pmesh->nverts) * 3);
  pm->polys.assign(pmesh->polys, pmesh->polys + size_t(pmesh->npolys) * nvp * 2);
  pm->flags.assign(pmesh->flags, pmesh->flags + pmesh->npolys);
  pm->areas.assign(pmesh->areas, pmesh->areas + pmesh->npolys);
  pm->detailMeshes.assign(dmesh->meshes, dmesh->meshes + size_t(dmesh->nmeshes) * 4);
  pm->detailVerts.assign(dmesh->verts, dmesh->verts + size_t(dmesh->nverts) * 3);
  pm->detailTris.assign(dmesh->tris, dmesh->tris + size_t(dmesh->ntris) * 4);
  rcVcopy(pm->bmin, pmesh->bmin);
  rcVcopy(pm->bmax, pmesh->bmax);
  pm->cs = pmesh->cs;
  pm->ch = pmesh->ch;
  stage(BakeStage::TileData);
  return !out->cancelled;
}

/// Bounds of all vertices (RecastDemo's rcCalcBounds over the mesh).
void calcBounds(const BakeInput& in, float* bmin, float* bmax) {
  rcCalcBounds(in.verts.data(), in.vertCount(), bmin, bmax);
}


} // namespace

void tileBounds(const float* bmin, const float* bmax, const BakeSettings& s, int tx, int ty, float* tbmin, float* tbmax) {
  const float tcs = float(s.tileSize) * s.cellSize;
  tbmin[0] = bmin[0] + float(tx) * tcs;
  tbmin[1] = bmin[1];
  tbmin[2] = bmin[2] + float(ty) * tcs;
  tbmax[0] = bmin[0] + float(tx + 1) * tcs;
  tbmax[1] = bmax[1];
  tbmax[2] = bmin[2] + float(ty + 1) * tcs;
}

void detail::tileQueryRect(const float* bmin, const float* bmax, const BakeSettings& s, int tx, int ty, float qmin[2],
                           float qmax[2]) {
  rcConfig cfg = makeConfig(s);
  tileConfig(bmin, bmax, s, tx, ty, &cfg);
  qmin[0] = cfg.bmin[0];
  qmin[1] = cfg.bmin[2];
  qmax[0] = cfg.bmax[0];
  qmax[1] = cfg.bmax[2];
}

namespace {
/// rcCalcGridSize, except that a level wider than MAX_GRID_SIDE cells gets MAX_GRID_SIDE (Recast's
/// float -> int conversion is undefined past INT_MAX: a level 1e6 wu wide, or one stray vertex at
/// 1e30, gave a garbage grid whose tile count overflowed and passed the tile limit, then crashed).
/// Such a grid is far past the tile limit, so tiledMeshParams refuses it with its size named.
constexpr float MAX_GRID_SIDE = 1e9f;
void gridSize(const float* bmin, const float* bmax, float cs, int* gw, int* gh) {
  const float w = (bmax[0] - bmin[0]) / cs, h = (bmax[2] - bmin[2]) / cs;
  if (w < MAX_GRID_SIDE && h < MAX_GRID_SIDE) {
    rcCalcGridSize(bmin, bmax, cs, gw, gh);
    return;
  }
  *gw = w < MAX_GRID_SIDE ? int(w + 0.5f) : int(MAX_GRID_SIDE);
  *gh = h < MAX_GRID_SIDE ? int(h + 0.5f) : int(MAX_GRID_SIDE);
}
} // namespace

void detail::tileGridFor(const float* bmin, const float* bmax, const BakeSettings& s, int* tilesX, int* tilesY) {
  if (!s.tiled) {
    *tilesX = *tilesY = 1;
    return;
  }
  int gw = 0, gh = 0;
  gridSize(bmin, bmax, s.cellSize, &gw, &gh);
  const int ts = s.tileSize;
  *tilesX = (gw + ts - 1) / ts;
  *tilesY = (gh + ts - 1) / ts;
}

bool detail::tiledMeshParams(const float* bmin, const BakeSettings& s, int tw, int th, NavMeshParams* params,
                             std::string* why) {
  const long long tileTotal = (long long)tw * th; // both up to 1e9 / tileSize: no int overflow here
  if (tileTotal > (1 << 14)) {
    if (why)
      *why = "the level needs " + std::to_string(tw) + " x " + std::to_string(th) + " = " + std::to_string(tileTotal) +
             " tiles; at most 16384 fit 32-bit poly refs (raise tileSize or cellSize)";
    return false;
  }
  const int tileBits = base::tileBitsFor(uint32_t(tileTotal), 14);
  *params = NavMeshParams{};
  rcVcopy(params->orig, bmin);
  params->tileWidth = float(s.tileSize) * s.cellSize;
  params->tileHeight = float(s.tileSize) * s.cellSize;
  params->maxTiles = 1 << tileBits;
  params->maxPolys = 1 << (22 - tileBits);
  return true;
}

void detail::logInputAndGrid(long long verts, long long tris, const BakeInput& extras, const BakeSettings& s,
                             const float* bmin, const float* bmax, int tw, int th, BakeReport* report, bool layers) {
  const rcConfig cfg = makeConfig(s);
  int gw = 0, gh = 0;
  gridSize(bmin, bmax, s.cellSize, &gw, &gh);
  std::ostringstream l;
  l << "input: " << verts << " verts, " << tris << " tris, " << extras.volumes.size() << " convex volumes, "
    << extras.links.size() << " off-mesh links; bounds (" << bmin[0] << ", " << bmin[1] << ", " << bmin[2] << ") - ("
    << bmax[0] << ", " << bmax[1] << ", " << bmax[2] << ")";
  report->log.push_back(l.str());
  std::ostringstream g;
  g << "grid: " << gw << " x " << gh << " cells of " << s.cellSize << " x " << s.cellHeight << " wu; agent "
    << cfg.walkableHeight << " cells tall, climb " << cfg.walkableClimb << ", radius " << cfg.walkableRadius;
  if (layers) // what a tile rebuild makes of each layer (nav/tilecache), whatever the settings say
    g << "; heightfield layers: monotone regions per layer, polys of up to 6 verts, edge error " << s.edgeMaxError
      << " wu, no detail mesh";
  else
    g << "; partition " << partitionName(s.partition);
  if (s.tiled)
    g << "; " << tw << " x " << th << " tiles of " << s.tileSize << " cells, border " << cfg.walkableRadius + 3 << " cells";
  else
    g << "; solo mesh";
  report->grid = g.str();
  report->log.push_back(report->grid);
}

std::string detail::doneLine(const BakeReport& r) {
  std::ostringstream l;
  l << "done: " << r.tileCount << " tiles, " << r.polyCount << " polys, " << r.vertCount << " verts, "
    << r.offMeshConCount << " off-mesh connections, " << r.dataBytes << " bytes in " << r.totalMs << " ms on "
    << r.threads << " thread(s)";
  return l.str();
}

void fillTileBuildParams(const PolyMeshData& pm, const Baker::OffMeshArrays& off, const BakeSettings& s,
                         nav::TileBuildParams* p) {
  *p = nav::TileBuildParams();
  p->verts = pm.verts.data();
  p->vertCount = pm.vertCount();
  p->polys = pm.polys.data();
  p->polyAreas = pm.areas.data();
  p->polyFlags = pm.flags.data();
  p->polyCount = pm.polyCount();
  p->nvp = pm.nvp;
  p->detailMeshes = pm.detailMeshes.data();
  p->detailVerts = pm.detailVerts.data();
  p->detailVertsCount = int(pm.detailVerts.size() / 3);
  p->detailTris = pm.detailTris.data();
  p->detailTriCount = int(pm.detailTris.size() / 4);
  const int nlinks = int(off.rad.size());
  if (nlinks > 0) {
    p->offMeshConVerts = off.verts.data();
    p->offMeshConRad = off.rad.data();
    p->offMeshConDir = off.dir.data();
    p->offMeshConAreas = off.areas.data();
    p->offMeshConFlags = off.flags.data();
    p->offMeshConUserID = off.userIds.data();
    p->offMeshConCount = nlinks;
  }
  p->walkableHeight = s.agentHeight;
  p->walkableRadius = s.agentRadius;
  p->walkableClimb = s.agentMaxClimb;
  p->tileX = pm.tileX;
  p->tileY = pm.tileY;
  p->tileLayer = 0;
  for (int k = 0; k < 3; ++k) {
    p->bmin[k] = pm.bmin[k];
    p->bmax[k] = pm.bmax[k];
  }
  p->cs = pm.cs;
  p->ch = pm.ch;
  p->buildBvTree = true;
}

// ---------------------------------------------------------------------------------------------
// Baker
// ---------------------------------------------------------------------------------------------

struct Baker::Impl {
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
  TriangleGrid grid;
  float gridBinSize = -1; ///< Bin size the grid was built with (-1: not built).
  std::vector<std::string> inputWarnings;

  /// Per triangle of the input, what its area rules decided (AreaRules.h); empty without rules.
  std::vector<uint8_t> triRules;

  /// What every tile build of `in` with `s` reads (the caller adds the grid, cancel, progress).
  TileJobContext context(const BakeInput& in, const BakeSettings& s) const {
    TileJobContext c;
    c.input = &in;
    c.settings = &s;
    rcVcopy(c.bmin, bmin);
    rcVcopy(c.bmax, bmax);
    c.triRules = triRules.empty() ? nullptr : triRules.data();
    return c;
  }

  const TriangleGrid& gridFor(const BakeInput& in, float binSize) {
    if (gridBinSize != binSize) {
      grid.build(in.verts.data(), in.tris.data(), in.triCount(), binSize);
      gridBinSize = binSize;
    }
    return grid;
  }
};

Baker::Baker() : m_impl(new Impl) {}
Baker::~Baker() = default;

bool Baker::setInput(BakeInput input, std::string* why) {
  std::vector<std::string> warnings;
  if (!input.validate(why, &warnings)) return false;
  m_input = std::move(input);
  m_impl->inputWarnings = std::move(warnings);
  calcBounds(m_input, m_impl->bmin, m_impl->bmax);
  m_impl->grid = TriangleGrid(); // it pointed into the old input; rebuilt on the next bake
  m_impl->gridBinSize = -1;
  applyAreaRules(m_input.areaRules, m_input.groups, m_input.triGroup, size_t(m_input.triCount()), &m_impl->triRules);
  std::vector<ConvexVolume> v = std::move(m_input.volumes);
  std::vector<OffMeshLink> l = std::move(m_input.links);
  return setVolumesAndLinks(std::move(v), std::move(l), why);
}

bool Baker::setVolumesAndLinks(std::vector<ConvexVolume> volumes, std::vector<OffMeshLink> links, std::string* why) {
  BakeInput check;
  check.verts = {0, 0, 0, 1, 0, 0, 0, 0, 1};
  check.tris = {0, 1, 2};
  check.volumes = std::move(volumes);
  check.links = std::move(links);
  if (!check.validate(why)) return false;
  m_input.volumes = std::move(check.volumes);
  m_input.links = std::move(check.links);
  OffMeshArrays a;
  for (size_t i = 0; i < m_input.links.size(); ++i) {
    const OffMeshLink& l = m_input.links[i];
    a.verts.insert(a.verts.end(), l.start, l.start + 3);
    a.verts.insert(a.verts.end(), l.end, l.end + 3);
    a.rad.push_back(l.radius);
    a.flags.push_back(l.flags);
    a.areas.push_back(l.area);
    a.dir.push_back(l.bidirectional ? 1 : 0);
    a.userIds.push_back(l.userId ? l.userId : uint32_t(1000 + i));
  }
  m_offMesh = std::move(a);
  return true;
}

bool Baker::tilesInGrid(const BakeSettings& s, const std::vector<TileCoord>& tiles, std::string* why) const {
  int tw = 1, th = 1;
  tileGrid(s, &tw, &th);
  for (const TileCoord& t : tiles)
    if (t.x < 0 || t.y < 0 || t.x >= tw || t.y >= th) {
      if (why)
        *why = "tile (" + std::to_string(t.x) + ", " + std::to_string(t.y) + ") is outside the " + std::to_string(tw) + " x " +
               std::to_string(th) + " grid";
      return false;
    }
  return true;
}

void Baker::bounds(float* bmin, float* bmax) const {
  rcVcopy(bmin, m_impl->bmin);
  rcVcopy(bmax, m_impl->bmax);
}

void Baker::tileGrid(const BakeSettings& s, int* tilesX, int* tilesY) const {
  tileGridFor(m_impl->bmin, m_impl->bmax, s, tilesX, tilesY);
}

bool Baker::buildPolyMesh(const BakeSettings& s, int tx, int ty, PolyMeshData* out, std::string* why) const {
  if (!s.validate(why)) return false;
  if (m_input.triCount() == 0) {
    if (why) *why = "no level loaded";
    return false;
  }
  if (!tilesInGrid(s, {{tx, ty}}, why)) return false;
  TileJobContext c = m_impl->context(m_input, s);
  if (s.tiled) c.grid = &m_impl->gridFor(m_input, float(s.tileSize) * s.cellSize);
  TileOutput o;
  if (!buildRecastTile(c, tx, ty, out, &o)) {
    if (why) *why = o.error;
    return false;
  }
  return true;
}

bool dropPolys(const PolyMeshData& in, const std::vector<int>& drop, PolyMeshData* out, std::string* why) {
  const int np = in.polyCount(), nvp = in.nvp;
  std::vector<char> dropped(size_t(np), 0);
  for (int i : drop) {
    if (i < 0 || i >= np) {
      if (why) *why = "poly " + std::to_string(i) + " is not in the tile (it has " + std::to_string(np) + " polys)";
      return false;
    }
    dropped[size_t(i)] = 1;
  }
  // New index of each kept poly and of each vertex a kept poly uses.
  std::vector<int> polyMap(size_t(np), -1), vertMap(size_t(in.vertCount()), -1);
  int kept = 0;
  for (int i = 0; i < np; ++i)
    if (!dropped[size_t(i)]) polyMap[size_t(i)] = kept++;
  PolyMeshData o;
  o.tileX = in.tileX;
  o.tileY = in.tileY;
  o.nvp = nvp;
  std::copy(in.bmin, in.bmin + 3, o.bmin);
  std::copy(in.bmax, in.bmax + 3, o.bmax);
  o.cs = in.cs;
  o.ch = in.ch;
  // Vertices keep their order (nothing dropped: the same bytes as the tile a bake makes).
  for (int i = 0; i < np; ++i)
    if (!dropped[size_t(i)])
      for (int j = 0; j < nvp; ++j)
        if (const uint16_t v = in.polys[size_t(i) * 2 * size_t(nvp) + size_t(j)]; v != MESH_NULL_IDX) vertMap[v] = 0;
  for (int v = 0; v < in.vertCount(); ++v)
    if (vertMap[size_t(v)] == 0) {
      vertMap[size_t(v)] = o.vertCount();
      o.verts.insert(o.verts.end(), &in.verts[size_t(v) * 3], &in.verts[size_t(v) * 3] + 3);
    }
  const bool detail = in.detailMeshes.size() == size_t(np) * 4;
  for (int i = 0; i < np; ++i) {
    if (dropped[size_t(i)]) continue;
    const uint16_t* src = &in.polys[size_t(i) * 2 * size_t(nvp)];
    for (int j = 0; j < nvp; ++j) {
      const uint16_t v = src[j];
      if (v == MESH_NULL_IDX) {
        o.polys.push_back(MESH_NULL_IDX);
        continue;
      }
      o.polys.push_back(uint16_t(vertMap[v]));
    }
    for (int j = 0; j < nvp; ++j) {
      const uint16_t n = src[nvp + j];
      if (n & 0x8000) o.polys.push_back(n); // a tile-border portal or a wall: unchanged
      else o.polys.push_back(n < np && polyMap[n] >= 0 ? uint16_t(polyMap[n]) : MESH_NULL_IDX);
    }
    o.flags.push_back(in.flags[size_t(i)]);
    o.areas.push_back(in.areas[size_t(i)]);
    if (detail) {
      const uint32_t* dm = &in.detailMeshes[size_t(i) * 4];
      const uint32_t vbase = uint32_t(o.detailVerts.size() / 3), tbase = uint32_t(o.detailTris.size() / 4);
      o.detailVerts.insert(o.detailVerts.end(), in.detailVerts.begin() + long(dm[0]) * 3, in.detailVerts.begin() + long(dm[0] + dm[1]) * 3);
      o.detailTris.insert(o.detailTris.end(), in.detailTris.begin() + long(dm[2]) * 4, in.detailTris.begin() + long(dm[2] + dm[3]) * 4);
      o.detailMeshes.insert(o.detailMeshes.end(), {vbase, dm[1], tbase, dm[3]});
    }
  }
  *out = std::move(o);
  return true;
}

bool Baker::bakeTileWithout(const BakeSettings& s, const TileCoord& tile, const std::vector<int>& polysToDrop, RebakedTile* out,
                            std::string* why, const std::vector<int>* linksToDrop) const {
  PolyMeshData full, pm;
  if (!buildPolyMesh(s, tile.x, tile.y, &full, why) || !dropPolys(full, polysToDrop, &pm, why)) return false;
  // The input's links without those dropped (same order otherwise).
  OffMeshArrays off;
  const OffMeshArrays* links = &m_offMesh;
  if (linksToDrop && !linksToDrop->empty()) {
    const int n = int(m_offMesh.rad.size());
    for (int i : *linksToDrop)
      if (i < 0 || i >= n) {
        if (why) *why = "link " + std::to_string(i) + " is not in the level (it has " + std::to_string(n) + ")";
        return false;
      }
    for (int i = 0; i < n; ++i) {
      if (std::find(linksToDrop->begin(), linksToDrop->end(), i) != linksToDrop->end()) continue;
      off.verts.insert(off.verts.end(), m_offMesh.verts.begin() + i * 6, m_offMesh.verts.begin() + i * 6 + 6);
      off.rad.push_back(m_offMesh.rad[size_t(i)]);
      off.flags.push_back(m_offMesh.flags[size_t(i)]);
      off.areas.push_back(m_offMesh.areas[size_t(i)]);
      off.dir.push_back(m_offMesh.dir[size_t(i)]);
      off.userIds.push_back(m_offMesh.userIds[size_t(i)]);
    }
    links = &off;
  }
  RebakedTile t;
  t.tile = tile;
  if (pm.polyCount() > 0) {
    nav::TileBuildParams params;
    fillTileBuildParams(pm, *links, s, &params);
    std::string err;
    if (!nav::buildTileData(params, &t.data, &t.dataSize, &err)) {
      if (why) *why = detail::tileName(s, tile.x, tile.y) + ": tile creation failed: " + err;
      return false;
    }
  }
  *out = std::move(t);
  return true;
}

std::unique_ptr<NavMesh> Baker::releaseNavMesh() { return std::move(m_mesh); }

void Baker::adoptNavMesh(std::unique_ptr<NavMesh> mesh, const BakeSettings& settings) {
  if (!mesh) return;
  m_mesh = std::move(mesh);
  m_bakedSettings = settings;
}

namespace {

/// Counts of a mesh, for the report.
void countMesh(const NavMesh& mesh, BakeReport* r) {
  r->tileCount = r->polyCount = r->vertCount = r->offMeshConCount = 0;
  r->dataBytes = 0;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const MeshTile* t = mesh.getTile(i);
    if (!t || !t->header) continue;
    ++r->tileCount;
    r->polyCount += t->header->polyCount - t->header->offMeshConCount;
    r->offMeshConCount += t->header->offMeshConCount;
    r->vertCount += t->header->vertCount;
    r->dataBytes += size_t(t->dataSize);
  }
}

} // namespace

void detail::bakeTileToBlob(const TileJobContext& c, const Baker::OffMeshArrays& off, int tx, int ty, TileSlot* slot) {
  PolyMeshData pm;
  if (!buildRecastTile(c, tx, ty, &pm, &slot->out)) {
    slot->failed = true;
    return;
  }
  if (pm.polyCount() == 0) return; // empty tile
  const Clock::time_point t0 = Clock::now();
  nav::TileBuildParams params;
  fillTileBuildParams(pm, off, *c.settings, &params);
  std::string why;
  if (!nav::buildTileData(params, &slot->data, &slot->dataSize, &why)) {
    slot->failed = true;
    slot->out.error = "tile creation failed: " + why;
    slot->data = nullptr;
  }
  slot->out.stageMs[int(BakeStage::TileData)] += msSince(t0);
}

std::string detail::tileName(const BakeSettings& s, int tx, int ty) {
  return s.tiled ? "tile (" + std::to_string(tx) + ", " + std::to_string(ty) + ")" : "solo mesh";
}

bool Baker::bake(const BakeSettings& s, const BakeOptions& opt, BakeReport* reportOut) {
  ReportWriter rw(reportOut);
  BakeReport& r = rw.r;
  auto fail = [&rw](const std::string& msg) { return rw.fail(msg); };
  std::string why;
  if (!s.validate(&why)) return fail("bad settings: " + why);
  if (m_input.triCount() == 0) return fail("no level loaded (the mesh has no triangles)");
  for (const std::string& w : m_impl->inputWarnings) r.log.push_back("warning: " + w);
  rcVcopy(r.bmin, m_impl->bmin);
  rcVcopy(r.bmax, m_impl->bmax);

  auto report = [&opt](BakeStage st, int done, int total) { sendProgress(opt, st, done, total); };
  report(BakeStage::Prepare, 0, 1);

  TileJobContext c = m_impl->context(m_input, s);
  c.cancel = opt.cancel;

  int tw = 1, th = 1;
  tileGrid(s, &tw, &th);
  r.tilesX = tw;
  r.tilesY = th;
  logInputAndGrid(m_input.vertCount(), m_input.triCount(), m_input, s, r.bmin, r.bmax, tw, th, &r);

  // (tiledMeshParams refuses more than 16384 tiles; the product may not fit an int before that.)
  const int tileTotal = int(std::min<long long>((long long)tw * th, INT_MAX));
  NavMeshParams params{};
  if (s.tiled) {
    if (!tiledMeshParams(m_impl->bmin, s, tw, th, &params, &why)) return fail(why);
    {
      const Clock::time_point t0 = Clock::now();
      c.grid = &m_impl->gridFor(m_input, params.tileWidth);
      r.stageMs[int(BakeStage::Prepare)] += msSince(t0);
    }
  }

  // Bake tiles on the pool: each worker takes the next tile index; results land in their slot.
  std::vector<TileSlot> slots(static_cast<size_t>(tileTotal));
  const int threads = workerThreads(opt, tileTotal);
  r.threads = threads;
  if (!s.tiled) {
    c.onStage = [&](BakeStage st) { report(st, 0, 1); };
  }
  bakeTilesOnWorkers(threads, tileTotal, opt, s.tiled, [&](int i) {
    bakeTileToBlob(c, m_offMesh, i % tw, i / tw, &slots[size_t(i)]);
    return !slots[size_t(i)].failed;
  });
  if (!mergeTileSlots(slots, [&](int i) { return tileName(s, i % tw, i / tw); }, opt, rw)) return false;

  // Add the tiles in grid order (RecastDemo's buildAllTiles order), into a new mesh.
  report(BakeStage::AddTiles, tileTotal, tileTotal);
  const Clock::time_point tAdd = Clock::now();
  auto mesh = std::make_unique<NavMesh>();
  if (!s.tiled) {
    TileSlot& slot = slots[0];
    if (!slot.data) return fail("the bake produced no walkable polygons (check the agent settings and the level's scale)");
    const Status st = mesh->init(slot.data, slot.dataSize, TILE_FREE_DATA, &why);
    if (statusFailed(st)) return fail("the navmesh refused the solo tile: " + why);
    slot.data = nullptr; // the mesh owns it
  } else {
    const Status st = mesh->init(params, &why);
    if (statusFailed(st)) return fail("navmesh init failed: " + why);
    int added = 0;
    for (int i = 0; i < tileTotal; ++i) {
      TileSlot& slot = slots[size_t(i)];
      if (!slot.data) continue;
      const Status as = mesh->addTile(slot.data, slot.dataSize, TILE_FREE_DATA, 0, nullptr, &why);
      if (statusFailed(as)) return fail("the navmesh refused " + tileName(s, i % tw, i / tw) + ": " + why);
      slot.data = nullptr;
      ++added;
    }
    if (added == 0) return fail("the bake produced no walkable polygons (check the agent settings and the level's scale)");
  }
  r.stageMs[int(BakeStage::AddTiles)] += msSince(tAdd);

  countMesh(*mesh, &r);
  m_mesh = std::move(mesh);
  m_bakedSettings = s;
  r.ok = true;
  r.totalMs = msSince(rw.start);
  r.log.push_back(doneLine(r));
  report(BakeStage::Done, tileTotal, tileTotal);
  return true;
}

bool Baker::rebuildTile(int tx, int ty, BakeReport* reportOut) {
  ReportWriter rw(reportOut);
  BakeReport& r = rw.r;
  auto fail = [&rw](const std::string& msg) { return rw.fail(msg); };
  if (!m_mesh) return fail("no navmesh to rebuild a tile of (bake first)");
  const BakeSettings& s = m_bakedSettings;
  if (!s.tiled) return fail("the current navmesh is a solo mesh; rebuild it whole");
  int tw, th;
  tileGrid(s, &tw, &th);
  r.tilesX = tw;
  r.tilesY = th;
  r.threads = 1;
  if (std::string why; !tilesInGrid(s, {{tx, ty}}, &why)) return fail(why);
  TileJobContext c = m_impl->context(m_input, s);
  c.grid = &m_impl->gridFor(m_input, float(s.tileSize) * s.cellSize);
  TileSlot slot;
  bakeTileToBlob(c, m_offMesh, tx, ty, &slot);
  for (int k = 0; k < BAKE_STAGE_COUNT; ++k) r.stageMs[k] += slot.out.stageMs[k];
  for (const std::string& l : slot.out.log) r.log.push_back(tileName(s, tx, ty) + ": " + l);
  if (slot.failed) return fail(tileName(s, tx, ty) + ": " + slot.out.error);

  const Clock::time_point tAdd = Clock::now();
  const TileRef oldRef = m_mesh->getTileRefAt(tx, ty, 0);
  std::vector<uint8_t> backup;
  if (oldRef) {
    const MeshTile* old = m_mesh->getTileByRef(oldRef);
    backup.assign(old->data, old->data + old->dataSize);
    uint8_t* freed = nullptr;
    int freedSize = 0;
    m_mesh->removeTile(oldRef, &freed, &freedSize);
  }
  std::string why;
  if (slot.data) {
    const Status st = m_mesh->addTile(slot.data, slot.dataSize, TILE_FREE_DATA, 0, nullptr, &why);
    if (statusFailed(st)) {
      // Put the old tile back at its old ref so the mesh is as before.
      if (oldRef) {
        uint8_t* copy = new uint8_t[backup.size()];
        std::memcpy(copy, backup.data(), backup.size());
        if (statusFailed(m_mesh->addTile(copy, int(backup.size()), TILE_FREE_DATA, oldRef, nullptr))) delete[] copy;
      }
      return fail("the navmesh refused the rebuilt " + tileName(s, tx, ty) + ": " + why);
    }
    slot.data = nullptr;
  }
  r.stageMs[int(BakeStage::AddTiles)] += msSince(tAdd);
  countMesh(*m_mesh, &r);
  r.ok = true;
  r.totalMs = msSince(rw.start);
  r.log.push_back(tileName(s, tx, ty) + (m_mesh->getTileRefAt(tx, ty, 0) ? " rebuilt" : " is empty now (removed)"));
  return true;
}

} // namespace nav::bake

namespace nav::bake {

void editBounds(const ConvexVolume& v, float* bmin, float* bmax) {
  bmin[0] = bmin[2] = 1e30f;
  bmax[0] = bmax[2] = -1e30f;
  for (size_t i = 0; i + 2 < v.verts.size(); i += 3) {
    bmin[0] = std::min(bmin[0], v.verts[i]);
    bmax[0] = std::max(bmax[0], v.verts[i]);
    bmin[2] = std::min(bmin[2], v.verts[i + 2]);
    bmax[2] = std::max(bmax[2], v.verts[i + 2]);
  }
  bmin[1] = v.hmin;
  bmax[1] = v.hmax;
}

void editBounds(const OffMeshLink& l, float* bmin, float* bmax) {
  for (int i = 0; i < 3; ++i) {
    bmin[i] = std::min(l.start[i], l.end[i]) - l.radius;
    bmax[i] = std::max(l.start[i], l.end[i]) + l.radius;
  }
}

RebakedTile& RebakedTile::operator=(RebakedTile&& o) noexcept {
  if (this != &o) {
    delete[] data;
    tile = o.tile;
    data = o.data;
    dataSize = o.dataSize;
    o.data = nullptr;
  }
  return *this;
}

bool replaceTiles(NavMesh& mesh, std::vector<RebakedTile>& tiles, std::string* why) {
  // What each cell held before, to put back on a failure: its ref (salt included) and a copy of
  // its blob (removeTile hands the blob back, or frees it when the mesh owned it).
  struct Undo {
    TileCoord tile;
    TileRef ref = 0;
    std::vector<uint8_t> bytes;
    TileRef added = 0;
  };
  std::vector<Undo> undo;
  undo.reserve(tiles.size());
  auto rollBack = [&]() {
    for (auto u = undo.rbegin(); u != undo.rend(); ++u) {
      if (u->added) mesh.removeTile(u->added, nullptr, nullptr);
      if (!u->ref) continue;
      uint8_t* copy = new uint8_t[u->bytes.size()];
      std::memcpy(copy, u->bytes.data(), u->bytes.size());
      if (statusFailed(mesh.addTile(copy, int(u->bytes.size()), TILE_FREE_DATA, u->ref, nullptr))) delete[] copy;
    }
  };
  for (RebakedTile& t : tiles) {
    Undo u;
    u.tile = t.tile;
    u.ref = mesh.getTileRefAt(t.tile.x, t.tile.y, 0);
    if (u.ref) {
      const MeshTile* old = mesh.getTileByRef(u.ref);
      u.bytes.assign(old->data, old->data + old->dataSize);
      mesh.removeTile(u.ref, nullptr, nullptr);
    }
    if (t.data) {
      std::string refused;
      TileRef added = 0;
      if (statusFailed(mesh.addTile(t.data, t.dataSize, TILE_FREE_DATA, 0, &added, &refused))) {
        undo.push_back(std::move(u));
        rollBack();
        if (why)
          *why = "the navmesh refused the rebuilt tile (" + std::to_string(t.tile.x) + ", " + std::to_string(t.tile.y) +
                 "): " + refused;
        return false;
      }
      u.added = added;
      t.data = nullptr; // the mesh owns it now
    }
    undo.push_back(std::move(u));
  }
  return true;
}

void Baker::tilesTouching(const BakeSettings& s, const float* bmin, const float* bmax, std::vector<TileCoord>* out) const {
  out->clear();
  if (!s.tiled) {
    out->push_back({0, 0});
    return;
  }
  int tw = 0, th = 0;
  tileGrid(s, &tw, &th);
  // The grid is regular: find the candidate range from the tile width, then test each tile's own
  // rectangle (the same float arithmetic the tile build uses) so no border case is missed.
  const float tileW = float(s.tileSize) * s.cellSize;
  const float border = (std::ceil(s.agentRadius / s.cellSize) + 3.0f) * s.cellSize + tileW;
  auto cell = [&](float v, float origin, int n) {
    const float c = std::floor((v - origin) / tileW);
    return int(std::clamp(c, -1.0f, float(n)));
  };
  const int x0 = std::max(0, cell(bmin[0] - border, m_impl->bmin[0], tw)), x1 = std::min(tw - 1, cell(bmax[0] + border, m_impl->bmin[0], tw));
  const int y0 = std::max(0, cell(bmin[2] - border, m_impl->bmin[2], th)), y1 = std::min(th - 1, cell(bmax[2] + border, m_impl->bmin[2], th));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      float qmin[2], qmax[2];
      tileQueryRect(m_impl->bmin, m_impl->bmax, s, x, y, qmin, qmax);
      if (bmax[0] < qmin[0] || bmin[0] > qmax[0] || bmax[2] < qmin[1] || bmin[2] > qmax[1]) continue;
      out->push_back({x, y});
    }
}

bool Baker::bakeTiles(const BakeSettings& s, const std::vector<TileCoord>& tiles, const BakeOptions& opt,
                      std::vector<RebakedTile>* out, BakeReport* reportOut) {
  ReportWriter rw(reportOut);
  BakeReport& r = rw.r;
  auto fail = [&rw, out](const std::string& msg) {
    out->clear();
    return rw.fail(msg);
  };
  out->clear();
  std::string why;
  if (!s.validate(&why)) return fail("bad settings: " + why);
  if (m_input.triCount() == 0) return fail("no level loaded (the mesh has no triangles)");
  int tw = 1, th = 1;
  tileGrid(s, &tw, &th);
  r.tilesX = tw;
  r.tilesY = th;
  rcVcopy(r.bmin, m_impl->bmin);
  rcVcopy(r.bmax, m_impl->bmax);
  if (!tilesInGrid(s, tiles, &why)) return fail(why);
  TileJobContext c = m_impl->context(m_input, s);
  c.cancel = opt.cancel;
  if (s.tiled) c.grid = &m_impl->gridFor(m_input, float(s.tileSize) * s.cellSize);

  const int total = int(tiles.size());
  std::vector<TileSlot> slots(tiles.size());
  const int threads = workerThreads(opt, total);
  r.threads = threads;
  bakeTilesOnWorkers(threads, total, opt, true, [&](int i) {
    bakeTileToBlob(c, m_offMesh, tiles[size_t(i)].x, tiles[size_t(i)].y, &slots[size_t(i)]);
    return !slots[size_t(i)].failed;
  });
  if (!mergeTileSlots(slots, [&](int i) { return tileName(s, tiles[size_t(i)].x, tiles[size_t(i)].y); }, opt, rw))
    return false;
  out->resize(tiles.size());
  for (int i = 0; i < total; ++i) {
    RebakedTile& t = (*out)[size_t(i)];
    t.tile = tiles[size_t(i)];
    t.data = slots[size_t(i)].data;
    t.dataSize = slots[size_t(i)].dataSize;
    slots[size_t(i)].data = nullptr;
  }
  r.tileCount = total;
  r.ok = true;
  r.totalMs = msSince(rw.start);
  return true;
}

} // namespace nav::bake
