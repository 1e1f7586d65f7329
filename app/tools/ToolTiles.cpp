// ToolTiles.cpp: the Tile tool (RecastDemo's TileTool, issue 19). Hovering the level shows the
// tile under the mouse (its grid coordinates and poly count) and draws its bounds; a click
// re-bakes that tile from the level, Shift+click removes it from the navmesh (undoable with
// Ctrl+Z); Rebuild all / Remove all do the whole grid. The work is LevelEditor's (background
// rebakes, one undo history); this file only turns clicks into its calls and shows what they did.
//
// Bad input changes nothing and says why in the panel and the log: a click with no level under
// it (the sky) or outside the tile grid, or an edit LevelEditor refuses (no level, a bake running).
#include "app/LevelEditor.h"
#include "app/Log.h"
#include "app/NavState.h"
#include "app/tools/ToolUi.h"
#include "app/tools/Tools.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <string>

namespace navbench {
namespace {

using nav::bake::TileCoord;

std::string tileName(const TileCoord& t) { return "(" + std::to_string(t.x) + ", " + std::to_string(t.y) + ")"; }

class ToolTiles final : public Tool {
public:
  const char* name() const override { return "Tiles"; }
  bool pairedInList() const override { return true; }

  void reset() override {
    m_rebuilding = false;
    m_message.clear();
    m_error = false;
  }
  void onLevelChanged() override {
    reset();
    m_hover = false;
  }

  void onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool shift) override {
    m_clickSeen = true;
    LevelEditor* ed = m_ctx ? m_ctx->editor : nullptr;
    if (!ed) return fail("no level editor");
    std::string why;
    if (!ed->ready(&why)) return fail(why);
    TileCoord t;
    if (!ed->tileAt(&hitPos.x, &t)) {
      int tw = 0, th = 0;
      ed->gridSize(&tw, &th);
      return fail("the click (" + num(hitPos.x) + ", " + num(hitPos.z) + ") is outside the " + std::to_string(tw) + " x " +
                  std::to_string(th) + " tile grid: nothing changed");
    }
    if (shift) {
      if (!ed->removeTiles({t}, &why)) return fail("remove tile " + tileName(t) + ": " + why);
      done("removed tile " + tileName(t) + " (Ctrl+Z brings it back)");
    } else {
      if (!ed->rebuildTiles({t}, &why)) return fail("rebuild tile " + tileName(t) + ": " + why);
      done("rebuilding tile " + tileName(t));
      m_rebuilding = true;
    }
    m_clicked = t;
    m_hasClicked = true;
  }

  void update(float /*dt*/) override {
    m_hover = false;
    LevelEditor* ed = m_ctx ? m_ctx->editor : nullptr;
    if (!ed || !m_ctx->hoverHit || !m_ctx->hoverPos) return;
    // A click on the 3D view with nothing under it never reaches onClick (the app picks the level
    // first): seen here, so the user learns why nothing happened.
    // ImGui reports the release a frame after the app picked (onClick), hence m_clickSeen.
    if (viewClickReleased()) {
      if (!*m_ctx->hoverHit && !m_clickSeen) fail("no level under the click (outside the tile grid): nothing changed");
      m_clickSeen = false;
    }
    if (m_rebuilding && !ed->busy()) { // the rebake arrived (or failed: the log says why)
      m_rebuilding = false;
      const nav::MeshTile* tile = m_ctx->nav->mesh().getTileAt(m_clicked.x, m_clicked.y, 0);
      done("rebuilt tile " + tileName(m_clicked) + ": " +
           (tile && tile->header ? std::to_string(tile->header->polyCount) + " polys" : std::string("empty")));
    }
    if (!*m_ctx->hoverHit || !ed->ready(nullptr)) return;
    m_hover = ed->tileAt(&m_ctx->hoverPos->x, &m_hoverTile);
    m_hoverPolys = -1;
    if (!m_hover) return;
    if (const nav::MeshTile* tile = m_ctx->nav->mesh().getTileAt(m_hoverTile.x, m_hoverTile.y, 0); tile && tile->header)
      m_hoverPolys = tile->header->polyCount;
  }

  void drawUi() override {
    // Wrapped at a fixed width, so the buttons below stay where they are whatever the panel's width.
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 245.0f);
    ImGui::TextUnformatted("Click a tile to rebuild it from the level, Shift+click to remove it (Ctrl+Z undoes).");
    ImGui::PopTextWrapPos();
    LevelEditor* ed = m_ctx ? m_ctx->editor : nullptr;
    std::string why;
    if (!ed || !ed->ready(&why)) {
      ImGui::TextWrapped("Not available: %s", ed ? why.c_str() : "no level editor");
      return;
    }
    int tw = 0, th = 0;
    ed->gridSize(&tw, &th);
    // The buttons first: their place does not depend on the readouts (tests click them there).
    if (button("Rebuild all")) {
      if (ed->rebuildAll(&why)) done("rebuilding all " + std::to_string(tw * th) + " tiles");
      else fail("rebuild all: " + why);
    }
    ImGui::SameLine();
    if (button("Remove all")) {
      std::vector<TileCoord> all;
      for (int y = 0; y < th; ++y)
        for (int x = 0; x < tw; ++x) all.push_back({x, y});
      if (ed->removeTiles(all, &why)) done("removed every tile (Ctrl+Z brings them back)");
      else fail("remove all: " + why);
    }
    ImGui::SameLine();
    if (button("Save level")) {
      if (ed->saveLevel(&why)) done("saved the level file and its navmesh");
      else fail("save: " + why);
    }
    ImGui::Text("Grid %d x %d tiles, %d on the navmesh", tw, th, m_ctx->nav->tileCount());
    if (m_hover) {
      if (m_hoverPolys >= 0) ImGui::Text("Tile %s: %d polys", tileName(m_hoverTile).c_str(), m_hoverPolys);
      else ImGui::Text("Tile %s: no tile on the navmesh", tileName(m_hoverTile).c_str());
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
    if (!m_message.empty()) {
      if (m_error) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
      ImGui::TextWrapped("%s", m_message.c_str());
      if (m_error) ImGui::PopStyleColor();
    }
  }

  void draw(render::DebugDraw& dd) override {
    LevelEditor* ed = m_ctx ? m_ctx->editor : nullptr;
    if (!ed) return;
    float bmin[3], bmax[3];
    for (const TileCoord& t : ed->lastTiles()) {
      ed->tileBounds(t, bmin, bmax);
      dd.wireBox(glm::vec3(bmin[0], bmin[1], bmin[2]) + glm::vec3(0.05f), glm::vec3(bmax[0], bmax[1], bmax[2]) - glm::vec3(0.05f),
                 render::rgba(80, 200, 255, 200), 1.5f);
    }
    if (m_hover) {
      ed->tileBounds(m_hoverTile, bmin, bmax);
      dd.wireBox(glm::vec3(bmin[0], bmin[1], bmin[2]), glm::vec3(bmax[0], bmax[1], bmax[2]), render::rgba(255, 196, 0, 230), 2.5f);
    }
  }

  void dumpState(nlohmann::json& out) const override {
    out["message"] = m_message;
    out["messageIsError"] = m_error;
    out["hover"] = m_hover ? nlohmann::json{{"tile", {m_hoverTile.x, m_hoverTile.y}}, {"polys", m_hoverPolys}} : nlohmann::json();
    out["clicked"] = m_hasClicked ? nlohmann::json::array({m_clicked.x, m_clicked.y}) : nlohmann::json();
    out["buttons"] = m_buttons.json();
  }

private:
  void fail(const std::string& msg) {
    m_message = msg;
    m_error = true;
    if (m_ctx && m_ctx->log) m_ctx->log->error("Tiles: " + msg);
  }
  void done(const std::string& msg) {
    m_message = msg;
    m_error = false;
  }
  bool button(const char* label) { return m_buttons.button(label); }

  bool m_hover = false;
  TileCoord m_hoverTile;
  int m_hoverPolys = -1;
  TileCoord m_clicked;
  bool m_hasClicked = false;
  bool m_clickSeen = false;  ///< onClick ran since the last click release update() saw.
  bool m_rebuilding = false; ///< A click's rebuild is under way.
  std::string m_message;
  bool m_error = false;
  ButtonRects m_buttons;
};

} // namespace

std::unique_ptr<Tool> makeToolTiles() { return std::make_unique<ToolTiles>(); }

} // namespace navbench
