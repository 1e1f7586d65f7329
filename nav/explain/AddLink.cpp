// AddLink.cpp: copyWithLinks (AddLink.h). The extended blob keeps every section of the old one and
// appends to the three that hold off-mesh connections (verts, polys, offMeshCons); the link pool
// grows by 4 per link (the connection's two ends and their back links), which NavMesh::addTile
// re-initialises anyway.
#include "nav/explain/AddLink.h"

#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"

#include <cmath>
#include <cstring>
#include <map>
#include <memory>

namespace nav::explain {

namespace {

/// Which of the 8 tile sides (Detour's numbering: 0 = +x, then counter-clockwise in steps of 45
/// degrees, 6 = -z) a point outside the tile's xz bounds lies on; 0xff inside.
uint8_t sideOf(const float* p, const float* bmin, const float* bmax) {
  const bool xp = p[0] >= bmax[0], xm = p[0] < bmin[0], zp = p[2] >= bmax[2], zm = p[2] < bmin[2];
  if (xp) return zp ? 1 : zm ? 7 : 0;
  if (xm) return zp ? 3 : zm ? 5 : 4;
  if (zp) return 2;
  if (zm) return 6;
  return 0xff;
}

Status refuse(std::string* why, const char* msg, Status st = FAILURE | INVALID_PARAM) {
  if (why) *why = msg;
  return st;
}

/// The tile blob of `t` with `links` appended as off-mesh connections; null with `why`.
std::unique_ptr<uint8_t[]> extendedBlob(const MeshTile* t, const std::vector<const LinkSpec*>& links, int* size,
                                        std::string* why) {
  const MeshHeader& h = *t->header;
  const int k = int(links.size());
  MeshHeader nh = h;
  nh.vertCount += 2 * k;
  nh.polyCount += k;
  nh.offMeshConCount += k;
  nh.maxLinkCount += 4 * k;
  const TileLayout lo = tileLayout(h), nl = tileLayout(nh);
  if (nl.total > (int64_t(1) << 30)) {
    if (why) *why = "the tile is too big to extend";
    return nullptr;
  }
  std::unique_ptr<uint8_t[]> blob(new uint8_t[size_t(nl.total)]);
  std::memset(blob.get(), 0, size_t(nl.total));
  uint8_t* d = blob.get();
  std::memcpy(d + nl.header, &nh, sizeof(nh));
  std::memcpy(d + nl.verts, t->verts, sizeof(float) * 3 * size_t(h.vertCount));
  std::memcpy(d + nl.polys, t->polys, sizeof(Poly) * size_t(h.polyCount));
  std::memcpy(d + nl.detailMeshes, t->data + lo.detailMeshes,
              size_t(lo.bvTree - lo.detailMeshes)); // detail + nothing else
  std::memcpy(d + nl.bvTree, t->data + lo.bvTree, size_t(lo.offMeshCons - lo.bvTree));
  std::memcpy(d + nl.offMeshCons, t->offMeshCons, sizeof(OffMeshConnection) * size_t(h.offMeshConCount));
  float* verts = reinterpret_cast<float*>(d + nl.verts);
  Poly* polys = reinterpret_cast<Poly*>(d + nl.polys);
  OffMeshConnection* cons = reinterpret_cast<OffMeshConnection*>(d + nl.offMeshCons);
  for (int i = 0; i < k; ++i) {
    const LinkSpec& L = *links[size_t(i)];
    const int v = h.vertCount + 2 * i;
    for (int c = 0; c < 3; ++c) {
      verts[v * 3 + c] = L.start[size_t(c)];
      verts[v * 3 + 3 + c] = L.end[size_t(c)];
    }
    Poly& p = polys[h.polyCount + i];
    p = Poly();
    p.firstLink = NULL_LINK;
    p.verts[0] = uint16_t(v);
    p.verts[1] = uint16_t(v + 1);
    p.flags = L.flags;
    p.vertCount = 2;
    p.setArea(L.area);
    p.setType(POLYTYPE_OFFMESH_CONNECTION);
    OffMeshConnection& c = cons[h.offMeshConCount + i];
    for (int j = 0; j < 3; ++j) {
      c.pos[j] = L.start[size_t(j)];
      c.pos[3 + j] = L.end[size_t(j)];
    }
    c.rad = L.radius;
    c.poly = uint16_t(h.polyCount + i);
    c.flags = L.bidirectional ? OFFMESH_CON_BIDIR : 0;
    c.side = sideOf(L.end.data(), h.bmin, h.bmax);
    c.userId = 0;
  }
  *size = int(nl.total);
  return blob;
}

} // namespace

Status copyWithLinks(const NavMesh& src, const LinkSpec* links, int linkCount, NavMesh& out, std::string* why) {
  if (linkCount < 0 || (linkCount > 0 && !links)) return refuse(why, "no links given", FAILURE | INVALID_PARAM);
  // Each link's tile: the tile of the poly under its start.
  NavMeshQuery q;
  if (statusFailed(q.init(&src, 64))) return refuse(why, "cannot allocate a query", FAILURE | OUT_OF_MEMORY);
  QueryFilter all;
  std::map<int, std::vector<const LinkSpec*>> byTile; // tile slot -> links
  for (int i = 0; i < linkCount; ++i) {
    const LinkSpec& L = links[i];
    bool finite = std::isfinite(L.radius) && L.radius > 0;
    for (int c = 0; c < 3; ++c) finite = finite && std::isfinite(L.start[size_t(c)]) && std::isfinite(L.end[size_t(c)]);
    if (!finite) return refuse(why, "a link with a non-finite point or radius", FAILURE | INVALID_PARAM);
    const MeshTile* t = nullptr;
    const Poly* p = nullptr;
    PolyRef ref = 0;
    float pt[3];
    const float ext[3] = {L.radius, L.radius + 1.0f, L.radius};
    q.findNearestPoly(L.start.data(), ext, &all, &ref, pt);
    if (!ref || statusFailed(src.getTileAndPolyByRef(ref, &t, &p)))
      return refuse(why, "a link's start is on no poly", FAILURE | INVALID_PARAM);
    int ex = 0, ey = 0;
    src.calcTileLoc(L.end.data(), &ex, &ey);
    if (std::abs(ex - t->header->x) > 1 || std::abs(ey - t->header->y) > 1)
      return refuse(why, "a link's end is more than one tile from its start", FAILURE | INVALID_PARAM);
    byTile[int(src.decodePolyIdTile(ref))].push_back(&L);
  }
  NavMesh copy;
  if (statusFailed(copy.init(src.getParams(), why))) return FAILURE | INVALID_PARAM;
  for (int i = 0; i < src.getMaxTiles(); ++i) {
    const MeshTile* t = src.getTile(i);
    if (!t->header) continue;
    std::unique_ptr<uint8_t[]> blob;
    int size = 0;
    auto it = byTile.find(i);
    if (it != byTile.end()) {
      blob = extendedBlob(t, it->second, &size, why);
      if (!blob) return FAILURE | INVALID_PARAM;
    } else {
      size = t->dataSize;
      blob.reset(new uint8_t[size_t(size)]);
      std::memcpy(blob.get(), t->data, size_t(size));
    }
    const Status st = copy.addTile(blob.get(), size, TILE_FREE_DATA, src.getTileRef(t), nullptr, why);
    if (statusFailed(st)) return st;
    blob.release(); // the mesh owns it now
  }
  out.swap(copy);
  return SUCCESS;
}

} // namespace nav::explain
