// MeshBuffer.h: a static triangle mesh on the GPU (VAO + VBO), drawn with GL_TRIANGLES.
//
// Vertex layout (attribute locations): 0 = position vec3 [wu], 1 = normal vec3 (unit),
// 2 = colour RGBA8 normalised. The level uses flat normals: three vertices per triangle.
#pragma once

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
  void clear();
  int vertexCount() const { return m_count; }

private:
  GLuint m_vao = 0, m_vbo = 0;
  int m_count = 0;
};

} // namespace render
