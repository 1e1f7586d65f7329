// GameMesh.h: capture test support, game side (Detour and the C++ standard library only, C++11,
// as a game's own code would be). Loads a tile set (.bin, MSET: docs/formats.md) into a
// dtNavMesh the way RecastDemo's Sample_TileMesh does: params, then each tile's blob added at its
// saved ref, Detour owning the blob.
#pragma once

#include "DetourAlloc.h"
#include "DetourNavMesh.h"

#include <cstdio>
#include <cstring>

namespace capgame {

/// The tile set at path in a new dtNavMesh (free with dtFreeNavMesh); null when it cannot be read.
inline dtNavMesh* loadTileSet(const char* path) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) return 0;
  struct SetHeader {
    int magic, version, numTiles;
    dtNavMeshParams params;
  } h;
  dtNavMesh* nav = 0;
  bool ok = std::fread(&h, sizeof h, 1, f) == 1 && h.magic == ('M' << 24 | 'S' << 16 | 'E' << 8 | 'T') &&
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

} // namespace capgame
