// The Obstacles tool's model (app/model/ObstacleModel.h) without the viewer, on the default level's
// tile cache (baked in the test): clicks drop, select and remove obstacles with one undo step each;
// the probe path re-routes around an obstacle and comes back after undo; a drag is one undo step;
// the outline drawn is the footprint clicks hit; the tool's scenario JSON round trip and refusals.
#include "app/model/ObstacleModel.h"
#include "nav/NavMesh.h"
#include "tests/model/ObstacleFixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <string>

namespace {

using navbench::NavState;
using navbench::Obstacle;
using navbench::ObstacleModel;
using navbench::test::kFloor;

glm::vec3 v3(const float* p) { return glm::vec3(p[0], p[1], p[2]); }

/// The default level's tile cache opened in a navmesh state, a model attached to it.
struct Bench {
  NavState nav;
  ObstacleModel model;
  bool ok = false;
  Bench() {
    std::string err;
    ok = !navbench::test::defaultTileCache().empty() && nav.loadTileCache(navbench::test::defaultTileCache(), err);
    EXPECT_TRUE(ok) << err;
    model.attach(&nav);
  }
  /// Runs the cache's update until every rebuild is in, then re-routes the probe (what the app
  /// does when rebuilt tiles arrive).
  void settle() {
    nav.tileCache()->poll(0);
    model.recomputeProbe();
  }
  std::string hash() const { return navbench::navMeshHash(nav.mesh()); }
};

TEST(ObstacleModel, ClickDropsSelectsAndShiftClickRemovesEachUndoable) {
  Bench b;
  ASSERT_TRUE(b.ok);
  const std::string hash0 = b.hash();
  ObstacleModel& m = b.model;
  ObstacleModel::Outcome o = m.click(v3(kFloor[0]), false);
  EXPECT_FALSE(o.error) << o.text;
  EXPECT_TRUE(o.recorded);
  EXPECT_EQ(o.text, "dropped a cylinder");
  ASSERT_EQ(b.nav.tileCache()->obstacles().size(), 1u);
  EXPECT_EQ(m.selected(), 0);
  b.settle();
  EXPECT_NE(b.hash(), hash0) << "the obstacle cut nothing";

  m.click(v3(kFloor[1]), false);
  EXPECT_EQ(m.selected(), 1);
  o = m.click(v3(kFloor[0]), false); // on the first one: selects it, drops nothing
  EXPECT_FALSE(o.recorded);
  EXPECT_EQ(m.selected(), 0);
  EXPECT_EQ(b.nav.tileCache()->obstacles().size(), 2u);

  o = m.click(v3(kFloor[0]), true);
  EXPECT_TRUE(o.recorded);
  EXPECT_EQ(o.text, "removed obstacle 0");
  EXPECT_EQ(b.nav.tileCache()->obstacles().size(), 1u);
  EXPECT_EQ(m.selected(), -1);

  // Back through the history and forward again.
  m.undo();
  EXPECT_EQ(b.nav.tileCache()->obstacles().size(), 2u);
  m.undo();
  m.undo();
  EXPECT_TRUE(b.nav.tileCache()->obstacles().empty());
  EXPECT_FALSE(m.canUndo());
  b.settle();
  EXPECT_EQ(b.hash(), hash0) << "every obstacle undone: the navmesh as opened";
  m.redo();
  EXPECT_EQ(b.nav.tileCache()->obstacles().size(), 1u);
  EXPECT_TRUE(m.canRedo());
  // A new edit drops the redo steps.
  m.click(v3(kFloor[2]), false);
  EXPECT_FALSE(m.canRedo());
}

TEST(ObstacleModel, ProbeReroutesAroundAnObstacleAndBackAfterUndo) {
  Bench b;
  ASSERT_TRUE(b.ok);
  ObstacleModel& m = b.model;
  EXPECT_FALSE(m.click(v3(kFloor[0]), true).recorded) << "Shift on the ground: the probe, not an edit";
  EXPECT_TRUE(m.hasStart());
  EXPECT_FALSE(m.hasEnd());
  m.click(v3(kFloor[1]), true);
  ASSERT_TRUE(m.hasEnd());
  ASSERT_GE(m.straightCount(), 2);
  EXPECT_FALSE(m.partial());
  const float len0 = m.probeLength();
  EXPECT_GT(len0, 5.0f) << "from snapped start to snapped end, 6.5 wu apart as clicked";

  // A box across the way, half way along.
  m.shape().kind = Obstacle::Box;
  m.shape().half[0] = 0.6f, m.shape().half[1] = 1.0f, m.shape().half[2] = 1.6f;
  const glm::vec3 mid = (v3(kFloor[0]) + v3(kFloor[1])) * 0.5f;
  ASSERT_TRUE(m.click(mid, false).recorded);
  b.settle();
  EXPECT_GT(m.probeLength(), len0 + 0.1f) << "the probe did not go around the box";
  EXPECT_GT(m.straightCount(), 2);

  m.undo();
  b.settle();
  EXPECT_NEAR(m.probeLength(), len0, 1e-4f);
  // A third Shift+click starts a new probe.
  m.click(v3(kFloor[2]), true);
  EXPECT_TRUE(m.hasStart());
  EXPECT_FALSE(m.hasEnd());
  EXPECT_EQ(m.straightCount(), 0);
}

TEST(ObstacleModel, ADragMovesTheObstacleAsOneUndoStep) {
  Bench b;
  ASSERT_TRUE(b.ok);
  ObstacleModel& m = b.model;
  ASSERT_TRUE(m.click(v3(kFloor[0]), false).recorded);
  b.settle();
  EXPECT_FALSE(m.dragBegin(v3(kFloor[0]), true)) << "Shift+drag is not a move";
  EXPECT_FALSE(m.dragBegin(v3(kFloor[1]), false)) << "no obstacle there";
  ASSERT_TRUE(m.dragBegin(v3(kFloor[0]), false));
  const glm::vec3 a = v3(kFloor[0]) + glm::vec3(1.0f, 0, 0), c = v3(kFloor[0]) + glm::vec3(2.5f, 0, 0.5f);
  m.dragTo(a);
  m.update();
  b.settle();
  m.dragTo(c);
  m.update();
  const ObstacleModel::Outcome o = m.dragEnd(c, true);
  EXPECT_TRUE(o.recorded);
  EXPECT_EQ(o.text, "moved obstacle 0");
  ASSERT_EQ(m.dragTrail().size(), 2u);
  EXPECT_EQ(m.dragTrail()[0], a);
  EXPECT_EQ(m.dragTrail()[1], c);
  const float* p = b.nav.tileCache()->obstacles()[0].pos;
  EXPECT_EQ(v3(p), c);
  m.undo(); // one step for the whole drag
  p = b.nav.tileCache()->obstacles()[0].pos;
  EXPECT_EQ(v3(p), v3(kFloor[0]));
  m.undo();
  EXPECT_TRUE(b.nav.tileCache()->obstacles().empty());
}

TEST(ObstacleModel, TheOutlineIsTheFootprintClicksHit) {
  Bench b;
  ASSERT_TRUE(b.ok);
  navbench::TileCacheState& tc = *b.nav.tileCache();
  std::string why;
  const Obstacle::Kind kinds[3] = {Obstacle::Cylinder, Obstacle::Box, Obstacle::OrientedBox};
  for (int i = 0; i < 3; ++i) {
    const Obstacle o = navbench::test::makeObstacle(kinds[i], kFloor[i]);
    ASSERT_TRUE(tc.add(o, &why)) << why;
    std::vector<glm::vec3> ring;
    ObstacleModel::outline(o, 1.25f, &ring);
    ASSERT_EQ(ring.size(), o.kind == Obstacle::Cylinder ? 24u : 4u);
    const glm::vec3 centre = v3(o.pos);
    for (const glm::vec3& q : ring) {
      EXPECT_EQ(q.y, 1.25f);
      // Just inside each outline point the obstacle is hit; just outside it is not.
      const glm::vec3 in = centre + (q - centre) * 0.97f, out = centre + (q - centre) * 1.03f;
      const float pin[3] = {in.x, o.pos[1], in.z}, pout[3] = {out.x, o.pos[1], out.z};
      EXPECT_EQ(tc.obstacleAt(pin), i) << navbench::obstacleKindName(o.kind);
      EXPECT_EQ(tc.obstacleAt(pout), -1) << navbench::obstacleKindName(o.kind);
    }
    const float height = o.kind == Obstacle::Cylinder ? o.height : 2 * o.half[1];
    EXPECT_FLOAT_EQ(ObstacleModel::top(o), o.pos[1] - navbench::TileCacheState::kSink + height);
  }
}

TEST(ObstacleModel, WithoutATileCacheClicksAreRefused) {
  NavState nav; // nothing open
  ObstacleModel m;
  m.attach(&nav);
  const ObstacleModel::Outcome o = m.click(v3(kFloor[0]), false);
  EXPECT_TRUE(o.error);
  EXPECT_FALSE(o.recorded);
  EXPECT_NE(o.text.find(".tcache"), std::string::npos) << o.text;
  EXPECT_FALSE(m.dragBegin(v3(kFloor[0]), false));
}

TEST(ObstacleModel, ScenarioRoundTripAndRefusals) {
  Bench b;
  ASSERT_TRUE(b.ok);
  ObstacleModel& m = b.model;
  m.shape().kind = Obstacle::OrientedBox;
  m.shape().half[0] = 2.5f;
  m.shape().yawDeg = 45.0f;
  m.click(v3(kFloor[0]), true);
  m.click(v3(kFloor[1]), true);
  nlohmann::json saved;
  m.saveScenario(saved);
  EXPECT_EQ(saved["kind"], "obox");
  ASSERT_TRUE(saved.contains("probeStart") && saved.contains("probeEnd"));

  Bench other;
  std::string error;
  ASSERT_TRUE(other.model.loadScenario(saved, error)) << error;
  nlohmann::json again;
  other.model.saveScenario(again);
  EXPECT_EQ(again, saved);
  EXPECT_NEAR(other.model.probeLength(), m.probeLength(), 1e-4f) << "the probe is re-run on load";
  EXPECT_TRUE(other.model.loadScenario(nlohmann::json(), error)) << "null: nothing to restore";

  const nlohmann::json refusals[][2] = {
      {nlohmann::json::array(), "object"},
      {{{"kind", "cone"}}, "kind: not cylinder, box or obox"},
      {{{"radius", "big"}}, "radius"},
      {{{"kind", "cylinder"}, {"radius", -1}}, "radius"},
      {{{"half", {1, 2}}}, "half"},
      {{{"probeStart", {0, std::numeric_limits<double>::quiet_NaN(), 0}}}, "probeStart"},
      {{{"colour", 1}}, "colour: unknown key"},
  };
  for (const auto& r : refusals) {
    std::string why;
    EXPECT_FALSE(other.model.loadScenario(r[0], why)) << r[0].dump();
    EXPECT_NE(why.find(r[1].get<std::string>()), std::string::npos) << r[0].dump() << " -> " << why;
    nlohmann::json now;
    other.model.saveScenario(now);
    EXPECT_EQ(now, saved) << r[0].dump() << ": a refused state changes nothing";
  }
}

} // namespace
