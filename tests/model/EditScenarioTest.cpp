// The level editor's scenario part (what a bug report and the recovery journal carry): saved,
// loaded into a fresh editor on the same level, it gives the same edits, the same tiles and the
// same JSON; a bad value is refused with its JSON path and changes nothing.
#include "tests/model/EditFixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace {

using navbench::test::EditFixture;
using navbench::test::meshBytes;
using nlohmann::json;

/// A small triangular volume round the centre of a poly of tile (1, 1) (or (0, 0)).
bool volumeNearAPoly(EditFixture& f, nav::bake::ConvexVolume* v) {
  float c[3];
  if (!f.polyCentre(1, 1, 0, c) && !f.polyCentre(0, 0, 0, c)) return false;
  v->verts = {c[0] - 1.5f, c[1], c[2] - 1, c[0] + 1, c[1], c[2] - 1, c[0], c[1], c[2] + 1.25f};
  v->hmin = c[1] - 1;
  v->hmax = c[1] + 2;
  return true;
}

TEST(EditScenario, SavedEditsLoadIntoAFreshEditorAsTheyWere) {
  EditFixture a;
  ASSERT_TRUE(a.open("scenario_a"));
  nav::bake::ConvexVolume v;
  ASSERT_TRUE(volumeNearAPoly(a, &v));
  v.area = nav::AREA_ROAD;
  std::string why;
  ASSERT_TRUE(a.editor.addVolume(v, &why)) << why;
  ASSERT_TRUE(a.editor.removeVolume(0, &why)) << why;
  a.editor.finish();
  const nav::MeshTile* t = a.nav.mesh().getTileAt(0, 0, 0);
  ASSERT_TRUE(t && t->header);
  ASSERT_TRUE(a.editor.setDisabled({a.nav.mesh().getPolyRefBase(t) | 0}, true, &why)) << why;
  a.editor.setRemoveOnSave(true);
  json saved;
  a.editor.saveScenario(saved);
  EXPECT_TRUE(a.editor.hasEdits());
  EXPECT_EQ(saved["volumes"].size(), a.editor.volumes().size());
  EXPECT_EQ(saved["disabledPolys"].size(), 1u);
  EXPECT_EQ(saved["removeOnSave"], true);

  EditFixture b;
  ASSERT_TRUE(b.open("scenario_b"));
  const uint64_t version = b.history.version();
  ASSERT_TRUE(b.editor.loadScenario(saved, &why)) << why;
  b.editor.finish();
  EXPECT_GT(b.history.version(), version) << "loading edits is a change the journal sees";
  json again;
  b.editor.saveScenario(again);
  EXPECT_EQ(again.dump(), saved.dump());
  EXPECT_EQ(meshBytes(b.nav.mesh()), meshBytes(a.nav.mesh()));
  EXPECT_TRUE(b.editor.removeOnSave());
}

TEST(EditScenario, AgentMasksOfVolumesAndLinksComeBack) {
  EditFixture a;
  ASSERT_TRUE(a.open("scenario_masks"));
  nav::bake::ConvexVolume v;
  ASSERT_TRUE(volumeNearAPoly(a, &v));
  v.agents = 2; // the level's agent type 1 only
  std::string why;
  ASSERT_TRUE(a.editor.addVolume(v, &why)) << why;
  a.editor.finish();
  json saved;
  a.editor.saveScenario(saved);
  const json& vols = saved["volumes"];
  ASSERT_FALSE(vols.empty());
  EXPECT_EQ(vols.back()["agents"], 2);
  for (size_t i = 0; i + 1 < vols.size(); ++i) EXPECT_FALSE(vols[i].contains("agents")) << "a volume for every type has no mask";
  EditFixture b;
  ASSERT_TRUE(b.open("scenario_masks_b"));
  ASSERT_TRUE(b.editor.loadScenario(saved, &why)) << why;
  b.editor.finish();
  ASSERT_EQ(b.editor.volumes().size(), a.editor.volumes().size());
  EXPECT_EQ(b.editor.volumes().back().agents, 2u);
  json bad = saved;
  bad["volumes"].back()["agents"] = 0;
  EXPECT_FALSE(b.editor.loadScenario(bad, &why));
  EXPECT_NE(why.find("agents"), std::string::npos) << why;
}

TEST(EditScenario, BadValuesAreRefusedWithTheirPathAndChangeNothing) {
  EditFixture f;
  ASSERT_TRUE(f.open("scenario_bad"));
  json good;
  f.editor.saveScenario(good);
  const auto original = meshBytes(f.nav.mesh());
  const uint64_t version = f.history.version();
  auto refused = [&](json edits, const std::string& message) {
    std::string why;
    EXPECT_FALSE(f.editor.loadScenario(edits, &why)) << edits.dump();
    EXPECT_NE(why.find(message), std::string::npos) << why;
  };
  json e = good;
  e["volumes"][0]["area"] = 70;
  refused(e, "edits.volumes[0].area: must be in [0, 63]");
  e = good;
  e["volumes"][0]["verts"][1][2] = std::numeric_limits<double>::quiet_NaN();
  refused(e, "edits.volumes[0].verts[1][2]: not a finite number");
  e = good;
  e["volumes"][0]["verts"] = json::array({{0, 0, 0}, {1, 0, 0}});
  refused(e, "edits.volumes[0]: a volume needs at least 3 points");
  e = good;
  e["links"][0]["start"] = json::array({1, 2});
  refused(e, "edits.links[0].start: expected [x, y, z]");
  e = good;
  e["links"][0]["colour"] = "red";
  refused(e, "edits.links[0].colour: unknown key");
  e = good;
  e["removedTiles"] = json::array({json::array({1})});
  refused(e, "edits.removedTiles[0]: expected 2 to 3 elements");
  e = good;
  e["removeOnSave"] = 1;
  refused(e, "edits.removeOnSave: expected true or false");
  refused(json::array(), "edits: expected an object");
  f.editor.finish();
  EXPECT_EQ(f.history.version(), version);
  EXPECT_EQ(meshBytes(f.nav.mesh()), original);
  json after;
  f.editor.saveScenario(after);
  EXPECT_EQ(after, good);
  // The saved level's own edits load as no change at all.
  std::string why;
  EXPECT_TRUE(f.editor.loadScenario(good, &why)) << why;
  EXPECT_FALSE(f.history.canUndo());
}

} // namespace
