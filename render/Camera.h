// Camera.h: an orbit camera (rotate about a target, pan, zoom towards a point) that can also fly
// (WASD/QE moves eye and target together). y is up; angles in radians; distances in world units.
//
// Screen coordinates are window pixels with the origin at the top-left (SDL's convention).
#pragma once

#include <glm/glm.hpp>

namespace render {

struct Ray {
  glm::vec3 origin; ///< On the near plane.
  glm::vec3 dir;    ///< Unit length.
};

class Camera {
public:
  glm::vec3 target{0.0f};
  float yaw = 0.6f;    ///< Around +y; 0 puts the eye on +z of the target.
  float pitch = 0.9f;  ///< Elevation of the eye above the target's horizon, clamped to +-1.55.
  float distance = 50; ///< Eye to target.
  float fovY = glm::radians(45.0f);
  float flySpeed = 10.0f; ///< World units per second for fly().

  glm::vec3 eye() const;
  /// Unit vector from the eye towards the target.
  glm::vec3 forward() const;
  glm::vec3 right() const;
  glm::vec3 up() const;
  float nearPlane() const;
  float farPlane() const;

  glm::mat4 view() const;
  glm::mat4 proj(float aspect) const;
  glm::mat4 viewProj(float aspect) const { return proj(aspect) * view(); }

  /// Rotates by a mouse drag of (dx, dy) pixels.
  void rotate(float dxPx, float dyPx);
  /// Pans so the point at the target's depth follows a drag of (dx, dy) pixels.
  void pan(float dxPx, float dyPx, float viewportHeightPx);
  /// Scales the eye-to-target distance by `factor` (< 1 zooms in) about `point`, keeping
  /// `point`'s place on screen (zoom to cursor: pass the point under the mouse).
  void zoomToward(const glm::vec3& point, float factor);
  /// Moves eye and target: `move` is (right, up, forward) in [-1, 1] each, times flySpeed * dt.
  void fly(const glm::vec3& move, float dtSeconds);
  /// Centres on the box and backs off so all of it is visible, keeping the view angles.
  /// Its eight corners are fitted into the NDC rectangle [ndcMin, ndcMax] (default: 90 % of the
  /// view), e.g. to keep it clear of panels.
  void frame(const glm::vec3& boundsMin, const glm::vec3& boundsMax, float aspect,
             const glm::vec2& ndcMin = glm::vec2(-0.9f), const glm::vec2& ndcMax = glm::vec2(0.9f));

  /// The ray through window pixel (px, py) of a w x h viewport (pass pixel centres, e.g. x + 0.5).
  Ray screenRay(float px, float py, float w, float h) const;
  /// The point on the plane through the target facing the camera, under pixel (px, py).
  glm::vec3 pointAtTargetDepth(float px, float py, float w, float h) const;
  /// Window pixel of a world point (z = NDC depth in [-1, 1]); returns false if behind the eye.
  bool project(const glm::vec3& world, float w, float h, glm::vec3& outPx) const;
};

} // namespace render
