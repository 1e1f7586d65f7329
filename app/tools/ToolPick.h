// ToolPick.h: the default tool: shows the picked point on the level, its triangle and normal;
// Shift+click sets a second point and shows the distance between the two. State and compute:
// app/model/TesterPick.h.
#pragma once

#include "app/model/TesterPick.h"
#include "app/tools/Tool.h"

namespace navbench {

class ToolPick : public Tool {
public:
  const char* name() const override { return "Pick"; }
  void init(ToolContext& ctx) override;
  void reset() override { m_model.reset(); }
  void onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) override;
  void drawUi() override;
  void draw(render::DebugDraw& dd) override;

private:
  PickModel m_model;
};

} // namespace navbench
