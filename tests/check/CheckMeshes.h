// CheckMeshes.h: check test support. Navmeshes from polygons given in world coordinates (no
// Recast): each tile's polys are quantised into Recast's poly-mesh layout, shared edges become
// internal neighbours, edges on the tile's border become tile-border portals (unless walled), and
// nav::buildTileData makes the blob. Small enough to plant one defect at a known place.
#pragma once

#include "nav/NavMesh.h"

#include <array>
#include <memory>
#include <vector>

namespace checktest {

struct TestPoly {
  std::vector<std::array<float, 2>> xz; ///< Convex outline (x, z), either winding.
  float y = 0;                          ///< Height of every vertex [wu]
  uint16_t flags = 1;
};

struct TestOffMesh {
  float a[3], b[3];
  float rad = 0.5f;
  bool bidir = true;
  uint32_t userId = 1;
};

struct TestMeshSpec {
  float orig[3] = {0, 0, 0};
  float tileSize = 10;   ///< Tile width and depth [wu]
  float cs = 0.05f;      ///< Quantisation of the vertices [wu]
  float ch = 0.05f;
  float climb = 0.5f;
  std::vector<TestPoly> polys;
  std::vector<TestOffMesh> offMesh;
  /// Tile border edges that stay walls (no portal code): a poly edge of the tile (tx, ty) whose
  /// middle is within 1e-3 of one of these points (x, z).
  std::vector<std::array<float, 2>> walledBorder;
};

/// Builds the mesh (every tile that holds a poly's centre); null (with a gtest failure) on error.
std::unique_ptr<nav::NavMesh> buildMesh(const TestMeshSpec& spec);

/// A flat field of two 10 m tiles along x, 2 x 2 quads of 5 m per tile, linked across x = 10.
TestMeshSpec twoTileField();

/// An axis-aligned rectangle poly.
TestPoly rect(float x0, float z0, float x1, float z1, float y = 0);

} // namespace checktest
