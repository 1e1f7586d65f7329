// Gl.h: the one place that includes the OpenGL loader (glad, generated at build time for GL 3.3
// core), plus loading and error helpers. Include this instead of any other GL header; it must come
// before SDL_opengl.h if that is included at all.
#pragma once

#include <glad/gl.h>

#include <cstddef>
#include <initializer_list>
#include <string>

namespace render {

/// A function that returns the address of a GL entry point (e.g. SDL_GL_GetProcAddress).
using GlProcLoader = void* (*)(const char* name);

/// Loads the GL 3.3 core entry points through `loader` (a context must be current).
/// Returns false and sets `error` when the context is older than 3.3 or loading fails.
bool loadGl(GlProcLoader loader, std::string& error);

/// "GL_INVALID_ENUM" etc. for a glGetError() code.
const char* glErrorName(GLenum err);

/// One vertex attribute of an interleaved vertex: `size` components of `type` (normalised to 0..1
/// when `normalized`), `offset` bytes into the vertex.
struct VertexAttrib {
  GLint size;
  GLenum type;
  GLboolean normalized;
  size_t offset;
};

/// Creates `vao` and `vbo` when `vao` is 0, leaves both bound and enables attribute i as
/// attribs[i] (vertices `stride` bytes apart); does nothing when `vao` is already set. Needs a
/// current GL context.
void createVertexArray(GLuint& vao, GLuint& vbo, GLsizei stride, std::initializer_list<VertexAttrib> attribs);

/// Drains glGetError(); returns false and sets `error` ("<where>: GL_INVALID_...") if any was set.
bool checkGl(const char* where, std::string& error);

/// The GL_VERSION / GL_RENDERER strings of the current context, one line.
std::string glDescription();

} // namespace render
