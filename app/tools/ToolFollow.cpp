#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

namespace navbench {

void ToolFollow::recompute() {
  m_nsmooth = 0;
  m_stepped.clear();
  m_stepping = false;
  m_steps = 0;
  // Smooth toward the end point, or the nearest point of the last corridor poly (partial path).
  float endPos[3];
  if (!findCorridor(endPos)) return;
  NavState* nav = m_ctx->nav;
  nav::findSmoothPath(&nav->query(), &nav->filter(), m_startRef, &m_start.x, endPos, m_path.data(), m_npath,
                      m_smooth.data(), &m_nsmooth, 2048);
}

void ToolFollow::step() {
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || m_npath == 0) return;
  ++m_steps;
  if (!m_stepping) {
    float endPos[3];
    corridorEnd(endPos);
    if (nav::statusFailed(m_follower->init(&nav->query(), &nav->filter(), m_startRef, &m_start.x, endPos, m_path.data(),
                                           m_npath)))
      return;
    m_stepping = true;
    m_stepped.assign(m_follower->stepPoints(), m_follower->stepPoints() + m_follower->stepPointCount() * 3);
    m_prevPos = m_start;
    return;
  }
  const float* p = m_follower->position();
  m_prevPos = glm::vec3(p[0], p[1], p[2]);
  if (m_follower->step())
    m_stepped.insert(m_stepped.end(), m_follower->stepPoints(), m_follower->stepPoints() + m_follower->stepPointCount() * 3);
  else
    m_play = false;
}

void ToolFollow::update(float dt) {
  if (!m_play) return;
  m_playAccum += dt;
  while (m_playAccum > 0.05f) {
    m_playAccum -= 0.05f;
    step();
  }
}

void ToolFollow::drawResult(render::DebugDraw& dd) {
  drawShortest(dd);
  drawCorridor(dd, m_path.data(), m_npath);
  const glm::vec3 up(0, 0.1f, 0);
  dd.begin(render::Prim::Lines, 2.0f);
  for (int i = 1; i < m_nsmooth; ++i) {
    dd.vertex(glm::vec3(m_smooth[size_t(i) * 3 - 3], m_smooth[size_t(i) * 3 - 2], m_smooth[size_t(i) * 3 - 1]) + up,
              render::rgba(0, 0, 0, 220));
    dd.vertex(glm::vec3(m_smooth[size_t(i) * 3], m_smooth[size_t(i) * 3 + 1], m_smooth[size_t(i) * 3 + 2]) + up,
              render::rgba(0, 0, 0, 220));
  }
  dd.end();
  dd.begin(render::Prim::Points, 4.0f);
  for (int i = 0; i < m_nsmooth; ++i)
    dd.vertex(glm::vec3(m_smooth[size_t(i) * 3], m_smooth[size_t(i) * 3 + 1], m_smooth[size_t(i) * 3 + 2]) + up,
              render::rgba(0, 0, 0, 255));
  dd.end();
  if (m_nsmooth > 0) drawPartialMarker(dd, &m_smooth[size_t(m_nsmooth - 1) * 3]);
  if (m_stepping && m_ctx && m_ctx->nav) {
    const nav::PathFollower& f = *m_follower;
    if (f.corridorSize() > 0) drawPolyFill(dd, m_ctx->nav->mesh(), f.corridor()[0], render::rgba(255, 220, 0, 120), 0.09f);
    for (size_t i = 3; i < m_stepped.size(); i += 3)
      dd.line(glm::vec3(m_stepped[i - 3], m_stepped[i - 2], m_stepped[i - 1]) + up * 2.0f,
              glm::vec3(m_stepped[i], m_stepped[i + 1], m_stepped[i + 2]) + up * 2.0f, render::rgba(255, 220, 0), 3.0f);
    const glm::vec3 pos(f.position()[0], f.position()[1], f.position()[2]);
    const glm::vec3 steer(f.steerTarget()[0], f.steerTarget()[1], f.steerTarget()[2]);
    dd.point(m_prevPos + up, render::rgba(180, 180, 180), 8.0f);
    dd.point(pos + up, render::rgba(255, 220, 0), 10.0f);
    drawAgent(dd, pos, kAgentRadius, kAgentHeight, render::rgba(255, 220, 0, 200));
    dd.line(pos + up * 5.0f, steer + up * 5.0f, render::rgba(0, 200, 255), 2.0f);
    dd.cross(steer + up * 5.0f, 0.3f, render::rgba(0, 200, 255));
  }
}

void ToolFollow::resultUi() {
  ImGui::Text("Corridor %d polys", m_npath);
  ImGui::Text("Smooth path %d points, %.2f m", m_nsmooth, double(polylineLength(m_smooth.data(), m_nsmooth)));
  if (ImGui::Button("Step (Space)")) step();
  ImGui::SameLine();
  ImGui::Checkbox("Play", &m_play);
  ImGui::SameLine();
  if (ImGui::Button("Restart")) {
    m_stepping = false;
    m_steps = 0;
  }
  if (m_stepping) ImGui::Text("Stepped %d points%s", int(m_stepped.size() / 3), m_follower->done() ? " (done)" : "");
  shortestUi("Smooth", polylineLength(m_smooth.data(), m_nsmooth));
}

void ToolFollow::dumpResult(nlohmann::json& out) const {
  out["corridor"] = std::vector<nav::PolyRef>(m_path.begin(), m_path.begin() + m_npath);
  out["smooth"] = std::vector<float>(m_smooth.begin(), m_smooth.begin() + m_nsmooth * 3);
  out["smoothCount"] = m_nsmooth;
  dumpShortest(out);
}

void ToolFollow::saveOptions(nlohmann::json& out) const { out["steps"] = m_steps; }

bool ToolFollow::loadOptions(const nlohmann::json& in, std::string& error) {
  int steps = 0;
  if (!optionKeys(in, {"steps"}, error) || !optionInt(in, "steps", 0, 100000, steps, error)) return false;
  m_restoreSteps = steps;
  return true;
}

void ToolFollow::afterScenarioLoad() {
  m_play = false;
  for (int i = 0; i < m_restoreSteps; ++i) step();
  m_restoreSteps = 0;
}

} // namespace navbench
