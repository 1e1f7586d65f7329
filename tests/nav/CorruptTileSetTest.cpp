// CorruptTileSetTest: a corpus of broken tile sets (truncated at every byte, wrong magic/version,
// bad counts, out-of-range indices, overlapping tiles, duplicate refs, random byte flips) must be
// refused with a message naming the source and the problem, leave the caller's mesh untouched, and
// never crash. Built twice: in nav_tests, and in nav_corrupt_sanitized with the nav sources under
// AddressSanitizer + UndefinedBehaviorSanitizer. Uses only nav/ and hand-made meshes.
#include "TestMeshes.h"

#include "nav/NavMath.h"
#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>

#include <unistd.h>

using namespace navtest;

namespace {

// A 3x2 grid of tiles; tile (1,0) without BV tree; off-mesh connections inside and across tiles;
// one tile removed and re-added so salts differ from 1.
std::vector<uint8_t> makeValidSet() {
  GridTileSpec s;
  nav::NavMesh m;
  EXPECT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(s, 8, 32))));
  const float con[12] = {2.5f, 0.0f, 2.5f, 6.5f, 0.0f, 2.5f, 1.5f, 0.0f, 0.5f, 3.5f, 0.0f, 1.5f};
  nav::TileRef first = 0;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      GridTileSpec t = s;
      t.tx = x;
      t.ty = y;
      t.bvTree = !(x == 1 && y == 0);
      const std::vector<uint8_t> blob = buildGridTile(t, con, 2, 1);
      nav::TileRef ref = 0;
      EXPECT_TRUE(nav::statusSucceeded(m.addTile(dupBlob(blob), int(blob.size()), nav::TILE_FREE_DATA, 0, &ref)));
      if (!first) first = ref;
    }
  uint8_t* data = nullptr;
  int size = 0;
  EXPECT_TRUE(nav::statusSucceeded(m.removeTile(first, &data, &size)));
  GridTileSpec t0 = s;
  const std::vector<uint8_t> blob = buildGridTile(t0, con, 2, 1);
  EXPECT_TRUE(nav::statusSucceeded(m.addTile(dupBlob(blob), int(blob.size()), nav::TILE_FREE_DATA, 0, nullptr)));
  std::vector<uint8_t> out;
  EXPECT_TRUE(nav::statusSucceeded(nav::saveTileSet(m, out)));
  return out;
}

const std::vector<uint8_t>& validSet() {
  static const std::vector<uint8_t> set = makeValidSet();
  return set;
}

// Byte offsets of tile i's record header and data in a set.
struct TileAt {
  size_t record, data;
  int size;
};
std::vector<TileAt> tilesOf(const std::vector<uint8_t>& set) {
  std::vector<TileAt> out;
  nav::TileSetHeader h;
  std::memcpy(&h, set.data(), sizeof h);
  size_t pos = sizeof h;
  for (int i = 0; i < h.numTiles; ++i) {
    nav::TileSetTileHeader th;
    std::memcpy(&th, set.data() + pos, sizeof th);
    out.push_back({pos, pos + sizeof th, th.dataSize});
    pos += sizeof th + size_t(th.dataSize);
  }
  return out;
}

template <class T> void poke(std::vector<uint8_t>& buf, size_t off, T v) { std::memcpy(buf.data() + off, &v, sizeof v); }
template <class T> T peek(const std::vector<uint8_t>& buf, size_t off) {
  T v;
  std::memcpy(&v, buf.data() + off, sizeof v);
  return v;
}

// Exercises a loaded mesh (so a bad tile that slipped through shows up under the sanitizers).
void exercise(const nav::NavMesh& m) {
  for (int i = 0; i < m.getMaxTiles(); ++i) {
    const nav::MeshTile* t = m.getTile(i);
    if (!t->header) continue;
    float c[3];
    for (int k = 0; k < 3; ++k) c[k] = (t->header->bmin[k] + t->header->bmax[k]) * 0.5f;
    const float ext[3] = {2, 4, 2};
    float np[3];
    m.findNearestPolyInTile(t, c, ext, np);
    nav::PolyRef polys[64];
    float qmin[3], qmax[3];
    nav::vsub(qmin, c, ext);
    nav::vadd(qmax, c, ext);
    m.queryPolygonsInTile(t, qmin, qmax, polys, 64);
    for (int p = 0; p < t->header->polyCount; ++p) {
      bool over;
      m.closestPointOnPoly(m.getPolyRefBase(t) | nav::PolyRef(p), c, np, &over);
      for (uint32_t l = t->polys[p].firstLink; l != nav::NULL_LINK; l = t->links[l].next) {
        const nav::MeshTile* lt;
        const nav::Poly* lp;
        EXPECT_TRUE(nav::statusSucceeded(m.getTileAndPolyByRef(t->links[l].ref, &lt, &lp))) << "link to a bad ref";
      }
    }
  }
}

// The caller's mesh, loaded from the valid set; every refused load must leave it as it was.
struct Target {
  nav::NavMesh mesh;
  std::vector<uint8_t> before;
  Target() {
    std::string why;
    EXPECT_TRUE(nav::statusSucceeded(nav::loadTileSet(validSet().data(), validSet().size(), mesh, &why))) << why;
    nav::saveTileSet(mesh, before);
  }
  void expectUntouched(const std::string& what) {
    std::vector<uint8_t> now;
    nav::saveTileSet(mesh, now);
    EXPECT_TRUE(now == before) << what << ": the caller's mesh changed after a refused load";
  }
};

// Loads `buf`; expects a refusal whose message names the source (and `expect` if given).
void expectRefused(Target& target, const std::vector<uint8_t>& buf, const std::string& what,
                   const char* expect = nullptr) {
  std::string why;
  const nav::Status s = nav::loadTileSet(buf.data(), buf.size(), target.mesh, &why, "corrupt.mset");
  EXPECT_TRUE(nav::statusFailed(s)) << what << ": accepted";
  EXPECT_EQ(why.rfind("corrupt.mset: ", 0), 0u) << what << ": message does not name the source: " << why;
  if (expect) {
    EXPECT_NE(why.find(expect), std::string::npos) << what << ": message '" << why << "' lacks '" << expect << "'";
  }
  target.expectUntouched(what);
}

} // namespace

TEST(CorruptTileSet, ValidSetLoads) {
  nav::NavMesh m;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSet(validSet().data(), validSet().size(), m, &why))) << why;
  EXPECT_EQ(m.tileCount(), 6);
  exercise(m);
  const std::string report = nav::describeTiles(m);
  EXPECT_NE(report.find("tiles 6, tile bytes"), std::string::npos) << report;
}

TEST(CorruptTileSet, TruncatedAtEveryByte) {
  Target target;
  const std::vector<uint8_t>& set = validSet();
  for (size_t n = 0; n < set.size(); ++n) {
    std::vector<uint8_t> cut(set.begin(), set.begin() + long(n));
    std::string why;
    nav::NavMesh m;
    ASSERT_TRUE(nav::statusFailed(nav::loadTileSet(cut.data(), cut.size(), m, &why, "cut.mset"))) << "cut at " << n;
    ASSERT_EQ(why.rfind("cut.mset: ", 0), 0u) << why;
    ASSERT_EQ(m.tileCount(), 0);
  }
  std::vector<uint8_t> cut(set.begin(), set.begin() + long(set.size() / 2));
  expectRefused(target, cut, "half a file", "tile");
  std::vector<uint8_t> longer = set;
  longer.push_back(0);
  expectRefused(target, longer, "trailing byte", "after the last tile");
}

TEST(CorruptTileSet, HeaderFields) {
  Target target;
  const std::vector<uint8_t>& set = validSet();
  auto with = [&](size_t off, int32_t v) {
    std::vector<uint8_t> b = set;
    poke(b, off, v);
    return b;
  };
  expectRefused(target, with(0, 0x4d534554 ^ 1), "magic", "magic");
  expectRefused(target, with(4, 2), "version", "version");
  expectRefused(target, with(8, -1), "negative tile count", "numTiles");
  expectRefused(target, with(8, 7), "more tiles than present", "tile 6");
  expectRefused(target, with(8, 1000), "tile count past maxTiles", "numTiles");
  expectRefused(target, with(8, 0x7fffffff), "huge tile count", "numTiles");
  const size_t params = 12;
  std::vector<uint8_t> b = set;
  poke(b, params + 12, 0.0f);
  expectRefused(target, b, "tile width 0", "tile size");
  b = set;
  poke(b, params + 0, std::nanf(""));
  expectRefused(target, b, "NaN origin", "origin");
  expectRefused(target, with(params + 20, 0), "maxTiles 0", "maxTiles");
  expectRefused(target, with(params + 20, 5), "maxTiles below the tile count", "numTiles");
  // maxTiles 6 (3 tile bits) but a tile restored at slot 7.
  b = with(params + 20, 6);
  poke<uint32_t>(b, tilesOf(set)[5].record, (1u << 8) | (7u << 5));
  expectRefused(target, b, "slot past maxTiles", "slot 7 >= maxTiles 6");
  expectRefused(target, with(params + 24, 4), "maxPolys below the tiles' poly count", "maxPolys");
  // Too many ref bits: maxPolys 2^22 (22 poly bits) leaves 32 - 22 - tile bits < 10 salt bits.
  // (A maxTiles that large is now refused earlier, by the slot limit: tests/fuzz/LimitsTest.cpp.)
  expectRefused(target, with(params + 24, 1 << 22), "ref bits too wide", "salt");
  expectRefused(target, with(params + 20, 1 << 20), "tile slots past the limit", "slots");
}

TEST(CorruptTileSet, TileRecords) {
  Target target;
  const std::vector<uint8_t>& set = validSet();
  const std::vector<TileAt> tiles = tilesOf(set);
  ASSERT_EQ(tiles.size(), 6u);
  std::vector<uint8_t> b = set;
  poke<uint32_t>(b, tiles[2].record, 0);
  expectRefused(target, b, "tile ref 0", "tile 2: tile ref is 0");
  // Salt 0 in the ref (maxTiles 8 -> 3 tile bits, maxPolys 32 -> 5 poly bits).
  b = set;
  poke<uint32_t>(b, tiles[2].record, peek<uint32_t>(b, tiles[2].record) & 0xff);
  expectRefused(target, b, "salt 0", "salt 0");
  // Two tiles claim the same slot.
  b = set;
  poke<uint32_t>(b, tiles[3].record, peek<uint32_t>(b, tiles[2].record));
  expectRefused(target, b, "duplicate ref", "in use");
  b = set;
  poke<int32_t>(b, tiles[1].record + 4, tiles[1].size + 4);
  expectRefused(target, b, "data size too big", "tile 1");
  b = set;
  poke<int32_t>(b, tiles[1].record + 4, -5);
  expectRefused(target, b, "negative data size", "tile 1");
  b = set;
  poke<int32_t>(b, tiles[1].record + 4, 0x7fffffff);
  expectRefused(target, b, "huge data size", "bytes left");
  // Two tiles at the same location: overwrite tile 4's coordinates with tile 3's.
  b = set;
  poke<int32_t>(b, tiles[4].data + 8, peek<int32_t>(b, tiles[3].data + 8));
  poke<int32_t>(b, tiles[4].data + 12, peek<int32_t>(b, tiles[3].data + 12));
  expectRefused(target, b, "overlapping tiles", "already at this location");
  b = set;
  poke<int32_t>(b, tiles[0].data + 0, 0x12345678);
  expectRefused(target, b, "tile magic", "magic");
  b = set;
  poke<int32_t>(b, tiles[0].data + 4, 8);
  expectRefused(target, b, "tile version", "version");
}

TEST(CorruptTileSet, TileHeaderCountsAndScalars) {
  Target target;
  const std::vector<uint8_t>& set = validSet();
  const std::vector<TileAt> tiles = tilesOf(set);
  const size_t d = tiles[5].data;
  // Every int count of the header: negative, huge, off by one either way.
  const size_t countOffsets[] = {offsetof(nav::MeshHeader, polyCount),      offsetof(nav::MeshHeader, vertCount),
                                 offsetof(nav::MeshHeader, maxLinkCount),   offsetof(nav::MeshHeader, detailMeshCount),
                                 offsetof(nav::MeshHeader, detailVertCount), offsetof(nav::MeshHeader, detailTriCount),
                                 offsetof(nav::MeshHeader, bvNodeCount),    offsetof(nav::MeshHeader, offMeshConCount),
                                 offsetof(nav::MeshHeader, offMeshBase)};
  for (size_t off : countOffsets) {
    const int32_t v = peek<int32_t>(set, d + off);
    for (int32_t bad : {-1, 0x7fffffff, int32_t(0x80000000), v + 1, v - 1, v + 1000}) {
      if (bad == v || (off == offsetof(nav::MeshHeader, detailVertCount) && bad == 0)) continue;
      std::vector<uint8_t> b = set;
      poke(b, d + off, bad);
      expectRefused(target, b, "count at header offset " + std::to_string(off) + " = " + std::to_string(bad), "tile 5");
    }
  }
  const std::pair<size_t, float> floats[] = {
      {offsetof(nav::MeshHeader, walkableClimb), -1.0f},   {offsetof(nav::MeshHeader, walkableHeight), INFINITY},
      {offsetof(nav::MeshHeader, bmin), 1e9f},             {offsetof(nav::MeshHeader, bmax) + 4, std::nanf("")},
      {offsetof(nav::MeshHeader, bvQuantFactor), 0.0f},    {offsetof(nav::MeshHeader, bvQuantFactor), 1e6f},
      {offsetof(nav::MeshHeader, bvQuantFactor), -2.0f}};
  for (const auto& f : floats) {
    std::vector<uint8_t> b = set;
    poke(b, d + f.first, f.second);
    expectRefused(target, b, "float at header offset " + std::to_string(f.first), "tile 5");
  }
  std::vector<uint8_t> b = set;
  poke<int32_t>(b, d + offsetof(nav::MeshHeader, x), 1 << 30);
  expectRefused(target, b, "tile x far out", "coordinates");
}

TEST(CorruptTileSet, IndicesOutOfRange) {
  Target target;
  const std::vector<uint8_t>& set = validSet();
  const std::vector<TileAt> tiles = tilesOf(set);
  const size_t d = tiles[0].data; // tile (0,0): BV tree and the stored off-mesh connections
  const nav::MeshHeader h = peek<nav::MeshHeader>(set, d);
  ASSERT_GT(h.offMeshConCount, 0);
  ASSERT_GT(h.bvNodeCount, 0);
  const nav::TileLayout lay = nav::tileLayout(h);
  auto polyOff = [&](int p) { return d + size_t(lay.polys) + size_t(p) * sizeof(nav::Poly); };
  struct Case {
    const char* what;
    std::function<void(std::vector<uint8_t>&)> edit;
    const char* expect;
  };
  const Case cases[] = {
      {"vertex index", [&](auto& b) { poke<uint16_t>(b, polyOff(5) + offsetof(nav::Poly, verts) + 2 * 3, 900); },
       "poly 5 vertex 3 index 900 >= vertCount"},
      {"vertex count 7", [&](auto& b) { poke<uint8_t>(b, polyOff(2) + offsetof(nav::Poly, vertCount), 7); }, "poly 2 has 7"},
      {"vertex count 2", [&](auto& b) { poke<uint8_t>(b, polyOff(2) + offsetof(nav::Poly, vertCount), 2); }, "poly 2 has 2"},
      {"neighbour index", [&](auto& b) { poke<uint16_t>(b, polyOff(6) + offsetof(nav::Poly, neis) + 2, 200); },
       "poly 6 edge 1 neighbour 199"},
      {"neighbour is an off-mesh poly",
       [&](auto& b) { poke<uint16_t>(b, polyOff(6) + offsetof(nav::Poly, neis) + 2, uint16_t(h.offMeshBase + 1)); },
       "neighbour"},
      {"border side", [&](auto& b) { poke<uint16_t>(b, polyOff(0) + offsetof(nav::Poly, neis), 0x8009); }, "side 9"},
      {"poly type", [&](auto& b) { poke<uint8_t>(b, polyOff(1) + offsetof(nav::Poly, areaAndType), 0x80); }, "type"},
      {"ground poly typed off-mesh",
       [&](auto& b) { poke<uint8_t>(b, polyOff(1) + offsetof(nav::Poly, areaAndType), 0x40); }, "type"},
      {"off-mesh vertex", [&](auto& b) { poke<uint16_t>(b, polyOff(h.offMeshBase) + offsetof(nav::Poly, verts) + 2, 5000); },
       "vertex 1 index 5000"},
      {"detail vert range",
       [&](auto& b) { poke<uint32_t>(b, d + size_t(lay.detailMeshes) + 3 * sizeof(nav::PolyDetail), 100000); },
       "detail verts"},
      {"detail tri range",
       [&](auto& b) { poke<uint32_t>(b, d + size_t(lay.detailMeshes) + 3 * sizeof(nav::PolyDetail) + 4, 100000); },
       "detail tris"},
      {"no detail tris",
       [&](auto& b) { poke<uint8_t>(b, d + size_t(lay.detailMeshes) + 3 * sizeof(nav::PolyDetail) + 9, 0); },
       "no detail triangles"},
      {"detail tri vertex", [&](auto& b) { poke<uint8_t>(b, d + size_t(lay.detailTris) + 4 * 3 + 1, 9); },
       "detail tri 1 vertex 1 index 9"},
      {"BV leaf poly", [&](auto& b) { poke<int32_t>(b, d + size_t(lay.bvTree) + 12 + 16 * 1, 999); }, "BV node 1 names poly 999"},
      {"BV escape", [&](auto& b) { poke<int32_t>(b, d + size_t(lay.bvTree) + 12, -1000); }, "escape"},
      {"BV escape INT_MIN", [&](auto& b) { poke<int32_t>(b, d + size_t(lay.bvTree) + 12, INT32_MIN); }, "escape"},
      {"off-mesh poly index",
       [&](auto& b) { poke<uint16_t>(b, d + size_t(lay.offMeshCons) + offsetof(nav::OffMeshConnection, poly), 3); },
       "off-mesh connection 0 names poly 3"},
      {"off-mesh side",
       [&](auto& b) { poke<uint8_t>(b, d + size_t(lay.offMeshCons) + offsetof(nav::OffMeshConnection, side), 12); },
       "side 12"},
      {"off-mesh radius",
       [&](auto& b) { poke<float>(b, d + size_t(lay.offMeshCons) + offsetof(nav::OffMeshConnection, rad), -1.0f); },
       "radius"},
      {"vertex NaN", [&](auto& b) { poke<float>(b, d + size_t(lay.verts) + 4, std::nanf("")); }, "vertex 0 is not finite"},
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> b = set;
    c.edit(b);
    expectRefused(target, b, c.what, c.expect);
  }
}

TEST(CorruptTileSet, LinkBudgetTooSmall) {
  // Rebuild tile 0 with a smaller link pool (sizes kept consistent), so only the budget is wrong.
  Target target;
  const std::vector<uint8_t>& set = validSet();
  const std::vector<TileAt> tiles = tilesOf(set);
  const size_t d = tiles[0].data;
  nav::MeshHeader h = peek<nav::MeshHeader>(set, d);
  const nav::TileLayout lay = nav::tileLayout(h);
  h.maxLinkCount -= 3;
  const nav::TileLayout small = nav::tileLayout(h);
  std::vector<uint8_t> blob(size_t(small.total));
  std::memcpy(blob.data(), set.data() + d, size_t(small.links)); // header, verts, polys
  std::memcpy(blob.data(), &h, sizeof h);
  std::memcpy(blob.data() + small.links, set.data() + d + lay.links, size_t(small.detailMeshes - small.links));
  std::memcpy(blob.data() + small.detailMeshes, set.data() + d + lay.detailMeshes, size_t(small.total - small.detailMeshes));
  std::vector<uint8_t> b(set.begin(), set.begin() + long(tiles[0].record));
  nav::TileSetTileHeader th = peek<nav::TileSetTileHeader>(set, tiles[0].record);
  th.dataSize = int32_t(blob.size());
  b.insert(b.end(), reinterpret_cast<uint8_t*>(&th), reinterpret_cast<uint8_t*>(&th) + sizeof th);
  b.insert(b.end(), blob.begin(), blob.end());
  b.insert(b.end(), set.begin() + long(tiles[0].data) + tiles[0].size, set.end());
  expectRefused(target, b, "link budget", "link budget");
}

TEST(CorruptTileSet, RandomByteFlipsNeverCrash) {
  Target target;
  const std::vector<uint8_t>& set = validSet();
  std::mt19937 rng(1234);
#ifdef NAV_SANITIZED_BUILD
  const int rounds = 3000;
#else
  const int rounds = 6000;
#endif
  int refused = 0, accepted = 0;
  for (int r = 0; r < rounds; ++r) {
    std::vector<uint8_t> b = set;
    const int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      const size_t off = rng() % b.size();
      switch (rng() % 3) {
      case 0: b[off] ^= uint8_t(1u << (rng() % 8)); break;
      case 1: b[off] = uint8_t(rng()); break;
      default: b[off] = 0xff; break;
      }
    }
    nav::NavMesh m;
    std::string why;
    if (nav::statusSucceeded(nav::loadTileSet(b.data(), b.size(), m, &why, "flip.mset"))) {
      ++accepted;
      exercise(m); // what passed validation must be safe to use
    } else {
      ++refused;
      ASSERT_EQ(why.rfind("flip.mset: ", 0), 0u) << why;
    }
  }
  EXPECT_GT(refused, rounds / 4);
  std::printf("[ flips    ] %d refused, %d accepted (flips in unchecked bytes: flags, areas, links, heights)\n",
              refused, accepted);
}

TEST(CorruptTileSet, FilesAreWrittenAtomicallyAndErrorsNameTheFile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("nav_tileset_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  nav::NavMesh m;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSet(validSet().data(), validSet().size(), m, &why))) << why;
  const std::string path = (dir / "set.mset").string();
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSetFile(m, path, &why))) << why;
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  nav::NavMesh back;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(path, back, &why))) << why;
  EXPECT_EQ(back.tileCount(), 6);
  // Overwriting keeps a complete file at every moment (rename over the old one).
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSetFile(back, path, &why))) << why;
  EXPECT_EQ(fs::file_size(path), validSet().size());
  EXPECT_TRUE(nav::statusFailed(nav::loadTileSetFile((dir / "missing.mset").string(), back, &why)));
  EXPECT_NE(why.find("missing.mset"), std::string::npos) << why;
  EXPECT_EQ(back.tileCount(), 6);
  EXPECT_TRUE(nav::statusFailed(nav::saveTileSetFile(m, (dir / "no" / "such" / "dir.mset").string(), &why)));
  EXPECT_NE(why.find("dir.mset"), std::string::npos) << why;
  // A corrupt file on disk.
  std::vector<uint8_t> bad = validSet();
  bad[bad.size() / 2] ^= 0xff;
  bad.resize(bad.size() - 3);
  const std::string badPath = (dir / "bad.mset").string();
  FILE* f = std::fopen(badPath.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(bad.data(), 1, bad.size(), f);
  std::fclose(f);
  EXPECT_TRUE(nav::statusFailed(nav::loadTileSetFile(badPath, back, &why)));
  EXPECT_EQ(why.rfind(badPath + ": ", 0), 0u) << why;
  EXPECT_EQ(back.tileCount(), 6);
  fs::remove_all(dir);
}
