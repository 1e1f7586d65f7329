// ShortestPath.h: exact (any-angle, Euclidean) shortest paths on the navmesh, in the manner of
// Polyanya (Cui, Harabor, Grastien, "Compromise-free Pathfinding on a Navigation Mesh", IJCAI 2017).
//
// Detour's findPath runs A* over polygons with edge midpoints as node positions, then
// findStraightPath pulls a string through the corridor it found. The corridor is often not the one
// that holds the shortest path, so the result can be longer than necessary. This search finds the
// truly shortest path instead, with no preprocessing:
//
//   * A search node is (interval [l, r] on a portal edge, root point): every point of the interval
//     is reached by a straight segment from the root, the root by a known-optimal path from the
//     start. The node enters the polygon on the far side of the interval.
//   * Expanding a node projects the interval through that polygon: the parts of the other edges
//     the root sees through [l, r] become successors with the same root ("observable"); the parts
//     hidden behind l or r become successors rooted at l or r ("non-observable", a turn), but only
//     where l / r is a mesh corner (a vertex whose polygon fan is not closed, or a partial portal
//     end on a tile border) -- a shortest path only turns at corners.
//   * f = g(root) + h, h = the length of the shortest way from the root through [l, r] to the
//     target (the target is mirrored across the interval's line when it is on the root's side).
//     h is exact when nothing blocks, so the search expands few nodes.
//   * Roots are pruned when reached again with a longer g (root-level pruning of the paper).
//   * Beyond the paper (uniform costs only): a successor on an edge is not generated when a node
//     generated before on the same edge, into the same polygon, reaches every point of it at most
//     as cheaply (g2 + |r2 p| <= g1 + |r1 p|; r2 sees its whole interval, so its subtree continues
//     from any of those points), and is cut at one end where such a node does so on that part.
//
// Our own data: intervals are links' portals (tile borders: the link's bmin/bmax sub-segment of the
// edge, as Detour's getPortalPoints), polygons that fail the filter are walls, off-mesh
// connections are a forced turn at their start point followed by the connection itself (cost: its
// 3D length times its area cost), then a new root at the landing point. The search walks the
// polygon graph only (links), so on multi-storey levels floors above and below never mix; inside a
// polygon geometry is 2D (x, z), heights come from the polygon vertices and the input points.
//
// Metric and costs (what "shortest" means):
//   * On the mesh the length of a segment is its xz length (the metric the search minimises
//     exactly); an off-mesh connection counts its 3D length (a ladder is not free).
//   * Area costs: a segment piece inside a polygon costs length * areaCost(polygon area) (plus the
//     filter's area entering cost when the path enters another area, and the filter's CostFn when
//     set, called per piece like Detour's getCost). With all area costs equal (the usual case: all
//     1) the answer is the exact shortest path. With non-uniform costs the truly cheapest weighted
//     path bends inside regions (Snell's law), a much harder problem; this search then returns the
//     cheapest path among those that bend only at mesh corners and off-mesh end points, each
//     candidate costed exactly piece by piece. The heuristic is scaled by the smallest area cost, so
//     the search stays admissible in that model (a CostFn must not return less than
//     min(area cost) * length for that to hold).
//
// Conventions as findStraightPath: caller-owned buffers with max counts, BUFFER_TOO_SMALL when a
// buffer was too small (the start of the path is kept), PARTIAL_RESULT when the end is not
// reachable (the path then leads to the reachable point closest to the end), OUT_OF_NODES when the
// node pool ran out (the best path found so far is returned; with SUCCESS it is complete but not
// guaranteed shortest). No allocation per query: pools are sized by init.
#pragma once

#include "nav/NavTypes.h"

#include <cstdint>

namespace nav {

class NavMesh;
struct MeshTile;
class QueryFilter;

/// Result counters of the last query (for the viewer, the CLI and benchmarks).
struct ShortestPathStats {
  int nodesGenerated = 0; ///< Search nodes taken from the pool.
  int nodesExpanded = 0;  ///< Nodes popped from the open list and expanded.
  int rootsCreated = 0;   ///< Turn points, off-mesh ends and the start/end.
  int slotsUsed = 0;      ///< Hash entries of the query (vertices, expansions, off-mesh landings).
  int maxNodes = 0;       ///< Pool size (the node limit).
  int nodesDominated = 0; ///< Successors not generated: an earlier node on the same edge reaches
                          ///< every point of theirs at most as cheaply (uniform costs only).
  int nodesShrunk = 0;    ///< Successors cut at one end where an earlier node dominates that part.
  int tilesGathered = 0;  ///< Tiles whose polygons this query gathered into the polygon cache.
  int uncachedExpansions = 0; ///< Expansions in polygons of a tile the polygon cache cannot hold.
};

/// A read-only view of one search node, for drawing the search (intervals and roots).
struct ShortestPathNodeView {
  float left[3], right[3]; ///< Interval end points [(x, y, z)] (equal for goal nodes).
  float root[3];           ///< Root point [(x, y, z)].
  float f;                 ///< Estimated total cost through this node.
  float g;                 ///< Cost from the start to the root.
  PolyRef poly;            ///< Polygon entered across the interval.
  int parent;              ///< Parent node index, -1 for successors of the start.
  uint8_t kind;            ///< 0 = interval, 1 = goal, 2 = off-mesh landing.
};

class ShortestPath {
public:
  ShortestPath();
  ~ShortestPath();
  ShortestPath(const ShortestPath&) = delete;
  ShortestPath& operator=(const ShortestPath&) = delete;

  /// Sizes the pools: maxNodes search nodes per query [Limit: 16..2^24]; the open list, the root
  /// records and the hash of visited roots / mesh corners are sized from it (about 270 bytes per
  /// node in all: 2.2 MB for the default 8192). Typical queries take tens to hundreds of nodes
  /// (game-sized levels), a few thousand on a 200 m field of 400 obstacles; OUT_OF_NODES says when
  /// the pool was too small. The mesh must outlive this object; tiles may change between queries.
  /// Also sizes the corner cache kept across queries (whether a vertex's polygon fan is closed,
  /// found once per mesh generation): 5 bytes per vertex for twice the vertices loaded now (at
  /// least 32 K vertices) and 8 bytes per tile slot (at most 64 K slots); when more tiles are
  /// visited than it holds it starts over, and a tile that does not fit is asked per query.
  /// Likewise the polygon cache (what an expansion reads of a polygon and its links, gathered per
  /// tile once per mesh generation): 96 bytes per polygon and 16 per link slot loaded now (at least
  /// 1 K polygons and 4 K links); a tile bigger than that is read from the mesh at each expansion.
  Status init(const NavMesh* mesh, int maxNodes = 8192);

  /// Finds the shortest path from startPos (inside startRef) to endPos (inside endRef).
  /// @param straightPath      corner points [(x, y, z) * *straightPathCount]: start, turns,
  ///                          off-mesh start/end points, end.
  /// @param straightPathFlags per point: STRAIGHTPATH_START / _END / _OFFMESH_CONNECTION (the
  ///                          last one marks the start of an off-mesh connection) [opt]
  /// @param straightPathRefs  per point: the polygon the next segment starts in (the connection
  ///                          poly at an off-mesh start, 0 at the end) [opt]
  /// @param maxStraightPath   capacity of the point buffers [Limit: >= 1]
  /// @param polys             the polygons the path passes, start to end, off-mesh connection polys
  ///                          included (like a findPath corridor) [opt]
  /// @param maxPolys          capacity of polys (ignored when polys is null)
  /// @param length            the path's cost: its length in the metric above (times area costs
  ///                          when those are not 1) [opt] [Unit: wu]
  Status findPath(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                  const QueryFilter* filter, float* straightPath, uint8_t* straightPathFlags,
                  PolyRef* straightPathRefs, int* straightPathCount, int maxStraightPath,
                  PolyRef* polys = nullptr, int* polyCount = nullptr, int maxPolys = 0,
                  float* length = nullptr);

  /// The same search in slices, for stepping it in the viewer: init (IN_PROGRESS, or FAILURE on bad
  /// input), then update until the status is no longer IN_PROGRESS (maxIter = nodes taken from the
  /// open list per call), then finalize (same outputs and statuses as findPath; finalizing early
  /// returns the best partial path so far). Between calls nodeCount()/getNode() show the search.
  Status initSlicedFindPath(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                            const QueryFilter* filter);
  Status updateSlicedFindPath(int maxIter, int* doneIters);
  Status finalizeSlicedFindPath(float* straightPath, uint8_t* straightPathFlags, PolyRef* straightPathRefs,
                                int* straightPathCount, int maxStraightPath, PolyRef* polys = nullptr,
                                int* polyCount = nullptr, int maxPolys = 0, float* length = nullptr);
  /// Open-list size of the running search (nodes still to expand).
  int openCount() const { return m_heapSize; }

  const ShortestPathStats& lastStats() const { return m_stats; }

  /// Dominance pruning (uniform costs only; see ShortestPath.cpp): successors are tested once the
  /// search has expanded this many nodes [Limit: >= 0; < 0 turns the pruning off]. The default 24
  /// spares small searches the tests, which rarely prune there; answers keep their length either way.
  void setDominanceAfter(int expansions) { m_dominanceAfter = expansions; }
  int getMaxNodes() const { return m_maxNodes; }

  /// The nodes of the last query (valid until the next query), for drawing the search.
  int nodeCount() const { return m_nodeCount; }
  bool getNode(int i, ShortestPathNodeView* out) const;

  struct Node;
  struct Root;
  struct Slot;
  struct PolyRec;
  struct LinkRec;

private:
  void freeArrays(); ///< Every array init allocates (destructor, re-init).
  // Search steps (ShortestPath.cpp).
  int expandNode(int n); ///< Returns a node to expand right away (intermediate pruning), or -1.
  void flushDeferred();
  void expandPoint(int parent, int root, PolyRef polyRef, const float* entryL, const float* entryR);
  void pushSuccessor(int parent, int root, PolyRef polyRef, const float* l, const float* r, uint64_t lkey,
                     uint64_t rkey, const float* e0, const float* e1, float tlo, float thi);
  bool dominates(int root2, int root1, const float* a, const float* b) const;
  void pushGoal(int parent, int root, const float* via, float cost);
  void handleOffMesh(int parent, int root, PolyRef fromRef, PolyRef conRef, const float* l, const float* r,
                     bool pointRoot);
  int newRoot(const float* pos, float g, int parent, PolyRef poly, uint8_t flags);
  bool staleRoot(int root);
  int turnRootAt(uint64_t key, const float* pos, float g, int parentRoot, PolyRef poly);
  int newNode();
  bool deadEnd(PolyRef polyRef, const MeshTile* tile, const Poly* poly, PolyRef from) const;
  static bool deadEndFrom(const MeshTile* tile, const Poly* poly, PolyRef from);
  float costTo(int n, int root, const float* p, bool pInsideNodePoly, PolyRef endNext);
  bool isCorner(uint64_t key, PolyRef polyRef, const float* pos);
  bool isCornerSlow(uint64_t key, PolyRef polyRef, const float* pos);
  int cornerBase(uint32_t tileIndex);
  void forgetCorners();
  const PolyRec* polyRec(PolyRef ref);
  const PolyRec* fillPolyTile(uint32_t tileIndex, PolyRef ref);
  void forgetPolys();
  void makeLinkRec(const Link& link, PolyRef from, int nv, LinkRec& out) const;
  bool passLink(const LinkRec& link) const;
  uint8_t walkFan(uint64_t key, PolyRef polyRef, const float* pos, const QueryFilter* filter,
                  uint32_t* flagsOut) const;
  Slot* slot(uint64_t key, bool create);
  bool growSlots();
  void nextStamp();
  void heapPush(int n);
  int heapPop();
  float heuristic(const float* root, const float* l, const float* r, const float* e0, const float* e1) const;

  const NavMesh* m_mesh = nullptr;
  const QueryFilter* m_filter = nullptr;
  int m_maxNodes = 0, m_maxRoots = 0;
  Node* m_nodes = nullptr;
  int m_nodeCount = 0;
  Root* m_roots = nullptr;
  int m_rootCount = 0;
  struct HeapItem {
    float f, g; ///< Copies of the node's f and g: the heap compares without touching the nodes.
    int n;
  };
  HeapItem* m_heap = nullptr;
  int m_heapSize = 0;
  int* m_scratch = nullptr; ///< [Size: m_maxNodes] chain walks and path reconstruction.
  Slot* m_slots = nullptr;
  Slot* m_slotMove = nullptr; ///< [Size: 3/8 of the table] live slots while the used part grows.
  uint32_t m_slotFullMask = 0; ///< Whole table size - 1.
  uint32_t m_slotMask = 0;     ///< Part of the table used by this query - 1 (starts small, doubles).
  uint32_t m_stamp = 0;
  int m_slotsUsed = 0;
  // Dominance lists (uniform costs): per (edge, entered polygon), hashed into a direct-mapped
  // table of heads, the nodes generated there (linked through the nodes). Sized by init.
  struct EdgeHead {
    uint32_t stamp; ///< Valid for the query with this m_edgeStamp.
    int head;       ///< Last node generated on an edge hashed here, -1 none.
  };
  EdgeHead* m_edgeHeads = nullptr;
  uint32_t m_edgeMask = 0;
  uint32_t m_edgeStamp = 0;
  int m_dominanceAfter = 24;

  // Mesh corners kept across queries: a vertex's fan depends on the mesh only, so its walk is done
  // once per mesh generation (NavMesh::generation()) instead of once per query. Per tile index,
  // where its vertices start in m_cornerState / m_cornerFlags (filled on demand). Sized by init;
  // when full, or when the mesh changed, every tile is forgotten (a new epoch).
  struct CornerTile {
    uint32_t epoch = 0;
    int base = 0;
  };
  CornerTile* m_cornerTiles = nullptr;  ///< [Size: m_cornerTileCount]
  uint8_t* m_cornerState = nullptr;     ///< Per vertex: 0 unknown, 1 open fan, 2 closed fan.
  uint32_t* m_cornerFlags = nullptr;    ///< Closed fans: AND of the fan's poly flags | OR << 16.
  uint32_t m_cornerTileCount = 0;
  int m_cornerCap = 0, m_cornerUsed = 0;
  uint32_t m_cornerEpoch = 1;
  uint64_t m_cornerGeneration = 0;      ///< The mesh generation the caches hold.
  // Polygons kept across queries the same way: per polygon what its expansion reads (vertex xz
  // ready for the side tests, vertex indices, its links with the neighbour's flags and whether the
  // neighbour is an off-mesh connection or a dead end from it), gathered per tile on demand.
  struct PolyTile {
    uint32_t epoch = 0;
    int base = 0;
  };
  PolyTile* m_polyTiles = nullptr; ///< [Size: m_cornerTileCount]
  PolyRec* m_polyRecs = nullptr;   ///< [Size: m_polyCap]
  LinkRec* m_linkRecs = nullptr;   ///< [Size: m_linkCap]
  int m_polyCap = 0, m_polyUsed = 0, m_linkCap = 0, m_linkUsed = 0;
  uint32_t m_polyEpoch = 1;
  bool m_cornerFilterFlags = false;     ///< This query's filter is the flag test (no pass hook).
  // The mesh's ref decoding, read once per query (the hot loops then decode in registers).
  const MeshTile* m_tiles = nullptr;
  uint32_t m_polyBits = 0, m_tileMask = 0, m_polyMask = 0;
  void tileAndPoly(PolyRef ref, const MeshTile** tile, const Poly** poly) const;
  uint32_t tileOf(PolyRef ref) const { return (ref >> m_polyBits) & m_tileMask; }
  uint16_t m_includeFlags = 0, m_excludeFlags = 0;

  // Per query.
  Status m_sliceStatus = FAILURE;
  PolyRef m_startRef = 0;
  float m_startPos[3] = {0, 0, 0};
  int m_startRoot = -1;
  int m_goal = -1;
  PolyRef m_endRef = 0;
  float m_endPos[3] = {0, 0, 0};
  bool m_uniform = true;     ///< All area costs equal, no entering costs, no CostFn.
  float m_unitCost = 1.0f;   ///< The area cost when uniform.
  float m_minCost = 1.0f;    ///< Smallest area cost (heuristic scale).
  bool m_outOfNodes = false;
  float m_lineTol = 1e-4f;   ///< Distance under which a point counts as on a line [Unit: wu].
  static constexpr int kMaxDeferred = 64;
  int m_deferred[kMaxDeferred];
  int m_deferCount = -1;     ///< >= 0 while expandNode collects its successors.
  bool m_lookahead = false;  ///< flushDeferred may hand its best successor straight to the loop.
  int m_lookNext = -1;       ///< That successor, to expand next without a trip through the heap.
  int m_bestNode = -1;       ///< Node whose interval comes closest to the end (partial results).
  float m_bestPoint[3] = {0, 0, 0};
  ShortestPathStats m_stats;
};

/// The second cost model for findPath's A* ("closest point"): instead of the portal's midpoint, a
/// neighbour node is placed at the point of the portal [left, right] closest (in xz) to the parent
/// node's position `from`; y is interpolated along the portal. The step cost is then
/// |from - out| (times the area cost), which never exceeds the midpoint cost. NavMeshQuery::findPath
/// uses it with FINDPATH_CLOSEST_POINT. Measured with `navbench quality` on the default level
/// (3000 pairs) it does NOT pick better corridors than the midpoints on average (mean length /
/// shortest 1.0124 against 1.0088; max 1.226 against 1.269): cheap steps along zig-zags mislead
/// the A*. [(x, y, z)] for every argument.
void closestPointOnPortal(const float* from, const float* left, const float* right, float* out);

/// A goal-directed variant of the same model (not used by findPath; kept for experiments): the point
/// of the portal that minimises
/// |from - out| + |out - to| in xz (where the straight line from `from` toward `to` crosses the
/// portal, mirrored when both are on one side, clamped to the portal's ends). [(x, y, z)]
void portalPointToward(const float* from, const float* to, const float* left, const float* right, float* out);

/// Length of a corner path in the metric findPath minimises: xz length of each segment, except
/// segments that start at a point flagged STRAIGHTPATH_OFFMESH_CONNECTION, which count their 3D
/// length. flags may be null (all segments xz). Works on Detour's / NavMeshQuery's straight paths
/// as well, so lengths compare like for like. [Unit: wu]
float straightPathLength(const float* points, const uint8_t* flags, int count);

} // namespace nav
