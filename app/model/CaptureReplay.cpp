// CaptureReplay.cpp: captured queries re-run on NavBench's nav and compared with the game's answers.
#include "app/model/CaptureReplay.h"

#include "app/NavDiff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace navbench {

void CaptureAnswer::reset() {
  nearestStart = nav::CapturedNearest();
  nearestEnd = nav::CapturedNearest();
  pathStatus = straightStatus = rayStatus = 0;
  path.clear();
  straight.clear();
  straightFlags.clear();
  straightRefs.clear();
  t = 0;
  hitNormal[0] = hitNormal[1] = hitNormal[2] = 0;
  hitEdgeIndex = 0;
  pathCost = 0;
}

nav::QueryFilter captureFilter(const nav::CapturedQuery& q) {
  nav::QueryFilter f;
  f.setIncludeFlags(q.includeFlags);
  f.setExcludeFlags(q.excludeFlags);
  for (int a = 0; a < nav::MAX_AREAS; ++a) f.setAreaCost(a, q.areaCost[a]);
  return f;
}

namespace {

template <class T> void growTo(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits3(const float* a, const float* b) { return std::memcmp(a, b, 3 * sizeof(float)) == 0; }

std::string floatText(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", double(v));
  return b;
}
std::string pointText(const float* p) {
  return "(" + floatText(p[0]) + ", " + floatText(p[1]) + ", " + floatText(p[2]) + ")";
}
std::string refText(nav::PolyRef r) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", unsigned(r));
  return b;
}
std::string intText(long long v) { return std::to_string(v); }

bool differ(CaptureDifference* d, std::string field, std::string game, std::string ours) {
  if (d) *d = CaptureDifference{std::move(field), std::move(game), std::move(ours)};
  return true;
}

/// Compares a ref list: the stored prefix when `truncated`, else all of it. "name[i]" or "name.count".
bool refsDiffer(const char* name, const std::vector<nav::PolyRef>& game, const std::vector<nav::PolyRef>& ours,
                bool truncated, CaptureDifference* d) {
  const size_t n = std::min(game.size(), ours.size());
  for (size_t i = 0; i < n; ++i)
    if (game[i] != ours[i]) return differ(d, std::string(name) + "[" + std::to_string(i) + "]", refText(game[i]), refText(ours[i]));
  if (truncated ? ours.size() < game.size() : ours.size() != game.size())
    return differ(d, std::string(name) + ".count", intText((long long)game.size()) + (truncated ? " (stored prefix)" : ""),
                  intText((long long)ours.size()));
  return false;
}

bool nearestDiffers(const char* name, const nav::CapturedNearest& game, const nav::CapturedNearest& ours,
                    CaptureDifference* d) {
  const std::string n = name;
  if (game.status != ours.status) return differ(d, n + ".status", captureStatusText(game.status), captureStatusText(ours.status));
  if (game.ref != ours.ref) return differ(d, n + ".ref", refText(game.ref), refText(ours.ref));
  // Without a poly Detour leaves the point as the caller had it: nothing to compare.
  if (game.ref && !sameBits3(game.pt, ours.pt)) return differ(d, n + ".pt", pointText(game.pt), pointText(ours.pt));
  return false;
}

/// Corner i of a straight path, as text.
std::string cornerText(const std::vector<float>& pts, size_t i) { return pointText(&pts[3 * i]); }

} // namespace

std::string captureStatusText(nav::Status s) {
  char bits[160];
  nav::statusToString(s, bits, sizeof bits);
  char b[200];
  std::snprintf(b, sizeof b, "0x%08x (%s)", unsigned(s), bits);
  return b;
}

float captureStraightLength(const std::vector<float>& pts) {
  float len = 0;
  for (size_t i = 3; i + 2 < pts.size(); i += 3) {
    const float dx = pts[i] - pts[i - 3], dy = pts[i + 1] - pts[i - 2], dz = pts[i + 2] - pts[i - 1];
    len += std::sqrt(dx * dx + dy * dy + dz * dz);
  }
  return len;
}

const char* captureOutcomeName(CaptureOutcome o) {
  switch (o) {
  case CaptureOutcome::Identical: return "identical";
  case CaptureOutcome::Differs: return "differs";
  case CaptureOutcome::Stale: return "stale";
  case CaptureOutcome::Unchanged: return "unchanged";
  case CaptureOutcome::Changed: return "changed";
  case CaptureOutcome::Failed: return "failed";
  }
  return "?";
}

std::vector<std::string> CaptureChange::fields() const {
  std::vector<std::string> f;
  if (statusChanged) f.push_back("status");
  if (corridorChanged) f.push_back("corridor");
  if (straightChanged) f.push_back("straight");
  if (lengthChanged) f.push_back("length");
  return f;
}

CaptureReplayer::CaptureReplayer() { m_pools.reserve(kCaptureQueryPools); }
CaptureReplayer::~CaptureReplayer() = default;

bool CaptureReplayer::prepare(const nav::NavMesh& mesh, const nav::CapturedQuery& q) {
  // The pool of this budget; init() keeps a pool of the same size and only clears it.
  Pool* pool = nullptr;
  for (Pool& p : m_pools)
    if (p.maxNodes == q.maxNodes) pool = &p;
  if (!pool && int(m_pools.size()) < kCaptureQueryPools) {
    m_pools.push_back(Pool{q.maxNodes, std::make_unique<nav::NavMeshQuery>()});
    pool = &m_pools.back();
  }
  if (!pool) pool = &m_pools.back(); // more budgets than pools: the last one is re-sized
  pool->maxNodes = q.maxNodes;
  m_query = pool->query.get();
  if (nav::statusFailed(m_query->init(&mesh, q.maxNodes))) return false;
  growTo(m_path, size_t(std::max(q.maxPath, 1)));
  growTo(m_straightRefs, size_t(std::max(q.maxStraight, 1)));
  growTo(m_straightFlags, size_t(std::max(q.maxStraight, 1)));
  growTo(m_straight, 3 * size_t(std::max(q.maxStraight, 1)));
  return true;
}

void CaptureReplayer::runPathFrom(const nav::CapturedQuery& q, nav::PolyRef startRef, nav::PolyRef endRef,
                                  const float* startPos, const float* endPos, bool fresh, CaptureAnswer& out) {
  const nav::QueryFilter filter = captureFilter(q);
  // A recorded status 0 is a call the game did not make (Detour always sets SUCCESS or FAILURE):
  // no findPath without nearest polys, no findStraightPath on an empty corridor. Replay skips it
  // too; from scratch only where the same reason holds.
  if (q.pathStatus == 0 && (!fresh || !startRef || !endRef)) return;
  int n = 0;
  out.pathStatus = m_query->findPath(startRef, endRef, startPos, endPos, &filter, m_path.data(), &n, q.maxPath);
  out.path.assign(m_path.begin(), m_path.begin() + n);

  // The straight stage: stage by stage it pulls the game's corridor (ours when the record kept only a
  // prefix of it) to the game's straightEnd; from scratch, ours to our end point (the closest point
  // on the last poly of a partial corridor, as the capture does).
  const std::vector<nav::PolyRef>& corridor = fresh || (q.flags & nav::CAPTURE_TRUNCATED) ? out.path : q.path;
  float straightEnd[3] = {endPos[0], endPos[1], endPos[2]};
  const float* sEnd = q.straightEnd;
  if (fresh) {
    if (!corridor.empty() && corridor.back() != endRef)
      m_query->closestPointOnPoly(corridor.back(), endPos, straightEnd, nullptr);
    sEnd = straightEnd;
  }
  if (q.straightStatus == 0 && (!fresh || corridor.empty())) return;
  int sn = 0;
  out.straightStatus = m_query->findStraightPath(startPos, sEnd, corridor.data(), int(corridor.size()), m_straight.data(),
                                                 m_straightFlags.data(), m_straightRefs.data(), &sn, q.maxStraight,
                                                 q.straightOptions);
  out.straight.assign(m_straight.begin(), m_straight.begin() + 3 * sn);
  out.straightFlags.assign(m_straightFlags.begin(), m_straightFlags.begin() + sn);
  out.straightRefs.assign(m_straightRefs.begin(), m_straightRefs.begin() + sn);
}

bool CaptureReplayer::run(const nav::NavMesh& mesh, const nav::CapturedQuery& q, CaptureAnswer& out) {
  out.reset();
  if (q.stale() || !prepare(mesh, q)) return false;
  const nav::QueryFilter filter = captureFilter(q);
  if (q.flags & nav::CAPTURE_NO_NEAREST) {
    out.nearestStart = q.nearestStart;
    out.nearestEnd = q.nearestEnd;
  } else {
    // The point starts as the game's buffer held it: Detour writes it only when it finds a poly.
    std::memcpy(out.nearestStart.pt, q.nearestStart.pt, sizeof out.nearestStart.pt);
    std::memcpy(out.nearestEnd.pt, q.nearestEnd.pt, sizeof out.nearestEnd.pt);
    out.nearestStart.status =
        m_query->findNearestPoly(q.start, q.halfExtents, &filter, &out.nearestStart.ref, out.nearestStart.pt);
    out.nearestEnd.status = m_query->findNearestPoly(q.end, q.halfExtents, &filter, &out.nearestEnd.ref, out.nearestEnd.pt);
  }
  if (q.kind == nav::CAPTURE_PATH) {
    runPathFrom(q, q.nearestStart.ref, q.nearestEnd.ref, q.pathStart, q.pathEnd, false, out);
    return true;
  }
  // Fields the raycast does not write keep what the game's struct held.
  nav::RaycastHit hit;
  std::memcpy(hit.hitNormal, q.hitNormal, sizeof hit.hitNormal);
  hit.hitEdgeIndex = q.hitEdgeIndex;
  runRaycastFrom(q, q.rayStartRef, filter, hit, out);
  return true;
}

void CaptureReplayer::runRaycastFrom(const nav::CapturedQuery& q, nav::PolyRef startRef, const nav::QueryFilter& filter,
                                     nav::RaycastHit hit, CaptureAnswer& out) {
  hit.path = m_path.data();
  hit.maxPath = q.maxPath;
  out.rayStatus = m_query->raycast(startRef, q.rayStart, q.rayEnd, &filter, q.rayOptions, &hit, 0);
  out.t = hit.t;
  std::memcpy(out.hitNormal, hit.hitNormal, sizeof out.hitNormal);
  out.hitEdgeIndex = hit.hitEdgeIndex;
  out.pathCost = hit.pathCost;
  out.path.assign(m_path.begin(), m_path.begin() + std::max(0, std::min(hit.pathCount, q.maxPath)));
}

bool CaptureReplayer::runFresh(const nav::NavMesh& mesh, const nav::CapturedQuery& q, CaptureAnswer& out) {
  out.reset();
  if (q.stale() || !prepare(mesh, q)) return false;
  const nav::QueryFilter filter = captureFilter(q);
  const bool noNearest = (q.flags & nav::CAPTURE_NO_NEAREST) != 0;
  const bool path = q.kind == nav::CAPTURE_PATH;
  const float* startAt = noNearest ? (path ? q.pathStart : q.rayStart) : q.start;
  const float* endAt = noNearest ? q.pathEnd : q.end;
  std::memcpy(out.nearestStart.pt, startAt, sizeof out.nearestStart.pt);
  std::memcpy(out.nearestEnd.pt, endAt, sizeof out.nearestEnd.pt);
  out.nearestStart.status =
      m_query->findNearestPoly(startAt, q.halfExtents, &filter, &out.nearestStart.ref, out.nearestStart.pt);
  if (path) {
    out.nearestEnd.status = m_query->findNearestPoly(endAt, q.halfExtents, &filter, &out.nearestEnd.ref, out.nearestEnd.pt);
    runPathFrom(q, out.nearestStart.ref, out.nearestEnd.ref, noNearest ? q.pathStart : out.nearestStart.pt,
                noNearest ? q.pathEnd : out.nearestEnd.pt, true, out);
    return true;
  }
  nav::RaycastHit hit;
  hit.hitEdgeIndex = 0;
  runRaycastFrom(q, out.nearestStart.ref, filter, hit, out);
  return true;
}

bool firstDifference(const nav::CapturedQuery& q, const CaptureAnswer& ours, CaptureDifference* d) {
  const bool truncated = (q.flags & nav::CAPTURE_TRUNCATED) != 0;
  if (!(q.flags & nav::CAPTURE_NO_NEAREST)) {
    if (nearestDiffers("nearestStart", q.nearestStart, ours.nearestStart, d)) return true;
    if (q.kind == nav::CAPTURE_PATH && nearestDiffers("nearestEnd", q.nearestEnd, ours.nearestEnd, d)) return true;
  }
  if (q.kind == nav::CAPTURE_PATH) {
    if (q.pathStatus != ours.pathStatus)
      return differ(d, "pathStatus", captureStatusText(q.pathStatus), captureStatusText(ours.pathStatus));
    if (refsDiffer("path", q.path, ours.path, truncated, d)) return true;
    if (q.straightStatus != ours.straightStatus)
      return differ(d, "straightStatus", captureStatusText(q.straightStatus), captureStatusText(ours.straightStatus));
    const size_t ng = q.straightFlags.size(), no = ours.straightFlags.size();
    for (size_t i = 0; i < std::min(ng, no); ++i) {
      const std::string at = "[" + std::to_string(i) + "]";
      if (!sameBits3(&q.straight[3 * i], &ours.straight[3 * i]))
        return differ(d, "straight" + at, cornerText(q.straight, i), cornerText(ours.straight, i));
      if (q.straightFlags[i] != ours.straightFlags[i])
        return differ(d, "straightFlags" + at, intText(q.straightFlags[i]), intText(ours.straightFlags[i]));
      if (q.straightRefs[i] != ours.straightRefs[i])
        return differ(d, "straightRefs" + at, refText(q.straightRefs[i]), refText(ours.straightRefs[i]));
    }
    if (truncated ? no < ng : no != ng)
      return differ(d, "straight.count", intText((long long)ng) + (truncated ? " (stored prefix)" : ""),
                    intText((long long)no));
    return false;
  }
  if (q.rayStatus != ours.rayStatus)
    return differ(d, "rayStatus", captureStatusText(q.rayStatus), captureStatusText(ours.rayStatus));
  if (!sameBits(q.t, ours.t)) return differ(d, "t", floatText(q.t), floatText(ours.t));
  if (!sameBits3(q.hitNormal, ours.hitNormal)) return differ(d, "hitNormal", pointText(q.hitNormal), pointText(ours.hitNormal));
  if (q.hitEdgeIndex != ours.hitEdgeIndex) return differ(d, "hitEdgeIndex", intText(q.hitEdgeIndex), intText(ours.hitEdgeIndex));
  if (!sameBits(q.pathCost, ours.pathCost)) return differ(d, "pathCost", floatText(q.pathCost), floatText(ours.pathCost));
  return refsDiffer("visited", q.path, ours.path, truncated, d);
}

CaptureChange compareOnMesh(const nav::NavMesh& gameMesh, const nav::CapturedQuery& q, const nav::NavMesh& otherMesh,
                            const CaptureAnswer& ours) {
  CaptureChange c;
  const bool truncated = (q.flags & nav::CAPTURE_TRUNCATED) != 0;
  // Corridors by position: the game's refs resolved on the captured navmesh, ours on the other one.
  const std::vector<NavPolyId> game = navPolyIds(gameMesh, q.path), mine = navPolyIds(otherMesh, ours.path);
  const size_t n = std::min(game.size(), mine.size());
  c.corridorChanged = truncated ? mine.size() < game.size() : mine.size() != game.size();
  for (size_t i = 0; i < n && !c.corridorChanged; ++i) c.corridorChanged = game[i] != mine[i];
  if (q.kind == nav::CAPTURE_RAYCAST) {
    c.statusChanged = q.rayStatus != ours.rayStatus;
    c.straightChanged = !sameBits(q.t, ours.t) || !sameBits3(q.hitNormal, ours.hitNormal);
    return c;
  }
  c.statusChanged = q.pathStatus != ours.pathStatus || q.straightStatus != ours.straightStatus;
  const size_t ng = q.straight.size(), no = ours.straight.size();
  c.straightChanged = truncated ? no < ng : no != ng;
  if (!c.straightChanged && ng) c.straightChanged = std::memcmp(q.straight.data(), ours.straight.data(), ng * sizeof(float)) != 0;
  c.gameLength = captureStraightLength(q.straight);
  c.oursLength = truncated && no > ng
                     ? captureStraightLength(std::vector<float>(ours.straight.begin(), ours.straight.begin() + ng))
                     : captureStraightLength(ours.straight);
  c.lengthChanged = std::fabs(c.oursLength - c.gameLength) > kCaptureLengthTol;
  return c;
}

std::vector<CaptureQueryResult> replayCapture(const nav::NavMesh& mesh, const nav::Capture& cap, const nav::NavMesh* other) {
  std::vector<CaptureQueryResult> results(cap.queries.size());
  CaptureReplayer replayer;
  for (size_t i = 0; i < cap.queries.size(); ++i) {
    const nav::CapturedQuery& q = cap.queries[i];
    CaptureQueryResult& r = results[i];
    if (q.stale()) {
      r.outcome = CaptureOutcome::Stale;
      continue;
    }
    if (other) {
      if (!replayer.runFresh(*other, q, r.ours)) {
        r.outcome = CaptureOutcome::Failed;
        continue;
      }
      r.change = compareOnMesh(mesh, q, *other, r.ours);
      r.outcome = r.change.any() ? CaptureOutcome::Changed : CaptureOutcome::Unchanged;
      continue;
    }
    if (!replayer.run(mesh, q, r.ours)) {
      r.outcome = CaptureOutcome::Failed;
      continue;
    }
    r.outcome = firstDifference(q, r.ours, &r.difference) ? CaptureOutcome::Differs : CaptureOutcome::Identical;
  }
  return results;
}

} // namespace navbench
