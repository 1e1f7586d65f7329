// ToolTiles.cpp: the Tile tool's view (RecastDemo's TileTool, issue 19): clicks into its model
// (app/model/EditTiles.h: a click re-bakes the tile, Shift+click removes it), the model into the
// panel (Rebuild all, Remove all, Save level, the hovered tile) and the 3D view (the hovered tile's
// bounds and the tiles the last rebake touched).
#include "app/NavState.h"
#include "app/model/AgentSet.h"
#include "app/model/EditTiles.h"
#include "app/model/LevelEditor.h"
#include "app/tools/EditToolUi.h"
#include "app/tools/ToolUi.h"
#include "app/tools/Tools.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <string>

namespace navbench {
namespace {

using nav::bake::TileCoord;

class ToolTiles final : public Tool {
public:
  const char* name() const override { return "Tiles"; }
  bool pairedInList() const override { return true; }
  void init(ToolContext& ctx) override {
    Tool::init(ctx);
    m_model.init({ctx.editor, ctx.nav, ctx.log});
  }
  void reset() override { m_model.reset(false); }
  void onLevelChanged() override { m_model.reset(true); }
  void onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool shift) override { m_model.click(hitPos, shift); }

  void update(float /*dt*/) override {
    if (!m_ctx || !m_ctx->hoverHit || !m_ctx->hoverPos) return;
    m_model.update(*m_ctx->hoverHit, *m_ctx->hoverPos, m_model.editor() && viewClickReleased());
  }

  void drawUi() override {
    // Wrapped at a fixed width, so the buttons below stay where they are whatever the panel's width.
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 245.0f);
    ImGui::TextUnformatted("Click a tile to rebuild it from the level, Shift+click to remove it (Ctrl+Z undoes).");
    ImGui::PopTextWrapPos();
    LevelEditor* ed = m_model.editor();
    std::string why;
    if (!ed || !ed->ready(&why)) {
      ImGui::TextWrapped("Not available: %s", ed ? why.c_str() : "no level editor");
      return;
    }
    int tw = 0, th = 0;
    ed->gridSize(&tw, &th);
    // The buttons first: their place does not depend on the readouts (tests click them there).
    if (m_buttons.button("Rebuild all")) m_model.rebuildAll();
    ImGui::SameLine();
    if (m_buttons.button("Remove all")) m_model.removeAll();
    ImGui::SameLine();
    if (m_buttons.button("Save level")) m_model.save();
    ImGui::Text("Grid %d x %d tiles, %d on the navmesh", tw, th, m_ctx->nav->tileCount());
    if (m_ctx->agents && m_ctx->agents->enabled())
      ImGui::TextDisabled("Edits agent %s's navmesh (Agents panel, F7)",
                          m_ctx->agents->type(m_ctx->agents->active()).name.c_str());
    if (m_model.hovering()) {
      const std::string tile = tileName(m_model.hoverTile());
      if (m_model.hoverPolys() >= 0) ImGui::Text("Tile %s: %d polys", tile.c_str(), m_model.hoverPolys());
      else ImGui::Text("Tile %s: no tile on the navmesh", tile.c_str());
    } else {
      ImGui::TextDisabled("Hover the level to see its tile.");
    }
    if (ed->busy()) {
      int doneTiles = 0, total = 0;
      ed->progress(&doneTiles, &total);
      char buf[64];
      std::snprintf(buf, sizeof buf, "rebaking %d / %d tiles", doneTiles, total);
      ImGui::ProgressBar(total > 0 ? float(doneTiles) / float(total) : 0.0f, ImVec2(-1, 0), buf);
    }
    edit::showMessage(m_model.message);
  }

  void draw(render::DebugDraw& dd) override {
    const LevelEditor* ed = m_model.editor();
    if (!ed) return;
    float bmin[3], bmax[3];
    for (const TileCoord& t : ed->lastTiles()) {
      ed->tileBounds(t, bmin, bmax);
      dd.wireBox(glm::vec3(bmin[0], bmin[1], bmin[2]) + glm::vec3(0.05f), glm::vec3(bmax[0], bmax[1], bmax[2]) - glm::vec3(0.05f),
                 render::rgba(80, 200, 255, 200), 1.5f);
    }
    if (m_model.hovering()) {
      ed->tileBounds(m_model.hoverTile(), bmin, bmax);
      dd.wireBox(glm::vec3(bmin[0], bmin[1], bmin[2]), glm::vec3(bmax[0], bmax[1], bmax[2]), render::rgba(255, 196, 0, 230), 2.5f);
    }
  }

  void dumpState(nlohmann::json& out) const override {
    m_model.dumpState(out);
    out["buttons"] = m_buttons.json();
  }

private:
  EditTiles m_model;
  ButtonRects m_buttons;
};

} // namespace

std::unique_ptr<Tool> makeToolTiles() { return std::make_unique<ToolTiles>(); }

} // namespace navbench
