#include "app/tools/ToolPick.h"

#include "app/Level.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolPick::reset() {
  m_hasHit = m_hasSecond = false;
  m_tri = -1;
}

void ToolPick::onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) {
  if (shift && m_hasHit) {
    m_second = hitPos;
    m_hasSecond = true;
    return;
  }
  m_rayStart = rayStart;
  m_hit = hitPos;
  m_hasHit = true;
  m_hasSecond = false;
  m_tri = -1;
  // Recover the triangle under the point for the readout (the app already picked; this is cheap).
  if (m_ctx && m_ctx->level && !m_ctx->level->empty()) {
    glm::vec3 d = hitPos - rayStart;
    float len = glm::length(d);
    RayHit h;
    if (len > 0 && m_ctx->level->raycast(rayStart, d / len, len + 0.01f, h)) {
      m_tri = h.tri;
      m_normal = h.normal;
    }
  }
}

void ToolPick::drawUi() {
  ImGui::TextWrapped("Click the level to pick a point; Shift+click for a second point.");
  if (!m_hasHit) {
    ImGui::TextDisabled("No point picked.");
    return;
  }
  ImGui::Text("Hit   (%.2f, %.2f, %.2f)", m_hit.x, m_hit.y, m_hit.z);
  if (m_tri >= 0) {
    ImGui::Text("Triangle %d", m_tri);
    ImGui::Text("Normal (%.2f, %.2f, %.2f)", m_normal.x, m_normal.y, m_normal.z);
  }
  if (m_hasSecond) {
    ImGui::Text("Second (%.2f, %.2f, %.2f)", m_second.x, m_second.y, m_second.z);
    ImGui::Text("Distance %.2f m", double(glm::length(m_second - m_hit)));
  }
  if (ImGui::Button("Clear")) reset();
}

void ToolPick::draw(render::DebugDraw& dd) {
  if (!m_hasHit) return;
  const uint32_t hitColor = render::rgba(255, 196, 0);
  // The triangle under the point, the marker (visible through walls, faintly) and the normal.
  if (m_tri >= 0 && m_ctx && m_ctx->level && m_tri < m_ctx->level->mesh().triCount()) {
    const TriMesh& m = m_ctx->level->mesh();
    glm::vec3 a = m.vert(m.tris[size_t(m_tri) * 3]), b = m.vert(m.tris[size_t(m_tri) * 3 + 1]),
              c = m.vert(m.tris[size_t(m_tri) * 3 + 2]);
    dd.triangle(a, b, c, render::rgba(255, 196, 0, 60));
    dd.begin(render::Prim::Lines, 1.5f);
    const glm::vec3 v[3] = {a, b, c};
    for (int i = 0; i < 3; ++i) {
      dd.vertex(v[i], render::rgba(255, 196, 0, 160));
      dd.vertex(v[(i + 1) % 3], render::rgba(255, 196, 0, 160));
    }
    dd.end();
  }
  dd.point(m_hit, render::rgba(255, 196, 0, 70), 10.0f, false);
  dd.point(m_hit, hitColor, 10.0f);
  dd.circle(m_hit + m_normal * 0.02f, 0.6f, hitColor, 2.0f); // the agent radius
  dd.line(m_hit, m_hit + m_normal * 1.0f, render::rgba(255, 80, 40), 2.0f);
  if (m_hasSecond) {
    dd.point(m_second, render::rgba(80, 200, 255), 10.0f);
    dd.line(m_hit, m_second, render::rgba(80, 200, 255), 2.0f, false);
  }
}

} // namespace navbench
