// LimitsTest.cpp: inputs beyond the documented size limits are refused with a message instead of
// being allocated (issue 8 "Limits"). Tile-set limits (tiles past maxTiles, polys past the ref
// bits / maxPolys) are covered by tests/nav/CorruptTileSetTest.cpp (HeaderFields, TileRecords);
// the tile-slot limit (a header asking for millions of slots) is here.
#include "app/Level.h"
#include "nav/TileSetFile.h"
#include "nav/bake/ObjMesh.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
#include <unistd.h>

namespace {

// A sparse file of `bytes` (no disk blocks used): a valid OBJ head, then holes (zero bytes).
std::string sparseObj(long long bytes) {
  const std::string path = ::testing::TempDir() + "navbench_limits_" + std::to_string(getpid()) + ".obj";
  FILE* f = std::fopen(path.c_str(), "wb");
  EXPECT_NE(f, nullptr);
  const char head[] = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n";
  std::fwrite(head, 1, sizeof(head) - 1, f);
  std::fclose(f);
  EXPECT_EQ(truncate(path.c_str(), off_t(bytes)), 0);
  return path;
}

TEST(Limits, BakeObjLoaderRefusesFilesOverTheSizeLimit) {
  const std::string path = sparseObj(nav::bake::MAX_OBJ_BYTES + 1);
  nav::bake::ObjMesh mesh;
  std::string why;
  EXPECT_FALSE(nav::bake::loadObj(path, &mesh, &why));
  EXPECT_NE(why.find(path), std::string::npos) << why;
  EXPECT_NE(why.find("512 MiB OBJ size limit"), std::string::npos) << why;
  EXPECT_TRUE(mesh.verts.empty());
  std::remove(path.c_str());
}

TEST(Limits, ViewerObjLoaderRefusesFilesOverTheSizeLimit) {
  const std::string path = sparseObj(navbench::MAX_OBJ_BYTES + 1);
  navbench::TriMesh mesh;
  std::string why;
  EXPECT_FALSE(navbench::loadObj(path, mesh, why));
  EXPECT_NE(why.find(path), std::string::npos) << why;
  EXPECT_NE(why.find("512 MiB OBJ size limit"), std::string::npos) << why;
  std::remove(path.c_str());
}

TEST(Limits, ObjAtTheLimitIsNotRefusedForItsSize) {
  // A small file passes the size check (and loads): the limit is what refuses, not the probe.
  const std::string path = sparseObj(32);
  nav::bake::ObjMesh mesh;
  std::string why;
  EXPECT_TRUE(nav::bake::loadObj(path, &mesh, &why)) << why;
  EXPECT_EQ(mesh.tris.size(), 3u);
  navbench::TriMesh tm;
  EXPECT_TRUE(navbench::loadObj(path, tm, why)) << why;
  std::remove(path.c_str());
}

// The bundled level's tile set with its header's maxTiles / maxPolys replaced and each tile's ref
// re-encoded for that bit split (slot = record index, salt 1). default.bin: 42 tiles of at most 9
// polys, maxTiles 64, maxPolys 65536; maxPolys 16 leaves room for 18 tile bits.
std::vector<uint8_t> defaultTileSet(int maxTiles, int maxPolys, int numTiles = -1) {
  std::ifstream in(NAVBENCH_SOURCE_DIR "/assets/levels/default.bin", std::ios::binary);
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_GE(b.size(), sizeof(nav::TileSetHeader));
  nav::TileSetHeader h;
  std::memcpy(&h, b.data(), sizeof h);
  h.params.maxTiles = maxTiles;
  h.params.maxPolys = maxPolys;
  int tileBits = 0, polyBits = 0;
  while ((1 << tileBits) < maxTiles) ++tileBits;
  while ((1 << polyBits) < maxPolys) ++polyBits;
  size_t pos = sizeof h;
  for (int i = 0; i < h.numTiles && pos + sizeof(nav::TileSetTileHeader) <= b.size(); ++i) {
    nav::TileSetTileHeader th;
    std::memcpy(&th, b.data() + pos, sizeof th);
    th.tileRef = nav::TileRef((uint64_t(1) << (tileBits + polyBits)) | (uint64_t(i) << polyBits));
    std::memcpy(b.data() + pos, &th, sizeof th);
    pos += sizeof th + size_t(th.dataSize);
  }
  if (numTiles >= 0) {
    h.numTiles = numTiles;
    if (numTiles == 0) b.resize(sizeof h);
  }
  std::memcpy(b.data(), &h, sizeof h);
  return b;
}

TEST(Limits, TileSetHeaderCannotAskForMillionsOfSlots) {
  // 2^20 slots (~100 MB of slot table) for 42 tiles: refused before init allocates anything, and
  // the mesh keeps what it had.
  nav::NavMesh mesh;
  std::string why;
  const std::vector<uint8_t> good = defaultTileSet(64, 65536);
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSet(good.data(), good.size(), mesh, &why, "default.bin"))) << why;
  const std::vector<uint8_t> big = defaultTileSet(1 << 20, 16);
  EXPECT_TRUE(nav::statusFailed(nav::loadTileSet(big.data(), big.size(), mesh, &why, "big.bin")));
  EXPECT_NE(why.find("big.bin"), std::string::npos) << why;
  EXPECT_NE(why.find("maxTiles 1048576"), std::string::npos) << why;
  EXPECT_NE(why.find("limit is 65536 slots"), std::string::npos) << why;
  EXPECT_EQ(mesh.getMaxTiles(), 64) << "a refused load leaves the mesh untouched";
  // The largest ask the ref bits allow, in a header with no tiles at all.
  const std::vector<uint8_t> empty = defaultTileSet(1 << 22, 1, 0);
  EXPECT_TRUE(nav::statusFailed(nav::loadTileSet(empty.data(), empty.size(), mesh, &why, "empty.bin")));
  EXPECT_NE(why.find("maxTiles 4194304"), std::string::npos) << why;
}

TEST(Limits, TileSetSlotsUpToTheFloorStillLoad) {
  // RecastDemo and our bake write at most 2^14 slots; anything up to the floor loads.
  for (int maxTiles : {64, 1 << 14, nav::TILESET_SLOT_FLOOR}) {
    nav::NavMesh mesh;
    std::string why;
    const std::vector<uint8_t> b = defaultTileSet(maxTiles, 16);
    EXPECT_TRUE(nav::statusSucceeded(nav::loadTileSet(b.data(), b.size(), mesh, &why, "default.bin"))) << why;
    EXPECT_EQ(mesh.getMaxTiles(), maxTiles);
  }
  nav::NavMesh mesh;
  std::string why;
  const std::vector<uint8_t> b = defaultTileSet(nav::TILESET_SLOT_FLOOR + 1, 16);
  EXPECT_TRUE(nav::statusFailed(nav::loadTileSet(b.data(), b.size(), mesh, &why, "default.bin")));
}

} // namespace
