// TileBuilder.cpp: polygon-mesh arrays -> one tile blob (seed 004).
//
// The blob has the layout of NavTypes.h and, for the same input, the same bytes as Detour's
// dtCreateNavMeshData (tests compare them): same section sizes, same link budget, same off-mesh
// classification, same fan triangulation when no detail mesh is given, and the same BV tree (split
// on the longest axis, items ordered by a stable sort of their minimum on that axis).
#include "nav/TileBuilder.h"

#include "nav/NavMath.h"

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

namespace nav {

namespace {

bool fail(std::string* why, const char* msg, long long a = 0, long long b = 0, long long c = 0) {
  if (why) {
    char buf[256];
    std::snprintf(buf, sizeof buf, msg, a, b, c);
    *why = buf;
  }
  return false;
}

// Side (0..7) of a point outside the box in xz, or 0xff when inside (max edges exclusive).
uint8_t classifyOffMeshPoint(const float* pt, const float* bmin, const float* bmax) {
  constexpr uint8_t XP = 1 << 0, ZP = 1 << 1, XM = 1 << 2, ZM = 1 << 3;
  uint8_t outcode = 0;
  outcode |= (pt[0] >= bmax[0]) ? XP : 0;
  outcode |= (pt[2] >= bmax[2]) ? ZP : 0;
  outcode |= (pt[0] < bmin[0]) ? XM : 0;
  outcode |= (pt[2] < bmin[2]) ? ZM : 0;
  switch (outcode) {
  case XP: return 0;
  case XP | ZP: return 1;
  case ZP: return 2;
  case XM | ZP: return 3;
  case XM: return 4;
  case XM | ZM: return 5;
  case ZM: return 6;
  case XP | ZM: return 7;
  default: return 0xff;
  }
}

struct BVItem {
  uint16_t bmin[3];
  uint16_t bmax[3];
  int i;
};

void calcExtends(const BVItem* items, int imin, int imax, uint16_t* bmin, uint16_t* bmax) {
  for (int k = 0; k < 3; ++k) {
    bmin[k] = items[imin].bmin[k];
    bmax[k] = items[imin].bmax[k];
  }
  for (int i = imin + 1; i < imax; ++i) {
    for (int k = 0; k < 3; ++k) {
      if (items[i].bmin[k] < bmin[k]) bmin[k] = items[i].bmin[k];
      if (items[i].bmax[k] > bmax[k]) bmax[k] = items[i].bmax[k];
    }
  }
}

int longestAxis(uint16_t x, uint16_t y, uint16_t z) {
  int axis = 0;
  uint16_t maxVal = x;
  if (y > maxVal) { axis = 1; maxVal = y; }
  if (z > maxVal) axis = 2;
  return axis;
}

// Depth-first layout: a node, then its left subtree, then its right; an internal node stores
// -(size of its subtree) so a query can skip it.
void subdivide(BVItem* items, int imin, int imax, int& curNode, BVNode* nodes) {
  const int inum = imax - imin;
  const int icur = curNode;
  BVNode& node = nodes[curNode++];
  if (inum == 1) {
    for (int k = 0; k < 3; ++k) {
      node.bmin[k] = items[imin].bmin[k];
      node.bmax[k] = items[imin].bmax[k];
    }
    node.i = items[imin].i;
    return;
  }
  calcExtends(items, imin, imax, node.bmin, node.bmax);
  const int axis = longestAxis(uint16_t(node.bmax[0] - node.bmin[0]), uint16_t(node.bmax[1] - node.bmin[1]),
                               uint16_t(node.bmax[2] - node.bmin[2]));
  std::stable_sort(items + imin, items + imax,
                   [axis](const BVItem& a, const BVItem& b) { return a.bmin[axis] < b.bmin[axis]; });
  const int isplit = imin + inum / 2;
  subdivide(items, imin, isplit, curNode, nodes);
  subdivide(items, isplit, imax, curNode, nodes);
  node.i = -(curNode - icur);
}

uint16_t quantClamp(float v) { return uint16_t(clamp(int(v), 0, 0xffff)); }

void createBVTree(const TileBuildParams& params, BVNode* nodes) {
  const float quantFactor = 1 / params.cs;
  std::vector<BVItem> items(size_t(params.polyCount));
  for (int i = 0; i < params.polyCount; i++) {
    BVItem& it = items[size_t(i)];
    it.i = i;
    if (params.detailMeshes) {
      // Bounds of the detail sub-mesh (it includes the poly's own vertices), in cell-size units on
      // every axis.
      const int vb = int(params.detailMeshes[i * 4 + 0]);
      const int ndv = int(params.detailMeshes[i * 4 + 1]);
      const float* dv = &params.detailVerts[vb * 3];
      float bmin[3], bmax[3];
      vcopy(bmin, dv);
      vcopy(bmax, dv);
      for (int j = 1; j < ndv; j++) {
        vmin(bmin, &dv[j * 3]);
        vmax(bmax, &dv[j * 3]);
      }
      for (int k = 0; k < 3; ++k) {
        it.bmin[k] = quantClamp((bmin[k] - params.bmin[k]) * quantFactor);
        it.bmax[k] = quantClamp((bmax[k] - params.bmin[k]) * quantFactor);
      }
    } else {
      const uint16_t* p = &params.polys[i * params.nvp * 2];
      for (int k = 0; k < 3; ++k) it.bmin[k] = it.bmax[k] = params.verts[p[0] * 3 + k];
      for (int j = 1; j < params.nvp; ++j) {
        if (p[j] == MESH_NULL_IDX) break;
        for (int k = 0; k < 3; ++k) {
          const uint16_t v = params.verts[p[j] * 3 + k];
          if (v < it.bmin[k]) it.bmin[k] = v;
          if (v > it.bmax[k]) it.bmax[k] = v;
        }
      }
      // y from cell heights to cell sizes.
      it.bmin[1] = uint16_t(std::floor(float(it.bmin[1]) * params.ch / params.cs));
      it.bmax[1] = uint16_t(std::ceil(float(it.bmax[1]) * params.ch / params.cs));
    }
  }
  int curNode = 0;
  if (params.polyCount > 0) subdivide(items.data(), 0, params.polyCount, curNode, nodes);
}

int polyVertCount(const uint16_t* p, int nvp) {
  int nv = 0;
  for (int j = 0; j < nvp; ++j) {
    if (p[j] == MESH_NULL_IDX) break;
    nv++;
  }
  return nv;
}

// What one pass over the polygons learns for the blob's layout.
struct PolyCounts {
  int edges = 0;         // edges of all polys
  int portals = 0;       // tile-border edges with a portal side
  int fanTris = 0;       // sum of (nv - 2)
  int extraDetail = 0;   // detail vertices beyond the polys' own
};

bool checkInput(const TileBuildParams& p, PolyCounts& counts, std::string* why) {
  if (p.nvp < 3 || p.nvp > VERTS_PER_POLYGON) return fail(why, "nvp %lld not in 3..6", p.nvp);
  if (!p.verts || p.vertCount <= 0) return fail(why, "no vertices");
  if (p.vertCount >= 0xffff) return fail(why, "%lld vertices do not fit 16-bit indices", p.vertCount);
  if (!p.polys || p.polyCount <= 0) return fail(why, "no polygons");
  if (!p.polyFlags || !p.polyAreas) return fail(why, "poly flags or areas missing");
  if (!(p.cs > 0) || !(p.ch > 0) || !std::isfinite(p.cs) || !std::isfinite(p.ch))
    return fail(why, "cell size and height must be positive");
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(p.bmin[k]) || !std::isfinite(p.bmax[k]) || p.bmin[k] > p.bmax[k])
      return fail(why, "bounds axis %lld not finite or inverted", k);
  const int64_t maxPolys = (int64_t(1) << 16); // off-mesh poly indices are 16-bit
  if (int64_t(p.polyCount) + p.offMeshConCount > maxPolys) return fail(why, "too many polygons (%lld)", p.polyCount);
  for (int i = 0; i < p.polyCount; ++i) {
    const uint16_t* src = &p.polys[i * 2 * p.nvp];
    const int nv = polyVertCount(src, p.nvp);
    if (nv < 3) return fail(why, "poly %lld has %lld vertices (< 3)", i, nv);
    counts.edges += nv;
    counts.fanTris += nv - 2;
    for (int j = 0; j < nv; ++j)
      if (src[j] >= p.vertCount) return fail(why, "poly %lld vertex %lld index %lld >= vertCount", i, j, src[j]);
    for (int j = 0; j < nv; ++j) {
      const uint16_t n = src[p.nvp + j];
      if (!(n & 0x8000) && n >= p.polyCount) return fail(why, "poly %lld edge %lld neighbour %lld >= polyCount", i, j, n);
      if ((n & 0x8000) && (n & 0xf) != 0xf) counts.portals++;
    }
    if (p.detailMeshes) {
      const uint32_t* dm = &p.detailMeshes[i * 4];
      if (dm[1] < uint32_t(nv)) return fail(why, "poly %lld detail mesh has fewer verts than the poly", i);
      counts.extraDetail += int(dm[1]) - nv;
      if (dm[1] - uint32_t(nv) > 255 || dm[3] == 0 || dm[3] > 255)
        return fail(why, "poly %lld detail mesh counts out of range", i);
      if (int64_t(dm[0]) + dm[1] > p.detailVertsCount) return fail(why, "poly %lld detail verts out of range", i);
      if (int64_t(dm[2]) + dm[3] > p.detailTriCount) return fail(why, "poly %lld detail tris out of range", i);
      for (uint32_t t = 0; t < dm[3]; ++t)
        for (int k = 0; k < 3; ++k)
          if (p.detailTris[(dm[2] + t) * 4 + k] >= dm[1])
            return fail(why, "poly %lld detail tri %lld names vertex %lld beyond the sub-mesh", i, t,
                        p.detailTris[(dm[2] + t) * 4 + k]);
    }
  }
  if (p.detailMeshes && (!p.detailVerts || !p.detailTris)) return fail(why, "detail verts or tris missing");
  if (p.offMeshConCount < 0) return fail(why, "negative off-mesh connection count");
  if (int64_t(p.vertCount) + 2 * int64_t(p.offMeshConCount) > 0xffff)
    return fail(why, "%lld vertices + 2 per off-mesh connection do not fit 16-bit indices", p.vertCount);
  if (p.offMeshConCount > 0 &&
      (!p.offMeshConVerts || !p.offMeshConRad || !p.offMeshConFlags || !p.offMeshConAreas || !p.offMeshConDir))
    return fail(why, "off-mesh connection arrays missing");
  return true;
}

} // namespace

bool buildTileData(const TileBuildParams& params, uint8_t** outData, int* outDataSize, std::string* why) {
  if (!outData || !outDataSize) return fail(why, "no output pointers");
  *outData = nullptr;
  *outDataSize = 0;
  PolyCounts counts;
  if (!checkInput(params, counts, why)) return false;
  const int nvp = params.nvp;

  // Off-mesh connections: classify both ends against the tile box (y: the mesh's height range
  // widened by the climb). Only connections starting inside are stored here; each stored start
  // and each end landing inside needs two links.
  std::vector<uint8_t> offMeshConClass(size_t(params.offMeshConCount) * 2);
  int storedOffMeshConCount = 0;
  int offMeshConLinkCount = 0;
  if (params.offMeshConCount > 0) {
    float hmin = FLT_MAX, hmax = -FLT_MAX;
    if (params.detailVerts && params.detailVertsCount) {
      for (int i = 0; i < params.detailVertsCount; ++i) {
        const float h = params.detailVerts[i * 3 + 1];
        hmin = navMin(hmin, h);
        hmax = navMax(hmax, h);
      }
    } else {
      for (int i = 0; i < params.vertCount; ++i) {
        const float h = params.bmin[1] + params.verts[i * 3 + 1] * params.ch;
        hmin = navMin(hmin, h);
        hmax = navMax(hmax, h);
      }
    }
    hmin -= params.walkableClimb;
    hmax += params.walkableClimb;
    float bmin[3], bmax[3];
    vcopy(bmin, params.bmin);
    vcopy(bmax, params.bmax);
    bmin[1] = hmin;
    bmax[1] = hmax;
    for (int i = 0; i < params.offMeshConCount; ++i) {
      const float* p0 = &params.offMeshConVerts[(i * 2 + 0) * 3];
      const float* p1 = &params.offMeshConVerts[(i * 2 + 1) * 3];
      uint8_t& c0 = offMeshConClass[size_t(i) * 2 + 0];
      uint8_t& c1 = offMeshConClass[size_t(i) * 2 + 1];
      c0 = classifyOffMeshPoint(p0, bmin, bmax);
      c1 = classifyOffMeshPoint(p1, bmin, bmax);
      // A start above or below the mesh cannot touch it.
      if (c0 == 0xff && (p0[1] < bmin[1] || p0[1] > bmax[1])) c0 = 0;
      if (c0 == 0xff) offMeshConLinkCount++;
      if (c1 == 0xff) offMeshConLinkCount++;
      if (c0 == 0xff) storedOffMeshConCount++;
    }
  }

  const int totPolyCount = params.polyCount + storedOffMeshConCount;
  const int totVertCount = params.vertCount + storedOffMeshConCount * 2;

  // Link budget: one per edge, two per tile-border portal edge, two per off-mesh end inside.
  const int maxLinkCount = counts.edges + counts.portals * 2 + offMeshConLinkCount * 2;

  // Detail mesh size: the poly's own vertices are not repeated; without a detail mesh, a fan.
  const int uniqueDetailVertCount = params.detailMeshes ? counts.extraDetail : 0;
  const int detailTriCount = params.detailMeshes ? params.detailTriCount : counts.fanTris;

  const int headerSize = int(align4(sizeof(MeshHeader)));
  const int vertsSize = int(align4(sizeof(float) * 3 * size_t(totVertCount)));
  const int polysSize = int(align4(sizeof(Poly) * size_t(totPolyCount)));
  const int linksSize = int(align4(sizeof(Link) * size_t(maxLinkCount)));
  const int detailMeshesSize = int(align4(sizeof(PolyDetail) * size_t(params.polyCount)));
  const int detailVertsSize = int(align4(sizeof(float) * 3 * size_t(uniqueDetailVertCount)));
  const int detailTrisSize = int(align4(4 * size_t(detailTriCount)));
  const int bvTreeSize = params.buildBvTree ? int(align4(sizeof(BVNode) * size_t(params.polyCount) * 2)) : 0;
  const int offMeshConsSize = int(align4(sizeof(OffMeshConnection) * size_t(storedOffMeshConCount)));
  const int dataSize = headerSize + vertsSize + polysSize + linksSize + detailMeshesSize + detailVertsSize +
                       detailTrisSize + bvTreeSize + offMeshConsSize;

  uint8_t* data = new (std::nothrow) uint8_t[size_t(dataSize)];
  if (!data) return fail(why, "out of memory for a tile of %lld bytes", dataSize);
  // Zero what is not written below in full (struct padding, unused poly slots, the link pool,
  // the BV tree's spare node); vertices, detail vertices and detail triangles are all written.
  const size_t afterVerts = size_t(headerSize + vertsSize);
  const size_t afterDetailMeshes = afterVerts + size_t(polysSize + linksSize + detailMeshesSize);
  const size_t bvStart = afterDetailMeshes + size_t(detailVertsSize + detailTrisSize);
  std::memset(data, 0, size_t(headerSize));
  std::memset(data + afterVerts, 0, afterDetailMeshes - afterVerts);
  std::memset(data + bvStart, 0, size_t(dataSize) - bvStart);

  uint8_t* d = data;
  MeshHeader* header = reinterpret_cast<MeshHeader*>(d); d += headerSize;
  float* navVerts = reinterpret_cast<float*>(d); d += vertsSize;
  Poly* navPolys = reinterpret_cast<Poly*>(d); d += polysSize;
  d += linksSize; // links are made when the tile is added to a mesh
  PolyDetail* navDMeshes = reinterpret_cast<PolyDetail*>(d); d += detailMeshesSize;
  float* navDVerts = reinterpret_cast<float*>(d); d += detailVertsSize;
  uint8_t* navDTris = d; d += detailTrisSize;
  BVNode* navBvtree = reinterpret_cast<BVNode*>(d); d += bvTreeSize;
  OffMeshConnection* offMeshCons = reinterpret_cast<OffMeshConnection*>(d);

  header->magic = NAVMESH_MAGIC;
  header->version = NAVMESH_VERSION;
  header->x = params.tileX;
  header->y = params.tileY;
  header->layer = params.tileLayer;
  header->userId = params.userId;
  header->polyCount = totPolyCount;
  header->vertCount = totVertCount;
  header->maxLinkCount = maxLinkCount;
  vcopy(header->bmin, params.bmin);
  vcopy(header->bmax, params.bmax);
  header->detailMeshCount = params.polyCount;
  header->detailVertCount = uniqueDetailVertCount;
  header->detailTriCount = detailTriCount;
  header->bvQuantFactor = 1.0f / params.cs;
  header->offMeshBase = params.polyCount;
  header->walkableHeight = params.walkableHeight;
  header->walkableRadius = params.walkableRadius;
  header->walkableClimb = params.walkableClimb;
  header->offMeshConCount = storedOffMeshConCount;
  header->bvNodeCount = params.buildBvTree ? params.polyCount * 2 : 0;

  const int offMeshVertsBase = params.vertCount;
  const int offMeshPolyBase = params.polyCount;

  // Vertices: cells -> world units; then the stored off-mesh connections' end points.
  for (int i = 0; i < params.vertCount; ++i) {
    const uint16_t* iv = &params.verts[i * 3];
    float* v = &navVerts[i * 3];
    v[0] = params.bmin[0] + iv[0] * params.cs;
    v[1] = params.bmin[1] + iv[1] * params.ch;
    v[2] = params.bmin[2] + iv[2] * params.cs;
  }
  int n = 0;
  for (int i = 0; i < params.offMeshConCount; ++i) {
    if (offMeshConClass[size_t(i) * 2] == 0xff) {
      const float* linkv = &params.offMeshConVerts[i * 2 * 3];
      float* v = &navVerts[(offMeshVertsBase + n * 2) * 3];
      vcopy(&v[0], &linkv[0]);
      vcopy(&v[3], &linkv[3]);
      n++;
    }
  }

  // Polygons. Recast's portal directions (0 = -x, 1 = +z, 2 = +x, 3 = -z; 0xf = border without
  // portal) become tile sides (0 = +x, 2 = +z, 4 = -x, 6 = -z).
  const uint16_t* src = params.polys;
  for (int i = 0; i < params.polyCount; ++i) {
    Poly* p = &navPolys[i];
    p->vertCount = 0;
    p->flags = params.polyFlags[i];
    p->setArea(params.polyAreas[i]);
    p->setType(POLYTYPE_GROUND);
    for (int j = 0; j < nvp; ++j) {
      if (src[j] == MESH_NULL_IDX) break;
      p->verts[j] = src[j];
      if (src[nvp + j] & 0x8000) {
        const uint16_t dir = src[nvp + j] & 0xf;
        if (dir == 0xf) p->neis[j] = 0;
        else if (dir == 0) p->neis[j] = EXT_LINK | 4;
        else if (dir == 1) p->neis[j] = EXT_LINK | 2;
        else if (dir == 2) p->neis[j] = EXT_LINK | 0;
        else if (dir == 3) p->neis[j] = EXT_LINK | 6;
      } else {
        p->neis[j] = uint16_t(src[nvp + j] + 1);
      }
      p->vertCount++;
    }
    src += nvp * 2;
  }
  n = 0;
  for (int i = 0; i < params.offMeshConCount; ++i) {
    if (offMeshConClass[size_t(i) * 2] == 0xff) {
      Poly* p = &navPolys[offMeshPolyBase + n];
      p->vertCount = 2;
      p->verts[0] = uint16_t(offMeshVertsBase + n * 2 + 0);
      p->verts[1] = uint16_t(offMeshVertsBase + n * 2 + 1);
      p->flags = params.offMeshConFlags[i];
      p->setArea(params.offMeshConAreas[i]);
      p->setType(POLYTYPE_OFFMESH_CONNECTION);
      n++;
    }
  }

  // Detail meshes.
  if (params.detailMeshes) {
    uint32_t vbase = 0;
    for (int i = 0; i < params.polyCount; ++i) {
      PolyDetail& dtl = navDMeshes[i];
      const int vb = int(params.detailMeshes[i * 4 + 0]);
      const int ndv = int(params.detailMeshes[i * 4 + 1]);
      const int nv = navPolys[i].vertCount;
      dtl.vertBase = vbase;
      dtl.vertCount = uint8_t(ndv - nv);
      dtl.triBase = params.detailMeshes[i * 4 + 2];
      dtl.triCount = uint8_t(params.detailMeshes[i * 4 + 3]);
      if (ndv - nv) {
        std::memcpy(&navDVerts[vbase * 3], &params.detailVerts[(vb + nv) * 3], sizeof(float) * 3 * size_t(ndv - nv));
        vbase += uint32_t(ndv - nv);
      }
    }
    std::memcpy(navDTris, params.detailTris, 4 * size_t(params.detailTriCount));
  } else {
    // A fan from vertex 0; edge flags mark the poly boundary (2 bits per edge).
    int tbase = 0;
    for (int i = 0; i < params.polyCount; ++i) {
      PolyDetail& dtl = navDMeshes[i];
      const int nv = navPolys[i].vertCount;
      dtl.vertBase = 0;
      dtl.vertCount = 0;
      dtl.triBase = uint32_t(tbase);
      dtl.triCount = uint8_t(nv - 2);
      for (int j = 2; j < nv; ++j) {
        uint8_t* t = &navDTris[tbase * 4];
        t[0] = 0;
        t[1] = uint8_t(j - 1);
        t[2] = uint8_t(j);
        t[3] = (1 << 2);
        if (j == 2) t[3] |= (1 << 0);
        if (j == nv - 1) t[3] |= (1 << 4);
        tbase++;
      }
    }
  }

  if (params.buildBvTree) createBVTree(params, navBvtree);

  n = 0;
  for (int i = 0; i < params.offMeshConCount; ++i) {
    if (offMeshConClass[size_t(i) * 2] == 0xff) {
      OffMeshConnection* con = &offMeshCons[n];
      con->poly = uint16_t(offMeshPolyBase + n);
      const float* endPts = &params.offMeshConVerts[i * 2 * 3];
      vcopy(&con->pos[0], &endPts[0]);
      vcopy(&con->pos[3], &endPts[3]);
      con->rad = params.offMeshConRad[i];
      con->flags = params.offMeshConDir[i] ? OFFMESH_CON_BIDIR : 0;
      con->side = offMeshConClass[size_t(i) * 2 + 1];
      if (params.offMeshConUserID) con->userId = params.offMeshConUserID[i];
      n++;
    }
  }

  *outData = data;
  *outDataSize = dataSize;
  return true;
}

} // namespace nav
