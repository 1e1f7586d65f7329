// QueryHarnessTest.cpp: `navbench query` and tests/bench/detour_query_harness (the same work done
// with Detour) run on the same tile set and test-case file must print the same thing: the --json
// records byte for byte, and the summary line and per-operation call counts (the timings differ).
// This keeps the whole-process comparison honest (both do the same work) and is one more oracle
// test of the CLI. The tile set is the default level baked tiled with random areas, flags and
// off-mesh connections (tests/query/DualMesh.h); the cases are random points on it plus cases that
// miss the mesh or exclude every poly.
#include "DualMesh.h"
#include "tests/nav/DetourBridge.h"
#include "tests/support/Process.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <sys/wait.h>
#include <vector>

using namespace querytest;

namespace {

const char* const NAVBENCH = testproc::navbenchExe();
#ifdef DETOUR_QUERY_HARNESS_EXE
const char* const HARNESS = DETOUR_QUERY_HARNESS_EXE;
#else
const char* const HARNESS = nullptr;
#endif

std::string tempPath(const std::string& name) { return testproc::tempPath("navbench_harness_", name); }
int run(const std::string& cmd, std::string* output) { return testproc::runCommand(cmd, output); }
std::string readAll(const std::string& path) { return testproc::readFile(path); }

/// stdout without the timing columns: the summary and header lines as they are, then per operation
/// its name and call count.
std::string withoutTimes(const std::string& out) {
  std::istringstream in(out);
  std::string line, kept;
  int n = 0;
  while (std::getline(in, line)) {
    if (n++ < 2) {
      kept += line + "\n";
      continue;
    }
    std::istringstream ls(line);
    std::string op, calls;
    ls >> op >> calls;
    kept += op + " " + calls + "\n";
  }
  return kept;
}

/// Runs both programs on (mesh, cases) and compares their outputs; returns navbench's JSON.
std::string compareOutputs(const std::string& mesh, const std::string& cases, const std::string& tag) {
  const std::string navJson = tempPath(tag + "_nav.jsonl"), dtJson = tempPath(tag + "_dt.jsonl");
  std::string navOut, dtOut;
  EXPECT_EQ(run(std::string(NAVBENCH) + " query " + mesh + " " + cases + " --repeat 2 --json " + navJson, &navOut), 0)
      << navOut;
  EXPECT_EQ(run(std::string(HARNESS) + " " + mesh + " " + cases + " --repeat 2 --json " + dtJson, &dtOut), 0) << dtOut;
  const std::string nav = readAll(navJson), dt = readAll(dtJson);
  EXPECT_FALSE(nav.empty());
  EXPECT_EQ(withoutTimes(navOut), withoutTimes(dtOut)) << "navbench:\n" << navOut << "harness:\n" << dtOut;
  // Line by line first, so a difference names its case.
  std::istringstream a(nav), b(dt);
  std::string la, lb;
  int line = 0;
  while (std::getline(a, la)) {
    ++line;
    if (!std::getline(b, lb)) {
      ADD_FAILURE() << "the harness wrote fewer records than navbench (" << line - 1 << ")";
      break;
    }
    EXPECT_EQ(la, lb) << "record " << line - 1;
  }
  EXPECT_EQ(nav, dt);
  std::remove(navJson.c_str());
  std::remove(dtJson.c_str());
  return nav;
}

#define NEED_EXES()                                                                                                  \
  do {                                                                                                               \
    if (!NAVBENCH) GTEST_SKIP() << "navbench (the app) is not built in this configuration";                         \
    if (!HARNESS) GTEST_SKIP() << "detour_query_harness is not built in this configuration";                        \
  } while (0)

} // namespace

// Random pf and rc cases on the default level (tiled, random areas/flags/off-mesh links), written
// with RecastDemo's 6 decimals, plus the edge cases: start or end off the mesh, every poly excluded.
TEST(QueryHarness, SameOutputAsNavbenchOnDefaultLevel) {
  NEED_EXES();
  std::string why;
  const DualMesh* m = loadDual(defaultLevel(), true, true, &why);
  ASSERT_NE(m, nullptr) << why;
  const std::string mesh = tempPath("default.bin"), cases = tempPath("default.txt");
  {
    const std::vector<uint8_t> bytes = navtest::detourSaveAll(*m->dt);
    std::ofstream o(mesh, std::ios::binary);
    o.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  dtNavMeshQuery* q = dtAllocNavMeshQuery();
  ASSERT_TRUE(dtStatusSucceed(q->init(m->dt, 2048)));
  dtQueryFilter all;
  seedRandom(0x51a7e5u);
  std::string text = "s Tile Mesh\nf default.obj\n# random cases, then the edge cases\n";
  char line[256];
  const char* flags[] = {"0xffff 0x0", "0x3 0x0", "0xffef 0x0", "0xffff 0x4"};
  int written = 0;
  for (int i = 0; i < 90; ++i) {
    dtPolyRef a = 0, b = 0;
    float pa[3], pb[3];
    if (dtStatusFailed(q->findRandomPoint(&all, frand, &a, pa)) ||
        dtStatusFailed(q->findRandomPoint(&all, frand, &b, pb)))
      continue;
    std::snprintf(line, sizeof line, "%s  %f %f %f  %f %f %f  %s\n", i % 3 == 2 ? "rc" : "pf", double(pa[0]),
                  double(pa[1]), double(pa[2]), double(pb[0]), double(pb[1]), double(pb[2]), flags[irand(4)]);
    text += line;
    ++written;
  }
  dtFreeNavMeshQuery(q);
  ASSERT_GE(written, 80);
  const float* lo = m->bmin;
  const float* hi = m->bmax;
  const auto edge = [&](const char* op, float sx, float sz, float ex, float ez, const char* fl) {
    std::snprintf(line, sizeof line, "%s %f %f %f %f %f %f %s\n", op, double(sx), double(lo[1]), double(sz), double(ex),
                  double(hi[1]), double(ez), fl);
    text += line;
  };
  edge("pf", lo[0] - 50, lo[2] - 50, hi[0], hi[2], "0xffff 0x0");         // start off the mesh
  edge("pf", lo[0] + 1, lo[2] + 1, hi[0] + 50, hi[2] + 50, "0xffff 0x0"); // end off the mesh
  edge("rc", lo[0] - 50, lo[2], hi[0], hi[2], "0xffff 0x0");              // ray from off the mesh
  edge("pf", lo[0] + 1, lo[2] + 1, hi[0], hi[2], "0x0 0x0");              // every poly excluded
  {
    std::ofstream o(cases, std::ios::binary);
    o << text;
  }
  const std::string nav = compareOutputs(mesh, cases, "default");
  // The cases reach the interesting paths: found, partial or not, rays that hit and that don't.
  EXPECT_NE(nav.find("\"found\":true"), std::string::npos);
  EXPECT_NE(nav.find("\"hit\":true"), std::string::npos);
  EXPECT_NE(nav.find("\"hit\":false"), std::string::npos);
  EXPECT_NE(nav.find("\"startRef\":0,"), std::string::npos);
  std::remove(mesh.c_str());
  std::remove(cases.c_str());
}

// RecastDemo's own test-case files on nav_test, tiled (they are written for it).
TEST(QueryHarness, SameOutputAsNavbenchOnRecastDemoCases) {
  NEED_EXES();
  const std::string level = sharedLevel("nav_test.obj");
  const std::string pf = sharedLevel("testcases/nav_mesh_test.txt"), rc = sharedLevel("testcases/raycast_test.txt");
  if (level.empty() || pf.empty() || rc.empty())
    GTEST_SKIP() << "shared levels not found at " << NAVBENCH_SHARED_DIR << "/levels";
  std::string why;
  const DualMesh* m = loadDual(level, true, false, &why);
  ASSERT_NE(m, nullptr) << why;
  const std::string mesh = tempPath("nav_test.bin");
  {
    const std::vector<uint8_t> bytes = navtest::detourSaveAll(*m->dt);
    std::ofstream o(mesh, std::ios::binary);
    o.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  compareOutputs(mesh, pf, "nav_mesh_test");
  compareOutputs(mesh, rc, "raycast_test");
  std::remove(mesh.c_str());
}
