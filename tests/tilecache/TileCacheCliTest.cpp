// TileCacheCliTest.cpp: `navbench bake LEVEL --layers` and `navbench obstacles` through the
// subcommand registry (the code the navbench binary runs), on the project's default level: exit
// codes, messages, the written files load, the same level baked twice gives the same bytes, a
// path on the written navmesh goes around an obstacle that sits on the obstacle-free path, and
// removing every obstacle gives the obstacle-free navmesh back.
#include "LayerTestUtil.h"

#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/TileSetFile.h"
#include "nav/tilecache/TileCacheFile.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#ifdef NAVBENCH_TILECACHE_CLI
#include "app/cli/Cli.h"
#endif

namespace {

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_tccli_" + std::to_string(::getpid()) + "_" + name;
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

struct CliRun {
  int rc = -1;
  std::string out, err;
};

#ifdef NAVBENCH_TILECACHE_CLI
CliRun runCli(const char* name, std::vector<std::string> args) {
  CliRun r;
  const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand(name);
  if (!cmd) {
    r.err = std::string("subcommand ") + name + " is not registered";
    return r;
  }
  args.insert(args.begin(), name);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  r.rc = cmd->run(int(args.size()), argv.data());
  r.out = testing::internal::GetCapturedStdout();
  r.err = testing::internal::GetCapturedStderr();
  return r;
}
#define REQUIRE_CLI()
#else
CliRun runCli(const char*, std::vector<std::string>) { return CliRun(); }
#define REQUIRE_CLI() GTEST_SKIP() << "navbench_cli is not linked into tilecache_tests (NAVBENCH_APP off)"
#endif

/// A straight path from a to b on `mesh` with the default filter (all polys, default costs).
std::vector<float> straightPath(const nav::NavMesh& mesh, const float* a, const float* b) {
  nav::NavMeshQuery q;
  EXPECT_TRUE(nav::statusSucceeded(q.init(&mesh, 4096)));
  nav::QueryFilter filter;
  const float ext[3] = {2, 4, 2};
  nav::PolyRef sa = 0, sb = 0;
  float pa[3], pb[3];
  EXPECT_TRUE(nav::statusSucceeded(q.findNearestPoly(a, ext, &filter, &sa, pa)));
  EXPECT_TRUE(nav::statusSucceeded(q.findNearestPoly(b, ext, &filter, &sb, pb)));
  EXPECT_TRUE(sa && sb);
  nav::PolyRef corridor[1024];
  int n = 0;
  const nav::Status s = q.findPath(sa, sb, pa, pb, &filter, corridor, &n, 1024);
  EXPECT_TRUE(nav::statusSucceeded(s) && !nav::statusDetail(s, nav::PARTIAL_RESULT) && n > 0 && corridor[n - 1] == sb)
      << "no complete path";
  float pts[3 * 256];
  int np = 0;
  q.findStraightPath(pa, pb, corridor, n, pts, nullptr, nullptr, &np, 256);
  return std::vector<float>(pts, pts + np * 3);
}

/// Smallest xz distance from the path's segments to (cx, cz).
float closestApproach(const std::vector<float>& pts, float cx, float cz) {
  float best = 1e30f;
  for (size_t i = 3; i + 2 < pts.size(); i += 3) {
    const float ax = pts[i - 3], az = pts[i - 1], bx = pts[i], bz = pts[i + 2];
    const float dx = bx - ax, dz = bz - az;
    const float len2 = dx * dx + dz * dz;
    float t = len2 > 0 ? ((cx - ax) * dx + (cz - az) * dz) / len2 : 0;
    t = std::fmax(0.f, std::fmin(1.f, t));
    const float px = ax + t * dx - cx, pz = az + t * dz - cz;
    best = std::fmin(best, std::sqrt(px * px + pz * pz));
  }
  return best;
}

/// Per tile location: (polys, verts bytes) of each tile, for comparing meshes by content.
std::vector<std::vector<uint8_t>> tileVerts(const nav::NavMesh& mesh) {
  std::vector<std::vector<uint8_t>> out;
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x)
      for (int l = 0; l < 32; ++l) {
        const nav::TileRef ref = mesh.getTileRefAt(x, y, l);
        if (!ref) continue;
        const nav::MeshTile* t = mesh.getTileByRef(ref);
        std::vector<uint8_t> v = {uint8_t(x), uint8_t(y), uint8_t(l), uint8_t(t->header->polyCount)};
        const uint8_t* p = reinterpret_cast<const uint8_t*>(t->verts);
        v.insert(v.end(), p, p + size_t(t->header->vertCount) * 12);
        out.push_back(std::move(v));
      }
  return out;
}

class TileCacheCli : public testing::Test {
protected:
  static void SetUpTestSuite() {
#ifdef NAVBENCH_TILECACHE_CLI
    s_cache = tempPath("default.tcache");
    s_bake = runCli("bake", {tctest::defaultLevelPath(), "--layers", "-o", s_cache, "--threads", "2"});
#endif
  }
  static void TearDownTestSuite() { std::remove(s_cache.c_str()); }
  static std::string s_cache;
  static CliRun s_bake;
};
std::string TileCacheCli::s_cache;
CliRun TileCacheCli::s_bake;

TEST_F(TileCacheCli, BakesTheDefaultLevelIntoLayers) {
  REQUIRE_CLI();
  ASSERT_EQ(s_bake.rc, 0) << s_bake.out << s_bake.err;
  EXPECT_NE(s_bake.out.find("wrote " + s_cache), std::string::npos) << s_bake.out;
  EXPECT_NE(s_bake.out.find("layers "), std::string::npos) << s_bake.out;
  EXPECT_NE(s_bake.out.find("off-mesh links 2"), std::string::npos) << s_bake.out;
  EXPECT_NE(s_bake.out.find("(lz4)"), std::string::npos) << s_bake.out;
  EXPECT_NE(s_bake.out.find("tiles "), std::string::npos) << s_bake.out; // progress
  nav::tilecache::TileCacheFileData d;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::tilecache::loadTileCacheFile(s_cache, &d, &why))) << why;
  EXPECT_EQ(d.params.width, 32); // default.json's tileSize
  EXPECT_EQ(d.links.size(), 2u);

  // The same level baked again (another thread count) gives the same file, byte for byte.
  const std::string again = tempPath("again.tcache");
  const CliRun r = runCli("bake", {tctest::defaultLevelPath(), "--layers", "-o", again, "--threads", "1", "-q"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(readBytes(again), readBytes(s_cache));
  std::remove(again.c_str());
}

TEST_F(TileCacheCli, BakeLayersRefusals) {
  REQUIRE_CLI();
  const std::string out = tempPath("refused.tcache");
  CliRun r = runCli("bake", {tctest::defaultLevelPath(), "--layers", "--solo", "-o", out});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("--solo contradicts it"), std::string::npos) << r.err;
  r = runCli("bake", {tctest::defaultLevelPath(), "--layers", "--tile-size", "300", "-o", out});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("too large for tile cache layers"), std::string::npos) << r.err;
  EXPECT_FALSE(tctest::fileExists(out));
  // A bare OBJ takes TempObstacles' tile size.
  r = runCli("bake", {tctest::sourceDir() + "/assets/levels/default.obj", "--layers", "-o", out, "-q"});
  ASSERT_EQ(r.rc, 0) << r.err;
  nav::tilecache::TileCacheFileData d;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::tilecache::loadTileCacheFile(out, &d, &why))) << why;
  EXPECT_EQ(d.params.width, 48);
  EXPECT_TRUE(d.links.empty());
  std::remove(out.c_str());
}

TEST_F(TileCacheCli, ObstacleIsAvoidedAndRemovingItRestoresTheMesh) {
  REQUIRE_CLI();
  ASSERT_EQ(s_bake.rc, 0) << s_bake.err;
  // Hall A1 (x 0..20, z 0..10, ground y 0; default_level_features.md): a straight walk along
  // z = 7 from x 9 to x 18, and a cylinder on that line.
  const float a[3] = {9, 0, 7}, b[3] = {18, 0, 7};
  const float cx = 13.5f, cz = 7, radius = 1.5f;
  const std::string none = tempPath("none.txt"), one = tempPath("one.txt"), gone = tempPath("gone.txt");
  writeText(none, "# no obstacles\n");
  writeText(one, "cylinder 13.5 -0.5 7 1.5 3\n");
  writeText(gone, "cylinder 13.5 -0.5 7 1.5 3\nbox 2 -1 2 4 2 3\nobox 16 -1 3 1 2 0.5 0.7\nremove 2\nremove 1\nremove 3\n");
  const std::string binNone = tempPath("none.bin"), binOne = tempPath("one.bin"), binGone = tempPath("gone.bin");

  CliRun r = runCli("obstacles", {s_cache, none, "-o", binNone});
  ASSERT_EQ(r.rc, 0) << r.err;
  r = runCli("obstacles", {s_cache, one, "-o", binOne});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("1 added, 0 removed, 1 left"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote " + binOne), std::string::npos) << r.out;
  r = runCli("obstacles", {s_cache, gone, "-o", binGone});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("3 added, 3 removed, 0 left"), std::string::npos) << r.out;

  nav::NavMesh meshNone, meshOne, meshGone;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(binNone, meshNone, &why))) << why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(binOne, meshOne, &why))) << why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(binGone, meshGone, &why))) << why;

  // Without the obstacle the path runs straight through its footprint; with it, the path keeps
  // out of the footprint shrunk by a tolerance (cells are marked by their centres, and contours
  // are simplified by maxSimplificationError = 1.3 cells of 0.3 wu).
  const std::vector<float> pNone = straightPath(meshNone, a, b);
  EXPECT_LT(closestApproach(pNone, cx, cz), 0.1f);
  const std::vector<float> pOne = straightPath(meshOne, a, b);
  const float tolerance = 0.3f * 1.3f + 0.3f;
  EXPECT_GT(closestApproach(pOne, cx, cz), radius - tolerance);
  EXPECT_GT(pOne.size(), pNone.size());

  // Adding three obstacles and removing them all gives the obstacle-free tiles back.
  EXPECT_EQ(tileVerts(meshGone), tileVerts(meshNone));
  EXPECT_NE(tileVerts(meshOne), tileVerts(meshNone));
  for (const std::string& p : {none, one, gone, binNone, binOne, binGone}) std::remove(p.c_str());
}

TEST_F(TileCacheCli, ObstacleRefusals) {
  REQUIRE_CLI();
  ASSERT_EQ(s_bake.rc, 0) << s_bake.err;
  const std::string bad = tempPath("bad.txt"), out = tempPath("bad.bin");
  writeText(bad, "cylinder 1 0 1 1 1\nteapot 1 2 3\nremove 4\n");
  CliRun r = runCli("obstacles", {s_cache, bad, "-o", out});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find(bad + ":2: unknown kind 'teapot'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(bad + ":3: remove 4"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nothing written"), std::string::npos) << r.err;
  EXPECT_FALSE(tctest::fileExists(out));

  // A damaged cache is named and nothing is written.
  const std::string damaged = tempPath("damaged.tcache");
  std::vector<uint8_t> bytes = readBytes(s_cache);
  bytes.resize(bytes.size() / 2);
  {
    std::ofstream f(damaged, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  writeText(bad, "cylinder 1 0 1 1 1\n");
  r = runCli("obstacles", {damaged, bad, "-o", out});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find(damaged + ": checksum mismatch"), std::string::npos) << r.err;
  EXPECT_FALSE(tctest::fileExists(out));
  // A tile set is not a tile cache.
  r = runCli("obstacles", {tctest::sourceDir() + "/assets/levels/default.bin", bad, "-o", out});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("wrong magic"), std::string::npos) << r.err;
  // Usage errors.
  r = runCli("obstacles", {s_cache, bad});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("no output file given"), std::string::npos) << r.err;
  r = runCli("obstacles", {s_cache, bad, "-o", out, "--frobnicate"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_FALSE(tctest::fileExists(out));
  for (const std::string& p : {bad, damaged}) std::remove(p.c_str());
}

} // namespace
