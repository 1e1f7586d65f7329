// WorldGen.h: a deterministic generator of large OBJ levels ("big worlds") for baking, loading and
// query benchmarks. std only (no nav, no app), so tests and tools can link it alone.
//
// The world is a square of `size` metres (x, z in [0, size]; y up) built from:
//  - terrain: a 2 m height grid of smooth value-noise hills (slopes mostly under 30 degrees), with
//    a river valley (8 m deep) crossing it along x;
//  - city districts (256 m cells chosen by the seed, the central one always): flat ground cut into
//    60 m blocks by 12 m streets, each block holding buildings with 0.4 m walls, a door opening on
//    the ground floor, an interior partition wall with its own door, 1..4 floors joined by ramps
//    (30 degrees) through openings in the floor slabs, and a roof;
//  - bridges over the river every ~150 m (a deck 6 m wide, walkable above and under).
// Same (size, seed) -> byte-identical OBJ. Triangles grow ~ size^2: ~0.6 M at 1 km, ~2.3 M at 2 km.
#pragma once

#include <cstdint>
#include <string>

namespace navbench::worldgen {

struct WorldParams {
  float size = 256.0f;   ///< Edge of the square world [Unit: m] [Limit: 32..8192]
  uint64_t seed = 1;
  float terrainCell = 2.0f; ///< Terrain grid step [Unit: m] [Limit: 0.5..16]
};

struct WorldStats {
  uint64_t vertices = 0;
  uint64_t triangles = 0;
  int buildings = 0;
  int bridges = 0;
  int districts = 0; ///< City districts.
};

/// Writes the world as an OBJ file, streaming (memory does not grow with the world) and
/// atomically (path + ".tmp", then rename). False with *why naming the file on failure.
bool writeWorldObj(const WorldParams& p, const std::string& path, WorldStats* stats, std::string* why);

/// Terrain height at (x, z) (without buildings or bridges) [Unit: m].
float terrainHeight(const WorldParams& p, float x, float z);

} // namespace navbench::worldgen
