// DetourCopy.h: Detour's mesh from the tile blobs of a nav::NavMesh, each tile at the same ref,
// so both sides of a side-by-side benchmark answer on the very same tiles.
#pragma once

#include "nav/NavMesh.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>

#include <cstring>

namespace benchutil {

/// A new dtNavMesh (free with dtFreeNavMesh) holding copies of `m`'s tiles; null when Detour
/// refuses the params.
inline dtNavMesh* detourCopy(const nav::NavMesh& m) {
  dtNavMesh* d = dtAllocNavMesh();
  dtNavMeshParams p;
  std::memcpy(&p, &m.getParams(), sizeof p);
  if (dtStatusFailed(d->init(&p))) {
    dtFreeNavMesh(d);
    return nullptr;
  }
  for (int i = 0; i < m.getMaxTiles(); ++i) {
    const nav::MeshTile* t = m.getTile(i);
    if (!t->header) continue;
    auto* data = static_cast<unsigned char*>(dtAlloc(size_t(t->dataSize), DT_ALLOC_PERM));
    std::memcpy(data, t->data, size_t(t->dataSize));
    if (dtStatusFailed(d->addTile(data, t->dataSize, DT_TILE_FREE_DATA, m.getTileRef(t), nullptr))) dtFree(data);
  }
  return d;
}

} // namespace benchutil
