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

} // namespace navbench

namespace navbench {
namespace {
class StatsPanel final : public Panel {
public:
  const char* name() const override { return "Stats"; } // View > Stats overlay (a view setting)
  bool* visible(Document& doc) override { return &doc.view.showStats; }
  void draw(PanelContext& ctx) override {
    if (ctx.doc.view.showStats) drawStatsOverlay(ctx.stats, ctx.layout.menuBarHeight());
  }
};
} // namespace

std::unique_ptr<Panel> makeStatsOverlay() { return std::make_unique<StatsPanel>(); }
} // namespace navbench
