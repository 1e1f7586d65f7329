// CorridorWorld.h: crowd test support. Two 12 x 12 m rooms (x 0..12 and 20..32, z 0..12) joined
// by an 8 m corridor 3 m wide (z 4.5 .. 7.5), as a navmesh for agents of radius r: the corridor's
// walkable half width is 1.5 - r around z = 6, as a bake eroding it by r would leave (the rooms
// are left whole: only the corridor matters). Built from polygons (tests/check/CheckMeshes.h).
#pragma once

#include "tests/check/CheckMeshes.h"

#include <memory>

namespace crowdtest {

inline std::unique_ptr<nav::NavMesh> corridorWorld(float r) {
  checktest::TestMeshSpec spec;
  spec.tileSize = 40;
  const float z0 = 6.0f - (1.5f - r), z1 = 6.0f + (1.5f - r);
  for (float x0 : {0.0f, 20.0f}) {
    spec.polys.push_back(checktest::rect(x0, 0, x0 + 12, z0));
    spec.polys.push_back(checktest::rect(x0, z0, x0 + 12, z1));
    spec.polys.push_back(checktest::rect(x0, z1, x0 + 12, 12));
  }
  spec.polys.push_back(checktest::rect(12, z0, 20, z1));
  return checktest::buildMesh(spec);
}

} // namespace crowdtest
