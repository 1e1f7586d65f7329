// TileCacheFileTest.cpp: the .tcache format (nav/tilecache/TileCacheFile.h) and the layer bake
// (nav/bake/LayerBake.h) on the project's default level: the bake's blobs are Recast's layers
// (built independently in LayerTestUtil.h) compressed by buildTileCacheLayer; 1 and 2 threads give
// the same file; a file round-trips byte for byte; every kind of damage is refused with a message
// naming the file and the problem, leaving the output untouched; an opened cache is ready (every
// tile built into the navmesh).
#include "LayerTestUtil.h"

#include "nav/NavMesh.h"
#include "nav/bake/LayerBake.h"
#include "nav/bake/LevelFile.h"
#include "nav/tilecache/Lz4Compressor.h"
#include "nav/tilecache/TileCacheFile.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>

namespace {

using namespace nav::tilecache;

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_tcfile_" + std::to_string(::getpid()) + "_" + name;
}

bool bakeDefault(int threads, TileCacheFileData* out, std::string* why, uint32_t compressor = TCACHE_COMPRESSOR_LZ4) {
  nav::bake::BakeInput in;
  nav::bake::BakeSettings s;
  if (!nav::bake::loadBakeInput(tctest::defaultLevelPath(), &in, &s, why)) return false;
  nav::bake::BakeOptions opt;
  opt.threads = threads;
  nav::bake::BakeReport r;
  nav::bake::LayerBakeOptions lo;
  lo.compressor = compressor;
  if (!nav::bake::bakeLayers(in, s, opt, out, &r, lo)) {
    *why = r.error;
    return false;
  }
  return true;
}

/// The default level's layers (baked once) and their file image.
const TileCacheFileData& defaultData() {
  static TileCacheFileData d;
  static bool done = false;
  if (!done) {
    std::string why;
    if (!bakeDefault(2, &d, &why)) ADD_FAILURE() << why;
    done = true;
  }
  return d;
}
std::vector<uint8_t> defaultImage() {
  std::vector<uint8_t> img;
  std::string why;
  EXPECT_TRUE(nav::statusSucceeded(saveTileCache(defaultData(), img, &why))) << why;
  return img;
}

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + size_t(i)] = uint8_t(v >> (8 * i));
}
void fixCrc(std::vector<uint8_t>& b) { put32(b, b.size() - 4, tcacheCrc32(b.data(), b.size() - 4)); }
size_t firstLayerAt(const TileCacheFileData& d) { return TCACHE_FIXED_BYTES + d.links.size() * TCACHE_LINK_BYTES; }

/// Loads `img` into a data block holding a sentinel; expects a refusal whose message has `name`
/// and `what`, and the sentinel untouched.
void expectRefused(const std::vector<uint8_t>& img, const std::string& what, nav::Status detail = 0) {
  TileCacheFileData out;
  out.bake.tilesX = 12345;
  out.layers.push_back({1, 2, 3});
  std::string why;
  const nav::Status s = loadTileCache(img.data(), img.size(), &out, &why, "damaged.tcache");
  EXPECT_TRUE(nav::statusFailed(s)) << what;
  if (detail) {
    EXPECT_TRUE(nav::statusDetail(s, detail)) << why;
  }
  EXPECT_EQ(why.rfind("damaged.tcache: ", 0), 0u) << why;
  EXPECT_NE(why.find(what), std::string::npos) << "expected '" << what << "' in: " << why;
  EXPECT_EQ(out.bake.tilesX, 12345) << "a refused load changed the output";
  EXPECT_EQ(out.layers.size(), 1u) << "a refused load changed the output";
}

TEST(TileCacheFile, BakeOfTheDefaultLevelIsRecastsLayersCompressed) {
  const TileCacheFileData& d = defaultData();
  ASSERT_FALSE(d.layers.empty());
  tctest::LayerLevel lev;
  std::string why;
  ASSERT_TRUE(tctest::buildLevelLayers(tctest::defaultLevelPath(), lev, &why)) << why;
  ASSERT_EQ(d.layers.size(), lev.layers.size());
  EXPECT_EQ(d.bake.tilesX, lev.tilesW);
  EXPECT_EQ(d.bake.tilesY, lev.tilesH);
  EXPECT_EQ(d.params.width, lev.tileSize);
  EXPECT_EQ(d.bake.borderSize, lev.borderSize);
  EXPECT_EQ(d.params.walkableClimb, lev.walkableClimb);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(d.params.orig[k], lev.orig[k]);
  Lz4Compressor lz4;
  for (size_t i = 0; i < lev.layers.size(); ++i) {
    tctest::RecastLayer& l = lev.layers[i];
    TileCacheLayerHeader h;
    static_assert(sizeof h == sizeof l.header, "layer header size");
    std::memcpy(&h, &l.header, sizeof h);
    uint8_t* blob = nullptr;
    int n = 0;
    ASSERT_TRUE(nav::statusSucceeded(buildTileCacheLayer(&lz4, &h, l.heights.data(), l.areas.data(), l.cons.data(), &blob, &n)));
    const std::vector<uint8_t> expect(blob, blob + n);
    delete[] blob;
    EXPECT_EQ(d.layers[i], expect) << "layer " << i << " (tile " << l.header.tx << ", " << l.header.ty << ", layer "
                                   << l.header.tlayer << ")";
  }
  // The level's two jump links and its area -> flag table travel with the layers.
  EXPECT_EQ(d.links.size(), 2u);
  EXPECT_EQ(d.areaFlags[nav::AREA_WATER], nav::FLAG_SWIM);
  EXPECT_EQ(d.areaFlags[nav::AREA_DOOR], nav::FLAG_WALK | nav::FLAG_DOOR);
}

TEST(TileCacheFile, OneAndTwoThreadsGiveTheSameFile) {
  TileCacheFileData one;
  std::string why;
  ASSERT_TRUE(bakeDefault(1, &one, &why)) << why;
  std::vector<uint8_t> a;
  ASSERT_TRUE(nav::statusSucceeded(saveTileCache(one, a, &why))) << why;
  EXPECT_EQ(a, defaultImage());
}

TEST(TileCacheFile, RoundTripsByteForByte) {
  const std::vector<uint8_t> img = defaultImage();
  TileCacheFileData back;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(loadTileCache(img.data(), img.size(), &back, &why, "mem"))) << why;
  const TileCacheFileData& d = defaultData();
  EXPECT_EQ(back.layers, d.layers);
  EXPECT_EQ(back.links.size(), d.links.size());
  EXPECT_EQ(0, std::memcmp(&back.params, &d.params, sizeof d.params));
  EXPECT_EQ(0, std::memcmp(&back.meshParams, &d.meshParams, sizeof d.meshParams));
  EXPECT_EQ(0, std::memcmp(back.areaFlags, d.areaFlags, sizeof d.areaFlags));
  std::vector<uint8_t> again;
  ASSERT_TRUE(nav::statusSucceeded(saveTileCache(back, again, &why))) << why;
  EXPECT_EQ(again, img);

  // Through a file, written atomically.
  const std::string path = tempPath("rt.tcache");
  ASSERT_TRUE(nav::statusSucceeded(saveTileCacheFile(d, path, &why))) << why;
  TileCacheFileData fromFile;
  ASSERT_TRUE(nav::statusSucceeded(loadTileCacheFile(path, &fromFile, &why))) << why;
  EXPECT_EQ(fromFile.layers, d.layers);
  EXPECT_FALSE(tctest::fileExists(path + ".tmp" + std::to_string(::getpid())));
  std::remove(path.c_str());

  // The uncompressed variant round-trips too and holds the same grids.
  TileCacheFileData raw;
  ASSERT_TRUE(bakeDefault(2, &raw, &why, TCACHE_COMPRESSOR_NONE)) << why;
  std::vector<uint8_t> rawImg;
  ASSERT_TRUE(nav::statusSucceeded(saveTileCache(raw, rawImg, &why))) << why;
  TileCacheFileData rawBack;
  ASSERT_TRUE(nav::statusSucceeded(loadTileCache(rawImg.data(), rawImg.size(), &rawBack, &why))) << why;
  EXPECT_EQ(rawBack.compressor, TCACHE_COMPRESSOR_NONE);
  EXPECT_EQ(rawBack.layers.size(), d.layers.size());
}

TEST(TileCacheFile, OpenedCacheIsReady) {
  const std::string path = tempPath("open.tcache");
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(saveTileCacheFile(defaultData(), path, &why))) << why;
  OpenTileCache tc;
  ASSERT_TRUE(nav::statusSucceeded(openTileCacheFile(path, 0, &tc, &why))) << why;
  std::remove(path.c_str());
  ASSERT_TRUE(tc.cache && tc.mesh);
  int layers = 0;
  for (int i = 0; i < tc.cache->getTileCount(); ++i)
    if (tc.cache->getTile(i)->header) ++layers;
  EXPECT_EQ(layers, int(defaultData().layers.size()));
  EXPECT_EQ(tc.cache->getObstacleCount(), defaultData().params.maxObstacles);
  EXPECT_GT(tc.mesh->tileCount(), 0);
  EXPECT_LE(tc.mesh->tileCount(), layers);
  // Every navmesh tile sits where a layer is, and the jump links were stored.
  int offMesh = 0;
  for (int i = 0; i < tc.mesh->getMaxTiles(); ++i) {
    const nav::MeshTile* t = tc.mesh->getTile(i);
    if (!t->header) continue;
    EXPECT_NE(tc.cache->getTileAt(t->header->x, t->header->y, t->header->layer), nullptr);
    offMesh += t->header->offMeshConCount;
  }
  EXPECT_EQ(offMesh, 2);
  // A missing file is named.
  OpenTileCache none;
  EXPECT_TRUE(nav::statusFailed(openTileCacheFile(path, 0, &none, &why)));
  EXPECT_NE(why.find(path + ": cannot open"), std::string::npos) << why;
  EXPECT_FALSE(none.cache);
}

TEST(TileCacheFile, RefusesTruncatedFiles) {
  const std::vector<uint8_t> img = defaultImage();
  for (size_t n : {size_t(0), size_t(3), size_t(20), TCACHE_FIXED_BYTES, TCACHE_FIXED_BYTES + 4, img.size() / 2, img.size() - 1}) {
    const std::vector<uint8_t> cut(img.begin(), img.begin() + long(n));
    expectRefused(cut, n < 4 ? "too short" : n < TCACHE_FIXED_BYTES + 4 ? "too short" : "checksum mismatch");
  }
  // Truncated with the checksum recomputed: the structure itself is checked.
  std::vector<uint8_t> cut(img.begin(), img.end() - 100);
  fixCrc(cut);
  expectRefused(cut, ": layer ");
}

TEST(TileCacheFile, RefusesBadMagicVersionAndChecksum) {
  std::vector<uint8_t> img = defaultImage();
  std::vector<uint8_t> b = img;
  b[0] = 'M';
  expectRefused(b, "wrong magic", nav::WRONG_MAGIC);
  b = img;
  put32(b, 4, 2);
  expectRefused(b, "version 2, expected 1", nav::WRONG_VERSION);
  b = img;
  b[img.size() / 2] ^= 0x40;
  expectRefused(b, "checksum mismatch");
}

TEST(TileCacheFile, RefusesBadHeaderFields) {
  const std::vector<uint8_t> img = defaultImage();
  const TileCacheFileData& d = defaultData();
  struct Case {
    const char* what;
    std::function<void(std::vector<uint8_t>&)> edit;
  };
  const uint32_t layers = uint32_t(d.layers.size());
  const std::vector<Case> cases = {
      {"unknown compressor id 7", [](std::vector<uint8_t>& b) { put32(b, 8, 7); }},
      {"layers cannot fit", [](std::vector<uint8_t>& b) { put32(b, 12, 0x7fffffff); }},
      {"unexpected bytes after the last layer", [layers](std::vector<uint8_t>& b) { put32(b, 12, layers - 1); }},
      {"links; at most", [](std::vector<uint8_t>& b) { put32(b, 16, 0x01000000); }},
      {"links cannot fit", [](std::vector<uint8_t>& b) { put32(b, 16, 60000); }},
      {"cell size", [](std::vector<uint8_t>& b) { put32(b, 32, 0x7fc00000); }}, // NaN
      {"cell height 2.94273e-44 is not in [0.001, 1000]", [](std::vector<uint8_t>& b) { put32(b, 36, 21); }}, // denormal
      {"tile size 300 x", [](std::vector<uint8_t>& b) { put32(b, 40, 300); }},
      {"tile cache maxTiles", [](std::vector<uint8_t>& b) { put32(b, 64, 1 << 30); }},
      {"maxObstacles", [](std::vector<uint8_t>& b) { put32(b, 68, uint32_t(-1)); }},
      {"navmesh origin differs", [](std::vector<uint8_t>& b) { b[72] ^= 1; }},
      {"navmesh maxTiles", [](std::vector<uint8_t>& b) { put32(b, 92, 1 << 30); }},
      {"tile grid", [](std::vector<uint8_t>& b) { put32(b, 124, 100000); }},
      {"walkable area", [](std::vector<uint8_t>& b) { b[152] = 63; }},
      {"padding", [](std::vector<uint8_t>& b) { b[153] = 1; }},
      {"link 0: radius", [](std::vector<uint8_t>& b) { put32(b, TCACHE_FIXED_BYTES + 24, 0); }},
      {"link 1: direction", [](std::vector<uint8_t>& b) { b[TCACHE_FIXED_BYTES + 36 + 31] = 5; }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    std::vector<uint8_t> b = img;
    c.edit(b);
    fixCrc(b);
    expectRefused(b, c.what);
  }
}

TEST(TileCacheFile, RefusesBadLayers) {
  const std::vector<uint8_t> img = defaultImage();
  const TileCacheFileData& d = defaultData();
  const size_t at = firstLayerAt(d); // u32 size, then the blob (header first)
  ASSERT_GT(d.layers.size(), 1u);
  std::vector<uint8_t> b = img;
  put32(b, at, 10);
  fixCrc(b);
  expectRefused(b, "layer 0: size 10 is smaller than a layer header");
  b = img;
  put32(b, at, 0x7ffffff0);
  fixCrc(b);
  expectRefused(b, "layer 0: size 2147483632 but only");
  b = img;
  b[at + 4] ^= 0xff; // layer magic
  fixCrc(b);
  expectRefused(b, "layer 0: bad layer header", nav::WRONG_MAGIC);

  // Edited layers written through saveTileCache (which checks sizes, not contents).
  auto withLayer0 = [&](const std::function<void(std::vector<uint8_t>&)>& edit) {
    TileCacheFileData e = d;
    edit(e.layers[0]);
    std::vector<uint8_t> out;
    std::string why;
    EXPECT_TRUE(nav::statusSucceeded(saveTileCache(e, out, &why))) << why;
    return out;
  };
  auto setHeader = [](std::vector<uint8_t>& blob, size_t off, int v) { std::memcpy(&blob[off], &v, 4); };
  expectRefused(withLayer0([&](std::vector<uint8_t>& l) { setHeader(l, 8, d.bake.tilesX); }), "outside the");
  expectRefused(withLayer0([&](std::vector<uint8_t>& l) { setHeader(l, 16, 40); }), "layer index not in 0..31");
  expectRefused(withLayer0([&](std::vector<uint8_t>& l) { l[48] = uint8_t(d.params.width + 1); l[49] = l[48]; }),
                "but the cache's tiles are");
  {
    TileCacheFileData e = d;
    e.layers[1] = e.layers[0];
    std::vector<uint8_t> out;
    std::string why;
    ASSERT_TRUE(nav::statusSucceeded(saveTileCache(e, out, &why))) << why;
    expectRefused(out, "): the same tile and layer came earlier in the file");
  }
  // Corrupt grids: the compressed part decompresses to one byte too few, or is cut short.
  {
    TileCacheLayerHeader h;
    std::memcpy(&h, d.layers[0].data(), sizeof h);
    const int n = int(h.width) * int(h.height) * 3 - 1;
    std::vector<uint8_t> grids(size_t(n), 0);
    Lz4Compressor lz4;
    std::vector<uint8_t> comp(size_t(lz4.maxCompressedSize(n)));
    int cn = 0;
    ASSERT_TRUE(nav::statusSucceeded(lz4.compress(grids.data(), n, comp.data(), int(comp.size()), &cn)));
    expectRefused(withLayer0([&](std::vector<uint8_t>& l) {
                    l.resize(size_t(TILECACHE_LAYER_HEADER_SIZE));
                    l.insert(l.end(), comp.begin(), comp.begin() + cn);
                  }),
                  "damaged.tcache: layer 0 (tile ");
    expectRefused(withLayer0([&](std::vector<uint8_t>& l) {
                    l.resize(size_t(TILECACHE_LAYER_HEADER_SIZE));
                    l.insert(l.end(), comp.begin(), comp.begin() + cn);
                  }),
                  "corrupt: does not decompress");
    expectRefused(withLayer0([&](std::vector<uint8_t>& l) { l.resize(l.size() - 3); }), "corrupt: does not decompress");
  }
}

TEST(TileCacheFile, SaveRefusesWhatLoadWouldRefuse) {
  TileCacheFileData d = defaultData();
  d.params.width = 0;
  std::vector<uint8_t> out;
  std::string why;
  EXPECT_TRUE(nav::statusFailed(saveTileCache(d, out, &why)));
  EXPECT_NE(why.find("tile size 0 x"), std::string::npos) << why;
  // An unwritable path names the file and keeps nothing.
  const std::string dir = tempPath("no_such_dir") + "/x.tcache";
  EXPECT_TRUE(nav::statusFailed(saveTileCacheFile(defaultData(), dir, &why)));
  EXPECT_NE(why.find(dir), std::string::npos) << why;
}

} // namespace
