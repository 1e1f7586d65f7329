#include "nav/bake/Agents.h"

#include "nav/bake/Bake.h"
#include "nav/bake/LevelFile.h"

namespace nav::bake {

int findAgent(const Level& level, const std::string& name) {
  for (size_t i = 0; i < level.agents.size(); ++i)
    if (level.agents[i].name == name) return int(i);
  return -1;
}

int agentCount(const Level& level) { return level.agents.empty() ? 1 : int(level.agents.size()); }

std::string agentName(const Level& level, int agent) {
  return agent >= 0 && agent < int(level.agents.size()) ? level.agents[size_t(agent)].name : std::string();
}

BakeSettings agentSettings(const Level& level, int agent) {
  return agent >= 0 && agent < int(level.agents.size()) ? level.agents[size_t(agent)].settings : level.settings;
}

BakeInput inputForAgent(const BakeInput& all, int agent) {
  BakeInput in = all;
  const AgentMask bit = agent >= 0 && agent < kMaxAgentTypes ? AgentMask(1u) << agent : 0;
  in.volumes.clear();
  in.links.clear();
  for (const ConvexVolume& v : all.volumes)
    if (v.agents & bit) in.volumes.push_back(v);
  for (const OffMeshLink& l : all.links)
    if (l.agents & bit) in.links.push_back(l);
  return in;
}

} // namespace nav::bake
