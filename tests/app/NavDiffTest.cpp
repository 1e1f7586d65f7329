// The navmesh diff (issue 19): app/NavDiff.h on meshes changed in memory, and `navbench diff`
// through the real binary on levels baked with `navbench bake` from edited copies of
// assets/levels/default.json: a convex volume and an off-mesh link added. The expected tiles are
// computed here from the edit's bounds and the tile grid (tile size * cell size from the mesh's
// origin, widened by the bake's border of ceil(radius / cs) + 3 cells), not from the diff.
#include "TestUtil.h"
#include "app/NavDiff.h"
#include "nav/TileSetFile.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using navbench::NavDiffResult;
using navbench::NavTileKey;
using navbench::test::CommandResult;
using navbench::test::runCommand;
using json = nlohmann::json;
namespace fs = std::filesystem;

const std::string kSource = NAVBENCH_SOURCE_DIR;
const std::string kLevel = kSource + "/assets/levels/default.json";
const std::string kDefaultBin = kSource + "/assets/levels/default.bin";
const std::string kCases = kSource + "/tests/app/data/default_cases.txt";
const std::string kTmp = NAVBENCH_TEST_TMP;

std::string q(const std::string& s) { return "'" + s + "'"; }

CommandResult navbench(const std::string& args) { return runCommand(q(NAVBENCH_EXE) + " " + args); }

json readJson(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str(), nullptr, false);
}

struct DiffRun {
  CommandResult r;
  json j; ///< What it wrote to --json (discarded, not an object, when nothing or invalid).
};

/// `navbench diff a b <extra> --json kTmp/<name>.json`, a stale output removed first.
DiffRun diffRun(const std::string& a, const std::string& b, const std::string& name, const std::string& extra = "") {
  const std::string out = kTmp + "/" + name + ".json";
  fs::remove(out);
  DiffRun d;
  d.r = navbench("diff " + q(a) + " " + q(b) + extra + " --json " + q(out));
  d.j = readJson(out);
  return d;
}

/// default.json with its OBJ path made absolute, edited by `edit`, written to kTmp/<name>.json and
/// baked to kTmp/<name>.bin. Returns the .bin path ("" on failure, with a test failure).
std::string bakeLevel(const std::string& name, void (*edit)(json&)) {
  fs::create_directories(kTmp);
  json level = readJson(kLevel);
  EXPECT_FALSE(level.is_discarded());
  level["obj"] = kSource + "/assets/levels/" + level["obj"].get<std::string>();
  if (edit) edit(level);
  // Per process: ctest runs the tests of this file in parallel processes, each baking its own.
  const std::string stem = kTmp + "/" + name + "_" + std::to_string(::getpid());
  const std::string lf = stem + ".json", bin = stem + ".bin";
  std::ofstream(lf) << level.dump(2);
  fs::remove(bin);
  const CommandResult r = navbench("bake " + q(lf) + " -o " + q(bin) + " -q --threads 2");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  return r.exitCode == 0 ? bin : std::string();
}

// The edit: a water volume over hall A1, x 7.5..10.7, z 2.5..6.5 on the ground (y 0). It crosses
// the tile column boundary at x = 9.1 (origin -0.5, tiles 9.6 wu) and, widened by the 1.5 wu border,
// stays inside tile row 0 (z -0.5..9.1) and columns 0..1 (x -0.5..18.7): two tiles.
constexpr float kVolMin[2] = {7.5f, 2.5f}, kVolMax[2] = {10.7f, 6.5f};
void addVolume(json& level) {
  level["convexVolumes"].push_back({{"area", "water"},
                                    {"hmin", -0.5},
                                    {"hmax", 1.0},
                                    {"verts", {{kVolMin[0], 0, kVolMin[1]},
                                               {kVolMax[0], 0, kVolMin[1]},
                                               {kVolMax[0], 0, kVolMax[1]},
                                               {kVolMin[0], 0, kVolMax[1]}}}});
}
// The link: across courtyard B, from (45, 0, 15) in tile (4, 1) to (50, 0, 15) in tile (5, 1).
constexpr float kLinkStart[3] = {45, 0, 15}, kLinkEnd[3] = {50, 0, 15};
void addLink(json& level) {
  level["offMeshLinks"].push_back({{"start", {kLinkStart[0], kLinkStart[1], kLinkStart[2]}},
                                   {"end", {kLinkEnd[0], kLinkEnd[1], kLinkEnd[2]}},
                                   {"radius", 0.6},
                                   {"bidirectional", true},
                                   {"area", "jump"},
                                   {"flags", {"jump"}}});
}

/// The level's bake settings (cell size, tile size, agent radius).
struct Grid {
  float orig[3] = {0, 0, 0};
  float tileWidth = 0, cs = 0, border = 0;
};
Grid gridOf(const nav::NavMesh& mesh) {
  const json s = readJson(kLevel)["settings"];
  Grid g;
  const nav::NavMeshParams& p = mesh.getParams();
  std::memcpy(g.orig, p.orig, sizeof g.orig);
  g.cs = s["cellSize"].get<float>();
  g.tileWidth = float(s["tileSize"].get<int>()) * g.cs;
  g.border = float(int(std::ceil(s["agentRadius"].get<float>() / g.cs)) + 3) * g.cs;
  return g;
}

/// Tiles of `mesh` whose bounds, widened by the bake border, overlap the xz box [mn, mx].
std::set<std::vector<int>> tilesTouching(const nav::NavMesh& mesh, const float* mn, const float* mx) {
  const Grid g = gridOf(mesh);
  EXPECT_FLOAT_EQ(mesh.getParams().tileWidth, g.tileWidth);
  std::set<std::vector<int>> out;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (!t->header) continue;
    const float x0 = g.orig[0] + float(t->header->x) * g.tileWidth - g.border;
    const float z0 = g.orig[2] + float(t->header->y) * g.tileWidth - g.border;
    const float x1 = x0 + g.tileWidth + 2 * g.border, z1 = z0 + g.tileWidth + 2 * g.border;
    if (mx[0] >= x0 && mn[0] <= x1 && mx[1] >= z0 && mn[1] <= z1)
      out.insert({t->header->x, t->header->y, t->header->layer});
  }
  return out;
}

std::vector<int> tileOfPoint(const nav::NavMesh& mesh, const float* p) {
  const Grid g = gridOf(mesh);
  return {int(std::floor((p[0] - g.orig[0]) / g.tileWidth)), int(std::floor((p[2] - g.orig[2]) / g.tileWidth)), 0};
}

std::set<std::vector<int>> tileSet(const json& list) {
  std::set<std::vector<int>> s;
  for (const json& t : list) s.insert(t.get<std::vector<int>>());
  return s;
}

nav::NavMesh* loadMesh(const std::string& path, nav::NavMesh& mesh) {
  std::string why;
  EXPECT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(path, mesh, &why))) << why;
  return &mesh;
}

// ---- The library, on meshes changed in memory -------------------------------------------------

// The same tiles added in another order get other slots and refs: still identical.
TEST(NavDiff, SameTilesAtOtherRefsAreIdentical) {
  nav::NavMesh a, b;
  loadMesh(kDefaultBin, a);
  ASSERT_TRUE(nav::statusSucceeded(b.init(a.getParams())));
  for (int i = a.getMaxTiles() - 1; i >= 0; --i) {
    const nav::MeshTile* t = a.getTile(i);
    if (!t->header) continue;
    uint8_t* copy = new uint8_t[size_t(t->dataSize)];
    std::memcpy(copy, t->data, size_t(t->dataSize));
    nav::TileRef ref = 0;
    ASSERT_TRUE(nav::statusSucceeded(b.addTile(copy, t->dataSize, nav::TILE_FREE_DATA, 0, &ref, nullptr)));
  }
  ASSERT_GT(a.tileCount(), 2);
  ASSERT_NE(a.getTileRefAt(0, 0, 0), b.getTileRefAt(0, 0, 0)) << "the test needs other refs";
  NavDiffResult d;
  std::string why;
  ASSERT_TRUE(navbench::diffNavMeshes(&a, &b, &d, &why)) << why;
  EXPECT_TRUE(d.identical());
  EXPECT_EQ(d.tilesA, a.tileCount());
  EXPECT_EQ(d.tilesB, a.tileCount());
  EXPECT_TRUE(d.polysAdded.empty() && d.polysRemoved.empty() && d.polysChanged.empty());
}

// One poly's area and another's flags changed (as the prune tool's disable flag would): exactly
// those two, changed, in their tile; a tile removed: all its polys removed.
TEST(NavDiff, AreaFlagsAndRemovedTile) {
  nav::NavMesh a, b;
  loadMesh(kDefaultBin, a);
  loadMesh(kDefaultBin, b);
  const nav::TileRef t11 = b.getTileRefAt(1, 1, 0);
  const nav::MeshTile* tile = b.getTileByRef(t11);
  ASSERT_TRUE(tile && tile->header->polyCount >= 3);
  const nav::PolyRef base = b.getPolyRefBase(tile);
  ASSERT_TRUE(nav::statusSucceeded(b.setPolyArea(base | 2, 7)));
  ASSERT_TRUE(nav::statusSucceeded(b.setPolyFlags(base | 0, 0x10)));
  const nav::MeshTile* gone = b.getTileByRef(b.getTileRefAt(2, 2, 0));
  ASSERT_TRUE(gone);
  const int gonePolys = gone->header->polyCount;
  ASSERT_TRUE(nav::statusSucceeded(b.removeTile(b.getTileRefAt(2, 2, 0), nullptr, nullptr)));

  NavDiffResult d;
  ASSERT_TRUE(navbench::diffNavMeshes(&a, &b, &d, nullptr));
  ASSERT_EQ(d.tilesChanged.size(), 2u);
  EXPECT_TRUE((d.tilesChanged[0] == NavTileKey{1, 1, 0}));
  EXPECT_TRUE((d.tilesChanged[1] == NavTileKey{2, 2, 0}));
  ASSERT_EQ(d.polysChanged.size(), 2u);
  EXPECT_EQ(d.polysChanged[0].polyA, 0);
  EXPECT_EQ(d.polysChanged[0].polyB, 0);
  EXPECT_EQ(d.polysChanged[0].flagsB, 0x10);
  EXPECT_EQ(d.polysChanged[1].polyA, 2);
  EXPECT_EQ(d.polysChanged[1].areaB, 7);
  EXPECT_TRUE(d.polysAdded.empty());
  EXPECT_EQ(int(d.polysRemoved.size()), gonePolys);
  for (const auto& p : d.polysRemoved) EXPECT_TRUE((p.tile == NavTileKey{2, 2, 0}));
  // The removed tile's neighbours lost their links into it: relinked, not changed.
  EXPECT_FALSE(d.tilesRelinked.empty());
  for (const NavTileKey& k : d.tilesRelinked) EXPECT_LE(std::abs(k.x - 2) + std::abs(k.y - 2), 2);

  // The other way round: the same tiles, added instead of removed.
  NavDiffResult r;
  ASSERT_TRUE(navbench::diffNavMeshes(&b, &a, &r, nullptr));
  EXPECT_EQ(int(r.polysAdded.size()), gonePolys);
  EXPECT_TRUE(r.polysRemoved.empty());
  EXPECT_EQ(r.polysChanged.size(), 2u);
}

// ---- `navbench diff` through the binary --------------------------------------------------------

class DiffCli : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    s_base = bakeLevel("base", nullptr);
    s_volume = bakeLevel("volume", addVolume);
    s_link = bakeLevel("link", addLink);
  }
  static std::string s_base, s_volume, s_link;
};
std::string DiffCli::s_base, DiffCli::s_volume, DiffCli::s_link;

TEST_F(DiffCli, IdenticalFilesExitZeroWithEmptyLists) {
  ASSERT_FALSE(s_base.empty());
  // Our bake of default.json is the committed default.bin, and a copy of a file is identical to it.
  const std::string copy = kTmp + "/copy.bin", out = kTmp + "/identical.json";
  fs::copy_file(s_base, copy, fs::copy_options::overwrite_existing);
  for (const std::string& other : {copy, kDefaultBin}) {
    fs::remove(out);
    const CommandResult r = navbench("diff " + q(s_base) + " " + q(other) + " --cases " + q(kCases) + " --json " + q(out));
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("identical"), std::string::npos) << r.output;
    const json j = readJson(out);
    ASSERT_TRUE(j.is_object()) << r.output;
    for (const char* k : {"tilesChanged", "polysAdded", "polysRemoved", "polysChanged", "casesChanged"}) {
      ASSERT_TRUE(j.contains(k)) << k;
      EXPECT_TRUE(j[k].is_array() && j[k].empty()) << k << ": " << j[k].dump();
    }
    EXPECT_EQ(j.size(), 5u) << j.dump();
  }
  // Without --cases there is no casesChanged key.
  fs::remove(out);
  const CommandResult r = navbench("diff " + q(s_base) + " " + q(copy) + " --json " + q(out));
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_FALSE(readJson(out).contains("casesChanged"));
}

TEST_F(DiffCli, VolumeChangesExactlyTheTilesItsBoundsTouch) {
  ASSERT_FALSE(s_base.empty() || s_volume.empty());
  nav::NavMesh base;
  loadMesh(s_base, base);
  const std::set<std::vector<int>> expected = tilesTouching(base, kVolMin, kVolMax);
  ASSERT_EQ(expected, (std::set<std::vector<int>>{{0, 0, 0}, {1, 0, 0}})) << "the edit was meant to touch two tiles";

  const auto [r, j] = diffRun(s_base, s_volume, "volume");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  ASSERT_TRUE(j.is_object()) << r.output;
  EXPECT_EQ(tileSet(j["tilesChanged"]), expected) << r.output;
  EXPECT_EQ(j["tilesChanged"].size(), expected.size());
  // Polys are reported in those tiles only, and each changed tile has some.
  std::set<std::vector<int>> withPolys;
  int water = 0;
  for (const char* k : {"polysAdded", "polysRemoved", "polysChanged"})
    for (const json& p : j[k]) {
      const std::vector<int> t = p["tile"].get<std::vector<int>>();
      EXPECT_TRUE(expected.count(t)) << k << " in tile " << p["tile"].dump() << "\n" << r.output;
      withPolys.insert(t);
      // A new water poly (area 1) lies inside the volume.
      if (std::string(k) == "polysAdded" && p["area"] == 1) {
        ++water;
        const float cx = p["centroid"][0].get<float>(), cz = p["centroid"][2].get<float>();
        EXPECT_TRUE(cx >= kVolMin[0] - 0.31f && cx <= kVolMax[0] + 0.31f && cz >= kVolMin[1] - 0.31f &&
                    cz <= kVolMax[1] + 0.31f)
            << p.dump();
      }
    }
  EXPECT_EQ(withPolys, expected) << r.output;
  EXPECT_GT(water, 0) << r.output;
  EXPECT_NE(r.output.find("(0,0,0)"), std::string::npos) << r.output;
}

// The link is baked into the tile of its start (its poly, its end points); the tile where it lands
// reserves link room for it (a larger link budget): both tiles change, nothing else.
TEST_F(DiffCli, OffMeshLinkChangesItsStartAndEndTiles) {
  ASSERT_FALSE(s_base.empty() || s_link.empty());
  nav::NavMesh base;
  loadMesh(s_base, base);
  const std::vector<int> startTile = tileOfPoint(base, kLinkStart), endTile = tileOfPoint(base, kLinkEnd);
  ASSERT_EQ(startTile, (std::vector<int>{4, 1, 0}));
  ASSERT_EQ(endTile, (std::vector<int>{5, 1, 0}));

  const auto [r, j] = diffRun(s_base, s_link, "link");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  ASSERT_TRUE(j.is_object()) << r.output;
  EXPECT_EQ(tileSet(j["tilesChanged"]), (std::set<std::vector<int>>{startTile, endTile})) << r.output;
  // One poly added: the link, in its start tile, centred between its ends; the ground is unchanged.
  ASSERT_EQ(j["polysAdded"].size(), 1u) << r.output;
  const json& p = j["polysAdded"][0];
  EXPECT_EQ(p["tile"].get<std::vector<int>>(), startTile);
  EXPECT_TRUE(p["offMesh"].get<bool>());
  EXPECT_EQ(p["verts"], 2);
  EXPECT_NEAR(p["centroid"][0].get<float>(), (kLinkStart[0] + kLinkEnd[0]) / 2, 0.01);
  EXPECT_NEAR(p["centroid"][2].get<float>(), kLinkStart[2], 0.01);
  EXPECT_TRUE(j["polysRemoved"].empty()) << r.output;
  EXPECT_TRUE(j["polysChanged"].empty()) << r.output;
  EXPECT_NE(r.output.find("(5,1,0): 0 added, 0 removed, 0 changed polys (first difference: link budget)"),
            std::string::npos)
      << r.output;
}

TEST_F(DiffCli, CasesCrossingTheEditChangeOthersDoNot) {
  ASSERT_FALSE(s_base.empty() || s_volume.empty());
  const auto [r, j] = diffRun(s_base, s_volume, "cases", " --cases " + q(kCases));
  EXPECT_EQ(r.exitCode, 1) << r.output;
  ASSERT_TRUE(j.is_object() && j.contains("casesChanged")) << r.output;
  std::set<int> changed;
  for (const json& c : j["casesChanged"]) {
    changed.insert(c["i"].get<int>());
    EXPECT_TRUE(c.contains("before") && c.contains("after")) << c.dump();
    EXPECT_NE(c["before"], c["after"]) << c.dump(); // something visible changed
  }
  // Case 6: the clear ray along hall A, straight through the new water (x 7.5..10.7 at z ~4).
  EXPECT_TRUE(changed.count(6)) << r.output;
  // Far from the edit (tiles (0,0) and (1,0)): ramp (0), jump platform (4), pool (5), bridge (8).
  for (int far : {0, 4, 5, 8}) EXPECT_FALSE(changed.count(far)) << "case " << far << "\n" << r.output;
  EXPECT_NE(r.output.find("cases changed"), std::string::npos) << r.output;
}

TEST_F(DiffCli, BadInputExitsTwoNamingTheFile) {
  ASSERT_FALSE(s_base.empty());
  const std::string missing = kTmp + "/no_such_mesh.bin";
  CommandResult r = navbench("diff " + q(s_base) + " " + q(missing));
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find(missing), std::string::npos) << r.output;

  const std::string truncated = kTmp + "/truncated.bin";
  {
    std::ifstream in(s_base, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(bytes.size(), 200u);
    std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  r = navbench("diff " + q(truncated) + " " + q(s_base));
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find(truncated), std::string::npos) << r.output;

  const std::string noCases = kTmp + "/no_such_cases.txt";
  r = navbench("diff " + q(s_base) + " " + q(s_base) + " --cases " + q(noCases));
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find(noCases), std::string::npos) << r.output;

  r = navbench("diff " + q(s_base));
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("usage"), std::string::npos) << r.output;
}

} // namespace
