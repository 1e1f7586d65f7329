#include "app/NavState.h"
#include "app/Scenario.h"
#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

namespace navbench {

void ToolWallDistance::recompute() {
  m_dist = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !m_startRef) return;
  m_status = nav->query().findDistanceToWall(m_startRef, &m_start.x, m_radius, &nav->filter(), &m_dist, m_hitPos,
                                             m_hitNormal);
  m_nodesUsed = nav->query().searchView().nodeCount;
}

void ToolWallDistance::drawResult(render::DebugDraw& dd) {
  if (!m_startRef || !nav::statusSucceeded(m_status)) return;
  const glm::vec3 up(0, 0.3f, 0);
  const glm::vec3 hit(m_hitPos[0], m_hitPos[1], m_hitPos[2]), n(m_hitNormal[0], m_hitNormal[1], m_hitNormal[2]);
  dd.circle(m_start + up, m_dist, render::rgba(64, 16, 0, 220), 2.0f, true, 48);
  dd.line(m_start + up, hit + up, render::rgba(64, 16, 0, 220), 2.0f);
  dd.point(hit + up, render::rgba(255, 40, 40), 9.0f);
  dd.line(hit + up, hit + up + n * 1.0f, render::rgba(255, 40, 40), 2.5f);
}

void ToolWallDistance::resultUi() {
  if (ImGui::SliderFloat("Max radius", &m_radius, 0.5f, 200.0f, "%.1f")) recomputeAll();
  if (!m_startRef) return;
  ImGui::Text("Distance to wall %.3f m", double(m_dist));
  ImGui::Text("Normal (%.2f, %.2f, %.2f)", double(m_hitNormal[0]), double(m_hitNormal[1]), double(m_hitNormal[2]));
}

void ToolWallDistance::dumpResult(nlohmann::json& out) const {
  out["distance"] = m_dist;
  out["hitPos"] = {m_hitPos[0], m_hitPos[1], m_hitPos[2]};
  out["hitNormal"] = {m_hitNormal[0], m_hitNormal[1], m_hitNormal[2]};
}

void ToolWallDistance::saveOptions(nlohmann::json& out) const { out["radius"] = exactFloat(m_radius); }

bool ToolWallDistance::loadOptions(const nlohmann::json& in, std::string& error) {
  float r = m_radius;
  if (!optionKeys(in, {"radius"}, error) || !optionFloat(in, "radius", 1e-3f, 1e6f, r, error)) return false;
  m_radius = r;
  return true;
}

} // namespace navbench
