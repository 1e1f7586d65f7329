// CmdWhy.cpp: `navbench why MESH.bin|LEVEL (--start X,Y,Z --end X,Y,Z | --cases CASES.txt) [options]`
//
// Explains a path query with nav/explain (Explain.h): each cause in one line with the change that
// was run and what it gave; --json writes them (nav/explain/ExplainJson.h; with --cases one entry
// per pf case). A LEVEL is baked first as `navbench check` does. The filter is `navbench check`'s
// (include 0xffef, exclude 0, area costs 1) unless --filter / --area-cost say otherwise; a test-case
// file's cases bring their own include / exclude flags.
// Exit: 0 (causes, or nothing to explain), 2 for bad input: an unreadable mesh or case file, a bad
// option value (a budget of 0 or above 65535, an unknown flag or area name), an end with no poly
// anywhere near it. An end merely off the navmesh is a cause (snap), not bad input.
#include "app/cli/Cli.h"

#include "app/model/TestCaseFile.h"
#include "nav/NavAreas.h"
#include "nav/NavMesh.h"
#include "nav/base/Args.h"
#include "nav/base/AtomicFile.h"
#include "nav/check/NavCheck.h"
#include "nav/explain/Explain.h"
#include "nav/explain/ExplainJson.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace nav::explain;

int bad(const std::string& msg) {
  std::fprintf(stderr, "navbench why: %s\n", msg.c_str());
  return 2;
}

bool parseVec(const std::string& s, Vec3& out) {
  size_t p = 0;
  for (int k = 0; k < 3; ++k) {
    const size_t comma = k < 2 ? s.find(',', p) : s.size();
    if (comma == std::string::npos) return false;
    const std::string one = s.substr(p, comma - p);
    char* end = nullptr;
    const float v = std::strtof(one.c_str(), &end);
    if (one.empty() || !end || *end || !std::isfinite(v)) return false;
    out[size_t(k)] = v;
    p = comma + 1;
  }
  return true;
}

/// Flags as a number (0..0xffff) or names joined by '|' ("walk|door"); false with `why`.
bool parseFlagSet(const std::string& s, uint16_t* out, std::string& why) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 0);
  if (!s.empty() && end && !*end && !errno) {
    if (v < 0 || v > 0xffff) return why = "flags '" + s + "' are outside 0..0xffff", false;
    *out = uint16_t(v);
    return true;
  }
  uint16_t acc = 0;
  size_t i = 0;
  while (i <= s.size()) {
    const size_t bar = std::min(s.find('|', i), s.size());
    const std::string name = s.substr(i, bar - i);
    uint16_t f = 0;
    if (!nav::flagFromName(name.c_str(), &f))
      return why = "unknown poly flag '" + name + "' (walk, swim, door, jump, disabled or a number)", false;
    acc = uint16_t(acc | f);
    i = bar + 1;
  }
  *out = acc;
  return true;
}

void printExplanation(const std::string& label, const Explanation& e, const ExplainOptions& opts) {
  const Answer& a = e.answer;
  std::printf("%s: %s", label.c_str(),
              a.reached ? "path complete" : (a.startRef && a.endRef ? "no complete path" : "no poly at an end"));
  if (a.length >= 0) std::printf(", %.2f m", double(a.length));
  if (e.exactMetric >= 0) std::printf(" (shortest %.2f m)", double(e.exactMetric));
  std::printf(", %d nodes\n", a.nodes);
  const bool longer = a.reached && e.exactMetric > 0 && a.metric >= e.exactMetric * opts.detourRatio &&
                      a.metric - e.exactMetric >= opts.detourMinExtra;
  if (e.causes.empty() && longer)
    std::printf(
        "  longer than the shortest (x%.2f), but no change tried (any-angle search, heuristic scale, area costs, "
        "filter) shortens it: nothing proven to explain\n",
        double(a.metric / e.exactMetric));
  else if (e.causes.empty() && !a.reached)
    std::printf("  no change tried (node budget, filter, off-mesh links, half extents) completes it: nothing proven "
                "to explain\n");
  else if (e.causes.empty())
    std::printf("  nothing to explain\n");
  for (const std::string& line : describeCauses(e)) std::printf("  %s\n", line.c_str());
}

int runWhy(int argc, char** argv) {
  std::string meshPath, startText, endText, filterText, jsonOut, casesPath, extentsText;
  std::vector<std::string> areaCosts;
  Query query;
  ExplainOptions opts;
  bool anyAngle = false;
  base::Args args("navbench why",
                  "Explains a path query: why there is no path, a partial one or a longer one than the shortest. "
                  "Each cause comes with a change (node budget, filter, area costs, half extents, any-angle search, "
                  "an off-mesh link) and what the same query gave with it. A LEVEL is baked first as `navbench check` "
                  "does. Exit 0: explained (or nothing to explain); 2: bad input.");
  args.positional("MESH.bin|LEVEL", &meshPath, "tile set (MSET), or a level to bake")
      .text("--start", "X,Y,Z", &startText, "the query's start")
      .text("--end", "X,Y,Z", &endText, "the query's end")
      .text("--cases", "CASES.txt", &casesPath, "explain every pf case of a RecastDemo test-case file instead")
      .text("--filter", "INC,EXC", &filterText,
            "poly flags to include / exclude: numbers or names (walk|door); default 0xffef,0x0")
      .texts("--area-cost", "AREA=COST", &areaCosts, "an area's cost (name or id; default 1)")
      .integer("--node-budget", "N", &query.nodeBudget, 1, 65535, "findPath's node pool")
      .text("--extents", "X,Y,Z", &extentsText, "nearest-poly half extents (default 2,4,2)")
      .flag("--any-angle", &anyAngle, "run the query with FINDPATH_ANY_ANGLE")
      .number("--detour-ratio", "R", &opts.detourRatio, 1.0, 1000.0,
              "a longer path is explained at Detour / shortest >= R")
      .number("--detour-min", "M", &opts.detourMinExtra, 0.0, 1e6, "... and at least M m longer")
      .text("--json", "OUT.json", &jsonOut, "write the explanation(s) as JSON (atomically)");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;

  nav::QueryFilter filter = nav::check::defaultCheckFilter();
  std::string why;
  if (!filterText.empty()) {
    const size_t c = filterText.find(',');
    uint16_t inc = 0, exc = 0;
    if (c == std::string::npos) return bad("--filter needs INC,EXC, not '" + filterText + "'");
    if (!parseFlagSet(filterText.substr(0, c), &inc, why) || !parseFlagSet(filterText.substr(c + 1), &exc, why))
      return bad("--filter: " + why);
    filter.setIncludeFlags(inc);
    filter.setExcludeFlags(exc);
  }
  for (const std::string& ac : areaCosts) {
    const size_t eq = ac.find('=');
    uint8_t area = 0;
    char* end = nullptr;
    const std::string costText = eq == std::string::npos ? "" : ac.substr(eq + 1);
    const float cost = std::strtof(costText.c_str(), &end);
    if (eq == std::string::npos) return bad("--area-cost needs AREA=COST, not '" + ac + "'");
    if (!nav::areaFromName(ac.substr(0, eq).c_str(), &area))
      return bad("--area-cost: unknown area '" + ac.substr(0, eq) +
                 "' (ground, water, road, door, grass, jump or 0..62)");
    if (costText.empty() || !end || *end || !std::isfinite(cost) || cost < 0)
      return bad("--area-cost: the cost must be a number >= 0, not '" + costText + "'");
    filter.setAreaCost(area, cost);
  }
  if (!extentsText.empty() && (!parseVec(extentsText, query.halfExtents) || !(query.halfExtents[0] > 0) ||
                               !(query.halfExtents[1] > 0) || !(query.halfExtents[2] > 0)))
    return bad("--extents needs X,Y,Z with finite numbers > 0, not '" + extentsText + "'");
  if (anyAngle) query.options |= nav::FINDPATH_ANY_ANGLE;
  const bool single = !startText.empty() || !endText.empty();
  if (single == !casesPath.empty() || (single && (startText.empty() || endText.empty())))
    return bad("give --start and --end, or --cases (see navbench why --help)");
  if (single) {
    if (!parseVec(startText, query.start))
      return bad("--start needs X,Y,Z with finite numbers, not '" + startText + "'");
    if (!parseVec(endText, query.end)) return bad("--end needs X,Y,Z with finite numbers, not '" + endText + "'");
  }
  std::vector<navbench::TestCase> cases;
  if (!single && !navbench::readTestCaseFile(casesPath, cases, &why)) return bad(why);

  nav::NavMesh mesh;
  if (!navbench::cli::loadMeshOrLevel(meshPath, mesh, why)) return bad(why);

  nlohmann::json json;
  if (single) {
    Explanation e;
    if (nav::statusFailed(explainQuery(mesh, filter, query, opts, e, &why))) return bad(meshPath + ": " + why);
    printExplanation("query", e, opts);
    json = explanationJson(query, e);
  } else {
    json = {{"cases", nlohmann::json::array()}};
    for (const navbench::TestCase& c : cases) {
      if (c.raycast) continue;
      Query cq = query;
      cq.start = Vec3{c.s[0], c.s[1], c.s[2]};
      cq.end = Vec3{c.e[0], c.e[1], c.e[2]};
      nav::QueryFilter cf = filter;
      cf.setIncludeFlags(c.inc);
      cf.setExcludeFlags(c.exc);
      Explanation e;
      if (nav::statusFailed(explainQuery(mesh, cf, cq, opts, e, &why)))
        return bad(casesPath + ":" + std::to_string(c.line) + ": " + why);
      printExplanation(casesPath + ":" + std::to_string(c.line), e, opts);
      nlohmann::json one = explanationJson(cq, e);
      one["line"] = c.line;
      json["cases"].push_back(one);
    }
  }
  if (!jsonOut.empty() && !base::writeFileAtomic(jsonOut, json.dump(2) + "\n", why)) return bad(why);
  return 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(why, "why",
                    "explain a path query: no path, a partial path or a longer one, each cause with a checked fix",
                    runWhy);
