// The hierarchical search in the real viewer, headless, on the 2 km world (`navbench worldgen`
// + `navbench bake`, baked once into the build dir by the world_2km fixture): a scenario picks
// Pathfind Straight with the hierarchical search, side by side and the graph overlay, and a
// 2,048-node budget; two far clicks give a complete hierarchical path where Detour's is partial
// (read back through --dump-state); the saved scenario reopens with the same choice and paths.
#include "ViewerRun.h"

#include "nav/NavTypes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using navbench::test::runViewer;
using navbench::test::ViewerFiles;

ViewerFiles files(const std::string& tag) {
  fs::create_directories(NAVBENCH_TEST_TMP);
  const std::string d = NAVBENCH_TEST_TMP;
  return {d + "/" + tag + ".png", d + "/" + tag + ".json", d + "/config", ""};
}

float dist(const json& a, const json& b) {
  const float dx = a[0].get<float>() - b[0].get<float>(), dz = a[2].get<float>() - b[2].get<float>();
  return std::sqrt(dx * dx + dz * dz);
}

} // namespace

TEST(HierViewer, TwoFarClicksCompleteWhereDetoursPathIsPartial) {
  ASSERT_TRUE(fs::exists(NAVBENCH_WORLD_2KM)) << NAVBENCH_WORLD_2KM << " (the world_2km fixture bakes it)";
  // Looking down on the whole world (0..2000 m on x and z).
  const std::string scenario = std::string(NAVBENCH_TEST_TMP) + "/hier_world.json";
  fs::create_directories(NAVBENCH_TEST_TMP);
  std::ofstream(scenario) << json{
      {"navbenchScenario", 1},
      {"level", ""},
      {"navmesh", NAVBENCH_WORLD_2KM},
      {"camera", {{"target", {1000, 0, 1000}}, {"yaw", 0.0}, {"pitch", 1.45}, {"distance", 2300}, {"fovY", 0.785398185}}},
      {"tool",
       {{"name", "Pathfind Straight"},
        {"state", {{"options", {{"algorithm", "hierarchical"}, {"sideBySide", true}, {"graph", true}, {"crossing", 0}}}}}}},
      {"filter", {{"includeFlags", 65535}, {"excludeFlags", 0}, {"heuristicScale", 0.999}, {"maxNodes", 2048}, {"areas", json::array()}}}}
      .dump(1);
  const ViewerFiles f = files("hier_far");
  const std::string saved = std::string(NAVBENCH_TEST_TMP) + "/hier_saved.json";
  const auto run = runViewer(NAVBENCH_EXE,
                             "'" + scenario + "' --size 1280x720 --click 330,420,shift --click 960,260 --save-scenario '" +
                                 saved + "'",
                             f);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  const json& s = run.state["toolState"];
  ASSERT_TRUE(s.is_object()) << run.state.dump().substr(0, 2000);
  EXPECT_EQ(s["tool"], "Pathfind Straight");
  EXPECT_EQ(s["algorithm"], "hierarchical");
  ASSERT_TRUE(s.contains("start") && s.contains("end")) << s.dump().substr(0, 2000);
  EXPECT_GT(dist(s["start"], s["end"]), 600.0f) << "two far clicks";
  const json& h = s["runs"]["hierarchical"];
  const json& d = s["runs"]["detour"];
  EXPECT_TRUE(h["complete"].get<bool>()) << h.dump().substr(0, 500);
  EXPECT_EQ(h["corridor"].back(), s["endRef"]);
  EXPECT_FALSE(d["complete"].get<bool>()) << d.dump().substr(0, 500);
  EXPECT_TRUE(d["status"].get<unsigned>() & nav::PARTIAL_RESULT);
  EXPECT_LE(d["nodes"].get<int>(), 2048);
  EXPECT_GT(h["len"].get<float>(), 0.95f * dist(s["start"], s["end"]));
  EXPECT_GT(s["abstractPath"].size(), 6u) << "start, entrances, end";
  // The mode's own path is the hierarchical one.
  EXPECT_EQ(s["corridor"], h["corridor"]);

  // The saved scenario reopens with the choice, the inputs and the same paths.
  const auto again = runViewer(NAVBENCH_EXE, "'" + saved + "' --size 1280x720", files("hier_reopen"));
  ASSERT_EQ(again.exitCode, 0) << again.output;
  const json& r = again.state["toolState"];
  EXPECT_EQ(r["algorithm"], "hierarchical");
  EXPECT_TRUE(r["sideBySide"].get<bool>());
  EXPECT_TRUE(r["graph"].get<bool>());
  EXPECT_EQ(r["start"], s["start"]);
  EXPECT_EQ(r["end"], s["end"]);
  EXPECT_EQ(r["runs"]["hierarchical"]["corridor"], h["corridor"]);
  EXPECT_EQ(r["runs"]["detour"]["corridor"], d["corridor"]);
}
