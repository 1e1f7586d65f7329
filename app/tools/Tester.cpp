#include "app/tools/Tester.h"

#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/model/TesterModes.h"
#include "app/tools/BakeButtonUi.h"
#include "app/tools/HierOverlay.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cstdio>

namespace navbench {

Tester::Tester(std::unique_ptr<TesterModel> model) : m_model(std::move(model)) {}
Tester::~Tester() = default;

void Tester::init(ToolContext& ctx) {
  Tool::init(ctx);
  m_model->setNav(ctx.nav);
  if (auto* pm = dynamic_cast<PathTesterModel*>(m_model.get())) pm->setHier(ctx.hier);
  m_model->inputChanged = [this] {
    if (m_ctx && m_ctx->inputChanged) m_ctx->inputChanged(this);
  };
}

void Tester::dumpState(nlohmann::json& out) const {
  m_model->dumpState(out);
  if (m_bakeButton[0] >= 0) out["bakeButton"] = {m_bakeButton[0], m_bakeButton[1]}; // no navmesh: the offer to bake
  dumpView(out);
}

void Tester::drawShortest(render::DebugDraw& dd) const {
  const ShortestComparison& sp = m_model->shortest();
  if (!m_model->showShortest() || sp.pts.empty() || !nav()) return;
  for (nav::PolyRef r : sp.outside) drawPolyFill(dd, nav()->mesh(), r, render::rgba(255, 0, 200, 90), 0.08f);
  const uint32_t col = render::rgba(255, 140, 0, 245);
  const glm::vec3 up(0, 0.55f, 0);
  const int n = int(sp.pts.size() / 3);
  for (int i = 1; i < n; ++i)
    dd.line(glm::vec3(sp.pts[size_t(i) * 3 - 3], sp.pts[size_t(i) * 3 - 2], sp.pts[size_t(i) * 3 - 1]) + up,
            glm::vec3(sp.pts[size_t(i) * 3], sp.pts[size_t(i) * 3 + 1], sp.pts[size_t(i) * 3 + 2]) + up, col, 3.0f);
  for (int i = 0; i < n; ++i) {
    const glm::vec3 p(sp.pts[size_t(i) * 3], sp.pts[size_t(i) * 3 + 1], sp.pts[size_t(i) * 3 + 2]);
    dd.point(p + up, col, 8.0f);
    dd.line(p, p + up, col, 1.0f);
  }
}

void Tester::shortestUi(const char* otherName, float otherLen) {
  bool on = m_model->showShortest();
  if (ImGui::Checkbox("Shortest path", &on)) m_model->setShowShortest(on);
  if (!on) return;
  const ShortestComparison& sp = m_model->shortest();
  if (sp.status && nav::statusFailed(sp.status)) {
    char buf[160];
    ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "Shortest path failed: %s", nav::statusToString(sp.status, buf, sizeof buf));
    return;
  }
  if (sp.pts.empty()) return;
  // Both lengths in 3D (otherLen is the mode's 3D polyline length); sp.len is ShortestPath's own
  // metric (xz on the mesh, 3D across off-mesh links, times area costs), shown apart.
  const int n = int(sp.pts.size() / 3);
  const float spLen3 = TesterModel::polylineLength(sp.pts.data(), n);
  ImGui::TextColored(ImVec4(1, 0.55f, 0, 1), "Shortest %d corners, %.2f m 3D (%.1f us)", n, double(spLen3), sp.us);
  ImGui::Text("%s %.2f m 3D, ratio %s / shortest (3D) %.4f", otherName, double(otherLen), otherName,
              spLen3 > 0 ? double(otherLen / spLen3) : 1.0);
  ImGui::TextDisabled("search metric (xz, 3D on links, x area cost): %.2f", double(sp.len));
  ImGui::TextColored(ImVec4(1, 0, 0.8f, 1), "Polys outside the corridor: %d", int(sp.outside.size()));
  if (nav::statusDetail(sp.status, nav::PARTIAL_RESULT) || nav::statusDetail(sp.status, nav::OUT_OF_NODES)) {
    char buf[160];
    ImGui::TextWrapped("Shortest status: %s", nav::statusToString(sp.status, buf, sizeof buf));
  }
}

void Tester::drawUi() {
  const TesterModel& m = *m_model;
  m_bakeButton[0] = m_bakeButton[1] = -1.0f;
  if (!nav() || !nav()->loaded()) {
    if (m_ctx && m_ctx->bake && m_ctx->log) drawNoNavmesh(*m_ctx->bake, *m_ctx->log, m_bakeButton); // Bake, or its progress
    else ImGui::TextWrapped("No navmesh open: open a .bin tile set (File > Open, or drop it here).");
    return;
  }
  ImGui::TextWrapped(m.needsEnd() ? "Shift+click or right click: start. Click: end." : "Shift+click, right click or click: start.");
  glm::vec3 s = m.start(), e = m.end();
  if (ImGui::InputFloat3("Start", &s.x, "%.3f", ImGuiInputTextFlags_EnterReturnsTrue)) setStart(s);
  if (m.needsEnd() && ImGui::InputFloat3("End", &e.x, "%.3f", ImGuiInputTextFlags_EnterReturnsTrue)) setEnd(e);
  if (ImGui::Button("Copy")) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "start %.4f %.4f %.4f end %.4f %.4f %.4f", double(m.start().x), double(m.start().y),
                  double(m.start().z), double(m.end().x), double(m.end().y), double(m.end().z));
    ImGui::SetClipboardText(buf);
  }
  ImGui::SameLine();
  if (ImGui::Button("Undo")) m_model->undo();
  ImGui::SameLine();
  if (ImGui::Button("Redo")) m_model->redo();
  ImGui::SameLine();
  if (ImGui::Button("Clear")) m_model->clear();
  ImGui::Separator();
  ImGui::Text("Start ref %u  End ref %u", unsigned(m.startRef()), unsigned(m.endRef()));
  if (m.hasStart() && !m.startRef()) ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "Start is not on the navmesh");
  if (m.needsEnd() && m.hasEnd() && !m.endRef()) ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "End is not on the navmesh");
  if (m.status()) {
    char buf[160];
    ImGui::TextWrapped("Status: %s", nav::statusToString(m.status(), buf, sizeof buf));
    if (nav::statusDetail(m.status(), nav::PARTIAL_RESULT))
      ImGui::TextColored(ImVec4(1, 0.8f, 0.2f, 1), "Partial result: the end was not reached");
    if (nav::statusDetail(m.status(), nav::OUT_OF_NODES))
      ImGui::TextColored(ImVec4(1, 0.4f, 0.2f, 1), "Ran out of nodes (raise the node budget)");
  }
  ImGui::Text("Query time %.1f us   nodes used %d", m.queryUs(), m.nodesUsed());
  resultUi();
}

void Tester::draw(render::DebugDraw& dd) {
  const TesterModel& m = *m_model;
  const uint32_t startCol = render::rgba(128, 25, 0, 220), endCol = render::rgba(51, 102, 0, 220);
  if (m.hasStart()) drawAgent(dd, m.start(), TesterModel::kAgentRadius, TesterModel::kAgentHeight, startCol);
  if (m.hasEnd() && m.needsEnd()) drawAgent(dd, m.end(), TesterModel::kAgentRadius, TesterModel::kAgentHeight, endCol);
  drawResult(dd);
}

void Tester::drawCorridor(render::DebugDraw& dd, const nav::PolyRef* polys, int n) const {
  if (!nav()) return;
  for (int i = 0; i < n; ++i) drawPolyFill(dd, nav()->mesh(), polys[i], render::rgba(255, 255, 255, 70), 0.07f);
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
  if (!p || !(nav::statusDetail(m_model->status(), nav::PARTIAL_RESULT) || nav::statusDetail(m_model->status(), nav::OUT_OF_NODES))) return;
  const glm::vec3 q(p[0], p[1] + 0.5f, p[2]);
  dd.cross(q, 0.6f, render::rgba(255, 30, 30), 3.0f, false);
  dd.circle(q, 0.8f, render::rgba(255, 30, 30), 2.0f, false);
}

void Tester::drawPath(render::DebugDraw& dd, const PathTesterModel& m) const {
  drawCorridor(dd, m.corridor(), m.corridorSize());
  drawStraight(dd, m.straight(), m.straightFlags(), m.straightSize());
  if (m.straightSize() > 0) drawPartialMarker(dd, m.straight() + size_t(m.straightSize() - 1) * 3);
}

void Tester::drawFoundPolys(render::DebugDraw& dd, const nav::PolyRef* refs, const nav::PolyRef* parents, int n) const {
  if (!nav()) return;
  const nav::NavMesh& mesh = nav()->mesh();
  const glm::vec3 up(0, 0.3f, 0);
  for (int i = 0; i < n; ++i) {
    drawPolyFill(dd, mesh, refs[i], render::rgba(255, 196, 0, 70), 0.08f);
    if (parents[i]) // parent -> child arrow
      drawArc(dd, polyCenter(mesh, parents[i]) + up, polyCenter(mesh, refs[i]) + up, 0.4f, render::rgba(0, 0, 0, 160), false,
              1.5f);
  }
}

void Tester::drawStartCircle(render::DebugDraw& dd, float radius) const {
  dd.circle(m_model->start() + glm::vec3(0, 0.3f, 0), radius, render::rgba(64, 16, 0, 220), 2.0f, true, 48);
}

namespace {
const uint32_t kAlgoCol[PATH_ALGO_COUNT] = {render::rgba(230, 50, 50, 240), render::rgba(30, 200, 80, 240)};
const char* const kAlgoLabel[PATH_ALGO_COUNT] = {"Detour A*", "Hierarchical"};
} // namespace

void Tester::algorithmUi(PathTesterModel& m) {
  int algo = m.pathAlgorithm();
  if (ImGui::Combo("Search", &algo, kAlgoLabel, PATH_ALGO_COUNT) && algo != m.pathAlgorithm()) m.setPathAlgorithm(algo);
  bool side = m.sideBySide(), graph = m.showGraph();
  if (ImGui::Checkbox("Side by side", &side)) m.setSideBySide(side);
  ImGui::SameLine();
  if (ImGui::Checkbox("Abstract graph", &graph)) m.setShowGraph(graph);
  if (!m.sideBySide() && m.pathAlgorithm() != PATH_HIERARCHICAL) return;
  if (ImGui::BeginTable("algos", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    for (const char* h : {"search", "length m", "nodes", "time us", "result"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (int a = 0; a < PATH_ALGO_COUNT; ++a) {
      const PathRun& r = m.pathRun(a);
      if (!r.ran) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const uint32_t c = kAlgoCol[a];
      ImGui::TextColored(ImVec4(float(c & 0xff) / 255.0f, float((c >> 8) & 0xff) / 255.0f, float((c >> 16) & 0xff) / 255.0f, 1),
                         "%s", kAlgoLabel[a]);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f", double(r.len));
      ImGui::TableNextColumn();
      ImGui::Text("%d", r.nodes);
      ImGui::TableNextColumn();
      ImGui::Text("%.0f", r.us);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.complete ? "complete"
                             : (r.status & nav::OUT_OF_NODES) ? "out of nodes" // partial too
                             : r.corridor.empty()              ? "none"
                                                               : "partial");
    }
    ImGui::EndTable();
  }
  const PathRun& h = m.pathRun(PATH_HIERARCHICAL);
  if (h.ran) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("abstract: %d entrances popped, %d on the path, %d clusters%s", h.hier.abstractExpanded,
                        h.hier.abstractPathNodes, h.hier.corridorClusters,
                        h.hier.fallback ? ", no corridor" : h.hier.widened ? ", widened" : "");
    const HierSearch* hs = m.hierSearch();
    if (hs && hs->built())
      ImGui::TextDisabled("graph: %d entrances, built in %.1f ms", m.planner()->entranceCount(), hs->buildMs());
    ImGui::PopTextWrapPos();
  }
}

void Tester::drawAlgorithm(render::DebugDraw& dd, PathTesterModel& m) const {
  if (m.showGraph()) {
    if (const nav::HierPlanner* p = m.planner()) drawHierGraph(dd, *p);
    drawHierPath(dd, m.abstractPath(), render::rgba(255, 230, 0, 250));
  }
  if (!m.sideBySide()) return;
  const glm::vec3 up(0, 0.6f, 0);
  for (int a = 0; a < PATH_ALGO_COUNT; ++a) {
    const std::vector<float>& pts = m.pathRun(a).straight;
    for (size_t i = 3; i + 2 < pts.size(); i += 3)
      dd.line(glm::vec3(pts[i - 3], pts[i - 2], pts[i - 1]) + up, glm::vec3(pts[i], pts[i + 1], pts[i + 2]) + up,
              kAlgoCol[a], 4.0f, false);
    if (pts.size() >= 3 && !m.pathRun(a).complete) { // where the partial path stops
      const glm::vec3 q(pts[pts.size() - 3], pts[pts.size() - 2] + 0.6f, pts[pts.size() - 1]);
      dd.cross(q, 1.2f, kAlgoCol[a], 4.0f, false);
    }
  }
}

void Tester::radiusUi(const char* label, float lo, float hi) {
  auto* m = dynamic_cast<RadiusTesterModel*>(m_model.get());
  float r = m ? m->radius() : 0.0f;
  if (m && ImGui::SliderFloat(label, &r, lo, hi, "%.1f")) m->setRadius(r);
}

} // namespace navbench
