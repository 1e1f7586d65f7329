#include "nav/bake/StreamBake.h"

#include "nav/base/AtomicFile.h"
#include "nav/TileSetFile.h"
#include "nav/bake/BakeInternal.h"
#include "nav/bake/LevelFile.h"
#include "nav/bake/LevelMesh.h"
#include "nav/bake/ObjMesh.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <mutex>
#include <numeric>
#include <thread>
#include <unistd.h>

namespace nav::bake {

using namespace detail;

bool loadFileBakeInput(const std::string& path, FileBakeInput* input, BakeSettings* settings, std::string* why,
                       Level* level) {
  const bool isJson = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  FileBakeInput in;
  BakeSettings s;
  in.objPath = path;
  Level lv;
  lv.objPath = path;
  if (isJson) {
    if (!loadLevelFile(path, &lv, why)) return false;
    in.objPath = resolveObjPath(path, lv);
    s = lv.settings;
    in.volumes = lv.volumes;
    in.links = lv.links;
    in.areaRules = lv.areaRules;
  }
  if (::access(in.objPath.c_str(), R_OK) != 0) {
    const std::string msg = in.objPath + ": cannot open the file (missing or unreadable)";
    if (why) *why = isJson ? path + ": its OBJ " + msg : msg;
    return false;
  }
  *input = std::move(in);
  *settings = s;
  if (level) *level = std::move(lv);
  return true;
}

bool loadFileBakeMesh(const FileBakeInput& fin, BakeInput* out, std::string* why) {
  LevelMesh mesh;
  if (!loadLevelMesh(fin.objPath, &mesh, why)) return false;
  BakeInput in;
  in.verts = std::move(mesh.verts);
  in.tris = std::move(mesh.tris);
  if (!fin.areaRules.empty()) { // the names matter only to rules
    in.groups = std::move(mesh.groups);
    in.triGroup = std::move(mesh.triGroup);
    in.areaRules = fin.areaRules;
  }
  in.volumes = fin.volumes;
  in.links = fin.links;
  *out = std::move(in);
  return true;
}

namespace {

/// A temporary file, unlinked as soon as it is created (so it goes away with the process), read
/// and written at offsets. Errors name the path it had.
class TempFile {
public:
  TempFile() = default;
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (m_fd >= 0) ::close(m_fd);
  }
  bool create(const std::string& path, std::string* why) {
    m_path = path;
    m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (m_fd < 0) return fail(why, "cannot create the temporary file " + path + ": " + std::strerror(errno));
    ::unlink(path.c_str());
    return true;
  }
  bool write(const void* data, size_t n, long long offset, std::string* why) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
      const ssize_t w = ::pwrite(m_fd, p, n, off_t(offset));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        const int e = w < 0 ? errno : ENOSPC;
        return fail(why, "cannot write the temporary file " + m_path + ": " + std::strerror(e) +
                             (e == ENOSPC || e == EDQUOT || e == EFBIG ? " (the disk is full or the file too large; "
                                                                         "set another temporary folder)"
                                                                       : ""));
      }
      p += w;
      n -= size_t(w);
      offset += w;
      m_written += w;
    }
    return true;
  }
  bool read(void* data, size_t n, long long offset, std::string* why) const {
    char* p = static_cast<char*>(data);
    while (n > 0) {
      const ssize_t r = ::pread(m_fd, p, n, off_t(offset));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0)
        return fail(why, "cannot read the temporary file " + m_path + ": " + (r < 0 ? std::strerror(errno) : "short read"));
      p += r;
      n -= size_t(r);
      offset += r;
    }
    return true;
  }
  long long written() const { return m_written; }

private:
  static bool fail(std::string* why, const std::string& msg) {
    if (why) *why = msg;
    return false;
  }
  std::string m_path;
  int m_fd = -1;
  long long m_written = 0;
};

/// Appends fixed-size records to a TempFile through a 256 KiB buffer.
class Appender {
public:
  explicit Appender(TempFile* f) : m_file(f) { m_buf.reserve(BUF); }
  bool add(const void* p, size_t n, std::string* why) {
    if (m_buf.size() + n > BUF && !flush(why)) return false;
    const char* c = static_cast<const char*>(p);
    m_buf.insert(m_buf.end(), c, c + n);
    return true;
  }
  bool flush(std::string* why) {
    if (m_buf.empty()) return true;
    if (!m_file->write(m_buf.data(), m_buf.size(), m_size, why)) return false;
    m_size += (long long)m_buf.size();
    m_buf.clear();
    return true;
  }
  long long size() const { return m_size + (long long)m_buf.size(); }

private:
  static constexpr size_t BUF = size_t(256) << 10;
  TempFile* m_file;
  std::vector<char> m_buf;
  long long m_size = 0;
};

/// Pass 1's sink: vertices and triangles (with rules: and their rule codes) to their files,
/// bounds, progress and cancel.
struct ReadSink : ObjSink {
  Appender* verts = nullptr;
  Appender* tris = nullptr;
  const std::vector<AreaRule>* rules = nullptr; ///< Null or empty: no codes written
  int code = TRI_RULE_NONE;                     ///< The current names' rule code
  std::string* ioError = nullptr;
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
  long long nverts = 0;
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(long long, long long)> onProgress;
  bool vertex(const float* v) override {
    if (nverts == 0) {
      for (int k = 0; k < 3; ++k) bmin[k] = bmax[k] = v[k];
    } else {
      for (int k = 0; k < 3; ++k) {
        bmin[k] = std::min(bmin[k], v[k]);
        bmax[k] = std::max(bmax[k], v[k]);
      }
    }
    ++nverts;
    if (!verts->add(v, 3 * sizeof(float), ioError)) return stopIo();
    return true;
  }
  bool triangle(int a, int b, int c) override {
    const int t[4] = {a, b, c, code};
    if (!tris->add(t, hasRules() ? 4 * sizeof(int) : 3 * sizeof(int), ioError)) return stopIo();
    return true;
  }
  bool names(const MeshGroup& current) override {
    if (hasRules()) code = ruleCode(*rules, matchAreaRule(*rules, current));
    return true;
  }
  bool hasRules() const { return rules && !rules->empty(); }
  bool progress(long long done, long long total) override {
    if (cancel && cancel->load()) {
      failure = "cancelled";
      return false;
    }
    if (onProgress) onProgress(done, total);
    return true;
  }
  bool stopIo() {
    failure = *ioError;
    return false;
  }
};

/// Binning's view of the vertex file: an LRU cache of pages of VPAGE vertices.
class VertexCache {
public:
  static constexpr int VPAGE = 1024;
  VertexCache(const TempFile* f, long long nverts, size_t bytes) : m_file(f), m_nverts(nverts) {
    m_slots = std::max<size_t>(4, bytes / (VPAGE * 3 * sizeof(float)));
    const size_t pages = size_t((nverts + VPAGE - 1) / VPAGE);
    m_slots = std::min(m_slots, std::max<size_t>(1, pages));
    m_pageSlot.assign(pages, -1);
    m_data.resize(m_slots * VPAGE * 3);
    m_slotPage.assign(m_slots, -1);
    m_stamp.assign(m_slots, 0);
  }
  /// Position of vertex v (valid until the next call that misses). Null on a read error (why).
  const float* get(long long v, std::string* why) {
    ++lookups;
    const long long page = v / VPAGE;
    int s = m_pageSlot[size_t(page)];
    if (s < 0) {
      ++misses;
      if (m_used < m_slots) {
        s = int(m_used++);
      } else {
        s = int(std::min_element(m_stamp.begin(), m_stamp.end()) - m_stamp.begin());
        m_pageSlot[size_t(m_slotPage[size_t(s)])] = -1;
      }
      const long long first = page * VPAGE;
      const long long count = std::min<long long>(VPAGE, m_nverts - first);
      if (!m_file->read(&m_data[size_t(s) * VPAGE * 3], size_t(count) * 3 * sizeof(float), first * 3 * (long long)sizeof(float), why))
        return nullptr;
      m_pageSlot[size_t(page)] = s;
      m_slotPage[size_t(s)] = int(page);
    }
    m_stamp[size_t(s)] = ++m_clock;
    return &m_data[(size_t(s) * VPAGE + size_t(v - page * VPAGE)) * 3];
  }
  size_t memoryBytes() const {
    return m_data.capacity() * sizeof(float) + m_pageSlot.capacity() * sizeof(int) +
           m_slotPage.capacity() * sizeof(int) + m_stamp.capacity() * sizeof(uint64_t);
  }
  long long lookups = 0, misses = 0;

private:
  const TempFile* m_file;
  long long m_nverts;
  size_t m_slots = 0, m_used = 0;
  std::vector<int> m_pageSlot;
  std::vector<float> m_data;
  std::vector<int> m_slotPage;
  std::vector<uint64_t> m_stamp;
  uint64_t m_clock = 0;
};

/// A segment of one tile's records in the bin file: this header, then count x 9 floats.
struct SegmentHeader {
  int64_t prev;  ///< Offset of the tile's previous segment, -1 for the first.
  int32_t count; ///< Records (triangles) in this segment.
  int32_t tile;  ///< Tile index (a check when reading).
};
static_assert(sizeof(SegmentHeader) == 16, "segment header layout");
/// A triangle's record: its three positions, then (a level with area rules) its rule code as a float.
constexpr size_t RECORD_FLOATS = 9;
constexpr size_t RULE_RECORD_FLOATS = 10;

/// Pass 2's output: per-tile record chains in the bin file.
class Binner {
public:
  /// `recordFloats`: RECORD_FLOATS, or RULE_RECORD_FLOATS with rule codes.
  Binner(TempFile* f, int tiles, size_t bufferBytes, size_t recordFloats)
      : m_file(f), m_recFloats(recordFloats), m_recBytes(recordFloats * sizeof(float)) {
    m_cap = std::max<size_t>(64, bufferBytes / m_recBytes);
    m_recs.reserve(m_cap * m_recFloats);
    m_recTile.reserve(m_cap);
    m_last.assign(size_t(tiles), -1);
    m_count.assign(size_t(tiles), 0);
    m_runCount.assign(size_t(tiles), 0);
  }
  bool add(int tile, const float* rec, std::string* why) {
    if (m_recTile.size() == m_cap && !flush(why)) return false;
    m_recs.insert(m_recs.end(), rec, rec + m_recFloats);
    m_recTile.push_back(tile);
    return true;
  }
  /// Writes the gathered records as one run: per tile (ascending) a segment, records in arrival order.
  bool flush(std::string* why) {
    if (m_recTile.empty()) return true;
    m_touched.clear();
    for (int t : m_recTile)
      if (m_runCount[size_t(t)]++ == 0) m_touched.push_back(t);
    std::sort(m_touched.begin(), m_touched.end());
    // Layout of the run and each tile's write position in it.
    m_out.resize(m_touched.size() * sizeof(SegmentHeader) + m_recTile.size() * m_recBytes);
    m_pos.resize(m_touched.size());
    size_t at = 0;
    for (size_t i = 0; i < m_touched.size(); ++i) {
      const int t = m_touched[i];
      SegmentHeader h;
      h.prev = m_last[size_t(t)];
      h.count = m_runCount[size_t(t)];
      h.tile = t;
      std::memcpy(&m_out[at], &h, sizeof h);
      m_last[size_t(t)] = m_end + (long long)at;
      m_count[size_t(t)] += h.count;
      at += sizeof h;
      m_pos[i] = at;
      at += size_t(h.count) * m_recBytes;
      m_runCount[size_t(t)] = int(i); // now: the tile's index in m_touched
    }
    for (size_t r = 0; r < m_recTile.size(); ++r) {
      size_t& p = m_pos[size_t(m_runCount[size_t(m_recTile[r])])];
      std::memcpy(&m_out[p], &m_recs[r * m_recFloats], m_recBytes);
      p += m_recBytes;
    }
    for (int t : m_touched) m_runCount[size_t(t)] = 0;
    if (!m_file->write(m_out.data(), m_out.size(), m_end, why)) return false;
    m_end += (long long)m_out.size();
    m_entries += (long long)m_recTile.size();
    m_recs.clear();
    m_recTile.clear();
    return true;
  }
  /// Tile t's records in level order into out->verts (9 floats each), out->tris (0, 1, 2, ...)
  /// and, with rule codes, out->rules.
  bool read(int t, TileTriangles* out, std::string* why) const {
    const int n = m_count[size_t(t)];
    out->verts.resize(size_t(n) * m_recFloats);
    out->tris.resize(size_t(n) * 3);
    std::iota(out->tris.begin(), out->tris.end(), 0);
    int end = n; // segments come newest first: fill from the back
    for (long long seg = m_last[size_t(t)]; seg >= 0;) {
      SegmentHeader h;
      if (!m_file->read(&h, sizeof h, seg, why)) return false;
      if (h.tile != t || h.count <= 0 || h.count > end) {
        if (why) *why = "the temporary bin file is inconsistent at offset " + std::to_string(seg);
        return false;
      }
      end -= h.count;
      if (!m_file->read(&out->verts[size_t(end) * m_recFloats], size_t(h.count) * m_recBytes, seg + (long long)sizeof h, why))
        return false;
      seg = h.prev;
    }
    if (end != 0) {
      if (why) *why = "the temporary bin file is missing records of tile " + std::to_string(t);
      return false;
    }
    if (m_recFloats == RULE_RECORD_FLOATS) { // split off the codes, in place (front to back)
      out->rules.resize(size_t(n));
      for (size_t i = 0; i < size_t(n); ++i) {
        out->rules[i] = uint8_t(out->verts[i * RULE_RECORD_FLOATS + RECORD_FLOATS]);
        std::memmove(&out->verts[i * RECORD_FLOATS], &out->verts[i * RULE_RECORD_FLOATS], RECORD_FLOATS * sizeof(float));
      }
      out->verts.resize(size_t(n) * RECORD_FLOATS);
    }
    return true;
  }
  int count(int t) const { return m_count[size_t(t)]; }
  long long entries() const { return m_entries; }
  size_t memoryBytes() const {
    return m_recs.capacity() * sizeof(float) + m_recTile.capacity() * sizeof(int) + m_out.capacity() +
           m_pos.capacity() * sizeof(size_t) + m_touched.capacity() * sizeof(int) + m_last.capacity() * sizeof(int64_t) +
           (m_count.capacity() + m_runCount.capacity()) * sizeof(int);
  }
  /// Frees the gathering buffers (after the last flush).
  void releaseBuffers() {
    m_recs = std::vector<float>();
    m_recTile = std::vector<int>();
    m_out = std::vector<char>();
    m_pos = std::vector<size_t>();
    m_touched = std::vector<int>();
    m_runCount = std::vector<int>();
  }

private:
  TempFile* m_file;
  size_t m_recFloats, m_recBytes;
  size_t m_cap = 0;
  std::vector<float> m_recs;
  std::vector<int> m_recTile;
  std::vector<char> m_out;
  std::vector<size_t> m_pos;
  std::vector<int> m_touched;
  std::vector<int64_t> m_last;
  std::vector<int> m_count, m_runCount;
  long long m_end = 0, m_entries = 0;
};

std::string folderOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}
std::string baseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// Pass 1's reading: an OBJ streamed (no size limit), any other mesh loaded whole by
/// loadLevelMesh (glTF is binary: already compact) and handed to `sink` as the OBJ reader would.
bool readLevelInto(const std::string& path, ObjSink& sink, long long* nverts, long long* ntris, std::string* why) {
  if (meshFormatOf(path) == MeshFormat::Obj) return streamObj(path, sink, nverts, ntris, why, NO_OBJ_SIZE_LIMIT);
  LevelMesh mesh;
  if (!loadLevelMesh(path, &mesh, why, [&](long long done, long long total) { return sink.progress(done, total); }))
    return false;
  const size_t nv = mesh.verts.size() / 3, nt = mesh.tris.size() / 3;
  for (size_t v = 0; v < nv; ++v)
    if (!sink.vertex(&mesh.verts[v * 3])) return *why = path + ": " + sink.failure, false;
  const bool named = !mesh.groups.empty() && mesh.triGroup.size() == nt;
  for (size_t t = 0; t < nt; ++t) {
    if (named && (t == 0 || mesh.triGroup[t] != mesh.triGroup[t - 1]) && !sink.names(mesh.groups[mesh.triGroup[t]]))
      return *why = path + ": " + sink.failure, false;
    if (!sink.triangle(mesh.tris[t * 3], mesh.tris[t * 3 + 1], mesh.tris[t * 3 + 2])) return *why = path + ": " + sink.failure, false;
  }
  *nverts = (long long)nv;
  *ntris = (long long)nt;
  return true;
}

/// The solo case: the whole level in memory through Baker (one tile needs it all anyway).
bool bakeSoloFile(const FileBakeInput& fin, const BakeSettings& s, const std::string& outPath, const BakeOptions& opt,
                  BakeReport* r) {
  BakeInput in;
  std::string why;
  if (!loadFileBakeMesh(fin, &in, &why)) {
    r->error = why;
    return false;
  }
  Baker baker;
  if (!baker.setInput(std::move(in), &why)) {
    r->error = fin.objPath + ": " + why;
    return false;
  }
  if (!baker.bake(s, opt, r)) return false;
  if (statusFailed(saveTileSetFile(*baker.navMesh(), outPath, &why))) {
    r->ok = false;
    r->error = "cannot write " + outPath + ": " + why;
    return false;
  }
  return true;
}

} // namespace

bool bakeFileToTileSet(const FileBakeInput& fin, const BakeSettings& s, const std::string& outPath,
                       const BakeOptions& opt, BakeReport* reportOut, const FileBakeOptions& fopt,
                       FileBakeStats* statsOut) {
  ReportWriter rw(reportOut);
  BakeReport& r = rw.r;
  FileBakeStats localStats;
  FileBakeStats& st = statsOut ? *statsOut : localStats;
  st = FileBakeStats();
  auto fail = [&rw](const std::string& msg) { return rw.fail(msg); };
  auto cancelled = [&]() { return opt.cancel && opt.cancel->load(); };
  auto failCancelled = [&]() {
    r.cancelled = true;
    return fail("cancelled");
  };
  std::string why;
  if (!s.validate(&why)) return fail("bad settings: " + why);
  if (!s.tiled) {
    const bool ok = bakeSoloFile(fin, s, outPath, opt, &r);
    if (!ok && r.log.empty()) r.log.push_back("error: " + r.error);
    return ok;
  }

  // Volumes and links: checked and turned into tile arrays as Baker does.
  Baker extras;
  if (!extras.setVolumesAndLinks(fin.volumes, fin.links, &why)) return fail(fin.objPath + ": " + why);
  BakeInput extrasInput;
  extrasInput.volumes = fin.volumes;
  extrasInput.links = fin.links;

  auto report = [&opt](BakeStage stage, int done, int total, int inDone, int inTotal) {
    sendProgress(opt, stage, done, total, inDone, inTotal);
  };
  report(BakeStage::Prepare, 0, 1, 0, 1000);

  // The output first (a bake of minutes should not end in "cannot write"), then the temporary files.
  base::AtomicFile outFile(outPath);
  if (!outFile.open(why)) return fail("cannot write " + why);
  const std::string tmpBase = (fopt.tempDir.empty() ? folderOf(outPath) : fopt.tempDir) + "/" + baseName(outPath) +
                              ".bake" + std::to_string(::getpid());
  TempFile vertFile, triFile, binFile;
  if (!vertFile.create(tmpBase + ".verts", &why) || !triFile.create(tmpBase + ".tris", &why)) return fail(why);

  // Pass 1: read the OBJ.
  Clock::time_point t0 = Clock::now();
  ReadSink sink;
  sink.rules = &fin.areaRules;
  sink.code = ruleCode(fin.areaRules, matchAreaRule(fin.areaRules, MeshGroup{})); // before any name
  const size_t triInts = fin.areaRules.empty() ? 3 : 4;
  const size_t recordFloats = fin.areaRules.empty() ? RECORD_FLOATS : RULE_RECORD_FLOATS;
  long long nverts = 0, ntris = 0;
  {
    Appender va(&vertFile), ta(&triFile);
    std::string ioError;
    sink.verts = &va;
    sink.tris = &ta;
    sink.ioError = &ioError;
    sink.cancel = opt.cancel;
    sink.onProgress = [&](long long done, long long total) {
      if (total > 0) report(BakeStage::Prepare, 0, 1, int(std::min<long long>(500, done * 500 / total)), 1000);
    };
    if (!readLevelInto(fin.objPath, sink, &nverts, &ntris, &why)) {
      if (sink.failure == "cancelled") return failCancelled();
      return fail(why);
    }
    if (!va.flush(&why) || !ta.flush(&why)) return fail(why);
  }
  st.verts = nverts;
  st.tris = ntris;
  st.readMs = msSince(t0);
  std::copy(sink.bmin, sink.bmin + 3, r.bmin);
  std::copy(sink.bmax, sink.bmax + 3, r.bmax);
  if (cancelled()) return failCancelled();

  int tw = 1, th = 1;
  tileGridFor(r.bmin, r.bmax, s, &tw, &th);
  r.tilesX = tw;
  r.tilesY = th;
  NavMeshParams params{};
  if (!tiledMeshParams(r.bmin, s, tw, th, &params, &why)) return fail(why);
  const int tileTotal = tw * th;

  // Pass 2: bin the triangles into the tiles they overlap.
  t0 = Clock::now();
  if (!binFile.create(tmpBase + ".bins", &why)) return fail(why);
  Binner binner(&binFile, tileTotal, fopt.binBufferBytes, recordFloats);
  long long degenerateCount = 0;
  {
    // Per column / row the rect's x / z extent: tile (tx, ty)'s rect is [colMin, colMax] x [rowMin, rowMax].
    std::vector<float> colMin(static_cast<size_t>(tw)), colMax(static_cast<size_t>(tw));
    std::vector<float> rowMin(static_cast<size_t>(th)), rowMax(static_cast<size_t>(th));
    for (int x = 0; x < tw; ++x) {
      float qmin[2], qmax[2];
      tileQueryRect(r.bmin, r.bmax, s, x, 0, qmin, qmax);
      colMin[size_t(x)] = qmin[0];
      colMax[size_t(x)] = qmax[0];
    }
    for (int y = 0; y < th; ++y) {
      float qmin[2], qmax[2];
      tileQueryRect(r.bmin, r.bmax, s, 0, y, qmin, qmax);
      rowMin[size_t(y)] = qmin[1];
      rowMax[size_t(y)] = qmax[1];
    }
    VertexCache cache(&vertFile, nverts, fopt.vertexCacheBytes);
    constexpr long long BLOCK_TRIS = 1 << 16;
    std::vector<int> block(size_t(BLOCK_TRIS) * triInts);
    float rec[RULE_RECORD_FLOATS];
    for (long long first = 0; first < ntris; first += BLOCK_TRIS) {
      if (cancelled()) return failCancelled();
      report(BakeStage::Prepare, 0, 1, 500 + int(first * 500 / ntris), 1000);
      const long long n = std::min(BLOCK_TRIS, ntris - first);
      if (!triFile.read(block.data(), size_t(n) * triInts * sizeof(int), first * (long long)(triInts * sizeof(int)), &why))
        return fail(why);
      for (long long i = 0; i < n; ++i) {
        const int* tri = &block[size_t(i) * triInts];
        for (int k = 0; k < 3; ++k) {
          const float* v = cache.get(tri[k], &why);
          if (!v) return fail(why);
          std::memcpy(&rec[k * 3], v, 3 * sizeof(float));
        }
        if (triInts == 4) rec[RECORD_FLOATS] = float(tri[3]);
        if (degenerate(&rec[0], &rec[3], &rec[6])) ++degenerateCount;
        // xz bounds, as TriangleGrid computes them.
        float b[4] = {rec[0], rec[2], rec[0], rec[2]};
        for (int k = 1; k < 3; ++k) {
          b[0] = std::min(b[0], rec[k * 3]);
          b[1] = std::min(b[1], rec[k * 3 + 2]);
          b[2] = std::max(b[2], rec[k * 3]);
          b[3] = std::max(b[3], rec[k * 3 + 2]);
        }
        // Tiles whose rect overlaps: colMax >= minx and colMin <= maxx (both monotone in x).
        const int x0 = int(std::lower_bound(colMax.begin(), colMax.end(), b[0]) - colMax.begin());
        const int x1 = int(std::upper_bound(colMin.begin(), colMin.end(), b[2]) - colMin.begin()) - 1;
        const int y0 = int(std::lower_bound(rowMax.begin(), rowMax.end(), b[1]) - rowMax.begin());
        const int y1 = int(std::upper_bound(rowMin.begin(), rowMin.end(), b[3]) - rowMin.begin()) - 1;
        for (int y = y0; y <= y1; ++y)
          for (int x = x0; x <= x1; ++x)
            if (!binner.add(y * tw + x, rec, &why)) return fail(why);
      }
    }
    if (!binner.flush(&why)) return fail(why);
    st.fixedBytes = cache.memoryBytes() + binner.memoryBytes() + block.capacity() * sizeof(int) +
                    (colMin.size() * 4) * sizeof(float);
    st.vertexLookups = cache.lookups;
    st.vertexPageMisses = cache.misses;
  }
  binner.releaseBuffers();
  st.binEntries = binner.entries();
  st.degenerateTris = degenerateCount;
  st.binMs = msSince(t0);
  r.stageMs[int(BakeStage::Prepare)] += st.readMs + st.binMs;
  if (degenerateCount == ntris) return fail(fin.objPath + ": all " + std::to_string(ntris) + " triangles are degenerate (zero area)");
  if (degenerateCount)
    r.log.push_back("warning: " + std::to_string(degenerateCount) + " of " + std::to_string(ntris) +
                    " triangles are degenerate (zero area)");
  logInputAndGrid(nverts, ntris, extrasInput, s, r.bmin, r.bmax, tw, th, &r);
  report(BakeStage::Prepare, 0, 1, 1000, 1000);
  for (int t = 0; t < tileTotal; ++t) st.largestTileTris = std::max(st.largestTileTris, binner.count(t));
  st.largestTileInputBytes = size_t(st.largestTileTris) * (recordFloats * sizeof(float) + 3 * sizeof(int));
  if (cancelled()) return failCancelled();

  // Pass 3: tiles on the pool, written in grid order through a window of the mesh.
  std::atomic<long long> held{0};
  std::atomic<long long> peakHeld{0};
  TileJobContext c;
  c.input = &extrasInput;
  c.settings = &s;
  std::copy(r.bmin, r.bmin + 3, c.bmin);
  std::copy(r.bmax, r.bmax + 3, c.bmax);
  c.cancel = opt.cancel;
  c.fetch = [&](int tx, int ty, TileTriangles* out, std::string* w) {
    const int t = ty * tw + tx;
    const long long bytes = (long long)binner.count(t) * (long long)(recordFloats * sizeof(float) + 3 * sizeof(int));
    const long long now = held.fetch_add(bytes) + bytes;
    out->held = &held;
    out->bytes = bytes;
    long long peak = peakHeld.load();
    while (now > peak && !peakHeld.compare_exchange_weak(peak, now)) {
    }
    return binner.read(t, out, w);
  };

  TileSetHeader header;
  std::memset(&header, 0, sizeof header);
  header.magic = TILESET_MAGIC;
  header.version = TILESET_VERSION;
  header.params = params;
  bool writeOk = std::fwrite(&header, sizeof header, 1, outFile.file()) == 1;

  NavMesh mesh;
  if (statusFailed(mesh.init(params, &why))) return fail("navmesh init failed: " + why);

  const int threads = workerThreads(opt, tileTotal);
  r.threads = threads;
  const int window = std::max(2, fopt.window > 0 ? fopt.window : 16 * threads);

  struct InMesh {
    int index;
    TileRef ref;
  };
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::unique_ptr<TileSlot>> ring(static_cast<size_t>(window));
  std::deque<InMesh> inMesh; // tiles in the mesh, grid order; the first `written` are in the file
  size_t written = 0;
  int next = 0, nextToAdd = 0, done = 0, slotsUsed = 0, pending = 0;
  bool stop = false;
  int failIndex = -1;
  std::string failError;
  bool failCancelledTile = false;
  double addMs = 0;

  auto writeTile = [&](const InMesh& t) {
    const MeshTile* tile = mesh.getTileByRef(t.ref);
    TileSetTileHeader rec;
    rec.tileRef = t.ref;
    rec.dataSize = tile->dataSize;
    writeOk = writeOk && std::fwrite(&rec, sizeof rec, 1, outFile.file()) == 1 &&
              std::fwrite(tile->data, size_t(tile->dataSize), 1, outFile.file()) == 1;
    ++header.numTiles;
  };
  // Called with `m` held: adds every finished tile whose turn it is, writes the tiles whose
  // neighbours are all in, drops the ones whose neighbours are all written.
  auto commit = [&]() {
    const Clock::time_point ta = Clock::now();
    while (!stop && nextToAdd < tileTotal && ring[size_t(nextToAdd % window)]) {
      std::unique_ptr<TileSlot> slot = std::move(ring[size_t(nextToAdd % window)]);
      --pending;
      const int a = nextToAdd;
      for (int k = 0; k < BAKE_STAGE_COUNT; ++k) r.stageMs[k] += slot->out.stageMs[k];
      for (const std::string& l : slot->out.log) r.log.push_back(tileName(s, a % tw, a / tw) + ": " + l);
      if (slot->data) {
        const TileRef ref = mesh.encodePolyId(mesh.getTile(slotsUsed)->salt, uint32_t(slotsUsed), 0);
        std::string w;
        if (statusFailed(mesh.addTile(slot->data, slot->dataSize, TILE_FREE_DATA, ref, nullptr, &w))) {
          stop = true;
          failIndex = a;
          failError = "the navmesh refused " + tileName(s, a % tw, a / tw) + ": " + w;
          break;
        }
        slot->data = nullptr;
        ++slotsUsed;
        const MeshHeader* h = mesh.getTileByRef(ref)->header;
        ++r.tileCount;
        r.polyCount += h->polyCount - h->offMeshConCount;
        r.offMeshConCount += h->offMeshConCount;
        r.vertCount += h->vertCount;
        r.dataBytes += size_t(mesh.getTileByRef(ref)->dataSize);
        inMesh.push_back({a, ref});
        st.peakWindowTiles = std::max(st.peakWindowTiles, int(inMesh.size()));
      }
      ++nextToAdd;
      // Final: every tile up to a - tw - 1 has all its neighbours (the last is a - tw... + 1) in.
      while (written < inMesh.size() && inMesh[written].index <= a - tw - 1) writeTile(inMesh[written++]);
      // Droppable: a tile whose neighbours are all written (index <= a - 2 tw - 2).
      while (!inMesh.empty() && written > 0 && inMesh.front().index <= a - 2 * tw - 2) {
        mesh.removeTile(inMesh.front().ref, nullptr, nullptr);
        inMesh.pop_front();
        --written;
      }
    }
    addMs += msSince(ta);
  };

  auto worker = [&]() {
    for (;;) {
      int i;
      {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return stop || cancelled() || next >= tileTotal || next < nextToAdd + window; });
        if (stop || cancelled() || next >= tileTotal) return;
        i = next++;
      }
      auto slot = std::make_unique<TileSlot>();
      bakeTileToBlob(c, extras.offMeshArrays(), i % tw, i / tw, slot.get());
      std::lock_guard<std::mutex> lock(m);
      if (slot->failed) {
        stop = true;
        if (failIndex < 0 || i < failIndex) {
          failIndex = i;
          failError = tileName(s, i % tw, i / tw) + ": " + slot->out.error;
          failCancelledTile = slot->out.cancelled;
        }
      } else {
        ring[size_t(i % window)] = std::move(slot);
        ++pending;
        st.peakPendingTiles = std::max(st.peakPendingTiles, pending);
      }
      ++done;
      report(BakeStage::TileData, done, tileTotal, 0, 0);
      commit();
      cv.notify_all();
    }
  };
  runWorkers(threads, worker);
  st.peakTileInputBytes = size_t(peakHeld.load());

  if (cancelled() || failCancelledTile) return failCancelled();
  if (failIndex >= 0) return fail(failError);
  if (nextToAdd != tileTotal) return fail("internal error: " + std::to_string(tileTotal - nextToAdd) + " tiles were not added");

  report(BakeStage::AddTiles, tileTotal, tileTotal, 0, 0);
  const Clock::time_point tEnd = Clock::now();
  while (written < inMesh.size()) writeTile(inMesh[written++]);
  if (r.tileCount == 0) return fail("the bake produced no walkable polygons (check the agent settings and the level's scale)");
  writeOk = writeOk && std::fseek(outFile.file(), 0, SEEK_SET) == 0 &&
            std::fwrite(&header, sizeof header, 1, outFile.file()) == 1;
  if (!writeOk) {
    const std::string e = std::strerror(errno);
    outFile.discard();
    return fail("cannot write " + outPath + ": " + e + " (the previous file, if any, is unchanged)");
  }
  if (!outFile.commit(why)) return fail("cannot write " + outPath + ": " + why);
  addMs += msSince(tEnd);
  r.stageMs[int(BakeStage::AddTiles)] += addMs;
  st.tempFileBytes = vertFile.written() + triFile.written() + binFile.written();

  r.ok = true;
  r.totalMs = msSince(rw.start);
  r.log.push_back(doneLine(r));
  report(BakeStage::Done, tileTotal, tileTotal, 0, 0);
  return true;
}

} // namespace nav::bake
