// The path modes of TesterModes.h: Pathfind Follow, Straight and Sliced.
#include "app/model/TesterModes.h"

#include "app/NavState.h"
#include "nav/PathFollow.h"
#include "nav/ShortestPath.h"
#include "nav/base/Json.h"

namespace navbench {

// ---- Pathfind Follow ----------------------------------------------------------------------------

FollowModel::FollowModel() : PathTesterModel(true, true), m_follower(std::make_unique<nav::PathFollower>()) {}
FollowModel::~FollowModel() = default;

void FollowModel::recompute() {
  m_nsmooth = 0;
  m_stepped.clear();
  m_stepping = false;
  m_steps = 0;
  // Smooth toward the end point, or the nearest point of the last corridor poly (partial path).
  float endPos[3];
  if (!findCorridor(endPos)) return;
  nav::findSmoothPath(&m_nav->query(), &m_nav->filter(), m_startRef, &m_start.x, endPos, m_path.data(), m_npath,
                      m_smooth.data(), &m_nsmooth, 2048);
}

void FollowModel::restartStepping() {
  m_stepping = false;
  m_steps = 0;
}

void FollowModel::step() {
  if (!m_nav || m_npath == 0) return;
  ++m_steps;
  if (!m_stepping) {
    float endPos[3];
    corridorEnd(endPos);
    if (nav::statusFailed(m_follower->init(&m_nav->query(), &m_nav->filter(), m_startRef, &m_start.x, endPos, m_path.data(),
                                           m_npath)))
      return;
    m_stepping = true;
    m_stepped.assign(m_follower->stepPoints(), m_follower->stepPoints() + m_follower->stepPointCount() * 3);
    m_prevPos = m_start;
    return;
  }
  const float* p = m_follower->position();
  m_prevPos = glm::vec3(p[0], p[1], p[2]);
  if (m_follower->step())
    m_stepped.insert(m_stepped.end(), m_follower->stepPoints(), m_follower->stepPoints() + m_follower->stepPointCount() * 3);
  else
    m_play = false;
}

void FollowModel::update(float dt) {
  if (!m_play) return;
  m_playAccum += dt;
  while (m_playAccum > 0.05f) {
    m_playAccum -= 0.05f;
    step();
  }
}

void FollowModel::dumpResult(nlohmann::json& out) const {
  out["corridor"] = std::vector<nav::PolyRef>(m_path.begin(), m_path.begin() + m_npath);
  out["smooth"] = std::vector<float>(m_smooth.begin(), m_smooth.begin() + m_nsmooth * 3);
  out["smoothCount"] = m_nsmooth;
  dumpShortest(out);
  dumpAlgorithm(out);
}

void FollowModel::saveOptions(nlohmann::json& out) const {
  out["steps"] = m_steps;
  saveAlgorithmOptions(out);
}

bool FollowModel::loadOptions(const base::JsonIn& in) {
  int steps = 0;
  AlgoOptions algo;
  if (!in.object({"steps", "algorithm", "sideBySide", "graph"}) || !in.opt("steps", steps, 0, 100000) ||
      !parseAlgorithmOptions(in, &algo))
    return false;
  m_restoreSteps = steps;
  applyAlgorithmOptions(algo);
  return true;
}

void FollowModel::afterScenarioLoad() {
  m_play = false;
  for (int i = 0; i < m_restoreSteps; ++i) step();
  m_restoreSteps = 0;
}

// ---- Pathfind Straight --------------------------------------------------------------------------

void StraightModel::setCrossing(int crossing) {
  m_crossing = crossing;
  recomputeAll();
}

void StraightModel::recompute() {
  m_nstraight = 0;
  float endPos[3];
  if (!findCorridor(endPos)) return;
  const int opts = m_crossing == 1 ? nav::STRAIGHTPATH_AREA_CROSSINGS : m_crossing == 2 ? nav::STRAIGHTPATH_ALL_CROSSINGS : 0;
  m_nav->query().findStraightPath(&m_start.x, endPos, m_path.data(), m_npath, m_straight.data(), m_flags.data(),
                                  m_refs.data(), &m_nstraight, kMaxPolys, opts);
}

void StraightModel::dumpResult(nlohmann::json& out) const {
  dumpPath(out);
  out["straightFlags"] = std::vector<int>(m_flags.begin(), m_flags.begin() + m_nstraight);
  out["crossing"] = m_crossing;
  dumpShortest(out);
  dumpAlgorithm(out);
}

void StraightModel::saveOptions(nlohmann::json& out) const {
  out["crossing"] = m_crossing;
  saveAlgorithmOptions(out);
}

bool StraightModel::loadOptions(const base::JsonIn& in) {
  int crossing = m_crossing;
  AlgoOptions algo;
  if (!in.object({"crossing", "algorithm", "sideBySide", "graph"}) || !in.opt("crossing", crossing, 0, 2) ||
      !parseAlgorithmOptions(in, &algo))
    return false;
  m_crossing = crossing;
  applyAlgorithmOptions(algo);
  return true;
}

// ---- Pathfind Sliced ----------------------------------------------------------------------------

SlicedModel::SlicedModel() = default;
SlicedModel::~SlicedModel() = default;

void SlicedModel::setShowShortest(bool on) {
  m_exact = on;
  recomputeAll();
}

void SlicedModel::recompute() {
  m_npath = m_nstraight = 0;
  m_totalIters = 0;
  m_running = false;
  m_exactLen = 0;
  if (!m_nav || !m_startRef || !m_endRef) return;
  if (m_exact) {
    if (!m_exactSearch || m_exactMesh != &m_nav->mesh()) {
      m_exactSearch = std::make_unique<nav::ShortestPath>();
      m_exactMesh = nullptr;
      if (nav::statusFailed(m_status = m_exactSearch->init(&m_nav->mesh(), 8192))) return;
      m_exactMesh = &m_nav->mesh();
    }
    m_status = m_exactSearch->initSlicedFindPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &m_nav->filter());
    m_running = nav::statusInProgress(m_status);
    m_nodesUsed = m_exactSearch->nodeCount();
    return;
  }
  m_status = m_nav->query().initSlicedFindPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &m_nav->filter());
  m_running = nav::statusInProgress(m_status);
  m_nodesUsed = m_nav->query().searchView().nodeCount;
}

void SlicedModel::advance(int iters) {
  if (!m_running || !m_nav) return;
  int done = 0;
  if (m_exact) {
    if (!m_exactSearch) return;
    m_status = m_exactSearch->updateSlicedFindPath(iters, &done);
    m_totalIters += done;
    m_nodesUsed = m_exactSearch->nodeCount();
    if (nav::statusInProgress(m_status)) return;
    m_running = false;
    const nav::Status fs = m_exactSearch->finalizeSlicedFindPath(m_straight.data(), m_flags.data(), nullptr, &m_nstraight,
                                                                 kMaxPolys, m_path.data(), &m_npath, kMaxPolys, &m_exactLen);
    m_status = fs | (m_status & nav::STATUS_DETAIL_MASK);
    return;
  }
  m_status = m_nav->query().updateSlicedFindPath(iters, &done);
  m_totalIters += done;
  m_nodesUsed = m_nav->query().searchView().nodeCount;
  if (nav::statusInProgress(m_status)) return;
  m_running = false;
  const nav::Status fs = m_nav->query().finalizeSlicedFindPath(m_path.data(), &m_npath, kMaxPolys);
  m_status = fs | (m_status & nav::STATUS_DETAIL_MASK);
  if (m_npath == 0) return;
  float endPos[3];
  corridorEnd(endPos);
  m_nav->query().findStraightPath(&m_start.x, endPos, m_path.data(), m_npath, m_straight.data(), m_flags.data(), nullptr,
                                  &m_nstraight, kMaxPolys);
}

void SlicedModel::update() {
  if (!m_paused) advance(m_itersPerFrame);
}

void SlicedModel::dumpResult(nlohmann::json& out) const {
  out["running"] = m_running;
  out["exact"] = m_exact;
  if (m_exact) out["exactLen"] = m_exactLen;
  out["iterations"] = m_totalIters;
  dumpPath(out);
}

void SlicedModel::saveOptions(nlohmann::json& out) const {
  out["exact"] = m_exact;
  out["itersPerFrame"] = m_itersPerFrame;
  out["paused"] = m_paused;
  out["iterations"] = m_totalIters;
}

bool SlicedModel::loadOptions(const base::JsonIn& in) {
  bool exact = m_exact, paused = m_paused;
  int perFrame = m_itersPerFrame, iters = 0;
  if (!in.object({"exact", "itersPerFrame", "paused", "iterations"}) || !in.opt("exact", exact) ||
      !in.opt("itersPerFrame", perFrame, 1, 64) || !in.opt("paused", paused) || !in.opt("iterations", iters, 0, 10000000))
    return false;
  m_exact = exact;
  m_paused = paused;
  m_itersPerFrame = perFrame;
  m_restoreIters = iters;
  return true;
}

void SlicedModel::afterScenarioLoad() {
  // The search as it was: the same number of iterations from the start (paused stays there).
  if (m_restoreIters > 0) advance(m_restoreIters);
  m_restoreIters = 0;
}

} // namespace navbench
