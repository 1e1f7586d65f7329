#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolPolysCircle::drawResult(render::DebugDraw& dd) {
  const PolysCircleModel& m = model();
  if (!nav() || !m.startRef() || !m.hasEnd()) return;
  drawStartCircle(dd, m.radius());
  drawFoundPolys(dd, m.found().refs.data(), m.found().parents.data(), m.found().count);
}

void ToolPolysCircle::resultUi() {
  const PolysCircleModel& m = model();
  if (m.startRef() && m.hasEnd()) ImGui::Text("Radius %.2f m: %d polys found", double(m.radius()), m.found().count);
}

} // namespace navbench
