// PathFollow.h: the stepped smooth path of RecastDemo's NavMeshTesterTool "follow" mode (seed 002)
// as a nav API: an agent steps along a findPath corridor on the detail surface.
//
// Each step: a 3-corner straight path from the current position gives the steer target (the
// first corner further than SLOP, or an off-mesh connection start); the agent moves STEP_SIZE
// toward it with moveAlongSurface; the corridor is fixed up with the visited polygons and
// shortcut when one of the next 6 polygons is a neighbour of the first; the height is snapped to
// the detail surface. At an off-mesh connection the agent jumps to its far end; at the end of the
// path it snaps to the target.
//
// Difference from RecastDemo, on purpose: where getPolyHeight fails (a point exactly on an edge,
// or the jump end of an off-mesh link), RecastDemo writes y = 0 (its `float h = 0` is used even
// when the call failed); here the moved point keeps its own height. And at an off-mesh link
// RecastDemo adds the link start twice when that makes the count even (so its dashed drawing hides
// the jump) without checking for room: with an odd point cap it writes one point past it; here the
// cap is never passed (with RecastDemo's even cap of 2048 both give the same points).
#pragma once

#include "nav/NavMeshQuery.h"
#include "nav/PortalCache.h"

namespace nav {

class PathFollower {
public:
  PathFollower() { m_portals.initWith(m_portalEntries, PORTAL_CACHE); }
  static constexpr int MAX_CORRIDOR = 2048;  ///< Corridor capacity (polygons).
  static constexpr int MAX_STEP_POINTS = 3;  ///< Points one step can add.
  float stepSize = 0.5f;   ///< [Unit: wu]
  float slop = 0.01f;      ///< Distance at which a target counts as reached. [Unit: wu]

  /// Starts following `path` (a findPath corridor from startRef) from startPos to endPos.
  /// maxPoints caps the number of points of the whole path (RecastDemo: 2048). The first point
  /// (the start snapped onto startRef) is available from stepPoints() right after init.
  Status init(const NavMeshQuery* query, const QueryFilter* filter, PolyRef startRef, const float* startPos,
              const float* endPos, const PolyRef* path, int pathSize, int maxPoints = 2048);

  /// Advances one step. Returns false (and adds nothing) once the walk is over.
  bool step();
  bool done() const { return m_done; }

  /// Points added by the last step (or by init) [(x, y, z) * stepPointCount()].
  const float* stepPoints() const { return m_stepPts; }
  int stepPointCount() const { return m_nStepPts; }
  /// Points emitted so far in total.
  int pointCount() const { return m_count; }

  const float* position() const { return m_iterPos; }     ///< Current position.
  const float* targetPos() const { return m_targetPos; }  ///< End of the walk (on the last polygon).
  const float* steerTarget() const { return m_steerPos; } ///< Steer target of the last step.
  uint8_t steerFlags() const { return m_steerFlags; }     ///< STRAIGHTPATH_* flags of the steer target.
  PolyRef steerRef() const { return m_steerRef; }
  /// The 3-corner straight path the last steer target was picked from [(x, y, z) * steerPathCount()].
  const float* steerPath() const { return m_steerPath; }
  int steerPathCount() const { return m_nSteerPath; }
  const PolyRef* corridor() const { return m_polys; }
  int corridorSize() const { return m_npolys; }

private:
  struct CachedBoundary;   // the funnel's closestPointOnPolyBoundary (PathFollow.cpp)
  bool getSteerTarget();
  void emit(const float* p);
  void forgetMesh(); ///< Drops everything cached from the mesh.

  // What one step learned about the (unchanging) mesh, reused by the next ones. Each step asks for
  // the 3-corner straight path again on a corridor that changes only at its front, so most of its
  // portals, and the end point's place on the last poly, are the last step's.
  static constexpr uint32_t PORTAL_CACHE = 256; ///< Portals remembered (a power of two).
  PortalCache::Entry m_portalEntries[PORTAL_CACHE]; // the follower's own: making one allocates nothing
  PortalCache m_portals;
  uint64_t m_meshGeneration = 0; ///< NavMesh::generation() the caches belong to.
  bool m_startInside = false;    ///< m_iterPos (x, z) is inside m_polys[0] (pointInPolygonIdx).
  PolyRef m_endRef = 0;          ///< The poly m_endClosest was found on (0 = none).
  float m_endClosest[3] = {0, 0, 0}; ///< closestPointOnPolyBoundary(m_endRef, m_targetPos)

  const NavMeshQuery* m_query = nullptr;
  const QueryFilter* m_filter = nullptr;
  PolyRef m_polys[MAX_CORRIDOR];
  int m_npolys = 0;
  float m_iterPos[3] = {0, 0, 0};
  float m_targetPos[3] = {0, 0, 0};
  float m_steerPos[3] = {0, 0, 0};
  uint8_t m_steerFlags = 0;
  PolyRef m_steerRef = 0;
  float m_steerPath[MAX_STEP_POINTS * 3] = {};
  uint8_t m_steerPathFlags[MAX_STEP_POINTS] = {};
  PolyRef m_steerPathRefs[MAX_STEP_POINTS] = {};
  int m_nSteerPath = 0;
  float m_stepPts[MAX_STEP_POINTS * 3] = {};
  int m_nStepPts = 0;
  int m_count = 0;
  int m_maxPoints = 0;
  bool m_done = true;
};

/// The whole smooth path at once: up to maxPoints points into smoothPath [(x, y, z) * count].
/// FAILURE | INVALID_PARAM on bad input; SUCCESS | BUFFER_TOO_SMALL if it stopped at maxPoints.
/// Uses one PathFollower per thread (thread_local, constructed on the thread's first call, no heap).
Status findSmoothPath(const NavMeshQuery* query, const QueryFilter* filter, PolyRef startRef, const float* startPos,
                      const float* endPos, const PolyRef* path, int pathSize, float* smoothPath, int* smoothCount,
                      int maxPoints);

/// RecastDemo's corridor helpers (exposed for tests and the viewer).
/// Replaces the start of path up to the furthest polygon also in visited with the visited polygons.
int fixupCorridor(PolyRef* path, int npath, int maxPath, const PolyRef* visited, int nvisited);
/// If one of the next 6 polygons neighbours path[0], cuts the polygons in between.
int fixupShortcuts(PolyRef* path, int npath, const NavMesh* nav);

} // namespace nav
