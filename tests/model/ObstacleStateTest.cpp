// The tile cache state the Obstacles tool edits (app/TileCacheState.h), without the viewer: the
// default level's tile cache (baked in the test, tests/model/ObstacleFixture.h) opened, every kind
// of obstacle added, moved and removed through the cache's update; the navmesh comes back to the
// same bytes; the obstacle list's JSON round trip and refusals; a bad file named in the error.
#include "app/TileCacheState.h"
#include "nav/NavMesh.h"
#include "tests/model/ObstacleFixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using navbench::Obstacle;
using navbench::TileCacheState;
using navbench::test::kFloor;

struct Opened {
  TileCacheState tc;
  nav::NavMesh mesh;
  explicit Opened(bool* ok) {
    std::string err;
    *ok = !navbench::test::defaultTileCache().empty() && tc.open(navbench::test::defaultTileCache(), err);
    EXPECT_TRUE(*ok) << err;
    if (*ok) tc.takeMesh(mesh);
  }
};

Obstacle make(Obstacle::Kind kind, float x, float y, float z) {
  const float p[3] = {x, y, z};
  return navbench::test::makeObstacle(kind, p);
}

TEST(ObstacleState, EveryKindRebuildsItsTilesAndRemovingThemGivesTheSameNavmesh) {
  bool ok = false;
  Opened o(&ok);
  ASSERT_TRUE(ok);
  const std::string hash0 = navbench::navMeshHash(o.mesh);
  ASSERT_GT(o.mesh.tileCount(), 0);
  std::string why;
  // Floor points of the default level (tile (1, 0) and its neighbours).
  const auto& pts = kFloor;
  const Obstacle::Kind kinds[3] = {Obstacle::Cylinder, Obstacle::Box, Obstacle::OrientedBox};
  std::string prev = hash0;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(o.tc.add(make(kinds[i], pts[i][0], pts[i][1], pts[i][2]), &why)) << why;
    EXPECT_TRUE(o.tc.busy());
    const size_t before = o.tc.rebuilt().size();
    o.tc.poll(0);
    EXPECT_FALSE(o.tc.busy());
    EXPECT_GT(o.tc.rebuilt().size(), before) << navbench::obstacleKindName(kinds[i]) << ": no tile rebuilt";
    const nav::tilecache::TileCacheObstacle* ob = o.tc.cache().getObstacleByRef(o.tc.ref(i));
    ASSERT_NE(ob, nullptr);
    EXPECT_EQ(ob->state, nav::tilecache::OBSTACLE_PROCESSED);
    const std::string h = navbench::navMeshHash(o.mesh);
    EXPECT_NE(h, prev) << navbench::obstacleKindName(kinds[i]) << " changed nothing";
    prev = h;
    EXPECT_EQ(o.tc.obstacleAt(pts[i]), i);
  }
  // Moved: the old place is free again, the new one taken.
  const float to[3] = {16.0f, 0.0f, 6.0f};
  ASSERT_TRUE(o.tc.move(0, to, &why)) << why;
  o.tc.poll(0);
  EXPECT_EQ(o.tc.obstacleAt(pts[0]), -1);
  EXPECT_EQ(o.tc.obstacleAt(to), 0);
  // All removed: the navmesh as opened.
  ASSERT_TRUE(o.tc.setAll({}, &why)) << why;
  o.tc.poll(0);
  EXPECT_TRUE(o.tc.obstacles().empty());
  EXPECT_EQ(navbench::navMeshHash(o.mesh), hash0);
}

TEST(ObstacleState, ObstaclesJsonRoundTripAndRefusals) {
  bool ok = false;
  Opened o(&ok);
  ASSERT_TRUE(ok);
  std::string why;
  ASSERT_TRUE(o.tc.add(make(Obstacle::Cylinder, 13.4f, 0.0f, 2.95f), &why));
  ASSERT_TRUE(o.tc.add(make(Obstacle::Box, 20.0f, 0.0f, 3.0f), &why));
  ASSERT_TRUE(o.tc.add(make(Obstacle::OrientedBox, 8.0f, 0.0f, 12.0f), &why));
  nlohmann::json j;
  o.tc.saveObstacles(j);
  std::vector<Obstacle> back;
  ASSERT_TRUE(TileCacheState::parseObstacles(j, &back, &why)) << why;
  nlohmann::json j2;
  ASSERT_TRUE(o.tc.setAll(back, &why)) << why;
  o.tc.saveObstacles(j2);
  EXPECT_EQ(j, j2);

  auto refused = [](const char* text, const char* says) {
    std::vector<Obstacle> out;
    std::string w;
    EXPECT_FALSE(TileCacheState::parseObstacles(nlohmann::json::parse(text), &out, &w)) << text;
    EXPECT_NE(w.find(says), std::string::npos) << text << " -> " << w;
  };
  refused(R"({"kind": "cylinder"})", "not a list");
  refused(R"([{"kind": "cone", "pos": [0, 0, 0]}])", "obstacles[0].kind");
  refused(R"([{"kind": "cylinder", "pos": [0, 0], "radius": 1, "height": 2}])", "obstacles[0].pos");
  refused(R"([{"kind": "cylinder", "pos": [0, 0, 0], "radius": -1, "height": 2}])", "radius");
  refused(R"([{"kind": "box", "pos": [0, 0, 0], "half": [1, 1, 1], "yaw": 3}])", "unknown key 'yaw'");
  refused(R"([{"kind": "obox", "pos": [0, 0, 0], "half": [1, 0, 1], "yaw": 3}])", "half extent y");
}

TEST(ObstacleState, ABadFileIsNamedAndNothingOpens) {
  const fs::path bad = fs::path(NAVBENCH_MODEL_TEST_TMP) / "bad.tcache";
  fs::create_directories(bad.parent_path());
  std::ofstream(bad) << "NBTC not really a tile cache";
  TileCacheState tc;
  std::string err;
  EXPECT_FALSE(tc.open(bad.string(), err));
  EXPECT_NE(err.find("bad.tcache"), std::string::npos) << err;
  std::string why;
  EXPECT_FALSE(tc.add(make(Obstacle::Cylinder, 0, 0, 0), &why));
  EXPECT_FALSE(why.empty());
}

} // namespace
