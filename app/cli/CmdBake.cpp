// navbench bake LEVEL(.obj|.gltf|.glb|.json) -o OUT.bin [--tile-size N] [--threads N] [--settings FILE] [--solo]
// navbench bake LEVEL(.obj|.gltf|.glb|.json) --layers -o OUT.tcache [...]
//
// Bakes a level into a tile set file (RecastDemo's MSET format) and prints progress, counts and
// per-stage times. A .json level file brings its OBJ, settings, convex volumes and off-mesh links;
// a bare mesh (.obj, .gltf, .glb) bakes with default settings. Exit 2 when the input files cannot be read. Options override the level's settings.
// --layers bakes tile cache layers instead (nav/bake/LayerBake.h, the .tcache format of
// nav/tilecache/TileCacheFile.h); a bare .obj then takes RecastDemo TempObstacles' tile size 48.
#include "app/cli/Cli.h"
#include "nav/base/Args.h"
#include "nav/TileSetFile.h"
#include "nav/bake/Bake.h"
#include "nav/bake/LayerBake.h"
#include "nav/bake/LevelFile.h"
#include "nav/bake/LevelMesh.h"
#include "nav/bake/ObjMesh.h"
#include "nav/bake/StreamBake.h"

#include <cstdio>
#include <string>

namespace {

/// The bake's warnings (and, when it failed, its errors) to stderr, one indented line each.
void printLogProblems(const nav::bake::BakeReport& report, bool withErrors) {
  for (const std::string& l : report.log)
    if (l.find("warning") != std::string::npos || (withErrors && l.find("error") != std::string::npos))
      std::fprintf(stderr, "  %s\n", l.c_str());
}

/// `--layers`: the level's OBJ in memory -> tile cache layers -> OUT.tcache (atomically).
int bakeLayersCli(const std::string& level, const nav::bake::FileBakeInput& file, const nav::bake::BakeSettings& settings,
                  const std::string& out, const nav::bake::BakeOptions& opt) {
  nav::bake::BakeInput input;
  std::string why;
  if (!nav::bake::loadFileBakeMesh(file, &input, &why)) {
    std::fprintf(stderr, "navbench bake: %s\n", why.c_str());
    return 2;
  }
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
  std::printf("wrote %s\n", out.c_str());
  std::printf("layers %d in %d x %d tiles of %d cells, off-mesh links %zu, compressed bytes %zu (%s)\n", report.tileCount,
              report.tilesX, report.tilesY, settings.tileSize, data.links.size(), report.dataBytes,
              nav::tilecache::compressorName(data.compressor));
  std::printf("time %.1f ms wall on %d thread(s); per stage (summed over tiles):\n", report.totalMs, report.threads);
  for (int s = 0; s < int(nav::bake::BakeStage::TileData) + 1; ++s)
    if (report.stageMs[s] > 0) std::printf("  %-20s %9.2f ms\n", nav::bake::bakeStageName(nav::bake::BakeStage(s)), report.stageMs[s]);
  return 0;
}

int runBake(int argc, char** argv) {
  std::string level, out, settingsFile;
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
  std::string why;
  if (!nav::bake::loadFileBakeInput(level, &input, &settings, &why)) {
    std::fprintf(stderr, "navbench bake: %s\n", why.c_str());
    return 2;
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
  if (solo) settings.tiled = false;
  if (tileSize >= 0) {
    settings.tiled = true;
    settings.tileSize = tileSize;
  }
  const bool levelFile = level.size() >= 5 && level.compare(level.size() - 5, 5, ".json") == 0;
  if (layers && tileSize < 0 && !levelFile && settingsFile.empty()) settings.tileSize = nav::bake::TEMP_OBSTACLES_TILE_SIZE;
  if (layers) settings.tiled = true;
  if (!settings.validate(&why)) {
    std::fprintf(stderr, "navbench bake: bad settings: %s\n", why.c_str());
    return 1;
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
  if (!quiet) std::printf("baking %s (%s)\n", level.c_str(), layers ? "tile cache layers" : settings.tiled ? "tiled" : "solo");
  nav::bake::BakeReport report;
  if (layers) return bakeLayersCli(level, input, settings, out, opt);
  const bool ok = nav::bake::bakeFileToTileSet(input, settings, out, opt, &report);
  if (!ok) {
    printLogProblems(report, true);
    std::fprintf(stderr, "navbench bake: %s: %s\n", level.c_str(), report.error.c_str());
    return 1;
  }
  printLogProblems(report, false);

  if (!report.grid.empty()) std::printf("%s\n", report.grid.c_str()); // (warnings may come first in the log)
  std::printf("wrote %s\n", out.c_str());
  std::printf("tiles %d (grid %d x %d), polys %d, verts %d, off-mesh connections %d, bytes %zu\n", report.tileCount,
              report.tilesX, report.tilesY, report.polyCount, report.vertCount, report.offMeshConCount, report.dataBytes);
  std::printf("time %.1f ms wall on %d thread(s); per stage (summed over tiles):\n", report.totalMs, report.threads);
  for (int s = 0; s < nav::bake::BAKE_STAGE_COUNT; ++s) {
    const nav::bake::BakeStage stage = nav::bake::BakeStage(s);
    if (stage == nav::bake::BakeStage::Done) continue;
    std::printf("  %-20s %9.2f ms\n", nav::bake::bakeStageName(stage), report.stageMs[s]);
  }
  return 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(bake, "bake", "bake a level (OBJ or level file) into a navmesh tile set file", runBake);
