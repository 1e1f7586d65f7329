// TestCaseFileTest.cpp: app/model/TestCaseFile (RecastDemo test-case text with '# expect' lines):
// parse errors name the file, line and problem; expectation lines are replaced, not duplicated,
// in the file's own line ending.
#include "app/model/TestCaseFile.h"

#include "TestCaseTestUtil.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using navbench::TestCase;
using navbench::TestCaseHeader;

TEST(TestCaseFile, MalformedExpectationsAreParseErrors) {
  struct Bad {
    const char* text;
    int line;
    const char* problem;
  };
  const Bad bads[] = {
      {"pf 1 0 1 5 0 5 0xffff 0x0\n# expect status=hit\n", 2, "status 'hit' is not one of complete"},
      {"rc 1 0 1 5 0 5 0xffff 0x0\n# expect status=hit t=abc\n", 2, "t='abc'"},
      {"pf 1 0 1 5 0 5 0xffff 0x0\n\n# expect corridor=-3\n", 3, "corridor='-3' is not a count"},
      {"rc 1 0 1 5 0 5 0xffff 0x0\n# expect normal=0,1\n", 2, "normal='0,1' is not x,y,z"},
      {"pf 1 0 1 5 0 5 0xffff 0x0\n# expect visited=3\n", 2, "unknown key 'visited' for a pf case"},
      {"s Solo Mesh\n# expect status=complete\npf 1 0 1 5 0 5 0xffff 0x0\n", 2, "no pf/rc line above it"},
      {"pf 1 0 1 5 0 5 0xffff 0x0\n# expect len=3\n# expect len=4\n", 3, "already has one (line 2)"},
      {"pf 1 0 1 5 0 5 0xffff 0x0\n# expect\n", 2, "no key=value"},
      {"pf 1 0 1 5 0 5 0xffff 0x0\n# expect len=1 len=2\n", 2, "given twice"},
  };
  for (const Bad& b : bads) {
    std::vector<TestCase> cases;
    std::string why;
    EXPECT_FALSE(navbench::parseTestCases(b.text, "cases.txt", cases, &why)) << b.text;
    EXPECT_EQ(why.rfind("cases.txt:" + std::to_string(b.line) + ": bad expectation: ", 0), 0u) << b.text << why;
    EXPECT_NE(why.find(b.problem), std::string::npos) << b.text << why;
  }
}

TEST(TestCaseFile, OrdinaryCommentsStayComments) {
  std::vector<TestCase> cases;
  TestCaseHeader header;
  std::string why;
  ASSERT_TRUE(navbench::parseTestCases("# expected results below\n#\npf 1 0 1 5 0 5 0xffff 0x0\n# expect len=0\n", "c.txt",
                                       cases, &why, &header))
      << why;
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(header.expectCount, 1);
  EXPECT_TRUE(cases[0].expect.present);
  EXPECT_EQ(cases[0].expect.line, 4);
  EXPECT_TRUE(cases[0].expect.hasLen);
}

TEST(TestCaseFile, HeaderAndCasesOfTheCommittedFile) {
  std::vector<TestCase> cases;
  TestCaseHeader header;
  std::string why;
  ASSERT_TRUE(navbench::readTestCaseFile(navbench::testcase_test::kCasesPath, cases, &why, &header)) << why;
  EXPECT_EQ(header.sample, "Tile Mesh");
  EXPECT_EQ(header.geometry, "default.obj");
  ASSERT_EQ(cases.size(), 17u);
  EXPECT_EQ(header.expectCount, 17);
  EXPECT_FALSE(cases[0].raycast);
  EXPECT_TRUE(cases[2].raycast);
  EXPECT_EQ(navbench::formatCase(cases[0]), "pf  4.000000 0.000000 24.000000  4.000000 3.000000 36.000000  0xffff 0x0");
  EXPECT_EQ(navbench::formatExpect(false, cases[0].expect), "# expect status=complete corridor=4 straight=2 len=12.3693");
}

// Stale expectations are replaced (not duplicated), other lines kept, CRLF kept.
TEST(TestCaseFile, ReplaceExpectationsKeepsOtherLinesAndCrlf) {
  const std::string text = "s Tile Mesh\r\nf default.obj\r\npf 4 0 24 4 3 36 0xffff 0x0\r\n# expect corridor=77\r\n# note\r\n"
                           "rc 1 0 1 5 0 5 0xffff 0x0\r\n";
  std::vector<TestCase> cases;
  std::string why;
  ASSERT_TRUE(navbench::parseTestCases(text, "crlf.txt", cases, &why)) << why;
  ASSERT_EQ(cases.size(), 2u);
  const std::string out = navbench::replaceExpectations(text, cases, {"# expect corridor=4", ""});
  EXPECT_EQ(out, "s Tile Mesh\r\nf default.obj\r\npf 4 0 24 4 3 36 0xffff 0x0\r\n# expect corridor=4\r\n# note\r\n"
                 "rc 1 0 1 5 0 5 0xffff 0x0\r\n");
}

} // namespace
