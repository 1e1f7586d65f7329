// AgentsPanel.cpp: see AgentsPanel.h.
#include "app/panels/AgentsPanel.h"

#include "app/Document.h"
#include "app/model/AgentSet.h"
#include "app/model/TesterModel.h"
#include "app/panels/CheckPanel.h"
#include "app/panels/Panels.h"
#include "app/tools/Tester.h"
#include "nav/NavMesh.h"
#include "render/DebugDraw.h"

#include <imgui.h>

#include <cstdio>
#include <string>

namespace navbench {

namespace {

const ImVec4 kRed(1, 0.45f, 0.4f, 1), kGreen(0.45f, 0.9f, 0.45f, 1), kAmber(1, 0.8f, 0.3f, 1);

ImVec4 swatch(uint32_t rgb) {
  return ImVec4(float((rgb >> 16) & 255) / 255.0f, float((rgb >> 8) & 255) / 255.0f, float(rgb & 255) / 255.0f, 1.0f);
}

uint32_t ddColour(uint32_t rgb, uint8_t a = 255) {
  return render::rgba(uint8_t((rgb >> 16) & 255), uint8_t((rgb >> 8) & 255), uint8_t(rgb & 255), a);
}

const TesterModel* activeTester(const Document& doc) {
  const Tester* t = dynamic_cast<const Tester*>(doc.tool());
  return t ? &t->testerModel() : nullptr;
}

/// Compare / reach follow the active path mode's start and end, every frame (shown or not).
void updateAnswers(Document& doc) {
  AgentSet& a = doc.agents;
  if (!a.enabled()) return;
  const TesterModel* t = activeTester(doc);
  const float* start = t && t->hasStart() ? &t->start().x : nullptr;
  const float* end = t && t->hasEnd() ? &t->end().x : nullptr;
  a.update(start, end, doc.nav.filter(), doc.nav.maxNodes(), doc.nav.extents);
}

void agentsTable(Document& doc) {
  AgentSet& a = doc.agents;
  if (!ImGui::BeginTable("agents", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) return;
  ImGui::TableSetupColumn("active");
  ImGui::TableSetupColumn("agent");
  ImGui::TableSetupColumn("shown");
  ImGui::TableSetupColumn("navmesh", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (int i = 0; i < a.count(); ++i) {
    ImGui::PushID(i);
    const nav::bake::AgentType& t = a.type(i);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (ImGui::RadioButton("##active", a.active() == i) && a.active() != i) doc.setActiveAgent(i);
    ImGui::TableNextColumn();
    ImGui::ColorButton("##colour", swatch(t.color), ImGuiColorEditFlags_NoTooltip, ImVec2(14, 14));
    ImGui::SameLine();
    ImGui::Text("%s", t.name.c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("radius %.2f, height %.2f, climb %.2f, slope %.0f deg", double(t.settings.agentRadius),
                        double(t.settings.agentHeight), double(t.settings.agentMaxClimb), double(t.settings.agentMaxSlope));
    ImGui::TableNextColumn();
    bool shown = a.visible(i);
    if (ImGui::Checkbox("##shown", &shown)) a.setVisible(i, shown);
    ImGui::TableNextColumn();
    if (a.bakeState(i) == "baking") {
      ImGui::ProgressBar(a.bakeFraction(i), ImVec2(-1, 0));
    } else {
      const NavState* n = a.nav(i);
      char buf[64] = "";
      if (n) std::snprintf(buf, sizeof buf, "%d polys, %d tiles", n->polyCount(), n->tileCount());
      ImGui::TextColored(n ? ImGui::GetStyleColorVec4(ImGuiCol_Text) : kRed, "%s", n ? buf : a.bakeState(i).c_str());
      if (n && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", a.bakeState(i).c_str());
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

void answers(Document& doc) {
  AgentSet& a = doc.agents;
  ImGui::Checkbox("Compare agents", &a.compareOn);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The path mode's start and end, answered on every agent's navmesh");
  ImGui::SameLine();
  ImGui::Checkbox("Reachability", &a.reachOn);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Painted: where the active agent goes from the start and the other cannot follow");
  if (a.reachOn) {
    ImGui::SetNextItemWidth(120);
    const int other = a.reachAgent();
    if (ImGui::BeginCombo("cannot follow the active agent", other >= 0 ? a.type(other).name.c_str() : "")) {
      for (int i = 0; i < a.count(); ++i)
        if (i != a.active() && ImGui::Selectable(a.type(i).name.c_str(), i == other)) a.reachTarget = i;
      ImGui::EndCombo();
    }
  }
  const TesterModel* t = activeTester(doc);
  if ((a.compareOn || a.reachOn) && !(t && t->hasStart())) {
    ImGui::TextWrapped("Set a start and an end in a path mode (Pathfind Straight, Follow, Sliced).");
    return;
  }
  if (a.compareOn && !a.paths().empty() &&
      ImGui::BeginTable("paths", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders)) {
    ImGui::TableSetupColumn("agent");
    ImGui::TableSetupColumn("status");
    ImGui::TableSetupColumn("length");
    ImGui::TableSetupColumn("why", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (int i = 0; i < int(a.paths().size()); ++i) {
      const AgentPath& p = a.paths()[size_t(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(swatch(a.type(i).color), "%s", a.type(i).name.c_str());
      ImGui::TableNextColumn();
      ImGui::TextColored(p.status == AgentPathStatus::Complete ? kGreen : p.status == AgentPathStatus::Partial ? kAmber : kRed, "%s",
                         agentPathStatusName(p.status));
      ImGui::TableNextColumn();
      if (p.straight.empty()) ImGui::TextDisabled("-");
      else ImGui::Text("%.1f m", double(p.length));
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", p.reason.c_str());
    }
    ImGui::EndTable();
    ImGui::TextDisabled("%d agents answered in %.2f ms", int(a.paths().size()), a.compareMs());
  }
  if (a.reachOn && a.reachOther() >= 0) {
    ImGui::Text("%s reaches %d polys; %d of them %s cannot follow to (painted)", a.type(a.active()).name.c_str(),
                a.reachedByActive(), int(a.reachOnly().size()), a.type(a.reachOther()).name.c_str());
  }
}

void drawPanel(PanelContext& c, bool& shown) {
  Document& doc = c.doc;
  updateAnswers(doc);
  if (!shown) return;
  c.layout.placeOnDemand("Agents (F7)"); // (its place and size: PanelLayout)
  if (!ImGui::Begin("Agents (F7)", &shown)) {
    ImGui::End();
    return;
  }
  if (!doc.agents.enabled()) {
    ImGui::TextWrapped("This level has one agent type. A level file's \"agents\" list gives it several, each baked with its own "
                       "settings (e.g. assets/levels/default_agents.json).");
  } else {
    agentsTable(doc);
    ImGui::Separator();
    answers(doc);
  }
  ImGui::End();
}

/// Agent `i`'s wall edges (ground poly edges with no neighbour).
void outline(render::DebugDraw& dd, const nav::NavMesh& mesh, uint32_t colour, float lift) {
  dd.begin(render::Prim::Lines, 2.0f);
  for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
    const nav::MeshTile* t = mesh.getTile(ti);
    if (!t->header) continue;
    for (int pi = 0; pi < t->header->polyCount; ++pi) {
      const nav::Poly& p = t->polys[pi];
      if (p.getType() != nav::POLYTYPE_GROUND) continue;
      for (int j = 0; j < p.vertCount; ++j) {
        if (p.neis[j] != 0) continue;
        const float* a = &t->verts[p.verts[j] * 3];
        const float* b = &t->verts[p.verts[(j + 1) % p.vertCount] * 3];
        dd.vertex(a[0], a[1] + lift, a[2], colour);
        dd.vertex(b[0], b[1] + lift, b[2], colour);
      }
    }
  }
  dd.end();
}

} // namespace

void drawAgentsOverlay(render::DebugDraw& dd, const AgentSet& agents, float lift) {
  if (!agents.enabled()) return;
  for (int i = 0; i < agents.count(); ++i)
    if (const NavState* n = agents.nav(i); n && agents.visible(i)) outline(dd, n->mesh(), ddColour(agents.type(i).color), lift * 1.5f);
  if (const NavState* a = agents.nav(agents.active()); a && agents.reachOther() >= 0)
    for (const nav::PolyRef ref : agents.reachOnly()) fillPoly(dd, a->mesh(), ref, render::rgba(255, 40, 200, 120), lift * 2.0f, true);
  for (int i = 0; i < int(agents.paths().size()); ++i) {
    const AgentPath& p = agents.paths()[size_t(i)];
    const glm::vec3 up(0, lift * 3.0f + 0.08f * float(i), 0); // side by side where they overlap
    const uint32_t colour = ddColour(agents.type(i).color);
    for (size_t k = 3; k + 2 < p.straight.size(); k += 3)
      dd.line(glm::vec3(p.straight[k - 3], p.straight[k - 2], p.straight[k - 1]) + up,
              glm::vec3(p.straight[k], p.straight[k + 1], p.straight[k + 2]) + up, colour, 4.0f, false);
    for (size_t k = 0; k + 2 < p.straight.size(); k += 3)
      dd.point(glm::vec3(p.straight[k], p.straight[k + 1], p.straight[k + 2]) + up, colour, 7.0f, false);
  }
}

std::unique_ptr<Panel> makeAgentsPanel() {
  auto shownIn = [](Document& doc) { return &doc.agentsVisible; };
  return makePanel({"Agents", "Agents panel", 7, false, shownIn}, [](PanelContext& c, bool& shown) { drawPanel(c, shown); });
}

} // namespace navbench
