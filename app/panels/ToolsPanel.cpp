#include "app/panels/Panels.h"

#include "app/tools/Tool.h"

#include <imgui.h>

namespace navbench {

int drawToolsPanel(const std::vector<std::unique_ptr<Tool>>& tools, int active, bool* open) {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + 10, vp->Pos.y + ImGui::GetFrameHeight() + 8), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSizeConstraints(ImVec2(260, 100), ImVec2(420, 700));
  if (!ImGui::Begin("Tools", open, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return active;
  }
  int next = active;
  for (int i = 0; i < int(tools.size()); ++i)
    if (ImGui::RadioButton(tools[size_t(i)]->name(), active == i)) next = i;
  ImGui::Separator();
  if (active >= 0 && active < int(tools.size())) {
    Tool& tool = *tools[size_t(active)];
    if (ImGui::Button("Step (Space)")) tool.step();
    ImGui::SameLine();
    if (ImGui::Button("Reset")) tool.reset();
    ImGui::Separator();
    tool.drawUi();
  }
  ImGui::End();
  return next;
}

} // namespace navbench
