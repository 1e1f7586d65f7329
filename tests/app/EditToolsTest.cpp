// The level edit tools (issue 19) driven by real clicks through the navbench binary, headless:
// the Convex Volumes tool outlines a volume on the default level (its convex hull, the panel's
// area, the heights below / above the floor), the Off-Mesh Links tool adds a link with the panel's
// options; each is saved with the tool panel's "Save level file" button and the level file read
// back. Clicking a volume or near a link's end selects it; Delete (the button or the key) removes
// it. Refused edits (fewer than 3 distinct points, a link end over no navmesh, a link longer than
// the bake connects) leave the level file as it was and say why in the panel and the log.
//
// Level points are window pixels of the default camera at 1280x720 (what each hits is read back
// with --hover); the panel's widgets are found in a first run's --dump-state ("widgets": their
// screen rectangles), so the clicks follow the panel wherever its layout puts them.
#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "nav/NavAreas.h"
#include "nav/bake/LevelFile.h"
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct AppRun : navbench::test::CommandResult {
  json state;
  const json& tool() const { return state["toolState"]; }
  const json& editor() const { return state["editor"]; }
};

std::string q(const std::string& s) { return "'" + s + "'"; }

using navbench::test::levelDir;

/// Opens the level file in `dir` with `tool` active, then `args` (clicks, keys).
AppRun runApp(const std::string& dir, const std::string& tool, const std::string& args) {
  AppRun r;
  const std::string dump = dir + "/state.json";
  fs::remove(dump);
  static_cast<navbench::test::CommandResult&>(r) = navbench::test::runCommand(
      "cd " + q(dir) + " && " + navbench::test::headlessEnv(dir + "/config") + q(NAVBENCH_EXE) + " default.json --size 1280x720 --tool " +
      q(tool) + " " + args + " --screenshot " + q(dir + "/shot.png") + " --dump-state " + q(dump));
  std::ifstream f(dump);
  if (f) r.state = json::parse(f, nullptr, false);
  return r;
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

/// "--click X,Y" at the centre of the panel widget `key` of a run's dump.
std::string clickWidget(const AppRun& r, const std::string& key) {
  const json& w = r.tool()["widgets"];
  EXPECT_TRUE(w.contains(key)) << key << " not in " << w.dump();
  if (!w.contains(key)) return "";
  const float x = (w[key][0].get<float>() + w[key][2].get<float>()) / 2, y = (w[key][1].get<float>() + w[key][3].get<float>()) / 2;
  EXPECT_GT(y, 0.0f);
  EXPECT_LT(y, 720.0f) << key << " is below the window";
  return "--click " + std::to_string(int(x)) + "," + std::to_string(int(y)) + " ";
}

/// The level point under window pixel `px` ("X,Y"), as the app picks it.
std::vector<float> pointAt(const std::string& dir, const std::string& px) {
  const AppRun r = runApp(dir, "Pick", "--hover " + px);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(r.state["hover"]["hit"].get<bool>()) << px << " hits nothing";
  return r.state["hover"]["pos"].get<std::vector<float>>();
}

nav::bake::Level readLevel(const std::string& dir) {
  nav::bake::Level level;
  std::string why;
  EXPECT_TRUE(nav::bake::loadLevelFile(dir + "/default.json", &level, &why)) << why;
  return level;
}

void expectNear3(const float* got, const std::vector<float>& want, float tol = 1e-3f) {
  ASSERT_EQ(want.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[size_t(i)], tol) << "coordinate " << i;
}

// Floor points of hall A at 1280x720: a quad (A, B, C, D) and E inside it.
const char* kA = "700,400";
const char* kB = "740,420";
const char* kC = "720,450";
const char* kD = "680,440";
const char* kE = "710,425";
const char* kPool = "440,270";     // inside volume 0 (the pool, water)
const char* kWallTop = "640,440";  // the outer wall's top: no navmesh there
const char* kFar = "820,300";      // ramp room floor, ~19 m from A
const char* kLink0End = "648,145"; // the jump platform, 0.3 m from link 0's end

std::string click(const char* px) { return std::string("--click ") + px + " "; }

// ---- Convex Volumes ---------------------------------------------------------------------------

TEST(EditTools, VolumeIsTheHullOfTheClickedPointsAndIsSaved) {
  const std::string dir = levelDir("volume_add");
  const std::string before = readFile(dir + "/default.json"), binBefore = readFile(dir + "/default.bin");
  // The points the clicks give, and the panel's widgets, before anything is closed.
  const AppRun open = runApp(dir, "Convex Volumes", click(kA) + click(kB) + click(kC) + click(kD) + click(kE));
  ASSERT_EQ(open.exitCode, 0) << open.output;
  const std::vector<float> pts = open.tool()["points"].get<std::vector<float>>();
  ASSERT_EQ(pts.size(), 15u) << open.tool().dump();
  for (size_t i = 1; i < pts.size(); i += 3) EXPECT_NEAR(pts[i], 0.0f, 1e-3f) << "a point is not on the floor";
  EXPECT_EQ(open.tool()["hull"].size(), 4u) << "E is inside A B C D";
  EXPECT_EQ(readFile(dir + "/default.json"), before) << "nothing closed, nothing written";

  // Water, then the same five points, a click on the first one closes the outline; saved.
  const AppRun r = runApp(dir, "Convex Volumes",
                          clickWidget(open, "new.area.water") + click(kA) + click(kB) + click(kC) + click(kD) + click(kE) + click(kA) +
                              clickWidget(open, "save"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_FALSE(r.tool()["messageIsError"].get<bool>()) << r.tool().dump();
  EXPECT_EQ(r.tool()["points"].size(), 0u) << "closing clears the points";
  EXPECT_EQ(r.state["logErrors"], 0) << r.output;
  EXPECT_FALSE(r.editor()["unsaved"].get<bool>()) << "saved";
  EXPECT_NE(r.output.find("edit: added volume 2"), std::string::npos) << r.output;

  const nav::bake::Level level = readLevel(dir);
  ASSERT_EQ(level.volumes.size(), 3u);
  const nav::bake::ConvexVolume& v = level.volumes[2];
  EXPECT_EQ(v.area, nav::AREA_WATER);
  ASSERT_EQ(v.verts.size(), 12u) << "the hull of the 5 points has 4 (E is inside)";
  // Each hull vertex is one of A, B, C, D (the first four points), each once; E is not one.
  std::vector<int> used;
  for (size_t k = 0; k < 4; ++k) {
    int match = -1;
    for (int p = 0; p < 5; ++p)
      if (std::fabs(v.verts[k * 3] - pts[size_t(p) * 3]) < 1e-3f && std::fabs(v.verts[k * 3 + 2] - pts[size_t(p) * 3 + 2]) < 1e-3f)
        match = p;
    EXPECT_GE(match, 0) << "hull vertex " << k << " is not a clicked point";
    EXPECT_NE(match, 4) << "the inner point E is on the hull";
    used.push_back(match);
  }
  std::sort(used.begin(), used.end());
  EXPECT_EQ(used, (std::vector<int>{0, 1, 2, 3}));
  // Convex, one winding: every turn the same way.
  float sign = 0;
  for (size_t k = 0; k < 4; ++k) {
    const float* a = &v.verts[k * 3];
    const float* b = &v.verts[((k + 1) % 4) * 3];
    const float* c = &v.verts[((k + 2) % 4) * 3];
    const float cross = (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]);
    if (sign == 0) sign = cross;
    EXPECT_GT(cross * sign, 0.0f) << "turn " << k;
  }
  // RecastDemo's heights: the lowest point minus the offset below the floor (1 m), then the height (6 m).
  EXPECT_NEAR(v.hmin, -1.0f, 1e-3f);
  EXPECT_NEAR(v.hmax, 5.0f, 1e-3f);
  // The rest of the level file is kept, and the navmesh saved beside it is the re-baked one.
  EXPECT_EQ(level.links.size(), 2u);
  EXPECT_EQ(level.volumes[0].area, nav::AREA_WATER);
  EXPECT_EQ(level.volumes[1].area, nav::AREA_DOOR);
  EXPECT_NE(readFile(dir + "/default.bin"), binBefore);
  // ... with water polys inside the new volume (its centre's poly).
  nav::NavMesh mesh;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(dir + "/default.bin", mesh, &why))) << why;
  float cx = 0, cz = 0;
  for (size_t k = 0; k < 4; ++k) {
    cx += v.verts[k * 3] / 4;
    cz += v.verts[k * 3 + 2] / 4;
  }
  int water = 0, polys = 0;
  for (int t = 0; t < mesh.getMaxTiles(); ++t) {
    const nav::MeshTile* tile = mesh.getTile(t);
    if (!tile || !tile->header) continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const nav::Poly& poly = tile->polys[p];
      float px = 0, pz = 0;
      for (int k = 0; k < poly.vertCount; ++k) {
        px += tile->verts[poly.verts[k] * 3] / float(poly.vertCount);
        pz += tile->verts[poly.verts[k] * 3 + 2] / float(poly.vertCount);
      }
      if (std::hypot(px - cx, pz - cz) > 1.5f) continue;
      ++polys;
      water += poly.getArea() == nav::AREA_WATER ? 1 : 0;
    }
  }
  EXPECT_GT(polys, 0);
  EXPECT_EQ(water, polys) << "the polys around the volume's centre are not water in the saved navmesh";
}

TEST(EditTools, EnterClosesAVolumeAndEscClearsThePoints) {
  const std::string dir = levelDir("volume_enter");
  const AppRun r = runApp(dir, "Convex Volumes", click(kA) + click(kB) + click(kC) + "--key return");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_FALSE(r.tool()["messageIsError"].get<bool>()) << r.tool().dump();
  ASSERT_EQ(r.editor()["volumes"].size(), 3u) << r.editor().dump();
  EXPECT_EQ(r.editor()["volumes"][2]["area"], int(nav::AREA_GRASS)) << "the default area, as RecastDemo";
  EXPECT_EQ(r.editor()["volumes"][2]["verts"].size(), 3u);
  EXPECT_TRUE(r.editor()["unsaved"].get<bool>()) << "not saved: the level file waits for Save";

  const AppRun esc = runApp(dir, "Convex Volumes", click(kA) + click(kB) + "--key escape");
  ASSERT_EQ(esc.exitCode, 0) << esc.output;
  EXPECT_EQ(esc.tool()["points"].size(), 0u);
  EXPECT_EQ(esc.editor()["volumes"].size(), 2u);
}

TEST(EditTools, FewerThanThreeDistinctPointsAreRefused) {
  const std::string dir = levelDir("volume_refused");
  const std::string before = readFile(dir + "/default.json");
  // Two points + Enter; then A, B and B again (3 points, 2 distinct) + Enter.
  for (const std::string& clicks : {click(kA) + click(kB), click(kA) + click(kB) + click(kB)}) {
    const AppRun r = runApp(dir, "Convex Volumes", clicks + "--key return");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_TRUE(r.tool()["messageIsError"].get<bool>()) << r.tool().dump();
    const std::string msg = r.tool()["message"].get<std::string>();
    EXPECT_NE(msg.find("at least 3 distinct points (it has 2)"), std::string::npos) << msg;
    EXPECT_NE(r.output.find(msg), std::string::npos) << "the message is not in the log: " << r.output;
    EXPECT_EQ(r.state["logErrors"], 1);
    EXPECT_EQ(r.editor()["volumes"].size(), 2u);
    EXPECT_EQ(r.editor()["undo"], 0) << "nothing changed, nothing to undo";
    EXPECT_FALSE(r.state["editor"]["unsaved"].get<bool>());
    EXPECT_GE(r.tool()["points"].size(), 6u) << "the points stay, to add more";
  }
  EXPECT_EQ(readFile(dir + "/default.json"), before);
}

TEST(EditTools, ClickingAVolumeSelectsItAndDeleteRemovesIt) {
  const std::string dir = levelDir("volume_delete");
  const AppRun sel = runApp(dir, "Convex Volumes", click(kPool));
  ASSERT_EQ(sel.exitCode, 0) << sel.output;
  EXPECT_EQ(sel.tool()["selected"], 0) << "the pool is volume 0";
  EXPECT_EQ(sel.tool()["points"].size(), 0u) << "a click in a volume selects, it adds no point";

  // Its area changed in the panel (the shape and heights kept).
  const AppRun road = runApp(dir, "Convex Volumes", click(kPool) + clickWidget(sel, "sel.area.road"));
  ASSERT_EQ(road.exitCode, 0) << road.output;
  ASSERT_EQ(road.editor()["volumes"].size(), 2u);
  EXPECT_EQ(road.editor()["volumes"][0]["area"], int(nav::AREA_ROAD)) << road.tool().dump();
  EXPECT_NEAR(road.editor()["volumes"][0]["hmin"].get<float>(), -0.6f, 1e-5f);
  EXPECT_EQ(road.editor()["volumes"][0]["verts"].size(), 4u);
  EXPECT_EQ(road.tool()["selected"], 0) << "still selected after the edit";

  // The Delete key: removed (not saved).
  const AppRun key = runApp(dir, "Convex Volumes", click(kPool) + "--key delete");
  ASSERT_EQ(key.exitCode, 0) << key.output;
  ASSERT_EQ(key.editor()["volumes"].size(), 1u);
  EXPECT_EQ(key.editor()["volumes"][0]["area"], int(nav::AREA_DOOR));
  EXPECT_EQ(key.tool()["selected"], -1);
  EXPECT_EQ(readLevel(dir).volumes.size(), 2u) << "not saved yet";

  // The Delete button, then Save.
  const AppRun r = runApp(dir, "Convex Volumes", click(kPool) + clickWidget(sel, "delete") + clickWidget(sel, "save"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.tool()["message"], "level file saved");
  const nav::bake::Level level = readLevel(dir);
  ASSERT_EQ(level.volumes.size(), 1u);
  EXPECT_EQ(level.volumes[0].area, nav::AREA_DOOR);
  EXPECT_EQ(level.links.size(), 2u);
}

// ---- Off-Mesh Links ---------------------------------------------------------------------------

TEST(EditTools, LinkFromTwoClicksWithThePanelsOptionsIsSaved) {
  const std::string dir = levelDir("link_add");
  const std::vector<float> a = pointAt(dir, kA), c = pointAt(dir, kC);
  const AppRun panel = runApp(dir, "Off-Mesh Links", "");
  ASSERT_EQ(panel.exitCode, 0) << panel.output;
  EXPECT_EQ(panel.tool()["bidirectional"], true);
  EXPECT_NEAR(panel.tool()["maxLinkLength"].get<float>(), 9.6f, 1e-3f) << "one 32-cell tile of 0.3 m";

  // One way, road, walk + jump; start A, end C; saved.
  const AppRun r = runApp(dir, "Off-Mesh Links",
                          clickWidget(panel, "new.bidirectional") + clickWidget(panel, "new.area.road") +
                              clickWidget(panel, "new.flag.walk") + click(kA) + click(kC) + clickWidget(panel, "save"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.state["logErrors"], 0) << r.output;
  EXPECT_FALSE(r.tool()["hasStart"].get<bool>());
  EXPECT_NE(r.output.find("edit: added link 2"), std::string::npos) << r.output;
  const nav::bake::Level level = readLevel(dir);
  ASSERT_EQ(level.links.size(), 3u);
  const nav::bake::OffMeshLink& l = level.links[2];
  expectNear3(l.start, a);
  expectNear3(l.end, c);
  EXPECT_FALSE(l.bidirectional);
  EXPECT_EQ(l.area, nav::AREA_ROAD);
  EXPECT_EQ(l.flags, nav::FLAG_WALK | nav::FLAG_JUMP);
  EXPECT_NEAR(l.radius, 0.6f, 1e-5f);
  EXPECT_EQ(level.volumes.size(), 2u);
}

TEST(EditTools, LinksOffTheNavmeshOrTooLongAreRefused) {
  const std::string dir = levelDir("link_refused");
  const std::string before = readFile(dir + "/default.json");
  const AppRun r = runApp(dir, "Off-Mesh Links", click(kA) + click(kWallTop) + click(kA) + click(kFar));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("error: Off-Mesh Links: not added: the link's end"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("is not over the navmesh"), std::string::npos) << r.output;
  EXPECT_EQ(r.state["logErrors"], 2) << r.output;
  // The panel shows the last one: too long.
  EXPECT_TRUE(r.tool()["messageIsError"].get<bool>());
  const std::string msg = r.tool()["message"].get<std::string>();
  EXPECT_NE(msg.find("m long; the bake connects links up to one tile (9.60 m)"), std::string::npos) << msg;
  EXPECT_EQ(r.editor()["links"].size(), 2u);
  EXPECT_EQ(r.editor()["undo"], 0);
  EXPECT_EQ(r.editor()["rebakes"], 0);
  EXPECT_FALSE(r.tool()["hasStart"].get<bool>()) << "a refused link starts over";
  EXPECT_EQ(readFile(dir + "/default.json"), before);
}

TEST(EditTools, ClickingNearALinkEndSelectsItAndDeleteRemovesIt) {
  const std::string dir = levelDir("link_delete");
  const AppRun sel = runApp(dir, "Off-Mesh Links", click(kLink0End));
  ASSERT_EQ(sel.exitCode, 0) << sel.output;
  EXPECT_EQ(sel.tool()["selected"], 0);
  EXPECT_FALSE(sel.tool()["hasStart"].get<bool>()) << "selecting sets no start";

  // Made one way in the panel (its ends kept).
  const AppRun oneWay = runApp(dir, "Off-Mesh Links", click(kLink0End) + clickWidget(sel, "sel.bidirectional"));
  ASSERT_EQ(oneWay.exitCode, 0) << oneWay.output;
  ASSERT_EQ(oneWay.editor()["links"].size(), 2u);
  EXPECT_EQ(oneWay.editor()["links"][0]["bidirectional"], false) << oneWay.tool().dump();
  EXPECT_NEAR(oneWay.editor()["links"][0]["start"][0].get<float>(), 35.2f, 1e-4f);
  EXPECT_EQ(oneWay.tool()["selected"], 0);

  const AppRun key = runApp(dir, "Off-Mesh Links", click(kLink0End) + "--key delete");
  ASSERT_EQ(key.exitCode, 0) << key.output;
  ASSERT_EQ(key.editor()["links"].size(), 1u);
  EXPECT_EQ(key.editor()["links"][0]["bidirectional"], false) << "link 1 is left";

  const AppRun r = runApp(dir, "Off-Mesh Links", click(kLink0End) + clickWidget(sel, "delete") + clickWidget(sel, "save"));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const nav::bake::Level level = readLevel(dir);
  ASSERT_EQ(level.links.size(), 1u);
  EXPECT_FALSE(level.links[0].bidirectional);
  EXPECT_NEAR(level.links[0].start[0], 44.7f, 1e-4f);
  EXPECT_EQ(level.volumes.size(), 2u);
}

TEST(EditTools, ShiftClickNearALinkEndStartsALink) {
  const std::string dir = levelDir("link_shift");
  const AppRun r = runApp(dir, "Off-Mesh Links", std::string("--click ") + kLink0End + ",shift");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.tool()["selected"], -1);
  EXPECT_TRUE(r.tool()["hasStart"].get<bool>());
}

} // namespace
