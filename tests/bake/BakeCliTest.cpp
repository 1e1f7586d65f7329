// `navbench bake` through the subcommand registry (the same code the navbench binary runs).
#include "BakeTestUtil.h"
#include "app/cli/Cli.h"
#include "nav/TileSetFile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>

namespace {

int runBake(std::vector<std::string> args) {
  const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand("bake");
  if (!cmd) return -100;
  args.insert(args.begin(), "bake");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return cmd->run(int(args.size()), argv.data());
}

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

} // namespace
