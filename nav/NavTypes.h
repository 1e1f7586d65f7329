// NavTypes.h: refs, status codes, limits and the tile data records of the nav runtime.
//
// The records below have the same layout as Detour 1.5.1's default build (32-bit refs, 6 verts per
// poly, tile version 7), so a tile blob made by either library can be read by the other.
// This header is plain C++17 with no dependencies.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nav {

// ---------------------------------------------------------------------------------------------
// Refs
// ---------------------------------------------------------------------------------------------

/// A polygon reference: salt | tile index | poly index, bit widths derived from the mesh params
/// (see NavMesh). 0 is the null ref.
using PolyRef = uint32_t;
/// A tile reference: a PolyRef whose poly index is 0.
using TileRef = uint32_t;

// ---------------------------------------------------------------------------------------------
// Status codes: high bits say what happened, low bits give details.
// ---------------------------------------------------------------------------------------------

using Status = uint32_t;

constexpr Status FAILURE = 1u << 31;      ///< The operation failed.
constexpr Status SUCCESS = 1u << 30;      ///< The operation succeeded.
constexpr Status IN_PROGRESS = 1u << 29;  ///< The operation is still going (sliced queries).

constexpr Status STATUS_DETAIL_MASK = 0x0ffffff;
constexpr Status WRONG_MAGIC = 1 << 0;      ///< Input data is not recognised.
constexpr Status WRONG_VERSION = 1 << 1;    ///< Input data is of a wrong version.
constexpr Status OUT_OF_MEMORY = 1 << 2;    ///< Operation ran out of memory.
constexpr Status INVALID_PARAM = 1 << 3;    ///< An input parameter was invalid.
constexpr Status BUFFER_TOO_SMALL = 1 << 4; ///< Result buffer was too small for the whole result.
constexpr Status OUT_OF_NODES = 1 << 5;     ///< The query ran out of nodes during search.
constexpr Status PARTIAL_RESULT = 1 << 6;   ///< The query did not reach the end location.
constexpr Status ALREADY_OCCUPIED = 1 << 7; ///< A tile is already at that location.

inline bool statusSucceeded(Status s) { return (s & SUCCESS) != 0; }
inline bool statusFailed(Status s) { return (s & FAILURE) != 0; }
inline bool statusInProgress(Status s) { return (s & IN_PROGRESS) != 0; }
inline bool statusDetail(Status s, Status detail) { return (s & detail) != 0; }

/// Writes a human-readable form of a status ("success | partial result") into buf (always
/// NUL-terminated when bufSize > 0). Returns buf.
const char* statusToString(Status s, char* buf, size_t bufSize);

// ---------------------------------------------------------------------------------------------
// Limits and constants (Detour 1.5.1 default build)
// ---------------------------------------------------------------------------------------------

constexpr int VERTS_PER_POLYGON = 6;          ///< Max vertices per navigation polygon.
constexpr int NAVMESH_MAGIC = 'D' << 24 | 'N' << 16 | 'A' << 8 | 'V';
constexpr int NAVMESH_VERSION = 7;
constexpr int NAVMESH_STATE_MAGIC = 'D' << 24 | 'N' << 16 | 'M' << 8 | 'S';
constexpr int NAVMESH_STATE_VERSION = 1;

constexpr uint16_t EXT_LINK = 0x8000;         ///< Neighbour code flag: the edge is a tile-border portal.
constexpr uint32_t NULL_LINK = 0xffffffff;    ///< End of a link list.
constexpr uint8_t OFFMESH_CON_BIDIR = 1;      ///< Off-mesh connection can be crossed both ways.
constexpr int MAX_AREAS = 64;                 ///< Number of user-definable areas (6 bits).

/// Detail triangle edge flag: the edge lies on the polygon boundary.
constexpr uint8_t DETAIL_EDGE_BOUNDARY = 0x01;

/// Tile flags for addTile.
enum TileFlags : int {
  TILE_FREE_DATA = 0x01, ///< The mesh owns the data and frees it (with delete[]) on removeTile.
};

/// Straight path corner flags.
enum StraightPathFlags : uint8_t {
  STRAIGHTPATH_START = 0x01,
  STRAIGHTPATH_END = 0x02,
  STRAIGHTPATH_OFFMESH_CONNECTION = 0x04,
};

/// findStraightPath options.
enum StraightPathOptions : int {
  STRAIGHTPATH_AREA_CROSSINGS = 0x01, ///< Add a vertex at every area change.
  STRAIGHTPATH_ALL_CROSSINGS = 0x02,  ///< Add a vertex at every polygon edge crossing.
};

/// findPath / initSlicedFindPath options.
enum FindPathOptions : int {
  FINDPATH_ANY_ANGLE = 0x02, ///< Use raycasts during the search to shortcut (cost changes).
  /// Second cost model (findPath only): a node sits at the point of its portal closest to its
  /// parent's position instead of the portal's midpoint, and moves when a cheaper parent is found.
  /// Not Detour's model: corridors differ from Detour's when this is set.
  FINDPATH_CLOSEST_POINT = 0x04,
};

/// raycast options.
enum RaycastOptions : int {
  RAYCAST_USE_COSTS = 0x01, ///< Compute the path cost along the ray.
};

constexpr float RAY_CAST_LIMIT_PROPORTIONS = 50.0f;

/// Polygon type: stored in the top two bits of Poly::areaAndType.
enum PolyType : uint8_t {
  POLYTYPE_GROUND = 0,
  POLYTYPE_OFFMESH_CONNECTION = 1,
};

// ---------------------------------------------------------------------------------------------
// Tile records. Layout equals Detour's (static_asserts below); a tile is one contiguous block:
// MeshHeader, verts, polys, links, detail meshes, detail verts, detail tris, BV nodes, off-mesh
// connections; each section starts on a 4-byte boundary.
// ---------------------------------------------------------------------------------------------

/// A convex polygon of a tile (or a 2-vertex off-mesh connection).
struct Poly {
  uint32_t firstLink;                ///< Index of the first link in the tile's link list, or NULL_LINK.
  uint16_t verts[VERTS_PER_POLYGON]; ///< Vertex indices into the tile's verts [Count: vertCount].
  /// Neighbour codes per edge: 0 = wall; (index + 1) of an internal neighbour;
  /// EXT_LINK | side (0..7) for a tile-border portal (EXT_LINK alone: border, no side).
  uint16_t neis[VERTS_PER_POLYGON];
  uint16_t flags;                    ///< User flags (walk, swim, door, ...).
  uint8_t vertCount;                 ///< Number of vertices [Limit: <= VERTS_PER_POLYGON].
  uint8_t areaAndType;               ///< Area id (low 6 bits) and PolyType (high 2 bits).

  void setArea(uint8_t a) { areaAndType = uint8_t((areaAndType & 0xc0) | (a & 0x3f)); }
  void setType(uint8_t t) { areaAndType = uint8_t((areaAndType & 0x3f) | (t << 6)); }
  uint8_t getArea() const { return areaAndType & 0x3f; }
  uint8_t getType() const { return areaAndType >> 6; }
};

/// Where a polygon's detail sub-mesh lives in the tile's detail arrays.
struct PolyDetail {
  uint32_t vertBase; ///< Offset of the extra vertices in detailVerts (the poly's own are not repeated).
  uint32_t triBase;  ///< Offset of the triangles in detailTris.
  uint8_t vertCount; ///< Number of extra vertices.
  uint8_t triCount;  ///< Number of triangles.
};

/// A link from a polygon edge to another polygon (internal, tile border or off-mesh).
struct Link {
  PolyRef ref;   ///< The neighbour polygon.
  uint32_t next; ///< Next link of the same polygon, or NULL_LINK.
  uint8_t edge;  ///< Edge index of the owning polygon.
  uint8_t side;  ///< Tile-border side (0..7) or 0xff for an internal link.
  uint8_t bmin;  ///< Partial portal: start of the overlap along the edge [0..255].
  uint8_t bmax;  ///< Partial portal: end of the overlap along the edge [0..255].
};

/// A bounding volume tree node with quantised bounds (tile-local, in BV units).
struct BVNode {
  uint16_t bmin[3];
  uint16_t bmax[3];
  int32_t i; ///< >= 0: poly index of a leaf; < 0: -(escape index) of an internal node.
};

/// An off-mesh connection between two points (a jump, a ladder).
struct OffMeshConnection {
  float pos[6];    ///< Start and end point [(ax, ay, az, bx, by, bz)].
  float rad;       ///< Endpoint snap radius [Unit: wu].
  uint16_t poly;   ///< Index of the connection's 2-vertex polygon in the tile.
  uint8_t flags;   ///< OFFMESH_CON_BIDIR or 0.
  uint8_t side;    ///< Side of the tile the end point is on (0..7), or 0xff inside the tile.
  uint32_t userId; ///< Id given by the level designer.
};

/// The header at the start of every tile blob.
struct MeshHeader {
  int32_t magic;          ///< NAVMESH_MAGIC.
  int32_t version;        ///< NAVMESH_VERSION.
  int32_t x;              ///< Tile x in the tile grid.
  int32_t y;              ///< Tile y (world z) in the tile grid.
  int32_t layer;          ///< Layer of the tile at (x, y).
  uint32_t userId;        ///< User id of the tile.
  int32_t polyCount;      ///< Polygons, off-mesh connection polys included.
  int32_t vertCount;      ///< Vertices, off-mesh end points included.
  int32_t maxLinkCount;   ///< Size of the link pool.
  int32_t detailMeshCount;
  int32_t detailVertCount;
  int32_t detailTriCount;
  int32_t bvNodeCount;
  int32_t offMeshConCount;
  int32_t offMeshBase;    ///< Index of the first off-mesh connection polygon.
  float walkableHeight;   ///< [Unit: wu]
  float walkableRadius;   ///< [Unit: wu]
  float walkableClimb;    ///< [Unit: wu]
  float bmin[3];          ///< Tile bounds [Unit: wu].
  float bmax[3];
  float bvQuantFactor;    ///< World to BV units: 1 / cell size.
};

static_assert(sizeof(Poly) == 32, "Poly layout must match Detour's dtPoly");
static_assert(sizeof(PolyDetail) == 12, "PolyDetail layout must match dtPolyDetail");
static_assert(sizeof(Link) == 12, "Link layout must match dtLink");
static_assert(sizeof(BVNode) == 16, "BVNode layout must match dtBVNode");
static_assert(sizeof(OffMeshConnection) == 36, "OffMeshConnection layout must match dtOffMeshConnection");
static_assert(sizeof(MeshHeader) == 100, "MeshHeader layout must match dtMeshHeader");

/// Rounds x up to a multiple of 4 (section alignment inside a tile blob).
constexpr size_t align4(size_t x) { return (x + 3) & ~size_t(3); }

/// Parameters of a tiled mesh.
struct NavMeshParams {
  float orig[3];    ///< World origin of the tile grid [Unit: wu].
  float tileWidth;  ///< Tile size along x [Unit: wu].
  float tileHeight; ///< Tile size along z [Unit: wu].
  int32_t maxTiles; ///< Max tiles; with maxPolys, fixes the ref bit split.
  int32_t maxPolys; ///< Max polys per tile.
};
static_assert(sizeof(NavMeshParams) == 28, "NavMeshParams layout must match dtNavMeshParams");

} // namespace nav
