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
  const glm::vec3 up(0, 0.3f, 0);
  dd.circle(m_start + up, glm::length(m_end - m_start), render::rgba(64, 16, 0, 220), 2.0f, true, 48);
  drawFoundPolys(dd, m_refs, m_parents, m_count);
}

void ToolPolysCircle::resultUi() {
  if (m_startRef && m_hasEnd) ImGui::Text("Radius %.2f m: %d polys found", double(glm::length(m_end - m_start)), m_count);
}

void ToolPolysCircle::dumpResult(nlohmann::json& out) const {
  dumpFoundPolys(out, m_refs, m_parents, m_count);
}

} // namespace navbench
