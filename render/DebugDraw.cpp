#include "render/DebugDraw.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace render {

uint32_t rgbaf(float r, float g, float b, float a) {
  auto c = [](float v) { return uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return rgba(c(r), c(g), c(b), c(a));
}

namespace {

// Creates the VAO and VBO of DebugVertex data when `vao` is 0 (left bound): 0 position, 1 colour.
void createDebugVertexArray(GLuint& vao, GLuint& vbo) {
  createVertexArray(vao, vbo, sizeof(DebugVertex),
                    {{3, GL_FLOAT, GL_FALSE, offsetof(DebugVertex, pos)}, {4, GL_UNSIGNED_BYTE, GL_TRUE, offsetof(DebugVertex, color)}});
}

} // namespace

StaticBuffer& StaticBuffer::operator=(StaticBuffer&& o) noexcept {
  if (this != &o) {
    release();
    m_vao = std::exchange(o.m_vao, 0u);
    m_vbo = std::exchange(o.m_vbo, 0u);
    m_count = std::exchange(o.m_count, 0);
    m_capacity = std::exchange(o.m_capacity, 0);
    m_prim = o.m_prim;
    m_size = o.m_size;
    m_depthTest = o.m_depthTest;
  }
  return *this;
}

void StaticBuffer::upload(Prim prim, float size, bool depthTest, const DebugVertex* verts, size_t n) {
  m_prim = prim;
  m_size = prim == Prim::Tris ? 1.0f : std::max(size, 1.0f);
  m_depthTest = depthTest;
  createDebugVertexArray(m_vao, m_vbo);
  glBindVertexArray(m_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
  // Same size: overwrite in place; otherwise new storage of exactly this size (static data).
  if (int(n) == m_capacity && n > 0) {
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(n * sizeof(DebugVertex)), verts);
  } else {
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(n * sizeof(DebugVertex)), n ? verts : nullptr, GL_STATIC_DRAW);
    m_capacity = int(n);
  }
  m_count = int(n);
  glBindVertexArray(0);
}

void StaticBuffer::release() {
  if (m_vbo) glDeleteBuffers(1, &m_vbo);
  if (m_vao) glDeleteVertexArrays(1, &m_vao);
  m_vbo = m_vao = 0;
  m_count = m_capacity = 0;
}

bool DebugDraw::init(const std::string& shaderDir, std::string& error) {
  if (!m_triShader.load(shaderDir, "debug", error)) return false;
  if (!m_lineShader.load(shaderDir, "debug", error, "debug_line")) return false;
  if (!m_pointShader.load(shaderDir, "debug", error, "debug_point")) return false;
  if (!m_vao) {
    createDebugVertexArray(m_vao, m_vbo);
    glBindVertexArray(0);
  }
  return true;
}

void DebugDraw::shutdown() {
  if (m_vbo) glDeleteBuffers(1, &m_vbo);
  if (m_vao) glDeleteVertexArrays(1, &m_vao);
  m_vbo = m_vao = 0;
  m_vboCapacity = 0;
  m_batches.clear();
  m_static.clear();
  m_cur = nullptr;
  m_triShader = Shader();
  m_lineShader = Shader();
  m_pointShader = Shader();
}

DebugDraw::Batch* DebugDraw::batchFor(Prim prim, float size, bool depthTest) {
  if (prim == Prim::Tris) size = 1.0f;
  for (Batch& b : m_batches)
    if (b.prim == prim && b.size == size && b.depthTest == depthTest) return &b;
  m_batches.push_back({prim, size, depthTest, {}});
  return &m_batches.back();
}

void DebugDraw::begin(Prim prim, float size, bool depthTest) {
  m_cur = batchFor(prim, std::max(size, 1.0f), depthTest);
  m_curStart = m_cur->verts.size();
}

void DebugDraw::vertex(const glm::vec3& p, uint32_t color) {
  if (m_cur) m_cur->verts.push_back({p, color});
}

void DebugDraw::end() {
  if (!m_cur) return;
  size_t per = m_cur->prim == Prim::Tris ? 3 : m_cur->prim == Prim::Lines ? 2 : 1;
  size_t n = m_cur->verts.size() - m_curStart;
  m_cur->verts.resize(m_curStart + n / per * per);
  m_cur = nullptr;
}

void DebugDraw::point(const glm::vec3& p, uint32_t color, float size, bool depthTest) {
  begin(Prim::Points, size, depthTest);
  vertex(p, color);
  end();
}

void DebugDraw::line(const glm::vec3& a, const glm::vec3& b, uint32_t color, float width, bool depthTest) {
  begin(Prim::Lines, width, depthTest);
  vertex(a, color);
  vertex(b, color);
  end();
}

void DebugDraw::triangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, uint32_t color, bool depthTest) {
  begin(Prim::Tris, 1.0f, depthTest);
  vertex(a, color);
  vertex(b, color);
  vertex(c, color);
  end();
}

void DebugDraw::cross(const glm::vec3& p, float s, uint32_t color, float width, bool depthTest) {
  begin(Prim::Lines, width, depthTest);
  for (int axis = 0; axis < 3; ++axis) {
    glm::vec3 d(0.0f);
    d[axis] = s;
    vertex(p - d, color);
    vertex(p + d, color);
  }
  end();
}

void DebugDraw::wireBox(const glm::vec3& mn, const glm::vec3& mx, uint32_t color, float width, bool depthTest) {
  glm::vec3 c[8];
  for (int i = 0; i < 8; ++i) c[i] = glm::vec3(i & 1 ? mx.x : mn.x, i & 2 ? mx.y : mn.y, i & 4 ? mx.z : mn.z);
  static const int edges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  begin(Prim::Lines, width, depthTest);
  for (const auto& e : edges) {
    vertex(c[e[0]], color);
    vertex(c[e[1]], color);
  }
  end();
}

void DebugDraw::circle(const glm::vec3& p, float r, uint32_t color, float width, bool depthTest, int segments) {
  segments = std::max(segments, 3);
  begin(Prim::Lines, width, depthTest);
  for (int i = 0; i < segments; ++i) {
    float a0 = 6.28318531f * float(i) / float(segments), a1 = 6.28318531f * float(i + 1) / float(segments);
    vertex(p + glm::vec3(std::cos(a0) * r, 0, std::sin(a0) * r), color);
    vertex(p + glm::vec3(std::cos(a1) * r, 0, std::sin(a1) * r), color);
  }
  end();
}

int DebugDraw::queuedVertices() const {
  size_t n = 0;
  for (const Batch& b : m_batches) n += b.verts.size();
  return int(n);
}

void DebugDraw::drawStatic(const StaticBuffer& buf) {
  if (buf.vertexCount() > 0) m_static.push_back({&buf, 0, -1});
}

void DebugDraw::drawStatic(const StaticBuffer& buf, const int* first, const int* count, int n) {
  if (buf.vertexCount() <= 0 || n <= 0) return;
  m_static.push_back({&buf, m_staticFirst.size(), n});
  m_staticFirst.insert(m_staticFirst.end(), first, first + n);
  m_staticCount.insert(m_staticCount.end(), count, count + n);
}

void DebugDraw::clear() {
  for (Batch& b : m_batches) b.verts.clear();
  m_static.clear();
  m_staticFirst.clear();
  m_staticCount.clear();
  m_cur = nullptr;
}

void DebugDraw::flush(const glm::mat4& viewProj, const glm::vec2& viewportPx) {
  m_lastDrawCalls = 0;
  m_cur = nullptr;
  size_t total = 0;
  for (const Batch& b : m_batches) total += b.verts.size();
  if ((total == 0 && m_static.empty()) || !m_vao || !m_triShader.valid()) {
    clear();
    return;
  }
  // What to draw: static buffers and batches, depth-tested first, then overlays; within each,
  // triangles, lines, points; static buffers before the batches of the same kind.
  struct Item {
    Prim prim;
    float size;
    bool depthTest;
    const Batch* batch;       // or
    const StaticDraw* sdraw;
    GLint first;              // batch: its first vertex in m_vbo
  };
  std::vector<Item> order;
  order.reserve(m_static.size() + m_batches.size());
  for (const StaticDraw& d : m_static) order.push_back({d.buf->prim(), d.buf->size(), d.buf->depthTest(), nullptr, &d, 0});
  for (const Batch& b : m_batches)
    if (!b.verts.empty()) order.push_back({b.prim, b.size, b.depthTest, &b, nullptr, 0});
  std::stable_sort(order.begin(), order.end(), [](const Item& a, const Item& b) {
    if (a.depthTest != b.depthTest) return a.depthTest;
    return int(a.prim) > int(b.prim);
  });
  if (total > 0) { // pack every batch into the stream buffer
    glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
    size_t bytes = total * sizeof(Vertex);
    if (bytes > m_vboCapacity) {
      m_vboCapacity = std::max(bytes, m_vboCapacity * 2);
      glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(m_vboCapacity), nullptr, GL_STREAM_DRAW);
    }
    size_t at = 0;
    for (Item& it : order) {
      if (!it.batch) continue;
      it.first = GLint(at);
      glBufferSubData(GL_ARRAY_BUFFER, GLintptr(at * sizeof(Vertex)), GLsizeiptr(it.batch->verts.size() * sizeof(Vertex)),
                      it.batch->verts.data());
      at += it.batch->verts.size();
    }
  }

  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  const Shader* current = nullptr;
  for (const Item& it : order) {
    if (it.depthTest)
      glEnable(GL_DEPTH_TEST);
    else
      glDisable(GL_DEPTH_TEST);
    const Shader& sh = it.prim == Prim::Tris ? m_triShader : it.prim == Prim::Lines ? m_lineShader : m_pointShader;
    if (current != &sh) {
      sh.use();
      sh.set("uViewProj", viewProj);
      sh.set("uViewport", viewportPx);
      sh.set("uDepthBias", it.prim == Prim::Tris ? 0.0f : 0.0004f);
      current = &sh;
    }
    sh.set("uSize", it.size);
    if (it.prim == Prim::Tris) {
      glEnable(GL_POLYGON_OFFSET_FILL);
      glPolygonOffset(-1.0f, -2.0f);
    }
    const GLenum mode = it.prim == Prim::Tris ? GL_TRIANGLES : it.prim == Prim::Lines ? GL_LINES : GL_POINTS;
    if (it.batch) {
      glBindVertexArray(m_vao);
      glDrawArrays(mode, it.first, GLsizei(it.batch->verts.size()));
    } else {
      glBindVertexArray(it.sdraw->buf->vao());
      if (it.sdraw->rangeCount < 0)
        glDrawArrays(mode, 0, GLsizei(it.sdraw->buf->vertexCount()));
      else
        glMultiDrawArrays(mode, &m_staticFirst[it.sdraw->rangeStart], &m_staticCount[it.sdraw->rangeStart],
                          GLsizei(it.sdraw->rangeCount));
    }
    ++m_lastDrawCalls;
    if (it.prim == Prim::Tris) glDisable(GL_POLYGON_OFFSET_FILL);
  }
  glEnable(GL_DEPTH_TEST);
  glBindVertexArray(0);
  glUseProgram(0);
  clear();
}

} // namespace render
