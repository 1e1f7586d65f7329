// The hierarchical search in the path modes and the A* Stepper, headless, on a generated 256 m
// world baked here (tiles of 19.2 m, so clusters of 8 x 8 tiles: several clusters): the path
// Pathfind Straight shows with "hierarchical" is the one `navbench query --hierarchical` gives
// (the same TestCaseRunner code), side by side runs both, scenarios keep the choice (old ones
// open as Detour's A*), a removed tile updates the shared graph to the one built from scratch,
// and the Stepper steps the abstract search then the refinement, to the planner's own answer,
// back and forth with the same states.
#include "TesterFixture.h"

#include "app/NavState.h"
#include "app/cli/WorldGen.h"
#include "app/model/HierSearch.h"
#include "app/model/StepperModel.h"
#include "app/model/TestCaseRun.h"
#include "app/model/TesterModes.h"
#include "nav/HierPlanner.h"
#include "nav/bake/StreamBake.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <unistd.h>

using namespace navbench;
using nlohmann::json;

namespace {

/// The world's tile set, baked once per process (a folder per process: ctest runs tests in parallel).
std::string worldBin(std::string* why) {
  static std::string path, error;
  if (!path.empty() || !error.empty()) {
    *why = error;
    return path;
  }
  const std::string dir = std::string(NAVBENCH_MODEL_TEST_TMP) + "/hier_p" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  worldgen::WorldParams p;
  p.size = 256;
  p.seed = 3;
  const std::string obj = dir + "/world.obj", bin = dir + "/world.bin";
  nav::bake::FileBakeInput in;
  nav::bake::BakeSettings settings;
  nav::bake::BakeOptions opts;
  opts.threads = 2;
  nav::bake::BakeReport report;
  if (!worldgen::writeWorldObj(p, obj, nullptr, &error) || !nav::bake::loadFileBakeInput(obj, &in, &settings, &error)) {
    *why = error;
    return "";
  }
  settings.cellSize = 0.3f; // as `navbench worldgen --level` writes for big worlds
  settings.tileSize = 64;
  if (!nav::bake::bakeFileToTileSet(in, settings, bin, opts, &report)) {
    *why = error = "bake failed";
    return "";
  }
  path = bin;
  return path;
}

class HierModel : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    const std::string bin = worldBin(&why);
    ASSERT_FALSE(bin.empty()) << why;
    ASSERT_TRUE(nav.loadBin(bin, why)) << why;
    nav.filter() = nav::QueryFilter(); // what `navbench query` searches with: flags 0xffff, unit costs
    nav.filter().setIncludeFlags(0xffff);
    ASSERT_TRUE(nav::statusSucceeded(q.init(&nav.mesh(), 2048)));
    hier.setNav(&nav);
    ASSERT_NE(hier.planner(), nullptr);
    ASSERT_GT(hier.planner()->clusterCount(), 1) << "the world spans several clusters";
  }
  /// Random points on the mesh (fixed seed).
  std::vector<glm::vec3> points(int n, unsigned seed) {
    static std::mt19937 rng; // findRandomPoint takes a plain function
    rng.seed(seed);
    std::vector<glm::vec3> out;
    for (int i = 0; i < n * 4 && int(out.size()) < n; ++i) {
      nav::PolyRef ref = 0;
      float p[3];
      if (nav::statusSucceeded(q.findRandomPoint(
              &nav.filter(), [] { return std::uniform_real_distribution<float>(0.0f, 0.9999f)(rng); }, &ref, p)))
        out.push_back(glm::vec3(p[0], p[1], p[2]));
    }
    return out;
  }
  /// The farthest of some random pairs that a complete hierarchical path joins (the planner says
  /// which: it is complete exactly when the points are connected, tests/hier).
  void farPair(glm::vec3* a, glm::vec3* b) {
    const std::vector<glm::vec3> pts = points(40, 11);
    std::vector<nav::PolyRef> path(TesterModel::kMaxPolys);
    float best = 0;
    for (size_t i = 0; i < pts.size(); ++i)
      for (size_t j = i + 1; j < pts.size(); ++j) {
        const float d = glm::length(pts[j] - pts[i]);
        if (d <= best) continue;
        const nav::PolyRef sr = nav.nearestPoly(pts[i]), er = nav.nearestPoly(pts[j]);
        int n = 0;
        const nav::Status st = hier.planner()->findPath(sr, er, &pts[i].x, &pts[j].x, &nav.filter(), path.data(), &n,
                                                        TesterModel::kMaxPolys);
        if (!sr || !er || !nav::statusSucceeded(st) || (st & nav::PARTIAL_RESULT)) continue;
        best = d;
        *a = pts[i];
        *b = pts[j];
      }
    ASSERT_GT(best, 100.0f);
  }
  /// A model on this world's NavState and shared planner, with start a and end b.
  template <class M>
  void place(M& m, const glm::vec3& a, const glm::vec3& b) {
    m.setNav(&nav);
    m.setHier(&hier);
    m.setStart(a);
    m.setEnd(b);
  }
  NavState nav;
  nav::NavMeshQuery q;
  HierSearch hier;
};

json withoutTimes(json j) {
  j.erase("queryUs");
  if (j.contains("runs"))
    for (auto& r : j["runs"]) r.erase("us");
  return j;
}

} // namespace

TEST_F(HierModel, StraightPathEqualsNavbenchQueryHierarchical) {
  // `navbench query --hierarchical` runs pf cases through TestCaseRunner with a HierPlanner on the
  // default cost filter: the same code, here with its own planner and query.
  nav::HierPlanner cliPlanner;
  ASSERT_TRUE(nav::statusSucceeded(cliPlanner.init(&nav.mesh())));
  TestCaseRunner runner;
  runner.setHierarchical(&cliPlanner);
  StraightModel m;
  m.setNav(&nav);
  m.setHier(&hier);
  m.setPathAlgorithm(PATH_HIERARCHICAL);
  const std::vector<glm::vec3> pts = points(24, 5);
  ASSERT_GE(pts.size(), 20u);
  int complete = 0, multiCluster = 0;
  for (size_t i = 0; i + 1 < pts.size(); i += 2) {
    m.setStart(pts[i]);
    m.setEnd(pts[i + 1]);
    TestCase c;
    std::copy(&pts[i].x, &pts[i].x + 3, c.s);
    std::copy(&pts[i + 1].x, &pts[i + 1].x + 3, c.e);
    TestCaseResult r;
    runner.run(q, nullptr, c, r, nullptr);
    ASSERT_EQ(m.startRef(), r.startRef);
    ASSERT_EQ(m.endRef(), r.endRef);
    EXPECT_EQ(m.status(), r.pathStatus) << i;
    EXPECT_EQ(std::vector<nav::PolyRef>(m.corridor(), m.corridor() + m.corridorSize()), r.polys) << i;
    if (!r.found()) continue;
    ++complete;
    EXPECT_EQ(std::vector<float>(m.straight(), m.straight() + m.straightSize() * 3), r.straight) << i;
    const PathRun& run = m.pathRun(PATH_HIERARCHICAL);
    EXPECT_TRUE(run.ran && run.complete);
    EXPECT_FALSE(m.pathRun(PATH_DETOUR).ran) << "side by side is off";
    EXPECT_EQ(run.nodes, run.hier.abstractExpanded + run.hier.refineNodes);
    if (run.hier.abstractPathNodes > 0) ++multiCluster;
  }
  EXPECT_GE(complete, 8);
  EXPECT_GE(multiCluster, 3) << "pairs whose abstract path crosses entrances";
}

TEST_F(HierModel, SideBySideRunsBothAndTheOverlayHasTheAbstractPath) {
  glm::vec3 a, b;
  farPair(&a, &b);
  StraightModel m;
  place(m, a, b);
  EXPECT_FALSE(m.pathRun(PATH_HIERARCHICAL).ran);
  m.setSideBySide(true);
  m.setShowGraph(true);
  const PathRun& d = m.pathRun(PATH_DETOUR);
  const PathRun& h = m.pathRun(PATH_HIERARCHICAL);
  ASSERT_TRUE(d.ran && h.ran);
  // The mode's own path is Detour's; the hierarchical one beside it is the planner's.
  EXPECT_EQ(std::vector<nav::PolyRef>(m.corridor(), m.corridor() + m.corridorSize()), d.corridor);
  std::vector<nav::PolyRef> path(TesterModel::kMaxPolys);
  int n = 0;
  const nav::Status st = hier.planner()->findPath(m.startRef(), m.endRef(), &a.x, &b.x, &nav.filter(), path.data(), &n,
                                                  TesterModel::kMaxPolys);
  EXPECT_EQ(h.status, st);
  EXPECT_EQ(h.corridor, std::vector<nav::PolyRef>(path.begin(), path.begin() + n));
  ASSERT_TRUE(h.complete);
  EXPECT_GT(h.len, glm::length(b - a) * 0.99f);
  EXPECT_LT(h.len, d.complete ? d.len * 1.2f : 1e9f);
  // The abstract path: start, entrances, end.
  const std::vector<float>& ap = m.abstractPath();
  ASSERT_GE(ap.size(), 9u) << "start, at least one entrance, end";
  EXPECT_EQ(glm::vec3(ap[0], ap[1], ap[2]), a);
  EXPECT_EQ(glm::vec3(ap[ap.size() - 3], ap[ap.size() - 2], ap[ap.size() - 1]), b);
  EXPECT_EQ(int(ap.size() / 3) - 2, h.hier.abstractPathNodes);
  json j;
  m.dumpState(j);
  EXPECT_EQ(j["algorithm"], "detour");
  EXPECT_EQ(j["runs"]["hierarchical"]["complete"], true);
  EXPECT_EQ(j["runs"]["hierarchical"]["corridor"], h.corridor);
}

TEST_F(HierModel, ScenarioKeepsTheAlgorithmAndOldScenariosOpenAsDetour) {
  glm::vec3 a, b;
  farPair(&a, &b);
  FollowModel m;
  place(m, a, b);
  m.setPathAlgorithm(PATH_HIERARCHICAL);
  m.setSideBySide(true);
  json saved;
  m.saveScenario(saved);
  EXPECT_EQ(saved["options"]["algorithm"], "hierarchical");
  FollowModel r;
  r.setNav(&nav);
  r.setHier(&hier);
  std::string error;
  ASSERT_TRUE(r.loadScenario(saved, error)) << error;
  EXPECT_EQ(r.pathAlgorithm(), PATH_HIERARCHICAL);
  EXPECT_TRUE(r.sideBySide());
  EXPECT_EQ(withoutTimes(test::stateOf(r)), withoutTimes(test::stateOf(m)));
  // A scenario written before the choice existed: Detour's A*, nothing beside it.
  json old = saved;
  old["options"] = {{"steps", 0}};
  ASSERT_TRUE(r.loadScenario(old, error)) << error;
  EXPECT_EQ(r.pathAlgorithm(), PATH_DETOUR);
  EXPECT_FALSE(r.sideBySide());
  EXPECT_FALSE(r.pathRun(PATH_HIERARCHICAL).ran);
  // A bad value: refused, named, nothing changes.
  json bad = saved;
  bad["options"]["algorithm"] = "dijkstra";
  EXPECT_FALSE(r.loadScenario(bad, error));
  EXPECT_NE(error.find("options.algorithm"), std::string::npos) << error;
  EXPECT_NE(error.find("detour, hierarchical"), std::string::npos) << error;
  EXPECT_EQ(r.pathAlgorithm(), PATH_DETOUR);
}

TEST_F(HierModel, StepperStepsTheAbstractSearchThenTheRefinementToThePlannersAnswer) {
  glm::vec3 a, b;
  farPair(&a, &b);
  StepperModel m;
  place(m, a, b);
  m.setAlgorithm(StepperModel::ALGO_HIERARCHICAL);
  std::vector<nav::PolyRef> path(TesterModel::kMaxPolys);
  int n = 0;
  nav::HierPlanner& p = *hier.planner();
  const nav::Status st = p.findPath(m.startRef(), m.endRef(), &a.x, &b.x, &nav.filter(), path.data(), &n,
                                    TesterModel::kMaxPolys);
  ASSERT_TRUE(p.lastStats().connected);
  // The abstract search pops every entrance findPath's does, then the goal.
  EXPECT_EQ(m.abstractSteps(), p.lastStats().abstractExpanded + 1);
  EXPECT_GT(m.total(), m.abstractSteps()) << "refinement expansions follow";
  EXPECT_EQ(m.index(), 0);
  EXPECT_TRUE(m.inAbstractPhase());
  m.goTo(1); // the start popped: its cluster's entrances of its component are open
  ASSERT_FALSE(m.abstractNodes().empty());
  EXPECT_EQ(m.abstractLastPopped(), p.abstractStartId());
  int open = 0;
  for (const auto& node : m.abstractNodes()) open += node.open ? 1 : 0;
  EXPECT_EQ(open, int(m.abstractNodes().size()) - 1);
  m.goTo(m.abstractSteps()); // the goal popped: the abstract path is known, the refinement not begun
  EXPECT_EQ(m.abstractLastPopped(), p.abstractGoalId());
  EXPECT_EQ(int(m.abstractPathPoints().size() / 3), p.lastStats().abstractPathNodes + 2);
  EXPECT_TRUE(m.nodes().empty());
  m.goTo(m.abstractSteps() + 1); // the refinement's first expansion, inside the corridor
  EXPECT_FALSE(m.inAbstractPhase());
  EXPECT_FALSE(m.nodes().empty());
  EXPECT_FALSE(m.finished());
  m.goTo(m.total());
  ASSERT_TRUE(m.finished());
  EXPECT_EQ(m.status(), st);
  EXPECT_EQ(m.finalCorridor(), std::vector<nav::PolyRef>(path.begin(), path.begin() + n));

  // Forward to the end, then back to the start: the same state at every index.
  std::vector<json> forward;
  for (int k = 0; k <= m.total(); ++k) {
    m.goTo(k);
    forward.push_back(test::stateOf(m));
  }
  for (int k = m.total(); k >= 0; --k) {
    m.goTo(k);
    ASSERT_EQ(test::stateOf(m), forward[size_t(k)]) << "index " << k;
  }
  // A scenario keeps the algorithm and the step.
  m.goTo(m.abstractSteps() / 2 + 1);
  json saved;
  m.saveScenario(saved);
  EXPECT_EQ(saved["options"]["algorithm"], "hierarchical");
  StepperModel r;
  r.setNav(&nav);
  r.setHier(&hier);
  std::string error;
  ASSERT_TRUE(r.loadScenario(saved, error)) << error;
  EXPECT_EQ(test::stateOf(r), test::stateOf(m));
}

TEST_F(HierModel, ATileRemovedUpdatesTheSharedGraphAndThePathGoesAround) {
  glm::vec3 a, b;
  farPair(&a, &b);
  StraightModel m;
  place(m, a, b);
  m.setPathAlgorithm(PATH_HIERARCHICAL);
  ASSERT_TRUE(m.pathRun(PATH_HIERARCHICAL).complete);
  // A tile the corridor crosses halfway, neither the start's nor the end's, removed as the edit
  // tools do (Document::navmeshEdited calls meshEdited, then every tool recomputes).
  const std::vector<nav::PolyRef> before(m.corridor(), m.corridor() + m.corridorSize());
  const uint32_t startTile = nav.mesh().decodePolyIdTile(before.front()), endTile = nav.mesh().decodePolyIdTile(before.back());
  uint32_t gone = startTile;
  for (size_t i = before.size() / 2; i < before.size() && (gone == startTile || gone == endTile); ++i)
    gone = nav.mesh().decodePolyIdTile(before[i]);
  ASSERT_NE(gone, startTile);
  ASSERT_NE(gone, endTile);
  const nav::MeshTile* tile = nav.mesh().getTile(int(gone));
  ASSERT_NE(tile, nullptr);
  uint8_t* data = nullptr;
  int size = 0;
  ASSERT_TRUE(nav::statusSucceeded(nav.mesh().removeTile(nav.mesh().getTileRef(tile), &data, &size)));
  delete[] data; // null when the mesh owned (and freed) it
  hier.meshEdited();
  EXPECT_GT(hier.updatedClusters(), 0);
  nav::HierPlanner fresh;
  ASSERT_TRUE(nav::statusSucceeded(fresh.init(&nav.mesh())));
  EXPECT_EQ(hier.planner()->canonical(), fresh.canonical()) << "the updated graph is the one built from scratch";
  m.recomputeAll();
  std::vector<nav::PolyRef> path(TesterModel::kMaxPolys);
  int n = 0;
  const nav::Status st = fresh.findPath(m.startRef(), m.endRef(), &a.x, &b.x, &nav.filter(), path.data(), &n,
                                        TesterModel::kMaxPolys);
  EXPECT_EQ(m.status(), st);
  EXPECT_EQ(std::vector<nav::PolyRef>(m.corridor(), m.corridor() + m.corridorSize()),
            std::vector<nav::PolyRef>(path.begin(), path.begin() + n));
  for (int i = 0; i < m.corridorSize(); ++i) EXPECT_NE(nav.mesh().decodePolyIdTile(m.corridor()[i]), gone);
}
