// frame_bench: frame time of the real viewer (not a test). For each level (the default level and,
// when ../shared is there, undulating / dungeon / nav_test baked first with `navbench bake`), runs
//   navbench LEVEL [BIN] --tool "Pathfind Follow" --bench-frames N
// headless (SDL_VIDEODRIVER=offscreen), i.e. every navmesh overlay on and a path set, and reports
// the app's own per-frame numbers as counters:
//   cpu_ms_mean / cpu_ms_min / cpu_ms_max  CPU time building and submitting one frame (UI + scene
//                                          + debug draw, no swap) [Unit: ms]
//   draw_calls, debug_vertices             debug-draw draw calls (batches + static buffers) /
//                                          vertices streamed per frame
//   static_vertices, static_mb             navmesh overlay vertices / MiB in static GPU buffers
//   static_build_ms                        longest NavDrawCache update (the first: building them)
//   visible_tiles, culled_tiles            tiles drawn / frustum-culled in the last frame
//   finish_ms_mean                         glFinish after each frame: the rendering still queued
//                                          after the submit (llvmpipe rasterises here) [Unit: ms]
//   nav_load_ms                            the tile set's load time, from the viewer's log
//   level_tris_drawn, level_lod            level triangles drawn in the last frame (the cells in view,
//                                          each at its level of detail) / View > Level LOD on (1) or off
//   level_cells_lod0..3                    level grid cells drawn at full detail / each coarser level
// Generated worlds (`navbench worldgen --size S --seed 1` + `navbench bake`, as big_bench makes
// them: 0.3 m cells, 64-cell tiles; written once under the build dir and reused) are measured
// twice: the whole world framed ("frame/world_S") and a close view of its centre through a
// scenario file (".../part", most tiles culled). Sizes: NAVBENCH_BENCH_WORLDS (default
// "256,1000,2000"; "" = none); frames per world run: NAVBENCH_BENCH_WORLD_FRAMES (default 20).
// "frame_immediate/..." runs the same with NAVBENCH_NAVDRAW=immediate (the whole mesh recorded
// into the debug-draw batches every frame, as before the static buffers) for comparison, and
// "frame_nolod/world_S..." with NAVBENCH_LEVEL_LOD=0 (every level triangle of the cells in view,
// as before the level LOD).
// The benchmark's time column is the mean CPU ms per frame (manual time). Frames per run:
// NAVBENCH_BENCH_FRAMES (default 120).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int envInt(const char* name, int def) {
  const char* e = std::getenv(name);
  const int n = e ? std::atoi(e) : def;
  return n >= 1 ? n : def;
}

/// Runs `cmd`, returns the "bench: ..." line of its output ("" when none) and its exit status;
/// `loadMs` gets the "opened navmesh ... X ms" figure when the output has one.
std::string runForLine(const std::string& cmd, int& status, double* loadMs = nullptr) {
  std::string line;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    status = -1;
    return line;
  }
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) {
    const std::string l(buf);
    if (l.rfind("bench: ", 0) == 0) line = l;
    const size_t at = l.find("opened navmesh ");
    if (loadMs && at != std::string::npos) {
      const size_t ms = l.rfind(" ms");
      const size_t comma = l.rfind(", ", ms);
      if (ms != std::string::npos && comma != std::string::npos) *loadMs = std::atof(l.c_str() + comma + 2);
    }
  }
  status = pclose(p);
  return line;
}

/// The value of "key=" in a bench line (0 when absent).
double field(const std::string& line, const std::string& key) {
  const size_t at = line.find(" " + key + "=");
  return at == std::string::npos ? 0.0 : std::atof(line.c_str() + at + key.size() + 2);
}

void setEnv(const fs::path& tmp) {
  setenv("SDL_VIDEODRIVER", "offscreen", 1);
  std::error_code ec;
  fs::create_directories(tmp / "config", ec);
  setenv("XDG_CONFIG_HOME", (tmp / "config").c_str(), 1); // never the user's settings
}

/// Runs the viewer command and fills the counters; false (and a skip) when it fails.
bool measure(benchmark::State& state, const std::string& cmd, bool immediate, bool levelLod = true) {
  const std::string full = std::string(levelLod ? "NAVBENCH_LEVEL_LOD=1 " : "NAVBENCH_LEVEL_LOD=0 ") +
                           (immediate ? "NAVBENCH_NAVDRAW=immediate " : "NAVBENCH_NAVDRAW=cache ") + cmd;
  for (auto _ : state) {
    int st = 0;
    double loadMs = 0;
    const std::string line = runForLine(full, st, &loadMs);
    double mean = 0, mn = 0, mx = 0, calls = 0, verts = 0;
    int n = 0, tris = 0, polys = 0, tiles = 0;
    if (st != 0 || std::sscanf(line.c_str(),
                               "bench: frames=%d cpu_ms_mean=%lf cpu_ms_min=%lf cpu_ms_max=%lf draw_calls=%lf "
                               "debug_vertices=%lf level_tris=%d polys=%d tiles=%d",
                               &n, &mean, &mn, &mx, &calls, &verts, &tris, &polys, &tiles) != 9) {
      state.SkipWithError(("no bench line from: " + full).c_str());
      return false;
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
    for (const char* k : {"static_vertices", "static_mb", "static_build_ms", "visible_tiles", "culled_tiles", "finish_ms_mean",
                          "level_tris_drawn", "level_lod"})
      state.counters[k] = field(line, k);
    // "level_cells_by_lod=a,b,c,d": cells drawn at each level.
    const size_t at = line.find(" level_cells_by_lod=");
    int cells[4] = {0, 0, 0, 0};
    if (at != std::string::npos)
      std::sscanf(line.c_str() + at + 20, "%d,%d,%d,%d", &cells[0], &cells[1], &cells[2], &cells[3]);
    for (int k = 0; k < 4; ++k) state.counters["level_cells_lod" + std::to_string(k)] = cells[k];
    state.counters["nav_load_ms"] = loadMs;
  }
  return true;
}

/// world_S.obj / .json / .bin under the bench folder (generated and baked on first use); "" on failure.
std::string worldBin(int size, std::string& why) {
  const fs::path dir = fs::path(NAVBENCH_BENCH_TMP) / "worlds";
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string base = (dir / ("world_" + std::to_string(size))).string();
  if (fs::exists(base + ".bin") && fs::exists(base + ".obj")) return base + ".bin";
  int st = 0;
  std::string cmd = quote(NAVBENCH_EXE) + " worldgen --size " + std::to_string(size) + " --seed 1 -o " +
                    quote(base + ".obj") + " --level " + quote(base + ".json") + " 2>&1";
  runForLine(cmd, st);
  if (st != 0) return why = "failed: " + cmd, "";
  cmd = quote(NAVBENCH_EXE) + " bake " + quote(base + ".json") + " -o " + quote(base + ".bin") + " -q 2>&1";
  runForLine(cmd, st);
  if (st != 0 || !fs::exists(base + ".bin")) return why = "failed: " + cmd, "";
  return base + ".bin";
}

/// A scenario file looking closely at the middle of world `size` (about 60 m across in view).
std::string partScenario(int size, const std::string& bin) {
  const std::string obj = bin.substr(0, bin.size() - 4) + ".obj";
  const std::string path = bin.substr(0, bin.size() - 4) + "_part.json";
  const double c = size * 0.5;
  std::ostringstream j;
  j << "{\"navbenchScenario\": 1, \"level\": \"" << obj << "\", \"navmesh\": \"" << bin << "\",\n"
    << " \"camera\": {\"target\": [" << c << ", 10, " << c << "], \"yaw\": 3.74, \"pitch\": 0.72, "
    << "\"distance\": 60, \"fovY\": 0.785398185},\n"
    << " \"tool\": {\"name\": \"Pathfind Follow\"},\n"
    << " \"filter\": {\"includeFlags\": 65535, \"excludeFlags\": 0, \"heuristicScale\": 0.999, \"maxNodes\": 4096, "
    << "\"areas\": []}}\n";
  std::ofstream(path) << j.str();
  return path;
}

void benchLevel(benchmark::State& state, const std::string& level, bool bake, bool immediate) {
  if (!fs::exists(level)) {
    state.SkipWithError(("level not found: " + level + " (shared levels absent?)").c_str());
    return;
  }
  const fs::path tmp = fs::path(NAVBENCH_BENCH_TMP);
  setEnv(tmp);
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
  const std::string cmd = quote(NAVBENCH_EXE) + " " + quote(level) + (bin.empty() ? "" : " " + quote(bin)) +
                          " --tool 'Pathfind Follow' --size 1280x720 --bench-frames " +
                          std::to_string(envInt("NAVBENCH_BENCH_FRAMES", 120)) + " 2>&1";
  measure(state, cmd, immediate);
}

void benchWorld(benchmark::State& state, int size, bool part, bool immediate, bool levelLod) {
  setEnv(fs::path(NAVBENCH_BENCH_TMP));
  std::string why;
  const std::string bin = worldBin(size, why);
  if (bin.empty()) {
    state.SkipWithError(why.c_str());
    return;
  }
  const std::string frames = std::to_string(envInt("NAVBENCH_BENCH_WORLD_FRAMES", 20));
  const std::string open = part ? quote(partScenario(size, bin))
                                : quote(bin.substr(0, bin.size() - 4) + ".obj") + " " + quote(bin) + " --tool 'Pathfind Follow'";
  measure(state, quote(NAVBENCH_EXE) + " " + open + " --size 1280x720 --bench-frames " + frames + " 2>&1", immediate, levelLod);
}

} // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  auto reg = [](const std::string& name, auto fn) {
    benchmark::RegisterBenchmark(name.c_str(), fn)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
  };
  for (bool imm : {false, true}) {
    const std::string pre = imm ? "frame_immediate/" : "frame/";
    // The default level: its committed default.bin is opened next to it.
    reg(pre + "default", [imm](benchmark::State& s) { benchLevel(s, NAVBENCH_DEFAULT_LEVEL, false, imm); });
    for (const char* l : {"undulating", "dungeon", "nav_test"}) {
      const std::string level = std::string(NAVBENCH_SHARED_DIR) + "/levels/" + l + ".obj";
      reg(pre + l, [level, imm](benchmark::State& s) { benchLevel(s, level, true, imm); });
    }
  }
  std::vector<int> sizes;
  const char* w = std::getenv("NAVBENCH_BENCH_WORLDS");
  std::istringstream in(w ? w : "256,1000,2000");
  for (std::string t; std::getline(in, t, ',');)
    if (std::atoi(t.c_str()) > 0) sizes.push_back(std::atoi(t.c_str()));
  for (int mode = 0; mode < 3; ++mode) // cached overlays + level LOD, level LOD off, immediate overlays
    for (int size : sizes)
      for (bool part : {false, true}) {
        const bool imm = mode == 2, lod = mode != 1;
        reg(std::string(mode == 0 ? "frame/" : mode == 1 ? "frame_nolod/" : "frame_immediate/") + "world_" +
                std::to_string(size) + (part ? "/part" : ""),
            [size, part, imm, lod](benchmark::State& s) { benchWorld(s, size, part, imm, lod); });
      }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
