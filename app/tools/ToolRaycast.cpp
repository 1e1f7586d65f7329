#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolRaycast::drawResult(render::DebugDraw& dd) {
  const RaycastModel& m = model();
  if (!m.hasStart() || !m.hasEnd() || !m.startRef()) return;
  drawCorridor(dd, m.visited(), m.visitedCount());
  const glm::vec3 up(0, 0.4f, 0);
  dd.line(m.start() + up, m.hitPos() + up, render::rgba(64, 16, 0, 220), 3.0f);
  if (m.hit()) {
    dd.line(m.hitPos() + up, m.end() + up, render::rgba(64, 16, 0, 70), 1.0f);
    dd.point(m.hitPos() + up, render::rgba(255, 40, 40), 10.0f);
    const glm::vec3 n(m.normal()[0], m.normal()[1], m.normal()[2]);
    dd.line(m.hitPos() + up, m.hitPos() + up + n * 1.0f, render::rgba(255, 40, 40), 2.5f);
  }
}

void ToolRaycast::resultUi() {
  const RaycastModel& m = model();
  if (!m.hasStart() || !m.hasEnd()) return;
  if (!m.hit()) ImGui::Text("No hit: the end is visible from the start");
  else {
    const glm::vec3& h = m.hitPos();
    ImGui::Text("Hit at t = %.3f (%.2f, %.2f, %.2f)", double(m.t()), double(h.x), double(h.y), double(h.z));
    ImGui::Text("Wall normal (%.2f, %.2f, %.2f)", double(m.normal()[0]), double(m.normal()[1]), double(m.normal()[2]));
  }
  ImGui::Text("Visited %d polys", m.visitedCount());
}

} // namespace navbench
