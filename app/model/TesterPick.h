// TesterPick.h: the Pick mode's state and compute (headless): the picked point on the level, the
// triangle under it and its normal; a Shift+click sets a second point, and the distance between
// the two is shown. The view: app/tools/ToolPick.h.
#pragma once

#include "app/TriBvh.h"

#include <glm/glm.hpp>

namespace navbench {

class Level;

class PickModel {
public:
  /// The level picked against (null: none; the triangle is then unknown).
  void setLevel(const Level* level) { m_level = level; }
  const Level* level() const { return m_level; }
  /// A click: `hitPos` the picked point [Unit: wu], `rayStart` the camera ray's origin. With
  /// `shift` (and a first point) it sets the second point; else the first, and finds the level
  /// triangle the ray from rayStart hits at hitPos on the sides the app picked (`sides`: a
  /// triangle seen from behind is passed through with Front, as the app's pick did).
  void click(const glm::vec3& rayStart, const glm::vec3& hitPos, bool shift, PickSides sides);
  void reset();

  bool hasHit() const { return m_hasHit; }
  bool hasSecond() const { return m_hasSecond; }
  const glm::vec3& hit() const { return m_hit; }
  const glm::vec3& second() const { return m_second; }
  /// The level triangle under the first point, -1 when not found.
  int tri() const { return m_tri; }
  /// That triangle's unit normal ((0, 1, 0) before any triangle was found).
  const glm::vec3& normal() const { return m_normal; }
  /// |second - hit| [Unit: wu].
  float distance() const { return glm::length(m_second - m_hit); }

private:
  const Level* m_level = nullptr;
  bool m_hasHit = false, m_hasSecond = false;
  glm::vec3 m_hit{0.0f}, m_second{0.0f};
  int m_tri = -1;
  glm::vec3 m_normal{0, 1, 0};
};

} // namespace navbench
