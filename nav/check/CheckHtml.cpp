// CheckHtml.cpp: see CheckHtml.h.
#include "nav/check/CheckHtml.h"

#include "nav/check/CheckReport.h"
#include "nav/base/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nav::check {

namespace {

float dist3(const Vec3& a, const Vec3& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

Vec3 mid(const Vec3& a, const Vec3& b) { return Vec3{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2}; }

/// Every finding of one check, worst first (see worstFindings).
std::vector<HtmlFinding> findingsOf(const CheckResult& r, int kind) {
  std::vector<HtmlFinding> out;
  if (!r.ran[kind]) return out;
  const std::vector<std::string> text = describeFindings(r, kind);
  auto add = [&](const Vec3& pos, float extent) {
    HtmlFinding f;
    f.kind = kind;
    f.index = int(out.size());
    f.text = f.index < int(text.size()) ? text[size_t(f.index)] : std::string();
    f.pos = pos;
    f.extent = extent;
    out.push_back(f);
    return &out.back();
  };
  auto addPair = [&](const PairEnds& p) {
    HtmlFinding* f = add(mid(p.start, p.end), dist3(p.start, p.end));
    f->pair = true;
    f->start = p.start;
    f->end = p.end;
  };
  switch (kind) {
  case CHECK_ISLANDS:
    for (const Island& i : r.islands) // biggest first already
      if (i.isFinding()) add(i.center, std::sqrt(std::max(i.area, 0.0f)));
    break;
  case CHECK_DETOURS:
    for (const DetourFinding& d : r.detours) addPair(d); // worst ratio first already
    break;
  case CHECK_BUDGET:
    for (const BudgetFinding& b : r.budget) addPair(b);
    break;
  case CHECK_SEAMS:
    for (const SeamFinding& s : r.seams) add(s.pos, dist3(s.a, s.b));
    break;
  case CHECK_LINKS:
    for (const LinkFinding& l : r.links) add(l.pos, dist3(l.start, l.end));
    break;
  case CHECK_NARROW: {
    std::vector<size_t> order(r.narrow.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return r.narrow[a].width < r.narrow[b].width; });
    for (size_t i : order) {
      HtmlFinding* f = add(r.narrow[i].pos, 2.0f);
      f->index = int(i);
      f->text = i < text.size() ? text[i] : std::string();
    }
    break;
  }
  case CHECK_SURFACE: {
    std::vector<size_t> order(r.surface.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto badness = [&](size_t i) { return r.surface[i].noSurface ? INFINITY : std::fabs(r.surface[i].dist); };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return badness(a) > badness(b); });
    for (size_t i : order) {
      HtmlFinding* f = add(r.surface[i].pos, 2.0f);
      f->index = int(i);
      f->text = i < text.size() ? text[i] : std::string();
    }
    break;
  }
  default: break;
  }
  return out;
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof(b), f, v);
  return b;
}

} // namespace

std::vector<HtmlFinding> worstFindings(const CheckResult& r, int maxCount) {
  std::vector<HtmlFinding> out;
  for (const Severity sev : {SEVERITY_ERROR, SEVERITY_WARNING}) {
    std::vector<std::vector<HtmlFinding>> lists;
    for (int k = 0; k < CHECK_COUNT; ++k)
      if (checkSeverity(k) == sev) lists.push_back(findingsOf(r, k));
    for (size_t turn = 0; int(out.size()) < maxCount; ++turn) {
      bool any = false;
      for (const std::vector<HtmlFinding>& l : lists)
        if (turn < l.size() && int(out.size()) < maxCount) {
          out.push_back(l[turn]);
          any = true;
        }
      if (!any) break;
    }
  }
  return out;
}

nlohmann::json findingScenario(const HtmlFinding& f, const ScenarioFiles& files, const QueryFilter& filter,
                               int maxNodes) {
  using nlohmann::json;
  // Framed from the south-east, 50 degrees down, far enough for the whole finding (fovY 45 degrees).
  const float distance = std::min(std::max(12.0f, f.extent * 1.6f), 5000.0f);
  json camera = {{"target", base::exactVec3(f.pos.data())},
                 {"yaw", base::exactFloat(0.8f)},
                 {"pitch", base::exactFloat(0.9f)},
                 {"distance", base::exactFloat(distance)},
                 {"fovY", base::exactFloat(0.7853982f)}};
  json tool;
  if (f.pair) {
    tool = {{"name", "Pathfind Straight"},
            {"state",
             {{"start", base::exactVec3(f.start.data())},
              {"end", base::exactVec3(f.end.data())},
              {"shortest", true},
              {"options", {{"crossing", 0}}}}}};
  } else {
    // Distance to Wall from the finding: its marker and the nearest wall (a seam is one).
    tool = {{"name", "Distance to Wall"},
            {"state", {{"start", base::exactVec3(f.pos.data())}, {"options", {{"radius", base::exactFloat(10.0f)}}}}}};
  }
  json areas = json::array();
  for (int a = 0; a < MAX_AREAS; ++a)
    if (filter.getAreaCost(a) != 1.0f || filter.getAreaEnterCost(a) != 0.0f)
      areas.push_back({{"area", a},
                       {"cost", base::exactFloat(filter.getAreaCost(a))},
                       {"enterCost", base::exactFloat(filter.getAreaEnterCost(a))}});
  json fil = {{"includeFlags", filter.getIncludeFlags()},
              {"excludeFlags", filter.getExcludeFlags()},
              {"heuristicScale", base::exactFloat(filter.getHeuristicScale())},
              {"maxNodes", std::min(std::max(maxNodes, 1), 65535)},
              {"areas", areas}};
  return {{"navbenchScenario", 1},
          {"level", files.level},
          {"navmesh", files.navmesh},
          {"camera", camera},
          {"tool", tool},
          {"filter", fil},
          {"note", std::string("navbench check: ") + checkName(f.kind) + " " + f.text}};
}

std::string reportHtml(const std::string& meshName, const CheckResult& r, const std::vector<HtmlFinding>& rows,
                       const std::string& note) {
  const std::string name = xmlEscape(meshName);
  std::string o;
  o += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  o += "<title>navbench check: " + name + "</title>\n";
  o += "<style>\n"
       "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
       "table{border-collapse:collapse;margin-bottom:1.5em}\n"
       "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}\n"
       "th{background:#eee}\n"
       ".fail{color:#b00;font-weight:bold}.ok{color:#070}.skip{color:#777}\n"
       "img{width:320px;height:180px;display:block}\n"
       ".note{background:#ffd;border:1px solid #cc9;padding:6px;margin-bottom:1em}\n"
       "ul.why{margin:4px 0;padding-left:1.2em;font-size:90%}\n"
       "</style>\n</head>\n<body>\n";
  o += "<h1>navbench check: " + name + "</h1>\n";
  o += "<p>" + std::to_string(r.polyCount) + " polys, " + std::to_string(r.islands.size()) + " islands, " +
       std::to_string(r.pairsRun) + " pairs run (" + std::to_string(r.pairsSkipped) + " skipped), worst ratio " +
       fmt("%.3f", double(r.worstRatio)) + ".</p>\n";
  o += "<h2>Summary</h2>\n<table id=\"summary\">\n<tr><th>check</th><th>result</th><th>severity</th><th>findings</th></tr>\n";
  for (int k = 0; k < CHECK_COUNT; ++k) {
    const int n = findingCount(r, k);
    const char* cls = !r.ran[k] ? "skip" : n ? "fail" : "ok";
    const char* res = !r.ran[k] ? "skipped" : n ? "FAIL" : "ok";
    o += std::string("<tr><td>") + checkName(k) + "</td><td class=\"" + cls + "\">" + res + "</td><td>" +
         severityName(checkSeverity(k)) + "</td><td>" + (r.ran[k] ? std::to_string(n) : "-") + "</td></tr>\n";
  }
  o += "</table>\n";
  if (!note.empty()) o += "<p class=\"note\">" + xmlEscape(note) + "</p>\n";
  o += "<h2>Findings</h2>\n";
  if (rows.empty()) {
    o += "<p>No findings.</p>\n";
  } else {
    o += "<p>The " + std::to_string(rows.size()) +
         " worst (errors first, the checks in turn, each check's worst first). A scenario opens the finding in the "
         "viewer (navbench SCENARIO.json); each picture carries its scenario too.</p>\n";
    o += "<table id=\"findings\">\n<tr><th>#</th><th>check</th><th>finding</th><th>picture</th></tr>\n";
    for (size_t i = 0; i < rows.size(); ++i) {
      const HtmlFinding& f = rows[i];
      o += "<tr><td>" + std::to_string(i + 1) + "</td><td>" + checkName(f.kind) + "</td><td>" + xmlEscape(f.text);
      if (!f.why.empty()) {
        o += "<ul class=\"why\">";
        for (const std::string& w : f.why) o += "<li>" + xmlEscape(w) + "</li>";
        o += "</ul>";
      }
      if (!f.scenario.empty())
        o += "<br><a href=\"" + xmlEscape(f.scenario) + "\">scenario</a>";
      o += "</td><td>";
      if (!f.image.empty())
        o += "<a href=\"" + xmlEscape(f.image) + "\"><img src=\"" + xmlEscape(f.image) + "\" alt=\"" +
             checkName(f.kind) + " finding " + std::to_string(i + 1) + "\"></a>";
      else o += "-";
      o += "</td></tr>\n";
    }
    o += "</table>\n";
  }
  o += "</body>\n</html>\n";
  return o;
}

} // namespace nav::check
