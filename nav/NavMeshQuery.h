// NavMeshQuery.h: every query the NavMeshTesterTool runs (seeds 000-003), on a NavMesh.
//
// Semantics follow Detour 1.5.1 (the Debian snapshot) so that, with a default QueryFilter, results
// are Detour's bit for bit: same refs, same corridors, same status bits. Conventions:
// - positions are float[3] (x, y, z), y up, [Unit: wu]; "2D" is the xz-plane;
// - the caller owns every output buffer and passes its capacity (maxX) and gets a count back;
// - input is checked once here (refs, finiteness, buffer sizes): bad input gives
//   FAILURE | INVALID_PARAM, never a crash;
// - nothing allocates after init().
//
// A query object is not thread-safe (it owns one node pool and one open list); use one per thread.
#pragma once

#include "nav/NavMesh.h"
#include "nav/NodePool.h"
#include "nav/QueryFilter.h"

namespace nav {

/// Result of the full raycast (Detour's dtRaycastHit).
struct RaycastHit {
  /// Hit parameter along start->end; FLT_MAX when the end is reached without hitting a wall.
  float t = 0;
  float hitNormal[3] = {0, 0, 0}; ///< Wall normal (xz), zero when no wall was hit.
  int hitEdgeIndex = -1;          ///< Edge of the last polygon the ray leaves through.
  PolyRef* path = nullptr;        ///< [in] caller buffer for the visited polygons [opt].
  int pathCount = 0;              ///< [out] visited polygons written.
  int maxPath = 0;                ///< [in] capacity of path.
  float pathCost = 0;             ///< [out] cost along the ray (RAYCAST_USE_COSTS).
};

/// Receives batches of polygons from queryPolygons (non-virtual: a function pointer + context).
struct PolyQuery {
  void (*process)(void* ctx, const MeshTile* tile, const Poly* const* polys, const PolyRef* refs, int count) = nullptr;
  void* ctx = nullptr;
};

/// Read-only view of a search for visual stepping (findPath, sliced findPath and the circle
/// searches). Valid until the next query on the same NavMeshQuery.
///
/// Stepping A* in a viewer:
///   q.initSlicedFindPath(startRef, endRef, startPos, endPos, &filter);
///   each frame / click:  st = q.updateSlicedFindPath(1, nullptr);  SearchView v = q.searchView();
///     draw v.pool->nodeAt(i) for i < v.nodeCount: pos, its parent's pos (v.parentOf), open/closed
///     from flags, cost (g) and total (f); v.openNode(0) is the next to expand; v.lastExpanded the
///     node just expanded; v.bestNode the node a partial path would end at.
///   when st is no longer IN_PROGRESS: q.finalizeSlicedFindPath(path, &n, maxPath).
/// Note: finalize reverses the parent links of the corridor's nodes in place (as Detour does), so
/// read the view before finalizing. Node positions are edge midpoints fixed at the first visit; a
/// polygon can have up to 4 nodes in findPath (one per tile-border crossing side, Node::state),
/// one in the sliced search.
struct SearchView {
  const NodePool* pool = nullptr;   ///< nodeAt(i) for i < nodeCount: ref, pos, parent, g, total, flags.
  int nodeCount = 0;
  const OpenList::Entry* open = nullptr; ///< Open list in heap order; open[0] is the next to expand.
  int openCount = 0;                     ///< (open[i].node is a pool index: openNode(i).)
  const Node* lastExpanded = nullptr;    ///< The node expanded last (null before the first step).
  const Node* bestNode = nullptr;        ///< The node the partial result would end at.
  /// Node of open list entry i.
  const Node& openNode(int i) const { return pool->nodeAt(int(open[i].node)); }
  /// Parent node of n (null for the start node).
  const Node* parentOf(const Node& n) const { return pool ? pool->getNodeAtIdx(n.parent) : nullptr; }
};

/// Why a neighbour was or was not relaxed while a node was expanded (RelaxEvent::result).
enum RelaxResult : uint8_t {
  RELAX_ACCEPT_NEW = 0,      ///< Reached for the first time: opened with the expanded node as parent.
  RELAX_ACCEPT_BETTER,       ///< Reached before with a higher total: parent, g and total replaced
                             ///< (re-opened when it was closed: see RelaxEvent::previousFlags).
  RELAX_REJECT_WORSE,        ///< Reached before with a total <= this one (or this total is NaN).
  RELAX_REJECT_FILTERED,     ///< The filter refuses the polygon.
  RELAX_REJECT_OUT_OF_NODES, ///< The node pool is full: no node for the neighbour (OUT_OF_NODES).
  RELAX_REJECT_PARENT,       ///< The link leads back to the expanded node's parent polygon.
  RELAX_REJECT_SAME_PARENT,  ///< Sliced search: the neighbour already hangs off the expanded node's
                             ///< parent (Detour's sliced-search rule; no cost computed).
  RELAX_REJECT_NO_PORTAL,    ///< Closest-point model: no portal between the two polygons.
  RELAX_RESULT_COUNT
};

/// One neighbour considered by an expansion of findPath / the sliced findPath (SearchObserver).
/// Every link of the expanded polygon with a non-null ref gives exactly one event, in link order.
struct RelaxEvent {
  PolyRef parent = 0;          ///< The polygon being expanded.
  PolyRef neighbour = 0;       ///< The polygon across the link.
  const Node* node = nullptr;  ///< The neighbour's node after the relaxation (null: no node looked up,
                               ///< i.e. PARENT, FILTERED, OUT_OF_NODES).
  uint8_t result = 0;          ///< RelaxResult.
  uint8_t previousFlags = 0;   ///< The neighbour node's NodeFlags before (0 = not reached before).
  bool shortcut = false;       ///< Any-angle: cost taken along a raycast from the expanded node's parent,
                               ///< which becomes the neighbour's parent when accepted.
  float cost = 0;              ///< Candidate g (0 when not computed). [Unit: cost]
  float heuristic = 0;         ///< Candidate h (0 at the end polygon).
  float total = 0;             ///< Candidate f = g + h: compared with previousTotal.
  float previousTotal = 0;     ///< The neighbour's total before (meaningful when previousFlags has OPEN/CLOSED).
};

/// Optional observer of findPath and the sliced findPath, for steppers and teaching tools
/// (NavMeshQuery::setSearchObserver; null = off). Calls happen inside the search: read the event
/// and searchView(), never start another query on the same NavMeshQuery from a callback.
/// Off, the searches pay nothing: an observed search runs a separate instantiation of its loop
/// (findPath's with the filter's generic tests, which give the same answers as the inlined ones).
class SearchObserver {
public:
  virtual ~SearchObserver() = default;
  /// findPath's own A* (not FINDPATH_ANY_ANGLE, which runs the sliced search): called before each
  /// pop with the number of nodes expanded so far. Return false to stop there: findPath then
  /// returns IN_PROGRESS (plus OUT_OF_NODES if it happened), the corridor to the best node so far,
  /// and leaves the search state for searchView(). The sliced search stops with maxIter instead.
  virtual bool beforeExpand(int /*expanded*/) { return true; }
  /// A node was popped from the open list and closed; its relaxations follow (none when it is
  /// the end node, where the search stops).
  virtual void onExpand(const Node& /*node*/) {}
  /// One neighbour of the node last passed to onExpand.
  virtual void onRelax(const RelaxEvent& /*e*/) {}
};

class NavMeshQuery {
public:
  NavMeshQuery();
  ~NavMeshQuery();
  NavMeshQuery(const NavMeshQuery&) = delete;
  NavMeshQuery& operator=(const NavMeshQuery&) = delete;

  /// Binds the query to a mesh and sizes its node pool [Limit: 1..65535 nodes, default 2048].
  Status init(const NavMesh* mesh, int maxNodes = 2048);
  /// Binds the query with a node pool that scales with the mesh instead of Detour's fixed pool: a
  /// slot per (polygon, crossing state) indexed directly by the ref, with a generation stamp so
  /// nothing is cleared per query, and room for every node a search can create, so graph searches
  /// never run OUT_OF_NODES. Sized (allocated once, here) for the tiles present now: call it again
  /// after adding or removing tiles (polygons of tiles added later get no node). Memory is about
  /// 32 bytes per polygon for the slots plus sizeof(Node) and 12 bytes per possible node.
  Status initUnlimited(const NavMesh* mesh);
  const NavMesh* getAttachedNavMesh() const { return m_nav; }

  // ---- Points and polygons ------------------------------------------------------------------

  /// Nearest polygon to center within the box center +- halfExtents. A polygon under/over the
  /// point within the tile's walkable climb beats one that is merely closer in 3D. nearestRef = 0
  /// when none (still SUCCESS). nearestPt/isOverPoly optional.
  Status findNearestPoly(const float* center, const float* halfExtents, const QueryFilter* filter,
                         PolyRef* nearestRef, float* nearestPt, bool* isOverPoly = nullptr) const;
  /// Polygons whose bounds overlap the box (BV tree when the tile has one). BUFFER_TOO_SMALL when
  /// more than maxPolys overlap.
  Status queryPolygons(const float* center, const float* halfExtents, const QueryFilter* filter,
                       PolyRef* polys, int* polyCount, int maxPolys) const;
  /// The same, handing batches to a callback.
  Status queryPolygons(const float* center, const float* halfExtents, const QueryFilter* filter,
                       const PolyQuery& query) const;
  /// Closest point on the polygon's detail surface. posOverPoly: pos is above/below the poly (2D).
  Status closestPointOnPoly(PolyRef ref, const float* pos, float* closest, bool* posOverPoly) const;
  /// pos if inside the polygon (2D), else the closest point on its boundary (no detail heights).
  Status closestPointOnPolyBoundary(PolyRef ref, const float* pos, float* closest) const;
  /// Detail surface height at pos (x, z). FAILURE | INVALID_PARAM when pos is outside the poly.
  Status getPolyHeight(PolyRef ref, const float* pos, float* height) const;

  // ---- Paths --------------------------------------------------------------------------------

  /// A* over the polygon graph (nodes at edge midpoints, heuristic = distance * filter heuristic
  /// scale, the end polygon's cost measured to endPos). The corridor starts at startRef; if endRef
  /// is unreachable it ends at the node nearest the goal (PARTIAL_RESULT). OUT_OF_NODES when the
  /// pool ran out, BUFFER_TOO_SMALL when the corridor was cut to maxPath (keeping its start).
  /// options: FINDPATH_ANY_ANGLE runs the search as the sliced any-angle search;
  /// FINDPATH_CLOSEST_POINT uses the closest-point cost model (see NavTypes.h; ignored with
  /// FINDPATH_ANY_ANGLE).
  Status findPath(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                  const QueryFilter* filter, PolyRef* path, int* pathCount, int maxPath, int options = 0);

  /// Sliced findPath: init, then update(maxIter) until not IN_PROGRESS, then finalize. The
  /// search state is kept in this object (the filter must outlive the search).
  Status initSlicedFindPath(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                            const QueryFilter* filter, int options = 0);
  Status updateSlicedFindPath(int maxIter, int* doneIters);
  Status finalizeSlicedFindPath(PolyRef* path, int* pathCount, int maxPath);
  /// Finalizes toward the furthest polygon of `existing` that the search visited.
  Status finalizeSlicedFindPathPartial(const PolyRef* existing, int existingSize, PolyRef* path,
                                       int* pathCount, int maxPath);

  /// String pulling (funnel) through a corridor. Corners get STRAIGHTPATH_START/END/
  /// OFFMESH_CONNECTION flags and the ref of the polygon they lead into (0 for the end).
  /// options: STRAIGHTPATH_AREA_CROSSINGS / ALL_CROSSINGS add a corner per crossed edge.
  /// straightPathFlags/Refs optional. BUFFER_TOO_SMALL when maxStraightPath corners were written.
  Status findStraightPath(const float* startPos, const float* endPos, const PolyRef* path, int pathSize,
                          float* straightPath, uint8_t* straightPathFlags, PolyRef* straightPathRefs,
                          int* straightPathCount, int maxStraightPath, int options = 0) const;

  /// Slides from startPos toward endPos constrained to the mesh surface (2D, small distances).
  /// resultPos keeps startPos's height; visited = polygons from start to the result's polygon.
  /// endInside (optional): true when the result is endPos itself, found inside the last visited
  /// polygon by the crossing test on its vertices (pointInPolygonIdx).
  Status moveAlongSurface(PolyRef startRef, const float* startPos, const float* endPos, const QueryFilter* filter,
                          float* resultPos, PolyRef* visited, int* visitedCount, int maxVisitedSize,
                          bool* endInside = nullptr) const;

  /// 2D ray along the mesh surface. t = FLT_MAX if the end is reached, else the hit parameter
  /// (hitNormal = wall normal). path: visited polygons (optional).
  Status raycast(PolyRef startRef, const float* startPos, const float* endPos, const QueryFilter* filter, float* t,
                 float* hitNormal, PolyRef* path, int* pathCount, int maxPath) const;
  /// The full raycast (Detour's dtRaycastHit API): options RAYCAST_USE_COSTS; prevRef = polygon
  /// before startRef (for the cost of the first segment). FAILURE | INVALID_PARAM when the walk
  /// comes back to a polygon (only a malformed tile does that; Detour's would not end).
  Status raycast(PolyRef startRef, const float* startPos, const float* endPos, const QueryFilter* filter,
                 int options, RaycastHit* hit, PolyRef prevRef = 0) const;

  // ---- Local area ---------------------------------------------------------------------------

  /// Distance to the nearest wall (edge not leading to a passable polygon) within maxRadius.
  /// If there is none, hitDist = maxRadius, hitPos = centerPos and hitNormal = 0.
  Status findDistanceToWall(PolyRef startRef, const float* centerPos, float maxRadius, const QueryFilter* filter,
                            float* hitDist, float* hitPos, float* hitNormal);
  /// Dijkstra flood from startRef over polygons touching the circle. Outputs are optional.
  Status findPolysAroundCircle(PolyRef startRef, const float* centerPos, float radius, const QueryFilter* filter,
                               PolyRef* resultRef, PolyRef* resultParent, float* resultCost, int* resultCount,
                               int maxResult);
  /// The same for a convex shape verts [(x, y, z) * nverts].
  Status findPolysAroundShape(PolyRef startRef, const float* verts, int nverts, const QueryFilter* filter,
                              PolyRef* resultRef, PolyRef* resultParent, float* resultCost, int* resultCount,
                              int maxResult);
  /// Non-overlapping polygons around a point (breadth first, at most 64 visited).
  Status findLocalNeighbourhood(PolyRef startRef, const float* centerPos, float radius, const QueryFilter* filter,
                                PolyRef* resultRef, PolyRef* resultParent, int* resultCount, int maxResult) const;
  /// Wall segments [(ax, ay, az, bx, by, bz) * n] of a polygon; with segmentRefs also the portal
  /// segments (ref = neighbour, 0 = wall).
  Status getPolyWallSegments(PolyRef ref, const QueryFilter* filter, float* segmentVerts, PolyRef* segmentRefs,
                             int* segmentCount, int maxSegments) const;

  /// Random point on the mesh: a random tile, a polygon weighted by area, a uniform point in it.
  /// frand returns a float in [0, 1).
  Status findRandomPoint(const QueryFilter* filter, float (*frand)(), PolyRef* randomRef, float* randomPt) const;
  /// Random point among the polygons reachable from startRef that touch the circle.
  Status findRandomPointAroundCircle(PolyRef startRef, const float* centerPos, float maxRadius,
                                     const QueryFilter* filter, float (*frand)(), PolyRef* randomRef,
                                     float* randomPt);

  // ---- Helpers ------------------------------------------------------------------------------

  /// The portal (left, right) between two adjacent polygons, clamped for partial tile-border links.
  Status getPortalPoints(PolyRef from, PolyRef to, float* left, float* right, uint8_t* fromType, uint8_t* toType) const;
  Status getEdgeMidPoint(PolyRef from, PolyRef to, float* mid) const;
  bool isValidPolyRef(PolyRef ref, const QueryFilter* filter) const;
  /// True if ref has a node that is closed in the last search.
  bool isInClosedList(PolyRef ref) const;

  /// The last search's node pool and open list (read-only), for visual stepping.
  SearchView searchView() const;
  /// Observer of findPath and the sliced findPath (see SearchObserver); null = off. Not owned.
  void setSearchObserver(SearchObserver* observer) { m_observer = observer; }
  SearchObserver* searchObserver() const { return m_observer; }
  const NodePool& nodePool() const { return m_nodePool; }

private:
  struct SlicedState {
    Status status = 0;
    Node* lastBestNode = nullptr;
    float lastBestNodeCost = 0;
    PolyRef startRef = 0, endRef = 0;
    float startPos[3] = {0, 0, 0}, endPos[3] = {0, 0, 0};
    const QueryFilter* filter = nullptr;
    int options = 0;
    float raycastLimitSqr = 0;
    uint64_t meshGeneration = 0; ///< NavMesh::generation() at init: unchanged = every node's ref is valid.
  };

  Status portalPoints(PolyRef from, const Poly* fromPoly, const MeshTile* fromTile, PolyRef to, const Poly* toPoly,
                      const MeshTile* toTile, float* left, float* right) const;
  Status edgeMidPoint(PolyRef from, const Poly* fromPoly, const MeshTile* fromTile, PolyRef to, const Poly* toPoly,
                      const MeshTile* toTile, float* mid) const;
  void queryPolygonsInTile(const MeshTile* tile, const float* qmin, const float* qmax, const QueryFilter* filter,
                           const PolyQuery& query) const;
  template <class PortalTest>
  Status searchPolysAround(PolyRef startRef, const float* centerPos, const QueryFilter* filter, PortalTest touchesPortal,
                           PolyRef* resultRef, PolyRef* resultParent, float* resultCost, int* resultCount,
                           int maxResult);
  template <bool PLAIN, bool CLOSEST, bool OBSERVE = false>
  Status findPathImpl(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                      const QueryFilter* filter, PolyRef* path, int* pathCount, int maxPath);
  template <bool OBSERVE, bool FAST, bool ANY_ANGLE = true>
  Status updateSlicedImpl(int maxIter, int* doneIters);
  Status getPathToNode(Node* endNode, PolyRef* path, int* pathCount, int maxPath) const;
  Status finalizeFromNode(Node* node, PolyRef* path, int* pathCount, int maxPath);
  Status appendPortals(int startIdx, int endIdx, const float* endPos, const PolyRef* path, float* straightPath,
                       uint8_t* straightPathFlags, PolyRef* straightPathRefs, int* straightPathCount,
                       int maxStraightPath, int options) const;

  const NavMesh* m_nav = nullptr;
  Status finishInit(const NavMesh* mesh);
  NodePool m_nodePool;
  mutable NodePool m_tinyNodePool;
  OpenList m_openList;
  SlicedState m_query;
  const Node* m_lastExpanded = nullptr;
  const Node* m_bestNode = nullptr;
  SearchObserver* m_observer = nullptr;
};

} // namespace nav
