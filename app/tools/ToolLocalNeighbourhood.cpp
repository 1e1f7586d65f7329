#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/Scenario.h"
#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

namespace navbench {

void ToolLocalNeighbourhood::recompute() {
  m_count = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !m_startRef) return;
  m_status = nav->query().findLocalNeighbourhood(m_startRef, &m_start.x, m_radius, &nav->filter(), m_refs, m_parents,
                                                 &m_count, kMax);
}

void ToolLocalNeighbourhood::drawResult(render::DebugDraw& dd) {
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !m_startRef) return;
  const nav::NavMesh& mesh = nav->mesh();
  const glm::vec3 up(0, 0.3f, 0);
  dd.circle(m_start + up, m_radius, render::rgba(64, 16, 0, 220), 2.0f, true, 48);
  for (int i = 0; i < m_count; ++i) {
    drawPolyFill(dd, mesh, m_refs[i], render::rgba(255, 196, 0, 70), 0.08f);
    if (m_parents[i])
      drawArc(dd, polyCenter(mesh, m_parents[i]) + up, polyCenter(mesh, m_refs[i]) + up, 0.4f, render::rgba(0, 0, 0, 160),
              false, 1.5f);
    // Walls red, portals to other polys faint blue.
    float segs[6 * 32];
    nav::PolyRef segRefs[32];
    int nsegs = 0;
    nav->query().getPolyWallSegments(m_refs[i], &nav->filter(), segs, segRefs, &nsegs, 32);
    for (int s = 0; s < nsegs; ++s) {
      const glm::vec3 a(segs[s * 6], segs[s * 6 + 1], segs[s * 6 + 2]), b(segs[s * 6 + 3], segs[s * 6 + 4], segs[s * 6 + 5]);
      dd.line(a + up * 0.5f, b + up * 0.5f, segRefs[s] ? render::rgba(0, 120, 255, 120) : render::rgba(220, 30, 30, 230),
              segRefs[s] ? 1.0f : 3.0f);
    }
  }
}

void ToolLocalNeighbourhood::resultUi() {
  if (ImGui::SliderFloat("Radius", &m_radius, 0.5f, 40.0f, "%.1f")) recomputeAll();
  if (m_startRef) ImGui::Text("%d polys found", m_count);
}

void ToolLocalNeighbourhood::dumpResult(nlohmann::json& out) const {
  out["radius"] = m_radius;
  dumpFoundPolys(out, m_refs, m_parents, m_count);
}

void ToolLocalNeighbourhood::saveOptions(nlohmann::json& out) const { out["radius"] = exactFloat(m_radius); }

bool ToolLocalNeighbourhood::loadOptions(const nlohmann::json& in, std::string& error) {
  float r = m_radius;
  if (!optionKeys(in, {"radius"}, error) || !optionFloat(in, "radius", 1e-3f, 1e6f, r, error)) return false;
  m_radius = r;
  return true;
}

} // namespace navbench
