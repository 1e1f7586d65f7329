// QueryBench.cpp: nav::NavMeshQuery vs Detour's dtNavMeshQuery on the same tile blobs and the same
// query set (seeded random start/end points on the mesh, plain filter, RecastDemo conventions:
// extents (2, 4, 2), 2048 nodes, buffers 2048). One benchmark iteration runs the whole set; at the
// end a table gives Detour time / nav time per operation (> 1 = nav faster), each the best of the
// repetitions (default 5), then findPath and the sliced search with nav's unlimited pool
// (initUnlimited) against the same Detour runs.
//
//   query_bench [--level PATH.obj] [--solo] [--cs CELL] [--smoke | --check] [google benchmark flags]
// Default level: ../shared/levels/nav_test.obj (tiled, tile size 48) if present, else the
// project's assets/levels/default.obj.
#include "DualMesh.h"
#include "RefSmoothPath.h"

#include "nav/PathFollow.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace querytest;

namespace {

constexpr int N = 200;
constexpr int MAXP = 2048;

struct QuerySet {
  const DualMesh* mesh = nullptr;
  std::vector<float> sp, ep, mv;           // [3 * N] start, end, short move targets
  std::vector<dtPolyRef> sref, eref;       // [N]
  std::vector<std::vector<dtPolyRef>> corridors;
};
QuerySet g_set;

struct Ctx {
  dtNavMeshQuery* dq = nullptr;
  nav::NavMeshQuery nq;
  dtQueryFilter df;
  nav::QueryFilter nf;
  std::vector<dtPolyRef> path = std::vector<dtPolyRef>(MAXP);
  std::vector<float> pts = std::vector<float>(MAXP * 3);
  std::vector<uint8_t> flags = std::vector<uint8_t>(MAXP);
  std::vector<dtPolyRef> refs = std::vector<dtPolyRef>(MAXP);
  Ctx() {
    dq = dtAllocNavMeshQuery();
    dq->init(g_set.mesh->dt, 2048);
    nq.init(&g_set.mesh->nav, 2048);
  }
  ~Ctx() { dtFreeNavMeshQuery(dq); }
};

bool buildSet(const std::string& obj, bool tiled, float cellSize) {
  std::string why;
  g_set.mesh = loadDual(obj, tiled, false, &why, cellSize);
  if (!g_set.mesh) {
    std::fprintf(stderr, "query_bench: %s: %s\n", obj.c_str(), why.c_str());
    return false;
  }
  Ctx c;
  seedRandom(12345);
  while (int(g_set.sref.size()) < N) {
    dtPolyRef a, b;
    float pa[3], pb[3];
    if (dtStatusFailed(c.dq->findRandomPoint(&c.df, frand, &a, pa)) ||
        dtStatusFailed(c.dq->findRandomPoint(&c.df, frand, &b, pb)))
      return false;
    int n = 0;
    c.dq->findPath(a, b, pa, pb, &c.df, c.path.data(), &n, MAXP);
    if (!n) continue;
    g_set.sref.push_back(a);
    g_set.eref.push_back(b);
    g_set.sp.insert(g_set.sp.end(), pa, pa + 3);
    g_set.ep.insert(g_set.ep.end(), pb, pb + 3);
    const float m[3] = {pa[0] + (frand() - 0.5f) * 6, pa[1], pa[2] + (frand() - 0.5f) * 6};
    g_set.mv.insert(g_set.mv.end(), m, m + 3);
    g_set.corridors.emplace_back(c.path.begin(), c.path.begin() + n);
  }
  return true;
}

const float EXT[3] = {2, 4, 2};

// ---- nav ----
void Nav_findNearestPoly(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      nav::PolyRef r;
      float p[3];
      c.nq.findNearestPoly(&g_set.sp[i * 3], EXT, &c.nf, &r, p);
      benchmark::DoNotOptimize(r);
    }
}
void Dt_findNearestPoly(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      dtPolyRef r;
      float p[3];
      c.dq->findNearestPoly(&g_set.sp[i * 3], EXT, &c.df, &r, p);
      benchmark::DoNotOptimize(r);
    }
}
void Nav_findPath(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      c.nq.findPath(g_set.sref[i], g_set.eref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], &c.nf, c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
void Dt_findPath(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      c.dq->findPath(g_set.sref[i], g_set.eref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], &c.df, c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
// The same searches with the node pool that scales with the mesh (initUnlimited: direct slots,
// never OUT_OF_NODES), against Detour's 2048-node runs.
void Nav_findPathUnlimited(benchmark::State& st) {
  Ctx c;
  c.nq.initUnlimited(&g_set.mesh->nav);
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      c.nq.findPath(g_set.sref[i], g_set.eref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], &c.nf, c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
void Nav_slicedFindPathUnlimited(benchmark::State& st) {
  Ctx c;
  c.nq.initUnlimited(&g_set.mesh->nav);
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      nav::Status s = c.nq.initSlicedFindPath(g_set.sref[i], g_set.eref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], &c.nf);
      while (nav::statusInProgress(s)) s = c.nq.updateSlicedFindPath(32, nullptr);
      c.nq.finalizeSlicedFindPath(c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
void Nav_slicedFindPath(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      nav::Status s = c.nq.initSlicedFindPath(g_set.sref[i], g_set.eref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], &c.nf);
      while (nav::statusInProgress(s)) s = c.nq.updateSlicedFindPath(32, nullptr);
      c.nq.finalizeSlicedFindPath(c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
void Dt_slicedFindPath(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      dtStatus s = c.dq->initSlicedFindPath(g_set.sref[i], g_set.eref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], &c.df);
      while (dtStatusInProgress(s)) s = c.dq->updateSlicedFindPath(32, nullptr);
      c.dq->finalizeSlicedFindPath(c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
void Nav_findStraightPath(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      const auto& cor = g_set.corridors[size_t(i)];
      c.nq.findStraightPath(&g_set.sp[i * 3], &g_set.ep[i * 3], cor.data(), int(cor.size()), c.pts.data(),
                            c.flags.data(), c.refs.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
void Dt_findStraightPath(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      const auto& cor = g_set.corridors[size_t(i)];
      c.dq->findStraightPath(&g_set.sp[i * 3], &g_set.ep[i * 3], cor.data(), int(cor.size()), c.pts.data(),
                             c.flags.data(), c.refs.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
void Nav_smoothPath(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; i += 4) {
      int n;
      const auto& cor = g_set.corridors[size_t(i)];
      nav::findSmoothPath(&c.nq, &c.nf, g_set.sref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], cor.data(), int(cor.size()),
                          c.pts.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
void Dt_smoothPath(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; i += 4) {
      const auto& cor = g_set.corridors[size_t(i)];
      const int n = referenceSmoothPath(c.dq, &c.df, g_set.sref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], cor.data(),
                                        int(cor.size()), c.pts.data(), MAXP, true, nullptr);
      benchmark::DoNotOptimize(n);
    }
}
void Nav_raycast(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      float t, nrm[3];
      int n;
      c.nq.raycast(g_set.sref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], &c.nf, &t, nrm, c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(t);
    }
}
void Dt_raycast(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      float t, nrm[3];
      int n;
      c.dq->raycast(g_set.sref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], &c.df, &t, nrm, c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(t);
    }
}
void Nav_moveAlongSurface(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      float r[3];
      int n;
      c.nq.moveAlongSurface(g_set.sref[i], &g_set.sp[i * 3], &g_set.mv[i * 3], &c.nf, r, c.path.data(), &n, 16);
      benchmark::DoNotOptimize(r[0]);
    }
}
void Dt_moveAlongSurface(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      float r[3];
      int n;
      c.dq->moveAlongSurface(g_set.sref[i], &g_set.sp[i * 3], &g_set.mv[i * 3], &c.df, r, c.path.data(), &n, 16);
      benchmark::DoNotOptimize(r[0]);
    }
}

const char* const OPS[] = {"findNearestPoly", "findPath", "slicedFindPath", "findStraightPath", "smoothPath",
                           "raycast", "moveAlongSurface"};
/// Rows of nav's unlimited pool: {nav benchmark suffix, the Detour operation it is compared with}.
const char* const UNLIMITED[][2] = {{"findPathUnlimited", "findPath"}, {"slicedFindPathUnlimited", "slicedFindPath"}};

class RatioReporter : public benchmark::ConsoleReporter {
public:
  std::map<std::string, double> times; // name -> best CPU time per iteration over repetitions (ns)
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration) continue;
      const double t = r.GetAdjustedCPUTime(); // CPU time: less sensitive to a busy machine
      auto it = times.find(r.run_name.function_name);
      if (it == times.end() || t < it->second) times[r.run_name.function_name] = t;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

// --check: the short queries of this set (and nearest-poly queries around it) answered by both,
// compared bit for bit; prints the mismatches and returns their number. For levels the test suite
// does not cover (the generated world).
int checkShortQueries() {
  Ctx c;
  int bad = 0;
  auto same3 = [](const float* a, const float* b) { return std::memcmp(a, b, sizeof(float) * 3) == 0; };
  seedRandom(777);
  for (int i = 0; i < N; ++i) {
    for (int k = 0; k < 8; ++k) {
      const float* s = &g_set.sp[i * 3];
      const float p[3] = {s[0] + (frand() - 0.5f) * 6, s[1] + (frand() - 0.5f) * 4, s[2] + (frand() - 0.5f) * 6};
      dtPolyRef dr = 0;
      nav::PolyRef nr = 0;
      float dp[3] = {0, 0, 0}, np[3] = {0, 0, 0};
      c.dq->findNearestPoly(p, EXT, &c.df, &dr, dp);
      c.nq.findNearestPoly(p, EXT, &c.nf, &nr, np);
      if (dr != nr || (dr && !same3(dp, np))) std::printf("check: findNearestPoly differs at query %d.%d\n", i, k), ++bad;
    }
    std::vector<dtPolyRef> dpath(MAXP), npath(MAXP);
    float dt, nt, dn3[3], nn3[3];
    int dn = 0, nn = 0;
    c.dq->raycast(g_set.sref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], &c.df, &dt, dn3, dpath.data(), &dn, MAXP);
    c.nq.raycast(g_set.sref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], &c.nf, &nt, nn3, npath.data(), &nn, MAXP);
    if (std::memcmp(&dt, &nt, sizeof dt) || !same3(dn3, nn3) || dn != nn ||
        !std::equal(dpath.begin(), dpath.begin() + dn, npath.begin()))
      std::printf("check: raycast differs at query %d\n", i), ++bad;
    float dr3[3], nr3[3];
    const dtStatus ds = c.dq->moveAlongSurface(g_set.sref[i], &g_set.sp[i * 3], &g_set.mv[i * 3], &c.df, dr3,
                                               dpath.data(), &dn, 16);
    const nav::Status ns = c.nq.moveAlongSurface(g_set.sref[i], &g_set.sp[i * 3], &g_set.mv[i * 3], &c.nf, nr3,
                                                 npath.data(), &nn, 16);
    if (ds != ns || !same3(dr3, nr3) || dn != nn || !std::equal(dpath.begin(), dpath.begin() + dn, npath.begin()))
      std::printf("check: moveAlongSurface differs at query %d\n", i), ++bad;
  }
  std::printf("check: %d nearest-poly, %d raycast, %d moveAlongSurface queries, %d differ\n", N * 8, N, N, bad);
  return bad;
}

} // namespace

int main(int argc, char** argv) {
  std::string level = sharedLevel("nav_test.obj");
  if (level.empty()) level = defaultLevel();
  bool tiled = true, smoke = false, check = false;
  float cellSize = 0.0f;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--level") && i + 1 < argc) level = argv[++i];
    else if (!std::strcmp(argv[i], "--solo")) tiled = false;
    else if (!std::strcmp(argv[i], "--cs") && i + 1 < argc) cellSize = std::strtof(argv[++i], nullptr);
    else if (!std::strcmp(argv[i], "--smoke")) smoke = true;
    else if (!std::strcmp(argv[i], "--check")) check = true;
    else args.push_back(argv[i]);
  }
  static char minTime[] = "--benchmark_min_time=0.001";
  static char reps[] = "--benchmark_repetitions=5";
  static char interleave[] = "--benchmark_enable_random_interleaving=true";
  if (smoke) {
    args.push_back(minTime);
  } else {
    // The table uses the best of 5 repetitions, run interleaved so load changes hit both sides.
    args.insert(args.begin() + 1, reps);
    args.insert(args.begin() + 1, interleave);
  }
  if (!buildSet(level, tiled, cellSize)) return 1;
  int polys = 0;
  for (int i = 0; i < g_set.mesh->dt->getMaxTiles(); ++i) {
    const dtMeshTile* t = static_cast<const dtNavMesh*>(g_set.mesh->dt)->getTile(i);
    if (t && t->header) polys += t->header->polyCount;
  }
  std::printf("level %s (%s, cell size %.2f, %d polys), %d queries per iteration (smooth path: %d)\n", level.c_str(),
              tiled ? "tiled 48" : "solo", double(cellSize > 0 ? cellSize : 0.3f), polys, N, N / 4);
  if (check) return checkShortQueries() ? 1 : 0;

  benchmark::RegisterBenchmark("Nav_findNearestPoly", Nav_findNearestPoly);
  benchmark::RegisterBenchmark("Dt_findNearestPoly", Dt_findNearestPoly);
  benchmark::RegisterBenchmark("Nav_findPath", Nav_findPath);
  benchmark::RegisterBenchmark("Dt_findPath", Dt_findPath);
  benchmark::RegisterBenchmark("Nav_slicedFindPath", Nav_slicedFindPath);
  benchmark::RegisterBenchmark("Nav_findPathUnlimited", Nav_findPathUnlimited);
  benchmark::RegisterBenchmark("Nav_slicedFindPathUnlimited", Nav_slicedFindPathUnlimited);
  benchmark::RegisterBenchmark("Dt_slicedFindPath", Dt_slicedFindPath);
  benchmark::RegisterBenchmark("Nav_findStraightPath", Nav_findStraightPath);
  benchmark::RegisterBenchmark("Dt_findStraightPath", Dt_findStraightPath);
  benchmark::RegisterBenchmark("Nav_smoothPath", Nav_smoothPath);
  benchmark::RegisterBenchmark("Dt_smoothPath", Dt_smoothPath);
  benchmark::RegisterBenchmark("Nav_raycast", Nav_raycast);
  benchmark::RegisterBenchmark("Dt_raycast", Dt_raycast);
  benchmark::RegisterBenchmark("Nav_moveAlongSurface", Nav_moveAlongSurface);
  benchmark::RegisterBenchmark("Dt_moveAlongSurface", Dt_moveAlongSurface);

  int bargc = int(args.size());
  benchmark::Initialize(&bargc, args.data());
  RatioReporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  benchmark::Shutdown();

  std::printf("\n%-18s %14s %14s %8s\n", "operation", "Detour us/set", "nav us/set", "ratio");
  int missing = 0;
  for (const char* op : OPS) {
    const auto d = rep.times.find(std::string("Dt_") + op);
    const auto n = rep.times.find(std::string("Nav_") + op);
    if (d == rep.times.end() || n == rep.times.end()) {
      ++missing;
      continue;
    }
    std::printf("%-18s %14.1f %14.1f %7.2fx\n", op, d->second / 1000.0, n->second / 1000.0, d->second / n->second);
  }
  std::printf("unlimited pool (nav initUnlimited vs Detour's 2048 nodes):\n");
  for (const auto& u : UNLIMITED) {
    const auto d = rep.times.find(std::string("Dt_") + u[1]);
    const auto n = rep.times.find(std::string("Nav_") + u[0]);
    if (d == rep.times.end() || n == rep.times.end()) continue;
    std::printf("%-18s %14.1f %14.1f %7.2fx\n", u[1], d->second / 1000.0, n->second / 1000.0, d->second / n->second);
  }
  return missing == int(sizeof(OPS) / sizeof(OPS[0])) ? 1 : 0;
}
