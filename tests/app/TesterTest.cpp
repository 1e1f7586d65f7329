// The tester modes of the real navbench binary, driven headless (SDL_VIDEODRIVER=offscreen)
// through its CLI: the default level opens with its default.bin, two clicks at known window
// positions set start (Shift) and end, and --dump-state writes the active tool's inputs and
// results: clicks, keys, frames and options reach the tools, and the picture shows the path.
// What each mode computes is checked headless in tests/model (TesterModesTest, StepperModelTest).
// Plus unit tests of NavState (the app's non-GL navmesh holder).
#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/Settings.h"
#include "render/DebugDraw.h"
#include "render/Screenshot.h"
#include "TestUtil.h"
#include "nav/NavMeshQuery.h"
#include "nav/TileSetFile.h"
#include "nav/NavAreas.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct AppRun : navbench::test::CommandResult {
  json state;
};

std::string tmpDir() {
  fs::create_directories(NAVBENCH_TEST_TMP);
  return NAVBENCH_TEST_TMP;
}

AppRun runApp(const std::string& args, const std::string& tag) {
  AppRun r;
  const std::string dump = tmpDir() + "/" + tag + ".json";
  fs::remove(dump);
  static_cast<navbench::test::CommandResult&>(r) =
      navbench::test::runCommand(navbench::test::headlessEnv(tmpDir() + "/config") + "'" + NAVBENCH_EXE + "' " + args +
                                 " --size 1280x720 --screenshot '" + tmpDir() + "/" + tag + ".png' --dump-state '" + dump + "'");
  std::ifstream f(dump);
  if (f) r.state = json::parse(f, nullptr, false);
  return r;
}

// Start on the floor in front of the central block, end on the far floor (window 1280x720, default camera).
const std::string kClicks = "--click 680,420,shift --click 870,190";

std::string levelArg() { return std::string("'") + NAVBENCH_DEFAULT_LEVEL + "'"; }
std::string defaultBin() { return (fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path() / "default.bin").string(); }

/// nav computed directly (not through the app's tool code).
struct Direct {
  nav::NavMesh mesh;
  nav::NavMeshQuery query;
  nav::QueryFilter filter;
  Direct() {
    std::string why;
    EXPECT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(defaultBin(), mesh, &why))) << why;
    query.init(&mesh, 4096);
    nav::applyDefaultAreaCosts(filter);
    filter.setIncludeFlags(nav::FLAG_ALL ^ nav::FLAG_DISABLED);
  }
  nav::PolyRef nearest(const float* p, float* snapped = nullptr) {
    const float ext[3] = {2, 4, 2};
    nav::PolyRef ref = 0;
    float tmp[3];
    query.findNearestPoly(p, ext, &filter, &ref, snapped ? snapped : tmp);
    return ref;
  }
};

void vec3(const json& j, float* out) {
  for (int i = 0; i < 3; ++i) out[i] = j.at(size_t(i)).get<float>();
}

AppRun runMode(const char* tool, const char* tag) {
  AppRun r = runApp(levelArg() + " --tool '" + tool + "' " + kClicks, tag);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(r.state.is_object()) << r.output;
  if (r.state.is_object()) {
    EXPECT_EQ(r.state["activeTool"], tool);
    EXPECT_EQ(r.state["nav"], fs::path(defaultBin()).string()) << "default.bin next to default.obj must auto-open";
  }
  return r;
}

bool hasStartEnd(const json& s) { return s.contains("start") && s.contains("end"); }

std::vector<nav::PolyRef> refList(const json& j) { return j.get<std::vector<nav::PolyRef>>(); }
std::vector<nav::PolyRef> refList(const nav::PolyRef* refs, int n) { return std::vector<nav::PolyRef>(refs, refs + n); }

/// The dumped points `got` ([(x, y, z) * n]) equal pts within 1e-4 (a fatal failure when the
/// counts differ: call through ASSERT_NO_FATAL_FAILURE).
void expectPoints(const json& got, const float* pts, int n) {
  const std::vector<float> v = got.get<std::vector<float>>();
  ASSERT_EQ(v.size(), size_t(n) * 3);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], pts[i], 1e-4f) << i;
}

/// The tester modes' tests: nav computed directly on the points a run dumped.
class TesterGui : public ::testing::Test {
protected:
  /// Reads the dumped start (and end, unless !withEnd) into a (b) with their nearest polys
  /// sr (er) found directly; a fatal failure when they are missing (call through
  /// ASSERT_NO_FATAL_FAILURE).
  void readPoints(const json& s, bool withEnd = true) {
    if (withEnd) ASSERT_TRUE(hasStartEnd(s)) << s.dump();
    else ASSERT_TRUE(s.contains("start")) << s.dump();
    if (!d) d = std::make_unique<Direct>();
    vec3(s["start"], a);
    sr = d->nearest(a);
    if (withEnd) {
      vec3(s["end"], b);
      er = d->nearest(b);
    }
  }
  std::unique_ptr<Direct> d; ///< Made by readPoints (the tests without points need no nav).
  float a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
  nav::PolyRef sr = 0, er = 0;
};

} // namespace

TEST(NavState, LoadsDefaultBinAndKeepsItOnBadInput) {
  navbench::NavState ns;
  std::string err;
  ASSERT_TRUE(ns.loadBin(defaultBin(), err)) << err;
  const int polys = ns.polyCount();
  EXPECT_GT(polys, 10);
  EXPECT_GT(ns.tileCount(), 1);
  const std::string bad = tmpDir() + "/garbage.bin";
  std::ofstream(bad, std::ios::binary) << "this is not a tile set";
  EXPECT_FALSE(ns.loadBin(bad, err));
  EXPECT_NE(err.find("garbage.bin"), std::string::npos) << err;
  EXPECT_FALSE(ns.loadBin(tmpDir() + "/missing.bin", err));
  EXPECT_NE(err.find("missing.bin"), std::string::npos) << err;
  EXPECT_TRUE(ns.loaded());
  EXPECT_EQ(ns.path(), defaultBin());
  EXPECT_EQ(ns.polyCount(), polys);
  // The detail mesh covers the navmesh: every ground poly's centre is under/over one of its tris.
  navbench::TriMesh m = ns.detailMesh();
  EXPECT_GT(m.triCount(), polys / 2);
  EXPECT_LT(m.boundsMin.x, m.boundsMax.x);
  EXPECT_EQ(navbench::siblingBin(NAVBENCH_DEFAULT_LEVEL), defaultBin());
  EXPECT_EQ(navbench::siblingBin(tmpDir() + "/nothing.obj"), "");
}

TEST_F(TesterGui, PathfindStraightMatchesNav) {
  AppRun r = runMode("Pathfind Straight", "straight");
  const json& s = r.state["toolState"];
  ASSERT_NO_FATAL_FAILURE(readPoints(s));
  std::vector<nav::PolyRef> path(2048);
  int n = 0;
  d->query.findPath(sr, er, a, b, &d->filter, path.data(), &n, 2048);
  path.resize(size_t(n));
  EXPECT_EQ(refList(s["corridor"]), path);
  std::vector<float> pts(2048 * 3);
  std::vector<uint8_t> flags(2048);
  int nc = 0;
  ASSERT_TRUE(nav::statusSucceeded(
      d->query.findStraightPath(a, b, path.data(), n, pts.data(), flags.data(), nullptr, &nc, 2048, 0)));
  ASSERT_GE(nc, 2);
  ASSERT_NO_FATAL_FAILURE(expectPoints(s["straight"], pts.data(), nc));
  const std::vector<int> gotFlags = s["straightFlags"].get<std::vector<int>>();
  EXPECT_EQ(gotFlags.front() & nav::STRAIGHTPATH_START, nav::STRAIGHTPATH_START);
  EXPECT_EQ(gotFlags.back() & nav::STRAIGHTPATH_END, nav::STRAIGHTPATH_END);
}

// --shortest reaches the path modes (what it computes: tests/model/TesterModesTest.cpp).
TEST_F(TesterGui, ShortestOptionReachesThePathModes) {
  AppRun on = runApp(levelArg() + " --tool 'Pathfind Straight' --shortest " + kClicks, "shortest_on");
  ASSERT_EQ(on.exitCode, 0) << on.output;
  EXPECT_FALSE(on.state["toolState"]["shortestPath"].empty()) << on.state.dump();
  AppRun off = runMode("Pathfind Straight", "shortest_off");
  EXPECT_FALSE(off.state["toolState"].contains("shortestLen"));
}

TEST_F(TesterGui, BinAloneIsClickedDirectly) {
  // No OBJ: the navmesh's own detail triangles are the level; clicks still set start and end.
  AppRun r = runApp("'" + defaultBin() + "' --tool 'Pathfind Straight' --click 700,470,shift --click 800,250", "binonly");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(r.state["levelFromNav"].get<bool>());
  EXPECT_EQ(r.state["nav"], defaultBin());
  const json& s = r.state["toolState"];
  EXPECT_TRUE(hasStartEnd(s)) << s.dump();
  EXPECT_NE(s["startRef"].get<nav::PolyRef>(), 0u);
  EXPECT_NE(s["endRef"].get<nav::PolyRef>(), 0u);
  EXPECT_FALSE(s["corridor"].empty());
}

TEST_F(TesterGui, BadBinIsReportedWithFileName) {
  const std::string bad = tmpDir() + "/broken.bin";
  std::ofstream(bad, std::ios::binary) << "MSET but not really";
  AppRun r = runApp(levelArg() + " '" + bad + "'", "badbin");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("broken.bin"), std::string::npos) << r.output;
}

TEST_F(TesterGui, PathfindSlicedFinishesOverFramesAndMatchesNav) {
  AppRun r = runApp(levelArg() + " --tool 'Pathfind Sliced' --frames 80 " + kClicks, "sliced");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json& s = r.state["toolState"];
  ASSERT_NO_FATAL_FAILURE(readPoints(s));
  EXPECT_FALSE(s["running"].get<bool>()) << "the search should finish within the frames";
  EXPECT_GT(s["iterations"].get<int>(), 2) << "a few iterations per frame, not all at once";
  ASSERT_TRUE(nav::statusInProgress(d->query.initSlicedFindPath(sr, er, a, b, &d->filter)));
  int iters = 0;
  nav::Status st;
  do {
    int done = 0;
    st = d->query.updateSlicedFindPath(1, &done);
    iters += done;
  } while (nav::statusInProgress(st));
  nav::PolyRef path[2048];
  int n = 0;
  d->query.finalizeSlicedFindPath(path, &n, 2048);
  EXPECT_EQ(s["iterations"].get<int>(), iters);
  EXPECT_EQ(refList(s["corridor"]), refList(path, n));
}

TEST_F(TesterGui, LevelFileWithoutBinIsBakedInTheBackground) {
  // default.json next to its OBJ but without default.bin: the app bakes it (BakeJob) at load and
  // the headless run waits for the bake; the result equals the committed default.bin in size.
  const fs::path dir = fs::path(tmpDir()) / "bake_level";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path src = fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path();
  for (const char* f : {"default.obj", "default.json", "default.mtl"}) fs::copy_file(src / f, dir / f);
  AppRun r = runApp("'" + (dir / "default.json").string() + "' --tool 'Pathfind Straight' " + kClicks, "bakejson");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("bake done"), std::string::npos) << r.output;
  EXPECT_NE(r.state["nav"].get<std::string>().find("(baked)"), std::string::npos) << r.state.dump();
  navbench::NavState ref;
  std::string err;
  ASSERT_TRUE(ref.loadBin(defaultBin(), err)) << err;
  EXPECT_EQ(r.state["navPolys"].get<int>(), ref.polyCount());
  EXPECT_FALSE(r.state["toolState"]["corridor"].empty());
  EXPECT_EQ(r.state["logErrors"].get<int>(), 0);
}

TEST(SettingsCamera, RoundTripsAndRejectsGarbage) {
  const std::string path = tmpDir() + "/cam_settings.ini";
  navbench::Settings s;
  s.cameraLevel = "/levels/a.obj";
  const float c[6] = {1.5f, -2.25f, 3.0f, 0.7f, 0.9f, 42.0f};
  std::copy(c, c + 6, s.camera);
  std::string err;
  ASSERT_TRUE(s.save(path, err)) << err;
  navbench::Settings t;
  ASSERT_TRUE(t.load(path, err)) << err;
  EXPECT_EQ(t.cameraLevel, s.cameraLevel);
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(t.camera[i], c[i]);
  std::ofstream(path) << "camera_level=/x.obj\ncamera=1 2 nan 4 5 6\n";
  ASSERT_TRUE(t.load(path, err)) << err;
  EXPECT_EQ(t.cameraLevel, "") << "a bad camera line is dropped, not restored";
}

namespace {
/// Pixels of the 3D view (right of the tool panel, above the log) close to the straight path's
/// line colour rgba(64, 16, 0) (blended a little by anti-aliasing).
int pathColouredPixels(const std::string& png) {
  render::Image img;
  std::string err;
  EXPECT_TRUE(render::readPng(png, img, err)) << err;
  int n = 0;
  for (int y = 30; y < std::min(img.height, 590); ++y)
    for (int x = 310; x < std::min(img.width, 980); ++x) {
      const uint8_t* p = &img.rgba[(size_t(y) * size_t(img.width) + size_t(x)) * 4];
      if (std::abs(p[0] - 64) < 24 && std::abs(p[1] - 16) < 16 && p[2] < 20) ++n;
    }
  return n;
}
} // namespace

TEST_F(TesterGui, StraightPathIsVisibleInTheRenderedImage) {
  AppRun with = runApp(levelArg() + " --tool 'Pathfind Straight' " + kClicks, "img_path");
  AppRun without = runApp(levelArg() + " --tool 'Pathfind Straight'", "img_nopath");
  ASSERT_EQ(with.exitCode, 0) << with.output;
  ASSERT_EQ(without.exitCode, 0) << without.output;
  const int a = pathColouredPixels(tmpDir() + "/img_path.png"), b = pathColouredPixels(tmpDir() + "/img_nopath.png");
  EXPECT_GT(a, 40) << "the drawn straight path should show; without it: " << b;
  EXPECT_LT(b * 4, a) << "without clicks (almost) nothing is drawn in the path colour; with: " << a;
}

// The Portals toggle draws exactly the edges shared by two ground polys of the same tile (counted
// here from the baked neighbour codes; the drawing walks the runtime links), each once.
TEST(NavDraw, PortalsAreTheInternalEdgesEachOnce) {
  navbench::NavState ns;
  std::string err;
  ASSERT_TRUE(ns.loadBin(defaultBin(), err)) << err;
  const nav::NavMesh& mesh = ns.mesh();
  int internal = 0, walls = 0;
  for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
    const nav::MeshTile* tile = mesh.getTile(ti);
    if (!tile->header) continue;
    for (int pi = 0; pi < tile->header->polyCount; ++pi) {
      const nav::Poly& p = tile->polys[pi];
      if (p.getType() != nav::POLYTYPE_GROUND) continue;
      for (int e = 0; e < p.vertCount; ++e) {
        const uint16_t nei = p.neis[e];
        if (nei == 0) ++walls;
        else if (!(nei & nav::EXT_LINK) && nei - 1 > pi &&
                 tile->polys[nei - 1].getType() == nav::POLYTYPE_GROUND) ++internal;
      }
    }
  }
  ASSERT_GT(internal, 10);
  navbench::NavDrawOptions opt;
  opt.polys = opt.polyEdges = opt.tileBorders = opt.offMeshLinks = opt.detailMesh = opt.bvTree = false;
  render::DebugDraw dd;
  navbench::drawNavMesh(dd, mesh, opt);
  EXPECT_EQ(dd.queuedVertices(), 0);
  opt.portals = true;
  navbench::drawNavMesh(dd, mesh, opt);
  EXPECT_EQ(dd.queuedVertices(), 2 * internal);
  dd.clear();
  // Walls are not portals: the poly edges (walls + inner edges) are a different, larger set.
  opt.portals = false;
  opt.polyEdges = true;
  navbench::drawNavMesh(dd, mesh, opt);
  EXPECT_EQ(dd.queuedVertices(), 2 * (internal + walls));
}

// Undo/redo through the keyboard (--key replays real SDL key events after the clicks):
// Ctrl+Z takes the end point back, Ctrl+Y / Ctrl+Shift+Z put it back with the same path, two
// undos leave nothing; an unknown key name is refused (exit 2, named).
TEST_F(TesterGui, UndoRedoKeys) {
  const std::string base = levelArg() + " --tool 'Pathfind Follow' " + kClicks;
  AppRun full = runApp(base, "undo_full");
  ASSERT_EQ(full.exitCode, 0) << full.output;
  const json& f = full.state["toolState"];
  ASSERT_TRUE(f.contains("start") && f.contains("end")) << f.dump();
  ASSERT_GT(f["corridor"].size(), 1u);

  AppRun undo = runApp(base + " --key ctrl+z", "undo_one");
  ASSERT_EQ(undo.exitCode, 0) << undo.output;
  const json& u = undo.state["toolState"];
  EXPECT_EQ(u["start"], f["start"]);
  EXPECT_FALSE(u.contains("end")) << u.dump();
  EXPECT_EQ(u["endRef"], 0);

  for (const char* redoKey : {"ctrl+y", "ctrl+shift+z"}) {
    AppRun redo = runApp(base + " --key ctrl+z --key " + redoKey, std::string("undo_redo_") + redoKey[5]);
    ASSERT_EQ(redo.exitCode, 0) << redo.output;
    const json& r = redo.state["toolState"];
    EXPECT_EQ(r["start"], f["start"]) << redoKey;
    EXPECT_EQ(r["end"], f["end"]) << redoKey;
    EXPECT_EQ(r["corridor"], f["corridor"]) << redoKey;
  }

  AppRun both = runApp(base + " --key ctrl+z --key ctrl+z", "undo_two");
  ASSERT_EQ(both.exitCode, 0) << both.output;
  EXPECT_FALSE(both.state["toolState"].contains("start"));
  EXPECT_FALSE(both.state["toolState"].contains("end"));

  AppRun bad = runApp(levelArg() + " --key ctrl+nosuchkey", "undo_bad");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.output.find("nosuchkey"), std::string::npos) << bad.output;
}
