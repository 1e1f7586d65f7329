// LayerBake.cpp: level -> tile cache layers (RecastDemo TempObstacles' rasterizeTileLayers).
#include "nav/bake/LayerBake.h"

#include "nav/bake/BakeInternal.h"
#include "nav/bake/RecastUtil.h"
#include "nav/bake/TriangleGrid.h"
#include "nav/base/BitMath.h"

#include <Recast.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

namespace nav::bake {

using namespace detail;

namespace {


/// The agent in cells, as the normal bake's rcConfig.
struct CellAgent {
  int walkableHeight, walkableClimb, walkableRadius, borderSize;
};
CellAgent cellAgent(const BakeSettings& s) {
  CellAgent a;
  a.walkableHeight = int(std::ceil(s.agentHeight / s.cellHeight));
  a.walkableClimb = int(std::floor(s.agentMaxClimb / s.cellHeight));
  a.walkableRadius = int(std::ceil(s.agentRadius / s.cellSize));
  a.borderSize = a.walkableRadius + 3;
  return a;
}

/// One tile's layers.
struct LayerSlot {
  std::vector<std::vector<uint8_t>> blobs;
  TileOutput out;
  bool failed = false;
};

struct Job {
  const BakeInput* input;
  const BakeSettings* s;
  const TriangleGrid* grid;
  float bmin[3], bmax[3];
  uint32_t compressor;
  const std::atomic<bool>* cancel;
  const uint8_t* triRules; ///< [input->triCount()] area rule codes, or null (no rules)
};

/// Rasterizes tile (tx, ty) with its border and turns its heightfield layers into blobs.
void bakeTileLayers(const Job& j, int tx, int ty, LayerSlot* slot) {
  const BakeSettings& s = *j.s;
  const BakeInput& in = *j.input;
  TileOutput* out = &slot->out;
  RcLog ctx;
  struct LogMover {
    RcLog& ctx;
    TileOutput* out;
    ~LogMover() {
      for (auto& l : ctx.lines) out->log.push_back(std::move(l));
    }
  } logMover{ctx, out};
  auto fail = [&](const std::string& msg) {
    out->error = msg;
    slot->failed = true;
  };
  TileStages stages{out, j.cancel};
  auto stage = [&](BakeStage next) {
    if (stages.next(next)) return true;
    slot->failed = true;
    return false;
  };

  const CellAgent a = cellAgent(s);
  float tbmin[3], tbmax[3];
  tileBounds(j.bmin, j.bmax, s, tx, ty, tbmin, tbmax);
  const int size = s.tileSize + a.borderSize * 2;
  float cbmin[3] = {tbmin[0], tbmin[1], tbmin[2]}, cbmax[3] = {tbmax[0], tbmax[1], tbmax[2]};
  cbmin[0] -= float(a.borderSize) * s.cellSize;
  cbmin[2] -= float(a.borderSize) * s.cellSize;
  cbmax[0] += float(a.borderSize) * s.cellSize;
  cbmax[2] += float(a.borderSize) * s.cellSize;

  const float qmin[2] = {cbmin[0], cbmin[2]}, qmax[2] = {cbmax[0], cbmax[2]};
  std::vector<int> ids;
  j.grid->query(qmin, qmax, ids);
  if (ids.empty()) return; // nothing here
  std::vector<int> tris(ids.size() * 3);
  for (size_t i = 0; i < ids.size(); ++i) std::memcpy(&tris[i * 3], &in.tris[size_t(ids[i]) * 3], 3 * sizeof(int));
  const int ntris = int(ids.size());
  std::vector<uint8_t> tileRules;
  const uint8_t* rules = gatherRules(j.triRules, ids, &tileRules);

  if (!stage(BakeStage::Rasterize)) return;
  std::unique_ptr<rcHeightfield, HeightfieldDel> solid(rcAllocHeightfield());
  if (!solid || !rcCreateHeightfield(&ctx, *solid, size, size, cbmin, cbmax, s.cellSize, s.cellHeight))
    return fail("out of memory for the heightfield");
  {
    std::vector<unsigned char> areas(size_t(ntris), 0);
    markTriangleAreas(&ctx, s.agentMaxSlope, in.verts.data(), in.vertCount(), tris.data(), ntris, rules, areas.data());
    if (!rcRasterizeTriangles(&ctx, in.verts.data(), in.vertCount(), tris.data(), areas.data(), ntris, *solid, a.walkableClimb))
      return fail("could not rasterize the triangles");
  }
  tris = std::vector<int>();

  if (!stage(BakeStage::Filter)) return;
  if (s.filterLowHangingObstacles) rcFilterLowHangingWalkableObstacles(&ctx, a.walkableClimb, *solid);
  if (s.filterLedgeSpans) rcFilterLedgeSpans(&ctx, a.walkableHeight, a.walkableClimb, *solid);
  if (s.filterWalkableLowHeightSpans) rcFilterWalkableLowHeightSpans(&ctx, a.walkableHeight, *solid);

  if (!stage(BakeStage::CompactHeightfield)) return;
  std::unique_ptr<rcCompactHeightfield, CompactDel> chf(rcAllocCompactHeightfield());
  if (!chf || !rcBuildCompactHeightfield(&ctx, a.walkableHeight, a.walkableClimb, *solid, *chf))
    return fail("could not build the compact heightfield");
  solid.reset();
  if (rules) restoreRuleAreas(*chf);

  if (!stage(BakeStage::Erode)) return;
  if (!rcErodeWalkableArea(&ctx, a.walkableRadius, *chf)) return fail("could not erode the walkable area");

  if (!stage(BakeStage::MarkAreas)) return;
  for (const ConvexVolume& v : in.volumes) {
    const unsigned char area = v.area == AREA_GROUND ? RC_WALKABLE_AREA : v.area;
    rcMarkConvexPolyArea(&ctx, v.verts.data(), int(v.verts.size() / 3), v.hmin, v.hmax, area, *chf);
  }

  // Layers take the place of regions; their blobs the place of tile data.
  if (!stage(BakeStage::Regions)) return;
  std::unique_ptr<rcHeightfieldLayerSet, LayerSetDel> lset(rcAllocHeightfieldLayerSet());
  if (!lset || !rcBuildHeightfieldLayers(&ctx, *chf, a.borderSize, a.walkableHeight, *lset))
    return fail("could not build the heightfield layers");
  chf.reset();

  if (!stage(BakeStage::TileData)) return;
  if (lset->nlayers > tilecache::TCACHE_MAX_LAYERS_PER_TILE)
    return fail("the tile has " + std::to_string(lset->nlayers) + " layers; a tile cache file holds at most " +
                std::to_string(tilecache::TCACHE_MAX_LAYERS_PER_TILE) + " per tile (use smaller tiles)");
  std::unique_ptr<tilecache::TileCacheCompressor> comp = tilecache::makeCompressor(j.compressor);
  if (!comp) return fail("unknown compressor");
  for (int i = 0; i < lset->nlayers; ++i) {
    const rcHeightfieldLayer& layer = lset->layers[i];
    tilecache::TileCacheLayerHeader h;
    std::memset(&h, 0, sizeof h);
    h.magic = tilecache::TILECACHE_MAGIC;
    h.version = tilecache::TILECACHE_VERSION;
    h.tx = tx;
    h.ty = ty;
    h.tlayer = i;
    rcVcopy(h.bmin, layer.bmin);
    rcVcopy(h.bmax, layer.bmax);
    h.width = uint8_t(layer.width);
    h.height = uint8_t(layer.height);
    h.minx = uint8_t(layer.minx);
    h.maxx = uint8_t(layer.maxx);
    h.miny = uint8_t(layer.miny);
    h.maxy = uint8_t(layer.maxy);
    h.hmin = uint16_t(layer.hmin);
    h.hmax = uint16_t(layer.hmax);
    uint8_t* data = nullptr;
    int dataSize = 0;
    const Status st = tilecache::buildTileCacheLayer(comp.get(), &h, layer.heights, layer.areas, layer.cons, &data, &dataSize);
    if (statusFailed(st) || !data) {
      char buf[128];
      return fail("layer " + std::to_string(i) + ": compression failed (" + statusToString(st, buf, sizeof buf) + ")");
    }
    slot->blobs.emplace_back(data, data + dataSize);
    delete[] data;
  }
  stage(BakeStage::Done);
}

} // namespace

bool bakeLayers(const BakeInput& input, const BakeSettings& settingsIn, const BakeOptions& opt,
                tilecache::TileCacheFileData* outData, BakeReport* reportOut, const LayerBakeOptions& layerOptions) {
  ReportWriter rw(reportOut);
  BakeReport& r = rw.r;
  auto fail = [&rw](const std::string& msg) { return rw.fail(msg); };
  BakeSettings s = settingsIn;
  s.tiled = true;
  std::string why;
  if (!s.validate(&why)) return fail("bad settings: " + why);
  if (s.tileSize > 255)
    return fail("tileSize " + std::to_string(s.tileSize) + " is too large for tile cache layers (at most 255 cells)");
  if (!tilecache::makeCompressor(layerOptions.compressor)) return fail("unknown compressor id " + std::to_string(layerOptions.compressor));
  std::vector<std::string> warnings;
  if (!input.validate(&why, &warnings)) return fail(why);
  for (const std::string& w : warnings) r.log.push_back("warning: " + w);
  sendProgress(opt, BakeStage::Prepare, 0, 1);

  float bmin[3], bmax[3];
  rcCalcBounds(input.verts.data(), input.vertCount(), bmin, bmax);
  rcVcopy(r.bmin, bmin);
  rcVcopy(r.bmax, bmax);
  int tw = 1, th = 1;
  tileGridFor(bmin, bmax, s, &tw, &th);
  r.tilesX = tw;
  r.tilesY = th;
  logInputAndGrid(input.vertCount(), input.triCount(), input, s, bmin, bmax, tw, th, &r, true);
  const long long cells = (long long)tw * th;
  if (cells * LAYER_BAKE_EXPECTED_LAYERS > (1 << 22))
    return fail("the level needs " + std::to_string(tw) + " x " + std::to_string(th) +
                " tiles; a tile cache holds at most 1048576 (raise tileSize or cellSize)");
  const int tileTotal = int(cells);

  const Clock::time_point tPrep = Clock::now();
  TriangleGrid grid;
  grid.build(input.verts.data(), input.tris.data(), input.triCount(), float(s.tileSize) * s.cellSize);
  r.stageMs[int(BakeStage::Prepare)] += msSince(tPrep);

  std::vector<uint8_t> triRules;
  applyAreaRules(input.areaRules, input.groups, input.triGroup, size_t(input.triCount()), &triRules);
  Job job{&input, &s, &grid, {bmin[0], bmin[1], bmin[2]}, {bmax[0], bmax[1], bmax[2]}, layerOptions.compressor, opt.cancel,
          triRules.empty() ? nullptr : triRules.data()};
  std::vector<LayerSlot> slots(static_cast<size_t>(tileTotal));
  const int threads = workerThreads(opt, tileTotal);
  r.threads = threads;
  bakeTilesOnWorkers(threads, tileTotal, opt, true, [&](int i) {
    bakeTileLayers(job, i % tw, i / tw, &slots[size_t(i)]);
    return !slots[size_t(i)].failed;
  });
  if (!mergeTileSlots(slots, [&](int i) { return tileName(s, i % tw, i / tw); }, opt, rw)) return false;
  sendProgress(opt, BakeStage::AddTiles, tileTotal, tileTotal);

  tilecache::TileCacheFileData d;
  d.compressor = layerOptions.compressor;
  size_t layerCount = 0;
  for (const LayerSlot& slot : slots) layerCount += slot.blobs.size();
  if (layerCount == 0) return fail("the bake produced no walkable layers (check the agent settings and the level's scale)");
  const CellAgent a = cellAgent(s);
  tilecache::TileCacheParams& p = d.params;
  std::memset(&p, 0, sizeof p);
  rcVcopy(p.orig, bmin);
  p.cs = s.cellSize;
  p.ch = s.cellHeight;
  p.width = s.tileSize;
  p.height = s.tileSize;
  p.walkableHeight = s.agentHeight;
  p.walkableRadius = s.agentRadius;
  p.walkableClimb = s.agentMaxClimb;
  p.maxSimplificationError = s.edgeMaxError;
  p.maxTiles = int(std::max<long long>(cells * LAYER_BAKE_EXPECTED_LAYERS, (long long)layerCount));
  p.maxObstacles = LAYER_BAKE_MAX_OBSTACLES;
  const int tileBits = base::tileBitsFor(uint32_t(cells * LAYER_BAKE_EXPECTED_LAYERS), 14);
  NavMeshParams& m = d.meshParams;
  m = NavMeshParams{};
  rcVcopy(m.orig, bmin);
  m.tileWidth = float(s.tileSize) * s.cellSize;
  m.tileHeight = float(s.tileSize) * s.cellSize;
  m.maxTiles = 1 << tileBits;
  m.maxPolys = 1 << (22 - tileBits);
  if ((long long)layerCount > m.maxTiles)
    return fail("the level has " + std::to_string(layerCount) + " layers; a navmesh with 32-bit refs holds at most " +
                std::to_string(m.maxTiles) + " tiles (raise tileSize or cellSize)");
  rcVcopy(d.bake.bmin, bmin);
  rcVcopy(d.bake.bmax, bmax);
  d.bake.tilesX = tw;
  d.bake.tilesY = th;
  d.bake.tileSize = s.tileSize;
  d.bake.borderSize = a.borderSize;
  d.bake.agentMaxSlope = s.agentMaxSlope;
  d.bake.filters = (s.filterLowHangingObstacles ? tilecache::TCACHE_FILTER_LOW_HANGING : 0u) |
                   (s.filterLedgeSpans ? tilecache::TCACHE_FILTER_LEDGES : 0u) |
                   (s.filterWalkableLowHeightSpans ? tilecache::TCACHE_FILTER_LOW_HEIGHT : 0u);
  d.bake.volumeCount = int(input.volumes.size());
  d.walkableArea = AREA_GROUND;
  for (int i = 0; i < 64; ++i) d.areaFlags[i] = flagsForArea(uint8_t(i));
  for (size_t i = 0; i < input.links.size(); ++i) {
    const OffMeshLink& l = input.links[i];
    tilecache::TileCacheLink t;
    rcVcopy(t.start, l.start);
    rcVcopy(t.end, l.end);
    t.radius = l.radius;
    t.flags = l.flags;
    t.area = l.area;
    t.dir = l.bidirectional ? 1 : 0;
    t.userId = l.userId ? l.userId : uint32_t(1000 + i);
    d.links.push_back(t);
  }
  d.layers.reserve(layerCount);
  size_t bytes = 0;
  for (LayerSlot& slot : slots)
    for (std::vector<uint8_t>& b : slot.blobs) {
      bytes += b.size();
      d.layers.push_back(std::move(b));
    }
  r.tileCount = int(layerCount);
  r.dataBytes = bytes;
  r.ok = true;
  r.totalMs = msSince(rw.start);
  std::ostringstream l;
  l << "done: " << layerCount << " layers in " << tw << " x " << th << " tiles, " << bytes << " compressed bytes ("
    << tilecache::compressorName(d.compressor) << "), " << d.links.size() << " off-mesh links, in " << r.totalMs << " ms on "
    << r.threads << " thread(s)";
  r.log.push_back(l.str());
  *outData = std::move(d);
  sendProgress(opt, BakeStage::Done, tileTotal, tileTotal);
  return true;
}

} // namespace nav::bake
