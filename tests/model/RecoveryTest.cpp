// The recovery journal (app/model/Recovery.h) without the viewer: where it goes, what it holds,
// when it is written and removed, and journals that are refused.
#include "app/model/Recovery.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using navbench::RecoveryJournal;
using navbench::Scenario;

std::string freshDir(const std::string& tag) {
  const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / ("recovery_" + tag);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

/// A scenario of `level` with one unsaved volume, as the viewer journals it.
Scenario edited(const std::string& level, float x) {
  Scenario s;
  s.level = level;
  s.toolName = "Convex Volumes";
  s.camera.target[0] = x;
  s.edits = {{"volumes", nlohmann::json::array({{{"area", 3}, {"hmin", 0.0}, {"hmax", 2.0},
                                                 {"verts", {{x, 0, 0}, {x + 1, 0, 0}, {x, 0, 1}}}}})},
             {"links", nlohmann::json::array()}};
  return s;
}

TEST(Recovery, DirFollowsXdgStateHomeThenHome) {
  const char* oldState = std::getenv("XDG_STATE_HOME");
  const std::string keep = oldState ? oldState : "";
  ::setenv("XDG_STATE_HOME", "/tmp/state", 1);
  EXPECT_EQ(navbench::recoveryDir(), "/tmp/state/navbench/recovery");
  ::unsetenv("XDG_STATE_HOME");
  const char* home = std::getenv("HOME");
  if (home && *home) {
    EXPECT_EQ(navbench::recoveryDir(), std::string(home) + "/.local/state/navbench/recovery");
  }
  if (oldState) ::setenv("XDG_STATE_HOME", keep.c_str(), 1);
}

TEST(Recovery, OneFilePerAbsoluteLevelPath) {
  const std::string a = navbench::recoveryPath("/d", "/levels/a.json");
  EXPECT_EQ(fs::path(a).parent_path(), fs::path("/d"));
  EXPECT_EQ(fs::path(a).extension(), ".json");
  EXPECT_EQ(fs::path(a).stem().string().size(), 16u) << a;
  EXPECT_EQ(a, navbench::recoveryPath("/d", "/levels/x/../a.json")) << "the same file, spelled otherwise";
  EXPECT_NE(a, navbench::recoveryPath("/d", "/levels/b.json"));
  const std::string rel = fs::relative(fs::path(NAVBENCH_MODEL_TEST_TMP) / "l.obj").string();
  EXPECT_EQ(navbench::recoveryPath("/d", rel), navbench::recoveryPath("/d", fs::absolute(rel).string()));
  EXPECT_EQ(navbench::recoveryPath("", "/levels/a.json"), "") << "no state folder: no journal";
  EXPECT_EQ(navbench::recoveryPath("/d", ""), "");
}

TEST(Recovery, WriteAndReadBack) {
  const std::string dir = freshDir("roundtrip");
  RecoveryJournal j(dir);
  const std::string level = dir + "/level.json";
  j.setLevel(level);
  EXPECT_FALSE(j.exists());
  std::string why;
  ASSERT_TRUE(j.write(edited(level, 4.5f), why)) << why;
  EXPECT_TRUE(j.exists());
  EXPECT_TRUE(j.owned());
  // Atomic: no temporary file left beside it.
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.path().extension() == ".json" ? 1 : 100;
  EXPECT_EQ(files, 1);

  RecoveryJournal later(dir); // the next session
  later.setLevel(level);
  EXPECT_FALSE(later.owned());
  Scenario back;
  ASSERT_TRUE(later.read(back, why)) << why;
  EXPECT_EQ(back.level, level);
  EXPECT_EQ(back.camera.target[0], 4.5f);
  EXPECT_EQ(back.edits, edited(level, 4.5f).edits);
  EXPECT_EQ(navbench::toJson(back), navbench::toJson(edited(level, 4.5f))) << "written as a scenario file";
}

TEST(Recovery, UpdateWritesOnChangeAndRemovesWhenClean) {
  const std::string dir = freshDir("update");
  RecoveryJournal j(dir);
  const std::string level = dir + "/level.obj";
  j.setLevel(level);
  int built = 0;
  float x = 1;
  auto scenario = [&] {
    ++built;
    return edited(level, x);
  };
  std::string why;
  ASSERT_TRUE(j.update(false, "", scenario, why));
  EXPECT_FALSE(j.exists()) << "nothing unsaved: no journal";
  ASSERT_TRUE(j.update(true, "edit 1", scenario, why)) << why;
  EXPECT_TRUE(j.exists());
  EXPECT_EQ(j.writes(), 1);
  ASSERT_TRUE(j.update(true, "edit 1", scenario, why));
  EXPECT_EQ(j.writes(), 1) << "same history: not written again";
  EXPECT_EQ(built, 1) << "the scenario is built only to be written";
  x = 2;
  ASSERT_TRUE(j.update(true, "edit 2", scenario, why));
  EXPECT_EQ(j.writes(), 2);
  Scenario back;
  ASSERT_TRUE(j.read(back, why)) << why;
  EXPECT_EQ(back.camera.target[0], 2.0f);
  // A signal: written now, whatever the signature.
  x = 3;
  ASSERT_TRUE(j.flush(true, scenario, why));
  ASSERT_TRUE(j.read(back, why));
  EXPECT_EQ(back.camera.target[0], 3.0f);
  // Saved or discarded (clean again): removed.
  ASSERT_TRUE(j.update(false, "", scenario, why));
  EXPECT_FALSE(j.exists());
  EXPECT_FALSE(j.owned());
  ASSERT_TRUE(j.flush(false, scenario, why));
  EXPECT_FALSE(j.exists()) << "a signal with nothing unsaved writes nothing";
}

TEST(Recovery, ACleanSessionLeavesAnotherSessionsJournal) {
  const std::string dir = freshDir("other");
  const std::string level = dir + "/level.json";
  RecoveryJournal first(dir);
  first.setLevel(level);
  std::string why;
  ASSERT_TRUE(first.write(edited(level, 1), why)) << why;
  RecoveryJournal second(dir); // opened the level, not answered the prompt yet, nothing edited
  second.setLevel(level);
  ASSERT_TRUE(second.update(false, "", [&] { return edited(level, 9); }, why));
  EXPECT_TRUE(second.exists()) << "only this session's own journal is removed when clean";
  // Restored: the session owns it and removes it once saved.
  second.adopt();
  ASSERT_TRUE(second.update(false, "", [&] { return edited(level, 9); }, why));
  EXPECT_FALSE(second.exists());
}

TEST(Recovery, RemoveOnDiscard) {
  const std::string dir = freshDir("discard");
  RecoveryJournal j(dir);
  j.setLevel(dir + "/level.json");
  std::string why;
  ASSERT_TRUE(j.write(edited(dir + "/level.json", 1), why)) << why;
  ASSERT_TRUE(j.remove(why)) << why;
  EXPECT_FALSE(j.exists());
  EXPECT_TRUE(j.remove(why)) << "no journal is not an error";
}

TEST(Recovery, HostileJournalsAreRefusedNamingTheFile) {
  const std::string dir = freshDir("hostile");
  const std::string level = dir + "/level.json";
  RecoveryJournal j(dir);
  j.setLevel(level);
  const Scenario sentinel = edited(level, 7);
  struct Case {
    const char* what;
    std::string text;
    const char* expect;
  };
  const Case cases[] = {
      {"not JSON", "{\"navbenchScenario\": 1, \"level\": ", ""},
      {"not a scenario", "[1, 2, 3]", ""},
      {"a NaN camera", navbench::toJson(edited(level, 1)).replace(navbench::toJson(edited(level, 1)).find("\"distance\""), 16,
                                                                   "\"distance\": NaN,"),
       ""},
      {"another level", navbench::toJson(edited(dir + "/other.json", 1)), "other.json"},
      {"no level", "{\"navbenchScenario\": 1, \"level\": \"\", \"navmesh\": \"x.bin\", \"camera\": {}, \"tool\": {\"name\": \"Pick\"}, "
                   "\"filter\": {}}",
       ""},
      {"a future version", "{\"navbenchScenario\": 99}", ""},
  };
  for (const Case& c : cases) {
    std::ofstream(j.path(), std::ios::binary) << c.text;
    Scenario out = sentinel;
    std::string why;
    EXPECT_FALSE(j.read(out, why)) << c.what;
    EXPECT_NE(why.find(j.path()), std::string::npos) << c.what << ": the message names the journal: " << why;
    if (*c.expect) {
      EXPECT_NE(why.find(c.expect), std::string::npos) << c.what << ": " << why;
    }
    EXPECT_EQ(navbench::toJson(out), navbench::toJson(sentinel)) << c.what << ": nothing changes";
    EXPECT_TRUE(j.exists()) << c.what << ": a refused journal is left for the user";
  }
  // A directory where the journal goes: written nowhere, said.
  fs::remove(j.path());
  fs::create_directories(fs::path(j.path()) / "x");
  std::string why;
  EXPECT_FALSE(j.write(sentinel, why));
  EXPECT_NE(why.find(j.path()), std::string::npos) << why;
}

} // namespace
