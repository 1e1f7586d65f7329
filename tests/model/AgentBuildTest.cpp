// A Build on a level with agent types (Document + BakeRunner + AgentSet): the Bake panel's settings
// are every type's base, each type baked with its overrides over them (no bake of the base alone);
// a type the new base makes invalid keeps its navmesh and settings and is named in the Log.
#include "EditFixture.h"
#include "GapLevel.h"

#include "app/Document.h"
#include "nav/bake/Agents.h"
#include "nav/bake/LevelFile.h"
#include "tests/model/DocumentTestHost.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace navbench {
namespace {

namespace fs = std::filesystem;

/// The gap level with the truck overriding agentMaxClimb too.
std::string climbLevel() {
  std::string text = kGapLevel;
  const std::string truck = R"("agentRadius": 1.0, "agentHeight": 2.5 })";
  text.replace(text.find(truck), truck.size(), R"("agentRadius": 1.0, "agentHeight": 2.5, "agentMaxClimb": 0.4 })");
  return text;
}

/// A document on the level, its agents baked.
struct AgentDoc {
  Log log;
  DocumentTestHost host;
  Document doc{log, host};
  nav::bake::Level level;
  std::string path;

  ::testing::AssertionResult open(const std::string& tag) {
    const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / tag;
    fs::remove_all(dir);
    fs::create_directories(dir);
    writeGapObj((dir / "gap.obj").string());
    path = (dir / "gap.json").string();
    std::ofstream(path) << climbLevel();
    std::string why;
    if (!nav::bake::loadLevelFile(path, &level, &why)) return ::testing::AssertionFailure() << why;
    doc.initTools([]() { return std::vector<std::unique_ptr<Tool>>(); });
    if (!doc.openAny(path) || !doc.agents.enabled()) return ::testing::AssertionFailure() << "no agent types";
    settle();
    if (!doc.nav.loaded()) return ::testing::AssertionFailure() << "no navmesh";
    return ::testing::AssertionSuccess();
  }
  /// Waits for the agents' bakes and lets the document take them.
  void settle() {
    doc.agents.finish();
    doc.pollBake();
  }
  /// What a whole bake of agent i's input with `settings` gives.
  std::map<std::pair<int, int>, std::string> freshBake(int i, const nav::bake::BakeSettings& settings) const {
    nav::bake::Baker b;
    std::string why;
    EXPECT_TRUE(b.setInput(nav::bake::inputForAgent(doc.bake.input(), i), &why)) << why;
    nav::bake::BakeReport rep;
    EXPECT_TRUE(b.bake(settings, nav::bake::BakeOptions{}, &rep)) << rep.error;
    return test::meshBytes(*b.navMesh());
  }
  std::map<std::pair<int, int>, std::string> meshOf(int i) const {
    EXPECT_NE(doc.agents.nav(i), nullptr) << i;
    return doc.agents.nav(i) ? test::meshBytes(doc.agents.nav(i)->mesh()) : std::map<std::pair<int, int>, std::string>();
  }
  bool logged(const std::string& text) const {
    for (const auto& e : log.entries())
      if (e.text.find(text) != std::string::npos) return true;
    return false;
  }
};

std::string json(const nav::bake::BakeSettings& s) { return nav::bake::settingsToJson(s); }

TEST(AgentBuild, TheBakePanelsSettingsReachEveryTypeAtBuild) {
  AgentDoc d;
  ASSERT_TRUE(d.open("agent_build_settings"));
  const auto dogBefore = d.meshOf(0);
  d.doc.bake.settings.cellSize = 0.25f;
  d.doc.bake.settings.agentMaxClimb = 0.5f;
  ASSERT_TRUE(d.doc.bake.buildByUser(d.log));
  EXPECT_FALSE(d.doc.bake.running()) << "no bake of the level's settings alone";
  EXPECT_TRUE(d.doc.agents.busy());
  EXPECT_TRUE(d.doc.bake.agentBakesRunning());
  d.settle();
  EXPECT_FALSE(d.doc.bake.agentBakesRunning());
  for (int i = 0; i < 3; ++i) {
    nav::bake::BakeSettings want;
    std::string why;
    ASSERT_TRUE(nav::bake::applyAgentOverrides(d.doc.bake.settings, d.level.agents[size_t(i)], &want, &why)) << why;
    EXPECT_EQ(json(d.doc.agents.type(i).settings), json(want)) << d.doc.agents.type(i).name;
    EXPECT_EQ(d.meshOf(i), d.freshBake(i, want)) << d.doc.agents.type(i).name;
    EXPECT_FLOAT_EQ(d.doc.agents.type(i).settings.cellSize, 0.25f);
  }
  EXPECT_NE(d.meshOf(0), dogBefore) << "the new cellSize made another navmesh";
  EXPECT_FLOAT_EQ(d.doc.agents.type(0).settings.agentMaxClimb, 0.5f);
  EXPECT_FLOAT_EQ(d.doc.agents.type(2).settings.agentMaxClimb, 0.4f) << "the truck's own value";
  EXPECT_FLOAT_EQ(d.doc.agents.type(2).settings.agentRadius, 1.0f);
  // The level editor re-bakes the active agent's tiles with the new settings.
  nav::bake::BakeSettings active;
  d.doc.agents.forActive(nullptr, nullptr, &active);
  EXPECT_EQ(json(active), json(d.doc.agents.type(0).settings));
  // A Build is the user's work once it arrived; its log names each type.
  EXPECT_TRUE(d.doc.bake.unsavedBake());
  ASSERT_EQ(d.doc.bake.report().size(), 3u);
  EXPECT_EQ(d.doc.bake.report()[2].rfind("agent truck: baked: ", 0), 0u) << d.doc.bake.report()[2];

  // Save settings writes the base; the agents and their overrides are as they were.
  ASSERT_TRUE(d.doc.bake.saveSettings(d.log));
  nav::bake::Level saved;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelFile(d.path, &saved, &why)) << why;
  EXPECT_EQ(json(saved.settings), json(d.doc.bake.settings));
  ASSERT_EQ(saved.agents.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(saved.agents[i].name, d.level.agents[i].name);
    EXPECT_EQ(saved.agents[i].overrides, d.level.agents[i].overrides);
    EXPECT_EQ(json(saved.agents[i].settings), json(d.doc.agents.type(int(i)).settings)) << saved.agents[i].name;
  }
}

TEST(AgentBuild, ATypeTheNewBaseMakesInvalidKeepsItsNavmeshAndTheOthersBake) {
  AgentDoc d;
  ASSERT_TRUE(d.open("agent_build_invalid"));
  for (int active : {0, 1}) { // the dog active (its navmesh is the document's), then another one
    SCOPED_TRACE(active);
    ASSERT_TRUE(d.doc.setActiveAgent(active));
    const auto dogBefore = d.meshOf(0);
    const std::string dogSettings = json(d.doc.agents.type(0).settings);
    d.doc.bake.settings.cellHeight = 0.5f; // the dog's 1.0 height is under 3 cells now
    d.doc.bake.settings.cellSize = active ? 0.3f : 0.25f;
    ASSERT_TRUE(d.doc.bake.buildByUser(d.log));
    d.settle();
    EXPECT_TRUE(d.logged("agent \"dog\": agentHeight = 1 is less than 3 cells")) << d.log.entries().back().text;
    EXPECT_EQ(d.meshOf(0), dogBefore);
    EXPECT_EQ(json(d.doc.agents.type(0).settings), dogSettings);
    EXPECT_EQ(d.doc.agents.bakeState(0).rfind("not re-baked: ", 0), 0u) << d.doc.agents.bakeState(0);
    for (int i = 1; i < 3; ++i) {
      nav::bake::BakeSettings want;
      std::string why;
      ASSERT_TRUE(nav::bake::applyAgentOverrides(d.doc.bake.settings, d.level.agents[size_t(i)], &want, &why)) << why;
      EXPECT_EQ(json(d.doc.agents.type(i).settings), json(want));
      EXPECT_EQ(d.meshOf(i), d.freshBake(i, want)) << d.doc.agents.type(i).name;
    }
  }
}

TEST(AgentBuild, ThePanelsLinesNameTheOverriddenKeysAndTheActiveValues) {
  AgentDoc d;
  ASSERT_TRUE(d.open("agent_build_lines"));
  EXPECT_EQ(d.doc.agents.overrideSummary(), "agentHeight, agentRadius (dog, soldier, truck); agentMaxClimb (truck)");
  EXPECT_EQ(d.doc.agents.overrideValues("agentRadius"), "dog 0.3 (active), soldier 0.6, truck 1.0");
  EXPECT_EQ(d.doc.agents.overrideValues("agentMaxClimb"), "truck 0.4");
  EXPECT_EQ(d.doc.agents.overrideValues("cellSize"), "");
  EXPECT_EQ(d.doc.agents.activeOverrides(), "agentHeight 1.0, agentRadius 0.3");
  ASSERT_TRUE(d.doc.setActiveAgent(2));
  EXPECT_EQ(d.doc.agents.activeOverrides(), "agentHeight 2.5, agentMaxClimb 0.4, agentRadius 1.0");
  d.doc.agents.clear();
  EXPECT_EQ(d.doc.agents.overrideSummary(), "");
}

} // namespace
} // namespace navbench
