// CrowdModel.cpp: the Crowd tool's edits, play state, files and scenario JSON (see CrowdModel.h).
#include "app/model/CrowdModel.h"

#include "app/Log.h"
#include "app/NavState.h"
#include "app/model/AgentSet.h"
#include "nav/base/Json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

namespace navbench {

using namespace nav::crowd;
using nlohmann::json;

namespace {

const char* const kModeKeys[] = {"agents", "select", "target"};

// Random points for "Add random" / "Random targets" (findRandomPoint takes a plain function); the
// points go into the commands, so replays do not depend on it.
std::mt19937 g_rng(12345);
float frand() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(g_rng) * 0.99999994f; }

json vecJson(const float* v) { return json::array({v[0], v[1], v[2]}); }

std::string fmt3(const glm::vec3& p) {
  char b[96];
  std::snprintf(b, sizeof b, "(%.2f, %.2f, %.2f)", double(p.x), double(p.y), double(p.z));
  return b;
}

ScenarioCommand command(ScenarioOp op, int agent, const glm::vec3& p) {
  ScenarioCommand c;
  c.op = op;
  c.agent = agent;
  c.v[0] = p.x;
  c.v[1] = p.y;
  c.v[2] = p.z;
  return c;
}

} // namespace

void CrowdModel::bind(NavState* nav, Log* log) {
  m_nav = nav;
  m_log = log;
}

bool CrowdModel::typeMeshes(std::vector<const nav::NavMesh*>& meshes, std::string* why) {
  const AgentSet& a = *m_agents;
  std::vector<std::string> names;
  float radius = 0.0f;
  for (int i = 0; i < a.count(); ++i) {
    names.push_back(a.type(i).name);
    radius = std::max(radius, a.type(i).settings.agentRadius);
  }
  const std::vector<ScenarioNavType>& types = m_timeline.history().navTypes;
  bool same = types.size() == names.size();
  for (size_t i = 0; same && i < names.size(); ++i) same = types[i].name == names[i];
  // A crowd without agents takes the level's types (one with agents keeps its own: a loaded file).
  std::string ignored;
  if (!same) m_timeline.setAgentTypes(names, &ignored);
  if (m_timeline.history().maxAgentRadius < radius) m_timeline.setMaxAgentRadius(radius, &ignored);
  for (const ScenarioNavType& t : m_timeline.history().navTypes) {
    const int i = a.find(t.name);
    const NavState* nav = i >= 0 ? a.nav(i) : nullptr;
    if (i < 0) return *why = "type " + t.name + " is not an agent type of this level", false;
    if (!nav) return *why = "agent " + t.name + " has no navmesh yet (" + a.bakeState(i) + ")", false;
    meshes.push_back(&nav->mesh());
  }
  return true;
}

int CrowdModel::crowdTypeOf(int agent) const {
  if (!m_agents || agent < 0 || agent >= m_agents->count()) return 0;
  const std::vector<ScenarioNavType>& types = m_timeline.history().navTypes;
  for (size_t t = 0; t < types.size(); ++t)
    if (types[t].name == m_agents->type(agent).name) return int(t) + 1;
  return 0;
}

bool CrowdModel::typeColor(int t, uint32_t* rgb) const {
  const std::vector<ScenarioNavType>& types = m_timeline.history().navTypes;
  if (!m_agents || !m_agents->enabled() || t < 1 || t > int(types.size())) return false;
  const int i = m_agents->find(types[size_t(t - 1)].name);
  if (i < 0) return false;
  *rgb = m_agents->type(i).color;
  return true;
}

bool CrowdModel::ensure() {
  if (!m_nav || !m_nav->loaded()) return false;
  std::string why;
  std::vector<const nav::NavMesh*> meshes{&m_nav->mesh()};
  if (m_agents && m_agents->enabled() && !typeMeshes(meshes, &why)) {
    fail("crowd: " + why);
    return false;
  }
  // Another agent made active moves the navmeshes: the crowd is made again, at the same tick.
  const bool wasAttached = m_timeline.attached();
  const int at = m_timeline.tick();
  if (!m_timeline.attach(meshes.data(), int(meshes.size()), &why)) {
    fail("crowd: " + why);
    return false;
  }
  if (wasAttached && m_timeline.tick() != at && m_wantTick < 0) m_wantTick = at;
  if (m_wantTick >= 0) { // a scenario's tick, reached once the navmesh is there
    const int t = m_wantTick;
    m_wantTick = -1;
    goTo(t);
  }
  return true;
}

void CrowdModel::reset() {
  m_timeline.detach();
  m_timeline.clear();
  m_wantTick = -1;
  m_acc = 0;
  m_running = false;
  m_selected = -1;
  m_message.clear();
  m_error = false;
}

// ---- time ----------------------------------------------------------------------------------------

void CrowdModel::setTicksPerSecond(float hz) { m_tickDt = 1.0f / std::round(hz); }

bool CrowdModel::advance() {
  std::string why;
  m_timeline.setDebugAgent(m_selected);
  if (m_timeline.advance(m_tickDt, &why)) return true;
  if (!why.empty()) fail(why);
  return false;
}

void CrowdModel::play(float dt) {
  if (!m_running || !std::isfinite(dt) || !(dt > 0) || !m_timeline.attached()) return;
  m_acc += double(dt) * double(timeScale);
  int n = 0;
  const double t0 = m_timeline.updateSeconds();
  while (m_acc >= double(m_timeline.nextDt(m_tickDt)) && n < kMaxTicksPerFrame) {
    m_acc -= double(m_timeline.nextDt(m_tickDt));
    if (!advance()) {
      m_running = false;
      break;
    }
    ++n;
  }
  if (n == kMaxTicksPerFrame) m_acc = 0; // slower than real time: drop the backlog
  if (n > 0) m_lastUpdateMs = (m_timeline.updateSeconds() - t0) * 1000.0 / n;
}

bool CrowdModel::step() {
  m_running = false;
  return ensure() && advance();
}

void CrowdModel::goTo(int t) {
  m_running = false;
  if (!ensure()) return;
  const auto t0 = std::chrono::steady_clock::now();
  m_acc = 0;
  m_timeline.setDebugAgent(m_selected);
  m_timeline.goTo(t, m_tickDt);
  m_lastGoToMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// ---- agents --------------------------------------------------------------------------------------

void CrowdModel::select(int i) {
  m_selected = i;
  m_timeline.setDebugAgent(i);
}

void CrowdModel::selectAt(const glm::vec3& p) {
  if (!ensure()) return;
  select(m_timeline.agentAt(&p.x));
  done(m_selected >= 0 ? "selected agent " + std::to_string(m_selected) : "no agent there: none selected");
}

int CrowdModel::activeAgents() const {
  int n = 0;
  for (int i = 0; i < m_timeline.agentsSeen(); ++i)
    if (m_timeline.agent(i)) ++n;
  return n;
}

bool CrowdModel::issue(const std::vector<ScenarioCommand>& cmds) {
  if (!ensure()) return false;
  std::string why;
  int dropped = 0;
  const int tick = m_timeline.tick();
  const bool ok = m_timeline.issue(cmds, &why, &dropped);
  if (dropped > 0 && m_log)
    m_log->info("Crowd: the " + std::to_string(dropped) + " recorded ticks after tick " + std::to_string(tick) +
                " were dropped (a new command at tick " + std::to_string(tick) + ")");
  if (!ok) fail(why);
  return ok;
}

ScenarioAgentParams CrowdModel::agentParams() const {
  ScenarioAgentParams p;
  p.radius = m_timeline.history().maxAgentRadius;
  p.height = 2.0f;
  p.maxAcceleration = 8.0f;
  p.maxSpeed = 3.5f;
  p.collisionQueryRange = p.radius * 12.0f;
  p.pathOptimizationRange = p.radius * 30.0f;
  const CrowdAgentOptions& o = options;
  p.updateFlags = uint8_t((o.anticipate ? SCENARIO_ANTICIPATE_TURNS : 0) | (o.avoid ? SCENARIO_OBSTACLE_AVOIDANCE : 0) |
                          (o.separation ? SCENARIO_SEPARATION : 0) | (o.optVis ? SCENARIO_OPTIMIZE_VIS : 0) |
                          (o.optTopo ? SCENARIO_OPTIMIZE_TOPO : 0));
  p.obstacleAvoidanceType = uint8_t(o.quality);
  p.separationWeight = o.separationWeight;
  p.navType = uint8_t(std::max(0, std::min(o.agentType, m_timeline.agentTypeCount() - 1)));
  p.avoidancePriority = uint8_t(std::max(0, std::min(o.priority, 255)));
  if (o.radius > 0.0f && o.radius < p.radius) { // finite and inside the crowd's MAXRADIUS
    p.radius = o.radius;
    p.collisionQueryRange = p.radius * 12.0f;
    p.pathOptimizationRange = p.radius * 30.0f;
  }
  if (m_agents && m_agents->enabled()) { // the active agent's type and size
    const nav::bake::BakeSettings& s = m_agents->type(m_agents->active()).settings;
    p.navType = uint8_t(crowdTypeOf(m_agents->active()));
    p.radius = std::min(s.agentRadius, m_timeline.history().maxAgentRadius);
    p.height = s.agentHeight;
    p.collisionQueryRange = p.radius * 12.0f;
    p.pathOptimizationRange = p.radius * 30.0f;
  }
  return p;
}

void CrowdModel::addAgentAt(const glm::vec3& p) {
  if (!ensure()) return;
  ScenarioCommand c = command(ScenarioOp::Agent, 0, p);
  c.agentParams = agentParams();
  const int idx = m_timeline.agentLines();
  if (!issue({c})) return;
  done("added agent " + std::to_string(idx) + " at " + fmt3(p));
  // A new agent goes where the others were sent (RecastDemo's CrowdTool does the same).
  if (m_hasTarget) issue({command(ScenarioOp::Target, idx, m_target)});
}

void CrowdModel::removeAgent(int i) {
  if (issue({command(ScenarioOp::Remove, i, glm::vec3(0.0f))})) done("removed agent " + std::to_string(i));
  if (m_selected == i) select(-1);
}

void CrowdModel::removeAt(const glm::vec3& p) {
  if (!ensure()) return;
  const int i = m_timeline.agentAt(&p.x);
  if (i < 0) return fail("no agent under the cursor to remove");
  removeAgent(i);
}

void CrowdModel::addRandomAgents(int n) {
  if (!ensure()) return;
  g_rng.seed(uint32_t(12345 + m_timeline.agentLines()));
  std::vector<ScenarioCommand> cmds;
  const int base = m_timeline.agentLines();
  for (int i = 0; i < n; ++i) {
    nav::PolyRef ref = 0;
    float p[3];
    if (nav::statusFailed(m_nav->query().findRandomPoint(&m_nav->filter(), frand, &ref, p))) continue;
    ScenarioCommand c = command(ScenarioOp::Agent, 0, glm::vec3(p[0], p[1], p[2]));
    c.agentParams = agentParams();
    cmds.push_back(c);
  }
  if (issue(cmds))
    done("added " + std::to_string(cmds.size()) + " agents at random points (agents " + std::to_string(base) + ".." +
         std::to_string(base + int(cmds.size()) - 1) + ")");
}

void CrowdModel::randomTargets() {
  if (!ensure()) return;
  g_rng.seed(uint32_t(777 + m_timeline.tick()));
  std::vector<ScenarioCommand> cmds;
  for (int i = 0; i < m_timeline.agentsSeen(); ++i) {
    if (m_timeline.slotOf(i) < 0) continue;
    nav::PolyRef ref = 0;
    float p[3];
    if (nav::statusFailed(m_nav->query().findRandomPoint(&m_nav->filter(), frand, &ref, p))) continue;
    cmds.push_back(command(ScenarioOp::Target, i, glm::vec3(p[0], p[1], p[2])));
  }
  m_hasTarget = false;
  if (issue(cmds)) done("sent " + std::to_string(cmds.size()) + " agents to random points");
}

void CrowdModel::setTarget(const glm::vec3& p) {
  if (!ensure()) return;
  std::vector<ScenarioCommand> cmds;
  if (m_selected >= 0 && m_timeline.slotOf(m_selected) >= 0) {
    cmds.push_back(command(ScenarioOp::Target, m_selected, p));
  } else {
    for (int i = 0; i < m_timeline.agentsSeen(); ++i)
      if (m_timeline.slotOf(i) >= 0) cmds.push_back(command(ScenarioOp::Target, i, p));
  }
  if (cmds.empty()) return fail("no agents to send: click the navmesh to add some");
  m_target = p;
  m_hasTarget = m_selected < 0;
  m_lastTarget = p;
  m_hasLastTarget = true;
  if (issue(cmds))
    done("target " + fmt3(p) + " for " +
         (cmds.size() == 1 ? "agent " + std::to_string(cmds[0].agent) : std::to_string(cmds.size()) + " agents"));
}

void CrowdModel::setVelocity(const glm::vec3& p) {
  if (!ensure()) return;
  std::vector<ScenarioCommand> cmds;
  const bool one = m_selected >= 0 && m_timeline.agent(m_selected);
  for (int i = 0; i < m_timeline.agentsSeen(); ++i) {
    const CrowdAgent* ag = m_timeline.agent(i);
    if (!ag || (one && i != m_selected)) continue;
    const float dx = p.x - ag->npos[0], dz = p.z - ag->npos[2], len = std::sqrt(dx * dx + dz * dz);
    if (!(len > 1e-4f)) continue;
    cmds.push_back(command(ScenarioOp::Velocity, i,
                           glm::vec3(dx / len * ag->params.maxSpeed, 0.0f, dz / len * ag->params.maxSpeed)));
  }
  if (cmds.empty()) return fail("no agents to drive: click the navmesh to add some");
  if (issue(cmds)) done("velocity toward " + fmt3(p) + " for " + std::to_string(cmds.size()) + " agent(s)");
}

// ---- files, messages -----------------------------------------------------------------------------

void CrowdModel::adopt(Scenario&& s, int ticks, int atTick, int selected) {
  m_timeline.adopt(std::move(s), ticks);
  select(selected);
  m_running = false;
  m_hasTarget = m_hasLastTarget = false;
  m_wantTick = atTick;
  ensure(); // goes to atTick now when there is a navmesh
}

void CrowdModel::loadFile() {
  Scenario s, full;
  std::string why;
  int ticks = 0;
  const std::string p = path;
  if (!loadScenarioFile(p, &s, &why) || !CrowdTimeline::expand(s, &full, &ticks, &why)) {
    if (why.rfind(p, 0) != 0) why = p + ": " + why;
    return fail("load: " + why);
  }
  adopt(std::move(full), ticks, 0, -1);
  done("loaded " + p + ": " + std::to_string(s.agentCount) + " agent lines, " + std::to_string(ticks) +
       " ticks (at tick 0: End goes to the last)");
  if (m_log) m_log->info("Crowd: " + m_message);
}

void CrowdModel::saveFile() {
  std::string why;
  if (!saveScenarioFile(m_timeline.compact(), path, &why)) return fail("save: " + why);
  done("saved " + path + " (" + std::to_string(m_timeline.totalTicks()) + " ticks)");
  if (m_log) m_log->info("Crowd: " + m_message);
}

void CrowdModel::fail(const std::string& msg) {
  m_message = msg;
  m_error = true;
  if (m_log) m_log->error("Crowd: " + msg);
}

void CrowdModel::done(const std::string& msg) {
  m_message = msg;
  m_error = false;
}

// ---- JSON ----------------------------------------------------------------------------------------

void CrowdModel::saveScenario(json& out) const {
  std::string text, why;
  if (!writeScenario(m_timeline.compact(), &text, &why)) text.clear(); // every command was checked when given
  out["crowd"] = text;
  out["tick"] = m_timeline.tick();
  out["mode"] = kModeKeys[mode];
  out["selected"] = m_selected;
  out["tickDt"] = base::exactFloat(m_tickDt);
  out["timeScale"] = base::exactFloat(timeScale);
  out["updateFlags"] = int(agentParams().updateFlags);
  out["avoidQuality"] = options.quality;
  out["separationWeight"] = base::exactFloat(options.separationWeight);
  out["file"] = path;
}

bool CrowdModel::loadScenario(const base::JsonIn& in) {
  if (!in.object({"crowd", "tick", "mode", "selected", "tickDt", "timeScale", "updateFlags", "avoidQuality",
                  "separationWeight", "file"}))
    return false;
  int tick = 0, selected = -1, flags = SCENARIO_ALL_UPDATE_FLAGS & ~SCENARIO_SEPARATION, quality = options.quality;
  float tickDt = m_tickDt, scale = timeScale, sepW = options.separationWeight;
  int md = mode;
  std::string file = path;
  if (in.has("mode")) {
    const json& j = in["mode"].json();
    md = -1;
    for (int i = 0; i < 3; ++i)
      if (j.is_string() && j.get<std::string>() == kModeKeys[i]) md = i;
    if (md < 0) return in["mode"].fail("must be \"agents\", \"select\" or \"target\"");
  }
  // (float bounds as floats: a value written from the float bound reads back in range)
  if (!in.opt("file", file) || !in.opt("tick", tick, 0, CrowdTimeline::kMaxTicks) ||
      !in.opt("selected", selected, -1, SCENARIO_MAX_AGENT_LINES - 1) ||
      !in.opt("updateFlags", flags, 0, SCENARIO_ALL_UPDATE_FLAGS) || !in.opt("avoidQuality", quality, 0, 3) ||
      !in.opt("tickDt", tickDt, double(1e-3f), double(SCENARIO_MAX_DT)) ||
      !in.opt("timeScale", scale, double(0.01f), 100.0) ||
      !in.opt("separationWeight", sepW, 0.0, double(SCENARIO_MAX_PARAM)))
    return false;
  Scenario full;
  int ticks = 0;
  bool hasCrowd = false;
  std::string text;
  if (!in.opt("crowd", text, size_t(64) << 20)) return false;
  if (!text.empty()) {
    Scenario s;
    std::string why;
    if (!parseScenario(text, "crowd", &s, &why) || !CrowdTimeline::expand(s, &full, &ticks, &why))
      return in["crowd"].fail(why);
    hasCrowd = true;
  }
  if (tick > ticks)
    return in["tick"].fail(std::to_string(tick) + " is past the crowd's " + std::to_string(ticks) + " ticks");
  // Valid: apply.
  mode = md;
  path = file;
  m_tickDt = tickDt;
  timeScale = scale;
  options.anticipate = flags & SCENARIO_ANTICIPATE_TURNS;
  options.avoid = flags & SCENARIO_OBSTACLE_AVOIDANCE;
  options.separation = flags & SCENARIO_SEPARATION;
  options.optVis = flags & SCENARIO_OPTIMIZE_VIS;
  options.optTopo = flags & SCENARIO_OPTIMIZE_TOPO;
  options.quality = quality;
  options.separationWeight = sepW;
  if (!hasCrowd) {
    m_timeline.clear();
    m_wantTick = -1;
    m_acc = 0;
    full = m_timeline.history();
  }
  adopt(std::move(full), ticks, tick, selected);
  return true;
}

void CrowdModel::dumpState(json& out) const {
  out["tick"] = m_timeline.tick();
  out["totalTicks"] = m_timeline.totalTicks();
  out["running"] = m_running;
  out["mode"] = kModeKeys[mode];
  out["tickDt"] = m_tickDt;
  out["timeScale"] = timeScale;
  out["selected"] = m_selected;
  out["message"] = m_message;
  out["messageIsError"] = m_error;
  out["file"] = path;
  out["updateMs"] = m_lastUpdateMs;
  out["goToMs"] = m_lastGoToMs;
  out["checkpoints"] = m_timeline.checkpointCount();
  out["fineCheckpoints"] = m_timeline.fineCheckpointCount();
  out["checkpointEvery"] = m_timeline.checkpointEvery();
  out["commands"] = m_timeline.history().commands.size();
  out["agentLines"] = m_timeline.history().agentCount;
  out["maxAgents"] = m_timeline.history().maxAgents;
  json agents = json::array();
  if (m_timeline.attached()) {
    for (int i = 0; i < m_timeline.agentsSeen(); ++i) {
      const CrowdAgent* ag = m_timeline.agent(i);
      json a = {{"i", i}, {"active", ag != nullptr}};
      if (ag) {
        a["slot"] = m_timeline.slotOf(i);
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
    if (const CrowdAgent* ag = m_timeline.agent(m_selected)) {
      const CrowdAgentDebugInfo& dbg = m_timeline.debugCrowd()->debug();
      json d;
      d["samples"] = dbg.idx >= 0 ? m_timeline.debugCrowd()->vod().getSampleCount() : 0;
      d["boundarySegments"] = ag->boundary.getSegmentCount();
      d["corridor"] = std::vector<nav::PolyRef>(ag->corridor.getPath(), ag->corridor.getPath() + ag->corridor.getPathCount());
      d["optStart"] = vecJson(dbg.optStart);
      d["optEnd"] = vecJson(dbg.optEnd);
      out["debug"] = d;
    }
  }
  out["agents"] = agents;
}

} // namespace navbench
