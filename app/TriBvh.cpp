#include "app/TriBvh.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace navbench {

bool rayTriangle(const glm::vec3& o, const glm::vec3& d, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                 float maxT, PickSides sides, float& t) {
  const glm::vec3 e1 = b - a, e2 = c - a;
  const glm::vec3 p = glm::cross(d, e2);
  // det = -dot(d, e1 x e2): positive when the ray meets the front (counter-clockwise) side.
  const float det = glm::dot(e1, p);
  if (std::abs(det) < 1e-12f) return false; // parallel or degenerate
  if (sides == PickSides::Front && det < 0.0f) return false; // seen from behind: culled, not drawn
  const float inv = 1.0f / det;
  const glm::vec3 s = o - a;
  const float u = glm::dot(s, p) * inv;
  if (u < 0.0f || u > 1.0f) return false;
  const glm::vec3 q = glm::cross(s, e1);
  const float v = glm::dot(d, q) * inv;
  if (v < 0.0f || u + v > 1.0f) return false;
  const float tt = glm::dot(e2, q) * inv;
  if (tt < 0.0f || tt > maxT) return false;
  t = tt;
  return true;
}

void TriBvh::clear() {
  m_verts.clear();
  m_tris.clear();
  m_order.clear();
  m_nodes.clear();
}

bool TriBvh::build(const std::vector<float>& verts, const std::vector<int>& tris, const std::function<bool(float)>& progress) {
  clear();
  const int n = int(tris.size() / 3);
  if (n == 0) return !progress || progress(1.0f);
  auto cancelled = [this] {
    clear();
    return false;
  };
  m_verts = verts;
  m_tris = tris;
  // Per-triangle bounds and centroid, moved around by the splits themselves (contiguous, not
  // reached through an index array: ~2x faster on millions of triangles, same tree).
  struct Prim {
    glm::vec3 centroid, mn, mx;
    int tri;
  };
  std::vector<Prim> prims(static_cast<size_t>(n));
  constexpr int kReportEvery = 1 << 16; // triangles
  for (int i = 0; i < n; ++i) {
    if (progress && (i & (kReportEvery - 1)) == 0 && !progress(kSetupShare * float(i) / float(n))) return cancelled();
    glm::vec3 a = vert(tris[size_t(i) * 3]), b = vert(tris[size_t(i) * 3 + 1]), c = vert(tris[size_t(i) * 3 + 2]);
    prims[size_t(i)] = {(a + b + c) / 3.0f, glm::min(a, glm::min(b, c)), glm::max(a, glm::max(b, c)), i};
  }
  m_nodes.reserve(size_t(2 * n));
  m_nodes.push_back({});

  struct Task {
    int node, first, count;
  };
  std::vector<Task> stack{{0, 0, n}};
  if (progress && !progress(kSetupShare)) return cancelled();
  long long placed = 0, nextReport = kReportEvery; // triangles in finished leaves
  while (!stack.empty()) {
    Task task = stack.back();
    stack.pop_back();
    glm::vec3 mn(std::numeric_limits<float>::max()), mx(-std::numeric_limits<float>::max());
    glm::vec3 cmn = mn, cmx = mx;
    for (int i = task.first; i < task.first + task.count; ++i) {
      const Prim& p = prims[size_t(i)];
      mn = glm::min(mn, p.mn);
      mx = glm::max(mx, p.mx);
      cmn = glm::min(cmn, p.centroid);
      cmx = glm::max(cmx, p.centroid);
    }
    Node& node = m_nodes[size_t(task.node)];
    node.mn = mn;
    node.mx = mx;
    glm::vec3 ext = cmx - cmn;
    int axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2);
    if (task.count <= kLeafSize || ext[axis] <= 0.0f) {
      node.first = task.first;
      node.count = task.count;
      placed += task.count;
      if (progress && placed >= nextReport) {
        nextReport = placed + kReportEvery;
        if (!progress(kSetupShare + (1.0f - kSetupShare) * float(double(placed) / double(n)))) return cancelled();
      }
      continue;
    }
    int mid = task.first + task.count / 2;
    std::nth_element(prims.begin() + task.first, prims.begin() + mid, prims.begin() + task.first + task.count,
                     [axis](const Prim& a, const Prim& b) { return a.centroid[axis] < b.centroid[axis]; });
    int left = int(m_nodes.size());
    node.first = left;
    node.count = 0;
    m_nodes.push_back({});
    m_nodes.push_back({});
    stack.push_back({left, task.first, mid - task.first});
    stack.push_back({left + 1, mid, task.first + task.count - mid});
  }
  m_order.resize(prims.size());
  for (size_t i = 0; i < prims.size(); ++i) m_order[i] = prims[i].tri;
  if (progress && !progress(1.0f)) return cancelled();
  return true;
}

namespace {
// Slab test; returns the entry distance or +inf when the box is missed within [0, maxT].
float rayBox(const glm::vec3& o, const glm::vec3& invD, const glm::vec3& mn, const glm::vec3& mx, float maxT) {
  float t0 = 0.0f, t1 = maxT;
  for (int k = 0; k < 3; ++k) {
    float a = (mn[k] - o[k]) * invD[k], b = (mx[k] - o[k]) * invD[k];
    if (a > b) std::swap(a, b);
    // NaN (0 * inf when the origin lies on a slab plane) compares false and keeps the interval.
    if (a > t0) t0 = a;
    if (b < t1) t1 = b;
    if (t0 > t1) return std::numeric_limits<float>::infinity();
  }
  return t0;
}
} // namespace

bool TriBvh::raycast(const glm::vec3& origin, const glm::vec3& dir, float maxT, PickSides sides, RayHit& hit) const {
  if (m_nodes.empty() || !(maxT >= 0.0f)) return false;
  const glm::vec3 invD(1.0f / dir.x, 1.0f / dir.y, 1.0f / dir.z);
  float best = maxT;
  int bestTri = -1;
  int stack[64];
  int sp = 0;
  if (rayBox(origin, invD, m_nodes[0].mn, m_nodes[0].mx, best) == std::numeric_limits<float>::infinity()) return false;
  stack[sp++] = 0;
  while (sp > 0) {
    const Node& node = m_nodes[size_t(stack[--sp])];
    if (node.count > 0) {
      for (int i = node.first; i < node.first + node.count; ++i) {
        int t = m_order[size_t(i)];
        float tt;
        if (rayTriangle(origin, dir, vert(m_tris[size_t(t) * 3]), vert(m_tris[size_t(t) * 3 + 1]),
                        vert(m_tris[size_t(t) * 3 + 2]), best, sides, tt)) {
          best = tt;
          bestTri = t;
        }
      }
      continue;
    }
    int l = node.first, r = node.first + 1;
    float tl = rayBox(origin, invD, m_nodes[size_t(l)].mn, m_nodes[size_t(l)].mx, best);
    float tr = rayBox(origin, invD, m_nodes[size_t(r)].mn, m_nodes[size_t(r)].mx, best);
    const float inf = std::numeric_limits<float>::infinity();
    // Push the farther child first so the nearer one is visited first.
    if (tl > tr) {
      std::swap(l, r);
      std::swap(tl, tr);
    }
    if (tr != inf && sp < 64) stack[sp++] = r;
    if (tl != inf && sp < 64) stack[sp++] = l;
  }
  if (bestTri < 0) return false;
  glm::vec3 a = vert(m_tris[size_t(bestTri) * 3]), b = vert(m_tris[size_t(bestTri) * 3 + 1]),
            c = vert(m_tris[size_t(bestTri) * 3 + 2]);
  glm::vec3 n = glm::cross(b - a, c - a);
  float len = glm::length(n);
  hit.t = best;
  hit.tri = bestTri;
  hit.pos = origin + dir * best;
  hit.normal = len > 0 ? n / len : glm::vec3(0, 1, 0);
  return true;
}

} // namespace navbench
