// RefSmoothPath.h: RecastDemo's NavMeshTesterTool "follow" loop written against Detour, the
// oracle for nav::PathFollower (tests) and the Detour side of the smooth-path benchmark.
#pragma once

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

namespace querytest {

/// RecastDemo's follow loop. recastDemoHeightBug: reproduce its `float h = 0; getPolyHeight(...);
/// result[1] = h;` even when getPolyHeight fails (false: keep the moved point's height, as nav
/// does). heightFailures (optional) counts failed height lookups. Returns the point count.
int referenceSmoothPath(dtNavMeshQuery* q, const dtQueryFilter* filter, dtPolyRef startRef, const float* spos,
                        const float* epos, const dtPolyRef* corridor, int ncorridor, float* out, int maxSmooth,
                        bool recastDemoHeightBug, int* heightFailures);

} // namespace querytest
