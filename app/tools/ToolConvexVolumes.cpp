#include "app/tools/ToolConvexVolumes.h"

#include "app/LevelEditor.h"
#include "app/NavDraw.h"
#include "render/DebugDraw.h"

#include <imgui.h>
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

bool sameVolume(const ConvexVolume& a, const ConvexVolume& b) {
  return a.verts == b.verts && a.hmin == b.hmin && a.hmax == b.hmax && a.area == b.area;
}

glm::vec3 at(const std::vector<float>& v, size_t i) { return glm::vec3(v[i * 3], v[i * 3 + 1], v[i * 3 + 2]); }

/// A wire prism from hmin to hmax with a faint top, in the area's colour (RecastDemo's look).
void drawVolume(render::DebugDraw& dd, const ConvexVolume& v, bool selected) {
  const size_t n = v.verts.size() / 3;
  if (n < 3) return;
  const uint32_t line = selected ? render::rgba(255, 230, 60, 255) : areaColor(v.area, 220);
  const uint32_t fill = areaColor(v.area, selected ? 90 : 45);
  const float w = selected ? 3.0f : 1.5f;
  const glm::vec3 c0 = at(v.verts, 0);
  for (size_t i = 0; i < n; ++i) {
    glm::vec3 a = at(v.verts, i), b = at(v.verts, (i + 1) % n);
    glm::vec3 a0(a.x, v.hmin, a.z), a1(a.x, v.hmax, a.z), b0(b.x, v.hmin, b.z), b1(b.x, v.hmax, b.z);
    dd.line(a0, b0, line, w);
    dd.line(a1, b1, line, w);
    dd.line(a0, a1, line, w * 0.66f);
    if (i > 0 && i + 1 < n) dd.triangle(glm::vec3(c0.x, v.hmax, c0.z), a1, b1, fill);
  }
}

} // namespace

std::vector<int> ToolConvexVolumes::convexHull(const std::vector<float>& pts) {
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

void ToolConvexVolumes::reset() {
  m_pts.clear();
  m_hull.clear();
  m_sel = -1;
  m_msg.clear();
}

void ToolConvexVolumes::fail(const std::string& why) { m_msg.set(m_ctx ? m_ctx->log : nullptr, "Convex Volumes: " + why, true); }

int ToolConvexVolumes::volumeAt(const glm::vec3& p) const {
  if (!m_ctx || !m_ctx->editor) return -1;
  const auto& vols = m_ctx->editor->volumes();
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

void ToolConvexVolumes::select(int index) {
  m_sel = -1;
  if (!m_ctx || !m_ctx->editor || index < 0 || index >= int(m_ctx->editor->volumes().size())) return;
  m_sel = index;
  m_selVol = m_ctx->editor->volumes()[size_t(index)];
  m_editMin = m_selVol.hmin;
  m_editMax = m_selVol.hmax;
  m_msg.clear();
}

void ToolConvexVolumes::syncSelection() {
  // An undo / redo (or another edit) may have changed the list: follow the selected volume, or
  // drop the selection when it is gone.
  if (m_sel < 0 || !m_ctx || !m_ctx->editor) return;
  const auto& vols = m_ctx->editor->volumes();
  if (m_sel < int(vols.size()) && sameVolume(vols[size_t(m_sel)], m_selVol)) return;
  for (size_t i = 0; i < vols.size(); ++i)
    if (sameVolume(vols[i], m_selVol)) {
      m_sel = int(i);
      return;
    }
  m_sel = -1;
}

void ToolConvexVolumes::onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) {
  if (!m_ctx) return;
  syncSelection();
  if (m_pts.empty() && !shift) {
    const int v = volumeAt(hitPos);
    if (v >= 0) {
      select(v);
      return;
    }
  }
  m_sel = -1;
  // A click on the first point closes the outline (a few pixels: a share of the view distance).
  const float closeRadius = std::max(0.2f, 0.012f * glm::length(hitPos - rayStart));
  if (!m_pts.empty() && glm::length(hitPos - at(m_pts, 0)) < closeRadius) {
    close();
    return;
  }
  if (int(m_pts.size() / 3) >= kMaxPoints) {
    fail("a volume has at most " + std::to_string(kMaxPoints) + " points: close it (Enter) or start again (Esc)");
    return;
  }
  m_pts.insert(m_pts.end(), {hitPos.x, hitPos.y, hitPos.z});
  m_hull = convexHull(m_pts);
  m_msg.clear();
}

bool ToolConvexVolumes::close() {
  if (!m_ctx || m_pts.empty()) return false;
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
  float low = v.verts[1];
  for (size_t i = 1; i < v.verts.size() / 3; ++i) low = std::min(low, v.verts[i * 3 + 1]);
  v.hmin = low - m_offset;
  v.hmax = v.hmin + m_height;
  v.area = m_area;
  std::string why;
  if (!m_ctx->editor) why = "no level editor";
  if (!m_ctx->editor || !m_ctx->editor->addVolume(v, &why)) {
    fail("not added: " + why);
    return false;
  }
  const int index = int(m_ctx->editor->volumes().size()) - 1;
  char buf[160];
  std::snprintf(buf, sizeof buf, "added volume %d: %s, %d points, %.2f .. %.2f", index, edit::areaLabel(v.area).c_str(),
                int(v.verts.size() / 3), double(v.hmin), double(v.hmax));
  m_msg.set(nullptr, buf, false); // the editor logs the edit itself
  m_pts.clear();
  m_hull.clear();
  return true;
}

void ToolConvexVolumes::applySelected(const ConvexVolume& v, const char* what) {
  if (m_sel < 0 || !m_ctx || !m_ctx->editor) return;
  std::string why;
  if (!m_ctx->editor->setVolume(m_sel, v, &why)) {
    fail(std::string(what) + ": " + why);
    m_editMin = m_selVol.hmin;
    m_editMax = m_selVol.hmax;
    return;
  }
  m_selVol = v;
  m_msg.set(nullptr, "changed volume " + std::to_string(m_sel), false);
}

void ToolConvexVolumes::removeSelected() {
  syncSelection();
  if (m_sel < 0 || !m_ctx || !m_ctx->editor) return;
  std::string why;
  const int index = m_sel;
  if (!m_ctx->editor->removeVolume(index, &why)) {
    fail("not removed: " + why);
    return;
  }
  m_sel = -1;
  m_msg.set(nullptr, "removed volume " + std::to_string(index), false);
}

void ToolConvexVolumes::update(float /*dt*/) {
  syncSelection();
  if (edit::toolKeyPressed(ImGuiKey_Enter) || edit::toolKeyPressed(ImGuiKey_KeyPadEnter)) close();
  if (edit::toolKeyPressed(ImGuiKey_Escape)) {
    m_pts.clear();
    m_hull.clear();
    m_sel = -1;
  }
  if (edit::toolKeyPressed(ImGuiKey_Delete)) removeSelected();
}

void ToolConvexVolumes::drawUi() {
  m_rects.clear(); // only the widgets of this frame
  LevelEditor* ed = m_ctx ? m_ctx->editor : nullptr;
  ImGui::TextWrapped("Click points (their convex hull); Enter or the first point closes, Esc clears. Click in a volume to "
                     "select it (Shift: never); Del deletes.");
  const bool ready = edit::editorStatus(ed);
  edit::saveButton(ready ? ed : nullptr, m_ctx ? m_ctx->log : nullptr, &m_msg, &m_rects);
  m_msg.show();
  ImGui::Separator();
  syncSelection();
  if (ed && m_sel >= 0) { // the selected volume's values in place of the new one's
    ImGui::Text("Volume %d (%d points)", m_sel, int(m_selVol.verts.size() / 3));
    uint8_t area = m_selVol.area;
    if (edit::areaPicker("sel", &area, &m_rects)) {
      ConvexVolume v = m_selVol;
      v.area = area;
      applySelected(v, "area not changed");
    }
    ImGui::SetNextItemWidth(110);
    ImGui::InputFloat("Bottom", &m_editMin, 0.1f, 1.0f, "%.2f");
    edit::markItem(&m_rects, "sel.bottom");
    if (ImGui::IsItemDeactivatedAfterEdit() && m_sel >= 0) {
      ConvexVolume v = m_selVol;
      v.hmin = m_editMin;
      applySelected(v, "bottom not changed");
    }
    ImGui::SetNextItemWidth(110);
    ImGui::InputFloat("Top", &m_editMax, 0.1f, 1.0f, "%.2f");
    edit::markItem(&m_rects, "sel.top");
    if (ImGui::IsItemDeactivatedAfterEdit() && m_sel >= 0) {
      ConvexVolume v = m_selVol;
      v.hmax = m_editMax;
      applySelected(v, "top not changed");
    }
    if (ImGui::Button("Delete (Del)")) removeSelected();
    edit::markItem(&m_rects, "delete");
    ImGui::SameLine();
    if (ImGui::Button("Deselect")) m_sel = -1;
  } else {
    ImGui::Text("New volume: %d points (hull %d)", int(m_pts.size() / 3), int(m_hull.size()));
    edit::areaPicker("new", &m_area, &m_rects);
    ImGui::SetNextItemWidth(110);
    ImGui::DragFloat("Height", &m_height, 0.05f, 0.1f, 100.0f, "%.2f m");
    ImGui::SetNextItemWidth(110);
    ImGui::DragFloat("Offset below floor", &m_offset, 0.05f, 0.0f, 100.0f, "%.2f m");
    m_height = std::max(m_height, 0.1f);
    m_offset = std::max(m_offset, 0.0f);
    ImGui::BeginDisabled(m_pts.empty());
    if (ImGui::Button("Close (Enter)")) close();
    edit::markItem(&m_rects, "close");
    ImGui::SameLine();
    if (ImGui::Button("Clear (Esc)")) {
      m_pts.clear();
      m_hull.clear();
    }
    ImGui::EndDisabled();
  }
  if (!ed) return;
  const auto& vols = ed->volumes();
  ImGui::Separator();
  ImGui::Text("Volumes: %d", int(vols.size()));
  for (size_t i = 0; i < vols.size(); ++i) {
    char label[96];
    std::snprintf(label, sizeof label, "%d: %s, %d points, %.2f .. %.2f##vol%d", int(i), edit::areaLabel(vols[i].area).c_str(),
                  int(vols[i].verts.size() / 3), double(vols[i].hmin), double(vols[i].hmax), int(i));
    if (ImGui::Selectable(label, m_sel == int(i))) select(m_sel == int(i) ? -1 : int(i));
  }
}

void ToolConvexVolumes::draw(render::DebugDraw& dd) {
  if (!m_ctx) return;
  if (m_ctx->editor) {
    const auto& vols = m_ctx->editor->volumes();
    for (size_t i = 0; i < vols.size(); ++i) drawVolume(dd, vols[i], int(i) == m_sel);
  }
  if (m_pts.empty()) return;
  const glm::vec3 up(0, 0.1f, 0);
  const uint32_t pointCol = render::rgba(255, 255, 255, 230), hullCol = areaColor(m_area, 255);
  const size_t n = m_pts.size() / 3;
  for (size_t i = 0; i < n; ++i) dd.point(at(m_pts, i) + up, i == 0 ? render::rgba(255, 230, 60, 255) : pointCol, i == 0 ? 10.0f : 7.0f, false);
  float low = 1e30f;
  for (int i : m_hull) low = std::min(low, m_pts[size_t(i) * 3 + 1]);
  const float hmin = low - m_offset, hmax = hmin + m_height;
  for (size_t k = 0; k < m_hull.size() && m_hull.size() > 1; ++k) {
    const glm::vec3 a = at(m_pts, size_t(m_hull[k])), b = at(m_pts, size_t(m_hull[(k + 1) % m_hull.size()]));
    dd.line(a + up, b + up, hullCol, 2.5f, false);
    dd.line(glm::vec3(a.x, hmin, a.z), glm::vec3(a.x, hmax, a.z), areaColor(m_area, 120), 1.0f);
    dd.line(glm::vec3(a.x, hmax, a.z), glm::vec3(b.x, hmax, b.z), areaColor(m_area, 120), 1.0f);
  }
  // Where the next click goes: a line from the last point to the cursor.
  if (m_ctx->hoverHit && m_ctx->hoverPos && *m_ctx->hoverHit)
    dd.line(at(m_pts, n - 1) + up, *m_ctx->hoverPos + up, render::rgba(255, 255, 255, 120), 1.5f, false);
}

void ToolConvexVolumes::dumpState(nlohmann::json& out) const {
  out["points"] = m_pts;
  out["hull"] = m_hull;
  out["area"] = int(m_area);
  out["height"] = m_height;
  out["offset"] = m_offset;
  out["selected"] = m_sel;
  out["volumes"] = m_ctx && m_ctx->editor ? int(m_ctx->editor->volumes().size()) : 0;
  m_msg.dump(out);
  edit::dumpRects(m_rects, out["widgets"]);
}

} // namespace navbench
