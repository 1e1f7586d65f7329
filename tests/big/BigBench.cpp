// BigBench.cpp: generated big worlds (app/cli/WorldGen) end to end, nav beside Detour on the same
// tile set. Per world: generation, bake (wall time, all cores), tile-set file size, load time of
// the file (nav::loadTileSetFile; Detour: the same MSET file read and its tiles added to a
// dtNavMesh), memory (tile data, the unlimited pool, peak RSS), then Google Benchmark timings of
// findPath (nav 2048 nodes, nav unlimited, Detour 2048, Detour 65535) and findStraightPath per
// query with the nodes each search touched and its partial results.
//
//   big_bench [--sizes 256,1000,2000] [--pairs N] [--threads N] [google benchmark flags]
//   --whole-world N: also N random pairs per world, checked by a BFS for reachability; every
//   reachable one must be found without a partial result by the unlimited pool.
//   big_bench --load FILE.bin   (only: load time of an existing tile set, nav and Detour, best of 5)
// Worlds are written to the current directory (world_SIZE.obj/.json/.bin) and reused if present.
#include "app/cli/WorldGen.h"
#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"
#include "nav/TileSetFile.h"
#include "nav/bake/Bake.h"
#include "nav/bake/LevelFile.h"
#include "nav/bake/StreamBake.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <DetourNode.h>
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
long peakRssMb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}
uint64_t g_rng = 0x1234567;
float frand() {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return float(g_rng >> 40) / float(1 << 24);
}

dtNavMesh* loadDetour(const std::string& path, std::string* why) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() < sizeof(nav::TileSetHeader)) {
    *why = path + ": too short";
    return nullptr;
  }
  int32_t hdr[3];
  std::memcpy(hdr, bytes.data(), sizeof hdr);
  dtNavMeshParams params;
  std::memcpy(&params, bytes.data() + 12, sizeof params);
  dtNavMesh* mesh = dtAllocNavMesh();
  if (dtStatusFailed(mesh->init(&params))) {
    *why = path + ": Detour refused the params";
    dtFreeNavMesh(mesh);
    return nullptr;
  }
  size_t off = 12 + sizeof params;
  for (int i = 0; i < hdr[2]; ++i) {
    uint32_t ref;
    int32_t size;
    std::memcpy(&ref, bytes.data() + off, 4);
    std::memcpy(&size, bytes.data() + off + 4, 4);
    off += 8;
    unsigned char* data = static_cast<unsigned char*>(dtAlloc(size_t(size), DT_ALLOC_PERM));
    std::memcpy(data, bytes.data() + off, size_t(size));
    off += size_t(size);
    if (dtStatusFailed(mesh->addTile(data, size, DT_TILE_FREE_DATA, ref, nullptr))) dtFree(data);
  }
  return mesh;
}

struct World {
  int size = 0;
  uint64_t tris = 0;
  double genMs = 0, bakeMs = 0, navLoadMs = 0, dtLoadMs = 0;
  int tiles = 0, polys = 0, threads = 0;
  size_t fileBytes = 0, poolBytes = 0;
  long rssAfterBakeMb = 0;
  nav::NavMesh nav;
  dtNavMesh* dt = nullptr;
  std::vector<float> sp, ep;
  std::vector<nav::PolyRef> sref, eref;
};
std::vector<std::unique_ptr<World>> g_worlds;

bool prepare(World& w, int pairs, int threads) {
  const std::string base = "world_" + std::to_string(w.size);
  std::string why;
  navbench::worldgen::WorldParams p;
  p.size = float(w.size);
  p.seed = 1;
  navbench::worldgen::WorldStats st;
  Clock::time_point t0 = Clock::now();
  if (!navbench::worldgen::writeWorldObj(p, base + ".obj", &st, &why)) {
    std::fprintf(stderr, "big_bench: %s\n", why.c_str());
    return false;
  }
  w.genMs = msSince(t0);
  w.tris = st.triangles;
  nav::bake::Level lv;
  lv.objPath = base + ".obj";
  lv.settings.cellSize = 0.3f;
  lv.settings.tileSize = 64;
  lv.settings.tiled = true;
  if (!nav::bake::saveLevelFile(base + ".json", lv, &why)) return std::fprintf(stderr, "%s\n", why.c_str()), false;
  {
    // The file bake `navbench bake` runs (nav/bake/StreamBake): OBJ streamed, binned per tile on
    // disk, tiles written as they are final.
    nav::bake::FileBakeInput in;
    nav::bake::BakeSettings s;
    if (!nav::bake::loadFileBakeInput(base + ".json", &in, &s, &why)) return std::fprintf(stderr, "%s\n", why.c_str()), false;
    nav::bake::BakeOptions opt;
    opt.threads = threads;
    nav::bake::BakeReport rep;
    nav::bake::FileBakeStats fs;
    if (!nav::bake::bakeFileToTileSet(in, s, base + ".bin", opt, &rep, nav::bake::FileBakeOptions(), &fs))
      return std::fprintf(stderr, "big_bench: bake: %s\n", rep.error.c_str()), false;
    w.bakeMs = rep.totalMs;
    w.threads = rep.threads;
    w.tiles = rep.tileCount;
    w.polys = rep.polyCount;
    w.rssAfterBakeMb = peakRssMb();
    std::fprintf(stderr,
                 "bake %d m: read %.0f ms, bin %.0f ms, %lld tris -> %lld tile records (%.2f per tri), temp files %.1f MB, "
                 "vertex cache %lld lookups %.3f%% page misses; held: fixed %.2f MiB, tile inputs peak %.2f MiB "
                 "(largest tile %d tris, %.2f MiB), output window peak %d tiles, pending peak %d\n",
                 w.size, fs.readMs, fs.binMs, fs.tris, fs.binEntries, double(fs.binEntries) / double(fs.tris),
                 double(fs.tempFileBytes) / 1e6, fs.vertexLookups,
                 fs.vertexLookups ? 100.0 * double(fs.vertexPageMisses) / double(fs.vertexLookups) : 0.0,
                 double(fs.fixedBytes) / 1048576.0, double(fs.peakTileInputBytes) / 1048576.0, fs.largestTileTris,
                 double(fs.largestTileInputBytes) / 1048576.0, fs.peakWindowTiles, fs.peakPendingTiles);
  }
  {
    std::ifstream f(base + ".bin", std::ios::binary | std::ios::ate);
    w.fileBytes = size_t(f.tellg());
  }
  t0 = Clock::now();
  if (nav::statusFailed(nav::loadTileSetFile(base + ".bin", w.nav, &why)))
    return std::fprintf(stderr, "big_bench: %s\n", why.c_str()), false;
  w.navLoadMs = msSince(t0);
  t0 = Clock::now();
  w.dt = loadDetour(base + ".bin", &why);
  w.dtLoadMs = msSince(t0);
  if (!w.dt) std::fprintf(stderr, "big_bench: Detour: %s\n", why.c_str());

  nav::NavMeshQuery q;
  if (nav::statusFailed(q.initUnlimited(&w.nav))) return false;
  w.poolBytes = q.nodePool().memoryBytes();
  nav::QueryFilter f;
  g_rng = 0x9E3779B97F4A7C15ull ^ uint64_t(w.size);
  for (int i = 0; i < pairs; ++i) {
    nav::PolyRef a, b;
    float pa[3], pb[3];
    if (nav::statusFailed(q.findRandomPoint(&f, frand, &a, pa)) || nav::statusFailed(q.findRandomPoint(&f, frand, &b, pb)))
      continue;
    w.sref.push_back(a);
    w.eref.push_back(b);
    w.sp.insert(w.sp.end(), pa, pa + 3);
    w.ep.insert(w.ep.end(), pb, pb + 3);
  }
  return true;
}

constexpr int MAXP = 65536;

// Whole-world check: `pairs` random pairs; a pair counts as reachable when a BFS over the
// polygon links from the start reaches the end. Every reachable pair must be found by the
// unlimited mode without a partial result; Detour with its largest pool (65535) for comparison.
void wholeWorldPairs(World& w, int pairs) {
  const int maxTiles = w.nav.getMaxTiles();
  std::vector<uint32_t> base(size_t(maxTiles) + 1, 0);
  for (int i = 0; i < maxTiles; ++i) {
    const nav::MeshTile* t = w.nav.getTile(i);
    base[size_t(i) + 1] = base[size_t(i)] + uint32_t(t->header ? t->header->polyCount : 0);
  }
  const uint32_t polyBits = w.nav.polyBits();
  auto dense = [&](nav::PolyRef r) { return base[w.nav.decodePolyIdTile(r)] + (r & ((1u << polyBits) - 1)); };
  std::vector<uint32_t> stamp(base.back(), 0), queue;
  queue.reserve(base.back());
  nav::NavMeshQuery q;
  q.initUnlimited(&w.nav);
  dtNavMeshQuery* dq = dtAllocNavMeshQuery();
  if (w.dt) dq->init(w.dt, 65535);
  nav::QueryFilter f;
  dtQueryFilter df;
  std::vector<nav::PolyRef> path(static_cast<size_t>(MAXP));
  g_rng = 0xC0FFEEull ^ uint64_t(w.size);
  int reachable = 0, complete = 0, failed = 0, dtIncomplete = 0, longest = 0;
  double nodesMax = 0;
  for (int k = 0; k < pairs; ++k) {
    nav::PolyRef s, e;
    float sp[3], ep[3];
    if (nav::statusFailed(q.findRandomPoint(&f, frand, &s, sp)) || nav::statusFailed(q.findRandomPoint(&f, frand, &e, ep)))
      continue;
    const uint32_t gen = uint32_t(k) + 1;
    queue.clear();
    queue.push_back(s);
    stamp[dense(s)] = gen;
    bool found = s == e;
    for (size_t qi = 0; qi < queue.size() && !found; ++qi) {
      const nav::MeshTile* t;
      const nav::Poly* p;
      w.nav.getTileAndPolyByRefUnsafe(queue[qi], &t, &p);
      for (uint32_t l = p->firstLink; l != nav::NULL_LINK; l = t->links[l].next) {
        const nav::PolyRef n = t->links[l].ref;
        if (!n || stamp[dense(n)] == gen) continue;
        stamp[dense(n)] = gen;
        if (n == e) found = true;
        queue.push_back(n);
      }
    }
    if (!found) continue;
    ++reachable;
    int n = 0;
    const nav::Status st = q.findPath(s, e, sp, ep, &f, path.data(), &n, MAXP);
    if (nav::statusSucceeded(st) && !(st & (nav::PARTIAL_RESULT | nav::OUT_OF_NODES)) && n > 0 && path[size_t(n - 1)] == e)
      ++complete;
    else
      ++failed;
    longest = std::max(longest, n);
    nodesMax = std::max(nodesMax, double(q.nodePool().getNodeCount()));
    if (w.dt) {
      int dn = 0;
      const dtStatus ds = dq->findPath(s, e, sp, ep, &df, path.data(), &dn, MAXP);
      if (dtStatusFailed(ds) || (ds & (DT_PARTIAL_RESULT | DT_OUT_OF_NODES))) ++dtIncomplete;
    }
  }
  dtFreeNavMeshQuery(dq);
  std::printf("whole world %d m: %d pairs, %d reachable (BFS over links): unlimited pool %d complete, %d failed "
              "(longest corridor %d polys, most nodes %.0f); Detour 65535 nodes: %d partial or out of nodes\n",
              w.size, pairs, reachable, complete, failed, longest, nodesMax, dtIncomplete);
  std::fflush(stdout);
}

// mode: 0 nav 2048, 1 nav unlimited, 2 Detour 2048, 3 Detour 65535; straight: also findStraightPath.
void benchFindPath(benchmark::State& state, World* w, int mode, bool straight) {
  nav::NavMeshQuery nq;
  dtNavMeshQuery* dq = nullptr;
  if (mode == 0) nq.init(&w->nav, 2048);
  if (mode == 1) nq.initUnlimited(&w->nav);
  if (mode >= 2) {
    if (!w->dt) {
      state.SkipWithError("Detour could not load the set");
      return;
    }
    dq = dtAllocNavMeshQuery();
    dq->init(w->dt, mode == 2 ? 2048 : 65535);
  }
  nav::QueryFilter nf;
  dtQueryFilter df;
  std::vector<nav::PolyRef> path(MAXP), refs(MAXP);
  std::vector<float> pts(size_t(MAXP) * 3);
  std::vector<uint8_t> flags(MAXP);
  const size_t n = w->sref.size();
  double nodes = 0, partial = 0, queries = 0, outOfNodes = 0;
  size_t i = 0;
  for (auto _ : state) {
    const float* sp = &w->sp[3 * i];
    const float* ep = &w->ep[3 * i];
    int np = 0, ns = 0;
    bool part = false, oon = false;
    if (!dq) {
      const nav::Status s = nq.findPath(w->sref[i], w->eref[i], sp, ep, &nf, path.data(), &np, MAXP);
      part = (s & nav::PARTIAL_RESULT) != 0;
      oon = (s & nav::OUT_OF_NODES) != 0;
      nodes += nq.nodePool().getNodeCount();
      if (straight && np > 0)
        nq.findStraightPath(sp, ep, path.data(), np, pts.data(), flags.data(), refs.data(), &ns, MAXP);
    } else {
      const dtStatus s = dq->findPath(w->sref[i], w->eref[i], sp, ep, &df, path.data(), &np, MAXP);
      part = (s & DT_PARTIAL_RESULT) != 0;
      oon = (s & DT_OUT_OF_NODES) != 0;
      nodes += dq->getNodePool()->getNodeCount();
      if (straight && np > 0)
        dq->findStraightPath(sp, ep, path.data(), np, pts.data(), flags.data(), refs.data(), &ns, MAXP);
    }
    benchmark::DoNotOptimize(ns);
    partial += part;
    outOfNodes += oon;
    queries += 1;
    if (++i == n) i = 0;
  }
  if (dq) dtFreeNavMeshQuery(dq);
  state.counters["nodes"] = nodes / std::max(1.0, queries);
  state.counters["partial%"] = 100.0 * partial / std::max(1.0, queries);
  state.counters["outOfNodes%"] = 100.0 * outOfNodes / std::max(1.0, queries);
}

} // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {256, 1000, 2000};
  int pairs = 500, threads = 0, wholePairs = 0;
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc) {
      sizes.clear();
      for (char* s = argv[++i]; *s;) {
        sizes.push_back(int(std::strtol(s, &s, 10)));
        if (*s == ',') ++s;
      }
    } else if (!std::strcmp(argv[i], "--load") && i + 1 < argc) {
      const std::string path = argv[++i];
      std::string why;
      double best = 1e30, bestDt = 1e30;
      int polys = 0, tiles = 0;
      for (int rep = 0; rep < 5; ++rep) {
        nav::NavMesh mesh;
        Clock::time_point t0 = Clock::now();
        if (nav::statusFailed(nav::loadTileSetFile(path, mesh, &why))) {
          std::fprintf(stderr, "big_bench: %s\n", why.c_str());
          return 1;
        }
        best = std::min(best, msSince(t0));
        polys = tiles = 0;
        for (int t = 0; t < mesh.getMaxTiles(); ++t)
          if (const nav::MeshTile* mt = mesh.getTile(t); mt->header) {
            ++tiles;
            polys += mt->header->polyCount;
          }
        t0 = Clock::now();
        dtNavMesh* dm = loadDetour(path, &why);
        bestDt = std::min(bestDt, msSince(t0));
        if (dm) dtFreeNavMesh(dm);
      }
      std::printf("%s: %d tiles, %d polys: nav::loadTileSetFile %.1f ms, Detour (read + addTile) %.1f ms (best of 5)\n",
                  path.c_str(), tiles, polys, best, bestDt);
      return 0;
    } else if (!std::strcmp(argv[i], "--pairs") && i + 1 < argc) {
      pairs = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--whole-world") && i + 1 < argc) {
      wholePairs = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else {
      rest.push_back(argv[i]);
    }
  }
  std::printf("| world | triangles | gen s | bake s (threads) | tiles | polys | .bin MB | load nav ms | load Detour ms | "
              "unlimited pool MB | peak RSS MB |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int size : sizes) {
    auto w = std::make_unique<World>();
    w->size = size;
    if (!prepare(*w, pairs, threads)) return 1;
    std::printf("| %d m | %llu | %.2f | %.1f (%d) | %d | %d | %.2f | %.1f | %.1f | %.1f | %ld |\n", size,
                (unsigned long long)w->tris, w->genMs / 1000, w->bakeMs / 1000, w->threads, w->tiles, w->polys,
                double(w->fileBytes) / 1e6, w->navLoadMs, w->dtLoadMs, double(w->poolBytes) / 1e6, w->rssAfterBakeMb);
    std::fflush(stdout);
    if (wholePairs > 0) wholeWorldPairs(*w, wholePairs);
    World* wp = w.get();
    const std::string tag = std::to_string(size) + "m";
    const char* modes[] = {"nav2048", "navUnlimited", "detour2048", "detour65535"};
    for (int m = 0; m < 4; ++m) {
      benchmark::RegisterBenchmark(("findPath/" + tag + "/" + modes[m]).c_str(),
                                   [wp, m](benchmark::State& s) { benchFindPath(s, wp, m, false); });
      benchmark::RegisterBenchmark(("findPath+straight/" + tag + "/" + modes[m]).c_str(),
                                   [wp, m](benchmark::State& s) { benchFindPath(s, wp, m, true); });
    }
    g_worlds.push_back(std::move(w));
  }
  int rargc = int(rest.size());
  benchmark::Initialize(&rargc, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  for (auto& w : g_worlds)
    if (w->dt) dtFreeNavMesh(w->dt);
  return 0;
}
