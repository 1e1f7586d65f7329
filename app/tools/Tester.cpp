#include "app/tools/Tester.h"

#include "app/NavDraw.h"
#include "app/NavState.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>

namespace navbench {

void Tester::reset() {
  m_hasStart = m_hasEnd = false;
  m_startRef = m_endRef = 0;
  m_status = 0;
  m_queryUs = 0;
  m_nodesUsed = 0;
  recompute();
}

void Tester::onLevelChanged() {
  m_undo.clear();
  m_redo.clear();
  reset();
}

void Tester::pushUndo() {
  m_undo.push_back({m_hasStart, m_hasEnd, m_start, m_end});
  if (m_undo.size() > 256) m_undo.erase(m_undo.begin());
  m_redo.clear();
}

void Tester::undo() {
  if (m_undo.empty()) return;
  m_redo.push_back({m_hasStart, m_hasEnd, m_start, m_end});
  const Input in = m_undo.back();
  m_undo.pop_back();
  m_hasStart = in.hasStart;
  m_hasEnd = in.hasEnd;
  m_start = in.start;
  m_end = in.end;
  recomputeAll();
}

void Tester::redo() {
  if (m_redo.empty()) return;
  m_undo.push_back({m_hasStart, m_hasEnd, m_start, m_end});
  const Input in = m_redo.back();
  m_redo.pop_back();
  m_hasStart = in.hasStart;
  m_hasEnd = in.hasEnd;
  m_start = in.start;
  m_end = in.end;
  recomputeAll();
}

void Tester::setStart(const glm::vec3& p) {
  pushUndo();
  m_start = p;
  m_hasStart = true;
  recomputeAll();
}

void Tester::setEnd(const glm::vec3& p) {
  pushUndo();
  m_end = p;
  m_hasEnd = true;
  recomputeAll();
}

void Tester::onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool shift) {
  if (shift || !needsEnd()) setStart(hitPos);
  else setEnd(hitPos);
}

void Tester::recomputeAll() {
  m_startRef = m_endRef = 0;
  m_status = 0;
  m_nodesUsed = 0;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (nav && nav->loaded()) {
    if (m_hasStart) m_startRef = nav->nearestPoly(m_start);
    if (m_hasEnd) m_endRef = nav->nearestPoly(m_end);
  }
  const auto t0 = std::chrono::steady_clock::now();
  recompute();
  m_queryUs = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

float Tester::polylineLength(const float* pts, int n) {
  float len = 0;
  for (int i = 1; i < n; ++i)
    len += std::sqrt((pts[i * 3] - pts[i * 3 - 3]) * (pts[i * 3] - pts[i * 3 - 3]) +
                     (pts[i * 3 + 1] - pts[i * 3 - 2]) * (pts[i * 3 + 1] - pts[i * 3 - 2]) +
                     (pts[i * 3 + 2] - pts[i * 3 - 1]) * (pts[i * 3 + 2] - pts[i * 3 - 1]));
  return len;
}

void Tester::drawUi() {
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !nav->loaded()) {
    ImGui::TextWrapped("No navmesh open: open a .bin tile set (File > Open, or drop it here).");
    return;
  }
  ImGui::TextWrapped(needsEnd() ? "Shift+click or right click: start. Click: end." : "Shift+click, right click or click: start.");
  glm::vec3 s = m_start, e = m_end;
  if (ImGui::InputFloat3("Start", &s.x, "%.3f", ImGuiInputTextFlags_EnterReturnsTrue)) setStart(s);
  if (needsEnd() && ImGui::InputFloat3("End", &e.x, "%.3f", ImGuiInputTextFlags_EnterReturnsTrue)) setEnd(e);
  if (ImGui::Button("Copy")) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "start %.4f %.4f %.4f end %.4f %.4f %.4f", double(m_start.x), double(m_start.y),
                  double(m_start.z), double(m_end.x), double(m_end.y), double(m_end.z));
    ImGui::SetClipboardText(buf);
  }
  ImGui::SameLine();
  if (ImGui::Button("Undo")) undo();
  ImGui::SameLine();
  if (ImGui::Button("Redo")) redo();
  ImGui::SameLine();
  if (ImGui::Button("Clear")) {
    pushUndo();
    reset();
  }
  ImGui::Separator();
  ImGui::Text("Start ref %u  End ref %u", unsigned(m_startRef), unsigned(m_endRef));
  if (m_hasStart && !m_startRef) ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "Start is not on the navmesh");
  if (needsEnd() && m_hasEnd && !m_endRef) ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "End is not on the navmesh");
  if (m_status) {
    char buf[160];
    ImGui::TextWrapped("Status: %s", nav::statusToString(m_status, buf, sizeof buf));
    if (nav::statusDetail(m_status, nav::PARTIAL_RESULT))
      ImGui::TextColored(ImVec4(1, 0.8f, 0.2f, 1), "Partial result: the end was not reached");
    if (nav::statusDetail(m_status, nav::OUT_OF_NODES))
      ImGui::TextColored(ImVec4(1, 0.4f, 0.2f, 1), "Ran out of nodes (raise the node budget)");
  }
  ImGui::Text("Query time %.1f us   nodes used %d", m_queryUs, m_nodesUsed);
  resultUi();
}

void Tester::draw(render::DebugDraw& dd) {
  const uint32_t startCol = render::rgba(128, 25, 0, 220), endCol = render::rgba(51, 102, 0, 220);
  if (m_hasStart) drawAgent(dd, m_start, kAgentRadius, kAgentHeight, startCol);
  if (m_hasEnd && needsEnd()) drawAgent(dd, m_end, kAgentRadius, kAgentHeight, endCol);
  drawResult(dd);
}

void Tester::drawCorridor(render::DebugDraw& dd, const nav::PolyRef* polys, int n) const {
  if (!m_ctx || !m_ctx->nav) return;
  for (int i = 0; i < n; ++i) drawPolyFill(dd, m_ctx->nav->mesh(), polys[i], render::rgba(255, 255, 255, 70), 0.07f);
}

void Tester::drawStraight(render::DebugDraw& dd, const float* pts, const uint8_t* flags, int n) const {
  const uint32_t lineCol = render::rgba(64, 16, 0, 220), offCol = render::rgba(128, 96, 0, 220);
  const glm::vec3 up(0, 0.4f, 0);
  for (int i = 1; i < n; ++i) {
    const glm::vec3 a(pts[i * 3 - 3], pts[i * 3 - 2], pts[i * 3 - 1]), b(pts[i * 3], pts[i * 3 + 1], pts[i * 3 + 2]);
    const bool off = flags && (flags[i - 1] & nav::STRAIGHTPATH_OFFMESH_CONNECTION);
    dd.line(a + up, b + up, off ? offCol : lineCol, 3.0f);
  }
  for (int i = 0; i < n; ++i) {
    const glm::vec3 p(pts[i * 3], pts[i * 3 + 1], pts[i * 3 + 2]);
    uint32_t c = render::rgba(64, 16, 0, 220);
    if (flags) {
      if (flags[i] & nav::STRAIGHTPATH_START) c = render::rgba(128, 25, 0, 255);
      else if (flags[i] & nav::STRAIGHTPATH_END) c = render::rgba(51, 102, 0, 255);
      else if (flags[i] & nav::STRAIGHTPATH_OFFMESH_CONNECTION) c = offCol;
    }
    dd.point(p + up, c, 9.0f);
    dd.line(p, p + up, c, 1.0f);
  }
}

void Tester::drawPartialMarker(render::DebugDraw& dd, const float* p) const {
  if (!p || !(nav::statusDetail(m_status, nav::PARTIAL_RESULT) || nav::statusDetail(m_status, nav::OUT_OF_NODES))) return;
  const glm::vec3 q(p[0], p[1] + 0.5f, p[2]);
  dd.cross(q, 0.6f, render::rgba(255, 30, 30), 3.0f, false);
  dd.circle(q, 0.8f, render::rgba(255, 30, 30), 2.0f, false);
}

void Tester::dumpState(nlohmann::json& out) const {
  out["tool"] = name();
  if (m_hasStart) out["start"] = {m_start.x, m_start.y, m_start.z};
  if (m_hasEnd) out["end"] = {m_end.x, m_end.y, m_end.z};
  out["startRef"] = m_startRef;
  out["endRef"] = m_endRef;
  out["status"] = m_status;
  char buf[160];
  out["statusText"] = m_status ? nav::statusToString(m_status, buf, sizeof buf) : "";
  out["queryUs"] = m_queryUs;
  out["nodesUsed"] = m_nodesUsed;
  dumpResult(out);
}

} // namespace navbench
