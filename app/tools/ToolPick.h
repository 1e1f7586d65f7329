// ToolPick.h: the default tool: shows the picked point on the level, its triangle and normal;
// Shift+click sets a second point and shows the distance between the two.
#pragma once

#include "app/tools/Tool.h"

namespace navbench {

class ToolPick : public Tool {
public:
  const char* name() const override { return "Pick"; }
  void reset() override;
  void onClick(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift) override;
  void drawUi() override;
  void draw(render::DebugDraw& dd) override;

private:
  bool m_hasHit = false, m_hasSecond = false;
  glm::vec3 m_rayStart{0.0f}, m_hit{0.0f}, m_second{0.0f};
  int m_tri = -1;
  glm::vec3 m_normal{0, 1, 0};
};

} // namespace navbench
