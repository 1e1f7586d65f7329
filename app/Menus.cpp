// Menus.cpp: the main menu bar (File, View, Help) and the keyboard shortcuts, which call the same
// actions. The View menu lists the registered panels that have a menu label.
#include "app/App.h"
#include "app/Scenario.h"

#include <imgui.h>

#include <algorithm>
#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

void App::drawMenuBar(std::string& toOpen) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", "Ctrl+O")) openFileDialog();
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
    if (ImGui::MenuItem("Reload", nullptr, false, !m_doc.level.empty()))
      toOpen = m_doc.levelArg.empty() ? m_doc.level.path() : m_doc.levelArg;
    ImGui::Separator();
    const bool haveScene = !m_doc.empty();
    if (ImGui::MenuItem("Open scenario...")) m_scenes.openScenarioDialog();
    if (ImGui::MenuItem("Save scenario", "Ctrl+S", false, haveScene)) m_scenes.save();
    if (ImGui::MenuItem("Save scenario as...", "Ctrl+Shift+S", false, haveScene)) m_scenes.requestSaveAs();
    if (ImGui::MenuItem("Copy scenario", "Ctrl+Shift+C", false, haveScene)) m_scenes.copy();
    if (ImGui::MenuItem("Paste scenario", "Ctrl+Shift+V")) m_scenes.paste();
    ImGui::Separator();
    if (ImGui::MenuItem("Screenshot", "F12")) m_scenes.requestScreenshot();
    if (ImGui::BeginMenu("Screenshot options")) {
      m_scenes.drawOptionsMenu();
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Screenshot folder...")) m_scenes.openFolderDialog();
    if (ImGui::MenuItem("Open test cases..."))
      m_testCases.openDialog(m_doc.level.empty() ? std::string()
                                                     : fs::path(absolutePath(m_doc.level.path())).parent_path().string());
    ImGui::Separator();
    // (Below the entries scripted tests click by position.)
    if (ImGui::MenuItem("Undo", "Ctrl+Z", false, m_doc.history.canUndo())) m_doc.history.undo();
    if (ImGui::MenuItem("Redo", "Ctrl+Y", false, m_doc.history.canRedo())) m_doc.history.redo();
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) m_prompts.requestQuit();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    std::vector<Panel*> listed;
    for (auto& p : m_panels)
      if (*p->menuLabel()) listed.push_back(p.get());
    std::stable_sort(listed.begin(), listed.end(), [](const Panel* a, const Panel* b) { return a->menuOrder() < b->menuOrder(); });
    // Reset first: its place does not move as panels are added to the list below it.
    if (ImGui::MenuItem("Reset panel layout")) m_panelLayout.resetUserPlaced(); // panels the user moved, back in place
    ImGui::Separator();
    for (Panel* p : listed) ImGui::MenuItem(p->menuLabel(), nullptr, p->visible(m_doc));
    ImGui::Separator();
    ImGui::MenuItem("Stats overlay", nullptr, &m_doc.view.showStats);
    ImGui::MenuItem("Wireframe", nullptr, &m_doc.view.wireframe);
    ImGui::MenuItem("Two-sided level", "Ctrl+T", &m_doc.view.twoSidedLevel); // draw and pick both sides
    if (ImGui::MenuItem("Frame level", "F")) frameLevel();
    ImGui::Separator();
    if (Panel* demo = findPanel("ImGui demo")) ImGui::MenuItem("ImGui demo", nullptr, demo->visible(m_doc));
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (Panel* help = findPanel("Help")) ImGui::MenuItem("Shortcuts", "F1", help->visible(m_doc));
    ImGui::EndMenu();
  }
  if (!m_doc.level.empty()) {
    ImGui::SameLine(0, 30);
    const bool fromNav = m_doc.levelFromNav, navOpen = m_doc.nav.loaded();
    // Relative to the working directory where that is shorter, so a screenshot names the files as
    // the command that made it did (a scenario resolves its paths to absolute ones).
    const std::string level = fromNav ? std::string() : relativeTo("", m_doc.level.path());
    const std::string nav = navOpen ? relativeTo("", m_doc.nav.path()) : std::string();
    ImGui::TextDisabled("%s%s%s", level.c_str(), navOpen && !fromNav ? "  +  " : "", nav.c_str());
  }
  m_menuBarHeight = ImGui::GetWindowSize().y;
  ImGui::EndMainMenuBar();
}

void App::onKeyDown(const SDL_Keysym& key) {
  if (key.sym == SDLK_F12) m_scenes.requestScreenshot(); // also over text fields and dialogs
  const bool ctrl = (key.mod & KMOD_CTRL) != 0, shift = (key.mod & KMOD_SHIFT) != 0;
  // Undo / redo also right after a panel button was pressed (ImGui keeps the keyboard then); a
  // text field being typed in keeps its own Ctrl+Z.
  if (ctrl && !ImGui::GetIO().WantTextInput && (key.sym == SDLK_z || key.sym == SDLK_y)) {
    if (key.sym == SDLK_y || shift) m_doc.history.redo();
    else m_doc.history.undo();
    return;
  }
  if (ImGui::GetIO().WantCaptureKeyboard) return;
  if (key.sym == SDLK_f && !ctrl) frameLevel();
  if (key.sym == SDLK_F1)
    if (Panel* help = findPanel("Help")) *help->visible(m_doc) = !*help->visible(m_doc);
  if (key.sym == SDLK_F5)
    if (Panel* check = findPanel("Check")) *check->visible(m_doc) = !*check->visible(m_doc);
  if (key.sym == SDLK_F7)
    if (Panel* agents = findPanel("Agents")) *agents->visible(m_doc) = !*agents->visible(m_doc);
  if (key.sym == SDLK_F6 && !shift)
    if (Panel* why = findPanel("Why")) *why->visible(m_doc) = !*why->visible(m_doc);
  if (key.sym == SDLK_F6 && shift && m_doc.why.shown) // the first fix the tester can take, for a look (Ctrl+Z undoes it)
    for (int i = 0; i < int(m_doc.why.explanation().causes.size()); ++i)
      if (m_doc.why.applicable(i)) {
        m_doc.why.apply(i, m_doc.nav, m_doc.history);
        m_log.info("why: applied " + m_doc.why.explanation().causes[size_t(i)].counterfactual.text);
        break;
      }
  if (key.sym == SDLK_SPACE && m_doc.tool()) m_doc.tool()->step();
  if (ctrl && shift) {
    if (key.sym == SDLK_v) m_scenes.paste();
    else if (key.sym == SDLK_c) m_scenes.copy();
    else if (key.sym == SDLK_s) m_scenes.requestSaveAs();
  } else if (ctrl && key.sym == SDLK_s) {
    m_scenes.save();
  }
  if (ctrl && !shift) {
    if (key.sym == SDLK_t) m_doc.view.twoSidedLevel = !m_doc.view.twoSidedLevel; // View > Two-sided level
    if (key.sym == SDLK_q) m_prompts.requestQuit();
    else if (key.sym == SDLK_b && !m_doc.bake.running() && !m_doc.agents.busy()) m_doc.bake.buildByUser(m_log);
  }
  if (key.sym == SDLK_o && ctrl) openFileDialog();
}

} // namespace navbench
