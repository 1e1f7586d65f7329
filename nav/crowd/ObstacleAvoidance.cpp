// ObstacleAvoidance.cpp: see ObstacleAvoidance.h.
//
// Penalty of a candidate velocity v (all 2D):
//   vpen  = weightDesVel * |v - dvel| / vmax          (stray from the desired velocity)
//   vcpen = weightCurVel * |v - vel| / vmax           (stray from the current velocity)
//   spen  = weightSide * mean side term over circles  (pass obstacles on a consistent side)
//   tpen  = weightToi / (0.1 + tmin / horizTime)      (time to the first impact, capped at horizTime)
// Circles are tested as reciprocal velocity obstacles (relative velocity 2v - vel - obstacle vel),
// walls by a ray along v (times doubled: walls are avoided less). A sample whose partial penalty
// already cannot beat the best so far returns early with the best penalty (and is not recorded).
#include "nav/crowd/ObstacleAvoidance.h"

#include "nav/NavMath.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <new>

// NAV_AVOIDANCE_SSE=0 on the command line builds the scalar loops on x86 too (the tests do, to
// compare both with Detour).
#if !defined(NAV_AVOIDANCE_SSE)
#if defined(__SSE2__) && defined(__GNUC__)
#define NAV_AVOIDANCE_SSE 1
#else
#define NAV_AVOIDANCE_SSE 0
#endif
#endif
#if NAV_AVOIDANCE_SSE
#include <emmintrin.h>
#endif

namespace nav {
namespace crowd {

namespace {

constexpr float PI = 3.14159265f;
constexpr int MAX_PATTERN = MAX_PATTERN_DIVS * MAX_PATTERN_RINGS + 1; ///< Adaptive pattern points.
constexpr int MAX_ROW = 256 + 3; ///< Grid row (gridSize <= 255) and the 4-wide loads' padding.

// Rows of the circle and segment tables (ObstacleAvoidanceQuery::m_circleSoa / m_segmentSoa).
enum CircleField { C_VX, C_VZ, C_DPX, C_DPZ, C_NPX, C_NPZ, C_SX, C_SZ, C_C, CIRCLE_FIELDS };
enum SegmentField { S_VX, S_VZ, S_WX, S_WZ, S_T, S_TOUCH, SEGMENT_FIELDS };

void normalizeArray(float* arr, int n) {
  float minPen = FLT_MAX;
  float maxPen = -FLT_MAX;
  for (int i = 0; i < n; ++i) {
    minPen = navMin(minPen, arr[i]);
    maxPen = navMax(maxPen, arr[i]);
  }
  const float penRange = maxPen - minPen;
  const float s = penRange > 0.001f ? (1.0f / penRange) : 1;
  for (int i = 0; i < n; ++i) arr[i] = clamp((arr[i] - minPen) * s, 0.0f, 1.0f);
}

/// Normalizes (x, z) in place; a zero vector stays zero.
void normalize2D(float* v) {
  float d = std::sqrt(v[0] * v[0] + v[2] * v[2]);
  if (d == 0) return;
  d = 1.0f / d;
  v[0] *= d;
  v[2] *= d;
}

/// dest = v rotated by ang radians in the xz-plane (y copied).
void rotate2D(float* dest, const float* v, float ang) {
  const float c = std::cos(ang);
  const float s = std::sin(ang);
  dest[0] = v[0] * c - v[2] * s;
  dest[2] = v[0] * s + v[2] * c;
  dest[1] = v[1];
}

} // namespace

// ---- Debug data ---------------------------------------------------------------------------------

bool ObstacleAvoidanceDebugData::init(int maxSamples) {
  if (maxSamples < 1) return false;
  const size_t n = size_t(maxSamples);
  m_vel.reset(new (std::nothrow) float[n * 3]);
  m_ssize.reset(new (std::nothrow) float[n]);
  m_pen.reset(new (std::nothrow) float[n]);
  m_vpen.reset(new (std::nothrow) float[n]);
  m_vcpen.reset(new (std::nothrow) float[n]);
  m_spen.reset(new (std::nothrow) float[n]);
  m_tpen.reset(new (std::nothrow) float[n]);
  m_nsamples = 0;
  if (!m_vel || !m_ssize || !m_pen || !m_vpen || !m_vcpen || !m_spen || !m_tpen) {
    m_maxSamples = 0;
    return false;
  }
  m_maxSamples = maxSamples;
  return true;
}

void ObstacleAvoidanceDebugData::reset() { m_nsamples = 0; }

void ObstacleAvoidanceDebugData::addSample(const float* vel, float ssize, float pen, float vpen, float vcpen,
                                           float spen, float tpen) {
  if (m_nsamples >= m_maxSamples) return;
  vcopy(&m_vel[m_nsamples * 3], vel);
  m_ssize[m_nsamples] = ssize;
  m_pen[m_nsamples] = pen;
  m_vpen[m_nsamples] = vpen;
  m_vcpen[m_nsamples] = vcpen;
  m_spen[m_nsamples] = spen;
  m_tpen[m_nsamples] = tpen;
  m_nsamples++;
}

void ObstacleAvoidanceDebugData::normalizeSamples() {
  if (m_nsamples == 0) return;
  normalizeArray(m_pen.get(), m_nsamples);
  normalizeArray(m_vpen.get(), m_nsamples);
  normalizeArray(m_vcpen.get(), m_nsamples);
  normalizeArray(m_spen.get(), m_nsamples);
  normalizeArray(m_tpen.get(), m_nsamples);
}

// ---- Query --------------------------------------------------------------------------------------

bool ObstacleAvoidanceQuery::init(int maxCircles, int maxSegments) {
  if (maxCircles < 0 || maxSegments < 0) return false;
  m_ncircles = m_nsegments = 0;
  m_circles.reset(new (std::nothrow) ObstacleCircle[size_t(navMax(maxCircles, 1))]());
  m_segments.reset(new (std::nothrow) ObstacleSegment[size_t(navMax(maxSegments, 1))]());
  m_circleCap = (navMax(maxCircles, 1) + 3) & ~3;
  m_segmentCap = (navMax(maxSegments, 1) + 3) & ~3;
  m_circleSoa.reset(new (std::nothrow) float[size_t(m_circleCap) * CIRCLE_FIELDS]());
  m_segmentSoa.reset(new (std::nothrow) float[size_t(m_segmentCap) * SEGMENT_FIELDS]());
  if (!m_circles || !m_segments || !m_circleSoa || !m_segmentSoa) {
    m_maxCircles = m_maxSegments = 0;
    return false;
  }
  m_maxCircles = maxCircles;
  m_maxSegments = maxSegments;
  return true;
}

void ObstacleAvoidanceQuery::reset() {
  m_ncircles = 0;
  m_nsegments = 0;
}

void ObstacleAvoidanceQuery::addCircle(const float* pos, float rad, const float* vel, const float* dvel) {
  if (m_ncircles >= m_maxCircles) return;
  ObstacleCircle* cir = &m_circles[m_ncircles++];
  vcopy(cir->p, pos);
  cir->rad = rad;
  vcopy(cir->vel, vel);
  vcopy(cir->dvel, dvel);
}

void ObstacleAvoidanceQuery::addSegment(const float* p, const float* q) {
  if (m_nsegments >= m_maxSegments) return;
  ObstacleSegment* seg = &m_segments[m_nsegments++];
  vcopy(seg->p, p);
  vcopy(seg->q, q);
}

void ObstacleAvoidanceQuery::prepare(const float* pos, float rad, const float* dvel) {
  // Circles: direction to the obstacle (dp) and the normal on the side to pass it (np): the side
  // the relative desired velocity already leans to. (dp/np y and np's y are left as they were.)
  for (int i = 0; i < m_ncircles; ++i) {
    ObstacleCircle* cir = &m_circles[i];
    static const float orig[3] = {0, 0, 0};
    float dv[3];
    vsub(cir->dp, cir->p, pos);
    vnormalize(cir->dp);
    vsub(dv, cir->dvel, dvel);
    const float a = triArea2D(orig, cir->dp, dv);
    if (a < 0.01f) {
      cir->np[0] = -cir->dp[2];
      cir->np[2] = cir->dp[0];
    } else {
      cir->np[0] = cir->dp[2];
      cir->np[2] = -cir->dp[0];
    }
    // sweepCircleCircle(pos, rad, v, cir->p, cir->rad)'s parts that do not depend on v.
    float sv[3];
    vsub(sv, cir->p, pos);
    const float r = rad + cir->rad;
    float* c = m_circleSoa.get();
    const int n = m_circleCap;
    c[C_VX * n + i] = cir->vel[0];
    c[C_VZ * n + i] = cir->vel[2];
    c[C_DPX * n + i] = cir->dp[0];
    c[C_DPZ * n + i] = cir->dp[2];
    c[C_NPX * n + i] = cir->np[0];
    c[C_NPZ * n + i] = cir->np[2];
    c[C_SX * n + i] = sv[0];
    c[C_SZ * n + i] = sv[2];
    c[C_C * n + i] = vdot2D(sv, sv) - r * r;
  }
  // Segments: does the agent (its center) already touch it? And isectRaySeg(pos, v, p, q)'s parts
  // that do not depend on v.
  for (int i = 0; i < m_nsegments; ++i) {
    ObstacleSegment* seg = &m_segments[i];
    static const float r = 0.01f;
    float t;
    seg->touch = distancePtSegSqr2D(pos, seg->p, seg->q, t) < sqr(r);
    float v[3], w[3];
    vsub(v, seg->q, seg->p);
    vsub(w, pos, seg->p);
    float* g = m_segmentSoa.get();
    const int n = m_segmentCap;
    g[S_VX * n + i] = v[0];
    g[S_VZ * n + i] = v[2];
    g[S_WX * n + i] = w[0];
    g[S_WZ * n + i] = w[2];
    g[S_T * n + i] = vperp2D(v, w);
    g[S_TOUCH * n + i] = seg->touch ? 1.0f : 0.0f;
  }
}

// Inlined into the sampling loops: called once per sample (tens per agent per update), most of
// them leaving at the first threshold test, where the call itself was a third of the cost.
#if defined(__GNUC__)
#define NAV_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define NAV_ALWAYS_INLINE inline
#endif

NAV_ALWAYS_INLINE float ObstacleAvoidanceQuery::scoreObstacles(const float* vcand, float cs,
                                                               const float* vel, float vpen, float vcpen,
                                                               float tThreshold, float minPenalty,
                                                               ObstacleAvoidanceDebugData* debug) {
  float tmin = m_params.horizTime;
  float side = 0;
  const int nside = m_ncircles;
  // vab = vcand * 2 - vel - circle velocity: the first two terms are the same for every circle.
  const float bx = vcand[0] * 2 - vel[0];
  const float bz = vcand[2] * 2 - vel[2];
  const float* c = m_circleSoa.get();
  const int cn = m_circleCap;
  const float* g = m_segmentSoa.get();
  const int gn = m_segmentCap;
#if NAV_AVOIDANCE_SSE
  // Four circles (then four segments) per step, each lane the scalar operations below; the side
  // terms are summed and the impact times taken in circle order afterwards. The impact time only
  // falls, so testing it against the threshold after each step returns exactly when the scalar
  // loop would (what the extra lanes computed is then unused).
  {
    const __m128 vbx = _mm_set1_ps(bx), vbz = _mm_set1_ps(bz);
    const __m128 half = _mm_set1_ps(0.5f), two = _mm_set1_ps(2.0f);
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    const __m128 aMin = _mm_set1_ps(0.0001f);
    const __m128 signBit = _mm_set1_ps(-0.0f);
    for (int i0 = 0; i0 < m_ncircles; i0 += 4) {
      const __m128 vabx = _mm_sub_ps(vbx, _mm_loadu_ps(c + C_VX * cn + i0));
      const __m128 vabz = _mm_sub_ps(vbz, _mm_loadu_ps(c + C_VZ * cn + i0));
      // clamp(min(dp . vab * 0.5 + 0.5, np . vab * 2), 0, 1)
      const __m128 sa = _mm_add_ps(
          _mm_mul_ps(_mm_add_ps(_mm_mul_ps(_mm_loadu_ps(c + C_DPX * cn + i0), vabx),
                                _mm_mul_ps(_mm_loadu_ps(c + C_DPZ * cn + i0), vabz)),
                     half),
          half);
      const __m128 sb = _mm_mul_ps(_mm_add_ps(_mm_mul_ps(_mm_loadu_ps(c + C_NPX * cn + i0), vabx),
                                              _mm_mul_ps(_mm_loadu_ps(c + C_NPZ * cn + i0), vabz)),
                                   two);
      // navMin(a, b) is a < b ? a : b, as minps; clamp's v > 1 ? 1 : v and v < 0 ? 0 : v likewise.
      const __m128 sd = _mm_max_ps(zero, _mm_min_ps(one, _mm_min_ps(sa, sb)));
      // The sweep.
      const __m128 a = _mm_add_ps(_mm_mul_ps(vabx, vabx), _mm_mul_ps(vabz, vabz));
      const __m128 b = _mm_add_ps(_mm_mul_ps(vabx, _mm_loadu_ps(c + C_SX * cn + i0)),
                                  _mm_mul_ps(vabz, _mm_loadu_ps(c + C_SZ * cn + i0)));
      const __m128 d = _mm_sub_ps(_mm_mul_ps(b, b), _mm_mul_ps(a, _mm_loadu_ps(c + C_C * cn + i0)));
      const __m128 ia = _mm_div_ps(one, a);
      const __m128 rd = _mm_sqrt_ps(d);
      __m128 htmin = _mm_mul_ps(_mm_sub_ps(b, rd), ia);
      const __m128 htmax = _mm_mul_ps(_mm_add_ps(b, rd), ia);
      const __m128 inside = _mm_and_ps(_mm_cmplt_ps(htmin, zero), _mm_cmpgt_ps(htmax, zero));
      const __m128 out = _mm_mul_ps(_mm_xor_ps(htmin, signBit), half);
      htmin = _mm_or_ps(_mm_and_ps(inside, out), _mm_andnot_ps(inside, htmin));
      // Not (a < 0.0001), not (d < 0), htmin >= 0.
      const __m128 hit = _mm_andnot_ps(_mm_or_ps(_mm_cmplt_ps(a, aMin), _mm_cmplt_ps(d, zero)),
                                       _mm_cmpge_ps(htmin, zero));
      float sideL[4], htL[4];
      _mm_storeu_ps(sideL, sd);
      _mm_storeu_ps(htL, htmin);
      const int hits = _mm_movemask_ps(hit);
      const int nl = navMin(4, m_ncircles - i0);
      for (int l = 0; l < nl; ++l) {
        side += sideL[l];
        if (((hits >> l) & 1) && htL[l] < tmin) tmin = htL[l];
      }
      if (tmin < tThreshold) return minPenalty;
    }

    const __m128 ux = _mm_set1_ps(vcand[0]), uz = _mm_set1_ps(vcand[2]);
    const __m128 tiny = _mm_set1_ps(1e-6f);
    for (int i0 = 0; i0 < m_nsegments; i0 += 4) {
      const __m128 vx = _mm_loadu_ps(g + S_VX * gn + i0), vz = _mm_loadu_ps(g + S_VZ * gn + i0);
      const __m128 wx = _mm_loadu_ps(g + S_WX * gn + i0), wz = _mm_loadu_ps(g + S_WZ * gn + i0);
      // Touching: snorm = (-v.z, v.x); free when snorm . vcand < 0, else a hit at time 0.
      const __m128 touch = _mm_cmpneq_ps(_mm_loadu_ps(g + S_TOUCH * gn + i0), zero);
      const __m128 away =
          _mm_cmplt_ps(_mm_add_ps(_mm_mul_ps(_mm_xor_ps(vz, signBit), ux), _mm_mul_ps(vx, uz)), zero);
      // isectRaySeg: d = perp(u, v), t = perp(v, w) / d, s = perp(u, w) / d, both in [0, 1].
      const __m128 d = _mm_sub_ps(_mm_mul_ps(uz, vx), _mm_mul_ps(ux, vz));
      const __m128 parallel = _mm_cmplt_ps(_mm_andnot_ps(signBit, d), tiny);
      const __m128 id = _mm_div_ps(one, d);
      const __m128 t = _mm_mul_ps(_mm_loadu_ps(g + S_T * gn + i0), id);
      const __m128 sv = _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(uz, wx), _mm_mul_ps(ux, wz)), id);
      const __m128 miss = _mm_or_ps(_mm_or_ps(parallel, _mm_or_ps(_mm_cmplt_ps(t, zero), _mm_cmpgt_ps(t, one))),
                                    _mm_or_ps(_mm_cmplt_ps(sv, zero), _mm_cmpgt_ps(sv, one)));
      const int touchM = _mm_movemask_ps(touch);
      const int hits = (touchM & ~_mm_movemask_ps(away)) | (~touchM & ~_mm_movemask_ps(miss));
      if (!(hits & 0xF)) continue;
      float htL[4];
      _mm_storeu_ps(htL, _mm_andnot_ps(touch, _mm_mul_ps(t, two)));
      const int nl = navMin(4, m_nsegments - i0);
      for (int l = 0; l < nl; ++l)
        if (((hits >> l) & 1) && htL[l] < tmin) tmin = htL[l];
      if (tmin < tThreshold) return minPenalty;
    }
  }
#else
  for (int i = 0; i < m_ncircles; ++i) {
    // Reciprocal velocity obstacle: each side takes half the avoidance.
    const float vabx = bx - c[C_VX * cn + i];
    const float vabz = bz - c[C_VZ * cn + i];
    side += clamp(navMin((c[C_DPX * cn + i] * vabx + c[C_DPZ * cn + i] * vabz) * 0.5f + 0.5f,
                         (c[C_NPX * cn + i] * vabx + c[C_NPZ * cn + i] * vabz) * 2),
                  0.0f, 1.0f);
    // sweepCircleCircle(pos, rad, vab, cir->p, cir->rad, htmin, htmax) with its v-free parts
    // from prepare(): times at which the circles touch, in units of vab.
    float a = vabx * vabx + vabz * vabz;
    if (a < 0.0001f) continue;
    const float b = vabx * c[C_SX * cn + i] + vabz * c[C_SZ * cn + i];
    const float d = b * b - a * c[C_C * cn + i];
    if (d < 0.0f) continue;
    a = 1.0f / a;
    const float rd = std::sqrt(d);
    float htmin = (b - rd) * a;
    const float htmax = (b + rd) * a;
    // Already overlapping: the time to get out, halved, counts as the impact time.
    if (htmin < 0.0f && htmax > 0.0f) htmin = -htmin * 0.5f;
    if (htmin >= 0.0f && htmin < tmin) {
      tmin = htmin;
      if (tmin < tThreshold) return minPenalty;
    }
  }

  for (int i = 0; i < m_nsegments; ++i) {
    const float vx = g[S_VX * gn + i], vz = g[S_VZ * gn + i];
    float htmin = 0;
    if (g[S_TOUCH * gn + i] != 0) {
      // Touching: moving away from the wall (against its normal) is free, anything else hits now.
      if (-vz * vcand[0] + vx * vcand[2] < 0.0f) continue;
      htmin = 0.0f;
    } else {
      // isectRaySeg(pos, vcand, p, q) with its v-free parts from prepare().
      float d = vcand[2] * vx - vcand[0] * vz;
      if (std::fabs(d) < 1e-6f) continue;
      d = 1.0f / d;
      htmin = g[S_T * gn + i] * d;
      if (htmin < 0 || htmin > 1) continue;
      const float sv = (vcand[2] * g[S_WX * gn + i] - vcand[0] * g[S_WZ * gn + i]) * d;
      if (sv < 0 || sv > 1) continue;
    }
    htmin *= 2.0f;
    if (htmin < tmin) {
      tmin = htmin;
      if (tmin < tThreshold) return minPenalty;
    }
  }
#endif

  if (nside) side /= float(nside);

  const float spen = m_params.weightSide * side;
  const float tpen = m_params.weightToi * (1.0f / (0.1f + tmin * m_invHorizTime));
  const float penalty = vpen + vcpen + spen + tpen;
  if (debug) debug->addSample(vcand, cs, penalty, vpen, vcpen, spen, tpen);
  return penalty;
}

NAV_ALWAYS_INLINE float ObstacleAvoidanceQuery::processSample(const float* vcand, float cs,
                                                              const float* vel, const float* dvel, float minPenalty,
                                                              ObstacleAvoidanceDebugData* debug) {
  const float vpen = m_params.weightDesVel * (vdist2D(vcand, dvel) * m_invVmax);
  const float vcpen = m_params.weightCurVel * (vdist2D(vcand, vel) * m_invVmax);

  // The impact time below which tpen alone makes this sample no better than minPenalty.
  const float minPen = minPenalty - vpen - vcpen;
  const float tThreshold = (m_params.weightToi / minPen - 0.1f) * m_params.horizTime;
  if (tThreshold - m_params.horizTime > -FLT_EPSILON) return minPenalty;
  return scoreObstacles(vcand, cs, vel, vpen, vcpen, tThreshold, minPenalty, debug);
}

int ObstacleAvoidanceQuery::scoreSamples(const float* sx, const float* sz, int n, float limSqr, float cs,
                                         const float* vel, const float* dvel, float& minPenalty,
                                         float* best, ObstacleAvoidanceDebugData* debug) {
  int ns = 0;
#if NAV_AVOIDANCE_SSE
  // Four samples per step: the disc test, vpen and vcpen, and the impact-time threshold
  // (processSample's first half) lane by lane with the same operations, so each lane's floats are
  // the scalar ones. The threshold depends on the best penalty so far: it is recomputed after every
  // sample that goes on to the obstacle loops, and the samples are taken in order.
  const __m128 wDes = _mm_set1_ps(m_params.weightDesVel);
  const __m128 wCur = _mm_set1_ps(m_params.weightCurVel);
  const __m128 invVmax = _mm_set1_ps(m_invVmax);
  const __m128 dvx = _mm_set1_ps(dvel[0]), dvz = _mm_set1_ps(dvel[2]);
  const __m128 vx = _mm_set1_ps(vel[0]), vz = _mm_set1_ps(vel[2]);
  const __m128 lim = _mm_set1_ps(limSqr);
  const __m128 wToi = _mm_set1_ps(m_params.weightToi);
  const __m128 tenth = _mm_set1_ps(0.1f);
  const __m128 horiz = _mm_set1_ps(m_params.horizTime);
  const __m128 negEps = _mm_set1_ps(-FLT_EPSILON);
  for (int i0 = 0; i0 < n; i0 += 4) {
    const __m128 x = _mm_loadu_ps(sx + i0);
    const __m128 z = _mm_loadu_ps(sz + i0);
    int todo = ~_mm_movemask_ps(_mm_cmpgt_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(z, z)), lim)) & 0xF;
    if (n - i0 < 4) todo &= (1 << (n - i0)) - 1;
    if (!todo) continue;
    ns += (0x4332322132212110ull >> (todo * 4)) & 0xF; // popcount of 4 bits (no POPCNT in baseline x86-64)
    // vdist2D(vcand, dvel) and vdist2D(vcand, vel): the differences are taken other minus vcand.
    __m128 dx = _mm_sub_ps(dvx, x), dz = _mm_sub_ps(dvz, z);
    const __m128 vpen =
        _mm_mul_ps(wDes, _mm_mul_ps(_mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dz, dz))), invVmax));
    dx = _mm_sub_ps(vx, x);
    dz = _mm_sub_ps(vz, z);
    const __m128 vcpen =
        _mm_mul_ps(wCur, _mm_mul_ps(_mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dz, dz))), invVmax));
    float vpenL[4], vcpenL[4], thrL[4];
    _mm_storeu_ps(vpenL, vpen);
    _mm_storeu_ps(vcpenL, vcpen);
    while (todo) {
      const __m128 minPen = _mm_sub_ps(_mm_sub_ps(_mm_set1_ps(minPenalty), vpen), vcpen);
      const __m128 thr = _mm_mul_ps(_mm_sub_ps(_mm_div_ps(wToi, minPen), tenth), horiz);
      const int live = todo & ~_mm_movemask_ps(_mm_cmpgt_ps(_mm_sub_ps(thr, horiz), negEps));
      if (!live) break;
      const int j = __builtin_ctz(unsigned(live));
      todo &= ~((2 << j) - 1);
      _mm_storeu_ps(thrL, thr);
      const float vcand[3] = {sx[i0 + j], 0, sz[i0 + j]};
      const float penalty = scoreObstacles(vcand, cs, vel, vpenL[j], vcpenL[j], thrL[j], minPenalty, debug);
      if (penalty < minPenalty) {
        minPenalty = penalty;
        vcopy(best, vcand);
      }
    }
  }
#else
  for (int i = 0; i < n; ++i) {
    const float vcand[3] = {sx[i], 0, sz[i]};
    if (sqr(vcand[0]) + sqr(vcand[2]) > limSqr) continue;
    const float penalty = processSample(vcand, cs, vel, dvel, minPenalty, debug);
    ns++;
    if (penalty < minPenalty) {
      minPenalty = penalty;
      vcopy(best, vcand);
    }
  }
#endif
  return ns;
}

int ObstacleAvoidanceQuery::sampleVelocityGrid(const float* pos, float rad, float vmax, const float* vel,
                                               const float* dvel, float* nvel, const ObstacleAvoidanceParams* params,
                                               ObstacleAvoidanceDebugData* debug) {
  prepare(pos, rad, dvel);
  m_params = *params;
  m_invHorizTime = 1.0f / m_params.horizTime;
  m_vmax = vmax;
  m_invVmax = vmax > 0 ? 1.0f / vmax : FLT_MAX;

  vset(nvel, 0, 0, 0);
  if (debug) debug->reset();

  // A gridSize^2 grid of spacing cs centred on dvel * velBias, clipped to the disc vmax + cs/2.
  const float cvx = dvel[0] * m_params.velBias;
  const float cvz = dvel[2] * m_params.velBias;
  const float cs = vmax * 2 * (1 - m_params.velBias) / float(m_params.gridSize - 1);
  const float half = float(m_params.gridSize - 1) * cs * 0.5f;

  // One row at a time; the row buffers have a padded tail of zeros for the 4-wide loads.
  float sx[MAX_ROW], sz[MAX_ROW];
  const int n = m_params.gridSize;
  for (int x = n; x < ((n + 3) & ~3); ++x) sx[x] = sz[x] = 0;
  const float limSqr = sqr(vmax + cs / 2);
  float minPenalty = FLT_MAX;
  int ns = 0;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      sx[x] = cvx + float(x) * cs - half;
      sz[x] = cvz + float(y) * cs - half;
    }
    ns += scoreSamples(sx, sz, n, limSqr, cs, vel, dvel, minPenalty, nvel, debug);
  }
  return ns;
}

int ObstacleAvoidanceQuery::sampleVelocityAdaptive(const float* pos, float rad, float vmax, const float* vel,
                                                   const float* dvel, float* nvel,
                                                   const ObstacleAvoidanceParams* params,
                                                   ObstacleAvoidanceDebugData* debug) {
  prepare(pos, rad, dvel);
  m_params = *params;
  m_invHorizTime = 1.0f / m_params.horizTime;
  m_vmax = vmax;
  m_invVmax = vmax > 0 ? 1.0f / vmax : FLT_MAX;

  vset(nvel, 0, 0, 0);
  if (debug) debug->reset();

  // The pattern: (0, 0), then per ring (radius (nr - j) / nr) a point along the desired direction
  // (odd rings: rotated by half a step) and the others fanning out right and left by da.
  // [(x, z) * npat]. Two spare slots: with an even division count the ring's closing point is
  // written one slot past its end and an unwritten slot is sampled, as Detour 1.5.1 does (there
  // the slot holds whatever the stack had; here it is zero, or the previous ring's closing point).
  float pat[MAX_PATTERN * 2 + 2];
  int npat = 0;

  const int nd = clamp(int(m_params.adaptiveDivs), 1, MAX_PATTERN_DIVS);
  const int nr = clamp(int(m_params.adaptiveRings), 1, MAX_PATTERN_RINGS);
  // The slots the pattern reaches (its points, one past the end): each ring has its first point,
  // (nd - 1) / 2 pairs and, with an even nd, the closing point.
  const int patSlots = 1 + nr * (1 + 2 * ((nd - 1) / 2) + ((nd & 1) == 0 ? 1 : 0));
  std::memset(pat, 0, sizeof(float) * size_t(patSlots * 2 + 2));
  const int depth = m_params.adaptiveDepth;
  const float da = (1.0f / float(nd)) * PI * 2;
  const float ca = std::cos(da);
  const float sa = std::sin(da);

  // Desired direction and the same rotated by da/2.
  float ddir[6];
  vcopy(ddir, dvel);
  normalize2D(ddir);
  rotate2D(ddir + 3, ddir, da * 0.5f);

  pat[0] = 0;
  pat[1] = 0;
  npat++;

  for (int j = 0; j < nr; ++j) {
    const float r = float(nr - j) / float(nr);
    pat[npat * 2 + 0] = ddir[(j % 2) * 3] * r;
    pat[npat * 2 + 1] = ddir[(j % 2) * 3 + 2] * r;
    const float* last1 = pat + npat * 2;
    const float* last2 = last1;
    npat++;

    for (int i = 1; i < nd - 1; i += 2) {
      // Next point on the right (clockwise) and on the left (counter-clockwise).
      pat[npat * 2 + 0] = last1[0] * ca + last1[1] * sa;
      pat[npat * 2 + 1] = -last1[0] * sa + last1[1] * ca;
      pat[npat * 2 + 2] = last2[0] * ca - last2[1] * sa;
      pat[npat * 2 + 3] = last2[0] * sa + last2[1] * ca;
      last1 = pat + npat * 2;
      last2 = last1 + 2;
      npat += 2;
    }

    if ((nd & 1) == 0) {
      pat[npat * 2 + 2] = last2[0] * ca - last2[1] * sa;
      pat[npat * 2 + 3] = last2[0] * sa + last2[1] * ca;
      npat++;
    }
  }

  // Sample the pattern scaled by cr around res, move res to the best sample, halve cr, repeat.
  float cr = vmax * (1.0f - m_params.velBias);
  float res[3];
  vset(res, dvel[0] * m_params.velBias, 0, dvel[2] * m_params.velBias);
  int ns = 0;
  // The scaled pattern, with a padded tail of zeros for the 4-wide loads.
  float sx[MAX_PATTERN + 3], sz[MAX_PATTERN + 3];
  for (int i = npat; i < ((npat + 3) & ~3); ++i) sx[i] = sz[i] = 0;
  const float limSqr = sqr(vmax + 0.001f);

  for (int k = 0; k < depth; ++k) {
    float minPenalty = FLT_MAX;
    float bvel[3];
    vset(bvel, 0, 0, 0);

    for (int i = 0; i < npat; ++i) {
      sx[i] = res[0] + pat[i * 2 + 0] * cr;
      sz[i] = res[2] + pat[i * 2 + 1] * cr;
    }
    ns += scoreSamples(sx, sz, npat, limSqr, cr / 10, vel, dvel, minPenalty, bvel, debug);
    vcopy(res, bvel);
    cr *= 0.5f;
  }

  vcopy(nvel, res);
  return ns;
}

} // namespace crowd
} // namespace nav
