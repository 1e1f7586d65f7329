// DetourTileSet.h: test support with Detour and the C++ standard library only (C++11, as a game's
// own code would be: the capture tests' "game" uses it). Tile sets (.bin, MSET: docs/formats.md)
// the way RecastDemo's Sample_TileMesh loads and saves them: the set header with the navmesh
// params, then each tile's ref, size and blob (loaded at its saved ref, Detour owning the blob).
#pragma once

#include "DetourAlloc.h"
#include "DetourNavMesh.h"

#include <cstdio>
#include <cstring>

namespace navtest {

/// RecastDemo's set header.
struct DetourSetHeader {
  int magic, version, numTiles;
  dtNavMeshParams params;
};
const int kDetourSetMagic = 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T';

/// The tile set at path in a new dtNavMesh (free with dtFreeNavMesh); null when it cannot be read.
inline dtNavMesh* loadDetourTileSet(const char* path) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) return 0;
  DetourSetHeader h;
  dtNavMesh* nav = 0;
  bool ok = std::fread(&h, sizeof h, 1, f) == 1 && h.magic == kDetourSetMagic &&
            h.version == 1 && h.numTiles >= 0;
  if (ok) {
    nav = dtAllocNavMesh();
    ok = nav && dtStatusSucceed(nav->init(&h.params));
  }
  for (int i = 0; ok && i < h.numTiles; ++i) {
    unsigned int ref = 0;
    int size = 0;
    ok = std::fread(&ref, 4, 1, f) == 1 && std::fread(&size, 4, 1, f) == 1 && size > 0;
    unsigned char* data = ok ? static_cast<unsigned char*>(dtAlloc(size_t(size), DT_ALLOC_PERM)) : 0;
    ok = data && std::fread(data, size_t(size), 1, f) == 1 &&
         dtStatusSucceed(nav->addTile(data, size, DT_TILE_FREE_DATA, dtTileRef(ref), 0));
    if (!ok && data) dtFree(data);
  }
  std::fclose(f);
  if (!ok) {
    dtFreeNavMesh(nav);
    return 0;
  }
  return nav;
}

/// Writes every tile nav holds, in slot order, with fwrite (RecastDemo's saveAll). False when the
/// file cannot be written.
inline bool saveDetourTileSet(const dtNavMesh& nav, const char* path) {
  std::FILE* f = std::fopen(path, "wb");
  if (!f) return false;
  DetourSetHeader h;
  h.magic = kDetourSetMagic;
  h.version = 1;
  h.numTiles = 0;
  for (int i = 0; i < nav.getMaxTiles(); ++i) {
    const dtMeshTile* tile = nav.getTile(i);
    if (tile && tile->header && tile->dataSize) h.numTiles++;
  }
  std::memcpy(&h.params, nav.getParams(), sizeof h.params);
  bool ok = std::fwrite(&h, sizeof h, 1, f) == 1;
  for (int i = 0; ok && i < nav.getMaxTiles(); ++i) {
    const dtMeshTile* tile = nav.getTile(i);
    if (!tile || !tile->header || !tile->dataSize) continue;
    const dtTileRef ref = nav.getTileRef(tile);
    ok = std::fwrite(&ref, sizeof ref, 1, f) == 1 && std::fwrite(&tile->dataSize, 4, 1, f) == 1 &&
         std::fwrite(tile->data, size_t(tile->dataSize), 1, f) == 1;
  }
  return std::fclose(f) == 0 && ok;
}

} // namespace navtest
