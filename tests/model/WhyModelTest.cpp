// WhyModelTest.cpp: the Why panel's model on a tester's query. Each cause tests/explain plants (a
// doorway excluded by the filter, a budget too small, a jump link the filter refuses, water costs,
// a portal-midpoint detour, an end off the navmesh, a gap between two floors, a link ending in the
// air, an end clicked on a balcony) shows up for the same query clicked in Pathfind Straight; an
// applied counterfactual changes the tester's settings so that its path completes, and one undo
// puts them back.
#include "CheckMeshes.h"
#include "EditFixture.h"

#include "app/NavState.h"
#include "app/model/CheckModel.h"
#include "app/model/History.h"
#include "app/model/TesterModes.h"
#include "app/model/WhyModel.h"
#include "nav/NavAreas.h"
#include "nav/NavTypes.h"
#include "nav/explain/ExplainFindings.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

using namespace navbench;
using nav::explain::CAUSE_BUDGET;
using nav::explain::CAUSE_DETOUR;
using nav::explain::CAUSE_FILTER;
using nav::explain::CAUSE_ISLANDS;
using nav::explain::CAUSE_LINK;
using nav::explain::CAUSE_SNAP;
using nav::explain::CHANGE_ANY_ANGLE;
using nav::explain::CHANGE_AREA_COSTS;
using nav::explain::CHANGE_FILTER;
using nav::explain::CHANGE_HALF_EXTENTS;
using nav::explain::CHANGE_LINK;
using nav::explain::CHANGE_NODE_BUDGET;

namespace {

std::string defaultBin() {
  return (std::filesystem::path(NAVBENCH_DEFAULT_LEVEL).parent_path() / "default.bin").string();
}

/// Pathfind Straight on a NavState, its Why model wired as the app wires it (an applied change
/// re-runs the tester), and the app's one history.
struct Bench {
  /// The tester's start / end steps in the history (the app's Tool does this).
  struct TesterSteps : HistoryClient {
    TesterModel* t = nullptr;
    void undo() override { t->undo(); }
    void redo() override { t->redo(); }
  };
  NavState nav;
  StraightModel tester;
  TesterSteps steps;
  WhyModel why;
  History history;
  Bench() {
    tester.setNav(&nav);
    steps.t = &tester;
    tester.inputChanged = [this]() { history.push(&steps); };
    why.settingsChanged = [this]() { tester.recomputeAll(); };
  }
  bool open() {
    std::string err;
    const bool ok = nav.loadBin(defaultBin(), err);
    EXPECT_TRUE(ok) << err;
    return ok;
  }
  bool adopt(const checktest::TestMeshSpec& s) {
    std::unique_ptr<nav::NavMesh> m = checktest::buildMesh(s);
    if (!m) return false;
    nav.adopt(std::move(*m), "generated");
    tester.levelChanged();
    return true;
  }
  void query(const glm::vec3& a, const glm::vec3& b) {
    tester.setStart(a);
    tester.setEnd(b);
    why.update(nav, &tester);
  }
  /// The index of the first cause of `kind` with `change`, or -1.
  int find(int kind, int change) const {
    const auto& cs = why.explanation().causes;
    for (size_t i = 0; i < cs.size(); ++i)
      if (cs[i].kind == kind && cs[i].counterfactual.change == change) return int(i);
    return -1;
  }
  std::string causes() const {
    std::string s;
    for (const std::string& l : nav::explain::describeCauses(why.explanation())) s += "\n  " + l;
    return s.empty() ? " (none; error: " + why.error() + ")" : s;
  }
  bool complete() const {
    return tester.corridorSize() > 0 && nav::statusSucceeded(tester.status()) &&
           !nav::statusDetail(tester.status(), nav::PARTIAL_RESULT);
  }
};

} // namespace

TEST(WhyModel, DoorExcludedIsAFilterCauseAndApplyingItCompletesThePathUntilUndone) {
  Bench b;
  ASSERT_TRUE(b.open());
  b.nav.filter().setExcludeFlags(nav::FLAG_DOOR);
  b.query({46, 0, 28.9f}, {54, 0, 45});
  EXPECT_FALSE(b.complete());
  const int i = b.find(CAUSE_FILTER, CHANGE_FILTER);
  ASSERT_GE(i, 0) << b.causes();
  EXPECT_TRUE(b.why.applicable(i));
  const size_t steps = b.history.undoCount();
  std::string why;
  ASSERT_TRUE(b.why.apply(i, b.nav, b.history, &why)) << why;
  EXPECT_EQ(b.nav.filter().getExcludeFlags() & nav::FLAG_DOOR, 0);
  EXPECT_TRUE(b.complete());
  EXPECT_EQ(b.history.undoCount(), steps + 1);
  // The changed settings are a new query: explained again, and now there is nothing to explain.
  EXPECT_TRUE(b.why.update(b.nav, &b.tester));
  EXPECT_TRUE(b.why.explanation().causes.empty()) << b.causes();
  ASSERT_TRUE(b.history.undo());
  EXPECT_EQ(b.nav.filter().getExcludeFlags(), nav::FLAG_DOOR);
  EXPECT_FALSE(b.complete());
  ASSERT_TRUE(b.history.redo());
  EXPECT_EQ(b.nav.filter().getExcludeFlags() & nav::FLAG_DOOR, 0);
  EXPECT_TRUE(b.complete());
}

TEST(WhyModel, BudgetTooSmallIsABudgetCauseAndApplyingItSetsTheBudget) {
  Bench b;
  ASSERT_TRUE(b.open());
  b.nav.setMaxNodes(32);
  b.query({2, 0, 2}, {54, 0, 45});
  EXPECT_FALSE(b.complete());
  const int i = b.find(CAUSE_BUDGET, CHANGE_NODE_BUDGET);
  ASSERT_GE(i, 0) << b.causes();
  const int budget = b.why.explanation().causes[size_t(i)].counterfactual.nodeBudget;
  EXPECT_GT(budget, 32);
  ASSERT_TRUE(b.why.apply(i, b.nav, b.history));
  EXPECT_EQ(b.nav.maxNodes(), budget);
  EXPECT_TRUE(b.complete());
  ASSERT_TRUE(b.history.undo());
  EXPECT_EQ(b.nav.maxNodes(), 32);
  EXPECT_FALSE(b.complete());
}

TEST(WhyModel, JumpLinkRefusedAndWaterCostsAreNamedAndApplied) {
  Bench b;
  ASSERT_TRUE(b.open());
  b.nav.filter().setIncludeFlags(uint16_t(0xffff & ~nav::FLAG_JUMP));
  b.query({30, 3, 40}, {44, 3, 42});
  int i = b.find(CAUSE_LINK, CHANGE_FILTER);
  ASSERT_GE(i, 0) << b.causes();
  ASSERT_TRUE(b.why.apply(i, b.nav, b.history));
  EXPECT_TRUE(b.nav.filter().getIncludeFlags() & nav::FLAG_JUMP);
  EXPECT_TRUE(b.complete());

  b.nav.filter().setIncludeFlags(0xffff);
  b.nav.filter().setAreaCost(nav::AREA_WATER, 10.0f);
  b.query({46, 0, 4}, {46, 0, 16});
  i = b.find(CAUSE_FILTER, CHANGE_AREA_COSTS);
  ASSERT_GE(i, 0) << b.causes();
  const float before = b.tester.straightLength();
  ASSERT_TRUE(b.why.apply(i, b.nav, b.history));
  EXPECT_LT(b.nav.filter().getAreaCost(nav::AREA_WATER), 10.0f);
  EXPECT_LT(b.tester.straightLength(), before - 5.0f); // through the pool, not round it
  ASSERT_TRUE(b.history.undo());
  EXPECT_EQ(b.nav.filter().getAreaCost(nav::AREA_WATER), 10.0f);
}

TEST(WhyModel, PortalMidpointDetourNamesItsExpansionAndIsShownNotApplied) {
  Bench b;
  ASSERT_TRUE(b.open());
  b.nav.filter().setIncludeFlags(0xffef); // RecastDemo's, as tests/explain's
  b.query({9.962f, 0.2f, 8.063f}, {3.215f, 0.2f, 4.876f});
  const int i = b.find(CAUSE_DETOUR, CHANGE_ANY_ANGLE);
  ASSERT_GE(i, 0) << b.causes();
  EXPECT_GE(b.why.explanation().causes[size_t(i)].expansion, 0);
  EXPECT_FALSE(b.why.applicable(i));
  std::string why;
  EXPECT_FALSE(b.why.apply(i, b.nav, b.history, &why));
  EXPECT_NE(why.find("anyAngle"), std::string::npos) << why;
  EXPECT_EQ(b.history.undoCount(), 2u); // the two clicks only
}

TEST(WhyModel, EndOffTheNavmeshGetsHalfExtentsThatReachIt) {
  Bench b;
  ASSERT_TRUE(b.open());
  b.query({30, 0, 47}, {30, 0, 54});
  EXPECT_EQ(b.tester.endRef(), 0u);
  const int i = b.find(CAUSE_SNAP, CHANGE_HALF_EXTENTS);
  ASSERT_GE(i, 0) << b.causes();
  ASSERT_TRUE(b.why.apply(i, b.nav, b.history));
  EXPECT_GT(b.nav.extents[2], 2.0f);
  EXPECT_NE(b.tester.endRef(), 0u);
  ASSERT_TRUE(b.history.undo());
  EXPECT_EQ(b.nav.extents[2], 2.0f);
  EXPECT_EQ(b.tester.endRef(), 0u);
}

TEST(WhyModel, GeneratedFaultsGapLinkInTheAirAndBalconyAreNamed) {
  {
    Bench b;
    checktest::TestMeshSpec s;
    s.polys = {checktest::rect(0, 0, 10, 10, 0), checktest::rect(12, 0, 20, 10, 1.5f)};
    ASSERT_TRUE(b.adopt(s));
    b.query({5, 0, 5}, {16, 1.5f, 5});
    const int i = b.find(CAUSE_ISLANDS, CHANGE_LINK);
    ASSERT_GE(i, 0) << b.causes();
    EXPECT_FALSE(b.why.applicable(i)); // a link: drawn, added by the level editor
  }
  {
    Bench b;
    checktest::TestMeshSpec s;
    s.polys = {checktest::rect(0, 0, 10, 10, 0), checktest::rect(12, 0, 20, 10, 0)};
    s.offMesh.push_back(checktest::TestOffMesh{{9.5f, 0, 5}, {14, 3, 5}, 0.5f, false, 7});
    ASSERT_TRUE(b.adopt(s));
    b.query({2, 0, 5}, {18, 0, 5});
    ASSERT_GE(b.find(CAUSE_LINK, CHANGE_LINK), 0) << b.causes();
  }
  {
    Bench b;
    checktest::TestMeshSpec s;
    s.polys = {checktest::rect(0, 0, 10, 10, 0), checktest::rect(0, 0, 4, 10, 3)};
    ASSERT_TRUE(b.adopt(s));
    b.query({9, 0, 5}, {8, 2.8f, 5});
    const int i = b.find(CAUSE_SNAP, CHANGE_HALF_EXTENTS);
    ASSERT_GE(i, 0) << b.causes();
    const nav::PolyRef before = b.tester.endRef();
    ASSERT_TRUE(b.why.apply(i, b.nav, b.history));
    EXPECT_NE(b.tester.endRef(), before);
    EXPECT_EQ(b.tester.endRef(), b.why.explanation().causes[size_t(i)].counterfactual.result.endRef);
  }
}

TEST(WhyModel, ReRunsOnlyWhenTheQueryChangesAndClearsWithoutOne) {
  Bench b;
  ASSERT_TRUE(b.open());
  b.nav.filter().setExcludeFlags(nav::FLAG_DOOR);
  b.query({46, 0, 28.9f}, {54, 0, 45});
  const int runs = b.why.runs();
  EXPECT_FALSE(b.why.update(b.nav, &b.tester)); // same query, same settings: not again
  EXPECT_EQ(b.why.runs(), runs);
  b.nav.filter().setExcludeFlags(0);
  EXPECT_TRUE(b.why.update(b.nav, &b.tester)); // the filter changed
  EXPECT_EQ(b.why.runs(), runs + 1);
  RaycastModel ray; // not a path mode: nothing to explain
  ray.setNav(&b.nav);
  EXPECT_TRUE(b.why.update(b.nav, &ray));
  EXPECT_FALSE(b.why.hasQuery());
  nlohmann::json j;
  b.why.dumpState(j);
  EXPECT_TRUE(j["causes"].empty());
}

TEST(WhyModel, DumpStateListsTheCausesAndScenariosKeepTheOpenState) {
  Bench b;
  ASSERT_TRUE(b.open());
  b.nav.filter().setExcludeFlags(nav::FLAG_DOOR);
  b.query({46, 0, 28.9f}, {54, 0, 45});
  b.why.shown = true;
  nlohmann::json j;
  b.why.dumpState(j);
  EXPECT_EQ(j["visible"], true);
  ASSERT_FALSE(j["causes"].empty());
  EXPECT_EQ(j["causes"][0]["kind"], "filter");
  EXPECT_EQ(j["causes"][0]["checked"], true);
  EXPECT_FALSE(j["causes"][0]["text"].get<std::string>().empty());
  nlohmann::json s;
  b.why.saveScenario(s);
  WhyModel other;
  std::string why;
  ASSERT_TRUE(other.loadScenario(s, &why)) << why;
  EXPECT_TRUE(other.shown);
  EXPECT_FALSE(other.loadScenario({{"visible", true}, {"bogus", 1}}, &why));
  EXPECT_NE(why.find("bogus"), std::string::npos) << why;
  EXPECT_FALSE(other.loadScenario({{"visible", 3}}, &why));
}

TEST(WhyModel, AnIslandsLinkIsAddedThroughTheLevelEditorAndJoinsThemUntilUndone) {
  navbench::test::EditFixture f;
  ASSERT_TRUE(f.open("why_link"));
  StraightModel tester;
  tester.setNav(&f.nav);
  f.editor.navmeshEdited = [&tester]() { tester.recomputeAll(); };
  tester.setStart({2, 0, 2});
  tester.setEnd({7, 0.2f, 39.85f}); // the default level's west island (`navbench check`'s first)
  WhyModel why;
  why.update(f.nav, &tester);
  int i = -1;
  for (size_t k = 0; k < why.explanation().causes.size(); ++k)
    if (why.explanation().causes[k].kind == CAUSE_ISLANDS && why.explanation().causes[k].counterfactual.change == CHANGE_LINK)
      i = int(k);
  ASSERT_GE(i, 0) << why.explanation().causes.size() << " causes; error: " << why.error();
  EXPECT_FALSE(why.applicable(i));
  const size_t links = f.editor.links().size();
  std::string err;
  ASSERT_TRUE(why.addLink(i, f.editor, &err)) << err;
  f.editor.finish();
  EXPECT_EQ(f.editor.links().size(), links + 1);
  EXPECT_FALSE(nav::statusDetail(tester.status(), nav::PARTIAL_RESULT)) << "the link joins the islands";
  EXPECT_FALSE(why.addLink(99, f.editor, &err)); // no such cause
  ASSERT_TRUE(f.history.undo());
  f.editor.finish();
  EXPECT_EQ(f.editor.links().size(), links);
  EXPECT_TRUE(nav::statusDetail(tester.status(), nav::PARTIAL_RESULT));
}

TEST(WhyModel, ASelectedIslandFindingIsExplainedAsNavbenchCheckExplainsIt) {
  // The default level's unreachable islands: the Check panel selects one, the Why panel explains it
  // with the query, filter and thresholds `navbench check --why` uses (explainFindings), and its
  // fixes are no tester setting.
  Bench b;
  ASSERT_TRUE(b.open());
  CheckModel check;
  check.options.pairs = 50;
  std::string err;
  ASSERT_TRUE(check.start(b.nav.mesh(), CheckModel::LevelTris(), &err)) << err;
  check.wait();
  ASSERT_TRUE(check.hasResult()) << check.error();
  int sel = -1;
  for (int i = 0; i < int(check.findings().size()) && sel < 0; ++i)
    if (check.findings()[size_t(i)].kind == nav::check::CHECK_ISLANDS) sel = i;
  ASSERT_GE(sel, 0) << "the default level has unreachable islands";
  ASSERT_TRUE(check.select(sel));
  b.why.update(b.nav, &b.tester, &check); // the panel hidden: the tester's (empty) query
  EXPECT_FALSE(b.why.hasQuery());
  check.shown = true;
  b.why.update(b.nav, &b.tester, &check);
  ASSERT_TRUE(b.why.hasQuery()) << b.why.error();
  EXPECT_TRUE(b.why.explainsFinding());
  EXPECT_FALSE(b.why.explanation().answer.reached);

  nav::QueryFilter filter = nav::check::defaultCheckFilter();
  filter.setIncludeFlags(check.includeFlags);
  filter.setExcludeFlags(check.excludeFlags);
  const nav::explain::FindingExplanations fe =
      nav::explain::explainFindings(b.nav.mesh(), filter, check.options, check.result(), 1000);
  const int island = check.findings()[size_t(sel)].index;
  const nav::explain::FindingExplanation* cli = nullptr;
  for (const auto& f : fe.islands)
    if (f.index == island) cli = &f;
  ASSERT_NE(cli, nullptr) << "navbench check --why explains island " << island;
  EXPECT_EQ(nav::explain::describeCauses(b.why.explanation()), nav::explain::describeCauses(cli->explanation));
  ASSERT_FALSE(b.why.explanation().causes.empty()) << "an unreachable island has a cause";
  bool islands = false;
  for (int i = 0; i < int(b.why.explanation().causes.size()); ++i) {
    EXPECT_FALSE(b.why.applicable(i)) << "a finding's fix is not applied to the tester's settings";
    islands |= b.why.explanation().causes[size_t(i)].kind == CAUSE_ISLANDS;
  }
  EXPECT_TRUE(islands) << b.causes();

  // A tester query takes over once the finding is deselected.
  ASSERT_TRUE(check.select(-1));
  b.query({2, 0, 2}, {20, 0, 20});
  b.why.update(b.nav, &b.tester, &check);
  EXPECT_FALSE(b.why.explainsFinding());
}
