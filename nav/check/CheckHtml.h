// CheckHtml.h: the pieces of `navbench check --html DIR` that need no process (issue 27): which
// findings get a row (the worst ones), the viewer scenario that shows each (app/Scenario.h's
// format: docs/formats.md "Scenario"), and the page itself. The CLI (app/cli/CmdCheck.cpp) runs
// the viewer headless on each scenario for the thumbnail and writes the folder atomically.
//
// The page works offline: one file, inline CSS, no scripts, no external links; images and
// scenarios are relative links into the same folder (only those that exist are linked).
#pragma once

#include "nav/QueryFilter.h"
#include "nav/check/NavCheck.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace nav::check {

/// One finding shown with a row (and maybe a thumbnail) in the HTML report.
struct HtmlFinding {
  int kind = 0;          ///< CheckKind.
  int index = 0;         ///< Its index among the check's findings (describeFindings order).
  std::string text;      ///< describeFindings' line.
  Vec3 pos{};            ///< Where to look.
  bool pair = false;     ///< Detours and budget: a start and an end (Pathfind Straight shows them).
  Vec3 start{}, end{};
  float extent = 0;      ///< Size of what to frame [Unit: wu] (pair length, seam span, island size).
  std::string image;     ///< Thumbnail file in the report folder ("" = none).
  std::string scenario;  ///< Scenario file in the report folder ("" = none).
  std::vector<std::string> why; ///< Its explanation, one line per cause (nav/explain; islands, detours, budget).
};

/// The worst findings, at most maxCount: errors (seams, links, surface) before warnings; within a
/// severity the checks take turns, each giving its worst first (detours by ratio, narrow portals
/// narrowest first, surface points farthest first, islands biggest first, the rest in report order).
std::vector<HtmlFinding> worstFindings(const CheckResult& r, int maxCount = 50);

/// What the scenario opens: level and/or tile set paths as the scenario should name them.
struct ScenarioFiles {
  std::string level;   ///< "" = none
  std::string navmesh; ///< "" = the level's own
};

/// The viewer scenario showing a finding: a pair in Pathfind Straight with the shortest path on
/// (start and end as found), any other finding with Distance to Wall at its position; the camera
/// framed on it from above at an angle; the check's filter and node budget.
nlohmann::json findingScenario(const HtmlFinding& f, const ScenarioFiles& files, const QueryFilter& filter,
                               int maxNodes);

/// index.html: a title, the summary table (per check: ran, severity, findings), a note (e.g. why
/// there are no thumbnails; "" for none) and one row per finding with its thumbnail and scenario
/// links where they are set. Text is escaped (xmlEscape).
std::string reportHtml(const std::string& meshName, const CheckResult& r, const std::vector<HtmlFinding>& rows,
                       const std::string& note);

} // namespace nav::check
