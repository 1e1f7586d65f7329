// Shader.h: GLSL programs loaded from files in shaders/ at run time.
//
// Failures (missing file, compile or link error) return false with a message that names the file
// and carries the GLSL info log; the previous program, if any, is kept.
#pragma once

#include "render/Gl.h"

#include "nav/base/NonCopyable.h"

#include <glm/glm.hpp>

#include <string>
#include <vector>

namespace render {

class Shader : base::NonCopyable {
public:
  Shader() = default;
  ~Shader();
  Shader(Shader&& o) noexcept;
  Shader& operator=(Shader&& o) noexcept;

  /// Loads `<dir>/<name>.vert` and `<dir>/<name>.frag`, plus `<dir>/<geomName>.geom` when
  /// geomName is non-empty, and links them.
  bool load(const std::string& dir, const std::string& name, std::string& error, const std::string& geomName = "");
  /// Same from source strings; the names are only used in messages.
  bool loadSources(const std::string& vertSrc, const std::string& vertName, const std::string& fragSrc,
                   const std::string& fragName, std::string& error, const std::string& geomSrc = "",
                   const std::string& geomName = "");

  bool valid() const { return m_program != 0; }
  GLuint program() const { return m_program; }
  void use() const { glUseProgram(m_program); }

  /// Uniform setters; unknown names (e.g. optimised away) are ignored.
  void set(const char* name, const glm::mat4& m) const;
  void set(const char* name, const glm::vec3& v) const;
  void set(const char* name, const glm::vec2& v) const;
  void set(const char* name, const glm::vec4& v) const;
  void set(const char* name, float f) const;
  void set(const char* name, int i) const;

private:
  GLuint m_program = 0;
};

/// Reads a whole text file. Returns false and sets `error` ("cannot read <path>: <reason>").
bool readTextFile(const std::string& path, std::string& out, std::string& error);

/// Picks the shader directory: the first of `candidates` that holds `probeFile`.
/// Returns "" when none does; `tried` then lists the directories searched.
std::string findShaderDir(const std::vector<std::string>& candidates, const std::string& probeFile, std::string& tried);

} // namespace render
