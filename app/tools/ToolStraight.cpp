#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolStraight::drawResult(render::DebugDraw& dd) {
  drawShortest(dd);
  drawPath(dd, model());
  drawAlgorithm(dd, model());
}

void ToolStraight::resultUi() {
  StraightModel& m = model();
  algorithmUi(m);
  const char* items[] = {"None", "Area", "All"};
  int crossing = m.crossing();
  if (ImGui::Combo("Crossings", &crossing, items, 3)) m.setCrossing(crossing);
  ImGui::Text("Corridor %d polys", m.corridorSize());
  ImGui::Text("Straight path %d corners, %.2f m", m.straightSize(), double(m.straightLength()));
  int off = 0;
  for (int i = 0; i < m.straightSize(); ++i) off += (m.straightFlags()[i] & nav::STRAIGHTPATH_OFFMESH_CONNECTION) ? 1 : 0;
  if (off) ImGui::Text("Off-mesh connections: %d", off);
  shortestUi("Straight", m.straightLength());
}

} // namespace navbench
