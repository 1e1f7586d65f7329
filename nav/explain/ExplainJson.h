// ExplainJson.h: an Explanation as JSON (docs/formats.md, "navbench why"):
//   {"query": {"start", "end", "halfExtents", "nodeBudget"},
//    "answer": {"status", "reached", "length", "nodes", "startPoly", "endPoly"},
//    "exactLength": number | null,
//    "causes": [{"kind", "text", "evidence": {NAME: [x,y,z] | number | "word"},
//                "counterfactual": {"change": {"what", "text", ...its values},
//                                   "result": {"status", "reached", "length", ...}, "checked"},
//                "expansion"?}]}
// Statuses are hex strings ("0x40000040"); poly refs and whole numbers are JSON integers, other
// numbers and points the shortest decimal of their float (base::exactFloat); a length is null
// when there is no path.
#pragma once

#include "nav/explain/Explain.h"

#include <nlohmann/json.hpp>

namespace nav::explain {

nlohmann::json answerJson(const Answer& a);
nlohmann::json causeJson(const Cause& c);
/// The whole explanation (with the query it explains).
nlohmann::json explanationJson(const Query& q, const Explanation& e);

} // namespace nav::explain
