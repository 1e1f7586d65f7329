// CmdCheck.cpp: `navbench check MESH.bin|LEVEL [options]` (issue 27): runs nav_check's checks
// (nav/check/NavCheck.h) on a tile set, or on a level (OBJ or level file) baked first as
// `navbench bake` would (its triangles then also feed the surface check), prints one line per
// check and writes the JSON / JUnit reports and baselines (nav/check/CheckReport.h).
// Exit: 0 when nothing at or above --fail-on is found, 1 when something is, 2 for bad input
// (a message naming the file or option; outputs are written atomically, none on bad input).
// The first --why N islands, detours and budget findings carry their explanation (nav/explain: causes,
// each with a change that was run) in the JSON ("why") and the HTML rows.
// A level file with `agents` (nav/bake/Agents.h) is checked once per agent type, each on its own
// bake with its own seeds; a seed off its type's navmesh is an islands finding. The JSON is then
// {"mesh", "agents": [one report per type, with "agent": NAME]}, the JUnit one testsuite per type.
// Options are declared with base::Args (nav/base/Args.h), which also writes `navbench check --help`.
#include "app/cli/Cli.h"

#include "nav/NavMesh.h"
#include "nav/base/Args.h"
#include "nav/TileSetFile.h"
#include "nav/check/AgentSeeds.h"
#include "nav/check/CheckHtml.h"
#include "nav/check/CheckReport.h"
#include "nav/check/NavCheck.h"
#include "nav/explain/ExplainFindings.h"
#include "nav/explain/ExplainJson.h"

#if __has_include("nav/bake/StreamBake.h")
#include "nav/bake/LevelFile.h"
#include "nav/bake/LevelMesh.h"
#include "nav/bake/StreamBake.h"
#define NAVBENCH_CHECK_CAN_BAKE 1
#endif

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <fcntl.h>
#include <filesystem>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace nav::check;
namespace fs = std::filesystem;

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

/// A level (a mesh .obj/.gltf/.glb, or a level .json) rather than a tile set: baked first.
bool isLevelPath(const std::string& path) {
#ifdef NAVBENCH_CHECK_CAN_BAKE
  return endsWith(path, ".json") || nav::bake::isLevelMeshPath(path);
#else
  return endsWith(path, ".obj") || endsWith(path, ".json");
#endif
}

/// Loads MESH.bin, or bakes a level (as `navbench bake`) into `mesh`; a level's triangles go to
/// verts/tris when `triangles`. A level with agents bakes agent type `agent` (its items and
/// settings; Agents.h). False with `why`.
bool loadInput(const std::string& path, nav::NavMesh& mesh, std::vector<float>& verts, std::vector<int>& tris,
               int threads, std::string& why, int agent = 0, bool triangles = true) {
  if (!isLevelPath(path)) {
    if (nav::statusSucceeded(nav::loadTileSetFile(path, mesh, &why))) return true;
    if (why.compare(0, path.size(), path) != 0) why = path + ": " + why;
    return false;
  }
#ifdef NAVBENCH_CHECK_CAN_BAKE
  nav::bake::FileBakeInput input;
  nav::bake::BakeSettings settings;
  nav::bake::Level lv;
  if (!nav::bake::loadFileBakeInput(path, &input, &settings, &why, &lv)) return false;
  if (!lv.agents.empty()) {
    input = nav::bake::inputForAgent(input, agent);
    settings = nav::bake::agentSettings(lv, agent);
  }
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
  if (triangles && nav::bake::loadBakeInput(path, &tri, &unused, &why)) {
    verts.swap(tri.verts);
    tris.swap(tri.tris);
  }
  why.clear();
  return true;
#else
  (void)verts;
  (void)tris;
  (void)threads;
  (void)agent;
  (void)triangles;
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

/// A level file's `seeds` (nav/bake/LevelFile.h) into `opts` (nav/check/AgentSeeds.h: the Check
/// panel takes them the same way); nothing for other paths. `agent` >= 0: only the seeds for that
/// agent type, a seed off its navmesh a finding. False with `why`.
bool levelSeeds(const std::string& path, CheckOptions& opts, std::string& why, int agent = -1) {
  if (!endsWith(path, ".json")) return true;
#ifdef NAVBENCH_CHECK_CAN_BAKE
  nav::bake::Level level;
  if (!nav::bake::loadLevelFile(path, &level, &why)) return false;
  addAgentSeeds(opts, level.seeds, level.seedAgents, agent);
#else
  (void)opts;
  (void)why;
  (void)agent;
#endif
  return true;
}

/// One agent type to check: its index in the level's `agents` and its name ("" for a level
/// without agents or a tile set).
struct AgentToCheck {
  int index = 0;
  std::string name;
};

/// The agent types to check: every type of the level file `agentsFile` (MESH's, else --level's)
/// or the one --agent names; one unnamed entry for a level without agents. `agent` for a file
/// without agents, or naming none of them, is bad input. False with `why`.
bool agentsToCheck(const std::string& agentsFile, const std::string& agent, std::vector<AgentToCheck>& out, std::string& why) {
  std::vector<std::string> names;
#ifdef NAVBENCH_CHECK_CAN_BAKE
  if (endsWith(agentsFile, ".json")) {
    nav::bake::Level level;
    if (!nav::bake::loadLevelFile(agentsFile, &level, &why)) return false;
    for (const nav::bake::AgentType& a : level.agents) names.push_back(a.name);
  }
#endif
  out.clear();
  if (agent.empty()) {
    for (size_t i = 0; i < names.size(); ++i) out.push_back(AgentToCheck{int(i), names[i]});
    if (out.empty()) out.push_back(AgentToCheck{});
    return true;
  }
  if (agentsFile.empty()) return why = "--agent " + agent + ": needs a level file with agents (LEVEL.json, or --level)", false;
  if (names.empty()) return why = "--agent " + agent + ": " + agentsFile + " declares no agents", false;
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == agent) return out.push_back(AgentToCheck{int(i), agent}), true;
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  return why = "--agent " + agent + ": unknown agent in " + agentsFile + " (its agents: " + known + ")", false;
}

/// The viewer beside this executable (as app/CliMain.cpp starts it), or "" when there is none.
std::string viewerPath() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const fs::path viewer = self.parent_path() / "navbench-viewer";
  return access(viewer.c_str(), X_OK) == 0 ? viewer.string() : std::string();
}

/// Runs the viewer headless (SDL's offscreen driver) on a scenario, writing a 320x180 PNG of the 3D
/// view, killed after `seconds`. True when it exited 0 and wrote the picture; else `why`.
bool runThumbnail(const std::string& viewer, const std::string& scenario, const std::string& png, double seconds,
                  std::string& why) {
  const pid_t pid = fork();
  if (pid < 0) return why = std::string("cannot start the viewer: ") + std::strerror(errno), false;
  if (pid == 0) {
    setenv("SDL_VIDEODRIVER", "offscreen", 1);
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, 1);
      dup2(null, 2);
    }
    const char* argv[] = {viewer.c_str(), scenario.c_str(), "--screenshot", png.c_str(), "--size", "320x180",
                          "--view-only", nullptr};
    execv(viewer.c_str(), const_cast<char* const*>(argv));
    _exit(127);
  }
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return why = "lost the viewer process", false;
    if (std::chrono::steady_clock::now() >= end) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      char b[96];
      std::snprintf(b, sizeof(b), "the viewer took longer than %.0f s", seconds);
      return why = b, false;
    }
    usleep(10000);
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    why = "the viewer " + viewer +
          (WIFEXITED(status) ? " exited with " + std::to_string(WEXITSTATUS(status)) : std::string(" was killed by a signal"));
    return false;
  }
  std::error_code ec;
  if (!fs::is_regular_file(png, ec)) return why = "the viewer wrote no picture", false;
  return true;
}

/// A path as a scenario in `dir` names it: relative to the folder (scenarios resolve paths against
/// their own folder), "" stays "".
std::string relativeTo(const std::string& path, const fs::path& dir) {
  if (path.empty()) return "";
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec).lexically_normal();
  const fs::path rel = abs.lexically_relative(dir);
  return rel.empty() ? abs.string() : rel.string();
}

/// The explanation of a finding (islands: index in CheckResult::islands), or null.
const nav::explain::FindingExplanation* explanationOf(const nav::explain::FindingExplanations& fe, int kind, int index) {
  const std::vector<nav::explain::FindingExplanation>* list =
      kind == CHECK_ISLANDS ? &fe.islands : kind == CHECK_DETOURS ? &fe.detours : kind == CHECK_BUDGET ? &fe.budget : nullptr;
  if (!list) return nullptr;
  for (const nav::explain::FindingExplanation& f : *list)
    if (f.index == index) return &f;
  return nullptr;
}

/// The explanation lines of an HTML row (its index counts findings; islands count only findings).
std::vector<std::string> rowWhy(const HtmlFinding& row, const CheckResult& r, const nav::explain::FindingExplanations& fe) {
  int index = row.index;
  if (row.kind == CHECK_ISLANDS) {
    index = -1;
    for (size_t i = 0, n = 0; i < r.islands.size() && index < 0; ++i)
      if (r.islands[i].isFinding() && int(n++) == row.index) index = int(i);
  }
  const nav::explain::FindingExplanation* f = explanationOf(fe, row.kind, index);
  if (!f) return {};
  std::vector<std::string> lines = nav::explain::describeCauses(f->explanation);
  if (lines.empty()) lines.push_back("no change tried (filter, area costs, budget, link, any-angle search) changes this answer");
  return lines;
}

/// A detour row framed on both paths (Detour's and the exact shortest), which often reach far
/// beyond the segment between the pair's ends.
void frameBothPaths(HtmlFinding& row, const nav::explain::FindingExplanations& fe) {
  const nav::explain::FindingExplanation* f = row.kind == CHECK_DETOURS ? explanationOf(fe, row.kind, row.index) : nullptr;
  if (!f) return;
  Vec3 lo = row.start, hi = row.start;
  auto grow = [&](const std::vector<float>& pts) {
    for (size_t i = 0; i + 2 < pts.size(); i += 3)
      for (int c = 0; c < 3; ++c) {
        lo[size_t(c)] = std::min(lo[size_t(c)], pts[i + size_t(c)]);
        hi[size_t(c)] = std::max(hi[size_t(c)], pts[i + size_t(c)]);
      }
  };
  grow({row.end[0], row.end[1], row.end[2]});
  grow(f->explanation.answer.straight);
  grow(f->explanation.exactStraight);
  for (int c = 0; c < 3; ++c) row.pos[size_t(c)] = 0.5f * (lo[size_t(c)] + hi[size_t(c)]);
  row.extent = std::max(row.extent, std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                              (hi[2] - lo[2]) * (hi[2] - lo[2])));
}

/// The JSON report with each explained finding's causes under "why".
void addWhyJson(nlohmann::json& j, const nav::explain::FindingExplanations& fe) {
  auto add = [&](const char* key, const std::vector<nav::explain::FindingExplanation>& list) {
    for (const nav::explain::FindingExplanation& f : list) {
      if (!j.contains(key) || size_t(f.index) >= j[key].size()) continue;
      nlohmann::json causes = nlohmann::json::array();
      for (const nav::explain::Cause& c : f.explanation.causes) causes.push_back(nav::explain::causeJson(c));
      j[key][size_t(f.index)]["why"] = causes;
    }
  };
  add("islands", fe.islands);
  add("detours", fe.detours);
  add("budget", fe.budget);
}

struct HtmlJob {
  std::string dir;       ///< The report folder (replaced atomically).
  std::string meshPath;  ///< As given on the command line.
  std::string levelPath; ///< The level for the scenarios ("" = none).
  bool meshIsLevel = false;
  int maxRows = 50;
  double seconds = 120;  ///< For all thumbnails together.
  bool seedsGiven = false; ///< --seeds: the viewer, which takes the level file's, would find other islands.
};

/// An island row's scenario selects the island in the Check panel's model (the viewer runs the
/// islands check alone, with these options, on the same tile set: deterministic, so the same
/// island), which tints it and dims the rest. `index` counts findings; the selection is an index
/// into CheckResult::islands. Nothing added for other rows or when the island is not found.
void selectIsland(nlohmann::json& scenario, const HtmlFinding& row, const CheckResult& r, const CheckOptions& o,
                  const nav::QueryFilter& filter) {
  if (row.kind != CHECK_ISLANDS) return;
  int index = -1;
  for (size_t i = 0, n = 0; i < r.islands.size() && index < 0; ++i)
    if (r.islands[i].isFinding() && int(n++) == row.index) index = int(i);
  if (index < 0) return;
  scenario["check"] = {{"options",
                        {{"checks", {"islands"}},
                         {"pairs", o.pairs},
                         {"seed", o.seed},
                         {"includeFlags", filter.getIncludeFlags()},
                         {"excludeFlags", filter.getExcludeFlags()},
                         {"detourRatio", o.detourRatio},
                         {"detourMin", o.detourMinExtra},
                         {"nodeBudget", o.nodeBudget},
                         {"minWidth", o.minWidth}}},
                       {"selected", {{"kind", "islands"}, {"index", index}}},
                       {"heatmap", false},
                       {"visible", false}};
}

/// Writes the HTML report folder: index.html, one scenario per row (finding-NN.json) and its
/// thumbnail (finding-NN.png) while the viewer works and time is left; built in a sibling temp
/// folder (so relative paths are the same) and renamed into place. False with `why`.
bool writeHtmlReport(const HtmlJob& job, const nav::NavMesh& mesh, const CheckResult& result,
                     const nav::QueryFilter& filter, const CheckOptions& opts,
                     const nav::explain::FindingExplanations& explained, std::string& why) {
  std::error_code ec;
  const fs::path dir = fs::absolute(job.dir, ec).lexically_normal();
  const fs::path target = dir.filename().empty() ? dir.parent_path() : dir;
  if (fs::exists(target, ec) && !fs::is_directory(target, ec))
    return why = "--html " + job.dir + ": exists and is not a folder", false;
  std::string tmpl = (target.parent_path() / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  if (!mkdtemp(tmpl.data()))
    return why = "--html " + job.dir + ": cannot create a folder beside it: " + std::strerror(errno), false;
  const fs::path tmp = tmpl;
  const mode_t mask = umask(0); // mkdtemp makes it 0700; the report is for others to read too
  umask(mask);
  chmod(tmp.c_str(), 0777 & ~mask);
  auto fail = [&](const std::string& msg) {
    fs::remove_all(tmp, ec);
    why = msg;
    return false;
  };

  ScenarioFiles files;
  if (job.meshIsLevel) {
    // The baked tile set goes with the report, so each scenario reopens exactly what was checked.
    if (nav::statusFailed(nav::saveTileSetFile(mesh, (tmp / "navmesh.bin").string(), &why)))
      return fail("--html " + job.dir + ": " + why);
    files.level = relativeTo(job.meshPath, target);
    files.navmesh = "navmesh.bin";
  } else {
    files.navmesh = relativeTo(job.meshPath, target);
    files.level = relativeTo(job.levelPath, target);
  }
  std::vector<HtmlFinding> rows = worstFindings(result, job.maxRows);
  for (HtmlFinding& row : rows) {
    row.why = rowWhy(row, result, explained);
    frameBothPaths(row, explained);
  }
  const std::string viewer = viewerPath();
  std::string note = viewer.empty() ? "No pictures: the viewer (navbench-viewer) is not installed beside navbench." : "";
  const auto t0 = std::chrono::steady_clock::now();
  int pictures = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "finding-%02d", int(i + 1));
    const std::string scen = std::string(name) + ".json", png = std::string(name) + ".png";
    nlohmann::json scenario = findingScenario(rows[i], files, filter, opts.nodeBudget);
    if (!job.seedsGiven) selectIsland(scenario, rows[i], result, opts, filter);
    const std::string text = scenario.dump(2) + "\n";
    if (!writeTextFile((tmp / scen).string(), text, &why)) return fail("--html " + job.dir + ": " + why);
    rows[i].scenario = scen;
    if (!note.empty()) continue;
    const double left = job.seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::string vwhy;
    if (left <= 0.5) {
      note = "Pictures for the first " + std::to_string(pictures) + " findings only: the time for pictures (" +
             std::to_string(int(job.seconds)) + " s, --html-time) ran out.";
    } else if (runThumbnail(viewer, (tmp / scen).string(), (tmp / png).string(), std::min(left, 60.0), vwhy)) {
      rows[i].image = png;
      ++pictures;
    } else {
      fs::remove(tmp / png, ec);
      note = "Pictures for the first " + std::to_string(pictures) + " findings only: finding " + std::to_string(i + 1) +
             ": " + vwhy + ".";
    }
  }
  if (!writeTextFile((tmp / "index.html").string(), reportHtml(job.meshPath, result, rows, note), &why))
    return fail("--html " + job.dir + ": " + why);
  // Replace the old folder: move it aside, move the new one in, then delete the old one.
  fs::path old;
  if (fs::exists(target, ec)) {
    std::string otmpl = (target.parent_path() / ("." + target.filename().string() + ".old-XXXXXX")).string();
    if (!mkdtemp(otmpl.data())) return fail("--html " + job.dir + ": cannot replace it: " + std::strerror(errno));
    old = otmpl;
    fs::rename(target, old, ec);
    if (ec) {
      fs::remove_all(old, ec);
      return fail("--html " + job.dir + ": cannot replace it: " + ec.message());
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    const std::string msg = ec.message();
    if (!old.empty()) fs::rename(old, target, ec);
    return fail("--html " + job.dir + ": " + msg);
  }
  if (!old.empty()) fs::remove_all(old, ec);
  if (!note.empty()) std::fprintf(stderr, "navbench check: --html: %s\n", note.c_str());
  return true;
}

int runCheck(int argc, char** argv) {
  std::string meshPath, levelPath, jsonOut, junitOut, writeBase, readBase, filterText, seedsText, htmlDir, agent;
  std::string failOnText = "warning";
  CheckOptions opts;
  long long seed = 1;
  bool quiet = false;
  int htmlMax = 50;
  int whyMax = 10;
  float htmlTime = 120;
  bool off[CHECK_COUNT] = {false, false, false, false, false, false, false};
  base::Args args("navbench check",
                  "Finds navmesh defects: islands no seed reaches, long detours of Detour's path against "
                  "the exact shortest path, searches that run out of nodes, unlinked tile seams, off-mesh links "
                  "landing nowhere, narrow portals and (with the level's triangles) a floating or sunken surface. "
                  "A LEVEL (.obj, .gltf, .glb or level .json) is baked first as `navbench bake` would. Exit 0: nothing at or "
                  "above --fail-on found; 1: something is; 2: bad input.");
  args.positional("MESH.bin|LEVEL", &meshPath, "tile set (MSET), or a level to bake")
      .text("--filter", "INC,EXC", &filterText, "poly flags to include / exclude (default 0xffef,0x0)")
      .text("--seeds", "X,Y,Z[;X,Y,Z]", &seedsText, "reachability seeds (default: the level file's `seeds`, else the biggest island)")
      .integer("--pairs", "N", &opts.pairs, 1, 10000000, "random pairs for detours and node budget")
      .integer("--seed", "S", &seed, 0, 1LL << 62, "pair generator seed (same seed, same pairs)")
      .number("--detour-ratio", "R", &opts.detourRatio, 1.0, 1000.0, "detour finding at Detour / shortest >= R")
      .number("--detour-min", "M", &opts.detourMinExtra, 0.0, 1e6, "... and at least M m longer")
      .integer("--node-budget", "N", &opts.nodeBudget, 1, 65535, "findPath's node pool")
      .number("--min-width", "W", &opts.minWidth, 1e-6, 1e3, "narrow portal below W m")
      .number("--climb", "C", &opts.walkableClimb, 0.0, 1e3, "walkable climb for seams and surface (default: the tiles')")
      .text("--level", "OBJ|LEVEL", &levelPath, "the level's triangles for the surface check (with MESH.bin)")
      .text("--agent", "NAME", &agent,
            "check only this agent type of the level's `agents` (default: every type, each with its\n"
            "own bake and seeds; --html, --baseline and --write-baseline files get .NAME before\n"
            "their extension)")
      .integer("--threads", "N", &opts.threads, 0, 64, "pair workers (0: all cores)")
      .text("--json", "OUT.json", &jsonOut, "the JSON report")
      .text("--junit", "OUT.xml", &junitOut, "JUnit XML: one testsuite (per agent type), one testcase per check")
      .text("--html", "DIR", &htmlDir, "HTML report folder: summary, the worst findings with viewer pictures and scenarios")
      .integer("--html-max", "N", &htmlMax, 0, 1000, "findings with a row (and a picture) in the HTML report")
      .integer("--why", "N", &whyMax, 0, 1000,
               "explain the first N islands, detours and budget findings (as `navbench why`; JSON \"why\", HTML)")
      .number("--html-time", "S", &htmlTime, 0.0, 86400.0, "seconds for all HTML pictures together")
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
  std::string why;
  if (!opts.validate(&why)) return badOption(why);

  // The agent types: a level with `agents` is checked once per type (its own bake, seeds and
  // outputs), else once, as a tile set or a level without agents.
  std::vector<AgentToCheck> agents;
  const std::string agentsFile = endsWith(meshPath, ".json") ? meshPath : levelPath;
  if (!agentsToCheck(agentsFile, agent, agents, why)) return badInput(why);
  const bool perAgent = !agents[0].name.empty();
  // Per-agent files: the name before the extension (nav/bake/Agents.h's agentFilePath).
  auto fileFor = [&](const std::string& path, const AgentToCheck& a) {
#ifdef NAVBENCH_CHECK_CAN_BAKE
    if (perAgent) return nav::bake::agentFilePath(path, a.name);
#else
    (void)a;
#endif
    return path;
  };

  struct Run {
    AgentToCheck agent;
    std::string label; ///< The mesh as reports name it ("MESH", or "MESH (agent NAME)")
    CheckOptions opts;
    nav::NavMesh mesh;
    CheckResult result, unfiltered;
    int known = 0;
    nav::explain::FindingExplanations explained;
    double secs = 0;
  };
  std::vector<std::unique_ptr<Run>> runs;
  std::vector<float> verts;
  std::vector<int> tris;
  for (const AgentToCheck& a : agents) {
    auto run = std::make_unique<Run>();
    Run& r = *run;
    r.agent = a;
    r.label = perAgent ? meshPath + " (agent " + a.name + ")" : meshPath;
    r.opts = opts;
    const std::string problemOf = perAgent ? "agent " + a.name + ": " : "";
    Baseline baseline;
    if (!readBase.empty() && !readBaseline(fileFor(readBase, a), baseline, &why)) return badInput("--baseline: " + why);
    const bool first = runs.empty();
    if (!loadInput(meshPath, r.mesh, verts, tris, opts.threads, why, a.index, first)) return badInput(problemOf + why);
    if (first && !levelPath.empty() && !loadTriangles(levelPath, verts, tris, why)) return badInput("--level: " + why);
    // No --seeds: the level file's for this type (the one checked, else --level's).
    const int seedAgent = perAgent ? a.index : -1;
    // (A type's seed off its navmesh is where that type cannot stand: a finding, not bad input.)
    if (seedsText.empty() &&
        (!levelSeeds(meshPath, r.opts, why, seedAgent) ||
         (r.opts.seeds.empty() && !levelPath.empty() && !levelSeeds(levelPath, r.opts, why, seedAgent))))
      return badInput(why);
    LevelTriangles level;
    level.verts = verts.data();
    level.vertCount = int(verts.size() / 3);
    level.tris = tris.data();
    level.triCount = int(tris.size() / 3);

    const auto t0 = std::chrono::steady_clock::now();
    const nav::Status st = runChecks(r.mesh, filter, r.opts, r.result, &why, level.triCount ? &level : nullptr);
    r.secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (nav::statusFailed(st)) return badInput(meshPath + ": " + problemOf + why);
    if (!writeBase.empty()) r.unfiltered = r.result;
    if (!readBase.empty()) r.known = filterNew(r.result, baseline);
    if (whyMax > 0 && (!htmlDir.empty() || !jsonOut.empty()))
      r.explained = nav::explain::explainFindings(r.mesh, filter, r.opts, r.result, whyMax);
    runs.push_back(std::move(run));
  }

  // Outputs after everything that can fail on input: the HTML folders (the slowest) first.
  if (!htmlDir.empty())
    for (const auto& r : runs) {
      HtmlJob job;
      job.dir = fileFor(htmlDir, r->agent);
      job.meshPath = meshPath;
      job.meshIsLevel = isLevelPath(meshPath);
      job.levelPath = levelPath;
      job.maxRows = htmlMax;
      job.seconds = double(htmlTime) / double(runs.size());
      job.seedsGiven = !seedsText.empty() || perAgent; // (the viewer floods from every seed of the level)
      if (!writeHtmlReport(job, r->mesh, r->result, filter, r->opts, r->explained, why)) return badInput(why);
    }
  if (!jsonOut.empty()) {
    nlohmann::json report;
    for (const auto& r : runs) {
      nlohmann::json one = reportJson(meshPath, r->result, r->opts);
      addWhyJson(one, r->explained);
      if (!perAgent) {
        report = std::move(one);
        break;
      }
      one["agent"] = r->agent.name;
      report["agents"].push_back(std::move(one));
    }
    if (perAgent) report["mesh"] = meshPath;
    if (!writeJsonReport(jsonOut, report, &why)) return badInput(why);
  }
  if (!junitOut.empty()) {
    std::vector<JunitMesh> suites;
    for (const auto& r : runs) suites.push_back({r->label, &r->result});
    if (!writeTextFile(junitOut, reportJunit(suites), &why)) return badInput(why);
  }
  if (!writeBase.empty())
    for (const auto& r : runs)
      if (!writeBaseline(fileFor(writeBase, r->agent), r->unfiltered, &why)) return badInput(why);

  bool failed = false;
  for (const auto& r : runs) {
    const CheckResult& result = r->result;
    failed = failed || hasFailures(result, failOn);
    if (quiet) continue;
    std::printf("%s: %d polys, %zu islands, %d pairs run (%d skipped), worst ratio %.3f, %.2f s\n", r->label.c_str(),
                result.polyCount, result.islands.size(), result.pairsRun, result.pairsSkipped, double(result.worstRatio),
                r->secs);
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
    if (!readBase.empty()) std::printf("  %d finding(s) known from %s\n", r->known, fileFor(readBase, r->agent).c_str());
  }
  return failed ? 1 : 0;
}

} // namespace

bool navbench::cli::loadMeshOrLevel(const std::string& path, nav::NavMesh& mesh, std::string& why) {
  std::vector<float> verts;
  std::vector<int> tris;
  return loadInput(path, mesh, verts, tris, 0, why, 0, false); // (a level with agents: its first type)
}

NAVBENCH_SUBCOMMAND(check, "check", "find navmesh defects: islands, long detours, node budget, seams, links, narrow portals, surface", runCheck);
