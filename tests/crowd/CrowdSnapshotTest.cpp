// CrowdSnapshotTest.cpp: Crowd::saveState / restoreState (with ScenarioRunner's own state) give
// back the run exactly. For generated scenarios (sizes, all update flags, retargets, removals,
// velocity requests, off-mesh links) on the default level (solo and tiled), a generated world and
// ../shared's nav_test (skipped when absent): run N ticks from 0 (the reference trace), run again
// taking snapshots at several ticks k (fixed ticks, the first tick with requests waiting in the path
// queue, the first with a search part way through), then for each snapshot restore it (into the
// same crowd, and into a second crowd made the same way) and run k..N: the traces are the
// reference's bit for bit, and so is every agent's whole state at the end (corridor, walls,
// neighbours, corners, animation).
#include "DetourCrowdOracle.h"

#include "nav/crowd/Crowd.h"
#include "nav/crowd/CrowdRunner.h"
#include "nav/crowd/CrowdScenario.h"
#include "nav/crowd/CrowdTrace.h"
#include "tests/support/AllocCounter.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace nav::crowd;
using crowdtest::GenOptions;

/// What the snapshots of a test covered.
struct Coverage {
  int snapshots = 0;
  int withQueuedRequests = 0; ///< agents WAITING_FOR_PATH at the snapshot (requests in the queue)
  int withSearchRunning = 0;  ///< a search part way through in the queue
  int withOffMesh = 0;        ///< an agent crossing an off-mesh link
};
Coverage g_cov;

bool same(const void* a, const void* b, size_t n) { return std::memcmp(a, b, n) == 0; }

/// The first difference between two crowds' whole agent states (active slots), or "".
std::string deepDiff(const Crowd& a, const Crowd& b) {
  if (a.getAgentCount() != b.getAgentCount()) return "agent counts";
  for (int i = 0; i < a.getAgentCount(); ++i) {
    const CrowdAgent* x = a.getAgent(i);
    const CrowdAgent* y = b.getAgent(i);
    const std::string at = "slot " + std::to_string(i) + ": ";
    if (x->active != y->active) return at + "active";
    if (!x->active) continue;
    if (x->state != y->state || x->targetState != y->targetState || x->partial != y->partial ||
        x->targetReplan != y->targetReplan || x->targetRef != y->targetRef)
      return at + "states";
    if (!same(x->npos, y->npos, sizeof x->npos) || !same(x->vel, y->vel, sizeof x->vel) ||
        !same(x->dvel, y->dvel, sizeof x->dvel) || !same(x->nvel, y->nvel, sizeof x->nvel) ||
        !same(x->targetPos, y->targetPos, sizeof x->targetPos))
      return at + "kinematics";
    if (!same(&x->desiredSpeed, &y->desiredSpeed, 4) || !same(&x->topologyOptTime, &y->topologyOptTime, 4) ||
        !same(&x->targetReplanTime, &y->targetReplanTime, 4))
      return at + "timers";
    if (x->nneis != y->nneis || !same(x->neis, y->neis, sizeof(CrowdNeighbour) * size_t(x->nneis)))
      return at + "neighbours";
    if (x->ncorners != y->ncorners || !same(x->cornerVerts, y->cornerVerts, sizeof(float) * 3 * size_t(x->ncorners)) ||
        !same(x->cornerFlags, y->cornerFlags, size_t(x->ncorners)) ||
        !same(x->cornerPolys, y->cornerPolys, sizeof(nav::PolyRef) * size_t(x->ncorners)))
      return at + "corners";
    const PathCorridor& cx = x->corridor;
    const PathCorridor& cy = y->corridor;
    if (cx.getPathCount() != cy.getPathCount() ||
        !same(cx.getPath(), cy.getPath(), sizeof(nav::PolyRef) * size_t(cx.getPathCount())) ||
        !same(cx.getPos(), cy.getPos(), 12) || !same(cx.getTarget(), cy.getTarget(), 12))
      return at + "corridor";
    const LocalBoundary& bx = x->boundary;
    const LocalBoundary& by = y->boundary;
    if (bx.getSegmentCount() != by.getSegmentCount() || !same(bx.getCenter(), by.getCenter(), 12)) return at + "walls";
    for (int s = 0; s < bx.getSegmentCount(); ++s)
      if (!same(bx.getSegment(s), by.getSegment(s), 24)) return at + "wall segment " + std::to_string(s);
    const CrowdAgentAnimation* ax = a.getAgentAnimation(i);
    const CrowdAgentAnimation* ay = b.getAgentAnimation(i);
    if (ax->active != ay->active) return at + "animation";
    if (ax->active && (ax->polyRef != ay->polyRef || !same(&ax->t, &ay->t, 4) || !same(&ax->tmax, &ay->tmax, 4) ||
                       !same(ax->initPos, ay->initPos, 12) || !same(ax->startPos, ay->startPos, 12) ||
                       !same(ax->endPos, ay->endPos, 12)))
      return at + "animation";
  }
  return "";
}

/// "" when the traces from tick `from` on are the same bit for bit, else the first difference.
std::string traceDiff(const std::vector<TickRecord>& ref, const std::vector<TickRecord>& got, size_t from) {
  if (ref.size() != got.size()) return "trace lengths " + std::to_string(ref.size()) + " vs " + std::to_string(got.size());
  for (size_t t = from; t < ref.size(); ++t) {
    if (ref[t].tick != got[t].tick) return "tick numbers at record " + std::to_string(t);
    const std::string d = crowdtest::firstBitDifference(ref[t], got[t]);
    if (!d.empty()) return d;
  }
  return "";
}

struct Checkpoint {
  int tick = 0;
  CrowdSnapshot crowd;
  RunnerState runner;
  std::string why; ///< why this tick
};

int waitingForPath(const Crowd& c) {
  int n = 0;
  for (int i = 0; i < c.getAgentCount(); ++i) {
    const CrowdAgent* ag = c.getAgent(i);
    if (ag->active && ag->targetState == CROWDAGENT_TARGET_WAITING_FOR_PATH) ++n;
  }
  return n;
}

bool anyOffMesh(const Crowd& c) {
  for (int i = 0; i < c.getAgentCount(); ++i)
    if (c.getAgent(i)->active && c.getAgent(i)->state == CROWDAGENT_STATE_OFFMESH) return true;
  return false;
}

/// The scenario through the writer and parser (as files are), then the checks of the file header.
void checkSnapshots(const querytest::DualMesh& mesh, const GenOptions& o) {
  const Scenario gen = crowdtest::generateScenario(mesh, o);
  std::string text, why;
  ASSERT_TRUE(writeScenario(gen, &text, &why)) << why;
  Scenario s;
  ASSERT_TRUE(parseScenario(text, "generated", &s, &why)) << why;
  const std::string name = mesh.name + ", seed " + std::to_string(o.seed) + ", " + std::to_string(o.agents) + " agents";
  const int N = s.tickCount;
  ASSERT_GT(N, 4) << name;

  // The reference: straight from tick 0.
  NavCrowdAdapter fresh(&mesh.nav);
  ScenarioRunner<NavCrowdAdapter> rf(fresh, s);
  ASSERT_TRUE(rf.start(&why)) << why;
  std::vector<TickRecord> ref;
  rf.runAll(&ref);
  ASSERT_EQ(int(ref.size()), N) << name;

  // The same run, taking snapshots on the way.
  NavCrowdAdapter ours(&mesh.nav);
  ScenarioRunner<NavCrowdAdapter> r(ours, s);
  ASSERT_TRUE(r.start(&why)) << why;
  std::vector<std::unique_ptr<Checkpoint>> cps;
  const int fixed[] = {1, N / 3, (2 * N) / 3, N - 1};
  bool tookQueued = false, tookRunning = false, tookOffMesh = false;
  std::vector<TickRecord> withSaves;
  TickRecord rec;
  for (int t = 1; t <= N; ++t) {
    ASSERT_TRUE(r.step(&rec)) << name;
    withSaves.push_back(rec);
    std::string reason;
    for (int f : fixed)
      if (t == f) reason = "tick " + std::to_string(t);
    const Crowd& c = ours.crowd();
    const bool running = c.getPathQueue()->searchInProgress();
    const bool queued = waitingForPath(c) > 0;
    const bool offMesh = anyOffMesh(c);
    if (running && !tookRunning) reason += " search running";
    if (queued && !tookQueued) reason += " requests queued";
    if (offMesh && !tookOffMesh) reason += " off-mesh";
    if (reason.empty() || t == N) continue;
    auto cp = std::make_unique<Checkpoint>();
    ASSERT_TRUE(cp->crowd.init(c));
    cp->tick = t;
    cp->why = reason;
    // The snapshot runs are only bit-exact with the reference if saving changes nothing: the
    // trace of this run (withSaves) is checked against it below.
    navtest::startCountingAllocs();
    const nav::Status st = c.saveState(cp->crowd);
    EXPECT_EQ(navtest::stopCountingAllocs(), 0) << name << ": saveState allocated";
    ASSERT_FALSE(nav::statusFailed(st)) << name;
    r.saveState(&cp->runner);
    tookRunning |= running;
    tookQueued |= queued;
    tookOffMesh |= offMesh;
    ++g_cov.snapshots;
    g_cov.withSearchRunning += running;
    g_cov.withQueuedRequests += queued;
    g_cov.withOffMesh += offMesh;
    cps.push_back(std::move(cp));
  }
  EXPECT_FALSE(r.step(nullptr));
  ASSERT_EQ(traceDiff(ref, withSaves, 0), "") << name << ": the run that took snapshots";
  ASSERT_EQ(deepDiff(fresh.crowd(), ours.crowd()), "") << name << ": the run that took snapshots, at the end";

  // Each snapshot, restored into the same crowd (now at tick N) and into a second crowd: k..N again.
  NavCrowdAdapter other(&mesh.nav);
  ScenarioRunner<NavCrowdAdapter> ro(other, s);
  ASSERT_TRUE(ro.start(&why)) << why;
  for (const auto& cp : cps) {
    for (int into = 0; into < 2; ++into) {
      NavCrowdAdapter& a = into ? other : ours;
      ScenarioRunner<NavCrowdAdapter>& rr = into ? ro : r;
      const std::string at = name + ", snapshot at " + cp->why + (into ? " (restored into another crowd)" : "");
      navtest::startCountingAllocs();
      const nav::Status st = a.crowd().restoreState(cp->crowd);
      EXPECT_EQ(navtest::stopCountingAllocs(), 0) << at << ": restoreState allocated";
      ASSERT_FALSE(nav::statusFailed(st)) << at;
      rr.restoreState(cp->runner);
      ASSERT_EQ(rr.ticksDone(), cp->tick) << at;
      std::vector<TickRecord> again(ref.begin(), ref.begin() + cp->tick);
      while (rr.step(&rec)) again.push_back(rec);
      ASSERT_EQ(traceDiff(ref, again, size_t(cp->tick)), "") << at;
      ASSERT_EQ(deepDiff(fresh.crowd(), a.crowd()), "") << at << ", at the end";
      EXPECT_EQ(rr.notes().size(), rf.notes().size()) << at;
    }
  }
}

std::vector<GenOptions> options(uint64_t seed0, const std::vector<int>& sizes, int rounds, int ticksPerRound,
                                bool offMesh) {
  std::vector<GenOptions> out;
  uint64_t seed = seed0;
  for (int n : sizes) {
    GenOptions g;
    g.seed = seed++;
    g.agents = n;
    g.rounds = rounds;
    g.ticksPerRound = ticksPerRound;
    g.offMeshAgents = offMesh;
    out.push_back(g);
  }
  // Every update-flag combination once (agent i: flags (base + i) % 32).
  for (int base = 0; base < 32; base += 8) {
    GenOptions g;
    g.seed = seed++;
    g.agents = 8;
    g.flagBase = base;
    g.rounds = 3;
    g.ticksPerRound = 20;
    g.offMeshAgents = offMesh;
    out.push_back(g);
  }
  return out;
}

/// The snapshots of the test so far covered requests waiting in the path queue, a search part way
/// through and (offMesh) an off-mesh crossing.
void expectCoverage(bool offMesh) {
  EXPECT_GT(g_cov.snapshots, 0);
  EXPECT_GT(g_cov.withQueuedRequests, 0) << "no snapshot with requests in the path queue";
  EXPECT_GT(g_cov.withSearchRunning, 0) << "no snapshot with a search part way through";
  if (offMesh) {
    EXPECT_GT(g_cov.withOffMesh, 0) << "no snapshot during an off-mesh crossing";
  }
  g_cov = Coverage();
}

const querytest::DualMesh* defaultLevel(bool tiled) {
  std::string why;
  const querytest::DualMesh* m = crowdtest::defaultLevel(tiled, true, &why);
  EXPECT_NE(m, nullptr) << why;
  return m;
}

TEST(CrowdSnapshot, DefaultLevelTiled) {
  const querytest::DualMesh* m = defaultLevel(true);
  ASSERT_NE(m, nullptr);
  g_cov = Coverage();
  for (const GenOptions& o : options(31000, {1, 7, 40, 128}, 4, 25, true)) checkSnapshots(*m, o);
  expectCoverage(true);
}

TEST(CrowdSnapshot, DefaultLevelSolo) {
  const querytest::DualMesh* m = defaultLevel(false);
  ASSERT_NE(m, nullptr);
  g_cov = Coverage();
  for (const GenOptions& o : options(32000, {3, 25, 64}, 4, 25, true)) checkSnapshots(*m, o);
  expectCoverage(true);
}

TEST(CrowdSnapshot, GeneratedWorld) {
  std::string why;
  const querytest::DualMesh* m = crowdtest::generatedWorld(256.0f, 3, &why);
  ASSERT_NE(m, nullptr) << why;
  g_cov = Coverage();
  for (const GenOptions& o : options(33000, {20, 150}, 4, 30, false)) checkSnapshots(*m, o);
  expectCoverage(false);
}

TEST(CrowdSnapshot, SharedNavTest) {
  for (int tiled = 0; tiled < 2; ++tiled) {
    std::string why;
    const querytest::DualMesh* m = crowdtest::sharedLevel("nav_test.obj", tiled != 0, true, &why);
    if (!m && why.compare(0, 6, "SKIP: ") == 0) GTEST_SKIP() << why;
    ASSERT_NE(m, nullptr) << why;
    g_cov = Coverage();
    for (const GenOptions& o : options(34000 + 100 * uint64_t(tiled), {24, 80}, 4, 25, true)) checkSnapshots(*m, o);
    expectCoverage(false);
  }
}

TEST(CrowdSnapshot, RefusesWhatDoesNotFit) {
  const querytest::DualMesh* m = defaultLevel(true);
  ASSERT_NE(m, nullptr);
  Crowd a, b, uninit;
  ASSERT_TRUE(a.init(16, 0.6f, &m->nav));
  ASSERT_TRUE(b.init(32, 0.6f, &m->nav));
  CrowdSnapshot snap;
  EXPECT_FALSE(snap.init(uninit));
  ASSERT_TRUE(snap.init(a));
  EXPECT_FALSE(snap.saved());
  EXPECT_TRUE(nav::statusFailed(a.restoreState(snap))) << "restoring a snapshot never saved";
  EXPECT_TRUE(nav::statusFailed(b.saveState(snap))) << "saving into a snapshot sized for another crowd";
  EXPECT_TRUE(nav::statusFailed(uninit.saveState(snap)));
  ASSERT_FALSE(nav::statusFailed(a.saveState(snap)));
  EXPECT_TRUE(snap.saved());
  EXPECT_TRUE(nav::statusFailed(b.restoreState(snap))) << "restoring into a crowd of another size";
  EXPECT_GE(snap.bytes(), size_t(16) * sizeof(CrowdAgent));
}

} // namespace
