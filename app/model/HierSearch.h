// HierSearch.h: the hierarchical planner (nav/HierPlanner.h) of the open navmesh, shared by the
// path modes and the A* Stepper. The document builds it when a navmesh opens (rebuild());
// elsewhere (tests) the first use builds it. Brought up to date where tiles changed
// (meshEdited(), and before each query through the mesh's generation).
// The graph's edge costs use the default filter's area costs, as `navbench query --hierarchical`.
//
// No SDL, ImGui or GL here: tests/model drives it on a NavState directly.
#pragma once

#include "nav/HierPlanner.h"

#include <memory>

namespace navbench {

class NavState;

class HierSearch {
public:
  HierSearch();
  ~HierSearch();
  HierSearch(const HierSearch&) = delete;
  HierSearch& operator=(const HierSearch&) = delete;

  void setNav(NavState* nav);
  /// The planner on the open navmesh (built now if needed); null when none is open or it failed.
  nav::HierPlanner* planner();
  /// Another navmesh (or the same object reloaded): the graph is built again at the next use.
  void reset();
  /// reset(), then the graph of the open navmesh built now (the document, when a navmesh opens).
  void rebuild() {
    reset();
    planner();
  }
  /// Tiles of the open navmesh changed in place: the clusters around them are rebuilt now.
  void meshEdited();
  bool built() const { return m_planner != nullptr; }
  double buildMs() const { return m_buildMs; }   ///< The last full build [Unit: ms].
  double updateMs() const { return m_updateMs; } ///< The last meshEdited() update [Unit: ms].
  int updatedClusters() const { return m_updated; }

private:
  NavState* m_nav = nullptr;
  std::unique_ptr<nav::HierPlanner> m_planner;
  const void* m_boundMesh = nullptr;
  double m_buildMs = 0, m_updateMs = 0;
  int m_updated = 0;
};

} // namespace navbench
