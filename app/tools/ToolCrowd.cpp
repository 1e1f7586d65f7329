// ToolCrowd.cpp: the Crowd tool (RecastDemo's CrowdTool, issue 16). Click adds an agent,
// Shift+click removes the one under the cursor, right click (or T) sends the selected agent, or
// all of them, to the point; Ctrl+click (or the Select mode) selects the agent whose steering is
// drawn: corridor, corners, walls, neighbours, velocity samples by penalty, desired / new /
// actual velocity, the visibility shortcut.
//
// The crowd is a crowd scenario being recorded (nav/crowd/CrowdScenario.h, the .crowd.txt of
// ../shared/formats/crowd.md): every action is a command at the current tick and every update a
// `tick 1 DT` command, played by the same runner as `navbench crowd` (nav/crowd/CrowdRunner.h), so
// a crowd saved here gives the same trace from the command line. Two command lists:
//   m_full  everything recorded (the history), agentCount its `agent` lines;
//   m_run   the prefix the runner has played (its agentCount reserves SCENARIO_MAX_AGENT_LINES
//           slots of the runner's agent-index table, so agents can be added while it runs).
// State "at tick k" is k updates done and every command given at tick k run. Stepping back (and
// scrubbing, and reopening at a tick) restores the nearest checkpoint before the tick and replays
// the rest (deterministic: the same state as going straight there, bit for bit); stepping forward
// plays the recorded ticks, then records new ones; a command given in the past drops the recorded
// future and the checkpoints from its tick on.
// Checkpoints: the crowd's whole state (Crowd::saveState), the runner's and the trails, taken
// every m_cpEvery ticks (kCheckpointEvery at first) as the run is played; when there are as many
// as the memory budget allows (kCheckpointBytes, at least kMinCheckpoints), the spacing doubles and
// every other one is dropped, so a step back replays at most m_cpEvery ticks; a step back that
// replays more than kFineCheckpoints ticks also leaves kFineCheckpoints checkpoints over them, so
// the steps back after it replay a few ticks each.
//
// Memory: the crowd, the debug data and the trails are allocated when the crowd is made; an
// update allocates nothing in the crowd (the command lists grow geometrically, one entry a tick);
// checkpoints are allocated when first taken and reused.
#include "app/tools/ToolCrowd.h"

#include "app/Log.h"
#include "app/NavDraw.h"
#include "app/NavState.h"
#include "app/Scenario.h"
#include "app/tools/ToolUi.h"
#include "nav/crowd/CrowdRunner.h"
#include "nav/crowd/CrowdScenario.h"
#include "render/DebugDraw.h"

#include <SDL.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace navbench {
namespace {

using namespace nav::crowd;
using nlohmann::json;
using CScenario = nav::crowd::Scenario;

constexpr int kTrail = 64;                ///< Trail points per agent (RecastDemo's AGENT_MAX_TRAIL).
constexpr int kDefaultMaxAgents = 1024;   ///< `crowd` line of a new crowd.
constexpr float kDefaultRadius = 0.6f;    ///< Agent radius of a new crowd (the default level's bake). [wu]
constexpr int kMaxViewerTicks = 200000;   ///< Ticks the viewer records or loads (~1.9 h at 30 Hz).
constexpr int kMaxTicksPerFrame = 8;      ///< Backlog cap when updates are slower than real time.
constexpr int kMaxDebugSamples = 2048;    ///< Avoidance samples kept (a 33 x 33 grid is 1089).
constexpr int kCircleSegs = 12;
constexpr int kCheckpointEvery = 16;                 ///< Ticks between checkpoints at first.
constexpr size_t kCheckpointBytes = size_t(128) << 20; ///< Memory the checkpoints may take.
constexpr int kMinCheckpoints = 8, kMaxCheckpoints = 64;
constexpr int kFineCheckpoints = 8; ///< Checkpoints over the ticks a long step back replays.

const char* kStateNames[] = {"invalid", "walking", "offmesh"};
const char* kTargetNames[] = {"none", "failed", "valid", "requesting", "waiting for queue", "waiting for path", "velocity"};
const char* stateName(int s) { return s >= 0 && s < 3 ? kStateNames[s] : "?"; }
const char* targetName(int s) { return s >= 0 && s < 7 ? kTargetNames[s] : "?"; }

enum Mode { MODE_AGENTS = 0, MODE_SELECT = 1, MODE_TARGET = 2 };
const char* kModeKeys[] = {"agents", "select", "target"};

/// Our crowd as the runner's adapter (NavCrowdAdapter: the command-line runner's), collecting the
/// debug info of one agent slot on each update (drawing only: the update is the same).
class ViewerCrowd : public NavCrowdAdapter {
public:
  explicit ViewerCrowd(const nav::NavMesh* mesh) : NavCrowdAdapter(mesh) {
    m_vod.init(kMaxDebugSamples);
    std::memset(&m_debug, 0, sizeof m_debug);
    m_debug.idx = -1;
    m_debug.vod = &m_vod;
  }
  int debugSlot = -1;
  void update(float dt) {
    Crowd& c = crowd();
    m_debug.idx = -1;
    if (debugSlot >= 0) { // the crowd names the debug agent by its place among the active agents
      int active = 0;
      for (int i = 0; i < c.getAgentCount(); ++i) {
        const CrowdAgent* a = c.getAgent(i);
        if (!a->active) continue;
        if (i == debugSlot) {
          m_debug.idx = active;
          break;
        }
        ++active;
      }
    }
    m_vod.reset();
    for (int k = 0; k < 3; ++k) m_debug.optStart[k] = m_debug.optEnd[k] = 0;
    c.update(dt, m_debug.idx >= 0 ? &m_debug : nullptr);
    if (m_debug.idx >= 0) m_vod.normalizeSamples();
  }
  const CrowdAgentDebugInfo& debug() const { return m_debug; }
  const ObstacleAvoidanceDebugData& vod() const { return m_vod; }

private:
  CrowdAgentDebugInfo m_debug;
  ObstacleAvoidanceDebugData m_vod;
};

// Random points for "Add random" / "Random targets" (findRandomPoint takes a plain function); the
// points go into the commands, so replays do not depend on it.
std::mt19937 g_rng(12345);
float frand() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(g_rng) * 0.99999994f; }

glm::vec3 v3(const float* p) { return glm::vec3(p[0], p[1], p[2]); }

json vecJson(const float* v) { return json::array({v[0], v[1], v[2]}); }

std::string fmt3(const glm::vec3& p) {
  char b[96];
  std::snprintf(b, sizeof b, "(%.2f, %.2f, %.2f)", double(p.x), double(p.y), double(p.z));
  return b;
}

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
    clearHistory();
  }

  const char* name() const override { return "Crowd"; }
  bool pairedInList() const override { return true; }

  void reset() override {
    dropCrowd();
    clearHistory();
    m_running = false;
    m_selected = -1;
    m_message.clear();
    m_error = false;
  }
  void onLevelChanged() override { reset(); }

  void onClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos, bool shift) override {
    const bool ctrl = (SDL_GetModState() & KMOD_CTRL) != 0;
    if (!ensureCrowd()) return;
    if (ctrl || m_mode == MODE_SELECT) {
      m_selected = agentAt(hitPos);
      done(m_selected >= 0 ? "selected agent " + std::to_string(m_selected) : "no agent there: none selected");
      return;
    }
    if (m_mode == MODE_TARGET) return shift ? setVelocity(hitPos) : setTarget(hitPos);
    if (shift) {
      const int i = agentAt(hitPos);
      if (i < 0) return fail("no agent under the cursor to remove");
      ScenarioCommand c;
      c.op = ScenarioOp::Remove;
      c.agent = i;
      if (issue({c})) done("removed agent " + std::to_string(i));
      if (m_selected == i) m_selected = -1;
      return;
    }
    addAgentAt(hitPos);
  }
  void onRightClick(const glm::vec3& /*rayStart*/, const glm::vec3& hitPos) override {
    if (!ensureCrowd()) return;
    if (SDL_GetModState() & KMOD_SHIFT) setVelocity(hitPos);
    else setTarget(hitPos);
  }

  void step() override {
    m_running = false;
    if (ensureCrowd()) advance();
  }

  void update(float dt) override {
    if (!ensureCrowd()) return;
    if (m_wantTick >= 0) { // a scenario's tick, reached once the navmesh is there
      const int t = m_wantTick;
      m_wantTick = -1;
      goTo(t);
    }
    keys();
    if (m_running && std::isfinite(dt) && dt > 0) {
      m_acc += double(dt) * double(m_timeScale);
      int n = 0;
      const double t0 = m_runner->updateSeconds();
      while (m_acc >= double(nextDt()) && n < kMaxTicksPerFrame) {
        m_acc -= double(nextDt());
        if (!advance()) {
          m_running = false;
          break;
        }
        ++n;
      }
      if (n == kMaxTicksPerFrame) m_acc = 0; // slower than real time: drop the backlog
      if (n > 0) m_lastUpdateMs = (m_runner->updateSeconds() - t0) * 1000.0 / n;
    }
    m_hovered = -1;
    if (m_ctx->hoverHit && *m_ctx->hoverHit && m_ctx->hoverPos) m_hovered = agentAt(*m_ctx->hoverPos);
  }

  void drawUi() override;
  void draw(render::DebugDraw& dd) override;
  void dumpState(json& out) const override;
  void saveScenario(json& out) const override;
  bool loadScenario(const json& in, std::string& error) override;

private:
  // ---- history and play ----------------------------------------------------------------------
  void clearHistory() {
    dropCheckpoints(0);
    m_full = CScenario();
    m_full.maxAgents = kDefaultMaxAgents;
    m_full.maxAgentRadius = kDefaultRadius;
    m_full.hasCrowdLine = true;
    m_full.commands.reserve(4096);
    m_totalTicks = 0;
    m_tick = 0;
    m_fullPos = 0;
    m_wantTick = -1;
    m_acc = 0;
    if (m_runner) restart();
  }
  void dropCrowd() {
    dropCheckpoints(0);
    m_checkpointPool.clear();
    m_runner.reset();
    m_crowd.reset();
    m_mesh = nullptr;
    m_tick = 0;
    m_fullPos = 0;
  }

  /// The crowd on the open navmesh (made on first use); false when there is none.
  bool ensureCrowd() {
    NavState* nav = m_ctx ? m_ctx->nav : nullptr;
    if (!nav || !nav->loaded()) return false;
    if (m_runner && m_mesh == &nav->mesh()) return true;
    m_mesh = &nav->mesh();
    dropCheckpoints(0);
    m_checkpointPool.clear();
    m_crowd = std::make_unique<ViewerCrowd>(m_mesh);
    m_run = CScenario();
    m_run.maxAgents = m_full.maxAgents;
    m_run.maxAgentRadius = m_full.maxAgentRadius;
    m_run.agentCount = SCENARIO_MAX_AGENT_LINES; // the runner's agent-index table: room to add agents live
    m_run.commands.reserve(m_full.commands.capacity());
    m_runner = std::make_unique<ScenarioRunner<ViewerCrowd>>(*m_crowd, m_run);
    m_trail.assign(size_t(m_full.maxAgents) * kTrail * 3, 0.0f);
    m_trailOwner.assign(size_t(m_full.maxAgents), -1);
    return restart();
  }

  /// Back to tick 0 (the commands given at tick 0 run).
  bool restart() {
    m_run.commands.clear();
    m_fullPos = 0;
    m_tick = 0;
    m_acc = 0;
    std::fill(m_trailOwner.begin(), m_trailOwner.end(), -1);
    std::string why;
    if (!m_runner->start(&why)) {
      fail("crowd: " + why);
      dropCrowd();
      return false;
    }
    applyPending();
    return true;
  }

  /// Runs the recorded commands of the current tick that the runner has not run yet.
  void applyPending() {
    bool any = false;
    while (m_fullPos < m_full.commands.size() && m_full.commands[m_fullPos].op != ScenarioOp::Tick) {
      m_run.commands.push_back(m_full.commands[m_fullPos++]);
      any = true;
    }
    if (any) m_runner->step(nullptr); // runs them and stops: no tick after them yet
    recordTrails();
  }

  float nextDt() const {
    return m_fullPos < m_full.commands.size() ? m_full.commands[m_fullPos].dt : m_tickDt;
  }

  /// One update: the next recorded tick, or a new one of m_tickDt.
  bool advance() {
    if (!m_runner) return false;
    if (m_fullPos < m_full.commands.size()) {
      m_run.commands.push_back(m_full.commands[m_fullPos++]);
    } else {
      if (m_totalTicks >= kMaxViewerTicks) {
        fail("the crowd has " + std::to_string(kMaxViewerTicks) + " ticks, the viewer's limit: save it and start a new one");
        return false;
      }
      ScenarioCommand t;
      t.op = ScenarioOp::Tick;
      t.ticks = 1;
      t.dt = m_tickDt;
      m_full.commands.push_back(t);
      m_run.commands.push_back(t);
      ++m_fullPos;
      m_full.tickCount = ++m_totalTicks;
    }
    m_crowd->debugSlot = m_runner->slotOf(m_selected);
    m_runner->step(nullptr);
    ++m_tick;
    applyPending();
    takeCheckpoint();
    return true;
  }

  /// Replays or plays to tick t (clamped to 0 .. the recorded ticks, or one past when live): from
  /// the last checkpoint before t when that is nearer than where the crowd is (at least one update
  /// is replayed, so the selected agent's debug info is that of the update to t).
  void goTo(int t) {
    if (!ensureCrowd()) return;
    const auto t0 = std::chrono::steady_clock::now();
    goToTimed(t);
    m_lastGoToMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  void goToTimed(int t) {
    t = std::max(0, std::min(t, std::max(m_totalTicks, m_tick + 1)));
    if ((!m_checkpoints.empty() || !m_fine.empty()) && m_mesh->generation() != m_cpGeneration)
      dropCheckpoints(0); // the mesh was edited
    const Checkpoint* cp = nullptr;
    for (const auto* set : {&m_checkpoints, &m_fine})
      for (const auto& c : *set)
        if (c->tick < t && (!cp || c->tick > cp->tick)) cp = c.get();
    bool back = false;
    if (cp && (t < m_tick || cp->tick > m_tick)) {
      back = t < m_tick;
      restoreCheckpoint(*cp);
    } else if (t < m_tick) {
      back = true;
      restart();
    }
    // Going back more than a few ticks: fine checkpoints over the ticks replayed now, so the next
    // steps back (usually to the ticks just before) replay only a few ticks each.
    const int span = t - m_tick;
    const int fineStep = (span + kFineCheckpoints - 1) / kFineCheckpoints;
    const bool fine = back && span > kFineCheckpoints;
    if (fine) dropFine(0);
    const int from = m_tick;
    while (m_tick < t && advance()) {
      if (fine && m_tick < t && (m_tick - from) % fineStep == 0) takeFine();
    }
  }

  // ---- checkpoints -------------------------------------------------------------------------------
  struct Checkpoint {
    int tick = 0;
    size_t fullPos = 0; ///< m_fullPos then: the next command is the tick after, or the end
    CrowdSnapshot crowd;
    RunnerState runner;
    std::vector<float> trail;
    std::vector<int> trailOwner;
    int trailHead = 0;
  };

  /// Drops the checkpoints at ticks >= fromTick (kept for reuse).
  void dropCheckpoints(int fromTick) {
    while (!m_checkpoints.empty() && m_checkpoints.back()->tick >= fromTick) {
      m_checkpointPool.push_back(std::move(m_checkpoints.back()));
      m_checkpoints.pop_back();
    }
    if (m_checkpoints.empty()) m_cpEvery = kCheckpointEvery;
    dropFine(fromTick);
  }
  void dropFine(int fromTick) {
    while (!m_fine.empty() && m_fine.back()->tick >= fromTick) {
      m_checkpointPool.push_back(std::move(m_fine.back()));
      m_fine.pop_back();
    }
  }

  /// An allocated checkpoint for this crowd (from the pool), or null when out of memory.
  std::unique_ptr<Checkpoint> grabCheckpoint() {
    std::unique_ptr<Checkpoint> cp;
    if (!m_checkpointPool.empty()) {
      cp = std::move(m_checkpointPool.back());
      m_checkpointPool.pop_back();
    } else {
      cp = std::make_unique<Checkpoint>();
    }
    if (cp->crowd.maxAgents() != m_crowd->crowd().getAgentCount() && !cp->crowd.init(m_crowd->crowd())) return nullptr;
    return cp;
  }
  /// The current state into cp; false (cp back in the pool) when the crowd refuses.
  bool fillCheckpoint(std::unique_ptr<Checkpoint>& cp) {
    if (nav::statusFailed(m_crowd->crowd().saveState(cp->crowd))) {
      m_checkpointPool.push_back(std::move(cp));
      return false;
    }
    if (m_checkpoints.empty() && m_fine.empty()) m_cpGeneration = m_mesh->generation();
    cp->tick = m_tick;
    cp->fullPos = m_fullPos;
    m_runner->saveState(&cp->runner);
    cp->trail.assign(m_trail.begin(), m_trail.end());
    cp->trailOwner.assign(m_trailOwner.begin(), m_trailOwner.end());
    cp->trailHead = m_trailHead;
    return true;
  }
  void takeFine() {
    if (!m_fine.empty() && m_fine.back()->tick >= m_tick) return;
    std::unique_ptr<Checkpoint> cp = grabCheckpoint();
    if (cp && fillCheckpoint(cp)) m_fine.push_back(std::move(cp));
  }

  /// A checkpoint of the current tick when it is due (a multiple of m_cpEvery past the last one).
  void takeCheckpoint() {
    if (!m_runner || m_tick <= 0 || m_tick % m_cpEvery != 0) return;
    if (!m_checkpoints.empty() && m_checkpoints.back()->tick >= m_tick) return; // replaying: have it
    std::unique_ptr<Checkpoint> cp = grabCheckpoint();
    if (!cp) return; // out of memory: go on without
    if (int(m_checkpoints.size()) >= checkpointCap()) {
      // Full: twice the spacing, every other checkpoint dropped.
      m_cpEvery *= 2;
      size_t keep = 0;
      for (size_t i = 0; i < m_checkpoints.size(); ++i) {
        if (m_checkpoints[i]->tick % m_cpEvery == 0)
          m_checkpoints[keep++] = std::move(m_checkpoints[i]);
        else
          m_checkpointPool.push_back(std::move(m_checkpoints[i]));
      }
      m_checkpoints.resize(keep);
      if (m_tick % m_cpEvery != 0) {
        m_checkpointPool.push_back(std::move(cp));
        return;
      }
    }
    if (fillCheckpoint(cp)) m_checkpoints.push_back(std::move(cp));
  }

  /// How many checkpoints the memory budget holds for this crowd.
  int checkpointCap() const {
    const size_t one = m_checkpoints.empty() ? 0 : m_checkpoints.front()->crowd.bytes() + m_trail.size() * sizeof(float);
    if (!one) return kMaxCheckpoints;
    return int(std::max<size_t>(kMinCheckpoints, std::min<size_t>(kMaxCheckpoints, kCheckpointBytes / one)));
  }

  void restoreCheckpoint(const Checkpoint& cp) {
    if (nav::statusFailed(m_crowd->crowd().restoreState(cp.crowd))) {
      restart();
      return;
    }
    m_runner->restoreState(cp.runner);
    // The runner's commands: the recorded ones up to the checkpoint (the same prefix of m_full).
    if (m_run.commands.size() > cp.fullPos)
      m_run.commands.resize(cp.fullPos);
    else
      m_run.commands.insert(m_run.commands.end(), m_full.commands.begin() + std::ptrdiff_t(m_run.commands.size()),
                            m_full.commands.begin() + std::ptrdiff_t(cp.fullPos));
    m_fullPos = cp.fullPos;
    m_tick = cp.tick;
    m_acc = 0;
    m_trail.assign(cp.trail.begin(), cp.trail.end());
    m_trailOwner.assign(cp.trailOwner.begin(), cp.trailOwner.end());
    m_trailHead = cp.trailHead;
  }

  /// Records commands at the current tick (dropping the recorded ticks after it) and runs them.
  bool issue(const std::vector<ScenarioCommand>& cmds) {
    if (!ensureCrowd()) return false;
    int agents = agentLines();
    for (const ScenarioCommand& c : cmds) {
      const std::string why = nav::crowd::checkScenarioCommand(c, m_full.maxAgents, m_full.maxAgentRadius, agents);
      if (!why.empty()) {
        fail(why);
        return false;
      }
      if (c.op == ScenarioOp::Agent) ++agents;
    }
    if (agents > SCENARIO_MAX_AGENT_LINES) {
      fail("a crowd scenario holds at most " + std::to_string(SCENARIO_MAX_AGENT_LINES) + " agent lines");
      return false;
    }
    if (m_fullPos < m_full.commands.size()) {
      if (m_ctx && m_ctx->log)
        m_ctx->log->info("Crowd: the " + std::to_string(m_totalTicks - m_tick) + " recorded ticks after tick " +
                         std::to_string(m_tick) + " were dropped (a new command at tick " + std::to_string(m_tick) + ")");
      m_full.commands.resize(m_fullPos);
      m_full.tickCount = m_totalTicks = m_tick;
    }
    dropCheckpoints(m_tick); // the commands after a checkpoint of this tick change
    m_full.commands.insert(m_full.commands.end(), cmds.begin(), cmds.end());
    m_full.agentCount = agents;
    const size_t notes = m_runner->notes().size();
    applyPending();
    const auto& n = m_runner->notes();
    if (n.size() > notes) { // an agent off the mesh, a full crowd, a target with no poly
      std::string text = n[notes].text;
      if (n.size() > notes + 1) text += " (and " + std::to_string(n.size() - notes - 1) + " more)";
      fail(text);
      return false;
    }
    return true;
  }

  int agentLines() const {
    int n = 0;
    for (size_t i = 0; i < m_fullPos; ++i)
      if (m_full.commands[i].op == ScenarioOp::Agent) ++n;
    return n;
  }

  ScenarioAgentParams agentParams() const {
    ScenarioAgentParams p;
    p.radius = m_full.maxAgentRadius;
    p.height = 2.0f;
    p.maxAcceleration = 8.0f;
    p.maxSpeed = 3.5f;
    p.collisionQueryRange = p.radius * 12.0f;
    p.pathOptimizationRange = p.radius * 30.0f;
    p.updateFlags = uint8_t((m_anticipate ? SCENARIO_ANTICIPATE_TURNS : 0) | (m_avoid ? SCENARIO_OBSTACLE_AVOIDANCE : 0) |
                            (m_separation ? SCENARIO_SEPARATION : 0) | (m_optVis ? SCENARIO_OPTIMIZE_VIS : 0) |
                            (m_optTopo ? SCENARIO_OPTIMIZE_TOPO : 0));
    p.obstacleAvoidanceType = uint8_t(m_quality);
    p.separationWeight = m_separationWeight;
    return p;
  }

  void addAgentAt(const glm::vec3& p) {
    ScenarioCommand c;
    c.op = ScenarioOp::Agent;
    c.v[0] = p.x;
    c.v[1] = p.y;
    c.v[2] = p.z;
    c.agentParams = agentParams();
    const int idx = agentLines();
    if (!issue({c})) return;
    done("added agent " + std::to_string(idx) + " at " + fmt3(p));
    // A new agent goes where the others were sent (RecastDemo's CrowdTool does the same).
    if (m_hasTarget) {
      ScenarioCommand t;
      t.op = ScenarioOp::Target;
      t.agent = idx;
      t.v[0] = m_target.x;
      t.v[1] = m_target.y;
      t.v[2] = m_target.z;
      issue({t});
    }
  }

  void addRandomAgents(int n) {
    if (!ensureCrowd()) return;
    NavState* nav = m_ctx->nav;
    g_rng.seed(uint32_t(12345 + agentLines()));
    std::vector<ScenarioCommand> cmds;
    const int base = agentLines();
    for (int i = 0; i < n; ++i) {
      nav::PolyRef ref = 0;
      float p[3];
      if (nav::statusFailed(nav->query().findRandomPoint(&nav->filter(), frand, &ref, p))) continue;
      ScenarioCommand c;
      c.op = ScenarioOp::Agent;
      std::copy(p, p + 3, c.v);
      c.agentParams = agentParams();
      cmds.push_back(c);
    }
    if (issue(cmds)) done("added " + std::to_string(cmds.size()) + " agents at random points (agents " + std::to_string(base) +
                          ".." + std::to_string(base + int(cmds.size()) - 1) + ")");
  }

  void randomTargets() {
    if (!ensureCrowd()) return;
    NavState* nav = m_ctx->nav;
    g_rng.seed(uint32_t(777 + m_tick));
    std::vector<ScenarioCommand> cmds;
    for (int i = 0; i < m_runner->agentsSeen(); ++i) {
      if (m_runner->slotOf(i) < 0) continue;
      nav::PolyRef ref = 0;
      float p[3];
      if (nav::statusFailed(nav->query().findRandomPoint(&nav->filter(), frand, &ref, p))) continue;
      ScenarioCommand c;
      c.op = ScenarioOp::Target;
      c.agent = i;
      std::copy(p, p + 3, c.v);
      cmds.push_back(c);
    }
    m_hasTarget = false;
    if (issue(cmds)) done("sent " + std::to_string(cmds.size()) + " agents to random points");
  }

  /// The selected agent, or every agent, goes to p.
  void setTarget(const glm::vec3& p) {
    std::vector<ScenarioCommand> cmds;
    ScenarioCommand c;
    c.op = ScenarioOp::Target;
    c.v[0] = p.x;
    c.v[1] = p.y;
    c.v[2] = p.z;
    if (m_selected >= 0 && m_runner->slotOf(m_selected) >= 0) {
      c.agent = m_selected;
      cmds.push_back(c);
    } else {
      for (int i = 0; i < m_runner->agentsSeen(); ++i) {
        if (m_runner->slotOf(i) < 0) continue;
        c.agent = i;
        cmds.push_back(c);
      }
    }
    if (cmds.empty()) return fail("no agents to send: click the navmesh to add some");
    m_target = p;
    m_hasTarget = m_selected < 0;
    m_lastTarget = p;
    m_hasLastTarget = true;
    if (issue(cmds))
      done("target " + fmt3(p) + " for " + (cmds.size() == 1 ? "agent " + std::to_string(cmds[0].agent)
                                                                : std::to_string(cmds.size()) + " agents"));
  }

  /// The selected agent, or every agent, is driven at full speed toward p by a velocity request
  /// (RecastDemo's Shift + move target), no path.
  void setVelocity(const glm::vec3& p) {
    std::vector<ScenarioCommand> cmds;
    for (int i = 0; i < m_runner->agentsSeen(); ++i) {
      const CrowdAgent* ag = agent(i);
      if (!ag || (m_selected >= 0 && agent(m_selected) && i != m_selected)) continue;
      const float dx = p.x - ag->npos[0], dz = p.z - ag->npos[2], len = std::sqrt(dx * dx + dz * dz);
      if (!(len > 1e-4f)) continue;
      ScenarioCommand c;
      c.op = ScenarioOp::Velocity;
      c.agent = i;
      c.v[0] = dx / len * ag->params.maxSpeed;
      c.v[1] = 0;
      c.v[2] = dz / len * ag->params.maxSpeed;
      cmds.push_back(c);
    }
    if (cmds.empty()) return fail("no agents to drive: click the navmesh to add some");
    if (issue(cmds)) done("velocity toward " + fmt3(p) + " for " + std::to_string(cmds.size()) + " agent(s)");
  }

  /// The agent (scenario index) under p: the nearest whose circle (x 1.5) holds p, or -1.
  int agentAt(const glm::vec3& p) const {
    if (!m_runner) return -1;
    int best = -1;
    float bestD = 1e30f;
    for (int i = 0; i < m_runner->agentsSeen(); ++i) {
      const CrowdAgent* ag = agent(i);
      if (!ag) continue;
      const float dx = ag->npos[0] - p.x, dz = ag->npos[2] - p.z, dy = p.y - ag->npos[1];
      const float d2 = dx * dx + dz * dz, r = ag->params.radius * 1.5f;
      if (d2 < r * r && dy > -1.0f && dy < ag->params.height + 1.0f && d2 < bestD) {
        bestD = d2;
        best = i;
      }
    }
    return best;
  }
  const CrowdAgent* agent(int i) const {
    if (!m_runner) return nullptr;
    const int slot = m_runner->slotOf(i);
    const CrowdAgent* ag = slot >= 0 ? m_crowd->crowd().getAgent(slot) : nullptr;
    return ag && ag->active ? ag : nullptr;
  }

  void recordTrails() {
    if (!m_runner || m_trailOwner.empty()) return;
    m_trailHead = (m_trailHead + 1) % kTrail;
    for (int i = 0; i < m_runner->agentsSeen(); ++i) {
      const int slot = m_runner->slotOf(i);
      if (slot < 0 || slot >= int(m_trailOwner.size())) continue;
      const CrowdAgent* ag = m_crowd->crowd().getAgent(slot);
      float* t = &m_trail[size_t(slot) * kTrail * 3];
      if (m_trailOwner[size_t(slot)] != i) { // a new agent in the slot: its trail starts here
        m_trailOwner[size_t(slot)] = i;
        for (int k = 0; k < kTrail; ++k) std::copy(ag->npos, ag->npos + 3, t + k * 3);
      }
      std::copy(ag->npos, ag->npos + 3, t + m_trailHead * 3);
    }
  }

  // ---- files -----------------------------------------------------------------------------------
  /// m_full with consecutive equal ticks merged (`tick N DT`), as written to files.
  CScenario compact() const {
    CScenario s;
    s.maxAgents = m_full.maxAgents;
    s.maxAgentRadius = m_full.maxAgentRadius;
    s.hasCrowdLine = true;
    s.agentCount = 0;
    s.tickCount = m_totalTicks;
    for (const ScenarioCommand& c : m_full.commands) {
      if (c.op == ScenarioOp::Agent) ++s.agentCount;
      if (c.op == ScenarioOp::Tick && !s.commands.empty() && s.commands.back().op == ScenarioOp::Tick &&
          s.commands.back().dt == c.dt && s.commands.back().ticks + c.ticks <= SCENARIO_MAX_TICKS) {
        s.commands.back().ticks += c.ticks;
        continue;
      }
      s.commands.push_back(c);
      s.commands.back().line = 0;
    }
    return s;
  }
  /// A parsed scenario as the viewer's history (ticks one per command). False with *why when it
  /// has more ticks than the viewer keeps.
  static bool expand(const CScenario& in, CScenario* out, int* ticks, std::string* why) {
    if (in.tickCount > kMaxViewerTicks) {
      *why = std::to_string(in.tickCount) + " ticks: the viewer plays at most " + std::to_string(kMaxViewerTicks) +
             " (navbench crowd runs any length)";
      return false;
    }
    *out = CScenario();
    out->maxAgents = in.maxAgents;
    out->maxAgentRadius = in.maxAgentRadius;
    out->hasCrowdLine = true;
    out->agentCount = in.agentCount;
    out->tickCount = in.tickCount;
    out->commands.reserve(in.commands.size() + size_t(in.tickCount));
    for (const ScenarioCommand& c : in.commands) {
      if (c.op != ScenarioOp::Tick) {
        out->commands.push_back(c);
        continue;
      }
      ScenarioCommand one = c;
      one.ticks = 1;
      for (int k = 0; k < c.ticks; ++k) out->commands.push_back(one);
    }
    *ticks = in.tickCount;
    return true;
  }
  /// The history s at tick atTick, with agent `selected` selected (its debug info is collected
  /// on the replayed ticks too).
  void adopt(CScenario&& s, int ticks, int atTick, int selected = -1) {
    dropCrowd();
    m_full = std::move(s);
    m_totalTicks = ticks;
    m_selected = selected;
    m_running = false;
    m_hasTarget = m_hasLastTarget = false;
    m_wantTick = atTick;
    if (ensureCrowd()) {
      m_wantTick = -1;
      goTo(atTick);
    }
  }

  void loadFile() {
    CScenario s, full;
    std::string why;
    int ticks = 0;
    const std::string path = m_path;
    if (!nav::crowd::loadScenarioFile(path, &s, &why) || !expand(s, &full, &ticks, &why)) {
      if (why.rfind(path, 0) != 0) why = path + ": " + why;
      return fail("load: " + why);
    }
    adopt(std::move(full), ticks, 0);
    done("loaded " + path + ": " + std::to_string(s.agentCount) + " agent lines, " + std::to_string(ticks) +
         " ticks (at tick 0: End goes to the last)");
    if (m_ctx && m_ctx->log) m_ctx->log->info("Crowd: " + m_message);
  }
  void saveFile() {
    std::string why;
    if (!nav::crowd::saveScenarioFile(compact(), m_path, &why)) return fail("save: " + why);
    done("saved " + m_path + " (" + std::to_string(m_totalTicks) + " ticks)");
    if (m_ctx && m_ctx->log) m_ctx->log->info("Crowd: " + m_message);
  }

  // ---- keys, messages -------------------------------------------------------------------------
  static bool key(SDL_Scancode sc, bool repeat = false) {
    if (!ImGui::GetCurrentContext()) return false;
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureKeyboard || io.KeyCtrl || io.KeyAlt) return false;
    return ImGui::IsKeyPressed(int(sc), repeat);
  }
  void keys() {
    if (key(SDL_SCANCODE_P)) m_running = !m_running;
    if (key(SDL_SCANCODE_RIGHT, true)) step();
    if (key(SDL_SCANCODE_LEFT, true)) {
      m_running = false;
      goTo(m_tick - 1);
    }
    if (key(SDL_SCANCODE_HOME)) {
      m_running = false;
      goTo(0);
    }
    if (key(SDL_SCANCODE_END)) {
      m_running = false;
      goTo(m_totalTicks);
    }
    if (key(SDL_SCANCODE_T) && m_ctx->hoverHit && *m_ctx->hoverHit && m_ctx->hoverPos) {
      if (ImGui::GetIO().KeyShift) setVelocity(*m_ctx->hoverPos);
      else setTarget(*m_ctx->hoverPos);
    }
    if (key(SDL_SCANCODE_ESCAPE)) m_selected = -1;
    if (key(SDL_SCANCODE_DELETE) && m_selected >= 0 && agent(m_selected)) {
      ScenarioCommand c;
      c.op = ScenarioOp::Remove;
      c.agent = m_selected;
      if (issue({c})) done("removed agent " + std::to_string(m_selected));
      m_selected = -1;
    }
  }
  void fail(const std::string& msg) {
    m_message = msg;
    m_error = true;
    if (m_ctx && m_ctx->log) m_ctx->log->error("Crowd: " + msg);
  }
  void done(const std::string& msg) {
    m_message = msg;
    m_error = false;
  }
  void mark(const char* key) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    m_rects[key] = {a.x, a.y, b.x - a.x, b.y - a.y};
  }
  void agentReadout(int i, const CrowdAgent* ag) const;

  // ---- state ----------------------------------------------------------------------------------
  CScenario m_full, m_run;
  size_t m_fullPos = 0;
  int m_tick = 0, m_totalTicks = 0;
  int m_wantTick = -1;
  std::unique_ptr<ViewerCrowd> m_crowd;
  std::unique_ptr<ScenarioRunner<ViewerCrowd>> m_runner;
  const nav::NavMesh* m_mesh = nullptr;

  bool m_running = false;
  double m_acc = 0;
  float m_tickDt = 1.0f / 30.0f;
  float m_timeScale = 1.0f;
  double m_lastUpdateMs = 0;
  double m_lastGoToMs = 0; ///< Wall time of the last step back / scrub / reopen at a tick.

  int m_mode = MODE_AGENTS;
  bool m_anticipate = true, m_optVis = true, m_optTopo = true, m_avoid = true, m_separation = false;
  int m_quality = 3;
  float m_separationWeight = 2.0f;
  int m_addCount = 100;
  bool m_showTrails = true, m_showDebug = true;
  std::string m_path = "crowd.crowd.txt";

  int m_selected = -1, m_hovered = -1;
  glm::vec3 m_target{0.0f}, m_lastTarget{0.0f};
  bool m_hasTarget = false, m_hasLastTarget = false;

  std::vector<float> m_trail;     ///< Per slot: kTrail positions, a ring at m_trailHead.
  std::vector<int> m_trailOwner;  ///< Per slot: the agent index its trail belongs to (-1 none).
  int m_trailHead = 0;
  std::array<glm::vec2, kCircleSegs + 1> m_unit;

  std::string m_message;
  bool m_error = false;
  std::map<std::string, std::array<float, 4>> m_rects;

  std::vector<std::unique_ptr<Checkpoint>> m_checkpoints;    ///< By tick, all < the recorded end.
  /// A few more over the ticks replayed by the last long step back. By tick.
  std::vector<std::unique_ptr<Checkpoint>> m_fine;
  std::vector<std::unique_ptr<Checkpoint>> m_checkpointPool; ///< Allocated, unused.
  int m_cpEvery = kCheckpointEvery;
  uint64_t m_cpGeneration = 0; ///< The mesh's generation when the checkpoints were taken.
};

void ToolCrowd::agentReadout(int i, const CrowdAgent* ag) const {
  const float speed = std::sqrt(ag->vel[0] * ag->vel[0] + ag->vel[2] * ag->vel[2]);
  ImGui::Text("Agent %d (slot %d): %s", i, m_runner->slotOf(i), stateName(ag->state));
  ImGui::Text("target: %s%s", targetName(ag->targetState), ag->partial ? " (partial)" : "");
  ImGui::Text("speed %.2f m/s, corridor %d polys", double(speed), ag->corridor.getPathCount());
  ImGui::Text("%d neighbours, %d corners", ag->nneis, ag->ncorners);
}

void ToolCrowd::drawUi() {
  m_rects.clear();
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !nav->loaded() || !ensureCrowd()) {
    ImGui::TextWrapped("Open or bake a navmesh to place agents.");
    return;
  }
  ImGui::PushItemWidth(150);
  ImGui::RadioButton("Agents", &m_mode, MODE_AGENTS);
  mark("mode.agents");
  ImGui::SameLine();
  ImGui::RadioButton("Select", &m_mode, MODE_SELECT);
  mark("mode.select");
  ImGui::SameLine();
  ImGui::RadioButton("Target", &m_mode, MODE_TARGET);
  mark("mode.target");
  if (ImGui::Button(m_running ? "Pause###run" : "Run###run")) m_running = !m_running;
  mark("run");
  ImGui::SameLine();
  if (ImGui::Button("Step")) step();
  mark("step");
  ImGui::SameLine();
  if (ImGui::Button("Back")) {
    m_running = false;
    goTo(m_tick - 1);
  }
  mark("back");
  ImGui::SameLine();
  if (ImGui::Button("Clear")) {
    reset();
    ensureCrowd();
    done("new empty crowd");
  }
  mark("clear");
  int t = m_tick;
  const int maxT = std::max(m_totalTicks, m_tick);
  if (ImGui::SliderInt("Tick", &t, 0, std::max(1, maxT)) && t != m_tick) {
    m_running = false;
    goTo(std::min(t, maxT));
  }
  mark("tick");
  ImGui::SliderFloat("Time scale", &m_timeScale, 0.1f, 4.0f, "%.2fx");
  float hz = 1.0f / m_tickDt;
  if (ImGui::SliderFloat("Ticks/s", &hz, 10.0f, 60.0f, "%.0f")) m_tickDt = 1.0f / std::round(hz);

  static char pathBuf[512];
  std::snprintf(pathBuf, sizeof pathBuf, "%s", m_path.c_str());
  ImGui::SetNextItemWidth(150);
  if (ImGui::InputText("##file", pathBuf, sizeof pathBuf)) m_path = pathBuf;
  mark("file");
  ImGui::SameLine();
  if (ImGui::Button("Load")) loadFile();
  mark("load");
  ImGui::SameLine();
  if (ImGui::Button("Save")) saveFile();
  mark("save");

  if (const CrowdAgent* ag = agent(m_hovered); ag && m_ctx->hoverHit && *m_ctx->hoverHit) {
    ImGui::BeginTooltip();
    agentReadout(m_hovered, ag);
    ImGui::EndTooltip();
  }

  if (ImGui::CollapsingHeader("New agents", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::Checkbox("Anticipate turns", &m_anticipate);
    mark("anticipate");
    ImGui::Checkbox("Optimize visibility", &m_optVis);
    mark("optVis");
    ImGui::Checkbox("Optimize topology", &m_optTopo);
    mark("optTopo");
    ImGui::Checkbox("Obstacle avoidance", &m_avoid);
    mark("avoid");
    ImGui::SliderInt("Avoidance quality", &m_quality, 0, 3);
    ImGui::Checkbox("Separation", &m_separation);
    mark("separation");
    ImGui::SliderFloat("Separation weight", &m_separationWeight, 0.0f, 20.0f, "%.1f");
    ImGui::SliderInt("##count", &m_addCount, 1, 1000);
    ImGui::SameLine();
    if (ImGui::Button("Add random")) addRandomAgents(m_addCount);
    mark("addRandom");
    if (ImGui::Button("Random targets")) randomTargets();
    mark("randomTargets");
  }
  ImGui::Checkbox("Trails", &m_showTrails);
  ImGui::SameLine();
  ImGui::Checkbox("Steering of selected", &m_showDebug);
  // Readouts last: their lines come and go, the widgets above stay where tests click them.
  ImGui::Text("tick %d / %d  (%.2f s)  %s", m_tick, m_totalTicks, double(m_tick) * double(m_tickDt),
              m_running ? "running" : "paused");
  int active = 0;
  for (int i = 0; i < m_runner->agentsSeen(); ++i)
    if (agent(i)) ++active;
  ImGui::Text("%d agents (max %d)", active, m_full.maxAgents);
  ImGui::Text("update %.2f ms a tick", m_lastUpdateMs);
  if (!m_message.empty()) {
    if (m_error) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 240.0f);
    ImGui::TextWrapped("%s", m_message.c_str());
    ImGui::PopTextWrapPos();
    if (m_error) ImGui::PopStyleColor();
  }

  if (const CrowdAgent* ag = agent(m_selected)) {
    agentReadout(m_selected, ag);
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
  if (!m_runner) return;
  const Crowd& crowd = m_crowd->crowd();
  const float lift = 0.08f;
  const int seen = m_runner->agentsSeen();
  // Trails: one batch of lines, fading toward the oldest point.
  if (m_showTrails) {
    dd.begin(render::Prim::Lines, 1.5f);
    for (int i = 0; i < seen; ++i) {
      const int slot = m_runner->slotOf(i);
      if (slot < 0 || !agent(i) || m_trailOwner[size_t(slot)] != i) continue;
      const float* t = &m_trail[size_t(slot) * kTrail * 3];
      for (int k = 1; k < kTrail; ++k) {
        const int a = (m_trailHead + k) % kTrail, b = (m_trailHead + k + 1) % kTrail;
        const uint8_t al = uint8_t(20 + 180 * k / kTrail);
        dd.vertex(t[a * 3], t[a * 3 + 1] + lift, t[a * 3 + 2], render::rgba(0, 0, 0, al));
        dd.vertex(t[b * 3], t[b * 3 + 1] + lift, t[b * 3 + 2], render::rgba(0, 0, 0, al));
      }
    }
    dd.end();
  }
  // Agents: a filled disc, its rim and the velocity, three batches for all of them.
  auto colorOf = [&](int i, const CrowdAgent* ag) {
    if (i == m_selected) return render::rgba(255, 192, 0, 230);
    if (i == m_hovered) return render::rgba(255, 255, 255, 230);
    if (ag->state == CROWDAGENT_STATE_INVALID) return render::rgba(230, 40, 40, 230);
    if (ag->state == CROWDAGENT_STATE_OFFMESH) return render::rgba(180, 60, 230, 230);
    if (ag->targetState == CROWDAGENT_TARGET_FAILED) return render::rgba(255, 100, 60, 230);
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
  if (m_hasLastTarget) dd.cross(m_lastTarget + glm::vec3(0, 0.2f, 0), 0.5f, render::rgba(255, 255, 255, 230), 3.0f, false);

  // The selected agent's steering (RecastDemo's debug drawing).
  const CrowdAgent* ag = agent(m_selected);
  if (!ag || !m_showDebug) return;
  const glm::vec3 pos = v3(ag->npos);
  const float h = ag->params.height;
  for (int k = 0; k < ag->corridor.getPathCount(); ++k)
    drawPolyFill(dd, *m_mesh, ag->corridor.getPath()[k], render::rgba(255, 255, 255, 72), 0.05f);
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
  const CrowdAgentDebugInfo& dbg = m_crowd->debug();
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
  const ObstacleAvoidanceDebugData& vod = m_crowd->vod();
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

void ToolCrowd::dumpState(json& out) const {
  out["tick"] = m_tick;
  out["totalTicks"] = m_totalTicks;
  out["running"] = m_running;
  out["mode"] = kModeKeys[m_mode];
  out["tickDt"] = m_tickDt;
  out["timeScale"] = m_timeScale;
  out["selected"] = m_selected;
  out["hovered"] = m_hovered;
  out["message"] = m_message;
  out["messageIsError"] = m_error;
  out["file"] = m_path;
  out["updateMs"] = m_lastUpdateMs;
  out["goToMs"] = m_lastGoToMs;
  out["checkpoints"] = m_checkpoints.size();
  out["fineCheckpoints"] = m_fine.size();
  out["checkpointEvery"] = m_cpEvery;
  out["commands"] = m_full.commands.size();
  out["agentLines"] = m_full.agentCount;
  out["maxAgents"] = m_full.maxAgents;
  json rects = json::object();
  for (const auto& [k, r] : m_rects) rects[k] = {r[0], r[1], r[2], r[3]};
  out["buttons"] = rects;
  json agents = json::array();
  if (m_runner) {
    for (int i = 0; i < m_runner->agentsSeen(); ++i) {
      const CrowdAgent* ag = agent(i);
      json a = {{"i", i}, {"active", ag != nullptr}};
      if (ag) {
        a["slot"] = m_runner->slotOf(i);
        a["state"] = ag->state;
        a["targetState"] = ag->targetState;
        a["pos"] = vecJson(ag->npos);
        a["vel"] = vecJson(ag->vel);
        a["dvel"] = vecJson(ag->dvel);
        a["nvel"] = vecJson(ag->nvel);
        a["targetPos"] = vecJson(ag->targetPos);
        a["npath"] = ag->corridor.getPathCount();
        a["path0"] = ag->corridor.getFirstPoly();
        a["pathN"] = ag->corridor.getLastPoly();
        a["ncorners"] = ag->ncorners;
        a["nneis"] = ag->nneis;
        a["updateFlags"] = ag->params.updateFlags;
        a["avoidType"] = ag->params.obstacleAvoidanceType;
      }
      agents.push_back(a);
    }
    if (const CrowdAgent* ag = agent(m_selected)) {
      const CrowdAgentDebugInfo& dbg = m_crowd->debug();
      json d;
      d["samples"] = dbg.idx >= 0 ? m_crowd->vod().getSampleCount() : 0;
      d["boundarySegments"] = ag->boundary.getSegmentCount();
      d["corridor"] = std::vector<nav::PolyRef>(ag->corridor.getPath(), ag->corridor.getPath() + ag->corridor.getPathCount());
      d["optStart"] = vecJson(dbg.optStart);
      d["optEnd"] = vecJson(dbg.optEnd);
      out["debug"] = d;
    }
  }
  out["agents"] = agents;
}

void ToolCrowd::saveScenario(json& out) const {
  std::string text, why;
  if (!nav::crowd::writeScenario(compact(), &text, &why)) text.clear(); // every command was checked when given
  out["crowd"] = text;
  out["tick"] = m_tick;
  out["mode"] = kModeKeys[m_mode];
  out["selected"] = m_selected;
  out["tickDt"] = exactFloat(m_tickDt);
  out["timeScale"] = exactFloat(m_timeScale);
  out["updateFlags"] = int(agentParams().updateFlags);
  out["avoidQuality"] = m_quality;
  out["separationWeight"] = exactFloat(m_separationWeight);
  out["file"] = m_path;
}

bool ToolCrowd::loadScenario(const json& in, std::string& error) {
  if (!in.is_object()) {
    error = "must be an object";
    return false;
  }
  for (auto it = in.begin(); it != in.end(); ++it) {
    static const char* const known[] = {"crowd", "tick", "mode", "selected", "tickDt", "timeScale", "updateFlags",
                                        "avoidQuality", "separationWeight", "file"};
    if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return it.key() == k; }) == std::end(known)) {
      error = it.key() + ": unknown key";
      return false;
    }
  }
  auto getInt = [&](const char* k, int lo, int hi, int& v) {
    if (!in.contains(k)) return true;
    const json& j = in[k];
    if (!j.is_number_integer() || j.get<long long>() < lo || j.get<long long>() > hi) {
      error = std::string(k) + ": must be an integer " + std::to_string(lo) + ".." + std::to_string(hi);
      return false;
    }
    v = j.get<int>();
    return true;
  };
  auto getFloat = [&](const char* k, float lo, float hi, float& v) {
    if (!in.contains(k)) return true;
    float f = 0;
    if (!readFloat(in[k], k, f, error)) return false;
    if (!(f >= lo && f <= hi)) {
      char b[128];
      std::snprintf(b, sizeof b, "%s: must be %g..%g", k, double(lo), double(hi));
      error = b;
      return false;
    }
    v = f;
    return true;
  };
  int tick = 0, selected = -1, flags = SCENARIO_ALL_UPDATE_FLAGS & ~SCENARIO_SEPARATION, quality = m_quality;
  float tickDt = m_tickDt, timeScale = m_timeScale, sepW = m_separationWeight;
  int mode = m_mode;
  std::string path = m_path;
  if (in.contains("mode")) {
    const json& j = in["mode"];
    mode = -1;
    for (int i = 0; i < 3; ++i)
      if (j.is_string() && j.get<std::string>() == kModeKeys[i]) mode = i;
    if (mode < 0) {
      error = "mode: must be \"agents\", \"select\" or \"target\"";
      return false;
    }
  }
  if (in.contains("file")) {
    if (!in["file"].is_string()) {
      error = "file: must be a string";
      return false;
    }
    path = in["file"].get<std::string>();
  }
  if (!getInt("tick", 0, kMaxViewerTicks, tick) || !getInt("selected", -1, SCENARIO_MAX_AGENT_LINES - 1, selected) ||
      !getInt("updateFlags", 0, SCENARIO_ALL_UPDATE_FLAGS, flags) || !getInt("avoidQuality", 0, 3, quality) ||
      !getFloat("tickDt", 1e-3f, SCENARIO_MAX_DT, tickDt) || !getFloat("timeScale", 0.01f, 100.0f, timeScale) ||
      !getFloat("separationWeight", 0.0f, SCENARIO_MAX_PARAM, sepW))
    return false;
  CScenario full;
  int ticks = 0;
  bool hasCrowd = false;
  if (in.contains("crowd")) {
    if (!in["crowd"].is_string()) {
      error = "crowd: must be the .crowd.txt text";
      return false;
    }
    const std::string text = in["crowd"].get<std::string>();
    if (!text.empty()) {
      CScenario s;
      std::string why;
      if (!nav::crowd::parseScenario(text, "crowd", &s, &why) || !expand(s, &full, &ticks, &why)) {
        error = "crowd: " + why;
        return false;
      }
      hasCrowd = true;
    }
  }
  if (tick > ticks) {
    error = "tick: " + std::to_string(tick) + " is past the crowd's " + std::to_string(ticks) + " ticks";
    return false;
  }
  // Valid: apply.
  m_mode = mode;
  m_path = path;
  m_tickDt = tickDt;
  m_timeScale = timeScale;
  m_anticipate = flags & SCENARIO_ANTICIPATE_TURNS;
  m_avoid = flags & SCENARIO_OBSTACLE_AVOIDANCE;
  m_separation = flags & SCENARIO_SEPARATION;
  m_optVis = flags & SCENARIO_OPTIMIZE_VIS;
  m_optTopo = flags & SCENARIO_OPTIMIZE_TOPO;
  m_quality = quality;
  m_separationWeight = sepW;
  if (!hasCrowd) {
    clearHistory();
    full = m_full;
  }
  adopt(std::move(full), ticks, tick, selected);
  return true;
}

} // namespace

std::unique_ptr<Tool> makeToolCrowd() { return std::make_unique<ToolCrowd>(); }

} // namespace navbench
