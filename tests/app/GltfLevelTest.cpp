// The viewer's level load (app/Level.h) of glTF scenes: the same triangles as the OBJ twin, the
// same progress phases (Reading, Parsing, then the BVH and LOD), cancel, and a bad .glb leaving the
// open level as it was (what the viewer does on File > Open of a bad file).
#include "app/Level.h"
#include "nav/bake/GltfMesh.h"
#include "nav/bake/ObjMesh.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <unistd.h>

namespace {

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_gltflevel_" + std::to_string(::getpid()) + "_" + name;
}

/// The default level's triangles written as a .glb.
std::string defaultGlb(const std::string& name) {
  nav::bake::ObjMesh obj;
  std::string why;
  EXPECT_TRUE(nav::bake::loadObj(NAVBENCH_DEFAULT_LEVEL, &obj, &why)) << why;
  const std::string path = tempPath(name);
  EXPECT_TRUE(nav::bake::saveGlb(path, obj.verts, obj.tris, "default", &why)) << why;
  return path;
}

} // namespace

TEST(GltfLevel, LoadsAGlbWithTheObjPhasesAndItsTriangles) {
  const std::string glb = defaultGlb("level.glb");
  navbench::Level fromObj, fromGlb;
  std::string error;
  ASSERT_TRUE(fromObj.load(NAVBENCH_DEFAULT_LEVEL, error)) << error;
  std::set<navbench::LoadPhase> phases;
  float last = -1;
  ASSERT_EQ(fromGlb.load(glb, error, [&](navbench::LoadPhase phase, float f) {
    phases.insert(phase);
    EXPECT_GE(f, last);
    last = f;
    return true;
  }), navbench::LoadResult::Ok) << error;
  EXPECT_EQ(last, 1.0f);
  EXPECT_TRUE(phases.count(navbench::LoadPhase::Reading));
  EXPECT_TRUE(phases.count(navbench::LoadPhase::Parsing));
  EXPECT_TRUE(phases.count(navbench::LoadPhase::Bvh));
  EXPECT_EQ(fromGlb.mesh().verts, fromObj.mesh().verts);
  EXPECT_EQ(fromGlb.mesh().tris, fromObj.mesh().tris);
  EXPECT_EQ(fromGlb.mesh().boundsMin, fromObj.mesh().boundsMin);
  EXPECT_EQ(fromGlb.mesh().boundsMax, fromObj.mesh().boundsMax);
  EXPECT_EQ(fromGlb.path(), glb);
  std::remove(glb.c_str());
}

TEST(GltfLevel, BadOrCancelledGlbKeepsTheOpenLevel) {
  const std::string glb = defaultGlb("good.glb");
  navbench::Level level;
  std::string error;
  ASSERT_TRUE(level.load(NAVBENCH_DEFAULT_LEVEL, error)) << error;
  const std::vector<int> tris = level.mesh().tris;
  // Truncated: the good file cut in half.
  std::ifstream in(glb, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string bad = tempPath("bad.glb");
  std::ofstream(bad, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_FALSE(level.load(bad, error));
  EXPECT_EQ(error.rfind(bad + ": truncated GLB", 0), 0u) << error;
  EXPECT_EQ(level.path(), NAVBENCH_DEFAULT_LEVEL);
  EXPECT_EQ(level.mesh().tris, tris);
  EXPECT_EQ(level.load(glb, error, [](navbench::LoadPhase, float) { return false; }), navbench::LoadResult::Cancelled);
  EXPECT_EQ(error, glb + ": loading cancelled");
  EXPECT_EQ(level.path(), NAVBENCH_DEFAULT_LEVEL);
  EXPECT_EQ(level.mesh().tris, tris);
  std::remove(glb.c_str());
  std::remove(bad.c_str());
}
