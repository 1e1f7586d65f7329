#include "app/panels/Panels.h"

#include "app/Document.h"
#include "app/tools/Tool.h"

#include <imgui.h>
#include <imgui_internal.h> // FindWindowByName: where the panel is before it is drawn

#include <algorithm>

namespace navbench {

int drawToolsPanel(const std::vector<std::unique_ptr<Tool>>& tools, int active, bool* open, PanelLayout& layout) {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  // Its place (top left) is kept by layout.arrange(); this is the first frame's.
  const ImVec2 home(vp->Pos.x + 10, vp->Pos.y + layout.menuBarHeight() + 8);
  ImGui::SetNextWindowPos(home, ImGuiCond_FirstUseEver);
  // Never taller than the window below its top edge: long option lists (the A* Stepper's) scroll
  // instead of running under the Log or off the window.
  const ImGuiWindow* self = ImGui::FindWindowByName("Tools");
  const float top = self ? self->Pos.y : home.y;
  const float maxH = std::max(100.0f, vp->Pos.y + vp->Size.y - 10.0f - top);
  ImGui::SetNextWindowSizeConstraints(ImVec2(260, std::min(100.0f, maxH)), ImVec2(420, maxH));
  const bool expanded = ImGui::Begin("Tools", open, ImGuiWindowFlags_AlwaysAutoResize);
  if (!expanded) {
    ImGui::End();
    return active;
  }
  int next = active;
  // One a row, except paired tools: two a row, the second at a fixed column so rows line up.
  bool secondOfPair = false;
  for (int i = 0; i < int(tools.size()); ++i) {
    const bool paired = tools[size_t(i)]->pairedInList();
    if (paired && secondOfPair) ImGui::SameLine(140.0f);
    if (ImGui::RadioButton(tools[size_t(i)]->name(), active == i)) next = i;
    secondOfPair = paired && !secondOfPair;
  }
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

std::unique_ptr<Panel> makeToolsPanel() {
  return makePanel({"Tools", "Tools panel", 0}, [](PanelContext& c, bool& shown) {
    if (shown) c.doc.setActiveTool(drawToolsPanel(c.doc.tools, c.doc.activeTool, &shown, c.layout));
  });
}

} // namespace navbench
