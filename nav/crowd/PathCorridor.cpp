// PathCorridor.cpp: see PathCorridor.h. The float work is the navmesh queries'; what is here is list
// surgery on the corridor, in the order DetourCrowd 1.5.1 does it so the corridors stay identical.
#include "nav/crowd/PathCorridor.h"

#include "nav/NavMath.h"
#include "nav/StraightPathFunnel.h"

#include <cstring>
#include <new>

namespace nav {
namespace crowd {

namespace {

/// Furthest common polygon: the last path index (scanning path from pathLast toward pathFirst by
/// pathStep) that appears in visited, and the lowest visited index holding it. False if none.
bool furthestCommon(const PolyRef* path, int pathFirst, int pathEnd, int pathStep, const PolyRef* visited,
                    int nvisited, int* furthestPath, int* furthestVisited) {
  for (int i = pathFirst; i != pathEnd; i += pathStep) {
    // Visited is scanned from its end and the lowest matching index wins (a polygon can be in
    // visited twice when the move went back and forth).
    int found = -1;
    for (int j = nvisited - 1; j >= 0; --j)
      if (path[i] == visited[j]) found = j;
    if (found >= 0) {
      *furthestPath = i;
      *furthestVisited = found;
      return true;
    }
  }
  return false;
}

} // namespace

int mergeCorridorStartMoved(PolyRef* path, int npath, int maxPath, const PolyRef* visited, int nvisited) {
  int fp = -1, fv = -1;
  if (!furthestCommon(path, npath - 1, -1, -1, visited, nvisited, &fp, &fv)) return npath;

  // visited[fv..] reversed becomes the new start, followed by the path after fp. (Detour assumes
  // the visited part fits; here a longer one is cut to maxPath, keeping its current end.)
  const int req = navMin(nvisited - fv, maxPath);
  const int orig = navMin(fp + 1, npath);
  int size = navMax(0, npath - orig);
  if (req + size > maxPath) size = maxPath - req;
  if (size > 0) std::memmove(path + req, path + orig, size_t(size) * sizeof(PolyRef));
  for (int i = 0; i < req; ++i) path[i] = visited[(nvisited - 1) - i];
  return req + size;
}

int mergeCorridorEndMoved(PolyRef* path, int npath, int maxPath, const PolyRef* visited, int nvisited) {
  int fp = -1, fv = -1;
  if (!furthestCommon(path, 0, npath, 1, visited, nvisited, &fp, &fv)) return npath;

  // The path up to fp, then visited after fv.
  const int ppos = fp + 1;
  const int vpos = fv + 1;
  const int count = navMin(nvisited - vpos, maxPath - ppos);
  if (count > 0) std::memcpy(path + ppos, visited + vpos, size_t(count) * sizeof(PolyRef));
  return ppos + count;
}

int mergeCorridorStartShortcut(PolyRef* path, int npath, int maxPath, const PolyRef* visited, int nvisited) {
  int fp = -1, fv = -1;
  if (!furthestCommon(path, npath - 1, -1, -1, visited, nvisited, &fp, &fv)) return npath;

  // visited[0..fv) replaces path[0..fp) (cut to maxPath, which Detour assumes it fits).
  const int req = navMin(fv, maxPath);
  if (req <= 0) return npath;
  const int orig = fp;
  int size = navMax(0, npath - orig);
  if (req + size > maxPath) size = maxPath - req;
  if (size > 0) std::memmove(path + req, path + orig, size_t(size) * sizeof(PolyRef));
  for (int i = 0; i < req; ++i) path[i] = visited[i];
  return req + size;
}

bool PathCorridor::init(int maxPath) {
  if (maxPath < 1) return false;
  m_path.reset(new (std::nothrow) PolyRef[size_t(maxPath)]);
  if (!m_path) return false;
  m_npath = 0;
  m_maxPath = maxPath;
  return true;
}

void PathCorridor::reset(PolyRef ref, const float* pos) {
  if (!m_path) return;
  vcopy(m_pos, pos);
  vcopy(m_target, pos);
  m_path[0] = ref;
  m_npath = 1;
}

int PathCorridor::findCorners(float* cornerVerts, uint8_t* cornerFlags, PolyRef* cornerPolys, int maxCorners,
                              NavMeshQuery* navquery, const QueryFilter* filter) {
  return findCorners(cornerVerts, cornerFlags, cornerPolys, maxCorners, navquery, filter, nullptr);
}

int PathCorridor::findCorners(float* cornerVerts, uint8_t* cornerFlags, PolyRef* cornerPolys, int maxCorners,
                              NavMeshQuery* navquery, const QueryFilter* /*filter*/, PortalCache* portals) {
  if (!m_path || m_npath == 0 || !navquery) return 0;
  // Corners this close (2D) to the position count as reached.
  static const float MIN_TARGET_DIST = 0.01f;

  int ncorners = 0;
  if (portals) {
    // findStraightPath(..., 0) with the portals from the crowd's cache.
    portals->sync(navquery);
    CachedCorridorPortals cached{navquery, portals, m_path.get()};
    straightPathFunnel(*navquery, m_pos, m_target, m_path.get(), m_npath, cornerVerts, cornerFlags, cornerPolys,
                       &ncorners, maxCorners, cached, false, NoStraightPathCrossings());
  } else {
    navquery->findStraightPath(m_pos, m_target, m_path.get(), m_npath, cornerVerts, cornerFlags, cornerPolys,
                               &ncorners, maxCorners);
  }

  // Drop the leading corners already reached (never an off-mesh connection's start).
  int skip = 0;
  while (skip < ncorners && !(cornerFlags[skip] & STRAIGHTPATH_OFFMESH_CONNECTION) &&
         vdist2DSqr(&cornerVerts[skip * 3], m_pos) <= sqr(MIN_TARGET_DIST))
    ++skip;
  if (skip > 0) {
    ncorners -= skip;
    if (ncorners > 0) {
      std::memmove(cornerFlags, cornerFlags + skip, size_t(ncorners));
      std::memmove(cornerPolys, cornerPolys + skip, size_t(ncorners) * sizeof(PolyRef));
      std::memmove(cornerVerts, cornerVerts + skip * 3, size_t(ncorners) * 3 * sizeof(float));
    }
  }

  // Nothing after an off-mesh connection: the agent has to take it first.
  for (int i = 0; i < ncorners; ++i) {
    if (cornerFlags[i] & STRAIGHTPATH_OFFMESH_CONNECTION) {
      ncorners = i + 1;
      break;
    }
  }
  return ncorners;
}

void PathCorridor::optimizePathVisibility(const float* next, float pathOptimizationRange, NavMeshQuery* navquery,
                                          const QueryFilter* filter) {
  if (!m_path || m_npath == 0 || !navquery) return;
  float goal[3];
  vcopy(goal, next);
  float dist = vdist2D(m_pos, goal);
  if (dist < 0.01f) return;

  // Overshoot a little (helps open fields on tiled meshes), then scale the ray to the range.
  dist = navMin(dist + 0.01f, pathOptimizationRange);
  float delta[3];
  vsub(delta, goal, m_pos);
  vmad(goal, m_pos, delta, pathOptimizationRange / dist);

  static const int MAX_RES = 32;
  PolyRef res[MAX_RES];
  float t, norm[3];
  int nres = 0;
  navquery->raycast(m_path[0], m_pos, goal, filter, &t, norm, res, &nres, MAX_RES);
  if (nres > 1 && t > 0.99f) m_npath = mergeCorridorStartShortcut(m_path.get(), m_npath, m_maxPath, res, nres);
}

bool PathCorridor::optimizePathTopology(NavMeshQuery* navquery, const QueryFilter* filter) {
  if (!m_path || !navquery || !filter) return false;
  if (m_npath < 3) return false;

  static const int MAX_ITER = 32;
  static const int MAX_RES = 32;
  PolyRef res[MAX_RES];
  int nres = 0;
  navquery->initSlicedFindPath(m_path[0], m_path[m_npath - 1], m_pos, m_target, filter);
  navquery->updateSlicedFindPath(MAX_ITER, nullptr);
  const Status status = navquery->finalizeSlicedFindPathPartial(m_path.get(), m_npath, res, &nres, MAX_RES);
  if (statusSucceeded(status) && nres > 0) {
    m_npath = mergeCorridorStartShortcut(m_path.get(), m_npath, m_maxPath, res, nres);
    return true;
  }
  return false;
}

bool PathCorridor::moveOverOffmeshConnection(PolyRef offMeshConRef, PolyRef* refs, float* startPos, float* endPos,
                                             NavMeshQuery* navquery) {
  if (!m_path || m_npath == 0 || !navquery) return false;

  // Walk to the connection: npos ends one past it, prevRef is the polygon before it.
  PolyRef prevRef = 0, polyRef = m_path[0];
  int npos = 0;
  while (npos < m_npath && polyRef != offMeshConRef) {
    prevRef = polyRef;
    polyRef = m_path[npos];
    npos++;
  }
  if (npos == m_npath) return false;

  // The corridor now starts after the connection.
  for (int i = npos; i < m_npath; ++i) m_path[i - npos] = m_path[i];
  m_npath -= npos;

  refs[0] = prevRef;
  refs[1] = polyRef;
  const NavMesh* nav = navquery->getAttachedNavMesh();
  if (!nav) return false;
  if (statusSucceeded(nav->getOffMeshConnectionPolyEndPoints(refs[0], refs[1], startPos, endPos))) {
    vcopy(m_pos, endPos);
    return true;
  }
  return false;
}

bool PathCorridor::fixPathStart(PolyRef safeRef, const float* safePos) {
  if (!m_path) return false;
  vcopy(m_pos, safePos);
  if (m_npath < 3 && m_npath > 0) {
    // Room is needed for (safe, gap, last); maxPath < 3 cannot hold it.
    if (m_maxPath < 3) {
      m_path[0] = safeRef;
      m_npath = 1;
      return true;
    }
    m_path[2] = m_path[m_npath - 1];
    m_path[0] = safeRef;
    m_path[1] = 0;
    m_npath = 3;
  } else {
    m_path[0] = safeRef;
    if (m_maxPath > 1) m_path[1] = 0;
  }
  return true;
}

bool PathCorridor::trimInvalidPath(PolyRef safeRef, const float* safePos, NavMeshQuery* navquery,
                                   const QueryFilter* filter) {
  if (!m_path || !navquery || !filter) return false;

  // Keep the valid prefix.
  int n = 0;
  while (n < m_npath && navquery->isValidPolyRef(m_path[n], filter)) n++;

  if (n == m_npath) return true; // all valid
  if (n == 0) {
    vcopy(m_pos, safePos);
    m_path[0] = safeRef;
    m_npath = 1;
  } else {
    m_npath = n;
  }

  // The target moves onto the new last polygon.
  float tgt[3];
  vcopy(tgt, m_target);
  navquery->closestPointOnPolyBoundary(m_path[m_npath - 1], tgt, m_target);
  return true;
}

bool PathCorridor::isValid(int maxLookAhead, NavMeshQuery* navquery, const QueryFilter* filter) {
  if (!navquery) return false;
  const int n = navMin(m_npath, maxLookAhead);
  for (int i = 0; i < n; ++i)
    if (!navquery->isValidPolyRef(m_path[i], filter)) return false;
  return true;
}

bool PathCorridor::movePosition(const float* npos, NavMeshQuery* navquery, const QueryFilter* filter) {
  if (!m_path || m_npath == 0 || !navquery) return false;

  static const int MAX_VISITED = 16;
  float result[3];
  PolyRef visited[MAX_VISITED];
  int nvisited = 0;
  const Status status =
      navquery->moveAlongSurface(m_path[0], m_pos, npos, filter, result, visited, &nvisited, MAX_VISITED);
  if (!statusSucceeded(status)) return false;

  m_npath = mergeCorridorStartMoved(m_path.get(), m_npath, m_maxPath, visited, nvisited);
  // Stay on the surface: the height of the (new) first polygon, the old height when off it.
  float h = m_pos[1];
  navquery->getPolyHeight(m_path[0], result, &h);
  result[1] = h;
  vcopy(m_pos, result);
  return true;
}

bool PathCorridor::moveTargetPosition(const float* npos, NavMeshQuery* navquery, const QueryFilter* filter) {
  if (!m_path || m_npath == 0 || !navquery) return false;

  static const int MAX_VISITED = 16;
  float result[3];
  PolyRef visited[MAX_VISITED];
  int nvisited = 0;
  const Status status = navquery->moveAlongSurface(m_path[m_npath - 1], m_target, npos, filter, result, visited,
                                                   &nvisited, MAX_VISITED);
  if (!statusSucceeded(status)) return false;

  m_npath = mergeCorridorEndMoved(m_path.get(), m_npath, m_maxPath, visited, nvisited);
  // As in Detour, the target keeps moveAlongSurface's height (no getPolyHeight here).
  vcopy(m_target, result);
  return true;
}

void PathCorridor::setCorridor(const float* target, const PolyRef* polys, int npath) {
  if (!m_path || npath <= 0) return;
  vcopy(m_target, target);
  const int n = navMin(npath, m_maxPath);
  std::memcpy(m_path.get(), polys, size_t(n) * sizeof(PolyRef));
  m_npath = n;
}

PathCorridor& PathCorridor::operator=(const PathCorridor& o) {
  if (this == &o) return *this;
  vcopy(m_pos, o.m_pos);
  vcopy(m_target, o.m_target);
  m_npath = m_path ? navMin(o.m_npath, m_maxPath) : 0;
  if (m_npath > 0) std::memcpy(m_path.get(), o.m_path.get(), sizeof(PolyRef) * size_t(m_npath));
  return *this;
}

} // namespace crowd
} // namespace nav
