// ToolPrune.cpp: the Prune tool's view (RecastDemo's NavMeshPruneTool, issue 19): clicks into
// its model (app/model/EditPrune.h: the flood from the clicked poly, Apply, Enable all, remove on
// save), the model into the panel and the 3D view (reachable polys tinted lightly, unreachable
// ones strongly).
#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/model/EditPrune.h"
#include "app/tools/EditToolUi.h"
#include "app/tools/ToolUi.h"
#include "app/tools/Tools.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace navbench {
namespace {

class ToolPrune final : public Tool {
public:
  const char* name() const override { return "Prune"; }
  bool pairedInList() const override { return true; }
  void init(ToolContext& ctx) override {
    Tool::init(ctx);
    m_model.init({ctx.editor, ctx.nav, ctx.log});
  }
  void reset() override { m_model.reset(); }
  void onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool /*shift*/) override { m_model.click(hitPos); }
  void update(float /*dt*/) override {
    // ImGui reports the release a frame after the app picked (onClick).
    if (m_ctx && m_ctx->hoverHit && viewClickReleased()) m_model.clickReleased(*m_ctx->hoverHit);
  }
  /// The navmesh changed (an Apply, a rebake, an undo) or the filter did.
  void onFilterChanged() override { m_model.refresh(); }
  void onLevelChanged() override { m_model.reset(); }

  void drawUi() override {
    // Wrapped at a fixed width, so the buttons below stay where they are whatever the panel's width.
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 245.0f);
    ImGui::TextUnformatted("Click a navmesh poly: what the current filter cannot reach from it (links and off-mesh links "
                           "followed) is shown in red. Apply disables it (Ctrl+Z undoes); with 'Remove' checked, Save level "
                           "leaves the disabled polys out of the saved navmesh.");
    ImGui::PopTextWrapPos();
    NavState* nav = m_ctx ? m_ctx->nav : nullptr;
    if (!nav || !nav->loaded()) {
      ImGui::TextDisabled("No navmesh open.");
      return;
    }
    // The buttons first: their place does not depend on the readouts (tests click them there).
    if (m_buttons.button("Apply (disable unreachable)")) m_model.apply();
    if (m_buttons.button("Enable all")) m_model.enableAll();
    ImGui::SameLine();
    if (m_buttons.button("Save level")) m_model.save();
    // Off: disabled polys are saved disabled (flagged). On: they are left out of the saved .bin
    // (their tiles re-baked without them); here they stay, disabled, so Ctrl+Z still brings them back.
    bool remove = m_model.removeOnSave();
    if (m_buttons.checkbox("Remove disabled polys from the saved navmesh", &remove)) m_model.setRemoveOnSave(remove);
    if (m_model.hasStart()) {
      const glm::vec3& st = m_model.start();
      ImGui::Text("From (%.2f, %.2f, %.2f):", double(st.x), double(st.y), double(st.z));
      ImGui::Text("%d polys reachable, %d unreachable", int(m_model.reachable().size()), int(m_model.unreachable().size()));
    } else
      ImGui::TextDisabled("No poly clicked.");
    ImGui::Text("Disabled polys on the navmesh: %d", m_model.countDisabled(nullptr));
    edit::showMessage(m_model.message);
  }

  void draw(render::DebugDraw& dd) override {
    NavState* nav = m_ctx ? m_ctx->nav : nullptr;
    if (!m_model.hasStart() || !nav || !nav->loaded()) return;
    const nav::NavMesh& mesh = nav->mesh();
    // The reachable part tinted lightly, the unreachable part strongly (capped: a huge world would
    // otherwise re-record every poly each frame).
    const size_t kMaxDrawn = 20000;
    auto drawSet = [&](const std::vector<nav::PolyRef>& refs, uint32_t fill, uint32_t arc) {
      for (size_t i = 0; i < refs.size() && i < kMaxDrawn; ++i) {
        const nav::MeshTile* tile = nullptr;
        const nav::Poly* poly = nullptr;
        if (nav::statusFailed(mesh.getTileAndPolyByRef(refs[i], &tile, &poly))) continue;
        if (poly->getType() == nav::POLYTYPE_OFFMESH_CONNECTION) {
          const float* a = &tile->verts[poly->verts[0] * 3];
          const float* b = &tile->verts[poly->verts[1] * 3];
          drawArc(dd, glm::vec3(a[0], a[1], a[2]), glm::vec3(b[0], b[1], b[2]), 1.0f, arc, false, 3.0f);
        } else {
          drawPolyFill(dd, mesh, refs[i], fill, 0.08f);
        }
      }
    };
    drawSet(m_model.reachable(), render::rgba(40, 220, 90, 70), render::rgba(40, 220, 90, 220));
    drawSet(m_model.unreachable(), render::rgba(230, 40, 40, 170), render::rgba(230, 40, 40, 255));
    dd.point(m_model.start() + glm::vec3(0, 0.2f, 0), render::rgba(255, 196, 0), 10.0f, false);
  }

  void dumpState(nlohmann::json& out) const override {
    m_model.dumpState(out);
    out["buttons"] = m_buttons.json();
  }

private:
  EditPrune m_model;
  ButtonRects m_buttons;
};

} // namespace

std::unique_ptr<Tool> makeToolPrune() { return std::make_unique<ToolPrune>(); }

} // namespace navbench
