// WhyPanel.h: the Why panel (View > Why panel, F6), a thin view over app/model/WhyModel.h: why the
// current path mode's query (Pathfind Straight, Follow, Sliced, the A* Stepper; a Check finding's
// pair once the Check panel shows it in Pathfind Straight) gave its answer, one sentence per cause
// with its checked counterfactual; an Apply button per cause the tester's settings can take
// (filter, area costs, heuristic scale, node budget, half extents; Ctrl+Z undoes it), and for a
// portal-midpoint detour "at expansion N", which opens the A* Stepper at that step.
#pragma once

namespace nav {
class NavMesh;
}
namespace render {
class DebugDraw;
}

namespace navbench {

class WhyModel;

/// The evidence of every cause, `lift` above the navmesh [Unit: wu], seen through the level: the
/// blocking / snapped / clicked-floor polys filled, points marked, the island gap and a proposed
/// link as lines, the two portals of a detour (chosen red, the shortest path's green). Called by
/// the 3D view each frame while the panel is shown.
void drawWhyOverlay(render::DebugDraw& dd, const WhyModel& why, const nav::NavMesh& mesh, float lift);

} // namespace navbench
