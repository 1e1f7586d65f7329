// AppOptions.h: what the viewer is started with (the command line, app/main.cpp): files to open,
// headless screenshot and benchmark runs, and the scripted input of headless tests.
#pragma once

#include <string>
#include <vector>

namespace navbench {

struct AppOptions {
  std::string levelPath;      ///< Opened at start ("" = empty scene): .obj, level .json or .bin.
  std::string navPath;        ///< A tile set (.bin) opened after levelPath ("" = the .bin next to the level, if any).
  std::string toolName;       ///< Tool activated at start (its name, e.g. "Pathfind Follow"; "" = the first).
  std::string dumpStatePath;  ///< Headless: write the app + active tool state as JSON here at exit.
  bool shortest = false;      ///< Tester modes with a path show the exact shortest path too (--shortest).
  bool allOverlays = false;   ///< Every navmesh drawing toggle on (detail mesh, BV tree...), for measurements.
  /// Headless frame benchmark: after loading (and any load-time bake), turn every overlay on, set
  /// a path on the active tester tool (the two ground polys furthest apart along x+z), render 3
  /// warm-up frames then this many, print one "bench: ..." line with CPU ms per frame
  /// (mean/min/max) and debug draw calls / vertices, and exit. 0 = off.
  int benchFrames = 0;
  std::string screenshotPath; ///< Non-empty: headless screenshot mode.
  int width = 1280, height = 720;
  bool sizeGiven = false;     ///< --size was passed (otherwise the saved window size is used).
  int screenshotFrames = 4;   ///< Frames rendered before the screenshot is taken.
  /// Scripted clicks (window pixels), replayed as real SDL input over three frames each (move,
  /// press, release) after the first frame: they hit ImGui widgets like the mouse would, or else
  /// pick the level (ray -> level hit -> active tool). For headless screenshots and tests.
  /// A drag (--drag) presses at (x, y) and holds the button while the mouse moves, a step a frame,
  /// to (toX, toY), where it is released (ImGui moves a panel taken by its title bar or an empty
  /// part; a tool that takes drags sees the intermediate points; ScriptDriver.h has the frames).
  struct Click {
    float x, y;
    bool shift;
    bool drag = false;
    bool right = false; ///< --click X,Y,right: the right button (a tool's onRightClick).
    float toX = 0, toY = 0;
  };
  std::vector<Click> clicks;
  /// Keys pressed after the clicks, one every two frames (down, then up), as real SDL key events:
  /// an SDL key name with optional "ctrl+", "shift+", "alt+" prefixes ("ctrl+z", "ctrl+shift+z",
  /// "space"). For headless tests of keyboard shortcuts (undo/redo...). An entry starting with
  /// kTypePrefix is text typed instead (--type: SDL_TEXTINPUT events, as a keyboard would send).
  std::vector<std::string> keys;
  static constexpr const char* kTypePrefix = "text:";
  /// --hover X,Y: after the clicks and keys the mouse rests on window pixel (X, Y) until the run
  /// ends (the Navmesh panel's hovered poly, the A* Stepper's hovered node and its tooltip).
  bool hover = false;
  float hoverX = 0, hoverY = 0;
  /// --ask-moved: headless runs ask for a scenario's moved files (the modal) like the interactive
  /// viewer, instead of failing; the script (--type, --key return / escape) answers it.
  bool askMoved = false;
  /// --resize WxH: after the first frame the window is resized to WxH (as dragging its border).
  int resizeW = 0, resizeH = 0;
  int resizeAfterClicks = 0; ///< --resize given after this many --click/--drag: resized after them.
  /// Files "dropped" on the window after the first frame (real SDL_DROPFILE events).
  std::vector<std::string> drops;
  /// Headless: at exit, save the current scenario here (--save-scenario), as File > Save would.
  std::string saveScenarioPath;
  /// Folder of F12 screenshots ("" = ./screenshots) (--screenshot-dir).
  std::string screenshotDir;
  bool caption = false;  ///< Screenshots get a caption strip: level, start/end, status, path length (--caption).
  bool viewOnly = false; ///< Screenshots show the 3D view only, no panels (--view-only).
  /// --recover: the level's recovery journal (app/model/Recovery.h), if any, is restored without
  /// asking (headless too).
  bool recover = false;
};

} // namespace navbench
