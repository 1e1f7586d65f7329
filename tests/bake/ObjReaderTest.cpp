// ObjReaderTest.cpp: the baking OBJ reader (nav/bake/ObjMesh, a streaming reader) gives exactly
// the triangles and vertices tinyobjloader gives (fanned in file order, the old bake loader and
// the viewer's parser) on every level we have, and refuses bad files naming the file and line;
// streamObj (the file bake's one-pass form) hands over the same records.
#include "BakeTestUtil.h"
#include "ObjSinkCollect.h"
#include "nav/bake/ObjMesh.h"
#include "nav/bake/TriangleGrid.h"
#ifdef NAVBENCH_HAVE_WORLDGEN
#include "app/cli/WorldGen.h"
#endif

#include <gtest/gtest.h>
#include <tiny_obj_loader.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

using nav::bake::loadObj;
using baketest::CollectSink;
using nav::bake::ObjMesh;

namespace {

std::string tempPath(const std::string& name) {
  return baketest::processTempPath(::testing::TempDir(), "objreader", name);
}

void writeText(const std::string& path, const std::string& text) {
  ASSERT_TRUE(baketest::writeFile(path, text)) << path;
}

/// tinyobjloader's reading of the file, fanned (v0, vi-1, vi) per face over shapes in order: what
/// the bake loader did before the streaming reader.
bool tinyobjTriangles(const std::string& path, ObjMesh* out, std::string* why) {
  tinyobj::ObjReaderConfig config;
  config.triangulate = false;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromFile(path, config)) {
    *why = reader.Error();
    return false;
  }
  out->verts = reader.GetAttrib().vertices;
  out->tris.clear();
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    size_t base = 0;
    for (size_t f = 0; f < shape.mesh.num_face_vertices.size(); ++f) {
      const size_t n = shape.mesh.num_face_vertices[f];
      for (size_t k = 2; k < n; ++k) {
        out->tris.push_back(shape.mesh.indices[base].vertex_index);
        out->tris.push_back(shape.mesh.indices[base + k - 1].vertex_index);
        out->tris.push_back(shape.mesh.indices[base + k].vertex_index);
      }
      base += n;
    }
  }
  return true;
}

/// Both readers on `path`: same vertex bits, same triangles.
void expectSameAsTinyobj(const std::string& path) {
  SCOPED_TRACE(path);
  ObjMesh ours, theirs;
  std::string why;
  ASSERT_TRUE(loadObj(path, &ours, &why)) << why;
  ASSERT_TRUE(tinyobjTriangles(path, &theirs, &why)) << why;
  ASSERT_EQ(ours.verts.size(), theirs.verts.size());
  size_t diff = 0;
  for (size_t i = 0; i < ours.verts.size(); ++i)
    if (std::memcmp(&ours.verts[i], &theirs.verts[i], sizeof(float)) != 0 && diff++ < 5)
      ADD_FAILURE() << "vertex " << i / 3 << " coordinate " << i % 3 << ": " << ours.verts[i] << " vs tinyobjloader's "
                    << theirs.verts[i];
  EXPECT_EQ(diff, 0u);
  ASSERT_EQ(ours.tris.size(), theirs.tris.size());
  EXPECT_TRUE(ours.tris == theirs.tris);
  // Sized once: no slack left by growth.
  EXPECT_EQ(ours.verts.capacity(), ours.verts.size());
  EXPECT_EQ(ours.tris.capacity(), ours.tris.size());
  std::printf("[ info ] %s: %zu vertices, %zu triangles equal tinyobjloader's\n", path.c_str(), ours.verts.size() / 3,
              ours.tris.size() / 3);
}

} // namespace

TEST(ObjReader, SameTrianglesAsTinyobjloaderOnTheDefaultLevel) { expectSameAsTinyobj(baketest::defaultObj()); }

TEST(ObjReader, SameTrianglesAsTinyobjloaderOnTheSharedLevels) {
  int found = 0;
  for (const std::string& name : baketest::sharedLevelNames()) {
    const std::string path = baketest::sharedLevelsDir() + "/" + name;
    if (!baketest::fileExists(path)) continue;
    ++found;
    expectSameAsTinyobj(path);
  }
  if (!found) GTEST_SKIP() << "shared levels not found at " << baketest::sharedLevelsDir();
}

#ifdef NAVBENCH_HAVE_WORLDGEN
TEST(ObjReader, SameTrianglesAsTinyobjloaderOnAGeneratedWorld) {
  navbench::worldgen::WorldParams p;
  p.size = 256;
  p.seed = 3;
  const std::string path = tempPath("world256.obj");
  std::string why;
  ASSERT_TRUE(navbench::worldgen::writeWorldObj(p, path, nullptr, &why)) << why;
  expectSameAsTinyobj(path);
  // What a tiled bake holds per input triangle before the tiles: 12 B of indices, ~6 B of
  // vertices, and the triangle grid over 64-cell (19.2 m) tiles at ~4.3 B.
  ObjMesh m;
  ASSERT_TRUE(loadObj(path, &m, &why)) << why;
  nav::bake::TriangleGrid grid;
  grid.build(m.verts.data(), m.tris.data(), int(m.tris.size() / 3), 19.2f);
  const double perTri = double(grid.memoryBytes()) / double(m.tris.size() / 3);
  EXPECT_LT(perTri, 6.0);
  const double inputPerTri = double((m.verts.capacity() + m.tris.capacity()) * 4) / double(m.tris.size() / 3);
  EXPECT_LT(inputPerTri, 20.0);
  std::printf("[ info ] grid %.2f B/triangle, input %.2f B/triangle\n", perTri, inputPerTri);
  std::remove(path.c_str());
}
#endif

// More files to compare (e.g. the 1 km and 2 km worlds): NAVBENCH_OBJ_COMPARE="a.obj:b.obj".
TEST(ObjReader, SameTrianglesAsTinyobjloaderOnExtraFiles) {
  const char* env = std::getenv("NAVBENCH_OBJ_COMPARE");
  if (!env || !*env) GTEST_SKIP() << "set NAVBENCH_OBJ_COMPARE=a.obj:b.obj to compare more files";
  std::stringstream ss(env);
  std::string path;
  while (std::getline(ss, path, ':'))
    if (!path.empty()) expectSameAsTinyobj(path);
}

TEST(ObjReader, SyntaxVariantsGiveTinyobjloadersTriangles) {
  // Relative and forward references, v/t/n forms, w and colour after x y z, CRLF and CR line ends,
  // tabs, comments, groups/materials, a 2-vertex face, exponents and signs, a last line without LF.
  const std::string text =
      "# comment\r\nmtllib x.mtl\r\nv 0 0 0\r\nv +1.5 0 -0\r\nv\t1e0 2.5E-1 1 1.0\r\n"
      "f 1 2 3 4\r\nvt 0 0\rvn 0 1 0\rv 0 0 1 0.5 0.5 0.5\rg part\no obj\nusemtl m\ns 1\n"
      "f 1/1 2/1/1 3//1\nf -4 -3 -2 -1\n  f 1 2\nv .5 -.25 3\nl 1 2\nf 2 3 5";
  const std::string path = tempPath("variants.obj");
  writeText(path, text);
  expectSameAsTinyobj(path);
  ObjMesh m;
  std::string why;
  ASSERT_TRUE(loadObj(path, &m, &why)) << why;
  EXPECT_EQ(m.verts.size(), 15u);
  EXPECT_EQ(m.tris, (std::vector<int>{0, 1, 2, 0, 2, 3, 0, 1, 2, 0, 1, 2, 0, 2, 3, 1, 2, 4}));
  std::remove(path.c_str());
}

TEST(ObjReader, LongLinesAndManyBlocks) {
  // 2.6 MiB of short lines: lines cross the 1 MiB block borders at many offsets.
  std::string text;
  for (int i = 0; i < 120000; ++i) text += "v " + std::to_string(i) + ".125 0.5 " + std::to_string(i % 7) + "\n";
  for (int i = 1; i + 2 <= 120000; i += 3) text += "f " + std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i + 2) + "\n";
  const std::string path = tempPath("long.obj");
  writeText(path, text);
  expectSameAsTinyobj(path);
  // One face line of 120000 references (1.3 MiB, longer than a block). tinyobjloader cuts such a
  // line short (it keeps 192 references), so this one is checked against the fan directly.
  text += "f";
  for (int i = 1; i <= 120000; ++i) text += " " + std::to_string(i) + "/1/1";
  text += "\n";
  writeText(path, text);
  ObjMesh m;
  std::string why;
  ASSERT_TRUE(loadObj(path, &m, &why)) << why;
  ASSERT_EQ(m.tris.size(), size_t(40000 + 119998) * 3);
  for (int k = 0; k < 119998; ++k) {
    const int* t = &m.tris[size_t(40000 + k) * 3];
    ASSERT_EQ(t[0], 0);
    ASSERT_EQ(t[1], k + 1);
    ASSERT_EQ(t[2], k + 2);
  }
  std::remove(path.c_str());
}

TEST(ObjReader, BadFilesNameTheFileLineAndProblem) {
  struct Case {
    const char* text;
    const char* expect; // in the message, after "path:" ("LINE: problem" for a record)
  };
  const Case cases[] = {
      {"v 0 0 0\nv 1 0\nf 1 2 3\n", "2: vertex has fewer than 3 coordinates"},
      {"v 0 0 0\nv 1 0 x\nf 1 2 3\n", "2: vertex coordinate 'x' is not a finite number"},
      {"v 0 0 0\nv 1 0 nan\nf 1 2 3\n", "2: vertex coordinate 'nan' is not a finite number"},
      {"v 0 0 0\nv 1 0 1e999\nf 1 2 3\n", "2: vertex coordinate '1e999' is not a finite number"},
      {"v 0 0 0\nv 1 0 0\nv 0 0 1\n\nf 1 0 2\n", "5: face index 0 is invalid"},
      {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 a 2\n", "4: face index 'a' does not start with a vertex number"},
      {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2x 3\n", "4: face index '2x'"},
      {"v 0 0 0\nv 1 0 0\nf -3 -2 -1\nv 0 0 1\n", "3: face index -3 out of range (only 2 vertices before this line)"},
      {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nf 1 2 9\nf 1 2 4\n", "5: face index 9 out of range (the file has 3 vertices)"},
      {"v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 99999999999\n", "more than a bake takes"},
      {"v 0 0 0\nv 1 0 0\n", " OBJ has no faces (2 vertices)"},
      {"", " file is empty"},
      {"\x01\x02\x03 binary\n\xff\xfe", " OBJ has no faces (0 vertices)"},
  };
  const std::string path = tempPath("bad.obj");
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    writeText(path, c.text);
    ObjMesh m;
    m.tris = {7};
    std::string why;
    EXPECT_FALSE(loadObj(path, &m, &why));
    EXPECT_EQ(why.rfind(path + ":", 0), 0u) << why;
    EXPECT_NE(why.find(c.expect), std::string::npos) << why;
    EXPECT_EQ(m.tris, std::vector<int>{7}) << "the output changed on failure";
  }
  // 65 MiB without a line end: refused without holding it all.
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const std::string block(1 << 20, 'x');
    for (int i = 0; i < 65; ++i) std::fwrite(block.data(), 1, block.size(), f);
    std::fclose(f);
    ObjMesh m;
    std::string why;
    EXPECT_FALSE(loadObj(path, &m, &why));
    EXPECT_NE(why.find(path + ":1: line longer than 64 MiB"), std::string::npos) << why;
  }
  std::string why;
  ObjMesh m;
  EXPECT_FALSE(loadObj(tempPath("missing.obj"), &m, &why));
  EXPECT_NE(why.find("cannot open the file"), std::string::npos) << why;
  std::remove(path.c_str());
}

// streamObj (the file bake's reader) hands over exactly what loadObj returns, block by block, and
// fails with the same messages; a sink can stop it.
TEST(ObjReader, StreamObjGivesWhatLoadObjReads) {
  std::string text;
  for (int i = 0; i < 120000; ++i) text += "v " + std::to_string(i) + ".125 0.5 " + std::to_string(i % 7) + "\n";
  for (int i = 1; i + 3 <= 120000; i += 3)
    text += "f " + std::to_string(i) + "/1 " + std::to_string(i + 1) + " " + std::to_string(i + 2) + " -1\n";
  const std::string path = tempPath("stream.obj");
  writeText(path, text);
  for (const std::string& p : {path, baketest::defaultObj()}) {
    SCOPED_TRACE(p);
    ObjMesh ref;
    std::string why;
    ASSERT_TRUE(loadObj(p, &ref, &why)) << why;
    CollectSink sink;
    long long nv = 0, nt = 0;
    ASSERT_TRUE(nav::bake::streamObj(p, sink, &nv, &nt, &why)) << why;
    EXPECT_EQ(sink.m.verts, ref.verts);
    EXPECT_EQ(sink.m.tris, ref.tris);
    EXPECT_EQ(nv, (long long)ref.verts.size() / 3);
    EXPECT_EQ(nt, (long long)ref.tris.size() / 3);
    EXPECT_EQ(sink.lastRead, sink.fileBytes); // the last block ends the file
    if (p == path) {
      EXPECT_GE(sink.blocks, 2); // 2.7 MiB: several 1 MiB blocks
    }
  }
  // Failures: the same message as loadObj.
  writeText(path, "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nf 1 2 9\n");
  {
    ObjMesh m;
    CollectSink sink;
    std::string whyLoad, whyStream;
    EXPECT_FALSE(loadObj(path, &m, &whyLoad));
    EXPECT_FALSE(nav::bake::streamObj(path, sink, nullptr, nullptr, &whyStream));
    EXPECT_EQ(whyStream, whyLoad);
    EXPECT_NE(whyStream.find(path + ":5: face index 9 out of range"), std::string::npos) << whyStream;
  }
  // A sink stops it: from a callback, or from progress (a cancel).
  {
    CollectSink sink;
    sink.stopAfterVerts = 2;
    std::string why;
    EXPECT_FALSE(nav::bake::streamObj(path, sink, nullptr, nullptr, &why));
    EXPECT_EQ(why, path + ": sink full");
    CollectSink cancel;
    cancel.stopOnProgress = true;
    EXPECT_FALSE(nav::bake::streamObj(path, cancel, nullptr, nullptr, &why));
    EXPECT_EQ(why, path + ": cancelled");
    EXPECT_TRUE(cancel.m.verts.empty());
  }
  std::remove(path.c_str());
}
