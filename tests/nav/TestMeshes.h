// TestMeshes.h: small hand-made poly meshes for nav unit tests (no Recast, no Detour, no files).
#pragma once

#include "nav/NavMesh.h"
#include "nav/TileBuilder.h"

#include <cstdint>
#include <vector>

namespace navtest {

/// A square tile of quads in Recast's poly-mesh layout: tile (tx, ty) of a grid with origin (0,0,0),
/// `cells` cells of size cs per side, quads of `quadCells` cells; vertex heights y = baseY + slope * x
/// (world units); border edges carry portal codes (Recast numbering) when `portals`.
struct GridTileSpec {
  int tx = 0, ty = 0, layer = 0;
  int cells = 8;
  int quadCells = 2;
  float cs = 0.5f, ch = 0.25f;
  float baseY = 0.0f; ///< [wu], multiple of ch
  bool portals = true;
  bool bvTree = true;
  float climb = 0.5f;
  uint16_t flags = 1;
  uint8_t area = 0;
};

struct PolyMeshArrays {
  std::vector<uint16_t> verts, polys, flags;
  std::vector<uint8_t> areas;
  int nverts = 0, npolys = 0, nvp = 6;
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
  float cs = 0, ch = 0;
};

PolyMeshArrays makeGridPolyMesh(const GridTileSpec& spec);
/// Build params pointing into `m` (keep `m` alive while using them).
nav::TileBuildParams gridParams(const GridTileSpec& spec, const PolyMeshArrays& m);
/// A finished tile blob (new[]-allocated, caller owns) for the spec; asserts success.
std::vector<uint8_t> buildGridTile(const GridTileSpec& spec, const float* offMeshVerts = nullptr, int offMeshCount = 0,
                                   uint8_t bidir = 1);
/// Mesh params for a grid of such tiles.
nav::NavMeshParams gridMeshParams(const GridTileSpec& spec, int maxTiles = 16, int maxPolys = 64);
/// Copies a blob into a new[] block (for addTile with TILE_FREE_DATA).
uint8_t* dupBlob(const std::vector<uint8_t>& blob);

} // namespace navtest
