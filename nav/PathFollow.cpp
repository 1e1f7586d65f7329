#include "nav/PathFollow.h"

#include "nav/NavMath.h"
#include "nav/StraightPathFunnel.h"

namespace nav {

namespace {
bool inRange(const float* v1, const float* v2, float r, float h) {
  const float dx = v2[0] - v1[0];
  const float dy = v2[1] - v1[1];
  const float dz = v2[2] - v1[2];
  return (dx * dx + dz * dz) < r * r && std::fabs(dy) < h;
}
} // namespace

int fixupCorridor(PolyRef* path, int npath, int maxPath, const PolyRef* visited, int nvisited) {
  int furthestPath = -1;
  int furthestVisited = -1;
  // A 64-bit filter on the refs' low bits (the poly index) lets most of path skip the inner scan.
  uint64_t visitedBits = 0;
  for (int j = 0; j < nvisited; ++j) visitedBits |= uint64_t(1) << (visited[j] & 63);
  // The furthest polygon of path that was visited (and its earliest position in visited).
  for (int i = npath - 1; i >= 0; --i) {
    if (!((visitedBits >> (path[i] & 63)) & 1)) continue;
    bool found = false;
    for (int j = nvisited - 1; j >= 0; --j)
      if (path[i] == visited[j]) {
        furthestPath = i;
        furthestVisited = j;
        found = true;
      }
    if (found) break;
  }
  if (furthestPath == -1 || furthestVisited == -1) return npath;

  const int req = nvisited - furthestVisited;
  const int orig = navMin(furthestPath + 1, npath);
  int size = navMax(0, npath - orig);
  if (req + size > maxPath) size = maxPath - req;
  if (size > 0) {
    if (req > orig)
      for (int k = size - 1; k >= 0; --k) path[req + k] = path[orig + k];
    else
      for (int k = 0; k < size; ++k) path[req + k] = path[orig + k];
  }
  for (int i = 0; i < req; ++i) path[i] = visited[(nvisited - 1) - i];
  return req + size;
}

int fixupShortcuts(PolyRef* path, int npath, const NavMesh* nav) {
  if (npath < 3) return npath;
  constexpr int MAX_NEIS = 16;
  PolyRef neis[MAX_NEIS];
  int nneis = 0;
  const MeshTile* tile = nullptr;
  const Poly* poly = nullptr;
  if (statusFailed(nav->getTileAndPolyByRef(path[0], &tile, &poly))) return npath;
  for (uint32_t k = poly->firstLink; k != NULL_LINK; k = tile->links[k].next) {
    const Link& link = tile->links[k];
    if (link.ref != 0 && nneis < MAX_NEIS) neis[nneis++] = link.ref;
  }
  constexpr int MAX_LOOK_AHEAD = 6;
  int cut = 0;
  for (int i = navMin(MAX_LOOK_AHEAD, npath) - 1; i > 1 && cut == 0; i--)
    for (int j = 0; j < nneis; j++)
      if (path[i] == neis[j]) {
        cut = i;
        break;
      }
  if (cut > 1) {
    const int offset = cut - 1;
    npath -= offset;
    for (int i = 1; i < npath; i++) path[i] = path[i + offset];
  }
  return npath;
}

// closestPointOnPolyBoundary for the funnel: the start when the last step proved it inside its poly
// (the answer is the point itself), the end from the last step's answer while its poly is the same.
struct PathFollower::CachedBoundary {
  PathFollower* f;
  const NavMesh* getAttachedNavMesh() const { return f->m_query->getAttachedNavMesh(); }
  Status closestPointOnPolyBoundary(PolyRef ref, const float* pos, float* closest) const {
    if (pos == f->m_iterPos && f->m_startInside && f->m_npolys > 0 && ref == f->m_polys[0]) {
      vcopy(closest, pos);
      return SUCCESS;
    }
    if (pos == f->m_targetPos && ref == f->m_endRef && ref) {
      vcopy(closest, f->m_endClosest);
      return SUCCESS;
    }
    const Status st = f->m_query->closestPointOnPolyBoundary(ref, pos, closest);
    if (pos == f->m_targetPos && statusSucceeded(st)) {
      f->m_endRef = ref;
      vcopy(f->m_endClosest, closest);
    }
    return st;
  }
};

void PathFollower::forgetMesh() {
  m_portals.clear();
  m_startInside = false;
  m_endRef = 0;
  const NavMesh* nav = m_query ? m_query->getAttachedNavMesh() : nullptr;
  m_meshGeneration = nav ? nav->generation() : 0;
}

Status PathFollower::init(const NavMeshQuery* query, const QueryFilter* filter, PolyRef startRef,
                          const float* startPos, const float* endPos, const PolyRef* path, int pathSize,
                          int maxPoints) {
  m_done = true;
  m_count = 0;
  m_nStepPts = 0;
  m_npolys = 0;
  m_nSteerPath = 0;
  if (!query || !query->getAttachedNavMesh() || !filter || !startPos || !endPos || !path || pathSize <= 0 ||
      maxPoints <= 0 || !visfinite(startPos) || !visfinite(endPos))
    return FAILURE | INVALID_PARAM;
  m_query = query;
  m_filter = filter;
  m_maxPoints = maxPoints;
  forgetMesh();
  m_npolys = navMin(pathSize, int(MAX_CORRIDOR));
  for (int i = 0; i < m_npolys; ++i) m_polys[i] = path[i];
  if (statusFailed(query->closestPointOnPoly(startRef, startPos, m_iterPos, nullptr))) return FAILURE | INVALID_PARAM;
  if (statusFailed(query->closestPointOnPoly(m_polys[m_npolys - 1], endPos, m_targetPos, nullptr)))
    return FAILURE | INVALID_PARAM;
  emit(m_iterPos);
  m_done = false;
  return SUCCESS;
}

void PathFollower::emit(const float* p) {
  if (m_count >= m_maxPoints) return;
  vcopy(&m_stepPts[m_nStepPts * 3], p);
  ++m_nStepPts;
  ++m_count;
}

bool PathFollower::getSteerTarget() {
  m_nSteerPath = 0;
  // The mesh changed under a follower kept between frames (the viewer): nothing cached holds.
  if (m_query->getAttachedNavMesh()->generation() != m_meshGeneration) forgetMesh();
  // findStraightPath(m_iterPos, m_targetPos, m_polys, m_npolys, ..., MAX_STEP_POINTS), same answer.
  m_portals.sync(m_query);
  CachedCorridorPortals portals{m_query, &m_portals, m_polys};
  straightPathFunnel(CachedBoundary{this}, m_iterPos, m_targetPos, m_polys, m_npolys, m_steerPath,
                     m_steerPathFlags, m_steerPathRefs, &m_nSteerPath, MAX_STEP_POINTS, portals, false,
                     NoStraightPathCrossings{});
  if (!m_nSteerPath) return false;
  // The first corner further than slop, stopping at an off-mesh connection.
  int ns = 0;
  while (ns < m_nSteerPath) {
    if ((m_steerPathFlags[ns] & STRAIGHTPATH_OFFMESH_CONNECTION) ||
        !inRange(&m_steerPath[ns * 3], m_iterPos, slop, 1000.0f))
      break;
    ++ns;
  }
  if (ns >= m_nSteerPath) return false;
  vcopy(m_steerPos, &m_steerPath[ns * 3]);
  m_steerPos[1] = m_iterPos[1];
  m_steerFlags = m_steerPathFlags[ns];
  m_steerRef = m_steerPathRefs[ns];
  return true;
}

bool PathFollower::step() {
  m_nStepPts = 0;
  if (m_done) return false;
  if (!m_npolys || m_count >= m_maxPoints || !getSteerTarget()) {
    m_done = true;
    return false;
  }
  const bool endOfPath = (m_steerFlags & STRAIGHTPATH_END) != 0;
  const bool offMeshConnection = (m_steerFlags & STRAIGHTPATH_OFFMESH_CONNECTION) != 0;

  // Move STEP_SIZE toward the steer target, not past the end or an off-mesh link.
  float delta[3];
  vsub(delta, m_steerPos, m_iterPos);
  float len = std::sqrt(vdot(delta, delta));
  if ((endOfPath || offMeshConnection) && len < stepSize) len = 1;
  else len = stepSize / len;
  float moveTgt[3];
  vmad(moveTgt, m_iterPos, delta, len);

  float result[3];
  PolyRef visited[16];
  int nvisited = 0;
  bool endInside = false;
  const Status moved = m_query->moveAlongSurface(m_polys[0], m_iterPos, moveTgt, m_filter, result, visited,
                                                 &nvisited, 16, &endInside);
  m_npolys = fixupCorridor(m_polys, m_npolys, MAX_CORRIDOR, visited, nvisited);
  m_npolys = fixupShortcuts(m_polys, m_npolys, m_query->getAttachedNavMesh());
  // The moved point is inside m_polys[0] when moveAlongSurface found the target inside the last
  // poly it visited and the corridor now starts there (a full visited buffer lost that poly).
  m_startInside = endInside && !(moved & BUFFER_TOO_SMALL) && nvisited > 0 && m_npolys > 0 &&
                  m_polys[0] == visited[nvisited - 1];
  const MeshTile* tile = nullptr;
  const Poly* poly = nullptr;
  if (m_startInside && statusSucceeded(m_query->getAttachedNavMesh()->getTileAndPolyByRef(m_polys[0], &tile, &poly)) &&
      poly->getType() == POLYTYPE_GROUND) {
    // getPolyHeight's answer without its inside test.
    m_query->getAttachedNavMesh()->getPolyHeightInside(tile, poly, result, &result[1]);
  } else {
    m_startInside = false;
    float h = 0;
    if (statusSucceeded(m_query->getPolyHeight(m_polys[0], result, &h))) result[1] = h;
  }
  vcopy(m_iterPos, result);

  if (endOfPath && inRange(m_iterPos, m_steerPos, slop, 1.0f)) {
    // Reached the end.
    vcopy(m_iterPos, m_targetPos);
    emit(m_iterPos);
    m_done = true;
    return true;
  }
  if (offMeshConnection && inRange(m_iterPos, m_steerPos, slop, 1.0f)) {
    // Reached an off-mesh connection: advance the corridor over it and jump.
    PolyRef prevRef = 0, polyRef = m_polys[0];
    int npos = 0;
    while (npos < m_npolys && polyRef != m_steerRef) {
      prevRef = polyRef;
      polyRef = m_polys[npos];
      ++npos;
    }
    for (int i = npos; i < m_npolys; ++i) m_polys[i - npos] = m_polys[i];
    m_npolys -= npos;
    float startPos[3], endPos[3];
    if (statusSucceeded(
            m_query->getAttachedNavMesh()->getOffMeshConnectionPolyEndPoints(prevRef, polyRef, startPos, endPos))) {
      if (m_count < m_maxPoints) {
        emit(startPos);
        // RecastDemo draws the path as dashes: an extra point hides the jump's dash.
        if (m_count & 1) emit(startPos);
      }
      vcopy(m_iterPos, endPos);
      m_startInside = false;
      float eh = 0.0f;
      if (m_npolys > 0 && statusSucceeded(m_query->getPolyHeight(m_polys[0], m_iterPos, &eh))) m_iterPos[1] = eh;
    }
  }
  emit(m_iterPos);
  return true;
}

Status findSmoothPath(const NavMeshQuery* query, const QueryFilter* filter, PolyRef startRef, const float* startPos,
                      const float* endPos, const PolyRef* path, int pathSize, float* smoothPath, int* smoothCount,
                      int maxPoints) {
  if (!smoothCount) return FAILURE | INVALID_PARAM;
  *smoothCount = 0;
  if (!smoothPath || maxPoints <= 0) return FAILURE | INVALID_PARAM;
  // The follower is big (its corridor); keep one per thread instead of on the stack each call.
  static thread_local PathFollower follower;
  const Status st = follower.init(query, filter, startRef, startPos, endPos, path, pathSize, maxPoints);
  if (statusFailed(st)) return st;
  int n = 0;
  for (;;) {
    for (int i = 0; i < follower.stepPointCount(); ++i) vcopy(&smoothPath[(n++) * 3], &follower.stepPoints()[i * 3]);
    if (!follower.step()) break;
  }
  *smoothCount = n;
  return SUCCESS | (n >= maxPoints ? BUFFER_TOO_SMALL : 0);
}

} // namespace nav
