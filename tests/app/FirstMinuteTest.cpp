// The first minute (issue 19): a new user opens a bare OBJ (no tile set beside it) and gets a
// navmesh without asking (a background bake with the Bake panel's settings, as a level file
// without its .bin already had), can click a path at once, and is not asked about that bake on
// quit or open. With no navmesh open, the tools panel offers Bake instead of only "open a .bin".
// All through the real binary headless (--click, --key, --drop, --dump-state).
#include "TestUtil.h"
#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct AppRun : navbench::test::CommandResult {
  json state;
  bool screenshot = false; ///< The run reached its last frame (it did not quit early).
  std::string png;
};

std::string q(const std::string& s) { return "'" + s + "'"; }

/// A fresh folder with a copy of the default level's OBJ (and its MTL) only: no level file, no .bin.
std::string bareObjDir(const std::string& tag) {
  const fs::path dir = fs::path(NAVBENCH_TEST_TMP) / tag;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path src = fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path();
  for (const char* f : {"default.obj", "default.mtl"}) fs::copy_file(src / f, dir / f);
  return dir.string();
}

AppRun runApp(const std::string& dir, const std::string& args) {
  AppRun r;
  const std::string dump = dir + "/state.json";
  r.png = dir + "/shot.png";
  fs::remove(dump);
  fs::remove(r.png);
  static_cast<navbench::test::CommandResult&>(r) = navbench::test::runCommand(
      "cd " + q(dir) + " && " + navbench::test::headlessEnv(dir + "/config") + q(NAVBENCH_EXE) + " " + args +
      " --size 1280x720 --frames 20 --screenshot " + q(r.png) + " --dump-state " + q(dump));
  std::ifstream f(dump);
  if (f) r.state = json::parse(f, nullptr, false);
  r.screenshot = fs::exists(r.png);
  return r;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

int polyCount(const nav::NavMesh& mesh) {
  int polys = 0;
  for (int i = 0; i < mesh.getMaxTiles(); ++i)
    if (const nav::MeshTile* t = mesh.getTile(i); t && t->header) polys += t->header->polyCount;
  return polys;
}

// Start on the floor in front of the central block, end on the far floor (1280x720, default camera;
// as TesterTest, whose level is the same geometry).
const std::string kClicks = "--click 680,420,shift --click 870,190";

TEST(FirstMinute, ABareObjIsBakedAtOpenAndAPathCanBeClickedAtOnce) {
  const std::string dir = bareObjDir("bare_obj_path");
  const AppRun r = runApp(dir, "default.obj --tool 'Pathfind Straight' " + kClicks);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_TRUE(r.state.is_object()) << r.output;
  EXPECT_NE(r.output.find("no baked tile set next to default.obj: baking it with the Bake panel's settings"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("bake done"), std::string::npos) << r.output;
  // The navmesh is the bake, in memory only: nothing written beside the OBJ.
  EXPECT_EQ(r.state["nav"], "default.obj (baked)");
  EXPECT_FALSE(fs::exists(dir + "/default.bin"));
  EXPECT_EQ(r.state["logErrors"], 0) << r.output;
  // Not the user's work: nothing for the quit prompt.
  EXPECT_FALSE(r.state["unsavedBake"].get<bool>());
  EXPECT_FALSE(r.state["unsavedSettings"].get<bool>());
  EXPECT_EQ(r.state["unsavedPrompt"], "");

  // The same navmesh as `navbench bake` makes of the OBJ with the default settings (the Bake
  // panel's, nothing changed them).
  const std::string cliBin = dir + "/cli.bin";
  const navbench::test::CommandResult bake =
      navbench::test::runCommand(q(NAVBENCH_EXE) + " bake " + q(dir + "/default.obj") + " -o " + q(cliBin) + " -q");
  ASSERT_EQ(bake.exitCode, 0) << bake.output;
  nav::NavMesh mesh;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(cliBin, mesh, &why))) << why;
  EXPECT_GT(polyCount(mesh), 0);
  EXPECT_EQ(r.state["navPolys"].get<int>(), polyCount(mesh));

  // The clicks (which wait for the bake) set start and end on it, and Pathfind Straight found a
  // complete path between them.
  const json& s = r.state["toolState"];
  EXPECT_EQ(r.state["activeTool"], "Pathfind Straight");
  ASSERT_TRUE(s.contains("start") && s.contains("end")) << s.dump();
  EXPECT_NE(s["startRef"].get<unsigned>(), 0u) << s.dump();
  EXPECT_NE(s["endRef"].get<unsigned>(), 0u) << s.dump();
  EXPECT_FALSE(s.contains("bakeButton")) << "a navmesh is open: no offer to bake";
  EXPECT_EQ(s["statusText"], "success") << "not partial, no failure";
  EXPECT_GE(s["corridor"].size(), 2u) << s.dump();
  const std::vector<float> pts = s["straight"].get<std::vector<float>>();
  ASSERT_GE(pts.size(), 6u);
  const std::vector<float> end = s["end"].get<std::vector<float>>();
  // It ends at the end point (clamped onto the navmesh, eroded by the agent radius at the wall).
  for (int k = 0; k < 3; k += 2) EXPECT_NEAR(pts[pts.size() - 3 + size_t(k)], end[size_t(k)], 1.0f) << k;
}

TEST(FirstMinute, TheLoadTimeBakeOfAnObjIsNotAskedAbout) {
  const std::string dir = bareObjDir("bare_obj_quit");
  // Quit: at once, no prompt (the run ends before its screenshot frame).
  const AppRun quit = runApp(dir, "default.obj --key ctrl+q");
  ASSERT_EQ(quit.exitCode, 0) << quit.output;
  EXPECT_NE(quit.output.find("bake done"), std::string::npos) << quit.output;
  EXPECT_FALSE(quit.screenshot) << "the load-time bake made the viewer ask before quitting";
  EXPECT_FALSE(quit.state["unsavedBake"].get<bool>());
  EXPECT_EQ(quit.state["unsavedPrompt"], "");
  EXPECT_FALSE(fs::exists(dir + "/default.bin"));

  // Open another file (dropped on the window): opened without asking, and baked in turn.
  fs::copy_file(dir + "/default.obj", dir + "/second.obj");
  const AppRun open = runApp(dir, "default.obj --drop " + q(dir + "/second.obj"));
  ASSERT_EQ(open.exitCode, 0) << open.output;
  ASSERT_TRUE(open.state.is_object()) << open.output;
  EXPECT_EQ(open.state["unsavedPrompt"], "") << "the load-time bake made the viewer ask before opening";
  EXPECT_EQ(open.state["level"], dir + "/second.obj");
  EXPECT_EQ(open.state["nav"], dir + "/second.obj (baked)");
  EXPECT_GT(open.state["navPolys"].get<int>(), 0);
  EXPECT_FALSE(open.state["unsavedBake"].get<bool>());
  EXPECT_EQ(count(open.output, "bake done"), 2) << open.output;
}

// A level whose bake fails with the Bake panel's settings: two floor patches 10 km apart need far
// more tiles than poly refs can address. The tools panel says why and offers Bake (not only "open
// a .bin"); a real click on that button bakes again (and fails again, with the same reason).
TEST(FirstMinute, WithNoNavmeshTheToolsPanelOffersBake) {
  const std::string dir = bareObjDir("bake_button");
  std::ofstream(dir + "/wide.obj") << "v 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\n"
                                      "v 10000 0 10000\nv 10020 0 10000\nv 10020 0 10020\nv 10000 0 10020\n"
                                      "f 1 4 3 2\nf 5 8 7 6\n";
  const AppRun first = runApp(dir, "wide.obj --tool 'Pathfind Straight'");
  ASSERT_EQ(first.exitCode, 0) << first.output;
  ASSERT_TRUE(first.state.is_object()) << first.output;
  EXPECT_EQ(count(first.output, "bake started"), 1) << first.output;
  EXPECT_EQ(count(first.output, "bake failed"), 1) << first.output;
  EXPECT_EQ(first.state["nav"], "");
  const json& s = first.state["toolState"];
  ASSERT_TRUE(s.contains("bakeButton")) << "no Bake button in the tools panel: " << s.dump();
  const float x = s["bakeButton"][0].get<float>(), y = s["bakeButton"][1].get<float>();
  // The button is inside the Tools window.
  bool inTools = false;
  for (const json& w : first.state["windows"])
    if (w["name"] == "Tools")
      inTools = x > w["x"].get<float>() && x < w["x"].get<float>() + w["w"].get<float>() && y > w["y"].get<float>() &&
                y < w["y"].get<float>() + w["h"].get<float>();
  EXPECT_TRUE(inTools) << x << "," << y << " " << first.state["windows"].dump();

  char click[64];
  std::snprintf(click, sizeof click, " --click %.0f,%.0f", double(x), double(y));
  const AppRun clicked = runApp(dir, "wide.obj --tool 'Pathfind Straight'" + std::string(click));
  ASSERT_EQ(clicked.exitCode, 0) << clicked.output;
  ASSERT_TRUE(clicked.state.is_object()) << clicked.output;
  EXPECT_EQ(count(clicked.output, "bake started"), 2) << "the Bake button did not bake: " << clicked.output;
  EXPECT_EQ(count(clicked.output, "bake failed: the level needs"), 2) << clicked.output;
  EXPECT_FALSE(clicked.state["toolState"].contains("start")) << "the click went through to the level";
  EXPECT_TRUE(clicked.state["toolState"].contains("bakeButton")) << "still offered after the second failure";
  EXPECT_FALSE(clicked.state["unsavedBake"].get<bool>());
}

} // namespace
