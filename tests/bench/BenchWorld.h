// BenchWorld.h: the generated world the benchmarks share: app/cli/WorldGen's (seed 1), baked with
// the settings `navbench worldgen --level` writes (tiled, cell 0.3 m, cell height 0.2 m, tile 64
// cells; as `navbench worldgen` + `navbench bake` would). The 2 km world has 11,025 tiles. The
// tile set is baked once and kept in a folder (check_world_<size>_1.bin), so every benchmark
// binary built in that folder reuses it. Needs app/cli/WorldGen.cpp and nav_bake.
#pragma once

#include "app/cli/WorldGen.h"
#include "nav/bake/StreamBake.h"

#include <cstdio>
#include <string>
#include <unistd.h>

namespace benchutil {

/// The path of the world's tile set in dir, baking it first when absent. "" with why set on failure.
inline std::string bakedWorld(int size, const std::string& dir, std::string& why) {
  const std::string bin = dir + "/check_world_" + std::to_string(size) + "_1.bin";
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
  settings.tileSize = 64;
  if (ok) {
    nav::bake::BakeReport report;
    ok = nav::bake::bakeFileToTileSet(input, settings, bin, nav::bake::BakeOptions(), &report);
    if (!ok) why = report.error;
  }
  std::remove(obj.c_str());
  return ok ? bin : "";
}

} // namespace benchutil
