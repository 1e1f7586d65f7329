// ObstacleFileTest.cpp: the obstacle list of `navbench obstacles` (nav/tilecache/ObstacleFile.h):
// every kind parsed with its numbers, comments and line ends, and every bad line refused with
// "FILE:LINE: problem", all of them listed, the output untouched.
#include "nav/tilecache/ObstacleFile.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

using namespace nav::tilecache;

bool parse(const std::string& text, ObstacleList* out, std::string* why) {
  return parseObstacles(text.data(), text.size(), "obst.txt", out, why);
}

/// Expects `text` refused with a message containing "obst.txt:LINE: " and `what`.
void expectBad(const std::string& text, int line, const std::string& what) {
  ObstacleList out;
  out.obstacleCount = 77;
  std::string why;
  EXPECT_FALSE(parse(text, &out, &why)) << text;
  const std::string at = "obst.txt:" + std::to_string(line) + ": ";
  EXPECT_NE(why.find(at), std::string::npos) << "expected " << at << " in: " << why;
  EXPECT_NE(why.find(what), std::string::npos) << "expected '" << what << "' in: " << why;
  EXPECT_EQ(out.obstacleCount, 77) << "a refused file changed the output";
}

TEST(ObstacleFile, ParsesEveryKind) {
  const std::string text =
      "# a door and two crates\r\n"
      "cylinder 1 2 3 0.5 2   # trailing comment\r\n"
      "\n"
      "   \t\n"
      "box -1 0 -2 1 1.5 2\n"
      "obox 10 0 10 1 1 2 0.785398\n"
      "remove 2\n"
      "cylinder 1e1 -0 +3 .25 1E0";
  ObstacleList l;
  std::string why;
  ASSERT_TRUE(parse(text, &l, &why)) << why;
  ASSERT_EQ(l.entries.size(), 5u);
  EXPECT_EQ(l.obstacleCount, 4);
  EXPECT_EQ(l.removeCount, 1);
  const ObstacleEntry& c = l.entries[0];
  EXPECT_EQ(c.kind, ObstacleKind::Cylinder);
  EXPECT_EQ(c.line, 2);
  EXPECT_EQ(c.obstacle, 0);
  EXPECT_FLOAT_EQ(c.v[0], 1);
  EXPECT_FLOAT_EQ(c.v[2], 3);
  EXPECT_FLOAT_EQ(c.v[3], 0.5f);
  EXPECT_FLOAT_EQ(c.v[4], 2);
  const ObstacleEntry& b = l.entries[1];
  EXPECT_EQ(b.kind, ObstacleKind::Box);
  EXPECT_EQ(b.line, 5);
  EXPECT_EQ(b.obstacle, 1);
  EXPECT_FLOAT_EQ(b.v[0], -1);
  EXPECT_FLOAT_EQ(b.v[4], 1.5f);
  const ObstacleEntry& o = l.entries[2];
  EXPECT_EQ(o.kind, ObstacleKind::OrientedBox);
  EXPECT_EQ(o.obstacle, 2);
  EXPECT_FLOAT_EQ(o.v[5], 2);
  EXPECT_FLOAT_EQ(o.v[6], 0.785398f);
  const ObstacleEntry& r = l.entries[3];
  EXPECT_EQ(r.kind, ObstacleKind::Remove);
  EXPECT_EQ(r.line, 7);
  EXPECT_EQ(r.obstacle, 1); // "remove 2": the box
  const ObstacleEntry& c2 = l.entries[4];
  EXPECT_EQ(c2.obstacle, 3);
  EXPECT_FLOAT_EQ(c2.v[0], 10);
  EXPECT_FLOAT_EQ(c2.v[3], 0.25f);

  // Empty and comment-only files are valid (nothing to apply).
  ASSERT_TRUE(parse("", &l, &why)) << why;
  EXPECT_TRUE(l.entries.empty());
  ASSERT_TRUE(parse("# nothing\n\n", &l, &why)) << why;
  EXPECT_TRUE(l.entries.empty());
}

TEST(ObstacleFile, RefusesUnknownKindsAndArity) {
  expectBad("cylinder 0 0 0 1 1\nsphere 1 2 3 4\n", 2, "unknown kind 'sphere'");
  expectBad("Cylinder 0 0 0 1 1\n", 1, "unknown kind 'Cylinder'");
  expectBad("cylinder 0 0 0 1\n", 1, "cylinder takes 5 numbers, got 4 (cylinder X Y Z RADIUS HEIGHT)");
  expectBad("cylinder 0 0 0 1 1 1\n", 1, "cylinder takes 5 numbers, got 6");
  expectBad("box 0 0 0 1 1\n", 1, "box takes 6 numbers, got 5");
  expectBad("obox 0 0 0 1 1 1\n", 1, "obox takes 7 numbers, got 6");
  expectBad("cylinder 0 0 0 1 1\nremove\n", 2, "remove takes 1 number, got 0");
  expectBad("cylinder 0 0 0 1 1\nremove 1 2\n", 2, "remove takes 1 number, got 2");
}

TEST(ObstacleFile, RefusesBadNumbers) {
  expectBad("cylinder 0 0 zero 1 1\n", 1, "Z 'zero' is not a number");
  expectBad("cylinder 0 0 1,5 1 1\n", 1, "Z '1,5' is not a number");
  expectBad("cylinder nan 0 0 1 1\n", 1, "X is NaN");
  expectBad("box 0 0 0 inf 1 1\n", 1, "MAXX inf is out of range");
  expectBad("box -infinity 0 0 1 1 1\n", 1, "MINX -infinity is out of range");
  expectBad("cylinder 1e30 0 0 1 1\n", 1, "X 1e30 is out of range (at most 10000000 in magnitude)");
  expectBad("obox 0 0 0 1 1 1 1e400\n", 1, "YAW 1e400 is out of range");
  expectBad("cylinder 0 0 0 1 1\nremove 1.5\n", 2, "remove N: '1.5' is not a whole number");
  expectBad("cylinder 0 0 0 1 1\nremove 99999999999999999999999\n", 2, "is not a whole number");
}

TEST(ObstacleFile, RefusesNonPositiveSizes) {
  expectBad("cylinder 0 0 0 0 1\n", 1, "RADIUS 0 must be > 0");
  expectBad("cylinder 0 0 0 -1 1\n", 1, "RADIUS -1 must be > 0");
  expectBad("cylinder 0 0 0 1 0\n", 1, "HEIGHT 0 must be > 0");
  expectBad("box 0 0 0 0 1 1\n", 1, "MAXX 0 must be greater than MINX 0");
  expectBad("box 0 0 0 1 1 -1\n", 1, "MAXZ -1 must be greater than MINZ 0");
  expectBad("obox 0 0 0 1 0 1 0\n", 1, "HY 0 must be > 0");
  expectBad("obox 0 0 0 1 1 -2 0\n", 1, "HZ -2 must be > 0");
}

TEST(ObstacleFile, RefusesBadRemoves) {
  expectBad("remove 1\n", 1, "remove 1: there are 0 obstacle lines above this line");
  expectBad("cylinder 0 0 0 1 1\nremove 0\n", 2, "remove 0: there is 1 obstacle line above this line");
  expectBad("cylinder 0 0 0 1 1\nremove -3\n", 2, "remove -3: there is 1 obstacle line");
  expectBad("cylinder 0 0 0 1 1\nremove 2\nbox 0 0 0 1 1 1\n", 2, "remove 2: there is 1 obstacle line above this line");
  // A remove line is not an obstacle line: "remove 2" here means the box, "remove 3" nothing.
  expectBad("cylinder 0 0 0 1 1\nremove 1\nbox 0 0 0 1 1 1\nremove 3\n", 4, "remove 3: there are 2 obstacle lines");
  // Bad obstacle lines keep their numbers: "remove 2" is the box whatever is wrong with line 1.
  expectBad("cylinder 0 0 0 -1 1\nremove 1\n", 2, "remove 1: obstacle 1 (line 1) is itself refused");
  expectBad("sphere 1\ncylinder 0 0 0 1\nbox 0 0 0 1 1 1\nremove 3\n", 4, "remove 3: there are 2 obstacle lines");
  expectBad("cylinder 0 0 0 1 1\n# c\nremove 1\nremove 1\n", 4,
            "remove 1: obstacle 1 (line 1) was already removed at line 3");
}

TEST(ObstacleFile, ListsEveryBadLine) {
  ObstacleList out;
  std::string why;
  EXPECT_FALSE(parse("cylinder 0 0 0 1 1\nbogus\nbox 0 0 0 1 1 1\ncylinder 0 0 0 -1 1\nremove 9\n", &out, &why));
  EXPECT_NE(why.find("obst.txt:2: unknown kind 'bogus'"), std::string::npos) << why;
  EXPECT_NE(why.find("obst.txt:4: cylinder: RADIUS -1 must be > 0"), std::string::npos) << why;
  EXPECT_NE(why.find("obst.txt:5: remove 9"), std::string::npos) << why;
  EXPECT_EQ(why.find("obst.txt:1:"), std::string::npos) << why;
  EXPECT_EQ(why.find("obst.txt:3:"), std::string::npos) << why;
  // Many bad lines: the first OBSTACLE_MAX_ERRORS, then a count.
  std::string many;
  for (int i = 0; i < 50; ++i) many += "nope\n";
  EXPECT_FALSE(parse(many, &out, &why));
  EXPECT_NE(why.find("obst.txt:20: unknown kind"), std::string::npos) << why;
  EXPECT_EQ(why.find("obst.txt:21: "), std::string::npos) << why;
  EXPECT_NE(why.find("... and 30 more bad lines"), std::string::npos) << why;
  // Binary junk is refused, not parsed.
  const std::string nul("cylinder 0 0 0 1 1\0\n", 20);
  EXPECT_FALSE(parse(nul, &out, &why));
  EXPECT_NE(why.find("obst.txt:1: a NUL byte"), std::string::npos) << why;
}

TEST(ObstacleFile, LoadsFromAFileAndNamesIt) {
  const std::string path = testing::TempDir() + "navbench_obst_" + std::to_string(::getpid()) + ".txt";
  {
    std::ofstream f(path, std::ios::binary);
    f << "box 0 0 0 1 1 1\nbox 1 1 1 0 0 0\n";
  }
  ObstacleList out;
  std::string why;
  EXPECT_FALSE(loadObstacleFile(path, &out, &why));
  EXPECT_NE(why.find(path + ":2: box: MAXX 0 must be greater than MINX 1"), std::string::npos) << why;
  {
    std::ofstream f(path, std::ios::binary);
    f << "box 0 0 0 1 1 1\n";
  }
  ASSERT_TRUE(loadObstacleFile(path, &out, &why)) << why;
  EXPECT_EQ(out.obstacleCount, 1);
  std::remove(path.c_str());
  EXPECT_FALSE(loadObstacleFile(path, &out, &why));
  EXPECT_NE(why.find(path + ": cannot open"), std::string::npos) << why;
}

} // namespace
