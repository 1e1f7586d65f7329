// CheckPanelTest.cpp: the Check panel (issue 27) end to end through the real viewer, headless: the
// default level opened, F5 opens the panel (which runs the checks), Down steps to the first long
// detour, which is shown in Pathfind Straight with the pair `navbench check --json` reports for the
// same tile set and level, the shortest path on; the scenario the viewer would save holds the
// selection, and reopening it selects the same finding and shows the same pair again.
#include "ViewerRun.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string q(const std::string& s) { return "'" + s + "'"; }

void expectNear3(const json& a, const json& b, const char* what) {
  ASSERT_TRUE(a.is_array() && b.is_array() && a.size() == 3 && b.size() == 3) << what << ": " << a << " vs " << b;
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(a[i].get<double>(), b[i].get<double>(), 1e-4) << what << "[" << i << "]";
}

TEST(CheckPanel, F5RunsDownSelectsADetourShownInPathfindStraightAndTheScenarioReopensIt) {
  const fs::path dir = fs::path(NAVBENCH_TEST_TMP) / "check_panel";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string level = NAVBENCH_DEFAULT_LEVEL;
  const std::string bin = fs::path(level).replace_extension(".bin").string();

  // What the CLI reports for the tile set the viewer opens beside default.obj, with its triangles.
  const std::string report = (dir / "report.json").string();
  const navbench::test::CommandResult cli =
      navbench::test::runCommand(q(NAVBENCH_EXE) + " check " + q(bin) + " --level " + q(level) + " -q --json " + q(report));
  ASSERT_EQ(cli.exitCode, 1) << cli.output; // the default level has findings (islands, detours)
  json r;
  std::ifstream(report) >> r;
  ASSERT_FALSE(r["detours"].empty());
  int before = 0; // rows listed before the first detour: every error, then the island findings
  for (const json& c : r["checks"])
    if (c["severity"] == "error" || c["name"] == "islands") before += c["findings"].get<int>();

  std::string keys = " --key f5";
  for (int i = 0; i <= before; ++i) keys += " --key down";
  const navbench::test::AppRun run = navbench::test::runViewer(
      NAVBENCH_EXE, q(level) + keys + " --size 1280x720",
      {(dir / "shown.png").string(), (dir / "shown.json").string(), (dir / "config").string(), ""});
  ASSERT_EQ(run.exitCode, 0) << run.output;
  const json& s = run.state;
  ASSERT_TRUE(s.is_object()) << run.output;
  const json& check = s["check"];
  EXPECT_TRUE(check["shown"].get<bool>());
  EXPECT_EQ(check["runs"], 1);
  EXPECT_EQ(check["error"], "");
  for (const json& c : r["checks"])
    if (c["ran"].get<bool>()) {
      EXPECT_EQ(check["counts"][c["name"].get<std::string>()], c["findings"]) << c["name"];
    }
  EXPECT_EQ(check["selected"], before);
  EXPECT_EQ(check["focus"]["kind"], "pair");
  EXPECT_EQ(s["activeTool"], "Pathfind Straight");
  expectNear3(s["toolState"]["start"], r["detours"][0]["start"], "start");
  expectNear3(s["toolState"]["end"], r["detours"][0]["end"], "end");
  EXPECT_TRUE(s["toolState"]["shortestPath"].is_array() && !s["toolState"]["shortestPath"].empty()) << "shortest path not shown";
  // The check's filter and node budget are the viewer's now (the path is the one the check found).
  EXPECT_EQ(s["scenario"]["filter"]["includeFlags"], 0xffef);
  EXPECT_EQ(s["scenario"]["filter"]["maxNodes"], 2048);
  const json& sc = s["scenario"]["check"];
  EXPECT_EQ(sc["selected"]["kind"], "detours");
  EXPECT_EQ(sc["selected"]["index"], 0);
  EXPECT_TRUE(sc["visible"].get<bool>());
  EXPECT_EQ(sc["options"]["pairs"], 2000);
  EXPECT_TRUE(fs::file_size(dir / "shown.png") > 1000);

  // Reopen the scenario: the checks run again (same seed) and the same finding is selected.
  const std::string scen = (dir / "scenario.json").string();
  std::ofstream(scen) << s["scenario"].dump(2) << "\n";
  const navbench::test::AppRun again = navbench::test::runViewer(
      NAVBENCH_EXE, q(scen) + " --size 1280x720",
      {(dir / "reopened.png").string(), (dir / "reopened.json").string(), (dir / "config").string(), ""});
  ASSERT_EQ(again.exitCode, 0) << again.output;
  const json& a = again.state;
  EXPECT_EQ(a["check"]["selected"], before);
  EXPECT_EQ(a["check"]["runs"], 1);
  EXPECT_EQ(a["activeTool"], "Pathfind Straight");
  expectNear3(a["toolState"]["start"], r["detours"][0]["start"], "reopened start");
  expectNear3(a["toolState"]["end"], r["detours"][0]["end"], "reopened end");
  EXPECT_EQ(a["scenario"]["check"], sc);
  EXPECT_EQ(a["logErrors"], 0);
}

} // namespace
