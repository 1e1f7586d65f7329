// DetourBridge.h: the oracle side of the differential tests: our build params -> Detour's
// (tests/support/DetourTile.h), Detour tile sets in memory (RecastDemo's MSET format, written and
// read with Detour only), and a slot-by-slot comparison of a nav::NavMesh with a dtNavMesh.
#pragma once

#include "nav/NavMesh.h"
#include "nav/TileBuilder.h"
#include "tests/support/DetourTile.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace navtest {

/// Name of the tile-blob section holding byte `off` (from the blob's own header).
inline std::string blobSection(const uint8_t* blob, size_t off) {
  const dtMeshHeader* h = reinterpret_cast<const dtMeshHeader*>(blob);
  auto a4 = [](size_t x) { return (x + 3) & ~size_t(3); };
  size_t o = 0;
  const std::pair<const char*, size_t> secs[] = {
      {"header", a4(sizeof(dtMeshHeader))},
      {"verts", a4(12 * size_t(h->vertCount))},
      {"polys", a4(sizeof(dtPoly) * size_t(h->polyCount))},
      {"links", a4(sizeof(dtLink) * size_t(h->maxLinkCount))},
      {"detailMeshes", a4(sizeof(dtPolyDetail) * size_t(h->detailMeshCount))},
      {"detailVerts", a4(12 * size_t(h->detailVertCount))},
      {"detailTris", a4(4 * size_t(h->detailTriCount))},
      {"bvTree", a4(sizeof(dtBVNode) * size_t(h->bvNodeCount))},
      {"offMeshCons", a4(sizeof(dtOffMeshConnection) * size_t(h->offMeshConCount))}};
  for (const auto& s : secs) {
    if (off < o + s.second) return std::string(s.first) + " +" + std::to_string(off - o);
    o += s.second;
  }
  return "past the end";
}

/// "" when equal, else where the first difference is.
inline std::string compareBlobs(const uint8_t* a, size_t na, const uint8_t* b, size_t nb) {
  if (na != nb) return "sizes differ: " + std::to_string(na) + " vs " + std::to_string(nb);
  for (size_t i = 0; i < na; ++i)
    if (a[i] != b[i])
      return "first difference at byte " + std::to_string(i) + " (" + blobSection(a, i) + "): " +
             std::to_string(a[i]) + " vs " + std::to_string(b[i]);
  return "";
}

/// Every slot: occupancy, salt, ref, data bytes (links and all), link free list, and each poly's
/// link list (ref, edge, side, bmin, bmax in order). "" when the meshes agree.
inline std::string compareMeshes(const nav::NavMesh& ours, const dtNavMesh& theirs) {
  if (ours.getMaxTiles() != theirs.getMaxTiles()) return "maxTiles differ";
  for (int i = 0; i < ours.getMaxTiles(); ++i) {
    const nav::MeshTile* a = ours.getTile(i);
    const dtMeshTile* b = theirs.getTile(i);
    const std::string at = "slot " + std::to_string(i) + ": ";
    if ((a->header != nullptr) != (b->header != nullptr)) return at + "occupancy differs";
    if (a->salt != b->salt) return at + "salt " + std::to_string(a->salt) + " vs " + std::to_string(b->salt);
    if (!a->header) continue;
    if (ours.getTileRef(a) != theirs.getTileRef(b)) return at + "tile ref differs";
    if (a->linksFreeList != b->linksFreeList) return at + "link free list head differs";
    for (int p = 0; p < a->header->polyCount; ++p) {
      uint32_t la = a->polys[p].firstLink, lb = b->polys[p].firstLink;
      int n = 0;
      while (la != nav::NULL_LINK || lb != DT_NULL_LINK) {
        const std::string lat = at + "poly " + std::to_string(p) + " link #" + std::to_string(n) + ": ";
        if (la == nav::NULL_LINK || lb == DT_NULL_LINK) return lat + "list lengths differ";
        const nav::Link& x = a->links[la];
        const dtLink& y = b->links[lb];
        if (x.ref != y.ref) return lat + "target " + std::to_string(x.ref) + " vs " + std::to_string(y.ref);
        if (x.edge != y.edge) return lat + "edge differs";
        if (x.side != y.side) return lat + "side differs";
        if (x.bmin != y.bmin || x.bmax != y.bmax)
          return lat + "portal range " + std::to_string(x.bmin) + ".." + std::to_string(x.bmax) + " vs " +
                 std::to_string(y.bmin) + ".." + std::to_string(y.bmax);
        if (la != lb) return lat + "link slot differs";
        la = x.next;
        lb = y.next;
        ++n;
      }
    }
    const std::string d = compareBlobs(a->data, size_t(a->dataSize), b->data, size_t(b->dataSize));
    if (!d.empty()) return at + d;
  }
  return "";
}

struct DtMeshDeleter {
  void operator()(dtNavMesh* m) const { dtFreeNavMesh(m); }
};
using DtMeshPtr = std::unique_ptr<dtNavMesh, DtMeshDeleter>;

// RecastDemo's MSET layout, handled with Detour only (the test's independent reader/writer).
struct DtSetHeader {
  int magic, version, numTiles;
  dtNavMeshParams params;
};
struct DtTileHeader {
  dtTileRef tileRef;
  int dataSize;
};
constexpr int DT_MSET_MAGIC = 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T';

inline std::vector<uint8_t> detourSaveAll(const dtNavMesh& mesh) {
  DtSetHeader h;
  h.magic = DT_MSET_MAGIC;
  h.version = 1;
  h.numTiles = 0;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const dtMeshTile* t = mesh.getTile(i);
    if (t && t->header && t->dataSize) h.numTiles++;
  }
  std::memcpy(&h.params, mesh.getParams(), sizeof(dtNavMeshParams));
  std::vector<uint8_t> out(reinterpret_cast<uint8_t*>(&h), reinterpret_cast<uint8_t*>(&h) + sizeof h);
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const dtMeshTile* t = mesh.getTile(i);
    if (!t || !t->header || !t->dataSize) continue;
    DtTileHeader th;
    th.tileRef = mesh.getTileRef(t);
    th.dataSize = t->dataSize;
    out.insert(out.end(), reinterpret_cast<uint8_t*>(&th), reinterpret_cast<uint8_t*>(&th) + sizeof th);
    out.insert(out.end(), t->data, t->data + t->dataSize);
  }
  return out;
}

/// RecastDemo's loadAll on a memory buffer (null on any failure).
inline DtMeshPtr detourLoadAll(const std::vector<uint8_t>& buf) {
  if (buf.size() < sizeof(DtSetHeader)) return nullptr;
  DtSetHeader h;
  std::memcpy(&h, buf.data(), sizeof h);
  if (h.magic != DT_MSET_MAGIC || h.version != 1) return nullptr;
  DtMeshPtr mesh(dtAllocNavMesh());
  if (dtStatusFailed(mesh->init(&h.params))) return nullptr;
  size_t pos = sizeof h;
  for (int i = 0; i < h.numTiles; ++i) {
    if (buf.size() - pos < sizeof(DtTileHeader)) return nullptr;
    DtTileHeader th;
    std::memcpy(&th, buf.data() + pos, sizeof th);
    pos += sizeof th;
    if (!th.tileRef || !th.dataSize || buf.size() - pos < size_t(th.dataSize)) return nullptr;
    unsigned char* data = static_cast<unsigned char*>(dtAlloc(size_t(th.dataSize), DT_ALLOC_PERM));
    std::memcpy(data, buf.data() + pos, size_t(th.dataSize));
    pos += size_t(th.dataSize);
    if (dtStatusFailed(mesh->addTile(data, th.dataSize, DT_TILE_FREE_DATA, th.tileRef, nullptr))) {
      dtFree(data);
      return nullptr;
    }
  }
  return mesh;
}

} // namespace navtest
