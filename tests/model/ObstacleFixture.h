// ObstacleFixture.h: the default level's tile cache for the obstacle model tests, baked in the test
// process (nav/bake/LayerBake.h, as `navbench bake default.json --layers` does) once per test
// executable, and a navmesh state that opens it.
#pragma once

#include "app/NavState.h"
#include "app/TileCacheState.h"
#include "nav/bake/LayerBake.h"
#include "nav/bake/LevelFile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace navbench::test {

/// default.tcache baked from a copy of the default level (level file, OBJ, MTL); "" on failure
/// (with a test failure saying why).
inline const std::string& defaultTileCache() {
  static std::string path;
  if (!path.empty()) return path;
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / ("obstacles_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path src = fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path();
  for (const char* f : {"default.obj", "default.mtl", "default.json"}) fs::copy_file(src / f, dir / f);
  nav::bake::BakeInput input;
  nav::bake::BakeSettings settings;
  std::string why;
  if (!nav::bake::loadBakeInput((dir / "default.json").string(), &input, &settings, &why)) {
    ADD_FAILURE() << why;
    return path;
  }
  settings.tiled = true;
  nav::bake::BakeReport report;
  nav::tilecache::TileCacheFileData data;
  if (!nav::bake::bakeLayers(input, settings, nav::bake::BakeOptions(), &data, &report)) {
    ADD_FAILURE() << report.error;
    return path;
  }
  const std::string out = (dir / "default.tcache").string();
  if (nav::statusFailed(nav::tilecache::saveTileCacheFile(data, out, &why))) {
    ADD_FAILURE() << why;
    return path;
  }
  path = out;
  return path;
}

/// Floor points of the default level (tile (1, 0) and its neighbours) [Unit: wu].
constexpr float kFloor[3][3] = {{13.4f, 0.0f, 2.95f}, {20.0f, 0.0f, 3.0f}, {8.0f, 0.0f, 12.0f}};

inline Obstacle makeObstacle(Obstacle::Kind kind, const float* p) {
  Obstacle o;
  o.kind = kind;
  o.pos[0] = p[0], o.pos[1] = p[1], o.pos[2] = p[2];
  o.half[0] = 1.5f, o.half[1] = 1.0f, o.half[2] = 0.75f;
  o.yawDeg = 30.0f;
  return o;
}

} // namespace navbench::test
