// WhyPanelTest.cpp: the Why panel end to end through the real viewer, headless. The default level
// with a filter that excludes doors (a scenario: its filter and a camera looking down on the
// doorway of hall B), a start and an end clicked on either side of the doorway in Pathfind
// Straight, F6 opens the panel: --dump-state lists a `filter` cause whose checked counterfactual
// completes the path. Applying it (Shift+F6, or a click on its Apply button) lets doors through and
// the path is complete; the picture of the panel is kept for a look (why_panel.png). A
// portal-midpoint detour's "at expansion N" opens the A* Stepper at that step.
#include "ViewerRun.h"

#include "render/Camera.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string q(const std::string& s) { return "'" + s + "'"; }

constexpr int kW = 1280, kH = 720;
const glm::vec3 kStart(46, 0, 28.9f), kEnd(54, 0, 45); // either side of the door at x 48, z 28..30.4

class WhyPanel : public ::testing::Test {
protected:
  navbench::test::TestViewer viewer{NAVBENCH_EXE, NAVBENCH_TEST_TMP, std::to_string(kW) + "x" + std::to_string(kH)};
  const fs::path& dir = viewer.dir;
  navbench::test::AppRun run(const std::string& args, const std::string& name) { return viewer.run(args, name); }
  /// The scenario the viewer saves for the default level in Pathfind Straight, with doors excluded
  /// and the camera looking down on both points; `whyShown` keeps the Why panel open.
  std::string scenario(bool whyShown, int excludeFlags = 4, glm::vec3 a = kStart, glm::vec3 b = kEnd,
                       float distance = 34.0f) {
    const navbench::test::AppRun base = run(q(NAVBENCH_DEFAULT_LEVEL) + " --tool 'Pathfind Straight'", "base");
    EXPECT_EQ(base.exitCode, 0) << base.output;
    json s = base.state["scenario"];
    s["filter"]["excludeFlags"] = excludeFlags; // 4: FLAG_DOOR
    cam.target = (a + b) * 0.5f;
    cam.yaw = 0.0f;
    cam.pitch = 1.45f;
    cam.distance = distance;
    s["camera"] = {{"target", {cam.target.x, cam.target.y, cam.target.z}},
                   {"yaw", cam.yaw},
                   {"pitch", cam.pitch},
                   {"distance", cam.distance},
                   {"fovY", cam.fovY}};
    if (whyShown) s["why"] = {{"visible", true}};
    const std::string path = (dir / (whyShown ? "shown.json" : "scenario.json")).string();
    std::ofstream(path) << s.dump(2);
    return path;
  }
  /// "--click X,Y,shift --click X,Y": the start and the end, where the scenario's camera shows them.
  std::string clicks(const glm::vec3& from = kStart, const glm::vec3& to = kEnd) const {
    glm::vec3 a, b;
    EXPECT_TRUE(cam.project(from, kW, kH, a));
    EXPECT_TRUE(cam.project(to, kW, kH, b));
    return " --click " + std::to_string(int(a.x)) + "," + std::to_string(int(a.y)) + ",shift --click " +
           std::to_string(int(b.x)) + "," + std::to_string(int(b.y));
  }
  static const json* cause(const json& why, const char* kind) {
    for (const json& c : why["causes"])
      if (c["kind"] == kind) return &c;
    return nullptr;
  }
  static std::string clickAt(const json& px) {
    return " --click " + std::to_string(int(px[0].get<float>())) + "," + std::to_string(int(px[1].get<float>()));
  }
  static void expectNearPoint(const json& p, const glm::vec3& want) {
    ASSERT_TRUE(p.is_array() && p.size() == 3) << p;
    EXPECT_NEAR(p[0].get<float>(), want.x, 0.6f) << p;
    EXPECT_NEAR(p[2].get<float>(), want.z, 0.6f) << p;
  }
  render::Camera cam;
};

TEST_F(WhyPanel, F6ExplainsTheExcludedDoorAndShiftF6AppliesTheFilterSoThePathCompletes) {
  const std::string scen = scenario(false);
  const navbench::test::AppRun r = run(q(scen) + clicks() + " --key f6", "why_panel");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json& s = r.state;
  ASSERT_TRUE(s.is_object()) << r.output;
  EXPECT_EQ(s["activeTool"], "Pathfind Straight");
  expectNearPoint(s["toolState"]["start"], kStart);
  expectNearPoint(s["toolState"]["end"], kEnd);
  const json& why = s["why"];
  EXPECT_TRUE(why["visible"].get<bool>());
  EXPECT_TRUE(why["hasQuery"].get<bool>());
  EXPECT_FALSE(why["reached"].get<bool>());
  const json* c = cause(why, "filter");
  ASSERT_NE(c, nullptr) << why.dump(1);
  EXPECT_EQ((*c)["change"], "filter");
  EXPECT_TRUE((*c)["checked"].get<bool>());
  EXPECT_TRUE((*c)["applicable"].get<bool>());
  EXPECT_TRUE((*c)["result"]["reached"].get<bool>());
  EXPECT_EQ(s["scenario"]["why"]["visible"], true); // the scenario File > Save writes keeps it open
  EXPECT_GT(fs::file_size(dir / "why_panel.png"), 1000u);

  const navbench::test::AppRun applied = run(q(scen) + clicks() + " --key f6 --key shift+f6", "applied");
  ASSERT_EQ(applied.exitCode, 0) << applied.output;
  EXPECT_EQ(applied.state["scenario"]["filter"]["excludeFlags"].get<int>() & 4, 0);
  EXPECT_EQ(applied.state["toolState"]["statusText"].get<std::string>().find("partial"), std::string::npos)
      << applied.state["toolState"]["statusText"];
  EXPECT_TRUE(applied.state["why"]["causes"].empty()) << applied.state["why"].dump(1); // explained again: nothing left
  EXPECT_TRUE(applied.state["why"]["reached"].get<bool>());

  // Ctrl+Z puts the filter back.
  const navbench::test::AppRun undone = run(q(scen) + clicks() + " --key f6 --key shift+f6 --key ctrl+z", "undone");
  ASSERT_EQ(undone.exitCode, 0) << undone.output;
  EXPECT_EQ(undone.state["scenario"]["filter"]["excludeFlags"], 4);
  EXPECT_NE(cause(undone.state["why"], "filter"), nullptr);
}

TEST_F(WhyPanel, ItsApplyButtonTakesTheFixWhenClicked) {
  const std::string scen = scenario(true); // the panel open from the start: the clicks reach its button
  const navbench::test::AppRun first = run(q(scen) + clicks(), "open");
  ASSERT_EQ(first.exitCode, 0) << first.output;
  const json* c = cause(first.state["why"], "filter");
  ASSERT_NE(c, nullptr) << first.state["why"].dump(1);
  const json& b = (*c)["button"];
  ASSERT_GE(b[0].get<float>(), 0.0f) << b;
  const navbench::test::AppRun clicked = run(q(scen) + clicks() + clickAt(b), "clicked");
  ASSERT_EQ(clicked.exitCode, 0) << clicked.output;
  EXPECT_EQ(clicked.state["scenario"]["filter"]["excludeFlags"].get<int>() & 4, 0);
  EXPECT_TRUE(clicked.state["why"]["reached"].get<bool>());
  expectNearPoint(clicked.state["toolState"]["end"], kEnd); // the click went to the button, not the level
}

TEST_F(WhyPanel, APortalMidpointDetourOpensTheStepperAtItsExpansion) {
  // By the half wall of hall A (tests/explain's planted detour), the filter RecastDemo's.
  const glm::vec3 a(9.962f, 0.2f, 8.063f), b(3.215f, 0.2f, 4.876f);
  const std::string scen = scenario(true, 0, a, b, 16.0f);
  const navbench::test::AppRun first = run(q(scen) + clicks(a, b), "detour");
  ASSERT_EQ(first.exitCode, 0) << first.output;
  const json* c = cause(first.state["why"], "detour");
  ASSERT_NE(c, nullptr) << first.state["why"].dump(1);
  const int expansion = (*c)["expansion"].get<int>();
  ASSERT_GE(expansion, 0);
  EXPECT_FALSE((*c)["applicable"].get<bool>()); // the any-angle search: shown, not applied
  ASSERT_GE((*c)["stepperButton"][0].get<float>(), 0.0f) << *c;
  const navbench::test::AppRun stepped = run(q(scen) + clicks(a, b) + clickAt((*c)["stepperButton"]), "stepper");
  ASSERT_EQ(stepped.exitCode, 0) << stepped.output;
  EXPECT_EQ(stepped.state["activeTool"], "A* Stepper");
  EXPECT_EQ(stepped.state["scenario"]["tool"]["state"]["options"]["index"], expansion + 1)
      << stepped.state["scenario"]["tool"].dump(1);
  expectNearPoint(stepped.state["toolState"]["start"], a);
  expectNearPoint(stepped.state["toolState"]["end"], b);
}

} // namespace
