// A level written as a multi-node .glb bakes to the same tile set, solo and tiled, in memory
// (Baker) and through the file bake, as the same triangles written as OBJ. The .glb is made here
// from the level's OBJ: its triangles cut into parts, each part under a node of its own (a
// translated root, a rotation quaternion, a `matrix`, a scaled grandchild; 16-bit, 32-bit and no
// indices), stored in that node's local frame so that the scene's world triangles are the level's.
#include "BakeTestUtil.h"
#include "GltfTestUtil.h"
#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"
#include "nav/bake/LevelMesh.h"
#include "nav/bake/ObjMesh.h"
#include "nav/bake/StreamBake.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <unistd.h>

using gltftest::json;
using namespace nav::bake;

namespace {

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_gltfbake_" + std::to_string(::getpid()) + "_" + name;
}

/// Inverse of a node's world transform, applied to a world point: the local point to store.
using ToLocal = std::function<void(const float* world, float* local)>;

/// `obj`'s triangles as a .glb of four nodes: root "base" translated (16-bit indices), child
/// "turned" rotated 90 degrees about +Y (32-bit), child "framed" with a `matrix` (no indices),
/// grandchild "scaled" under "turned" (scale 2, 0.5, 2; 16-bit). Vertices are unshared per part.
std::string multiNodeGlb(const ObjMesh& obj) {
  const double h = std::sqrt(0.5);
  const float t[3] = {7.5f, -1.25f, 3.0f};
  // World = base(p) = p + t; turned(p) = base(R p), R(x, y, z) = (z, y, -x); framed = base(M p) with
  // M = translate(1, 2, 3) * scale 2; scaled = turned(S p), S = (2, 0.5, 2).
  const ToLocal base = [&](const float* w, float* l) { for (int k = 0; k < 3; ++k) l[k] = float(double(w[k]) - t[k]); };
  const ToLocal turned = [&](const float* w, float* l) { float b[3]; base(w, b); l[0] = -b[2]; l[1] = b[1]; l[2] = b[0]; };
  const ToLocal framed = [&](const float* w, float* l) { float b[3]; base(w, b); l[0] = float((b[0] - 1.0) / 2); l[1] = float((b[1] - 2.0) / 2); l[2] = float((b[2] - 3.0) / 2); };
  const ToLocal scaled = [&](const float* w, float* l) { float r[3]; turned(w, r); l[0] = r[0] / 2; l[1] = r[1] * 2; l[2] = r[2] / 2; };
  // In the order the scene is walked (depth first): base, turned, scaled, framed.
  const ToLocal parts[4] = {base, turned, scaled, framed};
  const int indexKind[4] = {16, 32, 16, 0};
  gltftest::Scene s;
  const size_t nt = obj.tris.size() / 3;
  int meshes[4];
  for (int p = 0; p < 4; ++p) {
    std::vector<float> pos;
    for (size_t tri = nt * size_t(p) / 4; tri < nt * size_t(p + 1) / 4; ++tri)
      for (int c = 0; c < 3; ++c) {
        float l[3];
        parts[p](&obj.verts[size_t(obj.tris[tri * 3 + size_t(c)]) * 3], l);
        pos.insert(pos.end(), l, l + 3);
      }
    json prim = {{"attributes", {{"POSITION", s.positions(pos)}}}};
    const size_t n = pos.size() / 3;
    if (indexKind[p] == 16) {
      std::vector<uint16_t> idx(n);
      for (size_t i = 0; i < n; ++i) idx[i] = uint16_t(i);
      prim["indices"] = s.indices(idx);
    } else if (indexKind[p] == 32) {
      std::vector<uint32_t> idx(n);
      for (size_t i = 0; i < n; ++i) idx[i] = uint32_t(i);
      prim["indices"] = s.indices(idx);
    }
    meshes[p] = s.mesh("part" + std::to_string(p), json::array({prim})); // not {prim}: clang makes that a copy of prim
  }
  s.node({{"name", "base"}, {"translation", {t[0], t[1], t[2]}}, {"mesh", meshes[0]}, {"children", {1, 2}}});
  s.node({{"name", "turned"}, {"rotation", {0, h, 0, h}}, {"mesh", meshes[1]}, {"children", {3}}});
  s.node({{"name", "framed"}, {"matrix", {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1}}, {"mesh", meshes[3]}});
  s.node({{"name", "scaled"}, {"scale", {2, 0.5, 2}}, {"mesh", meshes[2]}});
  s.doc["scenes"] = {{{"nodes", {0}}}};
  return s.glb();
}

/// The mesh as OBJ text whose floats read back exactly.
std::string objText(const LevelMesh& m) {
  std::string out;
  char buf[96];
  for (size_t v = 0; v < m.verts.size(); v += 3) {
    std::snprintf(buf, sizeof buf, "v %.9g %.9g %.9g\n", double(m.verts[v]), double(m.verts[v + 1]), double(m.verts[v + 2]));
    out += buf;
  }
  for (size_t t = 0; t < m.tris.size(); t += 3) {
    std::snprintf(buf, sizeof buf, "f %d %d %d\n", m.tris[t] + 1, m.tris[t + 1] + 1, m.tris[t + 2] + 1);
    out += buf;
  }
  return out;
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> bakeMemory(const std::string& path, const BakeSettings& s) {
  BakeInput in;
  BakeSettings ignored;
  std::string why;
  EXPECT_TRUE(loadBakeInput(path, &in, &ignored, &why)) << why;
  Baker baker;
  EXPECT_TRUE(baker.setInput(std::move(in), &why)) << why;
  BakeOptions opt;
  opt.threads = 2;
  BakeReport r;
  EXPECT_TRUE(baker.bake(s, opt, &r)) << r.error;
  std::vector<uint8_t> bytes;
  EXPECT_TRUE(nav::statusSucceeded(nav::saveTileSet(*baker.navMesh(), bytes, &why))) << why;
  return bytes;
}

std::vector<uint8_t> bakeFile(const std::string& path, const BakeSettings& s, const std::string& out) {
  FileBakeInput fin;
  BakeSettings ignored;
  std::string why;
  EXPECT_TRUE(loadFileBakeInput(path, &fin, &ignored, &why)) << why;
  BakeOptions opt;
  opt.threads = 2;
  BakeReport r;
  EXPECT_TRUE(bakeFileToTileSet(fin, s, out, opt, &r)) << r.error;
  std::vector<uint8_t> bytes = readBytes(out);
  std::remove(out.c_str());
  return bytes;
}

/// The OBJ -> multi-node .glb -> world triangles (close to the OBJ's) -> twin OBJ of exactly those
/// triangles; both bake to the same bytes, solo and tiled, in memory and by the file bake.
void expectSameBakes(const std::string& objPath, BakeSettings tiled, const std::string& tag) {
  ObjMesh obj;
  std::string why;
  ASSERT_TRUE(loadObj(objPath, &obj, &why)) << why;
  const std::string glb = tempPath(tag + ".glb"), twin = tempPath(tag + "_twin.obj");
  ASSERT_TRUE(baketest::writeFile(glb, multiNodeGlb(obj)));
  LevelMesh m;
  ASSERT_TRUE(loadLevelMesh(glb, &m, &why)) << why;
  ASSERT_EQ(m.tris.size(), obj.tris.size());
  float worst = 0;
  for (size_t i = 0; i < m.tris.size(); ++i)
    for (int k = 0; k < 3; ++k)
      worst = std::max(worst, std::fabs(m.verts[size_t(m.tris[i]) * 3 + size_t(k)] - obj.verts[size_t(obj.tris[i]) * 3 + size_t(k)]));
  EXPECT_LT(worst, 1e-3f) << "world triangles differ from the OBJ's";
  ASSERT_EQ(m.groups.size(), 4u);
  EXPECT_EQ(m.groups[2].node, "scaled");
  EXPECT_EQ(m.groups[3].node, "framed");
  ASSERT_TRUE(baketest::writeFile(twin, objText(m)));
  tiled.tiled = true;
  BakeSettings solo = tiled;
  solo.tiled = false;
  for (const BakeSettings& s : {tiled, solo}) {
    SCOPED_TRACE(tag + (s.tiled ? " tiled" : " solo"));
    const std::vector<uint8_t> ref = bakeMemory(twin, s);
    ASSERT_FALSE(ref.empty());
    EXPECT_EQ(baketest::firstDiff(bakeMemory(glb, s), ref), -1);
    EXPECT_EQ(baketest::firstDiff(bakeFile(glb, s, tempPath(tag + "_file.bin")), ref), -1);
    EXPECT_EQ(baketest::firstDiff(bakeFile(twin, s, tempPath(tag + "_twinfile.bin")), ref), -1);
  }
  std::remove(glb.c_str());
  std::remove(twin.c_str());
}

} // namespace

TEST(GltfBake, DefaultLevelAsMultiNodeGlbBakesAsItsObjTwin) {
  BakeInput in;
  BakeSettings s;
  std::string why;
  ASSERT_TRUE(baketest::loadLevel(baketest::defaultLevel(), &in, &s, &why)) << why;
  expectSameBakes(baketest::defaultObj(), s, "default");
}

TEST(GltfBake, SharedDungeonAsMultiNodeGlbBakesAsItsObjTwin) {
  const std::string dungeon = baketest::sharedLevelsDir() + "/dungeon.obj";
  if (!baketest::fileExists(dungeon)) GTEST_SKIP() << "shared levels not found at " << baketest::sharedLevelsDir();
  BakeSettings s;
  s.tileSize = 48;
  expectSameBakes(dungeon, s, "dungeon");
}
