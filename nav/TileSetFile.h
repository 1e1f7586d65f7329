// TileSetFile.h: RecastDemo's tile-set file format ("MSET"), read and written, so a mesh saved here
// loads in Detour-based tools and the other way round.
//
// Layout (little-endian, as RecastDemo writes it with fwrite):
//   TileSetHeader {int32 magic 'MSET', int32 version 1, int32 numTiles, NavMeshParams params (28 bytes)}
//   numTiles x { TileSetTileHeader {uint32 tileRef, int32 dataSize}, dataSize bytes of tile blob }
// Tile blobs are stored as the mesh holds them (links included); links are rebuilt on load.
#pragma once

#include "nav/NavMesh.h"

#include <string>
#include <vector>

namespace nav {

constexpr int32_t TILESET_MAGIC = 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T';
constexpr int32_t TILESET_VERSION = 1;

struct TileSetHeader {
  int32_t magic;
  int32_t version;
  int32_t numTiles;
  NavMeshParams params;
};
struct TileSetTileHeader {
  TileRef tileRef;
  int32_t dataSize;
};
static_assert(sizeof(TileSetHeader) == 40, "TileSetHeader must match RecastDemo's NavMeshSetHeader");
static_assert(sizeof(TileSetTileHeader) == 8, "TileSetTileHeader must match RecastDemo's NavMeshTileHeader");

/// Tile slots a tile-set file may ask for (its params.maxTiles) before anything is allocated:
/// max(TILESET_SLOT_FLOOR, TILESET_SLOTS_PER_TILE * numTiles). NavMesh::init allocates every slot up
/// front (~100 bytes each), and the ref bits alone allow 2^22 slots (~400 MB) from a 40-byte header.
/// The floor covers every mesh our bake and RecastDemo write (at most 2^14 slots, ~1.6 MB); above
/// it the slots must be justified by the tiles the file actually holds.
constexpr int TILESET_SLOT_FLOOR = 1 << 16;
constexpr int TILESET_SLOTS_PER_TILE = 4;

/// Loads a tile set from memory. Every tile is validated (NavMesh::validateTileData) and added at
/// the ref the file gives. A fresh mesh is built and swapped into `mesh` only when the whole set
/// loaded; on any failure `mesh` is left untouched and `why` says "<name>: tile <i> (x,y,layer):
/// <problem>". `name` labels the source in messages. Refuses (before allocating) a maxTiles beyond
/// the slot limit above and a numTiles that cannot fit in `size`.
Status loadTileSet(const uint8_t* buf, size_t size, NavMesh& mesh, std::string* why = nullptr,
                   const char* name = "<memory>");
/// Reads the file and calls loadTileSet.
Status loadTileSetFile(const std::string& path, NavMesh& mesh, std::string* why = nullptr);

/// Serialises the mesh's tiles (slot order, as RecastDemo) into `out`.
Status saveTileSet(const NavMesh& mesh, std::vector<uint8_t>& out, std::string* why = nullptr);
/// Writes the tile set atomically (nav/base/AtomicFile.h): a failed write leaves the old file.
Status saveTileSetFile(const NavMesh& mesh, const std::string& path, std::string* why = nullptr);

/// One tile of a mesh, for reports.
struct TileInfo {
  int slot;
  TileRef ref;
  int x, y, layer;
  int polys, verts, maxLinks, usedLinks, detailVerts, detailTris, bvNodes, offMeshCons;
  int bytes;
};
/// The mesh's tiles in slot order.
std::vector<TileInfo> listTiles(const NavMesh& mesh);
/// A text table of listTiles plus totals (tiles, tile bytes, mesh overhead bytes).
std::string describeTiles(const NavMesh& mesh);

} // namespace nav
