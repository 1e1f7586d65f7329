#include "app/model/AgentCompare.h"

#include "nav/NavMath.h"
#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"

#include <algorithm>

namespace navbench {

const char* agentPathStatusName(AgentPathStatus s) {
  switch (s) {
  case AgentPathStatus::Complete: return "complete";
  case AgentPathStatus::Partial: return "partial";
  case AgentPathStatus::None: break;
  }
  return "no path";
}

AgentComparer::AgentComparer() : m_polys(kMaxPath), m_straight(size_t(kMaxPath) * 3) {}

void AgentComparer::run(nav::NavMeshQuery& q, const nav::QueryFilter& filter, const float* start, const float* end,
                        const float* extents, AgentPath& out) {
  out.startRef = out.endRef = 0;
  out.pathStatus = out.straightStatus = 0;
  out.polys.clear();
  out.straight.clear();
  out.length = 0;
  out.status = AgentPathStatus::None;
  out.reason.clear();
  float snapped[3];
  q.findNearestPoly(start, extents, &filter, &out.startRef, snapped);
  q.findNearestPoly(end, extents, &filter, &out.endRef, snapped);
  if (!out.startRef) {
    out.reason = "no navmesh within the extents of the start";
    return;
  }
  if (!out.endRef) {
    out.reason = "no navmesh within the extents of the end";
    return;
  }
  int npolys = 0;
  out.pathStatus = q.findPath(out.startRef, out.endRef, start, end, &filter, m_polys.data(), &npolys, kMaxPath);
  out.polys.assign(m_polys.begin(), m_polys.begin() + npolys);
  if (nav::statusFailed(out.pathStatus) || npolys == 0) {
    out.reason = "the search failed";
    return;
  }
  int ncorners = 0;
  out.straightStatus = q.findStraightPath(start, end, m_polys.data(), npolys, m_straight.data(), nullptr, nullptr, &ncorners, kMaxPath);
  out.straight.assign(m_straight.begin(), m_straight.begin() + ncorners * 3);
  for (int i = 1; i < ncorners; ++i) out.length += nav::vdist(&m_straight[size_t(i - 1) * 3], &m_straight[size_t(i) * 3]);
  if (out.polys.back() == out.endRef) {
    out.status = AgentPathStatus::Complete;
    return;
  }
  out.status = AgentPathStatus::Partial;
  if (nav::statusDetail(out.pathStatus, nav::OUT_OF_NODES))
    out.reason = "out of nodes (" + std::to_string(q.nodePool().getMaxNodes()) + ")";
  else
    out.reason = "the end is on another island";
}

std::vector<nav::PolyRef> floodPolys(const nav::NavMesh& mesh, const nav::QueryFilter& filter, nav::PolyRef startRef) {
  std::vector<nav::PolyRef> out;
  const nav::MeshTile* tile = nullptr;
  const nav::Poly* poly = nullptr;
  if (nav::statusFailed(mesh.getTileAndPolyByRef(startRef, &tile, &poly))) return out;
  std::vector<nav::PolyRef> seen; // sorted
  out.push_back(startRef);
  seen.push_back(startRef);
  for (size_t i = 0; i < out.size(); ++i) {
    mesh.getTileAndPolyByRefUnsafe(out[i], &tile, &poly);
    for (uint32_t l = poly->firstLink; l != nav::NULL_LINK; l = tile->links[l].next) {
      const nav::PolyRef nb = tile->links[l].ref;
      if (!nb) continue;
      auto it = std::lower_bound(seen.begin(), seen.end(), nb);
      if (it != seen.end() && *it == nb) continue;
      const nav::MeshTile* nt = nullptr;
      const nav::Poly* np = nullptr;
      mesh.getTileAndPolyByRefUnsafe(nb, &nt, &np);
      if (!filter.passFilter(nb, nt, np)) continue;
      seen.insert(it, nb);
      out.push_back(nb);
    }
  }
  return out;
}

bool polyCentre(const nav::NavMesh& mesh, nav::PolyRef ref, float* centre) {
  const nav::MeshTile* tile = nullptr;
  const nav::Poly* poly = nullptr;
  if (nav::statusFailed(mesh.getTileAndPolyByRef(ref, &tile, &poly)) || poly->vertCount == 0) return false;
  centre[0] = centre[1] = centre[2] = 0;
  for (int i = 0; i < poly->vertCount; ++i)
    for (int k = 0; k < 3; ++k) centre[k] += tile->verts[poly->verts[i] * 3 + k];
  for (int k = 0; k < 3; ++k) centre[k] /= float(poly->vertCount);
  return true;
}

std::vector<nav::PolyRef> polysOnlyAReaches(nav::NavMeshQuery& qa, nav::NavMeshQuery& qb, const nav::QueryFilter& filter,
                                           const float* start, const float* startExtents, const float* followExtents,
                                           int* reachedA) {
  std::vector<nav::PolyRef> out;
  if (reachedA) *reachedA = 0;
  const nav::NavMesh* ma = qa.getAttachedNavMesh();
  const nav::NavMesh* mb = qb.getAttachedNavMesh();
  if (!ma || !mb) return out;
  nav::PolyRef sa = 0, sb = 0;
  float snapped[3];
  qa.findNearestPoly(start, startExtents, &filter, &sa, snapped);
  if (!sa) return out;
  qb.findNearestPoly(start, startExtents, &filter, &sb, snapped);
  std::vector<nav::PolyRef> floodB = sb ? floodPolys(*mb, filter, sb) : std::vector<nav::PolyRef>();
  std::sort(floodB.begin(), floodB.end());
  for (const nav::PolyRef ref : floodPolys(*ma, filter, sa)) {
    const nav::MeshTile* tile = nullptr;
    const nav::Poly* poly = nullptr;
    ma->getTileAndPolyByRefUnsafe(ref, &tile, &poly);
    if (poly->getType() != nav::POLYTYPE_GROUND) continue;
    if (reachedA) ++*reachedA;
    float c[3];
    polyCentre(*ma, ref, c);
    nav::PolyRef rb = 0;
    qb.findNearestPoly(c, followExtents, &filter, &rb, snapped);
    if (!rb || !std::binary_search(floodB.begin(), floodB.end(), rb)) out.push_back(ref);
  }
  return out;
}

} // namespace navbench
