// NavMeshQuery.cpp: the queries. Written from the algorithms in seeds 000-003; each function
// notes the Detour behaviour it reproduces where that behaviour is surprising.
#include "nav/NavMeshQuery.h"
#include "nav/ShortestPath.h"

#include "nav/NavMath.h"
#include "nav/StraightPathFunnel.h"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cstring>
#include <vector>

namespace nav {

namespace {

constexpr int TINY_NODE_POOL = 64;

inline void polyVerts(const MeshTile* tile, const Poly* poly, float* verts) {
  const int nv = poly->vertCount;
  for (int i = 0; i < nv; ++i) vcopy(&verts[i * 3], &tile->verts[poly->verts[i] * 3]);
}

inline int nextVert(int i, int n) { return i + 1 == n ? 0 : i + 1; }

// Midpoint of the portal of `link` (from fromPoly) when it is a whole ground edge: the same floats
// as the general portal lookup, without searching the link list. False when the general path is
// needed (off-mesh polys, partial tile-border links).
inline bool wholeEdgeMidPoint(const Link& link, const MeshTile* fromTile, const Poly* fromPoly, const Poly* toPoly,
                              float* mid) {
  // One branch for the whole test (bitwise, not short-circuit): the search loops take this for
  // almost every link, and the partial tile-border case is rare but not predictable.
  const int partial = int(link.side != 0xff) & (int(link.bmin != 0) | int(link.bmax != 255));
  if (int(fromPoly->getType() != POLYTYPE_GROUND) | int(toPoly->getType() != POLYTYPE_GROUND) | partial) return false;
  const float* v0 = &fromTile->verts[fromPoly->verts[link.edge] * 3];
  const float* v1 = &fromTile->verts[fromPoly->verts[nextVert(link.edge, fromPoly->vertCount)] * 3];
  mid[0] = (v0[0] + v1[0]) * 0.5f;
  mid[1] = (v0[1] + v1[1]) * 0.5f;
  mid[2] = (v0[2] + v1[2]) * 0.5f;
  return true;
}

// A poly ref decoded with the mesh's fields held in locals: the search loops' node writes (uint8_t
// flags may alias anything) would otherwise reload them through the mesh for every link. Valid
// only for refs known to be valid (no salt or range check).
struct RefDecoder {
  const MeshTile* tiles;
  uint32_t polyBits, tileMask, polyMask;
  explicit RefDecoder(const NavMesh& mesh)
      : tiles(mesh.getTile(0)), polyBits(mesh.polyBits()), tileMask((1u << mesh.tileBits()) - 1),
        polyMask((1u << mesh.polyBits()) - 1) {}
  void decode(PolyRef ref, const MeshTile** t, const Poly** p) const {
    const MeshTile* tile = &tiles[(ref >> polyBits) & tileMask];
    *t = tile;
    *p = &tile->polys[ref & polyMask];
  }
};

// Cost of moving a -> b inside curPoly, between prev and next: with a plain filter distance *
// curAreaCost (the caller's lookup of curPoly's area cost), otherwise the filter's getCost.
__attribute__((always_inline)) inline float stepCost(bool plain, const QueryFilter* filter, float curAreaCost,
                                                     const float* a, const float* b, PolyRef prevRef,
                                                     const MeshTile* prevTile, const Poly* prevPoly, PolyRef curRef,
                                                     const MeshTile* curTile, const Poly* curPoly, PolyRef nextRef,
                                                     const MeshTile* nextTile, const Poly* nextPoly) {
  return plain ? vdist(a, b) * curAreaCost
               : filter->getCost(a, b, prevRef, prevTile, prevPoly, curRef, curTile, curPoly, nextRef, nextTile,
                                 nextPoly);
}

// Puts node in the open list: pushed (and flagged NODE_OPEN) on first opening, otherwise the
// heap is restored after its total dropped (decrease-key).
__attribute__((always_inline)) inline void openNode(OpenList& open, Node* node) {
  if (node->flags & NODE_OPEN) {
    open.modify(node);
  } else {
    node->flags |= NODE_OPEN;
    open.push(node);
  }
}

// The first half of a relaxation, shared by findPath and the sliced search: starts the observer's
// event for the link and decodes its neighbour. False when the link is skipped: no neighbour, the
// expanded polygon's parent, or a polygon the filter refuses (the flag test inlined when plain).
template <bool OBSERVE>
__attribute__((always_inline)) inline bool acceptNeighbour(PolyRef bestRef, PolyRef neighbourRef, PolyRef parentRef,
                                                           const RefDecoder& refs, bool plain,
                                                           QueryFilter::FlagTest flags, const QueryFilter* filter,
                                                           const MeshTile** neighbourTile, const Poly** neighbourPoly,
                                                           RelaxEvent& ev, SearchObserver* observer) {
  if (OBSERVE) {
    ev = RelaxEvent{bestRef, neighbourRef};
    if (!neighbourRef) return false;
    if (neighbourRef == parentRef) {
      ev.result = RELAX_REJECT_PARENT;
      observer->onRelax(ev);
      return false;
    }
  } else if ((neighbourRef == 0) | (neighbourRef == parentRef)) { // one branch
    return false;
  }
  refs.decode(neighbourRef, neighbourTile, neighbourPoly);
  if (plain ? !flags.passes((*neighbourPoly)->flags)
            : !filter->passFilter(neighbourRef, *neighbourTile, *neighbourPoly)) {
    if (OBSERVE) {
      ev.result = RELAX_REJECT_FILTERED;
      observer->onRelax(ev);
    }
    return false;
  }
  return true;
}

// The second half of a relaxation, shared by findPath and the sliced search: from the neighbour's
// node, its candidate position npos and its candidate cost g up to npos, to the open list.
// atEnd: the neighbour is the end polygon, whose cost runs on to the end position (endCost(),
// evaluated only there) and whose heuristic is 0. FIXED_POS: the node keeps the position of its
// first visit (npos is node->pos), so its heuristic is fixed and a cost no lower than its own
// cannot give a lower total: rejected without computing h (rounding is monotonic; a NaN cost
// falls through). Otherwise npos is copied into the node when it is accepted.
// Accepted: parent = parentIdx, the NODE_PARENT_DETACHED bit = detached (0 or the bit), pushed or
// decreased; the best-so-far (least heuristic) node updated, and *viewBest too when given.
template <bool OBSERVE, bool FIXED_POS, class EndCost>
__attribute__((always_inline)) inline void relaxNode(OpenList& open, Node* node, const float* npos, float cost,
                                                     bool atEnd, const EndCost& endCost, const float* endPos,
                                                     float hscale, uint32_t parentIdx, uint8_t detached,
                                                     float& bestHeuristic, Node*& bestNode, const Node** viewBest,
                                                     RelaxEvent& ev, SearchObserver* observer) {
  const bool reached = (node->flags & (NODE_OPEN | NODE_CLOSED)) != 0;
  float heuristic = 0;
  if (atEnd) {
    cost = cost + endCost();
  } else {
    if (!OBSERVE && FIXED_POS && reached && cost >= node->cost) return;
    heuristic = vdist(npos, endPos) * hscale;
  }
  const float total = cost + heuristic;
  if (OBSERVE) {
    ev.cost = cost;
    ev.heuristic = heuristic;
    ev.total = total;
  }
  // Written as !(<) so a NaN total (e.g. 0 area cost * an infinite distance from a far-off start
  // position) never reopens a node: with >= such nodes were reopened forever (fuzz_query hang).
  if (reached && !(total < node->total)) {
    if (OBSERVE) {
      ev.result = RELAX_REJECT_WORSE;
      observer->onRelax(ev);
    }
    return;
  }
  if (!FIXED_POS) vcopy(node->pos, npos);
  node->parent = parentIdx;
  node->flags = uint8_t((node->flags & ~(NODE_CLOSED | NODE_PARENT_DETACHED)) | detached);
  node->cost = cost;
  node->total = total;
  openNode(open, node);
  if (heuristic < bestHeuristic) {
    bestHeuristic = heuristic;
    bestNode = node;
    if (viewBest) *viewBest = node;
  }
  if (OBSERVE) {
    ev.result = (ev.previousFlags & (NODE_OPEN | NODE_CLOSED)) ? RELAX_ACCEPT_BETTER : RELAX_ACCEPT_NEW;
    observer->onRelax(ev);
  }
}

struct CollectPolys {
  PolyRef* polys;
  int maxPolys;
  int count;
  bool overflow;
  static void process(void* ctx, const MeshTile*, const Poly* const*, const PolyRef* refs, int n) {
    CollectPolys* c = static_cast<CollectPolys*>(ctx);
    const int room = c->maxPolys - c->count;
    if (room <= 0) {
      c->overflow = true;
      return;
    }
    int take = n;
    if (take > room) {
      take = room;
      c->overflow = true;
    }
    std::memcpy(c->polys + c->count, refs, sizeof(PolyRef) * size_t(take));
    c->count += take;
  }
};

struct NearestPoly {
  const NavMeshQuery* query;
  const float* center;
  float nearestDistSqr;
  PolyRef nearestRef;
  float nearestPt[3];
  bool overPoly;
  static void process(void* ctx, const MeshTile* tile, const Poly* const* polys, const PolyRef* refs, int n) {
    NearestPoly* q = static_cast<NearestPoly*>(ctx);
    const NavMesh* nav = q->query->getAttachedNavMesh();
    const float cx = q->center[0], cz = q->center[2];
    // Slack for the bound below: far more than the rounding of a point computed on the poly's
    // edges and of its distance (a few ulps of the coordinates' magnitude).
    const float slack = (1.0f + navAbs(cx) + navAbs(cz)) * 1e-5f;
    for (int i = 0; i < n; ++i) {
      const Poly* poly = polys[i];
      if (q->nearestRef) {
        // Every point the poly can return (over it, on its edges or detail edges) lies in the xz
        // bounds of its vertices and detail vertices, and its distance is at least the distance
        // to those bounds. A poly whose bound is clearly past the best so far cannot win (ties
        // go to the first poly, so skipping never changes the answer).
        float minx = FLT_MAX, maxx = -FLT_MAX, minz = FLT_MAX, maxz = -FLT_MAX;
        for (int k = 0; k < poly->vertCount; ++k) {
          const float* v = &tile->verts[poly->verts[k] * 3];
          minx = std::min(minx, v[0]), maxx = std::max(maxx, v[0]);
          minz = std::min(minz, v[2]), maxz = std::max(maxz, v[2]);
        }
        if (poly->getType() != POLYTYPE_OFFMESH_CONNECTION) {
          const PolyDetail& pd = tile->detailMeshes[poly - tile->polys];
          for (int k = 0; k < pd.vertCount; ++k) {
            const float* v = &tile->detailVerts[(pd.vertBase + uint32_t(k)) * 3];
            minx = std::min(minx, v[0]), maxx = std::max(maxx, v[0]);
            minz = std::min(minz, v[2]), maxz = std::max(maxz, v[2]);
          }
        }
        const float dx = std::max(std::max(minx - cx, cx - maxx) - slack, 0.0f);
        const float dz = std::max(std::max(minz - cz, cz - maxz) - slack, 0.0f);
        if (dx * dx + dz * dz > q->nearestDistSqr * 1.0001f) continue;
      }
      float closest[3];
      bool posOverPoly = false;
      nav->closestPointOnPoly(tile, poly, q->center, closest, &posOverPoly);
      // Directly over a polygon and within climb height: favoured over the plain nearest point.
      const float d = nearestPolyDistSqr(tile->header, q->center, closest, posOverPoly);
      if (d < q->nearestDistSqr) {
        vcopy(q->nearestPt, closest);
        q->nearestDistSqr = d;
        q->nearestRef = refs[i];
        q->overPoly = posOverPoly;
      }
    }
  }
};

} // namespace

NavMeshQuery::NavMeshQuery() = default;
NavMeshQuery::~NavMeshQuery() = default;

Status NavMeshQuery::initUnlimited(const NavMesh* mesh) {
  if (!mesh || mesh->getMaxTiles() < 1) return FAILURE | INVALID_PARAM;
  const int tileCount = mesh->getMaxTiles();
  std::vector<uint32_t> base(size_t(tileCount), 0), polys(size_t(tileCount), 0);
  uint64_t total = 0, links = 0;
  for (int i = 0; i < tileCount; ++i) {
    const MeshTile* t = mesh->getTile(i);
    base[size_t(i)] = uint32_t(total);
    if (!t->header) continue;
    polys[size_t(i)] = uint32_t(t->header->polyCount);
    total += uint64_t(t->header->polyCount);
    links += uint64_t(t->header->maxLinkCount);
  }
  if (total == 0) return FAILURE | INVALID_PARAM;
  // A node is a distinct (poly, state): state 0 once per poly, other states only entered over a
  // tile-border link, so polys + links bounds them (and 4 per poly always does).
  uint64_t maxNodes = total + links + 1;
  if (maxNodes > total * MAX_STATES_PER_NODE) maxNodes = total * MAX_STATES_PER_NODE;
  if (total * MAX_STATES_PER_NODE >= UINT32_MAX || maxNodes > uint64_t(INT32_MAX))
    return FAILURE | OUT_OF_MEMORY;
  int tileBits = 0;
  for (uint32_t m = mesh->decodePolyIdTile(~PolyRef(0)); m; m >>= 1) tileBits += int(m & 1u);
  if (!m_nodePool.initDirect(base.data(), polys.data(), tileCount, int(mesh->polyBits()), tileBits,
                             int(maxNodes)))
    return FAILURE | OUT_OF_MEMORY;
  if (!m_openList.init(int(maxNodes), m_nodePool.nodes())) return FAILURE | OUT_OF_MEMORY;
  return finishInit(mesh);
}

Status NavMeshQuery::init(const NavMesh* mesh, int maxNodes) {
  if (!mesh || maxNodes < 1 || maxNodes > 65535) return FAILURE | INVALID_PARAM;
  if (m_nodePool.isDirect() || m_nodePool.getMaxNodes() != maxNodes) {
    if (!m_nodePool.init(maxNodes)) return FAILURE | OUT_OF_MEMORY;
    if (!m_openList.init(maxNodes, m_nodePool.nodes())) return FAILURE | OUT_OF_MEMORY;
  } else {
    m_nodePool.clear();
  }
  return finishInit(mesh);
}

Status NavMeshQuery::finishInit(const NavMesh* mesh) {
  m_nav = mesh;
  if (m_tinyNodePool.getMaxNodes() != TINY_NODE_POOL && !m_tinyNodePool.init(TINY_NODE_POOL))
    return FAILURE | OUT_OF_MEMORY;
  m_tinyNodePool.clear();
  m_openList.clear();
  m_query = SlicedState();
  m_lastExpanded = nullptr;
  m_bestNode = nullptr;
  return SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Points and polygons
// ---------------------------------------------------------------------------------------------

Status NavMeshQuery::closestPointOnPoly(PolyRef ref, const float* pos, float* closest, bool* posOverPoly) const {
  if (!m_nav || !m_nav->isValidPolyRef(ref) || !pos || !visfinite(pos) || !closest) return FAILURE | INVALID_PARAM;
  m_nav->closestPointOnPoly(ref, pos, closest, posOverPoly);
  return SUCCESS;
}

Status NavMeshQuery::closestPointOnPolyBoundary(PolyRef ref, const float* pos, float* closest) const {
  const MeshTile* tile = nullptr;
  const Poly* poly = nullptr;
  if (!m_nav || statusFailed(m_nav->getTileAndPolyByRef(ref, &tile, &poly))) return FAILURE | INVALID_PARAM;
  if (!pos || !visfinite(pos) || !closest) return FAILURE | INVALID_PARAM;
  float verts[VERTS_PER_POLYGON * 3];
  float edged[VERTS_PER_POLYGON] = {};
  float edget[VERTS_PER_POLYGON] = {};
  const int nv = poly->vertCount;
  polyVerts(tile, poly, verts);
  // Inside (the cheap crossing test first; edge distances only when outside).
  if (pointInPolygon(pos, verts, nv)) {
    vcopy(closest, pos);
  } else {
    distancePtPolyEdgesSqr(pos, verts, nv, edged, edget);
    float dmin = edged[0];
    int imin = 0;
    for (int i = 1; i < nv; ++i)
      if (edged[i] < dmin) {
        dmin = edged[i];
        imin = i;
      }
    vlerp(closest, &verts[imin * 3], &verts[nextVert(imin, nv) * 3], edget[imin]);
  }
  return SUCCESS;
}

Status NavMeshQuery::getPolyHeight(PolyRef ref, const float* pos, float* height) const {
  const MeshTile* tile = nullptr;
  const Poly* poly = nullptr;
  if (!m_nav || statusFailed(m_nav->getTileAndPolyByRef(ref, &tile, &poly))) return FAILURE | INVALID_PARAM;
  if (!pos || !visfinite2D(pos)) return FAILURE | INVALID_PARAM;
  if (poly->getType() == POLYTYPE_OFFMESH_CONNECTION) {
    // Height along the connection's segment.
    const float* v0 = &tile->verts[poly->verts[0] * 3];
    const float* v1 = &tile->verts[poly->verts[1] * 3];
    float t;
    distancePtSegSqr2D(pos, v0, v1, t);
    if (height) *height = v0[1] + (v1[1] - v0[1]) * t;
    return SUCCESS;
  }
  return m_nav->getPolyHeight(tile, poly, pos, height) ? SUCCESS : (FAILURE | INVALID_PARAM);
}

void NavMeshQuery::queryPolygonsInTile(const MeshTile* tile, const float* qmin, const float* qmax,
                                       const QueryFilter* filter, const PolyQuery& query) const {
  constexpr int BATCH = 32;
  PolyRef refs[BATCH];
  const Poly* polys[BATCH];
  int n = 0;
  const PolyRef base = m_nav->getPolyRefBase(tile);
  if (tile->bvTree && tile->header->bvNodeCount > 0) {
    const BVNode* node = &tile->bvTree[0];
    const BVNode* end = &tile->bvTree[tile->header->bvNodeCount];
    uint16_t bmin[3], bmax[3];
    quantizeQueryBox(tile->header, qmin, qmax, bmin, bmax); // in the tile's quantised BV space
    while (node < end) {
      const bool overlap = overlapQuantBounds(bmin, bmax, node->bmin, node->bmax);
      const bool isLeaf = node->i >= 0;
      if (isLeaf && overlap) {
        const PolyRef ref = base | PolyRef(node->i);
        const Poly* p = &tile->polys[node->i];
        if (filter->passFilter(ref, tile, p)) {
          refs[n] = ref;
          polys[n] = p;
          if (++n == BATCH) {
            query.process(query.ctx, tile, polys, refs, n);
            n = 0;
          }
        }
      }
      if (overlap || isLeaf) ++node;
      else node += -node->i;
    }
  } else {
    for (int i = 0; i < tile->header->polyCount; ++i) {
      const Poly* p = &tile->polys[i];
      if (p->getType() == POLYTYPE_OFFMESH_CONNECTION) continue;
      const PolyRef ref = base | PolyRef(i);
      if (!filter->passFilter(ref, tile, p)) continue;
      float bmin[3], bmax[3];
      polyBounds(tile, p, bmin, bmax);
      if (overlapBounds(qmin, qmax, bmin, bmax)) {
        refs[n] = ref;
        polys[n] = p;
        if (++n == BATCH) {
          query.process(query.ctx, tile, polys, refs, n);
          n = 0;
        }
      }
    }
  }
  if (n > 0) query.process(query.ctx, tile, polys, refs, n);
}

Status NavMeshQuery::queryPolygons(const float* center, const float* halfExtents, const QueryFilter* filter,
                                   const PolyQuery& query) const {
  if (!m_nav || !center || !visfinite(center) || !halfExtents || !visfinite(halfExtents) || !filter || !query.process)
    return FAILURE | INVALID_PARAM;
  float bmin[3], bmax[3];
  vsub(bmin, center, halfExtents);
  vadd(bmax, center, halfExtents);
  int minx, miny, maxx, maxy;
  m_nav->calcTileLoc(bmin, &minx, &miny);
  m_nav->calcTileLoc(bmax, &maxx, &maxy);
  if (int64_t(maxx) - minx + 1 > m_nav->getMaxTiles() || int64_t(maxy) - miny + 1 > m_nav->getMaxTiles()) {
    // A huge box: clip the cell range to the cells that hold tiles (same visiting order and
    // result; without it a far-reaching box would loop over up to 2^60 empty cells).
    int tminx = INT32_MAX, tminy = INT32_MAX, tmaxx = INT32_MIN, tmaxy = INT32_MIN;
    for (int i = 0; i < m_nav->getMaxTiles(); ++i) {
      const MeshHeader* h = m_nav->getTile(i)->header;
      if (!h) continue;
      tminx = std::min(tminx, h->x), tmaxx = std::max(tmaxx, h->x);
      tminy = std::min(tminy, h->y), tmaxy = std::max(tmaxy, h->y);
    }
    minx = std::max(minx, tminx), maxx = std::min(maxx, tmaxx);
    miny = std::max(miny, tminy), maxy = std::min(maxy, tmaxy);
  }
  constexpr int MAX_NEIS = 32;
  const MeshTile* neis[MAX_NEIS];
  for (int y = miny; y <= maxy; ++y)
    for (int x = minx; x <= maxx; ++x) {
      const int nneis = m_nav->getTilesAt(x, y, neis, MAX_NEIS);
      for (int j = 0; j < nneis; ++j) queryPolygonsInTile(neis[j], bmin, bmax, filter, query);
    }
  return SUCCESS;
}

Status NavMeshQuery::queryPolygons(const float* center, const float* halfExtents, const QueryFilter* filter,
                                   PolyRef* polys, int* polyCount, int maxPolys) const {
  if (!polys || !polyCount || maxPolys < 0) return FAILURE | INVALID_PARAM;
  *polyCount = 0;
  CollectPolys c{polys, maxPolys, 0, false};
  PolyQuery q;
  q.process = &CollectPolys::process;
  q.ctx = &c;
  const Status st = queryPolygons(center, halfExtents, filter, q);
  if (statusFailed(st)) return st;
  *polyCount = c.count;
  return SUCCESS | (c.overflow ? BUFFER_TOO_SMALL : 0);
}

Status NavMeshQuery::findNearestPoly(const float* center, const float* halfExtents, const QueryFilter* filter,
                                     PolyRef* nearestRef, float* nearestPt, bool* isOverPoly) const {
  if (!nearestRef) return FAILURE | INVALID_PARAM;
  NearestPoly np;
  np.query = this;
  np.center = center;
  np.nearestDistSqr = FLT_MAX;
  np.nearestRef = 0;
  np.nearestPt[0] = np.nearestPt[1] = np.nearestPt[2] = 0;
  np.overPoly = false;
  PolyQuery q;
  q.process = &NearestPoly::process;
  q.ctx = &np;
  const Status st = queryPolygons(center, halfExtents, filter, q);
  if (statusFailed(st)) return st;
  *nearestRef = np.nearestRef;
  // Only touch nearestPt when a polygon was found (its point is then meaningful).
  if (nearestPt && np.nearestRef) {
    vcopy(nearestPt, np.nearestPt);
    if (isOverPoly) *isOverPoly = np.overPoly;
  }
  return SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Portals
// ---------------------------------------------------------------------------------------------

Status NavMeshQuery::portalPoints(PolyRef from, const Poly* fromPoly, const MeshTile* fromTile, PolyRef to,
                                  const Poly* toPoly, const MeshTile* toTile, float* left, float* right) const {
  // The first link of `from` that leads to `to`.
  const Link* link = nullptr;
  for (uint32_t i = fromPoly->firstLink; i != NULL_LINK; i = fromTile->links[i].next)
    if (fromTile->links[i].ref == to) {
      link = &fromTile->links[i];
      break;
    }
  if (!link) return FAILURE | INVALID_PARAM;

  // Off-mesh connections: the portal is the connection's end point.
  if (fromPoly->getType() == POLYTYPE_OFFMESH_CONNECTION) {
    const float* v = &fromTile->verts[fromPoly->verts[link->edge] * 3];
    vcopy(left, v);
    vcopy(right, v);
    return SUCCESS;
  }
  if (toPoly->getType() == POLYTYPE_OFFMESH_CONNECTION) {
    for (uint32_t i = toPoly->firstLink; i != NULL_LINK; i = toTile->links[i].next)
      if (toTile->links[i].ref == from) {
        const float* v = &toTile->verts[toPoly->verts[toTile->links[i].edge] * 3];
        vcopy(left, v);
        vcopy(right, v);
        return SUCCESS;
      }
    return FAILURE | INVALID_PARAM;
  }

  const float* v0 = &fromTile->verts[fromPoly->verts[link->edge] * 3];
  const float* v1 = &fromTile->verts[fromPoly->verts[nextVert(link->edge, fromPoly->vertCount)] * 3];
  if (link->side != 0xff && (link->bmin != 0 || link->bmax != 255)) {
    // Tile border link covering part of the edge.
    const float s = 1.0f / 255.0f;
    vlerp(left, v0, v1, link->bmin * s);
    vlerp(right, v0, v1, link->bmax * s);
  } else {
    vcopy(left, v0);
    vcopy(right, v1);
  }
  return SUCCESS;
}

Status NavMeshQuery::edgeMidPoint(PolyRef from, const Poly* fromPoly, const MeshTile* fromTile, PolyRef to,
                                  const Poly* toPoly, const MeshTile* toTile, float* mid) const {
  float left[3], right[3];
  if (statusFailed(portalPoints(from, fromPoly, fromTile, to, toPoly, toTile, left, right)))
    return FAILURE | INVALID_PARAM;
  mid[0] = (left[0] + right[0]) * 0.5f;
  mid[1] = (left[1] + right[1]) * 0.5f;
  mid[2] = (left[2] + right[2]) * 0.5f;
  return SUCCESS;
}

Status NavMeshQuery::getPortalPoints(PolyRef from, PolyRef to, float* left, float* right, uint8_t* fromType,
                                     uint8_t* toType) const {
  const MeshTile *fromTile = nullptr, *toTile = nullptr;
  const Poly *fromPoly = nullptr, *toPoly = nullptr;
  if (!m_nav || statusFailed(m_nav->getTileAndPolyByRef(from, &fromTile, &fromPoly))) return FAILURE | INVALID_PARAM;
  if (statusFailed(m_nav->getTileAndPolyByRef(to, &toTile, &toPoly))) return FAILURE | INVALID_PARAM;
  if (fromType) *fromType = fromPoly->getType();
  if (toType) *toType = toPoly->getType();
  return portalPoints(from, fromPoly, fromTile, to, toPoly, toTile, left, right);
}

Status NavMeshQuery::getEdgeMidPoint(PolyRef from, PolyRef to, float* mid) const {
  float left[3], right[3];
  const Status st = getPortalPoints(from, to, left, right, nullptr, nullptr);
  if (statusFailed(st)) return st;
  mid[0] = (left[0] + right[0]) * 0.5f;
  mid[1] = (left[1] + right[1]) * 0.5f;
  mid[2] = (left[2] + right[2]) * 0.5f;
  return SUCCESS;
}

bool NavMeshQuery::isValidPolyRef(PolyRef ref, const QueryFilter* filter) const {
  const MeshTile* tile = nullptr;
  const Poly* poly = nullptr;
  if (!m_nav || statusFailed(m_nav->getTileAndPolyByRef(ref, &tile, &poly))) return false;
  return filter ? filter->passFilter(ref, tile, poly) : true;
}

bool NavMeshQuery::isInClosedList(PolyRef ref) const {
  Node* nodes[MAX_STATES_PER_NODE];
  const int n = m_nodePool.findNodes(ref, nodes, MAX_STATES_PER_NODE);
  for (int i = 0; i < n; ++i)
    if (nodes[i]->flags & NODE_CLOSED) return true;
  return false;
}

SearchView NavMeshQuery::searchView() const {
  SearchView v;
  v.pool = &m_nodePool;
  v.nodeCount = m_nodePool.getNodeCount();
  v.open = m_openList.entries();
  v.openCount = m_openList.size();
  v.lastExpanded = m_lastExpanded;
  v.bestNode = m_bestNode;
  return v;
}

// ---------------------------------------------------------------------------------------------
// findPath
// ---------------------------------------------------------------------------------------------

Status NavMeshQuery::getPathToNode(Node* endNode, PolyRef* path, int* pathCount, int maxPath) const {
  int length = 0;
  for (Node* n = endNode; n; n = m_nodePool.getNodeAtIdx(n->parent))
    if (++length > m_nodePool.getNodeCount()) return FAILURE; // a parent cycle: never expected
  // Keep the start of the corridor when it does not fit.
  Node* cur = endNode;
  int writeCount = length;
  for (; writeCount > maxPath; --writeCount) cur = m_nodePool.getNodeAtIdx(cur->parent);
  for (int i = writeCount - 1; i >= 0; --i) {
    path[i] = cur->id;
    cur = m_nodePool.getNodeAtIdx(cur->parent);
  }
  *pathCount = length < maxPath ? length : maxPath;
  return length > maxPath ? (SUCCESS | BUFFER_TOO_SMALL) : SUCCESS;
}

Status NavMeshQuery::findPath(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                              const QueryFilter* filter, PolyRef* path, int* pathCount, int maxPath, int options) {
  if (!pathCount) return FAILURE | INVALID_PARAM;
  *pathCount = 0;
  if (!m_nav || !m_nav->isValidPolyRef(startRef) || !m_nav->isValidPolyRef(endRef) || !startPos ||
      !visfinite(startPos) || !endPos || !visfinite(endPos) || !filter || !path || maxPath <= 0)
    return FAILURE | INVALID_PARAM;

  if (options & FINDPATH_ANY_ANGLE) {
    Status st = initSlicedFindPath(startRef, endRef, startPos, endPos, filter, options);
    if (statusFailed(st)) return st;
    while (statusInProgress(st)) st = updateSlicedFindPath(INT_MAX, nullptr);
    return finalizeSlicedFindPath(path, pathCount, maxPath);
  }

  if (startRef == endRef) {
    path[0] = startRef;
    *pathCount = 1;
    return SUCCESS;
  }

  if (m_observer) // generic filter tests (same answers as the inlined ones), events on
    return (options & FINDPATH_CLOSEST_POINT)
               ? findPathImpl<false, true, true>(startRef, endRef, startPos, endPos, filter, path, pathCount, maxPath)
               : findPathImpl<false, false, true>(startRef, endRef, startPos, endPos, filter, path, pathCount, maxPath);
  if (options & FINDPATH_CLOSEST_POINT)
    return findPathImpl<false, true>(startRef, endRef, startPos, endPos, filter, path, pathCount, maxPath);
  return filter->isPlain()
             ? findPathImpl<true, false>(startRef, endRef, startPos, endPos, filter, path, pathCount, maxPath)
             : findPathImpl<false, false>(startRef, endRef, startPos, endPos, filter, path, pathCount, maxPath);
}

// The A* loop. PLAIN: the filter is the flag test and distance * area cost (inlined here, with the
// mesh's ref decoding hoisted out of the loop); otherwise every test goes through the filter.
// CLOSEST: the closest-point cost model (FINDPATH_CLOSEST_POINT): a node's position is the point
// of its portal nearest its current parent's position, so it moves with the parent.
// OBSERVE: m_observer is set: it may stop the search and hears every expansion and relaxation.
template <bool PLAIN, bool CLOSEST, bool OBSERVE>
Status NavMeshQuery::findPathImpl(PolyRef startRef, PolyRef endRef, const float* startPos, const float* endPos,
                                  const QueryFilter* filter, PolyRef* path, int* pathCount, int maxPath) {
  const float hscale = filter->getHeuristicScale();
  m_nodePool.clear();
  m_openList.clear();
  m_query = SlicedState();
  m_lastExpanded = nullptr;

  Node* startNode = m_nodePool.getNode(startRef);
  vcopy(startNode->pos, startPos);
  startNode->parent = 0;
  startNode->cost = 0;
  startNode->total = vdist(startPos, endPos) * hscale;
  startNode->flags = NODE_OPEN;
  m_openList.push(startNode);

  Node* lastBestNode = startNode;
  float lastBestNodeCost = startNode->total;
  m_bestNode = startNode; // kept current for an observer (searchView() during the search)
  bool outOfNodes = false;
  bool stopped = false; // OBSERVE: the observer stopped the search
  int expanded = 0;
  RelaxEvent ev;
  auto relax = [&](RelaxResult r) {
    ev.result = r;
    m_observer->onRelax(ev);
  };

  // Hoisted ref decoding (the mesh cannot change during the search) and filter fields.
  const RefDecoder refs(*m_nav);
  const QueryFilter::FlagTest flags = filter->flagTest();
  const float* const areaCost = filter->areaCosts();

  while (!m_openList.empty()) {
    if (OBSERVE && !m_observer->beforeExpand(expanded)) {
      stopped = true;
      break;
    }
    ++expanded;
    Node* bestNode = m_openList.pop();
    bestNode->flags = uint8_t((bestNode->flags & ~NODE_OPEN) | NODE_CLOSED);
    m_lastExpanded = bestNode;
    if (OBSERVE) m_observer->onExpand(*bestNode);
    if (bestNode->id == endRef) {
      lastBestNode = bestNode;
      break;
    }

    const PolyRef bestRef = bestNode->id;
    const MeshTile* bestTile = nullptr;
    const Poly* bestPoly = nullptr;
    refs.decode(bestRef, &bestTile, &bestPoly);

    PolyRef parentRef = 0;
    const MeshTile* parentTile = nullptr;
    const Poly* parentPoly = nullptr;
    if (bestNode->parent) parentRef = m_nodePool.nodeAtIdx(bestNode->parent)->id;
    if (!PLAIN && parentRef) refs.decode(parentRef, &parentTile, &parentPoly);
    const float bestAreaCost = areaCost[bestPoly->getArea()];

    const uint32_t bestIdx = m_nodePool.nodeIdx(bestNode);
    const Link* links = bestTile->links;
    for (uint32_t i = bestPoly->firstLink; i != NULL_LINK; i = links[i].next) {
      const Link& link = links[i];
      const PolyRef neighbourRef = link.ref;
      const MeshTile* neighbourTile = nullptr;
      const Poly* neighbourPoly = nullptr;
      if (!acceptNeighbour<OBSERVE>(bestRef, neighbourRef, parentRef, refs, PLAIN, flags, filter, &neighbourTile,
                                    &neighbourPoly, ev, m_observer))
        continue;

      // A tile-border poly gets one node per crossing side.
      const uint8_t crossSide = link.side != 0xff ? uint8_t(link.side >> 1) : 0;
      Node* neighbourNode = m_nodePool.getNode(neighbourRef, crossSide);
      if (!neighbourNode) {
        outOfNodes = true;
        if (OBSERVE) relax(RELAX_REJECT_OUT_OF_NODES);
        continue;
      }
      if (OBSERVE) {
        ev.node = neighbourNode;
        ev.previousFlags = neighbourNode->flags;
        ev.previousTotal = neighbourNode->total;
      }

      // First visit: the node sits at the midpoint of the portal it was reached through, so its
      // heuristic is fixed too.
      // CLOSEST: the candidate position through this parent; kept only if the path is cheaper.
      float candPos[3];
      if (CLOSEST) {
        float left[3], right[3];
        if (statusFailed(portalPoints(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile, left,
                                      right))) {
          if (OBSERVE) relax(RELAX_REJECT_NO_PORTAL);
          continue;
        }
        closestPointOnPortal(bestNode->pos, left, right, candPos);
      } else if (neighbourNode->flags == 0) {
        if (!wholeEdgeMidPoint(link, bestTile, bestPoly, neighbourPoly, neighbourNode->pos))
          edgeMidPoint(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile, neighbourNode->pos);
      }
      const float* const npos = CLOSEST ? candPos : neighbourNode->pos;
      const float curCost = stepCost(PLAIN, filter, bestAreaCost, bestNode->pos, npos, parentRef, parentTile,
                                     parentPoly, bestRef, bestTile, bestPoly, neighbourRef, neighbourTile,
                                     neighbourPoly);
      // The last polygon's cost runs to the end position itself.
      auto endCost = [&] {
        return stepCost(PLAIN, filter, areaCost[neighbourPoly->getArea()], npos, endPos, bestRef, bestTile, bestPoly,
                        neighbourRef, neighbourTile, neighbourPoly, 0, nullptr, nullptr);
      };
      relaxNode<OBSERVE, !CLOSEST>(m_openList, neighbourNode, npos, bestNode->cost + curCost, neighbourRef == endRef,
                                   endCost, endPos, hscale, bestIdx, 0, lastBestNodeCost, lastBestNode,
                                   OBSERVE ? &m_bestNode : nullptr, ev, m_observer);
    }
  }
  m_bestNode = lastBestNode;

  Status status = getPathToNode(lastBestNode, path, pathCount, maxPath);
  if (OBSERVE && stopped) {
    status = statusFailed(status) ? status : (IN_PROGRESS | (status & STATUS_DETAIL_MASK));
    return outOfNodes ? (status | OUT_OF_NODES) : status;
  }
  if (lastBestNode->id != endRef) status |= PARTIAL_RESULT;
  if (outOfNodes) status |= OUT_OF_NODES;
  return status;
}

// ---------------------------------------------------------------------------------------------
// Sliced findPath
// ---------------------------------------------------------------------------------------------

Status NavMeshQuery::initSlicedFindPath(PolyRef startRef, PolyRef endRef, const float* startPos,
                                        const float* endPos, const QueryFilter* filter, int options) {
  m_query = SlicedState();
  m_query.status = FAILURE;
  m_query.startRef = startRef;
  m_query.endRef = endRef;
  if (startPos) vcopy(m_query.startPos, startPos);
  if (endPos) vcopy(m_query.endPos, endPos);
  m_query.filter = filter;
  m_query.options = options;
  m_query.raycastLimitSqr = FLT_MAX;
  m_lastExpanded = nullptr;
  m_bestNode = nullptr;

  if (!m_nav || !m_nav->isValidPolyRef(startRef) || !m_nav->isValidPolyRef(endRef) || !startPos ||
      !visfinite(startPos) || !endPos || !visfinite(endPos) || !filter)
    return FAILURE | INVALID_PARAM;

  m_query.meshGeneration = m_nav->generation();

  if (options & FINDPATH_ANY_ANGLE) {
    // Raycast shortcuts only over a few agent radii (the radius of the start tile).
    const MeshTile* tile = m_nav->getTileByRef(startRef);
    const float agentRadius = tile->header->walkableRadius;
    m_query.raycastLimitSqr = sqr(agentRadius * RAY_CAST_LIMIT_PROPORTIONS);
  }

  if (startRef == endRef) {
    m_query.status = SUCCESS;
    return SUCCESS;
  }

  m_nodePool.clear();
  m_openList.clear();
  Node* startNode = m_nodePool.getNode(startRef);
  vcopy(startNode->pos, startPos);
  startNode->parent = 0;
  startNode->cost = 0;
  startNode->total = vdist(startPos, endPos) * filter->getHeuristicScale();
  startNode->flags = NODE_OPEN;
  m_openList.push(startNode);

  m_query.status = IN_PROGRESS;
  m_query.lastBestNode = startNode;
  m_query.lastBestNodeCost = startNode->total;
  m_bestNode = startNode;
  return m_query.status;
}

Status NavMeshQuery::updateSlicedFindPath(int maxIter, int* doneIters) {
  if (!statusInProgress(m_query.status)) return m_query.status;
  if (m_observer) return updateSlicedImpl<true, false>(maxIter, doneIters);
  // The mesh is unchanged since init: every ref in the pool is still valid (the checks below
  // would all pass), so the fast loop decodes without them.
  if (m_nav->generation() == m_query.meshGeneration && m_query.filter->isPlain())
    return (m_query.options & FINDPATH_ANY_ANGLE) ? updateSlicedImpl<false, true, true>(maxIter, doneIters)
                                                  : updateSlicedImpl<false, true, false>(maxIter, doneIters);
  return updateSlicedImpl<false, false>(maxIter, doneIters);
}

// OBSERVE: m_observer is set and hears every expansion and relaxation (a separate instantiation,
// so the search without an observer pays nothing for it).
// FAST: no observer, a plain filter and a mesh unchanged since init: no ref checks, the plain
// filter inlined. ANY_ANGLE false: the search has no FINDPATH_ANY_ANGLE (no raycast shortcuts).
template <bool OBSERVE, bool FAST, bool ANY_ANGLE>
Status NavMeshQuery::updateSlicedImpl(int maxIter, int* doneIters) {
  if (!FAST && (!m_nav->isValidPolyRef(m_query.startRef) || !m_nav->isValidPolyRef(m_query.endRef))) {
    m_query.status = FAILURE;
    return FAILURE;
  }
  const QueryFilter* filter = m_query.filter;
  const float hscale = filter->getHeuristicScale();
  RaycastHit rayHit;
  rayHit.maxPath = 0;
  // A plain filter is inlined (flag test, distance * area cost).
  const bool plain = FAST || filter->isPlain();
  const QueryFilter::FlagTest flags = filter->flagTest();
  const float* const areaCost = filter->areaCosts();
  SearchObserver* const observer = m_observer;
  RelaxEvent ev;
  auto relax = [&](RelaxResult r) {
    ev.result = r;
    observer->onRelax(ev);
  };
  const RefDecoder refs(*m_nav);
  const PolyRef endRef = m_query.endRef;
  float endPos[3];
  vcopy(endPos, m_query.endPos);

  int iter = 0;
  while (iter < maxIter && !m_openList.empty()) {
    ++iter;
    Node* bestNode = m_openList.pop();
    bestNode->flags = uint8_t((bestNode->flags & ~NODE_OPEN) | NODE_CLOSED);
    m_lastExpanded = bestNode;
    if (OBSERVE) observer->onExpand(*bestNode);

    if (bestNode->id == endRef) {
      m_query.lastBestNode = bestNode;
      m_bestNode = bestNode;
      m_query.status = SUCCESS | (m_query.status & STATUS_DETAIL_MASK);
      if (doneIters) *doneIters = iter;
      return m_query.status;
    }

    const PolyRef bestRef = bestNode->id;
    const MeshTile* bestTile = nullptr;
    const Poly* bestPoly = nullptr;
    if (FAST) {
      refs.decode(bestRef, &bestTile, &bestPoly);
    } else if (statusFailed(m_nav->getTileAndPolyByRef(bestRef, &bestTile, &bestPoly))) {
      // The polygon disappeared during the search.
      m_query.status = FAILURE;
      if (doneIters) *doneIters = iter;
      return m_query.status;
    }

    PolyRef parentRef = 0, grandpaRef = 0;
    const MeshTile* parentTile = nullptr;
    const Poly* parentPoly = nullptr;
    Node* parentNode = nullptr;
    if (bestNode->parent) {
      parentNode = m_nodePool.nodeAtIdx(bestNode->parent);
      parentRef = parentNode->id;
      // The grandparent is needed only for the ref checks and the any-angle raycast.
      if (parentNode->parent && (!FAST || (ANY_ANGLE && (m_query.options & FINDPATH_ANY_ANGLE))))
        grandpaRef = m_nodePool.nodeAtIdx(parentNode->parent)->id;
    }
    if (FAST) {
      // The plain filter needs no parent polygon.
    } else if (parentRef) {
      const bool invalidParent = statusFailed(m_nav->getTileAndPolyByRef(parentRef, &parentTile, &parentPoly));
      if (invalidParent || (grandpaRef && !m_nav->isValidPolyRef(grandpaRef))) {
        m_query.status = FAILURE;
        if (doneIters) *doneIters = iter;
        return m_query.status;
      }
    }

    bool tryLOS = false;
    if (ANY_ANGLE && (m_query.options & FINDPATH_ANY_ANGLE) && parentRef != 0 &&
        vdistSqr(parentNode->pos, bestNode->pos) < m_query.raycastLimitSqr)
      tryLOS = true;

    const uint32_t bestIdx = m_nodePool.nodeIdx(bestNode);
    const Link* const links = bestTile->links;
    for (uint32_t i = bestPoly->firstLink; i != NULL_LINK; i = links[i].next) {
      const PolyRef neighbourRef = links[i].ref;
      const MeshTile* neighbourTile = nullptr;
      const Poly* neighbourPoly = nullptr;
      if (!acceptNeighbour<OBSERVE>(bestRef, neighbourRef, parentRef, refs, plain, flags, filter, &neighbourTile,
                                    &neighbourPoly, ev, observer))
        continue;

      // The sliced search keeps one node per polygon (no crossing-side state), like Detour's.
      Node* neighbourNode = m_nodePool.getNode(neighbourRef, 0);
      if (!neighbourNode) {
        m_query.status |= OUT_OF_NODES;
        if (OBSERVE) relax(RELAX_REJECT_OUT_OF_NODES);
        continue;
      }
      if (OBSERVE) {
        ev.node = neighbourNode;
        ev.previousFlags = neighbourNode->flags;
        ev.previousTotal = neighbourNode->total;
      }
      // Do not expand to nodes already reached from the same parent.
      if (neighbourNode->parent != 0 && neighbourNode->parent == bestNode->parent) {
        if (OBSERVE) relax(RELAX_REJECT_SAME_PARENT);
        continue;
      }

      // First visit: the node sits at its portal's midpoint for good, so its heuristic is fixed too.
      if (neighbourNode->flags == 0) {
        if (!wholeEdgeMidPoint(links[i], bestTile, bestPoly, neighbourPoly, neighbourNode->pos))
          edgeMidPoint(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile, neighbourNode->pos);
      }

      bool foundShortCut = false;
      rayHit.pathCost = rayHit.t = 0;
      if (tryLOS) {
        raycast(parentRef, parentNode->pos, neighbourNode->pos, filter, RAYCAST_USE_COSTS, &rayHit, grandpaRef);
        foundShortCut = rayHit.t >= 1.0f;
      }
      const float cost = foundShortCut ? parentNode->cost + rayHit.pathCost
                                       : bestNode->cost + stepCost(plain, filter, areaCost[bestPoly->getArea()],
                                                                   bestNode->pos, neighbourNode->pos, parentRef,
                                                                   parentTile, parentPoly, bestRef, bestTile,
                                                                   bestPoly, neighbourRef, neighbourTile,
                                                                   neighbourPoly);
      if (OBSERVE) ev.shortcut = foundShortCut;
      auto endCost = [&] {
        return stepCost(plain, filter, areaCost[neighbourPoly->getArea()], neighbourNode->pos, endPos, bestRef,
                        bestTile, bestPoly, neighbourRef, neighbourTile, neighbourPoly, 0, nullptr, nullptr);
      };
      relaxNode<OBSERVE, true>(m_openList, neighbourNode, neighbourNode->pos, cost, neighbourRef == endRef, endCost,
                               endPos, hscale, foundShortCut ? bestNode->parent : bestIdx,
                               foundShortCut ? uint8_t(NODE_PARENT_DETACHED) : uint8_t(0), m_query.lastBestNodeCost,
                               m_query.lastBestNode, &m_bestNode, ev, observer);
    }
  }

  if (m_openList.empty()) m_query.status = SUCCESS | (m_query.status & STATUS_DETAIL_MASK);
  if (doneIters) *doneIters = iter;
  return m_query.status;
}

Status NavMeshQuery::finalizeFromNode(Node* node, PolyRef* path, int* pathCount, int maxPath) {
  // Reverse the parent chain, moving each node's "parent detached" bit to its reversed link.
  Node* prev = nullptr;
  uint8_t prevRay = 0;
  do {
    Node* next = m_nodePool.getNodeAtIdx(node->parent);
    node->parent = m_nodePool.getNodeIdx(prev);
    prev = node;
    const uint8_t nextRay = node->flags & NODE_PARENT_DETACHED;
    node->flags = uint8_t((node->flags & ~NODE_PARENT_DETACHED) | prevRay);
    prevRay = nextRay;
    node = next;
  } while (node);

  int n = 0;
  node = prev;
  do {
    Node* next = m_nodePool.getNodeAtIdx(node->parent);
    Status status = 0;
    if (n >= maxPath) {
      // A raycast shortcut filled the buffer exactly (its own overflow check did not fire):
      // no room for this node (fuzz_query regression finalizeFromNode_overflow).
      m_query.status |= BUFFER_TOO_SMALL;
      break;
    }
    if (node->flags & NODE_PARENT_DETACHED) {
      // A raycast shortcut: fill in the polygons along the ray.
      float t, normal[3];
      int m = 0;
      status = raycast(node->id, node->pos, next->pos, m_query.filter, &t, normal, path + n, &m, maxPath - n);
      n += m;
      if (n > 0 && path[n - 1] == next->id) --n; // the ray ends on next's boundary
    } else {
      path[n++] = node->id;
      if (n >= maxPath) status = BUFFER_TOO_SMALL;
    }
    if (status & STATUS_DETAIL_MASK) {
      m_query.status |= status & STATUS_DETAIL_MASK;
      break;
    }
    node = next;
  } while (node);
  *pathCount = n;
  return SUCCESS;
}

Status NavMeshQuery::finalizeSlicedFindPath(PolyRef* path, int* pathCount, int maxPath) {
  if (!pathCount) return FAILURE | INVALID_PARAM;
  *pathCount = 0;
  if (!path || maxPath <= 0) return FAILURE | INVALID_PARAM;
  if (statusFailed(m_query.status)) {
    m_query = SlicedState();
    return FAILURE;
  }
  int n = 0;
  if (m_query.startRef == m_query.endRef) {
    path[n++] = m_query.startRef;
  } else {
    if (m_query.lastBestNode->id != m_query.endRef) m_query.status |= PARTIAL_RESULT;
    finalizeFromNode(m_query.lastBestNode, path, &n, maxPath);
  }
  const Status details = m_query.status & STATUS_DETAIL_MASK;
  m_query = SlicedState();
  *pathCount = n;
  return SUCCESS | details;
}

Status NavMeshQuery::finalizeSlicedFindPathPartial(const PolyRef* existing, int existingSize, PolyRef* path,
                                                   int* pathCount, int maxPath) {
  if (!pathCount) return FAILURE | INVALID_PARAM;
  *pathCount = 0;
  if (!existing || existingSize <= 0 || !path || maxPath <= 0) return FAILURE | INVALID_PARAM;
  if (statusFailed(m_query.status)) {
    m_query = SlicedState();
    return FAILURE;
  }
  int n = 0;
  if (m_query.startRef == m_query.endRef) {
    path[n++] = m_query.startRef;
  } else {
    // The furthest polygon of the existing path that the search visited.
    Node* node = nullptr;
    for (int i = existingSize - 1; i >= 0; --i) {
      m_nodePool.findNodes(existing[i], &node, 1);
      if (node) break;
    }
    if (!node) {
      m_query.status |= PARTIAL_RESULT;
      node = m_query.lastBestNode;
    }
    finalizeFromNode(node, path, &n, maxPath);
  }
  const Status details = m_query.status & STATUS_DETAIL_MASK;
  m_query = SlicedState();
  *pathCount = n;
  return SUCCESS | details;
}

// ---------------------------------------------------------------------------------------------
// findStraightPath
// ---------------------------------------------------------------------------------------------

Status NavMeshQuery::appendPortals(int startIdx, int endIdx, const float* endPos, const PolyRef* path,
                                   float* straightPath, uint8_t* straightPathFlags, PolyRef* straightPathRefs,
                                   int* straightPathCount, int maxStraightPath, int options) const {
  float startPos[3];
  vcopy(startPos, &straightPath[(*straightPathCount - 1) * 3]);
  for (int i = startIdx; i < endIdx; ++i) {
    const PolyRef from = path[i];
    const MeshTile* fromTile = nullptr;
    const Poly* fromPoly = nullptr;
    if (statusFailed(m_nav->getTileAndPolyByRef(from, &fromTile, &fromPoly))) return FAILURE | INVALID_PARAM;
    const PolyRef to = path[i + 1];
    const MeshTile* toTile = nullptr;
    const Poly* toPoly = nullptr;
    if (statusFailed(m_nav->getTileAndPolyByRef(to, &toTile, &toPoly))) return FAILURE | INVALID_PARAM;
    float left[3], right[3];
    if (statusFailed(portalPoints(from, fromPoly, fromTile, to, toPoly, toTile, left, right))) break;
    if ((options & STRAIGHTPATH_AREA_CROSSINGS) && fromPoly->getArea() == toPoly->getArea()) continue;
    float s, t;
    if (intersectSegSeg2D(startPos, endPos, left, right, s, t)) {
      float pt[3];
      vlerp(pt, left, right, t);
      const Status st = appendStraightPathVertex(pt, 0, path[i + 1], straightPath, straightPathFlags,
                                                 straightPathRefs, straightPathCount, maxStraightPath);
      if (st != IN_PROGRESS) return st;
    }
  }
  return IN_PROGRESS;
}

Status NavMeshQuery::findStraightPath(const float* startPos, const float* endPos, const PolyRef* path, int pathSize,
                                      float* straightPath, uint8_t* straightPathFlags, PolyRef* straightPathRefs,
                                      int* straightPathCount, int maxStraightPath, int options) const {
  // Portals of the corridor, each looked up (and its refs validated) once even though the funnel
  // restarts from the apex after every corner. Only read when pathSize > 1 (path is then checked).
  struct CorridorPortals {
    const NavMeshQuery* q;
    const PolyRef* path;
    float lr[128][6];
    uint8_t type[128];
    int count = 0;
    int lastIdx = -1; // index of the poly in lastTile/lastPoly
    const MeshTile* lastTile = nullptr;
    const Poly* lastPoly = nullptr;
    Status get(int i, float* left, float* right, uint8_t* toType) {
      if (i < count) {
        vcopy(left, lr[i]);
        vcopy(right, lr[i] + 3);
        *toType = type[i];
        return SUCCESS;
      }
      const NavMesh* nav = q->m_nav;
      const MeshTile *fromTile, *toTile;
      const Poly *fromPoly, *toPoly;
      if (lastIdx == i) {
        fromTile = lastTile;
        fromPoly = lastPoly;
      } else if (statusFailed(nav->getTileAndPolyByRef(path[i], &fromTile, &fromPoly))) {
        return FAILURE | INVALID_PARAM;
      }
      if (statusFailed(nav->getTileAndPolyByRef(path[i + 1], &toTile, &toPoly))) return FAILURE | INVALID_PARAM;
      lastIdx = i + 1;
      lastTile = toTile;
      lastPoly = toPoly;
      *toType = toPoly->getType();
      const Status st = q->portalPoints(path[i], fromPoly, fromTile, path[i + 1], toPoly, toTile, left, right);
      if (statusSucceeded(st) && i == count && i < 128) {
        vcopy(lr[i], left);
        vcopy(lr[i] + 3, right);
        type[i] = *toType;
        ++count;
      }
      return st;
    }
  } portals;
  portals.q = this;
  portals.path = path;

  const bool crossings = (options & (STRAIGHTPATH_AREA_CROSSINGS | STRAIGHTPATH_ALL_CROSSINGS)) != 0;
  return straightPathFunnel(*this, startPos, endPos, path, pathSize, straightPath, straightPathFlags,
                            straightPathRefs, straightPathCount, maxStraightPath, portals, crossings,
                            [&](int startIdx, int endIdx, const float* crossEnd) {
                              return appendPortals(startIdx, endIdx, crossEnd, path, straightPath, straightPathFlags,
                                                   straightPathRefs, straightPathCount, maxStraightPath, options);
                            });
}

// ---------------------------------------------------------------------------------------------
// moveAlongSurface
// ---------------------------------------------------------------------------------------------

Status NavMeshQuery::moveAlongSurface(PolyRef startRef, const float* startPos, const float* endPos,
                                      const QueryFilter* filter, float* resultPos, PolyRef* visited,
                                      int* visitedCount, int maxVisitedSize, bool* endInside) const {
  if (endInside) *endInside = false;
  if (!visitedCount) return FAILURE | INVALID_PARAM;
  *visitedCount = 0;
  const MeshTile* startTile = nullptr;
  const Poly* startPoly = nullptr;
  if (!m_nav || statusFailed(m_nav->getTileAndPolyByRef(startRef, &startTile, &startPoly)) || !startPos ||
      !visfinite(startPos) || !endPos || !visfinite(endPos) || !filter || !resultPos || !visited ||
      maxVisitedSize <= 0)
    return FAILURE | INVALID_PARAM;

  // The target inside the start poly (most short moves): the search would stop at its first
  // pop with this answer, the start poly alone (a one-entry buffer reports BUFFER_TOO_SMALL
  // even so, as the general path does).
  if (pointInPolygonIdx(endPos, startTile->verts, startPoly->verts, startPoly->vertCount)) {
    vcopy(resultPos, endPos);
    visited[0] = startRef;
    *visitedCount = 1;
    if (endInside) *endInside = true;
    return maxVisitedSize <= 1 ? (SUCCESS | BUFFER_TOO_SMALL) : SUCCESS;
  }

  // The target in a local: the caller's array could alias the arrays below, and its reads would
  // be repeated after every store to them.
  float target[3];
  vcopy(target, endPos);

  // The visited set. Detour gives every neighbour that passes the filter a node in its 64-node
  // tiny pool (even one the search then skips), and a full pool refuses new polygons; of a node
  // the search only reads the polygon, the parent and whether it was queued. keys[0, count) are
  // the polygons with a node, in creation order; a lookup scans them (a search here makes a
  // handful of nodes, and the arrays live on the stack, so nothing is cleared per call).
  constexpr int MAX_NODES = TINY_NODE_POOL;
  static_assert(MAX_NODES <= 255, "node indices + 1 are stored in bytes");
  PolyRef keys[MAX_NODES];
  uint8_t parent[MAX_NODES]; // parent's index + 1; 0 = none
  uint8_t queued[MAX_NODES];
  int count = 0;
  auto findKey = [&](PolyRef ref) {
    for (int i = 0; i < count; ++i)
      if (keys[i] == ref) return i;
    return -1;
  };

  // The filter's hook and flag test read once.
  const QueryFilter::PassFn passFn = filter->passFn();
  const QueryFilter::FlagTest flags = filter->flagTest();
  auto pass = [&](PolyRef ref, const MeshTile* tile, const Poly* poly) {
    if (passFn) return passFn(*filter, ref, tile, poly);
    return flags.passes(poly->flags);
  };

  Status status = SUCCESS;
  constexpr int MAX_STACK = 48;
  // A FIFO despite the name (Detour's order) of node indices: entries [head, nstack) are queued.
  // Detour shifts the array down on every pop, so at most MAX_STACK entries are queued at once;
  // nstack - head is that count, and the array is only compacted when its end is reached.
  uint8_t stack[MAX_STACK];
  int head = 0;
  int nstack = 0;

  keys[0] = startRef;
  parent[0] = 0;
  queued[0] = 1;
  count = 1;
  stack[nstack++] = 0;

  float bestPos[3];
  float bestDist = FLT_MAX;
  int bestNode = -1;
  vcopy(bestPos, startPos);

  // Only polygons touching the circle around the move segment are searched.
  float searchPos[3];
  vlerp(searchPos, startPos, endPos, 0.5f);
  const float searchRadSqr = sqr(vdist(startPos, endPos) / 2.0f + 0.001f);

  // The mesh's ref layout and tile array in locals: the stores to the arrays above could
  // otherwise alias them and force reloads.
  const MeshTile* const tiles = m_nav->getTile(0);
  const uint32_t polyBits = m_nav->polyBits();
  const uint32_t polyMask = (1u << polyBits) - 1;
  const uint32_t tileMask = (1u << m_nav->tileBits()) - 1;

  constexpr int MAX_NEIS = 8;
  while (head < nstack) {
    const int cur = stack[head++];
    const PolyRef curRef = keys[cur];
    const MeshTile* curTile = startTile;
    const Poly* curPoly = startPoly;
    if (cur != 0) {
      curTile = tiles + ((curRef >> polyBits) & tileMask);
      curPoly = &curTile->polys[curRef & polyMask];
    }
    // Every ref here carries its tile's current salt (the start ref was checked; the others come
    // from valid tiles' links and neis), so the tile's base ref is the ref without its poly bits.
    const PolyRef curBase = curRef & ~polyMask;
    const int nverts = curPoly->vertCount;
    const float* tverts = curTile->verts;
    const uint16_t* pverts = curPoly->verts;
    // The parent is queued already: its edge needs no lookup (0 for the start poly, no ref).
    const PolyRef parentRef = parent[cur] ? keys[parent[cur] - 1] : 0;

    // (The start poly was tested above.)
    if (cur != 0 && pointInPolygonIdx(target, tverts, pverts, nverts)) {
      bestNode = cur;
      vcopy(bestPos, target);
      if (endInside) *endInside = true;
      break;
    }

    for (int i = 0, j = nverts - 1; i < nverts; j = i++) {
      int nneis = 0;
      PolyRef neis[MAX_NEIS];
      const uint16_t nei = curPoly->neis[j];
      if (nei & EXT_LINK) {
        for (uint32_t k = curPoly->firstLink; k != NULL_LINK; k = curTile->links[k].next) {
          const Link& link = curTile->links[k];
          if (link.edge == j && link.ref != 0) {
            const MeshTile* neiTile = tiles + ((link.ref >> polyBits) & tileMask);
            const Poly* neiPoly = &neiTile->polys[link.ref & polyMask];
            if (pass(link.ref, neiTile, neiPoly) && nneis < MAX_NEIS) neis[nneis++] = link.ref;
          }
        }
      } else if (nei) {
        const uint32_t idx = uint32_t(nei - 1);
        const PolyRef ref = curBase | idx;
        if (pass(ref, curTile, &curTile->polys[idx])) neis[nneis++] = ref;
      }

      const float* vj = &tverts[pverts[j] * 3];
      const float* vi = &tverts[pverts[i] * 3];
      if (!nneis) {
        // Wall: the closest point on it is a candidate result.
        float tseg;
        const float distSqr = distancePtSegSqr2D(target, vj, vi, tseg);
        if (distSqr < bestDist) {
          vlerp(bestPos, vj, vi, tseg);
          bestDist = distSqr;
          bestNode = cur;
        }
        continue;
      }
      float tseg;
      // Detour tests the search circle per neighbour not queued yet; it is the same for the whole
      // edge, so it is computed once, when first needed.
      int far = -1;
      for (int k = 0; k < nneis; ++k) {
        const PolyRef ref = neis[k];
        if (ref == parentRef) continue;
        int node = findKey(ref);
        if (node < 0) {
          if (count >= MAX_NODES) continue; // Detour's pool is full
          node = count++;
          keys[node] = ref;
          queued[node] = 0;
        }
        if (queued[node]) continue;
        if (far < 0) far = distancePtSegSqr2D(searchPos, vj, vi, tseg) > searchRadSqr;
        if (far) continue;
        if (nstack - head < MAX_STACK) {
          if (nstack == MAX_STACK) { // compact: move the queued entries to the front
            for (int q = head; q < nstack; ++q) stack[q - head] = stack[q];
            nstack -= head;
            head = 0;
          }
          parent[node] = uint8_t(cur + 1);
          queued[node] = 1;
          stack[nstack++] = uint8_t(node);
        }
      }
    }
  }

  int n = 0;
  if (bestNode >= 0) {
    // The parent chain, best node first (at most one entry per node).
    uint8_t chain[MAX_NODES];
    int len = 0;
    for (int node = bestNode;;) {
      chain[len++] = uint8_t(node);
      if (!parent[node]) break;
      node = parent[node] - 1;
    }
    while (n < len) {
      visited[n] = keys[chain[len - 1 - n]];
      ++n;
      if (n >= maxVisitedSize) {
        status |= BUFFER_TOO_SMALL;
        break;
      }
    }
  }
  vcopy(resultPos, bestPos);
  *visitedCount = n;
  return status;
}

// ---------------------------------------------------------------------------------------------
// raycast
// ---------------------------------------------------------------------------------------------

namespace {

// raycast's clip of the ray p0 + t * dir (xz) against one polygon (vertex indices vidx into verts):
// intersectSegmentPoly2D's loop (NavMath.h) on vertex indices, with only what the walk uses kept.
// False when the polygon is missed: an edge parallel to the ray (|d| < EPS) has the start outside it, or the largest entering
// parameter (tmin, from 0) exceeds the smallest leaving one (tmax, from 1). Else the ray leaves
// through edge segMax at tmax (-1 and 1 when the end is inside). tmin only grows and tmax only
// shrinks along the loop, so one test after it gives the reference's answer (its tests after each
// update stop early with the same result); the entering edges' index is never used, so tmin is a
// plain maximum. Each t is the same n / d, so tmax and segMax (the first edge reaching the least
// t) are the reference's bit for bit. NV > 0: the vertex count, unrolled; 0: nv.
template <int NV>
__attribute__((always_inline)) inline bool rayClip(const float* verts, const uint16_t* vidx, int nv, float p0x,
                                                   float p0z, float dirx, float dirz, float& tmaxOut, int& segMaxOut) {
  const float EPS = 0.00000001f;
  const int count = NV ? NV : nv;
  float tmin = 0, tmax = 1;
  int segMax = -1;
  bool parallelOut = false;
  const float* vj = verts + size_t(vidx[count - 1]) * 3;
  float xj = vj[0], zj = vj[2];
#pragma GCC unroll 6
  for (int i = 0; i < count; ++i) {
    const int j = i == 0 ? count - 1 : i - 1;
    const float* vi = verts + size_t(vidx[i]) * 3;
    const float xi = vi[0], zi = vi[2];
    const float ex = xi - xj, ez = zi - zj;
    const float dx = p0x - xj, dz = p0z - zj;
    xj = xi;
    zj = zi;
    const float num = ez * dx - ex * dz;
    const float d = dirz * ex - dirx * ez;
    if (d <= -EPS) {
      const float t = num / d;
      tmin = t > tmin ? t : tmin;
    } else if (__builtin_expect(!(d < EPS), 1)) { // d >= EPS (or NaN, which never moves tmax)
      const float t = num / d;
      if (t < tmax) {
        tmax = t;
        segMax = j;
        // A branch, not a select: the walk then goes on to the next polygon on the predicted
        // exit edge while the divisions finish (a select makes every step wait for them).
        __asm__ volatile("");
      }
    } else if (num < 0) {
      parallelOut = true;
    }
  }
  tmaxOut = tmax;
  segMaxOut = segMax;
  return !(parallelOut | (tmin > tmax));
}

// raycast: whether the ray's exit at tmax through a partial tile-border link's edge lies within the
// link's part of the edge (the polygon's vertices verts/vidx/nv). Out of line: rare, and inlined its
// set-up took registers from the walk.
__attribute__((noinline)) bool rayCrossesPartialLink(const Link& link, const float* verts, const uint16_t* vidx,
                                                     int nv, const float* startPos, const float* endPos, float tmax) {
  const float* left = &verts[vidx[link.edge] * 3];
  const float* right = &verts[vidx[nextVert(link.edge, nv)] * 3];
  // Sides 0 and 4 (x borders) run along z, sides 2 and 6 (z borders) along x; the diagonal
  // sides have no partial portals.
  int axis;
  if (link.side == 0 || link.side == 4) axis = 2;
  else if (link.side == 2 || link.side == 6) axis = 0;
  else return false;
  const float s = 1.0f / 255.0f;
  float lmin = left[axis] + (right[axis] - left[axis]) * (link.bmin * s);
  float lmax = left[axis] + (right[axis] - left[axis]) * (link.bmax * s);
  if (lmin > lmax) navSwap(lmin, lmax);
  const float c = startPos[axis] + (endPos[axis] - startPos[axis]) * tmax;
  return c >= lmin && c <= lmax;
}

// The polygon walk of the full raycast, after the API edge's checks. USE_COSTS: RAYCAST_USE_COSTS;
// FLAG_FILTER: the filter has no PassFn (passFilter is its flag test). The ray's start, direction
// and results live in locals (hit's floats could alias startPos/endPos), and the mesh's ref split in
// locals too, so a polygon costs the clip, the exit edge's neighbour and one path write.
template <bool USE_COSTS, bool FLAG_FILTER>
Status raycastWalk(const NavMesh& mesh, PolyRef curRef, const MeshTile* tile, const Poly* poly, PolyRef prevRef,
                   const MeshTile* prevTile, const Poly* prevPoly, const float* startPos, const float* endPos,
                   const QueryFilter& filter, RaycastHit& hit) {
  const float p0x = startPos[0], p0z = startPos[2];
  const float dirx = endPos[0] - p0x, dirz = endPos[2] - p0z;
  float dir[3], curPos[3], lastPos[3];
  if (USE_COSTS) {
    vsub(dir, endPos, startPos);
    vcopy(curPos, startPos);
  }
  const QueryFilter::FlagTest flags = filter.flagTest();
  // Ref split (NavMesh::getTileAndPolyByRefUnsafe's): tile = (ref >> polyBits) & tileMask,
  // poly = ref & polyMask. A polygon's neighbour in the same tile has its ref's salt and tile bits.
  const MeshTile* const tiles = mesh.getTile(0);
  const uint32_t polyBits = mesh.polyBits();
  const uint32_t polyMask = (1u << polyBits) - 1;
  const uint32_t tileMask = (1u << mesh.tileBits()) - 1;
  PolyRef* const path = hit.path;
  const int maxPath = hit.maxPath;
  float hitT = 0, pathCost = 0;
  int hitEdge = hit.hitEdgeIndex;
  int n = 0; // Polygons crossed: the path holds the first maxPath, the rest make BUFFER_TOO_SMALL.
  const MeshTile* nextTile = tile;
  const Poly* nextPoly = poly;
  // A convex polygon meets a line in one interval, so on a well-formed mesh the walk never comes
  // back to a polygon; a hostile tile (neighbours that point back, polygons that are not convex)
  // could send it round for ever, as it would Detour's. The next polygon depends on the current one
  // only, so a repeat is a cycle: Brent's detection (a saved ref, compared once a step) stops it.
  PolyRef cycleRef = curRef;
  int cycleLen = 0, cyclePower = 1;
  bool cycled = false;

  for (;;) {
    const int nv = poly->vertCount;
    const float* verts = tile->verts;
    const uint16_t* vidx = poly->verts;
    float tmax;
    int segMax;
    bool crosses;
    // Ground polygons have 3..6 vertices: the clip unrolled for each count.
    switch (nv) {
    case 3: crosses = rayClip<3>(verts, vidx, nv, p0x, p0z, dirx, dirz, tmax, segMax); break;
    case 4: crosses = rayClip<4>(verts, vidx, nv, p0x, p0z, dirx, dirz, tmax, segMax); break;
    case 5: crosses = rayClip<5>(verts, vidx, nv, p0x, p0z, dirx, dirz, tmax, segMax); break;
    case 6: crosses = rayClip<6>(verts, vidx, nv, p0x, p0z, dirx, dirz, tmax, segMax); break;
    default: crosses = rayClip<0>(verts, vidx, nv, p0x, p0z, dirx, dirz, tmax, segMax); break;
    }
    if (__builtin_expect(!crosses, 0)) break; // The ray misses this polygon: keep the last t.

    hitEdge = segMax;
    if (tmax > hitT) hitT = tmax;
    if (__builtin_expect(n < maxPath, 1)) path[n] = curRef;
    ++n;

    if (segMax == -1) {
      // The end is inside this polygon.
      hitT = FLT_MAX;
      if (USE_COSTS)
        pathCost += filter.getCost(curPos, endPos, prevRef, prevTile, prevPoly, curRef, tile, poly, curRef, tile, poly);
      break;
    }

    // The neighbour across the exit edge. An inner edge of a ground poly has exactly one link, to
    // the poly its neis entry names (validated tiles have the link budget for it), and a wall has
    // none (nextTile/nextPoly then keep their values, as after a link search that finds nothing):
    // only tile-border edges and off-mesh polys need the link list.
    PolyRef nextRef = 0;
    const uint16_t nei = poly->neis[segMax];
    auto passes = [&](PolyRef ref, const MeshTile* t, const Poly* p) {
      if (FLAG_FILTER) return flags.passes(p->flags);
      return filter.passFilter(ref, t, p);
    };
    if (!(nei & EXT_LINK) && poly->getType() == POLYTYPE_GROUND) {
      if (nei) {
        const uint32_t idx = uint32_t(nei - 1);
        const PolyRef ref = (curRef & ~polyMask) | PolyRef(idx);
        nextTile = tile;
        nextPoly = &tile->polys[idx];
        if (nextPoly->getType() != POLYTYPE_OFFMESH_CONNECTION && passes(ref, nextTile, nextPoly)) nextRef = ref;
      }
    } else {
      const Link* links = tile->links;
      for (uint32_t i = poly->firstLink; i != NULL_LINK; i = links[i].next) {
        const Link* link = &links[i];
        if (int(link->edge) != segMax) continue;
        const PolyRef ref = link->ref;
        nextTile = &tiles[(ref >> polyBits) & tileMask];
        nextPoly = &nextTile->polys[ref & polyMask];
        if (nextPoly->getType() == POLYTYPE_OFFMESH_CONNECTION) continue;
        if (!passes(ref, nextTile, nextPoly)) continue;
        if (link->side == 0xff || (link->bmin == 0 && link->bmax == 255)) {
          nextRef = ref;
          break;
        }
        // Partial tile-border link: the crossing must lie within it.
        if (rayCrossesPartialLink(*link, verts, vidx, nv, startPos, endPos, tmax)) {
          nextRef = ref;
          break;
        }
      }
    }

    if (USE_COSTS) {
      // Cost up to the exit point, its height taken on the exit edge (the ray itself is 2D).
      vcopy(lastPos, curPos);
      vmad(curPos, startPos, dir, hitT);
      const float* e1 = &verts[vidx[segMax] * 3];
      const float* e2 = &verts[vidx[nextVert(segMax, nv)] * 3];
      float eDir[3], diff[3];
      vsub(eDir, e2, e1);
      vsub(diff, curPos, e1);
      const float s = sqr(eDir[0]) > sqr(eDir[2]) ? diff[0] / eDir[0] : diff[2] / eDir[2];
      curPos[1] = e1[1] + eDir[1] * s;
      pathCost += filter.getCost(lastPos, curPos, prevRef, prevTile, prevPoly, curRef, tile, poly, nextRef, nextTile,
                                 nextPoly);
    }

    if (!nextRef) {
      // A wall: its normal.
      const float* va = &verts[vidx[segMax] * 3];
      const float* vb = &verts[vidx[nextVert(segMax, nv)] * 3];
      const float ndx = vb[0] - va[0];
      const float ndz = vb[2] - va[2];
      hit.hitNormal[0] = ndz;
      hit.hitNormal[1] = 0;
      hit.hitNormal[2] = -ndx;
      vnormalize(hit.hitNormal);
      break;
    }

    if (USE_COSTS) {
      prevRef = curRef;
      prevTile = tile;
      prevPoly = poly;
    }
    curRef = nextRef;
    tile = nextTile;
    poly = nextPoly;
    if (__builtin_expect(curRef == cycleRef, 0)) {
      cycled = true;
      break;
    }
    if (++cycleLen == cyclePower) {
      cycleRef = curRef;
      cyclePower *= 2;
      cycleLen = 0;
    }
  }
  hit.t = hitT;
  hit.hitEdgeIndex = hitEdge;
  hit.pathCount = n < maxPath ? n : maxPath;
  if (USE_COSTS) hit.pathCost = pathCost;
  if (cycled) return FAILURE | INVALID_PARAM; // a malformed mesh: the walk went round in a cycle
  return n > maxPath ? Status(SUCCESS | BUFFER_TOO_SMALL) : Status(SUCCESS);
}

} // namespace

Status NavMeshQuery::raycast(PolyRef startRef, const float* startPos, const float* endPos, const QueryFilter* filter,
                             float* t, float* hitNormal, PolyRef* path, int* pathCount, int maxPath) const {
  if (!t) return FAILURE | INVALID_PARAM;
  RaycastHit hit;
  hit.path = path;
  hit.maxPath = path ? maxPath : 0;
  const Status status = raycast(startRef, startPos, endPos, filter, 0, &hit);
  *t = hit.t;
  if (hitNormal) vcopy(hitNormal, hit.hitNormal);
  if (pathCount) *pathCount = hit.pathCount;
  return status;
}

Status NavMeshQuery::raycast(PolyRef startRef, const float* startPos, const float* endPos, const QueryFilter* filter,
                             int options, RaycastHit* hit, PolyRef prevRef) const {
  if (!hit) return FAILURE | INVALID_PARAM;
  hit->t = 0;
  hit->pathCount = 0;
  hit->pathCost = 0;
  const MeshTile *prevTile, *tile;
  const Poly *prevPoly, *poly;
  if (!m_nav || statusFailed(m_nav->getTileAndPolyByRef(startRef, &tile, &poly)) || !startPos ||
      !visfinite(startPos) || !endPos || !visfinite(endPos) || !filter ||
      (prevRef && statusFailed(m_nav->getTileAndPolyByRef(prevRef, &prevTile, &prevPoly))) || hit->maxPath < 0 ||
      (hit->maxPath > 0 && !hit->path))
    return FAILURE | INVALID_PARAM;
  vset(hit->hitNormal, 0, 0, 0);
  if (!prevRef) {
    prevTile = tile;
    prevPoly = poly;
  }
  const bool flagFilter = !filter->passFn();
  if (options & RAYCAST_USE_COSTS)
    return flagFilter ? raycastWalk<true, true>(*m_nav, startRef, tile, poly, prevRef, prevTile, prevPoly, startPos,
                                                endPos, *filter, *hit)
                      : raycastWalk<true, false>(*m_nav, startRef, tile, poly, prevRef, prevTile, prevPoly, startPos,
                                                 endPos, *filter, *hit);
  return flagFilter ? raycastWalk<false, true>(*m_nav, startRef, tile, poly, prevRef, prevTile, prevPoly, startPos,
                                               endPos, *filter, *hit)
                    : raycastWalk<false, false>(*m_nav, startRef, tile, poly, prevRef, prevTile, prevPoly, startPos,
                                                endPos, *filter, *hit);
}

// ---------------------------------------------------------------------------------------------
// Local area
// ---------------------------------------------------------------------------------------------

Status NavMeshQuery::findDistanceToWall(PolyRef startRef, const float* centerPos, float maxRadius,
                                        const QueryFilter* filter, float* hitDist, float* hitPos, float* hitNormal) {
  if (!m_nav || !m_nav->isValidPolyRef(startRef) || !centerPos || !visfinite(centerPos) || maxRadius < 0 ||
      !std::isfinite(maxRadius) || !filter || !hitDist || !hitPos || !hitNormal)
    return FAILURE | INVALID_PARAM;

  m_nodePool.clear();
  m_openList.clear();
  m_lastExpanded = nullptr;
  m_bestNode = nullptr;
  Node* startNode = m_nodePool.getNode(startRef);
  vcopy(startNode->pos, centerPos);
  startNode->parent = 0;
  startNode->cost = 0;
  startNode->total = 0;
  startNode->flags = NODE_OPEN;
  m_openList.push(startNode);

  float radiusSqr = sqr(maxRadius);
  bool hitWall = false;
  Status status = SUCCESS;
  while (!m_openList.empty()) {
    Node* bestNode = m_openList.pop();
    bestNode->flags = uint8_t((bestNode->flags & ~NODE_OPEN) | NODE_CLOSED);
    m_lastExpanded = bestNode;
    const PolyRef bestRef = bestNode->id;
    const MeshTile* bestTile = nullptr;
    const Poly* bestPoly = nullptr;
    m_nav->getTileAndPolyByRefUnsafe(bestRef, &bestTile, &bestPoly);
    PolyRef parentRef = 0;
    if (bestNode->parent) parentRef = m_nodePool.getNodeAtIdx(bestNode->parent)->id;

    // Walls of this polygon.
    const int nv = bestPoly->vertCount;
    for (int i = 0, j = nv - 1; i < nv; j = i++) {
      if (bestPoly->neis[j] & EXT_LINK) {
        bool solid = true;
        for (uint32_t k = bestPoly->firstLink; k != NULL_LINK; k = bestTile->links[k].next) {
          const Link& link = bestTile->links[k];
          if (link.edge == j) {
            if (link.ref != 0) {
              const MeshTile* neiTile = nullptr;
              const Poly* neiPoly = nullptr;
              m_nav->getTileAndPolyByRefUnsafe(link.ref, &neiTile, &neiPoly);
              if (filter->passFilter(link.ref, neiTile, neiPoly)) solid = false;
            }
            break; // Detour looks at the first link of the edge only
          }
        }
        if (!solid) continue;
      } else if (bestPoly->neis[j]) {
        const uint32_t idx = uint32_t(bestPoly->neis[j] - 1);
        const PolyRef ref = m_nav->getPolyRefBase(bestTile) | idx;
        if (filter->passFilter(ref, bestTile, &bestTile->polys[idx])) continue;
      }
      const float* vj = &bestTile->verts[bestPoly->verts[j] * 3];
      const float* vi = &bestTile->verts[bestPoly->verts[i] * 3];
      float tseg;
      const float distSqr = distancePtSegSqr2D(centerPos, vj, vi, tseg);
      if (distSqr > radiusSqr) continue;
      radiusSqr = distSqr;
      hitWall = true;
      hitPos[0] = vj[0] + (vi[0] - vj[0]) * tseg;
      hitPos[1] = vj[1] + (vi[1] - vj[1]) * tseg;
      hitPos[2] = vj[2] + (vi[2] - vj[2]) * tseg;
    }

    for (uint32_t i = bestPoly->firstLink; i != NULL_LINK; i = bestTile->links[i].next) {
      const Link& link = bestTile->links[i];
      const PolyRef neighbourRef = link.ref;
      if (!neighbourRef || neighbourRef == parentRef) continue;
      const MeshTile* neighbourTile = nullptr;
      const Poly* neighbourPoly = nullptr;
      m_nav->getTileAndPolyByRefUnsafe(neighbourRef, &neighbourTile, &neighbourPoly);
      if (neighbourPoly->getType() == POLYTYPE_OFFMESH_CONNECTION) continue;
      const float* va = &bestTile->verts[bestPoly->verts[link.edge] * 3];
      const float* vb = &bestTile->verts[bestPoly->verts[nextVert(link.edge, bestPoly->vertCount)] * 3];
      float tseg;
      if (distancePtSegSqr2D(centerPos, va, vb, tseg) > radiusSqr) continue;
      if (!filter->passFilter(neighbourRef, neighbourTile, neighbourPoly)) continue;
      Node* neighbourNode = m_nodePool.getNode(neighbourRef);
      if (!neighbourNode) {
        status |= OUT_OF_NODES;
        continue;
      }
      if (neighbourNode->flags & NODE_CLOSED) continue;
      if (neighbourNode->flags == 0)
        edgeMidPoint(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile, neighbourNode->pos);
      const float total = bestNode->total + vdist(bestNode->pos, neighbourNode->pos);
      if ((neighbourNode->flags & NODE_OPEN) && total >= neighbourNode->total) continue;
      neighbourNode->flags = uint8_t(neighbourNode->flags & ~NODE_CLOSED);
      neighbourNode->parent = m_nodePool.getNodeIdx(bestNode);
      neighbourNode->total = total;
      openNode(m_openList, neighbourNode);
    }
  }

  if (hitWall) {
    vsub(hitNormal, centerPos, hitPos);
    vnormalize(hitNormal);
  } else {
    // No wall within maxRadius. (Detour leaves hitPos unset here and normalises garbage.)
    vcopy(hitPos, centerPos);
    vset(hitNormal, 0, 0, 0);
  }
  *hitDist = std::sqrt(radiusSqr);
  return status;
}

// The Dijkstra shared by findPolysAroundCircle and findPolysAroundShape: expands from startRef
// (its node at centerPos) through every portal that touchesPortal(va, vb) accepts, nodes at
// portal midpoints, costs from the filter. Inputs were checked by the caller.
template <class PortalTest>
Status NavMeshQuery::searchPolysAround(PolyRef startRef, const float* centerPos, const QueryFilter* filter,
                                       PortalTest touchesPortal, PolyRef* resultRef, PolyRef* resultParent,
                                       float* resultCost, int* resultCount, int maxResult) {
  m_nodePool.clear();
  m_openList.clear();
  m_lastExpanded = nullptr;
  m_bestNode = nullptr;
  Node* startNode = m_nodePool.getNode(startRef);
  vcopy(startNode->pos, centerPos);
  startNode->parent = 0;
  startNode->cost = 0;
  startNode->total = 0;
  startNode->flags = NODE_OPEN;
  m_openList.push(startNode);

  Status status = SUCCESS;
  int n = 0;
  while (!m_openList.empty()) {
    Node* bestNode = m_openList.pop();
    bestNode->flags = uint8_t((bestNode->flags & ~NODE_OPEN) | NODE_CLOSED);
    m_lastExpanded = bestNode;
    const PolyRef bestRef = bestNode->id;
    const MeshTile* bestTile = nullptr;
    const Poly* bestPoly = nullptr;
    m_nav->getTileAndPolyByRefUnsafe(bestRef, &bestTile, &bestPoly);
    PolyRef parentRef = 0;
    const MeshTile* parentTile = nullptr;
    const Poly* parentPoly = nullptr;
    if (bestNode->parent) parentRef = m_nodePool.getNodeAtIdx(bestNode->parent)->id;
    if (parentRef) m_nav->getTileAndPolyByRefUnsafe(parentRef, &parentTile, &parentPoly);

    if (n < maxResult) {
      if (resultRef) resultRef[n] = bestRef;
      if (resultParent) resultParent[n] = parentRef;
      if (resultCost) resultCost[n] = bestNode->total;
      ++n;
    } else {
      status |= BUFFER_TOO_SMALL;
    }

    for (uint32_t i = bestPoly->firstLink; i != NULL_LINK; i = bestTile->links[i].next) {
      const PolyRef neighbourRef = bestTile->links[i].ref;
      if (!neighbourRef || neighbourRef == parentRef) continue;
      const MeshTile* neighbourTile = nullptr;
      const Poly* neighbourPoly = nullptr;
      m_nav->getTileAndPolyByRefUnsafe(neighbourRef, &neighbourTile, &neighbourPoly);
      if (!filter->passFilter(neighbourRef, neighbourTile, neighbourPoly)) continue;
      float va[3], vb[3];
      if (statusFailed(portalPoints(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile, va, vb)))
        continue;
      if (!touchesPortal(va, vb)) continue;
      Node* neighbourNode = m_nodePool.getNode(neighbourRef);
      if (!neighbourNode) {
        status |= OUT_OF_NODES;
        continue;
      }
      if (neighbourNode->flags & NODE_CLOSED) continue;
      if (neighbourNode->flags == 0) vlerp(neighbourNode->pos, va, vb, 0.5f);
      const float cost = filter->getCost(bestNode->pos, neighbourNode->pos, parentRef, parentTile, parentPoly, bestRef,
                                         bestTile, bestPoly, neighbourRef, neighbourTile, neighbourPoly);
      const float total = bestNode->total + cost;
      if ((neighbourNode->flags & NODE_OPEN) && total >= neighbourNode->total) continue;
      neighbourNode->parent = m_nodePool.getNodeIdx(bestNode);
      neighbourNode->total = total;
      if (neighbourNode->flags & NODE_OPEN) {
        m_openList.modify(neighbourNode);
      } else {
        neighbourNode->flags = NODE_OPEN;
        m_openList.push(neighbourNode);
      }
    }
  }
  *resultCount = n;
  return status;
}


Status NavMeshQuery::findPolysAroundCircle(PolyRef startRef, const float* centerPos, float radius,
                                           const QueryFilter* filter, PolyRef* resultRef, PolyRef* resultParent,
                                           float* resultCost, int* resultCount, int maxResult) {
  if (!resultCount) return FAILURE | INVALID_PARAM;
  *resultCount = 0;
  if (!m_nav || !m_nav->isValidPolyRef(startRef) || !centerPos || !visfinite(centerPos) || radius < 0 ||
      !std::isfinite(radius) || !filter || maxResult < 0)
    return FAILURE | INVALID_PARAM;

  const float radiusSqr = sqr(radius);
  return searchPolysAround(
      startRef, centerPos, filter,
      [&](const float* va, const float* vb) {
        float tseg;
        return !(distancePtSegSqr2D(centerPos, va, vb, tseg) > radiusSqr);
      },
      resultRef, resultParent, resultCost, resultCount, maxResult);
}

Status NavMeshQuery::findPolysAroundShape(PolyRef startRef, const float* verts, int nverts, const QueryFilter* filter,
                                          PolyRef* resultRef, PolyRef* resultParent, float* resultCost,
                                          int* resultCount, int maxResult) {
  if (!resultCount) return FAILURE | INVALID_PARAM;
  *resultCount = 0;
  if (!m_nav || !m_nav->isValidPolyRef(startRef) || !verts || nverts < 3 || nverts > 64 || !filter || maxResult < 0)
    return FAILURE | INVALID_PARAM;
  for (int i = 0; i < nverts; ++i)
    if (!visfinite(&verts[i * 3])) return FAILURE | INVALID_PARAM;

  float centerPos[3] = {0, 0, 0};
  for (int i = 0; i < nverts; ++i) vadd(centerPos, centerPos, &verts[i * 3]);
  vscale(centerPos, centerPos, 1.0f / float(nverts));

  return searchPolysAround( // the shape must touch the portal
      startRef, centerPos, filter,
      [&](const float* va, const float* vb) {
        float tmin, tmax;
        int segMin, segMax;
        return intersectSegmentPoly2D(va, vb, verts, nverts, tmin, tmax, segMin, segMax) && !(tmin > 1.0f || tmax < 0.0f);
      },
      resultRef, resultParent, resultCost, resultCount, maxResult);
}

Status NavMeshQuery::findLocalNeighbourhood(PolyRef startRef, const float* centerPos, float radius,
                                            const QueryFilter* filter, PolyRef* resultRef, PolyRef* resultParent,
                                            int* resultCount, int maxResult) const {
  if (!resultCount) return FAILURE | INVALID_PARAM;
  *resultCount = 0;
  if (!m_nav || !m_nav->isValidPolyRef(startRef) || !centerPos || !visfinite(centerPos) || radius < 0 ||
      !std::isfinite(radius) || !filter || !resultRef || maxResult < 0)
    return FAILURE | INVALID_PARAM;

  constexpr int MAX_STACK = 48;
  Node* stack[MAX_STACK];
  int nstack = 0;
  m_tinyNodePool.clear();
  Node* startNode = m_tinyNodePool.getNode(startRef);
  startNode->parent = 0;
  startNode->flags = NODE_CLOSED;
  stack[nstack++] = startNode;

  const float radiusSqr = sqr(radius);
  float pa[VERTS_PER_POLYGON * 3];
  float pb[VERTS_PER_POLYGON * 3];
  Status status = SUCCESS;
  int n = 0;
  if (n < maxResult) {
    resultRef[n] = startNode->id;
    if (resultParent) resultParent[n] = 0;
    ++n;
  } else {
    status |= BUFFER_TOO_SMALL;
  }

  while (nstack) {
    Node* curNode = stack[0];
    for (int i = 0; i < nstack - 1; ++i) stack[i] = stack[i + 1];
    --nstack;
    const PolyRef curRef = curNode->id;
    const MeshTile* curTile = nullptr;
    const Poly* curPoly = nullptr;
    m_nav->getTileAndPolyByRefUnsafe(curRef, &curTile, &curPoly);

    for (uint32_t i = curPoly->firstLink; i != NULL_LINK; i = curTile->links[i].next) {
      const PolyRef neighbourRef = curTile->links[i].ref;
      if (!neighbourRef) continue;
      Node* neighbourNode = m_tinyNodePool.getNode(neighbourRef);
      if (!neighbourNode) continue;
      if (neighbourNode->flags & NODE_CLOSED) continue;
      const MeshTile* neighbourTile = nullptr;
      const Poly* neighbourPoly = nullptr;
      m_nav->getTileAndPolyByRefUnsafe(neighbourRef, &neighbourTile, &neighbourPoly);
      if (neighbourPoly->getType() == POLYTYPE_OFFMESH_CONNECTION) continue;
      if (!filter->passFilter(neighbourRef, neighbourTile, neighbourPoly)) continue;
      float va[3], vb[3];
      if (statusFailed(portalPoints(curRef, curPoly, curTile, neighbourRef, neighbourPoly, neighbourTile, va, vb)))
        continue;
      float tseg;
      if (distancePtSegSqr2D(centerPos, va, vb, tseg) > radiusSqr) continue;
      // Visited before the overlap test, so a rejected polygon is not tried again.
      neighbourNode->flags |= NODE_CLOSED;
      neighbourNode->parent = m_tinyNodePool.getNodeIdx(curNode);

      const int npa = neighbourPoly->vertCount;
      polyVerts(neighbourTile, neighbourPoly, pa);
      bool overlap = false;
      for (int j = 0; j < n; ++j) {
        const PolyRef pastRef = resultRef[j];
        // Polygons connected to the current one do not overlap it.
        bool connected = false;
        for (uint32_t k = curPoly->firstLink; k != NULL_LINK; k = curTile->links[k].next)
          if (curTile->links[k].ref == pastRef) {
            connected = true;
            break;
          }
        if (connected) continue;
        const MeshTile* pastTile = nullptr;
        const Poly* pastPoly = nullptr;
        m_nav->getTileAndPolyByRefUnsafe(pastRef, &pastTile, &pastPoly);
        const int npb = pastPoly->vertCount;
        polyVerts(pastTile, pastPoly, pb);
        if (overlapPolyPoly2D(pa, npa, pb, npb)) {
          overlap = true;
          break;
        }
      }
      if (overlap) continue;

      if (n < maxResult) {
        resultRef[n] = neighbourRef;
        if (resultParent) resultParent[n] = curRef;
        ++n;
      } else {
        status |= BUFFER_TOO_SMALL;
      }
      if (nstack < MAX_STACK) stack[nstack++] = neighbourNode;
    }
  }
  *resultCount = n;
  return status;
}

namespace {
struct SegInterval {
  PolyRef ref;
  int16_t tmin, tmax;
};
void insertInterval(SegInterval* ints, int& nints, int maxInts, int16_t tmin, int16_t tmax, PolyRef ref) {
  if (nints + 1 > maxInts) return;
  int idx = 0;
  while (idx < nints && tmax > ints[idx].tmin) ++idx;
  for (int k = nints; k > idx; --k) ints[k] = ints[k - 1];
  ints[idx].ref = ref;
  ints[idx].tmin = tmin;
  ints[idx].tmax = tmax;
  ++nints;
}
} // namespace

Status NavMeshQuery::getPolyWallSegments(PolyRef ref, const QueryFilter* filter, float* segmentVerts,
                                         PolyRef* segmentRefs, int* segmentCount, int maxSegments) const {
  if (!segmentCount) return FAILURE | INVALID_PARAM;
  *segmentCount = 0;
  const MeshTile* tile = nullptr;
  const Poly* poly = nullptr;
  if (!m_nav || statusFailed(m_nav->getTileAndPolyByRef(ref, &tile, &poly))) return FAILURE | INVALID_PARAM;
  if (!filter || !segmentVerts || maxSegments < 0) return FAILURE | INVALID_PARAM;

  int n = 0;
  constexpr int MAX_INTERVAL = 16;
  SegInterval ints[MAX_INTERVAL];
  const bool storePortals = segmentRefs != nullptr;
  Status status = SUCCESS;
  const int nv = poly->vertCount;
  for (int i = 0, j = nv - 1; i < nv; j = i++) {
    int nints = 0;
    if (poly->neis[j] & EXT_LINK) {
      for (uint32_t k = poly->firstLink; k != NULL_LINK; k = tile->links[k].next) {
        const Link& link = tile->links[k];
        if (link.edge == j && link.ref != 0) {
          const MeshTile* neiTile = nullptr;
          const Poly* neiPoly = nullptr;
          m_nav->getTileAndPolyByRefUnsafe(link.ref, &neiTile, &neiPoly);
          if (filter->passFilter(link.ref, neiTile, neiPoly))
            insertInterval(ints, nints, MAX_INTERVAL, link.bmin, link.bmax, link.ref);
        }
      }
    } else {
      PolyRef neiRef = 0;
      if (poly->neis[j]) {
        const uint32_t idx = uint32_t(poly->neis[j] - 1);
        neiRef = m_nav->getPolyRefBase(tile) | idx;
        if (!filter->passFilter(neiRef, tile, &tile->polys[idx])) neiRef = 0;
      }
      if (neiRef != 0 && !storePortals) continue;
      if (n < maxSegments) {
        float* seg = &segmentVerts[n * 6];
        vcopy(seg + 0, &tile->verts[poly->verts[j] * 3]);
        vcopy(seg + 3, &tile->verts[poly->verts[i] * 3]);
        if (segmentRefs) segmentRefs[n] = neiRef;
        ++n;
      } else {
        status |= BUFFER_TOO_SMALL;
      }
      continue;
    }

    // Sentinels at both ends, then walls in the gaps between the portals.
    insertInterval(ints, nints, MAX_INTERVAL, -1, 0, 0);
    insertInterval(ints, nints, MAX_INTERVAL, 255, 256, 0);
    const float* vj = &tile->verts[poly->verts[j] * 3];
    const float* vi = &tile->verts[poly->verts[i] * 3];
    for (int k = 1; k < nints; ++k) {
      if (storePortals && ints[k].ref) {
        const float tmin = ints[k].tmin / 255.0f;
        const float tmax = ints[k].tmax / 255.0f;
        if (n < maxSegments) {
          float* seg = &segmentVerts[n * 6];
          vlerp(seg + 0, vj, vi, tmin);
          vlerp(seg + 3, vj, vi, tmax);
          if (segmentRefs) segmentRefs[n] = ints[k].ref;
          ++n;
        } else {
          status |= BUFFER_TOO_SMALL;
        }
      }
      const int imin = ints[k - 1].tmax;
      const int imax = ints[k].tmin;
      if (imin != imax) {
        const float tmin = imin / 255.0f;
        const float tmax = imax / 255.0f;
        if (n < maxSegments) {
          float* seg = &segmentVerts[n * 6];
          vlerp(seg + 0, vj, vi, tmin);
          vlerp(seg + 3, vj, vi, tmax);
          if (segmentRefs) segmentRefs[n] = 0;
          ++n;
        } else {
          status |= BUFFER_TOO_SMALL;
        }
      }
    }
  }
  *segmentCount = n;
  return status;
}

// ---------------------------------------------------------------------------------------------
// Random points
// ---------------------------------------------------------------------------------------------

Status NavMeshQuery::findRandomPoint(const QueryFilter* filter, float (*frand)(), PolyRef* randomRef,
                                     float* randomPt) const {
  if (!m_nav || !filter || !frand || !randomRef || !randomPt) return FAILURE | INVALID_PARAM;

  // A tile by reservoir sampling (every tile weighs the same).
  const MeshTile* tile = nullptr;
  float tsum = 0.0f;
  for (int i = 0; i < m_nav->getMaxTiles(); ++i) {
    const MeshTile* t = m_nav->getTile(i);
    if (!t || !t->header) continue;
    const float area = 1.0f;
    tsum += area;
    const float u = frand();
    if (u * tsum <= area) tile = t;
  }
  if (!tile) return FAILURE;

  // A polygon weighted by area.
  const Poly* poly = nullptr;
  PolyRef polyRef = 0;
  const PolyRef base = m_nav->getPolyRefBase(tile);
  float areaSum = 0.0f;
  for (int i = 0; i < tile->header->polyCount; ++i) {
    const Poly* p = &tile->polys[i];
    if (p->getType() != POLYTYPE_GROUND) continue;
    const PolyRef ref = base | PolyRef(i);
    if (!filter->passFilter(ref, tile, p)) continue;
    float polyArea = 0.0f;
    for (int j = 2; j < p->vertCount; ++j) {
      const float* va = &tile->verts[p->verts[0] * 3];
      const float* vb = &tile->verts[p->verts[j - 1] * 3];
      const float* vc = &tile->verts[p->verts[j] * 3];
      polyArea += triArea2D(va, vb, vc);
    }
    areaSum += polyArea;
    const float u = frand();
    if (u * areaSum <= polyArea) {
      poly = p;
      polyRef = ref;
    }
  }
  if (!poly) return FAILURE;

  float verts[3 * VERTS_PER_POLYGON];
  float areas[VERTS_PER_POLYGON];
  polyVerts(tile, poly, verts);
  const float s = frand();
  const float t = frand();
  float pt[3];
  randomPointInConvexPoly(verts, poly->vertCount, areas, s, t, pt);
  m_nav->closestPointOnPoly(polyRef, pt, pt, nullptr);
  vcopy(randomPt, pt);
  *randomRef = polyRef;
  return SUCCESS;
}

Status NavMeshQuery::findRandomPointAroundCircle(PolyRef startRef, const float* centerPos, float maxRadius,
                                                 const QueryFilter* filter, float (*frand)(), PolyRef* randomRef,
                                                 float* randomPt) {
  if (!m_nav || !m_nav->isValidPolyRef(startRef) || !centerPos || !visfinite(centerPos) || maxRadius < 0 ||
      !std::isfinite(maxRadius) || !filter || !frand || !randomRef || !randomPt)
    return FAILURE | INVALID_PARAM;
  const MeshTile* startTile = nullptr;
  const Poly* startPoly = nullptr;
  m_nav->getTileAndPolyByRefUnsafe(startRef, &startTile, &startPoly);
  if (!filter->passFilter(startRef, startTile, startPoly)) return FAILURE | INVALID_PARAM;

  m_nodePool.clear();
  m_openList.clear();
  m_lastExpanded = nullptr;
  m_bestNode = nullptr;
  Node* startNode = m_nodePool.getNode(startRef);
  vcopy(startNode->pos, centerPos);
  startNode->parent = 0;
  startNode->cost = 0;
  startNode->total = 0;
  startNode->flags = NODE_OPEN;
  m_openList.push(startNode);

  const float radiusSqr = sqr(maxRadius);
  float areaSum = 0.0f;
  const MeshTile* randomTile = nullptr;
  const Poly* randomPoly = nullptr;
  PolyRef randomPolyRef = 0;

  while (!m_openList.empty()) {
    Node* bestNode = m_openList.pop();
    bestNode->flags = uint8_t((bestNode->flags & ~NODE_OPEN) | NODE_CLOSED);
    m_lastExpanded = bestNode;
    const PolyRef bestRef = bestNode->id;
    const MeshTile* bestTile = nullptr;
    const Poly* bestPoly = nullptr;
    m_nav->getTileAndPolyByRefUnsafe(bestRef, &bestTile, &bestPoly);

    if (bestPoly->getType() == POLYTYPE_GROUND) {
      float polyArea = 0.0f;
      for (int j = 2; j < bestPoly->vertCount; ++j) {
        const float* va = &bestTile->verts[bestPoly->verts[0] * 3];
        const float* vb = &bestTile->verts[bestPoly->verts[j - 1] * 3];
        const float* vc = &bestTile->verts[bestPoly->verts[j] * 3];
        polyArea += triArea2D(va, vb, vc);
      }
      areaSum += polyArea;
      const float u = frand();
      if (u * areaSum <= polyArea) {
        randomTile = bestTile;
        randomPoly = bestPoly;
        randomPolyRef = bestRef;
      }
    }

    PolyRef parentRef = 0;
    if (bestNode->parent) parentRef = m_nodePool.getNodeAtIdx(bestNode->parent)->id;

    for (uint32_t i = bestPoly->firstLink; i != NULL_LINK; i = bestTile->links[i].next) {
      const PolyRef neighbourRef = bestTile->links[i].ref;
      if (!neighbourRef || neighbourRef == parentRef) continue;
      const MeshTile* neighbourTile = nullptr;
      const Poly* neighbourPoly = nullptr;
      m_nav->getTileAndPolyByRefUnsafe(neighbourRef, &neighbourTile, &neighbourPoly);
      if (!filter->passFilter(neighbourRef, neighbourTile, neighbourPoly)) continue;
      float va[3], vb[3];
      if (statusFailed(portalPoints(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile, va, vb)))
        continue;
      float tseg;
      if (distancePtSegSqr2D(centerPos, va, vb, tseg) > radiusSqr) continue;
      Node* neighbourNode = m_nodePool.getNode(neighbourRef);
      if (!neighbourNode) continue;
      if (neighbourNode->flags & NODE_CLOSED) continue;
      if (neighbourNode->flags == 0) vlerp(neighbourNode->pos, va, vb, 0.5f);
      const float total = bestNode->total + vdist(bestNode->pos, neighbourNode->pos);
      if ((neighbourNode->flags & NODE_OPEN) && total >= neighbourNode->total) continue;
      neighbourNode->flags = uint8_t(neighbourNode->flags & ~NODE_CLOSED);
      neighbourNode->parent = m_nodePool.getNodeIdx(bestNode);
      neighbourNode->total = total;
      if (neighbourNode->flags & NODE_OPEN) {
        m_openList.modify(neighbourNode);
      } else {
        neighbourNode->flags = NODE_OPEN;
        m_openList.push(neighbourNode);
      }
    }
  }
  if (!randomPoly) return FAILURE;

  float verts[3 * VERTS_PER_POLYGON];
  float areas[VERTS_PER_POLYGON];
  polyVerts(randomTile, randomPoly, verts);
  const float s = frand();
  const float t = frand();
  float pt[3];
  randomPointInConvexPoly(verts, randomPoly->vertCount, areas, s, t, pt);
  m_nav->closestPointOnPoly(randomPolyRef, pt, pt, nullptr);
  vcopy(randomPt, pt);
  *randomRef = randomPolyRef;
  return SUCCESS;
}

} // namespace nav
