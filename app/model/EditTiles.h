// EditTiles.h: the Tile tool's model (RecastDemo's TileTool, issue 19; its view is
// app/tools/ToolTiles.cpp). The tile under the mouse (grid cell and poly count); a click re-bakes
// that tile from the level, Shift+click removes it from the navmesh (undoable); Rebuild all /
// Remove all do the whole grid. The work is LevelEditor's (background rebakes, one history).
//
// Bad input changes nothing and says why in the message and the log: a click with no level under
// it (the sky) or outside the tile grid, or an edit LevelEditor refuses (no level, a bake running).
#pragma once

#include "app/model/EditMessage.h"
#include "nav/bake/Bake.h"

#include <glm/glm.hpp>
#include <nlohmann/json_fwd.hpp>

#include <string>

namespace navbench {

class EditTiles {
public:
  void init(const EditContext& ctx) { m_ctx = ctx; }
  LevelEditor* editor() const { return m_ctx.editor; }

  /// The message and a rebuild being watched are dropped (`hover` too when the level changed).
  void reset(bool levelChanged);
  /// A click on the level at `hit`: rebuild its tile, or remove it with `shift`.
  void click(const glm::vec3& hit, bool shift);
  /// Once a frame: the level point under the mouse (`hoverHit` false: none) and whether a click
  /// on the 3D view was released this frame (a click on the sky never reaches click()).
  void update(bool hoverHit, const glm::vec3& hoverPos, bool clickReleased);
  bool rebuildAll();
  bool removeAll();
  bool save();

  bool hovering() const { return m_hover; }
  const nav::bake::TileCoord& hoverTile() const { return m_hoverTile; }
  int hoverPolys() const { return m_hoverPolys; } ///< -1: no tile there on the navmesh.
  EditMessage message;

  void dumpState(nlohmann::json& out) const;

private:
  void fail(const std::string& msg) { message.fail(m_ctx.log, msg, "Tiles: "); }
  bool outcome(const char* what, const std::string& err, const std::string& ok) {
    return message.outcome(m_ctx.log, "Tiles: ", what, err, ok);
  }
  EditContext m_ctx;
  bool m_hover = false;
  nav::bake::TileCoord m_hoverTile;
  int m_hoverPolys = -1;
  nav::bake::TileCoord m_clicked;
  bool m_hasClicked = false;
  bool m_clickSeen = false;  ///< click() ran since the last click release update() saw.
  bool m_rebuilding = false; ///< A click's rebuild is under way.
};

/// "(x, y)".
std::string tileName(const nav::bake::TileCoord& t);

} // namespace navbench
