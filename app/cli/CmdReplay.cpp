// CmdReplay.cpp: `navbench replay FILE.nbcap... [--mesh OTHER.bin] [--json OUT] [--junit OUT.xml]`
//
// Path captures (nav/CaptureFile.h: a game's navmesh, queries and Detour's answers) re-run on
// NavBench's nav (app/model/CaptureReplay.h, the same code as the viewer's capture rows):
//   - plain: every query stage by stage on the captured navmesh, with the game's recorded inputs;
//     per query "identical" or the first difference (field, the game's value, ours);
//   - --mesh OTHER.bin: every query from scratch (nearest -> findPath -> findStraightPath, or
//     nearest -> raycast) on another tile set, the level re-baked after a fix; per query
//     "unchanged" or what changed against the game's answer: status, corridor (polys by position),
//     straight (corners, bit for bit; raycast: t and normal), length (beyond 1e-4 wu).
// Stale queries (their polys were rebuilt before the game saved) are not replayed: listed as stale,
// a JUnit <skipped/>, and they do not change the exit code.
//
// --json OUT writes, atomically:
//   {"mesh": OTHER.bin or null,
//    "captures": [{"file", "tiles", "queries": [{"i", "kind": "path"|"raycast", "note", "flags": [...],
//        "outcome": "identical"|"differs"|"stale"|"unchanged"|"changed"|"failed",
//        "difference": {"field", "game", "ours"}                          (differs)
//        "changed": ["status", "corridor", "straight", "length"],         (--mesh)
//        "game": {...}, "ours": {...}                                     (--mesh; path: "status",
//          "corridor" (polys), "straight" (corners), "length"; raycast: "status", "visited", "t")
//    }]}],
//    "summary": {"queries", "identical", "differs", "stale", "unchanged", "changed", "failed"}}
// --junit OUT.xml: one <testsuite> per capture, one <testcase> per query.
// Exit: 0 every query identical (or unchanged), 1 some differ (changed, or could not run), 2 bad
// input (a message names the file and the problem; no report is written then).
#include "app/cli/Cli.h"
#include "app/model/CaptureReplay.h"

#include "nav/CaptureFile.h"
#include "nav/TileSetFile.h"
#include "nav/base/Args.h"
#include "nav/base/AtomicFile.h"
#include "nav/base/Json.h"
#include "nav/check/CheckReport.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;
using navbench::CaptureOutcome;
using navbench::CaptureQueryResult;

/// One capture file's results (its navmesh is dropped after the replay).
struct FileReport {
  std::string path;
  int tiles = 0;
  nav::Capture cap;
  std::vector<CaptureQueryResult> results;
};

struct Counts {
  int queries = 0, identical = 0, differs = 0, stale = 0, unchanged = 0, changed = 0, failed = 0;
  void add(CaptureOutcome o) {
    ++queries;
    switch (o) {
    case CaptureOutcome::Identical: ++identical; break;
    case CaptureOutcome::Differs: ++differs; break;
    case CaptureOutcome::Stale: ++stale; break;
    case CaptureOutcome::Unchanged: ++unchanged; break;
    case CaptureOutcome::Changed: ++changed; break;
    case CaptureOutcome::Failed: ++failed; break;
    }
  }
  bool failing() const { return differs + changed + failed > 0; }
};

const char* kindName(const nav::CapturedQuery& q) { return q.kind == nav::CAPTURE_PATH ? "path" : "raycast"; }

json flagsJson(uint8_t f) {
  json a = json::array();
  if (f & nav::CAPTURE_STALE) a.push_back("stale");
  if (f & nav::CAPTURE_HANDED_IN) a.push_back("handedIn");
  if (f & nav::CAPTURE_TRUNCATED) a.push_back("truncated");
  if (f & nav::CAPTURE_NO_NEAREST) a.push_back("noNearest");
  return a;
}

/// The --mesh comparison's values of one side.
json sideJson(const nav::CapturedQuery& q, nav::Status pathStatus, nav::Status straightStatus, nav::Status rayStatus,
              size_t pathCount, size_t corners, float length, float t) {
  if (q.kind == nav::CAPTURE_RAYCAST)
    return {{"status", navbench::captureStatusText(rayStatus)}, {"visited", pathCount}, {"t", base::exactFloat(t)}};
  return {{"status", navbench::captureStatusText(pathStatus)},
          {"straightStatus", navbench::captureStatusText(straightStatus)},
          {"corridor", pathCount},
          {"straight", corners},
          {"length", base::exactFloat(length)}};
}

/// "query 3 (path, "door")". The note is the game's bytes: control characters (a terminal's escape
/// sequences, and characters XML forbids) are printed as '?', invalid UTF-8 as U+FFFD (the JUnit
/// report must stay well-formed).
std::string queryName(size_t i, const nav::CapturedQuery& q) {
  std::string s = "query " + std::to_string(i) + " (" + kindName(q);
  if (!q.note.empty()) {
    std::string note =
        json::parse(json(q.note).dump(-1, ' ', false, json::error_handler_t::replace)).get<std::string>();
    for (char& c : note)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    s += ", \"" + note + "\"";
  }
  return s + ")";
}

/// What one result says, on one line (without the query's name).
std::string resultText(const nav::CapturedQuery& q, const CaptureQueryResult& r) {
  switch (r.outcome) {
  case CaptureOutcome::Identical: return "identical";
  case CaptureOutcome::Stale: return "stale (not replayed: its polys were rebuilt before the capture was saved)";
  case CaptureOutcome::Failed: return "FAILED (the query could not be set up: out of memory)";
  case CaptureOutcome::Unchanged: return "unchanged";
  case CaptureOutcome::Differs:
    return "DIFFERS at " + r.difference.field + ": game " + r.difference.game + ", ours " + r.difference.ours;
  case CaptureOutcome::Changed: break;
  }
  std::string s = "CHANGED:";
  const navbench::CaptureChange& c = r.change;
  char b[160];
  if (c.statusChanged) {
    if (q.kind == nav::CAPTURE_RAYCAST) s += " status " + navbench::captureStatusText(q.rayStatus) + " -> " + navbench::captureStatusText(r.ours.rayStatus) + ";";
    else s += " status " + navbench::captureStatusText(q.pathStatus) + " -> " + navbench::captureStatusText(r.ours.pathStatus) + ";";
  }
  if (c.corridorChanged) {
    std::snprintf(b, sizeof b, " %s (%zu -> %zu polys);", q.kind == nav::CAPTURE_RAYCAST ? "visited" : "corridor",
                  q.path.size(), r.ours.path.size());
    s += b;
  }
  if (c.straightChanged) {
    if (q.kind == nav::CAPTURE_RAYCAST) std::snprintf(b, sizeof b, " hit (t %.9g -> %.9g);", double(q.t), double(r.ours.t));
    else std::snprintf(b, sizeof b, " straight (%zu -> %zu corners);", q.straightFlags.size(), r.ours.straightFlags.size());
    s += b;
  }
  if (c.lengthChanged) {
    std::snprintf(b, sizeof b, " length (%.4f -> %.4f wu);", double(c.gameLength), double(c.oursLength));
    s += b;
  }
  s.pop_back();
  return s;
}

json reportJson(const std::string& meshPath, const std::vector<FileReport>& files, const Counts& n) {
  json captures = json::array();
  for (const FileReport& f : files) {
    json queries = json::array();
    for (size_t i = 0; i < f.results.size(); ++i) {
      const nav::CapturedQuery& q = f.cap.queries[i];
      const CaptureQueryResult& r = f.results[i];
      json j = {{"i", i}, {"kind", kindName(q)}, {"note", q.note}, {"flags", flagsJson(q.flags)},
                {"outcome", navbench::captureOutcomeName(r.outcome)}};
      if (r.outcome == CaptureOutcome::Differs)
        j["difference"] = {{"field", r.difference.field}, {"game", r.difference.game}, {"ours", r.difference.ours}};
      if (r.outcome == CaptureOutcome::Changed || r.outcome == CaptureOutcome::Unchanged) {
        j["changed"] = r.change.fields();
        j["game"] = sideJson(q, q.pathStatus, q.straightStatus, q.rayStatus, q.path.size(), q.straightFlags.size(),
                             r.change.gameLength, q.t);
        j["ours"] = sideJson(q, r.ours.pathStatus, r.ours.straightStatus, r.ours.rayStatus, r.ours.path.size(),
                             r.ours.straightFlags.size(), r.change.oursLength, r.ours.t);
      }
      queries.push_back(std::move(j));
    }
    captures.push_back({{"file", f.path}, {"tiles", f.tiles}, {"queries", std::move(queries)}});
  }
  return {{"mesh", meshPath.empty() ? json(nullptr) : json(meshPath)},
          {"captures", std::move(captures)},
          {"summary",
           {{"queries", n.queries},
            {"identical", n.identical},
            {"differs", n.differs},
            {"stale", n.stale},
            {"unchanged", n.unchanged},
            {"changed", n.changed},
            {"failed", n.failed}}}};
}

std::string reportJunit(const std::vector<FileReport>& files) {
  using nav::check::xmlEscape;
  std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"navbench replay\">\n";
  for (const FileReport& f : files) {
    Counts n;
    for (const CaptureQueryResult& r : f.results) n.add(r.outcome);
    o += "  <testsuite name=\"" + xmlEscape(f.path) + "\" tests=\"" + std::to_string(n.queries) + "\" failures=\"" +
         std::to_string(n.differs + n.changed + n.failed) + "\" errors=\"0\" skipped=\"" + std::to_string(n.stale) + "\">\n";
    for (size_t i = 0; i < f.results.size(); ++i) {
      const nav::CapturedQuery& q = f.cap.queries[i];
      const CaptureQueryResult& r = f.results[i];
      o += "    <testcase classname=\"" + xmlEscape(f.path) + "\" name=\"" + xmlEscape(queryName(i, q)) + "\"";
      switch (r.outcome) {
      case CaptureOutcome::Identical:
      case CaptureOutcome::Unchanged: o += "/>\n"; break;
      case CaptureOutcome::Stale: o += "><skipped message=\"stale: not replayed\"/></testcase>\n"; break;
      default:
        o += ">\n      <failure type=\"" + std::string(navbench::captureOutcomeName(r.outcome)) + "\" message=\"" +
             xmlEscape(resultText(q, r)) + "\"/>\n    </testcase>\n";
      }
    }
    o += "  </testsuite>\n";
  }
  return o + "</testsuites>\n";
}

int runReplay(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string meshPath, jsonPath, junitPath;
  bool quiet = false;
  base::Args args("navbench replay",
                  "Re-runs the queries of path captures (.nbcap, written by capture/navbench_capture.h inside\n"
                  "a game) on NavBench's nav and compares each with the answer the game's Detour gave: per query\n"
                  "'identical' or the first difference (field, the game's value, ours). With --mesh, the queries\n"
                  "run from scratch on another tile set (the level re-baked after a fix) and each lists what\n"
                  "changed: status, corridor (polys by position), straight path, length.");
  args.positionals("FILE.nbcap", &paths, "path captures")
      .text("--mesh", "OTHER.bin", &meshPath, "run the queries on this tile set instead and list the changes")
      .text("--json", "OUT.json", &jsonPath, "the per-query report as JSON, atomically")
      .text("--junit", "OUT.xml", &junitPath, "JUnit XML: one testsuite per capture, one testcase per query")
      .flag("-q, --quiet", &quiet, "print only the queries that differ or changed, and the summary")
      .note("stale queries (polys rebuilt before the game saved) are listed, not replayed, and do not fail\n"
            "exit code: 0 all identical (unchanged), 1 some differ (changed), 2 bad input");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;
  for (const std::string& out : {jsonPath, junitPath}) {
    if (out.empty()) continue;
    for (const std::string& in : paths)
      if (out == in || out == meshPath) {
        std::fprintf(stderr, "navbench replay: %s would overwrite an input\n", out.c_str());
        return 2;
      }
  }
  if (args.given("--mesh") && meshPath.empty()) {
    std::fprintf(stderr, "navbench replay: --mesh needs a tile set (.bin)\n");
    return 2;
  }

  nav::NavMesh other;
  if (!meshPath.empty() && !navbench::cli::loadTileSetOrSay("navbench replay", meshPath, other)) return 2;
  std::vector<FileReport> files;
  Counts total;
  for (const std::string& path : paths) {
    FileReport f;
    f.path = path;
    nav::NavMesh mesh;
    std::string why;
    if (nav::statusFailed(nav::loadCaptureFile(path, mesh, f.cap, &why))) {
      std::fprintf(stderr, "navbench replay: %s\n", why.c_str());
      return 2;
    }
    f.tiles = int(nav::listTiles(mesh).size());
    f.results = navbench::replayCapture(mesh, f.cap, meshPath.empty() ? nullptr : &other);
    Counts n;
    for (const CaptureQueryResult& r : f.results) n.add(r.outcome);
    std::printf("%s: %d queries on %d tiles%s\n", path.c_str(), n.queries, f.tiles,
                n.stale ? (" (" + std::to_string(n.stale) + " stale)").c_str() : "");
    for (size_t i = 0; i < f.results.size(); ++i) {
      const CaptureQueryResult& r = f.results[i];
      const bool ok = r.outcome == CaptureOutcome::Identical || r.outcome == CaptureOutcome::Unchanged ||
                      r.outcome == CaptureOutcome::Stale;
      if (quiet && ok) continue;
      std::printf("  %s: %s\n", queryName(i, f.cap.queries[i]).c_str(), resultText(f.cap.queries[i], r).c_str());
    }
    for (const CaptureQueryResult& r : f.results) total.add(r.outcome);
    files.push_back(std::move(f));
  }
  if (meshPath.empty())
    std::printf("%d queries: %d identical, %d differ, %d stale%s\n", total.queries, total.identical, total.differs,
                total.stale, total.failed ? (", " + std::to_string(total.failed) + " failed").c_str() : "");
  else
    std::printf("%d queries on %s: %d unchanged, %d changed, %d stale%s\n", total.queries, meshPath.c_str(),
                total.unchanged, total.changed, total.stale,
                total.failed ? (", " + std::to_string(total.failed) + " failed").c_str() : "");

  std::string why;
  // A note is the game's bytes: invalid UTF-8 is written as U+FFFD rather than refused.
  if (!jsonPath.empty() &&
      !base::writeFileAtomic(jsonPath, reportJson(meshPath, files, total).dump(2, ' ', false, json::error_handler_t::replace) + "\n", why)) {
    std::fprintf(stderr, "navbench replay: --json %s\n", why.c_str());
    return 2;
  }
  if (!junitPath.empty() && !base::writeFileAtomic(junitPath, reportJunit(files), why)) {
    std::fprintf(stderr, "navbench replay: --junit %s\n", why.c_str());
    return 2;
  }
  return total.failing() ? 1 : 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(replay, "replay", "re-run a game's path captures (.nbcap) and say whether NavBench answers the same", runReplay);
