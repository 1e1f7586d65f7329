// navbench bake LEVEL(.obj|.gltf|.glb|.json) -o OUT.bin [--tile-size N] [--threads N] [--settings FILE] [--solo]
// navbench bake LEVEL(.obj|.gltf|.glb|.json) --layers -o OUT.tcache [...]
// navbench bake LEVEL.json -o OUT.bin [--agent NAME]   (a level with several agent types)
//
// Bakes a level into a tile set file (RecastDemo's MSET format) and prints progress, counts and
// per-stage times. A .json level file brings its OBJ, settings, convex volumes and off-mesh links;
// a bare mesh (.obj, .gltf, .glb) bakes with default settings. Exit 2 when the input files cannot be read. Options override the level's settings.
// --layers bakes tile cache layers instead (nav/bake/LayerBake.h, the .tcache format of
// nav/tilecache/TileCacheFile.h); a bare .obj then takes RecastDemo TempObstacles' tile size 48.
// A level with `agents` (nav/bake/Agents.h) bakes one file per agent type, OUT.<name>.bin (or
// OUT.<name>.tcache): each the bake of inputForAgent with that type's settings. They are baked
// into temporary files beside the outputs and renamed into place only when every type baked, so a
// failure leaves the old files. --agent NAME bakes that type alone into OUT.
#include "app/cli/Cli.h"
#include "nav/base/Args.h"
#include "nav/TileSetFile.h"
#include "nav/bake/Bake.h"
#include "nav/bake/LayerBake.h"
#include "nav/bake/LevelFile.h"
#include "nav/bake/LevelMesh.h"
#include "nav/bake/ObjMesh.h"
#include "nav/bake/StreamBake.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

/// The bake's warnings (and, when it failed, its errors) to stderr, one indented line each.
void printLogProblems(const nav::bake::BakeReport& report, bool withErrors) {
  for (const std::string& l : report.log)
    if (l.find("warning") != std::string::npos || (withErrors && l.find("error") != std::string::npos))
      std::fprintf(stderr, "  %s\n", l.c_str());
}

/// `--layers`: the level in memory -> tile cache layers -> `out` (atomically).
int bakeLayersCli(const std::string& level, const nav::bake::BakeInput& input, const nav::bake::BakeSettings& settings,
                  const std::string& out, const nav::bake::BakeOptions& opt) {
  std::string why;
  nav::bake::BakeReport report;
  nav::tilecache::TileCacheFileData data;
  if (!nav::bake::bakeLayers(input, settings, opt, &data, &report)) {
    printLogProblems(report, true);
    std::fprintf(stderr, "navbench bake: %s: %s\n", level.c_str(), report.error.c_str());
    return 1;
  }
  printLogProblems(report, false);
  if (nav::statusFailed(nav::tilecache::saveTileCacheFile(data, out, &why))) {
    std::fprintf(stderr, "navbench bake: %s\n", why.c_str());
    return 1;
  }
  if (!report.grid.empty()) std::printf("%s\n", report.grid.c_str());
  std::printf("baked %s\n", out.c_str());
  std::printf("layers %d in %d x %d tiles of %d cells, off-mesh links %zu, compressed bytes %zu (%s)\n", report.tileCount,
              report.tilesX, report.tilesY, settings.tileSize, data.links.size(), report.dataBytes,
              nav::tilecache::compressorName(data.compressor));
  std::printf("time %.1f ms wall on %d thread(s); per stage (summed over tiles):\n", report.totalMs, report.threads);
  for (int s = 0; s < int(nav::bake::BakeStage::TileData) + 1; ++s)
    if (report.stageMs[s] > 0) std::printf("  %-20s %9.2f ms\n", nav::bake::bakeStageName(nav::bake::BakeStage(s)), report.stageMs[s]);
  return 0;
}

int runBake(int argc, char** argv) {
  std::string level, out, settingsFile, agent;
  int tileSize = -1, threads = 0;
  bool solo = false, quiet = false, layers = false;
  base::Args args("navbench bake", "Bakes a level into a navmesh tile set file and prints counts and per-stage times.");
  args.positional("LEVEL", &level, "an OBJ (default settings) or a level file (.json: OBJ + settings + volumes + links)")
      .text("-o, --out", "OUT.bin", &out, "tile set file to write (MSET, as RecastDemo saves; OUT.tcache with --layers)")
      .required("no output file given (-o OUT.bin)")
      .integer("--tile-size", "N", &tileSize, 0, 1000000, "tiled bake with N x N cell tiles; the bake settings allow 16..1024")
      .flag("--solo", &solo, "one tile over the whole level (RecastDemo's solo mesh)")
      .flag("--layers", &layers,
            "write tile cache layers (-o OUT.tcache) for `navbench obstacles`; a bare OBJ\n"
            "gets tile size 48 (RecastDemo's TempObstacles)")
      .integer("--threads", "N", &threads, 0, 1024, "worker threads (0 = all cores)")
      .text("--settings", "FILE", &settingsFile, "bake settings (JSON object, or a level file's \"settings\") over the level's")
      .text("--agent", "NAME", &agent,
            "bake only this agent type of the level's `agents` into OUT (default: every type,\n"
            "each into OUT.<name>.bin / OUT.<name>.tcache)")
      .flag("-q, --quiet", &quiet, "no progress lines");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;
  if (solo && layers) {
    std::fprintf(stderr, "navbench bake: --layers bakes tiles; --solo contradicts it\n");
    return 2;
  }
  if (solo && tileSize >= 0) {
    std::fprintf(stderr, "navbench bake: --solo and --tile-size contradict each other\n");
    return 2;
  }

  // A file bake (nav/bake/StreamBake.h): the OBJ is streamed and binned per tile on disk, so
  // memory is bounded by the tiles in flight, not the level's size; same tile set as Baker.
  nav::bake::FileBakeInput input;
  nav::bake::BakeSettings settings;
  nav::bake::Level lv;
  std::string why;
  if (!nav::bake::loadFileBakeInput(level, &input, &settings, &why, &lv)) {
    std::fprintf(stderr, "navbench bake: %s\n", why.c_str());
    return 2;
  }
  int only = -1; // --agent: the one agent type to bake
  if (!agent.empty()) {
    only = nav::bake::findAgent(lv, agent);
    if (only < 0) {
      std::string known;
      for (const nav::bake::AgentType& a : lv.agents) known += (known.empty() ? "" : ", ") + a.name;
      std::fprintf(stderr, "navbench bake: --agent %s: %s\n", agent.c_str(),
                   lv.agents.empty() ? (level + " declares no agents").c_str()
                                     : ("unknown agent in " + level + " (its agents: " + known + ")").c_str());
      return 2;
    }
  }
  if (nav::bake::meshFormatOf(input.objPath) != nav::bake::MeshFormat::Obj) {
    // A glTF or imported scene is read whole anyway: read it once here so that a bad file is
    // bad input (exit 2) before the bake starts; the OBJ is checked as it is streamed.
    nav::bake::LevelMesh mesh;
    if (!nav::bake::loadLevelMesh(input.objPath, &mesh, &why)) {
      std::fprintf(stderr, "navbench bake: %s\n", level != input.objPath ? (level + ": its mesh " + why).c_str() : why.c_str());
      return 2;
    }
    for (const std::string& note : mesh.notes) std::fprintf(stderr, "  note: %s\n", note.c_str());
  }
  if (!settingsFile.empty() && !nav::bake::loadSettingsFile(settingsFile, &settings, &why)) {
    std::fprintf(stderr, "navbench bake: %s\n", why.c_str());
    return 1;
  }
  const bool levelFile = level.size() >= 5 && level.compare(level.size() - 5, 5, ".json") == 0;
  // The options apply over the level's settings and, with agents, over each type's overrides.
  auto withOptions = [&](nav::bake::BakeSettings s) {
    if (solo) s.tiled = false;
    if (tileSize >= 0) {
      s.tiled = true;
      s.tileSize = tileSize;
    }
    if (layers && tileSize < 0 && !levelFile && settingsFile.empty()) s.tileSize = nav::bake::TEMP_OBSTACLES_TILE_SIZE;
    if (layers) s.tiled = true;
    return s;
  };

  struct Job {
    std::string name; ///< "" without agents
    int agent = 0;
    nav::bake::BakeSettings settings;
    std::string out;  ///< Where it goes
    std::string temp; ///< Where it is baked first ("" = straight to out)
  };
  std::vector<Job> jobs;
  if (lv.agents.empty() || only >= 0) {
    Job j;
    j.agent = only < 0 ? 0 : only;
    j.name = nav::bake::agentName(lv, j.agent);
    j.settings = settings;
    j.out = out;
    jobs.push_back(j);
  } else {
    for (int a = 0; a < int(lv.agents.size()); ++a) {
      Job j;
      j.agent = a;
      j.name = lv.agents[size_t(a)].name;
      j.settings = settings;
      j.out = nav::bake::agentFilePath(out, j.name);
      j.temp = j.out + ".partial-" + std::to_string(::getpid());
      jobs.push_back(j);
    }
  }
  for (Job& j : jobs) {
    if (!lv.agents.empty() &&
        !nav::bake::applyAgentOverrides(j.settings, lv.agents[size_t(j.agent)], &j.settings, &why)) {
      std::fprintf(stderr, "navbench bake: bad settings: %s\n", why.c_str());
      return 1;
    }
    j.settings = withOptions(j.settings);
    if (!j.settings.validate(&why)) {
      std::fprintf(stderr, "navbench bake: bad settings%s: %s\n", j.name.empty() ? "" : (" for agent \"" + j.name + "\"").c_str(),
                   why.c_str());
      return 1;
    }
  }

  nav::bake::BakeOptions opt;
  opt.threads = threads;
  int lastPercent = -1;
  nav::bake::BakeStage lastStage = nav::bake::BakeStage::Count;
  if (!quiet) {
    opt.progress = [&](const nav::bake::BakeProgress& p) {
      if (p.stage == nav::bake::BakeStage::Prepare && p.inputTotal > 0) {
        const int percent = p.inputDone * 100 / p.inputTotal;
        if (lastStage != p.stage || percent / 25 != lastPercent / 25) {
          std::printf("  prepare: input %d%%\n", percent);
          std::fflush(stdout);
          lastPercent = percent;
        }
      } else if (p.stage == nav::bake::BakeStage::TileData && p.tilesTotal > 1) {
        const int percent = p.tilesDone * 100 / p.tilesTotal;
        if (percent / 10 != lastPercent / 10 || p.tilesDone == p.tilesTotal) {
          std::printf("  tiles %d/%d (%d%%)\n", p.tilesDone, p.tilesTotal, percent);
          std::fflush(stdout);
          lastPercent = percent;
        }
      } else if (p.stage != lastStage) {
        std::printf("  %s\n", nav::bake::bakeStageName(p.stage));
        std::fflush(stdout);
      }
      lastStage = p.stage;
    };
  }
  auto removeTemps = [&]() {
    for (const Job& j : jobs)
      if (!j.temp.empty()) std::remove(j.temp.c_str());
  };
  nav::bake::BakeInput layerInput; // --layers: the whole level in memory, read once for every type
  if (layers && !nav::bake::loadFileBakeMesh(input, &layerInput, &why)) {
    std::fprintf(stderr, "navbench bake: %s\n", why.c_str());
    return 2;
  }
  for (const Job& j : jobs) {
    const std::string& target = j.temp.empty() ? j.out : j.temp;
    if (!quiet) {
      if (jobs.size() > 1) std::printf("agent %s -> %s\n", j.name.c_str(), j.out.c_str());
      std::printf("baking %s%s (%s)\n", level.c_str(), j.name.empty() ? "" : (" for agent " + j.name).c_str(),
                  layers ? "tile cache layers" : j.settings.tiled ? "tiled" : "solo");
    }
    lastPercent = -1;
    lastStage = nav::bake::BakeStage::Count;
    if (layers) {
      const std::string label = level + (j.name.empty() ? "" : " (agent " + j.name + ")");
      const int rc = bakeLayersCli(label, lv.agents.empty() ? layerInput : nav::bake::inputForAgent(layerInput, j.agent),
                                   j.settings, target, opt);
      if (rc != 0) {
        removeTemps();
        return rc;
      }
      continue;
    }
    nav::bake::BakeReport report;
    const bool ok = nav::bake::bakeFileToTileSet(lv.agents.empty() ? input : nav::bake::inputForAgent(input, j.agent),
                                                 j.settings, target, opt, &report);
    if (!ok) {
      printLogProblems(report, true);
      std::fprintf(stderr, "navbench bake: %s%s: %s\n", level.c_str(), j.name.empty() ? "" : (" (agent " + j.name + ")").c_str(),
                   report.error.c_str());
      removeTemps();
      return 1;
    }
    printLogProblems(report, false);

    if (!report.grid.empty()) std::printf("%s\n", report.grid.c_str()); // (warnings may come first in the log)
    std::printf("baked %s\n", j.out.c_str());
    std::printf("tiles %d (grid %d x %d), polys %d, verts %d, off-mesh connections %d, bytes %zu\n", report.tileCount,
                report.tilesX, report.tilesY, report.polyCount, report.vertCount, report.offMeshConCount, report.dataBytes);
    std::printf("time %.1f ms wall on %d thread(s); per stage (summed over tiles):\n", report.totalMs, report.threads);
    for (int s = 0; s < nav::bake::BAKE_STAGE_COUNT; ++s) {
      const nav::bake::BakeStage stage = nav::bake::BakeStage(s);
      if (stage == nav::bake::BakeStage::Done) continue;
      std::printf("  %-20s %9.2f ms\n", nav::bake::bakeStageName(stage), report.stageMs[s]);
    }
  }
  // Every type baked: the files go into place (each rename is atomic; a failure names what was
  // already written).
  std::vector<std::string> written;
  for (const Job& j : jobs) {
    if (!j.temp.empty() && std::rename(j.temp.c_str(), j.out.c_str()) != 0) {
      std::string done;
      for (const std::string& w : written) done += " " + w;
      std::fprintf(stderr, "navbench bake: cannot rename %s to %s: %s (written:%s)\n", j.temp.c_str(), j.out.c_str(),
                   std::strerror(errno), written.empty() ? " none" : done.c_str());
      removeTemps();
      return 1;
    }
    written.push_back(j.out);
    std::printf("wrote %s\n", j.out.c_str());
  }
  return 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(bake, "bake", "bake a level (OBJ or level file) into a navmesh tile set file", runBake);
