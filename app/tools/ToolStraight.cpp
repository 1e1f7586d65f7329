#include "app/NavState.h"
#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

namespace navbench {

void ToolStraight::recompute() {
  m_nstraight = 0;
  float endPos[3];
  if (!findCorridor(endPos)) return;
  const int opts = m_crossing == 1 ? nav::STRAIGHTPATH_AREA_CROSSINGS : m_crossing == 2 ? nav::STRAIGHTPATH_ALL_CROSSINGS : 0;
  m_ctx->nav->query().findStraightPath(&m_start.x, endPos, m_path.data(), m_npath, m_straight.data(), m_flags.data(),
                                       m_refs.data(), &m_nstraight, kMaxPolys, opts);
}

void ToolStraight::drawResult(render::DebugDraw& dd) {
  drawShortest(dd);
  drawPath(dd);
}

void ToolStraight::resultUi() {
  const char* items[] = {"None", "Area", "All"};
  if (ImGui::Combo("Crossings", &m_crossing, items, 3)) recomputeAll();
  ImGui::Text("Corridor %d polys", m_npath);
  ImGui::Text("Straight path %d corners, %.2f m", m_nstraight, double(straightLength()));
  int off = 0;
  for (int i = 0; i < m_nstraight; ++i) off += (m_flags[size_t(i)] & nav::STRAIGHTPATH_OFFMESH_CONNECTION) ? 1 : 0;
  if (off) ImGui::Text("Off-mesh connections: %d", off);
  shortestUi("Straight", straightLength());
}

void ToolStraight::dumpResult(nlohmann::json& out) const {
  dumpPath(out);
  out["straightFlags"] = std::vector<int>(m_flags.begin(), m_flags.begin() + m_nstraight);
  out["crossing"] = m_crossing;
  dumpShortest(out);
}

void ToolStraight::saveOptions(nlohmann::json& out) const { out["crossing"] = m_crossing; }

bool ToolStraight::loadOptions(const nlohmann::json& in, std::string& error) {
  int crossing = m_crossing;
  if (!optionKeys(in, {"crossing"}, error) || !optionInt(in, "crossing", 0, 2, crossing, error)) return false;
  m_crossing = crossing;
  return true;
}

} // namespace navbench
