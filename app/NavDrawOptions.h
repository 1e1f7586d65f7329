// NavDrawOptions.h: what the navmesh overlays show (the View panel's toggles), as plain data.
//
// GL-free, so the document (app/Document.h), scenarios (app/Scenario.h: the "navDraw" object,
// every field but `changes` by name) and tests hold it without the renderer; app/NavDraw.h draws
// with it.
#pragma once

namespace navbench {

/// What drawNavMesh shows; toggled in the View panel.
struct NavDrawOptions {
  bool polys = true;        ///< Polygons filled by area colour (disabled ones greyed).
  bool polyEdges = true;    ///< Inner poly boundaries (thin) and walls (thick).
  bool tileBorders = true;  ///< Tile-border portal edges.
  /// Internal portals: the edges a poly shares with another poly of its own tile, drawn from the
  /// runtime links (Link::side == 0xff), each once, thicker and in their own colour (not walls, not
  /// tile borders).
  bool portals = false;
  bool offMeshLinks = true; ///< Off-mesh connections as arcs with their direction.
  bool detailMesh = false;  ///< Detail triangle edges.
  bool bvTree = false;      ///< BV tree leaf boxes.
  bool tileLabels = false;  ///< Tile coordinates "(x,y)" at each tile's centre (drawn by the app as text).
  float lift = 0.04f;       ///< Drawn this high above the mesh, so the level does not hide it [Unit: wu].
  /// The polys the last in-place rebake added (green), changed in area or flags (yellow) or
  /// removed (red outline): the navmesh diff overlay (LevelEditor::lastChanges).
  bool changes = true;
};

} // namespace navbench
