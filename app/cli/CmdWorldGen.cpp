// navbench worldgen --size METRES --seed S -o OUT.obj|OUT.glb [--level OUT.json] [--terrain-cell M]
//
// Writes a generated big world (app/cli/WorldGen.h) as an OBJ, or as a .glb (the extension picks:
// the same triangles, the OBJ's floats as read back, in one node; nav/bake/GltfMesh.h), and
// optionally a level file next to it with tiled bake settings sized for big worlds (0.3 m cells,
// 64-cell tiles = 19.2 m).
#include "app/cli/Cli.h"
#include "nav/base/Args.h"
#include "app/cli/WorldGen.h"
#include "nav/bake/GltfMesh.h"
#include "nav/bake/LevelFile.h"
#include "nav/bake/ObjMesh.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <unistd.h>
#include <string>

namespace {

std::string relativeTo(const std::string& levelPath, const std::string& objPath) {
  // Same folder: just the name; otherwise the path as given (resolved by the caller's cwd).
  const auto ls = levelPath.find_last_of('/'), os = objPath.find_last_of('/');
  const std::string ld = ls == std::string::npos ? "" : levelPath.substr(0, ls);
  const std::string od = os == std::string::npos ? "" : objPath.substr(0, os);
  if (ld == od) return os == std::string::npos ? objPath : objPath.substr(os + 1);
  return objPath;
}

bool endsWithGlb(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = char(std::tolower((unsigned char)c));
  return ext == ".glb";
}

/// The world as a .glb at `out` (atomically): written as OBJ to a temporary file beside it first
/// (the generator streams OBJ text), read back, then saved as one binary mesh.
bool writeWorldGlb(const navbench::worldgen::WorldParams& p, const std::string& out, navbench::worldgen::WorldStats* st,
                   std::string* why) {
  const std::string tmp = out + ".worldgen" + std::to_string(::getpid()) + ".obj";
  nav::bake::ObjMesh mesh;
  const bool ok = navbench::worldgen::writeWorldObj(p, tmp, st, why) &&
                  nav::bake::loadObj(tmp, &mesh, why, nav::bake::NO_OBJ_SIZE_LIMIT);
  std::remove(tmp.c_str());
  return ok && nav::bake::saveGlb(out, mesh.verts, mesh.tris, "world", why);
}

int runWorldGen(int argc, char** argv) {
  navbench::worldgen::WorldParams p;
  std::string out, level;
  long long seed = 1;
  base::Args args("navbench worldgen", "Writes a generated big world (terrain, river, city blocks, bridges) as an OBJ.");
  args.number("--size", "METRES", &p.size, 32, 8192, "edge of the square world (2000 = 2 km x 2 km, ~2.3 M triangles)")
      .required()
      .integer("--seed", "S", &seed, 0, 0x7fffffffffffffffLL, "generator seed (same size + seed -> same bytes)")
      .text("-o, --out", "OUT.obj", &out, "OBJ, or .glb, to write (atomically)")
      .required()
      .text("--level", "OUT.json", &level, "also write a level file (tiled bake settings) pointing at OUT.obj")
      .number("--terrain-cell", "M", &p.terrainCell, 0.5, 16, "terrain grid step in metres");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;
  p.seed = uint64_t(seed);
  const auto t0 = std::chrono::steady_clock::now();
  navbench::worldgen::WorldStats st;
  std::string why;
  if (!(endsWithGlb(out) ? writeWorldGlb(p, out, &st, &why) : navbench::worldgen::writeWorldObj(p, out, &st, &why))) {
    std::fprintf(stderr, "navbench worldgen: %s\n", why.c_str());
    return 1;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %.0f m x %.0f m, seed %llu: %llu vertices, %llu triangles, %d city districts, %d buildings, "
              "%d bridges (%.2f s)\n",
              out.c_str(), double(p.size), double(p.size), (unsigned long long)p.seed,
              (unsigned long long)st.vertices, (unsigned long long)st.triangles, st.districts, st.buildings,
              st.bridges, secs);
  if (!level.empty()) {
    nav::bake::Level lv;
    lv.objPath = relativeTo(level, out);
    lv.settings.cellSize = 0.3f;
    lv.settings.cellHeight = 0.2f;
    lv.settings.tiled = true;
    lv.settings.tileSize = 64;
    if (!nav::bake::saveLevelFile(level, lv, &why)) {
      std::fprintf(stderr, "navbench worldgen: %s\n", why.c_str());
      return 1;
    }
    std::printf("%s: level file (tiled, cell %.2f m, tile %d cells)\n", level.c_str(),
                double(lv.settings.cellSize), lv.settings.tileSize);
  }
  return 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(worldgen, "worldgen", "write a generated big world (terrain, city, bridges, floors) as OBJ + level",
                    runWorldGen);
