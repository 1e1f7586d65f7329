// CaptureMaker.h: path captures (nav/CaptureFile.h) made the way capture/navbench_capture.h makes
// them inside a game, but with NavBench's NavMeshQuery in Detour's place (its answers are
// Detour's, bit for bit): for the capture reader's tests, the replay tests and the fuzz seeds.
// Header only, std + nav.
#pragma once

#include "nav/CaptureFile.h"
#include "nav/NavMeshQuery.h"
#include "nav/TileSetFile.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace capturetest {

/// The project's default level, baked (assets/levels/default.bin). False with `why`.
inline bool loadDefaultMesh(nav::NavMesh& mesh, std::string* why) {
  return nav::statusSucceeded(nav::loadTileSetFile(std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin", mesh, why));
}

/// One query as a game asks it.
struct QuerySpec {
  nav::CaptureKind kind = nav::CAPTURE_PATH;
  float start[3] = {0, 0, 0}, end[3] = {0, 0, 0};
  uint16_t include = 0xffff, exclude = 0;
  float costs[nav::MAX_AREAS];
  int maxNodes = 2048, maxPath = 256, maxStraight = 256, straightOptions = 0, rayOptions = 0;
  std::string note;
  QuerySpec() {
    for (float& c : costs) c = 1.0f;
  }
};

/// Runs `s` on `mesh` as the capture header does (nearest for start and end, findPath between the
/// nearest points, findStraightPath to the end or the closest point on a partial corridor's last
/// poly; a raycast from the nearest start point) and records everything.
inline nav::CapturedQuery makeQuery(const nav::NavMesh& mesh, const QuerySpec& s) {
  nav::CapturedQuery q;
  q.kind = s.kind;
  q.note = s.note;
  q.includeFlags = s.include;
  q.excludeFlags = s.exclude;
  std::memcpy(q.areaCost, s.costs, sizeof q.areaCost);
  q.maxNodes = s.maxNodes;
  std::memcpy(q.start, s.start, sizeof q.start);
  std::memcpy(q.end, s.end, sizeof q.end);
  nav::QueryFilter filter;
  filter.setIncludeFlags(s.include);
  filter.setExcludeFlags(s.exclude);
  for (int a = 0; a < nav::MAX_AREAS; ++a) filter.setAreaCost(a, s.costs[a]);
  nav::NavMeshQuery query;
  query.init(&mesh, s.maxNodes);
  std::memcpy(q.nearestStart.pt, s.start, sizeof q.start); // the game's buffers start as its points
  std::memcpy(q.nearestEnd.pt, s.end, sizeof q.end);
  q.nearestStart.status = query.findNearestPoly(s.start, q.halfExtents, &filter, &q.nearestStart.ref, q.nearestStart.pt);
  q.nearestEnd.status = query.findNearestPoly(s.end, q.halfExtents, &filter, &q.nearestEnd.ref, q.nearestEnd.pt);
  q.maxPath = s.maxPath;
  std::vector<nav::PolyRef> path(size_t(s.maxPath > 0 ? s.maxPath : 1));
  if (s.kind == nav::CAPTURE_RAYCAST) {
    std::memcpy(q.rayStart, q.nearestStart.pt, sizeof q.rayStart);
    std::memcpy(q.rayEnd, s.end, sizeof q.rayEnd);
    q.rayStartRef = q.nearestStart.ref;
    q.rayOptions = s.rayOptions;
    nav::RaycastHit hit;
    hit.hitEdgeIndex = 0; // a value-initialised dtRaycastHit
    hit.path = path.data();
    hit.maxPath = s.maxPath;
    q.rayStatus = query.raycast(q.rayStartRef, q.rayStart, q.rayEnd, &filter, q.rayOptions, &hit, 0);
    q.t = hit.t;
    std::memcpy(q.hitNormal, hit.hitNormal, sizeof q.hitNormal);
    q.hitEdgeIndex = hit.hitEdgeIndex;
    q.pathCost = hit.pathCost;
    q.path.assign(path.begin(), path.begin() + hit.pathCount);
    return q;
  }
  std::memcpy(q.pathStart, q.nearestStart.pt, sizeof q.pathStart);
  std::memcpy(q.pathEnd, q.nearestEnd.pt, sizeof q.pathEnd);
  std::memcpy(q.straightEnd, q.pathEnd, sizeof q.straightEnd);
  q.straightOptions = s.straightOptions;
  q.maxStraight = s.maxStraight;
  if (!q.nearestStart.ref || !q.nearestEnd.ref) return q; // no findPath without both polys (status 0)
  int n = 0;
  q.pathStatus = query.findPath(q.nearestStart.ref, q.nearestEnd.ref, q.pathStart, q.pathEnd, &filter, path.data(), &n,
                                s.maxPath);
  q.path.assign(path.begin(), path.begin() + n);
  if (n && q.path.back() != q.nearestEnd.ref) query.closestPointOnPoly(q.path.back(), q.pathEnd, q.straightEnd, nullptr);
  if (!n) return q; // the game pulls no string through an empty corridor
  const size_t cap = size_t(s.maxStraight > 0 ? s.maxStraight : 1);
  std::vector<float> pts(3 * cap);
  std::vector<uint8_t> flags(cap);
  std::vector<nav::PolyRef> refs(cap);
  int sn = 0;
  q.straightStatus = query.findStraightPath(q.pathStart, q.straightEnd, q.path.data(), n, pts.data(), flags.data(),
                                            refs.data(), &sn, s.maxStraight, s.straightOptions);
  q.straight.assign(pts.begin(), pts.begin() + 3 * sn);
  q.straightFlags.assign(flags.begin(), flags.begin() + sn);
  q.straightRefs.assign(refs.begin(), refs.begin() + sn);
  return q;
}

/// A small deterministic generator (xorshift32).
struct Rng {
  uint32_t s;
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
  }
  float unit() { return float(next() >> 8) / float(1 << 24); } ///< [0, 1)
};
inline uint32_t& randomPointState() {
  static uint32_t s = 1;
  return s;
}
inline float randomPointUnit() {
  Rng r{randomPointState()};
  const float f = r.unit();
  randomPointState() = r.s;
  return f;
}

/// `count` queries between random points of `mesh`: paths and raycasts, varied include / exclude
/// flags, area costs (1..20), node budgets (2048 down to tiny ones that run out of nodes), corridor
/// and straight-path capacities (tiny ones that cut the answer: BUFFER_TOO_SMALL) and crossing
/// options; every fourth query has a note. Deterministic for a seed.
inline std::vector<QuerySpec> variedSpecs(const nav::NavMesh& mesh, int count, uint32_t seed) {
  std::vector<QuerySpec> specs;
  Rng rng{seed ? seed : 1};
  randomPointState() = seed * 2654435761u + 1;
  nav::NavMeshQuery query;
  query.init(&mesh, 2048);
  nav::QueryFilter all;
  static const int kBudgets[] = {2048, 2048, 512, 64, 16, 4};
  static const int kCaps[] = {256, 256, 64, 8, 3};
  static const uint16_t kExclude[] = {0, 0, 0x02, 0x04, 0x08, 0x02 | 0x04};
  for (int i = 0; i < count; ++i) {
    QuerySpec s;
    nav::PolyRef ref = 0;
    query.findRandomPoint(&all, &randomPointUnit, &ref, s.start);
    query.findRandomPoint(&all, &randomPointUnit, &ref, s.end);
    s.kind = rng.next() % 4 == 0 ? nav::CAPTURE_RAYCAST : nav::CAPTURE_PATH;
    s.exclude = kExclude[rng.next() % 6];
    if (rng.next() % 8 == 0) s.include = 0x01; // walk only
    for (int a = 0; a < 6; ++a) s.costs[a] = 1.0f + float(rng.next() % 20);
    s.maxNodes = kBudgets[rng.next() % 6];
    s.maxPath = kCaps[rng.next() % 5];
    s.maxStraight = kCaps[rng.next() % 5];
    s.straightOptions = int(rng.next() % 3);
    s.rayOptions = int(rng.next() % 2);
    if (i % 4 == 0) s.note = "query " + std::to_string(i) + ": from play-testing";
    specs.push_back(s);
  }
  return specs;
}

/// variedSpecs made into a capture on `mesh`.
inline nav::Capture variedCapture(const nav::NavMesh& mesh, int count, uint32_t seed) {
  nav::Capture cap;
  for (const QuerySpec& s : variedSpecs(mesh, count, seed)) cap.queries.push_back(makeQuery(mesh, s));
  return cap;
}

/// A poly's vertices [(x, y, z) * n] as the mesh holds them (empty for an invalid ref).
inline std::vector<float> polyVerts(const nav::NavMesh& mesh, nav::PolyRef ref) {
  const nav::MeshTile* t = nullptr;
  const nav::Poly* p = nullptr;
  std::vector<float> v;
  if (!nav::statusSucceeded(mesh.getTileAndPolyByRef(ref, &t, &p))) return v;
  for (int i = 0; i < p->vertCount; ++i) v.insert(v.end(), &t->verts[3 * p->verts[i]], &t->verts[3 * p->verts[i]] + 3);
  return v;
}

/// The same query made on two meshes answered differently: a status, the corridor's polys (their
/// vertices, in order), the straight path's corners (bit for bit) or, for a raycast, t and the normal.
inline bool answersDiffer(const nav::NavMesh& ma, const nav::CapturedQuery& a, const nav::NavMesh& mb,
                          const nav::CapturedQuery& b) {
  if (a.pathStatus != b.pathStatus || a.straightStatus != b.straightStatus || a.rayStatus != b.rayStatus) return true;
  if (a.path.size() != b.path.size()) return true;
  for (size_t i = 0; i < a.path.size(); ++i)
    if (polyVerts(ma, a.path[i]) != polyVerts(mb, b.path[i])) return true;
  if (a.kind == nav::CAPTURE_RAYCAST)
    return std::memcmp(&a.t, &b.t, 4) != 0 || std::memcmp(a.hitNormal, b.hitNormal, 12) != 0;
  return a.straight.size() != b.straight.size() ||
         (!a.straight.empty() && std::memcmp(a.straight.data(), b.straight.data(), 4 * a.straight.size()) != 0);
}

/// The default level cut down to its first two tiles (slot order): small captures for byte-by-byte
/// tests and fuzz seeds. False with `why`.
inline bool smallMesh(nav::NavMesh& mesh, std::string* why) {
  if (!loadDefaultMesh(mesh, why)) return false;
  int kept = 0;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (!t->header || kept++ < 2) continue;
    if (nav::statusFailed(mesh.removeTile(mesh.getTileRef(t), nullptr, nullptr))) return *why = "cannot remove a tile", false;
  }
  return kept > 2 || (*why = "the default level has fewer than 3 tiles", false);
}

/// On smallMesh: query 0 a path across the first tile (a corridor, a straight path, a note
/// "door 3"), query 1 a raycast the same way, then `more` varied queries.
inline nav::Capture smallCapture(const nav::NavMesh& mesh, int more = 8) {
  nav::Capture cap = variedCapture(mesh, more, 3);
  QuerySpec s;
  const nav::MeshTile* t = nullptr;
  for (int i = 0; i < mesh.getMaxTiles() && !t; ++i)
    if (mesh.getTile(i)->header) t = mesh.getTile(i);
  for (int k = 0; k < 3; ++k) {
    s.start[k] = t->header->bmin[k] + 0.25f * (t->header->bmax[k] - t->header->bmin[k]);
    s.end[k] = t->header->bmin[k] + 0.75f * (t->header->bmax[k] - t->header->bmin[k]);
  }
  s.note = "door 3";
  cap.queries.insert(cap.queries.begin(), makeQuery(mesh, s));
  s.kind = nav::CAPTURE_RAYCAST;
  s.note.clear();
  cap.queries.insert(cap.queries.begin() + 1, makeQuery(mesh, s));
  return cap;
}

} // namespace capturetest
