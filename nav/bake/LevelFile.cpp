#include "nav/bake/LevelFile.h"
#include "nav/bake/ObjMesh.h"
#include "nav/base/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace nav::bake {

using nlohmann::json;

namespace {

/// A parse error with the JSON path where it happened.
struct LevelError {
  std::string msg;
};

[[noreturn]] void error(const std::string& where, const std::string& msg) { throw LevelError{where + ": " + msg}; }

float getFloat(const json& j, const std::string& where) {
  if (!j.is_number()) error(where, "expected a number, got " + j.dump());
  return j.get<float>();
}

int getInt(const json& j, const std::string& where) {
  if (!j.is_number_integer() && !(j.is_number_float() && j.get<double>() == double(int(j.get<double>()))))
    error(where, "expected an integer, got " + j.dump());
  return int(j.get<double>());
}

bool getBool(const json& j, const std::string& where) {
  if (!j.is_boolean()) error(where, "expected true or false, got " + j.dump());
  return j.get<bool>();
}

void getVec3(const json& j, float* out, const std::string& where) {
  if (!j.is_array() || j.size() != 3) error(where, "expected [x, y, z], got " + j.dump());
  for (int k = 0; k < 3; ++k) out[k] = getFloat(j[size_t(k)], where + "[" + std::to_string(k) + "]");
}

uint8_t getArea(const json& j, const std::string& where) {
  uint8_t a = 0;
  if (j.is_string()) {
    if (!areaFromName(j.get<std::string>().c_str(), &a))
      error(where, "unknown area '" + j.get<std::string>() + "' (ground, water, road, door, grass, jump or 0..62)");
    return a;
  }
  const int v = getInt(j, where);
  if (v < 0 || v > 62) error(where, "area " + std::to_string(v) + " is out of range 0..62");
  return uint8_t(v);
}

uint16_t getFlags(const json& j, const std::string& where) {
  if (j.is_array()) {
    uint16_t flags = 0;
    for (size_t i = 0; i < j.size(); ++i) {
      const std::string w = where + "[" + std::to_string(i) + "]";
      if (!j[i].is_string()) error(w, "expected a flag name, got " + j[i].dump());
      uint16_t f = 0;
      if (!flagFromName(j[i].get<std::string>().c_str(), &f))
        error(w, "unknown flag '" + j[i].get<std::string>() + "' (walk, swim, door, jump, disabled)");
      flags = uint16_t(flags | f);
    }
    return flags;
  }
  const int v = getInt(j, where);
  if (v < 0 || v > 0xffff) error(where, "flags " + std::to_string(v) + " do not fit 16 bits");
  return uint16_t(v);
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

/// A float as the shortest decimal that reads back as the same float (0.3, not 0.30000001192...).
json jf(float f) {
  char buf[32];
  for (int prec = 6; prec <= 9; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*g", prec, double(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  return json(std::strtod(buf, nullptr));
}

json settingsJson(const BakeSettings& s) {
  json j = json::object();
  j["cellSize"] = jf(s.cellSize);
  j["cellHeight"] = jf(s.cellHeight);
  j["agentHeight"] = jf(s.agentHeight);
  j["agentRadius"] = jf(s.agentRadius);
  j["agentMaxClimb"] = jf(s.agentMaxClimb);
  j["agentMaxSlope"] = jf(s.agentMaxSlope);
  j["regionMinSize"] = s.regionMinSize;
  j["regionMergeSize"] = s.regionMergeSize;
  j["partition"] = partitionName(s.partition);
  j["edgeMaxLen"] = jf(s.edgeMaxLen);
  j["edgeMaxError"] = jf(s.edgeMaxError);
  j["vertsPerPoly"] = s.vertsPerPoly;
  j["detailSampleDist"] = jf(s.detailSampleDist);
  j["detailSampleMaxError"] = jf(s.detailSampleMaxError);
  j["filterLowHangingObstacles"] = s.filterLowHangingObstacles;
  j["filterLedgeSpans"] = s.filterLedgeSpans;
  j["filterWalkableLowHeightSpans"] = s.filterWalkableLowHeightSpans;
  j["tiled"] = s.tiled;
  j["tileSize"] = s.tileSize;
  return j;
}

void parseSettings(const json& j, BakeSettings* s, const std::string& where) {
  if (!j.is_object()) error(where, "expected an object");
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    const json& v = it.value();
    const std::string w = where + "." + k;
    if (k == "cellSize") s->cellSize = getFloat(v, w);
    else if (k == "cellHeight") s->cellHeight = getFloat(v, w);
    else if (k == "agentHeight") s->agentHeight = getFloat(v, w);
    else if (k == "agentRadius") s->agentRadius = getFloat(v, w);
    else if (k == "agentMaxClimb") s->agentMaxClimb = getFloat(v, w);
    else if (k == "agentMaxSlope") s->agentMaxSlope = getFloat(v, w);
    else if (k == "regionMinSize") s->regionMinSize = getInt(v, w);
    else if (k == "regionMergeSize") s->regionMergeSize = getInt(v, w);
    else if (k == "partition") {
      if (!v.is_string() || !partitionFromName(v.get<std::string>().c_str(), &s->partition))
        error(w, "expected \"watershed\", \"monotone\" or \"layers\", got " + v.dump());
    } else if (k == "edgeMaxLen") s->edgeMaxLen = getFloat(v, w);
    else if (k == "edgeMaxError") s->edgeMaxError = getFloat(v, w);
    else if (k == "vertsPerPoly") s->vertsPerPoly = getInt(v, w);
    else if (k == "detailSampleDist") s->detailSampleDist = getFloat(v, w);
    else if (k == "detailSampleMaxError") s->detailSampleMaxError = getFloat(v, w);
    else if (k == "filterLowHangingObstacles") s->filterLowHangingObstacles = getBool(v, w);
    else if (k == "filterLedgeSpans") s->filterLedgeSpans = getBool(v, w);
    else if (k == "filterWalkableLowHeightSpans") s->filterWalkableLowHeightSpans = getBool(v, w);
    else if (k == "tiled") s->tiled = getBool(v, w);
    else if (k == "tileSize") s->tileSize = getInt(v, w);
    else error(w, "unknown setting");
  }
  std::string why;
  if (!s->validate(&why)) error(where, why);
}

json parseText(const std::string& text, const std::string& what) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    error(what, std::string("not valid JSON: ") + e.what());
  }
}

bool readFile(const std::string& path, std::string* text, std::string* why) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    if (why) *why = path + ": cannot open the file (missing or unreadable)";
    return false;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  *text = ss.str();
  return true;
}

} // namespace

std::string settingsToJson(const BakeSettings& s) { return settingsJson(s).dump(2); }

bool settingsFromJson(const std::string& text, BakeSettings* out, std::string* why) {
  try {
    const json j = parseText(text, "settings");
    BakeSettings s = *out;
    if (j.is_object() && j.contains("settings")) parseSettings(j["settings"], &s, "settings");
    else parseSettings(j, &s, "settings");
    *out = s;
    return true;
  } catch (const LevelError& e) {
    if (why) *why = e.msg;
  } catch (const json::exception& e) {
    if (why) *why = std::string("settings: ") + e.what();
  }
  return false;
}

bool loadSettingsFile(const std::string& path, BakeSettings* out, std::string* why) {
  std::string text;
  if (!readFile(path, &text, why)) return false;
  if (!settingsFromJson(text, out, why)) {
    if (why) *why = path + ": " + *why;
    return false;
  }
  return true;
}

bool loadLevelFile(const std::string& path, Level* out, std::string* why) {
  std::string text;
  if (!readFile(path, &text, why)) return false;
  try {
    const json j = parseText(text, "level");
    if (!j.is_object()) error("level", "expected a JSON object");
    Level lv;
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string& k = it.key();
      if (k != "format" && k != "version" && k != "obj" && k != "settings" && k != "convexVolumes" && k != "offMeshLinks")
        error(k, "unknown key");
    }
    if (j.contains("format") && j["format"] != "navbench-level")
      error("format", "expected \"navbench-level\", got " + j["format"].dump());
    if (j.contains("version") && (!j["version"].is_number_integer() || j["version"].get<int>() != 1))
      error("version", "unsupported version " + j["version"].dump() + " (this build reads 1)");
    if (!j.contains("obj") || !j["obj"].is_string() || j["obj"].get<std::string>().empty())
      error("obj", "missing: the level file must name its OBJ file");
    lv.objPath = j["obj"].get<std::string>();
    if (j.contains("settings")) parseSettings(j["settings"], &lv.settings, "settings");
    if (j.contains("convexVolumes")) {
      const json& a = j["convexVolumes"];
      if (!a.is_array()) error("convexVolumes", "expected an array");
      for (size_t i = 0; i < a.size(); ++i) {
        const std::string w = "convexVolumes[" + std::to_string(i) + "]";
        const json& v = a[i];
        if (!v.is_object()) error(w, "expected an object");
        for (auto it = v.begin(); it != v.end(); ++it)
          if (it.key() != "area" && it.key() != "hmin" && it.key() != "hmax" && it.key() != "verts") error(w + "." + it.key(), "unknown key");
        ConvexVolume cv;
        if (!v.contains("verts") || !v.contains("hmin") || !v.contains("hmax") || !v.contains("area"))
          error(w, "needs verts, hmin, hmax and area");
        cv.area = getArea(v["area"], w + ".area");
        cv.hmin = getFloat(v["hmin"], w + ".hmin");
        cv.hmax = getFloat(v["hmax"], w + ".hmax");
        if (cv.hmin > cv.hmax) error(w, "hmin > hmax");
        const json& vs = v["verts"];
        if (!vs.is_array() || vs.size() < 3 || vs.size() > 12) error(w + ".verts", "expected 3 to 12 points [x, y, z]");
        for (size_t p = 0; p < vs.size(); ++p) {
          float xyz[3];
          getVec3(vs[p], xyz, w + ".verts[" + std::to_string(p) + "]");
          cv.verts.insert(cv.verts.end(), xyz, xyz + 3);
        }
        lv.volumes.push_back(std::move(cv));
      }
    }
    if (j.contains("offMeshLinks")) {
      const json& a = j["offMeshLinks"];
      if (!a.is_array()) error("offMeshLinks", "expected an array");
      for (size_t i = 0; i < a.size(); ++i) {
        const std::string w = "offMeshLinks[" + std::to_string(i) + "]";
        const json& v = a[i];
        if (!v.is_object()) error(w, "expected an object");
        OffMeshLink l;
        for (auto it = v.begin(); it != v.end(); ++it) {
          const std::string& k = it.key();
          const std::string wk = w + "." + k;
          if (k == "start") getVec3(it.value(), l.start, wk);
          else if (k == "end") getVec3(it.value(), l.end, wk);
          else if (k == "radius") l.radius = getFloat(it.value(), wk);
          else if (k == "bidirectional") l.bidirectional = getBool(it.value(), wk);
          else if (k == "area") l.area = getArea(it.value(), wk);
          else if (k == "flags") l.flags = getFlags(it.value(), wk);
          else if (k == "userId") {
            const int id = getInt(it.value(), wk);
            if (id < 0) error(wk, "must be >= 0");
            l.userId = uint32_t(id);
          } else error(wk, "unknown key");
        }
        if (!v.contains("start") || !v.contains("end")) error(w, "needs start and end");
        if (!(l.radius > 0)) error(w + ".radius", "must be > 0");
        lv.links.push_back(l);
      }
    }
    *out = std::move(lv);
    return true;
  } catch (const LevelError& e) {
    if (why) *why = path + ": " + e.msg;
  } catch (const json::exception& e) {
    if (why) *why = path + ": " + e.what();
  }
  return false;
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
    o["hmin"] = jf(v.hmin);
    o["hmax"] = jf(v.hmax);
    json pts = json::array();
    for (size_t p = 0; p + 2 < v.verts.size(); p += 3) pts.push_back({jf(v.verts[p]), jf(v.verts[p + 1]), jf(v.verts[p + 2])});
    o["verts"] = pts;
    vols.push_back(o);
  }
  j["convexVolumes"] = vols;
  json links = json::array();
  for (const OffMeshLink& l : level.links) {
    json o = json::object();
    o["start"] = {jf(l.start[0]), jf(l.start[1]), jf(l.start[2])};
    o["end"] = {jf(l.end[0]), jf(l.end[1]), jf(l.end[2])};
    o["radius"] = jf(l.radius);
    o["bidirectional"] = l.bidirectional;
    o["area"] = areaToJson(l.area);
    o["flags"] = flagsToJson(l.flags);
    if (l.userId) o["userId"] = l.userId;
    links.push_back(o);
  }
  j["offMeshLinks"] = links;
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
  }
  ObjMesh mesh;
  std::string objWhy;
  if (!loadObj(objPath, &mesh, &objWhy)) {
    if (why) *why = isJson ? path + ": its OBJ " + objWhy : objWhy;
    return false;
  }
  in.verts = std::move(mesh.verts);
  in.tris = std::move(mesh.tris);
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
