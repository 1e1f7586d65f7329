// CrowdTypesTest.cpp: agents of several types in one crowd (nav/crowd/Crowd.h): each type plans on
// its own navmesh, all avoid each other, and the avoidance priority lets the big agents give way to
// the small ones. The world (CorridorWorld.h) is two rooms joined by an 8 m corridor 3 m wide, once
// per agent type: small agents (radius 0.3) walk a corridor 2.4 m wide, big ones (radius 0.9) 1.2 m.
// Small agents cross left to right while big ones cross right to left.
#include "tests/crowd/CorridorWorld.h"

#include "nav/NavMeshQuery.h"
#include "nav/TileSetFile.h"
#include "nav/crowd/Crowd.h"
#include "nav/crowd/CrowdRunner.h"
#include "nav/crowd/CrowdScenario.h"
#include "nav/crowd/CrowdTrace.h"
#include "tests/support/AllocCounter.h"
#include "tests/support/Process.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace nc = nav::crowd;

namespace {

constexpr float SMALL_R = 0.3f, BIG_R = 0.9f;
/// Goals: small agent k (0..3) crosses to the right room at z 3, 5, 7, 9; big agent k (0..1) to
/// the left room at z 4, 8.
constexpr float SMALL_GOALS[4][3] = {{29, 0, 3}, {29, 0, 5}, {29, 0, 7}, {29, 0, 9}};
constexpr float BIG_GOALS[2][3] = {{3, 0, 4}, {3, 0, 8}};

struct World {
  std::unique_ptr<nav::NavMesh> small, big;
  const nav::NavMesh* meshes[2] = {nullptr, nullptr};
};

const World& world() {
  static World w = [] {
    World x;
    x.small = crowdtest::corridorWorld(SMALL_R);
    x.big = crowdtest::corridorWorld(BIG_R);
    x.meshes[0] = x.small.get();
    x.meshes[1] = x.big.get();
    return x;
  }();
  return w;
}

struct Cast {
  bool smalls = true, bigs = true;
  int bigPriority = 1; ///< the small agents have 0
  int ticks = 800;
};

/// The crossing as a scenario: 4 small agents (type default) from the left room to the right one,
/// 2 big agents (type big) the other way. Agents 0..3 small (when present), then the big ones.
std::string crossing(const Cast& c) {
  std::string s = "crowd 16 0.9\nnavmesh big\n";
  if (c.smalls)
    for (float z : {3.0f, 5.0f, 7.0f, 9.0f})
      s += "agent 3 0 " + std::to_string(z) + " radius 0.3 maxSpeed 3\n";
  if (c.bigs)
    for (float x : {27.0f, 30.0f})
      s += "agent " + std::to_string(x) + " 0 6 type big radius 0.9 height 3 maxSpeed 2.5 priority " +
           std::to_string(c.bigPriority) + "\n";
  const int n = (c.smalls ? 4 : 0) + (c.bigs ? 2 : 0);
  for (int i = 0; i < n; ++i) {
    const bool small = c.smalls && i < 4;
    const float* g = small ? SMALL_GOALS[i] : BIG_GOALS[i - (c.smalls ? 4 : 0)];
    s += "target " + std::to_string(i) + " " + std::to_string(g[0]) + " 0 " + std::to_string(g[2]) + "\n";
  }
  s += "tick " + std::to_string(c.ticks) + " 0.05\n";
  return s;
}

nc::Scenario parse(const std::string& text) {
  nc::Scenario sc;
  std::string why;
  EXPECT_TRUE(nc::parseScenario(text, "crossing.crowd.txt", &sc, &why)) << why;
  return sc;
}

std::vector<nc::TickRecord> run(const nc::Scenario& sc) {
  nc::NavCrowdAdapter crowd(world().meshes, 2);
  nc::ScenarioRunner<nc::NavCrowdAdapter> runner(crowd, sc);
  std::string why;
  EXPECT_TRUE(runner.start(&why)) << why;
  std::vector<nc::TickRecord> trace;
  runner.runAll(&trace);
  EXPECT_EQ(runner.agentsNotAdded(), 0);
  EXPECT_EQ(runner.targetsSkipped(), 0);
  return trace;
}

/// First tick at which agent i is within 1 m (2D) of goal; -1 when it never gets there.
int arrival(const std::vector<nc::TickRecord>& trace, int i, const float* goal) {
  for (const nc::TickRecord& r : trace) {
    const nc::AgentRecord& a = r.agents[size_t(i)];
    if (a.active && std::hypot(a.pos[0] - goal[0], a.pos[2] - goal[2]) < 1.0f) return r.tick;
  }
  return -1;
}

/// Sum of the arrival ticks of agents [first, first + n) at goals[0 .. n); -1 when one never arrives.
int totalArrival(const std::vector<nc::TickRecord>& trace, int first, int n, const float (*goals)[3]) {
  int sum = 0;
  for (int i = first; i < first + n; ++i) {
    const int t = arrival(trace, i, goals[i - first]);
    if (t < 0) return -1;
    sum += t;
  }
  return sum;
}

/// The slowest 2D speed agent i has between its tenth tick and its arrival. [wu/s]
float minSpeedBeforeArrival(const std::vector<nc::TickRecord>& trace, int i, const float* goal) {
  const int end = arrival(trace, i, goal);
  float m = 1e9f;
  for (const nc::TickRecord& r : trace) {
    if (r.tick < 10 || (end >= 0 && r.tick >= end)) continue;
    const nc::AgentRecord& a = r.agents[size_t(i)];
    m = std::min(m, std::hypot(a.vel[0], a.vel[2]));
  }
  return m;
}

TEST(CrowdTypes, WorldHasTheCorridorPerType) {
  const World& w = world();
  ASSERT_TRUE(w.small && w.big);
  // A point 1 m off the corridor's centre line is on the small agents' mesh only.
  for (int t = 0; t < 2; ++t) {
    nav::NavMeshQuery q;
    ASSERT_FALSE(nav::statusFailed(q.init(w.meshes[t], 256)));
    nav::QueryFilter f;
    const float p[3] = {16, 0, 7.0f}, ext[3] = {0.05f, 1, 0.05f};
    nav::PolyRef ref = 0;
    float nearest[3];
    q.findNearestPoly(p, ext, &f, &ref, nearest);
    EXPECT_EQ(ref != 0, t == 0) << "type " << t;
  }
}

TEST(CrowdTypes, EachAgentPlansOnItsOwnTypesMesh) {
  const nc::Scenario sc = parse(crossing(Cast()));
  nc::NavCrowdAdapter crowd(world().meshes, 2);
  nc::ScenarioRunner<nc::NavCrowdAdapter> runner(crowd, sc);
  std::string why;
  ASSERT_TRUE(runner.start(&why)) << why;
  nc::TickRecord rec;
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(runner.step(&rec));
  const nc::Crowd& c = crowd.crowd();
  ASSERT_EQ(c.getNavTypeCount(), 2);
  for (int i = 0; i < 6; ++i) {
    const nc::CrowdAgent* ag = c.getAgent(runner.slotOf(i));
    ASSERT_TRUE(ag && ag->active);
    const int type = i < 4 ? 0 : 1;
    EXPECT_EQ(ag->params.navType, type);
    EXPECT_EQ(rec.agents[size_t(i)].type, type ? "big" : "default");
    // Every corridor poly is a valid poly of the agent's own type's mesh.
    const nav::NavMeshQuery* own = c.getNavMeshQuery(type);
    nav::QueryFilter f;
    ASSERT_GT(ag->corridor.getPathCount(), 1) << "agent " << i;
    for (int k = 0; k < ag->corridor.getPathCount(); ++k)
      EXPECT_TRUE(own->isValidPolyRef(ag->corridor.getPath()[k], &f));
    EXPECT_EQ(ag->corridor.getLastPoly(), rec.agents[size_t(i)].pathN);
  }
  // The neighbours span the types: after a few ticks a big agent's neighbours are computed over
  // every agent (the two big ones see each other; nothing is filtered by type).
  EXPECT_GE(c.getAgent(runner.slotOf(4))->nneis, 1);
}

TEST(CrowdTypes, BigAgentsGiveWayToSmallOnes) {
  const std::vector<nc::TickRecord> both = run(parse(crossing(Cast())));
  Cast alone;
  alone.bigs = false;
  const std::vector<nc::TickRecord> smallsAlone = run(parse(crossing(alone)));
  Cast bigsOnly;
  bigsOnly.smalls = false;
  const std::vector<nc::TickRecord> bigsAlone = run(parse(crossing(bigsOnly)));
  Cast even;
  even.bigPriority = 0;
  const std::vector<nc::TickRecord> evenRun = run(parse(crossing(even)));

  const int smallBoth = totalArrival(both, 0, 4, SMALL_GOALS);
  const int smallAlone = totalArrival(smallsAlone, 0, 4, SMALL_GOALS);
  const int smallEven = totalArrival(evenRun, 0, 4, SMALL_GOALS);
  const int bigBoth = totalArrival(both, 4, 2, BIG_GOALS);
  const int bigAlone = totalArrival(bigsAlone, 0, 2, BIG_GOALS);
  const int bigEven = totalArrival(evenRun, 4, 2, BIG_GOALS);
  std::printf("arrival ticks (sum): small: alone %d, with big giving way %d, even priority %d; big: alone %d, "
              "giving way %d, even %d\n",
              smallAlone, smallBoth, smallEven, bigAlone, bigBoth, bigEven);
  ASSERT_GT(smallAlone, 0);
  ASSERT_GT(bigAlone, 0);
  ASSERT_GT(smallBoth, 0) << "a small agent never crossed";
  ASSERT_GT(bigBoth, 0) << "a big agent never crossed";
  ASSERT_GT(smallEven, 0);

  // The small agents cross as fast as without the big ones, never slowing below 95 % of the
  // slowest speed they have alone (turning into the corridor)...
  EXPECT_LE(smallBoth, smallAlone + smallAlone / 100);
  for (int i = 0; i < 4; ++i)
    EXPECT_GE(minSpeedBeforeArrival(both, i, SMALL_GOALS[i]), 0.95f * minSpeedBeforeArrival(smallsAlone, i, SMALL_GOALS[i]))
        << "small agent " << i;
  // ... while with even priorities they meet the big ones head on: some slow to under half of it,
  // and they arrive later.
  float worstEvenRatio = 1e9f;
  for (int i = 0; i < 4; ++i)
    worstEvenRatio = std::min(worstEvenRatio, minSpeedBeforeArrival(evenRun, i, SMALL_GOALS[i]) /
                                                  minSpeedBeforeArrival(smallsAlone, i, SMALL_GOALS[i]));
  EXPECT_LT(worstEvenRatio, 0.5f);
  EXPECT_GT(smallEven, smallBoth);

  // The big agents give way: the first one all but stops (it walks on at more than 1 m/s alone),
  // and both arrive over 10 % later than alone.
  const float bigFirstAlone = minSpeedBeforeArrival(bigsAlone, 0, BIG_GOALS[0]);
  EXPECT_GT(bigFirstAlone, 1.0f);
  EXPECT_LT(minSpeedBeforeArrival(both, 4, BIG_GOALS[0]), 0.25f * bigFirstAlone);
  EXPECT_GT(bigBoth, bigAlone + bigAlone / 10);
}

TEST(CrowdTypes, RunsAndStepsBackDeterministically) {
  const nc::Scenario sc = parse(crossing(Cast()));
  // Two runs: the same trace, bit for bit (as text).
  const std::string a = nc::traceToJsonl(run(sc));
  const std::string b = nc::traceToJsonl(run(sc));
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("\"type\": \"big\""), std::string::npos);
  EXPECT_NE(a.find("\"type\": \"default\""), std::string::npos);

  // A checkpoint mid-crossing (tick 120: the big ones are yielding), 60 ticks on, back to the
  // checkpoint and 60 ticks again: the same records, and the same as the straight run's.
  nc::NavCrowdAdapter crowd(world().meshes, 2);
  nc::ScenarioRunner<nc::NavCrowdAdapter> runner(crowd, sc);
  std::string why;
  ASSERT_TRUE(runner.start(&why)) << why;
  nc::TickRecord rec;
  for (int k = 0; k < 120; ++k) ASSERT_TRUE(runner.step(&rec));
  nc::CrowdSnapshot snap;
  ASSERT_TRUE(snap.init(crowd.crowd()));
  ASSERT_EQ(crowd.crowd().saveState(snap), nav::SUCCESS);
  nc::RunnerState rs;
  runner.saveState(&rs);
  std::string first, second;
  for (int k = 0; k < 60; ++k) {
    ASSERT_TRUE(runner.step(&rec));
    nc::appendTraceLine(rec, &first);
  }
  ASSERT_EQ(crowd.crowd().restoreState(snap), nav::SUCCESS);
  runner.restoreState(rs);
  for (int k = 0; k < 60; ++k) {
    ASSERT_TRUE(runner.step(&rec));
    nc::appendTraceLine(rec, &second);
  }
  EXPECT_EQ(first, second);
  // Lines 121..180 of the straight run.
  size_t at = 0;
  for (int k = 0; k < 120; ++k) at = a.find('\n', at) + 1;
  EXPECT_EQ(a.substr(at, first.size()), first);

  // A snapshot does not fit a crowd on other meshes (the types' meshes swapped).
  const nav::NavMesh* swapped[2] = {world().meshes[1], world().meshes[0]};
  nc::Crowd other;
  ASSERT_TRUE(other.init(16, 0.9f, swapped, 2));
  EXPECT_EQ(other.restoreState(snap), nav::FAILURE);
}

TEST(CrowdTypes, UpdateAllocatesNothingWithSeveralTypes) {
  const nc::Scenario sc = parse(crossing(Cast()));
  nc::NavCrowdAdapter crowd(world().meshes, 2);
  nc::ScenarioRunner<nc::NavCrowdAdapter> runner(crowd, sc);
  std::string why;
  ASSERT_TRUE(runner.start(&why)) << why;
  ASSERT_TRUE(runner.step(nullptr)); // the commands before the first tick (agents, targets)
  nc::Crowd& c = crowd.crowd();
  long allocs = 0;
  for (int k = 0; k < 600; ++k) {
    navtest::startCountingAllocs();
    c.update(0.05f, nullptr);
    allocs += navtest::stopCountingAllocs();
  }
  EXPECT_EQ(allocs, 0);
  // The run did plan on both meshes (paths queued and walked) while counting.
  int arrived = 0;
  for (int i = 0; i < 6; ++i) {
    const nc::CrowdAgent* ag = c.getAgent(runner.slotOf(i));
    const float* g = i < 4 ? SMALL_GOALS[i] : BIG_GOALS[i - 4];
    if (std::hypot(ag->npos[0] - g[0], ag->npos[2] - g[2]) < 1.0f) ++arrived;
  }
  EXPECT_EQ(arrived, 6);
}

TEST(CrowdTypes, ApiRefusesUnknownTypes) {
  const World& w = world();
  nc::Crowd c;
  EXPECT_FALSE(c.init(8, 0.9f, w.meshes, 0));
  EXPECT_FALSE(c.init(8, 0.9f, static_cast<const nav::NavMesh* const*>(nullptr), 2));
  const nav::NavMesh* withNull[2] = {w.meshes[0], nullptr};
  EXPECT_FALSE(c.init(8, 0.9f, withNull, 2));
  std::vector<const nav::NavMesh*> tooMany(size_t(nc::CROWD_MAX_NAV_TYPES) + 1, w.meshes[0]);
  EXPECT_FALSE(c.init(8, 0.9f, tooMany.data(), int(tooMany.size())));
  EXPECT_EQ(c.getNavTypeCount(), 0);
  ASSERT_TRUE(c.init(8, 0.9f, w.meshes, 2));
  EXPECT_EQ(c.getNavTypeCount(), 2);
  EXPECT_EQ(c.getNavMeshQuery(2), nullptr);
  EXPECT_EQ(c.getPathQueue(-1), nullptr);

  nc::CrowdAgentParams p{};
  p.radius = SMALL_R;
  p.height = 2;
  p.maxAcceleration = 8;
  p.maxSpeed = 3;
  p.collisionQueryRange = 4;
  p.pathOptimizationRange = 9;
  const float pos[3] = {3, 0, 6};
  p.navType = 2;
  EXPECT_EQ(c.addAgent(pos, &p), -1);
  p.navType = 1;
  const int idx = c.addAgent(pos, &p);
  ASSERT_GE(idx, 0);
  EXPECT_EQ(c.getAgent(idx)->params.navType, 1);
  // An agent keeps its type: parameters naming another are ignored, the same type's are taken.
  nc::CrowdAgentParams q = p;
  q.navType = 0;
  q.maxSpeed = 1;
  c.updateAgentParameters(idx, &q);
  EXPECT_EQ(c.getAgent(idx)->params.maxSpeed, 3.0f);
  q.navType = 1;
  c.updateAgentParameters(idx, &q);
  EXPECT_EQ(c.getAgent(idx)->params.maxSpeed, 1.0f);
}

TEST(CrowdTypes, ScenarioTypesParseWriteAndRefuse) {
  nc::Scenario sc;
  std::string why;
  ASSERT_TRUE(nc::parseScenario("crowd 8 0.9\nnavmesh big meshes/big.bin\nnavmesh dog\n"
                                "agent 1 0 1\nagent 2 0 2 type dog priority 7\nagent 3 0 3 type big\n"
                                "agent 4 0 4 type default\ntick 1 0.1\n",
                                "t.crowd.txt", &sc, &why))
      << why;
  ASSERT_EQ(sc.navTypes.size(), 2u);
  EXPECT_EQ(sc.navTypes[0].name, "big");
  EXPECT_EQ(sc.navTypes[0].path, "meshes/big.bin");
  EXPECT_EQ(sc.navTypes[1].path, "");
  EXPECT_EQ(sc.commands[0].agentParams.navType, 0);
  EXPECT_EQ(sc.commands[1].agentParams.navType, 2);
  EXPECT_EQ(sc.commands[1].agentParams.avoidancePriority, 7);
  EXPECT_EQ(sc.commands[2].agentParams.navType, 1);
  EXPECT_EQ(sc.commands[3].agentParams.navType, 0);
  EXPECT_EQ(nc::scenarioTypeName(sc, 2), "dog");
  EXPECT_EQ(nc::scenarioTypeMeshPath(sc, 1, "levels/x.crowd.txt", "out/level.bin"), "levels/meshes/big.bin");
  EXPECT_EQ(nc::scenarioTypeMeshPath(sc, 2, "levels/x.crowd.txt", "out/level.bin"), "out/level.dog.bin");
  EXPECT_EQ(nc::scenarioTypeMeshPath(sc, 0, "levels/x.crowd.txt", "out/level.bin"), "out/level.bin");

  // Written back and read again: the same types, keys and priorities.
  std::string text;
  ASSERT_TRUE(nc::writeScenario(sc, &text, &why)) << why;
  nc::Scenario back;
  ASSERT_TRUE(nc::parseScenario(text, "back", &back, &why)) << why << "\n" << text;
  ASSERT_EQ(back.navTypes.size(), 2u);
  EXPECT_EQ(back.navTypes[0].path, "meshes/big.bin");
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(back.commands[i].agentParams.navType, sc.commands[i].agentParams.navType);
    EXPECT_EQ(back.commands[i].agentParams.avoidancePriority, sc.commands[i].agentParams.avoidancePriority);
  }

  struct Bad {
    const char* text;
    const char* message;
  };
  const Bad bad[] = {
      {"navmesh big b.bin\nagent 1 0 1\nagent 1 0 1 type truck\n",
       "t.crowd.txt:3: agent 1: unknown type 'truck' (types: default, big;"},
      {"agent 1 0 1 type big\n", "t.crowd.txt:1: agent 0: unknown type 'big' (types: default;"},
      {"agent 1 0 1\nnavmesh big\n", "t.crowd.txt:2: navmesh must come before every agent line"},
      {"navmesh big\nnavmesh big x.bin\n", "t.crowd.txt:2: type 'big' declared twice (first on line 1)"},
      {"navmesh default x.bin\n", "t.crowd.txt:1: type 'default' is the mesh the scenario is run on"},
      {"navmesh a/b x.bin\n", "t.crowd.txt:1: type name 'a/b' may hold only"},
      {"navmesh\n", "t.crowd.txt:1: navmesh takes NAME [PATH], got 0"},
      {"navmesh a b c\n", "t.crowd.txt:1: navmesh takes NAME [PATH], got 3"},
      {"agent 1 0 1 priority 256\n", "t.crowd.txt:1: priority 256 is outside 0..255"},
      {"agent 1 0 1 type\n", "t.crowd.txt:1: agent takes X Y Z then KEY VALUE pairs"},
  };
  for (const Bad& b : bad) {
    nc::Scenario s;
    std::string w;
    EXPECT_FALSE(nc::parseScenario(b.text, "t.crowd.txt", &s, &w)) << b.text;
    EXPECT_EQ(w.rfind(b.message, 0), 0u) << w;
  }
  std::string many;
  for (int t = 0; t < nc::SCENARIO_MAX_NAV_TYPES; ++t) many += "navmesh t" + std::to_string(t) + "\n";
  nc::Scenario s;
  EXPECT_FALSE(nc::parseScenario(many, "t.crowd.txt", &s, &why));
  EXPECT_NE(why.find("more than 15 navmesh lines"), std::string::npos) << why;

  // The runner refuses a scenario with more types than the crowd has meshes.
  nc::NavCrowdAdapter one(world().meshes[0]);
  nc::ScenarioRunner<nc::NavCrowdAdapter> runner(one, sc);
  EXPECT_FALSE(runner.start(&why));
  EXPECT_NE(why.find("3 agent types, the crowd 1 navmesh"), std::string::npos) << why;
}

TEST(CrowdTypes, TraceTypeIsOptionalAndCompared) {
  nc::TickRecord r;
  r.tick = 1;
  r.agents.resize(1);
  r.agents[0].active = true;
  std::string plain;
  nc::appendTraceLine(r, &plain);
  EXPECT_EQ(plain.find("type"), std::string::npos);
  EXPECT_EQ(plain.substr(plain.size() - 14), "\"nneis\": 0}]}\n") << plain;
  nc::TickRecord t = r;
  t.agents[0].type = "big";
  std::string typed;
  nc::appendTraceLine(t, &typed);
  EXPECT_NE(typed.find(", \"type\": \"big\"}]}"), std::string::npos) << typed;
  EXPECT_EQ(nc::compareTickRecords(r, r), "");
  EXPECT_NE(nc::compareTickRecords(r, t).find("type '' vs 'big'"), std::string::npos);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `navbench crowd MESH.bin SCENARIO` with a `navmesh` line: the same trace twice (and the same as
// the in-process run), each agent's type in it; an unknown type or a missing tile set exit 2 with
// the file, the line, the agent and the type.
TEST(CrowdTypes, CliRunsTypesAndRefusesUnknownOnes) {
  const char* exe = testproc::navbenchExe();
  struct stat st;
  if (!exe || ::stat(exe, &st) != 0)
    GTEST_SKIP() << "navbench is not built (cmake --build DIR --target navbench; configure with NAVBENCH_APP=ON)";
  const std::string d = testproc::tempPath("navbench_crowd_types_", "dir");
  ::mkdir(d.c_str(), 0755);
  ::mkdir((d + "/meshes").c_str(), 0755);
  std::string why;
  ASSERT_FALSE(nav::statusFailed(nav::saveTileSetFile(*world().small, d + "/world.bin", &why))) << why;
  ASSERT_FALSE(nav::statusFailed(nav::saveTileSetFile(*world().big, d + "/meshes/big.bin", &why))) << why;
  const std::string text = crossing(Cast());
  // PATH against the scenario's folder; the same run with the mesh found beside MESH.bin.
  std::string withPath = text;
  withPath.replace(withPath.find("navmesh big\n"), 12, "navmesh big meshes/big.bin\n");
  std::ofstream(d + "/crossing.crowd.txt") << withPath;
  const std::string base = std::string(exe) + " crowd " + d + "/world.bin " + d + "/crossing.crowd.txt";
  std::string out;
  ASSERT_EQ(testproc::runCommand(base + " --json " + d + "/a.jsonl --repeat 2", &out), 0) << out;
  ASSERT_EQ(testproc::runCommand(base + " --json " + d + "/b.jsonl", &out), 0) << out;
  const std::string a = slurp(d + "/a.jsonl");
  EXPECT_EQ(a, slurp(d + "/b.jsonl"));
  EXPECT_EQ(a, nc::traceToJsonl(run(parse(text))));
  EXPECT_NE(a.find("\"type\": \"big\""), std::string::npos);
  EXPECT_EQ(testproc::runCommand(base + " --expect " + d + "/a.jsonl", &out), 0) << out;

  // Without PATH: MESH.big.bin beside MESH.bin.
  std::ofstream(d + "/sibling.crowd.txt") << text;
  ASSERT_EQ(testproc::runCommand(std::string(exe) + " crowd " + d + "/world.bin " + d + "/sibling.crowd.txt", &out), 2);
  EXPECT_NE(out.find(d + "/world.big.bin"), std::string::npos) << out;
  EXPECT_NE(out.find(d + "/sibling.crowd.txt:2: the tile set of type big"), std::string::npos) << out;
  ASSERT_FALSE(nav::statusFailed(nav::saveTileSetFile(*world().big, d + "/world.big.bin", &why))) << why;
  ASSERT_EQ(testproc::runCommand(std::string(exe) + " crowd " + d + "/world.bin " + d + "/sibling.crowd.txt --json " +
                                     d + "/c.jsonl",
                                 &out),
            0)
      << out;
  EXPECT_EQ(slurp(d + "/c.jsonl"), a);

  std::ofstream(d + "/unknown.crowd.txt") << "crowd 4 0.9\nnavmesh big meshes/big.bin\nagent 3 0 6\n"
                                              "agent 29 0 6 type truck\ntick 1 0.1\n";
  EXPECT_EQ(testproc::runCommand(std::string(exe) + " crowd " + d + "/world.bin " + d + "/unknown.crowd.txt", &out), 2);
  EXPECT_NE(out.find(d + "/unknown.crowd.txt:4: agent 1: unknown type 'truck' (types: default, big;"),
            std::string::npos)
      << out;
}

// A level with agent types baked by `navbench bake LEVEL.json -o OUT.bin` has OUT.NAME.bin files
// and no OUT.bin: a scenario whose agents all name a type (as the viewer's Crowd tool writes them)
// runs on those alone, with the same trace as with an OUT.bin for `default`; an agent of type
// `default` then exits 2 naming OUT.bin and its line.
TEST(CrowdTypes, CliRunsNamedTypesWithoutTheDefaultTileSet) {
  const char* exe = testproc::navbenchExe();
  struct stat st;
  if (!exe || ::stat(exe, &st) != 0)
    GTEST_SKIP() << "navbench is not built (cmake --build DIR --target navbench; configure with NAVBENCH_APP=ON)";
  const std::string d = testproc::tempPath("navbench_crowd_notdefault_", "dir");
  ::mkdir(d.c_str(), 0755);
  const std::string out = d + "/out.bin", level = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default_agents.json";
  std::string log;
  ASSERT_EQ(testproc::runCommand(std::string(exe) + " bake " + level + " -o " + out, &log), 0) << log;
  ASSERT_EQ(::stat((d + "/out.truck.bin").c_str(), &st), 0) << "the truck's tile set";
  ASSERT_NE(::stat(out.c_str(), &st), 0) << "no tile set for `default`";
  const std::string text = "crowd 8 1.3\nnavmesh dog\nnavmesh soldier\nnavmesh truck\n"
                           "agent 3 0 3 type dog radius 0.2 height 0.8\n"
                           "agent 6 0 3 type soldier\n"
                           "agent 10 0 4 type truck radius 1.3 height 2.8\n"
                           "target 0 55 0 45\ntarget 1 50 0 40\ntarget 2 45 0 40\ntick 40 0.1\n";
  std::ofstream(d + "/typed.crowd.txt") << text;
  const std::string run = std::string(exe) + " crowd " + out + " " + d + "/typed.crowd.txt --json ";
  ASSERT_EQ(testproc::runCommand(run + d + "/a.jsonl", &log), 0) << log;
  EXPECT_NE(log.find("no " + out), std::string::npos) << log;
  const std::string a = slurp(d + "/a.jsonl");
  for (const char* type : {"dog", "soldier", "truck"})
    EXPECT_NE(a.find(std::string("\"type\": \"") + type + "\""), std::string::npos) << type;
  EXPECT_EQ(a.find("\"active\": false"), std::string::npos) << "every agent was placed";
  // Any tile set as OUT.bin: the same trace (no agent plans on it).
  std::ifstream src(d + "/out.soldier.bin", std::ios::binary);
  std::ofstream(out, std::ios::binary) << src.rdbuf();
  ASSERT_EQ(testproc::runCommand(run + d + "/b.jsonl", &log), 0) << log;
  EXPECT_EQ(slurp(d + "/b.jsonl"), a);
  ::unlink(out.c_str());

  // An agent without a type needs OUT.bin: refused, naming the file and the agent's line.
  std::string untyped = text;
  untyped.replace(untyped.find("agent 6 0 3 type soldier"), 24, "agent 6 0 3");
  std::ofstream(d + "/untyped.crowd.txt") << untyped;
  EXPECT_EQ(testproc::runCommand(std::string(exe) + " crowd " + out + " " + d + "/untyped.crowd.txt", &log), 2);
  EXPECT_NE(log.find(out + ": no such file: the tile set of type default"), std::string::npos) << log;
  EXPECT_NE(log.find(d + "/untyped.crowd.txt:6 (agent 1)"), std::string::npos) << log;
}

} // namespace
