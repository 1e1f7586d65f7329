#include "app/Document.h"
#include "app/panels/Panels.h"

#include <imgui.h>

namespace navbench {

void drawStatsOverlay(const FrameStats& s, float menuBarHeight) {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - 10, vp->Pos.y + menuBarHeight + 10), ImGuiCond_Always,
                          ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.45f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("##stats", nullptr, flags)) {
    ImGui::Text("%.0f FPS  %.2f ms", double(s.fps), double(s.frameMs));
    ImGui::Text("CPU %.2f ms", double(s.cpuMs));
    ImGui::Text("Level %d of %d tris drawn", s.levelTrisDrawn, s.levelTris);
    ImGui::Text("Debug %d verts, %d calls", s.debugVertices, s.debugDrawCalls);
  }
  ImGui::End();
}

// View > Stats overlay (a view setting).
std::unique_ptr<Panel> makeStatsOverlay() {
  auto shownIn = [](Document& doc) { return &doc.view.showStats; };
  return makePanel({"Stats", "", 0, true, shownIn}, [](PanelContext& c, bool& shown) {
    if (shown) drawStatsOverlay(c.stats, c.layout.menuBarHeight());
  });
}

} // namespace navbench
