// ObjCheck.h: the checks and messages of the OBJ format, one set for both of NavBench's OBJ
// readers: the bake's streaming reader (ObjMesh.cpp) and the viewer's loader (app/Level.cpp, whose
// pre-scan checks what tinyobjloader would accept silently before it parses). The same problem
// gives the same message in both:
//   "FILE:LINE: problem"  a record ("level.obj:12: vertex coordinate 'nan' is not a finite number")
//   "FILE: problem"       the whole file ("level.obj: file is empty")
// Header-only and standard-library only: app/Level.cpp uses it with or without nav_bake linked.
//
// Both readers check: vertex records (three finite numbers in float range; a fourth and more,
// w or a colour, are ignored), face references (a vertex number, not 0, a relative one not before
// the first vertex, a positive one within the file's vertices, checked at the end as a face may
// refer forward), the vertex and triangle counts a bake takes (int indices), files with no faces,
// files that cannot be opened or exceed a size limit.
#pragma once

#include <charconv>
#include <climits>
#include <cmath>
#include <string>
#include <system_error>
#include <utility>

namespace nav::bake::obj {

// ---- messages -----------------------------------------------------------------------------
/// "FILE:LINE: problem".
inline std::string atLine(const std::string& file, long long line, const std::string& problem) {
  return file + ":" + std::to_string(line) + ": " + problem;
}
/// "FILE: problem".
inline std::string inFile(const std::string& file, const std::string& problem) { return file + ": " + problem; }

/// "N MiB" for sizes of a MiB or more, "N bytes" below (a limit set small, e.g. by a test).
inline std::string sizeText(long long bytes) {
  return bytes >= (1ll << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

// Problems with the whole file.
inline std::string cannotOpen() { return "cannot open the file (missing or unreadable)"; }
inline std::string readError() { return "read error"; }
inline std::string fileEmpty() { return "file is empty"; }
inline std::string overSizeLimit(long long bytes, long long maxBytes) {
  return "file is " + sizeText(bytes) + ", over the " + sizeText(maxBytes) + " OBJ size limit";
}
inline std::string binaryData() { return "not an OBJ file (binary data)"; }
inline std::string noRecords() { return "not an OBJ file (no 'v' or 'f' records)"; }
inline std::string noFaces(long long vertCount) { return "OBJ has no faces (" + std::to_string(vertCount) + " vertices)"; }
inline std::string tooBig(long long vertCount, long long triCount) {
  return std::to_string(vertCount) + " vertices and " + std::to_string(triCount) + " triangles are more than a bake takes";
}
/// A line too long to be text (its number is the LINE of the message).
inline std::string lineTooLong(size_t maxBytes) {
  return "line longer than " + std::to_string(maxBytes >> 20) + " MiB (not a text OBJ file?)";
}

// Problems with one record (atLine).
inline std::string vertexTooShort() { return "vertex has fewer than 3 coordinates (v x y z)"; }
inline std::string coordNotFinite(const std::string& token) {
  return "vertex coordinate '" + token + "' is not a finite number";
}
inline std::string tooManyVertices() { return "more than " + std::to_string(INT_MAX) + " vertices, more than a bake takes"; }
inline std::string tooManyTriangles() {
  return "more than " + std::to_string(INT_MAX / 3) + " triangles, more than a bake takes";
}
inline std::string faceTooShort() { return "face has fewer than 3 vertices"; }
inline std::string faceTooLong(int maxRefs) {
  return "face has more than " + std::to_string(maxRefs) + " vertices (tinyobjloader's limit)";
}
inline std::string refNotNumber(const std::string& token) {
  return "face index '" + token + "' does not start with a vertex number";
}
inline std::string refZero() { return "face index 0 is invalid (OBJ indices start at 1)"; }
inline std::string refBeforeFirst(long long ref, long long vertsSoFar) {
  return "face index " + std::to_string(ref) + " out of range (only " + std::to_string(vertsSoFar) +
         " vertices before this line)";
}
inline std::string refTooBig(long long ref) {
  return "face index " + std::to_string(ref) + " out of range (more than a bake takes)";
}
inline std::string refOutOfRange(long long ref, long long vertCount) {
  return "face index " + std::to_string(ref) + " out of range (the file has " + std::to_string(vertCount) + " vertices)";
}

/// Sets `problem`; always false.
inline bool failWith(std::string* problem, std::string text) {
  *problem = std::move(text);
  return false;
}

// ---- tokens -------------------------------------------------------------------------------
inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline const char* skipBlank(const char* p, const char* e) {
  while (p < e && isBlank(*p)) ++p;
  return p;
}
inline const char* tokenEnd(const char* p, const char* e) {
  while (p < e && !isBlank(*p)) ++p;
  return p;
}
/// Whether the line [b, e) starts (after blanks) with the keyword `word` and a blank.
inline bool startsWith(const char* b, const char* e, const char* word) {
  b = skipBlank(b, e);
  size_t n = 0;
  while (word[n]) {
    if (b + n >= e || b[n] != word[n]) return false;
    ++n;
  }
  return b + n < e && isBlank(b[n]);
}

/// What a line is: a vertex, a face (`rest`: after the keyword), or anything else.
enum class Record { Other, Vertex, Face };
inline Record classify(const char* b, const char* e, const char** rest) {
  b = skipBlank(b, e);
  if (e - b < 2 || !isBlank(b[1])) return Record::Other;
  *rest = b + 2;
  if (b[0] == 'v') return Record::Vertex;
  if (b[0] == 'f') return Record::Face;
  return Record::Other;
}

/// A decimal number token -> float (as RecastDemo's atof, then to float). False if the token is
/// not entirely a number that is finite as a float (nan, inf, 1e39 and hex are refused).
inline bool parseCoord(const char* b, const char* e, float* out) {
  if (b < e && *b == '+') ++b;
  double d = 0;
  const std::from_chars_result r = std::from_chars(b, e, d, std::chars_format::general);
  if (r.ec != std::errc() || r.ptr != e || !std::isfinite(d)) return false;
  const float f = float(d);
  if (!std::isfinite(f)) return false;
  *out = f;
  return true;
}

/// A vertex record's position from `rest` (after the "v"): false with `problem` set.
inline bool readVertex(const char* rest, const char* e, float* xyz, std::string* problem) {
  const char* p = rest;
  for (int k = 0; k < 3; ++k) {
    p = skipBlank(p, e);
    const char* t = tokenEnd(p, e);
    if (p == t) return failWith(problem, vertexTooShort());
    if (!parseCoord(p, t, &xyz[k])) return failWith(problem, coordNotFinite(std::string(p, t)));
    p = t;
  }
  return true; // anything after x y z (w, or a colour) is not a position: ignored
}

/// Face references resolved to 0-based vertex indices, with the checks both readers make. A face
/// may refer to a vertex defined later: only the largest such reference is kept, for finish().
class FaceRefs {
public:
  /// The reference token [b, e) ("a", "a/t", "a//n", "a/t/n"; negative: relative) on `line`, with
  /// `vertsSoFar` vertices read before it: its index, or false with `problem` set.
  bool resolve(const char* b, const char* e, long long vertsSoFar, long long line, int* index, std::string* problem) {
    const std::string token(b, e);
    if (b < e && *b == '+') ++b;
    long long ref = 0;
    const std::from_chars_result r = std::from_chars(b, e, ref);
    if (r.ec != std::errc() || r.ptr == b || (r.ptr != e && *r.ptr != '/')) return failWith(problem, refNotNumber(token));
    long long idx = 0;
    if (ref > 0) {
      idx = ref - 1;
      if (idx >= INT_MAX) return failWith(problem, refTooBig(ref));
      if (idx >= vertsSoFar && idx > m_maxRef) {
        m_maxRef = idx;
        m_maxRefLine = line;
      }
    } else if (ref < 0) {
      idx = vertsSoFar + ref;
      if (idx < 0) return failWith(problem, refBeforeFirst(ref, vertsSoFar));
    } else {
      return failWith(problem, refZero());
    }
    *index = int(idx);
    return true;
  }
  /// After the last record: every reference within the file's `vertCount` vertices; false with
  /// the line of the largest one and `problem` set.
  bool finish(long long vertCount, long long* line, std::string* problem) const {
    if (m_maxRef < vertCount) return true;
    *line = m_maxRefLine;
    *problem = refOutOfRange(m_maxRef + 1, vertCount);
    return false;
  }

private:
  long long m_maxRef = -1, m_maxRefLine = 0;
};

} // namespace nav::bake::obj
