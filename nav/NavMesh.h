// NavMesh.h: a navigation mesh made of tiles of convex polygons (seeds 003, 004).
//
// Tiles are added as blobs (see TileBuilder.h for making one); the mesh links them: internal links
// from neighbour codes, external links across the 8 tile sides, off-mesh connection links. Poly refs
// are salt | tile index | poly index with the same bit split Detour derives from maxTiles and
// maxPolys, so for the same tile set a ref means the same poly in both libraries.
//
// Errors: functions return Status bits; functions that load data can also explain a refusal in
// words (the `why` out-parameter). Accessors named ...Unsafe skip all checks and are for refs that
// were already validated at the API edge.
#pragma once

#include "nav/NavMath.h"
#include "nav/NavTypes.h"

#include <string>

namespace nav {

/// A tile of the mesh. All pointers point into `data` (one block).
struct MeshTile {
  uint32_t salt;            ///< Generation counter of this tile slot.
  uint32_t linksFreeList;   ///< First free link in `links`.
  MeshHeader* header;
  Poly* polys;              ///< [Size: header->polyCount]
  float* verts;             ///< [(x, y, z) * header->vertCount]
  Link* links;              ///< [Size: header->maxLinkCount]
  PolyDetail* detailMeshes; ///< [Size: header->detailMeshCount]
  float* detailVerts;       ///< [(x, y, z) * header->detailVertCount]
  uint8_t* detailTris;      ///< [(vertA, vertB, vertC, edgeFlags) * header->detailTriCount]
  BVNode* bvTree;           ///< [Size: header->bvNodeCount]
  OffMeshConnection* offMeshCons; ///< [Size: header->offMeshConCount]
  uint8_t* data;
  int dataSize;
  int flags;                ///< TileFlags.
  MeshTile* next;           ///< Next tile in the position hash bucket or in the free list.
};

/// Byte offsets of the sections of a tile blob, from its header's counts (64-bit: absurd counts in
/// a bad file cannot overflow). `total` is the blob size the counts imply.
struct TileLayout {
  int64_t header, verts, polys, links, detailMeshes, detailVerts, detailTris, bvTree, offMeshCons, total;
};
TileLayout tileLayout(const MeshHeader& header);

/// Detail triangle edge flags of edge `edgeIndex` (0..2) packed in a detail triangle's 4th byte.
inline int getDetailTriEdgeFlags(uint8_t triFlags, int edgeIndex) { return (triFlags >> (edgeIndex * 2)) & 0x3; }

class NavMesh {
public:
  NavMesh();
  ~NavMesh();
  NavMesh(const NavMesh&) = delete;
  NavMesh& operator=(const NavMesh&) = delete;

  /// Sets up a tiled mesh. Fails with INVALID_PARAM if the params are out of range (maxTiles and
  /// maxPolys must fit 32-bit refs together with a salt of at least 10 bits, like Detour).
  Status init(const NavMeshParams& params, std::string* why = nullptr);
  /// Sets up a single-tile mesh from one tile blob (params derived from its header).
  Status init(uint8_t* data, int dataSize, int flags, std::string* why = nullptr);
  const NavMeshParams& getParams() const { return m_params; }
  /// Exchanges the whole state (tiles, params) with another mesh; refs stay valid in the new owner.
  void swap(NavMesh& other);

  /// Validates a tile blob (every count, index and range against the data size and each other),
  /// then adds and links it. `lastRef` restores a tile at a given ref (tile set loading, the file
  /// bake): that slot, with that salt, in O(1). 0 picks the first slot of the free list, the same
  /// slot Detour picks: free slots form a list that starts in slot order (a fresh mesh hands out
  /// 0, 1, 2, ...), a removed tile's slot goes to its front, and a slot taken by `lastRef` leaves
  /// it without reordering the rest. Nothing changes if the tile is refused; `why` explains it.
  Status addTile(uint8_t* data, int dataSize, int flags, TileRef lastRef, TileRef* result,
                 std::string* why = nullptr);
  /// The checks addTile makes before touching the mesh: header fields, every count against the
  /// data size, vertex/neighbour/detail/BV/off-mesh indices, the link budget, finite coordinates
  /// and (once init'ed) polyCount against maxPolys. Does not check for an occupied location.
  /// `data` must be 4-byte aligned. SUCCESS or FAILURE | WRONG_MAGIC/WRONG_VERSION/INVALID_PARAM.
  Status validateTileData(const uint8_t* data, int dataSize, std::string* why = nullptr) const;
  /// Unlinks and removes a tile, bumps its slot's salt. Hands the data back (unless the mesh owned
  /// it, in which case it is freed and *data is set to null).
  Status removeTile(TileRef ref, uint8_t** data, int* dataSize);

  /// Tile grid location of a world position.
  void calcTileLoc(const float* pos, int* tx, int* ty) const;
  const MeshTile* getTileAt(int x, int y, int layer) const;
  /// Tiles at grid location (x, y), all layers, most recently added first (as Detour).
  int getTilesAt(int x, int y, const MeshTile** tiles, int maxTiles) const;
  TileRef getTileRefAt(int x, int y, int layer) const;
  TileRef getTileRef(const MeshTile* tile) const;
  const MeshTile* getTileByRef(TileRef ref) const;
  int getMaxTiles() const { return m_maxTiles; }
  /// A value that changes (to one no mesh had before) with every change of tiles, links, poly
  /// flags or areas: init, swap, addTile, removeTile, setPolyFlags, setPolyArea. Caches derived
  /// from the mesh (ShortestPath's corner cache) compare it to know when to forget.
  uint64_t generation() const { return m_generation; }
  /// The generation() of the last setPolyFlags or setPolyArea (0: none since init): caches that
  /// depend on flags or areas but follow tile changes on their own (HierPlanner) compare it.
  uint64_t attributeGeneration() const { return m_attributeGeneration; }
  /// Tile slot i (0 <= i < getMaxTiles()); its header is null when the slot is empty.
  const MeshTile* getTile(int i) const { return &m_tiles[i]; }

  Status getTileAndPolyByRef(PolyRef ref, const MeshTile** tile, const Poly** poly) const;
  void getTileAndPolyByRefUnsafe(PolyRef ref, const MeshTile** tile, const Poly** poly) const;
  bool isValidPolyRef(PolyRef ref) const;
  PolyRef getPolyRefBase(const MeshTile* tile) const;

  /// End points of an off-mesh connection poly, ordered so that startPos is on the side of `prevRef`.
  Status getOffMeshConnectionPolyEndPoints(PolyRef prevRef, PolyRef polyRef, float* startPos, float* endPos) const;
  const OffMeshConnection* getOffMeshConnectionByRef(PolyRef ref) const;

  Status setPolyFlags(PolyRef ref, uint16_t flags);
  Status getPolyFlags(PolyRef ref, uint16_t* resultFlags) const;
  Status setPolyArea(PolyRef ref, uint8_t area);
  Status getPolyArea(PolyRef ref, uint8_t* resultArea) const;

  // Ref encoding.
  PolyRef encodePolyId(uint32_t salt, uint32_t it, uint32_t ip) const {
    return (salt << (m_polyBits + m_tileBits)) | (it << m_polyBits) | ip;
  }
  void decodePolyId(PolyRef ref, uint32_t& salt, uint32_t& it, uint32_t& ip) const {
    salt = decodePolyIdSalt(ref); it = decodePolyIdTile(ref); ip = decodePolyIdPoly(ref);
  }
  uint32_t decodePolyIdSalt(PolyRef ref) const { return (ref >> m_saltShift) & m_saltMask; }
  uint32_t decodePolyIdTile(PolyRef ref) const { return (ref >> m_polyBits) & m_tileMask; }
  uint32_t decodePolyIdPoly(PolyRef ref) const { return ref & m_polyMask; }
  uint32_t saltBits() const { return m_saltBits; }
  uint32_t tileBits() const { return m_tileBits; }
  uint32_t polyBits() const { return m_polyBits; }

  // Memory: a tile is one block.
  size_t tileBytes(const MeshTile* tile) const { return tile && tile->header ? size_t(tile->dataSize) : 0; }
  size_t totalTileBytes() const;
  /// Bytes owned by the mesh itself (tile slots and the position hash), tiles excluded.
  size_t overheadBytes() const;
  int tileCount() const;

  // ---- Geometry helpers shared with NavMeshQuery (no ref checks: callers pass valid tiles/polys).
  /// Closest point on a poly's detail surface; posOverPoly tells whether pos is above the poly.
  void closestPointOnPoly(PolyRef ref, const float* pos, float* closest, bool* posOverPoly) const;
  /// The same for a poly already decoded (tile->polys[i]).
  void closestPointOnPoly(const MeshTile* tile, const Poly* poly, const float* pos, float* closest,
                          bool* posOverPoly) const;
  /// Height of the detail surface at pos (x, z) if pos is inside the poly (2D).
  bool getPolyHeight(const MeshTile* tile, const Poly* poly, const float* pos, float* height) const;
  /// getPolyHeight's answer for a ground poly whose (x, z) the caller already found inside it with
  /// pointInPolygonIdx on the poly's vertices.
  void getPolyHeightInside(const MeshTile* tile, const Poly* poly, const float* pos, float* height) const;
  /// Polys of a tile overlapping a box (BV tree when present, else a scan of ground polys), in BV
  /// order, at most maxPolys. Like Detour, the box is clamped to the tile bounds first, and a BV tree
  /// made by buildTileData/dtCreateNavMeshData has an unused zeroed last node that reports poly 0 for
  /// boxes touching the tile's min corner (kept for identical answers; see tests DetourQuirks).
  int queryPolygonsInTile(const MeshTile* tile, const float* qmin, const float* qmax, PolyRef* polys, int maxPolys) const;
  /// Nearest poly of a tile to a point within half extents (a point over a poly within climb height
  /// counts as distance 0 vertically). 0 when none; nearestPt is only written when a poly is found.
  PolyRef findNearestPolyInTile(const MeshTile* tile, const float* center, const float* halfExtents, float* nearestPt) const;
  /// Closest point on the detail mesh boundary edges (used when pos is outside the poly).
  void closestPointOnDetailEdges(const MeshTile* tile, const Poly* poly, const float* pos, float* closest, bool onlyBoundary) const;

private:
  void release();
  // Linking (implemented in NavMesh.cpp).
  void connectIntLinks(MeshTile* tile);
  void baseOffMeshLinks(MeshTile* tile);
  void connectExtLinks(MeshTile* tile, MeshTile* target, int side);
  void connectExtOffMeshLinks(MeshTile* tile, MeshTile* target, int side);
  void unconnectLinks(MeshTile* tile, MeshTile* target);
  int getNeighbourTilesAt(int x, int y, int side, MeshTile** tiles, int maxTiles) const;
  int findConnectingPolys(const float* va, const float* vb, const MeshTile* tile, int side,
                          PolyRef* con, float* conarea, int maxcon) const;
  MeshTile* getTileAtMutable(int x, int y, int layer);
  // The free slot list (see addTile): singly linked through MeshTile::next from m_nextFree, with
  // each slot's predecessor in m_freePrev so that any slot leaves the list in O(1).
  void takeFreeSlot(MeshTile* tile);
  void pushFreeSlot(MeshTile* tile);

  NavMeshParams m_params{};
  float m_orig[3] = {0, 0, 0};
  float m_tileWidth = 0, m_tileHeight = 0;
  int m_maxTiles = 0;
  int m_tileLutSize = 0;
  int m_tileLutMask = 0;
  MeshTile** m_posLookup = nullptr;
  MeshTile* m_nextFree = nullptr;
  /// [Size: m_maxTiles] Per slot: the index of the slot before it in the free list, FREE_HEAD
  /// (-1) for the first one, SLOT_IN_USE (-2) for a slot that is not in the list.
  int* m_freePrev = nullptr;
  MeshTile* m_tiles = nullptr;
  uint32_t m_saltBits = 0, m_tileBits = 0, m_polyBits = 0;
  // From the bit counts (setRefBits), so a ref decodes with a shift and a mask (every checked
  // ref lookup decodes three fields).
  uint32_t m_saltShift = 0, m_saltMask = 0, m_tileMask = 0, m_polyMask = 0;
  void setRefBits(uint32_t saltBits, uint32_t tileBits, uint32_t polyBits) {
    m_saltBits = saltBits;
    m_tileBits = tileBits;
    m_polyBits = polyBits;
    m_saltShift = polyBits + tileBits;
    m_saltMask = (1u << saltBits) - 1;
    m_tileMask = (1u << tileBits) - 1;
    m_polyMask = (1u << polyBits) - 1;
  }
  uint64_t m_generation = 0;
  uint64_t m_attributeGeneration = 0;
  void changed(); ///< m_generation = a new value.
};

inline Status NavMesh::getTileAndPolyByRef(PolyRef ref, const MeshTile** tile, const Poly** poly) const {
  if (!ref || !m_tiles) return FAILURE;
  const uint32_t it = decodePolyIdTile(ref);
  if (it >= uint32_t(m_maxTiles)) return FAILURE | INVALID_PARAM;
  const MeshTile& t = m_tiles[it];
  if (t.salt != decodePolyIdSalt(ref) || !t.header) return FAILURE | INVALID_PARAM;
  const uint32_t ip = decodePolyIdPoly(ref);
  if (ip >= uint32_t(t.header->polyCount)) return FAILURE | INVALID_PARAM;
  *tile = &t;
  *poly = &t.polys[ip];
  return SUCCESS;
}

inline bool NavMesh::isValidPolyRef(PolyRef ref) const {
  if (!ref || !m_tiles) return false;
  const uint32_t it = decodePolyIdTile(ref);
  if (it >= uint32_t(m_maxTiles)) return false;
  const MeshTile& t = m_tiles[it];
  return t.salt == decodePolyIdSalt(ref) && t.header && decodePolyIdPoly(ref) < uint32_t(t.header->polyCount);
}

inline PolyRef NavMesh::getPolyRefBase(const MeshTile* tile) const {
  if (!tile) return 0;
  const uint32_t it = uint32_t(tile - m_tiles);
  return encodePolyId(tile->salt, it, 0);
}

inline void NavMesh::getTileAndPolyByRefUnsafe(PolyRef ref, const MeshTile** tile, const Poly** poly) const {
  const uint32_t it = decodePolyIdTile(ref);
  const uint32_t ip = decodePolyIdPoly(ref);
  *tile = &m_tiles[it];
  *poly = &m_tiles[it].polys[ip];
}

/// The box [qmin, qmax] clamped to the tile's bounds and quantised into its BV tree's space,
/// rounded outwards (min even, max odd), for overlapQuantBounds against BVNode boxes.
/// Shared by NavMesh's and NavMeshQuery's tile queries. [Unit: qmin/qmax wu, bmin/bmax BV units]
void quantizeQueryBox(const MeshHeader* header, const float* qmin, const float* qmax, uint16_t* bmin, uint16_t* bmax);

/// Bounds of a ground poly's vertices (the tile query's test when a tile has no BV tree). [Unit: wu]
void polyBounds(const MeshTile* tile, const Poly* poly, float* bmin, float* bmax);

/// The nearest-poly distance of a candidate: closest = its closest point to center. Directly over
/// the poly (posOverPoly) only the height beyond the tile's walkable climb counts (0 within it), so
/// a poly under the point beats a nearer one beside it; otherwise the squared 3D distance.
/// [Unit: wu^2]
inline float nearestPolyDistSqr(const MeshHeader* header, const float* center, const float* closest, bool posOverPoly) {
  float diff[3];
  vsub(diff, center, closest);
  if (posOverPoly) {
    const float d = navAbs(diff[1]) - header->walkableClimb;
    return d > 0 ? d * d : 0;
  }
  return vlenSqr(diff);
}

/// Hash of a tile grid location (for the position lookup).
inline int computeTileHash(int x, int y, int mask) {
  const uint32_t h1 = 0x8da6b343; // Large multiplicative constants;
  const uint32_t h2 = 0xd8163841; // here arbitrarily chosen primes
  uint32_t n = h1 * uint32_t(x) + h2 * uint32_t(y);
  return int(n & uint32_t(mask));
}

} // namespace nav
