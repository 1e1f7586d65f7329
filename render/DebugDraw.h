// DebugDraw.h: batched immediate-style drawing of points, lines and triangles with per-vertex
// colour, for overlays (pick markers, navmesh polygons, paths, search nodes...).
//
// Usage, each frame:
//   dd.begin(render::Prim::Lines, 2.0f);          // width in pixels, depth-tested
//   dd.vertex(a, render::rgba(255, 0, 0)); dd.vertex(b, render::rgba(255, 0, 0));
//   dd.end();
//   ... more batches or helpers (dd.line, dd.point, dd.cross, dd.wireBox) ...
//   dd.flush(camera.viewProj(aspect), viewportSize);  // draws everything, then empties the batches
//
// Primitives with the same (type, size, depth test) share one batch and one draw call. Depth-tested
// batches are drawn first, then the rest on top. Everything is alpha-blended; triangles get a small
// polygon offset and lines/points a small depth bias so they sit on the surface they lie on.
// Positions are world units; colours are RGBA8 packed with render::rgba (red in the lowest byte).
// Lines are expanded to screen-space quads (any width works in a core profile).
//
// Geometry that stays the same for many frames (the navmesh overlays) goes into StaticBuffers,
// built once; drawStatic() queues one for the next flush, which draws it in the same order and
// state as a batch of its kind (one draw call for the buffer, or for chosen vertex ranges of it).
// The batches themselves also work without GL (begin/vertex/end only record), so the same drawing
// code can record the geometry a StaticBuffer is filled from.
#pragma once

#include "render/Gl.h"
#include "render/Shader.h"

#include "nav/base/NonCopyable.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace render {

enum class Prim { Points, Lines, Tris };

/// RGBA8 colour, red in the lowest byte (matches Detour's duRGBA byte order).
constexpr uint32_t rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
  return uint32_t(r) | (uint32_t(g) << 8) | (uint32_t(b) << 16) | (uint32_t(a) << 24);
}
/// Same from floats in [0, 1].
uint32_t rgbaf(float r, float g, float b, float a = 1.0f);
/// The colour with its alpha replaced.
constexpr uint32_t withAlpha(uint32_t c, uint8_t a) { return (c & 0x00ffffffu) | (uint32_t(a) << 24); }

/// One debug-draw vertex: position [wu] and RGBA8 colour (the layout of every debug-draw buffer).
struct DebugVertex {
  glm::vec3 pos;
  uint32_t color;
};

/// A vertex buffer of one primitive kind kept on the GPU across frames (VAO + VBO, static draw).
/// Needs a current GL context for upload/release (and the destructor, when it holds a buffer).
class StaticBuffer : base::NonCopyable {
public:
  StaticBuffer() = default;
  ~StaticBuffer() { release(); }
  StaticBuffer(StaticBuffer&& o) noexcept { *this = std::move(o); }
  StaticBuffer& operator=(StaticBuffer&& o) noexcept;

  /// Replaces the contents with `n` vertices (whole primitives) drawn as `prim` of `size` pixels.
  void upload(Prim prim, float size, bool depthTest, const DebugVertex* verts, size_t n);
  void release();

  Prim prim() const { return m_prim; }
  float size() const { return m_size; }
  bool depthTest() const { return m_depthTest; }
  int vertexCount() const { return m_count; }
  /// GPU memory of the vertex data [Unit: bytes].
  size_t bytes() const { return size_t(m_capacity) * sizeof(DebugVertex); }
  GLuint vao() const { return m_vao; }

private:
  GLuint m_vao = 0, m_vbo = 0;
  int m_count = 0, m_capacity = 0;
  Prim m_prim = Prim::Tris;
  float m_size = 1.0f;
  bool m_depthTest = true;
};

class DebugDraw {
public:
  struct Batch {
    Prim prim;
    float size;
    bool depthTest;
    std::vector<DebugVertex> verts;
  };

  /// Loads debug.vert/.frag and the line/point geometry shaders from `shaderDir`.
  bool init(const std::string& shaderDir, std::string& error);
  /// Releases the GL objects; call while the GL context is still current (also after a failed init).
  void shutdown();
  ~DebugDraw() { shutdown(); }

  /// Starts a primitive run. `size` is the line width or point diameter in pixels (ignored for
  /// triangles). With depthTest false the primitives are drawn over everything.
  void begin(Prim prim, float size = 1.0f, bool depthTest = true);
  void vertex(const glm::vec3& p, uint32_t color);
  void vertex(float x, float y, float z, uint32_t color) { vertex(glm::vec3(x, y, z), color); }
  /// Ends the run; an incomplete last primitive (e.g. one vertex of a line) is dropped.
  void end();

  // Helpers (each is one begin/vertex/end).
  void point(const glm::vec3& p, uint32_t color, float size = 6.0f, bool depthTest = true);
  void line(const glm::vec3& a, const glm::vec3& b, uint32_t color, float width = 1.0f, bool depthTest = true);
  void triangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, uint32_t color, bool depthTest = true);
  /// Three axis-aligned lines of half-length `s` centred on p.
  void cross(const glm::vec3& p, float s, uint32_t color, float width = 2.0f, bool depthTest = true);
  void wireBox(const glm::vec3& mn, const glm::vec3& mx, uint32_t color, float width = 1.0f, bool depthTest = true);
  /// A horizontal circle (xz plane) of radius r around p.
  void circle(const glm::vec3& p, float r, uint32_t color, float width = 1.0f, bool depthTest = true, int segments = 32);

  /// Queues `buf` for the next flush (it must stay alive until then): the whole buffer, or the
  /// `n` vertex ranges first[i], count[i] (one glMultiDrawArrays call, e.g. the visible tiles).
  void drawStatic(const StaticBuffer& buf);
  void drawStatic(const StaticBuffer& buf, const int* first, const int* count, int n);

  /// The batches recorded since the last flush or clear (CPU side; works without GL).
  const std::vector<Batch>& batches() const { return m_batches; }

  /// Draws all batches with `viewProj` into a viewport of `viewportPx` pixels, then clears them.
  void flush(const glm::mat4& viewProj, const glm::vec2& viewportPx);
  /// Drops the batches without drawing.
  void clear();

  /// Vertices queued since the last flush (batches only) / draw calls issued by the last flush
  /// (batches and static buffers).
  int queuedVertices() const;
  int lastDrawCalls() const { return m_lastDrawCalls; }

private:
  using Vertex = DebugVertex;
  struct StaticDraw {
    const StaticBuffer* buf;
    size_t rangeStart; ///< Into m_staticFirst / m_staticCount.
    int rangeCount;    ///< -1 = the whole buffer.
  };
  Batch* batchFor(Prim prim, float size, bool depthTest);

  Shader m_triShader, m_lineShader, m_pointShader;
  GLuint m_vao = 0, m_vbo = 0;
  size_t m_vboCapacity = 0;
  std::vector<Batch> m_batches;
  std::vector<StaticDraw> m_static;
  std::vector<GLint> m_staticFirst;
  std::vector<GLsizei> m_staticCount;
  Batch* m_cur = nullptr;
  size_t m_curStart = 0;
  int m_lastDrawCalls = 0;
};

} // namespace render
