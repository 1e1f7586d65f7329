// Agents.h: the agent types of a level (a soldier, a dog, a truck): each a name, a colour and the
// bake settings it bakes its own navmesh with (the level's, with the agent's overrides).
// A level file with no `agents` list is one agent with the level's settings.
#pragma once

#include "nav/bake/BakeSettings.h"

#include <cstdint>
#include <string>

namespace nav::bake {

struct Level;
struct BakeInput;

/// Bit i: agent type i (a volume, link or rule applies to the agent types whose bits are set).
using AgentMask = uint32_t;
constexpr AgentMask kAllAgents = 0xffffffffu;
constexpr int kMaxAgentTypes = 32;

struct AgentType {
  std::string name;
  uint32_t color = 0; ///< 0xRRGGBB
  BakeSettings settings; ///< The level's settings with this agent's overrides.
};

/// Index of the agent type named `name`, or -1.
int findAgent(const Level& level, const std::string& name);
/// Agent types of the level (1 when it lists none).
int agentCount(const Level& level);
/// Agent `agent`'s name ("" for a level that lists none).
std::string agentName(const Level& level, int agent);
/// The settings agent `agent` bakes with.
BakeSettings agentSettings(const Level& level, int agent);
/// `all` with only the volumes and links that apply to agent `agent`.
BakeInput inputForAgent(const BakeInput& all, int agent);

} // namespace nav::bake
