// HierBench.cpp: the hierarchical search (nav/HierPlanner.h) beside Detour's findPath on a
// generated world, in one run, on the same pairs.
//
// Pairs: random points (findRandomPoint, fixed seed) whose 65,535-node Detour A* completes. Per
// query times are each pair's best of 3 rounds, then the median and mean over the pairs, for
// Detour with 65,535 nodes, Detour with 2,048 nodes and the hierarchical search; the straight
// path's length gap against Detour-65535's (mean, p95) and against the exact shortest path
// (nav::ShortestPath), lengths by nav::straightPathLength (xz on the mesh, 3D on off-mesh links);
// the graph's bytes against the navmesh's; the whole build; one tile's update
// (the tile removed and added again, then update(): a rebake), median, p95 and max over 50 tiles
// (--updates N), beside Detour's removeTile + addTile of the same tiles.
// Google Benchmark runs the three searches again over the pairs (mean time per query).
// Usage:
//   hier_bench [--world-size M] [--pairs N] [--cluster T] [--radius R] [--hscale S] [--no-exact]
//              [--updates N] [--tile CELLS] [--smoke]
//   default: the 2 km world, 300 pairs; --smoke: the 64 m world, 20 pairs (the ctest run).
#include "BenchWorld.h"
#include "DetourCopy.h"
#include "nav/HierPlanner.h"
#include "nav/NavMeshQuery.h"
#include "nav/ShortestPath.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double usSince(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }
/// This thread's CPU time: on a shared machine, wall time also counts the time slices others took.
double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

uint64_t g_rng = 0x9E3779B97F4A7C15ull;
float frand() {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return float(g_rng >> 40) / float(1 << 24);
}

struct Pair {
  nav::PolyRef s, e;
  float sp[3], ep[3];
};

struct Bench {
  nav::NavMesh mesh;
  dtNavMesh* dt = nullptr;
  dtNavMeshQuery* dq65535 = nullptr;
  dtNavMeshQuery* dq2048 = nullptr;
  nav::HierPlanner hier;
  std::vector<Pair> pairs;
  std::vector<dtPolyRef> dpath = std::vector<dtPolyRef>(65536);
  std::vector<nav::PolyRef> npath = std::vector<nav::PolyRef>(65536);
};
std::unique_ptr<Bench> g;

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5))];
}
double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / double(v.size());
}

enum Method { DT65535, DT2048, HIER };

nav::Status runOne(Method m, const Pair& p, int* n) {
  static const dtQueryFilter df;
  static const nav::QueryFilter nf;
  if (m == HIER) return g->hier.findPath(p.s, p.e, p.sp, p.ep, &nf, g->npath.data(), n, 65536);
  dtNavMeshQuery* q = m == DT65535 ? g->dq65535 : g->dq2048;
  return q->findPath(p.s, p.e, p.sp, p.ep, &df, g->dpath.data(), n, 65536);
}

void BM_Path(benchmark::State& state, Method m) {
  size_t i = 0;
  for (auto _ : state) {
    int n = 0;
    benchmark::DoNotOptimize(runOne(m, g->pairs[i], &n));
    i = (i + 1) % g->pairs.size();
  }
}

} // namespace

int main(int argc, char** argv) {
  int worldSize = 2000, npairs = 300, nupdates = 50, tileSize = 64;
  bool smoke = false, noExact = false;
  nav::HierOptions opts;
  std::vector<char*> args = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--world-size") && i + 1 < argc) worldSize = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--pairs") && i + 1 < argc) npairs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--cluster") && i + 1 < argc) opts.clusterTiles = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--radius") && i + 1 < argc) opts.corridorRadius = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--hscale") && i + 1 < argc) opts.refineHeuristicScale = float(std::atof(argv[++i]));
    else if (!std::strcmp(argv[i], "--smoke")) smoke = true;
    else if (!std::strcmp(argv[i], "--no-exact")) noExact = true;
    else if (!std::strcmp(argv[i], "--updates") && i + 1 < argc) nupdates = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--tile") && i + 1 < argc) tileSize = std::atoi(argv[++i]);
    else args.push_back(argv[i]);
  }
  if (smoke) {
    worldSize = 64;
    npairs = 20;
    static char minTime[] = "--benchmark_min_time=0.001";
    args.push_back(minTime);
  }
  if (worldSize < 32 || worldSize > 8192 || npairs < 1 || tileSize < 16 || tileSize > 1024) {
    std::fprintf(stderr, "hier_bench: --world-size 32..8192, --pairs >= 1, --tile 16..1024\n");
    return 2;
  }
  g = std::make_unique<Bench>();
  std::string why;
  if (!benchworld::loadWorld(NAVBENCH_HIER_BENCH_DIR, worldSize, g->mesh, why, tileSize)) {
    std::fprintf(stderr, "hier_bench: %s\n", why.c_str());
    return 1;
  }
  g->dt = benchutil::detourCopy(g->mesh);
  g->dq65535 = dtAllocNavMeshQuery();
  g->dq2048 = dtAllocNavMeshQuery();
  if (!g->dt || dtStatusFailed(g->dq65535->init(g->dt, 65535)) || dtStatusFailed(g->dq2048->init(g->dt, 2048))) {
    std::fprintf(stderr, "hier_bench: Detour refused the mesh\n");
    return 1;
  }
  auto t0 = Clock::now();
  if (nav::statusFailed(g->hier.init(&g->mesh, nullptr, opts))) {
    std::fprintf(stderr, "hier_bench: the planner refused the mesh\n");
    return 1;
  }
  const double buildMs = usSince(t0) / 1000.0;

  // Pairs the 65,535-node A* completes.
  const nav::QueryFilter nf;
  const dtQueryFilter df;
  int drawn = 0;
  while (int(g->pairs.size()) < npairs && drawn < npairs * 20) {
    ++drawn;
    Pair p;
    if (nav::statusFailed(g->hier.query().findRandomPoint(&nf, frand, &p.s, p.sp)) ||
        nav::statusFailed(g->hier.query().findRandomPoint(&nf, frand, &p.e, p.ep)))
      continue;
    int n = 0;
    const dtStatus st = g->dq65535->findPath(p.s, p.e, p.sp, p.ep, &df, g->dpath.data(), &n, 65536);
    if (dtStatusSucceed(st) && !(st & DT_PARTIAL_RESULT) && n > 0 && g->dpath[size_t(n - 1)] == p.e)
      g->pairs.push_back(p);
  }
  if (g->pairs.empty()) {
    std::fprintf(stderr, "hier_bench: no connected pair\n");
    return 1;
  }

  // Per-query times (best of 3 rounds per pair), completeness.
  const char* names[3] = {"Detour findPath, 65,535 nodes", "Detour findPath, 2,048 nodes", "hierarchical"};
  std::vector<double> best[3];
  int complete[3] = {0, 0, 0}, fallbacks = 0;
  double refineNodes = 0, abstractExpanded = 0, corridorClusters = 0;
  for (int m = 0; m < 3; ++m) best[m].assign(g->pairs.size(), 1e30);
  for (int round = 0; round < 3; ++round)
    for (int m = 0; m < 3; ++m)
      for (size_t i = 0; i < g->pairs.size(); ++i) {
        int n = 0;
        const auto t = Clock::now();
        const nav::Status st = runOne(Method(m), g->pairs[i], &n);
        best[m][i] = std::min(best[m][i], usSince(t));
        if (round) continue;
        const nav::PolyRef last = n > 0 ? (m == HIER ? g->npath[size_t(n - 1)] : g->dpath[size_t(n - 1)]) : 0;
        if (!(st & nav::PARTIAL_RESULT) && last == g->pairs[i].e) ++complete[m];
        if (m == HIER) {
          const nav::HierStats& s = g->hier.lastStats();
          fallbacks += s.fallback ? 1 : 0;
          refineNodes += s.refineNodes;
          abstractExpanded += s.abstractExpanded;
          corridorClusters += s.corridorClusters;
        }
      }

  // Lengths: straight paths of Detour-65535's and the hierarchical corridors, the exact path.
  nav::ShortestPath exact;
  const bool haveExact = !noExact && nav::statusSucceeded(exact.init(&g->mesh, 65536));
  std::vector<float> pts(size_t(4096) * 3), dpts(size_t(4096) * 3);
  std::vector<uint8_t> flags(4096), dflags(4096);
  std::vector<double> gapDt, gapExactHier, gapExactDt;
  for (const Pair& p : g->pairs) {
    int dn = 0, hn = 0, ds = 0, hs = 0;
    g->dq65535->findPath(p.s, p.e, p.sp, p.ep, &df, g->dpath.data(), &dn, 65536);
    g->dq65535->findStraightPath(p.sp, p.ep, g->dpath.data(), dn, dpts.data(), dflags.data(), nullptr, &ds, 4096);
    g->hier.findPath(p.s, p.e, p.sp, p.ep, &nf, g->npath.data(), &hn, 65536);
    g->hier.query().findStraightPath(p.sp, p.ep, g->npath.data(), hn, pts.data(), flags.data(), nullptr, &hs, 4096);
    const double ld = nav::straightPathLength(dpts.data(), dflags.data(), ds),
                 lh = nav::straightPathLength(pts.data(), flags.data(), hs);
    if (ld > 0) gapDt.push_back(lh / ld - 1.0);
    if (haveExact) {
      int en = 0;
      float len = 0;
      const nav::Status st = exact.findPath(p.s, p.e, p.sp, p.ep, &nf, pts.data(), flags.data(), nullptr, &en, 4096,
                                            nullptr, nullptr, 0, &len);
      if (nav::statusSucceeded(st) && !(st & nav::PARTIAL_RESULT) && len > 0) {
        gapExactHier.push_back(lh / double(len) - 1.0);
        gapExactDt.push_back(ld / double(len) - 1.0);
      }
    }
  }

  const size_t meshBytes = g->mesh.totalTileBytes() + g->mesh.overheadBytes();
  std::printf("\nworld %d m: %d tiles, %zu pairs the 65,535-node A* completes (of %d drawn); cluster %d tiles, "
              "corridor radius %d, refine heuristic %.3f\n",
              worldSize, g->mesh.tileCount(), g->pairs.size(), drawn, g->hier.options().clusterTiles,
              g->hier.options().corridorRadius, double(g->hier.options().refineHeuristicScale));
  std::printf("%-32s %12s %12s %10s\n", "per query (best of 3)", "median us", "mean us", "complete");
  for (int m = 0; m < 3; ++m)
    std::printf("%-32s %12.1f %12.1f %6d/%zu\n", names[m], percentile(best[m], 0.5), mean(best[m]), complete[m],
                g->pairs.size());
  const double med[3] = {percentile(best[0], 0.5), percentile(best[1], 0.5), percentile(best[2], 0.5)};
  std::printf("median ratio hierarchical / Detour-65535: %.3f (target <= 0.1); / Detour-2048: %.3f (target <= 1)\n",
              med[2] / med[0], med[2] / med[1]);
  const double np = double(g->pairs.size());
  std::printf("hierarchical: %.1f abstract nodes expanded, %.1f corridor clusters, %.0f refine nodes per query; "
              "%d fallbacks\n",
              abstractExpanded / np, corridorClusters / np, refineNodes / np, fallbacks);
  std::printf("straight length vs Detour-65535: mean %+.2f%%, p95 %+.2f%% (targets 2%%, 5%%)\n", 100 * mean(gapDt),
              100 * percentile(gapDt, 0.95));
  if (!gapExactHier.empty())
    std::printf("vs the exact shortest path (%zu pairs): hierarchical mean %+.2f%% p95 %+.2f%%; Detour-65535 mean "
                "%+.2f%% p95 %+.2f%%\n",
                gapExactHier.size(), 100 * mean(gapExactHier), 100 * percentile(gapExactHier, 0.95),
                100 * mean(gapExactDt), 100 * percentile(gapExactDt, 0.95));
  std::printf("graph %.1f KB (%d entrances, %zu edges) = %.2f%% of the navmesh's %.1f KB (target <= 10%%); search "
              "arrays %.1f KB; built in %.1f ms\n",
              double(g->hier.graphBytes()) / 1024, g->hier.entranceCount(), g->hier.edgeCount(),
              100.0 * double(g->hier.graphBytes()) / double(meshBytes), double(meshBytes) / 1024,
              double(g->hier.searchBytes()) / 1024, buildMs);
  std::fflush(stdout);

  benchmark::RegisterBenchmark("Path/Detour65535", BM_Path, DT65535)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("Path/Detour2048", BM_Path, DT2048)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("Path/Hierarchical", BM_Path, HIER)->Unit(benchmark::kMicrosecond);
  int bargc = int(args.size());
  benchmark::Initialize(&bargc, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  // Last: the edits below change the refs of the pairs' tiles.
  // One tile's update: the tile removed and added again (a rebake), then update(). The reference:
  // Detour's removeTile + addTile of the same tile (what a rebake costs the runtime without a graph).
  std::vector<double> updMs, updCpuMs, dtCpuMs;
  {
    std::vector<int> slots;
    for (int i = 0; i < g->mesh.getMaxTiles(); ++i)
      if (g->mesh.getTile(i)->header) slots.push_back(i);
    for (int k = 0; k < nupdates && !slots.empty(); ++k) {
      const nav::MeshTile* t = g->mesh.getTile(slots[size_t(frand() * float(slots.size())) % slots.size()]);
      const nav::TileRef ref = g->mesh.getTileRef(t);
      const int size = t->dataSize;
      const int tx = t->header->x, ty = t->header->y, tl = t->header->layer;
      auto* copy = new uint8_t[size_t(size)];
      std::memcpy(copy, t->data, size_t(size));
      auto* dcopy = static_cast<unsigned char*>(dtAlloc(size_t(size), DT_ALLOC_PERM));
      std::memcpy(dcopy, t->data, size_t(size));
      uint8_t* data = nullptr;
      int dataSize = 0;
      g->mesh.removeTile(ref, &data, &dataSize);
      nav::TileRef added = 0;
      if (nav::statusFailed(g->mesh.addTile(copy, size, nav::TILE_FREE_DATA, 0, &added))) {
        delete[] copy;
        dtFree(dcopy);
        continue;
      }
      const auto tu = Clock::now();
      const double cpu0 = threadCpuMs();
      g->hier.update();
      updCpuMs.push_back(threadCpuMs() - cpu0);
      updMs.push_back(usSince(tu) / 1000.0);
      const double dcpu0 = threadCpuMs();
      const dtStatus rs = g->dt->removeTile(g->dt->getTileRefAt(tx, ty, tl), nullptr, nullptr);
      const dtStatus as = g->dt->addTile(dcopy, size, DT_TILE_FREE_DATA, 0, nullptr);
      dtCpuMs.push_back(threadCpuMs() - dcpu0);
      if (dtStatusFailed(rs) || dtStatusFailed(as)) {
        if (dtStatusFailed(as)) dtFree(dcopy);
        dtCpuMs.pop_back();
      }
    }
  }

  std::printf("one tile's update over %zu tiles (remove + add, then update()), ms:\n", updMs.size());
  std::printf("%-44s %9s %9s %9s\n", "", "median", "p95", "max");
  std::printf("%-44s %9.3f %9.3f %9.3f\n", "HierPlanner::update, thread CPU", percentile(updCpuMs, 0.5),
              percentile(updCpuMs, 0.95), percentile(updCpuMs, 1.0));
  std::printf("%-44s %9.3f %9.3f %9.3f\n", "HierPlanner::update, wall", percentile(updMs, 0.5), percentile(updMs, 0.95),
              percentile(updMs, 1.0));
  std::printf("%-44s %9.3f %9.3f %9.3f\n", "Detour removeTile + addTile, thread CPU", percentile(dtCpuMs, 0.5),
              percentile(dtCpuMs, 0.95), percentile(dtCpuMs, 1.0));
  const double dm = percentile(dtCpuMs, 0.5), dp = percentile(dtCpuMs, 0.95), dx = percentile(dtCpuMs, 1.0);
  std::printf("%-44s %9.2f %9.2f %9.2f\n", "update / Detour's (CPU)", dm > 0 ? percentile(updCpuMs, 0.5) / dm : 0,
              dp > 0 ? percentile(updCpuMs, 0.95) / dp : 0, dx > 0 ? percentile(updCpuMs, 1.0) / dx : 0);
  std::printf("target: update max < 1 ms (thread CPU)\n\n");
  std::fflush(stdout);

  dtFreeNavMeshQuery(g->dq65535);
  dtFreeNavMeshQuery(g->dq2048);
  dtFreeNavMesh(g->dt);
  return 0;
}
