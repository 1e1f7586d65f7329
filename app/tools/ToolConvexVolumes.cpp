#include "app/tools/ToolConvexVolumes.h"

#include "app/NavDraw.h"
#include "app/model/LevelEditor.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace navbench {

using nav::bake::ConvexVolume;

namespace {

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

void ToolConvexVolumes::init(ToolContext& ctx) {
  Tool::init(ctx);
  m_model.init({ctx.editor, ctx.nav, ctx.log});
}

void ToolConvexVolumes::onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) {
  if (m_ctx) m_model.click(rayStart, hitPos, shift);
}

void ToolConvexVolumes::update(float /*dt*/) {
  m_model.syncSelection();
  if (edit::toolKeyPressed(ImGuiKey_Enter) || edit::toolKeyPressed(ImGuiKey_KeyPadEnter)) m_model.close();
  if (edit::toolKeyPressed(ImGuiKey_Escape)) m_model.clear();
  if (edit::toolKeyPressed(ImGuiKey_Delete)) m_model.removeSelected();
}

void ToolConvexVolumes::drawUi() {
  m_rects.clear(); // only the widgets of this frame
  EditVolumes& m = m_model;
  LevelEditor* ed = m.editor();
  ImGui::TextWrapped("Click points (their convex hull); Enter or the first point closes, Esc clears. Click in a volume to "
                     "select it (Shift: never); Del deletes.");
  const bool ready = edit::editorStatus(ed);
  edit::saveButton(ready ? ed : nullptr, m_ctx ? m_ctx->log : nullptr, &m.message, &m_rects);
  edit::show(m.message);
  ImGui::Separator();
  m.syncSelection();
  if (ed && m.selected() >= 0) { // the selected volume's values in place of the new one's
    const ConvexVolume& sel = m.selectedVolume();
    ImGui::Text("Volume %d (%d points)", m.selected(), int(sel.verts.size() / 3));
    uint8_t area = sel.area;
    if (edit::areaPicker("sel", &area, &m_rects)) {
      ConvexVolume v = sel;
      v.area = area;
      m.applySelected(v, "area not changed");
    }
    ImGui::SetNextItemWidth(110);
    ImGui::InputFloat("Bottom", &m.editMin, 0.1f, 1.0f, "%.2f");
    edit::markItem(&m_rects, "sel.bottom");
    if (ImGui::IsItemDeactivatedAfterEdit() && m.selected() >= 0) {
      ConvexVolume v = m.selectedVolume();
      v.hmin = m.editMin;
      m.applySelected(v, "bottom not changed");
    }
    ImGui::SetNextItemWidth(110);
    ImGui::InputFloat("Top", &m.editMax, 0.1f, 1.0f, "%.2f");
    edit::markItem(&m_rects, "sel.top");
    if (ImGui::IsItemDeactivatedAfterEdit() && m.selected() >= 0) {
      ConvexVolume v = m.selectedVolume();
      v.hmax = m.editMax;
      m.applySelected(v, "top not changed");
    }
    if (ImGui::Button("Delete (Del)")) m.removeSelected();
    edit::markItem(&m_rects, "delete");
    ImGui::SameLine();
    if (ImGui::Button("Deselect")) m.select(-1);
  } else {
    ImGui::Text("New volume: %d points (hull %d)", int(m.points().size() / 3), int(m.hull().size()));
    edit::areaPicker("new", &m.area, &m_rects);
    ImGui::SetNextItemWidth(110);
    ImGui::DragFloat("Height", &m.height, 0.05f, 0.1f, 100.0f, "%.2f m");
    ImGui::SetNextItemWidth(110);
    ImGui::DragFloat("Offset below floor", &m.offset, 0.05f, 0.0f, 100.0f, "%.2f m");
    m.height = std::max(m.height, 0.1f);
    m.offset = std::max(m.offset, 0.0f);
    ImGui::BeginDisabled(m.points().empty());
    if (ImGui::Button("Close (Enter)")) m.close();
    edit::markItem(&m_rects, "close");
    ImGui::SameLine();
    if (ImGui::Button("Clear (Esc)")) m.clear();
    ImGui::EndDisabled();
  }
  if (!ed) return;
  const auto& vols = ed->volumes();
  ImGui::Separator();
  ImGui::Text("Volumes: %d", int(vols.size()));
  for (size_t i = 0; i < vols.size(); ++i) {
    char label[96];
    std::snprintf(label, sizeof label, "%d: %s, %d points, %.2f .. %.2f##vol%d", int(i), areaLabel(vols[i].area).c_str(),
                  int(vols[i].verts.size() / 3), double(vols[i].hmin), double(vols[i].hmax), int(i));
    if (ImGui::Selectable(label, m.selected() == int(i))) m.select(m.selected() == int(i) ? -1 : int(i));
  }
}

void ToolConvexVolumes::draw(render::DebugDraw& dd) {
  if (!m_ctx) return;
  const EditVolumes& m = m_model;
  if (const LevelEditor* ed = m.editor()) {
    const auto& vols = ed->volumes();
    for (size_t i = 0; i < vols.size(); ++i) drawVolume(dd, vols[i], int(i) == m.selected());
  }
  const std::vector<float>& pts = m.points();
  if (pts.empty()) return;
  const glm::vec3 up(0, 0.1f, 0);
  const uint32_t pointCol = render::rgba(255, 255, 255, 230), hullCol = areaColor(m.area, 255);
  const size_t n = pts.size() / 3;
  for (size_t i = 0; i < n; ++i) dd.point(at(pts, i) + up, i == 0 ? render::rgba(255, 230, 60, 255) : pointCol, i == 0 ? 10.0f : 7.0f, false);
  float hmin = 0, hmax = 0;
  m.hullSpan(&hmin, &hmax);
  const std::vector<int>& hull = m.hull();
  for (size_t k = 0; k < hull.size() && hull.size() > 1; ++k) {
    const glm::vec3 a = at(pts, size_t(hull[k])), b = at(pts, size_t(hull[(k + 1) % hull.size()]));
    dd.line(a + up, b + up, hullCol, 2.5f, false);
    dd.line(glm::vec3(a.x, hmin, a.z), glm::vec3(a.x, hmax, a.z), areaColor(m.area, 120), 1.0f);
    dd.line(glm::vec3(a.x, hmax, a.z), glm::vec3(b.x, hmax, b.z), areaColor(m.area, 120), 1.0f);
  }
  // Where the next click goes: a line from the last point to the cursor.
  if (m_ctx->hoverHit && m_ctx->hoverPos && *m_ctx->hoverHit)
    dd.line(at(pts, n - 1) + up, *m_ctx->hoverPos + up, render::rgba(255, 255, 255, 120), 1.5f, false);
}

void ToolConvexVolumes::dumpState(nlohmann::json& out) const {
  m_model.dumpState(out);
  edit::dumpRects(m_rects, out["widgets"]);
}

} // namespace navbench
