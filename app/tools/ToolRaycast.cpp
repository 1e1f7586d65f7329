#include "app/NavState.h"
#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cfloat>

namespace navbench {

void ToolRaycast::recompute() {
  m_npath = 0;
  m_t = 0;
  m_normal[0] = m_normal[1] = m_normal[2] = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !m_startRef || !m_hasEnd) return;
  m_status = nav->query().raycast(m_startRef, &m_start.x, &m_end.x, &nav->filter(), &m_t, m_normal, m_path.data(),
                                  &m_npath, kMaxPolys);
  if (m_t > 1.0f) { // no hit: the ray reaches the end
    m_hitPos = m_end;
  } else {
    m_hitPos = m_start + (m_end - m_start) * m_t;
  }
  // Put the hit on the last visited poly's surface.
  if (m_npath > 0) {
    float h = 0;
    if (nav::statusSucceeded(nav->query().getPolyHeight(m_path[size_t(m_npath - 1)], &m_hitPos.x, &h))) m_hitPos.y = h;
  }
}

void ToolRaycast::drawResult(render::DebugDraw& dd) {
  if (!m_hasStart || !m_hasEnd || !m_startRef) return;
  drawCorridor(dd, m_path.data(), m_npath);
  const glm::vec3 up(0, 0.4f, 0);
  const bool hit = m_t <= 1.0f;
  dd.line(m_start + up, m_hitPos + up, render::rgba(64, 16, 0, 220), 3.0f);
  if (hit) {
    dd.line(m_hitPos + up, m_end + up, render::rgba(64, 16, 0, 70), 1.0f);
    dd.point(m_hitPos + up, render::rgba(255, 40, 40), 10.0f);
    const glm::vec3 n(m_normal[0], m_normal[1], m_normal[2]);
    dd.line(m_hitPos + up, m_hitPos + up + n * 1.0f, render::rgba(255, 40, 40), 2.5f);
  }
}

void ToolRaycast::resultUi() {
  if (!m_hasStart || !m_hasEnd) return;
  if (m_t > 1.0f) ImGui::Text("No hit: the end is visible from the start");
  else {
    ImGui::Text("Hit at t = %.3f (%.2f, %.2f, %.2f)", double(m_t), double(m_hitPos.x), double(m_hitPos.y), double(m_hitPos.z));
    ImGui::Text("Wall normal (%.2f, %.2f, %.2f)", double(m_normal[0]), double(m_normal[1]), double(m_normal[2]));
  }
  ImGui::Text("Visited %d polys", m_npath);
}

void ToolRaycast::dumpResult(nlohmann::json& out) const {
  out["t"] = m_t > 1.0f ? -1.0f : m_t; // JSON has no infinity: -1 = no hit
  out["hitNormal"] = {m_normal[0], m_normal[1], m_normal[2]};
  out["visited"] = std::vector<nav::PolyRef>(m_path.begin(), m_path.begin() + m_npath);
}

} // namespace navbench
