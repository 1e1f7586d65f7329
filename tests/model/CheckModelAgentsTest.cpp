// The Check panel's model on a level with agent types (app/model/CheckModel.h, Document's
// checkAgents / selectCheckFinding): every agent's navmesh is checked with the level's seeds for
// that agent, and each per-agent report is the one `navbench check LEVEL.json --json` writes for
// that agent (the subcommand run in this process); selecting another agent's finding makes that
// agent active, keeps the results, and shows the finding on its navmesh.
#include "GapLevel.h"

#include "app/Document.h"
#include "app/cli/Cli.h"
#include "nav/bake/LevelFile.h"
#include "nav/check/CheckReport.h"
#include "tests/model/DocumentTestHost.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace navbench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using QuietHost = DocumentTestHost;

/// `navbench check ARGS...` through the subcommand registry: its exit status (-100: not linked).
int runCheckCli(std::vector<std::string> args) {
  const cli::Subcommand* cmd = cli::findSubcommand("check");
  if (!cmd) return -100;
  args.insert(args.begin(), "check");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return cmd->run(int(args.size()), argv.data());
}

/// The gap level with seeds: one on the left for every agent, one on the right for the dog only
/// (so the truck, which cannot pass the gap, has the right side as an island; the dog none).
std::string writeLevel(const std::string& tag) {
  const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / tag;
  fs::remove_all(dir);
  fs::create_directories(dir);
  writeGapObj((dir / "gap.obj").string());
  json level = json::parse(kGapLevel);
  level["seeds"] = json::array({json::array({5, 0, 10}), {{"pos", {35, 0, 10}}, {"agents", {"dog"}}}});
  const std::string path = (dir / "gap.json").string();
  std::ofstream(path) << level.dump(2);
  return path;
}

TEST(CheckModelAgents, EachAgentsReportIsTheCliReportAndAFindingActivatesItsAgent) {
  const std::string path = writeLevel("check_agents");
  Log log;
  QuietHost host;
  Document doc(log, host);
  doc.initTools([]() { return std::vector<std::unique_ptr<Tool>>(); });
  ASSERT_TRUE(doc.openAny(path));
  ASSERT_TRUE(doc.agents.enabled());
  doc.agents.finish();
  doc.pollBake();
  ASSERT_TRUE(doc.nav.loaded());
  ASSERT_EQ(doc.agents.active(), 0);

  // As the Check panel does: the level file's seeds and their agents, every agent's navmesh.
  nav::bake::Level lf;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelFile(path, &lf, &why)) << why;
  CheckModel& m = doc.check;
  m.options.pairs = 200;
  m.levelSeeds = lf.seeds;
  m.levelSeedAgents = lf.seedAgents;
  const std::vector<CheckAgent> agents = doc.checkAgents();
  ASSERT_EQ(agents.size(), 3u);
  CheckModel::LevelTris tris;
  tris.verts = &doc.level.mesh().verts;
  tris.tris = &doc.level.mesh().tris;
  ASSERT_TRUE(m.start(agents, tris, &why)) << why;
  m.wait();
  ASSERT_TRUE(m.hasResult()) << m.error();
  ASSERT_EQ(m.reports().size(), 3u);

  const std::string out = (fs::path(path).parent_path() / "check.json").string();
  const int code = runCheckCli({path, "--pairs", "200", "--why", "0", "--json", out, "-q"});
  ASSERT_TRUE(code == 0 || code == 1) << code;
  std::ifstream in(out);
  const json cli = json::parse(in);
  ASSERT_EQ(cli["agents"].size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const CheckReportOf& r = m.reports()[i];
    EXPECT_EQ(r.index, int(i));
    EXPECT_EQ(r.name, lf.agents[i].name);
    json mine = nav::check::reportJson(path, r.result, r.options);
    mine["agent"] = r.name;
    EXPECT_EQ(mine, cli["agents"][i]) << r.name;
  }
  // The seeds are each agent's own: the truck cannot reach the dog's right-hand side from the left.
  EXPECT_EQ(m.reports()[0].options.seeds.size(), 2u);
  EXPECT_EQ(m.reports()[2].options.seeds.size(), 1u);
  EXPECT_EQ(m.count(0, nav::check::CHECK_ISLANDS), 0) << "the dog passes the gap";
  EXPECT_GT(m.count(2, nav::check::CHECK_ISLANDS), 0) << "the truck does not";

  // Findings come grouped per agent, in the agents' order.
  int truckFinding = -1;
  for (size_t i = 0; i < m.findings().size(); ++i) {
    if (i) {
      EXPECT_LE(m.findings()[i - 1].report, m.findings()[i].report);
    }
    if (truckFinding < 0 && m.findings()[i].report == 2 && m.findings()[i].kind == nav::check::CHECK_ISLANDS) truckFinding = int(i);
  }
  ASSERT_GE(truckFinding, 0);

  // Selecting the truck's finding makes the truck active; the results stay (nothing re-runs).
  const int runs = m.runs();
  ASSERT_TRUE(doc.selectCheckFinding(truckFinding));
  EXPECT_EQ(doc.agents.active(), 2);
  EXPECT_EQ(m.selected(), truckFinding);
  EXPECT_EQ(m.shownReport(), 2);
  EXPECT_FALSE(m.stale(doc.checkAgents()));
  m.poll(doc.checkAgents(), tris, 1e12, true);
  EXPECT_FALSE(m.running()) << "an agent switch does not re-run the checks";
  EXPECT_EQ(m.runs(), runs);
  // The island is the truck's: its polys are on the truck's navmesh, now the document's.
  const CheckFocus f = m.focus(truckFinding);
  ASSERT_EQ(f.kind, CheckFocus::Island);
  ASSERT_FALSE(f.polys.empty());
  for (nav::PolyRef ref : f.polys) EXPECT_TRUE(doc.nav.mesh().isValidPolyRef(ref));
  // A scenario names the finding's agent.
  json saved;
  m.saveScenario(saved);
  EXPECT_EQ(saved["selected"]["agent"], "truck");
  // A finding out of range selects nothing and leaves the active agent.
  EXPECT_FALSE(doc.selectCheckFinding(int(m.findings().size())));
  EXPECT_EQ(doc.agents.active(), 2);
}

} // namespace
} // namespace navbench
