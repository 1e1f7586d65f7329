// NavCheck.cpp: the checks of NavCheck.h. Graph checks (islands, seams, links, narrow) walk the
// tiles once; the pair checks (detours, budget) draw every pair first on the calling thread (so
// the draw does not depend on the thread count), then run them on `threads` workers, each with its
// own NavMeshQuery and ShortestPath, and merge per-pair results in pair order.
#include "nav/check/NavCheck.h"

#include "nav/HierPlanner.h"
#include "nav/NavMath.h"
#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"
#include "nav/ShortestPath.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <thread>

namespace nav::check {

namespace {

constexpr int kMaxPath = 2048;     // corridor and straight-path capacity, as `navbench query`
constexpr float kBorderTol = 0.01f; // a vertex within this of a tile's border line lies on it [wu]
constexpr float kMinSeamSpan = 0.05f; // shorter unlinked overlaps are rounding, not seams [wu]

Vec3 v3(const float* p) { return Vec3{p[0], p[1], p[2]}; }

/// Dense numbering of every poly of the mesh: base[tile slot] + poly index.
struct PolyIndex {
  std::vector<int> base;       // [Size: maxTiles]
  std::vector<PolyRef> refs;   // [Size: total]
  int total = 0;
  void build(const NavMesh& mesh) {
    base.assign(size_t(mesh.getMaxTiles()), 0);
    total = 0;
    for (int i = 0; i < mesh.getMaxTiles(); ++i) {
      const MeshTile* t = mesh.getTile(i);
      base[size_t(i)] = total;
      if (t->header) total += t->header->polyCount;
    }
    refs.assign(size_t(total), 0);
    for (int i = 0; i < mesh.getMaxTiles(); ++i) {
      const MeshTile* t = mesh.getTile(i);
      if (!t->header) continue;
      const PolyRef b = mesh.getPolyRefBase(t);
      for (int p = 0; p < t->header->polyCount; ++p) refs[size_t(base[size_t(i)] + p)] = b | PolyRef(p);
    }
  }
  int of(const NavMesh& mesh, PolyRef ref) const {
    return base[mesh.decodePolyIdTile(ref)] + int(mesh.decodePolyIdPoly(ref));
  }
};

float polyAreaXZ(const MeshTile* tile, const Poly* poly) {
  if (poly->getType() != POLYTYPE_GROUND) return 0;
  float a = 0;
  const float* v0 = &tile->verts[poly->verts[0] * 3];
  for (int j = 2; j < poly->vertCount; ++j)
    a += triArea2D(v0, &tile->verts[poly->verts[j - 1] * 3], &tile->verts[poly->verts[j] * 3]);
  return navAbs(a) * 0.5f; // triArea2D is the cross product: twice the area
}

int findRoot(std::vector<int>& parent, int i) {
  while (parent[size_t(i)] != i) {
    parent[size_t(i)] = parent[size_t(parent[size_t(i)])];
    i = parent[size_t(i)];
  }
  return i;
}

float tileClimb(const CheckOptions& o, const MeshTile* t) { return o.walkableClimb >= 0 ? o.walkableClimb : t->header->walkableClimb; }

/// One drawn pair and what the workers found for it.
struct Pair {
  float s[3], e[3];
  PolyRef sref = 0, eref = 0;
  Status status = 0;        // Detour findPath
  float len3d = 0, metric = 0, exact = 0;
  bool ran = false;         // both lengths known
};

struct Shared {
  const NavMesh* mesh;
  const QueryFilter* filter;
  const CheckOptions* opts;
  const PolyIndex* index;
  std::vector<Pair>* pairs;
  const std::atomic<bool>* cancel;
  std::atomic<int> done{0};
};

/// One pair worker: its own query objects and buffers, kept for every chunk of pairs.
struct Worker {
  NavMeshQuery q;
  ShortestPath sp;
  std::vector<PolyRef> path;
  std::vector<float> pts, epts;
  std::vector<uint8_t> flags, eflags;
  std::vector<float> heat; ///< [dense poly] worst ratio of this worker's corridors
  Status init(const Shared& sh, int polys) {
    if (statusFailed(q.init(sh.mesh, sh.opts->nodeBudget))) return FAILURE | OUT_OF_MEMORY;
    if (statusFailed(sp.init(sh.mesh, sh.opts->exactMaxNodes))) return FAILURE | OUT_OF_MEMORY;
    path.resize(kMaxPath);
    pts.resize(kMaxPath * 3);
    epts.resize(kMaxPath * 3);
    flags.resize(kMaxPath);
    eflags.resize(kMaxPath);
    heat.assign(size_t(polys), 0.0f);
    return SUCCESS;
  }
  /// Runs pairs w, w + n, w + 2n, ... of the current chunk.
  Status run(Shared& sh, int w, int n, const std::function<void(int)>& tick);
};

Status Worker::run(Shared& sh, int w, int n, const std::function<void(int)>& tick) {
  std::vector<Pair>& pairs = *sh.pairs;
  for (size_t i = size_t(w); i < pairs.size(); i += size_t(n)) {
    if (sh.cancel && sh.cancel->load(std::memory_order_relaxed)) return FAILURE;
    Pair& p = pairs[i];
    int np = 0;
    p.status = q.findPath(p.sref, p.eref, p.s, p.e, sh.filter, path.data(), &np, kMaxPath);
    if (statusSucceeded(p.status) && !statusDetail(p.status, PARTIAL_RESULT) && np > 0) {
      int ns = 0;
      const Status ss = q.findStraightPath(p.s, p.e, path.data(), np, pts.data(), flags.data(), nullptr, &ns, kMaxPath);
      int ens = 0;
      float exact = 0;
      const Status es = sp.findPath(p.sref, p.eref, p.s, p.e, sh.filter, epts.data(), eflags.data(), nullptr, &ens,
                                    kMaxPath, nullptr, nullptr, 0, &exact);
      if (statusSucceeded(ss) && ns > 0 && statusSucceeded(es) &&
          !statusDetail(es, PARTIAL_RESULT | OUT_OF_NODES | BUFFER_TOO_SMALL)) {
        float len = 0;
        for (int k = 1; k < ns; ++k) len += vdist(&pts[size_t(k - 1) * 3], &pts[size_t(k) * 3]);
        p.len3d = len;
        p.metric = straightPathLength(pts.data(), flags.data(), ns);
        p.exact = exact;
        p.ran = true;
        const float ratio = exact > 1e-6f ? p.metric / exact : 1.0f;
        for (int k = 0; k < np; ++k) {
          float& h = heat[size_t(sh.index->of(*sh.mesh, path[size_t(k)]))];
          h = std::max(h, ratio);
        }
      }
    }
    const int d = sh.done.fetch_add(1, std::memory_order_relaxed) + 1;
    if (tick) tick(d);
  }
  return SUCCESS;
}

// ---- seams -------------------------------------------------------------------------------------

/// A poly edge lying on a tile border line: its extent along the line and its end heights.
struct BorderEdge {
  float lo, hi;      // along the line (z for x-sides, x for z-sides), lo < hi
  float ylo, yhi;    // heights at lo / hi
  PolyRef ref;
  float ta, tb;      // the edge's parameter (va->vb) at lo / hi
};

float heightAt(const BorderEdge& e, float u) {
  const float t = e.hi > e.lo ? (u - e.lo) / (e.hi - e.lo) : 0.0f;
  return e.ylo + (e.yhi - e.ylo) * t;
}

/// Edges of the filter-passing ground polys of `t` lying on the line axis = value (axis 0: x, 2: z).
void borderEdges(const NavMesh& mesh, const MeshTile* t, const QueryFilter& filter, int axis, float value,
                 std::vector<BorderEdge>& out, std::vector<int>* edgeIndex = nullptr) {
  out.clear();
  if (edgeIndex) edgeIndex->clear();
  const int along = axis == 0 ? 2 : 0;
  const PolyRef base = mesh.getPolyRefBase(t);
  for (int i = 0; i < t->header->polyCount; ++i) {
    const Poly* p = &t->polys[i];
    if (p->getType() != POLYTYPE_GROUND || !filter.passFilter(base | PolyRef(i), t, p)) continue;
    for (int j = 0; j < p->vertCount; ++j) {
      const float* va = &t->verts[p->verts[j] * 3];
      const float* vb = &t->verts[p->verts[(j + 1) % p->vertCount] * 3];
      if (navAbs(va[axis] - value) > kBorderTol || navAbs(vb[axis] - value) > kBorderTol) continue;
      if (navAbs(va[along] - vb[along]) < 1e-6f) continue;
      BorderEdge e;
      const bool fwd = va[along] < vb[along];
      e.lo = fwd ? va[along] : vb[along];
      e.hi = fwd ? vb[along] : va[along];
      e.ylo = fwd ? va[1] : vb[1];
      e.yhi = fwd ? vb[1] : va[1];
      e.ta = fwd ? 0.0f : 1.0f;
      e.tb = fwd ? 1.0f : 0.0f;
      e.ref = base | PolyRef(i);
      out.push_back(e);
      if (edgeIndex) edgeIndex->push_back(j);
    }
  }
}

/// Parts [lo, hi] of edge `e` (edge j of its poly) that no tile-border link of the poly covers.
void uncoveredSpans(const MeshTile* t, const Poly* p, int j, const BorderEdge& e, std::vector<std::pair<float, float>>& out) {
  std::vector<std::pair<float, float>> cov;
  for (uint32_t l = p->firstLink; l != NULL_LINK; l = t->links[l].next) {
    const Link& k = t->links[l];
    if (k.edge != j || k.side == 0xff) continue;
    // Link overlap in edge parameters (va -> vb), mapped to the line coordinate.
    const float t0 = float(k.bmin) / 255.0f, t1 = float(k.bmax) / 255.0f;
    auto at = [&](float tt) { return e.ta == 0.0f ? e.lo + (e.hi - e.lo) * tt : e.hi - (e.hi - e.lo) * tt; };
    float a = at(t0), b = at(t1);
    if (a > b) std::swap(a, b);
    cov.emplace_back(a, b);
  }
  std::sort(cov.begin(), cov.end());
  out.clear();
  float cur = e.lo;
  const float slack = 0.02f * (e.hi - e.lo) + 1e-4f; // link overlaps are quantised to 1/255 of the edge
  for (const auto& c : cov) {
    if (c.first > cur + slack) out.emplace_back(cur, c.first);
    cur = std::max(cur, c.second);
  }
  if (e.hi > cur + slack) out.emplace_back(cur, e.hi);
}

void checkSeams(const NavMesh& mesh, const QueryFilter& filter, const CheckOptions& o, std::vector<SeamFinding>& out) {
  std::vector<BorderEdge> mine, theirs;
  std::vector<int> mineEdge;
  std::vector<std::pair<float, float>> gaps;
  // Detour's sides: 0 = +x, 2 = +z, 4 = -x, 6 = -z.
  static const int kSides[4] = {0, 2, 4, 6};
  for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
    const MeshTile* t = mesh.getTile(ti);
    if (!t->header) continue;
    for (int side : kSides) {
      const int axis = (side == 0 || side == 4) ? 0 : 2;
      const float value = (side == 0 || side == 2) ? t->header->bmax[axis] : t->header->bmin[axis];
      const int nx = t->header->x + (side == 0 ? 1 : side == 4 ? -1 : 0);
      const int ny = t->header->y + (side == 2 ? 1 : side == 6 ? -1 : 0);
      const MeshTile* nb[32];
      const int nn = mesh.getTilesAt(nx, ny, nb, 32);
      if (!nn) continue;
      borderEdges(mesh, t, filter, axis, value, mine, &mineEdge);
      if (mine.empty()) continue;
      for (int k = 0; k < nn; ++k) {
        borderEdges(mesh, nb[k], filter, axis, value, theirs);
        if (theirs.empty()) continue;
        const float climb = std::max(tileClimb(o, t), tileClimb(o, nb[k]));
        for (size_t m = 0; m < mine.size(); ++m) {
          const BorderEdge& e = mine[m];
          const MeshTile* pt = nullptr;
          const Poly* pp = nullptr;
          mesh.getTileAndPolyByRefUnsafe(e.ref, &pt, &pp);
          uncoveredSpans(t, pp, mineEdge[m], e, gaps);
          for (const auto& g : gaps) {
            for (const BorderEdge& f : theirs) {
              const float lo = std::max(g.first, f.lo), hi = std::min(g.second, f.hi);
              if (hi - lo < kMinSeamSpan) continue;
              const float d0 = heightAt(e, lo) - heightAt(f, lo), d1 = heightAt(e, hi) - heightAt(f, hi);
              const bool close = navAbs(d0) <= climb || navAbs(d1) <= climb || (d0 < 0) != (d1 < 0);
              if (!close) continue;
              SeamFinding s;
              const int along = axis == 0 ? 2 : 0;
              s.a[size_t(axis)] = value;
              s.a[size_t(along)] = lo;
              s.a[1] = heightAt(e, lo);
              s.b[size_t(axis)] = value;
              s.b[size_t(along)] = hi;
              s.b[1] = heightAt(e, hi);
              for (int c = 0; c < 3; ++c) s.pos[size_t(c)] = 0.5f * (s.a[size_t(c)] + s.b[size_t(c)]);
              s.poly = e.ref;
              s.otherPoly = f.ref;
              s.tile[0] = t->header->x;
              s.tile[1] = t->header->y;
              s.otherTile[0] = nb[k]->header->x;
              s.otherTile[1] = nb[k]->header->y;
              out.push_back(s);
            }
          }
        }
      }
    }
  }
  // A span missing both ways shows up once from each side: keep one, with oneWay = false.
  std::vector<SeamFinding> merged;
  std::vector<bool> used(out.size(), false);
  for (size_t i = 0; i < out.size(); ++i) {
    if (used[i]) continue;
    SeamFinding s = out[i];
    for (size_t j = i + 1; j < out.size(); ++j) {
      if (used[j] || out[j].poly != s.otherPoly || out[j].otherPoly != s.poly) continue;
      if (vdist2D(out[j].pos.data(), s.pos.data()) > 0.05f) continue;
      used[j] = true;
      s.oneWay = false;
    }
    merged.push_back(s);
  }
  out.swap(merged);
}

// ---- surface -------------------------------------------------------------------------------------

/// Uniform xz grid of the level's triangles (CSR cell lists).
class TriGrid {
public:
  void build(const LevelTriangles& lv) {
    m_lv = lv;
    m_min[0] = m_min[1] = 1e30f;
    float mx[2] = {-1e30f, -1e30f};
    for (int i = 0; i < lv.vertCount; ++i) {
      m_min[0] = std::min(m_min[0], lv.verts[i * 3]);
      m_min[1] = std::min(m_min[1], lv.verts[i * 3 + 2]);
      mx[0] = std::max(mx[0], lv.verts[i * 3]);
      mx[1] = std::max(mx[1], lv.verts[i * 3 + 2]);
    }
    const float w = std::max(mx[0] - m_min[0], 1e-3f), h = std::max(mx[1] - m_min[1], 1e-3f);
    m_cell = std::max(0.5f, std::sqrt(w * h / float(std::max(1, lv.triCount))) * 2.0f);
    m_w = std::min(4096, int(w / m_cell) + 1);
    m_h = std::min(4096, int(h / m_cell) + 1);
    m_cell = std::max(w / float(m_w), h / float(m_h)) * 1.0001f;
    m_start.assign(size_t(m_w) * size_t(m_h) + 1, 0);
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<int> fill;
      if (pass == 1) {
        for (size_t i = 1; i < m_start.size(); ++i) m_start[i] += m_start[i - 1];
        m_items.assign(size_t(m_start.back()), 0);
        fill.assign(m_start.begin(), m_start.end() - 1);
      }
      for (int t = 0; t < lv.triCount; ++t) {
        int x0, z0, x1, z1;
        triCells(t, x0, z0, x1, z1);
        for (int z = z0; z <= z1; ++z)
          for (int x = x0; x <= x1; ++x) {
            const size_t c = size_t(z) * size_t(m_w) + size_t(x);
            if (pass == 0) ++m_start[c + 1];
            else m_items[size_t(fill[c]++)] = t;
          }
      }
    }
  }
  /// Height difference p.y - surface of the level triangle nearest in height over/under p's (x, z);
  /// false when none covers it.
  bool nearestDy(const float* p, float& dy) const {
    // In floats first: a point far off the level (a hostile tile) must not overflow the int.
    const float fx = (p[0] - m_min[0]) / m_cell, fz = (p[2] - m_min[1]) / m_cell;
    if (!(fx >= 0.0f && fz >= 0.0f && fx < float(m_w) && fz < float(m_h))) return false;
    const int x = int(fx), z = int(fz);
    const size_t c = size_t(z) * size_t(m_w) + size_t(x);
    bool found = false;
    for (int k = m_start[c]; k < m_start[c + 1]; ++k) {
      const int t = m_items[size_t(k)];
      float h;
      if (!heightOnTri(p, t, h)) continue;
      const float d = p[1] - h;
      if (!found || navAbs(d) < navAbs(dy)) dy = d;
      found = true;
    }
    return found;
  }

private:
  const float* vert(int t, int k) const { return &m_lv.verts[m_lv.tris[t * 3 + k] * 3]; }
  void triCells(int t, int& x0, int& z0, int& x1, int& z1) const {
    float lo[2] = {1e30f, 1e30f}, hi[2] = {-1e30f, -1e30f};
    for (int k = 0; k < 3; ++k) {
      const float* v = vert(t, k);
      lo[0] = std::min(lo[0], v[0]);
      lo[1] = std::min(lo[1], v[2]);
      hi[0] = std::max(hi[0], v[0]);
      hi[1] = std::max(hi[1], v[2]);
    }
    // Clamped in floats, so no conversion can overflow (NaN lands on cell 0).
    auto cl = [this](float v, float origin, int n) {
      const float c = (v - origin) / m_cell;
      return c >= float(n - 1) ? n - 1 : c > 0.0f ? int(c) : 0;
    };
    x0 = cl(lo[0], m_min[0], m_w);
    z0 = cl(lo[1], m_min[1], m_h);
    x1 = cl(hi[0], m_min[0], m_w);
    z1 = cl(hi[1], m_min[1], m_h);
  }
  /// Height of triangle t at p's (x, z), with a small tolerance so points on an edge count.
  bool heightOnTri(const float* p, int t, float& h) const {
    const float* a = vert(t, 0);
    const float* b = vert(t, 1);
    const float* c = vert(t, 2);
    const float d = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
    if (navAbs(d) < 1e-9f) return false;
    const float u = ((b[0] - p[0]) * (c[2] - p[2]) - (c[0] - p[0]) * (b[2] - p[2])) / d;
    const float v = ((c[0] - p[0]) * (a[2] - p[2]) - (a[0] - p[0]) * (c[2] - p[2])) / d;
    const float w = 1.0f - u - v;
    const float eps = -1e-4f;
    if (u < eps || v < eps || w < eps) return false;
    h = u * a[1] + v * b[1] + w * c[1];
    return true;
  }

  LevelTriangles m_lv;
  float m_min[2] = {0, 0};
  float m_cell = 1;
  int m_w = 1, m_h = 1;
  std::vector<int> m_start, m_items;
};

void checkSurface(const NavMesh& mesh, const QueryFilter& filter, const CheckOptions& o, const LevelTriangles& lv,
                  std::vector<SurfaceFinding>& out) {
  TriGrid grid;
  grid.build(lv);
  for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
    const MeshTile* t = mesh.getTile(ti);
    if (!t->header) continue;
    const float climb = tileClimb(o, t);
    const PolyRef base = mesh.getPolyRefBase(t);
    for (int i = 0; i < t->header->polyCount; ++i) {
      const Poly* p = &t->polys[i];
      if (p->getType() != POLYTYPE_GROUND || !filter.passFilter(base | PolyRef(i), t, p)) continue;
      SurfaceFinding worst;
      bool bad = false;
      auto test = [&](const float* v) {
        float dy = 0;
        const bool has = grid.nearestDy(v, dy);
        if (has && navAbs(dy) <= climb) return;
        // A point with no surface counts as the worst kind; among those the first one is kept.
        if (bad && (worst.noSurface || (has && navAbs(dy) <= navAbs(worst.dist)))) return;
        bad = true;
        worst.pos = v3(v);
        worst.dist = has ? dy : 0.0f;
        worst.noSurface = !has;
        worst.poly = base | PolyRef(i);
      };
      for (int j = 0; j < p->vertCount; ++j) test(&t->verts[p->verts[j] * 3]);
      if (t->detailMeshes && i < t->header->detailMeshCount) {
        const PolyDetail& pd = t->detailMeshes[i];
        for (int k = 0; k < pd.vertCount; ++k) test(&t->detailVerts[(pd.vertBase + uint32_t(k)) * 3]);
      }
      if (bad) out.push_back(worst);
    }
  }
}

} // namespace

const char* checkName(int kind) {
  static const char* const kNames[CHECK_COUNT] = {"islands", "detours", "budget", "seams", "links", "narrow", "surface"};
  return kind >= 0 && kind < CHECK_COUNT ? kNames[kind] : "?";
}

QueryFilter defaultCheckFilter() {
  QueryFilter f;
  f.setIncludeFlags(0xffef);
  f.setExcludeFlags(0);
  return f;
}

int CheckResult::unreachableIslands() const {
  int n = 0;
  for (const Island& i : islands) n += i.isFinding() ? 1 : 0;
  return n;
}

bool CheckOptions::validate(std::string* why) const {
  auto bad = [&](const char* what) {
    if (why) *why = what;
    return false;
  };
  if (pairs < 1 || pairs > 10000000) return bad("--pairs must be in [1, 10000000]");
  if (!(detourRatio >= 1.0f) || !std::isfinite(detourRatio)) return bad("--detour-ratio must be a finite number >= 1");
  if (!(detourMinExtra >= 0.0f) || !std::isfinite(detourMinExtra)) return bad("--detour-min must be a finite number >= 0");
  if (nodeBudget < 1 || nodeBudget > 65535) return bad("--node-budget must be in [1, 65535]");
  if (exactMaxNodes < 16 || exactMaxNodes > (1 << 24)) return bad("exact search nodes must be in [16, 2^24]");
  if (!std::isfinite(walkableClimb)) return bad("--climb must be finite");
  if (!(minWidth > 0.0f) || !std::isfinite(minWidth)) return bad("--min-width must be a finite number > 0");
  if (threads < 0 || threads > 64) return bad("--threads must be in [0, 64]");
  for (int k = 0; k < 3; ++k)
    if (!(seedExtents[k] > 0.0f) || !std::isfinite(seedExtents[k])) return bad("seed extents must be finite and > 0");
  for (const Vec3& s : seeds)
    if (!std::isfinite(s[0]) || !std::isfinite(s[1]) || !std::isfinite(s[2])) return bad("--seeds: a coordinate is not finite");
  return true;
}

Status runChecks(const NavMesh& mesh, const QueryFilter& filter, const CheckOptions& opts, CheckResult& out,
                 std::string* why, const LevelTriangles* level, const ProgressFn& progress,
                 const std::atomic<bool>* cancel) {
  out = CheckResult();
  if (!opts.validate(why)) return FAILURE | INVALID_PARAM;
  if (mesh.getMaxTiles() <= 0) {
    if (why) *why = "the navmesh has no tiles";
    return FAILURE | INVALID_PARAM;
  }
  auto cancelled = [&]() {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      if (why) *why = "cancelled";
      return true;
    }
    return false;
  };
  auto report = [&](const char* stage, float f) {
    if (progress) progress(stage, f);
  };
  report("islands", 0.0f);

  PolyIndex index;
  index.build(mesh);
  const int N = index.total;
  std::vector<uint8_t> passes(size_t(N), 0);
  std::vector<float> area(size_t(N), 0.0f);
  for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
    const MeshTile* t = mesh.getTile(ti);
    if (!t->header) continue;
    for (int i = 0; i < t->header->polyCount; ++i) {
      const int d = index.base[size_t(ti)] + i;
      passes[size_t(d)] = filter.passFilter(index.refs[size_t(d)], t, &t->polys[i]) ? 1 : 0;
      area[size_t(d)] = polyAreaXZ(t, &t->polys[i]);
    }
  }

  // Islands: union-find over links between passing polys (either direction joins).
  std::vector<int> parent(static_cast<size_t>(N));
  for (int i = 0; i < N; ++i) parent[size_t(i)] = i;
  for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
    const MeshTile* t = mesh.getTile(ti);
    if (!t->header) continue;
    for (int i = 0; i < t->header->polyCount; ++i) {
      const int a = index.base[size_t(ti)] + i;
      if (!passes[size_t(a)]) continue;
      for (uint32_t l = t->polys[i].firstLink; l != NULL_LINK; l = t->links[l].next) {
        const PolyRef r = t->links[l].ref;
        if (!r || !mesh.isValidPolyRef(r)) continue;
        const int b = index.of(mesh, r);
        if (!passes[size_t(b)]) continue;
        const int ra = findRoot(parent, a), rb = findRoot(parent, b);
        if (ra != rb) parent[size_t(std::max(ra, rb))] = std::min(ra, rb);
      }
    }
  }
  // Island per poly (-1: filtered out), islands sorted by area (ties: smallest first ref).
  std::vector<int> rootIsland(size_t(N), -1), polyIsland(size_t(N), -1);
  std::vector<Island> isl;
  std::vector<double> cx, cz, cy;
  std::vector<int> vcount;
  for (int i = 0; i < N; ++i) {
    if (!passes[size_t(i)]) continue;
    ++out.polyCount;
    const int r = findRoot(parent, i);
    if (rootIsland[size_t(r)] < 0) {
      rootIsland[size_t(r)] = int(isl.size());
      isl.push_back(Island());
      isl.back().firstPoly = index.refs[size_t(i)];
      cx.push_back(0);
      cz.push_back(0);
      cy.push_back(0);
      vcount.push_back(0);
    }
    const int k = rootIsland[size_t(r)];
    polyIsland[size_t(i)] = k;
    Island& I = isl[size_t(k)];
    ++I.polys;
    I.area += area[size_t(i)];
    I.firstPoly = std::min(I.firstPoly, index.refs[size_t(i)]);
    const MeshTile* t = nullptr;
    const Poly* p = nullptr;
    mesh.getTileAndPolyByRefUnsafe(index.refs[size_t(i)], &t, &p);
    float c[3];
    calcPolyCenter(c, p->verts, p->vertCount, t->verts);
    const double w = std::max(area[size_t(i)], 1e-6f);
    cx[size_t(k)] += w * c[0];
    cz[size_t(k)] += w * c[2];
    cy[size_t(k)] += c[1];
    ++vcount[size_t(k)];
  }
  std::vector<double> wsum(isl.size(), 0);
  for (int i = 0; i < N; ++i)
    if (polyIsland[size_t(i)] >= 0) wsum[size_t(polyIsland[size_t(i)])] += std::max(area[size_t(i)], 1e-6f);
  for (size_t k = 0; k < isl.size(); ++k) {
    isl[k].center = Vec3{float(cx[k] / wsum[k]), float(cy[k] / vcount[k]), float(cz[k] / wsum[k])};
  }
  std::vector<int> order(isl.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = int(k);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (isl[size_t(a)].area != isl[size_t(b)].area) return isl[size_t(a)].area > isl[size_t(b)].area;
    return isl[size_t(a)].firstPoly < isl[size_t(b)].firstPoly;
  });
  std::vector<int> rank(isl.size());
  for (size_t k = 0; k < order.size(); ++k) rank[size_t(order[k])] = int(k);
  out.polyIslands.reserve(size_t(out.polyCount));
  for (int i = 0; i < N; ++i)
    if (polyIsland[size_t(i)] >= 0) {
      polyIsland[size_t(i)] = rank[size_t(polyIsland[size_t(i)])];
      out.polyIslands.emplace_back(index.refs[size_t(i)], polyIsland[size_t(i)]);
    }
  out.islands.resize(isl.size());
  for (size_t k = 0; k < order.size(); ++k) {
    out.islands[k] = isl[size_t(order[k])];
    out.islands[k].id = int(k);
  }

  // Reachability: a flood following link direction from the seeds' polys (or the biggest island).
  NavMeshQuery snapQuery;
  if (statusFailed(snapQuery.init(&mesh, 64))) return FAILURE | OUT_OF_MEMORY;
  std::vector<int> stack;
  std::vector<uint8_t> reached(size_t(N), 0);
  for (size_t s = 0; s < opts.seeds.size(); ++s) {
    PolyRef ref = 0;
    float pt[3];
    snapQuery.findNearestPoly(opts.seeds[s].data(), opts.seedExtents, &filter, &ref, pt);
    if (!ref && opts.seedsOffMeshAreFindings) {
      out.unreachedSeeds.push_back(SeedFinding{int(s), opts.seeds[s]});
      continue;
    }
    if (!ref) {
      if (why) {
        char b[160];
        std::snprintf(b, sizeof(b), "--seeds: seed %d (%g, %g, %g) is not on the navmesh", int(s) + 1,
                      double(opts.seeds[s][0]), double(opts.seeds[s][1]), double(opts.seeds[s][2]));
        *why = b;
      }
      return FAILURE | INVALID_PARAM;
    }
    stack.push_back(index.of(mesh, ref));
  }
  if (stack.empty() && !out.islands.empty())
    for (int i = 0; i < N; ++i)
      if (polyIsland[size_t(i)] == 0) stack.push_back(i);
  for (int i : stack) reached[size_t(i)] = 1;
  while (!stack.empty()) {
    const int a = stack.back();
    stack.pop_back();
    const MeshTile* t = nullptr;
    const Poly* p = nullptr;
    mesh.getTileAndPolyByRefUnsafe(index.refs[size_t(a)], &t, &p);
    for (uint32_t l = p->firstLink; l != NULL_LINK; l = t->links[l].next) {
      const PolyRef r = t->links[l].ref;
      if (!r || !mesh.isValidPolyRef(r)) continue;
      const int b = index.of(mesh, r);
      if (!passes[size_t(b)] || reached[size_t(b)]) continue;
      reached[size_t(b)] = 1;
      stack.push_back(b);
    }
  }
  for (int i = 0; i < N; ++i) {
    const int k = polyIsland[size_t(i)];
    if (k < 0) continue;
    if (reached[size_t(i)]) out.islands[size_t(k)].reachable = true;
    else ++out.islands[size_t(k)].unreachedPolys;
  }
  out.ran[CHECK_ISLANDS] = opts.islands;
  if (cancelled()) return FAILURE;

  // Graph checks.
  report("seams", 0.05f);
  if (opts.seams) {
    checkSeams(mesh, filter, opts, out.seams);
    out.ran[CHECK_SEAMS] = true;
  }
  if (opts.links || opts.narrow) {
    for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
      const MeshTile* t = mesh.getTile(ti);
      if (!t->header) continue;
      const PolyRef base = mesh.getPolyRefBase(t);
      if (opts.links) {
        for (int c = 0; c < t->header->offMeshConCount; ++c) {
          const OffMeshConnection& con = t->offMeshCons[c];
          const Poly* p = &t->polys[con.poly];
          const PolyRef ref = base | PolyRef(con.poly);
          if (!filter.passFilter(ref, t, p)) continue;
          LinkFinding f;
          for (uint32_t l = p->firstLink; l != NULL_LINK; l = t->links[l].next) {
            if (t->links[l].edge == 0) f.startLinked = true;
            if (t->links[l].edge == 1) f.endLinked = true;
          }
          if (f.startLinked && f.endLinked) continue;
          f.start = v3(&con.pos[0]);
          f.end = v3(&con.pos[3]);
          f.pos = f.startLinked ? f.end : f.start;
          f.poly = ref;
          f.userId = con.userId;
          out.links.push_back(f);
        }
      }
      if (opts.narrow) {
        for (int i = 0; i < t->header->polyCount; ++i) {
          const Poly* p = &t->polys[i];
          const PolyRef ref = base | PolyRef(i);
          if (p->getType() != POLYTYPE_GROUND || !passes[size_t(index.base[size_t(ti)] + i)]) continue;
          for (uint32_t l = p->firstLink; l != NULL_LINK; l = t->links[l].next) {
            const Link& k = t->links[l];
            if (k.ref <= ref || k.edge >= p->vertCount || !mesh.isValidPolyRef(k.ref)) continue;
            const MeshTile* ot = nullptr;
            const Poly* op = nullptr;
            mesh.getTileAndPolyByRefUnsafe(k.ref, &ot, &op);
            if (op->getType() != POLYTYPE_GROUND || !passes[size_t(index.of(mesh, k.ref))]) continue;
            const float* va = &t->verts[p->verts[k.edge] * 3];
            const float* vb = &t->verts[p->verts[(k.edge + 1) % p->vertCount] * 3];
            float a[3], b[3];
            vcopy(a, va);
            vcopy(b, vb);
            if (k.side != 0xff && (k.bmin != 0 || k.bmax != 255)) {
              vlerp(a, va, vb, float(k.bmin) / 255.0f);
              vlerp(b, va, vb, float(k.bmax) / 255.0f);
            }
            const float w = vdist2D(a, b);
            if (w >= opts.minWidth) continue;
            NarrowFinding f;
            f.a = v3(a);
            f.b = v3(b);
            for (int c = 0; c < 3; ++c) f.pos[size_t(c)] = 0.5f * (a[c] + b[c]);
            f.width = w;
            f.from = ref;
            f.to = k.ref;
            out.narrow.push_back(f);
          }
        }
      }
    }
    out.ran[CHECK_LINKS] = opts.links;
    out.ran[CHECK_NARROW] = opts.narrow;
  }
  if (cancelled()) return FAILURE;
  report("surface", 0.1f);
  if (opts.surface && level && level->verts && level->tris && level->triCount > 0) {
    checkSurface(mesh, filter, opts, *level, out.surface);
    out.ran[CHECK_SURFACE] = true;
  }
  if (cancelled()) return FAILURE;

  // Pairs: drawn here, in one sequence, so the thread count does not change them.
  if (opts.detours || opts.budget) {
    report("detours", 0.15f);
    // Ground polys with area, grouped by island; cumulative area over that order.
    std::vector<int> polys;
    for (int i = 0; i < N; ++i)
      if (polyIsland[size_t(i)] >= 0 && area[size_t(i)] > 0) polys.push_back(i);
    std::stable_sort(polys.begin(), polys.end(), [&](int a, int b) { return polyIsland[size_t(a)] < polyIsland[size_t(b)]; });
    std::vector<double> cum(polys.size());
    double acc = 0;
    for (size_t k = 0; k < polys.size(); ++k) cum[k] = (acc += area[size_t(polys[k])]);
    std::vector<size_t> islandBegin(out.islands.size() + 1, polys.size());
    for (size_t k = polys.size(); k-- > 0;) islandBegin[size_t(polyIsland[size_t(polys[k])])] = k;
    for (size_t k = out.islands.size(); k-- > 0;) islandBegin[k] = std::min(islandBegin[k], islandBegin[k + 1]);

    SplitMix rng(opts.seed);
    std::vector<Pair> pairs; // one chunk: memory stays bounded for any --pairs
    const int total = polys.empty() ? 0 : opts.pairs;
    float scratch[VERTS_PER_POLYGON], verts[VERTS_PER_POLYGON * 3];
    auto pick = [&](size_t lo, size_t hi, float* pos) {
      const double before = lo ? cum[lo - 1] : 0.0;
      const double u = before + double(rng.unit()) * (cum[hi - 1] - before);
      size_t k = size_t(std::upper_bound(cum.begin() + long(lo), cum.begin() + long(hi), u) - cum.begin());
      if (k >= hi) k = hi - 1;
      const PolyRef ref = index.refs[size_t(polys[k])];
      const MeshTile* t = nullptr;
      const Poly* p = nullptr;
      mesh.getTileAndPolyByRefUnsafe(ref, &t, &p);
      for (int j = 0; j < p->vertCount; ++j) vcopy(&verts[j * 3], &t->verts[p->verts[j] * 3]);
      const float s = rng.unit(), tt = rng.unit();
      randomPointInConvexPoly(verts, p->vertCount, scratch, s, tt, pos);
      float h = 0;
      if (mesh.getPolyHeight(t, p, pos, &h)) pos[1] = h;
      return std::make_pair(ref, k);
    };

    Shared sh;
    sh.mesh = &mesh;
    sh.filter = &filter;
    sh.opts = &opts;
    sh.index = &index;
    sh.pairs = &pairs;
    sh.cancel = cancel;
    int nt = opts.threads > 0 ? opts.threads : int(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
    nt = std::max(1, std::min(nt, total / 16 + 1));
    std::vector<std::unique_ptr<Worker>> workers;
    for (int w = 0; w < nt; ++w) {
      workers.push_back(std::make_unique<Worker>());
      if (statusFailed(workers.back()->init(sh, N))) {
        if (why) *why = "cannot allocate the query node pools";
        return FAILURE | OUT_OF_MEMORY;
      }
    }
    std::function<void(int)> tick;
    if (progress)
      tick = [&](int) {
        const int d = sh.done.load(std::memory_order_relaxed);
        if ((d & 31) == 0) progress("detours", 0.15f + 0.85f * float(d) / float(std::max(1, total)));
      };
    constexpr int kChunk = 8192;
    for (int base = 0; base < total; base += kChunk) {
      pairs.assign(size_t(std::min(kChunk, total - base)), Pair());
      for (Pair& p : pairs) {
        const auto a = pick(0, polys.size(), p.s);
        const int k = polyIsland[size_t(polys[a.second])];
        p.sref = a.first;
        p.eref = pick(islandBegin[size_t(k)], islandBegin[size_t(k) + 1], p.e).first;
      }
      std::vector<Status> st(size_t(nt), SUCCESS);
      std::vector<std::thread> threads;
      for (int w = 1; w < nt; ++w)
        threads.emplace_back([&, w]() { st[size_t(w)] = workers[size_t(w)]->run(sh, w, nt, nullptr); });
      st[0] = workers[0]->run(sh, 0, nt, tick);
      for (std::thread& t : threads) t.join();
      for (Status x : st)
        if (statusFailed(x)) {
          if (why) *why = "cancelled";
          return FAILURE;
        }
      for (size_t i = 0; i < pairs.size(); ++i) {
        const Pair& p = pairs[i];
        PairEnds ends;
        ends.start = v3(p.s);
        ends.end = v3(p.e);
        ends.startRef = p.sref;
        ends.endRef = p.eref;
        ends.pairIndex = base + int(i);
        if (opts.budget && statusDetail(p.status, PARTIAL_RESULT | OUT_OF_NODES)) {
          BudgetFinding b;
          static_cast<PairEnds&>(b) = ends;
          b.status = p.status;
          out.budget.push_back(b);
        }
        if (!p.ran) {
          ++out.pairsSkipped;
          continue;
        }
        ++out.pairsRun;
        const float ratio = p.exact > 1e-6f ? p.metric / p.exact : 1.0f;
        out.worstRatio = std::max(out.worstRatio, ratio);
        if (opts.detours && ratio >= opts.detourRatio && p.metric - p.exact >= opts.detourMinExtra) {
          DetourFinding d;
          static_cast<PairEnds&>(d) = ends;
          d.detourLen = p.len3d;
          d.detourMetric = p.metric;
          d.exactLen = p.exact;
          d.ratio = ratio;
          out.detours.push_back(d);
        }
      }
    }
    if (opts.budget && !out.budget.empty()) {
      // Whether the hierarchical search completes what the node budget cut short.
      report("budget", 0.99f);
      HierPlanner hier;
      std::vector<PolyRef> corridor(65536);
      if (statusSucceeded(hier.init(&mesh, &filter)))
        for (BudgetFinding& b : out.budget) {
          int n = 0;
          const Status st = hier.findPath(b.startRef, b.endRef, b.start.data(), b.end.data(), &filter, corridor.data(),
                                          &n, int(corridor.size()));
          b.hierarchical = statusSucceeded(st) && !(st & PARTIAL_RESULT) && n > 0 && corridor[size_t(n - 1)] == b.endRef;
        }
    }
    std::stable_sort(out.detours.begin(), out.detours.end(),
                     [](const DetourFinding& a, const DetourFinding& b) { return a.ratio > b.ratio; });
    for (int i = 0; i < N; ++i) {
      float h = 0;
      for (const auto& w : workers) h = std::max(h, w->heat[size_t(i)]);
      if (h > 0) out.heat.push_back(HeatEntry{index.refs[size_t(i)], h});
    }
    std::sort(out.heat.begin(), out.heat.end(), [](const HeatEntry& a, const HeatEntry& b) { return a.ref < b.ref; });
    out.ran[CHECK_DETOURS] = opts.detours;
    out.ran[CHECK_BUDGET] = opts.budget;
  }
  report("done", 1.0f);
  return SUCCESS;
}

} // namespace nav::check
