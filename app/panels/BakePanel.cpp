// BakePanel.cpp: the Bake panel, a view over the bake runner (app/model/BakeRunner.h): every
// BakeSettings field with the ranges of settingRanges(), Build (Ctrl+B) with its progress bar and
// Cancel, Save .bin, Save settings to the level file, and the build log with per-stage times.
// With agent types (app/model/AgentSet.h) its settings are every type's base: a line names the keys
// the types override, a field's tooltip each type's own value.
// Its "Area rules" section is a view over the level editor's rules (app/model/LevelEditor.h):
// each rule with the triangles it decides, edited, added, removed and reordered as undoable steps.
#include "app/Document.h"
#include "app/panels/Panels.h"
#include "app/tools/BakeButtonUi.h"
#include "nav/bake/Agents.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <cfloat>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace navbench {
namespace {

/// The match text being typed into a rule's field (committed as one step when the field is left).
struct RuleTextEdit {
  int row = -1;
  std::string text;
};

/// The area combo's entries: exclude, then the named areas.
const char* ruleAreaLabel(const nav::bake::AreaRule& r, char* buf, size_t n) {
  if (r.exclude) return "exclude";
  if (const char* name = nav::areaName(r.area)) return name;
  std::snprintf(buf, n, "area %d", int(r.area));
  return buf;
}

void drawAreaRules(LevelEditor& editor, Log& log, RuleTextEdit& edit) {
  ImGui::TextWrapped("Tried in order against each triangle's object, group and material names (OBJ o, g, usemtl; "
                     "* ? [a-z], case ignored); the first match sets its area or excludes it (an obstacle, never a floor).");
  if (!editor.levelHasNames()) ImGui::TextDisabled("This level's triangles have no names: only a rule matching "" (*) applies.");
  const std::vector<nav::bake::AreaRule> rules = editor.areaRules(); // a copy: edits below change the model's
  const std::vector<long long> counts = editor.ruleTriangleCounts();
  std::string why;
  auto report = [&](bool ok) {
    if (!ok) log.error("area rules: " + why);
  };
  if (!rules.empty() && ImGui::BeginTable("rules", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
    ImGui::TableSetupColumn("match", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn("area", ImGuiTableColumnFlags_WidthStretch, 2.0f);
    ImGui::TableSetupColumn("triangles", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("##order", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableHeadersRow();
    for (int i = 0; i < int(rules.size()); ++i) {
      const nav::bake::AreaRule& r = rules[size_t(i)];
      ImGui::PushID(i);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      std::string text = edit.row == i ? edit.text : r.match;
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (ImGui::InputText("##match", &text)) {
        edit.row = i;
        edit.text = text;
      }
      if (ImGui::IsItemDeactivated() && edit.row == i) {
        nav::bake::AreaRule changed = r;
        changed.match = edit.text;
        edit.row = -1;
        report(editor.setRule(i, changed, &why));
      }
      ImGui::TableNextColumn();
      char buf[16];
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (ImGui::BeginCombo("##area", ruleAreaLabel(r, buf, sizeof buf))) {
        for (int a = -1; a < nav::AREA_NAMED_COUNT; ++a) {
          const bool exclude = a < 0;
          if (ImGui::Selectable(exclude ? "exclude" : nav::areaName(uint8_t(a)), exclude ? r.exclude : !r.exclude && r.area == a)) {
            nav::bake::AreaRule changed = r;
            changed.exclude = exclude;
            if (!exclude) changed.area = uint8_t(a);
            report(editor.setRule(i, changed, &why));
          }
        }
        ImGui::EndCombo();
      }
      ImGui::TableNextColumn();
      ImGui::Text("%lld", size_t(i) < counts.size() ? counts[size_t(i)] : 0ll);
      ImGui::TableNextColumn();
      ImGui::BeginDisabled(i == 0);
      if (ImGui::ArrowButton("##up", ImGuiDir_Up)) report(editor.moveRule(i, i - 1, &why));
      ImGui::EndDisabled();
      ImGui::SameLine();
      ImGui::BeginDisabled(i + 1 == int(rules.size()));
      if (ImGui::ArrowButton("##down", ImGuiDir_Down)) report(editor.moveRule(i, i + 1, &why));
      ImGui::EndDisabled();
      ImGui::SameLine();
      if (ImGui::SmallButton("x")) report(editor.removeRule(i, &why));
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  if (!counts.empty()) ImGui::Text("No rule: %lld triangles (baked by slope alone)", counts.back());
  if (ImGui::Button("Add rule")) {
    nav::bake::AreaRule r;
    r.match = "*";
    r.area = nav::AREA_WATER;
    report(editor.addRule(r, &why));
  }
  if (editor.rulesChangedSinceBake())
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Rules changed: Build (Ctrl+B) bakes with them.");
}

/// With agent types a Build bakes each type (AgentSet::rebakeAll): their progress, all together.
void drawAgentBakeProgress(const AgentSet& agents) {
  float frac = 0;
  int done = 0;
  for (int i = 0; i < agents.count(); ++i) {
    frac += agents.bakeFraction(i) / float(agents.count());
    done += agents.bakeState(i).compare(0, 6, "baking") != 0;
  }
  char over[96];
  std::snprintf(over, sizeof over, "agent types: %d/%d baked", done, agents.count());
  ImGui::ProgressBar(frac, ImVec2(-1, 0), over);
  ImGui::TextDisabled("Each type's progress: Agents panel (F7).");
}

void drawBakeWindow(BakeRunner& bake, const AgentSet& agents, LevelEditor& editor, NavState& nav, Log& log,
                    RuleTextEdit& ruleEdit, bool* open) {
  if (!ImGui::Begin("Bake", open)) {
    ImGui::End();
    return;
  }
  ImGui::TextWrapped("%s", bake.hasSource() ? bake.source().c_str() : "No level open.");
  const bool busy = bake.running() || agents.busy();
  if (agents.enabled()) {
    // The level's settings are every type's base: a Build bakes each type with its own values of these.
    const std::string over = agents.overrideSummary();
    if (!over.empty()) ImGui::TextWrapped("Agent types override: %s", over.c_str());
    const std::string mine = agents.activeOverrides();
    if (!mine.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("Active agent %s: %s", agents.type(agents.active()).name.c_str(), mine.c_str());
      ImGui::PopStyleColor();
    }
  }
  ImGui::BeginDisabled(busy);
  int n = 0;
  const nav::bake::SettingRange* ranges = nav::bake::settingRanges(&n);
  nav::bake::BakeSettings& s = bake.settings;
  struct Field {
    const char* name;
    float* f;
    int* i;
  };
  const Field fields[] = {{"cellSize", &s.cellSize, nullptr},
                          {"cellHeight", &s.cellHeight, nullptr},
                          {"agentHeight", &s.agentHeight, nullptr},
                          {"agentRadius", &s.agentRadius, nullptr},
                          {"agentMaxClimb", &s.agentMaxClimb, nullptr},
                          {"agentMaxSlope", &s.agentMaxSlope, nullptr},
                          {"regionMinSize", nullptr, &s.regionMinSize},
                          {"regionMergeSize", nullptr, &s.regionMergeSize},
                          {"edgeMaxLen", &s.edgeMaxLen, nullptr},
                          {"edgeMaxError", &s.edgeMaxError, nullptr},
                          {"vertsPerPoly", nullptr, &s.vertsPerPoly},
                          {"detailSampleDist", &s.detailSampleDist, nullptr},
                          {"detailSampleMaxError", &s.detailSampleMaxError, nullptr},
                          {"tileSize", nullptr, &s.tileSize}};
  for (int r = 0; r < n; ++r) {
    for (const Field& f : fields) {
      if (std::strcmp(f.name, ranges[r].name) != 0) continue;
      char label[96];
      std::snprintf(label, sizeof label, "%s%s%s%s", ranges[r].name, ranges[r].unit[0] ? " (" : "", ranges[r].unit,
                    ranges[r].unit[0] ? ")" : "");
      if (f.f) ImGui::SliderFloat(label, f.f, ranges[r].min, ranges[r].max, "%.2f");
      else ImGui::SliderInt(label, f.i, int(ranges[r].min), int(ranges[r].max));
      if (agents.enabled() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        const std::string values = agents.overrideValues(f.name);
        if (!values.empty()) ImGui::SetTooltip("Agent types bake with their own %s: %s", f.name, values.c_str());
      }
    }
  }
  int part = int(s.partition);
  const char* parts[] = {"watershed", "monotone", "layers"};
  if (ImGui::Combo("partition", &part, parts, 3)) s.partition = nav::bake::Partition(part);
  ImGui::Checkbox("tiled", &s.tiled);
  ImGui::Checkbox("filter low hanging obstacles", &s.filterLowHangingObstacles);
  ImGui::Checkbox("filter ledge spans", &s.filterLedgeSpans);
  ImGui::Checkbox("filter low height spans", &s.filterWalkableLowHeightSpans);
  ImGui::SliderInt("threads (0 = all)", &bake.threads, 0, 16);
  if (ImGui::Button("Defaults")) s = nav::bake::BakeSettings{};
  ImGui::SameLine();
  if (ImGui::Button("Build (Ctrl+B)")) bake.buildByUser(log);
  ImGui::EndDisabled();
  if (bake.running()) drawBakeProgress(bake);
  else if (agents.busy()) drawAgentBakeProgress(agents);
  ImGui::Separator();
  std::string savePath = bake.savePath();
  if (ImGui::InputText("##save", &savePath)) bake.setSavePath(savePath);
  ImGui::SameLine();
  ImGui::BeginDisabled(!nav.loaded() || busy);
  if (ImGui::Button("Save .bin")) bake.save(nav, log);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled) && bake.agentMeshes && !bake.agentMeshes().empty())
    ImGui::SetTooltip("Writes every agent type's navmesh beside this path: %s", nav::bake::agentFilePath(savePath, "NAME").c_str());
  ImGui::BeginDisabled(!bake.hasSource() || busy);
  if (ImGui::Button("Save settings to level file")) bake.saveSettings(log);
  ImGui::EndDisabled();
  if (bake.hasSource() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Writes %s", bake.levelFilePath().c_str());
  if (bake.settingsChanged()) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Settings changed since opened or saved.");
  if (bake.unsavedBake()) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Not saved: this bake exists only in memory.");
  if (bake.hasSource() && ImGui::CollapsingHeader("Area rules", ImGuiTreeNodeFlags_DefaultOpen)) drawAreaRules(editor, log, ruleEdit);
  if (!bake.report().empty() && ImGui::CollapsingHeader("Build log", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::BeginChild("bakelog", ImVec2(0, 160), true, ImGuiWindowFlags_HorizontalScrollbar);
    for (const std::string& l : bake.report()) ImGui::TextUnformatted(l.c_str());
    ImGui::EndChild();
  }
  ImGui::End();
}

class BakeWindow final : public Panel {
public:
  BakeWindow() : Panel(false) {}
  const char* name() const override { return "Bake"; }
  const char* menuLabel() const override { return "Bake panel"; }
  int menuOrder() const override { return 3; }
  void draw(PanelContext& ctx) override {
    if (!m_visible) return;
    ctx.layout.placeOnDemand("Bake"); // (its place and size: PanelLayout)
    drawBakeWindow(ctx.doc.bake, ctx.doc.agents, ctx.doc.editor, ctx.doc.nav, ctx.log, m_ruleEdit, &m_visible);
  }

private:
  RuleTextEdit m_ruleEdit;
};
} // namespace

std::unique_ptr<Panel> makeBakePanel() { return std::make_unique<BakeWindow>(); }
} // namespace navbench
