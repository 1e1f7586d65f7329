#include "app/model/EditTiles.h"

#include "app/NavState.h"
#include "app/model/LevelEditor.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace navbench {

using nav::bake::TileCoord;

namespace {
std::string num(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", double(v));
  return buf;
}
} // namespace

std::string tileName(const TileCoord& t) { return "(" + std::to_string(t.x) + ", " + std::to_string(t.y) + ")"; }

void EditTiles::reset(bool levelChanged) {
  m_rebuilding = false;
  message.clear();
  if (levelChanged) m_hover = false;
}

void EditTiles::click(const glm::vec3& hit, bool shift) {
  m_clickSeen = true;
  if (!m_editor) return fail("no level editor");
  std::string why;
  if (!m_editor->ready(&why)) return fail(why);
  TileCoord t;
  if (!m_editor->tileAt(&hit.x, &t)) {
    int tw = 0, th = 0;
    m_editor->gridSize(&tw, &th);
    return fail("the click (" + num(hit.x) + ", " + num(hit.z) + ") is outside the " + std::to_string(tw) + " x " +
                std::to_string(th) + " tile grid: nothing changed");
  }
  if (shift) {
    if (!m_editor->removeTiles({t}, &why)) return fail("remove tile " + tileName(t) + ": " + why);
    message.done("removed tile " + tileName(t) + " (Ctrl+Z brings it back)");
  } else {
    if (!m_editor->rebuildTiles({t}, &why)) return fail("rebuild tile " + tileName(t) + ": " + why);
    message.done("rebuilding tile " + tileName(t));
    m_rebuilding = true;
  }
  m_clicked = t;
  m_hasClicked = true;
}

void EditTiles::update(bool hoverHit, const glm::vec3& hoverPos, bool clickReleased) {
  m_hover = false;
  if (!m_editor) return;
  // ImGui reports the release a frame after the app picked (click()), hence m_clickSeen.
  if (clickReleased) {
    if (!hoverHit && !m_clickSeen) fail("no level under the click (outside the tile grid): nothing changed");
    m_clickSeen = false;
  }
  if (m_rebuilding && !m_editor->busy()) { // the rebake arrived (or failed: the log says why)
    m_rebuilding = false;
    const nav::MeshTile* tile = m_nav ? m_nav->mesh().getTileAt(m_clicked.x, m_clicked.y, 0) : nullptr;
    message.done("rebuilt tile " + tileName(m_clicked) + ": " +
                 (tile && tile->header ? std::to_string(tile->header->polyCount) + " polys" : std::string("empty")));
  }
  if (!hoverHit || !m_editor->ready(nullptr)) return;
  m_hover = m_editor->tileAt(&hoverPos.x, &m_hoverTile);
  m_hoverPolys = -1;
  if (!m_hover || !m_nav) return;
  if (const nav::MeshTile* tile = m_nav->mesh().getTileAt(m_hoverTile.x, m_hoverTile.y, 0); tile && tile->header)
    m_hoverPolys = tile->header->polyCount;
}

bool EditTiles::rebuildAll() {
  std::string why;
  int tw = 0, th = 0;
  if (m_editor) m_editor->gridSize(&tw, &th);
  if (!m_editor || !m_editor->rebuildAll(&why)) {
    fail("rebuild all: " + (m_editor ? why : std::string("no level editor")));
    return false;
  }
  message.done("rebuilding all " + std::to_string(tw * th) + " tiles");
  return true;
}

bool EditTiles::removeAll() {
  std::string why;
  int tw = 0, th = 0;
  if (m_editor) m_editor->gridSize(&tw, &th);
  std::vector<TileCoord> all;
  for (int y = 0; y < th; ++y)
    for (int x = 0; x < tw; ++x) all.push_back({x, y});
  if (!m_editor || !m_editor->removeTiles(all, &why)) {
    fail("remove all: " + (m_editor ? why : std::string("no level editor")));
    return false;
  }
  message.done("removed every tile (Ctrl+Z brings them back)");
  return true;
}

bool EditTiles::save() {
  std::string why;
  if (!m_editor || !m_editor->saveLevel(&why)) {
    fail("save: " + (m_editor ? why : std::string("no level editor")));
    return false;
  }
  message.done("saved the level file and its navmesh");
  return true;
}

void EditTiles::dumpState(nlohmann::json& out) const {
  message.dump(out);
  out["hover"] = m_hover ? nlohmann::json{{"tile", {m_hoverTile.x, m_hoverTile.y}}, {"polys", m_hoverPolys}} : nlohmann::json();
  out["clicked"] = m_hasClicked ? nlohmann::json::array({m_clicked.x, m_clicked.y}) : nlohmann::json();
}

} // namespace navbench
