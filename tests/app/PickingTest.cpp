// Ray-triangle picking: the primitive (either side, or the front alone: what a back-face-culling
// renderer draws), the BVH against brute force in both modes, and known points of the default
// level (see assets/levels/default_level_features.md).
#include "app/Level.h"
#include "app/NavState.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

using navbench::Level;
using navbench::PickSides;
using navbench::RayHit;
using navbench::rayTriangle;

namespace {

const Level& defaultLevel() {
  static Level level;
  if (level.empty()) {
    std::string error;
    EXPECT_TRUE(level.load(NAVBENCH_DEFAULT_LEVEL, error)) << error;
  }
  return level;
}

// Height of the first surface hit by a ray straight down from (x, 50, z).
float heightAt(float x, float z) {
  RayHit hit;
  if (!defaultLevel().raycast(glm::vec3(x, 50, z), glm::vec3(0, -1, 0), 100, PickSides::Front, hit)) return std::numeric_limits<float>::quiet_NaN();
  EXPECT_NEAR(hit.pos.x, x, 1e-4f);
  EXPECT_NEAR(hit.pos.z, z, 1e-4f);
  return hit.pos.y;
}

// Nearest hit by testing every triangle.
bool bruteForce(const navbench::TriMesh& m, const glm::vec3& o, const glm::vec3& d, float maxT, PickSides sides, float& bestT,
                int& bestTri) {
  bestT = maxT;
  bestTri = -1;
  for (int t = 0; t < m.triCount(); ++t) {
    float tt;
    if (rayTriangle(o, d, m.vert(m.tris[size_t(t) * 3]), m.vert(m.tris[size_t(t) * 3 + 1]), m.vert(m.tris[size_t(t) * 3 + 2]),
                    bestT, sides, tt)) {
      bestT = tt;
      bestTri = t;
    }
  }
  return bestTri >= 0;
}

} // namespace

TEST(Picking, RayTriangle) {
  const glm::vec3 a(0, 0, 0), b(2, 0, 0), c(0, 0, 2); // (b - a) x (c - a) = -y: the front faces down
  const PickSides both = PickSides::Both, front = PickSides::Front;
  float t = 0;
  EXPECT_TRUE(rayTriangle(glm::vec3(0.5f, 3, 0.5f), glm::vec3(0, -1, 0), a, b, c, 100, both, t));
  EXPECT_FLOAT_EQ(t, 3.0f);
  EXPECT_TRUE(rayTriangle(glm::vec3(0.5f, -3, 0.5f), glm::vec3(0, 1, 0), a, b, c, 100, both, t)); // two-sided
  EXPECT_FALSE(rayTriangle(glm::vec3(1.5f, 3, 1.5f), glm::vec3(0, -1, 0), a, b, c, 100, both, t)); // outside
  EXPECT_FALSE(rayTriangle(glm::vec3(0.5f, 3, 0.5f), glm::vec3(0, -1, 0), a, b, c, 2.5f, both, t)); // beyond maxT
  EXPECT_FALSE(rayTriangle(glm::vec3(0.5f, 3, 0.5f), glm::vec3(0, 1, 0), a, b, c, 100, both, t));   // behind the origin
  EXPECT_FALSE(rayTriangle(glm::vec3(0.5f, 1, 0.5f), glm::vec3(1, 0, 0), a, b, c, 100, both, t));   // parallel
  // Front only: seen from below (counter-clockwise) it is hit, from above (its back) it is not.
  EXPECT_TRUE(rayTriangle(glm::vec3(0.5f, -3, 0.5f), glm::vec3(0, 1, 0), a, b, c, 100, front, t));
  EXPECT_FLOAT_EQ(t, 3.0f);
  EXPECT_FALSE(rayTriangle(glm::vec3(0.5f, 3, 0.5f), glm::vec3(0, -1, 0), a, b, c, 100, front, t));
  // The same corners in the other order: the other side is the front.
  EXPECT_TRUE(rayTriangle(glm::vec3(0.5f, 3, 0.5f), glm::vec3(0, -1, 0), a, c, b, 100, front, t));
  EXPECT_FALSE(rayTriangle(glm::vec3(0.5f, -3, 0.5f), glm::vec3(0, 1, 0), a, c, b, 100, front, t));
}

// A single-sided wall (front towards -z) in front of a floor (front up), as a level's outer wall
// modelled facing into the room: a ray from outside (+z) meets the wall's back first.
TEST(Picking, BackFacePassedFrontFaceBehindHit) {
  navbench::TriMesh m;
  m.verts = {-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5,  // floor y = 0, x and z in [-5, 5]
             -5, 0, 2, 5, 0, 2, 5, 3, 2, -5, 3, 2};  // wall z = 2, y in [0, 3]
  m.tris = {0, 2, 1, 0, 3, 2,  // (x, z) turning counter-clockwise seen from above: normal +y
            4, 6, 5, 4, 7, 6}; // normal -z: faces into the room at z < 2
  m.boundsMin = glm::vec3(-5, 0, -5);
  m.boundsMax = glm::vec3(5, 3, 5);
  Level level;
  level.set(m, "wall-and-floor");
  const glm::vec3 eye(0, 4, 6), dir = glm::normalize(glm::vec3(0, 1.5f, 2) - eye); // through the wall at y 1.5
  RayHit hit;
  ASSERT_TRUE(level.raycast(eye, dir, 100, PickSides::Front, hit));
  EXPECT_GE(hit.tri, 0);
  EXPECT_LE(hit.tri, 1); // the floor behind the wall
  EXPECT_NEAR(hit.pos.y, 0.0f, 1e-4f);
  EXPECT_LT(hit.pos.z, 2.0f);
  EXPECT_NEAR(hit.normal.y, 1.0f, 1e-5f);
  ASSERT_TRUE(level.raycast(eye, dir, 100, PickSides::Both, hit));
  EXPECT_GE(hit.tri, 2); // two-sided: the wall's back
  EXPECT_NEAR(hit.pos.z, 2.0f, 1e-4f);
  EXPECT_NEAR(hit.pos.y, 1.5f, 1e-4f);
  EXPECT_NEAR(hit.normal.z, -1.0f, 1e-5f); // the front's normal, pointing away from the ray
  // From inside the room the wall is seen from the front: hit in both modes.
  const glm::vec3 in(0, 1.5f, -3);
  for (PickSides sides : {PickSides::Front, PickSides::Both}) {
    ASSERT_TRUE(level.raycast(in, glm::vec3(0, 0, 1), 100, sides, hit));
    EXPECT_NEAR(hit.pos.z, 2.0f, 1e-4f);
  }
  // The floor seen from below is its back: nothing with Front, the floor with Both.
  EXPECT_FALSE(level.raycast(glm::vec3(0, -2, 0), glm::vec3(0, 1, 0), 100, PickSides::Front, hit));
  ASSERT_TRUE(level.raycast(glm::vec3(0, -2, 0), glm::vec3(0, 1, 0), 100, PickSides::Both, hit));
  EXPECT_NEAR(hit.pos.y, 0.0f, 1e-4f);
}

TEST(Picking, DefaultLevelKnownHeights) {
  EXPECT_NEAR(heightAt(10, 5), 0.0f, 1e-4f);    // hall A floor
  EXPECT_NEAR(heightAt(46, 10), -0.4f, 1e-4f);  // pool basin
  EXPECT_NEAR(heightAt(7, 40), 3.0f, 1e-4f);    // upper floor M1
  EXPECT_NEAR(heightAt(30, 40), 3.0f, 1e-4f);   // upper floor M2
  EXPECT_NEAR(heightAt(42, 40), 3.0f, 1e-4f);   // jump platform J
  EXPECT_NEAR(heightAt(18, 40), 3.0f, 1e-4f);   // bridge top
  EXPECT_NEAR(heightAt(38, 40), 0.0f, 1e-4f);   // the alley between M2 and J
  EXPECT_NEAR(heightAt(4, 29.5f), 1.5f, 1e-3f); // half way up the ramp (z 25..34, y 0..3)
  EXPECT_NEAR(heightAt(30, 30.2f), 0.3f, 1e-4f); // first stair step
  EXPECT_NEAR(heightAt(30, 33.8f), 3.0f, 1e-4f); // last stair step
  EXPECT_NEAR(heightAt(29.5f, 20), 2.5f, 1e-4f); // top of the mid wall
  EXPECT_NEAR(heightAt(53.5f, 20), 0.0f, 1e-4f); // through the narrow gap to the floor
  EXPECT_NEAR(heightAt(48, 28.9f), 0.0f, 1e-4f); // through the doorway to the floor
}

TEST(Picking, UnderTheBridgeAndSideways) {
  RayHit hit;
  // From under the bridge, looking down: the lower path, not the bridge.
  ASSERT_TRUE(defaultLevel().raycast(glm::vec3(18, 1.5f, 40), glm::vec3(0, -1, 0), 100, PickSides::Front, hit));
  EXPECT_NEAR(hit.pos.y, 0.0f, 1e-4f);
  // Looking up from the lower path: the bridge's underside at y 2.7.
  ASSERT_TRUE(defaultLevel().raycast(glm::vec3(18, 1, 40), glm::vec3(0, 1, 0), 100, PickSides::Front, hit));
  EXPECT_NEAR(hit.pos.y, 2.7f, 1e-4f);
  EXPECT_NEAR(hit.normal.y, -1.0f, 1e-4f);
  // Horizontally east along z = 40 at y = 1 from the lower path: M2's west face at x = 22.
  ASSERT_TRUE(defaultLevel().raycast(glm::vec3(18, 1, 40), glm::vec3(1, 0, 0), 100, PickSides::Front, hit));
  EXPECT_NEAR(hit.pos.x, 22.0f, 1e-4f);
  EXPECT_NEAR(hit.normal.x, -1.0f, 1e-4f);
  // maxT stops short of it.
  EXPECT_FALSE(defaultLevel().raycast(glm::vec3(18, 1, 40), glm::vec3(1, 0, 0), 3.9f, PickSides::Front, hit));
  // Into the sky: nothing.
  EXPECT_FALSE(defaultLevel().raycast(glm::vec3(30, 10, 25), glm::vec3(0, 1, 0), 1000, PickSides::Both, hit));
}

TEST(Picking, BvhMatchesBruteForceOnRandomRays) {
  const Level& level = defaultLevel();
  const navbench::TriMesh& m = level.mesh();
  ASSERT_GT(level.bvh().nodeCount(), 1);
  for (PickSides sides : {PickSides::Both, PickSides::Front}) {
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> ux(-10, 70), uy(-5, 30), uz(-10, 60), ud(-1, 1);
    int hits = 0;
    for (int i = 0; i < 3000; ++i) {
      glm::vec3 o(ux(rng), uy(rng), uz(rng)), d(ud(rng), ud(rng), ud(rng));
      if (glm::length(d) < 1e-3f) continue;
      d = glm::normalize(d);
      if (i % 3 == 0) d = glm::normalize(glm::vec3(ux(rng), 0, uz(rng)) - o); // aim at the floor area
      float bt;
      int btri;
      const bool expect = bruteForce(m, o, d, 500, sides, bt, btri);
      RayHit hit;
      const bool got = level.raycast(o, d, 500, sides, hit);
      ASSERT_EQ(got, expect) << "ray " << i;
      if (got) {
        ++hits;
        EXPECT_NEAR(hit.t, bt, 1e-3f) << "ray " << i;
        if (sides == PickSides::Front) {
          EXPECT_LT(glm::dot(hit.normal, d), 0.0f) << "ray " << i; // seen from the front
        }
      }
    }
    EXPECT_GT(hits, 1000); // the test means something only if many rays hit
  }
}

// A tile set opened without its OBJ is drawn and clicked as its detail triangles (NavState::
// detailMesh): they must face up (counter-clockwise seen from above) or the renderer would cull
// them from above and a click from above would pass through them.
TEST(Picking, NavmeshDetailTrianglesFaceUpAndAreClickedFromAbove) {
  navbench::NavState nav;
  std::string error;
  std::string bin = NAVBENCH_DEFAULT_LEVEL; // default.obj -> default.bin beside it
  bin.replace(bin.size() - 4, 4, ".bin");
  ASSERT_TRUE(nav.loadBin(bin, error)) << error;
  Level level;
  level.set(nav.detailMesh(), "default.bin");
  const navbench::TriMesh& m = level.mesh();
  ASSERT_GT(m.triCount(), 100);
  int up = 0;
  for (int t = 0; t < m.triCount(); ++t) {
    const glm::vec3 a = m.vert(m.tris[size_t(t) * 3]), b = m.vert(m.tris[size_t(t) * 3 + 1]), c = m.vert(m.tris[size_t(t) * 3 + 2]);
    up += glm::cross(b - a, c - a).y > 0 ? 1 : 0;
  }
  EXPECT_EQ(up, m.triCount());
  RayHit hit;
  ASSERT_TRUE(level.raycast(glm::vec3(10, 50, 5), glm::vec3(0, -1, 0), 100, PickSides::Front, hit)); // hall A
  EXPECT_NEAR(hit.pos.y, 0.0f, 0.3f);
}
