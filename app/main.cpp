// navbench: the viewer, or a command-line subcommand when argv[1] names one (see app/cli/Cli.h).
//
//   navbench [level.obj] [--screenshot out.png] [--size WxH] [--frames N] [--click X,Y[,shift|right]]... [--drop FILE]...
//   navbench SCENARIO.json|SCREENSHOT.png [--screenshot out.png] [--size WxH]   (a saved scenario, reproduced)
//   navbench <subcommand> [args...]          (no SDL/GL is initialised)
//   navbench --help
//
// The viewer's options are declared once (nav/base/Args.h, as every subcommand's): parsing and
// --help come from the same declarations; values with a shape of their own (WxH, X,Y) are
// checked after, and the scripted input (--click, --drag, --resize, --key, --type) keeps its
// command-line order.
#include "app/App.h"
#include "app/cli/Cli.h"
#include "app/import/SceneImport.h"
#include "nav/base/Args.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

bool parseSize(const std::string& s, int& w, int& h) {
  char x = 0;
  char extra = 0;
  if (std::sscanf(s.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X')) return false;
  return w >= 16 && h >= 16 && w <= 16384 && h <= 16384;
}

bool parseClick(const std::string& v, navbench::AppOptions::Click& c) {
  c = navbench::AppOptions::Click{0, 0, false};
  char rest[16] = {};
  const int n = std::sscanf(v.c_str(), "%f,%f,%15s", &c.x, &c.y, rest);
  if (n < 2 || (n == 3 && std::strcmp(rest, "shift") != 0 && std::strcmp(rest, "right") != 0)) return false;
  c.shift = n == 3 && std::strcmp(rest, "shift") == 0;
  c.right = n == 3 && std::strcmp(rest, "right") == 0;
  return true;
}

bool parseDrag(const std::string& v, navbench::AppOptions::Click& c) {
  c = navbench::AppOptions::Click{0, 0, false};
  char extra = 0;
  if (std::sscanf(v.c_str(), "%f,%f,%f,%f%c", &c.x, &c.y, &c.toX, &c.toY, &extra) != 4 || !std::isfinite(c.x) ||
      !std::isfinite(c.y) || !std::isfinite(c.toX) || !std::isfinite(c.toY))
    return false;
  c.drag = true;
  return true;
}

bool hasExt(const std::string& a, const char* ext) {
  const size_t n = std::strlen(ext);
  return a.size() > n && a.compare(a.size() - n, n, ext) == 0;
}

int refuse(const std::string& what) {
  std::fprintf(stderr, "navbench: %s\n", what.c_str());
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  navbench::import::installSceneImporter(); // FBX, Collada, ... through navbench-import beside this executable
  if (argc > 1) {
    if (const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand(argv[1]))
      return cmd->run(argc - 1, argv + 1);
  }
  navbench::AppOptions opt;
  // Values checked after parsing (their own shapes), and the scripted input whose order matters.
  std::string size, hover, resize;
  std::vector<std::string> clicks, drags, keys, typed;
  std::vector<std::string> flags; // the options without a value (for the order of the scripted input)
  base::Args args("navbench",
                  "The viewer, or a subcommand:\n"
                  "  navbench SCENARIO.json|SCREENSHOT.png [--screenshot out.png] [--size WxH]\n"
                  "  navbench <subcommand> [args...]   (no SDL/GL is initialised)");
  auto flag = [&](const char* name, bool* out, const char* help) {
    flags.emplace_back(name);
    args.flag(name, out, help);
  };
  args.positional("LEVEL", &opt.levelPath,
                  "a level: an OBJ (or .glb / .gltf; also File > Open, or drop a file on the window); a level\n"
                  ".json opens its OBJ, and the .bin with the same stem next to it as the navmesh; a .bin\n"
                  "alone is drawn and clicked on directly. A tile cache .tcache (navbench bake --layers)\n"
                  "opens like a tile set, for the Obstacles tool (beside an OBJ with the same stem and no\n"
                  ".bin it is opened with it). A path capture .nbcap a game wrote (capture/navbench_capture.h):\n"
                  "its navmesh, and its queries in the Captured queries panel, each replayed against the\n"
                  "game's answer (ok / MISMATCH); the first shown in Pathfind Straight (--tool NAME: in that\n"
                  "tool) with the captured filter and node budget (a bad file: exit code 2 headless).\n"
                  "A saved scenario .json (File > Save scenario: level, tile set, camera, tool, start/end,\n"
                  "filter, draw toggles) or a NavBench screenshot .png (F12), which carries its scenario\n"
                  "(a bad or moved file: message, exit code 1 headless; the viewer asks for moved files)")
      .optional()
      .positional("NAVMESH", &opt.navPath, "a tile set (.bin, .tcache) or path capture (.nbcap) opened as the navmesh, after the level")
      .optional()
      .text("--tool", "NAME", &opt.toolName, "activate a tool at start (\"Pathfind Follow\", \"Raycast\", ...)");
  flag("--shortest", &opt.shortest,
       "Pathfind Straight / Follow: turn the \"Shortest path\" option on (the exact shortest path\n"
       "drawn and compared with the mode's path)");
  flag("--all-overlays", &opt.allOverlays, "turn every navmesh drawing toggle on (detail mesh, BV tree too)");
  args.integer("--bench-frames", "N", &opt.benchFrames, 1, 100000,
               "headless frame benchmark: every overlay on, a path set on the active tester tool, N frames\n"
               "rendered, then one line \"bench: cpu_ms_mean=... draw_calls=...\" on stdout\n"
               "(SDL_VIDEODRIVER=offscreen without display)")
      .text("--dump-state", "FILE", &opt.dumpStatePath,
            "at exit, write the open files and the active tool's inputs and results as JSON (for scripted tests)")
      .text("--screenshot", "FILE", &opt.screenshotPath,
            "render without user input, write the frame (UI included) as PNG, exit; with no display use\n"
            "SDL_VIDEODRIVER=offscreen")
      .text("--size", "WxH", &size, "window / screenshot size in pixels, 16..16384 a side (default 1280x720)")
      .integer("--frames", "N", &opt.screenshotFrames, 1, 1000, "frames rendered before the screenshot")
      .texts("--click", "X,Y[,shift|right]", &clicks,
             "click window pixel (X, Y) as the mouse would (UI widgets, or picking + the active tool);\n"
             "one click per three frames; X,Y,right clicks the right button (the Crowd tool's move target)")
      .texts("--drag", "X0,Y0,X1,Y1", &drags,
             "press the left button at window pixel (X0, Y0), move with it held (a step a frame) and\n"
             "release it at (X1, Y1) (moves a panel taken by its title bar); in order with the --clicks")
      .texts("--key", "NAME", &keys,
             "after the clicks, press key NAME (SDL name, optional ctrl+ shift+ alt+, e.g. ctrl+z);\n"
             "one key per two frames")
      .texts("--type", "TEXT", &typed,
             "after the clicks, in order with the --key presses, type TEXT (text input events, as a\n"
             "keyboard would send into the focused text field)")
      .text("--hover", "X,Y", &hover,
            "after the clicks, rest the mouse on window pixel (X, Y) through the keys to the end (hover\n"
            "readouts: Navmesh panel, A* Stepper; keys at the mouse: Crowd T; --dump-state \"hover\")")
      .text("--resize", "WxH", &resize,
            "after the first frame, resize the window to WxH (panels are laid out again); given after\n"
            "--click/--drag options: after those");
  flag("--ask-moved", &opt.askMoved,
       "headless: a scenario whose level or tile set moved opens the 'Scenario files not found'\n"
       "dialog (as interactive runs do) instead of failing; the script answers it (--type a path,\n"
       "--key return opens, --key escape cancels)");
  args.texts("--drop", "FILE", &opt.drops, "after the first frame, drop FILE on the window (as a file manager would)")
      .text("--save-scenario", "FILE", &opt.saveScenarioPath, "at exit, save the scenario (as File > Save scenario) to FILE")
      .text("--screenshot-dir", "DIR", &opt.screenshotDir,
            "where F12 writes navbench-YYYYMMDD-HHMMSS.png (default ./screenshots)");
  flag("--caption", &opt.caption, "screenshots get a caption strip (level, start/end, status, path length)");
  flag("--view-only", &opt.viewOnly, "screenshots show the 3D view only (no panels)");
  flag("--recover", &opt.recover,
       "restore the level's unsaved edits kept in its recovery journal\n"
       "($XDG_STATE_HOME/navbench/recovery, else ~/.local/state/navbench/recovery) without asking\n"
       "(headless too); interactive runs ask when a journal exists");
  switch (args.parse(argc, argv)) {
  case base::Args::Outcome::Run:
    break;
  case base::Args::Outcome::Help: {
    std::string text = args.help() + "\nSubcommands (navbench <subcommand> --help for their options):\n";
    const int n = navbench::cli::subcommandCount();
    if (n == 0) text += "  (none)\n";
    for (int i = 0; i < n; ++i) {
      const navbench::cli::Subcommand& c = navbench::cli::subcommandAt(i);
      char line[256];
      std::snprintf(line, sizeof line, "  %-12s %s\n", c.name, c.summary);
      text += line;
    }
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  case base::Args::Outcome::Error:
    std::fprintf(stderr, "navbench: %s (see navbench --help)\n", args.error().c_str());
    return 2;
  }
  if (!opt.navPath.empty() && !hasExt(opt.navPath, ".bin") && !hasExt(opt.navPath, ".tcache") && !hasExt(opt.navPath, ".nbcap"))
    return refuse("unexpected argument '" + opt.navPath +
                  "': neither a subcommand nor the single level file (a second file is a .bin, .tcache or .nbcap navmesh; see navbench --help)");
  if (args.given("--size")) {
    if (!parseSize(size, opt.width, opt.height)) return refuse("--size: expected WxH (16..16384), got '" + size + "'");
    opt.sizeGiven = true;
  }
  if (args.given("--hover")) {
    char extra = 0;
    // (sscanf's %f takes "nan" and "inf" too: no window pixel, so refused as well.)
    if (std::sscanf(hover.c_str(), "%f,%f%c", &opt.hoverX, &opt.hoverY, &extra) != 2 || !std::isfinite(opt.hoverX) ||
        !std::isfinite(opt.hoverY))
      return refuse("--hover: expected X,Y (window pixels), got '" + hover + "'");
    opt.hover = true;
  }
  if (args.given("--resize") && !parseSize(resize, opt.resizeW, opt.resizeH))
    return refuse("--resize: expected WxH (16..16384), got '" + resize + "'");
  // The scripted input in command-line order: clicks and drags interleaved, --resize after the
  // clicks before it, keys and typed text interleaved. The parser accepted argv, so a name is an
  // option, and each option that is not a flag has its value next (or after '=').
  size_t nextClick = 0, nextDrag = 0, nextKey = 0, nextText = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") break;
    if (a.size() < 2 || a[0] != '-') continue;
    const size_t eq = a.rfind("--", 0) == 0 ? a.find('=') : std::string::npos;
    const std::string name = a.substr(0, eq);
    if (eq == std::string::npos && std::find(flags.begin(), flags.end(), name) == flags.end()) ++i; // its value
    navbench::AppOptions::Click c{0, 0, false};
    if (name == "--click") {
      const std::string& v = clicks[nextClick++];
      if (!parseClick(v, c)) return refuse("--click: expected X,Y or X,Y,shift or X,Y,right, got '" + v + "'");
      opt.clicks.push_back(c);
    } else if (name == "--drag") {
      const std::string& v = drags[nextDrag++];
      if (!parseDrag(v, c)) return refuse("--drag: expected X0,Y0,X1,Y1 (window pixels), got '" + v + "'");
      opt.clicks.push_back(c);
    } else if (name == "--resize") {
      opt.resizeAfterClicks = int(opt.clicks.size());
    } else if (name == "--key") {
      opt.keys.push_back(keys[nextKey++]);
    } else if (name == "--type") {
      opt.keys.push_back(std::string(navbench::AppOptions::kTypePrefix) + typed[nextText++]);
    }
  }
  navbench::App app;
  return app.run(opt);
}
