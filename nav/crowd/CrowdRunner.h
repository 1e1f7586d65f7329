// CrowdRunner.h: runs a crowd scenario (nav/crowd/CrowdScenario.h) on a crowd and records its
// trace (nav/crowd/CrowdTrace.h), as ../shared/formats/crowd.md defines it. The sequencing is
// written once, as a template over a small adapter, so the same code drives our nav::crowd::Crowd
// (NavCrowdAdapter, below) and, in tests and benchmarks, DetourCrowd
// (tests/crowd/DetourCrowdOracle.h).
//
// An adapter is any class with these members (slots are the crowd's agent indices):
//   bool init(int maxAgents, float maxAgentRadius);           // a fresh crowd on the adapter's mesh
//   void setAvoidance(int idx, const ScenarioAvoidParams& p); // preset idx (0..7)
//   const float* halfExtents() const;                         // the crowd's placement half extents
//   int navTypeCount() const;                                 // agent types (meshes) it holds
//   // Nearest poly to pos within halfExtents() on agent type navType's mesh with the crowd's
//   // filter `filterType` (the crowd's own query): false when none (ref 0); nearest gets the point.
//   bool findNearest(const float* pos, int navType, int filterType, uint64_t* ref, float* nearest) const;
//   int addAgent(const float* pos, const ScenarioAgentParams& p); // the slot, or -1 (crowd full)
//   void removeAgent(int slot);
//   bool requestMoveTarget(int slot, uint64_t ref, const float* pos);
//   bool requestMoveVelocity(int slot, const float* vel);
//   bool resetMoveTarget(int slot);
//   void update(float dt);
//   void record(int slot, AgentRecord* r) const;  // the slot's state into r (all but r->i)
//
// Semantics (crowd.md): the crowd is initialised with the scenario's MAXAGENTS / MAXRADIUS; the
// eight avoidance presets are dtCrowd::init's, then presets 0..3 RecastDemo's (defaultAvoidPresets);
// an agent is placed only if findNearest finds a poly within the crowd's extents (with the agent's
// filter), else it is not added; a command naming an agent that was removed or not added is
// ignored; a target whose lookup (filter 0) finds no poly is skipped; removed slots are reused by
// the next agent (the crowd's own first-free-slot rule); one TickRecord per update, with every
// agent index seen so far. Agent types: placement and targets are looked up on the agent's type's
// mesh; records carry the type name when the scenario declares types; start() refuses a scenario
// with more types than the adapter holds meshes.
#pragma once

#include "nav/crowd/Crowd.h"
#include "nav/crowd/CrowdScenario.h"
#include "nav/crowd/CrowdTrace.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace nav::crowd {

/// Something the run did not do as written (an agent off the mesh, a target with no poly, a full
/// crowd). Not an error: the run goes on, as crowd.md says.
struct RunNote {
  int line = 0;     ///< The command's line in the scenario file (0: built in memory).
  std::string text; ///< e.g. "agent 3 at (1, 2, 3): no navmesh polygon within (1.2, 0.9, 1.2); not added"
};

/// Where a ScenarioRunner is (ScenarioRunner::saveState / restoreState): the next command, the
/// tick in progress, the agent index -> crowd slot map, the counters and the notes. Saved and
/// restored together with the crowd's own state (Crowd::saveState), as one checkpoint of a run.
/// The slot map's storage is reused from one save to the next (the notes copy their text).
struct RunnerState {
  size_t next = 0;
  int ticksLeft = 0;
  float tickDt = 0;
  int tick = 0;
  std::vector<int> slots;
  int agentsSeen = 0;
  int placed = 0, notAdded = 0, targetsSkipped = 0;
  std::vector<RunNote> notes;
  bool started = false;
};

template <class Adapter>
class ScenarioRunner {
public:
  ScenarioRunner(Adapter& crowd, const Scenario& scenario) : m_crowd(crowd), m_sc(scenario) {}

  /// (Re)initialises the crowd and the presets; the run starts from the first command. False
  /// (with *why) when the crowd cannot be initialised.
  bool start(std::string* why) {
    m_next = 0;
    m_ticksLeft = 0;
    m_tickDt = 0;
    m_tick = 0;
    m_updateSeconds = 0;
    m_slots.assign(size_t(m_sc.agentCount), -1);
    m_agentsSeen = 0;
    m_placed = m_notAdded = m_targetsSkipped = 0;
    m_notes.clear();
    m_started = false;
    m_typeOf.assign(size_t(m_sc.agentCount), 0);
    if (1 + int(m_sc.navTypes.size()) > m_crowd.navTypeCount()) {
      if (why) *why = "the scenario has " + std::to_string(1 + m_sc.navTypes.size()) + " agent types, the crowd " +
                      std::to_string(m_crowd.navTypeCount()) + " navmesh(es)";
      return false;
    }
    if (!m_crowd.init(m_sc.maxAgents, m_sc.maxAgentRadius)) {
      if (why) *why = "crowd init failed (MAXAGENTS " + std::to_string(m_sc.maxAgents) + ", MAXRADIUS " +
                      fmt(m_sc.maxAgentRadius) + ")";
      return false;
    }
    ScenarioAvoidParams presets[SCENARIO_AVOID_PRESETS];
    defaultAvoidPresets(presets);
    for (int i = 0; i < SCENARIO_AVOID_PRESETS; ++i) m_crowd.setAvoidance(i, presets[i]);
    m_started = true;
    return true;
  }

  /// Runs commands up to and including the next update and records it into *rec (may be null).
  /// False when the scenario has no update left (the commands after the last tick are run).
  bool step(TickRecord* rec) {
    if (!m_started) return false;
    while (m_ticksLeft == 0) {
      if (m_next >= m_sc.commands.size()) return false;
      const ScenarioCommand& c = m_sc.commands[m_next++];
      if (c.op == ScenarioOp::Tick) {
        m_ticksLeft = c.ticks;
        m_tickDt = c.dt;
      } else {
        apply(c);
      }
    }
    const auto t0 = std::chrono::steady_clock::now();
    m_crowd.update(m_tickDt);
    m_updateSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    --m_ticksLeft;
    ++m_tick;
    if (rec) record(rec);
    return true;
  }

  /// Runs to the end; the trace (one record per update) into *trace when not null.
  void runAll(std::vector<TickRecord>* trace) {
    if (trace) trace->reserve(trace->size() + size_t(m_sc.tickCount));
    TickRecord r;
    while (step(trace ? &r : nullptr))
      if (trace) trace->push_back(r);
  }

  /// The current state of every agent index seen so far, as a record of the last update.
  void record(TickRecord* rec) const {
    rec->tick = m_tick;
    rec->agents.resize(size_t(m_agentsSeen));
    for (int i = 0; i < m_agentsSeen; ++i) {
      AgentRecord& a = rec->agents[size_t(i)];
      a = AgentRecord();
      a.i = i;
      if (m_slots[size_t(i)] >= 0) m_crowd.record(m_slots[size_t(i)], &a);
      a.i = i;
      if (a.active && !m_sc.navTypes.empty()) a.type = scenarioTypeName(m_sc, typeOf(i));
    }
  }

  /// The runner's state into *out (pair it with the crowd's: Crowd::saveState).
  void saveState(RunnerState* out) const {
    out->next = m_next;
    out->ticksLeft = m_ticksLeft;
    out->tickDt = m_tickDt;
    out->tick = m_tick;
    out->slots.assign(m_slots.begin(), m_slots.end());
    out->agentsSeen = m_agentsSeen;
    out->placed = m_placed;
    out->notAdded = m_notAdded;
    out->targetsSkipped = m_targetsSkipped;
    out->notes = m_notes;
    out->started = m_started;
  }
  /// Puts back a state saved from a run of the same scenario (or of a scenario whose commands
  /// up to in.next are the same), with the crowd's state saved with it. updateSeconds() goes on.
  void restoreState(const RunnerState& in) {
    m_next = in.next;
    m_ticksLeft = in.ticksLeft;
    m_tickDt = in.tickDt;
    m_tick = in.tick;
    m_slots.assign(in.slots.begin(), in.slots.end());
    m_agentsSeen = in.agentsSeen;
    m_placed = in.placed;
    m_notAdded = in.notAdded;
    m_targetsSkipped = in.targetsSkipped;
    m_notes = in.notes;
    m_started = in.started;
  }

  const std::vector<RunNote>& notes() const { return m_notes; }
  int ticksDone() const { return m_tick; }
  /// Time spent in the crowd's update calls so far. [Unit: s]
  double updateSeconds() const { return m_updateSeconds; }
  /// The crowd slot of agent index i (-1: removed, not added or not yet seen).
  int slotOf(int i) const { return (i >= 0 && i < int(m_slots.size())) ? m_slots[size_t(i)] : -1; }
  /// The agent type of agent index i (its `agent` line's; 0 when unknown).
  int typeOf(int i) const { return (i >= 0 && i < int(m_typeOf.size())) ? m_typeOf[size_t(i)] : 0; }
  /// Agent indices seen so far (agent lines run).
  int agentsSeen() const { return m_agentsSeen; }
  /// Agent lines that added an agent / that did not (off the mesh, crowd full).
  int agentsPlaced() const { return m_placed; }
  int agentsNotAdded() const { return m_notAdded; }
  /// Targets skipped because no poly was found near them.
  int targetsSkipped() const { return m_targetsSkipped; }

private:
  static std::string fmt(float v) { // messages: 7 digits (1.2f reads "1.2")
    char b[32];
    std::snprintf(b, sizeof b, "%.7g", double(v));
    return b;
  }
  static std::string fmt3(const float* v) { return "(" + fmt(v[0]) + ", " + fmt(v[1]) + ", " + fmt(v[2]) + ")"; }

  void note(const ScenarioCommand& c, std::string text) { m_notes.push_back({c.line, std::move(text)}); }

  void apply(const ScenarioCommand& c) {
    switch (c.op) {
    case ScenarioOp::Crowd: break; // in Scenario::maxAgents / maxAgentRadius
    case ScenarioOp::Avoid: m_crowd.setAvoidance(c.agent, c.avoid); break;
    case ScenarioOp::Agent: {
      const int idx = m_agentsSeen++;
      if (size_t(idx) >= m_typeOf.size()) m_typeOf.resize(size_t(idx) + 1, 0);
      m_typeOf[size_t(idx)] = c.agentParams.navType;
      uint64_t ref = 0;
      float nearest[3];
      if (!m_crowd.findNearest(c.v, c.agentParams.navType, c.agentParams.queryFilterType, &ref, nearest) || !ref) {
        note(c, "agent " + std::to_string(idx) + " at " + fmt3(c.v) + ": no navmesh polygon within " +
                    fmt3(m_crowd.halfExtents()) + " (the crowd's extents); not added, inactive in the trace");
        ++m_notAdded;
        break;
      }
      const int slot = m_crowd.addAgent(c.v, c.agentParams);
      if (slot < 0) {
        note(c, "agent " + std::to_string(idx) + ": the crowd is full (MAXAGENTS " + std::to_string(m_sc.maxAgents) +
                    "); not added, inactive in the trace");
        ++m_notAdded;
        break;
      }
      m_slots[size_t(idx)] = slot;
      ++m_placed;
      break;
    }
    case ScenarioOp::Target: {
      const int slot = slotOf(c.agent);
      if (slot < 0) break;
      uint64_t ref = 0;
      float nearest[3];
      if (!m_crowd.findNearest(c.v, typeOf(c.agent), 0, &ref, nearest) || !ref) {
        note(c, "target of agent " + std::to_string(c.agent) + " at " + fmt3(c.v) + ": no navmesh polygon within " +
                    fmt3(m_crowd.halfExtents()) + "; skipped");
        ++m_targetsSkipped;
        break;
      }
      m_crowd.requestMoveTarget(slot, ref, nearest);
      break;
    }
    case ScenarioOp::Velocity: {
      const int slot = slotOf(c.agent);
      if (slot >= 0) m_crowd.requestMoveVelocity(slot, c.v);
      break;
    }
    case ScenarioOp::Reset: {
      const int slot = slotOf(c.agent);
      if (slot >= 0) m_crowd.resetMoveTarget(slot);
      break;
    }
    case ScenarioOp::Remove: {
      const int slot = slotOf(c.agent);
      if (slot >= 0) {
        m_crowd.removeAgent(slot);
        m_slots[size_t(c.agent)] = -1;
      }
      break;
    }
    case ScenarioOp::Tick: break;
    }
  }

  Adapter& m_crowd;
  const Scenario& m_sc;
  size_t m_next = 0;
  int m_ticksLeft = 0;
  float m_tickDt = 0;
  int m_tick = 0;
  double m_updateSeconds = 0;
  std::vector<int> m_slots; ///< per agent index: crowd slot or -1
  std::vector<int> m_typeOf; ///< per agent index: its agent type (set by its `agent` line)
  int m_agentsSeen = 0;
  int m_placed = 0, m_notAdded = 0, m_targetsSkipped = 0;
  std::vector<RunNote> m_notes;
  bool m_started = false;
};

/// Our crowd (nav::crowd::Crowd) as a runner adapter.
class NavCrowdAdapter {
public:
  explicit NavCrowdAdapter(const NavMesh* mesh) : m_meshes{mesh}, m_meshCount(1) {}
  /// One mesh per agent type [Limit: count 1..CROWD_MAX_NAV_TYPES]; more are dropped.
  NavCrowdAdapter(const NavMesh* const* meshes, int count) {
    for (int t = 0; t < count && t < CROWD_MAX_NAV_TYPES; ++t) m_meshes[m_meshCount++] = meshes[t];
  }

  bool init(int maxAgents, float maxAgentRadius) {
    return m_crowd.init(maxAgents, maxAgentRadius, m_meshes, m_meshCount);
  }
  int navTypeCount() const { return m_meshCount; }
  void setAvoidance(int idx, const ScenarioAvoidParams& s) {
    ObstacleAvoidanceParams p;
    p.velBias = s.velBias;
    p.weightDesVel = s.weightDesVel;
    p.weightCurVel = s.weightCurVel;
    p.weightSide = s.weightSide;
    p.weightToi = s.weightToi;
    p.horizTime = s.horizTime;
    p.gridSize = s.gridSize;
    p.adaptiveDivs = s.adaptiveDivs;
    p.adaptiveRings = s.adaptiveRings;
    p.adaptiveDepth = s.adaptiveDepth;
    m_crowd.setObstacleAvoidanceParams(idx, &p);
  }
  const float* halfExtents() const { return m_crowd.getQueryHalfExtents(); }
  bool findNearest(const float* pos, int filterType, uint64_t* ref, float* nearest) const {
    return findNearest(pos, 0, filterType, ref, nearest);
  }
  bool findNearest(const float* pos, int navType, int filterType, uint64_t* ref, float* nearest) const {
    PolyRef r = 0;
    const NavMeshQuery* q = m_crowd.getNavMeshQuery(navType);
    if (!q || statusFailed(q->findNearestPoly(pos, m_crowd.getQueryHalfExtents(), m_crowd.getFilter(filterType), &r,
                                              nearest)))
      r = 0;
    *ref = r;
    return r != 0;
  }
  int addAgent(const float* pos, const ScenarioAgentParams& s) {
    CrowdAgentParams p;
    p.radius = s.radius;
    p.height = s.height;
    p.maxAcceleration = s.maxAcceleration;
    p.maxSpeed = s.maxSpeed;
    p.collisionQueryRange = s.collisionQueryRange;
    p.pathOptimizationRange = s.pathOptimizationRange;
    p.separationWeight = s.separationWeight;
    p.updateFlags = s.updateFlags;
    p.obstacleAvoidanceType = s.obstacleAvoidanceType;
    p.queryFilterType = s.queryFilterType;
    p.navType = s.navType;
    p.avoidancePriority = s.avoidancePriority;
    p.userData = nullptr;
    return m_crowd.addAgent(pos, &p);
  }
  void removeAgent(int slot) { m_crowd.removeAgent(slot); }
  bool requestMoveTarget(int slot, uint64_t ref, const float* pos) {
    return m_crowd.requestMoveTarget(slot, PolyRef(ref), pos);
  }
  bool requestMoveVelocity(int slot, const float* vel) { return m_crowd.requestMoveVelocity(slot, vel); }
  bool resetMoveTarget(int slot) { return m_crowd.resetMoveTarget(slot); }
  void update(float dt) { m_crowd.update(dt, nullptr); }
  void record(int slot, AgentRecord* r) const {
    const CrowdAgent* ag = m_crowd.getAgent(slot);
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

  Crowd& crowd() { return m_crowd; }
  const Crowd& crowd() const { return m_crowd; }

private:
  const NavMesh* m_meshes[CROWD_MAX_NAV_TYPES] = {};
  int m_meshCount = 0;
  Crowd m_crowd;
};

} // namespace nav::crowd
