// NavState.h: the navmesh the viewer has open (a baked tile set), its query object and the query
// filter the Filter panel edits. No GL, SDL or ImGui: unit tests use it directly.
//
// Loading is all-or-nothing: a failed load keeps the previous mesh and reports
// "<file>: <problem>".
#pragma once

#include "app/Level.h"
#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"

#include <memory>
#include <string>

namespace navbench {

class TileCacheState;

class NavState {
public:
  NavState();
  ~NavState();
  /// Loads a MSET tile set (.bin). On failure returns false, sets `error`, keeps the old mesh.
  bool loadBin(const std::string& path, std::string& error);
  void clear();
  /// Takes a freshly baked mesh (swapped in); `name` is shown as its path.
  void adopt(nav::NavMesh&& mesh, const std::string& name);
  /// Opens a tile cache (.tcache, app/TileCacheState.h): its navmesh becomes the open mesh, and
  /// tileCache() rebuilds its tiles in place as obstacles come and go. All or nothing, as loadBin.
  bool loadTileCache(const std::string& path, std::string& error);
  /// The open tile cache, or null when the open navmesh is a plain tile set (or none).
  TileCacheState* tileCache() { return m_tileCache.get(); }
  const TileCacheState* tileCache() const { return m_tileCache.get(); }

  bool loaded() const { return m_loaded; }
  const std::string& path() const { return m_path; }
  nav::NavMesh& mesh() { return m_mesh; }
  const nav::NavMesh& mesh() const { return m_mesh; }
  nav::NavMeshQuery& query() { return m_query; }
  nav::QueryFilter& filter() { return m_filter; }
  const nav::QueryFilter& filter() const { return m_filter; }
  int polyCount() const;
  int tileCount() const { return m_mesh.tileCount(); }
  /// Counts the in-place changes of the open mesh (tiles re-baked or removed, poly flags set), so
  /// what depends on its contents (the Test cases panel's results) sees a change of the same file.
  int edits() const { return m_edits; }
  void markEdited() { ++m_edits; }
  /// Text that changes when the open navmesh does (its file, poly and tile counts, in-place edits),
  /// naming what a panel's results were computed on; "" = none open.
  std::string contentKey() const;
  /// Node budget of the query (re-initialises the query when changed).
  int maxNodes() const { return m_maxNodes; }
  void setMaxNodes(int n);

  /// Half extents used to snap picked points onto the mesh [Unit: wu].
  float extents[3] = {2.0f, 4.0f, 2.0f};
  /// Nearest poly to `p` within `extents`; 0 when none. `snapped` receives the point on it.
  nav::PolyRef nearestPoly(const glm::vec3& p, glm::vec3* snapped = nullptr);

  /// The detail triangles of every ground poly as a triangle mesh (for picking and display when
  /// a tile set is opened without its OBJ).
  TriMesh detailMesh() const;

private:
  nav::NavMesh m_mesh;
  nav::NavMeshQuery m_query;
  nav::QueryFilter m_filter;
  std::string m_path;
  int m_edits = 0;
  bool m_loaded = false;
  int m_maxNodes = 4096;
  std::unique_ptr<TileCacheState> m_tileCache;
};

/// The .bin tile set next to a level (same folder and stem), or "" when there is none.
std::string siblingBin(const std::string& levelPath);
/// The .tcache tile cache next to a level (same folder and stem), or "" when there is none.
std::string siblingTileCache(const std::string& levelPath);

} // namespace navbench
