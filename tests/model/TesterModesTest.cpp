// Each tester mode's answers on the default level, headless: the model against the same query run
// directly on the same mesh, filter and points, or against properties of the answer (a corridor
// joins the start and end polys, a raycast hit lies on a wall, random points lie on the mesh).
#include "TesterFixture.h"

#include "app/model/TesterModes.h"
#include "nav/PathFollow.h"
#include "nav/ShortestPath.h"

#include <algorithm>
#include <cmath>

using navbench::test::TesterFixture;
using nlohmann::json;

namespace {

std::vector<nav::PolyRef> refs(const nav::PolyRef* p, int n) { return std::vector<nav::PolyRef>(p, p + n); }

void expectPoints(const float* got, int ngot, const float* want, int nwant) {
  ASSERT_EQ(ngot, nwant);
  for (int i = 0; i < ngot * 3; ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
}

/// Sets start and end on a fresh model of type M bound to `nav`.
template <class M>
void place(M& m, navbench::NavState& nav, const glm::vec3& a, const glm::vec3* b) {
  m.setNav(&nav);
  m.setStart(a);
  if (b) m.setEnd(*b);
}

} // namespace

TEST_F(TesterFixture, StraightIsFindPathThenFindStraightPath) {
  navbench::StraightModel m;
  place(m, nav, start, &end);
  const nav::PolyRef sr = ref(start), er = ref(end);
  EXPECT_EQ(m.startRef(), sr);
  EXPECT_EQ(m.endRef(), er);
  std::vector<nav::PolyRef> path(2048);
  int n = 0;
  ASSERT_TRUE(nav::statusSucceeded(q.findPath(sr, er, &start.x, &end.x, &nav.filter(), path.data(), &n, 2048)));
  EXPECT_EQ(m.status(), q.findPath(sr, er, &start.x, &end.x, &nav.filter(), path.data(), &n, 2048));
  EXPECT_EQ(refs(m.corridor(), m.corridorSize()), refs(path.data(), n));
  EXPECT_EQ(m.corridor()[0], sr) << "the corridor joins the start poly...";
  EXPECT_EQ(m.corridor()[m.corridorSize() - 1], er) << "...and the end poly";
  std::vector<float> pts(2048 * 3);
  std::vector<uint8_t> flags(2048);
  int nc = 0;
  for (int crossing = 0; crossing < 3; ++crossing) {
    m.setCrossing(crossing);
    const int opts = crossing == 1 ? nav::STRAIGHTPATH_AREA_CROSSINGS : crossing == 2 ? nav::STRAIGHTPATH_ALL_CROSSINGS : 0;
    q.findStraightPath(&start.x, &end.x, path.data(), n, pts.data(), flags.data(), nullptr, &nc, 2048, opts);
    ASSERT_NO_FATAL_FAILURE(expectPoints(m.straight(), m.straightSize(), pts.data(), nc));
    EXPECT_TRUE(m.straightFlags()[0] & nav::STRAIGHTPATH_START);
    EXPECT_TRUE(m.straightFlags()[m.straightSize() - 1] & nav::STRAIGHTPATH_END);
  }
  EXPECT_NEAR(m.resultLength(), m.straightLength(), 0.0f);
}

TEST_F(TesterFixture, FollowIsTheSmoothPathAndStepsAlongIt) {
  navbench::FollowModel m;
  place(m, nav, start, &end);
  const nav::PolyRef sr = ref(start), er = ref(end);
  std::vector<nav::PolyRef> path(2048);
  int n = 0;
  q.findPath(sr, er, &start.x, &end.x, &nav.filter(), path.data(), &n, 2048);
  EXPECT_EQ(refs(m.corridor(), m.corridorSize()), refs(path.data(), n));
  std::vector<float> smooth(2048 * 3);
  int ns = 0;
  nav::findSmoothPath(&q, &nav.filter(), sr, &start.x, &end.x, path.data(), n, smooth.data(), &ns, 2048);
  ASSERT_GT(ns, 2);
  ASSERT_NO_FATAL_FAILURE(expectPoints(m.smooth(), m.smoothSize(), smooth.data(), ns));
  // Stepping: a follower on the corridor; each step emits points, it ends near the end.
  EXPECT_FALSE(m.stepping());
  for (int i = 0; i < 2000 && !(m.stepping() && m.follower().done()); ++i) m.step();
  ASSERT_TRUE(m.stepping());
  EXPECT_TRUE(m.follower().done());
  const float* p = m.follower().position();
  EXPECT_LT(std::hypot(p[0] - end.x, p[2] - end.z), 1.0f) << "the follower reaches the end";
  m.restartStepping();
  EXPECT_FALSE(m.stepping());
}

TEST_F(TesterFixture, ShortestPathOptionIsShortestPathsOwnAndNotLonger) {
  for (int mode = 0; mode < 2; ++mode) {
    std::unique_ptr<navbench::PathTesterModel> m;
    if (mode == 0) m = std::make_unique<navbench::StraightModel>();
    else m = std::make_unique<navbench::FollowModel>();
    SCOPED_TRACE(m->name());
    place(*m, nav, start, &end);
    EXPECT_TRUE(m->shortest().pts.empty()) << "off by default";
    m->setShowShortest(true);
    nav::ShortestPath sp;
    ASSERT_TRUE(nav::statusSucceeded(sp.init(&nav.mesh(), 8192)));
    std::vector<float> pts(2048 * 3);
    std::vector<nav::PolyRef> polys(8192);
    int n = 0, np = 0;
    float len = 0;
    ASSERT_TRUE(nav::statusSucceeded(sp.findPath(ref(start), ref(end), &start.x, &end.x, &nav.filter(), pts.data(), nullptr,
                                                 nullptr, &n, 2048, polys.data(), &np, 8192, &len)));
    const navbench::ShortestComparison& c = m->shortest();
    EXPECT_FLOAT_EQ(c.len, len);
    ASSERT_NO_FATAL_FAILURE(expectPoints(c.pts.data(), int(c.pts.size() / 3), pts.data(), n));
    EXPECT_LE(navbench::TesterModel::polylineLength(c.pts.data(), n), m->resultLength() + 1e-3f);
    std::vector<nav::PolyRef> corridor = refs(m->corridor(), m->corridorSize()), outside;
    for (int i = 0; i < np; ++i)
      if (std::find(corridor.begin(), corridor.end(), polys[size_t(i)]) == corridor.end() &&
          std::find(outside.begin(), outside.end(), polys[size_t(i)]) == outside.end())
        outside.push_back(polys[size_t(i)]);
    EXPECT_EQ(c.outside, outside);
    json j;
    m->dumpState(j);
    EXPECT_EQ(j["shortestPolysOutsideCorridor"].get<std::vector<nav::PolyRef>>(), outside);
  }
}

TEST_F(TesterFixture, SlicedStepsToFindPathsCorridorAndExactToShortestPath) {
  navbench::SlicedModel m;
  place(m, nav, start, &end);
  ASSERT_TRUE(m.running());
  int frames = 0;
  while (m.running() && frames++ < 10000) m.update();
  EXPECT_GT(frames, 2) << "a few iterations a frame, not all at once";
  // The same search one iteration at a time.
  const nav::PolyRef sr = ref(start), er = ref(end);
  ASSERT_TRUE(nav::statusInProgress(q.initSlicedFindPath(sr, er, &start.x, &end.x, &nav.filter())));
  int iters = 0;
  nav::Status st;
  do {
    int done = 0;
    st = q.updateSlicedFindPath(1, &done);
    iters += done;
  } while (nav::statusInProgress(st));
  std::vector<nav::PolyRef> path(2048);
  int n = 0;
  q.finalizeSlicedFindPath(path.data(), &n, 2048);
  EXPECT_EQ(m.iterations(), iters);
  EXPECT_EQ(refs(m.corridor(), m.corridorSize()), refs(path.data(), n));
  // Exact: stepped to the end it is ShortestPath's path.
  m.setShowShortest(true);
  ASSERT_TRUE(m.exact());
  while (m.running()) m.step();
  nav::ShortestPath sp;
  ASSERT_TRUE(nav::statusSucceeded(sp.init(&nav.mesh(), 8192)));
  std::vector<float> pts(2048 * 3);
  int np = 0;
  float len = 0;
  ASSERT_TRUE(nav::statusSucceeded(
      sp.findPath(sr, er, &start.x, &end.x, &nav.filter(), pts.data(), nullptr, nullptr, &np, 2048, nullptr, nullptr, 0, &len)));
  EXPECT_FLOAT_EQ(m.exactLen(), len);
  ASSERT_NO_FATAL_FAILURE(expectPoints(m.straight(), m.straightSize(), pts.data(), np));
  EXPECT_GT(m.iterations(), 1);
}

TEST_F(TesterFixture, UnreachableEndIsPartialAndEndsShort) {
  ASSERT_TRUE(hasUnreachable) << "the default level has a walled-in block";
  navbench::StraightModel m;
  place(m, nav, start, &unreachable);
  std::vector<nav::PolyRef> path(2048);
  int n = 0;
  const nav::Status st = q.findPath(ref(start), ref(unreachable), &start.x, &unreachable.x, &nav.filter(), path.data(), &n, 2048);
  EXPECT_EQ(m.status(), st);
  EXPECT_TRUE(nav::statusDetail(m.status(), nav::PARTIAL_RESULT));
  EXPECT_EQ(refs(m.corridor(), m.corridorSize()), refs(path.data(), n));
  EXPECT_NE(m.corridor()[m.corridorSize() - 1], m.endRef());
  EXPECT_NE(m.caption().find("partial"), std::string::npos) << m.caption();
}

TEST_F(TesterFixture, RaycastIsRaycastAndAHitLiesOnAWall) {
  navbench::RaycastModel m;
  place(m, nav, start, &unreachable); // toward the walled-in block: a wall is in the way
  float t = 0, normal[3];
  std::vector<nav::PolyRef> visited(2048);
  int nv = 0;
  q.raycast(ref(start), &start.x, &unreachable.x, &nav.filter(), &t, normal, visited.data(), &nv, 2048);
  EXPECT_EQ(m.t(), t);
  EXPECT_EQ(refs(m.visited(), m.visitedCount()), refs(visited.data(), nv));
  ASSERT_TRUE(m.hit());
  // The hit (xz) is on a wall segment of the last visited poly.
  float segs[6 * 32];
  nav::PolyRef segRefs[32];
  int nsegs = 0;
  q.getPolyWallSegments(visited[size_t(nv - 1)], &nav.filter(), segs, segRefs, &nsegs, 32);
  float best = 1e9f;
  const glm::vec3 h = m.hitPos();
  for (int s = 0; s < nsegs; ++s) {
    if (segRefs[s]) continue; // a portal, not a wall
    const float ax = segs[s * 6], az = segs[s * 6 + 2], bx = segs[s * 6 + 3], bz = segs[s * 6 + 5];
    const float dx = bx - ax, dz = bz - az, len2 = dx * dx + dz * dz;
    const float u = len2 > 0 ? std::clamp(((h.x - ax) * dx + (h.z - az) * dz) / len2, 0.0f, 1.0f) : 0.0f;
    best = std::min(best, std::hypot(ax + u * dx - h.x, az + u * dz - h.z));
  }
  EXPECT_LT(best, 1e-3f) << "the hit lies on a wall edge";
  EXPECT_NEAR(std::hypot(normal[0], normal[2]), 1.0f, 1e-4f);
  json j;
  m.dumpState(j);
  EXPECT_FLOAT_EQ(j["t"].get<float>(), t);
}

TEST_F(TesterFixture, DistanceToWallIsTheQuerysAndItsHitIsThatFar) {
  navbench::WallDistanceModel m;
  place(m, nav, start, nullptr);
  EXPECT_FALSE(m.needsEnd());
  float dist = 0, pos[3], n[3];
  q.findDistanceToWall(ref(start), &start.x, 100.0f, &nav.filter(), &dist, pos, n);
  EXPECT_GT(dist, 0.0f);
  EXPECT_EQ(m.distance(), dist);
  EXPECT_NEAR(std::hypot(m.hitPos()[0] - start.x, m.hitPos()[2] - start.z), dist, 1e-3f);
  m.setRadius(dist * 0.5f); // a radius short of the wall: the search stops at it
  EXPECT_LE(m.distance(), dist * 0.5f + 1e-4f);
  m.click(end, false); // no end in this mode: a click moves the start
  EXPECT_EQ(m.start(), end);
  EXPECT_FALSE(m.hasEnd());
}

TEST_F(TesterFixture, PolySearchesAreTheQueriesAndTreesRootedAtTheStart) {
  const nav::PolyRef sr = ref(start);
  nav::PolyRef r[256], p[256];
  int n = 0;
  auto expectTree = [&](const navbench::FoundPolys& f) {
    EXPECT_EQ(refs(f.refs.data(), f.count), refs(r, n));
    EXPECT_EQ(refs(f.parents.data(), f.count), refs(p, n));
    ASSERT_GT(f.count, 1);
    EXPECT_EQ(f.refs[0], sr);
    EXPECT_EQ(f.parents[0], 0u);
    for (int i = 1; i < f.count; ++i) // each parent was found before its child
      EXPECT_NE(std::find(f.refs.begin(), f.refs.begin() + i, f.parents[size_t(i)]), f.refs.begin() + i) << i;
  };
  navbench::PolysCircleModel circle;
  place(circle, nav, start, &end);
  q.findPolysAroundCircle(sr, &start.x, glm::length(end - start), &nav.filter(), r, p, nullptr, &n, 256);
  expectTree(circle.found());
  navbench::PolysShapeModel shape;
  place(shape, nav, start, &end);
  q.findPolysAroundShape(sr, shape.shape(), 4, &nav.filter(), r, p, nullptr, &n, 256);
  expectTree(shape.found());
  EXPECT_FLOAT_EQ(shape.shape()[0], start.x + (end.z - start.z) * 0.25f * 1.2f) << "the quad starts beside the start";
  navbench::LocalNeighbourhoodModel local;
  place(local, nav, start, nullptr);
  q.findLocalNeighbourhood(sr, &start.x, local.radius(), &nav.filter(), r, p, &n, 64);
  expectTree(local.found());
}

TEST_F(TesterFixture, RandomPointsLieOnTheMeshAroundTheStartAndRepeat) {
  navbench::RandomPointsModel m;
  place(m, nav, start, nullptr);
  ASSERT_TRUE(m.inCircle());
  const std::vector<float> around = m.points();
  ASSERT_EQ(around.size(), size_t(m.count()) * 3);
  for (size_t i = 0; i < around.size(); i += 3) {
    const float ext[3] = {0.05f, 0.5f, 0.05f};
    nav::PolyRef r = 0;
    float pt[3];
    q.findNearestPoly(&around[i], ext, &nav.filter(), &r, pt);
    EXPECT_NE(r, 0u) << "point " << i / 3 << " is not on the navmesh";
    // From polys touching the circle: within the circle plus one poly.
    EXPECT_LT(std::hypot(around[i] - start.x, around[i + 2] - start.z), m.radius() + 15.0f);
  }
  m.generate(true);
  EXPECT_EQ(m.points(), around) << "a fixed seed: the same inputs give the same points";
  m.setCount(50);
  m.generate(false);
  EXPECT_FALSE(m.inCircle());
  EXPECT_EQ(m.points().size(), 50u * 3);
  m.setStart(end); // "anywhere" points do not follow the start
  EXPECT_EQ(m.points().size(), 50u * 3);
}
