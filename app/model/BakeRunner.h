// BakeRunner.h: the in-app bake without its window (issue 5's viewer part; the Bake panel,
// app/panels/BakePanel.cpp, is its view): the level's bake input and settings, a bake on a
// background thread (nav::bake::BakeJob: progress, cancel), the result handed to the open NavState,
// Save .bin (atomic, TileSetFile), the level file the settings, volumes and links are written to,
// what is unsaved, and the build log with per-stage times.
#pragma once

#include "app/Log.h"
#include "app/NavState.h"
#include "nav/bake/BakeJob.h"
#include "nav/bake/BakeSettings.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace navbench {

class BakeRunner {
public:
  /// The bake input of a level (OBJ or level file): geometry, volumes, links and its settings.
  /// On failure keeps the old input and logs "<file>: <problem>".
  bool setSource(const std::string& levelPath, Log& log);
  void clearSource();
  const std::string& source() const { return m_source; }
  bool hasSource() const { return !m_source.empty(); }

  /// Starts a bake (false + log message if it cannot start). Not the user's work (unsavedBake()
  /// stays false): the bake a level gets when opened without its tile set, and the tools' Bake
  /// button (the same bake, asked for again). A level with agent types (bakeAgents) bakes each
  /// type instead, and no navmesh of the level's own settings.
  bool build(Log& log);
  /// Starts a bake as the Build button does (Ctrl+B): its result counts as the user's work, so
  /// unsaved() is true once it arrives, until it is saved or discarded.
  bool buildByUser(Log& log);
  bool running() const { return m_job.running(); }
  /// Asks the running bake to stop (poll() then reports it cancelled).
  void cancel() { m_job.cancel(); }
  /// The running bake's stage and tiles done / total.
  nav::bake::BakeProgress progress() const { return m_job.progress(); }
  /// Call every frame: when the job ended, hands the mesh to `nav` (true = a new mesh arrived).
  bool poll(NavState& nav, Log& log);
  /// "failed: <why>" / "was cancelled" when the last bake of this source gave no navmesh, else "".
  const std::string& failure() const { return m_failure; }
  /// The last bake's log lines, then one line per stage with its time, then the totals.
  const std::vector<std::string>& report() const { return m_report; }
  /// Worker threads of the next bake (0 = all cores).
  int threads = 0;
  /// Set by the document: with agent types, bakes each type from `input` with `base` (these
  /// settings) and its overrides, and returns the bakes started; -1 when the level has none
  /// (build() then bakes the level's one navmesh).
  std::function<int(const nav::bake::BakeInput& input, const nav::bake::BakeSettings& base, int threads)> bakeAgents;
  /// Set by the document: the level's agent types are baking (at open or after a Build); the
  /// no-navmesh readout then shows that instead of a Bake button. Unset: never.
  std::function<bool()> agentsBaking;
  /// build() handed the bake to the agent types and agentBakesEnded() was not called since.
  bool agentBakesRunning() const { return m_agentBuild; }
  /// The document, once the agent types' bakes that build() started have all ended: `report` is
  /// the Build log (one line per type); a Build (buildByUser) that started a bake is now unsaved.
  void agentBakesEnded(std::vector<std::string> report);

  /// Something opening another file or quitting would lose, so the app asks first (Save /
  /// Discard / Cancel): a navmesh built by the user (Build / Ctrl+B) and not saved since, or bake
  /// settings edited since the level was opened or its level file saved.
  bool unsaved() const { return m_unsaved || settingsChanged() || editsChanged(); }
  bool unsavedBake() const { return m_unsaved; }
  bool settingsChanged() const;
  /// The level's volumes and links as edited in the viewer (LevelEditor): baked by Build, written
  /// into the level file by saveSettings().
  const nav::bake::BakeInput& input() const { return m_input; }
  void setEdits(std::vector<nav::bake::ConvexVolume> volumes, std::vector<nav::bake::OffMeshLink> links);
  /// The level's areaRules as edited in the viewer (LevelEditor's rules): baked by Build, written
  /// into the level file by saveSettings().
  void setAreaRules(std::vector<nav::bake::AreaRule> rules) { m_input.areaRules = std::move(rules); }
  /// The volumes, links or area rules differ from the level file's (as opened or last saved).
  bool editsChanged() const;
  /// Tiles of the open navmesh were re-baked or removed in the viewer: it differs from its file.
  void markEdited() { m_unsaved = true; }
  /// Saves the open navmesh to savePath() (atomic); false + log message on failure.
  /// With meshToSave set, what it gives is written instead (the open mesh is never changed).
  /// A level with agent types (agentMeshes gives some) writes every type's navmesh to
  /// nav::bake::agentFilePath(savePath(), NAME) instead (OUT.<name>.bin, as `navbench bake`
  /// does), all or none: each into a temporary file beside it, renamed once all are written
  /// (meshToSave applies to the open one, the active type's).
  bool save(const NavState& nav, Log& log);
  /// Set by the document: each agent type's name and navmesh (null: still baking, nothing is
  /// saved then); empty without agent types.
  std::function<std::vector<std::pair<std::string, const nav::NavMesh*>>()> agentMeshes;
  /// Set by LevelEditor: the mesh to write for the open one (`out` left null: the open one as it
  /// is), e.g. without the polys the Prune tool removes on save; false + `why`: nothing is saved.
  std::function<bool(const nav::NavMesh& open, std::unique_ptr<nav::NavMesh>* out, std::string* why)> meshToSave;
  /// Writes the settings, volumes and links into the level file (atomic): a level-file source is
  /// updated in place; for an OBJ, levelFilePath() is created, or updated when it already names
  /// this OBJ (another OBJ's level file is refused). False + log message on failure.
  bool saveSettings(Log& log);
  /// Saves whatever unsaved() reports (settings, then the navmesh).
  bool saveAll(const NavState& nav, Log& log);
  /// The user chose to drop what is unsaved.
  void discard();
  /// Where save() writes the navmesh: the source's .bin until changed.
  const char* savePath() const { return m_savePath.c_str(); }
  void setSavePath(const std::string& path) { m_savePath = path; }
  /// The level file saveSettings() writes ("" when no level is open).
  std::string levelFilePath() const;

  nav::bake::BakeSettings settings;

private:
  /// A bake still running for the level being replaced: its result is not this level's.
  void dropRunningBake(Log* log);
  std::string m_source;
  nav::bake::BakeInput m_input;
  nav::bake::BakeJob m_job;
  std::vector<std::string> m_report;
  bool m_userBuild = false; ///< The running bake was started by the user.
  bool m_agentBuild = false; ///< build() went to the agent types; their bakes have not all ended.
  int m_agentBakes = 0;      ///< Bakes that build() started for the agent types.
  bool m_unsaved = false;
  std::string m_failure;
  nav::bake::BakeSettings m_savedSettings; ///< The settings as opened or last saved.
  std::vector<nav::bake::ConvexVolume> m_savedVolumes; ///< The volumes and links as opened or last saved.
  std::vector<nav::bake::OffMeshLink> m_savedLinks;
  std::vector<nav::bake::AreaRule> m_savedRules;
  std::string m_savePath;
  bool saveAgents(const NavState& nav, const std::vector<std::pair<std::string, const nav::NavMesh*>>& meshes, Log& log);
};

/// Same volume / link: every field equal (exact floats).
bool sameVolume(const nav::bake::ConvexVolume& a, const nav::bake::ConvexVolume& b);
bool sameLink(const nav::bake::OffMeshLink& a, const nav::bake::OffMeshLink& b);

} // namespace navbench
