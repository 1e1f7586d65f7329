// LevelLod.h: the level's triangles grouped by grid cells, each cell at full detail and at
// simplified levels of detail, for drawing whole big worlds (render::MeshBuffer draws them).
//
// Cells: a g x g grid over the mesh's x/z bounds (g = clamp(sqrt(triangles / 4096), 1, 32), so
// about 4k triangles per cell or more); a triangle belongs to the cell of its centroid.
// Level 0 is the level's own triangles (indices into the mesh). Level k >= 1 is vertex clustering
// (Rossignac-Borrel): every vertex moves to the mean of the vertices in its cube of a uniform 3D
// grid of edge clusterSize[k], triangles whose corners fall into fewer than three cubes vanish,
// copies (same three cubes, same winding) are merged. The cubes are global (not per cell), so two
// neighbouring cells at the same level meet without a crack; cells at different levels can leave
// seams up to a cube wide, which only happens where the cube is a pixel or two on screen.
// Flat shading: a simplified triangle gets its normal from its new corners and keeps its source
// triangle (material, height colour) for its colour.
// No GL here: built on the loading thread (Level::set), tested headless.
#pragma once

#include <glm/glm.hpp>

#include <functional>
#include <vector>

namespace navbench {

struct TriMesh;

struct LevelLod {
  static constexpr int kLevels = 4; ///< 0 = full detail, 1..3 = coarser and coarser.
  /// Cube edge per level [Unit: wu]: 0 for level 0, cellSize / 24 for level 1, then 2x per level.
  float clusterSize[kLevels] = {0, 0, 0, 0};
  int grid = 0;          ///< Cells per side of the x/z grid.
  float cellSize = 0;    ///< Larger x/z edge of a cell [Unit: wu].

  struct Cell {
    glm::vec3 bmin{0.0f}, bmax{0.0f}; ///< Bounds of the cell's full-detail triangles [Unit: wu].
    /// Level 0: range in `order`; level k >= 1: range in `tris`. In triangles.
    int first[kLevels] = {0, 0, 0, 0};
    int count[kLevels] = {0, 0, 0, 0};
  };
  std::vector<Cell> cells; ///< Non-empty cells only, row by row (z, then x).

  std::vector<int> order; ///< Level 0: mesh triangle indices grouped by cell.

  struct Tri {
    int v[3];   ///< Corners, indices into `verts` (counter-clockwise as the source triangle).
    int source; ///< The mesh triangle it comes from (one of those merged into it).
  };
  std::vector<glm::vec3> verts; ///< Cube representatives of all simplified levels [Unit: wu].
  std::vector<Tri> tris;        ///< Simplified triangles: level 1 cell by cell, then level 2, ...

  bool empty() const { return cells.empty(); }
  int triangles(int level) const; ///< Total over the cells.
  void clear() { *this = LevelLod{}; }
};

/// Builds `out` from `mesh` (valid indices). `progress(fraction in [0, 1])` is called now and
/// then from the calling thread; when it returns false the build stops, returns false and `out`
/// is cleared. ~0.3 s for the 2.16 M-triangle 2 km world on one core.
bool buildLevelLod(const TriMesh& mesh, LevelLod& out, const std::function<bool(float)>& progress = {});

} // namespace navbench
