#include "app/tools/ToolStepper.h"

#include "app/NavState.h"
#include "app/tools/HierOverlay.h"
#include "nav/NodePool.h"
#include "render/DebugDraw.h"

#include <SDL.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace navbench {

namespace {

const char* const kAlgoLabels[StepperModel::ALGO_COUNT] = {
    "findPath (Detour A*)", "findPath, closest-point cost", "Sliced findPath (Detour)", "Sliced, any-angle",
    "Exact search (shortest path)", "Hierarchical (abstract, then refinement)"};

uint32_t resultColor(uint8_t r, uint8_t a = 255) {
  switch (r) {
  case nav::RELAX_ACCEPT_NEW: return render::rgba(40, 230, 60, a);
  case nav::RELAX_ACCEPT_BETTER: return render::rgba(170, 255, 110, a);
  case nav::RELAX_REJECT_WORSE: return render::rgba(255, 150, 0, a);
  case nav::RELAX_REJECT_FILTERED: return render::rgba(160, 160, 160, a);
  case nav::RELAX_REJECT_OUT_OF_NODES: return render::rgba(255, 30, 30, a);
  case nav::RELAX_REJECT_NO_PORTAL: return render::rgba(200, 80, 255, a);
  default: return render::rgba(90, 90, 90, a); // the parent, the same-parent rule
  }
}

ImVec4 toImVec4(uint32_t c) {
  // render::rgba packs r in the low byte.
  return ImVec4(float(c & 0xff) / 255.0f, float((c >> 8) & 0xff) / 255.0f, float((c >> 16) & 0xff) / 255.0f, 1.0f);
}

glm::vec3 v3(const float* p) { return glm::vec3(p[0], p[1], p[2]); }

/// A line a -> b with a small arrow head at b (drawn in the xz plane).
void arrow(render::DebugDraw& dd, const glm::vec3& a, const glm::vec3& b, uint32_t col, float width) {
  dd.line(a, b, col, width);
  glm::vec3 d = b - a;
  const float len = std::sqrt(d.x * d.x + d.z * d.z);
  if (len < 1e-3f) return;
  d /= len;
  const glm::vec3 side(-d.z, 0.0f, d.x);
  const float head = std::min(0.35f, len * 0.35f);
  const glm::vec3 base = b - d * head;
  dd.line(b, base + side * (head * 0.5f), col, width);
  dd.line(b, base - side * (head * 0.5f), col, width);
}

const glm::vec3 kUp(0.0f, 0.3f, 0.0f);

} // namespace

int ToolStepper::hoveredNode() const {
  if (!m_ctx || !m_ctx->hoverHit || !m_ctx->hoverPos || !*m_ctx->hoverHit) return -1;
  return model().nodeNear(*m_ctx->hoverPos);
}

void ToolStepper::dumpView(nlohmann::json& out) const {
  const StepperModel& m = model();
  const int hov = hoveredNode(); // the node under the mouse (--hover), whose numbers the tooltip shows
  if (hov >= 0)
    out["hovered"] = m.isAStar() ? nlohmann::json{{"ref", m.nodes()[size_t(hov)].ref}, {"g", m.nodes()[size_t(hov)].g}}
                                 : nlohmann::json{{"ref", m.exactNodes()[size_t(hov)].poly}, {"g", m.exactNodes()[size_t(hov)].g}};
  if (m.isAStar()) out["firstRow"] = {m_firstRow[0], m_firstRow[1], m_firstRow[2]};
}

void ToolStepper::drawResult(render::DebugDraw& dd) {
  const StepperModel& m = model();
  if (!nav() || !nav()->loaded() || !m.startRef() || !m.endRef()) return;
  if (m.finished()) {
    drawCorridor(dd, m.finalCorridor().data(), int(m.finalCorridor().size()));
    drawStraight(dd, m.straight(), nullptr, m.straightSize());
  }
  if (m.algorithm() == StepperModel::ALGO_HIERARCHICAL) { // the abstract search, then its path over the refinement
    if (const nav::HierPlanner* p = model().planner()) {
      if (m.inAbstractPhase())
        drawHierSearch(dd, *p, m.abstractNodes(), m.abstractLastPopped(), &m.start().x, &m.end().x);
      else
        for (int c = 0; c < p->clusterCount(); ++c) // the corridor's clusters: their entrances
          if (p->inCorridor(c))
            for (const auto& e : p->cluster(c).ents)
              dd.point(glm::vec3(e.pos[0], e.pos[1], e.pos[2]) + kUp, render::rgba(10, 30, 110, 220), 6.0f);
    }
    drawHierPath(dd, m.abstractPathPoints(), render::rgba(255, 230, 0, 250));
    if (m.inAbstractPhase()) return;
  }
  if (!m.isAStar()) { // intervals (cyan), roots (orange), parent links (yellow)
    for (size_t i = 0; i < m.exactNodes().size(); ++i) {
      const StepperModel::ExactNode& e = m.exactNodes()[i];
      const glm::vec3 l = v3(e.left), r = v3(e.right), mid = (l + r) * 0.5f;
      const bool isNew = m.exactPrevCount() >= 0 && int(i) >= m.exactPrevCount();
      dd.line(l + kUp, r + kUp, isNew ? render::rgba(40, 230, 60) : render::rgba(0, 200, 255), isNew ? 5.0f : 3.0f);
      dd.line(v3(e.root) + kUp, mid + kUp, render::rgba(255, 255, 255, 60), 1.0f);
      dd.point(v3(e.root) + kUp, render::rgba(255, 140, 0), 8.0f);
      if (e.parent >= 0 && e.parent < int(m.exactNodes().size())) {
        const StepperModel::ExactNode& p = m.exactNodes()[size_t(e.parent)];
        arrow(dd, (v3(p.left) + v3(p.right)) * 0.5f + kUp, mid + kUp, render::rgba(255, 196, 0, 170), 1.5f);
      }
    }
    if (m.exactExpanded() >= 0 && m.exactExpanded() < int(m.exactNodes().size())) { // the node just expanded (red)
      const StepperModel::ExactNode& x = m.exactNodes()[size_t(m.exactExpanded())];
      dd.line(v3(x.left) + kUp * 1.2f, v3(x.right) + kUp * 1.2f, render::rgba(255, 30, 30), 6.0f, false);
      dd.point((v3(x.left) + v3(x.right)) * 0.5f + kUp * 1.2f, render::rgba(255, 30, 30), 14.0f, false);
    }
    if (m.selected() >= 0 && m.selected() < int(m.exactNodes().size())) { // the table's pick and its parent chain
      int guard = 0;
      for (int i = m.selected(); i >= 0 && i < int(m.exactNodes().size()) && guard++ < int(m.exactNodes().size());
           i = m.exactNodes()[size_t(i)].parent) {
        const StepperModel::ExactNode& e = m.exactNodes()[size_t(i)];
        dd.line(v3(e.left) + kUp * 1.3f, v3(e.right) + kUp * 1.3f, render::rgba(255, 255, 255), 4.0f, false);
        dd.line(v3(e.root) + kUp * 1.3f, (v3(e.left) + v3(e.right)) * 0.5f + kUp * 1.3f, render::rgba(255, 255, 255), 2.0f,
                false);
      }
    }
    const int hov = hoveredNode();
    if (hov >= 0)
      dd.circle((v3(m.exactNodes()[size_t(hov)].left) + v3(m.exactNodes()[size_t(hov)].right)) * 0.5f + kUp, 0.5f,
                render::rgba(255, 255, 0), 2.5f, false);
    if (m.finished() && m.straightSize() > 0) drawPartialMarker(dd, m.straight() + size_t(m.straightSize() - 1) * 3);
    return;
  }

  // The tree: every node with an arrow from its parent.
  for (const StepperModel::NodeInfo& n : m.nodes()) {
    if (!(n.flags & (nav::NODE_OPEN | nav::NODE_CLOSED))) continue;
    const glm::vec3 p = v3(n.pos) + kUp;
    const bool closed = (n.flags & nav::NODE_CLOSED) != 0;
    dd.point(p, closed ? render::rgba(255, 196, 0) : render::rgba(0, 160, 255), closed ? 7.0f : 9.0f);
    if (n.parent >= 0 && n.parent < int(m.nodes().size())) {
      const bool detached = (n.flags & nav::NODE_PARENT_DETACHED) != 0;
      arrow(dd, v3(m.nodes()[size_t(n.parent)].pos) + kUp, p,
            detached ? render::rgba(255, 80, 255, 200) : render::rgba(255, 230, 150, 170), 1.5f);
    }
  }
  // The last expansion: the node (red) and its neighbours coloured by result.
  if (m.expanded() >= 0 && m.expanded() < int(m.nodes().size())) {
    const glm::vec3 x = v3(m.nodes()[size_t(m.expanded())].pos) + kUp;
    for (const StepperModel::Relax& r : m.relaxations()) {
      const glm::vec3 q = v3(r.pos) + kUp * 1.3f;
      dd.line(x, q, resultColor(r.ev.result, 230), 3.0f, false);
      // Out of nodes shares the expanded node's red: drawn as a cross, not a dot, to tell them apart.
      if (r.ev.result == nav::RELAX_REJECT_OUT_OF_NODES) dd.cross(q, 0.6f, resultColor(r.ev.result), 4.0f, false);
      else dd.point(q, resultColor(r.ev.result), 13.0f, false);
    }
    dd.point(x, render::rgba(255, 30, 30), 16.0f, false);
    dd.circle(x, 0.45f, render::rgba(255, 30, 30), 2.5f, false);
  }
  // The next node to expand (the open list's top).
  if (!m.open().empty() && !m.finished())
    dd.circle(v3(m.nodes()[size_t(m.open()[0])].pos) + kUp, 0.45f, render::rgba(0, 200, 255), 2.5f, false);
  // The node nearest the goal when the search ended partial (or out of nodes).
  const bool partial = nav::statusDetail(m.status(), nav::PARTIAL_RESULT) || nav::statusDetail(m.status(), nav::OUT_OF_NODES);
  if (m.best() >= 0 && m.best() < int(m.nodes().size()) && (partial || !m.finished())) {
    const glm::vec3 b = v3(m.nodes()[size_t(m.best())].pos) + kUp;
    dd.circle(b, 0.6f, partial ? render::rgba(255, 0, 200) : render::rgba(255, 0, 200, 110), 2.0f, false);
  }
  // The node picked in the table (with its parent chain) and the hovered one.
  if (m.selected() >= 0 && m.selected() < int(m.nodes().size())) {
    int guard = 0;
    for (int i = m.selected(); i >= 0 && m.nodes()[size_t(i)].parent >= 0 && guard++ < int(m.nodes().size());
         i = m.nodes()[size_t(i)].parent)
      dd.line(v3(m.nodes()[size_t(m.nodes()[size_t(i)].parent)].pos) + kUp * 1.2f, v3(m.nodes()[size_t(i)].pos) + kUp * 1.2f,
              render::rgba(255, 255, 255), 3.0f, false);
    const glm::vec3 s = v3(m.nodes()[size_t(m.selected())].pos) + kUp;
    dd.circle(s, 0.55f, render::rgba(255, 255, 255), 3.0f, false);
    dd.cross(s, 0.35f, render::rgba(255, 255, 255), 2.0f, false);
  }
  const int hov = hoveredNode();
  if (hov >= 0) dd.circle(v3(m.nodes()[size_t(hov)].pos) + kUp, 0.5f, render::rgba(255, 255, 0), 2.5f, false);
  if (m.finished()) drawFinalChain(dd);
  if (m.finished() && m.straightSize() > 0) drawPartialMarker(dd, m.straight() + size_t(m.straightSize() - 1) * 3);
}

void ToolStepper::drawFinalChain(render::DebugDraw& dd) const {
  const StepperModel& m = model();
  // The corridor's own branch of the tree: the search's last (best) node back to the start, over
  // every other arrow (the nodes were captured before a sliced finalize reversed the links).
  if (m.best() < 0 || m.best() >= int(m.nodes().size())) return;
  const uint32_t col = render::rgba(60, 255, 120);
  int guard = 0;
  for (int i = m.best(); m.nodes()[size_t(i)].parent >= 0 && guard++ < int(m.nodes().size()); i = m.nodes()[size_t(i)].parent) {
    const StepperModel::NodeInfo& n = m.nodes()[size_t(i)];
    dd.line(v3(m.nodes()[size_t(n.parent)].pos) + kUp * 1.1f, v3(n.pos) + kUp * 1.1f, col, 4.0f, false);
    dd.point(v3(n.pos) + kUp * 1.1f, col, 8.0f, false);
  }
}

void ToolStepper::resultUi() {
  const StepperModel& m = model();
  int algo = m.algorithm();
  if (ImGui::Combo("Algorithm", &algo, kAlgoLabels, StepperModel::ALGO_COUNT) && algo != m.algorithm()) {
    model().setAlgorithm(algo); // the selection is dropped: an index into the other algorithm's nodes
  }
  // Keys (when no text field has the keyboard): Right / Left step, Page Down / Up step N,
  // Home / End first / last. Space steps too (the app's step key).
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantTextInput) {
    if (ImGui::IsKeyPressed(SDL_SCANCODE_RIGHT)) model().goTo(m.index() + 1);
    if (ImGui::IsKeyPressed(SDL_SCANCODE_LEFT)) model().goTo(m.index() - 1);
    if (ImGui::IsKeyPressed(SDL_SCANCODE_PAGEDOWN)) model().goTo(m.index() + m.stepN());
    if (ImGui::IsKeyPressed(SDL_SCANCODE_PAGEUP)) model().goTo(m.index() - m.stepN());
    if (ImGui::IsKeyPressed(SDL_SCANCODE_HOME, false)) model().goTo(0);
    if (ImGui::IsKeyPressed(SDL_SCANCODE_END, false)) model().goTo(m.total());
  }
  if (ImGui::Button("Step")) model().goTo(m.index() + 1);
  ImGui::SameLine();
  if (ImGui::Button("Back")) model().goTo(m.index() - 1);
  ImGui::SameLine();
  if (ImGui::Button("Run to end")) model().goTo(m.total());
  ImGui::SameLine();
  if (ImGui::Button("Restart")) model().goTo(0); // back to expansion 0 (the panel's Reset clears the points)
  if (ImGui::Button("Step N")) model().goTo(m.index() + m.stepN());
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  int stepN = m.stepN();
  ImGui::InputInt("N", &stepN);
  model().setStepN(stepN);
  int idx = m.index();
  if (ImGui::SliderInt("Expansion", &idx, 0, std::max(1, m.total())) && idx != m.index()) model().goTo(idx);
  ImGui::Text("Expansion %d / %d%s", m.index(), m.total(), m.finished() ? " (done)" : "");
  ImGui::SameLine();
  ImGui::TextDisabled("(keys)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Space / Right: step\nLeft: step back\nPage Down / Page Up: N steps\nHome / End: first / last");
  ImGui::SameLine();
  ImGui::TextDisabled("(colours)");
  if (ImGui::IsItemHovered()) {
    if (m.isAStar())
      ImGui::SetTooltip("Nodes at their edge midpoints: closed amber, open blue, next to expand ringed cyan\n"
                        "Arrows from each node's parent (magenta: a raycast-shortcut parent)\n"
                        "Just expanded: red dot and ring; its neighbours as relaxed:\n"
                        "  green accepted, orange worse total, grey filtered out, red cross out of nodes\n"
                        "Magenta ring: the node nearest the goal; white: the table's pick and its chain\n"
                        "At the end: the corridor's branch of the tree in green, the straight path in brown");
    else
      ImGui::SetTooltip("Intervals cyan (made by the last expansion: green), roots orange,\n"
                        "parent links amber; the node just expanded red; the table's pick and its chain white");
  }
  tableUi();
  // Hovering a node in the 3D view shows its numbers.
  const int hov = hoveredNode();
  if (hov >= 0 && !m.isAStar()) {
    const StepperModel::ExactNode& e = m.exactNodes()[size_t(hov)];
    ImGui::SetTooltip("node %d: interval into poly %u\ng (start to root) %.3f  f %.3f\nparent %d", hov, unsigned(e.poly),
                      double(e.g), double(e.f), e.parent);
  } else if (hov >= 0) {
    const StepperModel::NodeInfo& n = m.nodes()[size_t(hov)];
    ImGui::SetTooltip("poly %u%s\ng %.3f  h %.3f  total %.3f\nparent %u\n%s", unsigned(n.ref),
                      n.state ? " (tile-border side)" : "", double(n.g), double(n.h), double(n.total),
                      n.parent >= 0 ? unsigned(m.nodes()[size_t(n.parent)].ref) : 0u,
                      (n.flags & nav::NODE_CLOSED) ? "closed" : "open");
  }
}

void ToolStepper::summaryUi() {
  const StepperModel& m = model();
  ImGui::PushTextWrapPos(0.0f); // the notes wrap in the window instead of being cut
  if (m.inAbstractPhase()) {
    int open = 0;
    for (const auto& n : m.abstractNodes()) open += n.open ? 1 : 0;
    ImGui::Text("Step %d/%d: abstract search, pop %d/%d: %d entrances, %d open", m.index(), m.total(), m.index(),
                m.abstractSteps(), int(m.abstractNodes().size()), open);
    ImGui::TextDisabled("Entrances closed amber, open blue, last popped red; the abstract path yellow");
  } else if (m.algorithm() == StepperModel::ALGO_HIERARCHICAL) {
    ImGui::Text("Step %d/%d: refinement %d/%d inside the corridor%s", m.index(), m.total(), m.index() - m.abstractSteps(),
                m.total() - m.abstractSteps(),
                m.refinePass() == 2 ? " (none: the search ran without one)" : m.refinePass() == 1 ? " (widened)" : "");
  }
  if (m.isAStar() && !m.inAbstractPhase()) {
    int closed = 0;
    for (const StepperModel::NodeInfo& n : m.nodes())
      if (n.flags & nav::NODE_CLOSED) ++closed;
    if (m.algorithm() == StepperModel::ALGO_HIERARCHICAL) // the planner's query: a node per polygon, no budget
      ImGui::Text("Step %d/%d: open %d, closed %d, nodes %d", m.index(), m.total(), int(m.open().size()), closed,
                  int(m.nodes().size()));
    else
      ImGui::Text("Step %d/%d: open %d, closed %d, nodes %d/%d", m.index(), m.total(), int(m.open().size()), closed,
                  int(m.nodes().size()), m.nodeBudget());
  } else if (!m.isAStar()) {
    ImGui::Text("Step %d/%d: %d nodes, %d open", m.index(), m.total(), int(m.exactNodes().size()), m.exactOpen());
    const int made = m.exactPrevCount() >= 0 ? int(m.exactNodes().size()) - m.exactPrevCount() : 0;
    if (made > 0 && m.exactExpanded() >= 0)
      ImGui::Text("Last expansion: node %d (red) made %d new intervals (green)", m.exactExpanded(), made);
    else if (made > 0)
      ImGui::Text("Last expansion: the start made %d new intervals (green)", made);
    else if (m.exactPrevCount() >= 0)
      ImGui::Text("Last expansion made no new interval (a dead end or pruned)");
    ImGui::TextDisabled("Intervals cyan, their roots orange, parent links amber; click a row: its chain in white");
  }
  if (m.finished()) {
    ImGui::Text("Corridor %d polys, straight path %.2f m", int(m.finalCorridor().size()),
                double(!m.isAStar() ? m.exactLen() : m.straightLength()));
    if (nav::statusDetail(m.status(), nav::PARTIAL_RESULT) && m.best() >= 0 && m.best() < int(m.nodes().size()))
      ImGui::TextColored(ImVec4(1, 0.3f, 0.9f, 1), "Partial: ends at poly %u, the node nearest the goal (magenta)",
                         unsigned(m.nodes()[size_t(m.best())].ref));
  }
  if (nav::statusDetail(m.status(), nav::OUT_OF_NODES))
    ImGui::TextColored(ImVec4(1, 0.3f, 0.2f, 1), "Out of nodes: the budget of %d was used up (Filter panel)", m.nodeBudget());
  ImGui::PopTextWrapPos();
}

void ToolStepper::tableUi() {
  const StepperModel& m = model();
  ImGuiViewport* vp = ImGui::GetMainViewport();
  // First use: top right, under the stats overlay, above the Navmesh and View panels.
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - 420, vp->Pos.y + 112), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(410, 215), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("A* stepper")) {
    ImGui::End();
    return;
  }
  summaryUi();
  if (m.inAbstractPhase()) { // the abstract search's entrances by f (id, g, f, parent; open first)
    std::vector<nav::HierPlanner::AbstractNode> nodes = m.abstractNodes();
    std::stable_sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) {
      return a.open != b.open ? a.open : a.f < b.f;
    });
    if (ImGui::BeginTable("abstract", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV,
                          ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, ImGui::GetTextLineHeightWithSpacing() * 4)))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      for (const char* h : {"entrance", "state", "g", "f", "parent"}) ImGui::TableSetupColumn(h);
      ImGui::TableHeadersRow();
      ImGuiListClipper clip;
      clip.Begin(int(nodes.size()));
      while (clip.Step())
        for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
          const nav::HierPlanner::AbstractNode& n = nodes[size_t(r)];
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::Text("%d", n.id);
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(n.id == m.abstractLastPopped() ? "popped" : n.open ? "open" : "closed");
          ImGui::TableNextColumn();
          ImGui::Text("%.2f", double(n.g));
          ImGui::TableNextColumn();
          ImGui::Text("%.2f", double(n.f));
          ImGui::TableNextColumn();
          ImGui::Text("%d", n.parent);
        }
      ImGui::EndTable();
    }
    ImGui::End();
    return;
  }
  if (!m.isAStar()) {
    std::vector<int> order(m.exactNodes().size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return m.exactNodes()[size_t(a)].f < m.exactNodes()[size_t(b)].f; });
    if (ImGui::BeginTable("exact", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV,
                          ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, ImGui::GetTextLineHeightWithSpacing() * 4)))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("node");
      ImGui::TableSetupColumn("poly");
      ImGui::TableSetupColumn("g (root)");
      ImGui::TableSetupColumn("f");
      ImGui::TableSetupColumn("parent");
      ImGui::TableHeadersRow();
      ImGuiListClipper clip;
      clip.Begin(int(order.size()));
      while (clip.Step())
        for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
          const int i = order[size_t(r)];
          const StepperModel::ExactNode& e = m.exactNodes()[size_t(i)];
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          char label[32];
          std::snprintf(label, sizeof label, "%d%s##x%d", i, m.exactPrevCount() >= 0 && i >= m.exactPrevCount() ? " new" : "", i);
          if (ImGui::Selectable(label, m.selected() == i, ImGuiSelectableFlags_SpanAllColumns))
            model().select(m.selected() == i ? -1 : i);
          ImGui::TableNextColumn();
          ImGui::Text("%u", unsigned(e.poly));
          ImGui::TableNextColumn();
          ImGui::Text("%.2f", double(e.g));
          ImGui::TableNextColumn();
          ImGui::Text("%.2f", double(e.f));
          ImGui::TableNextColumn();
          ImGui::Text("%d", e.parent);
        }
      ImGui::EndTable();
    }
    ImGui::End();
    return;
  }
  // The open list gets what the relaxation lines leave (3.5 to 10 rows).
  const float lh = ImGui::GetTextLineHeightWithSpacing();
  const float tableH = std::min(std::max(ImGui::GetContentRegionAvail().y - lh * float(m.relaxations().size() + 1), lh * 3.5f), lh * 10.0f);
  if (m.open().empty()) {
    ImGui::TextDisabled("Open list empty");
  } else if (ImGui::BeginTable("open", 5,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                            ImGuiTableFlags_SizingFixedFit,
                        ImVec2(0, tableH))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("open ref");
    ImGui::TableSetupColumn("g");
    ImGui::TableSetupColumn("h");
    ImGui::TableSetupColumn("total");
    ImGui::TableSetupColumn("parent");
    ImGui::TableHeadersRow();
    ImGuiListClipper clip;
    clip.Begin(int(m.open().size()));
    while (clip.Step())
      for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
        const int i = m.open()[size_t(r)];
        const StepperModel::NodeInfo& n = m.nodes()[size_t(i)];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        char label[32];
        std::snprintf(label, sizeof label, "%u%s##%d", unsigned(n.ref), r == 0 ? " next" : "", i);
        if (ImGui::Selectable(label, m.selected() == i, ImGuiSelectableFlags_SpanAllColumns))
          model().select(m.selected() == i ? -1 : i);
        if (r == 0) { // where the first row is and the row pitch (--dump-state: tests click rows)
          m_firstRow[0] = (ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f;
          m_firstRow[1] = (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f;
        } else if (r == 1) {
          m_firstRow[2] = (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f - m_firstRow[1];
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Click: highlight this node and its parent chain");
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", double(n.g));
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", double(n.h));
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", double(n.total));
        ImGui::TableNextColumn();
        ImGui::Text("%u", n.parent >= 0 ? unsigned(m.nodes()[size_t(n.parent)].ref) : 0u);
      }
    ImGui::EndTable();
  }
  if (m.expanded() >= 0 && m.expanded() < int(m.nodes().size())) {
    const StepperModel::NodeInfo& x = m.nodes()[size_t(m.expanded())];
    ImGui::Text("Expanded %u (g %.2f, total %.2f), %d links:", unsigned(x.ref), double(x.g), double(x.total),
                int(m.relaxations().size()));
  } else {
    ImGui::TextDisabled("Nothing expanded yet: Step (Space)");
  }
  for (const StepperModel::Relax& r : m.relaxations()) {
    ImGui::TextColored(toImVec4(resultColor(r.ev.result)), "%s", m.describe(r).c_str());
  }
  ImGui::End();
}

} // namespace navbench
