// ExplainOracle.h: explain test support. A counterfactual re-run independently through Detour
// 1.5.1 (the oracle): the cause's change applied to the inputs here (the filter, the query, or a
// copy of the navmesh with the link added, whose tiles are loaded into a dtNavMesh at the same
// tile refs), then dtNavMeshQuery's findNearestPoly + findPath (or the sliced search with
// DT_FINDPATH_ANY_ANGLE) + findStraightPath, as nav::explain::runQuery does on our side.
#pragma once

#include "nav/NavMesh.h"
#include "nav/QueryFilter.h"
#include "nav/explain/Explain.h"

#include <DetourNavMesh.h>

#include <memory>
#include <string>
#include <vector>

namespace explaintest {

struct DtMeshDeleter {
  void operator()(dtNavMesh* m) const;
};
using DtMesh = std::unique_ptr<dtNavMesh, DtMeshDeleter>;

/// The same tiles in a dtNavMesh: every tile blob copied, added at its tile ref. Null on failure.
DtMesh mirrorToDetour(const nav::NavMesh& mesh);

/// What Detour gave.
struct DtAnswer {
  bool ran = false;     ///< The query could be set up.
  bool reached = false; ///< Complete path (corridor ends at the end poly, no partial bit).
  float length = -1;    ///< 3D straight-path length; -1 without a corridor.
  unsigned startRef = 0, endRef = 0;
  std::vector<float> straight; ///< The straight path's corners [(x, y, z) * n].
};

/// The query through Detour with `filter`'s include / exclude flags and area costs.
DtAnswer detourRun(const dtNavMesh& mesh, const nav::QueryFilter& filter, const nav::explain::Query& query);

/// Applies the cause's change to (mesh, filter, query), runs it through Detour (`dt`: the mesh as
/// Detour holds it, used when the change is not a link) and compares with the counterfactual's
/// result. "" when they agree, else what differs.
std::string checkAgainstDetour(const nav::NavMesh& mesh, const dtNavMesh& dt, const nav::QueryFilter& filter,
                               const nav::explain::Query& query, const nav::explain::Cause& cause);

} // namespace explaintest
