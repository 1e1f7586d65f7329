// CheckCliTest.cpp: `navbench check` end to end: exit codes 0/1/2, the JSON and JUnit files,
// baselines turning known findings off, a level baked first, bad input refused with no output.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#ifdef NAVBENCH_EXE

namespace {

struct CliRun {
  int code = -1;
  std::string out;
};

CliRun navbench(const std::string& args) {
  const std::string cmd = std::string(NAVBENCH_EXE) + " check " + args + " 2>&1";
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string readAll(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

class CheckCli : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/check_cli_XXXXXX";
    dir = mkdtemp(tmpl);
  }
  void TearDown() override { std::system(("rm -rf " + dir).c_str()); }
  std::string dir;
  const std::string bin = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";
};

} // namespace

TEST_F(CheckCli, ReportsAndBaseline) {
  const std::string json = dir + "/r.json", xml = dir + "/r.xml", base = dir + "/b.json";
  CliRun r = navbench(bin + " --pairs 300 --json " + json + " --junit " + xml + " --write-baseline " + base);
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.out;
  const nlohmann::json j = nlohmann::json::parse(readAll(json));
  EXPECT_EQ(j["mesh"], bin);
  ASSERT_EQ(j["checks"].size(), 7u);
  bool anyFinding = false;
  for (const auto& c : j["checks"]) anyFinding = anyFinding || c["findings"].get<int>() > 0;
  EXPECT_EQ(r.code, anyFinding ? 1 : 0) << r.out;
  EXPECT_FALSE(j["islands"].empty());
  EXPECT_NE(readAll(xml).find("<testcase classname="), std::string::npos);
  // Everything found is in the baseline: a rerun against it passes.
  r = navbench(bin + " --pairs 300 --baseline " + base);
  EXPECT_EQ(r.code, 0) << r.out;
  // --fail-on error ignores warnings.
  r = navbench(bin + " --pairs 300 --fail-on error --no-seams --no-links --no-surface");
  EXPECT_EQ(r.code, 0) << r.out;
}

TEST_F(CheckCli, LevelIsBakedFirst) {
  const std::string obj = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.obj";
  const std::string json = dir + "/r.json";
  const CliRun r = navbench(obj + " --pairs 100 --json " + json);
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.out;
  const nlohmann::json j = nlohmann::json::parse(readAll(json));
  bool surfaceRan = false;
  for (const auto& c : j["checks"])
    if (c["name"] == "surface") surfaceRan = c["ran"].get<bool>();
  EXPECT_TRUE(surfaceRan); // the level's triangles came with it
}

TEST_F(CheckCli, GeneratedHelpAndUnknownOptions) {
  CliRun r = navbench("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("usage: navbench check ", 0), 0u) << r.out;
  for (const char* opt : {"--filter", "--seeds", "--pairs", "--seed", "--json", "--junit", "--write-baseline", "--baseline",
                          "--fail-on", "--min-width", "--node-budget", "--no-seams"})
    EXPECT_NE(r.out.find(std::string("\n  ") + opt + " "), std::string::npos) << opt;
  r = navbench("--no-such-option " + bin);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown option --no-such-option"), std::string::npos) << r.out;
  r = navbench(bin + " --fail-on sometimes");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--fail-on"), std::string::npos) << r.out;
  r = navbench(bin + " --filter 0xffef");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--filter"), std::string::npos) << r.out;
}

TEST_F(CheckCli, BadInputExitsTwoWithNoOutput) {
  const std::string json = dir + "/r.json";
  const std::string junk = dir + "/junk.bin";
  std::ofstream(junk) << "not a tile set";
  CliRun r = navbench(junk + " --json " + json);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("junk.bin"), std::string::npos) << r.out;
  EXPECT_FALSE(exists(json));
  r = navbench(bin + " --pairs 0 --json " + json);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--pairs"), std::string::npos) << r.out;
  r = navbench(bin + " --seeds 9999,0,9999 --json " + json);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("not on the navmesh"), std::string::npos) << r.out;
  r = navbench(bin + " --min-width -1");
  EXPECT_EQ(r.code, 2);
  r = navbench(bin + " --pairs 50 --json " + dir + "/no/such/dir/r.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("no/such/dir"), std::string::npos) << r.out;
  EXPECT_FALSE(exists(json));
}

#endif
