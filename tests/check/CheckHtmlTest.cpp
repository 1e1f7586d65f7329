// CheckHtmlTest.cpp: the HTML report's pieces (nav/check/CheckHtml.h) on a result made by hand:
// which findings get rows and in which order, the scenario each opens, and the page's text.
#include "nav/check/CheckHtml.h"
#include "nav/check/CheckReport.h"

#include <gtest/gtest.h>

using namespace nav::check;

namespace {

CheckResult sampleResult() {
  CheckResult r;
  for (bool& b : r.ran) b = true;
  r.ran[CHECK_SURFACE] = false;
  for (int i = 0; i < 2; ++i) {
    SeamFinding s;
    s.a = {10, 0, float(i)};
    s.b = {10, 0, float(i) + 2};
    s.pos = {10, 0, float(i) + 1};
    r.seams.push_back(s);
  }
  for (float w : {0.08f, 0.02f, 0.05f}) {
    NarrowFinding n;
    n.width = w;
    n.pos = {w * 100, 0, 3};
    r.narrow.push_back(n);
  }
  for (float ratio : {2.0f, 1.5f}) {
    DetourFinding d;
    d.start = {1, 0, 1};
    d.end = {1 + 10 * ratio, 0.5f, 9};
    d.ratio = ratio;
    d.detourLen = d.detourMetric = 20 * ratio;
    d.exactLen = 20;
    r.detours.push_back(d);
  }
  return r;
}

} // namespace

TEST(CheckHtml, ErrorsFirstThenChecksInTurnWorstFirst) {
  const CheckResult r = sampleResult();
  const std::vector<HtmlFinding> rows = worstFindings(r, 50);
  ASSERT_EQ(rows.size(), 7u);
  EXPECT_EQ(rows[0].kind, CHECK_SEAMS);
  EXPECT_EQ(rows[1].kind, CHECK_SEAMS);
  // Warnings in turn: detours (worst ratio), narrow (narrowest), then the second of each.
  EXPECT_EQ(rows[2].kind, CHECK_DETOURS);
  EXPECT_FLOAT_EQ(rows[2].end[0], 21.0f);
  EXPECT_TRUE(rows[2].pair);
  EXPECT_EQ(rows[3].kind, CHECK_NARROW);
  EXPECT_EQ(rows[3].index, 1); // the 0.02 m portal
  EXPECT_NE(rows[3].text.find("0.020 m wide"), std::string::npos) << rows[3].text;
  EXPECT_EQ(rows[4].kind, CHECK_DETOURS);
  EXPECT_EQ(rows[5].kind, CHECK_NARROW);
  EXPECT_EQ(rows[5].index, 2);
  EXPECT_EQ(rows[6].index, 0);
  EXPECT_EQ(worstFindings(r, 3).size(), 3u);
  EXPECT_TRUE(worstFindings(CheckResult(), 50).empty());
}

TEST(CheckHtml, ScenarioShowsThePairOrThePlace) {
  const CheckResult r = sampleResult();
  const std::vector<HtmlFinding> rows = worstFindings(r, 50);
  nav::QueryFilter filter = defaultCheckFilter();
  filter.setAreaCost(3, 2.5f);
  ScenarioFiles files;
  files.navmesh = "../levels/x.bin";
  const nlohmann::json pair = findingScenario(rows[2], files, filter, 1234);
  EXPECT_EQ(pair["navbenchScenario"], 1);
  EXPECT_EQ(pair["navmesh"], "../levels/x.bin");
  EXPECT_EQ(pair["level"], "");
  EXPECT_EQ(pair["tool"]["name"], "Pathfind Straight");
  EXPECT_EQ(pair["tool"]["state"]["shortest"], true);
  EXPECT_EQ(pair["tool"]["state"]["start"][0].get<float>(), 1.0f);
  EXPECT_EQ(pair["tool"]["state"]["end"][0].get<float>(), 21.0f);
  EXPECT_EQ(pair["filter"]["includeFlags"], 0xffef);
  EXPECT_EQ(pair["filter"]["maxNodes"], 1234);
  ASSERT_EQ(pair["filter"]["areas"].size(), 1u);
  EXPECT_EQ(pair["filter"]["areas"][0]["area"], 3);
  // The camera looks at the pair's middle from far enough to see both ends.
  EXPECT_FLOAT_EQ(pair["camera"]["target"][0].get<float>(), 11.0f);
  EXPECT_GT(pair["camera"]["distance"].get<float>(), 20.0f);
  const nlohmann::json seam = findingScenario(rows[0], files, filter, 2048);
  EXPECT_EQ(seam["tool"]["name"], "Distance to Wall");
  EXPECT_EQ(seam["tool"]["state"]["start"], seam["camera"]["target"]);
  EXPECT_FALSE(seam["tool"]["state"].contains("end"));
}

TEST(CheckHtml, PageNamesEveryCheckAndLinksOnlyWhatIsSet) {
  const CheckResult r = sampleResult();
  std::vector<HtmlFinding> rows = worstFindings(r, 2);
  rows[0].scenario = "finding-01.json";
  rows[0].image = "finding-01.png";
  const std::string page = reportHtml("<odd & name>", r, rows, "No pictures: because.");
  EXPECT_NE(page.find("&lt;odd &amp; name&gt;"), std::string::npos);
  EXPECT_EQ(page.find("<odd"), std::string::npos);
  for (int k = 0; k < CHECK_COUNT; ++k)
    EXPECT_NE(page.find(std::string("<tr><td>") + checkName(k) + "</td>"), std::string::npos) << checkName(k);
  EXPECT_NE(page.find("<td class=\"skip\">skipped</td>"), std::string::npos); // surface did not run
  EXPECT_NE(page.find("No pictures: because."), std::string::npos);
  EXPECT_NE(page.find("href=\"finding-01.json\""), std::string::npos);
  EXPECT_NE(page.find("src=\"finding-01.png\""), std::string::npos);
  EXPECT_EQ(page.find("finding-02"), std::string::npos);
  EXPECT_EQ(page.find("http"), std::string::npos);
  EXPECT_NE(reportHtml("m", CheckResult(), {}, "").find("No findings."), std::string::npos);
}
