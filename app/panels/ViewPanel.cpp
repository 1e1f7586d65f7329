#include "app/Document.h"
#include "app/panels/Panels.h"

#include "app/Level.h"
#include "render/Camera.h"

#include <imgui.h>

namespace navbench {

bool drawViewPanel(ViewSettings& view, render::Camera& cam, const Level& level, bool* open) {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  const bool small = vp->Size.y < 600; // small window: start collapsed at the bottom, keep the view clear
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - 270, vp->Pos.y + vp->Size.y - (small ? 30 : 330)),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(260, 320), ImGuiCond_FirstUseEver);
  // (Always given: a FirstUseEver not used on the first frame would collapse it when the window
  // first gets small, even if the user placed it.)
  ImGui::SetNextWindowCollapsed(small, ImGuiCond_FirstUseEver);
  bool frame = false;
  if (!ImGui::Begin("View", open)) {
    ImGui::End();
    return false;
  }
  ImGui::PushItemWidth(-90);
  ImGui::Checkbox("Level", &view.drawLevel);
  ImGui::SameLine();
  ImGui::Checkbox("Wireframe", &view.wireframe);
  ImGui::Checkbox("Grid", &view.grid);
  ImGui::SameLine();
  ImGui::Checkbox("Stats", &view.showStats);
  ImGui::Checkbox("Level LOD", &view.levelLod);
  ImGui::SameLine();
  ImGui::Checkbox("Two-sided", &view.twoSidedLevel);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Draw both sides of the level's triangles and pick either (Ctrl+T);\noff: back faces are not drawn, and clicks pass through them");
  ImGui::SliderFloat("Ambient", &view.ambient, 0.0f, 1.0f, "%.2f");
  ImGui::SliderAngle("Light yaw", &view.lightYaw, -180.0f, 180.0f);
  ImGui::SliderAngle("Light pitch", &view.lightPitch, 5.0f, 90.0f);
  ImGui::Separator();
  ImGui::SliderFloat("Fly speed", &cam.flySpeed, 1.0f, 100.0f, "%.1f m/s", ImGuiSliderFlags_Logarithmic);
  float fovDeg = glm::degrees(cam.fovY);
  if (ImGui::SliderFloat("FOV", &fovDeg, 20.0f, 100.0f, "%.0f deg")) cam.fovY = glm::radians(fovDeg);
  ImGui::Text("Target (%.1f, %.1f, %.1f)", double(cam.target.x), double(cam.target.y), double(cam.target.z));
  ImGui::Text("Distance %.1f", double(cam.distance));
  ImGui::PopItemWidth();
  if (ImGui::Button("Frame level (F)")) frame = true;
  if (!level.empty() && ImGui::CollapsingHeader("Level")) {
    const TriMesh& m = level.mesh();
    ImGui::TextWrapped("%s", level.path().c_str());
    ImGui::Text("%d vertices, %d triangles", m.vertCount(), m.triCount());
    ImGui::Text("min (%.1f, %.1f, %.1f)", double(m.boundsMin.x), double(m.boundsMin.y), double(m.boundsMin.z));
    ImGui::Text("max (%.1f, %.1f, %.1f)", double(m.boundsMax.x), double(m.boundsMax.y), double(m.boundsMax.z));
  }
  ImGui::TextDisabled("Mouse and keys (hover)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Left drag: rotate    Right/middle drag: pan\nWheel: zoom to cursor    F: frame level\n"
                      "W/A/S/D, Q/E: fly (Shift: faster)\nClick: pick (Shift+click: second point)\n"
                      "Space: step the active tool    Ctrl+O: open");
  ImGui::End();
  return frame;
}

std::unique_ptr<Panel> makeViewPanel() {
  return makePanel({"View", "View panel", 1}, [](PanelContext& c, bool& shown) {
    if (shown && drawViewPanel(c.doc.view, c.doc.camera, c.doc.level, &shown)) c.frameLevel();
  });
}

} // namespace navbench
