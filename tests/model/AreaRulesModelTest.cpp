// The level editor's area rules (app/model/LevelEditor.h, "area rules") without the Bake panel:
// triangles counted per rule, edits as undoable steps of the one history, refused edits, the rules
// saved into the level file and read back, and a Build baking with the edited rules.
#include "app/Log.h"
#include "app/NavState.h"
#include "app/model/BakeRunner.h"
#include "app/model/History.h"
#include "app/model/LevelEditor.h"
#include "nav/NavAreas.h"
#include "nav/bake/LevelFile.h"
#include "tests/model/EditFixture.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace {

using nav::bake::AreaRule;
namespace fs = std::filesystem;

/// A 20 x 10 floor at y = 0: `o ground` (2 triangles), `o water` (2), and `o crate` with
/// `g prop_crate` and `usemtl wood` (a 1 x 1 x 1 box, 10 triangles, no bottom). (Without its own
/// `o`, the crate would belong to object "water": `g` names a mesh within the current object.)
const char* kObj = R"(o ground
v 0 0 0
v 0 0 10
v 10 0 10
v 10 0 0
f 1 2 3
f 1 3 4
o water
v 10 0 0
v 20 0 0
v 20 0 10
v 10 0 10
f 5 7 6
f 5 8 7
o crate
g prop_crate
usemtl wood
v 2 0 2
v 3 0 2
v 3 0 3
v 2 0 3
v 2 1 2
v 3 1 2
v 3 1 3
v 2 1 3
f 13 15 14
f 13 16 15
f 9 10 14 13
f 10 11 15 14
f 11 12 16 15
f 12 9 13 16
)";

struct RulesFixture {
  navbench::Log log;
  navbench::BakeRunner bake;
  navbench::NavState nav;
  navbench::History history;
  navbench::LevelEditor editor{bake, nav, log, history};
  std::string level;

  /// Writes the OBJ and its level file (rules: JSON text) under NAVBENCH_MODEL_TEST_TMP/tag and opens it.
  bool open(const std::string& tag, const std::string& rules) {
    const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / tag;
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "named.obj") << kObj;
    level = (dir / "named.json").string();
    std::ofstream(level) << "{\"obj\": \"named.obj\", \"settings\": {\"tiled\": false, \"cellSize\": 0.25}, \"areaRules\": "
                         << rules << "}";
    editor.reset();
    return bake.setSource(level, log);
  }
};

AreaRule rule(const char* match, uint8_t area, bool exclude = false) {
  AreaRule r;
  r.match = match;
  r.area = area;
  r.exclude = exclude;
  return r;
}

TEST(AreaRulesModel, CountsTrianglesPerRuleFirstMatchWins) {
  RulesFixture f;
  ASSERT_TRUE(f.open("rules_counts", R"([{"match": "water", "area": "water"}, {"match": "wood", "exclude": true}])"));
  EXPECT_TRUE(f.editor.levelHasNames());
  ASSERT_EQ(f.editor.areaRules().size(), 2u);
  EXPECT_EQ(f.editor.ruleTriangleCounts(), (std::vector<long long>{2, 10, 2}));
  // A broader rule first takes the crate (its mesh name) before the material rule sees it, and
  // the ground stays unmatched.
  std::string why;
  ASSERT_TRUE(f.editor.addRule(rule("*", nav::AREA_GRASS), &why)) << why;
  EXPECT_EQ(f.editor.ruleTriangleCounts(), (std::vector<long long>{2, 10, 2, 0}));
  ASSERT_TRUE(f.editor.moveRule(2, 0, &why)) << why;
  EXPECT_EQ(f.editor.ruleTriangleCounts(), (std::vector<long long>{14, 0, 0, 0}));
  ASSERT_TRUE(f.editor.setRule(0, rule("prop_*", nav::AREA_ROAD), &why)) << why;
  EXPECT_EQ(f.editor.ruleTriangleCounts(), (std::vector<long long>{10, 2, 0, 2}));
}

TEST(AreaRulesModel, EditsUndoRedoAndRefusals) {
  RulesFixture f;
  ASSERT_TRUE(f.open("rules_undo", "[]"));
  const std::vector<AreaRule> none;
  std::string why;
  ASSERT_TRUE(f.editor.addRule(rule("water", nav::AREA_WATER), &why)) << why;
  ASSERT_TRUE(f.editor.addRule(rule("prop_*", 0, true), &why)) << why;
  ASSERT_TRUE(f.editor.moveRule(1, 0, &why)) << why;
  ASSERT_TRUE(f.editor.setRule(1, rule("wat*", nav::AREA_DOOR), &why)) << why;
  ASSERT_TRUE(f.editor.removeRule(0, &why)) << why;
  const std::vector<AreaRule> last = {rule("wat*", nav::AREA_DOOR)};
  EXPECT_EQ(f.editor.areaRules(), last);
  EXPECT_EQ(f.bake.input().areaRules, last); // what Build bakes
  EXPECT_TRUE(f.editor.rulesChangedSinceBake());
  EXPECT_TRUE(f.bake.unsaved());
  EXPECT_EQ(f.history.undoName(), "removed area rule 0 (prop_* -> exclude)");

  // Back step by step to no rules, then forward again to the same list.
  const std::vector<std::vector<AreaRule>> states = {
      {},
      {rule("water", nav::AREA_WATER)},
      {rule("water", nav::AREA_WATER), rule("prop_*", 0, true)},
      {rule("prop_*", 0, true), rule("water", nav::AREA_WATER)},
      {rule("prop_*", 0, true), rule("wat*", nav::AREA_DOOR)},
      last};
  for (int i = int(states.size()) - 2; i >= 0; --i) {
    ASSERT_TRUE(f.history.undo());
    EXPECT_EQ(f.editor.areaRules(), states[size_t(i)]) << i;
  }
  EXPECT_FALSE(f.history.canUndo());
  EXPECT_FALSE(f.editor.rulesChangedSinceBake());
  EXPECT_FALSE(f.bake.unsaved());
  for (size_t i = 1; i < states.size(); ++i) {
    ASSERT_TRUE(f.history.redo());
    EXPECT_EQ(f.editor.areaRules(), states[i]) << i;
  }

  // Refused: nothing changes and no step is pushed.
  const size_t steps = f.history.undoCount();
  EXPECT_FALSE(f.editor.addRule(rule("x[", nav::AREA_WATER), &why));
  EXPECT_NE(why.find("unclosed"), std::string::npos) << why;
  EXPECT_FALSE(f.editor.addRule(rule("x", 70), &why));
  EXPECT_NE(why.find("area 70"), std::string::npos) << why;
  EXPECT_FALSE(f.editor.setRule(5, rule("x", 1), &why));
  EXPECT_FALSE(f.editor.removeRule(-1, &why));
  EXPECT_FALSE(f.editor.moveRule(0, 3, &why));
  EXPECT_EQ(f.editor.areaRules(), last);
  EXPECT_EQ(f.history.undoCount(), steps);
  navbench::BakeRunner closed;
  navbench::NavState nav;
  navbench::History h;
  navbench::LevelEditor noLevel(closed, nav, f.log, h);
  EXPECT_FALSE(noLevel.addRule(rule("x", 1), &why));
  EXPECT_NE(why.find("no level open"), std::string::npos) << why;
}

TEST(AreaRulesModel, SavedRulesReloadAndBuildBakesWithThem) {
  RulesFixture f;
  ASSERT_TRUE(f.open("rules_save", "[]"));
  std::string why;
  ASSERT_TRUE(f.editor.addRule(rule("Water", nav::AREA_WATER), &why)) << why;
  ASSERT_TRUE(f.editor.addRule(rule("wood", 0, true), &why)) << why;
  ASSERT_TRUE(f.bake.saveSettings(f.log));
  EXPECT_FALSE(f.bake.unsaved());
  nav::bake::Level saved;
  ASSERT_TRUE(nav::bake::loadLevelFile(f.level, &saved, &why)) << why;
  EXPECT_EQ(saved.areaRules, f.editor.areaRules());
  // A fresh runner opening the saved file has the same rules and counts.
  RulesFixture g;
  g.level = f.level;
  ASSERT_TRUE(g.bake.setSource(f.level, g.log));
  EXPECT_EQ(g.editor.areaRules(), f.editor.areaRules());
  EXPECT_EQ(g.editor.ruleTriangleCounts(), (std::vector<long long>{2, 10, 2}));

  // Build bakes the edited rules: the water half of the floor comes out as water polys.
  ASSERT_TRUE(g.bake.build(g.log));
  for (int i = 0; i < 6000 && !g.bake.poll(g.nav, g.log); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(g.nav.loaded()) << "no navmesh within 30 s";
  int water = 0, ground = 0;
  const nav::NavMesh& mesh = g.nav.mesh();
  for (int t = 0; t < mesh.getMaxTiles(); ++t) {
    const nav::MeshTile* tile = mesh.getTile(t);
    if (!tile->header) continue;
    for (int i = 0; i < tile->header->polyCount; ++i) {
      float cx = 0;
      const nav::Poly& p = tile->polys[i];
      for (int v = 0; v < p.vertCount; ++v) cx += tile->verts[p.verts[v] * 3] / float(p.vertCount);
      if (p.getArea() == nav::AREA_WATER) {
        ++water;
        EXPECT_GT(cx, 10.0f);
      } else {
        ++ground;
        EXPECT_LT(cx, 10.0f);
      }
    }
  }
  EXPECT_GT(water, 0);
  EXPECT_GT(ground, 0);

  // Rules edited and not saved travel in the scenario (and the recovery journal) and come back.
  ASSERT_TRUE(g.editor.setRule(1, rule("wood", nav::AREA_GRASS), &why)) << why;
  ASSERT_TRUE(g.editor.hasEdits());
  nlohmann::json edits;
  g.editor.saveScenario(edits);
  RulesFixture h;
  ASSERT_TRUE(h.bake.setSource(f.level, h.log));
  ASSERT_TRUE(h.bake.build(h.log));
  for (int i = 0; i < 6000 && !h.bake.poll(h.nav, h.log); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(h.nav.loaded());
  h.editor.reset();
  ASSERT_TRUE(h.editor.loadScenario(edits, &why)) << why;
  EXPECT_EQ(h.editor.areaRules(), g.editor.areaRules());
  EXPECT_TRUE(h.history.canUndo());
  edits["areaRules"][0]["area"] = "lava";
  EXPECT_FALSE(h.editor.loadScenario(edits, &why));
  EXPECT_NE(why.find("edits.areaRules[0].area: unknown area 'lava'"), std::string::npos) << why;
}

// Rules edited but not built yet: a volume edit's tiles are re-baked with the rules the open
// navmesh was baked with, so they match its other tiles (the next Build applies the new rules).
TEST(AreaRulesModel, TileRebakesKeepTheRulesTheNavmeshWasBakedWith) {
  navbench::test::EditFixture f;
  ASSERT_TRUE(f.open("rules_tiles"));
  f.editor.reset(); // not prepared yet: the first edit below is the rules'
  std::string why;
  ASSERT_TRUE(f.editor.addRule(rule("*", 0, true), &why)) << why; // would leave no floor at all
  float c[3];
  ASSERT_TRUE(f.polyCentre(0, 0, 0, c) || f.polyCentre(1, 1, 0, c));
  nav::bake::ConvexVolume v;
  v.verts = {c[0] - 1, c[1], c[2] - 1, c[0] + 1, c[1], c[2] - 1, c[0] + 1, c[1], c[2] + 1, c[0] - 1, c[1], c[2] + 1};
  v.hmin = c[1] - 1;
  v.hmax = c[1] + 2;
  v.area = nav::AREA_GRASS;
  ASSERT_TRUE(f.editor.addVolume(v, &why)) << why;
  f.editor.finish();
  ASSERT_EQ(f.editor.rebakes(), 1);
  int grass = 0;
  for (const nav::bake::TileCoord& t : f.editor.lastTiles()) {
    const nav::MeshTile* tile = f.nav.mesh().getTileAt(t.x, t.y, 0);
    ASSERT_TRUE(tile && tile->header) << "tile " << t.x << ", " << t.y << " came back empty";
    for (int i = 0; i < tile->header->polyCount; ++i) grass += tile->polys[i].getArea() == nav::AREA_GRASS;
  }
  EXPECT_GT(grass, 0);
  EXPECT_TRUE(f.editor.rulesChangedSinceBake());
}

} // namespace
