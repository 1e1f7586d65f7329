// HierPlanner.cpp: see HierPlanner.h.
#include "nav/HierPlanner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace nav {

namespace {

constexpr float INF = std::numeric_limits<float>::infinity();
constexpr double DINF = std::numeric_limits<double>::infinity();
constexpr float FMAX = std::numeric_limits<float>::max();
/// A cost or distance as a finite float: overflows (coordinates near FLT_MAX) and NaN become FLT_MAX.
float capped(float w) { return w <= FMAX ? w : FMAX; }
/// Tiles at one grid location looked at (NavMesh links at most 32 per location).
constexpr int MAX_LAYERS = 64;
/// Component of a polygon the graph's filter excludes.
constexpr uint32_t NO_COMP = 0xffffffffu;
/// Area cost for the graph's Dijkstra: below 0 (or NaN) it would never settle; 0 keeps it finite.
float graphCost(float c) { return c >= 0.0f ? c : 0.0f; }

void polyCentroid(const MeshTile* t, const Poly& p, float* c) {
  c[0] = c[1] = c[2] = 0;
  for (int v = 0; v < p.vertCount; ++v)
    for (int k = 0; k < 3; ++k) c[k] += t->verts[3 * p.verts[v] + k];
  const float s = p.vertCount ? 1.0f / float(p.vertCount) : 0.0f;
  for (int k = 0; k < 3; ++k) c[k] *= s;
}

/// The point where link l of poly p leaves it: the portal's middle (the link's bmin..bmax part of
/// a tile-border edge), an off-mesh connection's end point, else the poly's centroid.
void crossingPoint(const MeshTile* t, const Poly& p, const Link& l, float* out) {
  if (l.edge < p.vertCount) {
    const float* va = &t->verts[3 * p.verts[l.edge]];
    if (p.getType() == POLYTYPE_OFFMESH_CONNECTION) {
      vcopy(out, va);
      return;
    }
    const float* vb = &t->verts[3 * p.verts[(l.edge + 1) % p.vertCount]];
    float ta = 0, tb = 1;
    if (l.side != 0xff && (l.bmin != 0 || l.bmax != 255)) {
      ta = float(l.bmin) / 255.0f;
      tb = float(l.bmax) / 255.0f;
    }
    const float tm = 0.5f * (ta + tb);
    for (int k = 0; k < 3; ++k) out[k] = va[k] + (vb[k] - va[k]) * tm;
    return;
  }
  polyCentroid(t, p, out);
}

int findRoot(std::vector<int32_t>& uf, int i) {
  while (uf[size_t(i)] != i) {
    uf[size_t(i)] = uf[size_t(uf[size_t(i)])];
    i = uf[size_t(i)];
  }
  return i;
}

} // namespace

/// The corridor test of the refinement: the caller's filter, inside the marked clusters only.
struct HierPassContext {
  const QueryFilter* user;
  const HierPlanner::SlotPrint* slots;
  const uint32_t* marks;
  uint32_t stamp;
  const NavMesh* mesh;

  static bool pass(const QueryFilter& f, PolyRef ref, const MeshTile* tile, const Poly* poly) {
    const auto* c = static_cast<const HierPassContext*>(f.userData);
    if (c->marks[c->slots[c->mesh->decodePolyIdTile(ref)].cluster] != c->stamp) return false;
    return c->user->passFilter(ref, tile, poly);
  }
  static float cost(const QueryFilter& f, const float* pa, const float* pb, PolyRef prevRef, const MeshTile* prevTile,
                    const Poly* prevPoly, PolyRef curRef, const MeshTile* curTile, const Poly* curPoly,
                    PolyRef nextRef, const MeshTile* nextTile, const Poly* nextPoly) {
    const auto* c = static_cast<const HierPassContext*>(f.userData);
    return c->user->getCost(pa, pb, prevRef, prevTile, prevPoly, curRef, curTile, curPoly, nextRef, nextTile,
                            nextPoly);
  }
};

HierPlanner::HierPlanner() = default;
HierPlanner::~HierPlanner() = default;

Status HierPlanner::init(const NavMesh* mesh, const QueryFilter* costFilter, const Options& opts) {
  m_mesh = nullptr;
  m_slots.clear();
  m_main = Graph();
  m_filtered.clear();
  m_clusterKeys.clear();
  m_queryReady = false;
  m_poolPolys.clear();
  if (!mesh || mesh->getMaxTiles() < 1) return FAILURE | INVALID_PARAM;
  m_mesh = mesh;
  m_costFilter = costFilter ? *costFilter : QueryFilter();
  m_opts = opts;
  if (m_opts.clusterTiles <= 0) {
    const float tile = std::max(mesh->getParams().tileWidth, mesh->getParams().tileHeight);
    const float n = tile > 0 ? HierOptions::AUTO_CLUSTER_SIDE / tile + 0.5f : 1.0f; // NaN tile: 1
    m_opts.clusterTiles = n >= 64.0f ? 64 : int(n);
  }
  m_opts.clusterTiles = std::max(1, std::min(64, m_opts.clusterTiles));
  m_opts.corridorRadius = std::max(0, std::min(2, m_opts.corridorRadius));
  if (!(m_opts.refineHeuristicScale >= 0.0f && m_opts.refineHeuristicScale <= 10.0f))
    m_opts.refineHeuristicScale = QueryFilter::DEFAULT_HEURISTIC_SCALE;
  m_partialReady = statusSucceeded(m_partialQuery.init(mesh, PARTIAL_NODES));
  m_attributeGeneration = mesh->attributeGeneration();
  m_generation = mesh->generation() + 1; // differs: update() builds everything
  update();
  return SUCCESS;
}

void HierPlanner::clusterCoords(int64_t x, int64_t y, int64_t* cx, int64_t* cy) const {
  const int64_t b = m_opts.clusterTiles;
  *cx = x >= 0 ? x / b : -((-x + b - 1) / b);
  *cy = y >= 0 ? y / b : -((-y + b - 1) / b);
}

namespace {
uint64_t clusterKey(int cx, int cy) { return (uint64_t(uint32_t(cx)) << 32) | uint32_t(cy); }
} // namespace

int HierPlanner::clusterAt(int64_t cx, int64_t cy) const {
  // 64-bit: the neighbours of a cluster at the end of the coordinate range are outside int.
  if (cx < INT32_MIN || cx > INT32_MAX || cy < INT32_MIN || cy > INT32_MAX) return -1;
  const uint64_t key = clusterKey(int(cx), int(cy));
  auto it = std::lower_bound(m_clusterKeys.begin(), m_clusterKeys.end(), std::make_pair(key, int32_t(INT32_MIN)));
  return it != m_clusterKeys.end() && it->first == key ? it->second : -1;
}

int HierPlanner::update() {
  if (!m_mesh || m_mesh->generation() == m_generation) return 0;
  m_generation = m_mesh->generation();
  if (m_mesh->attributeGeneration() != m_attributeGeneration) {
    // Flags or areas changed somewhere: the graphs built for filters are dropped (rebuilt when a
    // query needs them again); the default graph does not depend on flags.
    m_attributeGeneration = m_mesh->attributeGeneration();
    m_filtered.clear();
  }
  const int maxTiles = m_mesh->getMaxTiles();
  std::vector<Cluster>& clusters = m_main.clusters;
  if (int(m_slots.size()) != maxTiles) {
    m_slots.assign(size_t(maxTiles), SlotPrint());
    clusters.clear();
    m_clusterKeys.clear();
    m_filtered.clear();
  }
  std::vector<uint8_t>& dirty = m_dirty;
  std::vector<int>& rebuild = m_rebuild;
  dirty.assign(clusters.size(), 0);
  rebuild.clear();
  bool poolTooSmall = !m_queryReady || int(m_poolPolys.size()) != maxTiles;
  auto markDirty = [&](int c) {
    if (c < 0) return;
    if (size_t(c) >= dirty.size()) dirty.resize(size_t(c) + 1, 0);
    if (!dirty[size_t(c)]) {
      dirty[size_t(c)] = 1;
      rebuild.push_back(c);
    }
  };
  // The clusters of the tile locations around (x, y): their links changed with a tile there.
  auto markAround = [&](int x, int y) {
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int64_t cx, cy;
        clusterCoords(int64_t(x) + dx, int64_t(y) + dy, &cx, &cy);
        markDirty(clusterAt(cx, cy));
      }
  };
  for (int i = 0; i < maxTiles; ++i) {
    const MeshTile* t = m_mesh->getTile(i);
    SlotPrint& sp = m_slots[size_t(i)];
    const bool present = t->header != nullptr;
    // The slot's own fields only: reading every tile's header would touch a cache line per tile
    // in scattered blocks (the scan runs over every slot at each update).
    const bool same = present == (sp.cluster >= 0) &&
                      (!present || (sp.salt == t->salt && sp.data == t->data && sp.dataSize == t->dataSize));
    if (same) continue;
    if (sp.cluster >= 0) {
      Cluster& old = clusters[size_t(sp.cluster)];
      old.slots.erase(std::find(old.slots.begin(), old.slots.end(), i));
      markDirty(sp.cluster);
      markAround(sp.x, sp.y);
    }
    sp = SlotPrint();
    if (!present) continue;
    sp.data = t->data;
    sp.salt = t->salt;
    sp.dataSize = t->dataSize;
    sp.polyCount = t->header->polyCount;
    sp.x = t->header->x;
    sp.y = t->header->y;
    if (!poolTooSmall && sp.polyCount > m_poolPolys[size_t(i)]) poolTooSmall = true;
    int64_t cx, cy;
    clusterCoords(sp.x, sp.y, &cx, &cy); // within int: |x / b| <= |x|
    int c = clusterAt(cx, cy);
    if (c < 0) {
      c = int(clusters.size());
      clusters.emplace_back();
      clusters.back().cx = int(cx);
      clusters.back().cy = int(cy);
      const uint64_t key = clusterKey(int(cx), int(cy));
      const auto entry = std::make_pair(key, int32_t(c));
      m_clusterKeys.insert(std::lower_bound(m_clusterKeys.begin(), m_clusterKeys.end(), entry), entry);
    }
    Cluster& cl = clusters[size_t(c)];
    cl.slots.insert(std::lower_bound(cl.slots.begin(), cl.slots.end(), i), i);
    sp.cluster = c;
    markDirty(c);
    markAround(sp.x, sp.y);
  }
  if (rebuild.empty()) return 0; // flags or areas only: the graph does not depend on them
  std::sort(rebuild.begin(), rebuild.end());
  const int rebuilt = int(rebuild.size());
  rebuildGraph(m_main);
  // The graphs built for filters follow when a query next uses them.
  for (auto& fg : m_filtered) {
    fg->clusters.resize(clusters.size());
    fg->stale.resize(clusters.size(), 0);
    for (int c : rebuild) fg->stale[size_t(c)] = 1;
    fg->anyStale = true;
  }
  if (poolTooSmall) resizeQuery();
  return rebuilt;
}

void HierPlanner::rebuildGraph(Graph& g) {
  std::vector<uint8_t>& dirty = m_dirty;
  const std::vector<int>& rebuild = m_rebuild;
  m_ring.clear();
  for (int c : rebuild) rebuildCluster(g, c);
  for (int c : rebuild) buildInter(g, c);
  // The clusters around keep their entrances and intra-cluster edges (their links did not change),
  // but their edges into a rebuilt cluster name its new entrance indices.
  std::sort(m_ring.begin(), m_ring.end());
  for (int c : rebuild) {
    const Cluster& cl = m_main.clusters[size_t(c)];
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int n = clusterAt(int64_t(cl.cx) + dx, int64_t(cl.cy) + dy);
        if (n < 0 || dirty[size_t(n)]) continue;
        dirty[size_t(n)] = 2; // retargeted once
        retargetInter(g, n);
      }
  }
  layoutNodes(g);
}

void HierPlanner::syncGraph(Graph& g) {
  if (!g.anyStale) return;
  m_dirty.assign(m_main.clusters.size(), 0);
  m_rebuild.clear();
  for (size_t c = 0; c < g.stale.size(); ++c)
    if (g.stale[c]) {
      m_dirty[c] = 1;
      m_rebuild.push_back(int(c));
    }
  rebuildGraph(g);
  std::fill(g.stale.begin(), g.stale.end(), 0);
  g.anyStale = false;
}

HierPlanner::Graph* HierPlanner::graphFor(const QueryFilter& f) {
  // A hook replaces the flag test: only the graph over every polygon is a superset of it.
  if (f.passFn()) return &m_main;
  const float* costs = f.areaCosts();
  if (f.getIncludeFlags() == 0xffff && f.getExcludeFlags() == 0 &&
      std::memcmp(costs, m_costFilter.areaCosts(), sizeof(float) * MAX_AREAS) == 0)
    return &m_main;
  Graph* found = nullptr;
  for (auto& fg : m_filtered)
    if (fg->include == f.getIncludeFlags() && fg->exclude == f.getExcludeFlags() &&
        std::memcmp(fg->areaCost, costs, sizeof(float) * MAX_AREAS) == 0)
      found = fg.get();
  if (!found) {
    if (m_filtered.size() >= MAX_FILTER_GRAPHS) { // the least recently used one goes
      size_t lru = 0;
      for (size_t k = 1; k < m_filtered.size(); ++k)
        if (m_filtered[k]->lastUse < m_filtered[lru]->lastUse) lru = k;
      m_filtered.erase(m_filtered.begin() + long(lru));
    }
    m_filtered.push_back(std::make_unique<Graph>());
    found = m_filtered.back().get();
    found->filtered = true;
    found->include = f.getIncludeFlags();
    found->exclude = f.getExcludeFlags();
    std::memcpy(found->areaCost, costs, sizeof(float) * MAX_AREAS);
    found->clusters.resize(m_main.clusters.size());
    found->stale.assign(m_main.clusters.size(), 1);
    found->anyStale = true;
  }
  found->lastUse = ++m_useClock;
  syncGraph(*found);
  return found;
}

template <class Fn>
void HierPlanner::forEachClusterLink(const Cluster& cl, Fn fn) const {
  for (int s : cl.slots) {
    const MeshTile* t = m_mesh->getTile(s);
    const uint32_t base = m_slots[size_t(s)].polyBase;
    for (int i = 0; i < t->header->polyCount; ++i) {
      const Poly& p = t->polys[i];
      for (uint32_t k = p.firstLink; k != NULL_LINK; k = t->links[k].next) {
        const Link& l = t->links[k];
        if (!l.ref) continue;
        const SlotPrint& o = m_slots[m_mesh->decodePolyIdTile(l.ref)];
        const uint32_t q = m_mesh->decodePolyIdPoly(l.ref);
        if (o.cluster < 0 || q >= uint32_t(o.polyCount)) continue;
        fn(t, p, base + uint32_t(i), l, o, q);
      }
    }
  }
}

void HierPlanner::rebuildCluster(Graph& g, int c) {
  const Cluster& lay = m_main.clusters[size_t(c)];
  Cluster& cl = g.clusters[size_t(c)];
  const QueryFilter::FlagTest ft{g.include, g.exclude};
  const bool filtered = g.filtered;
  // The filter's polygon test, and the polygon a link leads to passes it.
  auto passes = [&](const Poly& p) { return !filtered || ft.passes(p.flags); };
  auto targetPasses = [&](PolyRef r, uint32_t q) {
    return !filtered || ft.passes(m_mesh->getTile(int(m_mesh->decodePolyIdTile(r)))->polys[q].flags);
  };
  cl.ents.clear();
  cl.intra.clear();
  cl.inter.clear();
  cl.comp.clear();
  uint32_t n = 0;
  for (int s : lay.slots) {
    m_slots[size_t(s)].polyBase = n;
    n += uint32_t(m_slots[size_t(s)].polyCount);
  }
  // Centroids and area costs, then components and the adjacency (CSR, [Size: n + 1] starts) over
  // the links between the cluster's polygons; forEachClusterLink visits u in ascending order.
  m_centroid.resize(size_t(n) * 3);
  m_polyCost.resize(n);
  m_pass.resize(n);
  const float* areaCost = filtered ? g.areaCost : m_costFilter.areaCosts();
  for (int s : lay.slots) {
    const MeshTile* t = m_mesh->getTile(s);
    const uint32_t base = m_slots[size_t(s)].polyBase;
    for (int i = 0; i < t->header->polyCount; ++i) {
      polyCentroid(t, t->polys[i], &m_centroid[size_t(base + uint32_t(i)) * 3]);
      m_polyCost[base + uint32_t(i)] = graphCost(areaCost[t->polys[i].getArea()]);
      m_pass[base + uint32_t(i)] = passes(t->polys[i]) ? 1 : 0;
    }
  }
  m_uf.resize(n);
  for (uint32_t i = 0; i < n; ++i) m_uf[i] = int32_t(i);
  m_adjStart.assign(size_t(n) + 1, 0);
  m_adj.clear();
  uint32_t filled = 0; // m_adjStart[0..filled] are set
  forEachClusterLink(lay, [&](const MeshTile*, const Poly&, uint32_t u, const Link&, const SlotPrint& o, uint32_t q) {
    if (o.cluster != c) return;
    const uint32_t v = o.polyBase + q;
    if (!m_pass[u] || !m_pass[v]) return;
    while (filled < u) m_adjStart[++filled] = uint32_t(m_adj.size());
    const float w =
        capped(vdist(&m_centroid[size_t(u) * 3], &m_centroid[size_t(v) * 3]) * 0.5f * (m_polyCost[u] + m_polyCost[v]));
    m_adj.push_back(Adj{v, w, 0});
  });
  while (filled < n) m_adjStart[++filled] = uint32_t(m_adj.size());
  // Components join polygons linked both ways only, so that each polygon of a component reaches
  // every other (one-way links, off-mesh connections', become crossings below).
  for (uint32_t u = 0; u < n; ++u)
    for (uint32_t k = m_adjStart[u]; k < m_adjStart[u + 1]; ++k) {
      const uint32_t v = m_adj[k].to;
      if (v <= u) continue; // each pair once, from its smaller end
      bool back = false;
      for (uint32_t j = m_adjStart[v]; j < m_adjStart[v + 1]; ++j)
        if (m_adj[j].to == u) {
          m_adj[j].twoWay = 1;
          back = true;
        }
      if (!back) continue;
      m_adj[k].twoWay = 1;
      const int a = findRoot(m_uf, int(u)), b = findRoot(m_uf, int(v));
      if (a != b) m_uf[size_t(std::max(a, b))] = std::min(a, b); // the root is the smallest index
    }
  cl.comp.resize(n);
  uint32_t comps = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const int r = findRoot(m_uf, int(i));
    cl.comp[i] = !m_pass[i] ? NO_COMP : uint32_t(r) == i ? comps++ : cl.comp[size_t(r)];
  }

  // Crossings: the cluster's links into other clusters, and other clusters' links landing here;
  // a one-way link between two components of the cluster is a crossing of both (neighbour: c).
  m_cross.clear();
  forEachClusterLink(lay, [&](const MeshTile* t, const Poly& p, uint32_t u, const Link& l, const SlotPrint& o,
                              uint32_t q) {
    if (!m_pass[u]) return;
    if (o.cluster == c) {
      const uint32_t v = o.polyBase + q;
      if (!m_pass[v] || cl.comp[v] == cl.comp[u]) return;
      Crossing x{c, cl.comp[u], u, {0, 0, 0}};
      crossingPoint(t, p, l, x.p);
      m_cross.push_back(x);
      m_cross.push_back(Crossing{c, cl.comp[v], v, {x.p[0], x.p[1], x.p[2]}});
      return;
    }
    if (!targetPasses(l.ref, q)) return;
    Crossing x{o.cluster, cl.comp[u], u, {0, 0, 0}};
    crossingPoint(t, p, l, x.p);
    m_cross.push_back(x);
  });
  {
    // The ring of tile locations around the cluster (64-bit: clusters at the ends of int's range).
    const int64_t b = m_opts.clusterTiles, x0 = int64_t(lay.cx) * b, y0 = int64_t(lay.cy) * b;
    const MeshTile* around[MAX_LAYERS];
    for (int64_t y = y0 - 1; y <= y0 + b; ++y)
      for (int64_t x = x0 - 1; x <= x0 + b; ++x) {
        if (y >= y0 && y < y0 + b && x == x0) x = x0 + b; // skip the inside
        if (x < INT32_MIN || x > INT32_MAX || y < INT32_MIN || y > INT32_MAX) continue;
        const int na = m_mesh->getTilesAt(int(x), int(y), around, MAX_LAYERS);
        for (int a = 0; a < na; ++a) {
          const MeshTile* u = around[a];
          const int us = int(u - m_mesh->getTile(0));
          const int uc = m_slots[size_t(us)].cluster;
          if (uc == c || uc < 0) continue;
          for (int i = 0; i < u->header->polyCount; ++i) {
            const Poly& p = u->polys[i];
            if (!passes(p)) continue;
            for (uint32_t k = p.firstLink; k != NULL_LINK; k = u->links[k].next) {
              const Link& l = u->links[k];
              if (!l.ref) continue;
              const SlotPrint& o = m_slots[m_mesh->decodePolyIdTile(l.ref)];
              const uint32_t q = m_mesh->decodePolyIdPoly(l.ref);
              if (o.cluster != c || q >= uint32_t(o.polyCount) || !m_pass[o.polyBase + q]) continue;
              Crossing xr{uc, cl.comp[o.polyBase + q], o.polyBase + q, {0, 0, 0}};
              crossingPoint(u, p, l, xr.p);
              m_cross.push_back(xr);
              m_ring.push_back(RingLink{uc, c, m_slots[size_t(us)].polyBase + uint32_t(i), o.polyBase + q});
            }
          }
        }
      }
  }
  // A canonical order (neighbour by coordinates), so that neither the entrance order nor the
  // means below depend on the order tiles and clusters were added in.
  auto nbLess = [&](int a, int b) {
    const Cluster& ca = m_main.clusters[size_t(a)];
    const Cluster& cb = m_main.clusters[size_t(b)];
    return ca.cx != cb.cx ? ca.cx < cb.cx : ca.cy < cb.cy;
  };
  std::sort(m_cross.begin(), m_cross.end(), [&](const Crossing& a, const Crossing& b) {
    if (a.neighbour != b.neighbour) return nbLess(a.neighbour, b.neighbour);
    if (a.component != b.component) return a.component < b.component;
    if (a.poly != b.poly) return a.poly < b.poly;
    for (int k = 0; k < 3; ++k)
      if (a.p[k] != b.p[k]) return a.p[k] < b.p[k];
    return false;
  });
  std::vector<uint32_t>& firstCross = m_firstCross; // per entrance, into m_cross (plus an end marker)
  firstCross.clear();
  for (size_t i = 0; i < m_cross.size();) {
    size_t j = i;
    double sum[3] = {0, 0, 0};
    while (j < m_cross.size() && m_cross[j].neighbour == m_cross[i].neighbour &&
           m_cross[j].component == m_cross[i].component) {
      for (int k = 0; k < 3; ++k) sum[k] += double(m_cross[j].p[k]);
      ++j;
    }
    Entrance e{};
    e.neighbour = m_cross[i].neighbour;
    e.component = int32_t(m_cross[i].component);
    for (int k = 0; k < 3; ++k) e.pos[k] = float(sum[k] / double(j - i));
    cl.ents.push_back(e);
    firstCross.push_back(uint32_t(i));
    i = j;
  }
  firstCross.push_back(uint32_t(m_cross.size()));

  // Intra-cluster edges: a Dijkstra over the component's two-way links from an entrance's crossings
  // to those of the component's other entrances. Two-way links have symmetric costs, so each pair
  // needs one search: entrance a's reaches the entrances after it in the component. A component has
  // at most 9 entrances (one per neighbour cluster and one for the cluster itself).
  m_dist.resize(n);
  if (m_target.size() < n) m_target.resize(n, 0);
  const size_t ne = cl.ents.size();
  std::vector<int32_t>& order = m_entOrder; // entrances by component, index order within each
  order.resize(ne);
  for (size_t i = 0; i < ne; ++i) order[i] = int32_t(i);
  std::stable_sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
    return cl.ents[size_t(x)].component < cl.ents[size_t(y)].component;
  });
  m_entRank.resize(ne);
  m_entGroup.resize(ne);
  size_t K = 1;
  for (size_t i = 0, j = 0; i < ne; i = j) {
    for (j = i; j < ne && cl.ents[size_t(order[j])].component == cl.ents[size_t(order[i])].component; ++j) {
      m_entRank[size_t(order[j])] = uint32_t(j - i);
      m_entGroup[size_t(order[j])] = uint32_t(i);
    }
    K = std::max(K, j - i);
  }
  m_pairCost.assign(ne * K, DINF); // [a * K + rank of b]
  for (size_t gi = 0; gi < ne; ++gi) {
    const size_t a = size_t(order[gi]);
    const int32_t comp = cl.ents[a].component;
    size_t end = gi + 1;
    while (end < ne && cl.ents[size_t(order[end])].component == comp) ++end;
    if (end == gi + 1) continue; // the last of its component: its pairs are done
    std::fill(m_dist.begin(), m_dist.end(), DINF);
    m_dheap.clear();
    // The search stops once every crossing polygon of the entrances after a is settled.
    if (++m_targetStamp == 0) {
      std::fill(m_target.begin(), m_target.end(), 0u);
      m_targetStamp = 1;
    }
    int targets = 0;
    for (size_t gj = gi + 1; gj < end; ++gj) {
      const size_t b = size_t(order[gj]);
      for (uint32_t x = firstCross[b]; x < firstCross[b + 1]; ++x)
        if (m_target[m_cross[x].poly] != m_targetStamp) {
          m_target[m_cross[x].poly] = m_targetStamp;
          ++targets;
        }
    }
    for (uint32_t x = firstCross[a]; x < firstCross[a + 1]; ++x) {
      const Crossing& cr = m_cross[x];
      const double d = capped(vdist(cr.p, &m_centroid[size_t(cr.poly) * 3]) * m_polyCost[cr.poly]);
      if (d < m_dist[cr.poly]) {
        m_dist[cr.poly] = d;
        m_dheap.emplace_back(-d, int32_t(cr.poly));
        std::push_heap(m_dheap.begin(), m_dheap.end());
      }
    }
    while (!m_dheap.empty()) {
      std::pop_heap(m_dheap.begin(), m_dheap.end());
      const double d = -m_dheap.back().first;
      const uint32_t u = uint32_t(m_dheap.back().second);
      m_dheap.pop_back();
      if (d > m_dist[u]) continue;
      if (m_target[u] == m_targetStamp) {
        m_target[u] = 0; // settled
        if (--targets == 0) break;
      }
      for (uint32_t k = m_adjStart[u]; k < m_adjStart[u + 1]; ++k) {
        const Adj& e = m_adj[k];
        if (!e.twoWay) continue;
        const double nd = d + double(e.cost);
        if (nd < m_dist[e.to]) {
          m_dist[e.to] = nd;
          m_dheap.emplace_back(-nd, int32_t(e.to));
          std::push_heap(m_dheap.begin(), m_dheap.end());
        }
      }
    }
    for (size_t gj = gi + 1; gj < end; ++gj) {
      const size_t b = size_t(order[gj]);
      double best = DINF;
      for (uint32_t x = firstCross[b]; x < firstCross[b + 1]; ++x) {
        const Crossing& cr = m_cross[x];
        const double d = m_dist[cr.poly];
        if (d < DINF) best = std::min(best, d + capped(vdist(&m_centroid[size_t(cr.poly) * 3], cr.p) * m_polyCost[cr.poly]));
      }
      m_pairCost[a * K + m_entRank[b]] = best;
      m_pairCost[b * K + m_entRank[a]] = best;
    }
  }
  for (size_t a = 0; a < ne; ++a) {
    cl.ents[a].firstIntra = uint32_t(cl.intra.size());
    for (size_t gj = m_entGroup[a]; gj < ne && cl.ents[size_t(order[gj])].component == cl.ents[a].component; ++gj) {
      const size_t b = size_t(order[gj]);
      const double cost = m_pairCost[a * K + m_entRank[b]];
      if (b != a && cost < DINF) cl.intra.push_back(Edge{int32_t(c), int32_t(b), float(std::min(cost, double(FMAX)))});
    }
    cl.ents[a].intraCount = uint32_t(cl.intra.size()) - cl.ents[a].firstIntra;
  }
  // Exact sizes: the graph's bytes are what it holds.
  cl.intra.shrink_to_fit();
  cl.ents.shrink_to_fit();
  cl.comp.shrink_to_fit();
}

int HierPlanner::findEntrance(const Graph& g, int c, int neighbour, uint32_t component) const {
  if (component == NO_COMP) return -1;
  const std::vector<Entrance>& ents = g.clusters[size_t(c)].ents;
  const Cluster& nb = m_main.clusters[size_t(neighbour)];
  auto it = std::lower_bound(ents.begin(), ents.end(), 0, [&](const Entrance& e, int) {
    const Cluster& en = m_main.clusters[size_t(e.neighbour)];
    if (en.cx != nb.cx) return en.cx < nb.cx;
    if (en.cy != nb.cy) return en.cy < nb.cy;
    return e.component < int32_t(component);
  });
  if (it == ents.end() || it->neighbour != neighbour || it->component != int32_t(component)) return -1;
  return int(it - ents.begin());
}

void HierPlanner::buildInter(Graph& g, int c) {
  Cluster& cl = g.clusters[size_t(c)];
  cl.inter.clear();
  std::vector<InterPair>& pairs = m_pairs;
  pairs.clear();
  forEachClusterLink(m_main.clusters[size_t(c)], [&](const MeshTile*, const Poly&, uint32_t u, const Link&,
                                                     const SlotPrint& o, uint32_t q) {
    if (o.cluster == c && cl.comp[u] == cl.comp[o.polyBase + q]) return;
    const int a = findEntrance(g, c, o.cluster, cl.comp[u]);
    const int b = findEntrance(g, o.cluster, c, g.clusters[size_t(o.cluster)].comp[o.polyBase + q]);
    if (a >= 0 && b >= 0) pairs.push_back(InterPair{a, o.cluster, b});
  });
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  size_t p = 0;
  for (size_t a = 0; a < cl.ents.size(); ++a) {
    cl.ents[a].firstInter = uint32_t(cl.inter.size());
    for (; p < pairs.size() && pairs[p].from == int32_t(a); ++p)
      cl.inter.push_back(Edge{pairs[p].cluster, pairs[p].to, 0.0f});
    cl.ents[a].interCount = uint32_t(cl.inter.size()) - cl.ents[a].firstInter;
  }
  cl.inter.shrink_to_fit();
}

void HierPlanner::retargetInter(Graph& g, int n) {
  Cluster& cl = g.clusters[size_t(n)];
  std::vector<InterPair>& pairs = m_pairs;
  pairs.clear();
  auto it = std::lower_bound(m_ring.begin(), m_ring.end(), RingLink{n, INT32_MIN, 0, 0});
  for (; it != m_ring.end() && it->from == n; ++it) {
    const int a = findEntrance(g, n, it->to, cl.comp[it->fromPoly]);
    const int b = findEntrance(g, it->to, n, g.clusters[size_t(it->to)].comp[it->toPoly]);
    if (a >= 0 && b >= 0) pairs.push_back(InterPair{a, it->to, b});
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  // An entrance's edges all lead to its neighbour: those of entrances facing a rebuilt cluster are
  // the pairs, the others stay.
  std::vector<Edge>& out = m_interScratch;
  out.clear();
  size_t p = 0;
  for (size_t a = 0; a < cl.ents.size(); ++a) {
    Entrance& e = cl.ents[a];
    const uint32_t first = uint32_t(out.size());
    if (m_dirty[size_t(e.neighbour)] == 1) {
      while (p < pairs.size() && pairs[p].from < int32_t(a)) ++p;
      for (; p < pairs.size() && pairs[p].from == int32_t(a); ++p) out.push_back(Edge{pairs[p].cluster, pairs[p].to, 0.0f});
    } else {
      out.insert(out.end(), cl.inter.begin() + e.firstInter, cl.inter.begin() + e.firstInter + e.interCount);
    }
    e.firstInter = first;
    e.interCount = uint32_t(out.size()) - first;
  }
  if (out.size() != cl.inter.size()) {
    cl.inter.assign(out.begin(), out.end());
    cl.inter.shrink_to_fit();
  } else {
    std::copy(out.begin(), out.end(), cl.inter.begin());
  }
}

void HierPlanner::layoutNodes(Graph& g) {
  const std::vector<Cluster>& clusters = g.clusters;
  g.nodeBase.assign(clusters.size(), 0);
  uint32_t n = 0;
  for (size_t c = 0; c < clusters.size(); ++c) {
    g.nodeBase[c] = n;
    n += uint32_t(clusters[c].ents.size());
  }
  g.nodeCount = int(n);
  g.nodeCluster.resize(n);
  for (size_t c = 0; c < clusters.size(); ++c)
    for (size_t e = 0; e < clusters[c].ents.size(); ++e) g.nodeCluster[g.nodeBase[c] + e] = int32_t(c);
  // The search arrays serve every graph: grown only. A node's stamp from an earlier search never
  // equals the next search's, whatever graph it named.
  const size_t total = size_t(n) + 2;
  if (m_g.size() < total) {
    m_g.resize(total);
    m_f.resize(total);
    m_parent.resize(total);
    m_heap.resize(total);
    m_heapPos.resize(total);
    m_stamp.resize(total, 0);
  }
  if (m_clusterMark.size() < m_main.clusters.size()) m_clusterMark.resize(m_main.clusters.size(), 0);
}

void HierPlanner::resizeQuery() {
  const int maxTiles = m_mesh->getMaxTiles();
  m_poolPolys.assign(size_t(maxTiles), 0);
  m_queryReady = statusSucceeded(m_query.initUnlimited(m_mesh));
  if (!m_queryReady) return;
  for (int i = 0; i < maxTiles; ++i) m_poolPolys[size_t(i)] = m_slots[size_t(i)].polyCount;
}

namespace {
size_t clusterDataBytes(const HierPlanner::Cluster& c) {
  return c.slots.capacity() * sizeof(int32_t) + c.comp.capacity() * sizeof(uint32_t) +
         c.ents.capacity() * sizeof(HierPlanner::Entrance) +
         (c.intra.capacity() + c.inter.capacity()) * sizeof(HierPlanner::Edge);
}
} // namespace

size_t HierPlanner::graphBytes() const {
  size_t b = m_slots.capacity() * sizeof(SlotPrint) + m_main.clusters.capacity() * sizeof(Cluster) +
             m_clusterKeys.capacity() * sizeof(m_clusterKeys[0]) + m_main.nodeBase.capacity() * sizeof(uint32_t) +
             m_main.nodeCluster.capacity() * sizeof(int32_t);
  for (const Cluster& c : m_main.clusters) b += clusterDataBytes(c);
  return b;
}

size_t HierPlanner::filterGraphBytes() const {
  size_t b = 0;
  for (const auto& g : m_filtered) {
    b += sizeof(Graph) + g->clusters.capacity() * sizeof(Cluster) + g->nodeBase.capacity() * sizeof(uint32_t) +
         g->nodeCluster.capacity() * sizeof(int32_t) + g->stale.capacity();
    for (const Cluster& c : g->clusters) b += clusterDataBytes(c);
  }
  return b;
}

size_t HierPlanner::searchBytes() const {
  return (m_g.capacity() + m_f.capacity()) * sizeof(float) +
         (m_parent.capacity() + m_heap.capacity() + m_heapPos.capacity()) * sizeof(int32_t) +
         (m_stamp.capacity() + m_clusterMark.capacity()) * sizeof(uint32_t);
}

size_t HierPlanner::edgeCount() const {
  size_t n = 0;
  for (const Cluster& c : m_main.clusters) n += c.intra.size() + c.inter.size();
  return n;
}

std::string HierPlanner::canonical() const { return canonicalOf(m_main); }

std::string HierPlanner::canonical(const QueryFilter& filter) {
  if (!m_mesh) return std::string();
  if (m_mesh->generation() != m_generation) update();
  return canonicalOf(*graphFor(filter));
}

std::string HierPlanner::canonicalOf(const Graph& g) const {
  std::string out;
  char buf[256];
  for (const auto& key : m_clusterKeys) { // by coordinates
    const Cluster& lay = m_main.clusters[size_t(key.second)];
    const Cluster& cl = g.clusters[size_t(key.second)];
    if (lay.slots.empty()) continue;
    uint64_t h = 1469598103934665603ull; // FNV-1a of the component array
    for (uint32_t c : cl.comp) h = (h ^ c) * 1099511628211ull;
    std::snprintf(buf, sizeof buf, "cluster %d,%d tiles %zu polys %zu comps %016llx\n", lay.cx, lay.cy, lay.slots.size(),
                  cl.comp.size(), static_cast<unsigned long long>(h));
    out += buf;
    for (size_t e = 0; e < cl.ents.size(); ++e) {
      const Entrance& en = cl.ents[e];
      const Cluster& nb = m_main.clusters[size_t(en.neighbour)];
      std::snprintf(buf, sizeof buf, " ent %zu nb %d,%d comp %d at %.2f %.2f %.2f\n", e, nb.cx, nb.cy, en.component,
                    double(en.pos[0]), double(en.pos[1]), double(en.pos[2]));
      out += buf;
      for (uint32_t k = 0; k < en.intraCount; ++k) {
        const Edge& ed = cl.intra[en.firstIntra + k];
        std::snprintf(buf, sizeof buf, "  in %d %.2f\n", ed.local, double(ed.cost));
        out += buf;
      }
      for (uint32_t k = 0; k < en.interCount; ++k) {
        const Edge& ed = cl.inter[en.firstInter + k];
        const Cluster& to = m_main.clusters[size_t(ed.cluster)];
        std::snprintf(buf, sizeof buf, "  to %d,%d.%d\n", to.cx, to.cy, ed.local);
        out += buf;
      }
    }
  }
  return out;
}

// ---- Query ------------------------------------------------------------------------------------

void HierPlanner::relax(int id, float g, int parent, float h) {
  // A node reached for the first time is always queued, whatever g + h: an infinite or NaN cost
  // (overflow on huge coordinates) orders the search badly but never hides a connection.
  if (m_stamp[size_t(id)] != m_searchStamp) {
    m_stamp[size_t(id)] = m_searchStamp;
    m_heapPos[size_t(id)] = -1;
  } else if (!(g < m_g[size_t(id)])) {
    return;
  }
  m_g[size_t(id)] = g;
  m_f[size_t(id)] = g + h;
  m_parent[size_t(id)] = parent;
  int i = m_heapPos[size_t(id)];
  if (i < 0) i = m_heapSize++; // new, or reopened after it was closed
  const float f = m_f[size_t(id)];
  while (i > 0) {
    const int up = (i - 1) >> 1;
    const int o = m_heap[size_t(up)];
    if (!(m_f[size_t(o)] > f)) break;
    m_heap[size_t(i)] = o;
    m_heapPos[size_t(o)] = i;
    i = up;
  }
  m_heap[size_t(i)] = id;
  m_heapPos[size_t(id)] = i;
}

int HierPlanner::popMin() {
  const int top = m_heap[0];
  m_heapPos[size_t(top)] = -1;
  const int last = m_heap[size_t(--m_heapSize)];
  if (m_heapSize == 0) return top;
  const float f = m_f[size_t(last)];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= m_heapSize) break;
    if (c + 1 < m_heapSize && m_f[size_t(m_heap[size_t(c + 1)])] < m_f[size_t(m_heap[size_t(c)])]) ++c;
    if (!(m_f[size_t(m_heap[size_t(c)])] < f)) break;
    m_heap[size_t(i)] = m_heap[size_t(c)];
    m_heapPos[size_t(m_heap[size_t(i)])] = i;
    i = c;
  }
  m_heap[size_t(i)] = last;
  m_heapPos[size_t(last)] = i;
  return top;
}

int HierPlanner::abstractSearch(const Graph& g, PolyRef startRef, PolyRef endRef, const float* startPos,
                                const float* endPos, int maxPops, int* pops, int* lastPopped) {
  *pops = 0;
  *lastPopped = -1;
  const int S = g.nodeCount, G = g.nodeCount + 1;
  const int startCluster = m_slots[m_mesh->decodePolyIdTile(startRef)].cluster;
  const int endCluster = m_slots[m_mesh->decodePolyIdTile(endRef)].cluster;
  const uint32_t startComp = compOf(g, startRef), endComp = compOf(g, endRef);
  if (++m_searchStamp == 0) {
    std::fill(m_stamp.begin(), m_stamp.end(), 0u);
    m_searchStamp = 1;
  }
  m_heapSize = 0;
  relax(S, 0.0f, -1, vdist(startPos, endPos));
  // The entrances of component k of cluster c as successors of the start.
  auto fromStart = [&](int c, uint32_t k) {
    if (c == endCluster && k == endComp && k != NO_COMP) relax(G, vdist(startPos, endPos), S, 0.0f);
    const Cluster& cl = g.clusters[size_t(c)];
    for (size_t e = 0; e < cl.ents.size(); ++e)
      if (cl.ents[e].component == int32_t(k))
        relax(int(g.nodeBase[size_t(c)] + e), vdist(startPos, cl.ents[e].pos), S, vdist(cl.ents[e].pos, endPos));
  };
  while (m_heapSize > 0 && *pops < maxPops) {
    const int n = popMin();
    ++*pops;
    *lastPopped = n;
    if (n == G) return G;
    ++m_stats.abstractExpanded;
    const float gn = m_g[size_t(n)];
    if (n == S) {
      if (startRef == endRef) relax(G, 0.0f, S, 0.0f);
      if (startComp != NO_COMP) {
        fromStart(startCluster, startComp);
        continue;
      }
      // The filter excludes the start polygon (a search leaves it all the same): its successors are
      // the components of the polygons its links lead to.
      const MeshTile* t = nullptr;
      const Poly* p = nullptr;
      m_mesh->getTileAndPolyByRefUnsafe(startRef, &t, &p);
      for (uint32_t k = p->firstLink; k != NULL_LINK; k = t->links[k].next) {
        const PolyRef r = t->links[k].ref;
        if (!r) continue;
        const SlotPrint& o = m_slots[m_mesh->decodePolyIdTile(r)];
        const uint32_t q = m_mesh->decodePolyIdPoly(r);
        if (o.cluster < 0 || q >= uint32_t(o.polyCount)) continue;
        const uint32_t comp = g.clusters[size_t(o.cluster)].comp[o.polyBase + q];
        if (comp != NO_COMP) fromStart(o.cluster, comp);
      }
      continue;
    }
    const int c = g.nodeCluster[size_t(n)];
    const Cluster& cl = g.clusters[size_t(c)];
    const Entrance& en = cl.ents[size_t(n) - g.nodeBase[size_t(c)]];
    if (c == endCluster && en.component == int32_t(endComp)) relax(G, gn + vdist(en.pos, endPos), n, 0.0f);
    for (uint32_t k = 0; k < en.intraCount; ++k) {
      const Edge& e = cl.intra[en.firstIntra + k];
      relax(int(g.nodeBase[size_t(c)]) + e.local, gn + e.cost, n, vdist(cl.ents[size_t(e.local)].pos, endPos));
    }
    for (uint32_t k = 0; k < en.interCount; ++k) {
      const Edge& e = cl.inter[en.firstInter + k];
      const Entrance& to = g.clusters[size_t(e.cluster)].ents[size_t(e.local)];
      relax(int(g.nodeBase[size_t(e.cluster)]) + e.local, gn + e.cost, n, vdist(to.pos, endPos));
    }
  }
  return m_heapSize > 0 ? -2 : -1;
}

void HierPlanner::markCluster(int c, int r) {
  const Cluster& cl = m_main.clusters[size_t(c)];
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx) {
      const int o = (dx || dy) ? clusterAt(int64_t(cl.cx) + dx, int64_t(cl.cy) + dy) : c;
      if (o >= 0 && m_clusterMark[size_t(o)] != m_corridorStamp) {
        m_clusterMark[size_t(o)] = m_corridorStamp;
        ++m_stats.corridorClusters;
      }
    }
}

uint32_t HierPlanner::compOf(const Graph& g, PolyRef ref) const {
  const SlotPrint& sp = m_slots[m_mesh->decodePolyIdTile(ref)];
  return g.clusters[size_t(sp.cluster)].comp[sp.polyBase + m_mesh->decodePolyIdPoly(ref)];
}

Status HierPlanner::findPath(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                             const QueryFilter* filter, PolyRef* path, int* pathCount, int maxPath) {
  m_stats = Stats();
  if (!m_mesh || !filter || !path || !pathCount || maxPath <= 0 || !startPos || !endPos)
    return FAILURE | INVALID_PARAM;
  *pathCount = 0;
  if (m_mesh->generation() != m_generation) update();
  if (!m_queryReady || !m_mesh->isValidPolyRef(startRef) || !m_mesh->isValidPolyRef(endRef))
    return FAILURE | INVALID_PARAM;
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(startPos[k]) || !std::isfinite(endPos[k])) return FAILURE | INVALID_PARAM;
  const int sc = m_slots[m_mesh->decodePolyIdTile(startRef)].cluster;
  const int ec = m_slots[m_mesh->decodePolyIdTile(endRef)].cluster;

  const Graph& g = *graphFor(*filter);
  m_stats.filterGraph = &g != &m_main;
  int pops = 0, lastPopped = -1;
  const int goal = abstractSearch(g, startRef, endRef, startPos, endPos, INT32_MAX, &pops, &lastPopped);
  if (goal < 0) {
    // Not connected under the filter: a bounded search's partial corridor toward the goal (the
    // answer "no path" is exact; running out of its nodes says nothing more).
    if (!m_partialReady) return FAILURE | OUT_OF_MEMORY;
    const Status st =
        m_partialQuery.findPath(startRef, endRef, startPos, endPos, filter, path, pathCount, maxPath);
    m_stats.refineNodes = m_partialQuery.nodePool().getNodeCount();
    return statusSucceeded(st) ? (st & ~OUT_OF_NODES) | PARTIAL_RESULT : st;
  }
  m_stats.connected = true;
  if (++m_corridorStamp == 0) {
    std::fill(m_clusterMark.begin(), m_clusterMark.end(), 0u);
    m_corridorStamp = 1;
  }
  const int r = m_opts.corridorRadius;
  auto markCorridor = [&](int radius) {
    markCluster(sc, radius);
    markCluster(ec, radius);
    for (int n = m_parent[size_t(goal)]; n >= 0 && n < g.nodeCount; n = m_parent[size_t(n)])
      markCluster(g.nodeCluster[size_t(n)], radius);
  };
  markCorridor(r);
  for (int n = m_parent[size_t(goal)]; n >= 0 && n < g.nodeCount; n = m_parent[size_t(n)]) ++m_stats.abstractPathNodes;

  HierPassContext ctx{filter, m_slots.data(), m_clusterMark.data(), m_corridorStamp, m_mesh};
  m_wrap = *filter;
  m_wrap.userData = &ctx;
  m_wrap.setPassFn(&HierPassContext::pass);
  m_wrap.setCostFn(filter->costFn() ? &HierPassContext::cost : nullptr);
  m_wrap.setHeuristicScale(m_opts.refineHeuristicScale);
  Status st = m_query.findPath(startRef, endRef, startPos, endPos, &m_wrap, path, pathCount, maxPath);
  m_stats.refineNodes = m_query.nodePool().getNodeCount();
  if (!(statusSucceeded(st) && !(st & PARTIAL_RESULT))) {
    // The filter blocks the corridor the graph allowed: a way around often passes the clusters
    // beside it.
    m_stats.widened = true;
    markCorridor(r + 1);
    st = m_query.findPath(startRef, endRef, startPos, endPos, &m_wrap, path, pathCount, maxPath);
    m_stats.refineNodes += m_query.nodePool().getNodeCount();
  }
  m_wrap.userData = nullptr;
  if (statusSucceeded(st) && !(st & PARTIAL_RESULT)) return st;
  // Still blocked: search without a corridor (complete, or a proof that no path exists).
  m_stats.fallback = true;
  st = m_query.findPath(startRef, endRef, startPos, endPos, filter, path, pathCount, maxPath);
  m_stats.refineNodes += m_query.nodePool().getNodeCount();
  return st;
}

} // namespace nav
