// ToolConvexVolumes.h: the Convex Volume tool (RecastDemo's ConvexVolumeTool). Clicks on the level
// outline an area; its convex hull (gift wrapping in xz, as RecastDemo) becomes a volume of the
// chosen area, from the lowest hull point minus the offset below the floor up to that plus the
// height. Enter or a click on the first point closes it; Esc clears the points. A click inside a
// volume (with no points in progress, and without Shift) selects it for editing (area, bottom,
// top) or deletion (Delete). Edits go through LevelEditor (validated, re-baked in the background,
// undoable); a refused one says why in the panel and the log and changes nothing.
#pragma once

#include "app/tools/EditToolUi.h"
#include "app/tools/Tool.h"
#include "nav/bake/Bake.h"

#include <vector>

namespace navbench {

class ToolConvexVolumes : public Tool {
public:
  static constexpr int kMaxPoints = 12; ///< As RecastDemo (and a volume's most vertices).

  const char* name() const override { return "Convex Volumes"; }
  bool pairedInList() const override { return true; }
  void reset() override;
  void onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) override;
  void update(float dt) override;
  void drawUi() override;
  void draw(render::DebugDraw& dd) override;
  void dumpState(nlohmann::json& out) const override;

  /// The convex hull of points [(x, y, z) * n] in xz by gift wrapping (RecastDemo's convexhull):
  /// indices into the points, starting at the lowest x (then z). Fewer than 3 for points in a line.
  static std::vector<int> convexHull(const std::vector<float>& pts);

private:
  bool close();
  void select(int index);
  void removeSelected();
  void applySelected(const nav::bake::ConvexVolume& v, const char* what);
  int volumeAt(const glm::vec3& p) const;
  void fail(const std::string& why);
  void syncSelection();

  std::vector<float> m_pts;  ///< Points clicked so far [(x, y, z) * n].
  std::vector<int> m_hull;   ///< Their hull (indices into m_pts).
  uint8_t m_area = nav::AREA_GRASS;
  float m_height = 6.0f;  ///< RecastDemo's "Shape Height" [Unit: wu].
  float m_offset = 1.0f;  ///< RecastDemo's "Shape Descent": the bottom below the lowest point [Unit: wu].
  int m_sel = -1;         ///< Selected volume, -1 none.
  nav::bake::ConvexVolume m_selVol; ///< Its value when selected (or last edited here).
  float m_editMin = 0, m_editMax = 0; ///< The selected volume's bottom / top being typed.
  edit::Message m_msg;
  edit::Rects m_rects; ///< The panel's widgets, for tests (dumpState "widgets").
};

} // namespace navbench
