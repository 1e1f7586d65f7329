// TestCaseSessionTest.cpp: app/model/TestCaseSession, the Test cases panel's state without a
// window: open (good and bad files), run on a navmesh with each case's check, re-run only when the
// navmesh changes, the selected row, the level note, the export line and "Append to file", and
// the JSON the viewer's --dump-state shows.
#include "app/model/TestCaseSession.h"

#include "TestCaseTestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace {

using namespace navbench::testcase_test;
using navbench::TestCaseNote;
using navbench::TestCaseNotes;
using navbench::TestCaseSession;

const nav::NavMesh* defaultMesh() {
  static std::unique_ptr<nav::NavMesh> mesh = loadDefaultMesh();
  return mesh.get();
}

bool hasNote(const TestCaseNotes& notes, TestCaseNote::Level level, const std::string& part) {
  for (const TestCaseNote& n : notes)
    if (n.level == level && n.text.find(part) != std::string::npos) return true;
  return false;
}

TEST(TestCaseSession, OpensAndRunsTheCommittedCasesAllAsExpected) {
  ASSERT_TRUE(defaultMesh()) << kMeshPath;
  TestCaseSession s;
  TestCaseNotes notes;
  ASSERT_TRUE(s.open(kCasesPath, &notes)) << s.error();
  EXPECT_TRUE(hasNote(notes, TestCaseNote::Info, "17 cases (13 pf, 4 rc), 17 with expected results")) << notes[0].text;
  EXPECT_EQ(s.header().geometry, "default.obj");
  EXPECT_FALSE(s.ran());
  EXPECT_EQ(s.result(0), nullptr);
  EXPECT_EQ(s.check(0), -1);
  EXPECT_TRUE(s.stale("mesh 1"));

  notes.clear();
  s.runAll(defaultMesh(), "mesh 1", &notes);
  EXPECT_TRUE(s.ran());
  EXPECT_FALSE(s.stale("mesh 1"));
  EXPECT_TRUE(s.stale("mesh 2")) << "another navmesh: run again";
  EXPECT_EQ(s.passCount(), 17);
  EXPECT_EQ(s.failCount(), 0);
  EXPECT_TRUE(hasNote(notes, TestCaseNote::Info, "ran 17 test cases (x3) in ")) << notes.back().text;
  EXPECT_TRUE(hasNote(notes, TestCaseNote::Info, ": 17 of 17 as expected"));
  for (size_t i = 0; i < s.cases().size(); ++i) {
    EXPECT_EQ(s.check(i), 1) << i;
    EXPECT_EQ(s.diffs(i), "");
    ASSERT_NE(s.result(i), nullptr);
    EXPECT_GT(s.result(i)->us, 0.0);
  }
}

TEST(TestCaseSession, MismatchesAreCheckedAndNoted) {
  std::string text = readText(kCasesPath);
  const std::string from = "corridor=4 straight=2 len=12.3693", to = "corridor=5 straight=2 len=12.3693";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), to);
  const std::string path = writeTemp("session_mismatch.txt", text);
  TestCaseSession s;
  TestCaseNotes notes;
  ASSERT_TRUE(s.open(path, &notes));
  notes.clear();
  s.runAll(defaultMesh(), "m", &notes);
  EXPECT_EQ(s.check(0), 0);
  EXPECT_EQ(s.diffs(0), "corridor 4 polys, expected 5");
  EXPECT_EQ(s.passCount(), 16);
  EXPECT_EQ(s.failCount(), 1);
  EXPECT_TRUE(hasNote(notes, TestCaseNote::Warning, path + ":" + std::to_string(s.cases()[0].line) + ": corridor 4 polys"));
  EXPECT_TRUE(hasNote(notes, TestCaseNote::Warning, "16 of 17 as expected"));
}

TEST(TestCaseSession, ABadFileNamesTheFileAndLineAndHasNoCases) {
  const std::string bad = writeTemp("session_bad.txt", "s Solo Mesh\npf 1 0 1 5 0 5 0xffff 0x0\n# expect status=sideways\n");
  TestCaseSession s;
  TestCaseNotes notes;
  ASSERT_TRUE(s.open(kCasesPath, nullptr));
  ASSERT_TRUE(s.select(3));
  EXPECT_FALSE(s.open(bad, &notes));
  EXPECT_EQ(s.error().rfind(bad + ":3: bad expectation", 0), 0u) << s.error();
  EXPECT_TRUE(s.cases().empty());
  EXPECT_EQ(s.selected(), -1) << "a new file drops the selection";
  EXPECT_TRUE(hasNote(notes, TestCaseNote::Error, bad + ":3"));
  EXPECT_FALSE(s.stale("m")) << "nothing to run";
  EXPECT_FALSE(s.open(std::string(NAVBENCH_MODEL_TEST_TMP) + "/no_such_dir/missing.txt", nullptr));
  EXPECT_NE(s.error().find("missing.txt"), std::string::npos) << s.error();
}

TEST(TestCaseSession, WithoutANavmeshThereAreNoResults) {
  TestCaseSession s;
  ASSERT_TRUE(s.open(kCasesPath, nullptr));
  s.runAll(nullptr, "", nullptr);
  EXPECT_TRUE(s.ran());
  EXPECT_EQ(s.passCount(), 0);
  EXPECT_EQ(s.check(0), -1);
}

TEST(TestCaseSession, SelectionStaysInsideTheTable) {
  TestCaseSession s;
  EXPECT_EQ(s.rowFrom(+1), -1);
  ASSERT_TRUE(s.open(kCasesPath, nullptr));
  EXPECT_EQ(s.rowFrom(+1), 0) << "Down with no selection: the first row";
  EXPECT_FALSE(s.select(17));
  EXPECT_FALSE(s.select(-1));
  EXPECT_EQ(s.selected(), -1);
  ASSERT_TRUE(s.select(0));
  EXPECT_EQ(s.rowFrom(-1), 0);
  EXPECT_EQ(s.rowFrom(+2), 2);
  ASSERT_TRUE(s.select(16));
  EXPECT_EQ(s.rowFrom(+1), 16);
}

TEST(TestCaseSession, LevelNoteWhenTheFileWasMadeOnAnotherLevel) {
  const std::string other = writeTemp("session_other.txt", "s Solo Mesh\nf nav_test.obj\npf 4 0 24 4 3 36 0x3 0x0\n");
  TestCaseSession s;
  ASSERT_TRUE(s.open(other, nullptr));
  s.updateLevelNote("/levels/Default.OBJ", "/levels/default.bin");
  EXPECT_EQ(s.levelNote(), "Made on nav_test.obj; the open level is Default.OBJ: the cases may miss the mesh.");
  s.updateLevelNote("", "");
  EXPECT_EQ(s.levelNote(), "Made on nav_test.obj; the open level is (none): the cases may miss the mesh.");
  s.updateLevelNote("/x/NAV_TEST.obj", "");
  EXPECT_EQ(s.levelNote(), "") << "stems compare case-insensitively";
  s.updateLevelNote("", "/x/nav_test.bin");
  EXPECT_EQ(s.levelNote(), "") << "a tile set of that level counts";
  ASSERT_TRUE(s.open(kCasesPath, nullptr));
  s.updateLevelNote("/a/default.obj", "");
  EXPECT_EQ(s.levelNote(), "");
}

// "Append to file": the export line goes at the end, in the file's line ending, atomically; the
// file is read again (the new case has no expectation yet) and the message names the new case.
TEST(TestCaseSession, AppendExportAddsTheLineAndRereadsTheFile) {
  const std::string original = "s Tile Mesh\r\nf default.obj\r\npf 4 0 24 4 3 36 0xffff 0x0\r\n# expect status=complete";
  const std::string path = writeTemp("session_append.txt", original);
  TestCaseSession s;
  TestCaseNotes notes;
  EXPECT_FALSE(s.appendExport(&notes)) << "no file, no line";
  ASSERT_TRUE(s.open(path, nullptr));
  EXPECT_FALSE(s.appendExport(&notes)) << "no line";
  const float a[3] = {35, 3, 40}, b[3] = {44, 3, 42};
  s.setExportCase(true, a, b, 0x3, 0x10);
  EXPECT_EQ(s.exportLine(), "rc  35.000000 3.000000 40.000000  44.000000 3.000000 42.000000  0x3 0x10");
  s.runAll(defaultMesh(), "m", nullptr);
  ASSERT_TRUE(s.appendExport(&notes));
  EXPECT_EQ(readText(path), original + "\r\n" + s.exportLine() + "\r\n");
  EXPECT_EQ(s.exportMessage(), "appended as case 1");
  EXPECT_TRUE(hasNote(notes, TestCaseNote::Info, "appended '" + s.exportLine() + "' to " + path));
  ASSERT_EQ(s.cases().size(), 2u);
  EXPECT_TRUE(s.cases()[1].raycast);
  EXPECT_EQ(s.cases()[1].inc, 0x3);
  EXPECT_EQ(s.cases()[1].exc, 0x10);
  EXPECT_FALSE(s.ran()) << "the file is read again, to be run again";
  s.runAll(defaultMesh(), "m", nullptr);
  EXPECT_EQ(s.check(0), 1);
  EXPECT_EQ(s.check(1), -1) << "the new case has no expectation yet";
  s.clearExport();
  EXPECT_EQ(s.exportLine(), "");
}

TEST(TestCaseSession, JsonHasTheFileTheResultsAndTheSelection) {
  TestCaseSession s;
  ASSERT_TRUE(s.open(kCasesPath, nullptr));
  s.runAll(defaultMesh(), "m", nullptr);
  ASSERT_TRUE(s.select(2));
  nlohmann::json j;
  s.toJson(j);
  EXPECT_EQ(j["path"], kCasesPath);
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["sample"], "Tile Mesh");
  EXPECT_EQ(j["geometry"], "default.obj");
  EXPECT_EQ(j["ran"], true);
  EXPECT_EQ(j["selected"], 2);
  ASSERT_EQ(j["cases"].size(), 17u);
  const nlohmann::json& pf = j["cases"][0];
  EXPECT_EQ(pf["kind"], "pf");
  EXPECT_EQ(pf["status"], "complete");
  EXPECT_EQ(pf["polys"], 4);
  EXPECT_EQ(pf["straight"], 2);
  EXPECT_NEAR(pf["len"].get<double>(), 12.3693, 1e-3);
  EXPECT_EQ(pf["check"], 1);
  EXPECT_EQ(pf["s"], nlohmann::json({4.0, 0.0, 24.0}));
  const nlohmann::json& rc = j["cases"][2];
  EXPECT_EQ(rc["kind"], "rc");
  EXPECT_EQ(rc["status"], "hit");
  EXPECT_NEAR(rc["t"].get<double>(), 0.243939, 1e-5);
  EXPECT_FALSE(rc.contains("len"));
}

} // namespace
