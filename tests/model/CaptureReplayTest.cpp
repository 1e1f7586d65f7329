// CaptureReplayTest.cpp: app/model/CaptureReplay.h. Captures made with NavBench's own queries on
// the default level (tests/support/CaptureMaker.h, as the capture header makes them in a game)
// replay identical; a difference planted in a record is reported as the first difference with the
// right field and both values; on the level re-baked with one volume added, exactly the queries
// whose answers really change (each query made again on the re-baked level) are listed as changed.
#include "app/model/CaptureReplay.h"
#include "tests/support/CaptureMaker.h"

#include "nav/CaptureFile.h"
#include "nav/NavAreas.h"
#include "nav/bake/Bake.h"
#include "nav/bake/LevelFile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <string>

using namespace navbench;
using nav::CapturedQuery;

namespace {

/// The capture after a save and a load (what the CLI and the viewer replay), with its navmesh.
struct Loaded {
  nav::NavMesh mesh;
  nav::Capture cap;
};
void saveAndLoad(const nav::NavMesh& mesh, const nav::Capture& cap, Loaded& out) {
  std::vector<uint8_t> bytes;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::saveCapture(mesh, cap, bytes, &why))) << why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadCapture(bytes.data(), bytes.size(), out.mesh, out.cap, &why))) << why;
}

struct Fixture {
  nav::NavMesh mesh;
  nav::Capture cap;
  Fixture() {
    std::string why;
    EXPECT_TRUE(capturetest::loadDefaultMesh(mesh, &why)) << why;
    cap = capturetest::variedCapture(mesh, 80, 17);
  }
  /// The first query of `kind` with at least `corners` straight-path corners (paths) / a visited
  /// poly (raycasts).
  int find(nav::CaptureKind kind, size_t corners = 2) const {
    for (size_t i = 0; i < cap.queries.size(); ++i) {
      const CapturedQuery& q = cap.queries[i];
      if (q.kind == kind && (kind == nav::CAPTURE_RAYCAST ? !q.path.empty() : q.straightFlags.size() >= corners))
        return int(i);
    }
    return -1;
  }
};

/// Replays one edited query; its first difference (the test fails when there is none).
CaptureDifference differenceOf(const nav::NavMesh& mesh, const CapturedQuery& q) {
  CaptureReplayer r;
  CaptureAnswer ours;
  EXPECT_TRUE(r.run(mesh, q, ours));
  CaptureDifference d;
  EXPECT_TRUE(firstDifference(q, ours, &d));
  return d;
}

} // namespace

TEST(CaptureReplay, OurOwnAnswersReplayIdentical) {
  Fixture f;
  // Records as the recorder stores them too: answers handed in without nearest answers, and
  // answers cut to a prefix.
  for (size_t i = 0; i < f.cap.queries.size(); i += 5) f.cap.queries[i].flags |= nav::CAPTURE_NO_NEAREST | nav::CAPTURE_HANDED_IN;
  int truncated = 0;
  for (size_t i = 2; i < f.cap.queries.size(); i += 3) {
    CapturedQuery& q = f.cap.queries[i];
    if (q.path.size() < 3) continue;
    q.flags |= nav::CAPTURE_TRUNCATED;
    q.path.resize(2);
    if (q.straightFlags.size() > 1) {
      q.straight.resize(3);
      q.straightFlags.resize(1);
      q.straightRefs.resize(1);
    }
    ++truncated;
  }
  ASSERT_GT(truncated, 0);
  Loaded l;
  saveAndLoad(f.mesh, f.cap, l);
  const std::vector<CaptureQueryResult> results = replayCapture(l.mesh, l.cap);
  ASSERT_EQ(results.size(), f.cap.queries.size());
  for (size_t i = 0; i < results.size(); ++i)
    EXPECT_EQ(results[i].outcome, CaptureOutcome::Identical)
        << "query " << i << ": " << results[i].difference.field << ": game " << results[i].difference.game << ", ours "
        << results[i].difference.ours;
}

TEST(CaptureReplay, StaleQueriesAreNotRun) {
  Fixture f;
  f.cap.queries[0].flags |= nav::CAPTURE_STALE;
  f.cap.queries[0].path.assign(3, 0xdeadbeef);
  CaptureReplayer r;
  CaptureAnswer ours;
  ours.path.push_back(7);
  EXPECT_FALSE(r.run(f.mesh, f.cap.queries[0], ours));
  EXPECT_TRUE(ours.path.empty());
  EXPECT_FALSE(r.runFresh(f.mesh, f.cap.queries[0], ours));
  const std::vector<CaptureQueryResult> results = replayCapture(f.mesh, f.cap);
  EXPECT_EQ(results[0].outcome, CaptureOutcome::Stale);
  EXPECT_EQ(results[1].outcome, CaptureOutcome::Identical);
}

TEST(CaptureReplay, APlantedDifferenceIsTheFirstDifferenceWithItsField) {
  Fixture f;
  const int p = f.find(nav::CAPTURE_PATH, 3), ray = f.find(nav::CAPTURE_RAYCAST);
  ASSERT_GE(p, 0);
  ASSERT_GE(ray, 0);
  const CapturedQuery& base = f.cap.queries[size_t(p)];
  ASSERT_GE(base.path.size(), 2u);
  char hex[16];

  CapturedQuery q = base;
  q.path[1] ^= 0x10;
  CaptureDifference d = differenceOf(f.mesh, q);
  EXPECT_EQ(d.field, "path[1]");
  std::snprintf(hex, sizeof hex, "0x%08x", q.path[1]);
  EXPECT_EQ(d.game, hex);
  std::snprintf(hex, sizeof hex, "0x%08x", base.path[1]);
  EXPECT_EQ(d.ours, hex);

  // A corner's y one ulp off: a bit-for-bit difference, printed exactly.
  q = base;
  float y = q.straight[3 * 2 + 1];
  uint32_t bits;
  std::memcpy(&bits, &y, 4);
  ++bits;
  std::memcpy(&q.straight[3 * 2 + 1], &bits, 4);
  d = differenceOf(f.mesh, q);
  EXPECT_EQ(d.field, "straight[2]");
  EXPECT_NE(d.game, d.ours);
  EXPECT_EQ(d.game.find('('), 0u);

  q = base;
  q.pathStatus |= nav::PARTIAL_RESULT;
  EXPECT_EQ(differenceOf(f.mesh, q).field, "pathStatus");
  q = base;
  q.straightStatus ^= nav::BUFFER_TOO_SMALL;
  EXPECT_EQ(differenceOf(f.mesh, q).field, "straightStatus");
  q = base;
  q.straightFlags[1] ^= nav::STRAIGHTPATH_OFFMESH_CONNECTION;
  EXPECT_EQ(differenceOf(f.mesh, q).field, "straightFlags[1]");
  q = base;
  q.straightRefs[0] ^= 1;
  EXPECT_EQ(differenceOf(f.mesh, q).field, "straightRefs[0]");
  q = base;
  q.path.pop_back();
  d = differenceOf(f.mesh, q);
  EXPECT_EQ(d.field, "path.count");
  EXPECT_EQ(d.game, std::to_string(base.path.size() - 1));
  EXPECT_EQ(d.ours, std::to_string(base.path.size()));
  q = base;
  q.nearestEnd.ref ^= 1;
  EXPECT_EQ(differenceOf(f.mesh, q).field, "nearestEnd.ref");
  // Without nearest answers the nearest stage is not compared: the path stage is the first.
  q.flags |= nav::CAPTURE_NO_NEAREST;
  q.nearestEnd.ref = base.nearestEnd.ref;
  q.nearestStart.status = 0;
  q.path[0] ^= 2;
  EXPECT_EQ(differenceOf(f.mesh, q).field, "path[0]");
  // The earliest stage wins: a corridor difference before a straight-path one.
  q = base;
  q.path.back() ^= 4;
  q.straight[0] += 1.0f;
  EXPECT_EQ(differenceOf(f.mesh, q).field, "path[" + std::to_string(base.path.size() - 1) + "]");
  // A truncated record compares its stored prefix: shorter is fine, an edit inside it is not.
  q = base;
  q.flags |= nav::CAPTURE_TRUNCATED;
  q.path.resize(2);
  CaptureReplayer r;
  CaptureAnswer ours;
  ASSERT_TRUE(r.run(f.mesh, q, ours));
  EXPECT_FALSE(firstDifference(q, ours, nullptr));
  q.path[1] ^= 8;
  EXPECT_EQ(differenceOf(f.mesh, q).field, "path[1]");

  const CapturedQuery& rb = f.cap.queries[size_t(ray)];
  q = rb;
  q.t = q.t * 0.5f + 0.125f;
  EXPECT_EQ(differenceOf(f.mesh, q).field, "t");
  q = rb;
  q.rayStatus |= nav::PARTIAL_RESULT;
  EXPECT_EQ(differenceOf(f.mesh, q).field, "rayStatus");
  q = rb;
  q.path.push_back(q.path.back());
  EXPECT_EQ(differenceOf(f.mesh, q).field, "visited.count");
}

TEST(CaptureReplay, ARebakeListsExactlyTheQueriesWhoseAnswersChanged) {
  // The level baked as the game has it, and again with one volume added: a patch of water across a
  // corridor of the default level, re-baked in the tiles it touches only (as the viewer's live
  // rebake does). The other tiles keep their bytes and refs.
  nav::bake::BakeInput input;
  nav::bake::BakeSettings settings;
  std::string why;
  ASSERT_TRUE(nav::bake::loadBakeInput(std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.json", &input,
                                       &settings, &why))
      << why;
  nav::bake::Baker baker;
  ASSERT_TRUE(baker.setInput(input, &why)) << why;
  nav::bake::BakeReport report;
  ASSERT_TRUE(baker.bake(settings, nav::bake::BakeOptions(), &report)) << report.error;
  std::unique_ptr<nav::NavMesh> game = baker.releaseNavMesh();
  ASSERT_TRUE(baker.bake(settings, nav::bake::BakeOptions(), &report)) << report.error;
  std::unique_ptr<nav::NavMesh> rebaked = baker.releaseNavMesh();

  nav::bake::ConvexVolume water;
  water.verts = {20.0f, 0.0f, 20.0f, 24.0f, 0.0f, 20.0f, 24.0f, 0.0f, 24.0f, 20.0f, 0.0f, 24.0f};
  water.hmin = -0.5f;
  water.hmax = 1.0f;
  water.area = nav::AREA_WATER;
  std::vector<nav::bake::ConvexVolume> volumes = input.volumes;
  volumes.push_back(water);
  ASSERT_TRUE(baker.setVolumesAndLinks(volumes, input.links, &why)) << why;
  float bmin[3], bmax[3];
  nav::bake::editBounds(water, bmin, bmax);
  std::vector<nav::bake::TileCoord> tiles;
  baker.tilesTouching(settings, bmin, bmax, &tiles);
  ASSERT_FALSE(tiles.empty());
  std::vector<nav::bake::RebakedTile> blobs;
  ASSERT_TRUE(baker.bakeTiles(settings, tiles, nav::bake::BakeOptions(), &blobs, &report)) << report.error;
  ASSERT_TRUE(nav::bake::replaceTiles(*rebaked, blobs, &why)) << why;

  const std::vector<capturetest::QuerySpec> specs = capturetest::variedSpecs(*game, 120, 29);
  nav::Capture cap;
  for (const capturetest::QuerySpec& s : specs) cap.queries.push_back(capturetest::makeQuery(*game, s));
  Loaded l;
  saveAndLoad(*game, cap, l);

  // Expected, independently of the replay: each query made again on the other level.
  auto expectExactlyTheChangedOnes = [&](const nav::NavMesh& other) {
    std::set<size_t> expected;
    for (size_t i = 0; i < specs.size(); ++i)
      if (capturetest::answersDiffer(*game, cap.queries[i], other, capturetest::makeQuery(other, specs[i])))
        expected.insert(i);
    const std::vector<CaptureQueryResult> results = replayCapture(l.mesh, l.cap, &other);
    std::set<size_t> changed;
    for (size_t i = 0; i < results.size(); ++i) {
      EXPECT_TRUE(results[i].outcome == CaptureOutcome::Changed || results[i].outcome == CaptureOutcome::Unchanged) << i;
      if (results[i].outcome == CaptureOutcome::Changed) {
        changed.insert(i);
        EXPECT_FALSE(results[i].change.fields().empty());
      }
    }
    EXPECT_EQ(changed, expected);
    return expected.size();
  };
  const size_t changedByWater = expectExactlyTheChangedOnes(*rebaked);
  EXPECT_GT(changedByWater, 0u) << "the water patch changes no query: the test shows nothing";
  EXPECT_LT(changedByWater * 2, specs.size()) << "most queries changed: the test shows little";

  // The level against itself: nothing changed.
  EXPECT_EQ(expectExactlyTheChangedOnes(*game), 0u);
  // Against a copy whose tiles sit in other slots (every ref differs): corridors compare by
  // position, so nearly every query is unchanged. (A few may really change: Detour and NavBench
  // visit tiles, and so break ties, in slot order.)
  nav::NavMesh moved;
  ASSERT_TRUE(nav::statusSucceeded(moved.init(game->getParams())));
  const int slots = game->getMaxTiles();
  for (int i = slots - 1; i >= 0; --i) { // slot i goes to slot (slots - 1 - i), salt 1
    const nav::MeshTile* t = game->getTile(i);
    if (!t->header) continue;
    uint8_t* data = new uint8_t[size_t(t->dataSize)];
    std::memcpy(data, t->data, size_t(t->dataSize));
    const nav::TileRef at = moved.encodePolyId(1, uint32_t(slots - 1 - i), 0);
    ASSERT_TRUE(nav::statusSucceeded(moved.addTile(data, t->dataSize, nav::TILE_FREE_DATA, at, nullptr, &why))) << why;
  }
  int refsMoved = 0, refs = 0;
  for (const CapturedQuery& q : l.cap.queries)
    for (nav::PolyRef ref : q.path) {
      ++refs;
      const nav::MeshTile *a = nullptr, *b = nullptr;
      const nav::Poly* p = nullptr;
      game->getTileAndPolyByRef(ref, &a, &p);
      const bool same = nav::statusSucceeded(moved.getTileAndPolyByRef(ref, &b, &p)) && a && a->header->x == b->header->x &&
                        a->header->y == b->header->y && a->header->layer == b->header->layer;
      refsMoved += !same;
    }
  ASSERT_GT(refsMoved * 2, refs) << "the copy should hold most tiles at other refs";
  const size_t changedByMove = expectExactlyTheChangedOnes(moved);
  EXPECT_LT(changedByMove * 20, specs.size());
  std::printf("%zu queries: the water patch changed %zu, the moved tiles %zu\n", specs.size(), changedByWater, changedByMove);
}
