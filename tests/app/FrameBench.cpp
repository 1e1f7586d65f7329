// frame_bench: frame time of the real viewer (not a test). For each level (the default level and,
// when ../shared is there, undulating / dungeon / nav_test baked first with `navbench bake`), runs
//   navbench LEVEL [BIN] --tool "Pathfind Follow" --bench-frames N
// headless (SDL_VIDEODRIVER=offscreen), i.e. every navmesh overlay on and a path set, and reports
// the app's own per-frame numbers as counters:
//   cpu_ms_mean / cpu_ms_min / cpu_ms_max  CPU time building and submitting one frame (UI + scene
//                                          + debug draw, no swap) [Unit: ms]
//   draw_calls, debug_vertices             debug-draw batches / vertices per frame
// The benchmark's time column is the mean CPU ms per frame (manual time). Frames per run:
// NAVBENCH_BENCH_FRAMES (default 120).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int framesPerRun() {
  const char* e = std::getenv("NAVBENCH_BENCH_FRAMES");
  const int n = e ? std::atoi(e) : 120;
  return n >= 1 ? n : 120;
}

/// Runs `cmd`, returns the "bench: ..." line of its stdout ("" when none) and its exit status.
std::string runForLine(const std::string& cmd, int& status) {
  std::string line;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    status = -1;
    return line;
  }
  char buf[1024];
  while (std::fgets(buf, sizeof buf, p))
    if (std::string(buf).rfind("bench: ", 0) == 0) line = buf;
  status = pclose(p);
  return line;
}

void benchLevel(benchmark::State& state, const std::string& level, bool bake) {
  if (!fs::exists(level)) {
    state.SkipWithError(("level not found: " + level + " (shared levels absent?)").c_str());
    return;
  }
  setenv("SDL_VIDEODRIVER", "offscreen", 1);
  const fs::path tmp = fs::path(NAVBENCH_BENCH_TMP);
  std::error_code ec;
  fs::create_directories(tmp / "config", ec);
  setenv("XDG_CONFIG_HOME", (tmp / "config").c_str(), 1); // never the user's settings
  std::string bin;
  if (bake) {
    bin = (tmp / (fs::path(level).stem().string() + ".bin")).string();
    int st = 0;
    const std::string cmd = quote(NAVBENCH_EXE) + " bake " + quote(level) + " -o " + quote(bin) + " -q --threads 2 2>&1";
    runForLine(cmd, st);
    if (st != 0 || !fs::exists(bin)) {
      state.SkipWithError(("bake failed: " + cmd).c_str());
      return;
    }
  }
  const int frames = framesPerRun();
  const std::string cmd = quote(NAVBENCH_EXE) + " " + quote(level) + (bin.empty() ? "" : " " + quote(bin)) +
                          " --tool 'Pathfind Follow' --size 1280x720 --bench-frames " + std::to_string(frames) +
                          " 2>/dev/null";
  for (auto _ : state) {
    int st = 0;
    const std::string line = runForLine(cmd, st);
    double mean = 0, mn = 0, mx = 0, calls = 0, verts = 0;
    int n = 0, tris = 0, polys = 0, tiles = 0;
    if (st != 0 || std::sscanf(line.c_str(),
                               "bench: frames=%d cpu_ms_mean=%lf cpu_ms_min=%lf cpu_ms_max=%lf draw_calls=%lf "
                               "debug_vertices=%lf level_tris=%d polys=%d tiles=%d",
                               &n, &mean, &mn, &mx, &calls, &verts, &tris, &polys, &tiles) != 9) {
      state.SkipWithError(("no bench line from: " + cmd).c_str());
      return;
    }
    state.SetIterationTime(mean / 1000.0);
    state.counters["cpu_ms_mean"] = mean;
    state.counters["cpu_ms_min"] = mn;
    state.counters["cpu_ms_max"] = mx;
    state.counters["draw_calls"] = calls;
    state.counters["debug_vertices"] = verts;
    state.counters["level_tris"] = tris;
    state.counters["polys"] = polys;
    state.counters["tiles"] = tiles;
    state.counters["frames"] = n;
  }
}

} // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  auto reg = [](const std::string& name, const std::string& level, bool bake) {
    benchmark::RegisterBenchmark(("frame/" + name).c_str(),
                                 [level, bake](benchmark::State& s) { benchLevel(s, level, bake); })
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  };
  reg("default", NAVBENCH_DEFAULT_LEVEL, false); // its committed default.bin is opened next to it
  for (const char* l : {"undulating", "dungeon", "nav_test"})
    reg(l, std::string(NAVBENCH_SHARED_DIR) + "/levels/" + l + ".obj", true);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
