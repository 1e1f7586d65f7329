// PathCorridor.h: the corridor an agent follows (DetourCrowd 1.5.1's dtPathCorridor, same methods
// and semantics, bit for bit with a default QueryFilter).
//
// The corridor is a list of polygons [Size: pathCount <= maxPath] from the agent's polygon to the
// target's polygon, plus the agent's position (inside the first polygon) and the target (inside the
// last). Moving either end slides along the mesh surface and merges the visited polygons into the
// corridor, so small moves need no new path search. Nothing allocates after init().
#pragma once

#include "nav/NavMeshQuery.h"
#include "nav/PortalCache.h"
#include "nav/QueryFilter.h"

#include <memory>

namespace nav {
namespace crowd {

class PathCorridor {
public:
  PathCorridor() = default;
  PathCorridor(const PathCorridor&) = delete;
  /// Copies position, target and path into this corridor's own buffer (no allocation; the path
  /// is cut to this corridor's maxPath, so give both the same init). For crowd snapshots.
  PathCorridor& operator=(const PathCorridor& o);

  /// Allocates the polygon buffer [Limit: maxPath >= 1]. False on bad input or out of memory.
  bool init(int maxPath);

  /// A corridor of the single polygon ref, with position and target at pos.
  void reset(PolyRef ref, const float* pos);

  /// Up to maxCorners straight-path corners from the position toward the target [(x, y, z) * n],
  /// with STRAIGHTPATH_* flags and the polygon each leads into. Corners closer than 0.01 wu (2D)
  /// to the position are dropped; the list is cut after the first off-mesh connection corner.
  /// Returns the corner count. cornerFlags/cornerPolys must hold maxCorners entries.
  int findCorners(float* cornerVerts, uint8_t* cornerFlags, PolyRef* cornerPolys, int maxCorners,
                  NavMeshQuery* navquery, const QueryFilter* filter);
  /// The same corners, with the corridor's portals looked up through portals (the crowd's cache).
  int findCorners(float* cornerVerts, uint8_t* cornerFlags, PolyRef* cornerPolys, int maxCorners,
                  NavMeshQuery* navquery, const QueryFilter* filter, PortalCache* portals);

  /// Shortcuts the corridor start with a raycast toward next (the next corner), over at most
  /// pathOptimizationRange wu, when the ray reaches close enough (t > 0.99). [Unit: wu]
  void optimizePathVisibility(const float* next, float pathOptimizationRange, NavMeshQuery* navquery,
                              const QueryFilter* filter);

  /// Local replanning of the corridor start with a short (32 iterations) sliced search to the
  /// furthest reachable corridor polygon. True if the corridor changed.
  bool optimizePathTopology(NavMeshQuery* navquery, const QueryFilter* filter);

  /// Moves the corridor over the off-mesh connection offMeshConRef, which must be on the corridor
  /// (the agent is at its start). refs[2] = (polygon before, the connection), startPos/endPos = the
  /// connection's end points in travel order; the position becomes endPos. False if not found.
  bool moveOverOffmeshConnection(PolyRef offMeshConRef, PolyRef* refs, float* startPos, float* endPos,
                                 NavMeshQuery* navquery);

  /// The agent is at safePos on safeRef, off the corridor: the position becomes safePos and the
  /// corridor (safeRef, 0, rest from the third polygon on); a corridor of 1 or 2 polygons becomes
  /// (safeRef, 0, last). The 0 is a gap the next movePosition/findCorners treats as Detour does.
  /// Always true.
  bool fixPathStart(PolyRef safeRef, const float* safePos);

  /// Cuts the corridor before its first invalid polygon (unknown ref or refused by the filter);
  /// an invalid first polygon becomes safeRef at safePos. The target is clamped to the new last
  /// polygon's boundary. Always true.
  bool trimInvalidPath(PolyRef safeRef, const float* safePos, NavMeshQuery* navquery, const QueryFilter* filter);

  /// True if the first maxLookAhead polygons are all still valid for the filter.
  bool isValid(int maxLookAhead, NavMeshQuery* navquery, const QueryFilter* filter);

  /// Moves the position toward npos along the surface (moveAlongSurface) and merges the visited
  /// polygons into the corridor start; the height comes from the new first polygon.
  /// False when moveAlongSurface fails (nothing changes).
  bool movePosition(const float* npos, NavMeshQuery* navquery, const QueryFilter* filter);

  /// The same for the target at the corridor end (no height adjustment).
  bool moveTargetPosition(const float* npos, NavMeshQuery* navquery, const QueryFilter* filter);

  /// Replaces the corridor with polys [Size: npath, cut to maxPath] and the target.
  void setCorridor(const float* target, const PolyRef* polys, int npath);

  const float* getPos() const { return m_pos; }
  const float* getTarget() const { return m_target; }
  PolyRef getFirstPoly() const { return m_npath ? m_path[0] : 0; }
  PolyRef getLastPoly() const { return m_npath ? m_path[m_npath - 1] : 0; }
  const PolyRef* getPath() const { return m_path.get(); }
  int getPathCount() const { return m_npath; }

private:
  float m_pos[3] = {0, 0, 0};
  float m_target[3] = {0, 0, 0};
  std::unique_ptr<PolyRef[]> m_path;
  int m_npath = 0;
  int m_maxPath = 0;
};

/// Merges `visited` (polygons crossed moving the corridor start, first = old start) into the start
/// of path [Size: npath <= maxPath]: the corridor from the furthest common polygon on. Returns the
/// new path count (npath unchanged when they share no polygon).
int mergeCorridorStartMoved(PolyRef* path, int npath, int maxPath, const PolyRef* visited, int nvisited);
/// The same for the corridor end (visited first = old end).
int mergeCorridorEndMoved(PolyRef* path, int npath, int maxPath, const PolyRef* visited, int nvisited);
/// Replaces the corridor start up to the furthest polygon shared with `visited` (a shortcut found by
/// a raycast or a local search, first = current start) by `visited`.
int mergeCorridorStartShortcut(PolyRef* path, int npath, int maxPath, const PolyRef* visited, int nvisited);

} // namespace crowd
} // namespace nav
