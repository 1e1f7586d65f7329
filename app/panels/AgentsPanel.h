// AgentsPanel.h: the Agents panel (View > Agents panel, F7), a thin view over app/model/AgentSet.h:
// the level's agent types (colour, name, shown, active, bake progress), Compare agents and
// Reachability with their answers per agent. Its overlay is drawn by the 3D view.
#pragma once

namespace render {
class DebugDraw;
}

namespace navbench {

class AgentSet;

/// Each shown agent's navmesh outlined (its wall edges) in its colour, the compared paths in the
/// agents' colours, and the polys the active agent reaches that the other cannot follow to
/// (Reachability), `lift` above the navmesh [Unit: wu]. Nothing for a level with one agent type.
void drawAgentsOverlay(render::DebugDraw& dd, const AgentSet& agents, float lift);

} // namespace navbench
