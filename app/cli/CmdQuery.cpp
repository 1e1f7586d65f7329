// CmdQuery.cpp: `navbench query MESH.bin CASES.txt [--json OUT.jsonl] [--repeat R] [--optimal] [--hierarchical]
//                [--check] [--write-expected OUT.txt]`
//
// Runs a RecastDemo test-case file (RecastDemo/Bin/TestCases format: `pf sx sy sz ex ey ez inc
// exc` and `rc ...` lines; `s`/`f` lines name the sample and level and are ignored here, the mesh
// comes from MESH.bin) with RecastDemo's conventions: the raw case positions go to findPath /
// findStraightPath / raycast, nearest-poly half extents (2, 4, 2), 2048 nodes, corridors and
// straight paths up to 2048. Prints a per-operation timing table (min over the repeats) and
// optionally writes one JSON object per case (coordinates with 4 decimals, statuses as hex).
// --hierarchical runs pf cases' paths with the hierarchical search (nav/HierPlanner.h) instead of
// findPath: same records, same fields.
// --optimal also runs the exact shortest-path search (nav/ShortestPath.h) per pf case and adds
// `optLen` and `optPath` to its record (null when no exact path was found).
// --check compares every case that has an `# expect` line (app/model/TestCaseFile.h) with its
// result (tolerances in app/model/TestCaseRun.h), prints "FILE:LINE: ..." per mismatch and exits 1
// on any; --write-expected writes the file with every case's expectation filled in (atomically;
// OUT may be CASES.txt itself). The run-one-case code is app/model/TestCaseRun, shared with the
// viewer's Test cases panel.
#include "app/cli/Cli.h"
#include "nav/base/Args.h"
#include "app/model/TestCaseFile.h"
#include "app/model/TestCaseJson.h"
#include "app/model/TestCaseRun.h"

#include "nav/base/AtomicFile.h"
#include "nav/HierPlanner.h"
#include "nav/NavMath.h"
#include "nav/NavMeshQuery.h"
#include "nav/PathFollow.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"

#include <cfloat>
#include <chrono>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Case = navbench::TestCase;
using Result = navbench::TestCaseResult;

bool readCases(const std::string& path, std::vector<Case>& cases, std::string* why, navbench::TestCaseHeader* header) {
  return navbench::readTestCaseFile(path, cases, why, header);
}

/// Case i's --json record (app/model/TestCaseJson.h), with optLen / optPath when --optimal ran.
std::string caseJson(size_t i, const Case& c, const Result& r, bool withOpt) {
  namespace tj = navbench::testcase_json;
  std::string opt;
  if (withOpt && !c.raycast) {
    opt = ",\"optLen\":";
    if (r.hasOpt) tj::appendNum(opt, "%.4f", double(r.optLen));
    else opt += "null";
    opt += ",\"optPath\":";
    if (r.hasOpt) tj::appendPts(opt, r.optPath);
    else opt += "null";
  }
  std::string o;
  tj::appendRecord(o, i, c.raycast, c, r, nav::PARTIAL_RESULT, nav::OUT_OF_NODES, opt);
  return o;
}

int runQuery(int argc, char** argv) {
  std::string meshPath, casesPath, jsonPath, writeExpectedPath;
  int repeat = 1;
  bool optimal = false, check = false, hierarchical = false;
  base::Args args("navbench query", "Runs a RecastDemo test-case file on a tile set and prints a timing table per operation.");
  args.positional("MESH.bin", &meshPath, "tile set (MSET)")
      .positional("CASES.txt", &casesPath, "RecastDemo test cases (pf / rc lines, optional '# expect' lines)")
      .text("--json", "OUT.jsonl", &jsonPath, "write one JSON object per case (atomically)")
      .integer("--repeat", "R", &repeat, 1, 100000, "run the whole file R times; times are the fastest run's")
      .flag("--optimal", &optimal, "also run the exact shortest path per pf case (optLen, optPath in --json)")
      .flag("--hierarchical", &hierarchical, "pf paths by the hierarchical search over tiles instead of findPath")
      .flag("--check", &check,
            "compare each case with its '# expect' line (status, corridor, straight,\n"
            "len within 1e-3 wu + 1e-4 * len; rc: status, t within 1e-4, normal within\n"
            "1e-3, visited); one line per mismatch, exit 1 on any")
      .text("--write-expected", "OUT.txt", &writeExpectedPath,
            "write CASES.txt with every case's expectation filled in (atomically)");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;

  nav::NavMesh mesh;
  if (!navbench::cli::loadTileSetOrSay("navbench query", meshPath, mesh)) return 1;
  std::string why;
  std::vector<Case> cases;
  navbench::TestCaseHeader header;
  if (!readCases(casesPath, cases, &why, &header)) {
    std::fprintf(stderr, "navbench query: %s\n", why.c_str());
    return 1;
  }
  nav::NavMeshQuery q;
  if (nav::statusFailed(q.init(&mesh, navbench::kTestCaseMaxNodes))) {
    std::fprintf(stderr, "navbench query: cannot initialise the query (2048 nodes)\n");
    return 1;
  }

  nav::ShortestPath shortest;
  if (optimal && nav::statusFailed(shortest.init(&mesh))) {
    std::fprintf(stderr, "navbench query: cannot initialise the exact shortest-path search\n");
    return 1;
  }

  std::vector<Result> results(cases.size());
  double best[navbench::TC_OP_COUNT];
  int counts[navbench::TC_OP_COUNT] = {};
  for (double& b : best) b = 1e300;
  navbench::TestCaseRunner runner;
  nav::HierPlanner hier;
  if (hierarchical) {
    if (nav::statusFailed(hier.init(&mesh))) {
      std::fprintf(stderr, "navbench query: cannot initialise the hierarchical search\n");
      return 1;
    }
    runner.setHierarchical(&hier);
  }
  for (int r = 0; r < repeat; ++r) {
    navbench::TestCaseTimes times;
    for (size_t i = 0; i < cases.size(); ++i) runner.run(q, optimal ? &shortest : nullptr, cases[i], results[i], &times);
    for (int op = 0; op < navbench::TC_OP_COUNT; ++op) {
      if (times.us[op] < best[op]) best[op] = times.us[op];
      counts[op] = times.calls[op];
    }
  }

  int npf = 0, nrc = 0, found = 0, hits = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].raycast) {
      ++nrc;
      if (results[i].startRef && results[i].t <= 1) ++hits;
    } else {
      ++npf;
      if (!results[i].polys.empty() && results[i].polys.back() == results[i].endRef) ++found;
    }
  }
  std::printf("%s: %d cases (%d pf, %d rc), %d paths reach their end, %d rays hit; %d repeat(s)\n", casesPath.c_str(),
              int(cases.size()), npf, nrc, found, hits, repeat);
  std::printf("%-18s %8s %12s %12s\n", "operation", "calls", "total ms", "avg us");
  for (int op = 0; op < navbench::TC_OP_COUNT; ++op) {
    if (!counts[op]) continue;
    std::printf("%-18s %8d %12.3f %12.3f\n", navbench::kTestCaseOpNames[op], counts[op], best[op] / 1000.0,
                best[op] / counts[op]);
  }

  if (!jsonPath.empty()) {
    std::string out;
    for (size_t i = 0; i < cases.size(); ++i) out += caseJson(i, cases[i], results[i], optimal);
    if (!base::writeFileAtomic(jsonPath, out, why)) {
      std::fprintf(stderr, "navbench query: %s\n", why.c_str());
      return 1;
    }
  }

  if (!writeExpectedPath.empty()) {
    std::string text;
    {
      std::ifstream in(casesPath, std::ios::binary);
      std::ostringstream ss;
      ss << in.rdbuf();
      text = ss.str();
    }
    std::vector<std::string> lines(cases.size());
    for (size_t i = 0; i < cases.size(); ++i)
      lines[i] = navbench::formatExpect(cases[i].raycast, navbench::expectFromResult(cases[i], results[i]));
    if (!base::writeFileAtomic(writeExpectedPath, navbench::replaceExpectations(text, cases, lines), why)) {
      std::fprintf(stderr, "navbench query: %s\n", why.c_str());
      return 1;
    }
    std::printf("wrote %s: %d cases with expectations\n", writeExpectedPath.c_str(), int(cases.size()));
  }

  if (check) {
    if (header.expectCount == 0) {
      std::fprintf(stderr, "navbench query: --check: %s has no '# expect' lines (add them with --write-expected)\n",
                   casesPath.c_str());
      return 1;
    }
    int bad = 0, checked = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      if (!c.expect.present) continue;
      ++checked;
      std::vector<std::string> diffs;
      if (navbench::checkExpect(c, results[i], &diffs)) continue;
      ++bad;
      std::string msg;
      for (const std::string& d : diffs) msg += (msg.empty() ? "" : "; ") + d;
      std::printf("%s:%d: %s case %d (expectation on line %d): %s\n", casesPath.c_str(), c.line,
                  c.raycast ? "rc" : "pf", int(i), c.expect.line, msg.c_str());
    }
    std::printf("check: %d of %d cases checked, %d mismatch(es)%s\n", checked, int(cases.size()), bad,
                bad ? "" : ": all as expected");
    if (bad) return 1;
  }
  return 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(query, "query", "run a RecastDemo test-case file (pf/rc lines) on a tile set, with timings",
                    runQuery);
