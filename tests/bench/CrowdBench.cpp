// CrowdBench.cpp: time per crowd update, our nav::crowd::Crowd vs Debian's DetourCrowd, side by
// side in one run, at 25, 100, 500 and 1000 agents, on ../shared's nav_test tiled (skipped when
// absent) and on a generated world (app/cli/WorldGen.h, baked tiled). Both crowds are driven by the
// same runner (nav/crowd/CrowdRunner.h) with the same generated scenario: agents at seeded random
// points with random targets and every update flag (RecastDemo's defaults otherwise), 20 warm-up
// updates of 1/30 s, then one benchmark iteration = one update; every 150 updates every agent gets a
// new random target (outside the timing) so the crowd keeps walking. At the end a table gives
// DetourCrowd time / our time per update (> 1 = ours faster), each the best of the repetitions.
//
//   crowd_bench [--world-size M] [--smoke] [google benchmark flags]
#include "DetourCrowdOracle.h"

#include "nav/NavMeshQuery.h"
#include "nav/crowd/CrowdRunner.h"

#include "tests/bench/BenchUtil.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace nav::crowd;

constexpr float DT = 1.0f / 30.0f;
constexpr int RETARGET_EVERY = 150;
constexpr int TARGET_SETS = 8;

struct Level {
  std::string name;
  const querytest::DualMesh* mesh = nullptr;
};
std::vector<Level> g_levels;

/// The benchmark's crowd: the scenario run to the end of its warm-up, then updates on demand.
template <class Adapter>
struct Bench {
  Scenario sc;
  std::unique_ptr<Adapter> adapter;
  std::unique_ptr<ScenarioRunner<Adapter>> runner;
  std::vector<float> targets; // [TARGET_SETS][agents][3]
  int updates = 0, set = 0;

  template <class Mesh>
  Bench(const querytest::DualMesh& m, Mesh* mesh, int agents) {
    crowdtest::GenOptions o;
    o.seed = 77 + uint64_t(agents);
    o.agents = agents;
    o.rounds = 1;
    o.ticksPerRound = 20;
    o.flagBase = -1;
    o.changes = false;
    o.offMeshAgents = false;
    o.avoidLines = false;
    o.unplaceable = false;
    sc = crowdtest::generateScenario(m, o);
    for (ScenarioCommand& c : sc.commands)
      if (c.op == ScenarioOp::Tick) c.dt = DT;
    adapter = std::make_unique<Adapter>(mesh);
    runner = std::make_unique<ScenarioRunner<Adapter>>(*adapter, sc);
    std::string why;
    if (!runner->start(&why)) std::fprintf(stderr, "crowd_bench: %s\n", why.c_str());
    runner->runAll(nullptr);
    nav::NavMeshQuery q;
    q.init(&m.nav);
    nav::QueryFilter f;
    querytest::seedRandom(4242 + uint64_t(agents));
    targets.resize(size_t(TARGET_SETS) * size_t(agents) * 3);
    for (size_t i = 0; i < targets.size(); i += 3) {
      nav::PolyRef r = 0;
      q.findRandomPoint(&f, querytest::frand, &r, &targets[i]);
    }
  }
  void retarget() {
    const int n = sc.agentCount;
    const float* t = &targets[size_t(set) * size_t(n) * 3];
    set = (set + 1) % TARGET_SETS;
    for (int i = 0; i < n; ++i) {
      const int slot = runner->slotOf(i);
      uint64_t ref = 0;
      float p[3];
      if (slot >= 0 && adapter->findNearest(&t[size_t(i) * 3], 0, &ref, p)) adapter->requestMoveTarget(slot, ref, p);
    }
  }
  void run(benchmark::State& st) {
    for (auto _ : st) {
      adapter->update(DT);
      if (++updates % RETARGET_EVERY == 0) {
        st.PauseTiming();
        retarget();
        st.ResumeTiming();
      }
    }
    st.counters["agents"] = double(runner->agentsPlaced());
  }
};

void navUpdate(benchmark::State& st, const Level* lv, int agents) {
  Bench<NavCrowdAdapter> b(*lv->mesh, &lv->mesh->nav, agents);
  b.run(st);
}
void dtUpdate(benchmark::State& st, const Level* lv, int agents) {
  Bench<crowdtest::DetourCrowdAdapter> b(*lv->mesh, lv->mesh->dt, agents);
  b.run(st);
}

using RatioReporter = benchutil::BestTimeReporter;

} // namespace

int main(int argc, char** argv) {
  bool smoke = false;
  float worldSize = 256.0f;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--smoke")) smoke = true;
    else if (!std::strcmp(argv[i], "--world-size") && i + 1 < argc) worldSize = std::strtof(argv[++i], nullptr);
    else args.push_back(argv[i]);
  }
  benchutil::addRunFlags(args, smoke);
  if (smoke && worldSize > 64.0f) worldSize = 64.0f;

  std::string why;
  if (const querytest::DualMesh* m = crowdtest::sharedLevel("nav_test.obj", true, false, &why))
    g_levels.push_back({"nav_test_tiled", m});
  else
    std::printf("crowd_bench: nav_test tiled skipped: %s\n", why.c_str());
  if (const querytest::DualMesh* m = crowdtest::generatedWorld(worldSize, 1, &why))
    g_levels.push_back({"world" + std::to_string(int(worldSize)), m});
  else
    std::printf("crowd_bench: generated world skipped: %s\n", why.c_str());
  if (g_levels.empty()) return 1;

  const int counts[] = {25, 100, 500, 1000};
  const int smokeCounts[] = {25};
  std::vector<std::string> ops;
  for (const Level& lv : g_levels)
    for (int n : smoke ? std::vector<int>(smokeCounts, smokeCounts + 1) : std::vector<int>(counts, counts + 4)) {
      const std::string op = lv.name + "/" + std::to_string(n);
      ops.push_back(op);
      benchmark::RegisterBenchmark(("Nav/" + op).c_str(), navUpdate, &lv, n)->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("Dt/" + op).c_str(), dtUpdate, &lv, n)->Unit(benchmark::kMicrosecond);
    }

  RatioReporter rep;
  benchutil::runBenchmarks(args, rep);

  std::printf("\n%-24s %16s %16s %8s\n", "level/agents", "DetourCrowd us", "nav::crowd us", "ratio");
  int shown = 0;
  for (const std::string& op : ops) {
    const auto d = rep.times.find("Dt/" + op);
    const auto n = rep.times.find("Nav/" + op);
    if (d == rep.times.end() || n == rep.times.end()) continue;
    std::printf("%-24s %16.1f %16.1f %7.2fx\n", op.c_str(), d->second, n->second, // [Unit: us]
                d->second / n->second);
    ++shown;
  }
  std::printf("(time per update, best of the repetitions; ratio = DetourCrowd / ours, > 1: ours faster)\n");
  return shown ? 0 : 1;
}
