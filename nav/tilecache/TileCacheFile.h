// TileCacheFile.h: the tile cache file (".tcache", ours; docs/formats.md "Tile cache"): what
// `navbench bake LEVEL --layers` writes and `navbench obstacles` / the viewer open.
//
// Layout, every number little-endian (the loader checks all of it; nothing is half-loaded):
//   header      160 bytes: magic "NBTC", u32 version 1, u32 compressor id (TCACHE_COMPRESSOR_*),
//               u32 layer count, u32 link count, TileCacheParams (52 bytes), NavMeshParams
//               (28 bytes), bake summary (TileCacheBakeSummary, 52 bytes)
//   area flags  u8 walkableArea, u8[3] zero, u16 areaFlags[64]: 132 bytes
//   links       link count x 36 bytes (TileCacheLink: off-mesh connections of the level)
//   layers      layer count x {u32 size, size bytes: a layer blob as buildTileCacheLayer makes it
//               (TileCacheLayerHeader, then the compressed heights | areas | cons grids)}
//   trailer     u32 CRC-32 (zlib's polynomial) of every byte before it
// The layer blobs' headers are TileCacheLayerHeader's bytes (dtTileCacheLayerHeader's layout); on
// a little-endian host, as all our targets are, that is the file's byte order too.
#pragma once

#include "nav/NavTypes.h"
#include "nav/tilecache/TileCache.h"
#include "nav/tilecache/TileCacheBuilder.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace nav {
class NavMesh;
}

namespace nav::tilecache {

constexpr char TCACHE_MAGIC[4] = {'N', 'B', 'T', 'C'};
constexpr uint32_t TCACHE_VERSION = 1;
/// Bytes before the links (header + area flags), of one link, and of the trailing checksum.
constexpr size_t TCACHE_FIXED_BYTES = 284;
constexpr size_t TCACHE_LINK_BYTES = 36;
constexpr size_t TCACHE_CRC_BYTES = 4;
/// CRC-32 (zlib's polynomial 0xedb88320) of n bytes: the trailer of a .tcache file.
uint32_t tcacheCrc32(const uint8_t* data, size_t n);
/// Which TileCacheCompressor made the layer blobs (both sides must use the same).
constexpr uint32_t TCACHE_COMPRESSOR_NONE = 0; ///< NullCompressor
constexpr uint32_t TCACHE_COMPRESSOR_LZ4 = 1;  ///< Lz4Compressor (the default)
/// Layers per tile column a file may hold (RecastDemo's TempObstacles MAX_LAYERS).
constexpr int TCACHE_MAX_LAYERS_PER_TILE = 32;
/// Off-mesh links a file may hold.
constexpr int TCACHE_MAX_LINKS = 1 << 16;
/// Tile-cache and navmesh slots a file may ask for: max(TCACHE_SLOT_FLOOR, 4 x its layer count),
/// as tile sets (both are allocated up front).
constexpr int TCACHE_SLOT_FLOOR = 1 << 16;
/// Largest .tcache file read [Unit: bytes].
constexpr long long TCACHE_MAX_FILE_BYTES = 1ll << 30;

/// What the layers were baked with (for reports, the viewer and a re-bake; the tile cache itself
/// runs on TileCacheParams).
struct TileCacheBakeSummary {
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0}; ///< Level bounds; the grid's origin is bmin [Unit: wu]
  int32_t tilesX = 0, tilesY = 0;                 ///< Tile grid.
  int32_t tileSize = 0;                           ///< [Unit: cells] (= TileCacheParams width, height)
  int32_t borderSize = 0;                         ///< Cells rasterized around each tile [Unit: cells]
  float agentMaxSlope = 0;                        ///< [Unit: degrees]
  uint32_t filters = 0;                           ///< TCACHE_FILTER_* bits the bake applied
  int32_t volumeCount = 0;                        ///< Convex volumes marked into the layers
};
constexpr uint32_t TCACHE_FILTER_LOW_HANGING = 1, TCACHE_FILTER_LEDGES = 2, TCACHE_FILTER_LOW_HEIGHT = 4;

/// An off-mesh connection (nav::TileBuildParams' off-mesh fields, one link).
struct TileCacheLink {
  float start[3] = {0, 0, 0}, end[3] = {0, 0, 0}; ///< [Unit: wu]
  float radius = 0;                               ///< [Unit: wu] [Limit: > 0]
  uint16_t flags = 0;
  uint8_t area = 0;  ///< [Limit: 0..62]
  uint8_t dir = 0;   ///< 1 = bidirectional [Limit: 0..1]
  uint32_t userId = 0;
};

/// Everything a .tcache holds.
struct TileCacheFileData {
  TileCacheParams params{};
  NavMeshParams meshParams{};
  TileCacheBakeSummary bake;
  uint32_t compressor = TCACHE_COMPRESSOR_LZ4;
  /// Area id that the layers' TILECACHE_WALKABLE_AREA cells get in the navmesh (the bake's ground).
  uint8_t walkableArea = 0;
  uint16_t areaFlags[64] = {}; ///< Poly flags per area id (after the walkable mapping).
  std::vector<TileCacheLink> links;
  std::vector<std::vector<uint8_t>> layers; ///< Layer blobs in file order (grid order, then layer).
};

/// A compressor for an id (null for an unknown id).
std::unique_ptr<TileCacheCompressor> makeCompressor(uint32_t id);
const char* compressorName(uint32_t id); ///< "lz4", "none", or "unknown".

/// Serialises `data` (checked as the loader would check it; a bad field fails with `why`).
Status saveTileCache(const TileCacheFileData& data, std::vector<uint8_t>& out, std::string* why = nullptr);
/// Writes the file atomically (nav/base/AtomicFile.h): a failed write leaves the old file.
Status saveTileCacheFile(const TileCacheFileData& data, const std::string& path, std::string* why = nullptr);

/// Parses and validates a .tcache image: sizes, counts and limits, the CRC, every parameter, every
/// link, and every layer (its header, its place in the grid, no duplicate, and that it
/// decompresses to exactly its declared size with the file's compressor). On failure `out` is
/// untouched and `why` says "<name>: <problem>" (a layer's problems: "<name>: layer <i> (tile x, y,
/// layer l): <problem>").
Status loadTileCache(const uint8_t* buf, size_t size, TileCacheFileData* out, std::string* why = nullptr,
                     const char* name = "<memory>");
/// Reads the file (at most TCACHE_MAX_FILE_BYTES) and calls loadTileCache.
Status loadTileCacheFile(const std::string& path, TileCacheFileData* out, std::string* why = nullptr);

/// RecastDemo's TempObstacles mesh process for a loaded file: walkable cells become
/// `walkableArea`, each poly gets areaFlags[area], and the file's links go into every tile.
class FileMeshProcess final : public TileCacheMeshProcess {
public:
  explicit FileMeshProcess(const TileCacheFileData& data);
  void process(TileBuildParams* params, uint8_t* polyAreas, uint16_t* polyFlags) override;

private:
  uint8_t m_walkableArea = 0;
  uint16_t m_areaFlags[64] = {};
  std::vector<float> m_verts, m_rad;
  std::vector<uint16_t> m_flags;
  std::vector<uint8_t> m_areas, m_dir;
  std::vector<uint32_t> m_userIds;
};

/// A tile cache opened from a file, ready to use: the cache holds every layer, the navmesh every
/// tile built from them (no obstacle yet). Members are destroyed cache first (it points at the
/// compressor and the mesh process).
struct OpenTileCache {
  TileCacheFileData info; ///< The file's header data; `layers` is emptied (the cache owns them).
  std::unique_ptr<TileCacheCompressor> compressor;
  std::unique_ptr<FileMeshProcess> meshProcess;
  std::unique_ptr<NavMesh> mesh;
  std::unique_ptr<TileCache> cache;
  OpenTileCache();
  ~OpenTileCache();
  OpenTileCache(OpenTileCache&&) noexcept;
  OpenTileCache& operator=(OpenTileCache&&) noexcept;
};

/// Loads a .tcache (loadTileCacheFile), then builds the cache (maxObstacles: obstacle slots, 0 =
/// the file's) and the navmesh with every tile. All or nothing: on failure `out` is untouched and
/// `why` names the file and the problem.
Status openTileCacheFile(const std::string& path, int maxObstacles, OpenTileCache* out, std::string* why = nullptr);
/// The same from already-loaded file data (consumed: its layers move into the cache).
Status openTileCache(TileCacheFileData data, int maxObstacles, OpenTileCache* out, std::string* why = nullptr,
                     const char* name = "<memory>");

} // namespace nav::tilecache
