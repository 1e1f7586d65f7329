// Settings, level files, OBJ loading, the triangle index and bad input.
#include "BakeTestUtil.h"
#include "nav/bake/ObjMesh.h"
#include "nav/bake/TriangleGrid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include <unistd.h>

using namespace nav;
using namespace nav::bake;

namespace {

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_bake_" + std::to_string(::getpid()) + "_" + name;
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

TEST(BakeSettingsTest, DefaultsAreRecastDemos) {
  BakeSettings s;
  EXPECT_FLOAT_EQ(s.cellSize, 0.3f);
  EXPECT_FLOAT_EQ(s.cellHeight, 0.2f);
  EXPECT_FLOAT_EQ(s.agentHeight, 2.0f);
  EXPECT_FLOAT_EQ(s.agentRadius, 0.6f);
  EXPECT_FLOAT_EQ(s.agentMaxClimb, 0.9f);
  EXPECT_FLOAT_EQ(s.agentMaxSlope, 45.0f);
  EXPECT_EQ(s.regionMinSize, 8);
  EXPECT_EQ(s.regionMergeSize, 20);
  EXPECT_EQ(s.partition, Partition::Watershed);
  EXPECT_FLOAT_EQ(s.edgeMaxLen, 12.0f);
  EXPECT_FLOAT_EQ(s.edgeMaxError, 1.3f);
  EXPECT_EQ(s.vertsPerPoly, 6);
  EXPECT_FLOAT_EQ(s.detailSampleDist, 6.0f);
  EXPECT_FLOAT_EQ(s.detailSampleMaxError, 1.0f);
  EXPECT_TRUE(s.filterLowHangingObstacles && s.filterLedgeSpans && s.filterWalkableLowHeightSpans);
  std::string why;
  EXPECT_TRUE(s.validate(&why)) << why;
  EXPECT_FLOAT_EQ(DEFAULT_AREA_COST[AREA_WATER], 10.0f);
  EXPECT_FLOAT_EQ(DEFAULT_AREA_COST[AREA_GRASS], 2.0f);
  EXPECT_FLOAT_EQ(DEFAULT_AREA_COST[AREA_JUMP], 1.5f);
  EXPECT_EQ(flagsForArea(AREA_DOOR), FLAG_WALK | FLAG_DOOR);
  EXPECT_EQ(flagsForArea(AREA_WATER), FLAG_SWIM);
}

TEST(BakeSettingsTest, OutOfRangeNamesTheField) {
  struct Bad {
    void (*set)(BakeSettings&);
    const char* field;
  } bad[] = {
      {[](BakeSettings& s) { s.cellSize = 0.05f; }, "cellSize"},
      {[](BakeSettings& s) { s.cellHeight = 2.0f; }, "cellHeight"},
      {[](BakeSettings& s) { s.agentRadius = -1.0f; }, "agentRadius"},
      {[](BakeSettings& s) { s.agentMaxSlope = 91.0f; }, "agentMaxSlope"},
      {[](BakeSettings& s) { s.regionMinSize = 151; }, "regionMinSize"},
      {[](BakeSettings& s) { s.edgeMaxError = NAN; }, "edgeMaxError"},
      {[](BakeSettings& s) { s.vertsPerPoly = 7; }, "vertsPerPoly"},
      {[](BakeSettings& s) { s.tileSize = 8; }, "tileSize"},
      {[](BakeSettings& s) { s.detailSampleMaxError = 17.0f; }, "detailSampleMaxError"},
      {[](BakeSettings& s) { s.agentHeight = 0.4f; }, "agentHeight"}, // < 3 cells
  };
  for (const Bad& b : bad) {
    BakeSettings s;
    b.set(s);
    std::string why;
    EXPECT_FALSE(s.validate(&why)) << b.field;
    EXPECT_EQ(why.rfind(b.field, 0), 0u) << why;
  }
}

TEST(BakeSettingsTest, JsonRoundTripAndErrors) {
  BakeSettings s;
  s.cellSize = 0.25f;
  s.partition = Partition::Layers;
  s.filterLedgeSpans = false;
  s.tiled = false;
  s.tileSize = 64;
  BakeSettings back;
  std::string why;
  ASSERT_TRUE(settingsFromJson(settingsToJson(s), &back, &why)) << why;
  EXPECT_EQ(back, s);

  BakeSettings partial;
  ASSERT_TRUE(settingsFromJson(R"({"agentRadius": 0.4})", &partial, &why)) << why;
  EXPECT_FLOAT_EQ(partial.agentRadius, 0.4f);
  EXPECT_FLOAT_EQ(partial.cellSize, 0.3f);

  EXPECT_FALSE(settingsFromJson(R"({"cellSzie": 0.4})", &partial, &why));
  EXPECT_NE(why.find("cellSzie"), std::string::npos) << why;
  EXPECT_FALSE(settingsFromJson(R"({"partition": "hexagons"})", &partial, &why));
  EXPECT_NE(why.find("partition"), std::string::npos) << why;
  EXPECT_FALSE(settingsFromJson(R"({"cellSize": 7})", &partial, &why));
  EXPECT_NE(why.find("cellSize = 7"), std::string::npos) << why;
  EXPECT_FALSE(settingsFromJson("{", &partial, &why));
  EXPECT_NE(why.find("JSON"), std::string::npos) << why;
}

TEST(LevelFileTest, SaveLoadRoundTrip) {
  Level lv;
  lv.objPath = "some.obj";
  lv.settings.agentRadius = 0.5f;
  ConvexVolume v;
  v.verts = {0, 0, 0, 1, 0, 0, 1, 0, 1};
  v.hmin = -1;
  v.hmax = 2;
  v.area = AREA_DOOR;
  lv.volumes.push_back(v);
  OffMeshLink l;
  l.start[0] = 1;
  l.end[2] = 3;
  l.bidirectional = false;
  l.flags = FLAG_JUMP | FLAG_DISABLED;
  l.area = 17;
  lv.links.push_back(l);
  const std::string path = tempPath("level.json");
  std::string why;
  ASSERT_TRUE(saveLevelFile(path, lv, &why)) << why;
  Level back;
  ASSERT_TRUE(loadLevelFile(path, &back, &why)) << why;
  EXPECT_EQ(back.objPath, "some.obj");
  EXPECT_EQ(back.settings, lv.settings);
  ASSERT_EQ(back.volumes.size(), 1u);
  EXPECT_EQ(back.volumes[0].verts, v.verts);
  EXPECT_EQ(back.volumes[0].area, AREA_DOOR);
  ASSERT_EQ(back.links.size(), 1u);
  EXPECT_FALSE(back.links[0].bidirectional);
  EXPECT_EQ(back.links[0].flags, FLAG_JUMP | FLAG_DISABLED);
  EXPECT_EQ(back.links[0].area, 17);
  EXPECT_FLOAT_EQ(back.links[0].end[2], 3.0f);
  EXPECT_EQ(resolveObjPath("/a/b/level.json", back), "/a/b/some.obj");
  std::remove(path.c_str());
}

TEST(LevelFileTest, ErrorsNameTheFileAndTheProblem) {
  const std::string path = tempPath("bad.json");
  std::string why;
  Level lv;
  writeText(path, R"({"obj": "x.obj", "convexVolumes": [{"area": "lava", "hmin": 0, "hmax": 1, "verts": [[0,0,0],[1,0,0],[1,0,1]]}]})");
  EXPECT_FALSE(loadLevelFile(path, &lv, &why));
  EXPECT_NE(why.find(path), std::string::npos) << why;
  EXPECT_NE(why.find("convexVolumes[0].area"), std::string::npos) << why;
  EXPECT_NE(why.find("lava"), std::string::npos) << why;

  writeText(path, R"({"settings": {}})");
  EXPECT_FALSE(loadLevelFile(path, &lv, &why));
  EXPECT_NE(why.find("obj"), std::string::npos) << why;

  writeText(path, R"({"obj": "x.obj", "offMeshLinks": [{"start": [0,0], "end": [1,1,1]}]})");
  EXPECT_FALSE(loadLevelFile(path, &lv, &why));
  EXPECT_NE(why.find("offMeshLinks[0].start"), std::string::npos) << why;

  // A level file naming a missing OBJ: the bake input loader names both files.
  writeText(path, R"({"obj": "no_such_level.obj"})");
  BakeInput in;
  BakeSettings s;
  EXPECT_FALSE(loadBakeInput(path, &in, &s, &why));
  EXPECT_NE(why.find("no_such_level.obj"), std::string::npos) << why;
  EXPECT_NE(why.find(path), std::string::npos) << why;

  EXPECT_FALSE(loadLevelFile(tempPath("missing.json"), &lv, &why));
  EXPECT_NE(why.find("cannot open"), std::string::npos) << why;
  std::remove(path.c_str());
}

TEST(ObjTest, FansFacesInFileOrderAndRejectsBadFiles) {
  const std::string path = tempPath("quad.obj");
  writeText(path, "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0\nf 1 2 3 4\nf 2 5 3\n");
  ObjMesh m;
  std::string why;
  ASSERT_TRUE(loadObj(path, &m, &why)) << why;
  EXPECT_EQ(m.verts.size(), 15u);
  EXPECT_EQ(m.tris, (std::vector<int>{0, 1, 2, 0, 2, 3, 1, 4, 2}));

  writeText(path, "v 0 0 0\nv 1 0 0\n");
  EXPECT_FALSE(loadObj(path, &m, &why));
  EXPECT_NE(why.find("no faces (2 vertices)"), std::string::npos) << why;
  EXPECT_FALSE(loadObj(tempPath("nope.obj"), &m, &why));
  EXPECT_NE(why.find("nope.obj"), std::string::npos) << why;
  std::remove(path.c_str());
}

TEST(BakeInputTest, BadInputGetsClearErrors) {
  BakeInput in;
  std::string why;
  EXPECT_FALSE(in.validate(&why));
  EXPECT_EQ(why, "the mesh has no triangles");

  in.verts = {0, 0, 0, 1, 0, 0, 0, 0, 1};
  in.tris = {0, 1, 2};
  EXPECT_TRUE(in.validate(&why)) << why;

  BakeInput nan = in;
  nan.verts[4] = NAN;
  EXPECT_FALSE(nan.validate(&why));
  EXPECT_NE(why.find("vertex 1"), std::string::npos) << why;

  BakeInput range = in;
  range.tris[2] = 3;
  EXPECT_FALSE(range.validate(&why));
  EXPECT_NE(why.find("triangle 0 refers to vertex 3"), std::string::npos) << why;

  BakeInput degen = in;
  degen.tris = {0, 1, 1, 0, 0, 2};
  EXPECT_FALSE(degen.validate(&why));
  EXPECT_NE(why.find("degenerate"), std::string::npos) << why;

  BakeInput someDegen = in;
  someDegen.tris = {0, 1, 2, 0, 1, 1};
  std::vector<std::string> warnings;
  EXPECT_TRUE(someDegen.validate(&why, &warnings)) << why;
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("1 of 2"), std::string::npos);

  BakeInput vol = in;
  vol.volumes.resize(1);
  vol.volumes[0].verts = {0, 0, 0, 1, 0, 0};
  EXPECT_FALSE(vol.validate(&why));
  EXPECT_NE(why.find("convex volume 0"), std::string::npos) << why;

  BakeInput link = in;
  link.links.resize(1);
  link.links[0].radius = 0;
  EXPECT_FALSE(link.validate(&why));
  EXPECT_NE(why.find("off-mesh link 0"), std::string::npos) << why;

  // The baker refuses without a level, and with bad settings, saying why.
  Baker b;
  BakeReport r;
  EXPECT_FALSE(b.bake(BakeSettings(), BakeOptions(), &r));
  EXPECT_NE(r.error.find("no level"), std::string::npos) << r.error;
  EXPECT_FALSE(b.setInput(nan, &why));
  ASSERT_TRUE(b.setInput(in, &why)) << why;
  BakeSettings s;
  s.vertsPerPoly = 12;
  EXPECT_FALSE(b.bake(s, BakeOptions(), &r));
  EXPECT_NE(r.error.find("vertsPerPoly"), std::string::npos) << r.error;
  EXPECT_EQ(b.navMesh(), nullptr);
  // A level far too big for one heightfield is refused before allocating it.
  BakeInput huge = in;
  huge.verts = {0, 0, 0, 5000, 0, 0, 0, 0, 5000};
  ASSERT_TRUE(b.setInput(huge, &why)) << why;
  BakeSettings solo;
  solo.tiled = false;
  EXPECT_FALSE(b.bake(solo, BakeOptions(), &r));
  EXPECT_NE(r.error.find("bake tiled"), std::string::npos) << r.error;
  ASSERT_TRUE(b.setInput(in, &why)) << why;
  // A lone triangle smaller than the agent gives nothing walkable: a clear failure.
  EXPECT_FALSE(b.bake(BakeSettings(), BakeOptions(), &r));
  EXPECT_NE(r.error.find("no walkable polygons"), std::string::npos) << r.error;
}

TEST(TriangleGridTest, QueryEqualsBruteForce) {
  BakeInput in;
  BakeSettings s;
  std::string why;
  ASSERT_TRUE(baketest::loadLevel(baketest::defaultObj(), &in, &s, &why)) << why;
  std::mt19937 rng(7);
  for (float binSize : {0.0f, 1.0f, 9.6f, 100.0f}) {
    TriangleGrid g;
    g.build(in.verts.data(), in.tris.data(), in.triCount(), binSize);
    EXPECT_EQ(g.triCount(), in.triCount());
    std::uniform_real_distribution<float> pos(-10.0f, 70.0f), ext(0.0f, 15.0f);
    std::vector<int> got;
    for (int q = 0; q < 300; ++q) {
      const float qmin[2] = {pos(rng), pos(rng)};
      const float qmax[2] = {qmin[0] + ext(rng), qmin[1] + ext(rng)};
      g.query(qmin, qmax, got);
      std::vector<int> want;
      for (int t = 0; t < in.triCount(); ++t) {
        float mn[2] = {1e30f, 1e30f}, mx[2] = {-1e30f, -1e30f};
        for (int k = 0; k < 3; ++k) {
          const float* v = &in.verts[size_t(in.tris[size_t(t) * 3 + k]) * 3];
          mn[0] = std::min(mn[0], v[0]); mx[0] = std::max(mx[0], v[0]);
          mn[1] = std::min(mn[1], v[2]); mx[1] = std::max(mx[1], v[2]);
        }
        if (mn[0] <= qmax[0] && mx[0] >= qmin[0] && mn[1] <= qmax[1] && mx[1] >= qmin[1]) want.push_back(t);
      }
      ASSERT_EQ(got, want) << "bin " << binSize << " query " << q;
    }
  }
}

} // namespace
