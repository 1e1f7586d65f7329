// `navbench quality` (app/cli/CmdQuality.cpp) through the subcommand registry: on a mesh where
// Detour's path is always the shortest (an L-corridor: one corridor, one inner corner) the ratios
// are all 1; on a ring with two routes some pairs must be longer; bad input is refused clearly.
#include "app/cli/Cli.h"
#include "nav/TileSetFile.h"
#include "tests/optimal/OptimalTestUtil.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace opttest;

namespace {

int run(std::vector<std::string> args, std::string* out, std::string* err) {
  const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand("quality");
  EXPECT_NE(cmd, nullptr);
  if (!cmd) return -1;
  std::vector<char*> argv;
  args.insert(args.begin(), "quality");
  for (std::string& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int rc = cmd->run(int(argv.size()), argv.data());
  *out = testing::internal::GetCapturedStdout();
  *err = testing::internal::GetCapturedStderr();
  return rc;
}

std::string saveMesh(const HandMesh& hm, const char* name) {
  World w;
  std::string why;
  EXPECT_TRUE(buildHandMesh(hm, w, &why)) << why;
  const std::string path = testing::TempDir() + name;
  EXPECT_TRUE(nav::statusSucceeded(nav::saveTileSetFile(w.mesh, path, &why))) << why;
  return path;
}

} // namespace

TEST(QualityCli, LCorridorRatiosAreOne) {
  HandMesh hm;
  HandTile t;
  t.addPoly({{0, 0}, {8, 0}, {8, 2}, {0, 2}});
  t.addPoly({{8, 0}, {10, 0}, {10, 2}, {8, 2}});
  t.addPoly({{8, 2}, {10, 2}, {10, 10}, {8, 10}});
  hm.tiles.push_back(t);
  const std::string path = saveMesh(hm, "optimal_lcorridor.bin");
  std::string out, err;
  ASSERT_EQ(run({path, "--pairs", "200", "--seed", "9"}, &out, &err), 0) << err;
  EXPECT_NE(out.find("200 random pairs (seed 9), 200 connected, 200 compared"), std::string::npos) << out;
  EXPECT_NE(out.find("findPath + findStraightPath    1.0000   1.0000   1.0000   1.0000   1.0000    0.00%    0.00%"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("exact shortest path"), std::string::npos) << out;
  std::remove(path.c_str());
}

TEST(QualityCli, RingHasLongerDetourPaths) {
  // A room [0,20]x[0,10] around a wide obstacle: the midpoint A* often picks the longer side.
  HandMesh hm;
  HandTile t;
  t.addPoly({{0, 0}, {20, 0}, {16, 3}, {4, 3}});
  t.addPoly({{20, 0}, {20, 10}, {16, 8}, {16, 3}});
  t.addPoly({{20, 10}, {0, 10}, {4, 8}, {16, 8}});
  t.addPoly({{0, 10}, {0, 0}, {4, 3}, {4, 8}});
  hm.tiles.push_back(t);
  const std::string path = saveMesh(hm, "optimal_ring.bin");
  std::string out, err;
  ASSERT_EQ(run({path, "--pairs", "400"}, &out, &err), 0) << err;
  float mean = 0, median = 0, p95 = 0, p99 = 0, mx = 0;
  const size_t at = out.find("findPath + findStraightPath ");
  ASSERT_NE(at, std::string::npos) << out;
  ASSERT_EQ(std::sscanf(out.c_str() + at + 28, "%f %f %f %f %f", &mean, &median, &p95, &p99, &mx), 5) << out;
  EXPECT_GE(mean, 1.0f);
  EXPECT_GE(mx, p99);
  EXPECT_GE(p99, p95);
  EXPECT_GE(p95, median);
  EXPECT_GT(mx, 1.01f) << "expected some pairs where the midpoint corridor is not the shortest:\n" << out;
  std::remove(path.c_str());
}

TEST(QualityCli, BadInputIsRefused) {
  std::string out, err;
  EXPECT_EQ(run({}, &out, &err), 2);
  EXPECT_NE(err.find("needs MESH.bin"), std::string::npos) << err;
  EXPECT_EQ(run({"x.bin", "--pairs", "0"}, &out, &err), 2);
  EXPECT_NE(err.find("--pairs"), std::string::npos) << err;
  EXPECT_EQ(run({"/nonexistent/mesh.bin"}, &out, &err), 1);
  EXPECT_NE(err.find("/nonexistent/mesh.bin"), std::string::npos) << err;
}
