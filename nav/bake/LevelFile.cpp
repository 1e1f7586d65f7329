#include "nav/bake/LevelFile.h"
#include "nav/bake/LevelMesh.h"
#include "nav/base/AtomicFile.h"
#include "nav/base/Json.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>

namespace nav::bake {

using nlohmann::json;

namespace {

/// An area: a name (ground, water, road, door, grass, jump) or a number 0..62.
bool getArea(const base::JsonIn& v, uint8_t* out) {
  if (v.json().is_string()) {
    std::string name;
    if (!v.get(name, 64)) return false;
    if (!areaFromName(name.c_str(), out))
      return v.fail("unknown area '" + name + "' (ground, water, road, door, grass, jump or 0..62)");
    return true;
  }
  int a = 0;
  if (!v.get(a, 0, 62)) return false;
  *out = uint8_t(a);
  return true;
}

/// Flags: a list of names (walk, swim, door, jump, disabled) or a number that fits 16 bits.
bool getFlags(const base::JsonIn& v, uint16_t* out) {
  if (v.json().is_array()) {
    uint16_t flags = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      std::string name;
      if (!v[i].get(name, 64)) return false;
      uint16_t f = 0;
      if (!flagFromName(name.c_str(), &f)) return v[i].fail("unknown flag '" + name + "' (walk, swim, door, jump, disabled)");
      flags = uint16_t(flags | f);
    }
    *out = flags;
    return true;
  }
  unsigned f = 0;
  if (!v.get(f, 0, 0xffff)) return false;
  *out = uint16_t(f);
  return true;
}

json flagsToJson(uint16_t flags) {
  json a = json::array();
  for (int b = 0; b < 16; ++b)
    if (flags & (1u << b)) {
      const char* n = flagName(uint16_t(1u << b));
      if (!n) return json(flags); // an unnamed bit: write the number
      a.push_back(n);
    }
  return a;
}

json areaToJson(uint8_t area) {
  const char* n = areaName(area);
  return n ? json(n) : json(int(area));
}

// The settings by name and type: one table serves writing and reading.
template <class V>
struct Setting {
  const char* name;
  V BakeSettings::*ptr;
};
const Setting<float> kFloatSettings[] = {
    {"cellSize", &BakeSettings::cellSize},           {"cellHeight", &BakeSettings::cellHeight},
    {"agentHeight", &BakeSettings::agentHeight},     {"agentRadius", &BakeSettings::agentRadius},
    {"agentMaxClimb", &BakeSettings::agentMaxClimb}, {"agentMaxSlope", &BakeSettings::agentMaxSlope},
    {"edgeMaxLen", &BakeSettings::edgeMaxLen},       {"edgeMaxError", &BakeSettings::edgeMaxError},
    {"detailSampleDist", &BakeSettings::detailSampleDist},
    {"detailSampleMaxError", &BakeSettings::detailSampleMaxError},
};
const Setting<int> kIntSettings[] = {
    {"regionMinSize", &BakeSettings::regionMinSize}, {"regionMergeSize", &BakeSettings::regionMergeSize},
    {"vertsPerPoly", &BakeSettings::vertsPerPoly},   {"tileSize", &BakeSettings::tileSize},
};
const Setting<bool> kBoolSettings[] = {
    {"filterLowHangingObstacles", &BakeSettings::filterLowHangingObstacles},
    {"filterLedgeSpans", &BakeSettings::filterLedgeSpans},
    {"filterWalkableLowHeightSpans", &BakeSettings::filterWalkableLowHeightSpans},
    {"tiled", &BakeSettings::tiled},
};

json settingsJson(const BakeSettings& s) {
  json j = json::object();
  for (const Setting<float>& f : kFloatSettings) j[f.name] = base::exactFloat(s.*f.ptr);
  for (const Setting<int>& i : kIntSettings) j[i.name] = s.*i.ptr;
  for (const Setting<bool>& b : kBoolSettings) j[b.name] = s.*b.ptr;
  j["partition"] = partitionName(s.partition);
  return j;
}

/// Reads the settings present in `in` over *s (ranges are BakeSettings::validate's, checked after).
bool parseSettings(const base::JsonIn& in, BakeSettings* s) {
  if (!in.object()) return false;
  for (auto it = in.json().begin(); it != in.json().end(); ++it) {
    const std::string& k = it.key();
    const base::JsonIn v = in[k];
    bool known = false, ok = true;
    auto read = [&](const auto& table) {
      for (const auto& field : table)
        if (k == field.name) {
          known = true;
          ok = v.get(s->*field.ptr);
        }
    };
    read(kFloatSettings);
    read(kIntSettings);
    read(kBoolSettings);
    if (k == "partition") {
      known = true;
      std::string name;
      ok = v.get(name, 64);
      if (ok && !partitionFromName(name.c_str(), &s->partition))
        ok = v.fail("expected \"watershed\", \"monotone\" or \"layers\", got \"" + name + "\"");
    }
    if (!known) return v.fail("unknown setting");
    if (!ok) return false;
  }
  std::string why;
  return s->validate(&why) || in.fail(why);
}

bool parseVolume(const base::JsonIn& v, ConvexVolume* cv) {
  if (!v.object({"area", "hmin", "hmax", "verts"}) || !getArea(v["area"], &cv->area) || !v.get("hmin", cv->hmin) ||
      !v.get("hmax", cv->hmax))
    return false;
  if (cv->hmin > cv->hmax) return v["hmin"].fail("hmin > hmax");
  const base::JsonIn vs = v["verts"];
  if (!vs.array(3, 12)) return false;
  for (size_t p = 0; p < vs.size(); ++p) {
    float xyz[3];
    if (!vs[p].getVec3(xyz)) return false;
    cv->verts.insert(cv->verts.end(), xyz, xyz + 3);
  }
  return true;
}

bool parseLink(const base::JsonIn& v, OffMeshLink* l) {
  if (!v.object({"start", "end", "radius", "bidirectional", "area", "flags", "userId"}) || !v["start"].getVec3(l->start) ||
      !v["end"].getVec3(l->end) || !v.opt("radius", l->radius) || !v.opt("bidirectional", l->bidirectional) ||
      (v.has("area") && !getArea(v["area"], &l->area)) || (v.has("flags") && !getFlags(v["flags"], &l->flags)) ||
      !v.opt("userId", l->userId, 0, 0x7fffffff))
    return false;
  if (!(l->radius > 0)) return v["radius"].fail("must be > 0");
  return true;
}

/// {"match": GLOB, "area": NAME} or {"match": GLOB, "exclude": true}.
bool parseAreaRule(const base::JsonIn& v, AreaRule* rule) {
  if (!v.object({"match", "area", "exclude"}) || !v.get("match", rule->match, 1024) || !v.opt("exclude", rule->exclude))
    return false;
  std::string problem;
  if (!checkGlob(rule->match, &problem)) return v["match"].fail(problem);
  if (rule->exclude && v.has("area")) return v["area"].fail("a rule gives an area or \"exclude\": true, not both");
  if (!rule->exclude) {
    if (!v.has("area")) return v["area"].fail("missing: a rule needs an area, or \"exclude\": true");
    if (!getArea(v["area"], &rule->area)) return false;
  }
  return true;
}

} // namespace

json areaRulesToJson(const std::vector<AreaRule>& rules) {
  json a = json::array();
  for (const AreaRule& r : rules) {
    json o = json::object();
    o["match"] = r.match;
    if (r.exclude) o["exclude"] = true;
    else o["area"] = areaToJson(r.area);
    a.push_back(o);
  }
  return a;
}

namespace {

/// The optional array at `key`, each element read into `out` by `parse(element, &item)`.
template <class T, class Parse>
bool optList(const base::JsonIn& in, const char* key, std::vector<T>* out, Parse parse) {
  if (!in.has(key)) return true;
  const base::JsonIn a = in[key];
  if (!a.array()) return false;
  out->resize(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    if (!parse(a[i], &(*out)[i])) return false;
  return true;
}

/// An agents[] entry: {"name": "truck", "color": "#d04020", <settings keys it overrides>...}.
bool parseAgent(const base::JsonIn& v, const BakeSettings& level, AgentType* a) {
  if (!v.object() || !v.get("name", a->name, 64)) return false;
  if (a->name.empty()) return v["name"].fail("empty agent name");
  std::string color = "#808080";
  if (!v.opt("color", color, 16)) return false;
  char* end = nullptr;
  const unsigned long rgb = color.size() == 7 && color[0] == '#' ? std::strtoul(color.c_str() + 1, &end, 16) : 0;
  if (!end || *end) return v["color"].fail("expected \"#rrggbb\", got \"" + color + "\"");
  a->color = uint32_t(rgb);
  json overrides = v.json();
  overrides.erase("name");
  overrides.erase("color");
  a->settings = level;
  return parseSettings(base::JsonIn(overrides, v.errors(), v.path()), &a->settings);
}

bool parseLevel(const base::JsonIn& in, Level* out) {
  if (!in.object({"format", "version", "obj", "settings", "convexVolumes", "offMeshLinks", "seeds", "areaRules", "agents"}))
    return false;
  std::string format = "navbench-level";
  if (!in.opt("format", format, 64)) return false;
  if (format != "navbench-level") return in["format"].fail("expected \"navbench-level\", got \"" + format + "\"");
  int version = 1;
  if (!in.opt("version", version)) return false;
  if (version != 1) return in["version"].fail("unsupported version " + std::to_string(version) + " (this build reads 1)");
  Level lv;
  if (!in.has("obj")) return in["obj"].fail("missing: the level file must name its OBJ file");
  if (!in["obj"].get(lv.objPath)) return false;
  if (lv.objPath.empty()) return in["obj"].fail("empty: the level file must name its OBJ file");
  if (in.has("settings") && !parseSettings(in["settings"], &lv.settings)) return false;
  if (!optList(in, "convexVolumes", &lv.volumes, parseVolume) || !optList(in, "offMeshLinks", &lv.links, parseLink) ||
      !optList(in, "seeds", &lv.seeds, [](const base::JsonIn& v, std::array<float, 3>* p) { return v.getVec3(p->data()); }) ||
      (in.has("areaRules") && !areaRulesFromJson(in["areaRules"], &lv.areaRules)) ||
      !optList(in, "agents", &lv.agents, [&lv](const base::JsonIn& v, AgentType* a) { return parseAgent(v, lv.settings, a); }))
    return false;
  for (size_t i = 0; i < lv.agents.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (lv.agents[i].name == lv.agents[k].name) return in["agents"][i]["name"].fail("duplicate agent name '" + lv.agents[i].name + "'");
  if (lv.agents.size() > size_t(kMaxAgentTypes)) return in["agents"].fail("more than 32 agent types");
  *out = std::move(lv);
  return true;
}

bool failWith(std::string* why, const base::JsonErrors& errors) {
  if (why) *why = errors.message;
  return false;
}

/// A settings object, or a level file's "settings", over *out (which is unchanged on failure).
bool settingsFrom(const json& j, base::JsonErrors& errors, BakeSettings* out) {
  BakeSettings s = *out;
  const bool level = j.is_object() && j.contains("settings");
  if (!parseSettings(level ? base::JsonIn(j, errors)["settings"] : base::JsonIn(j, errors, "settings"), &s)) return false;
  *out = s;
  return true;
}

} // namespace

bool areaRulesFromJson(const base::JsonIn& list, std::vector<AreaRule>* out) {
  std::vector<AreaRule> rules;
  if (!list.array()) return false;
  rules.resize(list.size());
  for (size_t i = 0; i < list.size(); ++i)
    if (!parseAreaRule(list[i], &rules[i])) return false;
  *out = std::move(rules);
  return true;
}

std::string settingsToJson(const BakeSettings& s) { return settingsJson(s).dump(2); }

bool settingsFromJson(const std::string& text, BakeSettings* out, std::string* why) {
  base::JsonErrors errors;
  json j;
  return (base::parseJson(text, errors, j) && settingsFrom(j, errors, out)) || failWith(why, errors);
}

bool loadSettingsFile(const std::string& path, BakeSettings* out, std::string* why) {
  base::JsonErrors errors(path);
  json j;
  return (base::readJsonFile(path, errors, j) && settingsFrom(j, errors, out)) || failWith(why, errors);
}

bool loadLevelFile(const std::string& path, Level* out, std::string* why) {
  base::JsonErrors errors(path);
  json j;
  return (base::readJsonFile(path, errors, j) && parseLevel(base::JsonIn(j, errors), out)) || failWith(why, errors);
}

bool saveLevelFile(const std::string& path, const Level& level, std::string* why) {
  json j = json::object();
  j["format"] = "navbench-level";
  j["version"] = 1;
  j["obj"] = level.objPath;
  j["settings"] = settingsJson(level.settings);
  json vols = json::array();
  for (const ConvexVolume& v : level.volumes) {
    json o = json::object();
    o["area"] = areaToJson(v.area);
    o["hmin"] = base::exactFloat(v.hmin);
    o["hmax"] = base::exactFloat(v.hmax);
    json pts = json::array();
    for (size_t p = 0; p + 2 < v.verts.size(); p += 3) pts.push_back(base::exactVec3(&v.verts[p]));
    o["verts"] = pts;
    vols.push_back(o);
  }
  j["convexVolumes"] = vols;
  json links = json::array();
  for (const OffMeshLink& l : level.links) {
    json o = json::object();
    o["start"] = base::exactVec3(l.start);
    o["end"] = base::exactVec3(l.end);
    o["radius"] = base::exactFloat(l.radius);
    o["bidirectional"] = l.bidirectional;
    o["area"] = areaToJson(l.area);
    o["flags"] = flagsToJson(l.flags);
    if (l.userId) o["userId"] = l.userId;
    links.push_back(o);
  }
  j["offMeshLinks"] = links;
  if (!level.areaRules.empty()) j["areaRules"] = areaRulesToJson(level.areaRules);
  if (!level.seeds.empty()) {
    json seeds = json::array();
    for (const std::array<float, 3>& p : level.seeds) seeds.push_back(base::exactVec3(p.data()));
    j["seeds"] = seeds;
  }
  if (!level.agents.empty()) {
    json agents = json::array();
    const json base = settingsJson(level.settings);
    for (const AgentType& a : level.agents) {
      char color[8];
      std::snprintf(color, sizeof color, "#%06x", unsigned(a.color & 0xffffffu));
      json o = json::object();
      o["name"] = a.name;
      o["color"] = color;
      const json mine = settingsJson(a.settings);
      for (auto it = mine.begin(); it != mine.end(); ++it)
        if (base[it.key()] != it.value()) o[it.key()] = it.value();
      agents.push_back(o);
    }
    j["agents"] = agents;
  }
  const std::string text = j.dump(2) + "\n";
  std::string err; // temp file + rename: a failed write leaves the old file
  if (!base::writeFileAtomic(path, text, err)) {
    if (why) *why = err;
    return false;
  }
  return true;
}

std::string resolveObjPath(const std::string& levelPath, const Level& level) {
  if (level.objPath.empty() || level.objPath[0] == '/') return level.objPath;
  const size_t slash = levelPath.find_last_of('/');
  if (slash == std::string::npos) return level.objPath;
  return levelPath.substr(0, slash + 1) + level.objPath;
}

bool loadBakeInput(const std::string& path, BakeInput* input, BakeSettings* settings, std::string* why) {
  const bool isJson = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  BakeInput in;
  BakeSettings s;
  std::string objPath = path;
  if (isJson) {
    Level lv;
    if (!loadLevelFile(path, &lv, why)) return false;
    objPath = resolveObjPath(path, lv);
    s = lv.settings;
    in.volumes = std::move(lv.volumes);
    in.links = std::move(lv.links);
    in.areaRules = std::move(lv.areaRules);
  }
  LevelMesh mesh;
  std::string objWhy;
  if (!loadLevelMesh(objPath, &mesh, &objWhy)) {
    if (why) *why = isJson ? path + ": its OBJ " + objWhy : objWhy;
    return false;
  }
  in.verts = std::move(mesh.verts);
  in.tris = std::move(mesh.tris);
  in.groups = std::move(mesh.groups); // what areaRules match (kept without rules: the viewer edits them)
  in.triGroup = std::move(mesh.triGroup);
  std::string check;
  if (!in.validate(&check)) {
    if (why) *why = (isJson ? path + " (" + objPath + ")" : objPath) + ": " + check;
    return false;
  }
  *input = std::move(in);
  *settings = s;
  return true;
}

} // namespace nav::bake
