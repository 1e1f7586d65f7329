// EditToolUi.h: what the level edit tools' views (Convex Volumes, Off-Mesh Links, Tiles, Prune)
// share: the area picker, the editor's status line, the tool's message (a refused edit says why,
// in the panel and the log), the Save level file button, and the tool keys (Enter, Delete, Esc) read while the 3D
// view has the keyboard.
#pragma once

#include "app/model/EditMessage.h"
#include "nav/NavAreas.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace navbench {

class LevelEditor;
class Log;

namespace edit {

/// A screen rectangle of a widget (min x, min y, max x, max y), for --dump-state: tests aim their
/// clicks at the panel's widgets wherever the panel puts them.
struct Rect {
  float r[4] = {0, 0, 0, 0};
};
/// The tool's widgets by name ("save", "delete", "new.area.water"...).
using Rects = std::map<std::string, Rect>;
/// Records the last ImGui item's rectangle as rects[key] (nothing when rects is null).
void markItem(Rects* rects, const std::string& key);
void dumpRects(const Rects& rects, nlohmann::json& out);

/// The area choice: water, road, door, grass, jump, or a number (0..62). `id` keeps two pickers
/// of one panel apart (and names their widgets in `rects`: "<id>.area.water"...). True when the
/// user changed it this frame.
bool areaPicker(const char* id, uint8_t* area, Rects* rects = nullptr);

/// The tool's last outcome (app/model/EditMessage.h): green, or red for a refused edit.
void show(const EditMessage& msg);
/// The same in the Tiles / Prune look: the text's own colour, red for a refused edit.
void showMessage(const EditMessage& msg);
/// An EditMessage kept by a view (the Obstacles tool): set() logs what was done too.
struct Message : EditMessage {
  void set(Log* log, const std::string& t, bool isError);
  void show() const { edit::show(*this); }
};

/// The editor's state for the panel: why nothing can be edited (false), or ready (true) with the
/// rebake progress and unsaved-edits note.
bool editorStatus(LevelEditor* editor);

/// The "Save level file" button (rects["save"]): writes the level file and its .bin
/// (LevelEditor::saveLevel).
void saveButton(LevelEditor* editor, Log* log, EditMessage* msg, Rects* rects);

/// True once when `key` (an ImGuiKey_) went down, unless ImGui has the keyboard (a text field).
/// Call from Tool::update (it reads the state of the last ImGui frame).
bool toolKeyPressed(int imguiKey);

} // namespace edit
} // namespace navbench
