// LocalBoundary.cpp: see LocalBoundary.h.
#include "nav/crowd/LocalBoundary.h"

#include "nav/NavMath.h"

#include <cfloat>
#include <cstring>

namespace nav {
namespace crowd {

LocalBoundary::LocalBoundary() { vset(m_center, FLT_MAX, FLT_MAX, FLT_MAX); }

void LocalBoundary::reset() {
  vset(m_center, FLT_MAX, FLT_MAX, FLT_MAX);
  m_npolys = 0;
  m_nsegs = 0;
  m_validNav = nullptr;
}

// Insertion into the distance-sorted list: a tie goes before the equal segment, a segment beyond
// the last of a full list is dropped, and a full list loses its last one.
void LocalBoundary::addSegment(float dist, const float* s) {
  Segment* seg = nullptr;
  if (m_nsegs == 0) {
    seg = &m_segs[0];
  } else if (dist >= m_segs[m_nsegs - 1].d) {
    if (m_nsegs >= MAX_LOCAL_SEGS) return;
    seg = &m_segs[m_nsegs];
  } else {
    int i = 0;
    while (i < m_nsegs && !(dist <= m_segs[i].d)) ++i;
    const int tgt = i + 1;
    const int n = navMin(m_nsegs - i, MAX_LOCAL_SEGS - tgt);
    if (n > 0) std::memmove(&m_segs[tgt], &m_segs[i], sizeof(Segment) * size_t(n));
    seg = &m_segs[i];
  }
  seg->d = dist;
  std::memcpy(seg->s, s, sizeof(float) * 6);
  if (m_nsegs < MAX_LOCAL_SEGS) m_nsegs++;
}

void LocalBoundary::update(PolyRef ref, const float* pos, float collisionQueryRange, NavMeshQuery* navquery,
                           const QueryFilter* filter) {
  static const int MAX_SEGS_PER_POLY = VERTS_PER_POLYGON * 3;

  if (!ref || !navquery) {
    reset();
    return;
  }
  vcopy(m_center, pos);

  // The non-overlapping polygons around pos, then every wall of each within range.
  m_npolys = 0;
  m_validNav = nullptr;
  navquery->findLocalNeighbourhood(ref, pos, collisionQueryRange, filter, m_polys, nullptr, &m_npolys,
                                   MAX_LOCAL_POLYS);
  m_nsegs = 0;
  float segs[MAX_SEGS_PER_POLY * 6];
  for (int j = 0; j < m_npolys; ++j) {
    int nsegs = 0;
    navquery->getPolyWallSegments(m_polys[j], filter, segs, nullptr, &nsegs, MAX_SEGS_PER_POLY);
    for (int k = 0; k < nsegs; ++k) {
      const float* s = &segs[k * 6];
      float tseg;
      const float distSqr = distancePtSegSqr2D(pos, s, s + 3, tseg);
      if (distSqr > sqr(collisionQueryRange)) continue;
      addSegment(distSqr, s);
    }
  }
}

bool LocalBoundary::isValid(NavMeshQuery* navquery, const QueryFilter* filter) {
  if (!m_npolys || !navquery) return false;
  // isValidPolyRef reads the tiles, the salts and the poly flags, all covered by the mesh's
  // generation, and the filter's include/exclude flags (unless a hook replaces the test): with
  // those as they were when every polygon last passed, they all pass again.
  const NavMesh* nav = navquery->getAttachedNavMesh();
  const bool plain = !filter || !filter->passFn();
  if (m_validNav && nav == m_validNav && nav->generation() == m_validGeneration && filter == m_validFilter && plain &&
      (!filter || (filter->getIncludeFlags() == m_validInclude && filter->getExcludeFlags() == m_validExclude)))
    return true;
  for (int i = 0; i < m_npolys; ++i)
    if (!navquery->isValidPolyRef(m_polys[i], filter)) return false;
  m_validNav = plain ? nav : nullptr;
  if (nav) m_validGeneration = nav->generation();
  m_validFilter = filter;
  m_validInclude = filter ? filter->getIncludeFlags() : 0;
  m_validExclude = filter ? filter->getExcludeFlags() : 0;
  return true;
}

} // namespace crowd
} // namespace nav
