// TesterModes.h: the tester modes' state and compute (headless): Pathfind Follow, Straight and
// Sliced (TesterPathModes.cpp); Raycast, Distance to Wall, Find Polys in Circle / Shape, Find Local
// Neighbourhood and Random Points (TesterQueryModes.cpp). The A* Stepper: StepperModel.h. Common
// input, undo and JSON: TesterModel.h. Each mode's scenario "options" are listed with its class.
#pragma once

#include "app/model/TesterModel.h"

#include <memory>
#include <string>
#include <vector>

namespace nav {
class PathFollower;
class ShortestPath;
} // namespace nav

namespace navbench {

/// findPath + the whole smooth path (nav::findSmoothPath), and stepping a PathFollower along the
/// corridor (step(), or play: one step per 0.05 s of update()). Options: {"steps": the step()
/// calls since the last recompute, replayed after a load} and the algorithm's (TesterModel.h).
class FollowModel : public PathTesterModel {
public:
  FollowModel();
  ~FollowModel() override;
  const char* name() const override { return "Pathfind Follow"; }
  void step();
  void update(float dt);
  void setPlay(bool on) { m_play = on; }
  bool playing() const { return m_play; }
  /// Back to before the first step (the smooth path stays).
  void restartStepping();

  const float* smooth() const { return m_smooth.data(); } ///< [(x, y, z) * smoothSize()]
  int smoothSize() const { return m_nsmooth; }
  bool stepping() const { return m_stepping; }
  const nav::PathFollower& follower() const { return *m_follower; }
  const std::vector<float>& stepped() const { return m_stepped; } ///< Points emitted so far [(x, y, z) * n].
  const glm::vec3& prevPos() const { return m_prevPos; }          ///< The follower before the last step.
  float resultLength() const override { return polylineLength(m_smooth.data(), m_nsmooth); }

protected:
  void recompute() override;
  void dumpResult(nlohmann::json& out) const override;
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const base::JsonIn& in) override;
  void afterScenarioLoad() override;

private:
  std::vector<float> m_smooth = std::vector<float>(2048 * 3);
  int m_nsmooth = 0;
  std::unique_ptr<nav::PathFollower> m_follower;
  std::vector<float> m_stepped;
  glm::vec3 m_prevPos{0.0f};
  bool m_stepping = false, m_play = false;
  float m_playAccum = 0;
  int m_steps = 0;        ///< step() calls since the last recompute (saved in scenarios).
  int m_restoreSteps = 0; ///< Steps to replay after a scenario load.
};

/// findPath (or the hierarchical search) + findStraightPath with the crossing option. Options:
/// {"crossing": 0 none, 1 area, 2 all} and the algorithm's (TesterModel.h).
class StraightModel : public PathTesterModel {
public:
  StraightModel() : PathTesterModel(true, true) {}
  const char* name() const override { return "Pathfind Straight"; }
  int crossing() const { return m_crossing; }
  void setCrossing(int crossing);
  float resultLength() const override { return straightLength(); }

protected:
  void recompute() override;
  void dumpResult(nlohmann::json& out) const override;
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const base::JsonIn& in) override;

private:
  std::vector<nav::PolyRef> m_refs = std::vector<nav::PolyRef>(kMaxPolys);
  int m_crossing = 0;
};

/// The sliced A* (or, "exact", nav::ShortestPath's sliced search), a few iterations per update().
/// Options: {"exact": bool, "itersPerFrame": 1..64, "paused": bool, "iterations": replayed after a
/// load}.
class SlicedModel : public PathTesterModel {
public:
  SlicedModel();
  ~SlicedModel() override;
  const char* name() const override { return "Pathfind Sliced"; }
  /// One frame: itersPerFrame() iterations unless paused.
  void update();
  void step() { advance(1); }
  /// Runs `iters` more iterations of the running search (the end finalizes it).
  void advance(int iters);
  /// --shortest: the exact search instead of findPath's A* (restarts).
  void setShowShortest(bool on) override;
  bool exact() const { return m_exact; }
  bool running() const { return m_running; }
  bool paused() const { return m_paused; }
  void setPaused(bool on) { m_paused = on; }
  int itersPerFrame() const { return m_itersPerFrame; }
  void setItersPerFrame(int n) { m_itersPerFrame = n; }
  int iterations() const { return m_totalIters; }
  float exactLen() const { return m_exactLen; }
  /// The exact search while it runs (null otherwise or before the first).
  const nav::ShortestPath* exactSearch() const { return m_exact ? m_exactSearch.get() : nullptr; }
  float resultLength() const override { return m_running ? -1.0f : m_exact ? m_exactLen : straightLength(); }

protected:
  void recompute() override;
  void dumpResult(nlohmann::json& out) const override;
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const base::JsonIn& in) override;
  void afterScenarioLoad() override;

private:
  bool m_running = false, m_paused = false;
  int m_itersPerFrame = 2;
  int m_totalIters = 0;
  bool m_exact = false;
  std::unique_ptr<nav::ShortestPath> m_exactSearch;
  const void* m_exactMesh = nullptr;
  float m_exactLen = 0;
  int m_restoreIters = 0;
};

/// raycast from start toward end: hit (t <= 1) or not, wall normal, visited polys.
class RaycastModel : public TesterModel {
public:
  const char* name() const override { return "Raycast"; }
  bool hit() const { return m_t <= 1.0f; }
  float t() const { return m_t; } ///< FLT_MAX when the ray reaches the end.
  const float* normal() const { return m_normal; }
  /// Where the ray stopped, on the last visited poly's surface.
  const glm::vec3& hitPos() const { return m_hitPos; }
  const nav::PolyRef* visited() const { return m_path.data(); }
  int visitedCount() const { return m_npath; }

protected:
  void recompute() override;
  void dumpResult(nlohmann::json& out) const override;

private:
  std::vector<nav::PolyRef> m_path = std::vector<nav::PolyRef>(kMaxPolys);
  int m_npath = 0;
  float m_t = 0;
  float m_normal[3] = {0, 0, 0};
  glm::vec3 m_hitPos{0.0f};
};

/// A mode with a search radius around the start. Options: {"radius": [1e-3, 1e6]}.
class RadiusTesterModel : public TesterModel {
public:
  bool needsEnd() const override { return false; }
  float radius() const { return m_radius; }
  void setRadius(float r);

protected:
  explicit RadiusTesterModel(float radius) : m_radius(radius) {}
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const base::JsonIn& in) override;
  float m_radius;
};

/// findDistanceToWall around the start.
class WallDistanceModel : public RadiusTesterModel {
public:
  WallDistanceModel() : RadiusTesterModel(100.0f) {}
  const char* name() const override { return "Distance to Wall"; }
  float distance() const { return m_dist; }
  const float* hitPos() const { return m_hitPos; }
  const float* hitNormal() const { return m_hitNormal; }

protected:
  void recompute() override;
  void dumpResult(nlohmann::json& out) const override;

private:
  float m_dist = 0;
  float m_hitPos[3] = {0, 0, 0}, m_hitNormal[3] = {0, 0, 0};
};

/// The polys a search around the start found, with their parents (0 for the root) [Size: count()].
struct FoundPolys {
  explicit FoundPolys(int max) : refs(size_t(max)), parents(size_t(max)) {}
  int max() const { return int(refs.size()); }
  std::vector<nav::PolyRef> refs, parents;
  int count = 0;
};

/// A mode that finds the polys around the start (at most Max): found(), dumped as "found" and
/// "parents".
template <class Base, int Max>
class FoundPolysModel : public Base {
public:
  const FoundPolys& found() const { return m_found; }

protected:
  using Base::Base;
  void dumpResult(nlohmann::json& out) const override {
    TesterModel::dumpFoundPolys(out, m_found.refs.data(), m_found.parents.data(), m_found.count);
  }
  FoundPolys m_found{Max};
};

/// findPolysAroundCircle: centre = start, radius = |end - start|.
class PolysCircleModel : public FoundPolysModel<TesterModel, 256> {
public:
  const char* name() const override { return "Find Polys in Circle"; }
  float radius() const { return glm::length(m_end - m_start); }

protected:
  void recompute() override;
};

/// findPolysAroundShape: a quad along start -> end, half as wide as long, as RecastDemo's.
class PolysShapeModel : public FoundPolysModel<TesterModel, 256> {
public:
  const char* name() const override { return "Find Polys in Shape"; }
  const float* shape() const { return m_shape; } ///< [(x, y, z) * 4]

protected:
  void recompute() override;
  void dumpResult(nlohmann::json& out) const override; ///< The polys and "shape".

private:
  float m_shape[12] = {};
};

/// findLocalNeighbourhood around the start.
class LocalNeighbourhoodModel : public FoundPolysModel<RadiusTesterModel, 64> {
public:
  LocalNeighbourhoodModel() : FoundPolysModel(kAgentRadius * 20.0f) {}
  const char* name() const override { return "Find Local Neighbourhood"; }

protected:
  void recompute() override;
  void dumpResult(nlohmann::json& out) const override; ///< The polys and "radius".
};

/// Random points anywhere on the mesh, or around the start within radius() (a fixed seed: the same
/// inputs give the same points). Options: {"count": 1..2000, "radius", "inCircle": bool}.
class RandomPointsModel : public TesterModel {
public:
  const char* name() const override { return "Random Points"; }
  bool needsEnd() const override { return false; }
  int count() const { return m_count; }
  void setCount(int n) { m_count = n; }
  float radius() const { return m_radius; }
  /// Sets the circle's radius; makes the points again when they are around the start.
  void setRadius(float r);
  bool inCircle() const { return m_inCircle; }
  /// Makes count() points anywhere, or around the start (and again whenever it moves).
  void generate(bool inCircle);
  const std::vector<float>& points() const { return m_points; } ///< [(x, y, z) * n]

protected:
  void recompute() override;
  void dumpResult(nlohmann::json& out) const override;
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const base::JsonIn& in) override;
  void afterScenarioLoad() override;

private:
  int m_count = 200;
  float m_radius = 5.0f;
  bool m_inCircle = true;
  std::vector<float> m_points;
};

} // namespace navbench
