// BakePanel.h: the in-app bake (issue 5's viewer part): every BakeSettings field with the ranges
// of settingRanges(), Build on a background thread (BakeJob: progress bar, Cancel, the UI stays
// responsive), Save .bin (atomic, TileSetFile), and the build log with per-stage times.
#pragma once

#include "app/Log.h"
#include "app/NavState.h"
#include "nav/bake/BakeJob.h"
#include "nav/bake/BakeSettings.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace navbench {

class BakePanel {
public:
  /// The bake input of a level (OBJ or level file): geometry, volumes, links and its settings.
  /// On failure keeps the old input and logs "<file>: <problem>".
  bool setSource(const std::string& levelPath, Log& log);
  void clearSource();
  const std::string& source() const { return m_source; }
  bool hasSource() const { return !m_source.empty(); }

  /// Starts a bake (false + log message if it cannot start). Not the user's work (unsavedBake()
  /// stays false): the bake a level gets when opened without its tile set, and the tools' Bake
  /// button (the same bake, asked for again).
  bool build(Log& log);
  bool running() const { return m_job.running(); }
  /// Call every frame: when the job ended, hands the mesh to `nav` (true = a new mesh arrived).
  bool poll(NavState& nav, Log& log);
  /// Draws the window (returns false; kept for symmetry with poll()).
  bool draw(NavState& nav, Log& log, bool* open);
  /// What the tools and the Navmesh panel show when no navmesh is open (ImGui calls, inside their
  /// window): while a bake runs, "Baking..." with its progress and Cancel; with a level open, a
  /// Bake button (build(), the panel's settings) and why the last bake failed, if it did; and the
  /// other way to a navmesh, a .bin tile set. `buttonCentre` (optional, 2 floats): where the Bake
  /// button was drawn in window pixels, {-1, -1} when it was not (for --dump-state).
  void drawNoNavmesh(Log& log, float* buttonCentre = nullptr);

  /// Starts a bake as the Build button does (Ctrl+B): its result counts as the user's work, so
  /// unsaved() is true once it arrives, until it is saved or discarded.
  bool buildByUser(Log& log);
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
  /// The volumes or links differ from the level file's (as opened or last saved).
  bool editsChanged() const;
  /// Tiles of the open navmesh were re-baked or removed in the viewer: it differs from its file.
  void markEdited() { m_unsaved = true; }
  /// Saves the open navmesh to the panel's .bin path (atomic); false + log message on failure.
  /// With meshToSave set, what it gives is written instead (the open mesh is never changed).
  bool save(const NavState& nav, Log& log);
  /// Set by LevelEditor: the mesh to write for the open one (`out` left null: the open one as it
  /// is), e.g. without the polys the Prune tool removes on save; false + `why`: nothing is saved.
  std::function<bool(const nav::NavMesh& open, std::unique_ptr<nav::NavMesh>* out, std::string* why)> meshToSave;
  /// Writes the panel's settings, volumes and links into the level file (atomic): a level-file
  /// source is updated in place; for an OBJ, levelFilePath() is created, or updated when it
  /// already names this OBJ (another OBJ's level file is refused). False + log message on failure.
  bool saveSettings(Log& log);
  /// Saves whatever unsaved() reports (settings, then the navmesh).
  bool saveAll(const NavState& nav, Log& log);
  /// The user chose to drop what is unsaved.
  void discard() {
    m_unsaved = false;
    m_savedSettings = settings;
    m_savedVolumes = m_input.volumes;
    m_savedLinks = m_input.links;
  }
  const char* savePath() const { return m_savePath; }
  /// The level file saveSettings() writes ("" when no level is open).
  std::string levelFilePath() const;

  nav::bake::BakeSettings settings;

private:
  /// A bake still running for the level being replaced: its result is not this level's.
  void dropRunningBake(Log* log);
  void progressBar();
  std::string m_source;
  nav::bake::BakeInput m_input;
  nav::bake::BakeJob m_job;
  std::vector<std::string> m_report;
  int m_threads = 0;
  bool m_userBuild = false; ///< The running bake was started by the user.
  bool m_unsaved = false;
  std::string m_failure; ///< "failed: <why>" / "was cancelled": the last bake of this source gave no navmesh.
  nav::bake::BakeSettings m_savedSettings; ///< The settings as opened or last saved.
  std::vector<nav::bake::ConvexVolume> m_savedVolumes; ///< The volumes and links as opened or last saved.
  std::vector<nav::bake::OffMeshLink> m_savedLinks;
  char m_savePath[512] = {};
};

} // namespace navbench
