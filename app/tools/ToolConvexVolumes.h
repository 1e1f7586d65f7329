// ToolConvexVolumes.h: the Convex Volume tool's view (RecastDemo's ConvexVolumeTool): clicks and
// keys (Enter closes, Esc clears, Delete deletes) into its model (app/model/EditVolumes.h), the
// model into the panel (area, height, offset; the selected volume's area, bottom, top) and the
// 3D view (every volume as a prism, the points and hull in progress).
#pragma once

#include "app/model/EditVolumes.h"
#include "app/tools/EditToolUi.h"
#include "app/tools/Tool.h"

namespace navbench {

class ToolConvexVolumes : public Tool {
public:
  const char* name() const override { return "Convex Volumes"; }
  bool pairedInList() const override { return true; }
  void init(ToolContext& ctx) override;
  void reset() override { m_model.reset(); }
  void onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) override;
  void update(float dt) override;
  void drawUi() override;
  void draw(render::DebugDraw& dd) override;
  void dumpState(nlohmann::json& out) const override;

private:
  EditVolumes m_model;
  edit::Rects m_rects; ///< The panel's widgets, for tests (dumpState "widgets").
};

} // namespace navbench
