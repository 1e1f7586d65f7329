#include "render/Camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace render {

namespace {
glm::vec3 offsetDir(float yaw, float pitch) {
  return glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
}
} // namespace

glm::vec3 Camera::eye() const { return target + offsetDir(yaw, pitch) * distance; }
glm::vec3 Camera::forward() const { return -offsetDir(yaw, pitch); }
glm::vec3 Camera::right() const { return glm::normalize(glm::cross(forward(), glm::vec3(0, 1, 0))); }
glm::vec3 Camera::up() const { return glm::cross(right(), forward()); }
float Camera::nearPlane() const { return std::clamp(distance * 0.01f, 0.02f, 1.0f); }
float Camera::farPlane() const { return std::max(1000.0f, distance * 20.0f); }

glm::mat4 Camera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 1, 0)); }

glm::mat4 Camera::proj(float aspect) const {
  return glm::perspective(fovY, aspect > 0 ? aspect : 1.0f, nearPlane(), farPlane());
}

void Camera::rotate(float dxPx, float dyPx) {
  yaw -= dxPx * 0.005f;
  pitch = std::clamp(pitch + dyPx * 0.005f, -1.55f, 1.55f);
}

void Camera::pan(float dxPx, float dyPx, float viewportHeightPx) {
  float perPx = 2.0f * distance * std::tan(fovY * 0.5f) / std::max(viewportHeightPx, 1.0f);
  target += (-right() * dxPx + up() * dyPx) * perPx;
}

void Camera::zoomToward(const glm::vec3& point, float factor) {
  factor = std::clamp(factor, 0.05f, 20.0f);
  float nd = std::clamp(distance * factor, 0.1f, 1e5f);
  factor = nd / distance;
  target = point + (target - point) * factor;
  distance = nd;
}

void Camera::fly(const glm::vec3& move, float dtSeconds) {
  glm::vec3 d = right() * move.x + glm::vec3(0, 1, 0) * move.y + forward() * move.z;
  target += d * flySpeed * dtSeconds;
}

void Camera::frame(const glm::vec3& boundsMin, const glm::vec3& boundsMax, float aspect, const glm::vec2& ndcMin,
                   const glm::vec2& ndcMax) {
  if (!(aspect > 0)) aspect = 1.0f;
  target = (boundsMin + boundsMax) * 0.5f;
  float radius = std::max(glm::length(boundsMax - boundsMin) * 0.5f, 0.5f);
  float halfFov = fovY * 0.5f;
  if (aspect < 1) halfFov = std::atan(std::tan(halfFov) * aspect);
  distance = radius / std::sin(halfFov); // the bounding sphere fits: a safe start
  // Refine: project the corners, move the target so their NDC box is centred on the requested
  // rectangle, and scale the distance so it fills it. Converges in a few steps.
  const glm::vec2 want = (ndcMax - ndcMin) * 0.5f, wantCentre = (ndcMin + ndcMax) * 0.5f;
  for (int iter = 0; iter < 6; ++iter) {
    const glm::mat4 vp = viewProj(aspect);
    glm::vec2 mn(1e9f), mx(-1e9f);
    for (int i = 0; i < 8; ++i) {
      glm::vec3 c(i & 1 ? boundsMax.x : boundsMin.x, i & 2 ? boundsMax.y : boundsMin.y, i & 4 ? boundsMax.z : boundsMin.z);
      glm::vec4 p = vp * glm::vec4(c, 1.0f);
      if (p.w <= 1e-4f) return; // a corner behind the eye: keep the safe sphere fit
      glm::vec2 ndc = glm::vec2(p) / p.w;
      mn = glm::min(mn, ndc);
      mx = glm::max(mx, ndc);
    }
    const glm::vec2 half = (mx - mn) * 0.5f, centre = (mn + mx) * 0.5f;
    // Shift: NDC offset -> world at the target's depth.
    const float worldPerNdcY = distance * std::tan(fovY * 0.5f);
    const glm::vec2 d = centre - wantCentre;
    target += right() * (d.x * worldPerNdcY * aspect) + up() * (d.y * worldPerNdcY);
    const float scale = std::max(half.x / want.x, half.y / want.y);
    if (!(scale > 0)) break;
    distance *= 0.5f + 0.5f * scale; // damped: the projection is not linear in the distance
  }
  // Slide the target along the view ray to the height of the box centre (the eye stays, so the
  // image does not change), so orbiting pivots inside the level rather than below it.
  const glm::vec3 fwd = forward();
  if (std::abs(fwd.y) > 0.05f) {
    const float t = ((boundsMin.y + boundsMax.y) * 0.5f - target.y) / fwd.y;
    if (distance + t > 1.0f) {
      target += fwd * t;
      distance += t;
    }
  }
}

Ray Camera::screenRay(float px, float py, float w, float h) const {
  glm::mat4 inv = glm::inverse(viewProj(w / std::max(h, 1.0f)));
  float x = 2.0f * px / w - 1.0f, y = 1.0f - 2.0f * py / h;
  glm::vec4 n = inv * glm::vec4(x, y, -1.0f, 1.0f);
  glm::vec4 f = inv * glm::vec4(x, y, 1.0f, 1.0f);
  glm::vec3 a = glm::vec3(n) / n.w, b = glm::vec3(f) / f.w;
  return {a, glm::normalize(b - a)};
}

glm::vec3 Camera::pointAtTargetDepth(float px, float py, float w, float h) const {
  Ray r = screenRay(px, py, w, h);
  glm::vec3 fwd = forward();
  float denom = glm::dot(r.dir, fwd);
  if (std::abs(denom) < 1e-6f) return target;
  float t = glm::dot(target - r.origin, fwd) / denom;
  return r.origin + r.dir * t;
}

bool Camera::project(const glm::vec3& world, float w, float h, glm::vec3& outPx) const {
  glm::vec4 c = viewProj(w / std::max(h, 1.0f)) * glm::vec4(world, 1.0f);
  if (c.w <= 0) return false;
  glm::vec3 ndc = glm::vec3(c) / c.w;
  outPx = glm::vec3((ndc.x + 1.0f) * 0.5f * w, (1.0f - ndc.y) * 0.5f * h, ndc.z);
  return true;
}

} // namespace render
