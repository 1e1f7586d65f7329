#include "app/NavState.h"
#include "app/tools/TesterModes.h"
#include "nav/NodePool.h"
#include "nav/ShortestPath.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolSliced::drawResult(render::DebugDraw& dd) {
  const SlicedModel& m = model();
  if (!nav() || !nav()->loaded()) return;
  const glm::vec3 up(0, 0.25f, 0);
  if (m.running() && m.exactSearch()) { // exact search: intervals, roots, parent links
    const nav::ShortestPath& search = *m.exactSearch();
    nav::ShortestPathNodeView v, pv;
    for (int i = 0; i < search.nodeCount(); ++i) {
      if (!search.getNode(i, &v)) continue;
      const glm::vec3 l(v.left[0], v.left[1], v.left[2]), r(v.right[0], v.right[1], v.right[2]);
      const glm::vec3 root(v.root[0], v.root[1], v.root[2]);
      dd.line(l + up, r + up, render::rgba(0, 200, 255), 3.0f);
      dd.line(root + up, (l + r) * 0.5f + up, render::rgba(255, 255, 255, 60), 1.0f);
      dd.point(root + up, render::rgba(255, 140, 0), 8.0f);
      if (v.parent >= 0 && search.getNode(v.parent, &pv)) {
        const glm::vec3 pm((pv.left[0] + pv.right[0]) * 0.5f, (pv.left[1] + pv.right[1]) * 0.5f, (pv.left[2] + pv.right[2]) * 0.5f);
        dd.line(pm + up, (l + r) * 0.5f + up, render::rgba(255, 196, 0, 160), 1.5f);
      }
    }
    return;
  }
  if (m.running()) { // the search so far: closed nodes with their parents, open nodes
    const nav::SearchView v = nav()->query().searchView();
    for (int i = 0; i < v.nodeCount; ++i) {
      const nav::Node& n = v.pool->nodeAt(i);
      const glm::vec3 p(n.pos[0], n.pos[1], n.pos[2]);
      const bool closed = (n.flags & nav::NODE_CLOSED) != 0;
      dd.point(p + up, closed ? render::rgba(255, 196, 0) : render::rgba(0, 160, 255), closed ? 6.0f : 8.0f);
      if (const nav::Node* par = v.parentOf(n))
        dd.line(glm::vec3(par->pos[0], par->pos[1], par->pos[2]) + up, p + up, render::rgba(255, 196, 0, 160), 1.5f);
    }
    if (v.lastExpanded)
      dd.point(glm::vec3(v.lastExpanded->pos[0], v.lastExpanded->pos[1], v.lastExpanded->pos[2]) + up,
               render::rgba(255, 40, 40), 11.0f);
    return;
  }
  drawPath(dd, m);
}

void ToolSliced::resultUi() {
  SlicedModel& m = model();
  int perFrame = m.itersPerFrame();
  if (ImGui::SliderInt("Iterations / frame", &perFrame, 1, 64)) m.setItersPerFrame(perFrame);
  bool paused = m.paused();
  if (ImGui::Checkbox("Pause", &paused)) m.setPaused(paused);
  ImGui::SameLine();
  if (ImGui::Button("Step (Space)")) m.step();
  ImGui::SameLine();
  if (ImGui::Button("Restart")) m.recomputeAll();
  bool exact = m.exact();
  if (ImGui::Checkbox("Exact search (shortest path)", &exact)) m.setShowShortest(exact);
  if (m.exact()) ImGui::TextWrapped("Intervals (cyan), their roots (orange), parent links (yellow)");
  ImGui::Text("%s after %d iterations", m.running() ? "Searching" : "Done", m.iterations());
  ImGui::Text("Corridor %d polys, %s path %d corners, %.2f m", m.corridorSize(), m.exact() ? "shortest" : "straight",
              m.straightSize(), double(m.exact() ? m.exactLen() : m.straightLength()));
}

} // namespace navbench
