// CrowdCliTest.cpp: `navbench crowd MESH.bin SCENARIO.crowd.txt --json TRACE.jsonl [--repeat R]
// [--expect TRACE.jsonl]` on the project's default level (assets/levels/default.bin): exit codes,
// messages naming the file and line, warnings for agents off the mesh, a real run whose trace has
// one line per tick and equals DetourCrowd's for the same scenario on the same tile set.
#include "DetourCrowdOracle.h"

#include "nav/TileSetFile.h"
#include "nav/crowd/CrowdScenario.h"
#include "nav/crowd/CrowdTrace.h"
#include "tests/nav/DetourBridge.h"
#include "tests/support/Process.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const char* const EXE = testproc::navbenchExe();

bool exeBuilt() {
  const std::string exe = EXE ? EXE : "";
  struct stat st;
  return !exe.empty() && ::stat(exe.c_str(), &st) == 0;
}

int run(const std::string& args, std::string* output) {
  return testproc::runCommand(std::string(EXE) + " crowd " + args, output);
}

std::string tempDir() {
  std::string d = testproc::tempPath("navbench_crowd_cli_", "dir");
  ::mkdir(d.c_str(), 0755);
  return d;
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::vector<std::string> lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

const std::string MESH = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";

// Agents on the default level's open ground (see assets/levels/default_level_features.md), one
// above it (not placed), and commands naming it (ignored).
const char* const SCENARIO =
    "# cli test\n"
    "crowd 8 0.6\n"
    "agent 10 0.2 10\n"
    "agent 12 0.2 10 updateFlags 0x1b avoidType 0\n"
    "agent 10 200 10\n"
    "target 0 40 0.2 40\n"
    "target 1 40 0.2 40\n"
    "target 2 40 0.2 40\n"
    "tick 30 0.0333333\n"
    "velocity 1 1 0 0\n"
    "tick 10 0.1\n"
    "remove 0\n"
    "reset 1\n"
    "tick 5 0.05\n";

#define REQUIRE_EXE()                                                                                      \
  if (!exeBuilt())                                                                                         \
  GTEST_SKIP() << "navbench is not built (cmake --build DIR --target navbench; configure with NAVBENCH_APP=ON)"

TEST(CrowdCli, BadInputExitsTwoWithFileAndLine) {
  REQUIRE_EXE();
  const std::string d = tempDir();
  std::string out;
  EXPECT_EQ(run("", &out), 2);
  EXPECT_NE(out.find("usage: navbench crowd MESH.bin SCENARIO.crowd.txt"), std::string::npos) << out;
  EXPECT_EQ(run(MESH + " " + d + "/s.crowd.txt --repeat 0", &out), 2);
  EXPECT_NE(out.find("--repeat needs a number"), std::string::npos) << out;
  EXPECT_EQ(run(MESH + " " + d + "/s.crowd.txt --bogus", &out), 2);
  EXPECT_NE(out.find("unknown option --bogus"), std::string::npos) << out;

  writeFile(d + "/bad.crowd.txt", "crowd 4 0.6\nagent 1 2 3\n\nagent 1 2 3 maxSpeed nan\n");
  EXPECT_EQ(run(MESH + " " + d + "/bad.crowd.txt", &out), 2);
  EXPECT_NE(out.find(d + "/bad.crowd.txt:4: maxSpeed 'nan' is not a finite number"), std::string::npos) << out;

  writeFile(d + "/many.crowd.txt", "crowd 1 0.6\nagent 1 2 3\nagent 1 2 3\n");
  EXPECT_EQ(run(MESH + " " + d + "/many.crowd.txt", &out), 2);
  EXPECT_NE(out.find("many.crowd.txt:3: agent 1 would be agent number 2 in the crowd at once, over MAXAGENTS 1"),
            std::string::npos)
      << out;

  writeFile(d + "/ok.crowd.txt", "agent 10 0.2 10\ntick 1 0.1\n");
  EXPECT_EQ(run(d + "/missing.bin " + d + "/ok.crowd.txt", &out), 2);
  EXPECT_NE(out.find(d + "/missing.bin"), std::string::npos) << out;
  EXPECT_EQ(run(MESH + " " + d + "/missing.crowd.txt", &out), 2);
  EXPECT_NE(out.find(d + "/missing.crowd.txt: cannot open"), std::string::npos) << out;

  writeFile(d + "/garbage.jsonl", "{\"tick\": 1, \"agents\": []}\nnot json\n");
  EXPECT_EQ(run(MESH + " " + d + "/ok.crowd.txt --expect " + d + "/garbage.jsonl", &out), 2);
  EXPECT_NE(out.find(d + "/garbage.jsonl:2: not a crowd trace record"), std::string::npos) << out;
  // A record that parses but holds a bad value names its JSON path.
  writeFile(d + "/badvalue.jsonl", "{\"tick\": 1, \"agents\": [{\"i\": 0, \"active\": true, \"state\": 1, \"pos\": [1, 2, \"x\"]}]}\n");
  EXPECT_EQ(run(MESH + " " + d + "/ok.crowd.txt --expect " + d + "/badvalue.jsonl", &out), 2);
  EXPECT_NE(out.find(d + "/badvalue.jsonl:1: not a crowd trace record: agents[0].pos[2]: expected a number, got string"),
            std::string::npos)
      << out;
}

TEST(CrowdCli, RunWritesTheTraceAndRepeatsIdentically) {
  REQUIRE_EXE();
  const std::string d = tempDir();
  writeFile(d + "/s.crowd.txt", SCENARIO);
  std::string out;
  ASSERT_EQ(run(MESH + " " + d + "/s.crowd.txt --json " + d + "/t.jsonl --repeat 3", &out), 0) << out;
  EXPECT_NE(out.find("3 agent line(s) (MAXAGENTS 8, MAXRADIUS 0.6), 1 not added, 0 target(s) skipped, 45 tick(s)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("ms per tick"), std::string::npos) << out;
  EXPECT_NE(out.find("fastest of 3 identical runs"), std::string::npos) << out;
  EXPECT_NE(out.find("s.crowd.txt:5: warning: agent 2 at (10, 200, 10): no navmesh polygon within (1.2, 0.9, 1.2)"),
            std::string::npos)
      << out;
  const std::vector<std::string> l = lines(d + "/t.jsonl");
  ASSERT_EQ(l.size(), 45u);
  EXPECT_EQ(l[0].rfind("{\"tick\": 1, \"agents\": [{\"i\": 0, \"active\": true, \"state\": 1, \"pos\": [", 0), 0u)
      << l[0];
  EXPECT_NE(l[44].find("{\"i\": 0, \"active\": false}"), std::string::npos) << l[44]; // removed
  EXPECT_NE(l[44].find("{\"i\": 2, \"active\": false}"), std::string::npos) << l[44]; // never placed

  // The trace against itself, and against a changed copy.
  ASSERT_EQ(run(MESH + " " + d + "/s.crowd.txt --expect " + d + "/t.jsonl", &out), 0) << out;
  EXPECT_NE(out.find("expect: identical"), std::string::npos) << out;
  std::string changed;
  for (size_t i = 0; i < l.size(); ++i) {
    std::string s = l[i];
    if (i == 20) {
      const size_t p = s.find("\"npath\": ");
      s.insert(p + 9, "1");
    }
    changed += s + "\n";
  }
  writeFile(d + "/changed.jsonl", changed);
  EXPECT_EQ(run(MESH + " " + d + "/s.crowd.txt --expect " + d + "/changed.jsonl", &out), 1) << out;
  EXPECT_NE(out.find("tick 21 agent 0: npath"), std::string::npos) << out;
}

// The CLI's trace (our crowd) equals DetourCrowd's on the same tile set, read by Detour itself.
TEST(CrowdCli, TraceEqualsDetourCrowds) {
  REQUIRE_EXE();
  const std::string d = tempDir();
  writeFile(d + "/s.crowd.txt", SCENARIO);
  std::ifstream in(MESH, std::ios::binary);
  const std::vector<uint8_t> buf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  navtest::DtMeshPtr dt = navtest::detourLoadAll(buf);
  ASSERT_TRUE(dt) << MESH << ": Detour cannot load it";
  nav::crowd::Scenario sc;
  std::string why;
  ASSERT_TRUE(nav::crowd::loadScenarioFile(d + "/s.crowd.txt", &sc, &why)) << why;
  crowdtest::DetourCrowdAdapter oracle(dt.get());
  nav::crowd::ScenarioRunner<crowdtest::DetourCrowdAdapter> runner(oracle, sc);
  ASSERT_TRUE(runner.start(&why)) << why;
  std::vector<nav::crowd::TickRecord> trace;
  runner.runAll(&trace);
  ASSERT_TRUE(nav::crowd::saveTraceFile(trace, d + "/detour.jsonl", &why)) << why;
  std::string out;
  EXPECT_EQ(run(MESH + " " + d + "/s.crowd.txt --expect " + d + "/detour.jsonl", &out), 0) << out;
}

} // namespace
