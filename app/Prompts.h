// Prompts.h: the viewer's questions to the user and its progress windows.
//  - Unsaved navmesh: opening a file or quitting drops a navmesh baked in the viewer (or changed
//    bake settings); when they are not saved, Save / Discard / Cancel is asked first (keys S, D, Esc).
//  - Scenario files not found: a scenario whose level or tile set moved; the user locates them
//    (typed, pasted or browsed; a located file's folder is searched for the other one) or cancels,
//    and nothing changes.
//  - Opening level: a big OBJ loading in the background, with its phase, progress and Cancel.
//  - Unsaved edits found: the opened level has a recovery journal (app/model/Recovery.h) from a
//    session that ended with unsaved work: Restore applies it, Discard removes it (keys R, D).
#pragma once

#include "app/Document.h"
#include "app/Log.h"
#include "app/model/Recovery.h"
#include "app/panels/Panels.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace navbench {

class Prompts {
public:
  /// `running` is the frame loop's flag: a confirmed quit clears it. The journal is removed when
  /// the unsaved prompt's Save or Discard is chosen.
  Prompts(Document& doc, Log& log, bool& running, RecoveryJournal& journal)
      : m_doc(doc), m_log(log), m_running(running), m_journal(journal) {}

  /// Opens `path` (Document::openAny), or asks first when something unsaved would be dropped.
  void requestOpen(const std::string& path);
  /// Quits, or asks first when something unsaved would be dropped.
  void requestQuit();
  void drawUnsaved();

  /// The moved-files dialog opens next frame for `moved`.
  void askForMovedFiles(const MovedFiles& moved);
  void drawMovedFiles();
  bool askingForMovedFiles() const { return m_movedActive; }

  /// The background level load's progress window (after 0.3 s), with Cancel.
  void drawLevelLoad();

  /// The "Unsaved edits found" prompt opens next frame for `journaled` (read from the journal).
  void askRecover(const Scenario& journaled);
  void drawRecover();
  bool askingRecover() const { return m_recoverActive; }
  /// Applies the journal's scenario to the open level; the session owns the journal from then on.
  bool restore(const Scenario& journaled);

  /// For --dump-state: "quit", "open PATH" or "" (the unsaved prompt); the moved-files dialog.
  std::string unsavedPromptState() const;
  void dumpMovedFiles(nlohmann::json& out) const;

private:
  Document& m_doc;
  Log& m_log;
  bool& m_running;
  RecoveryJournal& m_journal;
  bool m_recoverActive = false, m_recoverOpenRequest = false;
  Scenario m_recover;
  enum class Pending { None, Open, Quit };
  Pending m_pending = Pending::None;
  std::string m_pendingPath;
  bool m_movedActive = false, m_movedOpenRequest = false;
  MovedFiles m_moved;
  OpenFileDialog m_locateDialog{"Locate file", {".obj", ".glb", ".gltf", ".fbx", ".dae", ".3ds", ".ply", ".stl", ".json", ".bin"}, "path/to/the/moved/file"};
  int m_locateWhich = 0; ///< 0 level, 1 navmesh
};

} // namespace navbench
