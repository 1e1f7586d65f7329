#include "app/model/EditVolumes.h"

#include "app/model/BakeRunner.h"
#include "app/model/LevelEditor.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace navbench {

using nav::bake::ConvexVolume;

namespace {

/// RecastDemo's cmppt: a before b, by x then z.
bool lowerLeft(const float* a, const float* b) {
  if (a[0] != b[0]) return a[0] < b[0];
  return a[2] < b[2];
}
/// RecastDemo's left: c is right of a -> b seen from above (xz cross product < 0).
bool leftOf(const float* a, const float* b, const float* c) {
  const float u1 = b[0] - a[0], v1 = b[2] - a[2];
  const float u2 = c[0] - a[0], v2 = c[2] - a[2];
  return u1 * v2 - v1 * u2 < 0;
}

/// Twice the signed xz area of a polygon.
float area2(const std::vector<float>& verts) {
  const size_t n = verts.size() / 3;
  float a = 0;
  for (size_t i = 0; i < n; ++i) {
    const float* p = &verts[i * 3];
    const float* q = &verts[((i + 1) % n) * 3];
    a += p[0] * q[2] - q[0] * p[2];
  }
  return a;
}

bool insideXz(const std::vector<float>& verts, float x, float z) {
  const size_t n = verts.size() / 3;
  bool in = false;
  for (size_t i = 0, j = n - 1; i < n; j = i++) {
    const float* vi = &verts[i * 3];
    const float* vj = &verts[j * 3];
    if (((vi[2] > z) != (vj[2] > z)) && (x < (vj[0] - vi[0]) * (z - vi[2]) / (vj[2] - vi[2]) + vi[0])) in = !in;
  }
  return in;
}

glm::vec3 at(const std::vector<float>& v, size_t i) { return glm::vec3(v[i * 3], v[i * 3 + 1], v[i * 3 + 2]); }

} // namespace

std::vector<int> EditVolumes::convexHull(const std::vector<float>& pts) {
  const int n = int(pts.size() / 3);
  std::vector<int> out;
  if (n == 0) return out;
  int hull = 0;
  for (int i = 1; i < n; ++i)
    if (lowerLeft(&pts[size_t(i) * 3], &pts[size_t(hull) * 3])) hull = i;
  int endpt = 0;
  do {
    out.push_back(hull);
    endpt = 0;
    for (int j = 1; j < n; ++j)
      if (hull == endpt || leftOf(&pts[size_t(hull) * 3], &pts[size_t(endpt) * 3], &pts[size_t(j) * 3])) endpt = j;
    hull = endpt;
  } while (endpt != out[0] && int(out.size()) <= n); // the bound: never loop on degenerate input
  if (int(out.size()) > n) out.resize(size_t(n));
  return out;
}

void EditVolumes::reset() {
  m_pts.clear();
  m_hull.clear();
  m_sel.index = -1;
  message.clear();
}

void EditVolumes::clear() {
  m_pts.clear();
  m_hull.clear();
  m_sel.index = -1;
}

void EditVolumes::fail(const std::string& why) { message.fail(m_ctx.log, "Convex Volumes: " + why); }

int EditVolumes::volumeAt(const glm::vec3& p) const {
  if (!m_ctx.editor) return -1;
  const auto& vols = m_ctx.editor->volumes();
  int best = -1;
  float bestArea = 0;
  for (size_t i = 0; i < vols.size(); ++i) {
    const ConvexVolume& v = vols[i];
    if (v.verts.size() < 9 || p.y < v.hmin - 0.1f || p.y > v.hmax + 0.1f || !insideXz(v.verts, p.x, p.z)) continue;
    const float a = std::fabs(area2(v.verts));
    if (best < 0 || a < bestArea) { // nested volumes: the smallest one
      best = int(i);
      bestArea = a;
    }
  }
  return best;
}

void EditVolumes::select(int index) {
  m_sel.index = -1;
  if (!m_ctx.editor || index < 0 || index >= int(m_ctx.editor->volumes().size())) return;
  m_sel.index = index;
  m_sel.value = m_ctx.editor->volumes()[size_t(index)];
  editMin = m_sel.value.hmin;
  editMax = m_sel.value.hmax;
  message.clear();
}

void EditVolumes::syncSelection() {
  if (m_ctx.editor) m_sel.follow(m_ctx.editor->volumes(), sameVolume);
}

void EditVolumes::click(const glm::vec3& rayStart, const glm::vec3& hit, bool shift) {
  syncSelection();
  if (m_pts.empty() && !shift) {
    const int v = volumeAt(hit);
    if (v >= 0) {
      select(v);
      return;
    }
  }
  m_sel.index = -1;
  const float closeRadius = std::max(0.2f, 0.012f * glm::length(hit - rayStart));
  if (!m_pts.empty() && glm::length(hit - at(m_pts, 0)) < closeRadius) {
    close();
    return;
  }
  if (int(m_pts.size() / 3) >= kMaxPoints) {
    fail("a volume has at most " + std::to_string(kMaxPoints) + " points: close it (Enter) or start again (Esc)");
    return;
  }
  m_pts.insert(m_pts.end(), {hit.x, hit.y, hit.z});
  m_hull = convexHull(m_pts);
  message.clear();
}

void EditVolumes::hullSpan(float* hmin, float* hmax) const {
  float low = 1e30f;
  for (int i : m_hull) low = std::min(low, m_pts[size_t(i) * 3 + 1]);
  *hmin = low - offset;
  *hmax = *hmin + height;
}

bool EditVolumes::close() {
  if (m_pts.empty()) return false;
  const size_t n = m_pts.size() / 3;
  int distinct = 0;
  for (size_t i = 0; i < n; ++i) {
    bool same = false;
    for (size_t j = 0; j < i && !same; ++j)
      same = std::fabs(m_pts[i * 3] - m_pts[j * 3]) < 1e-3f && std::fabs(m_pts[i * 3 + 2] - m_pts[j * 3 + 2]) < 1e-3f;
    distinct += same ? 0 : 1;
  }
  if (distinct < 3) {
    fail("not added: a volume needs at least 3 distinct points (it has " + std::to_string(distinct) + ")");
    return false;
  }
  ConvexVolume v;
  m_hull = convexHull(m_pts);
  for (int i : m_hull) v.verts.insert(v.verts.end(), &m_pts[size_t(i) * 3], &m_pts[size_t(i) * 3] + 3);
  if (m_hull.size() < 3 || std::fabs(area2(v.verts)) < 1e-4f) {
    fail("not added: the volume has no area (its points are in a line)");
    return false;
  }
  hullSpan(&v.hmin, &v.hmax);
  v.area = area;
  std::string why;
  if (!m_ctx.editor) why = "no level editor";
  if (!m_ctx.editor || !m_ctx.editor->addVolume(v, &why)) {
    fail("not added: " + why);
    return false;
  }
  const int index = int(m_ctx.editor->volumes().size()) - 1;
  char buf[160];
  std::snprintf(buf, sizeof buf, "added volume %d: %s, %d points, %.2f .. %.2f", index, areaLabel(v.area).c_str(),
                int(v.verts.size() / 3), double(v.hmin), double(v.hmax));
  message.done(buf);
  m_pts.clear();
  m_hull.clear();
  return true;
}

bool EditVolumes::applySelected(const ConvexVolume& v, const char* what) {
  if (m_sel.index < 0 || !m_ctx.editor) return false;
  std::string why;
  if (!m_ctx.editor->setVolume(m_sel.index, v, &why)) {
    fail(std::string(what) + ": " + why);
    editMin = m_sel.value.hmin;
    editMax = m_sel.value.hmax;
    return false;
  }
  m_sel.value = v;
  message.done("changed volume " + std::to_string(m_sel.index));
  return true;
}

bool EditVolumes::removeSelected() {
  syncSelection();
  if (m_sel.index < 0 || !m_ctx.editor) return false;
  std::string why;
  const int index = m_sel.index;
  if (!m_ctx.editor->removeVolume(index, &why)) {
    fail("not removed: " + why);
    return false;
  }
  m_sel.index = -1;
  message.done("removed volume " + std::to_string(index));
  return true;
}

void EditVolumes::dumpState(nlohmann::json& out) const {
  out["points"] = m_pts;
  out["hull"] = m_hull;
  out["area"] = int(area);
  out["height"] = height;
  out["offset"] = offset;
  out["selected"] = m_sel.index;
  out["volumes"] = m_ctx.editor ? int(m_ctx.editor->volumes().size()) : 0;
  message.dump(out);
}

} // namespace navbench
