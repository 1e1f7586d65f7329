#include "app/Document.h"
#include "app/panels/Panels.h"

#include <imgui.h>

#include <algorithm>

namespace navbench {

void drawLogPanel(Log& log, bool* open, const PanelLayout& /*layout: places it from the next frame*/) {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  const bool small = vp->Size.y < 600; // small window: start collapsed at the bottom, keep the view clear
  // The first frame's place (the bottom left); PanelLayout::arrange() keeps it beside the others.
  const float h = 110;
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + 10, vp->Pos.y + vp->Size.y - (small ? 30 : h + 10)), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(std::max(160.0f, vp->Size.x - 290), h), ImGuiCond_FirstUseEver);
  // (Always given: a FirstUseEver not used on the first frame would collapse it when the window
  // first gets small, even if the user placed it.)
  ImGui::SetNextWindowCollapsed(small, ImGuiCond_FirstUseEver);
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

std::unique_ptr<Panel> makeLogPanel() {
  return makePanel({"Log", "Log", 5}, [](PanelContext& c, bool& shown) { if (shown) drawLogPanel(c.log, &shown, c.layout); });
}

} // namespace navbench
