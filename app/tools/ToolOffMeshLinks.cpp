#include "app/tools/ToolOffMeshLinks.h"

#include "app/model/LevelEditor.h"
#include "app/NavDraw.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace navbench {

using nav::bake::OffMeshLink;

namespace {

glm::vec3 v3(const float* p) { return glm::vec3(p[0], p[1], p[2]); }

void drawLink(render::DebugDraw& dd, const OffMeshLink& l, uint32_t color, float width) {
  const glm::vec3 a = v3(l.start), b = v3(l.end), up(0, 0.05f, 0);
  drawArc(dd, a, b, 0.25f * glm::length(b - a) + 0.5f, color, l.bidirectional, width);
  dd.circle(a + up, l.radius, color, 1.5f);
  dd.circle(b + up, l.radius, color, 1.5f);
}

} // namespace

void ToolOffMeshLinks::init(ToolContext& ctx) {
  Tool::init(ctx);
  m_model.init({ctx.editor, ctx.nav, ctx.log});
}

void ToolOffMeshLinks::onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) {
  if (m_ctx) m_model.click(rayStart, hitPos, shift);
}

void ToolOffMeshLinks::update(float /*dt*/) {
  m_model.syncSelection();
  if (edit::toolKeyPressed(ImGuiKey_Escape)) m_model.clear();
  if (edit::toolKeyPressed(ImGuiKey_Delete)) m_model.removeSelected();
}

bool ToolOffMeshLinks::optionsUi(const char* id, OffMeshLink& l, bool* radiusDone) {
  ImGui::PushID(id);
  const std::string key(id);
  bool changed = ImGui::Checkbox("Bidirectional", &l.bidirectional);
  edit::markItem(&m_rects, key + ".bidirectional");
  ImGui::SetNextItemWidth(110);
  ImGui::InputFloat("End radius", &l.radius, 0.1f, 0.5f, "%.2f m");
  edit::markItem(&m_rects, key + ".radius");
  l.radius = std::max(l.radius, 0.05f);
  if (radiusDone) *radiusDone = ImGui::IsItemDeactivatedAfterEdit();
  changed = edit::areaPicker(id, &l.area, &m_rects) || changed;
  ImGui::TextUnformatted("Flags");
  ImGui::SameLine();
  const float x0 = ImGui::GetCursorPosX();
  for (int b = 0; b < nav::FLAG_NAMED_COUNT; ++b) {
    const uint16_t bit = uint16_t(1u << b);
    bool on = (l.flags & bit) != 0;
    if (b % 3 != 0) ImGui::SameLine();
    else if (b > 0) ImGui::SetCursorPosX(x0);
    if (ImGui::Checkbox(nav::flagName(bit), &on)) {
      l.flags = on ? uint16_t(l.flags | bit) : uint16_t(l.flags & ~bit);
      changed = true;
    }
    edit::markItem(&m_rects, key + ".flag." + nav::flagName(bit));
  }
  ImGui::PopID();
  return changed;
}

void ToolOffMeshLinks::drawUi() {
  m_rects.clear(); // only the widgets of this frame
  EditLinks& m = m_model;
  LevelEditor* ed = m.editor();
  ImGui::TextWrapped("Click the start, then the end. Click near an end to select a link (Shift: never); Del deletes, "
                     "Esc drops the start.");
  const bool ready = edit::editorStatus(ed);
  edit::saveButton(ready ? ed : nullptr, m_ctx ? m_ctx->log : nullptr, &m.message, &m_rects);
  if (ready) {
    ImGui::SameLine();
    ImGui::TextDisabled("links up to %.1f m", double(ed->maxLinkLength()));
  }
  edit::show(m.message);
  ImGui::Separator();
  m.syncSelection();
  if (ed && m.selected() >= 0) { // the selected link's options in place of the new one's
    const OffMeshLink& sel = m.selectedLink();
    ImGui::Text("Link %d: %.2f m", m.selected(), double(glm::length(v3(sel.end) - v3(sel.start))));
    bool radiusDone = false; // a typed radius applies when the field is left
    if (optionsUi("sel", m.editLink, &radiusDone) || radiusDone) m.applySelected(m.editLink, "link not changed");
    if (ImGui::Button("Reverse")) {
      OffMeshLink r = m.selectedLink();
      std::swap_ranges(r.start, r.start + 3, r.end);
      m.applySelected(r, "link not reversed");
    }
    ImGui::SameLine();
    if (ImGui::Button("Delete (Del)")) m.removeSelected();
    edit::markItem(&m_rects, "delete");
    ImGui::SameLine();
    if (ImGui::Button("Deselect")) m.select(-1);
  } else {
    const glm::vec3& st = m.start();
    if (m.hasStart()) ImGui::Text("New link from (%.1f, %.1f, %.1f)", double(st.x), double(st.y), double(st.z));
    else ImGui::TextUnformatted("New link");
    optionsUi("new", m.next, nullptr);
  }
  if (!ed) return;
  const auto& ls = ed->links();
  ImGui::Separator();
  ImGui::Text("Links: %d", int(ls.size()));
  for (size_t i = 0; i < ls.size(); ++i) {
    char label[128];
    std::snprintf(label, sizeof label, "%d: %.2f m %s, %s##link%d", int(i), double(glm::length(v3(ls[i].end) - v3(ls[i].start))),
                  ls[i].bidirectional ? "<->" : "->", areaLabel(ls[i].area).c_str(), int(i));
    if (ImGui::Selectable(label, m.selected() == int(i))) m.select(m.selected() == int(i) ? -1 : int(i));
  }
}

void ToolOffMeshLinks::draw(render::DebugDraw& dd) {
  if (!m_ctx) return;
  const EditLinks& m = m_model;
  if (const LevelEditor* ed = m.editor()) {
    const auto& ls = ed->links();
    for (size_t i = 0; i < ls.size(); ++i)
      if (int(i) != m.selected()) drawLink(dd, ls[i], render::rgba(255, 255, 255, 110), 1.5f);
    if (m.selected() >= 0 && m.selected() < int(ls.size())) drawLink(dd, ls[size_t(m.selected())], render::rgba(255, 230, 60, 255), 3.5f);
  }
  if (!m.hasStart()) return;
  const glm::vec3& st = m.start();
  dd.point(st, render::rgba(255, 230, 60, 255), 10.0f, false);
  dd.circle(st + glm::vec3(0, 0.05f, 0), m.next.radius, render::rgba(255, 230, 60, 255), 1.5f);
  // The link the next click makes: red when longer than the bake connects.
  if (m_ctx->hoverHit && m_ctx->hoverPos && *m_ctx->hoverHit) {
    const glm::vec3 e = *m_ctx->hoverPos;
    drawArc(dd, st, e, 0.25f * glm::length(e - st) + 0.5f,
            m.tooLong(e) ? render::rgba(255, 60, 40, 220) : render::rgba(120, 255, 120, 200), m.next.bidirectional, 2.0f);
  }
}

void ToolOffMeshLinks::dumpState(nlohmann::json& out) const {
  m_model.dumpState(out);
  edit::dumpRects(m_rects, out["widgets"]);
}

} // namespace navbench
