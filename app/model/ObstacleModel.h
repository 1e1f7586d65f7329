// ObstacleModel.h: the Obstacles tool's model (RecastDemo's TempObstacles sample): what the next
// click drops, the selection, a drag in progress, the tool's undo list, and a probe path that
// re-routes as tiles come back. The obstacles themselves are the open tile cache's
// (app/TileCacheState.h, kept when the tool changes, saved as the scenario's edits.obstacles);
// this model edits them through it. The view (app/tools/ToolObstacles) turns clicks and drags
// into these calls, draws outline() rings and the probe, and shows the outcomes.
//
// Input (clicks, drags) is level points [Unit: wu]. An edit that changed the obstacles is recorded
// (Outcome::recorded): the view joins it to the app's one history. No SDL, ImGui or GL here.
#pragma once

#include "app/TileCacheState.h"
#include "nav/NavTypes.h"

#include <glm/vec3.hpp>
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace navbench {

class NavState;

class ObstacleModel {
public:
  static constexpr int kMaxPolys = 2048, kMaxStraight = 256;

  /// What an input did: a message for the view ("" = nothing to say; `error`: refused, also
  /// logged), and whether the obstacles changed (an undo step was recorded).
  struct Outcome {
    std::string text;
    bool error = false;
    bool recorded = false;
  };

  /// The navmesh state whose tile cache (if any) holds the obstacles; its address must stay valid.
  void attach(NavState* nav) { m_nav = nav; }
  /// The open tile cache, or null (a tile set or nothing open).
  TileCacheState* cache() const;

  /// The interaction in progress ends (the obstacles stay).
  void reset();
  /// Another level or navmesh: selection, undo list and probe are dropped too.
  void levelChanged();

  // ---- input ----------------------------------------------------------------------------------
  /// A click at level point `hit`: on an obstacle, select it (Shift: remove it); elsewhere drop
  /// shape() there (Shift: the probe's start, then its end, then a new start).
  Outcome click(const glm::vec3& hit, bool shift);
  /// A drag pressed on an obstacle takes it (true); Shift or empty ground: not a drag of ours.
  bool dragBegin(const glm::vec3& hit, bool shift);
  /// The drag's target; the move is made by update(), as fast as the cache's queue takes it.
  void dragTo(const glm::vec3& hit);
  /// Released (at `hit`, when `onLevel`): the last move, and one undo step for the whole drag.
  Outcome dragEnd(const glm::vec3& hit, bool onLevel);
  /// Once a frame: a pending drag move is made once the cache's request queue is empty.
  Outcome update();
  Outcome removeSelected();
  Outcome removeAll();
  Outcome undo();
  Outcome redo();
  bool canUndo() const { return !m_undo.empty(); }
  bool canRedo() const { return !m_redo.empty(); }

  // ---- state ----------------------------------------------------------------------------------
  /// The kind and sizes the next click drops (the view's sliders edit it).
  Obstacle& shape() { return m_shape; }
  const Obstacle& shape() const { return m_shape; }
  int selected() const { return m_sel; }
  /// Where the current (or last) drag moved its obstacle, in order.
  const std::vector<glm::vec3>& dragTrail() const { return m_dragTrail; }

  // ---- the probe path -------------------------------------------------------------------------
  bool hasStart() const { return m_hasStart; }
  bool hasEnd() const { return m_hasEnd; }
  const glm::vec3& start() const { return m_start; }
  const glm::vec3& end() const { return m_end; }
  /// Straight path corners [(x, y, z) * straightCount()].
  const float* straight() const { return m_straight.data(); }
  int straightCount() const { return m_nstraight; }
  int polyCount() const { return m_npath; }
  bool partial() const;
  /// Length of the straight path [Unit: wu].
  float probeLength() const;
  void clearProbe();
  /// findPath + findStraightPath from start to end on the current navmesh and filter (a partial
  /// path ends at the closest point of its last poly).
  void recomputeProbe();

  // ---- geometry -------------------------------------------------------------------------------
  /// The ring of `o`'s outline at height y: a cylinder's 24 points, a box's 4 corners (an oriented
  /// box turned by +yaw about +y, as TileCacheState::obstacleAt turns points back).
  static void outline(const Obstacle& o, float y, std::vector<glm::vec3>* pts);
  /// The top of `o`'s shape [Unit: wu] (its ground point sunk by TileCacheState::kSink, plus the height).
  static float top(const Obstacle& o);

  // ---- files ----------------------------------------------------------------------------------
  /// --dump-state: shape, selection, drag trail, the tile cache, probe, undo/redo sizes.
  void dumpState(nlohmann::json& out) const;
  /// {"kind", "radius", "height", "half", "yaw", "probeStart", "probeEnd" (when set)}.
  void saveScenario(nlohmann::json& out) const;
  /// Reads what saveScenario wrote (nav/base/Json.h): false with `error` = "KEY: problem" and
  /// nothing changed; null = nothing to restore.
  bool loadScenario(const nlohmann::json& in, std::string& error);

private:
  Outcome record(std::vector<Obstacle> before, std::string text);
  static Outcome failed(const std::string& why) { return {why, true, false}; }
  struct Step;
  /// Undo (forward false: the last step of `from` taken back) or redo; the step moves to `to`.
  Outcome replay(std::vector<Step>& from, std::vector<Step>& to, bool forward);

  NavState* m_nav = nullptr;
  Obstacle m_shape;
  int m_sel = -1;
  int m_drag = -1; ///< Obstacle being dragged, -1 none.
  std::vector<Obstacle> m_dragBefore;
  glm::vec3 m_dragTarget{0.0f};
  bool m_dragPending = false; ///< A move waits for the cache's queue.
  std::vector<glm::vec3> m_dragTrail;
  struct Step {
    std::vector<Obstacle> before, after;
  };
  std::vector<Step> m_undo, m_redo;
  bool m_hasStart = false, m_hasEnd = false;
  glm::vec3 m_start{0.0f}, m_end{0.0f};
  std::vector<nav::PolyRef> m_path;
  std::vector<float> m_straight;
  int m_npath = 0, m_nstraight = 0;
  nav::Status m_status = 0;
};

} // namespace navbench
