#include "app/NavState.h"
#include "app/Scenario.h"
#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <random>

namespace navbench {

namespace {
std::mt19937 g_rng(12345); // fixed seed: the same clicks give the same points
float frand() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(g_rng) * 0.99999994f; }
} // namespace

void ToolRandomPoints::recompute() {
  // A click (or typed start) places the circle; the points are generated on demand (buttons) and,
  // with "in circle", again whenever the start moves.
  if (m_inCircle) generate(true);
}

void ToolRandomPoints::generate(bool inCircle) {
  m_points.clear();
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !nav->loaded() || (inCircle && !m_startRef)) return;
  g_rng.seed(12345);
  int failures = 0;
  for (int i = 0; i < m_count; ++i) {
    nav::PolyRef ref = 0;
    float p[3];
    const nav::Status s = inCircle ? nav->query().findRandomPointAroundCircle(m_startRef, &m_start.x, m_radius,
                                                                              &nav->filter(), frand, &ref, p)
                                   : nav->query().findRandomPoint(&nav->filter(), frand, &ref, p);
    m_status = s;
    if (nav::statusSucceeded(s)) m_points.insert(m_points.end(), p, p + 3);
    else ++failures;
  }
  (void)failures;
}

void ToolRandomPoints::drawResult(render::DebugDraw& dd) {
  if (m_inCircle && m_startRef) dd.circle(m_start + glm::vec3(0, 0.3f, 0), m_radius, render::rgba(64, 16, 0, 220), 2.0f, true, 48);
  dd.begin(render::Prim::Points, 5.0f);
  for (size_t i = 0; i + 2 < m_points.size(); i += 3)
    dd.vertex(glm::vec3(m_points[i], m_points[i + 1] + 0.15f, m_points[i + 2]), render::rgba(220, 30, 120));
  dd.end();
}

void ToolRandomPoints::resultUi() {
  ImGui::SliderInt("Count", &m_count, 1, 2000);
  if (ImGui::SliderFloat("Circle radius", &m_radius, 0.5f, 50.0f, "%.1f") && m_inCircle) generate(true);
  if (ImGui::Button("Anywhere")) {
    m_inCircle = false;
    generate(false);
  }
  ImGui::SameLine();
  if (ImGui::Button("Around start")) {
    m_inCircle = true;
    generate(true);
  }
  ImGui::Text("%d points", int(m_points.size() / 3));
}

void ToolRandomPoints::dumpResult(nlohmann::json& out) const {
  out["inCircle"] = m_inCircle;
  out["radius"] = m_radius;
  out["points"] = m_points;
}

void ToolRandomPoints::saveOptions(nlohmann::json& out) const {
  out["count"] = m_count;
  out["radius"] = exactFloat(m_radius);
  out["inCircle"] = m_inCircle;
}

bool ToolRandomPoints::loadOptions(const nlohmann::json& in, std::string& error) {
  int count = m_count;
  float r = m_radius;
  bool inCircle = m_inCircle;
  if (!optionKeys(in, {"count", "radius", "inCircle"}, error) || !optionInt(in, "count", 1, 2000, count, error) ||
      !optionFloat(in, "radius", 1e-3f, 1e6f, r, error) || !optionBool(in, "inCircle", inCircle, error))
    return false;
  m_count = count;
  m_radius = r;
  m_inCircle = inCircle;
  return true;
}

void ToolRandomPoints::afterScenarioLoad() {
  if (!m_inCircle) generate(false); // "Anywhere" points are made on demand: make them again
}

} // namespace navbench
