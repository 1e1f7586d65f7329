// The crowd timeline and its model (app/model/CrowdTimeline.h, CrowdModel.h) on the committed
// default level's navmesh (assets/levels/default.bin), without a window: going back in time (a
// restored checkpoint and a replay) gives the agents of going straight there bit for bit, at every
// tick; checkpoints change no answer; edits are recorded and replayed; the recorded crowd is the
// one `navbench crowd` runs (the same runner on the same commands).
#include "app/model/CrowdModel.h"
#include "nav/crowd/CrowdRunner.h"
#include "tests/model/CrowdTestMesh.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using navbench::CrowdModel;
using navbench::CrowdTimeline;
using namespace nav::crowd;

/// Navmesh points of their own (the model's random points are seeded by it).
std::mt19937 g_points(99);
float pointRand() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(g_points) * 0.99999994f; }
glm::vec3 navPoint(navbench::NavState& nav) {
  nav::PolyRef ref = 0;
  float p[3] = {0, 0, 0};
  EXPECT_FALSE(nav::statusFailed(nav.query().findRandomPoint(&nav.filter(), pointRand, &ref, p)));
  return glm::vec3(p[0], p[1], p[2]);
}

void appendBits(std::vector<uint32_t>& out, const float* v, int n) {
  for (int k = 0; k < n; ++k) {
    uint32_t b = 0;
    std::memcpy(&b, &v[k], 4);
    out.push_back(b);
  }
}

/// Every agent's state as bits: active, state, target state, corridor, corners, neighbours, and
/// the float vectors bit for bit.
std::vector<uint32_t> agentBits(const CrowdTimeline& tl) {
  std::vector<uint32_t> out;
  out.push_back(uint32_t(tl.tick()));
  for (int i = 0; i < tl.agentsSeen(); ++i) {
    const CrowdAgent* ag = tl.agent(i);
    out.push_back(ag ? 1u : 0u);
    if (!ag) continue;
    out.push_back(uint32_t(ag->state));
    out.push_back(uint32_t(ag->targetState));
    out.push_back(uint32_t(ag->corridor.getPathCount()));
    for (int k = 0; k < ag->corridor.getPathCount(); ++k) out.push_back(uint32_t(ag->corridor.getPath()[k]));
    out.push_back(uint32_t(ag->ncorners));
    out.push_back(uint32_t(ag->nneis));
    appendBits(out, ag->npos, 3);
    appendBits(out, ag->vel, 3);
    appendBits(out, ag->dvel, 3);
    appendBits(out, ag->nvel, 3);
    appendBits(out, ag->targetPos, 3);
    appendBits(out, ag->cornerVerts, ag->ncorners * 3);
  }
  return out;
}

/// A model on the default navmesh with `agents` agents at random points sent to random points.
void makeCrowd(CrowdModel& m, int agents) {
  m.bind(&navbench::test::crowdTestNav(), nullptr);
  ASSERT_TRUE(m.ensure());
  m.addRandomAgents(agents);
  ASSERT_FALSE(m.isError()) << m.message();
  m.randomTargets();
  ASSERT_FALSE(m.isError()) << m.message();
  ASSERT_EQ(m.activeAgents(), agents);
}

/// The agents at ticks 0..ticks, going straight there.
std::vector<std::vector<uint32_t>> playStraight(CrowdModel& m, int ticks) {
  std::vector<std::vector<uint32_t>> at;
  at.push_back(agentBits(m.timeline()));
  for (int t = 1; t <= ticks; ++t) {
    EXPECT_TRUE(m.step());
    at.push_back(agentBits(m.timeline()));
  }
  return at;
}

} // namespace

// From the recorded end, one step back at a time down to tick 0: every tick's agents are those of
// going straight there (a checkpoint restored and the ticks after it replayed).
TEST(CrowdTimeline, StepBackEqualsGoingStraightThereAtEveryTick) {
  CrowdModel m;
  makeCrowd(m, 24);
  const int kTicks = 120;
  const auto straight = playStraight(m, kTicks);
  EXPECT_EQ(m.totalTicks(), kTicks);
  EXPECT_GE(int(m.timeline().checkpointCount()), kTicks / m.timeline().checkpointEvery() - 1);
  bool moved = false;
  for (size_t k = 0; k + 1 < straight.size(); ++k) moved = moved || straight[k] != straight[k + 1];
  EXPECT_TRUE(moved) << "the agents walk";
  for (int t = kTicks - 1; t >= 0; --t) {
    m.stepBack();
    ASSERT_EQ(m.tick(), t);
    ASSERT_EQ(agentBits(m.timeline()), straight[size_t(t)]) << "tick " << t;
  }
  EXPECT_EQ(m.totalTicks(), kTicks) << "stepping back keeps the recorded ticks";
  // And forward again over the recorded ticks: the same states.
  for (int t = 1; t <= kTicks; ++t) {
    m.step();
    ASSERT_EQ(agentBits(m.timeline()), straight[size_t(t)]) << "tick " << t;
  }
}

// Scrubbing (goTo any tick, back and forth) lands on the state of going straight there; a long
// step back leaves fine checkpoints over the ticks it replayed.
TEST(CrowdTimeline, ScrubbingLandsOnTheStateOfGoingStraightThere) {
  CrowdModel m;
  makeCrowd(m, 100);
  const int kTicks = 200;
  const auto straight = playStraight(m, kTicks);
  for (int t : {197, 180, 37, 5, 0, 150, 200, 199, 64, 63, 1}) {
    m.goTo(t);
    ASSERT_EQ(m.tick(), t);
    EXPECT_EQ(agentBits(m.timeline()), straight[size_t(t)]) << "tick " << t;
  }
  m.goTo(kTicks);
  for (int i = 0; i < 20; ++i) m.stepBack();
  EXPECT_EQ(m.tick(), kTicks - 20);
  EXPECT_GT(m.timeline().fineCheckpointCount(), 0u);
  EXPECT_EQ(agentBits(m.timeline()), straight[size_t(kTicks - 20)]);
  m.goTo(kTicks + 50);
  EXPECT_EQ(m.tick(), kTicks) << "clamped to the recorded end";
  EXPECT_EQ(m.totalTicks(), kTicks);
}

// The same crowd with checkpoints off (every step back replays from tick 0) gives the same
// agents at every tick: checkpoints change no answer.
TEST(CrowdTimeline, CheckpointsChangeNoAnswer) {
  CrowdModel with, without;
  makeCrowd(with, 16);
  without.timeline().setCheckpointsEnabled(false);
  makeCrowd(without, 16);
  const int kTicks = 70;
  const auto a = playStraight(with, kTicks), b = playStraight(without, kTicks);
  EXPECT_EQ(a, b);
  EXPECT_GT(with.timeline().checkpointCount(), 0u);
  EXPECT_EQ(without.timeline().checkpointCount(), 0u);
  for (int t : {69, 50, 33, 32, 31, 2}) {
    with.goTo(t);
    without.goTo(t);
    EXPECT_EQ(agentBits(with.timeline()), agentBits(without.timeline())) << "tick " << t;
    EXPECT_EQ(agentBits(with.timeline()), a[size_t(t)]) << "tick " << t;
  }
}

// Edits (add, send, select and send one, drive by velocity, remove) are commands at their tick:
// the scenario written from the history, run by the plain runner (`navbench crowd`'s), gives the
// model's agents bit for bit; stepping back over the edits replays them.
TEST(CrowdTimeline, EditsAreRecordedAndReplayed) {
  navbench::NavState& nav = navbench::test::crowdTestNav();
  CrowdModel m;
  m.bind(&nav, nullptr);
  ASSERT_TRUE(m.ensure());
  std::vector<std::vector<uint32_t>> straight;
  straight.push_back(agentBits(m.timeline()));
  auto play = [&](int n) {
    for (int k = 0; k < n; ++k) {
      m.step();
      straight.push_back(agentBits(m.timeline()));
    }
  };
  g_points.seed(99);
  for (int i = 0; i < 4; ++i) m.addAgentAt(navPoint(nav));
  ASSERT_EQ(m.activeAgents(), 4) << m.message();
  straight.back() = agentBits(m.timeline()); // tick 0 after its commands
  m.setTarget(navPoint(nav));
  straight.back() = agentBits(m.timeline());
  EXPECT_FALSE(m.isError()) << m.message();
  play(10);
  m.addAgentAt(navPoint(nav)); // goes where the others were sent
  straight.back() = agentBits(m.timeline());
  EXPECT_EQ(m.timeline().history().commands.back().op, ScenarioOp::Target);
  EXPECT_EQ(m.timeline().history().commands.back().agent, 4);
  play(10);
  m.select(2);
  m.setTarget(navPoint(nav));
  straight.back() = agentBits(m.timeline());
  EXPECT_NE(m.message().find("agent 2"), std::string::npos) << m.message();
  play(5);
  m.select(-1);
  m.setVelocity(navPoint(nav));
  straight.back() = agentBits(m.timeline());
  play(5);
  m.removeAgent(1);
  straight.back() = agentBits(m.timeline());
  EXPECT_EQ(m.timeline().agent(1), nullptr);
  EXPECT_EQ(m.activeAgents(), 4);
  play(10);
  ASSERT_EQ(m.tick(), 40);

  const Scenario s = m.timeline().compact();
  std::string text, why;
  ASSERT_TRUE(writeScenario(s, &text, &why)) << why;
  for (const char* line : {"\nagent ", "\ntarget 2 ", "\nvelocity 0 ", "\nremove 1\n", "\ntick 10 "})
    EXPECT_NE(text.find(line), std::string::npos) << line << " in\n" << text;

  // The plain runner on the written text.
  Scenario parsed;
  ASSERT_TRUE(parseScenario(text, "edits", &parsed, &why)) << why;
  NavCrowdAdapter plain(&nav.mesh());
  ScenarioRunner<NavCrowdAdapter> runner(plain, parsed);
  ASSERT_TRUE(runner.start(&why)) << why;
  std::vector<TickRecord> trace;
  runner.runAll(&trace);
  ASSERT_EQ(trace.size(), 40u);
  const TickRecord& last = trace.back();
  ASSERT_EQ(int(last.agents.size()), m.timeline().agentsSeen());
  for (const AgentRecord& r : last.agents) {
    const CrowdAgent* ag = m.timeline().agent(r.i);
    ASSERT_EQ(r.active, ag != nullptr) << "agent " << r.i;
    if (!ag) continue;
    EXPECT_EQ(r.state, ag->state);
    EXPECT_EQ(r.targetState, ag->targetState);
    EXPECT_EQ(0, std::memcmp(r.pos, ag->npos, sizeof r.pos)) << "agent " << r.i;
    EXPECT_EQ(0, std::memcmp(r.vel, ag->vel, sizeof r.vel)) << "agent " << r.i;
  }

  // Back over the edits, one tick at a time.
  for (int t = 39; t >= 0; --t) {
    m.stepBack();
    ASSERT_EQ(agentBits(m.timeline()), straight[size_t(t)]) << "tick " << t;
  }
  // A command in the past drops the recorded future.
  m.goTo(15);
  m.addAgentAt(navPoint(nav));
  EXPECT_FALSE(m.isError()) << m.message();
  EXPECT_EQ(m.totalTicks(), 15);
  EXPECT_EQ(m.timeline().agentLines(), 6);
}

// Selecting and removing by position, and the messages of edits that cannot be made.
TEST(CrowdTimeline, EditsByPositionAndTheirMessages) {
  navbench::NavState& nav = navbench::test::crowdTestNav();
  CrowdModel m;
  m.bind(&nav, nullptr);
  ASSERT_TRUE(m.ensure());
  m.setTarget(glm::vec3(0.0f));
  EXPECT_TRUE(m.isError());
  EXPECT_EQ(m.message(), "no agents to send: click the navmesh to add some");
  g_points.seed(7);
  const glm::vec3 a = navPoint(nav), b = navPoint(nav);
  m.addAgentAt(a);
  m.addAgentAt(b);
  EXPECT_EQ(m.message().rfind("added agent 1 at (", 0), 0u) << m.message();
  m.selectAt(a);
  EXPECT_EQ(m.selected(), 0);
  EXPECT_EQ(m.message(), "selected agent 0");
  m.step();
  ASSERT_TRUE(m.timeline().debugCrowd()->debug().idx >= 0) << "the selected agent's steering is collected";
  m.selectAt(a + glm::vec3(50.0f, 0.0f, 50.0f));
  EXPECT_EQ(m.selected(), -1);
  m.removeAt(a + glm::vec3(50.0f, 0.0f, 50.0f));
  EXPECT_TRUE(m.isError());
  EXPECT_EQ(m.message(), "no agent under the cursor to remove");
  m.removeAt(b);
  EXPECT_FALSE(m.isError()) << m.message();
  EXPECT_EQ(m.message(), "removed agent 1");
  EXPECT_EQ(m.activeAgents(), 1);
  // Off the navmesh: recorded (the runner notes it), reported as an error.
  m.addAgentAt(glm::vec3(1.0e4f, 0.0f, 1.0e4f));
  EXPECT_TRUE(m.isError());
  EXPECT_EQ(m.activeAgents(), 1);
  // No navmesh: nothing to do.
  CrowdModel none;
  EXPECT_FALSE(none.ensure());
  none.addAgentAt(a);
  EXPECT_EQ(none.timeline().agentLines(), 0);
}
