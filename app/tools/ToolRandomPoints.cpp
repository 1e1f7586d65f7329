#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolRandomPoints::drawResult(render::DebugDraw& dd) {
  const RandomPointsModel& m = model();
  if (m.inCircle() && m.startRef()) drawStartCircle(dd, m.radius());
  const std::vector<float>& pts = m.points();
  dd.begin(render::Prim::Points, 5.0f);
  for (size_t i = 0; i + 2 < pts.size(); i += 3)
    dd.vertex(glm::vec3(pts[i], pts[i + 1] + 0.15f, pts[i + 2]), render::rgba(220, 30, 120));
  dd.end();
}

void ToolRandomPoints::resultUi() {
  RandomPointsModel& m = model();
  int count = m.count();
  if (ImGui::SliderInt("Count", &count, 1, 2000)) m.setCount(count);
  float r = m.radius();
  if (ImGui::SliderFloat("Circle radius", &r, 0.5f, 50.0f, "%.1f")) m.setRadius(r);
  if (ImGui::Button("Anywhere")) m.generate(false);
  ImGui::SameLine();
  if (ImGui::Button("Around start")) m.generate(true);
  ImGui::Text("%d points", int(m.points().size() / 3));
}

} // namespace navbench
