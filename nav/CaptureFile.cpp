// CaptureFile.cpp: path captures (.nbcap, docs/formats.md "Path capture"), read and written.
// Little-endian on disk, read with memcpy as TileSetFile.cpp does (the hosts NavBench builds on are
// little-endian).
#include "nav/CaptureFile.h"

#include "nav/FileMessages.h"
#include "nav/TileSetFile.h"
#include "nav/base/AtomicFile.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

namespace nav {

using filemsg::fail;
using filemsg::fmt;

namespace {

constexpr size_t kHeaderBytes = 24;
/// kind .. nearest end: every record has these.
constexpr size_t kCommonBytes = 4 + 4 + 4 * MAX_AREAS + 4 + 36 + 2 * 20;
/// Path: pathStart/End, status, maxPath, pathCount | straightEnd, options, maxStraight, status, count.
constexpr size_t kPathFixedBytes = 24 + 12 + 12 + 8 + 8;
/// Raycast: rayStart/End, startRef, options, maxPath, status, t, normal, edge, cost, pathCount.
constexpr size_t kRayFixedBytes = 24 + 12 + 32;
constexpr uint8_t kKnownFlags = CAPTURE_STALE | CAPTURE_HANDED_IN | CAPTURE_TRUNCATED | CAPTURE_NO_NEAREST;

/// Reads fixed-size fields from [pos, end); the caller checks the sizes first.
struct Reader {
  const uint8_t* p;
  template <class T> T get() {
    T v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
  void floats(float* out, int n) {
    if (n > 0) std::memcpy(out, p, sizeof(float) * size_t(n)); // out is an empty vector's null data() when n is 0
    p += sizeof(float) * size_t(n);
  }
};

struct Writer {
  std::vector<uint8_t>& out;
  template <class T> void put(T v) {
    const uint8_t* b = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), b, b + sizeof v);
  }
  void floats(const float* v, int n) {
    const uint8_t* b = reinterpret_cast<const uint8_t*>(v);
    out.insert(out.end(), b, b + sizeof(float) * size_t(n));
  }
  void bytes(const void* v, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(v);
    out.insert(out.end(), b, b + n);
  }
};

bool allFinite(const float* v, int n) {
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

/// The record's size from its counts (kind must be known).
size_t recordSize(CaptureKind kind, int pathCount, int straightCount, size_t noteBytes) {
  size_t n = kCommonBytes + noteBytes;
  if (kind == CAPTURE_PATH) n += kPathFixedBytes + 4 * size_t(pathCount) + 17 * size_t(straightCount);
  else n += kRayFixedBytes + 4 * size_t(pathCount);
  return n;
}

/// A count read from the file: 0..CAPTURE_MAX_COUNT.
bool countOk(int32_t n) { return n >= 0 && n <= CAPTURE_MAX_COUNT; }

/// Parses one record (its recordBytes already checked to lie within the file). "" or the problem.
std::string readRecord(const uint8_t* rec, size_t recBytes, CapturedQuery& q) {
  if (recBytes < kCommonBytes) return fmt("recordBytes %lld, too short for the %lld bytes every record starts with",
                                          (long long)recBytes, (long long)kCommonBytes);
  Reader r{rec};
  const uint8_t kind = r.get<uint8_t>();
  if (kind != CAPTURE_PATH && kind != CAPTURE_RAYCAST) return fmt("unknown kind %lld (0 path, 1 raycast)", kind);
  q.kind = CaptureKind(kind);
  q.flags = r.get<uint8_t>();
  if (q.flags & ~kKnownFlags) return fmt("unknown flag bits 0x%02llx", q.flags & ~kKnownFlags);
  const uint16_t noteBytes = r.get<uint16_t>();
  q.includeFlags = r.get<uint16_t>();
  q.excludeFlags = r.get<uint16_t>();
  r.floats(q.areaCost, MAX_AREAS);
  if (!allFinite(q.areaCost, MAX_AREAS)) return "an area cost is not finite";
  // A negative cost lets a search lower a node's cost around a loop for ever (Detour's would hang
  // the same way): no game can have recorded an answer with one.
  for (int a = 0; a < MAX_AREAS; ++a)
    if (q.areaCost[a] < 0) return fmt("area %lld costs below 0", a);
  q.maxNodes = r.get<int32_t>();
  if (q.maxNodes < 1 || q.maxNodes > 65535) return fmt("maxNodes %lld not in 1..65535", q.maxNodes);
  r.floats(q.start, 3);
  r.floats(q.end, 3);
  r.floats(q.halfExtents, 3);
  if (!allFinite(q.start, 3) || !allFinite(q.end, 3) || !allFinite(q.halfExtents, 3))
    return "start, end or halfExtents is not finite";
  for (CapturedNearest* n : {&q.nearestStart, &q.nearestEnd}) {
    n->status = r.get<uint32_t>();
    n->ref = r.get<uint32_t>();
    r.floats(n->pt, 3);
    if (!allFinite(n->pt, 3)) return n == &q.nearestStart ? "nearest start point is not finite" : "nearest end point is not finite";
  }
  const size_t fixed = kCommonBytes + (q.kind == CAPTURE_PATH ? kPathFixedBytes : kRayFixedBytes);
  if (recBytes < fixed)
    return fmt(q.kind == CAPTURE_PATH ? "recordBytes %lld, too short for a path record's %lld fixed bytes"
                                      : "recordBytes %lld, too short for a raycast record's %lld fixed bytes",
               (long long)recBytes, (long long)fixed);
  // Counts sit between variable-length parts: peek at them from the fixed offsets first, so the
  // record's whole size is known (and checked against recordBytes) before anything is allocated.
  int32_t pathCount = 0, straightCount = 0;
  const uint8_t* body = r.p;
  if (q.kind == CAPTURE_PATH) {
    std::memcpy(&pathCount, body + 32, 4);
    if (!countOk(pathCount)) return fmt("path count %lld not in 0..%lld", pathCount, CAPTURE_MAX_COUNT);
    const size_t straightAt = 36 + 4 * size_t(pathCount) + 24;
    if (straightAt + 4 > recBytes - kCommonBytes)
      return fmt("recordBytes %lld cannot hold a %lld-ref path", (long long)recBytes, pathCount);
    std::memcpy(&straightCount, body + straightAt, 4);
    if (!countOk(straightCount)) return fmt("straight path count %lld not in 0..%lld", straightCount, CAPTURE_MAX_COUNT);
  } else {
    std::memcpy(&pathCount, body + 64, 4);
    if (!countOk(pathCount)) return fmt("visited count %lld not in 0..%lld", pathCount, CAPTURE_MAX_COUNT);
  }
  const size_t withoutNote = recordSize(q.kind, pathCount, straightCount, 0);
  if (withoutNote > recBytes)
    return fmt("recordBytes %lld disagrees with the record's counts (they need %lld bytes before the note)",
               (long long)recBytes, (long long)withoutNote);
  if (withoutNote + noteBytes > recBytes)
    return fmt("the %lld-byte note runs past the record (%lld bytes left)", noteBytes, (long long)(recBytes - withoutNote));
  if (withoutNote + noteBytes != recBytes)
    return fmt("recordBytes %lld disagrees with the record's counts (they need %lld bytes)", (long long)recBytes,
               (long long)(withoutNote + noteBytes));

  if (q.kind == CAPTURE_PATH) {
    r.floats(q.pathStart, 3);
    r.floats(q.pathEnd, 3);
    if (!allFinite(q.pathStart, 3) || !allFinite(q.pathEnd, 3)) return "pathStart or pathEnd is not finite";
    q.pathStatus = r.get<uint32_t>();
    q.maxPath = r.get<int32_t>();
    if (!countOk(q.maxPath)) return fmt("maxPath %lld not in 0..%lld", q.maxPath, CAPTURE_MAX_COUNT);
    r.get<int32_t>(); // pathCount, read above
    if (pathCount > q.maxPath) return fmt("path count %lld above maxPath %lld", pathCount, q.maxPath);
    q.path.resize(size_t(pathCount));
    if (pathCount) std::memcpy(q.path.data(), r.p, 4 * size_t(pathCount));
    r.p += 4 * size_t(pathCount);
    r.floats(q.straightEnd, 3);
    if (!allFinite(q.straightEnd, 3)) return "straightEnd is not finite";
    q.straightOptions = r.get<int32_t>();
    q.maxStraight = r.get<int32_t>();
    if (!countOk(q.maxStraight)) return fmt("maxStraight %lld not in 0..%lld", q.maxStraight, CAPTURE_MAX_COUNT);
    q.straightStatus = r.get<uint32_t>();
    r.get<int32_t>(); // straightCount, read above
    if (straightCount > q.maxStraight)
      return fmt("straight path count %lld above maxStraight %lld", straightCount, q.maxStraight);
    q.straight.resize(3 * size_t(straightCount));
    r.floats(q.straight.data(), 3 * straightCount);
    if (!allFinite(q.straight.data(), 3 * straightCount)) return "a straight path point is not finite";
    q.straightFlags.assign(r.p, r.p + straightCount);
    r.p += straightCount;
    q.straightRefs.resize(size_t(straightCount));
    if (straightCount) std::memcpy(q.straightRefs.data(), r.p, 4 * size_t(straightCount));
    r.p += 4 * size_t(straightCount);
  } else {
    r.floats(q.rayStart, 3);
    r.floats(q.rayEnd, 3);
    if (!allFinite(q.rayStart, 3) || !allFinite(q.rayEnd, 3)) return "rayStart or rayEnd is not finite";
    q.rayStartRef = r.get<uint32_t>();
    q.rayOptions = r.get<int32_t>();
    q.maxPath = r.get<int32_t>();
    if (!countOk(q.maxPath)) return fmt("maxPath %lld not in 0..%lld", q.maxPath, CAPTURE_MAX_COUNT);
    q.rayStatus = r.get<uint32_t>();
    q.t = r.get<float>();
    r.floats(q.hitNormal, 3);
    q.hitEdgeIndex = r.get<int32_t>();
    q.pathCost = r.get<float>();
    if (!std::isfinite(q.t) || !allFinite(q.hitNormal, 3) || !std::isfinite(q.pathCost))
      return "t, hitNormal or pathCost is not finite";
    r.get<int32_t>(); // pathCount, read above
    if (pathCount > q.maxPath) return fmt("visited count %lld above maxPath %lld", pathCount, q.maxPath);
    q.path.resize(size_t(pathCount));
    if (pathCount) std::memcpy(q.path.data(), r.p, 4 * size_t(pathCount));
    r.p += 4 * size_t(pathCount);
  }
  q.note.assign(reinterpret_cast<const char*>(r.p), noteBytes);
  return "";
}

int meshTileCount(const NavMesh& mesh) {
  int n = 0;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const MeshTile* t = mesh.getTile(i);
    if (t && t->header) ++n;
  }
  return n;
}

/// Why `q` cannot be written so that loadCapture reads it back ("" when it can).
std::string checkWritable(const CapturedQuery& q) {
  if (q.kind != CAPTURE_PATH && q.kind != CAPTURE_RAYCAST) return fmt("unknown kind %lld", q.kind);
  if (q.flags & ~kKnownFlags) return fmt("unknown flag bits 0x%02llx", q.flags & ~kKnownFlags);
  if (q.note.size() > 0xffff) return fmt("a %lld-byte note (at most 65535)", (long long)q.note.size());
  if (q.maxNodes < 1 || q.maxNodes > 65535) return fmt("maxNodes %lld not in 1..65535", q.maxNodes);
  for (int a = 0; a < MAX_AREAS; ++a)
    if (!(q.areaCost[a] >= 0) || !std::isfinite(q.areaCost[a])) return fmt("area %lld costs below 0 or not finite", a);
  if (!countOk(q.maxPath) || q.path.size() > size_t(q.maxPath))
    return fmt("%lld refs for maxPath %lld", (long long)q.path.size(), q.maxPath);
  if (q.kind == CAPTURE_PATH) {
    const size_t n = q.straightFlags.size();
    if (q.straight.size() != 3 * n || q.straightRefs.size() != n)
      return fmt("straight path of %lld floats, %lld flags and %lld refs", (long long)q.straight.size(), (long long)n,
                 (long long)q.straightRefs.size());
    if (!countOk(q.maxStraight) || n > size_t(q.maxStraight))
      return fmt("%lld corners for maxStraight %lld", (long long)n, q.maxStraight);
  }
  return "";
}

} // namespace

Status loadCapture(const uint8_t* buf, size_t size, NavMesh& mesh, Capture& out, std::string* why, const char* name) {
  const std::string src = name ? name : "<memory>";
  if (!buf && size) return fail(why, FAILURE | INVALID_PARAM, src + ": no buffer");
  if (size < kHeaderBytes)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": %lld bytes, too short for the %lld-byte capture header", (long long)size, (long long)kHeaderBytes));
  Reader r{buf};
  const uint32_t magic = r.get<uint32_t>(), version = r.get<uint32_t>(), navVersion = r.get<uint32_t>(),
                 refBytes = r.get<uint32_t>(), meshBytes = r.get<uint32_t>(), queryCount = r.get<uint32_t>();
  if (magic != CAPTURE_MAGIC)
    return fail(why, FAILURE | WRONG_MAGIC,
                src + fmt(": wrong magic 0x%08llx, expected 0x%08llx ('NBCP'): not a path capture", magic, CAPTURE_MAGIC));
  if (version != CAPTURE_VERSION)
    return fail(why, FAILURE | WRONG_VERSION,
                src + fmt(": capture version %lld; this NavBench reads version %lld", version, CAPTURE_VERSION));
  if (navVersion != CAPTURE_NAVMESH_VERSION)
    return fail(why, FAILURE | WRONG_VERSION,
                src + fmt(": made by a Detour with navmesh version %lld (DT_NAVMESH_VERSION); NavBench reads %lld "
                          "(recastnavigation 1.5.1)",
                          navVersion, CAPTURE_NAVMESH_VERSION));
  if (refBytes == 8)
    return fail(why, FAILURE | WRONG_VERSION,
                src + ": made by a Detour built with DT_POLYREF64 (64-bit poly refs), which NavBench does not read: "
                      "capture with 32-bit dtPolyRef");
  if (refBytes != 4)
    return fail(why, FAILURE | INVALID_PARAM, src + fmt(": refBytes %lld (poly refs are 4 bytes)", refBytes));
  if (meshBytes > size - kHeaderBytes)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": the navmesh part (%lld bytes) runs past the end of the file (%lld bytes)", meshBytes,
                          (long long)size));
  if (queryCount == 0)
    return fail(why, FAILURE | INVALID_PARAM, src + ": no queries (an empty recorder was saved)");
  const size_t left = size - kHeaderBytes - meshBytes;
  if (queryCount > uint32_t(CAPTURE_MAX_COUNT) || uint64_t(queryCount) * (4 + kCommonBytes) > left)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": %lld queries cannot fit in the %lld bytes after the navmesh (at most %lld queries)",
                          queryCount, (long long)left, CAPTURE_MAX_COUNT));

  NavMesh fresh;
  std::string err;
  Status s = loadTileSet(buf + kHeaderBytes, meshBytes, fresh, &err, src.c_str());
  if (statusFailed(s)) return fail(why, s, err); // it names src already
  if (meshTileCount(fresh) == 0) return fail(why, FAILURE | INVALID_PARAM, src + ": the navmesh has no tiles");

  Capture cap;
  cap.navmeshVersion = navVersion;
  cap.queries.resize(queryCount);
  size_t pos = kHeaderBytes + meshBytes;
  for (uint32_t i = 0; i < queryCount; ++i) {
    const std::string at = src + fmt(": query %lld: ", i);
    if (size - pos < 4) return fail(why, FAILURE | INVALID_PARAM, at + "the file ends before its recordBytes");
    uint32_t recBytes;
    std::memcpy(&recBytes, buf + pos, 4);
    pos += 4;
    if (recBytes > size - pos)
      return fail(why, FAILURE | INVALID_PARAM,
                  at + fmt("recordBytes %lld runs past the end of the file (%lld bytes left)", recBytes,
                           (long long)(size - pos)));
    const std::string problem = readRecord(buf + pos, recBytes, cap.queries[i]);
    if (!problem.empty()) return fail(why, FAILURE | INVALID_PARAM, at + problem);
    // findNearestPoly visits every tile cell the search box covers, occupied or not (as Detour does):
    // a box of millions of cells would make a replay run for minutes.
    const CapturedQuery& q = cap.queries[i];
    const NavMeshParams& mp = fresh.getParams();
    const double cells = (std::floor(2.0 * double(q.halfExtents[0]) / double(mp.tileWidth)) + 2.0) *
                         (std::floor(2.0 * double(q.halfExtents[2]) / double(mp.tileHeight)) + 2.0);
    if (!(cells <= double(CAPTURE_MAX_SEARCH_CELLS))) {
      char msg[160];
      std::snprintf(msg, sizeof msg, "half extents (%g, %g) cover %.0f tile cells of this navmesh (at most %d)",
                    double(q.halfExtents[0]), double(q.halfExtents[2]), cells, CAPTURE_MAX_SEARCH_CELLS);
      return fail(why, FAILURE | INVALID_PARAM, at + msg);
    }
    pos += recBytes;
  }
  if (pos != size)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": %lld unexpected bytes after the last query", (long long)(size - pos)));
  mesh.swap(fresh);
  out = std::move(cap);
  return SUCCESS;
}

Status loadCaptureFile(const std::string& path, NavMesh& mesh, Capture& out, std::string* why) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return fail(why, FAILURE | INVALID_PARAM, path + ": cannot open: " + std::strerror(errno));
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  for (size_t k; (k = std::fread(chunk, 1, sizeof chunk, f)) > 0;) bytes.insert(bytes.end(), chunk, chunk + k);
  const bool err = std::ferror(f) != 0;
  std::fclose(f);
  if (err) return fail(why, FAILURE | INVALID_PARAM, path + ": read error (a folder?)");
  return loadCapture(bytes.data(), bytes.size(), mesh, out, why, path.c_str());
}

Status saveCapture(const NavMesh& mesh, const Capture& cap, std::vector<uint8_t>& out, std::string* why) {
  out.clear();
  if (cap.queries.empty()) return fail(why, FAILURE | INVALID_PARAM, "save: no queries (a capture holds at least one)");
  if (cap.queries.size() > size_t(CAPTURE_MAX_COUNT))
    return fail(why, FAILURE | INVALID_PARAM,
                fmt("save: %lld queries (at most %lld)", (long long)cap.queries.size(), CAPTURE_MAX_COUNT));
  if (meshTileCount(mesh) == 0) return fail(why, FAILURE | INVALID_PARAM, "save: the navmesh has no tiles");
  for (size_t i = 0; i < cap.queries.size(); ++i) {
    const std::string problem = checkWritable(cap.queries[i]);
    if (!problem.empty()) return fail(why, FAILURE | INVALID_PARAM, fmt("save: query %lld: ", (long long)i) + problem);
  }
  std::vector<uint8_t> meshBytes;
  const Status s = saveTileSet(mesh, meshBytes, why);
  if (statusFailed(s)) return s;
  Writer w{out};
  w.put<uint32_t>(CAPTURE_MAGIC);
  w.put<uint32_t>(CAPTURE_VERSION);
  w.put<uint32_t>(cap.navmeshVersion);
  w.put<uint32_t>(4);
  w.put<uint32_t>(uint32_t(meshBytes.size()));
  w.put<uint32_t>(uint32_t(cap.queries.size()));
  w.bytes(meshBytes.data(), meshBytes.size());
  for (const CapturedQuery& q : cap.queries) {
    const int straightCount = q.kind == CAPTURE_PATH ? int(q.straightFlags.size()) : 0;
    w.put<uint32_t>(uint32_t(recordSize(q.kind, int(q.path.size()), straightCount, q.note.size())));
    w.put<uint8_t>(q.kind);
    w.put<uint8_t>(q.flags);
    w.put<uint16_t>(uint16_t(q.note.size()));
    w.put<uint16_t>(q.includeFlags);
    w.put<uint16_t>(q.excludeFlags);
    w.floats(q.areaCost, MAX_AREAS);
    w.put<int32_t>(q.maxNodes);
    w.floats(q.start, 3);
    w.floats(q.end, 3);
    w.floats(q.halfExtents, 3);
    for (const CapturedNearest* n : {&q.nearestStart, &q.nearestEnd}) {
      w.put<uint32_t>(n->status);
      w.put<uint32_t>(n->ref);
      w.floats(n->pt, 3);
    }
    if (q.kind == CAPTURE_PATH) {
      w.floats(q.pathStart, 3);
      w.floats(q.pathEnd, 3);
      w.put<uint32_t>(q.pathStatus);
      w.put<int32_t>(q.maxPath);
      w.put<int32_t>(int32_t(q.path.size()));
      w.bytes(q.path.data(), 4 * q.path.size());
      w.floats(q.straightEnd, 3);
      w.put<int32_t>(q.straightOptions);
      w.put<int32_t>(q.maxStraight);
      w.put<uint32_t>(q.straightStatus);
      w.put<int32_t>(straightCount);
      w.floats(q.straight.data(), 3 * straightCount);
      w.bytes(q.straightFlags.data(), size_t(straightCount));
      w.bytes(q.straightRefs.data(), 4 * size_t(straightCount));
    } else {
      w.floats(q.rayStart, 3);
      w.floats(q.rayEnd, 3);
      w.put<uint32_t>(q.rayStartRef);
      w.put<int32_t>(q.rayOptions);
      w.put<int32_t>(q.maxPath);
      w.put<uint32_t>(q.rayStatus);
      w.put<float>(q.t);
      w.floats(q.hitNormal, 3);
      w.put<int32_t>(q.hitEdgeIndex);
      w.put<float>(q.pathCost);
      w.put<int32_t>(int32_t(q.path.size()));
      w.bytes(q.path.data(), 4 * q.path.size());
    }
    w.bytes(q.note.data(), q.note.size());
  }
  return SUCCESS;
}

Status saveCaptureFile(const NavMesh& mesh, const Capture& cap, const std::string& path, std::string* why) {
  std::vector<uint8_t> buf;
  const Status s = saveCapture(mesh, cap, buf, why);
  if (statusFailed(s)) {
    if (why && why->compare(0, 6, "save: ") == 0) *why = path + ": " + why->substr(6);
    return s;
  }
  std::string err;
  if (!base::writeFileAtomic(path, buf.data(), buf.size(), err)) return fail(why, FAILURE | INVALID_PARAM, err);
  return SUCCESS;
}

} // namespace nav
