// CliQueryTest.cpp: `navbench query` on RecastDemo's own test cases (../shared/levels/testcases)
// against Detour run here with the same conventions (raw case positions, extents (2, 4, 2), 2048
// nodes, buffers 2048). The mesh file is written here in RecastDemo's MSET layout straight from
// Detour's dtNavMesh, so the CLI also proves it reads what RecastDemo writes.
#include "DualMesh.h"
#include "RefSmoothPath.h"
#include "tests/support/DetourTileSet.h"
#include "tests/support/Process.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>
#include <sys/wait.h>
#include <sstream>
#include <string>
#include <vector>

using namespace querytest;

namespace {

const char* const EXE = testproc::navbenchExe();

std::string tempPath(const std::string& name) { return testproc::tempPath("navbench_query_", name); }

struct Case {
  bool rc;
  float s[3], e[3];
  unsigned inc, exc;
};

std::vector<Case> readCases(const std::string& path) {
  std::vector<Case> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string k;
    ls >> k;
    if (k != "pf" && k != "rc") continue;
    Case c;
    c.rc = k == "rc";
    std::string inc, exc;
    ls >> c.s[0] >> c.s[1] >> c.s[2] >> c.e[0] >> c.e[1] >> c.e[2] >> inc >> exc;
    c.inc = unsigned(std::stoul(inc, nullptr, 0));
    c.exc = unsigned(std::stoul(exc, nullptr, 0));
    out.push_back(c);
  }
  return out;
}

int run(const std::string& cmd, std::string* output) { return testproc::runCommand(cmd, output); }

std::string hexs(unsigned v) {
  char b[16];
  std::snprintf(b, sizeof(b), "0x%x", v);
  return b;
}

void checkCaseFile(const char* casesFile, bool tiled) {
  if (!EXE) GTEST_SKIP() << "navbench (the app) is not built in this configuration";
  const std::string cases = sharedLevel((std::string("testcases/") + casesFile).c_str());
  const std::string level = sharedLevel("nav_test.obj");
  if (cases.empty() || level.empty())
    GTEST_SKIP() << "shared levels not found at " << NAVBENCH_SHARED_DIR << "/levels";
  std::string why;
  const DualMesh* m = loadDual(level, tiled, false, &why);
  ASSERT_NE(m, nullptr) << why;
  const std::string bin = tempPath(std::string(casesFile) + ".bin");
  const std::string json = tempPath(std::string(casesFile) + ".jsonl");
  ASSERT_TRUE(navtest::saveDetourTileSet(*m->dt, bin.c_str())); // RecastDemo's saveAll
  std::string out;
  ASSERT_EQ(run(std::string(EXE) + " query " + bin + " " + cases + " --json " + json + " --repeat 2", &out), 0) << out;
  EXPECT_NE(out.find("findNearestPoly"), std::string::npos) << out;

  const std::vector<Case> cs = readCases(cases);
  std::ifstream in(json);
  std::vector<nlohmann::json> recs;
  std::string line;
  while (std::getline(in, line)) recs.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(recs.size(), cs.size());

  dtNavMeshQuery* q = dtAllocNavMeshQuery();
  ASSERT_TRUE(dtStatusSucceed(q->init(m->dt, 2048)));
  const float ext[3] = {2, 4, 2};
  std::vector<dtPolyRef> polys(2048), srefs(2048);
  std::vector<float> straight(2048 * 3), smooth(2048 * 3);
  std::vector<unsigned char> flags(2048);
  int compared = 0;
  for (size_t i = 0; i < cs.size(); ++i) {
    SCOPED_TRACE(std::string(casesFile) + " case " + std::to_string(i));
    const Case& c = cs[i];
    const nlohmann::json& r = recs[i];
    EXPECT_EQ(r["i"].get<int>(), int(i));
    EXPECT_EQ(r["op"].get<std::string>(), c.rc ? "rc" : "pf");
    dtQueryFilter f;
    f.setIncludeFlags((unsigned short)c.inc);
    f.setExcludeFlags((unsigned short)c.exc);
    EXPECT_EQ(r["inc"].get<std::string>(), hexs(c.inc));
    dtPolyRef sref = 0, eref = 0;
    float ns[3] = {0, 0, 0}, ne[3] = {0, 0, 0};
    q->findNearestPoly(c.s, ext, &f, &sref, ns);
    q->findNearestPoly(c.e, ext, &f, &eref, ne);
    ASSERT_EQ(r["startRef"].get<unsigned>(), sref);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(r["ns"][size_t(k)].get<double>(), ns[k], 1e-4);
    if (!c.rc) {
      ASSERT_EQ(r["endRef"].get<unsigned>(), eref);
      int n = 0;
      dtStatus ps = 0;
      if (sref && eref) ps = q->findPath(sref, eref, c.s, c.e, &f, polys.data(), &n, 2048);
      ASSERT_EQ(r["npolys"].get<int>(), n);
      EXPECT_EQ(r["pathStatus"].get<std::string>(), hexs(ps));
      for (int k = 0; k < n; ++k) EXPECT_EQ(r["polys"][size_t(k)].get<unsigned>(), polys[size_t(k)]);
      EXPECT_EQ(r["found"].get<bool>(), n > 0 && polys[size_t(n - 1)] == eref);
      EXPECT_EQ(r["partial"].get<bool>(), (ps & DT_PARTIAL_RESULT) != 0);
      int ns2 = 0;
      dtStatus ss = 0;
      if (n) ss = q->findStraightPath(c.s, c.e, polys.data(), n, straight.data(), flags.data(), srefs.data(), &ns2, 2048);
      EXPECT_EQ(r["straightStatus"].get<std::string>(), hexs(ss));
      ASSERT_EQ(r["nstraight"].get<int>(), ns2);
      for (int k = 0; k < ns2; ++k) {
        EXPECT_EQ(r["straightFlags"][size_t(k)].get<int>(), flags[size_t(k)]);
        EXPECT_EQ(r["straightRefs"][size_t(k)].get<unsigned>(), srefs[size_t(k)]);
        for (int d = 0; d < 3; ++d) EXPECT_NEAR(r["straight"][size_t(k)][size_t(d)].get<double>(), straight[size_t(k * 3 + d)], 1e-4);
      }
      int nsm = 0;
      if (n) nsm = referenceSmoothPath(q, &f, sref, c.s, c.e, polys.data(), n, smooth.data(), 2048, false, nullptr);
      ASSERT_EQ(r["nsmooth"].get<int>(), nsm);
      if (nsm) {
        for (int d = 0; d < 3; ++d)
          EXPECT_NEAR(r["smoothLast"][size_t(d)].get<double>(), smooth[size_t((nsm - 1) * 3 + d)], 1e-4);
      }
    } else {
      float t = 0, nrm[3] = {0, 0, 0};
      int n = 0;
      dtStatus rs = 0;
      if (sref) rs = q->raycast(sref, c.s, c.e, &f, &t, nrm, polys.data(), &n, 2048);
      EXPECT_EQ(r["rayStatus"].get<std::string>(), hexs(rs));
      if (t == FLT_MAX) EXPECT_GT(r["t"].get<double>(), 3.4e38);
      else EXPECT_NEAR(r["t"].get<double>(), t, 1e-5);
      ASSERT_EQ(r["npath"].get<int>(), n);
      for (int k = 0; k < n; ++k) EXPECT_EQ(r["path"][size_t(k)].get<unsigned>(), polys[size_t(k)]);
      EXPECT_EQ(r["hit"].get<bool>(), sref && t <= 1);
    }
    ++compared;
  }
  dtFreeNavMeshQuery(q);
  EXPECT_EQ(compared, int(cs.size()));
  std::remove(bin.c_str());
  std::remove(json.c_str());
}

TEST(CliQuery, NavMeshTestCasesMatchDetourSolo) { checkCaseFile("nav_mesh_test.txt", false); }
TEST(CliQuery, RaycastTestCasesMatchDetourTiled) { checkCaseFile("raycast_test.txt", true); }
TEST(CliQuery, NavMeshTestCasesMatchDetourTiled) { checkCaseFile("nav_mesh_test.txt", true); }

// Errors name the file and line and exit non-zero.
TEST(CliQuery, BadInputIsReportedWithFileAndLine) {
  if (!EXE) GTEST_SKIP() << "navbench (the app) is not built in this configuration";
  std::string why;
  const DualMesh* m = loadDual(defaultLevel(), false, false, &why);
  ASSERT_NE(m, nullptr) << why;
  const std::string bin = tempPath("bad.bin");
  ASSERT_TRUE(navtest::saveDetourTileSet(*m->dt, bin.c_str())); // RecastDemo's saveAll
  const std::string cases = tempPath("bad.txt");
  {
    std::ofstream o(cases);
    o << "s Solo Mesh\nf default.obj\npf 1 2 3 4 5 6 0x3 0x0\npf 1 2 three 4 5 6 0x3 0x0\n";
  }
  std::string out;
  EXPECT_NE(run(std::string(EXE) + " query " + bin + " " + cases, &out), 0);
  EXPECT_NE(out.find(cases + ":4"), std::string::npos) << out;
  {
    std::ofstream o(cases);
    o << "pf 1 2 3 4 5 6 0x3\n";
  }
  EXPECT_NE(run(std::string(EXE) + " query " + bin + " " + cases, &out), 0);
  EXPECT_NE(out.find(cases + ":1"), std::string::npos) << out;
  EXPECT_NE(run(std::string(EXE) + " query " + cases + " " + cases, &out), 0); // not a tile set
  EXPECT_NE(out.find(cases), std::string::npos) << out;
  EXPECT_NE(run(std::string(EXE) + " query /nonexistent.bin " + cases, &out), 0);
  EXPECT_NE(out.find("/nonexistent.bin"), std::string::npos) << out;
  std::remove(bin.c_str());
  std::remove(cases.c_str());
}

// --optimal adds the exact shortest path to every pf record: it starts at the start point, ends at
// the end point, is never longer than the straight path (optLen is the xz metric, <= 3D length),
// and plain runs (no --optimal) keep the record format without the fields.
TEST(CliQuery, OptimalAddsExactPathsNoLongerThanStraight) {
  if (!EXE) GTEST_SKIP() << "navbench (the app) is not built in this configuration";
  std::string why;
  const DualMesh* m = loadDual(defaultLevel(), true, false, &why);
  ASSERT_NE(m, nullptr) << why;
  const std::string bin = tempPath("opt.bin");
  ASSERT_TRUE(navtest::saveDetourTileSet(*m->dt, bin.c_str())); // RecastDemo's saveAll
  const std::string cases = tempPath("opt.txt");
  {
    std::ofstream o(cases);
    // Ramp foot -> top of the stairs, hall A -> room D (through the doorway), and a ray.
    o << "pf 4 0 24 30 3 36 0xffff 0x0\npf 2 0 2 55 0 45 0xffff 0x0\nrc 4 0 24 30 0 10 0xffff 0x0\n";
  }
  const std::string json = tempPath("opt.jsonl");
  std::string out;
  ASSERT_EQ(run(std::string(EXE) + " query " + bin + " " + cases + " --optimal --json " + json, &out), 0) << out;
  EXPECT_NE(out.find("shortestPath"), std::string::npos) << out;
  std::ifstream in(json);
  std::string line;
  int pf = 0;
  while (std::getline(in, line)) {
    const nlohmann::json r = nlohmann::json::parse(line);
    if (r["op"] == "rc") {
      EXPECT_FALSE(r.contains("optLen"));
      continue;
    }
    ++pf;
    ASSERT_TRUE(r["found"].get<bool>()) << line;
    ASSERT_TRUE(r["optLen"].is_number()) << line;
    const double optLen = r["optLen"].get<double>(), straightLen = r["straightLen"].get<double>();
    EXPECT_GT(optLen, 1.0);
    EXPECT_LE(optLen, straightLen + 1e-3) << line;
    const auto& p = r["optPath"];
    ASSERT_GE(p.size(), 2u);
    for (int k = 0; k < 3; k += 2) { // x and z: the ends are the case's points
      EXPECT_NEAR(p.front()[k].get<double>(), r["s"][k].get<double>(), 1e-3) << line;
      EXPECT_NEAR(p.back()[k].get<double>(), r["e"][k].get<double>(), 1e-3) << line;
    }
    double xz = 0; // optLen is the xz length of the corner path (uniform costs)
    for (size_t k = 1; k < p.size(); ++k)
      xz += std::hypot(p[k][0].get<double>() - p[k - 1][0].get<double>(), p[k][2].get<double>() - p[k - 1][2].get<double>());
    EXPECT_NEAR(xz, optLen, 1e-2) << line;
  }
  EXPECT_EQ(pf, 2);
  ASSERT_EQ(run(std::string(EXE) + " query " + bin + " " + cases + " --json " + json, &out), 0) << out;
  std::ifstream in2(json);
  ASSERT_TRUE(std::getline(in2, line));
  EXPECT_FALSE(nlohmann::json::parse(line).contains("optLen"));
  std::remove(bin.c_str());
  std::remove(cases.c_str());
  std::remove(json.c_str());
}

} // namespace
