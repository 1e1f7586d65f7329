// BakePanel.cpp: the Bake panel, a view over the bake runner (app/model/BakeRunner.h): every
// BakeSettings field with the ranges of settingRanges(), Build (Ctrl+B) with its progress bar and
// Cancel, Save .bin, Save settings to the level file, and the build log with per-stage times.
#include "app/Document.h"
#include "app/panels/Panels.h"
#include "app/tools/BakeButtonUi.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <cstdio>
#include <cstring>

namespace navbench {
namespace {

void drawBakeWindow(BakeRunner& bake, NavState& nav, Log& log, bool* open) {
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetMainViewport()->Size.x - 720, 30), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(400, 540), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Bake", open)) {
    ImGui::End();
    return;
  }
  ImGui::TextWrapped("%s", bake.hasSource() ? bake.source().c_str() : "No level open.");
  const bool busy = bake.running();
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
  if (busy) drawBakeProgress(bake);
  ImGui::Separator();
  std::string savePath = bake.savePath();
  if (ImGui::InputText("##save", &savePath)) bake.setSavePath(savePath);
  ImGui::SameLine();
  ImGui::BeginDisabled(!nav.loaded() || busy);
  if (ImGui::Button("Save .bin")) bake.save(nav, log);
  ImGui::EndDisabled();
  ImGui::BeginDisabled(!bake.hasSource() || busy);
  if (ImGui::Button("Save settings to level file")) bake.saveSettings(log);
  ImGui::EndDisabled();
  if (bake.hasSource() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Writes %s", bake.levelFilePath().c_str());
  if (bake.settingsChanged()) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Settings changed since opened or saved.");
  if (bake.unsavedBake()) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "Not saved: this bake exists only in memory.");
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
    if (m_visible) drawBakeWindow(ctx.doc.bake, ctx.doc.nav, ctx.log, &m_visible);
  }
};
} // namespace

std::unique_ptr<Panel> makeBakePanel() { return std::make_unique<BakeWindow>(); }
} // namespace navbench
