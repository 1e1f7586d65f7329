#include "app/model/EditTiles.h"

#include "app/NavState.h"
#include "app/model/LevelEditor.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace navbench {

using nav::bake::TileCoord;

std::string tileName(const TileCoord& t) { return "(" + std::to_string(t.x) + ", " + std::to_string(t.y) + ")"; }

void EditTiles::reset(bool levelChanged) {
  m_rebuilding = false;
  message.clear();
  if (levelChanged) m_hover = false;
}

void EditTiles::click(const glm::vec3& hit, bool shift) {
  m_clickSeen = true;
  if (!m_ctx.editor) return fail("no level editor");
  std::string why;
  if (!m_ctx.editor->ready(&why)) return fail(why);
  TileCoord t;
  if (!m_ctx.editor->tileAt(&hit.x, &t)) {
    int tw = 0, th = 0;
    m_ctx.editor->gridSize(&tw, &th);
    char buf[160];
    std::snprintf(buf, sizeof buf, "the click (%.2f, %.2f) is outside the %d x %d tile grid: nothing changed", double(hit.x),
                  double(hit.z), tw, th);
    return fail(buf);
  }
  if (shift) {
    if (!m_ctx.editor->removeTiles({t}, &why)) return fail("remove tile " + tileName(t) + ": " + why);
    message.done("removed tile " + tileName(t) + " (Ctrl+Z brings it back)");
  } else {
    if (!m_ctx.editor->rebuildTiles({t}, &why)) return fail("rebuild tile " + tileName(t) + ": " + why);
    message.done("rebuilding tile " + tileName(t));
    m_rebuilding = true;
  }
  m_clicked = t;
  m_hasClicked = true;
}

void EditTiles::update(bool hoverHit, const glm::vec3& hoverPos, bool clickReleased) {
  m_hover = false;
  if (!m_ctx.editor) return;
  // ImGui reports the release a frame after the app picked (click()), hence m_clickSeen.
  if (clickReleased) {
    if (!hoverHit && !m_clickSeen) fail("no level under the click (outside the tile grid): nothing changed");
    m_clickSeen = false;
  }
  if (m_rebuilding && !m_ctx.editor->busy()) { // the rebake arrived (or failed: the log says why)
    m_rebuilding = false;
    const nav::MeshTile* tile = m_ctx.nav ? m_ctx.nav->mesh().getTileAt(m_clicked.x, m_clicked.y, 0) : nullptr;
    message.done("rebuilt tile " + tileName(m_clicked) + ": " +
                 (tile && tile->header ? std::to_string(tile->header->polyCount) + " polys" : std::string("empty")));
  }
  if (!hoverHit || !m_ctx.editor->ready(nullptr)) return;
  m_hover = m_ctx.editor->tileAt(&hoverPos.x, &m_hoverTile);
  m_hoverPolys = -1;
  if (!m_hover || !m_ctx.nav) return;
  if (const nav::MeshTile* tile = m_ctx.nav->mesh().getTileAt(m_hoverTile.x, m_hoverTile.y, 0); tile && tile->header)
    m_hoverPolys = tile->header->polyCount;
}

bool EditTiles::rebuildAll() {
  std::string why = m_ctx.editor ? std::string() : "no level editor";
  int tw = 0, th = 0;
  if (m_ctx.editor) {
    m_ctx.editor->gridSize(&tw, &th);
    m_ctx.editor->rebuildAll(&why);
  }
  return outcome("rebuild all", why, "rebuilding all " + std::to_string(tw * th) + " tiles");
}

bool EditTiles::removeAll() {
  std::string why = m_ctx.editor ? std::string() : "no level editor";
  int tw = 0, th = 0;
  if (m_ctx.editor) m_ctx.editor->gridSize(&tw, &th);
  std::vector<TileCoord> all;
  for (int y = 0; y < th; ++y)
    for (int x = 0; x < tw; ++x) all.push_back({x, y});
  if (m_ctx.editor) m_ctx.editor->removeTiles(all, &why);
  return outcome("remove all", why, "removed every tile (Ctrl+Z brings them back)");
}

bool EditTiles::save() {
  std::string why = m_ctx.editor ? std::string() : "no level editor";
  if (m_ctx.editor) m_ctx.editor->saveLevel(&why);
  return outcome("save", why, "saved the level file and its navmesh");
}

void EditTiles::dumpState(nlohmann::json& out) const {
  message.dump(out);
  out["hover"] = m_hover ? nlohmann::json{{"tile", {m_hoverTile.x, m_hoverTile.y}}, {"polys", m_hoverPolys}} : nlohmann::json();
  out["clicked"] = m_hasClicked ? nlohmann::json::array({m_clicked.x, m_clicked.y}) : nlohmann::json();
}

} // namespace navbench
