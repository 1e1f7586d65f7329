#include "app/App.h"

#include "app/AppRecovery.h"

#include "app/LevelMesh.h"
#include "app/tools/Tools.h"
#include "nav/base/AtomicFile.h"
#include "render/Gl.h" // before any SDL GL header
#include "render/Screenshot.h"

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

// The panel layout, written through nav/base/AtomicFile.h ("" = not saved: headless runs).
void App::saveImguiIni(const std::string& path) {
  ImGui::GetIO().WantSaveIniSettings = false;
  if (path.empty()) return;
  size_t n = 0;
  const char* data = ImGui::SaveIniSettingsToMemory(&n);
  std::string why;
  if (!base::writeFileAtomic(path, data, n, why)) std::fprintf(stderr, "navbench: %s\n", why.c_str());
}

App::App() = default;
App::~App() { shutdown(); }

int App::run(const AppOptions& options) {
  // Ours, not SDL's (which turns SIGINT/SIGTERM into a quit event that may wait on a prompt).
  SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
  installStopSignals();
  StopWatchdog watchdog;
  m_opt = options;
  m_headless = !m_opt.screenshotPath.empty() || m_opt.benchFrames > 0;
  std::string error;
  if (!m_script.check(error)) {
    std::fprintf(stderr, "navbench: %s\n", error.c_str());
    return 2;
  }
  if (m_opt.benchFrames > 0) m_opt.allOverlays = true;
  m_scenes.shotDir = m_opt.screenshotDir;
  m_scenes.shotCaption = m_opt.caption;
  m_scenes.shotViewOnly = m_opt.viewOnly;
  m_log.setEcho(true);
  if (!m_headless) {
    m_settingsPath = Settings::defaultPath();
    std::string err;
    if (!m_settings.load(m_settingsPath, err)) m_log.warning("settings: " + err);
    if (m_scenes.shotDir.empty()) m_scenes.shotDir = m_settings.screenshotDir;
    m_scenes.shotCaption = m_scenes.shotCaption || m_settings.screenshotCaption;
    m_scenes.shotViewOnly = m_scenes.shotViewOnly || m_settings.screenshotViewOnly;
    if (!m_opt.sizeGiven) {
      m_opt.width = m_settings.windowWidth;
      m_opt.height = m_settings.windowHeight;
    }
  }
  if (!init(error)) {
    std::fprintf(stderr, "navbench: %s\n", error.c_str());
    // Someone who started the viewer from a file manager sees no stderr: show the error too.
    if (!m_headless && m_window) SDL_ShowSimpleMessageBox(SDL_MESSAGEBOX_ERROR, "NavBench", error.c_str(), m_window);
    shutdown();
    return 1;
  }
  m_displayless = !m_headless && displayless();
  int exitCode = 0;
  if (!openStartFiles(exitCode)) {
    shutdown();
    return exitCode;
  }

  int frame = 0;
  double last = nowMs();
  while (m_running) {
    if (const int sig = pendingStopSignal()) stopOnSignal(sig);
    const double start = nowMs();
    const float dt = float(std::min(0.1, (start - last) / 1000.0));
    m_stats.frameMs = float(start - last);
    last = start;

    if (!(m_headless && m_doc.baking())) m_script.run(m_frameIndex++, m_window); // scripted clicks wait for a load-time bake
    SDL_Event e;
    while (SDL_PollEvent(&e)) processEvent(e);
    updateCamera(dt);
    updateHover();
    m_doc.pollBake();
    m_doc.pollLevelLoad();
    if (m_journalCheck && !m_doc.levelLoader().active()) checkJournal(exitCode);
    if (Tool* t = m_doc.tool()) t->update(dt);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    m_script.applyMouse(); // a scripted click: ImGui sees the mouse where the script puts it
    ImGui::NewFrame();
    // A screenshot frame (F12 the frame before, or headless --screenshot's last frame) hides the
    // panels when view-only and draws the caption strip.
    const int shotAfter = m_script.framesNeeded();
    m_scenes.beginFrame(m_headless && m_opt.benchFrames == 0 && !m_doc.baking() && frame + 1 >= shotAfter);
    drawUi();
    m_prompts.drawLevelLoad();
    ImGui::Render();
    if (ImGui::GetIO().WantSaveIniSettings) saveImguiIni(m_imguiIni);

    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(m_window, &w, &h);
    drawScene(w, h);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    m_stats.cpuMs = float(nowMs() - start);
    double finishMs = 0;
    // Software GL renders after the submit: unless each frame is waited for, queued frames (and
    // their memory) pile up (0.9 GB over 400 headless frames). The benchmark times it apart.
    if (m_waitFrames) {
      const double f0 = nowMs();
      glFinish();
      finishMs = nowMs() - f0;
    }
    m_scenes.endFrame(w, h); // F12

    // Headless: a bake started at load (level file without its .bin) finishes before the screenshot.
    if (m_headless && m_doc.baking() && frame < 100000) {
      SDL_Delay(5);
    } else if (m_opt.benchFrames > 0) {
      if (benchFrame(frame, finishMs, w, h)) m_running = false;
    } else if (m_headless && ++frame >= shotAfter) {
      if (!m_scenes.writeScreenshot(m_opt.screenshotPath, w, h, error)) {
        std::fprintf(stderr, "navbench: screenshot: %s\n", error.c_str());
        exitCode = 1;
      } else {
        m_log.info("wrote " + m_opt.screenshotPath + " (" + std::to_string(w) + "x" + std::to_string(h) + ")");
      }
      m_running = false;
    }
    SDL_GL_SwapWindow(m_window);
    if (!m_headless) {
      if (m_frameIndex % 8 == 0) updateJournal(); // (about 18 times a second at most)
      // Without vsync (some drivers, Xvfb) cap at ~144 fps; while minimised, just wait for events.
      if (SDL_GetWindowFlags(m_window) & SDL_WINDOW_MINIMIZED) SDL_WaitEventTimeout(nullptr, 100);
      const double spent = nowMs() - start;
      if (spent < 6.9) SDL_Delay(Uint32(6.9 - spent));
    }
  }
  if (!m_opt.saveScenarioPath.empty() && !m_doc.saveScenarioAs(m_opt.saveScenarioPath)) exitCode = 1;
  if (!m_opt.dumpStatePath.empty()) {
    std::string err;
    if (!writeState(m_opt.dumpStatePath, err)) {
      std::fprintf(stderr, "navbench: --dump-state: %s\n", err.c_str());
      exitCode = 1;
    }
  }
  if (!m_headless) {
    updateJournal(); // a clean exit: nothing unsaved, so this session's journal goes
    saveSettingsAtExit();
  }
  shutdown();
  return exitCode;
}

void App::saveSettingsAtExit() {
  int ww = 0, wh = 0;
  SDL_GetWindowSize(m_window, &ww, &wh);
  m_settings.screenshotDir = m_scenes.shotDir;
  m_settings.screenshotCaption = m_scenes.shotCaption;
  m_settings.screenshotViewOnly = m_scenes.shotViewOnly;
  if (ww >= 200 && wh >= 200) {
    m_settings.windowWidth = ww;
    m_settings.windowHeight = wh;
  }
  if (!m_doc.level.empty()) { // the camera, for the next time this level is opened
    const render::Camera& cam = m_doc.camera;
    m_settings.cameraLevel = absolutePath(m_doc.level.path());
    const float c[6] = {cam.target.x, cam.target.y, cam.target.z, cam.yaw, cam.pitch, cam.distance};
    std::copy(c, c + 6, m_settings.camera);
  }
  saveSettings();
}

// ---- DocumentHost ----------------------------------------------------------------------------

void App::levelReplaced() {
  // The journal follows the level the user opened (a tile set alone has none).
  m_journal.setLevel(m_doc.levelFromNav ? std::string() : m_doc.levelArg.empty() ? m_doc.level.path() : m_doc.levelArg);
  m_journalCheck = !m_journal.path().empty();
  uploadLevelMesh(m_doc.level, m_doc.view.walkableSlopeDeg, m_levelMesh);
  m_stats.levelTris = m_doc.level.mesh().triCount();
  // Look from the low-x, low-z corner, about 40 degrees down.
  render::Camera& cam = m_doc.camera;
  cam.yaw = 3.14159265f + 0.6f;
  cam.pitch = 0.72f;
  frameLevel();
  if (!m_headless && !m_doc.levelFromNav && !m_settings.cameraLevel.empty() &&
      m_settings.cameraLevel == absolutePath(m_doc.level.path())) {
    cam.target = glm::vec3(m_settings.camera[0], m_settings.camera[1], m_settings.camera[2]);
    cam.yaw = m_settings.camera[3];
    cam.pitch = m_settings.camera[4];
    cam.distance = m_settings.camera[5];
    m_log.info("camera restored from the last session");
  }
}

void App::levelRecolour() {
  uploadLevelMesh(m_doc.level, m_doc.view.walkableSlopeDeg, m_levelMesh);
  m_stats.levelTris = m_doc.level.mesh().triCount();
}

void App::fileOpened(const std::string& path) {
  if (m_headless) return;
  m_settings.addRecent(path);
  saveSettings();
}

void App::loadTimeBakeStarted() {
  if (Panel* bake = findPanel("Bake")) *bake->visible(m_doc) = !m_headless; // (headless: scripted clicks aim at the 3D view)
}

void App::openFilesChanged() {
  std::string title = "NavBench";
  if (!m_doc.level.empty() && !m_doc.levelFromNav) title += " - " + fs::path(m_doc.level.path()).filename().string();
  if (m_doc.nav.loaded()) title += (m_doc.levelFromNav ? " - " : " + ") + fs::path(m_doc.nav.path()).filename().string();
  if (m_window) SDL_SetWindowTitle(m_window, title.c_str());
}

bool App::readImageText(const std::string& path, std::vector<std::pair<std::string, std::string>>& text, std::string& error) {
  render::Image img;
  if (!render::readPng(path, img, error)) return false;
  text = std::move(img.text);
  return true;
}

// ---- UI ----------------------------------------------------------------------------------------

Panel* App::findPanel(const char* name) {
  for (auto& p : m_panels)
    if (std::string(p->name()) == name) return p.get();
  return nullptr;
}

void App::openFileDialog() {
  m_openDialog.open(m_doc.level.empty() ? std::string() : fs::path(absolutePath(m_doc.level.path())).parent_path().string());
}

void App::drawUi() {
  if (m_scenes.viewOnlyCapture()) { // a view-only screenshot: the 3D view and the caption only
    if (m_scenes.shotCaption) m_scenes.drawCaption();
    return;
  }
  std::string toOpen;
  drawMenuBar(toOpen);
  // Panels in their places for this window size, the ones the user moved or resized where they
  // put them (clamped inside after a resize).
  m_panelLayout.arrange(m_menuBarHeight);
  int w = 0, h = 0;
  SDL_GetWindowSize(m_window, &w, &h);
  PanelContext ctx{m_doc, m_log, m_panelLayout, m_stats, w, h, 0, 0, [this] { frameLevel(); }, &m_testCases};
  if (m_doc.nav.loaded()) {
    ctx.navTiles = m_navCache.stats().tiles;
    ctx.navTilesPending = m_navCache.stats().pendingTiles;
  }
  for (auto& p : m_panels) p->draw(ctx);
  std::string chosen;
  if (m_openDialog.draw(chosen)) toOpen = chosen;
  m_scenes.drawDialogs(m_menuBarHeight, toOpen);
  m_prompts.drawMovedFiles();
  if (m_scenes.capturing() && m_scenes.shotCaption) m_scenes.drawCaption();
  m_prompts.drawUnsaved();
  m_prompts.drawRecover();
  if (!toOpen.empty()) m_prompts.requestOpen(toOpen);
}


// ---- window, input, drawing --------------------------------------------------------------------

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
  const char* driver = SDL_GetCurrentVideoDriver();
  m_waitFrames = m_headless || (driver && std::strcmp(driver, "offscreen") == 0);
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

  m_doc.initTools(createTools);
  m_panels = createPanels();
  return true;
}

void App::shutdown() {
  m_doc.tools.clear();
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

void App::updateHover() {
  m_doc.hover.hit = false;
  m_doc.hover.poly = 0;
  if (m_doc.level.empty() || ImGui::GetCurrentContext() == nullptr || ImGui::GetIO().WantCaptureMouse) return;
  int mx = 0, my = 0;
  SDL_GetMouseState(&mx, &my);
  if (m_script.mouseActive()) {
    mx = int(m_script.mouseX());
    my = int(m_script.mouseY());
  }
  render::Ray ray;
  RayHit hit;
  if (!levelUnder(float(mx) + 0.5f, float(my) + 0.5f, ray, hit)) return;
  m_doc.hover.hit = true;
  m_doc.hover.pos = hit.pos;
  if (m_doc.nav.loaded()) m_doc.hover.poly = m_doc.nav.nearestPoly(hit.pos);
}

void App::frameLevel() {
  if (m_doc.level.empty()) return;
  int w = 0, h = 0;
  SDL_GetWindowSize(m_window, &w, &h);
  // Leave room for the default panel layout: tools on the left, view on the right, log below.
  m_doc.camera.frame(m_doc.level.mesh().boundsMin, m_doc.level.mesh().boundsMax, h > 0 ? float(w) / float(h) : 1.0f,
                 glm::vec2(-0.6f, -0.62f), glm::vec2(0.6f, 0.86f));
  m_doc.camera.flySpeed = std::max(2.0f, glm::length(m_doc.level.mesh().boundsMax - m_doc.level.mesh().boundsMin) * 0.15f);
}

void App::saveSettings() {
  if (m_settingsPath.empty()) return;
  std::string err;
  if (!m_settings.save(m_settingsPath, err)) m_log.warning("settings: " + err);
}

bool App::levelUnder(float px, float py, render::Ray& ray, RayHit& hit) const {
  int w = 0, h = 0;
  SDL_GetWindowSize(m_window, &w, &h);
  ray = m_doc.camera.screenRay(px, py, float(w), float(h));
  return !m_doc.level.empty() &&
         m_doc.level.raycast(ray.origin, ray.dir, m_doc.camera.farPlane(), m_doc.view.levelPickSides(), hit);
}

void App::pick(float mx, float my, bool shift, bool right) {
  if (m_doc.level.empty() || !m_doc.tool()) return;
  render::Ray ray;
  RayHit hit;
  if (!levelUnder(mx + 0.5f, my + 0.5f, ray, hit)) return;
  if (right) m_doc.tool()->onRightClick(ray.origin, hit.pos);
  else m_doc.tool()->onClick(ray.origin, hit.pos, shift);
}

void App::processEvent(const SDL_Event& e) {
  ImGui_ImplSDL2_ProcessEvent(&e);
  const ImGuiIO& io = ImGui::GetIO();
  // The level point under window pixel (mx, my), for a tool's drag.
  auto levelHit = [this](int mx, int my, glm::vec3* pos) {
    render::Ray ray;
    RayHit hit;
    if (!levelUnder(float(mx) + 0.5f, float(my) + 0.5f, ray, hit)) return false;
    *pos = hit.pos;
    return true;
  };
  switch (e.type) {
  case SDL_QUIT: m_prompts.requestQuit(); break;
  case SDL_WINDOWEVENT:
    if (e.window.event == SDL_WINDOWEVENT_CLOSE && e.window.windowID == SDL_GetWindowID(m_window)) m_prompts.requestQuit();
    break;
  case SDL_DROPFILE:
    if (e.drop.file) {
      const std::string ext = fs::path(e.drop.file).extension().string();
      if (ext == ".txt" || ext == ".TXT") m_testCases.open(e.drop.file, m_log); // a RecastDemo test-case file
      else m_prompts.requestOpen(e.drop.file); // a scenario (.json with the marker, screenshot .png) or a level
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
      glm::vec3 p(0.0f);
      m_toolDrag = m_doc.tool() && levelHit(e.button.x, e.button.y, &p) &&
                   m_doc.tool()->dragBegin(p, (SDL_GetModState() & KMOD_SHIFT) != 0 || m_script.shift());
    } else if (e.button.button == SDL_BUTTON_RIGHT || e.button.button == SDL_BUTTON_MIDDLE) {
      m_rightDown = true;
      m_rightDragged = false;
      m_pressX = e.button.x;
      m_pressY = e.button.y;
    }
    break;
  case SDL_MOUSEBUTTONUP:
    if (e.button.button == SDL_BUTTON_LEFT && m_toolDrag) { // a tool's drag ends here: not a click
      glm::vec3 p(0.0f);
      const bool hit = levelHit(e.button.x, e.button.y, &p);
      m_toolDrag = false;
      m_leftDown = false;
      if (Tool* t = m_doc.tool()) t->dragEnd(p, hit);
    } else if (e.button.button == SDL_BUTTON_LEFT) {
      if (m_leftDown && !m_dragged && !io.WantCaptureMouse)
        pick(float(e.button.x), float(e.button.y), (SDL_GetModState() & KMOD_SHIFT) != 0 || m_script.shift());
      m_leftDown = false;
    } else if (e.button.button == SDL_BUTTON_RIGHT || e.button.button == SDL_BUTTON_MIDDLE) {
      // A right click without dragging sets the tester's start (RecastDemo's input).
      if (m_rightDown && !m_rightDragged && e.button.button == SDL_BUTTON_RIGHT && !io.WantCaptureMouse)
        pick(float(e.button.x), float(e.button.y), true, true);
      m_rightDown = false;
    }
    break;
  case SDL_MOUSEMOTION:
    if (m_leftDown) {
      if (std::abs(e.motion.x - m_pressX) + std::abs(e.motion.y - m_pressY) > 3) m_dragged = true;
      glm::vec3 p(0.0f);
      if (m_toolDrag) {
        if (m_doc.tool() && levelHit(e.motion.x, e.motion.y, &p)) m_doc.tool()->dragTo(p);
      } else if (m_dragged) {
        m_doc.camera.rotate(float(e.motion.xrel), float(e.motion.yrel));
      }
    }
    if (m_rightDown) {
      if (std::abs(e.motion.x - m_pressX) + std::abs(e.motion.y - m_pressY) > 3) m_rightDragged = true;
      int w = 0, h = 0;
      SDL_GetWindowSize(m_window, &w, &h);
      m_doc.camera.pan(float(e.motion.xrel), float(e.motion.yrel), float(h));
    }
    break;
  case SDL_MOUSEWHEEL: {
    if (io.WantCaptureMouse || e.wheel.y == 0) break;
    int mx = 0, my = 0, w = 0, h = 0;
    SDL_GetMouseState(&mx, &my);
    SDL_GetWindowSize(m_window, &w, &h);
    // Zoom towards the level point under the cursor, or the point at the target's depth.
    render::Ray ray;
    RayHit hit;
    glm::vec3 p = levelUnder(float(mx) + 0.5f, float(my) + 0.5f, ray, hit)
                      ? hit.pos
                      : m_doc.camera.pointAtTargetDepth(float(mx) + 0.5f, float(my) + 0.5f, float(w), float(h));
    m_doc.camera.zoomToward(p, std::pow(0.85f, float(e.wheel.y)));
    break;
  }
  case SDL_KEYDOWN: onKeyDown(e.key.keysym); break;
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
  m_doc.camera.fly(move * boost, dt);
}

} // namespace navbench
