// HierPlanner.h: a hierarchical path search over tiles, beside NavMeshQuery::findPath.
//
// Abstract graph (built by init, kept in step with the mesh by update):
//   * a cluster = the tiles (all layers) of a square of clusterTiles x clusterTiles tile locations;
//   * per cluster, the components of its polygons over the links between them that go both ways
//     (every polygon of a component reaches every other inside the cluster);
//   * an entrance = (cluster, component, neighbour cluster): the links from that component into
//     that cluster (tile-border portals, off-mesh connections) and the links landing in that
//     component from it. A one-way link between two components of one cluster (an off-mesh
//     connection's landing) makes an entrance of each with the cluster itself as neighbour. Its
//     position is the mean of the crossing points (portal midpoints, off-mesh end points);
//   * edges: entrance -> entrance of the same component, costed by a Dijkstra over the cluster's
//     polygons (centroid to centroid, distance * area cost), and entrance -> entrance across every
//     link between them (cost 0).
// Graphs: the default one covers every polygon, whatever its flags, with the build filter's area
// costs. A query whose filter has no pass hook and differs from the default (flags 0xffff / 0) or
// from the build costs searches a graph of its own, built over the polygons passing the filter's
// include / exclude flags with its area costs: built when a query first needs it, at most
// MAX_FILTER_GRAPHS kept (the least recently used dropped), its clusters rebuilt at its next query
// after tile changes, dropped whole after setPolyFlags / setPolyArea (NavMesh::attributeGeneration).
// Query (findPath): A* over the entrances from the start polygon's component to the end polygon's
// (straight-line costs from / to the query points; a start polygon the filter excludes leads to
// the components its links reach); the clusters of the abstract path (and those within
// Options::corridorRadius clusters of them) become a corridor, and NavMeshQuery::findPath runs
// inside it under the caller's filter and costs, with its own heuristic scale
// (Options::refineHeuristicScale: a weighted A*, so lengths are close to findPath's, not equal).
// The result is an ordinary polygon corridor (findStraightPath, the smooth path and the crowd use
// it unchanged).
//
// Completeness: a path under the filter maps to an abstract path on the graph the query searches,
// so when the abstract search fails the points are not connected: PARTIAL_RESULT, with the
// corridor to the polygon nearest the goal that a 2,048-node search reaches (never OUT_OF_NODES:
// the answer "no path" is exact, the corridor best effort, at Detour's default cost). Reachability
// never depends on costs (huge coordinates overflow them). With a filter graph the corridor holds
// a path whenever the abstract search finds one. On the default graph a hook or flags-0 polygons
// may block what the graph allows: the corridor search then runs again one cluster wider, then
// without a corridor, with a node per polygon and state (it cannot run out of nodes): complete
// whenever connected, never OUT_OF_NODES.
//
// Memory: the graphs (graphBytes: the default one; filterGraphBytes: the filters'), the search
// arrays (searchBytes, sized at update) and the query's node pool (NavMeshQuery::initUnlimited:
// about 32 bytes per polygon plus its nodes). No allocation per query on an unchanged mesh with
// a filter whose graph is built; a query on a mesh whose generation() changed updates first, and
// a filter's first query (or first after tile changes) builds its graph (both allocate).
//
// Not thread-safe: one planner per thread (it owns one NavMeshQuery).
#pragma once

#include "nav/NavMeshQuery.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nav {

/// HierPlanner's tuning.
struct HierOptions {
  /// Side of a cluster in tile locations [Limit: 1..64]; 0 = the tile count nearest to
  /// AUTO_CLUSTER_SIDE (8 tiles of 19.2 wu, 4 of 33.6 wu).
  int clusterTiles = 0;
  /// The cluster side clusterTiles = 0 aims at: the side that met the speed, length and update
  /// targets on the 2 km and 4 km worlds (docs/performance.md). [Unit: wu]
  static constexpr float AUTO_CLUSTER_SIDE = 150.0f;
  /// Clusters around each cluster of the abstract path that the refinement may also use [Limit: 0..2].
  int corridorRadius = 0;
  /// Heuristic scale of the refinement's A* (replaces the caller's filter's): above 1 the search
  /// inside the corridor expands far fewer polygons for slightly longer paths (docs/performance.md).
  float refineHeuristicScale = 1.5f;
};

/// What HierPlanner::findPath did last.
struct HierStats {
  int abstractExpanded = 0; ///< Entrances popped by the abstract A*.
  int abstractPathNodes = 0; ///< Entrances on the abstract path.
  int corridorClusters = 0; ///< Clusters the refinement could use.
  int refineNodes = 0;      ///< Nodes of the final polygon search.
  bool connected = false;   ///< The abstract search found a path.
  bool widened = false;     ///< The corridor search missed the end; it ran again one cluster wider.
  bool fallback = false;    ///< The wider one missed it too; an unrestricted search ran.
  bool filterGraph = false; ///< The abstract search ran on the graph built for the filter's flags and costs.
};

class HierPlanner {
public:
  using Options = HierOptions;
  using Stats = HierStats;

  HierPlanner();
  ~HierPlanner();
  HierPlanner(const HierPlanner&) = delete;
  HierPlanner& operator=(const HierPlanner&) = delete;

  /// Builds the default graph of every tile of `mesh` (it must outlive the planner). costFilter
  /// (null: the default filter) gives the area costs of its intra-cluster edges; its flags are not used.
  /// FAILURE | INVALID_PARAM on a null mesh or a mesh without tile slots.
  Status init(const NavMesh* mesh, const QueryFilter* costFilter = nullptr, const Options& opts = Options());
  /// Brings the graph up to date when the mesh's generation() changed: the clusters of the tiles
  /// whose slot changed (salt, data block, data size) and of the tiles around them are rebuilt. A
  /// tile replaced in place by one at the same ref (addTile's lastRef restoring the salt) in a block
  /// at the same address and of the same size goes unnoticed: call init again after such a swap.
  /// Returns how many clusters of the default graph were rebuilt (0 when no tile changed: flags and
  /// areas do not count; they drop the filters' graphs).
  int update();

  /// The hierarchical search (see the file comment). Arguments and status bits as
  /// NavMeshQuery::findPath; the filter must not be null.
  Status findPath(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                  const QueryFilter* filter, PolyRef* path, int* pathCount, int maxPath);

  const Stats& lastStats() const { return m_stats; }
  const Options& options() const { return m_opts; }
  /// The query object the refinement runs on (initUnlimited on the same mesh), for straight paths.
  NavMeshQuery& query() { return m_query; }
  const NavMesh* mesh() const { return m_mesh; }

  /// Bytes of the abstract graph (slot prints, cluster index, component per polygon, entrances,
  /// edges; vector capacities).
  size_t graphBytes() const;
  /// Bytes of the search's own arrays (abstract search state, corridor marks), query pool excluded.
  size_t searchBytes() const;
  int entranceCount() const { return m_main.nodeCount; }
  size_t edgeCount() const;

  /// The graph as text in a canonical order (clusters by coordinates, entrances by (neighbour
  /// cluster, component), edges sorted, positions and costs rounded): the graphs of two planners
  /// on the same mesh print the same, whatever the order the tiles came and went in.
  std::string canonical() const;
  /// The same for the graph `filter`'s queries search (built or brought up to date first; the
  /// default graph for filters that use it).
  std::string canonical(const QueryFilter& filter);

  /// Graphs built for filters (see the file comment), at most MAX_FILTER_GRAPHS.
  static constexpr int MAX_FILTER_GRAPHS = 4;
  int filterGraphCount() const { return int(m_filtered.size()); }
  /// Bytes of the graphs built for filters (beside graphBytes, which is the default graph's).
  size_t filterGraphBytes() const;

  // ---- Internal records (public for the implementation's helpers).
  struct Edge {
    int32_t cluster; ///< Cluster of the target entrance.
    int32_t local;   ///< Its index in that cluster's entrances.
    float cost;      ///< [Unit: cost]
  };
  struct Entrance {
    int32_t neighbour; ///< Cluster on the other side.
    int32_t component;
    float pos[3];
    uint32_t firstIntra, intraCount; ///< In Cluster::intra.
    uint32_t firstInter, interCount; ///< In Cluster::inter.
  };
  struct Cluster {
    int cx = 0, cy = 0;
    std::vector<int32_t> slots;     ///< Tile slots, ascending.
    std::vector<uint32_t> comp;     ///< Component per polygon, the slots' polygons in slot order.
    std::vector<Entrance> ents;     ///< Sorted by (neighbour's cx, cy, component).
    std::vector<Edge> intra, inter;
  };
  /// What a tile slot held when the graph was last updated.
  struct SlotPrint {
    const uint8_t* data = nullptr;
    uint32_t salt = 0;
    int32_t dataSize = 0, polyCount = 0;
    int32_t x = 0, y = 0;
    int32_t cluster = -1;  ///< -1: empty slot.
    uint32_t polyBase = 0; ///< Its first polygon in the cluster's comp.
  };

private:
  int clusterAt(int64_t cx, int64_t cy) const; ///< -1 when none.
  void clusterCoords(int64_t x, int64_t y, int64_t* cx, int64_t* cy) const;
  /// fn(tile, poly, cluster poly index, link, target slot's print, target poly index) for each link
  /// of the cluster's polygons to a polygon of a tile the graph knows.
  template <class Fn>
  void forEachClusterLink(const Cluster& cl, Fn fn) const;
  /// One abstract graph: the default one (every polygon, the build filter's costs; its clusters
  /// also hold the layout: coordinates and tile slots) or one built for a filter's flags and area
  /// costs (its clusters' cx, cy and slots unused).
  struct Graph {
    std::vector<Cluster> clusters;   ///< Indexed as the default graph's.
    std::vector<uint32_t> nodeBase;  ///< Global node id of each cluster's first entrance.
    std::vector<int32_t> nodeCluster; ///< Cluster of each global entrance id.
    int nodeCount = 0;
    bool filtered = false; ///< Polygons failing (include, exclude) are left out.
    uint16_t include = 0xffff, exclude = 0;
    float areaCost[MAX_AREAS] = {};
    std::vector<uint8_t> stale; ///< Per cluster: rebuilt when a query next uses the graph.
    bool anyStale = false;
    uint64_t lastUse = 0;
  };
  void rebuildCluster(Graph& g, int c); ///< Components, entrances, intra-cluster edges.
  void buildInter(Graph& g, int c);     ///< Edges across links (needs the neighbours' entrances).
  /// The edges of cluster n's entrances facing a rebuilt cluster (m_dirty 1), from m_ring.
  void retargetInter(Graph& g, int n);
  /// Rebuilds m_rebuild's clusters (m_dirty 1 for them, 0 elsewhere) and renews the edges around.
  void rebuildGraph(Graph& g);
  void syncGraph(Graph& g); ///< Rebuilds the stale clusters of a filter's graph.
  /// The graph a query under f searches: the default one for filters with a hook or with the
  /// default flags and build costs, else the (built, up to date) one for f's flags and costs.
  Graph* graphFor(const QueryFilter& f);
  std::string canonicalOf(const Graph& g) const;
  void layoutNodes(Graph& g);
  void resizeQuery();
  int findEntrance(const Graph& g, int c, int neighbour, uint32_t component) const;
  uint32_t compOf(const Graph& g, PolyRef ref) const;
  void relax(int id, float g, int parent, float h);
  int popMin();
  /// At most maxPops pops of the open list (the goal's pop counts); *pops and *lastPopped (-1: none)
  /// say how far it went (the A* Stepper runs it piece by piece). Returns the goal's id when it was
  /// popped, -1 when the open list ran empty, -2 when maxPops stopped it.
  int abstractSearch(const Graph& g, PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                     int maxPops, int* pops, int* lastPopped);
  void markCluster(int c, int radius); ///< c and the clusters within `radius` of it join the corridor.

  const NavMesh* m_mesh = nullptr;
  QueryFilter m_costFilter;
  Options m_opts;
  uint64_t m_generation = 0;
  uint64_t m_attributeGeneration = 0; ///< The mesh's attributeGeneration() the filters' graphs saw.
  std::vector<SlotPrint> m_slots;
  Graph m_main; ///< The default graph.
  std::vector<std::unique_ptr<Graph>> m_filtered; ///< Built for filters, least recently used dropped first.
  uint64_t m_useClock = 0;
  std::vector<std::pair<uint64_t, int32_t>> m_clusterKeys; ///< (key, cluster), sorted by key.
  NavMeshQuery m_query;
  /// Nodes of the search that answers unconnected pairs (Detour's default pool).
  static constexpr int PARTIAL_NODES = 2048;
  NavMeshQuery m_partialQuery;
  bool m_partialReady = false;
  std::vector<int> m_poolPolys; ///< Polygons per slot the query's node pool was sized for.
  bool m_queryReady = false;
  QueryFilter m_wrap; ///< The caller's filter with the corridor test (findPath).
  Stats m_stats;

  // Abstract search state, [Size: at least the largest graph's nodeCount + 2] (start and goal at the end).
  std::vector<float> m_g, m_f;
  std::vector<int32_t> m_parent;
  std::vector<uint32_t> m_stamp;
  std::vector<int32_t> m_heap, m_heapPos;
  int m_heapSize = 0;
  uint32_t m_searchStamp = 0;
  // Corridor: a cluster is in it when its mark is m_corridorStamp.
  std::vector<uint32_t> m_clusterMark;
  uint32_t m_corridorStamp = 0;

  // Build scratch (sized to the largest cluster).
  struct Crossing {
    int32_t neighbour;
    uint32_t component;
    uint32_t poly; ///< The cluster's polygon the crossing starts or lands on (comp index).
    float p[3];
  };
  std::vector<Crossing> m_cross;
  /// Dijkstra distances in double: sums of costs capped at FLT_MAX stay finite, so "reached" never
  /// depends on coordinates (a hostile tile's 1e38 vertices).
  std::vector<double> m_dist;
  std::vector<float> m_centroid, m_polyCost;
  std::vector<uint8_t> m_pass; ///< Per polygon of the cluster being built: it passes the graph's filter.
  std::vector<int32_t> m_uf;
  std::vector<std::pair<double, int32_t>> m_dheap;
  std::vector<uint32_t> m_target; ///< Per polygon: m_targetStamp while a Dijkstra still has to settle it.
  uint32_t m_targetStamp = 0;
  struct Adj {
    uint32_t to;
    float cost;      ///< Centroid to centroid * the mean area cost of both. [Unit: cost]
    uint8_t twoWay;  ///< The link back exists too (the intra-cluster Dijkstra uses only these).
  };
  std::vector<uint32_t> m_adjStart; ///< Per polygon of the cluster being built: its first Adj.
  std::vector<Adj> m_adj;
  std::vector<uint32_t> m_firstCross;
  std::vector<int32_t> m_entOrder;           ///< Entrances by component.
  std::vector<uint32_t> m_entRank, m_entGroup; ///< Per entrance: rank in its component, its group's start in m_entOrder.
  std::vector<double> m_pairCost;            ///< Intra-cluster costs, [entrance * group size + rank].
  // Update scratch.
  std::vector<uint8_t> m_dirty; ///< Per cluster: 1 rebuilt, 2 its edges into rebuilt ones renewed.
  std::vector<int> m_rebuild;
  /// A link from a polygon of cluster `from` into one of the rebuilt cluster `to` (cluster polygon
  /// indices), found by to's rebuild, sorted.
  struct RingLink {
    int32_t from, to;
    uint32_t fromPoly, toPoly;
    bool operator<(const RingLink& o) const {
      return from != o.from ? from < o.from : to != o.to ? to < o.to : fromPoly != o.fromPoly ? fromPoly < o.fromPoly : toPoly < o.toPoly;
    }
  };
  std::vector<RingLink> m_ring;
  struct InterPair {
    int32_t from, cluster, to;
    bool operator<(const InterPair& o) const {
      return from != o.from ? from < o.from : cluster != o.cluster ? cluster < o.cluster : to < o.to;
    }
    bool operator==(const InterPair& o) const { return from == o.from && cluster == o.cluster && to == o.to; }
  };
  std::vector<InterPair> m_pairs;
  std::vector<Edge> m_interScratch;

  friend struct HierPassContext;

  // ---- Inspection (the viewer's graph overlay and A* Stepper; nav/HierPlannerView.cpp) ---------
  // Read-only views of the graph, and findPath's abstract search and refinement run piece by
  // piece. These allocate (viewer use, not per query); the search state they leave is findPath's
  // own, so a findPath in between replaces it.
public:
  int clusterCount() const { return int(m_main.clusters.size()); }
  const Cluster& cluster(int c) const { return m_main.clusters[size_t(c)]; }
  /// Global id of entrance `local` of cluster c, in 0..entranceCount()-1.
  int entranceId(int c, int local) const { return int(m_main.nodeBase[size_t(c)]) + local; }
  /// The cluster of a global entrance id.
  int entranceCluster(int id) const { return m_main.nodeCluster[size_t(id)]; }
  const Entrance& entrance(int id) const {
    const int c = m_main.nodeCluster[size_t(id)];
    return m_main.clusters[size_t(c)].ents[size_t(id) - m_main.nodeBase[size_t(c)]];
  }
  /// The cluster of a polygon, -1 when the graph does not know its tile.
  int clusterOfPoly(PolyRef ref) const;

  /// A node of the abstract search: an entrance id, or abstractStartId() / abstractGoalId().
  struct AbstractNode {
    int id = -1;
    int parent = -1; ///< Node id it was reached from, -1 for the start.
    float g = 0, f = 0;
    bool open = false; ///< In the open list (else closed: expanded).
    float pos[3] = {0, 0, 0};
  };
  int abstractStartId() const { return m_main.nodeCount; }
  int abstractGoalId() const { return m_main.nodeCount + 1; }
  /// findPath's abstract search from (startRef, startPos) to (endRef, endPos), stopped after
  /// maxPops pops of its open list (the goal's pop, which ends it, counts). Returns the pops done;
  /// *finished: the search ended (goal popped or open list empty), *reached: the goal was popped;
  /// *lastPopped: the node id popped last (-1 none). -1 on invalid input (as findPath's).
  int searchAbstract(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos, int maxPops,
                     bool* finished, bool* reached, int* lastPopped);
  /// The nodes the last searchAbstract touched, ascending ids (the start's and goal's positions are the query points).
  void abstractNodes(std::vector<AbstractNode>* out) const;
  /// The abstract path of the last searchAbstract that reached the goal: node ids, start first,
  /// goal last (empty otherwise).
  void abstractPath(std::vector<int>* ids) const;
  /// The refinement pass findPath's last call ended with: 0 the corridor, 1 the corridor one
  /// cluster wider, 2 no corridor (lastStats().widened / fallback).
  int lastRefinePass() const { return m_stats.fallback ? 2 : m_stats.widened ? 1 : 0; }
  /// After a searchAbstract that reached the goal: marks the corridor of refinement pass `pass`
  /// (as findPath does) and returns the filter that pass searches with (`filter` restricted to it,
  /// with the refinement's heuristic scale; pass 2: `filter` itself). Valid until the next call;
  /// null when the last search did not reach the goal.
  const QueryFilter* refineFilter(const QueryFilter* filter, int pass);
  /// Is cluster c in the corridor refineFilter marked last?
  bool inCorridor(int c) const { return c >= 0 && size_t(c) < m_clusterMark.size() && m_clusterMark[size_t(c)] == m_corridorStamp; }

private:
  /// refineFilter's context (its filter's userData): the caller's filter and the corridor marks.
  struct ViewPass {
    const QueryFilter* user = nullptr;
    const HierPlanner* planner = nullptr;
  };
  ViewPass m_viewPass;
  QueryFilter m_viewFilter;
  int m_viewGoal = -1; ///< The goal's id when the last searchAbstract reached it, else -1.
  int m_viewStartCluster = -1, m_viewEndCluster = -1; ///< Of the last searchAbstract.
};

} // namespace nav
