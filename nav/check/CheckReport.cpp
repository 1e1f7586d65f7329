// CheckReport.cpp: see CheckReport.h.
#include "nav/check/CheckReport.h"

#include "nav/base/AtomicFile.h"
#include "nav/base/Json.h"

#include <cmath>
#include <cstdio>

namespace nav::check {

namespace {

nlohmann::json vec(const Vec3& v) { return base::exactVec3(v.data()); }

std::string fmtPos(const Vec3& v) {
  char b[96];
  std::snprintf(b, sizeof(b), "(%.2f, %.2f, %.2f)", double(v[0]), double(v[1]), double(v[2]));
  return b;
}

bool near3(const Vec3& a, const Vec3& b, float tol) {
  const float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
  return dx * dx + dy * dy + dz * dz <= tol * tol;
}

bool known(const Baseline& b, int kind, const Vec3& pos, const Vec3* pos2, float tol) {
  for (const BaselineEntry& e : b.entries) {
    if (e.kind != kind || !near3(e.pos, pos, tol)) continue;
    if (pos2 && e.hasPos2 && !near3(e.pos2, *pos2, tol)) continue;
    return true;
  }
  return false;
}

template <class T, class Pred> int dropIf(std::vector<T>& v, Pred pred) {
  const size_t before = v.size();
  size_t w = 0;
  for (size_t i = 0; i < v.size(); ++i)
    if (!pred(v[i])) v[w++] = v[i];
  v.resize(w);
  return int(before - w);
}

} // namespace

std::string xmlEscape(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&': o += "&amp;"; break;
    case '<': o += "&lt;"; break;
    case '>': o += "&gt;"; break;
    case '"': o += "&quot;"; break;
    case '\'': o += "&apos;"; break;
    default:
      // XML 1.0 allows no control characters but tab, newline and carriage return.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') o += '?';
      else o += c;
    }
  }
  return o;
}

Severity checkSeverity(int kind) {
  return kind == CHECK_SEAMS || kind == CHECK_LINKS || kind == CHECK_SURFACE ? SEVERITY_ERROR : SEVERITY_WARNING;
}

const char* severityName(Severity s) { return s == SEVERITY_ERROR ? "error" : "warning"; }

int findingCount(const CheckResult& r, int kind) {
  if (kind < 0 || kind >= CHECK_COUNT || !r.ran[kind]) return 0;
  switch (kind) {
  case CHECK_ISLANDS: return r.unreachableIslands() + int(r.unreachedSeeds.size());
  case CHECK_DETOURS: return int(r.detours.size());
  case CHECK_BUDGET: return int(r.budget.size());
  case CHECK_SEAMS: return int(r.seams.size());
  case CHECK_LINKS: return int(r.links.size());
  case CHECK_NARROW: return int(r.narrow.size());
  case CHECK_SURFACE: return int(r.surface.size());
  default: return 0;
  }
}

bool hasFailures(const CheckResult& r, Severity failOn) {
  for (int k = 0; k < CHECK_COUNT; ++k)
    if (findingCount(r, k) > 0 && checkSeverity(k) >= failOn) return true;
  return false;
}

std::vector<std::string> describeFindings(const CheckResult& r, int kind, int maxLines) {
  std::vector<std::string> lines;
  char b[256];
  int total = 0;
  auto add = [&](const std::string& s) {
    if (int(lines.size()) < maxLines) lines.push_back(s);
    ++total;
  };
  switch (kind) {
  case CHECK_ISLANDS:
    for (const Island& i : r.islands)
      if (i.isFinding()) {
        std::snprintf(b, sizeof(b), ": island %d of %d polys, %.1f m2, unreachable from the seeds", i.id, i.polys,
                      double(i.area));
        add(fmtPos(i.center) + b);
      }
    for (const SeedFinding& f : r.unreachedSeeds) {
      std::snprintf(b, sizeof(b), ": seed %d is not on the navmesh (this agent type cannot stand there)", f.index + 1);
      add(fmtPos(f.pos) + b);
    }
    break;
  case CHECK_DETOURS:
    for (const DetourFinding& d : r.detours) {
      std::snprintf(b, sizeof(b), ": Detour's path %.2f m against the shortest %.2f m (ratio %.3f) to ",
                    double(d.detourMetric), double(d.exactLen), double(d.ratio));
      add(fmtPos(d.start) + b + fmtPos(d.end));
    }
    break;
  case CHECK_BUDGET:
    for (const BudgetFinding& f : r.budget) {
      std::snprintf(b, sizeof(b), ": findPath to %s ends%s%s; the hierarchical search %s", fmtPos(f.end).c_str(),
                    statusDetail(f.status, PARTIAL_RESULT) ? " partial" : "",
                    statusDetail(f.status, OUT_OF_NODES) ? " out of nodes" : "",
                    f.hierarchical ? "completes it" : "does not complete it either");
      add(fmtPos(f.start) + b);
    }
    break;
  case CHECK_SEAMS:
    for (const SeamFinding& s : r.seams) {
      std::snprintf(b, sizeof(b), ": tiles (%d, %d) and (%d, %d) meet over %.2f m with no link%s", s.tile[0], s.tile[1],
                    s.otherTile[0], s.otherTile[1], double(std::hypot(s.b[0] - s.a[0], s.b[2] - s.a[2])),
                    s.oneWay ? " one way" : "");
      add(fmtPos(s.pos) + b);
    }
    break;
  case CHECK_LINKS:
    for (const LinkFinding& l : r.links) {
      std::snprintf(b, sizeof(b), ": off-mesh link %u from %s to %s: %s not on the navmesh", l.userId,
                    fmtPos(l.start).c_str(), fmtPos(l.end).c_str(),
                    !l.startLinked && !l.endLinked ? "both ends" : l.startLinked ? "end" : "start");
      add(fmtPos(l.pos) + b);
    }
    break;
  case CHECK_NARROW:
    for (const NarrowFinding& n : r.narrow) {
      std::snprintf(b, sizeof(b), ": portal %.3f m wide", double(n.width));
      add(fmtPos(n.pos) + b);
    }
    break;
  case CHECK_SURFACE:
    for (const SurfaceFinding& s : r.surface) {
      if (s.noSurface) std::snprintf(b, sizeof(b), ": no level surface under or over this navmesh point");
      else std::snprintf(b, sizeof(b), ": %.2f m %s the level surface", double(std::fabs(s.dist)), s.dist > 0 ? "above" : "below");
      add(fmtPos(s.pos) + b);
    }
    break;
  default: break;
  }
  if (total > int(lines.size())) lines.push_back("... and " + std::to_string(total - int(lines.size())) + " more");
  return lines;
}

nlohmann::json reportJson(const std::string& meshName, const CheckResult& r, const CheckOptions& opts) {
  using nlohmann::json;
  json j = json::object();
  j["mesh"] = meshName;
  json checks = json::array();
  for (int k = 0; k < CHECK_COUNT; ++k) {
    const int n = findingCount(r, k);
    checks.push_back({{"name", checkName(k)}, {"ran", r.ran[k]}, {"passed", n == 0}, {"findings", n},
                      {"severity", severityName(checkSeverity(k))}});
  }
  j["checks"] = checks;
  json islands = json::array();
  for (const Island& i : r.islands)
    islands.push_back({{"polys", i.polys}, {"area", base::exactFloat(i.area)}, {"center", vec(i.center)},
                       {"reachable", i.reachable}, {"unreachedPolys", i.unreachedPolys}, {"baselined", i.baselined}});
  j["islands"] = islands;
  if (!r.unreachedSeeds.empty()) { // (only then: the reports of meshes without such seeds keep their shape)
    json seeds = json::array();
    for (const SeedFinding& f : r.unreachedSeeds) seeds.push_back({{"seed", f.index}, {"pos", vec(f.pos)}});
    j["unreachedSeeds"] = seeds;
  }
  json detours = json::array();
  for (const DetourFinding& d : r.detours)
    detours.push_back({{"start", vec(d.start)}, {"end", vec(d.end)}, {"detourLen", base::exactFloat(d.detourLen)},
                       {"detourMetricLen", base::exactFloat(d.detourMetric)}, {"exactLen", base::exactFloat(d.exactLen)},
                       {"ratio", base::exactFloat(d.ratio)}});
  j["detours"] = detours;
  json budget = json::array();
  for (const BudgetFinding& b : r.budget) {
    char hex[16];
    std::snprintf(hex, sizeof(hex), "0x%x", b.status);
    budget.push_back({{"start", vec(b.start)}, {"end", vec(b.end)}, {"status", hex},
                      {"partial", statusDetail(b.status, PARTIAL_RESULT)}, {"outOfNodes", statusDetail(b.status, OUT_OF_NODES)},
                      {"hierarchical", b.hierarchical}});
  }
  j["budget"] = budget;
  json seams = json::array();
  for (const SeamFinding& s : r.seams)
    seams.push_back({{"pos", vec(s.pos)}, {"a", vec(s.a)}, {"b", vec(s.b)}, {"tile", {s.tile[0], s.tile[1]}},
                     {"otherTile", {s.otherTile[0], s.otherTile[1]}}, {"oneWay", s.oneWay}});
  j["seams"] = seams;
  json links = json::array();
  for (const LinkFinding& l : r.links)
    links.push_back({{"pos", vec(l.pos)}, {"start", vec(l.start)}, {"end", vec(l.end)}, {"startLinked", l.startLinked},
                     {"endLinked", l.endLinked}, {"userId", l.userId}});
  j["links"] = links;
  json narrow = json::array();
  for (const NarrowFinding& n : r.narrow)
    narrow.push_back({{"pos", vec(n.pos)}, {"a", vec(n.a)}, {"b", vec(n.b)}, {"width", base::exactFloat(n.width)}});
  j["narrow"] = narrow;
  json surface = json::array();
  for (const SurfaceFinding& s : r.surface)
    surface.push_back({{"pos", vec(s.pos)}, {"dist", base::exactFloat(s.dist)}, {"noSurface", s.noSurface}});
  j["surface"] = surface;
  j["stats"] = {{"polys", r.polyCount}, {"pairs", opts.pairs}, {"seed", opts.seed}, {"pairsRun", r.pairsRun},
                {"pairsSkipped", r.pairsSkipped}, {"worstRatio", base::exactFloat(r.worstRatio)}};
  return j;
}

std::string reportJunit(const std::vector<JunitMesh>& meshes) {
  std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"navbench check\">\n";
  for (const JunitMesh& m : meshes) {
    int failures = 0, skipped = 0;
    for (int k = 0; k < CHECK_COUNT; ++k) {
      if (!m.result->ran[k]) ++skipped;
      else if (findingCount(*m.result, k) > 0) ++failures;
    }
    o += "  <testsuite name=\"" + xmlEscape(m.name) + "\" tests=\"" + std::to_string(CHECK_COUNT) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\">\n";
    for (int k = 0; k < CHECK_COUNT; ++k) {
      o += "    <testcase classname=\"" + xmlEscape(m.name) + "\" name=\"" + checkName(k) + "\"";
      const int n = findingCount(*m.result, k);
      if (!m.result->ran[k]) {
        o += "><skipped/></testcase>\n";
      } else if (n == 0) {
        o += "/>\n";
      } else {
        o += ">\n      <failure type=\"" + std::string(severityName(checkSeverity(k))) + "\" message=\"" +
             std::to_string(n) + " finding" + (n == 1 ? "" : "s") + "\">";
        for (const std::string& line : describeFindings(*m.result, k)) o += xmlEscape(line) + "\n";
        o += "</failure>\n    </testcase>\n";
      }
    }
    o += "  </testsuite>\n";
  }
  o += "</testsuites>\n";
  return o;
}

bool writeTextFile(const std::string& path, const std::string& text, std::string* why) {
  std::string err;
  if (base::writeFileAtomic(path, text, err)) return true;
  if (why) *why = err;
  return false;
}

bool writeJsonReport(const std::string& path, const nlohmann::json& report, std::string* why) {
  return writeTextFile(path, report.dump(2) + "\n", why);
}

Baseline baselineOf(const CheckResult& r) {
  Baseline b;
  auto add = [&](int kind, const Vec3& p, const Vec3* p2) {
    BaselineEntry e;
    e.kind = kind;
    e.pos = p;
    if (p2) {
      e.hasPos2 = true;
      e.pos2 = *p2;
    }
    b.entries.push_back(e);
  };
  if (r.ran[CHECK_ISLANDS])
    for (const Island& i : r.islands)
      if (!i.reachable) add(CHECK_ISLANDS, i.center, nullptr);
  for (const SeedFinding& f : r.unreachedSeeds) add(CHECK_ISLANDS, f.pos, nullptr);
  for (const DetourFinding& d : r.detours) add(CHECK_DETOURS, d.start, &d.end);
  for (const BudgetFinding& f : r.budget) add(CHECK_BUDGET, f.start, &f.end);
  for (const SeamFinding& s : r.seams) add(CHECK_SEAMS, s.pos, nullptr);
  for (const LinkFinding& l : r.links) add(CHECK_LINKS, l.pos, nullptr);
  for (const NarrowFinding& n : r.narrow) add(CHECK_NARROW, n.pos, nullptr);
  for (const SurfaceFinding& s : r.surface) add(CHECK_SURFACE, s.pos, nullptr);
  return b;
}

nlohmann::json baselineJson(const Baseline& b) {
  nlohmann::json list = nlohmann::json::array();
  for (const BaselineEntry& e : b.entries) {
    nlohmann::json x = {{"kind", checkName(e.kind)}, {"pos", vec(e.pos)}};
    if (e.hasPos2) x["pos2"] = vec(e.pos2);
    list.push_back(x);
  }
  return {{"version", 1}, {"findings", list}};
}

bool writeBaseline(const std::string& path, const CheckResult& r, std::string* why) {
  return writeJsonReport(path, baselineJson(baselineOf(r)), why);
}

bool parseBaseline(const nlohmann::json& j, const std::string& name, Baseline& out, std::string* why) {
  base::JsonErrors errors;
  errors.file = name;
  base::JsonIn root(j, errors);
  out.entries.clear();
  int version = 0;
  if (root.object({"version", "findings"}) && root.get("version", version, 1, 1) && root["findings"].array()) {
    const base::JsonIn list = root["findings"];
    for (size_t i = 0; i < list.size() && !errors.failed(); ++i) {
      const base::JsonIn f = list[i];
      if (!f.object({"kind", "pos", "pos2"})) break;
      std::string kind;
      if (!f.get("kind", kind)) break;
      BaselineEntry e;
      e.kind = -1;
      for (int k = 0; k < CHECK_COUNT; ++k)
        if (kind == checkName(k)) e.kind = k;
      if (e.kind < 0) {
        f["kind"].fail("unknown check \"" + kind + "\"");
        break;
      }
      if (!f["pos"].getFloats(e.pos.data(), 3, "[x, y, z]")) break;
      if (f.has("pos2")) {
        if (!f["pos2"].getFloats(e.pos2.data(), 3, "[x, y, z]")) break;
        e.hasPos2 = true;
      }
      out.entries.push_back(e);
    }
  }
  if (!errors.failed()) return true;
  if (why) *why = errors.message;
  out.entries.clear();
  return false;
}

bool readBaseline(const std::string& path, Baseline& out, std::string* why) {
  base::JsonErrors errors;
  nlohmann::json j;
  if (!base::readJsonFile(path, errors, j)) {
    if (why) *why = errors.message;
    return false;
  }
  return parseBaseline(j, path, out, why);
}

int filterNew(CheckResult& r, const Baseline& b, float tol) {
  int dropped = 0;
  for (Island& i : r.islands)
    if (!i.reachable && !i.baselined && known(b, CHECK_ISLANDS, i.center, nullptr, tol)) {
      i.baselined = true;
      ++dropped;
    }
  dropped += dropIf(r.unreachedSeeds, [&](const SeedFinding& f) { return known(b, CHECK_ISLANDS, f.pos, nullptr, tol); });
  dropped += dropIf(r.detours, [&](const DetourFinding& d) { return known(b, CHECK_DETOURS, d.start, &d.end, tol); });
  dropped += dropIf(r.budget, [&](const BudgetFinding& f) { return known(b, CHECK_BUDGET, f.start, &f.end, tol); });
  dropped += dropIf(r.seams, [&](const SeamFinding& s) { return known(b, CHECK_SEAMS, s.pos, nullptr, tol); });
  dropped += dropIf(r.links, [&](const LinkFinding& l) { return known(b, CHECK_LINKS, l.pos, nullptr, tol); });
  dropped += dropIf(r.narrow, [&](const NarrowFinding& n) { return known(b, CHECK_NARROW, n.pos, nullptr, tol); });
  dropped += dropIf(r.surface, [&](const SurfaceFinding& s) { return known(b, CHECK_SURFACE, s.pos, nullptr, tol); });
  return dropped;
}

} // namespace nav::check
