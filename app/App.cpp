#include "app/App.h"

#include "app/tools/Tester.h"
#include "app/tools/Tools.h"
#include "nav/base/AtomicFile.h"
#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"
#include "render/Gl.h" // before any SDL GL header
#include "render/Screenshot.h"

#include <imgui.h>
#include <imgui_internal.h> // the window list, for --dump-state
#include <imgui_stdlib.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace navbench {

namespace {

// OBJ files over this size open on a worker thread in interactive runs (about 0.2 s and more to
// load): smaller ones keep the synchronous, same-frame load that scripted runs rely on.
constexpr std::uintmax_t ASYNC_LEVEL_BYTES = std::uintmax_t(8) << 20;

// View > Level LOD, unless NAVBENCH_LEVEL_LOD=0/1 in the environment forces it (benchmarks).
bool levelLodOn(const ViewSettings& view) {
  static const char* env = std::getenv("NAVBENCH_LEVEL_LOD");
  return env ? std::atoi(env) != 0 : view.levelLod;
}

} // namespace

namespace {
// The panel layout, written through nav/base/AtomicFile.h ("" = not saved: headless runs).
void saveImguiIni(const std::string& path) {
  ImGui::GetIO().WantSaveIniSettings = false;
  if (path.empty()) return;
  size_t n = 0;
  const char* data = ImGui::SaveIniSettingsToMemory(&n);
  std::string why;
  if (!base::writeFileAtomic(path, data, n, why)) std::fprintf(stderr, "navbench: %s\n", why.c_str());
}
} // namespace

namespace fs = std::filesystem;

namespace {

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

glm::vec3 clearColor() { return glm::vec3(kClearColor[0], kClearColor[1], kClearColor[2]) / 255.0f; }

std::string lowerExt(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

/// A screenshot (.png) or a .json that is a scenario rather than a level file (it has the
/// marker key; a broken one is still routed here so its error is reported as a scenario's).
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

} // namespace

App::App() = default;
App::~App() { shutdown(); }

std::vector<std::string> App::shaderSearchDirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("NAVBENCH_SHADER_DIR"); env && *env) dirs.push_back(env);
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back((exe.parent_path() / "shaders").string());
    dirs.push_back((exe.parent_path().parent_path() / "share" / "navbench" / "shaders").string());
  }
#ifdef NAVBENCH_SOURCE_SHADER_DIR
  dirs.push_back(NAVBENCH_SOURCE_SHADER_DIR);
#endif
  return dirs;
}

int App::run(const AppOptions& options) {
  m_opt = options;
  m_headless = !m_opt.screenshotPath.empty() || m_opt.benchFrames > 0;
  for (const std::string& k : m_opt.keys) {
    if (k.rfind(AppOptions::kTypePrefix, 0) == 0) continue; // --type text
    SDL_Keycode sym;
    Uint16 mod;
    if (!parseKey(k, sym, mod)) {
      std::fprintf(stderr, "navbench: --key: unknown key '%s' (an SDL key name, optionally after ctrl+, shift+, alt+)\n", k.c_str());
      return 2;
    }
  }
  if (m_opt.benchFrames > 0) m_opt.allOverlays = true;
  m_shotDir = m_opt.screenshotDir;
  m_shotCaption = m_opt.caption;
  m_shotViewOnly = m_opt.viewOnly;
  m_log.setEcho(true);
  if (!m_headless) {
    m_settingsPath = Settings::defaultPath();
    std::string err;
    if (!m_settings.load(m_settingsPath, err)) m_log.warning("settings: " + err);
    if (m_shotDir.empty()) m_shotDir = m_settings.screenshotDir;
    m_shotCaption = m_shotCaption || m_settings.screenshotCaption;
    m_shotViewOnly = m_shotViewOnly || m_settings.screenshotViewOnly;
    if (!m_opt.sizeGiven) {
      m_opt.width = m_settings.windowWidth;
      m_opt.height = m_settings.windowHeight;
    }
  }
  std::string error;
  if (!init(error)) {
    std::fprintf(stderr, "navbench: %s\n", error.c_str());
    // Someone who started the viewer from a file manager sees no stderr: show the error too.
    if (!m_headless && m_window) SDL_ShowSimpleMessageBox(SDL_MESSAGEBOX_ERROR, "NavBench", error.c_str(), m_window);
    shutdown();
    return 1;
  }
  // A level and a tile set on the command line: the level's sibling .bin is not opened as well.
  const bool levelAndNav = !m_opt.levelPath.empty() && !m_opt.navPath.empty() && !isScenarioPath(m_opt.levelPath);
  const bool levelOpened = m_opt.levelPath.empty() ||
                           (levelAndNav ? openLevel(m_opt.levelPath, nullptr, false) : openAny(m_opt.levelPath));
  if (!levelOpened && m_headless && !m_missing.active) { // (--ask-moved: asked)
    shutdown();
    return 1;
  }
  if (!m_opt.navPath.empty()) {
    if (m_levelLoader.active()) {
      m_levelLoadNav = m_opt.navPath; // after the level: opening a level closes the navmesh
    } else if (!openNav(m_opt.navPath) && m_headless) {
      shutdown();
      return 1;
    }
  }
  if (m_opt.allOverlays) m_navDraw.detailMesh = m_navDraw.bvTree = m_navDraw.tileLabels = m_navDraw.portals = true;
  if (m_opt.shortest)
    for (auto& t : m_tools) t->setShowShortest(true);
  if (!m_opt.toolName.empty()) {
    bool found = false;
    for (size_t i = 0; i < m_tools.size(); ++i)
      if (m_opt.toolName == m_tools[i]->name()) {
        m_activeTool = int(i);
        found = true;
      }
    if (!found) {
      std::string names;
      for (auto& t : m_tools) names += std::string(names.empty() ? "" : ", ") + t->name();
      std::fprintf(stderr, "navbench: --tool: unknown tool '%s' (tools: %s)\n", m_opt.toolName.c_str(), names.c_str());
      shutdown();
      return 2;
    }
  }

  int frame = 0;
  double last = nowMs();
  std::vector<float> benchMs; // --bench-frames: CPU ms of each measured frame
  long long benchCalls = 0, benchVerts = 0;
  double benchFinishMs = 0; // --bench-frames: rendering still queued after the submit (glFinish)
  int exitCode = 0;
  while (m_running) {
    const double start = nowMs();
    const float dt = float(std::min(0.1, (start - last) / 1000.0));
    m_stats.frameMs = float(start - last);
    last = start;

    if (!(m_headless && m_bake.running())) runScript(m_frameIndex++); // scripted clicks wait for a load-time bake
    SDL_Event e;
    while (SDL_PollEvent(&e)) processEvent(e);
    updateCamera(dt);
    updateHover();
    if (m_bake.poll(m_nav, m_log)) navReplaced();
    pollLevelLoad();
    if (m_activeTool >= 0 && m_activeTool < int(m_tools.size())) m_tools[size_t(m_activeTool)]->update(dt);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    if (m_scriptMouse) { // a scripted click: ImGui sees the mouse where the script puts it
      ImGuiIO& io = ImGui::GetIO();
      io.MousePos = ImVec2(m_scriptMouseX, m_scriptMouseY);
      io.MouseDown[0] = m_scriptMouseDown;
    }
    ImGui::NewFrame();
    // A screenshot frame (F12 the frame before, or headless --screenshot's last frame) hides the
    // panels when view-only and draws the caption strip.
    const int shotAfter = std::max(m_opt.screenshotFrames, 3 + 3 * int(m_opt.clicks.size()) + 2 * int(m_opt.keys.size()) +
                                                               (m_opt.hover ? 3 : 0));
    const bool headlessShot = m_headless && m_opt.benchFrames == 0 && !m_bake.running() && frame + 1 >= shotAfter;
    if (m_shotRequested) {
      m_shotRequested = false;
      m_captureFrame = true;
    }
    m_uiCapture = m_captureFrame || headlessShot;
    drawUi();
    drawLevelLoad();
    ImGui::Render();
    if (ImGui::GetIO().WantSaveIniSettings) saveImguiIni(m_imguiIni);

    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(m_window, &w, &h);
    drawScene(w, h);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    m_stats.cpuMs = float(nowMs() - start);
    double finishMs = 0;
    if (m_opt.benchFrames > 0) { // software GL renders after the submit: timed apart, not in the next frame
      const double f0 = nowMs();
      glFinish();
      finishMs = nowMs() - f0;
    }
    if (m_captureFrame) { // F12
      m_captureFrame = false;
      const std::string path = nextScreenshotPath();
      std::string err;
      if (!checkShotDir(true, err)) { // the screenshot folder is made on first use
        m_log.error("screenshot not saved: " + err);
        notify("Screenshot not saved: " + err, true);
      } else if (writeScreenshot(path, w, h, err)) {
        m_log.info("Saved screenshot " + path);
        notify("Saved screenshot " + path, false);
      } else {
        m_log.error("screenshot: " + err);
        notify("Screenshot failed: " + err, true);
      }
    }

    // Headless: a bake started at load (level file without its .bin) finishes before the screenshot.
    if (m_headless && m_bake.running() && frame < 100000) SDL_Delay(5);
    else if (m_opt.benchFrames > 0) {
      if (frame == 0) setBenchPath(); // the path is drawn from the next frame on
      if (++frame > 3) {              // 3 warm-up frames (ImGui layout, buffer growth)
        benchMs.push_back(m_stats.cpuMs);
        benchCalls += m_stats.debugDrawCalls;
        benchVerts += m_stats.debugVertices;
        benchFinishMs += finishMs;
      }
      if (int(benchMs.size()) >= m_opt.benchFrames) {
        double sum = 0;
        for (float v : benchMs) sum += double(v);
        const int n = int(benchMs.size());
        std::printf("bench: frames=%d cpu_ms_mean=%.4f cpu_ms_min=%.4f cpu_ms_max=%.4f draw_calls=%.1f "
                    "debug_vertices=%.0f level_tris=%d polys=%d tiles=%d size=%dx%d static_vertices=%lld "
                    "static_mb=%.2f static_build_ms=%.1f visible_tiles=%d culled_tiles=%d finish_ms_mean=%.4f "
                    "level_tris_drawn=%d level_lod=%d level_cells_by_lod=%d,%d,%d,%d\n",
                    n, sum / n, double(*std::min_element(benchMs.begin(), benchMs.end())),
                    double(*std::max_element(benchMs.begin(), benchMs.end())), double(benchCalls) / n,
                    double(benchVerts) / n, m_stats.levelTris, m_nav.polyCount(), m_nav.tileCount(), w, h,
                    m_navCache.stats().vertices, double(m_navCache.stats().gpuBytes) / 1048576.0,
                    m_navCache.stats().maxUpdateMs, m_navCache.stats().visibleTiles, m_navCache.stats().culledTiles,
                    benchFinishMs / n, m_levelMesh.lastDrawnVertices() / 3, levelLodOn(m_view) ? 1 : 0,
                    m_levelMesh.lastCellsAtLevel(0), m_levelMesh.lastCellsAtLevel(1), m_levelMesh.lastCellsAtLevel(2),
                    m_levelMesh.lastCellsAtLevel(3));
        std::fflush(stdout);
        m_running = false;
      }
    } else if (m_headless && ++frame >= shotAfter) {
      if (!writeScreenshot(m_opt.screenshotPath, w, h, error)) {
        std::fprintf(stderr, "navbench: screenshot: %s\n", error.c_str());
        exitCode = 1;
      } else {
        m_log.info("wrote " + m_opt.screenshotPath + " (" + std::to_string(w) + "x" + std::to_string(h) + ")");
      }
      m_running = false;
    }
    SDL_GL_SwapWindow(m_window);
    if (!m_headless) {
      // Without vsync (some drivers, Xvfb) cap at ~144 fps; while minimised, just wait for events.
      if (SDL_GetWindowFlags(m_window) & SDL_WINDOW_MINIMIZED) SDL_WaitEventTimeout(nullptr, 100);
      const double spent = nowMs() - start;
      if (spent < 6.9) SDL_Delay(Uint32(6.9 - spent));
    }
  }
  if (!m_opt.saveScenarioPath.empty()) {
    if (!saveScenarioAs(m_opt.saveScenarioPath)) exitCode = 1;
  }
  if (!m_opt.dumpStatePath.empty()) {
    std::string err;
    if (!writeState(m_opt.dumpStatePath, err)) {
      std::fprintf(stderr, "navbench: --dump-state: %s\n", err.c_str());
      exitCode = 1;
    }
  }
  if (!m_headless) {
    int ww = 0, wh = 0;
    SDL_GetWindowSize(m_window, &ww, &wh);
    m_settings.screenshotDir = m_shotDir;
    m_settings.screenshotCaption = m_shotCaption;
    m_settings.screenshotViewOnly = m_shotViewOnly;
    if (ww >= 200 && wh >= 200) {
      m_settings.windowWidth = ww;
      m_settings.windowHeight = wh;
    }
    if (!m_level.empty()) { // the camera, for the next time this level is opened
      m_settings.cameraLevel = absolutePath(m_level.path());
      const float c[6] = {m_camera.target.x, m_camera.target.y, m_camera.target.z, m_camera.yaw, m_camera.pitch, m_camera.distance};
      std::copy(c, c + 6, m_settings.camera);
    }
    saveSettings();
  }
  shutdown();
  return exitCode;
}

bool App::init(std::string& error) {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    error = std::string("SDL_Init failed: ") + SDL_GetError() +
            " (without a display, run with SDL_VIDEODRIVER=offscreen)";
    return false;
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, 0);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 8);
  SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, 1);
  SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, 4);
  const Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
  m_window = SDL_CreateWindow("NavBench", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, m_opt.width, m_opt.height, flags);
  if (!m_window) { // no multisampled visual: try without
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, 0);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, 0);
    m_window = SDL_CreateWindow("NavBench", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, m_opt.width, m_opt.height, flags);
  }
  if (!m_window) {
    error = std::string("cannot create a window: ") + SDL_GetError();
    return false;
  }
  m_gl = SDL_GL_CreateContext(m_window);
  if (!m_gl) {
    error = std::string("cannot create an OpenGL 3.3 core context: ") + SDL_GetError();
    return false;
  }
  SDL_GL_MakeCurrent(m_window, m_gl);
  SDL_GL_SetSwapInterval(m_headless ? 0 : 1);
  if (!render::loadGl(reinterpret_cast<render::GlProcLoader>(SDL_GL_GetProcAddress), error)) return false;
  m_log.info(render::glDescription());

  std::string tried;
  const std::string shaderDir = render::findShaderDir(shaderSearchDirs(), "level.vert", tried);
  if (shaderDir.empty()) {
    error = "shaders not found (looked for level.vert in: " + tried + "); set NAVBENCH_SHADER_DIR";
    return false;
  }
  if (!m_levelShader.load(shaderDir, "level", error)) return false;
  if (!m_debugDraw.init(shaderDir, error)) return false;

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  m_panelLayout.installIniHandler(); // (which panels the user placed: with their places in imgui.ini)
  if (!m_headless && !m_settingsPath.empty()) {
    std::error_code ec;
    fs::create_directories(fs::path(m_settingsPath).parent_path(), ec);
    m_imguiIni = (fs::path(m_settingsPath).parent_path() / "imgui.ini").string();
    // Loaded here and saved by saveImguiIni (atomic); ImGui's own save truncates the file in place.
    ImGui::LoadIniSettingsFromDisk(m_imguiIni.c_str());
  }
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.WindowBorderSize = 1.0f;
  style.Colors[ImGuiCol_WindowBg].w = 0.92f;
  if (!ImGui_ImplSDL2_InitForOpenGL(m_window, m_gl) || !ImGui_ImplOpenGL3_Init("#version 330 core")) {
    error = "cannot initialise the Dear ImGui SDL2/OpenGL3 backends";
    return false;
  }
  m_imguiReady = true;

  m_toolCtx.level = &m_level;
  m_toolCtx.log = &m_log;
  m_toolCtx.nav = &m_nav;
  m_toolCtx.hoverPos = &m_hoverPos; // tools that show what is under the mouse (A* Stepper)
  m_toolCtx.hoverHit = &m_hoverHit;
  m_tools = createTools();
  for (auto& t : m_tools) t->init(m_toolCtx);
  return true;
}

void App::shutdown() {
  m_tools.clear();
  if (m_imguiReady) {
    saveImguiIni(m_imguiIni);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    m_imguiReady = false;
  }
  if (m_gl) {
    m_navCache.invalidate(); // its GPU buffers, while the context exists
    m_debugDraw.shutdown();
    m_levelMesh.clear();
    m_levelShader = render::Shader();
    SDL_GL_DeleteContext(m_gl);
    m_gl = nullptr;
  }
  if (m_window) {
    SDL_DestroyWindow(m_window);
    m_window = nullptr;
    SDL_Quit();
  }
}

void App::pollLevelLoad() {
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
      m_log.error(error + (m_level.empty() ? std::string() : " (keeping " + m_level.path() + ")"));
    if (r == LoadResult::Failed && !nav.empty()) openNav(nav); // asked for by name: shown without its level
    return;
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "loaded in the background in %.1f ms", ms);
  m_log.info(buf);
  openLevel(path, &loaded, m_levelLoadSiblingNav && nav.empty());
  if (!nav.empty()) openNav(nav);
}

void App::drawLevelLoad() {
  if (!m_levelLoader.active() || m_levelLoader.elapsedMs() < 300.0) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(420.0f, 0.0f));
  ImGui::Begin("Opening level", nullptr,
               ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
  ImGui::TextUnformatted(fs::path(m_levelLoader.path()).filename().string().c_str());
  const float fraction = m_levelLoader.fraction();
  ImGui::TextUnformatted(loadPhaseLabel(m_levelLoader.phase()));
  ImGui::ProgressBar(fraction);
  ImGui::Text("%.1f s", m_levelLoader.elapsedMs() / 1000.0);
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) m_levelLoader.cancel();
  ImGui::End();
}

bool App::openLevel(const std::string& path, Level* preloaded, bool siblingNav) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".bin") return openNav(path);
  std::string objPath = path;
  if (ext == ".json") { // a level file: its OBJ, then the .bin next to the level file
    nav::bake::Level lf;
    std::string why;
    if (!nav::bake::loadLevelFile(path, &lf, &why)) {
      m_log.error(why + (m_level.empty() ? std::string() : " (keeping " + m_level.path() + ")"));
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
  if (!preloaded && !m_headless && !sizeError && objBytes > ASYNC_LEVEL_BYTES) {
    m_levelLoader.start(objPath, path);
    m_levelLoadSiblingNav = siblingNav;
    m_log.info("opening " + objPath + " (" + std::to_string(objBytes >> 20) + " MiB) in the background");
    return true;
  }
  if (preloaded) {
    m_level = std::move(*preloaded);
  } else if (!m_level.load(objPath, error)) {
    m_log.error(error + (m_level.empty() ? std::string() : " (keeping " + m_level.path() + ")"));
    return false;
  }
  m_levelArg = path;
  const TriMesh& m = m_level.mesh();
  char buf[256];
  std::snprintf(buf, sizeof buf, "opened %s: %d vertices, %d triangles (%d faces), %.1f ms", path.c_str(), m.vertCount(),
                m.triCount(), m.polygonCount, nowMs() - t0);
  m_log.info(buf);
  m_levelFromNav = false;
  uploadLevel();
  // Look from the low-x, low-z corner, about 40 degrees down.
  m_camera.yaw = 3.14159265f + 0.6f;
  m_camera.pitch = 0.72f;
  frameLevel();
  if (!m_headless && !m_settings.cameraLevel.empty() && m_settings.cameraLevel == absolutePath(m_level.path())) {
    m_camera.target = glm::vec3(m_settings.camera[0], m_settings.camera[1], m_settings.camera[2]);
    m_camera.yaw = m_settings.camera[3];
    m_camera.pitch = m_settings.camera[4];
    m_camera.distance = m_settings.camera[5];
    m_log.info("camera restored from the last session");
  }
  for (auto& t : m_tools) t->onLevelChanged();
  if (!m_headless) {
    m_settings.addRecent(path);
    saveSettings();
  }
  // The navmesh of the previous level does not belong to this one: open this level's own, if any.
  m_nav.clear();
  m_hovered = 0;
  // The Bake panel bakes this level (a level file brings its settings, volumes and links).
  if (!m_bake.setSource(path, m_log)) m_bake.clearSource();
  std::string bin = siblingBin(path);
  if (bin.empty() && ext == ".json") bin = siblingBin(objPath);
  if (!siblingNav) {
    // The caller (a scenario) opens its own tile set next.
  } else if (!bin.empty()) {
    m_log.info("found " + bin + " next to " + fs::path(path).filename().string() + ": opening it");
    openNav(bin);
  } else if (ext == ".json" && m_bake.hasSource()) {
    m_log.info("no baked tile set next to " + path + ": baking it with the level's settings");
    m_bake.build(m_log);
    m_showBake = !m_headless; // (headless: scripted clicks aim at the 3D view)
  } else {
    m_log.info("no baked tile set (" + fs::path(path).stem().string() + ".bin) next to " + path +
               ": no navmesh (Bake panel, or 'navbench bake')");
  }
  updateTitle();
  return true;
}

bool App::openNav(const std::string& path, nav::NavMesh* preloaded) {
  std::string error;
  const double t0 = nowMs();
  if (preloaded) {
    m_nav.adopt(std::move(*preloaded), path);
  } else if (!m_nav.loadBin(path, error)) {
    m_log.error(error + (m_nav.loaded() ? " (keeping " + m_nav.path() + ")" : std::string()));
    return false;
  }
  char buf[320];
  std::snprintf(buf, sizeof buf, "opened navmesh %s: %d tiles, %d polys, %.1f ms", path.c_str(), m_nav.tileCount(),
                m_nav.polyCount(), nowMs() - t0);
  m_log.info(buf);
  m_navCache.invalidate(); // another mesh: no tile of the old one is drawn again
  m_hovered = 0;
  if (m_level.empty() || m_levelFromNav) {
    // No OBJ: clicks and the view use the navmesh's own detail triangles.
    m_level.set(m_nav.detailMesh(), path);
    m_levelFromNav = true;
    uploadLevel();
    m_camera.yaw = 3.14159265f + 0.6f;
    m_camera.pitch = 0.72f;
    frameLevel();
    m_log.info("no OBJ open: clicks hit the navmesh's detail triangles");
  }
  for (auto& t : m_tools) t->onLevelChanged();
  if (!m_headless) {
    m_settings.addRecent(path);
    saveSettings();
  }
  updateTitle();
  return true;
}

void App::navReplaced() {
  m_hovered = 0;
  m_navCache.invalidate(); // a different mesh: its tiles are drawn anew
  for (auto& t : m_tools) t->onLevelChanged();
  if (m_afterBake) { // a scenario opened on a level that had to be baked: its tool state, now
    m_afterBake = false;
    Tool* t = activeTool();
    std::string why;
    if (t && m_afterBakeTool == t->name() && !t->loadScenario(m_afterBakeState, why)) m_log.error("scenario: tool.state." + why);
  }
  updateTitle();
}

void App::shotDirChanged() {
  std::string why;
  const std::string dir = m_shotDir.empty() ? std::string("screenshots") : m_shotDir;
  std::error_code ec;
  if (!checkShotDir(false, why)) {
    m_log.error(why + ": F12 cannot save there");
    notify(why, true);
  } else if (!fs::exists(dir, ec)) {
    m_log.info("screenshot folder " + dir + " (does not exist yet: made on the first screenshot)");
  } else {
    m_log.info("screenshot folder " + dir);
  }
}

void App::updateTitle() {
  std::string title = "NavBench";
  if (!m_level.empty() && !m_levelFromNav) title += " - " + fs::path(m_level.path()).filename().string();
  if (m_nav.loaded()) title += (m_levelFromNav ? " - " : " + ") + fs::path(m_nav.path()).filename().string();
  if (m_window) SDL_SetWindowTitle(m_window, title.c_str());
}

void App::updateHover() {
  m_hoverHit = false;
  m_hovered = 0;
  if (m_level.empty() || ImGui::GetCurrentContext() == nullptr || ImGui::GetIO().WantCaptureMouse) return;
  int mx = 0, my = 0, w = 0, h = 0;
  SDL_GetMouseState(&mx, &my);
  SDL_GetWindowSize(m_window, &w, &h);
  if (m_scriptMouse) {
    mx = int(m_scriptMouseX);
    my = int(m_scriptMouseY);
  }
  render::Ray ray = m_camera.screenRay(float(mx) + 0.5f, float(my) + 0.5f, float(w), float(h));
  RayHit hit;
  if (!m_level.raycast(ray.origin, ray.dir, m_camera.farPlane(), hit)) return;
  m_hoverHit = true;
  m_hoverPos = hit.pos;
  if (m_nav.loaded()) m_hovered = m_nav.nearestPoly(hit.pos);
}

bool App::writeState(const std::string& path, std::string& error) const {
  nlohmann::json j;
  j["level"] = m_level.path();
  j["levelFromNav"] = m_levelFromNav;
  j["nav"] = m_nav.loaded() ? m_nav.path() : std::string();
  j["unsavedBake"] = m_bake.unsavedBake();
  j["unsavedSettings"] = m_bake.settingsChanged();
  j["unsavedPrompt"] = m_pending == Pending::Quit ? "quit" : m_pending == Pending::Open ? "open " + m_pendingPath : "";
  j["navPolys"] = m_nav.loaded() ? m_nav.polyCount() : 0;
  j["activeTool"] = m_activeTool >= 0 && m_activeTool < int(m_tools.size()) ? m_tools[size_t(m_activeTool)]->name() : "";
  nlohmann::json tool = nlohmann::json::object();
  if (m_activeTool >= 0 && m_activeTool < int(m_tools.size())) m_tools[size_t(m_activeTool)]->dumpState(tool);
  j["toolState"] = tool;
  // The scenario File > Save would write now (absolute paths): tests compare it with the one opened.
  j["scenario"] = nlohmann::json::parse(toJson(currentScenario("")));
  j["scenarioPath"] = m_scenarioPath;
  m_testCases.dumpState(j["testCases"]);
  int errors = 0;
  for (const auto& e : m_log.entries())
    if (e.level == LogLevel::Error) ++errors;
  j["logErrors"] = errors;
  // What the mouse is over (--hover): the level point and the navmesh poly the Navmesh panel shows.
  j["hover"] = {{"hit", m_hoverHit}, {"polyRef", m_hovered}, {"pos", {m_hoverPos.x, m_hoverPos.y, m_hoverPos.z}}};
  // The last frame's windows (layout tests: no panel covers another), in window pixels.
  nlohmann::json wins = nlohmann::json::array();
  if (ImGui::GetCurrentContext())
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
      if (!w->Active || w->Hidden || (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip))) continue;
      wins.push_back({{"name", w->Name}, {"x", w->Pos.x}, {"y", w->Pos.y}, {"w", w->Size.x}, {"h", w->Size.y},
                      {"collapsed", w->Collapsed}, {"popup", (w->Flags & ImGuiWindowFlags_Popup) != 0},
                      {"scrollMaxY", w->ScrollMax.y}});
    }
  j["windows"] = wins;
  j["viewport"] = {ImGui::GetCurrentContext() ? ImGui::GetMainViewport()->Size.x : 0.0f,
                   ImGui::GetCurrentContext() ? ImGui::GetMainViewport()->Size.y : 0.0f};
  // The moved-files dialog (a scenario whose level or tile set is not where it says).
  nlohmann::json miss = {{"open", m_missing.active}, {"source", m_missing.source}};
  nlohmann::json files = nlohmann::json::array();
  std::error_code ec;
  if (m_missing.active) {
    if (m_missing.levelMissing)
      files.push_back({{"kind", "level"}, {"original", m_missing.scenario.level}, {"path", m_missing.level},
                       {"found", fs::is_regular_file(m_missing.level, ec)}});
    if (m_missing.navMissing)
      files.push_back({{"kind", "navmesh"}, {"original", m_missing.scenario.navmesh}, {"path", m_missing.navmesh},
                       {"found", fs::is_regular_file(m_missing.navmesh, ec)}});
  }
  miss["files"] = files;
  j["missingDialog"] = miss;
  j["screenshotDir"] = m_shotDir;
  // The last frame's cost (headless frames have no vsync): for frame-time measurements.
  j["frame"] = {{"cpuMs", m_stats.cpuMs}, {"debugDrawCalls", m_stats.debugDrawCalls},
                {"debugVertices", m_stats.debugVertices}, {"levelTris", m_stats.levelTris},
                {"levelTrisDrawn", m_stats.levelTrisDrawn}};
  return base::writeFileAtomic(path, j.dump(1) + "\n", error); // temp file + rename
}

void App::uploadLevel() {
  const TriMesh& m = m_level.mesh();
  const LevelLod& lod = m_level.lod();
  const float cosSlope = std::cos(glm::radians(m_view.walkableSlopeDeg));
  // Walkable-looking surfaces in sand, brighter and warmer the higher they are; steep ones blue-grey.
  const glm::vec3 floorLow(0.74f, 0.71f, 0.64f), floorHigh(0.93f, 0.82f, 0.60f), wallColor(0.58f, 0.62f, 0.69f),
      underColor(0.38f, 0.40f, 0.45f);
  const float y0 = m.boundsMin.y, yRange = std::max(m.boundsMax.y - m.boundsMin.y, 1e-3f);
  // One flat-shaded triangle into `out`; `source` gives the material (simplified triangles: the
  // one they come from).
  auto addTri = [&](std::vector<render::MeshVertex>& out, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                    int source) {
    glm::vec3 n = glm::cross(b - a, c - a);
    float len = glm::length(n);
    n = len > 0 ? n / len : glm::vec3(0, 1, 0);
    const float hy = std::clamp(((a.y + b.y + c.y) / 3.0f - y0) / yRange, 0.0f, 1.0f);
    glm::vec3 rgb = n.y >= cosSlope ? glm::mix(floorLow, floorHigh, hy) : n.y < -0.5f ? underColor : wallColor;
    if (!m.triMaterial.empty() && m.triMaterial[size_t(source)] >= 0) { // the level's own material colour
      rgb = m.materialColors[size_t(m.triMaterial[size_t(source)])];
      if (n.y < cosSlope) rgb *= 0.85f; // steep sides a little darker than tops
    }
    const uint32_t col = render::rgbaf(rgb.r, rgb.g, rgb.b);
    out.push_back({a, n, col});
    out.push_back({b, n, col});
    out.push_back({c, n, col});
  };
  if (lod.empty()) {
    std::vector<render::MeshVertex> verts;
    verts.reserve(size_t(m.triCount()) * 3);
    for (int t = 0; t < m.triCount(); ++t)
      addTri(verts, m.vert(m.tris[size_t(t) * 3]), m.vert(m.tris[size_t(t) * 3 + 1]), m.vert(m.tris[size_t(t) * 3 + 2]), t);
    m_levelMesh.upload(verts);
  } else { // LevelLod's cells: every cell at full detail, then every cell at level 1, ...
    // Written straight into the GPU buffer, by two threads (halves of the (level, cell) blocks).
    std::vector<render::MeshCell> cells(lod.cells.size());
    size_t total = 0;
    for (int k = 0; k < LevelLod::kLevels; ++k)
      for (size_t c = 0; c < lod.cells.size(); ++c) {
        cells[c].bmin = lod.cells[c].bmin;
        cells[c].bmax = lod.cells[c].bmax;
        cells[c].first[k] = int(total);
        cells[c].count[k] = lod.cells[c].count[k] * 3;
        total += size_t(cells[c].count[k]);
      }
    render::MeshVertex* dst = m_levelMesh.beginUpload(total);
    auto fill = [&](size_t fromVertex, size_t toVertex) {
      std::vector<render::MeshVertex> tri; // reused: addTri appends to `out`
      for (int k = 0; k < LevelLod::kLevels; ++k)
        for (size_t c = 0; c < lod.cells.size(); ++c) {
          const size_t at = size_t(cells[c].first[k]);
          if (at < fromVertex || at >= toVertex) continue;
          render::MeshVertex* out = dst + at;
          const LevelLod::Cell& lc = lod.cells[c];
          for (int i = lc.first[k]; i < lc.first[k] + lc.count[k]; ++i) {
            tri.clear();
            if (k == 0) {
              const int t = lod.order[size_t(i)];
              addTri(tri, m.vert(m.tris[size_t(t) * 3]), m.vert(m.tris[size_t(t) * 3 + 1]), m.vert(m.tris[size_t(t) * 3 + 2]), t);
            } else {
              const LevelLod::Tri& t = lod.tris[size_t(i)];
              addTri(tri, lod.verts[size_t(t.v[0])], lod.verts[size_t(t.v[1])], lod.verts[size_t(t.v[2])], t.source);
            }
            std::copy(tri.begin(), tri.end(), out);
            out += 3;
          }
        }
    };
    if (dst) {
      std::thread half([&] { fill(total / 2, total); });
      fill(0, total / 2);
      half.join();
    }
    static_assert(LevelLod::kLevels <= render::kMaxLod, "MeshBuffer holds every level");
    m_levelMesh.endUpload(std::move(cells), lod.clusterSize, LevelLod::kLevels);
  }
  m_stats.levelTris = m.triCount();
}

void App::frameLevel() {
  if (m_level.empty()) return;
  int w = 0, h = 0;
  SDL_GetWindowSize(m_window, &w, &h);
  // Leave room for the default panel layout: tools on the left, view on the right, log below.
  m_camera.frame(m_level.mesh().boundsMin, m_level.mesh().boundsMax, h > 0 ? float(w) / float(h) : 1.0f,
                 glm::vec2(-0.6f, -0.62f), glm::vec2(0.6f, 0.86f));
  m_camera.flySpeed = std::max(2.0f, glm::length(m_level.mesh().boundsMax - m_level.mesh().boundsMin) * 0.15f);
}

void App::saveSettings() {
  if (m_settingsPath.empty()) return;
  std::string err;
  if (!m_settings.save(m_settingsPath, err)) m_log.warning("settings: " + err);
}

void App::pick(float mx, float my, bool shift) {
  if (m_level.empty() || m_activeTool < 0 || m_activeTool >= int(m_tools.size())) return;
  int w = 0, h = 0;
  SDL_GetWindowSize(m_window, &w, &h);
  render::Ray ray = m_camera.screenRay(mx + 0.5f, my + 0.5f, float(w), float(h));
  RayHit hit;
  if (m_level.raycast(ray.origin, ray.dir, m_camera.farPlane(), hit))
    m_tools[size_t(m_activeTool)]->onClick(ray.origin, hit.pos, shift);
}

bool App::parseKey(const std::string& name, SDL_Keycode& sym, Uint16& mod) {
  std::string rest = name;
  mod = KMOD_NONE;
  for (;;) {
    const size_t plus = rest.find('+');
    if (plus == std::string::npos || plus + 1 == rest.size()) break;
    std::string m = rest.substr(0, plus);
    std::transform(m.begin(), m.end(), m.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (m == "ctrl") mod = Uint16(mod | KMOD_LCTRL);
    else if (m == "shift") mod = Uint16(mod | KMOD_LSHIFT);
    else if (m == "alt") mod = Uint16(mod | KMOD_LALT);
    else return false;
    rest = rest.substr(plus + 1);
  }
  sym = SDL_GetKeyFromName(rest.c_str());
  return sym != SDLK_UNKNOWN;
}

void App::setBenchPath() {
  auto* tester = dynamic_cast<Tester*>(activeTool());
  if (!tester || !m_nav.loaded()) return;
  const nav::NavMesh& mesh = m_nav.mesh();
  float lo = 1e30f, hi = -1e30f;
  glm::vec3 a(0.0f), b(0.0f);
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* tile = mesh.getTile(i);
    if (!tile->header) continue;
    const nav::PolyRef base = mesh.getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p) {
      if (tile->polys[p].getType() != nav::POLYTYPE_GROUND) continue;
      const glm::vec3 c = polyCenter(mesh, base | nav::PolyRef(p));
      if (c.x + c.z < lo) lo = c.x + c.z, a = c;
      if (c.x + c.z > hi) hi = c.x + c.z, b = c;
    }
  }
  if (lo > hi) return;
  tester->setStart(a);
  tester->setEnd(b);
}

void App::typeScriptText() {
  // A text field focused by a dialog that just opened is active from its next frame or so: the
  // text waits for one (as a person would), at most a few frames.
  if (m_scriptText.empty() || (!ImGui::GetIO().WantTextInput && ++m_scriptTextWait <= 6)) return;
  const std::string& text = m_scriptText;
  for (size_t i = 0; i < text.size();) { // chunks that fit the event, split between UTF-8 characters
    size_t n = std::min(text.size() - i, sizeof(SDL_TextInputEvent::text) - 1);
    while (n > 1 && i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) --n;
    SDL_Event ev{};
    ev.type = SDL_TEXTINPUT;
    ev.text.windowID = SDL_GetWindowID(m_window);
    std::memcpy(ev.text.text, text.data() + i, n);
    SDL_PushEvent(&ev);
    i += n;
  }
  m_scriptText.clear();
}

void App::runScript(int frame) {
  typeScriptText(); // --type text still waiting for its field
  if (frame == 1 + 3 * m_opt.resizeAfterClicks && m_opt.resizeW > 0) SDL_SetWindowSize(m_window, m_opt.resizeW, m_opt.resizeH);
  if (frame == 1) {
    for (const std::string& f : m_opt.drops) {
      SDL_Event drop{};
      drop.type = SDL_DROPFILE;
      drop.drop.file = SDL_strdup(f.c_str()); // freed by the handler, as SDL's own drops
      drop.drop.windowID = SDL_GetWindowID(m_window);
      SDL_PushEvent(&drop);
    }
  }
  // Click i: frame 1 + 3i moves the mouse there (so ImGui knows what is hovered), the next frame
  // presses the left button, the one after releases it.
  // SDL cannot move the mouse of an offscreen window, so ImGui's mouse state is set directly
  // (the pre-1.87 input API) while the button events go through SDL's queue as usual.
  const int step = frame - 1;
  m_scriptMouse = false;
  const int keyStep = step - 3 * int(m_opt.clicks.size());
  if (keyStep >= 0 && keyStep / 2 < int(m_opt.keys.size()) &&
      m_opt.keys[size_t(keyStep / 2)].rfind(AppOptions::kTypePrefix, 0) == 0) { // --type: text input events
    if (keyStep % 2 == 0) {
      m_scriptText += m_opt.keys[size_t(keyStep / 2)].substr(std::strlen(AppOptions::kTypePrefix));
      m_scriptTextWait = 0;
      typeScriptText();
    }
    return;
  }
  if (m_opt.hover && keyStep >= 2 * int(m_opt.keys.size())) { // --hover: the mouse rests there from now on
    m_scriptMouse = true;
    m_scriptMouseX = m_opt.hoverX;
    m_scriptMouseY = m_opt.hoverY;
    m_scriptMouseDown = false;
    return;
  }
  if (keyStep >= 0 && keyStep / 2 < int(m_opt.keys.size())) {
    SDL_Keycode sym = SDLK_UNKNOWN;
    Uint16 mod = KMOD_NONE;
    parseKey(m_opt.keys[size_t(keyStep / 2)], sym, mod);
    SDL_Event ev{};
    ev.type = keyStep % 2 == 0 ? SDL_KEYDOWN : SDL_KEYUP;
    ev.key.windowID = SDL_GetWindowID(m_window);
    ev.key.state = keyStep % 2 == 0 ? SDL_PRESSED : SDL_RELEASED;
    ev.key.keysym.sym = sym;
    ev.key.keysym.scancode = SDL_GetScancodeFromKey(sym);
    ev.key.keysym.mod = mod;
    SDL_PushEvent(&ev);
    return;
  }
  if (step < 0 || step / 3 >= int(m_opt.clicks.size())) return;
  const AppOptions::Click& c = m_opt.clicks[size_t(step / 3)];
  const int x = int(std::lround(c.x)), y = int(std::lround(c.y));
  m_scriptMouse = true;
  m_scriptMouseX = float(x);
  m_scriptMouseY = float(y);
  m_scriptMouseDown = step % 3 == 1;
  if (c.drag && step % 3 == 2) { // --drag: the button still held at the end point for ImGui, released there
    m_scriptMouseX = c.toX;
    m_scriptMouseY = c.toY;
    m_scriptMouseDown = true;
  }
  if (step % 3 == 0) return;
  SDL_Event ev{};
  ev.type = step % 3 == 1 ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
  ev.button.windowID = SDL_GetWindowID(m_window);
  ev.button.button = SDL_BUTTON_LEFT;
  ev.button.state = step % 3 == 1 ? SDL_PRESSED : SDL_RELEASED;
  ev.button.clicks = 1;
  ev.button.x = int(std::lround(m_scriptMouseX));
  ev.button.y = int(std::lround(m_scriptMouseY));
  m_scriptShift = c.shift;
  SDL_PushEvent(&ev);
}

void App::processEvent(const SDL_Event& e) {
  ImGui_ImplSDL2_ProcessEvent(&e);
  const ImGuiIO& io = ImGui::GetIO();
  switch (e.type) {
  case SDL_QUIT: requestQuit(); break;
  case SDL_WINDOWEVENT:
    if (e.window.event == SDL_WINDOWEVENT_CLOSE && e.window.windowID == SDL_GetWindowID(m_window)) requestQuit();
    break;
  case SDL_DROPFILE:
    if (e.drop.file) {
      const std::string ext = fs::path(e.drop.file).extension().string();
      if (ext == ".txt" || ext == ".TXT") m_testCases.open(e.drop.file, m_log); // a RecastDemo test-case file
      else requestOpen(e.drop.file); // a scenario (.json with the marker, screenshot .png) or a level
      SDL_free(e.drop.file);
    }
    break;
  case SDL_MOUSEBUTTONDOWN:
    if (io.WantCaptureMouse) break;
    if (e.button.button == SDL_BUTTON_LEFT) {
      m_leftDown = true;
      m_dragged = false;
      m_pressX = e.button.x;
      m_pressY = e.button.y;
    } else if (e.button.button == SDL_BUTTON_RIGHT || e.button.button == SDL_BUTTON_MIDDLE) {
      m_rightDown = true;
      m_rightDragged = false;
      m_pressX = e.button.x;
      m_pressY = e.button.y;
    }
    break;
  case SDL_MOUSEBUTTONUP:
    if (e.button.button == SDL_BUTTON_LEFT) {
      if (m_leftDown && !m_dragged && !io.WantCaptureMouse)
        pick(float(e.button.x), float(e.button.y), (SDL_GetModState() & KMOD_SHIFT) != 0 || m_scriptShift);
      m_leftDown = false;
    } else if (e.button.button == SDL_BUTTON_RIGHT || e.button.button == SDL_BUTTON_MIDDLE) {
      // A right click without dragging sets the tester's start (RecastDemo's input).
      if (m_rightDown && !m_rightDragged && e.button.button == SDL_BUTTON_RIGHT && !io.WantCaptureMouse)
        pick(float(e.button.x), float(e.button.y), true);
      m_rightDown = false;
    }
    break;
  case SDL_MOUSEMOTION:
    if (m_leftDown) {
      if (std::abs(e.motion.x - m_pressX) + std::abs(e.motion.y - m_pressY) > 3) m_dragged = true;
      if (m_dragged) m_camera.rotate(float(e.motion.xrel), float(e.motion.yrel));
    }
    if (m_rightDown) {
      if (std::abs(e.motion.x - m_pressX) + std::abs(e.motion.y - m_pressY) > 3) m_rightDragged = true;
      int w = 0, h = 0;
      SDL_GetWindowSize(m_window, &w, &h);
      m_camera.pan(float(e.motion.xrel), float(e.motion.yrel), float(h));
    }
    break;
  case SDL_MOUSEWHEEL: {
    if (io.WantCaptureMouse || e.wheel.y == 0) break;
    int mx = 0, my = 0, w = 0, h = 0;
    SDL_GetMouseState(&mx, &my);
    SDL_GetWindowSize(m_window, &w, &h);
    // Zoom towards the level point under the cursor, or the point at the target's depth.
    render::Ray ray = m_camera.screenRay(float(mx) + 0.5f, float(my) + 0.5f, float(w), float(h));
    RayHit hit;
    glm::vec3 p = m_level.raycast(ray.origin, ray.dir, m_camera.farPlane(), hit)
                      ? hit.pos
                      : m_camera.pointAtTargetDepth(float(mx) + 0.5f, float(my) + 0.5f, float(w), float(h));
    m_camera.zoomToward(p, std::pow(0.85f, float(e.wheel.y)));
    break;
  }
  case SDL_KEYDOWN:
    if (e.key.keysym.sym == SDLK_F12) m_shotRequested = true; // also over text fields and dialogs
    if (io.WantCaptureKeyboard) break;
    if (e.key.keysym.sym == SDLK_f && !(e.key.keysym.mod & KMOD_CTRL)) frameLevel();
    if (e.key.keysym.sym == SDLK_F1) m_showHelp = !m_showHelp;
    if ((e.key.keysym.mod & KMOD_CTRL) && activeTool()) {
      if (e.key.keysym.sym == SDLK_z && (e.key.keysym.mod & KMOD_SHIFT)) activeTool()->redo();
      else if (e.key.keysym.sym == SDLK_z) activeTool()->undo();
      else if (e.key.keysym.sym == SDLK_y) activeTool()->redo();
    }
    if (e.key.keysym.sym == SDLK_SPACE && m_activeTool >= 0 && m_activeTool < int(m_tools.size()))
      m_tools[size_t(m_activeTool)]->step();
    if ((e.key.keysym.mod & KMOD_CTRL) && (e.key.keysym.mod & KMOD_SHIFT)) {
      if (e.key.keysym.sym == SDLK_v) pasteScenario();
      else if (e.key.keysym.sym == SDLK_c) copyScenario();
      else if (e.key.keysym.sym == SDLK_s) m_saveAsOpen = true;
    } else if ((e.key.keysym.mod & KMOD_CTRL) && e.key.keysym.sym == SDLK_s) {
      if (m_scenarioPath.empty()) m_saveAsOpen = true;
      else saveScenarioAs(m_scenarioPath);
    }
    if ((e.key.keysym.mod & KMOD_CTRL) && !(e.key.keysym.mod & KMOD_SHIFT)) {
      if (e.key.keysym.sym == SDLK_q) requestQuit();
      else if (e.key.keysym.sym == SDLK_b && !m_bake.running()) m_bake.buildByUser(m_log);
    }
    if (e.key.keysym.sym == SDLK_o && (e.key.keysym.mod & KMOD_CTRL)) {
      std::string dir = m_level.empty() ? std::string() : fs::path(absolutePath(m_level.path())).parent_path().string();
      m_openDialog.open(dir);
    }
    break;
  default: break;
  }
}

void App::updateCamera(float dt) {
  if (ImGui::GetIO().WantCaptureKeyboard) return;
  const Uint8* keys = SDL_GetKeyboardState(nullptr);
  if (keys[SDL_SCANCODE_LCTRL] || keys[SDL_SCANCODE_RCTRL]) return; // Ctrl+key shortcuts
  glm::vec3 move(0.0f);
  move.z += keys[SDL_SCANCODE_W] ? 1.0f : 0.0f;
  move.z -= keys[SDL_SCANCODE_S] ? 1.0f : 0.0f;
  move.x += keys[SDL_SCANCODE_D] ? 1.0f : 0.0f;
  move.x -= keys[SDL_SCANCODE_A] ? 1.0f : 0.0f;
  move.y += keys[SDL_SCANCODE_E] ? 1.0f : 0.0f;
  move.y -= keys[SDL_SCANCODE_Q] ? 1.0f : 0.0f;
  if (move == glm::vec3(0.0f)) return;
  const float boost = (keys[SDL_SCANCODE_LSHIFT] || keys[SDL_SCANCODE_RSHIFT]) ? 4.0f : 1.0f;
  m_camera.fly(move * boost, dt);
}

void App::drawUi() {
  if (m_uiCapture && m_shotViewOnly) { // a view-only screenshot: the 3D view and the caption only
    if (m_shotCaption) drawCaption();
    return;
  }
  std::string toOpen;
  if (ImGui::BeginMainMenuBar()) {
    if (ImGui::BeginMenu("File")) {
      if (ImGui::MenuItem("Open...", "Ctrl+O")) {
        std::string dir = m_level.empty() ? std::string() : fs::path(absolutePath(m_level.path())).parent_path().string();
        m_openDialog.open(dir);
      }
      if (ImGui::BeginMenu("Open Recent", !m_settings.recentFiles.empty())) {
        for (const std::string& r : m_settings.recentFiles)
          if (ImGui::MenuItem(r.c_str())) toOpen = r;
        ImGui::Separator();
        if (ImGui::MenuItem("Clear list")) {
          m_settings.recentFiles.clear();
          saveSettings();
        }
        ImGui::EndMenu();
      }
      if (ImGui::MenuItem("Reload", nullptr, false, !m_level.empty())) toOpen = m_levelArg.empty() ? m_level.path() : m_levelArg;
      ImGui::Separator();
      const bool haveScene = !m_level.empty() || m_nav.loaded();
      if (ImGui::MenuItem("Open scenario...")) {
        const std::string dir = !m_scenarioPath.empty() ? fs::path(absolutePath(m_scenarioPath)).parent_path().string()
                                : m_level.empty() ? std::string()
                                                  : fs::path(absolutePath(m_level.path())).parent_path().string();
        m_scenarioDialog.open(dir);
      }
      if (ImGui::MenuItem("Save scenario", "Ctrl+S", false, haveScene)) {
        if (m_scenarioPath.empty()) m_saveAsOpen = true;
        else saveScenarioAs(m_scenarioPath);
      }
      if (ImGui::MenuItem("Save scenario as...", "Ctrl+Shift+S", false, haveScene)) m_saveAsOpen = true;
      if (ImGui::MenuItem("Copy scenario", "Ctrl+Shift+C", false, haveScene)) copyScenario();
      if (ImGui::MenuItem("Paste scenario", "Ctrl+Shift+V")) pasteScenario();
      ImGui::Separator();
      if (ImGui::MenuItem("Screenshot", "F12")) m_shotRequested = true;
      if (ImGui::BeginMenu("Screenshot options")) {
        ImGui::Checkbox("3D view only (no panels)", &m_shotViewOnly);
        ImGui::Checkbox("Caption strip (level, start/end, status, length)", &m_shotCaption);
        ImGui::SetNextItemWidth(320);
        ImGui::InputTextWithHint("##folder", "screenshots (next to where navbench runs)", &m_shotDir);
        const bool typed = ImGui::IsItemDeactivatedAfterEdit();
        ImGui::SameLine();
        if (ImGui::Button("Browse...")) m_folderDialog.open(m_shotDir.empty() ? std::string("screenshots") : m_shotDir);
        ImGui::SameLine();
        ImGui::TextUnformatted("Folder");
        std::string why;
        if (!checkShotDir(false, why)) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", why.c_str());
        if (typed) shotDirChanged();
        ImGui::EndMenu();
      }
      if (ImGui::MenuItem("Screenshot folder...")) m_folderDialog.open(m_shotDir.empty() ? std::string("screenshots") : m_shotDir);
      if (ImGui::MenuItem("Open test cases..."))
        m_testCases.openDialog(m_level.empty() ? std::string() : fs::path(absolutePath(m_level.path())).parent_path().string());
      ImGui::Separator();
      if (ImGui::MenuItem("Quit", "Ctrl+Q")) requestQuit();
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
      ImGui::MenuItem("Tools panel", nullptr, &m_showTools);
      ImGui::MenuItem("View panel", nullptr, &m_showView);
      ImGui::MenuItem("Navmesh panel", nullptr, &m_showNav);
      ImGui::MenuItem("Bake panel", nullptr, &m_showBake);
      ImGui::MenuItem("Test cases panel", nullptr, &m_testCases.visible);
      ImGui::MenuItem("Log", nullptr, &m_showLog);
      if (ImGui::MenuItem("Reset panel layout")) m_panelLayout.resetUserPlaced(); // panels the user moved, back in place
      ImGui::MenuItem("Stats overlay", nullptr, &m_view.showStats);
      ImGui::MenuItem("Wireframe", nullptr, &m_view.wireframe);
      if (ImGui::MenuItem("Frame level", "F")) frameLevel();
      ImGui::Separator();
      ImGui::MenuItem("ImGui demo", nullptr, &m_showDemo);
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
      ImGui::MenuItem("Shortcuts", "F1", &m_showHelp);
      ImGui::EndMenu();
    }
    if (!m_level.empty()) {
      ImGui::SameLine(0, 30);
      ImGui::TextDisabled("%s%s%s", m_levelFromNav ? "" : m_level.path().c_str(),
                          m_nav.loaded() && !m_levelFromNav ? "  +  " : "", m_nav.loaded() ? m_nav.path().c_str() : "");
    }
    m_menuBarHeight = ImGui::GetWindowSize().y;
    ImGui::EndMainMenuBar();
  }

  // Panels in their places for this window size, the ones the user moved or resized where they
  // put them (clamped inside after a resize).
  m_panelLayout.arrange(m_menuBarHeight);
  PanelLayout& layout = m_panelLayout;
  if (m_showTools) {
    int next = drawToolsPanel(m_tools, m_activeTool, &m_showTools, layout);
    if (next != m_activeTool) {
      if (m_activeTool >= 0 && m_activeTool < int(m_tools.size())) m_tools[size_t(m_activeTool)]->reset();
      m_activeTool = next;
    }
  }
  if (m_showView && drawViewPanel(m_view, m_camera, m_level, &m_showView)) frameLevel();
  if (m_showLog) drawLogPanel(m_log, &m_showLog, layout);
  if (m_showNav) {
    const float hp[3] = {m_hoverPos.x, m_hoverPos.y, m_hoverPos.z};
    if (drawNavPanel(m_nav, m_navDraw, m_hovered, m_hoverHit, hp, &m_showNav))
      for (auto& t : m_tools) t->onFilterChanged();
  }
  if (m_showHelp) drawHelpWindow(&m_showHelp);
  if (m_nav.loaded() && m_navCache.stats().pendingTiles > 0) { // big world: its overlay buffers still filling in
    const NavDrawCache::Stats& st = m_navCache.stats();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + 40.0f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
    ImGui::Begin("##navbuild", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs);
    char text[96];
    std::snprintf(text, sizeof text, "navmesh drawing: %d / %d tiles", st.tiles - st.pendingTiles, st.tiles);
    ImGui::ProgressBar(st.tiles > 0 ? float(st.tiles - st.pendingTiles) / float(st.tiles) : 0.0f, ImVec2(300.0f, 0.0f), text);
    ImGui::End();
  }
  if (m_nav.loaded() && m_navDraw.tileLabels) { // tile coordinates, projected onto the 3D view
    std::vector<NavLabel> labels;
    int w = 0, h = 0;
    SDL_GetWindowSize(m_window, &w, &h);
    tileLabels(m_nav.mesh(), labels, m_camera, float(w) / float(std::max(h, 1)), float(h)); // the tiles in view, big enough
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    for (const NavLabel& l : labels) {
      glm::vec3 px;
      if (!m_camera.project(l.pos, float(w), float(h), px)) continue;
      const ImVec2 size = ImGui::CalcTextSize(l.text);
      dl->AddText(ImVec2(px.x - size.x * 0.5f, px.y - size.y * 0.5f), IM_COL32(255, 220, 255, 230), l.text);
    }
  }
  if (m_showBake) m_bake.draw(m_nav, m_log, &m_showBake);
  TestCasePanel::Context tcCtx{&m_nav, &m_level, &m_tools, &m_activeTool, &m_camera, &m_log};
  m_testCases.draw(tcCtx);
  if (m_view.showStats) drawStatsOverlay(m_stats, m_menuBarHeight);
  if (m_level.empty()) {
    // Empty scene: say how to get a level in.
    const char* hint = "No level loaded: File > Open (Ctrl+O), drop an OBJ file here,\nor start with  navbench level.obj";
    const ImVec2 size = ImGui::CalcTextSize(hint);
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::GetBackgroundDrawList()->AddText(
        ImVec2(vp->Pos.x + (vp->Size.x - size.x) * 0.5f, vp->Pos.y + (vp->Size.y - size.y) * 0.5f),
        IM_COL32(200, 205, 215, 255), hint);
  }
  if (m_showDemo) ImGui::ShowDemoWindow(&m_showDemo);
  std::string chosen;
  if (m_openDialog.draw(chosen)) toOpen = chosen;
  if (m_scenarioDialog.draw(chosen)) toOpen = chosen;
  if (m_folderDialog.draw(chosen)) {
    m_shotDir = chosen;
    shotDirChanged();
  }
  drawScenarioUi();
  if (m_uiCapture && m_shotCaption) drawCaption();
  drawUnsavedPrompt();
  if (!toOpen.empty()) requestOpen(toOpen);
}

void App::requestOpen(const std::string& path) {
  if (!m_bake.unsaved()) {
    openAny(path);
    return;
  }
  m_pending = Pending::Open;
  m_pendingPath = path;
}

void App::requestQuit() {
  if (!m_bake.unsaved()) {
    m_running = false;
    return;
  }
  m_pending = Pending::Quit;
  m_pendingPath.clear();
}

void App::drawUnsavedPrompt() {
  if (m_pending == Pending::None) return;
  const char* title = "Unsaved navmesh";
  if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  if (m_bake.unsavedBake())
    ImGui::Text("The navmesh baked from %s is not saved (Save writes %s).", m_bake.source().c_str(), m_bake.savePath());
  if (m_bake.settingsChanged())
    ImGui::Text("Bake settings were changed in the Bake panel (Save writes them to %s).", m_bake.levelFilePath().c_str());
  if (m_pending == Pending::Quit) ImGui::TextUnformatted("Quitting drops this.");
  else ImGui::Text("Opening %s drops this.", m_pendingPath.c_str());
  bool proceed = false;
  // Keys S / D / Esc as well (the modal has the keyboard while it is open).
  if (ImGui::Button("Save (S)") || ImGui::IsKeyPressed(SDL_SCANCODE_S, false))
    proceed = m_bake.saveAll(m_nav, m_log); // a failed save keeps the prompt (the log says why)
  ImGui::SameLine();
  if (ImGui::Button("Discard (D)") || ImGui::IsKeyPressed(SDL_SCANCODE_D, false)) {
    m_log.info("unsaved changes discarded");
    m_bake.discard();
    proceed = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel (Esc)") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) {
    m_pending = Pending::None;
    ImGui::CloseCurrentPopup();
  }
  if (proceed) {
    const Pending what = m_pending;
    const std::string path = m_pendingPath;
    m_pending = Pending::None;
    ImGui::CloseCurrentPopup();
    if (what == Pending::Quit) m_running = false;
    else if (what == Pending::Open) openAny(path);
  }
  ImGui::EndPopup();
}

void App::drawScene(int w, int h) {
  glViewport(0, 0, w, h);
  const glm::vec3 bg = clearColor();
  glClearColor(bg.r, bg.g, bg.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (w <= 0 || h <= 0) return;
  const float aspect = float(w) / float(h);
  const glm::mat4 vp = m_camera.viewProj(aspect);

  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  glFrontFace(GL_CCW);
  glDisable(GL_BLEND);
  m_stats.levelTrisDrawn = 0;
  if (m_view.drawLevel && m_levelMesh.vertexCount() > 0) {
    m_levelShader.use();
    m_levelShader.set("uViewProj", vp);
    const glm::vec3 light(std::cos(m_view.lightPitch) * std::sin(m_view.lightYaw), std::sin(m_view.lightPitch),
                          std::cos(m_view.lightPitch) * std::cos(m_view.lightYaw));
    m_levelShader.set("uLightDir", glm::normalize(light));
    m_levelShader.set("uAmbient", m_view.ambient);
    m_levelShader.set("uEye", m_camera.eye());
    m_levelShader.set("uGrid", m_view.grid ? 1 : 0);
    m_levelShader.set("uWire", 0);
    m_levelShader.set("uFogColor", bg);
    m_levelShader.set("uFogDistance", std::max(50.0f, m_camera.distance * 2.5f));
    render::LodView lod; // far cells simplified (View > Level LOD)
    lod.enabled = levelLodOn(m_view);
    lod.eye = m_camera.eye();
    lod.pixelsPerUnit = float(h) / (2.0f * std::tan(m_camera.fovY * 0.5f));
    m_levelMesh.draw(render::Frustum(vp), lod); // the grid cells in view
    m_stats.levelTrisDrawn = m_levelMesh.lastDrawnVertices() / 3;
    if (m_view.wireframe) {
      glEnable(GL_BLEND);
      glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
      glEnable(GL_POLYGON_OFFSET_LINE);
      glPolygonOffset(-1.0f, -1.0f);
      glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
      m_levelShader.set("uWire", 1);
      m_levelShader.set("uWireColor", glm::vec4(0.08f, 0.09f, 0.12f, 0.55f));
      m_levelMesh.draw(render::Frustum(vp), lod);
      glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
      glDisable(GL_POLYGON_OFFSET_LINE);
      glDisable(GL_BLEND);
    }
  }

  // World axes at the origin (x red, y green, z blue, 1 m), then the active tool's drawing.
  m_debugDraw.line(glm::vec3(0), glm::vec3(1, 0, 0), render::rgba(230, 60, 60), 2.0f);
  m_debugDraw.line(glm::vec3(0), glm::vec3(0, 1, 0), render::rgba(60, 200, 60), 2.0f);
  m_debugDraw.line(glm::vec3(0), glm::vec3(0, 0, 1), render::rgba(70, 110, 240), 2.0f);
  if (m_nav.loaded()) { // static per-tile buffers, frustum-culled; the hover highlight immediate
    m_navCache.buildBudgetMs = m_headless ? 0.0f : 30.0f; // interactive: a big world fills in over frames
    m_navCache.update(m_nav.mesh(), m_navDraw);
    m_navCache.draw(m_debugDraw, render::Frustum(vp), m_camera.eye(), float(h) / (2.0f * std::tan(m_camera.fovY * 0.5f)));
    drawHover(m_debugDraw, m_nav.mesh(), m_navDraw, m_hovered);
  }
  if (m_activeTool >= 0 && m_activeTool < int(m_tools.size())) m_tools[size_t(m_activeTool)]->draw(m_debugDraw);
  m_stats.debugVertices = m_debugDraw.queuedVertices();
  m_debugDraw.flush(vp, glm::vec2(float(w), float(h)));
  m_stats.debugDrawCalls = m_debugDraw.lastDrawCalls();
  m_stats.fps = ImGui::GetIO().Framerate;
  glDisable(GL_CULL_FACE);
}

// ---------------------------------------------------------------------------------------------
// Scenarios and screenshots

bool App::openAny(const std::string& path) {
  if (isScenarioPath(path)) return openScenarioFile(path);
  return openLevel(path);
}

void App::notify(const std::string& text, bool error) {
  m_toast = text;
  m_toastError = error;
  m_toastUntil = nowMs() + (error ? 8000.0 : 4000.0);
}

Scenario App::currentScenario(const std::string& baseDir) const {
  Scenario s;
  auto rel = [&](const std::string& p) { return p.empty() ? p : baseDir.empty() ? absolutePath(p) : relativeTo(baseDir, p); };
  if (!m_level.empty() && !m_levelFromNav) s.level = rel(m_levelArg.empty() ? m_level.path() : m_levelArg);
  std::error_code ec;
  if (m_nav.loaded() && fs::is_regular_file(m_nav.path(), ec)) s.navmesh = rel(m_nav.path());
  if (!s.level.empty() && lowerExt(m_levelArg) == ".json") {
    nav::bake::Level lf;
    std::string why;
    if (nav::bake::loadLevelFile(m_levelArg, &lf, &why)) s.bakeSettingsHash = bakeSettingsHash(nav::bake::settingsToJson(lf.settings));
  } else if (!s.level.empty() && m_bake.hasSource()) { // an OBJ: the settings the Bake panel bakes it with
    s.bakeSettingsHash = bakeSettingsHash(nav::bake::settingsToJson(m_bake.settings));
  }
  s.camera.target[0] = m_camera.target.x;
  s.camera.target[1] = m_camera.target.y;
  s.camera.target[2] = m_camera.target.z;
  s.camera.yaw = m_camera.yaw;
  s.camera.pitch = m_camera.pitch;
  s.camera.distance = m_camera.distance;
  s.camera.fovY = m_camera.fovY;
  if (const Tool* t = m_activeTool >= 0 && m_activeTool < int(m_tools.size()) ? m_tools[size_t(m_activeTool)].get() : nullptr) {
    s.toolName = t->name();
    t->saveScenario(s.toolState);
  }
  const nav::QueryFilter& f = m_nav.filter();
  s.filter.includeFlags = f.getIncludeFlags();
  s.filter.excludeFlags = f.getExcludeFlags();
  s.filter.heuristicScale = f.getHeuristicScale();
  s.filter.maxNodes = m_nav.maxNodes();
  for (int a = 0; a < nav::MAX_AREAS; ++a)
    if (f.getAreaCost(a) != 1.0f || f.getAreaEnterCost(a) != 0.0f) s.filter.areas.push_back({a, f.getAreaCost(a), f.getAreaEnterCost(a)});
  s.navDraw.polys = m_navDraw.polys;
  s.navDraw.polyEdges = m_navDraw.polyEdges;
  s.navDraw.tileBorders = m_navDraw.tileBorders;
  s.navDraw.portals = m_navDraw.portals;
  s.navDraw.offMeshLinks = m_navDraw.offMeshLinks;
  s.navDraw.detailMesh = m_navDraw.detailMesh;
  s.navDraw.bvTree = m_navDraw.bvTree;
  s.navDraw.tileLabels = m_navDraw.tileLabels;
  s.navDraw.lift = m_navDraw.lift;
  s.view = m_view;
  s.note = m_scenarioNote;
  return s;
}

bool App::openScenarioFile(const std::string& path) {
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
    m_log.error(err + (m_level.empty() && !m_nav.loaded() ? std::string() : " (nothing changed)"));
    notify(err, true);
    return false;
  }
  return applyScenario(s, fs::path(absolutePath(path)).parent_path().string(), path);
}

bool App::applyScenario(const Scenario& s, const std::string& baseDir, const std::string& source) {
  auto fail = [&](const std::string& what) {
    const std::string msg = source + ": " + what;
    m_log.error(msg + (m_level.empty() && !m_nav.loaded() ? std::string() : " (nothing changed)"));
    notify(msg, true);
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
    if (m_headless && !m_opt.askMoved) return fail(what);
    m_log.warning(source + ": " + what + ": asking for the moved files");
    m_missing = Missing();
    m_missing.active = true;
    m_missing.scenario = s;
    m_missing.baseDir = baseDir;
    m_missing.source = source;
    m_missing.level = lvl;
    m_missing.navmesh = nm;
    m_missing.levelMissing = !exists(lvl);
    m_missing.navMissing = !exists(nm);
    m_missingOpenRequest = true; // the modal opens in the next drawUi (this may run between frames)
    return false;
  }
  // The tool: known, and its state valid (checked on a fresh instance: nothing changes yet).
  int toolIndex = -1;
  for (size_t i = 0; i < m_tools.size(); ++i)
    if (s.toolName == m_tools[i]->name()) toolIndex = int(i);
  if (toolIndex < 0) {
    std::string names;
    for (auto& t : m_tools) names += std::string(names.empty() ? "" : ", ") + t->name();
    return fail("tool.name: unknown tool '" + s.toolName + "' (tools: " + names + ")");
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
  const std::string curLevel = m_level.empty() || m_levelFromNav || m_levelArg.empty() ? std::string() : absolutePath(m_levelArg);
  const bool needLevel = !lvl.empty() && !levelIsBin && absolutePath(lvl) != curLevel;
  const bool dropLevel = (lvl.empty() || levelIsBin) && !m_level.empty() && !m_levelFromNav; // the navmesh alone is shown
  bool needNav = !navFile.empty() && !(m_nav.loaded() && absolutePath(m_nav.path()) == absolutePath(navFile));
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
  nav::NavMesh tmpMesh;
  if (needNav) {
    std::string why;
    const nav::Status st = nav::loadTileSetFile(navFile, tmpMesh, &why);
    if (nav::statusFailed(st)) return fail(why.empty() ? navFile + ": cannot load tile set" : why);
  }
  // Commit.
  if (dropLevel) {
    m_level.clear();
    m_levelFromNav = false;
    m_levelArg.clear();
    m_bake.clearSource();
  }
  if (needLevel) openLevel(lvl, &tmpLevel, navFile.empty());
  if (needNav) openNav(navFile, &tmpMesh);
  if (!s.bakeSettingsHash.empty() && lowerExt(lvl) == ".json") {
    nav::bake::Level lf;
    std::string why;
    if (nav::bake::loadLevelFile(lvl, &lf, &why) && bakeSettingsHash(nav::bake::settingsToJson(lf.settings)) != s.bakeSettingsHash)
      m_log.warning(source + ": the bake settings of " + lvl +
                    " changed since the scenario was saved: the navmesh may differ from the reporter's");
  } else if (!s.bakeSettingsHash.empty() && !lvl.empty() && !levelIsBin && m_bake.hasSource() &&
             bakeSettingsHash(nav::bake::settingsToJson(m_bake.settings)) != s.bakeSettingsHash) {
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
  m_nav.filter() = f;
  m_nav.setMaxNodes(s.filter.maxNodes);
  m_navDraw.polys = s.navDraw.polys;
  m_navDraw.polyEdges = s.navDraw.polyEdges;
  m_navDraw.tileBorders = s.navDraw.tileBorders;
  m_navDraw.portals = s.navDraw.portals;
  m_navDraw.offMeshLinks = s.navDraw.offMeshLinks;
  m_navDraw.detailMesh = s.navDraw.detailMesh;
  m_navDraw.bvTree = s.navDraw.bvTree;
  m_navDraw.tileLabels = s.navDraw.tileLabels;
  m_navDraw.lift = s.navDraw.lift;
  const bool slopeChanged = m_view.walkableSlopeDeg != s.view.walkableSlopeDeg;
  m_view = s.view;
  if (slopeChanged && !m_level.empty()) uploadLevel();
  m_camera.target = glm::vec3(s.camera.target[0], s.camera.target[1], s.camera.target[2]);
  m_camera.yaw = s.camera.yaw;
  m_camera.pitch = s.camera.pitch;
  m_camera.distance = s.camera.distance;
  m_camera.fovY = s.camera.fovY;
  if (m_activeTool != toolIndex) {
    if (activeTool()) activeTool()->reset();
    m_activeTool = toolIndex;
  }
  for (auto& t : m_tools) t->onFilterChanged();
  std::string why;
  if (!activeTool()->loadScenario(s.toolState, why)) m_log.error(source + ": tool.state." + why);
  m_afterBake = m_bake.running(); // a load-time bake resets the tools when it ends: restore them then
  if (m_afterBake) {
    m_afterBakeTool = s.toolName;
    m_afterBakeState = s.toolState;
  }
  m_scenarioNote = s.note;
  if (lowerExt(source) == ".json") m_scenarioPath = source;
  m_log.info("opened scenario " + source + " (" + s.toolName + ")");
  notify("Opened scenario " + source, false);
  return true;
}

bool App::saveScenarioAs(const std::string& path) {
  if (m_level.empty() && !m_nav.loaded()) {
    m_log.error("save scenario: nothing is open");
    return false;
  }
  std::string err;
  std::error_code ec;
  const fs::path parent = fs::path(absolutePath(path)).parent_path();
  fs::create_directories(parent, ec);
  if (!saveScenarioFile(path, currentScenario(parent.string()), err)) {
    m_log.error("save scenario: " + err);
    notify("Scenario not saved: " + err, true);
    return false;
  }
  m_scenarioPath = path;
  m_log.info("Saved scenario " + path);
  notify("Saved scenario " + path, false);
  return true;
}

void App::copyScenario() {
  if (m_level.empty() && !m_nav.loaded()) return;
  const std::string text = toJson(currentScenario(""));
  SDL_SetClipboardText(text.c_str());
  m_log.info("scenario copied to the clipboard (" + std::to_string(text.size()) + " bytes)");
  notify("Scenario copied to the clipboard", false);
}

void App::pasteScenario() {
  char* clip = SDL_GetClipboardText();
  const std::string text = clip ? clip : "";
  SDL_free(clip);
  Scenario s;
  std::string err;
  if (!parseScenario(text, s, err)) {
    const std::string msg = "paste scenario: the clipboard does not hold a scenario (" + err + ")";
    m_log.error(msg);
    notify(msg, true);
    return;
  }
  applyScenario(s, "", "clipboard scenario");
}

bool App::checkShotDir(bool create, std::string& why) const {
  const std::string dir = m_shotDir.empty() ? std::string("screenshots") : m_shotDir;
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (ec && st.type() != fs::file_type::not_found) { // e.g. under a folder we may not enter
    why = "cannot reach the screenshot folder '" + dir + "': " + ec.message();
    return false;
  }
  const bool exists = fs::exists(st);
  if (exists && !fs::is_directory(st)) {
    why = "the screenshot folder '" + dir + "' is a file, not a folder";
    return false;
  }
  if (!exists) {
    if (!create) return true; // made on the first screenshot
    std::error_code ec2; // (the throwing is_directory(path) aborted the viewer on EACCES)
    if (!fs::create_directories(dir, ec) && !fs::is_directory(dir, ec2)) {
      why = "cannot create the screenshot folder '" + dir + "': " + (ec ? ec.message() : std::string("unknown error"));
      return false;
    }
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    why = "the screenshot folder '" + dir + "' is not writable: " + std::strerror(errno);
    return false;
  }
  return true;
}

std::string App::nextScreenshotPath() const {
  const std::string dir = m_shotDir.empty() ? std::string("screenshots") : m_shotDir;
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char stamp[64];
  std::strftime(stamp, sizeof stamp, "navbench-%Y%m%d-%H%M%S", &tm);
  std::error_code ec;
  std::string p = (fs::path(dir) / (std::string(stamp) + ".png")).string();
  for (int i = 2; fs::exists(p, ec) && i < 10000; ++i) p = (fs::path(dir) / (std::string(stamp) + "-" + std::to_string(i) + ".png")).string();
  return p;
}

bool App::writeScreenshot(const std::string& path, int w, int h, std::string& error) {
  render::Image img;
  if (!render::readFramebuffer(w, h, img, error)) return false;
  const fs::path parent = fs::path(absolutePath(path)).parent_path();
  img.text.emplace_back("Software", "NavBench");
  if (!m_level.empty() || m_nav.loaded()) // the scenario, paths relative to the image (zTXt when long)
    img.text.emplace_back(kScenarioPngKeyword, toJson(currentScenario(parent.string())));
  return render::writePng(path, img, error);
}

void App::drawCaption() {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  std::string line1 = "NavBench";
  if (!m_level.empty() && !m_levelFromNav) line1 += "   level " + fs::path(m_levelArg.empty() ? m_level.path() : m_levelArg).filename().string();
  if (m_nav.loaded()) line1 += "   navmesh " + fs::path(m_nav.path()).filename().string();
  std::string line2;
  if (const auto* tester = dynamic_cast<const Tester*>(m_activeTool >= 0 && m_activeTool < int(m_tools.size()) ? m_tools[size_t(m_activeTool)].get() : nullptr))
    line2 = tester->caption();
  else if (m_activeTool >= 0 && m_activeTool < int(m_tools.size()))
    line2 = m_tools[size_t(m_activeTool)]->name();
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float lh = ImGui::GetTextLineHeight();
  const float hgt = lh * 2 + 12;
  const ImVec2 a(vp->Pos.x, vp->Pos.y + vp->Size.y - hgt), b(vp->Pos.x + vp->Size.x, vp->Pos.y + vp->Size.y);
  dl->AddRectFilled(a, b, IM_COL32(12, 14, 18, 225));
  dl->AddLine(a, ImVec2(b.x, a.y), IM_COL32(255, 160, 40, 255), 2.0f);
  dl->AddText(ImVec2(a.x + 8, a.y + 5), IM_COL32(255, 255, 255, 255), line1.c_str());
  dl->AddText(ImVec2(a.x + 8, a.y + 6 + lh), IM_COL32(255, 210, 120, 255), line2.c_str());
}

void App::drawScenarioUi() {
  // Toast: the last save / open / error, for a few seconds at the top of the view.
  if (!m_toast.empty() && nowMs() < m_toastUntil && !m_uiCapture) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const ImVec2 size = ImGui::CalcTextSize(m_toast.c_str(), nullptr, false, vp->Size.x * 0.6f);
    const ImVec2 p(vp->Pos.x + (vp->Size.x - size.x) * 0.5f, vp->Pos.y + m_menuBarHeight + 12);
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    dl->AddRectFilled(ImVec2(p.x - 10, p.y - 6), ImVec2(p.x + size.x + 10, p.y + size.y + 6),
                      m_toastError ? IM_COL32(120, 20, 20, 235) : IM_COL32(20, 70, 40, 235), 4.0f);
    dl->AddText(nullptr, 0.0f, p, IM_COL32(255, 255, 255, 255), m_toast.c_str(), nullptr, vp->Size.x * 0.6f);
  }
  // Save as: a path and the note.
  if (m_saveAsOpen) {
    m_saveAsOpen = false;
    if (m_level.empty() && !m_nav.loaded()) {
      notify("Nothing to save: open a level first", true);
    } else {
      if (m_saveAsPath.empty() || m_saveAsPath == m_scenarioPath) {
        const std::time_t now = std::time(nullptr);
        std::tm tm{};
        localtime_r(&now, &tm);
        char name[64];
        std::strftime(name, sizeof name, "scenario-%Y%m%d-%H%M%S.json", &tm);
        m_saveAsPath = m_scenarioPath.empty() ? (fs::path("scenarios") / name).string() : m_scenarioPath;
      }
      ImGui::OpenPopup("Save scenario");
    }
  }
  ImGui::SetNextWindowSize(ImVec2(560, 0), ImGuiCond_Appearing);
  if (ImGui::BeginPopupModal("Save scenario", nullptr)) {
    ImGui::TextWrapped("Level, tile set, camera, tool and its points, filter and draw toggles, as JSON.");
    ImGui::SetNextItemWidth(-1);
    const bool enter = ImGui::InputText("##path", &m_saveAsPath, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::TextUnformatted("Note (what is wrong, what you expected):");
    ImGui::InputTextMultiline("##note", &m_scenarioNote, ImVec2(-1, 90));
    if ((ImGui::Button("Save") || enter) && !m_saveAsPath.empty()) {
      if (saveScenarioAs(m_saveAsPath)) ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
  // A scenario whose files moved: ask for them; Cancel leaves everything as it is.
  if (m_missingOpenRequest) {
    m_missingOpenRequest = false;
    ImGui::OpenPopup("Scenario files not found");
  }
  ImGui::SetNextWindowSize(ImVec2(640, 0), ImGuiCond_Appearing);
  if (ImGui::BeginPopupModal("Scenario files not found", nullptr)) {
    Missing& m = m_missing;
    ImGui::TextWrapped("%s refers to files that are not where it says. Locate them to open the scenario, or Cancel "
                       "(nothing changes).", m.source.c_str());
    std::error_code ec;
    int edited = -1; // the row whose path changed this frame
    bool focused = false;
    auto row = [&](const char* label, const std::string& original, std::string& path, bool wasMissing, int which) {
      if (!wasMissing) return;
      ImGui::Separator();
      ImGui::Text("%s: %s", label, original.c_str());
      ImGui::PushID(which);
      ImGui::SetNextItemWidth(-110);
      if (ImGui::IsWindowAppearing() && !focused) { // type or paste the new place at once
        ImGui::SetKeyboardFocusHere();
        focused = true;
      }
      if (ImGui::InputText("##p", &path, ImGuiInputTextFlags_AutoSelectAll)) edited = which;
      ImGui::SameLine();
      if (ImGui::Button("Browse...")) {
        m_locateWhich = which;
        std::string dir = fs::path(path).parent_path().string();
        if (!fs::is_directory(dir, ec)) dir.clear();
        m_locateDialog.open(dir);
      }
      const bool found = fs::is_regular_file(path, ec);
      ImGui::TextColored(found ? ImVec4(0.4f, 1, 0.5f, 1) : ImVec4(1, 0.45f, 0.4f, 1), found ? "found" : "not found");
      ImGui::PopID();
    };
    row("Level", m.scenario.level, m.level, m.levelMissing, 0);
    row("Tile set", m.scenario.navmesh, m.navmesh, m.navMissing, 1);
    std::string chosen;
    if (m_locateDialog.draw(chosen)) {
      (m_locateWhich == 0 ? m.level : m.navmesh) = chosen;
      edited = m_locateWhich;
    }
    // Files usually move together: a located file's folder is searched for the other missing one.
    if (edited >= 0 && fs::is_regular_file(edited == 0 ? m.level : m.navmesh, ec)) {
      const fs::path dir = fs::path(edited == 0 ? m.level : m.navmesh).parent_path();
      std::string& other = edited == 0 ? m.navmesh : m.level;
      const std::string& otherOriginal = edited == 0 ? m.scenario.navmesh : m.scenario.level;
      const bool otherMissing = edited == 0 ? m.navMissing : m.levelMissing;
      if (otherMissing && !fs::is_regular_file(other, ec) && !otherOriginal.empty()) {
        const fs::path candidate = dir / fs::path(otherOriginal).filename();
        if (fs::is_regular_file(candidate, ec)) other = candidate.string();
      }
    }
    ImGui::Separator();
    const bool ready = (m.level.empty() || fs::is_regular_file(m.level, ec)) && (m.navmesh.empty() || fs::is_regular_file(m.navmesh, ec));
    bool apply = false;
    const bool keys = !m_locateDialog.isOpen(); // Enter / Esc belong to the Browse dialog while it is open
    if (!ready) ImGui::BeginDisabled();
    if (ImGui::Button("Open scenario (Enter)") || (ready && keys && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false)))
      apply = true;
    if (!ready) ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Cancel (Esc)") || (keys && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false))) {
      m_log.info(m.source + ": not opened (cancelled)");
      m.active = false;
      ImGui::CloseCurrentPopup();
    }
    if (apply) {
      Scenario s = m.scenario;
      s.level = m.level.empty() ? std::string() : absolutePath(m.level);
      s.navmesh = m.navmesh.empty() ? std::string() : absolutePath(m.navmesh);
      const std::string source = m.source;
      m.active = false;
      ImGui::CloseCurrentPopup();
      ImGui::EndPopup();
      applyScenario(s, "", source);
      return;
    }
    ImGui::EndPopup();
  }
}

} // namespace navbench
