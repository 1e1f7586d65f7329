#include "app/panels/Panels.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

void OpenFileDialog::open(const std::string& dir) {
  std::error_code ec;
  fs::path start = dir.empty() ? fs::current_path(ec) : fs::absolute(dir, ec);
  while (!start.empty() && !fs::is_directory(start, ec) && start.has_parent_path() && start.parent_path() != start)
    start = start.parent_path(); // a folder not made yet: its nearest existing parent
  m_dir = start.string();
  m_pathInput.clear();
  m_error.clear();
  m_requestOpen = true;
  refresh();
}

void OpenFileDialog::refresh() {
  m_entries.clear();
  m_selected = -1;
  m_error.clear();
  std::error_code ec;
  fs::directory_iterator it(m_dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    m_error = m_dir + ": " + ec.message();
    return;
  }
  for (const fs::directory_entry& e : it) {
    std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code ec2;
    bool dir = e.is_directory(ec2);
    std::string ext = e.path().extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (dir || (m_mode == Mode::File && std::find(m_exts.begin(), m_exts.end(), ext) != m_exts.end()))
      m_entries.push_back({name, dir});
  }
  std::sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) {
    if (a.isDir != b.isDir) return a.isDir;
    return a.name < b.name;
  });
}

bool OpenFileDialog::isOpen() const { return m_requestOpen || m_shown || m_closedFrame == ImGui::GetFrameCount(); }

bool OpenFileDialog::draw(std::string& chosen) {
  if (m_requestOpen) {
    ImGui::OpenPopup(m_title.c_str());
    m_requestOpen = false;
  }
  bool done = false;
  ImGui::SetNextWindowSize(ImVec2(520, 400), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(m_title.c_str(), nullptr)) {
    if (m_shown) m_closedFrame = ImGui::GetFrameCount();
    m_shown = false;
    return false;
  }
  m_shown = true;
  const bool folders = m_mode == Mode::Folder;
  if (folders) ImGui::TextDisabled("Choose a folder (double-click enters it):");
  ImGui::TextUnformatted(m_dir.c_str());
  if (ImGui::Button("Up")) {
    fs::path p(m_dir);
    if (p.has_parent_path()) {
      m_dir = p.parent_path().string();
      refresh();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Refresh")) refresh();
  if (!m_error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", m_error.c_str());
  ImGui::BeginChild("entries", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 2.2f), true);
  std::string enterDir;
  for (int i = 0; i < int(m_entries.size()); ++i) {
    const Entry& e = m_entries[size_t(i)];
    std::string label = e.isDir ? "[dir] " + e.name : e.name;
    if (ImGui::Selectable(label.c_str(), m_selected == i, ImGuiSelectableFlags_AllowDoubleClick)) {
      m_selected = i;
      if (!e.isDir || folders) m_pathInput = (fs::path(m_dir) / e.name).string();
      if (ImGui::IsMouseDoubleClicked(0)) {
        if (e.isDir)
          enterDir = (fs::path(m_dir) / e.name).string();
        else {
          chosen = m_pathInput;
          done = true;
        }
      }
    }
  }
  ImGui::EndChild();
  if (!enterDir.empty()) {
    m_dir = enterDir;
    refresh();
  }
  ImGui::SetNextItemWidth(-1);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere(); // type or paste a path at once
  bool enter = ImGui::InputTextWithHint("##path", m_hint.c_str(), &m_pathInput, ImGuiInputTextFlags_EnterReturnsTrue);
  if (folders) {
    // The typed (or selected) folder, else the one shown; one that does not exist yet is allowed
    // (the caller creates it on first use, and says so when it cannot).
    // A relative name is taken in the folder shown (typing "shots" there means that folder's
    // "shots", not one beside wherever navbench was started).
    if (ImGui::Button("Choose folder") || enter) {
      const fs::path typed(m_pathInput);
      chosen = m_pathInput.empty() ? m_dir : typed.is_relative() ? (fs::path(m_dir) / typed).string() : m_pathInput;
      done = true;
    }
  } else if ((ImGui::Button("Open") || enter) && !m_pathInput.empty()) {
    std::error_code ec;
    if (fs::is_directory(m_pathInput, ec)) {
      m_dir = m_pathInput;
      m_pathInput.clear();
      refresh();
    } else {
      chosen = m_pathInput;
      done = true;
    }
  }
  ImGui::SameLine();
  bool close = done;
  if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) close = true;
  if (close) { // closed this frame (Cancel, Esc, a choice)
    ImGui::CloseCurrentPopup();
    m_shown = false;
    m_closedFrame = ImGui::GetFrameCount();
  }
  ImGui::EndPopup();
  return done;
}

} // namespace navbench
