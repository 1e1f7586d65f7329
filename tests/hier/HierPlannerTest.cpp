// HierPlannerTest.cpp: the hierarchical search (nav/HierPlanner.h) against the polygon A* with a
// node per polygon (NavMeshQuery::initUnlimited: it never runs out of nodes, so its "complete" is
// connectivity) and Detour's 65,535-node findPath, on a generated world, the project's level and
// the shared levels (SKIPPED when absent): complete exactly when connected, corridors that are
// real walks under the filter, the length gap; the graph after random tile edits equals the graph
// built from scratch; hostile filters, one-tile worlds, layered tiles, islands.
#include "BigWorld.h"
#include "DualMesh.h"
#include "nav/HierPlanner.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"
#include "nav/check/CheckReport.h"
#include "nav/check/NavCheck.h"
#include "tests/support/RecastPolyMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace querytest;
using navtest::FLAG_DISABLED;
using navtest::FLAG_DOOR;
using navtest::FLAG_SWIM;
using navtest::FLAG_WALK;

namespace {

constexpr int MAXP = 16384;

bool isComplete(nav::Status st, const std::vector<nav::PolyRef>& path, int n, nav::PolyRef end) {
  return nav::statusSucceeded(st) && !(st & nav::PARTIAL_RESULT) && n > 0 && path[size_t(n - 1)] == end;
}

float straightLen(nav::NavMeshQuery& q, const float* sp, const float* ep, const std::vector<nav::PolyRef>& path,
                  int n) {
  std::vector<float> pts(size_t(MAXP) * 3);
  std::vector<uint8_t> flags(MAXP);
  int count = 0;
  q.findStraightPath(sp, ep, path.data(), n, pts.data(), flags.data(), nullptr, &count, MAXP);
  return nav::straightPathLength(pts.data(), flags.data(), count);
}

/// Every step of a corridor crosses a link of the mesh and every polygon passes the filter.
void expectWalkable(const nav::NavMesh& mesh, const nav::QueryFilter& f, const std::vector<nav::PolyRef>& path, int n) {
  for (int i = 0; i < n; ++i) {
    const nav::MeshTile* t = nullptr;
    const nav::Poly* p = nullptr;
    ASSERT_TRUE(nav::statusSucceeded(mesh.getTileAndPolyByRef(path[size_t(i)], &t, &p))) << "at " << i;
    // The end polygons are the caller's (findPath does not filter them).
    if (i > 0 && i + 1 < n) {
      ASSERT_TRUE(f.passFilter(path[size_t(i)], t, p)) << "at " << i;
    }
    if (i + 1 == n) break;
    bool linked = false;
    for (uint32_t k = p->firstLink; k != nav::NULL_LINK; k = t->links[k].next)
      if (t->links[k].ref == path[size_t(i + 1)]) linked = true;
    ASSERT_TRUE(linked) << "no link from corridor polygon " << i << " to the next";
  }
}

struct PairStats {
  int pairs = 0, complete = 0, partial = 0, widened = 0, fallbacks = 0;
  int filterGraph = 0; ///< Pairs whose abstract search ran on a graph built for the filter.
  std::vector<double> gaps; ///< Straight length / the A*'s - 1, complete pairs.
  double meanGap() const {
    double s = 0;
    for (double g : gaps) s += g;
    return gaps.empty() ? 0 : s / double(gaps.size());
  }
  double p95Gap() const {
    if (gaps.empty()) return 0;
    std::vector<double> v = gaps;
    std::sort(v.begin(), v.end());
    return v[size_t(0.95 * double(v.size() - 1) + 0.5)];
  }
};

/// Random pairs (points drawn under `pointFilter`) searched under `f` by the planner and by the
/// polygon A* with a node per polygon: complete exactly when the A* is (it cannot run out of
/// nodes: its partial results are unconnected pairs), never OUT_OF_NODES, walkable corridors.
PairStats checkPairs(const nav::NavMesh& mesh, nav::HierPlanner& hp, const nav::QueryFilter& f,
                     const nav::QueryFilter& pointFilter, int pairs, uint64_t seed) {
  PairStats s;
  nav::NavMeshQuery ref;
  EXPECT_TRUE(nav::statusSucceeded(ref.initUnlimited(&mesh)));
  std::vector<nav::PolyRef> rpath(MAXP), hpath(MAXP);
  seedRandom(seed);
  for (int i = 0; i < pairs; ++i) {
    nav::PolyRef sr = 0, er = 0;
    float sp[3], ep[3];
    if (nav::statusFailed(ref.findRandomPoint(&pointFilter, frand, &sr, sp)) ||
        nav::statusFailed(ref.findRandomPoint(&pointFilter, frand, &er, ep)))
      continue;
    int rn = 0, hn = 0;
    const nav::Status rs = ref.findPath(sr, er, sp, ep, &f, rpath.data(), &rn, MAXP);
    const nav::Status hs = hp.findPath(sr, er, sp, ep, &f, hpath.data(), &hn, MAXP);
    SCOPED_TRACE("pair " + std::to_string(i));
    EXPECT_EQ(nav::statusFailed(rs), nav::statusFailed(hs));
    EXPECT_FALSE(hs & nav::OUT_OF_NODES);
    const bool rc = isComplete(rs, rpath, rn, er), hc = isComplete(hs, hpath, hn, er);
    EXPECT_EQ(rc, hc) << "reference " << rs << " hierarchical " << hs;
    ++s.pairs;
    s.widened += hp.lastStats().widened ? 1 : 0;
    s.fallbacks += hp.lastStats().fallback ? 1 : 0;
    s.filterGraph += hp.lastStats().filterGraph ? 1 : 0;
    if (hc) {
      ++s.complete;
      EXPECT_EQ(hpath[0], sr);
      expectWalkable(mesh, f, hpath, hn);
      const float lr = straightLen(ref, sp, ep, rpath, rn), lh = straightLen(ref, sp, ep, hpath, hn);
      if (lr > 1.0f) s.gaps.push_back(double(lh) / double(lr) - 1.0);
    } else if (nav::statusSucceeded(hs)) {
      ++s.partial;
      EXPECT_TRUE(hs & nav::PARTIAL_RESULT);
    }
  }
  return s;
}

/// A mesh of our own (tiles can be removed and added) from a DualMesh's blobs, with its flags
/// and areas.
std::unique_ptr<nav::NavMesh> editableCopy(const DualMesh& d) {
  auto m = std::make_unique<nav::NavMesh>();
  nav::NavMeshParams p;
  std::memcpy(&p, &d.params, sizeof p);
  if (nav::statusFailed(m->init(p))) return nullptr;
  for (const auto& b : d.blobs) {
    auto* data = new uint8_t[b.bytes.size()];
    std::memcpy(data, b.bytes.data(), b.bytes.size());
    if (nav::statusFailed(m->addTile(data, int(b.bytes.size()), nav::TILE_FREE_DATA, 0, nullptr))) {
      delete[] data;
      return nullptr;
    }
  }
  for (int i = 0; i < d.nav.getMaxTiles(); ++i) {
    const nav::MeshTile* t = d.nav.getTile(i);
    if (!t->header) continue;
    const nav::PolyRef base = d.nav.getPolyRefBase(t);
    for (int k = 0; k < t->header->polyCount; ++k) {
      m->setPolyFlags(base | nav::PolyRef(k), t->polys[k].flags);
      m->setPolyArea(base | nav::PolyRef(k), t->polys[k].getArea());
    }
  }
  return m;
}

const DualMesh* generatedWorld(std::string* why) {
  const std::string obj = bigtest::worldObj(256, 3, why);
  return obj.empty() ? nullptr : loadDual(obj, true, false, why);
}

nav::HierOptions smallClusters() {
  nav::HierOptions o;
  o.clusterTiles = 3; // many clusters on a small world: the abstract search has work to do
  return o;
}

} // namespace

// Generated world (256 m, ~300 tiles): the same pairs as Detour's 65,535-node search, complete
// whenever it is, and the length figures.
TEST(HierPlanner, GeneratedWorldCompleteWheneverAStarIs) {
  std::string why;
  const DualMesh* d = generatedWorld(&why);
  ASSERT_NE(d, nullptr) << why;
  for (int cluster : {0, 1, 3, 8}) { // 0: the default, ~150 wu
    SCOPED_TRACE("cluster " + std::to_string(cluster));
    nav::HierOptions o;
    o.clusterTiles = cluster;
    o.corridorRadius = cluster == 1 ? 1 : 0; // a corridor one tile wide bends paths
    nav::HierPlanner hp;
    ASSERT_TRUE(nav::statusSucceeded(hp.init(&d->nav, nullptr, o)));
    if (cluster == 0) {
      const float tile = d->nav.getParams().tileWidth;
      EXPECT_EQ(hp.options().clusterTiles, int(nav::HierOptions::AUTO_CLUSTER_SIDE / tile + 0.5f));
    }
    EXPECT_GT(hp.entranceCount(), cluster == 1 || cluster == 3 ? 100 : 4);
    const nav::QueryFilter f;
    const PairStats s = checkPairs(d->nav, hp, f, f, 300, 11);
    std::printf("cluster %d: %d pairs, %d complete, %d partial, %d fallbacks; length gap vs A*: mean %.2f%% p95 "
                "%.2f%%; graph %zu B of the mesh's %zu B\n",
                cluster, s.pairs, s.complete, s.partial, s.fallbacks, 100 * s.meanGap(), 100 * s.p95Gap(),
                hp.graphBytes(), d->nav.totalTileBytes());
    EXPECT_GT(s.complete, 200);
    EXPECT_EQ(s.widened, 0) << "the default filter takes every corridor the graph offers";
    EXPECT_EQ(s.fallbacks, 0);
    if (cluster == 1) continue; // tile-sized clusters: complete, but corridors too narrow for the length targets
    EXPECT_LE(s.meanGap(), 0.02);
    EXPECT_LE(s.p95Gap(), 0.05);
  }
  // Detour with its largest pool on the same pairs: each pair it completes is complete here.
  dtNavMeshQuery* dq = dtAllocNavMeshQuery();
  ASSERT_TRUE(dtStatusSucceed(dq->init(d->dt, 65535)));
  nav::HierPlanner hp;
  ASSERT_TRUE(nav::statusSucceeded(hp.init(&d->nav, nullptr, smallClusters())));
  nav::NavMeshQuery rnd;
  ASSERT_TRUE(nav::statusSucceeded(rnd.init(&d->nav, 64)));
  const dtQueryFilter df;
  const nav::QueryFilter nf;
  std::vector<dtPolyRef> dpath(65536);
  std::vector<nav::PolyRef> hpath(65536);
  seedRandom(5);
  int detourComplete = 0;
  for (int i = 0; i < 200; ++i) {
    nav::PolyRef sr, er;
    float sp[3], ep[3];
    ASSERT_TRUE(nav::statusSucceeded(rnd.findRandomPoint(&nf, frand, &sr, sp)));
    ASSERT_TRUE(nav::statusSucceeded(rnd.findRandomPoint(&nf, frand, &er, ep)));
    int dn = 0, hn = 0;
    const dtStatus ds = dq->findPath(sr, er, sp, ep, &df, dpath.data(), &dn, 65536);
    if (!dtStatusSucceed(ds) || (ds & DT_PARTIAL_RESULT) || dn == 0 || dpath[size_t(dn - 1)] != er) continue;
    ++detourComplete;
    const nav::Status hs = hp.findPath(sr, er, sp, ep, &nf, hpath.data(), &hn, 65536);
    EXPECT_TRUE(isComplete(hs, hpath, hn, er)) << "pair " << i;
  }
  EXPECT_GT(detourComplete, 100);
  dtFreeNavMeshQuery(dq);
}

// Random filters (include / exclude flags, area costs) on levels with random flags, areas and
// off-mesh connections (one-way ones included).
void checkLevel(const std::string& file) {
  const std::string path = levelPath(file);
  if (path.empty()) GTEST_SKIP() << "SKIPPED: " << sharedLevelMissing(file);
  std::string why;
  const DualMesh* d = loadDual(path, true, true, &why);
  ASSERT_NE(d, nullptr) << why;
  ASSERT_GT(d->offMeshCount, 0);
  nav::HierPlanner hp;
  ASSERT_TRUE(nav::statusSucceeded(hp.init(&d->nav, nullptr, smallClusters())));
  const nav::QueryFilter all;
  int complete = 0, partial = 0, widened = 0, fallbacks = 0, own = 0;
  for (int k = 0; k < 6; ++k) {
    Filters f;
    randomFilter(f, k == 0);
    const PairStats s = checkPairs(d->nav, hp, f.nav, all, 100, 100 + uint64_t(k));
    complete += s.complete;
    partial += s.partial;
    widened += s.widened;
    fallbacks += s.fallbacks;
    own += s.filterGraph;
  }
  std::printf("%s: %d complete, %d partial, %d corridors widened, %d fallbacks, %d on the filter's graph\n",
              file.c_str(), complete, partial, widened, fallbacks, own);
  EXPECT_GT(complete, 50);
  // Flag filters search a graph of their own, one-way off-mesh links included: the corridor holds
  // a path whenever one exists, and "no path" needs no whole-mesh search.
  EXPECT_EQ(widened, 0);
  EXPECT_EQ(fallbacks, 0);
  EXPECT_GT(own, 0);
}

// Filters excluding flags on a world without one-way links: each gets a graph of its own (at most
// MAX_FILTER_GRAPHS kept, the least recently used dropped), so the abstract answer is the A*'s:
// complete exactly when it is, and no corridor search misses (no widening, no whole-mesh search).
TEST(HierPlanner, FiltersExcludingFlagsSearchTheirOwnGraph) {
  std::string why;
  const DualMesh* d = generatedWorld(&why);
  ASSERT_NE(d, nullptr) << why;
  auto mesh = editableCopy(*d);
  ASSERT_NE(mesh, nullptr);
  seedRandom(41);
  // Water in patches (a tile's polygons together, so that some pairs are cut off), doors, disabled.
  for (int i = 0; i < mesh->getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh->getTile(i);
    if (!t->header) continue;
    const bool water = irand(4) == 0;
    for (int k = 0; k < t->header->polyCount; ++k) {
      const int r = irand(10);
      const uint16_t f = water ? FLAG_SWIM : r == 0 ? (FLAG_WALK | FLAG_DOOR) : r == 1 ? (FLAG_WALK | FLAG_DISABLED) : FLAG_WALK;
      mesh->setPolyFlags(mesh->getPolyRefBase(t) | nav::PolyRef(k), f);
    }
  }
  nav::HierPlanner hp;
  ASSERT_TRUE(nav::statusSucceeded(hp.init(mesh.get(), nullptr, smallClusters())));
  const nav::QueryFilter all;
  static const uint16_t incs[] = {0xffff, FLAG_WALK, FLAG_WALK | FLAG_SWIM, FLAG_WALK | FLAG_DOOR};
  static const uint16_t excs[] = {FLAG_SWIM, FLAG_DISABLED, FLAG_DOOR, FLAG_SWIM | FLAG_DOOR, 0};
  int complete = 0, partial = 0, widened = 0, fallbacks = 0, own = 0, pairs = 0;
  for (int k = 0; k < 8; ++k) {
    nav::QueryFilter f;
    f.setIncludeFlags(incs[irand(4)]);
    f.setExcludeFlags(excs[irand(5)]);
    if (f.getIncludeFlags() == 0xffff && f.getExcludeFlags() == 0) f.setExcludeFlags(FLAG_SWIM);
    for (int a = 0; a < 4; ++a) f.setAreaCost(a, irand(2) ? 1.0f : 1.0f + 4.0f * frand());
    const PairStats s = checkPairs(*mesh, hp, f, all, 60, 500 + uint64_t(k));
    complete += s.complete;
    partial += s.partial;
    widened += s.widened;
    fallbacks += s.fallbacks;
    own += s.filterGraph;
    pairs += s.pairs;
    EXPECT_LE(hp.filterGraphCount(), nav::HierPlanner::MAX_FILTER_GRAPHS);
  }
  std::printf("filters excluding flags: %d pairs, %d complete, %d partial, %d widened, %d fallbacks, %d on the "
              "filter's graph; %d graphs kept, %zu bytes (default graph %zu)\n",
              pairs, complete, partial, widened, fallbacks, own, hp.filterGraphCount(), hp.filterGraphBytes(),
              hp.graphBytes());
  EXPECT_GT(complete, 100);
  EXPECT_GT(partial, 50) << "water patches and excluded flags cut pairs off";
  EXPECT_EQ(own, pairs);
  EXPECT_EQ(widened, 0);
  EXPECT_EQ(fallbacks, 0);
  EXPECT_EQ(hp.filterGraphCount(), nav::HierPlanner::MAX_FILTER_GRAPHS);
  EXPECT_LE(hp.filterGraphBytes(), size_t(nav::HierPlanner::MAX_FILTER_GRAPHS) * 2 * hp.graphBytes());
  // The default filter and filters with a hook keep the default graph.
  const PairStats sd = checkPairs(*mesh, hp, all, all, 20, 600);
  EXPECT_EQ(sd.filterGraph, 0);
}

TEST(HierPlanner, DefaultLevelRandomFilters) { checkLevel("default"); }
TEST(HierPlanner, NavTestLevelRandomFilters) { checkLevel("nav_test.obj"); }
TEST(HierPlanner, DungeonLevelRandomFilters) { checkLevel("dungeon.obj"); }

// The project's level as shipped (the tile set file the viewer opens).
TEST(HierPlanner, DefaultTileSet) {
  nav::NavMesh mesh;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(
      nav::loadTileSetFile(std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin", mesh, &why)))
      << why;
  nav::HierPlanner hp;
  nav::HierOptions o;
  o.clusterTiles = 2;
  ASSERT_TRUE(nav::statusSucceeded(hp.init(&mesh, nullptr, o)));
  const nav::QueryFilter f;
  const PairStats s = checkPairs(mesh, hp, f, f, 200, 3);
  EXPECT_GT(s.complete, 100);
  EXPECT_LE(s.meanGap(), 0.02);
}

// One tile, no clusters to cross (its only entrances are the ends of one-way off-mesh links,
// between two of its components): answers as the A*'s; a mesh without tiles refuses queries.
TEST(HierPlanner, OneTileWorld) {
  std::string why;
  const DualMesh* d = loadDual(defaultLevel(), false, true, &why);
  ASSERT_NE(d, nullptr) << why;
  ASSERT_EQ(d->nav.tileCount(), 1);
  nav::HierPlanner hp;
  ASSERT_TRUE(nav::statusSucceeded(hp.init(&d->nav)));
  {
    const std::string g = hp.canonical();
    ASSERT_EQ(g.find("cluster "), 0u);
    EXPECT_EQ(g.find("cluster ", 1), std::string::npos) << "one cluster";
    EXPECT_EQ(g.find(" nb "), g.find(" nb 0,0 ")) << "entrances face the cluster itself only";
    EXPECT_EQ(g.find("  to "), g.find("  to 0,0.")) << "edges stay in the cluster";
  }
  nav::QueryFilter none;
  none.setIncludeFlags(0);
  nav::HierPlanner ho;
  ASSERT_TRUE(nav::statusSucceeded(ho.init(&d->nav)));
  EXPECT_EQ(ho.canonical(none).find(" ent "), std::string::npos) << "no polygon passes: no entrance";
  const nav::QueryFilter f;
  const PairStats s = checkPairs(d->nav, hp, f, f, 100, 9);
  EXPECT_GT(s.complete, 50);

  nav::NavMesh empty;
  nav::NavMeshParams p{};
  p.tileWidth = p.tileHeight = 10;
  p.maxTiles = 4;
  p.maxPolys = 64;
  ASSERT_TRUE(nav::statusSucceeded(empty.init(p)));
  nav::HierPlanner he;
  EXPECT_TRUE(nav::statusSucceeded(he.init(&empty)));
  std::vector<nav::PolyRef> path(8);
  int n = 5;
  const float pos[3] = {0, 0, 0};
  EXPECT_TRUE(nav::statusFailed(he.findPath(1, 1, pos, pos, &f, path.data(), &n, 8)));
  EXPECT_EQ(n, 0);
  EXPECT_TRUE(nav::statusFailed(hp.findPath(0, 0, pos, pos, &f, path.data(), &n, 8)));
  EXPECT_TRUE(nav::statusFailed(hp.findPath(1, 1, pos, pos, nullptr, path.data(), &n, 8)));
  nav::HierPlanner hn;
  EXPECT_TRUE(nav::statusFailed(hn.init(nullptr)));
  EXPECT_TRUE(nav::statusFailed(hn.findPath(1, 1, pos, pos, &f, path.data(), &n, 8)));
}

// Filters that block every entrance polygon (every polygon with a link into another tile), or
// everything: partial (or failed, as the A*) exactly where the A* finds no path.
bool noBorderPass(const nav::QueryFilter&, nav::PolyRef, const nav::MeshTile* tile, const nav::Poly* poly) {
  for (uint32_t k = poly->firstLink; k != nav::NULL_LINK; k = tile->links[k].next)
    if (tile->links[k].side != 0xff) return false;
  return true;
}

TEST(HierPlanner, FiltersBlockingEveryEntrance) {
  std::string why;
  const DualMesh* d = generatedWorld(&why);
  ASSERT_NE(d, nullptr) << why;
  nav::HierPlanner hp;
  ASSERT_TRUE(nav::statusSucceeded(hp.init(&d->nav, nullptr, smallClusters())));
  nav::QueryFilter border;
  border.setPassFn(noBorderPass);
  const nav::QueryFilter all;
  const PairStats s = checkPairs(d->nav, hp, border, all, 150, 21);
  std::printf("no border polygons: %d pairs, %d complete, %d partial, %d fallbacks\n", s.pairs, s.complete, s.partial,
              s.fallbacks);
  EXPECT_GT(s.partial, 100) << "most pairs lie in different tiles: no path without border polygons";
  EXPECT_GT(s.widened, 100) << "the graph offers corridors the filter closes";
  EXPECT_GT(s.fallbacks, 100);
  // A point to itself stays complete whatever the filter.
  std::vector<nav::PolyRef> path(MAXP);
  nav::NavMeshQuery rnd;
  ASSERT_TRUE(nav::statusSucceeded(rnd.init(&d->nav, 64)));
  for (int i = 0; i < 20; ++i) {
    nav::PolyRef r;
    float p[3];
    ASSERT_TRUE(nav::statusSucceeded(rnd.findRandomPoint(&all, frand, &r, p)));
    int n = 0;
    const nav::Status st = hp.findPath(r, r, p, p, &border, path.data(), &n, MAXP);
    EXPECT_TRUE(isComplete(st, path, n, r));
    EXPECT_EQ(n, 1);
  }
  nav::QueryFilter none;
  none.setIncludeFlags(0);
  const PairStats z = checkPairs(d->nav, hp, none, all, 50, 22);
  EXPECT_EQ(z.complete, 0);
}

// Two islands: a column of tiles removed cuts the world in two; no pair across is ever complete,
// and the abstract search alone knows it.
TEST(HierPlanner, IslandsAreNeverComplete) {
  std::string why;
  const DualMesh* d = generatedWorld(&why);
  ASSERT_NE(d, nullptr) << why;
  auto mesh = editableCopy(*d);
  ASSERT_NE(mesh, nullptr);
  int minX = 1 << 30, maxX = -(1 << 30);
  for (int i = 0; i < mesh->getMaxTiles(); ++i)
    if (mesh->getTile(i)->header) {
      minX = std::min(minX, mesh->getTile(i)->header->x);
      maxX = std::max(maxX, mesh->getTile(i)->header->x);
    }
  const int cut = (minX + maxX) / 2;
  for (int i = 0; i < mesh->getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh->getTile(i);
    if (t->header && t->header->x == cut) {
      ASSERT_TRUE(nav::statusSucceeded(mesh->removeTile(mesh->getTileRef(t), nullptr, nullptr)));
    }
  }
  nav::HierPlanner hp;
  ASSERT_TRUE(nav::statusSucceeded(hp.init(mesh.get(), nullptr, smallClusters())));
  nav::NavMeshQuery q;
  ASSERT_TRUE(nav::statusSucceeded(q.initUnlimited(mesh.get())));
  const nav::QueryFilter f;
  std::vector<nav::PolyRef> path(MAXP);
  seedRandom(31);
  int across = 0;
  for (int i = 0; i < 200; ++i) {
    nav::PolyRef sr, er;
    float sp[3], ep[3];
    ASSERT_TRUE(nav::statusSucceeded(q.findRandomPoint(&f, frand, &sr, sp)));
    ASSERT_TRUE(nav::statusSucceeded(q.findRandomPoint(&f, frand, &er, ep)));
    const int sx = mesh->getTile(int(mesh->decodePolyIdTile(sr)))->header->x;
    const int ex = mesh->getTile(int(mesh->decodePolyIdTile(er)))->header->x;
    if ((sx < cut) == (ex < cut)) continue;
    ++across;
    int n = 0;
    const nav::Status st = hp.findPath(sr, er, sp, ep, &f, path.data(), &n, MAXP);
    EXPECT_TRUE(nav::statusSucceeded(st));
    EXPECT_TRUE(st & nav::PARTIAL_RESULT);
    EXPECT_FALSE(isComplete(st, path, n, er));
    EXPECT_FALSE(hp.lastStats().connected);
    EXPECT_EQ(path[0], sr);
  }
  EXPECT_GT(across, 50);
  // The rest of the world still answers as the A* does.
  const PairStats s = checkPairs(*mesh, hp, f, f, 100, 32);
  EXPECT_GT(s.partial, 20);
  EXPECT_GT(s.complete, 20);
}

// Random tile edits (removed, added back, rebaked = removed and added at once, a second layer at
// a location) while the planner is open: the updated graph equals the graph built from scratch,
// queries after each edit answer as the A* on the edited mesh.
void checkEdits(const DualMesh* d, int rounds, uint64_t seed, bool randomFlags) {
  auto mesh = editableCopy(*d);
  ASSERT_NE(mesh, nullptr);
  seedRandom(seed);
  if (randomFlags) {
    static const uint16_t flags[] = {FLAG_WALK, FLAG_WALK, FLAG_WALK, FLAG_SWIM, FLAG_WALK | FLAG_DOOR, FLAG_WALK | FLAG_DISABLED};
    for (int i = 0; i < mesh->getMaxTiles(); ++i) {
      const nav::MeshTile* t = mesh->getTile(i);
      if (!t->header) continue;
      for (int k = 0; k < t->header->polyCount; ++k)
        mesh->setPolyFlags(mesh->getPolyRefBase(t) | nav::PolyRef(k), flags[irand(6)]);
    }
  }
  // Filters with graphs of their own: flags excluded, area costs.
  nav::QueryFilter noSwim, walkOnly;
  noSwim.setExcludeFlags(FLAG_SWIM | FLAG_DISABLED);
  noSwim.setAreaCost(1, 3.0f);
  walkOnly.setIncludeFlags(FLAG_WALK);
  walkOnly.setExcludeFlags(FLAG_DOOR);
  nav::HierPlanner hp;
  ASSERT_TRUE(nav::statusSucceeded(hp.init(mesh.get(), nullptr, smallClusters())));
  ASSERT_FALSE(hp.canonical().empty());
  ASSERT_NE(hp.canonical(noSwim), hp.canonical()) << "the filter's graph leaves polygons out";
  (void)hp.canonical(walkOnly);
  EXPECT_EQ(hp.filterGraphCount(), 2);
  struct Removed {
    std::vector<uint8_t> bytes;
  };
  std::vector<Removed> removed;
  auto presentSlots = [&] {
    std::vector<int> s;
    for (int i = 0; i < mesh->getMaxTiles(); ++i)
      if (mesh->getTile(i)->header) s.push_back(i);
    return s;
  };
  auto takeOut = [&](int slot) {
    const nav::MeshTile* t = mesh->getTile(slot);
    Removed r;
    r.bytes.assign(t->data, t->data + t->dataSize);
    ASSERT_TRUE(nav::statusSucceeded(mesh->removeTile(mesh->getTileRef(t), nullptr, nullptr)));
    removed.push_back(std::move(r));
  };
  auto putBack = [&](std::vector<uint8_t> bytes, int layer) {
    if (layer >= 0) {
      nav::MeshHeader h;
      std::memcpy(&h, bytes.data(), sizeof h);
      h.layer = layer;
      std::memcpy(bytes.data(), &h, sizeof h);
    }
    auto* data = new uint8_t[bytes.size()];
    std::memcpy(data, bytes.data(), bytes.size());
    if (nav::statusFailed(mesh->addTile(data, int(bytes.size()), nav::TILE_FREE_DATA, 0, nullptr))) delete[] data;
  };
  int layered = 0;
  for (int round = 0; round < rounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const int edits = 1 + irand(3);
    for (int e = 0; e < edits; ++e) {
      const std::vector<int> slots = presentSlots();
      const int op = irand(4);
      if (op == 0 && slots.size() > 4) {
        takeOut(slots[size_t(irand(int(slots.size())))]);
      } else if (op == 1 && !removed.empty()) {
        const size_t k = size_t(irand(int(removed.size())));
        putBack(std::move(removed[k].bytes), -1);
        removed.erase(removed.begin() + long(k));
      } else if (op == 2 && !slots.empty()) { // rebake: out and in again
        takeOut(slots[size_t(irand(int(slots.size())))]);
        putBack(std::move(removed.back().bytes), -1);
        removed.pop_back();
      } else if (!slots.empty()) { // a copy of a tile as another layer at its location
        const nav::MeshTile* t = mesh->getTile(slots[size_t(irand(int(slots.size())))]);
        if (t->header->layer == 0) {
          putBack(std::vector<uint8_t>(t->data, t->data + t->dataSize), 1 + irand(2));
          ++layered;
        }
      }
    }
    if (round % 2) hp.update(); // else the queries below bring the graph up to date
    const PairStats s = checkPairs(*mesh, hp, nav::QueryFilter(), nav::QueryFilter(), 25, 1000 + uint64_t(round));
    // The filters' graphs follow the edits when a query uses them (walkOnly's only every other round).
    const PairStats sf = checkPairs(*mesh, hp, round % 2 ? walkOnly : noSwim, nav::QueryFilter(), 10, 2000 + uint64_t(round));
    EXPECT_EQ(sf.filterGraph, sf.pairs);
    nav::HierPlanner fresh;
    ASSERT_TRUE(nav::statusSucceeded(fresh.init(mesh.get(), nullptr, smallClusters())));
    ASSERT_EQ(hp.canonical(), fresh.canonical());
    EXPECT_EQ(hp.entranceCount(), fresh.entranceCount());
    if (round % 4 == 3) {
      ASSERT_EQ(hp.canonical(noSwim), fresh.canonical(noSwim));
      ASSERT_EQ(hp.canonical(walkOnly), fresh.canonical(walkOnly));
    }
  }
  EXPECT_GT(layered, 0);
  // Flags changed: the graph is unchanged (it does not depend on them); queries see the flags.
  const std::vector<int> slots = presentSlots();
  ASSERT_FALSE(slots.empty());
  const nav::MeshTile* t = mesh->getTile(slots[0]);
  mesh->setPolyFlags(mesh->getPolyRefBase(t), 0);
  const std::string before = hp.canonical();
  EXPECT_EQ(hp.update(), 0);
  EXPECT_EQ(hp.canonical(), before);
  // The filters' graphs do: rebuilt with the new flags.
  EXPECT_EQ(hp.filterGraphCount(), 0);
  for (int k = 0; k < t->header->polyCount; ++k) mesh->setPolyFlags(mesh->getPolyRefBase(t) | nav::PolyRef(k), FLAG_SWIM);
  nav::HierPlanner fresh;
  ASSERT_TRUE(nav::statusSucceeded(fresh.init(mesh.get(), nullptr, smallClusters())));
  EXPECT_EQ(hp.canonical(noSwim), fresh.canonical(noSwim));
  const PairStats sf = checkPairs(*mesh, hp, noSwim, nav::QueryFilter(), 20, 3000);
  EXPECT_EQ(sf.filterGraph, sf.pairs);
}

TEST(HierPlanner, IncrementalUpdateEqualsRebuild) {
  std::string why;
  const DualMesh* d = loadDual(defaultLevel(), true, true, &why); // random flags, areas, off-mesh links
  ASSERT_NE(d, nullptr) << why;
  checkEdits(d, 24, 77, false);
}

TEST(HierPlanner, IncrementalUpdateEqualsRebuildGeneratedWorld) {
  std::string why;
  const DualMesh* d = generatedWorld(&why);
  ASSERT_NE(d, nullptr) << why;
  checkEdits(d, 16, 78, true);
}

// The graph is small next to the mesh it describes.
TEST(HierPlanner, GraphIsATenthOfTheMesh) {
  std::string why;
  const DualMesh* d = generatedWorld(&why);
  ASSERT_NE(d, nullptr) << why;
  nav::HierPlanner hp;
  ASSERT_TRUE(nav::statusSucceeded(hp.init(&d->nav)));
  EXPECT_GT(hp.entranceCount(), 0);
  EXPECT_LE(hp.graphBytes() * 10, d->nav.totalTileBytes() + d->nav.overheadBytes());
}

// navbench check's node-budget findings say whether the hierarchical search completes the pair:
// pairs are drawn inside one island, so with a tiny budget every finding is one it completes.
TEST(HierPlanner, CheckBudgetFindingsSayTheHierarchicalSearchCompletesThem) {
  std::string why;
  const DualMesh* d = generatedWorld(&why);
  ASSERT_NE(d, nullptr) << why;
  nav::check::CheckOptions opts;
  opts.pairs = 200;
  opts.threads = 1;
  opts.nodeBudget = 32;
  opts.detours = false;
  opts.surface = false;
  nav::check::CheckResult r;
  ASSERT_TRUE(nav::statusSucceeded(nav::check::runChecks(d->nav, nav::check::defaultCheckFilter(), opts, r, &why)))
      << why;
  ASSERT_GT(r.budget.size(), 50u);
  for (const nav::check::BudgetFinding& b : r.budget) EXPECT_TRUE(b.hierarchical) << "pair " << b.pairIndex;
  const std::vector<std::string> lines = nav::check::describeFindings(r, nav::check::CHECK_BUDGET);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines[0].find("the hierarchical search completes it"), std::string::npos) << lines[0];
  EXPECT_TRUE(nav::check::reportJson("world", r, opts)["budget"][0]["hierarchical"].get<bool>());
}

// Hostile coordinates: tiles at the ends of the range NavMesh accepts (|x|, |y| < 2^30), alone in
// their clusters, whatever the cluster size.
TEST(HierPlanner, TilesAtExtremeCoordinates) {
  std::string why;
  const DualMesh* d = loadDual(defaultLevel(), true, false, &why);
  ASSERT_NE(d, nullptr) << why;
  ASSERT_GE(d->blobs.size(), 3u);
  nav::NavMesh mesh;
  nav::NavMeshParams p;
  std::memcpy(&p, &d->params, sizeof p);
  ASSERT_TRUE(nav::statusSucceeded(mesh.init(p)));
  constexpr int E = (1 << 30) - 1;
  const int xs[3] = {E, E - 1, -E};
  const int ys[3] = {-E, -E, E};
  for (int k = 0; k < 3; ++k) {
    std::vector<uint8_t> bytes = d->blobs[size_t(k)].bytes;
    nav::MeshHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    h.x = xs[k];
    h.y = ys[k];
    std::memcpy(bytes.data(), &h, sizeof h);
    auto* data = new uint8_t[bytes.size()];
    std::memcpy(data, bytes.data(), bytes.size());
    ASSERT_TRUE(nav::statusSucceeded(mesh.addTile(data, int(bytes.size()), nav::TILE_FREE_DATA, 0, nullptr, &why)))
        << why;
  }
  for (int cluster : {1, 2, 64}) {
    nav::HierOptions o;
    o.clusterTiles = cluster;
    o.corridorRadius = 2;
    nav::HierPlanner hp;
    ASSERT_TRUE(nav::statusSucceeded(hp.init(&mesh, nullptr, o)));
    const nav::QueryFilter f;
    const PairStats s = checkPairs(mesh, hp, f, f, 40, 51);
    EXPECT_GT(s.complete, 5);
    ASSERT_TRUE(nav::statusSucceeded(mesh.removeTile(mesh.getTileRef(mesh.getTileAt(xs[1], ys[1], 0)), nullptr,
                                                     nullptr)))
        << "cluster " << cluster;
    hp.update();
    nav::HierPlanner fresh;
    ASSERT_TRUE(nav::statusSucceeded(fresh.init(&mesh, nullptr, o)));
    EXPECT_EQ(hp.canonical(), fresh.canonical());
    // Back for the next round.
    std::vector<uint8_t> bytes = d->blobs[1].bytes;
    nav::MeshHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    h.x = xs[1];
    h.y = ys[1];
    std::memcpy(bytes.data(), &h, sizeof h);
    auto* data = new uint8_t[bytes.size()];
    std::memcpy(data, bytes.data(), bytes.size());
    ASSERT_TRUE(nav::statusSucceeded(mesh.addTile(data, int(bytes.size()), nav::TILE_FREE_DATA, 0, nullptr)));
  }
}
