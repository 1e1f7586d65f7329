// CmdQuality.cpp: `navbench quality MESH.bin [--pairs N] [--seed S]`
//
// How much longer than the shortest are Detour-style paths on this mesh? Picks N random start/end
// pairs (findRandomPoint with a seeded generator, so runs repeat), keeps the connected ones, and for
// each runs findPath + findStraightPath (Detour's edge-midpoint A* and funnel, our NavMeshQuery),
// the same with the second cost model (findPath option FINDPATH_CLOSEST_POINT) and the exact
// shortest path (nav::ShortestPath). Prints the distribution of straight-path length / shortest
// length (mean, median, p95, p99, max, share over 5% and over 10%) for both cost models and the
// mean time per query of each. Lengths use nav::straightPathLength (xz on the mesh, 3D across
// off-mesh connections) for all, so they compare like for like.
// --hierarchical adds the hierarchical search (nav/HierPlanner.h) + findStraightPath: its length
// against the exact path and against findPath's (same pairs), its time, and how many of the pairs
// findPath left partial (2048 nodes) it completes.
#include "app/cli/Cli.h"
#include "nav/base/Args.h"

#include "nav/HierPlanner.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

uint32_t g_state = 1;
float nextRandom() {
  g_state = g_state * 1664525u + 1013904223u;
  return float(g_state >> 8) / float(1u << 24);
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0.0;
  const double idx = p * double(sorted.size() - 1);
  const size_t i = size_t(idx);
  const double f = idx - double(i);
  return i + 1 < sorted.size() ? sorted[i] * (1.0 - f) + sorted[i + 1] * f : sorted[i];
}

int runQuality(int argc, char** argv) {
  std::string meshPath;
  long pairs = 1000, seed = 1;
  bool hierarchical = false;
  base::Args args("navbench quality",
                  "How much longer than the shortest are findPath + findStraightPath paths, over random pairs?");
  args.positional("MESH.bin", &meshPath, "tile set (MSET)")
      .integer("--pairs", "N", &pairs, 1, 10000000, "random start/end pairs to try")
      .integer("--seed", "S", &seed, 0, 0xffffffffLL, "random generator seed (same seed, same pairs)")
      .flag("--hierarchical", &hierarchical, "also the hierarchical search: length against the exact path and findPath's");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;

  nav::NavMesh mesh;
  if (!navbench::cli::loadTileSetOrSay("navbench quality", meshPath, mesh)) return 1;
  nav::NavMeshQuery q;
  nav::ShortestPath exact;
  if (nav::statusFailed(q.init(&mesh, 2048)) || nav::statusFailed(exact.init(&mesh, 8192))) {
    std::fprintf(stderr, "navbench quality: cannot initialise the queries\n");
    return 1;
  }
  nav::HierPlanner hier;
  if (hierarchical && nav::statusFailed(hier.init(&mesh))) {
    std::fprintf(stderr, "navbench quality: cannot initialise the hierarchical search\n");
    return 1;
  }
  const nav::QueryFilter filter;
  g_state = uint32_t(seed) ? uint32_t(seed) : 1u;

  constexpr int MAX_PATH = 2048, MAX_STRAIGHT = 1024;
  std::vector<nav::PolyRef> corridor(MAX_PATH);
  std::vector<float> pts(3 * MAX_STRAIGHT);
  std::vector<uint8_t> flags(MAX_STRAIGHT);
  std::vector<double> ratio, cpRatio, hierRatio, hierVsPath;
  double cpUs = 0, hierUs = 0;
  long hierRuns = 0, hierCompletesPartial = 0, hierPartial = 0;
  // The hierarchical search and its straight path; length 0 unless it reached the end.
  auto runHier = [&](nav::PolyRef sr, nav::PolyRef er, const float* s, const float* e) {
    const auto th = std::chrono::steady_clock::now();
    int nh = 0, nsh = 0;
    const nav::Status hs = hier.findPath(sr, er, s, e, &filter, corridor.data(), &nh, MAX_PATH);
    nav::Status hss = nav::FAILURE;
    if (nav::statusSucceeded(hs) && !(hs & nav::PARTIAL_RESULT) && nh > 0 && corridor[size_t(nh - 1)] == er)
      hss = hier.query().findStraightPath(s, e, corridor.data(), nh, pts.data(), flags.data(), nullptr, &nsh,
                                          MAX_STRAIGHT);
    hierUs += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - th).count();
    ++hierRuns;
    return nav::statusSucceeded(hss) ? nav::straightPathLength(pts.data(), flags.data(), nsh) : 0.0f;
  };
  using Clock = std::chrono::steady_clock;
  double detourUs = 0, exactUs = 0;
  long tried = 0, unreachable = 0, exactIncomplete = 0;
  int maxNodes = 0;
  long sumNodes = 0;
  for (long i = 0; i < pairs; ++i) {
    nav::PolyRef sr = 0, er = 0;
    float s[3], e[3];
    if (nav::statusFailed(q.findRandomPoint(&filter, nextRandom, &sr, s)) ||
        nav::statusFailed(q.findRandomPoint(&filter, nextRandom, &er, e))) {
      std::fprintf(stderr, "navbench quality: %s: no random point (empty mesh?)\n", meshPath.c_str());
      return 1;
    }
    ++tried;
    const auto t0 = Clock::now();
    int nc = 0, ns = 0;
    const nav::Status ps = q.findPath(sr, er, s, e, &filter, corridor.data(), &nc, MAX_PATH);
    nav::Status ss = nav::FAILURE;
    if (nav::statusSucceeded(ps) && nc > 0)
      ss = q.findStraightPath(s, e, corridor.data(), nc, pts.data(), flags.data(), nullptr, &ns, MAX_STRAIGHT);
    const auto t1 = Clock::now();
    if (!nav::statusSucceeded(ss) || (ps & nav::PARTIAL_RESULT)) {
      ++unreachable;
      if (hierarchical && runHier(sr, er, s, e) > 0) ++hierCompletesPartial;
      continue;
    }
    const float detourLen = nav::straightPathLength(pts.data(), flags.data(), ns);
    float len = 0;
    const auto t2 = Clock::now();
    const nav::Status es = exact.findPath(sr, er, s, e, &filter, pts.data(), flags.data(), nullptr, &ns, MAX_STRAIGHT,
                                          nullptr, nullptr, 0, &len);
    const auto t3 = Clock::now();
    detourUs += std::chrono::duration<double, std::micro>(t1 - t0).count();
    exactUs += std::chrono::duration<double, std::micro>(t3 - t2).count();
    sumNodes += exact.lastStats().nodesGenerated;
    maxNodes = std::max(maxNodes, exact.lastStats().nodesGenerated);
    if (!nav::statusSucceeded(es) || (es & (nav::PARTIAL_RESULT | nav::OUT_OF_NODES))) {
      ++exactIncomplete;
      continue;
    }
    if (len <= 1e-4f) continue;
    ratio.push_back(double(detourLen) / double(len));
    // The second cost model: the same query with FINDPATH_CLOSEST_POINT.
    const auto t4 = Clock::now();
    int ncc = 0, nsc = 0;
    const nav::Status cs = q.findPath(sr, er, s, e, &filter, corridor.data(), &ncc, MAX_PATH,
                                      nav::FINDPATH_CLOSEST_POINT);
    nav::Status css = nav::FAILURE;
    if (nav::statusSucceeded(cs) && !(cs & nav::PARTIAL_RESULT) && ncc > 0)
      css = q.findStraightPath(s, e, corridor.data(), ncc, pts.data(), flags.data(), nullptr, &nsc, MAX_STRAIGHT);
    cpUs += std::chrono::duration<double, std::micro>(Clock::now() - t4).count();
    if (nav::statusSucceeded(css)) cpRatio.push_back(double(nav::straightPathLength(pts.data(), flags.data(), nsc)) / len);
    if (hierarchical) {
      const float hl = runHier(sr, er, s, e);
      if (hl > 0) {
        hierRatio.push_back(double(hl) / double(len));
        hierVsPath.push_back(double(hl) / double(detourLen));
      } else {
        ++hierPartial;
      }
    }
  }
  std::sort(hierRatio.begin(), hierRatio.end());
  std::sort(hierVsPath.begin(), hierVsPath.end());

  std::sort(ratio.begin(), ratio.end());
  std::sort(cpRatio.begin(), cpRatio.end());
  const long connected = tried - unreachable;
  std::printf("%s: %ld random pairs (seed %ld), %ld connected, %zu compared", meshPath.c_str(), tried, seed,
              connected, ratio.size());
  if (exactIncomplete) std::printf(", %ld where the exact search ran out of nodes", exactIncomplete);
  std::printf("\n");
  if (ratio.empty()) {
    std::printf("no connected pairs to compare\n");
    return 0;
  }
  std::printf("%-28s %8s %8s %8s %8s %8s %8s %8s\n", "length / shortest", "mean", "median", "p95", "p99", "max",
              ">5%", ">10%");
  auto row = [](const char* name, const std::vector<double>& v) {
    if (v.empty()) return;
    double mean = 0;
    long over5 = 0, over10 = 0;
    for (double r : v) {
      mean += r;
      over5 += r > 1.05;
      over10 += r > 1.10;
    }
    const double n = double(v.size());
    std::printf("%-28s %8.4f %8.4f %8.4f %8.4f %8.4f %7.2f%% %7.2f%%\n", name, mean / n, percentile(v, 0.5),
                percentile(v, 0.95), percentile(v, 0.99), v.back(), 100.0 * double(over5) / n,
                100.0 * double(over10) / n);
  };
  row("findPath + findStraightPath", ratio);
  row("closest-point + straight", cpRatio);
  row("hierarchical + straight", hierRatio);
  if (hierarchical) {
    std::printf("%-28s %8s %8s %8s %8s %8s %8s %8s\n", "length / findPath's", "mean", "median", "p95", "p99", "max",
                ">5%", ">10%");
    row("hierarchical + straight", hierVsPath);
    std::printf("hierarchical: %ld of the compared pairs not complete; %ld of the %ld pairs findPath (2048 nodes) left "
                "partial completed\n",
                hierPartial, hierCompletesPartial, unreachable);
  }
  std::printf("%-28s %10s\n", "time per query", "us");
  std::printf("%-28s %10.2f\n", "findPath + findStraightPath", detourUs / double(connected));
  std::printf("%-28s %10.2f   (findPath option FINDPATH_CLOSEST_POINT)\n", "closest-point + straight",
              cpUs / double(ratio.size()));
  std::printf("%-28s %10.2f   (nodes per query: mean %.1f, max %d of %d)\n", "exact shortest path",
              exactUs / double(connected), double(sumNodes) / double(connected), maxNodes, exact.getMaxNodes());
  if (hierarchical && hierRuns)
    std::printf("%-28s %10.2f   (nav/HierPlanner.h)\n", "hierarchical + straight", hierUs / double(hierRuns));
  return 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(quality, "quality",
                    "distribution of findPath+findStraightPath length / exact shortest length on random pairs",
                    runQuality);
