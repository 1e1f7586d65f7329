// The Tile and Prune tools (issue 19) driven by real clicks through the headless binary: the
// default level (with its default.bin) in a scratch folder, --tool "Tiles" / "Prune", --click on
// floor points, on the sky, and on the tools' buttons (where the tool's --dump-state "buttons" says
// they are: a first run finds them, so tools added above do not break the tests), --key ctrl+z,
// then --dump-state and the .bin written by the tool's Save level button.
#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "nav/NavAreas.h"
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kFloor = "680,420"; // a floor point of the default level at 1280x720 (tile (1, 0))
const char* kSky = "640,60";    // above the level: nothing under the mouse

struct AppRun : navbench::test::CommandResult {
  json state;
};

std::string q(const std::string& s) { return "'" + s + "'"; }

using navbench::test::levelDir;

std::string originalBin() { return (fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path() / "default.bin").string(); }

AppRun runApp(const std::string& dir, const std::string& tool, const std::string& args) {
  AppRun r;
  const std::string dump = dir + "/state.json";
  fs::remove(dump);
  static_cast<navbench::test::CommandResult&>(r) = navbench::test::runCommand(
      "cd " + q(dir) + " && " + navbench::test::headlessEnv(dir + "/config") + q(NAVBENCH_EXE) + " default.json --size 1280x720 --tool " +
      q(tool) + " " + args + " --frames 20 --screenshot " + q(dir + "/shot.png") + " --dump-state " + q(dump));
  std::ifstream f(dump);
  if (f) r.state = json::parse(f, nullptr, false);
  return r;
}

/// "--click X,Y" at the centre of the tool's button `label` (from a run that only opens the tool).
std::string buttonClick(const std::string& dir, const std::string& tool, const std::string& label) {
  static std::map<std::string, json> cache;
  if (!cache.count(tool)) cache[tool] = runApp(dir, tool, "").state["toolState"]["buttons"];
  const json& b = cache[tool][label];
  if (!b.is_array() || b.size() != 4) {
    ADD_FAILURE() << "no button '" << label << "' in " << tool << ": " << cache[tool].dump();
    return "";
  }
  return "--click " + std::to_string(int(b[0].get<float>() + b[2].get<float>() / 2)) + "," +
         std::to_string(int(b[1].get<float>() + b[3].get<float>() / 2));
}

bool loadBin(const std::string& path, nav::NavMesh& mesh) {
  std::string why;
  const bool ok = nav::statusSucceeded(nav::loadTileSetFile(path, mesh, &why));
  EXPECT_TRUE(ok) << path << ": " << why;
  return ok;
}

int tilePolys(const nav::NavMesh& mesh, int x, int y) {
  const nav::MeshTile* t = mesh.getTileAt(x, y, 0);
  return t && t->header ? t->header->polyCount : 0;
}

/// The tile's baked sections (vertices, polys without their runtime link list, detail meshes and
/// triangles, off-mesh connections) are the same bytes in both meshes.
void expectSameTile(const nav::NavMesh& a, const nav::NavMesh& b, int x, int y) {
  const nav::MeshTile* ta = a.getTileAt(x, y, 0);
  const nav::MeshTile* tb = b.getTileAt(x, y, 0);
  ASSERT_TRUE(ta && ta->header && tb && tb->header);
  const nav::MeshHeader& ha = *ta->header;
  const nav::MeshHeader& hb = *tb->header;
  ASSERT_EQ(ha.polyCount, hb.polyCount);
  ASSERT_EQ(ha.vertCount, hb.vertCount);
  ASSERT_EQ(ha.detailMeshCount, hb.detailMeshCount);
  ASSERT_EQ(ha.detailVertCount, hb.detailVertCount);
  ASSERT_EQ(ha.detailTriCount, hb.detailTriCount);
  ASSERT_EQ(ha.offMeshConCount, hb.offMeshConCount);
  EXPECT_EQ(std::memcmp(ta->verts, tb->verts, sizeof(float) * 3 * size_t(ha.vertCount)), 0);
  for (int i = 0; i < ha.polyCount; ++i) {
    nav::Poly pa = ta->polys[i], pb = tb->polys[i];
    pa.firstLink = pb.firstLink = 0;
    EXPECT_EQ(std::memcmp(&pa, &pb, sizeof pa), 0) << "poly " << i;
  }
  EXPECT_EQ(std::memcmp(ta->detailMeshes, tb->detailMeshes, sizeof(nav::PolyDetail) * size_t(ha.detailMeshCount)), 0);
  EXPECT_EQ(std::memcmp(ta->detailVerts, tb->detailVerts, sizeof(float) * 3 * size_t(ha.detailVertCount)), 0);
  EXPECT_EQ(std::memcmp(ta->detailTris, tb->detailTris, 4 * size_t(ha.detailTriCount)), 0);
  EXPECT_EQ(std::memcmp(ta->offMeshCons, tb->offMeshCons, sizeof(nav::OffMeshConnection) * size_t(ha.offMeshConCount)), 0);
}

int navbenchDiff(const std::string& a, const std::string& b, std::string* out = nullptr) {
  const navbench::test::CommandResult r =
      navbench::test::runCommand(navbench::test::headlessEnv() + q(NAVBENCH_EXE) + " diff " + q(a) + " " + q(b));
  if (out) *out = r.output;
  return r.exitCode;
}

// ---- Tile tool -----------------------------------------------------------------------------------

TEST(TileTool, HoverShowsTheTileAndItsPolyCount) {
  const std::string dir = levelDir("tiles_hover");
  const AppRun r = runApp(dir, "Tiles", std::string("--hover ") + kFloor);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  nav::NavMesh orig;
  ASSERT_TRUE(loadBin(originalBin(), orig));
  const json& hover = r.state["toolState"]["hover"];
  ASSERT_TRUE(hover.is_object()) << r.state["toolState"].dump();
  const int x = hover["tile"][0], y = hover["tile"][1];
  EXPECT_EQ(hover["polys"].get<int>(), tilePolys(orig, x, y));
  EXPECT_GT(hover["polys"].get<int>(), 0);
}

TEST(TileTool, ShiftClickRemovesTheTileAndAClickRebuildsItByteIdentical) {
  const std::string dir = levelDir("tiles_remove_rebuild");
  nav::NavMesh orig;
  ASSERT_TRUE(loadBin(originalBin(), orig));
  int origPolys = 0;
  for (int i = 0; i < orig.getMaxTiles(); ++i)
    if (const nav::MeshTile* t = orig.getTile(i); t && t->header) origPolys += t->header->polyCount;
  const std::string save = buttonClick(dir, "Tiles", "Save level");

  // Removed (and saved): that tile is gone, nothing else changed.
  const AppRun removed = runApp(dir, "Tiles", std::string("--click ") + kFloor + ",shift " + save);
  ASSERT_EQ(removed.exitCode, 0) << removed.output;
  const json& clicked = removed.state["toolState"]["clicked"];
  ASSERT_TRUE(clicked.is_array()) << removed.state["toolState"].dump();
  const int x = clicked[0], y = clicked[1];
  const int tp = tilePolys(orig, x, y);
  ASSERT_GT(tp, 0);
  EXPECT_EQ(removed.state["navPolys"].get<int>(), origPolys - tp);
  EXPECT_EQ(removed.state["editor"]["removedTiles"], json::array({json::array({x, y})}));
  EXPECT_EQ(removed.state["logErrors"].get<int>(), 0) << removed.output;
  {
    nav::NavMesh saved;
    ASSERT_TRUE(loadBin(dir + "/default.bin", saved));
    EXPECT_EQ(saved.getTileAt(x, y, 0), nullptr) << "the saved navmesh still has the removed tile";
    EXPECT_EQ(saved.tileCount(), orig.tileCount() - 1);
    std::string out;
    EXPECT_EQ(navbenchDiff(originalBin(), dir + "/default.bin", &out), 1) << out;
  }

  // Removed then rebuilt (a fresh copy of the level): the same bytes as the committed bake.
  const std::string dir2 = levelDir("tiles_remove_rebuild2");
  const AppRun rebuilt = runApp(dir2, "Tiles", std::string("--click ") + kFloor + ",shift --click " + kFloor + " " + save);
  ASSERT_EQ(rebuilt.exitCode, 0) << rebuilt.output;
  EXPECT_EQ(rebuilt.state["navPolys"].get<int>(), origPolys);
  EXPECT_EQ(rebuilt.state["editor"]["removedTiles"], json::array());
  EXPECT_GE(rebuilt.state["editor"]["rebakes"].get<int>(), 1);
  EXPECT_EQ(rebuilt.state["editor"]["lastTiles"], json::array({json::array({x, y})}));
  EXPECT_NE(rebuilt.state["toolState"]["message"].get<std::string>().find("saved"), std::string::npos)
      << rebuilt.state["toolState"].dump();
  EXPECT_NE(rebuilt.output.find("rebaked 1 tile"), std::string::npos) << rebuilt.output;
  nav::NavMesh saved;
  ASSERT_TRUE(loadBin(dir2 + "/default.bin", saved));
  expectSameTile(orig, saved, x, y);
  std::string out;
  EXPECT_EQ(navbenchDiff(originalBin(), dir2 + "/default.bin", &out), 0) << out;
}

TEST(TileTool, CtrlZAfterARemovalBringsTheTileBack) {
  const std::string dir = levelDir("tiles_undo");
  const AppRun base = runApp(dir, "Tiles", "");
  const AppRun r = runApp(dir, "Tiles", std::string("--click ") + kFloor + ",shift --key ctrl+z");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("undo: removed 1 tile"), std::string::npos) << r.output;
  EXPECT_EQ(r.state["navPolys"], base.state["navPolys"]);
  EXPECT_EQ(r.state["editor"]["removedTiles"], json::array());
  EXPECT_EQ(r.state["editor"]["undo"].get<int>(), 0);
  EXPECT_EQ(r.state["editor"]["redo"].get<int>(), 1);
}

TEST(TileTool, AClickOnTheSkySaysSoAndChangesNothing) {
  const std::string dir = levelDir("tiles_sky");
  const AppRun base = runApp(dir, "Tiles", "");
  const AppRun r = runApp(dir, "Tiles", std::string("--click ") + kSky + " --click " + kSky + ",shift");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json& t = r.state["toolState"];
  EXPECT_TRUE(t["messageIsError"].get<bool>()) << t.dump();
  EXPECT_NE(t["message"].get<std::string>().find("nothing changed"), std::string::npos) << t.dump();
  EXPECT_NE(r.output.find("error: Tiles: no level under the click"), std::string::npos) << r.output;
  EXPECT_EQ(r.state["logErrors"].get<int>(), 2);
  EXPECT_EQ(r.state["navPolys"], base.state["navPolys"]);
  EXPECT_EQ(r.state["editor"]["undo"].get<int>(), 0);
  EXPECT_EQ(r.state["editor"]["rebakes"].get<int>(), 0);
  EXPECT_EQ(r.state["editor"]["removedTiles"], json::array());
  EXPECT_FALSE(r.state["unsavedBake"].get<bool>());
}

TEST(TileTool, RemoveAllThenRebuildAllGivesTheSameNavmesh) {
  const std::string dir = levelDir("tiles_all");
  const std::string removeAll = buttonClick(dir, "Tiles", "Remove all");
  const std::string rebuildAll = buttonClick(dir, "Tiles", "Rebuild all");
  const std::string save = buttonClick(dir, "Tiles", "Save level");
  nav::NavMesh orig;
  ASSERT_TRUE(loadBin(originalBin(), orig));

  const AppRun gone = runApp(dir, "Tiles", removeAll);
  ASSERT_EQ(gone.exitCode, 0) << gone.output;
  EXPECT_EQ(gone.state["navPolys"].get<int>(), 0);
  EXPECT_EQ(gone.state["editor"]["removedTiles"].size(), size_t(orig.tileCount()));
  EXPECT_EQ(gone.state["editor"]["undo"].get<int>(), 1);

  const AppRun back = runApp(dir, "Tiles", removeAll + " " + rebuildAll + " " + save);
  ASSERT_EQ(back.exitCode, 0) << back.output;
  EXPECT_EQ(back.state["editor"]["removedTiles"], json::array());
  EXPECT_GE(back.state["editor"]["rebakes"].get<int>(), 1);
  EXPECT_EQ(back.state["logErrors"].get<int>(), 0) << back.output;
  std::string out;
  EXPECT_EQ(navbenchDiff(originalBin(), dir + "/default.bin", &out), 0) << out;
  nav::NavMesh saved;
  ASSERT_TRUE(loadBin(dir + "/default.bin", saved));
  for (int i = 0; i < orig.getMaxTiles(); ++i)
    if (const nav::MeshTile* t = orig.getTile(i); t && t->header) expectSameTile(orig, saved, t->header->x, t->header->y);
}

// ---- Prune tool ----------------------------------------------------------------------------------

TEST(PruneTool, ApplyDisablesExactlyWhatTheClickedPolyCannotReach) {
  const std::string dir = levelDir("prune_apply");
  const std::string apply = buttonClick(dir, "Prune", "Apply (disable unreachable)");
  const std::string save = buttonClick(dir, "Prune", "Save level");
  const AppRun r = runApp(dir, "Prune", std::string("--click ") + kFloor + " " + apply + " " + save);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json& t = r.state["toolState"];
  const int unreachable = t["unreachable"];
  EXPECT_GT(unreachable, 0) << "the default level has polys on block and crate tops no one reaches";
  EXPECT_GT(t["reachable"].get<int>(), unreachable);
  EXPECT_EQ(t["disabled"].get<int>(), unreachable);
  EXPECT_EQ(r.state["editor"]["disabledPolys"].size(), size_t(unreachable));
  EXPECT_EQ(r.state["editor"]["undo"].get<int>(), 1);
  EXPECT_EQ(r.state["logErrors"].get<int>(), 0) << r.output;

  // The saved .bin carries the flags (which polys: tests/model/EditToolModelsTest, an A* check).
  nav::NavMesh saved;
  ASSERT_TRUE(loadBin(dir + "/default.bin", saved));
  int disabled = 0;
  for (int i = 0; i < saved.getMaxTiles(); ++i)
    if (const nav::MeshTile* tile = saved.getTile(i); tile && tile->header)
      for (int p = 0; p < tile->header->polyCount; ++p) disabled += (tile->polys[p].flags & nav::FLAG_DISABLED) ? 1 : 0;
  EXPECT_EQ(disabled, unreachable);
}

TEST(PruneTool, CtrlZRestoresTheDisabledPolys) {
  const std::string dir = levelDir("prune_undo");
  const std::string apply = buttonClick(dir, "Prune", "Apply (disable unreachable)");
  // The click on the floor after Apply gives the keyboard back to the 3D view (a focused panel
  // keeps the keys) and only floods again.
  const AppRun r = runApp(dir, "Prune", std::string("--click ") + kFloor + " " + apply + " --click " + kFloor + " --key ctrl+z");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("undo: disabled"), std::string::npos) << r.output;
  EXPECT_EQ(r.state["toolState"]["disabled"].get<int>(), 0);
  EXPECT_GT(r.state["toolState"]["unreachable"].get<int>(), 0);
  EXPECT_EQ(r.state["editor"]["undo"].get<int>(), 0);
  EXPECT_EQ(r.state["editor"]["redo"].get<int>(), 1);
}

TEST(PruneTool, EnableAllClearsTheFlag) {
  const std::string dir = levelDir("prune_enable");
  const std::string apply = buttonClick(dir, "Prune", "Apply (disable unreachable)");
  const std::string enable = buttonClick(dir, "Prune", "Enable all");
  const AppRun r = runApp(dir, "Prune", std::string("--click ") + kFloor + " " + apply + " " + enable);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.state["toolState"]["disabled"].get<int>(), 0);
  EXPECT_EQ(r.state["editor"]["undo"].get<int>(), 2);
}

TEST(PruneTool, NothingClickedOrNothingUnderTheClickSaysSoAndChangesNothing) {
  const std::string dir = levelDir("prune_bad");
  const std::string apply = buttonClick(dir, "Prune", "Apply (disable unreachable)");
  const AppRun sky = runApp(dir, "Prune", std::string("--click ") + kSky);
  ASSERT_EQ(sky.exitCode, 0) << sky.output;
  EXPECT_TRUE(sky.state["toolState"]["messageIsError"].get<bool>());
  EXPECT_NE(sky.output.find("error: Prune: no level under the click"), std::string::npos) << sky.output;
  EXPECT_EQ(sky.state["toolState"]["unreachable"].get<int>(), 0);
  EXPECT_EQ(sky.state["editor"]["undo"].get<int>(), 0);

  const AppRun early = runApp(dir, "Prune", apply);
  ASSERT_EQ(early.exitCode, 0) << early.output;
  EXPECT_NE(early.state["toolState"]["message"].get<std::string>().find("click a poly first"), std::string::npos)
      << early.state["toolState"].dump();
  EXPECT_EQ(early.state["logErrors"].get<int>(), 1);
  EXPECT_EQ(early.state["editor"]["undo"].get<int>(), 0);
  EXPECT_EQ(early.state["toolState"]["disabled"].get<int>(), 0);
  EXPECT_FALSE(early.state["unsavedBake"].get<bool>());
}

int totalPolys(const nav::NavMesh& mesh, int* disabled = nullptr) {
  int n = 0;
  if (disabled) *disabled = 0;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header) continue;
    n += tile->header->polyCount;
    if (disabled)
      for (int p = 0; p < tile->header->polyCount; ++p) *disabled += (tile->polys[p].flags & nav::FLAG_DISABLED) ? 1 : 0;
  }
  return n;
}

TEST(PruneTool, RemoveOnSaveLeavesTheUnreachablePolysOutOfTheSavedNavmesh) {
  const std::string dir = levelDir("prune_remove");
  const std::string apply = buttonClick(dir, "Prune", "Apply (disable unreachable)");
  const std::string save = buttonClick(dir, "Prune", "Save level");
  const std::string remove = buttonClick(dir, "Prune", "Remove disabled polys from the saved navmesh");
  const AppRun r = runApp(dir, "Prune", std::string("--click ") + kFloor + " " + remove + " " + apply + " " + save +
                                            " --save-scenario " + q(dir + "/removed.scenario.json"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json& t = r.state["toolState"];
  const int unreachable = t["unreachable"];
  ASSERT_GT(unreachable, 0);
  // The viewer keeps them, disabled (undo still works); the saved .bin has them no more.
  EXPECT_EQ(t["disabled"].get<int>(), unreachable);
  EXPECT_TRUE(t["removeOnSave"].get<bool>());
  EXPECT_TRUE(r.state["editor"]["removeOnSave"].get<bool>());
  EXPECT_EQ(r.state["logErrors"].get<int>(), 0) << r.output;
  EXPECT_NE(r.output.find("saving the navmesh without " + std::to_string(unreachable) + " disabled polys"), std::string::npos)
      << r.output;
  EXPECT_FALSE(r.state["unsavedBake"].get<bool>());

  nav::NavMesh original, saved;
  ASSERT_TRUE(loadBin(originalBin(), original));
  ASSERT_TRUE(loadBin(dir + "/default.bin", saved));
  int disabled = -1;
  EXPECT_EQ(totalPolys(saved, &disabled), totalPolys(original) - unreachable);
  EXPECT_EQ(disabled, 0);
  // (That what is left is exactly what the clicked poly reaches: tests/model/EditToolModelsTest.)

  // navbench diff: the unreachable polys removed, nothing else.
  const std::string diffJson = dir + "/diff.json";
  const navbench::test::CommandResult d = navbench::test::runCommand(navbench::test::headlessEnv() + q(NAVBENCH_EXE) + " diff " +
                                                                     q(originalBin()) + " " + q(dir + "/default.bin") + " --json " +
                                                                     q(diffJson));
  EXPECT_EQ(d.exitCode, 1) << d.output;
  std::ifstream df(diffJson);
  const json dj = json::parse(df, nullptr, false);
  ASSERT_TRUE(dj.is_object()) << d.output;
  EXPECT_EQ(dj["polysRemoved"].size(), size_t(unreachable)) << d.output;
  EXPECT_EQ(dj["polysAdded"].size(), 0u) << d.output;
  EXPECT_EQ(dj["polysChanged"].size(), 0u) << d.output;

  // The scenario carries the choice and reopens with it.
  std::ifstream sf(dir + "/removed.scenario.json");
  const json sj = json::parse(sf, nullptr, false);
  ASSERT_TRUE(sj.is_object());
  EXPECT_TRUE(sj["edits"].value("removeOnSave", false)) << sj.dump();
  const std::string dump = dir + "/reopened.json";
  const navbench::test::CommandResult re = navbench::test::runCommand(
      "cd " + q(dir) + " && " + navbench::test::headlessEnv(dir + "/config") + q(NAVBENCH_EXE) + " " + q(dir + "/removed.scenario.json") +
      " --size 1280x720 --frames 10 --screenshot " + q(dir + "/reopened.png") + " --dump-state " + q(dump));
  ASSERT_EQ(re.exitCode, 0) << re.output;
  std::ifstream rf(dump);
  const json rj = json::parse(rf, nullptr, false);
  ASSERT_TRUE(rj.is_object()) << re.output;
  EXPECT_TRUE(rj["editor"]["removeOnSave"].get<bool>()) << rj["editor"].dump();
}

} // namespace
