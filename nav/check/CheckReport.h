// CheckReport.h: what `navbench check` hands to people and CI: the JSON report, JUnit XML (what
// Jenkins, GitLab and GitHub test reporters read) and baselines (known findings, so CI fails on
// regressions, not on known debt). Files are written atomically (nav/base/AtomicFile.h): a failed
// write leaves no partial file. No exceptions: false with `why` naming the file and the problem.
//
// JSON report (one mesh):
//   {"mesh": NAME, "checks": [{"name", "passed", "findings", "severity", "ran"}...],
//    "islands": [{"polys", "area", "center", "reachable", "unreachedPolys"}...] (biggest first),
//    "detours": [{"start", "end", "detourLen", "exactLen", "ratio", "detourMetricLen"}...],
//    "budget": [{"start", "end", "status"}], "seams": [{"pos", "a", "b", "tile", "otherTile", "oneWay"}],
//    "links": [{"pos", "start", "end", "startLinked", "endLinked", "userId"}],
//    "narrow": [{"pos", "a", "b", "width"}], "surface": [{"pos", "dist", "noSurface"}],
//    "stats": {"polys", "pairs", "pairsRun", "pairsSkipped", "worstRatio"}}
// Baseline file: {"version": 1, "findings": [{"kind": CHECK NAME, "pos": [x,y,z], "pos2": [x,y,z]?}]}.
#pragma once

#include "nav/check/NavCheck.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace nav::check {

enum Severity : int { SEVERITY_WARNING = 0, SEVERITY_ERROR = 1 };
/// Severity of a check's findings: seams, links and surface are errors (the mesh is broken there),
/// the rest warnings (the mesh works, but badly).
Severity checkSeverity(int kind);
const char* severityName(Severity s);
/// Findings of a check (unreachable islands for CHECK_ISLANDS; 0 for a check that did not run).
int findingCount(const CheckResult& r, int kind);
/// True when some check that ran has findings at or above `failOn`.
bool hasFailures(const CheckResult& r, Severity failOn);
/// One line per finding of a check ("(x, y, z): what"), at most maxLines (then "... and N more").
std::vector<std::string> describeFindings(const CheckResult& r, int kind, int maxLines = 1000);

/// The JSON report of one mesh (keys above; floats as their shortest exact decimal).
nlohmann::json reportJson(const std::string& meshName, const CheckResult& r, const CheckOptions& opts);
/// JUnit XML: one <testsuite> per mesh, one <testcase> per check, a <failure> listing the findings
/// (XML-escaped); a check that did not run is <skipped/>.
struct JunitMesh {
  std::string name;
  const CheckResult* result;
};
std::string reportJunit(const std::vector<JunitMesh>& meshes);

/// Escapes &, <, >, " and ' for XML and HTML text and attributes (control characters but tab,
/// newline and carriage return become '?': XML 1.0 allows no others).
std::string xmlEscape(const std::string& s);

bool writeJsonReport(const std::string& path, const nlohmann::json& report, std::string* why);
bool writeTextFile(const std::string& path, const std::string& text, std::string* why);

/// Known findings.
struct BaselineEntry {
  int kind = 0;    ///< CheckKind.
  Vec3 pos{};      ///< The finding's position (detours, budget: the start).
  bool hasPos2 = false;
  Vec3 pos2{};     ///< Detours, budget: the end.
};
struct Baseline {
  std::vector<BaselineEntry> entries;
};
Baseline baselineOf(const CheckResult& r);
nlohmann::json baselineJson(const Baseline& b);
bool writeBaseline(const std::string& path, const CheckResult& r, std::string* why);
/// Reads a baseline (strictly: unknown keys, bad kinds or shapes are errors naming the file).
bool readBaseline(const std::string& path, Baseline& out, std::string* why);
bool parseBaseline(const nlohmann::json& j, const std::string& name, Baseline& out, std::string* why);
/// Drops the findings of `r` that the baseline holds (same kind, every position within `tol` in
/// 3D); unreachable islands in the baseline are marked `baselined`. Returns how many were dropped.
int filterNew(CheckResult& r, const Baseline& b, float tol = 0.5f);

} // namespace nav::check
