// The Crowd tool's model with the level's agent types (app/model/CrowdModel.h bindAgents): on the
// generated three-agent gap level, agents added while the dog and then the truck is active plan on
// their own type's navmesh with their type's radius and height; the crowd runs, a step back and
// forward again gives the same state, and the saved text names the types (`navmesh` lines, `type`
// keys), and `navbench crowd` (run in this process) reruns it on the tile sets `navbench bake`
// writes for the level.
#include "GapLevel.h"

#include "app/Log.h"
#include "app/cli/Cli.h"
#include "app/NavState.h"
#include "app/model/AgentSet.h"
#include "app/model/BakeRunner.h"
#include "app/model/CrowdModel.h"
#include "nav/bake/LevelFile.h"
#include "nav/crowd/CrowdScenario.h"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace navbench {
namespace {

namespace fs = std::filesystem;

/// `navbench SUB ARGS...` through the subcommand registry: its exit status (-100: not linked).
int runCli(const char* sub, std::vector<std::string> args) {
  const cli::Subcommand* cmd = cli::findSubcommand(sub);
  if (!cmd) return -100;
  args.insert(args.begin(), sub);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return cmd->run(int(args.size()), argv.data());
}

std::vector<std::array<float, 3>> positions(const CrowdModel& m, int n) {
  std::vector<std::array<float, 3>> out;
  for (int i = 0; i < n; ++i) {
    const nav::crowd::CrowdAgent* a = m.timeline().agent(i);
    out.push_back(a ? std::array<float, 3>{a->npos[0], a->npos[1], a->npos[2]} : std::array<float, 3>{-1, -1, -1});
  }
  return out;
}

TEST(CrowdAgentTypes, ATwoTypeCrowdRunsReplaysAndSavesItsTypes) {
  const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / "crowd_agent_types";
  fs::remove_all(dir);
  fs::create_directories(dir);
  writeGapObj((dir / "gap.obj").string());
  const std::string path = (dir / "gap.json").string();
  std::ofstream(path) << kGapLevel;
  Log log;
  nav::bake::Level level;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelFile(path, &level, &why)) << why;
  BakeRunner bake;
  ASSERT_TRUE(bake.setSource(path, log));
  NavState nav;
  AgentSet agents{nav, log};
  agents.open(bake.input(), level.agents, 0);
  ASSERT_TRUE(agents.finish());
  ASSERT_TRUE(agents.enabled());

  CrowdModel m;
  m.bind(&nav, &log);
  m.bindAgents(&agents);
  ASSERT_TRUE(m.ensure()) << m.message();
  ASSERT_EQ(m.timeline().agentTypeCount(), 4) << "default and the level's three types";
  EXPECT_GE(m.timeline().history().maxAgentRadius, 1.0f) << "room for the truck";
  m.addAgentAt(glm::vec3(5, 0, 10));  // a dog (the active agent)
  m.addAgentAt(glm::vec3(6, 0, 12));
  ASSERT_TRUE(agents.setActive(2, &why)) << why;
  m.addAgentAt(glm::vec3(35, 0, 10)); // a truck
  ASSERT_FALSE(m.isError()) << m.message();
  ASSERT_NE(m.timeline().agent(2), nullptr);
  const nav::crowd::CrowdAgent& dog = *m.timeline().agent(0);
  const nav::crowd::CrowdAgent& truck = *m.timeline().agent(2);
  EXPECT_EQ(dog.params.navType, 1);
  EXPECT_FLOAT_EQ(dog.params.radius, 0.3f);
  EXPECT_FLOAT_EQ(dog.params.height, 1.0f);
  EXPECT_EQ(truck.params.navType, 3);
  EXPECT_FLOAT_EQ(truck.params.radius, 1.0f);
  EXPECT_FLOAT_EQ(truck.params.height, 2.5f);
  uint32_t rgb = 0;
  ASSERT_TRUE(m.typeColor(3, &rgb));
  EXPECT_EQ(rgb, 0xe04020u);
  EXPECT_FALSE(m.typeColor(0, &rgb)) << "default has no agent colour";

  // Everyone through the gap: the dogs go, the truck cannot and stays on its side.
  m.select(-1);
  m.setTarget(glm::vec3(30, 0, 10));
  const int start = m.tick();
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(m.step());
  const auto at60 = positions(m, 3);
  EXPECT_GT(at60[0][0], 5.5f) << "the dog moved";
  m.goTo(start + 30);
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(m.step());
  EXPECT_EQ(positions(m, 3), at60) << "stepped back and forward again: the same state";

  // The saved text names the types and reads back with them.
  std::string text;
  ASSERT_TRUE(nav::crowd::writeScenario(m.timeline().compact(), &text, &why)) << why;
  for (const char* s : {"navmesh dog", "navmesh soldier", "navmesh truck", "type dog", "type truck"})
    EXPECT_NE(text.find(s), std::string::npos) << s << " in:\n" << text;
  nav::crowd::Scenario back;
  ASSERT_TRUE(nav::crowd::parseScenario(text, "saved", &back, &why)) << why;
  EXPECT_EQ(back.navTypes.size(), 3u);
  EXPECT_EQ(back.agentCount, 3);

  // Saved, it reruns from the CLI on the level's bake: OUT.<name>.bin per type, OUT.bin for `default`.
  m.path = (dir / "two.crowd.txt").string();
  m.saveFile();
  ASSERT_FALSE(m.isError()) << m.message();
  const std::string out = (dir / "out.bin").string();
  ASSERT_EQ(runCli("bake", {path, "-o", out}), 0);
  ASSERT_EQ(runCli("bake", {path, "--agent", "soldier", "-o", out}), 0);
  EXPECT_EQ(runCli("crowd", {out, m.path}), 0);
}

} // namespace
} // namespace navbench
