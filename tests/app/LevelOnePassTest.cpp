// LevelOnePassTest.cpp: the viewer's one-pass OBJ load (app/Level.cpp: an OBJ without materials is
// read once, each block validated and then parsed by nav_bake's streaming reader) gives the mesh
// the bake's reader reads from disk, and every error message the checked load (whole text read,
// validated, then parsed) gave, naming the file, whichever block the problem is in; the viewer's
// size limit refuses a file the file bake takes.
#include "TestUtil.h"

#include "app/Level.h"
#include "nav/bake/ObjMesh.h"
#include "nav/bake/StreamBake.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using navbench::loadObj;
using navbench::TriMesh;
using navbench::test::TempDir;

namespace {

/// Good lines: `n` vertices (some CRLF, some with a colour) and quads, triangles and pentagons
/// over them with every reference form, negative references and references to vertices further
/// on. About 50 bytes per vertex.
std::string goodObj(int n) {
  std::string s = "# generated\r\nf 1 2 3\no part\n"; // refers forward from the first line
  for (int i = 0; i < n; ++i) {
    s += "v " + std::to_string(i * 0.37) + " " + std::to_string((i % 11) * -1.25) + " " + std::to_string(i / 3) +
         (i % 4 == 0 ? " 0.5 0.5 0.5\r\n" : "\n");
    if (i >= 5 && i % 3 == 0)
      s += "f " + std::to_string(i - 4) + "/1 -1 " + std::to_string(i - 2) + "//1 -4" + (i % 2 ? " -5\n" : "\n");
    if (i % 7 == 0) s += "vt 0.5 0.5\nvn 0 1 0\ng g" + std::to_string(i) + "\n";
  }
  return s;
}

/// Lines in `s`.
int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

} // namespace

// The one-pass load of a file of several blocks equals the bake's reader on the same file from
// disk (and on the text in memory): the same vertices and triangles, in order.
TEST(LevelOnePass, SameMeshAsTheBakeReaderFromDisk) {
  TempDir dir;
  const std::string text = goodObj(70000);
  ASSERT_GT(text.size(), size_t(3) << 20);
  const std::string path = dir.write("world.obj", text);
  TriMesh mesh;
  std::string error;
  ASSERT_TRUE(loadObj(path, mesh, error)) << error;
  nav::bake::ObjMesh disk;
  ASSERT_TRUE(nav::bake::loadObj(path, &disk, &error)) << error;
  EXPECT_GT(mesh.triCount(), 40000);
  EXPECT_EQ(mesh.verts, disk.verts);
  EXPECT_EQ(mesh.tris, disk.tris);
  EXPECT_TRUE(mesh.triMaterial.empty());
  int faces = 0;
  for (size_t at = text.find("\nf "); at != std::string::npos; at = text.find("\nf ", at + 1)) ++faces;
  EXPECT_EQ(mesh.polygonCount, faces);
  // The bounds of the vertices.
  float lo = 1e30f, hi = -1e30f;
  for (int i = 0; i < mesh.vertCount(); ++i) {
    lo = std::min(lo, mesh.vert(i).x);
    hi = std::max(hi, mesh.vert(i).x);
  }
  EXPECT_EQ(mesh.boundsMin.x, lo);
  EXPECT_EQ(mesh.boundsMax.x, hi);

  struct Collect : nav::bake::ObjSink {
    std::vector<float> verts;
    std::vector<int> tris;
    bool vertex(const float* v) override {
      verts.insert(verts.end(), v, v + 3);
      return true;
    }
    bool triangle(int a, int b, int c) override {
      tris.insert(tris.end(), {a, b, c});
      return true;
    }
  } mem;
  ASSERT_TRUE(nav::bake::streamObjText(path, text.data(), text.size(), mem, nullptr, nullptr, &error)) << error;
  EXPECT_EQ(mesh.verts, mem.verts);
  EXPECT_EQ(mesh.tris, mem.tris);
}

// Every problem gives the message the checked load gave (exact text), naming the file and the
// line, both in a small file and after more than 2 MiB of good lines (met in a later block).
TEST(LevelOnePass, ErrorsAreUnchangedAndNameTheFile) {
  TempDir dir;
  struct Case {
    std::string tail;    // appended after the good lines
    std::string message; // after "<path>:"; {L0} = the line of the tail's first line
  };
  const std::vector<Case> cases = {
      {"v 1 2\n", "{L0}: vertex has fewer than 3 coordinates (v x y z)"},
      {"v 1 abc 2\n", "{L0}: vertex coordinate 'abc' is not a finite number"},
      {"v 1 2 nan\n", "{L0}: vertex coordinate 'nan' is not a finite number"},
      {"v 1 2 1e39\n", "{L0}: vertex coordinate '1e39' is not a finite number"},
      {"f 1 2\n", "{L0}: face has fewer than 3 vertices"},
      {"f 1 x 2\n", "{L0}: face index 'x' does not start with a vertex number"},
      {"f 1 0 2\n", "{L0}: face index 0 is invalid (OBJ indices start at 1)"},
      {"f 1 2 -99999999\n", "{L0}: face index -99999999 out of range (only {V} vertices before this line)"},
      {"f 1 2 99999999\nv 0 0 0\n", "{L0}: face index 99999999 out of range (the file has {V+1} vertices)"},
      // A coordinate strtod reads but neither reader takes (hex).
      {"v 0x1p3 0 0\n", "{L0}: vertex coordinate '0x1p3' is not a finite number"},
      // Binary data anywhere wins over an earlier bad line.
      {"v 1 2\n" + std::string("\0\1\2", 3), " not an OBJ file (binary data)"},
  };
  for (bool big : {false, true}) {
    const std::string good = big ? goodObj(50000) : std::string("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
    if (big) {
      ASSERT_GT(good.size(), size_t(2) << 20);
    }
    int verts = 0;
    for (size_t at = 0; (at = good.find("v ", at)) != std::string::npos; ++at)
      if (at == 0 || good[at - 1] == '\n') ++verts;
    for (const Case& c : cases) {
      SCOPED_TRACE((big ? "after 2 MiB: " : "small: ") + c.tail);
      const std::string path = dir.write(big ? "big_bad.obj" : "bad.obj", good + c.tail);
      std::string expected = path + ":" + c.message;
      auto put = [&](const std::string& key, int value) {
        const size_t at = expected.find(key);
        if (at != std::string::npos) expected.replace(at, key.size(), std::to_string(value));
      };
      put("{L0}", lines(good) + 1);
      put("{V+1}", verts + 1);
      put("{V}", verts);
      TriMesh m;
      std::string error;
      EXPECT_EQ(loadObj(path, m, error, navbench::LoadProgress()), navbench::LoadResult::Failed);
      EXPECT_EQ(error, expected);
      EXPECT_EQ(m.triCount(), 0); // untouched
    }
  }
  // File-level problems: each file's message follows its path.
  TriMesh m;
  std::string error;
  const struct {
    const char *name, *content, *error;
  } bad[] = {
      {"empty.obj", "", ": file is empty"},
      {"text.obj", "Hello,\nnot a level\n", ": not an OBJ file (no 'v' or 'f' records)"},
      {"points.obj", "v 0 0 0\nv 1 0 0\nl 1 2\n", ": OBJ has no faces (2 vertices)"},
      // CR line ends only: one line for the viewer's checks (a vertex with extra numbers), as before.
      {"cr.obj", "v 0 0 0\rv 1 0 0\rv 0 0 1\rf 1 2 3\r", ": OBJ has no faces (1 vertices)"},
  };
  for (const auto& b : bad) {
    const std::string path = dir.write(b.name, b.content);
    EXPECT_FALSE(loadObj(path, m, error)) << b.name;
    EXPECT_EQ(error, path + b.error);
  }
  const std::string missing = dir.file("missing.obj");
  EXPECT_FALSE(loadObj(missing, m, error));
  EXPECT_EQ(error, missing + ": cannot open the file (missing or unreadable)");
}

// An OBJ whose usemtl/mtllib come after the first blocks still gets its material colours
// (tinyobjloader), and the triangles the one-pass load gives without them.
TEST(LevelOnePass, MaterialsAfterTheFirstBlocksAreKept) {
  TempDir dir;
  dir.write("m.mtl", "newmtl red\nKd 1 0 0\n");
  const std::string geometry = goodObj(50000);
  ASSERT_GT(geometry.size(), size_t(2) << 20);
  const std::string tail = "v 0 5 0\nv 1 5 0\nv 0 5 1\nmtllib m.mtl\nusemtl red\nf -1 -2 -3\n";
  TriMesh plain, withMtl;
  std::string error;
  ASSERT_TRUE(loadObj(dir.write("plain.obj", geometry + "v 0 5 0\nv 1 5 0\nv 0 5 1\nf -1 -2 -3\n"), plain, error)) << error;
  ASSERT_TRUE(loadObj(dir.write("mtl.obj", geometry + tail), withMtl, error)) << error;
  EXPECT_EQ(withMtl.verts, plain.verts);
  EXPECT_EQ(withMtl.tris, plain.tris);
  ASSERT_EQ(withMtl.triMaterial.size(), size_t(withMtl.triCount()));
  EXPECT_EQ(withMtl.triMaterial.back(), 0);
  EXPECT_EQ(withMtl.triMaterial.front(), -1);
  ASSERT_EQ(withMtl.materialColors.size(), 1u);
  EXPECT_EQ(withMtl.materialColors[0].x, 1.0f);
  EXPECT_TRUE(plain.triMaterial.empty());
}

// The viewer's size limit (injected small here; 512 MiB in the viewer) refuses a file, naming it,
// its size and the limit, before reading it; the file bake of the same file, which streams and has
// no size limit, succeeds. (tests/bake/ObjSourceTest.cpp: the file bake reads a 512 MiB + 1 file.)
TEST(LevelOnePass, ViewerSizeLimitRefusesWhatTheFileBakeTakes) {
  TempDir dir;
  const std::string obj = NAVBENCH_DEFAULT_LEVEL;
  const long long size = (long long)std::filesystem::file_size(obj);
  const long long limit = size / 2;
  TriMesh m;
  std::string error;
  int calls = 0;
  EXPECT_EQ(loadObj(obj, m, error, [&](long long, long long) { return ++calls > 0; }, limit), navbench::LoadResult::Failed);
  EXPECT_EQ(error, obj + ": file is " + std::to_string(size) + " bytes, over the " + std::to_string(limit) +
                       " bytes OBJ size limit");
  EXPECT_EQ(calls, 0); // refused before reading
  EXPECT_EQ(loadObj(obj, m, error, navbench::LoadProgress(), size), navbench::LoadResult::Ok) << error; // at the limit

  const std::string level = obj.substr(0, obj.size() - 4) + ".json";
  nav::bake::FileBakeInput fin;
  nav::bake::BakeSettings s;
  ASSERT_TRUE(nav::bake::loadFileBakeInput(level, &fin, &s, &error)) << error;
  ASSERT_TRUE(s.tiled);
  nav::bake::BakeReport r;
  const std::string out = dir.file("default.bin");
  EXPECT_TRUE(nav::bake::bakeFileToTileSet(fin, s, out, nav::bake::BakeOptions(), &r)) << r.error;
  EXPECT_GT(std::filesystem::file_size(out), 0u);
}
