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

/// Explains the first `maxPerKind` findings of each of the three checks (islands that are findings,
/// in CheckResult::islands order). Findings whose query cannot be explained (a seed off the mesh)
/// are left out. Runs on the calling thread; deterministic.
FindingExplanations explainFindings(const NavMesh& mesh, const QueryFilter& filter, const check::CheckOptions& opts,
                                    const check::CheckResult& result, int maxPerKind);

} // namespace nav::explain
