#include "render/MeshBuffer.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

namespace render {

int selectLod(const glm::vec3& bmin, const glm::vec3& bmax, const float* levelError, int levels, const LodView& view) {
  if (!view.enabled || levels <= 1 || !(view.pixelsPerUnit > 0.0f)) return 0;
  const glm::vec3 nearest = glm::clamp(view.eye, bmin, bmax);
  const float d = glm::length(view.eye - nearest);
  if (!(d > 0.0f)) return 0;
  int level = 0;
  for (int k = 1; k < std::min(levels, kMaxLod); ++k)
    if (levelError[k] * view.pixelsPerUnit <= view.maxErrorPx * d) level = k;
  return level;
}

MeshBuffer::~MeshBuffer() { clear(); }

void MeshBuffer::clear() {
  if (m_vbo) glDeleteBuffers(1, &m_vbo);
  if (m_vao) glDeleteVertexArrays(1, &m_vao);
  m_vbo = m_vao = 0;
  m_count = 0;
  m_levels = 1;
  m_cells.clear();
}

namespace {
// Creates the VAO and VBO of MeshVertex data when `vao` is 0 (left bound): 0 position, 1 normal,
// 2 colour.
void createMeshVertexArray(GLuint& vao, GLuint& vbo) {
  createVertexArray(vao, vbo, sizeof(MeshVertex),
                    {{3, GL_FLOAT, GL_FALSE, offsetof(MeshVertex, pos)},
                     {3, GL_FLOAT, GL_FALSE, offsetof(MeshVertex, normal)},
                     {4, GL_UNSIGNED_BYTE, GL_TRUE, offsetof(MeshVertex, color)}});
}
} // namespace

void MeshBuffer::upload(const std::vector<MeshVertex>& verts, std::vector<MeshCell> cells, const float* lodError, int levels) {
  MeshVertex* dst = beginUpload(verts.size());
  if (dst && !verts.empty()) std::memcpy(dst, verts.data(), verts.size() * sizeof(MeshVertex));
  endUpload(std::move(cells), lodError, levels);
}

MeshVertex* MeshBuffer::beginUpload(size_t vertexCount) {
  createMeshVertexArray(m_vao, m_vbo);
  glBindVertexArray(m_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
  const GLsizeiptr bytes = GLsizeiptr(vertexCount * sizeof(MeshVertex));
  glBufferData(GL_ARRAY_BUFFER, bytes, nullptr, GL_STATIC_DRAW);
  m_count = int(vertexCount);
  m_staging.clear();
  m_mapped = nullptr;
  if (vertexCount > 0)
    m_mapped = static_cast<MeshVertex*>(glMapBufferRange(GL_ARRAY_BUFFER, 0, bytes, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT));
  glBindVertexArray(0);
  if (vertexCount > 0 && !m_mapped) { // no mapping: a CPU copy, sent by endUpload
    m_staging.resize(vertexCount);
    return m_staging.data();
  }
  return m_mapped;
}

void MeshBuffer::endUpload(std::vector<MeshCell> cells, const float* lodError, int levels) {
  glBindVertexArray(m_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
  if (m_mapped) glUnmapBuffer(GL_ARRAY_BUFFER);
  else if (!m_staging.empty())
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(m_staging.size() * sizeof(MeshVertex)), m_staging.data());
  glBindVertexArray(0);
  m_mapped = nullptr;
  m_staging = std::vector<MeshVertex>();
  m_levels = std::clamp(levels, 1, kMaxLod);
  for (int k = 0; k < kMaxLod; ++k) m_lodError[k] = k < m_levels ? lodError[k] : 0.0f;
  m_cells = std::move(cells);
}

void MeshBuffer::upload(const std::vector<MeshVertex>& verts) {
  createMeshVertexArray(m_vao, m_vbo);
  // Bucket the triangles by grid cell of their centroid (x/z), counting sort, written straight
  // into the buffer in cell order (no second copy of the vertices).
  const size_t tris = verts.size() / 3;
  glm::vec3 mn(0.0f), mx(0.0f);
  for (size_t i = 0; i < tris * 3; ++i) {
    mn = i ? glm::min(mn, verts[i].pos) : verts[i].pos;
    mx = i ? glm::max(mx, verts[i].pos) : verts[i].pos;
  }
  const int g = std::clamp(int(std::sqrt(double(tris) / 4096.0)), 1, 32);
  const float sx = (mx.x - mn.x) > 0 ? float(g) / (mx.x - mn.x) : 0.0f, sz = (mx.z - mn.z) > 0 ? float(g) / (mx.z - mn.z) : 0.0f;
  std::vector<int> cellOf(tris);
  struct Cell {
    int first = 0, count = 0;
    glm::vec3 bmin{0.0f}, bmax{0.0f};
  };
  std::vector<Cell> cells(size_t(g) * size_t(g));
  for (size_t t = 0; t < tris; ++t) {
    const glm::vec3 c = (verts[t * 3].pos + verts[t * 3 + 1].pos + verts[t * 3 + 2].pos) / 3.0f;
    // (clamped as floats: a centroid or extent overflowing to inf/NaN must not reach the int conversion)
    auto cellAt = [g](float v) { return v > 0.0f ? int(std::min(v, float(g - 1))) : 0; };
    const int cx = cellAt((c.x - mn.x) * sx), cz = cellAt((c.z - mn.z) * sz);
    const int ci = cz * g + cx;
    cellOf[t] = ci;
    Cell& cell = cells[size_t(ci)];
    for (int k = 0; k < 3; ++k) {
      const glm::vec3& p = verts[t * 3 + size_t(k)].pos;
      cell.bmin = cell.count || k ? glm::min(cell.bmin, p) : p;
      cell.bmax = cell.count || k ? glm::max(cell.bmax, p) : p;
    }
    cell.count += 3;
  }
  int at = 0;
  for (Cell& c : cells) {
    c.first = at;
    at += c.count;
  }
  glBindVertexArray(m_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(tris * 3 * sizeof(MeshVertex)), nullptr, GL_STATIC_DRAW);
  if (tris > 0) {
    auto* dst = static_cast<MeshVertex*>(
        glMapBufferRange(GL_ARRAY_BUFFER, 0, GLsizeiptr(tris * 3 * sizeof(MeshVertex)), GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT));
    std::vector<int> cursor(cells.size());
    for (size_t c = 0; c < cells.size(); ++c) cursor[c] = cells[c].first;
    if (dst) {
      for (size_t t = 0; t < tris; ++t) {
        std::memcpy(dst + cursor[size_t(cellOf[t])], &verts[t * 3], 3 * sizeof(MeshVertex));
        cursor[size_t(cellOf[t])] += 3;
      }
      glUnmapBuffer(GL_ARRAY_BUFFER);
    } else { // no mapping: input order, one cell
      glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(tris * 3 * sizeof(MeshVertex)), verts.data());
      cells.assign(1, Cell{0, int(tris * 3), mn, mx});
    }
  }
  glBindVertexArray(0);
  m_count = int(tris * 3);
  m_levels = 1;
  m_cells.clear();
  for (const Cell& c : cells) {
    if (c.count == 0) continue;
    MeshCell mc;
    mc.bmin = c.bmin;
    mc.bmax = c.bmax;
    mc.first[0] = c.first;
    mc.count[0] = c.count;
    m_cells.push_back(mc);
  }
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
  m_lastDrawn = 0;
  if (!m_vao || m_count == 0) return;
  glBindVertexArray(m_vao);
  glDrawArrays(GL_TRIANGLES, 0, m_count);
  glBindVertexArray(0);
  m_lastDrawn = m_count;
}

void MeshBuffer::draw(const Frustum& frustum, const LodView& lod) const {
  m_lastDrawn = 0;
  for (int& n : m_lastCells) n = 0;
  if (!m_vao || m_count == 0) return;
  m_first.clear();
  m_counts.clear();
  for (const MeshCell& c : m_cells) {
    if (!frustum.visible(c.bmin, c.bmax)) continue;
    const int k = selectLod(c.bmin, c.bmax, m_lodError, m_levels, lod);
    ++m_lastCells[k];
    const int first = c.first[k], count = c.count[k];
    if (count <= 0) continue;
    m_lastDrawn += count;
    if (!m_first.empty() && m_first.back() + m_counts.back() == first) m_counts.back() += count;
    else {
      m_first.push_back(first);
      m_counts.push_back(count);
    }
  }
  if (m_first.empty()) return;
  glBindVertexArray(m_vao);
  glMultiDrawArrays(GL_TRIANGLES, m_first.data(), m_counts.data(), GLsizei(m_first.size()));
  glBindVertexArray(0);
}

} // namespace render
