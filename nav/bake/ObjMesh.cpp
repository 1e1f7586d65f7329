#include "nav/bake/ObjMesh.h"
#include "nav/bake/ObjCheck.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <unordered_map>

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

using obj::classify;
using obj::Record;
using obj::skipBlank;
using obj::tokenEnd;

/// A name record (`o`, `g`, `usemtl`) on the line [b, e) that classify() called Other: applies it
/// to `cur`; true when it was one and changed a name. Lines are tested by their first character
/// before any keyword comparison, so the common records (vt, vn, s) cost one comparison.
bool readNameRecord(const char* b, const char* e, MeshGroup* cur) {
  b = skipBlank(b, e);
  if (b == e || (*b != 'o' && *b != 'g' && *b != 'u')) return false;
  std::string* field = nullptr;
  const char* rest = nullptr;
  bool clearMesh = false;
  if (obj::startsWith(b, e, "o")) {
    field = &cur->node;
    rest = b + 1;
    clearMesh = true;
  } else if (obj::startsWith(b, e, "g")) {
    field = &cur->mesh;
    rest = b + 1;
  } else if (obj::startsWith(b, e, "usemtl")) {
    field = &cur->material;
    rest = b + 6;
  } else {
    return false;
  }
  rest = skipBlank(rest, e);
  const char* end = e;
  while (end > rest && obj::isBlank(end[-1])) --end;
  bool changed = false;
  if (field->size() != size_t(end - rest) || field->compare(0, field->size(), rest, size_t(end - rest)) != 0) {
    field->assign(rest, end);
    changed = true;
  }
  if (clearMesh && !cur->mesh.empty()) {
    cur->mesh.clear();
    changed = true;
  }
  return changed;
}

} // namespace

namespace {

/// Opens `path` for reading and checks its size against `maxBytes` (NO_OBJ_SIZE_LIMIT: none);
/// false with why = "<path>: problem".
bool openObj(const std::string& path, long long maxBytes, File* file, long long* bytes, std::string* why) {
  auto fail = [&](const std::string& msg) {
    if (why) *why = obj::inFile(path, msg);
    return false;
  };
  file->reset(std::fopen(path.c_str(), "rb"));
  if (!*file) return fail(obj::cannotOpen());
  *bytes = -1;
  if (std::fseek(file->get(), 0, SEEK_END) == 0) {
    *bytes = std::ftell(file->get());
    if (maxBytes >= 0 && *bytes > maxBytes) return fail(obj::overSizeLimit(*bytes, maxBytes));
  }
  std::rewind(file->get());
  return true;
}

/// The parsing pass shared by loadObj and streamObj: every vertex and fan triangle to `sink`.
/// `path` names the input in messages.
bool parseObj(const std::string& path, ObjSource& source, long long fileBytes, ObjSink& sink, long long* vertCount,
              long long* triCount, std::string* why) {
  auto fail = [&](const std::string& msg) {
    if (why) *why = obj::inFile(path, msg);
    return false;
  };
  long long nverts = 0, ntris = 0;
  obj::FaceRefs refs; // a face may refer forward: checked at the end
  LineReader lines(source);
  const char *b, *e, *rest;
  std::string problem;
  auto lineFail = [&](const std::string& msg) {
    if (why) *why = obj::atLine(path, lines.line(), msg);
    return false;
  };
  long long lastBlock = -1;
  MeshGroup names; // the current o / g / usemtl
  while (lines.next(&b, &e)) {
    if (lines.bytesRead() != lastBlock) {
      lastBlock = lines.bytesRead();
      if (!sink.progress(lastBlock, fileBytes)) return fail(sink.failure.empty() ? "stopped" : sink.failure);
    }
    const Record rec = classify(b, e, &rest);
    if (rec == Record::Vertex) {
      float xyz[3];
      if (!obj::readVertex(rest, e, xyz, &problem)) return lineFail(problem);
      if (nverts >= INT_MAX) return lineFail(obj::tooManyVertices());
      if (!sink.vertex(xyz)) return fail(sink.failure);
      ++nverts;
    } else if (rec == Record::Face) {
      int first = -1, prev = -1, count = 0;
      for (const char* p = skipBlank(rest, e); p < e;) {
        const char* t = tokenEnd(p, e);
        int cur = 0;
        if (!refs.resolve(p, t, nverts, lines.line(), &cur, &problem)) return lineFail(problem);
        if (count == 0) first = cur;
        if (count >= 2) {
          if (ntris >= INT_MAX / 3) return lineFail(obj::tooManyTriangles());
          if (!sink.triangle(first, prev, cur)) return fail(sink.failure);
          ++ntris;
        }
        prev = cur;
        ++count;
        p = skipBlank(t, e);
      }
    } else if (readNameRecord(b, e, &names)) {
      if (!sink.names(names)) return fail(sink.failure);
    }
  }
  if (lines.failed()) return fail(source.failure.empty() ? obj::readError() : source.failure);
  if (lines.tooLong()) {
    if (why) *why = obj::atLine(path, lines.line() + 1, obj::lineTooLong(LineReader::MAX_LINE));
    return false;
  }
  long long badLine = 0;
  if (!refs.finish(nverts, &badLine, &problem)) {
    if (why) *why = obj::atLine(path, badLine, problem);
    return false;
  }
  if (ntris == 0) return fail(lines.bytesRead() == 0 ? obj::fileEmpty() : obj::noFaces(nverts));
  *vertCount = nverts;
  *triCount = ntris;
  return true;
}

/// loadObj's sink: straight into the arrays (and, with names, the groups).
struct ArraySink : ObjSink {
  ObjMesh* m = nullptr;
  bool readNames = false;
  size_t reserveTris = 0;
  uint32_t group = 0;
  bool vertex(const float* xyz) override {
    m->verts.insert(m->verts.end(), xyz, xyz + 3);
    return true;
  }
  bool triangle(int a, int b, int c) override {
    m->tris.push_back(a);
    m->tris.push_back(b);
    m->tris.push_back(c);
    if (!m->groups.empty()) m->triGroup.push_back(group);
    return true;
  }
  bool names(const MeshGroup& current) override {
    if (!readNames) return true;
    if (m->groups.empty()) { // the first name: the triangles before it carry no names
      m->groups.push_back(MeshGroup{});
      m->triGroup.reserve(reserveTris);
      m->triGroup.assign(m->tris.size() / 3, 0);
    }
    // A file switching back and forth between names reuses their entries.
    key.assign(current.node).append(1, '\0').append(current.mesh).append(1, '\0').append(current.material);
    const auto it = index.emplace(key, uint32_t(m->groups.size()));
    if (it.second) m->groups.push_back(current);
    group = it.first->second;
    return true;
  }
  std::unordered_map<std::string, uint32_t> index{{std::string(2, '\0'), 0}}; ///< names -> group
  std::string key;
};

} // namespace

bool loadObj(const std::string& path, ObjMesh* out, std::string* why, long long maxBytes, bool readNames) {
  auto fail = [&](const std::string& msg) {
    if (why) *why = obj::inFile(path, msg);
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
    if (lines.failed()) return fail(obj::readError());
    if (lines.tooLong()) {
      if (why) *why = obj::atLine(path, lines.line() + 1, obj::lineTooLong(LineReader::MAX_LINE));
      return false;
    }
  }
  if (nverts > size_t(INT_MAX) || ntris > size_t(INT_MAX / 3)) return fail(obj::tooBig((long long)nverts, (long long)ntris));

  // Pass 2: parse into the arrays.
  ObjMesh m;
  m.verts.reserve(nverts * 3);
  m.tris.reserve(ntris * 3);
  std::rewind(file.get());
  FileSource source(file.get());
  ArraySink sink;
  sink.m = &m;
  sink.readNames = readNames;
  sink.reserveTris = ntris;
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
