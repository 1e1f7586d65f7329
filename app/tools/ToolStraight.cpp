#include "app/NavState.h"
#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

namespace navbench {

void ToolStraight::recompute() {
  m_npath = m_nstraight = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !m_startRef || !m_endRef) return;
  m_status = nav->query().findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter(), m_path.data(), &m_npath,
                                   kMaxPolys);
  m_nodesUsed = nav->query().searchView().nodeCount;
  if (m_npath == 0) return;
  float endPos[3] = {m_end.x, m_end.y, m_end.z};
  if (m_path[size_t(m_npath - 1)] != m_endRef)
    nav->query().closestPointOnPoly(m_path[size_t(m_npath - 1)], &m_end.x, endPos, nullptr);
  const int opts = m_crossing == 1 ? nav::STRAIGHTPATH_AREA_CROSSINGS : m_crossing == 2 ? nav::STRAIGHTPATH_ALL_CROSSINGS : 0;
  nav->query().findStraightPath(&m_start.x, endPos, m_path.data(), m_npath, m_straight.data(), m_flags.data(),
                                m_refs.data(), &m_nstraight, kMaxPolys, opts);
}

void ToolStraight::drawResult(render::DebugDraw& dd) {
  drawShortest(dd);
  drawCorridor(dd, m_path.data(), m_npath);
  drawStraight(dd, m_straight.data(), m_flags.data(), m_nstraight);
  if (m_nstraight > 0) drawPartialMarker(dd, &m_straight[size_t(m_nstraight - 1) * 3]);
}

void ToolStraight::resultUi() {
  const char* items[] = {"None", "Area", "All"};
  if (ImGui::Combo("Crossings", &m_crossing, items, 3)) recomputeAll();
  ImGui::Text("Corridor %d polys", m_npath);
  ImGui::Text("Straight path %d corners, %.2f m", m_nstraight, double(polylineLength(m_straight.data(), m_nstraight)));
  int off = 0;
  for (int i = 0; i < m_nstraight; ++i) off += (m_flags[size_t(i)] & nav::STRAIGHTPATH_OFFMESH_CONNECTION) ? 1 : 0;
  if (off) ImGui::Text("Off-mesh connections: %d", off);
  shortestUi("Straight", polylineLength(m_straight.data(), m_nstraight));
}

void ToolStraight::dumpResult(nlohmann::json& out) const {
  out["corridor"] = std::vector<nav::PolyRef>(m_path.begin(), m_path.begin() + m_npath);
  out["straight"] = std::vector<float>(m_straight.begin(), m_straight.begin() + m_nstraight * 3);
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
