// FuzzQuery.cpp: a valid mesh (assets/levels/default.bin, loaded once) and the fuzz input read as
// a program of queries: every NavMeshQuery API, PathFollower and ShortestPath, with random
// filters (flags, area costs incl. 0/inf/NaN), refs (valid, stale, foreign, garbage), positions
// (near the mesh, far, NaN/inf) and buffer sizes (0..capacity). Statuses may be anything; crashes,
// sanitizer reports and writes past the stated buffer sizes may not (buffers are exact-size heap
// blocks, so ASan sees an overrun).
#include "nav/NavMeshQuery.h"
#include "nav/PathFollow.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"
#include "tests/fuzz/FuzzUtil.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#ifndef NAVBENCH_SOURCE_DIR
#error "NAVBENCH_SOURCE_DIR must be defined"
#endif

namespace {

struct World {
  nav::NavMesh mesh;
  nav::NavMesh other; ///< A second mesh whose refs are "foreign" to `mesh`.
  nav::NavMeshQuery query;
  nav::ShortestPath opt;
  std::vector<nav::PolyRef> valid; ///< Every poly ref of `mesh`.
  std::vector<nav::PolyRef> stale; ///< Refs of a removed-and-re-added tile (old salt).
  float bmin[3] = {1e30f, 1e30f, 1e30f}, bmax[3] = {-1e30f, -1e30f, -1e30f};
};

World* makeWorld() {
  const char* env = std::getenv("NAVBENCH_FUZZ_MESH");
  const std::string path = env && *env ? env : NAVBENCH_SOURCE_DIR "/assets/levels/default.bin";
  auto* w = new World;
  std::string why;
  if (nav::statusFailed(nav::loadTileSetFile(path, w->mesh, &why)) ||
      nav::statusFailed(nav::loadTileSetFile(path, w->other, &why))) {
    std::fprintf(stderr, "fuzz_query: cannot load %s: %s\n", path.c_str(), why.c_str());
    std::abort();
  }
  // Make stale refs: remove a tile and add it back (its salt changes).
  for (int i = 0; i < w->mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = w->mesh.getTile(i);
    if (!t->header) continue;
    const nav::PolyRef base = w->mesh.getPolyRefBase(t);
    for (int p = 0; p < t->header->polyCount; ++p) w->stale.push_back(base | nav::PolyRef(p));
    // The loaded mesh owns (and frees) its tiles' data: keep a copy to add back.
    const int size = t->dataSize;
    uint8_t* copy = new uint8_t[size_t(size)];
    std::memcpy(copy, t->data, size_t(size));
    uint8_t* back = nullptr;
    int backSize = 0;
    if (nav::statusFailed(w->mesh.removeTile(w->mesh.getTileRef(t), &back, &backSize))) std::abort();
    nav::TileRef ref = 0;
    if (nav::statusFailed(w->mesh.addTile(copy, size, nav::TILE_FREE_DATA, 0, &ref, &why))) std::abort();
    break;
  }
  for (int i = 0; i < w->mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = w->mesh.getTile(i);
    if (!t->header) continue;
    const nav::PolyRef base = w->mesh.getPolyRefBase(t);
    for (int p = 0; p < t->header->polyCount; ++p) w->valid.push_back(base | nav::PolyRef(p));
    for (int k = 0; k < 3; ++k) {
      w->bmin[k] = std::min(w->bmin[k], t->header->bmin[k]);
      w->bmax[k] = std::max(w->bmax[k], t->header->bmax[k]);
    }
  }
  if (w->valid.empty() || nav::statusFailed(w->query.init(&w->mesh, 2048)) ||
      nav::statusFailed(w->opt.init(&w->mesh, 4096)))
    std::abort();
  return w;
}

World& world() {
  static World* w = makeWorld();
  return *w;
}

/// An exact-size heap buffer of n T (n may be 0: then a 1-element block that is never written,
/// and the API is told 0).
template <class T> struct Buf {
  explicit Buf(int n) : n(n), p(new T[n > 0 ? size_t(n) : 1]()) {}
  int n;
  std::unique_ptr<T[]> p;
  T* get() { return p.get(); }
};

struct Program {
  World& w;
  fuzz::Bytes in;

  nav::PolyRef ref() {
    switch (in.u8() % 8) {
    case 0: return 0;
    case 1: return w.stale.empty() ? 0 : w.stale[size_t(in.pick(int(w.stale.size())))];
    case 2: { // a ref of the other mesh: same layout, so often valid-looking here too
      const nav::MeshTile* t = w.other.getTile(in.pick(w.other.getMaxTiles()));
      return t->header ? w.other.getPolyRefBase(t) | nav::PolyRef(in.pick(t->header->polyCount + 4)) : in.u32();
    }
    case 3: return in.u32(); // garbage
    default: return w.valid[size_t(in.pick(int(w.valid.size())))];
    }
  }
  void pos(float* p) {
    for (int k = 0; k < 3; ++k) {
      const float pad = (w.bmax[k] - w.bmin[k]) * 0.25f + 1.0f;
      p[k] = in.range(w.bmin[k] - pad, w.bmax[k] + pad);
    }
  }
  void ext(float* e) {
    for (int k = 0; k < 3; ++k) e[k] = in.range(0.0f, 8.0f);
  }
  float scalar(float hi) { return in.range(0.0f, hi); }
  int size(int cap) { return in.pick(cap + 1); }
  void filter(nav::QueryFilter& f) {
    f.setIncludeFlags(in.u16());
    f.setExcludeFlags(in.u8() & 1 ? in.u16() : 0);
    const int n = in.u8() % 4;
    for (int i = 0; i < n; ++i) {
      const int area = in.pick(nav::MAX_AREAS);
      // Costs the filter's contract allows (>= 0): negative or NaN costs would let A* reopen nodes
      // forever (Detour's precondition as well).
      const int kind = in.u8() % 8;
      const float c = kind == 0 ? 0.0f : kind == 1 ? 1e30f : in.range(0.0f, 10.0f);
      if (!(c >= 0.0f) || c > 1e30f) continue;
      f.setAreaCost(area, c);
    }
  }
  static float frand() { return float(std::rand() % 10000) / 10000.0f; }

  void run() {
    nav::NavMeshQuery& q = w.query;
    for (int guard = 0; guard < 64 && !in.empty(); ++guard) {
      nav::QueryFilter f;
      filter(f);
      float a[3], b[3], e[3], out[3], out2[3];
      bool over = false;
      const int op = in.u8() % 20;
      switch (op) {
      case 0: {
        nav::PolyRef r = 0;
        pos(a), ext(e);
        (void)q.findNearestPoly(a, e, &f, &r, in.u8() & 1 ? out : nullptr, in.u8() & 1 ? &over : nullptr);
        break;
      }
      case 1: {
        Buf<nav::PolyRef> polys(size(256));
        int n = -1;
        pos(a), ext(e);
        (void)q.queryPolygons(a, e, &f, polys.get(), &n, polys.n);
        if (n > polys.n) __builtin_trap();
        break;
      }
      case 2:
        pos(a);
        (void)q.closestPointOnPoly(ref(), a, out, &over);
        (void)q.closestPointOnPolyBoundary(ref(), a, out2);
        (void)q.getPolyHeight(ref(), a, &out[1]);
        break;
      case 3: {
        Buf<nav::PolyRef> path(size(512));
        int n = -1;
        pos(a), pos(b);
        (void)q.findPath(ref(), ref(), a, b, &f, path.get(), &n, path.n, in.u8() & 1 ? nav::FINDPATH_ANY_ANGLE : 0);
        if (n > path.n) __builtin_trap();
        break;
      }
      case 4: {
        pos(a), pos(b);
        nav::Status s = q.initSlicedFindPath(ref(), ref(), a, b, &f, in.u8() & 1 ? nav::FINDPATH_ANY_ANGLE : 0);
        for (int k = 0; k < 8 && nav::statusInProgress(s); ++k) {
          int done = 0;
          s = q.updateSlicedFindPath(in.pick(64) - 2, &done);
        }
        Buf<nav::PolyRef> path(size(256));
        int n = -1;
        if (in.u8() & 1) {
          Buf<nav::PolyRef> existing(size(16));
          for (int k = 0; k < existing.n; ++k) existing.get()[k] = ref();
          (void)q.finalizeSlicedFindPathPartial(existing.get(), existing.n, path.get(), &n, path.n);
        } else {
          (void)q.finalizeSlicedFindPath(path.get(), &n, path.n);
        }
        if (n > path.n) __builtin_trap();
        break;
      }
      case 5: { // findStraightPath through a real corridor, or a corridor of random refs
        Buf<nav::PolyRef> path(size(256));
        int n = 0;
        pos(a), pos(b);
        if (in.u8() & 1) {
          (void)q.findPath(ref(), ref(), a, b, &f, path.get(), &n, path.n);
        } else {
          n = path.n;
          for (int k = 0; k < n; ++k) path.get()[k] = ref();
        }
        const int cap = size(128);
        Buf<float> pts(cap * 3);
        Buf<uint8_t> flags(cap);
        Buf<nav::PolyRef> refs(cap);
        int count = -1;
        (void)q.findStraightPath(a, b, path.get(), n, pts.get(), in.u8() & 1 ? flags.get() : nullptr,
                                 in.u8() & 1 ? refs.get() : nullptr, &count, cap, in.u8() % 4);
        if (count > cap) __builtin_trap();
        break;
      }
      case 6: {
        Buf<nav::PolyRef> visited(size(64));
        int n = -1;
        pos(a), pos(b);
        (void)q.moveAlongSurface(ref(), a, b, &f, out, visited.get(), &n, visited.n);
        if (n > visited.n) __builtin_trap();
        break;
      }
      case 7: {
        Buf<nav::PolyRef> path(size(128));
        int n = -1;
        float t = 0;
        pos(a), pos(b);
        (void)q.raycast(ref(), a, b, &f, &t, out, path.get(), &n, path.n);
        if (n > path.n) __builtin_trap();
        break;
      }
      case 8: {
        Buf<nav::PolyRef> path(size(128));
        nav::RaycastHit hit;
        hit.path = path.get();
        hit.maxPath = path.n;
        pos(a), pos(b);
        (void)q.raycast(ref(), a, b, &f, in.u8() & 1, &hit, ref());
        if (hit.pathCount > path.n) __builtin_trap();
        break;
      }
      case 9: {
        float dist = 0;
        pos(a);
        (void)q.findDistanceToWall(ref(), a, scalar(30), &f, &dist, out, out2);
        break;
      }
      case 10: {
        const int cap = size(128);
        Buf<nav::PolyRef> r(cap), p(cap);
        Buf<float> c(cap);
        int n = -1;
        pos(a);
        (void)q.findPolysAroundCircle(ref(), a, scalar(30), &f, in.u8() & 1 ? r.get() : nullptr,
                                      in.u8() & 1 ? p.get() : nullptr, in.u8() & 1 ? c.get() : nullptr, &n, cap);
        if (n > cap) __builtin_trap();
        break;
      }
      case 11: {
        const int nv = in.pick(9);
        Buf<float> verts(nv * 3);
        for (int k = 0; k < nv; ++k) pos(&verts.get()[k * 3]);
        const int cap = size(128);
        Buf<nav::PolyRef> r(cap), p(cap);
        Buf<float> c(cap);
        int n = -1;
        (void)q.findPolysAroundShape(ref(), verts.get(), nv, &f, r.get(), p.get(), c.get(), &n, cap);
        if (n > cap) __builtin_trap();
        break;
      }
      case 12: {
        const int cap = size(64);
        Buf<nav::PolyRef> r(cap), p(cap);
        int n = -1;
        pos(a);
        (void)q.findLocalNeighbourhood(ref(), a, scalar(20), &f, r.get(), in.u8() & 1 ? p.get() : nullptr, &n, cap);
        if (n > cap) __builtin_trap();
        break;
      }
      case 13: {
        const int cap = size(32);
        Buf<float> segs(cap * 6);
        Buf<nav::PolyRef> refs(cap);
        int n = -1;
        (void)q.getPolyWallSegments(ref(), &f, segs.get(), in.u8() & 1 ? refs.get() : nullptr, &n, cap);
        if (n > cap) __builtin_trap();
        break;
      }
      case 14: {
        nav::PolyRef r = 0;
        std::srand(in.u16());
        (void)q.findRandomPoint(&f, &Program::frand, &r, out);
        pos(a);
        (void)q.findRandomPointAroundCircle(ref(), a, scalar(30), &f, &Program::frand, &r, out);
        break;
      }
      case 15: {
        uint8_t ft = 0, tt = 0;
        const nav::PolyRef from = ref(), to = ref();
        (void)q.getPortalPoints(from, to, out, out2, &ft, &tt);
        (void)q.getEdgeMidPoint(from, to, out);
        (void)q.isValidPolyRef(from, &f);
        (void)q.isInClosedList(to);
        break;
      }
      case 16: { // mesh accessors with any ref
        const nav::PolyRef r = ref();
        uint16_t fl = 0;
        uint8_t ar = 0;
        (void)w.mesh.getPolyFlags(r, &fl);
        (void)w.mesh.getPolyArea(r, &ar);
        (void)w.mesh.getOffMeshConnectionPolyEndPoints(ref(), r, out, out2);
        (void)w.mesh.getOffMeshConnectionByRef(r);
        (void)w.mesh.getTileByRef(r);
        break;
      }
      case 17: { // PathFollower over a corridor (real or random)
        Buf<nav::PolyRef> path(size(128));
        int n = 0;
        pos(a), pos(b);
        const nav::PolyRef start = ref();
        if (in.u8() & 1) {
          (void)q.findPath(start, ref(), a, b, &f, path.get(), &n, path.n);
        } else {
          n = path.n;
          for (int k = 0; k < n; ++k) path.get()[k] = ref();
        }
        nav::PathFollower pf;
        pf.stepSize = in.u8() & 1 ? in.rawFloat() : in.range(0.05f, 4.0f);
        pf.slop = in.range(0.0f, 1.0f);
        if (nav::statusSucceeded(pf.init(&q, &f, start, a, b, path.get(), n, 1 + in.pick(512))))
          for (int k = 0; k < 4096 && pf.step(); ++k) {
          }
        break;
      }
      case 18: { // exact shortest path
        const int cap = size(64);
        Buf<float> pts(cap * 3);
        Buf<uint8_t> flags(cap);
        Buf<nav::PolyRef> refs(cap);
        const int pcap = size(64);
        Buf<nav::PolyRef> polys(pcap);
        int n = -1, np = -1;
        float len = 0;
        pos(a), pos(b);
        (void)w.opt.findPath(ref(), ref(), a, b, &f, pts.get(), in.u8() & 1 ? flags.get() : nullptr,
                             in.u8() & 1 ? refs.get() : nullptr, &n, cap, in.u8() & 1 ? polys.get() : nullptr,
                             &np, pcap, &len);
        if (n > cap || (np > pcap && pcap > 0)) __builtin_trap();
        break;
      }
      case 19: { // sliced exact shortest path, finalized early or late
        pos(a), pos(b);
        nav::Status s = w.opt.initSlicedFindPath(ref(), ref(), a, b, &f);
        const int steps = in.pick(6);
        for (int k = 0; k < steps && nav::statusInProgress(s); ++k) {
          int done = 0;
          s = w.opt.updateSlicedFindPath(in.pick(200) - 2, &done);
        }
        const int cap = size(64);
        Buf<float> pts(cap * 3);
        int n = -1;
        (void)w.opt.finalizeSlicedFindPath(pts.get(), nullptr, nullptr, &n, cap);
        if (n > cap) __builtin_trap();
        break;
      }
      }
    }
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Program prog{world(), fuzz::Bytes(data, size)};
  prog.run();
  return 0;
}
