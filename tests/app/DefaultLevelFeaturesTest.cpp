// The default level's features hold in a real bake (default settings: agent radius 0.6, height 2,
// climb 0.9, slope 45): the level is baked and queried through the navbench CLI, as a user would,
// with the points of assets/levels/default_level_features.md.
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using navbench::test::CommandResult;
using navbench::test::runCommand;

struct PathResult {
  bool found = false, partial = false;
  double length = 0; ///< Straight path length [m].
};

// Bakes the default level and answers the path queries of `cases` [(start xyz, end xyz) as text].
std::vector<PathResult> query(const std::vector<std::string>& cases) {
  const std::string dir = NAVBENCH_TEST_TMP;
  std::filesystem::create_directories(dir);
  const std::string mesh = dir + "/default_nav.bin", txt = dir + "/features.txt", out = dir + "/features.jsonl";
  // The bake and query subcommands open no window: no headlessEnv (and so leak checks stay on
  // under ASan).
  std::filesystem::remove(mesh);
  const CommandResult bake =
      runCommand(std::string("'") + NAVBENCH_EXE + "' bake '" + NAVBENCH_DEFAULT_LEVEL + "' -o '" + mesh + "' -q");
  EXPECT_EQ(bake.exitCode, 0) << bake.output;
  {
    std::ofstream f(txt);
    f << "s Solo Mesh\nf default.obj\n";
    for (const std::string& c : cases) f << "pf " << c << " 0xffff 0x0\n";
  }
  std::filesystem::remove(out);
  const CommandResult run =
      runCommand(std::string("'") + NAVBENCH_EXE + "' query '" + mesh + "' '" + txt + "' --json '" + out + "'");
  EXPECT_EQ(run.exitCode, 0) << bake.output << run.output;
  std::vector<PathResult> results;
  std::ifstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    PathResult r;
    r.found = j.value("found", false);
    r.partial = j.value("partial", false);
    r.length = j.value("straightLen", 0.0);
    results.push_back(r);
  }
  EXPECT_EQ(results.size(), cases.size()) << bake.output << run.output;
  results.resize(cases.size());
  return results;
}

} // namespace

TEST(DefaultLevelFeatures, HoldInABake) {
  const std::vector<PathResult> r = query({
      "53.5 0 17  53.5 0 23", // 0 narrow gap: 6 m straight, must go round through the doorway
      "46 0 4  46 0 16",      // 1 pool: walkable, straight through
      "46 0 29.2  50 0 29.2", // 2 doorway
      "35.2 3 40  44 3 42",   // 3 M2 -> jump platform: unreachable without a jump link
      "4 0 22  7 3 40",       // 4 ramp up to M1
      "30 0 28  30 3 40",     // 5 stairs up to M2
      "7 3 40  30 3 40",      // 6 over the bridge, M1 -> M2
      "18 0 36  18 0 45",     // 7 the lower path under the bridge
  });
  EXPECT_TRUE(r[0].found && !r[0].partial);
  EXPECT_GT(r[0].length, 20.0) << "the path went through the 1 m gap";
  EXPECT_TRUE(r[1].found && !r[1].partial);
  EXPECT_NEAR(r[1].length, 12.0, 0.5) << "the pool is not walked straight through";
  EXPECT_TRUE(r[2].found && !r[2].partial);
  EXPECT_LT(r[2].length, 5.0);
  EXPECT_TRUE(r[3].partial || !r[3].found) << "the jump platform is reachable without a jump link";
  EXPECT_TRUE(r[4].found && !r[4].partial);
  EXPECT_TRUE(r[5].found && !r[5].partial);
  EXPECT_TRUE(r[6].found && !r[6].partial);
  EXPECT_LT(r[6].length, 25.0) << "M1 -> M2 did not take the bridge";
  EXPECT_TRUE(r[7].found && !r[7].partial);
  EXPECT_NEAR(r[7].length, 9.0, 0.5);
}
