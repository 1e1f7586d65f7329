// CheckPanel.h: the Check panel (issue 27; View > Check panel, F5), a thin view over
// app/model/CheckModel.h: Run / Cancel with a progress bar, the options `navbench check` takes
// (pairs, seed, filter, thresholds; the CLI's defaults), the findings by severity with their
// counts, and a click on a finding that frames it and shows it with the right tool: a detour or
// node-budget pair in Pathfind Straight (start, end, the exact shortest path on, the check's filter
// and node budget), an island tinted (the rest dimmed), a seam / link / narrow portal / surface point highlighted.
// "Heatmap" draws each poly's worst sampled detour ratio over the navmesh. The checks re-run by
// themselves after an edit while the panel is shown (CheckModel: debounced, whole runs).
// Opening the panel runs the checks when it has none for the open navmesh.
#pragma once

#include "nav/NavTypes.h"

#include <cstdint>

namespace nav {
class NavMesh;
}
namespace render {
class DebugDraw;
}

namespace navbench {

class CheckModel;

/// A ground poly as a triangle fan, `lift` above the mesh (`depthTest` false: seen through the level,
/// as an island under a floor). Off-mesh link polys and bad refs draw nothing.
void fillPoly(render::DebugDraw& dd, const nav::NavMesh& mesh, nav::PolyRef ref, uint32_t colour, float lift,
              bool depthTest = true);

/// The heatmap (when on) and the selected finding (tinted island, highlighted spot, pair ends),
/// `lift` above the navmesh [Unit: wu]. Called by the 3D view each frame.
void drawCheckOverlay(render::DebugDraw& dd, const CheckModel& check, const nav::NavMesh& mesh, float lift);

} // namespace navbench
