// Tester.h: the common part of the NavMeshTesterTool modes: a start and an end point on the
// navmesh, set like RecastDemo (Shift+left click or right click = start, left click = end) or
// typed as coordinates, undo/redo of those changes, the markers with the agent cylinder, the query
// timing and status readouts. Each mode (one file each, declared in TesterModes.h) overrides
// recompute(), drawResult(), resultUi() and dumpResult().
#pragma once

#include "app/tools/Tool.h"
#include "nav/NavTypes.h"

#include <memory>
#include <string>
#include <vector>

namespace nav {
class ShortestPath;
}

namespace navbench {

class Tester : public Tool {
public:
  void reset() override;
  void onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) override;
  void drawUi() override;
  void draw(render::DebugDraw& dd) override;
  void onLevelChanged() override;
  void onFilterChanged() override { recomputeAll(); }
  void undo() override;
  void redo() override;
  void dumpState(nlohmann::json& out) const override;
  void setShowShortest(bool on) override;
  /// Scenario files: {"start": [x, y, z], "end": [x, y, z] (each only when set, exact floats),
  /// "shortest": bool (modes with a path), "options": {the mode's options}}. loadScenario checks
  /// every key first (unknown keys are errors), then applies and recomputes.
  void saveScenario(nlohmann::json& out) const override;
  bool loadScenario(const nlohmann::json& in, std::string& error) override;
  /// One line for screenshot captions: mode, start/end, status, path length.
  std::string caption() const;
  Tester();
  ~Tester() override;

  /// Sets the start / end directly (as a click or typed coordinates would).
  void setStart(const glm::vec3& p);
  void setEnd(const glm::vec3& p);

  static constexpr float kAgentRadius = 0.6f, kAgentHeight = 2.0f;
  static constexpr int kMaxPolys = 2048;

protected:
  /// Snaps start/end to the mesh and calls recompute() (timed).
  void recomputeAll();
  virtual void recompute() = 0;
  virtual void drawResult(render::DebugDraw& /*dd*/) {}
  virtual void resultUi() {}
  virtual void dumpResult(nlohmann::json& /*out*/) const {}
  /// Does the mode need an end point?
  virtual bool needsEnd() const { return true; }
  /// Scenario files: the mode's own options. loadOptions checks all of `in` (keys named
  /// "options.<key>" in `error`) and applies them only when all are valid; the default accepts
  /// an empty object only. afterScenarioLoad() runs after the recompute (e.g. replay steps).
  virtual void saveOptions(nlohmann::json& /*out*/) const {}
  virtual bool loadOptions(const nlohmann::json& in, std::string& error);
  virtual void afterScenarioLoad() {}
  /// Length of the mode's path for captions [Unit: wu]; < 0 when the mode has none.
  virtual float resultLength() const { return -1.0f; }
  /// More for the caption after the mode's name (e.g. the stepper's "step 12/75"); "" = nothing.
  virtual std::string captionDetail() const { return std::string(); }

  /// Helpers for modes.
  void drawCorridor(render::DebugDraw& dd, const nav::PolyRef* polys, int n) const;
  void drawStraight(render::DebugDraw& dd, const float* pts, const uint8_t* flags, int n) const;
  static float polylineLength(const float* pts, int n);
  /// A partial / out-of-nodes result: a red marker where the path stopped (pts = its last point).
  void drawPartialMarker(render::DebugDraw& dd, const float* lastPoint) const;
  /// The polys a search found (refs, and parents: 0 for a root) [Size: n each]: filled, with an
  /// arrow from each parent; dumped as "found" and "parents".
  void drawFoundPolys(render::DebugDraw& dd, const nav::PolyRef* refs, const nav::PolyRef* parents, int n) const;
  static void dumpFoundPolys(nlohmann::json& out, const nav::PolyRef* refs, const nav::PolyRef* parents, int n);

  /// The "Shortest path" option (modes with a path call these): runs nav::ShortestPath for the
  /// current start/end/filter when on, and compares it with the mode's path (pts, n points) and
  /// corridor (the polys the exact path passes outside it are highlighted).
  /// Modes with a path return their corridor here (count >= 0); -1 = no shortest-path option.
  virtual int corridorForShortest(const nav::PolyRef** /*polys*/) const { return -1; }
  void computeShortest(const nav::PolyRef* corridor, int ncorridor);
  void drawShortest(render::DebugDraw& dd) const;
  void shortestUi(const char* otherName, float otherLen);
  void dumpShortest(nlohmann::json& out) const;
  bool m_showShortest = false;

  bool m_hasStart = false, m_hasEnd = false;
  glm::vec3 m_start{0.0f}, m_end{0.0f};
  nav::PolyRef m_startRef = 0, m_endRef = 0;
  nav::Status m_status = 0;
  double m_queryUs = 0;
  int m_nodesUsed = 0;
  float m_bakeButton[2] = {-1.0f, -1.0f}; ///< The Bake button's centre last frame (no navmesh), or -1.

private:
  struct Input {
    bool hasStart, hasEnd;
    glm::vec3 start, end;
  };
  void pushUndo();
  std::vector<Input> m_undo, m_redo;
  std::unique_ptr<nav::ShortestPath> m_sp;
  const void* m_spMesh = nullptr; ///< Mesh m_sp was initialised with.
  std::vector<float> m_spPts;
  std::vector<nav::PolyRef> m_spPolys, m_spOutside;
  nav::Status m_spStatus = 0;
  float m_spLen = 0;
  double m_spUs = 0;
};

/// A mode with a path from the start toward the end (Pathfind Follow / Straight / Sliced, A*
/// Stepper): the polygon corridor and the straight path along it, with what those modes do alike.
/// Follow draws a smooth path instead of the straight one; the stepper keeps its own corridor.
class PathTester : public Tester {
protected:
  /// findPath from the start to the end poly into m_path / m_npath (m_status, m_nodesUsed set),
  /// then corridorEnd(). False, with m_npath = 0 for no corridor, when there is nothing to join.
  bool findCorridor(float* endPos);
  /// Where a path along m_path ends [(x, y, z)]: the end point, or the nearest point of the last
  /// corridor poly when the corridor stops short of the end poly (a partial path). Needs m_npath > 0.
  void corridorEnd(float* endPos) const;
  /// The corridor, the straight path (coloured by m_flags) and the partial marker.
  void drawPath(render::DebugDraw& dd) const;
  /// "corridor": [poly refs], "straight": [(x, y, z) * m_nstraight].
  void dumpPath(nlohmann::json& out) const;
  float straightLength() const { return polylineLength(m_straight.data(), m_nstraight); }

  std::vector<nav::PolyRef> m_path = std::vector<nav::PolyRef>(kMaxPolys); ///< [Size: kMaxPolys], m_npath used.
  int m_npath = 0;
  std::vector<float> m_straight = std::vector<float>(kMaxPolys * 3); ///< [(x, y, z) * kMaxPolys], m_nstraight used.
  std::vector<uint8_t> m_flags = std::vector<uint8_t>(kMaxPolys);    ///< STRAIGHTPATH_* per straight path corner.
  int m_nstraight = 0;
};

} // namespace navbench
