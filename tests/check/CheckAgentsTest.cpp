// CheckAgentsTest.cpp: `navbench check` on a level with several agent types (nav/bake/Agents.h),
// run through the subcommand registry: one report per type in the JSON ("agents"), one JUnit
// testsuite per type, each type's own seeds, a seed off a type's navmesh is a finding of that
// type, --agent checks one type, and unknown agents are bad input (exit 2). A level without
// agents keeps the JSON shape it had.
#include "CheckTempDir.h"

#include "app/cli/Cli.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct CliRun {
  int code = -1;
  std::string out, err;
};

CliRun check(std::vector<std::string> args) {
  const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand("check");
  CliRun r;
  if (!cmd) return r;
  args.insert(args.begin(), "check");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  r.code = cmd->run(int(args.size()), argv.data());
  r.out = testing::internal::GetCapturedStdout();
  r.err = testing::internal::GetCapturedStderr();
  return r;
}

std::string readAll(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void writeAll(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
}

/// Two 10 x 10 m rooms joined by a corridor 1 m wide and 10 m long (floor only: Recast erodes
/// from the floor's edges). A 0.2 m radius agent walks through; a 1 m one does not fit.
const char* kRoomsObj = R"(v 0 0 0
v 10 0 0
v 10 0 10
v 0 0 10
v 4.5 0 10
v 5.5 0 10
v 5.5 0 20
v 4.5 0 20
v 0 0 20
v 10 0 20
v 10 0 30
v 0 0 30
f 1 4 3
f 1 3 2
f 5 8 7
f 5 7 6
f 9 12 11
f 9 11 10
)";

class CheckAgents : public checktest::TempDirTest {
protected:
  void SetUp() override {
    TempDirTest::SetUp();
    writeAll(dir + "/rooms.obj", kRoomsObj);
  }
  /// The rooms level with the two types and `seeds` (JSON text of the seeds list).
  std::string level(const std::string& seeds, const std::string& agents = R"([
      {"name": "small", "color": "#40c040", "agentRadius": 0.2, "agentHeight": 1.0},
      {"name": "large", "color": "#ff8000", "agentRadius": 1.0, "agentHeight": 2.0}])") {
    const std::string path = dir + "/rooms.json";
    writeAll(path, R"({"format": "navbench-level", "version": 1, "obj": "rooms.obj",
      "settings": {"cellSize": 0.1, "cellHeight": 0.1, "tileSize": 64},
      "agents": )" + agents + R"(, "seeds": )" + seeds + "}\n");
    return path;
  }
  std::vector<std::string> fast() const {
    return {"--pairs", "20", "--threads", "1", "--no-detours", "--no-budget", "--no-surface", "--why", "0", "-q"};
  }
  std::vector<std::string> with(std::vector<std::string> a) const {
    for (const std::string& f : fast()) a.push_back(f);
    return a;
  }
};

TEST_F(CheckAgents, OneReportPerTypeAndTheLargeTypeCannotFollow) {
  // Room 1 for both types; a seed in the corridor for the large type only (it cannot stand there).
  const std::string lv = level(R"([[5, 0, 5], {"pos": [5, 0, 15], "agents": ["large"]}])");
  const std::string json = dir + "/r.json", junit = dir + "/r.xml";
  const CliRun r = check(with({lv, "--json", json, "--junit", junit}));
  EXPECT_EQ(r.code, 1) << r.out << r.err; // the large type's findings
  const nlohmann::json j = nlohmann::json::parse(readAll(json));
  ASSERT_TRUE(j.contains("agents")) << j.dump(2);
  EXPECT_EQ(j["mesh"], lv);
  ASSERT_EQ(j["agents"].size(), 2u);
  const nlohmann::json& small = j["agents"][0];
  const nlohmann::json& large = j["agents"][1];
  EXPECT_EQ(small["agent"], "small");
  EXPECT_EQ(large["agent"], "large");
  // The small type: one island, reached; no seed of its own off its navmesh.
  EXPECT_EQ(small["islands"].size(), 1u) << small["islands"].dump();
  EXPECT_FALSE(small.contains("unreachedSeeds"));
  EXPECT_EQ(small["checks"][0]["findings"], 0);
  // The large type: its corridor seed is off its navmesh (a finding), and room 2 is an island
  // room 1's seed does not reach.
  ASSERT_TRUE(large.contains("unreachedSeeds")) << large.dump(2);
  ASSERT_EQ(large["unreachedSeeds"].size(), 1u);
  EXPECT_EQ(large["unreachedSeeds"][0]["seed"], 1);
  EXPECT_EQ(large["islands"].size(), 2u) << large["islands"].dump();
  EXPECT_EQ(large["checks"][0]["name"], "islands");
  EXPECT_EQ(large["checks"][0]["findings"], 2); // the seed and room 2
  // JUnit: one testsuite per type.
  const std::string x = readAll(junit);
  size_t suites = 0;
  for (size_t at = x.find("<testsuite "); at != std::string::npos; at = x.find("<testsuite ", at + 1)) ++suites;
  EXPECT_EQ(suites, 2u) << x;
  EXPECT_NE(x.find("(agent small)"), std::string::npos) << x;
  EXPECT_NE(x.find("(agent large)"), std::string::npos) << x;
  EXPECT_NE(x.find("seed 2 is not on the navmesh"), std::string::npos) << x;
}

TEST_F(CheckAgents, AgentOptionChecksOneType) {
  const std::string lv = level(R"([[5, 0, 5]])");
  const std::string json = dir + "/r.json";
  const CliRun r = check(with({lv, "--agent", "small", "--json", json}));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(readAll(json));
  ASSERT_EQ(j["agents"].size(), 1u);
  EXPECT_EQ(j["agents"][0]["agent"], "small");
  EXPECT_EQ(j["agents"][0]["islands"].size(), 1u);
  // The large type alone: room 2 unreachable.
  EXPECT_EQ(check(with({lv, "--agent", "large"})).code, 1);
}

TEST_F(CheckAgents, UnknownAgentsAreBadInput) {
  const std::string lv = level(R"([[5, 0, 5]])");
  CliRun r = check(with({lv, "--agent", "truck"}));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--agent truck: unknown agent in " + lv + " (its agents: small, large)"), std::string::npos) << r.err;
  const std::string bad = level(R"([{"pos": [5, 0, 5], "agents": ["dog"]}])");
  r = check(with({bad}));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(bad + ": seeds[0].agents[0]: unknown agent \"dog\""), std::string::npos) << r.err;
  const std::string dup = level("[]", R"([{"name": "a"}, {"name": "a"}])");
  r = check(with({dup}));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("agents[1] \"a\": duplicate name"), std::string::npos) << r.err;
  // A level without agents: --agent names none of them.
  const std::string def = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.json";
  r = check(with({def, "--agent", "small"}));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("declares no agents"), std::string::npos) << r.err;
}

TEST_F(CheckAgents, ALevelWithoutAgentsKeepsItsReportShape) {
  const std::string plain = dir + "/plain.json";
  writeAll(plain, R"({"obj": "rooms.obj", "settings": {"cellSize": 0.1, "cellHeight": 0.1, "agentRadius": 0.2, "agentHeight": 1},
                      "seeds": [[5, 0, 5]]})");
  const std::string json = dir + "/r.json";
  const CliRun r = check(with({plain, "--json", json}));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(readAll(json));
  EXPECT_FALSE(j.contains("agents"));
  EXPECT_FALSE(j.contains("agent"));
  EXPECT_TRUE(j.contains("checks"));
  EXPECT_EQ(j["mesh"], plain);
  // A seed off the navmesh stays bad input there (no agent type it could be a finding of).
  writeAll(plain, R"({"obj": "rooms.obj", "seeds": [[50, 0, 50]]})");
  EXPECT_EQ(check(with({plain})).code, 2);
}

} // namespace
