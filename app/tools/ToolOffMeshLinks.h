// ToolOffMeshLinks.h: the Off-Mesh Link tool's view (RecastDemo's OffMeshConnectionTool): clicks
// and keys (Esc drops the start, Delete deletes) into its model (app/model/EditLinks.h), the model
// into the panel (direction, end radius, area, flags; the selected link's) and the 3D view (every
// link as an arc, the one the next click makes).
#pragma once

#include "app/model/EditLinks.h"
#include "app/tools/EditToolUi.h"
#include "app/tools/Tool.h"

namespace navbench {

class ToolOffMeshLinks : public Tool {
public:
  const char* name() const override { return "Off-Mesh Links"; }
  bool pairedInList() const override { return true; }
  void init(ToolContext& ctx) override;
  void reset() override { m_model.reset(); }
  void onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) override;
  void update(float dt) override;
  void drawUi() override;
  void draw(render::DebugDraw& dd) override;
  void dumpState(nlohmann::json& out) const override;

private:
  /// The link options (direction, radius, area, flags) as widgets; true when one changed.
  bool optionsUi(const char* id, nav::bake::OffMeshLink& l, bool* radiusDone);

  EditLinks m_model;
  edit::Rects m_rects; ///< The panel's widgets, for tests (dumpState "widgets").
};

} // namespace navbench
