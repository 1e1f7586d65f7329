// ToolOffMeshLinks.h: the Off-Mesh Link tool (RecastDemo's OffMeshConnectionTool). A click sets
// the start, the next click the end: a link with the panel's direction (one way or both), end
// radius, area and flags is added. A click near an end of a link (with no start set, and without
// Shift) selects it for editing or deletion (Delete). Esc drops the start. Edits go through
// LevelEditor (ends over the navmesh, length within the bake's reach; re-baked in the background,
// undoable); a refused one says why in the panel and the log and changes nothing.
#pragma once

#include "app/tools/EditToolUi.h"
#include "app/tools/Tool.h"
#include "nav/bake/Bake.h"

namespace navbench {

class ToolOffMeshLinks : public Tool {
public:
  const char* name() const override { return "Off-Mesh Links"; }
  bool pairedInList() const override { return true; }
  void reset() override;
  void onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) override;
  void update(float dt) override;
  void drawUi() override;
  void draw(render::DebugDraw& dd) override;
  void dumpState(nlohmann::json& out) const override;

private:
  int linkNear(const glm::vec3& p, float pickRadius) const;
  void select(int index);
  void removeSelected();
  void applySelected(const nav::bake::OffMeshLink& l, const char* what);
  void fail(const std::string& why);
  void syncSelection();
  /// The link options (direction, radius, area, flags) as widgets; true when one changed.
  bool optionsUi(const char* id, nav::bake::OffMeshLink& l, bool* radiusDone);

  bool m_hasStart = false;
  glm::vec3 m_start{0.0f};
  nav::bake::OffMeshLink m_new; ///< The options of the next link (its ends unused).
  int m_sel = -1;
  nav::bake::OffMeshLink m_selLink; ///< Its value when selected (or last edited here).
  nav::bake::OffMeshLink m_editLink; ///< The panel's fields for it (a radius being typed).
  edit::Message m_msg;
  edit::Rects m_rects; ///< The panel's widgets, for tests (dumpState "widgets").
};

} // namespace navbench
