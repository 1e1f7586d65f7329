// BuilderTest.cpp: nav::tilecache's layer builder against Debian's DetourTileCacheBuilder 1.5.1.
// Real Recast layers (LayerTestUtil.h) of the default level and, when present, ../shared's
// nav_test: compressed blobs byte for byte, then stage by stage on the same decompressed layer
// (obstacle marking of each kind, regions, contours, poly mesh) and the final tile bytes of
// nav::buildTileData against dtCreateNavMeshData. Plus refusal of corrupt and hostile blobs.
#include "tests/tilecache/DualTileCache.h"
#include "tests/tilecache/LayerTestUtil.h"

#include "nav/TileBuilder.h"
#include "nav/tilecache/Lz4Compressor.h"
#include "nav/tilecache/TileCacheBuilder.h"

#include <DetourAlloc.h>
#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourTileCacheBuilder.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace tc = nav::tilecache;

namespace {

static_assert(sizeof(tc::TileCacheLayerHeader) == sizeof(dtTileCacheLayerHeader), "header layout");
static_assert(tc::TILECACHE_MAGIC == DT_TILECACHE_MAGIC && tc::TILECACHE_VERSION == DT_TILECACHE_VERSION, "magic");

using DetourCompressor = tctest::DtCompressorAdapter;

/// Levels are built once per test binary run.
const tctest::LayerLevel *levelLayers(const std::string &path) {
  static std::map<std::string, std::unique_ptr<tctest::LayerLevel>> cache;
  auto it = cache.find(path);
  if (it != cache.end())
    return it->second.get();
  auto lev = std::make_unique<tctest::LayerLevel>();
  std::string why;
  if (!tctest::buildLevelLayers(path, *lev, &why)) {
    ADD_FAILURE() << path << ": " << why;
    lev.reset();
  }
  return (cache[path] = std::move(lev)).get();
}

std::vector<uint8_t> ourBlob(tc::TileCacheCompressor &comp, const tctest::RecastLayer &l) {
  tc::TileCacheLayerHeader h;
  std::memcpy(&h, &l.header, sizeof(h));
  uint8_t *data = nullptr;
  int size = 0;
  const nav::Status st =
      tc::buildTileCacheLayer(&comp, &h, l.heights.data(), l.areas.data(), l.cons.data(), &data, &size);
  EXPECT_TRUE(nav::statusSucceeded(st));
  std::vector<uint8_t> out(data, data + size);
  delete[] data;
  return out;
}

std::vector<uint8_t> detourBlob(tc::TileCacheCompressor &comp, const tctest::RecastLayer &l) {
  DetourCompressor dc(&comp);
  dtTileCacheLayerHeader h = l.header;
  unsigned char *data = nullptr;
  int size = 0;
  const dtStatus st = dtBuildTileCacheLayer(&dc, &h, l.heights.data(), l.areas.data(), l.cons.data(), &data, &size);
  EXPECT_TRUE(dtStatusSucceed(st));
  std::vector<uint8_t> out(data, data + size);
  dtFree(data);
  return out;
}

long firstDiff(const uint8_t *a, const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i])
      return long(i);
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Obstacles: placed from each layer's own cells so they land on walkable ground, at its middle
// and across its borders (corners and edges, where neighbouring tiles share the obstacle).
// ---------------------------------------------------------------------------------------------

enum class ObKind { Cylinder, Box, OrientedBox };

struct Obstacle {
  ObKind kind;
  float pos[3];  ///< Cylinder: bottom centre. Box: min. Oriented box: centre.
  float size[3]; ///< Cylinder: (radius, height, -). Box: max. Oriented box: half extents.
  float yaw = 0; ///< Oriented box only.
  const char *what;
};

/// World position of the walkable cell nearest the layer-local cell (cx, cz), or false.
bool walkableNear(const tctest::RecastLayer &l, float cs, float ch, float cx, float cz, float *out) {
  const int w = l.header.width, h = l.header.height;
  float best = 1e30f;
  int bi = -1;
  for (int z = 0; z < h; ++z)
    for (int x = 0; x < w; ++x) {
      if (l.areas[size_t(x + z * w)] == 0)
        continue;
      const float d = (float(x) - cx) * (float(x) - cx) + (float(z) - cz) * (float(z) - cz);
      if (d < best) {
        best = d;
        bi = x + z * w;
      }
    }
  if (bi < 0)
    return false;
  out[0] = l.header.bmin[0] + (float(bi % w) + 0.5f) * cs;
  out[1] = l.header.bmin[1] + float(l.heights[size_t(bi)]) * ch;
  out[2] = l.header.bmin[2] + (float(bi / w) + 0.5f) * cs;
  return true;
}

std::vector<Obstacle> obstaclesFor(const tctest::RecastLayer &l, float cs, float ch) {
  std::vector<Obstacle> obs;
  const float w = l.header.width, h = l.header.height;
  float p[3];
  auto cyl = [&](float cx, float cz, float r, const char *what) {
    if (!walkableNear(l, cs, ch, cx, cz, p))
      return;
    obs.push_back({ObKind::Cylinder, {p[0], p[1] - 0.5f, p[2]}, {r, 2.0f, 0}, 0, what});
  };
  auto box = [&](float cx, float cz, float hx, float hz, const char *what) {
    if (!walkableNear(l, cs, ch, cx, cz, p))
      return;
    obs.push_back({ObKind::Box, {p[0] - hx, p[1] - 0.5f, p[2] - hz}, {p[0] + hx, p[1] + 1.5f, p[2] + hz}, 0, what});
  };
  auto obox = [&](float cx, float cz, float hx, float hz, float yaw, const char *what) {
    if (!walkableNear(l, cs, ch, cx, cz, p))
      return;
    obs.push_back({ObKind::OrientedBox, {p[0], p[1] + 0.5f, p[2]}, {hx, 1.0f, hz}, yaw, what});
  };
  cyl(w * 0.5f, h * 0.5f, 1.0f, "cylinder, middle");
  cyl(0, 0, 1.5f, "cylinder, -x -z corner");
  cyl(w, h * 0.3f, 0.8f, "cylinder, +x edge");
  cyl(w * 0.7f, 0, 2.2f, "cylinder, -z edge, wide");
  box(w * 0.3f, h * 0.6f, 1.2f, 0.7f, "box, inside");
  box(w, h, 1.0f, 1.0f, "box, +x +z corner");
  box(0, h * 0.5f, 0.9f, 2.5f, "box, -x edge");
  obox(w * 0.6f, h * 0.4f, 1.5f, 0.6f, 0.7f, "oriented box, inside, yaw 0.7");
  obox(w * 0.5f, h, 2.0f, 0.8f, 2.3f, "oriented box, +z edge, yaw 2.3");
  obox(0, h, 1.2f, 1.2f, -0.4f, "oriented box, -x +z corner, yaw -0.4");
  return obs;
}

void rotAuxFor(float yaw, float *rotAux) {
  // As dtTileCache::addBoxObstacle.
  const float coshalf = cosf(0.5f * yaw);
  const float sinhalf = sinf(-0.5f * yaw);
  rotAux[0] = coshalf * sinhalf;
  rotAux[1] = coshalf * coshalf - 0.5f;
}

void markOurs(tc::TileCacheLayer &layer, const float *orig, float cs, float ch, const Obstacle &o) {
  nav::Status st = 0;
  if (o.kind == ObKind::Cylinder) {
    st = tc::markCylinderArea(layer, orig, cs, ch, o.pos, o.size[0], o.size[1], 0);
  } else if (o.kind == ObKind::Box) {
    st = tc::markBoxArea(layer, orig, cs, ch, o.pos, o.size, 0);
  } else {
    float rotAux[2];
    rotAuxFor(o.yaw, rotAux);
    st = tc::markBoxArea(layer, orig, cs, ch, o.pos, o.size, rotAux, 0);
  }
  EXPECT_TRUE(nav::statusSucceeded(st));
}

void markDetour(dtTileCacheLayer &layer, const float *orig, float cs, float ch, const Obstacle &o) {
  if (o.kind == ObKind::Cylinder) {
    dtMarkCylinderArea(layer, orig, cs, ch, o.pos, o.size[0], o.size[1], 0);
  } else if (o.kind == ObKind::Box) {
    dtMarkBoxArea(layer, orig, cs, ch, o.pos, o.size, 0);
  } else {
    float rotAux[2];
    rotAuxFor(o.yaw, rotAux);
    dtMarkBoxArea(layer, orig, cs, ch, o.pos, o.size, rotAux, 0);
  }
}

/// The flags a mesh process might set: any rule will do as long as both sides use it.
uint16_t flagsForArea(uint8_t area) { return area == 1 ? 2 : area == 3 ? 5 : 1; }

/// Counts of what one level's comparisons went through, so a test can say it compared something.
struct StageCounts {
  int layers = 0, marked = 0, regions = 0, contours = 0, polys = 0, tiles = 0, emptyMeshes = 0;
};

/// Runs one layer blob through both pipelines with the given obstacles and compares each stage.
/// Returns false (after recording failures) on the first difference.
bool compareStages(const tctest::LayerLevel &lev, const std::vector<uint8_t> &blob,
                   const std::vector<Obstacle> &obstacles, tc::TileCacheCompressor &comp, tc::TileCacheArena &arena,
                   StageCounts &counts, const std::string &label) {
  DetourCompressor dcomp(&comp);
  dtTileCacheAlloc dalloc;
  arena.reset();

  tc::TileCacheLayer *ours = nullptr;
  dtTileCacheLayer *theirs = nullptr;
  std::vector<uint8_t> blobCopy = blob; // Detour takes a non-const pointer
  EXPECT_TRUE(nav::statusSucceeded(tc::decompressTileCacheLayer(&arena, &comp, blob.data(), int(blob.size()), &ours)))
      << label;
  EXPECT_TRUE(
      dtStatusSucceed(dtDecompressTileCacheLayer(&dalloc, &dcomp, blobCopy.data(), int(blobCopy.size()), &theirs)))
      << label;
  if (!ours || !theirs) {
    if (theirs)
      dtFreeTileCacheLayer(&dalloc, theirs);
    return false;
  }
  struct DetourGuard {
    dtTileCacheAlloc *a;
    dtTileCacheLayer *layer = nullptr;
    dtTileCacheContourSet *cset = nullptr;
    dtTileCachePolyMesh *mesh = nullptr;
    ~DetourGuard() {
      dtFreeTileCachePolyMesh(a, mesh);
      dtFreeTileCacheContourSet(a, cset);
      dtFreeTileCacheLayer(a, layer);
    }
  } guard{&dalloc, theirs};

  const int w = ours->header->width, h = ours->header->height;
  const size_t n = size_t(w) * size_t(h);
  EXPECT_EQ(0, std::memcmp(ours->header, theirs->header, sizeof(dtTileCacheLayerHeader))) << label;
  EXPECT_EQ(0, std::memcmp(ours->heights, theirs->heights, n)) << label << ": heights";
  EXPECT_EQ(0, std::memcmp(ours->areas, theirs->areas, n)) << label << ": areas";
  EXPECT_EQ(0, std::memcmp(ours->cons, theirs->cons, n)) << label << ": cons";

  // dtTileCache marks with the layer header's bmin as origin.
  const float *orig = theirs->header->bmin;
  for (const Obstacle &o : obstacles) {
    markOurs(*ours, orig, lev.cs, lev.ch, o);
    markDetour(*theirs, orig, lev.cs, lev.ch, o);
    const long d = firstDiff(ours->areas, theirs->areas, n);
    if (d >= 0) {
      ADD_FAILURE() << label << ": areas differ after " << o.what << " at cell " << d;
      return false;
    }
  }
  if (!obstacles.empty())
    counts.marked++;

  const int climb = lev.tileCacheClimbVx();
  const nav::Status rs = tc::buildTileCacheRegions(&arena, *ours, climb);
  const dtStatus drs = dtBuildTileCacheRegions(&dalloc, *theirs, climb);
  EXPECT_EQ(nav::Status(drs), rs) << label << ": regions status";
  if (nav::statusFailed(rs) || dtStatusFailed(drs))
    return rs == nav::Status(drs);
  EXPECT_EQ(theirs->regCount, ours->regCount) << label;
  if (const long d = firstDiff(ours->regs, theirs->regs, n); d >= 0) {
    ADD_FAILURE() << label << ": regions differ at cell " << d << " (" << int(ours->regs[d]) << " vs "
                  << int(theirs->regs[d]) << ")";
    return false;
  }
  counts.regions++;

  tc::TileCacheContourSet *ocs = tc::allocTileCacheContourSet(&arena);
  guard.cset = dtAllocTileCacheContourSet(&dalloc);
  const nav::Status cs = tc::buildTileCacheContours(&arena, *ours, climb, lev.maxSimplificationError, *ocs);
  const dtStatus dcs = dtBuildTileCacheContours(&dalloc, *theirs, climb, lev.maxSimplificationError, *guard.cset);
  EXPECT_EQ(nav::Status(dcs), cs) << label << ": contours status";
  if (nav::statusFailed(cs) || dtStatusFailed(dcs))
    return cs == nav::Status(dcs);
  if (ocs->nconts != guard.cset->nconts) {
    ADD_FAILURE() << label << ": contour count " << ocs->nconts << " vs " << guard.cset->nconts;
    return false;
  }
  for (int i = 0; i < ocs->nconts; ++i) {
    const tc::TileCacheContour &a = ocs->conts[i];
    const dtTileCacheContour &b = guard.cset->conts[i];
    if (a.nverts != b.nverts || a.reg != b.reg || a.area != b.area ||
        (a.nverts > 0 && std::memcmp(a.verts, b.verts, size_t(a.nverts) * 4) != 0)) {
      ADD_FAILURE() << label << ": contour " << i << " differs (nverts " << a.nverts << " vs " << b.nverts << ")";
      return false;
    }
  }
  counts.contours++;

  tc::TileCachePolyMesh *om = tc::allocTileCachePolyMesh(&arena);
  guard.mesh = dtAllocTileCachePolyMesh(&dalloc);
  const nav::Status ms = tc::buildTileCachePolyMesh(&arena, *ocs, *om);
  const dtStatus dms = dtBuildTileCachePolyMesh(&dalloc, *guard.cset, *guard.mesh);
  EXPECT_EQ(nav::Status(dms), ms) << label << ": poly mesh status";
  if (nav::statusFailed(ms) || dtStatusFailed(dms))
    return ms == nav::Status(dms);
  const dtTileCachePolyMesh &dm = *guard.mesh;
  if (om->nvp != dm.nvp || om->nverts != dm.nverts || om->npolys != dm.npolys) {
    ADD_FAILURE() << label << ": mesh sizes: verts " << om->nverts << " vs " << dm.nverts << ", polys " << om->npolys
                  << " vs " << dm.npolys;
    return false;
  }
  if (std::memcmp(om->verts, dm.verts, sizeof(uint16_t) * size_t(om->nverts) * 3) != 0 ||
      std::memcmp(om->polys, dm.polys, sizeof(uint16_t) * size_t(om->npolys) * size_t(om->nvp) * 2) != 0 ||
      std::memcmp(om->areas, dm.areas, size_t(om->npolys)) != 0 ||
      std::memcmp(om->flags, dm.flags, sizeof(uint16_t) * size_t(om->npolys)) != 0) {
    ADD_FAILURE() << label << ": mesh arrays differ";
    return false;
  }
  counts.polys += om->npolys;
  if (om->npolys == 0) {
    counts.emptyMeshes++;
    return true; // dtTileCache removes the tile; nothing to build
  }

  // The tile, as dtTileCache::buildNavMeshTile makes it (flags set by a mesh process).
  for (int i = 0; i < om->npolys; ++i) {
    om->flags[i] = flagsForArea(om->areas[i]);
    dm.flags[i] = flagsForArea(dm.areas[i]);
  }
  const dtTileCacheLayerHeader &hd = *theirs->header;
  nav::TileBuildParams p;
  tctest::layerTileParams(p, *om, om->nvp, hd, lev);
  dtNavMeshCreateParams dp;
  std::memset(&dp, 0, sizeof(dp));
  tctest::layerTileParams(dp, dm, DT_VERTS_PER_POLYGON, hd, lev);

  uint8_t *od = nullptr;
  int osz = 0;
  std::string why;
  const bool ok = nav::buildTileData(p, &od, &osz, &why);
  unsigned char *dd = nullptr;
  int dsz = 0;
  const bool dok = dtCreateNavMeshData(&dp, &dd, &dsz);
  EXPECT_EQ(dok, ok) << label << ": " << why;
  bool same = ok == dok;
  if (ok && dok) {
    same = osz == dsz && std::memcmp(od, dd, size_t(osz)) == 0;
    EXPECT_TRUE(same) << label << ": tile bytes differ (" << osz << " vs " << dsz << " bytes, first at "
                      << firstDiff(od, dd, size_t(std::min(osz, dsz))) << ")";
    if (same)
      counts.tiles++;
  }
  delete[] od;
  dtFree(dd);
  return same;
}

/// Every layer of the level, with no obstacle, each obstacle alone, and all of them at once.
void compareLevel(const std::string &path) {
  const tctest::LayerLevel *lev = levelLayers(path);
  ASSERT_NE(lev, nullptr);
  ASSERT_FALSE(lev->layers.empty()) << path << ": no layers";
  tc::Lz4Compressor comp;
  tc::TileCacheArena arena;
  StageCounts counts;
  int failures = 0;
  for (size_t li = 0; li < lev->layers.size() && failures < 5; ++li) {
    const tctest::RecastLayer &l = lev->layers[li];
    const std::vector<uint8_t> blob = ourBlob(comp, l);
    counts.layers++;
    const std::string at = path + " tile (" + std::to_string(l.header.tx) + "," + std::to_string(l.header.ty) +
                           ") layer " + std::to_string(l.header.tlayer);
    if (!compareStages(*lev, blob, {}, comp, arena, counts, at + ", no obstacle"))
      ++failures;
    const std::vector<Obstacle> obs = obstaclesFor(l, lev->cs, lev->ch);
    for (const Obstacle &o : obs)
      if (!compareStages(*lev, blob, {o}, comp, arena, counts, at + ", " + o.what))
        ++failures;
    if (!compareStages(*lev, blob, obs, comp, arena, counts, at + ", all obstacles"))
      ++failures;
  }
  EXPECT_EQ(0, failures);
  // The comparisons must have covered real work: obstacles, non-empty meshes and tiles.
  EXPECT_GT(counts.marked, counts.layers);
  EXPECT_GT(counts.tiles, counts.layers);
  EXPECT_GT(counts.polys, 0);
  std::printf("%s: %d layers, %d marked runs, %d regions/contours/meshes compared, %d tiles byte-identical, "
              "%d empty meshes\n",
              path.c_str(), counts.layers, counts.marked, counts.regions, counts.tiles, counts.emptyMeshes);
}

void compareBlobs(const std::string &path) {
  const tctest::LayerLevel *lev = levelLayers(path);
  ASSERT_NE(lev, nullptr);
  ASSERT_FALSE(lev->layers.empty());
  tc::Lz4Compressor lz4;
  tc::NullCompressor none;
  for (const tctest::RecastLayer &l : lev->layers) {
    for (tc::TileCacheCompressor *comp :
         {static_cast<tc::TileCacheCompressor *>(&lz4), static_cast<tc::TileCacheCompressor *>(&none)}) {
      const std::vector<uint8_t> a = ourBlob(*comp, l);
      const std::vector<uint8_t> b = detourBlob(*comp, l);
      ASSERT_EQ(b.size(), a.size()) << path << " tile (" << l.header.tx << "," << l.header.ty << ") layer "
                                    << l.header.tlayer;
      ASSERT_EQ(0, std::memcmp(a.data(), b.data(), a.size()))
          << path << " tile (" << l.header.tx << "," << l.header.ty << ") layer " << l.header.tlayer
          << ": first difference at byte " << firstDiff(a.data(), b.data(), a.size());
    }
  }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Against Detour on real layers
// ---------------------------------------------------------------------------------------------

TEST(TileCacheBuilder, DefaultLevelBlobsAreDetours) { compareBlobs(tctest::defaultLevelPath()); }

TEST(TileCacheBuilder, DefaultLevelStagesAreDetours) { compareLevel(tctest::defaultLevelPath()); }

TEST(TileCacheBuilder, NavTestBlobsAreDetours) {
  if (!tctest::fileExists(tctest::navTestPath()))
    GTEST_SKIP() << tctest::navTestPath() << " is absent (../shared not here): nav_test comparison skipped";
  compareBlobs(tctest::navTestPath());
}

TEST(TileCacheBuilder, NavTestStagesAreDetours) {
  if (!tctest::fileExists(tctest::navTestPath()))
    GTEST_SKIP() << tctest::navTestPath() << " is absent (../shared not here): nav_test comparison skipped";
  compareLevel(tctest::navTestPath());
}

namespace {

/// A random layer of Recast's shape: terraced heights with noise, holes, patches of other areas,
/// connections both ways between walkable neighbours within a climb that differs from the one the
/// builder uses (so regions and connections disagree at places, as obstacles make them), and
/// portal bits on the grid border and beside holes.
tctest::RecastLayer randomLayer(std::mt19937 &rng, int tx) {
  auto uni = [&](int lo, int hi) { return lo + int(rng() % unsigned(hi - lo + 1)); };
  tctest::RecastLayer l;
  std::memset(&l.header, 0, sizeof(l.header));
  const int w = uni(6, 60), h = uni(6, 60);
  l.header.magic = DT_TILECACHE_MAGIC;
  l.header.version = DT_TILECACHE_VERSION;
  l.header.tx = tx;
  l.header.width = uint8_t(w);
  l.header.height = uint8_t(h);
  l.header.maxx = uint8_t(w - 1);
  l.header.maxy = uint8_t(h - 1);
  l.header.hmax = 200;
  l.header.bmin[0] = 10.0f + float(tx) * 9.6f;
  l.header.bmin[1] = -1.0f;
  l.header.bmin[2] = 3.0f;
  l.header.bmax[0] = l.header.bmin[0] + float(w) * 0.3f;
  l.header.bmax[1] = 40.0f;
  l.header.bmax[2] = l.header.bmin[2] + float(h) * 0.3f;
  const size_t n = size_t(w * h);
  l.heights.assign(n, 0xff);
  l.areas.assign(n, 0);
  l.cons.assign(n, 0);
  const int terraces = uni(1, 4);
  const int noise = uni(0, 3);
  const int holes = uni(0, 6), patches = uni(0, 5);
  for (int z = 0; z < h; ++z)
    for (int x = 0; x < w; ++x) {
      const int terrace = (x * terraces) / w + (z * terraces) / h;
      l.heights[size_t(x + z * w)] = uint8_t(20 + terrace * uni(3, 9) + (noise ? uni(0, noise) : 0));
      l.areas[size_t(x + z * w)] = 63;
    }
  auto rect = [&](uint8_t area) {
    const int x0 = uni(0, w - 1), z0 = uni(0, h - 1), x1 = std::min(w - 1, x0 + uni(0, 8)),
              z1 = std::min(h - 1, z0 + uni(0, 8));
    for (int z = z0; z <= z1; ++z)
      for (int x = x0; x <= x1; ++x) {
        l.areas[size_t(x + z * w)] = area;
        if (area == 0)
          l.heights[size_t(x + z * w)] = 0xff;
      }
  };
  for (int i = 0; i < holes; ++i)
    rect(0);
  for (int i = 0; i < patches; ++i)
    rect(uint8_t(uni(1, 5)));
  const int conClimb = uni(2, 6);
  for (int z = 0; z < h; ++z)
    for (int x = 0; x < w; ++x) {
      const size_t i = size_t(x + z * w);
      if (l.areas[i] == 0)
        continue;
      uint8_t con = 0, portal = 0;
      for (int dir = 0; dir < 4; ++dir) {
        const int nx = x + (dir == 0 ? -1 : dir == 2 ? 1 : 0), nz = z + (dir == 1 ? 1 : dir == 3 ? -1 : 0);
        if (nx < 0 || nz < 0 || nx >= w || nz >= h) {
          if (rng() % 3 != 0)
            portal |= uint8_t(1 << dir); // a neighbouring tile's layer
          continue;
        }
        const size_t j = size_t(nx + nz * w);
        if (l.areas[j] == 0) {
          if (rng() % 8 == 0)
            portal |= uint8_t(1 << dir); // another layer beside the hole
          continue;
        }
        if (std::abs(int(l.heights[i]) - int(l.heights[j])) <= conClimb)
          con |= uint8_t(1 << dir);
      }
      l.cons[i] = uint8_t(portal << 4 | con);
    }
  return l;
}

} // namespace

TEST(TileCacheBuilder, RandomLayersStagesAreDetours) {
  // Shapes the levels lack: odd sizes, terraces at every height step, patches, holes, portals.
  tctest::LayerLevel lev;
  lev.cs = 0.3f;
  lev.ch = 0.2f;
  lev.walkableHeight = 2.0f;
  lev.walkableRadius = 0.6f;
  lev.walkableClimb = 0.9f;
  lev.maxSimplificationError = 1.3f;
  tc::Lz4Compressor comp;
  tc::TileCacheArena arena;
  StageCounts counts;
  std::mt19937 rng(20261125);
  int failures = 0;
  for (int round = 0; round < 300 && failures < 5; ++round) {
    const tctest::RecastLayer l = randomLayer(rng, round);
    lev.maxSimplificationError = (round % 3 == 0) ? 0.5f : (round % 3 == 1 ? 1.3f : 2.5f);
    lev.walkableClimb = (round % 2) ? 0.9f : 0.5f;
    const std::vector<uint8_t> blob = ourBlob(comp, l);
    ASSERT_EQ(detourBlob(comp, l), blob) << "round " << round;
    counts.layers++;
    const std::string at = "random layer " + std::to_string(round) + " (" + std::to_string(l.header.width) + "x" +
                           std::to_string(l.header.height) + ")";
    if (!compareStages(lev, blob, {}, comp, arena, counts, at))
      ++failures;
    if (!compareStages(lev, blob, obstaclesFor(l, lev.cs, lev.ch), comp, arena, counts, at + ", obstacles"))
      ++failures;
  }
  EXPECT_EQ(0, failures);
  EXPECT_GT(counts.tiles, counts.layers);
  std::printf("random layers: %d layers, %d meshes compared, %d polys, %d tiles byte-identical\n", counts.layers,
              counts.contours, counts.polys, counts.tiles);
}

// ---------------------------------------------------------------------------------------------
// Compressors and the arena
// ---------------------------------------------------------------------------------------------

TEST(TileCacheBuilder, CompressorsRoundTrip) {
  std::vector<uint8_t> raw(3000);
  std::mt19937 rng(7);
  for (size_t i = 0; i < raw.size(); ++i)
    raw[i] = uint8_t(i % 97 < 60 ? 63 : rng());
  tc::Lz4Compressor lz4;
  tc::NullCompressor none;
  for (tc::TileCacheCompressor *c :
       {static_cast<tc::TileCacheCompressor *>(&lz4), static_cast<tc::TileCacheCompressor *>(&none)}) {
    std::vector<uint8_t> packed(size_t(c->maxCompressedSize(int(raw.size()))));
    int packedSize = 0;
    ASSERT_TRUE(
        nav::statusSucceeded(c->compress(raw.data(), int(raw.size()), packed.data(), int(packed.size()), &packedSize)));
    std::vector<uint8_t> back(raw.size());
    int backSize = 0;
    ASSERT_TRUE(
        nav::statusSucceeded(c->decompress(packed.data(), packedSize, back.data(), int(back.size()), &backSize)));
    EXPECT_EQ(int(raw.size()), backSize);
    EXPECT_EQ(raw, back);
    // Too small an output buffer is refused, not overrun.
    std::vector<uint8_t> small(raw.size() / 2 + 16, 0xcd);
    int n = 0;
    EXPECT_TRUE(nav::statusFailed(c->decompress(packed.data(), packedSize, small.data(), int(raw.size() / 2), &n)));
    for (size_t i = raw.size() / 2; i < small.size(); ++i)
      ASSERT_EQ(0xcd, small[i]);
  }
  int n = 0;
  std::vector<uint8_t> out(10);
  EXPECT_TRUE(nav::statusFailed(none.compress(raw.data(), 100, out.data(), 10, &n)));
}

TEST(TileCacheBuilder, ArenaStopsOverflowingAfterTheFirstBuild) {
  const tctest::LayerLevel *lev = levelLayers(tctest::defaultLevelPath());
  ASSERT_NE(lev, nullptr);
  ASSERT_FALSE(lev->layers.empty());
  tc::Lz4Compressor comp;
  const std::vector<uint8_t> blob = ourBlob(comp, lev->layers[lev->layers.size() / 2]);
  tc::TileCacheArena arena; // starts empty: the first build runs on the heap
  auto build = [&]() {
    arena.reset();
    tc::TileCacheLayer *layer = nullptr;
    ASSERT_TRUE(
        nav::statusSucceeded(tc::decompressTileCacheLayer(&arena, &comp, blob.data(), int(blob.size()), &layer)));
    ASSERT_TRUE(nav::statusSucceeded(tc::buildTileCacheRegions(&arena, *layer, lev->tileCacheClimbVx())));
    tc::TileCacheContourSet *cset = tc::allocTileCacheContourSet(&arena);
    ASSERT_TRUE(nav::statusSucceeded(
        tc::buildTileCacheContours(&arena, *layer, lev->tileCacheClimbVx(), lev->maxSimplificationError, *cset)));
    tc::TileCachePolyMesh *mesh = tc::allocTileCachePolyMesh(&arena);
    ASSERT_TRUE(nav::statusSucceeded(tc::buildTileCachePolyMesh(&arena, *cset, *mesh)));
    EXPECT_GT(mesh->npolys, 0);
  };
  build();
  EXPECT_EQ(0u, arena.capacity());
  EXPECT_GT(arena.highWater(), 0u);
  build();
  EXPECT_GE(arena.capacity(), arena.highWater()); // grown at the reset before the second build
  const size_t cap = arena.capacity();
  build();
  EXPECT_EQ(cap, arena.capacity());
  EXPECT_LE(arena.used(), arena.capacity());
  EXPECT_GE(arena.capacity(), arena.highWater());
}

// ---------------------------------------------------------------------------------------------
// Refusals: corrupt and hostile blobs
// ---------------------------------------------------------------------------------------------

namespace {

/// A small valid layer (5 x 4, a walkable block with connections) and its blob.
struct SmallLayer {
  tc::TileCacheLayerHeader header;
  std::vector<uint8_t> heights, areas, cons;
  SmallLayer() {
    std::memset(&header, 0, sizeof(header));
    header.magic = tc::TILECACHE_MAGIC;
    header.version = tc::TILECACHE_VERSION;
    header.width = 5;
    header.height = 4;
    header.maxx = 4;
    header.maxy = 3;
    header.hmax = 10;
    header.bmax[0] = 1.5f;
    header.bmax[1] = 2.0f;
    header.bmax[2] = 1.2f;
    const int w = 5, h = 4;
    heights.assign(size_t(w * h), 3);
    areas.assign(size_t(w * h), 63);
    cons.assign(size_t(w * h), 0);
    for (int z = 0; z < h; ++z)
      for (int x = 0; x < w; ++x) {
        uint8_t c = 0;
        if (x > 0)
          c |= 1;
        if (z < h - 1)
          c |= 2;
        if (x < w - 1)
          c |= 4;
        if (z > 0)
          c |= 8;
        cons[size_t(x + z * w)] = c;
      }
  }
  std::vector<uint8_t> blob(tc::TileCacheCompressor &comp) {
    uint8_t *data = nullptr;
    int size = 0;
    EXPECT_TRUE(nav::statusSucceeded(
        tc::buildTileCacheLayer(&comp, &header, heights.data(), areas.data(), cons.data(), &data, &size)));
    std::vector<uint8_t> out(data, data + size);
    delete[] data;
    return out;
  }
};

nav::Status tryDecompress(tc::TileCacheCompressor &comp, const std::vector<uint8_t> &blob) {
  tc::TileCacheAlloc heap;
  tc::TileCacheLayer sentinel{};
  tc::TileCacheLayer *layer = &sentinel; // must be cleared on failure
  const nav::Status st = tc::decompressTileCacheLayer(&heap, &comp, blob.data(), int(blob.size()), &layer);
  if (nav::statusSucceeded(st)) {
    EXPECT_NE(layer, nullptr);
    tc::freeTileCacheLayer(&heap, layer);
  } else {
    EXPECT_EQ(layer, nullptr);
  }
  return st;
}

void setHeader(std::vector<uint8_t> &blob, const tc::TileCacheLayerHeader &h) {
  std::memcpy(blob.data(), &h, sizeof(h));
}

} // namespace

TEST(TileCacheBuilder, SmallLayerDecompressesAndMeshes) {
  SmallLayer s;
  tc::NullCompressor none;
  const std::vector<uint8_t> blob = s.blob(none);
  ASSERT_EQ(size_t(tc::TILECACHE_LAYER_HEADER_SIZE + 3 * 20), blob.size());
  tc::TileCacheArena arena(1 << 16);
  tc::TileCacheLayer *layer = nullptr;
  ASSERT_TRUE(nav::statusSucceeded(tc::decompressTileCacheLayer(&arena, &none, blob.data(), int(blob.size()), &layer)));
  EXPECT_EQ(0, std::memcmp(layer->areas, s.areas.data(), 20));
  ASSERT_TRUE(nav::statusSucceeded(tc::buildTileCacheRegions(&arena, *layer, 2)));
  EXPECT_EQ(1, layer->regCount);
  tc::TileCacheContourSet *cset = tc::allocTileCacheContourSet(&arena);
  ASSERT_TRUE(nav::statusSucceeded(tc::buildTileCacheContours(&arena, *layer, 2, 1.3f, *cset)));
  tc::TileCachePolyMesh *mesh = tc::allocTileCachePolyMesh(&arena);
  ASSERT_TRUE(nav::statusSucceeded(tc::buildTileCachePolyMesh(&arena, *cset, *mesh)));
  EXPECT_EQ(1, mesh->npolys); // one rectangle
  EXPECT_EQ(4, mesh->nverts);
}

TEST(TileCacheBuilder, RefusesBadHeaders) {
  SmallLayer s;
  tc::Lz4Compressor comp;
  const std::vector<uint8_t> good = s.blob(comp);
  ASSERT_TRUE(nav::statusSucceeded(tryDecompress(comp, good)));

  std::vector<uint8_t> b = good;
  b[0] ^= 0x55;
  EXPECT_TRUE(nav::statusDetail(tryDecompress(comp, b), nav::WRONG_MAGIC));

  tc::TileCacheLayerHeader h = s.header;
  h.version = 2;
  b = good;
  setHeader(b, h);
  EXPECT_TRUE(nav::statusDetail(tryDecompress(comp, b), nav::WRONG_VERSION));

  for (int cut : {0, 1, 20, tc::TILECACHE_LAYER_HEADER_SIZE - 1}) {
    b.assign(good.begin(), good.begin() + cut);
    EXPECT_TRUE(nav::statusFailed(tryDecompress(comp, b))) << "cut at " << cut;
  }
  // Header only: no grids at all.
  b.assign(good.begin(), good.begin() + tc::TILECACHE_LAYER_HEADER_SIZE);
  EXPECT_TRUE(nav::statusFailed(tryDecompress(comp, b)));

  struct Bad {
    const char *what;
    void (*edit)(tc::TileCacheLayerHeader &);
  };
  const Bad bads[] = {
      {"width 0", [](tc::TileCacheLayerHeader &x) { x.width = 0; }},
      {"height 0", [](tc::TileCacheLayerHeader &x) { x.height = 0; }},
      {"maxx outside", [](tc::TileCacheLayerHeader &x) { x.maxx = 5; }},
      {"minx > maxx", [](tc::TileCacheLayerHeader &x) { x.minx = 4, x.maxx = 2; }},
      {"maxy outside", [](tc::TileCacheLayerHeader &x) { x.maxy = 200; }},
      {"hmin > hmax", [](tc::TileCacheLayerHeader &x) { x.hmin = 11; }},
      {"NaN bmin", [](tc::TileCacheLayerHeader &x) { x.bmin[1] = std::nanf(""); }},
      {"infinite bmax", [](tc::TileCacheLayerHeader &x) { x.bmax[2] = INFINITY; }},
  };
  for (const Bad &bad : bads) {
    h = s.header;
    bad.edit(h);
    b = good;
    setHeader(b, h);
    const nav::Status st = tryDecompress(comp, b);
    EXPECT_TRUE(nav::statusFailed(st)) << bad.what;
    EXPECT_TRUE(nav::statusDetail(st, nav::INVALID_PARAM)) << bad.what;
    EXPECT_TRUE(nav::statusFailed(tc::readTileCacheLayerHeader(b.data(), int(b.size()), nullptr))) << bad.what;
  }
}

TEST(TileCacheBuilder, RefusesGridsOfTheWrongSize) {
  SmallLayer s;
  tc::Lz4Compressor comp;
  const std::vector<uint8_t> good = s.blob(comp);
  // The header claims a bigger grid than the data holds, and a smaller one.
  for (int width : {6, 255, 4, 1}) {
    tc::TileCacheLayerHeader h = s.header;
    h.width = uint8_t(width);
    h.maxx = uint8_t(width - 1);
    std::vector<uint8_t> b = good;
    setHeader(b, h);
    const nav::Status st = tryDecompress(comp, b);
    EXPECT_TRUE(nav::statusFailed(st)) << "width " << width;
  }
  // Trailing bytes after the compressed stream, and a truncated stream.
  std::vector<uint8_t> b = good;
  b.push_back(0);
  b.push_back(1);
  EXPECT_TRUE(nav::statusFailed(tryDecompress(comp, b)));
  b.assign(good.begin(), good.end() - 3);
  EXPECT_TRUE(nav::statusFailed(tryDecompress(comp, b)));
}

TEST(TileCacheBuilder, RefusesOutOfRangeCells) {
  tc::NullCompressor none;
  {
    SmallLayer s;
    s.areas[7] = 64; // above the walkable area id
    EXPECT_TRUE(nav::statusDetail(tryDecompress(none, s.blob(none)), nav::INVALID_PARAM));
  }
  // Connections leading out of the grid, one per side.
  const int cells[4] = {0 + 1 * 5, 2 + 3 * 5, 4 + 2 * 5, 3 + 0 * 5};
  for (int dir = 0; dir < 4; ++dir) {
    SmallLayer s;
    s.cons[size_t(cells[dir])] |= uint8_t(1 << dir);
    EXPECT_TRUE(nav::statusDetail(tryDecompress(none, s.blob(none)), nav::INVALID_PARAM)) << "dir " << dir;
  }
  // Portal bits (high nibble) at the border are fine: they name no cell.
  SmallLayer s;
  s.cons[0] |= 0x10 | 0x80;
  EXPECT_TRUE(nav::statusSucceeded(tryDecompress(none, s.blob(none))));
}

TEST(TileCacheBuilder, CorruptedBlobsNeverCrash) {
  // Random byte flips in real LZ4 blobs: each is refused or, when it still decodes to a valid
  // layer, builds all the way to a poly mesh (with obstacles) without touching memory it must not.
  const tctest::LayerLevel *lev = levelLayers(tctest::defaultLevelPath());
  ASSERT_NE(lev, nullptr);
  ASSERT_FALSE(lev->layers.empty());
  tc::Lz4Compressor comp;
  tc::TileCacheArena arena;
  std::mt19937 rng(1234);
  int refused = 0, built = 0;
  for (int round = 0; round < 400; ++round) {
    const tctest::RecastLayer &l = lev->layers[size_t(round) % lev->layers.size()];
    std::vector<uint8_t> b = ourBlob(comp, l);
    const int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      // Half the flips hit the grids' stream, a few the header's size fields.
      const size_t at = (rng() % 8 == 0) ? size_t(44 + rng() % 10)
                                         : size_t(tc::TILECACHE_LAYER_HEADER_SIZE) +
                                               rng() % (b.size() - size_t(tc::TILECACHE_LAYER_HEADER_SIZE));
      b[at] = uint8_t(rng());
    }
    if (rng() % 5 == 0)
      b.resize(size_t(rng() % b.size()));
    arena.reset();
    tc::TileCacheLayer *layer = nullptr;
    if (nav::statusFailed(tc::decompressTileCacheLayer(&arena, &comp, b.data(), int(b.size()), &layer))) {
      ++refused;
      continue;
    }
    const float *orig = layer->header->bmin;
    const float c[3] = {orig[0] + 3.0f, orig[1], orig[2] + 3.0f};
    tc::markCylinderArea(*layer, orig, lev->cs, lev->ch, c, 1.0f, 2.0f, 0);
    const int climb = lev->tileCacheClimbVx();
    if (nav::statusFailed(tc::buildTileCacheRegions(&arena, *layer, climb)))
      continue;
    tc::TileCacheContourSet *cset = tc::allocTileCacheContourSet(&arena);
    if (nav::statusFailed(tc::buildTileCacheContours(&arena, *layer, climb, lev->maxSimplificationError, *cset)))
      continue;
    tc::TileCachePolyMesh *mesh = tc::allocTileCachePolyMesh(&arena);
    if (nav::statusSucceeded(tc::buildTileCachePolyMesh(&arena, *cset, *mesh)))
      ++built;
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(built, 0);
  std::printf("corrupted blobs: %d refused, %d built to a mesh\n", refused, built);
}

TEST(TileCacheBuilder, MarkingRefusesNonFiniteShapesAndClampsHugeOnes) {
  SmallLayer s;
  tc::NullCompressor none;
  const std::vector<uint8_t> blob = s.blob(none);
  tc::TileCacheArena arena;
  tc::TileCacheLayer *layer = nullptr;
  ASSERT_TRUE(nav::statusSucceeded(tc::decompressTileCacheLayer(&arena, &none, blob.data(), int(blob.size()), &layer)));
  const float orig[3] = {0, 0, 0};
  const float nan = std::nanf(""), inf = INFINITY;
  const float ok[3] = {0.5f, 0.0f, 0.5f};
  const float badPos[3] = {nan, 0.0f, 0.5f};
  const float rot[2] = {0.0f, 0.5f};
  const float badRot[2] = {nan, 0.5f};
  const float half[3] = {0.3f, 1.0f, 0.3f};
  EXPECT_TRUE(
      nav::statusDetail(tc::markCylinderArea(*layer, orig, 0.3f, 0.2f, badPos, 1.0f, 2.0f, 0), nav::INVALID_PARAM));
  EXPECT_TRUE(nav::statusFailed(tc::markCylinderArea(*layer, orig, 0.3f, 0.2f, ok, inf, 2.0f, 0)));
  EXPECT_TRUE(nav::statusFailed(tc::markCylinderArea(*layer, orig, 0.0f, 0.2f, ok, 1.0f, 2.0f, 0)));
  EXPECT_TRUE(nav::statusFailed(tc::markBoxArea(*layer, orig, 0.3f, 0.2f, badPos, ok, 0)));
  EXPECT_TRUE(nav::statusFailed(tc::markBoxArea(*layer, orig, 0.3f, -0.2f, ok, half, rot, 0)));
  EXPECT_TRUE(nav::statusFailed(tc::markBoxArea(*layer, orig, 0.3f, 0.2f, ok, half, badRot, 0)));
  EXPECT_EQ(0, std::memcmp(layer->areas, s.areas.data(), s.areas.size())) << "a refused shape marked cells";
  // Finite but far beyond int cell coordinates: everything or nothing, no overflow.
  const float huge[3] = {3e38f, 0.0f, -3e38f};
  EXPECT_TRUE(nav::statusSucceeded(tc::markCylinderArea(*layer, orig, 0.3f, 0.2f, huge, 1.0f, 2.0f, 0)));
  EXPECT_EQ(0, std::memcmp(layer->areas, s.areas.data(), s.areas.size()));
  const float lo[3] = {-3e38f, -3e38f, -3e38f}, hi[3] = {3e38f, 3e38f, 3e38f};
  EXPECT_TRUE(nav::statusSucceeded(tc::markBoxArea(*layer, orig, 0.3f, 0.2f, lo, hi, 0)));
  for (size_t i = 0; i < s.areas.size(); ++i)
    EXPECT_EQ(0, layer->areas[i]);
}
