// CheckBench.cpp: `navbench check`'s checks (nav/check/NavCheck.h) on a generated world (issue 27,
// "Speed": the 2 km world checks with 2000 pairs in under 15 s on 2 cores, memory bounded).
//
// The world is BenchWorld.h's (app/cli/WorldGen, seed 1, baked once and kept beside the binary).
// All checks but surface (it needs the level's triangles, ~2.3 M at 2 km) run with the default filter. Counters per run:
//   polys, islands, pairs_run, pairs_skipped, detours and budget (findings), wall_s (the run's wall time), peak_mb (the
//   process's peak RSS during the run: the high-water mark is reset before it), check_mb (that
//   peak minus the RSS before the run: what the check itself held at most).
// Usage:
//   check_bench [--world-size M] [--pairs N] [--threads T] [--smoke] [google benchmark flags]
//   default: a 500 m world, 2000 pairs, all cores; --world-size 2000 for the world;
//   --smoke: a 64 m world, 100 pairs, one short run (the ctest run).
#include "BenchWorld.h"
#include "nav/check/NavCheck.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct Config {
  int worldSize = 500;
  int pairs = 2000;
  int threads = 0;
};
Config g_cfg;
std::unique_ptr<nav::NavMesh> g_mesh;

/// A /proc/self/status field in kB (VmRSS, VmHWM); -1 when unreadable.
long statusKb(const char* field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(field);
  while (std::getline(f, line))
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') return std::atol(line.c_str() + n + 1);
  return -1;
}

/// Resets the peak RSS (VmHWM) to the current RSS (Linux: clear_refs 5); false when not allowed.
bool resetPeakRss() {
  std::ofstream f("/proc/self/clear_refs");
  if (!f) return false;
  f << "5";
  return bool(f.flush());
}

/// The world's tile set, baked once and kept beside the binary (BenchWorld.h).
bool loadWorld(int size, nav::NavMesh& mesh, std::string& why) {
  return benchworld::loadWorld(NAVBENCH_CHECK_BENCH_DIR, size, mesh, why);
}

void BM_CheckWorld(benchmark::State& state) {
  nav::check::CheckOptions opts;
  opts.pairs = g_cfg.pairs;
  opts.threads = g_cfg.threads;
  opts.surface = false;
  nav::check::CheckResult r;
  double wall = 0;
  long peakKb = 0, extraKb = 0;
  for (auto _ : state) {
    const long before = statusKb("VmRSS");
    const bool reset = resetPeakRss();
    const auto t0 = std::chrono::steady_clock::now();
    std::string why;
    const nav::Status st = nav::check::runChecks(*g_mesh, nav::check::defaultCheckFilter(), opts, r, &why);
    wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (nav::statusFailed(st)) {
      state.SkipWithError(why.c_str());
      return;
    }
    peakKb = reset ? statusKb("VmHWM") : -1;
    extraKb = reset && before >= 0 ? peakKb - before : -1;
  }
  state.counters["polys"] = r.polyCount;
  state.counters["islands"] = double(r.islands.size());
  state.counters["pairs_run"] = r.pairsRun;
  state.counters["pairs_skipped"] = r.pairsSkipped;
  state.counters["budget"] = double(r.budget.size());
  state.counters["detours"] = double(r.detours.size());
  state.counters["wall_s"] = wall;
  state.counters["peak_mb"] = double(peakKb) / 1024.0;
  state.counters["check_mb"] = double(extraKb) / 1024.0;
}

} // namespace

int main(int argc, char** argv) {
  bool smoke = false;
  std::vector<char*> args = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--world-size") && i + 1 < argc) g_cfg.worldSize = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--pairs") && i + 1 < argc) g_cfg.pairs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) g_cfg.threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--smoke")) smoke = true;
    else args.push_back(argv[i]);
  }
  if (smoke) {
    g_cfg.worldSize = 64;
    g_cfg.pairs = 100;
  }
  if (g_cfg.worldSize < 32 || g_cfg.worldSize > 8192 || g_cfg.pairs < 1 || g_cfg.threads < 0) {
    std::fprintf(stderr, "check_bench: --world-size 32..8192, --pairs >= 1, --threads >= 0\n");
    return 2;
  }
  g_mesh = std::make_unique<nav::NavMesh>();
  std::string why;
  if (!loadWorld(g_cfg.worldSize, *g_mesh, why)) {
    std::fprintf(stderr, "check_bench: %s\n", why.c_str());
    return 1;
  }
  const std::string name = "CheckWorld/" + std::to_string(g_cfg.worldSize) + "m/pairs:" + std::to_string(g_cfg.pairs);
  benchmark::RegisterBenchmark(name.c_str(), BM_CheckWorld)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);
  int bargc = int(args.size());
  benchmark::Initialize(&bargc, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
