// ScriptDriver.h: the scripted input of headless runs and tests (--click, --drag, --key, --type,
// --hover, --resize, --drop), replayed as real SDL events so that it goes through the same paths
// as a person's mouse and keyboard: ImGui widgets, picking, shortcuts.
//
// Timeline, in frames (frame 0 is the first, before any input):
//   frame 1                    --drop files and, unless given after clicks, --resize
//   from frame 1, in order:
//     3 frames per click       move there, press, release (X,Y,right uses the right button)
//     3 + kDragMoves per drag  move there, press, kDragMoves frames of motion (button held) along
//                              the way to its end point, release there
//   then 2 frames per entry    --key (down, up) or --type (text input events), in the order given
//   then                       --hover: the mouse rests on its pixel until the end
#pragma once

#include "app/AppOptions.h"

#include <SDL.h>

#include <string>

namespace navbench {

class ScriptDriver {
public:
  /// Mouse motion events (one a frame) between a drag's press and release.
  static constexpr int kDragMoves = 6;

  explicit ScriptDriver(const AppOptions& options) : m_opt(options) {}
  /// Checks every --key name; false with a message naming the first unknown one.
  bool check(std::string& error) const;
  /// Pushes frame `frame`'s scripted events to `window` (before the frame polls its events).
  void run(int frame, SDL_Window* window);
  /// After ImGui's new frame for the platform: a scripted mouse overrides ImGui's mouse position
  /// and left button (SDL cannot move the mouse of an offscreen window).
  void applyMouse() const;
  /// A scripted click, drag or hover holds the mouse this frame, at (mouseX(), mouseY()).
  bool mouseActive() const { return m_mouse; }
  float mouseX() const { return m_mouseX; }
  float mouseY() const { return m_mouseY; }
  /// Shift was held for the scripted click being released (--click X,Y,shift).
  bool shift() const { return m_shift; }
  /// Frames a headless run needs before its screenshot: every scripted input done, at least
  /// --frames.
  int framesNeeded() const;
  /// "ctrl+shift+z" -> SDLK_z + KMOD_LCTRL | KMOD_LSHIFT; false for an unknown key or modifier.
  static bool parseKey(const std::string& name, SDL_Keycode& sym, Uint16& mod);

private:
  static int inputFrames(const AppOptions::Click& c);
  /// Frames taken by the first `n` clicks and drags.
  int clickFrames(size_t n) const;
  void typeText(SDL_Window* window);
  const AppOptions& m_opt;
  bool m_shift = false;
  bool m_right = false; ///< The scripted click being pressed uses the right button.
  bool m_mouse = false, m_mouseDown = false;
  float m_mouseX = 0, m_mouseY = 0;
  std::string m_text; ///< --type text not sent yet (waits for a text field to be active).
  int m_textWait = 0;
};

} // namespace navbench
