// Nothing is lost (issue 8): a navmesh baked in the viewer (Bake panel Build / Ctrl+B) and not
// saved is not dropped silently. Quitting (Ctrl+Q, window close, File > Quit) or opening another
// file asks first: Save (S) writes the panel's .bin and goes on, Discard (D) goes on, Cancel (Esc)
// keeps everything. Driven through the real binary headless (keys after a load, --dump-state).
// A bake the viewer made by itself at load time (a level file or an OBJ without its .bin) is not
// the user's work and quits without asking. (The bake runner's own side, no window:
// tests/model/BakeRunnerTest.cpp.)
#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "TestUtil.h"

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
};

std::string q(const std::string& s) { return "'" + s + "'"; }

/// A fresh folder holding a copy of the default level (OBJ, MTL, level file) without its .bin.
std::string levelDir(const std::string& tag) {
  const fs::path dir = fs::path(NAVBENCH_TEST_TMP) / tag;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path src = fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path();
  for (const char* f : {"default.obj", "default.mtl", "default.json"})
    if (fs::exists(src / f)) fs::copy_file(src / f, dir / f);
  return dir.string();
}

AppRun runApp(const std::string& dir, const std::string& args) {
  AppRun r;
  const std::string dump = dir + "/state.json", png = dir + "/shot.png";
  static_cast<navbench::test::CommandResult&>(r) =
      navbench::test::runCommand("cd " + q(dir) + " && " + navbench::test::headlessEnv(dir + "/config") + q(NAVBENCH_EXE) +
                                 " " + args + " --frames 40 --screenshot " + q(png) + " --dump-state " + q(dump));
  std::ifstream f(dump);
  if (f) r.state = json::parse(f, nullptr, false);
  r.screenshot = fs::exists(png);
  return r;
}

TEST(UnsavedBake, CancelKeepsTheBakeAndTheViewerRunning) {
  const std::string dir = levelDir("unsaved_cancel");
  const AppRun r = runApp(dir, "default.obj --key ctrl+b --key ctrl+q --key escape");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_TRUE(r.state.is_object()) << r.output;
  EXPECT_NE(r.state["nav"].get<std::string>().find("(baked)"), std::string::npos) << r.output;
  EXPECT_TRUE(r.state["unsavedBake"].get<bool>());
  EXPECT_EQ(r.state["unsavedPrompt"], "");
  EXPECT_TRUE(r.screenshot) << "Cancel must not quit";
  EXPECT_FALSE(fs::exists(dir + "/default.bin"));
}

TEST(UnsavedBake, QuitWithAnUnsavedBakeAsksAndWaits) {
  const std::string dir = levelDir("unsaved_ask");
  const AppRun r = runApp(dir, "default.obj --key ctrl+b --key ctrl+q");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(r.state["unsavedBake"].get<bool>());
  EXPECT_EQ(r.state["unsavedPrompt"], "quit");
  EXPECT_TRUE(r.screenshot) << "the viewer quit without asking";
}

TEST(UnsavedBake, DiscardQuits) {
  const std::string dir = levelDir("unsaved_discard");
  const AppRun r = runApp(dir, "default.obj --key ctrl+b --key ctrl+q --key d");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_FALSE(r.screenshot) << "Discard must quit";
  EXPECT_FALSE(r.state["unsavedBake"].get<bool>());
  EXPECT_NE(r.output.find("unsaved changes discarded"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir + "/default.bin"));
}

TEST(UnsavedBake, SaveWritesTheBinThenQuits) {
  const std::string dir = levelDir("unsaved_save");
  const AppRun r = runApp(dir, "default.obj --key ctrl+b --key ctrl+q --key s");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_FALSE(r.screenshot) << "Save must quit once saved";
  EXPECT_FALSE(r.state["unsavedBake"].get<bool>());
  nav::NavMesh mesh;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(dir + "/default.bin", mesh, &why))) << why;
  int polys = 0;
  for (int i = 0; i < mesh.getMaxTiles(); ++i)
    if (const nav::MeshTile* t = mesh.getTile(i); t && t->header) polys += t->header->polyCount;
  EXPECT_EQ(polys, r.state["navPolys"].get<int>()) << "the saved file is not the baked navmesh";
}

TEST(UnsavedBake, NothingToLoseQuitsAtOnce) {
  const std::string dir = levelDir("unsaved_none");
  // Neither the OBJ nor the level file has a .bin here, so the viewer bakes them at load time
  // (the OBJ with the Bake panel's settings, the level file with its own): not the user's work.
  const AppRun plain = runApp(dir, "default.obj --key ctrl+q");
  ASSERT_EQ(plain.exitCode, 0) << plain.output;
  EXPECT_NE(plain.output.find("bake done"), std::string::npos) << plain.output;
  EXPECT_FALSE(plain.screenshot) << "a load-time bake of an OBJ made the viewer ask";
  EXPECT_FALSE(plain.state["unsavedBake"].get<bool>());
  const AppRun loadBake = runApp(dir, "default.json --key ctrl+q");
  ASSERT_EQ(loadBake.exitCode, 0) << loadBake.output;
  EXPECT_NE(loadBake.output.find("bake done"), std::string::npos) << loadBake.output;
  EXPECT_FALSE(loadBake.screenshot) << "a load-time bake made the viewer ask";
  EXPECT_FALSE(loadBake.state["unsavedBake"].get<bool>());
}

} // namespace
