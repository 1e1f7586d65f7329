#include "app/Level.h"

#include "nav/bake/ObjCheck.h"

#include <tiny_obj_loader.h>
#ifdef NAVBENCH_HAVE_BAKE_OBJ_READER
#include "nav/bake/LevelMesh.h"
#include "nav/bake/ObjMesh.h"
#endif

#include <algorithm>
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

namespace obj = nav::bake::obj;

// Reads the whole file in 4 MiB chunks; `tick(bytesRead)` after each returns false to cancel.
bool readFile(const std::string& path, std::string& out, std::string& error, bool& cancelled,
              const std::function<bool(long long)>& tick) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    error = obj::inFile(path, obj::cannotOpen());
    return false;
  }
  const long long size = static_cast<long long>(in.tellg());
  in.seekg(0);
  if (size < 0 || !in) {
    error = obj::inFile(path, obj::readError());
    return false;
  }
  out.resize(size_t(size));
  constexpr long long CHUNK = 4ll << 20;
  for (long long at = 0; at < size;) {
    const long long n = std::min(CHUNK, size - at);
    in.read(&out[size_t(at)], std::streamsize(n));
    if (in.gcount() != std::streamsize(n)) {
      error = obj::inFile(path, obj::readError());
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
  std::string error; ///< The first problem, "<path>:<line>: ...", once feed or finish returned false.

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
    long long badLine = 0;
    std::string problem;
    if (!m_refs.finish(vertCount, &badLine, &problem)) {
      error = obj::atLine(m_path, badLine, problem);
      return false;
    }
    return true;
  }

private:
  // One line [s, end) without its '\n' ('\r' is a blank: a file with CR line ends only is one
  // line here). The checks and messages are nav/bake/ObjCheck.h's, the bake's own.
  bool line(const char* s, const char* end) {
    ++m_lineNo;
    auto fail = [&](const std::string& problem) {
      error = obj::atLine(m_path, m_lineNo, problem);
      return false;
    };
    if (!materials && (obj::startsWith(s, end, "usemtl") || obj::startsWith(s, end, "mtllib"))) materials = true;
    const char* rest = nullptr;
    const obj::Record rec = obj::classify(s, end, &rest);
    std::string problem;
    if (rec == obj::Record::Vertex) {
      float xyz[3];
      if (!obj::readVertex(rest, end, xyz, &problem)) return fail(problem);
      if (vertCount >= INT_MAX) return fail(obj::tooManyVertices());
      ++vertCount;
    } else if (rec == obj::Record::Face) {
      int refs = 0;
      for (const char* p = obj::skipBlank(rest, end); p < end; p = obj::skipBlank(obj::tokenEnd(p, end), end)) ++refs;
      if (refs < 3) return fail(obj::faceTooShort());
      if (refs > kMaxFaceRefs) return fail(obj::faceTooLong(kMaxFaceRefs));
      for (const char* p = obj::skipBlank(rest, end); p < end;) {
        const char* t = obj::tokenEnd(p, end);
        int index = 0;
        if (!m_refs.resolve(p, t, vertCount, m_lineNo, &index, &problem)) return fail(problem);
        p = obj::skipBlank(t, end);
      }
      ++faceCount;
    }
    return true;
  }

  static constexpr int kMaxFaceRefs = 255; ///< tinyobjloader's limit on the vertices of a face
  std::string m_path;
  std::string m_carry;
  int m_lineNo = 0;
  obj::FaceRefs m_refs;
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
      error = obj::inFile(path, obj::overSizeLimit(bytes, maxBytes));
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
    error = obj::inFile(path, obj::fileEmpty());
    return false;
  }
  if (text.find('\0') != std::string::npos) {
    error = obj::inFile(path, obj::binaryData());
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
    error = obj::inFile(path, obj::noRecords());
    return false;
  }
  if (faceCount == 0) {
    error = obj::inFile(path, obj::noFaces(vertCount));
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
      error = why.rfind(path, 0) == 0 ? why : obj::inFile(path, why);
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
          const int bad = (a < 0 || a >= nv) ? a : (b < 0 || b >= nv) ? b : c;
          error = obj::inFile(path, obj::refOutOfRange((long long)bad + 1, nv));
          return false;
        }
        mesh.tris.insert(mesh.tris.end(), {a, b, c});
        mesh.triMaterial.push_back(mat);
      }
      at += fv;
    }
  }
  if (mesh.tris.empty()) {
    error = obj::inFile(path, obj::noFaces(nv));
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

LoadResult loadMesh(const std::string& path, TriMesh& out, std::string& error, const LoadProgress& progress,
                    long long maxBytes) {
#ifdef NAVBENCH_HAVE_BAKE_OBJ_READER
  if (nav::bake::meshFormatOf(path) == nav::bake::MeshFormat::Obj) return loadObj(path, out, error, progress, maxBytes);
  bool cancelled = false;
  nav::bake::LevelMesh lm;
  // The reader's units: total = 2 * file size, reading the first half.
  const bool ok = nav::bake::loadLevelMesh(path, &lm, &error, [&](long long done, long long total) {
    const long long size = total / 2;
    const long long d = done <= size ? 2 * done : 2 * size + (done - size);
    cancelled = progress && !progress(d, 3 * size);
    return !cancelled;
  });
  if (!ok) return cancelled ? (error = path + ": loading cancelled", LoadResult::Cancelled) : LoadResult::Failed;
  TriMesh mesh;
  mesh.verts = std::move(lm.verts);
  mesh.tris = std::move(lm.tris);
  mesh.polygonCount = mesh.triCount();
  mesh.notes = std::move(lm.notes);
  finishBounds(mesh);
  out = std::move(mesh);
  return LoadResult::Ok;
#else
  const std::string ext = path.size() >= 4 ? path.substr(path.size() - 4) : path;
  if (ext == "gltf" || ext == ".glb") return error = path + ": this build reads OBJ only (no nav_bake)", LoadResult::Failed;
  return loadObj(path, out, error, progress, maxBytes);
#endif
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
  const LoadResult r = loadMesh(path, mesh, error, [&](long long done, long long total) {
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
