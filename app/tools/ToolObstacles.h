// ToolObstacles.h: the Obstacles tool (RecastDemo's TempObstacles sample) on a tile cache navmesh
// (.tcache, app/TileCacheState.h). A click on the level drops an obstacle of the panel's kind and
// size (cylinder: radius, height; box: half extents; oriented box: and a yaw); a click on an
// obstacle selects it; Shift+click on an obstacle removes it; dragging one moves it, rebuilt as it
// moves. Shift+click on the ground sets a probe path's start, then its end: a straight path
// that re-routes as tiles come back. Tiles being rebuilt flash. Adds, removals and moves are
// undoable (the app's one history). The obstacles are the open tile cache's (they stay when the
// tool changes) and are saved in scenarios (edits.obstacles, app/Document.cpp).
#pragma once

#include "app/model/ObstacleModel.h"
#include "app/tools/EditToolUi.h"
#include "app/tools/Tool.h"

namespace navbench {

/// The view of ObstacleModel (app/model/ObstacleModel.h): input -> model calls, the model ->
/// debug draw and the panel.
class ToolObstacles : public Tool {
public:
  static constexpr double kFlashMs = 500.0; ///< How long a rebuilt tile flashes.

  const char* name() const override { return "Obstacles"; }
  bool pairedInList() const override { return true; }
  void init(ToolContext& ctx) override;
  void reset() override;
  void onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) override;
  bool dragBegin(const glm::vec3& hitPos, bool shift) override;
  void dragTo(const glm::vec3& hitPos) override { m_model.dragTo(hitPos); }
  void dragEnd(const glm::vec3& hitPos, bool hit) override { show(m_model.dragEnd(hitPos, hit)); }
  void update(float dt) override;
  void drawUi() override;
  void draw(render::DebugDraw& dd) override;
  void onLevelChanged() override;
  void onFilterChanged() override { m_model.recomputeProbe(); }
  void undo() override { show(m_model.undo()); }
  void redo() override { show(m_model.redo()); }
  void dumpState(nlohmann::json& out) const override;
  /// {"kind", "radius", "height", "half", "yaw", "probeStart", "probeEnd" (when set)}; the obstacles
  /// themselves are the scenario's edits.obstacles.
  void saveScenario(nlohmann::json& out) const override { m_model.saveScenario(out); }
  bool loadScenario(const nlohmann::json& in, std::string& error) override { return m_model.loadScenario(in, error); }

private:
  /// Shows an outcome; a recorded one joins the app's history.
  void show(const ObstacleModel::Outcome& o);

  ObstacleModel m_model;
  edit::Message m_msg;
};

} // namespace navbench
