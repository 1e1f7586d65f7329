// MeshBuffer.h: a static triangle mesh on the GPU (VAO + VBO), drawn with GL_TRIANGLES.
//
// Vertex layout (attribute locations): 0 = position vec3 [wu], 1 = normal vec3 (unit),
// 2 = colour RGBA8 normalised. The level uses flat normals: three vertices per triangle.
//
// upload() stores the triangles grouped by cells of a grid over the mesh's x/z bounds (up to
// 32 x 32 cells, about 4k triangles each or more), each cell with its bounding box, so that
// draw(frustum) draws only the cells in view (one glMultiDrawArrays). Triangle order inside the
// buffer is therefore not the input order.
//
// Levels of detail: upload(verts, cells, lodError, levels) takes vertices already grouped by
// cells, each cell with one vertex range per level (0 = full detail, then coarser versions made
// by the caller, e.g. app/LevelLod), and the geometric error of each level in world units. Then
// draw(frustum, lod) draws each visible cell at the coarsest level whose error covers at most
// lod.maxErrorPx pixels at the cell's distance from the eye (selectLod); close cells, and every
// cell when lod.enabled is false, are drawn at full detail.
#pragma once

#include "render/Frustum.h"
#include "render/Gl.h"

#include "nav/base/NonCopyable.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace render {

struct MeshVertex {
  glm::vec3 pos;
  glm::vec3 normal;
  uint32_t color; ///< RGBA8, red in the lowest byte (see render::rgba).
};

/// Levels of detail a cell can have (0 = full detail).
constexpr int kMaxLod = 4;

/// A cell of an upload with levels of detail: its bounds and a vertex range per level.
struct MeshCell {
  glm::vec3 bmin{0.0f}, bmax{0.0f}; ///< Bounds of the full-detail triangles [Unit: wu].
  int first[kMaxLod] = {0, 0, 0, 0};
  int count[kMaxLod] = {0, 0, 0, 0}; ///< Vertices (3 per triangle); 0 = nothing to draw at that level.
};

/// How draw(frustum, lod) picks a level per cell.
struct LodView {
  bool enabled = false;
  glm::vec3 eye{0.0f};       ///< Camera position [Unit: wu].
  float pixelsPerUnit = 0.0f; ///< Screen pixels per world unit at distance 1: viewportHeight / (2 tan(fovY / 2)).
  float maxErrorPx = 3.0f;   ///< Largest error of a coarser level allowed on screen [Unit: px].
};

/// The level to draw a cell with bounds [bmin, bmax] at: 0 when `view` is disabled, else the
/// largest k < levels with levelError[k] * pixelsPerUnit / distance(eye, box) <= maxErrorPx
/// (levelError ascending, [Unit: wu], levelError[0] = 0). A box holding the eye gets level 0.
int selectLod(const glm::vec3& bmin, const glm::vec3& bmax, const float* levelError, int levels, const LodView& view);

class MeshBuffer : base::NonCopyable {
public:
  MeshBuffer() = default;
  ~MeshBuffer();

  /// Replaces the contents; `verts.size()` must be a multiple of 3 (triangles).
  void upload(const std::vector<MeshVertex>& verts);
  /// Replaces the contents with vertices grouped by the caller: `cells` give each cell's ranges
  /// per level (in vertices, inside `verts`), `lodError` the error of each of the `levels`
  /// levels (see selectLod). Ranges of neighbouring cells at the same level that touch in
  /// `verts` are drawn with one range.
  void upload(const std::vector<MeshVertex>& verts, std::vector<MeshCell> cells, const float* lodError, int levels);
  /// The same without a vertex array of the caller's: beginUpload returns memory for
  /// `vertexCount` vertices (the mapped GL buffer, or a staging copy when mapping fails) that the
  /// caller fills, from any threads, before endUpload (on the GL thread) hands it over with the
  /// cells. Nothing may be drawn in between.
  MeshVertex* beginUpload(size_t vertexCount);
  void endUpload(std::vector<MeshCell> cells, const float* lodError, int levels);
  /// Builds flat-shaded vertices from indexed triangles: `pos` is [(x, y, z) * vertCount],
  /// `tris` is [(a, b, c) * triCount] with counter-clockwise front faces, one colour for all.
  void uploadTriangles(const float* pos, int vertCount, const int* tris, int triCount, uint32_t color);
  void draw() const;
  /// Only the cells whose bounds are inside `frustum`, at full detail.
  void draw(const Frustum& frustum) const { draw(frustum, LodView{}); }
  /// Only the cells in `frustum`, each at the level `lod` picks (selectLod).
  void draw(const Frustum& frustum, const LodView& lod) const;
  void clear();
  int vertexCount() const { return m_count; }
  /// Cells and the vertices drawn by the last draw(frustum).
  int cellCount() const { return int(m_cells.size()); }
  int lodLevels() const { return m_levels; }
  int lastDrawnVertices() const { return m_lastDrawn; }
  /// Cells drawn at `level` by the last draw(frustum, lod).
  int lastCellsAtLevel(int level) const { return level >= 0 && level < kMaxLod ? m_lastCells[level] : 0; }

private:
  GLuint m_vao = 0, m_vbo = 0;
  int m_count = 0;
  int m_levels = 1;
  float m_lodError[kMaxLod] = {0, 0, 0, 0};
  std::vector<MeshCell> m_cells;
  MeshVertex* m_mapped = nullptr;      ///< Between beginUpload and endUpload.
  std::vector<MeshVertex> m_staging;   ///< The same when the buffer could not be mapped.
  mutable int m_lastCells[kMaxLod] = {0, 0, 0, 0};
  mutable std::vector<GLint> m_first;
  mutable std::vector<GLsizei> m_counts;
  mutable int m_lastDrawn = 0;
};

} // namespace render
