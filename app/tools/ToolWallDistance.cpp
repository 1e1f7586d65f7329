#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolWallDistance::drawResult(render::DebugDraw& dd) {
  const WallDistanceModel& m = model();
  if (!m.startRef() || !nav::statusSucceeded(m.status())) return;
  const glm::vec3 up(0, 0.3f, 0);
  const glm::vec3 hit(m.hitPos()[0], m.hitPos()[1], m.hitPos()[2]), n(m.hitNormal()[0], m.hitNormal()[1], m.hitNormal()[2]);
  drawStartCircle(dd, m.distance());
  dd.line(m.start() + up, hit + up, render::rgba(64, 16, 0, 220), 2.0f);
  dd.point(hit + up, render::rgba(255, 40, 40), 9.0f);
  dd.line(hit + up, hit + up + n * 1.0f, render::rgba(255, 40, 40), 2.5f);
}

void ToolWallDistance::resultUi() {
  const WallDistanceModel& m = model();
  radiusUi("Max radius", 0.5f, 200.0f);
  if (!m.startRef()) return;
  ImGui::Text("Distance to wall %.3f m", double(m.distance()));
  ImGui::Text("Normal (%.2f, %.2f, %.2f)", double(m.hitNormal()[0]), double(m.hitNormal()[1]), double(m.hitNormal()[2]));
}

} // namespace navbench
