#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

namespace navbench {

void ToolPolysCircle::recompute() {
  m_count = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !m_startRef || !m_hasEnd) return;
  const float r = glm::length(m_end - m_start);
  m_status = nav->query().findPolysAroundCircle(m_startRef, &m_start.x, r, &nav->filter(), m_refs, m_parents, nullptr,
                                                &m_count, kMax);
  m_nodesUsed = nav->query().searchView().nodeCount;
}

void ToolPolysCircle::drawResult(render::DebugDraw& dd) {
  if (!m_ctx || !m_ctx->nav || !m_startRef || !m_hasEnd) return;
  const nav::NavMesh& mesh = m_ctx->nav->mesh();
  const glm::vec3 up(0, 0.3f, 0);
  dd.circle(m_start + up, glm::length(m_end - m_start), render::rgba(64, 16, 0, 220), 2.0f, true, 48);
  for (int i = 0; i < m_count; ++i) {
    drawPolyFill(dd, mesh, m_refs[i], render::rgba(255, 196, 0, 70), 0.08f);
    if (m_parents[i]) { // parent -> child arrow
      drawArc(dd, polyCenter(mesh, m_parents[i]) + up, polyCenter(mesh, m_refs[i]) + up, 0.4f, render::rgba(0, 0, 0, 160),
              false, 1.5f);
    }
  }
}

void ToolPolysCircle::resultUi() {
  if (m_startRef && m_hasEnd) ImGui::Text("Radius %.2f m: %d polys found", double(glm::length(m_end - m_start)), m_count);
}

void ToolPolysCircle::dumpResult(nlohmann::json& out) const {
  out["found"] = std::vector<nav::PolyRef>(m_refs, m_refs + m_count);
  out["parents"] = std::vector<nav::PolyRef>(m_parents, m_parents + m_count);
}

} // namespace navbench
