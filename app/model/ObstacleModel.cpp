#include "app/model/ObstacleModel.h"

#include "app/NavState.h"
#include "nav/base/Json.h"

#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace navbench {

namespace {

constexpr float kPi = 3.14159265358979f;

nlohmann::json vec3(const glm::vec3& v) { return nlohmann::json::array({v.x, v.y, v.z}); }

} // namespace

TileCacheState* ObstacleModel::cache() const { return m_nav ? m_nav->tileCache() : nullptr; }

void ObstacleModel::reset() {
  m_drag = -1;
  m_dragPending = false;
}

void ObstacleModel::levelChanged() {
  reset();
  m_sel = -1;
  m_undo.clear();
  m_redo.clear();
  clearProbe();
}

ObstacleModel::Outcome ObstacleModel::record(std::vector<Obstacle> before, std::string text) {
  m_undo.push_back({std::move(before), cache()->obstacles()});
  if (m_undo.size() > 256) m_undo.erase(m_undo.begin());
  m_redo.clear();
  return {std::move(text), false, true};
}

ObstacleModel::Outcome ObstacleModel::click(const glm::vec3& hit, bool shift) {
  TileCacheState* tc = cache();
  if (!tc) return failed("no tile cache open: obstacles need a .tcache navmesh (see the panel)");
  const int at = tc->obstacleAt(&hit.x);
  std::string why;
  if (shift && at >= 0) {
    std::vector<Obstacle> before = tc->obstacles();
    if (!tc->remove(at, &why)) return failed(why);
    m_sel = -1;
    return record(std::move(before), "removed obstacle " + std::to_string(at));
  }
  if (shift) {
    if (!m_hasStart || m_hasEnd) {
      m_start = hit;
      m_hasStart = true;
      m_hasEnd = false;
    } else {
      m_end = hit;
      m_hasEnd = true;
    }
    recomputeProbe();
    return {};
  }
  if (at >= 0) {
    m_sel = at;
    return {};
  }
  Obstacle o = m_shape;
  o.pos[0] = hit.x;
  o.pos[1] = hit.y;
  o.pos[2] = hit.z;
  std::vector<Obstacle> before = tc->obstacles();
  if (!tc->add(o, &why)) return failed(why);
  m_sel = int(tc->obstacles().size()) - 1;
  return record(std::move(before), std::string("dropped a ") + obstacleKindName(o.kind));
}

bool ObstacleModel::dragBegin(const glm::vec3& hit, bool shift) {
  TileCacheState* tc = cache();
  if (!tc || shift) return false;
  const int at = tc->obstacleAt(&hit.x);
  if (at < 0) return false;
  m_drag = m_sel = at;
  m_dragBefore = tc->obstacles();
  const float* p = tc->obstacles()[size_t(at)].pos;
  m_dragTarget = glm::vec3(p[0], p[1], p[2]);
  m_dragPending = false;
  m_dragTrail.clear();
  return true;
}

void ObstacleModel::dragTo(const glm::vec3& hit) {
  if (m_drag < 0) return;
  m_dragTarget = hit;
  m_dragPending = true;
}

ObstacleModel::Outcome ObstacleModel::dragEnd(const glm::vec3& hit, bool onLevel) {
  TileCacheState* tc = cache();
  if (m_drag < 0 || !tc) return {};
  if (onLevel) m_dragTarget = hit;
  const float* cur = tc->obstacles()[size_t(m_drag)].pos;
  Outcome out;
  std::string why;
  if (glm::vec3(cur[0], cur[1], cur[2]) != m_dragTarget) {
    if (tc->move(m_drag, &m_dragTarget.x, &why)) m_dragTrail.push_back(m_dragTarget);
    else out = failed(why);
  }
  const bool moved = tc->obstacles().size() != m_dragBefore.size() ||
                     !std::equal(m_dragBefore[size_t(m_drag)].pos, m_dragBefore[size_t(m_drag)].pos + 3, tc->obstacles()[size_t(m_drag)].pos);
  if (moved) out = record(std::move(m_dragBefore), "moved obstacle " + std::to_string(m_drag));
  m_dragBefore.clear();
  m_drag = -1;
  m_dragPending = false;
  return out;
}

ObstacleModel::Outcome ObstacleModel::update() {
  TileCacheState* tc = cache();
  if (!tc || m_drag < 0 || !m_dragPending || m_drag >= int(tc->obstacles().size())) return {};
  // Rebuilt as it moves: a new position is queued once the cache took the last one.
  if (tc->cache().getRequestCount() > 0) return {};
  m_dragPending = false;
  std::string why;
  if (!tc->move(m_drag, &m_dragTarget.x, &why)) return failed(why);
  m_dragTrail.push_back(m_dragTarget);
  return {};
}

ObstacleModel::Outcome ObstacleModel::removeSelected() {
  TileCacheState* tc = cache();
  if (!tc || m_sel < 0 || m_sel >= int(tc->obstacles().size())) return {};
  std::vector<Obstacle> before = tc->obstacles();
  std::string why;
  const bool ok = tc->remove(m_sel, &why);
  m_sel = -1;
  return ok ? record(std::move(before), "") : failed(why);
}

ObstacleModel::Outcome ObstacleModel::removeAll() {
  TileCacheState* tc = cache();
  if (!tc || tc->obstacles().empty()) return {};
  std::vector<Obstacle> before = tc->obstacles();
  std::string why;
  const bool ok = tc->setAll({}, &why);
  m_sel = -1;
  return ok ? record(std::move(before), "") : failed(why);
}

ObstacleModel::Outcome ObstacleModel::undo() { return replay(m_undo, m_redo, false); }

ObstacleModel::Outcome ObstacleModel::redo() { return replay(m_redo, m_undo, true); }

ObstacleModel::Outcome ObstacleModel::replay(std::vector<Step>& from, std::vector<Step>& to, bool forward) {
  TileCacheState* tc = cache();
  if (from.empty() || !tc) return {};
  Step s = std::move(from.back());
  from.pop_back();
  std::string why;
  const bool ok = tc->setAll(forward ? s.after : s.before, &why);
  m_sel = -1;
  to.push_back(std::move(s));
  return ok ? Outcome{} : failed(why);
}

bool ObstacleModel::partial() const { return nav::statusDetail(m_status, nav::PARTIAL_RESULT); }

float ObstacleModel::probeLength() const {
  float len = 0;
  for (int i = 1; i < m_nstraight; ++i) {
    const float* a = &m_straight[size_t(i - 1) * 3];
    const float* b = &m_straight[size_t(i) * 3];
    len += glm::distance(glm::vec3(a[0], a[1], a[2]), glm::vec3(b[0], b[1], b[2]));
  }
  return len;
}

void ObstacleModel::clearProbe() {
  m_hasStart = m_hasEnd = false;
  m_npath = m_nstraight = 0;
}

void ObstacleModel::recomputeProbe() {
  m_npath = m_nstraight = 0;
  m_status = 0;
  if (!m_nav || !m_nav->loaded() || !m_hasStart || !m_hasEnd) return;
  glm::vec3 s, e;
  const nav::PolyRef sref = m_nav->nearestPoly(m_start, &s), eref = m_nav->nearestPoly(m_end, &e);
  if (!sref || !eref) {
    m_status = nav::FAILURE;
    return;
  }
  m_path.resize(kMaxPolys);
  m_status = m_nav->query().findPath(sref, eref, &s.x, &e.x, &m_nav->filter(), m_path.data(), &m_npath, kMaxPolys);
  if (nav::statusFailed(m_status) || m_npath == 0) return;
  float endPos[3] = {e.x, e.y, e.z};
  if (m_path[size_t(m_npath - 1)] != eref) // partial: end at the closest point of the last poly
    m_nav->query().closestPointOnPoly(m_path[size_t(m_npath - 1)], &e.x, endPos, nullptr);
  m_straight.resize(size_t(kMaxStraight) * 3);
  m_nav->query().findStraightPath(&s.x, endPos, m_path.data(), m_npath, m_straight.data(), nullptr, nullptr, &m_nstraight,
                                  kMaxStraight);
}

void ObstacleModel::outline(const Obstacle& o, float y, std::vector<glm::vec3>* pts) {
  pts->clear();
  if (o.kind == Obstacle::Cylinder) {
    for (int i = 0; i < 24; ++i) {
      const float a = float(i) / 24.0f * 2.0f * kPi;
      pts->emplace_back(o.pos[0] + std::cos(a) * o.radius, y, o.pos[2] + std::sin(a) * o.radius);
    }
    return;
  }
  const float a = o.kind == Obstacle::OrientedBox ? o.yawDeg * kPi / 180.0f : 0.0f;
  const float c = std::cos(a), s = std::sin(a);
  const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (const auto& k : corners) {
    const float lx = k[0] * o.half[0], lz = k[1] * o.half[2];
    pts->emplace_back(o.pos[0] + c * lx + s * lz, y, o.pos[2] - s * lx + c * lz);
  }
}

float ObstacleModel::top(const Obstacle& o) {
  return o.pos[1] - TileCacheState::kSink + (o.kind == Obstacle::Cylinder ? o.height : 2 * o.half[1]);
}

void ObstacleModel::dumpState(nlohmann::json& out) const {
  out["shape"] = {{"kind", obstacleKindName(m_shape.kind)}, {"radius", m_shape.radius}, {"height", m_shape.height},
                  {"half", {m_shape.half[0], m_shape.half[1], m_shape.half[2]}}, {"yaw", m_shape.yawDeg}};
  out["selected"] = m_sel;
  nlohmann::json trail = nlohmann::json::array();
  for (const glm::vec3& p : m_dragTrail) trail.push_back(vec3(p));
  out["dragTrail"] = trail;
  const TileCacheState* tc = cache();
  out["tileCacheOpen"] = tc != nullptr;
  if (tc) tc->dumpState(out["tileCache"]);
  nlohmann::json probe;
  if (m_hasStart) probe["start"] = vec3(m_start);
  if (m_hasEnd) probe["end"] = vec3(m_end);
  probe["polys"] = std::vector<nav::PolyRef>(m_path.begin(), m_path.begin() + m_npath);
  probe["straight"] = std::vector<float>(m_straight.begin(), m_straight.begin() + m_nstraight * 3);
  probe["partial"] = partial();
  out["probe"] = probe;
  out["undo"] = m_undo.size();
  out["redo"] = m_redo.size();
}

void ObstacleModel::saveScenario(nlohmann::json& out) const {
  out = nlohmann::json::object();
  out["kind"] = obstacleKindName(m_shape.kind);
  out["radius"] = m_shape.radius;
  out["height"] = m_shape.height;
  out["half"] = {m_shape.half[0], m_shape.half[1], m_shape.half[2]};
  out["yaw"] = m_shape.yawDeg;
  if (m_hasStart) out["probeStart"] = vec3(m_start);
  if (m_hasEnd) out["probeEnd"] = vec3(m_end);
}

bool ObstacleModel::loadScenario(const nlohmann::json& in, std::string& error) {
  if (in.is_null()) return true;
  base::JsonErrors errors;
  const base::JsonIn j(in, errors);
  Obstacle shape = m_shape;
  glm::vec3 s(0.0f), e(0.0f);
  std::string kind = obstacleKindName(shape.kind);
  const bool read = j.object({"kind", "radius", "height", "half", "yaw", "probeStart", "probeEnd"}) && j.opt("kind", kind, 16) &&
                    j.opt("radius", shape.radius) && j.opt("height", shape.height) && j.opt("yaw", shape.yawDeg) &&
                    j.optVec3("half", shape.half) && j.optVec3("probeStart", &s.x) && j.optVec3("probeEnd", &e.x);
  if (!read) {
    error = errors.message;
    return false;
  }
  if (kind == "cylinder") shape.kind = Obstacle::Cylinder;
  else if (kind == "box") shape.kind = Obstacle::Box;
  else if (kind == "obox") shape.kind = Obstacle::OrientedBox;
  else {
    error = "kind: not cylinder, box or obox";
    return false;
  }
  if (!TileCacheState::check(shape, &error)) return false; // sizes checked as an obstacle's
  m_shape = shape;
  m_hasStart = j.has("probeStart");
  m_hasEnd = m_hasStart && j.has("probeEnd");
  m_start = s;
  m_end = e;
  recomputeProbe();
  return true;
}

} // namespace navbench
