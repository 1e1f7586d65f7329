#include "app/panels/Panels.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>

namespace navbench {

namespace fs = std::filesystem;

void OpenFileDialog::open(const std::string& dir) {
  std::error_code ec;
  m_dir = dir.empty() ? fs::current_path(ec).string() : dir;
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
    if (dir || std::find(m_exts.begin(), m_exts.end(), ext) != m_exts.end()) m_entries.push_back({name, dir});
  }
  std::sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) {
    if (a.isDir != b.isDir) return a.isDir;
    return a.name < b.name;
  });
}

bool OpenFileDialog::draw(std::string& chosen) {
  if (m_requestOpen) {
    ImGui::OpenPopup(m_title.c_str());
    m_requestOpen = false;
  }
  bool done = false;
  ImGui::SetNextWindowSize(ImVec2(520, 400), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(m_title.c_str(), nullptr)) return false;
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
      if (!e.isDir) m_pathInput = (fs::path(m_dir) / e.name).string();
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
  bool enter = ImGui::InputTextWithHint("##path", m_hint.c_str(), &m_pathInput, ImGuiInputTextFlags_EnterReturnsTrue);
  if ((ImGui::Button("Open") || enter) && !m_pathInput.empty()) {
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
  if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
  if (done) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return done;
}

} // namespace navbench
