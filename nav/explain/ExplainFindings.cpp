#include "nav/explain/ExplainFindings.h"

#include "nav/NavMath.h"
#include "nav/NavMesh.h"

namespace nav::explain {

namespace {

/// The centre of a ground poly (its vertices' mean); false for an off-mesh connection or a bad ref.
bool polyCentre(const NavMesh& mesh, PolyRef ref, Vec3& out) {
  const MeshTile* t = nullptr;
  const Poly* p = nullptr;
  if (statusFailed(mesh.getTileAndPolyByRef(ref, &t, &p)) || p->getType() != POLYTYPE_GROUND) return false;
  float c[3];
  calcPolyCenter(c, p->verts, p->vertCount, t->verts);
  out = Vec3{c[0], c[1], c[2]};
  return true;
}

} // namespace

ExplainOptions findingExplainOptions(const check::CheckOptions& opts) {
  ExplainOptions eo;
  eo.detourRatio = opts.detourRatio;
  eo.detourMinExtra = opts.detourMinExtra;
  eo.walkableClimb = opts.walkableClimb;
  return eo;
}

namespace {

Query findingQuery(const check::CheckOptions& opts, const Vec3& s, const Vec3& e) {
  Query q;
  q.start = s;
  q.end = e;
  q.nodeBudget = opts.nodeBudget;
  q.halfExtents = Vec3{opts.seedExtents[0], opts.seedExtents[1], opts.seedExtents[2]};
  return q;
}

/// Where island queries start: the first seed, else the centre of the first island's first poly.
bool islandQueryStart(const NavMesh& mesh, const check::CheckOptions& opts, const check::CheckResult& result, Vec3& from) {
  if (!opts.seeds.empty()) {
    from = opts.seeds[0];
    return true;
  }
  return !result.islands.empty() && polyCentre(mesh, result.islands[0].firstPoly, from);
}

} // namespace

bool islandQuery(const NavMesh& mesh, const check::CheckOptions& opts, const check::CheckResult& result, int index,
                 Query& out) {
  if (index < 0 || size_t(index) >= result.islands.size() || !result.islands[size_t(index)].isFinding()) return false;
  Vec3 from{}, to{};
  if (!islandQueryStart(mesh, opts, result, from) || !polyCentre(mesh, result.islands[size_t(index)].firstPoly, to))
    return false;
  out = findingQuery(opts, from, to);
  return true;
}

FindingExplanations explainFindings(const NavMesh& mesh, const QueryFilter& filter, const check::CheckOptions& opts,
                                    const check::CheckResult& result, int maxPerKind) {
  FindingExplanations out;
  const ExplainOptions eo = findingExplainOptions(opts);
  auto explain = [&](std::vector<FindingExplanation>& list, int index, const Query& q) {
    FindingExplanation f;
    f.index = index;
    f.query = q;
    if (statusSucceeded(explainQuery(mesh, filter, q, eo, f.explanation))) list.push_back(std::move(f));
  };
  for (size_t i = 0; i < result.detours.size() && int(i) < maxPerKind; ++i)
    explain(out.detours, int(i), findingQuery(opts, result.detours[i].start, result.detours[i].end));
  for (size_t i = 0; i < result.budget.size() && int(i) < maxPerKind; ++i)
    explain(out.budget, int(i), findingQuery(opts, result.budget[i].start, result.budget[i].end));
  int n = 0;
  for (size_t i = 0; i < result.islands.size() && n < maxPerKind; ++i) {
    if (!result.islands[i].isFinding()) continue;
    ++n;
    Query q;
    if (islandQuery(mesh, opts, result, int(i), q)) explain(out.islands, int(i), q);
  }
  return out;
}

} // namespace nav::explain
