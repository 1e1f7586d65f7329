// CaptureBench.cpp: capturing a path with capture/navbench_capture.h inside a Detour game, on a
// generated world (BenchWorld.h; the 2 km world has 11,025 tiles), side by side with the reference
// operation: RecastDemo-style saving of the same dtNavMesh's tiles to a tile-set file with fwrite
// (what a game that dumps its navmesh for RecastDemo does today). Issue 32's goal: a capture in
// under 100 ms on the 2 km world. Both write into the build folder. Reported: wall time (the goal's;
// on a busy machine it mostly measures waiting) and CPU time, best of the repetitions, and the
// ratios capture / save.
// Usage:
//   capture_bench [--world-size M] [--smoke] [google benchmark flags]
//   default: the 2 km world (baked once and kept beside the binary, shared with check_bench);
//   --smoke: a 64 m world, one short run (the ctest run).
#include "BenchUtil.h"
#include "BenchWorld.h"
#include "tests/support/DetourTileSet.h"
#include "navbench_capture.h"

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

dtNavMesh* g_nav = nullptr;
dtNavMeshQuery* g_query = nullptr;
float g_start[3], g_end[3];
const float kExt[3] = {2, 4, 2};
std::string g_dir;

/// The centre of the first ground poly of tile slot i (or a later one), 0.3 wu up.
bool polyCentre(const dtNavMesh& nav, int slot, float* p) {
  for (int i = slot; i < nav.getMaxTiles(); ++i) {
    const dtMeshTile* tile = nav.getTile(i);
    if (!tile->header) continue;
    for (int k = 0; k < tile->header->polyCount; ++k) {
      const dtPoly& poly = tile->polys[k];
      if (poly.getType() != DT_POLYTYPE_GROUND) continue;
      p[0] = p[1] = p[2] = 0;
      for (int v = 0; v < poly.vertCount; ++v)
        for (int c = 0; c < 3; ++c) p[c] += tile->verts[poly.verts[v] * 3 + c] / float(poly.vertCount);
      p[1] += 0.3f;
      return true;
    }
  }
  return false;
}

long fileBytes(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? long(st.st_size) : -1;
}

void BM_CapturePath(benchmark::State& state) {
  const std::string file = g_dir + "/capture_bench.nbcap";
  dtQueryFilter filter;
  for (auto _ : state) {
    if (!navbench::capturePath(file.c_str(), *g_query, filter, g_start, g_end, kExt, "capture_bench")) {
      state.SkipWithError("capturePath failed");
      return;
    }
  }
  state.counters["MB"] = double(fileBytes(file)) / (1024.0 * 1024.0);
  std::remove(file.c_str());
}

void BM_SaveTileSetFwrite(benchmark::State& state) {
  const std::string file = g_dir + "/capture_bench_ref.bin";
  for (auto _ : state) {
    if (!navtest::saveDetourTileSet(*g_nav, file.c_str())) { // RecastDemo's saveAll
      state.SkipWithError("saving the tile set failed");
      return;
    }
  }
  state.counters["MB"] = double(fileBytes(file)) / (1024.0 * 1024.0);
  std::remove(file.c_str());
}

} // namespace

int main(int argc, char** argv) {
  int worldSize = 2000;
  bool smoke = false;
  std::vector<char*> args = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--world-size") && i + 1 < argc) worldSize = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--smoke")) smoke = true;
    else args.push_back(argv[i]);
  }
  if (smoke) worldSize = 64;
  if (worldSize < 32 || worldSize > 8192) {
    std::fprintf(stderr, "capture_bench: --world-size 32..8192\n");
    return 2;
  }
  g_dir = NAVBENCH_BENCH_WORLD_DIR;
  std::string why;
  const std::string bin = benchworld::bakedWorld(g_dir, worldSize, why);
  if (bin.empty()) {
    std::fprintf(stderr, "capture_bench: %s\n", why.c_str());
    return 1;
  }
  g_nav = navtest::loadDetourTileSet(bin.c_str());
  g_query = dtAllocNavMeshQuery();
  if (!g_nav || !g_query || dtStatusFailed(g_query->init(g_nav, 2048))) {
    std::fprintf(stderr, "capture_bench: %s: Detour cannot load it\n", bin.c_str());
    return 1;
  }
  // A path from the world's middle tile to one some tiles further on (a corridor of tens of polys).
  const int tiles = g_nav->getParams()->maxTiles;
  int loaded = 0;
  for (int i = 0; i < g_nav->getMaxTiles(); ++i) loaded += static_cast<const dtNavMesh*>(g_nav)->getTile(i)->header ? 1 : 0;
  if (!polyCentre(*g_nav, loaded / 2, g_start) || !polyCentre(*g_nav, loaded / 2 + 6, g_end)) {
    std::fprintf(stderr, "capture_bench: no ground polys in the world\n");
    return 1;
  }
  std::printf("world %d m: %d tiles (maxTiles %d)\n", worldSize, loaded, tiles);

  benchmark::RegisterBenchmark("CapturePath", BM_CapturePath)->Unit(benchmark::kMillisecond)->UseRealTime();
  benchmark::RegisterBenchmark("SaveTileSetFwrite", BM_SaveTileSetFwrite)->Unit(benchmark::kMillisecond)->UseRealTime();
  benchutil::addRunFlags(args, smoke);
  benchutil::BestTimeReporter rep(true);
  benchutil::runBenchmarks(args, rep);
  const double cap = rep.times["CapturePath"], ref = rep.times["SaveTileSetFwrite"];
  const double capCpu = rep.cpuTimes["CapturePath"], refCpu = rep.cpuTimes["SaveTileSetFwrite"];
  if (cap > 0 && ref > 0 && capCpu > 0 && refCpu > 0)
    std::printf("\nbest of the repetitions: capture %.2f ms wall / %.2f ms CPU, RecastDemo-style save %.2f ms wall / "
                "%.2f ms CPU; ratio %.2f wall, %.2f CPU (goal: capture < 100 ms)\n",
                cap, capCpu, ref, refCpu, cap / ref, capCpu / refCpu);
  dtFreeNavMeshQuery(g_query);
  dtFreeNavMesh(g_nav);
  return 0;
}
