// BenchWorld.h: the generated world the world-scale benchmarks share (check_bench, hier_bench,
// capture_bench):
// app/cli/WorldGen's world (seed 1) baked with the settings `navbench worldgen --level` writes
// (tiled, cell 0.3 m, cell height 0.2 m, tile 64 cells; as `navbench worldgen` + `navbench bake`
// would), kept beside the binaries as check_world_<size>_1.bin and reused.
#pragma once

#include "app/cli/WorldGen.h"
#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "nav/bake/StreamBake.h"

#include <cstdio>
#include <string>
#include <unistd.h>

namespace benchworld {

/// The path of the world's tile set in dir (`size` m, seed 1), generating and baking it there
/// first when absent. tileSize: cells per tile side (64; the 4 km world needs bigger tiles for its
/// refs to keep 10 salt bits: 112), in the file name when not 64. "" with why set on failure.
inline std::string bakedWorld(const std::string& dir, int size, std::string& why, int tileSize = 64) {
  const std::string bin = dir + "/check_world_" + std::to_string(size) + "_1" +
                          (tileSize == 64 ? std::string() : "_t" + std::to_string(tileSize)) + ".bin";
  if (access(bin.c_str(), R_OK) == 0) return bin;
  const std::string obj = dir + "/check_world_" + std::to_string(size) + "_1.obj";
  navbench::worldgen::WorldParams wp;
  wp.size = float(size);
  wp.seed = 1;
  std::fprintf(stderr, "generating and baking the %d m world (once, kept in %s) ...\n", size, dir.c_str());
  if (!navbench::worldgen::writeWorldObj(wp, obj, nullptr, &why)) return "";
  nav::bake::FileBakeInput input;
  nav::bake::BakeSettings settings;
  bool ok = nav::bake::loadFileBakeInput(obj, &input, &settings, &why);
  settings.cellSize = 0.3f;
  settings.cellHeight = 0.2f;
  settings.tiled = true;
  settings.tileSize = tileSize;
  if (ok) {
    nav::bake::BakeReport report;
    ok = nav::bake::bakeFileToTileSet(input, settings, bin, nav::bake::BakeOptions(), &report);
    if (!ok) why = report.error;
  }
  std::remove(obj.c_str());
  return ok ? bin : "";
}

/// Loads that world into `mesh` (bakedWorld, then the tile-set reader).
inline bool loadWorld(const std::string& dir, int size, nav::NavMesh& mesh, std::string& why, int tileSize = 64) {
  const std::string bin = bakedWorld(dir, size, why, tileSize);
  return !bin.empty() && nav::statusSucceeded(nav::loadTileSetFile(bin, mesh, &why));
}

} // namespace benchworld
