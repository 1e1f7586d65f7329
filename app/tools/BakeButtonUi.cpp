#include "app/tools/BakeButtonUi.h"

#include "app/model/BakeRunner.h"

#include <imgui.h>

#include <cstdio>
#include <filesystem>

namespace navbench {

void drawBakeProgress(BakeRunner& bake) {
  const nav::bake::BakeProgress p = bake.progress();
  const float frac = p.tilesTotal > 0 ? float(p.tilesDone) / float(p.tilesTotal) : 0.0f;
  char over[96];
  std::snprintf(over, sizeof over, "%s %d/%d", nav::bake::bakeStageName(p.stage), p.tilesDone, p.tilesTotal);
  ImGui::ProgressBar(frac, ImVec2(-1, 0), over);
  if (ImGui::Button("Cancel")) bake.cancel();
}

void drawNoNavmesh(BakeRunner& bake, Log& log, float* buttonCentre) {
  if (buttonCentre) buttonCentre[0] = buttonCentre[1] = -1.0f;
  const std::string file = std::filesystem::path(bake.source()).filename().string();
  if (bake.running()) {
    ImGui::TextWrapped("Baking the navmesh of %s...", file.c_str());
    drawBakeProgress(bake);
    return;
  }
  if (bake.agentsBaking && bake.agentsBaking()) {
    ImGui::TextWrapped("Baking the navmesh of each agent type of %s (Agents panel, F7)...", file.c_str());
    return;
  }
  if (!bake.hasSource()) {
    ImGui::TextWrapped("No navmesh open: open a level (.obj or level .json) to bake one, or a .bin tile set "
                       "(File > Open, or drop it here).");
    return;
  }
  if (!bake.failure().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.3f, 1.0f));
    ImGui::TextWrapped("The bake of %s %s", file.c_str(), bake.failure().c_str());
    ImGui::PopStyleColor();
  } else {
    ImGui::TextWrapped("No navmesh for %s yet.", file.c_str());
  }
  if (ImGui::Button("Bake")) bake.build(log);
  if (buttonCentre) {
    buttonCentre[0] = (ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f;
    buttonCentre[1] = (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f;
  }
  ImGui::SameLine();
  ImGui::TextDisabled("with the Bake panel's settings");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("View > Bake panel: the settings, Cancel, Save .bin");
  ImGui::TextWrapped("Or open a .bin tile set (File > Open, or drop it here).");
}

} // namespace navbench
