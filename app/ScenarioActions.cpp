#include "app/ScenarioActions.h"

#include "app/Settings.h"
#include "app/tools/Tester.h"
#include "render/Screenshot.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <SDL.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <unistd.h>

namespace navbench {

namespace fs = std::filesystem;

void ScenarioActions::beginFrame(bool headlessShot) {
  if (m_shotRequested) {
    m_shotRequested = false;
    m_captureFrame = true;
  }
  m_uiCapture = m_captureFrame || headlessShot;
}

void ScenarioActions::endFrame(int w, int h) {
  if (!m_captureFrame) return;
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

void ScenarioActions::save() {
  if (m_doc.scenarioPath.empty()) m_saveAsOpen = true;
  else m_doc.saveScenarioAs(m_doc.scenarioPath);
}

void ScenarioActions::requestSaveAs() { m_saveAsOpen = true; }

void ScenarioActions::openScenarioDialog() {
  const std::string dir = !m_doc.scenarioPath.empty() ? fs::path(absolutePath(m_doc.scenarioPath)).parent_path().string()
                          : m_doc.level.empty()       ? std::string()
                                                      : fs::path(absolutePath(m_doc.level.path())).parent_path().string();
  m_scenarioDialog.open(dir);
}

void ScenarioActions::openFolderDialog() { m_folderDialog.open(shotDir.empty() ? std::string("screenshots") : shotDir); }

void ScenarioActions::drawOptionsMenu() {
  ImGui::Checkbox("3D view only (no panels)", &shotViewOnly);
  ImGui::Checkbox("Caption strip (level, start/end, status, length)", &shotCaption);
  ImGui::SetNextItemWidth(320);
  ImGui::InputTextWithHint("##folder", "screenshots (next to where navbench runs)", &shotDir);
  const bool typed = ImGui::IsItemDeactivatedAfterEdit();
  ImGui::SameLine();
  if (ImGui::Button("Browse...")) openFolderDialog();
  ImGui::SameLine();
  ImGui::TextUnformatted("Folder");
  std::string why;
  if (!checkShotDir(false, why)) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", why.c_str());
  if (typed) shotDirChanged();
}

void ScenarioActions::shotDirChanged() {
  std::string why;
  const std::string dir = shotDir.empty() ? std::string("screenshots") : shotDir;
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

void ScenarioActions::notify(const std::string& text, bool error) {
  m_toast = text;
  m_toastError = error;
  m_toastUntil = nowMs() + (error ? 8000.0 : 4000.0);
}

void ScenarioActions::copy() {
  if (m_doc.level.empty() && !m_doc.nav.loaded()) return;
  const std::string text = toJson(m_doc.currentScenario(""));
  SDL_SetClipboardText(text.c_str());
  m_log.info("scenario copied to the clipboard (" + std::to_string(text.size()) + " bytes)");
  notify("Scenario copied to the clipboard", false);
}

void ScenarioActions::paste() {
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
  m_doc.applyScenario(s, "", "clipboard scenario");
}

bool ScenarioActions::checkShotDir(bool create, std::string& why) const {
  const std::string dir = shotDir.empty() ? std::string("screenshots") : shotDir;
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

std::string ScenarioActions::nextScreenshotPath() const {
  const std::string dir = shotDir.empty() ? std::string("screenshots") : shotDir;
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

bool ScenarioActions::writeScreenshot(const std::string& path, int w, int h, std::string& error) {
  render::Image img;
  if (!render::readFramebuffer(w, h, img, error)) return false;
  const fs::path parent = fs::path(absolutePath(path)).parent_path();
  img.text.emplace_back("Software", "NavBench");
  if (!m_doc.level.empty() || m_doc.nav.loaded()) // the scenario, paths relative to the image (zTXt when long)
    img.text.emplace_back(kScenarioPngKeyword, toJson(m_doc.currentScenario(parent.string())));
  return render::writePng(path, img, error);
}

void ScenarioActions::drawCaption() {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  std::string line1 = "NavBench";
  if (!m_doc.level.empty() && !m_doc.levelFromNav) line1 += "   level " + fs::path(m_doc.levelArg.empty() ? m_doc.level.path() : m_doc.levelArg).filename().string();
  if (m_doc.nav.loaded()) line1 += "   navmesh " + fs::path(m_doc.nav.path()).filename().string();
  std::string line2;
  if (const auto* tester = dynamic_cast<const Tester*>(m_doc.tool()))
    line2 = tester->caption();
  else if (m_doc.tool())
    line2 = m_doc.tool()->name();
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float lh = ImGui::GetTextLineHeight();
  const float hgt = lh * 2 + 12;
  const ImVec2 a(vp->Pos.x, vp->Pos.y + vp->Size.y - hgt), b(vp->Pos.x + vp->Size.x, vp->Pos.y + vp->Size.y);
  dl->AddRectFilled(a, b, IM_COL32(12, 14, 18, 225));
  dl->AddLine(a, ImVec2(b.x, a.y), IM_COL32(255, 160, 40, 255), 2.0f);
  dl->AddText(ImVec2(a.x + 8, a.y + 5), IM_COL32(255, 255, 255, 255), line1.c_str());
  dl->AddText(ImVec2(a.x + 8, a.y + 6 + lh), IM_COL32(255, 210, 120, 255), line2.c_str());
}

void ScenarioActions::drawDialogs(float menuBarHeight, std::string& toOpen) {
  std::string chosen;
  if (m_scenarioDialog.draw(chosen)) toOpen = chosen;
  if (m_folderDialog.draw(chosen)) {
    shotDir = chosen;
    shotDirChanged();
  }
  // Toast: the last save / open / error, for a few seconds at the top of the view.
  if (!m_toast.empty() && nowMs() < m_toastUntil && !m_uiCapture) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const ImVec2 size = ImGui::CalcTextSize(m_toast.c_str(), nullptr, false, vp->Size.x * 0.6f);
    const ImVec2 p(vp->Pos.x + (vp->Size.x - size.x) * 0.5f, vp->Pos.y + menuBarHeight + 12);
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    dl->AddRectFilled(ImVec2(p.x - 10, p.y - 6), ImVec2(p.x + size.x + 10, p.y + size.y + 6),
                      m_toastError ? IM_COL32(120, 20, 20, 235) : IM_COL32(20, 70, 40, 235), 4.0f);
    dl->AddText(nullptr, 0.0f, p, IM_COL32(255, 255, 255, 255), m_toast.c_str(), nullptr, vp->Size.x * 0.6f);
  }
  // Save as: a path and the note.
  if (m_saveAsOpen) {
    m_saveAsOpen = false;
    if (m_doc.level.empty() && !m_doc.nav.loaded()) {
      notify("Nothing to save: open a level first", true);
    } else {
      if (m_saveAsPath.empty() || m_saveAsPath == m_doc.scenarioPath) {
        const std::time_t now = std::time(nullptr);
        std::tm tm{};
        localtime_r(&now, &tm);
        char name[64];
        std::strftime(name, sizeof name, "scenario-%Y%m%d-%H%M%S.json", &tm);
        m_saveAsPath = m_doc.scenarioPath.empty() ? (fs::path("scenarios") / name).string() : m_doc.scenarioPath;
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
    ImGui::InputTextMultiline("##note", &m_doc.scenarioNote, ImVec2(-1, 90));
    if ((ImGui::Button("Save") || enter) && !m_saveAsPath.empty()) {
      if (m_doc.saveScenarioAs(m_saveAsPath)) ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
}

} // namespace navbench
