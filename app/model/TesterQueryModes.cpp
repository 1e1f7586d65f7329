// The query modes of TesterModes.h: Raycast, Distance to Wall, Find Polys in Circle / Shape, Find
// Local Neighbourhood, Random Points.
#include "app/model/TesterModes.h"

#include "app/NavState.h"
#include "nav/base/Json.h"

#include <algorithm>
#include <random>

namespace navbench {

// ---- Raycast ------------------------------------------------------------------------------------

void RaycastModel::recompute() {
  m_npath = 0;
  m_t = 0;
  m_normal[0] = m_normal[1] = m_normal[2] = 0;
  if (!m_nav || !m_startRef || !m_hasEnd) return;
  m_status = m_nav->query().raycast(m_startRef, &m_start.x, &m_end.x, &m_nav->filter(), &m_t, m_normal, m_path.data(),
                                    &m_npath, kMaxPolys);
  m_hitPos = hit() ? m_start + (m_end - m_start) * m_t : m_end; // no hit: the ray reaches the end
  // Put the hit on the last visited poly's surface.
  if (m_npath > 0) {
    float h = 0;
    if (nav::statusSucceeded(m_nav->query().getPolyHeight(m_path[size_t(m_npath - 1)], &m_hitPos.x, &h))) m_hitPos.y = h;
  }
}

void RaycastModel::dumpResult(nlohmann::json& out) const {
  out["t"] = hit() ? m_t : -1.0f; // JSON has no infinity: -1 = no hit
  out["hitNormal"] = {m_normal[0], m_normal[1], m_normal[2]};
  out["visited"] = std::vector<nav::PolyRef>(m_path.begin(), m_path.begin() + m_npath);
}

// ---- the radius option --------------------------------------------------------------------------

void RadiusTesterModel::setRadius(float r) {
  m_radius = r;
  recomputeAll();
}

void RadiusTesterModel::saveOptions(nlohmann::json& out) const { out["radius"] = base::exactFloat(m_radius); }

bool RadiusTesterModel::loadOptions(const base::JsonIn& in) {
  float r = m_radius;
  if (!in.object({"radius"}) || !in.opt("radius", r, 1e-3, 1e6)) return false;
  m_radius = r;
  return true;
}

// ---- Distance to Wall ---------------------------------------------------------------------------

void WallDistanceModel::recompute() {
  m_dist = 0;
  if (!m_nav || !m_startRef) return;
  m_status = m_nav->query().findDistanceToWall(m_startRef, &m_start.x, m_radius, &m_nav->filter(), &m_dist, m_hitPos,
                                               m_hitNormal);
  m_nodesUsed = m_nav->query().searchView().nodeCount;
}

void WallDistanceModel::dumpResult(nlohmann::json& out) const {
  out["distance"] = m_dist;
  out["hitPos"] = {m_hitPos[0], m_hitPos[1], m_hitPos[2]};
  out["hitNormal"] = {m_hitNormal[0], m_hitNormal[1], m_hitNormal[2]};
}

// ---- Find Polys in Circle / Shape, Local Neighbourhood ------------------------------------------

void PolysCircleModel::recompute() {
  m_found.count = 0;
  if (!m_nav || !m_startRef || !m_hasEnd) return;
  m_status = m_nav->query().findPolysAroundCircle(m_startRef, &m_start.x, radius(), &m_nav->filter(), m_found.refs.data(),
                                                  m_found.parents.data(), nullptr, &m_found.count, m_found.max());
  m_nodesUsed = m_nav->query().searchView().nodeCount;
}

void PolysShapeModel::recompute() {
  m_found.count = 0;
  if (!m_nav || !m_startRef || !m_hasEnd) return;
  // A quad along start -> end, half as wide as long, a little wider at the start.
  const float nx = (m_end.z - m_start.z) * 0.25f, nz = -(m_end.x - m_start.x) * 0.25f;
  const float y = m_start.y + kAgentHeight * 0.5f;
  const float q[12] = {m_start.x + nx * 1.2f, y, m_start.z + nz * 1.2f, m_start.x - nx * 1.3f, y, m_start.z - nz * 1.3f,
                       m_end.x - nx * 0.8f,   y, m_end.z - nz * 0.8f,   m_end.x + nx,          y, m_end.z + nz};
  std::copy(q, q + 12, m_shape);
  m_status = m_nav->query().findPolysAroundShape(m_startRef, m_shape, 4, &m_nav->filter(), m_found.refs.data(),
                                                 m_found.parents.data(), nullptr, &m_found.count, m_found.max());
  m_nodesUsed = m_nav->query().searchView().nodeCount;
}

void PolysShapeModel::dumpResult(nlohmann::json& out) const {
  out["shape"] = std::vector<float>(m_shape, m_shape + 12);
  FoundPolysModel::dumpResult(out);
}

void LocalNeighbourhoodModel::recompute() {
  m_found.count = 0;
  if (!m_nav || !m_startRef) return;
  m_status = m_nav->query().findLocalNeighbourhood(m_startRef, &m_start.x, m_radius, &m_nav->filter(), m_found.refs.data(),
                                                   m_found.parents.data(), &m_found.count, m_found.max());
}

void LocalNeighbourhoodModel::dumpResult(nlohmann::json& out) const {
  out["radius"] = m_radius;
  FoundPolysModel::dumpResult(out);
}

// ---- Random Points ------------------------------------------------------------------------------

namespace {
std::mt19937 g_rng(12345); // nav's random queries take a plain function; reseeded for each set
float frand() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(g_rng) * 0.99999994f; }
} // namespace

void RandomPointsModel::recompute() {
  // The points follow the start when they are around it; "anywhere" points are made on demand.
  if (m_inCircle) generate(true);
}

void RandomPointsModel::setRadius(float r) {
  m_radius = r;
  if (m_inCircle) generate(true);
}

void RandomPointsModel::generate(bool inCircle) {
  m_inCircle = inCircle;
  m_points.clear();
  if (!m_nav || !m_nav->loaded() || (inCircle && !m_startRef)) return;
  g_rng.seed(12345);
  for (int i = 0; i < m_count; ++i) {
    nav::PolyRef ref = 0;
    float p[3];
    const nav::Status s = inCircle ? m_nav->query().findRandomPointAroundCircle(m_startRef, &m_start.x, m_radius,
                                                                                &m_nav->filter(), frand, &ref, p)
                                   : m_nav->query().findRandomPoint(&m_nav->filter(), frand, &ref, p);
    m_status = s;
    if (nav::statusSucceeded(s)) m_points.insert(m_points.end(), p, p + 3);
  }
}

void RandomPointsModel::dumpResult(nlohmann::json& out) const {
  out["inCircle"] = m_inCircle;
  out["radius"] = m_radius;
  out["points"] = m_points;
}

void RandomPointsModel::saveOptions(nlohmann::json& out) const {
  out["count"] = m_count;
  out["radius"] = base::exactFloat(m_radius);
  out["inCircle"] = m_inCircle;
}

bool RandomPointsModel::loadOptions(const base::JsonIn& in) {
  int count = m_count;
  float r = m_radius;
  bool inCircle = m_inCircle;
  if (!in.object({"count", "radius", "inCircle"}) || !in.opt("count", count, 1, 2000) || !in.opt("radius", r, 1e-3, 1e6) ||
      !in.opt("inCircle", inCircle))
    return false;
  m_count = count;
  m_radius = r;
  m_inCircle = inCircle;
  return true;
}

void RandomPointsModel::afterScenarioLoad() {
  if (!m_inCircle) generate(false);
}

} // namespace navbench
