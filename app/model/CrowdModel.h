// CrowdModel.h: the Crowd tool's state without a window: the recorded crowd (CrowdTimeline), play
// and pause, the selected agent, the edits a click makes (add, remove, select, send, drive), the
// options of new agents, the .crowd.txt file and the tool's scenario JSON. The view
// (app/tools/ToolCrowd.cpp) turns clicks and keys into these calls and draws the timeline.
//
// Every edit leaves a message (message(), isError()); errors are also logged as "Crowd: ...".
#pragma once

#include "app/model/CrowdTimeline.h"

#include <glm/glm.hpp>
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace base {
class JsonIn;
}

namespace navbench {

class AgentSet;
class Log;
class NavState;

/// Options of the agents added next (RecastDemo's CrowdTool options).
struct CrowdAgentOptions {
  bool anticipate = true, optVis = true, optTopo = true, avoid = true, separation = false;
  int quality = 3;               ///< Obstacle avoidance preset [Limit: 0..3]
  float separationWeight = 2.0f;
  /// Agent type of new agents: 0 `default`, t the timeline's type t (CrowdTimeline::setAgentTypes)
  /// [Limit: clamped to the timeline's types].
  int agentType = 0;
  int priority = 0;     ///< Avoidance priority, lower = more important [Limit: 0..255]
  float radius = 0.0f;  ///< [Unit: wu] 0: the crowd's MAXRADIUS [Limit: clamped to (0, MAXRADIUS]]
};

class CrowdModel {
public:
  /// What a left click does: add / remove agents, select one, or send the agents.
  enum Mode { MODE_AGENTS = 0, MODE_SELECT = 1, MODE_TARGET = 2 };
  static constexpr int kMaxTicksPerFrame = 8; ///< Backlog cap of play() when updates are slower than real time.

  /// The open navmesh (its query finds random points) and the log (may be null). Kept.
  void bind(NavState* nav, Log* log);
  /// The level's agent types (null or disabled: none). With them the crowd's agent types are the
  /// level's, each planning on its own navmesh: a `navmesh NAME` line per type (set while the crowd
  /// has no agents, with a MAXRADIUS that fits the largest type; type `default` is the active
  /// agent's navmesh and no new agent takes it), and new agents take the active agent's type, its
  /// agentRadius and agentHeight. A loaded crowd keeps its types; one the level lacks is an error.
  /// Kept.
  void bindAgents(const AgentSet* agents) { m_agents = agents; }
  /// The colour of crowd agent type t (0xRRGGBB): its agent type's; false when it has none
  /// (no agent types, or `default`).
  bool typeColor(int t, uint32_t* rgb) const;
  /// The crowd on the open navmesh (made on first use, at the tick a loaded scenario asked for);
  /// false when there is none.
  bool ensure();
  /// An empty crowd, paused, nothing selected, no message (options and file name stay).
  void reset();
  /// Drops the crowd (the history stays), for a new navmesh: ensure() makes it again.
  void detach() { m_timeline.detach(); }

  // ---- time ---------------------------------------------------------------------------------------
  bool running() const { return m_running; }
  void setRunning(bool on) { m_running = on; }
  /// While running: plays the ticks that fit `dt` seconds of wall time (x timeScale), at most
  /// kMaxTicksPerFrame (the backlog beyond is dropped).
  void play(float dt);
  /// Pauses and plays one tick (a recorded one, or a new one of tickDt()).
  bool step();
  /// Pauses and goes to tick t (CrowdTimeline::goTo).
  void goTo(int t);
  void stepBack() { goTo(m_timeline.tick() - 1); }
  int tick() const { return m_timeline.tick(); }
  int totalTicks() const { return m_timeline.totalTicks(); }
  /// The dt of new ticks [Unit: s].
  float tickDt() const { return m_tickDt; }
  void setTicksPerSecond(float hz);
  float timeScale = 1.0f; ///< Play speed [Limit: 0.01..100]
  double lastUpdateMs() const { return m_lastUpdateMs; }
  double lastGoToMs() const { return m_lastGoToMs; }

  // ---- agents -------------------------------------------------------------------------------------
  int selected() const { return m_selected; }
  /// Selects agent i (-1: none); its steering debug info is collected by the updates.
  void select(int i);
  /// Selects the agent under p (or none), with a message.
  void selectAt(const glm::vec3& p);
  void addAgentAt(const glm::vec3& p);
  void removeAgent(int i);
  /// Removes the agent under p; an error message when there is none.
  void removeAt(const glm::vec3& p);
  /// n agents at random points of the navmesh (seeded by the agent count: the same crowd each time).
  void addRandomAgents(int n);
  /// Every agent to a random point (seeded by the tick).
  void randomTargets();
  /// The selected agent, or every agent, goes to p.
  void setTarget(const glm::vec3& p);
  /// The selected agent, or every agent, is driven at full speed toward p by a velocity request
  /// (RecastDemo's Shift + move target), no path.
  void setVelocity(const glm::vec3& p);
  /// The parameters of an added agent: the crowd's radius and the options; with agent types, the
  /// active agent's type, radius and height.
  nav::crowd::ScenarioAgentParams agentParams() const;
  CrowdAgentOptions options;
  int mode = MODE_AGENTS;
  /// The point the agents were last sent to, for drawing (hasLastTarget false: none).
  glm::vec3 lastTarget() const { return m_lastTarget; }
  bool hasLastTarget() const { return m_hasLastTarget; }
  int activeAgents() const;
  const CrowdTimeline& timeline() const { return m_timeline; }
  CrowdTimeline& timeline() { return m_timeline; }

  // ---- files, messages ----------------------------------------------------------------------------
  std::string path = "crowd.crowd.txt"; ///< The .crowd.txt Load and Save use.
  void loadFile();
  void saveFile();
  const std::string& message() const { return m_message; }
  bool isError() const { return m_error; }
  void fail(const std::string& msg);
  void done(const std::string& msg);

  // ---- JSON ---------------------------------------------------------------------------------------
  /// The tool's scenario part: the crowd as .crowd.txt text, the tick, mode, selection, options.
  /// Exact floats: saved, loaded and saved again it is byte-identical.
  void saveScenario(nlohmann::json& out) const;
  /// Reads what saveScenario wrote (keys optional, unknown keys refused) and goes to its tick. On a
  /// problem returns false with "FILE: PATH: problem" in in.errors() and changes nothing.
  bool loadScenario(const base::JsonIn& in);
  /// State for --dump-state and tests.
  void dumpState(nlohmann::json& out) const;

private:
  bool issue(const std::vector<nav::crowd::ScenarioCommand>& cmds);
  /// With agent types: the crowd's types set to the level's (see bindAgents) and a navmesh per type.
  bool typeMeshes(std::vector<const nav::NavMesh*>& meshes, std::string* why);
  /// The crowd type of agent type `agent` (its `navmesh` line + 1), 0 when the crowd has none.
  int crowdTypeOf(int agent) const;
  bool advance();
  /// The history s at tick atTick with agent `selected` selected (reached now, or by ensure() once
  /// there is a navmesh).
  void adopt(nav::crowd::Scenario&& s, int ticks, int atTick, int selected);

  CrowdTimeline m_timeline;
  NavState* m_nav = nullptr;
  const AgentSet* m_agents = nullptr;
  Log* m_log = nullptr;
  bool m_running = false;
  double m_acc = 0; ///< Wall time not yet played [Unit: s]
  float m_tickDt = 1.0f / 30.0f;
  double m_lastUpdateMs = 0;
  double m_lastGoToMs = 0; ///< Wall time of the last step back / scrub / reopen at a tick.
  int m_wantTick = -1;     ///< A loaded scenario's tick, reached once there is a navmesh.
  int m_selected = -1;
  glm::vec3 m_target{0.0f}, m_lastTarget{0.0f};
  bool m_hasTarget = false, m_hasLastTarget = false;
  std::string m_message;
  bool m_error = false;
};

} // namespace navbench
