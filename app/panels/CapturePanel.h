// CapturePanel.h: the Captured queries panel, a thin view over app/model/CaptureSession.h. A path
// capture (.nbcap: a game's navmesh, its queries and the answers its Detour gave) opens as the
// navmesh, and this panel lists its queries as rows: kind, ok / MISMATCH / stale (NavBench's
// answer replayed against the game's, as `navbench replay` does), the game's corners or hit, the
// note, and the first difference on hover and under the table. The selected row (the first on
// open; click, or Up / Down) is shown in Pathfind Straight (a raycast in Raycast) with the captured
// start and end, filter (include / exclude flags, area costs), node budget and search box; the
// game's own answer is drawn beside NavBench's (drawCaptureOverlay).
#pragma once

namespace render {
class DebugDraw;
}

namespace navbench {

class CaptureSession;

/// The game's answer to the selected query, raised above NavBench's: its straight path (yellow
/// line with corner dots), or its raycast (yellow segment to the hit, a cross at the hit). Drawn by the
/// 3D view each frame while a capture is open.
void drawCaptureOverlay(render::DebugDraw& dd, const CaptureSession& capture);

/// The colour of the game's answer in the 3D view (RGBA bytes, render::rgba's order).
constexpr unsigned char kCaptureGameColour[4] = {255, 225, 30, 255};

} // namespace navbench
