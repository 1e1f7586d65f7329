#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

namespace navbench {

void ToolPolysShape::recompute() {
  m_count = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !m_startRef || !m_hasEnd) return;
  // A quad along start -> end, half as wide as long, a little wider at the start.
  const float nx = (m_end.z - m_start.z) * 0.25f, nz = -(m_end.x - m_start.x) * 0.25f;
  const float y = m_start.y + kAgentHeight * 0.5f;
  const float q[12] = {m_start.x + nx * 1.2f, y, m_start.z + nz * 1.2f, m_start.x - nx * 1.3f, y, m_start.z - nz * 1.3f,
                       m_end.x - nx * 0.8f,   y, m_end.z - nz * 0.8f,   m_end.x + nx,          y, m_end.z + nz};
  std::copy(q, q + 12, m_shape);
  m_status = nav->query().findPolysAroundShape(m_startRef, m_shape, 4, &nav->filter(), m_refs, m_parents, nullptr,
                                               &m_count, kMax);
  m_nodesUsed = nav->query().searchView().nodeCount;
}

void ToolPolysShape::drawResult(render::DebugDraw& dd) {
  if (!m_ctx || !m_ctx->nav || !m_startRef || !m_hasEnd) return;
  for (int i = 0; i < 4; ++i) {
    const int j = (i + 1) % 4;
    dd.line(glm::vec3(m_shape[i * 3], m_shape[i * 3 + 1], m_shape[i * 3 + 2]),
            glm::vec3(m_shape[j * 3], m_shape[j * 3 + 1], m_shape[j * 3 + 2]), render::rgba(64, 16, 0, 220), 2.0f);
  }
  drawFoundPolys(dd, m_refs, m_parents, m_count);
}

void ToolPolysShape::resultUi() {
  if (m_startRef && m_hasEnd) ImGui::Text("%d polys found", m_count);
}

void ToolPolysShape::dumpResult(nlohmann::json& out) const {
  out["shape"] = std::vector<float>(m_shape, m_shape + 12);
  dumpFoundPolys(out, m_refs, m_parents, m_count);
}

} // namespace navbench
