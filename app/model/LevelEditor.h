// LevelEditor.h: fixing the navmesh in place. The level designer's edits of the open level
// (convex volumes and off-mesh links, as in its level file; tiles rebuilt or removed; polys
// disabled), each re-baking only the tiles it touches (with the agent-radius border) on the bake
// worker pool in the background, swapped in without touching the refs of other tiles; one undo
// history for these edits and the tools' start / end changes (Ctrl+Z / Ctrl+Y).
//
// The volumes and links live in the bake runner's input (BakeRunner::setEdits), so a whole bake and
// File > Save see the edited level; Save writes them into the level file (atomic). A solo level
// (one tile) rebakes whole. When re-baked tiles arrive (or tiles are removed, flags changed),
// navmeshEdited is called (the document redraws and the tools re-run their queries) and the polys
// that changed are kept for the diff overlay.
//
// Each edit is a step of the one History (app/model/History.h): the editor keeps the steps' data
// and undoes / redoes its latest one when the history says so. A model: no SDL, ImGui, GL, tools
// or panels; it reaches the document only through navmeshEdited.
//
// Bad edits (a volume of fewer than 3 distinct points or no area, a link end over no navmesh, a
// link longer than the bake allows, a tile outside the grid) are refused with a message and change
// nothing; a failed rebake keeps the old tiles. A navmesh opened from a tile cache (.tcache) is not
// edited at all: its tiles come back from the cache's layers at the next obstacle rebuild, so
// ready() says to bake the layers again from the edited level (or to open the .bin).
#pragma once

#include "app/model/History.h"
#include "nav/bake/Bake.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace navbench {

class AgentSet;
class BakeRunner;
class Log;
class NavState;

/// A poly the last rebake added, removed or changed (area or flags), by its centre [Unit: wu].
struct PolyChange {
  enum Kind { Added, Removed, Changed } kind;
  float pos[3];
  std::vector<float> outline; ///< [(x, y, z) * n]: the poly's vertices (the new one, or the removed one).
};

class LevelEditor : private HistoryClient {
public:
  /// Edits the level of `bake` (its input, volumes and links) and the navmesh open in `nav`; its
  /// edits are steps of `history`. All must outlive the editor.
  LevelEditor(BakeRunner& bake, NavState& nav, Log& log, History& history);
  ~LevelEditor();
  LevelEditor(const LevelEditor&) = delete;
  LevelEditor& operator=(const LevelEditor&) = delete;

  /// A new level or navmesh is open: the history and any rebake under way are dropped.
  void reset();
  /// Called after tiles of the open navmesh were re-baked, removed or had flags changed in place
  /// (and after BakeRunner::markEdited): overlays are stale, the tools' queries re-run. May be empty.
  std::function<void()> navmeshEdited;
  /// Several agent types (app/model/AgentSet.h; null: one navmesh): the editor edits the active
  /// agent's navmesh (the document's) with that agent's settings and the items that apply to it;
  /// an edit of the volumes or links also re-bakes, on the calling thread, the tiles it touches of
  /// every other agent it applies to. Steps keep the agent they edited: the history survives a
  /// change of the active agent (agentSwitched()), and undoing a tile or prune step of another
  /// agent edits that agent's navmesh. Edits are refused while the agents bake. Must outlive the
  /// editor.
  void bindAgents(AgentSet* agents) { m_agents = agents; }
  /// The active agent changed (call finish() before the switch): the editor re-prepares for the
  /// new one at the next edit; the history and every agent's removed tiles and disabled polys stay.
  void agentSwitched();
  /// Called after another agent's navmesh changed in place (its tiles re-baked or removed, polys
  /// disabled): its overlays redraw. May be empty.
  std::function<void()> agentsEdited;

  // ---- what can be edited -------------------------------------------------------------------
  /// True when a level with bake input and a navmesh baked from it are open; else `why` says what
  /// is missing (for the tool panels).
  bool ready(std::string* why);
  const std::vector<nav::bake::ConvexVolume>& volumes() const;
  const std::vector<nav::bake::OffMeshLink>& links() const;
  /// The tile grid (tiles along x and z) and the tile under xz point `p`; false outside the grid.
  bool tileAt(const float* p, nav::bake::TileCoord* tile) const;
  void gridSize(int* tilesX, int* tilesY) const;
  /// Tile bounds (without border) [Unit: wu].
  void tileBounds(const nav::bake::TileCoord& t, float* bmin, float* bmax) const;
  /// The longest off-mesh link the bake allows (its tiles' reach) [Unit: wu].
  float maxLinkLength() const;

  // ---- edits: false with `why` set and nothing changed when refused -------------------------
  bool addVolume(const nav::bake::ConvexVolume& v, std::string* why);
  bool setVolume(int index, const nav::bake::ConvexVolume& v, std::string* why);
  bool removeVolume(int index, std::string* why);
  bool addLink(const nav::bake::OffMeshLink& l, std::string* why);
  bool setLink(int index, const nav::bake::OffMeshLink& l, std::string* why);
  bool removeLink(int index, std::string* why);
  /// Tile tool: re-bake these tiles (or all of them) from the level; remove them from the navmesh.
  bool rebuildTiles(const std::vector<nav::bake::TileCoord>& tiles, std::string* why);
  bool rebuildAll(std::string* why);
  bool removeTiles(const std::vector<nav::bake::TileCoord>& tiles, std::string* why);
  /// Prune tool: sets (or clears) nav::FLAG_DISABLED on `polys` (undoable).
  bool setDisabled(const std::vector<nav::PolyRef>& polys, bool disabled, std::string* why);
  /// Prune tool: the disabled polys (FLAG_DISABLED, ground polys and off-mesh links) are left out
  /// of the saved navmesh. The open navmesh keeps them (disabled, so undo still works); saving
  /// re-bakes the tiles holding them without them into a copy of the mesh, which is written.
  /// Changing it marks the navmesh unsaved. Dropped when another level opens.
  void setRemoveOnSave(bool on);
  bool removeOnSave() const { return m_removeOnSave; }
  /// The mesh BakeRunner::save writes for `open`: null `out` (the open mesh as it is) unless
  /// removeOnSave() and some poly is disabled; then a copy with the tiles holding disabled polys
  /// re-baked without them (Baker::bakeTileWithout). False + `why` when a tile cannot be re-baked
  /// or the open tile is not what the level bakes to (nothing is written then).
  bool meshToSave(const nav::NavMesh& open, std::unique_ptr<nav::NavMesh>* out, std::string* why);

  // ---- area rules (the level file's areaRules, nav/bake/AreaRules.h) --------------------------
  // Rules apply to the whole level, so an edit re-bakes nothing by itself: the next Build (Bake
  // panel, Ctrl+B) bakes with them, and File > Save writes them into the level file. Each edit is
  // a step of the history. Refused (false, `why`, nothing changed): no level open, a bad glob or
  // area, an index out of range.
  const std::vector<nav::bake::AreaRule>& areaRules() const;
  bool addRule(const nav::bake::AreaRule& rule, std::string* why);
  bool setRule(int index, const nav::bake::AreaRule& rule, std::string* why);
  bool removeRule(int index, std::string* why);
  /// Moves rule `from` to position `to` (the others keep their order).
  bool moveRule(int from, int to, std::string* why);
  /// Triangles of the open level each rule decides (first match wins): [rules + 1], the last
  /// entry those no rule matched. Recomputed when the rules or the level change.
  const std::vector<long long>& ruleTriangleCounts();
  /// The open level's triangles have names (OBJ o / g / usemtl) for rules to match.
  bool levelHasNames() const;
  /// The rules were edited since the open navmesh was baked or opened: Build applies them.
  bool rulesChangedSinceBake() const { return m_rulesBase && *m_rulesBase != areaRules(); }

  // ---- rebakes ------------------------------------------------------------------------------
  /// Once a frame: re-baked tiles that arrived are swapped in; queued tiles start baking.
  void poll();
  bool busy() const { return m_running || !m_pending.empty(); }
  /// Waits for every queued rebake and swaps it in (headless runs, tests).
  void finish();
  /// Tiles done / total of the rebake under way.
  void progress(int* done, int* total) const;
  int rebakes() const { return m_rebakes; } ///< Rebakes swapped in so far.
  double lastRebakeMs() const { return m_lastMs; } ///< Edit to tiles swapped in, the last one [Unit: ms].
  /// What the last rebake changed (the diff overlay).
  const std::vector<PolyChange>& lastChanges() const { return m_changes; }
  const std::vector<nav::bake::TileCoord>& lastTiles() const { return m_lastTiles; }

  // ---- files --------------------------------------------------------------------------------
  /// Volumes or links differ from the level file's (File > Save writes them; BakeRunner::saveAll).
  bool unsaved() const;
  /// Writes the volumes, links and bake settings into the level file (for an OBJ, the level file
  /// beside it) and the navmesh into its .bin, atomically (what the unsaved prompt's Save does).
  bool saveLevel(std::string* why);
  /// Scenario files (and the recovery journal): the edits not yet in the level file, so a bug
  /// report reopens as seen. Keys: volumes, links, removedTiles, disabledPolys, removeOnSave (only
  /// when set), areaRules (only when there are some: the rules as edited, which Build bakes);
  /// stable (a scenario saved, opened and saved again is byte-identical).
  void saveScenario(nlohmann::json& out) const;
  /// Restores what saveScenario wrote (volumes, links, removed tiles, disabled polys) and re-bakes
  /// (as undoable steps). Other keys (the tile cache's "obstacles") are left to their readers. A
  /// bad value: false with "edits.PATH: problem" in `why`, nothing changed.
  bool loadScenario(const nlohmann::json& in, std::string* why);
  /// --dump-state.
  void dumpState(nlohmann::json& out) const;
  /// Anything a scenario should carry: volumes or links not saved, tiles removed, polys disabled.
  bool hasEdits() const;

private:
  struct Step;
  void undo() override; ///< HistoryClient: the latest of this editor's steps.
  void redo() override;
  /// Moves the latest step of `from` to `to`, applied backwards (or, `forward`, forwards).
  void replay(std::vector<Step>& from, std::vector<Step>& to, bool forward);
  bool prepare(std::string* why);
  /// Waits for the rebake under way and drops it, what is queued and the baker.
  void dropRebakes();
  bool applyVolumesAndLinks(std::vector<nav::bake::ConvexVolume> volumes, std::vector<nav::bake::OffMeshLink> links,
                            const float* bmin, const float* bmax, const char* what, std::string* why);
  void queueTiles(const std::vector<nav::bake::TileCoord>& tiles);
  /// The active agent (-1 without agent types) and agent `agent`'s navmesh (the document's for the
  /// active one; null while it bakes or when its bake failed).
  int activeAgent() const;
  NavState* navOf(int agent);
  bool removed(int agent, const nav::bake::TileCoord& t) const;
  /// Step kinds RemoveTiles and Disable on agent `agent` (the scenario's other agents too).
  bool removeTilesOf(int agent, const std::vector<nav::bake::TileCoord>& tiles, std::string* why);
  bool setDisabledAt(int agent, std::vector<std::array<float, 3>> centres, bool disabled, std::string* why);
  /// The volumes or links changed inside [bmin, bmax]: re-bakes the touched tiles (not those
  /// removed) of every other agent the change applies to; returns whether it applies to the
  /// active agent (true without agent types).
  bool rebakeOthers(const float* bmin, const float* bmax);
  /// The prune steps of `agent` applied to its navmesh again (after its tiles came back re-baked).
  void reapplyDisabled(int agent, nav::NavMesh& mesh);
  /// Another agent's navmesh changed in place.
  void otherEdited();
  void startJob();
  void swapIn();
  void apply(const Step& s, bool forward);
  /// A rules edit: the rules become `after` (checked), one step named `what`.
  bool editRules(std::vector<nav::bake::AreaRule> after, const std::string& what, std::string* why);
  /// The open navmesh changed in place: marks it unsaved and edited, then navmeshEdited.
  void edited();
  void push(Step s);

  BakeRunner& m_bake;
  NavState& m_nav;
  Log& m_log;
  History& m_history;
  std::unique_ptr<nav::bake::Baker> m_baker; ///< The level's input, set once per level.
  nav::bake::BakeSettings m_settings;        ///< The settings the open navmesh was baked with.
  std::vector<nav::bake::TileCoord> m_pending;   ///< Tiles waiting for the next job.
  std::vector<nav::bake::TileCoord> m_jobTiles;  ///< Tiles of the job under way.
  std::vector<nav::bake::RebakedTile> m_result;
  nav::bake::BakeReport m_report;
  std::thread m_thread;
  std::atomic<bool> m_done{false};
  std::atomic<int> m_tilesDone{0};
  bool m_running = false;
  double m_requestMs = 0, m_lastMs = 0;
  int m_rebakes = 0;
  std::vector<PolyChange> m_changes;
  std::vector<nav::bake::TileCoord> m_lastTiles;
  std::vector<Step> m_applied, m_undone; ///< This editor's steps of the history, oldest first.
  /// Tiles the user removed, each with its agent (-1 without agent types): kept removed by rebakes.
  std::vector<std::pair<int, nav::bake::TileCoord>> m_removed;
  AgentSet* m_agents = nullptr;
  /// The rules the open navmesh was baked with, kept at the first rules edit after reset().
  std::unique_ptr<std::vector<nav::bake::AreaRule>> m_rulesBase;
  std::vector<long long> m_ruleCounts; ///< ruleTriangleCounts() for m_countedRules on m_countedTris
  std::vector<nav::bake::AreaRule> m_countedRules;
  const void* m_countedTris = nullptr;
  size_t m_countedTriCount = size_t(-1);
  bool m_removeOnSave = false;
};

} // namespace navbench
