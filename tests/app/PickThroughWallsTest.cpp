// What you see is what you click (issue 28): on a single-sided level (outer walls modelled facing
// into the rooms only, as real game levels are), seen from the viewer's default camera outside
// the building, the renderer culls the walls' backs and draws the floors behind them; a click on a
// pixel where the navmesh is drawn must land on that navmesh, not on the back of the wall in front.
//
// The level is generated here: a two-storey building (west half one storey of two rooms, east half
// a ground room under a roof-less upper floor), outer walls single-sided, inner walls solid boxes.
// Twelve pixels where the navmesh is drawn are found without the code under test: per pixel, the
// first navmesh triangle on the ray and the first level triangle the renderer draws there (GL's
// rule: counter-clockwise on screen is the front; back faces culled), both by brute force. Then
// the viewer's pick (Level::raycast with the view's sides) is counted on them, single-sided (the
// viewer's default) and two-sided (what picking did before). One viewer run clicks two of them and
// hovers a third, and its --dump-state shows the tester's start, end and the hover readout on the
// navmesh under those pixels. The shared levels (../shared/levels), when present, are counted too.
#include "TestUtil.h"
#include "ViewerRun.h"

#include "app/Level.h"
#include "app/NavState.h"
#include "app/ViewSettings.h"
#include "render/Camera.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using navbench::Level;
using navbench::NavState;
using navbench::PickSides;
using navbench::RayHit;
using navbench::TriMesh;

namespace {

constexpr int kWidth = 1280, kHeight = 720; // the viewer's default window

/// OBJ text of the building, x 0..24, z 0..16, 4 m storeys. Quads are written counter-clockwise
/// seen from the side they face (their front).
std::string buildingObj() {
  std::ostringstream o;
  int n = 0;
  auto quad = [&](glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d, glm::vec3 facing) {
    if (glm::dot(glm::cross(b - a, c - a), facing) < 0) std::swap(b, d); // reverse the order
    for (const glm::vec3& v : {a, b, c, d}) o << "v " << v.x << ' ' << v.y << ' ' << v.z << '\n';
    o << "f " << n + 1 << ' ' << n + 2 << ' ' << n + 3 << ' ' << n + 4 << '\n';
    n += 4;
  };
  // Single-sided walls: a plane x = const or z = const, facing into the building.
  auto wallX = [&](float x, float z0, float z1, float y0, float y1, float facing) {
    quad({x, y0, z0}, {x, y0, z1}, {x, y1, z1}, {x, y1, z0}, {facing, 0, 0});
  };
  auto wallZ = [&](float z, float x0, float x1, float y0, float y1, float facing) {
    quad({x0, y0, z}, {x1, y0, z}, {x1, y1, z}, {x0, y1, z}, {0, 0, facing});
  };
  auto floor = [&](float x0, float z0, float x1, float z1, float y, float facing) {
    quad({x0, y, z0}, {x1, y, z0}, {x1, y, z1}, {x0, y, z1}, {0, facing, 0});
  };
  // A solid inner wall: a box of five faces (no bottom), each facing out.
  auto box = [&](float x0, float z0, float x1, float z1, float h) {
    floor(x0, z0, x1, z1, h, 1);
    wallX(x0, z0, z1, 0, h, -1);
    wallX(x1, z0, z1, 0, h, 1);
    wallZ(z0, x0, x1, 0, h, -1);
    wallZ(z1, x0, x1, 0, h, 1);
  };
  o << "# single-sided building (PickThroughWallsTest)\n";
  floor(0, 0, 24, 16, 0, 1);
  // Outer walls facing in: west half one storey, east half two.
  wallZ(0, 0, 12, 0, 4, 1);
  wallZ(16, 0, 12, 0, 4, -1);
  wallX(0, 0, 16, 0, 4, 1);
  wallZ(0, 12, 24, 0, 8, 1);
  wallZ(16, 12, 24, 0, 8, -1);
  wallX(24, 0, 16, 0, 8, -1);
  // Inner walls: x = 12 between the halves (doorway z 6..8.5), z = 8 between the west rooms
  // (doorway x 4..6.5).
  box(11.85f, 0, 12.15f, 6, 4);
  box(11.85f, 8.5f, 12.15f, 16, 4);
  box(0, 7.85f, 4, 8.15f, 4);
  box(6.5f, 7.85f, 11.85f, 8.15f, 4);
  // The upper floor over the east half: its floor (a slab 0.2 thick: the ground room's ceiling
  // faces down) and the single-sided upper wall on its west side.
  floor(12.15f, 0, 24, 16, 4, 1);
  floor(12.15f, 0, 24, 16, 3.8f, -1);
  wallX(12.15f, 0, 16, 4, 8, 1);
  return o.str();
}

/// Nearest hit over all triangles; `cameraEye` non-null: only the triangles GL draws with back
/// faces culled for that eye (the corners counter-clockwise on screen: the eye on the side the
/// normal points to).
bool bruteForce(const TriMesh& m, const render::Ray& r, const glm::vec3* cameraEye, float& bestT) {
  bestT = std::numeric_limits<float>::max();
  bool any = false;
  for (int t = 0; t < m.triCount(); ++t) {
    const glm::vec3 a = m.vert(m.tris[size_t(t) * 3]), b = m.vert(m.tris[size_t(t) * 3 + 1]),
                    c = m.vert(m.tris[size_t(t) * 3 + 2]);
    if (cameraEye && glm::dot(glm::cross(b - a, c - a), *cameraEye - a) <= 0) continue;
    // Plane, then inside by edge signs (independent of TriBvh's Moller-Trumbore).
    const glm::vec3 nrm = glm::cross(b - a, c - a);
    const float den = glm::dot(nrm, r.dir);
    if (std::abs(den) < 1e-9f) continue;
    const float t0 = glm::dot(nrm, a - r.origin) / den;
    if (t0 < 0 || t0 >= bestT) continue;
    const glm::vec3 p = r.origin + r.dir * t0;
    if (glm::dot(glm::cross(b - a, p - a), nrm) < 0 || glm::dot(glm::cross(c - b, p - b), nrm) < 0 ||
        glm::dot(glm::cross(a - c, p - c), nrm) < 0)
      continue;
    bestT = t0;
    any = true;
  }
  return any;
}

/// The camera the viewer opens a level with (App::levelReplaced, frameLevel: from the low-x, low-z
/// corner, about 40 degrees down, the level's bounds fitted into the part of the view the default
/// panels leave clear). The viewer run below checks that it is the viewer's.
render::Camera defaultCamera(const Level& level) {
  render::Camera cam;
  cam.yaw = 3.14159265f + 0.6f;
  cam.pitch = 0.72f;
  cam.frame(level.mesh().boundsMin, level.mesh().boundsMax, float(kWidth) / float(kHeight), glm::vec2(-0.6f, -0.62f),
            glm::vec2(0.6f, 0.86f));
  return cam;
}

/// A pixel where the navmesh is drawn, and the navmesh point under its centre.
struct NavPixel {
  int x, y;
  glm::vec3 nav;
};

/// Up to `count` pixels spread over those where the navmesh is drawn (every 4th pixel of the view
/// clear of the default panels, in rows, then evenly spaced), found by brute force.
std::vector<NavPixel> navPixels(const Level& level, const TriMesh& navTris, const render::Camera& cam, int count) {
  std::vector<NavPixel> drawn;
  const glm::vec3 eye = cam.eye();
  for (int y = 40; y < 580; y += 4)
    for (int x = 320; x < 960; x += 4) {
      const render::Ray r = cam.screenRay(float(x) + 0.5f, float(y) + 0.5f, float(kWidth), float(kHeight));
      float tNav = 0, tLevel = 0;
      if (!bruteForce(navTris, r, nullptr, tNav)) continue;
      const glm::vec3 nav = r.origin + r.dir * tNav;
      // Drawn: the level surface drawn there is the one the navmesh lies on (or none in front).
      if (bruteForce(level.mesh(), r, &eye, tLevel) && tLevel < tNav &&
          glm::length(r.origin + r.dir * tLevel - nav) > 0.5f)
        continue;
      drawn.push_back({x, y, nav});
    }
  std::vector<NavPixel> out;
  const size_t n = drawn.size();
  for (int k = 0; k < count && n > 0; ++k) out.push_back(drawn[(size_t(2 * k + 1) * n) / size_t(2 * count)]);
  return out;
}

/// A pick lands on the navmesh under the pixel: its point snaps to a poly (the tester's
/// findNearestPoly) within 1 m of the navmesh point drawn there. (The navmesh lies up to a few
/// tenths above the level's surface, which the pick hits: seen at 40 degrees, the snapped point is
/// that much off along the ray. A click on a wall's back snaps to the navmesh's edge by that wall,
/// metres away, or to none.)
bool landsOnNav(NavState& nav, const glm::vec3& picked, const glm::vec3& want) {
  glm::vec3 snapped(0.0f);
  return nav.nearestPoly(picked, &snapped) != 0 && glm::length(snapped - want) < 1.0f;
}

/// Of `pixels`, how many the viewer's pick (the camera ray, Level::raycast on `sides`) lands on
/// the navmesh drawn there; the others go to `missed`.
int countLanded(const Level& level, NavState& nav, const render::Camera& cam, const std::vector<NavPixel>& pixels,
                PickSides sides, std::vector<NavPixel>* missed = nullptr) {
  int landed = 0;
  for (const NavPixel& p : pixels) {
    const render::Ray r = cam.screenRay(float(p.x) + 0.5f, float(p.y) + 0.5f, float(kWidth), float(kHeight));
    RayHit hit;
    if (level.raycast(r.origin, r.dir, cam.farPlane(), sides, hit) && landsOnNav(nav, hit.pos, p.nav)) ++landed;
    else { // in the test's log: where the pick went instead
      if (missed) missed->push_back(p);
      std::printf("  %s pick missed at pixel (%d, %d): navmesh drawn at (%.2f, %.2f, %.2f), picked (%.2f, %.2f, %.2f)\n",
                  sides == PickSides::Front ? "front-sided" : "two-sided", p.x, p.y, double(p.nav.x), double(p.nav.y),
                  double(p.nav.z), double(hit.pos.x), double(hit.pos.y), double(hit.pos.z));
    }
  }
  return landed;
}

struct Baked {
  Level level;
  NavState nav;
  std::string error;
};

/// Loads `obj` and bakes it with `navbench bake` into `bin` (default settings, as the viewer's
/// open-time bake).
bool loadAndBake(const std::string& obj, const std::string& bin, Baked& b) {
  const navbench::test::CommandResult bake = navbench::test::runCommand("'" NAVBENCH_EXE "' bake '" + obj + "' -o '" + bin + "' -q");
  if (bake.exitCode != 0) {
    b.error = "bake failed: " + bake.output;
    return false;
  }
  return b.level.load(obj, b.error) && b.nav.loadBin(bin, b.error);
}

fs::path tmpDir(const std::string& tag) {
  const fs::path dir = fs::path(NAVBENCH_TEST_TMP) / tag;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

} // namespace

TEST(PickThroughWalls, SingleSidedBuildingClicksLandOnTheNavmeshDrawn) {
  const fs::path dir = tmpDir("pick_building");
  const std::string obj = (dir / "building.obj").string(), bin = (dir / "building.bin").string();
  std::ofstream(obj) << buildingObj();
  Baked b;
  ASSERT_TRUE(loadAndBake(obj, bin, b)) << b.error;
  const render::Camera cam = defaultCamera(b.level);
  const std::vector<NavPixel> pixels = navPixels(b.level, b.nav.detailMesh(), cam, 12);
  ASSERT_EQ(pixels.size(), 12u);
  for (const NavPixel& p : pixels) // to click by hand: --click X,Y on building.obj in the test's folder
    std::printf("  pixel (%d, %d): navmesh drawn at (%.2f, %.2f, %.2f)\n", p.x, p.y, double(p.nav.x), double(p.nav.y),
                double(p.nav.z));
  const int front = countLanded(b.level, b.nav, cam, pixels, PickSides::Front);
  std::vector<NavPixel> through; // pixels where two-sided picking misses: a click through a wall
  const int both = countLanded(b.level, b.nav, cam, pixels, PickSides::Both, &through);
  std::printf("single-sided building, default camera: %d of 12 clicks on drawn navmesh land on it "
              "(front sides, as drawn); %d of 12 with two-sided picking (before)\n", front, both);
  EXPECT_GE(front, 11);
  EXPECT_LT(both, 11) << "the level must make clicks through walls' backs count";

  // The viewer, as a user runs it: the tester's start and end clicked on two pixels that only a
  // click through a wall reaches, and the mouse resting on a third (the hover readout).
  ASSERT_GE(through.size(), 3u);
  const NavPixel &s = through[0], &e = through[1], &h = through[2];
  navbench::test::ViewerFiles f{(dir / "shot.png").string(), (dir / "state.json").string(), (dir / "config").string(), ""};
  char args[256];
  std::snprintf(args, sizeof args, " --tool 'Pathfind Straight' --click %d,%d,shift --click %d,%d --hover %d,%d", s.x, s.y,
                e.x, e.y, h.x, h.y);
  const navbench::test::AppRun run = navbench::test::runViewer(NAVBENCH_EXE, "'" + obj + "' '" + bin + "'" + args, f);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  ASSERT_TRUE(run.state.is_object()) << run.output;
  const nlohmann::json& cj = run.state["scenario"]["camera"]; // the viewer's camera is the one used here
  EXPECT_NEAR(cj["yaw"].get<float>(), cam.yaw, 1e-4f);
  EXPECT_NEAR(cj["pitch"].get<float>(), cam.pitch, 1e-4f);
  EXPECT_NEAR(cj["distance"].get<float>(), cam.distance, 1e-3f * cam.distance);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(cj["target"][k].get<float>(), cam.target[k], 1e-3f);
  EXPECT_FALSE(run.state["scenario"]["view"]["twoSidedLevel"].get<bool>());
  const nlohmann::json& tool = run.state["toolState"];
  auto at = [](const nlohmann::json& v) { return glm::vec3(v[0].get<float>(), v[1].get<float>(), v[2].get<float>()); };
  ASSERT_TRUE(tool.contains("start") && tool.contains("end")) << tool.dump();
  EXPECT_NE(tool["startRef"].get<uint64_t>(), 0u);
  EXPECT_NE(tool["endRef"].get<uint64_t>(), 0u);
  EXPECT_TRUE(landsOnNav(b.nav, at(tool["start"]), s.nav)) << tool.dump();
  EXPECT_TRUE(landsOnNav(b.nav, at(tool["end"]), e.nav)) << tool.dump();
  const nlohmann::json& hover = run.state["hover"];
  ASSERT_TRUE(hover["hit"].get<bool>()) << hover.dump();
  EXPECT_NE(hover["polyRef"].get<uint64_t>(), 0u);
  EXPECT_TRUE(landsOnNav(b.nav, at(hover["pos"]), h.nav)) << hover.dump();

  // Ctrl+T (View > Two-sided level): the walls' backs are drawn, and the hover on the same pixel
  // is on the back of the wall in front, where two-sided picking put it; the scenario keeps it.
  std::snprintf(args, sizeof args, " --key ctrl+t --hover %d,%d", h.x, h.y);
  const navbench::test::AppRun two = navbench::test::runViewer(NAVBENCH_EXE, "'" + obj + "' '" + bin + "'" + args, f);
  ASSERT_EQ(two.exitCode, 0) << two.output;
  ASSERT_TRUE(two.state.is_object()) << two.output;
  EXPECT_TRUE(two.state["scenario"]["view"]["twoSidedLevel"].get<bool>());
  const nlohmann::json& hover2 = two.state["hover"];
  ASSERT_TRUE(hover2["hit"].get<bool>()) << hover2.dump();
  const render::Ray r = cam.screenRay(float(h.x) + 0.5f, float(h.y) + 0.5f, float(kWidth), float(kHeight));
  RayHit wall;
  ASSERT_TRUE(b.level.raycast(r.origin, r.dir, cam.farPlane(), PickSides::Both, wall));
  EXPECT_LT(glm::length(at(hover2["pos"]) - wall.pos), 0.05f) << hover2.dump();
  EXPECT_GT(glm::dot(wall.normal, r.dir), 0.0f); // a back face
  EXPECT_FALSE(landsOnNav(b.nav, at(hover2["pos"]), h.nav)) << hover2.dump();
}

// View > Two-sided level is a view setting kept in scenarios, and its picking rule follows it.
TEST(PickThroughWalls, TwoSidedLevelPicksBothSides) {
  navbench::ViewSettings view;
  EXPECT_FALSE(view.twoSidedLevel);
  EXPECT_EQ(view.levelPickSides(), PickSides::Front);
  view.twoSidedLevel = true;
  EXPECT_EQ(view.levelPickSides(), PickSides::Both);
}

// The shared levels (../shared/levels), when present: the same count on each, reported; clicks
// on drawn navmesh land on it (11 of 12 at least), whatever the level's walls are.
TEST(PickThroughWalls, SharedLevels) {
  const fs::path levels = fs::path(NAVBENCH_SHARED_DIR) / "levels";
  int seen = 0;
  for (const char* name : {"dungeon", "nav_test"}) {
    const fs::path obj = levels / (std::string(name) + ".obj");
    if (!fs::is_regular_file(obj)) continue;
    ++seen;
    Baked b;
    ASSERT_TRUE(loadAndBake(obj.string(), (tmpDir(std::string("pick_") + name) / "level.bin").string(), b)) << b.error;
    const render::Camera cam = defaultCamera(b.level);
    const std::vector<NavPixel> pixels = navPixels(b.level, b.nav.detailMesh(), cam, 12);
    ASSERT_EQ(pixels.size(), 12u) << name;
    const int front = countLanded(b.level, b.nav, cam, pixels, PickSides::Front);
    const int both = countLanded(b.level, b.nav, cam, pixels, PickSides::Both);
    std::printf("%s.obj, default camera: %d of 12 clicks on drawn navmesh land on it (front sides); %d of 12 two-sided\n",
                name, front, both);
    EXPECT_GE(front, 11) << name;
  }
  if (seen == 0) GTEST_SKIP() << "no shared levels in " << levels << " (../shared not checked out)";
}
