// The file bake (nav/bake/StreamBake): the same tile-set bytes as Baker::bake + saveTileSet on the
// default level, the shared levels and a generated world, whatever the threads and buffer sizes;
// its memory accounting stays within the tiles in flight; progress covers the input passes;
// cancel, bad input, an unwritable temporary folder and a full disk fail cleanly.
#include "BakeTestUtil.h"
#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"
#include "nav/bake/StreamBake.h"
#ifdef NAVBENCH_HAVE_WORLDGEN
#include "app/cli/WorldGen.h"
#endif

#include <gtest/gtest.h>

#include <csignal>
#include <dirent.h>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sys/resource.h>
#include <unistd.h>

using namespace nav::bake;

namespace {

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_streambake_" + std::to_string(::getpid()) + "_" + name;
}

/// Entries of the folder of `out` whose name starts with out's name + ".bake" (the bake's
/// temporary files) or + ".tmp" (the output's AtomicFile temporary).
int tempFilesLeft(const std::string& out) {
  const size_t slash = out.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : out.substr(0, slash);
  const std::string name = out.substr(slash == std::string::npos ? 0 : slash + 1);
  int n = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string entry = e->d_name;
      if (entry.rfind(name + ".bake", 0) == 0 || entry.rfind(name + ".tmp", 0) == 0) ++n;
    }
    ::closedir(d);
  }
  return n;
}

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

/// Baker::bake + saveTileSet of the same level: the reference bytes. Empty on failure (why).
std::vector<uint8_t> bakeInMemory(const std::string& levelPath, const BakeSettings& s, BakeReport* r, std::string* why) {
  BakeInput in;
  BakeSettings ignored;
  if (!loadBakeInput(levelPath, &in, &ignored, why)) return {};
  Baker baker;
  if (!baker.setInput(std::move(in), why)) return {};
  BakeOptions opt;
  opt.threads = 2;
  if (!baker.bake(s, opt, r)) {
    *why = r->error;
    return {};
  }
  std::vector<uint8_t> bytes;
  if (nav::statusFailed(nav::saveTileSet(*baker.navMesh(), bytes, why))) return {};
  return bytes;
}

struct Variant {
  const char* name;
  int threads;
  FileBakeOptions opt;
};

/// Small buffers: a 4-page vertex cache (evictions), 64-record runs (many segments per tile) and
/// a 2-tile window (workers wait for the writer).
std::vector<Variant> variants() {
  FileBakeOptions tiny;
  tiny.vertexCacheBytes = 1;
  tiny.binBufferBytes = 1;
  tiny.window = 2;
  return {{"1 thread, default buffers", 1, FileBakeOptions()},
          {"2 threads, default buffers", 2, FileBakeOptions()},
          {"3 threads, tiny buffers", 3, tiny}};
}

/// Bakes `levelPath` with `s` both ways under every variant and expects the same bytes.
void expectSameFile(const std::string& levelPath, const BakeSettings& s, const std::string& tag) {
  std::string why;
  BakeReport ref;
  const std::vector<uint8_t> expected = bakeInMemory(levelPath, s, &ref, &why);
  ASSERT_FALSE(expected.empty()) << why;
  FileBakeInput fin;
  BakeSettings ignored;
  ASSERT_TRUE(loadFileBakeInput(levelPath, &fin, &ignored, &why)) << why;
  for (const Variant& v : variants()) {
    SCOPED_TRACE(tag + ", " + v.name);
    const std::string out = tempPath(tag + ".bin");
    BakeOptions opt;
    opt.threads = v.threads;
    BakeReport r;
    FileBakeStats st;
    ASSERT_TRUE(bakeFileToTileSet(fin, s, out, opt, &r, v.opt, &st)) << r.error;
    EXPECT_EQ(tempFilesLeft(out), 0);
    const std::vector<uint8_t> got = readFile(out);
    EXPECT_EQ(got.size(), expected.size());
    EXPECT_EQ(baketest::firstDiff(got, expected), -1) << baketest::tileSetLocation(got, baketest::firstDiff(got, expected));
    EXPECT_EQ(r.tileCount, ref.tileCount);
    EXPECT_EQ(r.polyCount, ref.polyCount);
    EXPECT_EQ(r.vertCount, ref.vertCount);
    EXPECT_EQ(r.offMeshConCount, ref.offMeshConCount);
    EXPECT_EQ(r.dataBytes, ref.dataBytes);
    // The same log up to the timing line.
    ASSERT_EQ(r.log.size(), ref.log.size());
    for (size_t i = 0; i + 1 < r.log.size(); ++i) EXPECT_EQ(r.log[i], ref.log[i]);
    std::remove(out.c_str());
  }
}

TEST(StreamBake, SameFileAsBakerOnTheDefaultLevel) {
  BakeInput in;
  BakeSettings s;
  std::string why;
  ASSERT_TRUE(baketest::loadLevel(baketest::defaultLevel(), &in, &s, &why)) << why;
  ASSERT_TRUE(s.tiled);
  ASSERT_FALSE(in.links.empty()); // off-mesh links cross tiles: their links must come out the same
  expectSameFile(baketest::defaultLevel(), s, "default");
  BakeSettings small = s;
  small.tileSize = 16; // many tiles for a small level: the window slides over many rows
  expectSameFile(baketest::defaultLevel(), small, "default16");
  BakeSettings solo = s;
  solo.tiled = false;
  expectSameFile(baketest::defaultLevel(), solo, "defaultSolo");
}

TEST(StreamBake, SameFileAsBakerOnTheSharedLevels) {
  if (!baketest::fileExists(baketest::sharedLevelsDir() + "/dungeon.obj"))
    GTEST_SKIP() << "shared levels not found at " << baketest::sharedLevelsDir();
  for (const std::string& n : baketest::sharedLevelNames()) {
    BakeSettings s;
    s.tiled = true;
    s.tileSize = 48;
    expectSameFile(baketest::sharedLevelsDir() + "/" + n, s, n);
  }
}

#ifdef NAVBENCH_HAVE_WORLDGEN
/// Removes the generated worlds when the test process ends.
struct WorldFiles {
  std::vector<std::string> paths;
  ~WorldFiles() {
    for (const std::string& p : paths) std::remove(p.c_str());
  }
};

/// A generated world's level file (written once per process).
std::string worldLevel(float size) {
  const std::string base = tempPath("world" + std::to_string(int(size)));
  static std::mutex mu;
  static WorldFiles files;
  std::lock_guard<std::mutex> lock(mu);
  if (baketest::fileExists(base + ".json")) return base + ".json";
  files.paths.push_back(base + ".obj");
  files.paths.push_back(base + ".json");
  navbench::worldgen::WorldParams p;
  p.size = size;
  p.seed = 1;
  std::string why;
  if (!navbench::worldgen::writeWorldObj(p, base + ".obj", nullptr, &why)) return "";
  Level lv;
  lv.objPath = base + ".obj";
  lv.settings.tiled = true;
  lv.settings.tileSize = 64;
  if (!saveLevelFile(base + ".json", lv, &why)) return "";
  return base + ".json";
}

/// The file bake's input and settings for `level` (a fatal test failure when it cannot be read).
void loadInput(const std::string& level, FileBakeInput* fin, BakeSettings* s) {
  ASSERT_FALSE(level.empty()) << "the level could not be written";
  std::string why;
  ASSERT_TRUE(loadFileBakeInput(level, fin, s, &why)) << level << ": " << why;
}

TEST(StreamBake, SameFileAsBakerOnAGeneratedWorld) {
  const std::string level = worldLevel(256);
  FileBakeInput fin;
  BakeSettings s;
  ASSERT_NO_FATAL_FAILURE(loadInput(level, &fin, &s));
  expectSameFile(level, s, "world256");
}

// What the file bake holds is bounded by the tiles in flight: each worker holds one tile's input
// at a time, the binning buffers do not depend on the triangle count, and the output mesh holds
// about two rows of tiles, not the whole set.
TEST(StreamBake, MemoryIsBoundedByTheTilesInFlight) {
  const std::string level = worldLevel(256);
  FileBakeInput fin;
  BakeSettings s;
  ASSERT_NO_FATAL_FAILURE(loadInput(level, &fin, &s));
  for (int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    BakeOptions opt;
    opt.threads = threads;
    FileBakeOptions fopt;
    BakeReport r;
    FileBakeStats st;
    const std::string out = tempPath("mem.bin");
    ASSERT_TRUE(bakeFileToTileSet(fin, s, out, opt, &r, fopt, &st)) << r.error;
    std::remove(out.c_str());
    ASSERT_GT(st.tris, 30000);
    ASSERT_GT(st.largestTileTris, 0);
    // Every triangle reached at least one tile; some reached several (border overlap).
    EXPECT_GE(st.binEntries, st.tris);
    // Tile inputs: never more than one (the largest) per worker at once.
    EXPECT_GT(st.peakTileInputBytes, 0u);
    EXPECT_LE(st.peakTileInputBytes, size_t(threads) * st.largestTileInputBytes);
    // The largest tile holds a small part of the level.
    EXPECT_LT(st.largestTileTris, st.tris / 20);
    // Fixed buffers: the vertex cache, the run buffers (twice: gather + grouped) and 16-ish bytes
    // per tile, whatever the number of triangles.
    const size_t tiles = size_t(r.tilesX) * size_t(r.tilesY);
    EXPECT_LE(st.fixedBytes, fopt.vertexCacheBytes + 3 * fopt.binBufferBytes + 64 * tiles + (size_t(1) << 20));
    // Less than the whole level's vertices and triangles (what Baker holds: 12 B per vertex and
    // per triangle, plus its grid).
    EXPECT_LT(st.peakTileInputBytes, size_t(st.tris) * 12);
    // Output: about two rows of tiles in the mesh at once (a tile stays until the one 2 rows + 2
    // after it is in).
    EXPECT_LE(st.peakWindowTiles, 2 * r.tilesX + 3);
    EXPECT_LT(st.peakWindowTiles, r.tileCount / 3);
    // The binning cache works on a world whose faces follow their vertices.
    EXPECT_LT(st.vertexPageMisses * 100, st.vertexLookups);
  }
}

TEST(StreamBake, FullDiskFailsNamingTheTemporaryFile) {
  const std::string level = worldLevel(256);
  FileBakeInput fin;
  BakeSettings s;
  ASSERT_NO_FATAL_FAILURE(loadInput(level, &fin, &s));
  const std::string out = tempPath("full.bin");
  {
    std::ofstream old(out, std::ios::binary);
    old << "previous";
  }
  // A file-size limit makes writes past 64 KiB fail (EFBIG) as a full disk would (ENOSPC).
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  void (*oldHandler)(int) = std::signal(SIGXFSZ, SIG_IGN);
  rlimit lim = saved;
  lim.rlim_cur = 64 << 10;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &lim), 0);
  BakeReport r;
  const bool ok = bakeFileToTileSet(fin, s, out, BakeOptions(), &r);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, oldHandler);
  EXPECT_FALSE(ok);
  EXPECT_NE(r.error.find("cannot write the temporary file " + out + ".bake"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("disk is full"), std::string::npos) << r.error;
  EXPECT_EQ(tempFilesLeft(out), 0);
  const std::vector<uint8_t> left = readFile(out);
  EXPECT_EQ(std::string(left.begin(), left.end()), "previous"); // the old output is untouched
  std::remove(out.c_str());
}
#endif

TEST(StreamBake, ProgressCoversTheInputPassesThenTheTiles) {
  FileBakeInput fin;
  BakeSettings s;
  ASSERT_NO_FATAL_FAILURE(loadInput(baketest::defaultLevel(), &fin, &s));
  std::vector<BakeProgress> seen;
  BakeOptions opt;
  opt.threads = 2;
  opt.progress = [&](const BakeProgress& p) { seen.push_back(p); };
  BakeReport r;
  const std::string out = tempPath("progress.bin");
  ASSERT_TRUE(bakeFileToTileSet(fin, s, out, opt, &r)) << r.error;
  std::remove(out.c_str());
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front().stage, BakeStage::Prepare);
  int lastInput = -1, lastTiles = -1;
  bool sawInputEnd = false, sawTiles = false;
  for (const BakeProgress& p : seen) {
    if (p.stage == BakeStage::Prepare) {
      EXPECT_FALSE(sawTiles) << "input progress after tiles";
      EXPECT_EQ(p.inputTotal, 1000);
      EXPECT_GE(p.inputDone, lastInput);
      lastInput = p.inputDone;
      sawInputEnd = sawInputEnd || p.inputDone == 1000;
    } else if (p.stage == BakeStage::TileData) {
      sawTiles = true;
      EXPECT_EQ(p.tilesDone, lastTiles + 1 == 0 ? 1 : lastTiles + 1);
      lastTiles = p.tilesDone;
    }
  }
  EXPECT_TRUE(sawInputEnd);
  EXPECT_EQ(lastTiles, r.tilesX * r.tilesY);
  EXPECT_EQ(seen.back().stage, BakeStage::Done);
}

TEST(StreamBake, CancelDuringInputOrTilesLeavesTheOldFile) {
  FileBakeInput fin;
  BakeSettings s;
  ASSERT_NO_FATAL_FAILURE(loadInput(baketest::defaultLevel(), &fin, &s));
  s.tileSize = 16;
  const std::string out = tempPath("cancel.bin");
  for (BakeStage when : {BakeStage::Prepare, BakeStage::TileData}) {
    {
      std::ofstream old(out, std::ios::binary);
      old << "previous";
    }
    std::atomic<bool> cancel{false};
    BakeOptions opt;
    opt.threads = 2;
    opt.cancel = &cancel;
    opt.progress = [&](const BakeProgress& p) {
      if (p.stage == when && (when == BakeStage::Prepare || p.tilesDone >= 3)) cancel.store(true);
    };
    BakeReport r;
    EXPECT_FALSE(bakeFileToTileSet(fin, s, out, opt, &r));
    EXPECT_TRUE(r.cancelled) << r.error;
    EXPECT_EQ(r.error, "cancelled");
    const std::vector<uint8_t> left = readFile(out);
    EXPECT_EQ(std::string(left.begin(), left.end()), "previous");
    EXPECT_EQ(tempFilesLeft(out), 0);
  }
  std::remove(out.c_str());
}

TEST(StreamBake, BadInputAndUnwritableTempFolderAreNamed) {
  const std::string obj = tempPath("bad.obj");
  {
    std::ofstream f(obj);
    f << "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n";
  }
  FileBakeInput fin;
  BakeSettings s;
  std::string why;
  ASSERT_TRUE(loadFileBakeInput(obj, &fin, &s, &why)) << why;
  const std::string out = tempPath("bad.bin");
  BakeReport r;
  EXPECT_FALSE(bakeFileToTileSet(fin, s, out, BakeOptions(), &r));
  EXPECT_NE(r.error.find(obj + ":4: face index 4 out of range (the file has 3 vertices)"), std::string::npos) << r.error;
  EXPECT_FALSE(baketest::fileExists(out));
  EXPECT_EQ(tempFilesLeft(out), 0);

  EXPECT_FALSE(loadFileBakeInput(tempPath("missing.obj"), &fin, &s, &why));
  EXPECT_NE(why.find("missing.obj: cannot open"), std::string::npos) << why;

  ASSERT_TRUE(loadFileBakeInput(baketest::defaultLevel(), &fin, &s, &why)) << why;
  FileBakeOptions fopt;
  fopt.tempDir = "/nonexistent/navbench";
  EXPECT_FALSE(bakeFileToTileSet(fin, s, out, BakeOptions(), &r, fopt));
  EXPECT_NE(r.error.find("cannot create the temporary file /nonexistent/navbench/"), std::string::npos) << r.error;
  EXPECT_FALSE(baketest::fileExists(out));
  std::remove(obj.c_str());
}

// A level far too wide for the tile limit (1e6 wu: ~1e10 tiles, whose int product overflowed and
// passed the 16384-tile check; or one stray vertex at 1e30, past Recast's float -> int grid size)
// is refused with the tile count named: no crash (it threw std::length_error from a vector sized
// by the garbage grid), no temporary file left, the old output kept.
TEST(StreamBake, LevelTooWideForTheTileLimitIsRefused) {
  for (const char* far : {"1e6 0 1e6", "1e30 0 0", "-3e38 0 3e38"}) {
    SCOPED_TRACE(far);
    const std::string obj = tempPath("wide.obj");
    {
      std::ofstream f(obj);
      f << "v 0 0 0\nv 10 0 0\nv 0 0 10\nv " << far << "\nf 1 3 2\n";
    }
    FileBakeInput fin;
    BakeSettings s;
    std::string why;
    ASSERT_TRUE(loadFileBakeInput(obj, &fin, &s, &why)) << why;
    const std::string out = tempPath("wide.bin");
    {
      std::ofstream old(out, std::ios::binary);
      old << "previous";
    }
    BakeReport r;
    EXPECT_FALSE(bakeFileToTileSet(fin, s, out, BakeOptions(), &r));
    EXPECT_NE(r.error.find("tiles; at most 16384 fit"), std::string::npos) << r.error;
    EXPECT_EQ(tempFilesLeft(out), 0);
    const std::vector<uint8_t> left = readFile(out);
    EXPECT_EQ(std::string(left.begin(), left.end()), "previous");
    // Baker refuses it the same way.
    BakeInput in;
    ASSERT_TRUE(loadBakeInput(obj, &in, &s, &why)) << why;
    Baker baker;
    if (baker.setInput(std::move(in), &why)) {
      BakeReport br;
      EXPECT_FALSE(baker.bake(s, BakeOptions(), &br));
      EXPECT_NE(br.error.find("tiles; at most 16384 fit"), std::string::npos) << br.error;
    }
    std::remove(out.c_str());
    std::remove(obj.c_str());
  }
}

} // namespace
