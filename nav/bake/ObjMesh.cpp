#include "nav/bake/ObjMesh.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

namespace nav::bake {

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

/// An open file as an ObjSource.
class FileSource : public ObjSource {
public:
  explicit FileSource(std::FILE* f) : m_file(f) {}
  long long read(char* dst, size_t n) override {
    const size_t got = std::fread(dst, 1, n, m_file);
    if (got == 0 && std::ferror(m_file)) {
      failure = "read error";
      return -1;
    }
    return (long long)got;
  }

private:
  std::FILE* m_file;
};

/// Text already in memory as an ObjSource.
class MemorySource : public ObjSource {
public:
  MemorySource(const char* text, size_t size) : m_text(text), m_size(size) {}
  long long read(char* dst, size_t n) override {
    n = std::min(n, m_size - m_pos);
    if (n > 0) std::memcpy(dst, m_text + m_pos, n);
    m_pos += n;
    return (long long)n;
  }

private:
  const char* m_text;
  size_t m_size, m_pos = 0;
};

/// Lines of a source read in blocks: [begin, end) without the line end (LF, CRLF or CR).
class LineReader {
public:
  explicit LineReader(ObjSource& src) : m_src(src), m_buf(BLOCK) {}

  /// Next line; false at the end of the file (or on a read error: see failed()).
  bool next(const char** b, const char** e) {
    for (;;) {
      if (m_tooLong) return false;
      if (m_skipLf) { // the last line ended with CR: a following LF belongs to it
        if (m_pos == m_len && !refill()) return false;
        if (m_buf[m_pos] == '\n') ++m_pos;
        m_skipLf = false;
      }
      for (size_t i = std::max(m_pos, m_scan); i < m_len; ++i) {
        const char c = m_buf[i];
        if (c != '\n' && c != '\r') continue;
        *b = m_buf.data() + m_pos;
        *e = m_buf.data() + i;
        m_pos = i + 1;
        m_skipLf = c == '\r';
        ++m_line;
        return true;
      }
      m_scan = m_len; // no line end up to here: a long line is not searched again from its start
      if (m_eof) {
        if (m_pos == m_len) return false;
        *b = m_buf.data() + m_pos; // last line without a line end
        *e = m_buf.data() + m_len;
        m_pos = m_len;
        ++m_line;
        return true;
      }
      refill();
    }
  }
  long long line() const { return m_line; }
  /// Bytes of the file read so far (changes once per block).
  long long bytesRead() const { return m_read; }
  /// The source failed (a read error, or the source stopped the reading: its `failure` says why).
  bool failed() const { return m_error; }
  /// A line longer than MAX_LINE stopped the reading (line() + 1 is that line).
  bool tooLong() const { return m_tooLong; }
  static constexpr size_t MAX_LINE = size_t(64) << 20;

private:
  static constexpr size_t BLOCK = size_t(1) << 20;

  /// Keeps the unfinished line, reads the next block after it. False when nothing more came.
  bool refill() {
    const size_t keep = m_len - m_pos;
    if (m_pos > 0 && keep > 0) std::memmove(m_buf.data(), m_buf.data() + m_pos, keep);
    m_scan = m_scan > m_pos ? m_scan - m_pos : 0;
    m_pos = 0;
    m_len = keep;
    if (keep >= MAX_LINE) { // no line end in 64 MiB: not a text OBJ, and not worth the memory
      m_tooLong = true;
      m_eof = true;
      return false;
    }
    if (m_len + BLOCK > m_buf.size()) m_buf.resize(m_len + BLOCK); // a line longer than a block
    const long long got = m_src.read(m_buf.data() + m_len, m_buf.size() - m_len);
    if (got <= 0) {
      m_eof = true;
      m_error = m_error || got < 0; // a source may answer 0 after it stopped: still failed
      return false;
    }
    m_len += size_t(got);
    m_read += got;
    return true;
  }

  ObjSource& m_src;
  std::vector<char> m_buf;
  size_t m_pos = 0, m_len = 0, m_scan = 0; ///< m_scan: searched for a line end up to here
  long long m_line = 0, m_read = 0;
  bool m_eof = false, m_skipLf = false, m_error = false, m_tooLong = false;
};

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
const char* skipBlank(const char* p, const char* e) {
  while (p < e && isBlank(*p)) ++p;
  return p;
}
const char* tokenEnd(const char* p, const char* e) {
  while (p < e && !isBlank(*p)) ++p;
  return p;
}

/// What a line is: a vertex, a face (with the first token after the keyword), or anything else.
enum class Record { Other, Vertex, Face };
Record classify(const char* b, const char* e, const char** rest) {
  b = skipBlank(b, e);
  if (e - b < 2 || !isBlank(b[1])) return Record::Other;
  *rest = b + 2;
  if (b[0] == 'v') return Record::Vertex;
  if (b[0] == 'f') return Record::Face;
  return Record::Other;
}

/// A decimal number token -> float (as RecastDemo's atof, then to float). False if the token is
/// not entirely a finite number.
bool parseCoord(const char* b, const char* e, float* out) {
  if (b < e && *b == '+') ++b;
  double d = 0;
  const std::from_chars_result r = std::from_chars(b, e, d, std::chars_format::general);
  if (r.ec != std::errc() || r.ptr != e || !std::isfinite(d)) return false;
  const float f = float(d);
  if (!std::isfinite(f)) return false;
  *out = f;
  return true;
}

/// The vertex number of a face reference token ("a", "a/t", "a//n", "a/t/n"). False if it does
/// not start with an integer followed by '/' or the token's end.
bool parseRef(const char* b, const char* e, long long* out) {
  if (b < e && *b == '+') ++b;
  const std::from_chars_result r = std::from_chars(b, e, *out);
  return r.ec == std::errc() && r.ptr != b && (r.ptr == e || *r.ptr == '/');
}

} // namespace

namespace {

/// "N MiB" for sizes of a MiB or more, "N bytes" below (a limit set small, e.g. by a test).
std::string sizeText(long long bytes) {
  return bytes >= (1ll << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

/// Opens `path` for reading and checks its size against `maxBytes` (NO_OBJ_SIZE_LIMIT: none);
/// false with why = "<path>: problem".
bool openObj(const std::string& path, long long maxBytes, File* file, long long* bytes, std::string* why) {
  auto fail = [&](const std::string& msg) {
    if (why) *why = path + ": " + msg;
    return false;
  };
  file->reset(std::fopen(path.c_str(), "rb"));
  if (!*file) return fail("cannot open the file (missing or unreadable)");
  *bytes = -1;
  if (std::fseek(file->get(), 0, SEEK_END) == 0) {
    *bytes = std::ftell(file->get());
    if (maxBytes >= 0 && *bytes > maxBytes)
      return fail("file is " + sizeText(*bytes) + ", over the " + sizeText(maxBytes) + " OBJ size limit");
  }
  std::rewind(file->get());
  return true;
}

/// The parsing pass shared by loadObj and streamObj: every vertex and fan triangle to `sink`.
/// `path` names the input in messages.
bool parseObj(const std::string& path, ObjSource& source, long long fileBytes, ObjSink& sink, long long* vertCount,
              long long* triCount, std::string* why) {
  auto fail = [&](const std::string& msg) {
    if (why) *why = path + ": " + msg;
    return false;
  };
  long long nverts = 0, ntris = 0;
  long long maxRef = -1, maxRefLine = 0; // a face may refer forward: checked at the end
  LineReader lines(source);
  const char *b, *e, *rest;
  auto lineFail = [&](const std::string& msg) { return fail("line " + std::to_string(lines.line()) + ": " + msg); };
  long long lastBlock = -1;
  while (lines.next(&b, &e)) {
    if (lines.bytesRead() != lastBlock) {
      lastBlock = lines.bytesRead();
      if (!sink.progress(lastBlock, fileBytes)) return fail(sink.failure.empty() ? "stopped" : sink.failure);
    }
    const Record rec = classify(b, e, &rest);
    if (rec == Record::Vertex) {
      const char* p = rest;
      float xyz[3];
      for (int k = 0; k < 3; ++k) {
        p = skipBlank(p, e);
        const char* t = tokenEnd(p, e);
        if (p == t) return lineFail("a vertex needs three numbers (v x y z)");
        if (!parseCoord(p, t, &xyz[k])) return lineFail("vertex coordinate '" + std::string(p, t) + "' is not a finite number");
        p = t;
      }
      // Anything after x y z (w, or a colour) is not a position: ignored.
      if (nverts >= INT_MAX) return lineFail("more than " + std::to_string(INT_MAX) + " vertices, more than a bake takes");
      if (!sink.vertex(xyz)) return fail(sink.failure);
      ++nverts;
    } else if (rec == Record::Face) {
      const long long vertsSoFar = nverts;
      int first = -1, prev = -1, count = 0;
      for (const char* p = skipBlank(rest, e); p < e;) {
        const char* t = tokenEnd(p, e);
        long long ref = 0;
        if (!parseRef(p, t, &ref))
          return lineFail("face reference '" + std::string(p, t) + "' does not start with a vertex number");
        long long idx = 0;
        if (ref > 0) {
          idx = ref - 1;
          if (idx >= INT_MAX)
            return lineFail("face refers to vertex " + std::to_string(ref) + ", more than a bake takes");
          if (idx > maxRef) {
            maxRef = idx;
            maxRefLine = lines.line();
          }
        } else if (ref < 0) {
          idx = vertsSoFar + ref;
          if (idx < 0)
            return lineFail("relative face reference " + std::to_string(ref) + " reaches before the first vertex (" +
                            std::to_string(vertsSoFar) + " vertices so far)");
        } else {
          return lineFail("face reference 0 (OBJ vertex numbers start at 1)");
        }
        const int cur = int(idx);
        if (count == 0) first = cur;
        if (count >= 2) {
          if (ntris >= INT_MAX / 3) return lineFail("more than " + std::to_string(INT_MAX / 3) + " triangles, more than a bake takes");
          if (!sink.triangle(first, prev, cur)) return fail(sink.failure);
          ++ntris;
        }
        prev = cur;
        ++count;
        p = skipBlank(t, e);
      }
    }
  }
  if (lines.failed()) return fail(source.failure.empty() ? "read error" : source.failure);
  if (lines.tooLong())
    return fail("line " + std::to_string(lines.line() + 1) + " is longer than " +
                std::to_string(LineReader::MAX_LINE >> 20) + " MiB (not a text OBJ file?)");
  if (maxRef >= nverts)
    return fail("line " + std::to_string(maxRefLine) + ": face refers to vertex " + std::to_string(maxRef + 1) +
                ", but the file has " + std::to_string(nverts) + " vertices");
  if (ntris == 0) return fail("no triangles (" + std::to_string(nverts) + " vertices, no faces)");
  *vertCount = nverts;
  *triCount = ntris;
  return true;
}

/// loadObj's sink: straight into the arrays.
struct ArraySink : ObjSink {
  ObjMesh* m = nullptr;
  bool vertex(const float* xyz) override {
    m->verts.insert(m->verts.end(), xyz, xyz + 3);
    return true;
  }
  bool triangle(int a, int b, int c) override {
    m->tris.push_back(a);
    m->tris.push_back(b);
    m->tris.push_back(c);
    return true;
  }
};

} // namespace

bool loadObj(const std::string& path, ObjMesh* out, std::string* why, long long maxBytes) {
  auto fail = [&](const std::string& msg) {
    if (why) *why = path + ": " + msg;
    return false;
  };
  File file;
  long long bytes = 0;
  if (!openObj(path, maxBytes, &file, &bytes, why)) return false;

  // Pass 1: count vertices and fan triangles, so the arrays are allocated once at their size.
  size_t nverts = 0, ntris = 0;
  {
    FileSource source(file.get());
    LineReader lines(source);
    const char *b, *e, *rest;
    while (lines.next(&b, &e)) {
      const Record rec = classify(b, e, &rest);
      if (rec == Record::Vertex) {
        ++nverts;
      } else if (rec == Record::Face) {
        size_t refs = 0;
        for (const char* p = skipBlank(rest, e); p < e; p = skipBlank(tokenEnd(p, e), e)) ++refs;
        if (refs >= 3) ntris += refs - 2;
      }
    }
    if (lines.failed()) return fail("read error");
    if (lines.tooLong())
      return fail("line " + std::to_string(lines.line() + 1) + " is longer than " +
                  std::to_string(LineReader::MAX_LINE >> 20) + " MiB (not a text OBJ file?)");
  }
  if (nverts > size_t(INT_MAX) || ntris > size_t(INT_MAX / 3))
    return fail(std::to_string(nverts) + " vertices and " + std::to_string(ntris) + " triangles are more than a bake takes");

  // Pass 2: parse into the arrays.
  ObjMesh m;
  m.verts.reserve(nverts * 3);
  m.tris.reserve(ntris * 3);
  std::rewind(file.get());
  FileSource source(file.get());
  ArraySink sink;
  sink.m = &m;
  long long nv = 0, nt = 0;
  if (!parseObj(path, source, bytes, sink, &nv, &nt, why)) return false;
  *out = std::move(m);
  return true;
}

bool streamObj(const std::string& path, ObjSink& sink, long long* vertCount, long long* triCount, std::string* why,
               long long maxBytes) {
  File file;
  long long bytes = 0;
  if (!openObj(path, maxBytes, &file, &bytes, why)) return false;
  FileSource source(file.get());
  return streamObj(path, source, bytes, sink, vertCount, triCount, why);
}

bool streamObj(const std::string& name, ObjSource& source, long long sourceBytes, ObjSink& sink, long long* vertCount,
               long long* triCount, std::string* why) {
  long long nv = 0, nt = 0;
  if (!parseObj(name, source, sourceBytes, sink, &nv, &nt, why)) return false;
  if (vertCount) *vertCount = nv;
  if (triCount) *triCount = nt;
  return true;
}

bool streamObjText(const std::string& name, const char* text, size_t size, ObjSink& sink, long long* vertCount,
                   long long* triCount, std::string* why) {
  MemorySource source(text, size);
  return streamObj(name, source, (long long)size, sink, vertCount, triCount, why);
}

} // namespace nav::bake
