// CaptureFileTest.cpp: nav/CaptureFile.h on captures made with NavBench's NavMeshQuery on the
// default level (tests/support/CaptureMaker.h): a round trip gives back every field and the same
// bytes; every refusal of docs/formats.md's list names the file (and the query) and leaves the
// outputs untouched; a capture cut at any byte is refused cleanly.
#include "tests/support/CaptureMaker.h"

#include "nav/CaptureFile.h"
#include "nav/TileSetFile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

using namespace nav;

namespace {

/// Every field equal, floats bit for bit.
void expectSameQuery(const CapturedQuery& a, const CapturedQuery& b, size_t i) {
  SCOPED_TRACE("query " + std::to_string(i));
  auto bits = [](const float* x, const float* y, size_t n) { return std::memcmp(x, y, n * sizeof(float)) == 0; };
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.flags, b.flags);
  EXPECT_EQ(a.note, b.note);
  EXPECT_EQ(a.includeFlags, b.includeFlags);
  EXPECT_EQ(a.excludeFlags, b.excludeFlags);
  EXPECT_TRUE(bits(a.areaCost, b.areaCost, MAX_AREAS));
  EXPECT_EQ(a.maxNodes, b.maxNodes);
  EXPECT_TRUE(bits(a.start, b.start, 3) && bits(a.end, b.end, 3) && bits(a.halfExtents, b.halfExtents, 3));
  for (auto [x, y] : {std::make_pair(&a.nearestStart, &b.nearestStart), std::make_pair(&a.nearestEnd, &b.nearestEnd)}) {
    EXPECT_EQ(x->status, y->status);
    EXPECT_EQ(x->ref, y->ref);
    EXPECT_TRUE(bits(x->pt, y->pt, 3));
  }
  EXPECT_EQ(a.maxPath, b.maxPath);
  EXPECT_EQ(a.path, b.path);
  if (a.kind == CAPTURE_PATH) {
    EXPECT_TRUE(bits(a.pathStart, b.pathStart, 3) && bits(a.pathEnd, b.pathEnd, 3) && bits(a.straightEnd, b.straightEnd, 3));
    EXPECT_EQ(a.pathStatus, b.pathStatus);
    EXPECT_EQ(a.straightOptions, b.straightOptions);
    EXPECT_EQ(a.maxStraight, b.maxStraight);
    EXPECT_EQ(a.straightStatus, b.straightStatus);
    ASSERT_EQ(a.straight.size(), b.straight.size());
    EXPECT_TRUE(bits(a.straight.data(), b.straight.data(), a.straight.size()));
    EXPECT_EQ(a.straightFlags, b.straightFlags);
    EXPECT_EQ(a.straightRefs, b.straightRefs);
  } else {
    EXPECT_TRUE(bits(a.rayStart, b.rayStart, 3) && bits(a.rayEnd, b.rayEnd, 3));
    EXPECT_EQ(a.rayStartRef, b.rayStartRef);
    EXPECT_EQ(a.rayOptions, b.rayOptions);
    EXPECT_EQ(a.rayStatus, b.rayStatus);
    EXPECT_TRUE(bits(&a.t, &b.t, 1) && bits(a.hitNormal, b.hitNormal, 3) && bits(&a.pathCost, &b.pathCost, 1));
    EXPECT_EQ(a.hitEdgeIndex, b.hitEdgeIndex);
  }
}

std::vector<uint8_t> meshBytes(const NavMesh& m) {
  std::vector<uint8_t> b;
  EXPECT_TRUE(statusSucceeded(saveTileSet(m, b)));
  return b;
}

/// The default level cut down to two tiles (CaptureMaker.h).
void smallMesh(NavMesh& mesh) {
  std::string why;
  ASSERT_TRUE(capturetest::smallMesh(mesh, &why)) << why;
}
Capture smallCapture(const NavMesh& mesh) { return capturetest::smallCapture(mesh); }

std::vector<uint8_t> saved(const NavMesh& mesh, const Capture& cap) {
  std::vector<uint8_t> out;
  std::string why;
  EXPECT_TRUE(statusSucceeded(saveCapture(mesh, cap, out, &why))) << why;
  return out;
}

template <class T> void put(std::vector<uint8_t>& b, size_t at, T v) { std::memcpy(b.data() + at, &v, sizeof v); }
template <class T> T get(const std::vector<uint8_t>& b, size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}

/// Loading `bytes` fails; the message starts with "edited.nbcap: " and holds `problem`; the
/// outputs keep what they held.
void expectRefused(const std::vector<uint8_t>& bytes, const std::string& problem) {
  NavMesh mesh;
  std::string why;
  ASSERT_TRUE(capturetest::loadDefaultMesh(mesh, &why)) << why;
  const std::vector<uint8_t> before = meshBytes(mesh);
  Capture out;
  out.queries.resize(1);
  out.queries[0].note = "kept";
  why.clear();
  EXPECT_TRUE(statusFailed(loadCapture(bytes.data(), bytes.size(), mesh, out, &why, "edited.nbcap"))) << problem;
  EXPECT_EQ(why.rfind("edited.nbcap: ", 0), 0u) << why;
  EXPECT_NE(why.find(problem), std::string::npos) << "got: " << why << "\nwanted: " << problem;
  ASSERT_EQ(out.queries.size(), 1u);
  EXPECT_EQ(out.queries[0].note, "kept");
  EXPECT_TRUE(meshBytes(mesh) == before) << "a refused capture changed the mesh";
}

struct Layout {
  size_t meshBytes, rec0; ///< rec0: query 0's recordBytes field.
};
Layout layoutOf(const std::vector<uint8_t>& b) { return {get<uint32_t>(b, 16), 24 + size_t(get<uint32_t>(b, 16))}; }

} // namespace

TEST(CaptureFile, RoundTripGivesBackEveryFieldAndTheSameBytes) {
  NavMesh mesh;
  std::string why;
  ASSERT_TRUE(capturetest::loadDefaultMesh(mesh, &why)) << why;
  Capture cap = capturetest::variedCapture(mesh, 60, 11);
  // The generator must reach the answers the format carries: partial, out of nodes, cut corridors,
  // raycasts, notes.
  int outOfNodes = 0, tooSmall = 0, partial = 0, rays = 0, notes = 0, straightCorners = 0;
  for (const CapturedQuery& q : cap.queries) {
    outOfNodes += (q.pathStatus & OUT_OF_NODES) != 0;
    tooSmall += ((q.pathStatus | q.straightStatus | q.rayStatus) & BUFFER_TOO_SMALL) != 0;
    partial += (q.pathStatus & PARTIAL_RESULT) != 0;
    rays += q.kind == CAPTURE_RAYCAST;
    notes += !q.note.empty();
    straightCorners += int(q.straightFlags.size());
  }
  EXPECT_GT(outOfNodes, 0);
  EXPECT_GT(tooSmall, 0);
  EXPECT_GT(partial, 0);
  EXPECT_GT(rays, 0);
  EXPECT_GT(notes, 0);
  EXPECT_GT(straightCorners, 0);
  cap.queries[1].flags = CAPTURE_HANDED_IN | CAPTURE_NO_NEAREST;
  cap.queries[2].flags = CAPTURE_STALE | CAPTURE_TRUNCATED;
  cap.queries[3].note = std::string("\xc3\xa9tage 2\n\0tab\t", 13); // any bytes, NUL included

  const std::vector<uint8_t> bytes = saved(mesh, cap);
  NavMesh back;
  Capture got;
  ASSERT_TRUE(statusSucceeded(loadCapture(bytes.data(), bytes.size(), back, got, &why, "rt.nbcap"))) << why;
  EXPECT_EQ(got.navmeshVersion, CAPTURE_NAVMESH_VERSION);
  ASSERT_EQ(got.queries.size(), cap.queries.size());
  for (size_t i = 0; i < cap.queries.size(); ++i) expectSameQuery(cap.queries[i], got.queries[i], i);
  EXPECT_TRUE(meshBytes(back) == meshBytes(mesh));
  EXPECT_TRUE(saved(back, got) == bytes) << "saving what was loaded must give the same bytes";

  // The file forms: atomic write, read back.
  const std::string path = "/tmp/capture_rt_" + std::to_string(::getpid()) + ".nbcap";
  ASSERT_TRUE(statusSucceeded(saveCaptureFile(mesh, cap, path, &why))) << why;
  Capture fromFile;
  NavMesh fileMesh;
  ASSERT_TRUE(statusSucceeded(loadCaptureFile(path, fileMesh, fromFile, &why))) << why;
  EXPECT_TRUE(saved(fileMesh, fromFile) == bytes);
  std::remove(path.c_str());
}

TEST(CaptureFile, HeaderAndLayoutAreTheDocumentedOnes) {
  NavMesh mesh;
  smallMesh(mesh);
  const Capture cap = smallCapture(mesh);
  const std::vector<uint8_t> b = saved(mesh, cap);
  EXPECT_EQ(std::memcmp(b.data(), "NBCP", 4), 0);
  EXPECT_EQ(get<uint32_t>(b, 4), 1u);
  EXPECT_EQ(get<uint32_t>(b, 8), 7u);
  EXPECT_EQ(get<uint32_t>(b, 12), 4u);
  EXPECT_EQ(get<uint32_t>(b, 20), uint32_t(cap.queries.size()));
  const Layout l = layoutOf(b);
  EXPECT_TRUE(std::vector<uint8_t>(b.begin() + 24, b.begin() + 24 + long(l.meshBytes)) == meshBytes(mesh));
  // Query 0 (a path): u32 recordBytes, kind, flags, noteBytes, filter, maxNodes, points, nearest x2,
  // then the path part and the note at the very end.
  const CapturedQuery& q = cap.queries[0];
  const size_t r = l.rec0 + 4;
  EXPECT_EQ(b[r], 0);
  EXPECT_EQ(get<uint16_t>(b, r + 2), q.note.size());
  EXPECT_EQ(get<int32_t>(b, r + 264), q.maxNodes);
  EXPECT_EQ(get<uint32_t>(b, r + 308), q.nearestStart.ref);
  EXPECT_EQ(get<int32_t>(b, r + 344 + 32), int32_t(q.path.size()));
  const size_t recBytes = get<uint32_t>(b, l.rec0);
  EXPECT_EQ(recBytes, 344 + 24 + 12 + 4 * q.path.size() + 12 + 8 + 8 + 17 * q.straightFlags.size() + q.note.size());
  EXPECT_EQ(std::string(b.begin() + long(r + recBytes - q.note.size()), b.begin() + long(r + recBytes)), q.note);
}

TEST(CaptureFile, RefusesEveryDocumentedProblemNamingTheFileAndTheQuery) {
  NavMesh mesh;
  smallMesh(mesh);
  const Capture cap = smallCapture(mesh);
  ASSERT_EQ(cap.queries[0].kind, CAPTURE_PATH);
  ASSERT_FALSE(cap.queries[0].path.empty());
  const std::vector<uint8_t> good = saved(mesh, cap);
  const Layout l = layoutOf(good);
  const size_t r = l.rec0 + 4; // query 0's record
  const size_t pathPart = r + 344;
  auto edited = [&](auto fn) {
    std::vector<uint8_t> b = good;
    fn(b);
    return b;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();

  expectRefused(edited([](auto& b) { b[0] = 'X'; }), "wrong magic");
  expectRefused(edited([](auto& b) { put<uint32_t>(b, 4, 2); }), "capture version 2");
  expectRefused(edited([](auto& b) { put<uint32_t>(b, 8, 8); }), "navmesh version 8");
  expectRefused(edited([](auto& b) { put<uint32_t>(b, 12, 8); }), "built with DT_POLYREF64");
  expectRefused(edited([](auto& b) { put<uint32_t>(b, 12, 2); }), "refBytes 2");
  expectRefused(edited([](auto& b) { put<uint32_t>(b, 16, uint32_t(b.size())); }), "runs past the end of the file");
  expectRefused(edited([](auto& b) { put<uint32_t>(b, 20, 0); }), "no queries");
  expectRefused(edited([](auto& b) { put<uint32_t>(b, 20, 70000); }), "70000 queries cannot fit");
  expectRefused(edited([](auto& b) { put<uint32_t>(b, 20, 0xffffffffu); }), "queries cannot fit");
  // The navmesh part goes through the tile-set reader: its message, naming the file.
  expectRefused(edited([](auto& b) { b[24] = 'X'; }), "wrong magic");
  expectRefused(edited([](auto& b) { put<int32_t>(b, 24 + 8, 3); }), "tile 2");
  expectRefused(edited([&](auto& b) { put<uint32_t>(b, l.rec0, uint32_t(b.size())); }), "query 0: recordBytes");
  expectRefused(edited([&](auto& b) { put<uint32_t>(b, l.rec0, get<uint32_t>(b, l.rec0) - 1); }), "query 0: ");
  expectRefused(edited([&](auto& b) { put<uint32_t>(b, l.rec0, 100); }), "query 0: recordBytes 100, too short");
  expectRefused(edited([&](auto& b) { b[r] = 2; }), "query 0: unknown kind 2");
  expectRefused(edited([&](auto& b) { b[r + 1] = 0x10; }), "query 0: unknown flag bits 0x10");
  expectRefused(edited([&](auto& b) { put<uint16_t>(b, r + 2, 200); }), "query 0: the 200-byte note runs past the record");
  expectRefused(edited([&](auto& b) { put<float>(b, r + 8 + 4 * 5, inf); }), "query 0: an area cost is not finite");
  expectRefused(edited([&](auto& b) { put<float>(b, r + 8, -15.0f); }), "query 0: area 0 costs below 0");
  expectRefused(edited([&](auto& b) { put<int32_t>(b, r + 264, 0); }), "query 0: maxNodes 0 not in 1..65535");
  expectRefused(edited([&](auto& b) { put<int32_t>(b, r + 264, 65536); }), "query 0: maxNodes 65536");
  expectRefused(edited([&](auto& b) { put<float>(b, r + 268, nan); }), "query 0: start, end or halfExtents is not finite");
  // halfExtents z (after start and end) so wide the nearest-poly search would visit ~10^9 tile cells.
  expectRefused(edited([&](auto& b) { put<float>(b, r + 268 + 24 + 8, 1e9f); }), "query 0: half extents (");
  expectRefused(edited([&](auto& b) { put<float>(b, r + 304 + 8, inf); }), "query 0: nearest start point is not finite");
  expectRefused(edited([&](auto& b) { put<float>(b, pathPart, nan); }), "query 0: pathStart or pathEnd is not finite");
  expectRefused(edited([&](auto& b) { put<int32_t>(b, pathPart + 32, -1); }), "query 0: path count -1 not in 0..65536");
  expectRefused(edited([&](auto& b) { put<int32_t>(b, pathPart + 32, 65537); }), "query 0: path count 65537");
  expectRefused(edited([&](auto& b) { put<int32_t>(b, pathPart + 32, 1000); }), "query 0: recordBytes");
  expectRefused(edited([&](auto& b) { put<int32_t>(b, pathPart + 28, -5); }), "query 0: maxPath -5");
  expectRefused(edited([&](auto& b) { put<int32_t>(b, pathPart + 28, 0); }), "query 0: path count");
  const size_t straightPart = pathPart + 36 + 4 * cap.queries[0].path.size();
  expectRefused(edited([&](auto& b) { put<float>(b, straightPart, inf); }), "query 0: straightEnd is not finite");
  expectRefused(edited([&](auto& b) { put<int32_t>(b, straightPart + 24, -3); }), "query 0: straight path count -3");
  expectRefused(edited([&](auto& b) { put<float>(b, straightPart + 28, nan); }), "query 0: a straight path point is not finite");
  // Query 1 (a raycast) names its own index.
  const size_t r1 = l.rec0 + 4 + get<uint32_t>(good, l.rec0) + 4;
  expectRefused(edited([&](auto& b) { put<float>(b, r1 + 344 + 40, nan); }), "query 1: t, hitNormal or pathCost is not finite");
  expectRefused(edited([&](auto& b) { put<int32_t>(b, r1 + 344 + 64, 65537); }), "query 1: visited count 65537");
  // Bytes after the last record.
  expectRefused(edited([](auto& b) { b.push_back(0); }), "1 unexpected bytes after the last query");

  // A navmesh without tiles.
  NavMesh empty;
  NavMeshParams p = mesh.getParams();
  ASSERT_TRUE(statusSucceeded(empty.init(p)));
  std::vector<uint8_t> emptyMesh = meshBytes(empty);
  std::vector<uint8_t> noTiles(good.begin(), good.begin() + 24);
  put<uint32_t>(noTiles, 16, uint32_t(emptyMesh.size()));
  noTiles.insert(noTiles.end(), emptyMesh.begin(), emptyMesh.end());
  noTiles.insert(noTiles.end(), good.begin() + long(l.rec0), good.end());
  expectRefused(noTiles, "the navmesh has no tiles");
}

TEST(CaptureFile, ACaptureCutAtAnyByteIsRefusedWithAMessage) {
  NavMesh mesh;
  smallMesh(mesh);
  const std::vector<uint8_t> good = saved(mesh, smallCapture(mesh));
  NavMesh out;
  Capture cap;
  for (size_t n = 0; n < good.size(); ++n) {
    std::string why;
    // A copy of exactly n bytes, so ASan sees any read past them.
    std::vector<uint8_t> cut(good.begin(), good.begin() + long(n));
    ASSERT_TRUE(statusFailed(loadCapture(cut.data(), cut.size(), out, cap, &why, "cut.nbcap"))) << n;
    ASSERT_EQ(why.rfind("cut.nbcap: ", 0), 0u) << n << ": " << why;
  }
  EXPECT_TRUE(cap.queries.empty());
  EXPECT_EQ(out.getMaxTiles(), 0);
}

TEST(CaptureFile, WriterRefusesWhatTheReaderWouldAndNamesTheFile) {
  NavMesh mesh;
  smallMesh(mesh);
  Capture cap = smallCapture(mesh);
  std::vector<uint8_t> out;
  std::string why;
  Capture none;
  EXPECT_TRUE(statusFailed(saveCapture(mesh, none, out, &why)));
  EXPECT_NE(why.find("no queries"), std::string::npos) << why;
  Capture bad = cap;
  bad.queries[0].straightFlags.pop_back();
  EXPECT_TRUE(statusFailed(saveCapture(mesh, bad, out, &why)));
  EXPECT_NE(why.find("query 0: straight path of"), std::string::npos) << why;
  bad = cap;
  bad.queries[1].maxNodes = 0;
  EXPECT_TRUE(statusFailed(saveCaptureFile(mesh, bad, "/tmp/never.nbcap", &why)));
  EXPECT_EQ(why, "/tmp/never.nbcap: query 1: maxNodes 0 not in 1..65535");
  EXPECT_TRUE(statusFailed(saveCaptureFile(mesh, cap, "/nonexistent-dir/x.nbcap", &why)));
  EXPECT_EQ(why.rfind("/nonexistent-dir/x.nbcap: ", 0), 0u) << why;
  NavMesh m2;
  Capture c2;
  EXPECT_TRUE(statusFailed(loadCaptureFile("/nonexistent-dir/x.nbcap", m2, c2, &why)));
  EXPECT_EQ(why.rfind("/nonexistent-dir/x.nbcap: cannot open", 0), 0u) << why;
  EXPECT_TRUE(statusFailed(loadCaptureFile("/tmp", m2, c2, &why)));
  EXPECT_EQ(why.rfind("/tmp: ", 0), 0u) << why;
}

// The fuzz target's seeds (tests/fuzz/corpus/fuzz_capture) are small valid captures made here:
// they load. NAVBENCH_WRITE_CAPTURE_SEEDS=1 writes them again (after a change of the format).
TEST(CaptureFile, FuzzSeedsLoad) {
  NavMesh mesh;
  smallMesh(mesh);
  std::vector<std::pair<std::string, Capture>> seeds;
  seeds.emplace_back("path_and_ray.nbcap", capturetest::smallCapture(mesh, 0));
  Capture varied = capturetest::smallCapture(mesh, 6);
  varied.queries[2].flags = CAPTURE_STALE;
  varied.queries[3].flags = CAPTURE_HANDED_IN | CAPTURE_NO_NEAREST;
  varied.queries[4].flags = CAPTURE_HANDED_IN | CAPTURE_TRUNCATED;
  seeds.emplace_back("varied.nbcap", varied);
  Capture ray;
  ray.queries.push_back(capturetest::smallCapture(mesh, 0).queries[1]);
  seeds.emplace_back("one_raycast.nbcap", ray);
  const std::string dir = std::string(NAVBENCH_SOURCE_DIR) + "/tests/fuzz/corpus/fuzz_capture/";
  std::string why;
  for (const auto& [name, cap] : seeds) {
    if (std::getenv("NAVBENCH_WRITE_CAPTURE_SEEDS")) {
      ASSERT_TRUE(statusSucceeded(saveCaptureFile(mesh, cap, dir + name, &why))) << why;
    }
    NavMesh m;
    Capture c;
    EXPECT_TRUE(statusSucceeded(loadCaptureFile(dir + name, m, c, &why))) << why;
    EXPECT_EQ(c.queries.size(), cap.queries.size()) << name;
  }
}
