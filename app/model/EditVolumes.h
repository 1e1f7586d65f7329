// EditVolumes.h: the Convex Volume tool's model (RecastDemo's ConvexVolumeTool; its view is
// app/tools/ToolConvexVolumes.cpp). Clicked points outline an area; their convex hull (gift
// wrapping in xz, as RecastDemo) becomes a volume of the chosen area, from the lowest hull point
// minus the offset up to that plus the height. close() (Enter, or a click on the first point)
// adds it; clear() (Esc) drops the points. A click inside a volume (with no points in progress,
// and without Shift) selects it for editing (area, bottom, top) or deletion. Edits go through
// LevelEditor (validated, re-baked in the background, undoable); a refused one sets the message
// (and the log) and changes nothing.
#pragma once

#include "app/model/EditMessage.h"
#include "nav/bake/Bake.h"

#include <glm/glm.hpp>
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace navbench {

class EditVolumes {
public:
  static constexpr int kMaxPoints = 12; ///< As RecastDemo (and a volume's most vertices).

  void init(const EditContext& ctx) { m_ctx = ctx; }
  LevelEditor* editor() const { return m_ctx.editor; }

  /// Points, hull, selection and message dropped.
  void reset();
  /// A click on the level at `hit`, seen from `rayStart` (the first point is hit within a few
  /// pixels: a share of the view distance) [Unit: wu].
  void click(const glm::vec3& rayStart, const glm::vec3& hit, bool shift);
  /// Adds the hull of the points as a volume; false (message set) when refused.
  bool close();
  /// Drops the points and the selection (Esc).
  void clear();
  void select(int index); ///< -1: none.
  /// Changes the selected volume to `v` (false + message when refused; `what` prefixes it).
  bool applySelected(const nav::bake::ConvexVolume& v, const char* what);
  bool removeSelected();
  /// An undo / redo (or another edit) may have changed the list: follow the selected volume, or
  /// drop the selection when it is gone.
  void syncSelection();
  /// The smallest volume around `p` (xz inside, y within its bottom..top), or -1.
  int volumeAt(const glm::vec3& p) const;

  /// The convex hull of points [(x, y, z) * n] in xz by gift wrapping (RecastDemo's convexhull):
  /// indices into the points, starting at the lowest x (then z). Fewer than 3 for points in a line.
  static std::vector<int> convexHull(const std::vector<float>& pts);

  const std::vector<float>& points() const { return m_pts; } ///< [(x, y, z) * n]
  const std::vector<int>& hull() const { return m_hull; }
  int selected() const { return m_sel.index; }
  const nav::bake::ConvexVolume& selectedVolume() const { return m_sel.value; }
  /// The bottom and top of the new volume over the hull's lowest point [Unit: wu].
  void hullSpan(float* hmin, float* hmax) const;

  uint8_t area = nav::AREA_GRASS;
  float height = 6.0f; ///< RecastDemo's "Shape Height" [Unit: wu].
  float offset = 1.0f; ///< RecastDemo's "Shape Descent": the bottom below the lowest point [Unit: wu].
  float editMin = 0, editMax = 0; ///< The selected volume's bottom / top being typed.
  EditMessage message;

  /// --dump-state (without the view's widgets).
  void dumpState(nlohmann::json& out) const;

private:
  void fail(const std::string& why);
  EditContext m_ctx;
  std::vector<float> m_pts;
  std::vector<int> m_hull;
  EditSelection<nav::bake::ConvexVolume> m_sel;
};

} // namespace navbench
