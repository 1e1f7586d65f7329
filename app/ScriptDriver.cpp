#include "app/ScriptDriver.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

namespace navbench {

bool ScriptDriver::check(std::string& error) const {
  for (const std::string& k : m_opt.keys) {
    if (k.rfind(AppOptions::kTypePrefix, 0) == 0) continue; // --type text
    SDL_Keycode sym;
    Uint16 mod;
    if (!parseKey(k, sym, mod)) {
      error = "--key: unknown key '" + k + "' (an SDL key name, optionally after ctrl+, shift+, alt+)";
      return false;
    }
  }
  return true;
}

int ScriptDriver::inputFrames(const AppOptions::Click& c) { return c.drag ? 3 + kDragMoves : 3; }

int ScriptDriver::clickFrames(size_t n) const {
  int frames = 0;
  for (size_t i = 0; i < n && i < m_opt.clicks.size(); ++i) frames += inputFrames(m_opt.clicks[i]);
  return frames;
}

int ScriptDriver::framesNeeded() const {
  return std::max(m_opt.screenshotFrames,
                  3 + clickFrames(m_opt.clicks.size()) + 2 * int(m_opt.keys.size()) + (m_opt.hover ? 3 : 0));
}

void ScriptDriver::applyMouse() const {
  if (!m_mouse) return;
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(m_mouseX, m_mouseY);
  io.MouseDown[0] = m_mouseDown && !m_right;
  io.MouseDown[1] = m_mouseDown && m_right;
}

bool ScriptDriver::parseKey(const std::string& name, SDL_Keycode& sym, Uint16& mod) {
  std::string rest = name;
  mod = KMOD_NONE;
  for (;;) {
    const size_t plus = rest.find('+');
    if (plus == std::string::npos || plus + 1 == rest.size()) break;
    std::string m = rest.substr(0, plus);
    std::transform(m.begin(), m.end(), m.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (m == "ctrl") mod = Uint16(mod | KMOD_LCTRL);
    else if (m == "shift") mod = Uint16(mod | KMOD_LSHIFT);
    else if (m == "alt") mod = Uint16(mod | KMOD_LALT);
    else return false;
    rest = rest.substr(plus + 1);
  }
  sym = SDL_GetKeyFromName(rest.c_str());
  return sym != SDLK_UNKNOWN;
}

void ScriptDriver::typeText(SDL_Window* window) {
  // A text field focused by a dialog that just opened is active from its next frame or so: the
  // text waits for one (as a person would), at most a few frames.
  if (m_text.empty() || (!ImGui::GetIO().WantTextInput && ++m_textWait <= 6)) return;
  const std::string& text = m_text;
  for (size_t i = 0; i < text.size();) { // chunks that fit the event, split between UTF-8 characters
    size_t n = std::min(text.size() - i, sizeof(SDL_TextInputEvent::text) - 1);
    while (n > 1 && i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) --n;
    SDL_Event ev{};
    ev.type = SDL_TEXTINPUT;
    ev.text.windowID = SDL_GetWindowID(window);
    std::memcpy(ev.text.text, text.data() + i, n);
    SDL_PushEvent(&ev);
    i += n;
  }
  m_text.clear();
}

void ScriptDriver::run(int frame, SDL_Window* window) {
  typeText(window); // --type text still waiting for its field
  if (frame == 1 + clickFrames(size_t(m_opt.resizeAfterClicks)) && m_opt.resizeW > 0) SDL_SetWindowSize(window, m_opt.resizeW, m_opt.resizeH);
  if (frame == 1) {
    for (const std::string& f : m_opt.drops) {
      SDL_Event drop{};
      drop.type = SDL_DROPFILE;
      drop.drop.file = SDL_strdup(f.c_str()); // freed by the handler, as SDL's own drops
      drop.drop.windowID = SDL_GetWindowID(window);
      SDL_PushEvent(&drop);
    }
  }
  // Click i: its first frame moves the mouse there (so ImGui knows what is hovered), the next
  // presses the left button, the one after releases it. A drag holds the button from the press
  // through kDragMoves frames of mouse motion, evenly along the way to its end point (the last one
  // on it), as a hand moves a mouse, then releases it there.
  // SDL cannot move the mouse of an offscreen window, so ImGui's mouse state is set directly
  // (the pre-1.87 input API) while the button and motion events go through SDL's queue as usual.
  const int step = frame - 1;
  m_mouse = false;
  const int keyStep = step - clickFrames(m_opt.clicks.size());
  if (keyStep >= 0 && keyStep / 2 < int(m_opt.keys.size()) &&
      m_opt.keys[size_t(keyStep / 2)].rfind(AppOptions::kTypePrefix, 0) == 0) { // --type: text input events
    if (keyStep % 2 == 0) {
      m_text += m_opt.keys[size_t(keyStep / 2)].substr(std::strlen(AppOptions::kTypePrefix));
      m_textWait = 0;
      typeText(window);
    }
    return;
  }
  if (m_opt.hover && keyStep >= 0) { // --hover: the mouse rests there through the keys and after them
    m_mouse = true;
    m_mouseX = m_opt.hoverX;
    m_mouseY = m_opt.hoverY;
    m_mouseDown = false;
    if (keyStep >= 2 * int(m_opt.keys.size())) return;
  }
  if (keyStep >= 0 && keyStep / 2 < int(m_opt.keys.size())) {
    SDL_Keycode sym = SDLK_UNKNOWN;
    Uint16 mod = KMOD_NONE;
    parseKey(m_opt.keys[size_t(keyStep / 2)], sym, mod);
    SDL_Event ev{};
    ev.type = keyStep % 2 == 0 ? SDL_KEYDOWN : SDL_KEYUP;
    ev.key.windowID = SDL_GetWindowID(window);
    ev.key.state = keyStep % 2 == 0 ? SDL_PRESSED : SDL_RELEASED;
    ev.key.keysym.sym = sym;
    ev.key.keysym.scancode = SDL_GetScancodeFromKey(sym);
    ev.key.keysym.mod = mod;
    SDL_PushEvent(&ev);
    return;
  }
  if (step < 0 || keyStep >= 0) return;
  // Which input this frame belongs to, and which of its frames it is.
  size_t input = 0;
  int sub = step;
  while (sub >= inputFrames(m_opt.clicks[input])) sub -= inputFrames(m_opt.clicks[input++]);
  const AppOptions::Click& c = m_opt.clicks[input];
  const int last = inputFrames(c) - 1; // the release
  const int x = int(std::lround(c.x)), y = int(std::lround(c.y));
  m_mouse = true;
  m_mouseX = float(x);
  m_mouseY = float(y);
  m_mouseDown = sub >= 1 && sub < last;
  m_shift = c.shift;
  m_right = c.right && !c.drag;
  if (c.drag && sub >= 2) { // moving with the button held, then released at the end point
    // Motion i of kDragMoves (1..) is at pixel along(i); motion 1 starts from the press.
    auto along = [&](int i, int axis) {
      const float t = float(std::min(i, kDragMoves)) / float(kDragMoves);
      return axis == 0 ? int(std::lround(float(x) + (c.toX - float(x)) * t)) : int(std::lround(float(y) + (c.toY - float(y)) * t));
    };
    m_mouseX = float(along(sub - 1, 0));
    m_mouseY = float(along(sub - 1, 1));
    if (sub < last) {
      SDL_Event ev{};
      ev.type = SDL_MOUSEMOTION;
      ev.motion.windowID = SDL_GetWindowID(window);
      ev.motion.state = SDL_BUTTON_LMASK;
      ev.motion.x = along(sub - 1, 0);
      ev.motion.y = along(sub - 1, 1);
      ev.motion.xrel = ev.motion.x - along(sub - 2, 0);
      ev.motion.yrel = ev.motion.y - along(sub - 2, 1);
      SDL_PushEvent(&ev);
      return;
    }
    m_mouseDown = true; // the button still held at the end point for ImGui, released there
  }
  if (sub == 0) return;
  SDL_Event ev{};
  ev.type = sub == 1 ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
  ev.button.windowID = SDL_GetWindowID(window);
  ev.button.button = m_right ? SDL_BUTTON_RIGHT : SDL_BUTTON_LEFT;
  ev.button.state = sub == 1 ? SDL_PRESSED : SDL_RELEASED;
  ev.button.clicks = 1;
  ev.button.x = int(std::lround(m_mouseX));
  ev.button.y = int(std::lround(m_mouseY));
  SDL_PushEvent(&ev);
}

} // namespace navbench
