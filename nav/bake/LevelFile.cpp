#include "nav/bake/LevelFile.h"
#include "nav/bake/LevelMesh.h"
#include "nav/base/AtomicFile.h"
#include "nav/base/Json.h"

#include <nlohmann/json.hpp>

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

/// Reads setting `k` from `v` into *s; *known false when `k` names no setting.
bool readSetting(const std::string& k, const base::JsonIn& v, BakeSettings* s, bool* known) {
  bool ok = true;
  *known = false;
  auto read = [&](const auto& table) {
    for (const auto& field : table)
      if (k == field.name) {
        *known = true;
        ok = v.get(s->*field.ptr);
      }
  };
  read(kFloatSettings);
  read(kIntSettings);
  read(kBoolSettings);
  if (k == "partition") {
    *known = true;
    std::string name;
    ok = v.get(name, 64);
    if (ok && !partitionFromName(name.c_str(), &s->partition))
      ok = v.fail("expected \"watershed\", \"monotone\" or \"layers\", got \"" + name + "\"");
  }
  return ok;
}

/// Reads the settings present in `in` over *s (ranges are BakeSettings::validate's, checked after).
bool parseSettings(const base::JsonIn& in, BakeSettings* s) {
  if (!in.object()) return false;
  for (auto it = in.json().begin(); it != in.json().end(); ++it) {
    const base::JsonIn v = in[it.key()];
    bool known = false;
    const bool ok = readSetting(it.key(), v, s, &known);
    if (!known) return v.fail("unknown setting");
    if (!ok) return false;
  }
  std::string why;
  return s->validate(&why) || in.fail(why);
}

/// Copies the setting named `k` from `from` to *to; false when `k` names no setting.
bool copySetting(const std::string& k, const BakeSettings& from, BakeSettings* to) {
  bool known = false;
  auto copy = [&](const auto& table) {
    for (const auto& field : table)
      if (k == field.name) {
        known = true;
        to->*field.ptr = from.*field.ptr;
      }
  };
  copy(kFloatSettings);
  copy(kIntSettings);
  copy(kBoolSettings);
  if (k == "partition") {
    known = true;
    to->partition = from.partition;
  }
  return known;
}

/// "#rrggbb" or [r, g, b] (0..255 each) -> 0xRRGGBB.
bool getColor(const base::JsonIn& v, uint32_t* out) {
  if (v.json().is_string()) {
    std::string t;
    if (!v.get(t, 16)) return false;
    uint32_t c = 0;
    bool ok = t.size() == 7 && t[0] == '#';
    for (size_t i = 1; ok && i < 7; ++i) {
      const char h = t[i];
      const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      ok = d >= 0;
      c = c * 16 + uint32_t(d < 0 ? 0 : d);
    }
    if (!ok) return v.fail("expected \"#rrggbb\" or [r, g, b], got \"" + t + "\"");
    *out = c;
    return true;
  }
  if (!v.array(3, 3)) return false;
  uint32_t c = 0;
  for (size_t i = 0; i < 3; ++i) {
    int x = 0;
    if (!v[i].get(x, 0, 255)) return false;
    c = (c << 8) | uint32_t(x);
  }
  *out = c;
  return true;
}

std::string colorText(uint32_t c) {
  static const char* kHex = "0123456789abcdef";
  std::string t = "#";
  for (int shift = 20; shift >= 0; shift -= 4) t += kHex[(c >> shift) & 0xf];
  return t;
}

/// One `agents` entry: name, colour and settings keys over `level`'s settings. Problems with its
/// settings are reported as `agents[i] "name": key ...` (the file prefix comes from the errors).
bool parseAgent(const base::JsonIn& v, const BakeSettings& level, int index, AgentType* out) {
  if (!v.object()) return false;
  AgentType a;
  if (!v.has("name")) return v["name"].fail("missing: every agent type needs a name");
  if (!v["name"].get(a.name, 64)) return false;
  std::string problem;
  if (!checkAgentName(a.name, &problem)) return v["name"].fail(problem);
  const std::string where = v.path() + " \"" + a.name + "\"";
  a.color = defaultAgentColor(index);
  if (v.has("color") && !getColor(base::JsonIn(v.json()["color"], v.errors(), where + ": color"), &a.color)) return false;
  a.settings = level;
  for (auto it = v.json().begin(); it != v.json().end(); ++it) {
    const std::string& k = it.key();
    if (k == "name" || k == "color") continue;
    bool known = false;
    if (!readSetting(k, base::JsonIn(it.value(), v.errors(), where + ": " + k), &a.settings, &known)) return false;
    if (!known) return v.errors().fail(where, "unknown key \"" + k + "\" (name, color or a settings key)");
    a.overrides.push_back(k);
  }
  if (!a.settings.validate(&problem)) return v.errors().fail(where, problem);
  *out = std::move(a);
  return true;
}

/// The optional "agents" of a volume, link, rule or seed.
bool optAgents(const base::JsonIn& v, const std::vector<AgentType>* agents, AgentMask* out) {
  return !v.has("agents") || agentMaskFromJson(v["agents"], agents, out);
}

bool parseVolume(const base::JsonIn& v, const std::vector<AgentType>* agents, ConvexVolume* cv) {
  if (!v.object({"area", "hmin", "hmax", "verts", "agents"}) || !getArea(v["area"], &cv->area) || !v.get("hmin", cv->hmin) ||
      !v.get("hmax", cv->hmax) || !optAgents(v, agents, &cv->agents))
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

bool parseLink(const base::JsonIn& v, const std::vector<AgentType>* agents, OffMeshLink* l) {
  if (!v.object({"start", "end", "radius", "bidirectional", "area", "flags", "userId", "agents"}) ||
      !optAgents(v, agents, &l->agents) || !v["start"].getVec3(l->start) ||
      !v["end"].getVec3(l->end) || !v.opt("radius", l->radius) || !v.opt("bidirectional", l->bidirectional) ||
      (v.has("area") && !getArea(v["area"], &l->area)) || (v.has("flags") && !getFlags(v["flags"], &l->flags)) ||
      !v.opt("userId", l->userId, 0, 0x7fffffff))
    return false;
  if (!(l->radius > 0)) return v["radius"].fail("must be > 0");
  return true;
}

/// {"match": GLOB, "area": NAME} or {"match": GLOB, "exclude": true}.
bool parseAreaRule(const base::JsonIn& v, const std::vector<AgentType>* agents, AreaRule* rule) {
  if (!v.object({"match", "area", "exclude", "agents"}) || !v.get("match", rule->match, 1024) ||
      !v.opt("exclude", rule->exclude) || !optAgents(v, agents, &rule->agents))
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

json areaRulesToJson(const std::vector<AreaRule>& rules, const std::vector<AgentType>* agents) {
  json a = json::array();
  for (const AreaRule& r : rules) {
    json o = json::object();
    o["match"] = r.match;
    if (r.exclude) o["exclude"] = true;
    else o["area"] = areaToJson(r.area);
    if (r.agents != kAllAgents) o["agents"] = agentMaskToJson(r.agents, agents);
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

/// A seed: [x, y, z], or {"pos": [x, y, z], "agents": [...]}.
bool parseSeed(const base::JsonIn& v, const std::vector<AgentType>* agents, std::array<float, 3>* p, AgentMask* mask) {
  if (!v.json().is_object()) return v.getVec3(p->data());
  return v.object({"pos", "agents"}) && v["pos"].getVec3(p->data()) && optAgents(v, agents, mask);
}

bool parseAgents(const base::JsonIn& in, const BakeSettings& level, std::vector<AgentType>* out) {
  if (!in.array()) return false;
  if (in.size() == 0) return in.fail("empty: leave \"agents\" out for one agent with the level's settings");
  if (in.size() > size_t(kMaxAgentTypes))
    return in.fail(std::to_string(in.size()) + " agent types; a level holds at most " + std::to_string(kMaxAgentTypes));
  std::vector<AgentType> list(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (!parseAgent(in[i], level, int(i), &list[i])) return false;
    for (size_t j = 0; j < i; ++j)
      if (list[j].name == list[i].name)
        return in.errors().fail(in[i].path() + " \"" + list[i].name + "\"",
                                "duplicate name (" + in[j].path() + " has it too)");
  }
  *out = std::move(list);
  return true;
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
  if (in.has("agents") && !parseAgents(in["agents"], lv.settings, &lv.agents)) return false;
  const std::vector<AgentType>* agents = &lv.agents;
  auto withAgents = [agents](auto parse) {
    return [agents, parse](const base::JsonIn& v, auto* item) { return parse(v, agents, item); };
  };
  if (!optList(in, "convexVolumes", &lv.volumes, withAgents(parseVolume)) ||
      !optList(in, "offMeshLinks", &lv.links, withAgents(parseLink)) ||
      (in.has("areaRules") && !areaRulesFromJson(in["areaRules"], &lv.areaRules, agents)))
    return false;
  if (in.has("seeds")) {
    const base::JsonIn a = in["seeds"];
    if (!a.array()) return false;
    lv.seeds.resize(a.size());
    lv.seedAgents.assign(a.size(), kAllAgents);
    bool named = false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!parseSeed(a[i], agents, &lv.seeds[i], &lv.seedAgents[i])) return false;
      named = named || lv.seedAgents[i] != kAllAgents;
    }
    if (!named) lv.seedAgents.clear();
  }
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

bool areaRulesFromJson(const base::JsonIn& list, std::vector<AreaRule>* out, const std::vector<AgentType>* agents) {
  std::vector<AreaRule> rules;
  if (!list.array()) return false;
  rules.resize(list.size());
  for (size_t i = 0; i < list.size(); ++i)
    if (!parseAreaRule(list[i], agents, &rules[i])) return false;
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
    if (v.agents != kAllAgents) o["agents"] = agentMaskToJson(v.agents, &level.agents);
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
    if (l.agents != kAllAgents) o["agents"] = agentMaskToJson(l.agents, &level.agents);
    links.push_back(o);
  }
  j["offMeshLinks"] = links;
  if (!level.areaRules.empty()) j["areaRules"] = areaRulesToJson(level.areaRules, &level.agents);
  if (!level.seeds.empty()) {
    json seeds = json::array();
    for (size_t i = 0; i < level.seeds.size(); ++i) {
      const AgentMask mask = i < level.seedAgents.size() ? level.seedAgents[i] : kAllAgents;
      if (mask == kAllAgents) seeds.push_back(base::exactVec3(level.seeds[i].data()));
      else seeds.push_back({{"pos", base::exactVec3(level.seeds[i].data())}, {"agents", agentMaskToJson(mask, &level.agents)}});
    }
    j["seeds"] = seeds;
  }
  if (!level.agents.empty()) {
    json agents = json::array();
    for (const AgentType& a : level.agents) {
      json o = json::object();
      o["name"] = a.name;
      o["color"] = colorText(a.color);
      const json all = settingsJson(a.settings);
      for (const std::string& k : a.overrides)
        if (all.contains(k)) o[k] = all[k];
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

bool applyAgentOverrides(const BakeSettings& base, const AgentType& a, BakeSettings* out, std::string* why) {
  BakeSettings s = base;
  for (const std::string& k : a.overrides) copySetting(k, a.settings, &s);
  std::string problem;
  if (!s.validate(&problem)) {
    if (why) *why = "agent \"" + a.name + "\": " + problem;
    return false;
  }
  *out = s;
  return true;
}

std::string resolveObjPath(const std::string& levelPath, const Level& level) {
  if (level.objPath.empty() || level.objPath[0] == '/') return level.objPath;
  const size_t slash = levelPath.find_last_of('/');
  if (slash == std::string::npos) return level.objPath;
  return levelPath.substr(0, slash + 1) + level.objPath;
}

bool loadBakeInput(const std::string& path, BakeInput* input, BakeSettings* settings, std::string* why, Level* level) {
  const bool isJson = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  BakeInput in;
  BakeSettings s;
  std::string objPath = path;
  Level lv;
  lv.objPath = path;
  if (isJson) {
    if (!loadLevelFile(path, &lv, why)) return false;
    objPath = resolveObjPath(path, lv);
    s = lv.settings;
    in.volumes = lv.volumes;
    in.links = lv.links;
    in.areaRules = lv.areaRules;
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
  if (level) *level = std::move(lv);
  return true;
}

} // namespace nav::bake
