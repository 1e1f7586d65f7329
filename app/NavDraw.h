// NavDraw.h: nav data -> DebugDraw batches. The only app file that turns navmesh data into
// drawing (the tester tools draw their results through these helpers too). No GL calls: it only
// fills render::DebugDraw batches, which the app flushes.
#pragma once

#include "nav/NavMesh.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace render {
class DebugDraw;
}

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
};

/// Fill colour of an area (RecastDemo-like palette; unknown areas hashed), alpha a.
uint32_t areaColor(uint8_t area, uint8_t a = 150);

/// The whole mesh; `hovered` (if a valid ref) is highlighted.
void drawNavMesh(render::DebugDraw& dd, const nav::NavMesh& mesh, const NavDrawOptions& opt, nav::PolyRef hovered = 0);

/// One polygon filled in `color` (its detail triangles), for corridors and found polys.
void drawPolyFill(render::DebugDraw& dd, const nav::NavMesh& mesh, nav::PolyRef ref, uint32_t color, float lift = 0.06f);

/// The centre of a polygon (mean of its vertices) [Unit: wu]; (0,0,0) for an invalid ref.
glm::vec3 polyCenter(const nav::NavMesh& mesh, nav::PolyRef ref);

/// A text label in the 3D view (the app projects and draws it).
struct NavLabel {
  glm::vec3 pos;
  char text[32];
};
/// Tile coordinate labels "x,y[:layer]" at the centre of each tile's bounds (top).
void tileLabels(const nav::NavMesh& mesh, std::vector<NavLabel>& out);

/// An arc from a to b rising `height`, with an arrow head at b (and at a when `bidir`).
void drawArc(render::DebugDraw& dd, const glm::vec3& a, const glm::vec3& b, float height, uint32_t color,
             bool bidir, float width = 2.0f);

/// An agent cylinder (radius r, height h) standing on p.
void drawAgent(render::DebugDraw& dd, const glm::vec3& p, float r, float h, uint32_t color);

} // namespace navbench
