// CheckLevelSeedsTest.cpp: a level file's `seeds` (nav/bake/LevelFile.h), which `navbench check`
// floods reachability from when no --seeds is given: read strictly, saved back, and used by the CLI.
#include "CheckTempDir.h"
#include "nav/bake/LevelFile.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <iterator>

namespace {

class LevelSeeds : public checktest::TempDirTest {
protected:
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = dir + "/" + name;
    std::ofstream(p) << text;
    return p;
  }
};

} // namespace

TEST_F(LevelSeeds, ReadSavedAndReadBack) {
  const std::string p = write("l.json", R"({"obj": "x.obj", "seeds": [[1, 2, 3], [-4.5, 0, 1e3]]})");
  nav::bake::Level lv;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelFile(p, &lv, &why)) << why;
  ASSERT_EQ(lv.seeds.size(), 2u);
  EXPECT_EQ(lv.seeds[0], (std::array<float, 3>{1, 2, 3}));
  EXPECT_EQ(lv.seeds[1], (std::array<float, 3>{-4.5f, 0, 1000}));
  const std::string q = dir + "/saved.json";
  ASSERT_TRUE(nav::bake::saveLevelFile(q, lv, &why)) << why;
  nav::bake::Level again;
  ASSERT_TRUE(nav::bake::loadLevelFile(q, &again, &why)) << why;
  EXPECT_EQ(again.seeds, lv.seeds);
  // No seeds: none written (older level files stay as they were).
  lv.seeds.clear();
  ASSERT_TRUE(nav::bake::saveLevelFile(q, lv, &why)) << why;
  std::ifstream f(q);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("seeds"), std::string::npos) << text;
}

TEST_F(LevelSeeds, BadSeedsNamed) {
  nav::bake::Level lv;
  std::string why;
  for (const char* bad : {R"({"obj": "x.obj", "seeds": [[1, 2]]})", R"({"obj": "x.obj", "seeds": [1, 2, 3]})",
                          R"({"obj": "x.obj", "seeds": [[1, "a", 3]]})", R"({"obj": "x.obj", "seeds": {"a": 1}})"}) {
    const std::string p = write("bad.json", bad);
    EXPECT_FALSE(nav::bake::loadLevelFile(p, &lv, &why)) << bad;
    EXPECT_NE(why.find("bad.json"), std::string::npos) << why;
    EXPECT_NE(why.find("seeds"), std::string::npos) << why;
  }
}
