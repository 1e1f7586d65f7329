// The Pick mode's model on the default level's OBJ: a click finds the triangle the camera ray hits
// at the picked point (the point lies in it, the normal is its own), and a Shift+click a second
// point at the distance between them; through a single-sided wall seen from behind, the triangle
// behind it, as the app picked it.
#include "app/Level.h"
#include "app/model/TesterPick.h"

#include <gtest/gtest.h>

#include <cmath>

TEST(TesterPick, ClickFindsTheTriangleUnderThePointAndShiftAMeasure) {
  navbench::Level level;
  std::string error;
  ASSERT_TRUE(level.load(NAVBENCH_DEFAULT_LEVEL, error)) << error;
  navbench::PickModel m;
  m.setLevel(&level);
  // A ray straight down onto the middle of the level's bounds: what the app would pick.
  const navbench::TriMesh& mesh = level.mesh();
  const glm::vec3 centre = (mesh.boundsMin + mesh.boundsMax) * 0.5f;
  const glm::vec3 from(centre.x, mesh.boundsMax.y + 10.0f, centre.z);
  navbench::RayHit h;
  ASSERT_TRUE(level.raycast(from, glm::vec3(0, -1, 0), 1e4f, navbench::PickSides::Front, h));
  m.click(from, h.pos, false, navbench::PickSides::Front);
  ASSERT_TRUE(m.hasHit());
  EXPECT_FALSE(m.hasSecond());
  ASSERT_GE(m.tri(), 0);
  EXPECT_EQ(m.tri(), h.tri);
  // The point lies in the triangle's plane and the normal is the triangle's own.
  const size_t t = size_t(m.tri()) * 3;
  const glm::vec3 a = mesh.vert(mesh.tris[t]), b = mesh.vert(mesh.tris[t + 1]), c = mesh.vert(mesh.tris[t + 2]);
  const glm::vec3 n = glm::normalize(glm::cross(b - a, c - a));
  EXPECT_NEAR(std::fabs(glm::dot(n, m.normal())), 1.0f, 1e-4f);
  EXPECT_NEAR(glm::dot(m.hit() - a, n), 0.0f, 1e-3f);
  // Shift: a second point and the distance; a plain click starts over.
  const glm::vec3 second = m.hit() + glm::vec3(3, 0, 4);
  m.click(from, second, true, navbench::PickSides::Front);
  ASSERT_TRUE(m.hasSecond());
  EXPECT_FLOAT_EQ(m.distance(), 5.0f);
  m.click(from, h.pos, false, navbench::PickSides::Front);
  EXPECT_FALSE(m.hasSecond());
  m.reset();
  EXPECT_FALSE(m.hasHit());
  EXPECT_EQ(m.tri(), -1);
  // Without a level the point is kept, the triangle unknown.
  navbench::PickModel none;
  none.click(from, h.pos, true, navbench::PickSides::Front); // Shift with no first point: the first point
  EXPECT_TRUE(none.hasHit());
  EXPECT_EQ(none.tri(), -1);
}

// A single-sided level: a floor (front up) and an outer wall modelled facing into the room only (its
// back outwards), as real game levels are. A camera outside, looking in and down through that
// wall at the floor behind it: the app's pick (front sides) lands on the floor, and the model finds
// the floor's triangle, not the wall's back that the ray crosses first.
TEST(TesterPick, ClickThroughAWallSeenFromBehindFindsTheFloor) {
  navbench::TriMesh mesh;
  mesh.verts = {-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5,  // floor y = 0
                -5, 0, 2, 5, 0, 2, 5, 3, 2, -5, 3, 2};  // wall z = 2, y 0..3
  mesh.tris = {0, 2, 1, 0, 3, 2, 4, 6, 5, 4, 7, 6};     // normals +y (floor), -z (wall, into the room)
  mesh.boundsMin = glm::vec3(-5, 0, -5);
  mesh.boundsMax = glm::vec3(5, 3, 5);
  navbench::Level level;
  level.set(mesh, "single-sided");
  const glm::vec3 from(1, 4, 6), d = glm::normalize(glm::vec3(1, 0, -0.5f) - from);
  navbench::RayHit wall, floor;
  ASSERT_TRUE(level.raycast(from, d, 100, navbench::PickSides::Both, wall));
  ASSERT_TRUE(level.raycast(from, d, 100, navbench::PickSides::Front, floor));
  ASSERT_LT(wall.t, floor.t - 0.5f) << "the ray crosses the wall's back before the floor";
  EXPECT_GE(wall.tri, 2);
  EXPECT_GT(glm::dot(wall.normal, d), 0.0f); // seen from behind
  EXPECT_NEAR(floor.pos.y, 0.0f, 1e-4f);
  EXPECT_NEAR(floor.pos.z, -0.5f, 1e-4f);
  navbench::PickModel m;
  m.setLevel(&level);
  m.click(from, floor.pos, false, navbench::PickSides::Front);
  EXPECT_EQ(m.tri(), floor.tri);
  EXPECT_LE(m.tri(), 1);
  EXPECT_NEAR(m.normal().y, 1.0f, 1e-5f);
  // Two-sided: the app picks the wall's back, and so does the model.
  m.click(from, wall.pos, false, navbench::PickSides::Both);
  EXPECT_EQ(m.tri(), wall.tri);
  EXPECT_NEAR(m.normal().z, -1.0f, 1e-5f);
}
