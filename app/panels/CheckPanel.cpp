// CheckPanel.cpp: see CheckPanel.h.
#include "app/panels/CheckPanel.h"

#include "app/Document.h"
#include "app/model/CheckModel.h"
#include "app/panels/Panels.h"
#include "app/tools/Tester.h"
#include "nav/NavMesh.h"
#include "nav/bake/LevelFile.h"
#include "render/DebugDraw.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace navbench {

using namespace nav::check;

namespace {

const ImVec4 kRed(1, 0.45f, 0.4f, 1), kAmber(1, 0.8f, 0.3f, 1), kGreen(0.45f, 0.9f, 0.45f, 1);

glm::vec3 v3(const Vec3& p) { return glm::vec3(p[0], p[1], p[2]); }

/// The heatmap colour of a ratio: green near 1, yellow at the finding threshold, red at 2 and over.
uint32_t heatColour(float ratio, float threshold) {
  const float t = std::clamp((ratio - 1.0f) / std::max(threshold - 1.0f, 1e-3f), 0.0f, 1.0f);
  const float u = std::clamp((ratio - threshold) / std::max(2.0f - threshold, 1e-3f), 0.0f, 1.0f);
  const float r = ratio < threshold ? t : 1.0f, g = ratio < threshold ? 1.0f : 1.0f - u;
  return render::rgbaf(r, g * 0.9f, 0.1f, 0.55f);
}

/// What the panel keeps between frames.
struct CheckView {
  bool frameCamera = true;
  bool wasShown = false;
  std::string seedsOf = "\n"; ///< The level whose `seeds` the options hold.
};

/// A level file's reachability seeds (as `navbench check LEVEL.json` takes them) into the model:
/// every seed as the options' (no agent types), the seeds and their agent masks for the per-agent
/// runs; none for other files.
void levelSeeds(const std::string& level, CheckModel& m, Log& log) {
  m.options.seeds.clear();
  m.levelSeeds.clear();
  m.levelSeedAgents.clear();
  if (lowerExt(level) != ".json") return;
  nav::bake::Level lf;
  std::string why;
  if (!nav::bake::loadLevelFile(level, &lf, &why)) {
    log.warning("check: no seeds from " + level + ": " + why);
    return;
  }
  for (const auto& p : lf.seeds) m.options.seeds.push_back(Vec3{p[0], p[1], p[2]});
  m.levelSeeds = m.options.seeds;
  m.levelSeedAgents = lf.seedAgents;
}

ImVec4 colourOf(uint32_t rgb) {
  return ImVec4(float((rgb >> 16) & 255) / 255.0f, float((rgb >> 8) & 255) / 255.0f, float(rgb & 255) / 255.0f, 1.0f);
}

CheckModel::LevelTris levelOf(const Document& doc) {
  CheckModel::LevelTris lv;
  if (!doc.level.empty() && !doc.levelFromNav) { // a tile set's own detail mesh is no level surface
    lv.verts = &doc.level.mesh().verts;
    lv.tris = &doc.level.mesh().tris;
  }
  return lv;
}

/// Frames the finding and shows it with the right tool.
void show(Document& doc, CheckModel& model, int i, bool frameCamera, Log& log) {
  if (!doc.selectCheckFinding(i) || i < 0) return; // (another agent's finding: that agent is active now)
  const CheckFocus f = model.focus(i);
  if (f.kind == CheckFocus::Pair) {
    const int idx = doc.findTool("Pathfind Straight");
    Tester* tester = idx >= 0 ? dynamic_cast<Tester*>(doc.tools[size_t(idx)].get()) : nullptr;
    if (!tester) {
      log.error("check: no 'Pathfind Straight' tool to show the pair in");
    } else {
      if (idx != doc.activeTool) doc.setActiveTool(idx);
      // The path the check found: its filter and node budget.
      if (doc.nav.filter().getIncludeFlags() != model.includeFlags || doc.nav.filter().getExcludeFlags() != model.excludeFlags ||
          doc.nav.maxNodes() != model.options.nodeBudget) {
        doc.nav.filter().setIncludeFlags(model.includeFlags);
        doc.nav.filter().setExcludeFlags(model.excludeFlags);
        doc.nav.setMaxNodes(model.options.nodeBudget);
        doc.filterChanged();
      }
      tester->setShowShortest(true);
      tester->setStart(v3(f.a));
      tester->setEnd(v3(f.b));
    }
  }
  if (frameCamera) {
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    // Between the Tools panel (a tester's is a third of the window wide) and this one, above the log.
    doc.camera.frame(v3(f.boundsMin), v3(f.boundsMax), ds.y > 0 ? ds.x / ds.y : 1.0f, glm::vec2(-0.4f, -0.5f),
                     glm::vec2(0.0f, 0.75f));
  }
  const CheckReportOf& report = model.reports()[size_t(model.findings()[size_t(i)].report)];
  log.info("check: " + (report.index >= 0 ? report.name + ": " : std::string()) +
           std::string(checkName(model.findings()[size_t(i)].kind)) + " " + model.findings()[size_t(i)].text);
}

void optionsUi(CheckModel& m) {
  CheckOptions& o = m.options;
  ImGui::PushItemWidth(110);
  ImGui::InputInt("pairs", &o.pairs, 100, 1000);
  o.pairs = std::clamp(o.pairs, 1, 10000000);
  ImGui::SameLine();
  int seed = int(std::min<uint64_t>(o.seed, 0x7fffffff));
  if (ImGui::InputInt("seed", &seed)) o.seed = uint64_t(std::max(seed, 0));
  int inc = m.includeFlags, exc = m.excludeFlags;
  if (ImGui::InputInt("include", &inc, 1, 16, ImGuiInputTextFlags_CharsHexadecimal)) m.includeFlags = uint16_t(std::clamp(inc, 0, 0xffff));
  ImGui::SameLine();
  if (ImGui::InputInt("exclude", &exc, 1, 16, ImGuiInputTextFlags_CharsHexadecimal)) m.excludeFlags = uint16_t(std::clamp(exc, 0, 0xffff));
  ImGui::DragFloat("detour ratio", &o.detourRatio, 0.01f, 1.0f, 10.0f, "%.2f");
  ImGui::SameLine();
  ImGui::DragFloat("min extra m", &o.detourMinExtra, 0.1f, 0.0f, 1000.0f, "%.1f");
  ImGui::DragInt("node budget", &o.nodeBudget, 16, 1, 65535);
  ImGui::SameLine();
  ImGui::DragFloat("min width m", &o.minWidth, 0.01f, 0.001f, 100.0f, "%.2f");
  ImGui::PopItemWidth();
  bool* on[CHECK_COUNT] = {&o.islands, &o.detours, &o.budget, &o.seams, &o.links, &o.narrow, &o.surface};
  for (int k = 0; k < CHECK_COUNT; ++k) {
    if (k) ImGui::SameLine();
    ImGui::Checkbox(checkName(k), on[k]);
  }
  if (m.reports().front().index >= 0 || !m.levelSeedAgents.empty())
    ImGui::Text("%zu seeds (the level file's, each agent its own; none: the biggest island)", m.levelSeeds.size());
  else
    ImGui::Text("%zu seeds (the level file's; none: the biggest island)", o.seeds.size());
  ImGui::Checkbox("re-run after edits", &m.autoRerun);
  ImGui::SameLine();
  if (ImGui::Button("CLI defaults")) {
    std::vector<Vec3> seeds = std::move(o.seeds);
    o = CheckOptions();
    o.seeds = std::move(seeds);
    m.includeFlags = 0xffef;
    m.excludeFlags = 0;
  }
}

void findingsUi(Document& doc, CheckModel& m, CheckView& v, Log& log) {
  const CheckResult& r = m.result();
  if (m.reports().front().index >= 0) ImGui::TextColored(colourOf(m.reports()[size_t(m.shownReport())].color), "%s (the active agent):",
                                                         m.reports()[size_t(m.shownReport())].name.c_str());
  ImGui::Text("%d polys, %zu islands, %d pairs run (%d skipped), worst ratio %.3f, %.2f s", r.polyCount, r.islands.size(),
              r.pairsRun, r.pairsSkipped, double(r.worstRatio), m.seconds());
  for (int k = 0; k < CHECK_COUNT; ++k) {
    if (k % 4) ImGui::SameLine();
    const int n = m.count(k);
    const ImVec4 c = !r.ran[k] ? ImVec4(0.6f, 0.6f, 0.6f, 1) : n == 0 ? kGreen : checkSeverity(k) == SEVERITY_ERROR ? kRed : kAmber;
    ImGui::TextColored(c, "%s %s", checkName(k), r.ran[k] ? std::to_string(n).c_str() : "-");
  }
  const bool perAgent = m.reports().front().index >= 0;
  if (m.findings().empty()) {
    ImGui::TextColored(kGreen, perAgent ? "No findings for any agent." : "No findings.");
    return;
  }
  ImGui::BeginChild("findings", ImVec2(0, 0), true);
  // Per agent type (findings come grouped by report): a header with its colour, name and count,
  // then its rows.
  const int total = int(m.findings().size());
  for (int begin = 0, rep = 0; rep < int(m.reports().size()); ++rep) {
    int end = begin;
    while (end < total && m.findings()[size_t(end)].report == rep) ++end;
    if (perAgent) {
      const CheckReportOf& agent = m.reports()[size_t(rep)];
      ImGui::ColorButton(("##agent" + agent.name).c_str(), colourOf(agent.color), ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
      ImGui::SameLine();
      ImGui::TextColored(colourOf(agent.color), "%s", agent.name.c_str());
      ImGui::SameLine();
      if (end == begin)
        ImGui::TextColored(kGreen, "no findings");
      else
        ImGui::TextDisabled("%d finding%s", end - begin, end - begin == 1 ? "" : "s");
    }
    ImGuiListClipper clip;
    clip.Begin(end - begin);
    while (clip.Step())
      for (int i = begin + clip.DisplayStart; i < begin + clip.DisplayEnd; ++i) {
        const CheckFinding& f = m.findings()[size_t(i)];
        ImGui::PushID(i);
        ImGui::PushStyleColor(ImGuiCol_Text, f.severity == SEVERITY_ERROR ? kRed : kAmber);
        char label[64];
        std::snprintf(label, sizeof(label), "%s%-5s %-7s", perAgent ? "  " : "", f.severity == SEVERITY_ERROR ? "error" : "warn",
                      checkName(f.kind));
        const bool clicked = ImGui::Selectable(label, m.selected() == i, ImGuiSelectableFlags_AllowItemOverlap);
        ImGui::PopStyleColor();
        ImGui::SameLine();
        ImGui::TextUnformatted(f.text.c_str());
        if (clicked) show(doc, m, i, v.frameCamera, log);
        ImGui::PopID();
      }
    begin = end;
  }
  ImGui::EndChild();
  // Up / Down step through the findings while the panel has the keyboard focus.
  if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !ImGui::GetIO().WantTextInput) {
    int next = -2;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) next = std::min(m.selected() + 1, int(m.findings().size()) - 1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) next = std::max(m.selected() - 1, 0);
    if (next >= 0 && next != m.selected()) show(doc, m, next, v.frameCamera, log);
  }
}

void drawPanel(PanelContext& c, bool& shown, CheckView& v) {
  Document& doc = c.doc;
  CheckModel& m = doc.check;
  const nav::NavMesh* mesh = doc.nav.loaded() ? &doc.nav.mesh() : nullptr;
  if (v.seedsOf != doc.levelArg) {
    v.seedsOf = doc.levelArg;
    levelSeeds(doc.levelArg, m, c.log);
  }
  // A level with agent types: every type's navmesh is checked, the active one's results shown.
  const std::vector<CheckAgent> agents = doc.checkAgents();
  const bool perAgent = !agents.empty();
  if (perAgent) m.showAgent(doc.agents.active());
  auto start = [&]() {
    std::string why;
    if (!(perAgent ? m.start(agents, levelOf(doc), &why) : m.start(*mesh, levelOf(doc), &why))) c.log.error("check: " + why);
  };
  const bool staleNow = perAgent ? m.stale(agents) : m.stale(mesh);
  // Opened: run when there are no results for this navmesh.
  if (shown && !v.wasShown && mesh && !m.running() && (!m.hasResult() || staleNow) && !m.pendingRun()) start();
  v.wasShown = shown;
  if (perAgent ? m.poll(agents, levelOf(doc), nowMs(), shown) : m.poll(mesh, levelOf(doc), nowMs(), shown)) {
    c.log.info("check: " + std::to_string(m.findings().size()) + " findings in " + std::to_string(m.seconds()) + " s");
  }
  if (!shown) return;
  c.layout.placeOnDemand("Check (F5)"); // (its place and size: PanelLayout)
  if (!ImGui::Begin("Check (F5)", &shown)) {
    ImGui::End();
    return;
  }
  if (!mesh) ImGui::TextDisabled("No navmesh open.");
  if (m.running()) {
    if (ImGui::Button("Cancel")) m.cancel();
    ImGui::SameLine();
    char over[64];
    std::snprintf(over, sizeof(over), "%s %.0f%%", m.phase().c_str(), double(m.progress() * 100));
    ImGui::ProgressBar(m.progress(), ImVec2(-1, 0), over);
  } else if (mesh && ImGui::Button(perAgent ? "Run (every agent)" : "Run")) {
    start();
  }
  if (!m.running()) {
    ImGui::SameLine();
    ImGui::Checkbox("Heatmap", &m.heatmap);
    ImGui::SameLine();
    ImGui::Checkbox("Frame", &v.frameCamera);
    if (staleNow) {
      ImGui::SameLine();
      ImGui::TextColored(kAmber, "navmesh changed");
    }
  }
  if (!m.error().empty()) ImGui::TextColored(m.error() == "cancelled" ? kAmber : kRed, "Last run: %s", m.error().c_str());
  if (ImGui::CollapsingHeader("Options")) optionsUi(m);
  if (m.hasResult()) findingsUi(doc, m, v, c.log);
  ImGui::End();
}

} // namespace

void fillPoly(render::DebugDraw& dd, const nav::NavMesh& mesh, nav::PolyRef ref, uint32_t colour, float lift, bool depthTest) {
  const nav::MeshTile* t = nullptr;
  const nav::Poly* p = nullptr;
  if (nav::statusFailed(mesh.getTileAndPolyByRef(ref, &t, &p)) || p->getType() != nav::POLYTYPE_GROUND) return;
  auto at = [&](int i) {
    const float* v = &t->verts[p->verts[i] * 3];
    return glm::vec3(v[0], v[1] + lift, v[2]);
  };
  for (int i = 2; i < p->vertCount; ++i) dd.triangle(at(0), at(i - 1), at(i), colour, depthTest);
}

void drawCheckOverlay(render::DebugDraw& dd, const CheckModel& check, const nav::NavMesh& mesh, float lift) {
  if (!check.hasResult()) return;
  // (The shown report is the active agent's, whose navmesh `mesh` is; another's finding is not drawn.)
  if (check.heatmap)
    for (const HeatEntry& h : check.result().heat) fillPoly(dd, mesh, h.ref, heatColour(h.ratio, check.options.detourRatio), lift * 1.5f);
  const int sel = check.selected();
  const bool ofShown = sel >= 0 && check.findings()[size_t(sel)].report == check.shownReport();
  const CheckFocus f = check.focus(ofShown ? sel : -1);
  const uint32_t mark = render::rgba(255, 40, 200);
  switch (f.kind) {
  case CheckFocus::Island: {
    // The rest dimmed (drawn over the navmesh, under the level's walls), so the island stands out
    // even where it looks like any other floor.
    std::vector<nav::PolyRef> island = f.polys;
    std::sort(island.begin(), island.end());
    for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
      const nav::MeshTile* t = mesh.getTile(ti);
      if (!t->header) continue;
      const nav::PolyRef base = mesh.getPolyRefBase(t);
      for (int pi = 0; pi < t->header->polyCount; ++pi)
        if (!std::binary_search(island.begin(), island.end(), base | nav::PolyRef(pi)))
          fillPoly(dd, mesh, base | nav::PolyRef(pi), render::rgba(20, 20, 30, 150), lift * 1.5f);
    }
    for (nav::PolyRef r : f.polys) fillPoly(dd, mesh, r, render::rgba(255, 40, 200, 130), lift * 2.0f, false);
    dd.point(v3(f.pos) + glm::vec3(0, lift * 2.0f, 0), mark, 12.0f, false);
    break;
  }
  case CheckFocus::Spot: {
    const glm::vec3 up(0, lift * 2.0f, 0);
    dd.line(v3(f.a) + up, v3(f.b) + up, mark, 5.0f, false);
    dd.line(v3(f.pos) + up, v3(f.pos) + glm::vec3(0, 2.0f, 0), mark, 3.0f, false); // a post to find it by
    dd.point(v3(f.pos) + up, mark, 12.0f, false);
    break;
  }
  case CheckFocus::Pair: // the tester draws the pair; mark its ends so the finding stands out
    dd.point(v3(f.a) + glm::vec3(0, lift * 2.0f, 0), mark, 10.0f, false);
    dd.point(v3(f.b) + glm::vec3(0, lift * 2.0f, 0), mark, 10.0f, false);
    break;
  case CheckFocus::None:
    break;
  }
}

std::unique_ptr<Panel> makeCheckPanel() {
  auto shownIn = [](Document& doc) { return &doc.check.shown; };
  auto view = std::make_shared<CheckView>();
  return makePanel({"Check", "Check panel", 5, false, shownIn}, [view](PanelContext& c, bool& shown) { drawPanel(c, shown, *view); });
}

} // namespace navbench
