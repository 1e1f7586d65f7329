#include "nav/bake/Agents.h"

#include "nav/bake/Bake.h"
#include "nav/bake/LevelFile.h"
#include "nav/bake/StreamBake.h"
#include "nav/base/Json.h"

#include <nlohmann/json.hpp>

namespace nav::bake {

int findAgent(const Level& level, const std::string& name) {
  for (size_t i = 0; i < level.agents.size(); ++i)
    if (level.agents[i].name == name) return int(i);
  return -1;
}

int agentCount(const Level& level) { return level.agents.empty() ? 1 : int(level.agents.size()); }

std::string agentName(const Level& level, int agent) {
  return agent >= 0 && size_t(agent) < level.agents.size() ? level.agents[size_t(agent)].name : std::string();
}

BakeSettings agentSettings(const Level& level, int agent) {
  return agent >= 0 && size_t(agent) < level.agents.size() ? level.agents[size_t(agent)].settings : level.settings;
}

namespace {

template <class T>
std::vector<T> onlyFor(const std::vector<T>& all, AgentMask bit) {
  std::vector<T> out;
  for (const T& item : all)
    if (item.agents & bit) out.push_back(item);
  return out;
}

/// Links of `all` for one agent, each with the id a bake of all of them gives it.
std::vector<OffMeshLink> linksFor(const std::vector<OffMeshLink>& all, AgentMask bit) {
  std::vector<OffMeshLink> out;
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].agents & bit) {
      out.push_back(all[i]);
      if (!out.back().userId) out.back().userId = uint32_t(1000 + i);
    }
  return out;
}

} // namespace

BakeInput inputForAgent(const BakeInput& all, int agent) {
  const AgentMask bit = agentBit(agent);
  BakeInput in;
  in.verts = all.verts;
  in.tris = all.tris;
  in.groups = all.groups;
  in.triGroup = all.triGroup;
  in.volumes = onlyFor(all.volumes, bit);
  in.links = linksFor(all.links, bit);
  in.areaRules = onlyFor(all.areaRules, bit);
  return in;
}

FileBakeInput inputForAgent(const FileBakeInput& all, int agent) {
  const AgentMask bit = agentBit(agent);
  FileBakeInput in;
  in.objPath = all.objPath;
  in.volumes = onlyFor(all.volumes, bit);
  in.links = linksFor(all.links, bit);
  in.areaRules = onlyFor(all.areaRules, bit);
  return in;
}

std::string agentFilePath(const std::string& path, const std::string& name) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot <= slash + 1) || dot == 0) return path + "." + name;
  return path.substr(0, dot) + "." + name + path.substr(dot);
}

void itemsForAgent(const std::vector<ConvexVolume>& volumes, const std::vector<OffMeshLink>& links, int agent,
                   std::vector<ConvexVolume>* outVolumes, std::vector<OffMeshLink>* outLinks) {
  const AgentMask bit = agentBit(agent);
  if (outVolumes) *outVolumes = onlyFor(volumes, bit);
  if (outLinks) *outLinks = linksFor(links, bit);
}

bool checkAgentName(const std::string& name, std::string* why) {
  auto fail = [&](const std::string& m) {
    if (why) *why = m;
    return false;
  };
  if (name.empty()) return fail("empty name");
  if (name.size() > 32) return fail("name \"" + name.substr(0, 32) + "...\" is longer than 32 characters");
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return fail("name \"" + name + "\" may hold only a-z, 0-9, '_' and '-' (it is used in file names)");
  return true;
}

uint32_t defaultAgentColor(int index) {
  static const uint32_t kPalette[] = {0x3080ff, 0xff8000, 0x40c040, 0xe040e0, 0xe0e040, 0x40e0e0, 0xff4040, 0x8060ff};
  return kPalette[size_t(index < 0 ? 0 : index) % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

bool agentMaskFromJson(const base::JsonIn& v, const std::vector<AgentType>* agents, AgentMask* out) {
  const size_t declared = agents ? agents->size() : 0;
  if (v.json().is_number()) {
    unsigned m = 0;
    if (!v.get(m)) return false;
    if (m == 0) return v.fail("mask 0 applies to no agent type (leave \"agents\" out for every type)");
    if (agents && m != kAllAgents) {
      if (declared == 0) return v.fail("the level declares no agents");
      if (declared < 32 && (m >> declared) != 0)
        return v.fail("mask " + std::to_string(m) + " names agent types the level does not declare (it declares " +
                      std::to_string(declared) + ")");
    }
    *out = AgentMask(m);
    return true;
  }
  if (!v.array()) return false;
  if (v.size() == 0) return v.fail("an empty list applies to no agent type (leave \"agents\" out for every type)");
  AgentMask m = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    std::string name;
    if (!v[i].get(name, 64)) return false;
    int index = -1;
    for (size_t a = 0; a < declared; ++a)
      if ((*agents)[a].name == name) index = int(a);
    if (index < 0) {
      if (!agents) return v[i].fail("agent names need the level's agents; give a mask number");
      if (declared == 0) return v[i].fail("unknown agent \"" + name + "\": the level declares no agents");
      std::string known;
      for (const AgentType& a : *agents) known += (known.empty() ? "" : ", ") + a.name;
      return v[i].fail("unknown agent \"" + name + "\" (the level's agents: " + known + ")");
    }
    m |= agentBit(index);
  }
  *out = m;
  return true;
}

nlohmann::json agentMaskToJson(AgentMask mask, const std::vector<AgentType>* agents) {
  if (!agents || agents->empty()) return nlohmann::json(mask);
  if (agents->size() < 32 && (mask >> agents->size()) != 0) return nlohmann::json(mask);
  nlohmann::json names = nlohmann::json::array();
  for (size_t a = 0; a < agents->size(); ++a)
    if (mask & agentBit(int(a))) names.push_back((*agents)[a].name);
  return names;
}

} // namespace nav::bake
