// AgentSet.h: the agent types of the open level (nav/bake/Agents.h) in the viewer, without its
// window (the Agents panel, app/panels/AgentsPanel.cpp, is its view): one navmesh per agent
// baked in the background, the active agent (the one clicks query and tools edit: its navmesh is
// the document's NavState, the others are kept here), each agent's visibility, the rebake of every
// other agent's touched tiles after an edit, and the Compare / Reachability answers.
//
// A level with fewer than two agent types leaves the set disabled: nothing here runs and the
// document works on its one navmesh as before.
//
// Edits: the level editor (LevelEditor, bound with LevelEditor::bindAgents) edits the active
// agent's navmesh with the active agent's settings and the volumes and links that apply to it
// (forActive), on its background rebake. After each change of the volumes or links (done, undone,
// redone) it asks inputChanged() which agents the change applies to and re-bakes, for every other
// one, the tiles the change touches with that agent's settings (its border: ceil(radius /
// cellSize) + 3 cells) through rebakeTiles(), on the calling thread (a few tiles, the bake worker
// pool). Tile tools (rebuild, remove) and the prune tool edit the active agent's navmesh; their
// undo and redo reach that agent's navmesh even after another agent became active.
#pragma once

#include "app/NavState.h"
#include "app/model/AgentCompare.h"
#include "nav/bake/Agents.h"
#include "nav/bake/Bake.h"
#include "nav/bake/BakeJob.h"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <string>
#include <vector>

namespace navbench {

class Log;

class AgentSet {
public:
  /// `active`: the document's navmesh, where the active agent's lives. Both must outlive the set.
  AgentSet(NavState& active, Log& log);
  ~AgentSet();
  AgentSet(const AgentSet&) = delete;
  AgentSet& operator=(const AgentSet&) = delete;

  /// The level's agent types: drops what was open and, with two or more, starts a background bake
  /// of each agent (inputForAgent, the agent's settings); the active agent's navmesh goes into the
  /// document's when its bake ends (poll()). `all`: the level's bake input (every volume and link).
  void open(const nav::bake::BakeInput& all, std::vector<nav::bake::AgentType> types, int active, int threads = 0);
  /// Bakes every agent type again from `all` (the level as edited: the Bake panel's Build) with
  /// applyAgentOverrides(base, type) (`base`: the Bake panel's settings), keeping the active agent
  /// and what is shown; each baked type's settings become those. A type whose result does not
  /// validate keeps its navmesh and settings (a Log error names the agent and the key); the others
  /// still bake. Returns the bakes started (0 when disabled).
  int rebakeAll(const nav::bake::BakeInput& all, const nav::bake::BakeSettings& base, int threads = 0);
  /// The settings keys the types override, grouped by the types that override them:
  /// "agentHeight, agentRadius (dog, soldier, truck); agentMaxClimb (truck)". "" when disabled or none.
  std::string overrideSummary() const;
  /// Each type's value of settings key `key` where it overrides it, the active one marked:
  /// "dog 0.3 (active), truck 1". "" when no type overrides it.
  std::string overrideValues(const std::string& key) const;
  /// The active type's overridden keys with its values: "agentHeight 1, agentRadius 0.3".
  std::string activeOverrides() const;
  /// No agent types (another file opened); bakes under way are cancelled.
  void clear();
  bool enabled() const { return m_slots.size() >= 2; }
  int count() const { return int(m_slots.size()); }
  int active() const { return m_active; }
  const nav::bake::AgentType& type(int i) const { return m_slots[size_t(i)].type; }
  /// Index of the agent named `name`, or -1.
  int find(const std::string& name) const;
  bool visible(int i) const { return m_slots[size_t(i)].visible; }
  void setVisible(int i, bool on) { m_slots[size_t(i)].visible = on; }
  /// Agent i's navmesh: the document's for the active agent; null while its bake runs or failed.
  NavState* nav(int i);
  const NavState* nav(int i) const;
  /// Makes agent i the active one: its navmesh moves into the document's NavState and the old
  /// active agent's out of it. Refused (false, `why`) while bakes run or i is out of range. The
  /// caller re-runs what depended on the document's navmesh (tools, the editor).
  bool setActive(int i, std::string* why);

  // ---- background bakes -----------------------------------------------------------------------
  /// Once a frame: bakes that ended hand their navmeshes over; then a scenario's active agent is
  /// made active. True when the document's navmesh changed (the active agent's arrived, or another
  /// agent became active): the caller treats it as a new navmesh.
  bool poll();
  bool busy() const;
  /// Waits for every bake and hands it over (headless runs, tests); true as poll().
  bool finish();
  /// "baking 3/12 tiles", "baked: 12 tiles, 240 polys, 35 ms", "failed: ...", "cancelled".
  const std::string& bakeState(int i) const { return m_slots[size_t(i)].state; }
  /// Tiles done / total of agent i's bake (0 when not baking).
  float bakeFraction(int i) const;
  /// Changes whenever a navmesh of the set changed (bake, rebake, active switch): overlays redraw.
  int revision() const { return m_revision; }

  // ---- edits --------------------------------------------------------------------------------
  /// The level editor's hook: the active agent's volumes, links (those that apply to it) and
  /// settings (any may be null). Does nothing when disabled.
  void forActive(std::vector<nav::bake::ConvexVolume>* volumes, std::vector<nav::bake::OffMeshLink>* links,
                 nav::bake::BakeSettings* settings) const;
  /// The level's volumes and links are now `now`'s: the agents whose input changed (the masks of the
  /// items added, removed or changed; 0 when disabled).
  nav::bake::AgentMask inputChanged(const nav::bake::BakeInput& now);
  /// Agent i's tiles whose bake reads [bmin, bmax] (its settings, its border); false + `why` when
  /// its input cannot be set.
  bool tilesTouching(int i, const float* bmin, const float* bmax, std::vector<nav::bake::TileCoord>* tiles, std::string* why);
  /// Re-bakes `tiles` of agent i (not the active one: its rebakes are the level editor's) from the
  /// level as inputChanged() last saw it and swaps them in; false + `why` (the old tiles kept)
  /// when the bake fails or i has no navmesh. Counted in tilesRebaked, logged.
  bool rebakeTiles(int i, const std::vector<nav::bake::TileCoord>& tiles, std::string* why);
  /// Tiles re-baked for agent i by rebakeTiles, in all and by the last call for it (the active
  /// agent's are the level editor's).
  int tilesRebaked(int i) const { return m_slots[size_t(i)].tilesRebaked; }
  int lastTilesRebaked(int i) const { return m_slots[size_t(i)].lastRebaked; }

  // ---- compare and reachability ---------------------------------------------------------------
  /// Compare agents: every agent's answer from `start` to `end` (see AgentCompare.h), under the
  /// document's filter and node budget. An agent without a navmesh gets "no navmesh (baking)".
  void compare(const float* start, const float* end, const nav::QueryFilter& filter, int maxNodes, const float* extents);
  const std::vector<AgentPath>& paths() const { return m_paths; }
  double compareMs() const { return m_compareMs; } ///< Time of the last compare() [Unit: ms]
  void clearCompare() { m_paths.clear(); }
  /// Reachability: the active agent's polys reached from `start` that agent `other` cannot follow to.
  void reach(int other, const float* start, const nav::QueryFilter& filter, const float* extents);
  const std::vector<nav::PolyRef>& reachOnly() const { return m_reachOnly; }
  int reachOther() const { return m_reachOther; }
  int reachedByActive() const { return m_reachedA; }
  void clearReach() { m_reachOnly.clear(); m_reachOther = -1; m_reachedA = 0; }

  /// Shown / asked for by the panel and carried by scenarios.
  bool compareOn = false;
  bool reachOn = false;
  int reachTarget = -1; ///< The agent Reachability compares the active one with (-1: the next one).
  /// The agent reachability compares with: reachTarget when valid and not the active one, else the next.
  int reachAgent() const;
  /// Once a frame: compare / reach run again when what they answer changed (their toggles, the
  /// start and end, the filter, the node budget, the active agent, a navmesh of the set). Null
  /// start / end: not set (their answers are dropped).
  void update(const float* start, const float* end, const nav::QueryFilter& filter, int maxNodes, const float* extents);

  // ---- scenarios and --dump-state -------------------------------------------------------------
  /// {"active": NAME, "compare": bool, "reach": bool, "reachAgent": NAME}; nothing when disabled.
  void saveScenario(nlohmann::json& out) const;
  /// What saveScenario wrote: the toggles at once; the active agent by the next open() or, the
  /// bakes done, poll(). A bad shape: false, `why` ("agents.active: ..."), nothing changed. An
  /// agent name the level does not have is logged when applied.
  bool loadScenario(const nlohmann::json& in, std::string* why);
  /// The agents, their bake states and rebakes, the compared paths, the reachability answer.
  void dumpState(nlohmann::json& out) const;

private:
  struct Slot {
    nav::bake::AgentType type;
    bool visible = true;
    std::unique_ptr<NavState> nav;
    std::unique_ptr<nav::bake::BakeJob> job;
    std::unique_ptr<nav::bake::Baker> baker; ///< The agent's input, for rebakes (made at the first edit).
    bool inputStale = false; ///< The level's volumes or links changed since the baker last took them.
    std::string state;
    int tilesRebaked = 0, lastRebaked = 0;
  };
  bool handOver(int i, bool wait);
  /// Agent i's baker on the level's current input (made at the first use, then its volumes and
  /// links updated); null + `why` when the input is refused.
  nav::bake::Baker* bakerFor(int i, std::string* why);
  NavState& m_doc;
  Log& m_log;
  std::vector<Slot> m_slots;
  int m_active = 0;
  int m_revision = 0;
  nav::bake::BakeInput m_input; ///< The level's input as the agents' navmeshes were baked / rebaked with.
  AgentComparer m_comparer;
  std::vector<AgentPath> m_paths;
  double m_compareMs = 0;
  std::vector<nav::PolyRef> m_reachOnly;
  int m_reachOther = -1, m_reachedA = 0;
  std::string m_pendingActive, m_pendingReach; ///< A scenario's names, applied once baked.
  std::string m_key; ///< What the last update() answered.
};

} // namespace navbench
