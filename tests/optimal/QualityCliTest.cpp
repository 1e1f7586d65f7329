// `navbench quality` (app/cli/CmdQuality.cpp) through the subcommand registry: on a mesh where
// Detour's path is always the shortest (an L-corridor: one corridor, one inner corner) the ratios
// are all 1; on a ring with two routes some pairs must be longer; the closest-point row is what
// NavMeshQuery::findPath with FINDPATH_CLOSEST_POINT gives on the same pairs; bad input is refused.
#include "app/cli/Cli.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"
#include "tests/optimal/OptimalTestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

// The numbers of one row of the report ("name  mean median p95 p99 max").
bool readRow(const std::string& out, const std::string& name, float* v) {
  const size_t at = out.find(name);
  if (at == std::string::npos) return false;
  return std::sscanf(out.c_str() + at + 28, "%f %f %f %f %f", &v[0], &v[1], &v[2], &v[3], &v[4]) == 5;
}

uint32_t g_lcg = 1;
float lcg() { // the report's generator (CmdQuality.cpp), so the same pairs come out
  g_lcg = g_lcg * 1664525u + 1013904223u;
  return float(g_lcg >> 8) / float(1u << 24);
}

TEST(QualityCli, ClosestPointRowIsFindPathWithTheOption) {
  // Ring with an uneven obstacle: corridors of the two cost models differ on some pairs.
  HandMesh hm;
  HandTile t;
  t.addPoly({{0, 0}, {20, 0}, {16, 3}, {4, 3}});
  t.addPoly({{20, 0}, {20, 10}, {16, 8}, {16, 3}});
  t.addPoly({{20, 10}, {0, 10}, {4, 8}, {16, 8}});
  t.addPoly({{0, 10}, {0, 0}, {4, 3}, {4, 8}});
  hm.tiles.push_back(t);
  World w;
  std::string why;
  ASSERT_TRUE(buildHandMesh(hm, w, &why)) << why;
  const std::string path = testing::TempDir() + "optimal_ring_cp.bin";
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSetFile(w.mesh, path, &why))) << why;
  std::string out, err;
  ASSERT_EQ(run({path, "--pairs", "300", "--seed", "5"}, &out, &err), 0) << err;
  float mid[5], cp[5];
  ASSERT_TRUE(readRow(out, "findPath + findStraightPath ", mid)) << out;
  ASSERT_TRUE(readRow(out, "closest-point + straight ", cp)) << out;

  // The same pairs, run here: midpoint model, exact, and findPath with FINDPATH_CLOSEST_POINT.
  nav::NavMeshQuery q;
  nav::ShortestPath exact;
  ASSERT_TRUE(nav::statusSucceeded(q.init(&w.mesh, 2048)));
  ASSERT_TRUE(nav::statusSucceeded(exact.init(&w.mesh, 8192)));
  const nav::QueryFilter filter;
  g_lcg = 5;
  std::vector<nav::PolyRef> corridor(256);
  std::vector<float> pts(3 * 256);
  std::vector<uint8_t> flags(256);
  std::vector<double> midRatio, cpRatio;
  int differ = 0;
  for (int i = 0; i < 300; ++i) {
    nav::PolyRef sr = 0, er = 0;
    float s[3], e[3];
    ASSERT_TRUE(nav::statusSucceeded(q.findRandomPoint(&filter, lcg, &sr, s)));
    ASSERT_TRUE(nav::statusSucceeded(q.findRandomPoint(&filter, lcg, &er, e)));
    int nc = 0, ns = 0;
    ASSERT_TRUE(nav::statusSucceeded(q.findPath(sr, er, s, e, &filter, corridor.data(), &nc, 256)));
    ASSERT_TRUE(nav::statusSucceeded(
        q.findStraightPath(s, e, corridor.data(), nc, pts.data(), flags.data(), nullptr, &ns, 256)));
    const float midLen = nav::straightPathLength(pts.data(), flags.data(), ns);
    float len = 0;
    ASSERT_TRUE(nav::statusSucceeded(exact.findPath(sr, er, s, e, &filter, pts.data(), flags.data(), nullptr, &ns,
                                                    256, nullptr, nullptr, 0, &len)));
    if (len <= 1e-4f) continue;
    ASSERT_TRUE(nav::statusSucceeded(
        q.findPath(sr, er, s, e, &filter, corridor.data(), &nc, 256, nav::FINDPATH_CLOSEST_POINT)));
    ASSERT_TRUE(nav::statusSucceeded(
        q.findStraightPath(s, e, corridor.data(), nc, pts.data(), flags.data(), nullptr, &ns, 256)));
    const float cpLen = nav::straightPathLength(pts.data(), flags.data(), ns);
    midRatio.push_back(double(midLen) / len);
    cpRatio.push_back(double(cpLen) / len);
    differ += std::fabs(cpLen - midLen) > 1e-3f;
  }
  ASSERT_FALSE(cpRatio.empty());
  double cpMean = 0, midMean = 0;
  for (size_t i = 0; i < cpRatio.size(); ++i) {
    cpMean += cpRatio[i];
    midMean += midRatio[i];
  }
  cpMean /= double(cpRatio.size());
  midMean /= double(midRatio.size());
  EXPECT_NEAR(cp[0], cpMean, 1e-4) << out;
  EXPECT_NEAR(cp[4], *std::max_element(cpRatio.begin(), cpRatio.end()), 1e-4) << out;
  EXPECT_NEAR(mid[0], midMean, 1e-4) << out;
  EXPECT_GT(differ, 0) << "the two cost models never gave different paths here; the check would not tell them apart";
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
