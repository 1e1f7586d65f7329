// The Crowd tool (issue 16) driven through the real binary headless, as a person would: clicks on
// the default level add agents, a right click sends them, the panel's Step / Back / Save / Load
// buttons (found where the tool's --dump-state "buttons" says they are) and keys (Space, Left, End)
// move the crowd in time. Checked: agents placed and walking, the Left key and the Back button step
// back to the state of going straight there, a .crowd.txt saved by the button and run by
// `navbench crowd` gives the viewer's agents at that tick bit for bit, a scenario JSON and the
// screenshot PNG reopen at the same tick with the same agents.
// What the crowd computes (step back and scrubbing in large crowds, checkpoints, edits replayed,
// the scenario JSON and bad files) is tested without a window in tests/model/Crowd*Test.cpp.
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Floor points of the default level at 1280x720 (default camera), near each other, and a target
// point across the level (the test of the Tile tool uses the first).
const std::string kAgents = "--click 680,420 --click 700,430 --click 660,440";
const std::string kTarget = "--click 900,300,right";

std::string q(const std::string& s) { return "'" + s + "'"; }

struct AppRun : navbench::test::CommandResult {
  json state;
  const json& tool() const { return state["toolState"]; }
};

// levelDir (TestUtil.h): a fresh copy of the default level, where the tool's relative file name
// (crowd.crowd.txt) lands.
using navbench::test::levelDir;

/// Runs the viewer in dir on `open` (the level, a scenario .json or a .png) with the Crowd tool.
AppRun runApp(const std::string& dir, const std::string& open, const std::string& args, const std::string& tag = "shot") {
  AppRun r;
  const std::string dump = dir + "/" + tag + ".state.json";
  fs::remove(dump);
  static_cast<navbench::test::CommandResult&>(r) = navbench::test::runCommand(
      "cd " + q(dir) + " && " + navbench::test::headlessEnv(dir + "/config") + q(NAVBENCH_EXE) + " " + open +
      " --size 1280x720 " + args + " --screenshot " + q(dir + "/" + tag + ".png") + " --dump-state " + q(dump));
  std::ifstream f(dump);
  if (f) r.state = json::parse(f, nullptr, false);
  return r;
}
AppRun runCrowd(const std::string& dir, const std::string& args, const std::string& tag = "shot") {
  return runApp(dir, "default.json --tool Crowd", args, tag);
}

/// "--click X,Y" at the centre of the Crowd panel's widget `key` (from a run that only opens it).
std::string widget(const std::string& key) {
  static json rects;
  // A folder of this test's own: ctest runs the tests of this file as parallel processes.
  if (rects.is_null())
    rects = runCrowd(levelDir(std::string("crowd_rects_") + ::testing::UnitTest::GetInstance()->current_test_info()->name()), "")
                .tool()["buttons"];
  const json& b = rects[key];
  if (!b.is_array() || b.size() != 4) {
    ADD_FAILURE() << "no widget '" << key << "' in " << rects.dump();
    return "";
  }
  return " --click " + std::to_string(int(b[0].get<float>() + b[2].get<float>() / 2)) + "," +
         std::to_string(int(b[1].get<float>() + b[3].get<float>() / 2)) + " ";
}
std::string repeat(const std::string& s, int n) {
  std::string r;
  for (int i = 0; i < n; ++i) r += s;
  return r;
}

/// The agents' state without the viewer-only keys.
json agentsOf(const AppRun& r) {
  json a = r.tool()["agents"];
  for (json& x : a)
    for (const char* k : {"slot", "updateFlags", "avoidType"}) x.erase(k);
  return a;
}

std::vector<float> vec(const json& j) { return j.get<std::vector<float>>(); }

} // namespace

// Three clicks add three agents on the navmesh; the right click sends all of them; Space ticks.
TEST(CrowdTool, ClicksAddAgentsRightClickSendsThemTicksMoveThem) {
  const std::string dir = levelDir("crowd_clicks");
  const AppRun r0 = runCrowd(dir, kAgents + " " + kTarget, "t0");
  const AppRun r = runCrowd(dir, kAgents + " " + kTarget + repeat(" --key space", 20), "t20");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_EQ(r0.exitCode, 0) << r0.output;
  EXPECT_EQ(r0.tool()["tick"], 0);
  EXPECT_EQ(r.tool()["tick"], 20);
  EXPECT_EQ(r.tool()["running"], false);
  ASSERT_EQ(r.tool()["agents"].size(), 3u) << r.tool().dump();
  EXPECT_EQ(r.tool()["agentLines"], 3);
  for (size_t i = 0; i < 3; ++i) {
    const json& a0 = r0.tool()["agents"][i];
    const json& a = r.tool()["agents"][i];
    EXPECT_TRUE(a["active"].get<bool>());
    EXPECT_EQ(a["state"], 1) << "walking";
    EXPECT_EQ(a0["targetState"], 3) << "requested at tick 0, planned by the next update";
    EXPECT_EQ(a["targetState"], 2) << "a valid corridor after 20 updates";
    EXPECT_GT(a["npath"].get<int>(), 1);
    const std::vector<float> p0 = vec(a0["pos"]), p = vec(a["pos"]);
    const float moved = std::hypot(p[0] - p0[0], p[2] - p0[2]);
    EXPECT_GT(moved, 0.5f) << "agent " << i << " walked toward the target";
  }
  EXPECT_EQ(r.state["logErrors"], 0) << r.output;
  // The mouse resting on the first agent (still where it was placed at tick 0) hovers it.
  const AppRun hover = runCrowd(dir, kAgents + " --hover 680,420", "hover");
  EXPECT_EQ(hover.tool()["hovered"], 0) << hover.output;
  // T with the mouse resting on a point sends the agents there, as the right click on it does.
  const AppRun key = runCrowd(dir, kAgents + " --hover 900,300 --key t", "key_t");
  ASSERT_EQ(key.tool()["agents"].size(), 3u) << key.output;
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(key.tool()["agents"][i]["targetState"], 3) << key.tool()["message"];
    EXPECT_EQ(key.tool()["agents"][i]["targetPos"], r0.tool()["agents"][i]["targetPos"]) << "agent " << i;
  }
  // In the Target mode Shift+click drives the agents by velocity (RecastDemo's adjust), no path.
  const AppRun vel = runCrowd(dir, kAgents + widget("mode.target") + " --click 900,300,shift --key space --key space", "vel");
  ASSERT_EQ(vel.tool()["agents"].size(), 3u) << vel.output;
  for (const json& a : vel.tool()["agents"]) {
    EXPECT_EQ(a["targetState"], 6) << vel.tool()["message"];
    const std::vector<float> v = vec(a["vel"]);
    EXPECT_GT(std::hypot(v[0], v[2]), 0.1f);
  }
  // Shift+click on the first agent removes it (its index stays, inactive).
  const AppRun rm = runCrowd(dir, kAgents + " --click 680,420,shift", "rm");
  ASSERT_EQ(rm.tool()["agents"].size(), 3u) << rm.output;
  EXPECT_FALSE(rm.tool()["agents"][0]["active"].get<bool>()) << rm.tool()["message"];
  EXPECT_TRUE(rm.tool()["agents"][1]["active"].get<bool>());
}

// Left steps back (from the last checkpoint, or from the start): the state is the one of going
// straight there.
TEST(CrowdTool, StepBackIsTheStateOfGoingStraightThere) {
  const std::string dir = levelDir("crowd_back");
  const AppRun direct = runCrowd(dir, kAgents + " " + kTarget + repeat(" --key space", 12), "direct");
  const AppRun back = runCrowd(dir, kAgents + " " + kTarget + repeat(" --key space", 15) + repeat(" --key left", 3), "back");
  const AppRun button = runCrowd(dir, kAgents + " " + kTarget + repeat(widget("step"), 13) + widget("back"), "button");
  for (const AppRun* r : {&direct, &back, &button}) {
    ASSERT_EQ(r->exitCode, 0) << r->output;
    EXPECT_EQ(r->tool()["tick"], 12) << r->output;
  }
  EXPECT_EQ(back.tool()["totalTicks"], 15) << "stepping back keeps the recorded ticks";
  EXPECT_EQ(agentsOf(back), agentsOf(direct));
  EXPECT_EQ(agentsOf(button), agentsOf(direct));
  EXPECT_TRUE(vec(direct.tool()["agents"][0]["vel"])[0] != 0.0f || vec(direct.tool()["agents"][0]["vel"])[2] != 0.0f);
}

// The panel's Save writes the crowd as a .crowd.txt; `navbench crowd` on it gives, at the viewer's
// tick, exactly the viewer's agents. Load reads it back and End goes to the same state.
TEST(CrowdTool, SavedCrowdRunsTheSameFromTheCommandLine) {
  const std::string dir = levelDir("crowd_save");
  const AppRun r = runCrowd(dir, kAgents + " " + kTarget + repeat(widget("step"), 25) + widget("save"), "save");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_EQ(r.tool()["tick"], 25) << r.output;
  ASSERT_TRUE(fs::exists(dir + "/crowd.crowd.txt")) << r.tool()["message"];
  EXPECT_EQ(r.tool()["messageIsError"], false) << r.tool()["message"];

  const navbench::test::CommandResult cli = navbench::test::runCommand(
      "cd " + q(dir) + " && " + q(NAVBENCH_EXE) + " crowd default.bin crowd.crowd.txt --json trace.jsonl");
  ASSERT_EQ(cli.exitCode, 0) << cli.output;
  std::ifstream in(dir + "/trace.jsonl");
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 25u) << "one line per tick";
  const json& last = lines.back();
  EXPECT_EQ(last["tick"], 25);
  ASSERT_EQ(last["agents"].size(), r.tool()["agents"].size());
  for (size_t i = 0; i < last["agents"].size(); ++i) {
    const json& t = last["agents"][i];
    const json& v = r.tool()["agents"][i];
    EXPECT_EQ(t["active"], v["active"]);
    for (const char* k : {"state", "targetState", "npath", "path0", "pathN", "ncorners", "nneis"}) EXPECT_EQ(t[k], v[k]) << k;
    for (const char* k : {"pos", "vel", "dvel", "nvel"}) EXPECT_EQ(vec(t[k]), vec(v[k])) << "agent " << i << " " << k;
  }

  // (The first click of a run lands while the panel is still being laid out: a harmless one first.)
  const AppRun loaded = runCrowd(dir, widget("mode.agents") + widget("load") + " --key end", "load");
  ASSERT_EQ(loaded.exitCode, 0) << loaded.output;
  EXPECT_EQ(loaded.tool()["tick"], 25) << loaded.tool()["message"];
  EXPECT_EQ(agentsOf(loaded), agentsOf(r));
  EXPECT_EQ(loaded.state["logErrors"], 0) << loaded.output;
}

// A scenario saved at tick 18, and the screenshot of that run, reopen at tick 18 with the same
// agents and the same selected agent.
TEST(CrowdTool, ScenarioAndScreenshotReopenAtTheSameTick) {
  const std::string dir = levelDir("crowd_scenario");
  const AppRun a = runCrowd(dir, kAgents + " " + kTarget + widget("mode.select") + " --click 680,420 " +
                                     repeat(widget("step"), 18) + " --save-scenario " + q(dir + "/crowd_bug.json"), "a");
  ASSERT_EQ(a.exitCode, 0) << a.output;
  ASSERT_EQ(a.tool()["tick"], 18);
  EXPECT_GE(a.tool()["selected"].get<int>(), 0) << a.tool()["message"];
  for (const std::string open : {"crowd_bug.json", "a.png"}) {
    const AppRun b = runApp(dir, q(open), "", "reopen");
    ASSERT_EQ(b.exitCode, 0) << b.output;
    EXPECT_EQ(b.state["activeTool"], "Crowd") << open;
    EXPECT_EQ(b.tool()["tick"], 18) << open << ": " << b.output;
    EXPECT_EQ(b.tool()["totalTicks"], 18) << open;
    EXPECT_EQ(b.tool()["selected"], a.tool()["selected"]) << open;
    EXPECT_EQ(agentsOf(b), agentsOf(a)) << open;
    EXPECT_EQ(b.state["logErrors"], 0) << b.output;
  }
  // Saved again from the reopened scenario: the same bytes.
  const AppRun c = runApp(dir, "crowd_bug.json", "--save-scenario " + q(dir + "/again.json"), "again");
  ASSERT_EQ(c.exitCode, 0) << c.output;
  auto bytes = [](const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  };
  EXPECT_EQ(bytes(dir + "/again.json"), bytes(dir + "/crowd_bug.json"));
}
