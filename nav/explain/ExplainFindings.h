// ExplainFindings.h: `navbench check`'s findings (nav/check/NavCheck.h) explained with explainQuery,
// for its JSON and HTML reports. A detour or budget finding is its pair as a query (the check's
// node budget, its seed extents as half extents, its detour thresholds); an unreachable island is
// the query from the first seed (no seeds: the centre of a poly of the biggest island) to the
// centre of the island's first poly.
#pragma once

#include "nav/check/NavCheck.h"
#include "nav/explain/Explain.h"

#include <vector>

namespace nav::explain {

struct FindingExplanation {
  int index = 0; ///< Index in CheckResult::detours / budget / islands.
  Query query;
  Explanation explanation;
};

struct FindingExplanations {
  std::vector<FindingExplanation> islands, detours, budget;
};

/// The explainer options a check's thresholds give (detour ratio and minimum, walkable climb).
ExplainOptions findingExplainOptions(const check::CheckOptions& opts);
/// The query island finding `index` (of CheckResult::islands) is explained by: from the first seed
/// (no seeds: the centre of the first island's first poly) to the centre of the island's first
/// poly, with the check's node budget and seed extents. False when there is none (no such island,
/// not a finding, a first poly that is an off-mesh connection).
bool islandQuery(const NavMesh& mesh, const check::CheckOptions& opts, const check::CheckResult& result, int index,
                 Query& out);

/// Explains the first `maxPerKind` findings of each of the three checks (islands that are findings,
/// in CheckResult::islands order). Findings whose query cannot be explained (a seed off the mesh)
/// are left out. Runs on the calling thread; deterministic.
FindingExplanations explainFindings(const NavMesh& mesh, const QueryFilter& filter, const check::CheckOptions& opts,
                                    const check::CheckResult& result, int maxPerKind);

} // namespace nav::explain
