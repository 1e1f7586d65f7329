// Viewer usability, driven through the real navbench binary headless (SDL_VIDEODRIVER=offscreen)
// with scripted input (--click, --drag, --key, --type, --hover, --resize) and read back with --dump-state:
//  - Layout: no panel covers another at 1280x720 in any tool mode, at 1920x1080, in a short
//    window (the Tools panel scrolls), in small windows (640x480 to 1000x700) with the A* stepper
//    window open, and after the window is resized either way; a panel the user dragged (--drag)
//    keeps its place across resizes (clamped inside), a mere click on it does not pin it. The
//    panels opened on demand (Check, Why, Agents, Captured queries) cover none of the others at
//    1280x720 and 1920x1080, stack in the order they were opened, cascade (title bars in sight)
//    in an 800x600 window, and one the user dragged keeps its place until Reset panel layout.
//  - Hover: the mouse resting on the level gives the hovered poly (Navmesh panel) and the A*
//    Stepper's hovered node (its tooltip); over a panel or the background, nothing.
//  - Moved files: a scenario whose level and tile set moved opens the "Scenario files not found"
//    dialog listing them; typing the new place (the tile set is found beside it) restores the
//    scenario; Cancel changes nothing.
//  - Screenshot folder: chosen in the folder dialog (File > Screenshot folder...), F12 writes
//    there; a folder that cannot be made or is a file: a message naming it, no crash.
#include "ViewerRun.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string q(const std::string& s) { return "'" + s + "'"; }

fs::path tmpRoot() {
  const fs::path p = fs::path(NAVBENCH_TEST_TMP);
  fs::create_directories(p);
  return p;
}

using navbench::test::AppRun;

/// Runs navbench with `args` from `cwd` (a screenshot ends the run), dumping its state.
AppRun runApp(const std::string& args, const std::string& tag, const std::string& cwd = std::string()) {
  const fs::path dir = tmpRoot();
  return navbench::test::runViewer(NAVBENCH_EXE, args,
                                   {(dir / (tag + ".png")).string(), (dir / (tag + ".json")).string(),
                                    (dir / ("config_" + tag)).string(), cwd});
}

const std::string kLevel = q(NAVBENCH_DEFAULT_LEVEL);
// Start on the floor in front of the central block, end on the upper floor behind it (1280x720,
// default camera), as in StepperGuiTest.
const std::string kClicks = "--click 680,420,shift --click 700,180";
const std::string kClicks1080 = "--click 1020,630,shift --click 1050,270"; // the same points at 1920x1080

struct Rect {
  std::string name;
  float x0, y0, x1, y1;
};

/// The dumped windows a user sees as panels (not the menu bar, popups or tooltips).
std::vector<Rect> panels(const json& state) {
  std::vector<Rect> out;
  for (const json& w : state["windows"]) {
    const std::string name = w["name"];
    if (name == "##MainMenuBar" || w["popup"].get<bool>()) continue;
    const float x = w["x"], y = w["y"], ww = w["w"], h = w["h"];
    out.push_back({name, x, y, x + ww, y + h});
  }
  return out;
}

/// The panel named `name` in `rs` (a pointer into rs: keep rs alive), or null.
const Rect* find(const std::vector<Rect>& rs, const std::string& name) {
  for (const Rect& r : rs)
    if (r.name == name) return &r;
  return nullptr;
}

/// The panel named `name` in a run's dumped state, if it is there.
std::optional<Rect> panel(const json& state, const std::string& name) {
  const std::vector<Rect> rs = panels(state);
  const Rect* r = find(rs, name);
  return r ? std::optional<Rect>(*r) : std::nullopt;
}

/// No two panels intersect and each lies inside the window.
void expectNoOverlap(const AppRun& r, const std::string& what) {
  ASSERT_EQ(r.exitCode, 0) << what << "\n" << r.output;
  ASSERT_TRUE(r.state.is_object()) << what << "\n" << r.output;
  const float vw = r.state["viewport"][0], vh = r.state["viewport"][1];
  const std::vector<Rect> ps = panels(r.state);
  ASSERT_NE(find(ps, "Tools"), nullptr) << what;
  ASSERT_NE(find(ps, "Log"), nullptr) << what;
  for (size_t i = 0; i < ps.size(); ++i) {
    const Rect& a = ps[i];
    EXPECT_TRUE(a.x0 >= 0 && a.y0 >= 0 && a.x1 <= vw + 0.5f && a.y1 <= vh + 0.5f)
        << what << ": " << a.name << " (" << a.x0 << "," << a.y0 << ")-(" << a.x1 << "," << a.y1 << ") leaves the "
        << vw << "x" << vh << " window";
    for (size_t j = i + 1; j < ps.size(); ++j) {
      const Rect& b = ps[j];
      const bool overlap = a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
      EXPECT_FALSE(overlap) << what << ": " << a.name << " (" << a.x0 << "," << a.y0 << ")-(" << a.x1 << "," << a.y1
                            << ") covers " << b.name << " (" << b.x0 << "," << b.y0 << ")-(" << b.x1 << "," << b.y1 << ")";
    }
  }
}

/// The tool names, from the viewer's own refusal of an unknown one.
std::vector<std::string> toolNames() {
  const navbench::test::CommandResult r = navbench::test::runCommand(
      navbench::test::headlessEnv((tmpRoot() / "config_tools").string()) + q(NAVBENCH_EXE) +
      " --tool 'no such tool' --screenshot " + q((tmpRoot() / "tools.png").string()));
  std::vector<std::string> names;
  const size_t at = r.output.find("(tools: ");
  if (at == std::string::npos) return names;
  const size_t end = r.output.find(')', at);
  std::string list = r.output.substr(at + 8, end - at - 8);
  for (size_t p = 0; p <= list.size();) {
    size_t c = list.find(", ", p);
    if (c == std::string::npos) c = list.size();
    names.push_back(list.substr(p, c - p));
    p = c + 2;
  }
  return names;
}

/// runApp, then expectNoOverlap(run, what).
AppRun runLaidOut(const std::string& args, const std::string& tag, const std::string& what) {
  AppRun r = runApp(args, tag);
  expectNoOverlap(r, what);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Layout

TEST(ViewerLayout, NoPanelCoversAnotherInAnyToolModeAt720p) {
  const std::vector<std::string> tools = toolNames();
  ASSERT_GE(tools.size(), 5u) << "could not read the tool list";
  ASSERT_NE(std::find(tools.begin(), tools.end(), "A* Stepper"), tools.end());
  for (const std::string& t : tools) {
    const AppRun r = runLaidOut(kLevel + " --tool " + q(t) + " --size 1280x720 " + kClicks, "layout720", t + " at 1280x720");
    EXPECT_EQ(r.state["activeTool"], t);
  }
}

TEST(ViewerLayout, TheLogMakesRoomWhenAnotherModeGrowsTheToolsPanel) {
  // Pick's short Tools panel leaves the Log the whole bottom strip; clicking the A* Stepper's radio
  // button grows the Tools panel down into that strip: the Log moves beside it.
  const AppRun pick = runLaidOut(kLevel + " --size 1280x720", "grow_pick", "Pick at 1280x720");
  const std::optional<Rect> log0 = panel(pick.state, "Log");
  ASSERT_NE(log0, std::nullopt);
  EXPECT_EQ(log0->x0, 10.0f) << "the Log starts at the left edge under a short Tools panel";
  const AppRun r = runLaidOut(kLevel + " --size 1280x720 --click 75,156 " + kClicks, "grow_stepper", "Pick, then the A* Stepper's radio button");
  EXPECT_EQ(r.state["activeTool"], "A* Stepper");
  const std::vector<Rect> ps = panels(r.state);
  ASSERT_NE(find(ps, "Tools"), nullptr);
  EXPECT_GT(find(ps, "Tools")->y1, find(ps, "Log")->y0) << "the Tools panel should reach the Log's strip here";
}

TEST(ViewerLayout, StepperAt1080pAndInAShortWindow) {
  expectNoOverlap(runApp(kLevel + " --tool 'A* Stepper' --size 1920x1080 " + kClicks1080, "layout1080"), "A* Stepper at 1920x1080");
  // 1280x480: the stepper's options do not fit: the Tools panel stops at the window's bottom and
  // scrolls (its lowest controls stay reachable), the Log starts collapsed beside it.
  const AppRun r = runLaidOut(kLevel + " --tool 'A* Stepper' --size 1280x480 --click 680,290,shift --click 700,130", "layout480", "A* Stepper at 1280x480");
  for (const json& w : r.state["windows"]) {
    if (w["name"] == "Tools") {
      EXPECT_GT(w["scrollMaxY"].get<float>(), 0.0f) << "the Tools panel should scroll";
    }
  }
}

TEST(ViewerLayout, TheLogStaysInANarrowWindow) {
  // No room for the Log right of the A* Stepper's tall Tools panel: it goes to the left edge inside
  // the window (it was placed right of the Tools: at 440 px its right 31 px, at 200 px all of it,
  // outside the window). Started that narrow, and shrunk to it.
  for (const char* args : {"--size 440x640", "--size 1280x720 --resize 440x640", "--size 1280x720 --resize 200x150"}) {
    const AppRun r = runApp(kLevel + " --tool 'A* Stepper' " + args, "narrow");
    ASSERT_EQ(r.exitCode, 0) << args << "\n" << r.output;
    ASSERT_TRUE(r.state.is_object()) << args << "\n" << r.output;
    const float vw = r.state["viewport"][0], vh = r.state["viewport"][1];
    const std::optional<Rect> log = panel(r.state, "Log");
    ASSERT_NE(log, std::nullopt) << args;
    EXPECT_TRUE(log->x0 >= 0 && log->y0 >= 0 && log->x1 <= vw + 0.5f && log->y1 <= vh + 0.5f)
        << args << ": the Log (" << log->x0 << "," << log->y0 << ")-(" << log->x1 << "," << log->y1 << ") leaves the " << vw
        << "x" << vh << " window";
  }
}

TEST(ViewerLayout, ResizingTheWindowLaysThePanelsOutAgain) {
  // Shrunk: panels on the right and bottom follow those edges, the Tools and Log take their places.
  const AppRun small = runLaidOut(kLevel + " --tool 'A* Stepper' --size 1920x1080 --resize 1280x720 " + kClicks, "resize_down", "1920x1080 resized to 1280x720");
  EXPECT_EQ(small.state["viewport"][0].get<float>(), 1280.0f);
  // Grown: the View panel is back in the bottom-right corner.
  const AppRun big = runLaidOut(kLevel + " --tool 'A* Stepper' --size 1280x720 --resize 1920x1080 " + kClicks, "resize_up", "1280x720 resized to 1920x1080");
  const std::optional<Rect> view = panel(big.state, "View");
  ASSERT_NE(view, std::nullopt);
  EXPECT_NEAR(view->x1, 1910.0f, 2.0f);
  EXPECT_NEAR(view->y1, 1070.0f, 2.0f);
}

/// The share of the window below the menu bar that no panel covers (the 3D view seen), on a 10 px grid.
float viewShare(const json& state) {
  const float vw = state["viewport"][0], vh = state["viewport"][1];
  const std::vector<Rect> ps = panels(state);
  int seen = 0, all = 0;
  for (float y = 25; y < vh; y += 10)
    for (float x = 5; x < vw; x += 10) {
      ++all;
      bool covered = false;
      for (const Rect& r : ps) covered = covered || (x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1);
      seen += covered ? 0 : 1;
    }
  return all ? float(seen) / float(all) : 0.0f;
}

TEST(ViewerLayout, SmallWindowsWithTheStepperOpen) {
  // Under ~1000 px wide the View panel and the A* stepper window covered the Tools panel and each
  // other. Started at each size, and shrunk to it from 1280x720 (the panels laid out again): no
  // panel covers another, all inside, the stepper window shown and some of the 3D view left.
  for (const char* size : {"640x480", "800x600", "1000x700"}) {
    for (const char* start : {"", "--size 1280x720 --resize "}) {
      const std::string args = *start ? std::string(start) + size : std::string("--size ") + size;
      const AppRun r = runLaidOut(kLevel + " --tool 'A* Stepper' " + args, "small", args);
      if (!r.state.is_object()) continue;
      const std::vector<Rect> ps = panels(r.state); // (find points into it)
      EXPECT_NE(find(ps, "A* stepper"), nullptr) << args << ": the stepper window should be open";
      EXPECT_NE(find(ps, "View"), nullptr) << args;
      EXPECT_GT(viewShare(r.state), 0.2f) << args << ": the panels leave almost none of the 3D view";
    }
  }
}

TEST(ViewerLayout, APanelTheUserMovedKeepsItsPlaceAcrossResizes) {
  // The Log dragged by its title bar from the bottom strip up to y 292: a resize kept it there
  // (it was put back in the bottom strip, over the user's place). Where the new window size would
  // leave it outside it is clamped in. (Where the strip starts, left edge or right of the Tools
  // panel, depends on how tall the tool list is: read from a run without the drag.)
  const AppRun unmoved = runApp(kLevel + " --tool 'A* Stepper' --size 1280x720", "unmoved");
  ASSERT_EQ(unmoved.exitCode, 0) << unmoved.output;
  const std::optional<Rect> logU = panel(unmoved.state, "Log");
  ASSERT_NE(logU, std::nullopt);
  ASSERT_NEAR(logU->y0, 600.0f, 1.0f) << "the Log should start in the bottom strip";
  const float userX = logU->x0, logW = logU->x1 - logU->x0;
  const std::string drag = " --drag 500,608,500,300";
  const AppRun moved = runApp(kLevel + " --tool 'A* Stepper' --size 1280x720" + drag, "moved");
  ASSERT_EQ(moved.exitCode, 0) << moved.output;
  const std::optional<Rect> log0 = panel(moved.state, "Log");
  ASSERT_NE(log0, std::nullopt);
  ASSERT_NEAR(log0->y0, 292.0f, 1.0f) << "the drag did not move the Log";
  ASSERT_NEAR(log0->x0, userX, 1.0f);
  for (const char* size : {"1920x1080", "1000x700", "640x480"}) {
    const AppRun r = runApp(kLevel + " --tool 'A* Stepper' --size 1280x720" + drag + " --resize " + size, "moved_resized");
    ASSERT_EQ(r.exitCode, 0) << size << "\n" << r.output;
    const float vw = r.state["viewport"][0], vh = r.state["viewport"][1];
    const std::vector<Rect> ps = panels(r.state); // (find points into it)
    const Rect* log = find(ps, "Log");
    ASSERT_NE(log, nullptr) << size;
    if (userX + logW <= vw) {
      EXPECT_NEAR(log->x0, userX, 1.0f) << size << ": the Log should stay where the user put it";
    }
    EXPECT_NEAR(log->y0, 292.0f, 1.0f) << size << ": the Log should stay where the user put it";
    EXPECT_TRUE(log->x1 <= vw + 0.5f && log->y1 <= vh + 0.5f) << size << ": the Log (" << log->x0 << "," << log->y0 << ")-("
                                                              << log->x1 << "," << log->y1 << ") leaves the window";
    // The other panels still keep clear of each other.
    for (size_t i = 0; i < ps.size(); ++i)
      for (size_t j = i + 1; j < ps.size(); ++j) {
        const Rect &a = ps[i], &b = ps[j];
        if (a.name == "Log" || b.name == "Log") continue;
        EXPECT_FALSE(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1) << size << ": " << a.name << " covers " << b.name;
      }
  }
  // The Tools panel dragged to the right (610, 27): kept in a 1000 px window, and in an 800 px one
  // clamped to its right edge (inside, and still at the top).
  for (const char* size : {"1000x700", "800x600"}) {
    const AppRun r = runApp(kLevel + " --tool 'A* Stepper' --size 1280x720 --drag 100,35,700,35 --resize " + size, "moved_tools");
    ASSERT_EQ(r.exitCode, 0) << size << "\n" << r.output;
    const float vw = r.state["viewport"][0];
    const std::optional<Rect> tools = panel(r.state, "Tools");
    ASSERT_NE(tools, std::nullopt) << size;
    // At the top: where it was put, or (a Tools panel taller than the window, as the A* Stepper's
    // is at 600 px) pushed up to just under the menu bar so that all of it is inside.
    const float vh = r.state["viewport"][1];
    if (tools->y1 - tools->y0 < vh - 37.0f) {
      EXPECT_NEAR(tools->y0, 27.0f, 1.0f) << size;
    } else {
      EXPECT_GE(tools->y0, 18.0f) << size;
      EXPECT_LE(tools->y0, 27.5f) << size;
      EXPECT_LE(tools->y1, vh + 0.5f) << size << ": the Tools panel should be inside the window";
    }
    if (vw >= 1000)
      EXPECT_NEAR(tools->x0, 610.0f, 1.0f) << size << ": the Tools panel should stay where the user put it";
    else
      EXPECT_NEAR(tools->x1, vw, 1.0f) << size << ": the Tools panel should be clamped to the right edge";
  }
}

TEST(ViewerLayout, APanelTheUserMovedKeepsItsPlaceAfterARestart) {
  // Interactive runs (offscreen window, quit by SIGTERM after 5 s: enough for the sanitizer
  // build's slower start to lay the panels out) keep imgui.ini: the Log dragged
  // in one (800x600: from the bottom strip 300 px left and up to y 192, where it fits a 640 px
  // window) is where the user put it in the next, started at 640x480. (The place alone in the ini is not enough: the layout puts its panels back
  // every frame, so which ones the user placed is kept there too.)
  const fs::path cfg = tmpRoot() / "config_restart";
  fs::remove_all(cfg);
  auto run = [&](const std::string& args, const std::string& dump) {
    fs::remove(dump);
    const navbench::test::CommandResult r = navbench::test::runCommand(
        navbench::test::headlessEnv(cfg.string()) + "timeout -s TERM 5 " + q(NAVBENCH_EXE) + " " + kLevel +
        " --tool 'A* Stepper' " + args + " --dump-state " + q(dump));
    std::ifstream f(dump);
    return f ? json::parse(f, nullptr, false) : json();
  };
  const std::string d1 = (tmpRoot() / "restart1.json").string(), d2 = (tmpRoot() / "restart2.json").string();
  const json first = run("--size 800x600 --drag 400,488,100,200", d1);
  ASSERT_TRUE(first.is_object()) << "no state from the first run";
  const json second = run("--size 640x480", d2);
  ASSERT_TRUE(second.is_object()) << "no state from the second run";
  const std::vector<Rect> ps1 = panels(first), ps2 = panels(second); // (find points into them)
  const Rect* log1 = find(ps1, "Log");
  const Rect* log2 = find(ps2, "Log");
  ASSERT_NE(log1, nullptr);
  ASSERT_NE(log2, nullptr);
  EXPECT_NEAR(log1->y0, 192.0f, 1.0f) << "first run: the drag did not move the Log";
  EXPECT_LT(log1->x0, 100.0f) << "first run: the drag did not move the Log left";
  EXPECT_NEAR(log2->x0, log1->x0, 1.0f) << "after the restart";
  EXPECT_NEAR(log2->y0, log1->y0, 1.0f) << "after the restart";
}

TEST(ViewerLayout, AClickOnAPanelOrResetDoesNotPinIt) {
  // Clicked on its title bar without moving: still the layout's, back in the strip after a resize.
  const AppRun r = runLaidOut(kLevel + " --tool 'A* Stepper' --size 1280x720 --click 500,608 --resize 1000x700", "click_pin", "a click on the Log's title, then 1000x700");
  const std::optional<Rect> log = panel(r.state, "Log");
  ASSERT_NE(log, std::nullopt);
  EXPECT_NEAR(log->y1, 690.0f, 1.0f) << "the Log should be back along the bottom";
  // Dragged away, then View > Reset panel layout (the menu's first row): the layout's again (the
  // bottom strip after a resize).
  const AppRun reset = runLaidOut(kLevel + " --tool 'A* Stepper' --size 1280x720 --drag 500,608,500,300 --click 70,10 --click 110,33 --resize 1000x700",
                                  "reset_layout", "the Log dragged, View > Reset panel layout, then 1000x700");
  const std::optional<Rect> log2 = panel(reset.state, "Log");
  ASSERT_NE(log2, std::nullopt);
  EXPECT_NEAR(log2->y1, 690.0f, 1.0f) << "the Log should be back along the bottom after Reset panel layout";
}

// On-demand panels: the level with three agent types (the Agents panel has rows), and its capture.
const std::string kAgentsLevel = q((fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path() / "default_agents.json").string());
const std::string kCapture = q((fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path() / "default.nbcap").string());
constexpr float kTitleH = 19; // an ImGui title bar at the default font

/// The panels named `names` in `r`, each shown and at least 240 x 120 (the layout's smallest).
void expectShownAndUsable(const AppRun& r, const std::vector<std::string>& names, const std::string& what) {
  const std::vector<Rect> ps = panels(r.state);
  for (const std::string& n : names) {
    const Rect* p = find(ps, n);
    ASSERT_NE(p, nullptr) << what << ": " << n << " is not shown";
    EXPECT_GE(p->x1 - p->x0, 240.0f) << what << ": " << n << " is too narrow";
    EXPECT_GE(p->y1 - p->y0, 120.0f) << what << ": " << n << " is too short";
  }
}

TEST(ViewerLayout, OnDemandPanelsCoverNoOtherAt720pAnd1080p) {
  // Check, Why and Agents opened together, then with a capture's Captured queries panel too: they
  // share the room right of the Tools, left of the right column and above the Log; none covers
  // another panel, each keeps a usable size, and part of the 3D view stays in sight.
  const std::vector<std::string> three = {"Check (F5)", "Why (F6)", "Agents (F7)"};
  std::vector<std::string> four = three;
  four.push_back("Captured queries");
  for (const char* size : {"1280x720", "1920x1080"}) {
    const std::string keys = std::string(" --size ") + size + " --key F5 --key F6 --key F7";
    const AppRun r = runLaidOut(kAgentsLevel + keys, "ondemand3", std::string("Check, Why, Agents at ") + size);
    expectShownAndUsable(r, three, size);
    EXPECT_GT(viewShare(r.state), 0.25f) << size << ": the panels leave little of the 3D view";
    const AppRun c = runLaidOut(kAgentsLevel + " " + kCapture + keys, "ondemand4", std::string("Check, Why, Agents, Captured queries at ") + size);
    expectShownAndUsable(c, four, size);
    EXPECT_GT(viewShare(c.state), 0.2f) << size << ": the panels leave little of the 3D view";
  }
  // The reported case: a capture, Why then Check, in Pathfind Straight's tall Tools panel.
  const AppRun r = runLaidOut(kLevel + " " + kCapture + " --size 1280x720 --key F6 --key F5", "ondemand_capture", "capture, F6, F5 at 1280x720");
  expectShownAndUsable(r, {"Captured queries", "Why (F6)", "Check (F5)"}, "capture, F6, F5");
}

TEST(ViewerLayout, OnDemandPanelsStackInTheOrderTheyWereOpened) {
  // One column against the right column, the first opened on top; opened the other way round,
  // the other order (the column and its width stay).
  const AppRun a = runLaidOut(kAgentsLevel + " --size 1280x720 --key F6 --key F5", "order_why_check", "F6, F5");
  const AppRun b = runLaidOut(kAgentsLevel + " --size 1280x720 --key F5 --key F6", "order_check_why", "F5, F6");
  const std::optional<Rect> whyA = panel(a.state, "Why (F6)"), checkA = panel(a.state, "Check (F5)");
  const std::optional<Rect> whyB = panel(b.state, "Why (F6)"), checkB = panel(b.state, "Check (F5)");
  ASSERT_TRUE(whyA && checkA && whyB && checkB);
  EXPECT_LT(whyA->y0, checkA->y0) << "Why opened first: on top";
  EXPECT_LT(checkB->y0, whyB->y0) << "Check opened first: on top";
  EXPECT_EQ(whyA->x1, checkA->x1) << "one column";
  EXPECT_EQ(whyA->x1, whyB->x1);
  // The column's right edge: 10 px left of the right column (the collapsed Navmesh panel).
  const std::optional<Rect> nav = panel(a.state, "Navmesh");
  ASSERT_NE(nav, std::nullopt);
  EXPECT_NEAR(whyA->x1, nav->x0 - 10, 1.0f);
  // Closed: the one left takes the top.
  const AppRun closed = runLaidOut(kAgentsLevel + " --size 1280x720 --key F6 --key F5 --key F6", "order_closed", "F6, F5, F6");
  const std::optional<Rect> check = panel(closed.state, "Check (F5)");
  ASSERT_NE(check, std::nullopt);
  EXPECT_EQ(panel(closed.state, "Why (F6)"), std::nullopt);
  EXPECT_EQ(check->y0, std::min(whyA->y0, checkB->y0)) << "Check alone should be at the top of the column";
}

TEST(ViewerLayout, OnDemandPanelsCascadeInASmallWindow) {
  // 800x600: no room beside the Tools panel for them side by side: each newer one lies over the
  // one before a title bar lower (every title bar in sight), right of the Tools panel, inside.
  const AppRun r = runApp(kAgentsLevel + " --size 800x600 --key F5 --key F6 --key F7", "cascade");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const std::vector<Rect> ps = panels(r.state);
  const Rect* tools = find(ps, "Tools");
  ASSERT_NE(tools, nullptr);
  const char* order[] = {"Check (F5)", "Why (F6)", "Agents (F7)"};
  const Rect* prev = nullptr;
  for (const char* n : order) {
    const Rect* p = find(ps, n);
    ASSERT_NE(p, nullptr) << n;
    EXPECT_TRUE(p->x0 >= 0 && p->y0 >= 0 && p->x1 <= 800.5f && p->y1 <= 600.5f) << n << " leaves the window";
    EXPECT_GE(p->x0, tools->x1) << n << " covers the Tools panel";
    if (prev) {
      EXPECT_GE(p->y0, prev->y0 + kTitleH) << n << " hides the title bar of the one opened before it";
    }
    prev = p;
  }
}

TEST(ViewerLayout, AnOnDemandPanelTheUserMovedKeepsItsPlace) {
  // The Agents panel (F7, alone at the top of the region) dragged by its title bar 200 px left and
  // 250 down: the Check panel opened after it does not move it (and goes beside it), nor does a
  // resize; View > Reset panel layout puts it back in its place in the region.
  const AppRun alone = runApp(kAgentsLevel + " --size 1280x720 --key F7", "moved_agents0");
  ASSERT_EQ(alone.exitCode, 0) << alone.output;
  const std::optional<Rect> a0 = panel(alone.state, "Agents (F7)");
  ASSERT_NE(a0, std::nullopt);
  // (Keys come after clicks in a script: the panel is opened from the View menu here, its row
  // "Agents panel" at y 208.)
  const std::string open = " --click 70,10 --click 110,208";
  const int tx = int(a0->x0) + 100, ty = int(a0->y0) + 9;
  const std::string drag = " --drag " + std::to_string(tx) + "," + std::to_string(ty) + "," + std::to_string(tx - 200) + "," +
                           std::to_string(ty + 250);
  const AppRun opened = runApp(kAgentsLevel + " --size 1280x720" + open, "moved_agents1");
  const std::optional<Rect> a1 = panel(opened.state, "Agents (F7)");
  ASSERT_NE(a1, std::nullopt) << "the View menu row did not open the Agents panel";
  ASSERT_EQ(a1->x0, a0->x0);
  ASSERT_EQ(a1->y0, a0->y0);
  // (Check opened from the View menu too, its row at y 174: after the drag, keys go to the panel.)
  for (const char* more : {" --click 70,10 --click 110,174", " --click 70,10 --click 110,174 --resize 1920x1080"}) {
    const AppRun r = runApp(kAgentsLevel + " --size 1280x720" + open + drag + more, "moved_agents");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const std::optional<Rect> a = panel(r.state, "Agents (F7)");
    ASSERT_NE(a, std::nullopt) << more;
    EXPECT_NEAR(a->x0, a0->x0 - 200, 1.0f) << more << ": the Agents panel should stay where the user put it";
    EXPECT_NEAR(a->y0, a0->y0 + 250, 1.0f) << more;
    const std::optional<Rect> check = panel(r.state, "Check (F5)");
    ASSERT_NE(check, std::nullopt) << more;
    if (r.state["viewport"][0].get<float>() == 1280.0f) { // (the moved panel there: the Check panel beside it)
      expectNoOverlap(r, std::string("Agents moved, then Check") + more);
    }
  }
  const AppRun reset = runApp(kAgentsLevel + " --size 1280x720" + open + drag + " --click 70,10 --click 110,33", "moved_agents_reset");
  ASSERT_EQ(reset.exitCode, 0) << reset.output;
  const std::optional<Rect> a = panel(reset.state, "Agents (F7)");
  ASSERT_NE(a, std::nullopt);
  EXPECT_EQ(a->x0, a0->x0) << "after Reset panel layout";
  EXPECT_EQ(a->y0, a0->y0) << "after Reset panel layout";
}

// ---------------------------------------------------------------------------------------------
// Hover

TEST(ViewerHover, StepperNodeAndPolyUnderTheMouse) {
  // Twenty expansions in, the mouse rests where the start was clicked: the start node (g 0).
  const AppRun r = runApp(kLevel + " --tool 'A* Stepper' --size 1280x720 " + kClicks + " --key pagedown --key pagedown --hover 680,420",
                          "hover_start");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_TRUE(r.state.is_object()) << r.output;
  const json& s = r.state["toolState"];
  ASSERT_EQ(s["index"], 20);
  const json& h = r.state["hover"];
  ASSERT_TRUE(h["hit"].get<bool>()) << h.dump();
  EXPECT_EQ(h["polyRef"], s["startRef"]) << "the Navmesh panel's hovered poly";
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(h["pos"][size_t(i)].get<float>(), s["start"][size_t(i)].get<float>(), 0.01f);
  ASSERT_TRUE(s.contains("hovered")) << s.dump();
  EXPECT_EQ(s["hovered"]["ref"], s["startRef"]);
  EXPECT_EQ(s["hovered"]["g"].get<float>(), 0.0f);
  // Resting on the end point (upper floor): its poly, and no node of the search there yet.
  const AppRun e = runApp(kLevel + " --tool 'A* Stepper' --size 1280x720 " + kClicks + " --hover 700,180", "hover_end");
  ASSERT_EQ(e.exitCode, 0) << e.output;
  EXPECT_TRUE(e.state["hover"]["hit"].get<bool>());
  EXPECT_EQ(e.state["hover"]["polyRef"], e.state["toolState"]["endRef"]);
  EXPECT_FALSE(e.state["toolState"].contains("hovered")) << "step 0 has only the start node";
}

TEST(ViewerHover, NothingUnderAPanelOrTheBackground) {
  // Over the Tools panel (ImGui has the mouse) and over the empty background bottom left.
  for (const char* at : {"100,100", "150,670"}) {
    const AppRun r = runApp(kLevel + " --tool 'A* Stepper' --size 1280x720 " + kClicks + " --key pagedown --hover " + at,
                            "hover_none");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_FALSE(r.state["hover"]["hit"].get<bool>()) << at;
    EXPECT_EQ(r.state["hover"]["polyRef"], 0) << at;
    EXPECT_FALSE(r.state["toolState"].contains("hovered")) << at;
  }
}

TEST(ViewerHover, ABadPointIsRefusedWithTheUsage) {
  // Not two numbers, or not a pixel (sscanf's %f reads "nan" and "inf"): exit 2 with the value named.
  for (const char* at : {"nan,nan", "10,inf", "10", "10,20,30", "x,y"}) {
    const AppRun r = runApp(kLevel + " --hover " + at, "hover_bad");
    EXPECT_EQ(r.exitCode, 2) << at << "\n" << r.output;
    EXPECT_NE(r.output.find(std::string("--hover: expected X,Y (window pixels), got '") + at + "'"), std::string::npos)
        << r.output;
  }
}

// ---------------------------------------------------------------------------------------------
// Moved files

/// <tmp>/moved/s/scn.json saved with the default level in <tmp>/moved/a, then a moved to b.
struct MovedScenario {
  fs::path root, scenario, newLevel, newNav;
  json saved; // the scenario as written
  MovedScenario() {
    // Each test its own copy (ctest runs them in parallel).
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    root = tmpRoot() / ("moved_" + test);
    fs::remove_all(root);
    fs::create_directories(root / "a");
    fs::create_directories(root / "s");
    const fs::path src = fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path();
    for (const char* f : {"default.obj", "default.mtl", "default.bin"})
      if (fs::exists(src / f)) fs::copy_file(src / f, root / "a" / f);
    scenario = root / "s" / "scn.json";
    const AppRun r = runApp(q((root / "a" / "default.obj").string()) + " --tool 'Pathfind Straight' " + kClicks +
                                " --save-scenario " + q(scenario.string()),
                            "moved_save_" + test);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    std::ifstream f(scenario);
    saved = json::parse(f, nullptr, false);
    fs::rename(root / "a", root / "b");
    newLevel = root / "b" / "default.obj";
    newNav = root / "b" / "default.bin";
  }
};

TEST(MovedFiles, TheDialogListsTheMissingFiles) {
  const MovedScenario m;
  ASSERT_TRUE(m.saved.is_object());
  ASSERT_EQ(m.saved["level"], "../a/default.obj");
  // Without --ask-moved a headless run refuses (exit 1) with the message.
  const AppRun plain = runApp(q(m.scenario.string()), "moved_plain");
  EXPECT_EQ(plain.exitCode, 1);
  EXPECT_NE(plain.output.find("level '../a/default.obj' not found"), std::string::npos) << plain.output;
  const AppRun r = runApp(q(m.scenario.string()) + " --ask-moved", "moved_ask");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json& d = r.state["missingDialog"];
  ASSERT_TRUE(d["open"].get<bool>()) << d.dump();
  ASSERT_EQ(d["files"].size(), 2u) << d.dump();
  EXPECT_EQ(d["files"][0]["kind"], "level");
  EXPECT_EQ(d["files"][0]["original"], "../a/default.obj");
  EXPECT_FALSE(d["files"][0]["found"].get<bool>());
  EXPECT_EQ(d["files"][1]["kind"], "navmesh");
  EXPECT_EQ(d["files"][1]["original"], "../a/default.bin");
  EXPECT_EQ(r.state["level"], "") << "nothing opened while asking";
  EXPECT_EQ(r.state["nav"], "");
}

TEST(MovedFiles, TypingTheNewPlaceRestoresTheScenario) {
  const MovedScenario m;
  // The level's field has the focus: type its new place, Enter. The tile set, missing too, is
  // found beside it by name.
  const AppRun r = runApp(q(m.scenario.string()) + " --ask-moved --type " + q(m.newLevel.string()) + " --key return", "moved_fix");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_FALSE(r.state["missingDialog"]["open"].get<bool>());
  EXPECT_EQ(r.state["level"], m.newLevel.string());
  EXPECT_EQ(r.state["nav"], m.newNav.string());
  EXPECT_EQ(r.state["activeTool"], "Pathfind Straight");
  const json& s = r.state["toolState"];
  for (const char* k : {"start", "end"})
    for (size_t i = 0; i < 3; ++i)
      EXPECT_EQ(s[k][i].get<float>(), m.saved["tool"]["state"][k][i].get<float>()) << k << i;
  EXPECT_NE(s["startRef"], 0);
  EXPECT_NE(r.output.find("opened scenario"), std::string::npos) << r.output;
}

TEST(MovedFiles, CancelChangesNothing) {
  const MovedScenario m;
  // Another scenario is open (a level, Raycast with a point); the moved one is dropped on the
  // window (it asks), then Esc.
  const fs::path good = m.root / "s" / "good.json";
  const AppRun saved = runApp(q(m.newLevel.string()) + " --tool Raycast --click 680,420 --save-scenario " + q(good.string()),
                              "moved_good");
  ASSERT_EQ(saved.exitCode, 0) << saved.output;
  const std::string base = q(good.string());
  const AppRun before = runApp(base, "moved_before");
  ASSERT_TRUE(before.state.is_object()) << before.output;
  ASSERT_TRUE(before.state["toolState"].contains("end")) << "the Raycast point was not restored";
  const AppRun r = runApp(base + " --drop " + q(m.scenario.string()) + " --ask-moved --key escape", "moved_cancel");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_TRUE(before.state.is_object() && r.state.is_object()) << r.output;
  EXPECT_NE(r.output.find("not opened (cancelled)"), std::string::npos) << r.output;
  EXPECT_FALSE(r.state["missingDialog"]["open"].get<bool>());
  json a = r.state, b = before.state;
  a["toolState"].erase("queryUs"); // a timing
  b["toolState"].erase("queryUs");
  for (const char* k : {"level", "nav", "activeTool", "toolState", "scenario", "scenarioPath"}) EXPECT_EQ(a[k], b[k]) << k;
}

// ---------------------------------------------------------------------------------------------
// Screenshot folder

TEST(ScreenshotFolder, ChosenInTheFolderDialogThenF12WritesThere) {
  const fs::path root = tmpRoot() / "shots";
  fs::remove_all(root);
  fs::create_directories(root);
  const fs::path dir = root / "chosen" / "new"; // does not exist yet: made on the first F12
  // File (menu bar), File > Screenshot folder... (the folder dialog; its path field has the
  // focus), type the folder, Enter, then F12.
  const AppRun r = runApp(kLevel + " --size 1280x720 --click 25,9 --click 70,212 --type " + q(dir.string()) +
                              " --key return --key f12",
                          "folder_dialog", root.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.state["screenshotDir"], dir.string()) << r.output;
  EXPECT_NE(r.output.find("screenshot folder " + dir.string()), std::string::npos) << r.output;
  int pngs = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".png") ++pngs;
  EXPECT_EQ(pngs, 1) << "F12 did not write into " << dir << "\n" << r.output;
  EXPECT_FALSE(fs::exists(root / "screenshots")) << "written to the default folder instead";
}

TEST(ScreenshotFolder, ARelativeNameIsTakenInTheFolderShown) {
  // The dialog opens in the current screenshot folder (elsewhere than where navbench runs); a name
  // typed there is that folder's subfolder, not one beside the working directory.
  const fs::path root = tmpRoot() / "relshots";
  fs::remove_all(root);
  fs::create_directories(root / "cwd");
  fs::create_directories(root / "current");
  const AppRun r = runApp(kLevel + " --size 1280x720 --screenshot-dir " + q((root / "current").string()) +
                              " --click 25,9 --click 70,212 --type sub --key return --key f12",
                          "folder_relative", (root / "cwd").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.state["screenshotDir"], (root / "current" / "sub").string()) << r.output;
  EXPECT_TRUE(fs::is_directory(root / "current" / "sub")) << r.output;
  EXPECT_FALSE(fs::exists(root / "cwd" / "sub")) << "made beside the working directory instead";
  fs::remove_all(root);
}

TEST(ScreenshotFolder, UnusableFolderIsNamedInTheLogNotACrash) {
  const fs::path root = tmpRoot() / "badshots";
  fs::remove_all(root);
  fs::create_directories(root);
  const std::string file = (root / "a-file").string();
  std::ofstream(file) << "not a folder";
  // A folder under a regular file cannot be made; a regular file is not a folder.
  const std::string under = (fs::path(file) / "sub").string();
  AppRun r = runApp(kLevel + " --screenshot-dir " + q(under) + " --key f12", "folder_under_file", root.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("cannot create the screenshot folder '" + under + "'"), std::string::npos) << r.output;
  EXPECT_GE(r.state["logErrors"].get<int>(), 1);
  r = runApp(kLevel + " --screenshot-dir " + q(file) + " --key f12", "folder_is_file", root.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("the screenshot folder '" + file + "' is a file, not a folder"), std::string::npos) << r.output;
  std::ifstream f(file);
  std::string content;
  std::getline(f, content);
  EXPECT_EQ(content, "not a folder") << "the file was overwritten";
  // A read-only folder (only when the permission holds: root writes anywhere).
  const fs::path ro = root / "read-only";
  fs::create_directories(ro);
  fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
  if (::access(ro.c_str(), W_OK) != 0) {
    r = runApp(kLevel + " --screenshot-dir " + q(ro.string()) + " --key f12", "folder_read_only", root.string());
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("the screenshot folder '" + ro.string() + "' is not writable"), std::string::npos) << r.output;
  }
  fs::permissions(ro, fs::perms::owner_all);
}

TEST(ScreenshotFolder, UnreachableFolderIsNamedNotACrash) {
  // A folder the system cannot even look at (here under a symlink loop: ELOOP, as root too; for a
  // user, a folder under one it may not enter: EACCES): named in the log. The viewer aborted on an
  // uncaught filesystem_error from F12's check before.
  const fs::path root = tmpRoot() / "loopshots";
  fs::remove_all(root);
  fs::create_directories(root);
  fs::create_directory_symlink("loop", root / "loop");
  const std::string dir = (root / "loop" / "sub").string();
  const AppRun r = runApp(kLevel + " --screenshot-dir " + q(dir) + " --key f12", "folder_loop", root.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("cannot reach the screenshot folder '" + dir + "'"), std::string::npos) << r.output;
  EXPECT_GE(r.state["logErrors"].get<int>(), 1);
  fs::remove_all(root);
}

TEST(StatsOverlay, CountsTheLevelTrianglesDrawn) {
  // The default camera frames the whole default level: every triangle is drawn, none culled.
  const AppRun all = runApp(kLevel, "stats_all");
  ASSERT_EQ(all.exitCode, 0) << all.output;
  const int total = all.state["frame"]["levelTris"].get<int>();
  ASSERT_GT(total, 0);
  EXPECT_EQ(all.state["frame"]["levelTrisDrawn"].get<int>(), total);
  // The level hidden (View > Level, through a scenario): nothing of it drawn, still counted.
  const fs::path scen = tmpRoot() / "stats_scenario_nolevel.json";
  const AppRun saved = runApp(kLevel + " --save-scenario " + q(scen.string()), "stats_save");
  ASSERT_EQ(saved.exitCode, 0) << saved.output;
  json j;
  {
    std::ifstream f(scen);
    j = json::parse(f, nullptr, false);
  }
  ASSERT_TRUE(j.is_object() && j["view"].contains("drawLevel")) << scen;
  j["view"]["drawLevel"] = false;
  {
    std::ofstream f(scen);
    f << j.dump(1);
  }
  const AppRun hidden = runApp(q(scen.string()), "stats_nolevel");
  ASSERT_EQ(hidden.exitCode, 0) << hidden.output;
  EXPECT_EQ(hidden.state["frame"]["levelTris"].get<int>(), total);
  EXPECT_EQ(hidden.state["frame"]["levelTrisDrawn"].get<int>(), 0);
}

TEST(CommandLine, ALevelAndItsTileSetOpenTheTileSetOnce) {
  // `navbench level.obj level.bin`: the .bin beside the level is the one named, opened once (it
  // was opened as the level's sibling and then again as the second argument).
  const std::string bin = (fs::path(NAVBENCH_DEFAULT_LEVEL).replace_extension(".bin")).string();
  ASSERT_TRUE(fs::exists(bin)) << bin;
  const AppRun r = runApp(kLevel + " " + q(bin), "cli_level_bin");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  size_t opened = 0;
  for (size_t at = r.output.find("opened navmesh"); at != std::string::npos; at = r.output.find("opened navmesh", at + 1))
    ++opened;
  EXPECT_EQ(opened, 1u) << r.output;
  EXPECT_EQ(r.state["nav"], bin);
  // Another tile set named: that one, not the sibling.
  const fs::path other = tmpRoot() / "other_name.bin";
  fs::copy_file(bin, other, fs::copy_options::overwrite_existing);
  const AppRun o = runApp(kLevel + " " + q(other.string()), "cli_level_other_bin");
  ASSERT_EQ(o.exitCode, 0) << o.output;
  EXPECT_EQ(o.state["nav"], other.string());
  EXPECT_EQ(o.output.find("found "), std::string::npos) << o.output;
  EXPECT_GT(o.state["navPolys"].get<int>(), 0);
}

} // namespace
