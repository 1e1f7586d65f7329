// The glTF reader (nav/bake/GltfMesh.h) on a scene built here from known triangles: a translated
// root, a rotation quaternion, a `matrix`, a scaled grandchild, a mirrored node; 8-, 16-, 32-bit
// and no indices; a strip and a fan; a sparse accessor; quantized positions; one mesh in two
// nodes. The world-space triangles must be the ones computed here by hand, in the same order, with
// the node / mesh / material names, alike from .glb, .gltf with a data: URI and .gltf + .bin.
#include "BakeTestUtil.h"
#include "GltfTestUtil.h"
#include "nav/bake/LevelMesh.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <unistd.h>

using gltftest::json;
using nav::bake::LevelMesh;

namespace {

using V = std::array<float, 3>;
using Tri = std::array<V, 3>;

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_gltf_" + std::to_string(::getpid()) + "_" + name;
}

const std::vector<float> kQuad = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
const std::vector<uint16_t> kQuadIdx = {0, 2, 1, 0, 3, 2};
const std::vector<float> kRamp = {0, 0, 0, 2, 1, 0, 0, 0, 2};

struct Built {
  gltftest::Scene scene;
  std::vector<Tri> expected;
  std::vector<std::array<std::string, 3>> names; ///< per expected triangle: node, mesh, material
};

V at(const std::vector<float>& v, int i) { return {v[size_t(i) * 3], v[size_t(i) * 3 + 1], v[size_t(i) * 3 + 2]}; }

Built buildScene() {
  Built b;
  gltftest::Scene& s = b.scene;
  s.doc["materials"] = {{{"name", "stone"}}};
  const int quadPos = s.positions(kQuad);
  const int floor = s.mesh("floor", {{{"attributes", {{"POSITION", quadPos}}}, {"indices", s.indices(kQuadIdx)}, {"material", 0}}});
  const int ramp = s.mesh("ramp", {{{"attributes", {{"POSITION", s.positions(kRamp)}}}, {"indices", s.indices(std::vector<uint32_t>{0, 1, 2})}}});
  std::vector<float> loose; // the quad's two triangles, not indexed
  for (uint16_t i : kQuadIdx)
    for (int k = 0; k < 3; ++k) loose.push_back(kQuad[i * 3u + unsigned(k)]);
  const int looseMesh = s.mesh("loose", {{{"attributes", {{"POSITION", s.positions(loose)}}}}});
  const std::vector<float> stripPos = {0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 2, 0, 0};
  const std::vector<float> fanPos = {0, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1};
  const int shapes = s.mesh("shapes", {{{"attributes", {{"POSITION", s.positions(stripPos)}}}, {"indices", s.indices(std::vector<uint8_t>{0, 1, 2, 3, 4})}, {"mode", 5}},
                                       {{"attributes", {{"POSITION", s.positions(fanPos)}}}, {"mode", 6}},
                                       {{"attributes", {{"POSITION", quadPos}}}, {"mode", 1}}}); // lines: skipped
  // Sparse: a base of three vertices, vertex 2 replaced by (0, 5, 1).
  const std::vector<float> sparseBase = {0, 0, 0, 1, 0, 0, 0, 0, 1};
  const int sparseAcc = s.accessor({{"bufferView", s.view(gltftest::bytesOf(sparseBase))}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"},
                                    {"sparse", {{"count", 1},
                                                {"indices", {{"bufferView", s.view(gltftest::bytesOf(std::vector<uint16_t>{2}))}, {"componentType", 5123}}},
                                                {"values", {{"bufferView", s.view(gltftest::bytesOf(std::vector<float>{0, 5, 1}))}}}}}});
  const int sparse = s.mesh("sparse", {{{"attributes", {{"POSITION", sparseAcc}}}}});
  // Quantized (KHR_mesh_quantization): int16 normalized, and uint8 unnormalized with a 4-byte stride.
  const int q16 = s.accessor({{"bufferView", s.view(gltftest::bytesOf(std::vector<int16_t>{0, 0, 0, 32767, 0, 0, 0, 0, -32767}))},
                              {"componentType", 5122}, {"normalized", true}, {"count", 3}, {"type", "VEC3"}});
  const int q8 = s.accessor({{"bufferView", s.view(gltftest::bytesOf(std::vector<uint8_t>{0, 0, 0, 9, 3, 0, 0, 9, 0, 2, 3, 9}), 4)},
                             {"componentType", 5121}, {"count", 3}, {"type", "VEC3"}});
  const int quant = s.mesh("quant", {{{"attributes", {{"POSITION", q16}}}}, {{"attributes", {{"POSITION", q8}}}}});
  s.doc["extensionsUsed"] = {"KHR_mesh_quantization"};
  s.doc["extensionsRequired"] = {"KHR_mesh_quantization"};

  const float h = float(std::sqrt(0.5));
  // Node order in the file differs from the walk's order on purpose (children listed by index).
  s.node({{"name", "root"}, {"translation", {10, 0, 5}}, {"mesh", floor}, {"children", {1, 2}}});            // 0
  s.node({{"name", "turned"}, {"rotation", {0, h, 0, h}}, {"mesh", ramp}, {"children", {3}}});               // 1
  s.node({{"name", "placed"}, {"matrix", {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 3, 0, 1}}, {"mesh", floor}}); // 2
  s.node({{"name", "small"}, {"scale", {0.5, 2, 0.5}}, {"mesh", looseMesh}});                                // 3
  s.node({{"name", "shapesNode"}, {"mesh", shapes}, {"children", {5}}});                                     // 4
  s.node({{"name", "extras"}, {"translation", {0, 0, -20}}, {"mesh", sparse}, {"children", {6}}});            // 5
  s.node({{"name", "mirror"}, {"scale", {-1, 1, 1}}, {"mesh", quant}});                                      // 6
  s.node({{"name", "unused"}, {"mesh", floor}});                                                             // 7: not in the scene
  s.doc["scenes"] = {{{"nodes", {0, 4}}}, {{"nodes", {7}}}};
  s.doc["scene"] = 0;

  // The expected world triangles, by hand.
  using Fn = std::function<V(V)>;
  const Fn root = [](V p) { return V{p[0] + 10, p[1], p[2] + 5}; };
  const Fn turned = [&](V p) { return root(V{p[2], p[1], -p[0]}); }; // 90 degrees about +Y
  const Fn small = [&](V p) { return turned(V{p[0] * 0.5f, p[1] * 2, p[2] * 0.5f}); };
  const Fn placed = [&](V p) { return root(V{2 * p[0], 2 * p[1] + 3, 2 * p[2]}); };
  const Fn ident = [](V p) { return p; };
  const Fn extras = [](V p) { return V{p[0], p[1], p[2] - 20}; };
  const Fn mirror = [&](V p) { return extras(V{-p[0], p[1], p[2]}); };
  auto add = [&](const Fn& f, V a, V c, V d, const std::string& node, const std::string& mesh, const std::string& mat,
                 bool flip = false) {
    b.expected.push_back(flip ? Tri{f(a), f(d), f(c)} : Tri{f(a), f(c), f(d)});
    b.names.push_back({node, mesh, mat});
  };
  auto quadTris = [&](const Fn& f, const std::string& node, const std::string& mesh, const std::string& mat) {
    for (size_t t = 0; t < kQuadIdx.size(); t += 3)
      add(f, at(kQuad, kQuadIdx[t]), at(kQuad, kQuadIdx[t + 1]), at(kQuad, kQuadIdx[t + 2]), node, mesh, mat);
  };
  quadTris(root, "root", "floor", "stone");
  add(turned, at(kRamp, 0), at(kRamp, 1), at(kRamp, 2), "turned", "ramp", "");
  quadTris(small, "small", "loose", "");
  quadTris(placed, "placed", "floor", "stone");
  add(ident, at(stripPos, 0), at(stripPos, 1), at(stripPos, 2), "shapesNode", "shapes", ""); // strip: (0 1 2) (1 3 2) (2 3 4)
  add(ident, at(stripPos, 1), at(stripPos, 3), at(stripPos, 2), "shapesNode", "shapes", "");
  add(ident, at(stripPos, 2), at(stripPos, 3), at(stripPos, 4), "shapesNode", "shapes", "");
  add(ident, at(fanPos, 1), at(fanPos, 2), at(fanPos, 0), "shapesNode", "shapes", ""); // fan: (1 2 0) (2 3 0)
  add(ident, at(fanPos, 2), at(fanPos, 3), at(fanPos, 0), "shapesNode", "shapes", "");
  add(extras, V{0, 0, 0}, V{1, 0, 0}, V{0, 5, 1}, "extras", "sparse", "");
  add(mirror, V{0, 0, 0}, V{1, 0, 0}, V{0, 0, -1}, "mirror", "quant", "", true);
  add(mirror, V{0, 0, 0}, V{3, 0, 0}, V{0, 2, 3}, "mirror", "quant", "", true);
  return b;
}

void expectTriangles(const LevelMesh& m, const Built& b) {
  ASSERT_EQ(m.tris.size(), b.expected.size() * 3);
  ASSERT_EQ(m.triGroup.size(), b.expected.size());
  for (size_t t = 0; t < b.expected.size(); ++t)
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(m.verts[size_t(m.tris[t * 3 + size_t(c)]) * 3 + size_t(k)], b.expected[t][size_t(c)][size_t(k)], 1e-5)
            << "triangle " << t << " corner " << c << " axis " << k;
  for (size_t t = 0; t < b.expected.size(); ++t) {
    const nav::bake::MeshGroup& g = m.groups.at(m.triGroup[t]);
    EXPECT_EQ(g.node, b.names[t][0]) << t;
    EXPECT_EQ(g.mesh, b.names[t][1]) << t;
    EXPECT_EQ(g.material, b.names[t][2]) << t;
  }
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("mesh 3 'shapes' primitive 2: lines (mode 1) skipped"), std::string::npos) << m.notes[0];
}

} // namespace

TEST(GltfScene, WorldTrianglesFromEveryNodeTransformAndAccessorKind) {
  const Built b = buildScene();
  const std::string glb = tempPath("scene.glb");
  ASSERT_TRUE(baketest::writeFile(glb, b.scene.glb()));
  LevelMesh m;
  std::string why;
  long long calls = 0, last = -1, lastTotal = 0;
  ASSERT_TRUE(nav::bake::loadLevelMesh(glb, &m, &why, [&](long long done, long long total) {
    EXPECT_GE(done, last);
    last = done;
    lastTotal = total;
    ++calls;
    return true;
  })) << why;
  expectTriangles(m, b);
  EXPECT_GT(calls, 1);
  EXPECT_EQ(last, lastTotal); // the placing half ends at the total
  std::remove(glb.c_str());
}

TEST(GltfScene, GltfWithDataUriAndWithExternalBinGiveTheGlbTriangles) {
  const Built b = buildScene();
  std::string why;
  LevelMesh fromGlb, embedded, external;
  ASSERT_TRUE(nav::bake::readGltf("scene.glb", b.scene.glb(), "", &fromGlb, &why)) << why;
  const std::string emb = tempPath("embedded.gltf"), ext = tempPath("external.gltf"), bin = tempPath("external data.bin");
  ASSERT_TRUE(baketest::writeFile(emb, b.scene.gltfEmbedded()));
  const std::string binName = bin.substr(bin.find_last_of('/') + 1);
  std::string uri; // the space percent-encoded, as exporters write it
  for (char c : binName) uri += c == ' ' ? std::string("%20") : std::string(1, c);
  ASSERT_TRUE(baketest::writeFile(ext, b.scene.gltfExternal(uri)));
  ASSERT_TRUE(baketest::writeFile(bin, b.scene.bin));
  ASSERT_TRUE(nav::bake::loadLevelMesh(emb, &embedded, &why)) << why;
  ASSERT_TRUE(nav::bake::loadLevelMesh(ext, &external, &why)) << why;
  expectTriangles(fromGlb, b);
  for (const LevelMesh* m : {&embedded, &external}) {
    EXPECT_EQ(m->verts, fromGlb.verts);
    EXPECT_EQ(m->tris, fromGlb.tris);
    EXPECT_EQ(m->triGroup, fromGlb.triGroup);
  }
  for (const std::string& p : {emb, ext, bin}) std::remove(p.c_str());
}

TEST(GltfScene, NoScenesMeansEveryRootNode) {
  Built b = buildScene();
  b.scene.doc.erase("scenes");
  b.scene.doc.erase("scene");
  LevelMesh m;
  std::string why;
  ASSERT_TRUE(nav::bake::readGltf("roots.glb", b.scene.glb(), "", &m, &why)) << why;
  EXPECT_EQ(m.tris.size(), (b.expected.size() + 2) * 3); // node 7's quad too
}

TEST(GltfScene, SaveGlbRoundTripsExactly) {
  const std::vector<float> verts = {0.1f, 0.2f, 0.3f, 1e-7f, -5.5f, 3.25f, 100.f, 0, -1};
  const std::vector<int> tris = {0, 1, 2, 2, 1, 0};
  const std::string p = tempPath("saved.glb");
  std::string why;
  ASSERT_TRUE(nav::bake::saveGlb(p, verts, tris, "world", &why)) << why;
  LevelMesh m;
  ASSERT_TRUE(nav::bake::loadLevelMesh(p, &m, &why)) << why;
  EXPECT_EQ(m.verts, verts);
  EXPECT_EQ(m.tris, tris);
  ASSERT_EQ(m.groups.size(), 1u);
  EXPECT_EQ(m.groups[0].node, "world");
  std::remove(p.c_str());
}
