#include "DetourCrowdOracle.h"
#include "CrowdParamFields.h"

#include "app/cli/WorldGen.h"
#include "nav/NavMeshQuery.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <unistd.h>

namespace crowdtest {

using nav::crowd::AgentRecord;
using nav::crowd::Scenario;
using nav::crowd::ScenarioAgentParams;
using nav::crowd::ScenarioAvoidParams;
using nav::crowd::ScenarioCommand;
using nav::crowd::ScenarioOp;

DetourCrowdAdapter::~DetourCrowdAdapter() {
  if (m_crowd) dtFreeCrowd(m_crowd);
}

bool DetourCrowdAdapter::init(int maxAgents, float maxAgentRadius) {
  if (m_crowd) dtFreeCrowd(m_crowd);
  m_crowd = dtAllocCrowd();
  return m_crowd && m_crowd->init(maxAgents, maxAgentRadius, m_mesh);
}

void DetourCrowdAdapter::setAvoidance(int idx, const ScenarioAvoidParams& s) {
  dtObstacleAvoidanceParams p;
  crowdtest::copyAvoidParams(p, s);
  m_crowd->setObstacleAvoidanceParams(idx, &p);
}

bool DetourCrowdAdapter::findNearest(const float* pos, int filterType, uint64_t* ref, float* nearest) const {
  dtPolyRef r = 0;
  const dtNavMeshQuery* q = m_crowd->getNavMeshQuery();
  if (dtStatusFailed(q->findNearestPoly(pos, m_crowd->getQueryHalfExtents(), m_crowd->getFilter(filterType), &r,
                                        nearest)))
    r = 0;
  *ref = r;
  return r != 0;
}

int DetourCrowdAdapter::addAgent(const float* pos, const ScenarioAgentParams& s) {
  dtCrowdAgentParams p;
  crowdtest::copyAgentParams(p, s);
  p.userData = nullptr;
  return m_crowd->addAgent(pos, &p);
}

void DetourCrowdAdapter::record(int slot, AgentRecord* r) const {
  const dtCrowdAgent* ag = m_crowd->getAgent(slot);
  if (!ag || !ag->active) {
    r->active = false;
    return;
  }
  r->active = true;
  r->state = ag->state;
  for (int k = 0; k < 3; ++k) {
    r->pos[k] = ag->npos[k];
    r->vel[k] = ag->vel[k];
    r->dvel[k] = ag->dvel[k];
    r->nvel[k] = ag->nvel[k];
  }
  r->targetState = ag->targetState;
  r->npath = ag->corridor.getPathCount();
  r->path0 = ag->corridor.getFirstPoly();
  r->pathN = ag->corridor.getLastPoly();
  r->ncorners = ag->ncorners;
  r->nneis = ag->nneis;
}

// ---- Levels -----------------------------------------------------------------------------------

const querytest::DualMesh* defaultLevel(bool tiled, bool offMesh, std::string* why) {
  return querytest::loadDual(querytest::defaultLevel(), tiled, offMesh, why);
}

const querytest::DualMesh* sharedLevel(const char* obj, bool tiled, bool offMesh, std::string* why) {
  const std::string p = querytest::sharedLevel(obj);
  if (p.empty()) {
    if (why) *why = std::string("SKIP: shared levels not found (") + NAVBENCH_SHARED_DIR + "/levels/" + obj + ")";
    return nullptr;
  }
  return querytest::loadDual(p, tiled, offMesh, why);
}

const querytest::DualMesh* generatedWorld(float size, uint64_t seed, std::string* why) {
  static std::map<std::string, std::string> written; // key -> obj path
  const std::string key = std::to_string(size) + "_" + std::to_string(seed);
  auto it = written.find(key);
  if (it == written.end()) {
    const char* tmp = std::getenv("TMPDIR");
    const std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/navbench_crowd_world_" + key + "_" +
                             std::to_string(::getpid()) + ".obj";
    navbench::worldgen::WorldParams wp;
    wp.size = size;
    wp.seed = seed;
    if (!navbench::worldgen::writeWorldObj(wp, path, nullptr, why)) return nullptr;
    it = written.emplace(key, path).first;
  }
  const querytest::DualMesh* m = querytest::loadDual(it->second, true, false, why);
  std::remove(it->second.c_str()); // baked and cached: the OBJ is no longer needed
  return m;
}

// ---- Scenario generator -------------------------------------------------------------------------

namespace {

float frange(float lo, float hi) { return lo + (hi - lo) * querytest::frand(); }

struct Gen {
  const querytest::DualMesh& mesh;
  nav::NavMeshQuery q;
  nav::QueryFilter filter;
  std::vector<float> links; // off-mesh link end points [(ax, ay, az, bx, by, bz) * n]
  Scenario s;
  std::vector<uint8_t> alive;
  int aliveCount = 0;

  explicit Gen(const querytest::DualMesh& m) : mesh(m) {
    q.init(&mesh.nav);
    for (int t = 0; t < mesh.nav.getMaxTiles(); ++t) {
      const nav::MeshTile* tile = mesh.nav.getTile(t);
      if (!tile || !tile->header) continue;
      for (int k = 0; k < tile->header->offMeshConCount; ++k)
        links.insert(links.end(), tile->offMeshCons[k].pos, tile->offMeshCons[k].pos + 6);
    }
  }
  void randomPoint(float* p) {
    nav::PolyRef ref = 0;
    for (int tries = 0; tries < 8; ++tries)
      if (nav::statusSucceeded(q.findRandomPoint(&filter, querytest::frand, &ref, p)) && ref) return;
    p[0] = mesh.bmin[0];
    p[1] = mesh.bmin[1];
    p[2] = mesh.bmin[2];
  }
  void push(const ScenarioCommand& c) { s.commands.push_back(c); }
  int addAgent(const float* pos, const GenOptions& o, int flags) {
    ScenarioCommand c;
    c.op = ScenarioOp::Agent;
    c.v[0] = pos[0];
    c.v[1] = pos[1];
    c.v[2] = pos[2];
    ScenarioAgentParams& p = c.agentParams;
    p.radius = frange(0.3f, 0.6f);
    p.height = frange(1.5f, 2.0f);
    p.maxAcceleration = frange(4.0f, 12.0f);
    p.maxSpeed = frange(2.0f, 5.0f);
    p.collisionQueryRange = p.radius * 12.0f;
    p.pathOptimizationRange = p.radius * 30.0f;
    p.separationWeight = frange(0.0f, 3.0f);
    p.updateFlags = uint8_t(flags);
    // With fixed flags, the presets in turn too (a 32-agent crowd then uses all 8); else random.
    p.obstacleAvoidanceType = uint8_t(o.flagBase >= 0 ? s.agentCount % nav::crowd::SCENARIO_AVOID_PRESETS
                                                      : querytest::irand(nav::crowd::SCENARIO_AVOID_PRESETS));
    c.agent = s.agentCount++;
    push(c);
    alive.push_back(1);
    ++aliveCount;
    return c.agent;
  }
  void target(int i, const float* p) {
    ScenarioCommand c;
    c.op = ScenarioOp::Target;
    c.agent = i;
    c.v[0] = p[0];
    c.v[1] = p[1];
    c.v[2] = p[2];
    push(c);
  }
  void randomTarget(int i) {
    float p[3];
    randomPoint(p);
    target(i, p);
  }
  int randomAlive() {
    if (!aliveCount) return -1;
    for (;;) {
      const int i = querytest::irand(s.agentCount);
      if (alive[size_t(i)]) return i;
    }
  }
};

} // namespace

Scenario generateScenario(const querytest::DualMesh& mesh, const GenOptions& o) {
  querytest::seedRandom(o.seed);
  Gen g(mesh);
  Scenario& s = g.s;
  const int extra = o.changes ? o.rounds * 2 + 2 : 2;
  s.maxAgents = o.agents + extra;
  s.maxAgentRadius = 0.6f;
  s.hasCrowdLine = true;
  auto flagsFor = [&](int i) { return o.flagBase >= 0 ? (o.flagBase + i) % 32 : querytest::irand(32); };

  if (o.avoidLines) {
    for (int k = 0; k < 2; ++k) {
      ScenarioCommand c;
      c.op = ScenarioOp::Avoid;
      c.agent = querytest::irand(nav::crowd::SCENARIO_AVOID_PRESETS);
      ScenarioAvoidParams& a = c.avoid;
      a.velBias = frange(0.2f, 0.8f);
      a.weightDesVel = frange(1.0f, 3.0f);
      a.weightCurVel = frange(0.25f, 1.0f);
      a.weightSide = frange(0.25f, 1.0f);
      a.weightToi = frange(1.0f, 3.0f);
      a.horizTime = frange(1.0f, 3.0f);
      a.gridSize = uint8_t(9 + querytest::irand(30));
      // Odd only: with an even count Detour 1.5.1's adaptive pattern leaves one sample unwritten
      // and reads it (an uninitialised stack value), so DetourCrowd itself is not repeatable.
      a.adaptiveDivs = uint8_t(3 + 2 * querytest::irand(4));
      a.adaptiveRings = uint8_t(1 + querytest::irand(4));
      a.adaptiveDepth = uint8_t(1 + querytest::irand(5));
      g.push(c);
    }
  }

  const int nlinks = int(g.links.size() / 6);
  std::vector<int> linkOf;
  for (int i = 0; i < o.agents; ++i) {
    float p[3];
    int link = -1;
    if (o.offMeshAgents && nlinks > 0 && i % 4 == 3) {
      link = querytest::irand(nlinks);
      const float* e = &g.links[size_t(link) * 6];
      p[0] = e[0];
      p[1] = e[1];
      p[2] = e[2];
    } else {
      g.randomPoint(p);
    }
    g.addAgent(p, o, flagsFor(i));
    linkOf.push_back(link);
  }
  int ghost = -1;
  if (o.unplaceable) {
    float p[3];
    g.randomPoint(p);
    p[1] += 500.0f;
    ghost = g.addAgent(p, o, 31); // no poly within the extents: never added
    linkOf.push_back(-1);
  }
  for (int i = 0; i < o.agents; ++i) {
    if (linkOf[size_t(i)] >= 0)
      g.target(i, &g.links[size_t(linkOf[size_t(i)]) * 6 + 3]);
    else
      g.randomTarget(i);
  }
  if (ghost >= 0) g.randomTarget(ghost);
  if (o.unplaceable && o.agents > 0) { // a target with no poly near it: skipped
    float p[3];
    g.randomPoint(p);
    p[1] -= 500.0f;
    g.target(0, p);
  }

  const float dts[] = {1.0f / 60.0f, 1.0f / 30.0f, 0.05f, 0.1f};
  for (int r = 0; r < o.rounds; ++r) {
    ScenarioCommand t;
    t.op = ScenarioOp::Tick;
    t.ticks = o.ticksPerRound;
    t.dt = dts[querytest::irand(4)];
    g.push(t);
    s.tickCount += t.ticks;
    if (!o.changes) continue;
    const int nchanges = 1 + querytest::irand(4);
    for (int k = 0; k < nchanges; ++k) {
      const int kind = querytest::irand(6);
      const int i = g.randomAlive();
      if (i < 0) break;
      ScenarioCommand c;
      c.agent = i;
      if (kind <= 1) {
        g.randomTarget(i);
      } else if (kind == 2) {
        c.op = ScenarioOp::Velocity;
        c.v[0] = frange(-3.0f, 3.0f);
        c.v[1] = 0.0f;
        c.v[2] = frange(-3.0f, 3.0f);
        g.push(c);
      } else if (kind == 3) {
        c.op = ScenarioOp::Reset;
        g.push(c);
      } else if (kind == 4) {
        c.op = ScenarioOp::Remove;
        g.push(c);
        g.alive[size_t(i)] = 0;
        --g.aliveCount;
        c.op = ScenarioOp::Target; // a command naming a removed agent: ignored
        c.v[0] = g.mesh.bmin[0];
        c.v[1] = g.mesh.bmin[1];
        c.v[2] = g.mesh.bmin[2];
        g.push(c);
      } else if (g.aliveCount < s.maxAgents) {
        float p[3];
        g.randomPoint(p);
        const int ni = g.addAgent(p, o, flagsFor(s.agentCount)); // reuses the first free slot
        g.randomTarget(ni);
      }
    }
  }
  if (ghost >= 0) {
    ScenarioCommand c;
    c.op = ScenarioOp::Remove;
    c.agent = ghost;
    g.push(c);
  }
  return s;
}

namespace {
std::string f9(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", double(v));
  return b;
}
} // namespace

std::string firstBitDifference(const nav::crowd::TickRecord& a, const nav::crowd::TickRecord& b) {
  if (a.agents.size() != b.agents.size()) return "tick " + std::to_string(a.tick) + ": agent counts";
  for (size_t k = 0; k < a.agents.size(); ++k) {
    const AgentRecord& x = a.agents[k];
    const AgentRecord& y = b.agents[k];
    const std::string at = "tick " + std::to_string(a.tick) + " agent " + std::to_string(x.i) + " ";
    if (x.active != y.active || x.state != y.state || x.targetState != y.targetState || x.npath != y.npath ||
        x.path0 != y.path0 || x.pathN != y.pathN || x.ncorners != y.ncorners || x.nneis != y.nneis)
      return at + "state/targetState/corridor/corners/neighbours";
    if (!x.active) continue;
    const char* names[] = {"pos", "vel", "dvel", "nvel"};
    const float* u[] = {x.pos, x.vel, x.dvel, x.nvel};
    const float* v[] = {y.pos, y.vel, y.dvel, y.nvel};
    // dvel, nvel, vel, pos: the order update() computes them in.
    const int order[] = {2, 3, 1, 0};
    for (int o : order)
      for (int c = 0; c < 3; ++c)
        if (std::memcmp(&u[o][c], &v[o][c], sizeof(float)) != 0)
          return at + names[o] + "[" + std::to_string(c) + "] " + f9(u[o][c]) + " vs " + f9(v[o][c]);
  }
  return "";
}

std::string runBoth(const querytest::DualMesh& mesh, const Scenario& s, std::vector<nav::crowd::TickRecord>* ours,
                    std::vector<nav::crowd::TickRecord>* theirs) {
  std::vector<nav::crowd::TickRecord> a, b;
  std::string why;
  auto navc = std::make_unique<nav::crowd::NavCrowdAdapter>(&mesh.nav);
  nav::crowd::ScenarioRunner<nav::crowd::NavCrowdAdapter> ra(*navc, s);
  if (!ra.start(&why)) return "ours: " + why;
  auto dtc = std::make_unique<DetourCrowdAdapter>(mesh.dt);
  nav::crowd::ScenarioRunner<DetourCrowdAdapter> rb(*dtc, s);
  if (!rb.start(&why)) return "DetourCrowd: " + why;
  // Tick by tick, so the first difference is reported where it happens.
  nav::crowd::TickRecord x, y;
  std::string diff, exact;
  for (;;) {
    const bool sa = ra.step(&x), sb = rb.step(&y);
    if (sa != sb) {
      diff = "the runs have different lengths";
      break;
    }
    if (!sa) break;
    if (ours) ours->push_back(x);
    if (theirs) theirs->push_back(y);
    if (exact.empty()) exact = firstBitDifference(x, y);
    diff = nav::crowd::compareTickRecords(x, y, "ours", "DetourCrowd");
    if (!diff.empty()) break;
  }
  if (!diff.empty() && !exact.empty()) diff += "; first bitwise difference: " + exact;
  if (diff.empty() && ra.notes().size() != rb.notes().size()) diff = "the runs' notes differ";
  return diff;
}

} // namespace crowdtest
