// Document.h: what the user has open in the viewer, and the operations on it.
//
// The document owns the level (OBJ, level file, or a tile set's own detail mesh), the tile set
// with its query filter and node budget, the models (the bake runner with the level's bake input
// and edits, the level editor, the one undo history, the test-case file), the tools and their
// states, the camera, the view and navmesh drawing options, and the scenario path and note. Its
// operations are the ones a user names: open a file, apply a scenario, capture the current state
// as a scenario, save it. They reach the window, the GPU and the user only through DocumentHost
// (the app), so the frame loop stays a router.
//
// Headless: no SDL, ImGui or GL (navbench_document, tested in tests/model). The tools come from
// the factory given to initTools (the viewer's createTools, tools/Tools.h; tests pass their own),
// screenshots' embedded scenarios are read through the host.
//
// Errors name the file and the problem, go to the log and (through the host) to a toast; a failed
// open or scenario changes nothing that is open. Applying a scenario (DocumentScenario.cpp) is
// three steps: validate (its paths, tool, level file, obstacles, capture query: nothing read
// into the document), load (the OBJ, tile set or capture read into temporaries) and commit (they
// replace what is open); only the commit changes the document.
#pragma once

#include "app/model/HierSearch.h"
#include "app/Level.h"
#include "app/Log.h"
#include "app/NavDrawOptions.h"
#include "app/NavState.h"
#include "app/Scenario.h"
#include "app/ViewSettings.h"
#include "app/model/AgentSet.h"
#include "app/model/BakeRunner.h"
#include "app/model/CaptureSession.h"
#include "app/model/CheckModel.h"
#include "app/model/History.h"
#include "app/model/LevelEditor.h"
#include "app/model/TestCaseSession.h"
#include "app/model/WhyModel.h"
#include "app/tools/Tool.h"
#include "render/Camera.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nav::bake {
struct Level;
}

namespace navbench {

/// A scenario whose level or tile set is not where it says: what the moved-files dialog asks for.
struct MovedFiles {
  Scenario scenario;
  std::string baseDir, source;
  std::string level, navmesh; ///< Resolved paths (the dialog lets the user edit them).
  bool levelMissing = false, navMissing = false;
};

/// What the document needs from the viewer around it.
class DocumentHost {
public:
  virtual ~DocumentHost() = default;
  /// Headless run (--screenshot, --bench-frames): no settings, no background loads, no dialogs.
  virtual bool headless() const = 0;
  /// Headless runs ask for a scenario's moved files too (--ask-moved) instead of failing.
  virtual bool asksForMovedFiles() const = 0;
  /// A new level (or the tile set's own triangles) replaced the shown one: upload it, aim the
  /// camera at it (from the low-x, low-z corner; the last session's camera for the same file).
  virtual void levelReplaced() = 0;
  /// The level's colours depend on a view setting that changed: upload it again.
  virtual void levelRecolour() = 0;
  /// Another navmesh is open (or none): its overlay buffers are stale.
  virtual void navmeshReplaced() = 0;
  /// A file the user opened (the recent files list).
  virtual void fileOpened(const std::string& path) = 0;
  /// A short message shown for a few seconds over the view (`error`: longer, in red).
  virtual void notify(const std::string& text, bool error) = 0;
  /// Opens the moved-files dialog for `moved`.
  virtual void askForMovedFiles(const MovedFiles& moved) = 0;
  /// A bake started because a level (level file or bare OBJ) was opened without its tile set.
  virtual void loadTimeBakeStarted() = 0;
  /// The open files changed (window title).
  virtual void openFilesChanged() = 0;
  /// The text chunks (keyword, text) of the PNG at `path` (a screenshot's embedded scenario).
  /// Default, for hosts without an image reader: false, with a message naming the file.
  virtual bool readImageText(const std::string& path, std::vector<std::pair<std::string, std::string>>& text,
                             std::string& error);
};

/// Makes the tools, in the order of the Tools panel (the viewer: createTools, tools/Tools.h).
using ToolFactory = std::function<std::vector<std::unique_ptr<Tool>>()>;

class Document {
public:
  Document(Log& log, DocumentHost& host);
  ~Document();
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  /// Creates the tools with `makeTools` and gives them their context; once, before anything else.
  /// The factory is kept: a scenario's tool state is checked on a fresh tool before it is applied.
  void initTools(ToolFactory makeTools);

  // ---- what is open -------------------------------------------------------------------------
  Level level;
  bool levelFromNav = false; ///< The level shown is the navmesh's own detail mesh (no OBJ open).
  std::string levelArg;      ///< What openLevel was given (.obj or level .json), as given.
  NavState nav;
  HierSearch hier;           ///< nav's hierarchical planner (built when it opens, updated on edits).
  NavDrawOptions navDraw;
  ViewSettings view;
  render::Camera camera;
  BakeRunner bake;           ///< The level's bake settings, volumes, links, and a bake under way.
  TestCaseSession testCases; ///< A RecastDemo test-case file and its results.
  bool testCasesVisible = false; ///< The Test cases panel is shown (view state, as `view`).
  CheckModel check;          ///< The Check panel's checks, findings and heatmap (issue 27).
  WhyModel why;              ///< The Why panel: the current query explained, counterfactuals applied.
  CaptureSession capture;    ///< An open path capture's queries and replays (its navmesh is `nav`'s).
  bool captureVisible = false; ///< The Captured queries panel is shown.
  std::vector<std::unique_ptr<Tool>> tools;
  int activeTool = 0;
  std::string scenarioPath;  ///< Where Ctrl+S saves ("" = ask).
  std::string scenarioNote;
  History history;    ///< The one undo history: the editor's edits and the tools' input changes.
  LevelEditor editor; ///< Volumes, links, tiles and pruning edited in place (steps of `history`).
  /// The level's agent types (a level file's `agents`): each one's navmesh, the active one's in
  /// `nav`; Compare agents and Reachability (the Agents panel, F7).
  AgentSet agents;
  bool agentsVisible = false; ///< The Agents panel is shown.
  /// What is under the mouse this frame (set by the app; the tools read it through their context).
  struct Hover {
    bool hit = false;
    glm::vec3 pos{0.0f};
    nav::PolyRef poly = 0;
  } hover;

  bool empty() const { return level.empty() && !nav.loaded(); }
  Tool* tool() { return activeTool >= 0 && activeTool < int(tools.size()) ? tools[size_t(activeTool)].get() : nullptr; }
  const Tool* tool() const { return activeTool >= 0 && activeTool < int(tools.size()) ? tools[size_t(activeTool)].get() : nullptr; }
  /// Index of the tool named `name`, or -1.
  int findTool(const std::string& name) const;
  /// "Pick, Pathfind Follow, ..." (for messages about an unknown name).
  std::string toolNames() const;
  /// Makes tool `index` the active one (the previous one is reset).
  void setActiveTool(int index);
  /// The query filter or node budget changed: every tool recomputes.
  void filterChanged();
  /// Tiles of the open navmesh were re-baked, removed or had flags changed in place (LevelEditor's
  /// navmeshEdited): the overlays are redrawn and every tool re-runs its query on the same inputs.
  void navmeshEdited();
  /// Makes agent type `index` the active one (its navmesh becomes `nav`; the tools re-run their
  /// queries on it). False with a Log line when refused (bakes running, no such agent).
  bool setActiveAgent(int index);
  /// The agent types' navmeshes for the Check panel's per-agent run (DocumentCheck.cpp); empty
  /// without agent types (the checks run on `nav` alone).
  std::vector<CheckAgent> checkAgents() const;
  /// Selects the Check panel's finding `i` (-1: none); a finding of another agent type makes that
  /// type active first (its results stay: the navmeshes only moved). False when out of range or
  /// the agent could not be made active (a Log line).
  bool selectCheckFinding(int i);

  // ---- opening ------------------------------------------------------------------------------
  /// Anything the user opens (command line, File > Open, drop): scenarios (.png, or .json with the
  /// navbenchScenario marker) are restored, other files opened as levels / tile sets.
  bool openAny(const std::string& path);
  /// Opens a level (.obj, level .json, or .bin). A level without a .bin beside it is baked in the
  /// background (a level file with its settings, an OBJ with the Bake panel's): a load-time bake,
  /// not an unsaved one. `preloaded`: the level's geometry already read
  /// (scenario loading reads files first so a failure changes nothing); `siblingNav` false: do not
  /// open/bake the level's own navmesh (the caller opens one).
  /// Interactive runs load big OBJ files (over kAsyncLevelBytes) on a worker thread: the call
  /// returns true at once, pollLevelLoad() finishes it and the level replaces the current one only
  /// once loaded.
  bool openLevel(const std::string& path, Level* preloaded = nullptr, bool siblingNav = true);
  /// A tile set to open once the background level load ends ("" = none).
  void openNavAfterLevelLoad(const std::string& path) { m_levelLoadNav = path; }
  bool openNav(const std::string& path, nav::NavMesh* preloaded = nullptr);
  /// Opens a path capture (.nbcap, DocumentCapture.cpp): its navmesh as the open navmesh (drawn as
  /// a .bin's), its queries in `capture` (the first selected). `preloaded`: both already read (a
  /// scenario reads files before it changes anything). A bad file: a Log line naming it and the
  /// problem, and nothing changes.
  bool openCapture(const std::string& path, nav::NavMesh* preloadedMesh = nullptr, nav::Capture* preloaded = nullptr);
  /// Once a frame: a background level load that finished replaces the level.
  void pollLevelLoad();
  const LevelLoader& levelLoader() const { return m_levelLoader; }
  LevelLoader& levelLoader() { return m_levelLoader; }
  /// Once a frame: a bake that finished replaces the navmesh (true when it did); re-baked tiles
  /// of an edit are swapped in.
  bool pollBake();
  /// Headless runs wait for these (and the Check panel's run) before their scripted input and screenshot.
  bool baking() const { return bake.running() || editor.busy() || agents.busy() || check.running() || (check.pendingRun() && nav.loaded()); }

  // ---- scenarios (app/Scenario.h) -----------------------------------------------------------
  /// The open state as a scenario; paths relative to `baseDir` ("" = absolute paths).
  Scenario currentScenario(const std::string& baseDir) const;
  /// A scenario .json or a screenshot .png with one inside. Errors are logged (naming the file) and
  /// shown; the current state is left as it was.
  bool openScenarioFile(const std::string& path);
  /// Restores `s` (paths relative to `baseDir`); `source` names it in messages. Missing level or
  /// tile set: headless fails with a message; interactive asks for them (DocumentHost).
  bool applyScenario(const Scenario& s, const std::string& baseDir, const std::string& source);
  /// Writes the current scenario to `path` (atomic; paths relative to its folder).
  bool saveScenarioAs(const std::string& path);

private:
  struct ScenarioPlan;  ///< What validateScenario found (DocumentScenario.cpp).
  struct ScenarioFiles; ///< What loadScenarioFiles read.
  /// openLevel with the level file already parsed (`levelFile`, null for an OBJ or when it is to be
  /// read here): each open reads the level file once.
  bool openLevelFile(const std::string& path, const nav::bake::Level* levelFile, Level* preloaded, bool siblingNav);
  /// Scenario step 1: resolves and checks every path, the tool and its state (on a fresh tool),
  /// the level file (read), the obstacles and the capture query's navmesh. Changes nothing. False
  /// with `error`; `plan.movedFiles` when only the files are missing (the host may ask for them).
  bool validateScenario(const Scenario& s, const std::string& baseDir, ScenarioPlan& plan, std::string& error) const;
  /// Scenario step 2: reads the OBJ, tile set or capture the plan needs into `files`. Changes nothing.
  bool loadScenarioFiles(const Scenario& s, const ScenarioPlan& plan, ScenarioFiles& files, std::string& error) const;
  /// Scenario step 3: what was read replaces what is open, then the camera, filter, draw options,
  /// tool, edits and panels of `s`. Problems past this point (an edit that no longer applies) are
  /// logged; the rest of the scenario still applies.
  void commitScenario(const Scenario& s, ScenarioPlan& plan, ScenarioFiles& files, const std::string& source);
  void navReplaced();
  bool pollJobs();       ///< pollBake() less the scenario's after-bake step
  void applyAfterBake(); ///< A scenario's edits and tool state, held while its level baked.
  Log& m_log;
  DocumentHost& m_host;
  ToolContext m_toolCtx;
  ToolFactory m_makeTools;
  LevelLoader m_levelLoader;        ///< A big level loading in the background (openLevel).
  std::unique_ptr<nav::bake::Level> m_levelLoadFile; ///< Its level file, parsed (null: an OBJ).
  bool m_levelLoadSiblingNav = true;
  /// bakeSettingsHash of the open level file's settings, as read when it was opened ("" = no
  /// level file open).
  std::string m_levelSettingsHash;
  std::string m_levelLoadNav;       ///< Tile set to open once the background level load ends.
  /// Tool part of a scenario waiting for a load-time bake to finish (the bake resets the tools).
  bool m_afterBake = false;
  std::string m_afterBakeTool;
  nlohmann::json m_afterBakeState;
  nlohmann::json m_afterBakeEdits;
};

/// A screenshot (.png) or a .json that is a scenario rather than a level file (it has the
/// marker key; a broken one is still routed here so its error is reported as a scenario's).
bool isScenarioPath(const std::string& path);

/// ".JSON" -> ".json".
std::string lowerExt(const std::string& path);

/// Milliseconds on a steady clock.
double nowMs();

} // namespace navbench
