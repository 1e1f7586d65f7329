// ScenarioActions.h: what the user does with scenarios and screenshots, and the answers they get.
//  - Scenarios: Save (Ctrl+S), Save as... with a note (Ctrl+Shift+S), Open scenario..., Copy and
//    Paste as text (Ctrl+Shift+C / V).
//  - F12 screenshots: timestamped PNGs in the screenshot folder (made on first use), with the
//    scenario inside (zTXt), optionally of the 3D view only and with a caption strip.
//  - The toast: the last save / open / error, for a few seconds at the top of the view.
// The document does the work (Document::currentScenario / applyScenario / saveScenarioAs).
#pragma once

#include "app/Document.h"
#include "app/Log.h"
#include "app/panels/Panels.h"

#include <string>

namespace navbench {

class ScenarioActions {
public:
  ScenarioActions(Document& doc, Log& log) : m_doc(doc), m_log(log) {}

  // Screenshot options (File > Screenshot options; kept in the settings).
  std::string shotDir;  ///< "" = ./screenshots
  bool shotCaption = false, shotViewOnly = false;

  /// F12 / File > Screenshot: the next frame is captured.
  void requestScreenshot() { m_shotRequested = true; }
  /// At the start of a frame's UI: is this frame captured (F12 the frame before, or `headlessShot`,
  /// the last frame of a headless --screenshot run)? A captured frame hides the panels when
  /// view-only and draws the caption strip.
  void beginFrame(bool headlessShot);
  bool capturing() const { return m_uiCapture; }
  bool viewOnlyCapture() const { return m_uiCapture && shotViewOnly; }
  /// After the frame is rendered (`w` x `h` pixels): writes the F12 screenshot, if one was asked for.
  void endFrame(int w, int h);
  /// The frame buffer as a PNG at `path`, with the current scenario inside (paths relative to it).
  bool writeScreenshot(const std::string& path, int w, int h, std::string& error);

  void save();          ///< Ctrl+S: to the scenario's own file, or Save as when it has none.
  void requestSaveAs(); ///< The Save scenario dialog opens next frame.
  void copy();
  void paste();
  void openScenarioDialog();
  void openFolderDialog();
  void notify(const std::string& text, bool error);

  /// The screenshot folder ("" = ./screenshots) usable: an existing writable folder, or made now
  /// when `create` (else one that does not exist yet is fine). False with a message naming it.
  bool checkShotDir(bool create, std::string& why) const;
  /// Logs the new screenshot folder, or why F12 cannot save there.
  void shotDirChanged();

  /// File > Screenshot options (inside the File menu).
  void drawOptionsMenu();
  /// The scenario and folder dialogs, the toast and the Save scenario modal; a scenario chosen in
  /// the Open scenario dialog goes to `toOpen`.
  void drawDialogs(float menuBarHeight, std::string& toOpen);
  /// The caption strip of a captured frame (level, tile set, the tool's status line).
  void drawCaption();

private:
  std::string nextScreenshotPath() const;
  Document& m_doc;
  Log& m_log;
  bool m_shotRequested = false, m_captureFrame = false;
  bool m_uiCapture = false;
  bool m_saveAsOpen = false;
  std::string m_saveAsPath;
  std::string m_toast;
  bool m_toastError = false;
  double m_toastUntil = 0;
  OpenFileDialog m_scenarioDialog{"Open scenario", {".json", ".png"}, "path/to/scenario.json or screenshot.png"};
  OpenFileDialog m_folderDialog{"Choose screenshot folder", {}, "path/to/folder (typed, or pick one above)",
                                OpenFileDialog::Mode::Folder};
};

} // namespace navbench
