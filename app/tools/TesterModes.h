// TesterModes.h: the NavMeshTesterTool modes (one .cpp each): Pathfind Follow, Pathfind Straight,
// Pathfind Sliced, Raycast, Distance to Wall, Find Polys in Circle, Find Polys in Shape, Find Local
// Neighbourhood, Random Points. Common input and readouts: Tester.h (PathTester: the path modes).
#pragma once

#include "app/tools/Tester.h"
#include "nav/PathFollow.h"

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace navbench {

/// Readers for the modes' Tester::loadOptions (Tester.cpp): a missing key keeps `out`; a bad one
/// returns false with error = "options.<key>: <problem>".
bool optionKeys(const nlohmann::json& in, std::initializer_list<const char*> keys, std::string& error);
bool optionInt(const nlohmann::json& in, const char* key, int lo, int hi, int& out, std::string& error);
bool optionFloat(const nlohmann::json& in, const char* key, float lo, float hi, float& out, std::string& error);
bool optionBool(const nlohmann::json& in, const char* key, bool& out, std::string& error);

/// findPath + the whole smooth path (nav::findSmoothPath), and stepping (Space / Play).
class ToolFollow : public PathTester {
public:
  const char* name() const override { return "Pathfind Follow"; }
  void step() override;
  void update(float dt) override;

protected:
  void recompute() override;
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  void dumpResult(nlohmann::json& out) const override;
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const nlohmann::json& in, std::string& error) override;
  void afterScenarioLoad() override;
  float resultLength() const override { return polylineLength(m_smooth.data(), m_nsmooth); }
  int corridorForShortest(const nav::PolyRef** polys) const override {
    *polys = m_path.data();
    return m_npath;
  }

private:
  std::vector<float> m_smooth = std::vector<float>(2048 * 3);
  int m_nsmooth = 0;
  std::unique_ptr<nav::PathFollower> m_follower = std::make_unique<nav::PathFollower>();
  std::vector<float> m_stepped; ///< Points emitted by stepping so far.
  glm::vec3 m_prevPos{0.0f};
  bool m_stepping = false, m_play = false;
  float m_playAccum = 0;
  int m_steps = 0;        ///< step() calls since the last recompute (saved in scenarios).
  int m_restoreSteps = 0; ///< Steps to replay after a scenario load.
};

/// findPath + findStraightPath with the crossing option (None / Area / All).
class ToolStraight : public PathTester {
public:
  const char* name() const override { return "Pathfind Straight"; }

protected:
  void recompute() override;
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  void dumpResult(nlohmann::json& out) const override;
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const nlohmann::json& in, std::string& error) override;
  float resultLength() const override { return straightLength(); }
  int corridorForShortest(const nav::PolyRef** polys) const override {
    *polys = m_path.data();
    return m_npath;
  }

private:
  std::vector<nav::PolyRef> m_refs = std::vector<nav::PolyRef>(kMaxPolys);
  int m_crossing = 0; ///< 0 none, 1 area, 2 all.
};

/// raycast from start toward end: hit point, wall normal, visited polys.
class ToolRaycast : public Tester {
public:
  const char* name() const override { return "Raycast"; }

protected:
  void recompute() override;
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  void dumpResult(nlohmann::json& out) const override;

private:
  std::vector<nav::PolyRef> m_path = std::vector<nav::PolyRef>(kMaxPolys);
  int m_npath = 0;
  float m_t = 0;
  float m_normal[3] = {0, 0, 0};
  glm::vec3 m_hitPos{0.0f};
};

/// findDistanceToWall around the start.
class ToolWallDistance : public Tester {
public:
  const char* name() const override { return "Distance to Wall"; }

protected:
  bool needsEnd() const override { return false; }
  void recompute() override;
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  void dumpResult(nlohmann::json& out) const override;
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const nlohmann::json& in, std::string& error) override;

private:
  float m_radius = 100.0f;
  float m_dist = 0;
  float m_hitPos[3] = {0, 0, 0}, m_hitNormal[3] = {0, 0, 0};
};

/// findPolysAroundCircle: centre = start, radius = |end - start|.
class ToolPolysCircle : public Tester {
public:
  const char* name() const override { return "Find Polys in Circle"; }

protected:
  void recompute() override;
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  void dumpResult(nlohmann::json& out) const override;

private:
  static constexpr int kMax = 256;
  nav::PolyRef m_refs[kMax] = {}, m_parents[kMax] = {};
  int m_count = 0;
};

/// The sliced A*: a few iterations per frame, the search (open/closed nodes) drawn as it grows.
class ToolSliced : public PathTester {
public:
  const char* name() const override { return "Pathfind Sliced"; }
  void update(float dt) override;
  void step() override;
  /// --shortest: step the exact search (nav::ShortestPath) instead of findPath's A*.
  void setShowShortest(bool on) override;

protected:
  void recompute() override;
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  void dumpResult(nlohmann::json& out) const override;
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const nlohmann::json& in, std::string& error) override;
  void afterScenarioLoad() override;
  float resultLength() const override {
    return m_running ? -1.0f : m_exact ? m_exactLen : straightLength();
  }

private:
  void advance(int iters);
  bool m_running = false, m_paused = false;
  int m_itersPerFrame = 2;
  int m_totalIters = 0;
  bool m_exact = false; ///< Step nav::ShortestPath's search (intervals and roots drawn) instead of A*.
  std::shared_ptr<nav::ShortestPath> m_exactSearch;
  const void* m_exactMesh = nullptr;
  float m_exactLen = 0;
  int m_restoreIters = 0; ///< Iterations to replay after a scenario load.
};

/// findPolysAroundShape: a quad along start -> end, as RecastDemo's.
class ToolPolysShape : public Tester {
public:
  const char* name() const override { return "Find Polys in Shape"; }

protected:
  void recompute() override;
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  void dumpResult(nlohmann::json& out) const override;

private:
  static constexpr int kMax = 256;
  float m_shape[12] = {};
  nav::PolyRef m_refs[kMax] = {}, m_parents[kMax] = {};
  int m_count = 0;
};

/// findLocalNeighbourhood around the start, with the found polys' walls and portals.
class ToolLocalNeighbourhood : public Tester {
public:
  const char* name() const override { return "Find Local Neighbourhood"; }

protected:
  bool needsEnd() const override { return false; }
  void recompute() override;
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  void dumpResult(nlohmann::json& out) const override;
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const nlohmann::json& in, std::string& error) override;

private:
  static constexpr int kMax = 64;
  float m_radius = kAgentRadius * 20.0f;
  nav::PolyRef m_refs[kMax] = {}, m_parents[kMax] = {};
  int m_count = 0;
};

/// Random points anywhere on the mesh, or around the start within |end - start|.
class ToolRandomPoints : public Tester {
public:
  const char* name() const override { return "Random Points"; }

protected:
  bool needsEnd() const override { return false; }
  void recompute() override;
  void drawResult(render::DebugDraw& dd) override;
  void resultUi() override;
  void dumpResult(nlohmann::json& out) const override;
  void saveOptions(nlohmann::json& out) const override;
  bool loadOptions(const nlohmann::json& in, std::string& error) override;
  void afterScenarioLoad() override;

private:
  void generate(bool inCircle);
  int m_count = 200;
  float m_radius = 5.0f;
  bool m_inCircle = true; ///< A click generates points around it; "Anywhere" switches off.
  std::vector<float> m_points;
};

} // namespace navbench
