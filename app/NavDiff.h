// NavDiff.h: what differs between two navmeshes, tiles and polys matched by position, not by ref
// (issue 19). Used by `navbench diff A.bin B.bin` (app/cli/CmdDiff.cpp) and meant for the viewer's
// "changed since the previous navmesh" overlay after a rebake. std + nav only: no SDL, ImGui, GL.
//
// Tiles are matched by their grid location (x, y, layer). A tile is *changed* when its baked
// content differs: header, vertices, polys (vertex indices, neighbour codes, flags, area, type,
// vertex count), detail meshes, detail vertices and triangles, BV tree and off-mesh connections,
// compared bit for bit. What a tile set file does not fix is left out: refs and salts (the tile
// slot), Poly::firstLink and the link pool, which NavMesh rebuilds on load. A tile in only one mesh
// is changed, its polys all added or all removed.
//
// An off-mesh link is baked into the tile of its start (its poly and end points); the tile where it
// lands changes too, by its link budget (header maxLinkCount), with no poly added there.
//
// Links are compared separately, by position: a tile whose content is identical but whose polys
// link to different polys (the target named by its tile location and poly key, never by ref) is
// *relinked* (tilesRelinked). That happens to the neighbours of a changed tile whose border polys
// moved, or of a tile added or removed. Relinked tiles are not in tilesChanged: they were not baked
// differently, and a rebake of the edited tiles (the viewer's live rebake) leaves them as they are.
//
// Within a changed tile, polys are matched by NavPolyKey: the poly type and its vertex positions
// quantised to 1/1000 wu, sorted (ground polys) or in order (off-mesh connections: start, end; a
// reversed one-way link is another link). The sorted set rather than the vertex cycle, because
// Recast may start the same polygon at another vertex after an unrelated change; the exact set
// rather than centroid + vertex count, because two different polys may share a centroid (stacked
// floors within one tile layer, mirrored shapes) and a key must not match them. A poly whose key is
// in both tiles is unchanged if area and flags are equal, else *changed*; a key only in A is
// *removed*, only in B *added* (a poly split or reshaped shows as removed + added). Equal keys
// within one tile (not made by any bake) are paired in index order.
#pragma once

#include "nav/NavMesh.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace navbench {

/// A tile's grid location.
struct NavTileKey {
  int x = 0, y = 0, layer = 0;
  bool operator==(const NavTileKey& o) const { return x == o.x && y == o.y && layer == o.layer; }
  bool operator!=(const NavTileKey& o) const { return !(*this == o); }
  bool operator<(const NavTileKey& o) const {
    return y != o.y ? y < o.y : x != o.x ? x < o.x : layer < o.layer; // row by row, like the bake
  }
};

/// A poly's position identity (see the header comment): [0] = type << 8 | vertex count, then
/// (x, y, z) quantised per vertex, sorted for ground polys; unused entries 0.
using NavPolyKey = std::array<int64_t, 1 + 3 * nav::VERTS_PER_POLYGON>;
/// Quantum of NavPolyKey [Unit: wu]
constexpr double kNavPolyKeyQuantum = 1e-3;

NavPolyKey navPolyKey(const nav::MeshTile& tile, const nav::Poly& poly);

/// A poly anywhere in a mesh, by position: its tile's location and its key.
struct NavPolyId {
  NavTileKey tile;
  NavPolyKey key{};
  bool operator==(const NavPolyId& o) const { return tile == o.tile && key == o.key; }
  bool operator!=(const NavPolyId& o) const { return !(*this == o); }
};
/// The position identity of `ref` in `mesh`; false for an invalid ref.
bool navPolyId(const nav::NavMesh& mesh, nav::PolyRef ref, NavPolyId* out);
/// A corridor (or any ref list) as position identities; an invalid ref gives a default NavPolyId.
std::vector<NavPolyId> navPolyIds(const nav::NavMesh& mesh, const std::vector<nav::PolyRef>& refs);

/// One poly added, removed or changed.
struct NavPolyDiff {
  NavTileKey tile;
  int polyA = -1, polyB = -1;     ///< Index in the tile of A / of B (-1: not in that mesh).
  float centroid[3] = {0, 0, 0};  ///< Mean of the poly's vertices [Unit: wu]
  int vertCount = 0;
  bool offMesh = false;           ///< An off-mesh connection poly.
  uint8_t areaA = 0, areaB = 0;   ///< Area in A / B (only the side that has the poly is set).
  uint16_t flagsA = 0, flagsB = 0;
};

/// Everything the diff found. Lists are sorted by tile (row by row), then poly index.
struct NavDiffResult {
  std::vector<NavTileKey> tilesChanged;  ///< Baked content differs, or the tile is in one mesh only.
  std::vector<NavTileKey> tilesRelinked; ///< Same content, links to other polys (see above).
  std::vector<NavPolyDiff> polysAdded;   ///< In B only (polyB set).
  std::vector<NavPolyDiff> polysRemoved; ///< In A only (polyA set).
  std::vector<NavPolyDiff> polysChanged; ///< Same key in both, area or flags differ.
  int tilesA = 0, tilesB = 0;            ///< Tiles in each mesh.
  bool gridChanged = false;              ///< The meshes' tile grids differ (origin or tile size).

  /// No tile changed or relinked.
  bool identical() const { return tilesChanged.empty() && tilesRelinked.empty(); }
};

/// Compares the tiles of `a` (before) and `b` (after) into *out (overwritten). A mesh that was
/// never initialised counts as empty. False, with *why, only on a null mesh or result.
bool diffNavMeshes(const nav::NavMesh* a, const nav::NavMesh* b, NavDiffResult* out, std::string* why);

/// What differs first in the baked content of two tiles: "" when nothing (the tilesChanged test
/// above), else "tile bounds", "link budget" (the header's maxLinkCount only: an off-mesh link now
/// starts or lands in the tile), "header", "vertices", "polys", "detail mesh", "BV tree" or
/// "off-mesh connections".
const char* tileDifference(const nav::MeshTile& a, const nav::MeshTile& b);
inline bool sameTileContent(const nav::MeshTile& a, const nav::MeshTile& b) { return !*tileDifference(a, b); }

/// Mean of the poly's vertices [Unit: wu]; false for an invalid ref.
bool navPolyCentroid(const nav::NavMesh& mesh, nav::PolyRef ref, float* centroid);

} // namespace navbench
