// HierPlannerView.cpp: HierPlanner's inspection block (HierPlanner.h, end of the class): the graph
// read back for drawing, and findPath's abstract search and refinement filter run piece by piece
// for the viewer's A* Stepper. The abstract loop is findPath's (HierPlanner::abstractSearch) with
// a pop limit; tests/model/HierModelTest.cpp checks that both give the same pops and path.
#include "nav/HierPlanner.h"
#include "nav/NavMath.h"

#include <algorithm>
#include <cmath>

namespace nav {

namespace {
constexpr float VIEW_INF = 3.4e38f;
} // namespace

int HierPlanner::clusterOfPoly(PolyRef ref) const {
  if (!m_mesh || !m_mesh->isValidPolyRef(ref)) return -1;
  const uint32_t t = m_mesh->decodePolyIdTile(ref);
  return t < m_slots.size() ? m_slots[t].cluster : -1;
}

int HierPlanner::searchAbstract(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos, int maxPops,
                                bool* finished, bool* reached, int* lastPopped) {
  *finished = *reached = false;
  *lastPopped = -1;
  m_viewGoal = -1;
  if (!m_mesh || !startPos || !endPos) return -1;
  if (m_mesh->generation() != m_generation) update();
  if (!m_queryReady || !m_mesh->isValidPolyRef(startRef) || !m_mesh->isValidPolyRef(endRef)) return -1;
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(startPos[k]) || !std::isfinite(endPos[k])) return -1;
  const int startCluster = clusterOfPoly(startRef), endCluster = clusterOfPoly(endRef);
  if (startCluster < 0 || endCluster < 0) return -1;
  const uint32_t startComp = compOf(startRef), endComp = compOf(endRef);
  m_viewStartCluster = startCluster;
  m_viewEndCluster = endCluster;
  const int S = m_nodeCount, G = m_nodeCount + 1;
  if (++m_searchStamp == 0) {
    std::fill(m_stamp.begin(), m_stamp.end(), 0u);
    m_searchStamp = 1;
  }
  m_heapSize = 0;
  relax(S, 0.0f, -1, vdist(startPos, endPos));
  const Cluster& sc = m_clusters[size_t(startCluster)];
  int pops = 0;
  while (m_heapSize > 0 && pops < maxPops) {
    const int n = popMin();
    ++pops;
    *lastPopped = n;
    if (n == G) {
      *finished = *reached = true;
      m_viewGoal = G;
      return pops;
    }
    const float gn = m_g[size_t(n)];
    if (n == S) {
      if (startCluster == endCluster && startComp == endComp) relax(G, vdist(startPos, endPos), S, 0.0f);
      for (size_t e = 0; e < sc.ents.size(); ++e)
        if (sc.ents[e].component == int32_t(startComp))
          relax(int(m_nodeBase[size_t(startCluster)] + e), vdist(startPos, sc.ents[e].pos), S,
                vdist(sc.ents[e].pos, endPos));
      continue;
    }
    const int c = m_nodeCluster[size_t(n)];
    const Cluster& cl = m_clusters[size_t(c)];
    const Entrance& en = cl.ents[size_t(n) - m_nodeBase[size_t(c)]];
    if (c == endCluster && en.component == int32_t(endComp)) relax(G, gn + vdist(en.pos, endPos), n, 0.0f);
    for (uint32_t k = 0; k < en.intraCount; ++k) {
      const Edge& e = cl.intra[en.firstIntra + k];
      relax(int(m_nodeBase[size_t(c)]) + e.local, gn + e.cost, n, vdist(cl.ents[size_t(e.local)].pos, endPos));
    }
    for (uint32_t k = 0; k < en.interCount; ++k) {
      const Edge& e = cl.inter[en.firstInter + k];
      const Entrance& to = m_clusters[size_t(e.cluster)].ents[size_t(e.local)];
      relax(int(m_nodeBase[size_t(e.cluster)]) + e.local, gn + e.cost, n, vdist(to.pos, endPos));
    }
  }
  *finished = m_heapSize == 0;
  return pops;
}

void HierPlanner::abstractNodes(std::vector<AbstractNode>* out) const {
  out->clear();
  const int total = m_nodeCount + 2;
  for (int id = 0; id < total && size_t(id) < m_stamp.size(); ++id) {
    if (m_stamp[size_t(id)] != m_searchStamp || !(m_g[size_t(id)] < VIEW_INF)) continue;
    AbstractNode n;
    n.id = id;
    n.parent = m_parent[size_t(id)];
    n.g = m_g[size_t(id)];
    n.f = m_f[size_t(id)];
    n.open = m_heapPos[size_t(id)] >= 0;
    if (id < m_nodeCount) std::copy(entrance(id).pos, entrance(id).pos + 3, n.pos);
    out->push_back(n);
  }
}

void HierPlanner::abstractPath(std::vector<int>* ids) const {
  ids->clear();
  if (m_viewGoal < 0) return;
  for (int n = m_viewGoal; n >= 0; n = m_parent[size_t(n)]) {
    ids->push_back(n);
    if (ids->size() > size_t(m_nodeCount) + 2) break; // a parent cycle cannot happen; bounded anyway
  }
  std::reverse(ids->begin(), ids->end());
}

const QueryFilter* HierPlanner::refineFilter(const QueryFilter* filter, int pass) {
  if (m_viewGoal < 0 || !filter) return nullptr;
  if (pass >= 2) return filter;
  if (++m_corridorStamp == 0) {
    std::fill(m_clusterMark.begin(), m_clusterMark.end(), 0u);
    m_corridorStamp = 1;
  }
  std::vector<int> path;
  abstractPath(&path);
  const int radius = m_opts.corridorRadius + (pass == 1 ? 1 : 0);
  const int keep = m_stats.corridorClusters; // markCluster counts into the last findPath's stats
  for (int id : path) {
    if (id < m_nodeCount) markCluster(m_nodeCluster[size_t(id)], radius);
  }
  // The start's and goal's clusters (findPath marks them whether or not an entrance is on the path).
  markCluster(m_viewStartCluster, radius);
  markCluster(m_viewEndCluster, radius);
  m_stats.corridorClusters = keep;
  m_viewPass.user = filter;
  m_viewPass.planner = this;
  m_viewFilter = *filter;
  m_viewFilter.userData = &m_viewPass;
  m_viewFilter.setPassFn([](const QueryFilter& f, PolyRef ref, const MeshTile* tile, const Poly* poly) {
    const auto* v = static_cast<const ViewPass*>(f.userData);
    if (!v->planner->inCorridor(v->planner->clusterOfPoly(ref))) return false;
    return v->user->passFilter(ref, tile, poly);
  });
  const QueryFilter::CostFn cost = [](const QueryFilter& f, const float* pa, const float* pb, PolyRef prevRef,
                                      const MeshTile* prevTile, const Poly* prevPoly, PolyRef curRef,
                                      const MeshTile* curTile, const Poly* curPoly, PolyRef nextRef,
                                      const MeshTile* nextTile, const Poly* nextPoly) {
    const auto* v = static_cast<const ViewPass*>(f.userData);
    return v->user->getCost(pa, pb, prevRef, prevTile, prevPoly, curRef, curTile, curPoly, nextRef, nextTile, nextPoly);
  };
  m_viewFilter.setCostFn(filter->costFn() ? cost : nullptr);
  m_viewFilter.setHeuristicScale(m_opts.refineHeuristicScale);
  return &m_viewFilter;
}

} // namespace nav
