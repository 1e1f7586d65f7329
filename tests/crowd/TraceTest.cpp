// TraceTest.cpp: whole crowd scenarios (../shared/formats/crowd.md) run on our crowd and on
// DetourCrowd through the same runner (nav/crowd/CrowdRunner.h); their traces must be identical by
// crowd.md's rule, tick by tick, and (the project's goal) bit for bit. Scenarios are generated
// (seeded): 1 to 128 agents, all 32 update-flag combinations, every avoidance preset and random
// ones, retargets, velocity requests, resets, removals with slot reuse, agents that cannot be
// placed, targets with no poly, agents starting on off-mesh links. Levels: the default level solo
// and tiled (with random off-mesh links), a generated world, and the ../shared levels when present.
// Also: the trace format and comparer, and replays.
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

/// What the generated scenarios of a test exercised, counted from the commands.
struct Coverage {
  int ops[8] = {0, 0, 0, 0, 0, 0, 0, 0}; ///< by ScenarioOp
  int lateAgents = 0;                    ///< agent lines after the first tick (slot reuse after removals)
  unsigned flags = 0;                    ///< bit f: update flags f used
  unsigned presets = 0;                  ///< bit p: avoidance preset p used
};
Coverage g_cov;

void count(const Scenario& s) {
  bool ticked = false;
  for (const ScenarioCommand& c : s.commands) {
    ++g_cov.ops[int(c.op)];
    if (c.op == ScenarioOp::Tick) ticked = true;
    if (c.op == ScenarioOp::Agent) {
      if (ticked) ++g_cov.lateAgents;
      g_cov.flags |= 1u << c.agentParams.updateFlags;
      g_cov.presets |= 1u << c.agentParams.obstacleAvoidanceType;
    }
  }
}

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
  // Beyond crowd.md's tolerance: the project's goal is DetourCrowd's floats bit for bit.
  for (size_t t = 0; t < ours.size(); ++t) {
    const std::string e = crowdtest::firstBitDifference(ours[t], theirs[t]);
    if (!e.empty()) {
      ADD_FAILURE() << mesh.name << ", seed " << o.seed << ": identical by crowd.md's rule but not bit for bit: " << e;
      break;
    }
  }
  // The run did something: agents moved.
  bool moved = false;
  for (const AgentRecord& a : ours.back().agents)
    if (a.active && (a.vel[0] != 0.0f || a.vel[2] != 0.0f)) moved = true;
  if (o.agents >= 4) {
    EXPECT_TRUE(moved) << mesh.name << " seed " << o.seed;
  }
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

/// The default level's scenarios: 32 agents with update flags i and preset i % 8 (every
/// combination in one crowd), each flag combination alone (3 agents, so no neighbour hides a
/// flag's effect), and crowds of 1 to 128 agents with random flags.
std::vector<GenOptions> defaultLevelOptions(bool tiled) {
  std::vector<GenOptions> out;
  GenOptions o;
  o.seed = 11 + uint64_t(tiled);
  o.agents = 32;
  o.flagBase = 0;
  o.rounds = 5;
  o.ticksPerRound = 24;
  out.push_back(o);
  for (int f = 0; f < 32; ++f) {
    GenOptions g;
    g.seed = 100 + uint64_t(f) + 1000 * uint64_t(tiled);
    g.agents = 3;
    g.flagBase = f;
    g.rounds = 2;
    g.ticksPerRound = 20;
    out.push_back(g);
  }
  const int sizes[] = {1, 2, 7, 25, 64, 128};
  uint64_t seed = 500 + 100 * uint64_t(tiled);
  for (int n : sizes) {
    GenOptions g;
    g.seed = seed++;
    g.agents = n;
    g.rounds = n >= 64 ? 3 : 6;
    g.ticksPerRound = n >= 64 ? 15 : 25;
    if (!tiled && n >= 64) continue; // the big crowds once (tiled) keep the suite short
    out.push_back(g);
  }
  return out;
}

void checkDefaultLevel(bool tiled) {
  std::string why;
  const querytest::DualMesh* m = level(crowdtest::defaultLevel(tiled, true, &why), why);
  ASSERT_NE(m, nullptr);
  int offMesh = 0, removed = 0;
  for (const GenOptions& o : defaultLevelOptions(tiled)) checkScenario(*m, o, &offMesh, &removed);
  EXPECT_GT(offMesh, 0) << m->name << ": no agent crossed an off-mesh link";
  EXPECT_GT(removed, 0) << m->name << ": no agent was removed or left unplaced";
}

TEST(CrowdTrace, DefaultLevelSolo) { checkDefaultLevel(false); }
TEST(CrowdTrace, DefaultLevelTiled) { checkDefaultLevel(true); }

// The default level's scenarios cover every command, all 32 update-flag combinations, all 8
// avoidance presets, and agents added after removals (slot reuse).
TEST(CrowdTrace, CoverageOfTheGeneratedScenarios) {
  std::string why;
  const querytest::DualMesh* m = level(crowdtest::defaultLevel(true, true, &why), why);
  ASSERT_NE(m, nullptr);
  g_cov = Coverage();
  for (const GenOptions& o : defaultLevelOptions(true)) count(crowdtest::generateScenario(*m, o));
  const char* names[] = {"crowd", "avoid", "agent", "target", "velocity", "reset", "remove", "tick"};
  for (int op = 1; op < 8; ++op) EXPECT_GT(g_cov.ops[op], 0) << "no " << names[op] << " command generated";
  EXPECT_GT(g_cov.lateAgents, 0) << "no agent added after a removal";
  EXPECT_EQ(g_cov.flags, 0xffffffffu) << "update-flag combinations missed";
  EXPECT_EQ(g_cov.presets, 0xffu) << "avoidance presets missed";
}

// Our crowd replays a scenario bit for bit (the viewer's step back replays from the start).
TEST(CrowdTrace, ReplayIsBitIdentical) {
  std::string why;
  const querytest::DualMesh* m = level(crowdtest::defaultLevel(true, true, &why), why);
  ASSERT_NE(m, nullptr);
  GenOptions o;
  o.seed = 4711;
  o.agents = 40;
  const Scenario s = crowdtest::generateScenario(*m, o);
  std::string first;
  for (int run = 0; run < 2; ++run) {
    NavCrowdAdapter ours(&m->nav);
    ScenarioRunner<NavCrowdAdapter> r(ours, s);
    ASSERT_TRUE(r.start(&why)) << why;
    std::vector<TickRecord> t;
    r.runAll(&t);
    ASSERT_EQ(int(t.size()), s.tickCount);
    if (run == 0) {
      first = traceToJsonl(t);
    } else {
      EXPECT_TRUE(traceToJsonl(t) == first) << "the second run's trace differs";
    }
  }
  // start() again on the same crowd object starts over too.
  NavCrowdAdapter ours(&m->nav);
  ScenarioRunner<NavCrowdAdapter> r(ours, s);
  std::vector<TickRecord> t;
  ASSERT_TRUE(r.start(&why));
  for (int i = 0; i < 10; ++i) r.step(nullptr);
  ASSERT_TRUE(r.start(&why));
  r.runAll(&t);
  EXPECT_TRUE(traceToJsonl(t) == first) << "a restarted run's trace differs";
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
