// The "A* Stepper" tester mode of the real navbench binary, driven headless (SDL_VIDEODRIVER=
// offscreen) like a person would: two clicks set start and end on the default level, then the
// stepper's keys (Space / Right step, Left back, Page Down N steps, End / Home last / first
// expansion) and --dump-state. The dumped search state must equal the same search computed
// directly with nav: findPath stopped after k expansions through nav::SearchObserver (open list with
// g / h / total / parent, closed set, the node expanded, the last expansion's relaxations), the
// corridor at the end, and the exact search (--shortest) against nav::ShortestPath.
#include "nav/NavMeshQuery.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"
#include "nav/bake/Areas.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string tmpDir() {
  fs::create_directories(NAVBENCH_TEST_TMP);
  return NAVBENCH_TEST_TMP;
}

struct AppRun {
  int exitCode = -1;
  std::string output;
  json state;
};

AppRun runApp(const std::string& args, const std::string& tag) {
  AppRun r;
  const std::string dump = tmpDir() + "/" + tag + ".json";
  fs::remove(dump);
  const std::string cmd = "SDL_VIDEODRIVER=offscreen XDG_CONFIG_HOME='" + tmpDir() + "/config_" + tag +
                          "' ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" '" +
                          std::string(NAVBENCH_EXE) + "' " + args +
                          " --size 1280x720 --screenshot '" + tmpDir() + "/" + tag + ".png' --dump-state '" + dump +
                          "' 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int status = ::pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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
    nav::bake::applyDefaultAreaCosts(filter);
    filter.setIncludeFlags(nav::bake::FLAG_ALL ^ nav::bake::FLAG_DISABLED);
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
}

// Step back then forward is the state of going straight there.
TEST(StepperGui, StepBackThenForwardIsTheSameState) {
  const json direct = runStepper("--key pagedown --key right --key right", "stepper_fwd");
  const json backForth = runStepper("--key pagedown --key right --key right --key left --key left --key right --key right",
                                    "stepper_backforth");
  ASSERT_TRUE(direct.is_object() && backForth.is_object());
  EXPECT_EQ(direct["index"].get<int>(), 12);
  for (const char* key : {"index", "open", "closed", "relax", "expanded", "nodes", "searchStatus", "best"})
    EXPECT_EQ(backForth[key], direct[key]) << key;
  Direct d(direct);
  expectSameSearch(direct, d, 12);
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

// --shortest steps the exact search: its node count after 10 steps and its final path equal
// nav::ShortestPath's.
TEST(StepperGui, ExactSearchStepsLikeShortestPath) {
  const json ten = runStepper("--key pagedown", "stepper_exact10", "--shortest");
  const json end = runStepper("--key end", "stepper_exact_end", "--shortest");
  ASSERT_TRUE(ten.is_object() && end.is_object());
  EXPECT_EQ(ten["algorithm"], "exact");
  Direct d(ten);
  nav::ShortestPath sp;
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&d.mesh, 4096)));
  nav::Status st = sp.initSlicedFindPath(d.startRef, d.endRef, d.start, d.end, &d.filter);
  int done = 0;
  st = sp.updateSlicedFindPath(10, &done);
  EXPECT_EQ(ten["index"].get<int>(), done);
  EXPECT_EQ(ten["searchStatus"].get<nav::Status>(), st);
  EXPECT_EQ(ten["exactNodes"].get<int>(), sp.nodeCount());
  EXPECT_EQ(ten["exactOpen"].get<int>(), sp.openCount());

  std::vector<float> pts(2048 * 3);
  std::vector<nav::PolyRef> polys(4096);
  int n = 0, np = 0;
  float len = 0;
  const nav::Status fs = sp.findPath(d.startRef, d.endRef, d.start, d.end, &d.filter, pts.data(), nullptr, nullptr, &n,
                                     2048, polys.data(), &np, 4096, &len);
  ASSERT_TRUE(nav::statusSucceeded(fs));
  EXPECT_TRUE(end["finished"].get<bool>());
  EXPECT_FLOAT_EQ(end["exactLen"].get<float>(), len);
  EXPECT_EQ(end["straight"].get<std::vector<float>>(), std::vector<float>(pts.begin(), pts.begin() + n * 3));
  EXPECT_EQ(end["corridor"].get<std::vector<nav::PolyRef>>(), std::vector<nav::PolyRef>(polys.begin(), polys.begin() + np));
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
  // A bad algorithm name is refused with the key named.
  scenario["tool"]["state"]["options"]["algorithm"] = "dijkstra";
  const std::string bad = tmpDir() + "/stepper_scenario_bad.json";
  std::ofstream(bad) << scenario.dump(2);
  AppRun r = runApp("'" + bad + "'", "stepper_open_bad");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("options.algorithm"), std::string::npos) << r.output;
}
