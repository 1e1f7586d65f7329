// OBJ loading: positions, faces, fan triangulation, negative indices, and every bad-input case.
#include "TestUtil.h"

#include "app/Level.h"
#include "nav/bake/LevelFile.h"
#include "nav/bake/ObjMesh.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

using navbench::Level;
using navbench::loadObj;
using navbench::TriMesh;
using navbench::test::TempDir;

namespace {

// Loads `text` from a temp file; returns the error ("" on success).
std::string load(const TempDir& dir, const std::string& text, TriMesh& mesh, const std::string& name = "level.obj") {
  std::string error;
  if (loadObj(dir.write(name, text), mesh, error)) return "";
  EXPECT_FALSE(error.empty());
  return error;
}

std::vector<int> tri(const TriMesh& m, int t) { return {m.tris[size_t(t) * 3], m.tris[size_t(t) * 3 + 1], m.tris[size_t(t) * 3 + 2]}; }

} // namespace

TEST(LevelLoad, PositionsAndTriangles) {
  TempDir dir;
  TriMesh m;
  ASSERT_EQ(load(dir, "# a comment\nv 0 0 0\nv 1 0 0\nv 1 0.5 -2.25\nvn 0 1 0\nf 1 2 3\n", m), "");
  ASSERT_EQ(m.vertCount(), 3);
  EXPECT_FLOAT_EQ(m.verts[6], 1.0f);
  EXPECT_FLOAT_EQ(m.verts[7], 0.5f);
  EXPECT_FLOAT_EQ(m.verts[8], -2.25f);
  ASSERT_EQ(m.triCount(), 1);
  EXPECT_EQ(tri(m, 0), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(m.polygonCount, 1);
  EXPECT_FLOAT_EQ(m.boundsMin.z, -2.25f);
  EXPECT_FLOAT_EQ(m.boundsMax.x, 1.0f);
  EXPECT_FLOAT_EQ(m.boundsMax.y, 0.5f);
}

TEST(LevelLoad, PolygonsAreFanTriangulated) {
  TempDir dir;
  TriMesh m;
  // A quad and a pentagon (with v/vt/vn style references), each fanned from its first vertex.
  ASSERT_EQ(load(dir,
                 "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0\nv 3 0 1\nv 2 0 2\nv 1 0 2\nv 1 0 1.5\n"
                 "vt 0 0\nvn 0 1 0\n"
                 "f 1/1/1 2/1/1 3/1/1 4/1/1\n"
                 "f 5//1 6//1 7//1 8//1 9//1\n",
                 m),
            "");
  EXPECT_EQ(m.polygonCount, 2);
  ASSERT_EQ(m.triCount(), 2 + 3);
  EXPECT_EQ(m.tris, (std::vector<int>{0, 1, 2, /**/ 0, 2, 3, /**/ 4, 5, 6, /**/ 4, 6, 7, /**/ 4, 7, 8}));
}

TEST(LevelLoad, NegativeIndicesCountBackFromTheLastVertex) {
  TempDir dir;
  TriMesh m;
  ASSERT_EQ(load(dir, "v 0 0 0\nv 1 0 0\nv 1 0 1\nf -3 -2 -1\nv 0 0 1\nf -4 -2 -1\ng other\nf 1 -1 2\n", m), "");
  ASSERT_EQ(m.triCount(), 3);
  EXPECT_EQ(m.tris, (std::vector<int>{0, 1, 2, /**/ 0, 2, 3, /**/ 0, 3, 1}));
}

TEST(LevelLoad, GroupsObjectsAndMaterialsDoNotLoseFaces) {
  TempDir dir;
  TriMesh m;
  ASSERT_EQ(load(dir, "mtllib missing.mtl\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\no a\nusemtl x\nf 1 2 3\ng b\nf 1 3 4\ns 1\nl 1 2\n", m),
            "");
  EXPECT_EQ(m.triCount(), 2);
}

TEST(LevelLoad, MaterialColoursFromTheMtlFile) {
  TempDir dir;
  dir.write("colours.mtl", "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 0.5\n");
  TriMesh m;
  ASSERT_EQ(load(dir,
                 "mtllib colours.mtl\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\n"
                 "f 1 2 3\nusemtl blue\nf 1 2 3 4\nusemtl red\nf 1 3 4\n",
                 m),
            "");
  ASSERT_EQ(m.triCount(), 4);
  ASSERT_EQ(m.triMaterial.size(), 4u);
  EXPECT_EQ(m.triMaterial[0], -1); // before any usemtl
  ASSERT_GE(m.triMaterial[1], 0);
  EXPECT_EQ(m.triMaterial[1], m.triMaterial[2]); // both halves of the quad
  EXPECT_FLOAT_EQ(m.materialColors[size_t(m.triMaterial[1])].z, 0.5f);
  EXPECT_FLOAT_EQ(m.materialColors[size_t(m.triMaterial[3])].x, 1.0f);
  // Without any usemtl the arrays stay empty.
  ASSERT_EQ(load(dir, "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3\n", m), "");
  EXPECT_TRUE(m.triMaterial.empty());
}

TEST(LevelLoad, MissingFile) {
  TriMesh m;
  std::string error;
  EXPECT_FALSE(loadObj("/nonexistent/dir/nothing.obj", m, error));
  EXPECT_NE(error.find("/nonexistent/dir/nothing.obj"), std::string::npos) << error;
  EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
}

// Each kind of bad file: the message is "FILE: problem", or "FILE:LINE: problem" for a record (the
// messages of nav/bake/ObjCheck.h, which the bake's reader gives for the same problem).
TEST(LevelLoad, BadFilesNameTheFileLineAndProblem) {
  struct Case {
    std::string name, text;
    const char* expect; // after "<dir>/<name>"
  };
  const Case cases[] = {
      {"empty.obj", "", ": file is empty"},
      {"picture.obj", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), ": not an OBJ file (binary data)"},
      {"readme.obj", "Hello,\nthis is a README, not a level.\n", ": not an OBJ file (no 'v' or 'f' records)"},
      {"points.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nl 1 2\n", ": OBJ has no faces (3 vertices)"},
      {"ahead.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3\nf 1 2 7\n", ":5: face index 7 out of range (the file has 3 vertices)"},
      {"behind.obj", "v 0 0 0\nv 1 0 0\nf -1 -2 -3\n", ":3: face index -3 out of range (only 2 vertices before this line)"},
      {"zero.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 0 1 2\n", ":4: face index 0 is invalid"},
      {"nan.obj", "v 0 0 0\nv nan 0 0\nv 1 0 1\nf 1 2 3\n", ":2: vertex coordinate 'nan' is not a finite number"},
      {"inf.obj", "v 0 0 0\nv 1 inf 0\nv 1 0 1\nf 1 2 3\n", ":2: vertex coordinate 'inf' is not a finite number"},
      {"huge.obj", "v 0 0 0\nv 1 1e39 0\nv 1 0 1\nf 1 2 3\n", ":2: vertex coordinate '1e39' is not a finite number"},
      {"abc.obj", "v 0 0 0\nv 1 abc 0\nv 1 0 1\nf 1 2 3\n", ":2: vertex coordinate 'abc' is not a finite number"},
      {"short.obj", "v 0 0\nf 1 1 1\n", ":1: vertex has fewer than 3 coordinates"},
      {"face.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n", ":3: face has fewer than 3 vertices"},
  };
  TempDir dir;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    TriMesh m;
    const std::string err = load(dir, c.text, m, c.name);
    EXPECT_EQ(err.rfind(dir.file(c.name) + c.expect, 0), 0u) << err;
  }
}

// One set of OBJ checks: a problem both readers check gives the same message from the viewer's
// loader (pre-scan, then tinyobjloader or the streaming reader) as from the bake's reader.
TEST(LevelLoad, ViewerAndBakeGiveTheSameMessage) {
  const std::string good = "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3\n";
  const std::string tails[] = {
      "",                         // a good file: both load it
      "v 1 2\n",                  // too few coordinates
      "v 1 nan 2\n",              // NaN
      "v 1 inf 2\n",              // infinite
      "v 1 -1e39 2\n",            // beyond float
      "v 1 0x1p3 2\n",            // not a decimal number
      "f 1 2 x\n",                // not a vertex number
      "f 1 0 2\n",                // 0
      "f 1 2 -7\n",               // before the first vertex
      "f 1 2 99999999999\n",      // more than a bake takes
      "f 1 2 9\nf 1 2 12\nv 0 0 0\n", // ahead of the vertices: the largest is named
      "usemtl red\nf 1 2 5\n",    // with materials (tinyobjloader parses; the pre-scan checks)
  };
  TempDir dir;
  for (const std::string& tail : tails) {
    SCOPED_TRACE(tail);
    const std::string path = dir.write("same.obj", good + tail);
    TriMesh m;
    std::string viewer, bake;
    const bool viewerOk = loadObj(path, m, viewer);
    nav::bake::ObjMesh b;
    const bool bakeOk = nav::bake::loadObj(path, &b, &bake);
    EXPECT_EQ(viewerOk, bakeOk);
    EXPECT_EQ(viewer, bake);
    EXPECT_EQ(viewerOk, tail.empty()) << viewer;
  }
  // The whole file: empty, missing, over a size limit.
  for (const std::string& path : {dir.write("empty.obj", ""), dir.file("missing.obj")}) {
    TriMesh m;
    nav::bake::ObjMesh b;
    std::string viewer, bake;
    EXPECT_FALSE(loadObj(path, m, viewer));
    EXPECT_FALSE(nav::bake::loadObj(path, &b, &bake));
    EXPECT_EQ(viewer, bake);
  }
  const std::string big = dir.write("big.obj", good);
  TriMesh m;
  nav::bake::ObjMesh b;
  std::string viewer, bake;
  EXPECT_EQ(loadObj(big, m, viewer, navbench::LoadProgress(), 10), navbench::LoadResult::Failed);
  EXPECT_FALSE(nav::bake::loadObj(big, &b, &bake, 10));
  EXPECT_EQ(viewer, bake);
  EXPECT_EQ(viewer, big + ": file is " + std::to_string(good.size()) + " bytes, over the 10 bytes OBJ size limit");
}

// Level files (nav/bake/LevelFile.h) read through nav/base/Json.h: "FILE: PATH: problem", every
// number finite, nothing thrown.
TEST(LevelLoad, LevelFileErrorsNameTheFileAndThePath) {
  struct Case {
    const char* text;
    const char* expect; // after "<path>: "
  };
  const Case cases[] = {
      {R"({"obj": "x.obj", "settings": {"cellSize": 1e39}})", "settings.cellSize: not a finite float: 1e+39"},
      {R"({"obj": "x.obj", "settings": {"tileSize": 32.5}})", "settings.tileSize: expected an integer, got number"},
      {R"({"obj": "x.obj", "settings": {"cellSzie": 0.3}})", "settings.cellSzie: unknown setting"},
      {R"({"obj": "x.obj", "convexVolumes": [{"area": 1, "hmin": 0, "hmax": 1, "verts": [[0, 0, 0], [1, 0, 1e300], [1, 0, 1]]}]})",
       "convexVolumes[0].verts[1][2]: not a finite float"},
      {R"({"obj": "x.obj", "convexVolumes": [{"area": 1, "hmin": 0, "hmax": 1, "verts": [[0, 0, 0], [1, 0, 1]]}]})",
       "convexVolumes[0].verts: expected 3 to 12 elements, got 2"},
      {R"({"obj": "x.obj", "offMeshLinks": [{"start": [0, 0, 0], "end": [1, 1, 1], "radius": 1e39}]})",
       "offMeshLinks[0].radius: not a finite float"},
      {R"({"obj": "x.obj", "offMeshLinks": [{"start": [0, 0, 0], "end": [1, 1, 1], "flags": ["fly"]}]})",
       "offMeshLinks[0].flags[0]: unknown flag 'fly'"},
      {R"({"obj": "x.obj", "offMeshLinks": [{"start": [0, 0, 0]}]})", "offMeshLinks[0].end: expected [x, y, z], got nothing (missing)"},
      {R"({"obj": "x.obj", "version": 2})", "version: unsupported version 2"},
      {R"({"obj": 3})", "obj: expected a string, got number"},
      {R"([1, 2])", "expected an object, got array"},
      {R"({"obj": "x.obj",)", "not valid JSON: parse error at byte"},
  };
  TempDir dir;
  const std::string path = dir.file("bad.json");
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    dir.write("bad.json", c.text);
    nav::bake::Level lv;
    lv.objPath = "unchanged";
    std::string why;
    EXPECT_FALSE(nav::bake::loadLevelFile(path, &lv, &why));
    EXPECT_EQ(why.rfind(path + ": " + c.expect, 0), 0u) << why;
    EXPECT_EQ(lv.objPath, "unchanged");
  }
  // What is written reads back (floats exactly).
  nav::bake::Level lv;
  lv.objPath = "x.obj";
  lv.settings.cellSize = 0.1f + 0.2f;
  nav::bake::ConvexVolume v;
  v.verts = {0.1f, 0, 0, 1, 0, 1.0f / 3.0f, 1, 0, 1};
  lv.volumes.push_back(v);
  std::string why;
  ASSERT_TRUE(nav::bake::saveLevelFile(path, lv, &why)) << why;
  nav::bake::Level back;
  ASSERT_TRUE(nav::bake::loadLevelFile(path, &back, &why)) << why;
  EXPECT_EQ(back.settings, lv.settings);
  ASSERT_EQ(back.volumes.size(), 1u);
  EXPECT_EQ(back.volumes[0].verts, v.verts);
}

TEST(LevelLoad, FailedLoadKeepsThePreviousLevel) {
  TempDir dir;
  Level level;
  std::string error;
  const std::string good = dir.write("good.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 3 2\n");
  ASSERT_TRUE(level.load(good, error)) << error;
  EXPECT_FALSE(level.load(dir.write("bad.obj", "v 0 0 0\nf 1 2 3\n"), error));
  EXPECT_EQ(level.path(), good);
  EXPECT_EQ(level.mesh().triCount(), 1);
  navbench::RayHit hit;
  EXPECT_TRUE(level.raycast(glm::vec3(0.8f, 5, 0.5f), glm::vec3(0, -1, 0), 100, navbench::PickSides::Both, hit));
}

TEST(LevelLoad, DefaultLevel) {
  TriMesh m;
  std::string error;
  ASSERT_TRUE(loadObj(NAVBENCH_DEFAULT_LEVEL, m, error)) << error;
  EXPECT_GT(m.triCount(), 200);
  EXPECT_LT(m.triCount(), 5000);
  // Walkable floor x 0..60, z 0..50, outer walls outside it; pool floor at -0.4; upper floor at 3.
  EXPECT_FLOAT_EQ(m.boundsMin.x, -0.5f);
  EXPECT_FLOAT_EQ(m.boundsMax.x, 60.5f);
  EXPECT_FLOAT_EQ(m.boundsMin.y, -0.4f);
  EXPECT_FLOAT_EQ(m.boundsMax.y, 3.0f);
  EXPECT_FLOAT_EQ(m.boundsMin.z, -0.5f);
  EXPECT_FLOAT_EQ(m.boundsMax.z, 50.5f);
  // default.mtl is found next to it: every triangle has a material.
  ASSERT_EQ(m.triMaterial.size(), size_t(m.triCount()));
  for (int mat : m.triMaterial) EXPECT_GE(mat, 0);
}

// A file without materials goes through the fast streaming reader (nav/bake/ObjMesh), one with a
// mtllib/usemtl through tinyobjloader: both must give the same mesh.
TEST(LevelLoad, FastReaderAndTinyobjloaderGiveTheSameMesh) {
  TempDir dir;
  std::string geometry = "v 0 0 0\r\nv 1 0 0\nv 1 0.5 1\nv 0 0 1 1.0\nvt 0 0\nvn 0 1 0\n"
                         "f 1/1/1 2/1/1 3/1/1 4/1/1\n# comment\nf -1 -3 -2\ng g2\nf 5 6 7 8 9\n";
  for (int i = 0; i < 200; ++i) // a larger grid with quads, so indices and floats are not trivial
    geometry += "v " + std::to_string(i * 0.37) + " " + std::to_string((i % 7) * -1.25) + " " + std::to_string(i / 3) + "\n";
  for (int i = 0; i + 3 < 200; i += 2)
    geometry += "f " + std::to_string(5 + i) + " " + std::to_string(6 + i) + "/2 " + std::to_string(7 + i) + "//1 -" +
                std::to_string(200 - i - 3) + "\n";
  geometry += "v 5 5 5\n";
  TriMesh fast, tiny;
  ASSERT_EQ(load(dir, geometry, fast, "plain.obj"), "");
  ASSERT_EQ(load(dir, "mtllib none.mtl\n" + geometry, tiny, "withmtl.obj"), "");
  EXPECT_TRUE(tiny.triMaterial.empty()); // no usable material: same shape of result
  EXPECT_EQ(fast.verts, tiny.verts);
  EXPECT_EQ(fast.tris, tiny.tris);
  EXPECT_EQ(fast.polygonCount, tiny.polygonCount);
  EXPECT_EQ(fast.triCount(), 2 + 1 + 3 + 99 * 2);
  EXPECT_EQ(fast.boundsMin, tiny.boundsMin);
  EXPECT_EQ(fast.boundsMax, tiny.boundsMax);
}

namespace {

// A ~3 MiB OBJ: a grid strip of quads (big enough for several progress reports).
std::string bigObj() {
  std::string s;
  const int n = 60000;
  for (int i = 0; i < n; ++i) s += "v " + std::to_string(i % 2) + ".000 0.000 " + std::to_string(i / 2) + ".000\n";
  for (int i = 0; i + 3 < n; i += 2)
    s += "f " + std::to_string(i + 1) + " " + std::to_string(i + 2) + " " + std::to_string(i + 4) + " " + std::to_string(i + 3) + "\n";
  return s;
}

} // namespace

TEST(LevelLoad, ProgressIsMonotonicAndReachesTheTotal) {
  TempDir dir;
  const std::string text = bigObj();
  const std::string path = dir.write("big.obj", text);
  std::vector<std::pair<long long, long long>> calls;
  TriMesh m;
  std::string error;
  ASSERT_EQ(loadObj(path, m, error, [&](long long done, long long total) {
              calls.emplace_back(done, total);
              return true;
            }),
            navbench::LoadResult::Ok)
      << error;
  EXPECT_EQ(m.triCount(), 59998);
  ASSERT_GE(calls.size(), 4u); // read, a few validation steps, the end
  const long long total = calls.front().second;
  EXPECT_EQ(total, 3 * (long long)text.size());
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i].second, total);
    EXPECT_GE(calls[i].first, 0);
    EXPECT_LE(calls[i].first, total);
    if (i > 0) {
      EXPECT_GE(calls[i].first, calls[i - 1].first) << "call " << i;
    }
  }
  EXPECT_EQ(calls.back().first, total);
  EXPECT_LT(calls[calls.size() / 2].first, total); // not all reported at the end
}

// A Level holding one small triangle, and a big OBJ to load over it (the cancel tests).
struct SmallLevelAndBigObj {
  TempDir dir;
  std::string big = dir.write("big.obj", bigObj());
  Level level;
  std::string error;
  SmallLevelAndBigObj() { EXPECT_TRUE(level.load(dir.write("small.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3\n"), error)) << error; }
};

TEST(LevelLoad, CancelReturnsCancelledAndKeepsTheLevel) {
  SmallLevelAndBigObj t;
  Level& level = t.level;
  std::string& error = t.error;
  const std::string& big = t.big;
  const std::string before = level.path();
  for (int cancelAt : {1, 3, 1000}) { // while reading, while validating, never
    int calls = 0;
    const navbench::LoadResult r = level.load(big, error, [&](navbench::LoadPhase, float) { return ++calls < cancelAt; });
    if (cancelAt == 1000) {
      // More calls than reports: this one completes, so the cancel case above really cancelled early.
      ASSERT_EQ(r, navbench::LoadResult::Ok) << error;
      EXPECT_EQ(level.mesh().triCount(), 59998);
      continue;
    }
    EXPECT_EQ(r, navbench::LoadResult::Cancelled) << "cancel at call " << cancelAt;
    EXPECT_EQ(calls, cancelAt);
    EXPECT_NE(error.find("cancelled"), std::string::npos) << error;
    EXPECT_EQ(level.path(), before);
    EXPECT_EQ(level.mesh().triCount(), 1);
  }
}

TEST(LevelLoad, BackgroundLoaderHandsOverTheLevelOrLeavesItAlone) {
  TempDir dir;
  const std::string big = dir.write("big.obj", bigObj());
  const std::string bad = dir.write("bad.obj", "v 0 0 0\nf 1 2 3\n");
  navbench::LevelLoader loader;
  Level level;
  std::string error;
  EXPECT_EQ(loader.take(level, error), navbench::LoadResult::Failed); // nothing started

  loader.start(big, "tag");
  EXPECT_TRUE(loader.active());
  EXPECT_EQ(loader.tag(), "tag");
  while (!loader.finished()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_FLOAT_EQ(loader.fraction(), 1.0f);
  ASSERT_EQ(loader.take(level, error), navbench::LoadResult::Ok) << error;
  EXPECT_FALSE(loader.active());
  EXPECT_EQ(level.path(), big);
  EXPECT_EQ(level.mesh().triCount(), 59998);
  EXPECT_FALSE(level.bvh().empty());

  loader.start(bad);
  ASSERT_EQ(loader.take(level, error), navbench::LoadResult::Failed);
  EXPECT_NE(error.find("out of range"), std::string::npos) << error;
  EXPECT_EQ(level.path(), big);

  // Cancel right after the start: the worker sees it at its first progress report (after the
  // first 4 MiB read at the latest), unless it already finished; either way nothing is lost.
  Level small;
  ASSERT_TRUE(small.load(dir.write("small.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3\n"), error)) << error;
  int cancelled = 0;
  for (int i = 0; i < 5; ++i) {
    loader.start(big);
    loader.cancel();
    const navbench::LoadResult r = loader.take(small, error);
    if (r == navbench::LoadResult::Cancelled) {
      ++cancelled;
      EXPECT_NE(error.find("cancelled"), std::string::npos) << error;
      EXPECT_EQ(small.mesh().triCount(), 1);
    } else {
      ASSERT_EQ(r, navbench::LoadResult::Ok) << error;
      ASSERT_TRUE(small.load(dir.file("small.obj"), error)) << error;
    }
  }
  EXPECT_GE(cancelled, 1);
  loader.start(big); // destroyed while loading: cancels and joins (no crash, no leak under ASan)
}

// Level::load reports every phase, in order, with the fraction of the whole load never going back
// and reaching 1 exactly once, at the end (what the viewer's progress window shows).
TEST(LevelLoad, LevelProgressGoesThroughEveryPhaseToOne) {
  TempDir dir;
  const std::string big = dir.write("big.obj", bigObj());
  std::vector<std::pair<navbench::LoadPhase, float>> calls;
  Level level;
  std::string error;
  ASSERT_EQ(level.load(big, error,
                       [&](navbench::LoadPhase phase, float f) {
                         calls.emplace_back(phase, f);
                         return true;
                       }),
            navbench::LoadResult::Ok)
      << error;
  ASSERT_GE(calls.size(), 5u);
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_GE(calls[i].second, 0.0f);
    EXPECT_LE(calls[i].second, 1.0f);
    if (i > 0) {
      EXPECT_GE(calls[i].second, calls[i - 1].second) << "call " << i;
      EXPECT_GE(int(calls[i].first), int(calls[i - 1].first)) << "phases in order, call " << i;
    }
    // Each report lies in its phase's stretch of the bar.
    EXPECT_GE(calls[i].second, navbench::loadPhaseStart(calls[i].first) - 1e-6f) << "call " << i;
    if (i + 1 < calls.size()) {
      EXPECT_LT(calls[i].second, 1.0f) << "1 only at the end, call " << i;
    }
  }
  EXPECT_EQ(calls.back().second, 1.0f);
  std::vector<navbench::LoadPhase> seen;
  for (const auto& c : calls)
    if (seen.empty() || seen.back() != c.first) seen.push_back(c.first);
  using P = navbench::LoadPhase;
  EXPECT_EQ(seen, (std::vector<P>{P::Reading, P::Parsing, P::Triangles, P::Bvh, P::Lod}));
  // Reading moves inside its phase (several reports below the parse's start), not only at its ends.
  int inReading = 0;
  for (const auto& c : calls) inReading += c.first == P::Reading && c.second > 0.0f && c.second < navbench::loadPhaseStart(P::Parsing);
  EXPECT_GE(inReading, 1);
  EXPECT_FALSE(level.lod().empty());
  EXPECT_FALSE(level.bvh().empty());
  for (P p : seen) EXPECT_NE(std::string(navbench::loadPhaseLabel(p)), "");
  EXPECT_EQ(std::string(navbench::loadPhaseLabel(P::Bvh)), "Building BVH...");
  EXPECT_EQ(std::string(navbench::loadPhaseLabel(P::Reading)), "Reading...");
}

// A cancel while the BVH and LOD are being built (after the parse) also leaves the Level alone.
TEST(LevelLoad, CancelWhileBuildingBvhKeepsTheLevel) {
  SmallLevelAndBigObj t;
  Level& level = t.level;
  std::string& error = t.error;
  const std::string& big = t.big;
  for (navbench::LoadPhase at : {navbench::LoadPhase::Triangles, navbench::LoadPhase::Bvh}) {
    bool sawPhase = false;
    const navbench::LoadResult r = level.load(big, error, [&](navbench::LoadPhase phase, float) {
      sawPhase |= phase == at;
      return !sawPhase;
    });
    EXPECT_TRUE(sawPhase);
    EXPECT_EQ(r, navbench::LoadResult::Cancelled);
    EXPECT_NE(error.find("cancelled"), std::string::npos) << error;
    EXPECT_EQ(level.mesh().triCount(), 1);
    EXPECT_EQ(level.lod().triangles(0), 1);
  }
}

// The viewer's background loader: its fraction, sampled while it loads, never goes back, ends at
// 1, and its phase moves forward through the phases.
TEST(LevelLoad, BackgroundLoaderFractionAndPhaseMoveForward) {
  TempDir dir;
  const std::string big = dir.write("big.obj", bigObj());
  navbench::LevelLoader loader;
  loader.start(big);
  float last = 0.0f;
  int lastPhase = 0, samples = 0;
  while (!loader.finished()) {
    const float f = loader.fraction();
    const int p = int(loader.phase());
    EXPECT_GE(f, last);
    EXPECT_GE(p, lastPhase);
    EXPECT_LE(f, 1.0f);
    last = f;
    lastPhase = p;
    ++samples;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  EXPECT_GE(samples, 1);
  EXPECT_EQ(loader.fraction(), 1.0f);
  EXPECT_EQ(loader.phase(), navbench::LoadPhase::Lod);
  Level level;
  std::string error;
  ASSERT_EQ(loader.take(level, error), navbench::LoadResult::Ok) << error;
  EXPECT_EQ(level.mesh().triCount(), 59998);
}
