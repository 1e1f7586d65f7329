// TileSetFileTest: MSET round trips (ours -> ours, ours -> Detour, Detour -> ours) on hand-made
// grids (always) and on the baked levels (when ../shared is present; default.obj always).
#include "DetourBridge.h"
#include "TestMeshes.h"

#include "nav/TileSetFile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>

#include <DetourNavMeshQuery.h>
#include "nav/NavMath.h"

using namespace navtest;

namespace {

using LinkTuple = std::tuple<nav::PolyRef, int, int, int, int>;

// Tile contents that do not depend on the order tiles were linked in: everything but the link
// pool and the polys' firstLink; links compared as sorted lists per poly.
std::string compareOrderFree(const nav::NavMesh& a, const nav::NavMesh& b) {
  if (a.getMaxTiles() != b.getMaxTiles()) return "maxTiles differ";
  if (std::memcmp(&a.getParams(), &b.getParams(), sizeof(nav::NavMeshParams)) != 0) return "params differ";
  for (int i = 0; i < a.getMaxTiles(); ++i) {
    const nav::MeshTile* x = a.getTile(i);
    const nav::MeshTile* y = b.getTile(i);
    const std::string at = "slot " + std::to_string(i) + ": ";
    if ((x->header != nullptr) != (y->header != nullptr)) return at + "occupancy differs";
    if (!x->header) continue;
    if (a.getTileRef(x) != b.getTileRef(y)) return at + "ref differs";
    if (x->dataSize != y->dataSize) return at + "size differs";
    const nav::TileLayout lay = nav::tileLayout(*x->header);
    std::vector<uint8_t> dx(x->data, x->data + x->dataSize), dy(y->data, y->data + y->dataSize);
    for (auto* d : {&dx, &dy}) {
      std::fill(d->begin() + lay.links, d->begin() + lay.detailMeshes, 0);
      for (int p = 0; p < x->header->polyCount; ++p) std::memset(d->data() + lay.polys + p * sizeof(nav::Poly), 0, 4);
    }
    if (dx != dy) return at + "tile data differs";
    for (int p = 0; p < x->header->polyCount; ++p) {
      std::vector<LinkTuple> lx, ly;
      for (uint32_t l = x->polys[p].firstLink; l != nav::NULL_LINK; l = x->links[l].next)
        lx.emplace_back(x->links[l].ref, x->links[l].edge, x->links[l].side, x->links[l].bmin, x->links[l].bmax);
      for (uint32_t l = y->polys[p].firstLink; l != nav::NULL_LINK; l = y->links[l].next)
        ly.emplace_back(y->links[l].ref, y->links[l].edge, y->links[l].side, y->links[l].bmin, y->links[l].bmax);
      std::sort(lx.begin(), lx.end());
      std::sort(ly.begin(), ly.end());
      if (lx != ly) return at + "poly " + std::to_string(p) + " links differ";
    }
  }
  return "";
}

// A 3x3 grid with a hole, a second layer, off-mesh links and tiles removed/re-added (salts > 1),
// built by us and, from the same params, by Detour.
struct GridSet {
  nav::NavMesh ours;
  DtMeshPtr theirs;
};

void buildGridSet(GridSet& g) {
  GridTileSpec s;
  ASSERT_TRUE(nav::statusSucceeded(g.ours.init(gridMeshParams(s, 16, 64))));
  g.theirs.reset(dtAllocNavMesh());
  dtNavMeshParams dp;
  const nav::NavMeshParams np = gridMeshParams(s, 16, 64);
  std::memcpy(&dp, &np, sizeof dp);
  ASSERT_TRUE(dtStatusSucceed(g.theirs->init(&dp)));
  const float con[12] = {2.5f, 0.0f, 2.5f, 6.5f, 0.0f, 6.5f, 9.5f, 0.0f, 1.5f, 5.5f, 0.0f, 1.5f};
  std::vector<std::pair<nav::TileRef, std::vector<uint8_t>>> added;
  auto add = [&](const GridTileSpec& t) {
    PolyMeshArrays m = makeGridPolyMesh(t);
    nav::TileBuildParams p = gridParams(t, m);
    OffMeshArrays om;
    om.add(con, con + 3, 0.4f, 8, 5, 1, 7);
    om.add(con + 6, con + 9, 0.4f, 8, 5, 0, 8);
    om.applyTo(p);
    const std::vector<uint8_t> blob = detourBuild(p);
    ASSERT_EQ(compareBlobs(blob.data(), blob.size(), navBuild(p).data(), navBuild(p).size()), "");
    nav::TileRef a = 0;
    ASSERT_EQ(addTileBoth(g.ours, *g.theirs, blob, &a), "");
    added.emplace_back(a, blob);
  };
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) {
      if (x == 1 && y == 1) continue; // a hole
      GridTileSpec t = s;
      t.tx = x;
      t.ty = y;
      t.quadCells = (x + y) % 2 ? 4 : 2;
      add(t);
    }
  GridTileSpec upper = s;
  upper.layer = 1;
  upper.baseY = 5.0f;
  add(upper);
  // Remove two tiles and add them back: new salts, other slots.
  for (int k : {2, 5}) {
    ASSERT_TRUE(nav::statusSucceeded(g.ours.removeTile(added[size_t(k)].first, nullptr, nullptr)));
    ASSERT_TRUE(dtStatusSucceed(g.theirs->removeTile(added[size_t(k)].first, nullptr, nullptr)));
  }
  for (int k : {5, 2}) {
    const std::vector<uint8_t>& blob = added[size_t(k)].second;
    nav::TileRef a = 0;
    ASSERT_EQ(addTileBoth(g.ours, *g.theirs, blob, &a), "");
    ASSERT_GT(g.ours.decodePolyIdSalt(a), 1u);
  }
  ASSERT_EQ(compareMeshes(g.ours, *g.theirs), "");
}

} // namespace

TEST(TileSetFile, OursRoundTrip) {
  GridSet g;
  buildGridSet(g);
  if (HasFatalFailure()) return;
  std::vector<uint8_t> file;
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSet(g.ours, file)));
  nav::NavMesh back;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSet(file.data(), file.size(), back, &why))) << why;
  EXPECT_EQ(back.tileCount(), g.ours.tileCount());
  // Same refs (salts restored), same tile data, same links (the load order may differ from the
  // order the tiles were first added, so link slots may too).
  EXPECT_EQ(compareOrderFree(g.ours, back), "");
  // A second round trip is byte-identical to the first.
  std::vector<uint8_t> file2, file3;
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSet(back, file2)));
  nav::NavMesh back2;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSet(file2.data(), file2.size(), back2, &why))) << why;
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSet(back2, file3)));
  EXPECT_TRUE(file2 == file3);
  // A listing for reports.
  const std::vector<nav::TileInfo> tiles = nav::listTiles(back);
  ASSERT_EQ(int(tiles.size()), back.tileCount());
  size_t bytes = 0;
  for (const nav::TileInfo& t : tiles) {
    bytes += size_t(t.bytes);
    EXPECT_GT(t.usedLinks, 0);
    EXPECT_LE(t.usedLinks, t.maxLinks);
  }
  EXPECT_EQ(bytes, back.totalTileBytes());
  EXPECT_EQ(file.size(), sizeof(nav::TileSetHeader) + tiles.size() * sizeof(nav::TileSetTileHeader) + bytes);
}

TEST(TileSetFile, DetourReadsOurFiles) {
  GridSet g;
  buildGridSet(g);
  if (HasFatalFailure()) return;
  std::vector<uint8_t> file;
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSet(g.ours, file)));
  DtMeshPtr theirs = detourLoadAll(file);
  ASSERT_TRUE(theirs) << "Detour refused our file";
  nav::NavMesh ours;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSet(file.data(), file.size(), ours, &why))) << why;
  // Both loaded the same file in the same order: identical down to link slots.
  EXPECT_EQ(compareMeshes(ours, *theirs), "");
}

TEST(TileSetFile, WeReadDetoursFiles) {
  GridSet g;
  buildGridSet(g);
  if (HasFatalFailure()) return;
  const std::vector<uint8_t> file = detourSaveAll(*g.theirs);
  nav::NavMesh ours;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSet(file.data(), file.size(), ours, &why))) << why;
  DtMeshPtr theirs = detourLoadAll(file);
  ASSERT_TRUE(theirs);
  EXPECT_EQ(compareMeshes(ours, *theirs), "");
  // And what we write from it is the same file.
  std::vector<uint8_t> again;
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSet(ours, again)));
  DtMeshPtr theirs2 = detourLoadAll(again);
  ASSERT_TRUE(theirs2);
  EXPECT_TRUE(detourSaveAll(*theirs2) == again);
}

// Behaviours of Detour 1.5.1 that look like bugs; we match the first (byte-identical blobs and
// query answers depend on it) and refuse the second. These tests document them: if a future
// Detour changes, they say so.
TEST(DetourQuirks, TrailingZeroBvNodeNamesPolyZero) {
  // dtCreateNavMeshData sizes the BV tree for 2n nodes but a tree over n leaves uses 2n-1; the last
  // node stays zeroed, i.e. a leaf for poly 0 with the box (0,0,0)-(0,0,0). A query box touching the
  // tile's min corner therefore also returns poly 0, wherever poly 0 is.
  GridTileSpec s;
  s.tx = s.ty = 0;
  PolyMeshArrays m = makeGridPolyMesh(s);
  // Move poly 0 away from the min corner: reverse the poly order.
  std::vector<uint16_t> rev;
  for (int p = m.npolys - 1; p >= 0; --p) rev.insert(rev.end(), &m.polys[size_t(p) * 12], &m.polys[size_t(p) * 12] + 12);
  for (size_t k = 0; k < rev.size(); k += 12)
    for (int j = 6; j < 12; ++j)
      if (!(rev[k + size_t(j)] & 0x8000)) rev[k + size_t(j)] = uint16_t(m.npolys - 1 - rev[k + size_t(j)]);
  m.polys = rev;
  nav::TileBuildParams p = gridParams(s, m);
  const std::vector<uint8_t> blob = detourBuild(p);
  ASSERT_EQ(compareBlobs(blob.data(), blob.size(), navBuild(p).data(), navBuild(p).size()), "");
  DtMeshPtr theirs(dtAllocNavMesh());
  ASSERT_TRUE(dtStatusSucceed(theirs->init(dtDupBlob(blob), int(blob.size()), DT_TILE_FREE_DATA)));
  nav::NavMesh ours;
  ASSERT_TRUE(nav::statusSucceeded(ours.init(dupBlob(blob), int(blob.size()), nav::TILE_FREE_DATA)));
  dtNavMeshQuery* q = dtAllocNavMeshQuery();
  ASSERT_TRUE(dtStatusSucceed(q->init(theirs.get(), 256)));
  dtQueryFilter filter;
  const float corner[3] = {0.1f, -0.5f, 0.1f}, ext[3] = {0.2f, 0.6f, 0.2f};
  dtPolyRef got[16];
  int n = 0;
  ASSERT_TRUE(dtStatusSucceed(q->queryPolygons(corner, ext, &filter, got, &n, 16)));
  // Poly at the corner is the last one (index 15); poly 0 (far corner) comes back too.
  const dtPolyRef base = theirs->getPolyRefBase(static_cast<const dtNavMesh&>(*theirs).getTile(0));
  EXPECT_EQ(n, 2);
  EXPECT_TRUE(std::find(got, got + n, base | 0) != got + n) << "Detour no longer reports poly 0 spuriously";
  nav::PolyRef ours2[16];
  float qmin[3], qmax[3];
  nav::vsub(qmin, corner, ext);
  nav::vadd(qmax, corner, ext);
  const int n2 = ours.queryPolygonsInTile(ours.getTile(0), qmin, qmax, ours2, 16);
  ASSERT_EQ(n2, n) << "we answer as Detour does";
  for (int k = 0; k < n; ++k) EXPECT_EQ(ours2[k], got[k]);
  dtFreeNavMeshQuery(q);
}

TEST(DetourQuirks, InitAcceptsRefSplitWiderThan32Bits) {
  // 12 tile bits + 21 poly bits: 32 - 33 wraps in unsigned arithmetic to a 31-bit salt, so Detour
  // accepts params whose refs cannot be encoded. We refuse them.
  dtNavMeshParams p;
  std::memset(&p, 0, sizeof p);
  p.tileWidth = p.tileHeight = 10;
  p.maxTiles = 1 << 12;
  p.maxPolys = 1 << 21;
  DtMeshPtr theirs(dtAllocNavMesh());
  EXPECT_TRUE(dtStatusSucceed(theirs->init(&p))) << "Detour now refuses too";
  nav::NavMeshParams np;
  std::memcpy(&np, &p, sizeof np);
  nav::NavMesh ours;
  std::string why;
  EXPECT_TRUE(nav::statusFailed(ours.init(np, &why)));
  EXPECT_NE(why.find("salt"), std::string::npos) << why;
}

// Random tile grids (mixed quad sizes -> partial portals, height steps around the climb
// tolerance, a second layer, random off-mesh connections) added and removed in random order in
// both libraries: blobs, refs, salts and every link must agree after every step.
TEST(RandomGridDiff, AddRemoveSequencesAgreeWithDetour) {
  std::mt19937 rng(2024);
  auto pick = [&](int n) { return int(rng() % unsigned(n)); };
  int steps = 0, partialLinks = 0, offMeshLinks = 0;
  for (int seed = 0; seed < 25; ++seed) {
    GridTileSpec base;
    nav::NavMesh ours;
    ASSERT_TRUE(nav::statusSucceeded(ours.init(gridMeshParams(base, 24, 128))));
    DtMeshPtr theirs(dtAllocNavMesh());
    dtNavMeshParams dp;
    const nav::NavMeshParams np = gridMeshParams(base, 24, 128);
    std::memcpy(&dp, &np, sizeof dp);
    ASSERT_TRUE(dtStatusSucceed(theirs->init(&dp)));
    std::vector<nav::TileRef> live;
    for (int op = 0; op < 30; ++op, ++steps) {
      if (!live.empty() && (pick(3) == 0 || ours.tileCount() >= 20)) {
        const size_t k = size_t(pick(int(live.size())));
        ASSERT_TRUE(nav::statusSucceeded(ours.removeTile(live[k], nullptr, nullptr)));
        ASSERT_TRUE(dtStatusSucceed(theirs->removeTile(live[k], nullptr, nullptr)));
        live.erase(live.begin() + long(k));
      } else {
        GridTileSpec t = base;
        t.tx = pick(4);
        t.ty = pick(4);
        t.layer = pick(4) == 0 ? 1 : 0;
        if (ours.getTileAt(t.tx, t.ty, t.layer)) continue;
        t.quadCells = 1 << pick(4);
        t.baseY = float(pick(7)) * 0.25f + (t.layer ? 4.0f : 0.0f);
        t.bvTree = pick(4) != 0;
        t.climb = 0.25f + float(pick(3)) * 0.25f;
        PolyMeshArrays m = makeGridPolyMesh(t);
        nav::TileBuildParams p = gridParams(t, m);
        const int ncon = pick(4);
        OffMeshArrays om;
        for (int c = 0; c < ncon; ++c) {
          // One pick per value, in this order (the seeds' meshes depend on it).
          const float x0 = float(t.tx) * 4 + float(pick(40)) * 0.1f, z0 = float(t.ty) * 4 + float(pick(40)) * 0.1f;
          const float x1 = x0 + float(pick(81) - 40) * 0.1f, z1 = z0 + float(pick(81) - 40) * 0.1f;
          const float a[3] = {x0, t.baseY + 0.1f, z0}, b[3] = {x1, float(pick(7)) * 0.25f, z1};
          const float radius = 0.3f + float(pick(5)) * 0.1f;
          const uint8_t bidir = uint8_t(pick(2));
          om.add(a, b, radius, 8, 5, bidir, uint32_t(c));
        }
        om.applyTo(p);
        const std::vector<uint8_t> blob = detourBuild(p), mine = navBuild(p);
        ASSERT_EQ(compareBlobs(mine.data(), mine.size(), blob.data(), blob.size()), "") << "seed " << seed << " op " << op;
        nav::TileRef a = 0;
        ASSERT_EQ(addTileBoth(ours, *theirs, blob, &a), "") << "seed " << seed << " op " << op;
        live.push_back(a);
      }
      ASSERT_EQ(compareMeshes(ours, *theirs), "") << "seed " << seed << " op " << op;
    }
    for (int i = 0; i < ours.getMaxTiles(); ++i) {
      const nav::MeshTile* t = ours.getTile(i);
      if (!t->header) continue;
      for (int p = 0; p < t->header->polyCount; ++p)
        for (uint32_t l = t->polys[p].firstLink; l != nav::NULL_LINK; l = t->links[l].next)
        {
          if (t->links[l].side != 0xff && (t->links[l].bmin != 0 || t->links[l].bmax != 255)) ++partialLinks;
          if (p >= t->header->offMeshBase && t->links[l].side != 0xff) ++offMeshLinks;
        }
    }
  }
  EXPECT_GT(partialLinks, 100) << "the random grids were meant to make partial portals";
  EXPECT_GT(offMeshLinks, 5) << "the random off-mesh connections were meant to land in other tiles";
  std::printf("[ random   ] %d add/remove steps compared; at the ends %d partial portal links, %d cross-tile off-mesh links\n",
              steps, partialLinks, offMeshLinks);
}
