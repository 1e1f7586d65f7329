// MeshBuffer.h: a static triangle mesh on the GPU (VAO + VBO), drawn with GL_TRIANGLES.
//
// Vertex layout (attribute locations): 0 = position vec3 [wu], 1 = normal vec3 (unit),
// 2 = colour RGBA8 normalised. The level uses flat normals: three vertices per triangle.
//
// upload() stores the triangles grouped by cells of a grid over the mesh's x/z bounds (up to
// 32 x 32 cells, about 4k triangles each or more), each cell with its bounding box, so that
// draw(frustum) draws only the cells in view (one glMultiDrawArrays). Triangle order inside the
// buffer is therefore not the input order.
#pragma once

#include "render/Frustum.h"
#include "render/Gl.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace render {

struct MeshVertex {
  glm::vec3 pos;
  glm::vec3 normal;
  uint32_t color; ///< RGBA8, red in the lowest byte (see render::rgba).
};

class MeshBuffer {
public:
  MeshBuffer() = default;
  ~MeshBuffer();
  MeshBuffer(const MeshBuffer&) = delete;
  MeshBuffer& operator=(const MeshBuffer&) = delete;

  /// Replaces the contents; `verts.size()` must be a multiple of 3 (triangles).
  void upload(const std::vector<MeshVertex>& verts);
  /// Builds flat-shaded vertices from indexed triangles: `pos` is [(x, y, z) * vertCount],
  /// `tris` is [(a, b, c) * triCount] with counter-clockwise front faces, one colour for all.
  void uploadTriangles(const float* pos, int vertCount, const int* tris, int triCount, uint32_t color);
  void draw() const;
  /// Only the cells whose bounds are inside `frustum`.
  void draw(const Frustum& frustum) const;
  void clear();
  int vertexCount() const { return m_count; }
  /// Cells and the vertices drawn by the last draw(frustum).
  int cellCount() const { return int(m_cells.size()); }
  int lastDrawnVertices() const { return m_lastDrawn; }

private:
  struct Cell {
    int first = 0, count = 0;
    glm::vec3 bmin{0.0f}, bmax{0.0f};
  };
  GLuint m_vao = 0, m_vbo = 0;
  int m_count = 0;
  std::vector<Cell> m_cells;
  mutable std::vector<GLint> m_first;
  mutable std::vector<GLsizei> m_counts;
  mutable int m_lastDrawn = 0;
};

} // namespace render
