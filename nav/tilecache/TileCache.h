// TileCache.h: temporary obstacles over compressed heightfield layers, tiles rebuilt in place
// (DetourTileCache 1.5.1's dtTileCache model: same names without `dt`, same refs and salts, same
// request queue and per-update budget, same rebuild order, so the same layers and obstacles give
// the same navmesh tiles, byte for byte, in the same tile slots).
//
// Use: init once; addTile every compressed layer of the level (blobs made by buildTileCacheLayer);
// buildNavMeshTilesAt every tile location into a NavMesh whose tile size is width * cs by
// height * cs; then add and remove obstacles at will and call update() each frame. An obstacle
// request is queued (at most MAX_REQUESTS between updates); the next update() with no tile left to
// rebuild turns the queued requests into tiles to rebuild (at most MAX_UPDATE), and every update()
// rebuilds ONE tile: decompress its layer, carve every live obstacle touching it out of the areas,
// regions, contours, poly mesh, the mesh process (areas -> flags, off-mesh links), TileBuilder,
// then the old tile at that location is removed from the NavMesh and the new one added (it takes
// the slot just freed, with the slot's salt bumped, as Detour's does).
//
// Memory: init allocates everything the cache keeps (tiles, obstacles, the position hash); the
// rebuild's scratch comes from an arena that grows to the largest rebuild seen and is then reused.
// The new tile's blob is a new[] block the NavMesh owns (TILE_FREE_DATA), as in Detour.
// Errors: Status bits, arguments checked at the API edge (INVALID_PARAM); nothing throws.
#pragma once

#include "nav/NavTypes.h"
#include "nav/TileBuilder.h"
#include "nav/tilecache/TileCacheBuilder.h"

#include <cstdint>

namespace nav {
class NavMesh;

namespace tilecache {

/// An obstacle handle: salt << 16 | obstacle index. 0 is the null ref.
using ObstacleRef = uint32_t;
/// A compressed tile handle: salt << tileBits | tile index (tileBits from maxTiles). 0 is null.
using CompressedTileRef = uint32_t;

/// Flags for TileCache::addTile.
enum CompressedTileFlags : uint8_t {
  COMPRESSEDTILE_FREE_DATA = 0x01, ///< The cache owns the blob and frees it (delete[]) on removeTile.
};

/// A layer blob held by the cache. All pointers point into `data`.
struct CompressedTile {
  uint32_t salt;                ///< Generation counter of this slot (never 0).
  TileCacheLayerHeader* header; ///< = data (null while the slot is free).
  uint8_t* compressed;          ///< The compressed grids: data + TILECACHE_LAYER_HEADER_SIZE.
  int compressedSize;
  uint8_t* data;                ///< The whole blob [Size: dataSize].
  int dataSize;
  uint32_t flags;               ///< CompressedTileFlags.
  CompressedTile* next;         ///< Next in the position hash bucket or in the free list.
};

enum ObstacleState : uint8_t {
  OBSTACLE_EMPTY,      ///< Free slot.
  OBSTACLE_PROCESSING, ///< Added; some touched tiles not rebuilt yet.
  OBSTACLE_PROCESSED,  ///< In every touched tile.
  OBSTACLE_REMOVING,   ///< Removed; some touched tiles not rebuilt without it yet.
};

enum ObstacleType : uint8_t {
  OBSTACLE_CYLINDER,
  OBSTACLE_BOX,          ///< Axis-aligned box.
  OBSTACLE_ORIENTED_BOX, ///< Box rotated about y.
};

struct ObstacleCylinder {
  float pos[3]; ///< Centre of the bottom disc [Unit: wu]
  float radius; ///< [Unit: wu]
  float height; ///< [Unit: wu]
};

struct ObstacleBox {
  float bmin[3]; ///< [Unit: wu]
  float bmax[3]; ///< [Unit: wu]
};

struct ObstacleOrientedBox {
  float center[3];      ///< [Unit: wu]
  float halfExtents[3]; ///< Before the rotation [Unit: wu]
  /// From the yaw: {cos(yaw/2) * sin(-yaw/2), cos(yaw/2)^2 - 0.5} (what markBoxArea takes).
  float rotAux[2];
};

/// Most tiles one obstacle can touch (its bounds against the layers' tight bounds); an obstacle
/// over more tiles is carved from the first MAX_TOUCHED_TILES only, as in Detour.
constexpr int MAX_TOUCHED_TILES = 8;

struct TileCacheObstacle {
  union {
    ObstacleCylinder cylinder;
    ObstacleBox box;
    ObstacleOrientedBox orientedBox;
  };
  CompressedTileRef touched[MAX_TOUCHED_TILES]; ///< Tiles the obstacle is carved into [Count: ntouched]
  CompressedTileRef pending[MAX_TOUCHED_TILES]; ///< Touched tiles still to rebuild [Count: npending]
  uint16_t salt;   ///< Generation counter of this slot (never 0).
  uint8_t type;    ///< ObstacleType.
  uint8_t state;   ///< ObstacleState.
  uint8_t ntouched;
  uint8_t npending;
  TileCacheObstacle* next; ///< Next in the free list.
};

struct TileCacheParams {
  float orig[3];         ///< World origin of tile (0, 0) [Unit: wu]
  float cs, ch;          ///< Cell size and height [Unit: wu] [Limit: > 0]
  int width, height;     ///< Tile size (without border) [Unit: cells] [Limit: > 0]
  float walkableHeight;  ///< [Unit: wu]
  float walkableRadius;  ///< [Unit: wu]
  float walkableClimb;   ///< [Unit: wu]
  float maxSimplificationError; ///< Contour simplification [Unit: cells]
  int maxTiles;          ///< Layer slots [Limit: 1.. and a salt of >= 10 bits left in 32]
  int maxObstacles;      ///< Obstacle slots [Limit: 0..65536]
};

/// Called on every rebuilt tile before its blob is made: turns the layer's areas into poly areas
/// and flags (in place) and may point params' offMeshCon* at off-mesh connections (arrays that
/// must stay valid until the blob is built, right after process returns). params->polyAreas /
/// polyFlags are the same arrays as polyAreas / polyFlags [Size: params->polyCount].
struct TileCacheMeshProcess {
  virtual ~TileCacheMeshProcess() = default;
  virtual void process(TileBuildParams* params, uint8_t* polyAreas, uint16_t* polyFlags) = 0;
};

/// The mesh process matching nav/bake: Recast's walkable area (TILECACHE_WALKABLE_AREA) becomes
/// ground, then each poly gets nav::flagsForArea of its area (ground, grass, road -> walk;
/// water -> swim; door -> walk | door; jump -> jump; other areas 0). setAreaFlags replaces that
/// table (a .tcache file carries its own). Optionally hands every tile the same off-mesh
/// connections (the level's links; TileBuilder keeps those starting in the tile), as RecastDemo's
/// TempObstacles sample does. The link arrays are the caller's and must outlive the use.
class DefaultMeshProcess : public TileCacheMeshProcess {
public:
  DefaultMeshProcess();
  void process(TileBuildParams* params, uint8_t* polyAreas, uint16_t* polyFlags) override;

  /// walkableArea: the area TILECACHE_WALKABLE_AREA cells get [Limit: 0..62]; areaFlags: poly
  /// flags per area id [Size: 64]. Ignored (false) when out of range or null.
  bool setAreaFlags(uint8_t walkableArea, const uint16_t* areaFlags);
  uint8_t walkableArea() const { return m_walkableArea; }
  uint16_t flagsOf(uint8_t area) const { return m_areaFlags[area & 63]; }

  /// Shapes as TileBuildParams' offMeshCon* arrays [Size: count]; userIds may be null. count 0
  /// (or null verts) removes them.
  void setOffMeshConnections(const float* verts, const float* radii, const uint16_t* flags, const uint8_t* areas,
                             const uint8_t* dirs, const uint32_t* userIds, int count);

private:
  uint8_t m_walkableArea;
  uint16_t m_areaFlags[64];
  const float* m_offMeshVerts = nullptr;
  const float* m_offMeshRadii = nullptr;
  const uint16_t* m_offMeshFlags = nullptr;
  const uint8_t* m_offMeshAreas = nullptr;
  const uint8_t* m_offMeshDirs = nullptr;
  const uint32_t* m_offMeshUserIds = nullptr;
  int m_offMeshCount = 0;
};

class TileCache {
public:
  /// Obstacle requests (adds and removes) queued between two updates that take them.
  static constexpr int MAX_REQUESTS = 64;
  /// Tiles waiting for a rebuild; touched tiles beyond it are not rebuilt for that request.
  static constexpr int MAX_UPDATE = 64;

  TileCache();
  ~TileCache();
  TileCache(const TileCache&) = delete;
  TileCache& operator=(const TileCache&) = delete;

  /// Allocates the slots. compressor: how the layer blobs were compressed (the caller's, must
  /// outlive the cache). meshProcess: may be null (areas stay the layer's, flags 0); the caller's.
  /// FAILURE | INVALID_PARAM for params out of range or a null compressor; OUT_OF_MEMORY.
  /// Calling init again drops everything (blobs the cache owns are freed).
  Status init(const TileCacheParams& params, TileCacheCompressor* compressor, TileCacheMeshProcess* meshProcess);

  TileCacheCompressor* getCompressor() { return m_compressor; }
  const TileCacheParams& getParams() const { return m_params; }

  /// Tile slots: getTileCount() = maxTiles; getTile(i) for 0 <= i < getTileCount() (header null
  /// when free).
  int getTileCount() const { return m_params.maxTiles; }
  const CompressedTile* getTile(int i) const { return &m_tiles[i]; }

  /// Obstacle slots: getObstacleCount() = maxObstacles; getObstacle(i) (state OBSTACLE_EMPTY when free).
  int getObstacleCount() const { return m_params.maxObstacles; }
  const TileCacheObstacle* getObstacle(int i) const { return &m_obstacles[i]; }
  /// The obstacle of a ref whose salt matches its slot (null otherwise). Like Detour, a removed
  /// obstacle keeps its ref until the update that finishes its removal bumps the salt.
  const TileCacheObstacle* getObstacleByRef(ObstacleRef ref) const;
  ObstacleRef getObstacleRef(const TileCacheObstacle* ob) const;

  /// Refs of the layers at tile (tx, ty), most recently added first; at most maxTiles written.
  int getTilesAt(int tx, int ty, CompressedTileRef* tiles, int maxTiles) const;
  const CompressedTile* getTileAt(int tx, int ty, int tlayer) const;
  CompressedTileRef getTileRef(const CompressedTile* tile) const;
  /// Null for 0, an index out of range or a salt that does not match.
  const CompressedTile* getTileByRef(CompressedTileRef ref) const;

  /// Adds a layer blob (made by buildTileCacheLayer). The blob must be 4-byte aligned and stay
  /// valid while in the cache; with COMPRESSEDTILE_FREE_DATA the cache owns it (delete[]). The
  /// header is checked (readTileCacheLayerHeader: WRONG_MAGIC, WRONG_VERSION, INVALID_PARAM); the
  /// grids are checked when the tile is built. FAILURE if a layer is already at (tx, ty, tlayer),
  /// FAILURE | OUT_OF_MEMORY when every slot is taken.
  Status addTile(uint8_t* data, int dataSize, uint8_t flags, CompressedTileRef* result);
  /// Frees a slot (its salt is bumped). Hands the blob back in *data / *dataSize (each may be
  /// null) unless the cache owned it (then freed, and *data = null, *dataSize = 0).
  Status removeTile(CompressedTileRef ref, uint8_t** data, int* dataSize);

  /// Queues a cylinder standing on pos (pos[1] = bottom) [Unit: wu]. *result (may be null) gets
  /// its ref. FAILURE | BUFFER_TOO_SMALL when MAX_REQUESTS are queued, OUT_OF_MEMORY when every
  /// obstacle slot is taken, INVALID_PARAM for non-finite input or a negative radius or height.
  Status addObstacle(const float* pos, float radius, float height, ObstacleRef* result);
  /// Queues an axis-aligned box [bmin, bmax] (bmin <= bmax on every axis) [Unit: wu].
  Status addBoxObstacle(const float* bmin, const float* bmax, ObstacleRef* result);
  /// Queues a box of halfExtents (>= 0) about center, rotated by yRadians about +y [Unit: wu, rad].
  Status addBoxObstacle(const float* center, const float* halfExtents, float yRadians, ObstacleRef* result);
  /// Queues the removal of an obstacle. 0 is a no-op (SUCCESS, as Detour); a ref that is not a
  /// live obstacle (stale salt, free slot, index out of range) is refused with INVALID_PARAM
  /// (Detour queues it and drops it in update). BUFFER_TOO_SMALL when MAX_REQUESTS are queued.
  Status removeObstacle(ObstacleRef ref);

  /// Layers whose tight bounds (calcTightTileBounds) overlap [bmin, bmax] (boundaries touching
  /// count), in tile row order (z, then x), then by location as getTilesAt; at most maxResults.
  Status queryTiles(const float* bmin, const float* bmax, CompressedTileRef* results, int* resultCount,
                    int maxResults) const;

  /// One step of the work: when no rebuild is pending, takes the queued requests (each add finds
  /// its touched tiles; each remove marks its obstacle removing); then rebuilds ONE pending tile
  /// into navmesh and advances the obstacles' states (an obstacle whose removal is complete frees
  /// its slot and bumps its salt). *upToDate (may be null): nothing queued and nothing pending.
  /// Returns the rebuild's status. dt is unused (as Detour's).
  Status update(float dt, NavMesh* navmesh, bool* upToDate = nullptr);

  /// Rebuilds every layer at (tx, ty); stops at the first failure.
  Status buildNavMeshTilesAt(int tx, int ty, NavMesh* navmesh);
  /// Rebuilds one layer into navmesh with every live obstacle that touches it carved out. The old
  /// tile at the location is removed first; a layer left with no polys leaves the location empty.
  Status buildNavMeshTile(CompressedTileRef ref, NavMesh* navmesh);

  /// The layer's usable cells (minx..maxx, miny..maxy) in world units, full height. [Unit: wu]
  void calcTightTileBounds(const TileCacheLayerHeader* header, float* bmin, float* bmax) const;
  /// An obstacle's bounds (an oriented box: a square of half side 1.41 * max(hx, hz)). [Unit: wu]
  void getObstacleBounds(const TileCacheObstacle* ob, float* bmin, float* bmax) const;

  /// Opt-in (off by default): keep a copy of each layer's tile as built with no obstacle on it
  /// (the first such build after this call), and rebuild a layer that no obstacle touches from
  /// that copy instead of running the build stages and the mesh process: the same bytes as long
  /// as the mesh process gives the same output for the same layer (call clearPristineTiles()
  /// after changing what it does, e.g. its off-mesh links). Removing an obstacle then costs a copy
  /// instead of a rebuild. Costs one copy of every such tile (allocated when first built).
  void setKeepPristineTiles(bool keep);
  bool keepsPristineTiles() const { return m_keepPristine; }
  /// Forgets the kept copies (their memory is freed).
  void clearPristineTiles();
  /// Layers whose obstacle-free tile is kept now.
  int pristineTileCount() const;

  /// Requests queued and tiles waiting for a rebuild (for tools and tests).
  int getRequestCount() const { return m_nreqs; }
  int getUpdateCount() const { return m_nupdate; }
  /// Bytes the rebuild scratch arena holds now (it grows to the largest rebuild, then stays).
  size_t scratchBytes() const { return m_arena.capacity(); }

  // Ref encoding.
  CompressedTileRef encodeTileId(uint32_t salt, uint32_t it) const { return (salt << m_tileBits) | it; }
  uint32_t decodeTileIdSalt(CompressedTileRef ref) const { return (ref >> m_tileBits) & ((1u << m_saltBits) - 1); }
  uint32_t decodeTileIdTile(CompressedTileRef ref) const { return ref & ((1u << m_tileBits) - 1); }
  ObstacleRef encodeObstacleId(uint32_t salt, uint32_t it) const { return (salt << 16) | it; }
  uint32_t decodeObstacleIdSalt(ObstacleRef ref) const { return (ref >> 16) & 0xffffu; }
  uint32_t decodeObstacleIdObstacle(ObstacleRef ref) const { return ref & 0xffffu; }

private:
  enum RequestAction : int { REQUEST_ADD, REQUEST_REMOVE };
  struct ObstacleRequest {
    int action;
    ObstacleRef ref;
  };

  void release();
  /// Takes a free obstacle slot and queues its add request (the caller checked the queue).
  TileCacheObstacle* newObstacle(uint8_t type);
  ObstacleRef queueAdd(TileCacheObstacle* ob);
  /// Adds ob's touched tiles to the update list and its pending list (as far as MAX_UPDATE allows).
  void queueTouched(TileCacheObstacle* ob);
  CompressedTile* getTileAtMutable(int tx, int ty, int tlayer);

  TileCacheParams m_params{};
  TileCacheCompressor* m_compressor = nullptr;
  TileCacheMeshProcess* m_meshProcess = nullptr;

  int m_tileLutSize = 0;
  int m_tileLutMask = 0;
  CompressedTile** m_posLookup = nullptr; ///< [Size: m_tileLutSize] hash bucket heads
  CompressedTile* m_nextFreeTile = nullptr;
  CompressedTile* m_tiles = nullptr;      ///< [Size: maxTiles]
  uint32_t m_saltBits = 0;
  uint32_t m_tileBits = 0;

  TileCacheObstacle* m_obstacles = nullptr; ///< [Size: maxObstacles]
  TileCacheObstacle* m_nextFreeObstacle = nullptr;
  // Obstacle slots by state, one bit per slot [Size: m_obstacleWords], so that update() and the
  // rebuild visit only the obstacles concerned, in slot order, instead of every slot.
  uint64_t* m_busy = nullptr; ///< PROCESSING or REMOVING
  uint64_t* m_live = nullptr; ///< PROCESSING or PROCESSED (carved into the tiles they touch)
  int m_obstacleWords = 0;

  ObstacleRequest m_reqs[MAX_REQUESTS];
  int m_nreqs = 0;
  CompressedTileRef m_update[MAX_UPDATE];
  int m_nupdate = 0;

  TileCacheArena m_arena;

  /// A layer's tile as built with no obstacle (see setKeepPristineTiles), per tile slot.
  struct Pristine {
    uint8_t* data;  ///< new[] copy of the blob before NavMesh::addTile linked it (null: none)
    int size;
    uint32_t salt;  ///< the layer slot's salt when kept (0: nothing kept)
    bool empty;     ///< the layer had no polygon (the location stays empty)
  };
  Pristine* m_pristine = nullptr; ///< [Size: maxTiles]
  bool m_keepPristine = false;
  void dropPristine(int slot);
};

} // namespace tilecache
} // namespace nav
