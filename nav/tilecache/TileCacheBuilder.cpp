// TileCacheBuilder.cpp: see TileCacheBuilder.h.
//
// [SECTION] memory: heap allocator, scratch arena, scratch arrays
// [SECTION] layer blobs: build, read header, decompress
// [SECTION] obstacles: cylinder, box, oriented box
// [SECTION] regions: monotone sweep + merge
// [SECTION] contours: walk, simplify, corner heights
// [SECTION] poly mesh: triangulate, merge, weld, remove portal vertices, adjacency
//
// Every comparison, integer rounding and float expression below follows DetourTileCacheBuilder
// 1.5.1's behaviour in the same order (the outputs are compared byte for byte in tests). Where
// Detour would read or write outside its buffers on hostile input, we stop (or skip) instead; those
// places are marked "guard".
#include "nav/tilecache/TileCacheBuilder.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace nav {
namespace tilecache {

namespace {

constexpr int NVP = TILECACHE_VERTS_PER_POLY;
/// Edges around a removed vertex that the hole re-triangulation can hold.
constexpr int MAX_REM_EDGES = 48;
/// Neighbour regions a monotone region remembers.
constexpr int MAX_REGION_NEIS = 16;
constexpr uint8_t NO_REGION = 0xff;
/// getNeighbourRegion's code for "no connection, portal in direction d": PORTAL_CODE + d.
constexpr uint8_t PORTAL_CODE = 0xf8;

constexpr size_t alignUp(size_t n, size_t a) { return (n + a - 1) & ~(a - 1); }

} // namespace

// =============================================================================================
// [SECTION] memory
// =============================================================================================

void* TileCacheAlloc::alloc(size_t size) { return std::malloc(size ? size : 1); }
void TileCacheAlloc::free(void* ptr) { std::free(ptr); }

struct alignas(std::max_align_t) TileCacheArena::Overflow {
  Overflow* next;
};

TileCacheArena::TileCacheArena(size_t capacity) {
  if (capacity) {
    m_block = static_cast<uint8_t*>(std::malloc(capacity));
    if (m_block) m_capacity = capacity;
  }
}

TileCacheArena::~TileCacheArena() {
  reset();
  std::free(m_block);
}

void TileCacheArena::reset() {
  while (m_overflow) {
    Overflow* next = m_overflow->next;
    std::free(m_overflow);
    m_overflow = next;
  }
  m_overflowBytes = 0;
  m_top = 0;
  if (m_highWater > m_capacity) {
    // Grow to what the busiest build so far needed, plus a quarter so that a slightly bigger one
    // does not overflow again.
    const size_t want = alignUp(m_highWater + m_highWater / 4, 4096);
    uint8_t* block = static_cast<uint8_t*>(std::malloc(want));
    if (block) {
      std::free(m_block);
      m_block = block;
      m_capacity = want;
    }
  }
}

void* TileCacheArena::alloc(size_t size) {
  size = alignUp(size ? size : 1, alignof(std::max_align_t));
  void* p = nullptr;
  if (m_block && size <= m_capacity - m_top) {
    p = m_block + m_top;
    m_top += size;
  } else {
    Overflow* o = static_cast<Overflow*>(std::malloc(sizeof(Overflow) + size));
    if (!o) return nullptr;
    o->next = m_overflow;
    m_overflow = o;
    m_overflowBytes += size;
    p = reinterpret_cast<uint8_t*>(o) + sizeof(Overflow);
  }
  if (m_top + m_overflowBytes > m_highWater) m_highWater = m_top + m_overflowBytes;
  return p;
}

void TileCacheArena::free(void*) {}

namespace {

/// A scratch array from a TileCacheAlloc, returned when it goes out of scope.
template <class T> class Scratch {
public:
  Scratch(TileCacheAlloc* a, size_t n) : m_alloc(a), m_ptr(static_cast<T*>(a->alloc(sizeof(T) * (n ? n : 1)))) {}
  ~Scratch() {
    if (m_ptr) m_alloc->free(m_ptr);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T* get() const { return m_ptr; }
  T& operator[](size_t i) const { return m_ptr[i]; }
  explicit operator bool() const { return m_ptr != nullptr; }

private:
  TileCacheAlloc* m_alloc;
  T* m_ptr;
};

inline int dirOffsetX(int dir) {
  static const int off[4] = {-1, 0, 1, 0};
  return off[dir & 3];
}
inline int dirOffsetZ(int dir) {
  static const int off[4] = {0, 1, 0, -1};
  return off[dir & 3];
}

} // namespace

// =============================================================================================
// [SECTION] layer blobs
// =============================================================================================

Status buildTileCacheLayer(TileCacheCompressor* comp, TileCacheLayerHeader* header, const uint8_t* heights,
                           const uint8_t* areas, const uint8_t* cons, uint8_t** outData, int* outDataSize) {
  if (!comp || !header || !heights || !areas || !cons || !outData || !outDataSize) return FAILURE | INVALID_PARAM;
  *outData = nullptr;
  *outDataSize = 0;
  const int gridSize = int(header->width) * int(header->height);
  const int rawSize = gridSize * 3;
  const int maxPacked = comp->maxCompressedSize(rawSize);
  if (maxPacked < 0) return FAILURE | INVALID_PARAM;
  const int maxDataSize = TILECACHE_LAYER_HEADER_SIZE + maxPacked;
  uint8_t* data = new (std::nothrow) uint8_t[size_t(maxDataSize)];
  if (!data) return FAILURE | OUT_OF_MEMORY;
  std::memset(data, 0, size_t(maxDataSize));
  std::memcpy(data, header, sizeof(TileCacheLayerHeader));

  // The three grids go through the compressor as one buffer: heights | areas | cons.
  uint8_t* raw = new (std::nothrow) uint8_t[size_t(rawSize ? rawSize : 1)];
  if (!raw) {
    delete[] data;
    return FAILURE | OUT_OF_MEMORY;
  }
  std::memcpy(raw, heights, size_t(gridSize));
  std::memcpy(raw + gridSize, areas, size_t(gridSize));
  std::memcpy(raw + gridSize * 2, cons, size_t(gridSize));

  int packedSize = 0;
  const Status st = comp->compress(raw, rawSize, data + TILECACHE_LAYER_HEADER_SIZE, maxPacked, &packedSize);
  delete[] raw;
  if (statusFailed(st)) {
    delete[] data;
    return st;
  }
  *outData = data;
  *outDataSize = TILECACHE_LAYER_HEADER_SIZE + packedSize;
  return SUCCESS;
}

Status readTileCacheLayerHeader(const uint8_t* data, int dataSize, TileCacheLayerHeader* out) {
  if (!data || dataSize < TILECACHE_LAYER_HEADER_SIZE) return FAILURE | INVALID_PARAM;
  TileCacheLayerHeader h;
  std::memcpy(&h, data, sizeof(h));
  if (h.magic != TILECACHE_MAGIC) return FAILURE | WRONG_MAGIC;
  if (h.version != TILECACHE_VERSION) return FAILURE | WRONG_VERSION;
  if (h.width == 0 || h.height == 0) return FAILURE | INVALID_PARAM;
  if (h.minx > h.maxx || h.maxx >= h.width || h.miny > h.maxy || h.maxy >= h.height) return FAILURE | INVALID_PARAM;
  if (h.hmin > h.hmax) return FAILURE | INVALID_PARAM;
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(h.bmin[i]) || !std::isfinite(h.bmax[i])) return FAILURE | INVALID_PARAM;
  if (out) *out = h;
  return SUCCESS;
}

Status decompressTileCacheLayer(TileCacheAlloc* alloc, TileCacheCompressor* comp, const uint8_t* compressed,
                                int compressedSize, TileCacheLayer** layerOut) {
  if (!layerOut) return FAILURE | INVALID_PARAM;
  *layerOut = nullptr;
  if (!alloc || !comp || !compressed) return FAILURE | INVALID_PARAM;
  TileCacheLayerHeader h;
  const Status hs = readTileCacheLayerHeader(compressed, compressedSize, &h);
  if (statusFailed(hs)) return hs;

  // One block: TileCacheLayer | header | heights | areas | cons | regs.
  const size_t layerSize = alignUp(sizeof(TileCacheLayer), alignof(std::max_align_t));
  const size_t headerSize = size_t(TILECACHE_LAYER_HEADER_SIZE);
  const int w = h.width, hgt = h.height;
  const int gridSize = w * hgt;
  const size_t blockSize = layerSize + headerSize + size_t(gridSize) * 4;
  uint8_t* block = static_cast<uint8_t*>(alloc->alloc(blockSize));
  if (!block) return FAILURE | OUT_OF_MEMORY;
  // The grids are all written by a successful decompression; clear the rest.
  std::memset(block, 0, layerSize + headerSize);
  std::memset(block + layerSize + headerSize + size_t(gridSize) * 3, 0, size_t(gridSize));
  TileCacheLayer* layer = reinterpret_cast<TileCacheLayer*>(block);
  TileCacheLayerHeader* header = reinterpret_cast<TileCacheLayerHeader*>(block + layerSize);
  uint8_t* grids = block + layerSize + headerSize;
  std::memcpy(header, compressed, headerSize);

  int rawSize = 0;
  Status st = comp->decompress(compressed + TILECACHE_LAYER_HEADER_SIZE, compressedSize - TILECACHE_LAYER_HEADER_SIZE,
                               grids, gridSize * 3, &rawSize);
  if (statusSucceeded(st) && rawSize != gridSize * 3) st = FAILURE | INVALID_PARAM;
  if (statusSucceeded(st)) {
    const uint8_t* areas = grids + gridSize;
    const uint8_t* cons = grids + gridSize * 2;
    uint8_t maxArea = 0; // a branch-free pass (vectorised)
    for (int i = 0; i < gridSize; ++i) maxArea = areas[i] > maxArea ? areas[i] : maxArea;
    if (maxArea > TILECACHE_WALKABLE_AREA) st = FAILURE | INVALID_PARAM;
    // A connection must lead to a cell of the grid (contour walking steps along them): only the
    // border cells can hold one that does not.
    uint8_t outward = 0;
    for (int x = 0; x < w; ++x) outward |= uint8_t((cons[x] & 8) | (cons[x + (hgt - 1) * w] & 2));
    for (int z = 0; z < hgt; ++z) outward |= uint8_t((cons[z * w] & 1) | (cons[w - 1 + z * w] & 4));
    if (outward) st = FAILURE | INVALID_PARAM;
  }
  if (statusFailed(st)) {
    alloc->free(block);
    return st;
  }
  layer->header = header;
  layer->regCount = 0;
  layer->heights = grids;
  layer->areas = grids + gridSize;
  layer->cons = grids + gridSize * 2;
  layer->regs = grids + gridSize * 3;
  *layerOut = layer;
  return SUCCESS;
}

void freeTileCacheLayer(TileCacheAlloc* alloc, TileCacheLayer* layer) {
  if (alloc && layer) alloc->free(layer);
}

TileCacheContourSet* allocTileCacheContourSet(TileCacheAlloc* alloc) {
  if (!alloc) return nullptr;
  void* p = alloc->alloc(sizeof(TileCacheContourSet));
  return p ? new (p) TileCacheContourSet() : nullptr;
}

void freeTileCacheContourSet(TileCacheAlloc* alloc, TileCacheContourSet* cset) {
  if (!alloc || !cset) return;
  for (int i = 0; i < cset->nconts; ++i) alloc->free(cset->conts[i].verts);
  alloc->free(cset->conts);
  alloc->free(cset);
}

TileCachePolyMesh* allocTileCachePolyMesh(TileCacheAlloc* alloc) {
  if (!alloc) return nullptr;
  void* p = alloc->alloc(sizeof(TileCachePolyMesh));
  return p ? new (p) TileCachePolyMesh() : nullptr;
}

void freeTileCachePolyMesh(TileCacheAlloc* alloc, TileCachePolyMesh* lmesh) {
  if (!alloc || !lmesh) return;
  alloc->free(lmesh->verts);
  alloc->free(lmesh->polys);
  alloc->free(lmesh->flags);
  alloc->free(lmesh->areas);
  alloc->free(lmesh);
}

// =============================================================================================
// [SECTION] obstacles
// =============================================================================================

namespace {

/// Clamps the cell rectangle [minx, maxx] x [minz, maxz] to the grid; false when it misses it.
inline bool clampToGrid(int& minx, int& maxx, int& minz, int& maxz, int w, int h) {
  if (maxx < 0 || minx >= w || maxz < 0 || minz >= h) return false;
  if (minx < 0) minx = 0;
  if (maxx >= w) maxx = w - 1;
  if (minz < 0) minz = 0;
  if (maxz >= h) maxz = h - 1;
  return true;
}

/// floor(v) as an int, clamped to +-2^30 (a float beyond int's range would be undefined to convert;
/// inside it this is plain (int)floorf).
inline int floorToInt(float v) {
  const float f = std::floor(v);
  if (!(f >= -1073741824.0f)) return -1073741824; // NaN too
  if (f > 1073741824.0f) return 1073741824;
  return int(f);
}

inline bool finite3(const float* v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

/// The checks every mark function makes at its edge: a layer, finite inputs, positive cell sizes.
inline bool markInputOk(const TileCacheLayer& layer, const float* orig, float cs, float ch) {
  return layer.header && layer.heights && layer.areas && orig && finite3(orig) && std::isfinite(cs) &&
         std::isfinite(ch) && cs > 0 && ch > 0;
}

} // namespace

Status markCylinderArea(TileCacheLayer& layer, const float* orig, float cs, float ch, const float* pos, float radius,
                        float height, uint8_t areaId) {
  if (!markInputOk(layer, orig, cs, ch) || !pos || !finite3(pos) || !std::isfinite(radius) || !std::isfinite(height))
    return FAILURE | INVALID_PARAM;
  const float lo[3] = {pos[0] - radius, pos[1], pos[2] - radius};
  const float hi[3] = {pos[0] + radius, pos[1] + height, pos[2] + radius};
  const float rc = radius / cs + 0.5f;
  const float r2 = rc * rc;
  const int w = layer.header->width, h = layer.header->height;
  const float ics = 1.0f / cs, ich = 1.0f / ch;
  const float px = (pos[0] - orig[0]) * ics;
  const float pz = (pos[2] - orig[2]) * ics;
  int minx = floorToInt((lo[0] - orig[0]) * ics);
  const int miny = floorToInt((lo[1] - orig[1]) * ich);
  int minz = floorToInt((lo[2] - orig[2]) * ics);
  int maxx = floorToInt((hi[0] - orig[0]) * ics);
  const int maxy = floorToInt((hi[1] - orig[1]) * ich);
  int maxz = floorToInt((hi[2] - orig[2]) * ics);
  if (!clampToGrid(minx, maxx, minz, maxz, w, h)) return SUCCESS;
  for (int z = minz; z <= maxz; ++z) {
    for (int x = minx; x <= maxx; ++x) {
      const float dx = (float(x) + 0.5f) - px;
      const float dz = (float(z) + 0.5f) - pz;
      if (dx * dx + dz * dz > r2) continue;
      const int y = layer.heights[x + z * w];
      if (y < miny || y > maxy) continue;
      layer.areas[x + z * w] = areaId;
    }
  }
  return SUCCESS;
}

Status markBoxArea(TileCacheLayer& layer, const float* orig, float cs, float ch, const float* bmin,
                   const float* bmax, uint8_t areaId) {
  if (!markInputOk(layer, orig, cs, ch) || !bmin || !bmax || !finite3(bmin) || !finite3(bmax))
    return FAILURE | INVALID_PARAM;
  const int w = layer.header->width, h = layer.header->height;
  const float ics = 1.0f / cs, ich = 1.0f / ch;
  int minx = floorToInt((bmin[0] - orig[0]) * ics);
  const int miny = floorToInt((bmin[1] - orig[1]) * ich);
  int minz = floorToInt((bmin[2] - orig[2]) * ics);
  int maxx = floorToInt((bmax[0] - orig[0]) * ics);
  const int maxy = floorToInt((bmax[1] - orig[1]) * ich);
  int maxz = floorToInt((bmax[2] - orig[2]) * ics);
  if (!clampToGrid(minx, maxx, minz, maxz, w, h)) return SUCCESS;
  for (int z = minz; z <= maxz; ++z) {
    for (int x = minx; x <= maxx; ++x) {
      const int y = layer.heights[x + z * w];
      if (y < miny || y > maxy) continue;
      layer.areas[x + z * w] = areaId;
    }
  }
  return SUCCESS;
}

Status markBoxArea(TileCacheLayer& layer, const float* orig, float cs, float ch, const float* center,
                   const float* halfExtents, const float* rotAux, uint8_t areaId) {
  if (!markInputOk(layer, orig, cs, ch) || !center || !halfExtents || !rotAux || !finite3(center) ||
      !finite3(halfExtents) || !std::isfinite(rotAux[0]) || !std::isfinite(rotAux[1]))
    return FAILURE | INVALID_PARAM;
  const int w = layer.header->width, h = layer.header->height;
  const float ics = 1.0f / cs, ich = 1.0f / ch;
  const float cx = (center[0] - orig[0]) * ics;
  const float cz = (center[2] - orig[2]) * ics;
  // The footprint's bounding square: 1.41 ~ sqrt(2) times the larger half extent.
  const float maxr = 1.41f * (halfExtents[0] > halfExtents[2] ? halfExtents[0] : halfExtents[2]);
  int minx = floorToInt(cx - maxr * ics);
  int maxx = floorToInt(cx + maxr * ics);
  int minz = floorToInt(cz - maxr * ics);
  int maxz = floorToInt(cz + maxr * ics);
  const int miny = floorToInt((center[1] - halfExtents[1] - orig[1]) * ich);
  const int maxy = floorToInt((center[1] + halfExtents[1] - orig[1]) * ich);
  if (!clampToGrid(minx, maxx, minz, maxz, w, h)) return SUCCESS;
  // Cell offsets are doubled and rotAux holds half-angle products (see the header), so the
  // rotated offsets come out in plain cells.
  const float xhalf = halfExtents[0] * ics + 0.5f;
  const float zhalf = halfExtents[2] * ics + 0.5f;
  for (int z = minz; z <= maxz; ++z) {
    for (int x = minx; x <= maxx; ++x) {
      const float x2 = 2.0f * (float(x) - cx);
      const float z2 = 2.0f * (float(z) - cz);
      const float xrot = rotAux[1] * x2 + rotAux[0] * z2;
      if (xrot > xhalf || xrot < -xhalf) continue;
      const float zrot = rotAux[1] * z2 - rotAux[0] * x2;
      if (zrot > zhalf || zrot < -zhalf) continue;
      const int y = layer.heights[x + z * w];
      if (y < miny || y > maxy) continue;
      layer.areas[x + z * w] = areaId;
    }
  }
  return SUCCESS;
}

// =============================================================================================
// [SECTION] regions
// =============================================================================================

namespace {

/// A run of cells of one row (a sweep) and the one region above it it touches, if only one.
struct SweepSpan {
  uint16_t samples; ///< Cells of the run connected to `nei` in the previous row.
  uint16_t cells;   ///< Cells of the run.
  uint8_t nei;      ///< The previous row's region it touches, NO_REGION if none or several.
  uint8_t area;     ///< The area of the run's cells.
  uint8_t x0;       ///< The run's first cell (runs are contiguous in x).
};

struct MonotoneRegion {
  int cells;                      ///< Cell count.
  uint8_t neis[MAX_REGION_NEIS];
  uint8_t neiCount;
  uint8_t regId;                  ///< Region after merging.
  uint8_t areaId;
};

inline bool cellsConnected(const uint8_t* heights, const uint8_t* areas, int ia, int ib, int walkableClimb) {
  if (areas[ia] != areas[ib]) return false;
  return std::abs(int(heights[ia]) - int(heights[ib])) <= walkableClimb;
}

/// Appends v unless it is already the last entry.
inline void addNeighbourRegion(MonotoneRegion& r, uint8_t v) {
  if (r.neiCount > 0 && r.neis[r.neiCount - 1] == v) return;
  if (r.neiCount >= MAX_REGION_NEIS) return; // guard (Detour writes past the array)
  r.neis[r.neiCount++] = v;
}

/// True when exactly one neighbour link joins the regions now called `from` and `to`. The regions
/// called `from` are the chain first[from] -> next[...] (NO_REGION ends it); the count is over
/// the same links as a scan of every region would see, so the answer is the same.
bool canMergeRegions(uint8_t from, uint8_t to, const MonotoneRegion* regs, const uint8_t* first,
                     const uint8_t* next) {
  int links = 0;
  for (uint8_t i = first[from]; i != NO_REGION; i = next[i]) {
    for (int j = 0; j < regs[i].neiCount; ++j)
      if (regs[regs[i].neis[j]].regId == to) ++links;
  }
  return links == 1;
}

} // namespace

Status buildTileCacheRegions(TileCacheAlloc* alloc, TileCacheLayer& layer, int walkableClimb) {
  if (!alloc || !layer.header) return FAILURE | INVALID_PARAM;
  const int w = layer.header->width, h = layer.header->height;
  // Plain locals: stores through uint8_t* may alias anything read through `layer`.
  const uint8_t* const heights = layer.heights;
  const uint8_t* const areas = layer.areas;
  uint8_t* const cellReg = layer.regs;
  std::memset(cellReg, NO_REGION, size_t(w) * size_t(h));

  Scratch<SweepSpan> sweeps(alloc, size_t(w));
  if (!sweeps) return FAILURE | OUT_OF_MEMORY;
  std::memset(sweeps.get(), 0, sizeof(SweepSpan) * size_t(w));
  // up[x]: the previous row's region of the cell above x when the two cells connect, else
  // NO_REGION; kept from the sweep of a row for its neighbour pass.
  Scratch<uint8_t> up(alloc, size_t(w));
  if (!up) return FAILURE | OUT_OF_MEMORY;
  // Regions are numbered below 255 (NO_REGION); each is set up when its id is handed out.
  Scratch<MonotoneRegion> regs(alloc, 256);
  if (!regs) return FAILURE | OUT_OF_MEMORY;
  // The grid keeps each row's run ids until the end; rowMap[rowStart[z] + run] is the region of
  // a run of row z (at most one run per non-null cell, so w * h entries suffice).
  Scratch<uint8_t> rowMap(alloc, size_t(w) * size_t(h));
  Scratch<int> rowStart(alloc, size_t(h) + 1);
  if (!rowMap || !rowStart) return FAILURE | OUT_OF_MEMORY;

  // Sweep rows in z: a run of connected cells continues the region above when it touches exactly
  // one region there and that region touches nothing else in this row. Once a row's ids are
  // known, its cells add their neighbours across z (runs of a row are already split in x), in
  // row-major order; a run that continues the one region it touches adds none.
  uint8_t prevCount[256];
  uint8_t prevMap[256]; // the previous row's run id -> region (NO_REGION to itself)
  prevMap[NO_REGION] = NO_REGION;
  int cellCount[256] = {};
  uint8_t regArea[256] = {};
  int regCount = 0;
  int mapUsed = 0;
  for (int z = 0; z < h; ++z) {
    if (regCount > 0) std::memset(prevCount, 0, size_t(regCount));
    int sweepCount = 0;
    uint8_t* const row = cellReg + z * w;
    for (int x = 0; x < w; ++x) {
      const int idx = x + z * w;
      if (areas[idx] == TILECACHE_NULL_AREA) continue;
      uint8_t sid = NO_REGION;
      const int xidx = idx - 1;
      if (x > 0 && cellsConnected(heights, areas, idx, xidx, walkableClimb) && cellReg[xidx] != NO_REGION)
        sid = cellReg[xidx];
      if (sid == NO_REGION) {
        sid = uint8_t(sweepCount++);
        sweeps[sid].nei = NO_REGION;
        sweeps[sid].samples = 0;
        sweeps[sid].cells = 0;
        sweeps[sid].area = areas[idx];
        sweeps[sid].x0 = uint8_t(x);
      }
      sweeps[sid].cells++;
      const int zidx = idx - w;
      uint8_t above = NO_REGION;
      if (z > 0 && cellsConnected(heights, areas, idx, zidx, walkableClimb)) {
        const uint8_t nr = prevMap[cellReg[zidx]];
        above = nr;
        if (nr != NO_REGION) {
          if (sweeps[sid].samples == 0) sweeps[sid].nei = nr;
          if (sweeps[sid].nei == nr) {
            sweeps[sid].samples++;
            prevCount[nr]++;
          } else {
            sweeps[sid].nei = NO_REGION; // touches more than one region above
          }
        }
      }
      up[x] = above;
      row[x] = sid;
    }
    // Run ids -> region ids. A run's cells all share one area (connected cells have the same
    // area), so its region's area is the run's.
    rowStart[z] = mapUsed;
    uint8_t* const map = rowMap.get() + mapUsed;
    mapUsed += sweepCount;
    for (int i = 0; i < sweepCount; ++i) {
      uint8_t id;
      if (sweeps[i].nei != NO_REGION && uint16_t(prevCount[sweeps[i].nei]) == sweeps[i].samples) {
        id = sweeps[i].nei;
      } else {
        if (regCount == 255) return FAILURE | BUFFER_TOO_SMALL;
        id = uint8_t(regCount++);
        regs[id].neiCount = 0;
      }
      map[i] = id;
      prevMap[i] = id;
      cellCount[id] += sweeps[i].cells;
      regArea[id] = sweeps[i].area;
    }
    for (int i = 0; i < sweepCount; ++i) {
      const uint8_t ri = map[i];
      if (ri == sweeps[i].nei) continue; // continues its only region above: no new neighbour
      for (int x = sweeps[i].x0; x < w && row[x] == uint8_t(i); ++x) {
        const uint8_t rai = up[x];
        if (rai != NO_REGION && rai != ri) {
          addNeighbourRegion(regs[ri], rai);
          addNeighbourRegion(regs[rai], ri);
        }
      }
    }
  }
  rowStart[h] = mapUsed;

  const int nregs = regCount;
  for (int i = 0; i < nregs; ++i) {
    regs[i].cells = cellCount[i];
    regs[i].areaId = regArea[i];
    regs[i].regId = uint8_t(i);
  }

  // Merge each region into its largest same-area neighbour it shares exactly one link with.
  // Regions sharing a merged id are kept as chains (ids stay below nregs <= 255, so NO_REGION ends
  // a chain), so neither the link count nor the renaming scans every region.
  uint8_t first[256], last[256], next[256];
  for (int i = 0; i < nregs; ++i) {
    first[i] = last[i] = uint8_t(i);
    next[i] = NO_REGION;
  }
  for (int i = 0; i < nregs; ++i) {
    MonotoneRegion& reg = regs[i];
    int merge = -1;
    int mergeCells = 0;
    for (int j = 0; j < reg.neiCount; ++j) {
      const uint8_t nei = reg.neis[j];
      const MonotoneRegion& other = regs[nei];
      if (reg.regId == other.regId) continue;
      if (reg.areaId != other.areaId) continue;
      if (other.cells > mergeCells && canMergeRegions(reg.regId, other.regId, regs.get(), first, next)) {
        mergeCells = other.cells;
        merge = nei;
      }
    }
    if (merge != -1) {
      const uint8_t oldId = reg.regId;
      const uint8_t newId = regs[merge].regId;
      for (uint8_t j = first[oldId]; j != NO_REGION; j = next[j]) regs[j].regId = newId;
      next[last[newId]] = first[oldId];
      last[newId] = last[oldId];
      first[oldId] = last[oldId] = NO_REGION;
    }
  }

  // Compact ids in increasing order of the merged ids.
  uint8_t remap[256];
  std::memset(remap, 0, sizeof(remap));
  for (int i = 0; i < nregs; ++i) remap[regs[i].regId] = 1;
  int compact = 0;
  for (int i = 0; i < 256; ++i)
    if (remap[i]) remap[i] = uint8_t(compact++);
  for (int i = 0; i < nregs; ++i) regs[i].regId = remap[regs[i].regId];
  layer.regCount = uint8_t(compact);
  uint8_t finalId[256];
  for (int i = 0; i < nregs; ++i) finalId[i] = regs[i].regId;
  for (int z = 0; z < h; ++z) {
    const int n = rowStart[z + 1] - rowStart[z];
    if (n == 0) continue; // no walkable cell: the row is NO_REGION already
    uint8_t table[256];
    const uint8_t* map = rowMap.get() + rowStart[z];
    for (int i = 0; i < n; ++i) table[i] = finalId[map[i]];
    table[NO_REGION] = NO_REGION;
    uint8_t* row = cellReg + z * w;
    for (int x = 0; x < w; ++x) row[x] = table[row[x]];
  }
  return SUCCESS;
}

// =============================================================================================
// [SECTION] contours
// =============================================================================================

namespace {

/// The raw outline of one region while it is traced and simplified.
struct RawContour {
  uint8_t* verts; ///< [(x, y, z, neighbour code) * nverts]
  int nverts;
  int capVerts;
  uint16_t* poly; ///< Indices of the kept vertices [npoly]
  int npoly;
  int capPoly;
};

/// Adds a corner; a corner continuing the last edge along x or z (same neighbour) moves the last
/// vertex instead. False when the buffer is full.
bool appendCorner(RawContour& c, int x, int y, int z, int r) {
  if (c.nverts > 1) {
    uint8_t* pa = &c.verts[(c.nverts - 2) * 4];
    uint8_t* pb = &c.verts[(c.nverts - 1) * 4];
    if (int(pb[3]) == r) {
      if (pa[0] == pb[0] && int(pb[0]) == x) {
        pb[1] = uint8_t(y);
        pb[2] = uint8_t(z);
        return true;
      }
      if (pa[2] == pb[2] && int(pb[2]) == z) {
        pb[0] = uint8_t(x);
        pb[1] = uint8_t(y);
        return true;
      }
    }
  }
  if (c.nverts + 1 > c.capVerts) return false;
  uint8_t* v = &c.verts[c.nverts * 4];
  v[0] = uint8_t(x);
  v[1] = uint8_t(y);
  v[2] = uint8_t(z);
  v[3] = uint8_t(r);
  c.nverts++;
  return true;
}

/// A layer's grids as plain values: stores through uint8_t* may alias anything read through a
/// TileCacheLayer reference, which would reload every pointer after each store.
struct Grid {
  const uint8_t* heights;
  const uint8_t* areas;
  const uint8_t* cons;
  const uint8_t* regs;
  int w, h;
  explicit Grid(const TileCacheLayer& l)
      : heights(l.heights), areas(l.areas), cons(l.cons), regs(l.regs), w(l.header->width), h(l.header->height) {}
};

/// What lies across side `dir` of cell (x, z): the connected cell's region, PORTAL_CODE + dir for a
/// portal, 0xff for a wall.
inline uint8_t neighbourRegion(const Grid& layer, int x, int z, int dir) {
  const int w = layer.w, h = layer.h;
  const int ia = x + z * w;
  const uint8_t con = layer.cons[ia] & 0xf;
  const uint8_t portal = layer.cons[ia] >> 4;
  const uint8_t mask = uint8_t(1 << dir);
  if ((con & mask) == 0) return (portal & mask) ? uint8_t(PORTAL_CODE + dir) : uint8_t(0xff);
  const int bx = x + dirOffsetX(dir), bz = z + dirOffsetZ(dir);
  if (bx < 0 || bz < 0 || bx >= w || bz >= h) return 0xff; // guard: connection out of the grid
  return layer.regs[bx + bz * w];
}

/// Traces the outline of the region of cell (x, z), which must have a side on its border.
/// False when the outline does not fit the buffer or leaves the grid.
bool walkContour(const Grid layer, int x, int z, RawContour& c) {
  const int w = layer.w, h = layer.h;
  c.nverts = 0;
  const int startX = x, startZ = z;
  int startDir = -1;
  for (int i = 0; i < 4; ++i) {
    const int dir = (i + 3) & 3;
    if (neighbourRegion(layer, x, z, dir) != layer.regs[x + z * w]) {
      startDir = dir;
      break;
    }
  }
  if (startDir == -1) return true;

  int dir = startDir;
  const int maxIter = w * h;
  for (int iter = 0; iter < maxIter; ++iter) {
    const uint8_t rn = neighbourRegion(layer, x, z, dir);
    int nx = x, nz = z, ndir;
    if (rn != layer.regs[x + z * w]) {
      // A side on the border: its end corner (cells' corners are at integer coordinates).
      int px = x, pz = z;
      switch (dir) {
      case 0: pz++; break;
      case 1: px++; pz++; break;
      case 2: px++; break;
      default: break;
      }
      if (!appendCorner(c, px, int(layer.heights[x + z * w]), pz, rn)) return false;
      ndir = (dir + 1) & 3; // turn clockwise
    } else {
      nx = x + dirOffsetX(dir);
      nz = z + dirOffsetZ(dir);
      ndir = (dir + 3) & 3; // turn counter-clockwise
    }
    if (iter > 0 && x == startX && z == startZ && dir == startDir) break;
    if (nx < 0 || nz < 0 || nx >= w || nz >= h) return false; // guard (a portal code equal to a region id)
    x = nx;
    z = nz;
    dir = ndir;
  }
  // The outline closes on its first vertex: drop the repeat.
  if (c.nverts > 0) {
    const uint8_t* pa = &c.verts[(c.nverts - 1) * 4];
    const uint8_t* pb = &c.verts[0];
    if (pa[0] == pb[0] && pa[2] == pb[2]) c.nverts--;
  }
  return true;
}

/// Squared xz distance from (x, z) to segment p-q [Unit: cells^2].
float distPtSegSqr(int x, int z, int px, int pz, int qx, int qz) {
  const float pqx = float(qx - px);
  const float pqz = float(qz - pz);
  float dx = float(x - px);
  float dz = float(z - pz);
  const float d = pqx * pqx + pqz * pqz;
  float t = pqx * dx + pqz * dz;
  if (d > 0) t /= d;
  if (t < 0)
    t = 0;
  else if (t > 1)
    t = 1;
  dx = float(px) + t * pqx - float(x);
  dz = float(pz) + t * pqz - float(z);
  return dx * dx + dz * dz;
}

/// Keeps the vertices where the neighbour changes, then adds the farthest raw vertex of each
/// simplified edge until every raw vertex is within maxError; rewrites c.verts with the kept ones,
/// starting at the lowest raw index.
/// i mod n for 0 <= i < 2n, without a division (the simplification steps around the outline).
inline int wrapIndex(int i, int n) { return i >= n ? i - n : i; }

void simplifyContour(RawContour& c, float maxError) {
  c.npoly = 0;
  if (c.nverts == 0) return; // guard (Detour divides by zero)
  for (int i = 0; i < c.nverts; ++i) {
    const int j = i + 1 < c.nverts ? i + 1 : 0;
    if (c.verts[j * 4 + 3] != c.verts[i * 4 + 3]) c.poly[c.npoly++] = uint16_t(i);
  }
  if (c.npoly < 2) {
    // One neighbour all around: start from the lower-left and upper-right corners.
    int llx = c.verts[0], llz = c.verts[2], lli = 0;
    int urx = c.verts[0], urz = c.verts[2], uri = 0;
    for (int i = 1; i < c.nverts; ++i) {
      const int x = c.verts[i * 4 + 0];
      const int z = c.verts[i * 4 + 2];
      if (x < llx || (x == llx && z < llz)) {
        llx = x;
        llz = z;
        lli = i;
      }
      if (x > urx || (x == urx && z > urz)) {
        urx = x;
        urz = z;
        uri = i;
      }
    }
    c.npoly = 0;
    c.poly[c.npoly++] = uint16_t(lli);
    c.poly[c.npoly++] = uint16_t(uri);
  }

  const float maxErrSqr = maxError * maxError;
  for (int i = 0; i < c.npoly;) {
    const int ii = i + 1 < c.npoly ? i + 1 : 0;
    const int ai = c.poly[i];
    const int ax = c.verts[ai * 4 + 0], az = c.verts[ai * 4 + 2];
    const int bi = c.poly[ii];
    const int bx = c.verts[bi * 4 + 0], bz = c.verts[bi * 4 + 2];
    // Walk the raw points in lexicographic order of the end points, so that the two sides of a
    // shared edge pick the same point.
    float maxd = 0;
    int maxi = -1;
    int ci, cinc, endi;
    if (bx > ax || (bx == ax && bz > az)) {
      cinc = 1;
      ci = wrapIndex(ai + cinc, c.nverts);
      endi = bi;
    } else {
      cinc = c.nverts - 1;
      ci = wrapIndex(bi + cinc, c.nverts);
      endi = ai;
    }
    while (ci != endi) {
      const float d = distPtSegSqr(c.verts[ci * 4 + 0], c.verts[ci * 4 + 2], ax, az, bx, bz);
      if (d > maxd) {
        maxd = d;
        maxi = ci;
      }
      ci = wrapIndex(ci + cinc, c.nverts);
    }
    if (maxi != -1 && maxd > maxErrSqr) {
      if (c.npoly >= c.capPoly) break; // guard (cannot happen: npoly <= nverts <= capPoly)
      c.npoly++;
      for (int j = c.npoly - 1; j > i; --j) c.poly[j] = c.poly[j - 1];
      c.poly[i + 1] = uint16_t(maxi);
    } else {
      ++i;
    }
  }

  int start = 0;
  for (int i = 1; i < c.npoly; ++i)
    if (c.poly[i] < c.poly[start]) start = i;
  // In place: kept indices increase from `start`, so each source is at or after its destination.
  c.nverts = 0;
  for (int i = 0; i < c.npoly; ++i) {
    const int j = wrapIndex(start + i, c.npoly);
    const uint8_t* src = &c.verts[c.poly[j] * 4];
    uint8_t* dst = &c.verts[c.nverts * 4];
    dst[0] = src[0];
    dst[1] = src[1];
    dst[2] = src[2];
    dst[3] = src[3];
    c.nverts++;
  }
}

/// Height of the corner (x, z) from the up to four cells around it within climb of y; shouldRemove
/// when more than one such cell, all of one region, share exactly one portal direction.
uint8_t cornerHeight(const Grid& layer, int x, int y, int z, int walkableClimb, bool& shouldRemove) {
  const int w = layer.w, h = layer.h;
  int n = 0;
  uint8_t portal = 0xf;
  uint8_t height = 0;
  uint8_t preg = NO_REGION;
  bool allSameReg = true;
  for (int dz = -1; dz <= 0; ++dz) {
    for (int dx = -1; dx <= 0; ++dx) {
      const int px = x + dx, pz = z + dz;
      if (px < 0 || pz < 0 || px >= w || pz >= h) continue;
      const int idx = px + pz * w;
      const int lh = layer.heights[idx];
      if (std::abs(lh - y) <= walkableClimb && layer.areas[idx] != TILECACHE_NULL_AREA) {
        if (uint8_t(lh) > height) height = uint8_t(lh);
        portal &= uint8_t(layer.cons[idx] >> 4);
        if (preg != NO_REGION && preg != layer.regs[idx]) allSameReg = false;
        preg = layer.regs[idx];
        n++;
      }
    }
  }
  int portalCount = 0;
  for (int dir = 0; dir < 4; ++dir)
    if (portal & (1 << dir)) portalCount++;
  shouldRemove = n > 1 && portalCount == 1 && allSameReg;
  return height;
}

} // namespace

Status buildTileCacheContours(TileCacheAlloc* alloc, TileCacheLayer& layer, int walkableClimb, float maxError,
                              TileCacheContourSet& lcset) {
  if (!alloc || !layer.header) return FAILURE | INVALID_PARAM;
  const int w = layer.header->width, h = layer.header->height;
  const Grid grid(layer);
  lcset.nconts = layer.regCount;
  lcset.conts = static_cast<TileCacheContour*>(alloc->alloc(sizeof(TileCacheContour) * size_t(lcset.nconts)));
  if (!lcset.conts) {
    lcset.nconts = 0;
    return FAILURE | OUT_OF_MEMORY;
  }
  std::memset(lcset.conts, 0, sizeof(TileCacheContour) * size_t(lcset.nconts));

  const int maxTempVerts = (w + h) * 2 * 2; // twice around the layer
  Scratch<uint8_t> tempVerts(alloc, size_t(maxTempVerts) * 4);
  if (!tempVerts) return FAILURE | OUT_OF_MEMORY;
  Scratch<uint16_t> tempPoly(alloc, size_t(maxTempVerts));
  if (!tempPoly) return FAILURE | OUT_OF_MEMORY;
  RawContour temp{tempVerts.get(), 0, maxTempVerts, tempPoly.get(), 0, maxTempVerts};

  // traced[r]: region r has its contour (or is no region); the first cell of a region in scan
  // order starts its trace, and a trace that kept no vertex is tried again from the next cell.
  uint8_t traced[256];
  for (int i = 0; i < 256; ++i) traced[i] = i >= lcset.nconts; // guard: regs from another regCount
  int untraced = lcset.nconts;
  const int ncells = w * h;
  // The search for the next untraced cell is a loop of its own so that it stays in registers.
  for (int idx = 0; untraced > 0; ++idx) {
    while (idx < ncells && traced[grid.regs[idx]]) ++idx;
    if (idx >= ncells) break;
    {
      const int z = idx / w, x = idx - z * w;
      const uint8_t ri = grid.regs[idx];
      TileCacheContour& cont = lcset.conts[ri];
      cont.reg = ri;
      cont.area = grid.areas[idx];
      if (!walkContour(grid, x, z, temp)) return FAILURE | BUFFER_TOO_SMALL;
      simplifyContour(temp, maxError);
      cont.nverts = temp.nverts;
      if (cont.nverts <= 0) continue;
      traced[ri] = 1;
      untraced--;
      cont.verts = static_cast<uint8_t*>(alloc->alloc(size_t(temp.nverts) * 4));
      if (!cont.verts) {
        cont.nverts = 0;
        return FAILURE | OUT_OF_MEMORY;
      }
      for (int i = 0, j = temp.nverts - 1; i < temp.nverts; j = i++) {
        uint8_t* dst = &cont.verts[j * 4];
        const uint8_t* v = &temp.verts[j * 4];
        // The neighbour code of edge j -> i is stored on its end vertex i.
        const uint8_t nei = temp.verts[i * 4 + 3];
        bool shouldRemove = false;
        const uint8_t lh = cornerHeight(grid, v[0], v[1], v[2], walkableClimb, shouldRemove);
        dst[0] = v[0];
        dst[1] = lh;
        dst[2] = v[2];
        dst[3] = 0x0f;
        if (nei != 0xff && nei >= PORTAL_CODE) dst[3] = uint8_t(nei - PORTAL_CODE);
        if (shouldRemove) dst[3] |= 0x80;
      }
    }
  }
  return SUCCESS;
}

// =============================================================================================
// [SECTION] poly mesh
// =============================================================================================

namespace {

constexpr int VERTEX_BUCKETS = 1 << 8;

inline int vertexBucket(int x, int y, int z) {
  const unsigned h1 = 0x8da6b343u, h2 = 0xd8163841u, h3 = 0xcb1ab31fu; // large odd multipliers
  const unsigned n = h1 * unsigned(x) + h2 * unsigned(y) + h3 * unsigned(z);
  return int(n & (VERTEX_BUCKETS - 1));
}

/// Welds (x, y, z) to an existing vertex at the same x, z within 2 height units, or adds it.
/// Returns its index, or TILECACHE_NULL_IDX when 0xfffe vertices are already in use.
uint16_t weldVertex(uint16_t x, uint16_t y, uint16_t z, uint16_t* verts, uint16_t* firstVert, uint16_t* nextVert,
                    int& nv) {
  const int bucket = vertexBucket(x, 0, z);
  for (uint16_t i = firstVert[bucket]; i != TILECACHE_NULL_IDX; i = nextVert[i]) {
    const uint16_t* v = &verts[i * 3];
    if (v[0] == x && v[2] == z && std::abs(int(v[1]) - int(y)) <= 2) return i;
  }
  if (nv >= int(TILECACHE_NULL_IDX)) return TILECACHE_NULL_IDX; // guard: 16-bit indices
  const uint16_t i = uint16_t(nv++);
  uint16_t* v = &verts[i * 3];
  v[0] = x;
  v[1] = y;
  v[2] = z;
  nextVert[i] = firstVert[bucket];
  firstVert[bucket] = i;
  return i;
}

struct MeshEdge {
  uint16_t vert[2];
  uint16_t polyEdge[2]; ///< polyEdge[1] = 0xff while open; then a portal dir if one lies on it.
  uint16_t poly[2];
};

inline int countPolyVerts(const uint16_t* p) {
  for (int i = 0; i < NVP; ++i)
    if (p[i] == TILECACHE_NULL_IDX) return i;
  return NVP;
}

inline bool overlapExclusive(uint16_t amin, uint16_t amax, uint16_t bmin, uint16_t bmax) {
  return !(amin >= bmax || amax <= bmin);
}

/// Fills the neighbour halves of polys: shared edges get the other poly, open edges lying on a
/// contour's portal edge get 0x8000 | dir. False when out of memory or past 16-bit edge indices.
Status buildAdjacency(TileCacheAlloc* alloc, uint16_t* polys, int npolys, const uint16_t* verts, int nverts,
                      const TileCacheContourSet& lcset) {
  const int maxEdges = npolys * NVP;
  Scratch<uint16_t> firstEdge(alloc, size_t(nverts) + size_t(maxEdges));
  if (!firstEdge) return FAILURE | OUT_OF_MEMORY;
  uint16_t* nextEdge = firstEdge.get() + nverts;
  Scratch<MeshEdge> edges(alloc, size_t(maxEdges));
  if (!edges) return FAILURE | OUT_OF_MEMORY;
  int edgeCount = 0;
  for (int i = 0; i < nverts; ++i) firstEdge[i] = TILECACHE_NULL_IDX;

  // Calls side(i, j, v0, v1) for each side j of each polygon i, v0 -> v1 (the last vertex wraps to
  // the first), in polygon then side order; false as soon as side does.
  auto forEachSide = [&](auto side) {
    for (int i = 0; i < npolys; ++i) {
      const uint16_t* t = &polys[i * NVP * 2];
      for (int j = 0; j < NVP; ++j) {
        if (t[j] == TILECACHE_NULL_IDX) break;
        const uint16_t v1 = (j + 1 >= NVP || t[j + 1] == TILECACHE_NULL_IDX) ? t[0] : t[j + 1];
        if (!side(i, j, t[j], v1)) return false;
      }
    }
    return true;
  };
  // Lists edge a -> b (a < b) of polygon i's side j under a, its other side still open. False past
  // 16-bit edge indices.
  auto addEdge = [&](uint16_t a, uint16_t b, int i, int j) {
    if (edgeCount >= int(TILECACHE_NULL_IDX)) return false; // guard
    MeshEdge& e = edges[size_t(edgeCount)];
    e.vert[0] = a;
    e.vert[1] = b;
    e.poly[0] = uint16_t(i);
    e.polyEdge[0] = uint16_t(j);
    e.poly[1] = uint16_t(i);
    e.polyEdge[1] = 0xff;
    nextEdge[edgeCount] = firstEdge[a];
    firstEdge[a] = uint16_t(edgeCount);
    edgeCount++;
    return true;
  };
  // Edges going up in vertex index, listed under their lower vertex.
  if (!forEachSide([&](int i, int j, uint16_t v0, uint16_t v1) { return v0 >= v1 || addEdge(v0, v1, i, j); }))
    return FAILURE | BUFFER_TOO_SMALL;
  // Edges going down: the other side of an edge listed above, or an open edge of their own.
  const bool listed = forEachSide([&](int i, int j, uint16_t v0, uint16_t v1) {
    if (v0 <= v1) return true;
    for (uint16_t e = firstEdge[v1]; e != TILECACHE_NULL_IDX; e = nextEdge[e]) {
      MeshEdge& edge = edges[e];
      if (edge.vert[1] == v0 && edge.poly[0] == edge.poly[1]) {
        edge.poly[1] = uint16_t(i);
        edge.polyEdge[1] = uint16_t(j);
        return true;
      }
    }
    return addEdge(v1, v0, i, j);
  });
  if (!listed) return FAILURE | BUFFER_TOO_SMALL;

  // Open edges overlapping a contour's portal edge (same line, overlapping span) become portals.
  for (int i = 0; i < lcset.nconts; ++i) {
    const TileCacheContour& cont = lcset.conts[i];
    if (cont.nverts < 3) continue;
    for (int j = 0, k = cont.nverts - 1; j < cont.nverts; k = j++) {
      const uint8_t* va = &cont.verts[k * 4];
      const uint8_t* vb = &cont.verts[j * 4];
      const uint8_t dir = va[3] & 0xf;
      if (dir == 0xf) continue;
      // dir 0 / 2: an edge along z at constant x; dir 1 / 3: along x at constant z.
      const int fixedAxis = (dir == 0 || dir == 2) ? 0 : 2;
      const int spanAxis = 2 - fixedAxis;
      const uint16_t fixed = va[fixedAxis];
      uint16_t lo = va[spanAxis], hi = vb[spanAxis];
      if (lo > hi) std::swap(lo, hi);
      for (int m = 0; m < edgeCount; ++m) {
        MeshEdge& e = edges[size_t(m)];
        if (e.poly[0] != e.poly[1]) continue;
        const uint16_t* eva = &verts[e.vert[0] * 3];
        const uint16_t* evb = &verts[e.vert[1] * 3];
        if (eva[fixedAxis] != fixed || evb[fixedAxis] != fixed) continue;
        uint16_t elo = eva[spanAxis], ehi = evb[spanAxis];
        if (elo > ehi) std::swap(elo, ehi);
        if (overlapExclusive(lo, hi, elo, ehi)) e.polyEdge[1] = dir;
      }
    }
  }

  for (int i = 0; i < edgeCount; ++i) {
    const MeshEdge& e = edges[size_t(i)];
    if (e.poly[0] != e.poly[1]) {
      uint16_t* p0 = &polys[e.poly[0] * NVP * 2];
      uint16_t* p1 = &polys[e.poly[1] * NVP * 2];
      p0[NVP + e.polyEdge[0]] = e.poly[1];
      p1[NVP + e.polyEdge[1]] = e.poly[0];
    } else if (e.polyEdge[1] != 0xff) {
      uint16_t* p0 = &polys[e.poly[0] * NVP * 2];
      p0[NVP + e.polyEdge[0]] = uint16_t(0x8000 | e.polyEdge[1]);
    }
  }
  return SUCCESS;
}

// Triangulation by ear clipping on 8-bit (x, _, z, _) vertices; index bit 0x8000 marks an ear tip.

inline int prevIdx(int i, int n) { return i - 1 >= 0 ? i - 1 : n - 1; }
inline int nextIdx(int i, int n) { return i + 1 < n ? i + 1 : 0; }

inline int area2(const uint8_t* a, const uint8_t* b, const uint8_t* c) {
  return (int(b[0]) - int(a[0])) * (int(c[2]) - int(a[2])) - (int(c[0]) - int(a[0])) * (int(b[2]) - int(a[2]));
}
inline bool leftOf(const uint8_t* a, const uint8_t* b, const uint8_t* c) { return area2(a, b, c) < 0; }
inline bool leftOn(const uint8_t* a, const uint8_t* b, const uint8_t* c) { return area2(a, b, c) <= 0; }
inline bool collinear(const uint8_t* a, const uint8_t* b, const uint8_t* c) { return area2(a, b, c) == 0; }

/// ab and cd cross at a point inside both.
bool properlyIntersect(const uint8_t* a, const uint8_t* b, const uint8_t* c, const uint8_t* d) {
  if (collinear(a, b, c) || collinear(a, b, d) || collinear(c, d, a) || collinear(c, d, b)) return false;
  return (leftOf(a, b, c) != leftOf(a, b, d)) && (leftOf(c, d, a) != leftOf(c, d, b));
}

/// c lies on the closed segment ab.
bool onSegment(const uint8_t* a, const uint8_t* b, const uint8_t* c) {
  if (!collinear(a, b, c)) return false;
  if (a[0] != b[0]) return (a[0] <= c[0] && c[0] <= b[0]) || (a[0] >= c[0] && c[0] >= b[0]);
  return (a[2] <= c[2] && c[2] <= b[2]) || (a[2] >= c[2] && c[2] >= b[2]);
}

bool segmentsIntersect(const uint8_t* a, const uint8_t* b, const uint8_t* c, const uint8_t* d) {
  return properlyIntersect(a, b, c, d) || onSegment(a, b, c) || onSegment(a, b, d) || onSegment(c, d, a) ||
         onSegment(c, d, b);
}

inline bool sameXZ(const uint8_t* a, const uint8_t* b) { return a[0] == b[0] && a[2] == b[2]; }

inline const uint8_t* vertAt(const uint8_t* verts, const uint16_t* indices, int i) {
  return &verts[(indices[i] & 0x7fff) * 4];
}

/// (i, j) crosses no polygon edge other than those touching i or j (or their positions).
bool diagonalClear(int i, int j, int n, const uint8_t* verts, const uint16_t* indices) {
  const uint8_t* d0 = vertAt(verts, indices, i);
  const uint8_t* d1 = vertAt(verts, indices, j);
  // Which side of the diagonal's line each vertex lies on (area2 sign), carried from one edge to
  // the next: an edge with both ends strictly on one side does not meet the diagonal. A zero-length
  // edge still goes through the test (it counts as crossing when it shares a z with an end).
  const uint8_t* p0 = vertAt(verts, indices, 0);
  int s0 = area2(d0, d1, p0);
  for (int k = 0; k < n; k++) {
    const int k1 = nextIdx(k, n);
    const uint8_t* p1 = vertAt(verts, indices, k1);
    const int s1 = area2(d0, d1, p1);
    const bool oneSide = ((s0 > 0 && s1 > 0) || (s0 < 0 && s1 < 0)) && !sameXZ(p0, p1);
    const uint8_t* e0 = p0;
    p0 = p1;
    s0 = s1;
    if (oneSide) continue;
    if (k == i || k1 == i || k == j || k1 == j) continue;
    if (sameXZ(d0, e0) || sameXZ(d1, e0) || sameXZ(d0, p1) || sameXZ(d1, p1)) continue;
    if (segmentsIntersect(d0, d1, e0, p1)) return false;
  }
  return true;
}

/// (i, j) leaves vertex i into the polygon's interior.
bool inCone(int i, int j, int n, const uint8_t* verts, const uint16_t* indices) {
  const uint8_t* pi = vertAt(verts, indices, i);
  const uint8_t* pj = vertAt(verts, indices, j);
  const uint8_t* pi1 = vertAt(verts, indices, nextIdx(i, n));
  const uint8_t* pin1 = vertAt(verts, indices, prevIdx(i, n));
  if (leftOn(pin1, pi, pi1)) return leftOf(pi, pj, pin1) && leftOf(pj, pi, pi1); // convex vertex
  return !(leftOn(pi, pj, pi1) && leftOn(pj, pi, pin1));                          // reflex vertex
}

inline bool isDiagonal(int i, int j, int n, const uint8_t* verts, const uint16_t* indices) {
  return inCone(i, j, n, verts, indices) && diagonalClear(i, j, n, verts, indices);
}

/// Ear clipping, shortest ear diagonal first. indices [n] (modified) index verts [(x, y, z, _) * ...];
/// writes (n - 2) triangles into tris. Returns the triangle count, negated when it had to stop early.
int triangulate(int n, const uint8_t* verts, uint16_t* indices, uint16_t* tris) {
  int ntris = 0;
  uint16_t* dst = tris;
  for (int i = 0; i < n; i++) {
    const int i1 = nextIdx(i, n);
    const int i2 = nextIdx(i1, n);
    if (isDiagonal(i, i2, n, verts, indices)) indices[i1] |= 0x8000;
  }
  while (n > 3) {
    int minLen = -1;
    int mini = -1;
    for (int i = 0; i < n; i++) {
      const int i1 = nextIdx(i, n);
      if (indices[i1] & 0x8000) {
        const uint8_t* p0 = vertAt(verts, indices, i);
        const uint8_t* p2 = vertAt(verts, indices, nextIdx(i1, n));
        const int dx = int(p2[0]) - int(p0[0]);
        const int dz = int(p2[2]) - int(p0[2]);
        const int len = dx * dx + dz * dz;
        if (minLen < 0 || len < minLen) {
          minLen = len;
          mini = i;
        }
      }
    }
    if (mini == -1) return -ntris; // no ear left (self-intersecting outline)
    int i = mini;
    int i1 = nextIdx(i, n);
    const int i2 = nextIdx(i1, n);
    *dst++ = indices[i] & 0x7fff;
    *dst++ = indices[i1] & 0x7fff;
    *dst++ = indices[i2] & 0x7fff;
    ntris++;
    n--;
    for (int k = i1; k < n; k++) indices[k] = indices[k + 1];
    if (i1 >= n) i1 = 0;
    i = prevIdx(i1, n);
    if (isDiagonal(prevIdx(i, n), i1, n, verts, indices))
      indices[i] |= 0x8000;
    else
      indices[i] &= 0x7fff;
    if (isDiagonal(i, nextIdx(i1, n), n, verts, indices))
      indices[i1] |= 0x8000;
    else
      indices[i1] &= 0x7fff;
  }
  *dst++ = indices[0] & 0x7fff;
  *dst++ = indices[1] & 0x7fff;
  *dst++ = indices[2] & 0x7fff;
  ntris++;
  return ntris;
}

inline bool uleft(const uint16_t* a, const uint16_t* b, const uint16_t* c) {
  return (int(b[0]) - int(a[0])) * (int(c[2]) - int(a[2])) - (int(c[0]) - int(a[0])) * (int(b[2]) - int(a[2])) < 0;
}

/// Squared length of the edge pa and pb share when merging them keeps a convex polygon of at
/// most NVP verts, else -1. ea / eb: the shared edge's index in each.
int mergeValue(const uint16_t* pa, const uint16_t* pb, const uint16_t* verts, int& ea, int& eb) {
  const int na = countPolyVerts(pa);
  const int nb = countPolyVerts(pb);
  if (na + nb - 2 > NVP) return -1;
  // Wrapped indices without division: i + k for 0 <= i < n, 0 <= k < n.
  auto wrap = [](int i, int n) { return i >= n ? i - n : i; };
  // Edges as (low vertex, high vertex) keys; the shared edge is the last edge of pa (and within
  // it the first edge of pb) with the same key.
  uint32_t keyB[NVP];
  for (int j = 0; j < nb; ++j) {
    const uint32_t v0 = pb[j], v1 = pb[wrap(j + 1, nb)];
    keyB[j] = v0 < v1 ? (v0 << 16 | v1) : (v1 << 16 | v0);
  }
  ea = -1;
  eb = -1;
  for (int i = 0; i < na; ++i) {
    const uint32_t v0 = pa[i], v1 = pa[wrap(i + 1, na)];
    const uint32_t key = v0 < v1 ? (v0 << 16 | v1) : (v1 << 16 | v0);
    for (int j = 0; j < nb; ++j)
      if (keyB[j] == key) {
        ea = i;
        eb = j;
        break;
      }
  }
  if (ea == -1 || eb == -1) return -1;
  uint16_t va = pa[wrap(ea + na - 1, na)], vb = pa[ea], vc = pb[wrap(eb + 2, nb)];
  if (!uleft(&verts[va * 3], &verts[vb * 3], &verts[vc * 3])) return -1;
  va = pb[wrap(eb + nb - 1, nb)];
  vb = pb[eb];
  vc = pa[wrap(ea + 2, na)];
  if (!uleft(&verts[va * 3], &verts[vb * 3], &verts[vc * 3])) return -1;
  va = pa[ea];
  vb = pa[wrap(ea + 1, na)];
  const int dx = int(verts[va * 3 + 0]) - int(verts[vb * 3 + 0]);
  const int dz = int(verts[va * 3 + 2]) - int(verts[vb * 3 + 2]);
  return dx * dx + dz * dz;
}

/// pa := pa joined with pb along their shared edges ea / eb.
void mergePolys(uint16_t* pa, const uint16_t* pb, int ea, int eb) {
  uint16_t tmp[NVP];
  const int na = countPolyVerts(pa);
  const int nb = countPolyVerts(pb);
  std::memset(tmp, 0xff, sizeof(tmp));
  int n = 0;
  for (int i = 0; i < na - 1; ++i) tmp[n++] = pa[wrapIndex(ea + 1 + i, na)];
  for (int i = 0; i < nb - 1; ++i) tmp[n++] = pb[wrapIndex(eb + 1 + i, nb)];
  std::memcpy(pa, tmp, sizeof(tmp));
}

/// The best merge partner k > j of polygon j: the first k with the largest merge value (> 0).
struct RowBest {
  int val; ///< 0 when no merge is possible
  int k, ea, eb;
};

inline void scanRow(const uint16_t* polys, int npolys, const uint16_t* verts, int j, RowBest& b) {
  b = RowBest{0, -1, 0, 0};
  const uint16_t* pj = &polys[j * NVP];
  // A polygon sharing an edge with pj has two of pj's vertices; the vertices of pj hashed into
  // 64 bits rule out most of the others before mergeValue (which would give -1 for them).
  uint64_t mask = 0;
  const int nj = countPolyVerts(pj);
  for (int i = 0; i < nj; ++i) mask |= uint64_t(1) << (pj[i] & 63);
  for (int k = j + 1; k < npolys; ++k) {
    const uint16_t* pk = &polys[k * NVP];
    int hits = 0;
    for (int i = 0; i < NVP && pk[i] != TILECACHE_NULL_IDX; ++i) hits += int((mask >> (pk[i] & 63)) & 1);
    if (hits < 2) continue;
    int ea, eb;
    const int v = mergeValue(pj, &polys[k * NVP], verts, ea, eb);
    if (v > b.val) b = RowBest{v, k, ea, eb};
  }
}

/// Greedy merging of the polygons [NVP * npolys] (and their areas when given): repeatedly joins
/// the pair with the longest shared edge (the first such pair in (j, k) order, j < k); the second
/// of the pair is replaced by the last polygon. Returns the new polygon count. rows: scratch
/// [Size: npolys]. Same choices as rescanning every pair after each merge, but only the rows and
/// columns a merge changed are evaluated again.
int mergeAll(uint16_t* polys, uint8_t* areas, int npolys, const uint16_t* verts, RowBest* rows) {
  for (int j = 0; j < npolys - 1; ++j) scanRow(polys, npolys, verts, j, rows[j]);
  for (;;) {
    int bestVal = 0, pa = -1;
    for (int j = 0; j < npolys - 1; ++j)
      if (rows[j].val > bestVal) {
        bestVal = rows[j].val;
        pa = j;
      }
    if (pa < 0) return npolys;
    const RowBest chosen = rows[pa];
    const int pb = chosen.k, last = npolys - 1;
    mergePolys(&polys[pa * NVP], &polys[pb * NVP], chosen.ea, chosen.eb);
    std::memmove(&polys[pb * NVP], &polys[last * NVP], sizeof(uint16_t) * NVP);
    if (areas) areas[pb] = areas[last];
    npolys--;
    // Polygon pa changed, pb holds what was the last one, and the last index is gone.
    for (int j = 0; j < npolys - 1; ++j) {
      RowBest& b = rows[j];
      if (j == pa || j == pb || b.k == pa || b.k == pb || b.k == last) {
        scanRow(polys, npolys, verts, j, b);
        continue;
      }
      const int changed[2] = {pa, pb};
      for (int c : changed) {
        if (c <= j || c >= npolys) continue;
        int ea, eb;
        const int v = mergeValue(&polys[j * NVP], &polys[c * NVP], verts, ea, eb);
        if (v > b.val || (v > 0 && v == b.val && c < b.k)) b = RowBest{v, c, ea, eb};
      }
    }
  }
}

/// Removing `rem` leaves a polygon: the polygons around it keep more than two edges, they fit the
/// hole buffers, and they form one fan (at most two open edges at rem).
bool canRemoveVertex(const TileCachePolyMesh& mesh, uint16_t rem) {
  int numTouchedVerts = 0;
  int numRemainingEdges = 0;
  for (int i = 0; i < mesh.npolys; ++i) {
    const uint16_t* p = &mesh.polys[i * NVP * 2];
    const int nv = countPolyVerts(p);
    int numRemoved = 0;
    for (int j = 0; j < nv; ++j)
      if (p[j] == rem) {
        numTouchedVerts++;
        numRemoved++;
      }
    if (numRemoved) numRemainingEdges += nv - (numRemoved + 1);
  }
  if (numRemainingEdges <= 2) return false;
  const int maxEdges = numTouchedVerts * 2;
  if (maxEdges > MAX_REM_EDGES) return false;

  uint16_t edges[MAX_REM_EDGES * 3]; // (rem, other end, share count)
  int nedges = 0;
  for (int i = 0; i < mesh.npolys; ++i) {
    const uint16_t* p = &mesh.polys[i * NVP * 2];
    const int nv = countPolyVerts(p);
    for (int j = 0, k = nv - 1; j < nv; k = j++) {
      if (p[j] != rem && p[k] != rem) continue;
      int a = p[j], b = p[k];
      if (b == rem) std::swap(a, b);
      bool exists = false;
      for (int m = 0; m < nedges; ++m) {
        uint16_t* e = &edges[m * 3];
        if (e[1] == b) {
          e[2]++;
          exists = true;
        }
      }
      if (!exists) {
        if (nedges >= MAX_REM_EDGES) return false; // guard
        uint16_t* e = &edges[nedges * 3];
        e[0] = uint16_t(a);
        e[1] = uint16_t(b);
        e[2] = 1;
        nedges++;
      }
    }
  }
  int numOpenEdges = 0;
  for (int i = 0; i < nedges; ++i)
    if (edges[i * 3 + 2] < 2) numOpenEdges++;
  return numOpenEdges <= 2;
}

inline void pushFront(uint16_t v, uint16_t* arr, int& an) {
  an++;
  for (int i = an - 1; i > 0; --i) arr[i] = arr[i - 1];
  arr[0] = v;
}
inline void pushBack(uint16_t v, uint16_t* arr, int& an) { arr[an++] = v; }

/// Removes vertex rem and the polygons using it, then fills the hole with merged triangles.
Status removeVertex(TileCachePolyMesh& mesh, uint16_t rem, int maxTris) {
  uint16_t edges[MAX_REM_EDGES * 3]; // (a, b, area) of hole edges
  int nedges = 0;
  uint16_t hole[MAX_REM_EDGES];
  int nhole = 0;
  uint16_t harea[MAX_REM_EDGES];
  int nharea = 0;

  for (int i = 0; i < mesh.npolys; ++i) {
    uint16_t* p = &mesh.polys[i * NVP * 2];
    const int nv = countPolyVerts(p);
    bool hasRem = false;
    for (int j = 0; j < nv; ++j)
      if (p[j] == rem) hasRem = true;
    if (!hasRem) continue;
    for (int j = 0, k = nv - 1; j < nv; k = j++) {
      if (p[j] != rem && p[k] != rem) {
        if (nedges >= MAX_REM_EDGES) return FAILURE | BUFFER_TOO_SMALL;
        uint16_t* e = &edges[nedges * 3];
        e[0] = p[k];
        e[1] = p[j];
        e[2] = mesh.areas[i];
        nedges++;
      }
    }
    // Replace the polygon by the last one (its verts; neighbours are not built yet).
    const uint16_t* last = &mesh.polys[(mesh.npolys - 1) * NVP * 2];
    std::memcpy(p, last, sizeof(uint16_t) * NVP);
    std::memset(p + NVP, 0xff, sizeof(uint16_t) * NVP);
    mesh.areas[i] = mesh.areas[mesh.npolys - 1];
    mesh.npolys--;
    --i;
  }

  // Close the vertex array over rem (slots past nverts are not part of the result).
  for (int i = int(rem); i < mesh.nverts - 1; ++i) {
    mesh.verts[i * 3 + 0] = mesh.verts[(i + 1) * 3 + 0];
    mesh.verts[i * 3 + 1] = mesh.verts[(i + 1) * 3 + 1];
    mesh.verts[i * 3 + 2] = mesh.verts[(i + 1) * 3 + 2];
  }
  mesh.nverts--;
  for (int i = 0; i < mesh.npolys; ++i) {
    uint16_t* p = &mesh.polys[i * NVP * 2];
    const int nv = countPolyVerts(p);
    for (int j = 0; j < nv; ++j)
      if (p[j] > rem) p[j]--;
  }
  for (int i = 0; i < nedges; ++i) {
    if (edges[i * 3 + 0] > rem) edges[i * 3 + 0]--;
    if (edges[i * 3 + 1] > rem) edges[i * 3 + 1]--;
  }
  if (nedges == 0) return SUCCESS;

  // Chain the hole's edges into one loop, growing at both ends.
  pushBack(edges[0], hole, nhole);
  pushBack(edges[2], harea, nharea);
  while (nedges) {
    bool match = false;
    for (int i = 0; i < nedges; ++i) {
      const uint16_t ea = edges[i * 3 + 0];
      const uint16_t eb = edges[i * 3 + 1];
      const uint16_t a = edges[i * 3 + 2];
      bool add = false;
      if (hole[0] == eb) {
        if (nhole >= MAX_REM_EDGES) return FAILURE | BUFFER_TOO_SMALL;
        pushFront(ea, hole, nhole);
        pushFront(a, harea, nharea);
        add = true;
      } else if (hole[nhole - 1] == ea) {
        if (nhole >= MAX_REM_EDGES) return FAILURE | BUFFER_TOO_SMALL;
        pushBack(eb, hole, nhole);
        pushBack(a, harea, nharea);
        add = true;
      }
      if (add) {
        edges[i * 3 + 0] = edges[(nedges - 1) * 3 + 0];
        edges[i * 3 + 1] = edges[(nedges - 1) * 3 + 1];
        edges[i * 3 + 2] = edges[(nedges - 1) * 3 + 2];
        --nedges;
        match = true;
        --i;
      }
    }
    if (!match) break;
  }

  // guard: a hole of fewer than 3 vertices (its edges did not chain) has nothing to fill; Detour
  // would triangulate indices it never wrote.
  if (nhole < 3) return SUCCESS;

  uint16_t tris[MAX_REM_EDGES * 3];
  uint8_t tverts[MAX_REM_EDGES * 4];
  uint16_t tpoly[MAX_REM_EDGES];
  for (int i = 0; i < nhole; ++i) {
    const uint16_t pi = hole[i];
    tverts[i * 4 + 0] = uint8_t(mesh.verts[pi * 3 + 0]);
    tverts[i * 4 + 1] = uint8_t(mesh.verts[pi * 3 + 1]);
    tverts[i * 4 + 2] = uint8_t(mesh.verts[pi * 3 + 2]);
    tverts[i * 4 + 3] = 0;
    tpoly[i] = uint16_t(i);
  }
  int ntris = triangulate(nhole, tverts, tpoly, tris);
  if (ntris < 0) ntris = -ntris;
  if (ntris > MAX_REM_EDGES) return FAILURE | BUFFER_TOO_SMALL;

  uint16_t polys[MAX_REM_EDGES * NVP];
  uint8_t pareas[MAX_REM_EDGES];
  int npolys = 0;
  std::memset(polys, 0xff, size_t(ntris) * NVP * sizeof(uint16_t));
  for (int j = 0; j < ntris; ++j) {
    const uint16_t* t = &tris[j * 3];
    if (t[0] != t[1] && t[0] != t[2] && t[1] != t[2]) {
      polys[npolys * NVP + 0] = hole[t[0]];
      polys[npolys * NVP + 1] = hole[t[1]];
      polys[npolys * NVP + 2] = hole[t[2]];
      pareas[npolys] = uint8_t(harea[t[0]]);
      npolys++;
    }
  }
  if (!npolys) return SUCCESS;
  RowBest rows[MAX_REM_EDGES];
  npolys = mergeAll(polys, pareas, npolys, mesh.verts, rows);

  for (int i = 0; i < npolys; ++i) {
    if (mesh.npolys >= maxTris) break;
    uint16_t* p = &mesh.polys[mesh.npolys * NVP * 2];
    std::memset(p, 0xff, sizeof(uint16_t) * NVP * 2);
    for (int j = 0; j < NVP; ++j) p[j] = polys[i * NVP + j];
    mesh.areas[mesh.npolys] = pareas[i];
    mesh.npolys++;
    if (mesh.npolys > maxTris) return FAILURE | BUFFER_TOO_SMALL;
  }
  return SUCCESS;
}

} // namespace

Status buildTileCachePolyMesh(TileCacheAlloc* alloc, TileCacheContourSet& lcset, TileCachePolyMesh& mesh) {
  if (!alloc) return FAILURE | INVALID_PARAM;
  int maxVertices = 0, maxTris = 0, maxVertsPerCont = 0;
  for (int i = 0; i < lcset.nconts; ++i) {
    const int nv = lcset.conts[i].nverts;
    if (nv < 3) continue;
    maxVertices += nv;
    maxTris += nv - 2;
    if (nv > maxVertsPerCont) maxVertsPerCont = nv;
  }
  mesh.nvp = NVP;

  Scratch<uint8_t> vflags(alloc, size_t(maxVertices));
  if (!vflags) return FAILURE | OUT_OF_MEMORY;
  std::memset(vflags.get(), 0, size_t(maxVertices));
  mesh.verts = static_cast<uint16_t*>(alloc->alloc(sizeof(uint16_t) * size_t(maxVertices) * 3));
  if (!mesh.verts) return FAILURE | OUT_OF_MEMORY;
  mesh.polys = static_cast<uint16_t*>(alloc->alloc(sizeof(uint16_t) * size_t(maxTris) * NVP * 2));
  if (!mesh.polys) return FAILURE | OUT_OF_MEMORY;
  mesh.areas = static_cast<uint8_t*>(alloc->alloc(size_t(maxTris)));
  if (!mesh.areas) return FAILURE | OUT_OF_MEMORY;
  mesh.flags = static_cast<uint16_t*>(alloc->alloc(sizeof(uint16_t) * size_t(maxTris)));
  if (!mesh.flags) return FAILURE | OUT_OF_MEMORY;
  std::memset(mesh.flags, 0, sizeof(uint16_t) * size_t(maxTris)); // the caller sets flags
  mesh.nverts = 0;
  mesh.npolys = 0;
  std::memset(mesh.verts, 0, sizeof(uint16_t) * size_t(maxVertices) * 3);
  std::memset(mesh.polys, 0xff, sizeof(uint16_t) * size_t(maxTris) * NVP * 2);
  std::memset(mesh.areas, 0, size_t(maxTris));

  uint16_t firstVert[VERTEX_BUCKETS];
  for (int i = 0; i < VERTEX_BUCKETS; ++i) firstVert[i] = TILECACHE_NULL_IDX;
  Scratch<uint16_t> nextVert(alloc, size_t(maxVertices));
  if (!nextVert) return FAILURE | OUT_OF_MEMORY;
  std::memset(nextVert.get(), 0, sizeof(uint16_t) * size_t(maxVertices));
  Scratch<uint16_t> indices(alloc, size_t(maxVertsPerCont));
  if (!indices) return FAILURE | OUT_OF_MEMORY;
  Scratch<uint16_t> tris(alloc, size_t(maxVertsPerCont) * 3);
  if (!tris) return FAILURE | OUT_OF_MEMORY;
  Scratch<uint16_t> polys(alloc, size_t(maxVertsPerCont) * NVP);
  if (!polys) return FAILURE | OUT_OF_MEMORY;
  Scratch<RowBest> mergeRows(alloc, size_t(maxVertsPerCont));
  if (!mergeRows) return FAILURE | OUT_OF_MEMORY;

  for (int i = 0; i < lcset.nconts; ++i) {
    const TileCacheContour& cont = lcset.conts[i];
    if (cont.nverts < 3) continue;
    for (int j = 0; j < cont.nverts; ++j) indices[j] = uint16_t(j);
    int ntris = triangulate(cont.nverts, cont.verts, indices.get(), tris.get());
    if (ntris <= 0) ntris = -ntris; // keep what was clipped before it stopped

    for (int j = 0; j < cont.nverts; ++j) {
      const uint8_t* v = &cont.verts[j * 4];
      indices[j] = weldVertex(v[0], v[1], v[2], mesh.verts, firstVert, nextVert.get(), mesh.nverts);
      if (indices[j] == TILECACHE_NULL_IDX) return FAILURE | BUFFER_TOO_SMALL;
      if (v[3] & 0x80) vflags[indices[j]] = 1; // on a portal only: remove if possible
    }

    int npolys = 0;
    std::memset(polys.get(), 0xff, sizeof(uint16_t) * size_t(maxVertsPerCont) * NVP);
    for (int j = 0; j < ntris; ++j) {
      const uint16_t* t = &tris[size_t(j) * 3];
      if (t[0] != t[1] && t[0] != t[2] && t[1] != t[2]) {
        polys[size_t(npolys) * NVP + 0] = indices[t[0]];
        polys[size_t(npolys) * NVP + 1] = indices[t[1]];
        polys[size_t(npolys) * NVP + 2] = indices[t[2]];
        npolys++;
      }
    }
    if (!npolys) continue;
    npolys = mergeAll(polys.get(), nullptr, npolys, mesh.verts, mergeRows.get());

    for (int j = 0; j < npolys; ++j) {
      if (mesh.npolys >= maxTris) return FAILURE | BUFFER_TOO_SMALL; // guard
      uint16_t* p = &mesh.polys[mesh.npolys * NVP * 2];
      const uint16_t* q = &polys[size_t(j) * NVP];
      for (int k = 0; k < NVP; ++k) p[k] = q[k];
      mesh.areas[mesh.npolys] = cont.area;
      mesh.npolys++;
    }
  }

  // Remove the vertices that only sit on portal edges (they would split tile-border edges).
  for (int i = 0; i < mesh.nverts; ++i) {
    if (!vflags[i]) continue;
    if (!canRemoveVertex(mesh, uint16_t(i))) continue;
    const Status st = removeVertex(mesh, uint16_t(i), maxTris);
    if (statusFailed(st)) return st;
    for (int j = i; j < mesh.nverts; ++j) vflags[j] = vflags[j + 1]; // nverts is already one less
    --i;
  }

  return buildAdjacency(alloc, mesh.polys, mesh.npolys, mesh.verts, mesh.nverts, lcset);
}

} // namespace tilecache
} // namespace nav
