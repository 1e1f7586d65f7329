// ToolCrowd.cpp: the Crowd tool's view (RecastDemo's CrowdTool, issue 16). Click adds an agent,
// Shift+click removes the one under the cursor, right click (or T) sends the selected agent, or
// all of them, to the point; Ctrl+click (or the Select mode) selects the agent whose steering is
// drawn: corridor, corners, walls, neighbours, velocity samples by penalty, desired / new /
// actual velocity, the visibility shortcut.
//
// The crowd, its recorded timeline (a .crowd.txt scenario with checkpoints: step back, scrub),
// the edits and the scenario JSON are the model's (app/model/CrowdModel.h, CrowdTimeline.h); this
// file turns clicks and keys into model calls and draws the model.
#include "app/tools/ToolCrowd.h"

#include "app/NavDraw.h"
#include "app/model/CrowdModel.h"
#include "nav/base/Json.h"
#include "render/DebugDraw.h"

#include <SDL.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

namespace navbench {
namespace {

using namespace nav::crowd;
using nlohmann::json;

constexpr int kCircleSegs = 12;
constexpr int kTrail = CrowdTimeline::kTrail;

const char* kStateNames[] = {"invalid", "walking", "offmesh"};
const char* kTargetNames[] = {"none", "failed", "valid", "requesting", "waiting for queue", "waiting for path", "velocity"};
const char* stateName(int s) { return s >= 0 && s < 3 ? kStateNames[s] : "?"; }
const char* targetName(int s) { return s >= 0 && s < 7 ? kTargetNames[s] : "?"; }

glm::vec3 v3(const float* p) { return glm::vec3(p[0], p[1], p[2]); }

/// A line with a small arrow head at b (in the xz plane).
void arrow(render::DebugDraw& dd, const glm::vec3& a, const glm::vec3& b, uint32_t col) {
  dd.vertex(a, col);
  dd.vertex(b, col);
  glm::vec3 d = b - a;
  d.y = 0;
  const float len = std::sqrt(d.x * d.x + d.z * d.z);
  if (len < 1e-3f) return;
  d /= len;
  const float h = std::min(0.25f, len * 0.4f);
  const glm::vec3 side(-d.z, 0, d.x);
  dd.vertex(b, col);
  dd.vertex(b - d * h + side * (h * 0.5f), col);
  dd.vertex(b, col);
  dd.vertex(b - d * h - side * (h * 0.5f), col);
}

class ToolCrowd final : public Tool {
public:
  ToolCrowd() {
    for (int i = 0; i <= kCircleSegs; ++i) {
      const float a = 6.28318531f * float(i) / float(kCircleSegs);
      m_unit[size_t(i)] = glm::vec2(std::cos(a), std::sin(a));
    }
  }

  const char* name() const override { return "Crowd"; }
  bool pairedInList() const override { return true; }

  void init(ToolContext& ctx) override {
    Tool::init(ctx);
    m_model.bind(ctx.nav, ctx.log);
    m_model.bindAgents(ctx.agents);
  }
  void reset() override { m_model.reset(); }
  void onLevelChanged() override { reset(); }

  void onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool shift) override {
    const bool ctrl = (SDL_GetModState() & KMOD_CTRL) != 0;
    if (!m_model.ensure()) return;
    if (ctrl || m_model.mode == CrowdModel::MODE_SELECT) return m_model.selectAt(hitPos);
    if (m_model.mode == CrowdModel::MODE_TARGET) return shift ? m_model.setVelocity(hitPos) : m_model.setTarget(hitPos);
    if (shift) return m_model.removeAt(hitPos);
    m_model.addAgentAt(hitPos);
  }
  void onRightClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos) override {
    if (!m_model.ensure()) return;
    if (SDL_GetModState() & KMOD_SHIFT) m_model.setVelocity(hitPos);
    else m_model.setTarget(hitPos);
  }

  void step() override { m_model.step(); }

  void update(float dt) override {
    if (!m_model.ensure()) return;
    keys();
    m_model.play(dt);
    m_hovered = -1;
    if (m_ctx->hoverHit && *m_ctx->hoverHit && m_ctx->hoverPos) m_hovered = m_model.timeline().agentAt(&m_ctx->hoverPos->x);
  }

  void drawUi() override;
  void draw(render::DebugDraw& dd) override;
  void dumpState(json& out) const override {
    m_model.dumpState(out);
    out["hovered"] = m_hovered;
    json rects = json::object();
    for (const auto& [k, r] : m_rects) rects[k] = {r[0], r[1], r[2], r[3]};
    out["buttons"] = rects;
  }
  void saveScenario(json& out) const override { m_model.saveScenario(out); }
  bool loadScenario(const json& in, std::string& error) override {
    base::JsonErrors errors; // the caller names the file and "tool.state."
    const bool ok = m_model.loadScenario(base::JsonIn(in, errors));
    error = errors.message;
    return ok;
  }

private:
  static bool key(SDL_Scancode sc, bool repeat = false) {
    if (!ImGui::GetCurrentContext()) return false;
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureKeyboard || io.KeyCtrl || io.KeyAlt) return false;
    return ImGui::IsKeyPressed(int(sc), repeat);
  }
  void keys() {
    if (key(SDL_SCANCODE_P)) m_model.setRunning(!m_model.running());
    if (key(SDL_SCANCODE_RIGHT, true)) step();
    if (key(SDL_SCANCODE_LEFT, true)) m_model.stepBack();
    if (key(SDL_SCANCODE_HOME)) m_model.goTo(0);
    if (key(SDL_SCANCODE_END)) m_model.goTo(m_model.totalTicks());
    if (key(SDL_SCANCODE_T) && m_ctx->hoverHit && *m_ctx->hoverHit && m_ctx->hoverPos) {
      if (ImGui::GetIO().KeyShift) m_model.setVelocity(*m_ctx->hoverPos);
      else m_model.setTarget(*m_ctx->hoverPos);
    }
    if (key(SDL_SCANCODE_ESCAPE)) m_model.select(-1);
    if (key(SDL_SCANCODE_DELETE) && m_model.selected() >= 0 && agent(m_model.selected())) m_model.removeAgent(m_model.selected());
  }
  void mark(const char* key) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    m_rects[key] = {a.x, a.y, b.x - a.x, b.y - a.y};
  }
  const CrowdAgent* agent(int i) const { return m_model.timeline().agent(i); }
  void agentReadout(int i, const CrowdAgent* ag) const;

  CrowdModel m_model;
  int m_hovered = -1;
  int m_addCount = 100;
  bool m_showTrails = true, m_showDebug = true;
  std::array<glm::vec2, kCircleSegs + 1> m_unit;
  std::map<std::string, std::array<float, 4>> m_rects;
};

void ToolCrowd::agentReadout(int i, const CrowdAgent* ag) const {
  const float speed = std::sqrt(ag->vel[0] * ag->vel[0] + ag->vel[2] * ag->vel[2]);
  ImGui::Text("Agent %d (slot %d): %s", i, m_model.timeline().slotOf(i), stateName(ag->state));
  ImGui::Text("target: %s%s", targetName(ag->targetState), ag->partial ? " (partial)" : "");
  ImGui::Text("speed %.2f m/s, corridor %d polys", double(speed), ag->corridor.getPathCount());
  ImGui::Text("%d neighbours, %d corners", ag->nneis, ag->ncorners);
}

void ToolCrowd::drawUi() {
  m_rects.clear();
  if (!m_model.ensure()) {
    ImGui::TextWrapped("Open or bake a navmesh to place agents.");
    return;
  }
  ImGui::PushItemWidth(150);
  ImGui::RadioButton("Agents", &m_model.mode, CrowdModel::MODE_AGENTS);
  mark("mode.agents");
  ImGui::SameLine();
  ImGui::RadioButton("Select", &m_model.mode, CrowdModel::MODE_SELECT);
  mark("mode.select");
  ImGui::SameLine();
  ImGui::RadioButton("Target", &m_model.mode, CrowdModel::MODE_TARGET);
  mark("mode.target");
  if (ImGui::Button(m_model.running() ? "Pause###run" : "Run###run")) m_model.setRunning(!m_model.running());
  mark("run");
  ImGui::SameLine();
  if (ImGui::Button("Step")) step();
  mark("step");
  ImGui::SameLine();
  if (ImGui::Button("Back")) m_model.stepBack();
  mark("back");
  ImGui::SameLine();
  if (ImGui::Button("Clear")) {
    reset();
    m_model.ensure();
    m_model.done("new empty crowd");
  }
  mark("clear");
  int t = m_model.tick();
  const int maxT = std::max(m_model.totalTicks(), m_model.tick());
  if (ImGui::SliderInt("Tick", &t, 0, std::max(1, maxT)) && t != m_model.tick()) m_model.goTo(std::min(t, maxT));
  mark("tick");
  ImGui::SliderFloat("Time scale", &m_model.timeScale, 0.1f, 4.0f, "%.2fx");
  float hz = 1.0f / m_model.tickDt();
  if (ImGui::SliderFloat("Ticks/s", &hz, 10.0f, 60.0f, "%.0f")) m_model.setTicksPerSecond(hz);

  static char pathBuf[512];
  std::snprintf(pathBuf, sizeof pathBuf, "%s", m_model.path.c_str());
  ImGui::SetNextItemWidth(150);
  if (ImGui::InputText("##file", pathBuf, sizeof pathBuf)) m_model.path = pathBuf;
  mark("file");
  ImGui::SameLine();
  if (ImGui::Button("Load")) m_model.loadFile();
  mark("load");
  ImGui::SameLine();
  if (ImGui::Button("Save")) m_model.saveFile();
  mark("save");

  if (const CrowdAgent* ag = agent(m_hovered); ag && m_ctx->hoverHit && *m_ctx->hoverHit) {
    ImGui::BeginTooltip();
    agentReadout(m_hovered, ag);
    ImGui::EndTooltip();
  }

  if (ImGui::CollapsingHeader("New agents", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::Checkbox("Anticipate turns", &m_model.options.anticipate);
    mark("anticipate");
    ImGui::Checkbox("Optimize visibility", &m_model.options.optVis);
    mark("optVis");
    ImGui::Checkbox("Optimize topology", &m_model.options.optTopo);
    mark("optTopo");
    ImGui::Checkbox("Obstacle avoidance", &m_model.options.avoid);
    mark("avoid");
    ImGui::SliderInt("Avoidance quality", &m_model.options.quality, 0, 3);
    ImGui::Checkbox("Separation", &m_model.options.separation);
    mark("separation");
    ImGui::SliderFloat("Separation weight", &m_model.options.separationWeight, 0.0f, 20.0f, "%.1f");
    ImGui::SliderInt("##count", &m_addCount, 1, 1000);
    ImGui::SameLine();
    if (ImGui::Button("Add random")) m_model.addRandomAgents(m_addCount);
    mark("addRandom");
    if (ImGui::Button("Random targets")) m_model.randomTargets();
    mark("randomTargets");
  }
  ImGui::Checkbox("Trails", &m_showTrails);
  ImGui::SameLine();
  ImGui::Checkbox("Steering of selected", &m_showDebug);
  // Readouts last: their lines come and go, the widgets above stay where tests click them.
  ImGui::Text("tick %d / %d  (%.2f s)  %s", m_model.tick(), m_model.totalTicks(),
              double(m_model.tick()) * double(m_model.tickDt()), m_model.running() ? "running" : "paused");
  ImGui::Text("%d agents (max %d)", m_model.activeAgents(), m_model.timeline().history().maxAgents);
  ImGui::Text("update %.2f ms a tick", m_model.lastUpdateMs());
  if (!m_model.message().empty()) {
    if (m_model.isError()) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 240.0f);
    ImGui::TextWrapped("%s", m_model.message().c_str());
    ImGui::PopTextWrapPos();
    if (m_model.isError()) ImGui::PopStyleColor();
  }

  if (const CrowdAgent* ag = agent(m_model.selected())) {
    agentReadout(m_model.selected(), ag);
  } else {
    ImGui::TextDisabled("Ctrl+click (or Select) an agent to see its steering.");
  }
  if (ImGui::CollapsingHeader("Keys")) {
    ImGui::TextUnformatted("click: add agent, Shift+click: remove\nright click / T: target (selected or all)\nShift+right click / Shift+T: velocity\n"
                           "Ctrl+click: select, Esc: deselect\nDel: remove selected\n"
                           "P: run / pause\nSpace, Right: step, Left: step back\nHome / End: first / last tick");
  }
  ImGui::PopItemWidth();
}

void ToolCrowd::draw(render::DebugDraw& dd) {
  const CrowdTimeline& tl = m_model.timeline();
  if (!tl.attached()) return;
  const Crowd& crowd = *tl.crowd();
  const int sel = m_model.selected();
  const float lift = 0.08f;
  const int seen = tl.agentsSeen();
  // Trails: one batch of lines, fading toward the oldest point.
  if (m_showTrails) {
    dd.begin(render::Prim::Lines, 1.5f);
    for (int i = 0; i < seen; ++i) {
      const int slot = tl.slotOf(i);
      if (slot < 0 || !agent(i) || tl.trailOwner(slot) != i) continue;
      const float* t = tl.trail(slot);
      for (int k = 1; k < kTrail; ++k) {
        const int a = (tl.trailHead() + k) % kTrail, b = (tl.trailHead() + k + 1) % kTrail;
        const uint8_t al = uint8_t(20 + 180 * k / kTrail);
        dd.vertex(t[a * 3], t[a * 3 + 1] + lift, t[a * 3 + 2], render::rgba(0, 0, 0, al));
        dd.vertex(t[b * 3], t[b * 3 + 1] + lift, t[b * 3 + 2], render::rgba(0, 0, 0, al));
      }
    }
    dd.end();
  }
  // Agents: a filled disc, its rim and the velocity, three batches for all of them.
  auto colorOf = [&](int i, const CrowdAgent* ag) {
    if (i == sel) return render::rgba(255, 192, 0, 230);
    if (i == m_hovered) return render::rgba(255, 255, 255, 230);
    if (ag->state == CROWDAGENT_STATE_INVALID) return render::rgba(230, 40, 40, 230);
    if (ag->state == CROWDAGENT_STATE_OFFMESH) return render::rgba(180, 60, 230, 230);
    if (ag->targetState == CROWDAGENT_TARGET_FAILED) return render::rgba(255, 100, 60, 230);
    uint32_t rgb = 0;
    if (m_model.typeColor(ag->params.navType, &rgb)) return render::rgba(uint8_t(rgb >> 16), uint8_t(rgb >> 8), uint8_t(rgb), 220);
    return render::rgba(0, 160, 255, 220);
  };
  dd.begin(render::Prim::Tris);
  for (int i = 0; i < seen; ++i) {
    const CrowdAgent* ag = agent(i);
    if (!ag) continue;
    const glm::vec3 p = v3(ag->npos) + glm::vec3(0, lift, 0);
    const float r = ag->params.radius;
    const uint32_t c = render::withAlpha(colorOf(i, ag), 110);
    for (int k = 0; k < kCircleSegs; ++k) {
      dd.vertex(p, c);
      dd.vertex(p + glm::vec3(m_unit[size_t(k + 1)].x * r, 0, m_unit[size_t(k + 1)].y * r), c);
      dd.vertex(p + glm::vec3(m_unit[size_t(k)].x * r, 0, m_unit[size_t(k)].y * r), c);
    }
  }
  dd.end();
  dd.begin(render::Prim::Lines, 2.0f);
  for (int i = 0; i < seen; ++i) {
    const CrowdAgent* ag = agent(i);
    if (!ag) continue;
    const glm::vec3 p = v3(ag->npos) + glm::vec3(0, lift, 0);
    const float r = ag->params.radius;
    const uint32_t c = colorOf(i, ag);
    for (int k = 0; k < kCircleSegs; ++k) {
      dd.vertex(p + glm::vec3(m_unit[size_t(k)].x * r, 0, m_unit[size_t(k)].y * r), c);
      dd.vertex(p + glm::vec3(m_unit[size_t(k + 1)].x * r, 0, m_unit[size_t(k + 1)].y * r), c);
    }
    // A post the height of the agent, so agents read at a distance.
    dd.vertex(p, c);
    dd.vertex(p + glm::vec3(0, ag->params.height, 0), render::withAlpha(c, 60));
    arrow(dd, p + glm::vec3(0, 0.3f, 0), p + glm::vec3(ag->vel[0], 0.3f, ag->vel[2]) * glm::vec3(1, 1, 1),
          render::rgba(20, 20, 20, 200));
  }
  dd.end();
  if (m_model.hasLastTarget()) dd.cross(m_model.lastTarget() + glm::vec3(0, 0.2f, 0), 0.5f, render::rgba(255, 255, 255, 230), 3.0f, false);

  // The selected agent's steering (RecastDemo's debug drawing).
  const CrowdAgent* ag = agent(sel);
  if (!ag || !m_showDebug) return;
  const glm::vec3 pos = v3(ag->npos);
  const float h = ag->params.height;
  for (int k = 0; k < ag->corridor.getPathCount(); ++k)
    drawPolyFill(dd, *tl.mesh(), ag->corridor.getPath()[k], render::rgba(255, 255, 255, 72), 0.05f);
  dd.cross(v3(ag->corridor.getTarget()) + glm::vec3(0, 0.1f, 0), 0.4f, render::rgba(255, 255, 255, 230), 2.0f);
  // Corners: the steering polyline (off-mesh corners purple).
  dd.begin(render::Prim::Lines, 2.0f, false);
  glm::vec3 prev = pos + glm::vec3(0, lift, 0);
  for (int k = 0; k < ag->ncorners; ++k) {
    const glm::vec3 c = v3(&ag->cornerVerts[k * 3]) + glm::vec3(0, lift, 0);
    const uint32_t col = (ag->cornerFlags[k] & 4) ? render::rgba(192, 0, 255, 220) : render::rgba(128, 0, 0, 220);
    dd.vertex(prev, col);
    dd.vertex(c, col);
    dd.vertex(c, col);
    dd.vertex(c + glm::vec3(0, 0.6f, 0), col);
    prev = c;
  }
  dd.end();
  // Visibility optimisation segment of the last update.
  const CrowdAgentDebugInfo& dbg = tl.debugCrowd()->debug();
  if (dbg.idx >= 0 && (dbg.optStart[0] != 0 || dbg.optStart[2] != 0 || dbg.optEnd[0] != 0 || dbg.optEnd[2] != 0)) {
    dd.line(v3(dbg.optStart) + glm::vec3(0, 0.3f, 0), v3(dbg.optEnd) + glm::vec3(0, 0.3f, 0), render::rgba(255, 96, 255, 230), 3.0f);
  }
  // Collision range, local boundary (walls facing the agent bright, the others dark), neighbours.
  dd.circle(pos + glm::vec3(0, lift, 0), ag->params.collisionQueryRange, render::rgba(192, 0, 128, 110), 1.5f);
  dd.begin(render::Prim::Lines, 3.0f);
  for (int k = 0; k < ag->boundary.getSegmentCount(); ++k) {
    const float* s = ag->boundary.getSegment(k);
    const float area = (s[3] - pos.x) * (s[2] - pos.z) - (s[0] - pos.x) * (s[5] - pos.z);
    const uint32_t col = area < 0 ? render::rgba(96, 0, 64, 200) : render::rgba(255, 0, 160, 230);
    dd.vertex(glm::vec3(s[0], s[1] + 0.2f, s[2]), col);
    dd.vertex(glm::vec3(s[3], s[4] + 0.2f, s[5]), col);
  }
  dd.end();
  dd.begin(render::Prim::Lines, 2.0f);
  for (int k = 0; k < ag->nneis; ++k) {
    const CrowdAgent* nb = crowd.getAgent(ag->neis[k].idx);
    if (!nb || !nb->active) continue;
    dd.vertex(pos + glm::vec3(0, h * 0.5f, 0), render::rgba(0, 192, 128, 200));
    dd.vertex(v3(nb->npos) + glm::vec3(0, h * 0.5f, 0), render::rgba(0, 192, 128, 200));
  }
  dd.end();
  // Velocity samples at the agent's head, coloured white (low penalty) to brown (high).
  const ObstacleAvoidanceDebugData& vod = tl.debugCrowd()->vod();
  if (dbg.idx >= 0) {
    const glm::vec3 o = pos + glm::vec3(0, h + 0.1f, 0);
    dd.begin(render::Prim::Tris);
    for (int k = 0; k < vod.getSampleCount(); ++k) {
      const float* v = vod.getSampleVelocity(k);
      const float s = vod.getSampleSize(k) * 0.5f;
      const float pen = std::min(1.0f, std::max(0.0f, vod.getSamplePenalty(k)));
      const uint32_t col = render::rgbaf(1.0f - 0.5f * pen, 1.0f - 0.62f * pen, 1.0f - pen, 0.85f);
      const glm::vec3 c = o + glm::vec3(v[0], 0, v[2]);
      const glm::vec3 a(c.x - s, c.y, c.z - s), b(c.x + s, c.y, c.z - s), d(c.x + s, c.y, c.z + s), e(c.x - s, c.y, c.z + s);
      dd.vertex(a, col);
      dd.vertex(d, col);
      dd.vertex(b, col);
      dd.vertex(a, col);
      dd.vertex(e, col);
      dd.vertex(d, col);
    }
    dd.end();
    dd.circle(o, ag->params.maxSpeed, render::rgba(0, 0, 0, 80), 1.0f);
  }
  // Desired (white), new after avoidance (orange) and actual (green) velocity.
  dd.begin(render::Prim::Lines, 3.0f, false);
  const glm::vec3 base = pos + glm::vec3(0, h + 0.12f, 0);
  arrow(dd, base, base + glm::vec3(ag->dvel[0], 0, ag->dvel[2]), render::rgba(255, 255, 255, 240));
  arrow(dd, base, base + glm::vec3(ag->nvel[0], 0, ag->nvel[2]), render::rgba(255, 140, 0, 240));
  arrow(dd, base, base + glm::vec3(ag->vel[0], 0, ag->vel[2]), render::rgba(0, 200, 60, 240));
  dd.end();
}

} // namespace

std::unique_ptr<Tool> makeToolCrowd() { return std::make_unique<ToolCrowd>(); }

} // namespace navbench
