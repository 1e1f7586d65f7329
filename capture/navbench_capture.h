// navbench_capture.h: capture a Detour path query, with the navmesh and the answers, for NavBench.
//
// WHAT IT IS
//   One header a game that links Detour (recastnavigation) drops in beside its Detour. One call
//   writes a `.nbcap` file: every tile of the game's dtNavMesh exactly as Detour holds it (links,
//   poly flags and areas as they are at that moment), the query filter (include / exclude flags,
//   all 64 area costs), the node budget, the query's inputs and the answers Detour gave. Attach it
//   to a bug report; NavBench opens it (`navbench FILE.nbcap`), shows the game's path beside its
//   own, and `navbench replay FILE.nbcap` re-runs every query and says "identical" or where the
//   answers first differ. The format is NavBench's docs/formats.md, "Path capture (.nbcap)".
//
//   C++11, header only, depends on Detour's public headers (DetourNavMesh.h, DetourNavMeshQuery.h,
//   DetourNode.h for the node budget, DetourStatus.h) and the C/C++ standard library; no
//   exceptions, no RTTI. Compiles with -Wall -Wextra -Wshadow -pedantic -Werror (g++, clang).
//
// USE
//   #include "navbench_capture.h"   // beside DetourNavMesh.h on the include path
//
//   // One query, run now on the game's own query object (its node pool, its navmesh):
//   navbench::capturePath("bug.nbcap", navQuery, filter, start, end, halfExtents, "door 12 stuck");
//   navbench::captureRaycast("ray.nbcap", navQuery, filter, start, end, halfExtents);
//
//   // Or keep the last N queries and save them when a tester presses a key:
//   static navbench::Recorder rec(64);                 // all storage allocated here, once
//   rec.recordPath(navQuery, filter, start, end, halfExtents, "npc 7");  // runs Detour, keeps it
//   rec.addPath(navQuery, filter, answers, "npc 8");   // or: hand in the game's own calls' answers
//   if (keyPressed) rec.save("last64.nbcap", *navQuery.getAttachedNavMesh());
//
// HOW A CAPTURE RUNS (and how NavBench replays it, stage by stage)
//   path:    findNearestPoly(start) and (end) into zeroed points; findPath(startRef, endRef,
//            startPt, endPt, maxPath); findStraightPath(startPt, straightEnd, corridor, maxStraight,
//            options) where straightEnd is endPt, or, when the corridor does not end on endRef
//            (partial result, or cut at maxPath), the closest point on its last poly to endPt.
//            Every stage runs whatever the one before returned (a failure is recorded as is).
//   raycast: findNearestPoly(start); raycast(startRef, start, end, filter, options, &hit) with
//            a zeroed dtRaycastHit whose path holds maxPath refs. The end's nearest is left empty.
//   maxPath and maxStraight are NAVBENCH_CAPTURE_MAX_PATH / _MAX_STRAIGHT (256 each; define them
//   before the include to change them; capturePath keeps its buffers on the stack).
//
// RECORDER
//   A ring of the last N queries (init's capacity), each slot with room for maxPath corridor refs,
//   maxStraight corners and maxNote note bytes, all allocated once. recordPath / recordRaycast run
//   Detour with the slot's sizes and return the record (the game may use its answers); addPath /
//   addRaycast keep what the game's own calls returned (PathAnswers / RaycastAnswers: pointers to
//   the game's inputs and buffers; flagged handed in, "no nearest" without findNearestPoly answers,
//   truncated when longer than the slot). save() writes the navmesh as it is then and the records
//   oldest first; records whose polys are gone (tile rebuilt or removed) are flagged stale.
//
// FILES
//   Written to "<file>.nbtmp" beside the target, closed, then renamed over it (on Windows, where
//   rename does not replace a file, the old target is removed just before); a failed write removes the temporary and returns false, leaving any
//   old file as it was. Written through a 1 MiB stdio buffer (allocated by the C library while
//   the file is open). No fsync: a capture is a debugging aid. Little-endian machines only (every
//   platform Detour ships on); the calls return false elsewhere. A Detour built with DT_POLYREF64
//   writes refBytes 8 and every tile and poly ref as 8 bytes (NavBench refuses such files, saying so).
//
// LIMITS
//   The filter travels as Detour's default dtQueryFilter (flags and area costs): a
//   DT_VIRTUAL_QUERYFILTER subclass's own passFilter / getCost logic cannot be captured. A query
//   whose points or box are not finite (NaN, infinite), or whose filter has an area cost below 0,
//   is not captured (false / null, nothing kept): NavBench could not read the file back. Notes are
//   cut to 65,535 bytes (the Recorder: to its note capacity, on a UTF-8 character boundary).
//
// LICENSE
//   zlib license. Copyright (c) 2026 NavBench contributors. See the end of this file.
#ifndef NAVBENCH_CAPTURE_H
#define NAVBENCH_CAPTURE_H

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "DetourNode.h"
#include "DetourStatus.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#ifndef NAVBENCH_CAPTURE_MAX_PATH
#define NAVBENCH_CAPTURE_MAX_PATH 256
#endif
#ifndef NAVBENCH_CAPTURE_MAX_STRAIGHT
#define NAVBENCH_CAPTURE_MAX_STRAIGHT 256
#endif

namespace navbench {

/// The record kinds and flags of a .nbcap file.
enum CaptureKind { CAPTURE_PATH = 0, CAPTURE_RAYCAST = 1 };
enum CaptureFlag {
  CAPTURE_STALE = 1,      ///< A ref no longer named a valid poly when the file was saved: not replayed.
  CAPTURE_HANDED_IN = 2,  ///< The game ran the query itself and handed its answers to the Recorder.
  CAPTURE_TRUNCATED = 4,  ///< An answer was longer than the Recorder's slot: its prefix is stored.
  CAPTURE_NO_NEAREST = 8  ///< The game handed in no findNearestPoly answers.
};

/// One captured query with its answers. Arrays point into storage owned elsewhere (the Recorder's
/// slots, or capturePath's stack); counts say how many entries are valid.
struct CaptureRecord {
  int kind;               ///< CaptureKind
  int flags;              ///< CaptureFlag bits (CAPTURE_STALE is added when saving)
  unsigned short includeFlags, excludeFlags;
  float areaCost[DT_MAX_AREAS];
  int maxNodes;           ///< The query's node pool size.
  float start[3], end[3], halfExtents[3];
  dtStatus nearestStartStatus, nearestEndStatus;
  dtPolyRef nearestStartRef, nearestEndRef;
  float nearestStartPt[3], nearestEndPt[3];

  // CAPTURE_PATH
  float pathStart[3], pathEnd[3]; ///< The points findPath got.
  dtStatus pathStatus;
  int maxPath;            ///< findPath's maxPath (raycast: the hit's maxPath).
  int pathCount;
  dtPolyRef* path;        ///< [pathCount] the corridor (raycast: the visited polys)
  float straightEnd[3];
  int straightOptions, maxStraight;
  dtStatus straightStatus;
  int straightCount;
  float* straight;              ///< [(x, y, z) * straightCount]
  unsigned char* straightFlags; ///< [straightCount]
  dtPolyRef* straightRefs;      ///< [straightCount]

  // CAPTURE_RAYCAST (path / pathCount / maxPath hold the visited polys)
  float rayStart[3], rayEnd[3];
  dtPolyRef rayStartRef;
  int rayOptions;
  dtStatus rayStatus;
  float t, hitNormal[3];
  int hitEdgeIndex;
  float pathCost;

  const char* note;       ///< UTF-8, noteBytes long, no terminator needed
  int noteBytes;
};

/// The answers of a path query the game ran itself, handed to Recorder::addPath. Pointers are
/// read during the call only. Leave hasNearest false when the game found its refs without
/// findNearestPoly: the record then keeps startRef / endRef and pathStart / pathEnd as the
/// nearest answers (status 0) and is flagged CAPTURE_NO_NEAREST.
struct PathAnswers {
  bool hasNearest;
  const float* start;        ///< findNearestPoly's centres and box [(x, y, z)] (with hasNearest)
  const float* end;
  const float* halfExtents;
  dtStatus startStatus, endStatus; ///< findNearestPoly's statuses (with hasNearest)
  const float* nearestStartPt;     ///< findNearestPoly's points (with hasNearest; null: pathStart / pathEnd)
  const float* nearestEndPt;
  dtPolyRef startRef, endRef;      ///< The refs findPath got (findNearestPoly's)
  const float* pathStart;          ///< The points findPath got [(x, y, z)]
  const float* pathEnd;
  dtStatus pathStatus;
  const dtPolyRef* path;           ///< [pathCount]
  int pathCount, maxPath;          ///< maxPath: findPath's (pathCount..65,536)
  const float* straightEnd;        ///< The end findStraightPath got (null: pathEnd)
  int straightOptions, maxStraight; ///< maxStraight: findStraightPath's (straightCount..65,536)
  dtStatus straightStatus;
  const float* straight;           ///< [(x, y, z) * straightCount]
  const unsigned char* straightFlags; ///< [straightCount] (required when straightCount > 0)
  const dtPolyRef* straightRefs;      ///< [straightCount] (required when straightCount > 0)
  int straightCount;
  PathAnswers()
      : hasNearest(false), start(0), end(0), halfExtents(0), startStatus(0), endStatus(0), nearestStartPt(0),
        nearestEndPt(0), startRef(0), endRef(0), pathStart(0), pathEnd(0), pathStatus(0), path(0), pathCount(0),
        maxPath(0), straightEnd(0), straightOptions(0), maxStraight(0), straightStatus(0), straight(0),
        straightFlags(0), straightRefs(0), straightCount(0) {}
};

/// The answers of a raycast the game ran itself, handed to Recorder::addRaycast. With hasNearest
/// false the record keeps startRef as the nearest start ref (status 0, point rayStart).
struct RaycastAnswers {
  bool hasNearest;
  const float* start;        ///< findNearestPoly's centre and box (with hasNearest)
  const float* halfExtents;
  dtStatus startStatus;      ///< findNearestPoly's status and point (with hasNearest)
  const float* nearestStartPt;
  dtPolyRef startRef;        ///< The ref raycast got
  const float* rayStart;     ///< The points raycast got
  const float* rayEnd;
  unsigned int options;      ///< dtRaycastOptions
  dtStatus status;
  const dtRaycastHit* hit;   ///< hit->path / pathCount / maxPath: the visited polys
  RaycastAnswers()
      : hasNearest(false), start(0), halfExtents(0), startStatus(0), nearestStartPt(0), startRef(0), rayStart(0),
        rayEnd(0), options(0), status(0), hit(0) {}
};

namespace detail {

inline void copy3(float* d, const float* s) {
  if (s) {
    d[0] = s[0];
    d[1] = s[1];
    d[2] = s[2];
  } else {
    d[0] = d[1] = d[2] = 0.0f;
  }
}

inline bool littleEndian() {
  const unsigned int one = 1;
  unsigned char b;
  std::memcpy(&b, &one, 1);
  return b == 1;
}

/// False for NaN and the infinities.
inline bool finite(float v) { return v - v == 0.0f; }

/// True when the n floats at p (none when p is null) are finite.
inline bool finiteN(const float* p, int n) {
  for (int i = 0; p && i < n; ++i)
    if (!finite(p[i])) return false;
  return true;
}

/// True when NavBench can read a record with these inputs back: finite points and box, and every
/// area cost finite and not below 0 (NavBench refuses a file holding anything else, whole; a
/// search with a negative cost need not end).
inline bool readableInputs(const dtQueryFilter& filter, const float* a, const float* b, const float* extents) {
  if (!finiteN(a, 3) || !finiteN(b, 3) || !finiteN(extents, 3)) return false;
  for (int i = 0; i < DT_MAX_AREAS; ++i) {
    const float cost = filter.getAreaCost(i);
    if (!finite(cost) || cost < 0.0f) return false;
  }
  return true;
}

/// The filter, node budget and inputs every record starts with; answers zeroed.
inline void beginRecord(CaptureRecord& r, int kind, const dtNavMeshQuery& query, const dtQueryFilter& filter,
                        const float* start, const float* end, const float* halfExtents) {
  dtPolyRef* path = r.path;
  float* straight = r.straight;
  unsigned char* straightFlags = r.straightFlags;
  dtPolyRef* straightRefs = r.straightRefs;
  const char* note = r.note;
  std::memset(&r, 0, sizeof r);
  r.path = path;
  r.straight = straight;
  r.straightFlags = straightFlags;
  r.straightRefs = straightRefs;
  r.note = note;
  r.kind = kind;
  r.includeFlags = filter.getIncludeFlags();
  r.excludeFlags = filter.getExcludeFlags();
  for (int i = 0; i < DT_MAX_AREAS; ++i) r.areaCost[i] = filter.getAreaCost(i);
  const dtNodePool* pool = query.getNodePool();
  r.maxNodes = pool ? pool->getMaxNodes() : 0;
  copy3(r.start, start);
  copy3(r.end, end);
  copy3(r.halfExtents, halfExtents);
}

/// Runs the path stages into r (r.path / straight arrays hold maxPath / maxStraight entries).
inline void runPath(CaptureRecord& r, const dtNavMeshQuery& query, const dtQueryFilter& filter, int maxPath,
                    int maxStraight, int straightOptions) {
  r.nearestStartStatus = query.findNearestPoly(r.start, r.halfExtents, &filter, &r.nearestStartRef, r.nearestStartPt);
  r.nearestEndStatus = query.findNearestPoly(r.end, r.halfExtents, &filter, &r.nearestEndRef, r.nearestEndPt);
  copy3(r.pathStart, r.nearestStartPt);
  copy3(r.pathEnd, r.nearestEndPt);
  r.maxPath = maxPath;
  r.pathStatus = query.findPath(r.nearestStartRef, r.nearestEndRef, r.pathStart, r.pathEnd, &filter, r.path,
                                &r.pathCount, maxPath);
  copy3(r.straightEnd, r.pathEnd);
  if (r.pathCount > 0 && r.path[r.pathCount - 1] != r.nearestEndRef)
    query.closestPointOnPoly(r.path[r.pathCount - 1], r.pathEnd, r.straightEnd, 0);
  r.straightOptions = straightOptions;
  r.maxStraight = maxStraight;
  r.straightStatus = query.findStraightPath(r.pathStart, r.straightEnd, r.path, r.pathCount, r.straight,
                                            r.straightFlags, r.straightRefs, &r.straightCount, maxStraight,
                                            straightOptions);
}

/// Runs the raycast stages into r (r.path holds maxPath refs).
inline void runRaycast(CaptureRecord& r, const dtNavMeshQuery& query, const dtQueryFilter& filter, int maxPath,
                       unsigned int options) {
  r.nearestStartStatus = query.findNearestPoly(r.start, r.halfExtents, &filter, &r.nearestStartRef, r.nearestStartPt);
  copy3(r.rayStart, r.start);
  copy3(r.rayEnd, r.end);
  r.rayStartRef = r.nearestStartRef;
  r.rayOptions = int(options);
  dtRaycastHit hit;
  std::memset(&hit, 0, sizeof hit);
  hit.path = r.path;
  hit.maxPath = maxPath;
  r.rayStatus = query.raycast(r.rayStartRef, r.rayStart, r.rayEnd, &filter, options, &hit, 0);
  r.maxPath = maxPath;
  r.pathCount = hit.pathCount;
  r.t = hit.t;
  copy3(r.hitNormal, hit.hitNormal);
  r.hitEdgeIndex = hit.hitEdgeIndex;
  r.pathCost = hit.pathCost;
}

/// True when every non-zero ref of the record names a valid poly of nav.
inline bool refsValid(const CaptureRecord& r, const dtNavMesh& nav) {
  if (r.nearestStartRef && !nav.isValidPolyRef(r.nearestStartRef)) return false;
  if (r.nearestEndRef && !nav.isValidPolyRef(r.nearestEndRef)) return false;
  if (r.rayStartRef && !nav.isValidPolyRef(r.rayStartRef)) return false;
  for (int i = 0; i < r.pathCount; ++i)
    if (r.path[i] && !nav.isValidPolyRef(r.path[i])) return false;
  for (int i = 0; i < r.straightCount; ++i)
    if (r.straightRefs[i] && !nav.isValidPolyRef(r.straightRefs[i])) return false;
  return true;
}

/// Little-endian field writer over a FILE; remembers the first failure.
struct Out {
  std::FILE* f;
  bool ok;
  void bytes(const void* p, size_t n) {
    if (ok && n && std::fwrite(p, 1, n, f) != n) ok = false;
  }
  void u8(unsigned char v) { bytes(&v, 1); }
  void u16(unsigned short v) { bytes(&v, 2); }
  void u32(unsigned int v) { bytes(&v, 4); }
  void i32(int v) { bytes(&v, 4); }
  void f32(float v) { bytes(&v, 4); }
  void v3(const float* v) { bytes(v, 12); }
  void ref(dtPolyRef v) { bytes(&v, sizeof v); }
};

/// Bytes of a record after its recordBytes field (docs/formats.md's record table).
inline size_t recordBytes(const CaptureRecord& r) {
  const size_t R = sizeof(dtPolyRef);
  size_t n = 4 + 4 + 4 * DT_MAX_AREAS + 4 + 36 + 2 * (4 + R + 12);
  if (r.kind == CAPTURE_PATH)
    n += 24 + 12 + R * size_t(r.pathCount) + 12 + 8 + 8 + size_t(r.straightCount) * (12 + 1 + R);
  else
    n += 24 + R + 8 + 4 + 4 + 12 + 4 + 4 + 4 + R * size_t(r.pathCount);
  return n + size_t(r.noteBytes);
}

inline void writeRecord(Out& o, const CaptureRecord& r, int flags) {
  o.u32((unsigned int)recordBytes(r));
  o.u8((unsigned char)r.kind);
  o.u8((unsigned char)flags);
  o.u16((unsigned short)r.noteBytes);
  o.u16(r.includeFlags);
  o.u16(r.excludeFlags);
  o.bytes(r.areaCost, sizeof r.areaCost);
  o.i32(r.maxNodes);
  o.v3(r.start);
  o.v3(r.end);
  o.v3(r.halfExtents);
  o.u32(r.nearestStartStatus);
  o.ref(r.nearestStartRef);
  o.v3(r.nearestStartPt);
  o.u32(r.nearestEndStatus);
  o.ref(r.nearestEndRef);
  o.v3(r.nearestEndPt);
  if (r.kind == CAPTURE_PATH) {
    o.v3(r.pathStart);
    o.v3(r.pathEnd);
    o.u32(r.pathStatus);
    o.i32(r.maxPath);
    o.i32(r.pathCount);
    for (int i = 0; i < r.pathCount; ++i) o.ref(r.path[i]);
    o.v3(r.straightEnd);
    o.i32(r.straightOptions);
    o.i32(r.maxStraight);
    o.u32(r.straightStatus);
    o.i32(r.straightCount);
    o.bytes(r.straight, sizeof(float) * 3 * size_t(r.straightCount));
    o.bytes(r.straightFlags, size_t(r.straightCount));
    for (int i = 0; i < r.straightCount; ++i) o.ref(r.straightRefs[i]);
  } else {
    o.v3(r.rayStart);
    o.v3(r.rayEnd);
    o.ref(r.rayStartRef);
    o.i32(r.rayOptions);
    o.i32(r.maxPath);
    o.u32(r.rayStatus);
    o.f32(r.t);
    o.v3(r.hitNormal);
    o.i32(r.hitEdgeIndex);
    o.f32(r.pathCost);
    o.i32(r.pathCount);
    for (int i = 0; i < r.pathCount; ++i) o.ref(r.path[i]);
  }
  o.bytes(r.note, size_t(r.noteBytes));
}

/// The whole file: header, the navmesh as a tile set, the records (record(i): the i-th record,
/// oldest first). Atomic (temporary + rename).
template <class Records>
bool writeFile(const char* file, const dtNavMesh& nav, const Records& record, int count) {
  if (!file || !*file || count <= 0 || !littleEndian()) return false;
  // The tile set part: RecastDemo's MSET header, then (tile ref, blob size, blob) per tile in slot order.
  const size_t tileHeaderBytes = sizeof(dtTileRef) + 4;
  size_t meshBytes = 40;
  int numTiles = 0;
  for (int i = 0; i < nav.getMaxTiles(); ++i) {
    const dtMeshTile* tile = nav.getTile(i);
    if (!tile || !tile->header || !tile->dataSize) continue;
    ++numTiles;
    meshBytes += tileHeaderBytes + size_t(tile->dataSize);
  }
  if (numTiles == 0 || meshBytes > 0xffffffffu) return false;
  for (int i = 0; i < count; ++i)
    if (recordBytes(*record(i)) > 0xffffffffu) return false;

  const size_t nameLen = std::strlen(file);
  char* tmp = static_cast<char*>(std::malloc(nameLen + 7));
  if (!tmp) return false;
  std::memcpy(tmp, file, nameLen);
  std::memcpy(tmp + nameLen, ".nbtmp", 7);
  Out o;
  o.f = std::fopen(tmp, "wb");
  if (o.f) std::setvbuf(o.f, 0, _IOFBF, 1 << 20); // ~10 writes for a 10 MB world instead of ~1,300
  o.ok = o.f != 0;
  if (!o.ok) {
    std::free(tmp);
    return false;
  }
  o.bytes("NBCP", 4);
  o.u32(1);
  o.u32((unsigned int)DT_NAVMESH_VERSION);
  o.u32((unsigned int)sizeof(dtPolyRef));
  o.u32((unsigned int)meshBytes);
  o.u32((unsigned int)count);

  o.i32('M' << 24 | 'S' << 16 | 'E' << 8 | 'T');
  o.i32(1);
  o.i32(numTiles);
  const dtNavMeshParams* params = nav.getParams();
  o.v3(params->orig);
  o.f32(params->tileWidth);
  o.f32(params->tileHeight);
  o.i32(params->maxTiles);
  o.i32(params->maxPolys);
  for (int i = 0; i < nav.getMaxTiles() && o.ok; ++i) {
    const dtMeshTile* tile = nav.getTile(i);
    if (!tile || !tile->header || !tile->dataSize) continue;
    const dtTileRef ref = nav.getTileRef(tile);
    o.bytes(&ref, sizeof ref);
    o.i32(tile->dataSize);
    o.bytes(tile->data, size_t(tile->dataSize));
  }
  for (int i = 0; i < count && o.ok; ++i) {
    const CaptureRecord& r = *record(i);
    writeRecord(o, r, r.flags | (refsValid(r, nav) ? 0 : CAPTURE_STALE));
  }
  if (std::fclose(o.f) != 0) o.ok = false;
  if (o.ok) {
#ifdef _WIN32
    // rename() does not replace an existing file on Windows.
    if (std::rename(tmp, file) != 0) {
      std::remove(file);
      o.ok = std::rename(tmp, file) == 0;
    }
#else
    o.ok = std::rename(tmp, file) == 0;
#endif
  }
  if (!o.ok) std::remove(tmp);
  std::free(tmp);
  return o.ok;
}

/// The record source of a one-record file.
struct One {
  const CaptureRecord& r;
  explicit One(const CaptureRecord& rec) : r(rec) {}
  const CaptureRecord* operator()(int) const { return &r; }
};

/// A capturePath / captureRaycast record with its arrays on the stack.
struct StackRecord {
  CaptureRecord r;
  dtPolyRef path[NAVBENCH_CAPTURE_MAX_PATH];
  float straight[3 * NAVBENCH_CAPTURE_MAX_STRAIGHT];
  unsigned char straightFlags[NAVBENCH_CAPTURE_MAX_STRAIGHT];
  dtPolyRef straightRefs[NAVBENCH_CAPTURE_MAX_STRAIGHT];
  StackRecord() {
    std::memset(&r, 0, sizeof r);
    r.path = path;
    r.straight = straight;
    r.straightFlags = straightFlags;
    r.straightRefs = straightRefs;
  }
};

inline void setNote(CaptureRecord& r, const char* note, int maxBytes) {
  r.note = note;
  r.noteBytes = 0;
  if (!note) return;
  size_t n = std::strlen(note);
  if (n > size_t(maxBytes)) {
    n = size_t(maxBytes);
    while (n > 0 && (static_cast<unsigned char>(note[n]) & 0xc0) == 0x80) --n; // a UTF-8 boundary
  }
  r.noteBytes = int(n);
}

} // namespace detail

/// Runs the query on the game's own query object (its node pool, its navmesh) and writes one
/// file: every tile of the attached navmesh as Detour holds it, the navmesh params, the filter
/// (include/exclude flags, all 64 area costs), the node budget, the inputs and Detour's answers.
/// Returns false (and writes nothing) when the file cannot be written.
/// Also false, writing nothing, when the query has no navmesh attached or the navmesh no tiles, or
/// on inputs NavBench could not read back: a point or the box not finite (NaN, infinite), an area
/// cost of the filter below 0 or not finite.
inline bool capturePath(const char* file, dtNavMeshQuery& query, const dtQueryFilter& filter, const float* start,
                        const float* end, const float* halfExtents, const char* note = 0) {
  const dtNavMesh* nav = query.getAttachedNavMesh();
  if (!nav || !start || !end || !halfExtents || !detail::readableInputs(filter, start, end, halfExtents)) return false;
  detail::StackRecord s;
  detail::beginRecord(s.r, CAPTURE_PATH, query, filter, start, end, halfExtents);
  detail::runPath(s.r, query, filter, NAVBENCH_CAPTURE_MAX_PATH, NAVBENCH_CAPTURE_MAX_STRAIGHT, 0);
  detail::setNote(s.r, note, 65535);
  return detail::writeFile(file, *nav, detail::One(s.r), 1);
}

/// findNearestPoly on start, then the dtRaycastHit raycast from that ref and start towards end
/// (options 0, NAVBENCH_CAPTURE_MAX_PATH visited polys), written as capturePath writes.
inline bool captureRaycast(const char* file, dtNavMeshQuery& query, const dtQueryFilter& filter, const float* start,
                           const float* end, const float* halfExtents, const char* note = 0) {
  const dtNavMesh* nav = query.getAttachedNavMesh();
  if (!nav || !start || !end || !halfExtents || !detail::readableInputs(filter, start, end, halfExtents)) return false;
  detail::StackRecord s;
  detail::beginRecord(s.r, CAPTURE_RAYCAST, query, filter, start, end, halfExtents);
  detail::runRaycast(s.r, query, filter, NAVBENCH_CAPTURE_MAX_PATH, 0);
  detail::setNote(s.r, note, 65535);
  return detail::writeFile(file, *nav, detail::One(s.r), 1);
}

/// A ring of the last N path queries and raycasts with their answers, saved on demand with the
/// navmesh as it is then. All storage is allocated by init (or the sizing constructor): N slots
/// of maxPath corridor refs, maxStraight corners and maxNote note bytes each; recording never
/// allocates. Not thread-safe: record from one thread, or lock around it.
class Recorder {
public:
  Recorder() { std::memset(&m_s, 0, sizeof m_s); }
  /// init(capacity, ...) at once; check capacity() > 0 for success.
  explicit Recorder(int capacity, int maxPath = NAVBENCH_CAPTURE_MAX_PATH,
                    int maxStraight = NAVBENCH_CAPTURE_MAX_STRAIGHT, int maxNote = 256) {
    std::memset(&m_s, 0, sizeof m_s);
    init(capacity, maxPath, maxStraight, maxNote);
  }
  ~Recorder() { release(); }

  /// Allocates the ring: capacity slots (1..65,536), each with maxPath refs (1..65,536; also the
  /// raycast's visited polys), maxStraight corners (1..65,536) and maxNote note bytes (0..65,535).
  /// False (and an empty recorder) on bad sizes or when memory runs out.
  bool init(int capacity, int maxPath = NAVBENCH_CAPTURE_MAX_PATH, int maxStraight = NAVBENCH_CAPTURE_MAX_STRAIGHT,
            int maxNote = 256) {
    release();
    if (capacity < 1 || capacity > 65536 || maxPath < 1 || maxPath > 65536 || maxStraight < 1 ||
        maxStraight > 65536 || maxNote < 0 || maxNote > 65535)
      return false;
    const size_t n = size_t(capacity);
    // (Where size_t is 32 bits the largest sizes overflow: refused rather than a short ring.)
    const size_t most = size_t(-1) / n;
    if (sizeof(CaptureRecord) > most || sizeof(dtPolyRef) * size_t(maxPath + maxStraight) > most ||
        sizeof(float) * 3 * size_t(maxStraight) > most || size_t(maxStraight + maxNote + 1) > most)
      return false;
    m_s.slots = static_cast<CaptureRecord*>(::operator new(sizeof(CaptureRecord) * n, std::nothrow));
    m_s.refs = static_cast<dtPolyRef*>(::operator new(sizeof(dtPolyRef) * n * size_t(maxPath + maxStraight), std::nothrow));
    m_s.floats = static_cast<float*>(::operator new(sizeof(float) * n * 3 * size_t(maxStraight), std::nothrow));
    m_s.bytes = static_cast<unsigned char*>(::operator new(n * size_t(maxStraight + maxNote + 1), std::nothrow));
    if (!m_s.slots || !m_s.refs || !m_s.floats || !m_s.bytes) {
      release();
      return false;
    }
    m_s.capacity = capacity;
    m_s.maxPath = maxPath;
    m_s.maxStraight = maxStraight;
    m_s.maxNote = maxNote;
    for (int i = 0; i < capacity; ++i) {
      CaptureRecord& r = m_s.slots[i];
      std::memset(&r, 0, sizeof r);
      r.path = m_s.refs + size_t(i) * size_t(maxPath + maxStraight);
      r.straightRefs = r.path + maxPath;
      r.straight = m_s.floats + size_t(i) * 3 * size_t(maxStraight);
      r.straightFlags = m_s.bytes + size_t(i) * size_t(maxStraight + maxNote + 1);
      r.note = reinterpret_cast<const char*>(r.straightFlags + maxStraight);
    }
    return true;
  }

  int capacity() const { return m_s.capacity; }
  /// Records held (at most capacity()).
  int size() const { return m_s.count; }
  /// Forgets every record (the storage stays).
  void clear() {
    m_s.count = 0;
    m_s.next = 0;
  }
  /// Record i, oldest first (0 .. size() - 1); null outside.
  const CaptureRecord* record(int i) const {
    if (i < 0 || i >= m_s.count) return 0;
    return &m_s.slots[(m_s.next - m_s.count + i + m_s.capacity) % m_s.capacity];
  }

  /// Runs the path stages (as capturePath, with the slot's maxPath / maxStraight and
  /// straightOptions) on the game's query and keeps the record: its answers are the game's
  /// to use (path, straight...). Null (nothing kept) when the recorder has no storage, the query no
  /// navmesh, or on inputs capturePath refuses (not finite, area costs below 0).
  const CaptureRecord* recordPath(dtNavMeshQuery& query, const dtQueryFilter& filter, const float* start,
                                  const float* end, const float* halfExtents, const char* note = 0,
                                  int straightOptions = 0) {
    if (!m_s.capacity || !query.getAttachedNavMesh() || !start || !end || !halfExtents ||
        !detail::readableInputs(filter, start, end, halfExtents))
      return 0;
    CaptureRecord& r = take();
    detail::beginRecord(r, CAPTURE_PATH, query, filter, start, end, halfExtents);
    detail::runPath(r, query, filter, m_s.maxPath, m_s.maxStraight, straightOptions);
    keepNote(r, note);
    return &r;
  }

  /// findNearestPoly on start, then raycast from that ref (as captureRaycast, options given).
  const CaptureRecord* recordRaycast(dtNavMeshQuery& query, const dtQueryFilter& filter, const float* start,
                                     const float* end, const float* halfExtents, const char* note = 0,
                                     unsigned int options = 0) {
    if (!m_s.capacity || !query.getAttachedNavMesh() || !start || !end || !halfExtents ||
        !detail::readableInputs(filter, start, end, halfExtents))
      return 0;
    CaptureRecord& r = take();
    detail::beginRecord(r, CAPTURE_RAYCAST, query, filter, start, end, halfExtents);
    detail::runRaycast(r, query, filter, m_s.maxPath, options);
    keepNote(r, note);
    return &r;
  }

  /// Keeps the answers of a path query the game ran itself (flagged CAPTURE_HANDED_IN; answers
  /// longer than the slot are cut and flagged CAPTURE_TRUNCATED). False (nothing kept) without
  /// storage, on a query without a node pool (not initialised), without pathStart / pathEnd, on
  /// inputs or answers that are not finite or area costs below 0 (as capturePath), with
  /// counts and arrays that do not agree, or with a capacity (maxPath, maxStraight: the sizes of
  /// the game's buffers) below its count or above 65,536, which NavBench could not replay.
  bool addPath(const dtNavMeshQuery& query, const dtQueryFilter& filter, const PathAnswers& a, const char* note = 0) {
    if (!m_s.capacity || !query.getNodePool() || !a.pathStart || !a.pathEnd || a.pathCount < 0 ||
        a.straightCount < 0 || (a.pathCount > 0 && !a.path) ||
        (a.straightCount > 0 && (!a.straight || !a.straightFlags || !a.straightRefs)) ||
        !capacityFits(a.pathCount, a.maxPath) || !capacityFits(a.straightCount, a.maxStraight) ||
        !detail::readableInputs(filter, a.pathStart, a.pathEnd, a.straightEnd) ||
        (a.hasNearest && !detail::readableInputs(filter, a.start, a.end, a.halfExtents)) ||
        (a.hasNearest && (!detail::finiteN(a.nearestStartPt, 3) || !detail::finiteN(a.nearestEndPt, 3))) ||
        !detail::finiteN(a.straight, 3 * a.straightCount))
      return false;
    const float* start = a.hasNearest && a.start ? a.start : a.pathStart;
    const float* end = a.hasNearest && a.end ? a.end : a.pathEnd;
    CaptureRecord& r = take();
    detail::beginRecord(r, CAPTURE_PATH, query, filter, start, end, a.hasNearest ? a.halfExtents : 0);
    r.flags = CAPTURE_HANDED_IN | (a.hasNearest ? 0 : CAPTURE_NO_NEAREST);
    if (a.hasNearest) {
      r.nearestStartStatus = a.startStatus;
      r.nearestEndStatus = a.endStatus;
    }
    r.nearestStartRef = a.startRef;
    r.nearestEndRef = a.endRef;
    detail::copy3(r.nearestStartPt, a.hasNearest && a.nearestStartPt ? a.nearestStartPt : a.pathStart);
    detail::copy3(r.nearestEndPt, a.hasNearest && a.nearestEndPt ? a.nearestEndPt : a.pathEnd);
    detail::copy3(r.pathStart, a.pathStart);
    detail::copy3(r.pathEnd, a.pathEnd);
    r.pathStatus = a.pathStatus;
    r.maxPath = a.maxPath;
    r.pathCount = cut(a.pathCount, m_s.maxPath, r);
    if (r.pathCount) std::memcpy(r.path, a.path, sizeof(dtPolyRef) * size_t(r.pathCount));
    detail::copy3(r.straightEnd, a.straightEnd ? a.straightEnd : a.pathEnd);
    r.straightOptions = a.straightOptions;
    r.maxStraight = a.maxStraight;
    r.straightStatus = a.straightStatus;
    r.straightCount = cut(a.straightCount, m_s.maxStraight, r);
    if (r.straightCount) {
      std::memcpy(r.straight, a.straight, sizeof(float) * 3 * size_t(r.straightCount));
      std::memcpy(r.straightFlags, a.straightFlags, size_t(r.straightCount));
      std::memcpy(r.straightRefs, a.straightRefs, sizeof(dtPolyRef) * size_t(r.straightCount));
    }
    keepNote(r, note);
    return true;
  }

  /// Keeps the answers of a raycast the game ran itself (as addPath; the capacity is hit->maxPath).
  bool addRaycast(const dtNavMeshQuery& query, const dtQueryFilter& filter, const RaycastAnswers& a,
                  const char* note = 0) {
    if (!m_s.capacity || !query.getNodePool() || !a.rayStart || !a.rayEnd || !a.hit || a.hit->pathCount < 0 ||
        (a.hit->pathCount > 0 && !a.hit->path) || !capacityFits(a.hit->pathCount, a.hit->maxPath) ||
        !detail::readableInputs(filter, a.rayStart, a.rayEnd, 0) ||
        (a.hasNearest && !detail::readableInputs(filter, a.start, a.halfExtents, a.nearestStartPt)) ||
        !detail::finite(a.hit->t) || !detail::finiteN(a.hit->hitNormal, 3) || !detail::finite(a.hit->pathCost))
      return false;
    CaptureRecord& r = take();
    detail::beginRecord(r, CAPTURE_RAYCAST, query, filter, a.hasNearest && a.start ? a.start : a.rayStart, a.rayEnd,
                        a.hasNearest ? a.halfExtents : 0);
    r.flags = CAPTURE_HANDED_IN | (a.hasNearest ? 0 : CAPTURE_NO_NEAREST);
    if (a.hasNearest) r.nearestStartStatus = a.startStatus;
    r.nearestStartRef = a.startRef;
    detail::copy3(r.nearestStartPt, a.hasNearest && a.nearestStartPt ? a.nearestStartPt : a.rayStart);
    detail::copy3(r.rayStart, a.rayStart);
    detail::copy3(r.rayEnd, a.rayEnd);
    r.rayStartRef = a.startRef;
    r.rayOptions = int(a.options);
    r.rayStatus = a.status;
    r.t = a.hit->t;
    detail::copy3(r.hitNormal, a.hit->hitNormal);
    r.hitEdgeIndex = a.hit->hitEdgeIndex;
    r.pathCost = a.hit->pathCost;
    r.maxPath = a.hit->maxPath;
    r.pathCount = cut(a.hit->pathCount, m_s.maxPath, r);
    if (r.pathCount) std::memcpy(r.path, a.hit->path, sizeof(dtPolyRef) * size_t(r.pathCount));
    keepNote(r, note);
    return true;
  }

  /// Writes nav as it is now and the records, oldest first; a record any of whose refs no longer
  /// names a valid poly of nav (its tile was rebuilt or removed) is flagged CAPTURE_STALE.
  /// False (nothing written) when the recorder holds no record or the file cannot be written.
  bool save(const char* file, const dtNavMesh& nav) const {
    if (m_s.count == 0) return false;
    return detail::writeFile(file, nav, InOrder(*this), m_s.count);
  }

private:
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  struct InOrder {
    const Recorder& rec;
    explicit InOrder(const Recorder& recorder) : rec(recorder) {}
    const CaptureRecord* operator()(int i) const { return rec.record(i); }
  };

  CaptureRecord& take() {
    CaptureRecord& r = m_s.slots[m_s.next];
    m_s.next = (m_s.next + 1) % m_s.capacity;
    if (m_s.count < m_s.capacity) ++m_s.count;
    return r;
  }
  /// A buffer of `capacity` entries that held `count` of them, as NavBench reads it (at most 65,536).
  static bool capacityFits(int count, int capacity) { return count <= capacity && capacity <= 65536; }
  static int cut(int n, int cap, CaptureRecord& r) {
    if (n <= cap) return n;
    r.flags |= CAPTURE_TRUNCATED;
    return cap;
  }
  /// Copies the note into the slot (beginRecord kept the slot's note pointer).
  void keepNote(CaptureRecord& r, const char* note) {
    char* dst = const_cast<char*>(r.note);
    detail::setNote(r, note, m_s.maxNote);
    if (note && r.noteBytes) std::memcpy(dst, note, size_t(r.noteBytes));
    r.note = dst;
  }
  void release() {
    ::operator delete(m_s.slots, std::nothrow);
    ::operator delete(m_s.refs, std::nothrow);
    ::operator delete(m_s.floats, std::nothrow);
    ::operator delete(m_s.bytes, std::nothrow);
    std::memset(&m_s, 0, sizeof m_s);
  }

  struct Storage {
    CaptureRecord* slots;
    dtPolyRef* refs;
    float* floats;
    unsigned char* bytes;
    int capacity, count, next, maxPath, maxStraight, maxNote;
  } m_s;
};

} // namespace navbench

#endif // NAVBENCH_CAPTURE_H

/*
zlib License

Copyright (c) 2026 NavBench contributors

This software is provided 'as-is', without any express or implied warranty. In no event will the
authors be held liable for any damages arising from the use of this software.

Permission is granted to anyone to use this software for any purpose, including commercial
applications, and to alter it and redistribute it freely, subject to the following restrictions:

1. The origin of this software must not be misrepresented; you must not claim that you wrote the
   original software. If you use this software in a product, an acknowledgment in the product
   documentation would be appreciated but is not required.
2. Altered source versions must be plainly marked as such, and must not be misrepresented as being
   the original software.
3. This notice may not be removed or altered from any source distribution.
*/
