#include "app/tools/ToolOffMeshLinks.h"

#include "app/LevelEditor.h"
#include "app/NavDraw.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace navbench {

using nav::bake::OffMeshLink;

namespace {

bool sameLink(const OffMeshLink& a, const OffMeshLink& b) {
  return std::equal(a.start, a.start + 3, b.start) && std::equal(a.end, a.end + 3, b.end) && a.radius == b.radius &&
         a.bidirectional == b.bidirectional && a.area == b.area && a.flags == b.flags && a.userId == b.userId;
}

glm::vec3 v3(const float* p) { return glm::vec3(p[0], p[1], p[2]); }

float xzLength(const glm::vec3& a, const glm::vec3& b) { return std::hypot(b.x - a.x, b.z - a.z); }

void drawLink(render::DebugDraw& dd, const OffMeshLink& l, uint32_t color, float width) {
  const glm::vec3 a = v3(l.start), b = v3(l.end), up(0, 0.05f, 0);
  drawArc(dd, a, b, 0.25f * glm::length(b - a) + 0.5f, color, l.bidirectional, width);
  dd.circle(a + up, l.radius, color, 1.5f);
  dd.circle(b + up, l.radius, color, 1.5f);
}

} // namespace

void ToolOffMeshLinks::reset() {
  m_hasStart = false;
  m_sel = -1;
  m_msg.clear();
}

void ToolOffMeshLinks::fail(const std::string& why) { m_msg.set(m_ctx ? m_ctx->log : nullptr, "Off-Mesh Links: " + why, true); }

int ToolOffMeshLinks::linkNear(const glm::vec3& p, float pickRadius) const {
  if (!m_ctx || !m_ctx->editor) return -1;
  const auto& ls = m_ctx->editor->links();
  int best = -1;
  float bestDist = 0;
  for (size_t i = 0; i < ls.size(); ++i)
    for (const float* e : {ls[i].start, ls[i].end}) {
      const float d = glm::length(p - v3(e));
      if (d < std::max(ls[i].radius, pickRadius) && (best < 0 || d < bestDist)) {
        best = int(i);
        bestDist = d;
      }
    }
  return best;
}

void ToolOffMeshLinks::select(int index) {
  m_sel = -1;
  if (!m_ctx || !m_ctx->editor || index < 0 || index >= int(m_ctx->editor->links().size())) return;
  m_sel = index;
  m_selLink = m_editLink = m_ctx->editor->links()[size_t(index)];
  m_msg.clear();
}

void ToolOffMeshLinks::syncSelection() {
  if (m_sel < 0 || !m_ctx || !m_ctx->editor) return;
  const auto& ls = m_ctx->editor->links();
  if (m_sel < int(ls.size()) && sameLink(ls[size_t(m_sel)], m_selLink)) return;
  for (size_t i = 0; i < ls.size(); ++i)
    if (sameLink(ls[i], m_selLink)) {
      m_sel = int(i);
      return;
    }
  m_sel = -1;
}

void ToolOffMeshLinks::onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) {
  if (!m_ctx) return;
  syncSelection();
  if (!m_hasStart) {
    if (!shift) {
      const int l = linkNear(hitPos, 0.012f * glm::length(hitPos - rayStart));
      if (l >= 0) {
        select(l);
        return;
      }
    }
    m_sel = -1;
    m_hasStart = true;
    m_start = hitPos;
    m_msg.clear();
    return;
  }
  OffMeshLink l = m_new;
  l.start[0] = m_start.x;
  l.start[1] = m_start.y;
  l.start[2] = m_start.z;
  l.end[0] = hitPos.x;
  l.end[1] = hitPos.y;
  l.end[2] = hitPos.z;
  m_hasStart = false; // added or refused, the next click starts a new link
  std::string why;
  if (!m_ctx->editor) why = "no level editor";
  if (!m_ctx->editor || !m_ctx->editor->addLink(l, &why)) {
    fail("not added: " + why);
    return;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "added link %d: %.2f m, %s", int(m_ctx->editor->links().size()) - 1,
                double(glm::length(hitPos - m_start)), l.bidirectional ? "both ways" : "one way");
  m_msg.set(nullptr, buf, false); // the editor logs the edit itself
}

void ToolOffMeshLinks::applySelected(const OffMeshLink& l, const char* what) {
  if (m_sel < 0 || !m_ctx || !m_ctx->editor) return;
  std::string why;
  if (!m_ctx->editor->setLink(m_sel, l, &why)) {
    fail(std::string(what) + ": " + why);
    m_editLink = m_selLink;
    return;
  }
  m_selLink = m_editLink = l;
  m_msg.set(nullptr, "changed link " + std::to_string(m_sel), false);
}

void ToolOffMeshLinks::removeSelected() {
  syncSelection();
  if (m_sel < 0 || !m_ctx || !m_ctx->editor) return;
  std::string why;
  const int index = m_sel;
  if (!m_ctx->editor->removeLink(index, &why)) {
    fail("not removed: " + why);
    return;
  }
  m_sel = -1;
  m_msg.set(nullptr, "removed link " + std::to_string(index), false);
}

void ToolOffMeshLinks::update(float /*dt*/) {
  syncSelection();
  if (edit::toolKeyPressed(ImGuiKey_Escape)) {
    m_hasStart = false;
    m_sel = -1;
  }
  if (edit::toolKeyPressed(ImGuiKey_Delete)) removeSelected();
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
  LevelEditor* ed = m_ctx ? m_ctx->editor : nullptr;
  ImGui::TextWrapped("Click the start, then the end. Click near an end to select a link (Shift: never); Del deletes, "
                     "Esc drops the start.");
  const bool ready = edit::editorStatus(ed);
  edit::saveButton(ready ? ed : nullptr, m_ctx ? m_ctx->log : nullptr, &m_msg, &m_rects);
  if (ready) {
    ImGui::SameLine();
    ImGui::TextDisabled("links up to %.1f m", double(ed->maxLinkLength()));
  }
  m_msg.show();
  ImGui::Separator();
  syncSelection();
  if (ed && m_sel >= 0) { // the selected link's options in place of the new one's
    ImGui::Text("Link %d: %.2f m", m_sel, double(glm::length(v3(m_selLink.end) - v3(m_selLink.start))));
    bool radiusDone = false; // a typed radius applies when the field is left
    if (optionsUi("sel", m_editLink, &radiusDone) || radiusDone) applySelected(m_editLink, "link not changed");
    if (ImGui::Button("Reverse")) {
      OffMeshLink r = m_selLink;
      std::swap_ranges(r.start, r.start + 3, r.end);
      applySelected(r, "link not reversed");
    }
    ImGui::SameLine();
    if (ImGui::Button("Delete (Del)")) removeSelected();
    edit::markItem(&m_rects, "delete");
    ImGui::SameLine();
    if (ImGui::Button("Deselect")) m_sel = -1;
  } else {
    if (m_hasStart) ImGui::Text("New link from (%.1f, %.1f, %.1f)", double(m_start.x), double(m_start.y), double(m_start.z));
    else ImGui::TextUnformatted("New link");
    optionsUi("new", m_new, nullptr);
  }
  if (!ed) return;
  const auto& ls = ed->links();
  ImGui::Separator();
  ImGui::Text("Links: %d", int(ls.size()));
  for (size_t i = 0; i < ls.size(); ++i) {
    char label[128];
    std::snprintf(label, sizeof label, "%d: %.2f m %s, %s##link%d", int(i), double(glm::length(v3(ls[i].end) - v3(ls[i].start))),
                  ls[i].bidirectional ? "<->" : "->", edit::areaLabel(ls[i].area).c_str(), int(i));
    if (ImGui::Selectable(label, m_sel == int(i))) select(m_sel == int(i) ? -1 : int(i));
  }
}

void ToolOffMeshLinks::draw(render::DebugDraw& dd) {
  if (!m_ctx) return;
  if (m_ctx->editor) {
    const auto& ls = m_ctx->editor->links();
    for (size_t i = 0; i < ls.size(); ++i)
      if (int(i) != m_sel) drawLink(dd, ls[i], render::rgba(255, 255, 255, 110), 1.5f);
    if (m_sel >= 0 && m_sel < int(ls.size())) drawLink(dd, ls[size_t(m_sel)], render::rgba(255, 230, 60, 255), 3.5f);
  }
  if (!m_hasStart) return;
  dd.point(m_start, render::rgba(255, 230, 60, 255), 10.0f, false);
  dd.circle(m_start + glm::vec3(0, 0.05f, 0), m_new.radius, render::rgba(255, 230, 60, 255), 1.5f);
  // The link the next click makes: red when longer than the bake connects.
  if (m_ctx->hoverHit && m_ctx->hoverPos && *m_ctx->hoverHit) {
    const glm::vec3 e = *m_ctx->hoverPos;
    const bool tooLong = m_ctx->editor && xzLength(m_start, e) > m_ctx->editor->maxLinkLength();
    drawArc(dd, m_start, e, 0.25f * glm::length(e - m_start) + 0.5f,
            tooLong ? render::rgba(255, 60, 40, 220) : render::rgba(120, 255, 120, 200), m_new.bidirectional, 2.0f);
  }
}

void ToolOffMeshLinks::dumpState(nlohmann::json& out) const {
  out["hasStart"] = m_hasStart;
  if (m_hasStart) out["start"] = {m_start.x, m_start.y, m_start.z};
  out["bidirectional"] = m_new.bidirectional;
  out["radius"] = m_new.radius;
  out["area"] = int(m_new.area);
  out["flags"] = int(m_new.flags);
  out["selected"] = m_sel;
  out["links"] = m_ctx && m_ctx->editor ? int(m_ctx->editor->links().size()) : 0;
  if (m_ctx && m_ctx->editor) out["maxLinkLength"] = m_ctx->editor->maxLinkLength();
  m_msg.dump(out);
  edit::dumpRects(m_rects, out["widgets"]);
}

} // namespace navbench
