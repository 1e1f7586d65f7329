// `navbench bake` through the subcommand registry (the same code the navbench binary runs).
#include "tests/support/Sanitizers.h"
#include "BakeCliRun.h"
#include "BakeTestUtil.h"
#include "nav/TileSetFile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef NAVBENCH_BAKE_CLI
#include "app/cli/WorldGen.h"
#include "nav/bake/LevelFile.h"
#endif

namespace {

int runBake(std::vector<std::string> args) { return baketest::runBakeCli(std::move(args)); }

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_bakecli_" + std::to_string(::getpid()) + "_" + name;
}

TEST(BakeCli, BakesTheDefaultLevelFileToATileSet) {
  const std::string out = tempPath("default.bin");
  testing::internal::CaptureStdout();
  const int rc = runBake({baketest::defaultLevel(), "-o", out, "--threads", "2"});
  const std::string text = testing::internal::GetCapturedStdout();
  ASSERT_EQ(rc, 0) << text;
  EXPECT_NE(text.find("tiles "), std::string::npos) << text;
  EXPECT_NE(text.find("polys "), std::string::npos) << text;
  EXPECT_NE(text.find("bytes "), std::string::npos) << text;
  EXPECT_NE(text.find("rasterize"), std::string::npos) << text;
  nav::NavMesh mesh;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(out, mesh, &why))) << why;
  EXPECT_GT(mesh.tileCount(), 1);
  // The level's two jump links are in the tiles.
  int offMesh = 0;
  for (int i = 0; i < mesh.getMaxTiles(); ++i)
    if (mesh.getTile(i)->header) offMesh += mesh.getTile(i)->header->offMeshConCount;
  EXPECT_EQ(offMesh, 2);

  // The same bake through the library gives the same file.
  nav::bake::BakeInput in;
  nav::bake::BakeSettings s;
  ASSERT_TRUE(baketest::loadLevel(baketest::defaultLevel(), &in, &s, &why)) << why;
  nav::bake::Baker baker;
  ASSERT_TRUE(baker.setInput(in, &why)) << why;
  nav::bake::BakeReport r;
  ASSERT_TRUE(baker.bake(s, nav::bake::BakeOptions(), &r)) << r.error;
  std::vector<uint8_t> lib;
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSet(*baker.navMesh(), lib, &why))) << why;
  std::ifstream f(out, std::ios::binary);
  std::vector<uint8_t> file((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(baketest::firstDiff(file, lib), -1);
  // And the library's writer equals RecastDemo's saveAll layout.
  EXPECT_EQ(baketest::firstDiff(lib, baketest::saveAllOurs(*baker.navMesh())), -1);
  std::remove(out.c_str());
}

// The committed assets/levels/default.bin is what baking the committed default.json gives now.
TEST(BakeCli, CommittedDefaultBinIsUpToDate) {
  const std::string bin = baketest::sourceDir() + "/assets/levels/default.bin";
  std::ifstream f(bin, std::ios::binary);
  ASSERT_TRUE(f.good()) << "missing " << bin;
  std::vector<uint8_t> committed((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  nav::bake::BakeInput in;
  nav::bake::BakeSettings s;
  std::string why;
  ASSERT_TRUE(baketest::loadLevel(baketest::defaultLevel(), &in, &s, &why)) << why;
  nav::bake::Baker baker;
  ASSERT_TRUE(baker.setInput(in, &why)) << why;
  nav::bake::BakeReport r;
  ASSERT_TRUE(baker.bake(s, nav::bake::BakeOptions(), &r)) << r.error;
  std::vector<uint8_t> now;
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSet(*baker.navMesh(), now, &why))) << why;
  EXPECT_EQ(baketest::firstDiff(committed, now), -1)
      << bin << " is stale; re-bake it: navbench bake assets/levels/default.json -o assets/levels/default.bin";
}

TEST(BakeCli, SoloAndTileSizeOptions) {
  const std::string out = tempPath("solo.bin");
  testing::internal::CaptureStdout();
  int rc = runBake({baketest::defaultObj(), "-o", out, "--solo", "-q"});
  testing::internal::GetCapturedStdout();
  ASSERT_EQ(rc, 0);
  nav::NavMesh mesh;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(out, mesh, &why))) << why;
  EXPECT_EQ(mesh.tileCount(), 1);

  testing::internal::CaptureStdout();
  rc = runBake({baketest::defaultObj(), "-o", out, "--tile-size", "64", "-q"});
  testing::internal::GetCapturedStdout();
  ASSERT_EQ(rc, 0);
  nav::NavMesh mesh2;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(out, mesh2, &why))) << why;
  EXPECT_EQ(mesh2.getParams().tileWidth, 64 * 0.3f);

  // A settings file over the level's settings.
  const std::string settings = tempPath("settings.json");
  {
    std::ofstream sf(settings);
    sf << R"({"tiled": false, "agentRadius": 0.3})";
  }
  testing::internal::CaptureStdout();
  rc = runBake({baketest::defaultObj(), "-o", out, "--settings", settings, "-q"});
  testing::internal::GetCapturedStdout();
  ASSERT_EQ(rc, 0);
  nav::NavMesh mesh3;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(out, mesh3, &why))) << why;
  EXPECT_EQ(mesh3.tileCount(), 1);
  EXPECT_FLOAT_EQ(mesh3.getTile(0)->header->walkableRadius, 0.3f);
  std::remove(settings.c_str());
  std::remove(out.c_str());
}

TEST(BakeCli, ErrorsGoToStderrWithNonZeroExit) {
  const std::string out = tempPath("never.bin");
  struct Case {
    std::vector<std::string> args;
    const char* expect;
  } cases[] = {
      {{"/no/such/level.obj", "-o", out}, "/no/such/level.obj"},
      {{baketest::defaultObj()}, "no output file"},
      {{baketest::defaultObj(), "-o", out, "--tile-size", "4"}, "tileSize = 4"},
      {{baketest::defaultObj(), "-o", out, "--threads", "x"}, "--threads"},
      {{baketest::defaultObj(), "-o", out, "--bogus"}, "unknown option"},
      {{baketest::defaultObj(), "-o", out, "--settings", "/no/such/settings.json"}, "/no/such/settings.json"},
      {{baketest::defaultObj(), "-o", "/no/such/dir/out.bin", "-q"}, "cannot write"},
  };
  for (const Case& c : cases) {
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    const int rc = runBake(c.args);
    testing::internal::GetCapturedStdout();
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(rc, 0) << c.expect;
    EXPECT_NE(err.find(c.expect), std::string::npos) << "expected '" << c.expect << "' in: " << err;
  }
  EXPECT_FALSE(baketest::fileExists(out));
}

// The summary shows the bake's grid line. A level with a degenerate triangle puts a warning first
// in the bake's log (before "input: ..." and "grid: ..."); the summary took the log's second line
// and so showed the input line instead. Tiled (file bake) and solo (Baker) both.
TEST(BakeCli, SummaryShowsTheGridLineWhenAWarningComesFirst) {
  const std::string obj = tempPath("degenerate.obj");
  {
    std::ofstream f(obj);
    // A 30 x 30 m floor (two triangles) and a zero-area triangle (three points on a line).
    f << "v 0 0 0\nv 30 0 0\nv 30 0 30\nv 0 0 30\nv 5 0 5\nv 6 0 6\nv 7 0 7\n"
         "f 1 3 2\nf 1 4 3\nf 5 6 7\n";
  }
  const std::string out = tempPath("degenerate.bin");
  struct Case {
    std::vector<std::string> options;
    const char* layout;
  } cases[] = {{{"--tile-size", "32"}, "tiles of 32 cells"}, {{"--solo"}, "solo mesh"}};
  for (const Case& c : cases) {
    std::vector<std::string> args = {obj, "-o", out, "-q", "--threads", "1"};
    args.insert(args.end(), c.options.begin(), c.options.end());
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    const int rc = runBake(args);
    const std::string text = testing::internal::GetCapturedStdout();
    const std::string err = testing::internal::GetCapturedStderr();
    ASSERT_EQ(rc, 0) << text << err;
    EXPECT_NE(err.find("warning: 1 of 3 triangles are degenerate"), std::string::npos) << err;

    // The first line of the summary is the grid line, and the tile grid in it is the one the
    // "tiles N (grid X x Y)" line counts.
    std::istringstream lines(text);
    std::string first;
    std::getline(lines, first);
    EXPECT_EQ(first.compare(0, 6, "grid: "), 0) << c.layout << ": the summary starts with\n" << first << "\nin\n" << text;
    EXPECT_NE(first.find("cells of 0.3 x 0.2 wu"), std::string::npos) << first;
    EXPECT_NE(first.find(c.layout), std::string::npos) << first;
    EXPECT_EQ(text.find("input: "), std::string::npos) << text;
    EXPECT_EQ(text.find("warning"), std::string::npos) << "warnings go to stderr only: " << text;
    int tiles = 0, gx = 0, gy = 0;
    const size_t at = text.find("\ntiles ");
    ASSERT_NE(at, std::string::npos) << text;
    ASSERT_EQ(std::sscanf(text.c_str() + at + 1, "tiles %d (grid %d x %d)", &tiles, &gx, &gy), 3) << text;
    if (std::string(c.layout) == "solo mesh") {
      EXPECT_EQ(gx * gy, 1);
    } else {
      // 30 m of 0.3 m cells: 100 cells, 4 tiles of 32 per side.
      EXPECT_EQ(gx, 4);
      EXPECT_EQ(gy, 4);
      EXPECT_NE(first.find("; " + std::to_string(gx) + " x " + std::to_string(gy) + " tiles of"), std::string::npos) << first;
    }
  }
  std::remove(obj.c_str());
  std::remove(out.c_str());
}

#ifdef NAVBENCH_BAKE_CLI

/// Runs the bake_cli binary with `args` and returns its peak RSS [Unit: KiB] (-1 if it failed).
long peakRssOfBake(const std::vector<std::string>& args) {
  std::vector<std::string> all = {NAVBENCH_BAKE_CLI};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  rusage ru{};
  if (::wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return ru.ru_maxrss;
}

/// A generated world's level file in the temp folder.
std::string worldLevel(float size) {
  const std::string base = tempPath("world" + std::to_string(int(size)));
  navbench::worldgen::WorldParams p;
  p.size = size;
  p.seed = 1;
  std::string why;
  if (!navbench::worldgen::writeWorldObj(p, base + ".obj", nullptr, &why)) return "";
  nav::bake::Level lv;
  lv.objPath = base + ".obj";
  lv.settings.tiled = true;
  lv.settings.tileSize = 64;
  if (!nav::bake::saveLevelFile(base + ".json", lv, &why)) return "";
  return base + ".json";
}

// `navbench bake` streams the level (nav/bake/StreamBake): its peak memory is the tiles in flight,
// not the level. From a 256 m world (37k triangles) to a 1 km world (554k) the peak RSS grew by
// 16.6 MiB when the whole level was held (~32 B per added triangle: triangles, vertices, grid,
// the tile set and its file image); now it grows by about 1 MiB (the bigger tile index and
// output rows).
TEST(BakeCli, PeakMemoryDoesNotGrowWithTheWorld) {
#ifdef NAVBENCH_RSS_MEANINGLESS
  GTEST_SKIP() << "peak RSS means nothing under a sanitizer (shadow memory, quarantine)";
#else
  const std::string small = worldLevel(256), large = worldLevel(1000);
  ASSERT_FALSE(small.empty());
  ASSERT_FALSE(large.empty());
  const std::string out = tempPath("rss.bin");
  const long rssSmall = peakRssOfBake({small, "-o", out, "--threads", "2", "-q"});
  const long rssLarge = peakRssOfBake({large, "-o", out, "--threads", "2", "-q"});
  ASSERT_GT(rssSmall, 0) << NAVBENCH_BAKE_CLI << " failed on " << small;
  ASSERT_GT(rssLarge, 0) << NAVBENCH_BAKE_CLI << " failed on " << large;
  // A forked child's peak RSS starts at its parent's (the pages it maps until execv): if this test
  // process were as big as the bake, both numbers would be ours and the growth 0 whatever the bake did.
  rusage self{};
  ASSERT_EQ(::getrusage(RUSAGE_SELF, &self), 0);
  if (self.ru_maxrss >= rssSmall)
    GTEST_SKIP() << "this test process (" << self.ru_maxrss << " KiB peak, e.g. after other tests in it) hides the bake's peak RSS ("
                 << rssSmall << " KiB): run this test alone (ctest does)";
  const long growthKb = rssLarge - rssSmall;
  std::printf("peak RSS of the bake: 256 m world %.1f MiB, 1 km world %.1f MiB (+%.1f MiB for 517k more triangles); "
              "this test process %.1f MiB\n",
              rssSmall / 1024.0, rssLarge / 1024.0, growthKb / 1024.0, self.ru_maxrss / 1024.0);
  EXPECT_LT(growthKb, 6 * 1024) << "the bake's memory grows with the level (256 m: " << rssSmall << " KiB, 1 km: " << rssLarge
                                << " KiB)";
  for (const std::string& l : {small, large}) {
    std::remove(l.c_str());
    std::remove((l.substr(0, l.size() - 5) + ".obj").c_str());
  }
  std::remove(out.c_str());
#endif
}
#endif

} // namespace
