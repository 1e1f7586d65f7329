#include "app/Scenario.h"

#include "nav/base/AtomicFile.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace navbench {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kMaxDepth = 32;

/// Deepest [ / { nesting of a JSON text (outside strings). Refused before parsing, so no
/// recursion (dump, comparison) ever sees a pathological document.
int nestingDepth(const std::string& text) {
  int depth = 0, maxDepth = 0;
  bool inString = false, escape = false;
  for (char c : text) {
    if (inString) {
      if (escape) escape = false;
      else if (c == '\\') escape = true;
      else if (c == '"') inString = false;
      continue;
    }
    if (c == '"') inString = true;
    else if (c == '[' || c == '{') maxDepth = std::max(maxDepth, ++depth);
    else if (c == ']' || c == '}') --depth;
  }
  return maxDepth;
}

std::string typeName(const json& v) { return v.type_name(); }

/// Field readers: each checks type and range and names the key on failure.
class Reader {
public:
  std::string error;

  bool object(const json& v, const std::string& key) {
    if (v.is_object()) return true;
    return fail(key, "expected an object, got " + typeName(v));
  }
  /// Unknown keys are errors (a typo would otherwise be silently ignored).
  bool onlyKeys(const json& v, const std::string& key, std::initializer_list<const char*> keys) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      bool known = false;
      for (const char* k : keys) known = known || it.key() == k;
      if (!known) return fail(join(key, it.key()), "unknown key");
    }
    return true;
  }
  bool has(const json& v, const char* k, const std::string& key) {
    if (v.contains(k)) return true;
    return fail(join(key, k), "missing");
  }
  bool str(const json& v, const std::string& key, std::string& out, size_t maxLen = 4096) {
    if (!v.is_string()) return fail(key, "expected a string, got " + typeName(v));
    const std::string& s = v.get_ref<const std::string&>();
    if (s.size() > maxLen) return fail(key, "longer than " + std::to_string(maxLen) + " bytes");
    if (s.find('\0') != std::string::npos) return fail(key, "contains a NUL character");
    out = s;
    return true;
  }
  bool boolean(const json& v, const std::string& key, bool& out) {
    if (!v.is_boolean()) return fail(key, "expected true or false, got " + typeName(v));
    out = v.get<bool>();
    return true;
  }
  bool integer(const json& v, const std::string& key, int& out, long long lo, long long hi) {
    if (!v.is_number_integer()) return fail(key, "expected an integer, got " + typeName(v));
    long long x = 0;
    if (v.is_number_unsigned()) {
      const unsigned long long u = v.get<unsigned long long>();
      x = u > (1ull << 62) ? (1ll << 62) : (long long)u;
    } else {
      x = v.get<long long>();
    }
    if (x < lo || x > hi) return fail(key, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + v.dump());
    out = int(x);
    return true;
  }
  bool number(const json& v, const std::string& key, float& out, double lo, double hi, bool loOpen = false) {
    float f;
    if (!readFloat(v, key, f, error)) return false;
    if (double(f) < lo || double(f) > hi || (loOpen && double(f) == lo)) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "must be in %s%g, %g], got %g", loOpen ? "(" : "[", lo, hi, double(f));
      return fail(key, buf);
    }
    out = f;
    return true;
  }
  bool fail(const std::string& key, const std::string& what) {
    error = key + ": " + what;
    return false;
  }
  static std::string join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "." + b; }
};

// The draw toggles by name: one table serves writing and reading.
struct BoolField {
  const char* name;
  bool ScenarioNavDraw::*ptr;
};
const BoolField kNavDrawBools[] = {
    {"polys", &ScenarioNavDraw::polys},         {"polyEdges", &ScenarioNavDraw::polyEdges},
    {"tileBorders", &ScenarioNavDraw::tileBorders}, {"portals", &ScenarioNavDraw::portals},
    {"offMeshLinks", &ScenarioNavDraw::offMeshLinks}, {"detailMesh", &ScenarioNavDraw::detailMesh},
    {"bvTree", &ScenarioNavDraw::bvTree},       {"tileLabels", &ScenarioNavDraw::tileLabels},
};
struct ViewBool {
  const char* name;
  bool ViewSettings::*ptr;
};
const ViewBool kViewBools[] = {
    {"drawLevel", &ViewSettings::drawLevel}, {"wireframe", &ViewSettings::wireframe},
    {"grid", &ViewSettings::grid},           {"showStats", &ViewSettings::showStats},
    {"levelLod", &ViewSettings::levelLod},
};
struct ViewFloat {
  const char* name;
  float ViewSettings::*ptr;
  double lo, hi;
};
const ViewFloat kViewFloats[] = {
    {"lightYaw", &ViewSettings::lightYaw, -100.0, 100.0},
    {"lightPitch", &ViewSettings::lightPitch, -100.0, 100.0},
    {"ambient", &ViewSettings::ambient, 0.0, 1.0},
    {"walkableSlopeDeg", &ViewSettings::walkableSlopeDeg, 0.0, 90.0},
};

bool parseCamera(Reader& r, const json& v, ScenarioCamera& c) {
  const std::string k = "camera";
  if (!r.object(v, k) || !r.onlyKeys(v, k, {"target", "yaw", "pitch", "distance", "fovY"})) return false;
  for (const char* f : {"target", "yaw", "pitch", "distance", "fovY"})
    if (!r.has(v, f, k)) return false;
  if (!readVec3(v["target"], "camera.target", c.target, r.error)) return false;
  for (float t : c.target)
    if (std::fabs(t) > 1e9f) return r.fail("camera.target", "coordinates must be within 1e9");
  return r.number(v["yaw"], "camera.yaw", c.yaw, -1000.0, 1000.0) &&
         r.number(v["pitch"], "camera.pitch", c.pitch, -1.5708, 1.5708) &&
         r.number(v["distance"], "camera.distance", c.distance, 0.0, 1e9, true) &&
         r.number(v["fovY"], "camera.fovY", c.fovY, 0.1, 3.0);
}

bool parseFilter(Reader& r, const json& v, ScenarioFilter& f) {
  const std::string k = "filter";
  if (!r.object(v, k) || !r.onlyKeys(v, k, {"includeFlags", "excludeFlags", "heuristicScale", "maxNodes", "areas"}))
    return false;
  for (const char* x : {"includeFlags", "excludeFlags", "heuristicScale", "maxNodes", "areas"})
    if (!r.has(v, x, k)) return false;
  if (!r.integer(v["includeFlags"], "filter.includeFlags", f.includeFlags, 0, 0xffff) ||
      !r.integer(v["excludeFlags"], "filter.excludeFlags", f.excludeFlags, 0, 0xffff) ||
      !r.number(v["heuristicScale"], "filter.heuristicScale", f.heuristicScale, 0.0, 10.0) ||
      !r.integer(v["maxNodes"], "filter.maxNodes", f.maxNodes, 1, 65535))
    return false;
  const json& a = v["areas"];
  if (!a.is_array()) return r.fail("filter.areas", "expected an array, got " + typeName(a));
  if (a.size() > 64) return r.fail("filter.areas", "more than 64 entries");
  f.areas.clear();
  int last = -1;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string ak = "filter.areas[" + std::to_string(i) + "]";
    ScenarioAreaCost c;
    if (!r.object(a[i], ak) || !r.onlyKeys(a[i], ak, {"area", "cost", "enterCost"})) return false;
    for (const char* x : {"area", "cost", "enterCost"})
      if (!r.has(a[i], x, ak)) return false;
    if (!r.integer(a[i]["area"], ak + ".area", c.area, 0, 63) ||
        !r.number(a[i]["cost"], ak + ".cost", c.cost, 0.0, 1e6, true) ||
        !r.number(a[i]["enterCost"], ak + ".enterCost", c.enterCost, 0.0, 1e9))
      return false;
    if (c.area <= last) return r.fail(ak + ".area", "areas must be listed once each, in increasing order");
    last = c.area;
    f.areas.push_back(c);
  }
  return true;
}

bool parseNavDraw(Reader& r, const json& v, ScenarioNavDraw& d) {
  const std::string k = "navDraw";
  if (!r.object(v, k)) return false;
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string key = "navDraw." + it.key();
    bool known = false;
    for (const BoolField& b : kNavDrawBools)
      if (it.key() == b.name) {
        if (!r.boolean(it.value(), key, d.*b.ptr)) return false;
        known = true;
      }
    if (it.key() == "lift") {
      if (!r.number(it.value(), key, d.lift, -10.0, 10.0)) return false;
      known = true;
    }
    if (!known) return r.fail(key, "unknown key");
  }
  return true;
}

bool parseView(Reader& r, const json& v, ViewSettings& s) {
  const std::string k = "view";
  if (!r.object(v, k)) return false;
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string key = "view." + it.key();
    bool known = false;
    for (const ViewBool& b : kViewBools)
      if (it.key() == b.name) {
        if (!r.boolean(it.value(), key, s.*b.ptr)) return false;
        known = true;
      }
    for (const ViewFloat& f : kViewFloats)
      if (it.key() == f.name) {
        if (!r.number(it.value(), key, s.*f.ptr, f.lo, f.hi)) return false;
        known = true;
      }
    if (!known) return r.fail(key, "unknown key");
  }
  return true;
}

} // namespace

json exactFloat(float f) {
  if (!std::isfinite(f)) return nullptr; // refused by readFloat: a scenario never holds one
  char buf[48];
  for (int p = 1; p <= 9; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, double(f));
    const double d = std::strtod(buf, nullptr);
    if (float(d) == f && std::signbit(d) == std::signbit(f)) return d;
  }
  return double(f); // always exact
}

bool readFloat(const json& v, const std::string& key, float& out, std::string& error) {
  if (!v.is_number()) {
    error = key + ": expected a number, got " + (v.is_null() ? std::string("null (not a finite number?)") : typeName(v));
    return false;
  }
  const double d = v.get<double>();
  // Finite and rounding to a finite float (FLT_MAX's shortest decimal is a little above FLT_MAX).
  if (!std::isfinite(d) || std::fabs(d) >= std::ldexp(double(0x1ffffff), 103)) {
    error = key + ": not a finite float: " + v.dump();
    return false;
  }
  out = float(d);
  return true;
}

json exactVec3(const float* v) { return json::array({exactFloat(v[0]), exactFloat(v[1]), exactFloat(v[2])}); }

bool readVec3(const json& v, const std::string& key, float* out, std::string& error) {
  if (!v.is_array() || v.size() != 3) {
    error = key + ": expected [x, y, z], got " + (v.is_array() ? std::to_string(v.size()) + " values" : typeName(v));
    return false;
  }
  float t[3];
  for (size_t i = 0; i < 3; ++i)
    if (!readFloat(v[i], key + "[" + std::to_string(i) + "]", t[i], error)) return false;
  std::copy(t, t + 3, out);
  return true;
}

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
  for (const BoolField& b : kNavDrawBools) nd[b.name] = s.navDraw.*b.ptr;
  nd["lift"] = exactFloat(s.navDraw.lift);
  j["navDraw"] = nd;
  json vw = json::object();
  for (const ViewBool& b : kViewBools) vw[b.name] = s.view.*b.ptr;
  for (const ViewFloat& f : kViewFloats) vw[f.name] = exactFloat(s.view.*f.ptr);
  j["view"] = vw;
  j["note"] = s.note;
  if (s.edits.is_object() && !s.edits.empty()) j["edits"] = s.edits;
  // Invalid UTF-8 (a note pasted from elsewhere) is replaced rather than throwing.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

bool looksLikeScenario(const std::string& text) {
  if (text.size() > kMaxScenarioBytes || nestingDepth(text) > kMaxDepth) return false;
  const json j = json::parse(text, nullptr, false);
  return j.is_object() && j.contains(kScenarioMarker);
}

bool parseScenario(const std::string& text, Scenario& out, std::string& error) {
  if (text.size() > kMaxScenarioBytes) {
    error = "scenario larger than " + std::to_string(kMaxScenarioBytes >> 20) + " MiB";
    return false;
  }
  if (nestingDepth(text) > kMaxDepth) {
    error = "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels";
    return false;
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) { // parse_error, and out_of_range for a number like 1e9999 (fuzz_scenario)
    error = std::string("not valid JSON: ") + e.what();
    return false;
  }
  Reader r;
  Scenario s;
  auto done = [&](bool ok) {
    if (!ok) error = r.error;
    return ok;
  };
  if (!j.is_object()) return done(r.fail("scenario", "expected a JSON object, got " + typeName(j)));
  if (!j.contains(kScenarioMarker))
    return done(r.fail(kScenarioMarker, "missing: not a NavBench scenario (a level file or other JSON?)"));
  if (!r.integer(j[kScenarioMarker], kScenarioMarker, s.version, 1, 1 << 30)) return done(false);
  if (s.version > kScenarioVersion)
    return done(r.fail(kScenarioMarker, "version " + std::to_string(s.version) + " is newer than this NavBench reads (" +
                                            std::to_string(kScenarioVersion) + ")"));
  if (!r.onlyKeys(j, "", {kScenarioMarker, "level", "navmesh", "bakeSettingsHash", "camera", "tool", "filter", "navDraw",
                          "view", "note", "edits"}))
    return done(false);
  for (const char* k : {"level", "navmesh", "camera", "tool", "filter"})
    if (!r.has(j, k, "")) return done(false);
  if (!r.str(j["level"], "level", s.level) || !r.str(j["navmesh"], "navmesh", s.navmesh)) return done(false);
  if (s.level.empty() && s.navmesh.empty()) return done(r.fail("level", "neither a level nor a navmesh is given"));
  if (j.contains("bakeSettingsHash") && !r.str(j["bakeSettingsHash"], "bakeSettingsHash", s.bakeSettingsHash, 64))
    return done(false);
  if (!parseCamera(r, j["camera"], s.camera)) return done(false);
  const json& t = j["tool"];
  if (!r.object(t, "tool") || !r.onlyKeys(t, "tool", {"name", "state"}) || !r.has(t, "name", "tool") ||
      !r.str(t["name"], "tool.name", s.toolName, 128))
    return done(false);
  if (s.toolName.empty()) return done(r.fail("tool.name", "empty"));
  if (t.contains("state")) {
    if (!r.object(t["state"], "tool.state")) return done(false);
    s.toolState = t["state"];
  }
  if (!parseFilter(r, j["filter"], s.filter)) return done(false);
  if (j.contains("navDraw") && !parseNavDraw(r, j["navDraw"], s.navDraw)) return done(false);
  if (j.contains("view") && !parseView(r, j["view"], s.view)) return done(false);
  if (j.contains("note") && !r.str(j["note"], "note", s.note, kMaxScenarioNoteBytes)) return done(false);
  if (j.contains("edits")) {
    if (!r.object(j["edits"], "edits")) return done(false);
    s.edits = j["edits"];
  }
  out = std::move(s);
  return true;
}

bool loadScenarioFile(const std::string& path, Scenario& out, std::string& error) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    error = path + ": no such file";
    return false;
  }
  if (fs::file_size(path, ec) > kMaxScenarioBytes) {
    error = path + ": larger than " + std::to_string(kMaxScenarioBytes >> 20) + " MiB: not a scenario";
    return false;
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    error = path + ": cannot read";
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  std::string why;
  if (!parseScenario(ss.str(), out, why)) {
    error = path + ": " + why;
    return false;
  }
  return true;
}

bool saveScenarioFile(const std::string& path, const Scenario& s, std::string& error) {
  return base::writeFileAtomic(path, toJson(s), error);
}

bool scenarioFromPngText(const std::vector<std::pair<std::string, std::string>>& text, Scenario& out, std::string& error) {
  for (const auto& kv : text) {
    if (kv.first != kScenarioPngKeyword) continue;
    std::string why;
    if (!parseScenario(kv.second, out, why)) {
      error = std::string("text chunk '") + kScenarioPngKeyword + "': " + why;
      return false;
    }
    return true;
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
