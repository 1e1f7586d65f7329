// CaptureGame.cpp: the capture tests' "game". Like a game's own source it includes only
// capture/navbench_capture.h, Detour's headers and the C++ standard library (C++11; the header
// compile test builds this file as C++11 with warnings as errors), loads its navmesh into a
// dtNavMesh and captures queries. The answers it logs come from its own Detour calls, made apart
// from the header's, following docs/formats.md's stage table.
#include "CaptureGame.h"
#include "tests/support/DetourTileSet.h"
#include "navbench_capture.h"

#include "DetourAlloc.h"
#include "DetourCommon.h"
#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "DetourNode.h"

#include <cstdio>
#include <cstring>

namespace capgame {
namespace {

const int kMaxPath = 256; // the header's documented defaults (NAVBENCH_CAPTURE_MAX_PATH / _STRAIGHT)
const int kMaxStraight = 256;

/// Deterministic random numbers (xorshift64*), seeded per session.
struct Rng {
  uint64_t s;
  explicit Rng(const std::string& key) : s(1469598103934665603ull) {
    for (size_t i = 0; i < key.size(); ++i) s = (s ^ (unsigned char)key[i]) * 1099511628211ull;
    if (!s) s = 1;
  }
  uint32_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return uint32_t((s * 2685821657736338717ull) >> 32);
  }
  float unit() { return float(next() >> 8) / 16777216.0f; }
  int below(int n) { return int(next() % uint32_t(n)); }
};

struct Owned {
  dtNavMesh* nav;
  dtNavMeshQuery* queries[5];
  Owned() : nav(0) {
    for (int i = 0; i < 5; ++i) queries[i] = 0;
  }
  ~Owned() {
    for (int i = 0; i < 5; ++i) dtFreeNavMeshQuery(queries[i]);
    dtFreeNavMesh(nav);
  }
};

/// A point on a random ground poly (its vertex average, 0.3 wu up), or far off the mesh when off.
void randomPoint(const dtNavMesh& nav, Rng& rng, bool off, float* p) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const dtMeshTile* tile = nav.getTile(rng.below(nav.getMaxTiles()));
    if (!tile || !tile->header || tile->header->polyCount == 0) continue;
    const dtPoly& poly = tile->polys[rng.below(tile->header->polyCount)];
    if (poly.getType() != DT_POLYTYPE_GROUND) continue;
    p[0] = p[1] = p[2] = 0;
    for (int i = 0; i < poly.vertCount; ++i) dtVadd(p, p, &tile->verts[poly.verts[i] * 3]);
    dtVscale(p, p, 1.0f / float(poly.vertCount));
    p[1] += 0.3f;
    if (off) {
      p[0] += 5000.0f;
      p[2] -= 5000.0f;
    }
    return;
  }
  p[0] = p[1] = p[2] = 0;
}

void randomFilter(Rng& rng, int i, dtQueryFilter& f) {
  f = dtQueryFilter();
  if (i % 4 == 0) return; // Detour's default filter
  f.setIncludeFlags((unsigned short)(0xffff & ~(1u << rng.below(4))));
  if (i % 3 == 1) f.setExcludeFlags((unsigned short)(1u << rng.below(4)));
  for (int a = 0; a < 8; ++a) f.setAreaCost(a, 1.0f + 9.0f * rng.unit());
}

void begin(Answer& a, int kind, const dtNavMeshQuery& q, const dtQueryFilter& f, const float* s, const float* e,
           const float* ext, const char* note) {
  a = Answer();
  a.kind = kind;
  a.note = note ? note : "";
  a.includeFlags = f.getIncludeFlags();
  a.excludeFlags = f.getExcludeFlags();
  for (int i = 0; i < 64; ++i) a.areaCost[i] = f.getAreaCost(i);
  a.maxNodes = q.getNodePool()->getMaxNodes();
  dtVcopy(a.start, s);
  dtVcopy(a.end, e);
  if (ext) dtVcopy(a.halfExtents, ext);
}

/// The path stages with the game's own buffers (maxPath / maxStraight given).
void gamePath(Answer& a, const dtNavMeshQuery& q, const dtQueryFilter& f, int maxPath, int maxStraight) {
  dtPolyRef refs[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    a.nearestStatus[k] = q.findNearestPoly(k ? a.end : a.start, a.halfExtents, &f, &refs[k], a.nearestPt[k]);
    a.nearestRef[k] = refs[k];
  }
  dtVcopy(a.pathStart, a.nearestPt[0]);
  dtVcopy(a.pathEnd, a.nearestPt[1]);
  std::vector<dtPolyRef> path(size_t(maxPath), 0);
  int n = 0;
  a.maxPath = maxPath;
  a.pathStatus = q.findPath(refs[0], refs[1], a.pathStart, a.pathEnd, &f, path.data(), &n, maxPath);
  a.path.assign(path.begin(), path.begin() + n);
  dtVcopy(a.straightEnd, a.pathEnd);
  if (n > 0 && path[size_t(n - 1)] != refs[1]) q.closestPointOnPoly(path[size_t(n - 1)], a.pathEnd, a.straightEnd, 0);
  a.maxStraight = maxStraight;
  std::vector<float> pts(size_t(maxStraight) * 3);
  std::vector<unsigned char> flags(static_cast<size_t>(maxStraight));
  std::vector<dtPolyRef> srefs(static_cast<size_t>(maxStraight));
  int sn = 0;
  a.straightStatus = q.findStraightPath(a.pathStart, a.straightEnd, path.data(), n, pts.data(), flags.data(),
                                        srefs.data(), &sn, maxStraight, 0);
  a.straight.assign(pts.begin(), pts.begin() + 3 * sn);
  a.straightFlags.assign(flags.begin(), flags.begin() + sn);
  a.straightRefs.assign(srefs.begin(), srefs.begin() + sn);
}

/// findNearestPoly on the start, then raycast from it (the end's nearest stays empty).
void gameRaycast(Answer& a, const dtNavMeshQuery& q, const dtQueryFilter& f, int maxPath) {
  dtPolyRef ref = 0;
  a.nearestStatus[0] = q.findNearestPoly(a.start, a.halfExtents, &f, &ref, a.nearestPt[0]);
  a.nearestRef[0] = ref;
  dtVcopy(a.rayStart, a.start);
  dtVcopy(a.rayEnd, a.end);
  a.rayStartRef = ref;
  std::vector<dtPolyRef> visited(size_t(maxPath), 0);
  dtRaycastHit hit;
  std::memset(&hit, 0, sizeof hit);
  hit.path = visited.data();
  hit.maxPath = maxPath;
  a.rayStatus = q.raycast(ref, a.rayStart, a.rayEnd, &f, 0, &hit, 0);
  a.maxPath = maxPath;
  a.path.assign(visited.begin(), visited.begin() + hit.pathCount);
  a.t = hit.t;
  dtVcopy(a.hitNormal, hit.hitNormal);
  a.hitEdgeIndex = hit.hitEdgeIndex;
  a.pathCost = hit.pathCost;
}

void count(const Answer& a, SessionStats& st) {
  if (a.kind == 0) {
    if (a.pathStatus & DT_PARTIAL_RESULT) ++st.partial;
    if (a.pathStatus & DT_OUT_OF_NODES) ++st.outOfNodes;
    if (!a.nearestRef[0] || !a.nearestRef[1]) ++st.noNearest;
  } else {
    if (a.t < 1e30f) ++st.raycastHits;
    if (!a.nearestRef[0]) ++st.noNearest;
  }
  if (a.flags & 1) ++st.stale;
  if (a.flags & 2) ++st.handedIn;
  if (a.flags & 4) ++st.truncated;
}

const int kBudgets[5] = {2048, 512, 64, 32, 8};

std::string openMesh(const std::string& meshPath, Owned& o) {
  o.nav = navtest::loadDetourTileSet(meshPath.c_str());
  if (!o.nav) return meshPath + ": the game cannot load it into a dtNavMesh";
  for (int i = 0; i < 5; ++i) {
    o.queries[i] = dtAllocNavMeshQuery();
    if (!o.queries[i] || dtStatusFailed(o.queries[i]->init(o.nav, kBudgets[i]))) return "dtNavMeshQuery::init failed";
  }
  return "";
}

/// The note cut as the Recorder documents: at most maxBytes, on a UTF-8 character boundary.
std::string cutNote(const std::string& note, size_t maxBytes) {
  size_t n = note.size();
  if (n > maxBytes) {
    n = maxBytes;
    while (n > 0 && ((unsigned char)note[n] & 0xc0) == 0x80) --n;
  }
  return note.substr(0, n);
}

} // namespace

std::string runCaptureSession(const std::string& meshPath, const std::string& dir, const std::string& tag,
                              std::vector<CaptureLog>& logs, SessionStats& stats) {
  Owned o;
  const std::string err = openMesh(meshPath, o);
  if (!err.empty()) return err;
  Rng rng(tag);
  const float ext[3] = {2, 4, 2};
  const int paths = 20, rays = 8;
  for (int i = 0; i < paths + rays; ++i) {
    const bool ray = i >= paths;
    // Budgets cycle through 2048..8; every 7th query starts or ends off the mesh.
    dtNavMeshQuery& q = *o.queries[i % 5];
    dtQueryFilter f;
    randomFilter(rng, i, f);
    float s[3], e[3];
    randomPoint(*o.nav, rng, i % 7 == 3, s);
    randomPoint(*o.nav, rng, i % 7 == 5, e);
    char name[64], note[96];
    std::snprintf(name, sizeof name, "%s_%02d.nbcap", tag.c_str(), i);
    std::snprintf(note, sizeof note, "%s %s %d, %d nodes", tag.c_str(), ray ? "raycast" : "path", i, kBudgets[i % 5]);
    CaptureLog log;
    log.file = dir + "/" + name;
    const bool ok = ray ? navbench::captureRaycast(log.file.c_str(), q, f, s, e, ext, note)
                        : navbench::capturePath(log.file.c_str(), q, f, s, e, ext, note);
    if (!ok) return log.file + ": capture failed";
    Answer a;
    begin(a, ray ? 1 : 0, q, f, s, e, ext, note);
    if (ray)
      gameRaycast(a, q, f, kMaxPath);
    else
      gamePath(a, q, f, kMaxPath, kMaxStraight);
    count(a, stats);
    log.queries.push_back(a);
    logs.push_back(log);
  }
  return "";
}

std::string runRecorderSession(const std::string& meshPath, const std::string& dir, const std::string& tag,
                               CaptureLog& log, SessionStats& stats) {
  Owned o;
  const std::string err = openMesh(meshPath, o);
  if (!err.empty()) return err;
  Rng rng(tag + "/recorder");
  const float ext[3] = {2, 4, 2};
  // Slots: 8 corridor refs, 4 corners, 16 note bytes: the game's 256-long answers get cut, and
  // the queries run through the recorder stop at the slot's sizes (buffer too small).
  const int capacity = 12, slotPath = 8, slotStraight = 4, slotNote = 16;
  navbench::Recorder rec(capacity, slotPath, slotStraight, slotNote);
  if (rec.capacity() != capacity) return "Recorder::init failed";
  std::vector<Answer> all;
  dtNavMeshQuery& q = *o.queries[0];
  dtQueryFilter f;
  char note[64];
  // Through the recorder: Detour runs with the slot's sizes.
  for (int i = 0; i < 6; ++i) {
    randomFilter(rng, i, f);
    float s[3], e[3];
    randomPoint(*o.nav, rng, false, s);
    randomPoint(*o.nav, rng, i == 4, e);
    const bool ray = i % 3 == 2;
    // A note of 17 bytes whose 16th and 17th bytes are one UTF-8 character: cut to 15.
    std::snprintf(note, sizeof note, i == 1 ? "recorded %d abcd\xc3\xa9" : "recorded %d", i);
    Answer a;
    begin(a, ray ? 1 : 0, q, f, s, e, ext, note);
    if (ray) {
      if (!rec.recordRaycast(q, f, s, e, ext, note)) return "recordRaycast failed";
      gameRaycast(a, q, f, slotPath);
    } else {
      if (!rec.recordPath(q, f, s, e, ext, note)) return "recordPath failed";
      gamePath(a, q, f, slotPath, slotStraight);
    }
    a.note = cutNote(a.note, slotNote);
    all.push_back(a);
  }
  // Handed in: the game's own calls with its own (longer) buffers.
  for (int i = 0; i < 8; ++i) {
    randomFilter(rng, i, f);
    float s[3], e[3];
    randomPoint(*o.nav, rng, false, s);
    randomPoint(*o.nav, rng, false, e);
    const bool ray = i >= 6, nearest = i % 4 != 3;
    std::snprintf(note, sizeof note, "handed %d", i);
    Answer a;
    begin(a, ray ? 1 : 0, q, f, s, e, ext, note);
    a.flags = 2 | (nearest ? 0 : 8);
    if (ray) {
      gameRaycast(a, q, f, kMaxPath);
      dtRaycastHit hit;
      std::memset(&hit, 0, sizeof hit);
      hit.t = a.t;
      dtVcopy(hit.hitNormal, a.hitNormal);
      hit.hitEdgeIndex = a.hitEdgeIndex;
      hit.pathCost = a.pathCost;
      std::vector<dtPolyRef> visited(a.path.begin(), a.path.end());
      hit.path = visited.data();
      hit.pathCount = int(visited.size());
      hit.maxPath = a.maxPath;
      navbench::RaycastAnswers h;
      h.hasNearest = nearest;
      h.start = a.start;
      h.halfExtents = a.halfExtents;
      h.startStatus = a.nearestStatus[0];
      h.nearestStartPt = a.nearestPt[0];
      h.startRef = a.rayStartRef;
      h.rayStart = a.rayStart;
      h.rayEnd = a.rayEnd;
      h.options = 0;
      h.status = a.rayStatus;
      h.hit = &hit;
      if (!rec.addRaycast(q, f, h, note)) return "addRaycast failed";
    } else {
      gamePath(a, q, f, kMaxPath, kMaxStraight);
      std::vector<dtPolyRef> path(a.path.begin(), a.path.end()), srefs(a.straightRefs.begin(), a.straightRefs.end());
      navbench::PathAnswers h;
      h.hasNearest = nearest;
      h.start = a.start;
      h.end = a.end;
      h.halfExtents = a.halfExtents;
      h.startStatus = a.nearestStatus[0];
      h.endStatus = a.nearestStatus[1];
      h.nearestStartPt = a.nearestPt[0];
      h.nearestEndPt = a.nearestPt[1];
      h.startRef = a.nearestRef[0];
      h.endRef = a.nearestRef[1];
      h.pathStart = a.pathStart;
      h.pathEnd = a.pathEnd;
      h.pathStatus = a.pathStatus;
      h.path = path.data();
      h.pathCount = int(path.size());
      h.maxPath = a.maxPath;
      h.straightEnd = a.straightEnd;
      h.straightOptions = 0;
      h.maxStraight = a.maxStraight;
      h.straightStatus = a.straightStatus;
      h.straight = a.straight.data();
      h.straightFlags = a.straightFlags.data();
      h.straightRefs = srefs.data();
      h.straightCount = int(srefs.size());
      if (!rec.addPath(q, f, h, note)) return "addPath failed";
    }
    if (!nearest) {
      // What the file keeps without nearest answers: findPath's (raycast's) refs and points, status 0.
      for (int k = 0; k < 2; ++k) a.nearestStatus[k] = 0;
      std::memset(a.halfExtents, 0, sizeof a.halfExtents);
      if (ray) {
        dtVcopy(a.nearestPt[0], a.rayStart);
        dtVcopy(a.start, a.rayStart);
      } else {
        dtVcopy(a.start, a.pathStart);
        dtVcopy(a.end, a.pathEnd);
      }
    }
    if (a.path.size() > size_t(slotPath)) {
      a.path.resize(size_t(slotPath));
      a.flags |= 4;
    }
    if (a.straightRefs.size() > size_t(slotStraight)) {
      a.straight.resize(size_t(slotStraight) * 3);
      a.straightFlags.resize(size_t(slotStraight));
      a.straightRefs.resize(size_t(slotStraight));
      a.flags |= 4;
    }
    all.push_back(a);
  }
  // The tile under the newest record's start (that has one) is rebuilt (removed, its blob added again): the
  // records before it that name one of its polys go stale.
  dtPolyRef under = 0;
  float underStart[3] = {0, 0, 0};
  for (size_t i = all.size(); i-- > 0 && !under;) {
    under = all[i].nearestRef[0];
    dtVcopy(underStart, all[i].start);
  }
  if (!under) return "no record has a start poly";
  const unsigned int tileIndex = o.nav->decodePolyIdTile(under);
  const dtMeshTile* tile = static_cast<const dtNavMesh*>(o.nav)->getTile(int(tileIndex));
  if (!tile) return "no tile under the start";
  const int size = tile->dataSize;
  unsigned char* copy = static_cast<unsigned char*>(dtAlloc(size_t(size), DT_ALLOC_PERM));
  std::memcpy(copy, tile->data, size_t(size));
  if (dtStatusFailed(o.nav->removeTile(o.nav->getTileRef(tile), 0, 0)) ||
      dtStatusFailed(o.nav->addTile(copy, size, DT_TILE_FREE_DATA, 0, 0))) {
    dtFree(copy);
    return "rebuilding the tile failed";
  }
  for (size_t i = 0; i < all.size(); ++i) {
    Answer& a = all[i];
    bool touches = false;
    std::vector<uint32_t> refs(a.path);
    refs.insert(refs.end(), a.straightRefs.begin(), a.straightRefs.end());
    refs.push_back(a.nearestRef[0]);
    refs.push_back(a.nearestRef[1]);
    refs.push_back(a.rayStartRef);
    for (size_t k = 0; k < refs.size(); ++k)
      if (refs[k] && o.nav->decodePolyIdTile(refs[k]) == tileIndex) touches = true;
    if (touches) a.flags |= 1;
  }
  // After the rebuild: fresh records, the first two from the rebuilt tile (its links now in
  // another order than a fresh load of the file builds), and the ring (12) overrun (17 made).
  for (int i = 0; i < 3; ++i) {
    f = dtQueryFilter();
    float s[3], e[3];
    randomPoint(*o.nav, rng, false, s);
    randomPoint(*o.nav, rng, false, e);
    if (i < 2) dtVcopy(s, underStart);
    std::snprintf(note, sizeof note, "after %d", i);
    Answer a;
    begin(a, 0, q, f, s, e, ext, note);
    if (!rec.recordPath(q, f, s, e, ext, note)) return "recordPath failed";
    gamePath(a, q, f, slotPath, slotStraight);
    all.push_back(a);
  }
  log.file = dir + "/" + tag + "_recorder.nbcap";
  if (!rec.save(log.file.c_str(), *o.nav)) return log.file + ": Recorder::save failed";
  log.queries.assign(all.end() - capacity, all.end());
  for (size_t i = 0; i < log.queries.size(); ++i) count(log.queries[i], stats);
  return "";
}

} // namespace capgame
