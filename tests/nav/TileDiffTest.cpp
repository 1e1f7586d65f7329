// TileDiffTest: our tile building, linking and tile management against Detour 1.5.1 (the oracle)
// on levels baked with Recast at RecastDemo's default settings, solo and tiled, with off-mesh
// connections across tile borders. Needs ../shared/levels for three of the four levels; the
// project's own assets/levels/default.obj always runs.
#include "DetourBridge.h"
#include "TestMeshes.h"
#include "tests/support/RecastPolyMesh.h"

#include "nav/NavMath.h"
#include "nav/TileSetFile.h"

#include <DetourNavMeshQuery.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <cmath>
#include <fstream>
#include <map>
#include <random>

using namespace navtest;

namespace {

// RecastDemo's jump links: radius 0.6, ids from 101.
struct OffMeshSet : OffMeshArrays {
  void add(const float* a, const float* b, bool bidir) {
    OffMeshArrays::add(a, b, 0.6f, FLAG_JUMP, AREA_JUMP, bidir ? 1 : 0, uint32_t(100 + count() + 1));
  }
};

struct Level {
  std::string name;
  bool available = false;
  std::string skipReason;
  TriMesh mesh;
  BakedLevel solo, tiled;
  OffMeshSet offMesh; // for the tiled bake
};

nav::TileBuildParams levelTileParams(const BakedLevel& lv, const BakedTile& t, const OffMeshSet* om) {
  return bakedTileParams(t, lv.settings, om);
}

// Jump links across tile borders: from the poly of a tile nearest to its +x (or +z) border to the
// poly of the neighbour nearest to the same border; plus one to a diagonal neighbour, one that
// stays inside a tile and one whose end lands outside every tile.
OffMeshSet makeOffMeshLinks(const BakedLevel& lv) {
  OffMeshSet om;
  std::map<std::pair<int, int>, const BakedTile*> at;
  for (const BakedTile& t : lv.tiles) at[{t.tx, t.ty}] = &t;
  auto nearestTo = [](const BakedTile& t, int axis, float coord, float* out) {
    float best = 1e30f;
    for (int i = 0; i < t.npolys; ++i) {
      float c[3];
      bakedPolyCenter(t, i, c);
      const float d = std::fabs(c[axis] - coord);
      if (d < best) {
        best = d;
        for (int k = 0; k < 3; ++k) out[k] = c[k];
      }
    }
  };
  int made = 0;
  for (const BakedTile& t : lv.tiles) {
    if (made >= 6) break;
    for (int axis : {0, 2}) {
      const auto it = at.find(axis == 0 ? std::make_pair(t.tx + 1, t.ty) : std::make_pair(t.tx, t.ty + 1));
      if (it == at.end()) continue;
      const float border = t.bmax[axis];
      float a[3], b[3];
      nearestTo(t, axis, border, a);
      nearestTo(*it->second, axis, border, b);
      om.add(a, b, made % 2 == 0);
      ++made;
    }
  }
  for (const BakedTile& t : lv.tiles) {
    const auto it = at.find({t.tx + 1, t.ty + 1});
    if (it == at.end()) continue;
    float a[3], b[3];
    bakedPolyCenter(t, t.npolys - 1, a);
    bakedPolyCenter(*it->second, 0, b);
    om.add(a, b, true);
    break;
  }
  if (!lv.tiles.empty()) {
    const BakedTile& t = lv.tiles[lv.tiles.size() / 2];
    float a[3], b[3];
    bakedPolyCenter(t, 0, a);
    bakedPolyCenter(t, t.npolys - 1, b);
    om.add(a, b, true);
    float far[3] = {a[0] - 1000.0f, a[1], a[2]};
    om.add(a, far, false);
  }
  return om;
}

Level& getLevel(const std::string& name) {
  static std::map<std::string, Level> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  Level& lv = cache[name];
  lv.name = name;
  const std::string path = name == "default.obj" ? std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.obj"
                                                 : std::string(NAVBENCH_SHARED_DIR) + "/levels/" + name;
  if (!std::ifstream(path)) {
    lv.skipReason = "level not found at " + path;
    return lv;
  }
  std::string why;
  if (!loadObj(path, lv.mesh, &why)) {
    lv.skipReason = why;
    ADD_FAILURE() << why;
    return lv;
  }
  BakeSettings s;
  if (!bakeSolo(lv.mesh, s, lv.solo, &why) || !bakeTiled(lv.mesh, s, lv.tiled, &why)) {
    ADD_FAILURE() << name << ": bake failed: " << why;
    lv.skipReason = why;
    return lv;
  }
  lv.offMesh = makeOffMeshLinks(lv.tiled);
  lv.available = true;
  int polys = 0;
  for (const BakedTile& t : lv.tiled.tiles) polys += t.npolys;
  std::printf("[ level    ] %s: solo %d polys; tiled %d tiles (%dx%d grid), %d polys; %d off-mesh links\n", name.c_str(),
              lv.solo.tiles[0].npolys, int(lv.tiled.tiles.size()), lv.tiled.gridW, lv.tiled.gridH, polys,
              lv.offMesh.count());
  return lv;
}

class LevelDiff : public ::testing::TestWithParam<std::string> {
protected:
  Level* lv = nullptr;
  void SetUp() override {
    lv = &getLevel(GetParam());
    if (!lv->available) GTEST_SKIP() << GetParam() << ": " << lv->skipReason;
  }
};

// Checks that the BV tree is a valid tree over the ground polys: depth-first nodes, escape offsets
// covering exactly their subtree, each internal box enclosing its children, each leaf once.
void checkBvTree(const uint8_t* blob, const BakedTile& t, const std::string& what) {
  const nav::MeshHeader* h = reinterpret_cast<const nav::MeshHeader*>(blob);
  ASSERT_EQ(h->bvNodeCount, t.npolys * 2) << what;
  const nav::TileLayout lay = nav::tileLayout(*h);
  const nav::BVNode* nodes = reinterpret_cast<const nav::BVNode*>(blob + lay.bvTree);
  std::vector<int> seen(size_t(t.npolys), 0);
  // Recursive check of the subtree at `n`; returns the node count of the subtree.
  std::function<int(int, const nav::BVNode*)> walk = [&](int n, const nav::BVNode* parent) -> int {
    const nav::BVNode& node = nodes[n];
    if (parent)
      for (int k = 0; k < 3; ++k) {
        EXPECT_LE(parent->bmin[k], node.bmin[k]) << what << " node " << n;
        EXPECT_GE(parent->bmax[k], node.bmax[k]) << what << " node " << n;
      }
    if (node.i >= 0) {
      EXPECT_LT(node.i, t.npolys);
      if (node.i < t.npolys) seen[size_t(node.i)]++;
      // The leaf box encloses the poly's detail vertices (quantised the same way, floor).
      const uint32_t* dm = &t.dmeshes[size_t(node.i) * 4];
      for (uint32_t v = 0; v < dm[1]; ++v) {
        const float* p = &t.dverts[(dm[0] + v) * 3];
        for (int k = 0; k < 3; ++k) {
          const int q = int((p[k] - t.bmin[k]) * h->bvQuantFactor);
          EXPECT_LE(int(node.bmin[k]), nav::clamp(q, 0, 0xffff)) << what << " leaf " << n;
          EXPECT_GE(int(node.bmax[k]), nav::clamp(q, 0, 0xffff)) << what << " leaf " << n;
        }
      }
      return 1;
    }
    int size = 1;
    while (size < -node.i) size += walk(n + size, &node);
    EXPECT_EQ(size, -node.i) << what << " node " << n;
    return size;
  };
  const int used = walk(0, nullptr);
  EXPECT_EQ(used, 2 * t.npolys - 1) << what;
  for (int i = 0; i < t.npolys; ++i) EXPECT_EQ(seen[size_t(i)], 1) << what << " poly " << i;
}

void loadBoth(const Level& lv, const BakedLevel& bl, const OffMeshSet* om, nav::NavMesh& ours, DtMeshPtr& theirs,
              std::vector<nav::TileRef>* refs = nullptr) {
  nav::NavMeshParams np{};
  std::memcpy(np.orig, bl.orig, sizeof np.orig);
  np.tileWidth = bl.tileWidth;
  np.tileHeight = bl.tileHeight;
  np.maxTiles = bl.maxTiles;
  np.maxPolys = bl.maxPolys;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(ours.init(np, &why))) << why;
  dtNavMeshParams dp;
  std::memcpy(&dp, &np, sizeof dp);
  theirs.reset(dtAllocNavMesh());
  ASSERT_TRUE(dtStatusSucceed(theirs->init(&dp)));
  for (const BakedTile& t : bl.tiles) {
    const nav::TileBuildParams p = levelTileParams(bl, t, om);
    std::vector<uint8_t> blob = navBuild(p, &why);
    ASSERT_FALSE(blob.empty()) << lv.name << ": " << why;
    nav::TileRef a = 0;
    ASSERT_EQ(addTileBoth(ours, *theirs, blob, &a), "") << lv.name << " tile " << t.tx << "," << t.ty;
    if (refs) refs->push_back(a);
  }
}

} // namespace

TEST_P(LevelDiff, BlobsAreByteIdenticalToDetour) {
  for (const BakedLevel* bl : {&lv->solo, &lv->tiled}) {
    const OffMeshSet* om = bl->tiled ? &lv->offMesh : nullptr;
    int storedOffMesh = 0;
    for (const BakedTile& t : bl->tiles) {
      const nav::TileBuildParams p = levelTileParams(*bl, t, om);
      std::string why;
      const std::vector<uint8_t> ours = navBuild(p, &why);
      const std::vector<uint8_t> theirs = detourBuild(p);
      const std::string what = lv->name + (bl->tiled ? " tiled" : " solo") + " tile (" + std::to_string(t.tx) + "," +
                               std::to_string(t.ty) + ")";
      ASSERT_FALSE(ours.empty()) << what << ": " << why;
      ASSERT_FALSE(theirs.empty()) << what;
      ASSERT_EQ(compareBlobs(ours.data(), ours.size(), theirs.data(), theirs.size()), "") << what;
      checkBvTree(ours.data(), t, what);
      storedOffMesh += reinterpret_cast<const nav::MeshHeader*>(ours.data())->offMeshConCount;
      // Without a detail mesh (fan triangulation, BV from poly verts) and without a BV tree.
      nav::TileBuildParams q = p;
      q.detailMeshes = nullptr;
      q.detailVerts = nullptr;
      q.detailVertsCount = 0;
      q.detailTris = nullptr;
      q.detailTriCount = 0;
      q.buildBvTree = t.tx % 2 == 0;
      const std::vector<uint8_t> ours2 = navBuild(q, &why), theirs2 = detourBuild(q);
      ASSERT_FALSE(ours2.empty()) << what << ": " << why;
      ASSERT_EQ(compareBlobs(ours2.data(), ours2.size(), theirs2.data(), theirs2.size()), "") << what << " (no detail)";
    }
    if (om) {
      EXPECT_GT(storedOffMesh, 0) << "the off-mesh links were meant to be stored somewhere";
    }
  }
}

TEST_P(LevelDiff, LinkedMeshesAgreeWithDetour) {
  for (const BakedLevel* bl : {&lv->solo, &lv->tiled}) {
    nav::NavMesh ours;
    DtMeshPtr theirs;
    loadBoth(*lv, *bl, bl->tiled ? &lv->offMesh : nullptr, ours, theirs);
    if (HasFatalFailure()) return;
    ASSERT_EQ(compareMeshes(ours, *theirs), "") << lv->name << (bl->tiled ? " tiled" : " solo");
    // Every poly ref resolves to the same poly in both.
    for (int i = 0; i < ours.getMaxTiles(); ++i) {
      const nav::MeshTile* t = ours.getTile(i);
      if (!t->header) continue;
      const nav::PolyRef base = ours.getPolyRefBase(t);
      const dtNavMesh& cm = *theirs;
      ASSERT_EQ(base, cm.getPolyRefBase(cm.getTile(i)));
      for (int p = 0; p < t->header->polyCount; ++p) {
        const nav::MeshTile* tt;
        const nav::Poly* pp;
        const dtMeshTile* dt;
        const dtPoly* dp;
        ASSERT_TRUE(nav::statusSucceeded(ours.getTileAndPolyByRef(base | nav::PolyRef(p), &tt, &pp)));
        ASSERT_TRUE(dtStatusSucceed(theirs->getTileAndPolyByRef(base | dtPolyRef(p), &dt, &dp)));
        ASSERT_EQ(pp - tt->polys, dp - dt->polys);
      }
    }
    if (bl->tiled) {
      // Off-mesh links were made across tiles.
      int offLinks = 0;
      for (int i = 0; i < ours.getMaxTiles(); ++i) {
        const nav::MeshTile* t = ours.getTile(i);
        if (!t->header) continue;
        for (int p = t->header->offMeshBase; p < t->header->polyCount; ++p)
          for (uint32_t l = t->polys[p].firstLink; l != nav::NULL_LINK; l = t->links[l].next)
            if (t->links[l].side != 0xff) ++offLinks;
      }
      EXPECT_GT(offLinks, 0) << lv->name << ": no off-mesh link landed in another tile";
      int borderLinks = 0, partial = 0;
      for (int i = 0; i < ours.getMaxTiles(); ++i) {
        const nav::MeshTile* t = ours.getTile(i);
        if (!t->header) continue;
        for (int p = 0; p < t->header->offMeshBase; ++p)
          for (uint32_t l = t->polys[p].firstLink; l != nav::NULL_LINK; l = t->links[l].next)
            if (t->links[l].side != 0xff) {
              ++borderLinks;
              if (t->links[l].bmin != 0 || t->links[l].bmax != 255) ++partial;
            }
      }
      EXPECT_GT(borderLinks, 20) << lv->name << ": tiles hardly linked across borders";
      std::printf("[ links    ] %s: %d tile-border links, %d of them partial portals\n", lv->name.c_str(), borderLinks,
                  partial);
    }
  }
}

TEST_P(LevelDiff, RemoveAndReaddGiveDetoursRefs) {
  nav::NavMesh ours;
  DtMeshPtr theirs;
  std::vector<nav::TileRef> refs;
  loadBoth(*lv, lv->tiled, &lv->offMesh, ours, theirs, &refs);
  if (HasFatalFailure()) return;
  std::mt19937 rng(7);
  for (int round = 0; round < 3; ++round) {
    // Remove a random half, in random order.
    std::vector<size_t> order(refs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    order.resize(std::max<size_t>(1, order.size() / 2));
    std::vector<std::vector<uint8_t>> removed;
    for (size_t k : order) {
      const nav::MeshTile* t = ours.getTileByRef(refs[k]);
      ASSERT_NE(t, nullptr);
      const std::vector<uint8_t> copy(t->data, t->data + t->dataSize);
      uint8_t* d1 = nullptr;
      int s1 = 0;
      unsigned char* d2 = nullptr;
      int s2 = 0;
      ASSERT_TRUE(nav::statusSucceeded(ours.removeTile(refs[k], &d1, &s1)));
      ASSERT_TRUE(dtStatusSucceed(theirs->removeTile(refs[k], &d2, &s2)));
      EXPECT_EQ(d1, nullptr); // owned data is freed
      EXPECT_FALSE(ours.isValidPolyRef(refs[k])) << "stale ref still valid";
      removed.push_back(copy);
    }
    ASSERT_EQ(compareMeshes(ours, *theirs), "") << "after removing, round " << round;
    // Re-add in reverse order into free slots: refs (slot + bumped salt) must agree.
    for (size_t r = removed.size(); r-- > 0;) {
      const std::vector<uint8_t>& blob = removed[r];
      nav::TileRef a = 0;
      ASSERT_EQ(addTileBoth(ours, *theirs, blob, &a), "");
      EXPECT_NE(a, refs[order[r]]) << "salt not bumped";
      refs[order[r]] = a;
    }
    ASSERT_EQ(compareMeshes(ours, *theirs), "") << "after re-adding, round " << round;
  }
}

TEST_P(LevelDiff, TileQueriesAgreeWithDetour) {
  // Solo mesh: one tile, so Detour's mesh-wide queries equal our per-tile ones.
  nav::NavMesh ours;
  DtMeshPtr theirs;
  loadBoth(*lv, lv->solo, nullptr, ours, theirs);
  if (HasFatalFailure()) return;
  dtNavMeshQuery* q = dtAllocNavMeshQuery();
  ASSERT_TRUE(dtStatusSucceed(q->init(theirs.get(), 2048)));
  dtQueryFilter filter;
  const nav::MeshTile* tile = ours.getTile(0);
  const float* bmin = tile->header->bmin;
  const float* bmax = tile->header->bmax;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(0, 1);
  int found = 0;
  std::vector<nav::PolyRef> a(512);
  std::vector<dtPolyRef> b(512);
  for (int i = 0; i < 3000; ++i) {
    float p[3];
    for (int k = 0; k < 3; ++k) p[k] = bmin[k] + (bmax[k] - bmin[k]) * (u(rng) * 1.1f - 0.05f);
    const float ext[3] = {0.5f + 3 * u(rng), 0.5f + 4 * u(rng), 0.5f + 3 * u(rng)};
    float pa[3] = {0, 0, 0}, pb[3] = {0, 0, 0};
    // Detour visits a tile only if the box touches its grid cell; so must we.
    float qmin[3], qmax[3];
    nav::vsub(qmin, p, ext);
    nav::vadd(qmax, p, ext);
    int tminx, tminy, tmaxx, tmaxy;
    ours.calcTileLoc(qmin, &tminx, &tminy);
    ours.calcTileLoc(qmax, &tmaxx, &tmaxy);
    if (tminx > 0 || tmaxx < 0 || tminy > 0 || tmaxy < 0) continue;
    const nav::PolyRef ra = ours.findNearestPolyInTile(tile, p, ext, pa);
    dtPolyRef rb = 0;
    ASSERT_TRUE(dtStatusSucceed(q->findNearestPoly(p, ext, &filter, &rb, pb)));
    ASSERT_EQ(ra, rb) << "nearest poly, query " << i;
    if (ra) {
      ++found;
      for (int k = 0; k < 3; ++k) ASSERT_EQ(pa[k], pb[k]) << "nearest point, query " << i;
    }
    // Polygons in a box: same set in the same (BV) order.
    const int na = ours.queryPolygonsInTile(tile, qmin, qmax, a.data(), int(a.size()));
    int nb = 0;
    ASSERT_TRUE(dtStatusSucceed(q->queryPolygons(p, ext, &filter, b.data(), &nb, int(b.size()))));
    ASSERT_EQ(na, nb) << "query " << i;
    for (int k = 0; k < na; ++k) ASSERT_EQ(a[size_t(k)], b[size_t(k)]);
    // Closest point and height on a random poly.
    const nav::PolyRef ref = ours.getPolyRefBase(tile) | nav::PolyRef(rng() % unsigned(tile->header->polyCount));
    bool overA = false, overB = false;
    ours.closestPointOnPoly(ref, p, pa, &overA);
    ASSERT_TRUE(dtStatusSucceed(q->closestPointOnPoly(ref, p, pb, &overB)));
    ASSERT_EQ(overA, overB);
    for (int k = 0; k < 3; ++k) ASSERT_EQ(pa[k], pb[k]) << "closest point, query " << i;
    float ha = 0, hb = 0;
    const nav::Poly* poly = &tile->polys[ours.decodePolyIdPoly(ref)];
    const bool inA = ours.getPolyHeight(tile, poly, p, &ha);
    const bool inB = dtStatusSucceed(q->getPolyHeight(ref, p, &hb));
    ASSERT_EQ(inA, inB);
    if (inA) {
      ASSERT_EQ(ha, hb);
    }
  }
  EXPECT_GT(found, 100);
  dtFreeNavMeshQuery(q);
}

INSTANTIATE_TEST_SUITE_P(Levels, LevelDiff,
                         ::testing::Values("default.obj", "dungeon.obj", "nav_test.obj", "undulating.obj"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           return i.param.substr(0, i.param.find('.'));
                         });

TEST_P(LevelDiff, TileSetFilesInterchangeWithDetour) {
  for (const BakedLevel* bl : {&lv->solo, &lv->tiled}) {
    nav::NavMesh ours;
    DtMeshPtr theirs;
    loadBoth(*lv, *bl, bl->tiled ? &lv->offMesh : nullptr, ours, theirs);
    if (HasFatalFailure()) return;
    std::vector<uint8_t> fromUs;
    ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSet(ours, fromUs)));
    const std::vector<uint8_t> fromDetour = detourSaveAll(*theirs);
    EXPECT_TRUE(fromUs == fromDetour) << "the two writers disagree";
    // Detour reads ours; we read Detour's; both agree slot by slot, link by link.
    DtMeshPtr dtLoaded = detourLoadAll(fromUs);
    ASSERT_TRUE(dtLoaded);
    nav::NavMesh navLoaded;
    std::string why;
    ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSet(fromDetour.data(), fromDetour.size(), navLoaded, &why))) << why;
    EXPECT_EQ(compareMeshes(navLoaded, *dtLoaded), "") << lv->name;
    EXPECT_EQ(navLoaded.totalTileBytes(), ours.totalTileBytes());
    // Load time, ours (validation included) vs Detour's (none): measured, not asserted.
    using clk = std::chrono::steady_clock;
    const int reps = 20;
    auto t0 = clk::now();
    for (int r = 0; r < reps; ++r) {
      nav::NavMesh m;
      nav::loadTileSet(fromUs.data(), fromUs.size(), m);
    }
    auto t1 = clk::now();
    for (int r = 0; r < reps; ++r) DtMeshPtr m = detourLoadAll(fromUs);
    auto t2 = clk::now();
    std::printf("[ load     ] %s %s: %d tiles, %zu bytes; load from memory: ours %.1f us, Detour %.1f us\n",
                lv->name.c_str(), bl->tiled ? "tiled" : "solo", navLoaded.tileCount(), fromUs.size(),
                std::chrono::duration<double, std::micro>(t1 - t0).count() / reps,
                std::chrono::duration<double, std::micro>(t2 - t1).count() / reps);
  }
}
