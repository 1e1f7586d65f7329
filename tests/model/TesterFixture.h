// TesterFixture.h: the committed default level's navmesh (assets/levels/default.bin) opened in a
// NavState for the tester models, a second query on it to compute the answers directly, and two
// points on it found by the query API (no coordinates copied from a run): the start and an end
// that a complete path of several polys joins, and an end no path reaches.
#pragma once

#include "app/NavState.h"
#include "app/model/TesterModel.h"
#include "nav/NavMeshQuery.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace navbench::test {

inline std::string defaultBin() {
  return (std::filesystem::path(NAVBENCH_DEFAULT_LEVEL).parent_path() / "default.bin").string();
}

class TesterFixture : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    ASSERT_TRUE(nav.loadBin(defaultBin(), why)) << why;
    ASSERT_TRUE(nav::statusSucceeded(q.init(&nav.mesh(), nav.maxNodes())));
    // Candidates: random points on the mesh (fixed seed). The start is the first; the end the
    // one a complete path reaches over the most polys; the unreachable one the first whose path
    // is partial.
    rng().seed(7); // every test the same points
    std::vector<glm::vec3> pts;
    for (int i = 0; i < 60; ++i) {
      nav::PolyRef ref = 0;
      float p[3];
      if (nav::statusSucceeded(q.findRandomPoint(&nav.filter(), rnd, &ref, p))) pts.push_back(glm::vec3(p[0], p[1], p[2]));
    }
    ASSERT_GE(pts.size(), 10u);
    start = pts[0];
    const nav::PolyRef sr = nav.nearestPoly(start);
    ASSERT_NE(sr, 0u);
    int most = 0;
    for (size_t i = 1; i < pts.size(); ++i) {
      const nav::PolyRef er = nav.nearestPoly(pts[i]);
      std::vector<nav::PolyRef> path(TesterModel::kMaxPolys);
      int n = 0;
      const nav::Status st = q.findPath(sr, er, &start.x, &pts[i].x, &nav.filter(), path.data(), &n, TesterModel::kMaxPolys);
      if (!er || nav::statusFailed(st)) continue;
      if (nav::statusDetail(st, nav::PARTIAL_RESULT)) {
        if (!hasUnreachable) unreachable = pts[i];
        hasUnreachable = true;
      } else if (n > most) {
        most = n;
        end = pts[i];
      }
    }
    ASSERT_GT(most, 3) << "a path over a few polys";
  }

  /// The answers' inputs as the model snaps them.
  nav::PolyRef ref(const glm::vec3& p) { return nav.nearestPoly(p); }

  static std::mt19937& rng() {
    static std::mt19937 r;
    return r;
  }
  static float rnd() { return std::uniform_real_distribution<float>(0.0f, 1.0f)(rng()) * 0.99999994f; }

  NavState nav;
  nav::NavMeshQuery q; ///< The direct answers (the models use nav.query()).
  glm::vec3 start{0.0f}, end{0.0f}, unreachable{0.0f};
  bool hasUnreachable = false;
};

/// The model's --dump-state JSON without the timing (which differs run to run).
inline nlohmann::json stateOf(const TesterModel& m) {
  nlohmann::json j;
  m.dumpState(j);
  j.erase("queryUs");
  return j;
}

} // namespace navbench::test
