// BenchUtil.h: what the side-by-side benchmarks (nav vs Detour) share: the run flags and a
// reporter that keeps each benchmark's best time for the ratio tables they print.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

namespace benchutil {

/// Google Benchmark flags after args[0] (the program): smoke, one short run (keeps the binary
/// from rotting in ctest); otherwise 5 repetitions, interleaved so load changes hit both sides.
inline void addRunFlags(std::vector<char*>& args, bool smoke) {
  static char minTime[] = "--benchmark_min_time=0.001";
  static char reps[] = "--benchmark_repetitions=5";
  static char interleave[] = "--benchmark_enable_random_interleaving=true";
  if (smoke) {
    args.push_back(minTime);
  } else {
    args.insert(args.begin() + 1, reps);
    args.insert(args.begin() + 1, interleave);
  }
}

/// The console report, plus the best time per iteration of each benchmark over its repetitions:
/// CPU time [ns] (less sensitive to a busy machine), or with manualTime the benchmark's own
/// (UseManualTime) in its unit.
class BestTimeReporter : public benchmark::ConsoleReporter {
public:
  explicit BestTimeReporter(bool manualTime = false) : m_manual(manualTime) {}
  std::map<std::string, double> times;    ///< benchmark name -> best time
  std::map<std::string, double> cpuTimes; ///< benchmark name -> best CPU time (whatever manualTime says)
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration) continue;
      const double t = m_manual ? r.GetAdjustedRealTime() : r.GetAdjustedCPUTime();
      const std::string name = r.run_name.function_name;
      auto it = times.find(name);
      if (it == times.end() || t < it->second) times[name] = t;
      auto c = cpuTimes.find(name);
      if (c == cpuTimes.end() || r.GetAdjustedCPUTime() < c->second) cpuTimes[name] = r.GetAdjustedCPUTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }

private:
  bool m_manual;
};

/// Runs the registered benchmarks with args (flags included) into rep.
inline void runBenchmarks(std::vector<char*>& args, BestTimeReporter& rep) {
  int bargc = int(args.size());
  benchmark::Initialize(&bargc, args.data());
  benchmark::RunSpecifiedBenchmarks(&rep);
  benchmark::Shutdown();
}

} // namespace benchutil
