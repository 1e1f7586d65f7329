// AgentSet / AgentCompare (app/model/AgentSet.h): several agent types of one level, on a generated
// level where a 1.6 wu gap in a wall lets the small and medium agents through but not the large one.
#include "EditFixture.h"
#include "GapLevel.h"

#include "app/model/AgentSet.h"
#include "app/model/TestCaseRun.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace navbench {
namespace {

namespace fs = std::filesystem;
using nav::bake::AgentType;

/// The editing models as the Document wires them, with the level's agents baked.
struct AgentFixture {
  Log log;
  BakeRunner bake;
  NavState nav;
  History history;
  LevelEditor editor{bake, nav, log, history};
  AgentSet agents{nav, log};
  nav::bake::Level level;
  std::string path;

  ::testing::AssertionResult open(const std::string& tag, int active = 0) {
    const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / tag;
    fs::remove_all(dir);
    fs::create_directories(dir);
    writeGapObj((dir / "gap.obj").string());
    path = (dir / "gap.json").string();
    std::ofstream(path) << kGapLevel;
    std::string why;
    if (!nav::bake::loadLevelFile(path, &level, &why)) return ::testing::AssertionFailure() << why;
    if (!bake.setSource(path, log)) return ::testing::AssertionFailure() << "bake input";
    editor.bindAgents(&agents);
    agents.open(bake.input(), level.agents, active);
    if (!agents.finish()) return ::testing::AssertionFailure() << "the active agent's navmesh did not arrive";
    if (!editor.ready(&why)) return ::testing::AssertionFailure() << why;
    return ::testing::AssertionSuccess();
  }
  /// Agent i's navmesh as a whole bake of the level as it is now gives it.
  std::map<std::pair<int, int>, std::string> freshBake(int i) const {
    nav::bake::Baker b;
    std::string why;
    EXPECT_TRUE(b.setInput(nav::bake::inputForAgent(bake.input(), i), &why)) << why;
    nav::bake::BakeReport rep;
    EXPECT_TRUE(b.bake(level.agents[size_t(i)].settings, nav::bake::BakeOptions{}, &rep)) << rep.error;
    return test::meshBytes(*b.navMesh());
  }
  /// Tiles an edit inside [bmin, bmax] touches for agent i.
  int touched(int i, const float* bmin, const float* bmax) const {
    nav::bake::Baker b;
    std::string why;
    EXPECT_TRUE(b.setInput(nav::bake::inputForAgent(bake.input(), i), &why)) << why;
    std::vector<nav::bake::TileCoord> tiles;
    b.tilesTouching(level.agents[size_t(i)].settings, bmin, bmax, &tiles);
    return int(tiles.size());
  }
};

nav::bake::ConvexVolume waterBox(float x0, float z0, float x1, float z1, uint32_t agents) {
  nav::bake::ConvexVolume v;
  v.verts = {x0, 0, z0, x1, 0, z0, x1, 0, z1, x0, 0, z1};
  v.hmin = -1;
  v.hmax = 1;
  v.area = nav::AREA_WATER;
  v.agents = agents;
  return v;
}

TEST(AgentLevelFile, ReadsAgentsWithTheirOverridesAndWritesThemBack) {
  AgentFixture f;
  ASSERT_TRUE(f.open("agents_file"));
  ASSERT_EQ(f.level.agents.size(), 3u);
  EXPECT_EQ(nav::bake::agentCount(f.level), 3);
  EXPECT_EQ(nav::bake::findAgent(f.level, "truck"), 2);
  EXPECT_EQ(f.level.agents[2].color, 0xe04020u);
  EXPECT_FLOAT_EQ(f.level.agents[0].settings.agentRadius, 0.3f);
  EXPECT_FLOAT_EQ(f.level.agents[2].settings.agentHeight, 2.5f);
  EXPECT_FLOAT_EQ(f.level.agents[2].settings.cellSize, 0.2f); // the level's, not overridden
  const std::string copy = f.path + ".copy.json";
  std::string why;
  ASSERT_TRUE(nav::bake::saveLevelFile(copy, f.level, &why)) << why;
  nav::bake::Level again;
  ASSERT_TRUE(nav::bake::loadLevelFile(copy, &again, &why)) << why;
  ASSERT_EQ(again.agents.size(), 3u);
  EXPECT_EQ(nav::bake::settingsToJson(again.agents[1].settings), nav::bake::settingsToJson(f.level.agents[1].settings));
  EXPECT_EQ(again.agents[1].color, f.level.agents[1].color);

  std::ofstream(copy) << R"({"obj": "gap.obj", "agents": [{"name": "a"}, {"name": "a", "agentRadius": 2}]})";
  EXPECT_FALSE(nav::bake::loadLevelFile(copy, &again, &why));
  EXPECT_NE(why.find("agents[1] \"a\": duplicate name"), std::string::npos) << why;
  std::ofstream(copy) << R"({"obj": "gap.obj", "agents": [{"name": "a", "agentRadius": -1}]})";
  EXPECT_FALSE(nav::bake::loadLevelFile(copy, &again, &why));
  EXPECT_NE(why.find("agents[0]"), std::string::npos) << why;
}

TEST(AgentSet, BakesEveryAgentAsItsOwnBakeAndSwitchesTheActiveOne) {
  AgentFixture f;
  ASSERT_TRUE(f.open("agents_bake"));
  ASSERT_TRUE(f.agents.enabled());
  EXPECT_FALSE(f.agents.busy());
  for (int i = 0; i < 3; ++i) {
    ASSERT_NE(f.agents.nav(i), nullptr) << i;
    EXPECT_EQ(test::meshBytes(f.agents.nav(i)->mesh()), f.freshBake(i)) << f.agents.type(i).name;
  }
  EXPECT_EQ(f.agents.nav(0), &f.nav); // the active agent's navmesh is the document's
  EXPECT_NE(f.agents.nav(0)->polyCount(), f.agents.nav(2)->polyCount());
  const auto truck = test::meshBytes(f.agents.nav(2)->mesh());
  std::string why;
  ASSERT_TRUE(f.agents.setActive(2, &why)) << why;
  EXPECT_EQ(f.agents.active(), 2);
  EXPECT_EQ(test::meshBytes(f.nav.mesh()), truck);
  EXPECT_EQ(test::meshBytes(f.agents.nav(0)->mesh()), f.freshBake(0));
  EXPECT_FALSE(f.agents.setActive(3, &why));
  EXPECT_NE(why.find("no agent type 3"), std::string::npos) << why;
}

TEST(AgentSet, RebakeAllKeepsTheActiveAgentAndWhatIsShown) {
  AgentFixture f;
  ASSERT_TRUE(f.open("agents_rebake_all", 1));
  f.agents.setVisible(2, false);
  nav::NavMesh stale; // what a Build with the level's own settings leaves in the document
  f.nav.adopt(std::move(stale), "level bake");
  f.agents.rebakeAll(f.bake.input(), f.bake.settings);
  EXPECT_TRUE(f.agents.busy());
  EXPECT_TRUE(f.agents.finish());
  EXPECT_EQ(f.agents.active(), 1);
  EXPECT_FALSE(f.agents.visible(2));
  EXPECT_TRUE(f.agents.visible(0));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(test::meshBytes(f.agents.nav(i)->mesh()), f.freshBake(i)) << f.agents.type(i).name;
}

TEST(AgentSet, AnEditRebakesTheTouchedTilesOfTheAgentsItAppliesToOnly) {
  AgentFixture f;
  ASSERT_TRUE(f.open("agents_edit"));
  std::string why;
  // A pool for the soldier only (agent 1): the dog (active) and the truck keep their tiles.
  const nav::bake::ConvexVolume soldierPool = waterBox(4, 4, 8, 8, 1u << 1);
  const int rebakesBefore = f.editor.rebakes();
  ASSERT_TRUE(f.editor.addVolume(soldierPool, &why)) << why;
  f.editor.finish();
  float bmin[3], bmax[3];
  nav::bake::editBounds(soldierPool, bmin, bmax);
  EXPECT_EQ(f.editor.rebakes(), rebakesBefore); // no tile of the active agent
  EXPECT_EQ(f.agents.tilesRebaked(0), 0);
  EXPECT_EQ(f.agents.tilesRebaked(1), f.touched(1, bmin, bmax));
  EXPECT_GT(f.agents.tilesRebaked(1), 0);
  EXPECT_EQ(f.agents.tilesRebaked(2), 0);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(test::meshBytes(f.agents.nav(i)->mesh()), f.freshBake(i)) << f.agents.type(i).name;

  // A pool for everyone: each agent re-bakes what it touches with its own border.
  const nav::bake::ConvexVolume pool = waterBox(30, 12, 34, 16, nav::bake::kAllAgents);
  ASSERT_TRUE(f.editor.addVolume(pool, &why)) << why;
  f.editor.finish();
  nav::bake::editBounds(pool, bmin, bmax);
  EXPECT_EQ(int(f.editor.lastTiles().size()), f.touched(0, bmin, bmax));
  EXPECT_EQ(f.agents.lastTilesRebaked(1), f.touched(1, bmin, bmax));
  EXPECT_EQ(f.agents.lastTilesRebaked(2), f.touched(2, bmin, bmax));
  EXPECT_EQ(f.agents.tilesRebaked(2), f.touched(2, bmin, bmax));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(test::meshBytes(f.agents.nav(i)->mesh()), f.freshBake(i)) << f.agents.type(i).name;

  // Undo the soldier's pool: the soldier re-bakes, the others do not.
  const int truckBefore = f.agents.tilesRebaked(2);
  f.history.undo();
  f.history.undo();
  f.editor.finish();
  EXPECT_EQ(f.agents.tilesRebaked(2), truckBefore + f.touched(2, bmin, bmax)); // the shared pool's undo only
  for (int i = 0; i < 3; ++i) EXPECT_EQ(test::meshBytes(f.agents.nav(i)->mesh()), f.freshBake(i)) << f.agents.type(i).name;
}

TEST(AgentSet, ScenarioKeysComeBackAndBadOnesAreNamed) {
  AgentFixture f;
  ASSERT_TRUE(f.open("agents_scenario"));
  std::string why;
  ASSERT_TRUE(f.agents.setActive(1, &why)) << why;
  f.agents.compareOn = true;
  f.agents.reachTarget = 0;
  nlohmann::json saved;
  f.agents.saveScenario(saved);
  EXPECT_EQ(saved, nlohmann::json({{"active", "soldier"}, {"compare", true}, {"reach", false}, {"reachAgent", "dog"}}));

  // Reopened: the scenario's agent is active from the start, its toggles on.
  AgentFixture g;
  ASSERT_TRUE(g.agents.loadScenario(saved, &why)) << why;
  ASSERT_TRUE(g.open("agents_scenario2"));
  EXPECT_EQ(g.agents.active(), 1);
  EXPECT_TRUE(g.agents.compareOn);
  EXPECT_EQ(g.agents.reachAgent(), 0);
  // On an open level: applied once the bakes are done (poll), as a new navmesh.
  ASSERT_TRUE(g.agents.loadScenario({{"active", "truck"}}, &why)) << why;
  EXPECT_TRUE(g.agents.poll());
  EXPECT_EQ(g.agents.active(), 2);
  EXPECT_EQ(test::meshBytes(g.nav.mesh()), g.freshBake(2));

  // Bad shapes are refused with the key named; an unknown agent is a Log line, nothing changes.
  EXPECT_FALSE(g.agents.loadScenario({{"active", 3}}, &why));
  EXPECT_NE(why.find("agents.active"), std::string::npos) << why;
  EXPECT_FALSE(g.agents.loadScenario({{"actve", "dog"}}, &why));
  EXPECT_NE(why.find("actve"), std::string::npos) << why;
  ASSERT_TRUE(g.agents.loadScenario({{"active", "giant"}}, &why)) << why;
  EXPECT_FALSE(g.agents.poll());
  EXPECT_EQ(g.agents.active(), 2);
  EXPECT_NE(g.log.entries().back().text.find("no agent type 'giant'"), std::string::npos) << g.log.entries().back().text;
  // A level of one agent type: the set stays off and writes nothing.
  g.agents.open(g.bake.input(), {g.level.agents[0]}, 0);
  EXPECT_FALSE(g.agents.enabled());
  nlohmann::json none;
  g.agents.saveScenario(none);
  EXPECT_TRUE(none.is_null());
}

TEST(AgentCompare, AnswersEveryAgentAndNamesWhyTheTruckHasNoPath) {
  AgentFixture f;
  ASSERT_TRUE(f.open("agents_compare"));
  const float start[3] = {5, 0, 10}, end[3] = {35, 0, 10}, ext[3] = {2, 4, 2};
  f.agents.compare(start, end, f.nav.filter(), 2048, ext);
  ASSERT_EQ(f.agents.paths().size(), 3u);
  for (int i = 0; i < 2; ++i) {
    const AgentPath& p = f.agents.paths()[size_t(i)];
    EXPECT_EQ(p.status, AgentPathStatus::Complete) << f.agents.type(i).name << ": " << p.reason;
    EXPECT_TRUE(p.reason.empty());
    EXPECT_GT(p.length, 29.0f);
    EXPECT_LT(p.length, 32.0f);
  }
  const AgentPath& truck = f.agents.paths()[2];
  EXPECT_EQ(truck.status, AgentPathStatus::Partial);
  EXPECT_EQ(truck.reason, "the end is on another island");
  EXPECT_STREQ(agentPathStatusName(truck.status), "partial");
  ASSERT_GE(truck.straight.size(), 3u);
  EXPECT_LT(truck.straight[truck.straight.size() - 3], 19.5f); // it stops before the wall

  const float off[3] = {5, 0, 60};
  f.agents.compare(start, off, f.nav.filter(), 2048, ext);
  for (const AgentPath& p : f.agents.paths()) {
    EXPECT_EQ(p.status, AgentPathStatus::None);
    EXPECT_EQ(p.reason, "no navmesh within the extents of the end");
  }
  const float tiny = 5; // a budget too small for a 30 wu path
  f.agents.compare(start, end, f.nav.filter(), int(tiny), ext);
  EXPECT_EQ(f.agents.paths()[0].status, AgentPathStatus::Partial);
  EXPECT_EQ(f.agents.paths()[0].reason, "out of nodes (5)");
}

// Compare mode's paths are `navbench query`'s on each agent's tile set written to disk.
TEST(AgentCompare, PathsEqualNavbenchQueryOnEachAgentsTileSet) {
  AgentFixture f;
  ASSERT_TRUE(f.open("agents_cli"));
  const float ext[3] = {2, 4, 2};
  const float ends[][6] = {{5, 0, 10, 35, 0, 10}, {2, 0, 2, 38, 0, 18}, {10, 0, 18, 12, 0, 3}};
  for (const auto& se : ends) {
    TestCase c;
    std::copy(se, se + 3, c.s);
    std::copy(se + 3, se + 6, c.e);
    nav::QueryFilter filter; // the case's: default costs, its include / exclude flags
    filter.setIncludeFlags(c.inc);
    filter.setExcludeFlags(c.exc);
    f.agents.compare(c.s, c.e, filter, kTestCaseMaxNodes, ext);
    for (int i = 0; i < 3; ++i) {
      const std::string bin = f.path + "." + f.agents.type(i).name + ".bin";
      std::string why;
      ASSERT_FALSE(nav::statusFailed(nav::saveTileSetFile(f.agents.nav(i)->mesh(), bin, &why))) << why;
      nav::NavMesh loaded;
      ASSERT_FALSE(nav::statusFailed(nav::loadTileSetFile(bin, loaded, &why))) << why;
      nav::NavMeshQuery q;
      q.init(&loaded, kTestCaseMaxNodes);
      TestCaseRunner runner;
      TestCaseResult r;
      runner.run(q, nullptr, c, r, nullptr);
      const AgentPath& p = f.agents.paths()[size_t(i)];
      EXPECT_EQ(p.startRef, r.startRef);
      EXPECT_EQ(p.endRef, r.endRef);
      EXPECT_EQ(p.polys, r.polys) << f.agents.type(i).name;
      EXPECT_EQ(p.straight, r.straight) << f.agents.type(i).name;
      EXPECT_EQ(p.pathStatus, r.pathStatus);
      EXPECT_FLOAT_EQ(p.length, r.straightLength());
      EXPECT_EQ(std::string(agentPathStatusName(p.status)) == "complete", r.found());
    }
  }
}

TEST(AgentReach, PaintsWhereTheTruckCannotFollowTheDog) {
  AgentFixture f;
  ASSERT_TRUE(f.open("agents_reach"));
  const float start[3] = {5, 0, 10}, ext[3] = {2, 4, 2};
  f.agents.reach(2, start, f.nav.filter(), ext);
  const nav::NavMesh& dog = f.nav.mesh();
  ASSERT_GT(f.agents.reachedByActive(), 0);
  ASSERT_FALSE(f.agents.reachOnly().empty());
  // Every dog poly beyond the wall is one the truck cannot follow to; no dog poly on the start
  // side away from the gap is.
  int beyond = 0, onlyBeyond = 0, onlyFarSide = 0;
  for (const nav::PolyRef ref : floodPolys(dog, f.nav.filter(), f.nav.nearestPoly(glm::vec3(5, 0, 10)))) {
    float c[3];
    ASSERT_TRUE(polyCentre(dog, ref, c));
    if (c[0] > 20.5f) ++beyond;
  }
  for (const nav::PolyRef ref : f.agents.reachOnly()) {
    float c[3];
    ASSERT_TRUE(polyCentre(dog, ref, c));
    if (c[0] > 20.5f) ++onlyBeyond;
    // On the start side only strips along the floor's edges, where the truck's centre never comes
    // (1 wu from the edge), are the dog's alone.
    const bool nearEdge = c[0] < 1.0f || c[2] < 1.0f || c[2] > 19.0f;
    if (c[0] < 15.0f && !nearEdge) ++onlyFarSide;
  }
  EXPECT_GT(beyond, 0);
  EXPECT_EQ(onlyBeyond, beyond);
  EXPECT_EQ(onlyFarSide, 0);
  // Where the truck goes, the dog follows.
  std::string why;
  ASSERT_TRUE(f.agents.setActive(2, &why)) << why;
  f.agents.reach(0, start, f.nav.filter(), ext);
  EXPECT_GT(f.agents.reachedByActive(), 0);
  EXPECT_TRUE(f.agents.reachOnly().empty());
}

} // namespace
} // namespace navbench
