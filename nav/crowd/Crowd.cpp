// Crowd.cpp: the crowd update (see Crowd.h for the order of the passes).
//
// Every arithmetic step is written in DetourCrowd 1.5.1's order (including its float literals and
// its quirks, marked "As Detour" below) so that traces match dtCrowd's bit for bit.
#include "nav/crowd/Crowd.h"

#include "nav/NavMath.h"

#include <cmath>
#include <cstring>
#include <new>

namespace nav {
namespace crowd {

namespace {

/// Search iterations the path queue may spend per update.
constexpr int MAX_ITERS_PER_UPDATE = 100;
/// Node pool of the path queue's search.
constexpr int MAX_PATHQUEUE_NODES = 4096;
/// Node pool of the crowd's own query (local searches only).
constexpr int MAX_COMMON_NODES = 512;
/// Polygons in a corridor (and in a merged queue result).
constexpr int MAX_PATH_RESULT = 256;
/// Agents sent to the path queue per update.
constexpr int PATH_MAX_AGENTS = 8;
/// Quick search toward a new target: iterations and result polygons.
constexpr int QUICK_SEARCH_MAX_ITER = 20;
constexpr int QUICK_SEARCH_MAX_RES = 32;
/// Topology optimisation: at most this many agents per update, each after this long.
constexpr int OPT_MAX_AGENTS = 1;
constexpr float OPT_TIME_THR = 0.5f; // [Unit: s]
/// Corridor polygons checked for validity each update.
constexpr int CHECK_LOOKAHEAD = 10;
/// A path that ends short of its target is replanned after this long.
constexpr float TARGET_REPLAN_DELAY = 1.0f; // [Unit: s]
/// Fraction of the overlap removed per collision resolution iteration.
constexpr float COLLISION_RESOLVE_FACTOR = 0.7f;
constexpr int COLLISION_ITERATIONS = 4;
/// The proximity grid holds 4 entries per agent in at most 65535.
constexpr int MAX_AGENTS_LIMIT = 0xffff / 4;
/// Candidates the proximity grid returns per neighbour query.
constexpr int MAX_NEIS_QUERY = 32;

inline float tween(float t, float t0, float t1) { return clamp((t - t0) / (t1 - t0), 0.0f, 1.0f); }

/// vel moves toward nvel by at most maxAcceleration * dt; the position follows vel.
void integrate(CrowdAgent* ag, float dt) {
  const float maxDelta = ag->params.maxAcceleration * dt;
  float dv[3];
  vsub(dv, ag->nvel, ag->vel);
  const float ds = vlen(dv);
  if (ds > maxDelta) vscale(dv, dv, maxDelta / ds);
  vadd(ag->vel, ag->vel, dv);
  if (vlen(ag->vel) > 0.0001f)
    vmad(ag->npos, ag->npos, ag->vel, dt);
  else
    vset(ag->vel, 0, 0, 0);
}

/// The last corner is an off-mesh connection start within radius (2D).
bool overOffmeshConnection(const CrowdAgent* ag, float radius) {
  if (!ag->ncorners) return false;
  const bool offMesh = (ag->cornerFlags[ag->ncorners - 1] & STRAIGHTPATH_OFFMESH_CONNECTION) != 0;
  if (offMesh) {
    const float distSq = vdist2DSqr(ag->npos, &ag->cornerVerts[(ag->ncorners - 1) * 3]);
    if (distSq < radius * radius) return true;
  }
  return false;
}

/// 2D distance to the path's end when it is among the corners, capped at range.
float getDistanceToGoal(const CrowdAgent* ag, float range) {
  if (!ag->ncorners) return range;
  const bool endOfPath = (ag->cornerFlags[ag->ncorners - 1] & STRAIGHTPATH_END) != 0;
  if (endOfPath) return navMin(vdist2D(ag->npos, &ag->cornerVerts[(ag->ncorners - 1) * 3]), range);
  return range;
}

/// Unit direction toward the first corner, bent toward the second (anticipating the turn).
void calcSmoothSteerDirection(const CrowdAgent* ag, float* dir) {
  if (!ag->ncorners) {
    vset(dir, 0, 0, 0);
    return;
  }
  const int ip0 = 0;
  const int ip1 = navMin(1, ag->ncorners - 1);
  const float* p0 = &ag->cornerVerts[ip0 * 3];
  const float* p1 = &ag->cornerVerts[ip1 * 3];
  float dir0[3], dir1[3];
  vsub(dir0, p0, ag->npos);
  vsub(dir1, p1, ag->npos);
  dir0[1] = 0;
  dir1[1] = 0;
  const float len0 = vlen(dir0);
  const float len1 = vlen(dir1);
  if (len1 > 0.001f) vscale(dir1, dir1, 1.0f / len1);
  dir[0] = dir0[0] - dir1[0] * len0 * 0.5f;
  dir[1] = 0;
  dir[2] = dir0[2] - dir1[2] * len0 * 0.5f;
  vnormalize(dir);
}

/// Unit direction toward the first corner (2D).
void calcStraightSteerDirection(const CrowdAgent* ag, float* dir) {
  if (!ag->ncorners) {
    vset(dir, 0, 0, 0);
    return;
  }
  vsub(dir, &ag->cornerVerts[0], ag->npos);
  dir[1] = 0;
  vnormalize(dir);
}

/// Inserts (idx, dist) into neis sorted by dist, keeping at most maxNeis; returns the new count.
int addNeighbour(int idx, float dist, CrowdNeighbour* neis, int nneis, int maxNeis) {
  CrowdNeighbour* nei = nullptr;
  if (!nneis) {
    nei = &neis[nneis];
  } else if (dist >= neis[nneis - 1].dist) {
    if (nneis >= maxNeis) return nneis;
    nei = &neis[nneis];
  } else {
    int i;
    for (i = 0; i < nneis; ++i)
      if (dist <= neis[i].dist) break;
    const int tgt = i + 1;
    const int n = navMin(nneis - i, maxNeis - tgt);
    if (n > 0) std::memmove(&neis[tgt], &neis[i], sizeof(CrowdNeighbour) * size_t(n));
    nei = &neis[i];
  }
  nei->idx = idx;
  nei->dist = dist;
  return navMin(nneis + 1, maxNeis);
}

/// Agents (indices into the active list) within range of pos (2D) whose height spans overlap,
/// nearest first. hot: per active index (npos x, y, z, params.height); skip: the querying agent's
/// active index.
int getNeighbours(const float* pos, float height, float range, int skip, CrowdNeighbour* result, int maxResult,
                  const float* hot, const ProximityGrid* grid) {
  int n = 0;
  uint16_t ids[MAX_NEIS_QUERY];
  const int nids = grid->queryItems(pos[0] - range, pos[2] - range, pos[0] + range, pos[2] + range, ids,
                                    MAX_NEIS_QUERY);
  for (int i = 0; i < nids; ++i) {
    if (int(ids[i]) == skip) continue;
    const float* h = hot + size_t(ids[i]) * 4;
    float diff[3];
    vsub(diff, pos, h);
    if (std::fabs(diff[1]) >= (height + h[3]) / 2.0f) continue;
    diff[1] = 0;
    const float distSqr = vlenSqr(diff);
    if (distSqr > sqr(range)) continue;
    n = addNeighbour(ids[i], distSqr, result, n, maxResult);
  }
  return n;
}

/// Inserts newag into agents ordered by decreasing key(agent), keeping at most maxAgents (an agent
/// whose key is not greater than the last one's is appended only when there is room).
template <class Key>
int addToQueue(CrowdAgent* newag, CrowdAgent** agents, int nagents, int maxAgents, Key key) {
  int slot = 0;
  if (!nagents) {
    slot = nagents;
  } else if (key(newag) <= key(agents[nagents - 1])) {
    if (nagents >= maxAgents) return nagents;
    slot = nagents;
  } else {
    int i;
    for (i = 0; i < nagents; ++i)
      if (key(newag) >= key(agents[i])) break;
    const int tgt = i + 1;
    const int n = navMin(nagents - i, maxAgents - tgt);
    if (n > 0) std::memmove(&agents[tgt], &agents[i], sizeof(CrowdAgent*) * size_t(n));
    slot = i;
  }
  agents[slot] = newag;
  return navMin(nagents + 1, maxAgents);
}

} // namespace

/// Indices in range (navType among this crowd's types), sizes and speeds finite and not negative.
bool Crowd::validParams(const CrowdAgentParams* p) const {
  if (!p || p->queryFilterType >= CROWD_MAX_QUERY_FILTER_TYPE ||
      p->obstacleAvoidanceType >= CROWD_MAX_OBSTAVOIDANCE_PARAMS || p->navType >= m_typeCount)
    return false;
  const float v[7] = {p->radius,   p->height, p->maxAcceleration, p->maxSpeed, p->collisionQueryRange,
                      p->pathOptimizationRange, p->separationWeight};
  for (float x : v)
    if (!std::isfinite(x) || x < 0) return false;
  return true;
}

Crowd::Crowd() = default;
Crowd::~Crowd() { purge(); }

void Crowd::purge() {
  m_agents.reset();
  m_maxAgents = 0;
  m_activeAgents.reset();
  m_agentAnims.reset();
  m_neiHot.reset();
  m_colHot.reset();
  m_pathResult.reset();
  m_maxPathResult = 0;
  m_grid.reset();
  m_obstacleQuery.reset();
  m_types.reset();
  m_typeCount = 0;
}

bool Crowd::init(int maxAgents, float maxAgentRadius, const NavMesh* nav) {
  return init(maxAgents, maxAgentRadius, &nav, 1);
}

bool Crowd::init(int maxAgents, float maxAgentRadius, const NavMesh* const* meshes, int meshCount) {
  purge();
  if (!meshes || meshCount < 1 || meshCount > CROWD_MAX_NAV_TYPES || maxAgents < 1 || maxAgents > MAX_AGENTS_LIMIT ||
      !std::isfinite(maxAgentRadius) || !(maxAgentRadius > 0))
    return false;
  for (int t = 0; t < meshCount; ++t)
    if (!meshes[t]) return false;

  m_maxAgents = maxAgents;
  m_maxAgentRadius = maxAgentRadius;
  // Larger than the agent radius: also used to re-place agents that fell off the mesh.
  vset(m_agentPlacementHalfExtents, m_maxAgentRadius * 2.0f, m_maxAgentRadius * 1.5f, m_maxAgentRadius * 2.0f);

  m_grid.reset(new (std::nothrow) ProximityGrid());
  if (!m_grid || !m_grid->init(m_maxAgents * 4, maxAgentRadius * 3)) return fail();


  m_obstacleQuery.reset(new (std::nothrow) ObstacleAvoidanceQuery());
  if (!m_obstacleQuery || !m_obstacleQuery->init(6, 8)) return fail();

  std::memset(m_obstacleQueryParams, 0, sizeof(m_obstacleQueryParams));
  for (ObstacleAvoidanceParams& p : m_obstacleQueryParams) {
    p.velBias = 0.4f;
    p.weightDesVel = 2.0f;
    p.weightCurVel = 0.75f;
    p.weightSide = 0.75f;
    p.weightToi = 2.5f;
    p.horizTime = 2.5f;
    p.gridSize = 33;
    p.adaptiveDivs = 7;
    p.adaptiveRings = 2;
    p.adaptiveDepth = 5;
  }

  m_maxPathResult = MAX_PATH_RESULT;
  m_pathResult.reset(new (std::nothrow) PolyRef[size_t(m_maxPathResult)]());
  if (!m_pathResult) return fail();
  m_types.reset(new (std::nothrow) NavTypeState[size_t(meshCount)]);
  if (!m_types) return fail();
  for (int t = 0; t < meshCount; ++t) {
    NavTypeState& ts = m_types[t];
    ts.mesh = meshes[t];
    if (!ts.pathq.init(m_maxPathResult, MAX_PATHQUEUE_NODES, meshes[t])) return fail();
    // About 32 portals per agent, at least 1024, at most 32768 (~1.2 MB) per type.
    if (!ts.portals.init(clamp(m_maxAgents * 32, 1024, 32768))) return fail();
    ts.query.reset(new (std::nothrow) NavMeshQuery());
    if (!ts.query || statusFailed(ts.query->init(meshes[t], MAX_COMMON_NODES))) return fail();
  }

  // Value-initialised (zeroed) like Detour's placement-new'd agents: fields addAgent does not set
  // (corners, ...) start at 0 and are then carried over when a slot is reused.
  m_agents.reset(new (std::nothrow) CrowdAgent[size_t(m_maxAgents)]());
  m_activeAgents.reset(new (std::nothrow) CrowdAgent*[size_t(m_maxAgents)]());
  m_agentAnims.reset(new (std::nothrow) CrowdAgentAnimation[size_t(m_maxAgents)]());
  m_neiHot.reset(new (std::nothrow) float[size_t(m_maxAgents) * 4]());
  m_colHot.reset(new (std::nothrow) float[size_t(m_maxAgents) * 4]());
  if (!m_agents || !m_activeAgents || !m_agentAnims || !m_neiHot || !m_colHot) return fail();
  for (int i = 0; i < m_maxAgents; ++i) {
    m_agents[i].active = false;
    if (!m_agents[i].corridor.init(m_maxPathResult)) return fail();
    m_agentAnims[i].active = false;
  }
  m_typeCount = meshCount; // last: the crowd is usable from here on
  return true;
}

bool Crowd::fail() {
  purge();
  return false;
}

void Crowd::setObstacleAvoidanceParams(int idx, const ObstacleAvoidanceParams* params) {
  if (params && idx >= 0 && idx < CROWD_MAX_OBSTAVOIDANCE_PARAMS) m_obstacleQueryParams[idx] = *params;
}

const ObstacleAvoidanceParams* Crowd::getObstacleAvoidanceParams(int idx) const {
  if (idx >= 0 && idx < CROWD_MAX_OBSTAVOIDANCE_PARAMS) return &m_obstacleQueryParams[idx];
  return nullptr;
}

const CrowdAgent* Crowd::getAgent(int idx) const {
  if (idx < 0 || idx >= m_maxAgents) return nullptr;
  return &m_agents[idx];
}

CrowdAgent* Crowd::getEditableAgent(int idx) {
  if (idx < 0 || idx >= m_maxAgents) return nullptr;
  return &m_agents[idx];
}

void Crowd::updateAgentParameters(int idx, const CrowdAgentParams* params) {
  if (idx < 0 || idx >= m_maxAgents || !validParams(params)) return;
  // The corridor and walls hold refs of the agent's mesh: an active agent keeps its type.
  if (m_agents[idx].active && params->navType != m_agents[idx].params.navType) return;
  m_agents[idx].params = *params;
}

int Crowd::addAgent(const float* pos, const CrowdAgentParams* params) {
  if (!m_typeCount || !pos || !visfinite(pos) || !validParams(params)) return -1;
  int idx = -1;
  for (int i = 0; i < m_maxAgents; ++i) {
    if (!m_agents[i].active) {
      idx = i;
      break;
    }
  }
  if (idx == -1) return -1;

  CrowdAgent* ag = &m_agents[idx];
  updateAgentParameters(idx, params);

  // Place the agent on the nearest polygon.
  float nearest[3];
  PolyRef ref = 0;
  vcopy(nearest, pos);
  const Status status =
      queryOf(ag)->findNearestPoly(pos, m_agentPlacementHalfExtents, filterOf(ag), &ref, nearest);
  if (statusFailed(status)) {
    vcopy(nearest, pos);
    ref = 0;
  }

  ag->corridor.reset(ref, nearest);
  ag->boundary.reset();
  ag->partial = false;
  ag->topologyOptTime = 0;
  ag->targetReplanTime = 0;
  ag->nneis = 0;
  vset(ag->dvel, 0, 0, 0);
  vset(ag->nvel, 0, 0, 0);
  vset(ag->vel, 0, 0, 0);
  vcopy(ag->npos, nearest);
  ag->desiredSpeed = 0;
  ag->state = ref ? CROWDAGENT_STATE_WALKING : CROWDAGENT_STATE_INVALID;
  ag->targetState = CROWDAGENT_TARGET_NONE;
  ag->active = true;
  return idx;
}

void Crowd::removeAgent(int idx) {
  if (idx >= 0 && idx < m_maxAgents) m_agents[idx].active = false;
}

bool Crowd::requestMoveTargetReplan(int idx, PolyRef ref, const float* pos) {
  if (idx < 0 || idx >= m_maxAgents) return false;
  CrowdAgent* ag = &m_agents[idx];
  ag->targetRef = ref;
  vcopy(ag->targetPos, pos);
  ag->targetPathqRef = PATHQ_INVALID;
  ag->targetReplan = true;
  ag->targetState = ag->targetRef ? CROWDAGENT_TARGET_REQUESTING : CROWDAGENT_TARGET_FAILED;
  return true;
}

bool Crowd::requestMoveTarget(int idx, PolyRef ref, const float* pos) {
  if (idx < 0 || idx >= m_maxAgents) return false;
  if (!ref || !pos || !visfinite(pos)) return false;
  CrowdAgent* ag = &m_agents[idx];
  ag->targetRef = ref;
  vcopy(ag->targetPos, pos);
  ag->targetPathqRef = PATHQ_INVALID;
  ag->targetReplan = false;
  ag->targetState = CROWDAGENT_TARGET_REQUESTING;
  return true;
}

bool Crowd::requestMoveVelocity(int idx, const float* vel) {
  if (idx < 0 || idx >= m_maxAgents) return false;
  if (!vel || !visfinite(vel)) return false;
  CrowdAgent* ag = &m_agents[idx];
  ag->targetRef = 0;
  vcopy(ag->targetPos, vel);
  ag->targetPathqRef = PATHQ_INVALID;
  ag->targetReplan = false;
  ag->targetState = CROWDAGENT_TARGET_VELOCITY;
  return true;
}

bool Crowd::resetMoveTarget(int idx) {
  if (idx < 0 || idx >= m_maxAgents) return false;
  CrowdAgent* ag = &m_agents[idx];
  ag->targetRef = 0;
  vset(ag->targetPos, 0, 0, 0);
  vset(ag->dvel, 0, 0, 0);
  ag->targetPathqRef = PATHQ_INVALID;
  ag->targetReplan = false;
  ag->targetState = CROWDAGENT_TARGET_NONE;
  return true;
}

int Crowd::getActiveAgents(CrowdAgent** agents, int maxAgents) {
  int n = 0;
  for (int i = 0; i < m_maxAgents; ++i) {
    if (!m_agents[i].active) continue;
    if (n < maxAgents) agents[n++] = &m_agents[i];
  }
  return n;
}

void Crowd::updateMoveRequest(float /*dt*/) {
  CrowdAgent* queue[PATH_MAX_AGENTS];
  int nqueue = 0;

  // New requests: a quick search toward the target.
  for (int i = 0; i < m_maxAgents; ++i) {
    CrowdAgent* ag = &m_agents[i];
    if (!ag->active) continue;
    if (ag->state == CROWDAGENT_STATE_INVALID) continue;
    if (ag->targetState == CROWDAGENT_TARGET_NONE || ag->targetState == CROWDAGENT_TARGET_VELOCITY) continue;

    if (ag->targetState == CROWDAGENT_TARGET_REQUESTING) {
      const PolyRef* path = ag->corridor.getPath();
      const int npath = ag->corridor.getPathCount();

      float reqPos[3];
      PolyRef reqPath[QUICK_SEARCH_MAX_RES];
      int reqPathCount = 0;

      NavMeshQuery* navquery = queryOf(ag);
      navquery->initSlicedFindPath(path[0], ag->targetRef, ag->npos, ag->targetPos, filterOf(ag));
      navquery->updateSlicedFindPath(QUICK_SEARCH_MAX_ITER, nullptr);
      Status status = 0;
      if (ag->targetReplan) {
        // Replanning: keep as much of the current corridor as the search reached.
        status = navquery->finalizeSlicedFindPathPartial(path, npath, reqPath, &reqPathCount, QUICK_SEARCH_MAX_RES);
      } else {
        status = navquery->finalizeSlicedFindPath(reqPath, &reqPathCount, QUICK_SEARCH_MAX_RES);
      }

      if (!statusFailed(status) && reqPathCount > 0) {
        if (reqPath[reqPathCount - 1] != ag->targetRef) {
          // Partial: the corridor's target is the point of its last polygon nearest the target.
          status = navquery->closestPointOnPoly(reqPath[reqPathCount - 1], ag->targetPos, reqPos, nullptr);
          if (statusFailed(status)) reqPathCount = 0;
        } else {
          vcopy(reqPos, ag->targetPos);
        }
      } else {
        reqPathCount = 0;
      }

      if (!reqPathCount) {
        // No path: start the request from where the agent is.
        vcopy(reqPos, ag->npos);
        reqPath[0] = path[0];
        reqPathCount = 1;
      }

      ag->corridor.setCorridor(reqPos, reqPath, reqPathCount);
      ag->boundary.reset();
      ag->partial = false;

      if (reqPath[reqPathCount - 1] == ag->targetRef) {
        ag->targetState = CROWDAGENT_TARGET_VALID;
        ag->targetReplanTime = 0.0f;
      } else {
        // Longer or maybe unreachable: a full search in the path queue.
        ag->targetState = CROWDAGENT_TARGET_WAITING_FOR_QUEUE;
      }
    }

    if (ag->targetState == CROWDAGENT_TARGET_WAITING_FOR_QUEUE)
      nqueue = addToQueue(ag, queue, nqueue, PATH_MAX_AGENTS,
                          [](const CrowdAgent* a) { return a->targetReplanTime; });
  }

  for (int i = 0; i < nqueue; ++i) {
    CrowdAgent* ag = queue[i];
    ag->targetPathqRef = m_types[ag->params.navType].pathq.request(ag->corridor.getLastPoly(), ag->targetRef, ag->corridor.getTarget(),
                                         ag->targetPos, filterOf(ag));
    if (ag->targetPathqRef != PATHQ_INVALID) ag->targetState = CROWDAGENT_TARGET_WAITING_FOR_PATH;
  }

  for (int t = 0; t < m_typeCount; ++t) m_types[t].pathq.update(MAX_ITERS_PER_UPDATE);

  // Finished searches: append to the corridor.
  for (int i = 0; i < m_maxAgents; ++i) {
    CrowdAgent* ag = &m_agents[i];
    if (!ag->active) continue;
    if (ag->targetState == CROWDAGENT_TARGET_NONE || ag->targetState == CROWDAGENT_TARGET_VELOCITY) continue;
    if (ag->targetState != CROWDAGENT_TARGET_WAITING_FOR_PATH) continue;

    PathQueue& pathq = m_types[ag->params.navType].pathq;
    Status status = pathq.getRequestStatus(ag->targetPathqRef);
    if (statusFailed(status)) {
      // Retry while the target is still valid.
      ag->targetPathqRef = PATHQ_INVALID;
      ag->targetState = ag->targetRef ? CROWDAGENT_TARGET_REQUESTING : CROWDAGENT_TARGET_FAILED;
      ag->targetReplanTime = 0.0f;
    } else if (statusSucceeded(status)) {
      const PolyRef* path = ag->corridor.getPath();
      const int npath = ag->corridor.getPathCount();

      float targetPos[3];
      vcopy(targetPos, ag->targetPos);

      PolyRef* res = m_pathResult.get();
      bool valid = true;
      int nres = 0;
      status = pathq.getPathResult(ag->targetPathqRef, res, &nres, m_maxPathResult);
      if (statusFailed(status) || !nres) valid = false;
      ag->partial = statusDetail(status, PARTIAL_RESULT);

      // The search started at the corridor's end when it was queued; the agent may have moved
      // since, so the result is joined to the current corridor at that polygon.
      if (valid && path[npath - 1] != res[0]) valid = false;

      if (valid) {
        if (npath > 1) {
          // Current corridor (without its last polygon) + result.
          if ((npath - 1) + nres > m_maxPathResult) nres = m_maxPathResult - (npath - 1);
          std::memmove(res + npath - 1, res, sizeof(PolyRef) * size_t(nres));
          std::memcpy(res, path, sizeof(PolyRef) * size_t(npath - 1));
          nres += npath - 1;

          // Remove back-and-forth pairs (A B A -> A).
          for (int j = 0; j < nres; ++j) {
            if (j - 1 >= 0 && j + 1 < nres) {
              if (res[j - 1] == res[j + 1]) {
                std::memmove(res + (j - 1), res + (j + 1), sizeof(PolyRef) * size_t(nres - (j + 1)));
                nres -= 2;
                j -= 2;
              }
            }
          }
        }

        if (res[nres - 1] != ag->targetRef) {
          // Partial: target at the nearest point of the last polygon.
          float nearest[3];
          status = queryOf(ag)->closestPointOnPoly(res[nres - 1], targetPos, nearest, nullptr);
          if (statusSucceeded(status))
            vcopy(targetPos, nearest);
          else
            valid = false;
        }
      }

      if (valid) {
        ag->corridor.setCorridor(targetPos, res, nres);
        ag->boundary.reset();
        ag->targetState = CROWDAGENT_TARGET_VALID;
      } else {
        ag->targetState = CROWDAGENT_TARGET_FAILED;
      }
      ag->targetReplanTime = 0.0f;
    }
  }
}

void Crowd::updateTopologyOptimization(CrowdAgent** agents, int nagents, float dt) {
  if (!nagents) return;
  CrowdAgent* queue[OPT_MAX_AGENTS];
  int nqueue = 0;

  for (int i = 0; i < nagents; ++i) {
    CrowdAgent* ag = agents[i];
    if (ag->state != CROWDAGENT_STATE_WALKING) continue;
    if (ag->targetState == CROWDAGENT_TARGET_NONE || ag->targetState == CROWDAGENT_TARGET_VELOCITY) continue;
    if ((ag->params.updateFlags & CROWD_OPTIMIZE_TOPO) == 0) continue;
    ag->topologyOptTime += dt;
    if (ag->topologyOptTime >= OPT_TIME_THR)
      nqueue = addToQueue(ag, queue, nqueue, OPT_MAX_AGENTS, [](const CrowdAgent* a) { return a->topologyOptTime; });
  }

  for (int i = 0; i < nqueue; ++i) {
    CrowdAgent* ag = queue[i];
    ag->corridor.optimizePathTopology(queryOf(ag), filterOf(ag));
    ag->topologyOptTime = 0;
  }
}

void Crowd::checkPathValidity(CrowdAgent** agents, int nagents, float dt) {
  for (int i = 0; i < nagents; ++i) {
    CrowdAgent* ag = agents[i];
    if (ag->state != CROWDAGENT_STATE_WALKING) continue;

    ag->targetReplanTime += dt;
    bool replan = false;

    // The agent's polygon must still be valid, else re-place the agent.
    const int idx = getAgentIndex(ag);
    float agentPos[3];
    PolyRef agentRef = ag->corridor.getFirstPoly();
    vcopy(agentPos, ag->npos);
    NavMeshQuery* navquery = queryOf(ag);
    if (!navquery->isValidPolyRef(agentRef, filterOf(ag))) {
      float nearest[3];
      vcopy(nearest, agentPos);
      agentRef = 0;
      navquery->findNearestPoly(ag->npos, m_agentPlacementHalfExtents, filterOf(ag), &agentRef, nearest);
      vcopy(agentPos, nearest);

      if (!agentRef) {
        // Off the mesh.
        ag->corridor.reset(0, agentPos);
        ag->partial = false;
        ag->boundary.reset();
        ag->state = CROWDAGENT_STATE_INVALID;
        continue;
      }

      // Only the first polygon is fixed; the rest stays for the replan to reuse.
      ag->corridor.fixPathStart(agentRef, agentPos);
      ag->boundary.reset();
      vcopy(ag->npos, agentPos);
      replan = true;
    }

    if (ag->targetState == CROWDAGENT_TARGET_NONE || ag->targetState == CROWDAGENT_TARGET_VELOCITY) continue;

    // The target's polygon must still be valid, else re-place the target.
    if (ag->targetState != CROWDAGENT_TARGET_NONE && ag->targetState != CROWDAGENT_TARGET_FAILED) {
      if (!navquery->isValidPolyRef(ag->targetRef, filterOf(ag))) {
        float nearest[3];
        vcopy(nearest, ag->targetPos);
        ag->targetRef = 0;
        navquery->findNearestPoly(ag->targetPos, m_agentPlacementHalfExtents, filterOf(ag), &ag->targetRef, nearest);
        vcopy(ag->targetPos, nearest);
        replan = true;
      }
      if (!ag->targetRef) {
        // Target lost: drop the request.
        ag->corridor.reset(agentRef, agentPos);
        ag->partial = false;
        ag->targetState = CROWDAGENT_TARGET_NONE;
      }
    }

    if (!ag->corridor.isValid(CHECK_LOOKAHEAD, navquery, filterOf(ag))) replan = true;

    // The path ends near, short of the target: replan (not more often than TARGET_REPLAN_DELAY).
    if (ag->targetState == CROWDAGENT_TARGET_VALID) {
      if (ag->targetReplanTime > TARGET_REPLAN_DELAY && ag->corridor.getPathCount() < CHECK_LOOKAHEAD &&
          ag->corridor.getLastPoly() != ag->targetRef)
        replan = true;
    }

    if (replan && ag->targetState != CROWDAGENT_TARGET_NONE) requestMoveTargetReplan(idx, ag->targetRef, ag->targetPos);
  }
}

void Crowd::update(float dt, CrowdAgentDebugInfo* debug) {
  if (!m_typeCount || !std::isfinite(dt)) return;
  m_velocitySampleCount = 0;
  const int debugIdx = debug ? debug->idx : -1;

  CrowdAgent** agents = m_activeAgents.get();
  const int nagents = getActiveAgents(agents, m_maxAgents);

  checkPathValidity(agents, nagents, dt);
  updateMoveRequest(dt);
  updateTopologyOptimization(agents, nagents, dt);

  // Proximity grid: items are indices into the active list.
  m_grid->clear();
  float* neiHot = m_neiHot.get();
  for (int i = 0; i < nagents; ++i) {
    const CrowdAgent* ag = agents[i];
    const float* p = ag->npos;
    const float r = ag->params.radius;
    m_grid->addItem(uint16_t(i), p[0] - r, p[2] - r, p[0] + r, p[2] + r);
    float* h = neiHot + size_t(i) * 4;
    h[0] = p[0];
    h[1] = p[1];
    h[2] = p[2];
    h[3] = ag->params.height;
  }

  // Walls and neighbours.
  for (int i = 0; i < nagents; ++i) {
    CrowdAgent* ag = agents[i];
    if (ag->state != CROWDAGENT_STATE_WALKING) continue;

    // Refresh the walls after moving a quarter of the query range, or when they became invalid.
    NavMeshQuery* navquery = queryOf(ag);
    const float updateThr = ag->params.collisionQueryRange * 0.25f;
    if (vdist2DSqr(ag->npos, ag->boundary.getCenter()) > sqr(updateThr) ||
        !ag->boundary.isValid(navquery, filterOf(ag))) {
      ag->boundary.update(ag->corridor.getFirstPoly(), ag->npos, ag->params.collisionQueryRange, navquery,
                          filterOf(ag));
    }
    ag->nneis = getNeighbours(ag->npos, ag->params.height, ag->params.collisionQueryRange, i, ag->neis,
                              CROWDAGENT_MAX_NEIGHBOURS, neiHot, m_grid.get());
    for (int j = 0; j < ag->nneis; j++) ag->neis[j].idx = getAgentIndex(agents[ag->neis[j].idx]);
  }

  // Corners to steer to.
  for (int i = 0; i < nagents; ++i) {
    CrowdAgent* ag = agents[i];
    if (ag->state != CROWDAGENT_STATE_WALKING) continue;
    if (ag->targetState == CROWDAGENT_TARGET_NONE || ag->targetState == CROWDAGENT_TARGET_VELOCITY) continue;

    NavMeshQuery* navquery = queryOf(ag);
    ag->ncorners = ag->corridor.findCorners(ag->cornerVerts, ag->cornerFlags, ag->cornerPolys, CROWDAGENT_MAX_CORNERS,
                                            navquery, filterOf(ag), &m_types[ag->params.navType].portals);

    // Shortcut toward the corner after the next one when it is in sight.
    if ((ag->params.updateFlags & CROWD_OPTIMIZE_VIS) && ag->ncorners > 0) {
      const float* target = &ag->cornerVerts[navMin(1, ag->ncorners - 1) * 3];
      ag->corridor.optimizePathVisibility(target, ag->params.pathOptimizationRange, navquery, filterOf(ag));
      if (debugIdx == i) {
        vcopy(debug->optStart, ag->corridor.getPos());
        vcopy(debug->optEnd, target);
      }
    } else if (debugIdx == i) {
      vset(debug->optStart, 0, 0, 0);
      vset(debug->optEnd, 0, 0, 0);
    }
  }

  // Off-mesh connections near enough start their animation (depends on the corners).
  for (int i = 0; i < nagents; ++i) {
    CrowdAgent* ag = agents[i];
    if (ag->state != CROWDAGENT_STATE_WALKING) continue;
    if (ag->targetState == CROWDAGENT_TARGET_NONE || ag->targetState == CROWDAGENT_TARGET_VELOCITY) continue;

    const float triggerRadius = ag->params.radius * 2.25f;
    if (overOffmeshConnection(ag, triggerRadius)) {
      CrowdAgentAnimation* anim = &m_agentAnims[getAgentIndex(ag)];
      PolyRef refs[2];
      if (ag->corridor.moveOverOffmeshConnection(ag->cornerPolys[ag->ncorners - 1], refs, anim->startPos,
                                                 anim->endPos, queryOf(ag))) {
        vcopy(anim->initPos, ag->npos);
        anim->polyRef = refs[1];
        anim->active = true;
        anim->t = 0.0f;
        anim->tmax = (vdist2D(anim->startPos, anim->endPos) / ag->params.maxSpeed) * 0.5f;
        ag->state = CROWDAGENT_STATE_OFFMESH;
        ag->ncorners = 0;
        ag->nneis = 0;
      }
      // Otherwise the validity check replans around the bad connection.
    }
  }

  // Desired velocity.
  for (int i = 0; i < nagents; ++i) {
    CrowdAgent* ag = agents[i];
    if (ag->state != CROWDAGENT_STATE_WALKING) continue;
    if (ag->targetState == CROWDAGENT_TARGET_NONE) continue;

    float dvel[3] = {0, 0, 0};
    if (ag->targetState == CROWDAGENT_TARGET_VELOCITY) {
      vcopy(dvel, ag->targetPos);
      ag->desiredSpeed = vlen(ag->targetPos);
    } else {
      if (ag->params.updateFlags & CROWD_ANTICIPATE_TURNS)
        calcSmoothSteerDirection(ag, dvel);
      else
        calcStraightSteerDirection(ag, dvel);
      // Slow down within two radii of the end of the path.
      const float slowDownRadius = ag->params.radius * 2;
      const float speedScale = getDistanceToGoal(ag, slowDownRadius) / slowDownRadius;
      ag->desiredSpeed = ag->params.maxSpeed;
      vscale(dvel, dvel, ag->desiredSpeed * speedScale);
    }

    if (ag->params.updateFlags & CROWD_SEPARATION) {
      const float separationDist = ag->params.collisionQueryRange;
      const float invSeparationDist = 1.0f / separationDist;
      const float separationWeight = ag->params.separationWeight;
      float w = 0;
      float disp[3] = {0, 0, 0};
      for (int j = 0; j < ag->nneis; ++j) {
        const CrowdAgent* nei = &m_agents[ag->neis[j].idx];
        if (nei->params.avoidancePriority > ag->params.avoidancePriority) continue; // gives way to ag
        float diff[3];
        vsub(diff, ag->npos, nei->npos);
        diff[1] = 0;
        const float distSqr = vlenSqr(diff);
        if (distSqr < 0.00001f) continue;
        if (distSqr > sqr(separationDist)) continue;
        const float dist = std::sqrt(distSqr);
        const float weight = separationWeight * (1.0f - sqr(dist * invSeparationDist));
        vmad(disp, disp, diff, weight / dist);
        w += 1.0f;
      }
      if (w > 0.0001f) {
        vmad(dvel, dvel, disp, 1.0f / w);
        // As Detour: "clamped" by the squared speed ratio, not the ratio.
        const float speedSqr = vlenSqr(dvel);
        const float desiredSqr = sqr(ag->desiredSpeed);
        if (speedSqr > desiredSqr) vscale(dvel, dvel, desiredSqr / speedSqr);
      }
    }
    vcopy(ag->dvel, dvel);
  }

  // Velocity planning.
  for (int i = 0; i < nagents; ++i) {
    CrowdAgent* ag = agents[i];
    if (ag->state != CROWDAGENT_STATE_WALKING) continue;

    if (ag->params.updateFlags & CROWD_OBSTACLE_AVOIDANCE) {
      m_obstacleQuery->reset();
      for (int j = 0; j < ag->nneis; ++j) {
        const CrowdAgent* nei = &m_agents[ag->neis[j].idx];
        if (nei->params.avoidancePriority > ag->params.avoidancePriority) continue; // gives way to ag
        m_obstacleQuery->addCircle(nei->npos, nei->params.radius, nei->vel, nei->dvel);
      }
      // Walls the agent is in front of.
      for (int j = 0; j < ag->boundary.getSegmentCount(); ++j) {
        const float* s = ag->boundary.getSegment(j);
        if (triArea2D(ag->npos, s, s + 3) < 0.0f) continue;
        m_obstacleQuery->addSegment(s, s + 3);
      }
      ObstacleAvoidanceDebugData* vod = debugIdx == i ? debug->vod : nullptr;
      const ObstacleAvoidanceParams* params = &m_obstacleQueryParams[ag->params.obstacleAvoidanceType];
      const int ns = m_obstacleQuery->sampleVelocityAdaptive(ag->npos, ag->params.radius, ag->desiredSpeed, ag->vel,
                                                             ag->dvel, ag->nvel, params, vod);
      m_velocitySampleCount += ns;
    } else {
      vcopy(ag->nvel, ag->dvel);
    }
  }

  for (int i = 0; i < nagents; ++i) {
    CrowdAgent* ag = agents[i];
    if (ag->state != CROWDAGENT_STATE_WALKING) continue;
    integrate(ag, dt);
  }

  // Collisions: push overlapping agents apart, a share of the overlap per iteration.
  float* colHot = m_colHot.get();
  for (int i = 0; i < nagents; ++i) {
    const CrowdAgent* ag = agents[i];
    float* h = colHot + size_t(getAgentIndex(ag)) * 4;
    h[0] = ag->npos[0];
    h[1] = ag->npos[2];
    h[2] = ag->params.radius;
    h[3] = float(ag->params.avoidancePriority);
  }
  for (int iter = 0; iter < COLLISION_ITERATIONS; ++iter) {
    for (int i = 0; i < nagents; ++i) {
      CrowdAgent* ag = agents[i];
      const int idx0 = getAgentIndex(ag);
      if (ag->state != CROWDAGENT_STATE_WALKING) continue;
      const float* h0 = colHot + size_t(idx0) * 4;
      vset(ag->disp, 0, 0, 0);
      float w = 0;
      for (int j = 0; j < ag->nneis; ++j) {
        const int idx1 = ag->neis[j].idx;
        const float* h1 = colHot + size_t(idx1) * 4;
        // vsub(diff, ag->npos, nei->npos) with y zeroed, from the packed copies.
        float diff[3] = {h0[0] - h1[0], 0, h0[1] - h1[1]};
        float dist = vlenSqr(diff);
        if (dist > sqr(h0[2] + h1[2])) continue;
        // Priorities (h[3]): a less important neighbour is not pushed against, a more important
        // one pushes this agent the whole overlap instead of half of it.
        if (h1[3] > h0[3]) continue;
        const float share = h1[3] < h0[3] ? 1.0f : 0.5f;
        dist = std::sqrt(dist);
        float pen = (h0[2] + h1[2]) - dist;
        if (dist < 0.0001f) {
          // On top of each other: diverge sideways of the desired velocity, opposite per pair.
          if (idx0 > idx1)
            vset(diff, -ag->dvel[2], 0, ag->dvel[0]);
          else
            vset(diff, ag->dvel[2], 0, -ag->dvel[0]);
          pen = 0.01f;
        } else {
          pen = (1.0f / dist) * (pen * share) * COLLISION_RESOLVE_FACTOR;
        }
        vmad(ag->disp, ag->disp, diff, pen);
        w += 1.0f;
      }
      if (w > 0.0001f) {
        const float iw = 1.0f / w;
        vscale(ag->disp, ag->disp, iw);
      }
    }
    for (int i = 0; i < nagents; ++i) {
      CrowdAgent* ag = agents[i];
      if (ag->state != CROWDAGENT_STATE_WALKING) continue;
      vadd(ag->npos, ag->npos, ag->disp);
      float* h = colHot + size_t(getAgentIndex(ag)) * 4;
      h[0] = ag->npos[0];
      h[1] = ag->npos[2];
    }
  }

  // Move along the mesh.
  for (int i = 0; i < nagents; ++i) {
    CrowdAgent* ag = agents[i];
    if (ag->state != CROWDAGENT_STATE_WALKING) continue;
    ag->corridor.movePosition(ag->npos, queryOf(ag), filterOf(ag));
    vcopy(ag->npos, ag->corridor.getPos());
    // Without a path the corridor is just the agent's polygon.
    if (ag->targetState == CROWDAGENT_TARGET_NONE || ag->targetState == CROWDAGENT_TARGET_VELOCITY) {
      ag->corridor.reset(ag->corridor.getFirstPoly(), ag->npos);
      ag->partial = false;
    }
  }

  // Off-mesh animations of the active agents. As Detour: removing an agent leaves its slot's
  // animation active and frozen; an agent added later in that slot resumes it.
  for (int i = 0; i < nagents; ++i) {
    CrowdAgent* ag = agents[i];
    CrowdAgentAnimation* anim = &m_agentAnims[getAgentIndex(ag)];
    if (!anim->active) continue;

    anim->t += dt;
    if (anim->t > anim->tmax) {
      anim->active = false;
      ag->state = CROWDAGENT_STATE_WALKING;
      continue;
    }
    const float ta = anim->tmax * 0.15f;
    const float tb = anim->tmax;
    if (anim->t < ta) {
      const float u = tween(anim->t, 0.0f, ta);
      vlerp(ag->npos, anim->initPos, anim->startPos, u);
    } else {
      const float u = tween(anim->t, ta, tb);
      vlerp(ag->npos, anim->startPos, anim->endPos, u);
    }
    vset(ag->vel, 0, 0, 0);
    vset(ag->dvel, 0, 0, 0);
  }
}

bool CrowdSnapshot::init(const Crowd& crowd) {
  m_saved = false;
  m_agents.reset();
  m_anims.reset();
  m_pathq.reset();
  m_maxAgents = m_maxPath = m_typeCount = 0;
  if (!crowd.m_typeCount || crowd.m_maxAgents < 1) return false;
  m_agents.reset(new (std::nothrow) CrowdAgent[size_t(crowd.m_maxAgents)]());
  m_anims.reset(new (std::nothrow) CrowdAgentAnimation[size_t(crowd.m_maxAgents)]());
  m_pathq.reset(new (std::nothrow) PathQueueSnapshot[size_t(crowd.m_typeCount)]);
  if (!m_agents || !m_anims || !m_pathq) return false;
  for (int t = 0; t < crowd.m_typeCount; ++t)
    if (!m_pathq[t].init(crowd.m_maxPathResult)) return false;
  for (int i = 0; i < crowd.m_maxAgents; ++i)
    if (!m_agents[i].corridor.init(crowd.m_maxPathResult)) return false;
  m_maxAgents = crowd.m_maxAgents;
  m_maxPath = crowd.m_maxPathResult;
  m_typeCount = crowd.m_typeCount;
  return true;
}

size_t CrowdSnapshot::bytes() const {
  size_t queues = 0;
  for (int t = 0; t < m_typeCount; ++t) queues += m_pathq[t].bytes();
  return size_t(m_maxAgents) * (sizeof(CrowdAgent) + sizeof(CrowdAgentAnimation) + sizeof(PolyRef) * size_t(m_maxPath)) +
         queues;
}

Status Crowd::saveState(CrowdSnapshot& out) const {
  if (!m_typeCount || out.m_maxAgents != m_maxAgents || out.m_maxPath != m_maxPathResult ||
      out.m_typeCount != m_typeCount)
    return FAILURE;
  out.m_saved = false;
  for (int t = 0; t < m_typeCount; ++t)
    if (statusFailed(m_types[t].pathq.saveState(out.m_pathq[t]))) return FAILURE;
  for (int i = 0; i < m_maxAgents; ++i) {
    out.m_agents[i] = m_agents[i];
    out.m_anims[i] = m_agentAnims[i];
  }
  for (int i = 0; i < CROWD_MAX_OBSTAVOIDANCE_PARAMS; ++i) out.m_avoid[i] = m_obstacleQueryParams[i];
  for (int i = 0; i < CROWD_MAX_QUERY_FILTER_TYPE; ++i) out.m_filters[i] = m_filters[i];
  out.m_filterBase = m_filters;
  for (int t = 0; t < m_typeCount; ++t) out.m_meshes[t] = m_types[t].mesh;
  out.m_velocitySampleCount = m_velocitySampleCount;
  out.m_saved = true;
  return SUCCESS;
}

Status Crowd::restoreState(const CrowdSnapshot& in) {
  if (!m_typeCount || !in.m_saved || in.m_maxAgents != m_maxAgents || in.m_maxPath != m_maxPathResult ||
      in.m_typeCount != m_typeCount)
    return FAILURE;
  for (int t = 0; t < m_typeCount; ++t)
    if (in.m_meshes[t] != m_types[t].mesh) return FAILURE;
  // The saved requests name the saving crowd's filters: they become this crowd's.
  const QueryFilter* remap[2 * CROWD_MAX_QUERY_FILTER_TYPE];
  for (int i = 0; i < CROWD_MAX_QUERY_FILTER_TYPE; ++i) {
    remap[2 * i] = in.m_filterBase + i;
    remap[2 * i + 1] = m_filters + i;
  }
  // Filters first: a running search is resumed with them.
  for (int i = 0; i < CROWD_MAX_QUERY_FILTER_TYPE; ++i) m_filters[i] = in.m_filters[i];
  for (int i = 0; i < CROWD_MAX_OBSTAVOIDANCE_PARAMS; ++i) m_obstacleQueryParams[i] = in.m_avoid[i];
  for (int t = 0; t < m_typeCount; ++t) // sizes checked above
    m_types[t].pathq.restoreState(in.m_pathq[t], remap, CROWD_MAX_QUERY_FILTER_TYPE);
  for (int i = 0; i < m_maxAgents; ++i) {
    m_agents[i] = in.m_agents[i];
    m_agentAnims[i] = in.m_anims[i];
  }
  m_velocitySampleCount = in.m_velocitySampleCount;
  return SUCCESS;
}

} // namespace crowd
} // namespace nav
