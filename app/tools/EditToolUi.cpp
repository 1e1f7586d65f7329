#include "app/tools/EditToolUi.h"

#include "app/model/LevelEditor.h"
#include "app/Log.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

namespace navbench::edit {

void markItem(Rects* rects, const std::string& key) {
  if (!rects) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  (*rects)[key] = Rect{{a.x, a.y, b.x, b.y}};
}

void dumpRects(const Rects& rects, nlohmann::json& out) {
  out = nlohmann::json::object();
  for (const auto& [key, rect] : rects) out[key] = {rect.r[0], rect.r[1], rect.r[2], rect.r[3]};
}

bool areaPicker(const char* id, uint8_t* area, Rects* rects) {
  using namespace nav::bake;
  using namespace nav; // area ids and names (nav/NavAreas.h)
  static const uint8_t kNamed[] = {AREA_WATER, AREA_ROAD, AREA_DOOR, AREA_GRASS, AREA_JUMP};
  ImGui::PushID(id);
  bool changed = false, named = false;
  ImGui::TextUnformatted("Area ");
  ImGui::SameLine();
  const float x0 = ImGui::GetCursorPosX(); // the second row lines up under the first
  for (size_t i = 0; i < sizeof kNamed; ++i) {
    if (i % 3 != 0) ImGui::SameLine();
    else if (i > 0) ImGui::SetCursorPosX(x0);
    if (ImGui::RadioButton(areaName(kNamed[i]), *area == kNamed[i])) {
      changed = *area != kNamed[i];
      *area = kNamed[i];
    }
    markItem(rects, std::string(id) + ".area." + areaName(kNamed[i]));
    named = named || *area == kNamed[i];
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("number", !named) && named) {
    *area = AREA_GROUND;
    changed = true;
  }
  markItem(rects, std::string(id) + ".area.number");
  if (!named) {
    int v = *area;
    ImGui::SetNextItemWidth(90);
    if (ImGui::InputInt("area id (0..62)", &v) && v >= 0 && v <= 62 && v != *area) {
      *area = uint8_t(v);
      changed = true;
    }
  }
  ImGui::PopID();
  return changed;
}

void show(const EditMessage& msg) {
  if (msg.text.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, msg.error ? ImVec4(1, 0.45f, 0.3f, 1) : ImVec4(0.5f, 0.9f, 0.5f, 1));
  ImGui::TextWrapped("%s", msg.text.c_str());
  ImGui::PopStyleColor();
}

bool editorStatus(LevelEditor* editor) {
  std::string why;
  if (!editor) {
    ImGui::TextDisabled("No level editor here.");
    return false;
  }
  if (!editor->ready(&why)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.7f, 0.3f, 1));
    ImGui::TextWrapped("Cannot edit: %s", why.c_str());
    ImGui::PopStyleColor();
    return false;
  }
  if (editor->busy()) {
    int done = 0, total = 0;
    editor->progress(&done, &total);
    ImGui::ProgressBar(total > 0 ? float(done) / float(total) : 0.0f, ImVec2(-1, 0), total > 0 ? "rebaking tiles" : "rebake queued");
  }
  return true;
}

void Message::set(Log* log, const std::string& t, bool isError) {
  if (isError) {
    fail(log, t);
    return;
  }
  done(t);
  if (log) log->info(t);
}

void showMessage(const EditMessage& msg) {
  if (msg.text.empty()) return;
  if (msg.error) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
  ImGui::TextWrapped("%s", msg.text.c_str());
  if (msg.error) ImGui::PopStyleColor();
}

void saveButton(LevelEditor* editor, Log* log, EditMessage* msg, Rects* rects) {
  const bool unsaved = editor && editor->unsaved();
  const bool clicked = ImGui::Button(unsaved ? "Save level file *" : "Save level file");
  markItem(rects, "save");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Writes the volumes and links into the level file and the navmesh into its .bin");
  if (!clicked || !editor) return;
  std::string why;
  if (editor->saveLevel(&why)) {
    msg->done("level file saved");
    if (log) log->info("level file saved");
  }
  else msg->fail(log, "save: " + why);
}

bool toolKeyPressed(int imguiKey) {
  if (!ImGui::GetCurrentContext()) return false;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard || io.KeyCtrl || io.KeyAlt) return false;
  return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey(imguiKey)), false);
}

} // namespace navbench::edit
