#include "app/model/HierSearch.h"

#include "app/NavState.h"

#include <chrono>

namespace navbench {

namespace {
double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

HierSearch::HierSearch() = default;
HierSearch::~HierSearch() = default;

void HierSearch::setNav(NavState* nav) {
  if (nav != m_nav) reset();
  m_nav = nav;
}

void HierSearch::reset() {
  m_planner.reset();
  m_boundMesh = nullptr;
}

nav::HierPlanner* HierSearch::planner() {
  if (!m_nav || !m_nav->loaded() || m_nav->mesh().tileCount() == 0) {
    reset();
    return nullptr;
  }
  if (m_planner && m_boundMesh == &m_nav->mesh()) return m_planner.get();
  auto p = std::make_unique<nav::HierPlanner>();
  const auto t0 = std::chrono::steady_clock::now();
  if (nav::statusFailed(p->init(&m_nav->mesh()))) return nullptr;
  m_buildMs = msSince(t0);
  m_planner = std::move(p);
  m_boundMesh = &m_nav->mesh();
  return m_planner.get();
}

void HierSearch::meshEdited() {
  if (!m_planner) return; // built at the next use
  const auto t0 = std::chrono::steady_clock::now();
  m_updated = m_planner->update();
  m_updateMs = msSince(t0);
}

} // namespace navbench
