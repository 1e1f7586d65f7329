#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolPolysShape::drawResult(render::DebugDraw& dd) {
  const PolysShapeModel& m = model();
  if (!nav() || !m.startRef() || !m.hasEnd()) return;
  const float* q = m.shape();
  for (int i = 0; i < 4; ++i) {
    const int j = (i + 1) % 4;
    dd.line(glm::vec3(q[i * 3], q[i * 3 + 1], q[i * 3 + 2]), glm::vec3(q[j * 3], q[j * 3 + 1], q[j * 3 + 2]),
            render::rgba(64, 16, 0, 220), 2.0f);
  }
  drawFoundPolys(dd, m.found().refs.data(), m.found().parents.data(), m.found().count);
}

void ToolPolysShape::resultUi() {
  const PolysShapeModel& m = model();
  if (m.startRef() && m.hasEnd()) ImGui::Text("%d polys found", m.found().count);
}

} // namespace navbench
