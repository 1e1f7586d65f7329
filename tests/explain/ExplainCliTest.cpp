// ExplainCliTest.cpp: `navbench why` end to end: the JSON's shape, exit codes (0 explained or
// nothing to explain, 2 bad input with a message), a test-case file explained case by case.
#include "ExplainOracle.h"
#include "tests/support/Process.h"

#include "nav/NavMeshQuery.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"
#include "nav/check/NavCheck.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

const std::string kBin = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";

struct WhyRun {
  int code = -1;
  std::string out;
};

WhyRun why(const std::string& args) {
  WhyRun r;
  r.code = testproc::runCommand(std::string(testproc::navbenchExe()) + " why " + args, &r.out);
  return r;
}

class WhyCli : public ::testing::Test {
protected:
  void SetUp() override {
    if (!testproc::navbenchExe()) GTEST_SKIP() << "SKIPPED: navbench is not built in this configuration";
    json = testproc::tempPath("why_cli_", ::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".json";
  }
  void TearDown() override { std::remove(json.c_str()); }
  nlohmann::json readJson() const { return nlohmann::json::parse(testproc::readFile(json)); }
  std::string json;
};

TEST_F(WhyCli, ADoorExcludedByNameIsExplainedInJson) {
  const WhyRun r = why(kBin + " --start 46,0,28.9 --end 54,0,45 --filter walk,door --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("filter:"), std::string::npos) << r.out;
  const nlohmann::json j = readJson();
  ASSERT_TRUE(j.contains("causes"));
  ASSERT_EQ(j["causes"].size(), 1u) << j.dump(2);
  const nlohmann::json& c = j["causes"][0];
  EXPECT_EQ(c["kind"], "filter");
  EXPECT_TRUE(c["text"].is_string());
  EXPECT_TRUE(c["evidence"].is_object());
  EXPECT_EQ(c["evidence"]["firstBlockingAt"].size(), 3u);
  const nlohmann::json& cf = c["counterfactual"];
  EXPECT_EQ(cf["change"]["what"], "filter");
  EXPECT_EQ(cf["change"]["exclude"], 0);
  EXPECT_EQ(cf["result"]["reached"], true);
  EXPECT_TRUE(cf["result"]["length"].is_number());
  EXPECT_TRUE(cf["result"]["status"].is_string());
  EXPECT_EQ(cf["checked"], true);
  EXPECT_EQ(j["answer"]["reached"], false);
}

TEST_F(WhyCli, EveryKindOfChangeIsNamedInJson) {
  const struct {
    std::string args, kind, change;
  } cases[] = {
      {"--start 2,0,2 --end 54,0,45 --node-budget 32", "budget", "nodeBudget"},
      {"--start 46,0,4 --end 46,0,16 --area-cost water=10 --filter 0xffff,0", "filter", "areaCosts"},
      {"--start 30,3,40 --end 44,3,42 --filter 0xfff7,0", "link", "filter"},
      {"--start 9.962,0.2,8.063 --end 3.215,0.2,4.876", "detour", "anyAngle"},
      {"--start 30,0,47 --end 30,0,54", "snap", "halfExtents"},
  };
  for (const auto& c : cases) {
    const WhyRun r = why(kBin + " " + c.args + " --json " + json);
    ASSERT_EQ(r.code, 0) << c.args << "\n" << r.out;
    const nlohmann::json j = readJson();
    bool found = false;
    for (const nlohmann::json& cause : j["causes"])
      if (cause["kind"] == c.kind && cause["counterfactual"]["change"]["what"] == c.change) found = true;
    EXPECT_TRUE(found) << c.args << "\n" << j.dump(2);
  }
}

TEST_F(WhyCli, ALevelIsBakedFirstAndExplainedTheSame) {
  const std::string level = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.json";
  const WhyRun fromLevel = why(level + " --start 46,0,28.9 --end 54,0,45 --filter walk,door");
  const WhyRun fromBin = why(kBin + " --start 46,0,28.9 --end 54,0,45 --filter walk,door");
  ASSERT_EQ(fromLevel.code, 0) << fromLevel.out;
  EXPECT_NE(fromLevel.out.find("filter:"), std::string::npos) << fromLevel.out;
  EXPECT_EQ(fromLevel.out, fromBin.out);
}

TEST_F(WhyCli, AFineQuerySaysThereIsNothingToExplain) {
  const WhyRun r = why(kBin + " --start 46,0,28.9 --end 54,0,45 --json " + json);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("nothing to explain"), std::string::npos) << r.out;
  EXPECT_TRUE(readJson()["causes"].empty());
}

TEST_F(WhyCli, BadInputExitsTwoWithAMessageAndWritesNothing) {
  const struct {
    std::string args, says;
  } cases[] = {
      {"--start 2,0,2 --end 54,0,45 --node-budget 0", "--node-budget"},
      {"--start 2,0,2 --end 54,0,45 --node-budget 65536", "--node-budget"},
      {"--start 2,0,2 --end 54,0,45 --filter walk,bogus", "unknown poly flag 'bogus'"},
      {"--start 2,0,2 --end 54,0,45 --area-cost lava=3", "unknown area 'lava'"},
      {"--start 2,0,2 --end 500,0,500", "not near the navmesh"},
      {"--start 2,0 --end 54,0,45", "--start needs X,Y,Z"},
      {"--start 2,0,2", "give --start and --end"},
  };
  for (const auto& c : cases) {
    const WhyRun r = why(kBin + " " + c.args + " --json " + json);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.says), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_TRUE(testproc::readFile(json).empty()) << c.args;
  }
  const WhyRun missing = why("/nonexistent/mesh.bin --start 1,0,1 --end 2,0,2");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.out.find("/nonexistent/mesh.bin"), std::string::npos) << missing.out;
}

TEST_F(WhyCli, ATestCaseFileIsExplainedCaseByCase) {
  const std::string cases = json + ".txt";
  {
    std::ofstream f(cases);
    f << "s Tile Mesh\nf default.obj\n"
         "pf 46 0 28.9 54 0 45 0xffef 0x4\n" // the door excluded by the case's own filter
         "rc 1 0 1 5 0 5 0xffff 0x0\n"       // raycasts are not explained
         "pf 46 0 28.9 54 0 45 0xffef 0x0\n";
  }
  const WhyRun r = why(kBin + " --cases " + cases + " --json " + json);
  std::remove(cases.c_str());
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = readJson();
  ASSERT_EQ(j["cases"].size(), 2u) << j.dump(2);
  EXPECT_EQ(j["cases"][0]["line"], 3);
  ASSERT_EQ(j["cases"][0]["causes"].size(), 1u);
  EXPECT_EQ(j["cases"][0]["causes"][0]["kind"], "filter");
  EXPECT_EQ(j["cases"][1]["line"], 5);
  EXPECT_TRUE(j["cases"][1]["causes"].empty());
}

} // namespace

namespace {

TEST_F(WhyCli, CheckFindingsCarryTheirExplanationInJson) {
  std::string out;
  const int code = testproc::runCommand(std::string(testproc::navbenchExe()) + " check " + kBin +
                                            " -q --pairs 300 --detour-ratio 1.1 --detour-min 1 --node-budget 256 "
                                            "--no-seams --no-links --no-narrow --why 3 --json " +
                                            json,
                                        &out);
  ASSERT_LE(code, 1) << out;
  const nlohmann::json j = readJson();
  int explained = 0;
  for (const char* key : {"islands", "detours", "budget"}) {
    for (size_t i = 0; i < j[key].size(); ++i) {
      if (!j[key][i].contains("why")) continue;
      EXPECT_LT(explained, 9);
      ++explained;
      for (const nlohmann::json& c : j[key][i]["why"]) {
        EXPECT_EQ(c["counterfactual"]["checked"], true) << c.dump(2);
        EXPECT_TRUE(c["counterfactual"]["result"]["reached"].get<bool>()) << c.dump(2);
      }
    }
  }
  EXPECT_GT(explained, 0) << j.dump(1);
  ASSERT_FALSE(j["detours"].empty());
  ASSERT_TRUE(j["detours"][0].contains("why"));
  // --why 0: no explanations.
  ASSERT_LE(testproc::runCommand(std::string(testproc::navbenchExe()) + " check " + kBin +
                                     " -q --pairs 50 --no-seams --no-links --no-narrow --why 0 --json " + json,
                                 &out),
            1)
      << out;
  EXPECT_EQ(readJson().dump().find("\"why\""), std::string::npos);
}

} // namespace

namespace {

TEST_F(WhyCli, ADetourRowOfTheHtmlReportFramesBothPaths) {
  const std::string dir = json + ".html";
  std::string out;
  const int code =
      testproc::runCommand(std::string(testproc::navbenchExe()) + " check " + kBin +
                               " -q --pairs 300 --detour-ratio 1.1 --detour-min 1 --no-islands --no-budget "
                               "--no-seams --no-links --no-narrow --no-surface --html-time 0 --html-max 4 --html " +
                               dir,
                           &out);
  ASSERT_LE(code, 1) << out;
  nav::NavMesh mesh;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(kBin, mesh)));
  explaintest::DtMesh dt = explaintest::mirrorToDetour(mesh);
  ASSERT_TRUE(dt);
  nav::ShortestPath sp;
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&mesh)));
  const nav::QueryFilter filter = nav::check::defaultCheckFilter();
  int rows = 0;
  for (int i = 1; i <= 4; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "/finding-%02d.json", i);
    const std::string text = testproc::readFile(dir + name);
    if (text.empty()) break;
    const nlohmann::json s = nlohmann::json::parse(text);
    ++rows;
    nav::explain::Query q;
    for (int c = 0; c < 3; ++c) {
      q.start[size_t(c)] = s["tool"]["state"]["start"][size_t(c)];
      q.end[size_t(c)] = s["tool"]["state"]["end"][size_t(c)];
    }
    const explaintest::DtAnswer d = explaintest::detourRun(*dt, filter, q);
    ASSERT_TRUE(d.reached);
    std::vector<float> pts = d.straight;
    float exact[3 * 256];
    int n = 0;
    float spos[3], epos[3];
    nav::PolyRef sref = 0, eref = 0;
    nav::NavMeshQuery nq;
    ASSERT_TRUE(nav::statusSucceeded(nq.init(&mesh, 64)));
    nq.findNearestPoly(q.start.data(), q.halfExtents.data(), &filter, &sref, spos);
    nq.findNearestPoly(q.end.data(), q.halfExtents.data(), &filter, &eref, epos);
    sp.findPath(sref, eref, spos, epos, &filter, exact, nullptr, nullptr, &n, 256);
    pts.insert(pts.end(), exact, exact + n * 3);
    // Framed: the camera's distance is at least 1.6 times the box around both paths, centred on it,
    // so every corner lies within distance / 3.2 of the target.
    const float dist = s["camera"]["distance"];
    for (size_t k = 0; k + 2 < pts.size(); k += 3) {
      const float dx = pts[k] - float(s["camera"]["target"][0]), dy = pts[k + 1] - float(s["camera"]["target"][1]),
                  dz = pts[k + 2] - float(s["camera"]["target"][2]);
      EXPECT_LE(std::sqrt(dx * dx + dy * dy + dz * dz), dist / 3.2f + 1e-3f) << name;
    }
  }
  EXPECT_GT(rows, 0) << out;
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

} // namespace
