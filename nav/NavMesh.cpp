// NavMesh.cpp: tiles, refs, validation of tile blobs, linking, and the per-tile geometry helpers.
//
// Sections: [init] [tile slots and lookup] [validation] [addTile/removeTile] [linking]
//           [refs and accessors] [geometry helpers]
#include "nav/NavMesh.h"

#include "nav/NavMath.h"
#include "nav/base/BitMath.h"

#include <atomic>
#include <cfloat>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <new>

namespace nav {

TileLayout tileLayout(const MeshHeader& h) {
  auto a4 = [](int64_t x) { return (x + 3) & ~int64_t(3); };
  TileLayout l{};
  l.header = 0;
  l.verts = a4(int64_t(sizeof(MeshHeader)));
  l.polys = l.verts + a4(int64_t(sizeof(float)) * 3 * h.vertCount);
  l.links = l.polys + a4(int64_t(sizeof(Poly)) * h.polyCount);
  l.detailMeshes = l.links + a4(int64_t(sizeof(Link)) * h.maxLinkCount);
  l.detailVerts = l.detailMeshes + a4(int64_t(sizeof(PolyDetail)) * h.detailMeshCount);
  l.detailTris = l.detailVerts + a4(int64_t(sizeof(float)) * 3 * h.detailVertCount);
  l.bvTree = l.detailTris + a4(int64_t(4) * h.detailTriCount);
  l.offMeshCons = l.bvTree + a4(int64_t(sizeof(BVNode)) * h.bvNodeCount);
  l.total = l.offMeshCons + a4(int64_t(sizeof(OffMeshConnection)) * h.offMeshConCount);
  return l;
}

namespace {

// m_freePrev values besides a slot index (see NavMesh.h).
constexpr int FREE_HEAD = -1;
constexpr int SLOT_IN_USE = -2;

bool countsNonNegative(const MeshHeader& h) {
  return h.polyCount >= 0 && h.vertCount >= 0 && h.maxLinkCount >= 0 && h.detailMeshCount >= 0 &&
         h.detailVertCount >= 0 && h.detailTriCount >= 0 && h.bvNodeCount >= 0 && h.offMeshConCount >= 0;
}

TileLayout computeLayout(const MeshHeader& h) { return tileLayout(h); }

bool finite(float f) { return std::isfinite(f); }

// printf-style message into *why (if given); always returns `status` so callers can `return fail(...)`.
Status failWith(std::string* why, Status status, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
Status failWith(std::string* why, Status status, const char* fmt, ...) {
  if (why) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    *why = buf;
  }
  return status;
}

// Tile-border slab helpers: a portal edge on side 0/4 lies in a plane x = const and is described
// by (z, y) end points; on side 2/6 in a plane z = const, described by (x, y).
float getSlabCoord(const float* va, int side) {
  if (side == 0 || side == 4) return va[0];
  if (side == 2 || side == 6) return va[2];
  return 0;
}

void calcSlabEndPoints(const float* va, const float* vb, float* bmin, float* bmax, int side) {
  if (side == 0 || side == 4) {
    if (va[2] < vb[2]) {
      bmin[0] = va[2]; bmin[1] = va[1];
      bmax[0] = vb[2]; bmax[1] = vb[1];
    } else {
      bmin[0] = vb[2]; bmin[1] = vb[1];
      bmax[0] = va[2]; bmax[1] = va[1];
    }
  } else if (side == 2 || side == 6) {
    if (va[0] < vb[0]) {
      bmin[0] = va[0]; bmin[1] = va[1];
      bmax[0] = vb[0]; bmax[1] = vb[1];
    } else {
      bmin[0] = vb[0]; bmin[1] = vb[1];
      bmax[0] = va[0]; bmax[1] = va[1];
    }
  }
}

// Two portal edges (as slabs) overlap: horizontally by more than px at both ends, and vertically
// within py (the climb) at the ends of the common range, or they cross.
bool overlapSlabs(const float* amin, const float* amax, const float* bmin, const float* bmax, float px, float py) {
  const float minx = navMax(amin[0] + px, bmin[0] + px);
  const float maxx = navMin(amax[0] - px, bmax[0] - px);
  if (minx > maxx) return false;
  const float ad = (amax[1] - amin[1]) / (amax[0] - amin[0]);
  const float ak = amin[1] - ad * amin[0];
  const float bd = (bmax[1] - bmin[1]) / (bmax[0] - bmin[0]);
  const float bk = bmin[1] - bd * bmin[0];
  const float aminy = ad * minx + ak;
  const float amaxy = ad * maxx + ak;
  const float bminy = bd * minx + bk;
  const float bmaxy = bd * maxx + bk;
  const float dmin = bminy - aminy;
  const float dmax = bmaxy - amaxy;
  if (dmin * dmax < 0) return true; // the edges cross
  const float thr = sqr(py * 2);
  return dmin * dmin <= thr || dmax * dmax <= thr;
}

uint32_t allocLink(MeshTile* tile) {
  if (tile->linksFreeList == NULL_LINK) return NULL_LINK;
  const uint32_t link = tile->linksFreeList;
  tile->linksFreeList = tile->links[link].next;
  return link;
}

/// Prepends a link with bmin = bmax = 0 (internal and off-mesh links, as Detour writes them) to
/// poly's list in tile; false, and no link, when the tile's link pool is full (Detour drops the
/// link the same way).
bool prependLink(MeshTile* tile, Poly* poly, PolyRef ref, uint8_t edge, uint8_t side) {
  const uint32_t idx = allocLink(tile);
  if (idx == NULL_LINK) return false;
  Link* link = &tile->links[idx];
  link->ref = ref;
  link->edge = edge;
  link->side = side;
  link->bmin = link->bmax = 0;
  link->next = poly->firstLink;
  poly->firstLink = idx;
  return true;
}

void freeLink(MeshTile* tile, uint32_t link) {
  tile->links[link].next = tile->linksFreeList;
  tile->linksFreeList = link;
}

constexpr int MAX_NEIS = 32; // tiles at one grid location considered when linking

/// A tile's portal edges toward one side (neighbour code EXT_LINK | side), in poly then edge
/// order: the edges findConnectingPolys finds by scanning every poly, collected once per
/// connectExtLinks call instead of once per edge looking across. A tile with more such edges
/// than fit falls back to the scan.
struct SideEdges {
  static constexpr int CAP = 256;
  int poly[CAP];
  uint8_t edge[CAP];
  int n = 0;
  bool built = false;
  bool overflow = false;
};

void collectSideEdges(const MeshTile* tile, int side, SideEdges& out) {
  out.built = true;
  out.n = 0;
  const uint16_t m = uint16_t(EXT_LINK | uint16_t(side));
  for (int i = 0; i < tile->header->polyCount; ++i) {
    const Poly* poly = &tile->polys[i];
    for (int j = 0; j < poly->vertCount; ++j) {
      if (poly->neis[j] != m) continue;
      if (out.n == SideEdges::CAP) {
        out.overflow = true;
        return;
      }
      out.poly[out.n] = i;
      out.edge[out.n] = uint8_t(j);
      out.n++;
    }
  }
}

/// NavMesh::findConnectingPolys over the collected edges: the same tests in the same order, so
/// the same polys and overlap ranges.
int connectingPolysIn(const SideEdges& edges, const float* va, const float* vb, const MeshTile* tile, PolyRef base,
                      int side, PolyRef* con, float* conarea, int maxcon) {
  float amin[2] = {0, 0}, amax[2] = {0, 0};
  calcSlabEndPoints(va, vb, amin, amax, side);
  const float apos = getSlabCoord(va, side);
  float bmin[2] = {0, 0}, bmax[2] = {0, 0};
  int n = 0;
  for (int e = 0; e < edges.n; ++e) {
    const int i = edges.poly[e];
    const Poly* poly = &tile->polys[i];
    const int nv = poly->vertCount;
    const int j = edges.edge[e];
    const float* vc = &tile->verts[poly->verts[j] * 3];
    const float* vd = &tile->verts[poly->verts[(j + 1) % nv] * 3];
    const float bpos = getSlabCoord(vc, side);
    if (navAbs(apos - bpos) > 0.01f) continue;
    calcSlabEndPoints(vc, vd, bmin, bmax, side);
    if (!overlapSlabs(amin, amax, bmin, bmax, 0.01f, tile->header->walkableClimb)) continue;
    if (n < maxcon) {
      conarea[n * 2 + 0] = navMax(amin[0], bmin[0]);
      conarea[n * 2 + 1] = navMin(amax[0], bmax[0]);
      con[n] = base | PolyRef(i);
      n++;
    }
    while (e + 1 < edges.n && edges.poly[e + 1] == i) ++e; // one portal per neighbour poly
  }
  return n;
}

} // namespace

// =============================================================================================
// [init]
// =============================================================================================

NavMesh::NavMesh() = default;

NavMesh::~NavMesh() { release(); }

void NavMesh::changed() {
  static std::atomic<uint64_t> counter{0};
  m_generation = ++counter;
}

void NavMesh::release() {
  changed();
  if (m_tiles) {
    for (int i = 0; i < m_maxTiles; ++i) {
      if (m_tiles[i].header && (m_tiles[i].flags & TILE_FREE_DATA)) delete[] m_tiles[i].data;
    }
  }
  delete[] m_tiles;
  delete[] m_posLookup;
  delete[] m_freePrev;
  m_tiles = nullptr;
  m_posLookup = nullptr;
  m_nextFree = nullptr;
  m_freePrev = nullptr;
  m_maxTiles = 0;
  m_tileLutSize = 0;
  m_tileLutMask = 0;
  m_params = NavMeshParams{};
  setRefBits(0, 0, 0);
}

void NavMesh::swap(NavMesh& o) {
  navSwap(m_params, o.m_params);
  for (int k = 0; k < 3; ++k) navSwap(m_orig[k], o.m_orig[k]);
  navSwap(m_tileWidth, o.m_tileWidth);
  navSwap(m_tileHeight, o.m_tileHeight);
  navSwap(m_maxTiles, o.m_maxTiles);
  navSwap(m_tileLutSize, o.m_tileLutSize);
  navSwap(m_tileLutMask, o.m_tileLutMask);
  navSwap(m_posLookup, o.m_posLookup);
  navSwap(m_nextFree, o.m_nextFree);
  navSwap(m_freePrev, o.m_freePrev);
  navSwap(m_tiles, o.m_tiles);
  navSwap(m_saltBits, o.m_saltBits);
  navSwap(m_tileBits, o.m_tileBits);
  navSwap(m_polyBits, o.m_polyBits);
  navSwap(m_saltShift, o.m_saltShift);
  navSwap(m_saltMask, o.m_saltMask);
  navSwap(m_tileMask, o.m_tileMask);
  navSwap(m_polyMask, o.m_polyMask);
  changed();
  o.changed();
  m_attributeGeneration = m_generation; // other polygons: their flags and areas count as changed
  o.m_attributeGeneration = o.m_generation;
}

Status NavMesh::init(const NavMeshParams& params, std::string* why) {
  if (!finite(params.orig[0]) || !finite(params.orig[1]) || !finite(params.orig[2]))
    return failWith(why, FAILURE | INVALID_PARAM, "mesh params: origin is not finite");
  if (!(params.tileWidth > 0) || !(params.tileHeight > 0) || !finite(params.tileWidth) || !finite(params.tileHeight))
    return failWith(why, FAILURE | INVALID_PARAM, "mesh params: tile size %g x %g is not positive and finite",
                    double(params.tileWidth), double(params.tileHeight));
  if (params.maxTiles <= 0 || params.maxPolys <= 0)
    return failWith(why, FAILURE | INVALID_PARAM, "mesh params: maxTiles %d and maxPolys %d must be positive",
                    params.maxTiles, params.maxPolys);
  // The bit split, derived as Detour derives it (computed in signed ints: with unsigned arithmetic
  // a split wider than 32 bits would wrap around and look valid).
  const int tileBits = int(base::ilog2(base::nextPow2(uint32_t(params.maxTiles))));
  const int polyBits = int(base::ilog2(base::nextPow2(uint32_t(params.maxPolys))));
  const int saltBits = navMin(31, 32 - tileBits - polyBits);
  if (saltBits < 10)
    return failWith(why, FAILURE | INVALID_PARAM,
                    "mesh params: maxTiles %d (%d bits) and maxPolys %d (%d bits) leave %d salt bits, need >= 10",
                    params.maxTiles, tileBits, params.maxPolys, polyBits, saltBits);

  // Position hash: a bucket per tile slot (Detour has one per 4), so a lookup rarely walks past
  // other tiles' headers (each one a cache miss on a big world); at most 64 K buckets (512 KB)
  // unless Detour's own count is larger. Bucket count changes no answer: a location's tiles keep
  // their order within any bucket.
  int lutSize = int(navMax(base::nextPow2(uint32_t(navMin(params.maxTiles, 1 << 16))),
                           base::nextPow2(uint32_t(params.maxTiles / 4))));
  if (!lutSize) lutSize = 1;
  MeshTile* tiles = new (std::nothrow) MeshTile[size_t(params.maxTiles)];
  MeshTile** lookup = new (std::nothrow) MeshTile*[size_t(lutSize)];
  int* freePrev = new (std::nothrow) int[size_t(params.maxTiles)];
  if (!tiles || !lookup || !freePrev) {
    delete[] tiles;
    delete[] lookup;
    delete[] freePrev;
    return failWith(why, FAILURE | OUT_OF_MEMORY, "mesh params: cannot allocate %d tile slots", params.maxTiles);
  }
  release();
  m_params = params;
  vcopy(m_orig, params.orig);
  m_tileWidth = params.tileWidth;
  m_tileHeight = params.tileHeight;
  m_maxTiles = params.maxTiles;
  m_tileLutSize = lutSize;
  m_tileLutMask = lutSize - 1;
  m_tiles = tiles;
  m_posLookup = lookup;
  m_freePrev = freePrev;
  std::memset(static_cast<void*>(m_tiles), 0, sizeof(MeshTile) * size_t(m_maxTiles));
  std::memset(m_posLookup, 0, sizeof(MeshTile*) * size_t(m_tileLutSize));
  // Free list in slot order: a fresh mesh hands out slot 0 first (same as Detour, so refs agree).
  m_nextFree = nullptr;
  for (int i = m_maxTiles - 1; i >= 0; --i) {
    m_tiles[i].salt = 1;
    m_tiles[i].next = m_nextFree;
    m_nextFree = &m_tiles[i];
    m_freePrev[i] = i > 0 ? i - 1 : FREE_HEAD;
  }
  setRefBits(uint32_t(saltBits), uint32_t(tileBits), uint32_t(polyBits));
  return SUCCESS;
}

Status NavMesh::init(uint8_t* data, int dataSize, int flags, std::string* why) {
  if (!data || dataSize < int(sizeof(MeshHeader)))
    return failWith(why, FAILURE | INVALID_PARAM, "tile data of %d bytes is smaller than a tile header (%d bytes)",
                    dataSize, int(sizeof(MeshHeader)));
  MeshHeader header;
  std::memcpy(&header, data, sizeof header);
  if (header.magic != NAVMESH_MAGIC) return failWith(why, FAILURE | WRONG_MAGIC, "tile data: wrong magic 0x%08x", unsigned(header.magic));
  if (header.version != NAVMESH_VERSION)
    return failWith(why, FAILURE | WRONG_VERSION, "tile data: version %d, expected %d", header.version, NAVMESH_VERSION);
  NavMeshParams params{};
  vcopy(params.orig, header.bmin);
  params.tileWidth = header.bmax[0] - header.bmin[0];
  params.tileHeight = header.bmax[2] - header.bmin[2];
  params.maxTiles = 1;
  params.maxPolys = header.polyCount;
  const Status s = init(params, why);
  if (statusFailed(s)) return s;
  const Status a = addTile(data, dataSize, flags, 0, nullptr, why);
  if (statusFailed(a)) release();
  return a;
}

// =============================================================================================
// [tile slots and lookup]
// =============================================================================================

void NavMesh::calcTileLoc(const float* pos, int* tx, int* ty) const {
  // Clamped before the int conversion: a far (finite) position would overflow int (UB).
  const auto toInt = [](float v) {
    constexpr float LIMIT = 1 << 30;
    return v >= LIMIT ? (1 << 30) : v <= -LIMIT ? -(1 << 30) : v == v ? int(v) : 0;
  };
  *tx = toInt(std::floor((pos[0] - m_orig[0]) / m_tileWidth));
  *ty = toInt(std::floor((pos[2] - m_orig[2]) / m_tileHeight));
}

const MeshTile* NavMesh::getTileAt(int x, int y, int layer) const {
  if (!m_posLookup) return nullptr;
  const int h = computeTileHash(x, y, m_tileLutMask);
  for (const MeshTile* tile = m_posLookup[h]; tile; tile = tile->next) {
    if (tile->header && tile->header->x == x && tile->header->y == y && tile->header->layer == layer) return tile;
  }
  return nullptr;
}

MeshTile* NavMesh::getTileAtMutable(int x, int y, int layer) { return const_cast<MeshTile*>(getTileAt(x, y, layer)); }

// Tiles at (x, y), in hash bucket order (most recently added first, as Detour).
int NavMesh::getTilesAt(int x, int y, const MeshTile** tiles, int maxTiles) const {
  if (!m_posLookup) return 0;
  int n = 0;
  const int h = computeTileHash(x, y, m_tileLutMask);
  for (MeshTile* tile = m_posLookup[h]; tile; tile = tile->next) {
    if (tile->header && tile->header->x == x && tile->header->y == y) {
      if (n < maxTiles) tiles[n++] = tile;
    }
  }
  return n;
}

int NavMesh::getNeighbourTilesAt(int x, int y, int side, MeshTile** tiles, int maxTiles) const {
  int nx = x, ny = y;
  switch (side) {
  case 0: nx++; break;
  case 1: nx++; ny++; break;
  case 2: ny++; break;
  case 3: nx--; ny++; break;
  case 4: nx--; break;
  case 5: nx--; ny--; break;
  case 6: ny--; break;
  case 7: nx++; ny--; break;
  default: break;
  }
  return getTilesAt(nx, ny, const_cast<const MeshTile**>(tiles), maxTiles);
}

TileRef NavMesh::getTileRefAt(int x, int y, int layer) const { return getTileRef(getTileAt(x, y, layer)); }

TileRef NavMesh::getTileRef(const MeshTile* tile) const {
  if (!tile) return 0;
  const uint32_t it = uint32_t(tile - m_tiles);
  return encodePolyId(tile->salt, it, 0);
}

const MeshTile* NavMesh::getTileByRef(TileRef ref) const {
  if (!ref || !m_tiles) return nullptr;
  const uint32_t tileIndex = decodePolyIdTile(ref);
  const uint32_t tileSalt = decodePolyIdSalt(ref);
  if (int(tileIndex) >= m_maxTiles) return nullptr;
  const MeshTile* tile = &m_tiles[tileIndex];
  if (tile->salt != tileSalt || !tile->header) return nullptr;
  return tile;
}

int NavMesh::tileCount() const {
  int n = 0;
  for (int i = 0; i < m_maxTiles; ++i)
    if (m_tiles[i].header) ++n;
  return n;
}

size_t NavMesh::totalTileBytes() const {
  size_t n = 0;
  for (int i = 0; i < m_maxTiles; ++i) n += tileBytes(&m_tiles[i]);
  return n;
}

size_t NavMesh::overheadBytes() const {
  return (sizeof(MeshTile) + sizeof(int)) * size_t(m_maxTiles) + sizeof(MeshTile*) * size_t(m_tileLutSize);
}

// =============================================================================================
// [validation]
// =============================================================================================

Status NavMesh::validateTileData(const uint8_t* data, int dataSize, std::string* why) const {
  if (!data) return failWith(why, FAILURE | INVALID_PARAM, "tile data is null");
  if (dataSize < int(sizeof(MeshHeader)))
    return failWith(why, FAILURE | INVALID_PARAM, "tile data of %d bytes is smaller than a tile header (%d bytes)",
                    dataSize, int(sizeof(MeshHeader)));
  if (reinterpret_cast<uintptr_t>(data) % 4 != 0)
    return failWith(why, FAILURE | INVALID_PARAM, "tile data is not 4-byte aligned");
  const MeshHeader& h = *reinterpret_cast<const MeshHeader*>(data);
  if (h.magic != NAVMESH_MAGIC)
    return failWith(why, FAILURE | WRONG_MAGIC, "tile data: wrong magic 0x%08x, expected 0x%08x ('DNAV')",
                    unsigned(h.magic), unsigned(NAVMESH_MAGIC));
  if (h.version != NAVMESH_VERSION)
    return failWith(why, FAILURE | WRONG_VERSION, "tile data: version %d, expected %d", h.version, NAVMESH_VERSION);

  // Messages name the tile as "tile (x,y,layer)", formatted only when one is written.
  const Status BAD = FAILURE | INVALID_PARAM;

  // Grid location: neighbour lookups step one cell in every direction, keep far from int overflow.
  const int COORD_LIMIT = 1 << 30;
  if (h.x <= -COORD_LIMIT || h.x >= COORD_LIMIT || h.y <= -COORD_LIMIT || h.y >= COORD_LIMIT)
    return failWith(why, BAD, "tile (%d,%d,%d): tile coordinates out of range (|x|, |y| < 2^30)", h.x, h.y, h.layer);

  // Counts against each other and the data size.
  if (!countsNonNegative(h))
    return failWith(why, BAD,
                    "tile (%d,%d,%d): negative count (polys %d, verts %d, links %d, detail meshes %d, detail verts %d, detail "
                    "tris %d, BV nodes %d, off-mesh cons %d)",
                    h.x, h.y, h.layer, h.polyCount, h.vertCount, h.maxLinkCount, h.detailMeshCount, h.detailVertCount,
                    h.detailTriCount, h.bvNodeCount, h.offMeshConCount);
  const TileLayout lay = computeLayout(h);
  if (lay.total != dataSize)
    return failWith(why, BAD, "tile (%d,%d,%d): data size %d does not match the %lld bytes its header's counts imply", h.x, h.y, h.layer, dataSize,
                    (long long)lay.total);
  if (h.vertCount > 0xffff) return failWith(why, BAD, "tile (%d,%d,%d): vertCount %d exceeds 16-bit indices", h.x, h.y, h.layer, h.vertCount);
  if (m_tiles && int64_t(h.polyCount) > (int64_t(1) << m_polyBits))
    return failWith(why, BAD, "tile (%d,%d,%d): polyCount %d exceeds the mesh's maxPolys (%u poly bits)", h.x, h.y, h.layer, h.polyCount, m_polyBits);
  if (h.offMeshBase < 0 || int64_t(h.offMeshBase) + h.offMeshConCount != h.polyCount)
    return failWith(why, BAD, "tile (%d,%d,%d): offMeshBase %d + offMeshConCount %d != polyCount %d", h.x, h.y, h.layer, h.offMeshBase,
                    h.offMeshConCount, h.polyCount);
  if (h.detailMeshCount < h.offMeshBase || h.detailMeshCount > h.polyCount)
    return failWith(why, BAD, "tile (%d,%d,%d): detailMeshCount %d, expected one per ground poly (%d)", h.x, h.y, h.layer, h.detailMeshCount,
                    h.offMeshBase);

  // Scalars.
  for (int k = 0; k < 3; ++k) {
    if (!finite(h.bmin[k]) || !finite(h.bmax[k]) || h.bmin[k] > h.bmax[k])
      return failWith(why, BAD, "tile (%d,%d,%d): bounds axis %d [%g, %g] not finite or inverted", h.x, h.y, h.layer, k, double(h.bmin[k]),
                      double(h.bmax[k]));
  }
  if (!finite(h.walkableHeight) || !finite(h.walkableRadius) || !finite(h.walkableClimb) || h.walkableHeight < 0 ||
      h.walkableRadius < 0 || h.walkableClimb < 0)
    return failWith(why, BAD, "tile (%d,%d,%d): walkable height/radius/climb %g/%g/%g not finite and >= 0", h.x, h.y, h.layer,
                    double(h.walkableHeight), double(h.walkableRadius), double(h.walkableClimb));
  if (h.bvNodeCount > 0) {
    if (!finite(h.bvQuantFactor) || !(h.bvQuantFactor > 0))
      return failWith(why, BAD, "tile (%d,%d,%d): bvQuantFactor %g not positive and finite", h.x, h.y, h.layer, double(h.bvQuantFactor));
    for (int k = 0; k < 3; ++k) {
      if ((h.bmax[k] - h.bmin[k]) * h.bvQuantFactor + 1.0f >= 65535.0f)
        return failWith(why, BAD, "tile (%d,%d,%d): bounds axis %d span %g does not fit 16-bit BV units (factor %g)", h.x, h.y, h.layer, k,
                        double(h.bmax[k] - h.bmin[k]), double(h.bvQuantFactor));
    }
  }

  const float* verts = reinterpret_cast<const float*>(data + lay.verts);
  const Poly* polys = reinterpret_cast<const Poly*>(data + lay.polys);
  const PolyDetail* dmeshes = reinterpret_cast<const PolyDetail*>(data + lay.detailMeshes);
  const uint8_t* dtris = data + lay.detailTris;
  const float* dverts = reinterpret_cast<const float*>(data + lay.detailVerts);
  const BVNode* bv = reinterpret_cast<const BVNode*>(data + lay.bvTree);
  const OffMeshConnection* cons = reinterpret_cast<const OffMeshConnection*>(data + lay.offMeshCons);

  for (int i = 0; i < h.vertCount * 3; ++i) {
    if (!finite(verts[i])) return failWith(why, BAD, "tile (%d,%d,%d): vertex %d is not finite", h.x, h.y, h.layer, i / 3);
  }
  for (int i = 0; i < h.detailVertCount * 3; ++i) {
    if (!finite(dverts[i])) return failWith(why, BAD, "tile (%d,%d,%d): detail vertex %d is not finite", h.x, h.y, h.layer, i / 3);
  }

  // Polygons.
  int64_t linksNeeded = 0;
  for (int i = 0; i < h.polyCount; ++i) {
    const Poly& p = polys[i];
    const bool offMesh = i >= h.offMeshBase;
    const uint8_t type = p.getType();
    if (type != (offMesh ? POLYTYPE_OFFMESH_CONNECTION : POLYTYPE_GROUND))
      return failWith(why, BAD, "tile (%d,%d,%d): poly %d has type %u, expected %s", h.x, h.y, h.layer, i, type, offMesh ? "off-mesh" : "ground");
    const int nv = p.vertCount;
    if (offMesh ? nv != 2 : (nv < 3 || nv > VERTS_PER_POLYGON))
      return failWith(why, BAD, "tile (%d,%d,%d): poly %d has %d vertices, expected %s", h.x, h.y, h.layer, i, nv, offMesh ? "2" : "3..6");
    for (int j = 0; j < nv; ++j) {
      if (p.verts[j] >= h.vertCount)
        return failWith(why, BAD, "tile (%d,%d,%d): poly %d vertex %d index %u >= vertCount %d", h.x, h.y, h.layer, i, j, p.verts[j], h.vertCount);
    }
    if (offMesh) continue;
    linksNeeded += nv;
    for (int j = 0; j < nv; ++j) {
      const uint16_t n = p.neis[j];
      if (n & EXT_LINK) {
        if ((n & ~EXT_LINK) > 7)
          return failWith(why, BAD, "tile (%d,%d,%d): poly %d edge %d neighbour code 0x%04x: border side %u not in 0..7", h.x, h.y, h.layer, i, j, n,
                          unsigned(n & ~EXT_LINK));
        linksNeeded += 2;
      } else if (n != 0 && int(n) > h.offMeshBase) {
        return failWith(why, BAD, "tile (%d,%d,%d): poly %d edge %d neighbour %d >= ground poly count %d", h.x, h.y, h.layer, i, j, int(n) - 1,
                        h.offMeshBase);
      }
    }
    // Detail sub-mesh.
    const PolyDetail& pd = dmeshes[i];
    if (int64_t(pd.vertBase) + pd.vertCount > h.detailVertCount)
      return failWith(why, BAD, "tile (%d,%d,%d): poly %d detail verts [%u, +%u) beyond detailVertCount %d", h.x, h.y, h.layer, i, pd.vertBase,
                      unsigned(pd.vertCount), h.detailVertCount);
    if (pd.triCount == 0) return failWith(why, BAD, "tile (%d,%d,%d): poly %d has no detail triangles", h.x, h.y, h.layer, i);
    if (int64_t(pd.triBase) + pd.triCount > h.detailTriCount)
      return failWith(why, BAD, "tile (%d,%d,%d): poly %d detail tris [%u, +%u) beyond detailTriCount %d", h.x, h.y, h.layer, i, pd.triBase,
                      unsigned(pd.triCount), h.detailTriCount);
    const int ndv = nv + pd.vertCount;
    for (int t = 0; t < pd.triCount; ++t) {
      const uint8_t* tri = &dtris[(size_t(pd.triBase) + size_t(t)) * 4];
      for (int k = 0; k < 3; ++k) {
        if (tri[k] >= ndv)
          return failWith(why, BAD, "tile (%d,%d,%d): poly %d detail tri %d vertex %d index %u >= %d (poly + detail verts)", h.x, h.y, h.layer, i, t,
                          k, tri[k], ndv);
      }
    }
  }
  linksNeeded += int64_t(h.offMeshConCount) * 2;
  if (h.maxLinkCount < linksNeeded)
    return failWith(why, BAD, "tile (%d,%d,%d): link budget maxLinkCount %d < %lld (edges + 2 per portal edge + 2 per off-mesh con)",
                    h.x, h.y, h.layer, h.maxLinkCount, (long long)linksNeeded);

  // BV tree: leaves name polys, escape offsets stay inside the tree and move forward.
  for (int n = 0; n < h.bvNodeCount; ++n) {
    const int32_t idx = bv[n].i;
    if (idx >= 0) {
      if (idx >= h.polyCount)
        return failWith(why, BAD, "tile (%d,%d,%d): BV node %d names poly %d >= polyCount %d", h.x, h.y, h.layer, n, idx, h.polyCount);
    } else if (idx < -(h.bvNodeCount - n)) {
      return failWith(why, BAD, "tile (%d,%d,%d): BV node %d escape offset %lld jumps past the end (%d nodes)", h.x, h.y, h.layer, n,
                      -(long long)idx, h.bvNodeCount);
    }
  }

  // Off-mesh connections.
  for (int i = 0; i < h.offMeshConCount; ++i) {
    const OffMeshConnection& c = cons[i];
    if (c.poly != h.offMeshBase + i)
      return failWith(why, BAD, "tile (%d,%d,%d): off-mesh connection %d names poly %u, expected %d", h.x, h.y, h.layer, i, c.poly, h.offMeshBase + i);
    for (int k = 0; k < 6; ++k)
      if (!finite(c.pos[k])) return failWith(why, BAD, "tile (%d,%d,%d): off-mesh connection %d end point not finite", h.x, h.y, h.layer, i);
    if (!finite(c.rad) || c.rad < 0)
      return failWith(why, BAD, "tile (%d,%d,%d): off-mesh connection %d radius %g not finite and >= 0", h.x, h.y, h.layer, i, double(c.rad));
    if (c.side > 7 && c.side != 0xff)
      return failWith(why, BAD, "tile (%d,%d,%d): off-mesh connection %d side %u not 0..7 or 0xff", h.x, h.y, h.layer, i, c.side);
  }
  return SUCCESS;
}

// =============================================================================================
// [addTile/removeTile]
// =============================================================================================

Status NavMesh::addTile(uint8_t* data, int dataSize, int flags, TileRef lastRef, TileRef* result, std::string* why) {
  if (result) *result = 0;
  if (!m_tiles) return failWith(why, FAILURE | INVALID_PARAM, "addTile: the mesh is not initialised");
  const Status valid = validateTileData(data, dataSize, why);
  if (statusFailed(valid)) return valid;
  MeshHeader* header = reinterpret_cast<MeshHeader*>(data);
  if (getTileAt(header->x, header->y, header->layer))
    return failWith(why, FAILURE | ALREADY_OCCUPIED, "tile (%d,%d,%d): a tile is already at this location", header->x,
                    header->y, header->layer);

  // Pick the slot: the next free one, or the one `lastRef` names (restoring its salt).
  MeshTile* tile = nullptr;
  if (!lastRef) {
    if (!m_nextFree)
      return failWith(why, FAILURE | OUT_OF_MEMORY, "tile (%d,%d,%d): all %d tile slots are in use", header->x, header->y,
                      header->layer, m_maxTiles);
    tile = m_nextFree;
    takeFreeSlot(tile);
  } else {
    const uint32_t tileIndex = decodePolyIdTile(lastRef);
    const uint32_t salt = decodePolyIdSalt(lastRef);
    if (int(tileIndex) >= m_maxTiles)
      return failWith(why, FAILURE | OUT_OF_MEMORY, "tile (%d,%d,%d): ref 0x%08x names slot %u >= maxTiles %d", header->x,
                      header->y, header->layer, lastRef, tileIndex, m_maxTiles);
    if (salt == 0)
      return failWith(why, FAILURE | INVALID_PARAM, "tile (%d,%d,%d): ref 0x%08x has salt 0", header->x, header->y,
                      header->layer, lastRef);
    if (m_freePrev[tileIndex] == SLOT_IN_USE)
      return failWith(why, FAILURE | OUT_OF_MEMORY, "tile (%d,%d,%d): ref 0x%08x names slot %u which is in use",
                      header->x, header->y, header->layer, lastRef, tileIndex);
    tile = &m_tiles[tileIndex];
    takeFreeSlot(tile);
    tile->salt = salt;
  }

  const int h = computeTileHash(header->x, header->y, m_tileLutMask);
  tile->next = m_posLookup[h];
  m_posLookup[h] = tile;

  const TileLayout lay = computeLayout(*header);
  tile->header = header;
  tile->verts = reinterpret_cast<float*>(data + lay.verts);
  tile->polys = reinterpret_cast<Poly*>(data + lay.polys);
  tile->links = reinterpret_cast<Link*>(data + lay.links);
  tile->detailMeshes = reinterpret_cast<PolyDetail*>(data + lay.detailMeshes);
  tile->detailVerts = reinterpret_cast<float*>(data + lay.detailVerts);
  tile->detailTris = data + lay.detailTris;
  tile->bvTree = header->bvNodeCount ? reinterpret_cast<BVNode*>(data + lay.bvTree) : nullptr;
  tile->offMeshCons = reinterpret_cast<OffMeshConnection*>(data + lay.offMeshCons);

  // Link free list: 0, 1, 2, ... in order.
  if (header->maxLinkCount > 0) {
    tile->linksFreeList = 0;
    for (int i = 0; i < header->maxLinkCount - 1; ++i) tile->links[i].next = uint32_t(i + 1);
    tile->links[header->maxLinkCount - 1].next = NULL_LINK;
  } else {
    tile->linksFreeList = NULL_LINK;
  }
  tile->data = data;
  tile->dataSize = dataSize;
  tile->flags = flags;

  connectIntLinks(tile);
  baseOffMeshLinks(tile);
  connectExtOffMeshLinks(tile, tile, -1);

  // Other layers at the same location.
  MeshTile* neis[MAX_NEIS];
  int nneis = getTilesAt(header->x, header->y, const_cast<const MeshTile**>(neis), MAX_NEIS);
  for (int j = 0; j < nneis; ++j) {
    if (neis[j] == tile) continue;
    connectExtLinks(tile, neis[j], -1);
    connectExtLinks(neis[j], tile, -1);
    connectExtOffMeshLinks(tile, neis[j], -1);
    connectExtOffMeshLinks(neis[j], tile, -1);
  }
  // The 8 neighbouring locations.
  for (int i = 0; i < 8; ++i) {
    nneis = getNeighbourTilesAt(header->x, header->y, i, neis, MAX_NEIS);
    for (int j = 0; j < nneis; ++j) {
      connectExtLinks(tile, neis[j], i);
      connectExtLinks(neis[j], tile, oppositeTile(i));
      connectExtOffMeshLinks(tile, neis[j], i);
      connectExtOffMeshLinks(neis[j], tile, oppositeTile(i));
    }
  }
  if (result) *result = getTileRef(tile);
  changed();
  return SUCCESS;
}

Status NavMesh::removeTile(TileRef ref, uint8_t** data, int* dataSize) {
  if (!ref || !m_tiles) return FAILURE | INVALID_PARAM;
  const uint32_t tileIndex = decodePolyIdTile(ref);
  const uint32_t tileSalt = decodePolyIdSalt(ref);
  if (int(tileIndex) >= m_maxTiles) return FAILURE | INVALID_PARAM;
  MeshTile* tile = &m_tiles[tileIndex];
  if (tile->salt != tileSalt || !tile->header) return FAILURE | INVALID_PARAM;

  const int h = computeTileHash(tile->header->x, tile->header->y, m_tileLutMask);
  MeshTile* prev = nullptr;
  for (MeshTile* cur = m_posLookup[h]; cur; prev = cur, cur = cur->next) {
    if (cur == tile) {
      if (prev) prev->next = cur->next;
      else m_posLookup[h] = cur->next;
      break;
    }
  }

  MeshTile* neis[MAX_NEIS];
  int nneis = getTilesAt(tile->header->x, tile->header->y, const_cast<const MeshTile**>(neis), MAX_NEIS);
  for (int j = 0; j < nneis; ++j) {
    if (neis[j] == tile) continue;
    unconnectLinks(neis[j], tile);
  }
  for (int i = 0; i < 8; ++i) {
    nneis = getNeighbourTilesAt(tile->header->x, tile->header->y, i, neis, MAX_NEIS);
    for (int j = 0; j < nneis; ++j) unconnectLinks(neis[j], tile);
  }

  if (tile->flags & TILE_FREE_DATA) {
    delete[] tile->data;
    if (data) *data = nullptr;
    if (dataSize) *dataSize = 0;
  } else {
    if (data) *data = tile->data;
    if (dataSize) *dataSize = tile->dataSize;
  }
  const uint32_t salt = tile->salt;
  std::memset(static_cast<void*>(tile), 0, sizeof(MeshTile));
  // Bump the salt so stale refs are rejected; it is never 0.
  tile->salt = (salt + 1) & ((1u << m_saltBits) - 1);
  if (tile->salt == 0) tile->salt++;
  pushFreeSlot(tile);
  changed();
  return SUCCESS;
}

void NavMesh::takeFreeSlot(MeshTile* tile) {
  const int i = int(tile - m_tiles);
  const int prev = m_freePrev[i];
  MeshTile* next = tile->next;
  if (prev == FREE_HEAD) m_nextFree = next;
  else m_tiles[prev].next = next;
  if (next) m_freePrev[next - m_tiles] = prev;
  m_freePrev[i] = SLOT_IN_USE;
  tile->next = nullptr;
}

void NavMesh::pushFreeSlot(MeshTile* tile) {
  const int i = int(tile - m_tiles);
  tile->next = m_nextFree;
  if (m_nextFree) m_freePrev[m_nextFree - m_tiles] = i;
  m_freePrev[i] = FREE_HEAD;
  m_nextFree = tile;
}

// =============================================================================================
// [linking]
// =============================================================================================

void NavMesh::connectIntLinks(MeshTile* tile) {
  const PolyRef base = getPolyRefBase(tile);
  for (int i = 0; i < tile->header->polyCount; ++i) {
    Poly* poly = &tile->polys[i];
    poly->firstLink = NULL_LINK;
    if (poly->getType() == POLYTYPE_OFFMESH_CONNECTION) continue;
    // Backwards, so that the list runs from the lowest edge to the highest.
    for (int j = poly->vertCount - 1; j >= 0; --j) {
      if (poly->neis[j] == 0 || (poly->neis[j] & EXT_LINK)) continue;
      prependLink(tile, poly, base | PolyRef(poly->neis[j] - 1), uint8_t(j), 0xff);
    }
  }
}

void NavMesh::baseOffMeshLinks(MeshTile* tile) {
  const PolyRef base = getPolyRefBase(tile);
  for (int i = 0; i < tile->header->offMeshConCount; ++i) {
    OffMeshConnection* con = &tile->offMeshCons[i];
    Poly* poly = &tile->polys[con->poly];
    const float halfExtents[3] = {con->rad, tile->header->walkableClimb, con->rad};
    const float* p = &con->pos[0];
    float nearestPt[3];
    const PolyRef ref = findNearestPolyInTile(tile, p, halfExtents, nearestPt);
    if (!ref) continue;
    // The nearest poly may be too far in xz even though inside the box.
    if (sqr(nearestPt[0] - p[0]) + sqr(nearestPt[2] - p[2]) > sqr(con->rad)) continue;
    // Snap the start point onto the mesh.
    vcopy(&tile->verts[poly->verts[0] * 3], nearestPt);

    prependLink(tile, poly, ref, 0, 0xff);
    // The landing poly always links back to the connection's start.
    prependLink(tile, &tile->polys[decodePolyIdPoly(ref)], base | PolyRef(con->poly), 0xff, 0xff);
  }
}

void NavMesh::connectExtOffMeshLinks(MeshTile* tile, MeshTile* target, int side) {
  // Connections of `target` whose end lands in `tile` (on `side` of target, or anywhere for -1).
  const uint8_t oppositeSide = side == -1 ? 0xff : uint8_t(oppositeTile(side));
  for (int i = 0; i < target->header->offMeshConCount; ++i) {
    OffMeshConnection* targetCon = &target->offMeshCons[i];
    if (targetCon->side != oppositeSide) continue;
    Poly* targetPoly = &target->polys[targetCon->poly];
    // Skip connections whose start could not be attached at all.
    if (targetPoly->firstLink == NULL_LINK) continue;
    const float halfExtents[3] = {targetCon->rad, target->header->walkableClimb, targetCon->rad};
    const float* p = &targetCon->pos[3];
    float nearestPt[3];
    const PolyRef ref = findNearestPolyInTile(tile, p, halfExtents, nearestPt);
    if (!ref) continue;
    if (sqr(nearestPt[0] - p[0]) + sqr(nearestPt[2] - p[2]) > sqr(targetCon->rad)) continue;
    vcopy(&target->verts[targetPoly->verts[1] * 3], nearestPt);

    prependLink(target, targetPoly, ref, 1, oppositeSide);
    if (targetCon->flags & OFFMESH_CON_BIDIR)
      prependLink(tile, &tile->polys[decodePolyIdPoly(ref)], getPolyRefBase(target) | PolyRef(targetCon->poly), 0xff,
                  uint8_t(side == -1 ? 0xff : side));
  }
}

int NavMesh::findConnectingPolys(const float* va, const float* vb, const MeshTile* tile, int side, PolyRef* con,
                                 float* conarea, int maxcon) const {
  // Portals only exist on the 4 straight sides; a diagonal side code never connects.
  if (side != 0 && side != 2 && side != 4 && side != 6) return 0;
  float amin[2] = {0, 0}, amax[2] = {0, 0};
  calcSlabEndPoints(va, vb, amin, amax, side);
  const float apos = getSlabCoord(va, side);
  float bmin[2] = {0, 0}, bmax[2] = {0, 0};
  const uint16_t m = uint16_t(EXT_LINK | uint16_t(side));
  int n = 0;
  const PolyRef base = getPolyRefBase(tile);
  for (int i = 0; i < tile->header->polyCount; ++i) {
    const Poly* poly = &tile->polys[i];
    const int nv = poly->vertCount;
    for (int j = 0; j < nv; ++j) {
      if (poly->neis[j] != m) continue;
      const float* vc = &tile->verts[poly->verts[j] * 3];
      const float* vd = &tile->verts[poly->verts[(j + 1) % nv] * 3];
      const float bpos = getSlabCoord(vc, side);
      if (navAbs(apos - bpos) > 0.01f) continue;
      calcSlabEndPoints(vc, vd, bmin, bmax, side);
      if (!overlapSlabs(amin, amax, bmin, bmax, 0.01f, tile->header->walkableClimb)) continue;
      if (n < maxcon) {
        conarea[n * 2 + 0] = navMax(amin[0], bmin[0]);
        conarea[n * 2 + 1] = navMin(amax[0], bmax[0]);
        con[n] = base | PolyRef(i);
        n++;
      }
      break; // one portal per neighbour poly
    }
  }
  return n;
}

void NavMesh::connectExtLinks(MeshTile* tile, MeshTile* target, int side) {
  // Toward a diagonal neighbour every edge would look for a diagonal portal, which
  // findConnectingPolys never finds: nothing to link, skip the scan.
  if (side != -1 && (side & 1)) return;
  SideEdges targetEdges[4]; // by the target's side / 2, collected when first needed
  const PolyRef targetBase = getPolyRefBase(target);
  for (int i = 0; i < tile->header->polyCount; ++i) {
    Poly* poly = &tile->polys[i];
    const int nv = poly->vertCount;
    for (int j = 0; j < nv; ++j) {
      if ((poly->neis[j] & EXT_LINK) == 0) continue;
      const int dir = int(poly->neis[j] & 0xff);
      if (side != -1 && dir != side) continue;
      const float* va = &tile->verts[poly->verts[j] * 3];
      const float* vb = &tile->verts[poly->verts[(j + 1) % nv] * 3];
      PolyRef nei[4];
      float neia[4 * 2];
      const int tside = oppositeTile(dir);
      if (tside & 1) continue; // diagonal: never a portal (findConnectingPolys finds nothing)
      SideEdges& edges = targetEdges[tside >> 1];
      if (!edges.built) collectSideEdges(target, tside, edges);
      const int nnei = edges.overflow ? findConnectingPolys(va, vb, target, tside, nei, neia, 4)
                                      : connectingPolysIn(edges, va, vb, target, targetBase, tside, nei, neia, 4);
      for (int k = 0; k < nnei; ++k) {
        const uint32_t idx = allocLink(tile);
        if (idx == NULL_LINK) continue;
        Link* link = &tile->links[idx];
        link->ref = nei[k];
        link->edge = uint8_t(j);
        link->side = uint8_t(dir);
        link->next = poly->firstLink;
        poly->firstLink = idx;
        // The overlapping part of the edge, as fractions of the edge in bytes (truncated, as Detour
        // 1.5.1 does: no roundf there).
        if (dir == 0 || dir == 4) {
          float tmin = (neia[k * 2 + 0] - va[2]) / (vb[2] - va[2]);
          float tmax = (neia[k * 2 + 1] - va[2]) / (vb[2] - va[2]);
          if (tmin > tmax) navSwap(tmin, tmax);
          link->bmin = uint8_t(clamp(tmin, 0.0f, 1.0f) * 255.0f);
          link->bmax = uint8_t(clamp(tmax, 0.0f, 1.0f) * 255.0f);
        } else if (dir == 2 || dir == 6) {
          float tmin = (neia[k * 2 + 0] - va[0]) / (vb[0] - va[0]);
          float tmax = (neia[k * 2 + 1] - va[0]) / (vb[0] - va[0]);
          if (tmin > tmax) navSwap(tmin, tmax);
          link->bmin = uint8_t(clamp(tmin, 0.0f, 1.0f) * 255.0f);
          link->bmax = uint8_t(clamp(tmax, 0.0f, 1.0f) * 255.0f);
        }
      }
    }
  }
}

void NavMesh::unconnectLinks(MeshTile* tile, MeshTile* target) {
  const uint32_t targetNum = decodePolyIdTile(getTileRef(target));
  for (int i = 0; i < tile->header->polyCount; ++i) {
    Poly* poly = &tile->polys[i];
    uint32_t j = poly->firstLink;
    uint32_t pj = NULL_LINK;
    while (j != NULL_LINK) {
      if (decodePolyIdTile(tile->links[j].ref) == targetNum) {
        const uint32_t nj = tile->links[j].next;
        if (pj == NULL_LINK) poly->firstLink = nj;
        else tile->links[pj].next = nj;
        freeLink(tile, j);
        j = nj;
      } else {
        pj = j;
        j = tile->links[j].next;
      }
    }
  }
}

// =============================================================================================
// [refs and accessors]
// =============================================================================================

// getTileAndPolyByRef, isValidPolyRef, getTileAndPolyByRefUnsafe: inline in NavMesh.h.

Status NavMesh::getOffMeshConnectionPolyEndPoints(PolyRef prevRef, PolyRef polyRef, float* startPos, float* endPos) const {
  const MeshTile* tile;
  const Poly* poly;
  if (statusFailed(getTileAndPolyByRef(polyRef, &tile, &poly))) return FAILURE | INVALID_PARAM;
  if (poly->getType() != POLYTYPE_OFFMESH_CONNECTION) return FAILURE;
  // The link on edge 0 leads to the start poly; if we did not come from there, go backwards.
  int idx0 = 0, idx1 = 1;
  for (uint32_t i = poly->firstLink; i != NULL_LINK; i = tile->links[i].next) {
    if (tile->links[i].edge == 0) {
      if (tile->links[i].ref != prevRef) {
        idx0 = 1;
        idx1 = 0;
      }
      break;
    }
  }
  vcopy(startPos, &tile->verts[poly->verts[idx0] * 3]);
  vcopy(endPos, &tile->verts[poly->verts[idx1] * 3]);
  return SUCCESS;
}

const OffMeshConnection* NavMesh::getOffMeshConnectionByRef(PolyRef ref) const {
  const MeshTile* tile;
  const Poly* poly;
  if (statusFailed(getTileAndPolyByRef(ref, &tile, &poly))) return nullptr;
  if (poly->getType() != POLYTYPE_OFFMESH_CONNECTION) return nullptr;
  const int idx = int(poly - tile->polys) - tile->header->offMeshBase;
  if (idx < 0 || idx >= tile->header->offMeshConCount) return nullptr;
  return &tile->offMeshCons[idx];
}

Status NavMesh::setPolyFlags(PolyRef ref, uint16_t flags) {
  const MeshTile* tile;
  const Poly* poly;
  const Status s = getTileAndPolyByRef(ref, &tile, &poly);
  if (statusFailed(s)) return FAILURE | INVALID_PARAM;
  const_cast<Poly*>(poly)->flags = flags;
  changed();
  m_attributeGeneration = m_generation;
  return SUCCESS;
}

Status NavMesh::getPolyFlags(PolyRef ref, uint16_t* resultFlags) const {
  const MeshTile* tile;
  const Poly* poly;
  if (statusFailed(getTileAndPolyByRef(ref, &tile, &poly))) return FAILURE | INVALID_PARAM;
  *resultFlags = poly->flags;
  return SUCCESS;
}

Status NavMesh::setPolyArea(PolyRef ref, uint8_t area) {
  const MeshTile* tile;
  const Poly* poly;
  if (statusFailed(getTileAndPolyByRef(ref, &tile, &poly))) return FAILURE | INVALID_PARAM;
  const_cast<Poly*>(poly)->setArea(area);
  changed();
  m_attributeGeneration = m_generation;
  return SUCCESS;
}

Status NavMesh::getPolyArea(PolyRef ref, uint8_t* resultArea) const {
  const MeshTile* tile;
  const Poly* poly;
  if (statusFailed(getTileAndPolyByRef(ref, &tile, &poly))) return FAILURE | INVALID_PARAM;
  *resultArea = poly->getArea();
  return SUCCESS;
}

// =============================================================================================
// [geometry helpers]
// =============================================================================================

void NavMesh::closestPointOnDetailEdges(const MeshTile* tile, const Poly* poly, const float* pos, float* closest,
                                        bool onlyBoundary) const {
  const uint32_t ip = uint32_t(poly - tile->polys);
  const PolyDetail* pd = &tile->detailMeshes[ip];
  float dmin = FLT_MAX;
  float tmin = 0;
  const float* pmin = nullptr;
  const float* pmax = nullptr;
  constexpr int ANY_BOUNDARY_EDGE =
      (DETAIL_EDGE_BOUNDARY << 0) | (DETAIL_EDGE_BOUNDARY << 2) | (DETAIL_EDGE_BOUNDARY << 4);
  for (int i = 0; i < pd->triCount; i++) {
    const uint8_t* tris = &tile->detailTris[(pd->triBase + uint32_t(i)) * 4];
    if (onlyBoundary && (tris[3] & ANY_BOUNDARY_EDGE) == 0) continue;
    const float* v[3];
    for (int j = 0; j < 3; ++j) {
      if (tris[j] < poly->vertCount) v[j] = &tile->verts[poly->verts[tris[j]] * 3];
      else v[j] = &tile->detailVerts[(pd->vertBase + uint32_t(tris[j] - poly->vertCount)) * 3];
    }
    for (int k = 0, j = 2; k < 3; j = k++) {
      // Skip internal edges when only the boundary counts, and see each inner edge only once.
      if ((getDetailTriEdgeFlags(tris[3], j) & DETAIL_EDGE_BOUNDARY) == 0 && (onlyBoundary || tris[j] < tris[k])) continue;
      float t;
      const float d = distancePtSegSqr2D(pos, v[j], v[k], t);
      if (d < dmin) {
        dmin = d;
        tmin = t;
        pmin = v[j];
        pmax = v[k];
      }
    }
  }
  if (!pmin) { // no edge at all (cannot happen for validated tiles); keep pos
    vcopy(closest, pos);
    return;
  }
  vlerp(closest, pmin, pmax, tmin);
}

bool NavMesh::getPolyHeight(const MeshTile* tile, const Poly* poly, const float* pos, float* height) const {
  if (poly->getType() == POLYTYPE_OFFMESH_CONNECTION) return false;
  if (!pointInPolygonIdx(pos, tile->verts, poly->verts, poly->vertCount)) return false;
  if (!height) return true;
  getPolyHeightInside(tile, poly, pos, height);
  return true;
}

void NavMesh::getPolyHeightInside(const MeshTile* tile, const Poly* poly, const float* pos, float* height) const {
  const PolyDetail* pd = &tile->detailMeshes[uint32_t(poly - tile->polys)];
  for (int j = 0; j < pd->triCount; ++j) {
    const uint8_t* t = &tile->detailTris[(pd->triBase + uint32_t(j)) * 4];
    const float* v[3];
    for (int k = 0; k < 3; ++k) {
      if (t[k] < poly->vertCount) v[k] = &tile->verts[poly->verts[t[k]] * 3];
      else v[k] = &tile->detailVerts[(pd->vertBase + uint32_t(t[k] - poly->vertCount)) * 3];
    }
    float h;
    if (closestHeightPointTriangle(pos, v[0], v[1], v[2], h)) {
      *height = h;
      return;
    }
  }
  // Inside the poly but in no triangle (degenerate triangles, float error): on an edge, take the
  // nearest detail edge's height.
  float closest[3];
  closestPointOnDetailEdges(tile, poly, pos, closest, false);
  *height = closest[1];
}

void NavMesh::closestPointOnPoly(PolyRef ref, const float* pos, float* closest, bool* posOverPoly) const {
  const MeshTile* tile = nullptr;
  const Poly* poly = nullptr;
  getTileAndPolyByRefUnsafe(ref, &tile, &poly);
  closestPointOnPoly(tile, poly, pos, closest, posOverPoly);
}

void NavMesh::closestPointOnPoly(const MeshTile* tile, const Poly* poly, const float* pos, float* closest,
                                 bool* posOverPoly) const {
  vcopy(closest, pos);
  if (getPolyHeight(tile, poly, pos, &closest[1])) {
    if (posOverPoly) *posOverPoly = true;
    return;
  }
  if (posOverPoly) *posOverPoly = false;
  if (poly->getType() == POLYTYPE_OFFMESH_CONNECTION) {
    const float* v0 = &tile->verts[poly->verts[0] * 3];
    const float* v1 = &tile->verts[poly->verts[1] * 3];
    float t;
    distancePtSegSqr2D(pos, v0, v1, t);
    vlerp(closest, v0, v1, t);
    return;
  }
  closestPointOnDetailEdges(tile, poly, pos, closest, true);
}

void quantizeQueryBox(const MeshHeader* header, const float* qmin, const float* qmax, uint16_t* bmin, uint16_t* bmax) {
  const float* tbmin = header->bmin;
  const float* tbmax = header->bmax;
  const float qfac = header->bvQuantFactor;
  const float minx = clamp(qmin[0], tbmin[0], tbmax[0]) - tbmin[0];
  const float miny = clamp(qmin[1], tbmin[1], tbmax[1]) - tbmin[1];
  const float minz = clamp(qmin[2], tbmin[2], tbmax[2]) - tbmin[2];
  const float maxx = clamp(qmax[0], tbmin[0], tbmax[0]) - tbmin[0];
  const float maxy = clamp(qmax[1], tbmin[1], tbmax[1]) - tbmin[1];
  const float maxz = clamp(qmax[2], tbmin[2], tbmax[2]) - tbmin[2];
  bmin[0] = uint16_t(uint16_t(qfac * minx) & 0xfffe);
  bmin[1] = uint16_t(uint16_t(qfac * miny) & 0xfffe);
  bmin[2] = uint16_t(uint16_t(qfac * minz) & 0xfffe);
  bmax[0] = uint16_t(uint16_t(qfac * maxx + 1) | 1);
  bmax[1] = uint16_t(uint16_t(qfac * maxy + 1) | 1);
  bmax[2] = uint16_t(uint16_t(qfac * maxz + 1) | 1);
}

void polyBounds(const MeshTile* tile, const Poly* p, float* bmin, float* bmax) {
  const float* v = &tile->verts[p->verts[0] * 3];
  vcopy(bmin, v);
  vcopy(bmax, v);
  for (int j = 1; j < p->vertCount; ++j) {
    v = &tile->verts[p->verts[j] * 3];
    vmin(bmin, v);
    vmax(bmax, v);
  }
}

int NavMesh::queryPolygonsInTile(const MeshTile* tile, const float* qmin, const float* qmax, PolyRef* polys,
                                 int maxPolys) const {
  if (tile->bvTree) {
    const BVNode* node = &tile->bvTree[0];
    const BVNode* end = &tile->bvTree[tile->header->bvNodeCount];
    uint16_t bmin[3], bmax[3];
    quantizeQueryBox(tile->header, qmin, qmax, bmin, bmax);
    const PolyRef base = getPolyRefBase(tile);
    int n = 0;
    while (node < end) {
      const bool overlap = overlapQuantBounds(bmin, bmax, node->bmin, node->bmax);
      const bool isLeafNode = node->i >= 0;
      if (isLeafNode && overlap) {
        if (n < maxPolys) polys[n++] = base | PolyRef(node->i);
      }
      if (overlap || isLeafNode) node++;
      else node += -node->i;
    }
    return n;
  }
  float bmin[3], bmax[3];
  int n = 0;
  const PolyRef base = getPolyRefBase(tile);
  for (int i = 0; i < tile->header->polyCount; ++i) {
    const Poly* p = &tile->polys[i];
    if (p->getType() == POLYTYPE_OFFMESH_CONNECTION) continue;
    polyBounds(tile, p, bmin, bmax);
    if (overlapBounds(qmin, qmax, bmin, bmax)) {
      if (n < maxPolys) polys[n++] = base | PolyRef(i);
    }
  }
  return n;
}

PolyRef NavMesh::findNearestPolyInTile(const MeshTile* tile, const float* center, const float* halfExtents,
                                       float* nearestPt) const {
  float bmin[3], bmax[3];
  vsub(bmin, center, halfExtents);
  vadd(bmax, center, halfExtents);
  PolyRef polys[128];
  const int polyCount = queryPolygonsInTile(tile, bmin, bmax, polys, 128);
  PolyRef nearest = 0;
  float nearestDistanceSqr = FLT_MAX;
  for (int i = 0; i < polyCount; ++i) {
    const PolyRef ref = polys[i];
    float closestPtPoly[3];
    bool posOverPoly = false;
    closestPointOnPoly(ref, center, closestPtPoly, &posOverPoly);
    const float d = nearestPolyDistSqr(tile->header, center, closestPtPoly, posOverPoly);
    if (d < nearestDistanceSqr) {
      vcopy(nearestPt, closestPtPoly);
      nearestDistanceSqr = d;
      nearest = ref;
    }
  }
  return nearest;
}

} // namespace nav
