// AgentCompare.h: one query answered on several agents' navmeshes (Agents panel, "Compare
// agents"), and where one agent goes that another cannot follow (its "Reachability" overlay).
// std + nav only: the same code answers the viewer and the tests that hold it to `navbench query`.
//
// A compared path is `navbench query`'s pf case (app/model/TestCaseRun): findNearestPoly of the
// raw start and end within `extents`, findPath between the raw points, findStraightPath, with the
// caller's filter and the query's node budget. Its length is the straight path's [Unit: wu].
//
// Reachability: agent A's navmesh flooded from A's poly nearest the start (links followed in
// their direction, polys the filter refuses not entered); a poly A reaches is one B cannot follow
// when B's poly nearest its centre (within `extents`) is none or is not in B's own flood from the
// start. Off-mesh connection polys are followed but not reported.
#pragma once

#include "nav/NavTypes.h"

#include <string>
#include <vector>

namespace nav {
class NavMesh;
class NavMeshQuery;
class QueryFilter;
} // namespace nav

namespace navbench {

/// Why an agent has no complete path (what its status says).
enum class AgentPathStatus { Complete, Partial, None };
const char* agentPathStatusName(AgentPathStatus s); ///< "complete", "partial", "no path"

struct AgentPath {
  nav::PolyRef startRef = 0, endRef = 0;
  nav::Status pathStatus = 0, straightStatus = 0;
  std::vector<nav::PolyRef> polys;  ///< The corridor.
  std::vector<float> straight;      ///< [(x, y, z) * corners]
  float length = 0;                 ///< Of the straight path [Unit: wu]
  AgentPathStatus status = AgentPathStatus::None;
  /// "" when complete; else what stopped it: "no navmesh within the extents of the start",
  /// "... of the end", "the end is on another island", "out of nodes (N)", "the search failed".
  std::string reason;
};

/// Runs compared queries; owns the scratch buffers (no allocation per query beyond the results).
class AgentComparer {
public:
  static constexpr int kMaxPath = 2048; ///< Corridor and straight path capacity (navbench query's).
  AgentComparer();
  /// One agent's answer from `start` to `end` on `q`'s navmesh under `filter`; `out` is overwritten.
  void run(nav::NavMeshQuery& q, const nav::QueryFilter& filter, const float* start, const float* end,
           const float* extents, AgentPath& out);

private:
  std::vector<nav::PolyRef> m_polys;
  std::vector<float> m_straight;
};

/// The polys of `mesh` reachable from `startRef` under `filter` (startRef first, then flood order);
/// empty when startRef is not a poly of the mesh.
std::vector<nav::PolyRef> floodPolys(const nav::NavMesh& mesh, const nav::QueryFilter& filter, nav::PolyRef startRef);

/// The ground polys of A's navmesh reached from `start` (snapped within `startExtents` on each
/// navmesh) that B cannot follow to: B's poly nearest the poly's centre within `followExtents`
/// (small: a poly of B across a wall must not count) is none or outside B's flood.
/// `reachedA` (optional): how many ground polys A reaches.
std::vector<nav::PolyRef> polysOnlyAReaches(nav::NavMeshQuery& qa, nav::NavMeshQuery& qb, const nav::QueryFilter& filter,
                                           const float* start, const float* startExtents, const float* followExtents,
                                           int* reachedA = nullptr);
/// The follow extents the Agents panel's reachability uses [Unit: wu].
constexpr float kReachFollowExtents[3] = {0.5f, 2.0f, 0.5f};

/// The centre of a poly (the mean of its vertices) [Unit: wu]; false when `ref` is not a poly.
bool polyCentre(const nav::NavMesh& mesh, nav::PolyRef ref, float* centre);

} // namespace navbench
