#include "app/Document.h"

#include "app/Settings.h"
#include "app/TileCacheState.h"
#include "nav/bake/LevelFile.h"

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

bool DocumentHost::readImageText(const std::string& path, std::vector<std::pair<std::string, std::string>>&,
                                 std::string& error) {
  error = path + ": images are not read here (no image reader)";
  return false;
}

Document::Document(Log& log, DocumentHost& host) : editor(bake, nav, log, history), agents(nav, log), m_log(log), m_host(host) {
  editor.navmeshEdited = [this]() { navmeshEdited(); };
  // Several agent types: saving the navmesh writes every agent's (OUT.<name>.bin).
  bake.agentMeshes = [this]() {
    std::vector<std::pair<std::string, const nav::NavMesh*>> out;
    for (int i = 0; agents.enabled() && i < agents.count(); ++i)
      out.emplace_back(agents.type(i).name, agents.nav(i) ? &agents.nav(i)->mesh() : nullptr);
    return out;
  };
  // Several agent types: a Build bakes each type with the Bake panel's settings and its overrides,
  // and no navmesh of the level's settings alone.
  bake.bakeAgents = [this](const nav::bake::BakeInput& input, const nav::bake::BakeSettings& base, int threads) {
    return agents.enabled() ? agents.rebakeAll(input, base, threads) : -1;
  };
  bake.agentsBaking = [this]() { return agents.busy(); };
  // Several agent types: the editor edits the active agent's navmesh and re-bakes the others'.
  editor.bindAgents(&agents);
  editor.agentsEdited = [this]() { m_host.navmeshReplaced(); }; // another agent's outline changed
  why.settingsChanged = [this]() { filterChanged(); };
}

Document::~Document() { tools.clear(); }

void Document::initTools(ToolFactory makeTools) {
  m_makeTools = std::move(makeTools);
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
  m_toolCtx.agents = &agents; // the Crowd tool's agent types
  tools = m_makeTools ? m_makeTools() : std::vector<std::unique_ptr<Tool>>();
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
  const bool replaced = pollJobs();
  // A scenario opened on a level that had to be baked: its edits and tool state once every bake
  // (the level's and each agent type's) is done.
  if (m_afterBake && !bake.running() && !agents.busy()) applyAfterBake();
  return replaced;
}

bool Document::pollJobs() {
  editor.poll();
  const bool activeArrived = agents.poll();
  if (bake.agentBakesRunning() && !agents.busy()) { // a Build's agent bakes all ended: its log
    std::vector<std::string> report;
    for (int i = 0; i < agents.count(); ++i) report.push_back("agent " + agents.type(i).name + ": " + agents.bakeState(i));
    bake.agentBakesEnded(std::move(report));
  }
  if (activeArrived) { // the active agent's navmesh arrived, or a scenario's agent became active
    navReplaced();
    return true;
  }
  // Obstacles: the tile cache rebuilds their tiles within a frame budget (headless runs: all of
  // them now, so scripted input and screenshots see the result); tools re-run on rebuilt tiles.
  if (TileCacheState* tc = nav.tileCache(); tc && tc->busy() && tc->poll(m_host.headless() ? 0.0 : 4.0) > 0) {
    nav.markEdited();
    hover.poly = 0;
    m_host.navmeshReplaced();
    filterChanged();
  }
  if (!bake.poll(nav, m_log)) return false; // (with agent types, build() bakes none of its own)
  navReplaced();
  return true;
}

bool Document::setActiveAgent(int index) {
  std::string why;
  editor.finish(); // a rebake under way lands in the agent it was for
  if (!agents.setActive(index, &why)) {
    m_log.error("agents: " + why);
    return false;
  }
  m_log.info("agents: " + agents.type(index).name + " is the active agent");
  editor.agentSwitched(); // the history stays: each step undoes on its own agent's navmesh
  navmeshEdited(); // the tools re-run their queries on this agent's navmesh
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
  return openLevelFile(path, nullptr, preloaded, siblingNav);
}

bool Document::openLevelFile(const std::string& path, const nav::bake::Level* levelFile, Level* preloaded, bool siblingNav) {
  const std::string ext = lowerExt(path);
  if (ext == ".bin" || ext == ".tcache" || ext == ".nbcap") return openNav(path);
  std::string objPath = path;
  std::vector<nav::bake::AgentType> agentTypes;
  nav::bake::Level read;
  if (ext == ".json" && !levelFile) { // a level file: its OBJ, then the .bin next to the level file
    std::string why;
    if (!nav::bake::loadLevelFile(path, &read, &why)) {
      m_log.error(why + (level.empty() ? std::string() : " (keeping " + level.path() + ")"));
      return false;
    }
    levelFile = &read;
  }
  if (ext == ".json") {
    objPath = nav::bake::resolveObjPath(path, *levelFile);
    agentTypes = levelFile->agents;
  }
  std::string error;
  const double t0 = nowMs();
  if (m_levelLoader.active()) { // a newer open wins over a background load still running
    m_levelLoadNav.clear();
    m_levelLoader.cancel();
    Level dropped;
    m_levelLoader.take(dropped, error);
    m_levelLoadFile.reset();
    error.clear();
  }
  std::error_code sizeError;
  const auto objBytes = preloaded ? 0 : fs::file_size(objPath, sizeError);
  if (!preloaded && !m_host.headless() && !sizeError && objBytes > kAsyncLevelBytes) {
    m_levelLoader.start(objPath, path);
    m_levelLoadFile = ext == ".json" ? std::make_unique<nav::bake::Level>(*levelFile) : nullptr;
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
  m_levelSettingsHash = ext == ".json" ? bakeSettingsHash(nav::bake::settingsToJson(levelFile->settings)) : std::string();
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
  if (agentTypes.size() >= 2 && bake.hasSource()) { // one navmesh per agent type, all baked now
    agents.open(bake.input(), std::move(agentTypes), 0);
    m_host.loadTimeBakeStarted();
    m_host.openFilesChanged();
    return true;
  }
  agents.clear();
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
  agents.clear(); // a tile set of its own: not the level's agents'
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
  const std::unique_ptr<nav::bake::Level> levelFile = std::move(m_levelLoadFile);
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
  openLevelFile(path, levelFile.get(), &loaded, m_levelLoadSiblingNav && nav.empty());
  if (!nav.empty()) openNav(nav);
}

void Document::navReplaced() {
  editor.reset();
  capture.close(); // a bake replaced the capture's navmesh
  hover.poly = 0;
  hier.rebuild(); // the new navmesh's graph now, not in the first hierarchical query's time
  m_host.navmeshReplaced(); // a different mesh: its tiles are drawn anew
  for (auto& t : tools) t->onLevelChanged();
  m_host.openFilesChanged();
}

void Document::applyAfterBake() {
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

} // namespace navbench
