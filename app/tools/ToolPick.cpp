#include "app/tools/ToolPick.h"

#include "app/Level.h"
#include "app/ViewSettings.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolPick::init(ToolContext& ctx) {
  Tool::init(ctx);
  m_model.setLevel(ctx.level);
}

void ToolPick::onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) {
  m_model.click(rayStart, hitPos, shift, m_ctx && m_ctx->view ? m_ctx->view->levelPickSides() : PickSides::Front);
}

void ToolPick::drawUi() {
  const PickModel& m = m_model;
  ImGui::TextWrapped("Click the level to pick a point; Shift+click for a second point.");
  if (!m.hasHit()) {
    ImGui::TextDisabled("No point picked.");
    return;
  }
  ImGui::Text("Hit   (%.2f, %.2f, %.2f)", m.hit().x, m.hit().y, m.hit().z);
  if (m.tri() >= 0) {
    ImGui::Text("Triangle %d", m.tri());
    ImGui::Text("Normal (%.2f, %.2f, %.2f)", m.normal().x, m.normal().y, m.normal().z);
  }
  if (m.hasSecond()) {
    ImGui::Text("Second (%.2f, %.2f, %.2f)", m.second().x, m.second().y, m.second().z);
    ImGui::Text("Distance %.2f m", double(m.distance()));
  }
  if (ImGui::Button("Clear")) m_model.reset();
}

void ToolPick::draw(render::DebugDraw& dd) {
  const PickModel& m = m_model;
  if (!m.hasHit()) return;
  const uint32_t hitColor = render::rgba(255, 196, 0);
  // The triangle under the point, the marker (visible through walls, faintly) and the normal.
  if (m.tri() >= 0 && m_ctx && m_ctx->level && m.tri() < m_ctx->level->mesh().triCount()) {
    const TriMesh& mesh = m_ctx->level->mesh();
    const size_t t = size_t(m.tri()) * 3;
    const glm::vec3 a = mesh.vert(mesh.tris[t]), b = mesh.vert(mesh.tris[t + 1]), c = mesh.vert(mesh.tris[t + 2]);
    dd.triangle(a, b, c, render::rgba(255, 196, 0, 60));
    dd.begin(render::Prim::Lines, 1.5f);
    const glm::vec3 v[3] = {a, b, c};
    for (int i = 0; i < 3; ++i) {
      dd.vertex(v[i], render::rgba(255, 196, 0, 160));
      dd.vertex(v[(i + 1) % 3], render::rgba(255, 196, 0, 160));
    }
    dd.end();
  }
  dd.point(m.hit(), render::rgba(255, 196, 0, 70), 10.0f, false);
  dd.point(m.hit(), hitColor, 10.0f);
  dd.circle(m.hit() + m.normal() * 0.02f, 0.6f, hitColor, 2.0f); // the agent radius
  dd.line(m.hit(), m.hit() + m.normal() * 1.0f, render::rgba(255, 80, 40), 2.0f);
  if (m.hasSecond()) {
    dd.point(m.second(), render::rgba(80, 200, 255), 10.0f);
    dd.line(m.hit(), m.second(), render::rgba(80, 200, 255), 2.0f, false);
  }
}

} // namespace navbench
