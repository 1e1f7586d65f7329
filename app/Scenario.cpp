#include "app/Scenario.h"

#include "nav/CaptureFile.h"
#include "nav/base/AtomicFile.h"
#include "nav/base/Json.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace navbench {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kMaxDepth = 32;

/// A float in (0, hi]: the open lower bound JsonIn's closed ranges do not say.
bool positive(const base::JsonIn& v, float& out, double hi) {
  float f = 0;
  if (!v.get(f)) return false;
  if (!(double(f) > 0.0 && double(f) <= hi)) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "must be in (0, %g], got %g", hi, double(f));
    return v.fail(buf);
  }
  out = f;
  return true;
}

// The draw toggles and view settings by name: one table serves writing and reading.
template <class T>
struct BoolField {
  const char* name;
  bool T::*ptr;
};
template <class T>
struct FloatField {
  const char* name;
  float T::*ptr;
  double lo, hi; ///< The range read (JsonIn::get).
};
const BoolField<NavDrawOptions> kNavDrawBools[] = {
    {"polys", &NavDrawOptions::polys},         {"polyEdges", &NavDrawOptions::polyEdges},
    {"tileBorders", &NavDrawOptions::tileBorders}, {"portals", &NavDrawOptions::portals},
    {"offMeshLinks", &NavDrawOptions::offMeshLinks}, {"detailMesh", &NavDrawOptions::detailMesh},
    {"bvTree", &NavDrawOptions::bvTree},       {"tileLabels", &NavDrawOptions::tileLabels},
};
const FloatField<NavDrawOptions> kNavDrawFloats[] = {{"lift", &NavDrawOptions::lift, -10.0, 10.0}};
const BoolField<ViewSettings> kViewBools[] = {
    {"drawLevel", &ViewSettings::drawLevel}, {"wireframe", &ViewSettings::wireframe},
    {"grid", &ViewSettings::grid},           {"showStats", &ViewSettings::showStats},
    {"levelLod", &ViewSettings::levelLod},   {"twoSidedLevel", &ViewSettings::twoSidedLevel},
};
const FloatField<ViewSettings> kViewFloats[] = {
    {"lightYaw", &ViewSettings::lightYaw, -100.0, 100.0},
    {"lightPitch", &ViewSettings::lightPitch, -100.0, 100.0},
    {"ambient", &ViewSettings::ambient, 0.0, 1.0},
    {"walkableSlopeDeg", &ViewSettings::walkableSlopeDeg, 0.0, 90.0},
};

bool parseCamera(const base::JsonIn& v, ScenarioCamera& c) {
  if (!v.object({"target", "yaw", "pitch", "distance", "fovY"}) || !v["target"].getVec3(c.target)) return false;
  for (float t : c.target)
    if (std::fabs(t) > 1e9f) return v["target"].fail("coordinates must be within 1e9");
  return v.get("yaw", c.yaw, -1000.0, 1000.0) && v.get("pitch", c.pitch, -1.5708, 1.5708) &&
         positive(v["distance"], c.distance, 1e9) && v.get("fovY", c.fovY, 0.1, 3.0);
}

bool parseFilter(const base::JsonIn& v, ScenarioFilter& f) {
  if (!v.object({"includeFlags", "excludeFlags", "heuristicScale", "maxNodes", "areas"}) ||
      !v.get("includeFlags", f.includeFlags, 0, 0xffff) || !v.get("excludeFlags", f.excludeFlags, 0, 0xffff) ||
      !v.get("heuristicScale", f.heuristicScale, 0.0, 10.0) || !v.get("maxNodes", f.maxNodes, 1, 65535))
    return false;
  const base::JsonIn a = v["areas"];
  if (!a.array()) return false;
  if (a.size() > 64) return a.fail("more than 64 entries");
  std::vector<ScenarioAreaCost> areas(a.size());
  int last = -1;
  for (size_t i = 0; i < a.size(); ++i) {
    ScenarioAreaCost& c = areas[i];
    if (!a[i].object({"area", "cost", "enterCost"}) || !a[i].get("area", c.area, 0, 63) ||
        !positive(a[i]["cost"], c.cost, 1e6) || !a[i].get("enterCost", c.enterCost, 0.0, 1e9))
      return false;
    if (c.area <= last) return a[i]["area"].fail("areas must be listed once each, in increasing order");
    last = c.area;
  }
  f.areas = std::move(areas);
  return true;
}

/// An object whose keys are all named by the tables `bools` and `floats` (name, member): each read
/// into `out` (optional keys: absent ones keep their values).
template <class T, class BoolTable, class FloatTable>
bool parseFields(const base::JsonIn& v, T& out, const BoolTable& bools, const FloatTable& floats) {
  if (!v.object()) return false;
  for (auto it = v.json().begin(); it != v.json().end(); ++it) {
    const base::JsonIn x = v[it.key()];
    bool known = false;
    for (const auto& b : bools)
      if (it.key() == b.name) {
        if (!x.get(out.*b.ptr)) return false;
        known = true;
      }
    for (const auto& f : floats)
      if (it.key() == f.name) {
        if (!x.get(out.*f.ptr, f.lo, f.hi)) return false;
        known = true;
      }
    if (!known) return x.fail("unknown key");
  }
  return true;
}

bool parseScenarioText(const std::string& text, const std::string& file, Scenario& out, std::string& error) {
  base::JsonErrors errors(file);
  auto done = [&](bool ok) {
    if (!ok) error = errors.message;
    return ok;
  };
  if (text.size() > kMaxScenarioBytes)
    return done(errors.fail("", "scenario larger than " + std::to_string(kMaxScenarioBytes >> 20) + " MiB"));
  json j;
  if (!base::parseJson(text, errors, j, kMaxDepth)) return done(false);
  const base::JsonIn in(j, errors);
  Scenario s;
  if (!j.is_object()) return done(in.fail("expected a JSON object, got " + std::string(j.type_name())));
  if (!j.contains(kScenarioMarker))
    return done(in[kScenarioMarker].fail("missing: not a NavBench scenario (a level file or other JSON?)"));
  if (!in.get(kScenarioMarker, s.version, 1, 1 << 30)) return done(false);
  if (s.version > kScenarioVersion)
    return done(in[kScenarioMarker].fail("version " + std::to_string(s.version) + " is newer than this NavBench reads (" +
                                         std::to_string(kScenarioVersion) + ")"));
  if (!in.object({kScenarioMarker, "level", "navmesh", "bakeSettingsHash", "camera", "tool", "filter", "navDraw", "view",
                  "note", "edits", "check", "why", "capture", "agents"}) ||
      !in.get("level", s.level) || !in.get("navmesh", s.navmesh))
    return done(false);
  if (s.level.empty() && s.navmesh.empty()) return done(in["level"].fail("neither a level nor a navmesh is given"));
  if (!in.opt("bakeSettingsHash", s.bakeSettingsHash, size_t(64)) || !parseCamera(in["camera"], s.camera)) return done(false);
  const base::JsonIn t = in["tool"];
  if (!t.object({"name", "state"}) || !t.get("name", s.toolName, size_t(128))) return done(false);
  if (s.toolName.empty()) return done(t["name"].fail("empty"));
  if (t.has("state")) {
    if (!t["state"].object()) return done(false);
    s.toolState = t["state"].json();
  }
  if (!parseFilter(in["filter"], s.filter)) return done(false);
  if (in.has("navDraw") && !parseFields(in["navDraw"], s.navDraw, kNavDrawBools, kNavDrawFloats)) return done(false);
  if (in.has("view") && !parseFields(in["view"], s.view, kViewBools, kViewFloats)) return done(false);
  if (!in.opt("note", s.note, kMaxScenarioNoteBytes)) return done(false);
  if (in.has("edits")) {
    if (!in["edits"].object()) return done(false);
    s.edits = j["edits"];
  }
  if (in.has("check")) {
    if (!in["check"].object()) return done(false);
    s.check = j["check"];
  }
  if (in.has("why")) {
    if (!in["why"].object()) return done(false);
    s.why = j["why"];
  }
  if (in.has("agents")) {
    if (!in["agents"].object()) return done(false);
    s.agents = j["agents"];
  }
  if (in.has("capture")) {
    const base::JsonIn c = in["capture"];
    if (!c.object({"query"}) || !c.get("query", s.captureQuery, 0, nav::CAPTURE_MAX_COUNT - 1)) return done(false);
  }
  out = std::move(s);
  return true;
}

} // namespace

std::string toJson(const Scenario& s) {
  json j;
  j[kScenarioMarker] = s.version;
  j["level"] = s.level;
  j["navmesh"] = s.navmesh;
  j["bakeSettingsHash"] = s.bakeSettingsHash;
  j["camera"] = {{"target", exactVec3(s.camera.target)},
                 {"yaw", exactFloat(s.camera.yaw)},
                 {"pitch", exactFloat(s.camera.pitch)},
                 {"distance", exactFloat(s.camera.distance)},
                 {"fovY", exactFloat(s.camera.fovY)}};
  j["tool"] = {{"name", s.toolName}, {"state", s.toolState.is_object() ? s.toolState : json::object()}};
  json areas = json::array();
  for (const ScenarioAreaCost& a : s.filter.areas)
    areas.push_back({{"area", a.area}, {"cost", exactFloat(a.cost)}, {"enterCost", exactFloat(a.enterCost)}});
  j["filter"] = {{"includeFlags", s.filter.includeFlags},
                 {"excludeFlags", s.filter.excludeFlags},
                 {"heuristicScale", exactFloat(s.filter.heuristicScale)},
                 {"maxNodes", s.filter.maxNodes},
                 {"areas", areas}};
  json nd = json::object();
  for (const auto& b : kNavDrawBools) nd[b.name] = s.navDraw.*b.ptr;
  for (const auto& f : kNavDrawFloats) nd[f.name] = exactFloat(s.navDraw.*f.ptr);
  j["navDraw"] = nd;
  json vw = json::object();
  for (const auto& b : kViewBools) vw[b.name] = s.view.*b.ptr;
  for (const auto& f : kViewFloats) vw[f.name] = exactFloat(s.view.*f.ptr);
  j["view"] = vw;
  j["note"] = s.note;
  if (s.edits.is_object() && !s.edits.empty()) j["edits"] = s.edits;
  if (s.check.is_object() && !s.check.empty()) j["check"] = s.check;
  if (s.why.is_object() && !s.why.empty()) j["why"] = s.why;
  if (s.agents.is_object() && !s.agents.empty()) j["agents"] = s.agents;
  if (s.captureQuery >= 0) j["capture"] = {{"query", s.captureQuery}};
  // Invalid UTF-8 (a note pasted from elsewhere) is replaced rather than throwing.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

bool looksLikeScenario(const std::string& text) {
  if (text.size() > kMaxScenarioBytes || base::jsonDepth(text) > kMaxDepth) return false;
  const json j = json::parse(text, nullptr, false);
  return j.is_object() && j.contains(kScenarioMarker);
}

bool parseScenario(const std::string& text, Scenario& out, std::string& error) {
  return parseScenarioText(text, "", out, error);
}

bool loadScenarioFile(const std::string& path, Scenario& out, std::string& error) {
  base::JsonErrors errors(path);
  auto fail = [&](const std::string& problem) {
    errors.fail("", problem);
    error = errors.message;
    return false;
  };
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return fail("no such file");
  if (fs::file_size(path, ec) > kMaxScenarioBytes)
    return fail("larger than " + std::to_string(kMaxScenarioBytes >> 20) + " MiB: not a scenario");
  std::ifstream f(path, std::ios::binary);
  if (!f) return fail("cannot read");
  std::stringstream ss;
  ss << f.rdbuf();
  return parseScenarioText(ss.str(), path, out, error);
}

bool saveScenarioFile(const std::string& path, const Scenario& s, std::string& error) {
  return base::writeFileAtomic(path, toJson(s), error);
}

bool scenarioFromPngText(const std::vector<std::pair<std::string, std::string>>& text, Scenario& out, std::string& error) {
  for (const auto& kv : text) {
    if (kv.first != kScenarioPngKeyword) continue;
    return parseScenarioText(kv.second, std::string("text chunk '") + kScenarioPngKeyword + "'", out, error);
  }
  error = std::string("no scenario inside (no '") + kScenarioPngKeyword +
          "' text chunk: not a NavBench screenshot, or one made before scenarios were embedded)";
  return false;
}

std::string bakeSettingsHash(const std::string& settingsJson) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : settingsJson) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string relativeTo(const std::string& baseDir, const std::string& path) {
  if (path.empty()) return path;
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec).lexically_normal();
  if (ec) return path;
  fs::path base = fs::absolute(baseDir.empty() ? "." : baseDir, ec).lexically_normal();
  if (ec) return abs.generic_string();
  if (!base.has_filename() && base.has_parent_path() && base != base.root_path()) base = base.parent_path(); // "dir/" -> "dir"
  const fs::path rel = abs.lexically_relative(base);
  if (rel.empty() || abs.root_name() != base.root_name()) return abs.generic_string();
  // Only within one top-level folder (/home/..., /work/...): "../../../tmp/x" helps nobody.
  auto first = [](const fs::path& p) { return p.relative_path().empty() ? fs::path() : *p.relative_path().begin(); };
  if (first(abs) != first(base)) return abs.generic_string();
  return rel.generic_string();
}

std::string resolveFrom(const std::string& baseDir, const std::string& path) {
  if (path.empty()) return path;
  const fs::path p(path);
  if (p.is_absolute()) return p.lexically_normal().string();
  return (fs::path(baseDir.empty() ? "." : baseDir) / p).lexically_normal().string();
}

} // namespace navbench
