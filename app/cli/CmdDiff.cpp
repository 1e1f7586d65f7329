// CmdDiff.cpp: `navbench diff A.bin B.bin [--cases CASES.txt] [--json OUT.json]`
//
// A regression check for a level change: which tiles and polys differ between two tile sets
// (matched by position, not by ref: app/NavDiff.h says how), and, with a RecastDemo test-case file,
// which cases changed their status, corridor or length. Cases run as `navbench query` runs them
// (app/model/TestCaseRun.h) once on A and once on B. A pf case changed when its status differs, its
// corridor is not the same sequence of polys by position (NavPolyId: tile location + poly key), or
// its straight path length differs by more than 1e-4 wu; an rc case when its status, its visited
// polys or its hit parameter t (beyond 1e-4) differ.
//
// Output: a summary line, then one line per changed tile, per poly and per changed case (each list
// capped, with a count of the rest). --json OUT.json writes (atomically):
//   {"tilesChanged": [[x, y, layer], ...],
//    "polysAdded":   [{"tile": [x, y, layer], "polyB": i, "centroid": [x, y, z], "verts": n,
//                      "offMesh": false, "area": a, "flags": f}, ...],
//    "polysRemoved": [{... "polyA": i ... same fields}, ...],
//    "polysChanged": [{"tile", "polyA", "polyB", "centroid", "verts", "offMesh",
//                      "area": [before, after], "flags": [before, after]}, ...],
//    "casesChanged": [{"i": index in the file (0-based, as query --json), "line": N, "op": "pf"|"rc",
//                      "changed": ["status", "corridor", "len"],
//                      "before": {pf: "status", "corridor" (poly count), "straight" (corners), "len";
//                                 rc: "status", "visited" (poly count), "t" (null when no hit);
//                                 both: "polys": [[x, y, z] centroid of each corridor/visited poly]},
//                      "after": {...}}, ...]}          (casesChanged only with --cases)
// Exit code, like diff(1): 0 identical, 1 different, 2 bad input (a message names the file).
#include "app/NavDiff.h"
#include "app/cli/Cli.h"
#include "nav/base/Args.h"
#include "app/model/TestCaseFile.h"
#include "app/model/TestCaseRun.h"

#include "nav/NavMeshQuery.h"
#include "nav/TileSetFile.h"
#include "nav/base/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using navbench::NavDiffResult;
using navbench::NavPolyDiff;
using navbench::NavTileKey;
using json = nlohmann::json;

constexpr int kMaxLines = 40;        ///< Lines per list in the text output.
constexpr float kCaseLenTol = 1e-4f; ///< Length / t change that counts [Unit: wu / 1]

double round4(double v) { return std::round(v * 1e4) / 1e4; }
double round6(double v) { return std::round(v * 1e6) / 1e6; }

std::string tileStr(const NavTileKey& k) {
  return "(" + std::to_string(k.x) + "," + std::to_string(k.y) + "," + std::to_string(k.layer) + ")";
}

json tileJson(const NavTileKey& k) { return json::array({k.x, k.y, k.layer}); }

json polyJson(const NavPolyDiff& d, int kind) { // kind: +1 added, -1 removed, 0 changed
  json j;
  j["tile"] = tileJson(d.tile);
  if (kind <= 0) j["polyA"] = d.polyA;
  if (kind >= 0) j["polyB"] = d.polyB;
  j["centroid"] = json::array({round4(d.centroid[0]), round4(d.centroid[1]), round4(d.centroid[2])});
  j["verts"] = d.vertCount;
  j["offMesh"] = d.offMesh;
  if (kind == 0) {
    j["area"] = json::array({d.areaA, d.areaB});
    j["flags"] = json::array({d.flagsA, d.flagsB});
  } else {
    j["area"] = kind > 0 ? d.areaB : d.areaA;
    j["flags"] = kind > 0 ? d.flagsB : d.flagsA;
  }
  return j;
}

std::string polyLine(const NavPolyDiff& d, int kind) {
  char b[256];
  const char* what = d.offMesh ? "off-mesh link" : "poly";
  if (kind > 0)
    std::snprintf(b, sizeof b, "  + %s %s %d at (%.2f, %.2f, %.2f), %d verts, area %d, flags 0x%x", tileStr(d.tile).c_str(),
                  what, d.polyB, double(d.centroid[0]), double(d.centroid[1]), double(d.centroid[2]), d.vertCount,
                  d.areaB, d.flagsB);
  else if (kind < 0)
    std::snprintf(b, sizeof b, "  - %s %s %d at (%.2f, %.2f, %.2f), %d verts, area %d, flags 0x%x", tileStr(d.tile).c_str(),
                  what, d.polyA, double(d.centroid[0]), double(d.centroid[1]), double(d.centroid[2]), d.vertCount,
                  d.areaA, d.flagsA);
  else
    std::snprintf(b, sizeof b, "  ~ %s %s %d -> %d at (%.2f, %.2f, %.2f), area %d -> %d, flags 0x%x -> 0x%x",
                  tileStr(d.tile).c_str(), what, d.polyA, d.polyB, double(d.centroid[0]), double(d.centroid[1]),
                  double(d.centroid[2]), d.areaA, d.areaB, d.flagsA, d.flagsB);
  return b;
}

/// What a case's comparison looks at, from one mesh.
struct CaseOutcome {
  std::string status;
  std::vector<navbench::NavPolyId> polys; ///< pf corridor / rc visited polys, by position
  std::vector<float> centroids;           ///< [(x, y, z) * polys] of those polys
  int straight = 0;                       ///< pf corners
  bool hasLen = false;
  float len = 0;                          ///< pf straight length / rc t (when hit)
};

CaseOutcome outcome(const nav::NavMesh& mesh, const navbench::TestCase& c, const navbench::TestCaseResult& r) {
  CaseOutcome o;
  o.status = navbench::resultStatus(c, r);
  o.polys = navbench::navPolyIds(mesh, r.polys);
  o.centroids.assign(r.polys.size() * 3, 0.0f);
  for (size_t i = 0; i < r.polys.size(); ++i) navbench::navPolyCentroid(mesh, r.polys[i], &o.centroids[i * 3]);
  if (!c.raycast) {
    o.straight = int(r.straightFlags.size());
    o.hasLen = true;
    o.len = r.straightLength();
  } else if (o.status == "hit") {
    o.hasLen = true;
    o.len = r.t;
  }
  return o;
}

json outcomeJson(const navbench::TestCase& c, const CaseOutcome& o) {
  json j;
  j["status"] = o.status;
  if (!c.raycast) {
    j["corridor"] = o.polys.size();
    j["straight"] = o.straight;
    j["len"] = round4(double(o.len));
  } else {
    j["visited"] = o.polys.size();
    j["t"] = o.hasLen ? json(round6(double(o.len))) : json(nullptr);
  }
  json cs = json::array();
  for (size_t i = 0; i + 2 < o.centroids.size(); i += 3)
    cs.push_back({round4(double(o.centroids[i])), round4(double(o.centroids[i + 1])), round4(double(o.centroids[i + 2]))});
  j["polys"] = std::move(cs);
  return j;
}

/// The names of what changed between a and b ("status", "corridor", "len"); empty when nothing.
std::vector<std::string> caseChanges(const CaseOutcome& a, const CaseOutcome& b) {
  std::vector<std::string> w;
  if (a.status != b.status) w.push_back("status");
  if (a.polys != b.polys) w.push_back("corridor");
  if (a.hasLen != b.hasLen || (a.hasLen && !(std::fabs(a.len - b.len) <= kCaseLenTol))) w.push_back("len");
  return w;
}

std::string caseLine(size_t i, const navbench::TestCase& c, const CaseOutcome& a, const CaseOutcome& b,
                     const std::vector<std::string>& what) {
  std::string s = "  case " + std::to_string(i) + " (line " + std::to_string(c.line) + ", " + (c.raycast ? "rc" : "pf") + "):";
  char buf[160];
  for (const std::string& w : what) {
    if (w == "status") {
      s += " status " + a.status + " -> " + b.status + ";";
    } else if (w == "corridor") {
      const char* noun = c.raycast ? "visited" : "corridor";
      if (a.polys.size() != b.polys.size())
        std::snprintf(buf, sizeof buf, " %s %d -> %d polys;", noun, int(a.polys.size()), int(b.polys.size()));
      else
        std::snprintf(buf, sizeof buf, " %s %d polys, not the same polys;", noun, int(a.polys.size()));
      s += buf;
    } else {
      const char* noun = c.raycast ? "t" : "len";
      auto val = [&](const CaseOutcome& o) {
        char v[32];
        if (o.hasLen) std::snprintf(v, sizeof v, c.raycast ? "%.6f" : "%.4f", double(o.len));
        else std::snprintf(v, sizeof v, "none");
        return std::string(v);
      };
      s += std::string(" ") + noun + " " + val(a) + " -> " + val(b) + ";";
    }
  }
  if (!s.empty() && s.back() == ';') s.pop_back();
  return s;
}

/// The object with one list entry per line (diffable, greppable, still short).
std::string jsonText(const json& j) {
  std::string o = "{";
  bool firstKey = true;
  for (const char* key : {"tilesChanged", "polysAdded", "polysRemoved", "polysChanged", "casesChanged"}) {
    if (!j.contains(key)) continue;
    o += std::string(firstKey ? "\n" : ",\n") + "  " + json(key).dump() + ": [";
    firstKey = false;
    const json& list = j[key];
    for (size_t i = 0; i < list.size(); ++i) o += std::string(i ? ",\n    " : "\n    ") + list[i].dump();
    o += list.empty() ? "]" : "\n  ]";
  }
  return o + "\n}\n";
}

/// Runs every case on `mesh`; false (message printed) if the query cannot be set up.
bool runCases(const nav::NavMesh& mesh, const std::string& path, const std::vector<navbench::TestCase>& cases,
              std::vector<CaseOutcome>& out) {
  nav::NavMeshQuery q;
  if (nav::statusFailed(q.init(&mesh, navbench::kTestCaseMaxNodes))) {
    std::fprintf(stderr, "navbench diff: %s: cannot initialise a query (%d nodes)\n", path.c_str(),
                 navbench::kTestCaseMaxNodes);
    return false;
  }
  navbench::TestCaseRunner runner;
  navbench::TestCaseResult r;
  out.clear();
  for (const navbench::TestCase& c : cases) {
    runner.run(q, nullptr, c, r, nullptr);
    out.push_back(outcome(mesh, c, r));
  }
  return true;
}

int runDiff(int argc, char** argv) {
  std::string pathA, pathB, casesPath, jsonPath;
  base::Args args("navbench diff",
                  "Tiles and polys that differ between two tile sets, matched by position (not by ref):\n"
                  "tiles by (x, y, layer), polys by their vertex positions; a poly in both with another\n"
                  "area or flags is 'changed'.");
  args.positional("A.bin", &pathA, "the tile set before")
      .positional("B.bin", &pathB, "the tile set after")
      .text("--cases", "CASES.txt", &casesPath,
            "also run a RecastDemo test-case file on both and list every case\n"
            "whose status, corridor (polys by position) or length (> 1e-4) changed")
      .text("--json", "OUT.json", &jsonPath,
            "write tilesChanged, polysAdded, polysRemoved, polysChanged (and\ncasesChanged) as JSON, atomically")
      .note("exit code: 0 identical, 1 different, 2 bad input");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;
  const bool haveCases = args.given("--cases");
  if (haveCases && casesPath.empty()) {
    std::fprintf(stderr, "navbench diff: --cases needs a file name\n");
    return 2;
  }
  if (!jsonPath.empty() && (jsonPath == pathA || jsonPath == pathB || jsonPath == casesPath)) {
    std::fprintf(stderr, "navbench diff: --json %s would overwrite an input\n", jsonPath.c_str());
    return 2;
  }

  nav::NavMesh meshA, meshB;
  if (!navbench::cli::loadTileSetOrSay("navbench diff", pathA, meshA) ||
      !navbench::cli::loadTileSetOrSay("navbench diff", pathB, meshB))
    return 2;
  std::vector<navbench::TestCase> cases;
  if (haveCases) {
    std::string why;
    if (!navbench::readTestCaseFile(casesPath, cases, &why)) {
      std::fprintf(stderr, "navbench diff: %s\n", why.c_str());
      return 2;
    }
  }

  NavDiffResult d;
  std::string why;
  if (!navbench::diffNavMeshes(&meshA, &meshB, &d, &why)) {
    std::fprintf(stderr, "navbench diff: %s\n", why.c_str());
    return 2;
  }

  // Cases: run on both, keep the ones that changed.
  struct CaseChange {
    size_t i;
    CaseOutcome a, b;
    std::vector<std::string> what;
  };
  std::vector<CaseChange> caseChanges_;
  if (haveCases) {
    std::vector<CaseOutcome> oa, ob;
    if (!runCases(meshA, pathA, cases, oa) || !runCases(meshB, pathB, cases, ob)) return 2;
    for (size_t i = 0; i < cases.size(); ++i) {
      std::vector<std::string> what = caseChanges(oa[i], ob[i]);
      if (!what.empty()) caseChanges_.push_back({i, std::move(oa[i]), std::move(ob[i]), std::move(what)});
    }
  }

  const bool same = d.identical() && caseChanges_.empty();
  std::printf("navbench diff: %s (%d tiles) -> %s (%d tiles): %s; %d tiles changed, %d relinked; polys %d added, "
              "%d removed, %d changed",
              pathA.c_str(), d.tilesA, pathB.c_str(), d.tilesB, same ? "identical" : "different",
              int(d.tilesChanged.size()), int(d.tilesRelinked.size()), int(d.polysAdded.size()),
              int(d.polysRemoved.size()), int(d.polysChanged.size()));
  if (haveCases) std::printf("; cases %d of %d changed", int(caseChanges_.size()), int(cases.size()));
  std::printf("\n");
  if (d.gridChanged) std::printf("note: the tile grids differ (origin or tile size): tiles at one location cover different ground\n");

  auto more = [](size_t n) {
    if (n > size_t(kMaxLines)) std::printf("  ... and %d more\n", int(n - size_t(kMaxLines)));
  };
  if (!d.tilesChanged.empty()) {
    std::printf("tiles changed:\n");
    for (size_t t = 0; t < d.tilesChanged.size() && t < size_t(kMaxLines); ++t) {
      const NavTileKey& k = d.tilesChanged[t];
      int add = 0, rem = 0, chg = 0;
      for (const NavPolyDiff& p : d.polysAdded) add += p.tile == k;
      for (const NavPolyDiff& p : d.polysRemoved) rem += p.tile == k;
      for (const NavPolyDiff& p : d.polysChanged) chg += p.tile == k;
      const nav::MeshTile* ta = meshA.getTileAt(k.x, k.y, k.layer);
      const nav::MeshTile* tb = meshB.getTileAt(k.x, k.y, k.layer);
      const std::string what = !ta   ? std::string("only in B")
                               : !tb ? std::string("only in A")
                                     : std::string("first difference: ") + navbench::tileDifference(*ta, *tb);
      std::printf("  %s: %d added, %d removed, %d changed polys (%s)\n", tileStr(k).c_str(), add, rem, chg,
                  what.c_str());
    }
    more(d.tilesChanged.size());
  }
  const size_t npolys = d.polysAdded.size() + d.polysRemoved.size() + d.polysChanged.size();
  if (npolys) {
    std::printf("polys (+ added, - removed, ~ area or flags changed):\n");
    int lines = 0;
    for (const NavPolyDiff& p : d.polysRemoved)
      if (lines++ < kMaxLines) std::printf("%s\n", polyLine(p, -1).c_str());
    for (const NavPolyDiff& p : d.polysAdded)
      if (lines++ < kMaxLines) std::printf("%s\n", polyLine(p, +1).c_str());
    for (const NavPolyDiff& p : d.polysChanged)
      if (lines++ < kMaxLines) std::printf("%s\n", polyLine(p, 0).c_str());
    more(npolys);
  }
  if (!d.tilesRelinked.empty()) {
    std::printf("tiles relinked (same polys, links to other polys: a neighbour or an off-mesh link changed):\n");
    for (size_t t = 0; t < d.tilesRelinked.size() && t < size_t(kMaxLines); ++t)
      std::printf("  %s\n", tileStr(d.tilesRelinked[t]).c_str());
    more(d.tilesRelinked.size());
  }
  if (!caseChanges_.empty()) {
    std::printf("cases changed (%s):\n", casesPath.c_str());
    for (size_t k = 0; k < caseChanges_.size() && k < size_t(kMaxLines); ++k) {
      const CaseChange& cc = caseChanges_[k];
      std::printf("%s\n", caseLine(cc.i, cases[cc.i], cc.a, cc.b, cc.what).c_str());
    }
    more(caseChanges_.size());
  }

  if (!jsonPath.empty()) {
    json j;
    j["tilesChanged"] = json::array();
    for (const NavTileKey& k : d.tilesChanged) j["tilesChanged"].push_back(tileJson(k));
    j["polysAdded"] = json::array();
    for (const NavPolyDiff& p : d.polysAdded) j["polysAdded"].push_back(polyJson(p, +1));
    j["polysRemoved"] = json::array();
    for (const NavPolyDiff& p : d.polysRemoved) j["polysRemoved"].push_back(polyJson(p, -1));
    j["polysChanged"] = json::array();
    for (const NavPolyDiff& p : d.polysChanged) j["polysChanged"].push_back(polyJson(p, 0));
    if (haveCases) {
      j["casesChanged"] = json::array();
      for (const CaseChange& cc : caseChanges_) {
        const navbench::TestCase& c = cases[cc.i];
        j["casesChanged"].push_back({{"i", cc.i},
                                     {"line", c.line},
                                     {"op", c.raycast ? "rc" : "pf"},
                                     {"changed", cc.what},
                                     {"before", outcomeJson(c, cc.a)},
                                     {"after", outcomeJson(c, cc.b)}});
      }
    }
    if (!base::writeFileAtomic(jsonPath, jsonText(j), why)) {
      std::fprintf(stderr, "navbench diff: %s\n", why.c_str());
      return 2;
    }
  }
  return same ? 0 : 1;
}

} // namespace

NAVBENCH_SUBCOMMAND(diff, "diff", "tiles, polys and test cases that differ between two tile sets (exit 1 if any)",
                    runDiff);
