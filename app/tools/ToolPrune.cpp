// ToolPrune.cpp: the Prune tool (RecastDemo's NavMeshPruneTool, issue 19). Click a poly: every
// poly reachable from it is found by a flood over the navmesh links (internal, tile-border and
// off-mesh connection links, followed in their direction, so a one-way link leads only one way)
// through the polys the current query filter passes; the rest is shown as unreachable. Apply sets
// nav::FLAG_DISABLED on the unreachable polys (LevelEditor::setDisabled: undoable, kept
// across rebakes, saved in the .bin by Save level); Enable all clears the flag from every poly.
// "Remove disabled polys from the saved navmesh" (LevelEditor::setRemoveOnSave): Save level then
// writes the tiles holding disabled polys re-baked without them; the open navmesh keeps them.
//
// Bad input changes nothing and says why in the panel and the log: a click with no navmesh poly
// under it, Apply with nothing to prune, an edit LevelEditor refuses.
#include "app/LevelEditor.h"
#include "app/Log.h"
#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/tools/ToolUi.h"
#include "app/tools/Tools.h"
#include "nav/NavAreas.h"
#include "render/DebugDraw.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <string>
#include <unordered_set>
#include <vector>

namespace navbench {
namespace {

class ToolPrune final : public Tool {
public:
  const char* name() const override { return "Prune"; }
  bool pairedInList() const override { return true; }

  void reset() override {
    m_hasStart = false;
    m_startRef = 0;
    m_reachable.clear();
    m_unreachable.clear();
    m_message.clear();
    m_error = false;
  }

  void onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool /*shift*/) override {
    m_clickSeen = true;
    NavState* nav = m_ctx ? m_ctx->nav : nullptr;
    if (!nav || !nav->loaded()) return fail("no navmesh open: nothing to prune");
    glm::vec3 snapped;
    const nav::PolyRef ref = nav->nearestPoly(hitPos, &snapped);
    if (!ref)
      return fail("no navmesh poly near the click (" + num(hitPos.x) + ", " + num(hitPos.y) + ", " + num(hitPos.z) +
                  "): nothing changed");
    m_start = snapped;
    m_hasStart = true;
    flood();
    if (!m_error) m_message.clear();
  }

  void update(float /*dt*/) override {
    // A click on the 3D view with nothing under it never reaches onClick (the app picks the level
    // first); ImGui reports the release a frame after the app picked, hence m_clickSeen.
    if (!m_ctx || !m_ctx->hoverHit || !viewClickReleased()) return;
    if (!*m_ctx->hoverHit && !m_clickSeen) fail("no level under the click: click a navmesh poly to flood from");
    m_clickSeen = false;
  }

  /// The navmesh changed (an Apply, a rebake, an undo) or the filter did: flood again from the
  /// same point (refs of rebaked tiles change).
  void onFilterChanged() override {
    if (m_hasStart) flood();
  }
  void onLevelChanged() override { reset(); }

  void drawUi() override {
    // Wrapped at a fixed width, so the buttons below stay where they are whatever the panel's width.
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 245.0f);
    ImGui::TextUnformatted("Click a navmesh poly: what the current filter cannot reach from it (links and off-mesh links "
                           "followed) is shown in red. Apply disables it (Ctrl+Z undoes); with 'Remove' checked, Save level "
                           "leaves the disabled polys out of the saved navmesh.");
    ImGui::PopTextWrapPos();
    NavState* nav = m_ctx ? m_ctx->nav : nullptr;
    LevelEditor* ed = m_ctx ? m_ctx->editor : nullptr;
    if (!nav || !nav->loaded()) {
      ImGui::TextDisabled("No navmesh open.");
      return;
    }
    // The buttons first: their place does not depend on the readouts (tests click them there).
    std::string why;
    if (m_buttons.button("Apply (disable unreachable)")) {
      if (!m_hasStart) fail("apply: click a poly first");
      else if (m_unreachable.empty()) fail("apply: every poly is reachable, nothing to disable");
      else if (!ed) fail("apply: no level editor");
      else if (!ed->setDisabled(m_unreachable, true, &why)) fail("apply: " + why);
      else done("disabled " + std::to_string(m_unreachable.size()) + " unreachable polys");
    }
    if (m_buttons.button("Enable all")) {
      std::vector<nav::PolyRef> disabled;
      countDisabled(&disabled);
      if (disabled.empty()) fail("enable all: no poly is disabled");
      else if (!ed) fail("enable all: no level editor");
      else if (!ed->setDisabled(disabled, false, &why)) fail("enable all: " + why);
      else done("enabled " + std::to_string(disabled.size()) + " polys");
    }
    ImGui::SameLine();
    if (m_buttons.button("Save level")) {
      if (!ed) fail("save: no level editor");
      else if (!ed->saveLevel(&why)) fail("save: " + why);
      else done(ed->removeOnSave() ? "saved the level file and its navmesh, without the disabled polys"
                                   : "saved the level file and its navmesh");
    }
    // Off: disabled polys are saved disabled (flagged). On: they are left out of the saved .bin
    // (their tiles re-baked without them); here they stay, disabled, so Ctrl+Z still brings them back.
    bool remove = ed && ed->removeOnSave();
    if (m_buttons.checkbox("Remove disabled polys from the saved navmesh", &remove)) {
      if (!ed) fail("remove on save: no level editor");
      else if (remove && !ed->ready(&why)) fail("remove on save: " + why);
      else {
        ed->setRemoveOnSave(remove);
        done(remove ? "Save level will leave the disabled polys out of the .bin" : "Save level will keep the disabled polys (flagged)");
      }
    }
    if (m_hasStart) {
      ImGui::Text("From (%.2f, %.2f, %.2f):", double(m_start.x), double(m_start.y), double(m_start.z));
      ImGui::Text("%d polys reachable, %d unreachable", int(m_reachable.size()), int(m_unreachable.size()));
    } else
      ImGui::TextDisabled("No poly clicked.");
    ImGui::Text("Disabled polys on the navmesh: %d", countDisabled(nullptr));
    if (!m_message.empty()) {
      if (m_error) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
      ImGui::TextWrapped("%s", m_message.c_str());
      if (m_error) ImGui::PopStyleColor();
    }
  }

  void draw(render::DebugDraw& dd) override {
    NavState* nav = m_ctx ? m_ctx->nav : nullptr;
    if (!m_hasStart || !nav || !nav->loaded()) return;
    const nav::NavMesh& mesh = nav->mesh();
    // The reachable part tinted lightly, the unreachable part strongly (capped: a huge world would
    // otherwise re-record every poly each frame).
    const size_t kMaxDrawn = 20000;
    auto drawSet = [&](const std::vector<nav::PolyRef>& refs, uint32_t fill, uint32_t arc) {
      for (size_t i = 0; i < refs.size() && i < kMaxDrawn; ++i) {
        const nav::MeshTile* tile = nullptr;
        const nav::Poly* poly = nullptr;
        if (nav::statusFailed(mesh.getTileAndPolyByRef(refs[i], &tile, &poly))) continue;
        if (poly->getType() == nav::POLYTYPE_OFFMESH_CONNECTION) {
          const float* a = &tile->verts[poly->verts[0] * 3];
          const float* b = &tile->verts[poly->verts[1] * 3];
          drawArc(dd, glm::vec3(a[0], a[1], a[2]), glm::vec3(b[0], b[1], b[2]), 1.0f, arc, false, 3.0f);
        } else {
          drawPolyFill(dd, mesh, refs[i], fill, 0.08f);
        }
      }
    };
    drawSet(m_reachable, render::rgba(40, 220, 90, 70), render::rgba(40, 220, 90, 220));
    drawSet(m_unreachable, render::rgba(230, 40, 40, 170), render::rgba(230, 40, 40, 255));
    dd.point(m_start + glm::vec3(0, 0.2f, 0), render::rgba(255, 196, 0), 10.0f, false);
  }

  void dumpState(nlohmann::json& out) const override {
    out["message"] = m_message;
    out["messageIsError"] = m_error;
    out["start"] = m_hasStart ? nlohmann::json{m_start.x, m_start.y, m_start.z} : nlohmann::json();
    out["startRef"] = m_startRef;
    out["reachable"] = m_reachable.size();
    out["unreachable"] = m_unreachable.size();
    out["unreachableRefs"] = m_unreachable;
    out["disabled"] = countDisabled(nullptr);
    out["removeOnSave"] = m_ctx && m_ctx->editor && m_ctx->editor->removeOnSave();
    out["buttons"] = m_buttons.json();
  }

private:
  /// Flood from the poly under m_start over links whose target passes the filter.
  void flood() {
    m_reachable.clear();
    m_unreachable.clear();
    NavState* nav = m_ctx ? m_ctx->nav : nullptr;
    m_startRef = nav && nav->loaded() ? nav->nearestPoly(m_start) : 0;
    if (!m_startRef) {
      fail("no navmesh poly at the start point any more (its tile was removed?)");
      return;
    }
    const nav::NavMesh& mesh = nav->mesh();
    const nav::QueryFilter& filter = nav->filter();
    std::unordered_set<nav::PolyRef> seen{m_startRef};
    std::vector<nav::PolyRef> stack{m_startRef};
    while (!stack.empty()) {
      const nav::PolyRef ref = stack.back();
      stack.pop_back();
      m_reachable.push_back(ref);
      const nav::MeshTile* tile = nullptr;
      const nav::Poly* poly = nullptr;
      mesh.getTileAndPolyByRefUnsafe(ref, &tile, &poly);
      for (uint32_t i = poly->firstLink; i != nav::NULL_LINK; i = tile->links[i].next) {
        const nav::PolyRef next = tile->links[i].ref;
        if (!next || seen.count(next)) continue;
        const nav::MeshTile* nt = nullptr;
        const nav::Poly* np = nullptr;
        if (nav::statusFailed(mesh.getTileAndPolyByRef(next, &nt, &np)) || !filter.passFilter(next, nt, np)) continue;
        seen.insert(next);
        stack.push_back(next);
      }
    }
    for (int t = 0; t < mesh.getMaxTiles(); ++t) {
      const nav::MeshTile* tile = mesh.getTile(t);
      if (!tile || !tile->header) continue;
      const nav::PolyRef base = mesh.getPolyRefBase(tile);
      for (int p = 0; p < tile->header->polyCount; ++p)
        if (!seen.count(base | nav::PolyRef(p))) m_unreachable.push_back(base | nav::PolyRef(p));
    }
    if (m_error) m_message.clear(); // a stale complaint
    m_error = false;
  }

  /// Polys carrying FLAG_DISABLED (their refs into `out` when given).
  int countDisabled(std::vector<nav::PolyRef>* out) const {
    const NavState* nav = m_ctx ? m_ctx->nav : nullptr;
    if (!nav || !nav->loaded()) return 0;
    const nav::NavMesh& mesh = nav->mesh();
    int n = 0;
    for (int t = 0; t < mesh.getMaxTiles(); ++t) {
      const nav::MeshTile* tile = mesh.getTile(t);
      if (!tile || !tile->header) continue;
      for (int p = 0; p < tile->header->polyCount; ++p)
        if (tile->polys[p].flags & nav::FLAG_DISABLED) {
          ++n;
          if (out) out->push_back(mesh.getPolyRefBase(tile) | nav::PolyRef(p));
        }
    }
    return n;
  }

  void fail(const std::string& msg) {
    m_message = msg;
    m_error = true;
    if (m_ctx && m_ctx->log) m_ctx->log->error("Prune: " + msg);
  }
  void done(const std::string& msg) {
    m_message = msg;
    m_error = false;
  }

  bool m_hasStart = false;
  glm::vec3 m_start{0.0f};
  nav::PolyRef m_startRef = 0;
  std::vector<nav::PolyRef> m_reachable, m_unreachable;
  bool m_clickSeen = false;
  std::string m_message;
  bool m_error = false;
  ButtonRects m_buttons;
};

} // namespace

std::unique_ptr<Tool> makeToolPrune() { return std::make_unique<ToolPrune>(); }

} // namespace navbench
