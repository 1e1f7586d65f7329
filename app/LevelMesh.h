// LevelMesh.h: the level's triangles as the GPU mesh the viewer draws: flat-shaded, coloured by
// slope and height (sand floors, blue-grey walls; the OBJ's own material colours where it has
// them), in LevelLod's cells and simplified levels when the level has them.
#pragma once

#include "app/Level.h"
#include "app/ViewSettings.h"
#include "render/DebugDraw.h" // rgbaf
#include "render/MeshBuffer.h"

namespace navbench {

/// Uploads `level` into `mesh`; surfaces steeper than `walkableSlopeDeg` are drawn as walls.
void uploadLevelMesh(const Level& level, float walkableSlopeDeg, render::MeshBuffer& mesh);

/// View > Level LOD, unless NAVBENCH_LEVEL_LOD=0/1 in the environment forces it (benchmarks).
bool levelLodOn(const ViewSettings& view);

} // namespace navbench
