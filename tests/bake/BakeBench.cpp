// Bake timings: per level, solo and tiled, nav_bake on 1 thread and on all cores, against the
// RecastDemo-equivalent single-threaded bake (Recast + Detour's dtCreateNavMeshData + addTile).
// Not part of ctest. Run: bake_bench [--benchmark_filter=dungeon]
#include "BakeTestUtil.h"
#include "RecastDemoRef.h"
#include "nav/TileSetFile.h"
#include "nav/bake/StreamBake.h"

#include <DetourNavMesh.h>
#include <benchmark/benchmark.h>

#include <cstdio>
#include <thread>
#include <unistd.h>

using namespace nav::bake;

namespace {

struct Loaded {
  std::string name;
  std::string path;
  BakeInput input;
};

std::vector<Loaded>& levels() {
  static std::vector<Loaded> v;
  return v;
}

void benchOurs(benchmark::State& state, const Loaded* lv, bool tiled, int threads) {
  Baker baker;
  std::string why;
  if (!baker.setInput(lv->input, &why)) {
    state.SkipWithError(why.c_str());
    return;
  }
  BakeSettings s;
  s.tiled = tiled;
  BakeOptions opt;
  opt.threads = threads;
  BakeReport r;
  for (auto _ : state) {
    if (!baker.bake(s, opt, &r)) {
      state.SkipWithError(r.error.c_str());
      return;
    }
  }
  state.counters["tiles"] = r.tileCount;
  state.counters["polys"] = r.polyCount;
  state.counters["threads"] = r.threads;
}

/// What `navbench bake` did before the file bake: read the OBJ, Baker::bake, saveTileSetFile.
void benchOursToFile(benchmark::State& state, const Loaded* lv, int threads) {
  const std::string out = "/tmp/navbench_bakebench_" + std::to_string(::getpid()) + ".bin";
  BakeSettings s;
  s.tiled = true;
  BakeOptions opt;
  opt.threads = threads;
  BakeReport r;
  std::string why;
  for (auto _ : state) {
    BakeInput in;
    BakeSettings ignored;
    Baker baker;
    if (!loadBakeInput(lv->path, &in, &ignored, &why) || !baker.setInput(std::move(in), &why)) {
      state.SkipWithError(why.c_str());
      return;
    }
    if (!baker.bake(s, opt, &r) || nav::statusFailed(nav::saveTileSetFile(*baker.navMesh(), out, &why))) {
      state.SkipWithError(r.error.c_str());
      return;
    }
  }
  std::remove(out.c_str());
  state.counters["tiles"] = r.tileCount;
}

/// What `navbench bake` does now: the file bake (OBJ streamed and binned on disk, tiles written
/// as they are final). Includes reading the OBJ, which the in-memory benchmarks do not.
void benchFileBake(benchmark::State& state, const Loaded* lv, int threads) {
  const std::string out = "/tmp/navbench_bakebench_" + std::to_string(::getpid()) + ".bin";
  FileBakeInput in;
  in.objPath = lv->path;
  in.volumes = lv->input.volumes;
  in.links = lv->input.links;
  BakeSettings s;
  s.tiled = true;
  BakeOptions opt;
  opt.threads = threads;
  BakeReport r;
  for (auto _ : state) {
    if (!bakeFileToTileSet(in, s, out, opt, &r)) {
      state.SkipWithError(r.error.c_str());
      return;
    }
  }
  std::remove(out.c_str());
  state.counters["tiles"] = r.tileCount;
}

void benchRecastDemo(benchmark::State& state, const Loaded* lv, bool tiled) {
  BakeSettings s;
  s.tiled = tiled;
  for (auto _ : state) {
    dtNavMesh* m = bakeref::build(lv->input, s);
    if (!m) {
      state.SkipWithError("reference bake failed");
      return;
    }
    dtFreeNavMesh(m);
  }
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::pair<std::string, std::string>> paths = {{"default", baketest::defaultObj()}};
  for (const std::string& n : baketest::sharedLevelNames()) {
    const std::string p = baketest::sharedLevelsDir() + "/" + n;
    if (baketest::fileExists(p)) paths.push_back({n.substr(0, n.size() - 4), p});
    else std::fprintf(stderr, "skipping %s: shared levels not found at %s\n", n.c_str(), baketest::sharedLevelsDir().c_str());
  }
  levels().reserve(paths.size());
  for (const auto& [name, path] : paths) {
    Loaded l;
    l.name = name;
    l.path = path;
    BakeSettings ignored;
    std::string why;
    if (!baketest::loadLevel(path, &l.input, &ignored, &why)) {
      std::fprintf(stderr, "%s\n", why.c_str());
      return 1;
    }
    levels().push_back(std::move(l));
  }
  const int all = int(std::max(1u, std::thread::hardware_concurrency()));
  for (const Loaded& lv : levels()) {
    for (bool tiled : {false, true}) {
      const std::string mode = tiled ? "tiled" : "solo";
      benchmark::RegisterBenchmark(("bake/" + lv.name + "/" + mode + "/recastdemo_1thread").c_str(), benchRecastDemo, &lv, tiled)
          ->Unit(benchmark::kMillisecond)->UseRealTime();
      benchmark::RegisterBenchmark(("bake/" + lv.name + "/" + mode + "/navbench_1thread").c_str(), benchOurs, &lv, tiled, 1)
          ->Unit(benchmark::kMillisecond)->UseRealTime();
      if (tiled) {
        benchmark::RegisterBenchmark(("bake/" + lv.name + "/tiled/navbench_to_file_1thread").c_str(), benchOursToFile, &lv, 1)
            ->Unit(benchmark::kMillisecond)->UseRealTime();
        benchmark::RegisterBenchmark(("bake/" + lv.name + "/tiled/file_bake_1thread").c_str(), benchFileBake, &lv, 1)
            ->Unit(benchmark::kMillisecond)->UseRealTime();
      }
      if (tiled && all > 1)
        benchmark::RegisterBenchmark(("bake/" + lv.name + "/" + mode + "/navbench_" + std::to_string(all) + "threads").c_str(),
                                     benchOurs, &lv, tiled, all)
            ->Unit(benchmark::kMillisecond)->UseRealTime();
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
