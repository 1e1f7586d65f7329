// LimitsTest.cpp: inputs beyond the documented size limits are refused with a message instead of
// being allocated (issue 8 "Limits"). Tile-set limits (tiles past maxTiles, polys past the ref
// bits / maxPolys) are covered by tests/nav/CorruptTileSetTest.cpp (HeaderFields, TileRecords).
#include "app/Level.h"
#include "nav/bake/ObjMesh.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
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

} // namespace
