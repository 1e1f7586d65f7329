// TileCache.cpp: see TileCache.h. Float expressions (tile lookup, bounds) are written in the order
// Detour's evaluates them, so the same inputs pick the same tiles.
#include "nav/tilecache/TileCache.h"

#include "nav/NavAreas.h"
#include "nav/NavMesh.h"
#include "nav/base/BitMath.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>

namespace nav {
namespace tilecache {

namespace {

bool contains(const CompressedTileRef* a, int n, CompressedTileRef v) {
  for (int i = 0; i < n; ++i)
    if (a[i] == v) return true;
  return false;
}

void setBit(uint64_t* bits, int i) { bits[i >> 6] |= uint64_t(1) << (i & 63); }
void clearBit(uint64_t* bits, int i) { bits[i >> 6] &= ~(uint64_t(1) << (i & 63)); }

/// Calls f(i) for every set bit i in increasing order (f may clear bits).
template <class F>
void forEachBit(const uint64_t* bits, int words, F&& f) {
  for (int w = 0; w < words; ++w) {
    uint64_t b = bits[w];
    while (b) {
      const int i = (w << 6) + __builtin_ctzll(b);
      b &= b - 1;
      f(i);
    }
  }
}

bool finite3(const float* v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

/// Boxes overlap, touching boundaries included (Detour's dtOverlapBounds).
bool overlapBounds(const float* amin, const float* amax, const float* bmin, const float* bmax) {
  bool overlap = true;
  overlap = (amin[0] > bmax[0] || amax[0] < bmin[0]) ? false : overlap;
  overlap = (amin[1] > bmax[1] || amax[1] < bmin[1]) ? false : overlap;
  overlap = (amin[2] > bmax[2] || amax[2] < bmin[2]) ? false : overlap;
  return overlap;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// DefaultMeshProcess
// ---------------------------------------------------------------------------------------------

DefaultMeshProcess::DefaultMeshProcess() : m_walkableArea(nav::AREA_GROUND) {
  for (int a = 0; a < 64; ++a) m_areaFlags[a] = nav::flagsForArea(uint8_t(a));
}

bool DefaultMeshProcess::setAreaFlags(uint8_t walkableArea, const uint16_t* areaFlags) {
  if (!areaFlags || walkableArea >= TILECACHE_WALKABLE_AREA) return false;
  m_walkableArea = walkableArea;
  for (int a = 0; a < 64; ++a) m_areaFlags[a] = areaFlags[a];
  return true;
}

void DefaultMeshProcess::process(TileBuildParams* params, uint8_t* polyAreas, uint16_t* polyFlags) {
  for (int i = 0; i < params->polyCount; ++i) {
    if (polyAreas[i] == TILECACHE_WALKABLE_AREA) polyAreas[i] = m_walkableArea;
    polyFlags[i] = m_areaFlags[polyAreas[i] & 63];
  }
  if (m_offMeshCount > 0) {
    params->offMeshConVerts = m_offMeshVerts;
    params->offMeshConRad = m_offMeshRadii;
    params->offMeshConFlags = m_offMeshFlags;
    params->offMeshConAreas = m_offMeshAreas;
    params->offMeshConDir = m_offMeshDirs;
    params->offMeshConUserID = m_offMeshUserIds;
    params->offMeshConCount = m_offMeshCount;
  }
}

void DefaultMeshProcess::setOffMeshConnections(const float* verts, const float* radii, const uint16_t* flags,
                                               const uint8_t* areas, const uint8_t* dirs, const uint32_t* userIds,
                                               int count) {
  const bool use = verts && radii && flags && areas && dirs && count > 0;
  m_offMeshVerts = use ? verts : nullptr;
  m_offMeshRadii = use ? radii : nullptr;
  m_offMeshFlags = use ? flags : nullptr;
  m_offMeshAreas = use ? areas : nullptr;
  m_offMeshDirs = use ? dirs : nullptr;
  m_offMeshUserIds = use ? userIds : nullptr;
  m_offMeshCount = use ? count : 0;
}

// ---------------------------------------------------------------------------------------------
// TileCache: slots and refs
// ---------------------------------------------------------------------------------------------

TileCache::TileCache() {
  std::memset(static_cast<void*>(m_reqs), 0, sizeof(m_reqs));
  std::memset(m_update, 0, sizeof(m_update));
}

TileCache::~TileCache() { release(); }

void TileCache::release() {
  clearPristineTiles();
  delete[] m_pristine;
  m_pristine = nullptr;
  m_keepPristine = false;
  if (m_tiles) {
    for (int i = 0; i < m_params.maxTiles; ++i)
      if (m_tiles[i].flags & COMPRESSEDTILE_FREE_DATA) delete[] m_tiles[i].data;
  }
  delete[] m_tiles;
  delete[] m_posLookup;
  delete[] m_obstacles;
  delete[] m_busy;
  delete[] m_live;
  m_busy = m_live = nullptr;
  m_obstacleWords = 0;
  m_tiles = nullptr;
  m_posLookup = nullptr;
  m_obstacles = nullptr;
  m_nextFreeTile = nullptr;
  m_nextFreeObstacle = nullptr;
  m_tileLutSize = m_tileLutMask = 0;
  m_saltBits = m_tileBits = 0;
  m_nreqs = m_nupdate = 0;
  m_params = TileCacheParams{};
  m_compressor = nullptr;
  m_meshProcess = nullptr;
}

Status TileCache::init(const TileCacheParams& params, TileCacheCompressor* compressor,
                       TileCacheMeshProcess* meshProcess) {
  release();
  const TileCacheParams& p = params;
  if (!compressor || !finite3(p.orig) || !std::isfinite(p.cs) || !(p.cs > 0) || !std::isfinite(p.ch) ||
      !(p.ch > 0) || p.width <= 0 || p.height <= 0 || !std::isfinite(p.walkableHeight) || p.walkableHeight < 0 ||
      !std::isfinite(p.walkableRadius) || p.walkableRadius < 0 || !std::isfinite(p.walkableClimb) ||
      p.walkableClimb < 0 || !std::isfinite(p.maxSimplificationError) || p.maxSimplificationError < 0 ||
      p.maxObstacles < 0 || p.maxObstacles > 0x10000 || p.maxTiles <= 0 || p.maxTiles > (1 << 22))
    return FAILURE | INVALID_PARAM;
  // Detour's split: as many tile bits as maxTiles needs, the rest salt (at most 31, at least 10).
  const uint32_t tileBits = base::ilog2(base::nextPow2(uint32_t(p.maxTiles)));
  const uint32_t saltBits = 32 - tileBits < 31 ? 32 - tileBits : 31;
  if (saltBits < 10) return FAILURE | INVALID_PARAM;

  int lutSize = int(base::nextPow2(uint32_t(p.maxTiles / 4)));
  if (!lutSize) lutSize = 1;
  m_obstacles = new (std::nothrow) TileCacheObstacle[size_t(p.maxObstacles) + 1];
  m_tiles = new (std::nothrow) CompressedTile[size_t(p.maxTiles)];
  m_posLookup = new (std::nothrow) CompressedTile*[size_t(lutSize)];
  const int words = (p.maxObstacles + 63) / 64 + 1;
  m_busy = new (std::nothrow) uint64_t[size_t(words)]();
  m_live = new (std::nothrow) uint64_t[size_t(words)]();
  m_pristine = new (std::nothrow) Pristine[size_t(p.maxTiles)]();
  if (!m_obstacles || !m_tiles || !m_posLookup || !m_busy || !m_live || !m_pristine) {
    release();
    return FAILURE | OUT_OF_MEMORY;
  }
  m_obstacleWords = words;
  m_params = p;
  m_compressor = compressor;
  m_meshProcess = meshProcess;

  std::memset(static_cast<void*>(m_obstacles), 0, sizeof(TileCacheObstacle) * (size_t(p.maxObstacles) + 1));
  m_nextFreeObstacle = nullptr;
  for (int i = p.maxObstacles - 1; i >= 0; --i) {
    m_obstacles[i].salt = 1;
    m_obstacles[i].next = m_nextFreeObstacle;
    m_nextFreeObstacle = &m_obstacles[i];
  }

  m_tileLutSize = lutSize;
  m_tileLutMask = lutSize - 1;
  std::memset(static_cast<void*>(m_tiles), 0, sizeof(CompressedTile) * size_t(p.maxTiles));
  std::memset(m_posLookup, 0, sizeof(CompressedTile*) * size_t(lutSize));
  m_nextFreeTile = nullptr;
  for (int i = p.maxTiles - 1; i >= 0; --i) {
    m_tiles[i].salt = 1;
    m_tiles[i].next = m_nextFreeTile;
    m_nextFreeTile = &m_tiles[i];
  }
  m_tileBits = tileBits;
  m_saltBits = saltBits;
  m_nreqs = 0;
  m_nupdate = 0;
  return SUCCESS;
}

const TileCacheObstacle* TileCache::getObstacleByRef(ObstacleRef ref) const {
  if (!ref || !m_obstacles) return nullptr;
  const uint32_t idx = decodeObstacleIdObstacle(ref);
  if (idx >= uint32_t(m_params.maxObstacles)) return nullptr;
  const TileCacheObstacle* ob = &m_obstacles[idx];
  if (ob->salt != decodeObstacleIdSalt(ref)) return nullptr;
  return ob;
}

ObstacleRef TileCache::getObstacleRef(const TileCacheObstacle* ob) const {
  if (!ob || !m_obstacles || ob < m_obstacles || ob >= m_obstacles + m_params.maxObstacles) return 0;
  return encodeObstacleId(ob->salt, uint32_t(ob - m_obstacles));
}

int TileCache::getTilesAt(int tx, int ty, CompressedTileRef* tiles, int maxTiles) const {
  if (!m_posLookup || !tiles) return 0;
  int n = 0;
  for (const CompressedTile* tile = m_posLookup[computeTileHash(tx, ty, m_tileLutMask)]; tile; tile = tile->next) {
    if (tile->header && tile->header->tx == tx && tile->header->ty == ty && n < maxTiles) tiles[n++] = getTileRef(tile);
  }
  return n;
}

CompressedTile* TileCache::getTileAtMutable(int tx, int ty, int tlayer) {
  if (!m_posLookup) return nullptr;
  for (CompressedTile* tile = m_posLookup[computeTileHash(tx, ty, m_tileLutMask)]; tile; tile = tile->next) {
    if (tile->header && tile->header->tx == tx && tile->header->ty == ty && tile->header->tlayer == tlayer)
      return tile;
  }
  return nullptr;
}

const CompressedTile* TileCache::getTileAt(int tx, int ty, int tlayer) const {
  return const_cast<TileCache*>(this)->getTileAtMutable(tx, ty, tlayer);
}

CompressedTileRef TileCache::getTileRef(const CompressedTile* tile) const {
  if (!tile || !m_tiles || tile < m_tiles || tile >= m_tiles + m_params.maxTiles) return 0;
  return encodeTileId(tile->salt, uint32_t(tile - m_tiles));
}

const CompressedTile* TileCache::getTileByRef(CompressedTileRef ref) const {
  if (!ref || !m_tiles) return nullptr;
  const uint32_t idx = decodeTileIdTile(ref);
  if (idx >= uint32_t(m_params.maxTiles)) return nullptr;
  const CompressedTile* tile = &m_tiles[idx];
  if (tile->salt != decodeTileIdSalt(ref)) return nullptr;
  return tile;
}

Status TileCache::addTile(uint8_t* data, int dataSize, uint8_t flags, CompressedTileRef* result) {
  if (!m_tiles) return FAILURE;
  if (!data || dataSize < TILECACHE_LAYER_HEADER_SIZE) return FAILURE | INVALID_PARAM;
  const Status hs = readTileCacheLayerHeader(data, dataSize, nullptr);
  if (statusFailed(hs)) return hs;
  // The slot keeps a header pointer into the blob: it must be aligned for TileCacheLayerHeader.
  if (reinterpret_cast<uintptr_t>(data) % alignof(TileCacheLayerHeader) != 0) return FAILURE | INVALID_PARAM;
  TileCacheLayerHeader* header = reinterpret_cast<TileCacheLayerHeader*>(data);
  if (getTileAt(header->tx, header->ty, header->tlayer)) return FAILURE;

  CompressedTile* tile = m_nextFreeTile;
  if (!tile) return FAILURE | OUT_OF_MEMORY;
  m_nextFreeTile = tile->next;
  tile->next = nullptr;

  const int h = computeTileHash(header->tx, header->ty, m_tileLutMask);
  tile->next = m_posLookup[h];
  m_posLookup[h] = tile;

  tile->header = header;
  tile->data = data;
  tile->dataSize = dataSize;
  tile->compressed = data + TILECACHE_LAYER_HEADER_SIZE;
  tile->compressedSize = dataSize - TILECACHE_LAYER_HEADER_SIZE;
  tile->flags = flags;
  if (result) *result = getTileRef(tile);
  return SUCCESS;
}

Status TileCache::removeTile(CompressedTileRef ref, uint8_t** data, int* dataSize) {
  if (!ref || !m_tiles) return FAILURE | INVALID_PARAM;
  const uint32_t idx = decodeTileIdTile(ref);
  if (idx >= uint32_t(m_params.maxTiles)) return FAILURE | INVALID_PARAM;
  CompressedTile* tile = &m_tiles[idx];
  if (tile->salt != decodeTileIdSalt(ref) || !tile->header) return FAILURE | INVALID_PARAM;

  const int h = computeTileHash(tile->header->tx, tile->header->ty, m_tileLutMask);
  CompressedTile* prev = nullptr;
  for (CompressedTile* cur = m_posLookup[h]; cur; prev = cur, cur = cur->next) {
    if (cur == tile) {
      if (prev) prev->next = cur->next;
      else m_posLookup[h] = cur->next;
      break;
    }
  }

  if (tile->flags & COMPRESSEDTILE_FREE_DATA) {
    delete[] tile->data;
    if (data) *data = nullptr;
    if (dataSize) *dataSize = 0;
  } else {
    if (data) *data = tile->data;
    if (dataSize) *dataSize = tile->dataSize;
  }
  dropPristine(int(idx));
  tile->header = nullptr;
  tile->data = nullptr;
  tile->dataSize = 0;
  tile->compressed = nullptr;
  tile->compressedSize = 0;
  tile->flags = 0;
  // A new salt so stale refs are refused; never 0.
  tile->salt = (tile->salt + 1) & ((1u << m_saltBits) - 1);
  if (tile->salt == 0) tile->salt++;
  tile->next = m_nextFreeTile;
  m_nextFreeTile = tile;
  return SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Obstacles and requests
// ---------------------------------------------------------------------------------------------

TileCacheObstacle* TileCache::newObstacle(uint8_t type) {
  TileCacheObstacle* ob = m_nextFreeObstacle;
  if (!ob) return nullptr;
  m_nextFreeObstacle = ob->next;
  const uint16_t salt = ob->salt;
  std::memset(static_cast<void*>(ob), 0, sizeof(TileCacheObstacle));
  ob->salt = salt;
  ob->state = OBSTACLE_PROCESSING;
  ob->type = type;
  const int idx = int(ob - m_obstacles);
  setBit(m_busy, idx);
  setBit(m_live, idx);
  return ob;
}

ObstacleRef TileCache::queueAdd(TileCacheObstacle* ob) {
  ObstacleRequest& req = m_reqs[m_nreqs++];
  req.action = REQUEST_ADD;
  req.ref = getObstacleRef(ob);
  return req.ref;
}

Status TileCache::addObstacle(const float* pos, float radius, float height, ObstacleRef* result) {
  if (!m_obstacles) return FAILURE;
  if (!pos || !finite3(pos) || !std::isfinite(radius) || !std::isfinite(height) || radius < 0 || height < 0)
    return FAILURE | INVALID_PARAM;
  if (m_nreqs >= MAX_REQUESTS) return FAILURE | BUFFER_TOO_SMALL;
  TileCacheObstacle* ob = newObstacle(OBSTACLE_CYLINDER);
  if (!ob) return FAILURE | OUT_OF_MEMORY;
  std::memcpy(ob->cylinder.pos, pos, sizeof(float) * 3);
  ob->cylinder.radius = radius;
  ob->cylinder.height = height;
  const ObstacleRef ref = queueAdd(ob);
  if (result) *result = ref;
  return SUCCESS;
}

Status TileCache::addBoxObstacle(const float* bmin, const float* bmax, ObstacleRef* result) {
  if (!m_obstacles) return FAILURE;
  if (!bmin || !bmax || !finite3(bmin) || !finite3(bmax) || bmin[0] > bmax[0] || bmin[1] > bmax[1] ||
      bmin[2] > bmax[2])
    return FAILURE | INVALID_PARAM;
  if (m_nreqs >= MAX_REQUESTS) return FAILURE | BUFFER_TOO_SMALL;
  TileCacheObstacle* ob = newObstacle(OBSTACLE_BOX);
  if (!ob) return FAILURE | OUT_OF_MEMORY;
  std::memcpy(ob->box.bmin, bmin, sizeof(float) * 3);
  std::memcpy(ob->box.bmax, bmax, sizeof(float) * 3);
  const ObstacleRef ref = queueAdd(ob);
  if (result) *result = ref;
  return SUCCESS;
}

Status TileCache::addBoxObstacle(const float* center, const float* halfExtents, float yRadians, ObstacleRef* result) {
  if (!m_obstacles) return FAILURE;
  if (!center || !halfExtents || !finite3(center) || !finite3(halfExtents) || !std::isfinite(yRadians) ||
      halfExtents[0] < 0 || halfExtents[1] < 0 || halfExtents[2] < 0)
    return FAILURE | INVALID_PARAM;
  if (m_nreqs >= MAX_REQUESTS) return FAILURE | BUFFER_TOO_SMALL;
  TileCacheObstacle* ob = newObstacle(OBSTACLE_ORIENTED_BOX);
  if (!ob) return FAILURE | OUT_OF_MEMORY;
  std::memcpy(ob->orientedBox.center, center, sizeof(float) * 3);
  std::memcpy(ob->orientedBox.halfExtents, halfExtents, sizeof(float) * 3);
  // The half-angle terms markBoxArea's rotation uses (computed as Detour does: float cos/sin).
  const float coshalf = std::cos(0.5f * yRadians);
  const float sinhalf = std::sin(-0.5f * yRadians);
  ob->orientedBox.rotAux[0] = coshalf * sinhalf;
  ob->orientedBox.rotAux[1] = coshalf * coshalf - 0.5f;
  const ObstacleRef ref = queueAdd(ob);
  if (result) *result = ref;
  return SUCCESS;
}

Status TileCache::removeObstacle(ObstacleRef ref) {
  if (!ref) return SUCCESS;
  if (!m_obstacles) return FAILURE;
  const TileCacheObstacle* ob = getObstacleByRef(ref);
  if (!ob || ob->state == OBSTACLE_EMPTY) return FAILURE | INVALID_PARAM;
  if (m_nreqs >= MAX_REQUESTS) return FAILURE | BUFFER_TOO_SMALL;
  ObstacleRequest& req = m_reqs[m_nreqs++];
  req.action = REQUEST_REMOVE;
  req.ref = ref;
  return SUCCESS;
}

Status TileCache::queryTiles(const float* bmin, const float* bmax, CompressedTileRef* results, int* resultCount,
                             int maxResults) const {
  if (!bmin || !bmax || !results || !resultCount || maxResults < 0 || !finite3(bmin) || !finite3(bmax))
    return FAILURE | INVALID_PARAM;
  *resultCount = 0;
  if (!m_tiles) return FAILURE;
  const float tw = float(m_params.width) * m_params.cs;
  const float th = float(m_params.height) * m_params.cs;
  const float fx0 = std::floor((bmin[0] - m_params.orig[0]) / tw);
  const float fx1 = std::floor((bmax[0] - m_params.orig[0]) / tw);
  const float fy0 = std::floor((bmin[2] - m_params.orig[2]) / th);
  const float fy1 = std::floor((bmax[2] - m_params.orig[2]) / th);
  // Tile coordinates far outside int range hold no layers (and would overflow the loops).
  constexpr float LIMIT = 1 << 30;
  if (fx1 < -LIMIT || fx0 > LIMIT || fy1 < -LIMIT || fy0 > LIMIT) return SUCCESS;
  const int tx0 = int(fx0 < -LIMIT ? -LIMIT : fx0), tx1 = int(fx1 > LIMIT ? LIMIT : fx1);
  const int ty0 = int(fy0 < -LIMIT ? -LIMIT : fy0), ty1 = int(fy1 > LIMIT ? LIMIT : fy1);

  int n = 0;
  // The layers at one location, most recently added first (Detour's getTilesAt, 32 at most).
  auto visitLocation = [&](int tx, int ty) {
    constexpr int MAX_AT = 32;
    int at = 0;
    for (const CompressedTile* tile = m_posLookup[computeTileHash(tx, ty, m_tileLutMask)]; tile; tile = tile->next) {
      if (!tile->header || tile->header->tx != tx || tile->header->ty != ty) continue;
      if (at++ >= MAX_AT) break;
      float tbmin[3], tbmax[3];
      calcTightTileBounds(tile->header, tbmin, tbmax);
      if (overlapBounds(bmin, bmax, tbmin, tbmax) && n < maxResults) results[n++] = getTileRef(tile);
    }
  };
  const int64_t cells = (int64_t(tx1) - tx0 + 1) * (int64_t(ty1) - ty0 + 1);
  if (cells <= int64_t(m_params.maxTiles) * 4) {
    for (int ty = ty0; ty <= ty1; ++ty)
      for (int tx = tx0; tx <= tx1; ++tx) visitLocation(tx, ty);
  } else {
    // A box far larger than the tiles present: visit only occupied locations, in the same row
    // order, each found by a scan of the slots (rare: obstacles are small).
    bool started = false;
    int curTx = 0, curTy = 0; // the last location visited
    while (n < maxResults) {
      bool found = false;
      int bestTx = 0, bestTy = 0;
      for (int i = 0; i < m_params.maxTiles; ++i) {
        const TileCacheLayerHeader* h = m_tiles[i].header;
        if (!h || h->tx < tx0 || h->tx > tx1 || h->ty < ty0 || h->ty > ty1) continue;
        if (started && (h->ty < curTy || (h->ty == curTy && h->tx <= curTx))) continue;
        if (!found || h->ty < bestTy || (h->ty == bestTy && h->tx < bestTx)) {
          bestTx = h->tx;
          bestTy = h->ty;
          found = true;
        }
      }
      if (!found) break;
      visitLocation(bestTx, bestTy);
      curTx = bestTx;
      curTy = bestTy;
      started = true;
    }
  }
  *resultCount = n;
  return SUCCESS;
}

void TileCache::calcTightTileBounds(const TileCacheLayerHeader* header, float* bmin, float* bmax) const {
  const float cs = m_params.cs;
  bmin[0] = header->bmin[0] + float(header->minx) * cs;
  bmin[1] = header->bmin[1];
  bmin[2] = header->bmin[2] + float(header->miny) * cs;
  bmax[0] = header->bmin[0] + float(header->maxx + 1) * cs;
  bmax[1] = header->bmax[1];
  bmax[2] = header->bmin[2] + float(header->maxy + 1) * cs;
}

void TileCache::getObstacleBounds(const TileCacheObstacle* ob, float* bmin, float* bmax) const {
  if (ob->type == OBSTACLE_CYLINDER) {
    const ObstacleCylinder& c = ob->cylinder;
    bmin[0] = c.pos[0] - c.radius;
    bmin[1] = c.pos[1];
    bmin[2] = c.pos[2] - c.radius;
    bmax[0] = c.pos[0] + c.radius;
    bmax[1] = c.pos[1] + c.height;
    bmax[2] = c.pos[2] + c.radius;
  } else if (ob->type == OBSTACLE_BOX) {
    std::memcpy(bmin, ob->box.bmin, sizeof(float) * 3);
    std::memcpy(bmax, ob->box.bmax, sizeof(float) * 3);
  } else if (ob->type == OBSTACLE_ORIENTED_BOX) {
    const ObstacleOrientedBox& b = ob->orientedBox;
    // Covers the box at any yaw: 1.41 ~ sqrt(2) times the larger half extent.
    const float maxr = 1.41f * (b.halfExtents[0] > b.halfExtents[2] ? b.halfExtents[0] : b.halfExtents[2]);
    bmin[0] = b.center[0] - maxr;
    bmax[0] = b.center[0] + maxr;
    bmin[1] = b.center[1] - b.halfExtents[1];
    bmax[1] = b.center[1] + b.halfExtents[1];
    bmin[2] = b.center[2] - maxr;
    bmax[2] = b.center[2] + maxr;
  }
}

// ---------------------------------------------------------------------------------------------
// Update and rebuild
// ---------------------------------------------------------------------------------------------

void TileCache::queueTouched(TileCacheObstacle* ob) {
  ob->npending = 0;
  for (int j = 0; j < ob->ntouched; ++j) {
    if (m_nupdate < MAX_UPDATE) {
      if (!contains(m_update, m_nupdate, ob->touched[j])) m_update[m_nupdate++] = ob->touched[j];
      ob->pending[ob->npending++] = ob->touched[j];
    }
  }
}

Status TileCache::update(float /*dt*/, NavMesh* navmesh, bool* upToDate) {
  if (!m_tiles) return FAILURE;
  if (!navmesh) return FAILURE | INVALID_PARAM;
  if (m_nupdate == 0) {
    for (int i = 0; i < m_nreqs; ++i) {
      const ObstacleRequest& req = m_reqs[i];
      const uint32_t idx = decodeObstacleIdObstacle(req.ref);
      if (idx >= uint32_t(m_params.maxObstacles)) continue;
      TileCacheObstacle* ob = &m_obstacles[idx];
      if (ob->salt != decodeObstacleIdSalt(req.ref)) continue;

      if (req.action == REQUEST_ADD) {
        float bmin[3], bmax[3];
        getObstacleBounds(ob, bmin, bmax);
        int ntouched = 0;
        queryTiles(bmin, bmax, ob->touched, &ntouched, MAX_TOUCHED_TILES);
        ob->ntouched = uint8_t(ntouched);
        queueTouched(ob);
      } else {
        ob->state = OBSTACLE_REMOVING;
        setBit(m_busy, int(idx));
        clearBit(m_live, int(idx));
        queueTouched(ob);
      }
    }
    m_nreqs = 0;
  }

  Status status = SUCCESS;
  if (m_nupdate) {
    const CompressedTileRef ref = m_update[0];
    status = buildNavMeshTile(ref, navmesh);
    m_nupdate--;
    if (m_nupdate > 0) std::memmove(m_update, m_update + 1, size_t(m_nupdate) * sizeof(CompressedTileRef));

    // The obstacles waiting for tiles, in slot order (the order frees push slots on the list).
    forEachBit(m_busy, m_obstacleWords, [&](int i) {
      TileCacheObstacle* ob = &m_obstacles[i];
      for (int j = 0; j < int(ob->npending); ++j) {
        if (ob->pending[j] == ref) {
          ob->pending[j] = ob->pending[int(ob->npending) - 1];
          ob->npending--;
          break;
        }
      }
      if (ob->npending != 0) return;
      clearBit(m_busy, i);
      if (ob->state == OBSTACLE_PROCESSING) {
        ob->state = OBSTACLE_PROCESSED;
      } else {
        ob->state = OBSTACLE_EMPTY;
        // A new salt so the old ref is refused from now on; never 0.
        ob->salt = uint16_t(ob->salt + 1);
        if (ob->salt == 0) ob->salt++;
        ob->next = m_nextFreeObstacle;
        m_nextFreeObstacle = ob;
      }
    });
  }
  if (upToDate) *upToDate = m_nupdate == 0 && m_nreqs == 0;
  return status;
}

void TileCache::dropPristine(int slot) {
  if (!m_pristine) return;
  Pristine& p = m_pristine[slot];
  delete[] p.data;
  p = Pristine{nullptr, 0, 0, false};
}

void TileCache::setKeepPristineTiles(bool keep) {
  if (!keep) clearPristineTiles();
  m_keepPristine = keep && m_pristine;
}

void TileCache::clearPristineTiles() {
  if (!m_pristine) return;
  for (int i = 0; i < m_params.maxTiles; ++i) dropPristine(i);
}

int TileCache::pristineTileCount() const {
  int n = 0;
  if (m_pristine)
    for (int i = 0; i < m_params.maxTiles; ++i) n += m_pristine[i].salt != 0 ? 1 : 0;
  return n;
}

Status TileCache::buildNavMeshTilesAt(int tx, int ty, NavMesh* navmesh) {
  if (!m_tiles) return FAILURE;
  if (!navmesh) return FAILURE | INVALID_PARAM;
  constexpr int MAX_AT = 32;
  CompressedTileRef tiles[MAX_AT];
  const int n = getTilesAt(tx, ty, tiles, MAX_AT);
  for (int i = 0; i < n; ++i) {
    const Status s = buildNavMeshTile(tiles[i], navmesh);
    if (statusFailed(s)) return s;
  }
  return SUCCESS;
}

Status TileCache::buildNavMeshTile(CompressedTileRef ref, NavMesh* navmesh) {
  if (!m_tiles) return FAILURE;
  if (!navmesh) return FAILURE | INVALID_PARAM;
  const CompressedTile* tile = getTileByRef(ref);
  if (!tile || !tile->header) return FAILURE | INVALID_PARAM;
  const TileCacheLayerHeader* th = tile->header;

  const int slot = int(decodeTileIdTile(ref));
  // Only the kept copies need to know up front whether an obstacle touches the tile.
  bool obstructed = false;
  if (m_keepPristine) {
    forEachBit(m_live, m_obstacleWords, [&](int i) {
      obstructed = obstructed || contains(m_obstacles[i].touched, m_obstacles[i].ntouched, ref);
    });
  }
  if (m_keepPristine && !obstructed && m_pristine[slot].salt == tile->salt) {
    // No obstacle here and the obstacle-free tile is known: the same bytes without the stages.
    const Pristine& pr = m_pristine[slot];
    const TileRef old = navmesh->getTileRefAt(th->tx, th->ty, th->tlayer);
    if (pr.empty) {
      navmesh->removeTile(old, nullptr, nullptr);
      return SUCCESS;
    }
    uint8_t* navData = new (std::nothrow) uint8_t[size_t(pr.size)];
    if (!navData) return FAILURE | OUT_OF_MEMORY;
    std::memcpy(navData, pr.data, size_t(pr.size));
    navmesh->removeTile(old, nullptr, nullptr);
    const Status s = navmesh->addTile(navData, pr.size, TILE_FREE_DATA, 0, nullptr);
    if (statusFailed(s)) delete[] navData;
    return statusFailed(s) ? s : SUCCESS;
  }
  const bool keep = m_keepPristine && !obstructed;

  m_arena.reset();
  const int walkableClimbVx = int(m_params.walkableClimb / m_params.ch);

  TileCacheLayer* layer = nullptr;
  Status status = decompressTileCacheLayer(&m_arena, m_compressor, tile->data, tile->dataSize, &layer);
  if (statusFailed(status)) return status;

  // Every obstacle in place or being added that touches this tile (marking order does not matter:
  // all carve to area 0).
  forEachBit(m_live, m_obstacleWords, [&](int i) {
    const TileCacheObstacle* ob = &m_obstacles[i];
    if (!contains(ob->touched, ob->ntouched, ref)) return;
    if (ob->type == OBSTACLE_CYLINDER) {
      markCylinderArea(*layer, th->bmin, m_params.cs, m_params.ch, ob->cylinder.pos, ob->cylinder.radius,
                       ob->cylinder.height, 0);
    } else if (ob->type == OBSTACLE_BOX) {
      markBoxArea(*layer, th->bmin, m_params.cs, m_params.ch, ob->box.bmin, ob->box.bmax, 0);
    } else if (ob->type == OBSTACLE_ORIENTED_BOX) {
      markBoxArea(*layer, th->bmin, m_params.cs, m_params.ch, ob->orientedBox.center, ob->orientedBox.halfExtents,
                  ob->orientedBox.rotAux, 0);
    }
  });

  status = buildTileCacheRegions(&m_arena, *layer, walkableClimbVx);
  if (statusFailed(status)) return status;
  TileCacheContourSet* lcset = allocTileCacheContourSet(&m_arena);
  if (!lcset) return FAILURE | OUT_OF_MEMORY;
  status = buildTileCacheContours(&m_arena, *layer, walkableClimbVx, m_params.maxSimplificationError, *lcset);
  if (statusFailed(status)) return status;
  TileCachePolyMesh* lmesh = allocTileCachePolyMesh(&m_arena);
  if (!lmesh) return FAILURE | OUT_OF_MEMORY;
  status = buildTileCachePolyMesh(&m_arena, *lcset, *lmesh);
  if (statusFailed(status)) return status;

  if (!lmesh->npolys) {
    if (keep) {
      dropPristine(slot);
      m_pristine[slot].salt = tile->salt;
      m_pristine[slot].empty = true;
    }
    // Nothing walkable left: the location stays empty.
    navmesh->removeTile(navmesh->getTileRefAt(th->tx, th->ty, th->tlayer), nullptr, nullptr);
    return SUCCESS;
  }

  TileBuildParams params;
  params.verts = lmesh->verts;
  params.vertCount = lmesh->nverts;
  params.polys = lmesh->polys;
  params.polyAreas = lmesh->areas;
  params.polyFlags = lmesh->flags;
  params.polyCount = lmesh->npolys;
  params.nvp = VERTS_PER_POLYGON;
  params.walkableHeight = m_params.walkableHeight;
  params.walkableRadius = m_params.walkableRadius;
  params.walkableClimb = m_params.walkableClimb;
  params.tileX = th->tx;
  params.tileY = th->ty;
  params.tileLayer = th->tlayer;
  params.cs = m_params.cs;
  params.ch = m_params.ch;
  params.buildBvTree = false;
  std::memcpy(params.bmin, th->bmin, sizeof(float) * 3);
  std::memcpy(params.bmax, th->bmax, sizeof(float) * 3);
  if (m_meshProcess) m_meshProcess->process(&params, lmesh->areas, lmesh->flags);

  uint8_t* navData = nullptr;
  int navDataSize = 0;
  if (!buildTileData(params, &navData, &navDataSize)) return FAILURE;
  if (keep) {
    // Copied before addTile writes the links into the blob.
    dropPristine(slot);
    uint8_t* copy = new (std::nothrow) uint8_t[size_t(navDataSize)];
    if (copy) {
      std::memcpy(copy, navData, size_t(navDataSize));
      m_pristine[slot] = Pristine{copy, navDataSize, tile->salt, false};
    }
  }

  navmesh->removeTile(navmesh->getTileRefAt(th->tx, th->ty, th->tlayer), nullptr, nullptr);
  status = navmesh->addTile(navData, navDataSize, TILE_FREE_DATA, 0, nullptr);
  if (statusFailed(status)) {
    delete[] navData;
    return status;
  }
  return SUCCESS;
}

} // namespace tilecache
} // namespace nav
