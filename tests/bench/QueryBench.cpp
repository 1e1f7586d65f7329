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

#include "tests/bench/BenchUtil.h"

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

// One side of the comparison in a Ctx: the two query APIs have the same names, so each benchmark
// below is written once and instantiated per side (names stay Nav_* / Dt_*).
struct NavSide {
  static void setup(Ctx&) {}
  static nav::NavMeshQuery& q(Ctx& c) { return c.nq; }
  static const nav::QueryFilter* f(const Ctx& c) { return &c.nf; }
  static bool inProgress(nav::Status s) { return nav::statusInProgress(s); }
};
// nav with the node pool that scales with the mesh (initUnlimited: direct slots, never
// OUT_OF_NODES), against Detour's 2048-node runs.
struct NavUnlimitedSide : NavSide {
  static void setup(Ctx& c) { c.nq.initUnlimited(&g_set.mesh->nav); }
};
struct DtSide {
  static void setup(Ctx&) {}
  static dtNavMeshQuery& q(Ctx& c) { return *c.dq; }
  static const dtQueryFilter* f(const Ctx& c) { return &c.df; }
  static bool inProgress(dtStatus s) { return dtStatusInProgress(s); }
};

template <class S> void findNearestPoly(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      dtPolyRef r;
      float p[3];
      S::q(c).findNearestPoly(&g_set.sp[i * 3], EXT, S::f(c), &r, p);
      benchmark::DoNotOptimize(r);
    }
}
template <class S> void findPath(benchmark::State& st) {
  Ctx c;
  S::setup(c);
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      S::q(c).findPath(g_set.sref[i], g_set.eref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], S::f(c), c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
template <class S> void slicedFindPath(benchmark::State& st) {
  Ctx c;
  S::setup(c);
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      auto s = S::q(c).initSlicedFindPath(g_set.sref[i], g_set.eref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], S::f(c));
      while (S::inProgress(s)) s = S::q(c).updateSlicedFindPath(32, nullptr);
      S::q(c).finalizeSlicedFindPath(c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(n);
    }
}
template <class S> void findStraightPath(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      int n;
      const auto& cor = g_set.corridors[size_t(i)];
      S::q(c).findStraightPath(&g_set.sp[i * 3], &g_set.ep[i * 3], cor.data(), int(cor.size()), c.pts.data(),
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
template <class S> void raycast(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      float t, nrm[3];
      int n;
      S::q(c).raycast(g_set.sref[i], &g_set.sp[i * 3], &g_set.ep[i * 3], S::f(c), &t, nrm, c.path.data(), &n, MAXP);
      benchmark::DoNotOptimize(t);
    }
}
template <class S> void moveAlongSurface(benchmark::State& st) {
  Ctx c;
  for (auto _ : st)
    for (int i = 0; i < N; ++i) {
      float r[3];
      int n;
      S::q(c).moveAlongSurface(g_set.sref[i], &g_set.sp[i * 3], &g_set.mv[i * 3], S::f(c), r, c.path.data(), &n, 16);
      benchmark::DoNotOptimize(r[0]);
    }
}

const char* const OPS[] = {"findNearestPoly", "findPath", "slicedFindPath", "findStraightPath", "smoothPath",
                           "raycast", "moveAlongSurface"};
/// Rows of nav's unlimited pool: {nav benchmark suffix, the Detour operation it is compared with}.
const char* const UNLIMITED[][2] = {{"findPathUnlimited", "findPath"}, {"slicedFindPathUnlimited", "slicedFindPath"}};

using RatioReporter = benchutil::BestTimeReporter;

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
  benchutil::addRunFlags(args, smoke);
  if (!buildSet(level, tiled, cellSize)) return 1;
  int polys = 0;
  for (int i = 0; i < g_set.mesh->dt->getMaxTiles(); ++i) {
    const dtMeshTile* t = static_cast<const dtNavMesh*>(g_set.mesh->dt)->getTile(i);
    if (t && t->header) polys += t->header->polyCount;
  }
  std::printf("level %s (%s, cell size %.2f, %d polys), %d queries per iteration (smooth path: %d)\n", level.c_str(),
              tiled ? "tiled 48" : "solo", double(cellSize > 0 ? cellSize : 0.3f), polys, N, N / 4);
  if (check) return checkShortQueries() ? 1 : 0;

  benchmark::RegisterBenchmark("Nav_findNearestPoly", findNearestPoly<NavSide>);
  benchmark::RegisterBenchmark("Dt_findNearestPoly", findNearestPoly<DtSide>);
  benchmark::RegisterBenchmark("Nav_findPath", findPath<NavSide>);
  benchmark::RegisterBenchmark("Dt_findPath", findPath<DtSide>);
  benchmark::RegisterBenchmark("Nav_slicedFindPath", slicedFindPath<NavSide>);
  benchmark::RegisterBenchmark("Nav_findPathUnlimited", findPath<NavUnlimitedSide>);
  benchmark::RegisterBenchmark("Nav_slicedFindPathUnlimited", slicedFindPath<NavUnlimitedSide>);
  benchmark::RegisterBenchmark("Dt_slicedFindPath", slicedFindPath<DtSide>);
  benchmark::RegisterBenchmark("Nav_findStraightPath", findStraightPath<NavSide>);
  benchmark::RegisterBenchmark("Dt_findStraightPath", findStraightPath<DtSide>);
  benchmark::RegisterBenchmark("Nav_smoothPath", Nav_smoothPath);
  benchmark::RegisterBenchmark("Dt_smoothPath", Dt_smoothPath);
  benchmark::RegisterBenchmark("Nav_raycast", raycast<NavSide>);
  benchmark::RegisterBenchmark("Dt_raycast", raycast<DtSide>);
  benchmark::RegisterBenchmark("Nav_moveAlongSurface", moveAlongSurface<NavSide>);
  benchmark::RegisterBenchmark("Dt_moveAlongSurface", moveAlongSurface<DtSide>);

  RatioReporter rep;
  benchutil::runBenchmarks(args, rep);

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
