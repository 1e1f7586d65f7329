// BakeButtonUi.h: what the tools and the Navmesh panel show when no navmesh is open (ImGui calls,
// inside their window), drawn from the bake runner (app/model/BakeRunner.h): while a bake runs,
// "Baking..." with its progress and Cancel; with a level open, a Bake button (BakeRunner::build,
// the Bake panel's settings) and why the last bake failed, if it did; and the other way to a
// navmesh, a .bin tile set.
#pragma once

namespace navbench {

class BakeRunner;
class Log;

/// The "no navmesh" block. `buttonCentre` (optional, 2 floats): where the Bake button was drawn in
/// window pixels, {-1, -1} when it was not (for --dump-state).
void drawNoNavmesh(BakeRunner& bake, Log& log, float* buttonCentre = nullptr);

/// The running bake's progress bar (stage, tiles done / total) and its Cancel button.
void drawBakeProgress(BakeRunner& bake);

} // namespace navbench
