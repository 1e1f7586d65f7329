// AvoidancePair.h: what the two avoidance comparisons share (ComponentsTest on level
// neighbourhoods with the SSE2 build, AvoidanceScalarTests on random ones with the scalar build):
// random sampling parameters, Detour's params as ours, and one velocity sample run on both sides.
#pragma once

#include "CrowdParamFields.h"
#include "nav/crowd/ObstacleAvoidance.h"

#include <DetourObstacleAvoidance.h>

namespace crowdtest {

/// Random sampling parameters, drawn in this order from the test's own streams (frand() in [0, 1),
/// irand(n) in [0, n)). Division counts are odd: with an even one Detour samples an unwritten
/// pattern slot.
template <class F, class I> void drawAvoidanceParams(dtObstacleAvoidanceParams& p, F&& frand, I&& irand) {
  p.velBias = frand();
  p.weightDesVel = frand() * 3;
  p.weightCurVel = frand() * 3;
  p.weightSide = frand() * 3;
  p.weightToi = frand() * 3;
  p.horizTime = 0.5f + frand() * 3;
  p.gridSize = (unsigned char)(2 + irand(30));
  p.adaptiveDivs = (unsigned char)(1 + 2 * irand(16));
  p.adaptiveRings = (unsigned char)(1 + irand(4));
  p.adaptiveDepth = (unsigned char)(1 + irand(6));
}

inline nav::crowd::ObstacleAvoidanceParams toNav(const dtObstacleAvoidanceParams& d) {
  nav::crowd::ObstacleAvoidanceParams p;
  copyAvoidParams(p, d);
  return p;
}

/// Both sides' answers to one sampling call.
struct SampledPair {
  float dn[3] = {9, 9, 9}, n[3] = {7, 7, 7}; ///< Detour's and our chosen velocity
  int dns = 0, ns = 0;                        ///< their sample counts
};

/// The same grid (or adaptive) sampling on both queries, with the obstacles already added; the
/// debug data are filled when given (both or neither).
inline SampledPair sampleBoth(dtObstacleAvoidanceQuery& dqa, nav::crowd::ObstacleAvoidanceQuery& qa, bool grid,
                              const float* pos, float rad, float vmax, const float* vel, const float* dvel,
                              const dtObstacleAvoidanceParams& p, dtObstacleAvoidanceDebugData* ddbg,
                              nav::crowd::ObstacleAvoidanceDebugData* dbg) {
  const nav::crowd::ObstacleAvoidanceParams np = toNav(p);
  SampledPair r;
  if (grid) {
    r.dns = dqa.sampleVelocityGrid(pos, rad, vmax, vel, dvel, r.dn, &p, ddbg);
    r.ns = qa.sampleVelocityGrid(pos, rad, vmax, vel, dvel, r.n, &np, dbg);
  } else {
    r.dns = dqa.sampleVelocityAdaptive(pos, rad, vmax, vel, dvel, r.dn, &p, ddbg);
    r.ns = qa.sampleVelocityAdaptive(pos, rad, vmax, vel, dvel, r.n, &np, dbg);
  }
  return r;
}

} // namespace crowdtest
