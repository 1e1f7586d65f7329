#include "render/Frustum.h"

#include <cmath>

namespace render {

Frustum::Frustum(const glm::mat4& m) {
  // glm is column-major: m[c][r]. Row r of the matrix = (m[0][r], m[1][r], m[2][r], m[3][r]).
  auto row = [&](int r) { return glm::vec4(m[0][r], m[1][r], m[2][r], m[3][r]); };
  const glm::vec4 r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
  m_planes[0] = r3 + r0; // left:   x >= -w
  m_planes[1] = r3 - r0; // right:  x <= w
  m_planes[2] = r3 + r1; // bottom
  m_planes[3] = r3 - r1; // top
  m_planes[4] = r3 + r2; // near:   z >= -w
  m_planes[5] = r3 - r2; // far
  for (glm::vec4& p : m_planes) {
    const float len = glm::length(glm::vec3(p));
    if (len > 0.0f) p /= len;
  }
}

Frustum::Result Frustum::classify(const glm::vec3& mn, const glm::vec3& mx) const {
  Result r = Inside;
  for (const glm::vec4& p : m_planes) {
    // The corner furthest along the normal (p-vertex) and the nearest one (n-vertex).
    const glm::vec3 pv(p.x >= 0 ? mx.x : mn.x, p.y >= 0 ? mx.y : mn.y, p.z >= 0 ? mx.z : mn.z);
    const glm::vec3 nv(p.x >= 0 ? mn.x : mx.x, p.y >= 0 ? mn.y : mx.y, p.z >= 0 ? mn.z : mx.z);
    if (glm::dot(glm::vec3(p), pv) + p.w < 0.0f) return Outside;
    if (glm::dot(glm::vec3(p), nv) + p.w < 0.0f) r = Intersect;
  }
  return r;
}

} // namespace render
