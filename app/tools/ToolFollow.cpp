#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/tools/TesterModes.h"
#include "nav/PathFollow.h"
#include "render/DebugDraw.h"

#include <imgui.h>

namespace navbench {

void ToolFollow::drawResult(render::DebugDraw& dd) {
  const FollowModel& m = model();
  drawShortest(dd);
  drawCorridor(dd, m.corridor(), m.corridorSize());
  const glm::vec3 up(0, 0.1f, 0);
  const float* smooth = m.smooth();
  const int n = m.smoothSize();
  dd.begin(render::Prim::Lines, 2.0f);
  for (int i = 1; i < n; ++i) {
    dd.vertex(glm::vec3(smooth[i * 3 - 3], smooth[i * 3 - 2], smooth[i * 3 - 1]) + up, render::rgba(0, 0, 0, 220));
    dd.vertex(glm::vec3(smooth[i * 3], smooth[i * 3 + 1], smooth[i * 3 + 2]) + up, render::rgba(0, 0, 0, 220));
  }
  dd.end();
  dd.begin(render::Prim::Points, 4.0f);
  for (int i = 0; i < n; ++i)
    dd.vertex(glm::vec3(smooth[i * 3], smooth[i * 3 + 1], smooth[i * 3 + 2]) + up, render::rgba(0, 0, 0, 255));
  dd.end();
  if (n > 0) drawPartialMarker(dd, smooth + size_t(n - 1) * 3);
  if (m.stepping() && nav()) {
    const nav::PathFollower& f = m.follower();
    const std::vector<float>& stepped = m.stepped();
    if (f.corridorSize() > 0) drawPolyFill(dd, nav()->mesh(), f.corridor()[0], render::rgba(255, 220, 0, 120), 0.09f);
    for (size_t i = 3; i < stepped.size(); i += 3)
      dd.line(glm::vec3(stepped[i - 3], stepped[i - 2], stepped[i - 1]) + up * 2.0f,
              glm::vec3(stepped[i], stepped[i + 1], stepped[i + 2]) + up * 2.0f, render::rgba(255, 220, 0), 3.0f);
    const glm::vec3 pos(f.position()[0], f.position()[1], f.position()[2]);
    const glm::vec3 steer(f.steerTarget()[0], f.steerTarget()[1], f.steerTarget()[2]);
    dd.point(m.prevPos() + up, render::rgba(180, 180, 180), 8.0f);
    dd.point(pos + up, render::rgba(255, 220, 0), 10.0f);
    drawAgent(dd, pos, TesterModel::kAgentRadius, TesterModel::kAgentHeight, render::rgba(255, 220, 0, 200));
    dd.line(pos + up * 5.0f, steer + up * 5.0f, render::rgba(0, 200, 255), 2.0f);
    dd.cross(steer + up * 5.0f, 0.3f, render::rgba(0, 200, 255));
  }
  drawAlgorithm(dd, model());
}

void ToolFollow::resultUi() {
  FollowModel& m = model();
  algorithmUi(m);
  ImGui::Text("Corridor %d polys", m.corridorSize());
  ImGui::Text("Smooth path %d points, %.2f m", m.smoothSize(), double(m.resultLength()));
  if (ImGui::Button("Step (Space)")) m.step();
  ImGui::SameLine();
  bool play = m.playing();
  if (ImGui::Checkbox("Play", &play)) m.setPlay(play);
  ImGui::SameLine();
  if (ImGui::Button("Restart")) m.restartStepping();
  if (m.stepping()) ImGui::Text("Stepped %d points%s", int(m.stepped().size() / 3), m.follower().done() ? " (done)" : "");
  shortestUi("Smooth", m.resultLength());
}

} // namespace navbench
