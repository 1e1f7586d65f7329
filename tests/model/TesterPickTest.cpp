// The Pick mode's model on the default level's OBJ: a click finds the triangle the camera ray hits
// at the picked point (the point lies in it, the normal is its own), and a Shift+click a second
// point at the distance between them.
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
  ASSERT_TRUE(level.raycast(from, glm::vec3(0, -1, 0), 1e4f, h));
  m.click(from, h.pos, false);
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
  m.click(from, second, true);
  ASSERT_TRUE(m.hasSecond());
  EXPECT_FLOAT_EQ(m.distance(), 5.0f);
  m.click(from, h.pos, false);
  EXPECT_FALSE(m.hasSecond());
  m.reset();
  EXPECT_FALSE(m.hasHit());
  EXPECT_EQ(m.tri(), -1);
  // Without a level the point is kept, the triangle unknown.
  navbench::PickModel none;
  none.click(from, h.pos, true); // Shift with no first point: the first point
  EXPECT_TRUE(none.hasHit());
  EXPECT_EQ(none.tri(), -1);
}
