// ViewSettings.h: how the 3D view is drawn; edited in the View panel.
#pragma once

#include "app/TriBvh.h"

#include <cstdint>

namespace navbench {

/// The background (and fog) colour, 8-bit sRGB. The headless smoke test compares screenshot
/// pixels against it.
constexpr uint8_t kClearColor[3] = {34, 38, 46};

struct ViewSettings {
  bool drawLevel = true;
  bool wireframe = false;    ///< Triangle edges over the lit level.
  bool grid = true;          ///< 1 m grid on the level surfaces.
  bool showStats = true;     ///< FPS / frame-time overlay.
  /// Far grid cells of the level drawn simplified (app/LevelLod.h), at most ~3 px off on screen;
  /// off = every triangle always. Kept in scenario files ("levelLod"); NAVBENCH_LEVEL_LOD=0/1 in the
  /// environment overrides it (benchmarks).
  bool levelLod = true;
  /// View > Two-sided level (Ctrl+T): the level drawn without back-face culling, and picking (clicks,
  /// hover) hits either side of a triangle; off = only the front sides are drawn and hit, so a
  /// click through a single-sided wall lands on what is seen behind it. Kept in scenario files
  /// ("twoSidedLevel").
  bool twoSidedLevel = false;
  /// The sides of the level's triangles a click or the hover hits: those drawn.
  PickSides levelPickSides() const { return twoSidedLevel ? PickSides::Both : PickSides::Front; }
  float lightYaw = -2.0f;    ///< Directional light, radians around +y (default: from behind the default camera, to its right).
  float lightPitch = 0.95f;  ///< Elevation of the light, radians.
  float ambient = 0.45f;     ///< Ambient share in [0, 1].
  float walkableSlopeDeg = 45.0f; ///< Triangles flatter than this are drawn in the floor colour.
};

} // namespace navbench
