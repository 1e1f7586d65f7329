// DualFixture.h: the base of the test fixtures that compare Detour and us on one DualMesh level:
// the level opened in SetUp, Detour's query and ours over it, the random stream seeded per level.
#pragma once

#include "DualMesh.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

namespace querytest {

class DualFixture {
protected:
  ~DualFixture() {
    if (dq) dtFreeNavMeshQuery(dq);
  }
  DualFixture() = default;
  DualFixture(const DualFixture&) = delete;
  DualFixture& operator=(const DualFixture&) = delete;

  /// For SetUp: the level `file` names (levelPath), baked with random areas, flags and links
  /// (loadDual), both queries (2048 nodes), the random stream seeded by the level's name ^ salt.
  /// Skips when a shared level is absent, fails when the bake does: the caller returns when
  /// ::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped().
  void openLevel(const std::string& file, bool tiled, uint64_t salt, float cellSize = 0.0f,
                 const std::string& seedKey = std::string()) {
    const std::string path = levelPath(file);
    if (path.empty()) GTEST_SKIP() << sharedLevelMissing(file);
    std::string why;
    mesh = loadDual(path, tiled, true, &why, cellSize, seedKey);
    ASSERT_NE(mesh, nullptr) << path << ": " << why;
    dq = dtAllocNavMeshQuery();
    ASSERT_TRUE(initQueries(*mesh, dq, nq));
    seedRandom(std::hash<std::string>()(mesh->name) ^ salt);
  }

  const DualMesh* mesh = nullptr;
  dtNavMeshQuery* dq = nullptr;
  nav::NavMeshQuery nq;
};

} // namespace querytest
