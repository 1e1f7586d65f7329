#include "render/DebugDraw.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace render {

uint32_t rgbaf(float r, float g, float b, float a) {
  auto c = [](float v) { return uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return rgba(c(r), c(g), c(b), c(a));
}

bool DebugDraw::init(const std::string& shaderDir, std::string& error) {
  if (!m_triShader.load(shaderDir, "debug", error)) return false;
  if (!m_lineShader.load(shaderDir, "debug", error, "debug_line")) return false;
  if (!m_pointShader.load(shaderDir, "debug", error, "debug_point")) return false;
  if (!m_vao) {
    glGenVertexArrays(1, &m_vao);
    glGenBuffers(1, &m_vbo);
    glBindVertexArray(m_vao);
    glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, pos)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), reinterpret_cast<void*>(offsetof(Vertex, color)));
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

void DebugDraw::clear() {
  for (Batch& b : m_batches) b.verts.clear();
  m_cur = nullptr;
}

void DebugDraw::flush(const glm::mat4& viewProj, const glm::vec2& viewportPx) {
  m_lastDrawCalls = 0;
  m_cur = nullptr;
  size_t total = 0;
  for (const Batch& b : m_batches) total += b.verts.size();
  if (total == 0 || !m_vao || !m_triShader.valid()) {
    clear();
    return;
  }
  // Pack every batch into one buffer: depth-tested first, then overlays; tris, lines, points.
  std::vector<const Batch*> order;
  for (const Batch& b : m_batches)
    if (!b.verts.empty()) order.push_back(&b);
  std::stable_sort(order.begin(), order.end(), [](const Batch* a, const Batch* b) {
    if (a->depthTest != b->depthTest) return a->depthTest;
    return int(a->prim) > int(b->prim);
  });
  glBindVertexArray(m_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
  size_t bytes = total * sizeof(Vertex);
  if (bytes > m_vboCapacity) {
    m_vboCapacity = std::max(bytes, m_vboCapacity * 2);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(m_vboCapacity), nullptr, GL_STREAM_DRAW);
  }
  std::vector<GLint> first(order.size());
  size_t at = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    first[i] = GLint(at);
    glBufferSubData(GL_ARRAY_BUFFER, GLintptr(at * sizeof(Vertex)), GLsizeiptr(order[i]->verts.size() * sizeof(Vertex)),
                    order[i]->verts.data());
    at += order[i]->verts.size();
  }

  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  for (size_t i = 0; i < order.size(); ++i) {
    const Batch& b = *order[i];
    if (b.depthTest)
      glEnable(GL_DEPTH_TEST);
    else
      glDisable(GL_DEPTH_TEST);
    const Shader& sh = b.prim == Prim::Tris ? m_triShader : b.prim == Prim::Lines ? m_lineShader : m_pointShader;
    sh.use();
    sh.set("uViewProj", viewProj);
    sh.set("uViewport", viewportPx);
    sh.set("uSize", b.size);
    sh.set("uDepthBias", b.prim == Prim::Tris ? 0.0f : 0.0004f);
    if (b.prim == Prim::Tris) {
      glEnable(GL_POLYGON_OFFSET_FILL);
      glPolygonOffset(-1.0f, -2.0f);
    }
    GLenum mode = b.prim == Prim::Tris ? GL_TRIANGLES : b.prim == Prim::Lines ? GL_LINES : GL_POINTS;
    glDrawArrays(mode, first[i], GLsizei(b.verts.size()));
    ++m_lastDrawCalls;
    if (b.prim == Prim::Tris) glDisable(GL_POLYGON_OFFSET_FILL);
  }
  glEnable(GL_DEPTH_TEST);
  glBindVertexArray(0);
  glUseProgram(0);
  clear();
}

} // namespace render
