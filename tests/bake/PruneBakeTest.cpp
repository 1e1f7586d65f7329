// Baker::bakeTileWithout (issue 19, the Prune tool's "remove from the saved navmesh"): a tile of
// the default level rebuilt without some of its polys, swapped into a copy of the mesh, saved and
// loaded again; paths still cross it.
#include "BakeTestUtil.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/TileSetFile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

using namespace nav::bake;

namespace {

std::array<float, 3> centreOf(const nav::MeshTile* tile, const nav::Poly& p) {
  std::array<float, 3> c{0, 0, 0};
  for (int k = 0; k < p.vertCount; ++k)
    for (int i = 0; i < 3; ++i) c[size_t(i)] += tile->verts[p.verts[k] * 3 + i] / float(p.vertCount);
  return c;
}

bool near(const std::array<float, 3>& a, const std::array<float, 3>& b) {
  return std::fabs(a[0] - b[0]) < 1e-3f && std::fabs(a[1] - b[1]) < 1e-3f && std::fabs(a[2] - b[2]) < 1e-3f;
}

int groundPolys(const nav::MeshTile* t) { return t->header->polyCount - t->header->offMeshConCount; }

/// A copy of `mesh` through the tile-set format (what a save then a load gives).
bool copyMesh(const nav::NavMesh& mesh, nav::NavMesh* out, std::string* why) {
  std::vector<uint8_t> bytes;
  return nav::statusSucceeded(nav::saveTileSet(mesh, bytes, why)) &&
         nav::statusSucceeded(nav::loadTileSet(bytes.data(), bytes.size(), *out, why));
}

class PruneBake : public testing::Test {
protected:
  void SetUp() override {
    std::string why;
    if (!baketest::fileExists(baketest::defaultLevel())) GTEST_FAIL() << "missing " << baketest::defaultLevel();
    ASSERT_TRUE(baketest::loadLevel(baketest::defaultLevel(), &input, &settings, &why)) << why;
    settings.tiled = true;
    ASSERT_TRUE(baker.setInput(input, &why)) << why;
    BakeReport r;
    ASSERT_TRUE(baker.bake(settings, BakeOptions(), &r)) << r.error;
  }

  /// A path from `a` to `b` (world points) on `mesh`; its corridor, empty when not reached.
  std::vector<nav::PolyRef> path(const nav::NavMesh& mesh, const float* a, const float* b) {
    nav::NavMeshQuery q;
    EXPECT_TRUE(nav::statusSucceeded(q.init(&mesh, 4096)));
    nav::QueryFilter filter;
    const float ext[3] = {0.5f, 1.0f, 0.5f};
    nav::PolyRef sa = 0, sb = 0;
    float pa[3], pb[3];
    q.findNearestPoly(a, ext, &filter, &sa, pa);
    q.findNearestPoly(b, ext, &filter, &sb, pb);
    if (!sa || !sb) return {};
    nav::PolyRef corridor[1024];
    int n = 0;
    const nav::Status st = q.findPath(sa, sb, pa, pb, &filter, corridor, &n, 1024);
    if (!nav::statusSucceeded(st) || nav::statusDetail(st, nav::PARTIAL_RESULT) || n == 0 || corridor[n - 1] != sb) return {};
    return std::vector<nav::PolyRef>(corridor, corridor + n);
  }

  BakeInput input;
  BakeSettings settings;
  Baker baker;
};

TEST_F(PruneBake, NothingDroppedIsTheBakedTile) {
  const nav::NavMesh& mesh = *baker.navMesh();
  int checked = 0;
  for (int i = 0; i < mesh.getMaxTiles() && checked < 4; ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (!t->header) continue;
    const TileCoord tc{t->header->x, t->header->y};
    std::vector<RebakedTile> baked;
    BakeReport r;
    ASSERT_TRUE(baker.bakeTiles(settings, {tc}, BakeOptions(), &baked, &r)) << r.error;
    RebakedTile without;
    std::string why;
    ASSERT_TRUE(baker.bakeTileWithout(settings, tc, {}, &without, &why)) << why;
    ASSERT_EQ(baked[0].dataSize, without.dataSize);
    EXPECT_TRUE(std::equal(without.data, without.data + without.dataSize, baked[0].data)) << "tile " << tc.x << "," << tc.y;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST_F(PruneBake, BadIndexIsRefused) {
  const nav::MeshTile* t = nullptr;
  for (int i = 0; i < baker.navMesh()->getMaxTiles() && !t; ++i)
    if (baker.navMesh()->getTile(i)->header) t = baker.navMesh()->getTile(i);
  ASSERT_NE(t, nullptr);
  RebakedTile out;
  std::string why;
  EXPECT_FALSE(baker.bakeTileWithout(settings, {t->header->x, t->header->y}, {groundPolys(t)}, &out, &why));
  EXPECT_NE(why.find("not in the tile"), std::string::npos) << why;
  EXPECT_EQ(out.data, nullptr);
  EXPECT_FALSE(baker.bakeTileWithout(settings, {-1, 0}, {}, &out, &why));
}

TEST_F(PruneBake, TileWithoutPolysLinksLoadsAndIsCrossed) {
  const nav::NavMesh& mesh = *baker.navMesh();
  // A tile between two tiles, crossed by a path from the one to the other: drop polys of it the
  // path does not use (preferring polys with a neighbour inside the tile, so remapping matters).
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (!t->header || groundPolys(t) < 8) continue;
    const int tx = t->header->x, ty = t->header->y;
    const nav::MeshTile* west = mesh.getTileAt(tx - 1, ty, 0);
    const nav::MeshTile* east = mesh.getTileAt(tx + 1, ty, 0);
    if (!west || !east) continue;
    std::vector<nav::PolyRef> corridor;
    std::array<float, 3> a{}, b{};
    for (int pw = 0; pw < groundPolys(west) && corridor.empty(); ++pw)
      for (int pe = 0; pe < groundPolys(east) && corridor.empty(); ++pe) {
        a = centreOf(west, west->polys[pw]);
        b = centreOf(east, east->polys[pe]);
        std::vector<nav::PolyRef> c = path(mesh, a.data(), b.data());
        if (std::any_of(c.begin(), c.end(), [&](nav::PolyRef r) {
              const nav::MeshTile* rt = nullptr;
              const nav::Poly* rp = nullptr;
              mesh.getTileAndPolyByRef(r, &rt, &rp);
              return rt == t;
            }))
          corridor = c;
      }
    if (corridor.empty()) continue;
    std::set<int> used;
    for (nav::PolyRef r : corridor) {
      const nav::MeshTile* rt = nullptr;
      const nav::Poly* rp = nullptr;
      mesh.getTileAndPolyByRef(r, &rt, &rp);
      if (rt == t) used.insert(int(rp - t->polys));
    }
    if (used.empty()) continue;
    std::vector<int> drop;
    for (int p = 0; p < groundPolys(t) && drop.size() < 3; ++p) {
      if (used.count(p)) continue;
      bool inner = false;
      for (int k = 0; k < t->polys[p].vertCount; ++k) inner |= t->polys[p].neis[k] != 0 && !(t->polys[p].neis[k] & nav::EXT_LINK);
      if (inner) drop.push_back(p);
    }
    if (drop.size() < 3) continue;
    std::vector<std::array<float, 3>> droppedCentres;
    for (int p : drop) droppedCentres.push_back(centreOf(t, t->polys[p]));
    std::vector<std::array<float, 3>> keptCentres;
    for (int p = 0; p < groundPolys(t); ++p)
      if (std::find(drop.begin(), drop.end(), p) == drop.end()) keptCentres.push_back(centreOf(t, t->polys[p]));

    std::string why;
    std::vector<RebakedTile> tiles(1);
    ASSERT_TRUE(baker.bakeTileWithout(settings, {tx, ty}, drop, &tiles[0], &why)) << why;
    ASSERT_NE(tiles[0].data, nullptr);
    nav::NavMesh copy;
    ASSERT_TRUE(copyMesh(mesh, &copy, &why)) << why;
    ASSERT_TRUE(replaceTiles(copy, tiles, &why)) << why;
    // Saved and loaded again, as the viewer's save does.
    nav::NavMesh loaded;
    ASSERT_TRUE(copyMesh(copy, &loaded, &why)) << why;

    const nav::MeshTile* nt = loaded.getTileAt(tx, ty, 0);
    ASSERT_NE(nt, nullptr);
    EXPECT_EQ(groundPolys(nt), groundPolys(t) - 3);
    EXPECT_EQ(nt->header->offMeshConCount, t->header->offMeshConCount);
    for (int p = 0; p < groundPolys(nt); ++p) {
      const std::array<float, 3> c = centreOf(nt, nt->polys[p]);
      for (const auto& d : droppedCentres) EXPECT_FALSE(near(c, d)) << "poly " << p << " lies at a dropped centre";
      // The kept polys, in order.
      EXPECT_TRUE(near(c, keptCentres[size_t(p)])) << "poly " << p;
      for (int k = 0; k < nt->polys[p].vertCount; ++k) {
        const uint16_t n = nt->polys[p].neis[k];
        if (n == 0 || (n & nav::EXT_LINK)) continue;
        EXPECT_LE(int(n), groundPolys(nt)) << "poly " << p << " edge " << k << ": neighbour " << n;
      }
      for (uint32_t l = nt->polys[p].firstLink; l != nav::NULL_LINK; l = nt->links[l].next) {
        const nav::MeshTile* lt = nullptr;
        const nav::Poly* lp = nullptr;
        EXPECT_TRUE(nav::statusSucceeded(loaded.getTileAndPolyByRef(nt->links[l].ref, &lt, &lp)));
      }
    }
    // Every other tile is untouched.
    int otherPolys = 0, otherPolysBefore = 0;
    for (int k = 0; k < loaded.getMaxTiles(); ++k)
      if (loaded.getTile(k)->header && loaded.getTile(k) != nt) otherPolys += loaded.getTile(k)->header->polyCount;
    for (int k = 0; k < mesh.getMaxTiles(); ++k)
      if (mesh.getTile(k)->header && mesh.getTile(k) != t) otherPolysBefore += mesh.getTile(k)->header->polyCount;
    EXPECT_EQ(otherPolys, otherPolysBefore);

    const std::vector<nav::PolyRef> after = path(loaded, a.data(), b.data());
    ASSERT_FALSE(after.empty()) << "no path across the rebuilt tile (" << tx << ", " << ty << ")";
    EXPECT_TRUE(std::any_of(after.begin(), after.end(), [&](nav::PolyRef r) {
      const nav::MeshTile* rt = nullptr;
      const nav::Poly* rp = nullptr;
      loaded.getTileAndPolyByRef(r, &rt, &rp);
      return rt == nt;
    })) << "the path does not cross the rebuilt tile";
    return;
  }
  FAIL() << "no tile of the default level between two others, crossed by a path, with 3 spare polys";
}

TEST_F(PruneBake, EveryPolyDroppedEmptiesTheTile) {
  const nav::MeshTile* t = nullptr;
  for (int i = 0; i < baker.navMesh()->getMaxTiles() && !t; ++i)
    if (baker.navMesh()->getTile(i)->header) t = baker.navMesh()->getTile(i);
  ASSERT_NE(t, nullptr);
  std::vector<int> all;
  for (int p = 0; p < groundPolys(t); ++p) all.push_back(p);
  RebakedTile out;
  std::string why;
  ASSERT_TRUE(baker.bakeTileWithout(settings, {t->header->x, t->header->y}, all, &out, &why)) << why;
  EXPECT_EQ(out.data, nullptr);
}

} // namespace
