// optimal_bench: the exact shortest path (nav::ShortestPath) against Detour's findPath +
// findStraightPath on the same random start/end pairs, in one run:
//   * a quality report per level: Detour's straight-path length / the shortest length (mean, median,
//     p95, p99, max, share over 5% and over 10%), printed before the timings;
//   * Google Benchmark timings per query: Detour (findPath + findStraightPath), ours (NavMeshQuery
//     findPath + findStraightPath) and the exact search.
// Levels: the project's default level (solo and tiled), the shared levels when present, and a
// generated 200 m x 200 m field of 400 random walls and boxes (tiled).
// Usage: optimal_bench [--pairs=N] [--seed=S] [benchmark flags...]
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/ShortestPath.h"
#include "tests/optimal/OptimalTestUtil.h"

#include <benchmark/benchmark.h>

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace opttest;

namespace {

struct Pair {
  nav::PolyRef s, e;
  float sp[3], ep[3];
};

struct Level {
  std::string name;
  std::unique_ptr<World> world;
  dtNavMeshQuery* dtq = nullptr; // Detour with RecastDemo's 2048-node pool
  nav::NavMeshQuery ours;
  nav::ShortestPath exact;
  std::vector<Pair> pairs;
  ~Level() {
    if (dtq) dtFreeNavMeshQuery(dtq);
  }
};

std::vector<std::unique_ptr<Level>> g_levels;

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double idx = p * double(v.size() - 1);
  const size_t i = size_t(idx);
  const double f = idx - double(i);
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

void report(const Level& lv) {
  dtQueryFilter df;
  nav::QueryFilter f;
  std::vector<double> ratio;
  std::vector<float> pts(3 * 1024);
  std::vector<uint8_t> flags(1024);
  int worse = 0, nodesMax = 0;
  long nodesSum = 0;
  for (const Pair& p : lv.pairs) {
    const float dl = detourPath(*lv.world, p.s, p.e, p.sp, p.ep);
    int n = 0;
    float len = 0;
    nav::ShortestPath& ex = const_cast<nav::ShortestPath&>(lv.exact);
    const nav::Status st = ex.findPath(p.s, p.e, p.sp, p.ep, &f, pts.data(), flags.data(), nullptr, &n, 1024,
                                       nullptr, nullptr, 0, &len);
    nodesSum += ex.lastStats().nodesGenerated;
    nodesMax = std::max(nodesMax, ex.lastStats().nodesGenerated);
    if (dl < 0 || !nav::statusSucceeded(st) || (st & nav::PARTIAL_RESULT) || len <= 1e-4f) continue;
    if (len > dl + 1e-4f) ++worse;
    ratio.push_back(double(dl) / double(len));
  }
  double mean = 0;
  int over5 = 0, over10 = 0;
  for (double r : ratio) {
    mean += r;
    over5 += r > 1.05;
    over10 += r > 1.10;
  }
  const double n = double(ratio.size());
  if (n > 0) mean /= n;
  std::printf("%-22s %6zu %8.4f %8.4f %8.4f %8.4f %8.4f %7.2f%% %7.2f%% %6.1f %6d %s\n", lv.name.c_str(),
              ratio.size(), mean, percentile(ratio, 0.5), percentile(ratio, 0.95), percentile(ratio, 0.99),
              ratio.empty() ? 0.0 : *std::max_element(ratio.begin(), ratio.end()), n > 0 ? 100.0 * over5 / n : 0.0,
              n > 0 ? 100.0 * over10 / n : 0.0, lv.pairs.empty() ? 0.0 : double(nodesSum) / lv.pairs.size(), nodesMax,
              worse ? "(!) exact longer than Detour on some pairs" : "");
}

void BM_Detour(benchmark::State& state, Level* lv) {
  dtQueryFilter f;
  std::vector<dtPolyRef> path(2048);
  std::vector<float> pts(3 * 256);
  size_t i = 0;
  for (auto _ : state) {
    const Pair& p = lv->pairs[i++ % lv->pairs.size()];
    int n = 0, ns = 0;
    lv->dtq->findPath(p.s, p.e, p.sp, p.ep, &f, path.data(), &n, 2048);
    lv->dtq->findStraightPath(p.sp, p.ep, path.data(), n, pts.data(), nullptr, nullptr, &ns, 256);
    benchmark::DoNotOptimize(ns);
  }
}

void BM_Ours(benchmark::State& state, Level* lv) {
  nav::QueryFilter f;
  std::vector<nav::PolyRef> path(2048);
  std::vector<float> pts(3 * 256);
  size_t i = 0;
  for (auto _ : state) {
    const Pair& p = lv->pairs[i++ % lv->pairs.size()];
    int n = 0, ns = 0;
    lv->ours.findPath(p.s, p.e, p.sp, p.ep, &f, path.data(), &n, 2048);
    lv->ours.findStraightPath(p.sp, p.ep, path.data(), n, pts.data(), nullptr, nullptr, &ns, 256);
    benchmark::DoNotOptimize(ns);
  }
}

void BM_Exact(benchmark::State& state, Level* lv) {
  nav::QueryFilter f;
  std::vector<float> pts(3 * 256);
  std::vector<uint8_t> flags(256);
  size_t i = 0;
  long nodes = 0;
  for (auto _ : state) {
    const Pair& p = lv->pairs[i++ % lv->pairs.size()];
    int ns = 0;
    float len = 0;
    lv->exact.findPath(p.s, p.e, p.sp, p.ep, &f, pts.data(), flags.data(), nullptr, &ns, 256, nullptr, nullptr, 0,
                       &len);
    nodes += lv->exact.lastStats().nodesGenerated;
    benchmark::DoNotOptimize(len);
  }
  state.counters["nodes/query"] = benchmark::Counter(double(nodes) / double(state.iterations()));
}

void addLevel(const std::string& name, const std::string& obj, bool tiled, int pairs, uint32_t seed) {
  const bool generated = obj.rfind("generated:", 0) == 0;
  if (!generated && !fileExists(obj)) {
    std::printf("skipping %s: %s not found\n", name.c_str(), obj.c_str());
    return;
  }
  auto lv = std::make_unique<Level>();
  lv->name = name;
  lv->world = std::make_unique<World>();
  std::string why;
  bool built = false;
  if (generated) {
    std::vector<float> verts;
    std::vector<int> tris;
    generateObstacleField(200.0f, 400, 12345, verts, tris);
    built = buildLevelFromTriangles(verts, tris, tiled, *lv->world, &why);
  } else {
    built = buildLevel(obj, tiled, *lv->world, &why);
  }
  if (!built) {
    std::printf("skipping %s: %s\n", name.c_str(), why.c_str());
    return;
  }
  lv->dtq = dtAllocNavMeshQuery();
  lv->dtq->init(lv->world->dt, 2048);
  lv->ours.init(&lv->world->mesh, 2048);
  lv->exact.init(&lv->world->mesh, 65536); // the generated field needs > 8192 on a few pairs
  dtQueryFilter df;
  seedRandom(seed);
  for (int i = 0, tries = 0; i < pairs && tries < pairs * 4; ++tries) {
    Pair p;
    if (dtStatusFailed(lv->world->dtq->findRandomPoint(&df, frand, &p.s, p.sp))) continue;
    if (dtStatusFailed(lv->world->dtq->findRandomPoint(&df, frand, &p.e, p.ep))) continue;
    if (detourPath(*lv->world, p.s, p.e, p.sp, p.ep) < 0) continue; // connected pairs only
    lv->pairs.push_back(p);
    ++i;
  }
  if (lv->pairs.empty()) return;
  g_levels.push_back(std::move(lv));
}

} // namespace

int main(int argc, char** argv) {
  int pairs = 1000;
  uint32_t seed = 1;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--pairs=", 8) == 0) pairs = std::max(1, std::atoi(argv[i] + 8));
    else if (std::strncmp(argv[i], "--seed=", 7) == 0) seed = uint32_t(std::strtoul(argv[i] + 7, nullptr, 10));
    else rest.push_back(argv[i]);
  }
  const std::string src = NAVBENCH_SOURCE_DIR, shared = NAVBENCH_SHARED_DIR;
  addLevel("default", src + "/assets/levels/default.obj", false, pairs, seed);
  addLevel("default/tiled", src + "/assets/levels/default.obj", true, pairs, seed);
  for (const char* l : {"dungeon", "nav_test", "undulating"}) {
    addLevel(l, shared + "/levels/" + l + ".obj", false, pairs, seed);
    addLevel(std::string(l) + "/tiled", shared + "/levels/" + l + ".obj", true, pairs, seed);
  }

  addLevel("generated200/tiled", "generated:", true, pairs, seed);

  std::printf("\nQuality: Detour's straight path length / exact shortest length, %d random connected pairs per level\n",
              pairs);
  std::printf("%-22s %6s %8s %8s %8s %8s %8s %8s %8s %6s %6s\n", "level", "pairs", "mean", "median", "p95", "p99",
              "max", ">5%", ">10%", "nodes", "maxN");
  for (const auto& lv : g_levels) report(*lv);
  std::printf("\n");

  for (const auto& lv : g_levels) {
    benchmark::RegisterBenchmark(("Detour_findPath+straight/" + lv->name).c_str(), BM_Detour, lv.get())
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("Ours_findPath+straight/" + lv->name).c_str(), BM_Ours, lv.get())
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("Exact_shortest/" + lv->name).c_str(), BM_Exact, lv.get())
        ->Unit(benchmark::kMicrosecond);
  }
  int rargc = int(rest.size());
  benchmark::Initialize(&rargc, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_levels.clear();
  return 0;
}
