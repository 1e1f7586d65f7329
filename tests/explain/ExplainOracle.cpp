#include "ExplainOracle.h"

#include "nav/explain/AddLink.h"

#include <DetourAlloc.h>
#include <DetourNavMeshQuery.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <vector>

namespace explaintest {

using namespace nav::explain;

void DtMeshDeleter::operator()(dtNavMesh* m) const { dtFreeNavMesh(m); }

DtMesh mirrorToDetour(const nav::NavMesh& mesh) {
  DtMesh dt(dtAllocNavMesh());
  if (!dt) return nullptr;
  const nav::NavMeshParams& p = mesh.getParams();
  dtNavMeshParams dp;
  std::memcpy(dp.orig, p.orig, sizeof dp.orig);
  dp.tileWidth = p.tileWidth;
  dp.tileHeight = p.tileHeight;
  dp.maxTiles = p.maxTiles;
  dp.maxPolys = p.maxPolys;
  if (dtStatusFailed(dt->init(&dp))) return nullptr;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (!t->header) continue;
    unsigned char* data = static_cast<unsigned char*>(dtAlloc(size_t(t->dataSize), DT_ALLOC_PERM));
    std::memcpy(data, t->data, size_t(t->dataSize));
    if (dtStatusFailed(dt->addTile(data, t->dataSize, DT_TILE_FREE_DATA, mesh.getTileRef(t), nullptr))) {
      dtFree(data);
      return nullptr;
    }
  }
  return dt;
}

DtAnswer detourRun(const dtNavMesh& mesh, const nav::QueryFilter& filter, const Query& query) {
  DtAnswer a;
  std::unique_ptr<dtNavMeshQuery, void (*)(dtNavMeshQuery*)> q(dtAllocNavMeshQuery(), dtFreeNavMeshQuery);
  if (!q || dtStatusFailed(q->init(&mesh, query.nodeBudget))) return a;
  dtQueryFilter f;
  f.setIncludeFlags(filter.getIncludeFlags());
  f.setExcludeFlags(filter.getExcludeFlags());
  for (int i = 0; i < DT_MAX_AREAS; ++i) f.setAreaCost(i, filter.getAreaCost(i));
  float spos[3], epos[3];
  dtPolyRef sref = 0, eref = 0;
  q->findNearestPoly(query.start.data(), query.halfExtents.data(), &f, &sref, spos);
  q->findNearestPoly(query.end.data(), query.halfExtents.data(), &f, &eref, epos);
  a.ran = true;
  a.startRef = sref;
  a.endRef = eref;
  if (!sref || !eref) return a;
  constexpr int kMax = 2048;
  std::vector<dtPolyRef> path(kMax);
  int n = 0;
  dtStatus st;
  if (query.options & nav::FINDPATH_ANY_ANGLE) {
    st = q->initSlicedFindPath(sref, eref, spos, epos, &f, DT_FINDPATH_ANY_ANGLE);
    while (dtStatusInProgress(st)) st = q->updateSlicedFindPath(1 << 20, nullptr);
    if (dtStatusSucceed(st)) st = q->finalizeSlicedFindPath(path.data(), &n, kMax);
  } else {
    st = q->findPath(sref, eref, spos, epos, &f, path.data(), &n, kMax);
  }
  if (dtStatusFailed(st) || n <= 0) return a;
  a.reached = !dtStatusDetail(st, DT_PARTIAL_RESULT) && path[size_t(n - 1)] == eref;
  float end[3] = {epos[0], epos[1], epos[2]};
  if (!a.reached) q->closestPointOnPoly(path[size_t(n - 1)], epos, end, nullptr);
  std::vector<float> pts(size_t(kMax) * 3);
  int ns = 0;
  q->findStraightPath(spos, end, path.data(), n, pts.data(), nullptr, nullptr, &ns, kMax);
  float len = 0;
  for (int k = 1; k < ns; ++k) {
    const float* p0 = &pts[size_t(k - 1) * 3];
    const float* p1 = &pts[size_t(k) * 3];
    len += std::sqrt((p1[0] - p0[0]) * (p1[0] - p0[0]) + (p1[1] - p0[1]) * (p1[1] - p0[1]) +
                     (p1[2] - p0[2]) * (p1[2] - p0[2]));
  }
  a.length = len;
  a.straight.assign(pts.begin(), pts.begin() + long(ns) * 3);
  return a;
}

std::string checkAgainstDetour(const nav::NavMesh& mesh, const dtNavMesh& dt, const nav::QueryFilter& filter,
                               const Query& query, const Cause& cause) {
  const Counterfactual& c = cause.counterfactual;
  std::ostringstream why;
  if (!c.checked) return "the counterfactual is not checked";
  nav::QueryFilter f = filter;
  Query q = query;
  nav::NavMesh copy;
  DtMesh copyDt;
  const dtNavMesh* use = &dt;
  switch (c.change) {
  case CHANGE_NODE_BUDGET: q.nodeBudget = c.nodeBudget; break;
  case CHANGE_FILTER:
    f.setIncludeFlags(c.include);
    f.setExcludeFlags(c.exclude);
    break;
  case CHANGE_AREA_COSTS:
    for (const auto& ac : c.areaCosts) f.setAreaCost(ac.first, ac.second);
    break;
  case CHANGE_HALF_EXTENTS: q.halfExtents = c.halfExtents; break;
  case CHANGE_ANY_ANGLE: q.options |= nav::FINDPATH_ANY_ANGLE; break;
  case CHANGE_LINK: {
    std::string w;
    if (nav::statusFailed(copyWithLinks(mesh, &c.link, 1, copy, &w))) return "copyWithLinks: " + w;
    copyDt = mirrorToDetour(copy);
    if (!copyDt) return "Detour refused the copy with the link";
    use = copyDt.get();
    break;
  }
  default: return std::string("no Detour check for the change ") + changeName(c.change);
  }
  const DtAnswer d = detourRun(*use, f, q);
  if (!d.ran) return "Detour could not run the query";
  const Answer& r = c.result;
  if (d.startRef != r.startRef || d.endRef != r.endRef)
    why << "end polys differ (Detour " << d.startRef << "/" << d.endRef << ", ours " << r.startRef << "/" << r.endRef
        << "); ";
  if (d.reached != r.reached) why << "reached differs (Detour " << d.reached << ", ours " << r.reached << "); ";
  if ((d.length < 0) != (r.length < 0) || std::fabs(d.length - r.length) > 1e-3f + 1e-4f * std::fabs(d.length))
    why << "length differs (Detour " << d.length << ", ours " << r.length << "); ";
  return why.str();
}

} // namespace explaintest
