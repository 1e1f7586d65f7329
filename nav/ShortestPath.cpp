// ShortestPath.cpp: the exact shortest-path search (see ShortestPath.h for the method and model).
//
// [SECTION] constants and small 2D helpers
// [SECTION] pools, hash of roots/corners, open list
// [SECTION] the query: set-up, search loop, path output
// [SECTION] expansion: an interval node, a point root, off-mesh connections
// [SECTION] costs, heuristic, corners
// [SECTION] free helpers (closest-point cost model, path length)
#include "nav/ShortestPath.h"

#include "nav/NavMath.h"
#include "nav/NavMesh.h"
#include "nav/QueryFilter.h"
#include "nav/base/BitMath.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <new>

#if defined(__GNUC__)
#define NAV_SP_INLINE __attribute__((always_inline)) inline
#elif defined(_MSC_VER)
#define NAV_SP_INLINE __forceinline
#else
#define NAV_SP_INLINE inline
#endif

#ifndef NAV_SP_SSE // (-DNAV_SP_SSE=0 builds the scalar loop, for checking it gives the same answers)
#if defined(__SSE2__) || defined(_M_X64)
#define NAV_SP_SSE 1
#else
#define NAV_SP_SSE 0
#endif
#endif
#if NAV_SP_SSE
#include <emmintrin.h>
#endif

namespace nav {

// ---------------------------------------------------------------------------------------------
// [SECTION] constants and small 2D helpers
// ---------------------------------------------------------------------------------------------

namespace {

constexpr float kOnLineEps = 1e-4f; ///< A point this close to a line is on it, near the origin [Unit: wu].
constexpr float kMinPiece = 1e-4f;  ///< Shorter intervals are dropped (zero-measure) [Unit: wu].
/// Two costs of one point within this share of them are the same (float noise of sums of a few
/// lengths: about 4 ulps). A root or landing is reused, and its expansion not repeated, only for a
/// way at most this much dearer: reusing one dearer by up to pruning's tolerance (1e-4 + 1e-5 g)
/// would keep the first way found, and the answer that much longer than the shortest.
constexpr float kSameCost = 5e-7f;
/// Turn keys of partial portal ends (always corners) carry this bit and their position in mm, so
/// such a point is pruned like a vertex when reached again by a longer way.
constexpr uint64_t kPartialBit = 1ull << 61;

constexpr uint32_t kFirstSlots = 1024; ///< Slots a query starts with (24 KB; doubled as needed).
constexpr uint64_t SLOT_VERT = 1ull << 62;      ///< | vertex key: best g of the root, corner state.
constexpr uint64_t SLOT_EXPANDED = 2ull << 62;  ///< | (poly << 28 | root): point expansion done.
constexpr uint64_t SLOT_OFFMESH = 3ull << 62;   ///< | (con poly << 1 | start end): best g.
constexpr int kMaxEdgeWalk = 8; ///< Earlier nodes on a successor's edge list it is compared with.
constexpr uint32_t kMaxEdgeHeads = 1024; ///< Dominance lists' heads (8 KB), fewer for small pools.

enum LinkBits : uint8_t { LINK_OFFMESH = 1, LINK_DEAD_END = 2 };
enum NodeKind : uint8_t { KIND_INTERVAL = 0, KIND_GOAL = 1, KIND_OFFMESH = 2 };
enum RootFlags : uint8_t { ROOT_START = 1, ROOT_TURN = 2, ROOT_OFFMESH_START = 4, ROOT_OFFMESH_END = 8, ROOT_END = 16 };

/// Twice the signed xz-area of (o, a, b): > 0 when b is left of o->a (x right, z up).
inline float cross2(const float* o, const float* a, const float* b) {
  return (a[0] - o[0]) * (b[2] - o[2]) - (a[2] - o[2]) * (b[0] - o[0]);
}
inline float dist2(const float* a, const float* b) {
  const float dx = b[0] - a[0], dz = b[2] - a[2];
  return std::sqrt(dx * dx + dz * dz);
}
inline bool samePoint2D(const float* a, const float* b) {
  const float dx = b[0] - a[0], dz = b[2] - a[2];
  return dx * dx + dz * dz < 1e-6f;
}
inline uint64_t vertKey(uint32_t tileIndex, uint16_t vert) { return ((uint64_t(tileIndex) << 16) | vert) + 1; }
inline uint64_t partialKey(const float* p) {
  const uint32_t xi = uint32_t(int32_t(std::lround(p[0] * 1000.0f))) & 0x7fffffffu;
  const uint32_t zi = uint32_t(int32_t(std::lround(p[2] * 1000.0f))) & 0x3fffffffu;
  return kPartialBit | (uint64_t(xi) << 30) | zi;
}

/// Portal range [t0, t1] of a link along its edge (Detour's getPortalPoints: only tile-border links
/// with a narrowed byte range are partial).
inline void linkRange(const Link& link, float& t0, float& t1) {
  t0 = 0.0f;
  t1 = 1.0f;
  if (link.side != 0xff && (link.bmin != 0 || link.bmax != 255)) {
    t0 = link.bmin * (1.0f / 255.0f);
    t1 = link.bmax * (1.0f / 255.0f);
  }
}

} // namespace

struct ShortestPath::Node {
  float l[3], r[3]; ///< Interval (goal: l = via point; off-mesh: l = r = landing point).
  const float* e0;  ///< The whole edge holding the interval (a precise line even for tiny intervals):
  const float* e1;  ///< its end points in the tile's vertex array [(x, y, z)] (tiles stay put during a query).
  float f, g;       ///< g = the root's g (goal: the whole cost).
  int root, parent;
  PolyRef poly;     ///< Polygon entered across the interval (goal: the end poly).
  PolyRef via;      ///< Off-mesh node: the connection crossed before `poly`.
  uint64_t lkey, rkey; ///< Turn keys of l / r: 0 = not a mesh point, partialKey or vertKey.
  float tlo, thi;   ///< The interval as parameters along e0 -> e1 (interval nodes).
  int edgeNext;     ///< Next node on the same (edge, entered polygon), -1 at the end (dominance lists).
  uint8_t kind;
};

struct ShortestPath::Root {
  float pos[3];
  float g;
  int parent;
  PolyRef poly; ///< Polygon the next segment starts in (the connection poly at an off-mesh start).
  uint64_t key; ///< Turn key of the mesh point it sits on (0: start, end, off-mesh, projected point).
  uint8_t flags;
};

/// A link as the expansion reads it (see PolyRec).
struct ShortestPath::LinkRec {
  PolyRef ref;     ///< The neighbour (links to nothing are left out).
  float t0, t1;    ///< The portal's range along the edge (linkRange).
  uint16_t nflags; ///< The neighbour's flags (the filter's flag test without a trip to the neighbour).
  uint8_t edge;    ///< Edge index of the polygon; >= its vertex count: a link to an off-mesh connection.
  uint8_t bits;    ///< LINK_OFFMESH | LINK_DEAD_END.
};

/// A polygon as the expansion reads it, gathered once per mesh generation (ShortestPath::polyRec).
struct alignas(16) ShortestPath::PolyRec {
  float x[8], z[8];                  ///< Vertex xz; lanes past nv repeat vertex 0 (for the SSE side tests).
  uint16_t verts[VERTS_PER_POLYGON]; ///< Vertex indices into the tile's verts.
  uint32_t firstLink;                ///< Its links: m_linkRecs[firstLink, firstLink + linkCount), list order.
  uint32_t linkCount;
  uint8_t nv;                        ///< Vertex count.
};

struct ShortestPath::Slot {
  uint64_t key;
  uint32_t stamp;
  float g;
  int root;     ///< Vertex: the root record made there with the best g, or -1.
  int8_t state; ///< Vertex: -1 unknown, 0 not a corner, 1 corner. Expansion: 1 done.
};

// ---------------------------------------------------------------------------------------------
// [SECTION] pools, hash of roots/corners, open list
// ---------------------------------------------------------------------------------------------

ShortestPath::ShortestPath() = default;

ShortestPath::~ShortestPath() { freeArrays(); }

void ShortestPath::freeArrays() {
  delete[] m_nodes;
  delete[] m_roots;
  delete[] m_heap;
  delete[] m_scratch;
  delete[] m_slots;
  delete[] m_slotMove;
  delete[] m_edgeHeads;
  delete[] m_cornerTiles;
  delete[] m_cornerState;
  delete[] m_cornerFlags;
  delete[] m_polyTiles;
  delete[] m_polyRecs;
  delete[] m_linkRecs;
}

Status ShortestPath::init(const NavMesh* mesh, int maxNodes) {
  if (!mesh || maxNodes < 16 || maxNodes > (1 << 24)) return FAILURE | INVALID_PARAM;
  freeArrays();
  m_mesh = mesh;
  m_maxNodes = maxNodes;
  m_maxRoots = maxNodes * 2;
  const uint32_t slotCount = base::nextPow2(uint32_t(maxNodes) * 4);
  m_nodes = new (std::nothrow) Node[size_t(m_maxNodes)];
  m_roots = new (std::nothrow) Root[size_t(m_maxRoots)];
  m_heap = new (std::nothrow) HeapItem[size_t(m_maxNodes)];
  m_scratch = new (std::nothrow) int[size_t(m_maxRoots)];
  m_slots = new (std::nothrow) Slot[slotCount];
  m_slotMove = new (std::nothrow) Slot[slotCount / 8 * 3 + 1];
  const uint32_t edgeHeads = navMin(base::nextPow2(uint32_t(maxNodes)), kMaxEdgeHeads);
  m_edgeHeads = new (std::nothrow) EdgeHead[edgeHeads];
  m_edgeMask = edgeHeads - 1;
  // Corner cache: room for twice the vertices loaded now (at least 32 K), for up to 64 K tiles.
  int64_t verts = 0, polys = 0, links = 0;
  for (int i = 0; i < mesh->getMaxTiles(); ++i)
    if (const MeshTile* t = mesh->getTile(i); t->header) {
      verts += t->header->vertCount;
      polys += t->header->polyCount;
      links += t->header->maxLinkCount;
    }
  m_cornerTileCount = uint32_t(navMin(mesh->getMaxTiles(), 1 << 16));
  m_cornerCap = int(navMin<int64_t>(navMax<int64_t>(2 * verts, 1 << 15), 1 << 26));
  m_cornerTiles = new (std::nothrow) CornerTile[m_cornerTileCount];
  m_cornerState = new (std::nothrow) uint8_t[size_t(m_cornerCap)];
  m_cornerFlags = new (std::nothrow) uint32_t[size_t(m_cornerCap)];
  // Polygon cache: room for the polygons and links loaded now (at least 1 K / 4 K).
  m_polyCap = int(navMin<int64_t>(navMax<int64_t>(polys, 1 << 10), 1 << 24));
  m_linkCap = int(navMin<int64_t>(navMax<int64_t>(links, 1 << 12), 1 << 26));
  m_polyTiles = new (std::nothrow) PolyTile[m_cornerTileCount];
  m_polyRecs = new (std::nothrow) PolyRec[size_t(m_polyCap)];
  m_linkRecs = new (std::nothrow) LinkRec[size_t(m_linkCap)];
  m_polyUsed = m_linkUsed = 0;
  m_polyEpoch = 1;
  m_cornerUsed = 0;
  m_cornerEpoch = 1;
  m_cornerGeneration = 0;
  if (!m_nodes || !m_roots || !m_heap || !m_scratch || !m_slots || !m_slotMove || !m_edgeHeads || !m_cornerTiles ||
      !m_cornerState || !m_cornerFlags || !m_polyTiles || !m_polyRecs || !m_linkRecs) {
    m_mesh = nullptr;
    m_maxNodes = 0;
    return FAILURE | OUT_OF_MEMORY;
  }
  for (uint32_t i = 0; i < slotCount; ++i) m_slots[i].stamp = 0;
  for (uint32_t i = 0; i <= m_edgeMask; ++i) m_edgeHeads[i].stamp = 0;
  m_edgeStamp = 0;
  m_slotFullMask = slotCount - 1;
  m_slotMask = navMin(slotCount, kFirstSlots) - 1;
  m_stamp = 0;
  m_nodeCount = m_rootCount = m_heapSize = 0;
  return SUCCESS;
}

// As NavMesh::getTileAndPolyByRefUnsafe, with the decoding read once per query.
inline void ShortestPath::tileAndPoly(PolyRef ref, const MeshTile** tile, const Poly** poly) const {
  const MeshTile* t = m_tiles + ((ref >> m_polyBits) & m_tileMask);
  *tile = t;
  *poly = &t->polys[ref & m_polyMask];
}

void ShortestPath::forgetPolys() {
  m_polyUsed = m_linkUsed = 0;
  if (++m_polyEpoch == 0) { // (once per 2^32: clear the old epochs for real)
    for (uint32_t i = 0; i < m_cornerTileCount; ++i) m_polyTiles[i].epoch = 0;
    m_polyEpoch = 1;
  }
}

// The record of polygon `ref` (its tile gathered when it has none in this epoch), or null when the
// tile does not fit the cache (the caller reads the mesh instead). A fill may start the cache over:
// records returned before are then stale, so callers hold one record at a time.
NAV_SP_INLINE const ShortestPath::PolyRec* ShortestPath::polyRec(PolyRef ref) {
  const uint32_t ti = tileOf(ref);
  if (ti < m_cornerTileCount && m_polyTiles[ti].epoch == m_polyEpoch)
    return &m_polyRecs[m_polyTiles[ti].base + int(ref & m_polyMask)];
  return fillPolyTile(ti, ref);
}

const ShortestPath::PolyRec* ShortestPath::fillPolyTile(uint32_t tileIndex, PolyRef ref) {
  if (tileIndex >= m_cornerTileCount) return nullptr;
  const MeshTile* tile = m_tiles + tileIndex;
  if (!tile->header) return nullptr;
  const int np = tile->header->polyCount;
  int nl = 0;
  for (int p = 0; p < np; ++p)
    for (uint32_t i = tile->polys[p].firstLink; i != NULL_LINK; i = tile->links[i].next) nl += tile->links[i].ref != 0;
  if (np > m_polyCap || nl > m_linkCap) return nullptr;
  if (m_polyUsed + np > m_polyCap || m_linkUsed + nl > m_linkCap) forgetPolys(); // full: start over
  PolyTile& pt = m_polyTiles[tileIndex];
  pt.epoch = m_polyEpoch;
  pt.base = m_polyUsed;
  const PolyRef base = m_mesh->getPolyRefBase(tile);
  for (int p = 0; p < np; ++p) {
    const Poly& poly = tile->polys[p];
    PolyRec& rec = m_polyRecs[m_polyUsed + p];
    const int nv = poly.vertCount;
    rec.nv = uint8_t(nv);
    for (int v = 0; v < 8; ++v) {
      const int k = v < nv ? v : 0;
      rec.x[v] = tile->verts[poly.verts[k] * 3];
      rec.z[v] = tile->verts[poly.verts[k] * 3 + 2];
    }
    for (int v = 0; v < VERTS_PER_POLYGON; ++v) rec.verts[v] = poly.verts[v];
    rec.firstLink = uint32_t(m_linkUsed);
    rec.linkCount = 0;
    for (uint32_t i = poly.firstLink; i != NULL_LINK; i = tile->links[i].next) {
      if (!tile->links[i].ref) continue;
      makeLinkRec(tile->links[i], base | PolyRef(p), nv, m_linkRecs[m_linkUsed++]);
      ++rec.linkCount;
    }
  }
  m_polyUsed += np;
  ++m_stats.tilesGathered;
  return &m_polyRecs[pt.base + int(ref & m_polyMask)];
}

// A LinkRec from a mesh link of polygon `from` (nv vertices): what fillPolyTile keeps.
void ShortestPath::makeLinkRec(const Link& link, PolyRef from, int nv, LinkRec& out) const {
  const MeshTile* ntile = nullptr;
  const Poly* npoly = nullptr;
  tileAndPoly(link.ref, &ntile, &npoly);
  out.ref = link.ref;
  linkRange(link, out.t0, out.t1);
  out.nflags = npoly->flags;
  out.edge = link.edge;
  out.bits = 0;
  if (npoly->getType() == POLYTYPE_OFFMESH_CONNECTION) out.bits |= LINK_OFFMESH;
  if (link.edge < nv && deadEndFrom(ntile, npoly, from)) out.bits |= LINK_DEAD_END;
}

// The query filter's passFilter for a link's neighbour (the flag test on the kept flags).
NAV_SP_INLINE bool ShortestPath::passLink(const LinkRec& link) const {
  if (m_cornerFilterFlags) return (link.nflags & m_includeFlags) != 0 && (link.nflags & m_excludeFlags) == 0;
  const MeshTile* ntile = nullptr;
  const Poly* npoly = nullptr;
  tileAndPoly(link.ref, &ntile, &npoly);
  return m_filter->passFilter(link.ref, ntile, npoly);
}

ShortestPath::Slot* ShortestPath::slot(uint64_t key, bool create) {
  uint64_t h = key * 0x9E3779B97F4A7C15ull;
  uint32_t i = uint32_t(h >> 32) & m_slotMask;
  for (;;) {
    Slot& s = m_slots[i];
    if (s.stamp != m_stamp) {
      if (!create) return nullptr;
      if (uint32_t(m_slotsUsed + 1) > (m_slotMask + 1) / 4 * 3) {
        // The used part is 3/4 full: double it (the whole table bounds the pools' worst case).
        if (!growSlots()) {
          m_outOfNodes = true;
          return nullptr;
        }
        return slot(key, true);
      }
      ++m_slotsUsed;
      s.key = key;
      s.stamp = m_stamp;
      s.g = FLT_MAX;
      s.root = -1;
      s.state = -1;
      return &s;
    }
    if (s.key == key) return &s;
    i = (i + 1) & m_slotMask;
  }
}

// A new generation of slot stamps: every slot reads as free (cleared for real once per 2^32).
void ShortestPath::nextStamp() {
  if (++m_stamp == 0) {
    for (uint32_t i = 0; i <= m_slotFullMask; ++i) m_slots[i].stamp = 0;
    m_stamp = 1;
  }
}

// Queries start on a small, cache-resident part of the slot table; when it fills up its live
// slots move to a part twice as large (under a new stamp, so what was left there from earlier
// queries or parts reads as free). No slot pointer is held across a slot() call.
bool ShortestPath::growSlots() {
  if (m_slotMask >= m_slotFullMask) return false;
  int live = 0;
  for (uint32_t i = 0; i <= m_slotMask; ++i)
    if (m_slots[i].stamp == m_stamp) m_slotMove[live++] = m_slots[i];
  m_slotMask = m_slotMask * 2 + 1;
  nextStamp();
  m_slotsUsed = 0;
  for (int k = 0; k < live; ++k) {
    uint32_t i = uint32_t((m_slotMove[k].key * 0x9E3779B97F4A7C15ull) >> 32) & m_slotMask;
    while (m_slots[i].stamp == m_stamp) i = (i + 1) & m_slotMask;
    m_slots[i] = m_slotMove[k];
    m_slots[i].stamp = m_stamp;
    ++m_slotsUsed;
  }
  return true;
}

int ShortestPath::newNode() {
  if (m_nodeCount >= m_maxNodes) {
    m_outOfNodes = true;
    return -1;
  }
  return m_nodeCount++;
}

int ShortestPath::newRoot(const float* pos, float g, int parent, PolyRef poly, uint8_t flags) {
  // The last 4 records are kept for the path's end (via point + end).
  if (m_rootCount >= m_maxRoots - 4 && !(flags & ROOT_END)) {
    m_outOfNodes = true;
    return -1;
  }
  if (m_rootCount >= m_maxRoots) return -1;
  Root& r = m_roots[m_rootCount];
  vcopy(r.pos, pos);
  r.g = g;
  r.parent = parent;
  r.poly = poly;
  r.key = 0;
  r.flags = flags;
  return m_rootCount++;
}

namespace {
inline bool nodeBefore(const float fa, const float ga, const float fb, const float gb) {
  return fa < fb || (fa == fb && ga > gb); // ties: deeper first
}
} // namespace

void ShortestPath::heapPush(int n) {
  int i = m_heapSize++;
  const HeapItem item = {m_nodes[n].f, m_nodes[n].g, n};
  while (i > 0) {
    const int p = (i - 1) / 2;
    if (!nodeBefore(item.f, item.g, m_heap[p].f, m_heap[p].g)) break;
    m_heap[i] = m_heap[p];
    i = p;
  }
  m_heap[i] = item;
}

int ShortestPath::heapPop() {
  const int top = m_heap[0].n;
  const HeapItem last = m_heap[--m_heapSize];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= m_heapSize) break;
    if (c + 1 < m_heapSize && nodeBefore(m_heap[c + 1].f, m_heap[c + 1].g, m_heap[c].f, m_heap[c].g)) ++c;
    if (!nodeBefore(m_heap[c].f, m_heap[c].g, last.f, last.g)) break;
    m_heap[i] = m_heap[c];
    i = c;
  }
  if (m_heapSize > 0) m_heap[i] = last;
  return top;
}

bool ShortestPath::getNode(int i, ShortestPathNodeView* out) const {
  if (!out || i < 0 || i >= m_nodeCount) return false;
  const Node& n = m_nodes[i];
  vcopy(out->left, n.l);
  vcopy(out->right, n.kind == KIND_GOAL ? n.l : n.r);
  if (n.kind == KIND_GOAL && n.lkey == 0) {
    vcopy(out->left, m_endPos);
    vcopy(out->right, m_endPos);
  }
  vcopy(out->root, m_roots[n.root].pos);
  out->f = n.f;
  out->g = n.g;
  out->poly = n.poly;
  out->parent = n.parent;
  out->kind = n.kind;
  return true;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] the query: set-up, search loop, path output
// ---------------------------------------------------------------------------------------------

Status ShortestPath::findPath(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                              const QueryFilter* filter, float* straightPath, uint8_t* straightPathFlags,
                              PolyRef* straightPathRefs, int* straightPathCount, int maxStraightPath,
                              PolyRef* polys, int* polyCount, int maxPolys, float* length) {
  if (straightPathCount) *straightPathCount = 0;
  if (polyCount) *polyCount = 0;
  if (length) *length = 0;
  if (!straightPath || !straightPathCount || maxStraightPath < 1 || (polys && (!polyCount || maxPolys < 1)))
    return FAILURE | INVALID_PARAM;
  const Status st = initSlicedFindPath(startRef, endRef, startPos, endPos, filter);
  if (statusFailed(st)) return st;
  m_lookahead = true;
  updateSlicedFindPath(m_maxNodes + 1, nullptr);
  m_lookahead = false;
  return finalizeSlicedFindPath(straightPath, straightPathFlags, straightPathRefs, straightPathCount,
                                maxStraightPath, polys, polyCount, maxPolys, length);
}

Status ShortestPath::initSlicedFindPath(PolyRef startRef, PolyRef endRef, const float* startPos,
                                        const float* endPos, const QueryFilter* filter) {
  m_stats = ShortestPathStats();
  m_stats.maxNodes = m_maxNodes;
  m_nodeCount = m_rootCount = m_heapSize = 0;
  m_sliceStatus = FAILURE;
  if (!m_mesh || !m_nodes) return FAILURE | INVALID_PARAM;
  if (!m_mesh->isValidPolyRef(startRef) || !m_mesh->isValidPolyRef(endRef) || !startPos || !endPos ||
      !visfinite(startPos) || !visfinite(endPos) || !filter)
    return FAILURE | INVALID_PARAM;

  // Per-query state.
  nextStamp();
  if (++m_edgeStamp == 0) { // dominance lists: all empty (cleared for real once per 2^32 queries)
    for (uint32_t i = 0; i <= m_edgeMask; ++i) m_edgeHeads[i].stamp = 0;
    m_edgeStamp = 1;
  }
  m_slotMask = navMin(m_slotFullMask + 1, kFirstSlots) - 1;
  m_slotsUsed = 0;
  m_filter = filter;
  m_tiles = m_mesh->getTile(0);
  m_polyBits = m_mesh->polyBits();
  m_tileMask = (1u << m_mesh->tileBits()) - 1;
  m_polyMask = (1u << m_polyBits) - 1;
  m_cornerFilterFlags = filter->passFn() == nullptr;
  if (m_mesh->generation() != m_cornerGeneration) { // tiles, links or flags changed: forget corners
    m_cornerGeneration = m_mesh->generation();
    forgetCorners();
    forgetPolys();
  }
  m_includeFlags = filter->getIncludeFlags();
  m_excludeFlags = filter->getExcludeFlags();
  m_endRef = endRef;
  vcopy(m_endPos, endPos);
  m_outOfNodes = false;
  m_deferCount = -1;
  // Float coordinates far from the origin carry absolute errors of ~1e-7 * |x|: scale the
  // on-a-line tolerance with them (1e-4 wu near the origin, 3 mm at 5 km).
  const float mag = navMax(navMax(std::fabs(startPos[0]), std::fabs(startPos[2])),
                           navMax(std::fabs(endPos[0]), std::fabs(endPos[2])));
  m_lineTol = navMax(kOnLineEps, 6e-7f * mag);
  m_uniform = filter->costFn() == nullptr;
  if (m_uniform && !filter->isPlain()) // a pass hook, or entering costs
    for (int a = 0; a < MAX_AREAS; ++a)
      if (filter->getAreaEnterCost(a) != 0.0f) m_uniform = false;
  const float* areaCost = filter->areaCosts();
  const float unitCost = areaCost[0];
  float minCost = unitCost;
  bool sameCost = true;
  for (int a = 0; a < MAX_AREAS; ++a) { // branch-free on locals (vectorised): runs per query
    sameCost &= areaCost[a] == unitCost;
    minCost = navMin(minCost, areaCost[a]);
  }
  m_unitCost = unitCost;
  m_minCost = minCost;
  if (!sameCost) m_uniform = false;
  if (!(m_minCost > 0.0f)) m_minCost = 0.0f;

  m_startRef = startRef;
  vcopy(m_startPos, startPos);
  m_startRoot = newRoot(startPos, 0.0f, -1, startRef, ROOT_START);
  m_bestNode = -1;
  vcopy(m_bestPoint, startPos);
  m_goal = -1;
  expandPoint(-1, m_startRoot, startRef, nullptr, nullptr);
  m_stats.nodesGenerated = m_nodeCount;
  m_sliceStatus = IN_PROGRESS;
  return IN_PROGRESS;
}

Status ShortestPath::updateSlicedFindPath(int maxIter, int* doneIters) {
  if (doneIters) *doneIters = 0;
  if (!statusInProgress(m_sliceStatus)) return m_sliceStatus;
  int iter = 0;
  m_lookNext = -1;
  while ((m_heapSize > 0 || m_lookNext >= 0) && iter < maxIter) {
    int n = m_lookNext;
    if (n >= 0) {
      m_lookNext = -1; // (one-shot findPath only: not counted as an iteration)
    } else {
      ++iter;
      n = heapPop();
    }
    if (m_nodes[n].kind == KIND_GOAL) {
      m_goal = n;
      break;
    }
    if (staleRoot(m_nodes[n].root)) continue;
    ++m_stats.nodesExpanded;
    if (m_nodes[n].kind == KIND_OFFMESH) {
      expandPoint(n, m_nodes[n].root, m_nodes[n].poly, nullptr, nullptr);
      continue;
    }
    // Intermediate pruning (Polyanya): a node whose only successor keeps its root is expanded at
    // once, without a trip through the open list.
    for (int next = expandNode(n); next >= 0; next = expandNode(next)) ++m_stats.nodesExpanded;
  }
  if (m_lookNext >= 0) { // stopped by the goal or maxIter: back to the open list
    heapPush(m_lookNext);
    m_lookNext = -1;
  }
  if (doneIters) *doneIters = iter;
  m_stats.nodesGenerated = m_nodeCount;
  m_stats.rootsCreated = m_rootCount;
  m_stats.slotsUsed = m_slotsUsed;
  if (m_goal >= 0 || m_heapSize == 0) m_sliceStatus = SUCCESS;
  return m_sliceStatus;
}

Status ShortestPath::finalizeSlicedFindPath(float* straightPath, uint8_t* straightPathFlags,
                                            PolyRef* straightPathRefs, int* straightPathCount,
                                            int maxStraightPath, PolyRef* polys, int* polyCount, int maxPolys,
                                            float* length) {
  if (straightPathCount) *straightPathCount = 0;
  if (polyCount) *polyCount = 0;
  if (length) *length = 0;
  if (!straightPath || !straightPathCount || maxStraightPath < 1 || (polys && (!polyCount || maxPolys < 1)))
    return FAILURE | INVALID_PARAM;
  if (statusFailed(m_sliceStatus)) return FAILURE;
  const PolyRef startRef = m_startRef, endRef = m_endRef;
  const float* startPos = m_startPos;
  const float* endPos = m_endPos;
  const int startRoot = m_startRoot;
  const int goal = m_goal; // an unfinished search ends at its best node so far (PARTIAL_RESULT)
  m_sliceStatus = FAILURE; // finalized: the next call needs a new init

  Status status = SUCCESS;
  int endRoot = -1;
  int lastNode = -1;
  float total = 0.0f;
  if (goal >= 0) {
    const Node& gn = m_nodes[goal];
    int parentRoot = gn.root;
    if (gn.lkey != 0) {
      const PolyRef viaPoly = gn.parent >= 0 ? m_nodes[gn.parent].poly : endRef;
      parentRoot = newRoot(gn.l, gn.f, gn.root, viaPoly, ROOT_TURN | ROOT_END);
      m_roots[parentRoot].flags = ROOT_TURN;
    }
    total = gn.f;
    endRoot = newRoot(endPos, total, parentRoot, 0, ROOT_END);
    lastNode = gn.parent;
  } else {
    status |= PARTIAL_RESULT;
    // The node coming closest to the end (every node stays in the pool until the next query); of
    // nodes as close (within float noise), the one reaching that point most cheaply (which of two
    // roots reaching a point is kept depends on pruning, the path's cost should not).
    float best2 = sqr(endPos[0] - startPos[0]) + sqr(endPos[2] - startPos[2]);
    float bestCost = 0.0f; // (the start itself)
    auto costAt = [&](int i, const float* p) {
      const Node& nd = m_nodes[i];
      return nd.kind == KIND_OFFMESH ? nd.g : nd.g + costTo(i, nd.root, p, true, 0);
    };
    for (int i = 0; i < m_nodeCount; ++i) {
      const Node& nd = m_nodes[i];
      if (nd.kind == KIND_GOAL) continue;
      float t = 0.0f;
      const float d2 = nd.kind == KIND_OFFMESH ? sqr(endPos[0] - nd.l[0]) + sqr(endPos[2] - nd.l[2])
                                               : distancePtSegSqr2D(endPos, nd.l, nd.r, t);
      const float tie = 1e-5f * best2 + 1e-8f;
      if (d2 > best2 + tie) continue;
      float p[3];
      vlerp(p, nd.l, nd.r, t);
      float cost = -1.0f; // not needed unless tied
      if (d2 >= best2 - tie) {
        if (bestCost < 0.0f) bestCost = costAt(m_bestNode, m_bestPoint);
        cost = costAt(i, p);
        if (!(cost < bestCost)) continue;
      }
      best2 = navMin(best2, d2);
      bestCost = cost;
      m_bestNode = i;
      vcopy(m_bestPoint, p);
    }
    float pt[3];
    int parentRoot = startRoot;
    if (m_bestNode >= 0) {
      const Node& bn = m_nodes[m_bestNode];
      parentRoot = bn.root;
      vcopy(pt, m_bestPoint);
      total = bn.kind == KIND_OFFMESH ? bn.g : bn.g + costTo(m_bestNode, bn.root, pt, true, 0);
      lastNode = m_bestNode;
    } else {
      bool over = false;
      m_mesh->closestPointOnPoly(startRef, endPos, pt, &over);
      total = m_uniform ? m_unitCost * dist2(startPos, pt) : costTo(-1, startRoot, pt, false, 0);
    }
    endRoot = newRoot(pt, total, parentRoot, 0, ROOT_END);
  }
  if (m_outOfNodes) status |= OUT_OF_NODES;

  // Corner points: walk the roots back from the end.
  int k = 0;
  for (int r = endRoot; r >= 0 && k < m_maxRoots; r = m_roots[r].parent) m_scratch[k++] = r;
  int count = 0;
  for (int i = k - 1; i >= 0; --i) {
    const Root& r = m_roots[m_scratch[i]];
    uint8_t flags = 0;
    if (r.flags & ROOT_START) flags |= STRAIGHTPATH_START;
    if (r.flags & ROOT_END) flags |= STRAIGHTPATH_END;
    if (r.flags & ROOT_OFFMESH_START) flags |= STRAIGHTPATH_OFFMESH_CONNECTION;
    if (count > 0 && vequal(&straightPath[(count - 1) * 3], r.pos)) {
      // Same point again (as Detour's appendVertex): the later flags and ref win.
      if (straightPathFlags) straightPathFlags[count - 1] = flags;
      if (straightPathRefs) straightPathRefs[count - 1] = r.poly;
      continue;
    }
    if (count >= maxStraightPath) {
      status |= BUFFER_TOO_SMALL;
      break;
    }
    vcopy(&straightPath[count * 3], r.pos);
    if (straightPathFlags) straightPathFlags[count] = flags;
    if (straightPathRefs) straightPathRefs[count] = r.poly;
    ++count;
  }
  *straightPathCount = count;

  // Polygons: the node chain back from the last interval node, off-mesh connection polys included.
  if (polys) {
    k = 0;
    for (int n = lastNode; n >= 0 && k + 2 <= m_maxRoots; n = m_nodes[n].parent) {
      m_scratch[k++] = int(n);
    }
    int np = 0;
    polys[np++] = startRef;
    auto add = [&](PolyRef ref) {
      if (ref == polys[np - 1] || (status & BUFFER_TOO_SMALL && np >= maxPolys)) return;
      if (np >= maxPolys) {
        status |= BUFFER_TOO_SMALL;
        return;
      }
      polys[np++] = ref;
    };
    for (int i = k - 1; i >= 0; --i) {
      const Node& n = m_nodes[m_scratch[i]];
      if (n.via) add(n.via);
      add(n.poly);
    }
    if (goal >= 0) add(endRef);
    *polyCount = np;
  }
  if (length) *length = total;
  m_stats.nodesGenerated = m_nodeCount;
  m_stats.rootsCreated = m_rootCount;
  m_stats.slotsUsed = m_slotsUsed;
  return status;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] expansion: an interval node, a point root, off-mesh connections
// ---------------------------------------------------------------------------------------------

// A polygon whose only links lead back to `from` (and that does not hold the end) cannot be on a
// shortest path through it: Polyanya's dead-end pruning.
bool ShortestPath::deadEnd(PolyRef polyRef, const MeshTile* tile, const Poly* poly, PolyRef from) const {
  return polyRef != m_endRef && deadEndFrom(tile, poly, from);
}

// The mesh half of deadEnd (the end aside), kept in the polygon cache.
bool ShortestPath::deadEndFrom(const MeshTile* tile, const Poly* poly, PolyRef from) {
  // Two edges with neighbours (read from the polygon itself, no link walk): not a dead end. Saying
  // "not a dead end" is always safe; it only costs the nodes that pruning would have saved.
  int open = 0;
  for (int i = 0; i < poly->vertCount; ++i)
    if (poly->neis[i] != 0 && ++open >= 2) return false;
  for (uint32_t i = poly->firstLink; i != NULL_LINK; i = tile->links[i].next)
    if (tile->links[i].ref != from && tile->links[i].ref != 0) return false;
  return true;
}

NAV_SP_INLINE void ShortestPath::pushSuccessor(int parent, int root, PolyRef polyRef, const float* l, const float* r,
                                 uint64_t lkey, uint64_t rkey, const float* e0, const float* e1, float tlo,
                                 float thi) {
  if (sqr(r[0] - l[0]) + sqr(r[2] - l[2]) < kMinPiece * kMinPiece) return;
  // Dominance (uniform costs): an earlier node on the same edge into the same polygon whose root
  // reaches each point of this interval at most as cheaply makes it redundant: its root sees its
  // whole interval, and its subtree continues from any point of it. When it does so on a part of
  // this interval at one end, the interval shrinks to the rest (the new end is no mesh point, so
  // no turn is lost there: shortest paths turn at corners only).
  EdgeHead* es = nullptr;
  float lb[3], rb[3]; // the shrunk interval
  if (m_uniform && m_unitCost > 0.0f && m_dominanceAfter >= 0) {
    // Direct-mapped on (polygon, edge): lists of colliding edges share a head (each node says
    // which edge it is on), so nothing is evicted and the table never grows.
    const uint64_t h = (uint64_t(polyRef) ^ (uint64_t(uintptr_t(e0)) >> 2)) * 0x9E3779B97F4A7C15ull;
    es = &m_edgeHeads[uint32_t(h >> 40) & m_edgeMask];
    if (es->stamp != m_edgeStamp) {
      es->stamp = m_edgeStamp;
      es->head = -1;
    }
    if (m_stats.nodesExpanded >= m_dominanceAfter) {
      int walked = 0;
      for (int k = es->head; k >= 0 && walked < kMaxEdgeWalk; k = m_nodes[k].edgeNext, ++walked) {
        const Node& o = m_nodes[k];
        if (o.e0 != e0 || o.poly != polyRef || o.tlo >= thi || o.thi <= tlo) continue;
        if (o.tlo <= tlo && o.thi >= thi) {
          if (dominates(o.root, root, l, r)) {
            ++m_stats.nodesDominated;
            return;
          }
          continue;
        }
        // Overlap at one end of [tlo, thi] (o inside it would leave two pieces: kept whole).
        const bool atLo = o.tlo <= tlo;
        if (!atLo && o.thi < thi) continue;
        float cut = atLo ? o.thi : o.tlo;
        float pc[3];
        vlerp(pc, e0, e1, cut);
        if (!dominates(o.root, root, atLo ? l : pc, atLo ? pc : r)) continue;
        if (o.root != root) {
          // Keep m_lineTol (across the ray from this root) of overlap with o: the cones of two
          // roots meeting at a float point leave a gap between them far away (see the turn pieces
          // in expandNode), and undoing their overlap here would open it again.
          const float* R = m_roots[root].pos;
          const float dx = pc[0] - R[0], dz = pc[2] - R[2];
          const float across = std::fabs(dx * (e1[2] - e0[2]) - dz * (e1[0] - e0[0]));
          const float dt = across > 0.0f ? m_lineTol * std::sqrt(dx * dx + dz * dz) / across : 1.0f;
          cut = atLo ? cut - dt : cut + dt;
          if (atLo ? cut <= tlo : cut >= thi) continue; // all of it within the overlap: kept whole
          vlerp(pc, e0, e1, cut);
        }
        if (atLo) {
          vcopy(lb, pc);
          l = lb;
          tlo = cut;
          lkey = 0;
        } else {
          vcopy(rb, pc);
          r = rb;
          thi = cut;
          rkey = 0;
        }
        ++m_stats.nodesShrunk;
        if (sqr(r[0] - l[0]) + sqr(r[2] - l[2]) < kMinPiece * kMinPiece) {
          ++m_stats.nodesDominated;
          return;
        }
      }
    }
  }
  const int n = newNode();
  if (n < 0) return;
  Node& nd = m_nodes[n];
  vcopy(nd.l, l);
  vcopy(nd.r, r);
  nd.e0 = e0;
  nd.e1 = e1;
  nd.tlo = tlo;
  nd.thi = thi;
  nd.edgeNext = -1;
  if (es) {
    nd.edgeNext = es->head;
    es->head = n;
  }
  nd.root = root;
  nd.parent = parent;
  nd.poly = polyRef;
  nd.via = 0;
  nd.lkey = lkey;
  nd.rkey = rkey;
  nd.kind = KIND_INTERVAL;
  nd.g = m_roots[root].g;
  if (m_deferCount >= 0 && m_deferCount < kMaxDeferred) {
    m_deferred[m_deferCount++] = n; // expandNode decides: expand at once, or push (flushDeferred)
    return;
  }
  nd.f = nd.g + m_minCost * heuristic(m_roots[root].pos, l, r, e0, e1);
  heapPush(n);
}

// Pushes the successors expandNode collected. With lookahead on (one-shot findPath), the best of
// them stays out of the open list when it would be the very next pop anyway (strictly first among
// its siblings and against the open list's top, so the order of expansion is the heap's): it is
// left in m_lookNext for the search loop to expand at once, saving a push and a pop.
void ShortestPath::flushDeferred() {
  int best = -1;
  bool unique = true;
  for (int i = 0; i < m_deferCount; ++i) {
    Node& nd = m_nodes[m_deferred[i]];
    nd.f = nd.g + m_minCost * heuristic(m_roots[nd.root].pos, nd.l, nd.r, nd.e0, nd.e1);
    if (!m_lookahead) continue;
    if (best < 0 || nodeBefore(nd.f, nd.g, m_nodes[best].f, m_nodes[best].g)) {
      best = m_deferred[i];
      unique = true;
    } else if (!nodeBefore(m_nodes[best].f, m_nodes[best].g, nd.f, nd.g)) {
      unique = false; // a tie: leave the order to the heap
    }
  }
  if (best >= 0 && unique &&
      (m_heapSize == 0 || nodeBefore(m_nodes[best].f, m_nodes[best].g, m_heap[0].f, m_heap[0].g))) {
    m_lookNext = best;
  } else {
    best = -1;
  }
  for (int i = 0; i < m_deferCount; ++i)
    if (m_deferred[i] != best) heapPush(m_deferred[i]);
  m_deferCount = -1;
}

void ShortestPath::pushGoal(int parent, int root, const float* via, float cost) {
  const int n = newNode();
  if (n < 0) return;
  Node& nd = m_nodes[n];
  if (via) vcopy(nd.l, via);
  else vcopy(nd.l, m_endPos);
  vcopy(nd.r, m_endPos);
  nd.root = root;
  nd.parent = parent;
  nd.poly = m_endRef;
  nd.via = 0;
  nd.e0 = nd.e1 = nullptr;
  nd.lkey = via ? 1 : 0;
  nd.rkey = 0;
  nd.kind = KIND_GOAL;
  nd.g = nd.f = cost;
  heapPush(n);
}

// A root that sees the whole polygon: the start, an off-mesh landing point, or a root lying on the
// line of the interval it enters through (entryL/entryR: then that edge is not expanded back).
void ShortestPath::expandPoint(int parent, int root, PolyRef polyRef, const float* entryL, const float* entryR) {
  // Done before with this root, or with another root on the same mesh point as cheap (within
  // kSameCost: they expand alike)? A cheaper root there expands again.
  uint64_t doneKey = (uint64_t(polyRef) << 28) | uint64_t(root);
  if (const uint64_t rk = m_roots[root].key) {
    doneKey = (rk ^ (uint64_t(polyRef) * 0x9E3779B97F4A7C15ull)) & ((1ull << 61) - 1);
    doneKey |= 1ull << 61; // apart from the (poly, root index) keys
  }
  Slot* done = slot(SLOT_EXPANDED | doneKey, true);
  const float doneG = m_roots[root].g;
  if (!done || (done->state == 1 && doneG >= done->g - kSameCost * done->g)) return;
  done->state = 1;
  done->g = doneG;

  const MeshTile* tile = nullptr;
  const Poly* poly = nullptr;
  tileAndPoly(polyRef, &tile, &poly);
  const float* rootPos = m_roots[root].pos;
  const float rootG = m_roots[root].g;

  if (polyRef == m_endRef) {
    const float c = m_uniform ? m_unitCost * dist2(rootPos, m_endPos) : costTo(parent, root, m_endPos, false, 0);
    pushGoal(parent, root, nullptr, rootG + c);
    if (m_uniform) return;
  }

  const float entryLen = entryL ? dist2(entryL, entryR) : 0.0f;
  const uint32_t tileIndex = tileOf(polyRef);
  const int nv = poly->vertCount;
  for (uint32_t i = poly->firstLink; i != NULL_LINK; i = tile->links[i].next) {
    const Link& link = tile->links[i];
    if (!link.ref) continue;
    const MeshTile* ntile = nullptr;
    const Poly* npoly = nullptr;
    tileAndPoly(link.ref, &ntile, &npoly);
    if (!m_filter->passFilter(link.ref, ntile, npoly)) continue;
    if (npoly->getType() == POLYTYPE_OFFMESH_CONNECTION) {
      handleOffMesh(parent, root, polyRef, link.ref, nullptr, nullptr, true);
      continue;
    }
    if (link.edge >= nv) continue;
    if (deadEnd(link.ref, ntile, npoly, polyRef)) continue;
    const int j = link.edge;
    const float* va = &tile->verts[poly->verts[j] * 3];
    const float* vb = &tile->verts[poly->verts[(j + 1) % nv] * 3];
    if (entryL && entryLen > 0.0f && std::fabs(cross2(entryL, entryR, va)) <= m_lineTol * entryLen &&
        std::fabs(cross2(entryL, entryR, vb)) <= m_lineTol * entryLen)
      continue; // the edge we came through
    float t0, t1;
    linkRange(link, t0, t1);
    float l[3], r[3];
    vlerp(l, va, vb, t0);
    vlerp(r, va, vb, t1);
    const uint64_t k0 = t0 == 0.0f ? vertKey(tileIndex, poly->verts[j]) : partialKey(l);
    const uint64_t k1 = t1 == 1.0f ? vertKey(tileIndex, poly->verts[(j + 1) % nv]) : partialKey(r);
    pushSuccessor(parent, root, link.ref, l, r, k0, k1, va, vb, t0, t1);
  }
}

// Is the mesh point with turn key `key` (at pos, on polyRef's boundary) a corner? The cached
// answer inline; the first time per mesh generation, or for filters the cache cannot decide,
// isCornerSlow.
NAV_SP_INLINE bool ShortestPath::isCorner(uint64_t key, PolyRef polyRef, const float* pos) {
  if (key == 0) return false;
  if (key & kPartialBit) return true;
  const uint32_t cacheTile = uint32_t((key - 1) >> 16);
  if (cacheTile < m_cornerTileCount && m_cornerTiles[cacheTile].epoch == m_cornerEpoch) {
    const int idx = m_cornerTiles[cacheTile].base + int((key - 1) & 0xffff);
    const uint8_t st = m_cornerState[idx];
    if (st == 1) return true;
    if (st == 2 && m_cornerFilterFlags) {
      const uint32_t fl = m_cornerFlags[idx];
      if (((fl >> 16) & m_excludeFlags) != 0) return true;
      if ((fl & m_includeFlags) != 0) return false;
    }
  }
  return isCornerSlow(key, polyRef, pos);
}

int ShortestPath::expandNode(int n) {
  const Node& nd = m_nodes[n]; // the pool never moves; successors go to other slots
  const float* R = m_roots[nd.root].pos;
  const float rootG = nd.g;
  const PolyRef polyRef = nd.poly;
  // Side tests against the interval's line use the whole edge (e0 -> e1 runs like l -> r), which
  // stays precise when the interval is tiny.
  const float len2 = sqr(nd.e1[0] - nd.e0[0]) + sqr(nd.e1[2] - nd.e0[2]);
  const float tol2 = m_lineTol * m_lineTol * len2; // (distance tolerance * edge length)^2
  const float c = cross2(R, nd.e0, nd.e1);

  const MeshTile* tile = nullptr;
  const Poly* poly = nullptr;
  tileAndPoly(polyRef, &tile, &poly);
  const PolyRec* rec = polyRec(polyRef); // null: read the mesh
  if (!rec) ++m_stats.uncachedExpansions;
  const int nv = rec ? rec->nv : poly->vertCount; // (with a record, the polygon itself is not read)

  // Side values of the vertices against the interval's line; onLine: the vertex is on it.
  // In the same pass, the side values against the two rays of the cone (used below when the root
  // is behind the interval): a < 0 beyond root->l, b < 0 beyond root->r, both >= 0 inside.
  const float s = c > 0.0f ? 1.0f : -1.0f;
  const float lx = s * (nd.l[0] - R[0]), lz = s * (nd.l[2] - R[2]);
  const float rx = s * (nd.r[0] - R[0]), rz = s * (nd.r[2] - R[2]);
  // Bit masks per vertex (bit i = vertex i), so the edge tests below are branch-free bit tests.
  uint32_t onLine = 0, aNeg = 0, bNeg = 0, front = 0;
  const float farTol2 = 100.0f * tol2;
  const float e0x = nd.e0[0], e0z = nd.e0[2], ex = nd.e1[0] - e0x, ez = nd.e1[2] - e0z;
  // Vertex xz, 8 lanes (past nv: vertex 0), from the polygon's record or gathered here.
  alignas(16) float gx[8], gz[8]; // (a polygon without a record: gathered here)
  const float* vxs = gx;
  const float* vzs = gz;
  const uint16_t* vidx = poly->verts;
  if (rec) {
    vxs = rec->x;
    vzs = rec->z;
    vidx = rec->verts;
  } else {
    for (int i = 0; i < 8; ++i) {
      const float* v = &tile->verts[poly->verts[i < nv ? i : 0] * 3];
      gx[i] = v[0];
      gz[i] = v[2];
    }
  }
#if NAV_SP_SSE
  // Four or eight lanes in one or two SSE registers (lanes past nv repeat vertex 0 and are masked
  // off below); the same IEEE operations in the same order as the scalar loop, so the same bits.
  const int blocks = nv <= 4 ? 1 : 2;
  alignas(16) float avs[8], bvs[8];
  {
    const __m128 zero = _mm_setzero_ps();
    const __m128 vE0x = _mm_set1_ps(e0x), vE0z = _mm_set1_ps(e0z), vEx = _mm_set1_ps(ex), vEz = _mm_set1_ps(ez);
    const __m128 vRx = _mm_set1_ps(R[0]), vRz = _mm_set1_ps(R[2]);
    const __m128 vLx = _mm_set1_ps(lx), vLz = _mm_set1_ps(lz), vRrx = _mm_set1_ps(rx), vRrz = _mm_set1_ps(rz);
    const __m128 vTol2 = _mm_set1_ps(tol2), vFar = _mm_set1_ps(farTol2), vC = _mm_set1_ps(c);
    for (int h = 0; h < blocks; ++h) {
      const __m128 x = _mm_load_ps(vxs + 4 * h), z = _mm_load_ps(vzs + 4 * h);
      const __m128 svv = _mm_sub_ps(_mm_mul_ps(vEx, _mm_sub_ps(z, vE0z)), _mm_mul_ps(vEz, _mm_sub_ps(x, vE0x)));
      const __m128 q = _mm_mul_ps(svv, svv);
      const __m128 dx = _mm_sub_ps(x, vRx), dz = _mm_sub_ps(z, vRz);
      const __m128 a = _mm_sub_ps(_mm_mul_ps(vLx, dz), _mm_mul_ps(vLz, dx));
      const __m128 b = _mm_sub_ps(_mm_mul_ps(dx, vRrz), _mm_mul_ps(dz, vRrx));
      _mm_store_ps(avs + 4 * h, a);
      _mm_store_ps(bvs + 4 * h, b);
      const int sh = 4 * h;
      onLine |= uint32_t(_mm_movemask_ps(_mm_cmple_ps(q, vTol2))) << sh;
      front |= uint32_t(_mm_movemask_ps(_mm_and_ps(_mm_cmpgt_ps(_mm_mul_ps(svv, vC), zero), _mm_cmpgt_ps(q, vFar)))) << sh;
      aNeg |= uint32_t(_mm_movemask_ps(_mm_cmplt_ps(a, zero))) << sh;
      bNeg |= uint32_t(_mm_movemask_ps(_mm_cmplt_ps(b, zero))) << sh;
    }
  }
  const float* av = avs;
  const float* bv = bvs;
#else
  float av[VERTS_PER_POLYGON], bv[VERTS_PER_POLYGON];
  for (int i = 0; i < nv; ++i) {
    const float sv = ex * (vzs[i] - e0z) - ez * (vxs[i] - e0x); // cross2(e0, e1, v)
    const float q = sv * sv;
    onLine |= uint32_t(q <= tol2) << i;
    front |= uint32_t(sv * c > 0.0f && q > farTol2) << i;
    const float vx = vxs[i] - R[0], vz = vzs[i] - R[2];
    av[i] = lx * vz - lz * vx; // s * cross2(R, l, v)
    bv[i] = vx * rz - vz * rx; // s * cross2(R, v, r)
    aNeg |= uint32_t(av[i] < 0.0f) << i;
    bNeg |= uint32_t(bv[i] < 0.0f) << i;
  }
#endif
  const uint32_t all = (1u << nv) - 1;
  onLine &= all;
  aNeg &= all;
  bNeg &= all;
  // cross2(l, r, R) has the sign of c; a vertex clearly on the root's side (front) means the root
  // is not behind the interval (a tile-border portal quantised to bytes can put it a little in front).
  const bool rootBehind = (front & all) == 0; // the root is on the other side of the interval than the polygon

  // A root on the interval's line, or slightly on the polygon's side of it, is treated as on it.
  if (c * c <= tol2 || !rootBehind) {
    // The root is on the interval's line: from a point of the interval it sees the whole polygon;
    // from beyond an end it walks along the line to that end first.
    float t;
    const float d2 = distancePtSegSqr2D(R, nd.l, nd.r, t);
    if (d2 <= m_lineTol * m_lineTol || (t > 0.0f && t < 1.0f)) {
      expandPoint(n, nd.root, polyRef, nd.e0, nd.e1);
    } else {
      const bool nearL = dist2(R, nd.l) < dist2(R, nd.r);
      const float* e = nearL ? nd.l : nd.r;
      const float g = rootG + (m_uniform ? m_unitCost * dist2(R, e) : costTo(n, nd.root, e, true, 0));
      const int nr = turnRootAt(nearL ? nd.lkey : nd.rkey, e, g, nd.root, polyRef);
      if (nr >= 0) expandPoint(n, nr, polyRef, nd.e0, nd.e1);
    }
    return -1;
  }

  // The end inside: reached straight through the interval, or around one of its ends.
  if (polyRef == m_endRef) {
    const float* t = m_endPos;
    const float a = s * cross2(R, nd.l, t), b = s * cross2(R, t, nd.r);
    const float* via = a < 0.0f ? nd.l : (b < 0.0f ? nd.r : nullptr);
    float cost;
    if (m_uniform) {
      cost = via ? m_unitCost * (dist2(R, via) + dist2(via, t)) : m_unitCost * dist2(R, t);
    } else if (via) {
      float pa[3] = {via[0], 0.0f, via[2]}, pb[3] = {t[0], 0.0f, t[2]};
      const MeshTile* ct = nullptr;
      const Poly* cp = nullptr;
      tileAndPoly(polyRef, &ct, &cp);
      cost = costTo(n, nd.root, via, true, 0) +
             m_filter->getCost(pa, pb, 0, nullptr, nullptr, polyRef, ct, cp, 0, nullptr, nullptr);
    } else {
      cost = costTo(n, nd.root, t, false, 0);
    }
    pushGoal(n, nd.root, via, rootG + cost);
    if (m_uniform) return -1;
  }

  const uint32_t tileIndex = tileOf(polyRef);


  int lCorner = -1, rCorner = -1; // isCorner of l / r; -1: not asked yet
  auto corner = [&](bool left) -> bool {
    int& cc = left ? lCorner : rCorner;
    if (cc < 0) cc = isCorner(left ? nd.lkey : nd.rkey, polyRef, left ? nd.l : nd.r) ? 1 : 0;
    return cc == 1;
  };
  int lRoot = -1, rRoot = -1; // -1: not decided yet, -2: no turn there
  auto turnRoot = [&](bool left) -> int {
    int& rr = left ? lRoot : rRoot;
    if (rr != -1) return rr;
    rr = -2;
    const float* p = left ? nd.l : nd.r;
    const uint64_t key = left ? nd.lkey : nd.rkey;
    if (!corner(left)) return rr;
    const float g = rootG + (m_uniform ? m_unitCost * dist2(R, p) : costTo(n, nd.root, p, true, 0));
    const int id = turnRootAt(key, p, g, nd.root, polyRef);
    if (id >= 0) rr = id;
    return rr;
  };

  // Per edge j (vertices j, j + 1): bit j of the masks below.
  // (Masks are within `all`: bits that m << (nv - 1) pushes past the last vertex meet zeros of m.)
  const int wrap = nv - 1;
  auto bothEnds = [wrap](uint32_t m) { return m & ((m >> 1) | (m << wrap)); };
  const uint32_t aOut = bothEnds(aNeg), bOut = bothEnds(bNeg); // whole edge beyond l / r
  const uint32_t aIn = bothEnds(~aNeg & all), bIn = bothEnds(~bNeg & all);
  const uint32_t inView = aIn & bIn; // whole edge in view
  // Skipped: the entry edge; an edge wholly beyond one ray and clear of the other, with no turn at
  // that ray's end (the general split below would find the same: nothing).
  uint32_t skip = bothEnds(onLine);
  if ((aOut & bIn & ~skip) && !corner(true)) skip |= aOut & bIn;
  if ((bOut & aIn & ~skip) && !corner(false)) skip |= bOut & aIn;

  m_deferCount = 0; // successors wait in m_deferred (see the end)
  int offMeshPushed = 0;
  // The links: the polygon record's, or (a tile the cache cannot hold) read from the mesh in
  // batches of the same form.
  LinkRec batch[16];
  uint32_t nextLink = rec ? NULL_LINK : poly->firstLink;
  for (;;) {
    const LinkRec* links = batch;
    int linkCount = 0;
    if (rec) {
      links = &m_linkRecs[rec->firstLink];
      linkCount = int(rec->linkCount);
    } else {
      for (; nextLink != NULL_LINK && linkCount < 16; nextLink = tile->links[nextLink].next)
        if (tile->links[nextLink].ref) makeLinkRec(tile->links[nextLink], polyRef, nv, batch[linkCount++]);
    }
    for (int li = 0; li < linkCount; ++li) {
      const LinkRec& link = links[li];
      if (link.edge >= nv) {
        // Not an edge: a link to an off-mesh connection polygon.
        if (!(link.bits & LINK_OFFMESH) || !passLink(link)) continue;
        ++offMeshPushed;
        handleOffMesh(n, nd.root, polyRef, link.ref, nd.l, nd.r, false);
        continue;
      }
      const int j = link.edge;
      if ((skip >> j) & 1u) continue;
      const int j1 = j + 1 < nv ? j + 1 : 0;
      const float* va = &tile->verts[vidx[j] * 3];
      const float* vb = &tile->verts[vidx[j1] * 3];

      const float t0 = link.t0, t1 = link.t1;
      const float edgeLen2 = sqr(vb[0] - va[0]) + sqr(vb[2] - va[2]);
      float piece[3][2] = {{1.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 0.0f}}; // in view, beyond l, beyond r
      bool any = false;
      if ((inView >> j) & 1u) {
        // The whole edge in view (the common case): the portal itself, as the split below would give.
        if (t1 > t0 && sqr(t1 - t0) * edgeLen2 >= kMinPiece * kMinPiece) {
          piece[0][0] = t0;
          piece[0][1] = t1;
          any = true;
        }
      } else {
        // Split the edge at the two rays: [0, aHi) beyond l ... or (aLo, 1] beyond l, same for r.
        // Each "outer" range touches one end of the edge (or covers it all, or is empty).
        float aLo = 1.0f, aHi = 0.0f, bLo = 1.0f, bHi = 0.0f; // empty ranges
        auto widenTurnPiece = [this](float p, float q, float rayLen, float& lo, float& hi) {
          if ((p < 0.0f) == (q < 0.0f)) return; // all or nothing beyond the ray: no cut
          // p, q: the ends' side values, |ray| times their distance from the ray's line.
          const float dt = m_lineTol * rayLen / std::fabs(p - q);
          if (p < 0.0f) hi = navMin(1.0f, hi + dt);
          else lo = navMax(0.0f, lo - dt);
        };
        auto outer = [](float p, float q, float& lo, float& hi) {
          if (p >= 0.0f && q >= 0.0f) return;
          if (p < 0.0f && q < 0.0f) {
            lo = 0.0f;
            hi = 1.0f;
            return;
          }
          const float t = p / (p - q);
          if (p < 0.0f) {
            lo = 0.0f;
            hi = t;
          } else {
            lo = t;
            hi = 1.0f;
          }
        };
        outer(av[j], av[j1], aLo, aHi);
        outer(bv[j], bv[j1], bLo, bHi);
        float inLo = 0.0f, inHi = 1.0f;
        if (aLo <= aHi) {
          if (aLo == 0.0f) inLo = navMax(inLo, aHi);
          if (aHi == 1.0f) inHi = navMin(inHi, aLo);
        }
        if (bLo <= bHi) {
          if (bLo == 0.0f) inLo = navMax(inLo, bHi);
          if (bHi == 1.0f) inHi = navMin(inHi, bLo);
        }
        // The turn pieces reach m_lineTol (measured across the ray) into the part in view: the cone
        // of a turn at l is bounded by the ray from l through the cut, a point as close to l as
        // the edge is and rounded to float, so that ray can be turned by ~ulp / |l cut| away from
        // the line root -> l it continues. Far from l the two cones then leave a gap that neither
        // sees, and a corner in it (just hidden behind l, as on a path that turns at l by very
        // little) was lost: the path went round another way. The overlap is seen from both roots
        // (l sees all of its polygon), so it only costs a few nodes.
        widenTurnPiece(av[j], av[j1], std::sqrt(lx * lx + lz * lz), aLo, aHi);
        widenTurnPiece(bv[j], bv[j1], std::sqrt(rx * rx + rz * rz), bLo, bHi);

        // Clip the three pieces to the link's portal; only then look at the neighbour.
        const float snap2 = 4.0f * m_lineTol * m_lineTol;
        piece[0][0] = inLo;
        piece[0][1] = inHi;
        piece[1][0] = aLo;
        piece[1][1] = aHi;
        piece[2][0] = bLo;
        piece[2][1] = bHi;
        for (auto& pc : piece) {
          float lo = pc[0], hi = pc[1];
          if (lo >= hi) {
            pc[0] = 1.0f;
            pc[1] = 0.0f;
            continue;
          }
          // A ray through (numerically: next to) a portal end snaps to it, so the end keeps its turn key.
          if (sqr(lo - t0) * edgeLen2 < snap2) lo = t0;
          if (sqr(hi - t1) * edgeLen2 < snap2) hi = t1;
          lo = navMax(lo, t0);
          hi = navMin(hi, t1);
          if (hi <= lo || sqr(hi - lo) * edgeLen2 < kMinPiece * kMinPiece) {
            lo = 1.0f;
            hi = 0.0f;
          } else {
            any = true;
          }
          pc[0] = lo;
          pc[1] = hi;
        }
      }
      if (!any) continue;
      if (!passLink(link)) continue;
      if ((link.bits & LINK_DEAD_END) && link.ref != m_endRef) continue;

      uint64_t k0 = vertKey(tileIndex, vidx[j]), k1 = vertKey(tileIndex, vidx[j1]);
      if (t0 != 0.0f || t1 != 1.0f) {
        float pe[3];
        if (t0 != 0.0f) {
          vlerp(pe, va, vb, t0);
          k0 = partialKey(pe);
        }
        if (t1 != 1.0f) {
          vlerp(pe, va, vb, t1);
          k1 = partialKey(pe);
        }
      }
      const bool inViewEdge = (inView >> j) & 1u;
      for (int k = 0; k < (inViewEdge ? 1 : 3); ++k) { // (an edge in view has only the first piece)
        const float lo = piece[k][0], hi = piece[k][1];
        if (lo >= hi) continue;
        const int pieceRoot = k == 0 ? nd.root : turnRoot(k == 1);
        if (pieceRoot < 0) continue;
        float pl[3], pr[3];
        vlerp(pl, va, vb, lo);
        vlerp(pr, va, vb, hi);
        pushSuccessor(n, pieceRoot, link.ref, pl, pr, lo == t0 ? k0 : 0, hi == t1 ? k1 : 0, va, vb, lo, hi);
      }
    }
    if (rec || nextLink == NULL_LINK) break;
  }
  // Exactly one successor, with the same root, and nothing else pushed: expand it right away.
  if (m_deferCount == 1 && offMeshPushed == 0 && m_nodes[m_deferred[0]].root == nd.root) {
    m_deferCount = -1;
    m_nodes[m_deferred[0]].f = nd.f; // (for the view; a lower bound of its own f)
    return m_deferred[0];
  }
  flushDeferred();
  return -1;
}

// Does the node with root2 reach every point p of [a, b] (on an edge it covers) at most as cheaply
// as root1: g2 + |root2 p| <= g1 + |root1 p| (uniform costs)? In doubles. With D = (g2 - g1) / cost
// the points where it holds are those with |root1 p| - |root2 p| >= D: for D >= 0 the side of a
// hyperbola branch (or line) holding root2, a convex set, so both ends of [a, b] in it decide
// exactly. For D < 0 (root2 the cheaper one) a sufficient test: the triangle inequality
// (D + |root2 root1| <= 0), else |root2 p| bounded by its chord between a and b (it is convex along
// the segment) against the convex |root1 p|, their difference minimised in closed form.
bool ShortestPath::dominates(int root2, int root1, const float* a, const float* b) const {
  const Root& r2 = m_roots[root2];
  const Root& r1 = m_roots[root1];
  const double D = (double(r2.g) - double(r1.g)) / double(m_unitCost);
  const double qx = double(r1.pos[0]) - r2.pos[0], qz = double(r1.pos[2]) - r2.pos[2];
  const double q = std::sqrt(qx * qx + qz * qz);
  if (D + q <= 0.0) return true;
  if (D - q > 0.0) return false; // |r1 p| - |r2 p| <= |r1 r2| < D everywhere
  const double ax = a[0], az = a[2], dx = double(b[0]) - ax, dz = double(b[2]) - az;
  const double wx = ax - r1.pos[0], wz = az - r1.pos[2];
  const double A = std::sqrt(sqr(ax - r2.pos[0]) + sqr(az - r2.pos[2]));
  const double B = std::sqrt(sqr(double(b[0]) - r2.pos[0]) + sqr(double(b[2]) - r2.pos[2]));
  const double A1 = std::sqrt(wx * wx + wz * wz);
  const double B1 = std::sqrt(sqr(wx + dx) + sqr(wz + dz));
  if (D + A > A1 || D + B > B1) return false; // not at an end
  if (D >= 0.0) return true;
  // phi(t) = |r1 p(t)| - k t (convex) against the chord A + k t of |r2 p(t)|: min phi >= D + A?
  const double k = B - A, need = D + A;
  const double d2 = dx * dx + dz * dz, den = d2 - k * k;
  if (!(d2 > 0.0 && den > 0.0)) return true; // phi is monotone: its ends decided
  const double t0 = -(wx * dx + wz * dz) / d2;
  const double h = std::fabs(wx * dz - wz * dx) / std::sqrt(d2); // distance of r1 from the line
  const double t = t0 + k * h / (std::sqrt(d2) * std::sqrt(den));
  if (!(t > 0.0 && t < 1.0)) return true;
  return std::sqrt(sqr(wx + t * dx) + sqr(wz + t * dz)) - k * t >= need;
}

// Root-level pruning, the lazy half: a node waiting in the open list whose root sits on a mesh
// point that has since been reached more cheaply is dropped when popped. Every point it would
// reach is reached at least as cheaply through the better root (Polyanya's root-level pruning
// argument), which makes its own successors.
bool ShortestPath::staleRoot(int root) {
  const uint64_t key = m_roots[root].key;
  if (!key) return false;
  const Slot* sl = slot(SLOT_VERT | key, false);
  const float g = m_roots[root].g;
  return sl && g > sl->g + 1e-4f + 1e-5f * g;
}

// A turn at mesh point p (turn key `key`, 0 for a point that is not a mesh point) reached with
// cost g: pruned (-1) when p was reached before by a way shorter by more than pruning's tolerance;
// the earlier root record when that one is as cheap (within kSameCost; so its expansions are not
// repeated); else a new root. A way cheaper by less than the tolerance gets its own root: the
// nodes of the dearer one stay in the open list (staleRoot keeps them), but every turn reached
// through this one is reached at its own cost.
int ShortestPath::turnRootAt(uint64_t key, const float* p, float g, int parentRoot, PolyRef polyRef) {
  Slot* sl = key ? slot(SLOT_VERT | key, true) : nullptr;
  if (key && !sl) return -1;
  const float eps = 1e-4f + 1e-5f * g;
  const float same = kSameCost * g;
  if (sl) {
    if (g > sl->g + eps) return -1;
    if (sl->root >= 0 && g >= m_roots[sl->root].g - same && m_roots[sl->root].poly == polyRef) return sl->root;
  }
  const int id = newRoot(p, g, parentRoot, polyRef, ROOT_TURN);
  if (id >= 0) m_roots[id].key = key;
  if (sl && id >= 0 && (sl->root < 0 || g < m_roots[sl->root].g - same)) {
    sl->root = id;
  }
  if (sl && g < sl->g) sl->g = g;
  return id;
}

// An off-mesh connection leaving polygon fromRef: reach its start point (straight, or around an end
// of the interval l-r when given), cross it, and push a node that expands from the landing point.
void ShortestPath::handleOffMesh(int parent, int root, PolyRef fromRef, PolyRef conRef, const float* l,
                                 const float* r, bool pointRoot) {
  const MeshTile* ctile = nullptr;
  const Poly* cpoly = nullptr;
  tileAndPoly(conRef, &ctile, &cpoly);
  int startIdx = -1;
  PolyRef landRef = 0;
  for (uint32_t i = cpoly->firstLink; i != NULL_LINK; i = ctile->links[i].next)
    if (ctile->links[i].ref == fromRef && ctile->links[i].edge <= 1) startIdx = ctile->links[i].edge;
  if (startIdx < 0) return;
  for (uint32_t i = cpoly->firstLink; i != NULL_LINK; i = ctile->links[i].next)
    if (ctile->links[i].edge == 1 - startIdx) landRef = ctile->links[i].ref;
  if (!landRef || landRef == fromRef) return;
  const MeshTile* ltile = nullptr;
  const Poly* lpoly = nullptr;
  m_mesh->getTileAndPolyByRefUnsafe(landRef, &ltile, &lpoly);
  if (!m_filter->passFilter(landRef, ltile, lpoly)) return;
  const float* sp = &ctile->verts[cpoly->verts[startIdx] * 3];
  const float* ep = &ctile->verts[cpoly->verts[1 - startIdx] * 3];

  const float* R = m_roots[root].pos;
  const float rootG = m_roots[root].g;
  const float* via = nullptr;
  if (!pointRoot) {
    const float c = cross2(R, l, r);
    const float s = c > 0.0f ? 1.0f : -1.0f;
    if (s * cross2(R, l, sp) < 0.0f) via = l;
    else if (s * cross2(R, sp, r) < 0.0f) via = r;
  }
  const MeshTile* ftile = nullptr;
  const Poly* fpoly = nullptr;
  m_mesh->getTileAndPolyByRefUnsafe(fromRef, &ftile, &fpoly);
  int fromRoot = root;
  float gs;
  if (via) {
    const float gv = rootG + (m_uniform ? m_unitCost * dist2(R, via) : costTo(parent, root, via, true, 0));
    fromRoot = newRoot(via, gv, root, fromRef, ROOT_TURN);
    if (fromRoot < 0) return;
    float pa[3] = {via[0], 0.0f, via[2]}, pb[3] = {sp[0], 0.0f, sp[2]};
    gs = gv + (m_uniform ? m_unitCost * dist2(via, sp)
                         : m_filter->getCost(pa, pb, 0, nullptr, nullptr, fromRef, ftile, fpoly, conRef, ctile, cpoly));
  } else {
    gs = rootG + (m_uniform ? m_unitCost * dist2(R, sp) : costTo(parent, root, sp, false, conRef));
  }
  const float ge = gs + (m_uniform ? m_unitCost * vdist(sp, ep)
                                   : m_filter->getCost(sp, ep, fromRef, ftile, fpoly, conRef, ctile, cpoly, landRef,
                                                       ltile, lpoly));
  Slot* sl = slot(SLOT_OFFMESH | (uint64_t(conRef) << 1) | uint64_t(startIdx), true);
  if (!sl) return;
  if (ge >= sl->g - kSameCost * ge) return; // the same landing was reached as cheaply
  if (ge < sl->g) sl->g = ge;
  const int rs = newRoot(sp, gs, fromRoot, conRef, ROOT_OFFMESH_START);
  if (rs < 0) return;
  const int re = newRoot(ep, ge, rs, landRef, ROOT_OFFMESH_END);
  if (re < 0) return;
  const int n = newNode();
  if (n < 0) return;
  Node& nd = m_nodes[n];
  vcopy(nd.l, ep);
  vcopy(nd.r, ep);
  nd.root = re;
  nd.parent = parent;
  nd.poly = landRef;
  nd.via = conRef;
  nd.e0 = nd.e1 = nullptr;
  nd.lkey = nd.rkey = 0;
  nd.kind = KIND_OFFMESH;
  nd.g = ge;
  nd.f = ge + m_minCost * dist2(ep, m_endPos);
  heapPush(n);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] costs, heuristic, corners
// ---------------------------------------------------------------------------------------------

// Cost of the straight segment root -> p (without the root's g), piece by piece through the polygons
// of the chain of nodes that share this root, ending at node n. pOnInterval: p lies on n's
// interval (a turn there), so the last piece ends in n's parent polygon and n's polygon is "next";
// otherwise p is inside n's polygon (or the root's when the chain is empty) and lastNext follows.
float ShortestPath::costTo(int n, int root, const float* p, bool pOnInterval, PolyRef lastNext) {
  const float* R = m_roots[root].pos;
  if (m_uniform) return m_unitCost * dist2(R, p);
  int m = 0;
  for (int k = n; k >= 0 && m < m_maxRoots && m_nodes[k].kind == KIND_INTERVAL && m_nodes[k].root == root;
       k = m_nodes[k].parent)
    m_scratch[m++] = k;
  float a[3] = {R[0], 0.0f, R[2]};
  const float pp[3] = {p[0], 0.0f, p[2]};
  PolyRef prev = 0, cur = m_roots[root].poly;
  float total = 0.0f;
  auto piece = [&](const float* x, const float* y, PolyRef next) {
    const MeshTile *pt = nullptr, *ct = nullptr, *nt = nullptr;
    const Poly *pp2 = nullptr, *cp = nullptr, *np = nullptr;
    if (prev) m_mesh->getTileAndPolyByRefUnsafe(prev, &pt, &pp2);
    m_mesh->getTileAndPolyByRefUnsafe(cur, &ct, &cp);
    if (next) m_mesh->getTileAndPolyByRefUnsafe(next, &nt, &np);
    total += m_filter->getCost(x, y, prev, pt, pp2, cur, ct, cp, next, nt, np);
  };
  for (int i = m - 1; i >= 0; --i) {
    const Node& k = m_nodes[m_scratch[i]];
    if (i == 0 && pOnInterval) {
      piece(a, pp, k.poly);
      return total;
    }
    const float dl = cross2(k.l, k.r, R), dp = cross2(k.l, k.r, p);
    float u = std::fabs(dl - dp) > 1e-12f ? dl / (dl - dp) : 0.0f;
    u = clamp(u, 0.0f, 1.0f);
    const float x[3] = {R[0] + u * (p[0] - R[0]), 0.0f, R[2] + u * (p[2] - R[2])};
    piece(a, x, k.poly);
    vcopy(a, x);
    prev = cur;
    cur = k.poly;
  }
  piece(a, pp, lastNext);
  return total;
}

// Shortest way from root through [l, r] to the end, mirrored across the interval's line when the end
// is on the root's side (it can only come back after passing the interval). [Unit: wu]
NAV_SP_INLINE float ShortestPath::heuristic(const float* root, const float* l, const float* r, const float* e0,
                              const float* e1) const {
  const float* t = m_endPos;
  const float elen2 = sqr(e1[0] - e0[0]) + sqr(e1[2] - e0[2]);
  const float sr = cross2(e0, e1, root); // the interval's line is the edge's: precise
  if (sr * sr <= m_lineTol * m_lineTol * elen2) {
    // On the line (as expandNode decides): from a point of the interval straight on; from beyond an
    // end along the line to it first. A root across the line by nearly m_lineTol can be further
    // than that from the interval in float: its projection decides (walking to an end is no lower
    // bound there, and a node so overestimated waits behind longer ways).
    float u;
    if (distancePtSegSqr2D(root, l, r, u) <= m_lineTol * m_lineTol || (u > 0.0f && u < 1.0f))
      return dist2(root, t);
    const float* e = dist2(root, l) < dist2(root, r) ? l : r;
    return dist2(root, e) + dist2(e, t);
  }
  // The rest relative to the root: differences of nearby floats are exact, so the mirrored end keeps
  // its precision far from the origin (in world coordinates it rounds to ulp(x), 0.5 mm at 5 km, and
  // h came out as much too long: no lower bound).
  float tx = t[0] - root[0], tz = t[2] - root[2];
  const float st = cross2(e0, e1, t);
  if (sr * st > 0.0f) {
    const float dx = e1[0] - e0[0], dz = e1[2] - e0[2];
    const float ox = e0[0] - root[0], oz = e0[2] - root[2];
    const float u = ((tx - ox) * dx + (tz - oz) * dz) / (dx * dx + dz * dz);
    tx = 2.0f * (ox + u * dx) - tx;
    tz = 2.0f * (oz + u * dz) - tz;
  }
  // cross2(root, l, r) = cross2(l, r, root) (cyclic order), and l -> r runs like e0 -> e1.
  const float sc = sr > 0.0f ? 1.0f : -1.0f;
  const float lx = l[0] - root[0], lz = l[2] - root[2], rx = r[0] - root[0], rz = r[2] - root[2];
  const float a = sc * (lx * tz - lz * tx), b = sc * (tx * rz - tz * rx);
  if (a >= 0.0f && b >= 0.0f) return std::sqrt(tx * tx + tz * tz);
  if (a < 0.0f) return std::sqrt(lx * lx + lz * lz) + std::sqrt(sqr(tx - lx) + sqr(tz - lz));
  return std::sqrt(rx * rx + rz * rz) + std::sqrt(sqr(tx - rx) + sqr(tz - rz));
}

// isCorner's way when the cache has no answer yet (a vertex key, not 0, not a partial end): may a
// shortest path bend at the vertex? Yes unless walking around the vertex across links comes back
// to the first polygon (a closed fan: the vertex is inside walkable space) through polys the
// filter lets pass.
bool ShortestPath::isCornerSlow(uint64_t key, PolyRef polyRef, const float* pos) {
  // The cache first (the walk without the filter, once per mesh generation); the filter decides
  // closed fans from their polys' flags when it can.
  const uint32_t cacheTile = uint32_t((key - 1) >> 16);
  if (cacheTile < m_cornerTileCount) {
    const int base = cornerBase(cacheTile);
    if (base >= 0) {
      const int idx = base + int((key - 1) & 0xffff);
      uint8_t st = m_cornerState[idx];
      if (st == 0) {
        st = walkFan(key, polyRef, pos, nullptr, &m_cornerFlags[idx]);
        m_cornerState[idx] = st;
      }
      if (st == 1) return true;
      if (m_cornerFilterFlags) {
        // A closed fan is no corner when the filter lets every poly of it pass; when it excludes
        // one the walk below would meet it: a corner. Else (an include mask some poly may miss) ask.
        const uint32_t fl = m_cornerFlags[idx];
        if (((fl >> 16) & m_excludeFlags) != 0) return true;
        if ((fl & m_includeFlags) != 0) return false;
      }
    }
  }
  Slot* sl = slot(SLOT_VERT | key, true);
  if (!sl) return true;
  if (sl->state >= 0) return sl->state == 1;
  uint32_t flags = 0;
  const bool corner = walkFan(key, polyRef, pos, m_filter, &flags) != 2;
  sl->state = corner ? 1 : 0;
  return corner;
}

void ShortestPath::forgetCorners() {
  m_cornerUsed = 0;
  if (++m_cornerEpoch == 0) { // (once per 2^32: clear the old epochs for real)
    for (uint32_t i = 0; i < m_cornerTileCount; ++i) m_cornerTiles[i].epoch = 0;
    m_cornerEpoch = 1;
  }
}

// Where tile `tileIndex`'s vertices start in the corner cache, giving it a range (all unknown) when
// it has none in this epoch; -1 when it does not fit (then no caching for it).
int ShortestPath::cornerBase(uint32_t tileIndex) {
  CornerTile& ct = m_cornerTiles[tileIndex];
  if (ct.epoch == m_cornerEpoch) return ct.base;
  const MeshTile* tile = m_mesh->getTile(int(tileIndex));
  const int n = tile->header ? tile->header->vertCount : 0;
  if (n > m_cornerCap) return -1;
  if (m_cornerUsed + n > m_cornerCap) forgetCorners(); // full: the tiles fill again as asked
  ct.epoch = m_cornerEpoch;
  ct.base = m_cornerUsed;
  std::memset(m_cornerState + m_cornerUsed, 0, size_t(n));
  m_cornerUsed += n;
  return ct.base;
}

// Walks around the mesh point with vertex key `key` (at pos, on polyRef's boundary) across links:
// 2 when the walk comes back to polyRef (a closed fan: the vertex is inside walkable space, no
// corner), else 1 (a wall, a partial portal, an off-mesh connection, a fan of over 32 polys, or a
// poly the filter refuses when one is given). Without a filter the flags of the fan's polys go to
// flagsOut (AND | OR << 16) for the caller to apply a flag filter later. The result does not depend
// on which poly of the fan the walk starts from.
uint8_t ShortestPath::walkFan(uint64_t key, PolyRef polyRef, const float* pos, const QueryFilter* filter,
                              uint32_t* flagsOut) const {
  const MeshTile* tile = nullptr;
  const Poly* poly = nullptr;
  m_mesh->getTileAndPolyByRefUnsafe(polyRef, &tile, &poly);
  // The key names the vertex in its tile (vertKey): there compare indices, elsewhere positions.
  const uint32_t keyTile = uint32_t((key - 1) >> 16);
  const uint16_t keyVert = uint16_t((key - 1) & 0xffff);
  const MeshTile* kt = m_mesh->getTile(int(keyTile));
  auto findVert = [&](const MeshTile* t, const Poly* p) -> int {
    if (t == kt)
      for (int i = 0; i < p->vertCount; ++i)
        if (p->verts[i] == keyVert) return i;
    for (int i = 0; i < p->vertCount; ++i)
      if (samePoint2D(&t->verts[p->verts[i] * 3], pos) && std::fabs(t->verts[p->verts[i] * 3 + 1] - pos[1]) < 1.0f)
        return i;
    return -1;
  };
  int m = findVert(tile, poly);
  if (m < 0) return 1;
  uint32_t andF = 0xffff, orF = 0;
  const MeshTile* ct = tile;
  const Poly* cp = poly;
  for (int step = 0; step < 32; ++step) {
    PolyRef next = 0;
    const uint16_t nei = cp->neis[m];
    if (nei != 0 && !(nei & EXT_LINK)) // an internal edge: its one link, read from the edge code
      next = m_mesh->getPolyRefBase(ct) | PolyRef(nei - 1);
    for (uint32_t i = next ? NULL_LINK : cp->firstLink; i != NULL_LINK; i = ct->links[i].next) {
      const Link& link = ct->links[i];
      if (link.edge != m || !link.ref) continue;
      float t0, t1;
      linkRange(link, t0, t1);
      if (t0 != 0.0f) continue;
      next = link.ref;
      break;
    }
    if (!next) return 1;
    const MeshTile* nt = nullptr;
    const Poly* np = nullptr;
    m_mesh->getTileAndPolyByRefUnsafe(next, &nt, &np);
    if (np->getType() == POLYTYPE_OFFMESH_CONNECTION) return 1;
    if (filter && !filter->passFilter(next, nt, np)) return 1;
    andF &= np->flags;
    orF |= np->flags;
    const int k = findVert(nt, np);
    if (k < 0) return 1;
    if (next == polyRef) {
      *flagsOut = andF | (orF << 16);
      return 2;
    }
    ct = nt;
    cp = np;
    m = k;
  }
  return 1;
}
// ---------------------------------------------------------------------------------------------
// [SECTION] free helpers (closest-point cost model, path length)
// ---------------------------------------------------------------------------------------------

void closestPointOnPortal(const float* from, const float* left, const float* right, float* out) {
  float t;
  distancePtSegSqr2D(from, left, right, t);
  vlerp(out, left, right, t);
}

void portalPointToward(const float* from, const float* to, const float* left, const float* right, float* out) {
  // Minimise |from - x| + |x - to| over x on [left, right] (2D): mirror `to` across the portal's
  // line when it is on from's side, then cross from -> to with the line, clamped to the portal.
  const float dx = right[0] - left[0], dz = right[2] - left[2];
  const float len2 = dx * dx + dz * dz;
  if (len2 <= 0.0f) {
    vcopy(out, left);
    return;
  }
  const float sf = dx * (from[2] - left[2]) - dz * (from[0] - left[0]);
  float tx = to[0], tz = to[2];
  float st = dx * (tz - left[2]) - dz * (tx - left[0]);
  if (sf * st > 0.0f) {
    const float u = ((tx - left[0]) * dx + (tz - left[2]) * dz) / len2;
    tx = 2.0f * (left[0] + u * dx) - tx;
    tz = 2.0f * (left[2] + u * dz) - tz;
    st = -st;
  }
  float t;
  if (sf - st != 0.0f) {
    // Crossing point of from -> to' with the line, as a parameter along left -> right.
    const float k = sf / (sf - st);
    const float px = from[0] + (tx - from[0]) * k, pz = from[2] + (tz - from[2]) * k;
    t = ((px - left[0]) * dx + (pz - left[2]) * dz) / len2;
  } else {
    distancePtSegSqr2D(from, left, right, t);
  }
  t = clamp(t, 0.0f, 1.0f);
  vlerp(out, left, right, t);
}

float straightPathLength(const float* points, const uint8_t* flags, int count) {
  float len = 0.0f;
  for (int i = 0; i + 1 < count; ++i) {
    const float* a = &points[i * 3];
    const float* b = &points[(i + 1) * 3];
    if (flags && (flags[i] & STRAIGHTPATH_OFFMESH_CONNECTION)) len += vdist(a, b);
    else len += vdist2D(a, b);
  }
  return len;
}

} // namespace nav
