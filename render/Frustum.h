// Frustum.h: the six planes of a view-projection matrix, and axis-aligned boxes tested against
// them (per-tile culling of static overlay buffers).
//
// Planes are extracted from the rows of viewProj (Gribb & Hartmann), for OpenGL clip space
// (-w <= x, y, z <= w), and normalised; a point p is inside plane (n, d) when dot(n, p) + d >= 0.
// The box test is conservative: a box reported Outside is certainly invisible; a box near a
// frustum corner may be reported Intersect although it is outside (it is then drawn, which is
// harmless).
#pragma once

#include <glm/glm.hpp>

namespace render {

class Frustum {
public:
  enum Result { Outside, Intersect, Inside };

  Frustum() = default;
  /// From a view-projection matrix (proj * view, as Camera::viewProj returns).
  explicit Frustum(const glm::mat4& viewProj);

  /// Box [mn, mx] in world units: Outside (entirely outside one plane), Inside (inside all six),
  /// or Intersect.
  Result classify(const glm::vec3& mn, const glm::vec3& mx) const;
  bool visible(const glm::vec3& mn, const glm::vec3& mx) const { return classify(mn, mx) != Outside; }

  /// Plane i (left, right, bottom, top, near, far): xyz = unit inward normal, w = offset.
  const glm::vec4& plane(int i) const { return m_planes[i]; }

private:
  glm::vec4 m_planes[6]{};
};

} // namespace render
