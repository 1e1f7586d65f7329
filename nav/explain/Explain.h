// Explain.h: why a path query gave the answer it gave (`navbench why`, check findings). Headless,
// beside the queries as nav/check is: std + nav + nav_check (islands, off-mesh link findings); no
// Recast, no Detour.
//
// The rule: every cause carries a counterfactual that has been run. Each cause names one change
// (a node budget, a filter, area costs, half extents, the any-angle search, an added off-mesh
// link) and the answer the same query gave with that change applied; a change that does not change
// the answer is not a cause and is not reported. Causes, in the order they are looked for:
//
//   snap     an end has no poly within the half extents (the nearest poly and the extents that
//            reach it), or snapped to a poly on another floor than the click (height difference
//            beyond the tile's walkable climb; the poly on the clicked floor, found with a
//            vertical half extent of the climb and horizontal ones up to 8 times the query's, and
//            its distance).
//   budget   the search ran out of nodes short of the end: nodes used and the smallest budget that
//            completes the path (doubling, then bisection; each tried budget is a real findPath).
//   filter   the filter's flags block the way (the polys on the way that fail it, their flags; the
//            filter with those flags allowed), or its flags or area costs make the shorter way
//            dearer (Detour's path and the other one, length per area, the costs).
//   link     an off-mesh link on the start's island whose end connects to no poly (the link with
//            its end moved onto the nearest poly), or one the filter refuses (the flags that let it).
//   islands  start and end on different islands (polys and area of each, the closest points of
//            their borders, the gap): a one-way off-mesh link between those points, added to a copy
//            of the navmesh (AddLink.h).
//   detour   Detour's path longer than the exact shortest (nav/ShortestPath.h; ratio and extra
//            length over thresholds): a heuristic scale above Detour's, or portal-midpoint costing:
//            the expansion where the search first left the shortest path's corridor, both
//            neighbours' A* costs there, and the remedy Detour has, FINDPATH_ANY_ANGLE, with its
//            length.
//
// Lengths: `length` is the 3D length of the straight path (`navbench query`'s straightLen);
// comparisons with the exact shortest path use ShortestPath's metric (straightPathLength).
// Deterministic (no clocks, no random numbers); the work is bounded by the node limits and
// ExplainOptions' caps. Units: world units (metres), positions (x, y, z), y up.
#pragma once

#include "nav/NavTypes.h"
#include "nav/QueryFilter.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace nav {
class NavMesh;
}

namespace nav::explain {

using Vec3 = std::array<float, 3>;

/// A path query as the tester runs it: nearest polys within halfExtents, findPath with a pool of
/// nodeBudget nodes, findStraightPath.
struct Query {
  Vec3 start{}, end{};
  Vec3 halfExtents{2, 4, 2}; ///< [Unit: wu] RecastDemo's.
  int nodeBudget = 2048;     ///< [Limit: 1..65535]
  int options = 0;           ///< findPath options (FINDPATH_ANY_ANGLE).
};

/// What a query gave.
struct Answer {
  Status status = 0; ///< findPath's (0 when an end has no poly).
  PolyRef startRef = 0, endRef = 0;
  Vec3 startPos{}, endPos{}; ///< The snapped points.
  bool reached = false;      ///< A complete path: the corridor ends at endRef, no PARTIAL_RESULT.
  float length = -1;         ///< 3D straight-path length; -1 when there is no corridor.
  float metric = -1;         ///< The same path in ShortestPath's metric; -1 when none.
  int nodes = 0;             ///< Nodes the search took from its pool.
  std::vector<PolyRef> corridor;
  std::vector<float> straight; ///< [(x, y, z) * n]
  std::vector<uint8_t> straightFlags;
  std::vector<PolyRef> straightRefs;
};

/// An off-mesh link to add to a copy of the navmesh (AddLink.h).
struct LinkSpec {
  Vec3 start{}, end{};
  float radius = 0.5f; ///< [Unit: wu] end snap radius.
  bool bidirectional = false;
  uint16_t flags = 0;
  uint8_t area = 0;
};

enum ChangeKind : int {
  CHANGE_NODE_BUDGET,
  CHANGE_FILTER,
  CHANGE_AREA_COSTS,
  CHANGE_HALF_EXTENTS,
  CHANGE_ANY_ANGLE,
  CHANGE_LINK,
  CHANGE_HEURISTIC_SCALE,
  CHANGE_COUNT
};
/// "nodeBudget", "filter", "areaCosts", "halfExtents", "anyAngle", "link", "heuristicScale".
const char* changeName(int change);

/// The change a cause proposes and what the query gave with it.
struct Counterfactual {
  int change = CHANGE_NODE_BUDGET;
  int nodeBudget = 0;                           ///< CHANGE_NODE_BUDGET
  uint16_t include = 0, exclude = 0;            ///< CHANGE_FILTER
  std::vector<std::pair<int, float>> areaCosts; ///< CHANGE_AREA_COSTS: (area, cost) changed.
  Vec3 halfExtents{};                           ///< CHANGE_HALF_EXTENTS
  float heuristicScale = 0;                     ///< CHANGE_HEURISTIC_SCALE
  LinkSpec link;                                ///< CHANGE_LINK
  std::string text;                             ///< The change in words.
  Answer result;                                ///< The query with the change applied.
  bool checked = false;                         ///< result was computed by running the query (always, when reported).
};

/// One named piece of evidence: a point, a poly, a number or a word.
struct Evidence {
  enum Type : uint8_t { POINT, POLY, NUMBER, TEXT } type = NUMBER;
  std::string name;
  Vec3 point{};
  PolyRef poly = 0;
  double number = 0;
  std::string text;
};

enum CauseKind : int { CAUSE_SNAP, CAUSE_ISLANDS, CAUSE_FILTER, CAUSE_BUDGET, CAUSE_DETOUR, CAUSE_LINK, CAUSE_COUNT };
/// "snap", "islands", "filter", "budget", "detour", "link".
const char* causeName(int kind);

struct Cause {
  int kind = CAUSE_SNAP;
  std::string text; ///< One sentence a designer can act on.
  std::vector<Evidence> evidence;
  Counterfactual counterfactual;
  int expansion = -1; ///< detour: the A* expansion (0-based) where the search left the
                      ///< shortest path's corridor; -1 otherwise.
};

struct Explanation {
  Answer answer;                    ///< The query as given.
  float exactMetric = -1;           ///< The exact shortest path (filter's flags, area costs 1); -1 when none.
  std::vector<float> exactStraight; ///< Its corner points [(x, y, z) * n] (empty when none).
  std::vector<Cause> causes;        ///< Empty: the answer is fine, nothing to explain.
};

struct ExplainOptions {
  float detourRatio = 1.05f;   ///< Detour / exact at least this ... [Limit: >= 1]
  float detourMinExtra = 0.5f; ///< ... and this much longer [Unit: wu] [Limit: >= 0]
  float maxSnapExtent = 64.0f; ///< Largest half extent tried for an end with no poly [Unit: wu]
  float walkableClimb = -1;    ///< [Unit: wu] < 0: the tile's walkableClimb.
  float jumpGap = 4.0f;        ///< An island gap up to this long is "jumpable" [Unit: wu]
  int exactMaxNodes = 1 << 16; ///< ShortestPath's pool.
  int maxEdgePairs = 1 << 22;  ///< Border edge pairs measured for an island gap (sampled above).
  bool validate(std::string* why) const;
};

/// The query as given, run on `mesh` (`filter`'s flags and costs).
Answer runQuery(const NavMesh& mesh, const QueryFilter& filter, const Query& query);

/// Explains `query`. SUCCESS (out.causes empty when the answer is fine), or FAILURE | INVALID_PARAM
/// with `why`: bad options, a node budget outside 1..65535, a non-finite point or extent, an end with
/// no poly even within maxSnapExtent. FAILURE | OUT_OF_MEMORY when a pool cannot be had.
Status explainQuery(const NavMesh& mesh, const QueryFilter& filter, const Query& query, const ExplainOptions& opts,
                    Explanation& out, std::string* why = nullptr);

/// The explanation as one line per cause ("kind: text (change: result)"), for the CLI and reports.
std::vector<std::string> describeCauses(const Explanation& e);

} // namespace nav::explain
