#include "render/MeshBuffer.h"

#include <cstddef>

namespace render {

MeshBuffer::~MeshBuffer() { clear(); }

void MeshBuffer::clear() {
  if (m_vbo) glDeleteBuffers(1, &m_vbo);
  if (m_vao) glDeleteVertexArrays(1, &m_vao);
  m_vbo = m_vao = 0;
  m_count = 0;
}

void MeshBuffer::upload(const std::vector<MeshVertex>& verts) {
  if (!m_vao) {
    glGenVertexArrays(1, &m_vao);
    glGenBuffers(1, &m_vbo);
    glBindVertexArray(m_vao);
    glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex), reinterpret_cast<void*>(offsetof(MeshVertex, pos)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex), reinterpret_cast<void*>(offsetof(MeshVertex, normal)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(MeshVertex), reinterpret_cast<void*>(offsetof(MeshVertex, color)));
  }
  glBindVertexArray(m_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(verts.size() * sizeof(MeshVertex)), verts.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
  m_count = int(verts.size());
}

void MeshBuffer::uploadTriangles(const float* pos, int vertCount, const int* tris, int triCount, uint32_t color) {
  std::vector<MeshVertex> verts;
  verts.reserve(size_t(triCount) * 3);
  for (int t = 0; t < triCount; ++t) {
    glm::vec3 p[3];
    for (int k = 0; k < 3; ++k) {
      int i = tris[t * 3 + k];
      if (i < 0 || i >= vertCount) i = 0; // callers validate; never read out of bounds
      p[k] = glm::vec3(pos[i * 3], pos[i * 3 + 1], pos[i * 3 + 2]);
    }
    glm::vec3 n = glm::cross(p[1] - p[0], p[2] - p[0]);
    float len = glm::length(n);
    n = len > 0 ? n / len : glm::vec3(0, 1, 0);
    for (const glm::vec3& q : p) verts.push_back({q, n, color});
  }
  upload(verts);
}

void MeshBuffer::draw() const {
  if (!m_vao || m_count == 0) return;
  glBindVertexArray(m_vao);
  glDrawArrays(GL_TRIANGLES, 0, m_count);
  glBindVertexArray(0);
}

} // namespace render
