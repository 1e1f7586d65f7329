// Nothing is lost (issue 8): a navmesh baked in the viewer (Bake panel Build / Ctrl+B) and not
// saved is not dropped silently. Quitting (Ctrl+Q, window close, File > Quit) or opening another
// file asks first: Save (S) writes the panel's .bin and goes on, Discard (D) goes on, Cancel (Esc)
// keeps everything. Driven through the real binary headless (keys after a load, --dump-state).
// A bake the viewer made by itself at load time (a level file or an OBJ without its .bin) is not
// the user's work and quits without asking.
#include "app/Log.h"
#include "app/NavState.h"
#include "app/panels/BakePanel.h"
#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

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

// Opening another level while the last one is still baking (a level without a .bin bakes at
// open): that bake is dropped, so its navmesh never arrives labelled as the new level's.
TEST(UnsavedBake, ABakeOfTheLevelBeingReplacedIsDropped) {
  const std::string dir = levelDir("unsaved_replaced");
  navbench::Log log;
  navbench::BakePanel panel;
  ASSERT_TRUE(panel.setSource(dir + "/default.obj", log));
  ASSERT_TRUE(panel.build(log));
  ASSERT_TRUE(panel.setSource(dir + "/default.json", log));
  EXPECT_FALSE(panel.running());
  navbench::NavState nav;
  EXPECT_FALSE(panel.poll(nav, log)) << "the replaced level's bake arrived";
  EXPECT_FALSE(nav.loaded());
  // The new level bakes as usual, under its own name.
  ASSERT_TRUE(panel.build(log));
  for (int i = 0; i < 6000 && !panel.poll(nav, log); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(nav.loaded()) << "no navmesh within 30 s";
  EXPECT_EQ(nav.path(), dir + "/default.json (baked)");
  EXPECT_FALSE(panel.unsavedBake()) << "build() is not the user's bake";
  // Closing the level drops a bake under way too.
  ASSERT_TRUE(panel.build(log));
  panel.clearSource();
  EXPECT_FALSE(panel.running());
  EXPECT_FALSE(panel.poll(nav, log));
}

// The Bake panel's side (no window needed): what counts as unsaved settings, and where they go.
TEST(UnsavedBake, SettingsEditsAreUnsavedUntilWrittenToTheLevelFile) {
  const std::string dir = levelDir("unsaved_settings");
  navbench::Log log;
  navbench::BakePanel panel;
  // A level file source: its settings are updated in place, volumes and links kept.
  nav::bake::Level before;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelFile(dir + "/default.json", &before, &why)) << why;
  ASSERT_TRUE(panel.setSource(dir + "/default.json", log));
  EXPECT_FALSE(panel.unsaved());
  panel.settings.cellSize += 0.1f;
  EXPECT_TRUE(panel.settingsChanged());
  EXPECT_TRUE(panel.unsaved());
  EXPECT_FALSE(panel.unsavedBake());
  EXPECT_EQ(panel.levelFilePath(), dir + "/default.json");
  ASSERT_TRUE(panel.saveSettings(log));
  EXPECT_FALSE(panel.unsaved());
  nav::bake::Level after;
  ASSERT_TRUE(nav::bake::loadLevelFile(dir + "/default.json", &after, &why)) << why;
  EXPECT_EQ(after.settings.cellSize, panel.settings.cellSize);
  EXPECT_EQ(after.objPath, before.objPath);
  EXPECT_EQ(after.volumes.size(), before.volumes.size());
  EXPECT_EQ(after.links.size(), before.links.size());
  EXPECT_GT(before.volumes.size() + before.links.size(), 0u) << "the default level has volumes and links to keep";

  // An OBJ source whose sibling level file names it: that file is updated.
  ASSERT_TRUE(panel.setSource(dir + "/default.obj", log));
  EXPECT_FALSE(panel.unsaved());
  panel.settings.agentRadius = 0.4f;
  ASSERT_TRUE(panel.saveSettings(log));
  ASSERT_TRUE(nav::bake::loadLevelFile(dir + "/default.json", &after, &why)) << why;
  EXPECT_EQ(after.settings.agentRadius, 0.4f);
  EXPECT_EQ(after.volumes.size(), before.volumes.size());

  // An OBJ alone: a new level file beside it, which bakes like the OBJ with those settings.
  const std::string solo = levelDir("unsaved_settings_solo");
  std::filesystem::remove(solo + "/default.json");
  ASSERT_TRUE(panel.setSource(solo + "/default.obj", log));
  panel.settings.tileSize = 48;
  ASSERT_TRUE(panel.saveSettings(log));
  nav::bake::BakeInput in;
  nav::bake::BakeSettings s;
  ASSERT_TRUE(nav::bake::loadBakeInput(solo + "/default.json", &in, &s, &why)) << why;
  EXPECT_EQ(s.tileSize, 48);
  EXPECT_FALSE(panel.unsaved());

  // A sibling level file for another OBJ is not overwritten.
  const std::string other = levelDir("unsaved_settings_other");
  std::filesystem::copy_file(other + "/default.obj", other + "/second.obj");
  std::filesystem::copy_file(other + "/default.json", other + "/second.json"); // still names default.obj
  const std::string text = [&] {
    std::ifstream f(other + "/second.json");
    return std::string(std::istreambuf_iterator<char>(f), {});
  }();
  ASSERT_TRUE(panel.setSource(other + "/second.obj", log));
  panel.settings.cellSize = 0.5f;
  EXPECT_FALSE(panel.saveSettings(log));
  EXPECT_TRUE(panel.unsaved());
  std::ifstream f(other + "/second.json");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(f), {}), text);
  bool named = false;
  for (const navbench::LogEntry& e : log.entries())
    if (e.text.find("second.json") != std::string::npos && e.text.find("not changed") != std::string::npos) named = true;
  EXPECT_TRUE(named) << "the refusal names the file";
  panel.discard();
  EXPECT_FALSE(panel.unsaved());
}

} // namespace
