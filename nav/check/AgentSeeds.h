// AgentSeeds.h: the reachability seeds of one agent type of a level (nav/bake/Agents.h), as
// `navbench check LEVEL.json` (app/cli/CmdCheck.cpp) and the Check panel's model
// (app/model/CheckModel.h) both take them, so the two check every agent with the same options.
// Std only: the level's seeds and their agent masks come in as plain vectors (nav/bake/LevelFile.h's
// Level::seeds and Level::seedAgents).
#pragma once

#include "nav/check/NavCheck.h"

#include <cstdint>
#include <vector>

namespace nav::check {

/// Appends to `opts.seeds` the level's `seeds` that apply to agent type `agent`: bit `agent` of
/// seedAgents[i] (a seed without an entry applies to every type). agent >= 0 (a level with agent
/// types) also makes a seed off that type's navmesh an islands finding (the type cannot stand
/// there: seedsOffMeshAreFindings); agent < 0 (no agent types) takes every seed and leaves that flag.
void addAgentSeeds(CheckOptions& opts, const std::vector<Vec3>& seeds, const std::vector<uint32_t>& seedAgents, int agent);

} // namespace nav::check
