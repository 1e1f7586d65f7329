// AvoidanceScalarTests.cpp: nav/crowd/ObstacleAvoidance.cpp built with NAV_AVOIDANCE_SSE=0 (the
// scalar loops non-x86 builds use) against Detour's dtObstacleAvoidanceQuery, on random circles
// and walls around the agent: the same chosen velocity, sample count and debug samples bit for bit.
// crowd_tests checks the SSE2 build the same way on level neighbourhoods.
#include "AvoidancePair.h"

#include "nav/crowd/ObstacleAvoidance.h"

#include <DetourObstacleAvoidance.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

namespace {

namespace nc = nav::crowd;

// Any NaN equals any NaN: a NaN's sign and payload depend on which operand the compiler put first
// (a circle on top of the agent has a NaN direction), not on the algorithm.
bool bitEq(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0; }

TEST(AvoidanceScalar, MatchesDetour) {
#if !defined(NAV_AVOIDANCE_SSE) || NAV_AVOIDANCE_SSE
  FAIL() << "this target must build ObstacleAvoidance.cpp with NAV_AVOIDANCE_SSE=0";
#endif
  std::mt19937 rng(0xa501d);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  auto frand = [&] { return u(rng); };
  auto irand = [&](int n) { return int(rng() % uint32_t(n)); };

  dtObstacleAvoidanceQuery* dqa = dtAllocObstacleAvoidanceQuery();
  dtObstacleAvoidanceDebugData* ddbg = dtAllocObstacleAvoidanceDebugData();
  ASSERT_TRUE(dqa->init(6, 8));
  ASSERT_TRUE(ddbg->init(4096));
  nc::ObstacleAvoidanceQuery qa;
  nc::ObstacleAvoidanceDebugData dbg;
  ASSERT_TRUE(qa.init(6, 8));
  ASSERT_TRUE(dbg.init(4096));
  long samples = 0;
  int moved = 0;
  const int cases = 3000;
  for (int q = 0; q < cases; ++q) {
    SCOPED_TRACE("case " + std::to_string(q));
    const float pos[3] = {(frand() - 0.5f) * 40, frand(), (frand() - 0.5f) * 40};
    const float rad = 0.3f + frand() * 0.5f;
    const float vmax = irand(40) == 0 ? 0.0f : 1.0f + frand() * 3.0f;
    const float vel[3] = {(frand() - 0.5f) * vmax, 0, (frand() - 0.5f) * vmax};
    float dvel[3] = {(frand() - 0.5f) * 2 * vmax, 0, (frand() - 0.5f) * 2 * vmax};
    if (irand(10) == 0) dvel[0] = dvel[2] = 0;
    dqa->reset();
    qa.reset();
    const int ncircles = irand(8);
    for (int i = 0; i < ncircles; ++i) {
      float p[3] = {pos[0] + (frand() - 0.5f) * 6, pos[1] + (frand() - 0.5f) * 0.5f, pos[2] + (frand() - 0.5f) * 6};
      if (irand(8) == 0) std::memcpy(p, pos, sizeof p); // on top of the agent
      const float r = 0.3f + frand() * 0.5f;
      const float v[3] = {(frand() - 0.5f) * 4, 0, (frand() - 0.5f) * 4};
      const float dv[3] = {(frand() - 0.5f) * 4, 0, (frand() - 0.5f) * 4};
      dqa->addCircle(p, r, v, dv);
      qa.addCircle(p, r, v, dv);
    }
    const int nsegs = irand(10);
    for (int i = 0; i < nsegs; ++i) {
      // Walls around the agent; some through its center (touching), some parallel to an axis.
      const float a = frand() * 6.2831853f;
      const float d = irand(5) == 0 ? 0.0f : frand() * 4.0f;
      float s[6] = {pos[0] + std::cos(a) * d, pos[1], pos[2] + std::sin(a) * d, 0, pos[1], 0};
      const float len = 0.5f + frand() * 4.0f, b = irand(4) == 0 ? 0.0f : frand() * 6.2831853f;
      s[3] = s[0] + std::cos(b) * len;
      s[5] = s[2] + std::sin(b) * len;
      dqa->addSegment(s, s + 3);
      qa.addSegment(s, s + 3);
    }
    dtObstacleAvoidanceParams p;
    crowdtest::drawAvoidanceParams(p, frand, irand); // odd divisions: see crowd_tests' AvoidanceSampling
    const bool grid = irand(3) == 0;
    const bool withDebug = irand(2) == 0;
    const crowdtest::SampledPair r =
        crowdtest::sampleBoth(*dqa, qa, grid, pos, rad, vmax, vel, dvel, p, withDebug ? ddbg : nullptr,
                              withDebug ? &dbg : nullptr);
    const float* dn = r.dn;
    const float* n = r.n;
    const int dns = r.dns, ns = r.ns;
    ASSERT_EQ(dns, ns);
    for (int k = 0; k < 3; ++k) ASSERT_TRUE(bitEq(dn[k], n[k])) << "nvel[" << k << "] " << dn[k] << " vs " << n[k];
    samples += ns;
    moved += (n[0] != 0 || n[2] != 0) ? 1 : 0;
    if (withDebug) {
      ASSERT_EQ(ddbg->getSampleCount(), dbg.getSampleCount());
      for (int i = 0; i < dbg.getSampleCount(); ++i) {
        for (int k = 0; k < 3; ++k) ASSERT_TRUE(bitEq(ddbg->getSampleVelocity(i)[k], dbg.getSampleVelocity(i)[k]));
        ASSERT_TRUE(bitEq(ddbg->getSamplePenalty(i), dbg.getSamplePenalty(i))) << "sample " << i;
        ASSERT_TRUE(bitEq(ddbg->getSampleDesiredVelocityPenalty(i), dbg.getSampleDesiredVelocityPenalty(i)));
        ASSERT_TRUE(bitEq(ddbg->getSampleCurrentVelocityPenalty(i), dbg.getSampleCurrentVelocityPenalty(i)));
        ASSERT_TRUE(bitEq(ddbg->getSamplePreferredSidePenalty(i), dbg.getSamplePreferredSidePenalty(i)));
        ASSERT_TRUE(bitEq(ddbg->getSampleCollisionTimePenalty(i), dbg.getSampleCollisionTimePenalty(i)));
      }
    }
  }
  dtFreeObstacleAvoidanceDebugData(ddbg);
  dtFreeObstacleAvoidanceQuery(dqa);
  EXPECT_GT(moved, cases / 2);
  std::printf("[ scalar avoidance ] %d cases, %ld samples\n", cases, samples);
}

} // namespace
