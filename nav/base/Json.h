// Json.h: the one strict way NavBench reads (and writes numbers into) JSON documents: level files,
// scenarios, tool options, obstacle lists. Header-only over nlohmann::json (target navbench_json;
// navbench_base itself stays standard-library only).
//
// Reading: a JsonIn is one value of a document and the path that reached it ("filter.areaCost[3]").
// Every typed getter checks the type, that numbers are finite (and fit a float for floats) and the
// range, and on a problem records "FILE: PATH: problem" in the document's JsonErrors and returns
// false. The first problem is kept; a reader may stop at the first false or read on (later
// failures do not overwrite the message). Nothing throws.
//
//   base::JsonErrors errors("level.json");
//   nlohmann::json doc;
//   if (!base::parseJson(text, errors, doc)) return fail(errors.message);
//   base::JsonIn in(doc, errors);
//   float cs = 0.3f;
//   if (!in.object({"cellSize", "volumes"}) || !in.opt("cellSize", cs, 0.001, 100.0)) ...
//   // errors.message: "level.json: cellSize: must be in [0.001, 100], got 0"
//
// Writing: exactFloat(f) gives the shortest decimal that reads back as exactly `f`, so a document
// saved, read and saved again is byte-identical.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

namespace base {

/// The first problem met while reading one document.
struct JsonErrors {
  JsonErrors() = default;
  /// `file` prefixes every message ("" = messages start at the JSON path).
  explicit JsonErrors(std::string file) : file(std::move(file)) {}
  std::string file;
  std::string message; ///< "FILE: PATH: problem" (parts left out when empty); "" while none.
  bool failed() const { return !message.empty(); }
  /// Records a problem at `path` (the first one only); always false.
  bool fail(const std::string& path, const std::string& problem) {
    if (!message.empty()) return false;
    message = file;
    if (!path.empty()) message += (message.empty() ? "" : ": ") + path;
    message += (message.empty() ? "" : ": ") + problem;
    return false;
  }
};

/// Nesting depth of a JSON text (brackets outside strings); parseJson refuses deep documents
/// before nlohmann's recursive parser could exhaust the stack.
inline int jsonDepth(const std::string& text) {
  int depth = 0, maxDepth = 0;
  bool inString = false, escape = false;
  for (char c : text) {
    if (inString) {
      if (escape) escape = false;
      else if (c == '\\') escape = true;
      else if (c == '"') inString = false;
      continue;
    }
    if (c == '"') inString = true;
    else if (c == '[' || c == '{') maxDepth = std::max(maxDepth, ++depth);
    else if (c == ']' || c == '}') --depth;
  }
  return maxDepth;
}

/// Parses `text` (no comments, no trailing commas): false with "FILE: parse error at byte N: ..."
/// (or the depth) in `errors`.
inline bool parseJson(const std::string& text, JsonErrors& errors, nlohmann::json& out, int maxDepth = 64) {
  if (jsonDepth(text) > maxDepth)
    return errors.fail("", "nested deeper than " + std::to_string(maxDepth) + " levels");
  out = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!out.is_discarded()) return true;
  // Parse again with exceptions only to learn where it failed (bad input is rare and small).
  try {
    const nlohmann::json again = nlohmann::json::parse(text);
    (void)again;
  } catch (const nlohmann::json::parse_error& e) {
    return errors.fail("", "not valid JSON: parse error at byte " + std::to_string(e.byte));
  } catch (...) {
  }
  return errors.fail("", "not valid JSON");
}

/// Reads and parses the file `path` (at most `maxBytes`): false with "PATH: problem" in `errors`
/// (errors.file is set to `path` when empty).
inline bool readJsonFile(const std::string& path, JsonErrors& errors, nlohmann::json& out,
                         size_t maxBytes = size_t(64) << 20, int maxDepth = 64) {
  if (errors.file.empty()) errors.file = path;
  std::ifstream f(path, std::ios::binary);
  if (!f) return errors.fail("", "cannot open the file");
  f.seekg(0, std::ios::end);
  const std::streamoff size = f.tellg();
  if (size < 0) return errors.fail("", "cannot read the file");
  if (uint64_t(size) > maxBytes) return errors.fail("", "larger than " + std::to_string(maxBytes) + " bytes");
  f.seekg(0);
  std::string text(size_t(size), '\0');
  if (size > 0 && !f.read(&text[0], size)) return errors.fail("", "cannot read the file");
  return parseJson(text, errors, out, maxDepth);
}

/// One value of a document, with the path that reached it.
class JsonIn {
public:
  JsonIn(const nlohmann::json& v, JsonErrors& errors, std::string path = std::string())
      : m_v(&v), m_errors(&errors), m_path(std::move(path)) {}

  const nlohmann::json& json() const { return *m_v; }
  const std::string& path() const { return m_path; }
  JsonErrors& errors() const { return *m_errors; }
  bool ok() const { return !m_errors->failed(); }
  /// True when the key was absent (operator[] on a missing key): getters say "missing".
  bool missing() const { return m_missing; }
  /// Records `problem` at this value's path; always false.
  bool fail(const std::string& problem) const { return m_errors->fail(m_path, problem); }

  /// An object holding `key`.
  bool has(const char* key) const { return m_v->is_object() && m_v->contains(key); }
  /// The value at `key` (a missing one reads as absent: its getters fail with "missing").
  JsonIn operator[](const char* key) const {
    const std::string p = m_path.empty() ? std::string(key) : m_path + "." + key;
    if (has(key)) return JsonIn((*m_v)[key], *m_errors, p);
    JsonIn absent(nullValue(), *m_errors, p);
    absent.m_missing = true;
    return absent;
  }
  JsonIn operator[](const std::string& key) const { return (*this)[key.c_str()]; }
  /// Element i of an array (out of range reads as absent).
  JsonIn operator[](size_t i) const {
    const std::string p = m_path + "[" + std::to_string(i) + "]";
    if (m_v->is_array() && i < m_v->size()) return JsonIn((*m_v)[i], *m_errors, p);
    JsonIn absent(nullValue(), *m_errors, p);
    absent.m_missing = true;
    return absent;
  }
  size_t size() const { return m_v->is_array() || m_v->is_object() ? m_v->size() : 0; }

  // ---- shapes -------------------------------------------------------------------------------
  bool object() const { return m_v->is_object() ? true : wrongType("an object"); }
  /// An object whose keys are all in `keys` (a typo is an error, not a silently ignored key).
  bool object(std::initializer_list<const char*> keys) const {
    if (!object()) return false;
    for (auto it = m_v->begin(); it != m_v->end(); ++it) {
      bool known = false;
      for (const char* k : keys) known = known || it.key() == k;
      if (!known) return (*this)[it.key()].fail("unknown key");
    }
    return true;
  }
  /// An array of minSize..maxSize elements.
  bool array(size_t minSize = 0, size_t maxSize = std::numeric_limits<size_t>::max()) const {
    if (!m_v->is_array()) return wrongType("an array");
    if (m_v->size() < minSize || m_v->size() > maxSize) {
      std::string want = minSize == maxSize ? std::to_string(minSize)
                         : maxSize == std::numeric_limits<size_t>::max()
                             ? "at least " + std::to_string(minSize)
                             : std::to_string(minSize) + " to " + std::to_string(maxSize);
      return fail("expected " + want + " elements, got " + std::to_string(m_v->size()));
    }
    return true;
  }

  // ---- values -------------------------------------------------------------------------------
  /// A finite number that rounds to a finite float, in [lo, hi].
  bool get(float& out, double lo = -std::numeric_limits<double>::infinity(),
           double hi = std::numeric_limits<double>::infinity()) const {
    double d = 0;
    if (!finite(d)) return false;
    // FLT_MAX's shortest decimal is a little above FLT_MAX; anything at 2^128 - 2^103 rounds to inf.
    if (std::fabs(d) >= std::ldexp(double(0x1ffffff), 103)) return fail("not a finite float: " + m_v->dump());
    if (!inRange(double(float(d)), lo, hi)) return false;
    out = float(d);
    return true;
  }
  bool get(double& out, double lo = -std::numeric_limits<double>::infinity(),
           double hi = std::numeric_limits<double>::infinity()) const {
    double d = 0;
    if (!finite(d) || !inRange(d, lo, hi)) return false;
    out = d;
    return true;
  }
  /// An integer (a number with no fraction: 3 and 3.0 alike) in [lo, hi].
  bool get(long long& out, long long lo = std::numeric_limits<long long>::min(),
           long long hi = std::numeric_limits<long long>::max()) const {
    long long x = 0;
    if (m_v->is_number_unsigned()) {
      const unsigned long long u = m_v->get<unsigned long long>();
      x = u > (1ull << 62) ? (1ll << 62) : (long long)u;
    } else if (m_v->is_number_integer()) {
      x = m_v->get<long long>();
    } else if (m_v->is_number_float()) {
      const double d = m_v->get<double>();
      if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 4.0e18) return wrongType("an integer");
      x = (long long)d;
    } else {
      return wrongType("an integer");
    }
    if (x < lo || x > hi)
      return fail("must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + m_v->dump());
    out = x;
    return true;
  }
  bool get(int& out, long long lo = std::numeric_limits<int>::min(), long long hi = std::numeric_limits<int>::max()) const {
    long long x = 0;
    if (!get(x, lo, hi)) return false;
    out = int(x);
    return true;
  }
  bool get(unsigned& out, long long lo = 0, long long hi = std::numeric_limits<unsigned>::max()) const {
    long long x = 0;
    if (!get(x, lo, hi)) return false;
    out = unsigned(x);
    return true;
  }
  bool get(bool& out) const {
    if (!m_v->is_boolean()) return wrongType("true or false");
    out = m_v->get<bool>();
    return true;
  }
  /// A string of at most maxLen bytes with no NUL.
  bool get(std::string& out, size_t maxLen = 4096) const {
    if (!m_v->is_string()) return wrongType("a string");
    const std::string& s = m_v->get_ref<const std::string&>();
    if (s.size() > maxLen) return fail("longer than " + std::to_string(maxLen) + " bytes");
    if (s.find('\0') != std::string::npos) return fail("contains a NUL character");
    out = s;
    return true;
  }
  /// [x, y, z], finite floats; `out` is written only when all three are good.
  bool getVec3(float* out) const { return getFloats(out, 3, "[x, y, z]"); }
  /// An array of exactly n finite floats (`shape` names it in messages, e.g. "[x, y, z]"); for
  /// n <= 16 `out` is written only when all are good.
  bool getFloats(float* out, size_t n, const char* shape = nullptr) const {
    if (!m_v->is_array() || m_v->size() != n) {
      const std::string want = shape ? std::string(shape) : "an array of " + std::to_string(n) + " numbers";
      return fail("expected " + want + ", got " +
                  (m_missing ? std::string("nothing (missing)")
                             : m_v->is_array() ? std::to_string(m_v->size()) + " values" : std::string(m_v->type_name())));
    }
    float t[16];
    for (size_t i = 0; i < n; ++i) {
      float& dst = i < 16 ? t[i] : out[i];
      if (!(*this)[i].get(dst)) return false;
    }
    for (size_t i = 0; i < n && i < 16; ++i) out[i] = t[i];
    return true;
  }

  // ---- keyed forms --------------------------------------------------------------------------
  /// Required: (*this)[key].get(out, range...) ("KEY: missing" when absent).
  template <class T, class... Range>
  bool get(const char* key, T& out, Range... range) const {
    return object() && (*this)[key].get(out, range...);
  }
  /// Optional: an absent key leaves `out` as it is; a present one must be valid.
  template <class T, class... Range>
  bool opt(const char* key, T& out, Range... range) const {
    return !has(key) || (*this)[key].get(out, range...);
  }
  bool optVec3(const char* key, float* out) const { return !has(key) || (*this)[key].getVec3(out); }

private:
  static const nlohmann::json& nullValue() {
    static const nlohmann::json v;
    return v;
  }
  bool wrongType(const char* want) const {
    if (m_missing) return fail("missing");
    const std::string got = m_v->is_null() ? std::string("null (not a finite number?)") : std::string(m_v->type_name());
    return fail(std::string("expected ") + want + ", got " + got);
  }
  bool finite(double& d) const {
    if (!m_v->is_number()) return wrongType("a number");
    d = m_v->get<double>();
    if (!std::isfinite(d)) return fail("not a finite number: " + m_v->dump());
    return true;
  }
  bool inRange(double d, double lo, double hi) const {
    if (d >= lo && d <= hi) return true;
    char buf[160];
    std::snprintf(buf, sizeof buf, "must be in [%g, %g], got %g", lo, hi, d);
    return fail(buf);
  }

  const nlohmann::json* m_v;
  JsonErrors* m_errors;
  std::string m_path;
  bool m_missing = false;
};

/// The shortest decimal that reads back as exactly `f` (null for a non-finite f, which no reader
/// accepts).
inline nlohmann::json exactFloat(float f) {
  if (!std::isfinite(f)) return nullptr;
  char buf[48];
  for (int p = 1; p <= 9; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, double(f));
    const double d = std::strtod(buf, nullptr);
    if (float(d) == f && std::signbit(d) == std::signbit(f)) return d;
  }
  return double(f);
}
inline nlohmann::json exactVec3(const float* v) {
  return nlohmann::json::array({exactFloat(v[0]), exactFloat(v[1]), exactFloat(v[2])});
}

} // namespace base
