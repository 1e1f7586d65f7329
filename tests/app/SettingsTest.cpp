// Viewer settings: recent files (order, duplicates, limit) and an atomic save/load round trip.
#include "TestUtil.h"

#include "app/Settings.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

using navbench::Settings;
using navbench::test::TempDir;

TEST(Settings, RecentFilesAreMostRecentFirstWithoutDuplicates) {
  Settings s;
  s.addRecent("/levels/a.obj");
  s.addRecent("/levels/b.obj");
  s.addRecent("/levels/./a.obj"); // same file: moves to the front
  ASSERT_EQ(s.recentFiles.size(), 2u);
  EXPECT_EQ(s.recentFiles[0], "/levels/a.obj");
  EXPECT_EQ(s.recentFiles[1], "/levels/b.obj");
  for (int i = 0; i < 20; ++i) s.addRecent("/levels/" + std::to_string(i) + ".obj");
  EXPECT_EQ(s.recentFiles.size(), Settings::kMaxRecent);
  EXPECT_EQ(s.recentFiles[0], "/levels/19.obj");
  s.addRecent("relative.obj");
  EXPECT_TRUE(std::filesystem::path(s.recentFiles[0]).is_absolute());
}

TEST(Settings, SaveLoadRoundTripIsAtomic) {
  TempDir dir;
  const std::string path = dir.file("sub/dir/settings.ini");
  Settings s;
  s.addRecent("/x/one.obj");
  s.addRecent("/x/two.obj");
  s.windowWidth = 1600;
  s.windowHeight = 900;
  std::string error;
  ASSERT_TRUE(s.save(path, error)) << error;
  // Only the settings file in the directory: no temp file left behind.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path() / "sub/dir")) {
    ++files;
    EXPECT_EQ(e.path().filename(), "settings.ini");
  }
  EXPECT_EQ(files, 1);
  Settings t;
  ASSERT_TRUE(t.load(path, error)) << error;
  EXPECT_EQ(t.recentFiles, s.recentFiles);
  EXPECT_EQ(t.windowWidth, 1600);
  EXPECT_EQ(t.windowHeight, 900);
}

TEST(Settings, MissingFileGivesDefaultsAndGarbageIsIgnored) {
  TempDir dir;
  Settings s;
  std::string error;
  EXPECT_TRUE(s.load(dir.file("none.ini"), error));
  EXPECT_TRUE(s.recentFiles.empty());
  const std::string p = dir.write("s.ini", "junk line\nwindow_width=5\nrecent=/a.obj\nunknown=1\n");
  EXPECT_TRUE(s.load(p, error));
  EXPECT_EQ(s.windowWidth, 1280); // out of range: default kept
  ASSERT_EQ(s.recentFiles.size(), 1u);
  EXPECT_EQ(s.recentFiles[0], "/a.obj");
}

TEST(Settings, DefaultPathFollowsXdgConfigHome) {
  const char* old = std::getenv("XDG_CONFIG_HOME");
  std::string saved = old ? old : "";
  ::setenv("XDG_CONFIG_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(Settings::defaultPath(), "/tmp/xdg-test/navbench/settings.ini");
  if (old)
    ::setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
  else
    ::unsetenv("XDG_CONFIG_HOME");
}
