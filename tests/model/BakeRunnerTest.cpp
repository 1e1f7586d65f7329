// The bake runner (app/model/BakeRunner.h) without its panel: a bake of the level replaced is
// dropped, what is unsaved (settings, edits, a bake by the user) and where saving writes it.
#include "app/Log.h"
#include "app/NavState.h"
#include "app/model/BakeRunner.h"
#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"
#include "tests/model/EditFixture.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace {

using navbench::test::defaultLevelCopy;

/// Polls until the runner's bake arrives in `nav` (at most 30 s).
bool waitForBake(navbench::BakeRunner& runner, navbench::NavState& nav, navbench::Log& log) {
  for (int i = 0; i < 6000; ++i) {
    if (runner.poll(nav, log)) return true;
    if (!runner.running()) return runner.poll(nav, log); // (it may have ended since the poll)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// Opening another level while the last one is still baking (a level without a .bin bakes at
// open): that bake is dropped, so its navmesh never arrives labelled as the new level's.
TEST(BakeRunner, ABakeOfTheLevelBeingReplacedIsDropped) {
  const std::string dir = defaultLevelCopy("unsaved_replaced");
  navbench::Log log;
  navbench::BakeRunner runner;
  ASSERT_TRUE(runner.setSource(dir + "/default.obj", log));
  ASSERT_TRUE(runner.build(log));
  ASSERT_TRUE(runner.setSource(dir + "/default.json", log));
  EXPECT_FALSE(runner.running());
  navbench::NavState nav;
  EXPECT_FALSE(runner.poll(nav, log)) << "the replaced level's bake arrived";
  EXPECT_FALSE(nav.loaded());
  // The new level bakes as usual, under its own name.
  ASSERT_TRUE(runner.build(log));
  for (int i = 0; i < 6000 && !runner.poll(nav, log); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(nav.loaded()) << "no navmesh within 30 s";
  EXPECT_EQ(nav.path(), dir + "/default.json (baked)");
  EXPECT_FALSE(runner.unsavedBake()) << "build() is not the user's bake";
  // Closing the level drops a bake under way too.
  ASSERT_TRUE(runner.build(log));
  runner.clearSource();
  EXPECT_FALSE(runner.running());
  EXPECT_FALSE(runner.poll(nav, log));
}

// What counts as unsaved settings, and where they go.
TEST(BakeRunner, SettingsEditsAreUnsavedUntilWrittenToTheLevelFile) {
  const std::string dir = defaultLevelCopy("unsaved_settings");
  navbench::Log log;
  navbench::BakeRunner runner;
  // A level file source: its settings are updated in place, volumes and links kept.
  nav::bake::Level before;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelFile(dir + "/default.json", &before, &why)) << why;
  ASSERT_TRUE(runner.setSource(dir + "/default.json", log));
  EXPECT_FALSE(runner.unsaved());
  runner.settings.cellSize += 0.1f;
  EXPECT_TRUE(runner.settingsChanged());
  EXPECT_TRUE(runner.unsaved());
  EXPECT_FALSE(runner.unsavedBake());
  EXPECT_EQ(runner.levelFilePath(), dir + "/default.json");
  ASSERT_TRUE(runner.saveSettings(log));
  EXPECT_FALSE(runner.unsaved());
  nav::bake::Level after;
  ASSERT_TRUE(nav::bake::loadLevelFile(dir + "/default.json", &after, &why)) << why;
  EXPECT_EQ(after.settings.cellSize, runner.settings.cellSize);
  EXPECT_EQ(after.objPath, before.objPath);
  EXPECT_EQ(after.volumes.size(), before.volumes.size());
  EXPECT_EQ(after.links.size(), before.links.size());
  EXPECT_GT(before.volumes.size() + before.links.size(), 0u) << "the default level has volumes and links to keep";

  // An OBJ source whose sibling level file names it: that file is updated.
  ASSERT_TRUE(runner.setSource(dir + "/default.obj", log));
  EXPECT_FALSE(runner.unsaved());
  runner.settings.agentRadius = 0.4f;
  ASSERT_TRUE(runner.saveSettings(log));
  ASSERT_TRUE(nav::bake::loadLevelFile(dir + "/default.json", &after, &why)) << why;
  EXPECT_EQ(after.settings.agentRadius, 0.4f);
  EXPECT_EQ(after.volumes.size(), before.volumes.size());

  // An OBJ alone: a new level file beside it, which bakes like the OBJ with those settings.
  const std::string solo = defaultLevelCopy("unsaved_settings_solo");
  std::filesystem::remove(solo + "/default.json");
  ASSERT_TRUE(runner.setSource(solo + "/default.obj", log));
  runner.settings.tileSize = 48;
  ASSERT_TRUE(runner.saveSettings(log));
  nav::bake::BakeInput in;
  nav::bake::BakeSettings s;
  ASSERT_TRUE(nav::bake::loadBakeInput(solo + "/default.json", &in, &s, &why)) << why;
  EXPECT_EQ(s.tileSize, 48);
  EXPECT_FALSE(runner.unsaved());

  // A sibling level file for another OBJ is not overwritten.
  const std::string other = defaultLevelCopy("unsaved_settings_other");
  std::filesystem::copy_file(other + "/default.obj", other + "/second.obj");
  std::filesystem::copy_file(other + "/default.json", other + "/second.json"); // still names default.obj
  const std::string text = [&] {
    std::ifstream f(other + "/second.json");
    return std::string(std::istreambuf_iterator<char>(f), {});
  }();
  ASSERT_TRUE(runner.setSource(other + "/second.obj", log));
  runner.settings.cellSize = 0.5f;
  EXPECT_FALSE(runner.saveSettings(log));
  EXPECT_TRUE(runner.unsaved());
  std::ifstream f(other + "/second.json");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(f), {}), text);
  bool named = false;
  for (const navbench::LogEntry& e : log.entries())
    if (e.text.find("second.json") != std::string::npos && e.text.find("not changed") != std::string::npos) named = true;
  EXPECT_TRUE(named) << "the refusal names the file";
  runner.discard();
  EXPECT_FALSE(runner.unsaved());
}


// Build by the user: unsaved once it arrives, until saved to the .bin; a refused meshToSave
// writes nothing.
TEST(BakeRunner, AUserBakeIsUnsavedUntilSaved) {
  const std::string dir = defaultLevelCopy("runner_user_bake", /*withBin=*/false);
  navbench::Log log;
  navbench::BakeRunner runner;
  navbench::NavState nav;
  EXPECT_FALSE(runner.save(nav, log)) << "nothing open to save";
  ASSERT_TRUE(runner.setSource(dir + "/default.obj", log));
  EXPECT_EQ(std::string(runner.savePath()), dir + "/default.bin");
  ASSERT_TRUE(runner.buildByUser(log));
  EXPECT_TRUE(runner.running());
  EXPECT_FALSE(runner.unsavedBake()) << "unsaved before it arrived";
  ASSERT_TRUE(waitForBake(runner, nav, log)) << "no navmesh within 30 s";
  EXPECT_TRUE(runner.unsavedBake());
  EXPECT_TRUE(runner.unsaved());
  EXPECT_TRUE(runner.failure().empty());
  ASSERT_FALSE(runner.report().empty());
  EXPECT_NE(runner.report().back().find("polys"), std::string::npos) << runner.report().back();

  runner.meshToSave = [](const nav::NavMesh&, std::unique_ptr<nav::NavMesh>*, std::string* why) {
    *why = "refused";
    return false;
  };
  EXPECT_FALSE(runner.save(nav, log));
  EXPECT_FALSE(std::filesystem::exists(dir + "/default.bin"));
  EXPECT_TRUE(runner.unsavedBake());
  runner.meshToSave = nullptr;

  ASSERT_TRUE(runner.saveAll(nav, log));
  EXPECT_FALSE(runner.unsaved());
  nav::NavMesh saved;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(dir + "/default.bin", saved, &why))) << why;
  EXPECT_EQ(navbench::test::meshBytes(saved), navbench::test::meshBytes(nav.mesh()));

  // A bake cancelled says so, and leaves the open navmesh alone.
  ASSERT_TRUE(runner.build(log));
  runner.cancel();
  EXPECT_FALSE(waitForBake(runner, nav, log));
  runner.poll(nav, log);
  EXPECT_EQ(runner.failure(), "was cancelled");
  EXPECT_TRUE(nav.loaded());
}

// Volumes and links edited (LevelEditor's setEdits) are unsaved until written to the level file.
TEST(BakeRunner, EditedVolumesAreUnsavedUntilWrittenToTheLevelFile) {
  const std::string dir = defaultLevelCopy("runner_edits");
  navbench::Log log;
  navbench::BakeRunner runner;
  ASSERT_TRUE(runner.setSource(dir + "/default.json", log));
  const auto volumes = runner.input().volumes;
  ASSERT_FALSE(volumes.empty());
  auto fewer = volumes;
  fewer.pop_back();
  runner.setEdits(fewer, runner.input().links);
  EXPECT_TRUE(runner.editsChanged());
  EXPECT_TRUE(runner.unsaved());
  runner.setEdits(volumes, runner.input().links);
  EXPECT_FALSE(runner.editsChanged()) << "the same volumes again are no change";
  runner.setEdits(fewer, runner.input().links);
  ASSERT_TRUE(runner.saveSettings(log));
  EXPECT_FALSE(runner.unsaved());
  nav::bake::Level level;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelFile(dir + "/default.json", &level, &why)) << why;
  EXPECT_EQ(level.volumes.size(), fewer.size());
  runner.clearSource();
  EXPECT_FALSE(runner.hasSource());
  EXPECT_EQ(runner.levelFilePath(), "");
}

} // namespace
