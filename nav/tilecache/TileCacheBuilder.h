// TileCacheBuilder.h: compressed heightfield layers and the stages that turn one layer into a
// polygon mesh (DetourTileCacheBuilder 1.5.1's model: same blob layout, same regions, contours,
// polygons and welding, so nav::buildTileData makes the same tile bytes from our output as
// dtCreateNavMeshData makes from Detour's).
//
// Pipeline of one tile rebuild (what TileCache does per touched layer):
//   blob --decompressTileCacheLayer--> TileCacheLayer --mark*Area (obstacles)--> layer.areas
//        --buildTileCacheRegions--> layer.regs --buildTileCacheContours--> TileCacheContourSet
//        --buildTileCachePolyMesh--> TileCachePolyMesh --nav::buildTileData--> tile blob
//
// Units: layer grids are in cells (cs on x/z, ch on y) from the layer header's bmin (whose y is
// at hmin). Std only (plus whatever the compressor wraps). Every function checks its input at the
// edge; blobs are untrusted (decompressTileCacheLayer validates what the later stages rely on).
// No global state: calls on different layers and allocators may run on different threads. Memory
// comes only from the TileCacheAlloc passed in (buildTileCacheLayer, a bake-time call, uses new[]).
#pragma once

#include "nav/NavTypes.h"

#include <cstddef>
#include <cstdint>

namespace nav {
namespace tilecache {

constexpr int TILECACHE_MAGIC = 'D' << 24 | 'T' << 16 | 'L' << 8 | 'R'; ///< 'DTLR', as Detour.
constexpr int TILECACHE_VERSION = 1;

constexpr uint8_t TILECACHE_NULL_AREA = 0;
constexpr uint8_t TILECACHE_WALKABLE_AREA = 63; ///< Largest area id a layer may hold.
constexpr uint16_t TILECACHE_NULL_IDX = 0xffff;

/// Max verts per polygon of a TileCachePolyMesh (Detour's MAX_VERTS_PER_POLY in the builder).
constexpr int TILECACHE_VERTS_PER_POLY = 6;

/// Header of a layer blob; same binary layout as dtTileCacheLayerHeader (56 bytes, host-endian).
/// A blob is [header, zero-padded to a multiple of 4][compressed (heights | areas | cons)], each grid
/// width * height bytes, row-major (x fastest).
struct TileCacheLayerHeader {
  int magic;   ///< TILECACHE_MAGIC
  int version; ///< TILECACHE_VERSION
  int tx, ty, tlayer;                 ///< Tile coordinates and layer index.
  float bmin[3], bmax[3];             ///< Layer bounds [Unit: wu]
  uint16_t hmin, hmax;                ///< Height range [Unit: ch, from the heightfield's bmin; bmin[1] is at hmin]
  uint8_t width, height;              ///< Grid size [Unit: cells] [Limit: 1..255]
  uint8_t minx, maxx, miny, maxy;     ///< Usable sub-region (inside the border) [Unit: cells]
};
static_assert(sizeof(TileCacheLayerHeader) == 56, "TileCacheLayerHeader must match dtTileCacheLayerHeader");
static_assert(offsetof(TileCacheLayerHeader, hmin) == 44, "TileCacheLayerHeader must match dtTileCacheLayerHeader");
static_assert(offsetof(TileCacheLayerHeader, width) == 48, "TileCacheLayerHeader must match dtTileCacheLayerHeader");

/// Size of the header part of a blob (header rounded up to 4 bytes).
constexpr int TILECACHE_LAYER_HEADER_SIZE = (int(sizeof(TileCacheLayerHeader)) + 3) & ~3;

/// A decompressed layer: one allocation from a TileCacheAlloc holding this struct, the header and
/// four grids of width * height bytes.
struct TileCacheLayer {
  TileCacheLayerHeader* header;
  uint8_t regCount; ///< Number of regions (set by buildTileCacheRegions).
  uint8_t* heights; ///< Height per cell from header->bmin[1] (= hmin) [Unit: ch]; 0xff = empty.
  uint8_t* areas;   ///< Area id per cell [Limit: 0..TILECACHE_WALKABLE_AREA]; 0 = not walkable.
  /// Connections per cell: bits 0..3 = walkable neighbour in direction 0..3 (-x, +z, +x, -z),
  /// bits 4..7 = the neighbour in that direction is outside the layer (a portal to another layer).
  uint8_t* cons;
  uint8_t* regs; ///< Region per cell (0xff = none), set by buildTileCacheRegions.
};

/// A simplified region outline.
struct TileCacheContour {
  int nverts;
  /// Vertices [(x, y, z, flags) * nverts]: x, z in cells [Limit: 0..width/height], y a layer
  /// height [Unit: ch, from header bmin[1]]. flags: low 4 bits = dir (0..3) of the portal the edge
  /// from this vertex to the next lies on, or 0xf for none; bit 0x80 = the vertex may be removed
  /// from the mesh (it only sits on a portal edge).
  uint8_t* verts;
  uint8_t reg;
  uint8_t area;
};

struct TileCacheContourSet {
  int nconts = 0;
  TileCacheContour* conts = nullptr;
};

/// The polygon mesh of one layer, in nav::TileBuildParams' layout (nvp = TILECACHE_VERTS_PER_POLY).
struct TileCachePolyMesh {
  int nvp = 0;
  int nverts = 0;             ///< Number of vertices.
  int npolys = 0;             ///< Number of polygons.
  uint16_t* verts = nullptr;  ///< [(x, y, z) * nverts] in cells from the layer header's bmin [Unit: cs, ch]
  /// [(verts[nvp], neis[nvp]) * npolys]; unused slots TILECACHE_NULL_IDX; a neighbour is a poly
  /// index, 0x8000 | dir for a portal edge (to the next tile or another layer; dir 0 = -x, 1 = +z,
  /// 2 = +x, 3 = -z), or TILECACHE_NULL_IDX for a wall.
  uint16_t* polys = nullptr;
  uint16_t* flags = nullptr;  ///< Per polygon flags (0 from the builder) [Size: npolys]
  uint8_t* areas = nullptr;   ///< Area id per polygon [Size: npolys]
};

// ---------------------------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------------------------

/// Where the build stages get their memory (Detour's dtTileCacheAlloc). Every stage returns what
/// it allocated for scratch before returning; results (layer, contours, mesh) live until freed
/// with the matching free* function or until reset().
struct TileCacheAlloc {
  virtual ~TileCacheAlloc() = default;
  /// Forgets every allocation at once (a no-op for the heap allocator).
  virtual void reset() {}
  /// Returns size bytes aligned for any scalar type, or nullptr when out of memory.
  virtual void* alloc(size_t size);
  virtual void free(void* ptr);
};

/// A reusable scratch arena for rebuilding tiles: bump allocation from one block, free() is a
/// no-op, reset() forgets everything. An allocation that does not fit is served from the heap (and
/// released at the next reset()), and reset() grows the block to the high-water mark seen so far,
/// so a steady stream of rebuilds of the same tiles stops touching the heap after the first one.
class TileCacheArena : public TileCacheAlloc {
public:
  /// capacity: initial block size [Unit: bytes]; 0 lets the first reset() size it.
  explicit TileCacheArena(size_t capacity = 0);
  ~TileCacheArena() override;
  TileCacheArena(const TileCacheArena&) = delete;
  TileCacheArena& operator=(const TileCacheArena&) = delete;

  void reset() override;
  void* alloc(size_t size) override;
  void free(void* ptr) override;

  size_t capacity() const { return m_capacity; }
  size_t used() const { return m_top; }
  /// Largest total in use between two resets so far (block + overflow) [Unit: bytes].
  size_t highWater() const { return m_highWater; }

private:
  struct Overflow;
  uint8_t* m_block = nullptr;
  size_t m_capacity = 0;
  size_t m_top = 0;
  size_t m_overflowBytes = 0;
  size_t m_highWater = 0;
  Overflow* m_overflow = nullptr; ///< Heap blocks given out since the last reset (a list).
};

// ---------------------------------------------------------------------------------------------
// Compression
// ---------------------------------------------------------------------------------------------

/// Compresses the grids of a layer blob (Detour's dtTileCacheCompressor). Both sides of a cache
/// (writer and reader) must use the same compressor.
struct TileCacheCompressor {
  virtual ~TileCacheCompressor() = default;
  /// Upper bound of the compressed size of bufferSize bytes.
  virtual int maxCompressedSize(int bufferSize) = 0;
  /// Compresses buffer into compressed (room: maxCompressedSize bytes); *compressedSize = bytes
  /// written. FAILURE | BUFFER_TOO_SMALL when it does not fit.
  virtual Status compress(const uint8_t* buffer, int bufferSize, uint8_t* compressed, int maxCompressedSize,
                          int* compressedSize) = 0;
  /// Decompresses into buffer (room: maxBufferSize); *bufferSize = bytes written. Must refuse
  /// (FAILURE | INVALID_PARAM) corrupt input without reading or writing out of bounds.
  virtual Status decompress(const uint8_t* compressed, int compressedSize, uint8_t* buffer, int maxBufferSize,
                            int* bufferSize) = 0;
};

// ---------------------------------------------------------------------------------------------
// Layer blobs
// ---------------------------------------------------------------------------------------------

/// Compresses a layer into a new blob, byte for byte what dtBuildTileCacheLayer makes with the
/// same compressor: the header is copied as given (all 56 bytes: clear the struct before filling
/// it), magic and version are the caller's to set. Grids are width * height bytes each.
/// *outData is new[]-allocated (free with delete[]).
Status buildTileCacheLayer(TileCacheCompressor* comp, TileCacheLayerHeader* header, const uint8_t* heights,
                           const uint8_t* areas, const uint8_t* cons, uint8_t** outData, int* outDataSize);

/// Checks a blob's header without decompressing: size, magic (WRONG_MAGIC), version
/// (WRONG_VERSION), grid size 1..255 x 1..255, a sub-region inside the grid, hmin <= hmax and finite
/// bounds (INVALID_PARAM). Copies the header into *out (which may be null). Blobs need not be aligned.
/// Returns SUCCESS when the header is usable.
Status readTileCacheLayerHeader(const uint8_t* data, int dataSize, TileCacheLayerHeader* out);

/// Decompresses a blob into a new layer from alloc (regs cleared, regCount 0). The blob is
/// untrusted: readTileCacheLayerHeader's checks, then a decompressed size other than exactly
/// 3 * width * height (INVALID_PARAM), area ids above TILECACHE_WALKABLE_AREA, connection bits that
/// lead out of the grid (INVALID_PARAM), and any compressor failure are refused with
/// *layerOut = nullptr. OUT_OF_MEMORY when alloc fails. Free with freeTileCacheLayer.
Status decompressTileCacheLayer(TileCacheAlloc* alloc, TileCacheCompressor* comp, const uint8_t* compressed,
                                int compressedSize, TileCacheLayer** layerOut);

void freeTileCacheLayer(TileCacheAlloc* alloc, TileCacheLayer* layer);

TileCacheContourSet* allocTileCacheContourSet(TileCacheAlloc* alloc);
void freeTileCacheContourSet(TileCacheAlloc* alloc, TileCacheContourSet* cset);

TileCachePolyMesh* allocTileCachePolyMesh(TileCacheAlloc* alloc);
void freeTileCachePolyMesh(TileCacheAlloc* alloc, TileCachePolyMesh* lmesh);

// ---------------------------------------------------------------------------------------------
// Obstacles: set layer.areas to areaId under a shape (0 = carve out). orig = the layer header's
// bmin (where the tile cache keeps it), cs / ch the cell size and height [Unit: wu]. Only cells
// whose height lies in the shape's y range are marked. Non-finite inputs or cs / ch <= 0:
// FAILURE | INVALID_PARAM, nothing marked.
// ---------------------------------------------------------------------------------------------

/// Vertical cylinder standing on pos (pos[1] = bottom), given radius and height [Unit: wu].
Status markCylinderArea(TileCacheLayer& layer, const float* orig, float cs, float ch, const float* pos, float radius,
                        float height, uint8_t areaId);

/// Axis-aligned box [bmin, bmax] [Unit: wu].
Status markBoxArea(TileCacheLayer& layer, const float* orig, float cs, float ch, const float* bmin,
                   const float* bmax, uint8_t areaId);

/// Box rotated by yaw about y: center, halfExtents [Unit: wu] and rotAux as Detour's
/// dtTileCache::addBoxObstacle computes it (float math): coshalf = cosf(0.5f * yaw),
/// sinhalf = sinf(-0.5f * yaw), rotAux[0] = coshalf * sinhalf, rotAux[1] = coshalf * coshalf - 0.5f.
Status markBoxArea(TileCacheLayer& layer, const float* orig, float cs, float ch, const float* center,
                   const float* halfExtents, const float* rotAux, uint8_t areaId);

// ---------------------------------------------------------------------------------------------
// Build stages
// ---------------------------------------------------------------------------------------------

/// Partitions the layer's walkable cells into monotone regions (layer.regs, layer.regCount), as
/// dtBuildTileCacheRegions. walkableClimb [Unit: ch]. FAILURE | BUFFER_TOO_SMALL beyond 255
/// monotone regions.
Status buildTileCacheRegions(TileCacheAlloc* alloc, TileCacheLayer& layer, int walkableClimb);

/// Traces and simplifies each region's outline (maxError [Unit: cells]) into lcset, as
/// dtBuildTileCacheContours. lcset must come from allocTileCacheContourSet on the same alloc.
Status buildTileCacheContours(TileCacheAlloc* alloc, TileCacheLayer& layer, int walkableClimb, float maxError,
                              TileCacheContourSet& lcset);

/// Triangulates the contours, merges triangles into convex polygons of up to
/// TILECACHE_VERTS_PER_POLY verts, welds vertices, removes vertices left on straight edges and
/// finds neighbours and tile-border portals, as dtBuildTileCachePolyMesh. mesh must come from
/// allocTileCachePolyMesh on the same alloc. FAILURE | BUFFER_TOO_SMALL beyond 0xfffe verts.
Status buildTileCachePolyMesh(TileCacheAlloc* alloc, TileCacheContourSet& lcset, TileCachePolyMesh& mesh);

} // namespace tilecache
} // namespace nav
