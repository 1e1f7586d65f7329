// ToolUi.h: small helpers shared by the editing tools' panels (Tiles, Prune): buttons whose
// screen rectangles go into --dump-state (so headless tests click them where they are, whatever
// the tool list above them), a left click released on the 3D view, and number formatting.
#pragma once

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <map>
#include <string>

namespace navbench {

/// ImGui buttons that remember where they were drawn (window pixels: x, y, w, h).
class ButtonRects {
public:
  bool button(const char* label) {
    const bool pressed = ImGui::Button(label);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    m_rects[label] = {a.x, a.y, b.x - a.x, b.y - a.y};
    return pressed;
  }
  bool checkbox(const char* label, bool* v) {
    const bool changed = ImGui::Checkbox(label, v);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    m_rects[label] = {a.x, a.y, b.x - a.x, b.y - a.y};
    return changed;
  }
  /// {label: [x, y, w, h]} of the buttons (and checkboxes) drawn so far.
  nlohmann::json json() const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [label, r] : m_rects) j[label] = {r[0], r[1], r[2], r[3]};
    return j;
  }

private:
  std::map<std::string, std::array<float, 4>> m_rects;
};

/// True on the frame after a left click (press and release without a drag) on the 3D view, not on
/// a panel. Safe without an ImGui context (false).
inline bool viewClickReleased() {
  if (!ImGui::GetCurrentContext()) return false;
  const ImGuiIO& io = ImGui::GetIO();
  return ImGui::IsMouseReleased(0) && !io.WantCaptureMouse && io.MouseDragMaxDistanceSqr[0] < 16.0f;
}

/// "12.34".
inline std::string num(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", double(v));
  return buf;
}

} // namespace navbench
