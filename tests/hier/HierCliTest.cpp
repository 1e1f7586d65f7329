// HierCliTest.cpp: `navbench query --hierarchical` and `navbench quality --hierarchical` on a
// generated world written as a tile set: the same JSON records as findPath's, complete exactly for
// the connected pairs (the node-per-polygon A* decides), lengths close to findPath's.
#include "BigWorld.h"
#include "nav/NavMeshQuery.h"
#include "nav/TileSetFile.h"
#include "tests/support/Process.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace querytest;

namespace {

std::vector<nlohmann::json> readJsonl(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::istringstream in(testproc::readFile(path));
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

} // namespace

TEST(HierCli, QueryAndQualityHierarchical) {
  const char* exe = testproc::navbenchExe();
  ASSERT_NE(exe, nullptr);
  std::string why;
  const std::string obj = bigtest::worldObj(256, 3, &why);
  ASSERT_FALSE(obj.empty()) << why;
  const DualMesh* d = loadDual(obj, true, false, &why);
  ASSERT_NE(d, nullptr) << why;
  const std::string mesh = testproc::tempPath("navbench_hier_", "world.bin");
  const std::string cases = testproc::tempPath("navbench_hier_", "cases.txt");
  const std::string a = testproc::tempPath("navbench_hier_", "a.jsonl");
  const std::string b = testproc::tempPath("navbench_hier_", "b.jsonl");
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSetFile(d->nav, mesh, &why))) << why;

  // Random pairs; which are connected says the A* with a node per polygon.
  nav::NavMeshQuery ref;
  ASSERT_TRUE(nav::statusSucceeded(ref.initUnlimited(&d->nav)));
  const nav::QueryFilter f;
  std::vector<nav::PolyRef> path(65536);
  std::vector<bool> connected;
  std::string text;
  seedRandom(41);
  for (int i = 0; i < 60; ++i) {
    nav::PolyRef sr, er;
    float sp[3], ep[3];
    ASSERT_TRUE(nav::statusSucceeded(ref.findRandomPoint(&f, frand, &sr, sp)));
    ASSERT_TRUE(nav::statusSucceeded(ref.findRandomPoint(&f, frand, &er, ep)));
    int n = 0;
    const nav::Status st = ref.findPath(sr, er, sp, ep, &f, path.data(), &n, 65536);
    connected.push_back(nav::statusSucceeded(st) && !(st & nav::PARTIAL_RESULT) && n > 0 && path[size_t(n - 1)] == er);
    char line[256];
    std::snprintf(line, sizeof line, "pf %.4f %.4f %.4f %.4f %.4f %.4f 0xffff 0\n", double(sp[0]), double(sp[1]),
                  double(sp[2]), double(ep[0]), double(ep[1]), double(ep[2]));
    text += line;
  }
  {
    FILE* fp = std::fopen(cases.c_str(), "w");
    ASSERT_NE(fp, nullptr);
    std::fputs(text.c_str(), fp);
    std::fclose(fp);
  }
  std::string out;
  ASSERT_EQ(testproc::runCommand(std::string(exe) + " query " + mesh + " " + cases + " --json " + a, &out), 0) << out;
  ASSERT_EQ(testproc::runCommand(std::string(exe) + " query " + mesh + " " + cases + " --hierarchical --json " + b,
                                 &out),
            0)
      << out;
  const std::vector<nlohmann::json> ra = readJsonl(a), rb = readJsonl(b);
  ASSERT_EQ(ra.size(), connected.size());
  ASSERT_EQ(rb.size(), connected.size());
  int complete = 0, partial = 0;
  double sumA = 0, sumB = 0;
  for (size_t i = 0; i < rb.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    for (const char* key : {"partial", "outOfNodes", "polys", "straightLen", "found", "npolys"})
      EXPECT_TRUE(rb[i].contains(key)) << key;
    if (rb[i]["startRef"] == 0 || rb[i]["endRef"] == 0) continue; // the raw point missed the mesh
    EXPECT_EQ(rb[i]["startRef"], ra[i]["startRef"]);
    EXPECT_EQ(rb[i]["found"].get<bool>(), connected[i]);
    EXPECT_EQ(rb[i]["partial"].get<bool>(), !connected[i]);
    EXPECT_FALSE(rb[i]["outOfNodes"].get<bool>());
    if (connected[i]) {
      ++complete;
      if (ra[i]["found"].get<bool>()) {
        sumA += ra[i]["straightLen"].get<double>();
        sumB += rb[i]["straightLen"].get<double>();
      }
    } else {
      ++partial;
    }
  }
  EXPECT_GT(complete, 30);
  EXPECT_LE(sumB, sumA * 1.02) << "summed straight lengths against findPath's";

  ASSERT_EQ(testproc::runCommand(std::string(exe) + " quality " + mesh + " --pairs 100 --hierarchical", &out), 0)
      << out;
  EXPECT_NE(out.find("hierarchical + straight"), std::string::npos) << out;
  EXPECT_NE(out.find("hierarchical: 0 of the compared pairs not complete"), std::string::npos) << out;
  std::remove(mesh.c_str());
  std::remove(cases.c_str());
  std::remove(a.c_str());
  std::remove(b.c_str());
}
