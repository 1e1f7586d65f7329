// Crowd.h: agents that plan, steer, avoid each other and move on a navmesh (DetourCrowd 1.5.1's
// dtCrowd model, the dt prefix dropped: same types, methods, constants and semantics, and the same
// float operations in the same order, so a crowd given the same commands moves exactly as
// dtCrowd does, tick by tick, bit for bit with default query filters).
//
// One update(dt), in order (each pass runs over the active agents in slot order):
//   1. path validity: re-seat agents whose polygon vanished, re-seat lost targets, replan when the
//      corridor's next CHECK_LOOKAHEAD polygons are no longer valid or the path ends short;
//   2. move requests: a quick sliced search (MAX_ITER iterations, MAX_RES polygons) toward each
//      new target, then, for targets it did not reach, the shared path queue (PATH_MAX_AGENTS
//      per update, longest-waiting first; MAX_ITERS_PER_UPDATE search iterations per update);
//      finished searches are merged into the agents' corridors;
//   3. topology optimisation: at most one agent per update, the one waiting longest (>= 0.5 s);
//   4. proximity grid of all agents; per walking agent: local walls (refreshed after moving a
//      quarter of the collision range) and up to CROWDAGENT_MAX_NEIGHBOURS neighbours;
//   5. corners (CROWDAGENT_MAX_CORNERS) and visibility optimisation;
//   6. off-mesh connections within 2.25 radii start their animation;
//   7. desired velocity (straight or anticipating turns, slowing within 2 radii of the end;
//      or the requested velocity), separation;
//   8. obstacle avoidance (adaptive sampling with the agent's preset) or nvel = dvel;
//   9. integration (acceleration-limited), 4 collision resolution iterations, then the move
//      along the corridor (positions constrained to the mesh);
//  10. off-mesh animations of the active agents advance (a removed agent's animation stays
//      frozen in its slot and carries on with the next agent added there, as in Detour).
//
// Agent types (several navmeshes, one avoidance simulation): init() may take several meshes, one
// per agent type (CrowdAgentParams::navType indexes them). Each type has its own query, path queue
// and portal cache, and every agent plans (placement, move requests, the path queue, corridor,
// walls, off-mesh connections) on its type's mesh only; the proximity grid, the neighbours,
// separation, obstacle avoidance and collisions span all types, each neighbour taken with its own
// radius. The passes keep their slot order over all agents; the move-request pass picks its
// PATH_MAX_AGENTS longest-waiting agents over all types, each request goes to its type's queue,
// and every queue then runs its MAX_ITERS_PER_UPDATE iterations. A one-mesh crowd is DetourCrowd's.
//
// Avoidance priority (CrowdAgentParams::avoidancePriority, lower = more important, as Unity's
// avoidancePriority): an agent ignores neighbours with a larger number in separation, obstacle
// avoidance and collision resolution, and takes the whole collision push (not half) from
// neighbours with a smaller number; neighbours with the same number are treated as DetourCrowd
// does. All equal (the default 0): DetourCrowd's crowd.
//
// Memory: everything is allocated in init(); update() and the request methods allocate nothing.
// saveState / restoreState copy the whole simulation state to and from a caller-owned
// CrowdSnapshot (allocated once, by its init), so a run can go back to a tick without replaying it.
// Agents live in a fixed pool of getAgentCount() slots; a removed agent's slot is reused by the
// next addAgent (the first free slot).
#pragma once

#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/crowd/LocalBoundary.h"
#include "nav/crowd/ObstacleAvoidance.h"
#include "nav/crowd/PathCorridor.h"
#include "nav/crowd/PathQueue.h"
#include "nav/crowd/ProximityGrid.h"

#include <cstdint>
#include <memory>

namespace nav {
namespace crowd {

/// Neighbours an agent takes into account for steering.
constexpr int CROWDAGENT_MAX_NEIGHBOURS = 6;
/// Corners an agent looks ahead along its path (the last useful one is the next-but-last).
constexpr int CROWDAGENT_MAX_CORNERS = 4;
/// Obstacle avoidance presets a crowd holds (CrowdAgentParams::obstacleAvoidanceType).
constexpr int CROWD_MAX_OBSTAVOIDANCE_PARAMS = MAX_OBSTAVOIDANCE_PARAMS;
/// Query filters a crowd holds (CrowdAgentParams::queryFilterType).
constexpr int CROWD_MAX_QUERY_FILTER_TYPE = 16;
/// Navmeshes (agent types) a crowd holds (CrowdAgentParams::navType).
constexpr int CROWD_MAX_NAV_TYPES = 16;

/// A neighbour of an agent.
struct CrowdNeighbour {
  int idx;    ///< The neighbour's agent index (slot) in the crowd.
  float dist; ///< Squared 2D distance to the neighbour. [Unit: wu^2]
};

/// What kind of polygon the agent is on (CrowdAgent::state).
enum CrowdAgentState {
  CROWDAGENT_STATE_INVALID = 0, ///< Not on the navmesh (could not be placed or re-placed).
  CROWDAGENT_STATE_WALKING = 1, ///< On a ground polygon, steered by the crowd.
  CROWDAGENT_STATE_OFFMESH = 2, ///< Crossing an off-mesh connection (animated, not steered).
};

/// State of an agent's move request (CrowdAgent::targetState).
enum MoveRequestState {
  CROWDAGENT_TARGET_NONE = 0,             ///< No target: the agent stands (or drifts to a halt).
  CROWDAGENT_TARGET_FAILED = 1,           ///< The request could not be planned.
  CROWDAGENT_TARGET_VALID = 2,            ///< The corridor leads to the target (or as near as it gets).
  CROWDAGENT_TARGET_REQUESTING = 3,       ///< Waiting for the quick search in the next update.
  CROWDAGENT_TARGET_WAITING_FOR_QUEUE = 4, ///< Waiting for a free path queue slot.
  CROWDAGENT_TARGET_WAITING_FOR_PATH = 5, ///< The path queue is searching.
  CROWDAGENT_TARGET_VELOCITY = 6,         ///< Driven by a requested velocity, no path.
};

/// Steering behaviours (CrowdAgentParams::updateFlags, combinable).
enum UpdateFlags {
  CROWD_ANTICIPATE_TURNS = 1,   ///< Steer early toward the corner after next.
  CROWD_OBSTACLE_AVOIDANCE = 2, ///< Sample velocities that avoid neighbours and walls.
  CROWD_SEPARATION = 4,         ///< Push away from neighbours (separationWeight).
  CROWD_OPTIMIZE_VIS = 8,       ///< Shortcut the corridor toward the next corner by raycast.
  CROWD_OPTIMIZE_TOPO = 16,     ///< Replan the corridor start locally every 0.5 s.
};

/// An agent's configuration.
struct CrowdAgentParams {
  float radius;                ///< [Limit: >= 0] [Unit: wu]
  float height;                ///< [Limit: > 0] [Unit: wu]
  float maxAcceleration;       ///< [Limit: >= 0] [Unit: wu/s^2]
  float maxSpeed;              ///< [Limit: >= 0] [Unit: wu/s]
  /// Walls and agents nearer than this take part in steering (e.g. radius * 8). [Limit: > 0] [Unit: wu]
  float collisionQueryRange;
  /// Reach of the visibility optimisation (CROWD_OPTIMIZE_VIS; e.g. radius * 30). [Limit: > 0] [Unit: wu]
  float pathOptimizationRange;
  /// How strongly separation pushes from neighbours (CROWD_SEPARATION). [Limit: >= 0]
  float separationWeight;
  uint8_t updateFlags;           ///< UpdateFlags.
  uint8_t obstacleAvoidanceType; ///< Avoidance preset [Limit: < CROWD_MAX_OBSTAVOIDANCE_PARAMS].
  uint8_t queryFilterType;       ///< Query filter [Limit: < CROWD_MAX_QUERY_FILTER_TYPE].
  /// The agent's type: the index of its navmesh in init()'s list [Limit: < the mesh count]. Fixed
  /// for the agent's life (updateAgentParameters refuses another type).
  uint8_t navType = 0;
  /// Lower = more important (see the top of this file); equal numbers avoid each other evenly.
  uint8_t avoidancePriority = 0;
  void* userData;                ///< Free for the caller.
};

/// An agent slot. Read through Crowd::getAgent; active = false for a free slot.
/// Laid out for update()'s passes over every agent: the first cache line holds the states each
/// pass tests and the kinematics most of them use, the second the velocity and the parameters,
/// the third the neighbours and the corners; the corridor and the walls come last.
struct alignas(64) CrowdAgent {
  bool active;
  uint8_t state; ///< CrowdAgentState.
  /// The corridor (targetState VALID) does not reach the requested target.
  bool partial;
  uint8_t targetState;   ///< MoveRequestState.
  int nneis;
  float desiredSpeed;    ///< [Unit: wu/s]
  float topologyOptTime; ///< Time since the corridor's topology was optimised. [Unit: s]

  float npos[3]; ///< Position. [(x, y, z)]
  float disp[3]; ///< Scratch: displacement of one collision resolution iteration.
  float dvel[3]; ///< Desired velocity, from the path (or the request) and separation, each update.
  float nvel[3]; ///< dvel after obstacle avoidance, each update.

  float vel[3];  ///< Velocity: moves toward nvel at most maxAcceleration * dt per update.
  float targetReplanTime; ///< Time since the target was (re)planned. [Unit: s]
  CrowdAgentParams params;

  CrowdNeighbour neis[CROWDAGENT_MAX_NEIGHBOURS]; ///< Nearest first. [Size: nneis]
  int ncorners;
  float cornerVerts[CROWDAGENT_MAX_CORNERS * 3]; ///< Next corners [(x, y, z) * ncorners].
  uint8_t cornerFlags[CROWDAGENT_MAX_CORNERS];   ///< StraightPathFlags [Size: ncorners].
  PolyRef cornerPolys[CROWDAGENT_MAX_CORNERS];   ///< Polygon entered at each corner [Size: ncorners].

  PolyRef targetRef;           ///< Target polygon.
  float targetPos[3];          ///< Target position, or the velocity for CROWDAGENT_TARGET_VELOCITY.
  PathQueueRef targetPathqRef; ///< Path queue handle while WAITING_FOR_PATH.
  bool targetReplan;           ///< The request is a replan of the current target.

  PathCorridor corridor;
  LocalBoundary boundary;
};

/// An agent's off-mesh connection crossing: first from initPos to startPos (15 % of tmax), then
/// from startPos to endPos.
struct CrowdAgentAnimation {
  bool active;
  float initPos[3], startPos[3], endPos[3];
  PolyRef polyRef; ///< The off-mesh connection polygon.
  float t, tmax;   ///< Elapsed and total time. [Unit: s]
};

/// What update() reports about one agent, for drawing.
struct CrowdAgentDebugInfo {
  /// The agent: its index in the ACTIVE agent list, as in Detour (equal to its slot only while no
  /// lower slot is free); -1 = none.
  int idx;
  float optStart[3], optEnd[3];     ///< Visibility optimisation segment (zero when not run).
  ObstacleAvoidanceDebugData* vod;  ///< Receives the avoidance samples [opt].
};

class CrowdSnapshot;

class Crowd {
public:
  Crowd();
  ~Crowd();
  Crowd(const Crowd&) = delete;
  Crowd& operator=(const Crowd&) = delete;

  /// Allocates everything: maxAgents slots [Limit: 1..16383], placement extents from
  /// maxAgentRadius [Limit: > 0], queries on nav. May be called again to start over.
  /// False on bad input or out of memory.
  bool init(int maxAgents, float maxAgentRadius, const NavMesh* nav);
  /// The same with one navmesh per agent type: meshes[t] is type t's [Limit: meshCount
  /// 1..CROWD_MAX_NAV_TYPES, none null; the same mesh may appear twice]. init(.., nav) is
  /// init(.., &nav, 1).
  bool init(int maxAgents, float maxAgentRadius, const NavMesh* const* meshes, int meshCount);
  /// Agent types (meshes) given to init; 0 before.
  int getNavTypeCount() const { return m_typeCount; }

  /// Avoidance preset idx [Limit: < CROWD_MAX_OBSTAVOIDANCE_PARAMS] (ignored when out of range).
  void setObstacleAvoidanceParams(int idx, const ObstacleAvoidanceParams* params);
  /// Preset idx, or null when out of range.
  const ObstacleAvoidanceParams* getObstacleAvoidanceParams(int idx) const;

  /// Slot idx (check CrowdAgent::active), or null when out of range.
  const CrowdAgent* getAgent(int idx) const;
  CrowdAgent* getEditableAgent(int idx);
  /// Number of slots (maxAgents).
  int getAgentCount() const { return m_maxAgents; }

  /// Places an agent on the mesh near pos (within getQueryHalfExtents(), with its filter) in the
  /// first free slot, on its type's mesh; an agent that finds no polygon is added in state INVALID.
  /// Returns its index, or -1 when the crowd is full or the input is bad (non-finite pos, filter,
  /// avoidance or type index out of range, a negative or non-finite size, speed, range or weight).
  int addAgent(const float* pos, const CrowdAgentParams* params);
  /// Replaces an agent's configuration (ignored on a bad index, bad params or another navType).
  void updateAgentParameters(int idx, const CrowdAgentParams* params);
  /// Frees the slot (the agent stops being updated).
  void removeAgent(int idx);

  /// Asks the agent to go to pos on polygon ref of its type's mesh (planned in the next update).
  /// False on a bad index, ref 0 or non-finite pos.
  bool requestMoveTarget(int idx, PolyRef ref, const float* pos);
  /// Drives the agent with a velocity instead of a path. [Unit: wu/s]
  bool requestMoveVelocity(int idx, const float* vel);
  /// Drops the agent's request and desired velocity: it slows to a stop (maxAcceleration).
  bool resetMoveTarget(int idx);

  /// The active agents in slot order, at most maxAgents; returns how many.
  int getActiveAgents(CrowdAgent** agents, int maxAgents);

  /// Advances the crowd by dt seconds (see the top of this file). debug (optional) collects the
  /// visibility segment and avoidance samples of the active agent debug->idx. A non-finite dt
  /// does nothing.
  void update(float dt, CrowdAgentDebugInfo* debug);

  /// Filter i [Limit: < CROWD_MAX_QUERY_FILTER_TYPE], or null.
  const QueryFilter* getFilter(int i) const {
    return (i >= 0 && i < CROWD_MAX_QUERY_FILTER_TYPE) ? &m_filters[i] : nullptr;
  }
  QueryFilter* getEditableFilter(int i) {
    return (i >= 0 && i < CROWD_MAX_QUERY_FILTER_TYPE) ? &m_filters[i] : nullptr;
  }
  /// Half extents of the box used to place agents and targets on the mesh [(x, y, z)].
  const float* getQueryHalfExtents() const { return m_agentPlacementHalfExtents; }
  /// The same (Detour's older name).
  const float* getQueryExtents() const { return m_agentPlacementHalfExtents; }
  /// Avoidance samples taken by the last update.
  int getVelocitySampleCount() const { return m_velocitySampleCount; }
  const ProximityGrid* getGrid() const { return m_grid.get(); }
  /// Type 0's path queue and query (the only ones of a one-mesh crowd).
  const PathQueue* getPathQueue() const { return getPathQueue(0); }
  const NavMeshQuery* getNavMeshQuery() const { return getNavMeshQuery(0); }
  /// Type t's path queue / query (on meshes[t]), or null when t is out of range.
  const PathQueue* getPathQueue(int t) const { return (t >= 0 && t < m_typeCount) ? &m_types[t].pathq : nullptr; }
  const NavMeshQuery* getNavMeshQuery(int t) const {
    return (t >= 0 && t < m_typeCount) ? m_types[t].query.get() : nullptr;
  }
  /// Off-mesh animation of slot idx (active while the agent is OFFMESH), or null.
  const CrowdAgentAnimation* getAgentAnimation(int idx) const {
    return (idx >= 0 && idx < m_maxAgents) ? &m_agentAnims[idx] : nullptr;
  }

  /// Copies the complete simulation state into out (made by out.init(*this) for this crowd, or one
  /// of the same maxAgents): every agent slot (active or free: a free slot's fields carry over to
  /// the next agent added there) with its corridor, walls, neighbours and corners, the off-mesh
  /// animations, the path queue (requests, results, the running search), the avoidance presets
  /// and the query filters. The proximity grid, the packed copies and the scratch buffers are not
  /// saved: update() rebuilds them before reading them. Allocates nothing. FAILURE when out does
  /// not fit this crowd or the crowd is not initialised.
  Status saveState(CrowdSnapshot& out) const;
  /// Puts back a state saved from this crowd, or from one made with the same init arguments on the
  /// same meshes (in the same state): the following updates then give exactly what they gave after
  /// the save, bit for bit. getGrid() and the debug info keep the last update's until the next
  /// update. Allocates nothing. FAILURE (nothing changed) when in was never saved or does not fit.
  Status restoreState(const CrowdSnapshot& in);

private:
  friend class CrowdSnapshot;
  void purge();
  bool fail(); ///< purge(), false.
  void updateTopologyOptimization(CrowdAgent** agents, int nagents, float dt);
  void updateMoveRequest(float dt);
  void checkPathValidity(CrowdAgent** agents, int nagents, float dt);
  bool requestMoveTargetReplan(int idx, PolyRef ref, const float* pos);
  bool validParams(const CrowdAgentParams* p) const;
  int getAgentIndex(const CrowdAgent* agent) const { return int(agent - m_agents.get()); }
  const QueryFilter* filterOf(const CrowdAgent* ag) const { return &m_filters[ag->params.queryFilterType]; }
  NavMeshQuery* queryOf(const CrowdAgent* ag) const { return m_types[ag->params.navType].query.get(); }

  /// One agent type's planning: its mesh's query, path queue and corridor portals.
  struct NavTypeState {
    const NavMesh* mesh = nullptr;
    std::unique_ptr<NavMeshQuery> query;
    PathQueue pathq;
    PortalCache portals;
  };

  int m_maxAgents = 0;
  std::unique_ptr<CrowdAgent[]> m_agents;
  /// The active agents of the current update, in slot order [Size: m_maxAgents].
  std::unique_ptr<CrowdAgent*[]> m_activeAgents;
  std::unique_ptr<CrowdAgentAnimation[]> m_agentAnims;
  /// Copies of the fields the neighbour and collision passes read from other agents, packed so a
  /// neighbour costs one small load instead of two lines of a large CrowdAgent. The same float
  /// values as the agents' (refreshed where the agents' change). [Size: m_maxAgents * 4]
  /// m_neiHot: per active-list index (npos x, y, z, params.height);
  /// m_colHot: per m_agents index (npos x, z, params.radius, params.avoidancePriority).
  std::unique_ptr<float[]> m_neiHot;
  std::unique_ptr<float[]> m_colHot;

  /// Per agent type [Size: m_typeCount].
  std::unique_ptr<NavTypeState[]> m_types;
  int m_typeCount = 0;
  ObstacleAvoidanceParams m_obstacleQueryParams[CROWD_MAX_OBSTAVOIDANCE_PARAMS];
  std::unique_ptr<ObstacleAvoidanceQuery> m_obstacleQuery;
  std::unique_ptr<ProximityGrid> m_grid;

  std::unique_ptr<PolyRef[]> m_pathResult; ///< Scratch for merging a queued path [Size: m_maxPathResult].
  int m_maxPathResult = 0;

  float m_agentPlacementHalfExtents[3] = {0, 0, 0};
  QueryFilter m_filters[CROWD_MAX_QUERY_FILTER_TYPE];
  float m_maxAgentRadius = 0;
  int m_velocitySampleCount = 0;
};

/// A crowd's saved simulation state (Crowd::saveState / restoreState), owned by the caller. Sized
/// once by init() for one crowd's maxAgents (about sizeof(CrowdAgent) + 1 KB per agent: the
/// corridors are kept at their full length); saving and restoring allocate nothing.
class CrowdSnapshot {
public:
  CrowdSnapshot() = default;
  CrowdSnapshot(const CrowdSnapshot&) = delete;
  CrowdSnapshot& operator=(const CrowdSnapshot&) = delete;

  /// Storage for crowd's state (crowd initialised; every agent type's path queue). False when it is
  /// not, or out of memory.
  bool init(const Crowd& crowd);
  /// A state was saved into it.
  bool saved() const { return m_saved; }
  int maxAgents() const { return m_maxAgents; }
  /// Heap bytes held (for memory budgets).
  size_t bytes() const;

private:
  friend class Crowd;
  int m_maxAgents = 0;
  int m_maxPath = 0;
  bool m_saved = false;
  std::unique_ptr<CrowdAgent[]> m_agents;
  std::unique_ptr<CrowdAgentAnimation[]> m_anims;
  int m_typeCount = 0;
  std::unique_ptr<PathQueueSnapshot[]> m_pathq; ///< Per agent type.
  ObstacleAvoidanceParams m_avoid[CROWD_MAX_OBSTAVOIDANCE_PARAMS];
  QueryFilter m_filters[CROWD_MAX_QUERY_FILTER_TYPE];
  /// The saving crowd's filters: the path queue's requests point into them.
  const QueryFilter* m_filterBase = nullptr;
  const NavMesh* m_meshes[CROWD_MAX_NAV_TYPES] = {}; ///< The saving crowd's, per type.
  int m_velocitySampleCount = 0;
};

} // namespace crowd
} // namespace nav
