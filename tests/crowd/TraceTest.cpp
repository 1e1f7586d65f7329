// TraceTest.cpp: whole crowd scenarios (../shared/formats/crowd.md) run on our crowd and on
// DetourCrowd through the same runner (nav/crowd/CrowdRunner.h); their traces must be identical by
// crowd.md's rule, tick by tick. Scenarios are generated (seeded): 1 to 128 agents, all 32
// update-flag combinations, every avoidance preset and random ones, retargets, velocity requests,
// resets, removals with slot reuse, agents that cannot be placed, targets with no poly, agents
// starting on off-mesh links. Levels: the default level solo and tiled (with random off-mesh links),
// a generated world, and the ../shared levels when present. Also: the trace format and comparer.
#include "DetourCrowdOracle.h"

#include "nav/crowd/CrowdRunner.h"
#include "nav/crowd/CrowdScenario.h"
#include "nav/crowd/CrowdTrace.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace nav::crowd;
using crowdtest::GenOptions;

/// Generated scenario -> text -> parsed (so the writer and parser are on the path), then both runs.
void checkScenario(const querytest::DualMesh& mesh, const GenOptions& o, int* offMeshTicks = nullptr,
                   int* removed = nullptr) {
  const Scenario gen = crowdtest::generateScenario(mesh, o);
  std::string text, why;
  ASSERT_TRUE(writeScenario(gen, &text, &why)) << why;
  Scenario s;
  ASSERT_TRUE(parseScenario(text, "generated", &s, &why)) << why;
  std::vector<TickRecord> ours, theirs;
  const std::string diff = crowdtest::runBoth(mesh, s, &ours, &theirs);
  ASSERT_EQ(diff, "") << mesh.name << ", seed " << o.seed << ", " << o.agents << " agents; scenario:\n"
                      << (text.size() < 6000 ? text : text.substr(0, 6000) + "...");
  ASSERT_EQ(int(ours.size()), s.tickCount);
  // The run did something: agents moved.
  bool moved = false;
  for (const AgentRecord& a : ours.back().agents)
    if (a.active && (a.vel[0] != 0.0f || a.vel[2] != 0.0f)) moved = true;
  if (o.agents >= 4) EXPECT_TRUE(moved) << mesh.name << " seed " << o.seed;
  for (const TickRecord& r : ours)
    for (const AgentRecord& a : r.agents) {
      if (offMeshTicks && a.active && a.state == 2) ++*offMeshTicks;
    }
  if (removed)
    for (const AgentRecord& a : ours.back().agents)
      if (!a.active) ++*removed;
}

const querytest::DualMesh* level(const querytest::DualMesh* m, const std::string& why) {
  if (!m && why.compare(0, 6, "SKIP: ") == 0) return nullptr;
  EXPECT_NE(m, nullptr) << why;
  return m;
}

TEST(CrowdTrace, DefaultLevelAllUpdateFlags) {
  for (int tiled = 0; tiled < 2; ++tiled) {
    std::string why;
    const querytest::DualMesh* m = level(crowdtest::defaultLevel(tiled != 0, true, &why), why);
    ASSERT_NE(m, nullptr);
    int offMesh = 0, removed = 0;
    // 32 agents, agent i with update flags i: every combination in one crowd.
    GenOptions o;
    o.seed = 11 + uint64_t(tiled);
    o.agents = 32;
    o.flagBase = 0;
    o.rounds = 5;
    o.ticksPerRound = 24;
    checkScenario(*m, o, &offMesh, &removed);
    // Each combination alone as well, so no neighbour hides a flag's effect.
    for (int f = 0; f < 32; ++f) {
      GenOptions g;
      g.seed = 100 + uint64_t(f) + 1000 * uint64_t(tiled);
      g.agents = 3;
      g.flagBase = f;
      g.rounds = 2;
      g.ticksPerRound = 20;
      checkScenario(*m, g, &offMesh, &removed);
      if (f == 31) g.flagBase = 0; // silence unused warning paths
    }
    EXPECT_GT(offMesh, 0) << m->name << ": no agent crossed an off-mesh link";
    EXPECT_GT(removed, 0) << m->name << ": no agent was removed or left unplaced";
  }
}

TEST(CrowdTrace, DefaultLevelSeedsAndSizes) {
  std::string why;
  const querytest::DualMesh* m = level(crowdtest::defaultLevel(true, true, &why), why);
  ASSERT_NE(m, nullptr);
  const int sizes[] = {1, 2, 7, 25, 64, 128};
  uint64_t seed = 500;
  for (int n : sizes) {
    GenOptions o;
    o.seed = seed++;
    o.agents = n;
    o.rounds = n >= 64 ? 3 : 6;
    o.ticksPerRound = n >= 64 ? 15 : 25;
    checkScenario(*m, o);
  }
}

TEST(CrowdTrace, GeneratedWorld) {
  std::string why;
  const querytest::DualMesh* m = crowdtest::generatedWorld(96.0f, 3, &why);
  ASSERT_NE(m, nullptr) << why;
  for (int k = 0; k < 3; ++k) {
    GenOptions o;
    o.seed = 900 + uint64_t(k);
    o.agents = k == 2 ? 100 : 20;
    o.rounds = 4;
    o.ticksPerRound = 20;
    o.offMeshAgents = false;
    checkScenario(*m, o);
  }
}

TEST(CrowdTrace, SharedLevels) {
  const char* levels[] = {"nav_test.obj", "dungeon.obj", "undulating.obj"};
  for (const char* obj : levels)
    for (int tiled = 0; tiled < 2; ++tiled) {
      std::string why;
      const querytest::DualMesh* m = crowdtest::sharedLevel(obj, tiled != 0, true, &why);
      if (!m && why.compare(0, 6, "SKIP: ") == 0) GTEST_SKIP() << why;
      ASSERT_NE(m, nullptr) << why;
      GenOptions o;
      o.seed = 7000 + uint64_t(tiled);
      o.agents = 24;
      o.rounds = 4;
      o.ticksPerRound = 20;
      checkScenario(*m, o);
    }
}

// A hand-written scenario: ignored commands, slot reuse, a crowd-full agent (built in memory: the
// parser refuses files that would overfill the crowd) and the notes they leave.
TEST(CrowdTrace, SlotsAndIgnoredCommands) {
  std::string why;
  const querytest::DualMesh* m = level(crowdtest::defaultLevel(false, false, &why), why);
  ASSERT_NE(m, nullptr);
  GenOptions o;
  o.seed = 42;
  o.agents = 2;
  o.rounds = 0;
  o.changes = false;
  o.offMeshAgents = false;
  o.avoidLines = false;
  o.unplaceable = false;
  Scenario s = crowdtest::generateScenario(*m, o); // 2 placeable agents with targets
  s.maxAgents = 2;
  const ScenarioCommand a0 = s.commands[0];
  auto cmd = [&](ScenarioOp op, int agent) {
    ScenarioCommand c;
    c.op = op;
    c.agent = agent;
    if (op == ScenarioOp::Tick) {
      c.ticks = 3;
      c.dt = 0.1f;
      s.tickCount += 3;
    }
    return c;
  };
  s.commands.push_back(cmd(ScenarioOp::Tick, 0));
  ScenarioCommand full = a0; // agent 2: the crowd (2) is full
  full.agent = s.agentCount++;
  s.commands.push_back(full);
  s.commands.push_back(cmd(ScenarioOp::Remove, 0));      // frees slot 0
  s.commands.push_back(cmd(ScenarioOp::Remove, 0));      // ignored: already removed
  s.commands.push_back(cmd(ScenarioOp::Reset, 2));       // ignored: never added
  ScenarioCommand reuse = a0;                            // agent 3 takes slot 0
  reuse.agent = s.agentCount++;
  s.commands.push_back(reuse);
  s.commands.push_back(cmd(ScenarioOp::Tick, 0));

  NavCrowdAdapter ours(&m->nav);
  ScenarioRunner<NavCrowdAdapter> run(ours, s);
  ASSERT_TRUE(run.start(&why)) << why;
  std::vector<TickRecord> trace;
  run.runAll(&trace);
  ASSERT_EQ(trace.size(), 6u);
  ASSERT_EQ(trace[2].agents.size(), 2u); // agents appear from the tick after their line
  ASSERT_EQ(trace[5].agents.size(), 4u);
  EXPECT_FALSE(trace[5].agents[0].active);
  EXPECT_TRUE(trace[5].agents[1].active);
  EXPECT_FALSE(trace[5].agents[2].active);
  EXPECT_TRUE(trace[5].agents[3].active);
  EXPECT_EQ(run.slotOf(3), 0);
  EXPECT_EQ(run.slotOf(0), -1);
  ASSERT_EQ(run.notes().size(), 1u);
  EXPECT_NE(run.notes()[0].text.find("the crowd is full (MAXAGENTS 2)"), std::string::npos) << run.notes()[0].text;
  EXPECT_EQ(crowdtest::runBoth(*m, s), "");
}

TEST(CrowdTrace, FormatAndComparer) {
  TickRecord r;
  r.tick = 3;
  AgentRecord a;
  a.i = 0;
  a.active = true;
  a.state = 1;
  a.pos[0] = 1.5f;
  a.pos[1] = 0.1f;
  a.vel[2] = -2.0f;
  a.targetState = 2;
  a.npath = 7;
  a.path0 = 1234;
  a.pathN = 5678;
  a.ncorners = 3;
  a.nneis = 2;
  r.agents.push_back(a);
  AgentRecord b;
  b.i = 1;
  r.agents.push_back(b);
  std::string line;
  appendTraceLine(r, &line);
  EXPECT_EQ(line,
            "{\"tick\": 3, \"agents\": [{\"i\": 0, \"active\": true, \"state\": 1, \"pos\": [1.5, 0.100000001, 0], "
            "\"vel\": [0, 0, -2], \"dvel\": [0, 0, 0], \"nvel\": [0, 0, 0], \"targetState\": 2, \"npath\": 7, "
            "\"path0\": 1234, \"pathN\": 5678, \"ncorners\": 3, \"nneis\": 2}, {\"i\": 1, \"active\": false}]}\n");

  std::vector<TickRecord> x{r}, y{r};
  EXPECT_EQ(compareTraces(x, y), "");
  y[0].agents[0].pos[0] = 1.5f + 0.9e-4f; // within 1e-4 absolute
  EXPECT_EQ(compareTraces(x, y), "");
  y[0].agents[0].pos[0] = 1.5f + 2e-4f; // beyond (|1.5| > 1: relative 1.5e-4)
  EXPECT_NE(compareTraces(x, y).find("tick 3 agent 0: pos[0]"), std::string::npos) << compareTraces(x, y);
  y = x;
  y[0].agents[0].pos[0] = 1000.0f;
  x[0].agents[0].pos[0] = 1000.05f; // relative to values above 1: 1e-4 * 1000 = 0.1
  EXPECT_EQ(compareTraces(x, y), "");
  y = x;
  y[0].agents[0].npath = 8;
  EXPECT_NE(compareTraces(x, y).find("npath 7 vs 8"), std::string::npos);
  y = x;
  y[0].agents[1].active = true;
  EXPECT_NE(compareTraces(x, y).find("agent 1: active false vs true"), std::string::npos);
  y = x;
  y.push_back(r);
  EXPECT_NE(compareTraces(x, y).find("tick counts differ: 1 vs 2"), std::string::npos);
  // Inactive agents compare on `active` only.
  y = x;
  y[0].agents[1].pos[0] = 5;
  EXPECT_EQ(compareTraces(x, y), "");
}

} // namespace
