// NavDiff.cpp: see NavDiff.h.
#include "app/NavDiff.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <tuple>

namespace navbench {
namespace {

int64_t quantise(float v) { return int64_t(std::llround(double(v) / kNavPolyKeyQuantum)); }

template <class T> bool sameBytes(const T* a, const T* b, int count) {
  return count <= 0 || std::memcmp(a, b, sizeof(T) * size_t(count)) == 0;
}

/// Per mesh: the keys of each tile slot's polys, computed on first use.
class KeyCache {
public:
  explicit KeyCache(const nav::NavMesh& mesh) : m_mesh(mesh), m_keys(size_t(std::max(mesh.getMaxTiles(), 0))) {}
  const std::vector<NavPolyKey>& keys(int slot) {
    std::vector<NavPolyKey>& k = m_keys[size_t(slot)];
    const nav::MeshTile* t = m_mesh.getTile(slot);
    if (k.empty() && t->header && t->header->polyCount > 0) {
      k.resize(size_t(t->header->polyCount));
      for (int i = 0; i < t->header->polyCount; ++i) k[size_t(i)] = navPolyKey(*t, t->polys[i]);
    }
    return k;
  }
  const nav::NavMesh& mesh() const { return m_mesh; }

private:
  const nav::NavMesh& m_mesh;
  std::vector<std::vector<NavPolyKey>> m_keys;
};

/// A link as position data: owning poly index, edge, side, portal range, target by position.
struct LinkRec {
  int poly;
  int edge, side, bmin, bmax;
  NavTileKey tile;
  NavPolyKey key;
  auto tie() const { return std::tie(poly, edge, side, bmin, bmax, tile.y, tile.x, tile.layer, key); }
  bool operator<(const LinkRec& o) const { return tie() < o.tie(); }
  bool operator==(const LinkRec& o) const { return tie() == o.tie(); }
};

std::vector<LinkRec> linkRecords(KeyCache& cache, int slot) {
  const nav::NavMesh& mesh = cache.mesh();
  const nav::MeshTile& t = *mesh.getTile(slot);
  std::vector<LinkRec> out;
  const int maxLinks = t.header->maxLinkCount;
  for (int i = 0; i < t.header->polyCount; ++i) {
    int guard = 0; // a chain longer than the pool would be a corrupt mesh; never loop forever
    for (uint32_t li = t.polys[i].firstLink; li != nav::NULL_LINK && li < uint32_t(maxLinks) && guard <= maxLinks;
         li = t.links[li].next, ++guard) {
      const nav::Link& l = t.links[li];
      LinkRec r{i, l.edge, l.side, l.bmin, l.bmax, NavTileKey{}, NavPolyKey{}};
      const nav::MeshTile* tt = nullptr;
      const nav::Poly* tp = nullptr;
      if (nav::statusSucceeded(mesh.getTileAndPolyByRef(l.ref, &tt, &tp))) {
        r.tile = NavTileKey{tt->header->x, tt->header->y, tt->header->layer};
        r.key = cache.keys(int(mesh.decodePolyIdTile(l.ref)))[size_t(tp - tt->polys)];
      } else {
        r.tile = NavTileKey{-1, -1, -1};
      }
      out.push_back(r);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void centroidOf(const nav::MeshTile& t, const nav::Poly& p, float* c) {
  c[0] = c[1] = c[2] = 0;
  if (!p.vertCount) return;
  for (int k = 0; k < p.vertCount; ++k)
    for (int j = 0; j < 3; ++j) c[j] += t.verts[p.verts[k] * 3 + j];
  for (int j = 0; j < 3; ++j) c[j] /= float(p.vertCount);
}

NavPolyDiff polyRecord(const NavTileKey& key, const nav::MeshTile* ta, int ia, const nav::MeshTile* tb, int ib) {
  NavPolyDiff d;
  d.tile = key;
  d.polyA = ta ? ia : -1;
  d.polyB = tb ? ib : -1;
  const nav::MeshTile& t = tb ? *tb : *ta;
  const nav::Poly& p = t.polys[tb ? ib : ia];
  centroidOf(t, p, d.centroid);
  d.vertCount = p.vertCount;
  d.offMesh = p.getType() == nav::POLYTYPE_OFFMESH_CONNECTION;
  if (ta) {
    d.areaA = ta->polys[ia].getArea();
    d.flagsA = ta->polys[ia].flags;
  }
  if (tb) {
    d.areaB = tb->polys[ib].getArea();
    d.flagsB = tb->polys[ib].flags;
  }
  return d;
}

/// Polys of a changed tile (either may be null: a tile in one mesh only), matched by key.
void diffTilePolys(const NavTileKey& key, const nav::MeshTile* ta, KeyCache& ca, int slotA, const nav::MeshTile* tb,
                   KeyCache& cb, int slotB, NavDiffResult* out) {
  using Entry = std::pair<NavPolyKey, int>; // key, poly index: sorting pairs equal keys in index order
  std::vector<Entry> ea, eb;
  if (ta) {
    const std::vector<NavPolyKey>& k = ca.keys(slotA);
    for (size_t i = 0; i < k.size(); ++i) ea.push_back({k[i], int(i)});
  }
  if (tb) {
    const std::vector<NavPolyKey>& k = cb.keys(slotB);
    for (size_t i = 0; i < k.size(); ++i) eb.push_back({k[i], int(i)});
  }
  std::sort(ea.begin(), ea.end());
  std::sort(eb.begin(), eb.end());
  std::vector<NavPolyDiff> added, removed, changed;
  size_t i = 0, j = 0;
  while (i < ea.size() || j < eb.size()) {
    if (j == eb.size() || (i < ea.size() && ea[i].first < eb[j].first)) {
      removed.push_back(polyRecord(key, ta, ea[i].second, nullptr, 0));
      ++i;
    } else if (i == ea.size() || eb[j].first < ea[i].first) {
      added.push_back(polyRecord(key, nullptr, 0, tb, eb[j].second));
      ++j;
    } else {
      const nav::Poly& pa = ta->polys[ea[i].second];
      const nav::Poly& pb = tb->polys[eb[j].second];
      if (pa.getArea() != pb.getArea() || pa.flags != pb.flags)
        changed.push_back(polyRecord(key, ta, ea[i].second, tb, eb[j].second));
      ++i;
      ++j;
    }
  }
  auto byA = [](const NavPolyDiff& x, const NavPolyDiff& y) { return x.polyA < y.polyA; };
  auto byB = [](const NavPolyDiff& x, const NavPolyDiff& y) { return x.polyB < y.polyB; };
  std::sort(removed.begin(), removed.end(), byA);
  std::sort(changed.begin(), changed.end(), byA);
  std::sort(added.begin(), added.end(), byB);
  out->polysAdded.insert(out->polysAdded.end(), added.begin(), added.end());
  out->polysRemoved.insert(out->polysRemoved.end(), removed.begin(), removed.end());
  out->polysChanged.insert(out->polysChanged.end(), changed.begin(), changed.end());
}

std::map<NavTileKey, int> tileSlots(const nav::NavMesh& mesh, int* count) {
  std::map<NavTileKey, int> m;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (t->header) m[NavTileKey{t->header->x, t->header->y, t->header->layer}] = i;
  }
  *count = int(m.size());
  return m;
}

} // namespace

NavPolyKey navPolyKey(const nav::MeshTile& tile, const nav::Poly& poly) {
  NavPolyKey k{};
  const int n = std::min<int>(poly.vertCount, nav::VERTS_PER_POLYGON);
  k[0] = int64_t(poly.getType()) << 8 | n;
  std::array<std::array<int64_t, 3>, nav::VERTS_PER_POLYGON> v{};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) v[size_t(i)][size_t(j)] = quantise(tile.verts[poly.verts[i] * 3 + j]);
  if (poly.getType() != nav::POLYTYPE_OFFMESH_CONNECTION) std::sort(v.begin(), v.begin() + n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) k[size_t(1 + i * 3 + j)] = v[size_t(i)][size_t(j)];
  return k;
}

bool navPolyId(const nav::NavMesh& mesh, nav::PolyRef ref, NavPolyId* out) {
  const nav::MeshTile* t = nullptr;
  const nav::Poly* p = nullptr;
  if (!nav::statusSucceeded(mesh.getTileAndPolyByRef(ref, &t, &p))) return false;
  out->tile = NavTileKey{t->header->x, t->header->y, t->header->layer};
  out->key = navPolyKey(*t, *p);
  return true;
}

std::vector<NavPolyId> navPolyIds(const nav::NavMesh& mesh, const std::vector<nav::PolyRef>& refs) {
  std::vector<NavPolyId> ids(refs.size());
  for (size_t i = 0; i < refs.size(); ++i)
    if (!navPolyId(mesh, refs[i], &ids[i])) ids[i] = NavPolyId{};
  return ids;
}

const char* tileDifference(const nav::MeshTile& a, const nav::MeshTile& b) {
  const nav::MeshHeader* ha = a.header;
  const nav::MeshHeader* hb = b.header;
  if (!ha || !hb) return ha == hb ? "" : "header";
  if (std::memcmp(ha, hb, sizeof(nav::MeshHeader)) != 0) { // counts, bounds, agent: all baked
    nav::MeshHeader x = *ha;
    std::memcpy(x.bmin, hb->bmin, sizeof x.bmin);
    std::memcpy(x.bmax, hb->bmax, sizeof x.bmax);
    if (std::memcmp(&x, hb, sizeof x) == 0) return "tile bounds";
    x = *ha;
    x.maxLinkCount = hb->maxLinkCount;
    return std::memcmp(&x, hb, sizeof x) == 0 ? "link budget" : "header";
  }
  if (!sameBytes(a.verts, b.verts, ha->vertCount * 3)) return "vertices";
  for (int i = 0; i < ha->polyCount; ++i) { // all but firstLink (the link pool is rebuilt on load)
    const nav::Poly& pa = a.polys[i];
    const nav::Poly& pb = b.polys[i];
    if (std::memcmp(pa.verts, pb.verts, sizeof pa.verts) != 0 || std::memcmp(pa.neis, pb.neis, sizeof pa.neis) != 0 ||
        pa.flags != pb.flags || pa.vertCount != pb.vertCount || pa.areaAndType != pb.areaAndType)
      return "polys";
  }
  for (int i = 0; i < ha->detailMeshCount; ++i) { // field by field: PolyDetail has padding
    const nav::PolyDetail& da = a.detailMeshes[i];
    const nav::PolyDetail& db = b.detailMeshes[i];
    if (da.vertBase != db.vertBase || da.triBase != db.triBase || da.vertCount != db.vertCount ||
        da.triCount != db.triCount)
      return "detail mesh";
  }
  if (!sameBytes(a.detailVerts, b.detailVerts, ha->detailVertCount * 3) ||
      !sameBytes(a.detailTris, b.detailTris, ha->detailTriCount * 4))
    return "detail mesh";
  if (!sameBytes(a.bvTree, b.bvTree, ha->bvNodeCount)) return "BV tree";
  if (!sameBytes(a.offMeshCons, b.offMeshCons, ha->offMeshConCount)) return "off-mesh connections";
  return "";
}

bool navPolyCentroid(const nav::NavMesh& mesh, nav::PolyRef ref, float* centroid) {
  const nav::MeshTile* t = nullptr;
  const nav::Poly* p = nullptr;
  if (!nav::statusSucceeded(mesh.getTileAndPolyByRef(ref, &t, &p))) return false;
  centroidOf(*t, *p, centroid);
  return true;
}

bool diffNavMeshes(const nav::NavMesh* a, const nav::NavMesh* b, NavDiffResult* out, std::string* why) {
  if (!a || !b || !out) {
    if (why) *why = "diffNavMeshes: null mesh or result";
    return false;
  }
  *out = NavDiffResult();
  const std::map<NavTileKey, int> sa = tileSlots(*a, &out->tilesA), sb = tileSlots(*b, &out->tilesB);
  if (out->tilesA && out->tilesB) {
    const nav::NavMeshParams& pa = a->getParams();
    const nav::NavMeshParams& pb = b->getParams();
    out->gridChanged = std::memcmp(pa.orig, pb.orig, sizeof pa.orig) != 0 || pa.tileWidth != pb.tileWidth ||
                       pa.tileHeight != pb.tileHeight;
  }
  KeyCache ca(*a), cb(*b);
  auto ia = sa.begin();
  auto ib = sb.begin();
  while (ia != sa.end() || ib != sb.end()) {
    if (ib == sb.end() || (ia != sa.end() && ia->first < ib->first)) {
      out->tilesChanged.push_back(ia->first);
      diffTilePolys(ia->first, a->getTile(ia->second), ca, ia->second, nullptr, cb, 0, out);
      ++ia;
    } else if (ia == sa.end() || ib->first < ia->first) {
      out->tilesChanged.push_back(ib->first);
      diffTilePolys(ib->first, nullptr, ca, 0, b->getTile(ib->second), cb, ib->second, out);
      ++ib;
    } else {
      const nav::MeshTile* ta = a->getTile(ia->second);
      const nav::MeshTile* tb = b->getTile(ib->second);
      if (!sameTileContent(*ta, *tb)) {
        out->tilesChanged.push_back(ia->first);
        diffTilePolys(ia->first, ta, ca, ia->second, tb, cb, ib->second, out);
      } else if (linkRecords(ca, ia->second) != linkRecords(cb, ib->second)) {
        out->tilesRelinked.push_back(ia->first);
      }
      ++ia;
      ++ib;
    }
  }
  return true;
}

} // namespace navbench
