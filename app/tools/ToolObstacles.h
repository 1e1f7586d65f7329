// ToolObstacles.h: the Obstacles tool (RecastDemo's TempObstacles sample) on a tile cache navmesh
// (.tcache, app/TileCacheState.h). A click on the level drops an obstacle of the panel's kind and
// size (cylinder: radius, height; box: half extents; oriented box: and a yaw); a click on an
// obstacle selects it; Shift+click on an obstacle removes it; dragging one moves it, rebuilt as it
// moves. Shift+click on the ground sets a probe path's start, then its end: a straight path
// that re-routes as tiles come back. Tiles being rebuilt flash. Adds, removals and moves are
// undoable (the app's one history). The obstacles are the open tile cache's (they stay when the
// tool changes) and are saved in scenarios (edits.obstacles, app/Document.cpp).
#pragma once

#include "app/TileCacheState.h"
#include "app/tools/EditToolUi.h"
#include "app/tools/Tool.h"
#include "nav/NavTypes.h"

#include <vector>

namespace navbench {

class ToolObstacles : public Tool {
public:
  static constexpr double kFlashMs = 500.0; ///< How long a rebuilt tile flashes.
  static constexpr int kMaxPolys = 2048, kMaxStraight = 256;

  const char* name() const override { return "Obstacles"; }
  bool pairedInList() const override { return true; }
  void reset() override;
  void onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) override;
  bool dragBegin(const glm::vec3& hitPos, bool shift) override;
  void dragTo(const glm::vec3& hitPos) override;
  void dragEnd(const glm::vec3& hitPos, bool hit) override;
  void update(float dt) override;
  void drawUi() override;
  void draw(render::DebugDraw& dd) override;
  void onLevelChanged() override;
  void onFilterChanged() override { recomputeProbe(); }
  void undo() override;
  void redo() override;
  void dumpState(nlohmann::json& out) const override;
  /// {"kind", "radius", "height", "half", "yaw", "probeStart", "probeEnd" (when set)}; the obstacles
  /// themselves are the scenario's edits.obstacles.
  void saveScenario(nlohmann::json& out) const override;
  bool loadScenario(const nlohmann::json& in, std::string& error) override;

private:
  TileCacheState* cache() const;
  /// Records a change (before -> now) in the undo list and the app's history.
  void record(std::vector<Obstacle> before);
  void recomputeProbe();
  void fail(const std::string& why);

  Obstacle m_shape; ///< The kind and sizes the next click drops.
  int m_sel = -1;
  int m_drag = -1;  ///< Obstacle being dragged, -1 none.
  std::vector<Obstacle> m_dragBefore;
  glm::vec3 m_dragTarget{0.0f};
  bool m_dragPending = false; ///< A move waits for the cache's queue.
  /// Where the current (or last) drag moved it, in order (the move at the release included).
  std::vector<glm::vec3> m_dragTrail;
  struct Step {
    std::vector<Obstacle> before, after;
  };
  std::vector<Step> m_undo, m_redo;
  // The probe path.
  bool m_hasStart = false, m_hasEnd = false;
  glm::vec3 m_start{0.0f}, m_end{0.0f};
  std::vector<nav::PolyRef> m_path;
  std::vector<float> m_straight;
  int m_npath = 0, m_nstraight = 0;
  nav::Status m_status = 0;
  edit::Message m_msg;
};

} // namespace navbench
