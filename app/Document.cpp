#include "app/Document.h"

#include "app/Settings.h"
#include "app/TileCacheState.h"
#include "app/tools/Tools.h"
#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"
#include "render/Screenshot.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace navbench {

namespace fs = std::filesystem;

namespace {
// OBJ files over this size open on a worker thread in interactive runs (about 0.2 s and more to
// load): smaller ones keep the synchronous, same-frame load that scripted runs rely on.
constexpr std::uintmax_t kAsyncLevelBytes = std::uintmax_t(8) << 20;
} // namespace

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

std::string lowerExt(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

bool isScenarioPath(const std::string& path) {
  const std::string ext = lowerExt(path);
  if (ext == ".png") return true;
  if (ext != ".json") return false;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) > kMaxScenarioBytes) return false;
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str().find(kScenarioMarker) != std::string::npos;
}

Document::Document(Log& log, DocumentHost& host) : editor(bake, nav, log, history), m_log(log), m_host(host) {
  editor.navmeshEdited = [this]() { navmeshEdited(); };
  why.settingsChanged = [this]() { filterChanged(); };
}

Document::~Document() { tools.clear(); }

void Document::initTools() {
  m_toolCtx.level = &level;
  m_toolCtx.log = &m_log;
  m_toolCtx.nav = &nav;
  hier.setNav(&nav);
  m_toolCtx.hier = &hier;
  m_toolCtx.hoverPos = &hover.pos; // tools that show what is under the mouse (A* Stepper)
  m_toolCtx.hoverHit = &hover.hit;
  m_toolCtx.view = &view; // which sides of the level a click hits (Pick's triangle readout)
  m_toolCtx.editor = &editor;
  m_toolCtx.history = &history;
  m_toolCtx.inputChanged = [this](const Tool* t) {
    for (auto& tool : tools)
      if (tool.get() == t) history.push(tool.get());
  };
  m_toolCtx.bake = &bake; // the tools' Bake button when no navmesh is open
  tools = createTools();
  for (auto& t : tools) t->init(m_toolCtx);
}

int Document::findTool(const std::string& name) const {
  for (size_t i = 0; i < tools.size(); ++i)
    if (name == tools[i]->name()) return int(i);
  return -1;
}

std::string Document::toolNames() const {
  std::string names;
  for (auto& t : tools) names += std::string(names.empty() ? "" : ", ") + t->name();
  return names;
}

void Document::setActiveTool(int index) {
  if (index == activeTool) return;
  if (Tool* t = tool()) t->reset();
  activeTool = index;
}

void Document::filterChanged() {
  for (auto& t : tools) t->onFilterChanged();
}

bool Document::pollBake() {
  editor.poll();
  // Obstacles: the tile cache rebuilds their tiles within a frame budget (headless runs: all of
  // them now, so scripted input and screenshots see the result); tools re-run on rebuilt tiles.
  if (TileCacheState* tc = nav.tileCache(); tc && tc->busy() && tc->poll(m_host.headless() ? 0.0 : 4.0) > 0) {
    nav.markEdited();
    hover.poly = 0;
    m_host.navmeshReplaced();
    filterChanged();
  }
  if (!bake.poll(nav, m_log)) return false;
  navReplaced();
  return true;
}

void Document::navmeshEdited() {
  hover.poly = 0;
  hier.meshEdited();
  m_host.navmeshReplaced();
  filterChanged();
}

bool Document::openAny(const std::string& path) {
  if (isScenarioPath(path)) return openScenarioFile(path);
  return openLevel(path);
}

bool Document::openLevel(const std::string& path, Level* preloaded, bool siblingNav) {
  const std::string ext = lowerExt(path);
  if (ext == ".bin" || ext == ".tcache" || ext == ".nbcap") return openNav(path);
  std::string objPath = path;
  if (ext == ".json") { // a level file: its OBJ, then the .bin next to the level file
    nav::bake::Level lf;
    std::string why;
    if (!nav::bake::loadLevelFile(path, &lf, &why)) {
      m_log.error(why + (level.empty() ? std::string() : " (keeping " + level.path() + ")"));
      return false;
    }
    objPath = nav::bake::resolveObjPath(path, lf);
  }
  std::string error;
  const double t0 = nowMs();
  if (m_levelLoader.active()) { // a newer open wins over a background load still running
    m_levelLoadNav.clear();
    m_levelLoader.cancel();
    Level dropped;
    m_levelLoader.take(dropped, error);
    error.clear();
  }
  std::error_code sizeError;
  const auto objBytes = preloaded ? 0 : fs::file_size(objPath, sizeError);
  if (!preloaded && !m_host.headless() && !sizeError && objBytes > kAsyncLevelBytes) {
    m_levelLoader.start(objPath, path);
    m_levelLoadSiblingNav = siblingNav;
    m_log.info("opening " + objPath + " (" + std::to_string(objBytes >> 20) + " MiB) in the background");
    return true;
  }
  if (preloaded) {
    level = std::move(*preloaded);
  } else if (!level.load(objPath, error)) {
    m_log.error(error + (level.empty() ? std::string() : " (keeping " + level.path() + ")"));
    return false;
  }
  levelArg = path;
  const TriMesh& m = level.mesh();
  char buf[256];
  std::snprintf(buf, sizeof buf, "opened %s: %d vertices, %d triangles (%d faces), %.1f ms", path.c_str(), m.vertCount(),
                m.triCount(), m.polygonCount, nowMs() - t0);
  m_log.info(buf);
  for (const std::string& note : m.notes) m_log.info(objPath + ": " + note);
  levelFromNav = false;
  m_host.levelReplaced();
  for (auto& t : tools) t->onLevelChanged();
  m_host.fileOpened(path);
  // The navmesh of the previous level does not belong to this one: open this level's own, if any.
  editor.reset();
  nav.clear();
  hier.reset();
  capture.close();
  hover.poly = 0;
  // The Bake panel bakes this level (a level file brings its settings, volumes and links).
  if (!bake.setSource(path, m_log)) bake.clearSource();
  std::string bin = siblingBin(path);
  if (bin.empty() && ext == ".json") bin = siblingBin(objPath);
  std::string tcache = siblingTileCache(path); // a tile cache beside it: opened when there is no .bin
  if (tcache.empty() && ext == ".json") tcache = siblingTileCache(objPath);
  if (bin.empty()) bin = tcache;
  else if (!tcache.empty()) m_log.info(tcache + " is there too: open it for the Obstacles tool");
  if (!siblingNav) {
    // The caller (a scenario) opens its own tile set next.
  } else if (!bin.empty()) {
    m_log.info("found " + bin + " next to " + fs::path(path).filename().string() + ": opening it");
    openNav(bin);
  } else if (bake.hasSource()) {
    // No tile set beside it: a navmesh without asking, baked in the background (a level file with
    // its own settings, a bare OBJ with the Bake panel's). Not an unsaved bake: opening the level
    // again makes the same one.
    m_log.info("no baked tile set next to " + path + ": baking it with the " +
               (ext == ".json" ? "level's settings" : "Bake panel's settings"));
    if (bake.build(m_log)) m_host.loadTimeBakeStarted();
  } else {
    m_log.info("no baked tile set (" + fs::path(path).stem().string() + ".bin) next to " + path +
               ": no navmesh (Bake panel, or 'navbench bake')");
  }
  m_host.openFilesChanged();
  return true;
}

bool Document::openNav(const std::string& path, nav::NavMesh* preloaded) {
  if (!preloaded && lowerExt(path) == ".nbcap") return openCapture(path);
  std::string error;
  const double t0 = nowMs();
  if (preloaded) {
    nav.adopt(std::move(*preloaded), path);
  } else if (!(lowerExt(path) == ".tcache" ? nav.loadTileCache(path, error) : nav.loadBin(path, error))) {
    m_log.error(error + (nav.loaded() ? " (keeping " + nav.path() + ")" : std::string()));
    return false;
  }
  char buf[320];
  std::snprintf(buf, sizeof buf, "opened navmesh %s: %d tiles, %d polys, %.1f ms", path.c_str(), nav.tileCount(),
                nav.polyCount(), nowMs() - t0);
  m_log.info(buf);
  editor.reset();
  capture.close(); // (openCapture opens its queries after this)
  m_host.navmeshReplaced(); // another mesh: no tile of the old one is drawn again
  hover.poly = 0;
  if (level.empty() || levelFromNav) {
    // No OBJ: clicks and the view use the navmesh's own detail triangles.
    level.set(nav.detailMesh(), path);
    levelFromNav = true;
    m_host.levelReplaced();
    m_log.info("no OBJ open: clicks hit the navmesh's detail triangles");
  }
  hier.rebuild(); // the same NavState object holds another mesh: the old graph must go
  for (auto& t : tools) t->onLevelChanged();
  m_host.fileOpened(path);
  m_host.openFilesChanged();
  return true;
}

void Document::pollLevelLoad() {
  if (!m_levelLoader.active() || !m_levelLoader.finished()) return;
  const std::string path = m_levelLoader.tag();
  const double ms = m_levelLoader.elapsedMs();
  Level loaded;
  std::string error;
  const LoadResult r = m_levelLoader.take(loaded, error);
  std::string nav;
  nav.swap(m_levelLoadNav);
  if (r != LoadResult::Ok) {
    if (r == LoadResult::Cancelled)
      m_log.info(error);
    else
      m_log.error(error + (level.empty() ? std::string() : " (keeping " + level.path() + ")"));
    if (r == LoadResult::Failed && !nav.empty()) openNav(nav); // asked for by name: shown without its level
    return;
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "loaded in the background in %.1f ms", ms);
  m_log.info(buf);
  openLevel(path, &loaded, m_levelLoadSiblingNav && nav.empty());
  if (!nav.empty()) openNav(nav);
}

void Document::navReplaced() {
  editor.reset();
  capture.close(); // a bake replaced the capture's navmesh
  hover.poly = 0;
  hier.rebuild(); // the new navmesh's graph now, not in the first hierarchical query's time
  m_host.navmeshReplaced(); // a different mesh: its tiles are drawn anew
  for (auto& t : tools) t->onLevelChanged();
  if (m_afterBake) { // a scenario opened on a level that had to be baked: its edits and tool state, now
    m_afterBake = false;
    if (m_afterBakeEdits.is_object()) {
      std::string why;
      if (!editor.loadScenario(m_afterBakeEdits, &why)) m_log.error("scenario: " + why);
      m_afterBakeEdits = nlohmann::json();
    }
    Tool* t = tool();
    std::string why;
    if (t && m_afterBakeTool == t->name() && !t->loadScenario(m_afterBakeState, why)) m_log.error("scenario: tool.state." + why);
  }
  m_host.openFilesChanged();
}

Scenario Document::currentScenario(const std::string& baseDir) const {
  Scenario s;
  auto rel = [&](const std::string& p) { return p.empty() ? p : baseDir.empty() ? absolutePath(p) : relativeTo(baseDir, p); };
  if (!level.empty() && !levelFromNav) s.level = rel(levelArg.empty() ? level.path() : levelArg);
  std::error_code ec;
  if (nav.loaded() && fs::is_regular_file(nav.path(), ec)) s.navmesh = rel(nav.path());
  if (!s.level.empty() && lowerExt(levelArg) == ".json") {
    nav::bake::Level lf;
    std::string why;
    if (nav::bake::loadLevelFile(levelArg, &lf, &why)) s.bakeSettingsHash = bakeSettingsHash(nav::bake::settingsToJson(lf.settings));
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
  if (const Tool* t = activeTool >= 0 && activeTool < int(tools.size()) ? tools[size_t(activeTool)].get() : nullptr) {
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
  s.navDraw.polys = navDraw.polys;
  s.navDraw.polyEdges = navDraw.polyEdges;
  s.navDraw.tileBorders = navDraw.tileBorders;
  s.navDraw.portals = navDraw.portals;
  s.navDraw.offMeshLinks = navDraw.offMeshLinks;
  s.navDraw.detailMesh = navDraw.detailMesh;
  s.navDraw.bvTree = navDraw.bvTree;
  s.navDraw.tileLabels = navDraw.tileLabels;
  s.navDraw.lift = navDraw.lift;
  s.view = view;
  s.note = scenarioNote;
  if (editor.hasEdits()) editor.saveScenario(s.edits);
  if (const TileCacheState* tc = nav.tileCache(); tc && !tc->obstacles().empty()) tc->saveObstacles(s.edits["obstacles"]);
  if (check.worthSaving()) check.saveScenario(s.check);
  if (why.shown) why.saveScenario(s.why);
  if (capture.isOpen()) s.captureQuery = capture.selected();
  return s;
}

bool Document::openScenarioFile(const std::string& path) {
  Scenario s;
  std::string err;
  bool ok;
  if (lowerExt(path) == ".png") {
    render::Image img;
    ok = render::readPng(path, img, err);
    if (ok && !scenarioFromPngText(img.text, s, err)) {
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
  std::error_code ec;
  auto exists = [&](const std::string& p) { return p.empty() || fs::is_regular_file(p, ec); };
  auto resolve = [&](const std::string& p) {
    std::string r = resolveFrom(baseDir, p);
    if (!exists(r) && !p.empty() && fs::path(p).is_relative() && fs::is_regular_file(p, ec)) r = p; // relative to the cwd
    return r;
  };
  const std::string lvl = resolve(s.level), nm = resolve(s.navmesh);
  if (!exists(lvl) || !exists(nm)) {
    std::string what;
    if (!exists(lvl)) what = "level '" + s.level + "' not found (looked at " + lvl + ")";
    if (!exists(nm)) what += std::string(what.empty() ? "" : "; ") + "tile set '" + s.navmesh + "' not found (looked at " + nm + ")";
    if (!m_host.asksForMovedFiles()) return fail(what);
    m_log.warning(source + ": " + what + ": asking for the moved files");
    MovedFiles moved;
    moved.scenario = s;
    moved.baseDir = baseDir;
    moved.source = source;
    moved.level = lvl;
    moved.navmesh = nm;
    moved.levelMissing = !exists(lvl);
    moved.navMissing = !exists(nm);
    m_host.askForMovedFiles(moved);
    return false;
  }
  // The tool: known, and its state valid (checked on a fresh instance: nothing changes yet).
  const int toolIndex = findTool(s.toolName);
  if (toolIndex < 0) {
    return fail("tool.name: unknown tool '" + s.toolName + "' (tools: " + toolNames() + ")");
  }
  {
    std::vector<std::unique_ptr<Tool>> fresh = createTools();
    ToolContext none;
    fresh[size_t(toolIndex)]->init(none);
    std::string why;
    if (!fresh[size_t(toolIndex)]->loadScenario(s.toolState, why)) return fail("tool.state." + why);
  }
  // Files: read everything into temporaries first; only then replace what is open.
  const bool levelIsBin = lowerExt(lvl) == ".bin";
  const std::string navFile = levelIsBin && nm.empty() ? lvl : nm;
  const std::string curLevel = level.empty() || levelFromNav || levelArg.empty() ? std::string() : absolutePath(levelArg);
  const bool needLevel = !lvl.empty() && !levelIsBin && absolutePath(lvl) != curLevel;
  const bool dropLevel = (lvl.empty() || levelIsBin) && !level.empty() && !levelFromNav; // the navmesh alone is shown
  bool needNav = !navFile.empty() && !(nav.loaded() && absolutePath(nav.path()) == absolutePath(navFile));
  if ((needLevel || dropLevel) && !navFile.empty()) needNav = true; // opening a level closes the old navmesh
  Level tmpLevel;
  if (needLevel) {
    std::string objPath = lvl, why;
    if (lowerExt(lvl) == ".json") {
      nav::bake::Level lf;
      if (!nav::bake::loadLevelFile(lvl, &lf, &why)) return fail(why);
      objPath = nav::bake::resolveObjPath(lvl, lf);
    }
    if (!tmpLevel.load(objPath, why)) return fail(why);
  }
  // Obstacles (edits.obstacles) go on a tile cache (.tcache) navmesh.
  const bool navIsCache = lowerExt(navFile) == ".tcache";
  std::vector<Obstacle> obstacles;
  const bool hasObstacles = s.edits.is_object() && s.edits.contains("obstacles");
  if (hasObstacles) {
    std::string why;
    if (!TileCacheState::parseObstacles(s.edits["obstacles"], &obstacles, &why)) return fail("edits." + why);
    if (!obstacles.empty() && !navIsCache && !(navFile.empty() && nav.tileCache()))
      return fail("edits.obstacles: obstacles need a tile cache (.tcache) navmesh, not " +
                  (navFile.empty() ? std::string("none") : navFile));
  }
  // A path capture (.nbcap) navmesh: its queries come with it; the selected one is checked here.
  const bool navIsCapture = lowerExt(navFile) == ".nbcap";
  if (s.captureQuery >= 0 && !navIsCapture)
    return fail("capture: a selected query needs a path capture (.nbcap) navmesh, not " +
                (navFile.empty() ? std::string("none") : navFile));
  nav::NavMesh tmpMesh;
  nav::Capture tmpCapture;
  if (needNav && navIsCapture) {
    std::string why;
    if (nav::statusFailed(nav::loadCaptureFile(navFile, tmpMesh, tmpCapture, &why)))
      return fail(why.empty() ? navFile + ": cannot load the capture" : why);
  }
  if (const size_t n = needNav ? tmpCapture.queries.size() : capture.queries().size(); s.captureQuery >= int(n))
    return fail("capture.query: " + std::to_string(s.captureQuery) + " is past the capture's last query (it has " +
                std::to_string(n) + ")");
  if (needNav && navIsCapture) {
    // (read above)
  } else if (needNav && navIsCache) { // checked now, opened at the commit
    TileCacheState check;
    std::string why;
    if (!check.open(navFile, why)) return fail(why);
  } else if (needNav) {
    std::string why;
    const nav::Status st = nav::loadTileSetFile(navFile, tmpMesh, &why);
    if (nav::statusFailed(st)) return fail(why.empty() ? navFile + ": cannot load tile set" : why);
  }
  // Commit.
  if (dropLevel) {
    level.clear();
    levelFromNav = false;
    levelArg.clear();
    bake.clearSource();
  }
  if (needLevel) openLevel(lvl, &tmpLevel, navFile.empty());
  if (needNav && navIsCapture) openCapture(navFile, &tmpMesh, &tmpCapture);
  else if (needNav) openNav(navFile, navIsCache ? nullptr : &tmpMesh);
  if (TileCacheState* tc = nav.tileCache(); tc && (hasObstacles || !tc->obstacles().empty())) {
    std::string why;
    if (!tc->setAll(obstacles, &why)) m_log.error(source + ": edits.obstacles: " + why);
  }
  if (!s.bakeSettingsHash.empty() && lowerExt(lvl) == ".json") {
    nav::bake::Level lf;
    std::string why;
    if (nav::bake::loadLevelFile(lvl, &lf, &why) && bakeSettingsHash(nav::bake::settingsToJson(lf.settings)) != s.bakeSettingsHash)
      m_log.warning(source + ": the bake settings of " + lvl +
                    " changed since the scenario was saved: the navmesh may differ from the reporter's");
  } else if (!s.bakeSettingsHash.empty() && !lvl.empty() && !levelIsBin && bake.hasSource() &&
             bakeSettingsHash(nav::bake::settingsToJson(bake.settings)) != s.bakeSettingsHash) {
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
  navDraw.polys = s.navDraw.polys;
  navDraw.polyEdges = s.navDraw.polyEdges;
  navDraw.tileBorders = s.navDraw.tileBorders;
  navDraw.portals = s.navDraw.portals;
  navDraw.offMeshLinks = s.navDraw.offMeshLinks;
  navDraw.detailMesh = s.navDraw.detailMesh;
  navDraw.bvTree = s.navDraw.bvTree;
  navDraw.tileLabels = s.navDraw.tileLabels;
  navDraw.lift = s.navDraw.lift;
  const bool slopeChanged = view.walkableSlopeDeg != s.view.walkableSlopeDeg;
  view = s.view;
  if (slopeChanged && !level.empty()) m_host.levelRecolour();
  camera.target = glm::vec3(s.camera.target[0], s.camera.target[1], s.camera.target[2]);
  camera.yaw = s.camera.yaw;
  camera.pitch = s.camera.pitch;
  camera.distance = s.camera.distance;
  camera.fovY = s.camera.fovY;
  setActiveTool(toolIndex);
  m_afterBakeEdits = nlohmann::json();
  nlohmann::json levelEdits = s.edits; // (obstacles are the tile cache's, applied above)
  if (levelEdits.is_object()) levelEdits.erase("obstacles");
  if (levelEdits.is_object() && !(hasObstacles && levelEdits.empty())) {
    if (bake.running()) { // a load-time bake: the edits go on the navmesh it makes
      m_afterBakeEdits = levelEdits;
    } else if (std::string why; !editor.loadScenario(levelEdits, &why)) {
      m_log.error(source + ": " + why);
    }
  }
  filterChanged();
  std::string why;
  if (!tool()->loadScenario(s.toolState, why)) m_log.error(source + ": tool.state." + why);
  m_afterBake = bake.running(); // a load-time bake resets the tools when it ends: restore them then
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
  return true;
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
