// TileCacheTest.cpp: nav::tilecache::TileCache against Debian's dtTileCache 1.5.1 (the oracle) on
// the same layers (Recast's heightfield layers of a level, compressed once, the same blobs on both
// sides) and the same mesh process: after every update() both navmeshes hold the same tiles, byte
// for byte (links included), in the same slots with the same salts, and both caches hold the same
// obstacle slots (salt, state, touched and pending tiles). Levels: the project's default level
// (assets/levels/default.json) and ../shared/levels/nav_test.obj when present.
#include "tests/tilecache/DualTileCache.h"

#include "nav/NavMeshQuery.h"
#include "nav/NavAreas.h"
#include "nav/QueryFilter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace tc = nav::tilecache;
using tctest::DualCache;
using tctest::LayerLevel;
using tctest::LevelLinks;

// ---------------------------------------------------------------------------------------------
// Levels (built once per process)
// ---------------------------------------------------------------------------------------------

struct LevelData {
  std::string path;
  LayerLevel lev;
  LevelLinks links;
  std::string error;
};

const LevelData& levelData(const std::string& name) {
  static std::map<std::string, std::unique_ptr<LevelData>> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return *it->second;
  auto d = std::make_unique<LevelData>();
  d->path = name == "default" ? tctest::defaultLevelPath() : tctest::navTestPath();
  std::string why;
  if (!tctest::buildLevelLayers(d->path, d->lev, &why) || !tctest::loadLevelLinks(d->path, &d->links, &why))
    d->error = d->path + ": " + why;
  else if (d->lev.layers.empty())
    d->error = d->path + ": no layers";
  return *cache.emplace(name, std::move(d)).first->second;
}

// ---------------------------------------------------------------------------------------------
// Obstacles on both sides
// ---------------------------------------------------------------------------------------------

enum Kind { CYLINDER, BOX, ORIENTED_BOX };
const char* kindName(Kind k) { return k == CYLINDER ? "cylinder" : k == BOX ? "box" : "oriented box"; }

struct Placement {
  Kind kind = CYLINDER;
  float a[3] = {0, 0, 0}; ///< cylinder: pos; box: bmin; oriented box: center
  float b[3] = {0, 0, 0}; ///< cylinder: (radius, height, -); box: bmax; oriented box: half extents
  float yaw = 0;          ///< oriented box [Unit: rad]
  std::string where;
};

std::string describe(const Placement& p) {
  std::ostringstream s;
  s << kindName(p.kind) << " at (" << p.a[0] << ", " << p.a[1] << ", " << p.a[2] << ") " << p.where;
  return s.str();
}

/// Adds p to both caches; "" when both agree (status and ref).
std::string addBoth(DualCache& d, const Placement& p, tc::ObstacleRef* ref) {
  tc::ObstacleRef ra = 0;
  dtObstacleRef rb = 0;
  nav::Status sa = 0;
  dtStatus sb = 0;
  if (p.kind == CYLINDER) {
    sa = d.ours.addObstacle(p.a, p.b[0], p.b[1], &ra);
    sb = d.theirs->addObstacle(p.a, p.b[0], p.b[1], &rb);
  } else if (p.kind == BOX) {
    sa = d.ours.addBoxObstacle(p.a, p.b, &ra);
    sb = d.theirs->addBoxObstacle(p.a, p.b, &rb);
  } else {
    sa = d.ours.addBoxObstacle(p.a, p.b, p.yaw, &ra);
    sb = d.theirs->addBoxObstacle(p.a, p.b, p.yaw, &rb);
  }
  if (sa != sb) return "add status " + std::to_string(sa) + " vs " + std::to_string(sb) + " for " + describe(p);
  if (ra != rb) return "add ref " + std::to_string(ra) + " vs " + std::to_string(rb) + " for " + describe(p);
  if (ref) *ref = ra;
  return "";
}

/// Calls update() on both until both are up to date, comparing everything after every call.
/// *steps = update calls made. "" when they agreed all along.
std::string updateUntilDone(DualCache& d, int* steps = nullptr) {
  int n = 0;
  for (; n < 100000; ++n) {
    const int pendingBefore = d.ours.getUpdateCount();
    bool ua = false, ub = false;
    const nav::Status sa = d.ours.update(0.1f, &d.navOurs, &ua);
    const dtStatus sb = d.theirs->update(0.1f, d.navTheirs, &ub);
    const std::string at = "update #" + std::to_string(n) + ": ";
    if (sa != sb) return at + "status " + std::to_string(sa) + " vs " + std::to_string(sb);
    if (ua != ub) return at + "upToDate differs";
    // One tile per update: a call that started with tiles pending rebuilt exactly one of them.
    if (pendingBefore > 0 && d.ours.getUpdateCount() != pendingBefore - 1)
      return at + "rebuilt " + std::to_string(pendingBefore - d.ours.getUpdateCount()) + " tiles";
    const std::string c = d.compare();
    if (!c.empty()) return at + c;
    if (ua) {
      ++n;
      break;
    }
  }
  if (steps) *steps = n;
  return "";
}

std::string removeBoth(DualCache& d, tc::ObstacleRef ref) {
  const nav::Status sa = d.ours.removeObstacle(ref);
  const dtStatus sb = d.theirs->removeObstacle(ref);
  if (sa != sb) return "remove status " + std::to_string(sa) + " vs " + std::to_string(sb);
  return "";
}

// ---------------------------------------------------------------------------------------------
// Where to put obstacles
// ---------------------------------------------------------------------------------------------

uint32_t g_rng = 1;
float frand() {
  g_rng = g_rng * 1664525u + 1013904223u;
  return float(g_rng >> 8) / float(1u << 24);
}

/// A point on the mesh near (x, z) at any height (nearest poly within a tall box). False if none.
bool onMesh(nav::NavMeshQuery& q, const nav::QueryFilter& f, float x, float y, float z, float* out) {
  const float c[3] = {x, y, z};
  const float ext[3] = {0.5f, 4.0f, 0.5f};
  nav::PolyRef ref = 0;
  if (nav::statusFailed(q.findNearestPoly(c, ext, &f, &ref, out)) || !ref) return false;
  return std::fabs(out[0] - x) < 0.01f && std::fabs(out[2] - z) < 0.01f;
}

Placement makeAt(Kind kind, const float* p, float size, float yaw, const std::string& where) {
  Placement o;
  o.kind = kind;
  o.where = where;
  o.yaw = yaw;
  if (kind == CYLINDER) {
    o.a[0] = p[0];
    o.a[1] = p[1] - 0.5f;
    o.a[2] = p[2];
    o.b[0] = size;
    o.b[1] = 2.5f;
  } else if (kind == BOX) {
    o.a[0] = p[0] - size;
    o.a[1] = p[1] - 0.5f;
    o.a[2] = p[2] - size * 0.7f;
    o.b[0] = p[0] + size;
    o.b[1] = p[1] + 2.0f;
    o.b[2] = p[2] + size * 0.7f;
  } else {
    o.a[0] = p[0];
    o.a[1] = p[1] + 0.75f;
    o.a[2] = p[2];
    o.b[0] = size;
    o.b[1] = 1.25f;
    o.b[2] = size * 0.5f;
  }
  return o;
}

/// Positions for one kind: random points on the mesh, points on tile borders (x or z on a tile
/// edge) and at tile corners, and pairs overlapping each other.
std::vector<Placement> placements(const DualCache& d, Kind kind, uint32_t seed) {
  g_rng = seed;
  nav::NavMeshQuery q;
  q.init(&d.navOurs, 2048);
  nav::QueryFilter f;
  const float tw = d.meshParams.tileWidth;
  const float* orig = d.meshParams.orig;
  std::vector<Placement> out;
  auto size = [] { return 1.5f + frand(); };
  auto yaw = [] { return (frand() - 0.5f) * 6.2831853f; };
  for (int i = 0; i < 40 && out.size() < 16; ++i) {
    nav::PolyRef ref = 0;
    float p[3];
    if (nav::statusFailed(q.findRandomPoint(&f, frand, &ref, p)) || !ref) continue;
    const int mode = i % 4;
    float s[3] = {p[0], p[1], p[2]};
    std::string where = "random";
    if (mode == 1 || mode == 2) {
      s[0] = orig[0] + std::round((p[0] - orig[0]) / tw) * tw;
      where = "on a tile border";
      if (mode == 2) {
        s[2] = orig[2] + std::round((p[2] - orig[2]) / tw) * tw;
        where = "at a tile corner";
      }
      float m[3];
      if (!onMesh(q, f, s[0], p[1], s[2], m)) continue;
      std::copy(m, m + 3, s);
    }
    out.push_back(makeAt(kind, s, size(), yaw(), where));
    if (mode == 3) {
      // A second one overlapping the first.
      float m[3];
      if (onMesh(q, f, s[0] + 1.2f, s[1], s[2] + 0.8f, m)) out.push_back(makeAt(kind, m, size(), yaw(), "overlapping"));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A navmesh's content independent of slots and salts (for "back to the original")
// ---------------------------------------------------------------------------------------------

using Loc = std::tuple<int, int, int>;

/// Per tile location: the blob with the link pool, the polys' first links and the header's link
/// bookkeeping set aside, plus the sorted list of the tile's links, each as (poly, edge, side,
/// bmin, bmax, target location, target poly). Link slots and list order depend on the order tiles
/// were linked, and link refs carry tile salts, both of which rebuilding changes legitimately.
std::map<Loc, std::string> contentByLocation(const nav::NavMesh& mesh) {
  std::map<Loc, std::string> out;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (!t->header) continue;
    std::vector<uint8_t> blob(t->data, t->data + t->dataSize);
    const nav::TileLayout lay = nav::tileLayout(*t->header);
    std::fill(blob.begin() + lay.links, blob.begin() + lay.detailMeshes, uint8_t(0));
    for (int p = 0; p < t->header->polyCount; ++p)
      std::memset(blob.data() + lay.polys + size_t(p) * sizeof(nav::Poly), 0, sizeof(uint32_t));
    std::vector<std::string> links;
    for (int p = 0; p < t->header->polyCount; ++p) {
      for (uint32_t l = t->polys[p].firstLink; l != nav::NULL_LINK; l = t->links[l].next) {
        const nav::Link& k = t->links[l];
        const nav::MeshTile* tt = nullptr;
        const nav::Poly* tp = nullptr;
        std::ostringstream s;
        s << p << ':' << int(k.edge) << ':' << int(k.side) << ':' << int(k.bmin) << ':' << int(k.bmax) << "->";
        if (nav::statusSucceeded(mesh.getTileAndPolyByRef(k.ref, &tt, &tp)))
          s << tt->header->x << ',' << tt->header->y << ',' << tt->header->layer << '#' << (tp - tt->polys);
        else
          s << "invalid";
        links.push_back(s.str());
      }
    }
    std::sort(links.begin(), links.end());
    std::string v(blob.begin(), blob.end());
    for (const std::string& s : links) v += "|" + s;
    out[Loc(t->header->x, t->header->y, t->header->layer)] = v;
  }
  return out;
}

/// Locations whose content differs between two snapshots.
std::vector<Loc> changedLocations(const std::map<Loc, std::string>& a, const std::map<Loc, std::string>& b) {
  std::set<Loc> all;
  for (const auto& e : a) all.insert(e.first);
  for (const auto& e : b) all.insert(e.first);
  std::vector<Loc> out;
  for (const Loc& l : all) {
    auto ia = a.find(l), ib = b.find(l);
    if (ia == a.end() || ib == b.end() || ia->second != ib->second) out.push_back(l);
  }
  return out;
}

std::string locName(const Loc& l) {
  return "(" + std::to_string(std::get<0>(l)) + ", " + std::to_string(std::get<1>(l)) + ", " +
         std::to_string(std::get<2>(l)) + ")";
}

// ---------------------------------------------------------------------------------------------
// Footprints
// ---------------------------------------------------------------------------------------------

/// Whether (x, z) lies inside the obstacle's footprint shrunk by tol on every side.
bool insideShrunk2D(const Placement& o, const float* p, float tol) {
  if (o.kind == CYLINDER) {
    const float dx = p[0] - o.a[0], dz = p[2] - o.a[2];
    const float r = o.b[0] - tol;
    return r > 0 && dx * dx + dz * dz < r * r;
  }
  if (o.kind == BOX) return p[0] > o.a[0] + tol && p[0] < o.b[0] - tol && p[2] > o.a[2] + tol && p[2] < o.b[2] - tol;
  // The box's own axes: the rotation markBoxArea applies (rotAux = {-sin(yaw)/2, cos(yaw)/2}).
  const float c = std::cos(o.yaw), s = std::sin(o.yaw);
  const float dx = p[0] - o.a[0], dz = p[2] - o.a[2];
  const float lx = c * dx - s * dz;
  const float lz = c * dz + s * dx;
  return std::fabs(lx) < o.b[0] - tol && std::fabs(lz) < o.b[2] - tol;
}

/// The obstacle's vertical span [Unit: wu].
void ySpan(const Placement& o, float* lo, float* hi) {
  if (o.kind == CYLINDER) {
    *lo = o.a[1];
    *hi = o.a[1] + o.b[1];
  } else if (o.kind == BOX) {
    *lo = o.a[1];
    *hi = o.b[1];
  } else {
    *lo = o.a[1] - o.b[1];
    *hi = o.a[1] + o.b[1];
  }
}

/// Random pairs of points on the mesh, findPath + findStraightPath; "" when no straight segment
/// (off-mesh connections excepted) passes through a shrunk footprint. *paths = paths checked.
std::string checkPathsAvoid(const DualCache& d, const std::vector<Placement>& obs, float tol, uint32_t seed,
                            int* paths) {
  const float margin = d.params.ch;
  g_rng = seed;
  nav::NavMeshQuery q;
  q.init(&d.navOurs, 4096);
  nav::QueryFilter f;
  std::vector<nav::PolyRef> path(512);
  std::vector<float> straight(512 * 3);
  std::vector<uint8_t> flags(512);
  *paths = 0;
  for (int i = 0; i < 300; ++i) {
    nav::PolyRef sr = 0, er = 0;
    float sp[3], ep[3];
    if (nav::statusFailed(q.findRandomPoint(&f, frand, &sr, sp)) || !sr) continue;
    if (nav::statusFailed(q.findRandomPoint(&f, frand, &er, ep)) || !er) continue;
    int np = 0;
    if (nav::statusFailed(q.findPath(sr, er, sp, ep, &f, path.data(), &np, 512)) || np == 0) continue;
    int ns = 0;
    if (nav::statusFailed(q.findStraightPath(sp, ep, path.data(), np, straight.data(), flags.data(), nullptr, &ns,
                                             512)))
      continue;
    ++*paths;
    for (int k = 0; k + 1 < ns; ++k) {
      if (flags[size_t(k)] & nav::STRAIGHTPATH_OFFMESH_CONNECTION) continue;
      const float* a = &straight[size_t(k) * 3];
      const float* b = &straight[size_t(k + 1) * 3];
      const float len = std::sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[2] - a[2]) * (b[2] - a[2]));
      const int steps = 1 + int(len / 0.05f);
      for (int s = 0; s <= steps; ++s) {
        const float t = float(s) / float(steps);
        const float p[3] = {a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t};
        for (const Placement& o : obs) {
          if (!insideShrunk2D(o, p, tol)) continue;
          // Inside the footprint seen from above: a violation if the corridor polygon under the
          // point lies within the obstacle's height span (cells there were carved), a cell height
          // of margin at each end.
          float lo = 0, hi = 0;
          ySpan(o, &lo, &hi);
          for (int c = 0; c < np; ++c) {
            float h = 0;
            if (nav::statusFailed(q.getPolyHeight(path[size_t(c)], p, &h))) continue;
            if (h < lo + margin || h > hi - margin) continue;
            std::ostringstream m;
            m << "path " << i << " segment " << k << " passes (" << p[0] << ", " << h << ", " << p[2]
              << ") inside " << describe(o);
            return m.str();
          }
        }
      }
    }
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

class TileCacheDiff : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    const std::string name = GetParam();
    if (name == "nav_test" && !tctest::fileExists(tctest::navTestPath()))
      GTEST_SKIP() << "../shared/levels/nav_test.obj is absent (" << tctest::navTestPath() << "); the default level runs";
    data = &levelData(name);
    ASSERT_TRUE(data->error.empty()) << data->error;
  }
  std::unique_ptr<DualCache> make(int maxObstacles = 128) {
    auto d = std::make_unique<DualCache>();
    std::string why;
    if (!d->init(data->lev, &data->links, maxObstacles, &why)) {
      ADD_FAILURE() << data->path << ": " << why;
      return nullptr;
    }
    return d;
  }
  const LevelData* data = nullptr;
};

TEST_P(TileCacheDiff, FreshBuildMatchesDetour) {
  auto d = make();
  ASSERT_TRUE(d);
  EXPECT_GT(d->navOurs.tileCount(), 0);
  EXPECT_EQ(d->compare(), "");
  // Every layer is in the cache, at its location.
  int layers = 0;
  for (int i = 0; i < d->ours.getTileCount(); ++i) layers += d->ours.getTile(i)->header ? 1 : 0;
  EXPECT_EQ(layers, int(data->lev.layers.size()));
  for (const tctest::RecastLayer& l : data->lev.layers) {
    const tc::CompressedTile* t = d->ours.getTileAt(l.header.tx, l.header.ty, l.header.tlayer);
    ASSERT_TRUE(t);
    EXPECT_EQ(d->ours.getTileByRef(d->ours.getTileRef(t)), t);
    EXPECT_EQ(d->ours.getTileRef(t),
              d->theirs->getTileRef(d->theirs->getTileAt(l.header.tx, l.header.ty, l.header.tlayer)));
  }
}

/// Each kind: obstacles added one at a time (then removed one at a time, then all added in one
/// batch and removed in one batch), both sides compared after every update; the mesh changes where
/// obstacles stand and comes back to the original content when they are all gone.
void runKind(DualCache& d, Kind kind, uint32_t seed, const std::string& level) {
  const std::vector<Placement> obs = placements(d, kind, seed);
  ASSERT_GE(obs.size(), 8u) << level << ": too few places for obstacles";
  const auto original = contentByLocation(d.navOurs);

  std::vector<tc::ObstacleRef> refs;
  int touchedTotal = 0;
  for (const Placement& o : obs) {
    tc::ObstacleRef ref = 0;
    ASSERT_EQ(addBoth(d, o, &ref), "");
    ASSERT_NE(ref, 0u);
    int steps = 0;
    ASSERT_EQ(updateUntilDone(d, &steps), "") << level << ": after adding " << describe(o);
    const tc::TileCacheObstacle* ob = d.ours.getObstacleByRef(ref);
    ASSERT_TRUE(ob);
    EXPECT_EQ(ob->state, tc::OBSTACLE_PROCESSED);
    // The touched set: the layers whose tight bounds overlap the obstacle's bounds.
    float bmin[3], bmax[3];
    d.ours.getObstacleBounds(ob, bmin, bmax);
    tc::CompressedTileRef q[tc::MAX_TOUCHED_TILES];
    int nq = 0;
    d.ours.queryTiles(bmin, bmax, q, &nq, tc::MAX_TOUCHED_TILES);
    ASSERT_EQ(nq, int(ob->ntouched));
    for (int j = 0; j < nq; ++j) EXPECT_EQ(q[j], ob->touched[j]);
    EXPECT_GE(ob->ntouched, 1) << describe(o);
    EXPECT_EQ(steps, int(ob->ntouched)) << "one update per touched tile, " << describe(o);
    touchedTotal += ob->ntouched;
    refs.push_back(ref);
  }
  const auto withAll = contentByLocation(d.navOurs);
  const std::vector<Loc> changed = changedLocations(original, withAll);
  EXPECT_GE(changed.size(), 3u) << level << ": obstacles changed too few tiles";

  for (size_t i = 0; i < refs.size(); ++i) {
    ASSERT_EQ(removeBoth(d, refs[i]), "");
    ASSERT_EQ(updateUntilDone(d), "") << level << ": after removing " << describe(obs[i]);
    EXPECT_EQ(d.ours.getObstacleByRef(refs[i]), nullptr) << "a removed obstacle's ref must go stale";
  }
  std::vector<Loc> diff = changedLocations(original, contentByLocation(d.navOurs));
  ASSERT_TRUE(diff.empty()) << level << ": after removing every " << kindName(kind) << ", tile "
                            << locName(diff.front()) << " differs from the original";

  // All at once (several requests in one update), then all removed at once.
  refs.clear();
  for (const Placement& o : obs) {
    tc::ObstacleRef ref = 0;
    ASSERT_EQ(addBoth(d, o, &ref), "");
    refs.push_back(ref);
  }
  ASSERT_EQ(updateUntilDone(d), "") << level << ": batch add";
  EXPECT_TRUE(changedLocations(withAll, contentByLocation(d.navOurs)).empty())
      << level << ": the batch gave other tiles than adding one by one";
  for (tc::ObstacleRef r : refs) ASSERT_EQ(removeBoth(d, r), "");
  ASSERT_EQ(updateUntilDone(d), "") << level << ": batch remove";
  diff = changedLocations(original, contentByLocation(d.navOurs));
  ASSERT_TRUE(diff.empty()) << level << ": after the batch removal, tile " << locName(diff.front()) << " differs";
  (void)touchedTotal;
}

TEST_P(TileCacheDiff, CylindersMatchDetour) {
  auto d = make();
  ASSERT_TRUE(d);
  runKind(*d, CYLINDER, 11, GetParam());
}

TEST_P(TileCacheDiff, BoxesMatchDetour) {
  auto d = make();
  ASSERT_TRUE(d);
  runKind(*d, BOX, 23, GetParam());
}

TEST_P(TileCacheDiff, OrientedBoxesMatchDetour) {
  auto d = make();
  ASSERT_TRUE(d);
  runKind(*d, ORIENTED_BOX, 37, GetParam());
}

TEST_P(TileCacheDiff, PristineCopiesGiveTheSameTiles) {
  auto d = make();
  ASSERT_TRUE(d);
  // Tiles no obstacle touches are rebuilt from the copy kept at their first obstacle-free build:
  // every step still matches Detour, which runs the whole pipeline each time.
  d->ours.setKeepPristineTiles(true);
  EXPECT_EQ(d->ours.pristineTileCount(), 0);
  runKind(*d, CYLINDER, 41, GetParam());
  const int kept = d->ours.pristineTileCount();
  EXPECT_GT(kept, 0) << "removals rebuild obstacle-free tiles: their copies are kept";
  runKind(*d, ORIENTED_BOX, 43, GetParam());
  runKind(*d, BOX, 47, GetParam());
  EXPECT_GE(d->ours.pristineTileCount(), kept);
  // A layer removed from the cache forgets its copy; clearing forgets them all.
  const tctest::RecastLayer& l = data->lev.layers.front();
  const tc::CompressedTileRef ref = d->ours.getTileRef(d->ours.getTileAt(l.header.tx, l.header.ty, l.header.tlayer));
  const int before = d->ours.pristineTileCount();
  ASSERT_EQ(d->ours.buildNavMeshTile(ref, &d->navOurs), nav::SUCCESS);
  const int withFirst = d->ours.pristineTileCount();
  EXPECT_GE(withFirst, before);
  ASSERT_EQ(d->ours.removeTile(ref, nullptr, nullptr), nav::SUCCESS);
  EXPECT_EQ(d->ours.pristineTileCount(), withFirst - 1);
  d->ours.clearPristineTiles();
  EXPECT_EQ(d->ours.pristineTileCount(), 0);
  d->ours.setKeepPristineTiles(false);
  EXPECT_FALSE(d->ours.keepsPristineTiles());
}

TEST_P(TileCacheDiff, MixedKindsAndQueueEdgeCasesMatchDetour) {
  auto d = make();
  ASSERT_TRUE(d);
  std::vector<Placement> obs;
  for (Kind k : {CYLINDER, BOX, ORIENTED_BOX}) {
    std::vector<Placement> p = placements(*d, k, 101 + uint32_t(k));
    obs.insert(obs.end(), p.begin(), p.begin() + std::min<size_t>(p.size(), 6));
  }
  ASSERT_GE(obs.size(), 12u);
  std::vector<tc::ObstacleRef> refs(obs.size());
  // Added and removed before any update; removed twice; removed while its tiles are still being
  // rebuilt; added while a removal is pending.
  ASSERT_EQ(addBoth(*d, obs[0], &refs[0]), "");
  ASSERT_EQ(removeBoth(*d, refs[0]), "");
  ASSERT_EQ(addBoth(*d, obs[1], &refs[1]), "");
  ASSERT_EQ(removeBoth(*d, refs[1]), "");
  ASSERT_EQ(removeBoth(*d, refs[1]), "");
  ASSERT_EQ(updateUntilDone(*d), "");
  for (size_t i = 2; i < obs.size(); ++i) ASSERT_EQ(addBoth(*d, obs[i], &refs[i]), "");
  for (int s = 0; s < 3; ++s) {
    bool a = false, b = false;
    ASSERT_EQ(d->ours.update(0, &d->navOurs, &a), d->theirs->update(0, d->navTheirs, &b));
    ASSERT_EQ(d->compare(), "");
  }
  ASSERT_EQ(removeBoth(*d, refs[2]), "");
  ASSERT_EQ(removeBoth(*d, refs[3]), "");
  ASSERT_EQ(updateUntilDone(*d), "");
  for (size_t i = 4; i < obs.size(); ++i) ASSERT_EQ(removeBoth(*d, refs[i]), "");
  ASSERT_EQ(addBoth(*d, obs[2], &refs[2]), "");
  ASSERT_EQ(updateUntilDone(*d), "");
  ASSERT_EQ(removeBoth(*d, refs[2]), "");
  ASSERT_EQ(updateUntilDone(*d), "");
}

TEST_P(TileCacheDiff, BudgetIsOneTilePerUpdateAndQueuesMatchDetour) {
  auto d = make();
  ASSERT_TRUE(d);
  // MAX_REQUESTS adds fill the request queue: the next add is refused on both sides.
  std::vector<Placement> obs;
  for (uint32_t seed = 200; obs.size() < size_t(tc::TileCache::MAX_REQUESTS) + 1 && seed < 260; ++seed) {
    std::vector<Placement> p = placements(*d, Kind(seed % 3), seed);
    obs.insert(obs.end(), p.begin(), p.end());
  }
  ASSERT_GT(obs.size(), size_t(tc::TileCache::MAX_REQUESTS));
  std::vector<tc::ObstacleRef> refs;
  for (int i = 0; i < tc::TileCache::MAX_REQUESTS; ++i) {
    tc::ObstacleRef r = 0;
    ASSERT_EQ(addBoth(*d, obs[size_t(i)], &r), "");
    refs.push_back(r);
  }
  EXPECT_EQ(d->ours.getRequestCount(), tc::TileCache::MAX_REQUESTS);
  tc::ObstacleRef extra = 0;
  EXPECT_EQ(d->ours.addObstacle(obs.back().a, 1.0f, 1.0f, &extra), nav::FAILURE | nav::BUFFER_TOO_SMALL);
  dtObstacleRef dextra = 0;
  EXPECT_EQ(d->theirs->addObstacle(obs.back().a, 1.0f, 1.0f, &dextra), DT_FAILURE | DT_BUFFER_TOO_SMALL);
  EXPECT_EQ(d->ours.removeObstacle(refs[0]), nav::FAILURE | nav::BUFFER_TOO_SMALL);
  // The first update takes every request: the tiles to rebuild are the distinct touched tiles (at
  // most MAX_UPDATE); then each update rebuilds one (checked by updateUntilDone).
  bool a = false, b = false;
  ASSERT_EQ(d->ours.update(0, &d->navOurs, &a), d->theirs->update(0, d->navTheirs, &b));
  ASSERT_EQ(d->compare(), "");
  std::set<tc::CompressedTileRef> distinct;
  for (tc::ObstacleRef r : refs) {
    const tc::TileCacheObstacle* ob = d->ours.getObstacleByRef(r);
    ASSERT_TRUE(ob);
    distinct.insert(ob->touched, ob->touched + ob->ntouched);
  }
  EXPECT_EQ(d->ours.getRequestCount(), 0);
  EXPECT_EQ(d->ours.getUpdateCount(), std::min<int>(int(distinct.size()), tc::TileCache::MAX_UPDATE) - 1);
  int steps = 0;
  ASSERT_EQ(updateUntilDone(*d, &steps), "");
  EXPECT_EQ(steps, std::min<int>(int(distinct.size()), tc::TileCache::MAX_UPDATE) - 1);
  for (tc::ObstacleRef r : refs) ASSERT_EQ(removeBoth(*d, r), "");
  ASSERT_EQ(updateUntilDone(*d), "");
}

TEST_P(TileCacheDiff, ObstacleRefsAndSaltsBehaveLikeDetour) {
  auto d = make(4);
  ASSERT_TRUE(d);
  std::vector<Placement> obs = placements(*d, CYLINDER, 77);
  ASSERT_GE(obs.size(), 5u);
  // Slots run out at maxObstacles (OUT_OF_MEMORY on both).
  std::vector<tc::ObstacleRef> refs(4);
  for (int i = 0; i < 4; ++i) ASSERT_EQ(addBoth(*d, obs[size_t(i)], &refs[size_t(i)]), "");
  tc::ObstacleRef none = 0;
  EXPECT_EQ(d->ours.addObstacle(obs[4].a, 1, 1, &none), nav::FAILURE | nav::OUT_OF_MEMORY);
  dtObstacleRef dnone = 0;
  EXPECT_EQ(d->theirs->addObstacle(obs[4].a, 1, 1, &dnone), DT_FAILURE | DT_OUT_OF_MEMORY);
  ASSERT_EQ(updateUntilDone(*d), "");
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(d->ours.getObstacleRef(d->ours.getObstacleByRef(refs[size_t(i)])), refs[size_t(i)]);
    EXPECT_EQ(d->ours.decodeObstacleIdObstacle(refs[size_t(i)]), uint32_t(i));
    EXPECT_EQ(d->ours.decodeObstacleIdSalt(refs[size_t(i)]), 1u);
  }

  // A removed obstacle keeps its ref until its removal is done; then the ref is stale.
  const tc::ObstacleRef old = refs[1];
  ASSERT_EQ(removeBoth(*d, old), "");
  EXPECT_NE(d->ours.getObstacleByRef(old), nullptr);
  ASSERT_EQ(updateUntilDone(*d), "");
  EXPECT_EQ(d->ours.getObstacleByRef(old), nullptr);
  EXPECT_EQ(d->theirs->getObstacleByRef(old), nullptr);
  // Ours refuses the stale ref at the call; Detour queues it and drops it: nothing changes on
  // either side.
  EXPECT_EQ(d->ours.removeObstacle(old), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(d->ours.getRequestCount(), 0);
  EXPECT_EQ(d->theirs->removeObstacle(old), DT_SUCCESS);
  bool a = false, b = false;
  d->ours.update(0, &d->navOurs, &a);
  d->theirs->update(0, d->navTheirs, &b);
  EXPECT_TRUE(a);
  EXPECT_TRUE(b);
  ASSERT_EQ(d->compare(), "");
  // The freed slot is reused with the next salt: a new ref, the same on both sides.
  tc::ObstacleRef again = 0;
  ASSERT_EQ(addBoth(*d, obs[4], &again), "");
  EXPECT_NE(again, old);
  EXPECT_EQ(d->ours.decodeObstacleIdObstacle(again), d->ours.decodeObstacleIdObstacle(old));
  EXPECT_EQ(d->ours.decodeObstacleIdSalt(again), 2u);
  ASSERT_EQ(updateUntilDone(*d), "");
  // The stale ref still does not reach the slot's new obstacle.
  EXPECT_EQ(d->ours.removeObstacle(old), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(d->ours.getObstacleByRef(again)->state, tc::OBSTACLE_PROCESSED);
  // Refs out of range, null.
  EXPECT_EQ(d->ours.removeObstacle(d->ours.encodeObstacleId(1, 4)), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(d->ours.removeObstacle(0), nav::SUCCESS);
  EXPECT_EQ(d->ours.getObstacleByRef(0), nullptr);
  EXPECT_EQ(d->ours.getRequestCount(), 0);
}

TEST_P(TileCacheDiff, StraightPathsAvoidObstacles) {
  auto d = make();
  ASSERT_TRUE(d);
  // A cell's centre decides whether it is carved, and contours are simplified by up to
  // maxSimplificationError cells: a path may cut that far into a footprint, no further.
  const float tol = d->params.cs * (d->params.maxSimplificationError + 1.5f);
  for (Kind kind : {CYLINDER, BOX, ORIENTED_BOX}) {
    std::vector<Placement> all = placements(*d, kind, 300 + uint32_t(kind));
    // Obstacles touching more than MAX_TOUCHED_TILES layers are carved from the first ones only
    // (Detour's limit): leave those out.
    std::vector<Placement> obs;
    std::vector<tc::ObstacleRef> refs;
    for (const Placement& o : all) {
      tc::ObstacleRef r = 0;
      ASSERT_EQ(addBoth(*d, o, &r), "");
      ASSERT_EQ(updateUntilDone(*d), "");
      if (d->ours.getObstacleByRef(r)->ntouched < tc::MAX_TOUCHED_TILES) obs.push_back(o);
      refs.push_back(r);
    }
    ASSERT_GE(obs.size(), 6u);
    int paths = 0;
    EXPECT_EQ(checkPathsAvoid(*d, obs, tol, 900 + uint32_t(kind), &paths), "") << GetParam() << ", " << kindName(kind);
    EXPECT_GE(paths, 100) << "too few paths found";
    for (tc::ObstacleRef r : refs) ASSERT_EQ(removeBoth(*d, r), "");
    ASSERT_EQ(updateUntilDone(*d), "");
  }
}

TEST_P(TileCacheDiff, BuildNavMeshTileAndTileSlots) {
  auto d = make();
  ASSERT_TRUE(d);
  const auto original = contentByLocation(d->navOurs);
  // Rebuilding a tile with no obstacles gives the same content; the navmesh slot is reused with a
  // new salt, as Detour's.
  const tctest::RecastLayer& l = data->lev.layers[data->lev.layers.size() / 2];
  const tc::CompressedTileRef ref = d->ours.getTileRef(d->ours.getTileAt(l.header.tx, l.header.ty, l.header.tlayer));
  ASSERT_NE(ref, 0u);
  EXPECT_EQ(d->ours.buildNavMeshTile(ref, &d->navOurs), d->theirs->buildNavMeshTile(ref, d->navTheirs));
  EXPECT_EQ(d->compare(), "");
  EXPECT_TRUE(changedLocations(original, contentByLocation(d->navOurs)).empty());

  // Removing a layer from the cache: stale ref refused, the slot's salt bumped, the blob handed
  // back when the cache does not own it.
  uint8_t* blob = nullptr;
  int blobSize = 0;
  ASSERT_EQ(d->ours.removeTile(ref, &blob, &blobSize), nav::SUCCESS);
  EXPECT_EQ(blob, nullptr) << "the cache owned the blob (COMPRESSEDTILE_FREE_DATA)";
  EXPECT_EQ(blobSize, 0);
  EXPECT_EQ(d->ours.getTileByRef(ref), nullptr);
  EXPECT_EQ(d->ours.removeTile(ref, nullptr, nullptr), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(d->ours.buildNavMeshTile(ref, &d->navOurs), nav::FAILURE | nav::INVALID_PARAM);
  unsigned char* dblob = nullptr;
  int dsize = 0;
  ASSERT_EQ(d->theirs->removeTile(ref, &dblob, &dsize), DT_SUCCESS);

  // Added back, not owned: same slot, next salt on both sides; removeTile hands the blob back.
  dtTileCacheLayerHeader dh = l.header;
  unsigned char* dData = nullptr;
  int dSize = 0;
  ASSERT_EQ(dtBuildTileCacheLayer(&d->dtComp, &dh, l.heights.data(), l.areas.data(), l.cons.data(), &dData, &dSize),
            DT_SUCCESS);
  std::vector<uint8_t> mine(dData, dData + dSize);
  tc::CompressedTileRef r2 = 0;
  dtCompressedTileRef dr2 = 0;
  ASSERT_EQ(d->ours.addTile(mine.data(), int(mine.size()), 0, &r2), nav::SUCCESS);
  ASSERT_EQ(d->theirs->addTile(dData, dSize, DT_COMPRESSEDTILE_FREE_DATA, &dr2), DT_SUCCESS);
  EXPECT_EQ(r2, dr2);
  EXPECT_NE(r2, ref);
  EXPECT_EQ(d->ours.addTile(mine.data(), int(mine.size()), 0, nullptr), nav::FAILURE) << "location taken";
  EXPECT_EQ(d->ours.buildNavMeshTilesAt(l.header.tx, l.header.ty, &d->navOurs),
            d->theirs->buildNavMeshTilesAt(l.header.tx, l.header.ty, d->navTheirs));
  EXPECT_EQ(d->compare(), "");
  ASSERT_EQ(d->ours.removeTile(r2, &blob, &blobSize), nav::SUCCESS);
  EXPECT_EQ(blob, mine.data());
  EXPECT_EQ(blobSize, int(mine.size()));
}

INSTANTIATE_TEST_SUITE_P(Levels, TileCacheDiff, ::testing::Values(std::string("default"), std::string("nav_test")),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// ---------------------------------------------------------------------------------------------
// Arguments (no level needed)
// ---------------------------------------------------------------------------------------------

tc::TileCacheParams goodParams() {
  tc::TileCacheParams p{};
  p.cs = 0.3f;
  p.ch = 0.2f;
  p.width = p.height = 32;
  p.walkableHeight = 2.0f;
  p.walkableRadius = 0.6f;
  p.walkableClimb = 0.9f;
  p.maxSimplificationError = 1.3f;
  p.maxTiles = 64;
  p.maxObstacles = 16;
  return p;
}

TEST(TileCacheArgs, InitRefusesBadParams) {
  tc::Lz4Compressor comp;
  tc::TileCache c;
  EXPECT_EQ(c.init(goodParams(), &comp, nullptr), nav::SUCCESS);
  EXPECT_EQ(c.init(goodParams(), nullptr, nullptr), nav::FAILURE | nav::INVALID_PARAM);
  auto bad = [&](void (*edit)(tc::TileCacheParams&)) {
    tc::TileCacheParams p = goodParams();
    edit(p);
    return c.init(p, &comp, nullptr);
  };
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.cs = 0; }), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.ch = -1; }), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.width = 0; }), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.maxTiles = 0; }), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.maxTiles = 1 << 23; }), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.maxObstacles = -1; }), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.maxObstacles = 0x10001; }), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.orig[1] = NAN; }), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.walkableClimb = INFINITY; }), nav::FAILURE | nav::INVALID_PARAM);
  // The tile / salt split is Detour's: as many tile bits as maxTiles needs (here 20), at least 10
  // salt bits (so at most 1 << 22 tiles).
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.maxTiles = (1 << 22) + 1; }), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(bad([](tc::TileCacheParams& p) { p.maxTiles = (1 << 19) + 1; }), nav::SUCCESS);
  EXPECT_EQ(c.encodeTileId(3, 5), (3u << 20) | 5u);
  EXPECT_EQ(c.decodeTileIdSalt(c.encodeTileId(1023, 7)), 1023u);
  EXPECT_EQ(c.decodeTileIdTile(c.encodeTileId(1023, 7)), 7u);
}

TEST(TileCacheArgs, CallsCheckTheirArguments) {
  tc::Lz4Compressor comp;
  tc::TileCache c;
  const float p[3] = {1, 2, 3};
  const float nanp[3] = {1, NAN, 3};
  // Not initialised: refused, no crash.
  EXPECT_EQ(c.addObstacle(p, 1, 1, nullptr), nav::FAILURE);
  EXPECT_EQ(c.getTileAt(0, 0, 0), nullptr);
  nav::NavMesh mesh;
  EXPECT_TRUE(nav::statusFailed(c.update(0, &mesh, nullptr)));

  ASSERT_EQ(c.init(goodParams(), &comp, nullptr), nav::SUCCESS);
  tc::ObstacleRef r = 0;
  EXPECT_EQ(c.addObstacle(nullptr, 1, 1, &r), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(c.addObstacle(nanp, 1, 1, &r), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(c.addObstacle(p, -1, 1, &r), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(c.addObstacle(p, 1, NAN, &r), nav::FAILURE | nav::INVALID_PARAM);
  const float lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  EXPECT_EQ(c.addBoxObstacle(hi, lo, &r), nav::FAILURE | nav::INVALID_PARAM) << "bmin > bmax";
  EXPECT_EQ(c.addBoxObstacle(p, nanp, 0.5f, &r), nav::FAILURE | nav::INVALID_PARAM);
  const float negHalf[3] = {1, -1, 1};
  EXPECT_EQ(c.addBoxObstacle(p, negHalf, 0.5f, &r), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(c.addBoxObstacle(p, hi, INFINITY, &r), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(c.getRequestCount(), 0);
  EXPECT_EQ(c.update(0, nullptr, nullptr), nav::FAILURE | nav::INVALID_PARAM);

  // Layer blobs: refused when not a layer, with Detour's codes for magic and version.
  EXPECT_EQ(c.addTile(nullptr, 0, 0, nullptr), nav::FAILURE | nav::INVALID_PARAM);
  alignas(4) uint8_t blob[128] = {};
  tc::TileCacheLayerHeader h{};
  h.magic = 0x1234;
  h.version = tc::TILECACHE_VERSION;
  h.width = h.height = 4;
  h.maxx = h.maxy = 3;
  std::memcpy(blob, &h, sizeof h);
  EXPECT_EQ(c.addTile(blob, int(sizeof blob), 0, nullptr), nav::FAILURE | nav::WRONG_MAGIC);
  h.magic = tc::TILECACHE_MAGIC;
  h.version = 99;
  std::memcpy(blob, &h, sizeof h);
  EXPECT_EQ(c.addTile(blob, int(sizeof blob), 0, nullptr), nav::FAILURE | nav::WRONG_VERSION);
  h.version = tc::TILECACHE_VERSION;
  std::memcpy(blob, &h, sizeof h);
  EXPECT_EQ(c.addTile(blob, 20, 0, nullptr), nav::FAILURE | nav::INVALID_PARAM) << "shorter than a header";
  // A blob whose grids are garbage is accepted (only the header is read) and refused when built.
  tc::CompressedTileRef tr = 0;
  ASSERT_EQ(c.addTile(blob, int(sizeof blob), 0, &tr), nav::SUCCESS);
  nav::NavMesh m;
  nav::NavMeshParams mp{};
  mp.tileWidth = mp.tileHeight = 9.6f;
  mp.maxTiles = 64;
  mp.maxPolys = 1024;
  ASSERT_EQ(m.init(mp), nav::SUCCESS);
  EXPECT_TRUE(nav::statusFailed(c.buildNavMeshTile(tr, &m)));
  EXPECT_EQ(m.tileCount(), 0);
  EXPECT_EQ(c.buildNavMeshTile(tr + 1, &m), nav::FAILURE | nav::INVALID_PARAM);
  EXPECT_EQ(c.buildNavMeshTile(tr, nullptr), nav::FAILURE | nav::INVALID_PARAM);
  uint8_t* back = nullptr;
  int backSize = 0;
  EXPECT_EQ(c.removeTile(tr, &back, &backSize), nav::SUCCESS);
  EXPECT_EQ(back, blob);
  EXPECT_EQ(backSize, int(sizeof blob));
  EXPECT_EQ(c.removeTile(0, nullptr, nullptr), nav::FAILURE | nav::INVALID_PARAM);
  int n = 0;
  tc::CompressedTileRef out[4];
  EXPECT_EQ(c.queryTiles(nullptr, hi, out, &n, 4), nav::FAILURE | nav::INVALID_PARAM);
  // A huge box finds nothing in an empty cache without walking every tile location.
  const float huge0[3] = {-1e30f, -1e30f, -1e30f}, huge1[3] = {1e30f, 1e30f, 1e30f};
  EXPECT_EQ(c.queryTiles(huge0, huge1, out, &n, 4), nav::SUCCESS);
  EXPECT_EQ(n, 0);
}

TEST(TileCacheArgs, DefaultMeshProcessMapsAreasLikeTheBake) {
  tc::DefaultMeshProcess proc;
  uint8_t areas[6] = {tc::TILECACHE_WALKABLE_AREA, nav::AREA_WATER, nav::AREA_DOOR,
                      nav::AREA_GRASS, nav::AREA_JUMP, 17};
  uint16_t flags[6] = {};
  nav::TileBuildParams p;
  p.polyCount = 6;
  proc.process(&p, areas, flags);
  EXPECT_EQ(areas[0], nav::AREA_GROUND);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(flags[i], nav::flagsForArea(areas[i])) << i;
  EXPECT_EQ(p.offMeshConCount, 0);
  const float verts[6] = {0, 0, 0, 1, 0, 0};
  const float rad = 0.5f;
  const uint16_t f = nav::FLAG_JUMP;
  const uint8_t a = nav::AREA_JUMP, dir = 1;
  proc.setOffMeshConnections(verts, &rad, &f, &a, &dir, nullptr, 1);
  proc.process(&p, areas, flags);
  EXPECT_EQ(p.offMeshConCount, 1);
  EXPECT_EQ(p.offMeshConVerts, verts);
}

} // namespace
