#include "app/Level.h"

#include <tiny_obj_loader.h>
#ifdef NAVBENCH_HAVE_BAKE_OBJ_READER
#include "nav/bake/ObjMesh.h"
#endif

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>

namespace navbench {

namespace {

// Reads the whole file in 4 MiB chunks; `tick(bytesRead)` after each returns false to cancel.
bool readFile(const std::string& path, std::string& out, std::string& error, bool& cancelled,
              const std::function<bool(long long)>& tick) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  const long long size = static_cast<long long>(in.tellg());
  in.seekg(0);
  if (size < 0 || !in) {
    error = path + ": read error";
    return false;
  }
  out.resize(size_t(size));
  constexpr long long CHUNK = 4ll << 20;
  for (long long at = 0; at < size;) {
    const long long n = std::min(CHUNK, size - at);
    in.read(&out[size_t(at)], std::streamsize(n));
    if (in.gcount() != std::streamsize(n)) {
      error = path + ": read error";
      return false;
    }
    at += n;
    if (!tick(at)) {
      cancelled = true;
      return false;
    }
  }
  return true;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

struct Token {
  const char* b;
  const char* e;
  std::string str() const { return std::string(b, e); }
};

// The whitespace-separated tokens of one line after its keyword, into `out` (reused: no allocation
// per line once it has grown).
void tokens(const char* s, const char* end, std::vector<Token>& out) {
  out.clear();
  while (s < end) {
    while (s < end && isSpace(*s)) ++s;
    const char* b = s;
    while (s < end && !isSpace(*s)) ++s;
    if (s > b) out.push_back({b, s});
  }
}

bool startsWith(const char* s, const char* end, const char* word) {
  const size_t n = std::strlen(word);
  return size_t(end - s) > n && std::memcmp(s, word, n) == 0 && isSpace(s[n]);
}

// Validates what tinyobjloader would accept silently: non-finite or malformed vertices ("nan" reads
// as 0), zero or out-of-range face indices. Counts 'v' and 'f' records; `materials` tells whether
// the file has usemtl/mtllib records. Fed the file's bytes in pieces of any size (feed), in order,
// then finish(): lines are split at '\n' across the pieces, so the result does not depend on how
// the file was cut. Memory: the unfinished last line of a piece, and the forward face references.
class Prescan {
public:
  explicit Prescan(const std::string& path) : m_path(path) {}

  int vertCount = 0, faceCount = 0;
  bool materials = false;
  std::string error; ///< The first problem, "<path>: line N: ...", once feed or finish returned false.

  /// The next bytes of the file (no '\0' in them: the caller checks for binary data first).
  bool feed(const char* data, size_t n) {
    const char* p = data;
    const char* end = data + n;
    if (!m_carry.empty()) { // the line left unfinished by the last piece
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
      if (!nl) {
        m_carry.append(p, end);
        return true;
      }
      m_carry.append(p, nl);
      p = nl + 1;
      if (!line(m_carry.data(), m_carry.data() + m_carry.size())) return false;
      m_carry.clear();
    }
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
      if (!nl) {
        m_carry.assign(p, end);
        break;
      }
      if (!line(p, nl)) return false;
      p = nl + 1;
    }
    return true;
  }

  /// After the last piece: the last line if it has no line end, then the face references that
  /// were ahead of the vertices read at their line against the file's vertex count.
  bool finish() {
    if (!m_carry.empty()) {
      if (!line(m_carry.data(), m_carry.data() + m_carry.size())) return false;
      m_carry.clear();
    }
    for (const FaceRef& r : m_forward) {
      if (r.index > vertCount) {
        error = m_path + ": line " + std::to_string(r.line) + ": face index " + std::to_string(r.index) +
                " out of range (the file has " + std::to_string(vertCount) + " vertices)";
        return false;
      }
    }
    return true;
  }

private:
  // One line [s, end) without its '\n'. *end is the '\n' or, for a line kept in m_carry, the
  // string's '\0': either stops strtod/strtol at the end of the last token at the latest.
  bool line(const char* s, const char* end) {
    ++m_lineNo;
    const int lineNo = m_lineNo;
    while (s < end && isSpace(*s)) ++s;
    if (!materials && (startsWith(s, end, "usemtl") || startsWith(s, end, "mtllib"))) materials = true;
    if (end - s < 2 || !isSpace(s[1])) return true;
    if (s[0] == 'v') {
      tokens(s + 1, end, m_tok);
      if (m_tok.size() < 3) {
        error = m_path + ": line " + std::to_string(lineNo) + ": vertex has fewer than 3 coordinates";
        return false;
      }
      for (int k = 0; k < 3; ++k) {
        const Token& t = m_tok[size_t(k)];
        char* stop = nullptr;
        double v = std::strtod(t.b, &stop);
        if (stop == t.b || stop != t.e) {
          error = m_path + ": line " + std::to_string(lineNo) + ": vertex coordinate '" + t.str() + "' is not a number";
          return false;
        }
        if (!std::isfinite(v) || std::abs(v) > double(std::numeric_limits<float>::max())) {
          error = m_path + ": line " + std::to_string(lineNo) + ": vertex coordinate '" + t.str() +
                  "' is not a finite number";
          return false;
        }
      }
      ++vertCount;
    } else if (s[0] == 'f') {
      tokens(s + 1, end, m_tok);
      if (m_tok.size() < 3) {
        error = m_path + ": line " + std::to_string(lineNo) + ": face has fewer than 3 vertices";
        return false;
      }
      if (m_tok.size() > 255) {
        error = m_path + ": line " + std::to_string(lineNo) + ": face has more than 255 vertices (tinyobjloader's limit)";
        return false;
      }
      for (const Token& t : m_tok) {
        char* stop = nullptr;
        long idx = std::strtol(t.b, &stop, 10);
        if (stop == t.b || (stop != t.e && *stop != '/')) {
          error = m_path + ": line " + std::to_string(lineNo) + ": face index '" + t.str() + "' is not an integer";
          return false;
        }
        if (idx == 0) {
          error = m_path + ": line " + std::to_string(lineNo) + ": face index 0 is invalid (OBJ indices start at 1)";
          return false;
        }
        if (idx < 0 && idx < -long(vertCount)) { // not -idx: strtol saturates at LONG_MIN (fuzz_obj_level)
          error = m_path + ": line " + std::to_string(lineNo) + ": face index " + std::to_string(idx) +
                  " out of range (only " + std::to_string(vertCount) + " vertices before this line)";
          return false;
        }
        if (idx > std::numeric_limits<int>::max()) idx = std::numeric_limits<int>::max();
        // A positive index up to the vertices read so far is in range whatever follows; only the
        // ones ahead are kept for finish() (in file order, so it reports the first bad one).
        if (idx > vertCount) m_forward.push_back({lineNo, int(idx)});
      }
      ++faceCount;
    }
    return true;
  }

  struct FaceRef {
    int line, index;
  };
  std::string m_path;
  std::string m_carry;
  int m_lineNo = 0;
  std::vector<FaceRef> m_forward;
  std::vector<Token> m_tok;
};

void finishBounds(TriMesh& mesh) {
  mesh.boundsMin = glm::vec3(std::numeric_limits<float>::max());
  mesh.boundsMax = glm::vec3(-std::numeric_limits<float>::max());
  for (int i = 0, nv = mesh.vertCount(); i < nv; ++i) {
    mesh.boundsMin = glm::min(mesh.boundsMin, mesh.vert(i));
    mesh.boundsMax = glm::max(mesh.boundsMax, mesh.vert(i));
  }
}

#ifdef NAVBENCH_HAVE_BAKE_OBJ_READER
// The streaming reader's sink: vertices and triangles straight into the mesh arrays. Without
// counts up front (the one-pass load), an array that is full grows to its size projected over the
// whole file from the bytes parsed so far (at least by half), so it is allocated about once at its
// final size instead of doubling past it; with counts (reserve()) it never grows.
struct MeshSink : nav::bake::ObjSink {
  std::vector<float> verts;
  std::vector<int> tris;
  const long long* bytesRead = nullptr; ///< Bytes handed to the reader so far (for the projection).
  long long fileBytes = 0;
  std::function<bool(long long)> tick; ///< Per block read by streamObj (the parse's progress), if set.
  bool cancelled = false;

  template <class T> void room(std::vector<T>& v, size_t add) {
    const size_t need = v.size() + add;
    if (need <= v.capacity()) return;
    size_t want = need + need / 2;
    // The reader may still hold up to a block of what was handed to it: the bytes parsed are at
    // least that much less, so the projection errs high (untouched capacity costs no memory) rather
    // than low (another copy while both arrays are held).
    constexpr double kBlock = double(1 << 20);
    const double parsed = bytesRead ? double(*bytesRead) - kBlock : 0.0;
    if (parsed >= kBlock && double(fileBytes) > parsed)
      want = std::max(want, size_t(double(need) * double(fileBytes) / parsed * 1.02));
    v.reserve(want);
  }
  bool vertex(const float* xyz) override {
    room(verts, 3);
    verts.insert(verts.end(), xyz, xyz + 3);
    return true;
  }
  bool triangle(int a, int b, int c) override {
    room(tris, 3);
    tris.insert(tris.end(), {a, b, c});
    return true;
  }
  bool progress(long long read, long long) override {
    if (!tick || tick(read)) return true;
    cancelled = true;
    failure = "loading cancelled";
    return false;
  }
};

// The one-pass load's source: the file in blocks, each checked for binary data and prescanned
// (Prescan: the viewer's own checks, counts and the materials test) before the reader parses it,
// with the progress reports and the cancel. It stops the reading (-1) at binary data, a prescan
// problem, a usemtl/mtllib record, a read error or a cancel; `cancelled` tells the last apart.
struct CheckingSource : nav::bake::ObjSource {
  CheckingSource(std::FILE* f, Prescan& p, std::function<bool(long long)> t) : file(f), prescan(p), tick(std::move(t)) {}
  std::FILE* file;
  Prescan& prescan;
  std::function<bool(long long)> tick; ///< Bytes handed over so far (parsed by now); false cancels.
  long long handedOut = 0;
  bool cancelled = false, stopped = false, atEnd = false;

  long long stop(const std::string& why) {
    stopped = true;
    failure = why;
    return -1;
  }
  long long read(char* dst, size_t n) override {
    if (stopped) return -1;
    if (atEnd) return 0;
    if (handedOut > 0 && !tick(handedOut)) {
      cancelled = true;
      return stop("loading cancelled");
    }
    const size_t got = std::fread(dst, 1, n, file);
    if (got == 0) {
      if (std::ferror(file)) return stop("read error");
      atEnd = true;
      if (!prescan.finish()) return stop(prescan.error);
      return 0;
    }
    if (std::memchr(dst, 0, got)) return stop("binary data");
    if (!prescan.feed(dst, got)) return stop(prescan.error);
    if (prescan.materials) return stop("materials");
    handedOut += (long long)got;
    return (long long)got;
  }
};

enum class OnePass { Loaded, Cancelled, Other };

// The load of an OBJ without materials in one pass over the file: read, checked as prescan checks
// it and parsed by nav_bake's streaming reader block by block, so the file is read once and never
// held whole. Loaded: `mesh` is the file's mesh, exactly what reading it whole, prescanning it and
// parsing it would give (the same bytes through the same checks and the same parser). Other: the
// file has materials, or something is wrong with it (or it could not be read): the caller loads it
// the checked way, which gives the error message (so messages and their precedence are unchanged).
OnePass loadOnePass(const std::string& path, long long bytes, TriMesh& mesh,
                    const std::function<bool(long long)>& tick) {
  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) return OnePass::Other;
  Prescan prescan(path);
  CheckingSource source(file.get(), prescan, tick);
  MeshSink sink;
  sink.bytesRead = &source.handedOut;
  sink.fileBytes = bytes;
  std::string why;
  long long readVerts = 0, readTris = 0;
  const bool ok = nav::bake::streamObj(path, source, bytes, sink, &readVerts, &readTris, &why);
  if (source.cancelled) return OnePass::Cancelled;
  // A file whose '\n' lines hold no face (say one with CR line ends only: one line for prescan)
  // is refused by the checked way even when the reader, splitting at CR too, found triangles.
  if (!ok || prescan.faceCount == 0) return OnePass::Other;
  mesh.verts = std::move(sink.verts);
  mesh.tris = std::move(sink.tris);
  mesh.polygonCount = prescan.faceCount;
  // No index check here: streamObj hands over only indices in [0, vertices read): a positive
  // reference is refused at the end when over the vertex count, a negative one at its line when it
  // reaches before the first vertex (idx = vertices so far + ref, ref < 0), 0 is refused; and the
  // sink keeps every vertex it is given, so mesh.vertCount() is that count.
  return OnePass::Loaded;
}
#endif

bool loadObjBody(const std::string& path, TriMesh& out, std::string& error, const LoadProgress& progress,
                 bool& cancelled, long long maxBytes) {
  std::string text;
  long long bytes = 0;
  {
    std::ifstream probe(path, std::ios::binary | std::ios::ate);
    bytes = probe ? static_cast<long long>(probe.tellg()) : 0;
    if (maxBytes >= 0 && bytes > maxBytes) {
      auto size = [](long long n) {
        return n >= (1ll << 20) ? std::to_string(n >> 20) + " MiB" : std::to_string(n) + " bytes";
      };
      error = path + ": file is " + size(bytes) + ", over the " + size(maxBytes) + " OBJ size limit";
      return false;
    }
  }
  // Work units: reading (bytes), validating (bytes), parsing (bytes). The one-pass load does all
  // three per block: 3 units per byte read.
  const long long total = std::max(1ll, 3 * bytes);
  long long reported = 0;
  auto report = [&](long long done) {
    done = std::min(std::max(done, reported), total); // monotonic, at most total
    reported = done;
    return !progress || progress(done, total);
  };
  // Both parsers end alike: bounds, the last progress report (it may cancel), the mesh handed over.
  auto finish = [&](TriMesh& mesh) {
    finishBounds(mesh);
    if (!report(total)) {
      cancelled = true;
      return false;
    }
    out = std::move(mesh);
    return true;
  };

#ifdef NAVBENCH_HAVE_BAKE_OBJ_READER
  {
    TriMesh mesh;
    switch (loadOnePass(path, bytes, mesh, [&](long long n) { return report(std::min(3 * n, total - 1)); })) {
    case OnePass::Loaded: return finish(mesh);
    case OnePass::Cancelled: cancelled = true; return false;
    case OnePass::Other: break; // materials, or an error to name: the checked way below
    }
  }
#endif

  // The checked way: the whole text read, checked (binary data, prescan), then parsed.
  if (!readFile(path, text, error, cancelled, [&](long long n) { return report(n); })) return false;
  if (text.empty()) {
    error = path + ": file is empty";
    return false;
  }
  if (text.find('\0') != std::string::npos) {
    error = path + ": not an OBJ file (binary data)";
    return false;
  }
  Prescan prescan(path);
  for (size_t at = 0; at < text.size();) { // 1 MiB at a time between progress reports
    const size_t n = std::min(text.size() - at, size_t(1) << 20);
    if (at > 0 && !report(bytes + (long long)at)) {
      cancelled = true;
      return false;
    }
    if (!prescan.feed(text.data() + at, n)) {
      error = prescan.error;
      return false;
    }
    at += n;
  }
  if (!prescan.finish()) {
    error = prescan.error;
    return false;
  }
  const int vertCount = prescan.vertCount, faceCount = prescan.faceCount;
  if (!report(2 * bytes)) {
    cancelled = true;
    return false;
  }
  if (vertCount == 0 && faceCount == 0) {
    error = path + ": not an OBJ file (no 'v' or 'f' records)";
    return false;
  }
  if (faceCount == 0) {
    error = path + ": OBJ has no faces (" + std::to_string(vertCount) + " vertices)";
    return false;
  }

#ifdef NAVBENCH_HAVE_BAKE_OBJ_READER
  if (!prescan.materials) {
    // No materials to keep, yet the one-pass load did not take it (a problem only the reader
    // finds, e.g. a coordinate it does not parse, or a read error the first time): the reader parses
    // the text already read (its message names the file as a read from disk would).
    MeshSink sink;
    sink.verts.reserve(size_t(vertCount) * 3);
    sink.tris.reserve(size_t(faceCount) * 3); // at least one triangle per face
    sink.tick = [&](long long n) { return report(2 * bytes + std::min(n, bytes - 1)); };
    std::string why;
    long long readVerts = 0, readTris = 0;
    const bool ok = nav::bake::streamObjText(path, text.data(), text.size(), sink, &readVerts, &readTris, &why);
    text = std::string();
    if (!ok) {
      if (sink.cancelled) {
        cancelled = true;
        return false;
      }
      error = why.rfind(path, 0) == 0 ? why : path + ": " + why;
      return false;
    }
    TriMesh mesh;
    mesh.verts = std::move(sink.verts);
    mesh.tris = std::move(sink.tris);
    mesh.polygonCount = faceCount;
    // No index check: streamObj's checks cover it (see loadOnePass).
    return finish(mesh);
  }
#endif

  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  std::istringstream in(text);
  // .mtl files are looked up next to the OBJ. triangulate = false: we fan-triangulate ourselves.
  std::string baseDir = path.substr(0, path.find_last_of('/') + 1);
  tinyobj::MaterialFileReader mtlReader(baseDir);
  bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &in, &mtlReader, false);
  if (!ok) {
    while (!err.empty() && err.back() == '\n') err.pop_back();
    error = path + ": " + (err.empty() ? std::string("tinyobjloader could not parse the file") : err);
    return false;
  }

  TriMesh mesh;
  mesh.verts.assign(attrib.vertices.begin(), attrib.vertices.end());
  const int nv = mesh.vertCount();
  for (const tinyobj::material_t& mat : materials)
    mesh.materialColors.emplace_back(mat.diffuse[0], mat.diffuse[1], mat.diffuse[2]);
  bool anyMaterial = false;
  for (const tinyobj::shape_t& shape : shapes) {
    size_t at = 0;
    for (size_t f = 0; f < shape.mesh.num_face_vertices.size(); ++f) {
      const size_t fv = shape.mesh.num_face_vertices[f];
      int mat = f < shape.mesh.material_ids.size() ? shape.mesh.material_ids[f] : -1;
      if (mat < 0 || mat >= int(mesh.materialColors.size())) mat = -1;
      anyMaterial |= mat >= 0;
      if (at + fv > shape.mesh.indices.size()) break;
      ++mesh.polygonCount;
      for (size_t k = 1; k + 1 < fv; ++k) {
        int a = shape.mesh.indices[at].vertex_index, b = shape.mesh.indices[at + k].vertex_index,
            c = shape.mesh.indices[at + k + 1].vertex_index;
        if (a < 0 || b < 0 || c < 0 || a >= nv || b >= nv || c >= nv) {
          error = path + ": face index out of range (the file has " + std::to_string(nv) + " vertices)";
          return false;
        }
        mesh.tris.insert(mesh.tris.end(), {a, b, c});
        mesh.triMaterial.push_back(mat);
      }
      at += fv;
    }
  }
  if (mesh.tris.empty()) {
    error = path + ": OBJ has no faces";
    return false;
  }
  if (!anyMaterial) {
    mesh.triMaterial.clear();
    mesh.materialColors.clear();
  }
  return finish(mesh);
}

} // namespace

bool loadObj(const std::string& path, TriMesh& out, std::string& error) {
  return loadObj(path, out, error, LoadProgress()) == LoadResult::Ok;
}

LoadResult loadObj(const std::string& path, TriMesh& out, std::string& error, const LoadProgress& progress,
                   long long maxBytes) {
  bool cancelled = false;
  if (loadObjBody(path, out, error, progress, cancelled, maxBytes)) return LoadResult::Ok;
  if (cancelled) {
    error = path + ": loading cancelled";
    return LoadResult::Cancelled;
  }
  return LoadResult::Failed;
}

const char* loadPhaseLabel(LoadPhase phase) {
  switch (phase) {
  case LoadPhase::Reading: return "Reading...";
  case LoadPhase::Parsing: return "Parsing...";
  case LoadPhase::Triangles: return "Setting up triangles...";
  case LoadPhase::Bvh: return "Building BVH...";
  case LoadPhase::Lod: return "Building LOD...";
  }
  return "";
}

float loadPhaseStart(LoadPhase phase) {
  switch (phase) {
  case LoadPhase::Reading: return 0.0f;
  case LoadPhase::Parsing: return 0.33f;
  case LoadPhase::Triangles: return 0.52f;
  case LoadPhase::Bvh: return 0.58f;
  case LoadPhase::Lod: return 0.58f; // built alongside the BVH: the same stretch of the bar
  }
  return 0.0f;
}

bool Level::load(const std::string& path, std::string& error) { return load(path, error, LevelProgress()) == LoadResult::Ok; }

LoadResult Level::load(const std::string& path, std::string& error, const LevelProgress& progress) {
  TriMesh mesh;
  // loadObj's units: reading and validating are the first two thirds, the parse the last third
  // (the one-pass load reports 3 units per byte read: Reading, then Parsing for the last third of
  // the file; tinyobjloader's parse is reported when done).
  const float readEnd = loadPhaseStart(LoadPhase::Parsing), parseEnd = loadPhaseStart(LoadPhase::Triangles);
  float last = -1.0f;
  LoadPhase lastPhase = LoadPhase::Reading;
  auto tell = [&](LoadPhase phase, float f) { // monotonic, and no repeats
    f = std::max(f, std::max(last, 0.0f));
    if (f == last && phase == lastPhase) return true;
    last = f;
    lastPhase = phase;
    return !progress || progress(phase, f);
  };
  const LoadResult r = loadObj(path, mesh, error, [&](long long done, long long total) {
    const long long readTotal = total / 3 * 2; // total = 3 * bytes
    if (done >= total) return tell(LoadPhase::Parsing, parseEnd);
    if (done >= readTotal) // the parse (the streaming reader reports its blocks; tinyobjloader nothing)
      return tell(LoadPhase::Parsing,
                  readEnd + (parseEnd - readEnd) * float(double(done - readTotal) / double(std::max(1ll, total - readTotal))));
    return tell(LoadPhase::Reading, readEnd * float(double(done) / double(std::max(1ll, readTotal))));
  });
  if (r != LoadResult::Ok) return r;
  if (!build(mesh, path, [&](LoadPhase phase, float f) { return tell(phase, f); })) {
    error = path + ": loading cancelled";
    return LoadResult::Cancelled;
  }
  tell(LoadPhase::Lod, 1.0f); // the end, once; the Level is already replaced, so no cancel here
  return LoadResult::Ok;
}

void Level::set(TriMesh mesh, const std::string& name) { build(mesh, name, LevelProgress()); }

bool Level::build(TriMesh& mesh, const std::string& name, const LevelProgress& progress) {
  // The BVH on this thread, the LOD on a second one (they only read the mesh); progress is
  // reported from this thread only.
  const float start = loadPhaseStart(LoadPhase::Triangles), bvhStart = loadPhaseStart(LoadPhase::Bvh);
  constexpr float kBvhWeight = 0.7f; // of the BVH + LOD stretch: the BVH takes ~2-3x as long
  std::atomic<bool> cancel{false};
  std::atomic<float> lodFraction{0.0f};
  LevelLod lod;
  std::thread lodThread([&] {
    buildLevelLod(mesh, lod, [&](float f) {
      lodFraction = f;
      return !cancel.load();
    });
    lodFraction = 1.0f;
  });
  struct Joiner { // also on an exception (bad_alloc) from the BVH build: stop and join the LOD thread
    std::thread& thread;
    std::atomic<bool>& stop;
    ~Joiner() {
      if (thread.joinable()) {
        stop = true;
        thread.join();
      }
    }
  } joiner{lodThread, cancel};
  float bvhFraction = 0.0f;
  auto combined = [&](float bvh) {
    const float setup = TriBvh::kSetupShare;
    if (bvh < setup) return std::pair<LoadPhase, float>(LoadPhase::Triangles, start + (bvhStart - start) * bvh / setup);
    const float b = (bvh - setup) / (1.0f - setup);
    const float f = bvhStart + (1.0f - bvhStart) * (kBvhWeight * b + (1.0f - kBvhWeight) * lodFraction.load());
    return std::pair<LoadPhase, float>(b < 1.0f ? LoadPhase::Bvh : LoadPhase::Lod, std::min(f, 0.999f));
  };
  TriBvh bvh;
  const bool built = bvh.build(mesh.verts, mesh.tris, [&](float f) {
    bvhFraction = f;
    if (!progress) return true;
    const auto [phase, at] = combined(f);
    return progress(phase, at);
  });
  if (!built) cancel = true;
  while (progress && built && !cancel.load() && lodFraction.load() < 1.0f) { // the LOD still going: keep the bar moving
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (progress) {
      const auto [phase, at] = combined(bvhFraction);
      if (!progress(phase, at)) cancel = true;
    }
  }
  lodThread.join();
  if (cancel.load()) return false;
  m_mesh = std::move(mesh);
  m_path = name;
  m_bvh = std::move(bvh);
  m_lod = std::move(lod);
  return true;
}

LevelLoader::~LevelLoader() {
  cancel();
  if (m_thread.joinable()) m_thread.join();
}

void LevelLoader::start(const std::string& path, const std::string& tag) {
  cancel();
  if (m_thread.joinable()) m_thread.join();
  m_cancel = false;
  m_finished = false;
  m_fraction = 0.0f;
  m_shown = 0.0f;
  m_phase = int(LoadPhase::Reading);
  m_readMs = 0.0;
  m_parseStartMs = 0.0;
  m_path = path;
  m_tag = tag;
  m_error.clear();
  m_level = Level{};
  m_result = LoadResult::Failed;
  m_start = std::chrono::steady_clock::now();
  m_thread = std::thread([this] {
    m_result = m_level.load(m_path, m_error, [this](LoadPhase phase, float f) {
      if (phase == LoadPhase::Parsing && LoadPhase(m_phase.load()) == LoadPhase::Reading) {
        m_readMs = elapsedMs();
        m_parseStartMs = elapsedMs();
      }
      m_fraction = f;
      m_phase = int(phase);
      return !m_cancel.load();
    });
    if (m_result == LoadResult::Ok) m_fraction = 1.0f;
    m_finished = true;
  });
}

float LevelLoader::fraction() const {
  float f = m_fraction.load();
  if (LoadPhase(m_phase.load()) == LoadPhase::Parsing && f <= loadPhaseStart(LoadPhase::Parsing)) {
    // No reports from inside the parser (tinyobjloader, for OBJs with materials): move on by the
    // expected parse time, slowing down towards 90 % of the parse's stretch.
    const double expected = std::max(1.0, m_readMs.load() * kParseOverRead);
    const double t = std::max(0.0, elapsedMs() - m_parseStartMs.load());
    const float a = loadPhaseStart(LoadPhase::Parsing), b = loadPhaseStart(LoadPhase::Triangles);
    f = std::max(f, a + (b - a) * 0.9f * float(1.0 - std::exp(-t / expected)));
  }
  f = std::clamp(f, 0.0f, 1.0f);
  // Never backwards (the estimate above and the real reports come from two sources).
  float shown = m_shown.load();
  while (f > shown && !m_shown.compare_exchange_weak(shown, f)) {}
  return std::max(f, shown);
}

double LevelLoader::elapsedMs() const {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
}

LoadResult LevelLoader::take(Level& level, std::string& error) {
  if (!m_thread.joinable()) {
    error = "no level load in progress";
    return LoadResult::Failed;
  }
  m_thread.join();
  if (m_result == LoadResult::Ok) {
    level = std::move(m_level);
  } else {
    error = m_error;
  }
  m_level = Level{};
  return m_result;
}

void Level::clear() {
  m_mesh = TriMesh{};
  m_path.clear();
  m_bvh.clear();
  m_lod.clear();
}

} // namespace navbench
