// TileBuilder.h: plain polygon-mesh arrays -> one tile blob (seed 004; what Detour's
// dtCreateNavMeshData does, with the same output layout and content for the same input).
#pragma once

#include "nav/NavTypes.h"

#include <string>

namespace nav {

/// Recast's RC_MESH_NULL_IDX: "no vertex" in TileBuildParams::polys' vertex slots, and (having bit
/// 0x8000 set with low bits 0xf) "wall, no neighbour" in its neighbour slots.
constexpr uint16_t MESH_NULL_IDX = 0xffff;

/// Input of buildTileData. Shapes use nvp = maxVertsPerPoly.
struct TileBuildParams {
  // Polygon mesh (Recast's rcPolyMesh layout).
  const uint16_t* verts = nullptr; ///< Quantised vertices [(x, y, z) * vertCount], in cells from bmin.
  int vertCount = 0;
  /// Polygons [(verts[nvp], neis[nvp]) * polyCount]: unused verts are MESH_NULL_IDX (the used ones
  /// come first). A neighbour slot holds the neighbour's poly index (< polyCount), or a code with bit
  /// 0x8000 set: 0x8000 | dir for a tile-border portal in Recast's direction numbering (dir 0 = -x,
  /// 1 = +z, 2 = +x, 3 = -z; stored in the tile as sides 4, 2, 0, 6), and 0x800f or MESH_NULL_IDX
  /// for a wall.
  const uint16_t* polys = nullptr;
  const uint16_t* polyFlags = nullptr; ///< [Size: polyCount]
  const uint8_t* polyAreas = nullptr;  ///< [Size: polyCount]
  int polyCount = 0;
  int nvp = 0;                          ///< Max verts per poly [Limit: 3..VERTS_PER_POLYGON].

  // Optional detail mesh (Recast's rcPolyMeshDetail layout); without it one is made by fanning.
  // Each poly's sub-mesh starts with the poly's own vertices (which the tile does not repeat).
  const uint32_t* detailMeshes = nullptr; ///< [(vertBase, vertCount, triBase, triCount) * polyCount]
  const float* detailVerts = nullptr;     ///< [(x, y, z) * detailVertsCount]
  int detailVertsCount = 0;
  const uint8_t* detailTris = nullptr;    ///< [(a, b, c, flags) * detailTriCount]
  int detailTriCount = 0;

  // Optional off-mesh connections.
  const float* offMeshConVerts = nullptr;   ///< [(ax, ay, az, bx, by, bz) * offMeshConCount]
  const float* offMeshConRad = nullptr;     ///< [Size: offMeshConCount]
  const uint16_t* offMeshConFlags = nullptr;///< Poly flags [Size: offMeshConCount]
  const uint8_t* offMeshConAreas = nullptr; ///< [Size: offMeshConCount]
  const uint8_t* offMeshConDir = nullptr;   ///< 1 = bidirectional [Size: offMeshConCount]
  const uint32_t* offMeshConUserID = nullptr;
  int offMeshConCount = 0;

  // Tile attributes.
  uint32_t userId = 0;
  int tileX = 0, tileY = 0, tileLayer = 0;
  float bmin[3] = {0, 0, 0}; ///< [Unit: wu]
  float bmax[3] = {0, 0, 0}; ///< [Unit: wu]

  // Agent and grid.
  float walkableHeight = 0, walkableRadius = 0, walkableClimb = 0; ///< [Unit: wu]
  float cs = 0; ///< Cell size [Unit: wu]
  float ch = 0; ///< Cell height [Unit: wu]
  bool buildBvTree = true;
};

/// Builds a tile blob, byte for byte what Detour 1.5.1's dtCreateNavMeshData makes from the same
/// input. Off-mesh connections whose start lies outside the tile (xz, max edges exclusive) or outside
/// the mesh's height range +- climb are not stored (the tile holding the start stores them; an end
/// landing here still counts into this tile's link budget). On success *outData is a new[]-allocated block of *outDataSize bytes
/// (free with delete[], or hand it to NavMesh::addTile with TILE_FREE_DATA). Returns false and
/// explains in `why` when the input is unusable (no polys, too many verts for 16-bit indices, ...).
bool buildTileData(const TileBuildParams& params, uint8_t** outData, int* outDataSize, std::string* why = nullptr);

} // namespace nav
