// The Obstacles tool (issue 17) driven by real clicks through the headless binary: the default
// level's tile cache baked in the test (`navbench bake default.json --layers`) beside its OBJ (no
// .bin: the .tcache is what opens), --tool Obstacles, Shift+clicks for the probe path across, a
// click to drop a cylinder (a box through the tool's scenario state), Shift+click to remove it,
// --drag to move it (rebuilt at each place on the way); then --dump-state (obstacles, rebuilt tiles, the probe path, the navmesh's
// hash) and the scenario / screenshot reopened.
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Pixels of the default level at 1280x720 (the camera of a first open): the probe goes from the
// left floor to the right floor; the obstacle drops on the floor between them.
const char* kProbeA = "--click 590,430,shift";
const char* kProbeB = "--click 750,460,shift";
const char* kMid = "670,445";
const char* kMoveTo = "750,485";

std::string q(const std::string& s) { return "'" + s + "'"; }

struct AppRun : navbench::test::CommandResult {
  json state;
  json toolState = json::object(); ///< state["toolState"], with the keys the tests read always there
  const json& tool() const { return toolState; }
};

/// A folder with the default level's OBJ, MTL, level file and a tile cache baked from it (once a
/// process).
const std::string& levelDir() {
  static std::string dir;
  if (!dir.empty()) return dir;
  // One folder per test (ctest runs each test as its own process, in parallel with -j).
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path d = fs::path(NAVBENCH_TEST_TMP) / (std::string("level_") + (t ? t->name() : "main"));
  fs::remove_all(d);
  fs::create_directories(d);
  const fs::path src = fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path();
  for (const char* f : {"default.obj", "default.mtl", "default.json"}) fs::copy_file(src / f, d / f);
  const auto r = navbench::test::runCommand("cd " + q(d.string()) + " && " + q(NAVBENCH_EXE) +
                                            " bake default.json --layers -o default.tcache");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::is_regular_file(d / "default.tcache")) << r.output;
  dir = d.string();
  return dir;
}

AppRun runApp(const std::string& open, const std::string& args, const std::string& tag) {
  AppRun r;
  const std::string dir = levelDir();
  const std::string dump = dir + "/" + tag + ".state.json";
  fs::remove(dump);
  static_cast<navbench::test::CommandResult&>(r) = navbench::test::runCommand(
      "cd " + q(dir) + " && " + navbench::test::headlessEnv(dir + "/config") + q(NAVBENCH_EXE) + " " + open +
      " --size 1280x720 " + args + " --frames 8 --screenshot " + q(dir + "/" + tag + ".png") + " --dump-state " + q(dump));
  std::ifstream f(dump);
  if (f) r.state = json::parse(f, nullptr, false);
  if (r.state.is_object() && r.state.contains("toolState") && r.state["toolState"].is_object()) r.toolState = r.state["toolState"];
  for (const char* k : {"tileCache", "probe", "message"})
    if (!r.toolState.contains(k)) r.toolState[k] = json::object();
  for (const char* k : {"obstacles", "rebuiltTiles"})
    if (!r.toolState["tileCache"].contains(k)) r.toolState["tileCache"][k] = json::array();
  return r;
}

AppRun runTool(const std::string& args, const std::string& tag) { return runApp("default.obj --tool Obstacles", args, tag); }

std::vector<float> straight(const AppRun& r) { return r.tool()["probe"].value("straight", std::vector<float>()); }

float length(const std::vector<float>& p) {
  float len = 0;
  for (size_t i = 3; i + 2 < p.size(); i += 3)
    len += std::hypot(p[i] - p[i - 3], p[i + 1] - p[i - 2], p[i + 2] - p[i - 1]);
  return len;
}

/// Distance in xz from point c to segment ab.
float segDist(const float* a, const float* b, float cx, float cz) {
  const float dx = b[0] - a[0], dz = b[2] - a[2];
  const float d = dx * dx + dz * dz;
  float t = d > 0 ? ((cx - a[0]) * dx + (cz - a[2]) * dz) / d : 0;
  t = std::fmax(0.0f, std::fmin(1.0f, t));
  return std::hypot(a[0] + t * dx - cx, a[2] + t * dz - cz);
}

const AppRun& baseline() {
  static AppRun r = runTool(std::string(kProbeA) + " " + kProbeB, "baseline");
  return r;
}

TEST(ObstacleTool, OpensTheTileCacheBesideTheObj) {
  const AppRun& r = baseline();
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.state.value("nav", std::string()).find("default.tcache"), std::string::npos) << r.state.dump();
  EXPECT_TRUE(r.tool().value("tileCacheOpen", false)) << r.output;
  EXPECT_GT(r.tool()["tileCache"].value("layers", 0), 0);
  EXPECT_GT(r.state.value("navPolys", 0), 0);
  EXPECT_GE(straight(r).size(), 6u) << "the probe path across: " << r.tool()["probe"].dump();
}

TEST(ObstacleTool, CylinderReroutesAndShiftClickGivesTheOriginalBack) {
  const AppRun& base = baseline();
  ASSERT_EQ(base.exitCode, 0) << base.output;
  const std::string hash0 = base.tool()["tileCache"].value("meshHash", std::string());
  ASSERT_FALSE(hash0.empty());

  const AppRun dropped = runTool(std::string(kProbeA) + " " + kProbeB + " --click " + kMid, "cylinder");
  ASSERT_EQ(dropped.exitCode, 0) << dropped.output;
  const json& tc = dropped.tool()["tileCache"];
  ASSERT_EQ(tc["obstacles"].size(), 1u) << tc.dump();
  const json& ob = tc["obstacles"][0];
  EXPECT_EQ(ob.value("kind", ""), "cylinder");
  EXPECT_EQ(ob.value("state", ""), "processed");
  EXPECT_FALSE(ob["touchedTiles"].empty());
  EXPECT_FALSE(tc["rebuiltTiles"].empty());
  EXPECT_TRUE(tc.value("upToDate", false));
  EXPECT_NE(tc.value("meshHash", std::string()), hash0) << "the obstacle changed no tile";
  // The path goes around: longer, and no segment within the cylinder's radius (less the agent
  // radius the layers were eroded by and a small tolerance) of its centre.
  const std::vector<float> before = straight(base), after = straight(dropped);
  ASSERT_GE(after.size(), 6u);
  EXPECT_GT(length(after), length(before) + 0.01f);
  const float cx = ob["pos"][0].get<float>(), cz = ob["pos"][2].get<float>(), r = ob.value("radius", 0.0f);
  for (size_t i = 3; i + 2 < after.size(); i += 3)
    EXPECT_GT(segDist(&after[i - 3], &after[i], cx, cz), r - 0.05f) << "segment " << i / 3 << " crosses the obstacle";

  // Shift+click on it: removed, every tile back byte for byte, and the path as before.
  const AppRun removed =
      runTool(std::string(kProbeA) + " " + kProbeB + " --click " + kMid + " --click " + kMid + ",shift", "removed");
  ASSERT_EQ(removed.exitCode, 0) << removed.output;
  EXPECT_TRUE(removed.tool()["tileCache"]["obstacles"].empty());
  EXPECT_EQ(removed.tool()["tileCache"].value("meshHash", std::string()), hash0);
  EXPECT_EQ(straight(removed), before);
  // Undo brings it back (one history).
  const AppRun undone = runTool(std::string(kProbeA) + " " + kProbeB + " --click " + kMid + " --click " + kMid +
                                    ",shift --key ctrl+z",
                                "undone");
  EXPECT_EQ(undone.tool()["tileCache"]["obstacles"].size(), 1u) << undone.output;
  EXPECT_EQ(undone.tool()["tileCache"].value("meshHash", std::string()), tc.value("meshHash", std::string()));
}

TEST(ObstacleTool, ScenarioAndScreenshotReopenWithTheObstaclesAndABox) {
  const std::string dir = levelDir();
  const std::string scen = dir + "/obst_scenario.json";
  const AppRun saved = runTool(std::string(kProbeA) + " " + kProbeB + " --click " + kMid + " --save-scenario " + q(scen), "saved");
  ASSERT_EQ(saved.exitCode, 0) << saved.output;
  const std::string hash1 = saved.tool()["tileCache"].value("meshHash", std::string());
  json s;
  {
    std::ifstream f(scen);
    s = json::parse(f, nullptr, false);
  }
  ASSERT_EQ(s["edits"]["obstacles"].size(), 1u) << s.dump();
  // The scenario and the screenshot (it carries the scenario) reopen with the obstacle.
  for (const std::string& file : {scen, dir + "/saved.png"}) {
    const AppRun re = runApp(q(file), "", "reopen");
    ASSERT_EQ(re.exitCode, 0) << re.output;
    EXPECT_EQ(re.tool()["tileCache"]["obstacles"].size(), 1u) << file;
    EXPECT_EQ(re.tool()["tileCache"].value("meshHash", std::string()), hash1) << file;
    EXPECT_EQ(straight(re), straight(saved)) << file;
  }
  // A box: the tool's kind from the scenario, dropped by a click beside the cylinder.
  s["tool"]["state"]["kind"] = "box";
  s["tool"]["state"]["half"] = {1.5, 1.0, 1.5};
  std::ofstream(dir + "/box_scenario.json") << s.dump(2);
  const AppRun box = runApp("box_scenario.json", std::string("--click ") + kMoveTo, "box");
  ASSERT_EQ(box.exitCode, 0) << box.output;
  const json& obs = box.tool()["tileCache"]["obstacles"];
  ASSERT_EQ(obs.size(), 2u) << box.output;
  EXPECT_EQ(obs[1].value("kind", ""), "box");
  EXPECT_EQ(obs[1].value("state", ""), "processed");
  EXPECT_NE(box.tool()["tileCache"].value("meshHash", std::string()), hash1);
}

TEST(ObstacleTool, DragMovesTheObstacleAndRebuildsAsItMoves) {
  // --drag moves the mouse a step a frame with the button held (ScriptDriver::kDragMoves motion
  // events), as a hand would: the obstacle follows, its tiles rebuilt at each place on the way.
  const AppRun moved = runTool(std::string("--click ") + kMid + " --drag " + kMid + "," + kMoveTo, "drag");
  ASSERT_EQ(moved.exitCode, 0) << moved.output;
  const json& obs = moved.tool()["tileCache"]["obstacles"];
  ASSERT_EQ(obs.size(), 1u) << moved.output;
  const AppRun placed = runTool(std::string("--click ") + kMid, "placed");
  const AppRun there = runTool(std::string("--click ") + kMoveTo, "there");
  ASSERT_EQ(placed.tool()["tileCache"]["obstacles"].size(), 1u);
  ASSERT_EQ(there.tool()["tileCache"]["obstacles"].size(), 1u);
  const json& from = placed.tool()["tileCache"]["obstacles"][0];
  const json& to = there.tool()["tileCache"]["obstacles"][0];
  EXPECT_NE(obs[0]["pos"], from["pos"]);
  EXPECT_EQ(obs[0]["pos"], to["pos"]) << "dropped where the drag ended";
  EXPECT_EQ(moved.tool()["tileCache"].value("meshHash", std::string()), there.tool()["tileCache"].value("meshHash", std::string()));

  // Moved while dragging: several places, the last one the end, and one of them clear of both
  // ends (the obstacle stood between them, not only at either).
  const json trail = moved.tool().value("dragTrail", json::array());
  ASSERT_GE(trail.size(), 3u) << "the drag moved the obstacle only at its ends: " << trail.dump();
  EXPECT_EQ(trail.back(), to["pos"]);
  const float r = from.value("radius", 0.0f);
  ASSERT_GT(r, 0.0f);
  auto distXz = [](const json& a, const json& b) { return std::hypot(a[0].get<float>() - b[0].get<float>(), a[2].get<float>() - b[2].get<float>()); };
  bool between = false;
  for (const json& p : trail) between = between || (distXz(p, from["pos"]) > r && distXz(p, to["pos"]) > r);
  EXPECT_TRUE(between) << "no place on the way is clear of both ends: " << trail.dump();
  // And rebuilt there: more tile rebuilds than one jump from start to end can make (every tile
  // under the start, for the removal, and under the end, for the addition), in more cache updates.
  const size_t jump = from["touchedTiles"].size() + to["touchedTiles"].size();
  const size_t dropRebuilds = placed.tool()["tileCache"]["rebuiltTiles"].size();
  const size_t dragRebuilds = moved.tool()["tileCache"]["rebuiltTiles"].size() - dropRebuilds;
  EXPECT_GT(dragRebuilds, jump) << moved.tool()["tileCache"]["rebuiltTiles"].dump();
  EXPECT_GT(moved.tool()["tileCache"].value("updates", 0), placed.tool()["tileCache"].value("updates", 0) + 1);
  EXPECT_TRUE(moved.tool()["tileCache"].value("upToDate", false));
}

TEST(ObstacleTool, LevelEditToolsRefuseATileCacheNavmesh) {
  // The OBJ and its .tcache open together: a tile the level edit tools re-baked into the cache's
  // navmesh would go back to the layers' version at the next obstacle rebuild, so they refuse, in
  // their panel (the tool's message) and the Log, saying what to do instead; nothing changes.
  const AppRun& base = baseline();
  ASSERT_EQ(base.exitCode, 0) << base.output;
  const std::string why = "this navmesh comes from a tile cache (default.tcache)";
  struct Case {
    const char* tool;
    std::string args;
  };
  const AppRun prune = runApp("default.obj --tool Prune", "--click 670,445", "prune_flood");
  ASSERT_GT(prune.state["toolState"].value("unreachable", 0), 0) << "Apply needs unreachable polys to disable";
  const json apply = prune.state["toolState"]["buttons"]["Apply (disable unreachable)"]; // [x, y, w, h]
  ASSERT_EQ(apply.size(), 4u) << prune.state["toolState"].dump();
  const std::string clickApply = "--click " + std::to_string(int(apply[0].get<float>() + apply[2].get<float>() / 2)) + "," +
                                 std::to_string(int(apply[1].get<float>() + apply[3].get<float>() / 2));
  for (const Case& c : {Case{"Convex Volumes", std::string("--click 590,430 --click 750,460 --click ") + kMoveTo + " --key return"},
                        Case{"Off-Mesh Links", "--click 590,430 --click 750,460"}, Case{"Tiles", std::string("--click ") + kMid},
                        Case{"Prune", "--click 670,445 " + clickApply}}) {
    const AppRun r = runApp(std::string("default.obj --tool '") + c.tool + "'", c.args, "refused");
    ASSERT_EQ(r.exitCode, 0) << c.tool << "\n" << r.output;
    const std::string msg = r.state["toolState"].value("message", std::string());
    EXPECT_NE(msg.find(why), std::string::npos) << c.tool << ": " << r.state["toolState"].dump();
    EXPECT_NE(msg.find("--layers -o default.tcache"), std::string::npos) << c.tool << ": " << msg;
    EXPECT_NE(msg.find("open the .bin"), std::string::npos) << c.tool << ": " << msg;
    EXPECT_GE(r.state.value("logErrors", 0), 1) << c.tool;
    EXPECT_NE(r.output.find(why), std::string::npos) << c.tool << ": not in the log\n" << r.output;
    const json& ed = r.state["editor"];
    EXPECT_EQ(ed["volumes"], base.state["editor"]["volumes"]) << c.tool << ": the level file's volumes only";
    EXPECT_EQ(ed["links"], base.state["editor"]["links"]) << c.tool << ": the level file's links only";
    EXPECT_TRUE(ed["removedTiles"].empty() && ed["disabledPolys"].empty()) << c.tool << ": " << ed.dump();
    EXPECT_EQ(ed.value("rebakes", -1), 0) << c.tool;
    EXPECT_EQ(ed.value("undo", -1), 0) << c.tool;
    EXPECT_FALSE(ed.value("unsaved", true)) << c.tool;
    EXPECT_EQ(r.state.value("navPolys", 0), base.state.value("navPolys", -1)) << c.tool;
  }
}

TEST(ObstacleTool, ATileSetSaysHowToGetATileCache) {
  const fs::path bin = fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path() / "default.bin";
  const AppRun r = runApp(q(bin.string()) + " --tool Obstacles", std::string("--click ") + kMid, "bin");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_FALSE(r.tool().value("tileCacheOpen", true));
  EXPECT_NE(r.tool()["message"].dump().find(".tcache"), std::string::npos) << r.tool().dump();
}

} // namespace
