// PanelLayout.cpp: where the viewer's panels go (see Panels.h), and which ones the user placed.
#include "app/panels/Panels.h"

#include <imgui.h>
#include <imgui_internal.h> // FindWindowByName, SetWindowPos/Size/Collapsed on a window, settings handlers

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace navbench {

namespace {

constexpr float kMargin = 10; // from the window's edges and between the Tools and the right column
constexpr float kGap = 4;     // between panels stacked in the right column
constexpr float kSmallHeight = 600; // under it the View and Log are collapsed
constexpr float kLogHeight = 110, kViewHeight = 320, kViewWidth = 260, kNavWidth = 290, kNavHeight = 380;
constexpr float kStepperWidth = 410, kStepperHeight = 215;
constexpr float kLogMinStrip = 200; // a narrower bottom strip puts the Log in the right column
// An on-demand panel is never laid out narrower or shorter than this (the region over the 3D view
// is split into at most as many columns and rows as keep them this big; beyond, they cascade).
constexpr float kOnDemandMinWidth = 240, kOnDemandMinHeight = 120;
constexpr float kOnDemandRoomyWidth = 360; // (a second column only where both are this wide)
constexpr float kOnDemandShare = 0.75f; // of that region's width, at most (the rest: the 3D view)

// The always-on panels placed here (ImGui window names).
const char* const kManaged[] = {"Tools", "Log", "View", "Navmesh", "A* stepper"};

// The panels opened on demand that are placed here, with the size each asks for (px; shrunk to
// share the free region). Others (Help, dialogs) open where their own code puts them.
struct OnDemand {
  const char* name;
  float w, h;
};
const OnDemand kOnDemand[] = {{"Check (F5)", 520, 440}, {"Why (F6)", 420, 300},     {"Agents (F7)", 440, 260},
                              {"Captured queries", 480, 420}, {"Test cases", 480, 420}, {"Bake", 400, 540}};

const OnDemand* onDemand(const std::string& name) {
  for (const OnDemand& o : kOnDemand)
    if (name == o.name) return &o;
  return nullptr;
}

bool managed(const char* name) {
  for (const char* m : kManaged)
    if (std::strcmp(m, name) == 0) return true;
  return onDemand(name) != nullptr;
}

/// The window named `name` if it was shown last frame (collapsed or not), else null.
ImGuiWindow* shown(const char* name) {
  ImGuiWindow* w = ImGui::FindWindowByName(name);
  return w && w->WasActive ? w : nullptr;
}

/// The window named `name` was shown collapsed last frame.
bool collapsed(const char* name) {
  const ImGuiWindow* w = shown(name);
  return w && w->Collapsed;
}

struct Box {
  float x, y, w, h;
};

/// Moves `w` (size `size`) inside the window below the menu bar, as far as it fits.
void clampInside(ImGuiWindow* w, ImVec2 p, const ImVec2& size, float vw, float vh, float menuBarHeight) {
  p.x = std::max(0.0f, std::min(p.x, vw - size.x));
  p.y = std::max(menuBarHeight, std::min(p.y, vh - size.y));
  ImGui::SetWindowPos(w, p, ImGuiCond_Always);
}

} // namespace

void PanelLayout::installIniHandler() {
  ImGuiSettingsHandler h;
  h.TypeName = "NavBench";
  h.TypeHash = ImHashStr("NavBench");
  // imgui.ini: "[NavBench][Panels]" with "UserPlaced=Tools,Log".
  h.ReadInitFn = [](ImGuiContext*, ImGuiSettingsHandler* handler) {
    static_cast<PanelLayout*>(handler->UserData)->m_iniSection = false;
  };
  h.ReadOpenFn = [](ImGuiContext*, ImGuiSettingsHandler* handler, const char* name) -> void* {
    if (std::strcmp(name, "Panels") != 0) return nullptr;
    static_cast<PanelLayout*>(handler->UserData)->m_iniSection = true;
    return handler->UserData;
  };
  // An imgui.ini from before the section: its panel places are kept (as ImGui did) for the panels
  // not where the layout puts them (see arrange()).
  h.ApplyAllFn = [](ImGuiContext* ctx, ImGuiSettingsHandler* handler) {
    auto* self = static_cast<PanelLayout*>(handler->UserData);
    self->m_iniPos.clear();
    if (self->m_iniSection) return;
    for (ImGuiWindowSettings* ws = ctx->SettingsWindows.begin(); ws != nullptr; ws = ctx->SettingsWindows.next_chunk(ws))
      self->m_iniPos.push_back(IniPos{ws->GetName(), float(ws->Pos.x), float(ws->Pos.y)});
  };
  h.ReadLineFn = [](ImGuiContext*, ImGuiSettingsHandler* handler, void*, const char* line) {
    auto* self = static_cast<PanelLayout*>(handler->UserData);
    const char* key = "UserPlaced=";
    if (std::strncmp(line, key, std::strlen(key)) != 0) return;
    std::string list(line + std::strlen(key));
    for (size_t p = 0; p < list.size();) {
      size_t c = list.find(',', p);
      if (c == std::string::npos) c = list.size();
      const std::string name = list.substr(p, c - p);
      if (!name.empty()) self->setPlaced(name, true);
      p = c + 1;
    }
  };
  h.WriteAllFn = [](ImGuiContext*, ImGuiSettingsHandler* handler, ImGuiTextBuffer* out) {
    const auto* self = static_cast<const PanelLayout*>(handler->UserData);
    out->appendf("[%s][Panels]\nUserPlaced=", handler->TypeName);
    for (size_t i = 0; i < self->m_user.size(); ++i) out->appendf("%s%s", i ? "," : "", self->m_user[i].c_str());
    out->append("\n\n");
  };
  h.UserData = this;
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(h);
}

bool PanelLayout::userPlaced(const std::string& name) const {
  return std::find(m_user.begin(), m_user.end(), name) != m_user.end();
}

void PanelLayout::resetUserPlaced() {
  if (m_user.empty()) return;
  m_user.clear();
  m_placed.clear(); // (placed again from this frame, not taken for the user's)
  if (ImGui::GetCurrentContext()) ImGui::MarkIniSettingsDirty();
}

void PanelLayout::setPlaced(const std::string& name, bool on) {
  const auto it = std::find(m_user.begin(), m_user.end(), name);
  if (on == (it != m_user.end())) return;
  if (on)
    m_user.push_back(name);
  else
    m_user.erase(it);
  if (ImGui::GetCurrentContext()) ImGui::MarkIniSettingsDirty();
}

PanelLayout::Placed* PanelLayout::placed(const std::string& name) {
  for (Placed& p : m_placed)
    if (p.name == name) return &p;
  return nullptr;
}

void PanelLayout::put(const char* name, float x, float y, float bw, float bh, bool sized) {
  ImGuiWindow* w = ImGui::FindWindowByName(name);
  if (!w || userPlaced(name)) return;
  const float vw = m_size[0], vh = m_size[1];
  const ImVec2 pos(std::floor(x), std::floor(y)), size(std::floor(bw), std::floor(bh));
  if (!placed(name)) // first placed: an older imgui.ini's place elsewhere was the user's
    for (const IniPos& ip : m_iniPos)
      if (ip.name == name && (std::abs(ip.x - pos.x) > 1 || std::abs(ip.y - pos.y) > 1)) {
        setPlaced(name, true);
        clampInside(w, w->Pos, w->Size, vw, vh, m_menuBarHeight);
        return;
      }
  ImGui::SetWindowPos(w, pos, ImGuiCond_Always);
  if (sized) ImGui::SetWindowSize(w, size, ImGuiCond_Always);
  note(name, pos.x, pos.y, w->SizeFull.x, w->SizeFull.y, sized);
}

void PanelLayout::note(const std::string& name, float x, float y, float w, float h, bool sized) {
  Placed* p = placed(name);
  if (!p) {
    m_placed.push_back(Placed{name, {0, 0}, {0, 0}, false});
    p = &m_placed.back();
  }
  *p = Placed{name, {x, y}, {w, h}, sized};
}

void PanelLayout::arrange(float menuBarHeight) {
  m_menuBarHeight = menuBarHeight;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float vw = vp->Size.x, vh = vp->Size.y;
  // (A minimised window can report a tiny size: nothing is moved for it, or all would pile up.)
  if (vw < 64 || vh < 64) return;

  // 1. The user's moves and resizes since the last frame: a dragged window (ImGui is moving it
  // and it moved), or a managed panel no longer where (or as big as) it was put.
  if (g.MovingWindow && g.MovingWindow->RootWindow && (g.IO.MouseDelta.x != 0 || g.IO.MouseDelta.y != 0) &&
      !std::strchr(g.MovingWindow->RootWindow->Name, ',')) // (a comma would split it in imgui.ini)
    setPlaced(g.MovingWindow->RootWindow->Name, true);
  // (Only while the user holds something: ImGui's own clamping of a window left outside is not theirs.)
  std::vector<const char*> all(std::begin(kManaged), std::end(kManaged));
  for (const OnDemand& o : kOnDemand) all.push_back(o.name);
  for (const char* name : all) {
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    const Placed* p = placed(name);
    if (!w || !p || userPlaced(name) || (g.ActiveId == 0 && !g.MovingWindow)) continue;
    const bool moved = std::abs(w->Pos.x - p->pos[0]) > 0.5f || std::abs(w->Pos.y - p->pos[1]) > 0.5f;
    const bool resized = p->sized && (std::abs(w->SizeFull.x - p->size[0]) > 0.5f || std::abs(w->SizeFull.y - p->size[1]) > 0.5f);
    if (moved || resized) setPlaced(name, true);
  }

  // 2. The window size changed: the panels the user placed stay (clamped inside the window); other
  // windows opened on demand keep their distance to the nearest corner. Crossing 600 px high
  // collapses or expands the View and Log (as they start at that size) unless the user placed them.
  // (The second frame too: the first made the windows, at their imgui.ini places for a window
  // size that may have been larger.)
  const bool resized = m_size[0] > 0 && (vw != m_size[0] || vh != m_size[1]);
  const bool second = m_frames++ == 1;
  if (resized || second) {
    for (ImGuiWindow* w : g.Windows) {
      if (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup |
                      ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoMove))
        continue;
      const bool user = userPlaced(w->Name);
      if (managed(w->Name) && !user) continue; // placed below
      // (A panel of the user's bigger than the window now: as big as the window, to be reachable.)
      ImVec2 size = w->Size;
      if (user && !(w->Flags & ImGuiWindowFlags_AlwaysAutoResize) &&
          (w->SizeFull.x > vw - 2 * kMargin || w->SizeFull.y > vh - menuBarHeight - kMargin)) {
        const ImVec2 full(std::min(w->SizeFull.x, std::max(vw - 2 * kMargin, 64.0f)),
                          std::min(w->SizeFull.y, std::max(vh - menuBarHeight - kMargin, 64.0f)));
        ImGui::SetWindowSize(w, full, ImGuiCond_Always);
        size = ImVec2(full.x, w->Collapsed ? w->Size.y : full.y);
      }
      ImVec2 p = w->Pos;
      if (!user && resized) {
        if (p.x + size.x * 0.5f > m_size[0] * 0.5f) p.x += vw - m_size[0];
        if (p.y + size.y * 0.5f > m_size[1] * 0.5f) p.y += vh - m_size[1];
      }
      clampInside(w, p, size, vw, vh, menuBarHeight);
    }
    const bool small = vh < kSmallHeight;
    if (resized && small != (m_size[1] < kSmallHeight))
      for (const char* name : {"View", "Log"})
        if (ImGuiWindow* w = ImGui::FindWindowByName(name); w && !userPlaced(name)) ImGui::SetWindowCollapsed(w, small, ImGuiCond_Always);
  }
  m_size[0] = vw;
  m_size[1] = vh;
  // A panel of the user's that grew past the window's edge (a scrollbar appeared when it got
  // taller than the window) is pushed back inside.
  for (const std::string& name : m_user)
    if (ImGuiWindow* w = ImGui::FindWindowByName(name.c_str());
        w && (w->Pos.x + w->Size.x > vw + 0.5f || w->Pos.y + w->Size.y > vh + 0.5f))
      clampInside(w, w->Pos, w->Size, vw, vh, menuBarHeight);

  // 3. The places, from the last frame's panels (a panel the user placed still takes its room).
  auto put = [&](const char* name, const Box& b, bool sized) { this->put(name, b.x, b.y, b.w, b.h, sized); };
  const float titleH = ImGui::GetFrameHeight();
  const float top = menuBarHeight;

  // Tools: the left column.
  const ImGuiWindow* tools = shown("Tools");
  put("Tools", Box{kMargin, top + 8, 0, 0}, false);
  float toolsRight = 0, toolsBottom = 0;
  if (tools && tools->Pos.x < vw * 0.5f) { // (one the user took to the right half leaves the column free)
    toolsRight = tools->Pos.x + tools->Size.x;
    toolsBottom = tools->Pos.y + tools->Size.y;
  }
  // The right column, right of the Tools panel (a window too narrow for it: the whole width).
  float colX = toolsRight + kMargin;
  if (vw - kMargin - colX < 150) colX = kMargin;
  const float colW = vw - kMargin - colX;
  float y = top + kMargin;
  if (const ImGuiWindow* stats = shown("##stats")) y = std::max(y, stats->Pos.y + stats->Size.y + 3);

  if (const ImGuiWindow* st = shown("A* stepper")) {
    const float w = std::min(kStepperWidth, colW);
    const float h = std::clamp(std::floor(vh * 0.36f), 120.0f, kStepperHeight);
    const Box b{vw - kMargin - w, y, w, h};
    put("A* stepper", b, true);
    y = (userPlaced("A* stepper") ? st->Pos.y + st->Size.y : b.y + b.h) + kGap;
  }
  if (const ImGuiWindow* nav = shown("Navmesh")) { // (collapsed until the user opens it)
    const float w = std::min(kNavWidth, colW);
    const float h = std::max(std::min(kNavHeight, vh - kMargin - y), 4 * titleH);
    put("Navmesh", Box{vw - kMargin - w, y, w, h}, true);
    if (!userPlaced("Navmesh")) y += (nav->Collapsed ? titleH : h) + kGap;
  }

  // The View panel's corner and the Log's strip.
  const ImGuiWindow* view = shown("View");
  const ImGuiWindow* log = shown("Log");
  const float viewW = std::min(kViewWidth, colW), viewX = vw - kMargin - viewW;
  const float logH = log && log->Collapsed ? titleH : kLogHeight;
  const float logY = vh - kMargin - logH;
  const float stripX0 = toolsBottom > logY - kMargin ? toolsRight + kMargin : kMargin;
  const float stripX1 = view ? viewX - kMargin : vw - kMargin;
  const bool inStrip = stripX1 - stripX0 >= kLogMinStrip;
  float viewBottom = vh - kMargin;
  Box logBox{0, 0, 0, 0};
  if (log) {
    // (No right column, a window under ~470 px wide: the whole bottom, inside the window.)
    const Box b = inStrip             ? Box{stripX0, logY, stripX1 - stripX0, kLogHeight}
                  : colX > kMargin    ? Box{colX, logY, colW, kLogHeight}
                                      : Box{kMargin, logY, std::max(vw - 2 * kMargin, 32.0f), kLogHeight};
    put("Log", b, true);
    if (!userPlaced("Log")) logBox = b;
    if (!inStrip && colX > kMargin && !userPlaced("Log")) viewBottom = logY - kGap;
  }
  if (view) {
    float vy = view->Collapsed ? viewBottom - titleH : std::max(viewBottom - kViewHeight, y);
    if (!view->Collapsed) vy = std::min(vy, viewBottom - 4 * titleH); // never shorter than a few lines
    put("View", Box{viewX, vy, viewW, view->Collapsed ? kViewHeight : viewBottom - vy}, true);
  }

  // 4. The panels opened on demand, in the order they were opened (oldest first), share the region
  // over the 3D view right of the Tools, left of the right column and above the Log.
  for (const OnDemand& o : kOnDemand) {
    const auto it = std::find(m_opened.begin(), m_opened.end(), o.name);
    const bool open = shown(o.name) != nullptr;
    if (open && it == m_opened.end()) m_opened.push_back(o.name);
    if (!open && it != m_opened.end()) m_opened.erase(it);
  }
  float rx0 = toolsRight > 0 ? toolsRight + kMargin : kMargin, rx1 = vw - kMargin;
  for (const char* name : {"##stats", "A* stepper", "Navmesh", "View"})
    if (const ImGuiWindow* w = shown(name); w && !userPlaced(name) && w->Pos.x > rx0) rx1 = std::min(rx1, w->Pos.x - kMargin);
  float ry0 = top + 8, ry1 = vh - kMargin;
  if (logBox.w > 0 && logBox.x < rx1 && logBox.x + logBox.w > rx0) ry1 = std::min(ry1, logBox.y - kMargin);
  // A panel the user put in that region leaves the largest part of it right, above, left or below it.
  for (const char* name : all) {
    const ImGuiWindow* u = shown(name);
    if (!u || !userPlaced(name)) continue;
    const float ux0 = u->Pos.x - kMargin, uy0 = u->Pos.y - kMargin;
    const float ux1 = u->Pos.x + u->Size.x + kMargin, uy1 = u->Pos.y + u->Size.y + kMargin;
    if (ux1 <= rx0 || ux0 >= rx1 || uy1 <= ry0 || uy0 >= ry1) continue;
    const Box parts[] = {{std::max(ux1, rx0), ry0, rx1 - std::max(ux1, rx0), ry1 - ry0},
                         {rx0, ry0, rx1 - rx0, std::min(uy0, ry1) - ry0},
                         {rx0, ry0, std::min(ux0, rx1) - rx0, ry1 - ry0},
                         {rx0, std::max(uy1, ry0), rx1 - rx0, ry1 - std::max(uy1, ry0)}};
    const Box* best = &parts[0];
    for (const Box& b : parts)
      if (std::max(b.w, 0.0f) * std::max(b.h, 0.0f) > std::max(best->w, 0.0f) * std::max(best->h, 0.0f)) best = &b;
    rx0 = best->x;
    ry0 = best->y;
    rx1 = best->x + std::max(best->w, 0.0f);
    ry1 = best->y + std::max(best->h, 0.0f);
  }
  m_region = Region{true, rx0, rx1, ry0, ry1, top, titleH};
  layOutOnDemand(nullptr);
}

void PanelLayout::placeOnDemand(const char* name) {
  if (!m_region.valid || !onDemand(name) || userPlaced(name) ||
      std::find(m_opened.begin(), m_opened.end(), name) != m_opened.end())
    return;
  // (Opened this frame: laid out with the others now, so that it is in its place from its first
  // frame, not a frame later, where a click may already be on its way.)
  m_opened.push_back(name);
  layOutOnDemand(name);
}

void PanelLayout::layOutOnDemand(const char* opening) {
  const float vw = m_size[0], vh = m_size[1];
  const float rx0 = m_region.x0, rx1 = m_region.x1, ry0 = m_region.y0, ry1 = m_region.y1;
  const float top = m_region.top, titleH = m_region.titleH;
  const float rw = rx1 - rx0, rh = ry1 - ry0;
  // The panel opening this frame has no window yet (or one not shown last frame): its place is
  // given to its Begin, which comes next.
  auto put = [&](const char* name, const Box& b, bool) {
    if (opening && std::strcmp(name, opening) == 0) {
      const ImVec2 pos(std::floor(b.x), std::floor(b.y)), size(std::floor(b.w), std::floor(b.h));
      ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
      ImGui::SetNextWindowSize(size, ImGuiCond_Always);
      note(name, pos.x, pos.y, size.x, size.y, true);
    } else {
      this->put(name, b.x, b.y, b.w, b.h, true);
    }
  };
  struct Item {
    const char* name;
    float w, h; // asked for
    bool collapsed;
  };
  std::vector<Item> items;
  for (const std::string& name : m_opened)
    if (!userPlaced(name))
      if (const OnDemand* o = onDemand(name)) items.push_back(Item{o->name, o->w, o->h, collapsed(o->name)});
  if (items.empty()) return;

  // Columns filled right to left, each top down with the next panels in opening order; a column is
  // as wide as its widest panel asks (at most its share of kOnDemandShare of the region, which
  // leaves the rest of the 3D view in sight), its panels as tall as they ask, all shrunk by one
  // factor where they do not fit. Chosen: the fewest columns that keep every panel at least
  // kOnDemandRoomyWidth wide and half as tall as it asks, else the fewest that keep every panel
  // at least kOnDemandMinWidth x kOnDemandMinHeight.
  const size_t n = items.size();
  const float usable = std::min(rw, std::max(kOnDemandMinWidth, rw * kOnDemandShare));
  // Lays out `c` columns if every panel keeps `minW` x max(minH, `minShare` of its height) (`place`: puts them).
  auto columns = [&](size_t c, float minW, float minShare, bool place) {
    const float maxColW = (usable - float(c - 1) * kGap) / float(c);
    if (maxColW < minW || rh < kOnDemandMinHeight) return false;
    const size_t rows = (n + c - 1) / c;
    std::vector<float> scale(c, 1.0f), colWs(c, 0.0f);
    for (size_t k = 0; k < c; ++k) {
      const size_t i0 = k * rows, i1 = std::min(n, (k + 1) * rows);
      float asked = 0, fixed = 0;
      for (size_t i = i0; i < i1; ++i) {
        if (items[i].collapsed)
          fixed += titleH;
        else
          asked += items[i].h;
        colWs[k] = std::max(colWs[k], std::min(items[i].w, maxColW));
      }
      const float room = rh - fixed - float(i1 > i0 ? i1 - i0 - 1 : 0) * kGap;
      if (asked > room) scale[k] = room / asked;
      for (size_t i = i0; i < i1; ++i)
        if (!items[i].collapsed && items[i].h * scale[k] < std::max(kOnDemandMinHeight, items[i].h * minShare)) return false;
    }
    if (!place) return true;
    float right = rx1;
    for (size_t k = 0; k < c; ++k) {
      float py = ry0;
      for (size_t i = k * rows; i < std::min(n, (k + 1) * rows); ++i) {
        const float h = items[i].collapsed ? items[i].h : std::floor(items[i].h * scale[k]);
        put(items[i].name, Box{right - colWs[k], py, colWs[k], h}, true);
        py += (items[i].collapsed ? titleH : h) + kGap;
      }
      right -= colWs[k] + kGap;
    }
    return true;
  };
  for (const auto& [minW, minShare] : {std::pair{kOnDemandRoomyWidth, 0.5f}, std::pair{kOnDemandMinWidth, 0.0f}})
    for (size_t c = 1; c <= n; ++c)
      if (columns(c, minW, minShare, false)) {
        columns(c, minW, minShare, true);
        return;
      }
  // No room for them side by side (a small window, or many open): each newer one over the one
  // before, a title bar lower (the older ones' title bars stay in sight, a click brings one to the
  // front), from the top right corner of the region, else of the room right of the Tools panel
  // (over the right column), else of the window.
  float cx0 = rx0, cx1 = rx1, cy0 = ry0, cy1 = ry1;
  if (rw < kOnDemandMinWidth || rh < kOnDemandMinHeight) {
    cx1 = vw - kMargin;
    if (rh < kOnDemandMinHeight) cy1 = vh - kMargin;
    if (cx1 - cx0 < kOnDemandMinWidth || cy1 - cy0 < kOnDemandMinHeight) {
      cx0 = 0;
      cx1 = vw;
      cy0 = top;
      cy1 = vh;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const float py = std::min(cy0 + float(i) * titleH, std::max(cy0, cy1 - 4 * titleH));
    const float w = std::min(items[i].w, cx1 - cx0), h = std::max(std::min(items[i].h, cy1 - py), 4 * titleH);
    put(items[i].name, Box{cx1 - w, py, w, items[i].collapsed ? items[i].h : h}, true);
  }
}

} // namespace navbench
