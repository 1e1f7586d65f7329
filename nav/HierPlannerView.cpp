// HierPlannerView.cpp: HierPlanner's inspection block (HierPlanner.h, end of the class): the graph
// read back for drawing, and findPath's abstract search and refinement filter run piece by piece
// for the viewer's A* Stepper: findPath's own abstract search (HierPlanner::abstractSearch) on the
// default graph, run with a pop limit.
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
  m_viewStartCluster = startCluster;
  m_viewEndCluster = endCluster;
  const int keep = m_stats.abstractExpanded; // the search counts into the last findPath's stats
  int pops = 0;
  const int r = abstractSearch(m_main, startRef, endRef, startPos, endPos, maxPops, &pops, lastPopped);
  m_stats.abstractExpanded = keep;
  *reached = r >= 0;
  *finished = r != -2;
  if (*reached) m_viewGoal = r;
  return pops;
}

void HierPlanner::abstractNodes(std::vector<AbstractNode>* out) const {
  out->clear();
  const int total = m_main.nodeCount + 2;
  for (int id = 0; id < total && size_t(id) < m_stamp.size(); ++id) {
    if (m_stamp[size_t(id)] != m_searchStamp || !(m_g[size_t(id)] < VIEW_INF)) continue;
    AbstractNode n;
    n.id = id;
    n.parent = m_parent[size_t(id)];
    n.g = m_g[size_t(id)];
    n.f = m_f[size_t(id)];
    n.open = m_heapPos[size_t(id)] >= 0;
    if (id < m_main.nodeCount) std::copy(entrance(id).pos, entrance(id).pos + 3, n.pos);
    out->push_back(n);
  }
}

void HierPlanner::abstractPath(std::vector<int>* ids) const {
  ids->clear();
  if (m_viewGoal < 0) return;
  for (int n = m_viewGoal; n >= 0; n = m_parent[size_t(n)]) {
    ids->push_back(n);
    if (ids->size() > size_t(m_main.nodeCount) + 2) break; // a parent cycle cannot happen; bounded anyway
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
    if (id < m_main.nodeCount) markCluster(m_main.nodeCluster[size_t(id)], radius);
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
