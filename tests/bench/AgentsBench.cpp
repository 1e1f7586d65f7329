// AgentsBench.cpp: the Agents panel's Compare agents (app/model/AgentCompare.h) beside Detour
// answering the same queries on the same three navmeshes, and its Reachability, on the bundled
// three-agent level (assets/levels/default_agents.json: each agent baked with its own settings).
// One "compare" is the panel's answer: for each of the three agents, nearest poly of start and
// end, findPath and findStraightPath (2048 nodes, unit costs). The goal is one frame (16.7 ms).
//
//   agents_bench [--smoke]     --smoke: one short repetition (the ctest run)
#include "BenchUtil.h"
#include "DetourCopy.h"

#include "app/model/AgentCompare.h"
#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/bake/Agents.h"
#include "nav/bake/Bake.h"
#include "nav/bake/LevelFile.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int kAgents = 3, kNodes = 2048;
/// Start / end pairs across the level: courtyard B to room D, hall A to room D, corner to corner.
const float kPairs[][6] = {{56, 0, 12, 55, 0, 26}, {6, 0, 16, 54, 0, 30}, {2, 0, 2, 58, 0, 48}};
constexpr int kPairCount = int(sizeof kPairs / sizeof kPairs[0]);
const float kExt[3] = {2, 4, 2};

struct Agent {
  std::unique_ptr<nav::NavMesh> mesh;
  nav::NavMeshQuery query;
  dtNavMesh* dt = nullptr;
  dtNavMeshQuery* dq = nullptr;
};
Agent g_agents[kAgents];
std::string g_names[kAgents];

void BM_CompareNav(benchmark::State& state) {
  navbench::AgentComparer comparer;
  navbench::AgentPath paths[kAgents];
  nav::QueryFilter filter;
  for (auto _ : state)
    for (const auto& p : kPairs)
      for (int a = 0; a < kAgents; ++a) comparer.run(g_agents[a].query, filter, p, p + 3, kExt, paths[a]);
  state.SetItemsProcessed(int64_t(state.iterations()) * kPairCount);
}

void BM_CompareDetour(benchmark::State& state) {
  dtQueryFilter filter;
  std::vector<dtPolyRef> path(size_t(navbench::AgentComparer::kMaxPath));
  std::vector<float> straight(path.size() * 3);
  for (auto _ : state)
    for (const auto& p : kPairs)
      for (int a = 0; a < kAgents; ++a) {
        dtNavMeshQuery* q = g_agents[a].dq;
        dtPolyRef s = 0, e = 0;
        float ns[3], ne[3];
        q->findNearestPoly(p, kExt, &filter, &s, ns);
        q->findNearestPoly(p + 3, kExt, &filter, &e, ne);
        if (!s || !e) continue;
        int n = 0, ns2 = 0;
        q->findPath(s, e, p, p + 3, &filter, path.data(), &n, int(path.size()));
        if (n) q->findStraightPath(p, p + 3, path.data(), n, straight.data(), nullptr, nullptr, &ns2, int(path.size()));
        benchmark::DoNotOptimize(ns2);
      }
  state.SetItemsProcessed(int64_t(state.iterations()) * kPairCount);
}

void BM_ReachNav(benchmark::State& state) {
  nav::QueryFilter filter;
  for (auto _ : state) {
    int reached = 0;
    auto only = navbench::polysOnlyAReaches(g_agents[1].query, g_agents[2].query, filter, kPairs[1], kExt,
                                            navbench::kReachFollowExtents, &reached);
    benchmark::DoNotOptimize(only.data());
  }
}

} // namespace

int main(int argc, char** argv) {
  bool smoke = false;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--smoke")) smoke = true;
    else args.push_back(argv[i]);
  }
  const std::string level = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default_agents.json";
  nav::bake::Level lf;
  nav::bake::BakeInput all;
  nav::bake::BakeSettings base;
  std::string why;
  if (!nav::bake::loadLevelFile(level, &lf, &why) || !nav::bake::loadBakeInput(level, &all, &base, &why) ||
      nav::bake::agentCount(lf) != kAgents) {
    std::fprintf(stderr, "agents_bench: %s\n", why.empty() ? "the level does not have three agents" : why.c_str());
    return 1;
  }
  for (int a = 0; a < kAgents; ++a) {
    nav::bake::Baker baker;
    nav::bake::BakeReport rep;
    if (!baker.setInput(nav::bake::inputForAgent(all, a), &why) ||
        !baker.bake(nav::bake::agentSettings(lf, a), nav::bake::BakeOptions{}, &rep)) {
      std::fprintf(stderr, "agents_bench: %s: %s\n", nav::bake::agentName(lf, a).c_str(), why.empty() ? rep.error.c_str() : why.c_str());
      return 1;
    }
    Agent& ag = g_agents[a];
    ag.mesh = baker.releaseNavMesh();
    ag.query.init(ag.mesh.get(), kNodes);
    ag.dt = benchutil::detourCopy(*ag.mesh);
    ag.dq = dtAllocNavMeshQuery();
    if (!ag.dt || dtStatusFailed(ag.dq->init(ag.dt, kNodes))) {
      std::fprintf(stderr, "agents_bench: Detour refused %s's tiles\n", nav::bake::agentName(lf, a).c_str());
      return 1;
    }
    g_names[a] = nav::bake::agentName(lf, a);
  }
  benchmark::RegisterBenchmark("Agents/Compare/nav", BM_CompareNav)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("Agents/Compare/Detour", BM_CompareDetour)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("Agents/Reach/nav", BM_ReachNav)->Unit(benchmark::kMicrosecond);
  benchutil::addRunFlags(args, smoke);
  benchutil::BestTimeReporter rep;
  benchutil::runBenchmarks(args, rep);
  // (times in the benchmarks' unit, microseconds; one iteration answers every pair)
  const double nav = rep.times["Agents/Compare/nav"] / kPairCount, dt = rep.times["Agents/Compare/Detour"] / kPairCount;
  std::printf("\none compare (3 agents: %s, %s, %s), best CPU time: nav %.1f us, Detour %.1f us, Detour / nav %.2f; "
              "%.3f%% of a 16.7 ms frame\n",
              g_names[0].c_str(), g_names[1].c_str(), g_names[2].c_str(), nav, dt, dt / nav, 100.0 * nav / 16667.0);
  std::printf("reachability (soldier vs truck from hall A): %.1f us\n", rep.times["Agents/Reach/nav"]);
  for (Agent& a : g_agents) {
    dtFreeNavMeshQuery(a.dq);
    dtFreeNavMesh(a.dt);
  }
  return 0;
}
