// OurCapture.h: path captures made in tests without a game: the inputs a game would pass, answered
// by NavBench's own nav (CaptureReplayer::runFresh, the capture's calls from scratch) on a navmesh,
// recorded as nav::CapturedQuery with the game-side inputs findPath / findStraightPath / raycast
// got. Replaying such a query on the same navmesh gives identical answers; a test plants a
// difference by editing a recorded answer.
#pragma once

#include "app/model/CaptureReplay.h"
#include "nav/CaptureFile.h"

#include <string>

namespace navbench::test {

/// A path query from `start` to `end` answered on `mesh` with the given filter and node budget.
inline nav::CapturedQuery ourPathQuery(const nav::NavMesh& mesh, const float* start, const float* end, int maxNodes,
                                       const std::string& note, uint16_t include = 0xffff, uint16_t exclude = 0) {
  nav::CapturedQuery q;
  q.kind = nav::CAPTURE_PATH;
  q.note = note;
  q.includeFlags = include;
  q.excludeFlags = exclude;
  q.maxNodes = maxNodes;
  for (int k = 0; k < 3; ++k) {
    q.start[k] = q.pathStart[k] = start[k];
    q.end[k] = q.pathEnd[k] = q.straightEnd[k] = end[k];
  }
  CaptureAnswer a;
  CaptureReplayer r;
  if (!r.runFresh(mesh, q, a)) return q;
  q.nearestStart = a.nearestStart;
  q.nearestEnd = a.nearestEnd;
  for (int k = 0; k < 3; ++k) {
    q.pathStart[k] = a.nearestStart.pt[k];
    q.pathEnd[k] = q.straightEnd[k] = a.nearestEnd.pt[k];
  }
  q.pathStatus = a.pathStatus;
  q.path = a.path;
  // findStraightPath's end: the end point, or (partial corridor) the closest point on its last poly,
  // which is where the straight path stops.
  if (nav::statusDetail(a.pathStatus, nav::PARTIAL_RESULT) && a.straight.size() >= 3)
    for (int k = 0; k < 3; ++k) q.straightEnd[k] = a.straight[a.straight.size() - 3 + size_t(k)];
  q.straightStatus = a.straightStatus;
  q.straight = a.straight;
  q.straightFlags = a.straightFlags;
  q.straightRefs = a.straightRefs;
  return q;
}

/// A raycast from `start` toward `end` answered on `mesh`.
inline nav::CapturedQuery ourRaycastQuery(const nav::NavMesh& mesh, const float* start, const float* end, const std::string& note) {
  nav::CapturedQuery q;
  q.kind = nav::CAPTURE_RAYCAST;
  q.note = note;
  for (int k = 0; k < 3; ++k) {
    q.start[k] = q.rayStart[k] = start[k];
    q.end[k] = q.rayEnd[k] = end[k];
  }
  CaptureAnswer a;
  CaptureReplayer r;
  if (!r.runFresh(mesh, q, a)) return q;
  q.nearestStart = a.nearestStart;
  q.nearestEnd = a.nearestEnd;
  q.rayStartRef = a.nearestStart.ref;
  q.rayStatus = a.rayStatus;
  q.t = a.t;
  for (int k = 0; k < 3; ++k) q.hitNormal[k] = a.hitNormal[k];
  q.hitEdgeIndex = a.hitEdgeIndex;
  q.pathCost = a.pathCost;
  q.path = a.path;
  return q;
}

} // namespace navbench::test
