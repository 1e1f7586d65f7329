// CheckPanel.h: the Check panel (issue 27; View > Check panel, F5), a thin view over
// app/model/CheckModel.h: Run / Cancel with a progress bar, the options `navbench check` takes
// (pairs, seed, filter, thresholds; the CLI's defaults), the findings by severity with their
// counts, and a click on a finding that frames it and shows it with the right tool: a detour or
// node-budget pair in Pathfind Straight (start, end, the exact shortest path on, the check's filter
// and node budget), an island tinted, a seam / link / narrow portal / surface point highlighted.
// "Heatmap" draws each poly's worst sampled detour ratio over the navmesh. The checks re-run by
// themselves after an edit while the panel is shown (CheckModel: debounced, whole runs).
// Opening the panel runs the checks when it has none for the open navmesh.
#pragma once

#include <cstdint>

namespace nav {
class NavMesh;
}
namespace render {
class DebugDraw;
}

namespace navbench {

class CheckModel;

/// The heatmap (when on) and the selected finding (tinted island, highlighted spot, pair ends),
/// `lift` above the navmesh [Unit: wu]. Called by the 3D view each frame.
void drawCheckOverlay(render::DebugDraw& dd, const CheckModel& check, const nav::NavMesh& mesh, float lift);

} // namespace navbench
