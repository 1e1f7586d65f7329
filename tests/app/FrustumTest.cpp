// Frustum planes from a known camera: boxes inside, outside (each side, behind the eye, past the
// far plane) and straddling; the planes agree with projecting points through viewProj.
#include "render/Camera.h"
#include "render/Frustum.h"

#include <gtest/gtest.h>

#include <random>

using render::Frustum;

namespace {
// Eye at (0, 0, 20) looking down -z at the origin, 90 degree fov, square viewport: at depth d the
// view spans x, y in [-d, d].
render::Camera lookDownMinusZ() {
  render::Camera cam;
  cam.target = glm::vec3(0);
  cam.distance = 20;
  cam.yaw = 0;
  cam.pitch = 0;
  cam.fovY = glm::radians(90.0f);
  return cam;
}
glm::vec3 box(float v) { return glm::vec3(v); }
} // namespace

TEST(Frustum, BoxesInsideOutsideAndStraddling) {
  const render::Camera cam = lookDownMinusZ();
  ASSERT_NEAR(cam.eye().z, 20.0f, 1e-4f);
  const Frustum f(cam.viewProj(1.0f));
  // Around the target (depth 20: visible x, y within +-20).
  EXPECT_EQ(f.classify(box(-1), box(1)), Frustum::Inside);
  EXPECT_EQ(f.classify(glm::vec3(15, -15, -1), glm::vec3(18, -12, 1)), Frustum::Inside);
  // Off each side at the target's depth.
  EXPECT_EQ(f.classify(glm::vec3(25, -1, -1), glm::vec3(30, 1, 1)), Frustum::Outside);
  EXPECT_EQ(f.classify(glm::vec3(-30, -1, -1), glm::vec3(-25, 1, 1)), Frustum::Outside);
  EXPECT_EQ(f.classify(glm::vec3(-1, 25, -1), glm::vec3(1, 30, 1)), Frustum::Outside);
  EXPECT_EQ(f.classify(glm::vec3(-1, -30, -1), glm::vec3(1, -25, 1)), Frustum::Outside);
  // Behind the eye, and beyond the far plane.
  EXPECT_EQ(f.classify(glm::vec3(-1, -1, 25), glm::vec3(1, 1, 30)), Frustum::Outside);
  const float far = cam.farPlane();
  EXPECT_EQ(f.classify(glm::vec3(-1, -1, 20 - far - 50), glm::vec3(1, 1, 20 - far - 10)), Frustum::Outside);
  // Straddling: across the right edge, across the eye plane, and a box containing the frustum.
  EXPECT_EQ(f.classify(glm::vec3(15, -1, -1), glm::vec3(25, 1, 1)), Frustum::Intersect);
  EXPECT_EQ(f.classify(glm::vec3(-1, -1, 10), glm::vec3(1, 1, 30)), Frustum::Intersect);
  EXPECT_EQ(f.classify(box(-1e4f), box(1e4f)), Frustum::Intersect);
  EXPECT_TRUE(f.visible(glm::vec3(15, -1, -1), glm::vec3(25, 1, 1)));
  EXPECT_FALSE(f.visible(glm::vec3(25, -1, -1), glm::vec3(30, 1, 1)));
}

// A point-sized box is visible exactly when the point projects inside the clip volume (checked on
// random points around a tilted camera; points within a hair of a plane are skipped).
TEST(Frustum, AgreesWithClipSpaceForPoints) {
  render::Camera cam;
  cam.target = glm::vec3(5, 1, -3);
  cam.distance = 40;
  cam.yaw = 0.7f;
  cam.pitch = 0.6f;
  const glm::mat4 vp = cam.viewProj(16.0f / 9.0f);
  const Frustum f(vp);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-120.0f, 120.0f);
  int inside = 0, outside = 0;
  for (int i = 0; i < 5000; ++i) {
    const glm::vec3 p(u(rng), u(rng) * 0.5f, u(rng));
    const glm::vec4 c = vp * glm::vec4(p, 1.0f);
    const float margin = 1e-3f * std::abs(c.w) + 1e-3f;
    const float m = std::min({c.w - std::abs(c.x), c.w - std::abs(c.y), c.w - std::abs(c.z)});
    if (std::abs(m) < margin) continue;
    const bool in = m > 0;
    EXPECT_EQ(f.visible(p, p), in) << p.x << " " << p.y << " " << p.z;
    (in ? inside : outside)++;
  }
  EXPECT_GT(inside, 100);
  EXPECT_GT(outside, 100);
}
