#include "render/Shader.h"

#include <glm/gtc/type_ptr.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace render {

namespace {

std::string infoLog(GLuint obj, bool program) {
  GLint len = 0;
  if (program)
    glGetProgramiv(obj, GL_INFO_LOG_LENGTH, &len);
  else
    glGetShaderiv(obj, GL_INFO_LOG_LENGTH, &len);
  if (len <= 1) return "(no log)";
  std::string log(size_t(len), '\0');
  if (program)
    glGetProgramInfoLog(obj, len, nullptr, log.data());
  else
    glGetShaderInfoLog(obj, len, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

GLuint compile(GLenum type, const std::string& src, const std::string& name, std::string& error) {
  GLuint sh = glCreateShader(type);
  const char* p = src.c_str();
  glShaderSource(sh, 1, &p, nullptr);
  glCompileShader(sh);
  GLint ok = 0;
  glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    error = "shader " + name + " failed to compile:\n" + infoLog(sh, false);
    glDeleteShader(sh);
    return 0;
  }
  return sh;
}

} // namespace

Shader::~Shader() {
  if (m_program) glDeleteProgram(m_program);
}

Shader::Shader(Shader&& o) noexcept : m_program(o.m_program) { o.m_program = 0; }

Shader& Shader::operator=(Shader&& o) noexcept {
  if (this != &o) {
    if (m_program) glDeleteProgram(m_program);
    m_program = o.m_program;
    o.m_program = 0;
  }
  return *this;
}

bool Shader::load(const std::string& dir, const std::string& name, std::string& error, const std::string& geomName) {
  const std::string vp = dir + "/" + name + ".vert", fp = dir + "/" + name + ".frag";
  std::string vs, fs, gs, gp;
  if (!readTextFile(vp, vs, error) || !readTextFile(fp, fs, error)) return false;
  if (!geomName.empty()) {
    gp = dir + "/" + geomName + ".geom";
    if (!readTextFile(gp, gs, error)) return false;
  }
  return loadSources(vs, vp, fs, fp, error, gs, gp);
}

bool Shader::loadSources(const std::string& vertSrc, const std::string& vertName, const std::string& fragSrc,
                         const std::string& fragName, std::string& error, const std::string& geomSrc,
                         const std::string& geomName) {
  GLuint vs = compile(GL_VERTEX_SHADER, vertSrc, vertName, error);
  if (!vs) return false;
  GLuint fs = compile(GL_FRAGMENT_SHADER, fragSrc, fragName, error);
  if (!fs) {
    glDeleteShader(vs);
    return false;
  }
  GLuint gs = 0;
  if (!geomSrc.empty()) {
    gs = compile(GL_GEOMETRY_SHADER, geomSrc, geomName, error);
    if (!gs) {
      glDeleteShader(vs);
      glDeleteShader(fs);
      return false;
    }
  }
  GLuint prog = glCreateProgram();
  glAttachShader(prog, vs);
  glAttachShader(prog, fs);
  if (gs) glAttachShader(prog, gs);
  glLinkProgram(prog);
  glDeleteShader(vs);
  glDeleteShader(fs);
  if (gs) glDeleteShader(gs);
  GLint ok = 0;
  glGetProgramiv(prog, GL_LINK_STATUS, &ok);
  if (!ok) {
    error = "shader program " + vertName + " + " + fragName + (gs ? " + " + geomName : std::string()) +
            " failed to link:\n" + infoLog(prog, true);
    glDeleteProgram(prog);
    return false;
  }
  if (m_program) glDeleteProgram(m_program);
  m_program = prog;
  return true;
}

void Shader::set(const char* name, const glm::mat4& m) const {
  glUniformMatrix4fv(glGetUniformLocation(m_program, name), 1, GL_FALSE, glm::value_ptr(m));
}
void Shader::set(const char* name, const glm::vec3& v) const {
  glUniform3fv(glGetUniformLocation(m_program, name), 1, glm::value_ptr(v));
}
void Shader::set(const char* name, const glm::vec2& v) const {
  glUniform2fv(glGetUniformLocation(m_program, name), 1, glm::value_ptr(v));
}
void Shader::set(const char* name, const glm::vec4& v) const {
  glUniform4fv(glGetUniformLocation(m_program, name), 1, glm::value_ptr(v));
}
void Shader::set(const char* name, float f) const { glUniform1f(glGetUniformLocation(m_program, name), f); }
void Shader::set(const char* name, int i) const { glUniform1i(glGetUniformLocation(m_program, name), i); }

bool readTextFile(const std::string& path, std::string& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = "cannot read " + path + ": read error";
    return false;
  }
  out = ss.str();
  return true;
}

std::string findShaderDir(const std::vector<std::string>& candidates, const std::string& probeFile, std::string& tried) {
  tried.clear();
  for (const std::string& dir : candidates) {
    if (dir.empty()) continue;
    struct stat st {};
    if (::stat((dir + "/" + probeFile).c_str(), &st) == 0) return dir;
    if (!tried.empty()) tried += ", ";
    tried += dir;
  }
  return {};
}

} // namespace render
