// Threads, progress, cancel, failed bakes, single-tile rebuild.
#include "BakeTestUtil.h"
#include "nav/bake/BakeJob.h"

#include <gtest/gtest.h>

#include <mutex>
#include <chrono>
#include <thread>

using namespace nav;
using namespace nav::bake;

namespace {

/// The default level (the one level always present).
class BakeRun : public testing::Test {
protected:
  void SetUp() override {
    std::string why;
    ASSERT_TRUE(baketest::loadLevel(baketest::defaultObj(), &input, &settings, &why)) << why;
    ASSERT_TRUE(baker.setInput(input, &why)) << why;
    settings.tiled = true;
    settings.tileSize = 32;
  }
  BakeInput input;
  BakeSettings settings;
  Baker baker;
};

TEST_F(BakeRun, OneAndManyThreadsGiveIdenticalTileSets) {
  std::vector<uint8_t> first;
  for (int threads : {1, 2, 3, 7}) {
    BakeOptions opt;
    opt.threads = threads;
    BakeReport r;
    ASSERT_TRUE(baker.bake(settings, opt, &r)) << r.error;
    EXPECT_EQ(r.threads, threads);
    const std::vector<uint8_t> file = baketest::saveAllOurs(*baker.navMesh());
    if (first.empty()) first = file;
    else EXPECT_EQ(baketest::firstDiff(file, first), -1) << threads << " threads";
  }
  EXPECT_GT(first.size(), 1000u);
}

TEST_F(BakeRun, SharedLevelOneVsManyThreads) {
  const std::string path = baketest::sharedLevelsDir() + "/dungeon.obj";
  if (!baketest::fileExists(path)) GTEST_SKIP() << "shared levels not found at " << baketest::sharedLevelsDir();
  BakeInput in;
  BakeSettings s;
  std::string why;
  ASSERT_TRUE(baketest::loadLevel(path, &in, &s, &why)) << why;
  Baker b;
  ASSERT_TRUE(b.setInput(in, &why)) << why;
  s.tileSize = 48;
  BakeOptions one, many;
  one.threads = 1;
  many.threads = 4;
  BakeReport r1, r4;
  ASSERT_TRUE(b.bake(s, one, &r1)) << r1.error;
  const std::vector<uint8_t> a = baketest::saveAllOurs(*b.navMesh());
  ASSERT_TRUE(b.bake(s, many, &r4)) << r4.error;
  const std::vector<uint8_t> c = baketest::saveAllOurs(*b.navMesh());
  EXPECT_EQ(baketest::firstDiff(a, c), -1);
  EXPECT_EQ(r1.tileCount, r4.tileCount);
  EXPECT_GT(r1.tileCount, 4);
}

TEST_F(BakeRun, ProgressCountsEveryTileAndEndsDone) {
  std::mutex m;
  std::vector<BakeProgress> events;
  BakeOptions opt;
  opt.threads = 3;
  opt.progress = [&](const BakeProgress& p) {
    std::lock_guard<std::mutex> lock(m);
    events.push_back(p);
  };
  BakeReport r;
  ASSERT_TRUE(baker.bake(settings, opt, &r)) << r.error;
  ASSERT_FALSE(events.empty());
  const int total = r.tilesX * r.tilesY;
  EXPECT_GT(total, 1);
  int lastDone = -1, tileEvents = 0;
  for (const BakeProgress& p : events) {
    if (p.stage == BakeStage::TileData) {
      EXPECT_EQ(p.tilesTotal, total);
      EXPECT_EQ(p.tilesDone, lastDone < 0 ? 1 : lastDone + 1); // serialised, one per tile
      lastDone = p.tilesDone;
      ++tileEvents;
    }
  }
  EXPECT_EQ(tileEvents, total);
  EXPECT_EQ(events.back().stage, BakeStage::Done);
  EXPECT_EQ(events.back().tilesDone, total);
  // Per-stage times were measured and the log says what was built.
  EXPECT_GT(r.stageMs[int(BakeStage::Rasterize)], 0.0);
  EXPECT_GT(r.stageMs[int(BakeStage::Regions)], 0.0);
  EXPECT_GT(r.totalMs, 0.0);
  ASSERT_FALSE(r.log.empty());
  EXPECT_NE(r.log.back().find("done:"), std::string::npos) << r.log.back();
}

TEST_F(BakeRun, SoloProgressWalksTheStages) {
  settings.tiled = false;
  std::vector<BakeStage> stages;
  BakeOptions opt;
  opt.progress = [&](const BakeProgress& p) { stages.push_back(p.stage); };
  BakeReport r;
  ASSERT_TRUE(baker.bake(settings, opt, &r)) << r.error;
  ASSERT_GE(stages.size(), 10u);
  for (size_t i = 1; i < stages.size(); ++i) EXPECT_LE(int(stages[i - 1]), int(stages[i]));
  EXPECT_EQ(stages.back(), BakeStage::Done);
  EXPECT_EQ(r.tileCount, 1);
}

TEST_F(BakeRun, CancelKeepsThePreviousMesh) {
  BakeReport r;
  ASSERT_TRUE(baker.bake(settings, BakeOptions(), &r)) << r.error;
  const nav::NavMesh* before = baker.navMesh();
  const std::vector<uint8_t> file = baketest::saveAllOurs(*before);

  std::atomic<bool> cancel{false};
  BakeOptions opt;
  opt.threads = 2;
  opt.cancel = &cancel;
  opt.progress = [&](const BakeProgress& p) {
    if (p.stage == BakeStage::TileData && p.tilesDone >= 2) cancel = true;
  };
  BakeSettings other = settings;
  other.agentRadius = 0.3f; // would give a different mesh
  BakeReport rc;
  EXPECT_FALSE(baker.bake(other, opt, &rc));
  EXPECT_TRUE(rc.cancelled);
  EXPECT_EQ(rc.error, "cancelled");
  EXPECT_EQ(baker.navMesh(), before);
  EXPECT_EQ(baketest::firstDiff(baketest::saveAllOurs(*baker.navMesh()), file), -1);
  EXPECT_EQ(baker.bakedSettings(), settings);

  // Cancelled before it starts: also refused.
  BakeReport rc2;
  EXPECT_FALSE(baker.bake(other, opt, &rc2));
  EXPECT_TRUE(rc2.cancelled);
}

TEST_F(BakeRun, FailedBakeKeepsThePreviousMesh) {
  BakeReport r;
  ASSERT_TRUE(baker.bake(settings, BakeOptions(), &r)) << r.error;
  const std::vector<uint8_t> file = baketest::saveAllOurs(*baker.navMesh());
  const nav::NavMesh* before = baker.navMesh();

  BakeSettings bad = settings;
  bad.cellSize = 0.0f;
  BakeReport rb;
  EXPECT_FALSE(baker.bake(bad, BakeOptions(), &rb));
  EXPECT_NE(rb.error.find("cellSize"), std::string::npos) << rb.error;
  EXPECT_EQ(baker.navMesh(), before);

  // Settings that validate but leave nothing walkable (an agent too tall for every room).
  BakeSettings tall = settings;
  tall.agentHeight = 5.0f;
  tall.cellHeight = 0.1f;
  tall.agentMaxSlope = 0.0f;
  BakeReport rt;
  EXPECT_FALSE(baker.bake(tall, BakeOptions(), &rt));
  EXPECT_NE(rt.error.find("no walkable polygons"), std::string::npos) << rt.error;
  EXPECT_EQ(baker.navMesh(), before);
  EXPECT_EQ(baketest::firstDiff(baketest::saveAllOurs(*baker.navMesh()), file), -1);

  // Bad input is refused at setInput and the baker keeps its level.
  BakeInput empty;
  std::string why;
  EXPECT_FALSE(baker.setInput(empty, &why));
  EXPECT_EQ(baker.input().triCount(), input.triCount());
}

TEST_F(BakeRun, RebuildTileInPlace) {
  BakeReport r;
  ASSERT_TRUE(baker.bake(settings, BakeOptions(), &r)) << r.error;
  nav::NavMesh* mesh = baker.navMesh();
  // Find a tile under the pool (x 38..54, z 7..13) to mark water there.
  const float p[3] = {46.0f, 0.0f, 10.0f};
  int tx = 0, ty = 0;
  mesh->calcTileLoc(p, &tx, &ty);
  const nav::MeshTile* t = mesh->getTileAt(tx, ty, 0);
  ASSERT_NE(t, nullptr);
  const nav::TileRef oldRef = mesh->getTileRef(t);
  const int oldSlot = int(mesh->decodePolyIdTile(oldRef));
  auto countWater = [&](const nav::MeshTile* tile) {
    int n = 0;
    for (int i = 0; i < tile->header->polyCount; ++i) n += tile->polys[i].getArea() == AREA_WATER;
    return n;
  };
  EXPECT_EQ(countWater(t), 0);

  // Same input: same tile content in the same slot, salt bumped.
  ASSERT_TRUE(baker.rebuildTile(tx, ty, &r)) << r.error;
  const nav::MeshTile* t2 = mesh->getTileAt(tx, ty, 0);
  ASSERT_NE(t2, nullptr);
  const nav::TileRef newRef = mesh->getTileRef(t2);
  EXPECT_EQ(int(mesh->decodePolyIdTile(newRef)), oldSlot);
  EXPECT_NE(newRef, oldRef);
  EXPECT_EQ(t2->header->polyCount, t->header->polyCount);

  // A water volume around the tile's middle: only the rebuilt tile changes, and it matches a
  // full bake with the volume.
  ConvexVolume water;
  water.verts = {44, 0, 8, 48, 0, 8, 48, 0, 12, 44, 0, 12};
  water.hmin = -1;
  water.hmax = 1;
  water.area = AREA_WATER;
  std::string why;
  ASSERT_TRUE(baker.setVolumesAndLinks({water}, {}, &why)) << why;
  ASSERT_TRUE(baker.rebuildTile(tx, ty, &r)) << r.error;
  const nav::MeshTile* t3 = mesh->getTileAt(tx, ty, 0);
  ASSERT_NE(t3, nullptr);
  EXPECT_GT(countWater(t3), 0);
  const std::vector<uint8_t> rebuilt(t3->data, t3->data + t3->dataSize);

  Baker full;
  BakeInput in2 = input;
  in2.volumes = {water};
  ASSERT_TRUE(full.setInput(in2, &why)) << why;
  BakeReport rf;
  ASSERT_TRUE(full.bake(settings, BakeOptions(), &rf)) << rf.error;
  const nav::MeshTile* tf = full.navMesh()->getTileAt(tx, ty, 0);
  ASSERT_NE(tf, nullptr);
  ASSERT_EQ(tf->dataSize, t3->dataSize);
  // Same polys, areas, verts and detail (links may be allocated in another order).
  EXPECT_EQ(0, std::memcmp(tf->verts, t3->verts, sizeof(float) * 3 * size_t(tf->header->vertCount)));
  for (int i = 0; i < tf->header->polyCount; ++i) {
    EXPECT_EQ(tf->polys[i].areaAndType, t3->polys[i].areaAndType);
    EXPECT_EQ(tf->polys[i].flags, t3->polys[i].flags);
    EXPECT_EQ(0, std::memcmp(tf->polys[i].verts, t3->polys[i].verts, sizeof(tf->polys[i].verts)));
  }

  // Outside the grid: refused, mesh unchanged.
  EXPECT_FALSE(baker.rebuildTile(-1, 0, &r));
  EXPECT_FALSE(baker.rebuildTile(1000, 0, &r));
  EXPECT_NE(r.error.find("outside"), std::string::npos) << r.error;
}

} // namespace

namespace {

TEST(BakeJobTest, BackgroundBakeReportsProgressAndHandsOverTheMesh) {
  BakeInput in;
  BakeSettings s;
  std::string why;
  ASSERT_TRUE(baketest::loadLevel(baketest::defaultLevel(), &in, &s, &why)) << why;
  BakeJob job;
  EXPECT_FALSE(job.finished());
  ASSERT_TRUE(job.start(in, s, 2, &why)) << why;
  // A second start is refused while the first runs (it may already be done on a fast machine).
  std::string busy;
  if (!job.start(in, s, 2, &busy)) {
    EXPECT_EQ(busy, "a bake is already running");
  }
  while (!job.finished()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const BakeProgress p = job.progress();
  EXPECT_EQ(p.stage, BakeStage::Done);
  EXPECT_EQ(p.tilesDone, p.tilesTotal);
  std::unique_ptr<nav::NavMesh> mesh;
  BakeReport r;
  ASSERT_TRUE(job.takeResult(&mesh, &r));
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_NE(mesh, nullptr);

  // Same bytes as a foreground bake; adopted meshes can have tiles rebuilt.
  Baker b;
  ASSERT_TRUE(b.setInput(in, &why)) << why;
  BakeReport rf;
  ASSERT_TRUE(b.bake(s, BakeOptions(), &rf)) << rf.error;
  EXPECT_EQ(baketest::firstDiff(baketest::saveAllOurs(*mesh), baketest::saveAllOurs(*b.navMesh())), -1);
  b.adoptNavMesh(std::move(mesh), s);
  BakeReport rr;
  EXPECT_TRUE(b.rebuildTile(1, 1, &rr)) << rr.error;
}

TEST(BakeJobTest, CancelEndsTheJobWithoutAMesh) {
  const std::string path = baketest::sharedLevelsDir() + "/undulating.obj";
  BakeInput in;
  BakeSettings s;
  std::string why;
  ASSERT_TRUE(baketest::loadLevel(baketest::fileExists(path) ? path : baketest::defaultObj(), &in, &s, &why)) << why;
  s.tileSize = 16; // many small tiles
  BakeJob job;
  ASSERT_TRUE(job.start(in, s, 1, &why)) << why;
  job.cancel();
  std::unique_ptr<nav::NavMesh> mesh;
  BakeReport r;
  ASSERT_TRUE(job.takeResult(&mesh, &r));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(mesh, nullptr);
  // Bad settings are refused up front.
  s.cellSize = 0;
  EXPECT_FALSE(job.start(in, s, 1, &why));
  EXPECT_NE(why.find("cellSize"), std::string::npos) << why;
}

} // namespace
