// CmdCheck.cpp: `navbench check MESH.bin|LEVEL [options]` (issue 27): runs nav_check's checks
// (nav/check/NavCheck.h) on a tile set, or on a level (OBJ or level file) baked first as
// `navbench bake` would (its triangles then also feed the surface check), prints one line per
// check and writes the JSON / JUnit reports and baselines (nav/check/CheckReport.h).
// Exit: 0 when nothing at or above --fail-on is found, 1 when something is, 2 for bad input
// (a message naming the file or option; outputs are written atomically, none on bad input).
// Arguments are parsed here by hand, like the other subcommands (nav/base/Args.h was not on main).
#include "app/cli/Cli.h"

#include "nav/NavMesh.h"
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

const char* kUsage =
    "usage: navbench check MESH.bin|LEVEL(.obj|.json) [options]\n"
    "  --filter INC,EXC        poly flags to include / exclude (default 0xffef,0x0)\n"
    "  --seeds X,Y,Z[;X,Y,Z]   reachability seeds (default: the biggest island)\n"
    "  --pairs N --seed S      random pairs for detours and node budget (default 2000, 1)\n"
    "  --detour-ratio R        detour finding at Detour / shortest >= R (default 1.15)\n"
    "  --detour-min M          ... and at least M m longer (default 2)\n"
    "  --node-budget N         findPath's node pool (default 2048)\n"
    "  --min-width W           narrow portal below W m (default 0.1)\n"
    "  --climb C               walkable climb for seams and surface (default: the tiles')\n"
    "  --level OBJ|LEVEL       the level's triangles for the surface check (with MESH.bin)\n"
    "  --no-islands, --no-detours, --no-budget, --no-seams, --no-links, --no-narrow, --no-surface\n"
    "  --threads N             pair workers (default: all cores)\n"
    "  --json OUT --junit OUT.xml --write-baseline FILE --baseline FILE\n"
    "  --fail-on error|warning exit 1 when such a finding is left (default warning)\n"
    "  -q, --quiet             no per-check lines\n";

/// Bad options: the message and the usage; exit 2.
int bad(const std::string& msg) {
  std::fprintf(stderr, "navbench check: %s\n%s", msg.c_str(), kUsage);
  return 2;
}
/// Bad input files or unwritable outputs: the message (it names the file); exit 2.
int badInput(const std::string& msg) {
  std::fprintf(stderr, "navbench check: %s\n", msg.c_str());
  return 2;
}

bool parseLong(const char* s, long long lo, long long hi, long long* out) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s, &end, 0);
  if (errno || !end || end == s || *end || v < lo || v > hi) return false;
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
  if (!endsWith(path, ".obj") && !endsWith(path, ".json"))
    return nav::statusSucceeded(nav::loadTileSetFile(path, mesh, &why));
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
  std::string meshPath, levelPath, jsonOut, junitOut, writeBase, readBase;
  CheckOptions opts;
  nav::QueryFilter filter = defaultCheckFilter();
  Severity failOn = SEVERITY_WARNING;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* what) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)what;
      return argv[++i];
    };
    long long n = 0;
    float f = 0;
    if (a == "--filter") {
      const char* v = value("--filter");
      if (!v) return bad("--filter needs INC,EXC");
      const std::string s = v;
      const size_t c = s.find(',');
      long long inc = 0, exc = 0;
      if (c == std::string::npos || !parseLong(s.substr(0, c).c_str(), 0, 0xffff, &inc) ||
          !parseLong(s.substr(c + 1).c_str(), 0, 0xffff, &exc))
        return bad("--filter needs INC,EXC (numbers in 0..0xffff), got \"" + s + "\"");
      filter.setIncludeFlags(uint16_t(inc));
      filter.setExcludeFlags(uint16_t(exc));
    } else if (a == "--seeds") {
      const char* v = value("--seeds");
      if (!v || !parseSeeds(v, opts.seeds)) return bad("--seeds needs X,Y,Z[;X,Y,Z...] with finite numbers");
    } else if (a == "--pairs") {
      const char* v = value("--pairs");
      if (!v || !parseLong(v, 1, 10000000, &n)) return bad("--pairs needs a number in 1..10000000");
      opts.pairs = int(n);
    } else if (a == "--seed") {
      const char* v = value("--seed");
      if (!v || !parseLong(v, 0, (1ll << 62), &n)) return bad("--seed needs a number >= 0");
      opts.seed = uint64_t(n);
    } else if (a == "--detour-ratio" || a == "--detour-min" || a == "--min-width" || a == "--climb") {
      const char* v = value(a.c_str());
      if (!v || !parseFloat(v, &f)) return bad(a + " needs a finite number");
      if (a == "--detour-ratio") opts.detourRatio = f;
      else if (a == "--detour-min") opts.detourMinExtra = f;
      else if (a == "--min-width") opts.minWidth = f;
      else opts.walkableClimb = f;
    } else if (a == "--node-budget") {
      const char* v = value(a.c_str());
      if (!v || !parseLong(v, 1, 65535, &n)) return bad("--node-budget needs a number in 1..65535");
      opts.nodeBudget = int(n);
    } else if (a == "--threads") {
      const char* v = value(a.c_str());
      if (!v || !parseLong(v, 0, 64, &n)) return bad("--threads needs a number in 0..64");
      opts.threads = int(n);
    } else if (a == "--fail-on") {
      const char* v = value(a.c_str());
      if (v && std::strcmp(v, "error") == 0) failOn = SEVERITY_ERROR;
      else if (v && std::strcmp(v, "warning") == 0) failOn = SEVERITY_WARNING;
      else return bad("--fail-on needs error or warning");
    } else if (a == "--json" || a == "--junit" || a == "--write-baseline" || a == "--baseline" || a == "--level") {
      const char* v = value(a.c_str());
      if (!v || !*v) return bad(a + " needs a file");
      (a == "--json" ? jsonOut : a == "--junit" ? junitOut : a == "--write-baseline" ? writeBase
                                                             : a == "--baseline"     ? readBase
                                                                                     : levelPath) = v;
    } else if (a == "--html") {
      return bad("--html is not implemented yet");
    } else if (a == "-q" || a == "--quiet") {
      quiet = true;
    } else if (a.compare(0, 5, "--no-") == 0) {
      const std::string c = a.substr(5);
      bool* flags[CHECK_COUNT] = {&opts.islands, &opts.detours, &opts.budget, &opts.seams, &opts.links, &opts.narrow, &opts.surface};
      bool found = false;
      for (int k = 0; k < CHECK_COUNT; ++k)
        if (c == checkName(k)) *flags[k] = !(found = true);
      if (!found) return bad("unknown option " + a);
    } else if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return bad("unknown option " + a);
    } else if (meshPath.empty()) {
      meshPath = a;
    } else {
      return bad("more than one MESH given (\"" + meshPath + "\", \"" + a + "\")");
    }
  }
  if (meshPath.empty()) return bad("no MESH.bin or LEVEL given");
  std::string why;
  if (!opts.validate(&why)) return bad(why);

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
