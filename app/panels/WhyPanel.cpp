// WhyPanel.cpp: see WhyPanel.h.
#include "app/panels/WhyPanel.h"

#include "app/Document.h"
#include "app/model/StepperModel.h"
#include "app/model/WhyModel.h"
#include "app/panels/CheckPanel.h"
#include "app/panels/Panels.h"
#include "app/tools/Tester.h"
#include "nav/NavMesh.h"
#include "render/DebugDraw.h"

#include <imgui.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>

namespace navbench {

using namespace nav::explain;

namespace {

const ImVec4 kRed(1, 0.45f, 0.4f, 1), kAmber(1, 0.8f, 0.3f, 1), kGreen(0.45f, 0.9f, 0.45f, 1), kGrey(0.65f, 0.65f, 0.65f, 1);

glm::vec3 v3(const Vec3& p) { return glm::vec3(p[0], p[1], p[2]); }

const Evidence* evidence(const Cause& c, const char* name) {
  for (const Evidence& e : c.evidence)
    if (e.name == name) return &e;
  return nullptr;
}

/// The active tool's tester model, or null (not a tester).
const TesterModel* activeTester(const Document& doc) {
  const Tester* t = dynamic_cast<const Tester*>(doc.tool());
  return t ? &t->testerModel() : nullptr;
}

/// The last item's centre in window pixels (for --dump-state: tests click it).
std::array<float, 2> itemCentre() {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  return {(a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f};
}

std::string resultText(const Counterfactual& cf) {
  char buf[96];
  if (cf.result.reached) std::snprintf(buf, sizeof(buf), "path complete, %.1f m", double(cf.result.length));
  else if (cf.result.length >= 0) std::snprintf(buf, sizeof(buf), "partial path, %.1f m", double(cf.result.length));
  else std::snprintf(buf, sizeof(buf), "%s", cf.result.endRef && cf.result.startRef ? "no path" : "an end still has no poly");
  return buf;
}

/// Opens the A* Stepper (findPath) on the same start and end at the expansion after `expansion`
/// (the one that committed to the other portal is then the node just expanded, in red).
void openStepperAt(Document& doc, int expansion, Log& log) {
  const TesterModel* from = activeTester(doc);
  const int idx = doc.findTool("A* Stepper");
  Tester* tool = idx >= 0 ? dynamic_cast<Tester*>(doc.tools[size_t(idx)].get()) : nullptr;
  StepperModel* stepper = tool ? dynamic_cast<StepperModel*>(&tool->testerModel()) : nullptr;
  if (!from || !stepper) {
    log.error("why: no A* Stepper to open");
    return;
  }
  const glm::vec3 s = from->start(), e = from->end();
  if (idx != doc.activeTool) doc.setActiveTool(idx);
  stepper->setAlgorithm(StepperModel::ALGO_FINDPATH);
  stepper->setStart(s);
  stepper->setEnd(e);
  stepper->goTo(expansion + 1);
  log.info("why: A* Stepper at expansion " + std::to_string(expansion));
}

void causeUi(Document& doc, WhyModel& m, int i, Log& log) {
  const Cause& c = m.explanation().causes[size_t(i)];
  const Counterfactual& cf = c.counterfactual;
  ImGui::PushID(i);
  ImGui::TextColored(c.kind == CAUSE_DETOUR || c.kind == CAUSE_SNAP ? kAmber : kRed, "%s", causeName(c.kind));
  ImGui::SameLine();
  ImGui::TextWrapped("%s", c.text.c_str());
  ImGui::Indent();
  ImGui::PushStyleColor(ImGuiCol_Text, kGrey);
  ImGui::TextWrapped("%s: %s%s", cf.text.c_str(), resultText(cf).c_str(), cf.checked ? " (checked)" : "");
  ImGui::PopStyleColor();
  if (m.applicable(i)) {
    if (ImGui::Button("Apply")) {
      std::string why;
      if (m.apply(i, doc.nav, doc.history, &why)) log.info("why: applied " + cf.text + " (Ctrl+Z undoes it)");
      else log.error("why: " + why);
    }
    m.buttons[size_t(i)].apply = itemCentre();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Set it in the Navmesh panel's filter for a look; Ctrl+Z undoes it");
  } else if (cf.change == CHANGE_LINK) {
    std::string notReady;
    if (doc.editor.ready(&notReady) && !doc.editor.busy()) {
      const bool add = ImGui::Button("Add link");
      m.buttons[size_t(i)].apply = itemCentre();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Adds it to the level (re-bakes its tiles); Ctrl+Z removes it");
      std::string why;
      if (add && !m.addLink(i, doc.editor, &why)) log.error("why: " + why);
    } else {
      ImGui::TextDisabled("the link is drawn in the view (%s)", doc.editor.busy() ? "re-baking" : notReady.c_str());
    }
  }
  if (c.kind == CAUSE_DETOUR && c.expansion >= 0) {
    if (!m.applicable(i)) ImGui::TextDisabled("the any-angle search is not a tester setting");
    char label[48];
    std::snprintf(label, sizeof(label), "at expansion %d", c.expansion);
    const bool open = ImGui::Button(label);
    m.buttons[size_t(i)].stepper = itemCentre();
    if (open) openStepperAt(doc, c.expansion, log);
  }
  ImGui::Unindent();
  ImGui::Separator();
  ImGui::PopID();
}

void drawPanel(PanelContext& c, bool& shown) {
  Document& doc = c.doc;
  WhyModel& m = doc.why;
  if (!shown) return;
  m.update(doc.nav, activeTester(doc), &doc.check);
  m.buttons.assign(m.explanation().causes.size(), WhyModel::Buttons());
  c.layout.placeOnDemand("Why (F6)"); // (its place and size: PanelLayout)
  if (!ImGui::Begin("Why (F6)", &shown)) {
    ImGui::End();
    return;
  }
  if (!m.hasQuery()) {
    ImGui::TextWrapped("Set a start and an end in a path mode (Pathfind Straight, Follow, Sliced, A* Stepper), or pick a "
                       "finding in the Check panel (a detour, a budget overrun, an unreachable island).");
  } else if (!m.error().empty()) {
    ImGui::TextColored(kRed, "%s", m.error().c_str());
  } else {
    const Answer& a = m.explanation().answer;
    const float exact = m.explanation().exactMetric;
    char shortest[48] = "no exact path";
    if (exact >= 0) std::snprintf(shortest, sizeof(shortest), "exact shortest %.1f m", double(exact));
    if (m.explainsFinding())
      ImGui::TextWrapped("The Check panel's island finding: a path from the first seed to the island, with the check's filter.");
    ImGui::Text("%s, %.1f m, %d nodes; %s", a.reached ? "path complete" : "no complete path", double(a.length), a.nodes, shortest);
    ImGui::Separator();
    if (m.explanation().causes.empty())
      ImGui::TextColored(kGreen, "Nothing to explain: the path is complete and close to the shortest.");
    for (int i = 0; i < int(m.explanation().causes.size()); ++i) causeUi(doc, m, i, c.log);
  }
  ImGui::End();
}

} // namespace

void drawWhyOverlay(render::DebugDraw& dd, const WhyModel& why, const nav::NavMesh& mesh, float lift) {
  if (!why.shown || !why.hasQuery()) return;
  const glm::vec3 up(0, lift * 2.0f, 0);
  const uint32_t mark = render::rgba(255, 200, 40), blocked = render::rgba(255, 60, 40, 140);
  for (const Cause& c : why.explanation().causes) {
    for (const Evidence& e : c.evidence) {
      if (e.type == Evidence::POLY && e.poly && e.name != "chosenPoly" && e.name != "shortestPoly" && e.name != "expandedPoly")
        fillPoly(dd, mesh, e.poly, c.kind == CAUSE_FILTER ? blocked : render::rgba(255, 200, 40, 110), lift * 2.0f, false);
      else if (e.type == Evidence::POINT)
        dd.point(v3(e.point) + up, mark, 9.0f, false);
    }
    if (const Evidence *a = evidence(c, "startIslandPoint"), *b = evidence(c, "endIslandPoint"); a && b)
      dd.line(v3(a->point) + up, v3(b->point) + up, render::rgba(255, 40, 200), 4.0f, false); // the gap
    if (c.counterfactual.change == CHANGE_LINK) { // the link that would join them, arched
      const glm::vec3 s = v3(c.counterfactual.link.start), e = v3(c.counterfactual.link.end);
      const glm::vec3 mid = (s + e) * 0.5f + glm::vec3(0, 0.25f * glm::length(e - s) + 0.5f, 0);
      dd.line(s + up, mid + up, render::rgba(80, 220, 255), 3.0f, false);
      dd.line(mid + up, e + up, render::rgba(80, 220, 255), 3.0f, false);
    }
    if (const Evidence *a = evidence(c, "linkStart"), *b = evidence(c, "linkEnd"); a && b)
      dd.line(v3(a->point) + up, v3(b->point) + up, render::rgba(255, 40, 200), 3.0f, false);
    if (const Evidence* p = evidence(c, "chosenPortal")) {
      dd.point(v3(p->point) + up, render::rgba(255, 50, 50), 14.0f, false); // where A* went
      fillPoly(dd, mesh, evidence(c, "chosenPoly") ? evidence(c, "chosenPoly")->poly : 0, render::rgba(255, 50, 50, 90),
               lift * 2.0f, false);
    }
    if (const Evidence* p = evidence(c, "shortestPortal")) {
      dd.point(v3(p->point) + up, render::rgba(50, 230, 80), 14.0f, false); // where the shortest path goes
      fillPoly(dd, mesh, evidence(c, "shortestPoly") ? evidence(c, "shortestPoly")->poly : 0, render::rgba(50, 230, 80, 90),
               lift * 2.0f, false);
    }
  }
}

std::unique_ptr<Panel> makeWhyPanel() {
  auto shownIn = [](Document& doc) { return &doc.why.shown; };
  return makePanel({"Why", "Why panel", 6, false, shownIn}, [](PanelContext& c, bool& shown) { drawPanel(c, shown); });
}

} // namespace navbench
