// CrowdTimeline.h: the crowd being recorded as a crowd scenario (nav/crowd/CrowdScenario.h, the
// .crowd.txt of ../shared/formats/crowd.md), with checkpoints so it can go back in time. Headless:
// the Crowd tool (app/tools/ToolCrowd.cpp) draws it, CrowdModel (app/model/CrowdModel.h) edits it.
//
// Every edit is a command at the current tick and every update a `tick 1 DT` command, played by
// the same runner as `navbench crowd` (nav/crowd/CrowdRunner.h), so a crowd saved from the viewer
// gives the same trace from the command line. Two command lists:
//   m_full  everything recorded (the history), agentCount its `agent` lines;
//   m_run   the prefix the runner has played (its agentCount reserves SCENARIO_MAX_AGENT_LINES
//           slots of the runner's agent-index table, so agents can be added while it runs).
// State "at tick k" is k updates done and every command given at tick k run. Going back (a step
// back, a scrub, reopening at a tick) restores the nearest checkpoint before the tick and replays
// the rest (deterministic: the same state as going straight there, bit for bit); going forward
// plays the recorded ticks, then records new ones; a command given in the past drops the recorded
// future and the checkpoints from its tick on.
//
// Checkpoints: the crowd's whole state (Crowd::saveState), the runner's and the trails, taken every
// checkpointEvery() ticks (kCheckpointEvery at first) as the run is played; when there are as many
// as the memory budget allows (kCheckpointBytes, at least kMinCheckpoints), the spacing doubles and
// every other one is dropped, so a step back replays at most checkpointEvery() ticks; a step back
// that replays more than kFineCheckpoints ticks also leaves kFineCheckpoints checkpoints over them,
// so the steps back after it replay a few ticks each.
//
// Memory: the crowd, the debug data and the trails are allocated by attach(); an update allocates
// nothing in the crowd (the command lists grow geometrically, one entry a tick); checkpoints are
// allocated when first taken and reused.
#pragma once

#include "nav/crowd/Crowd.h"
#include "nav/crowd/CrowdRunner.h"
#include "nav/crowd/CrowdScenario.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace navbench {

/// The crowd as the runner's adapter (the command-line runner's NavCrowdAdapter), also collecting
/// the steering debug info of one agent slot on each update (for drawing: the update is the same).
class DebugCrowd : public nav::crowd::NavCrowdAdapter {
public:
  static constexpr int kMaxDebugSamples = 2048; ///< Avoidance samples kept (a 33 x 33 grid is 1089).
  explicit DebugCrowd(const nav::NavMesh* mesh);
  /// One mesh per agent type (NavCrowdAdapter's).
  DebugCrowd(const nav::NavMesh* const* meshes, int count);
  /// The crowd slot whose debug info the next update collects (-1: none).
  int debugSlot = -1;
  void update(float dt);
  const nav::crowd::CrowdAgentDebugInfo& debug() const { return m_debug; }
  const nav::crowd::ObstacleAvoidanceDebugData& vod() const { return m_vod; }

private:
  nav::crowd::CrowdAgentDebugInfo m_debug;
  nav::crowd::ObstacleAvoidanceDebugData m_vod;
};

class CrowdTimeline {
public:
  static constexpr int kTrail = 64;                 ///< Trail points per agent (RecastDemo's AGENT_MAX_TRAIL).
  static constexpr int kDefaultMaxAgents = 1024;    ///< `crowd` line of a new crowd.
  static constexpr float kDefaultRadius = 0.6f;     ///< Agent radius of a new crowd (the default level's bake). [wu]
  static constexpr int kMaxTicks = 200000;          ///< Ticks recorded or loaded (~1.9 h at 30 Hz).
  static constexpr int kCheckpointEvery = 16;       ///< Ticks between checkpoints at first.
  static constexpr size_t kCheckpointBytes = size_t(128) << 20; ///< Memory the checkpoints may take.
  static constexpr int kMinCheckpoints = 8, kMaxCheckpoints = 64;
  static constexpr int kFineCheckpoints = 8;        ///< Checkpoints over the ticks a long step back replays.

  CrowdTimeline();
  ~CrowdTimeline();
  CrowdTimeline(const CrowdTimeline&) = delete;
  CrowdTimeline& operator=(const CrowdTimeline&) = delete;

  // ---- the navmesh ------------------------------------------------------------------------------
  /// A crowd on `mesh` at tick 0 of the recorded history (nothing done when already on it). False
  /// with *why when the runner refuses the history's `crowd` line (then detached).
  bool attach(const nav::NavMesh* mesh, std::string* why);
  /// The same with one mesh per agent type: meshes[0] for `default`, meshes[t] for the history's
  /// type t (its `navmesh` lines, setAgentTypes) [Limit: count 1..CROWD_MAX_NAV_TYPES]. False
  /// with *why (detached) when the history has more types than meshes.
  bool attach(const nav::NavMesh* const* meshes, int count, std::string* why);
  /// Agent types besides `default` (the history's `navmesh NAME` lines, no path: saved files find
  /// MESH.NAME.bin beside the tile set, as a level bake with agents writes them). Only while no
  /// agent line is recorded; false with *why otherwise, or for a bad or repeated name. A crowd
  /// already attached restarts with them (attach it again with a mesh per type).
  bool setAgentTypes(const std::vector<std::string>& names, std::string* why);
  /// The `crowd` line's MAXRADIUS of the history [Unit: wu] [Limit: (0, 100]] (what agent types
  /// of several sizes need). Only while no agent line is recorded; false with *why otherwise. A
  /// crowd already attached restarts with it.
  bool setMaxAgentRadius(float radius, std::string* why);
  /// 1 + the history's `navmesh` lines.
  int agentTypeCount() const { return 1 + int(m_full.navTypes.size()); }
  /// Drops the crowd, its checkpoints and trails (the history stays).
  void detach();
  bool attached() const { return m_runner != nullptr; }
  const nav::NavMesh* mesh() const { return m_mesh; }

  // ---- the history --------------------------------------------------------------------------------
  /// An empty history (default `crowd` line), at tick 0.
  void clear();
  /// Replaces the history by `full` (ticks one per command, as expand() gives) of `ticks` ticks;
  /// detached (attach, then goTo the tick wanted).
  void adopt(nav::crowd::Scenario&& full, int ticks);
  /// The history with consecutive equal ticks merged (`tick N DT`), as written to files.
  nav::crowd::Scenario compact() const;
  /// A parsed scenario as a history (ticks one per command). False with *why when it has more
  /// ticks than kMaxTicks.
  static bool expand(const nav::crowd::Scenario& in, nav::crowd::Scenario* out, int* ticks, std::string* why);
  const nav::crowd::Scenario& history() const { return m_full; }
  /// `agent` lines recorded up to the current tick (the index the next added agent gets).
  int agentLines() const;

  /// Records commands at the current tick (dropping the recorded ticks after it) and runs them.
  /// False with *why when a command is invalid (nothing recorded) or the runner noted a problem
  /// (an agent off the mesh, a full crowd, a target with no poly: recorded all the same).
  /// *droppedTicks: the recorded ticks dropped.
  bool issue(const std::vector<nav::crowd::ScenarioCommand>& cmds, std::string* why, int* droppedTicks = nullptr);

  // ---- time ---------------------------------------------------------------------------------------
  int tick() const { return m_tick; }
  int totalTicks() const { return m_totalTicks; }
  /// The dt of the next update: the recorded one, or newDt past the recorded end. [Unit: s]
  float nextDt(float newDt) const;
  /// One update: the next recorded tick, or a new one of newDt. False (nothing done) when detached
  /// or, with *why, at kMaxTicks.
  bool advance(float newDt, std::string* why = nullptr);
  /// Replays or plays to tick t (clamped to 0 .. the recorded ticks, or one past when live; a new
  /// tick is of newDt): from the last checkpoint before t when that is nearer than where the crowd
  /// is. At least one update is replayed, so the debug agent's info is that of the update to t.
  void goTo(int t, float newDt);
  /// Seconds the runner spent in crowd updates so far.
  double updateSeconds() const;

  // ---- agents (scenario indices: the order of the `agent` lines) --------------------------------
  int agentsSeen() const;
  int slotOf(int i) const;
  /// Agent i when active, else null.
  const nav::crowd::CrowdAgent* agent(int i) const;
  /// The active agent (index) under p: the nearest whose circle (x 1.5) holds p, or -1. [Unit: wu]
  int agentAt(const float* p) const;
  /// The agent whose steering debug info the updates collect (-1: none).
  void setDebugAgent(int i) { m_debugAgent = i; }
  const nav::crowd::Crowd* crowd() const { return m_crowd ? &m_crowd->crowd() : nullptr; }
  const DebugCrowd* debugCrowd() const { return m_crowd.get(); }
  const std::vector<nav::crowd::RunNote>& notes() const;

  /// Trails: per crowd slot kTrail positions [(x, y, z) * kTrail], a ring whose newest point is at
  /// trailHead(); trailOwner(slot) is the agent index the trail belongs to (-1 none).
  const float* trail(int slot) const { return &m_trail[size_t(slot) * kTrail * 3]; }
  int trailOwner(int slot) const { return m_trailOwner[size_t(slot)]; }
  int trailHead() const { return m_trailHead; }

  // ---- checkpoints (read-only: for the state dump and tests) -------------------------------------
  size_t checkpointCount() const { return m_checkpoints.size(); }
  size_t fineCheckpointCount() const { return m_fine.size(); }
  int checkpointEvery() const { return m_cpEvery; }
  /// Checkpoints off: goTo always replays from tick 0 (tests compare the two).
  void setCheckpointsEnabled(bool on);

private:
  struct Checkpoint;
  bool restart(std::string* why);
  void applyPending();
  void dropCheckpoints(int fromTick);
  void dropFine(int fromTick);
  std::unique_ptr<Checkpoint> grabCheckpoint();
  bool fillCheckpoint(std::unique_ptr<Checkpoint>& cp);
  void takeFine();
  void takeCheckpoint();
  int checkpointCap() const;
  void restoreCheckpoint(const Checkpoint& cp);
  void recordTrails();

  nav::crowd::Scenario m_full, m_run;
  size_t m_fullPos = 0; ///< Commands of m_full the runner has been given.
  int m_tick = 0, m_totalTicks = 0;
  int m_debugAgent = -1;
  std::unique_ptr<DebugCrowd> m_crowd;
  std::unique_ptr<nav::crowd::ScenarioRunner<DebugCrowd>> m_runner;
  const nav::NavMesh* m_mesh = nullptr; ///< m_meshes[0]
  std::vector<const nav::NavMesh*> m_meshes; ///< Per agent type.
  uint64_t meshGeneration() const;

  std::vector<float> m_trail;    ///< Per slot: kTrail positions, a ring at m_trailHead.
  std::vector<int> m_trailOwner; ///< Per slot: the agent index its trail belongs to (-1 none).
  int m_trailHead = 0;

  std::vector<std::unique_ptr<Checkpoint>> m_checkpoints;    ///< By tick, all < the recorded end.
  std::vector<std::unique_ptr<Checkpoint>> m_fine;           ///< Over the ticks the last long step back replayed. By tick.
  std::vector<std::unique_ptr<Checkpoint>> m_checkpointPool; ///< Allocated, unused.
  int m_cpEvery = kCheckpointEvery;
  uint64_t m_cpGeneration = 0; ///< The meshes' generations (meshGeneration()) when the checkpoints were taken.
  bool m_checkpointsOn = true;
};

} // namespace navbench
