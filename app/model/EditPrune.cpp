#include "app/model/EditPrune.h"

#include "app/NavState.h"
#include "app/model/LevelEditor.h"
#include "nav/NavAreas.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <unordered_set>

namespace navbench {

void EditPrune::reset() {
  m_hasStart = false;
  m_startRef = 0;
  m_reachable.clear();
  m_unreachable.clear();
  message.clear();
}

void EditPrune::click(const glm::vec3& hit) {
  m_clickSeen = true;
  if (!m_ctx.nav || !m_ctx.nav->loaded()) return fail("no navmesh open: nothing to prune");
  glm::vec3 snapped;
  if (!m_ctx.nav->nearestPoly(hit, &snapped)) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "no navmesh poly near the click (%.2f, %.2f, %.2f): nothing changed", double(hit.x),
                  double(hit.y), double(hit.z));
    return fail(buf);
  }
  m_start = snapped;
  m_hasStart = true;
  flood();
  if (!message.error) message.clear();
}

void EditPrune::clickReleased(bool hoverHit) {
  if (!hoverHit && !m_clickSeen) fail("no level under the click: click a navmesh poly to flood from");
  m_clickSeen = false;
}

void EditPrune::refresh() {
  if (m_hasStart) flood();
}

void EditPrune::flood() {
  m_reachable.clear();
  m_unreachable.clear();
  m_startRef = m_ctx.nav && m_ctx.nav->loaded() ? m_ctx.nav->nearestPoly(m_start) : 0;
  if (!m_startRef) {
    fail("no navmesh poly at the start point any more (its tile was removed?)");
    return;
  }
  const nav::NavMesh& mesh = m_ctx.nav->mesh();
  const nav::QueryFilter& filter = m_ctx.nav->filter();
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
  if (message.error) message.clear(); // a stale complaint
}

int EditPrune::countDisabled(std::vector<nav::PolyRef>* out) const {
  if (!m_ctx.nav || !m_ctx.nav->loaded()) return 0;
  const nav::NavMesh& mesh = m_ctx.nav->mesh();
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

bool EditPrune::apply() {
  std::string why;
  if (!m_hasStart) why = "click a poly first";
  else if (m_unreachable.empty()) why = "every poly is reachable, nothing to disable";
  else if (!m_ctx.editor) why = "no level editor";
  else m_ctx.editor->setDisabled(m_unreachable, true, &why);
  return outcome("apply", why, "disabled " + std::to_string(m_unreachable.size()) + " unreachable polys");
}

bool EditPrune::enableAll() {
  std::string why;
  std::vector<nav::PolyRef> disabled;
  countDisabled(&disabled);
  if (disabled.empty()) why = "no poly is disabled";
  else if (!m_ctx.editor) why = "no level editor";
  else m_ctx.editor->setDisabled(disabled, false, &why);
  return outcome("enable all", why, "enabled " + std::to_string(disabled.size()) + " polys");
}

bool EditPrune::save() {
  std::string why;
  if (!m_ctx.editor) why = "no level editor";
  else m_ctx.editor->saveLevel(&why);
  return outcome("save", why,
                 removeOnSave() ? "saved the level file and its navmesh, without the disabled polys" : "saved the level file and its navmesh");
}

bool EditPrune::removeOnSave() const { return m_ctx.editor && m_ctx.editor->removeOnSave(); }

bool EditPrune::setRemoveOnSave(bool on) {
  std::string why;
  if (!m_ctx.editor) why = "no level editor";
  else if (on) m_ctx.editor->ready(&why);
  if (why.empty()) m_ctx.editor->setRemoveOnSave(on);
  return outcome("remove on save", why,
                 on ? "Save level will leave the disabled polys out of the .bin" : "Save level will keep the disabled polys (flagged)");
}

void EditPrune::dumpState(nlohmann::json& out) const {
  message.dump(out);
  out["start"] = m_hasStart ? nlohmann::json{m_start.x, m_start.y, m_start.z} : nlohmann::json();
  out["startRef"] = m_startRef;
  out["reachable"] = m_reachable.size();
  out["unreachable"] = m_unreachable.size();
  out["unreachableRefs"] = m_unreachable;
  out["disabled"] = countDisabled(nullptr);
  out["removeOnSave"] = removeOnSave();
}

} // namespace navbench
