// Overlays.cpp: what the viewer draws over the 3D view without a panel of its own: the navmesh
// overlay's build progress (a big world fills in over frames), an edit's tiles re-baking, tile
// coordinates, the empty
// scene's hint, and Dear ImGui's demo window (View > ImGui demo).
#include "app/Document.h"
#include "app/NavDraw.h"
#include "app/panels/Panels.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace navbench {

std::unique_ptr<Panel> makeNavBuildProgress() {
  return makePanel({"Navmesh drawing progress"}, [](PanelContext& ctx, bool&) {
    if (!ctx.doc.nav.loaded() || ctx.navTilesPending <= 0) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + 40.0f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
    ImGui::Begin("##navbuild", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs);
    char text[96];
    std::snprintf(text, sizeof text, "navmesh drawing: %d / %d tiles", ctx.navTiles - ctx.navTilesPending, ctx.navTiles);
    ImGui::ProgressBar(ctx.navTiles > 0 ? float(ctx.navTiles - ctx.navTilesPending) / float(ctx.navTiles) : 0.0f,
                       ImVec2(300.0f, 0.0f), text);
    ImGui::End();
  });
}

/// An edit's tiles re-baking in the background (LevelEditor): how many, how far.
std::unique_ptr<Panel> makeRebakeProgress() {
  return makePanel({"Rebake progress"}, [](PanelContext& ctx, bool&) {
    int done = 0, total = 0;
    ctx.doc.editor.progress(&done, &total);
    if (total <= 0) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + 70.0f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
    ImGui::Begin("##rebake", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs);
    char text[96];
    std::snprintf(text, sizeof text, "re-baking %d / %d tiles", done, total);
    ImGui::ProgressBar(float(done) / float(total), ImVec2(300.0f, 0.0f), text);
    ImGui::End();
  });
}

/// Tile coordinates, projected onto the 3D view (Navmesh panel > Tile labels).
std::unique_ptr<Panel> makeTileLabels() {
  return makePanel({"Tile labels"}, [labels = std::vector<NavLabel>()](PanelContext& ctx, bool&) mutable {
    const Document& doc = ctx.doc;
    if (!doc.nav.loaded() || !doc.navDraw.tileLabels) return;
    const int w = ctx.windowW, h = ctx.windowH;
    labels.clear();
    tileLabels(doc.nav.mesh(), labels, doc.camera, float(w) / float(std::max(h, 1)), float(h)); // the tiles in view, big enough
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    for (const NavLabel& l : labels) {
      glm::vec3 px;
      if (!doc.camera.project(l.pos, float(w), float(h), px)) continue;
      const ImVec2 size = ImGui::CalcTextSize(l.text);
      dl->AddText(ImVec2(px.x - size.x * 0.5f, px.y - size.y * 0.5f), IM_COL32(255, 220, 255, 230), l.text);
    }
  });
}

std::unique_ptr<Panel> makeEmptySceneHint() {
  return makePanel({"Empty scene hint"}, [](PanelContext& ctx, bool&) {
    if (!ctx.doc.level.empty()) return;
    const char* hint = "No level loaded: File > Open (Ctrl+O), drop an OBJ or glTF file here,\nor start with  navbench level.obj";
    const ImVec2 size = ImGui::CalcTextSize(hint);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::GetBackgroundDrawList()->AddText(
        ImVec2(vp->Pos.x + (vp->Size.x - size.x) * 0.5f, vp->Pos.y + (vp->Size.y - size.y) * 0.5f),
        IM_COL32(200, 205, 215, 255), hint);
  });
}

std::unique_ptr<Panel> makeImGuiDemo() {
  return makePanel({"ImGui demo", "", 0, false}, [](PanelContext&, bool& shown) { if (shown) ImGui::ShowDemoWindow(&shown); });
}

} // namespace navbench
