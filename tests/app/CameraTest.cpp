// Camera ray math: a pixel's ray hits the point that projects to that pixel; framing and zoom.
#include "render/Camera.h"

#include <gtest/gtest.h>

#include <random>

using render::Camera;

namespace {
// Distance from point p to the ray's line (and the ray parameter of the closest point).
float distToRay(const render::Ray& r, const glm::vec3& p, float& t) {
  t = glm::dot(p - r.origin, r.dir);
  return glm::length(r.origin + r.dir * t - p);
}
} // namespace

TEST(Camera, CentrePixelRayHitsTheTarget) {
  Camera cam;
  cam.target = glm::vec3(10, 2, -5);
  cam.distance = 30;
  cam.yaw = 0.3f;
  cam.pitch = 0.7f;
  render::Ray r = cam.screenRay(640, 360, 1280, 720);
  EXPECT_NEAR(glm::length(r.dir), 1.0f, 1e-5f);
  float t;
  EXPECT_LT(distToRay(r, cam.target, t), 1e-3f);
  EXPECT_GT(t, 0);
  EXPECT_NEAR(glm::dot(r.dir, cam.forward()), 1.0f, 1e-5f);
}

TEST(Camera, LookingStraightDownAPixelMapsToAKnownGroundPoint) {
  Camera cam;
  cam.target = glm::vec3(0, 0, 0);
  cam.distance = 10;
  cam.yaw = 0;
  cam.pitch = 1.55f; // (almost) straight down; y up, the view's up vector is about -z
  cam.fovY = glm::radians(90.0f);
  // With a 90 degree vertical fov at height ~10, the top edge of a square viewport sees z ~ -10.
  render::Ray r = cam.screenRay(50, 0, 100, 100);
  const float t = -r.origin.y / r.dir.y;
  glm::vec3 ground = r.origin + r.dir * t;
  EXPECT_NEAR(ground.x, 0.0f, 0.05f);
  EXPECT_NEAR(ground.z, -cam.eye().y + cam.eye().z, 0.5f);
  EXPECT_LT(ground.z, -9.0f);
}

TEST(Camera, PixelRaysHitTheirProjectedPoints) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-50, 50), ang(-3, 3), pit(-1.4f, 1.4f);
  for (int i = 0; i < 200; ++i) {
    Camera cam;
    cam.target = glm::vec3(u(rng), u(rng) * 0.1f, u(rng));
    cam.yaw = ang(rng);
    cam.pitch = pit(rng);
    cam.distance = 5 + std::abs(u(rng));
    const float w = 800, h = 600;
    glm::vec3 p(u(rng), u(rng) * 0.2f, u(rng));
    glm::vec3 px;
    if (!cam.project(p, w, h, px) || px.x < 0 || px.x > w || px.y < 0 || px.y > h || px.z < -1 || px.z > 1) continue;
    render::Ray r = cam.screenRay(px.x, px.y, w, h);
    float t;
    const float d = distToRay(r, p, t);
    EXPECT_LT(d, 1e-3f * std::max(1.0f, t)) << "case " << i;
    EXPECT_GT(t, 0);
  }
}

TEST(Camera, FrameFitsTheBoxIntoTheRequestedRectangle) {
  Camera cam;
  cam.yaw = 3.74f;
  cam.pitch = 0.72f;
  const glm::vec3 mn(-0.5f, -0.4f, -0.5f), mx(60.5f, 3, 50.5f);
  const glm::vec2 rmin(-0.6f, -0.62f), rmax(0.6f, 0.86f);
  cam.frame(mn, mx, 16.0f / 9.0f, rmin, rmax);
  glm::vec2 lo(1e9f), hi(-1e9f);
  for (int i = 0; i < 8; ++i) {
    glm::vec3 c(i & 1 ? mx.x : mn.x, i & 2 ? mx.y : mn.y, i & 4 ? mx.z : mn.z), px;
    ASSERT_TRUE(cam.project(c, 1600, 900, px));
    glm::vec2 ndc(px.x / 800 - 1, 1 - px.y / 450);
    lo = glm::min(lo, ndc);
    hi = glm::max(hi, ndc);
  }
  // Inside the rectangle, and filling it along at least one axis (within a few percent).
  EXPECT_GE(lo.x, rmin.x - 0.03f);
  EXPECT_GE(lo.y, rmin.y - 0.03f);
  EXPECT_LE(hi.x, rmax.x + 0.03f);
  EXPECT_LE(hi.y, rmax.y + 0.03f);
  EXPECT_TRUE(hi.x - lo.x > (rmax.x - rmin.x) * 0.93f || hi.y - lo.y > (rmax.y - rmin.y) * 0.93f);
  EXPECT_NEAR(cam.target.y, (mn.y + mx.y) * 0.5f, 1e-3f);
}

TEST(Camera, ZoomTowardKeepsThePointUnderTheCursor) {
  Camera cam;
  cam.target = glm::vec3(5, 0, 5);
  cam.distance = 40;
  const glm::vec3 p(12, 0, -3);
  glm::vec3 before, after;
  ASSERT_TRUE(cam.project(p, 1000, 700, before));
  cam.zoomToward(p, 0.5f);
  EXPECT_NEAR(cam.distance, 20.0f, 1e-4f);
  ASSERT_TRUE(cam.project(p, 1000, 700, after));
  EXPECT_NEAR(after.x, before.x, 0.01f);
  EXPECT_NEAR(after.y, before.y, 0.01f);
}

TEST(Camera, PanMovesTheTargetPointWithTheMouse) {
  Camera cam;
  cam.target = glm::vec3(0, 0, 0);
  cam.distance = 20;
  glm::vec3 before, after;
  const glm::vec3 p(0, 0, 0);
  ASSERT_TRUE(cam.project(p, 800, 600, before));
  cam.pan(40, -25, 600);
  ASSERT_TRUE(cam.project(p, 800, 600, after));
  EXPECT_NEAR(after.x - before.x, 40.0f, 0.05f);
  EXPECT_NEAR(after.y - before.y, -25.0f, 0.05f);
}
