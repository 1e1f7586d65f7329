// LocalBoundary.h: the walls near an agent (DetourCrowd 1.5.1's dtLocalBoundary, same semantics).
//
// update() collects the wall segments of the polygons around the agent (findLocalNeighbourhood +
// getPolyWallSegments), keeps the MAX_LOCAL_SEGS nearest within the collision range, sorted by
// distance. Fixed storage: nothing allocates.
#pragma once

#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"

namespace nav {
namespace crowd {

class LocalBoundary {
public:
  static constexpr int MAX_LOCAL_SEGS = 8;
  static constexpr int MAX_LOCAL_POLYS = 16;

  LocalBoundary();
  LocalBoundary(const LocalBoundary&) = delete;
  /// Plain copy (fixed storage), for crowd snapshots.
  LocalBoundary& operator=(const LocalBoundary&) = default;

  /// Empty: no segments, no polygons, center at FLT_MAX.
  void reset();

  /// Recollects the walls around pos (on polygon ref) within collisionQueryRange [Unit: wu].
  /// ref == 0 resets.
  void update(PolyRef ref, const float* pos, float collisionQueryRange, NavMeshQuery* navquery,
              const QueryFilter* filter);

  /// False when any polygon the segments came from is gone or now refused by the filter
  /// (or there are none).
  bool isValid(NavMeshQuery* navquery, const QueryFilter* filter);

  const float* getCenter() const { return m_center; }
  int getSegmentCount() const { return m_nsegs; }
  /// Segment i [(ax, ay, az, bx, by, bz)], i < getSegmentCount(), nearest first.
  const float* getSegment(int i) const { return m_segs[i].s; }

private:
  struct Segment {
    float s[6]; ///< Start and end point.
    float d;    ///< Squared 2D distance from the center, for pruning.
  };

  void addSegment(float dist, const float* s);

  float m_center[3];
  Segment m_segs[MAX_LOCAL_SEGS];
  int m_nsegs = 0;
  PolyRef m_polys[MAX_LOCAL_POLYS];
  int m_npolys = 0;
  /// The mesh, its generation and the filter (with its flags) when isValid last found every polygon
  /// valid; null when not since the polygons changed, or when the filter has a pass hook.
  const NavMesh* m_validNav = nullptr;
  uint64_t m_validGeneration = 0;
  const QueryFilter* m_validFilter = nullptr;
  uint16_t m_validInclude = 0, m_validExclude = 0;
};

} // namespace crowd
} // namespace nav
