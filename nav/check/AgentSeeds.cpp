// AgentSeeds.cpp: see AgentSeeds.h.
#include "nav/check/AgentSeeds.h"

namespace nav::check {

void addAgentSeeds(CheckOptions& opts, const std::vector<Vec3>& seeds, const std::vector<uint32_t>& seedAgents, int agent) {
  const uint32_t bit = agent >= 0 && agent < 32 ? uint32_t(1u << agent) : 0u;
  for (size_t i = 0; i < seeds.size(); ++i) {
    const uint32_t mask = i < seedAgents.size() ? seedAgents[i] : 0xffffffffu;
    if (agent >= 0 && !(mask & bit)) continue;
    opts.seeds.push_back(seeds[i]);
  }
  if (agent >= 0) opts.seedsOffMeshAreFindings = true;
}

} // namespace nav::check
