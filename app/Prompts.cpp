#include "app/Prompts.h"

#include "app/Settings.h"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include <SDL.h>

#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

std::string Prompts::unsavedPromptState() const {
  return m_pending == Pending::Quit ? "quit" : m_pending == Pending::Open ? "open " + m_pendingPath : "";
}

void Prompts::askForMovedFiles(const MovedFiles& moved) {
  m_moved = moved;
  m_movedActive = true;
  m_movedOpenRequest = true; // the modal opens in the next frame's UI (this may run between frames)
}

void Prompts::dumpMovedFiles(nlohmann::json& out) const {
  nlohmann::json miss = {{"open", m_movedActive}, {"source", m_moved.source}};
  nlohmann::json files = nlohmann::json::array();
  std::error_code ec;
  if (m_movedActive) {
    if (m_moved.levelMissing)
      files.push_back({{"kind", "level"}, {"original", m_moved.scenario.level}, {"path", m_moved.level},
                       {"found", fs::is_regular_file(m_moved.level, ec)}});
    if (m_moved.navMissing)
      files.push_back({{"kind", "navmesh"}, {"original", m_moved.scenario.navmesh}, {"path", m_moved.navmesh},
                       {"found", fs::is_regular_file(m_moved.navmesh, ec)}});
  }
  miss["files"] = files;
  out = miss;
}

void Prompts::drawMovedFiles() {
  // A scenario whose files moved: ask for them; Cancel leaves everything as it is.
  if (m_movedOpenRequest) {
    m_movedOpenRequest = false;
    ImGui::OpenPopup("Scenario files not found");
  }
  ImGui::SetNextWindowSize(ImVec2(640, 0), ImGuiCond_Appearing);
  if (ImGui::BeginPopupModal("Scenario files not found", nullptr)) {
    MovedFiles& m = m_moved;
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
      m_movedActive = false;
      ImGui::CloseCurrentPopup();
    }
    if (apply) {
      Scenario s = m.scenario;
      s.level = m.level.empty() ? std::string() : absolutePath(m.level);
      s.navmesh = m.navmesh.empty() ? std::string() : absolutePath(m.navmesh);
      const std::string source = m.source;
      m_movedActive = false;
      ImGui::CloseCurrentPopup();
      ImGui::EndPopup();
      m_doc.applyScenario(s, "", source);
      return;
    }
    ImGui::EndPopup();
  }
}

void Prompts::requestOpen(const std::string& path) {
  if (!m_doc.bake.unsaved()) {
    m_doc.openAny(path);
    return;
  }
  m_pending = Pending::Open;
  m_pendingPath = path;
}

void Prompts::requestQuit() {
  if (!m_doc.bake.unsaved()) {
    m_running = false;
    return;
  }
  m_pending = Pending::Quit;
  m_pendingPath.clear();
}

void Prompts::drawUnsaved() {
  if (m_pending == Pending::None) return;
  const char* title = "Unsaved navmesh";
  if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  if (m_doc.bake.unsavedBake())
    ImGui::Text("The navmesh baked from %s is not saved (Save writes %s).", m_doc.bake.source().c_str(), m_doc.bake.savePath());
  if (m_doc.bake.editsChanged())
    ImGui::Text("Volumes or links were edited (Save writes them to %s).", m_doc.bake.levelFilePath().c_str());
  if (m_doc.bake.settingsChanged())
    ImGui::Text("Bake settings were changed in the Bake panel (Save writes them to %s).", m_doc.bake.levelFilePath().c_str());
  if (m_pending == Pending::Quit) ImGui::TextUnformatted("Quitting drops this.");
  else ImGui::Text("Opening %s drops this.", m_pendingPath.c_str());
  bool proceed = false;
  // Keys S / D / Esc as well (the modal has the keyboard while it is open).
  if (ImGui::Button("Save (S)") || ImGui::IsKeyPressed(SDL_SCANCODE_S, false))
    proceed = m_doc.bake.saveAll(m_doc.nav, m_log); // a failed save keeps the prompt (the log says why)
  ImGui::SameLine();
  if (ImGui::Button("Discard (D)") || ImGui::IsKeyPressed(SDL_SCANCODE_D, false)) {
    m_log.info("unsaved changes discarded");
    m_doc.bake.discard();
    proceed = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel (Esc)") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) {
    m_pending = Pending::None;
    ImGui::CloseCurrentPopup();
  }
  if (proceed) {
    std::string why; // saved or discarded: the journal holds nothing more
    if (!m_journal.remove(why)) m_log.warning("recovery: " + why);
    const Pending what = m_pending;
    const std::string path = m_pendingPath;
    m_pending = Pending::None;
    ImGui::CloseCurrentPopup();
    if (what == Pending::Quit) m_running = false;
    else if (what == Pending::Open) m_doc.openAny(path);
  }
  ImGui::EndPopup();
}

void Prompts::askRecover(const Scenario& journaled) {
  m_recover = journaled;
  m_recoverActive = true;
  m_recoverOpenRequest = true;
}

bool Prompts::restore(const Scenario& journaled) {
  const std::string scenarioPath = m_doc.scenarioPath; // Ctrl+S must not write into the journal
  const bool ok = m_doc.applyScenario(journaled, "", m_journal.path());
  m_doc.scenarioPath = scenarioPath;
  if (!ok) return false; // (logged, nothing changed)
  m_journal.adopt();
  m_log.info("restored the unsaved edits of " + m_journal.level() + " from " + m_journal.path());
  return true;
}

void Prompts::drawRecover() {
  const char* title = "Unsaved edits found";
  if (m_recoverOpenRequest) {
    m_recoverOpenRequest = false;
    ImGui::OpenPopup(title);
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const nlohmann::json& e = m_recover.edits;
  auto count = [&e](const char* key) { return e.is_object() && e.contains(key) && e[key].is_array() ? int(e[key].size()) : 0; };
  ImGui::Text("NavBench stopped with unsaved work on %s.", m_journal.level().c_str());
  ImGui::Text("Kept in %s: %d volumes, %d off-mesh links, the camera and the %s tool's inputs.", m_journal.path().c_str(),
              count("volumes"), count("links"), m_recover.toolName.c_str());
  bool close = false;
  if (ImGui::Button("Restore (R)") || ImGui::IsKeyPressed(SDL_SCANCODE_R, false)) {
    restore(m_recover);
    close = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Discard (D)") || ImGui::IsKeyPressed(SDL_SCANCODE_D, false)) {
    std::string why;
    if (m_journal.remove(why)) m_log.info("recovery: unsaved edits of " + m_journal.level() + " discarded");
    else m_log.error("recovery: " + why);
    close = true;
  }
  if (close) {
    m_recoverActive = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

void Prompts::drawLevelLoad() {
  if (!m_doc.levelLoader().active() || m_doc.levelLoader().elapsedMs() < 300.0) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(420.0f, 0.0f));
  ImGui::Begin("Opening level", nullptr,
               ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
  ImGui::TextUnformatted(fs::path(m_doc.levelLoader().path()).filename().string().c_str());
  const float fraction = m_doc.levelLoader().fraction();
  ImGui::TextUnformatted(loadPhaseLabel(m_doc.levelLoader().phase()));
  ImGui::ProgressBar(fraction);
  ImGui::Text("%.1f s", m_doc.levelLoader().elapsedMs() / 1000.0);
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) m_doc.levelLoader().cancel();
  ImGui::End();
}

} // namespace navbench
