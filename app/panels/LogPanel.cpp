#include "app/panels/Panels.h"

#include <imgui.h>
#include <imgui_internal.h> // FindWindowByName: where the Log is before it is drawn

#include <algorithm>

namespace navbench {

void drawLogPanel(Log& log, bool* open, const PanelLayout& layout) {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  const bool small = vp->Size.y < 600; // small window: start collapsed at the bottom, keep the view clear
  // Its place: along the bottom, right of the Tools panel when that reaches down to the strip,
  // and left of the View panel's corner (260 px wide, bottom right).
  const float h = 110, y = vp->Pos.y + vp->Size.y - (small ? 30 : h + 10);
  const float right = vp->Pos.x + vp->Size.x;
  float x = vp->Pos.x + 10;
  if (layout.toolsShown && layout.toolsMax[1] > y - 10) x = std::max(x, layout.toolsMax[0] + 10);
  // A window too narrow for the Log beside the Tools (under ~470 px): the left edge, inside the
  // window (it was put right of the Tools, off the window's right edge, or wholly outside it).
  const bool room = x + 160 <= right - 10;
  if (!room) x = vp->Pos.x + 10;
  const float w = std::max(std::min(160.0f, right - 10 - x), right - 280 - x);
  // Placed at start, when the window size changes, and when it meets the Tools panel (moved there,
  // or the Tools panel grew with another tool's options): the Log never covers the tools. (Not
  // when there is no room beside them: it would be pinned over them, unable to be dragged away.)
  bool place = layout.relayout;
  if (const ImGuiWindow* self = ImGui::FindWindowByName("Log"); self && layout.toolsShown && room) {
    const ImRect r(self->Pos, ImVec2(self->Pos.x + self->Size.x, self->Pos.y + self->Size.y));
    place = place || r.Overlaps(ImRect(layout.toolsMin[0], layout.toolsMin[1], layout.toolsMax[0], layout.toolsMax[1]));
  }
  const ImGuiCond cond = place ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(ImVec2(x, y), cond);
  ImGui::SetNextWindowSize(ImVec2(w, h), cond);
  if (small) ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Log", open)) {
    ImGui::End();
    return;
  }
  static ImGuiTextFilter filter;
  static unsigned seenVersion = 0;
  if (ImGui::SmallButton("Clear")) log.clear();
  ImGui::SameLine();
  bool copy = ImGui::SmallButton("Copy");
  ImGui::SameLine();
  filter.Draw("Filter", 160);
  ImGui::Separator();
  ImGui::BeginChild("log-scroll", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  if (copy) ImGui::LogToClipboard();
  const std::vector<LogEntry> entries = log.entries();
  for (const LogEntry& e : entries) {
    if (!filter.PassFilter(e.text.c_str())) continue;
    ImVec4 col = e.level == LogLevel::Error     ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f)
                 : e.level == LogLevel::Warning ? ImVec4(1.0f, 0.8f, 0.35f, 1.0f)
                                                : ImVec4(0.85f, 0.87f, 0.9f, 1.0f);
    ImGui::TextDisabled("%7.2f", e.time);
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, col);
    ImGui::TextUnformatted(e.text.c_str());
    ImGui::PopStyleColor();
  }
  if (copy) ImGui::LogFinish();
  unsigned v = log.version();
  if (v != seenVersion) {
    ImGui::SetScrollHereY(1.0f);
    seenVersion = v;
  }
  ImGui::EndChild();
  ImGui::End();
}

} // namespace navbench
