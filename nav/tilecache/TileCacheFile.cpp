// TileCacheFile.cpp: .tcache files (ours), with validation and atomic writes; mirrors
// nav/TileSetFile.cpp's checks and messages.
#include "nav/tilecache/TileCacheFile.h"

#include "nav/FileMessages.h"
#include "nav/NavMesh.h"
#include "nav/base/AtomicFile.h"
#include "nav/tilecache/Lz4Compressor.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <set>
#include <tuple>

namespace nav::tilecache {

namespace {

constexpr size_t HEADER_BYTES = 20 + 52 + 28 + 52;   // through the bake summary
constexpr size_t AREA_BYTES = 4 + 64 * 2;
constexpr size_t LINK_BYTES = TCACHE_LINK_BYTES;
constexpr size_t FIXED_BYTES = HEADER_BYTES + AREA_BYTES;
static_assert(HEADER_BYTES == 152, "header layout");
static_assert(FIXED_BYTES == TCACHE_FIXED_BYTES, "header layout");

using filemsg::fail;
using filemsg::fmt;
std::string fnum(float v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", double(v));
  return buf;
}

bool littleEndianHost() {
  const uint32_t one = 1;
  uint8_t b;
  std::memcpy(&b, &one, 1);
  return b == 1;
}

} // namespace

uint32_t tcacheCrc32(const uint8_t* p, size_t n) {
  static uint32_t table[256];
  static bool init = [] {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    return true;
  }();
  (void)init;
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

namespace {
uint32_t crc32(const uint8_t* p, size_t n) { return tcacheCrc32(p, n); }

/// Little-endian writer.
struct Writer {
  std::vector<uint8_t>& out;
  void u8(uint8_t v) { out.push_back(v); }
  void u16(uint16_t v) {
    u8(uint8_t(v));
    u8(uint8_t(v >> 8));
  }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) u8(uint8_t(v >> (8 * i)));
  }
  void i32(int32_t v) { u32(uint32_t(v)); }
  void f32(float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    u32(b);
  }
  void bytes(const uint8_t* p, size_t n) { out.insert(out.end(), p, p + n); }
};

/// Little-endian reader over a range already known to be long enough.
struct Reader {
  const uint8_t* p;
  size_t pos = 0;
  uint8_t u8() { return p[pos++]; }
  uint16_t u16() {
    const uint16_t v = uint16_t(p[pos] | p[pos + 1] << 8);
    pos += 2;
    return v;
  }
  uint32_t u32() {
    const uint32_t v = uint32_t(p[pos]) | uint32_t(p[pos + 1]) << 8 | uint32_t(p[pos + 2]) << 16 | uint32_t(p[pos + 3]) << 24;
    pos += 4;
    return v;
  }
  int32_t i32() { return int32_t(u32()); }
  float f32() {
    const uint32_t b = u32();
    float v;
    std::memcpy(&v, &b, 4);
    return v;
  }
};

void writeParams(Writer& w, const TileCacheParams& p) {
  for (int i = 0; i < 3; ++i) w.f32(p.orig[i]);
  w.f32(p.cs);
  w.f32(p.ch);
  w.i32(p.width);
  w.i32(p.height);
  w.f32(p.walkableHeight);
  w.f32(p.walkableRadius);
  w.f32(p.walkableClimb);
  w.f32(p.maxSimplificationError);
  w.i32(p.maxTiles);
  w.i32(p.maxObstacles);
}
void readParams(Reader& r, TileCacheParams* p) {
  for (int i = 0; i < 3; ++i) p->orig[i] = r.f32();
  p->cs = r.f32();
  p->ch = r.f32();
  p->width = r.i32();
  p->height = r.i32();
  p->walkableHeight = r.f32();
  p->walkableRadius = r.f32();
  p->walkableClimb = r.f32();
  p->maxSimplificationError = r.f32();
  p->maxTiles = r.i32();
  p->maxObstacles = r.i32();
}
void writeMeshParams(Writer& w, const NavMeshParams& p) {
  for (int i = 0; i < 3; ++i) w.f32(p.orig[i]);
  w.f32(p.tileWidth);
  w.f32(p.tileHeight);
  w.i32(p.maxTiles);
  w.i32(p.maxPolys);
}
void readMeshParams(Reader& r, NavMeshParams* p) {
  for (int i = 0; i < 3; ++i) p->orig[i] = r.f32();
  p->tileWidth = r.f32();
  p->tileHeight = r.f32();
  p->maxTiles = r.i32();
  p->maxPolys = r.i32();
}
void writeSummary(Writer& w, const TileCacheBakeSummary& b) {
  for (int i = 0; i < 3; ++i) w.f32(b.bmin[i]);
  for (int i = 0; i < 3; ++i) w.f32(b.bmax[i]);
  w.i32(b.tilesX);
  w.i32(b.tilesY);
  w.i32(b.tileSize);
  w.i32(b.borderSize);
  w.f32(b.agentMaxSlope);
  w.u32(b.filters);
  w.i32(b.volumeCount);
}
void readSummary(Reader& r, TileCacheBakeSummary* b) {
  for (int i = 0; i < 3; ++i) b->bmin[i] = r.f32();
  for (int i = 0; i < 3; ++i) b->bmax[i] = r.f32();
  b->tilesX = r.i32();
  b->tilesY = r.i32();
  b->tileSize = r.i32();
  b->borderSize = r.i32();
  b->agentMaxSlope = r.f32();
  b->filters = r.u32();
  b->volumeCount = r.i32();
}

bool finite(float v) { return std::isfinite(v); }

/// Checks everything but the layers' contents; "" when fine, else the problem.
std::string checkHeader(const TileCacheFileData& d, size_t layerCount) {
  const TileCacheParams& p = d.params;
  for (int i = 0; i < 3; ++i)
    if (!finite(p.orig[i]) || std::fabs(p.orig[i]) > 1e9f) return "tile cache origin is not finite (or beyond 1e9)";
  // Cells smaller than 1e-3 wu make the agent's size in cells overflow an int (a denormal ch did).
  if (!finite(p.cs) || !(p.cs >= 1e-3f) || p.cs > 1e3f) return "cell size " + fnum(p.cs) + " is not in [0.001, 1000]";
  if (!finite(p.ch) || !(p.ch >= 1e-3f) || p.ch > 1e3f) return "cell height " + fnum(p.ch) + " is not in [0.001, 1000]";
  if (p.width < 1 || p.width > 255 || p.height < 1 || p.height > 255)
    return fmt("tile size %lld x %lld cells is not in 1..255", p.width, p.height);
  if (!finite(p.walkableHeight) || p.walkableHeight < 0 || !finite(p.walkableRadius) || p.walkableRadius < 0 ||
      !finite(p.walkableClimb) || p.walkableClimb < 0 || p.walkableHeight > 1e4f || p.walkableRadius > 1e4f ||
      p.walkableClimb > 1e4f)
    return "agent height, radius or climb is negative, not finite or beyond 1e4";
  if (!finite(p.maxSimplificationError) || p.maxSimplificationError < 0 || p.maxSimplificationError > 1e3f)
    return "maxSimplificationError " + fnum(p.maxSimplificationError) + " is not in [0, 1000]";
  const long long slotLimit = std::max<long long>(TCACHE_SLOT_FLOOR, 4ll * (long long)layerCount);
  if (p.maxTiles < 1 || p.maxTiles > slotLimit)
    return fmt("tile cache maxTiles %lld is not in 1..%lld (at least 65536, else 4 per layer in the file)", p.maxTiles,
               slotLimit);
  if ((long long)layerCount > p.maxTiles)
    return fmt("%lld layers but maxTiles is %lld", (long long)layerCount, p.maxTiles);
  if (p.maxObstacles < 0 || p.maxObstacles > 65535) return fmt("maxObstacles %lld is not in 0..65535", p.maxObstacles);

  const NavMeshParams& m = d.meshParams;
  for (int i = 0; i < 3; ++i)
    if (m.orig[i] != p.orig[i]) return "navmesh origin differs from the tile cache's";
  if (m.tileWidth != float(p.width) * p.cs || m.tileHeight != float(p.height) * p.cs)
    return "navmesh tile size " + fnum(m.tileWidth) + " x " + fnum(m.tileHeight) + " is not the layers' " +
           std::to_string(p.width) + " x " + std::to_string(p.height) + " cells of " + fnum(p.cs);
  if (m.maxTiles < 1 || m.maxTiles > slotLimit)
    return fmt("navmesh maxTiles %lld is not in 1..%lld (at least 65536, else 4 per layer in the file)", m.maxTiles,
               slotLimit);
  if (m.maxPolys < 1) return fmt("navmesh maxPolys %lld is not positive", m.maxPolys);
  {
    // Poly refs hold salt | tile | poly in 32 bits, with at least 10 salt bits (NavMesh::init's rule).
    auto bits = [](long long v) {
      int b = 0;
      while ((1ll << b) < v) ++b;
      return b;
    };
    const int tileBits = bits(m.maxTiles), polyBits = bits(m.maxPolys);
    if (tileBits + polyBits > 22)
      return fmt("navmesh maxTiles %lld and maxPolys %lld need %lld ref bits; at most 22 leave room for the salt", m.maxTiles,
                 m.maxPolys, tileBits + polyBits);
  }
  if ((long long)layerCount > m.maxTiles)
    return fmt("%lld layers but the navmesh holds at most %lld tiles", (long long)layerCount, m.maxTiles);

  const TileCacheBakeSummary& b = d.bake;
  for (int i = 0; i < 3; ++i)
    if (!finite(b.bmin[i]) || !finite(b.bmax[i]) || b.bmin[i] > b.bmax[i]) return "level bounds are empty or not finite";
  if (b.tileSize != p.width || b.tileSize != p.height)
    return fmt("bake tile size %lld differs from the layers' %lld x %lld", b.tileSize, p.width, p.height);
  if (b.tilesX < 1 || b.tilesY < 1 || (long long)b.tilesX * b.tilesY > p.maxTiles)
    return fmt("tile grid %lld x %lld is empty or larger than maxTiles %lld", b.tilesX, b.tilesY, p.maxTiles);
  if (b.borderSize < 0 || b.borderSize > 1024) return fmt("border %lld cells is not in 0..1024", b.borderSize);
  if (!finite(b.agentMaxSlope) || b.agentMaxSlope < 0 || b.agentMaxSlope > 90)
    return "agentMaxSlope " + fnum(b.agentMaxSlope) + " is not in [0, 90]";
  if (b.filters & ~7u) return fmt("unknown filter bits 0x%llx", b.filters);
  if (b.volumeCount < 0) return "negative volume count";

  if (d.walkableArea >= TILECACHE_WALKABLE_AREA) return fmt("walkable area %lld is not in 0..62", d.walkableArea);
  if (d.links.size() > size_t(TCACHE_MAX_LINKS)) return fmt("%lld links; at most %lld", (long long)d.links.size(), TCACHE_MAX_LINKS);
  for (size_t i = 0; i < d.links.size(); ++i) {
    const TileCacheLink& l = d.links[i];
    const std::string at = fmt("link %lld: ", (long long)i);
    for (int k = 0; k < 3; ++k)
      if (!finite(l.start[k]) || !finite(l.end[k])) return at + "an end point is not finite";
    if (!finite(l.radius) || !(l.radius > 0)) return at + "radius " + fnum(l.radius) + " is not > 0";
    if (l.area >= TILECACHE_WALKABLE_AREA) return at + fmt("area %lld is not in 0..62", l.area);
    if (l.dir > 1) return at + fmt("direction %lld is not 0 or 1", l.dir);
  }
  return "";
}

} // namespace

std::unique_ptr<TileCacheCompressor> makeCompressor(uint32_t id) {
  if (id == TCACHE_COMPRESSOR_LZ4) return std::make_unique<Lz4Compressor>();
  if (id == TCACHE_COMPRESSOR_NONE) return std::make_unique<NullCompressor>();
  return nullptr;
}

const char* compressorName(uint32_t id) {
  return id == TCACHE_COMPRESSOR_LZ4 ? "lz4" : id == TCACHE_COMPRESSOR_NONE ? "none" : "unknown";
}

Status saveTileCache(const TileCacheFileData& d, std::vector<uint8_t>& out, std::string* why) {
  out.clear();
  if (!littleEndianHost()) return fail(why, FAILURE | INVALID_PARAM, "save: .tcache layer headers need a little-endian host");
  if (!makeCompressor(d.compressor)) return fail(why, FAILURE | INVALID_PARAM, fmt("save: unknown compressor id %lld", d.compressor));
  if (const std::string bad = checkHeader(d, d.layers.size()); !bad.empty())
    return fail(why, FAILURE | INVALID_PARAM, "save: " + bad);
  size_t total = FIXED_BYTES + d.links.size() * LINK_BYTES + 4;
  for (const std::vector<uint8_t>& l : d.layers) {
    if (l.size() < size_t(TILECACHE_LAYER_HEADER_SIZE) || l.size() > 0x7fffffff)
      return fail(why, FAILURE | INVALID_PARAM, fmt("save: a layer blob of %lld bytes", (long long)l.size()));
    total += 4 + l.size();
  }
  out.reserve(total);
  Writer w{out};
  w.bytes(reinterpret_cast<const uint8_t*>(TCACHE_MAGIC), 4);
  w.u32(TCACHE_VERSION);
  w.u32(d.compressor);
  w.u32(uint32_t(d.layers.size()));
  w.u32(uint32_t(d.links.size()));
  writeParams(w, d.params);
  writeMeshParams(w, d.meshParams);
  writeSummary(w, d.bake);
  w.u8(d.walkableArea);
  w.u8(0);
  w.u8(0);
  w.u8(0);
  for (uint16_t f : d.areaFlags) w.u16(f);
  for (const TileCacheLink& l : d.links) {
    for (float v : l.start) w.f32(v);
    for (float v : l.end) w.f32(v);
    w.f32(l.radius);
    w.u16(l.flags);
    w.u8(l.area);
    w.u8(l.dir);
    w.u32(l.userId);
  }
  for (const std::vector<uint8_t>& l : d.layers) {
    w.u32(uint32_t(l.size()));
    w.bytes(l.data(), l.size());
  }
  w.u32(crc32(out.data(), out.size()));
  return SUCCESS;
}

Status saveTileCacheFile(const TileCacheFileData& data, const std::string& path, std::string* why) {
  std::vector<uint8_t> buf;
  Status s = saveTileCache(data, buf, why);
  if (statusFailed(s)) {
    if (why) *why = path + ": " + *why;
    return s;
  }
  std::string err;
  if (!base::writeFileAtomic(path, buf.data(), buf.size(), err)) return fail(why, FAILURE | INVALID_PARAM, err);
  return SUCCESS;
}

Status loadTileCache(const uint8_t* buf, size_t size, TileCacheFileData* out, std::string* why, const char* name) {
  const std::string src = name ? name : "<memory>";
  if (!buf && size) return fail(why, FAILURE | INVALID_PARAM, src + ": no buffer");
  if (!littleEndianHost()) return fail(why, FAILURE | INVALID_PARAM, src + ": .tcache files need a little-endian host");
  if (size < 4 || std::memcmp(buf, TCACHE_MAGIC, 4) != 0) {
    if (size < 4)
      return fail(why, FAILURE | WRONG_MAGIC, src + fmt(": %lld bytes, too short for a tile cache file", (long long)size));
    return fail(why, FAILURE | WRONG_MAGIC,
                src + fmt(": wrong magic %02llx %02llx %02llx %02llx, expected \"NBTC\" (not a .tcache file)", buf[0], buf[1], buf[2],
                          buf[3]));
  }
  if (size < FIXED_BYTES + 4)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": %lld bytes, too short for the %lld-byte header and the checksum", (long long)size,
                          (long long)(FIXED_BYTES + 4)));
  Reader r{buf, 4};
  const uint32_t version = r.u32();
  if (version != TCACHE_VERSION)
    return fail(why, FAILURE | WRONG_VERSION, src + fmt(": tile cache version %lld, expected %lld", version, TCACHE_VERSION));
  const uint32_t stored = uint32_t(buf[size - 4]) | uint32_t(buf[size - 3]) << 8 | uint32_t(buf[size - 2]) << 16 |
                          uint32_t(buf[size - 1]) << 24;
  const uint32_t actual = crc32(buf, size - 4);
  if (stored != actual)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": checksum mismatch (stored 0x%08llx, content 0x%08llx): the file is truncated or corrupt", stored,
                          actual));
  const size_t body = size - 4; // everything before the checksum

  TileCacheFileData d;
  d.compressor = r.u32();
  const uint32_t layerCount = r.u32();
  const uint32_t linkCount = r.u32();
  readParams(r, &d.params);
  readMeshParams(r, &d.meshParams);
  readSummary(r, &d.bake);
  d.walkableArea = r.u8();
  const uint8_t pad[3] = {r.u8(), r.u8(), r.u8()};
  for (uint16_t& f : d.areaFlags) f = r.u16();
  if (pad[0] || pad[1] || pad[2]) return fail(why, FAILURE | INVALID_PARAM, src + ": header padding is not zero");

  std::unique_ptr<TileCacheCompressor> comp = makeCompressor(d.compressor);
  if (!comp)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": unknown compressor id %lld (known: 0 none, 1 lz4)", d.compressor));
  // Counts first, against what the bytes can hold, before anything is allocated.
  if (linkCount > uint32_t(TCACHE_MAX_LINKS))
    return fail(why, FAILURE | INVALID_PARAM, src + fmt(": %lld links; at most %lld", linkCount, TCACHE_MAX_LINKS));
  if (uint64_t(linkCount) * LINK_BYTES > body - FIXED_BYTES)
    return fail(why, FAILURE | INVALID_PARAM, src + fmt(": %lld links cannot fit in %lld bytes", linkCount, (long long)size));
  const size_t linksEnd = FIXED_BYTES + size_t(linkCount) * LINK_BYTES;
  const size_t minLayerBytes = 4 + size_t(TILECACHE_LAYER_HEADER_SIZE);
  if (uint64_t(layerCount) * minLayerBytes > body - linksEnd)
    return fail(why, FAILURE | INVALID_PARAM, src + fmt(": %lld layers cannot fit in %lld bytes", layerCount, (long long)size));

  d.links.resize(linkCount);
  for (TileCacheLink& l : d.links) {
    for (float& v : l.start) v = r.f32();
    for (float& v : l.end) v = r.f32();
    l.radius = r.f32();
    l.flags = r.u16();
    l.area = r.u8();
    l.dir = r.u8();
    l.userId = r.u32();
  }
  if (const std::string bad = checkHeader(d, layerCount); !bad.empty())
    return fail(why, FAILURE | INVALID_PARAM, src + ": " + bad);

  // Layers: each header checked, placed in the grid once, and decompressed to its declared size.
  TileCacheAlloc alloc;
  std::set<std::tuple<int, int, int>> seen;
  d.layers.reserve(layerCount);
  for (uint32_t i = 0; i < layerCount; ++i) {
    std::string at = src + fmt(": layer %lld", i);
    if (body - r.pos < 4) return fail(why, FAILURE | INVALID_PARAM, at + fmt(": truncated size field at byte %lld", (long long)r.pos));
    const uint32_t n = r.u32();
    if (n < uint32_t(TILECACHE_LAYER_HEADER_SIZE))
      return fail(why, FAILURE | INVALID_PARAM,
                  at + fmt(": size %lld is smaller than a layer header (%lld bytes)", n, TILECACHE_LAYER_HEADER_SIZE));
    if (n > body - r.pos)
      return fail(why, FAILURE | INVALID_PARAM, at + fmt(": size %lld but only %lld bytes left", n, (long long)(body - r.pos)));
    const uint8_t* blob = buf + r.pos;
    TileCacheLayerHeader h;
    Status s = readTileCacheLayerHeader(blob, int(n), &h);
    char sbuf[128];
    if (statusFailed(s)) return fail(why, s, at + ": bad layer header (" + statusToString(s, sbuf, sizeof sbuf) + ")");
    at += fmt(" (tile %lld, %lld, layer %lld)", h.tx, h.ty, h.tlayer);
    if (h.tx < 0 || h.ty < 0 || h.tx >= d.bake.tilesX || h.ty >= d.bake.tilesY)
      return fail(why, FAILURE | INVALID_PARAM, at + fmt(": outside the %lld x %lld tile grid", d.bake.tilesX, d.bake.tilesY));
    if (h.tlayer < 0 || h.tlayer >= TCACHE_MAX_LAYERS_PER_TILE)
      return fail(why, FAILURE | INVALID_PARAM, at + fmt(": layer index not in 0..%lld", TCACHE_MAX_LAYERS_PER_TILE - 1));
    if (h.width != d.params.width || h.height != d.params.height)
      return fail(why, FAILURE | INVALID_PARAM,
                  at + fmt(": grid %lld x %lld, but the cache's tiles are %lld x %lld", h.width, h.height, d.params.width,
                           d.params.height));
    if (!seen.insert({h.tx, h.ty, h.tlayer}).second)
      return fail(why, FAILURE | INVALID_PARAM, at + ": the same tile and layer came earlier in the file");
    TileCacheLayer* layer = nullptr;
    s = decompressTileCacheLayer(&alloc, comp.get(), blob, int(n), &layer);
    if (statusFailed(s) || !layer)
      return fail(why, statusFailed(s) ? s : Status(FAILURE | INVALID_PARAM),
                  at + ": corrupt: does not decompress to its " + std::to_string(h.width) + " x " + std::to_string(h.height) +
                      " x 3 grid bytes (" + statusToString(s, sbuf, sizeof sbuf) + ")");
    freeTileCacheLayer(&alloc, layer);
    d.layers.emplace_back(blob, blob + n);
    r.pos += n;
  }
  if (r.pos != body)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": %lld unexpected bytes after the last layer", (long long)(body - r.pos)));
  if (out) *out = std::move(d);
  return SUCCESS;
}

Status loadTileCacheFile(const std::string& path, TileCacheFileData* out, std::string* why) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return fail(why, FAILURE | INVALID_PARAM, path + ": cannot open: " + std::strerror(errno));
  std::vector<uint8_t> buf;
  uint8_t chunk[65536];
  size_t n;
  bool tooBig = false;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) {
    if ((long long)(buf.size() + n) > TCACHE_MAX_FILE_BYTES) {
      tooBig = true;
      break;
    }
    buf.insert(buf.end(), chunk, chunk + n);
  }
  const bool err = std::ferror(f) != 0;
  std::fclose(f);
  if (tooBig)
    return fail(why, FAILURE | INVALID_PARAM, path + fmt(": larger than %lld MiB", TCACHE_MAX_FILE_BYTES >> 20));
  if (err) return fail(why, FAILURE | INVALID_PARAM, path + ": read error");
  return loadTileCache(buf.data(), buf.size(), out, why, path.c_str());
}

} // namespace nav::tilecache

namespace nav::tilecache {

FileMeshProcess::FileMeshProcess(const TileCacheFileData& data) : m_walkableArea(data.walkableArea) {
  std::memcpy(m_areaFlags, data.areaFlags, sizeof m_areaFlags);
  for (const TileCacheLink& l : data.links) {
    m_verts.insert(m_verts.end(), l.start, l.start + 3);
    m_verts.insert(m_verts.end(), l.end, l.end + 3);
    m_rad.push_back(l.radius);
    m_flags.push_back(l.flags);
    m_areas.push_back(l.area);
    m_dir.push_back(l.dir);
    m_userIds.push_back(l.userId);
  }
}

void FileMeshProcess::process(TileBuildParams* params, uint8_t* polyAreas, uint16_t* polyFlags) {
  for (int i = 0; i < params->polyCount; ++i) {
    if (polyAreas[i] == TILECACHE_WALKABLE_AREA) polyAreas[i] = m_walkableArea;
    polyFlags[i] = m_areaFlags[polyAreas[i] & 63];
  }
  if (!m_rad.empty()) {
    params->offMeshConVerts = m_verts.data();
    params->offMeshConRad = m_rad.data();
    params->offMeshConFlags = m_flags.data();
    params->offMeshConAreas = m_areas.data();
    params->offMeshConDir = m_dir.data();
    params->offMeshConUserID = m_userIds.data();
    params->offMeshConCount = int(m_rad.size());
  }
}

OpenTileCache::OpenTileCache() = default;
OpenTileCache::~OpenTileCache() {
  cache.reset(); // before the compressor and the mesh process it points at
}
OpenTileCache::OpenTileCache(OpenTileCache&&) noexcept = default;
OpenTileCache& OpenTileCache::operator=(OpenTileCache&& o) noexcept {
  if (this != &o) {
    cache.reset();
    info = std::move(o.info);
    compressor = std::move(o.compressor);
    meshProcess = std::move(o.meshProcess);
    mesh = std::move(o.mesh);
    cache = std::move(o.cache);
  }
  return *this;
}

Status openTileCache(TileCacheFileData data, int maxObstacles, OpenTileCache* out, std::string* why, const char* name) {
  const std::string src = name ? name : "<memory>";
  if (maxObstacles < 0 || maxObstacles > 65535)
    return fail(why, FAILURE | INVALID_PARAM, src + fmt(": maxObstacles %lld is not in 0..65535", maxObstacles));
  OpenTileCache o;
  o.compressor = makeCompressor(data.compressor);
  if (!o.compressor) return fail(why, FAILURE | INVALID_PARAM, src + fmt(": unknown compressor id %lld", data.compressor));
  o.meshProcess = std::make_unique<FileMeshProcess>(data);
  o.cache = std::make_unique<TileCache>();
  o.mesh = std::make_unique<NavMesh>();
  TileCacheParams params = data.params;
  if (maxObstacles > 0) params.maxObstacles = maxObstacles;
  Status s = o.cache->init(params, o.compressor.get(), o.meshProcess.get());
  if (statusFailed(s)) {
    char buf[128];
    return fail(why, s, src + ": the tile cache refused its parameters (" + statusToString(s, buf, sizeof buf) + ")");
  }
  std::string err;
  s = o.mesh->init(data.meshParams, &err);
  if (statusFailed(s)) return fail(why, s, src + ": navmesh: " + err);
  for (size_t i = 0; i < data.layers.size(); ++i) {
    std::vector<uint8_t>& blob = data.layers[i];
    uint8_t* copy = new (std::nothrow) uint8_t[blob.size()];
    if (!copy) return fail(why, FAILURE | OUT_OF_MEMORY, src + fmt(": layer %lld: out of memory", (long long)i));
    std::memcpy(copy, blob.data(), blob.size());
    s = o.cache->addTile(copy, int(blob.size()), COMPRESSEDTILE_FREE_DATA, nullptr);
    if (statusFailed(s)) {
      delete[] copy;
      char buf[128];
      return fail(why, s, src + fmt(": layer %lld: the tile cache refused it (", (long long)i) + statusToString(s, buf, sizeof buf) + ")");
    }
    blob = std::vector<uint8_t>();
  }
  data.layers.clear();
  for (int ty = 0; ty < data.bake.tilesY; ++ty)
    for (int tx = 0; tx < data.bake.tilesX; ++tx) {
      s = o.cache->buildNavMeshTilesAt(tx, ty, o.mesh.get());
      if (statusFailed(s)) {
        char buf[128];
        return fail(why, s, src + fmt(": tile (%lld, %lld) does not build (", tx, ty) + statusToString(s, buf, sizeof buf) + ")");
      }
    }
  o.info = std::move(data);
  *out = std::move(o);
  return SUCCESS;
}

Status openTileCacheFile(const std::string& path, int maxObstacles, OpenTileCache* out, std::string* why) {
  TileCacheFileData data;
  const Status s = loadTileCacheFile(path, &data, why);
  if (statusFailed(s)) return s;
  return openTileCache(std::move(data), maxObstacles, out, why, path.c_str());
}

} // namespace nav::tilecache
