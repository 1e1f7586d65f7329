#include "app/model/TesterPick.h"

#include "app/Level.h"

namespace navbench {

void PickModel::reset() {
  m_hasHit = m_hasSecond = false;
  m_tri = -1;
}

void PickModel::click(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift, PickSides sides) {
  if (shift && m_hasHit) {
    m_second = hitPos;
    m_hasSecond = true;
    return;
  }
  m_hit = hitPos;
  m_hasHit = true;
  m_hasSecond = false;
  m_tri = -1;
  // The triangle under the point, for the readout (the app already picked; this is cheap).
  if (m_level && !m_level->empty()) {
    const glm::vec3 d = hitPos - rayStart;
    const float len = glm::length(d);
    RayHit h;
    if (len > 0 && m_level->raycast(rayStart, d / len, len + 0.01f, sides, h)) {
      m_tri = h.tri;
      m_normal = h.normal;
    }
  }
}

} // namespace navbench
