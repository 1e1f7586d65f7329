// NavMathTest: nav/NavMath.h against Detour's DetourCommon on random input: results must be
// bit-identical (the query engine relies on reproducing Detour's float arithmetic).
#include "nav/NavMath.h"
#include "nav/base/BitMath.h"
#include "nav/NavTypes.h"

#include <DetourCommon.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace {

struct Rng {
  std::mt19937 gen{12345};
  float f(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen); }
  // Coordinates on a coarse grid make degenerate and boundary cases (shared edges, equal
  // coordinates, collinear points) frequent.
  float g() { return float(std::uniform_int_distribution<int>(-4, 4)(gen)) * 0.5f; }
  void v(float* p, bool grid) {
    for (int i = 0; i < 3; ++i) p[i] = grid ? g() : f(-10, 10);
  }
};

bool same(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0 || (std::isnan(a) && std::isnan(b)); }
bool same3(const float* a, const float* b) { return same(a[0], b[0]) && same(a[1], b[1]) && same(a[2], b[2]); }

// A random convex polygon in xz (points on a circle, clockwise seen from +y like navmesh polys).
int convexPoly(Rng& r, float* pts, int maxn) {
  const int n = 3 + int(r.gen() % unsigned(maxn - 2));
  const float cx = r.f(-5, 5), cz = r.f(-5, 5), rad = r.f(0.5f, 5);
  float a = r.f(0, 6.28f);
  for (int i = 0; i < n; ++i) {
    a -= 6.28f / float(n) * r.f(0.5f, 1.0f);
    pts[i * 3 + 0] = cx + std::cos(a) * rad;
    pts[i * 3 + 1] = r.f(-1, 1);
    pts[i * 3 + 2] = cz + std::sin(a) * rad;
  }
  return n;
}

} // namespace

TEST(NavMath, VectorHelpersMatchDetour) {
  Rng r;
  for (int it = 0; it < 20000; ++it) {
    const bool grid = it % 3 == 0;
    float a[3], b[3], c[3], x[3], y[3];
    r.v(a, grid);
    r.v(b, grid);
    r.v(c, grid);
    const float t = r.f(-1, 2);
    nav::vmad(x, a, b, t); dtVmad(y, a, b, t); ASSERT_TRUE(same3(x, y));
    nav::vlerp(x, a, b, t); dtVlerp(y, a, b, t); ASSERT_TRUE(same3(x, y));
    nav::vadd(x, a, b); dtVadd(y, a, b); ASSERT_TRUE(same3(x, y));
    nav::vsub(x, a, b); dtVsub(y, a, b); ASSERT_TRUE(same3(x, y));
    nav::vscale(x, a, t); dtVscale(y, a, t); ASSERT_TRUE(same3(x, y));
    nav::vcross(x, a, b); dtVcross(y, a, b); ASSERT_TRUE(same3(x, y));
    nav::vcopy(x, a); nav::vmin(x, b); dtVcopy(y, a); dtVmin(y, b); ASSERT_TRUE(same3(x, y));
    nav::vcopy(x, a); nav::vmax(x, b); dtVcopy(y, a); dtVmax(y, b); ASSERT_TRUE(same3(x, y));
    ASSERT_TRUE(same(nav::vdot(a, b), dtVdot(a, b)));
    ASSERT_TRUE(same(nav::vlen(a), dtVlen(a)));
    ASSERT_TRUE(same(nav::vlenSqr(a), dtVlenSqr(a)));
    ASSERT_TRUE(same(nav::vdist(a, b), dtVdist(a, b)));
    ASSERT_TRUE(same(nav::vdistSqr(a, b), dtVdistSqr(a, b)));
    ASSERT_TRUE(same(nav::vdist2D(a, b), dtVdist2D(a, b)));
    ASSERT_TRUE(same(nav::vdist2DSqr(a, b), dtVdist2DSqr(a, b)));
    ASSERT_TRUE(same(nav::vdot2D(a, b), dtVdot2D(a, b)));
    ASSERT_TRUE(same(nav::vperp2D(a, b), dtVperp2D(a, b)));
    ASSERT_EQ(nav::vequal(a, b), dtVequal(a, b));
    ASSERT_TRUE(same(nav::triArea2D(a, b, c), dtTriArea2D(a, b, c)));
    if (nav::vlen(a) > 0) {
      nav::vcopy(x, a); nav::vnormalize(x); dtVcopy(y, a); dtVnormalize(y); ASSERT_TRUE(same3(x, y));
    }
    // Closest point on triangle (3D) and height in triangle (2D).
    float p[3]; r.v(p, grid);
    float e[3], f[3];
    nav::closestPtPointTriangle(e, p, a, b, c);
    dtClosestPtPointTriangle(f, p, a, b, c);
    ASSERT_TRUE(same3(e, f)) << it;
    float h1 = -1, h2 = -1;
    const bool in1 = nav::closestHeightPointTriangle(p, a, b, c, h1);
    const bool in2 = dtClosestHeightPointTriangle(p, a, b, c, h2);
    ASSERT_EQ(in1, in2) << it;
    if (in1) {
      ASSERT_TRUE(same(h1, h2)) << it;
    }
    float t1, t2;
    ASSERT_TRUE(same(nav::distancePtSegSqr2D(p, a, b, t1), dtDistancePtSegSqr2D(p, a, b, t2)));
    ASSERT_TRUE(same(t1, t2));
    float s1 = 0, s2 = 0, u1 = 0, u2 = 0;
    const bool i1 = nav::intersectSegSeg2D(a, b, c, p, s1, u1);
    const bool i2 = dtIntersectSegSeg2D(a, b, c, p, s2, u2);
    ASSERT_EQ(i1, i2);
    if (i1) { ASSERT_TRUE(same(s1, s2)); ASSERT_TRUE(same(u1, u2)); }
    unsigned short qa[3], qb[3], qc[3], qd[3];
    for (int k = 0; k < 3; ++k) {
      qa[k] = (unsigned short)(r.gen() % 8); qb[k] = (unsigned short)(qa[k] + r.gen() % 4);
      qc[k] = (unsigned short)(r.gen() % 8); qd[k] = (unsigned short)(qc[k] + r.gen() % 4);
    }
    ASSERT_EQ(nav::overlapQuantBounds(qa, qb, qc, qd), dtOverlapQuantBounds(qa, qb, qc, qd));
    float fa[3], fb[3], fc[3], fd[3];
    for (int k = 0; k < 3; ++k) {
      fa[k] = r.g(); fb[k] = fa[k] + float(r.gen() % 3); fc[k] = r.g(); fd[k] = fc[k] + float(r.gen() % 3);
    }
    ASSERT_EQ(nav::overlapBounds(fa, fb, fc, fd), dtOverlapBounds(fa, fb, fc, fd));
  }
}

TEST(NavMath, PolygonHelpersMatchDetour) {
  Rng r;
  for (int it = 0; it < 20000; ++it) {
    float pa[6 * 3], pb[6 * 3];
    const int na = convexPoly(r, pa, 6), nb = convexPoly(r, pb, 6);
    float p[3], q[3];
    r.v(p, it % 2 == 0);
    r.v(q, it % 3 == 0);
    if (it % 5 == 0) nav::vcopy(p, &pa[0]); // exactly on a vertex
    ASSERT_EQ(nav::pointInPolygon(p, pa, na), dtPointInPolygon(p, pa, na));
    float ed1[6], et1[6], ed2[6], et2[6];
    ASSERT_EQ(nav::distancePtPolyEdgesSqr(p, pa, na, ed1, et1), dtDistancePtPolyEdgesSqr(p, pa, na, ed2, et2));
    for (int k = 0; k < na; ++k) { ASSERT_TRUE(same(ed1[k], ed2[k])); ASSERT_TRUE(same(et1[k], et2[k])); }
    float tmin1, tmax1, tmin2, tmax2;
    int smin1, smax1, smin2, smax2;
    const bool h1 = nav::intersectSegmentPoly2D(p, q, pa, na, tmin1, tmax1, smin1, smax1);
    const bool h2 = dtIntersectSegmentPoly2D(p, q, pa, na, tmin2, tmax2, smin2, smax2);
    ASSERT_EQ(h1, h2) << it;
    if (h1) {
      ASSERT_TRUE(same(tmin1, tmin2)); ASSERT_TRUE(same(tmax1, tmax2));
      ASSERT_EQ(smin1, smin2); ASSERT_EQ(smax1, smax2);
    }
    ASSERT_EQ(nav::overlapPolyPoly2D(pa, na, pb, nb), dtOverlapPolyPoly2D(pa, na, pb, nb));
    unsigned short idx[6] = {0, 1, 2, 3, 4, 5};
    float c1[3], c2[3];
    nav::calcPolyCenter(c1, idx, na, pa);
    dtCalcPolyCenter(c2, idx, na, pa);
    ASSERT_TRUE(same3(c1, c2));
    float areas1[6], areas2[6];
    const float s = r.f(0, 1), t = r.f(0, 1);
    nav::randomPointInConvexPoly(pa, na, areas1, s, t, c1);
    dtRandomPointInConvexPoly(pa, na, areas2, s, t, c2);
    ASSERT_TRUE(same3(c1, c2));
  }
}

TEST(NavMath, IntegerHelpersMatchDetour) {
  for (unsigned v = 0; v < 70000; ++v) {
    ASSERT_EQ(base::nextPow2(v), dtNextPow2(v));
    ASSERT_EQ(base::ilog2(v), dtIlog2(v));
  }
  for (unsigned v : {0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu}) ASSERT_EQ(base::ilog2(v), dtIlog2(v));
  for (int s = 0; s < 8; ++s) ASSERT_EQ(nav::oppositeTile(s), dtOppositeTile(s));
  EXPECT_EQ(nav::sqr(3), 9);
  EXPECT_EQ(nav::clamp(5, 0, 3), 3);
  EXPECT_EQ(nav::clamp(-1, 0, 3), 0);
}

TEST(NavTypes, StatusToString) {
  char buf[128];
  EXPECT_STREQ(nav::statusToString(nav::SUCCESS | nav::PARTIAL_RESULT, buf, sizeof buf), "success | partial result");
  EXPECT_STREQ(nav::statusToString(nav::FAILURE | nav::INVALID_PARAM, buf, sizeof buf), "failure | invalid param");
  EXPECT_STREQ(nav::statusToString(0, buf, sizeof buf), "none");
  char tiny[8];
  EXPECT_STREQ(nav::statusToString(nav::FAILURE | nav::OUT_OF_MEMORY, tiny, sizeof tiny), "failure");
}
