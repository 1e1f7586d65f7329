// AgentsViewerTest.cpp: the Agents panel end to end through the real viewer, headless, on the
// bundled three-agent level (assets/levels/default_agents.json: dog, soldier, truck). A scenario
// puts the start in courtyard B and the end in room D beyond the 1 m gap in the wall between them
// (the dog's way) or round through the 2.4 m doorway (the soldier's; the truck fits neither), with
// Compare agents on; F7 opens the panel. --dump-state holds each agent's path, which must equal
// `navbench query` on that agent's tile set (`navbench bake` of the level with the agent's
// settings). The picture is kept for a look (agents.png).
#include "ViewerRun.h"

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

const std::string kLevel = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default_agents.json";
const float kStart[3] = {56, 0, 12}, kEnd[3] = {55, 0, 26}; // courtyard B -> room D

class AgentsViewer : public ::testing::Test {
protected:
  navbench::test::TestViewer viewer{NAVBENCH_EXE, NAVBENCH_TEST_TMP, "1280x720"};
  const fs::path& dir = viewer.dir;
  navbench::test::AppRun run(const std::string& args, const std::string& name) { return viewer.run(args, name); }
  /// The scenario: Pathfind Straight from kStart to kEnd, `navbench query`'s filter (every flag,
  /// unit costs, 2048 nodes), the camera over the level, the agents as given.
  std::string scenario(const json& agents) {
    const navbench::test::AppRun base = run(q(kLevel) + " --tool 'Pathfind Straight'", "base");
    EXPECT_EQ(base.exitCode, 0) << base.output;
    json s = base.state["scenario"];
    s["tool"]["state"] = {{"start", {kStart[0], kStart[1], kStart[2]}}, {"end", {kEnd[0], kEnd[1], kEnd[2]}}};
    s["filter"] = {{"includeFlags", 65535}, {"excludeFlags", 0}, {"maxNodes", 2048}, {"heuristicScale", 0.999f}, {"areas", json::array()}};
    s["camera"] = {{"target", {38, 0, 24}}, {"yaw", 0.0f}, {"pitch", 1.35f}, {"distance", 58.0f}, {"fovY", 0.9f}};
    s["agents"] = agents;
    const std::string path = (dir / "scenario.json").string();
    std::ofstream(path) << s.dump(2);
    return path;
  }
  /// `navbench query` on agent `name`'s own bake: its pf record from kStart to kEnd.
  json cliAnswer(const std::string& name) {
    std::ifstream in(kLevel);
    json level = json::parse(in);
    json agent;
    for (const json& a : level["agents"])
      if (a["name"] == name) agent = a;
    for (auto it = agent.begin(); it != agent.end(); ++it)
      if (it.key() != "name" && it.key() != "color") level["settings"][it.key()] = it.value();
    level.erase("agents");
    level["obj"] = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.obj";
    const std::string lf = (dir / (name + ".json")).string(), bin = (dir / (name + ".bin")).string();
    std::ofstream(lf) << level.dump(2);
    const auto bake = navbench::test::runCommand(q(NAVBENCH_EXE) + " bake " + q(lf) + " -o " + q(bin));
    EXPECT_EQ(bake.exitCode, 0) << bake.output;
    const std::string cases = (dir / "cases.txt").string(), out = (dir / (name + ".jsonl")).string();
    char line[160];
    std::snprintf(line, sizeof line, "pf %g %g %g %g %g %g 65535 0\n", double(kStart[0]), double(kStart[1]), double(kStart[2]),
                  double(kEnd[0]), double(kEnd[1]), double(kEnd[2]));
    std::ofstream(cases) << line;
    const auto query = navbench::test::runCommand(q(NAVBENCH_EXE) + " query " + q(bin) + " " + q(cases) + " --json " + q(out));
    EXPECT_EQ(query.exitCode, 0) << query.output;
    std::ifstream rec(out);
    std::string first;
    std::getline(rec, first);
    return json::parse(first, nullptr, false);
  }
};

TEST_F(AgentsViewer, CompareAnswersEveryAgentAsNavbenchQueryDoes) {
  const std::string s = scenario({{"active", "soldier"}, {"compare", true}});
  const navbench::test::AppRun r = run(q(s) + " --key F7", "agents");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_TRUE(r.state.is_object()) << r.output;
  const json& a = r.state["agents"];
  ASSERT_TRUE(a["enabled"].get<bool>()) << a.dump();
  EXPECT_TRUE(a["visible"].get<bool>()); // F7
  EXPECT_EQ(a["active"], "soldier");
  EXPECT_TRUE(a["compare"].get<bool>());
  ASSERT_EQ(a["paths"].size(), 3u) << a.dump();
  EXPECT_EQ(r.state["logErrors"], 0) << r.output;
  // The scenario File > Save would write carries the agents.
  EXPECT_EQ(r.state["scenario"]["agents"]["active"], "soldier");
  EXPECT_TRUE(r.state["scenario"]["agents"]["compare"].get<bool>());
  for (const json& p : a["paths"]) {
    const std::string name = p["agent"];
    const json cli = cliAnswer(name);
    ASSERT_TRUE(cli.is_object()) << name;
    EXPECT_EQ(p["startRef"].get<uint64_t>(), cli["startRef"].get<uint64_t>()) << name;
    EXPECT_EQ(p["endRef"].get<uint64_t>(), cli["endRef"].get<uint64_t>()) << name;
    EXPECT_EQ(p["corridor"], cli["polys"]) << name;
    ASSERT_EQ(p["straight"].size(), cli["straight"].size() * 3) << name;
    for (size_t k = 0; k < cli["straight"].size(); ++k)
      for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(p["straight"][k * 3 + size_t(c)].get<float>(), cli["straight"][k][size_t(c)].get<float>(), 1e-3f) << name;
    EXPECT_NEAR(p["length"].get<float>(), cli["straightLen"].get<float>(), 1e-3f) << name;
    EXPECT_EQ(p["status"] == "complete", cli["found"].get<bool>()) << name;
  }
  // The dog and the soldier reach room D, the dog through the gap; the truck fits neither way.
  EXPECT_EQ(a["paths"][0]["status"], "complete");
  EXPECT_EQ(a["paths"][1]["status"], "complete");
  EXPECT_EQ(a["paths"][2]["status"], "partial");
  EXPECT_EQ(a["paths"][2]["reason"], "the end is on another island");
  EXPECT_LT(a["paths"][0]["length"].get<float>(), 20.0f); // straight through the gap
  EXPECT_GT(a["paths"][1]["length"].get<float>(), 30.0f); // round through the north hall and the doorway
}

TEST_F(AgentsViewer, ReachabilityAndTheActiveAgentComeBackFromTheScenario) {
  const std::string s = scenario({{"active", "truck"}, {"compare", false}, {"reach", true}, {"reachAgent", "dog"}});
  const navbench::test::AppRun r = run(q(s), "reach");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json& a = r.state["agents"];
  EXPECT_EQ(a["active"], "truck");
  EXPECT_TRUE(a["paths"].empty());
  EXPECT_EQ(a["reachAgent"], "dog");
  EXPECT_GT(a["reachedByActive"].get<int>(), 0);
  EXPECT_EQ(a["reachOnly"], 0) << "where the truck goes, the dog follows";
  // The soldier cannot follow the dog everywhere (the narrow gap, low places).
  const std::string s2 = scenario({{"active", "dog"}, {"reach", true}, {"reachAgent", "truck"}});
  const navbench::test::AppRun r2 = run(q(s2), "reach2");
  ASSERT_EQ(r2.exitCode, 0) << r2.output;
  EXPECT_EQ(r2.state["agents"]["active"], "dog");
  EXPECT_GT(r2.state["agents"]["reachOnly"].get<int>(), 0);
  // An old scenario without agents opens the level with its first agent active, nothing compared.
  const std::string s3 = scenario(nullptr);
  json old = json::parse(std::ifstream(s3));
  old.erase("agents");
  std::ofstream(s3) << old.dump(2);
  const navbench::test::AppRun r3 = run(q(s3), "old");
  ASSERT_EQ(r3.exitCode, 0) << r3.output;
  EXPECT_EQ(r3.state["agents"]["active"], "dog");
  EXPECT_FALSE(r3.state["agents"]["compare"].get<bool>());
  EXPECT_EQ(r3.state["logErrors"], 0) << r3.output;
}

} // namespace
