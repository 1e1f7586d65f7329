// CmdCrowd.cpp: `navbench crowd MESH.bin SCENARIO.crowd.txt [--json TRACE.jsonl] [--repeat R]
//                [--expect TRACE.jsonl]`
//
// Runs a crowd scenario (../shared/formats/crowd.md; nav/crowd/CrowdScenario.h) on our crowd
// (nav::crowd::Crowd through nav/crowd/CrowdRunner.h) on the tile set MESH.bin, and writes its
// trace (one JSON line per update, atomically). Prints a summary: agents, ticks, time per update.
// --repeat R runs the scenario R times (timing: the fastest run is reported) and checks that every
// run gives the same trace, bit for bit (a hash of each tick's line; the trace is streamed, never
// held whole). --expect compares the trace with a trace file by
// crowd.md's rule (e.g. one DetourCrowd wrote) and prints the first difference.
// Agent types: MESH.bin is type `default`; each `navmesh NAME [PATH]` line of the scenario names
// another type's tile set (PATH against the scenario's folder, or MESH.NAME.bin beside MESH.bin),
// all in one crowd (nav/crowd/Crowd.h); the trace then names each agent's type. MESH.bin need
// not exist when the scenario has `navmesh` lines and every agent has a `type` (`navbench bake`
// of a level with agent types writes only MESH.NAME.bin files).
// Agents that cannot be placed and targets with no poly are reported as warnings
// ("SCENARIO:LINE: ..."), and the run goes on as crowd.md says.
// Exit code: 0 done, 1 --repeat runs differ or --expect differs, 2 bad input (the message names
// the file, and the line for scenario and trace files).
#include "app/cli/Cli.h"
#include "nav/base/Args.h"

#include "nav/TileSetFile.h"
#include "nav/base/AtomicFile.h"
#include "nav/crowd/CrowdRunner.h"
#include "nav/crowd/CrowdScenario.h"
#include "nav/crowd/CrowdTrace.h"

#include <nlohmann/json.hpp>

#include "nav/base/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace nav::crowd;

/// Reads a trace file (JSONL as CrowdTrace writes it): one record a line, read through the strict
/// JSON layer. False with "FILE:LINE: not a crowd trace record: PATH: problem". A vector component written as null is NaN
/// (CrowdTrace writes non-finite values so).
bool readTrace(const std::string& path, std::vector<TickRecord>* out, std::string* why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why = path + ": cannot open the file";
    return false;
  }
  auto vec = [](const base::JsonIn& a, float* v) {
    if (!a.array(3, 3)) return false;
    for (size_t k = 0; k < 3; ++k)
      if (a[k].json().is_null()) v[k] = std::nanf("");
      else if (!a[k].get(v[k])) return false;
    return true;
  };
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    base::JsonErrors errors(path + ":" + std::to_string(lineNo) + ": not a crowd trace record");
    nlohmann::json doc;
    TickRecord r;
    bool ok = base::parseJson(line, errors, doc);
    const base::JsonIn j(doc, errors);
    ok = ok && j.get("tick", r.tick, 0) && j["agents"].array();
    for (size_t n = 0; ok && n < j["agents"].size(); ++n) {
      const base::JsonIn a = j["agents"][n];
      AgentRecord ag;
      ok = a.get("i", ag.i, 0) && a.get("active", ag.active);
      if (ok && ag.active) {
        long long path0 = 0, pathN = 0;
        ok = a.get("state", ag.state) && vec(a["pos"], ag.pos) && vec(a["vel"], ag.vel) && vec(a["dvel"], ag.dvel) &&
             vec(a["nvel"], ag.nvel) && a.get("targetState", ag.targetState) && a.get("npath", ag.npath, 0) &&
             a.get("path0", path0, 0) && a.get("pathN", pathN, 0) && a.get("ncorners", ag.ncorners, 0) &&
             a.get("nneis", ag.nneis, 0);
        ag.path0 = uint64_t(path0);
        ag.pathN = uint64_t(pathN);
        if (ok && a.has("type")) ok = a.get("type", ag.type);
      }
      r.agents.push_back(ag);
    }
    if (!ok) {
      *why = errors.message.empty() ? errors.file : errors.message;
      return false;
    }
    out->push_back(std::move(r));
  }
  return true;
}

int runCrowd(int argc, char** argv) {
  std::string meshPath, scenarioPath, jsonPath, expectPath;
  int repeat = 1;
  base::Args args("navbench crowd",
                  "Runs a crowd scenario (commands: crowd navmesh avoid agent target velocity reset remove tick)\n"
                  "and writes one JSON line per update. Agents of several types share one crowd: each\n"
                  "`navmesh NAME [PATH]` line loads type NAME's tile set (PATH against the scenario's folder, or\n"
                  "MESH.NAME.bin beside MESH.bin, as a level bake with agents writes them). MESH.bin may be\n"
                  "missing when every agent line names a type.");
  args.positional("MESH.bin", &meshPath, "tile set (MSET) of the agent type `default`")
      .positional("SCENARIO.crowd.txt", &scenarioPath, "the scenario (../shared/formats/crowd.md)")
      .text("--json", "TRACE.jsonl", &jsonPath, "write the trace, one JSON line per update (atomically)")
      .integer("--repeat", "R", &repeat, 1, 10000, "run R times: the fastest is timed, the traces must be identical")
      .text("--expect", "TRACE.jsonl", &expectPath, "compare the trace with this one (crowd.md's rule)")
      .note("exit code: 0 done, 1 runs or --expect differ, 2 bad input");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;

  std::string why;
  Scenario sc;
  if (!loadScenarioFile(scenarioPath, &sc, &why)) {
    std::fprintf(stderr, "navbench crowd: %s\n", why.c_str());
    return 2;
  }
  // One tile set per agent type, in type order (0: MESH.bin). A typed scenario whose agents all
  // name a type (the viewer's Crowd tool writes such) runs without MESH.bin, as `navbench bake`
  // of a level with agent types leaves it: type 0's slot then holds type 1's tile set, which no
  // agent plans on (the crowd's meshes are per agent; the same mesh may be given twice).
  bool noDefault = false;
  std::error_code ec;
  if (!sc.navTypes.empty() && !std::filesystem::exists(meshPath, ec)) {
    std::string users;
    int count = 0;
    for (const ScenarioCommand& c : sc.commands)
      if (c.op == ScenarioOp::Agent && c.agentParams.navType == 0 && ++count <= 5)
        users += (users.empty() ? "" : ", ") + scenarioPath + ":" + std::to_string(c.line) + " (agent " +
                 std::to_string(c.agent) + ")";
    if (count > 0) {
      std::fprintf(stderr,
                   "navbench crowd: %s: no such file: the tile set of type default, which the agent line(s) "
                   "without a type key need: %s%s\n",
                   meshPath.c_str(), users.c_str(),
                   count > 5 ? (" and " + std::to_string(count - 5) + " more").c_str() : "");
      return 2;
    }
    noDefault = true;
  }
  std::vector<std::unique_ptr<nav::NavMesh>> meshes;
  std::vector<const nav::NavMesh*> meshPtrs;
  for (int t = noDefault ? 1 : 0; t <= int(sc.navTypes.size()); ++t) {
    const std::string path = scenarioTypeMeshPath(sc, t, scenarioPath, meshPath);
    meshes.push_back(std::make_unique<nav::NavMesh>());
    if (!navbench::cli::loadTileSetOrSay("navbench crowd", path, *meshes.back())) {
      if (t > 0)
        std::fprintf(stderr, "navbench crowd: %s:%d: the tile set of type %s\n", scenarioPath.c_str(),
                     sc.navTypes[size_t(t - 1)].line, sc.navTypes[size_t(t - 1)].name.c_str());
      return 2;
    }
    meshPtrs.push_back(meshes.back().get());
  }
  if (noDefault) meshPtrs.insert(meshPtrs.begin(), meshPtrs.front());
  std::vector<TickRecord> expected;
  if (!expectPath.empty() && !readTrace(expectPath, &expected, &why)) {
    std::fprintf(stderr, "navbench crowd: %s\n", why.c_str());
    return 2;
  }

  // The trace is streamed (written and compared tick by tick), never held whole: a long run of a
  // big crowd makes gigabytes of JSON. Repeats are compared by a hash of each tick's line.
  base::AtomicFile out(jsonPath);
  if (!jsonPath.empty() && !out.open(why)) {
    std::fprintf(stderr, "navbench crowd: %s\n", why.c_str());
    return 2;
  }
  std::vector<uint64_t> tickHashes;
  std::string expectDiff, line;
  double bestSeconds = 0;
  int notAdded = 0, skipped = 0, ticks = 0;
  TickRecord rec;
  for (int run = 0; run < repeat; ++run) {
    auto adapter = std::make_unique<NavCrowdAdapter>(meshPtrs.data(), int(meshPtrs.size()));
    ScenarioRunner<NavCrowdAdapter> runner(*adapter, sc);
    if (!runner.start(&why)) {
      std::fprintf(stderr, "navbench crowd: %s: %s\n", scenarioPath.c_str(), why.c_str());
      return 2;
    }
    int t = 0;
    while (runner.step(&rec)) {
      line.clear();
      appendTraceLine(rec, &line);
      uint64_t h = 1469598103934665603ull; // FNV-1a
      for (char c : line) h = (h ^ uint8_t(c)) * 1099511628211ull;
      if (run == 0) {
        tickHashes.push_back(h);
        if (!jsonPath.empty()) std::fwrite(line.data(), 1, line.size(), out.file());
        if (!expectPath.empty() && expectDiff.empty()) {
          if (size_t(t) < expected.size())
            expectDiff = compareTickRecords(rec, expected[size_t(t)], "this run", expectPath.c_str());
          else
            expectDiff = "tick counts differ: this run has more than the " + std::to_string(expected.size()) +
                         " tick(s) expected";
        }
      } else if (size_t(t) >= tickHashes.size() || tickHashes[size_t(t)] != h) {
        std::fprintf(stderr, "navbench crowd: run %d of %d differs from run 1 at tick %d\n", run + 1, repeat, t + 1);
        return 1;
      }
      ++t;
    }
    const double secs = runner.updateSeconds();
    if (run == 0) {
      for (const RunNote& n : runner.notes())
        std::fprintf(stderr, "%s:%d: warning: %s\n", scenarioPath.c_str(), n.line, n.text.c_str());
      notAdded = runner.agentsNotAdded();
      skipped = runner.targetsSkipped();
      ticks = t;
      bestSeconds = secs;
      if (!expectPath.empty() && expectDiff.empty() && size_t(t) != expected.size())
        expectDiff = "tick counts differ: " + std::to_string(t) + " vs " + std::to_string(expected.size());
      if (!jsonPath.empty() && !out.commit(why)) {
        std::fprintf(stderr, "navbench crowd: %s\n", why.c_str());
        return 2;
      }
    } else {
      if (t != ticks) {
        std::fprintf(stderr, "navbench crowd: run %d of %d has %d ticks, run 1 %d\n", run + 1, repeat, t, ticks);
        return 1;
      }
      bestSeconds = std::min(bestSeconds, secs);
    }
  }

  const std::string types = std::to_string(sc.navTypes.size());
  const std::string on = noDefault ? "its " + types + " named agent type(s) (no " + meshPath + ")"
                                   : meshPath + (sc.navTypes.empty() ? "" : " and " + types + " more agent type(s)");
  std::printf("crowd: %s on %s: %d agent line(s) (MAXAGENTS %d, MAXRADIUS %g), %d not added, %d target(s) "
              "skipped, %d tick(s)\n",
              scenarioPath.c_str(), on.c_str(),
              sc.agentCount, sc.maxAgents, double(sc.maxAgentRadius), notAdded,
              skipped, ticks);
  if (ticks > 0)
    std::printf("update: %.4f ms per tick (%.3f ms in all%s)\n", bestSeconds * 1e3 / ticks, bestSeconds * 1e3,
                repeat > 1 ? (", fastest of " + std::to_string(repeat) + " identical runs").c_str() : "");
  if (!jsonPath.empty()) std::printf("trace: %s (%d line(s))\n", jsonPath.c_str(), ticks);
  if (!expectPath.empty()) {
    if (!expectDiff.empty()) {
      std::printf("expect: differs from %s: %s\n", expectPath.c_str(), expectDiff.c_str());
      return 1;
    }
    std::printf("expect: identical to %s (crowd.md's rule)\n", expectPath.c_str());
  }
  return 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(crowd, "crowd", "run a crowd scenario (.crowd.txt) and write its trace (JSONL)", runCrowd);
