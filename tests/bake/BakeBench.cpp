// Bake timings: per level, solo and tiled, nav_bake on 1 thread and on all cores, against the
// RecastDemo-equivalent single-threaded bake (Recast + Detour's dtCreateNavMeshData + addTile).
// Several agent types (nav/bake/Agents.h): `agents/world_<M>/file_bake_1agent` and `_3agents`
// bake the generated world (WorldGen seed 1, 2 km, cell size 0.3, 64-cell tiles: its documented
// bake) as `navbench bake` does for a level with agents, one file bake per type in turn (small
// r 0.3 h 1, the level's own, large r 1.2 h 3; the one-agent run bakes the level's own), each run
// in a child process: wall time, the child's peak RSS (peak_rss_mib) and the bake's own accounting
// of what it held (bake_mem_mib: fixed buffers + the most tile input in flight, the most of any
// type). The ratios are printed at the end.
// Not part of ctest. Run: bake_bench [--benchmark_filter=dungeon] [--world-size M] [--no-world]
#include "BakeTestUtil.h"
#include "RecastDemoRef.h"
#include "nav/TileSetFile.h"
#include "nav/bake/Agents.h"
#include "nav/bake/StreamBake.h"
#ifdef NAVBENCH_HAVE_WORLDGEN
#include "app/cli/WorldGen.h"
#endif

#include <DetourNavMesh.h>
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <sys/resource.h>
#include <sys/wait.h>
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

/// The world level with three agent types: small, the level's own (medium), large.
struct AgentsWorld {
  std::string name;
  Level level;
  FileBakeInput input;
  double oneMs = 0, threeMs = 0, oneRss = 0, threeRss = 0, oneMem = 0, threeMem = 0;
};
AgentsWorld g_world;

struct AgentsRun {
  double ms = 0;
  double peakRssMiB = 0;
  double bakeMemMiB = 0;
  bool ok = false;
};

/// Bakes agent types `agents` of the world in a child process (one file bake per type, in turn, 2
/// threads, as `navbench bake` does), files removed after.
AgentsRun bakeAgentsInChild(const AgentsWorld& w, const std::vector<int>& agents) {
  AgentsRun run;
  int fds[2];
  if (::pipe(fds) != 0) return run;
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    size_t most = 0;
    for (int a : agents) {
      const std::string out =
          "/tmp/navbench_bakebench_" + std::to_string(::getpid()) + "." + agentName(w.level, a) + ".bin";
      BakeOptions opt;
      opt.threads = 2;
      BakeReport r;
      FileBakeStats stats;
      const bool ok = bakeFileToTileSet(inputForAgent(w.input, a), agentSettings(w.level, a), out, opt, &r, {}, &stats);
      std::remove(out.c_str());
      if (!ok) {
        std::fprintf(stderr, "bake_bench: %s\n", r.error.c_str());
        ::_exit(1);
      }
      most = std::max(most, stats.fixedBytes + stats.peakTileInputBytes);
    }
    const double mem = double(most);
    if (::write(fds[1], &mem, sizeof mem) != ssize_t(sizeof mem)) ::_exit(1);
    ::_exit(0);
  }
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return run;
  }
  int status = 0;
  struct rusage ru {};
  ::wait4(pid, &status, 0, &ru);
  run.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  double mem = 0;
  run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && ::read(fds[0], &mem, sizeof mem) == ssize_t(sizeof mem);
  ::close(fds[0]);
  run.peakRssMiB = double(ru.ru_maxrss) / 1024.0;
  run.bakeMemMiB = mem / (1024.0 * 1024.0);
  return run;
}

void benchAgents(benchmark::State& state, int count) {
  std::vector<int> agents = count == 1 ? std::vector<int>{1} : std::vector<int>{0, 1, 2};
  AgentsRun r;
  for (auto _ : state) {
    r = bakeAgentsInChild(g_world, agents);
    if (!r.ok) return state.SkipWithError("the agents' bake failed");
    state.SetIterationTime(r.ms / 1000.0);
  }
  state.counters["peak_rss_mib"] = r.peakRssMiB;
  state.counters["bake_mem_mib"] = r.bakeMemMiB;
  (count == 1 ? g_world.oneMs : g_world.threeMs) = r.ms;
  (count == 1 ? g_world.oneRss : g_world.threeRss) = r.peakRssMiB;
  (count == 1 ? g_world.oneMem : g_world.threeMem) = r.bakeMemMiB;
}

} // namespace

int main(int argc, char** argv) {
  int worldSize = 2000;
  bool world = true;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--world-size") && i + 1 < argc) worldSize = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-world")) world = false;
    else args.push_back(argv[i]);
  }
  argc = int(args.size());
  argv = args.data();
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
  if (world) {
#ifdef NAVBENCH_HAVE_WORLDGEN
    const std::string obj = std::string(NAVBENCH_EDIT_TMP) + "/world_" + std::to_string(worldSize) + "_1.obj";
    if (!baketest::fileExists(obj)) { // written atomically: present means complete (edit_bench shares it)
      navbench::worldgen::WorldParams p;
      p.size = float(worldSize);
      p.seed = 1;
      std::string why;
      if (!navbench::worldgen::writeWorldObj(p, obj, nullptr, &why)) {
        std::fprintf(stderr, "bake_bench: %s\n", why.c_str());
        return 1;
      }
    }
    g_world.name = "world_" + std::to_string(worldSize);
    g_world.level.objPath = obj;
    g_world.level.settings.cellSize = 0.3f;
    g_world.level.settings.tileSize = 64;
    g_world.level.agents = baketest::threeAgentTypes(g_world.level.settings);
    g_world.input.objPath = obj;
    for (int n : {1, 3})
      benchmark::RegisterBenchmark(("agents/" + g_world.name + "/file_bake_" + (n == 1 ? "1agent" : "3agents")).c_str(),
                                   benchAgents, n)
          ->Iterations(1)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
#else
    std::fprintf(stderr, "skipping the generated world: built without app/cli/WorldGen\n");
#endif
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_world.oneMs > 0 && g_world.threeMs > 0)
    std::printf("\n%s, three agent types / one: time %.0f / %.0f ms = %.2fx, peak RSS %.1f / %.1f MiB = %.2fx, "
                "bake accounting %.1f / %.1f MiB = %.2fx\n",
                g_world.name.c_str(), g_world.threeMs, g_world.oneMs, g_world.threeMs / g_world.oneMs, g_world.threeRss,
                g_world.oneRss, g_world.threeRss / g_world.oneRss, g_world.threeMem, g_world.oneMem,
                g_world.threeMem / g_world.oneMem);
  return 0;
}
