// Agents.h: several agent types in one level (a soldier, a dog, a truck), one navmesh each.
//
// A level file's `agents` list (LevelFile.h) names the types; each has its own bake settings:
// the level's `settings` with the keys the entry gives replaced. Volumes, off-mesh links, area
// rules and seeds carry an AgentMask (bit i = agent type i; default every type). Agent type i's
// navmesh is the bake of inputForAgent(all, i) with agentSettings(level, i): exactly what a level
// holding that agent's settings and its own items alone bakes.
//
//   "agents": [ { "name": "soldier", "color": "#3080ff", "agentRadius": 0.4 },
//               { "name": "truck", "color": [255, 128, 0], "agentRadius": 1.5, "agentHeight": 3 } ]
//
// Names: 1..32 characters of a-z, 0-9, '_' and '-' (they go into file names: OUT.<name>.bin);
// unique. Colours: "#rrggbb" or [r, g, b] with 0..255 each; absent: a palette colour by index.
// At most kMaxAgentTypes types. A level without `agents` is one implicit agent, unnamed.
#pragma once

#include "nav/bake/BakeSettings.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace base {
class JsonIn;
}

namespace nav::bake {

struct Level;
struct BakeInput;
struct FileBakeInput;
struct ConvexVolume;
struct OffMeshLink;

using AgentMask = uint32_t;                   ///< bit i = the level's agent type i
constexpr AgentMask kAllAgents = 0xffffffffu; ///< default: applies to every agent type
constexpr int kMaxAgentTypes = 32;

struct AgentType {
  std::string name;      ///< [a-z0-9_-]{1,32}, unique in the level
  uint32_t color = 0;    ///< 0xRRGGBB
  BakeSettings settings; ///< The level's settings with this agent's overrides applied (validated)
  /// The settings keys this agent overrides (level-file names, e.g. "agentRadius"), in key
  /// order; their values are those in `settings`. saveLevelFile writes back exactly these.
  std::vector<std::string> overrides;
};

int findAgent(const Level& level, const std::string& name); ///< index or -1
int agentCount(const Level& level);                         ///< max(1, agents.size())
std::string agentName(const Level& level, int agent);       ///< "" for the implicit single agent
BakeSettings agentSettings(const Level& level, int agent);  ///< level.settings when agents is empty
/// The bit of agent `agent` (0..31) in a mask; 0 for an index out of range.
inline AgentMask agentBit(int agent) { return agent >= 0 && agent < kMaxAgentTypes ? AgentMask(1u << agent) : 0u; }

/// The bake input one agent type sees: volumes and links whose mask has bit `agent`, and the area
/// rules that apply to it, in order. Links without a userId get the one a bake of `all` gives them
/// (1000 + their index in `all`), so a link has the same id on every agent's navmesh.
BakeInput inputForAgent(const BakeInput& all, int agent);
FileBakeInput inputForAgent(const FileBakeInput& all, int agent);
/// The volumes and links of one agent type, as inputForAgent picks them, without copying the
/// triangles: what Baker::setVolumesAndLinks takes after an edit.
void itemsForAgent(const std::vector<ConvexVolume>& volumes, const std::vector<OffMeshLink>& links, int agent,
                   std::vector<ConvexVolume>* outVolumes, std::vector<OffMeshLink>* outLinks);

/// `base` with agent `a`'s overridden keys taken from a.settings (what agentSettings gives after
/// the level's settings changed). False with `why` ("agentHeight = 1 is less than 3 cells of
/// cellHeight = 0.5") when the result does not validate.
bool applyAgentOverrides(const BakeSettings& base, const AgentType& a, BakeSettings* out, std::string* why);

/// The file of agent type `name` for an output `path`: the name goes before the extension
/// ("out/level.bin" -> "out/level.truck.bin"; no extension: "out/level.truck").
std::string agentFilePath(const std::string& path, const std::string& name);

/// False with `why` when `name` is not 1..32 characters of a-z, 0-9, '_', '-'.
bool checkAgentName(const std::string& name, std::string* why);
/// The default colour of agent type `index` (a palette of distinct hues), 0xRRGGBB.
uint32_t defaultAgentColor(int index);

/// An item's `agents`: a list of agent names (resolved against `agents`), or a mask as a number
/// (the viewer's scenarios and journal, which do not carry names). Unknown names, an empty list,
/// and with `agents` given a mask naming no declared type or more than it declares, are errors.
/// `agents` null: names cannot be resolved (numbers only).
bool agentMaskFromJson(const base::JsonIn& v, const std::vector<AgentType>* agents, AgentMask* out);
/// The mask as the writers write it: a list of the types' names when `agents` is given, else the
/// number. (Writers leave `agents` out when the mask is kAllAgents.)
nlohmann::json agentMaskToJson(AgentMask mask, const std::vector<AgentType>* agents);

} // namespace nav::bake
