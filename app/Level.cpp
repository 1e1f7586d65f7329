#include "app/Level.h"

#include <tiny_obj_loader.h>
#ifdef NAVBENCH_HAVE_BAKE_OBJ_READER
#include "nav/bake/ObjMesh.h"
#endif

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
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
// the file has usemtl/mtllib records. `text` ends with a '\0' (std::string), so strtod/strtol stop
// at the end of the last token at the latest.
bool prescan(const std::string& path, const std::string& text, int& vertCount, int& faceCount, bool& materials,
             std::string& error, bool& cancelled, const std::function<bool(long long)>& tick) {
  vertCount = faceCount = 0;
  materials = false;
  std::vector<Token> tok;
  struct FaceRef {
    int line, index;
  };
  std::vector<FaceRef> positive; // checked against the final vertex count
  size_t pos = 0;
  int lineNo = 0;
  size_t nextTick = size_t(1) << 20;
  while (pos < text.size()) {
    if (pos >= nextTick) {
      nextTick = pos + (size_t(1) << 20);
      if (!tick((long long)pos)) {
        cancelled = true;
        return false;
      }
    }
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    ++lineNo;
    const char* s = text.data() + pos;
    const char* end = text.data() + eol;
    pos = eol + 1;
    while (s < end && isSpace(*s)) ++s;
    if (!materials && (startsWith(s, end, "usemtl") || startsWith(s, end, "mtllib"))) materials = true;
    if (end - s < 2 || !isSpace(s[1])) continue;
    if (s[0] == 'v') {
      tokens(s + 1, end, tok);
      if (tok.size() < 3) {
        error = path + ": line " + std::to_string(lineNo) + ": vertex has fewer than 3 coordinates";
        return false;
      }
      for (int k = 0; k < 3; ++k) {
        const Token& t = tok[size_t(k)];
        char* stop = nullptr;
        double v = std::strtod(t.b, &stop);
        if (stop == t.b || stop != t.e) {
          error = path + ": line " + std::to_string(lineNo) + ": vertex coordinate '" + t.str() + "' is not a number";
          return false;
        }
        if (!std::isfinite(v) || std::abs(v) > double(std::numeric_limits<float>::max())) {
          error = path + ": line " + std::to_string(lineNo) + ": vertex coordinate '" + t.str() +
                  "' is not a finite number";
          return false;
        }
      }
      ++vertCount;
    } else if (s[0] == 'f') {
      tokens(s + 1, end, tok);
      if (tok.size() < 3) {
        error = path + ": line " + std::to_string(lineNo) + ": face has fewer than 3 vertices";
        return false;
      }
      if (tok.size() > 255) {
        error = path + ": line " + std::to_string(lineNo) + ": face has more than 255 vertices (tinyobjloader's limit)";
        return false;
      }
      for (const Token& t : tok) {
        char* stop = nullptr;
        long idx = std::strtol(t.b, &stop, 10);
        if (stop == t.b || (stop != t.e && *stop != '/')) {
          error = path + ": line " + std::to_string(lineNo) + ": face index '" + t.str() + "' is not an integer";
          return false;
        }
        if (idx == 0) {
          error = path + ": line " + std::to_string(lineNo) + ": face index 0 is invalid (OBJ indices start at 1)";
          return false;
        }
        if (idx < 0 && idx < -long(vertCount)) { // not -idx: strtol saturates at LONG_MIN (fuzz_obj_level)
          error = path + ": line " + std::to_string(lineNo) + ": face index " + std::to_string(idx) +
                  " out of range (only " + std::to_string(vertCount) + " vertices before this line)";
          return false;
        }
        if (idx > std::numeric_limits<int>::max()) idx = std::numeric_limits<int>::max();
        if (idx > 0) positive.push_back({lineNo, int(idx)});
      }
      ++faceCount;
    }
  }
  for (const FaceRef& r : positive) {
    if (r.index > vertCount) {
      error = path + ": line " + std::to_string(r.line) + ": face index " + std::to_string(r.index) +
              " out of range (the file has " + std::to_string(vertCount) + " vertices)";
      return false;
    }
  }
  return true;
}

void finishBounds(TriMesh& mesh) {
  mesh.boundsMin = glm::vec3(std::numeric_limits<float>::max());
  mesh.boundsMax = glm::vec3(-std::numeric_limits<float>::max());
  for (int i = 0, nv = mesh.vertCount(); i < nv; ++i) {
    mesh.boundsMin = glm::min(mesh.boundsMin, mesh.vert(i));
    mesh.boundsMax = glm::max(mesh.boundsMax, mesh.vert(i));
  }
}

bool loadObjBody(const std::string& path, TriMesh& out, std::string& error, const LoadProgress& progress,
                 bool& cancelled) {
  std::string text;
  long long bytes = 0;
  {
    std::ifstream probe(path, std::ios::binary | std::ios::ate);
    bytes = probe ? static_cast<long long>(probe.tellg()) : 0;
    if (bytes > MAX_OBJ_BYTES) {
      error = path + ": file is " + std::to_string(bytes >> 20) + " MiB, over the " +
              std::to_string(MAX_OBJ_BYTES >> 20) + " MiB OBJ size limit";
      return false;
    }
  }
  // Work units: reading (bytes), validating (bytes), parsing (bytes, reported when done).
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
  if (!readFile(path, text, error, cancelled, [&](long long n) { return report(n); })) return false;
  if (text.empty()) {
    error = path + ": file is empty";
    return false;
  }
  if (text.find('\0') != std::string::npos) {
    error = path + ": not an OBJ file (binary data)";
    return false;
  }
  int vertCount = 0, faceCount = 0;
  bool usesMaterials = false;
  if (!prescan(path, text, vertCount, faceCount, usesMaterials, error, cancelled,
               [&](long long n) { return report(bytes + n); }))
    return false;
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
  if (!usesMaterials) {
    // No materials to keep: the bake's streaming reader gives the same triangles (same fan, same
    // vertex order: tests/bake/ObjReaderTest.cpp) in a fraction of tinyobjloader's time and memory.
    text = std::string(); // the reader streams the file itself
    // Its blocks report the parse's progress (the last third of the work units).
    struct Sink : nav::bake::ObjSink {
      nav::bake::ObjMesh mesh;
      std::function<bool(long long)> tick;
      bool cancelled = false;
      bool vertex(const float* xyz) override {
        mesh.verts.insert(mesh.verts.end(), xyz, xyz + 3);
        return true;
      }
      bool triangle(int a, int b, int c) override {
        mesh.tris.insert(mesh.tris.end(), {a, b, c});
        return true;
      }
      bool progress(long long bytesRead, long long) override {
        if (tick(bytesRead)) return true;
        cancelled = true;
        failure = "loading cancelled";
        return false;
      }
    } sink;
    sink.mesh.verts.reserve(size_t(vertCount) * 3);
    sink.mesh.tris.reserve(size_t(faceCount) * 3); // at least one triangle per face
    sink.tick = [&](long long n) { return report(2 * bytes + std::min(n, bytes - 1)); };
    std::string why;
    long long readVerts = 0, readTris = 0;
    if (!nav::bake::streamObj(path, sink, &readVerts, &readTris, &why)) {
      if (sink.cancelled) {
        cancelled = true;
        return false;
      }
      error = why.rfind(path, 0) == 0 ? why : path + ": " + why;
      return false;
    }
    nav::bake::ObjMesh& obj = sink.mesh;
    TriMesh mesh;
    mesh.verts = std::move(obj.verts);
    mesh.tris = std::move(obj.tris);
    mesh.polygonCount = faceCount;
    const int nv = mesh.vertCount();
    for (int i : mesh.tris) {
      if (i < 0 || i >= nv) {
        error = path + ": face index out of range (the file has " + std::to_string(nv) + " vertices)";
        return false;
      }
    }
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

LoadResult loadObj(const std::string& path, TriMesh& out, std::string& error, const LoadProgress& progress) {
  bool cancelled = false;
  if (loadObjBody(path, out, error, progress, cancelled)) return LoadResult::Ok;
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
  // (reported when done).
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
