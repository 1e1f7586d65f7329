#include "render/Gl.h"

namespace render {

bool loadGl(GlProcLoader loader, std::string& error) {
  int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(loader));
  if (version == 0) {
    error = "could not load OpenGL entry points (is a GL context current?)";
    return false;
  }
  int major = GLAD_VERSION_MAJOR(version), minor = GLAD_VERSION_MINOR(version);
  if (major < 3 || (major == 3 && minor < 3)) {
    error = "OpenGL 3.3 core is required, the context offers " + std::to_string(major) + "." + std::to_string(minor);
    return false;
  }
  return true;
}

const char* glErrorName(GLenum err) {
  switch (err) {
  case GL_NO_ERROR: return "GL_NO_ERROR";
  case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
  case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
  case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
  case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
  case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
  default: return "GL error (unknown code)";
  }
}

void createVertexArray(GLuint& vao, GLuint& vbo, GLsizei stride, std::initializer_list<VertexAttrib> attribs) {
  if (vao) return;
  glGenVertexArrays(1, &vao);
  glGenBuffers(1, &vbo);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  GLuint i = 0;
  for (const VertexAttrib& a : attribs) {
    glEnableVertexAttribArray(i);
    glVertexAttribPointer(i, a.size, a.type, a.normalized, stride, reinterpret_cast<void*>(a.offset));
    ++i;
  }
}

bool checkGl(const char* where, std::string& error) {
  GLenum first = glGetError();
  if (first == GL_NO_ERROR) return true;
  while (glGetError() != GL_NO_ERROR) {
  }
  error = std::string(where) + ": " + glErrorName(first);
  return false;
}

std::string glDescription() {
  auto str = [](GLenum name) {
    const GLubyte* s = glGetString(name);
    return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("?");
  };
  return "OpenGL " + str(GL_VERSION) + ", " + str(GL_RENDERER);
}

} // namespace render
