#include "app/NavState.h"
#include "app/tools/TesterModes.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolLocalNeighbourhood::drawResult(render::DebugDraw& dd) {
  const LocalNeighbourhoodModel& m = model();
  if (!nav() || !m.startRef()) return;
  const FoundPolys& found = m.found();
  const glm::vec3 up(0, 0.3f, 0);
  drawStartCircle(dd, m.radius());
  drawFoundPolys(dd, found.refs.data(), found.parents.data(), found.count);
  // Walls red, portals to other polys faint blue.
  NavState* ns = m.nav();
  for (int i = 0; i < found.count; ++i) {
    float segs[6 * 32];
    nav::PolyRef segRefs[32];
    int nsegs = 0;
    ns->query().getPolyWallSegments(found.refs[size_t(i)], &ns->filter(), segs, segRefs, &nsegs, 32);
    for (int s = 0; s < nsegs; ++s) {
      const glm::vec3 a(segs[s * 6], segs[s * 6 + 1], segs[s * 6 + 2]), b(segs[s * 6 + 3], segs[s * 6 + 4], segs[s * 6 + 5]);
      dd.line(a + up * 0.5f, b + up * 0.5f, segRefs[s] ? render::rgba(0, 120, 255, 120) : render::rgba(220, 30, 30, 230),
              segRefs[s] ? 1.0f : 3.0f);
    }
  }
}

void ToolLocalNeighbourhood::resultUi() {
  radiusUi("Radius", 0.5f, 40.0f);
  if (model().startRef()) ImGui::Text("%d polys found", model().found().count);
}

} // namespace navbench
