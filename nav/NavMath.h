// NavMath.h: small float[3] helpers of the nav runtime (vectors are float[3] = (x, y, z), y up;
// "2D" means the xz-plane).
//
// Every function computes in float, in the order of the textbook formula it implements, so results
// agree bit for bit with the reference runtime (Detour) on the same input; tests check this.
#pragma once

#include <cmath>
#include <cstdint>

namespace nav {

template <class T> inline T navMin(T a, T b) { return a < b ? a : b; }
template <class T> inline T navMax(T a, T b) { return a > b ? a : b; }
template <class T> inline T navAbs(T a) { return a < 0 ? -a : a; }
template <class T> inline T sqr(T a) { return a * a; }
template <class T> inline T clamp(T v, T mn, T mx) { return v < mn ? mn : (v > mx ? mx : v); }
template <class T> inline void navSwap(T& a, T& b) { T t = a; a = b; b = t; }

inline void vcross(float* dest, const float* v1, const float* v2) {
  dest[0] = v1[1] * v2[2] - v1[2] * v2[1];
  dest[1] = v1[2] * v2[0] - v1[0] * v2[2];
  dest[2] = v1[0] * v2[1] - v1[1] * v2[0];
}
inline float vdot(const float* v1, const float* v2) { return v1[0] * v2[0] + v1[1] * v2[1] + v1[2] * v2[2]; }
/// dest = v1 + v2 * s
inline void vmad(float* dest, const float* v1, const float* v2, float s) {
  dest[0] = v1[0] + v2[0] * s;
  dest[1] = v1[1] + v2[1] * s;
  dest[2] = v1[2] + v2[2] * s;
}
/// dest = v1 + (v2 - v1) * t
inline void vlerp(float* dest, const float* v1, const float* v2, float t) {
  dest[0] = v1[0] + (v2[0] - v1[0]) * t;
  dest[1] = v1[1] + (v2[1] - v1[1]) * t;
  dest[2] = v1[2] + (v2[2] - v1[2]) * t;
}
inline void vadd(float* dest, const float* v1, const float* v2) {
  dest[0] = v1[0] + v2[0];
  dest[1] = v1[1] + v2[1];
  dest[2] = v1[2] + v2[2];
}
/// dest = v1 - v2
inline void vsub(float* dest, const float* v1, const float* v2) {
  dest[0] = v1[0] - v2[0];
  dest[1] = v1[1] - v2[1];
  dest[2] = v1[2] - v2[2];
}
inline void vscale(float* dest, const float* v, float t) {
  dest[0] = v[0] * t;
  dest[1] = v[1] * t;
  dest[2] = v[2] * t;
}
/// mn = componentwise min(mn, v)
inline void vmin(float* mn, const float* v) {
  mn[0] = navMin(mn[0], v[0]);
  mn[1] = navMin(mn[1], v[1]);
  mn[2] = navMin(mn[2], v[2]);
}
/// mx = componentwise max(mx, v)
inline void vmax(float* mx, const float* v) {
  mx[0] = navMax(mx[0], v[0]);
  mx[1] = navMax(mx[1], v[1]);
  mx[2] = navMax(mx[2], v[2]);
}
inline void vset(float* dest, float x, float y, float z) {
  dest[0] = x;
  dest[1] = y;
  dest[2] = z;
}
inline void vcopy(float* dest, const float* a) {
  dest[0] = a[0];
  dest[1] = a[1];
  dest[2] = a[2];
}
inline float vlen(const float* v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
inline float vlenSqr(const float* v) { return v[0] * v[0] + v[1] * v[1] + v[2] * v[2]; }
inline float vdist(const float* v1, const float* v2) {
  const float dx = v2[0] - v1[0], dy = v2[1] - v1[1], dz = v2[2] - v1[2];
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}
inline float vdistSqr(const float* v1, const float* v2) {
  const float dx = v2[0] - v1[0], dy = v2[1] - v1[1], dz = v2[2] - v1[2];
  return dx * dx + dy * dy + dz * dz;
}
inline float vdist2D(const float* v1, const float* v2) {
  const float dx = v2[0] - v1[0], dz = v2[2] - v1[2];
  return std::sqrt(dx * dx + dz * dz);
}
inline float vdist2DSqr(const float* v1, const float* v2) {
  const float dx = v2[0] - v1[0], dz = v2[2] - v1[2];
  return dx * dx + dz * dz;
}
inline void vnormalize(float* v) {
  const float d = 1.0f / std::sqrt(sqr(v[0]) + sqr(v[1]) + sqr(v[2]));
  v[0] *= d;
  v[1] *= d;
  v[2] *= d;
}
/// True when the points are closer than 1/16384 wu (squared distance test).
/// A compile-time threshold (a function-local static costs a guard check per call) and always
/// inlined: the funnel calls it on every portal.
__attribute__((always_inline)) inline bool vequal(const float* p0, const float* p1) {
  constexpr float thr = (1.0f / 16384.0f) * (1.0f / 16384.0f);
  return vdistSqr(p0, p1) < thr;
}
/// x * 0 is 0 for a finite x and NaN for an infinite or NaN one: one test (and one branch) for
/// the three components.
inline bool visfinite(const float* v) { return v[0] * 0.0f + v[1] * 0.0f + v[2] * 0.0f == 0.0f; }
inline bool visfinite2D(const float* v) { return std::isfinite(v[0]) && std::isfinite(v[2]); }
inline float vdot2D(const float* u, const float* v) { return u[0] * v[0] + u[2] * v[2]; }
/// u.z * v.x - u.x * v.z
inline float vperp2D(const float* u, const float* v) { return u[2] * v[0] - u[0] * v[2]; }

/// Twice the signed xz-area of triangle abc; positive when abc is clockwise seen from above (+y).
inline float triArea2D(const float* a, const float* b, const float* c) {
  const float abx = b[0] - a[0], abz = b[2] - a[2];
  const float acx = c[0] - a[0], acz = c[2] - a[2];
  return acx * abz - abx * acz;
}

/// Quantised (BV) boxes overlap, bounds inclusive.
inline bool overlapQuantBounds(const uint16_t amin[3], const uint16_t amax[3], const uint16_t bmin[3],
                               const uint16_t bmax[3]) {
  return !(amin[0] > bmax[0] || amax[0] < bmin[0] || amin[1] > bmax[1] || amax[1] < bmin[1] ||
           amin[2] > bmax[2] || amax[2] < bmin[2]);
}
/// Float boxes overlap, bounds inclusive.
inline bool overlapBounds(const float* amin, const float* amax, const float* bmin, const float* bmax) {
  return !(amin[0] > bmax[0] || amax[0] < bmin[0] || amin[1] > bmax[1] || amax[1] < bmin[1] ||
           amin[2] > bmax[2] || amax[2] < bmin[2]);
}

/// Closest point to p on triangle abc (3D, Voronoi-region method).
inline void closestPtPointTriangle(float* closest, const float* p, const float* a, const float* b, const float* c) {
  float ab[3], ac[3], ap[3];
  vsub(ab, b, a);
  vsub(ac, c, a);
  vsub(ap, p, a);
  const float d1 = vdot(ab, ap), d2 = vdot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) { vcopy(closest, a); return; }
  float bp[3];
  vsub(bp, p, b);
  const float d3 = vdot(ab, bp), d4 = vdot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) { vcopy(closest, b); return; }
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    const float v = d1 / (d1 - d3);
    closest[0] = a[0] + v * ab[0];
    closest[1] = a[1] + v * ab[1];
    closest[2] = a[2] + v * ab[2];
    return;
  }
  float cp[3];
  vsub(cp, p, c);
  const float d5 = vdot(ab, cp), d6 = vdot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) { vcopy(closest, c); return; }
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    const float w = d2 / (d2 - d6);
    closest[0] = a[0] + w * ac[0];
    closest[1] = a[1] + w * ac[1];
    closest[2] = a[2] + w * ac[2];
    return;
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
    const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    closest[0] = b[0] + w * (c[0] - b[0]);
    closest[1] = b[1] + w * (c[1] - b[1]);
    closest[2] = b[2] + w * (c[2] - b[2]);
    return;
  }
  const float denom = 1.0f / (va + vb + vc);
  const float v = vb * denom, w = vc * denom;
  closest[0] = a[0] + ab[0] * v + ac[0] * w;
  closest[1] = a[1] + ab[1] * v + ac[1] * w;
  closest[2] = a[2] + ab[2] * v + ac[2] * w;
}

/// Height h of triangle abc at p (x, z) when p is inside it in 2D (edges inclusive); false for
/// points outside or degenerate (zero xz-area) triangles.
inline bool closestHeightPointTriangle(const float* p, const float* a, const float* b, const float* c, float& h) {
  const float EPS = 1e-6f;
  float v0[3], v1[3], v2[3];
  vsub(v0, c, a);
  vsub(v1, b, a);
  vsub(v2, p, a);
  float denom = v0[0] * v1[2] - v0[2] * v1[0];
  if (std::fabs(denom) < EPS) return false;
  float u = v1[2] * v2[0] - v1[0] * v2[2];
  float v = v0[0] * v2[2] - v0[2] * v2[0];
  if (denom < 0) { denom = -denom; u = -u; v = -v; }
  if (u >= 0.0f && v >= 0.0f && (u + v) <= denom) {
    h = a[1] + (v0[1] * u + v1[1] * v) / denom;
    return true;
  }
  return false;
}

/// Squared xz-distance from pt to segment pq; t = parameter of the closest point on pq [0..1].
__attribute__((always_inline)) inline float distancePtSegSqr2D(const float* pt, const float* p, const float* q, float& t) {
  const float pqx = q[0] - p[0], pqz = q[2] - p[2];
  float dx = pt[0] - p[0], dz = pt[2] - p[2];
  const float d = pqx * pqx + pqz * pqz;
  t = pqx * dx + pqz * dz;
  if (d > 0) t /= d;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  dx = p[0] + t * pqx - pt[0];
  dz = p[2] + t * pqz - pt[2];
  return dx * dx + dz * dz;
}

/// Clips segment p0-p1 (xz) against a convex polygon [(x, y, z) * nverts]. On overlap returns true
/// with the entry/exit parameters tmin <= tmax along the segment and the indices of the polygon edges
/// crossed there (segMin/segMax, -1 when the segment starts/ends inside).
inline bool intersectSegmentPoly2D(const float* p0, const float* p1, const float* verts, int nverts, float& tmin,
                                   float& tmax, int& segMin, int& segMax) {
  const float EPS = 0.00000001f;
  tmin = 0;
  tmax = 1;
  segMin = -1;
  segMax = -1;
  float dir[3];
  vsub(dir, p1, p0);
  for (int i = 0, j = nverts - 1; i < nverts; j = i++) {
    float edge[3], diff[3];
    vsub(edge, &verts[i * 3], &verts[j * 3]);
    vsub(diff, p0, &verts[j * 3]);
    const float n = vperp2D(edge, diff);
    const float d = vperp2D(dir, edge);
    if (std::fabs(d) < EPS) {
      // Parallel to this edge: outside it means no overlap at all.
      if (n < 0) return false;
      continue;
    }
    const float t = n / d;
    if (d < 0) {
      if (t > tmin) {
        tmin = t;
        segMin = j;
        if (tmin > tmax) return false;
      }
    } else {
      if (t < tmax) {
        tmax = t;
        segMax = j;
        if (tmax < tmin) return false;
      }
    }
  }
  return true;
}

/// Intersection of lines ap-aq and bp-bq in xz: ap + s*(aq-ap) = bp + t*(bq-bp). False if parallel.
inline bool intersectSegSeg2D(const float* ap, const float* aq, const float* bp, const float* bq, float& s, float& t) {
  float u[3], v[3], w[3];
  vsub(u, aq, ap);
  vsub(v, bq, bp);
  vsub(w, ap, bp);
  const float d = u[0] * v[2] - u[2] * v[0];
  if (std::fabs(d) < 1e-6f) return false;
  s = (v[0] * w[2] - v[2] * w[0]) / d;
  t = (u[0] * w[2] - u[2] * w[0]) / d;
  return true;
}

/// Point in polygon (xz, crossing test) for a polygon [(x, y, z) * nverts].
inline bool pointInPolygon(const float* pt, const float* verts, int nverts) {
  bool c = false;
  for (int i = 0, j = nverts - 1; i < nverts; j = i++) {
    const float* vi = &verts[i * 3];
    const float* vj = &verts[j * 3];
    if (((vi[2] > pt[2]) != (vj[2] > pt[2])) &&
        (pt[0] < (vj[0] - vi[0]) * (pt[2] - vi[2]) / (vj[2] - vi[2]) + vi[0]))
      c = !c;
  }
  return c;
}

/// pointInPolygon on a polygon given as vertex indices into a vertex array [(x, y, z) * n], without
/// copying the vertices. idx: [Size: nverts].
inline bool pointInPolygonIdx(const float* pt, const float* vertArray, const uint16_t* idx, int nverts) {
  bool c = false;
  const float px = pt[0], pz = pt[2];
  const float* vj = &vertArray[idx[nverts - 1] * 3];
  bool jAbove = vj[2] > pz;
  for (int i = 0; i < nverts; ++i) {
    const float* vi = &vertArray[idx[i] * 3];
    const bool iAbove = vi[2] > pz;
    if (iAbove != jAbove && (px < (vj[0] - vi[0]) * (pz - vi[2]) / (vj[2] - vi[2]) + vi[0])) c = !c;
    vj = vi;
    jAbove = iAbove;
  }
  return c;
}

/// pointInPolygon plus, per edge j (from vertex j to j+1), the squared xz-distance ed[j] from pt and
/// the segment parameter et[j] of the closest point. ed, et: [Size: nverts].
inline bool distancePtPolyEdgesSqr(const float* pt, const float* verts, int nverts, float* ed, float* et) {
  bool c = false;
  for (int i = 0, j = nverts - 1; i < nverts; j = i++) {
    const float* vi = &verts[i * 3];
    const float* vj = &verts[j * 3];
    if (((vi[2] > pt[2]) != (vj[2] > pt[2])) &&
        (pt[0] < (vj[0] - vi[0]) * (pt[2] - vi[2]) / (vj[2] - vi[2]) + vi[0]))
      c = !c;
    ed[j] = distancePtSegSqr2D(pt, vj, vi, et[j]);
  }
  return c;
}

/// Centroid of the vertices idx[0..nidx) of verts [(x, y, z) * n].
inline void calcPolyCenter(float* tc, const uint16_t* idx, int nidx, const float* verts) {
  tc[0] = 0.0f;
  tc[1] = 0.0f;
  tc[2] = 0.0f;
  for (int j = 0; j < nidx; ++j) {
    const float* v = &verts[idx[j] * 3];
    tc[0] += v[0];
    tc[1] += v[1];
    tc[2] += v[2];
  }
  const float s = 1.0f / nidx;
  tc[0] *= s;
  tc[1] *= s;
  tc[2] *= s;
}

namespace detail {
inline void projectPoly(const float* axis, const float* poly, int npoly, float& rmin, float& rmax) {
  rmin = rmax = vdot2D(axis, &poly[0]);
  for (int i = 1; i < npoly; ++i) {
    const float d = vdot2D(axis, &poly[i * 3]);
    rmin = navMin(rmin, d);
    rmax = navMax(rmax, d);
  }
}
inline bool overlapRange(float amin, float amax, float bmin, float bmax, float eps) {
  return !((amin + eps) > bmax || (amax - eps) < bmin);
}
} // namespace detail

/// Two convex polygons overlap in xz (separating axis test, touching within 1e-4 counts as apart).
inline bool overlapPolyPoly2D(const float* polya, int npolya, const float* polyb, int npolyb) {
  const float eps = 1e-4f;
  for (int i = 0, j = npolya - 1; i < npolya; j = i++) {
    const float* va = &polya[j * 3];
    const float* vb = &polya[i * 3];
    const float n[3] = {vb[2] - va[2], 0, -(vb[0] - va[0])};
    float amin, amax, bmin, bmax;
    detail::projectPoly(n, polya, npolya, amin, amax);
    detail::projectPoly(n, polyb, npolyb, bmin, bmax);
    if (!detail::overlapRange(amin, amax, bmin, bmax, eps)) return false;
  }
  for (int i = 0, j = npolyb - 1; i < npolyb; j = i++) {
    const float* va = &polyb[j * 3];
    const float* vb = &polyb[i * 3];
    const float n[3] = {vb[2] - va[2], 0, -(vb[0] - va[0])};
    float amin, amax, bmin, bmax;
    detail::projectPoly(n, polya, npolya, amin, amax);
    detail::projectPoly(n, polyb, npolyb, bmin, bmax);
    if (!detail::overlapRange(amin, amax, bmin, bmax, eps)) return false;
  }
  return true;
}

/// A point in a convex polygon pts [(x, y, z) * npts] picked by two uniform numbers s, t in [0, 1)
/// (area-weighted fan triangle, then uniform in the triangle). areas: scratch [Size: npts].
inline void randomPointInConvexPoly(const float* pts, int npts, float* areas, float s, float t, float* out) {
  float areasum = 0.0f;
  for (int i = 2; i < npts; i++) {
    areas[i] = triArea2D(&pts[0], &pts[(i - 1) * 3], &pts[i * 3]);
    areasum += navMax(0.001f, areas[i]);
  }
  const float thr = s * areasum;
  float acc = 0.0f;
  float u = 1.0f;
  int tri = npts - 1;
  for (int i = 2; i < npts; i++) {
    const float dacc = areas[i];
    if (thr >= acc && thr < (acc + dacc)) {
      u = (thr - acc) / dacc;
      tri = i;
      break;
    }
    acc += dacc;
  }
  const float v = std::sqrt(t);
  const float a = 1 - v;
  const float b = (1 - u) * v;
  const float c = u * v;
  const float* pa = &pts[0];
  const float* pb = &pts[(tri - 1) * 3];
  const float* pc = &pts[tri * 3];
  out[0] = a * pa[0] + b * pb[0] + c * pc[0];
  out[1] = a * pa[1] + b * pb[1] + c * pc[1];
  out[2] = a * pa[2] + b * pb[2] + c * pc[2];
}

/// The tile side facing `side` (0..7, counter-clockwise from +x).
inline int oppositeTile(int side) { return (side + 4) & 0x7; }

} // namespace nav
