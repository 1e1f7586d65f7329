// Bad glTF input: every refusal names the file and the problem, nothing crashes, nothing huge is
// allocated for a hostile size before it is checked.
#include "BakeTestUtil.h"
#include "GltfTestUtil.h"
#include "nav/bake/LevelMesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <unistd.h>

using gltftest::json;
using nav::bake::LevelMesh;

namespace {

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_gltfbad_" + std::to_string(::getpid()) + "_" + name;
}

/// One triangle, indexed, in one node: the base every case below breaks in one way.
gltftest::Scene goodScene(std::vector<float> pos = {0, 0, 0, 1, 0, 0, 0, 0, 1}, std::vector<uint32_t> idx = {0, 1, 2}) {
  gltftest::Scene s;
  const int m = s.mesh("wall", {{{"attributes", {{"POSITION", s.positions(pos)}}}, {"indices", s.indices(idx)}}});
  s.node({{"mesh", m}});
  return s;
}

/// The message for `bytes` read as the file `name` (written to a temp file; "" when accepted).
std::string refusal(const std::string& name, const std::string& bytes, const nav::bake::GltfLimits& limits = {}) {
  const std::string path = tempPath(name);
  EXPECT_TRUE(baketest::writeFile(path, bytes));
  LevelMesh m;
  std::string why;
  const bool ok = nav::bake::loadGltf(path, &m, &why, {}, limits);
  std::remove(path.c_str());
  if (ok) return "";
  EXPECT_EQ(why.rfind(path + ": ", 0), 0u) << why; // the file first
  return why.substr(path.size() + 2);
}

void expectRefused(const std::string& name, const std::string& bytes, const std::string& problem,
                   const nav::bake::GltfLimits& limits = {}) {
  const std::string got = refusal(name, bytes, limits);
  EXPECT_NE(got.find(problem), std::string::npos) << name << ": expected '" << problem << "' in '" << got << "'";
}

void setU32(std::string& s, size_t at, uint32_t v) { std::memcpy(&s[at], &v, 4); }

} // namespace

TEST(GltfBadInput, TruncatedOrCorruptGlb) {
  const std::string glb = goodScene().glb();
  ASSERT_EQ(refusal("ok.glb", glb), "");
  expectRefused("empty.glb", "", "not a GLB file (bad magic");
  expectRefused("short.glb", glb.substr(0, 3), "not a GLB file");
  expectRefused("seven.glb", glb.substr(0, 7), "truncated GLB: 7 bytes");
  expectRefused("header.glb", glb.substr(0, 10), "truncated GLB: 10 bytes");
  for (size_t cut : {size_t(12), size_t(16), size_t(40), glb.size() - 1}) {
    std::string t = glb.substr(0, cut);
    expectRefused("cut" + std::to_string(cut) + ".glb", t, "truncated GLB: the header says");
    setU32(t, 8, uint32_t(t.size())); // a consistent header over a cut-off chunk
    const std::string got = refusal("cutfixed" + std::to_string(cut) + ".glb", t);
    EXPECT_TRUE(got.find("truncated GLB") != std::string::npos || got.find("runs past the end") != std::string::npos ||
                got.find("not valid JSON") != std::string::npos)
        << cut << ": " << got;
  }
  std::string bad = glb;
  bad[0] = 'X';
  expectRefused("magic.glb", bad, "bad magic");
  bad = glb;
  setU32(bad, 4, 1);
  expectRefused("v1.glb", bad, "GLB version 1, NavBench reads version 2");
  bad = glb;
  setU32(bad, 12, 0x7ffffff0); // the JSON chunk's length
  expectRefused("chunk.glb", bad, "GLB chunk 0: length 2147483632 runs past the end of the file");
  bad = glb + "junk";
  expectRefused("long.glb", bad, "header says");
  bad = glb;
  bad[20] = '#'; // the JSON's first byte
  expectRefused("json.glb", bad, "not valid JSON");
  expectRefused("text.gltf", "{\"asset\": {\"version\": \"1.0\"}}", "glTF 1.0, NavBench reads glTF 2.x");
  expectRefused("noasset.gltf", "{}", "asset: missing");
}

TEST(GltfBadInput, BuffersAndViewsOutsideTheirData) {
  gltftest::Scene s = goodScene();
  s.doc["bufferViews"][1]["byteLength"] = 400; // the index view past the 48-byte buffer
  expectRefused("view.glb", s.glb(), "buffer view 1: bytes 36..436 run past the end of buffer 0 (48 bytes)");
  s = goodScene();
  s.doc["accessors"][0]["count"] = 4; // four vec3 in a 36-byte view
  expectRefused("acc.glb", s.glb(), "accessor 0: reads past the end of buffer view 0");
  s = goodScene();
  s.doc["accessors"][1]["byteOffset"] = 8;
  expectRefused("accoff.glb", s.glb(), "accessor 1: reads past the end of buffer view 1");
  s = goodScene();
  s.doc["accessors"][0]["bufferView"] = 9;
  expectRefused("index.glb", s.glb(), "accessors[0].bufferView: index 9 outside the 2 bufferViews");
  s = goodScene();
  s.doc["bufferViews"][0]["byteStride"] = 8; // less than a vec3 of floats
  expectRefused("stride.glb", s.glb(), "accessor 0: byteStride 8 is less than its element (12 bytes)");
  // A buffer claiming more than the BIN chunk holds.
  s = goodScene();
  json d = s.doc;
  d["buffers"] = {{{"byteLength", 4000}}};
  expectRefused("bin.glb", nav::bake::glbContainer(d.dump(), s.bin), "buffer 0: byteLength 4000, but the BIN chunk holds 48 bytes");
  // External buffers: outside the folder, absolute, another scheme, missing, too short.
  for (const char* uri : {"../x.bin", "sub/../../x.bin", "/etc/passwd", "file:///etc/passwd", "http://example.com/a.bin", "%2E%2E/x.bin"})
    expectRefused("outside.gltf", s.gltfExternal(uri), "points outside the file's folder");
  expectRefused("missing.gltf", s.gltfExternal("nothere.bin"), "buffer 0: 'nothere.bin': cannot open the file");
  const std::string shortBin = tempPath("short.bin");
  ASSERT_TRUE(baketest::writeFile(shortBin, s.bin.substr(0, 10)));
  expectRefused("shortbin.gltf", s.gltfExternal(shortBin.substr(shortBin.find_last_of('/') + 1)), "holds 10 bytes, the buffer needs 48");
  std::remove(shortBin.c_str());
  d = s.doc;
  d["buffers"] = {{{"byteLength", 48}, {"uri", "data:application/octet-stream;base64,@@@"}}};
  expectRefused("b64.gltf", d.dump(), "buffer 0: bad base64 in its data: uri");
}

TEST(GltfBadInput, IndicesNanNodesAndExtensions) {
  expectRefused("index.glb", goodScene({0, 0, 0, 1, 0, 0, 0, 0, 1}, {0, 1, 70000}).glb(),
                "mesh 0 'wall' primitive 0: index 70000 outside the 3 vertices");
  expectRefused("nan.glb", goodScene({0, 0, 0, std::nanf(""), 0, 0, 0, 0, 1}).glb(), "accessor 0: NaN position (element 1)");
  expectRefused("inf.glb", goodScene({0, 0, 0, INFINITY, 0, 0, 0, 0, 1}).glb(), "NaN position");
  expectRefused("notmul3.glb", goodScene({0, 0, 0, 1, 0, 0, 0, 0, 1}, {0, 1, 2, 0}).glb(), "4 indices, not a multiple of 3");

  gltftest::Scene s = goodScene();
  s.node({{"children", {2}}});
  s.node({{"children", {1}}});
  expectRefused("cycle.glb", s.glb(), "node cycle at node");
  s = goodScene();
  s.doc["nodes"][0]["children"] = {0};
  expectRefused("self.glb", s.glb(), "node cycle at node 0 (its own child)");
  s = goodScene();
  s.node({{"children", {0}}});
  s.node({{"children", {0}}});
  expectRefused("twoparents.glb", s.glb(), "node 0 is a child of both node 1 and node 2");
  s = goodScene();
  s.doc["nodes"][0]["matrix"] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  s.doc["nodes"][0]["translation"] = {1, 0, 0};
  expectRefused("both.glb", s.glb(), "node 0: has both matrix and translation/rotation/scale");
  s = goodScene();
  s.doc["nodes"][0]["scale"] = {1e30, 1e30, 1e30};
  s.doc["nodes"][0]["translation"] = {0, 0, 0};
  s.node({{"scale", {1e30, 1, 1}}, {"children", {0}}});
  expectRefused("huge.glb", s.glb(), "is not a finite float after the node transforms");
  s = goodScene();
  s.doc["extensionsRequired"] = {"KHR_draco_mesh_compression"};
  expectRefused("draco.glb", s.glb(), "requires the extension KHR_draco_mesh_compression");
  s = goodScene();
  s.doc["meshes"][0]["primitives"][0]["mode"] = 1;
  expectRefused("lines.glb", s.glb(), "no triangles");
  s = goodScene();
  s.doc["nodes"][0]["mesh"] = 3;
  expectRefused("mesh.glb", s.glb(), "nodes[0].mesh: index 3 outside the 1 meshes");
  s = goodScene();
  s.doc["accessors"][0]["componentType"] = 5125; // uint32 positions: not in KHR_mesh_quantization
  expectRefused("u32pos.glb", s.glb(), "accessor 0: componentType 5125 is not allowed for positions");
}

TEST(GltfBadInput, LimitsAreCheckedBeforeAllocating) {
  nav::bake::GltfLimits small;
  small.maxTriangles = 100;
  small.maxVertices = 100;
  small.maxFileBytes = 1 << 20;
  // A view-less accessor (zeros) of two billion elements: refused by its count, not allocated.
  gltftest::Scene s = goodScene();
  s.doc["accessors"][0].erase("bufferView");
  s.doc["accessors"][0]["count"] = 2000000000;
  expectRefused("zeros.glb", s.glb(), "accessors[0].count: must be in [1, 100]", small);
  // One mesh in 200 nodes: over the triangle limit before any is placed.
  s = goodScene();
  for (int i = 0; i < 200; ++i) s.node({{"mesh", 0}});
  expectRefused("many.glb", s.glb(), "more than 100 triangles in the scene", small);
  json d = goodScene().doc;
  d["buffers"] = {{{"byteLength", 1ll << 40}, {"uri", "big.bin"}}};
  expectRefused("bigbuf.gltf", d.dump(), "buffers[0].byteLength: must be in [1, 1048576]", small);
  // A file over the size limit is refused before it is read.
  expectRefused("bigfile.glb", std::string(2 << 20, ' '), "larger than 1048576 bytes", small);
}
