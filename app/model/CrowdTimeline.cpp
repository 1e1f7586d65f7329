// CrowdTimeline.cpp: the recorded crowd, its checkpoints and replays (see CrowdTimeline.h).
#include "app/model/CrowdTimeline.h"

#include <algorithm>
#include <cstring>

namespace navbench {

using namespace nav::crowd;

DebugCrowd::DebugCrowd(const nav::NavMesh* mesh) : DebugCrowd(&mesh, 1) {}

DebugCrowd::DebugCrowd(const nav::NavMesh* const* meshes, int count) : NavCrowdAdapter(meshes, count) {
  m_vod.init(kMaxDebugSamples);
  std::memset(&m_debug, 0, sizeof m_debug);
  m_debug.idx = -1;
  m_debug.vod = &m_vod;
}

void DebugCrowd::update(float dt) {
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

struct CrowdTimeline::Checkpoint {
  int tick = 0;
  size_t fullPos = 0; ///< m_fullPos then: the next command is the tick after, or the end
  CrowdSnapshot crowd;
  RunnerState runner;
  std::vector<float> trail;
  std::vector<int> trailOwner;
  int trailHead = 0;
};

CrowdTimeline::CrowdTimeline() { clear(); }
CrowdTimeline::~CrowdTimeline() = default;

// ---- the navmesh -------------------------------------------------------------------------------

bool CrowdTimeline::attach(const nav::NavMesh* mesh, std::string* why) { return attach(&mesh, 1, why); }

bool CrowdTimeline::attach(const nav::NavMesh* const* meshes, int count, std::string* why) {
  count = std::max(0, std::min(count, nav::crowd::CROWD_MAX_NAV_TYPES));
  if (m_runner && int(m_meshes.size()) == count && std::equal(m_meshes.begin(), m_meshes.end(), meshes)) return true;
  if (count < 1 || !meshes[0]) {
    if (why) *why = "no navmesh";
    detach();
    return false;
  }
  m_meshes.assign(meshes, meshes + count);
  m_mesh = m_meshes[0];
  dropCheckpoints(0);
  m_checkpointPool.clear();
  m_crowd = std::make_unique<DebugCrowd>(m_meshes.data(), count);
  m_run = Scenario();
  m_run.maxAgents = m_full.maxAgents;
  m_run.maxAgentRadius = m_full.maxAgentRadius;
  m_run.agentCount = SCENARIO_MAX_AGENT_LINES; // the runner's agent-index table: room to add agents live
  m_run.commands.reserve(m_full.commands.capacity());
  m_runner = std::make_unique<ScenarioRunner<DebugCrowd>>(*m_crowd, m_run);
  m_trail.assign(size_t(m_full.maxAgents) * kTrail * 3, 0.0f);
  m_trailOwner.assign(size_t(m_full.maxAgents), -1);
  return restart(why);
}

void CrowdTimeline::detach() {
  dropCheckpoints(0);
  m_checkpointPool.clear();
  m_runner.reset();
  m_crowd.reset();
  m_mesh = nullptr;
  m_meshes.clear();
  m_tick = 0;
  m_fullPos = 0;
}

/// Back to tick 0 (the commands given at tick 0 run).
bool CrowdTimeline::restart(std::string* why) {
  m_run.commands.clear();
  m_run.navTypes = m_full.navTypes;
  m_fullPos = 0;
  m_tick = 0;
  std::fill(m_trailOwner.begin(), m_trailOwner.end(), -1);
  std::string w;
  if (!m_runner->start(&w)) {
    if (why) *why = w;
    detach();
    return false;
  }
  applyPending();
  return true;
}

/// Runs the recorded commands of the current tick that the runner has not run yet.
void CrowdTimeline::applyPending() {
  bool any = false;
  while (m_fullPos < m_full.commands.size() && m_full.commands[m_fullPos].op != ScenarioOp::Tick) {
    m_run.commands.push_back(m_full.commands[m_fullPos++]);
    any = true;
  }
  if (any) m_runner->step(nullptr); // runs them and stops: no tick after them yet
  recordTrails();
}

// ---- the history -------------------------------------------------------------------------------

void CrowdTimeline::clear() {
  dropCheckpoints(0);
  m_full = Scenario();
  m_full.maxAgents = kDefaultMaxAgents;
  m_full.maxAgentRadius = kDefaultRadius;
  m_full.hasCrowdLine = true;
  m_full.commands.reserve(4096);
  m_totalTicks = 0;
  m_tick = 0;
  m_fullPos = 0;
  if (m_runner) restart(nullptr);
}

bool CrowdTimeline::setAgentTypes(const std::vector<std::string>& names, std::string* why) {
  for (const ScenarioCommand& c : m_full.commands)
    if (c.op == ScenarioOp::Agent) {
      if (why) *why = "agent types are set before the first agent (the crowd has agents)";
      return false;
    }
  // Checked as the file's own lines are: names, duplicates, `default`, the count.
  std::string text = "crowd 1 1\n";
  for (const std::string& n : names) text += "navmesh " + n + "\n";
  Scenario probe;
  if (!parseScenario(text, "agent types", &probe, why)) return false;
  m_full.navTypes = probe.navTypes;
  for (ScenarioNavType& t : m_full.navTypes) t.line = 0;
  if (m_runner) return restart(why);
  return true;
}

bool CrowdTimeline::setMaxAgentRadius(float radius, std::string* why) {
  for (const ScenarioCommand& c : m_full.commands)
    if (c.op == ScenarioOp::Agent) {
      if (why) *why = "the crowd's agent radius is set before the first agent (the crowd has agents)";
      return false;
    }
  if (!(radius > 0.0f) || radius > nav::crowd::SCENARIO_MAX_AGENT_RADIUS) {
    if (why) *why = "agent radius " + std::to_string(radius) + " is outside (0, 100] wu";
    return false;
  }
  if (m_full.maxAgentRadius == radius) return true;
  m_full.maxAgentRadius = radius;
  if (!m_runner) return true;
  // The runner's crowd is made with the radius: make it again.
  std::vector<const nav::NavMesh*> meshes = m_meshes;
  detach();
  return attach(meshes.data(), int(meshes.size()), why);
}

void CrowdTimeline::adopt(Scenario&& full, int ticks) {
  detach();
  m_full = std::move(full);
  m_totalTicks = ticks;
}

Scenario CrowdTimeline::compact() const {
  Scenario s;
  s.maxAgents = m_full.maxAgents;
  s.maxAgentRadius = m_full.maxAgentRadius;
  s.hasCrowdLine = true;
  s.navTypes = m_full.navTypes;
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

bool CrowdTimeline::expand(const Scenario& in, Scenario* out, int* ticks, std::string* why) {
  if (in.tickCount > kMaxTicks) {
    *why = std::to_string(in.tickCount) + " ticks: the viewer plays at most " + std::to_string(kMaxTicks) +
           " (navbench crowd runs any length)";
    return false;
  }
  *out = Scenario();
  out->maxAgents = in.maxAgents;
  out->maxAgentRadius = in.maxAgentRadius;
  out->hasCrowdLine = true;
  out->navTypes = in.navTypes;
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

/// The generations of every type's mesh in one number (an edit of any of them changes it).
uint64_t CrowdTimeline::meshGeneration() const {
  uint64_t h = 1469598103934665603ull;
  for (const nav::NavMesh* m : m_meshes) h = (h ^ uint64_t(m->generation())) * 1099511628211ull;
  return h;
}

int CrowdTimeline::agentLines() const {
  int n = 0;
  for (size_t i = 0; i < m_fullPos; ++i)
    if (m_full.commands[i].op == ScenarioOp::Agent) ++n;
  return n;
}

bool CrowdTimeline::issue(const std::vector<ScenarioCommand>& cmds, std::string* why, int* droppedTicks) {
  if (droppedTicks) *droppedTicks = 0;
  if (!m_runner) {
    *why = "no crowd: open a navmesh first";
    return false;
  }
  int agents = agentLines();
  for (const ScenarioCommand& c : cmds) {
    const std::string bad =
        checkScenarioCommand(c, m_full.maxAgents, m_full.maxAgentRadius, agents, agentTypeCount());
    if (!bad.empty()) {
      *why = bad;
      return false;
    }
    if (c.op == ScenarioOp::Agent) ++agents;
  }
  if (agents > SCENARIO_MAX_AGENT_LINES) {
    *why = "a crowd scenario holds at most " + std::to_string(SCENARIO_MAX_AGENT_LINES) + " agent lines";
    return false;
  }
  if (m_fullPos < m_full.commands.size()) {
    if (droppedTicks) *droppedTicks = m_totalTicks - m_tick;
    m_full.commands.resize(m_fullPos);
    m_full.tickCount = m_totalTicks = m_tick;
  }
  dropCheckpoints(m_tick); // the commands after a checkpoint of this tick change
  m_full.commands.insert(m_full.commands.end(), cmds.begin(), cmds.end());
  m_full.agentCount = agents;
  const size_t notes = m_runner->notes().size();
  applyPending();
  const auto& n = m_runner->notes();
  if (n.size() > notes) {
    *why = n[notes].text;
    if (n.size() > notes + 1) *why += " (and " + std::to_string(n.size() - notes - 1) + " more)";
    return false;
  }
  return true;
}

// ---- time --------------------------------------------------------------------------------------

float CrowdTimeline::nextDt(float newDt) const {
  return m_fullPos < m_full.commands.size() ? m_full.commands[m_fullPos].dt : newDt;
}

double CrowdTimeline::updateSeconds() const { return m_runner ? m_runner->updateSeconds() : 0.0; }

bool CrowdTimeline::advance(float newDt, std::string* why) {
  if (!m_runner) return false;
  if (m_fullPos < m_full.commands.size()) {
    m_run.commands.push_back(m_full.commands[m_fullPos++]);
  } else {
    if (m_totalTicks >= kMaxTicks) {
      if (why)
        *why = "the crowd has " + std::to_string(kMaxTicks) + " ticks, the viewer's limit: save it and start a new one";
      return false;
    }
    ScenarioCommand t;
    t.op = ScenarioOp::Tick;
    t.ticks = 1;
    t.dt = newDt;
    m_full.commands.push_back(t);
    m_run.commands.push_back(t);
    ++m_fullPos;
    m_full.tickCount = ++m_totalTicks;
  }
  m_crowd->debugSlot = m_runner->slotOf(m_debugAgent);
  m_runner->step(nullptr);
  ++m_tick;
  applyPending();
  takeCheckpoint();
  return true;
}

void CrowdTimeline::goTo(int t, float newDt) {
  if (!m_runner) return;
  t = std::max(0, std::min(t, std::max(m_totalTicks, m_tick + 1)));
  if ((!m_checkpoints.empty() || !m_fine.empty()) && meshGeneration() != m_cpGeneration)
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
    if (!restart(nullptr)) return;
  }
  // Going back more than a few ticks: fine checkpoints over the ticks replayed now, so the next
  // steps back (usually to the ticks just before) replay only a few ticks each.
  const int span = t - m_tick;
  const int fineStep = (span + kFineCheckpoints - 1) / kFineCheckpoints;
  const bool fine = back && span > kFineCheckpoints && m_checkpointsOn;
  if (fine) dropFine(0);
  const int from = m_tick;
  while (m_tick < t && advance(newDt)) {
    if (fine && m_tick < t && (m_tick - from) % fineStep == 0) takeFine();
  }
}

// ---- agents ------------------------------------------------------------------------------------

int CrowdTimeline::agentsSeen() const { return m_runner ? m_runner->agentsSeen() : 0; }
int CrowdTimeline::slotOf(int i) const { return m_runner ? m_runner->slotOf(i) : -1; }

const std::vector<RunNote>& CrowdTimeline::notes() const {
  static const std::vector<RunNote> none;
  return m_runner ? m_runner->notes() : none;
}

const CrowdAgent* CrowdTimeline::agent(int i) const {
  if (!m_runner) return nullptr;
  const int slot = m_runner->slotOf(i);
  const CrowdAgent* ag = slot >= 0 ? m_crowd->crowd().getAgent(slot) : nullptr;
  return ag && ag->active ? ag : nullptr;
}

int CrowdTimeline::agentAt(const float* p) const {
  int best = -1;
  float bestD = 1e30f;
  for (int i = 0; i < agentsSeen(); ++i) {
    const CrowdAgent* ag = agent(i);
    if (!ag) continue;
    const float dx = ag->npos[0] - p[0], dz = ag->npos[2] - p[2], dy = p[1] - ag->npos[1];
    const float d2 = dx * dx + dz * dz, r = ag->params.radius * 1.5f;
    if (d2 < r * r && dy > -1.0f && dy < ag->params.height + 1.0f && d2 < bestD) {
      bestD = d2;
      best = i;
    }
  }
  return best;
}

void CrowdTimeline::recordTrails() {
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

// ---- checkpoints -------------------------------------------------------------------------------

void CrowdTimeline::setCheckpointsEnabled(bool on) {
  m_checkpointsOn = on;
  if (!on) dropCheckpoints(0);
}

/// Drops the checkpoints at ticks >= fromTick (kept for reuse).
void CrowdTimeline::dropCheckpoints(int fromTick) {
  while (!m_checkpoints.empty() && m_checkpoints.back()->tick >= fromTick) {
    m_checkpointPool.push_back(std::move(m_checkpoints.back()));
    m_checkpoints.pop_back();
  }
  if (m_checkpoints.empty()) m_cpEvery = kCheckpointEvery;
  dropFine(fromTick);
}

void CrowdTimeline::dropFine(int fromTick) {
  while (!m_fine.empty() && m_fine.back()->tick >= fromTick) {
    m_checkpointPool.push_back(std::move(m_fine.back()));
    m_fine.pop_back();
  }
}

/// An allocated checkpoint for this crowd (from the pool), or null when out of memory.
std::unique_ptr<CrowdTimeline::Checkpoint> CrowdTimeline::grabCheckpoint() {
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
bool CrowdTimeline::fillCheckpoint(std::unique_ptr<Checkpoint>& cp) {
  if (nav::statusFailed(m_crowd->crowd().saveState(cp->crowd))) {
    m_checkpointPool.push_back(std::move(cp));
    return false;
  }
  if (m_checkpoints.empty() && m_fine.empty()) m_cpGeneration = meshGeneration();
  cp->tick = m_tick;
  cp->fullPos = m_fullPos;
  m_runner->saveState(&cp->runner);
  cp->trail.assign(m_trail.begin(), m_trail.end());
  cp->trailOwner.assign(m_trailOwner.begin(), m_trailOwner.end());
  cp->trailHead = m_trailHead;
  return true;
}

void CrowdTimeline::takeFine() {
  if (!m_fine.empty() && m_fine.back()->tick >= m_tick) return;
  std::unique_ptr<Checkpoint> cp = grabCheckpoint();
  if (cp && fillCheckpoint(cp)) m_fine.push_back(std::move(cp));
}

/// A checkpoint of the current tick when it is due (a multiple of m_cpEvery past the last one).
void CrowdTimeline::takeCheckpoint() {
  if (!m_checkpointsOn || !m_runner || m_tick <= 0 || m_tick % m_cpEvery != 0) return;
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
int CrowdTimeline::checkpointCap() const {
  const size_t one = m_checkpoints.empty() ? 0 : m_checkpoints.front()->crowd.bytes() + m_trail.size() * sizeof(float);
  if (!one) return kMaxCheckpoints;
  return int(std::max<size_t>(kMinCheckpoints, std::min<size_t>(kMaxCheckpoints, kCheckpointBytes / one)));
}

void CrowdTimeline::restoreCheckpoint(const Checkpoint& cp) {
  if (nav::statusFailed(m_crowd->crowd().restoreState(cp.crowd))) {
    restart(nullptr);
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
  m_trail.assign(cp.trail.begin(), cp.trail.end());
  m_trailOwner.assign(cp.trailOwner.begin(), cp.trailOwner.end());
  m_trailHead = cp.trailHead;
}

} // namespace navbench
