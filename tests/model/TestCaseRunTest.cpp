// TestCaseRunTest.cpp: app/model/TestCaseRun on the committed default level: the committed
// expectations hold, edited ones fail with the difference (a length inside the documented
// tolerance, 1e-3 wu + 1e-4 * len, still passes), and expectations written from the results give
// the committed file back.
#include "app/model/TestCaseFile.h"
#include "app/model/TestCaseRun.h"

#include "TestCaseTestUtil.h"

#include "nav/NavMeshQuery.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace navbench::testcase_test;
using navbench::TestCase;
using navbench::TestCaseResult;

struct CaseRun {
  std::vector<TestCase> cases;
  std::vector<TestCaseResult> results;
};

/// Reads and runs the committed cases on default.bin (fails the test on a load error).
void runCommitted(CaseRun* run) {
  std::string why;
  ASSERT_TRUE(navbench::readTestCaseFile(kCasesPath, run->cases, &why)) << why;
  static std::unique_ptr<nav::NavMesh> mesh = loadDefaultMesh();
  ASSERT_TRUE(mesh) << kMeshPath;
  nav::NavMeshQuery q;
  ASSERT_TRUE(nav::statusSucceeded(q.init(mesh.get(), navbench::kTestCaseMaxNodes)));
  navbench::TestCaseRunner runner;
  run->results.resize(run->cases.size());
  navbench::TestCaseTimes times;
  for (size_t i = 0; i < run->cases.size(); ++i) runner.run(q, nullptr, run->cases[i], run->results[i], &times);
  EXPECT_EQ(times.calls[navbench::TC_NEAREST], 2 * int(run->cases.size())); // start and end, every case
}

TEST(TestCaseRun, CommittedExpectationsHoldOnTheDefaultLevel) {
  CaseRun run;
  runCommitted(&run);
  ASSERT_EQ(run.cases.size(), 17u);
  for (size_t i = 0; i < run.cases.size(); ++i) {
    std::vector<std::string> diffs;
    EXPECT_TRUE(navbench::checkExpect(run.cases[i], run.results[i], &diffs)) << "case " << i << ": " << diffs[0];
  }
  EXPECT_EQ(navbench::resultStatus(run.cases[0], run.results[0]), "complete");
  EXPECT_TRUE(run.results[0].found());
  EXPECT_EQ(navbench::resultStatus(run.cases[2], run.results[2]), "hit");
}

TEST(TestCaseRun, EditedExpectationsFailWithTheDifference) {
  CaseRun run;
  runCommitted(&run);
  ASSERT_GE(run.cases.size(), 4u);
  std::vector<std::string> diffs;

  TestCase corridor = run.cases[1]; // pf
  corridor.expect.corridor += 1;
  EXPECT_FALSE(navbench::checkExpect(corridor, run.results[1], &diffs));
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].rfind("corridor ", 0), 0u) << diffs[0];

  TestCase ray = run.cases[2]; // rc, hit
  ASSERT_TRUE(ray.expect.hasT);
  ray.expect.t += 0.01f;
  diffs.clear();
  EXPECT_FALSE(navbench::checkExpect(ray, run.results[2], &diffs));
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].rfind("t ", 0), 0u) << diffs[0];

  TestCase nearLen = run.cases[0]; // 0.0005 wu is inside the tolerance
  nearLen.expect.len += 0.0005f;
  diffs.clear();
  EXPECT_TRUE(navbench::checkExpect(nearLen, run.results[0], &diffs)) << diffs[0];

  TestCase farLen = run.cases[3];
  farLen.expect.len += 0.05f;
  diffs.clear();
  EXPECT_FALSE(navbench::checkExpect(farLen, run.results[3], &diffs));
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].rfind("len ", 0), 0u) << diffs[0];
}

// What `navbench query --write-expected` writes: the bare file filled in from the results is the
// committed file, byte for byte.
TEST(TestCaseRun, ExpectationsFromResultsGiveTheCommittedFileBack) {
  CaseRun run;
  runCommitted(&run);
  const std::string committed = readText(kCasesPath);
  std::string bare;
  for (const std::string& l : splitLines(committed))
    if (!isExpectLine(l)) bare += l + "\n";
  std::vector<TestCase> bareCases;
  std::string why;
  ASSERT_TRUE(navbench::parseTestCases(bare, "bare.txt", bareCases, &why)) << why;
  ASSERT_EQ(bareCases.size(), run.cases.size());
  std::vector<std::string> lines;
  for (size_t i = 0; i < bareCases.size(); ++i)
    lines.push_back(navbench::formatExpect(bareCases[i].raycast, navbench::expectFromResult(bareCases[i], run.results[i])));
  EXPECT_EQ(navbench::replaceExpectations(bare, bareCases, lines), committed);
}

} // namespace
