// ExplainTest.cpp: nav_explain on planted causes and on levels with none. Each planted cause (a
// doorway excluded by the filter, a gap between two floors, a budget too small, an end clicked
// above its floor, a long detour by portal midpoints, a link ending in the air, a jump link the
// filter refuses, water costs, an end off the navmesh) must be named, with a counterfactual that,
// run independently through Detour (ExplainOracle.h), gives the answer the explainer says; and
// the planted fault itself must show in Detour's answer to the original query. On the default
// level and the shared levels (random areas, flags, links and filters; SKIPPED when absent) every
// cause reported for random queries and for `navbench check`'s findings has a checked
// counterfactual that Detour reproduces.
#include "CheckMeshes.h"
#include "DualMesh.h"
#include "ExplainOracle.h"

#include "nav/NavAreas.h"
#include "nav/NavMeshQuery.h"
#include "nav/TileSetFile.h"
#include "nav/check/CheckHtml.h"
#include "nav/check/NavCheck.h"
#include "nav/explain/AddLink.h"
#include "nav/explain/Explain.h"
#include "nav/explain/ExplainFindings.h"
#include "nav/explain/ExplainJson.h"

#include <DetourNavMeshQuery.h>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace nav::explain;
using explaintest::checkAgainstDetour;
using explaintest::detourRun;
using explaintest::mirrorToDetour;

namespace {

Query makeQuery(Vec3 s, Vec3 e, int budget = 2048) {
  Query q;
  q.start = s;
  q.end = e;
  q.nodeBudget = budget;
  return q;
}

const Cause* findCause(const Explanation& e, int kind, int change) {
  for (const Cause& c : e.causes)
    if (c.kind == kind && c.counterfactual.change == change) return &c;
  return nullptr;
}

std::string causesText(const Explanation& e) {
  std::string s;
  for (const std::string& l : describeCauses(e)) s += "\n  " + l;
  return s.empty() ? " (no causes)" : s;
}

const Evidence* evidence(const Cause& c, const char* name) {
  for (const Evidence& e : c.evidence)
    if (e.name == name) return &e;
  return nullptr;
}

/// The default level's tile set, ours and Detour's (the same blobs).
class DefaultLevel : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    mesh = new nav::NavMesh();
    std::string why;
    ASSERT_TRUE(nav::statusSucceeded(
        nav::loadTileSetFile(std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin", *mesh, &why)))
        << why;
    dt = mirrorToDetour(*mesh).release();
    ASSERT_NE(dt, nullptr);
  }
  static void TearDownTestSuite() {
    explaintest::DtMeshDeleter()(dt);
    delete mesh;
    dt = nullptr;
    mesh = nullptr;
  }
  /// Explains and checks every cause against Detour.
  Explanation explainChecked(const nav::QueryFilter& f, const Query& q) {
    Explanation e;
    std::string why;
    EXPECT_TRUE(nav::statusSucceeded(explainQuery(*mesh, f, q, ExplainOptions(), e, &why))) << why;
    for (const Cause& c : e.causes) EXPECT_EQ(checkAgainstDetour(*mesh, *dt, f, q, c), "") << c.text;
    return e;
  }
  static nav::NavMesh* mesh;
  static dtNavMesh* dt;
};
nav::NavMesh* DefaultLevel::mesh = nullptr;
dtNavMesh* DefaultLevel::dt = nullptr;

TEST_F(DefaultLevel, DoorwayExcludedByTheFilterIsNamedAndAllowingItFindsThePath) {
  nav::QueryFilter f = nav::check::defaultCheckFilter();
  f.setExcludeFlags(nav::FLAG_DOOR);
  const Query q = makeQuery({46, 0, 28.9f}, {54, 0, 45});
  EXPECT_FALSE(detourRun(*dt, f, q).reached); // the plant: Detour finds no way in either
  const Explanation e = explainChecked(f, q);
  const Cause* c = findCause(e, CAUSE_FILTER, CHANGE_FILTER);
  ASSERT_NE(c, nullptr) << causesText(e);
  EXPECT_EQ(c->counterfactual.exclude & nav::FLAG_DOOR, 0);
  EXPECT_TRUE(c->counterfactual.result.reached);
  const Evidence* flags = evidence(*c, "blockingFlags");
  ASSERT_NE(flags, nullptr);
  EXPECT_NE(flags->text.find("door"), std::string::npos);
  // The blocking poly is in the doorway (x 47.75..48.25, z 28..30.4).
  const Evidence* at = evidence(*c, "firstBlockingAt");
  ASSERT_NE(at, nullptr);
  EXPECT_NEAR(at->point[0], 48.0f, 1.0f);
  EXPECT_NEAR(at->point[2], 29.2f, 1.5f);
}

TEST_F(DefaultLevel, BudgetTooSmallGetsTheSmallestBudgetThatCompletesThePath) {
  const nav::QueryFilter f = nav::check::defaultCheckFilter();
  const Query q = makeQuery({2, 0, 2}, {54, 0, 45}, 32);
  EXPECT_FALSE(detourRun(*dt, f, q).reached);
  const Explanation e = explainChecked(f, q);
  const Cause* c = findCause(e, CAUSE_BUDGET, CHANGE_NODE_BUDGET);
  ASSERT_NE(c, nullptr) << causesText(e);
  const int n = c->counterfactual.nodeBudget;
  EXPECT_GT(n, 32);
  Query smaller = q;
  smaller.nodeBudget = n - 1; // the smallest: one node less does not complete it in Detour either
  EXPECT_FALSE(detourRun(*dt, f, smaller).reached);
  EXPECT_EQ(evidence(*c, "nodesUsed")->number, 32.0);
}

TEST_F(DefaultLevel, JumpLinkRefusedByTheFilterIsALinkCause) {
  nav::QueryFilter f;
  f.setIncludeFlags(uint16_t(0xffff & ~nav::FLAG_JUMP));
  const Query q = makeQuery({30, 3, 40}, {44, 3, 42});
  EXPECT_FALSE(detourRun(*dt, f, q).reached);
  const Explanation e = explainChecked(f, q);
  const Cause* c = findCause(e, CAUSE_LINK, CHANGE_FILTER);
  ASSERT_NE(c, nullptr) << causesText(e);
  EXPECT_TRUE(c->counterfactual.include & nav::FLAG_JUMP);
  EXPECT_TRUE(c->counterfactual.result.reached);
}

TEST_F(DefaultLevel, WaterCostMakesTheWayRoundThePoolAndUniformCostsGoThrough) {
  nav::QueryFilter f;
  f.setAreaCost(nav::AREA_WATER, 10.0f);
  const Query q = makeQuery({46, 0, 4}, {46, 0, 16});
  const Explanation e = explainChecked(f, q);
  const Cause* c = findCause(e, CAUSE_FILTER, CHANGE_AREA_COSTS);
  ASSERT_NE(c, nullptr) << causesText(e);
  EXPECT_LT(c->counterfactual.result.length, e.answer.length - 5.0f); // ~12 m through, ~25 m round
  ASSERT_NE(evidence(*c, "water.cost"), nullptr);
  EXPECT_EQ(evidence(*c, "water.cost")->number, 10.0);
  EXPECT_GT(evidence(*c, "water.shorterPathCost")->number, 10.0); // 6 m of water at 10
}

TEST_F(DefaultLevel, LongDetourByPortalMidpointsNamesTheExpansionAndAnyAngleShortensIt) {
  const nav::QueryFilter f = nav::check::defaultCheckFilter();
  const Query q = makeQuery({9.962f, 0.2f, 8.063f}, {3.215f, 0.2f, 4.876f}); // by the half wall of hall A
  const explaintest::DtAnswer plain = detourRun(*dt, f, q);
  ASSERT_TRUE(plain.reached);
  const Explanation e = explainChecked(f, q);
  const Cause* c = findCause(e, CAUSE_DETOUR, CHANGE_ANY_ANGLE);
  ASSERT_NE(c, nullptr) << causesText(e);
  EXPECT_GE(c->expansion, 0);
  EXPECT_NE(evidence(*c, "chosenPortal"), nullptr);
  EXPECT_NE(evidence(*c, "shortestPortal"), nullptr);
  // A* thought the shortest path's portal no cheaper to reach than the one it took; as the paths
  // cross them, it is.
  const Evidence* toChosen = evidence(*c, "chosenPortalPathLength");
  const Evidence* toShortest = evidence(*c, "shortestPortalPathLength");
  ASSERT_NE(toChosen, nullptr);
  ASSERT_NE(toShortest, nullptr);
  EXPECT_GT(toChosen->number, 0.0);
  EXPECT_GT(toShortest->number, 0.0);
  EXPECT_LE(evidence(*c, "chosenTotal")->number, evidence(*c, "shortestTotal")->number);
  EXPECT_LT(c->counterfactual.result.length, plain.length - 1.0f);
  EXPECT_GT(e.answer.metric, e.exactMetric * 1.2f);
}

TEST_F(DefaultLevel, EndOffTheNavmeshGetsTheExtentsThatReachIt) {
  const nav::QueryFilter f = nav::check::defaultCheckFilter();
  const Query q = makeQuery({30, 0, 47}, {30, 0, 54}); // 4 m beyond the back corridor's wall
  EXPECT_EQ(detourRun(*dt, f, q).endRef, 0u);
  const Explanation e = explainChecked(f, q);
  const Cause* c = findCause(e, CAUSE_SNAP, CHANGE_HALF_EXTENTS);
  ASSERT_NE(c, nullptr) << causesText(e);
  EXPECT_GT(c->counterfactual.halfExtents[2], 2.0f);
  EXPECT_NE(c->counterfactual.result.endRef, 0u);
}

TEST_F(DefaultLevel, AFineAnswerHasNothingToExplain) {
  const nav::QueryFilter f = nav::check::defaultCheckFilter();
  const Explanation e = explainChecked(f, makeQuery({46, 0, 28.9f}, {54, 0, 45}));
  EXPECT_TRUE(e.answer.reached);
  EXPECT_TRUE(e.causes.empty()) << causesText(e);
}

TEST_F(DefaultLevel, BadInputIsRefusedNotExplained) {
  const nav::QueryFilter f;
  Explanation e;
  std::string why;
  EXPECT_EQ(explainQuery(*mesh, f, makeQuery({2, 0, 2}, {54, 0, 45}, 0), ExplainOptions(), e, &why),
            nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_NE(why.find("node budget"), std::string::npos);
  EXPECT_EQ(explainQuery(*mesh, f, makeQuery({2, 0, 2}, {54, 0, 45}, 70000), ExplainOptions(), e, &why),
            nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(explainQuery(*mesh, f, makeQuery({2, 0, 2}, {500, 0, 500}), ExplainOptions(), e, &why),
            nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_NE(why.find("not near the navmesh"), std::string::npos);
  EXPECT_TRUE(e.causes.empty());
  EXPECT_EQ(explainQuery(*mesh, f, makeQuery({NAN, 0, 2}, {5, 0, 5}), ExplainOptions(), e, &why),
            nav::FAILURE | nav::INVALID_PARAM);
  ExplainOptions bad;
  bad.detourRatio = 0.5f;
  EXPECT_EQ(explainQuery(*mesh, f, makeQuery({2, 0, 2}, {5, 0, 5}), bad, e, &why), nav::FAILURE | nav::INVALID_PARAM);
}

TEST_F(DefaultLevel, SameQuerySameExplanation) {
  nav::QueryFilter f;
  f.setAreaCost(nav::AREA_WATER, 10.0f);
  f.setExcludeFlags(nav::FLAG_DOOR);
  const Query q = makeQuery({46, 0, 4}, {54, 0, 45});
  Explanation a, b;
  ASSERT_TRUE(nav::statusSucceeded(explainQuery(*mesh, f, q, ExplainOptions(), a)));
  ASSERT_TRUE(nav::statusSucceeded(explainQuery(*mesh, f, q, ExplainOptions(), b)));
  EXPECT_FALSE(a.causes.empty());
  EXPECT_EQ(explanationJson(q, a).dump(), explanationJson(q, b).dump());
}

// ---- generated meshes -------------------------------------------------------------------------------

struct Generated {
  std::unique_ptr<nav::NavMesh> mesh;
  explaintest::DtMesh dt;
  explicit Generated(const checktest::TestMeshSpec& s) : mesh(checktest::buildMesh(s)) {
    if (mesh) dt = mirrorToDetour(*mesh);
  }
};

Explanation explainOn(const Generated& g, const nav::QueryFilter& f, const Query& q) {
  Explanation e;
  std::string why;
  EXPECT_TRUE(nav::statusSucceeded(explainQuery(*g.mesh, f, q, ExplainOptions(), e, &why))) << why;
  for (const Cause& c : e.causes) EXPECT_EQ(checkAgainstDetour(*g.mesh, *g.dt, f, q, c), "") << c.text;
  return e;
}

TEST(ExplainGenerated, GapBetweenTwoFloorsGetsTheJoiningLinkCheckedOnACopy) {
  checktest::TestMeshSpec s;
  s.polys = {checktest::rect(0, 0, 10, 10, 0), checktest::rect(12, 0, 20, 10, 1.5f)}; // 2 m across, 1.5 m up
  Generated g(s);
  ASSERT_TRUE(g.mesh && g.dt);
  const nav::QueryFilter f;
  const Query q = makeQuery({5, 0, 5}, {16, 1.5f, 5});
  EXPECT_FALSE(detourRun(*g.dt, f, q).reached);
  const Explanation e = explainOn(g, f, q);
  const Cause* c = findCause(e, CAUSE_ISLANDS, CHANGE_LINK);
  ASSERT_NE(c, nullptr) << causesText(e);
  EXPECT_NEAR(evidence(*c, "horizontalGap")->number, 2.0, 0.05);
  EXPECT_NEAR(evidence(*c, "heightDifference")->number, 1.5, 0.05);
  EXPECT_NEAR(evidence(*c, "gap")->number, 2.5, 0.05);
  EXPECT_EQ(evidence(*c, "jumpable")->text, "yes");
  EXPECT_TRUE(c->counterfactual.result.reached);
  // The original mesh is untouched: still no path.
  EXPECT_FALSE(runQuery(*g.mesh, f, q).reached);
}

TEST(ExplainGenerated, LinkEndingInTheAirIsNamedAndItsEndOnTheFloorConnects) {
  checktest::TestMeshSpec s;
  s.polys = {checktest::rect(0, 0, 10, 10, 0), checktest::rect(12, 0, 20, 10, 0)};
  checktest::TestOffMesh link{{9.5f, 0, 5}, {14, 3, 5}, 0.5f, false, 7}; // ends 3 m above the far floor
  s.offMesh.push_back(link);
  Generated g(s);
  ASSERT_TRUE(g.mesh && g.dt);
  const nav::QueryFilter f;
  const Query q = makeQuery({2, 0, 5}, {18, 0, 5});
  EXPECT_FALSE(detourRun(*g.dt, f, q).reached);
  const Explanation e = explainOn(g, f, q);
  const Cause* c = findCause(e, CAUSE_LINK, CHANGE_LINK);
  ASSERT_NE(c, nullptr) << causesText(e);
  EXPECT_EQ(evidence(*c, "userId")->number, 7.0);
  EXPECT_NEAR(evidence(*c, "endOffMesh")->number, 3.0, 0.05);
  EXPECT_NEAR(c->counterfactual.link.end[1], 0.0f, 0.05f);
  EXPECT_TRUE(c->counterfactual.result.reached);
}

TEST(ExplainGenerated, EndClickedOnABalconyAboveItsFloorGetsTheBalconyPoly) {
  checktest::TestMeshSpec s;
  s.polys = {checktest::rect(0, 0, 10, 10, 0), checktest::rect(0, 0, 4, 10, 3)}; // floor, balcony 3 m up
  Generated g(s);
  ASSERT_TRUE(g.mesh && g.dt);
  const nav::QueryFilter f;
  const Query q = makeQuery({9, 0, 5}, {8, 2.8f, 5}); // the click: at the balcony's height, 4 m off its edge
  const explaintest::DtAnswer orig = detourRun(*g.dt, f, q);
  ASSERT_NE(orig.endRef, 0u);
  const Explanation e = explainOn(g, f, q);
  const Cause* c = findCause(e, CAUSE_SNAP, CHANGE_HALF_EXTENTS);
  ASSERT_NE(c, nullptr) << causesText(e);
  EXPECT_EQ(evidence(*c, "end")->text, "end");
  EXPECT_NEAR(evidence(*c, "heightDifference")->number, -2.8, 0.05);
  const nav::PolyRef balcony = evidence(*c, "clickedFloorPoly")->poly;
  EXPECT_NE(balcony, orig.endRef);
  EXPECT_EQ(c->counterfactual.result.endRef, balcony);
  EXPECT_NEAR(evidence(*c, "clickedFloorPoint")->point[1], 3.0f, 0.05f);
}

TEST(ExplainGenerated, ACopyWithoutLinksKeepsRefsAndAnswers) {
  checktest::TestMeshSpec s = checktest::twoTileField();
  Generated g(s);
  ASSERT_TRUE(g.mesh && g.dt);
  nav::NavMesh copy;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(copyWithLinks(*g.mesh, nullptr, 0, copy, &why))) << why;
  const nav::QueryFilter f;
  const Query q = makeQuery({1, 0, 1}, {19, 0, 9});
  const Answer a = runQuery(*g.mesh, f, q), b = runQuery(copy, f, q);
  EXPECT_TRUE(a.reached);
  EXPECT_EQ(a.corridor, b.corridor);
  EXPECT_EQ(a.length, b.length);
  // A link whose end is two tiles away cannot connect: refused.
  LinkSpec far;
  far.start = {1, 0, 1};
  far.end = {25, 0, 1};
  far.flags = 1;
  EXPECT_TRUE(nav::statusFailed(copyWithLinks(*g.mesh, &far, 1, copy, &why)));
}

// ---- levels with no planted fault ----------------------------------------------------------------------

/// Explains `pairs` random queries (random points of the mesh, the given filter) and the check's
/// detour and budget findings; every cause's counterfactual must be checked and match Detour.
void explainLevel(const nav::NavMesh& mesh, const dtNavMesh& dt, const nav::QueryFilter& filter, int pairs,
                  int* causes) {
  nav::check::CheckOptions co;
  co.seams = co.links = co.narrow = co.surface = false;
  co.pairs = 200;
  co.nodeBudget = 256;
  co.threads = 1;
  co.detourRatio = 1.1f;
  co.detourMinExtra = 1.0f;
  nav::check::CheckResult cr;
  ASSERT_TRUE(nav::statusSucceeded(nav::check::runChecks(mesh, filter, co, cr)));
  std::vector<Query> queries;
  for (size_t i = 0; i < cr.detours.size() && i < 6; ++i)
    queries.push_back(makeQuery(cr.detours[i].start, cr.detours[i].end, co.nodeBudget));
  for (size_t i = 0; i < cr.budget.size() && i < 4; ++i)
    queries.push_back(makeQuery(cr.budget[i].start, cr.budget[i].end, co.nodeBudget));
  nav::NavMeshQuery nq;
  ASSERT_TRUE(nav::statusSucceeded(nq.init(&mesh, 64)));
  querytest::seedRandom(77);
  for (int i = 0; i < pairs; ++i) {
    nav::PolyRef a = 0, b = 0;
    float pa[3], pb[3];
    nq.findRandomPoint(&filter, querytest::frand, &a, pa);
    nq.findRandomPoint(&filter, querytest::frand, &b, pb);
    if (a && b) queries.push_back(makeQuery({pa[0], pa[1], pa[2]}, {pb[0], pb[1], pb[2]}, 1024));
  }
  for (const Query& q : queries) {
    Explanation e;
    std::string why;
    ASSERT_TRUE(nav::statusSucceeded(explainQuery(mesh, filter, q, ExplainOptions(), e, &why))) << why;
    for (const Cause& c : e.causes) {
      ++*causes;
      EXPECT_TRUE(c.counterfactual.checked);
      EXPECT_FALSE(c.text.empty());
      EXPECT_EQ(checkAgainstDetour(mesh, dt, filter, q, c), "") << c.text;
    }
  }
}

TEST_F(DefaultLevel, EveryCauseOnTheDefaultLevelHasACounterfactualDetourReproduces) {
  int causes = 0;
  explainLevel(*mesh, *dt, nav::check::defaultCheckFilter(), 20, &causes);
  EXPECT_GT(causes, 0); // the check's detours and budget findings have causes
}

class SharedLevels : public ::testing::TestWithParam<const char*> {};

TEST_P(SharedLevels, EveryCauseHasACounterfactualDetourReproduces) {
  const std::string path = querytest::levelPath(GetParam());
  if (path.empty()) GTEST_SKIP() << "SKIPPED: " << querytest::sharedLevelMissing(GetParam());
  std::string why;
  const querytest::DualMesh* dm = querytest::loadDual(path, true, true, &why);
  ASSERT_NE(dm, nullptr) << why;
  querytest::Filters filters;
  querytest::seedRandom(5);
  querytest::randomFilter(filters, false);
  int causes = 0;
  explainLevel(dm->nav, *dm->dt, filters.nav, 12, &causes);
  std::printf("%s: %d causes checked against Detour\n", GetParam(), causes);
}

INSTANTIATE_TEST_SUITE_P(Levels, SharedLevels, ::testing::Values("default", "nav_test.obj", "dungeon.obj"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string n = i.param;
                           return n.substr(0, n.find('.'));
                         });

} // namespace

namespace {

TEST(ExplainGenerated, AnUnreachableIslandFindingIsExplainedWithALink) {
  checktest::TestMeshSpec s;
  s.polys = {checktest::rect(0, 0, 10, 10, 0), checktest::rect(12, 0, 20, 10, 0), checktest::rect(12, 12, 20, 20, 0)};
  Generated g(s);
  ASSERT_TRUE(g.mesh && g.dt);
  const nav::QueryFilter f;
  nav::check::CheckOptions co;
  co.detours = co.budget = co.seams = co.narrow = co.surface = false;
  co.seeds.push_back({5, 0, 5});
  nav::check::CheckResult cr;
  ASSERT_TRUE(nav::statusSucceeded(nav::check::runChecks(*g.mesh, f, co, cr)));
  ASSERT_EQ(cr.unreachableIslands(), 2);
  const FindingExplanations fe = explainFindings(*g.mesh, f, co, cr, 1); // the first only
  ASSERT_EQ(fe.islands.size(), 1u);
  const FindingExplanation& x = fe.islands[0];
  EXPECT_FALSE(cr.islands[size_t(x.index)].reachable);
  const Cause* c = findCause(x.explanation, CAUSE_ISLANDS, CHANGE_LINK);
  ASSERT_NE(c, nullptr) << causesText(x.explanation);
  EXPECT_EQ(checkAgainstDetour(*g.mesh, *g.dt, f, x.query, *c), "");
  EXPECT_TRUE(fe.detours.empty() && fe.budget.empty());
}

} // namespace

namespace {

TEST(ExplainReport, AnHtmlRowListsItsCausesEscaped) {
  nav::check::CheckResult r;
  r.ran[nav::check::CHECK_DETOURS] = true;
  nav::check::HtmlFinding row;
  row.kind = nav::check::CHECK_DETOURS;
  row.text = "a detour";
  row.why = {"detour: Detour's path <longer> [checked: anyAngle -> complete, 7.47 m]"};
  const std::string html = nav::check::reportHtml("m.bin", r, {row}, "");
  EXPECT_NE(html.find("<ul class=\"why\"><li>detour: Detour&apos;s path &lt;longer&gt; [checked: anyAngle -&gt; "
                      "complete, 7.47 m]</li></ul>"),
            std::string::npos)
      << html;
  row.why.clear();
  EXPECT_EQ(nav::check::reportHtml("m.bin", r, {row}, "").find("<ul class=\"why\">"), std::string::npos);
}

} // namespace
