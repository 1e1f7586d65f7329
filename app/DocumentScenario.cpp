// DocumentScenario.cpp: the document as a scenario (currentScenario, saveScenarioAs) and a
// scenario applied to it (openScenarioFile, applyScenario) in three steps: validate, load, commit.
// Only the commit changes the document, so a scenario that fails validation or loading leaves
// everything open as it was (Document.h).
#include "app/Document.h"

#include "app/Settings.h"
#include "app/TileCacheState.h"
#include "nav/CaptureFile.h"
#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"

#include <algorithm>
#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

struct Document::ScenarioPlan {
  std::string level, navmesh; ///< The scenario's paths resolved ("" = none).
  std::string navFile;        ///< The navmesh to show: `navmesh`, or a .bin given as the level.
  bool movedFiles = false;    ///< Only the level or the navmesh is missing (the host may ask for them).
  bool levelMissing = false, navMissing = false;
  int toolIndex = -1;
  bool levelIsBin = false;
  bool needLevel = false; ///< Another level than the open one.
  bool dropLevel = false; ///< The open level closes: the navmesh alone is shown.
  bool needNav = false;   ///< Another navmesh than the open one.
  bool navIsCache = false, navIsCapture = false;
  bool hasObstacles = false;        ///< edits.obstacles is there (maybe empty: all removed).
  std::vector<Obstacle> obstacles;
  bool hasLevelFile = false;        ///< `level` is a level file, read into `levelFile`.
  nav::bake::Level levelFile;
};

struct Document::ScenarioFiles {
  Level level;         ///< The OBJ, when ScenarioPlan::needLevel.
  nav::NavMesh mesh;   ///< The tile set or the capture's navmesh, when needNav (not a .tcache).
  nav::Capture capture;
};

Scenario Document::currentScenario(const std::string& baseDir) const {
  Scenario s;
  auto rel = [&](const std::string& p) { return p.empty() ? p : baseDir.empty() ? absolutePath(p) : relativeTo(baseDir, p); };
  if (!level.empty() && !levelFromNav) s.level = rel(levelArg.empty() ? level.path() : levelArg);
  std::error_code ec;
  if (nav.loaded() && fs::is_regular_file(nav.path(), ec)) s.navmesh = rel(nav.path());
  if (!s.level.empty() && lowerExt(levelArg) == ".json") {
    // The level file's settings: the Bake panel's while they are not edited (they are the file's,
    // as opened or as last saved into it), else as the file was opened.
    const bool asInFile = bake.source() == levelArg && !bake.settingsChanged();
    s.bakeSettingsHash = asInFile ? bakeSettingsHash(nav::bake::settingsToJson(bake.settings)) : m_levelSettingsHash;
  } else if (!s.level.empty() && bake.hasSource()) { // an OBJ: the settings the Bake panel bakes it with
    s.bakeSettingsHash = bakeSettingsHash(nav::bake::settingsToJson(bake.settings));
  }
  s.camera.target[0] = camera.target.x;
  s.camera.target[1] = camera.target.y;
  s.camera.target[2] = camera.target.z;
  s.camera.yaw = camera.yaw;
  s.camera.pitch = camera.pitch;
  s.camera.distance = camera.distance;
  s.camera.fovY = camera.fovY;
  if (const Tool* t = tool()) {
    s.toolName = t->name();
    t->saveScenario(s.toolState);
  }
  const nav::QueryFilter& f = nav.filter();
  s.filter.includeFlags = f.getIncludeFlags();
  s.filter.excludeFlags = f.getExcludeFlags();
  s.filter.heuristicScale = f.getHeuristicScale();
  s.filter.maxNodes = nav.maxNodes();
  for (int a = 0; a < nav::MAX_AREAS; ++a)
    if (f.getAreaCost(a) != 1.0f || f.getAreaEnterCost(a) != 0.0f) s.filter.areas.push_back({a, f.getAreaCost(a), f.getAreaEnterCost(a)});
  s.navDraw = navDraw;
  s.view = view;
  s.note = scenarioNote;
  if (editor.hasEdits()) editor.saveScenario(s.edits);
  if (const TileCacheState* tc = nav.tileCache(); tc && !tc->obstacles().empty()) tc->saveObstacles(s.edits["obstacles"]);
  if (check.worthSaving()) check.saveScenario(s.check);
  if (why.shown) why.saveScenario(s.why);
  agents.saveScenario(s.agents);
  if (capture.isOpen()) s.captureQuery = capture.selected();
  return s;
}

bool Document::openScenarioFile(const std::string& path) {
  Scenario s;
  std::string err;
  bool ok;
  if (lowerExt(path) == ".png") {
    std::vector<std::pair<std::string, std::string>> text;
    ok = m_host.readImageText(path, text, err);
    if (ok && !scenarioFromPngText(text, s, err)) {
      err = path + ": " + err;
      ok = false;
    }
  } else {
    ok = loadScenarioFile(path, s, err);
  }
  if (!ok) {
    m_log.error(err + (level.empty() && !nav.loaded() ? std::string() : " (nothing changed)"));
    m_host.notify(err, true);
    return false;
  }
  return applyScenario(s, fs::path(absolutePath(path)).parent_path().string(), path);
}

bool Document::applyScenario(const Scenario& s, const std::string& baseDir, const std::string& source) {
  auto fail = [&](const std::string& what) {
    const std::string msg = source + ": " + what;
    m_log.error(msg + (level.empty() && !nav.loaded() ? std::string() : " (nothing changed)"));
    m_host.notify(msg, true);
    return false;
  };
  ScenarioPlan plan;
  std::string error;
  if (!validateScenario(s, baseDir, plan, error)) {
    if (!plan.movedFiles || !m_host.asksForMovedFiles()) return fail(error);
    m_log.warning(source + ": " + error + ": asking for the moved files");
    MovedFiles moved;
    moved.scenario = s;
    moved.baseDir = baseDir;
    moved.source = source;
    moved.level = plan.level;
    moved.navmesh = plan.navmesh;
    moved.levelMissing = plan.levelMissing;
    moved.navMissing = plan.navMissing;
    m_host.askForMovedFiles(moved);
    return false;
  }
  ScenarioFiles files;
  if (!loadScenarioFiles(s, plan, files, error)) return fail(error);
  commitScenario(s, plan, files, source);
  return true;
}

bool Document::validateScenario(const Scenario& s, const std::string& baseDir, ScenarioPlan& plan, std::string& error) const {
  auto fail = [&](std::string what) {
    error = std::move(what);
    return false;
  };
  std::error_code ec;
  auto exists = [&](const std::string& p) { return p.empty() || fs::is_regular_file(p, ec); };
  auto resolve = [&](const std::string& p) {
    std::string r = resolveFrom(baseDir, p);
    if (!exists(r) && !p.empty() && fs::path(p).is_relative() && fs::is_regular_file(p, ec)) r = p; // relative to the cwd
    return r;
  };
  plan.level = resolve(s.level);
  plan.navmesh = resolve(s.navmesh);
  const std::string& lvl = plan.level;
  if (!exists(lvl) || !exists(plan.navmesh)) {
    std::string what;
    plan.levelMissing = !exists(lvl);
    plan.navMissing = !exists(plan.navmesh);
    if (plan.levelMissing) what = "level '" + s.level + "' not found (looked at " + lvl + ")";
    if (plan.navMissing)
      what += std::string(what.empty() ? "" : "; ") + "tile set '" + s.navmesh + "' not found (looked at " + plan.navmesh + ")";
    plan.movedFiles = true;
    return fail(what);
  }
  // The tool: known, and its state valid (checked on a fresh instance).
  plan.toolIndex = findTool(s.toolName);
  if (plan.toolIndex < 0) return fail("tool.name: unknown tool '" + s.toolName + "' (tools: " + toolNames() + ")");
  {
    std::vector<std::unique_ptr<Tool>> fresh = m_makeTools();
    ToolContext none;
    fresh[size_t(plan.toolIndex)]->init(none);
    std::string why;
    if (!fresh[size_t(plan.toolIndex)]->loadScenario(s.toolState, why)) return fail("tool.state." + why);
  }
  // What changes: another level, no level, another navmesh.
  plan.levelIsBin = lowerExt(lvl) == ".bin";
  plan.navFile = plan.levelIsBin && plan.navmesh.empty() ? lvl : plan.navmesh;
  const std::string curLevel = level.empty() || levelFromNav || levelArg.empty() ? std::string() : absolutePath(levelArg);
  plan.needLevel = !lvl.empty() && !plan.levelIsBin && absolutePath(lvl) != curLevel;
  plan.dropLevel = (lvl.empty() || plan.levelIsBin) && !level.empty() && !levelFromNav;
  plan.needNav = !plan.navFile.empty() && !(nav.loaded() && absolutePath(nav.path()) == absolutePath(plan.navFile));
  if ((plan.needLevel || plan.dropLevel) && !plan.navFile.empty()) plan.needNav = true; // opening a level closes the old navmesh
  // The level file, read once: its OBJ (opened by the load step) and its settings' hash. The open
  // level's own file may since have broken: then only the hash is not compared.
  if (lowerExt(lvl) == ".json") {
    std::string why;
    plan.hasLevelFile = nav::bake::loadLevelFile(lvl, &plan.levelFile, &why);
    if (!plan.hasLevelFile && plan.needLevel) return fail(why);
  }
  // Obstacles (edits.obstacles) go on a tile cache (.tcache) navmesh.
  plan.navIsCache = lowerExt(plan.navFile) == ".tcache";
  plan.hasObstacles = s.edits.is_object() && s.edits.contains("obstacles");
  if (plan.hasObstacles) {
    std::string why;
    if (!TileCacheState::parseObstacles(s.edits["obstacles"], &plan.obstacles, &why)) return fail("edits." + why);
    if (!plan.obstacles.empty() && !plan.navIsCache && !(plan.navFile.empty() && nav.tileCache()))
      return fail("edits.obstacles: obstacles need a tile cache (.tcache) navmesh, not " +
                  (plan.navFile.empty() ? std::string("none") : plan.navFile));
  }
  // A path capture (.nbcap) navmesh: its queries come with it (the selected one is checked by the load step).
  plan.navIsCapture = lowerExt(plan.navFile) == ".nbcap";
  if (s.captureQuery >= 0 && !plan.navIsCapture)
    return fail("capture: a selected query needs a path capture (.nbcap) navmesh, not " +
                (plan.navFile.empty() ? std::string("none") : plan.navFile));
  return true;
}

bool Document::loadScenarioFiles(const Scenario& s, const ScenarioPlan& plan, ScenarioFiles& files, std::string& error) const {
  auto fail = [&](std::string what) {
    error = std::move(what);
    return false;
  };
  if (plan.needLevel) {
    const std::string objPath = plan.hasLevelFile ? nav::bake::resolveObjPath(plan.level, plan.levelFile) : plan.level;
    std::string why;
    if (!files.level.load(objPath, why)) return fail(why);
  }
  const std::string& navFile = plan.navFile;
  if (plan.needNav && plan.navIsCapture) {
    std::string why;
    if (nav::statusFailed(nav::loadCaptureFile(navFile, files.mesh, files.capture, &why)))
      return fail(why.empty() ? navFile + ": cannot load the capture" : why);
  }
  if (const size_t n = plan.needNav ? files.capture.queries.size() : capture.queries().size(); s.captureQuery >= int(n))
    return fail("capture.query: " + std::to_string(s.captureQuery) + " is past the capture's last query (it has " +
                std::to_string(n) + ")");
  if (plan.needNav && plan.navIsCapture) {
    // (read above)
  } else if (plan.needNav && plan.navIsCache) { // checked now, opened at the commit
    TileCacheState check;
    std::string why;
    if (!check.open(navFile, why)) return fail(why);
  } else if (plan.needNav) {
    std::string why;
    const nav::Status st = nav::loadTileSetFile(navFile, files.mesh, &why);
    if (nav::statusFailed(st)) return fail(why.empty() ? navFile + ": cannot load tile set" : why);
  }
  return true;
}

void Document::commitScenario(const Scenario& s, ScenarioPlan& plan, ScenarioFiles& files, const std::string& source) {
  const std::string& lvl = plan.level;
  const std::string& navFile = plan.navFile;
  if (plan.dropLevel) {
    level.clear();
    levelFromNav = false;
    levelArg.clear();
    m_levelSettingsHash.clear();
    bake.clearSource();
  }
  if (std::string why; s.agents.is_object() && !agents.loadScenario(s.agents, &why)) m_log.error(source + ": " + why);
  if (plan.needLevel) openLevelFile(lvl, plan.hasLevelFile ? &plan.levelFile : nullptr, &files.level, navFile.empty());
  if (plan.needNav && plan.navIsCapture) openCapture(navFile, &files.mesh, &files.capture);
  else if (plan.needNav) openNav(navFile, plan.navIsCache ? nullptr : &files.mesh);
  if (TileCacheState* tc = nav.tileCache(); tc && (plan.hasObstacles || !tc->obstacles().empty())) {
    std::string why;
    if (!tc->setAll(plan.obstacles, &why)) m_log.error(source + ": edits.obstacles: " + why);
  }
  if (!s.bakeSettingsHash.empty() && plan.hasLevelFile) {
    if (bakeSettingsHash(nav::bake::settingsToJson(plan.levelFile.settings)) != s.bakeSettingsHash)
      m_log.warning(source + ": the bake settings of " + lvl +
                    " changed since the scenario was saved: the navmesh may differ from the reporter's");
  } else if (!s.bakeSettingsHash.empty() && !lvl.empty() && lowerExt(lvl) != ".json" && !plan.levelIsBin &&
             bake.hasSource() && bakeSettingsHash(nav::bake::settingsToJson(bake.settings)) != s.bakeSettingsHash) {
    m_log.warning(source + ": the scenario's bake settings differ from the Bake panel's for " + lvl +
                  ": a navmesh baked here may differ from the reporter's");
  }
  nav::QueryFilter f;
  f.setIncludeFlags(uint16_t(s.filter.includeFlags));
  f.setExcludeFlags(uint16_t(s.filter.excludeFlags));
  f.setHeuristicScale(s.filter.heuristicScale);
  for (const ScenarioAreaCost& a : s.filter.areas) {
    f.setAreaCost(a.area, a.cost);
    f.setAreaEnterCost(a.area, a.enterCost);
  }
  nav.filter() = f;
  nav.setMaxNodes(s.filter.maxNodes);
  if (capture.isOpen()) { // the scenario's tool state and filter, not the query's, are shown
    if (capture.select(s.captureQuery, false)) std::copy(capture.selectedQuery()->halfExtents, capture.selectedQuery()->halfExtents + 3, nav.extents);
    capture.takeShowRequest();
  }
  const bool showChanges = navDraw.changes; // (not part of a scenario)
  navDraw = s.navDraw;
  navDraw.changes = showChanges;
  const bool slopeChanged = view.walkableSlopeDeg != s.view.walkableSlopeDeg;
  view = s.view;
  if (slopeChanged && !level.empty()) m_host.levelRecolour();
  camera.target = glm::vec3(s.camera.target[0], s.camera.target[1], s.camera.target[2]);
  camera.yaw = s.camera.yaw;
  camera.pitch = s.camera.pitch;
  camera.distance = s.camera.distance;
  camera.fovY = s.camera.fovY;
  setActiveTool(plan.toolIndex);
  m_afterBakeEdits = nlohmann::json();
  nlohmann::json levelEdits = s.edits; // (obstacles are the tile cache's, applied above)
  if (levelEdits.is_object()) levelEdits.erase("obstacles");
  if (levelEdits.is_object() && !(plan.hasObstacles && levelEdits.empty())) {
    if (bake.running() || agents.busy()) { // a load-time bake: the edits go on the navmesh it makes
      m_afterBakeEdits = levelEdits;
    } else if (std::string why; !editor.loadScenario(levelEdits, &why)) {
      m_log.error(source + ": " + why);
    }
  }
  filterChanged();
  std::string why;
  if (!tool()->loadScenario(s.toolState, why)) m_log.error(source + ": tool.state." + why);
  m_afterBake = bake.running() || agents.busy(); // a load-time bake resets the tools when it ends: restore them then
  if (m_afterBake) {
    m_afterBakeTool = s.toolName;
    m_afterBakeState = s.toolState;
  }
  if (s.check.is_object() && !check.loadScenario(s.check, &why)) m_log.error(source + ": " + why);
  if (!this->why.loadScenario(s.why.is_object() ? s.why : nlohmann::json{{"visible", false}}, &why)) m_log.error(source + ": " + why);
  scenarioNote = s.note;
  if (lowerExt(source) == ".json") scenarioPath = source;
  m_log.info("opened scenario " + source + " (" + s.toolName + ")");
  m_host.notify("Opened scenario " + source, false);
}

bool Document::saveScenarioAs(const std::string& path) {
  if (level.empty() && !nav.loaded()) {
    m_log.error("save scenario: nothing is open");
    return false;
  }
  std::string err;
  std::error_code ec;
  const fs::path parent = fs::path(absolutePath(path)).parent_path();
  fs::create_directories(parent, ec);
  if (!saveScenarioFile(path, currentScenario(parent.string()), err)) {
    m_log.error("save scenario: " + err);
    m_host.notify("Scenario not saved: " + err, true);
    return false;
  }
  scenarioPath = path;
  m_log.info("Saved scenario " + path);
  m_host.notify("Saved scenario " + path, false);
  return true;
}
} // namespace navbench
