// CrowdTestMesh.h: the navmesh the crowd model tests run on: the committed default level's tile
// set (assets/levels/default.bin), loaded once per test executable.
#pragma once

#include "app/NavState.h"

#include <gtest/gtest.h>

#include <string>

namespace navbench::test {

inline NavState& crowdTestNav() {
  static NavState nav;
  if (!nav.loaded()) {
    std::string why;
    EXPECT_TRUE(nav.loadBin(std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin", why)) << why;
  }
  return nav;
}

} // namespace navbench::test
