// The "A* Stepper" tester mode of the real navbench binary, driven headless (SDL_VIDEODRIVER=
// offscreen) like a person would: two clicks set start and end on the default level, then the
// stepper's keys (Space / Right step, Left back, Page Down N steps, End / Home last / first
// expansion) and --dump-state. The dumped search state must equal the same search computed
// directly with nav: findPath stopped after k expansions through nav::SearchObserver (open list with
// g / h / total / parent, closed set, the node expanded, the last expansion's relaxations) and the
// corridor at the end. Back and forth and the exact search are checked headless in
// tests/model/StepperModelTest.cpp.
#include "nav/NavMeshQuery.h"
#include "nav/TileSetFile.h"
#include "nav/NavAreas.h"
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string tmpDir() {
  fs::create_directories(NAVBENCH_TEST_TMP);
  return NAVBENCH_TEST_TMP;
}

struct AppRun : navbench::test::CommandResult {
  json state;
};

AppRun runApp(const std::string& args, const std::string& tag) {
  AppRun r;
  const std::string dump = tmpDir() + "/" + tag + ".json";
  fs::remove(dump);
  static_cast<navbench::test::CommandResult&>(r) =
      navbench::test::runCommand(navbench::test::headlessEnv(tmpDir() + "/config_" + tag) + "'" + NAVBENCH_EXE + "' " +
                                 args + " --size 1280x720 --screenshot '" + tmpDir() + "/" + tag + ".png' --dump-state '" +
                                 dump + "'");
  std::ifstream f(dump);
  if (f) r.state = json::parse(f, nullptr, false);
  return r;
}

// Start on the floor in front of the central block, end on the upper floor behind it: a search of
// some 75 expansions with accepted, worse and parent relaxations (window 1280x720, default camera;
// the stepper's window sits top right, away from both points).
const std::string kClicks = "--click 680,420,shift --click 700,180";

/// Runs the stepper with keys; checks the run and returns the tool state.
json runStepper(const std::string& keys, const std::string& tag, const std::string& extra = "") {
  AppRun r = runApp("'" + std::string(NAVBENCH_DEFAULT_LEVEL) + "' --tool 'A* Stepper' " + extra + " " + kClicks + " " + keys, tag);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(r.state.is_object()) << r.output;
  if (!r.state.is_object()) return json();
  EXPECT_EQ(r.state["activeTool"], "A* Stepper");
  const json& s = r.state["toolState"];
  EXPECT_TRUE(s.contains("start") && s.contains("end")) << s.dump();
  return s;
}

/// Records the last expansion's relaxations; stops findPath after stopAt expansions.
struct Recorder : nav::SearchObserver {
  int stopAt = INT_MAX, expansions = 0;
  std::vector<nav::RelaxEvent> events;
  bool beforeExpand(int done) override { return done < stopAt; }
  void onExpand(const nav::Node&) override {
    ++expansions;
    events.clear();
  }
  void onRelax(const nav::RelaxEvent& e) override { events.push_back(e); }
};

const char* resultKey(uint8_t r) {
  static const char* const keys[] = {"acceptNew", "acceptBetter", "rejectWorse", "rejectFiltered",
                                     "rejectOutOfNodes", "rejectParent", "rejectSameParent", "rejectNoPortal"};
  return r < nav::RELAX_RESULT_COUNT ? keys[r] : "unknown";
}

/// nav computed directly on the dumped points (the app's NavState: default area costs, every flag but
/// "disabled", a 4096-node pool).
struct Direct {
  nav::NavMesh mesh;
  nav::NavMeshQuery query;
  nav::QueryFilter filter;
  nav::PolyRef startRef = 0, endRef = 0;
  float start[3] = {0, 0, 0}, end[3] = {0, 0, 0};
  explicit Direct(const json& s) {
    const std::string bin = (fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path() / "default.bin").string();
    std::string why;
    EXPECT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(bin, mesh, &why))) << why;
    query.init(&mesh, 4096);
    nav::applyDefaultAreaCosts(filter);
    filter.setIncludeFlags(nav::FLAG_ALL ^ nav::FLAG_DISABLED);
    for (int i = 0; i < 3; ++i) {
      start[i] = s["start"][size_t(i)].get<float>();
      end[i] = s["end"][size_t(i)].get<float>();
    }
    const float ext[3] = {2, 4, 2};
    float snapped[3];
    query.findNearestPoly(start, ext, &filter, &startRef, snapped);
    query.findNearestPoly(end, ext, &filter, &endRef, snapped);
    EXPECT_EQ(startRef, s["startRef"].get<nav::PolyRef>());
    EXPECT_EQ(endRef, s["endRef"].get<nav::PolyRef>());
  }
  /// The stepper's algorithm `algo` ("findPath", "closestPoint", "sliced", "anyAngle") stopped after
  /// k expansions (INT_MAX: to the end; a finished sliced search is not finalized).
  nav::Status runTo(int k, Recorder& rec, std::vector<nav::PolyRef>* corridor = nullptr,
                    const std::string& algo = "findPath") {
    rec.stopAt = k;
    query.setSearchObserver(&rec);
    std::vector<nav::PolyRef> path(2048);
    int n = 0;
    nav::Status st;
    if (algo == "sliced" || algo == "anyAngle") {
      st = query.initSlicedFindPath(startRef, endRef, start, end, &filter, algo == "anyAngle" ? nav::FINDPATH_ANY_ANGLE : 0);
      if (k > 0 && nav::statusInProgress(st)) st = query.updateSlicedFindPath(k, nullptr);
    } else {
      st = query.findPath(startRef, endRef, start, end, &filter, path.data(), &n, 2048,
                          algo == "closestPoint" ? nav::FINDPATH_CLOSEST_POINT : 0);
    }
    query.setSearchObserver(nullptr);
    if (corridor) corridor->assign(path.begin(), path.begin() + n);
    return st;
  }
};

/// The dumped state must be the direct search's after `index` expansions.
void expectSameSearch(const json& s, Direct& d, int index, const std::string& algo = "findPath") {
  ASSERT_EQ(s["algorithm"], algo);
  ASSERT_EQ(s["index"].get<int>(), index);
  Recorder full;
  d.runTo(INT_MAX, full, nullptr, algo);
  EXPECT_EQ(s["total"].get<int>(), full.expansions);
  Recorder rec;
  const nav::Status st = d.runTo(index, rec, nullptr, algo);
  EXPECT_EQ(s["searchStatus"].get<nav::Status>(), st);
  const nav::SearchView v = d.query.searchView();
  // Open list: (ref, g, total, parent) as sets, then the order by total.
  std::vector<std::tuple<nav::PolyRef, float, float, nav::PolyRef>> want, got;
  for (int i = 0; i < v.openCount; ++i) {
    const nav::Node& n = v.openNode(i);
    want.emplace_back(n.id, n.cost, n.total, v.parentOf(n) ? v.parentOf(n)->id : 0);
  }
  float prevTotal = -1;
  for (const json& o : s["open"]) {
    got.emplace_back(o["ref"].get<nav::PolyRef>(), o["g"].get<float>(), o["total"].get<float>(),
                     o["parent"].get<nav::PolyRef>());
    EXPECT_GE(o["total"].get<float>(), prevTotal) << "open list sorted by total";
    EXPECT_FLOAT_EQ(o["g"].get<float>() + o["h"].get<float>(), o["total"].get<float>());
    prevTotal = o["total"].get<float>();
  }
  if (v.openCount > 0) {
    EXPECT_EQ(s["open"][0]["ref"].get<nav::PolyRef>(), v.openNode(0).id) << "the next node to expand comes first";
  }
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  // Closed set.
  std::vector<nav::PolyRef> closed;
  for (int i = 0; i < v.nodeCount; ++i)
    if (v.pool->nodeAt(i).flags & nav::NODE_CLOSED) closed.push_back(v.pool->nodeAt(i).id);
  std::sort(closed.begin(), closed.end());
  EXPECT_EQ(s["closed"].get<std::vector<nav::PolyRef>>(), closed);
  EXPECT_EQ(s["nodes"].get<int>(), v.nodeCount);
  EXPECT_EQ(s["expanded"].get<nav::PolyRef>(), v.lastExpanded ? v.lastExpanded->id : 0u);
  // The last expansion's relaxations, in link order, with their reasons.
  ASSERT_EQ(s["relax"].size(), rec.events.size());
  for (size_t i = 0; i < rec.events.size(); ++i) {
    const json& r = s["relax"][i];
    EXPECT_EQ(r["neighbour"].get<nav::PolyRef>(), rec.events[i].neighbour);
    EXPECT_EQ(r["result"], resultKey(rec.events[i].result));
    EXPECT_EQ(r["total"].get<float>(), rec.events[i].total);
    EXPECT_EQ(r["previousTotal"].get<float>(), rec.events[i].previousTotal);
    EXPECT_FALSE(r["text"].get<std::string>().empty());
  }
}

} // namespace

// Space, Right, Page Down (10 steps) and Left: 12 expansions, each key one step as the UI says.
TEST(StepperGui, StepKeysMatchFindPathStoppedAfterK) {
  const json s = runStepper("--key space --key space --key right --key pagedown --key left", "stepper_keys");
  ASSERT_TRUE(s.is_object());
  Direct d(s);
  expectSameSearch(s, d, 12);
  EXPECT_FALSE(s["finished"].get<bool>());
  EXPECT_EQ(s["statusText"], "in progress");
  EXPECT_FALSE(s["relax"].empty());
  // The screenshot caption says which search and which step.
  const std::string total = std::to_string(s["total"].get<int>());
  EXPECT_EQ(s["caption"].get<std::string>().rfind("A* Stepper (findPath, step 12/" + total + ")  start (", 0), 0u) << s["caption"];
}

// End runs to the last expansion: the corridor and status are findPath's; Home goes back to 0.
TEST(StepperGui, RunToEndGivesFindPathsCorridorAndHomeGoesBack) {
  const json end = runStepper("--key end", "stepper_end");
  ASSERT_TRUE(end.is_object());
  Direct d(end);
  Recorder rec;
  std::vector<nav::PolyRef> corridor;
  const nav::Status st = d.runTo(INT_MAX, rec, &corridor);
  EXPECT_TRUE(end["finished"].get<bool>());
  EXPECT_EQ(end["index"].get<int>(), rec.expansions);
  EXPECT_EQ(end["total"].get<int>(), rec.expansions);
  EXPECT_GT(rec.expansions, 30) << "the test query should need a real search";
  EXPECT_EQ(end["status"].get<nav::Status>(), st);
  EXPECT_EQ(end["corridor"].get<std::vector<nav::PolyRef>>(), corridor);
  EXPECT_EQ(corridor.back(), d.endRef);
  EXPECT_GE(end["straight"].size(), 6u);
  expectSameSearch(end, d, rec.expansions);

  const json home = runStepper("--key end --key home", "stepper_home");
  ASSERT_TRUE(home.is_object());
  EXPECT_EQ(home["index"].get<int>(), 0);
  EXPECT_FALSE(home["finished"].get<bool>());
  ASSERT_EQ(home["open"].size(), 1u); // only the start node
  EXPECT_EQ(home["open"][0]["ref"].get<nav::PolyRef>(), d.startRef);
  EXPECT_TRUE(home["closed"].empty());
  EXPECT_TRUE(home["relax"].empty());
}

// A saved scenario keeps the algorithm and the step; opening it (edited to each A* algorithm)
// replays that search to that step.
TEST(StepperGui, ScenarioRestoresAlgorithmAndStep) {
  const std::string file = tmpDir() + "/stepper_scenario.json";
  fs::remove(file);
  const json saved = runStepper("--key pagedown --save-scenario '" + file + "'", "stepper_save");
  ASSERT_TRUE(saved.is_object());
  std::ifstream in(file);
  ASSERT_TRUE(in.good()) << file;
  json scenario = json::parse(in, nullptr, false);
  ASSERT_TRUE(scenario.is_object());
  const json& options = scenario["tool"]["state"]["options"];
  EXPECT_EQ(options["algorithm"], "findPath");
  EXPECT_EQ(options["index"].get<int>(), 10);
  EXPECT_EQ(options["stepN"].get<int>(), 10);
  Direct d(saved);
  int n = 0;
  for (const char* algo : {"findPath", "closestPoint", "sliced", "anyAngle"}) {
    scenario["tool"]["state"]["options"]["algorithm"] = algo;
    scenario["tool"]["state"]["options"]["index"] = 7;
    const std::string edited = tmpDir() + "/stepper_scenario_" + algo + ".json";
    std::ofstream(edited) << scenario.dump(2);
    AppRun r = runApp("'" + edited + "'", std::string("stepper_open_") + std::to_string(n++));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    ASSERT_TRUE(r.state.is_object()) << r.output;
    EXPECT_EQ(r.state["activeTool"], "A* Stepper");
    SCOPED_TRACE(algo);
    expectSameSearch(r.state["toolState"], d, 7, algo);
  }
  // Page Down's step count comes back too: step 7 + one Page Down of 3 = step 10.
  scenario["tool"]["state"]["options"]["algorithm"] = "findPath";
  scenario["tool"]["state"]["options"]["stepN"] = 3;
  {
    const std::string withN = tmpDir() + "/stepper_scenario_stepn.json";
    std::ofstream(withN) << scenario.dump(2);
    AppRun r = runApp("'" + withN + "' --key pagedown", "stepper_open_stepn");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    ASSERT_TRUE(r.state.is_object()) << r.output;
    expectSameSearch(r.state["toolState"], d, 10);
    EXPECT_EQ(r.state["scenario"]["tool"]["state"]["options"]["stepN"], 3);
  }
  // A bad algorithm name is refused with the key named.
  scenario["tool"]["state"]["options"]["algorithm"] = "dijkstra";
  const std::string bad = tmpDir() + "/stepper_scenario_bad.json";
  std::ofstream(bad) << scenario.dump(2);
  AppRun r = runApp("'" + bad + "'", "stepper_open_bad");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("options.algorithm"), std::string::npos) << r.output;
}

namespace {

/// The stepper scenario saved after 10 steps of the test query (tool state options editable).
json savedStepperScenario(const std::string& tag) {
  const std::string file = tmpDir() + "/" + tag + "_base.json";
  fs::remove(file);
  runStepper("--key pagedown --save-scenario '" + file + "'", tag + "_save");
  std::ifstream in(file);
  json scenario = json::parse(in, nullptr, false);
  EXPECT_TRUE(scenario.is_object()) << file;
  return scenario;
}

AppRun openScenario(const json& scenario, const std::string& tag, const std::string& extra = "") {
  const std::string file = tmpDir() + "/" + tag + "_scenario.json"; // (tag.json is the dump)
  std::ofstream(file) << scenario.dump(2);
  return runApp("'" + file + "' " + extra, tag);
}

bool hasRelax(const json& s, const char* result) {
  for (const json& r : s["relax"])
    if (r["result"] == result) return true;
  return false;
}

} // namespace

// A tiny node budget (12) run to the end: out of nodes and partial, the last expansion's
// neighbours refused for want of nodes, and the corridor (ending at the node nearest the goal,
// marked) is findPath's with the same budget.
TEST(StepperGui, OutOfNodesRunShowsWhyAndTheNearestNode) {
  json scenario = savedStepperScenario("stepper_oon");
  ASSERT_TRUE(scenario.is_object());
  scenario["filter"]["maxNodes"] = 12;
  scenario["tool"]["state"]["options"]["index"] = 100000; // clamped to the last expansion
  const AppRun r = openScenario(scenario, "stepper_oon_open");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_TRUE(r.state.is_object()) << r.output;
  const json& s = r.state["toolState"];
  Direct d(s);
  ASSERT_TRUE(nav::statusSucceeded(d.query.init(&d.mesh, 12)));
  Recorder rec;
  std::vector<nav::PolyRef> corridor;
  const nav::Status st = d.runTo(INT_MAX, rec, &corridor);
  ASSERT_TRUE(nav::statusDetail(st, nav::OUT_OF_NODES)) << "12 nodes should not reach the end";
  EXPECT_TRUE(s["finished"].get<bool>());
  EXPECT_EQ(s["index"].get<int>(), rec.expansions);
  EXPECT_EQ(s["status"].get<nav::Status>(), st);
  EXPECT_NE(s["statusText"].get<std::string>().find("out of nodes"), std::string::npos) << s["statusText"];
  EXPECT_EQ(s["nodes"].get<int>(), 12);
  EXPECT_EQ(s["corridor"].get<std::vector<nav::PolyRef>>(), corridor);
  ASSERT_FALSE(corridor.empty());
  EXPECT_NE(corridor.back(), d.endRef);
  EXPECT_EQ(s["best"].get<nav::PolyRef>(), corridor.back()) << "the node nearest the goal ends the corridor";
  // Some expansion refused a neighbour for want of nodes: step to it and see the reason.
  int k = 0;
  for (int i = 1; i <= rec.expansions && k == 0; ++i) {
    Recorder at;
    d.runTo(i, at);
    for (const nav::RelaxEvent& e : at.events)
      if (e.result == nav::RELAX_REJECT_OUT_OF_NODES) k = i;
  }
  ASSERT_GT(k, 0) << "no expansion ran out of nodes";
  scenario["tool"]["state"]["options"]["index"] = k;
  const AppRun atK = openScenario(scenario, "stepper_oon_k");
  ASSERT_TRUE(atK.state.is_object()) << atK.output;
  const json& sk = atK.state["toolState"];
  expectSameSearch(sk, d, k);
  EXPECT_TRUE(hasRelax(sk, "rejectOutOfNodes")) << sk["relax"].dump();
  bool named = false;
  for (const json& e : sk["relax"])
    named = named || e["text"].get<std::string>().find("out of nodes (budget 12)") != std::string::npos;
  EXPECT_TRUE(named) << sk["relax"].dump();
}

// An end the filter cuts off (room D behind its doorway, door flag excluded): the search runs dry,
// the result is partial, the corridor ends at the node nearest the goal, as findPath's does.
TEST(StepperGui, UnreachableEndEndsPartialAtTheNearestNode) {
  json scenario = savedStepperScenario("stepper_partial");
  ASSERT_TRUE(scenario.is_object());
  scenario["filter"]["excludeFlags"] = 4; // FLAG_DOOR
  scenario["tool"]["state"]["start"] = {10.0, 0.0, 5.0};
  scenario["tool"]["state"]["end"] = {54.0, 0.0, 45.0}; // far inside room D
  scenario["tool"]["state"]["options"]["index"] = 100000;
  const AppRun r = openScenario(scenario, "stepper_partial_open");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_TRUE(r.state.is_object()) << r.output;
  const json& s = r.state["toolState"];
  Direct d(s);
  d.filter.setExcludeFlags(4);
  Recorder rec;
  std::vector<nav::PolyRef> corridor;
  const nav::Status st = d.runTo(INT_MAX, rec, &corridor);
  ASSERT_TRUE(nav::statusDetail(st, nav::PARTIAL_RESULT)) << "room D should be cut off without doors";
  EXPECT_TRUE(s["finished"].get<bool>());
  EXPECT_EQ(s["status"].get<nav::Status>(), st);
  EXPECT_NE(s["statusText"].get<std::string>().find("partial"), std::string::npos) << s["statusText"];
  EXPECT_TRUE(s["open"].empty()) << "the search ran dry";
  EXPECT_EQ(s["corridor"].get<std::vector<nav::PolyRef>>(), corridor);
  ASSERT_FALSE(corridor.empty());
  EXPECT_EQ(s["best"].get<nav::PolyRef>(), corridor.back());
  EXPECT_NE(corridor.back(), d.endRef);
  expectSameSearch(s, d, rec.expansions);
  // The expansion that met the doorway refused it as filtered out: step there and read why.
  int k = 0;
  for (int i = 1; i <= rec.expansions && k == 0; ++i) {
    Recorder at;
    d.runTo(i, at);
    for (const nav::RelaxEvent& e : at.events)
      if (e.result == nav::RELAX_REJECT_FILTERED) k = i;
  }
  ASSERT_GT(k, 0) << "no expansion met a filtered-out neighbour";
  scenario["tool"]["state"]["options"]["index"] = k;
  const AppRun atK = openScenario(scenario, "stepper_partial_k");
  ASSERT_TRUE(atK.state.is_object()) << atK.output;
  const json& sk = atK.state["toolState"];
  expectSameSearch(sk, d, k);
  bool named = false;
  for (const json& e : sk["relax"])
    named = named || (e["result"] == "rejectFiltered" && e["text"].get<std::string>().find("filtered out (flags 0x5)") != std::string::npos);
  EXPECT_TRUE(named) << sk["relax"].dump();
}

// Clicking a row of the open-list table selects that node (the view highlights it and its parent
// chain); nothing else changes.
TEST(StepperGui, ClickingAnOpenListRowSelectsThatNode) {
  const json scenario = savedStepperScenario("stepper_row");
  ASSERT_TRUE(scenario.is_object());
  const AppRun plain = openScenario(scenario, "stepper_row_plain");
  ASSERT_TRUE(plain.state.is_object()) << plain.output;
  const json& s = plain.state["toolState"];
  ASSERT_GE(s["open"].size(), 3u);
  EXPECT_EQ(s["selected"].get<nav::PolyRef>(), 0u);
  const float x = s["firstRow"][0].get<float>(), y0 = s["firstRow"][1].get<float>(), pitch = s["firstRow"][2].get<float>();
  ASSERT_GT(x, 0.0f);
  ASSERT_GT(pitch, 5.0f);
  char click[64];
  std::snprintf(click, sizeof click, "--click %.0f,%.0f", double(x), double(y0 + 2 * pitch));
  const AppRun clicked = openScenario(scenario, "stepper_row_click", click);
  ASSERT_TRUE(clicked.state.is_object()) << clicked.output;
  const json& c = clicked.state["toolState"];
  EXPECT_EQ(c["selected"].get<nav::PolyRef>(), s["open"][2]["ref"].get<nav::PolyRef>());
  for (const char* key : {"index", "open", "closed", "start", "end"}) EXPECT_EQ(c[key], s[key]) << key;
}
