// RecorderTest.cpp: navbench::Recorder's promises, game side (capture/navbench_capture.h and
// Detour only, plus the test's allocation counter): the ring keeps the last N in order, recording
// allocates nothing, refs made invalid by a removed tile mark their records stale, an empty
// recorder and an unwritable path write nothing and leave no temporary file.
#include "tests/support/DetourTileSet.h"
#include "navbench_capture.h"

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"
#include "tests/support/AllocCounter.h"
#include "tests/support/Process.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

bool exists(const std::string& p) { return ::access(p.c_str(), F_OK) == 0; }

/// The project's default level in a dtNavMesh with a 2048-node query on it.
struct Level {
  dtNavMesh* nav = nullptr;
  dtNavMeshQuery* query = nullptr;
  Level() {
    nav = navtest::loadDetourTileSet((std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin").c_str());
    query = dtAllocNavMeshQuery();
    if (nav && query) query->init(nav, 2048);
  }
  ~Level() {
    dtFreeNavMeshQuery(query);
    dtFreeNavMesh(nav);
  }
  /// The centre of ground poly i of the mesh (counting over all tiles), 0.3 wu up.
  void point(int i, float* p) const {
    const dtNavMesh& cnav = *nav;
    int seen = 0;
    for (int t = 0;; t = (t + 1) % cnav.getMaxTiles()) {
      const dtMeshTile* tile = cnav.getTile(t);
      if (!tile->header) continue;
      for (int k = 0; k < tile->header->polyCount; ++k, ++seen) {
        const dtPoly& poly = tile->polys[k];
        if (seen < i || poly.getType() != DT_POLYTYPE_GROUND) continue;
        p[0] = p[1] = p[2] = 0;
        for (int v = 0; v < poly.vertCount; ++v)
          for (int c = 0; c < 3; ++c) p[c] += tile->verts[poly.verts[v] * 3 + c] / float(poly.vertCount);
        p[1] += 0.3f;
        return;
      }
    }
  }
};

const float kExt[3] = {2, 4, 2};

/// Queries the game runs itself into its own 256-entry buffers, their answers as handed to the
/// Recorder: run() a path (findNearestPoly, findPath, findStraightPath) into `a`, then ray() a
/// raycast from its start poly into `r`. No allocation.
struct GamePath {
  dtPolyRef path[256], srefs[256], visited[256];
  float straight[256 * 3];
  unsigned char sflags[256];
  float ns[3], ne[3];
  navbench::PathAnswers a;
  void run(const Level& lv, const dtQueryFilter& f, const float* s, const float* e) {
    a = navbench::PathAnswers();
    a.hasNearest = true;
    a.start = s;
    a.end = e;
    a.halfExtents = kExt;
    ns[0] = ns[1] = ns[2] = ne[0] = ne[1] = ne[2] = 0;
    a.startStatus = lv.query->findNearestPoly(s, kExt, &f, &a.startRef, ns);
    a.endStatus = lv.query->findNearestPoly(e, kExt, &f, &a.endRef, ne);
    a.pathStart = ns;
    a.pathEnd = ne;
    a.path = path;
    a.maxPath = 256;
    a.pathStatus = lv.query->findPath(a.startRef, a.endRef, ns, ne, &f, path, &a.pathCount, 256);
    a.straight = straight;
    a.straightFlags = sflags;
    a.straightRefs = srefs;
    a.maxStraight = 256;
    a.straightStatus =
        lv.query->findStraightPath(ns, ne, path, a.pathCount, straight, sflags, srefs, &a.straightCount, 256);
  }
  dtRaycastHit hit;
  navbench::RaycastAnswers r;
  void ray(const Level& lv, const dtQueryFilter& f, const float* s, const float* e) {
    std::memset(&hit, 0, sizeof hit);
    hit.path = visited;
    hit.maxPath = 256;
    r = navbench::RaycastAnswers();
    r.startRef = a.startRef;
    r.rayStart = s;
    r.rayEnd = e;
    r.status = lv.query->raycast(a.startRef, s, e, &f, 0, &hit);
    r.hit = &hit;
  }
};

/// The records of a .nbcap file: (kind, flags, note) each, walking recordBytes. Empty when the
/// file is missing or its header is not a capture's.
struct FileRecord {
  int kind, flags;
  std::string note;
};
std::vector<FileRecord> readRecords(const std::string& path) {
  const std::string b = testproc::readFile(path);
  std::vector<FileRecord> out;
  if (b.size() < 24 || b.compare(0, 4, "NBCP") != 0) return out;
  uint32_t meshBytes = 0, count = 0;
  std::memcpy(&meshBytes, b.data() + 16, 4);
  std::memcpy(&count, b.data() + 20, 4);
  size_t at = 24 + size_t(meshBytes);
  for (uint32_t i = 0; i < count && at + 8 <= b.size(); ++i) {
    uint32_t bytes = 0;
    uint16_t noteBytes = 0;
    std::memcpy(&bytes, b.data() + at, 4);
    std::memcpy(&noteBytes, b.data() + at + 6, 2);
    if (at + 4 + bytes > b.size() || noteBytes > bytes) break;
    FileRecord r{(unsigned char)b[at + 4], (unsigned char)b[at + 5], b.substr(at + 4 + bytes - noteBytes, noteBytes)};
    out.push_back(r);
    at += 4 + bytes;
  }
  return out;
}

TEST(Recorder, RingKeepsTheLastNInOrder) {
  Level lv;
  ASSERT_TRUE(lv.nav);
  navbench::Recorder rec(4);
  ASSERT_EQ(rec.capacity(), 4);
  dtQueryFilter f;
  for (int i = 0; i < 10; ++i) {
    float s[3], e[3];
    lv.point(i * 7, s);
    lv.point(i * 7 + 40, e);
    const std::string note = "q" + std::to_string(i);
    ASSERT_TRUE(i % 2 ? rec.recordRaycast(*lv.query, f, s, e, kExt, note.c_str())
                      : rec.recordPath(*lv.query, f, s, e, kExt, note.c_str()));
    EXPECT_EQ(rec.size(), std::min(i + 1, 4));
  }
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(std::string(rec.record(i)->note, size_t(rec.record(i)->noteBytes)), "q" + std::to_string(6 + i));
  EXPECT_EQ(rec.record(4), nullptr);
  EXPECT_EQ(rec.record(-1), nullptr);

  const std::string file = testproc::tempPath("nbcap_ring_", "r.nbcap");
  ASSERT_TRUE(rec.save(file.c_str(), *lv.nav));
  const std::vector<FileRecord> recs = readRecords(file);
  ASSERT_EQ(recs.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(recs[size_t(i)].note, "q" + std::to_string(6 + i));
    EXPECT_EQ(recs[size_t(i)].kind, (6 + i) % 2);
    EXPECT_EQ(recs[size_t(i)].flags, 0);
  }
  std::remove(file.c_str());
  rec.clear();
  EXPECT_EQ(rec.size(), 0);
}

TEST(Recorder, RecordingAllocatesNothing) {
  Level lv;
  ASSERT_TRUE(lv.nav);
  navtest::startCountingAllocs();
  navbench::Recorder rec(8, 32, 16, 64);
  const long atInit = navtest::stopCountingAllocs();
  ASSERT_EQ(rec.capacity(), 8);
  EXPECT_GT(atInit, 0) << "the counter must see the recorder's own allocations";

  // The game's own buffers for handed-in answers, made before counting.
  GamePath game;
  const std::string note(100, 'n'); // longer than the slot's 64 bytes
  dtQueryFilter f;
  f.setAreaCost(2, 3.5f);
  navtest::startCountingAllocs();
  for (int i = 0; i < 40; ++i) {
    float s[3], e[3];
    lv.point(i * 3, s);
    lv.point(i * 11 + 5, e);
    rec.recordPath(*lv.query, f, s, e, kExt, note.c_str());
    rec.recordRaycast(*lv.query, f, s, e, kExt, note.c_str());
    game.run(lv, f, s, e);
    rec.addPath(*lv.query, f, game.a, note.c_str());
    game.ray(lv, f, s, e);
    rec.addRaycast(*lv.query, f, game.r, note.c_str());
  }
  EXPECT_EQ(navtest::stopCountingAllocs(), 0);
  EXPECT_EQ(rec.size(), 8);
  EXPECT_EQ(rec.record(7)->flags, navbench::CAPTURE_HANDED_IN | navbench::CAPTURE_NO_NEAREST);
  EXPECT_EQ(rec.record(7)->noteBytes, 64);
}

TEST(Recorder, RecordsOnARemovedTileAreSavedStale) {
  Level lv;
  ASSERT_TRUE(lv.nav);
  navbench::Recorder rec(4);
  dtQueryFilter f;
  float s[3], e[3];
  lv.point(0, s);
  lv.point(1, e); // the same tile (or its neighbour): a short corridor
  const navbench::CaptureRecord* before = rec.recordPath(*lv.query, f, s, e, kExt, "before");
  ASSERT_TRUE(before);
  ASSERT_NE(before->nearestStartRef, 0u);
  const dtMeshTile* t = nullptr;
  const dtPoly* p = nullptr;
  ASSERT_TRUE(dtStatusSucceed(lv.nav->getTileAndPolyByRef(before->nearestStartRef, &t, &p)));
  ASSERT_TRUE(dtStatusSucceed(lv.nav->removeTile(lv.nav->getTileRef(t), nullptr, nullptr)));
  // A record made after the removal, away from the removed tile, is not stale.
  float far[3];
  const dtNavMesh& cnav = *lv.nav;
  bool found = false;
  for (int i = 0; !found && i < 100000; i += 13) {
    lv.point(i, far);
    dtPolyRef r = 0;
    float pt[3];
    lv.query->findNearestPoly(far, kExt, &f, &r, pt);
    found = r != 0 && cnav.isValidPolyRef(r);
  }
  ASSERT_TRUE(found);
  ASSERT_TRUE(rec.recordRaycast(*lv.query, f, far, far, kExt, "after"));
  const std::string file = testproc::tempPath("nbcap_stale_", "s.nbcap");
  ASSERT_TRUE(rec.save(file.c_str(), *lv.nav));
  const std::vector<FileRecord> recs = readRecords(file);
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].note, "before");
  EXPECT_EQ(recs[0].flags, navbench::CAPTURE_STALE);
  EXPECT_EQ(recs[1].note, "after");
  EXPECT_EQ(recs[1].flags, 0);
  // The recorder's own record is unchanged: stale is decided at each save.
  EXPECT_EQ(rec.record(0)->flags, 0);
  std::remove(file.c_str());
}

TEST(Recorder, EmptyRecorderSavesNothing) {
  Level lv;
  ASSERT_TRUE(lv.nav);
  const std::string file = testproc::tempPath("nbcap_empty_", "e.nbcap");
  navbench::Recorder rec(4);
  EXPECT_FALSE(rec.save(file.c_str(), *lv.nav));
  navbench::Recorder uninitialised;
  EXPECT_FALSE(uninitialised.save(file.c_str(), *lv.nav));
  EXPECT_EQ(uninitialised.recordPath(*lv.query, dtQueryFilter(), kExt, kExt, kExt), nullptr);
  navbench::Recorder bad(0);
  EXPECT_EQ(bad.capacity(), 0);
  EXPECT_FALSE(exists(file));
  EXPECT_FALSE(exists(file + ".nbtmp"));
}

// Handed-in answers NavBench could not read back (a capacity below its count, or above 65,536:
// the reader refuses the whole file then) or made on a query with no node pool are refused at
// addPath / addRaycast, keeping nothing, rather than spoiling every record of the saved file.
TEST(Recorder, HandedInAnswersItCouldNotReplayAreRefused) {
  Level lv;
  ASSERT_TRUE(lv.nav);
  dtQueryFilter f;
  float s[3], e[3];
  lv.point(3, s);
  lv.point(30, e);
  GamePath game;
  game.run(lv, f, s, e);
  navbench::PathAnswers& a = game.a;
  ASSERT_GT(a.pathCount, 1);
  ASSERT_GT(a.straightCount, 1);

  navbench::Recorder rec(4);
  a.maxPath = a.maxStraight = 0;
  EXPECT_FALSE(rec.addPath(*lv.query, f, a)) << "maxPath and maxStraight left 0";
  a.maxPath = a.pathCount - 1;
  a.maxStraight = 256;
  EXPECT_FALSE(rec.addPath(*lv.query, f, a)) << "maxPath below the corridor";
  a.maxPath = 65537;
  EXPECT_FALSE(rec.addPath(*lv.query, f, a)) << "maxPath above 65,536";
  a.maxPath = 256;
  a.maxStraight = a.straightCount - 1;
  EXPECT_FALSE(rec.addPath(*lv.query, f, a)) << "maxStraight below the corners";
  a.maxStraight = 256;
  dtNavMeshQuery* bare = dtAllocNavMeshQuery();
  EXPECT_FALSE(rec.addPath(*bare, f, a)) << "a query without a node pool";

  game.ray(lv, f, s, e);
  dtRaycastHit& hit = game.hit;
  const navbench::RaycastAnswers& r = game.r;
  ASSERT_GT(hit.pathCount, 0);
  hit.maxPath = hit.pathCount - 1;
  EXPECT_FALSE(rec.addRaycast(*lv.query, f, r)) << "visited polys above maxPath";
  hit.maxPath = 256;
  EXPECT_FALSE(rec.addRaycast(*bare, f, r)) << "a query without a node pool";
  dtFreeNavMeshQuery(bare);
  EXPECT_EQ(rec.size(), 0);

  // The same answers with their capacities are kept.
  EXPECT_TRUE(rec.addPath(*lv.query, f, a));
  EXPECT_TRUE(rec.addRaycast(*lv.query, f, r));
  EXPECT_EQ(rec.size(), 2);
}

// Inputs NavBench would refuse the whole file for (a point or the box not finite, an area cost
// below 0) are not captured: capturePath writes nothing, the Recorder keeps nothing.
TEST(Recorder, NonFiniteInputsAndNegativeAreaCostsAreNotCaptured) {
  Level lv;
  ASSERT_TRUE(lv.nav);
  const std::string file = testproc::tempPath("nbcap_nonfinite_", "n.nbcap");
  dtQueryFilter f;
  float s[3], e[3];
  lv.point(3, s);
  lv.point(30, e);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  float badStart[3] = {s[0], nan, s[2]};
  float badExt[3] = {2, inf, 2};
  navbench::Recorder rec(4);
  EXPECT_FALSE(navbench::capturePath(file.c_str(), *lv.query, f, badStart, e, kExt));
  EXPECT_FALSE(navbench::capturePath(file.c_str(), *lv.query, f, s, e, badExt));
  EXPECT_FALSE(navbench::captureRaycast(file.c_str(), *lv.query, f, s, badStart, kExt));
  EXPECT_EQ(rec.recordPath(*lv.query, f, badStart, e, kExt), nullptr);
  EXPECT_EQ(rec.recordRaycast(*lv.query, f, s, e, badExt), nullptr);
  dtQueryFilter negative;
  negative.setAreaCost(5, -1.0f);
  EXPECT_FALSE(navbench::capturePath(file.c_str(), *lv.query, negative, s, e, kExt));
  EXPECT_EQ(rec.recordPath(*lv.query, negative, s, e, kExt), nullptr);
  navbench::PathAnswers a;
  a.pathStart = badStart;
  a.pathEnd = e;
  a.maxPath = a.maxStraight = 1;
  EXPECT_FALSE(rec.addPath(*lv.query, f, a));
  dtRaycastHit hit;
  std::memset(&hit, 0, sizeof hit);
  hit.t = nan;
  navbench::RaycastAnswers r;
  r.rayStart = s;
  r.rayEnd = e;
  r.hit = &hit;
  EXPECT_FALSE(rec.addRaycast(*lv.query, f, r));
  EXPECT_EQ(rec.size(), 0);
  EXPECT_FALSE(exists(file));
  EXPECT_FALSE(exists(file + ".nbtmp"));

  // The same queries with finite inputs and the default costs are captured.
  a.pathStart = s;
  EXPECT_TRUE(rec.addPath(*lv.query, f, a));
  hit.t = 0.5f;
  EXPECT_TRUE(rec.addRaycast(*lv.query, f, r));
  EXPECT_NE(rec.recordPath(*lv.query, f, s, e, kExt), nullptr);
  EXPECT_TRUE(navbench::capturePath(file.c_str(), *lv.query, f, s, e, kExt));
  EXPECT_EQ(readRecords(file).size(), 1u);
  std::remove(file.c_str());
}

TEST(Recorder, UnwritablePathFailsAndLeavesNoTemporary) {
  Level lv;
  ASSERT_TRUE(lv.nav);
  dtQueryFilter f;
  float s[3], e[3];
  lv.point(3, s);
  lv.point(30, e);
  navbench::Recorder rec(2);
  ASSERT_TRUE(rec.recordPath(*lv.query, f, s, e, kExt));
  // No such folder: the temporary cannot be made.
  EXPECT_FALSE(rec.save("/nonexistent-navbench-dir/x.nbcap", *lv.nav));
  EXPECT_FALSE(navbench::capturePath("/nonexistent-navbench-dir/x.nbcap", *lv.query, f, s, e, kExt));
  // The target is a folder: the whole file is written to the temporary, the rename fails.
  const std::string dir = testproc::tempPath("nbcap_unwritable_", "target.nbcap");
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((dir + "/inside").c_str(), 0755), 0);
  EXPECT_FALSE(rec.save(dir.c_str(), *lv.nav));
  EXPECT_FALSE(exists(dir + ".nbtmp"));
  EXPECT_FALSE(navbench::captureRaycast(dir.c_str(), *lv.query, f, s, e, kExt));
  EXPECT_FALSE(exists(dir + ".nbtmp"));
  ::rmdir((dir + "/inside").c_str());
  ::rmdir(dir.c_str());
  // A query without a navmesh writes nothing.
  dtNavMeshQuery* bare = dtAllocNavMeshQuery();
  const std::string file = testproc::tempPath("nbcap_bare_", "b.nbcap");
  EXPECT_FALSE(navbench::capturePath(file.c_str(), *bare, f, s, e, kExt));
  EXPECT_FALSE(exists(file));
  dtFreeNavMeshQuery(bare);
}

TEST(Recorder, ReplacesAnOldFileWhole) {
  Level lv;
  ASSERT_TRUE(lv.nav);
  const std::string file = testproc::tempPath("nbcap_replace_", "x.nbcap");
  std::FILE* old = std::fopen(file.c_str(), "wb");
  ASSERT_TRUE(old);
  std::fputs("an older file at the target", old);
  std::fclose(old);
  float s[3], e[3];
  lv.point(3, s);
  lv.point(30, e);
  ASSERT_TRUE(navbench::capturePath(file.c_str(), *lv.query, dtQueryFilter(), s, e, kExt, "new"));
  const std::vector<FileRecord> recs = readRecords(file);
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].note, "new");
  EXPECT_FALSE(exists(file + ".nbtmp"));
  std::remove(file.c_str());
}

} // namespace
