// TileCacheBench.cpp: nav::tilecache::TileCache vs Debian's dtTileCache 1.5.1 side by side in one
// run, on the same layer blobs (Recast's heightfield layers of the level, LZ4 through the same
// compressor) and the same mesh process, each over its own navmesh (tests/tilecache/DualTileCache.h).
// Both sides get a growing bump arena for the rebuild scratch (RecastDemo uses a linear allocator).
//
//   usable/<level>/<kind>   one obstacle (cylinder, box, oriented box) added at a spot on the mesh,
//                           update() called until up to date: the time until its tiles are usable.
//                           The obstacle is removed again outside the timing (spots cycle).
//   update/<level>/<N>      with N obstacles standing (0, 100, 500 small cylinders), one cylinder
//                           added and removed, update() until up to date after each: the time of
//                           the update() calls of the cycle (counter `updates` = calls per cycle).
//                           Rows "... kept": ours with setKeepPristineTiles (obstacle-free tiles
//                           rebuilt from a kept copy), against the same Detour run.
//   stages/<level>          every layer of the level rebuilt with no obstacle through the builder
//                           stages alone (ours: TileCacheBuilder + TileBuilder; Detour's:
//                           DetourTileCacheBuilder + dtCreateNavMeshData), each stage timed: where
//                           a rebuild's time goes on each side (a second table, per stage).
//
// Levels: ../shared/levels/nav_test.obj (skipped with a message when absent) and a generated world
// (app/cli/WorldGen, seed 1, 512 m by default; its OBJ is written beside the binary and reused),
// both at RecastDemo's defaults (cell size 0.3, tile 32 cells). Each benchmark is the best of 5
// interleaved repetitions, timed as this thread's CPU time (the machine is shared); the table gives
// Detour time / nav time (> 1 = nav faster).
//
//   tilecache_bench [--world-size M] [--no-world] [--smoke] [google benchmark flags]
//   --smoke: a 128 m world and minimal time (the ctest run).
#include "tests/tilecache/DualTileCache.h"

#include "app/cli/WorldGen.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"

#include "tests/bench/BenchUtil.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace tc = nav::tilecache;
using Clock = std::chrono::steady_clock;

uint32_t g_rng = 1;
float frand() {
  g_rng = g_rng * 1664525u + 1013904223u;
  return float(g_rng >> 8) / float(1u << 24);
}

enum Kind { CYLINDER, BOX, ORIENTED_BOX };
const char* kindName(int k) { return k == CYLINDER ? "cylinder" : k == BOX ? "box" : "obox"; }

constexpr int MAX_OBSTACLES = 1024;
constexpr int BACKGROUNDS[] = {0, 100, 500};

struct Level {
  std::string name, label;
  tctest::LayerLevel lev;
  tctest::LevelLinks links;
  std::unique_ptr<tctest::DualCache> d;
  std::vector<std::array<float, 3>> spots;      ///< where the timed obstacle goes (on the mesh)
  std::vector<std::array<float, 3>> crowdSpots; ///< where the standing obstacles go
  std::vector<tc::ObstacleRef> crowdOurs;
  std::vector<dtObstacleRef> crowdTheirs;
  int polys = 0;
};
std::vector<std::unique_ptr<Level>> g_levels;

bool prepare(Level& L, const std::string& path, std::string* why) {
  const Clock::time_point t0 = Clock::now();
  if (!tctest::buildLevelLayers(path, L.lev, why) || !tctest::loadLevelLinks(path, &L.links, why)) return false;
  L.d = std::make_unique<tctest::DualCache>();
  if (!L.d->init(L.lev, &L.links, MAX_OBSTACLES, why)) return false;
  const std::string same = L.d->compare();
  if (!same.empty()) {
    *why = "the two navmeshes differ before any obstacle: " + same;
    return false;
  }
  for (int i = 0; i < L.d->navOurs.getMaxTiles(); ++i) {
    const nav::MeshTile* t = L.d->navOurs.getTile(i);
    if (t->header) L.polys += t->header->polyCount;
  }
  nav::NavMeshQuery q;
  q.init(&L.d->navOurs, 2048);
  nav::QueryFilter f;
  g_rng = 4242;
  while (L.spots.size() < 32 || L.crowdSpots.size() < 500) {
    nav::PolyRef ref = 0;
    float p[3];
    if (nav::statusFailed(q.findRandomPoint(&f, frand, &ref, p)) || !ref) {
      *why = "no random point on the mesh";
      return false;
    }
    if (L.spots.size() < 32) L.spots.push_back({p[0], p[1], p[2]});
    else L.crowdSpots.push_back({p[0], p[1], p[2]});
  }
  std::printf("%s: %zu layers, %d polys, prepared in %.1f s\n", L.label.c_str(), L.lev.layers.size(), L.polys,
              std::chrono::duration<double>(Clock::now() - t0).count());
  return true;
}

// The obstacle of each kind at p (as the tests place them: standing on the surface), in our tile
// cache or Detour's (the same calls on both).
template <class Cache, class Ref> auto addKind(Cache& c, int kind, const float* p, float size, Ref* r) {
  if (kind == CYLINDER) {
    const float pos[3] = {p[0], p[1] - 0.5f, p[2]};
    return c.addObstacle(pos, size, 2.5f, r);
  }
  if (kind == BOX) {
    const float lo[3] = {p[0] - size, p[1] - 0.5f, p[2] - size * 0.7f};
    const float hi[3] = {p[0] + size, p[1] + 2.0f, p[2] + size * 0.7f};
    return c.addBoxObstacle(lo, hi, r);
  }
  const float center[3] = {p[0], p[1] + 0.75f, p[2]};
  const float half[3] = {size, 1.25f, size * 0.5f};
  return c.addBoxObstacle(center, half, 0.6f, r);
}

void settleOurs(Level& L) {
  bool up = false;
  while (!up) L.d->ours.update(0, &L.d->navOurs, &up);
}
void settleTheirs(Level& L) {
  bool up = false;
  while (!up) L.d->theirs->update(0, L.d->navTheirs, &up);
}

/// Brings both sides to n standing obstacles (small cylinders at crowdSpots), fully processed.
/// Requests go in batches the queue holds.
void setCrowd(Level& L, int n) {
  while (int(L.crowdOurs.size()) > n) {
    for (int b = 0; b < tc::TileCache::MAX_REQUESTS && int(L.crowdOurs.size()) > n; ++b) {
      L.d->ours.removeObstacle(L.crowdOurs.back());
      L.d->theirs->removeObstacle(L.crowdTheirs.back());
      L.crowdOurs.pop_back();
      L.crowdTheirs.pop_back();
    }
    settleOurs(L);
    settleTheirs(L);
  }
  while (int(L.crowdOurs.size()) < n) {
    for (int b = 0; b < tc::TileCache::MAX_REQUESTS && int(L.crowdOurs.size()) < n; ++b) {
      const float* p = L.crowdSpots[L.crowdOurs.size()].data();
      tc::ObstacleRef ro = 0;
      dtObstacleRef rt = 0;
      addKind(L.d->ours, CYLINDER, p, 0.6f, &ro);
      addKind(*L.d->theirs, CYLINDER, p, 0.6f, &rt);
      L.crowdOurs.push_back(ro);
      L.crowdTheirs.push_back(rt);
    }
    settleOurs(L);
    settleTheirs(L);
  }
}

/// This thread's CPU time [Unit: s]: on a machine shared with other jobs, wall time mostly measures
/// the others (as QueryBench, which reports CPU time).
double cpuNow() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// ---- time until usable ----
void Nav_usable(benchmark::State& st, Level* L, int kind) {
  setCrowd(*L, 0);
  L->d->ours.setKeepPristineTiles(false);
  size_t i = 0;
  int64_t updates = 0;
  for (auto _ : st) {
    const float* p = L->spots[i++ % L->spots.size()].data();
    const double t0 = cpuNow();
    tc::ObstacleRef r = 0;
    addKind(L->d->ours, kind, p, 1.5f, &r);
    bool up = false;
    while (!up) {
      L->d->ours.update(0, &L->d->navOurs, &up);
      ++updates;
    }
    st.SetIterationTime(cpuNow() - t0);
    L->d->ours.removeObstacle(r);
    settleOurs(*L);
  }
  st.counters["updates"] = benchmark::Counter(double(updates), benchmark::Counter::kAvgIterations);
}
void Dt_usable(benchmark::State& st, Level* L, int kind) {
  setCrowd(*L, 0);
  size_t i = 0;
  int64_t updates = 0;
  for (auto _ : st) {
    const float* p = L->spots[i++ % L->spots.size()].data();
    const double t0 = cpuNow();
    dtObstacleRef r = 0;
    addKind(*L->d->theirs, kind, p, 1.5f, &r);
    bool up = false;
    while (!up) {
      L->d->theirs->update(0, L->d->navTheirs, &up);
      ++updates;
    }
    st.SetIterationTime(cpuNow() - t0);
    L->d->theirs->removeObstacle(r);
    settleTheirs(*L);
  }
  st.counters["updates"] = benchmark::Counter(double(updates), benchmark::Counter::kAvgIterations);
}

// ---- update() with N obstacles standing ----
void Nav_update(benchmark::State& st, Level* L, int crowd, bool kept) {
  setCrowd(*L, crowd);
  L->d->ours.setKeepPristineTiles(kept);
  size_t i = 0;
  int64_t updates = 0;
  for (auto _ : st) {
    const float* p = L->spots[i++ % L->spots.size()].data();
    double t = 0;
    tc::ObstacleRef r = 0;
    addKind(L->d->ours, CYLINDER, p, 1.5f, &r);
    for (int phase = 0; phase < 2; ++phase) {
      if (phase == 1) L->d->ours.removeObstacle(r);
      bool up = false;
      while (!up) {
        const double t0 = cpuNow();
        L->d->ours.update(0, &L->d->navOurs, &up);
        t += cpuNow() - t0;
        ++updates;
      }
    }
    st.SetIterationTime(t);
  }
  st.counters["updates"] = benchmark::Counter(double(updates), benchmark::Counter::kAvgIterations);
  L->d->ours.setKeepPristineTiles(false);
}
void Dt_update(benchmark::State& st, Level* L, int crowd) {
  setCrowd(*L, crowd);
  size_t i = 0;
  int64_t updates = 0;
  for (auto _ : st) {
    const float* p = L->spots[i++ % L->spots.size()].data();
    double t = 0;
    dtObstacleRef r = 0;
    addKind(*L->d->theirs, CYLINDER, p, 1.5f, &r);
    for (int phase = 0; phase < 2; ++phase) {
      if (phase == 1) L->d->theirs->removeObstacle(r);
      bool up = false;
      while (!up) {
        const double t0 = cpuNow();
        L->d->theirs->update(0, L->d->navTheirs, &up);
        t += cpuNow() - t0;
        ++updates;
      }
    }
    st.SetIterationTime(t);
  }
  st.counters["updates"] = benchmark::Counter(double(updates), benchmark::Counter::kAvgIterations);
}

// ---- the rebuild's stages, every layer of the level ----
const char* const STAGES[] = {"decompress", "regions", "contours", "polymesh", "tile data"};
constexpr int NSTAGES = 5;
struct StageTimes {
  double best[NSTAGES] = {1e30, 1e30, 1e30, 1e30, 1e30}; ///< best per-pass seconds per stage
};
std::map<std::string, StageTimes> g_stages; // "Nav_<level>" / "Dt_<level>"

void keepBest(StageTimes& s, const double* t) {
  for (int k = 0; k < NSTAGES; ++k) s.best[k] = std::min(s.best[k], t[k]);
}

void Nav_stages(benchmark::State& st, Level* L) {
  tctest::DualCache& d = *L->d;
  tc::TileCacheArena arena;
  const int climbVx = int(d.params.walkableClimb / d.params.ch);
  for (auto _ : st) {
    double t[NSTAGES] = {0, 0, 0, 0, 0};
    for (int i = 0; i < d.ours.getTileCount(); ++i) {
      const tc::CompressedTile* tile = d.ours.getTile(i);
      if (!tile->header) continue;
      arena.reset();
      double c0 = cpuNow();
      tc::TileCacheLayer* layer = nullptr;
      if (nav::statusFailed(tc::decompressTileCacheLayer(&arena, &d.comp, tile->data, tile->dataSize, &layer))) continue;
      double c1 = cpuNow();
      t[0] += c1 - c0;
      tc::buildTileCacheRegions(&arena, *layer, climbVx);
      c0 = cpuNow();
      t[1] += c0 - c1;
      tc::TileCacheContourSet* cset = tc::allocTileCacheContourSet(&arena);
      tc::buildTileCacheContours(&arena, *layer, climbVx, d.params.maxSimplificationError, *cset);
      c1 = cpuNow();
      t[2] += c1 - c0;
      tc::TileCachePolyMesh* mesh = tc::allocTileCachePolyMesh(&arena);
      tc::buildTileCachePolyMesh(&arena, *cset, *mesh);
      c0 = cpuNow();
      t[3] += c0 - c1;
      if (!mesh->npolys) continue;
      nav::TileBuildParams p;
      tctest::layerTileParams(p, *mesh, nav::VERTS_PER_POLYGON, *tile->header, d.params);
      d.proc.process(&p, mesh->areas, mesh->flags);
      uint8_t* data = nullptr;
      int size = 0;
      nav::buildTileData(p, &data, &size);
      delete[] data;
      t[4] += cpuNow() - c0;
    }
    double total = 0;
    for (double x : t) total += x;
    st.SetIterationTime(total);
    keepBest(g_stages["Nav_" + L->name], t);
  }
}

void Dt_stages(benchmark::State& st, Level* L) {
  tctest::DualCache& d = *L->d;
  tctest::DtGrowingArena arena;
  const int climbVx = int(d.params.walkableClimb / d.params.ch);
  for (auto _ : st) {
    double t[NSTAGES] = {0, 0, 0, 0, 0};
    for (int i = 0; i < d.theirs->getTileCount(); ++i) {
      const dtCompressedTile* tile = d.theirs->getTile(i);
      if (!tile->header) continue;
      arena.reset();
      double c0 = cpuNow();
      dtTileCacheLayer* layer = nullptr;
      if (dtStatusFailed(dtDecompressTileCacheLayer(&arena, &d.dtComp, tile->data, tile->dataSize, &layer))) continue;
      double c1 = cpuNow();
      t[0] += c1 - c0;
      dtBuildTileCacheRegions(&arena, *layer, climbVx);
      c0 = cpuNow();
      t[1] += c0 - c1;
      dtTileCacheContourSet* cset = dtAllocTileCacheContourSet(&arena);
      dtBuildTileCacheContours(&arena, *layer, climbVx, d.params.maxSimplificationError, *cset);
      c1 = cpuNow();
      t[2] += c1 - c0;
      dtTileCachePolyMesh* mesh = dtAllocTileCachePolyMesh(&arena);
      dtBuildTileCachePolyMesh(&arena, *cset, *mesh);
      c0 = cpuNow();
      t[3] += c0 - c1;
      if (!mesh->npolys) continue;
      dtNavMeshCreateParams p;
      std::memset(&p, 0, sizeof p);
      tctest::layerTileParams(p, *mesh, DT_VERTS_PER_POLYGON, *tile->header, d.params);
      d.dtProc.process(&p, mesh->areas, mesh->flags);
      unsigned char* data = nullptr;
      int size = 0;
      dtCreateNavMeshData(&p, &data, &size);
      dtFree(data);
      t[4] += cpuNow() - c0;
    }
    double total = 0;
    for (double x : t) total += x;
    st.SetIterationTime(total);
    keepBest(g_stages["Dt_" + L->name], t);
  }
}

/// Keeps the best (smallest) manual time per iteration of each benchmark over its repetitions.
using RatioReporter = benchutil::BestTimeReporter;

} // namespace

int main(int argc, char** argv) {
  bool smoke = false, world = true;
  int worldSize = 512;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--world-size") && i + 1 < argc) worldSize = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-world")) world = false;
    else if (!std::strcmp(argv[i], "--smoke")) smoke = true;
    else args.push_back(argv[i]);
  }
  if (smoke) worldSize = 128;
  benchutil::addRunFlags(args, smoke);

  struct Want {
    std::string name, label, path;
  };
  std::vector<Want> wants;
  const std::string navTest = tctest::navTestPath();
  if (tctest::fileExists(navTest)) wants.push_back({"nav_test", "nav_test (tile 32, cs 0.3)", navTest});
  else std::fprintf(stderr, "skipping nav_test: shared levels not found at %s\n", tctest::sharedLevelsDir().c_str());
  if (world) {
    const std::string obj = std::string(NAVBENCH_TC_TMP) + "/world_" + std::to_string(worldSize) + "_1.obj";
    if (!tctest::fileExists(obj)) { // written atomically: present means complete
      navbench::worldgen::WorldParams p;
      p.size = float(worldSize);
      p.seed = 1;
      std::string why;
      if (!navbench::worldgen::writeWorldObj(p, obj, nullptr, &why)) {
        std::fprintf(stderr, "tilecache_bench: %s\n", why.c_str());
        return 1;
      }
    }
    wants.push_back({"world_" + std::to_string(worldSize),
                     std::to_string(worldSize) + " m world (seed 1, tile 32, cs 0.3)", obj});
  }
  if (wants.empty()) {
    std::fprintf(stderr, "tilecache_bench: no level (nav_test absent and --no-world)\n");
    return 1;
  }
  for (const Want& w : wants) {
    auto L = std::make_unique<Level>();
    L->name = w.name;
    L->label = w.label;
    std::string why;
    if (!prepare(*L, w.path, &why)) {
      std::fprintf(stderr, "tilecache_bench: %s: %s\n", w.path.c_str(), why.c_str());
      return 1;
    }
    g_levels.push_back(std::move(L));
  }

  std::vector<std::string> rows;
  for (auto& L : g_levels) {
    for (int k : {CYLINDER, BOX, ORIENTED_BOX}) {
      const std::string row = "usable/" + L->name + "/" + kindName(k);
      rows.push_back(row);
      benchmark::RegisterBenchmark(("Nav_" + row).c_str(), Nav_usable, L.get(), k)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("Dt_" + row).c_str(), Dt_usable, L.get(), k)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
    {
      const std::string row = "stages/" + L->name;
      rows.push_back(row);
      benchmark::RegisterBenchmark(("Nav_" + row).c_str(), Nav_stages, L.get())
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("Dt_" + row).c_str(), Dt_stages, L.get())
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
    for (int n : BACKGROUNDS) {
      const std::string row = "update/" + L->name + "/" + std::to_string(n);
      rows.push_back(row);
      benchmark::RegisterBenchmark(("Nav_" + row).c_str(), Nav_update, L.get(), n, false)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
      // The same with TileCache::setKeepPristineTiles: the removal rebuilds from kept copies.
      benchmark::RegisterBenchmark(("NavKept_" + row).c_str(), Nav_update, L.get(), n, true)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("Dt_" + row).c_str(), Dt_update, L.get(), n)
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
  RatioReporter rep(true);
  benchutil::runBenchmarks(args, rep);

  int status = 0;
  std::printf("\n%-28s %14s %14s %8s\n", "benchmark", "Detour us", "nav us", "ratio");
  int shown = 0;
  for (const std::string& row : rows) {
    const auto d = rep.times.find("Dt_" + row);
    const auto n = rep.times.find("Nav_" + row);
    if (d == rep.times.end() || n == rep.times.end()) continue;
    std::printf("%-28s %14.1f %14.1f %7.2fx\n", row.c_str(), d->second, n->second, d->second / n->second);
    ++shown;
    const auto k = rep.times.find("NavKept_" + row);
    if (k != rep.times.end())
      std::printf("%-28s %14.1f %14.1f %7.2fx\n", (row + " kept").c_str(), d->second, k->second, d->second / k->second);
  }
  if (!shown) status = 1;
  for (auto& L : g_levels) {
    const auto d = g_stages.find("Dt_" + L->name);
    const auto n = g_stages.find("Nav_" + L->name);
    if (d == g_stages.end() || n == g_stages.end()) continue;
    std::printf("\nrebuild stages, %s, every layer once (%zu layers):\n", L->label.c_str(), L->lev.layers.size());
    std::printf("%-28s %14s %14s %8s\n", "stage", "Detour us", "nav us", "ratio");
    for (int k = 0; k < NSTAGES; ++k)
      std::printf("%-28s %14.1f %14.1f %7.2fx\n", STAGES[k], d->second.best[k] * 1e6, n->second.best[k] * 1e6,
                  d->second.best[k] / n->second.best[k]);
  }
  return status;
}
