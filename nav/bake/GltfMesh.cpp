#include "GltfMesh.h"

#include "nav/base/AtomicFile.h"
#include "nav/base/Json.h"
#include "nav/base/NonCopyable.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string_view>
#include <tuple>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nav::bake {

namespace {

constexpr uint32_t kGlbMagic = 0x46546C67;   // "glTF"
constexpr uint32_t kChunkJson = 0x4E4F534A; // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;  // "BIN\0"
constexpr int kMaxNotes = 20;

uint32_t readU32(const char* p) { // GLB is little-endian, as every host NavBench builds on
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

std::string folderOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

/// Column-major 4x4, as glTF's `matrix`.
struct Mat4 {
  double m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  Mat4 operator*(const Mat4& b) const {
    Mat4 r;
    for (int c = 0; c < 4; ++c)
      for (int row = 0; row < 4; ++row) {
        double s = 0;
        for (int k = 0; k < 4; ++k) s += m[k * 4 + row] * b.m[c * 4 + k];
        r.m[c * 4 + row] = s;
      }
    return r;
  }
  double det3() const {
    return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
  }
};

int componentBytes(int type) {
  switch (type) {
  case 5120: case 5121: return 1;
  case 5122: case 5123: return 2;
  case 5125: case 5126: return 4;
  }
  return 0;
}

double readComponent(const unsigned char* p, int type, bool normalized) {
  switch (type) {
  case 5120: { const double v = double(int8_t(p[0])); return normalized ? std::max(v / 127.0, -1.0) : v; }
  case 5121: { const double v = double(p[0]); return normalized ? v / 255.0 : v; }
  case 5122: { int16_t x; std::memcpy(&x, p, 2); return normalized ? std::max(double(x) / 32767.0, -1.0) : double(x); }
  case 5123: { uint16_t x; std::memcpy(&x, p, 2); return normalized ? double(x) / 65535.0 : double(x); }
  case 5125: { uint32_t x; std::memcpy(&x, p, 4); return double(x); }
  default: { float x; std::memcpy(&x, p, 4); return double(x); }
  }
}

bool base64Decode(const std::string& s, size_t from, std::string& out) {
  out.clear();
  out.reserve((s.size() - from) / 4 * 3);
  uint32_t acc = 0;
  int bits = 0;
  size_t i = from;
  for (; i < s.size() && s[i] != '='; ++i) {
    const char c = s[i];
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '+' || c == '-') v = 62;
    else if (c == '/' || c == '_') v = 63;
    else return false;
    acc = (acc << 6) | uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(char((acc >> bits) & 0xff));
    }
  }
  for (; i < s.size(); ++i)
    if (s[i] != '=') return false;
  return true;
}

/// Percent-decodes a relative URI; false on a bad escape.
bool uriDecode(const std::string& uri, std::string& out) {
  out.clear();
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      out.push_back(uri[i]);
      continue;
    }
    if (i + 2 >= uri.size() || !std::isxdigit((unsigned char)uri[i + 1]) || !std::isxdigit((unsigned char)uri[i + 2]))
      return false;
    out.push_back(char(std::stoi(uri.substr(i + 1, 2), nullptr, 16)));
    i += 2;
  }
  return out.find('\0') == std::string::npos;
}

/// Reads a whole file of at most `maxBytes` in 4 MiB blocks; `tick(bytesRead, size)` false cancels.
enum class ReadResult { Ok, Failed, Cancelled };
ReadResult readWhole(const std::string& path, long long maxBytes, long long wantBytes, std::string& out,
                     std::string& problem, const std::function<bool(long long, long long)>& tick) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) {
    problem = "cannot open the file";
    return ReadResult::Failed;
  }
  const long long size = (long long)f.tellg();
  if (size < 0) {
    problem = "cannot read the file";
    return ReadResult::Failed;
  }
  long long n = size;
  if (wantBytes >= 0) {
    if (size < wantBytes) {
      problem = "holds " + std::to_string(size) + " bytes, the buffer needs " + std::to_string(wantBytes);
      return ReadResult::Failed;
    }
    n = wantBytes;
  }
  if (n > maxBytes) {
    problem = "larger than " + std::to_string(maxBytes) + " bytes";
    return ReadResult::Failed;
  }
  f.seekg(0);
  out.assign(size_t(n), '\0');
  constexpr long long kBlock = 4ll << 20;
  if (tick && !tick(0, n)) return ReadResult::Cancelled; // "Reading" shows from the start
  for (long long at = 0; at < n; at += kBlock) {
    const long long len = std::min(kBlock, n - at);
    if (!f.read(&out[size_t(at)], len)) {
      problem = "cannot read the file";
      return ReadResult::Failed;
    }
    if (tick && !tick(at + len, n)) return ReadResult::Cancelled;
  }
  return ReadResult::Ok;
}

/// A whole file mapped read-only; unmapped when destroyed.
class MappedFile : base::NonCopyable {
public:
  ~MappedFile() {
    if (m_data) ::munmap(m_data, m_size);
    if (m_fd >= 0) ::close(m_fd);
  }
  ReadResult open(const std::string& path, long long maxBytes, std::string& problem,
                  const std::function<bool(long long, long long)>& tick) {
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (m_fd < 0 || ::fstat(m_fd, &st) != 0) return problem = "cannot open the file", ReadResult::Failed;
    if (!S_ISREG(st.st_mode)) return problem = "not a regular file", ReadResult::Failed;
    if ((long long)st.st_size > maxBytes) return problem = "larger than " + std::to_string(maxBytes) + " bytes", ReadResult::Failed;
    m_size = size_t(st.st_size);
    const long long n = (long long)m_size;
    if (tick && !tick(0, n)) return ReadResult::Cancelled; // "Reading" shows from the start
    if (m_size == 0) return ReadResult::Ok;
    void* p = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, m_fd, 0);
    if (p == MAP_FAILED) return problem = "cannot read the file", ReadResult::Failed;
    m_data = static_cast<char*>(p);
    ::madvise(p, m_size, MADV_SEQUENTIAL);
    constexpr long long kBlock = 4ll << 20;
    unsigned sum = 0;
    for (long long at = 0; at < n; at += kBlock) {
      const long long end = std::min(n, at + kBlock);
      for (long long b = at; b < end; b += 4096) sum += (unsigned char)m_data[b]; // fault the pages in now
      if (tick && !tick(end, n)) return ReadResult::Cancelled;
    }
    m_touched = sum;
    return ReadResult::Ok;
  }
  std::string_view bytes() const { return m_data ? std::string_view(m_data, m_size) : std::string_view(); }

private:
  int m_fd = -1;
  char* m_data = nullptr;
  size_t m_size = 0;
  volatile unsigned m_touched = 0;
};

class Reader {
public:
  Reader(const std::string& name, const std::string& folder, const GltfLimits& limits, LevelMesh* out,
         const std::function<bool(double)>& progress)
      : m_name(name), m_folder(folder), m_limits(limits), m_errors(name), m_out(out), m_progress(progress) {}

  bool cancelled = false;

  /// The whole file's bytes -> m_out. False with errors().message.
  bool read(std::string_view bytes) {
    std::string jsonText;
    if (bytes.size() >= 4 && readU32(bytes.data()) == kGlbMagic) {
      if (!splitGlb(bytes, jsonText)) return false;
    } else {
      if (!m_name.empty() && lowerEnds(m_name, ".glb"))
        return bad("not a GLB file (bad magic: the file must start with \"glTF\")");
      if ((long long)bytes.size() > m_limits.maxJsonBytes)
        return bad("JSON larger than " + std::to_string(m_limits.maxJsonBytes) + " bytes (write the buffers as .bin files or a .glb)");
      jsonText.assign(bytes);
    }
    if (!base::parseJson(jsonText, m_errors, m_doc)) return false;
    jsonText.clear();
    jsonText.shrink_to_fit();
    base::JsonIn root(m_doc, m_errors);
    if (!root.object()) return false;
    if (!checkAsset(root)) return false;
    return place(root) && !m_errors.failed(); // a bad name is recorded without stopping the walk
  }

  const std::string& message() const { return m_errors.message; }

private:
  static bool lowerEnds(const std::string& s, const char* ext) {
    const size_t n = std::strlen(ext);
    if (s.size() < n) return false;
    for (size_t i = 0; i < n; ++i)
      if (std::tolower((unsigned char)s[s.size() - n + i]) != ext[i]) return false;
    return true;
  }
  bool bad(const std::string& problem) { return m_errors.fail("", problem); }

  bool splitGlb(std::string_view b, std::string& json) {
    if (b.size() < 12) return bad("truncated GLB: " + std::to_string(b.size()) + " bytes, the header alone is 12");
    const uint32_t version = readU32(b.data() + 4), length = readU32(b.data() + 8);
    if (version != 2) return bad("GLB version " + std::to_string(version) + ", NavBench reads version 2");
    if (length > b.size())
      return bad("truncated GLB: the header says " + std::to_string(length) + " bytes, the file has " + std::to_string(b.size()));
    if (length < b.size())
      return bad("GLB header says " + std::to_string(length) + " bytes, the file has " + std::to_string(b.size()));
    size_t at = 12;
    for (int chunk = 0; at < length; ++chunk) {
      if (length - at < 8) return bad("truncated GLB: chunk " + std::to_string(chunk) + " header cut off at byte " + std::to_string(at));
      const uint32_t len = readU32(b.data() + at), type = readU32(b.data() + at + 4);
      if (len > length - at - 8)
        return bad("GLB chunk " + std::to_string(chunk) + ": length " + std::to_string(len) + " runs past the end of the file (" +
                   std::to_string(length - at - 8) + " bytes left)");
      if (chunk == 0) {
        if (type != kChunkJson) return bad("GLB chunk 0 is not the JSON chunk");
        if ((long long)len > m_limits.maxJsonBytes)
          return bad("GLB JSON chunk larger than " + std::to_string(m_limits.maxJsonBytes) + " bytes");
        json.assign(b.substr(at + 8, len));
      } else if (chunk == 1 && type == kChunkBin) {
        m_bin = reinterpret_cast<const unsigned char*>(b.data()) + at + 8; // `b` outlives the reading
        m_binSize = len;
        m_hasBin = true;
      } else if (type == kChunkJson || type == kChunkBin) {
        return bad("GLB chunk " + std::to_string(chunk) + ": a second JSON or BIN chunk");
      } // other chunk types: ignored, as the specification says
      at += 8 + size_t(len);
    }
    if (json.empty() && at == 12) return bad("truncated GLB: no JSON chunk");
    return true;
  }

  bool checkAsset(const base::JsonIn& root) {
    const base::JsonIn asset = root["asset"];
    std::string version;
    if (!asset.object() || !asset.get("version", version, 32)) return false;
    if (version.rfind("2.", 0) != 0) return asset["version"].fail("glTF " + version + ", NavBench reads glTF 2.x");
    if (root.has("extensionsRequired")) {
      const base::JsonIn req = root["extensionsRequired"];
      if (!req.array(0, 1000)) return false;
      for (size_t i = 0; i < req.size(); ++i) {
        std::string e;
        if (!req[i].get(e, 256)) return false;
        if (e != "KHR_mesh_quantization" && e != "KHR_materials_unlit" && e != "KHR_texture_transform")
          return bad("requires the extension " + e + ", which NavBench does not read (export without it)");
      }
    }
    return true;
  }

  /// An index into the top-level array `key`, read from `v` (e.g. a node's "mesh").
  bool indexInto(const base::JsonIn& v, const char* key, int& out) {
    const base::JsonIn arr = m_root()[key];
    const long long n = (long long)(arr.json().is_array() ? arr.size() : 0);
    long long x = 0;
    if (!v.get(x, 0, std::numeric_limits<int>::max())) return false;
    if (x >= n) return v.fail("index " + std::to_string(x) + " outside the " + std::to_string(n) + " " + key);
    out = int(x);
    return true;
  }
  base::JsonIn m_root() const { return base::JsonIn(m_doc, m_errors); }

  // ---- buffers and views -------------------------------------------------------------------
  /// A buffer's bytes: the GLB's BIN chunk in place, or decoded / read into `owned`.
  struct Buffer {
    std::string owned;
    const unsigned char* data = nullptr;
    long long size = 0;
  };
  const Buffer* buffer(int i) {
    auto it = m_buffers.find(i);
    if (it != m_buffers.end()) return it->second.get();
    const base::JsonIn b = m_root()["buffers"][size_t(i)];
    long long byteLength = 0;
    if (!b.object() || !b.get("byteLength", byteLength, 1, m_limits.maxFileBytes)) return nullptr;
    const std::string label = "buffer " + std::to_string(i);
    auto buf = std::make_unique<Buffer>();
    std::string* data = &buf->owned;
    if (!b.has("uri")) {
      if (i != 0 || !m_hasBin) return bad(label + ": no uri, and no GLB BIN chunk"), nullptr;
      if ((long long)m_binSize < byteLength)
        return bad(label + ": byteLength " + std::to_string(byteLength) + ", but the BIN chunk holds " +
                   std::to_string(m_binSize) + " bytes"), nullptr;
      buf->data = m_bin;
    } else {
      std::string uri;
      if (!b.get("uri", uri, size_t(m_limits.maxJsonBytes))) return nullptr;
      if (uri.compare(0, 5, "data:") == 0) {
        const size_t comma = uri.find(',');
        if (comma == std::string::npos || comma < 7 || uri.compare(comma - 7, 7, ";base64") != 0)
          return bad(label + ": a data: uri that is not base64"), nullptr;
        if (!base64Decode(uri, comma + 1, *data)) return bad(label + ": bad base64 in its data: uri"), nullptr;
        if ((long long)data->size() < byteLength)
          return bad(label + ": byteLength " + std::to_string(byteLength) + ", but its data: uri holds " +
                     std::to_string(data->size()) + " bytes"), nullptr;
      } else {
        std::string rel;
        const size_t colon = uri.find(':'), slash = uri.find('/');
        if (!uriDecode(uri, rel)) return bad(label + ": bad uri '" + uri + "'"), nullptr;
        bool outside = rel.empty() || rel[0] == '/' || rel[0] == '\\' ||
                       (colon != std::string::npos && (slash == std::string::npos || colon < slash));
        for (size_t at = 0; !outside && at <= rel.size();) { // any ".." segment
          size_t end = rel.find_first_of("/\\", at);
          if (end == std::string::npos) end = rel.size();
          outside = rel.compare(at, end - at, "..") == 0 && end - at == 2;
          at = end + 1;
        }
        if (outside) return bad(label + ": uri '" + uri + "' points outside the file's folder"), nullptr;
        if (m_folder.empty()) return bad(label + ": external file '" + uri + "' not read (no folder)"), nullptr;
        std::string problem;
        if (readWhole(m_folder + "/" + rel, m_limits.maxFileBytes, byteLength, *data, problem, {}) != ReadResult::Ok)
          return bad(label + ": '" + rel + "': " + problem), nullptr;
      }
    }
    if (!buf->data) buf->data = reinterpret_cast<const unsigned char*>(data->data());
    buf->size = byteLength; // padding past byteLength is not part of the buffer
    return (m_buffers[i] = std::move(buf)).get();
  }

  struct View {
    const unsigned char* data = nullptr;
    long long length = 0;
    int stride = 0; ///< 0 = tightly packed
  };
  bool view(int i, View& v) {
    const base::JsonIn bv = m_root()["bufferViews"][size_t(i)];
    int buf = 0;
    long long off = 0, len = 0;
    if (!bv.object() || !indexInto(bv["buffer"], "buffers", buf) || !bv.opt("byteOffset", off, 0, m_limits.maxFileBytes) ||
        !bv.get("byteLength", len, 1, m_limits.maxFileBytes) || !bv.opt("byteStride", v.stride, 4, 252))
      return false;
    const Buffer* data = buffer(buf);
    if (!data) return false;
    if (off + len > data->size)
      return bad("buffer view " + std::to_string(i) + ": bytes " + std::to_string(off) + ".." + std::to_string(off + len) +
                 " run past the end of buffer " + std::to_string(buf) + " (" + std::to_string(data->size) + " bytes)");
    v.data = data->data + off;
    v.length = len;
    return true;
  }

  // ---- accessors ---------------------------------------------------------------------------
  /// Accessor `i` as positions (float or the KHR_mesh_quantization integer types -> float [x, y,
  /// z] per element) or as indices (unsigned integers -> uint32). Cached per accessor (a mesh used by
  /// several nodes is decoded once).
  /// An accessor's values: in place in the buffer when stored as we hold them (tight float
  /// positions, uint32 indices, aligned, not sparse: the big levels' case, no copy), else decoded.
  template <class T>
  struct Values {
    const T* data = nullptr;
    size_t size = 0;
    std::vector<T> owned;
  };
  const Values<float>* positions(int i) { return decode(i, true, m_positions); }
  const Values<uint32_t>* indices(int i) { return decode(i, false, m_indices); }

  template <class T>
  const Values<T>* decode(int i, bool positions, std::map<int, std::unique_ptr<Values<T>>>& cache) {
    auto it = cache.find(i);
    if (it != cache.end()) return it->second.get();
    const std::string label = "accessor " + std::to_string(i);
    const base::JsonIn a = m_root()["accessors"][size_t(i)];
    int type = 0;
    long long count = 0, off = 0;
    bool normalized = false;
    std::string shape;
    if (!a.object() || !a.get("componentType", type) || !a.get("count", count, 1, positions ? m_limits.maxVertices : m_limits.maxTriangles * 3) ||
        !a.get("type", shape, 16) || !a.opt("byteOffset", off, 0, m_limits.maxFileBytes) || !a.opt("normalized", normalized))
      return nullptr;
    const int comps = positions ? 3 : 1;
    if (shape != (positions ? "VEC3" : "SCALAR"))
      return bad(label + ": type " + shape + ", " + (positions ? "positions must be VEC3" : "indices must be SCALAR")), nullptr;
    const bool typeOk = positions ? (type >= 5120 && type <= 5123) || type == 5126 : type == 5121 || type == 5123 || type == 5125;
    if (!typeOk || (!positions && normalized) || (type == 5126 && normalized))
      return bad(label + ": componentType " + std::to_string(type) + (normalized ? " normalized" : "") + " is not allowed for " +
                 (positions ? "positions" : "indices")), nullptr;
    const int cb = componentBytes(type), elem = cb * comps;
    auto out = std::make_unique<Values<T>>();
    out->size = size_t(count) * size_t(comps);
    std::vector<T>* values = &out->owned;
    if (a.has("bufferView")) {
      int vi = 0;
      View v;
      if (!indexInto(a["bufferView"], "bufferViews", vi) || !view(vi, v)) return nullptr;
      const long long stride = v.stride ? v.stride : elem;
      if (stride < elem) return bad(label + ": byteStride " + std::to_string(stride) + " is less than its element (" + std::to_string(elem) + " bytes)"), nullptr;
      if (off + (count - 1) * stride + elem > v.length)
        return bad(label + ": reads past the end of buffer view " + std::to_string(vi)), nullptr;
      const bool same = (type == 5126) == positions && cb == int(sizeof(T)) && stride == elem; // stored as we hold it
      if (same && !a.has("sparse") && reinterpret_cast<uintptr_t>(v.data + off) % alignof(T) == 0)
        out->data = reinterpret_cast<const T*>(v.data + off);
      else if (values->resize(out->size), same)
        std::memcpy(values->data(), v.data + off, size_t(count) * size_t(elem));
      else
        for (long long e = 0; e < count; ++e)
          for (int c = 0; c < comps; ++c)
            (*values)[size_t(e * comps + c)] = T(readComponent(v.data + off + e * stride + c * cb, type, normalized));
    }
    if (!out->data) {
      values->resize(out->size); // zeros where there is no buffer view
      if (a.has("sparse") && !sparse(a["sparse"], label, count, comps, type, normalized, *values)) return nullptr;
      out->data = values->data();
    }
    if (positions)
      for (size_t k = 0; k < out->size; ++k)
        if (!std::isfinite(double(out->data[k]))) return bad(label + ": NaN position (element " + std::to_string(k / 3) + ")"), nullptr;
    return (cache[i] = std::move(out)).get();
  }

  template <class T>
  bool sparse(const base::JsonIn& s, const std::string& label, long long count, int comps, int type, bool normalized,
              std::vector<T>& values) {
    long long n = 0, ioff = 0, voff = 0;
    int itype = 0, ivi = 0, vvi = 0;
    const base::JsonIn idx = s["indices"], val = s["values"];
    if (!s.object() || !s.get("count", n, 1, count) || !idx.object() || !indexInto(idx["bufferView"], "bufferViews", ivi) ||
        !idx.opt("byteOffset", ioff, 0, m_limits.maxFileBytes) || !idx.get("componentType", itype) || !val.object() ||
        !indexInto(val["bufferView"], "bufferViews", vvi) || !val.opt("byteOffset", voff, 0, m_limits.maxFileBytes))
      return false;
    if (itype != 5121 && itype != 5123 && itype != 5125) return idx["componentType"].fail("must be 5121, 5123 or 5125");
    View iv, vv;
    if (!view(ivi, iv) || !view(vvi, vv)) return false;
    const int ib = componentBytes(itype), cb = componentBytes(type);
    if (ioff + n * ib > iv.length) return bad(label + ": sparse indices read past the end of buffer view " + std::to_string(ivi));
    if (voff + n * cb * comps > vv.length) return bad(label + ": sparse values read past the end of buffer view " + std::to_string(vvi));
    long long prev = -1;
    for (long long k = 0; k < n; ++k) {
      const long long e = (long long)readComponent(iv.data + ioff + k * ib, itype, false);
      if (e <= prev || e >= count)
        return bad(label + ": sparse index " + std::to_string(e) + (e >= count ? " outside its " + std::to_string(count) + " elements" : " not increasing"));
      prev = e;
      for (int c = 0; c < comps; ++c)
        values[size_t(e * comps + c)] = T(readComponent(vv.data + voff + (k * comps + c) * cb, type, normalized));
    }
    return true;
  }

  // ---- nodes -------------------------------------------------------------------------------
  bool localMatrix(const base::JsonIn& n, const std::string& label, Mat4& m) {
    const bool trs = n.has("translation") || n.has("rotation") || n.has("scale");
    if (n.has("matrix")) {
      if (trs) return bad(label + ": has both matrix and translation/rotation/scale");
      float f[16];
      if (!n["matrix"].getFloats(f, 16, "16 numbers (a column-major 4x4 matrix)")) return false;
      for (int k = 0; k < 16; ++k) m.m[k] = double(f[k]);
      return true;
    }
    float t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    if (!n.optVec3("translation", t) || !n.optVec3("scale", s) ||
        (n.has("rotation") && !n["rotation"].getFloats(q, 4, "[x, y, z, w] (a unit quaternion)")))
      return false;
    const double len = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] + double(q[3]) * q[3]);
    if (!(len > 1e-6)) return bad(label + ": rotation is not a unit quaternion (length 0)");
    const double x = q[0] / len, y = q[1] / len, z = q[2] / len, w = q[3] / len;
    const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                            {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                            {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    for (int c = 0; c < 3; ++c)
      for (int row = 0; row < 3; ++row) m.m[c * 4 + row] = r[row][c] * double(s[c]);
    for (int row = 0; row < 3; ++row) m.m[12 + row] = double(t[row]);
    return true;
  }

  /// Parents of every node (-1: a root); false on a node with two parents or a cycle.
  bool parents(const base::JsonIn& nodes, std::vector<int>& parent) {
    const int n = int(nodes.size());
    parent.assign(size_t(n), -1);
    for (int i = 0; i < n; ++i) {
      const base::JsonIn node = nodes[size_t(i)];
      if (!node.object()) return false;
      if (!node.has("children")) continue;
      const base::JsonIn ch = node["children"];
      if (!ch.array()) return false;
      for (size_t k = 0; k < ch.size(); ++k) {
        int c = 0;
        if (!indexInto(ch[k], "nodes", c)) return false;
        if (c == i) return bad("node cycle at node " + std::to_string(i) + " (its own child)");
        if (parent[size_t(c)] >= 0)
          return bad("node " + std::to_string(c) + " is a child of both node " + std::to_string(parent[size_t(c)]) + " and node " + std::to_string(i));
        parent[size_t(c)] = i;
      }
    }
    std::vector<char> state(size_t(n), 0); // 0 unseen, 1 on the walk now, 2 known to reach a root
    for (int i = 0; i < n; ++i) {
      int at = i;
      while (at >= 0 && state[size_t(at)] == 0) {
        state[size_t(at)] = 1;
        at = parent[size_t(at)];
      }
      if (at >= 0 && state[size_t(at)] == 1) return bad("node cycle at node " + std::to_string(at));
      for (at = i; at >= 0 && state[size_t(at)] == 1; at = parent[size_t(at)]) state[size_t(at)] = 2;
    }
    return true;
  }

  std::string nameOf(const base::JsonIn& v) {
    std::string s;
    if (v.has("name")) v["name"].get(s, 1024);
    return s;
  }

  bool place(const base::JsonIn& root) {
    const base::JsonIn nodes = root["nodes"];
    if (root.has("nodes") && !nodes.array()) return false;
    std::vector<int> parent;
    if (!parents(nodes, parent)) return false;
    std::vector<int> roots;
    if (root.has("scenes") && root["scenes"].size() > 0) {
      if (!root["scenes"].array()) return false;
      int scene = 0;
      if (root.has("scene") && !indexInto(root["scene"], "scenes", scene)) return false;
      const base::JsonIn sc = root["scenes"][size_t(scene)];
      if (!sc.object()) return false;
      if (sc.has("nodes")) {
        const base::JsonIn sn = sc["nodes"];
        if (!sn.array()) return false;
        for (size_t k = 0; k < sn.size(); ++k) {
          int r = 0;
          if (!indexInto(sn[k], "nodes", r)) return false;
          if (parent[size_t(r)] >= 0)
            return bad("scene " + std::to_string(scene) + ": node " + std::to_string(r) + " is not a root (a child of node " +
                       std::to_string(parent[size_t(r)]) + ")");
          if (std::find(roots.begin(), roots.end(), r) != roots.end())
            return bad("scene " + std::to_string(scene) + ": node " + std::to_string(r) + " listed twice");
          roots.push_back(r);
        }
      }
    } else {
      for (int i = 0; i < int(parent.size()); ++i)
        if (parent[size_t(i)] < 0) roots.push_back(i);
    }

    // Every node instance with a mesh, in depth-first order, with its world matrix.
    struct Instance {
      int node, mesh;
      Mat4 world;
    };
    std::vector<Instance> inst;
    std::vector<std::pair<int, Mat4>> stack;
    for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back({*it, Mat4()});
    while (!stack.empty()) {
      const auto [ni, parentWorld] = stack.back();
      stack.pop_back();
      const base::JsonIn node = nodes[size_t(ni)];
      const std::string label = "node " + std::to_string(ni);
      Mat4 local;
      if (!localMatrix(node, label, local)) return false;
      const Mat4 world = parentWorld * local;
      if (node.has("mesh")) {
        int mi = 0;
        if (!indexInto(node["mesh"], "meshes", mi)) return false;
        inst.push_back({ni, mi, world});
      }
      if (node.has("children")) {
        const base::JsonIn ch = node["children"];
        for (size_t k = ch.size(); k-- > 0;) stack.push_back({int(ch[k].json().get<long long>()), world});
      }
    }

    // Triangle count of every instance first: the limits before any allocation of that size.
    long long totalTris = 0;
    for (const Instance& in : inst) {
      const base::JsonIn prims = root["meshes"][size_t(in.mesh)]["primitives"];
      if (!prims.array(1)) return false;
      for (size_t p = 0; p < prims.size(); ++p) {
        long long n = 0;
        int mode = 4;
        if (!primitiveCount(prims[p], n, mode)) return false;
        totalTris += mode == 4 ? n / 3 : mode >= 5 ? std::max(0ll, n - 2) : 0;
        if (totalTris > m_limits.maxTriangles)
          return bad("more than " + std::to_string(m_limits.maxTriangles) + " triangles in the scene");
      }
    }
    m_totalTris = totalTris;
    m_out->tris.reserve(size_t(totalTris) * 3);
    m_out->triGroup.reserve(size_t(totalTris));
    std::map<std::tuple<std::string, std::string, std::string>, uint32_t> groupOf;
    std::set<std::pair<int, size_t>> noted;
    int skipped = 0;
    for (const Instance& in : inst) {
      const base::JsonIn mesh = root["meshes"][size_t(in.mesh)];
      const std::string meshName = nameOf(mesh), nodeName = nameOf(nodes[size_t(in.node)]);
      const std::string meshLabel = "mesh " + std::to_string(in.mesh) + (meshName.empty() ? "" : " '" + meshName + "'");
      const base::JsonIn prims = mesh["primitives"];
      for (size_t p = 0; p < prims.size(); ++p) {
        const base::JsonIn prim = prims[p];
        const std::string label = meshLabel + " primitive " + std::to_string(p);
        int mode = 4;
        if (!prim.opt("mode", mode, 0, 6)) return false;
        const base::JsonIn attrs = prim["attributes"];
        if (!attrs.object()) return false;
        if (mode < 4 || !attrs.has("POSITION")) {
          if (noted.insert({in.mesh, p}).second && ++skipped <= kMaxNotes)
            m_out->notes.push_back(label + ": " + (mode < 4 ? std::string(mode == 0 ? "points" : "lines") + " (mode " + std::to_string(mode) + ")" : std::string("no POSITION")) + " skipped");
          continue;
        }
        std::string material;
        if (prim.has("material")) {
          int mat = 0;
          if (!indexInto(prim["material"], "materials", mat)) return false;
          material = nameOf(root["materials"][size_t(mat)]);
        }
        const auto key = std::make_tuple(nodeName, meshName, material);
        auto g = groupOf.find(key);
        if (g == groupOf.end()) {
          g = groupOf.emplace(key, uint32_t(m_out->groups.size())).first;
          m_out->groups.push_back({nodeName, meshName, material});
        }
        long long before = (long long)m_out->tris.size() / 3;
        if (!primitive(prim, label, mode, in.world, in.node)) return false;
        m_out->triGroup.insert(m_out->triGroup.end(), size_t((long long)m_out->tris.size() / 3 - before), g->second);
        if (!tick()) return false;
      }
    }
    if (skipped > kMaxNotes) m_out->notes.push_back("and " + std::to_string(skipped - kMaxNotes) + " more primitives skipped");
    if (m_out->tris.empty()) return bad("no triangles (no mesh of triangles, strips or fans in the scene)");
    return true;
  }

  /// The vertex count a primitive draws (its indices', else its positions') and its mode.
  bool primitiveCount(const base::JsonIn& prim, long long& n, int& mode) {
    if (!prim.object() || !prim.opt("mode", mode, 0, 6)) return false;
    const base::JsonIn attrs = prim["attributes"];
    if (!attrs.object()) return false;
    if (mode < 4 || !attrs.has("POSITION")) return true;
    int ai = 0;
    if (!indexInto(prim.has("indices") ? prim["indices"] : attrs["POSITION"], "accessors", ai)) return false;
    return m_root()["accessors"][size_t(ai)].get("count", n, 1, std::numeric_limits<int>::max());
  }

  /// Reports the triangles placed so far (after each primitive, and every 64k triangles within
  /// one); false when cancelled.
  bool tick() {
    if (!m_progress) return true;
    const double done = double(m_out->tris.size() / 3);
    if (m_progress(m_totalTris > 0 ? std::min(1.0, done / double(m_totalTris)) : 1.0)) return true;
    cancelled = true;
    return bad("loading cancelled");
  }

  bool primitive(const base::JsonIn& prim, const std::string& label, int mode, const Mat4& world, int node) {
    int pi = 0;
    if (!indexInto(prim["attributes"]["POSITION"], "accessors", pi)) return false;
    const Values<float>* pos = positions(pi);
    if (!pos) return false;
    const long long nv = (long long)pos->size / 3;
    const Values<uint32_t>* idx = nullptr;
    if (prim.has("indices")) {
      int ii = 0;
      if (!indexInto(prim["indices"], "accessors", ii) || !(idx = indices(ii))) return false;
      for (size_t k = 0; k < idx->size; ++k)
        if (const uint32_t d = idx->data[k]; d >= uint64_t(nv)) return bad(label + ": index " + std::to_string(d) + " outside the " + std::to_string(nv) + " vertices");
    }
    const long long n = idx ? (long long)idx->size : nv;
    if (mode == 4 && n % 3) return bad(label + ": " + std::to_string(n) + " indices, not a multiple of 3 (triangles)");
    const long long base = (long long)m_out->verts.size() / 3;
    if (base + nv > m_limits.maxVertices) return bad("more than " + std::to_string(m_limits.maxVertices) + " vertices in the scene");
    static const Mat4 identity;
    if (std::equal(world.m, world.m + 16, identity.m)) { // a root without a transform: the positions as they are
      m_out->verts.insert(m_out->verts.end(), pos->data, pos->data + pos->size);
    }
    const long long toTransform = m_out->verts.size() / 3 > size_t(base) ? 0 : nv;
    m_out->verts.reserve(size_t(base + toTransform) * 3);
    for (long long v = 0; v < toTransform; ++v) {
      const double x = pos->data[v * 3], y = pos->data[v * 3 + 1], z = pos->data[v * 3 + 2];
      for (int r = 0; r < 3; ++r) {
        const double w = world.m[r] * x + world.m[4 + r] * y + world.m[8 + r] * z + world.m[12 + r];
        if (!(std::fabs(w) < 3.0e38))
          return bad("node " + std::to_string(node) + ": " + label + ": position " + std::to_string(v) + " is not a finite float after the node transforms");
        m_out->verts.push_back(float(w));
      }
    }
    const bool flip = world.det3() < 0;
    if (mode == 4 && idx && !flip) { // the common case, straight
      const size_t at0 = m_out->tris.size();
      m_out->tris.resize(at0 + idx->size);
      int* t = m_out->tris.data() + at0;
      for (size_t k = 0; k < idx->size; ++k) t[k] = int(base + idx->data[k]);
      return tick();
    }
    auto at = [&](long long k) { return int(base + (idx ? (long long)idx->data[k] : k)); };
    auto tri = [&](int a, int b, int c) {
      m_out->tris.push_back(a);
      m_out->tris.push_back(flip ? c : b);
      m_out->tris.push_back(flip ? b : c);
    };
    const long long step = mode == 4 ? 3 : 1, every = step << 16;
    for (long long k = 0; k + 2 < n; k += step) {
      if (mode == 4) tri(at(k), at(k + 1), at(k + 2));
      else if (mode == 5) tri(at(k), at(k + 1 + (k & 1)), at(k + 2 - (k & 1))); // strip: (i, i+1, i+2), odd i (i, i+2, i+1)
      else tri(at(k + 1), at(k + 2), at(0));                                   // fan: (i+1, i+2, 0)
      if (k % every == every - step && !tick()) return false;
    }
    return true;
  }

  const std::string& m_name;
  const std::string m_folder;
  const GltfLimits m_limits;
  mutable base::JsonErrors m_errors;
  nlohmann::json m_doc;
  const unsigned char* m_bin = nullptr; ///< The GLB's BIN chunk, in the bytes being read.
  size_t m_binSize = 0;
  bool m_hasBin = false;
  std::map<int, std::unique_ptr<Buffer>> m_buffers;
  std::map<int, std::unique_ptr<Values<float>>> m_positions;
  std::map<int, std::unique_ptr<Values<uint32_t>>> m_indices;
  LevelMesh* m_out;
  std::function<bool(double)> m_progress;
  long long m_totalTris = 0;
};

bool readGltfWithProgress(const std::string& name, std::string_view bytes, const std::string& folder, LevelMesh* out,
                          std::string* why, const GltfLimits& limits, const std::function<bool(double)>& progress,
                          bool* cancelled) {
  LevelMesh mesh;
  Reader reader(name, folder, limits, &mesh, progress);
  if (!reader.read(bytes)) {
    if (why) *why = reader.message();
    if (cancelled) *cancelled = reader.cancelled;
    return false;
  }
  *out = std::move(mesh);
  return true;
}

} // namespace

bool readGltf(const std::string& name, const std::string& bytes, const std::string& folder, LevelMesh* out,
              std::string* why, const GltfLimits& limits) {
  return readGltfWithProgress(name, bytes, folder, out, why, limits, {}, nullptr);
}

bool loadGltf(const std::string& path, LevelMesh* out, std::string* why, const MeshProgress& progress,
              const GltfLimits& limits) {
  // Mapped, not read: the page cache's pages are the bytes (no copy, no zeroed buffer), touched in
  // 4 MiB blocks for the progress. (A file truncated by another process while it is mapped would
  // fault; a level is not written while it is opened.)
  MappedFile file;
  std::string problem;
  const ReadResult r = file.open(path, limits.maxFileBytes, problem, [&](long long done, long long size) {
    return !progress || progress(done, 2 * size);
  });
  if (r != ReadResult::Ok) {
    if (why) *why = path + ": " + (r == ReadResult::Cancelled ? std::string("loading cancelled") : problem);
    return false;
  }
  const std::string_view bytes = file.bytes();
  const long long fileBytes = (long long)bytes.size();
  std::function<bool(double)> place;
  if (progress) place = [&](double f) { return progress(fileBytes + (long long)(f * double(fileBytes)), 2 * fileBytes); };
  return readGltfWithProgress(path, bytes, folderOf(path), out, why, limits, place, nullptr);
}

std::string glbContainer(const std::string& json, const std::string& bin) {
  std::string j = json, b = bin;
  while (j.size() % 4) j.push_back(' ');
  while (b.size() % 4) b.push_back('\0');
  std::string out;
  auto u32 = [&](uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
  const uint32_t total = uint32_t(12 + 8 + j.size() + (b.empty() ? 0 : 8 + b.size()));
  out.reserve(total);
  u32(kGlbMagic);
  u32(2);
  u32(total);
  u32(uint32_t(j.size()));
  u32(kChunkJson);
  out += j;
  if (!b.empty()) {
    u32(uint32_t(b.size()));
    u32(kChunkBin);
    out += b;
  }
  return out;
}

bool saveGlb(const std::string& path, const std::vector<float>& verts, const std::vector<int>& tris,
             const std::string& name, std::string* why) {
  const size_t nv = verts.size() / 3, ni = tris.size();
  if (nv == 0 || ni == 0 || ni % 3 || verts.size() * 4 + ni * 4 > (size_t(1) << 31)) {
    if (why) *why = path + ": nothing to write, or too big for one .glb";
    return false;
  }
  float lo[3] = {verts[0], verts[1], verts[2]}, hi[3] = {verts[0], verts[1], verts[2]};
  for (size_t v = 0; v < nv; ++v)
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], verts[v * 3 + size_t(k)]);
      hi[k] = std::max(hi[k], verts[v * 3 + size_t(k)]);
    }
  std::string bin(nv * 12 + ni * 4, '\0');
  std::memcpy(&bin[0], verts.data(), nv * 12);
  std::memcpy(&bin[nv * 12], tris.data(), ni * 4); // non-negative ints: the same bytes as uint32
  nlohmann::json doc = {
      {"asset", {{"version", "2.0"}, {"generator", "NavBench"}}},
      {"scene", 0},
      {"scenes", {{{"nodes", {0}}}}},
      {"nodes", {{{"mesh", 0}, {"name", name}}}},
      {"meshes", {{{"name", name}, {"primitives", {{{"attributes", {{"POSITION", 0}}}, {"indices", 1}, {"mode", 4}}}}}}},
      {"accessors",
       {{{"bufferView", 0}, {"componentType", 5126}, {"count", nv}, {"type", "VEC3"},
         {"min", {base::exactFloat(lo[0]), base::exactFloat(lo[1]), base::exactFloat(lo[2])}},
         {"max", {base::exactFloat(hi[0]), base::exactFloat(hi[1]), base::exactFloat(hi[2])}}},
        {{"bufferView", 1}, {"componentType", 5125}, {"count", ni}, {"type", "SCALAR"}}}},
      {"bufferViews",
       {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", nv * 12}, {"target", 34962}},
        {{"buffer", 0}, {"byteOffset", nv * 12}, {"byteLength", ni * 4}, {"target", 34963}}}},
      {"buffers", {{{"byteLength", bin.size()}}}},
  };
  const std::string glb = glbContainer(doc.dump(), bin);
  std::string err;
  if (!base::writeFileAtomic(path, glb, err)) {
    if (why) *why = err;
    return false;
  }
  return true;
}

} // namespace nav::bake
