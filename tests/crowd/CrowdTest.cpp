// CrowdTest.cpp: nav::crowd::Crowd against Debian's dtCrowd (DetourCrowd 1.5.1, the oracle) on the
// project's default level, solo and tiled, both crowds on the same Recast bake (DualMesh): the same
// commands go to both, and every tick every agent slot is compared (state, target state, corridor,
// corners, neighbours, positions and velocities). Plus: update() allocates nothing, and the same
// commands replayed give the same states bit for bit.
#include "nav/crowd/Crowd.h"

#include "tests/crowd/CrowdParamFields.h"
#include "tests/query/DualMesh.h"
#include "tests/support/AllocCounter.h"
#include "tests/support/RecastPolyMesh.h"

#include <DetourCrowd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

using querytest::DualMesh;
namespace nc = nav::crowd;

constexpr int MAX_AGENTS = 24;
constexpr float AGENT_RADIUS = 0.6f;
constexpr float DT = 1.0f / 30.0f;

// Same values in both enums/constants (compile-time checks of the contract).
static_assert(nc::CROWDAGENT_MAX_NEIGHBOURS == DT_CROWDAGENT_MAX_NEIGHBOURS, "neighbours");
static_assert(nc::CROWDAGENT_MAX_CORNERS == DT_CROWDAGENT_MAX_CORNERS, "corners");
static_assert(nc::CROWD_MAX_OBSTAVOIDANCE_PARAMS == DT_CROWD_MAX_OBSTAVOIDANCE_PARAMS, "presets");
static_assert(nc::CROWD_MAX_QUERY_FILTER_TYPE == DT_CROWD_MAX_QUERY_FILTER_TYPE, "filters");
static_assert(int(nc::CROWDAGENT_STATE_OFFMESH) == int(DT_CROWDAGENT_STATE_OFFMESH), "state");
static_assert(int(nc::CROWDAGENT_TARGET_VELOCITY) == int(DT_CROWDAGENT_TARGET_VELOCITY), "target state");
static_assert(int(nc::CROWDAGENT_TARGET_WAITING_FOR_PATH) == int(DT_CROWDAGENT_TARGET_WAITING_FOR_PATH), "ts");
static_assert(int(nc::CROWD_OPTIMIZE_TOPO) == int(DT_CROWD_OPTIMIZE_TOPO), "flags");
static_assert(int(nc::CROWD_OPTIMIZE_VIS) == int(DT_CROWD_OPTIMIZE_VIS), "flags");
static_assert(int(nc::CROWD_SEPARATION) == int(DT_CROWD_SEPARATION), "flags");

const DualMesh* level(bool tiled, bool randomize) {
  std::string why;
  const DualMesh* dm = querytest::loadDual(querytest::defaultLevel(), tiled, randomize, &why);
  EXPECT_NE(dm, nullptr) << "default level: " << why;
  return dm;
}

nc::CrowdAgentParams agentParams(uint8_t flags, float speedScale = 1.0f) {
  nc::CrowdAgentParams p{}; // zeroed, navType 0, avoidancePriority 0
  p.radius = AGENT_RADIUS;
  p.height = 2.0f;
  p.maxAcceleration = 8.0f;
  p.maxSpeed = 3.5f * speedScale;
  p.collisionQueryRange = p.radius * 12.0f;
  p.pathOptimizationRange = p.radius * 30.0f;
  p.separationWeight = 2.0f;
  p.updateFlags = flags;
  p.obstacleAvoidanceType = 3;
  p.queryFilterType = 0;
  return p;
}

dtCrowdAgentParams toDetour(const nc::CrowdAgentParams& p) {
  dtCrowdAgentParams d;
  std::memset(&d, 0, sizeof d);
  crowdtest::copyAgentParams(d, p);
  return d;
}

/// One agent slot, as both crowds expose it.
struct Snap {
  bool active = false;
  int state = 0, targetState = 0, npath = 0, ncorners = 0, nneis = 0;
  bool partial = false;
  uint64_t first = 0, last = 0, targetRef = 0;
  int neis[6] = {0, 0, 0, 0, 0, 0};
  float npos[3] = {}, vel[3] = {}, dvel[3] = {}, nvel[3] = {}, corners[12] = {}, desiredSpeed = 0;
  int nsegs = 0;
  float segs[8 * 6] = {}; ///< Local boundary segments.
  float boundaryCenter[3] = {};
};

/// Our agents and Detour's have the same field names: one snapshot for both.
template <class Agent>
Snap snapOf(const Agent& a) {
  Snap s;
  s.nsegs = a.boundary.getSegmentCount();
  for (int i = 0; i < s.nsegs && i < 8; ++i) std::memcpy(&s.segs[i * 6], a.boundary.getSegment(i), sizeof(float) * 6);
  std::memcpy(s.boundaryCenter, a.boundary.getCenter(), sizeof s.boundaryCenter);
  s.active = a.active;
  if (!a.active) return s;
  s.state = a.state;
  s.targetState = a.targetState;
  s.partial = a.partial;
  s.npath = a.corridor.getPathCount();
  s.first = a.corridor.getFirstPoly();
  s.last = a.corridor.getLastPoly();
  s.targetRef = a.targetRef;
  s.ncorners = a.ncorners;
  s.nneis = a.nneis;
  for (int i = 0; i < a.nneis; ++i) s.neis[i] = a.neis[i].idx;
  std::memcpy(s.npos, a.npos, sizeof s.npos);
  std::memcpy(s.vel, a.vel, sizeof s.vel);
  std::memcpy(s.dvel, a.dvel, sizeof s.dvel);
  std::memcpy(s.nvel, a.nvel, sizeof s.nvel);
  std::memset(s.corners, 0, sizeof s.corners);
  std::memcpy(s.corners, a.cornerVerts, sizeof(float) * 3 * size_t(a.ncorners));
  s.desiredSpeed = a.desiredSpeed;
  return s;
}

bool bitsEqual(const float* a, const float* b, int n) { return std::memcmp(a, b, sizeof(float) * size_t(n)) == 0; }
float maxDiff(const float* a, const float* b, int n) {
  float d = 0;
  for (int i = 0; i < n; ++i) d = std::fmax(d, std::fabs(a[i] - b[i]));
  return d;
}

/// Both crowds on one DualMesh, driven by the same commands.
struct Pair {
  const DualMesh* dm = nullptr;
  nc::Crowd ours;
  dtCrowd* ref = nullptr;
  nav::NavMeshQuery q; ///< Ours, for picking points (refs are the same in both meshes).
  nav::QueryFilter filter;
  int ticks = 0;
  long bitMismatches = 0; ///< Float fields compared that were not bit-identical.
  long floatsCompared = 0;
  int offmeshSeen = 0;    ///< Agent-ticks in OFFMESH state.
  int maxNeis = 0;
  unsigned targetStatesSeen = 0; ///< Bit per MoveRequestState met after an update.
  int maxCorridor = 0, maxCorners = 0, partialSeen = 0;
  float walked = 0; ///< Sum over agent-ticks of the 2D step length. [Unit: wu]
  int maxAgents = MAX_AGENTS;
  std::vector<float> lastPos;   ///< [(x, y, z) * maxAgents]
  unsigned agentStatesSeen = 0; ///< Bit per CrowdAgentState met after an update.

  explicit Pair(const DualMesh* m, int maxAg = MAX_AGENTS) : dm(m), maxAgents(maxAg), lastPos(size_t(maxAg) * 3, 0.0f) {
    EXPECT_TRUE(ours.init(maxAgents, AGENT_RADIUS, &dm->nav));
    ref = dtAllocCrowd();
    EXPECT_TRUE(ref->init(maxAgents, AGENT_RADIUS, dm->dt));
    EXPECT_FALSE(nav::statusFailed(q.init(&dm->nav, 2048)));
    // Avoidance presets as RecastDemo's crowd tool sets them (low .. high quality). Only odd
    // adaptiveDivs: with an even count Detour's sampling pattern reads an uninitialised entry
    // (its result then varies from run to run), so there is nothing fixed to compare with.
    const uint8_t divs[4] = {5, 5, 7, 7}, rings[4] = {2, 2, 2, 3}, depth[4] = {1, 2, 3, 3};
    for (int i = 0; i < 4; ++i) {
      nc::ObstacleAvoidanceParams p = *ours.getObstacleAvoidanceParams(0);
      dtObstacleAvoidanceParams d = *ref->getObstacleAvoidanceParams(0);
      p.velBias = d.velBias = 0.5f;
      p.adaptiveDivs = d.adaptiveDivs = divs[i];
      p.adaptiveRings = d.adaptiveRings = rings[i];
      p.adaptiveDepth = d.adaptiveDepth = depth[i];
      ours.setObstacleAvoidanceParams(i, &p);
      ref->setObstacleAvoidanceParams(i, &d);
    }
  }
  ~Pair() { dtFreeCrowd(ref); }

  /// A random point on the mesh (same stream -> same point for both crowds).
  bool randomPoint(float* pt, nav::PolyRef* r) {
    return !nav::statusFailed(q.findRandomPoint(&filter, querytest::frand, r, pt)) && *r;
  }

  int add(const float* pos, const nc::CrowdAgentParams& p) {
    const int a = ours.addAgent(pos, &p);
    const dtCrowdAgentParams dp = toDetour(p);
    const int b = ref->addAgent(pos, &dp);
    EXPECT_EQ(a, b) << "addAgent slot";
    return a;
  }
  void target(int idx, const float* pos, nav::PolyRef r) {
    EXPECT_EQ(ours.requestMoveTarget(idx, r, pos), ref->requestMoveTarget(idx, r, pos));
  }
  void velocity(int idx, const float* v) {
    EXPECT_EQ(ours.requestMoveVelocity(idx, v), ref->requestMoveVelocity(idx, v));
  }
  void reset(int idx) { EXPECT_EQ(ours.resetMoveTarget(idx), ref->resetMoveTarget(idx)); }
  void params(int idx, const nc::CrowdAgentParams& p) {
    ours.updateAgentParameters(idx, &p);
    const dtCrowdAgentParams dp = toDetour(p);
    ref->updateAgentParameters(idx, &dp);
  }
  void remove(int idx) {
    ours.removeAgent(idx);
    ref->removeAgent(idx);
  }
  /// Applies fn to filter i of both crowds.
  void editFilter(int i, const std::function<void(nav::QueryFilter&)>& ours_, const std::function<void(dtQueryFilter&)>& ref_) {
    ours_(*ours.getEditableFilter(i));
    ref_(*ref->getEditableFilter(i));
  }

  /// Compares every slot; returns false (after reporting) at the first structural difference.
  bool compare(const char* when) {
    for (int i = 0; i < maxAgents; ++i) {
      const Snap a = snapOf(*ours.getAgent(i));
      const Snap b = snapOf(*ref->getAgent(i));
      const std::string where = std::string(when) + " tick " + std::to_string(ticks) + " agent " + std::to_string(i);
      bool ok = true;
      auto check = [&](bool cond, const char* what) {
        if (!cond) {
          ADD_FAILURE() << dm->name << ": " << where << ": " << what << " differs";
          ok = false;
        }
      };
      check(a.active == b.active, "active");
      if (!a.active || !b.active) continue;
      check(a.state == b.state, "state");
      check(a.targetState == b.targetState, "targetState");
      check(a.partial == b.partial, "partial");
      check(a.npath == b.npath, "corridor length");
      check(a.first == b.first, "corridor first poly");
      check(a.last == b.last, "corridor last poly");
      check(a.targetRef == b.targetRef, "targetRef");
      check(a.ncorners == b.ncorners, "ncorners");
      check(a.nneis == b.nneis, "nneis");
      if (a.nneis == b.nneis) check(std::memcmp(a.neis, b.neis, sizeof(int) * size_t(a.nneis)) == 0, "neighbour order");
      const float tol = 1e-4f;
      check(maxDiff(a.npos, b.npos, 3) <= tol, "npos");
      check(maxDiff(a.vel, b.vel, 3) <= tol, "vel");
      check(maxDiff(a.dvel, b.dvel, 3) <= tol, "dvel");
      check(maxDiff(a.nvel, b.nvel, 3) <= tol, "nvel");
      if (a.ncorners == b.ncorners) check(maxDiff(a.corners, b.corners, 12) <= tol, "corners");
      check(std::fabs(a.desiredSpeed - b.desiredSpeed) <= tol, "desiredSpeed");
      check(a.nsegs == b.nsegs, "local boundary segment count");
      check(bitsEqual(a.boundaryCenter, b.boundaryCenter, 3), "local boundary center");
      if (a.nsegs == b.nsegs) check(maxDiff(a.segs, b.segs, 6 * a.nsegs) <= tol, "local boundary segments");
      if (!ok) {
        ADD_FAILURE() << "ours npos " << a.npos[0] << " " << a.npos[1] << " " << a.npos[2] << " ref " << b.npos[0]
                      << " " << b.npos[1] << " " << b.npos[2] << "; corridor " << a.npath << " vs " << b.npath
                      << "; ncorners " << a.ncorners << " vs " << b.ncorners << "; targetState " << a.targetState
                      << " vs " << b.targetState;
        return false;
      }
      const float* fa[5] = {a.npos, a.vel, a.dvel, a.nvel, a.corners};
      const float* fb[5] = {b.npos, b.vel, b.dvel, b.nvel, b.corners};
      for (int k = 0; k < 5; ++k) {
        const int n = k == 4 ? 12 : 3;
        floatsCompared += n;
        if (!bitsEqual(fa[k], fb[k], n)) ++bitMismatches;
      }
      if (a.state == nc::CROWDAGENT_STATE_OFFMESH) ++offmeshSeen;
      if (a.nneis > maxNeis) maxNeis = a.nneis;
      targetStatesSeen |= 1u << a.targetState;
      if (a.npath > maxCorridor) maxCorridor = a.npath;
      if (a.ncorners > maxCorners) maxCorners = a.ncorners;
      if (a.partial) ++partialSeen;
      agentStatesSeen |= 1u << a.state;
      float* lp = &lastPos[size_t(i) * 3];
      walked += std::sqrt(nav::vdist2DSqr(a.npos, lp) < 1.0f ? nav::vdist2DSqr(a.npos, lp) : 0.0f);
      std::memcpy(lp, a.npos, sizeof(float) * 3);
    }
    return true;
  }

  bool tick(nc::CrowdAgentDebugInfo* dbg = nullptr, dtCrowdAgentDebugInfo* ddbg = nullptr, float dt = DT) {
    ours.update(dt, dbg);
    ref->update(dt, ddbg);
    ++ticks;
    EXPECT_EQ(ours.getVelocitySampleCount(), ref->getVelocitySampleCount()) << dm->name << " tick " << ticks;
    return compare("after update");
  }
};

/// The scripted walk: agents with the given flags (per agent: flagsOf(i)), targets, retargets,
/// a velocity request, a reset, removals and slot reuse, a common goal (crowding), ~260 ticks.
void runScript(Pair& P, const std::function<uint8_t(int)>& flagsOf, int nagents) {
  querytest::seedRandom(0xC0FFEE + uint64_t(nagents));
  std::vector<int> idx;
  for (int i = 0; i < nagents; ++i) {
    float p[3];
    nav::PolyRef r;
    ASSERT_TRUE(P.randomPoint(p, &r));
    const int a = P.add(p, agentParams(flagsOf(i), 0.8f + 0.05f * float(i % 5)));
    ASSERT_GE(a, 0);
    idx.push_back(a);
  }
  ASSERT_TRUE(P.compare("after add"));
  auto retarget = [&](int k) {
    float t[3];
    nav::PolyRef r;
    ASSERT_TRUE(P.randomPoint(t, &r));
    P.target(idx[size_t(k)], t, r);
  };
  for (int k = 0; k < nagents; ++k) retarget(k);

  for (int t = 0; t < 260; ++t) {
    if (t == 45)
      for (int k = 0; k < nagents; k += 2) retarget(k); // retarget mid-walk
    if (t == 60 && nagents > 2) {
      const float v[3] = {1.5f, 0.0f, -1.0f};
      P.velocity(idx[2], v);
    }
    if (t == 75 && nagents > 3) P.reset(idx[3]);
    if (t == 90 && nagents > 4) {
      P.remove(idx[1]);
      P.remove(idx[4]);
    }
    if (t == 95 && nagents > 4) {
      // The first free slot is reused.
      float p[3];
      nav::PolyRef r;
      ASSERT_TRUE(P.randomPoint(p, &r));
      const int a = P.add(p, agentParams(flagsOf(1)));
      ASSERT_EQ(a, idx[1]);
      retarget(1);
    }
    if (t == 100 && nagents > 3) retarget(3); // after a reset
    if (t == 130) {
      // Everyone to one point: crowding, neighbours, collisions.
      float g[3];
      nav::PolyRef r;
      ASSERT_TRUE(P.randomPoint(g, &r));
      for (int k = 0; k < nagents; ++k)
        if (k != 4) P.target(idx[size_t(k)], g, r);
    }
    if (t == 200 && nagents > 2) P.reset(idx[2]);
    ASSERT_TRUE(P.compare("after commands")) << "script tick " << t;
    ASSERT_TRUE(P.tick()) << "script tick " << t;
  }
}

struct FlagCase {
  const char* name;
  int flags; ///< -1: every agent its own combination (agent i gets i % 32).
};

class CrowdVsDetour : public ::testing::TestWithParam<std::tuple<bool, FlagCase>> {};

TEST_P(CrowdVsDetour, SameTraceTickByTick) {
  const bool tiled = std::get<0>(GetParam());
  const FlagCase fc = std::get<1>(GetParam());
  const DualMesh* dm = level(tiled, false);
  ASSERT_NE(dm, nullptr);
  Pair P(dm);
  const int n = 12;
  runScript(P, [&](int i) { return uint8_t(fc.flags < 0 ? (i * 7 + 3) % 32 : fc.flags); }, n);
  // The script exercises what it claims: neighbours, the path queue, velocity and reset, long
  // corridors, and real walking.
  EXPECT_GT(P.maxNeis, 0) << "the script should bring agents together";
  EXPECT_TRUE(P.targetStatesSeen & (1u << nc::CROWDAGENT_TARGET_WAITING_FOR_PATH)) << "path queue never used";
  EXPECT_TRUE(P.targetStatesSeen & (1u << nc::CROWDAGENT_TARGET_VELOCITY));
  EXPECT_TRUE(P.targetStatesSeen & (1u << nc::CROWDAGENT_TARGET_NONE));
  EXPECT_TRUE(P.targetStatesSeen & (1u << nc::CROWDAGENT_TARGET_VALID));
  EXPECT_GT(P.maxCorridor, 10) << "no corridor longer than the validity lookahead";
  EXPECT_GT(P.walked, 100.0f) << "agents hardly moved";
  std::printf("[ info ] %s flags %s: states seen 0x%x, max corridor %d, max neighbours %d, partial agent-ticks %d, "
              "walked %.1f wu\n", dm->name.c_str(), fc.name, P.targetStatesSeen, P.maxCorridor, P.maxNeis,
              P.partialSeen, double(P.walked));
  EXPECT_EQ(P.bitMismatches, 0) << "of " << P.floatsCompared << " compared float vectors, not bit-identical";
}

const FlagCase kFlagCases[] = {
    {"none", 0},
    {"anticipate", nc::CROWD_ANTICIPATE_TURNS},
    {"avoidance", nc::CROWD_OBSTACLE_AVOIDANCE},
    {"separation", nc::CROWD_SEPARATION},
    {"vis", nc::CROWD_OPTIMIZE_VIS},
    {"topo", nc::CROWD_OPTIMIZE_TOPO},
    {"all", 31},
    {"mixed", -1},
};

INSTANTIATE_TEST_SUITE_P(Default, CrowdVsDetour,
                         ::testing::Combine(::testing::Bool(), ::testing::ValuesIn(kFlagCases)),
                         [](const ::testing::TestParamInfo<std::tuple<bool, FlagCase>>& pi) {
                           return std::string(std::get<0>(pi.param) ? "tiled_" : "solo_") +
                                  std::get<1>(pi.param).name;
                         });

/// Agents placed by off-mesh connections of the randomized bake, sent across them: the trigger,
/// the animation and the landing match, and some agent does cross.
TEST(CrowdOffMesh, CrossLinksLikeDetour) {
  for (bool tiled : {false, true}) {
    const DualMesh* dm = level(tiled, true);
    ASSERT_NE(dm, nullptr);
    ASSERT_GT(dm->offMeshCount, 0) << "the randomized bake has off-mesh connections";
    Pair P(dm);
    int added = 0;
    const nav::NavMesh& nm = dm->nav;
    const float ext[3] = {2, 4, 2};
    for (int ti = 0; ti < nm.getMaxTiles() && added < MAX_AGENTS; ++ti) {
      const nav::MeshTile* tile = nm.getTile(ti);
      if (!tile->header) continue;
      for (int c = 0; c < tile->header->offMeshConCount && added < MAX_AGENTS; ++c) {
        const nav::OffMeshConnection& con = tile->offMeshCons[c];
        // A bit before the start, toward the end's far side.
        const float* a = &con.pos[0];
        const float* b = &con.pos[3];
        float start[3] = {a[0] - (b[0] - a[0]) * 0.1f, a[1], a[2] - (b[2] - a[2]) * 0.1f};
        nav::PolyRef sr = 0, er = 0;
        float sp[3], ep[3];
        P.q.findNearestPoly(start, ext, &P.filter, &sr, sp);
        P.q.findNearestPoly(b, ext, &P.filter, &er, ep);
        if (!sr || !er) continue;
        const int k = P.add(sp, agentParams(uint8_t(added % 2 ? 31 : nc::CROWD_ANTICIPATE_TURNS)));
        ASSERT_GE(k, 0);
        P.target(k, ep, er);
        ++added;
      }
    }
    ASSERT_GT(added, 0);
    ASSERT_TRUE(P.compare("after add"));
    for (int t = 0; t < 200; ++t) {
      // A freed slot below crossing agents: Detour's animation pass then indexes the active list
      // by slot (see Crowd.cpp); ours must do the same.
      if (t == 12) P.remove(0);
      if (t == 30) {
        // Reuses slot 0: an off-mesh animation frozen there when its agent was removed resumes
        // with the new agent (as in Detour).
        std::printf("[ info ] %s: slot 0 animation active when reused: %d\n", dm->name.c_str(),
                    int(P.ours.getAgentAnimation(0)->active));
        float p[3];
        nav::PolyRef r;
        querytest::seedRandom(uint64_t(tiled) + 17);
        ASSERT_TRUE(P.randomPoint(p, &r));
        ASSERT_EQ(P.add(p, agentParams(31)), 0);
        ASSERT_TRUE(P.randomPoint(p, &r));
        P.target(0, p, r);
      }
      ASSERT_TRUE(P.tick()) << dm->name << " tick " << t;
    }
    EXPECT_GT(P.offmeshSeen, 0) << dm->name << ": no agent crossed an off-mesh connection";
    EXPECT_EQ(P.bitMismatches, 0) << dm->name << ": of " << P.floatsCompared << " float vectors";
  }
}

/// The debug info: visibility segment and the avoidance samples of one agent.
TEST(CrowdDebug, DebugInfoLikeDetour) {
  const DualMesh* dm = level(true, false);
  ASSERT_NE(dm, nullptr);
  Pair P(dm);
  querytest::seedRandom(77);
  std::vector<int> idx;
  float g[3];
  nav::PolyRef gr;
  ASSERT_TRUE(P.randomPoint(g, &gr));
  for (int i = 0; i < 8; ++i) {
    float p[3];
    nav::PolyRef r;
    ASSERT_TRUE(P.randomPoint(p, &r));
    idx.push_back(P.add(p, agentParams(31)));
    P.target(idx.back(), g, gr);
  }
  nc::ObstacleAvoidanceDebugData vod;
  ASSERT_TRUE(vod.init(2048));
  dtObstacleAvoidanceDebugData* dvod = dtAllocObstacleAvoidanceDebugData();
  ASSERT_TRUE(dvod->init(2048));
  nc::CrowdAgentDebugInfo dbg{};
  dtCrowdAgentDebugInfo ddbg{};
  for (int t = 0; t < 120; ++t) {
    dbg.idx = ddbg.idx = t % 8;
    dbg.vod = &vod;
    ddbg.vod = dvod;
    vod.reset();
    dvod->reset();
    ASSERT_TRUE(P.tick(&dbg, &ddbg)) << "tick " << t;
    EXPECT_TRUE(bitsEqual(dbg.optStart, ddbg.optStart, 3)) << "tick " << t;
    EXPECT_TRUE(bitsEqual(dbg.optEnd, ddbg.optEnd, 3)) << "tick " << t;
    ASSERT_EQ(vod.getSampleCount(), dvod->getSampleCount()) << "tick " << t;
    for (int s = 0; s < vod.getSampleCount(); ++s) {
      EXPECT_TRUE(bitsEqual(vod.getSampleVelocity(s), dvod->getSampleVelocity(s), 3)) << "tick " << t << " sample " << s;
      EXPECT_EQ(vod.getSamplePenalty(s), dvod->getSamplePenalty(s)) << "tick " << t << " sample " << s;
    }
  }
  dtFreeObstacleAvoidanceDebugData(dvod);
}

/// Filters changed mid-walk (polygons of the corridor become refused): path validity, re-placing
/// agents and targets, replanning, agents falling off the mesh (INVALID); a second filter with area
/// costs for half the agents.
TEST(CrowdFilters, FilterChangesLikeDetour) {
  for (bool tiled : {false, true}) {
    const DualMesh* dm = level(tiled, true);
    ASSERT_NE(dm, nullptr);
    Pair P(dm);
    P.editFilter(
        1,
        [](nav::QueryFilter& f) {
          f.setAreaCost(navtest::AREA_WATER, 10.0f);
          f.setAreaCost(navtest::AREA_ROAD, 0.5f);
          f.setAreaCost(navtest::AREA_GRASS, 2.0f);
          f.setAreaCost(navtest::AREA_JUMP, 1.5f);
          f.setExcludeFlags(navtest::FLAG_DISABLED);
        },
        [](dtQueryFilter& f) {
          f.setAreaCost(navtest::AREA_WATER, 10.0f);
          f.setAreaCost(navtest::AREA_ROAD, 0.5f);
          f.setAreaCost(navtest::AREA_GRASS, 2.0f);
          f.setAreaCost(navtest::AREA_JUMP, 1.5f);
          f.setExcludeFlags(navtest::FLAG_DISABLED);
        });
    querytest::seedRandom(4242);
    std::vector<int> idx;
    for (int i = 0; i < 16; ++i) {
      float p[3], t[3];
      nav::PolyRef r, tr;
      ASSERT_TRUE(P.randomPoint(p, &r));
      ASSERT_TRUE(P.randomPoint(t, &tr));
      nc::CrowdAgentParams prm = agentParams(uint8_t((i * 11) % 32));
      prm.queryFilterType = uint8_t(i % 2);
      idx.push_back(P.add(p, prm));
      ASSERT_GE(idx.back(), 0);
      P.target(idx.back(), t, tr);
    }
    for (int t = 0; t < 240; ++t) {
      if (t == 60)
        P.editFilter(0, [](nav::QueryFilter& f) { f.setExcludeFlags(navtest::FLAG_SWIM | navtest::FLAG_DOOR); },
                     [](dtQueryFilter& f) { f.setExcludeFlags(navtest::FLAG_SWIM | navtest::FLAG_DOOR); });
      if (t == 100)
        P.editFilter(1, [](nav::QueryFilter& f) { f.setIncludeFlags(navtest::FLAG_WALK | navtest::FLAG_JUMP); },
                     [](dtQueryFilter& f) { f.setIncludeFlags(navtest::FLAG_WALK | navtest::FLAG_JUMP); });
      if (t == 140)
        P.editFilter(0, [](nav::QueryFilter& f) { f.setExcludeFlags(navtest::FLAG_WALK); },
                     [](dtQueryFilter& f) { f.setExcludeFlags(navtest::FLAG_WALK); });
      if (t == 180)
        P.editFilter(0, [](nav::QueryFilter& f) { f.setExcludeFlags(0); },
                     [](dtQueryFilter& f) { f.setExcludeFlags(0); });
      ASSERT_TRUE(P.tick()) << dm->name << " tick " << t;
    }
    EXPECT_TRUE(P.agentStatesSeen & (1u << nc::CROWDAGENT_STATE_INVALID)) << dm->name << ": nobody fell off";
    EXPECT_EQ(P.bitMismatches, 0) << dm->name << ": of " << P.floatsCompared << " float vectors";
  }
}

/// A dense crowd: 64 agents packed in a few square metres (two on the very same spot), all sent to
/// one point: full neighbour lists, the proximity grid's caps, collision resolution including the
/// coincident-agents branch.
TEST(CrowdDense, PackedCrowdLikeDetour) {
  const DualMesh* dm = level(true, false);
  ASSERT_NE(dm, nullptr);
  const int n = 64;
  Pair P(dm, n);
  querytest::seedRandom(31337);
  float c[3];
  nav::PolyRef cr;
  ASSERT_TRUE(P.randomPoint(c, &cr));
  float g[3];
  nav::PolyRef gr;
  ASSERT_TRUE(P.randomPoint(g, &gr));
  for (int i = 0; i < n; ++i) {
    const float p[3] = {c[0] + float(i % 8) * 0.35f - 1.2f, c[1], c[2] + float(i / 8 % 8) * 0.35f - 1.2f};
    const float* at = i == 1 ? c : (i == 0 ? c : p);
    const int a = P.add(at, agentParams(uint8_t(i % 3 == 0 ? 0 : 31)));
    ASSERT_EQ(a, i);
    P.target(a, g, gr);
  }
  for (int t = 0; t < 240; ++t) {
    if (t == 120)
      for (int i = 0; i < n; i += 3) P.target(i, c, cr); // a third walks back through the others
    ASSERT_TRUE(P.tick()) << "tick " << t;
  }
  EXPECT_EQ(P.maxNeis, nc::CROWDAGENT_MAX_NEIGHBOURS);
  EXPECT_EQ(P.bitMismatches, 0) << "of " << P.floatsCompared << " float vectors";
}

/// Random command streams (seeded): adds, removals, targets (also while a search is pending),
/// velocities, resets, parameter changes, filter changes and varying time steps, on the
/// randomized bakes (off-mesh connections, areas), compared every tick.
void runRandomStreams(const DualMesh* dm, bool tiled, uint64_t seeds) {
  {
    for (uint64_t seed = 1; seed <= seeds; ++seed) {
      Pair P(dm, 20);
      querytest::seedRandom(seed * 7919 + uint64_t(tiled));
      const float dts[4] = {1.0f / 60.0f, 1.0f / 30.0f, 0.1f, 0.25f};
      int commands = 0;
      for (int t = 0; t < 300; ++t) {
        const int ncmd = querytest::irand(4);
        for (int c = 0; c < ncmd; ++c) {
          const int slot = querytest::irand(20);
          const nc::CrowdAgent* ag = P.ours.getAgent(slot);
          float p[3];
          nav::PolyRef r;
          ASSERT_TRUE(P.randomPoint(p, &r));
          const int op = querytest::irand(100);
          if (!ag->active || op < 8) {
            if (ag->active) {
              P.remove(slot);
            } else {
              nc::CrowdAgentParams prm = agentParams(uint8_t(querytest::irand(32)), 0.5f + querytest::frand());
              prm.obstacleAvoidanceType = uint8_t(querytest::irand(4));
              prm.queryFilterType = uint8_t(querytest::irand(2));
              const int a = P.add(p, prm);
              if (a >= 0) P.target(a, p, r); // a short first request
            }
          } else if (op < 60) {
            P.target(slot, p, r);
          } else if (op < 70) {
            const float v[3] = {querytest::frand() * 6 - 3, 0, querytest::frand() * 6 - 3};
            P.velocity(slot, v);
          } else if (op < 78) {
            P.reset(slot);
          } else if (op < 92) {
            nc::CrowdAgentParams prm = ag->params;
            prm.updateFlags = uint8_t(querytest::irand(32));
            prm.maxSpeed = 1.0f + 3.0f * querytest::frand();
            prm.queryFilterType = uint8_t(querytest::irand(2));
            P.params(slot, prm);
          } else {
            const uint16_t ex = uint16_t(querytest::irand(2) ? navtest::FLAG_SWIM : 0);
            P.editFilter(1, [ex](nav::QueryFilter& f) { f.setExcludeFlags(ex); },
                         [ex](dtQueryFilter& f) { f.setExcludeFlags(ex); });
          }
          ++commands;
        }
        ASSERT_TRUE(P.compare("after commands")) << "seed " << seed << " tick " << t;
        ASSERT_TRUE(P.tick(nullptr, nullptr, dts[querytest::irand(4)])) << dm->name << " seed " << seed << " tick " << t;
      }
      EXPECT_EQ(P.bitMismatches, 0) << dm->name << " seed " << seed << ": of " << P.floatsCompared;
      std::printf("[ info ] %s seed %d: %d commands, states 0x%x, agent states 0x%x, off-mesh agent-ticks %d\n",
                  dm->name.c_str(), int(seed), commands, P.targetStatesSeen, P.agentStatesSeen, P.offmeshSeen);
    }
  }
}

TEST(CrowdRandom, RandomCommandStreamsLikeDetour) {
  for (bool tiled : {false, true}) {
    const DualMesh* dm = level(tiled, true);
    ASSERT_NE(dm, nullptr);
    runRandomStreams(dm, tiled, 6);
  }
}

/// The same on the team's shared levels (skipped when ../shared is absent).
TEST(CrowdRandom, SharedLevelsLikeDetour) {
  int found = 0;
  for (const char* file : {"nav_test.obj", "dungeon.obj", "undulating.obj"}) {
    const std::string path = querytest::sharedLevel(file);
    if (path.empty()) continue;
    ++found;
    for (bool tiled : {false, true}) {
      std::string why;
      const DualMesh* dm = querytest::loadDual(path, tiled, true, &why);
      ASSERT_NE(dm, nullptr) << path << ": " << why;
      runRandomStreams(dm, tiled, 2);
    }
  }
  if (!found) GTEST_SKIP() << "no shared levels in " << NAVBENCH_SHARED_DIR << "/levels (the shared folder is absent)";
}

/// Calls at the API edge: bad input is refused, not a crash; Detour's numbers where it has them.
TEST(CrowdApi, EdgesAndDefaults) {
  const DualMesh* dm = level(false, false);
  ASSERT_NE(dm, nullptr);
  nc::Crowd c;
  const nc::CrowdAgentParams p = agentParams(0);
  const float pos[3] = {0, 0, 0};
  EXPECT_EQ(c.addAgent(pos, &p), -1) << "not initialised";
  c.update(DT, nullptr);
  EXPECT_FALSE(c.init(0, AGENT_RADIUS, &dm->nav));
  EXPECT_FALSE(c.init(4, 0.0f, &dm->nav));
  EXPECT_FALSE(c.init(4, AGENT_RADIUS, nullptr));
  ASSERT_TRUE(c.init(4, AGENT_RADIUS, &dm->nav));
  EXPECT_EQ(c.getAgentCount(), 4);
  EXPECT_EQ(c.getAgent(4), nullptr);
  EXPECT_EQ(c.getAgent(-1), nullptr);
  EXPECT_EQ(c.getFilter(16), nullptr);
  EXPECT_NE(c.getEditableFilter(15), nullptr);
  EXPECT_EQ(c.getObstacleAvoidanceParams(8), nullptr);
  EXPECT_FLOAT_EQ(c.getQueryHalfExtents()[0], AGENT_RADIUS * 2.0f);
  EXPECT_FLOAT_EQ(c.getQueryHalfExtents()[1], AGENT_RADIUS * 1.5f);
  EXPECT_EQ(c.getQueryExtents(), c.getQueryHalfExtents());
  EXPECT_EQ(c.getObstacleAvoidanceParams(0)->adaptiveDivs, 7);
  EXPECT_EQ(c.getGrid()->getCellSize(), AGENT_RADIUS * 3);
  EXPECT_NE(c.getPathQueue(), nullptr);
  EXPECT_NE(c.getNavMeshQuery(), nullptr);
  nc::CrowdAgentParams bad = p;
  bad.queryFilterType = 16;
  EXPECT_EQ(c.addAgent(pos, &bad), -1);
  bad = p;
  bad.obstacleAvoidanceType = 8;
  EXPECT_EQ(c.addAgent(pos, &bad), -1);
  bad = p;
  bad.radius = -1.0f;
  EXPECT_EQ(c.addAgent(pos, &bad), -1);
  bad = p;
  bad.maxSpeed = INFINITY;
  EXPECT_EQ(c.addAgent(pos, &bad), -1);
  const float nanPos[3] = {NAN, 0, 0};
  EXPECT_EQ(c.addAgent(nanPos, &p), -1);
  EXPECT_FALSE(c.requestMoveTarget(0, 1, nanPos));
  EXPECT_FALSE(c.requestMoveTarget(0, 0, pos));
  EXPECT_FALSE(c.requestMoveTarget(7, 1, pos));
  EXPECT_FALSE(c.requestMoveVelocity(-1, pos));
  EXPECT_FALSE(c.resetMoveTarget(4));
  c.removeAgent(99);
  c.update(NAN, nullptr);
  // Far from the mesh: added, but INVALID (as Detour).
  const float far[3] = {1e6f, 0, 1e6f};
  const int a = c.addAgent(far, &p);
  ASSERT_EQ(a, 0);
  EXPECT_EQ(c.getAgent(a)->state, nc::CROWDAGENT_STATE_INVALID);
  c.update(DT, nullptr);
  nc::CrowdAgent* act[4];
  EXPECT_EQ(c.getActiveAgents(act, 4), 1);
  // init again starts over.
  ASSERT_TRUE(c.init(2, AGENT_RADIUS, &dm->nav));
  EXPECT_EQ(c.getActiveAgents(act, 4), 0);
  EXPECT_EQ(c.getAgentCount(), 2);
  EXPECT_EQ(c.addAgent(pos, &p), 0);
  EXPECT_EQ(c.addAgent(pos, &p), 1);
  EXPECT_EQ(c.addAgent(pos, &p), -1) << "full";
}

/// update() allocates nothing (all memory comes from init()).
TEST(CrowdNoAlloc, UpdateAllocatesNothing) {
  const DualMesh* dm = level(true, true);
  ASSERT_NE(dm, nullptr);
  nc::Crowd c;
  ASSERT_TRUE(c.init(MAX_AGENTS, AGENT_RADIUS, &dm->nav));
  nav::NavMeshQuery q;
  ASSERT_FALSE(nav::statusFailed(q.init(&dm->nav)));
  nav::QueryFilter f;
  querytest::seedRandom(5);
  std::vector<float> pts;
  std::vector<nav::PolyRef> refs;
  for (int i = 0; i < 2 * MAX_AGENTS; ++i) {
    float p[3];
    nav::PolyRef r = 0;
    ASSERT_FALSE(nav::statusFailed(q.findRandomPoint(&f, querytest::frand, &r, p)));
    pts.insert(pts.end(), p, p + 3);
    refs.push_back(r);
  }
  nc::ObstacleAvoidanceDebugData vod;
  ASSERT_TRUE(vod.init(1024));
  nc::CrowdAgentDebugInfo dbg{};
  dbg.idx = 0;
  dbg.vod = &vod;
  // The counter sees this executable's allocations (probe).
  navtest::startCountingAllocs();
  int* volatile probe = new int(1); // volatile: the compiler may not elide the allocation
  const long probeCount = navtest::stopCountingAllocs();
  delete probe;
  ASSERT_EQ(probeCount, 1);
  navtest::startCountingAllocs();
  for (int i = 0; i < MAX_AGENTS; ++i) {
    const nc::CrowdAgentParams p = agentParams(uint8_t(i % 32));
    const int a = c.addAgent(&pts[size_t(i) * 3], &p);
    c.requestMoveTarget(a, refs[size_t(MAX_AGENTS + i)], &pts[size_t(MAX_AGENTS + i) * 3]);
  }
  for (int t = 0; t < 150; ++t) {
    if (t == 50) c.removeAgent(3);
    if (t == 60) {
      const float v[3] = {1, 0, 1};
      c.requestMoveVelocity(5, v);
      c.resetMoveTarget(6);
    }
    c.update(DT, &dbg);
  }
  EXPECT_EQ(navtest::stopCountingAllocs(), 0);
}

/// The same commands give the same states bit for bit (replay for stepping back).
TEST(CrowdDeterminism, ReplayGivesSameStates) {
  const DualMesh* dm = level(true, true);
  ASSERT_NE(dm, nullptr);
  auto run = [&](std::vector<Snap>& out) {
    nc::Crowd c;
    ASSERT_TRUE(c.init(MAX_AGENTS, AGENT_RADIUS, &dm->nav));
    nav::NavMeshQuery q;
    ASSERT_FALSE(nav::statusFailed(q.init(&dm->nav)));
    nav::QueryFilter f;
    querytest::seedRandom(99);
    for (int i = 0; i < 16; ++i) {
      float p[3], t[3];
      nav::PolyRef r = 0, tr = 0;
      ASSERT_FALSE(nav::statusFailed(q.findRandomPoint(&f, querytest::frand, &r, p)));
      ASSERT_FALSE(nav::statusFailed(q.findRandomPoint(&f, querytest::frand, &tr, t)));
      const nc::CrowdAgentParams prm = agentParams(uint8_t((i * 5) % 32));
      const int a = c.addAgent(p, &prm);
      c.requestMoveTarget(a, tr, t);
    }
    for (int t = 0; t < 200; ++t) {
      if (t == 80) c.removeAgent(2);
      c.update(DT, nullptr);
      for (int i = 0; i < c.getAgentCount(); ++i) out.push_back(snapOf(*c.getAgent(i)));
    }
  };
  std::vector<Snap> a, b;
  run(a);
  run(b);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].active, b[i].active) << i;
    ASSERT_EQ(a[i].state, b[i].state) << i;
    ASSERT_EQ(a[i].targetState, b[i].targetState) << i;
    ASSERT_EQ(a[i].npath, b[i].npath) << i;
    ASSERT_TRUE(bitsEqual(a[i].npos, b[i].npos, 3)) << i;
    ASSERT_TRUE(bitsEqual(a[i].vel, b[i].vel, 3)) << i;
    ASSERT_TRUE(bitsEqual(a[i].nvel, b[i].nvel, 3)) << i;
  }
}

} // namespace
