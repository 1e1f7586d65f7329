// StraightPathFunnel.h: the string-pulling funnel of NavMeshQuery::findStraightPath, written once for
// every source of portals: findStraightPath's own lookups on the mesh, and the crowd's corridors
// (nav/crowd/PathCorridor), which read portals from a cache shared by the whole crowd. Internal to
// nav and nav_crowd: not part of the query API.
//
// The float operations are Detour 1.5.1's dtNavMeshQuery::findStraightPath's, in its order, so every
// portal source that answers what getPortalPoints answers gives the same corners bit for bit.
#pragma once

#include "nav/NavMath.h"
#include "nav/NavMeshQuery.h"

namespace nav {

/// Appends a corner to the straight path [(x, y, z) * maxStraightPath]; a point equal to the last
/// corner only replaces its flags and ref. flags/refs may be null. IN_PROGRESS while there is room
/// and the corner is not the end; SUCCESS (| BUFFER_TOO_SMALL when full) to stop.
inline Status appendStraightPathVertex(const float* pos, uint8_t flags, PolyRef ref, float* straightPath,
                                       uint8_t* straightPathFlags, PolyRef* straightPathRefs, int* straightPathCount,
                                       int maxStraightPath) {
  int& n = *straightPathCount;
  if (n > 0 && vequal(&straightPath[(n - 1) * 3], pos)) {
    // Same point: the newer flags and ref win.
    if (straightPathFlags) straightPathFlags[n - 1] = flags;
    if (straightPathRefs) straightPathRefs[n - 1] = ref;
  } else {
    vcopy(&straightPath[n * 3], pos);
    if (straightPathFlags) straightPathFlags[n] = flags;
    if (straightPathRefs) straightPathRefs[n] = ref;
    ++n;
    if (n >= maxStraightPath) return SUCCESS | BUFFER_TOO_SMALL;
    if (flags == STRAIGHTPATH_END) return SUCCESS;
  }
  return IN_PROGRESS;
}

/// findStraightPath (same arguments, checks and status) with the corridor's portals from `portals`:
///   Status portals.get(int i, float* left, float* right, uint8_t* toType)
/// gives the portal from path[i] to path[i + 1] as getPortalPoints does, and path[i + 1]'s poly type;
/// a failure means path[i + 1] is no neighbour, and the straight path ends on path[i] (PARTIAL_RESULT).
/// get(i) is asked again for the same i each time the funnel restarts from an apex.
/// When `crossings`, appendCrossings(int startIdx, int endIdx, const float* endPos) adds the
/// STRAIGHTPATH_*_CROSSINGS corners of path[startIdx..endIdx] up to endPos before each corner, and
/// returns IN_PROGRESS to go on (anything else is returned as the result).
/// `q` is a NavMeshQuery, or anything with its getAttachedNavMesh() and closestPointOnPolyBoundary()
/// (the path follower answers the latter from what its last step proved).
template <class Query, class Portals, class Crossings>
Status straightPathFunnel(const Query& q, const float* startPos, const float* endPos, const PolyRef* path,
                          int pathSize, float* straightPath, uint8_t* straightPathFlags, PolyRef* straightPathRefs,
                          int* straightPathCount, int maxStraightPath, Portals& portals, bool crossings,
                          Crossings&& appendCrossings) {
  if (!straightPathCount) return FAILURE | INVALID_PARAM;
  *straightPathCount = 0;
  if (!q.getAttachedNavMesh() || !startPos || !visfinite(startPos) || !endPos || !visfinite(endPos) || !path ||
      pathSize <= 0 || !path[0] || !straightPath || maxStraightPath <= 0)
    return FAILURE | INVALID_PARAM;

  float closestStartPos[3];
  if (statusFailed(q.closestPointOnPolyBoundary(path[0], startPos, closestStartPos))) return FAILURE | INVALID_PARAM;
  float closestEndPos[3];
  if (statusFailed(q.closestPointOnPolyBoundary(path[pathSize - 1], endPos, closestEndPos)))
    return FAILURE | INVALID_PARAM;

  Status stat = appendStraightPathVertex(closestStartPos, STRAIGHTPATH_START, path[0], straightPath, straightPathFlags,
                                         straightPathRefs, straightPathCount, maxStraightPath);
  if (stat != IN_PROGRESS) return stat;

  if (pathSize > 1) {
    float portalApex[3], portalLeft[3], portalRight[3];
    vcopy(portalApex, closestStartPos);
    vcopy(portalLeft, portalApex);
    vcopy(portalRight, portalApex);
    int apexIndex = 0, leftIndex = 0, rightIndex = 0;
    uint8_t leftPolyType = 0, rightPolyType = 0;
    PolyRef leftPolyRef = path[0], rightPolyRef = path[0];

    for (int i = 0; i < pathSize; ++i) {
      float left[3], right[3];
      uint8_t toType;
      if (i + 1 < pathSize) {
        if (statusFailed(portals.get(i, left, right, &toType))) {
          // path[i + 1] is not a valid neighbour: end the path on path[i].
          if (statusFailed(q.closestPointOnPolyBoundary(path[i], endPos, closestEndPos)))
            return FAILURE | INVALID_PARAM;
          if (crossings) appendCrossings(apexIndex, i, static_cast<const float*>(closestEndPos));
          appendStraightPathVertex(closestEndPos, 0, path[i], straightPath, straightPathFlags, straightPathRefs,
                                   straightPathCount, maxStraightPath);
          return SUCCESS | PARTIAL_RESULT | ((*straightPathCount >= maxStraightPath) ? BUFFER_TOO_SMALL : 0);
        }
        // Starting right on the first portal: skip it.
        if (i == 0) {
          float t;
          if (distancePtSegSqr2D(portalApex, left, right, t) < sqr(0.001f)) continue;
        }
      } else {
        vcopy(left, closestEndPos);
        vcopy(right, closestEndPos);
        toType = POLYTYPE_GROUND;
      }

      // The right and left sides mirror each other. They stay written out: folding the corner code
      // into one shared block or lambda cost findStraightPath 1-3% more instructions (callgrind).
      // Right side of the funnel.
      if (triArea2D(portalApex, portalRight, right) <= 0.0f) {
        if (vequal(portalApex, portalRight) || triArea2D(portalApex, portalLeft, right) > 0.0f) {
          vcopy(portalRight, right);
          rightPolyRef = (i + 1 < pathSize) ? path[i + 1] : 0;
          rightPolyType = toType;
          rightIndex = i;
        } else {
          // Right crossed over left: the left point is a corner.
          if (crossings) {
            stat = appendCrossings(apexIndex, leftIndex, static_cast<const float*>(portalLeft));
            if (stat != IN_PROGRESS) return stat;
          }
          vcopy(portalApex, portalLeft);
          apexIndex = leftIndex;
          uint8_t flags = 0;
          if (!leftPolyRef) flags = STRAIGHTPATH_END;
          else if (leftPolyType == POLYTYPE_OFFMESH_CONNECTION) flags = STRAIGHTPATH_OFFMESH_CONNECTION;
          stat = appendStraightPathVertex(portalApex, flags, leftPolyRef, straightPath, straightPathFlags,
                                          straightPathRefs, straightPathCount, maxStraightPath);
          if (stat != IN_PROGRESS) return stat;
          vcopy(portalLeft, portalApex);
          vcopy(portalRight, portalApex);
          leftIndex = apexIndex;
          rightIndex = apexIndex;
          i = apexIndex; // restart from the new apex
          continue;
        }
      }

      // Left side of the funnel.
      if (triArea2D(portalApex, portalLeft, left) >= 0.0f) {
        if (vequal(portalApex, portalLeft) || triArea2D(portalApex, portalRight, left) < 0.0f) {
          vcopy(portalLeft, left);
          leftPolyRef = (i + 1 < pathSize) ? path[i + 1] : 0;
          leftPolyType = toType;
          leftIndex = i;
        } else {
          if (crossings) {
            stat = appendCrossings(apexIndex, rightIndex, static_cast<const float*>(portalRight));
            if (stat != IN_PROGRESS) return stat;
          }
          vcopy(portalApex, portalRight);
          apexIndex = rightIndex;
          uint8_t flags = 0;
          if (!rightPolyRef) flags = STRAIGHTPATH_END;
          else if (rightPolyType == POLYTYPE_OFFMESH_CONNECTION) flags = STRAIGHTPATH_OFFMESH_CONNECTION;
          stat = appendStraightPathVertex(portalApex, flags, rightPolyRef, straightPath, straightPathFlags,
                                          straightPathRefs, straightPathCount, maxStraightPath);
          if (stat != IN_PROGRESS) return stat;
          vcopy(portalLeft, portalApex);
          vcopy(portalRight, portalApex);
          leftIndex = apexIndex;
          rightIndex = apexIndex;
          i = apexIndex;
          continue;
        }
      }
    }

    if (crossings) {
      stat = appendCrossings(apexIndex, pathSize - 1, static_cast<const float*>(closestEndPos));
      if (stat != IN_PROGRESS) return stat;
    }
  }

  appendStraightPathVertex(closestEndPos, STRAIGHTPATH_END, 0, straightPath, straightPathFlags, straightPathRefs,
                           straightPathCount, maxStraightPath);
  return SUCCESS | ((*straightPathCount >= maxStraightPath) ? BUFFER_TOO_SMALL : 0);
}

/// No STRAIGHTPATH_*_CROSSINGS corners (straightPathFunnel with crossings = false).
struct NoStraightPathCrossings {
  Status operator()(int, int, const float*) const { return IN_PROGRESS; }
};

} // namespace nav
