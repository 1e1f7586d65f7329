// CmdCheck.cpp: `navbench check MESH.bin|LEVEL [options]` (issue 27): runs nav_check's checks
// (nav/check/NavCheck.h) on a tile set, or on a level (OBJ or level file) baked first as
// `navbench bake` would (its triangles then also feed the surface check), prints one line per
// check and writes the JSON / JUnit reports and baselines (nav/check/CheckReport.h).
// Exit: 0 when nothing at or above --fail-on is found, 1 when something is, 2 for bad input
// (a message naming the file or option; outputs are written atomically, none on bad input).
// Options are declared with base::Args (nav/base/Args.h), which also writes `navbench check --help`.
#include "app/cli/Cli.h"

#include "nav/NavMesh.h"
#include "nav/base/Args.h"
#include "nav/TileSetFile.h"
#include "nav/check/CheckReport.h"
#include "nav/check/NavCheck.h"

#if __has_include("nav/bake/StreamBake.h")
#include "nav/bake/LevelFile.h"
#include "nav/bake/StreamBake.h"
#define NAVBENCH_CHECK_CAN_BAKE 1
#endif

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace nav::check;

/// Bad input files or unwritable outputs: the message (it names the file); exit 2.
int badInput(const std::string& msg) {
  std::fprintf(stderr, "navbench check: %s\n", msg.c_str());
  return 2;
}

/// A bad option value that base::Args cannot check by itself: the message; exit 2.
int badOption(const std::string& msg) {
  std::fprintf(stderr, "navbench check: %s (see navbench check --help)\n", msg.c_str());
  return 2;
}

bool parseFlags(const std::string& s, long long* out) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 0);
  if (errno || !end || end == s.c_str() || *end || v < 0 || v > 0xffff) return false;
  *out = v;
  return true;
}

bool parseFloat(const char* s, float* out) {
  char* end = nullptr;
  const float v = std::strtof(s, &end);
  if (!end || end == s || *end || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

/// "X,Y,Z;X,Y,Z" -> seeds.
bool parseSeeds(const std::string& s, std::vector<Vec3>& out) {
  size_t i = 0;
  while (i <= s.size()) {
    const size_t semi = std::min(s.find(';', i), s.size());
    const std::string one = s.substr(i, semi - i);
    Vec3 v{};
    size_t p = 0;
    for (int k = 0; k < 3; ++k) {
      const size_t comma = k < 2 ? one.find(',', p) : one.size();
      if (comma == std::string::npos) return false;
      if (!parseFloat(one.substr(p, comma - p).c_str(), &v[size_t(k)])) return false;
      p = comma + 1;
    }
    out.push_back(v);
    i = semi + 1;
  }
  return !out.empty();
}

bool endsWith(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

/// Loads MESH.bin, or bakes a level (as `navbench bake`) into `mesh`; a level's triangles go to
/// verts/tris. False with `why`.
bool loadInput(const std::string& path, nav::NavMesh& mesh, std::vector<float>& verts, std::vector<int>& tris,
               int threads, std::string& why) {
  if (!endsWith(path, ".obj") && !endsWith(path, ".json")) {
    if (nav::statusSucceeded(nav::loadTileSetFile(path, mesh, &why))) return true;
    if (why.compare(0, path.size(), path) != 0) why = path + ": " + why;
    return false;
  }
#ifdef NAVBENCH_CHECK_CAN_BAKE
  nav::bake::FileBakeInput input;
  nav::bake::BakeSettings settings;
  if (!nav::bake::loadFileBakeInput(path, &input, &settings, &why)) return false;
  if (!settings.validate(&why)) return why = path + ": bad settings: " + why, false;
  char tmpl[] = "/tmp/navbench_check_XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd < 0) return why = "cannot create a temporary file for the bake", false;
  close(fd);
  nav::bake::BakeOptions opt;
  opt.threads = threads;
  nav::bake::BakeReport report;
  const bool ok = nav::bake::bakeFileToTileSet(input, settings, tmpl, opt, &report);
  const bool loaded = ok && nav::statusSucceeded(nav::loadTileSetFile(tmpl, mesh, &why));
  std::remove(tmpl);
  if (!ok) return why = path + ": " + report.error, false;
  if (!loaded) return false;
  nav::bake::BakeInput tri;
  nav::bake::BakeSettings unused;
  if (nav::bake::loadBakeInput(path, &tri, &unused, &why)) {
    verts.swap(tri.verts);
    tris.swap(tri.tris);
  }
  why.clear();
  return true;
#else
  (void)verts;
  (void)tris;
  (void)threads;
  why = path + ": this build has no baker (nav_bake): give a tile set (.bin)";
  return false;
#endif
}

bool loadTriangles(const std::string& path, std::vector<float>& verts, std::vector<int>& tris, std::string& why) {
#ifdef NAVBENCH_CHECK_CAN_BAKE
  nav::bake::BakeInput tri;
  nav::bake::BakeSettings unused;
  if (!nav::bake::loadBakeInput(path, &tri, &unused, &why)) return false;
  verts.swap(tri.verts);
  tris.swap(tri.tris);
  return true;
#else
  (void)verts;
  (void)tris;
  why = path + ": this build has no level reader (nav_bake)";
  return false;
#endif
}

int runCheck(int argc, char** argv) {
  std::string meshPath, levelPath, jsonOut, junitOut, writeBase, readBase, filterText, seedsText, htmlDir;
  std::string failOnText = "warning";
  CheckOptions opts;
  long long seed = 1;
  bool quiet = false;
  bool off[CHECK_COUNT] = {false, false, false, false, false, false, false};
  base::Args args("navbench check",
                  "Finds navmesh defects (issue 27): islands no seed reaches, long detours of Detour's path against "
                  "the exact shortest path, searches that run out of nodes, unlinked tile seams, off-mesh links "
                  "landing nowhere, narrow portals and (with the level's triangles) a floating or sunken surface. "
                  "A LEVEL (.obj or level .json) is baked first as `navbench bake` would. Exit 0: nothing at or "
                  "above --fail-on found; 1: something is; 2: bad input.");
  args.positional("MESH.bin|LEVEL", &meshPath, "tile set (MSET), or a level to bake")
      .text("--filter", "INC,EXC", &filterText, "poly flags to include / exclude (default 0xffef,0x0)")
      .text("--seeds", "X,Y,Z[;X,Y,Z]", &seedsText, "reachability seeds (default: the biggest island)")
      .integer("--pairs", "N", &opts.pairs, 1, 10000000, "random pairs for detours and node budget")
      .integer("--seed", "S", &seed, 0, 1LL << 62, "pair generator seed (same seed, same pairs)")
      .number("--detour-ratio", "R", &opts.detourRatio, 1.0, 1000.0, "detour finding at Detour / shortest >= R")
      .number("--detour-min", "M", &opts.detourMinExtra, 0.0, 1e6, "... and at least M m longer")
      .integer("--node-budget", "N", &opts.nodeBudget, 1, 65535, "findPath's node pool")
      .number("--min-width", "W", &opts.minWidth, 1e-6, 1e3, "narrow portal below W m")
      .number("--climb", "C", &opts.walkableClimb, 0.0, 1e3, "walkable climb for seams and surface (default: the tiles')")
      .text("--level", "OBJ|LEVEL", &levelPath, "the level's triangles for the surface check (with MESH.bin)")
      .integer("--threads", "N", &opts.threads, 0, 64, "pair workers (0: all cores)")
      .text("--json", "OUT.json", &jsonOut, "the JSON report")
      .text("--junit", "OUT.xml", &junitOut, "JUnit XML: one testsuite, one testcase per check")
      .text("--html", "DIR", &htmlDir, "(not implemented yet)")
      .text("--write-baseline", "FILE", &writeBase, "record today's findings")
      .text("--baseline", "FILE", &readBase, "report only findings not in FILE (same kind, within 0.5 m)")
      .text("--fail-on", "error|warning", &failOnText, "exit 1 when such a finding is left")
      .flag("--no-islands", &off[CHECK_ISLANDS], "skip the islands check")
      .flag("--no-detours", &off[CHECK_DETOURS], "skip the long detours check")
      .flag("--no-budget", &off[CHECK_BUDGET], "skip the node budget check")
      .flag("--no-seams", &off[CHECK_SEAMS], "skip the tile seams check")
      .flag("--no-links", &off[CHECK_LINKS], "skip the off-mesh links check")
      .flag("--no-narrow", &off[CHECK_NARROW], "skip the narrow passages check")
      .flag("--no-surface", &off[CHECK_SURFACE], "skip the surface check")
      .flag("-q, --quiet", &quiet, "no per-check lines");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;
  opts.seed = uint64_t(seed);
  opts.islands = !off[CHECK_ISLANDS];
  opts.detours = !off[CHECK_DETOURS];
  opts.budget = !off[CHECK_BUDGET];
  opts.seams = !off[CHECK_SEAMS];
  opts.links = !off[CHECK_LINKS];
  opts.narrow = !off[CHECK_NARROW];
  opts.surface = !off[CHECK_SURFACE];
  nav::QueryFilter filter = defaultCheckFilter();
  if (!filterText.empty()) {
    const size_t c = filterText.find(',');
    long long inc = 0, exc = 0;
    if (c == std::string::npos || !parseFlags(filterText.substr(0, c), &inc) || !parseFlags(filterText.substr(c + 1), &exc))
      return badOption("--filter needs INC,EXC (numbers in 0..0xffff), not '" + filterText + "'");
    filter.setIncludeFlags(uint16_t(inc));
    filter.setExcludeFlags(uint16_t(exc));
  }
  if (!seedsText.empty() && !parseSeeds(seedsText, opts.seeds))
    return badOption("--seeds needs X,Y,Z[;X,Y,Z...] with finite numbers, not '" + seedsText + "'");
  Severity failOn = SEVERITY_WARNING;
  if (failOnText == "error") failOn = SEVERITY_ERROR;
  else if (failOnText != "warning") return badOption("--fail-on needs error or warning, not '" + failOnText + "'");
  if (!htmlDir.empty()) return badOption("--html is not implemented yet");
  std::string why;
  if (!opts.validate(&why)) return badOption(why);

  Baseline baseline;
  if (!readBase.empty() && !readBaseline(readBase, baseline, &why)) return badInput("--baseline: " + why);
  nav::NavMesh mesh;
  std::vector<float> verts;
  std::vector<int> tris;
  if (!loadInput(meshPath, mesh, verts, tris, opts.threads, why)) return badInput(why);
  if (!levelPath.empty() && !loadTriangles(levelPath, verts, tris, why)) return badInput("--level: " + why);
  LevelTriangles level;
  level.verts = verts.data();
  level.vertCount = int(verts.size() / 3);
  level.tris = tris.data();
  level.triCount = int(tris.size() / 3);

  const auto t0 = std::chrono::steady_clock::now();
  CheckResult result;
  const nav::Status st = runChecks(mesh, filter, opts, result, &why, level.triCount ? &level : nullptr);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (nav::statusFailed(st)) return badInput(meshPath + ": " + why);
  if (!writeBase.empty() && !writeBaseline(writeBase, result, &why)) return badInput(why);
  int known = 0;
  if (!readBase.empty()) known = filterNew(result, baseline);

  if (!jsonOut.empty() && !writeJsonReport(jsonOut, reportJson(meshPath, result, opts), &why)) return badInput(why);
  if (!junitOut.empty() && !writeTextFile(junitOut, reportJunit({{meshPath, &result}}), &why)) return badInput(why);

  if (!quiet) {
    std::printf("%s: %d polys, %zu islands, %d pairs run (%d skipped), worst ratio %.3f, %.2f s\n", meshPath.c_str(),
                result.polyCount, result.islands.size(), result.pairsRun, result.pairsSkipped, double(result.worstRatio), secs);
    for (int k = 0; k < CHECK_COUNT; ++k) {
      if (!result.ran[k]) {
        std::printf("  %-8s skipped%s\n", checkName(k), k == CHECK_SURFACE ? " (no level triangles)" : "");
        continue;
      }
      const int n = findingCount(result, k);
      std::printf("  %-8s %s (%d %s%s)\n", checkName(k), n ? "FAIL" : "ok", n, severityName(checkSeverity(k)),
                  n == 1 ? "" : "s");
      for (const std::string& line : describeFindings(result, k, 5)) std::printf("      %s\n", line.c_str());
    }
    if (!readBase.empty()) std::printf("  %d finding(s) known from %s\n", known, readBase.c_str());
  }
  return hasFailures(result, failOn) ? 1 : 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(check, "check", "find navmesh defects: islands, long detours, node budget, seams, links, narrow portals, surface", runCheck);
