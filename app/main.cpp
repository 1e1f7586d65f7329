// navbench: the viewer, or a command-line subcommand when argv[1] names one (see app/cli/Cli.h).
//
//   navbench [level.obj] [--screenshot out.png] [--size WxH] [--frames N] [--click X,Y[,shift|right]]... [--drop FILE]...
//   navbench SCENARIO.json|SCREENSHOT.png [--screenshot out.png] [--size WxH]   (a saved scenario, reproduced)
//   navbench <subcommand> [args...]          (no SDL/GL is initialised)
//   navbench --help
#include "app/App.h"
#include "app/cli/Cli.h"
#include "app/import/SceneImport.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void printHelp(FILE* out) {
  std::fprintf(out,
               "usage: navbench [level.obj|level.json|mesh.bin|capture.nbcap] [mesh.bin|capture.nbcap] [--tool NAME] [--screenshot out.png] [--size WxH] [--frames N]\n"
               "       navbench SCENARIO.json|SCREENSHOT.png [--screenshot out.png] [--size WxH]\n"
               "       navbench <subcommand> [args...]\n"
               "\n"
               "Viewer options:\n"
               "  level.obj            open this OBJ (or .glb / .gltf) level (also File > Open, or drop a file on the window);\n"
               "                       a level .json opens its OBJ; the .bin with the same stem next to it\n"
               "                       is opened as the navmesh; a .bin alone is drawn and clicked on directly\n"
               "  mesh.bin             open this baked tile set as the navmesh (after the level)\n"
               "  mesh.tcache          a tile cache (navbench bake --layers) opens like a tile set, for the\n"
               "                       Obstacles tool; beside an OBJ (same stem, no .bin) it is opened with it\n"
               "  capture.nbcap        a path capture a game wrote (capture/navbench_capture.h): its navmesh, and\n"
               "                       its queries in the Captured queries panel, each replayed against the game's\n"
               "                       answer (ok / MISMATCH); the first shown in Pathfind Straight (--tool NAME: in\n"
               "                       that tool) with the captured filter and node budget. A bad file: exit code 2\n"
               "                       headless\n"
               "  SCENARIO.json        a saved scenario (File > Save scenario): level, tile set, camera, tool,\n"
               "                       start/end, filter, draw toggles; or a NavBench screenshot .png (F12),\n"
               "                       which carries its scenario. A bad or moved file: message, exit code 1\n"
               "                       headless (the viewer asks for moved files)\n"
               "  --tool NAME          activate a tool at start (\"Pathfind Follow\", \"Raycast\", ...)\n"
               "  --shortest           Pathfind Straight / Follow: turn the \"Shortest path\" option on (the exact\n"
               "                       shortest path drawn and compared with the mode's path)\n"
               "  --all-overlays       turn every navmesh drawing toggle on (detail mesh, BV tree too)\n"
               "  --bench-frames N     headless frame benchmark: every overlay on, a path set on the active\n"
               "                       tester tool, N frames rendered, then one line \"bench: cpu_ms_mean=...\n"
               "                       draw_calls=...\" on stdout (SDL_VIDEODRIVER=offscreen without display)\n"
               "  --dump-state FILE    at exit, write the open files and the active tool's inputs and results\n"
               "                       as JSON (for scripted tests)\n"
               "  --screenshot FILE    render without user input, write the frame (UI included) as PNG, exit;\n"
               "                       with no display use SDL_VIDEODRIVER=offscreen\n"
               "  --size WxH           window / screenshot size in pixels (default 1280x720)\n"
               "  --frames N           frames rendered before the screenshot (default 4)\n"
               "  --click X,Y[,shift]  click window pixel (X, Y) as the mouse would (UI widgets, or picking +\n"
               "                       the active tool); repeatable, one click per three frames; X,Y,right\n"
               "                       clicks the right button (the Crowd tool's move target)\n"
               "  --drag X0,Y0,X1,Y1   press the left button at window pixel (X0, Y0), move with it held (a step\n"
               "                       a frame) and release it at (X1, Y1)\n"
               "                       (moves a panel taken by its title bar); in order with the --clicks\n"
               "  --key NAME           after the clicks, press key NAME (SDL name, optional ctrl+ shift+ alt+,\n"
               "                       e.g. ctrl+z); repeatable, one key per two frames\n"
               "  --type TEXT          after the clicks, in order with the --key presses, type TEXT (text input\n"
               "                       events, as a keyboard would send into the focused text field)\n"
               "  --hover X,Y          after the clicks, rest the mouse on window pixel (X, Y) through the keys to the\n"
               "                       end (hover readouts: Navmesh panel, A* Stepper; keys at the mouse: Crowd T;\n"
               "                       --dump-state \"hover\")\n"
               "  --resize WxH         after the first frame, resize the window to WxH (panels are laid out again);\n"
               "                       given after --click/--drag options: after those\n"
               "  --ask-moved          headless: a scenario whose level or tile set moved opens the 'Scenario files\n"
               "                       not found' dialog (as interactive runs do) instead of failing; the script\n"
               "                       answers it (--type a path, --key return opens, --key escape cancels)\n"
               "  --drop FILE          after the first frame, drop FILE on the window (as a file manager would)\n"
               "  --save-scenario FILE at exit, save the scenario (as File > Save scenario) to FILE\n"
               "  --screenshot-dir DIR where F12 writes navbench-YYYYMMDD-HHMMSS.png (default ./screenshots)\n"
               "  --caption            screenshots get a caption strip (level, start/end, status, path length)\n"
               "  --view-only          screenshots show the 3D view only (no panels)\n"
               "  --recover            restore the level's unsaved edits kept in its recovery journal\n"
               "                       ($XDG_STATE_HOME/navbench/recovery, else ~/.local/state/navbench/recovery)\n"
               "                       without asking (headless too); interactive runs ask when a journal exists\n"
               "  --help               this text\n"
               "\n"
               "Subcommands (navbench <subcommand> --help for their options):\n");
  const int n = navbench::cli::subcommandCount();
  if (n == 0) std::fprintf(out, "  (none)\n");
  for (int i = 0; i < n; ++i) {
    const navbench::cli::Subcommand& c = navbench::cli::subcommandAt(i);
    std::fprintf(out, "  %-12s %s\n", c.name, c.summary);
  }
}

bool parseSize(const char* s, int& w, int& h) {
  char x = 0;
  char extra = 0;
  if (std::sscanf(s, "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X')) return false;
  return w >= 16 && h >= 16 && w <= 16384 && h <= 16384;
}

} // namespace

int main(int argc, char** argv) {
  navbench::import::installSceneImporter(); // FBX, Collada, ... through navbench-import beside this executable
  if (argc > 1) {
    if (const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand(argv[1]))
      return cmd->run(argc - 1, argv + 1);
  }
  navbench::AppOptions opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* what) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "navbench: %s needs %s\n", a.c_str(), what);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      printHelp(stdout);
      return 0;
    } else if (a == "--screenshot") {
      opt.screenshotPath = value("an output file name");
    } else if (a == "--size") {
      const char* v = value("WxH");
      if (!parseSize(v, opt.width, opt.height)) {
        std::fprintf(stderr, "navbench: --size: expected WxH (16..16384), got '%s'\n", v);
        return 2;
      }
      opt.sizeGiven = true;
    } else if (a == "--frames") {
      const char* v = value("a count");
      opt.screenshotFrames = std::atoi(v);
      if (opt.screenshotFrames < 1 || opt.screenshotFrames > 1000) {
        std::fprintf(stderr, "navbench: --frames: expected 1..1000, got '%s'\n", v);
        return 2;
      }
    } else if (a == "--click") {
      const char* v = value("X,Y[,shift|right]");
      navbench::AppOptions::Click c{0, 0, false};
      char rest[16] = {};
      const int n = std::sscanf(v, "%f,%f,%15s", &c.x, &c.y, rest);
      if (n < 2 || (n == 3 && std::strcmp(rest, "shift") != 0 && std::strcmp(rest, "right") != 0)) {
        std::fprintf(stderr, "navbench: --click: expected X,Y or X,Y,shift or X,Y,right, got '%s'\n", v);
        return 2;
      }
      c.shift = n == 3 && std::strcmp(rest, "shift") == 0;
      c.right = n == 3 && std::strcmp(rest, "right") == 0;
      opt.clicks.push_back(c);
    } else if (a == "--drag") {
      const char* v = value("X0,Y0,X1,Y1");
      navbench::AppOptions::Click c{0, 0, false};
      char extra = 0;
      if (std::sscanf(v, "%f,%f,%f,%f%c", &c.x, &c.y, &c.toX, &c.toY, &extra) != 4 || !std::isfinite(c.x) ||
          !std::isfinite(c.y) || !std::isfinite(c.toX) || !std::isfinite(c.toY)) {
        std::fprintf(stderr, "navbench: --drag: expected X0,Y0,X1,Y1 (window pixels), got '%s'\n", v);
        return 2;
      }
      c.drag = true;
      opt.clicks.push_back(c);
    } else if (a == "--tool") {
      opt.toolName = value("a tool name");
    } else if (a == "--shortest") {
      opt.shortest = true;
    } else if (a == "--all-overlays") {
      opt.allOverlays = true;
    } else if (a == "--bench-frames") {
      const char* v = value("a count");
      opt.benchFrames = std::atoi(v);
      if (opt.benchFrames < 1 || opt.benchFrames > 100000) {
        std::fprintf(stderr, "navbench: --bench-frames: expected 1..100000, got '%s'\n", v);
        return 2;
      }
    } else if (a == "--dump-state") {
      opt.dumpStatePath = value("an output file name");
    } else if (a == "--key") {
      opt.keys.push_back(value("a key name (e.g. ctrl+z)"));
    } else if (a == "--type") {
      opt.keys.push_back(std::string(navbench::AppOptions::kTypePrefix) + value("the text to type"));
    } else if (a == "--hover") {
      const char* v = value("X,Y");
      char extra = 0;
      // (sscanf's %f takes "nan" and "inf" too: no window pixel, so refused as well.)
      if (std::sscanf(v, "%f,%f%c", &opt.hoverX, &opt.hoverY, &extra) != 2 || !std::isfinite(opt.hoverX) ||
          !std::isfinite(opt.hoverY)) {
        std::fprintf(stderr, "navbench: --hover: expected X,Y (window pixels), got '%s'\n", v);
        return 2;
      }
      opt.hover = true;
    } else if (a == "--resize") {
      const char* v = value("WxH");
      if (!parseSize(v, opt.resizeW, opt.resizeH)) {
        std::fprintf(stderr, "navbench: --resize: expected WxH (16..16384), got '%s'\n", v);
        return 2;
      }
      opt.resizeAfterClicks = int(opt.clicks.size());
    } else if (a == "--ask-moved") {
      opt.askMoved = true;
    } else if (a == "--drop") {
      opt.drops.push_back(value("a file"));
    } else if (a == "--save-scenario") {
      opt.saveScenarioPath = value("an output file name");
    } else if (a == "--screenshot-dir") {
      opt.screenshotDir = value("a folder");
    } else if (a == "--caption") {
      opt.caption = true;
    } else if (a == "--view-only") {
      opt.viewOnly = true;
    } else if (a == "--recover") {
      opt.recover = true;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "navbench: unknown option '%s' (see navbench --help)\n", a.c_str());
      return 2;
    } else if (opt.levelPath.empty()) {
      opt.levelPath = a;
    } else if (opt.navPath.empty() && ((a.size() > 4 && a.compare(a.size() - 4, 4, ".bin") == 0) ||
                                       (a.size() > 7 && a.compare(a.size() - 7, 7, ".tcache") == 0) ||
                                       (a.size() > 6 && a.compare(a.size() - 6, 6, ".nbcap") == 0))) {
      opt.navPath = a; // a second positional argument is only ever the navmesh
    } else {
      std::fprintf(stderr, "navbench: unexpected argument '%s': neither a subcommand nor the single level file "
                   "(see navbench --help)\n", a.c_str());
      return 2;
    }
  }
  navbench::App app;
  return app.run(opt);
}
