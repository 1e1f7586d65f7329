// The document's edits on a level with several agent types (app/Document.h, LevelEditor bound to
// AgentSet), without a window: a tile removed and a poly disabled on one agent's navmesh keep their
// undo and redo after another agent became active, survive the other agents' rebakes, and come
// back from a scenario on the agent they were made on.
#include "DocumentTestHost.h"
#include "EditFixture.h"
#include "GapLevel.h"

#include "app/Scenario.h"
#include "nav/NavAreas.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace navbench {
namespace {

namespace fs = std::filesystem;
using TileBytes = std::map<std::pair<int, int>, std::string>;

struct AgentDoc {
  Log log;
  DocumentTestHost host;
  Document doc{log, host};
  AgentDoc() {
    doc.initTools([]() {
      std::vector<std::unique_ptr<Tool>> tools;
      tools.push_back(std::make_unique<IdleTool>());
      return tools;
    });
  }

  /// Waits for every bake (the agents', the editor's, a scenario's after-bake edits).
  ::testing::AssertionResult settle() {
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
      doc.pollBake();
      if (!doc.bake.running() && !doc.agents.busy() && !doc.editor.busy()) break;
      if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(60)) return ::testing::AssertionFailure() << "bakes did not end";
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    doc.pollBake(); // (the after-bake step runs once nothing bakes)
    doc.editor.finish();
    return ::testing::AssertionSuccess();
  }
  /// Agent i's navmesh as a whole bake of the level as it is now gives it.
  TileBytes fresh(int i) const {
    nav::bake::Baker b;
    std::string why;
    EXPECT_TRUE(b.setInput(nav::bake::inputForAgent(doc.bake.input(), i), &why)) << why;
    nav::bake::BakeReport rep;
    EXPECT_TRUE(b.bake(doc.agents.type(i).settings, nav::bake::BakeOptions{}, &rep)) << rep.error;
    return test::meshBytes(*b.navMesh());
  }
  TileBytes mesh(int i) { return test::meshBytes(doc.agents.nav(i)->mesh()); }
  /// The flags of agent i's poly under p (disabled ones included).
  uint16_t flagsAt(int i, const float* p) {
    NavState& n = *doc.agents.nav(i);
    nav::QueryFilter any;
    any.setIncludeFlags(0xffff);
    any.setExcludeFlags(0);
    const float ext[3] = {0.5f, 2.0f, 0.5f};
    nav::PolyRef ref = 0;
    float nearest[3];
    n.query().findNearestPoly(p, ext, &any, &ref, nearest);
    uint16_t flags = 0;
    EXPECT_TRUE(nav::statusSucceeded(n.mesh().getPolyFlags(ref, &flags))) << "no poly under the point";
    return flags;
  }
};

std::string gapLevel(const std::string& tag) {
  const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / tag;
  fs::remove_all(dir);
  fs::create_directories(dir);
  writeGapObj((dir / "gap.obj").string());
  std::ofstream(dir / "gap.json") << kGapLevel;
  return dir.string();
}

TileBytes without(TileBytes t, std::pair<int, int> tile) {
  t.erase(tile);
  return t;
}

TEST(DocumentAgents, TileAndPruneStepsKeepTheirAgentAcrossASwitch) {
  const std::string dir = gapLevel("doc_agents_steps");
  AgentDoc d;
  ASSERT_TRUE(d.doc.openAny(dir + "/gap.json"));
  ASSERT_TRUE(d.settle());
  ASSERT_TRUE(d.doc.agents.enabled());
  ASSERT_EQ(d.doc.agents.active(), 0); // the dog
  std::string why;
  ASSERT_TRUE(d.doc.editor.ready(&why)) << why;
  const TileBytes dog = d.fresh(0), soldier = d.fresh(1);

  // On the dog's navmesh: a tile removed at (30, 14), a poly disabled at (10, 5).
  const float tileAt[3] = {30, 0, 14}, polyAt[3] = {10, 0, 5};
  nav::bake::TileCoord t;
  ASSERT_TRUE(d.doc.editor.tileAt(tileAt, &t));
  const std::pair<int, int> key{t.x, t.y};
  ASSERT_TRUE(dog.count(key));
  ASSERT_TRUE(d.doc.editor.removeTiles({t}, &why)) << why;
  const nav::PolyRef poly = d.doc.nav.nearestPoly(glm::vec3(polyAt[0], polyAt[1], polyAt[2]));
  ASSERT_NE(poly, 0u);
  ASSERT_TRUE(d.doc.editor.setDisabled({poly}, true, &why)) << why;
  nav::bake::TileCoord pt;
  ASSERT_TRUE(d.doc.editor.tileAt(polyAt, &pt));
  const std::pair<int, int> polyKey{pt.x, pt.y};
  ASSERT_NE(polyKey, key);
  EXPECT_FALSE(d.mesh(0).count(key));
  EXPECT_TRUE(d.flagsAt(0, polyAt) & nav::FLAG_DISABLED);

  // The soldier becomes active: the history stays.
  ASSERT_TRUE(d.doc.setActiveAgent(1));
  EXPECT_EQ(d.doc.history.undoCount(), 2);
  EXPECT_EQ(d.mesh(1), soldier);

  // A pool for every agent over the dog's removed tile: the soldier's tiles re-bake (the editor's
  // own rebake), the dog's too, but its removed tile stays removed and its poly disabled.
  nav::bake::ConvexVolume pool;
  pool.verts = {29, 0, 13, 31, 0, 13, 31, 0, 15, 29, 0, 15};
  pool.hmin = -1;
  pool.hmax = 1;
  pool.area = nav::AREA_WATER;
  ASSERT_TRUE(d.doc.editor.addVolume(pool, &why)) << why;
  ASSERT_TRUE(d.settle());
  EXPECT_GT(d.doc.agents.lastTilesRebaked(0), 0);
  EXPECT_EQ(d.mesh(1), d.fresh(1));
  EXPECT_FALSE(d.mesh(0).count(key)) << "a rebake brought the dog's removed tile back";
  EXPECT_TRUE(d.flagsAt(0, polyAt) & nav::FLAG_DISABLED) << "a rebake enabled the dog's disabled poly";
  // Every other tile of the dog is what a whole bake with the pool gives (the prune's tile aside).
  TileBytes dogPooled = without(without(d.fresh(0), key), polyKey), dogNow = without(d.mesh(0), polyKey);
  EXPECT_EQ(dogNow, dogPooled);
  EXPECT_NE(d.fresh(0), dog);

  // Undo all three with the soldier active: the dog's navmesh is its whole bake again.
  ASSERT_TRUE(d.doc.history.undo());
  ASSERT_TRUE(d.doc.history.undo());
  ASSERT_TRUE(d.doc.history.undo());
  ASSERT_TRUE(d.settle());
  EXPECT_EQ(d.mesh(0), dog);
  EXPECT_EQ(d.mesh(1), soldier);
  EXPECT_EQ(d.doc.agents.active(), 1);

  // Redo the removal and the prune: on the dog's navmesh again, not the soldier's.
  ASSERT_TRUE(d.doc.history.redo());
  ASSERT_TRUE(d.doc.history.redo());
  ASSERT_TRUE(d.settle());
  EXPECT_EQ(without(d.mesh(0), polyKey), without(without(dog, key), polyKey));
  EXPECT_FALSE(d.mesh(0).count(key));
  EXPECT_TRUE(d.flagsAt(0, polyAt) & nav::FLAG_DISABLED);
  EXPECT_EQ(d.mesh(1), soldier);

  // The scenario names the agent of each; reopened, they land on the dog while the soldier is active.
  const Scenario s = d.doc.currentScenario(dir);
  ASSERT_TRUE(s.edits.is_object());
  EXPECT_EQ(s.edits["removedTiles"], nlohmann::json::array({nlohmann::json::array({t.x, t.y, "dog"})}));
  ASSERT_EQ(s.edits["disabledPolys"].size(), 1u);
  EXPECT_EQ(s.edits["disabledPolys"][0]["agent"], "dog");
  AgentDoc e;
  ASSERT_TRUE(e.doc.applyScenario(s, dir, "agents_edits.json")) << (e.log.entries().empty() ? "" : e.log.entries().back().text);
  ASSERT_TRUE(e.settle());
  EXPECT_EQ(e.doc.agents.active(), 1);
  EXPECT_FALSE(e.mesh(0).count(key));
  EXPECT_TRUE(e.flagsAt(0, polyAt) & nav::FLAG_DISABLED);
  EXPECT_EQ(e.mesh(1), soldier);
  EXPECT_EQ(toJson(e.doc.currentScenario(dir)), toJson(s));
  EXPECT_EQ(e.doc.history.undoCount(), 2);

  // An agent the level does not have: refused, named, nothing changed.
  const std::string before = toJson(e.doc.currentScenario(dir));
  EXPECT_FALSE(e.doc.editor.loadScenario({{"removedTiles", {{1, 1, "giant"}}}}, &why));
  EXPECT_NE(why.find("edits.removedTiles[0][2]"), std::string::npos) << why;
  EXPECT_NE(why.find("no agent type 'giant'"), std::string::npos) << why;
  EXPECT_FALSE(e.doc.editor.loadScenario({{"disabledPolys", {{{"pos", {10, 0, 5}}, {"agent", "cat"}}}}}, &why));
  EXPECT_NE(why.find("edits.disabledPolys[0].agent"), std::string::npos) << why;
  EXPECT_EQ(toJson(e.doc.currentScenario(dir)), before);
}

} // namespace
} // namespace navbench
