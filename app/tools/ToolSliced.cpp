#include "app/NavState.h"
#include "app/tools/TesterModes.h"
#include "nav/NodePool.h"
#include "nav/ShortestPath.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

namespace navbench {

void ToolSliced::setShowShortest(bool on) {
  m_exact = on;
  recomputeAll();
}

void ToolSliced::recompute() {
  m_npath = m_nstraight = 0;
  m_totalIters = 0;
  m_running = false;
  m_exactLen = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !m_startRef || !m_endRef) return;
  if (m_exact) {
    if (!m_exactSearch || m_exactMesh != &nav->mesh()) {
      m_exactSearch = std::make_shared<nav::ShortestPath>();
      m_exactMesh = nullptr;
      if (nav::statusFailed(m_status = m_exactSearch->init(&nav->mesh(), 8192))) return;
      m_exactMesh = &nav->mesh();
    }
    m_status = m_exactSearch->initSlicedFindPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter());
    m_running = nav::statusInProgress(m_status);
    m_nodesUsed = m_exactSearch->nodeCount();
    return;
  }
  m_status = nav->query().initSlicedFindPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter());
  m_running = nav::statusInProgress(m_status);
  m_nodesUsed = nav->query().searchView().nodeCount;
}

void ToolSliced::advance(int iters) {
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!m_running || !nav) return;
  int done = 0;
  if (m_exact) {
    if (!m_exactSearch) return;
    m_status = m_exactSearch->updateSlicedFindPath(iters, &done);
    m_totalIters += done;
    m_nodesUsed = m_exactSearch->nodeCount();
    if (nav::statusInProgress(m_status)) return;
    m_running = false;
    const nav::Status fs = m_exactSearch->finalizeSlicedFindPath(m_straight.data(), m_flags.data(), nullptr, &m_nstraight,
                                                                 kMaxPolys, m_path.data(), &m_npath, kMaxPolys, &m_exactLen);
    m_status = fs | (m_status & nav::STATUS_DETAIL_MASK);
    return;
  }
  m_status = nav->query().updateSlicedFindPath(iters, &done);
  m_totalIters += done;
  m_nodesUsed = nav->query().searchView().nodeCount;
  if (nav::statusInProgress(m_status)) return;
  m_running = false;
  const nav::Status fs = nav->query().finalizeSlicedFindPath(m_path.data(), &m_npath, kMaxPolys);
  m_status = fs | (m_status & nav::STATUS_DETAIL_MASK);
  if (m_npath == 0) return;
  float endPos[3];
  corridorEnd(endPos);
  nav->query().findStraightPath(&m_start.x, endPos, m_path.data(), m_npath, m_straight.data(), m_flags.data(), nullptr,
                                &m_nstraight, kMaxPolys);
}

void ToolSliced::update(float /*dt*/) {
  if (!m_paused) advance(m_itersPerFrame);
}

void ToolSliced::step() { advance(1); }

void ToolSliced::drawResult(render::DebugDraw& dd) {
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !nav->loaded()) return;
  if (m_running && m_exact && m_exactSearch) { // exact search: intervals, roots, parent links
    const glm::vec3 up(0, 0.25f, 0);
    nav::ShortestPathNodeView v, pv;
    for (int i = 0; i < m_exactSearch->nodeCount(); ++i) {
      if (!m_exactSearch->getNode(i, &v)) continue;
      const glm::vec3 l(v.left[0], v.left[1], v.left[2]), r(v.right[0], v.right[1], v.right[2]);
      const glm::vec3 root(v.root[0], v.root[1], v.root[2]);
      dd.line(l + up, r + up, render::rgba(0, 200, 255), 3.0f);
      dd.line(root + up, (l + r) * 0.5f + up, render::rgba(255, 255, 255, 60), 1.0f);
      dd.point(root + up, render::rgba(255, 140, 0), 8.0f);
      if (v.parent >= 0 && m_exactSearch->getNode(v.parent, &pv)) {
        const glm::vec3 pm((pv.left[0] + pv.right[0]) * 0.5f, (pv.left[1] + pv.right[1]) * 0.5f, (pv.left[2] + pv.right[2]) * 0.5f);
        dd.line(pm + up, (l + r) * 0.5f + up, render::rgba(255, 196, 0, 160), 1.5f);
      }
    }
    return;
  }
  if (m_running) { // the search so far: closed nodes with their parents, open nodes
    const nav::SearchView v = nav->query().searchView();
    const glm::vec3 up(0, 0.25f, 0);
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
  drawPath(dd);
}

void ToolSliced::resultUi() {
  ImGui::SliderInt("Iterations / frame", &m_itersPerFrame, 1, 64);
  ImGui::Checkbox("Pause", &m_paused);
  ImGui::SameLine();
  if (ImGui::Button("Step (Space)")) step();
  ImGui::SameLine();
  if (ImGui::Button("Restart")) recomputeAll();
  if (ImGui::Checkbox("Exact search (shortest path)", &m_exact)) recomputeAll();
  if (m_exact) ImGui::TextWrapped("Intervals (cyan), their roots (orange), parent links (yellow)");
  ImGui::Text("%s after %d iterations", m_running ? "Searching" : "Done", m_totalIters);
  ImGui::Text("Corridor %d polys, %s path %d corners, %.2f m", m_npath, m_exact ? "shortest" : "straight", m_nstraight,
              double(m_exact ? m_exactLen : straightLength()));
}

void ToolSliced::dumpResult(nlohmann::json& out) const {
  out["running"] = m_running;
  out["exact"] = m_exact;
  if (m_exact) out["exactLen"] = m_exactLen;
  out["iterations"] = m_totalIters;
  dumpPath(out);
}

void ToolSliced::saveOptions(nlohmann::json& out) const {
  out["exact"] = m_exact;
  out["itersPerFrame"] = m_itersPerFrame;
  out["paused"] = m_paused;
  out["iterations"] = m_totalIters;
}

bool ToolSliced::loadOptions(const nlohmann::json& in, std::string& error) {
  bool exact = m_exact, paused = m_paused;
  int perFrame = m_itersPerFrame, iters = 0;
  if (!optionKeys(in, {"exact", "itersPerFrame", "paused", "iterations"}, error) ||
      !optionBool(in, "exact", exact, error) || !optionInt(in, "itersPerFrame", 1, 64, perFrame, error) ||
      !optionBool(in, "paused", paused, error) || !optionInt(in, "iterations", 0, 10000000, iters, error))
    return false;
  m_exact = exact;
  m_paused = paused;
  m_itersPerFrame = perFrame;
  m_restoreIters = iters;
  return true;
}

void ToolSliced::afterScenarioLoad() {
  // The search as it was: the same number of iterations from the start (paused stays there).
  if (m_restoreIters > 0) advance(m_restoreIters);
  m_restoreIters = 0;
}

} // namespace navbench
