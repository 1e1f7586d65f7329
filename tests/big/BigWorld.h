// BigWorld.h: a generated world written once per process under the build dir and loaded as a
// DualMesh (Detour + nav from the same tile blobs).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include "DualMesh.h"
#include "app/cli/WorldGen.h"

#include <string>

namespace bigtest {

/// Path of the OBJ of world (size, seed), written on first use. "" + *why on failure.
inline std::string worldObj(float size, uint64_t seed, std::string* why) {
  // A folder per process (ctest -j runs tests in parallel); the file name (and so the mesh's
  // name, which seeds the tests' random data) stays the same.
  const std::string dir = std::string(NAVBENCH_BIG_TMP) + "/p" + std::to_string(::getpid());
  ::mkdir(dir.c_str(), 0755);
  const std::string path = dir + "/world_" + std::to_string(int(size)) + "_" + std::to_string(seed) + ".obj";
  navbench::worldgen::WorldParams p;
  p.size = size;
  p.seed = seed;
  if (!navbench::worldgen::writeWorldObj(p, path, nullptr, why)) return "";
  return path;
}

} // namespace bigtest
