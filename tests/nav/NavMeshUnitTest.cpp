// NavMeshUnitTest: the mesh of tiles on small hand-made grids (no Recast, Detour or files needed):
// ref bit split, slots and salts, internal/external/off-mesh links, partial portals, climb
// tolerance, refusal without side effects, geometry helpers, memory accounting.
#include "TestMeshes.h"

#include "nav/NavMath.h"
#include "nav/NavMesh.h"
#include "nav/TileBuilder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace navtest;

namespace {

nav::TileRef addBlob(nav::NavMesh& mesh, const std::vector<uint8_t>& blob, nav::TileRef lastRef = 0,
                     nav::Status* status = nullptr, std::string* why = nullptr) {
  nav::TileRef ref = 0;
  uint8_t* d = dupBlob(blob);
  const nav::Status s = mesh.addTile(d, int(blob.size()), nav::TILE_FREE_DATA, lastRef, &ref, why);
  if (nav::statusFailed(s)) delete[] d;
  if (status) *status = s;
  return ref;
}

struct LinkInfo {
  nav::PolyRef ref;
  int edge, side, bmin, bmax;
};

std::vector<LinkInfo> linksOf(const nav::MeshTile* t, int poly) {
  std::vector<LinkInfo> out;
  for (uint32_t l = t->polys[poly].firstLink; l != nav::NULL_LINK; l = t->links[l].next) {
    const nav::Link& k = t->links[l];
    out.push_back({k.ref, k.edge, k.side, k.bmin, k.bmax});
  }
  return out;
}

} // namespace

TEST(NavMeshInit, BitSplitAsDetourDerivesIt) {
  nav::NavMesh m;
  GridTileSpec s;
  ASSERT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(s, 128, 1000))));
  EXPECT_EQ(m.tileBits(), 7u);
  EXPECT_EQ(m.polyBits(), 10u);
  EXPECT_EQ(m.saltBits(), 15u);
  ASSERT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(s, 1, 1))));
  EXPECT_EQ(m.tileBits(), 0u);
  EXPECT_EQ(m.polyBits(), 0u);
  EXPECT_EQ(m.saltBits(), 31u);
  // 22 bits for tiles + polys leaves 10 salt bits: the limit.
  EXPECT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(s, 1 << 11, 1 << 11))));
  std::string why;
  EXPECT_TRUE(nav::statusDetail(m.init(gridMeshParams(s, 1 << 12, 1 << 11), &why), nav::INVALID_PARAM));
  EXPECT_NE(why.find("salt"), std::string::npos) << why;
  // 40 bits: would wrap around in unsigned arithmetic; must be refused.
  EXPECT_TRUE(nav::statusFailed(m.init(gridMeshParams(s, 1 << 20, 1 << 20))));
  EXPECT_TRUE(nav::statusFailed(m.init(gridMeshParams(s, 0, 16))));
  nav::NavMeshParams bad = gridMeshParams(s);
  bad.tileWidth = -1;
  EXPECT_TRUE(nav::statusFailed(m.init(bad)));
}

TEST(NavMeshTiles, SlotsRefsAndSalts) {
  GridTileSpec s;
  nav::NavMesh m;
  ASSERT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(s, 4, 64))));
  std::vector<nav::TileRef> refs;
  for (int i = 0; i < 4; ++i) {
    GridTileSpec t = s;
    t.tx = i;
    refs.push_back(addBlob(m, buildGridTile(t)));
    ASSERT_NE(refs.back(), 0u);
    EXPECT_EQ(m.decodePolyIdTile(refs.back()), uint32_t(i)) << "a fresh mesh hands out slots in order";
    EXPECT_EQ(m.decodePolyIdSalt(refs.back()), 1u);
  }
  EXPECT_EQ(m.tileCount(), 4);
  // Full.
  GridTileSpec t5 = s;
  t5.tx = 9;
  nav::Status st;
  std::string why;
  EXPECT_EQ(addBlob(m, buildGridTile(t5), 0, &st, &why), 0u);
  EXPECT_TRUE(nav::statusDetail(st, nav::OUT_OF_MEMORY)) << why;
  // Remove slot 2, its refs go stale; the slot comes back with salt 2.
  const nav::PolyRef stale = refs[2] | 3;
  EXPECT_TRUE(m.isValidPolyRef(stale));
  ASSERT_TRUE(nav::statusSucceeded(m.removeTile(refs[2], nullptr, nullptr)));
  EXPECT_FALSE(m.isValidPolyRef(stale));
  EXPECT_EQ(m.getTileByRef(refs[2]), nullptr);
  EXPECT_TRUE(nav::statusFailed(m.removeTile(refs[2], nullptr, nullptr))) << "removing twice";
  const nav::TileRef again = addBlob(m, buildGridTile(t5));
  EXPECT_EQ(m.decodePolyIdTile(again), 2u);
  EXPECT_EQ(m.decodePolyIdSalt(again), 2u);
  EXPECT_FALSE(m.isValidPolyRef(stale));
  EXPECT_EQ(m.getTileAt(9, 0, 0), m.getTileByRef(again));
  EXPECT_EQ(m.getTileRefAt(9, 0, 0), again);
  EXPECT_EQ(m.getTileAt(2, 0, 0), nullptr);
  // Memory: tiles are blocks of the built size.
  size_t sum = 0;
  for (int i = 0; i < m.getMaxTiles(); ++i) sum += m.tileBytes(m.getTile(i));
  EXPECT_EQ(m.totalTileBytes(), sum);
  EXPECT_EQ(sum, 4 * buildGridTile(s).size());
  EXPECT_GT(m.overheadBytes(), 0u);
}

TEST(NavMeshTiles, RestoreAtRefAndRefusals) {
  GridTileSpec s;
  nav::NavMesh m;
  ASSERT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(s, 6, 64)))); // 3 tile bits, slots 6 and 7 invalid
  const nav::TileRef want = m.encodePolyId(37, 5, 0);
  EXPECT_EQ(addBlob(m, buildGridTile(s), want), want);
  nav::Status st;
  std::string why;
  GridTileSpec o = s;
  o.tx = 1;
  EXPECT_EQ(addBlob(m, buildGridTile(o), m.encodePolyId(3, 5, 0), &st, &why), 0u);
  EXPECT_TRUE(nav::statusDetail(st, nav::OUT_OF_MEMORY)) << "slot in use";
  EXPECT_NE(why.find("in use"), std::string::npos) << why;
  EXPECT_EQ(addBlob(m, buildGridTile(o), m.encodePolyId(3, 7, 0), &st, &why), 0u) << "slot past maxTiles";
  // A refused tile changes nothing: not the mesh, not the blob.
  const nav::MeshTile* t0 = m.getTileByRef(want);
  const std::vector<uint8_t> meshBefore(t0->data, t0->data + t0->dataSize);
  std::vector<uint8_t> blob = buildGridTile(s);
  const std::vector<uint8_t> blobBefore = blob;
  st = m.addTile(blob.data(), int(blob.size()), 0, 0, nullptr, &why);
  EXPECT_TRUE(nav::statusDetail(st, nav::ALREADY_OCCUPIED)) << why;
  EXPECT_TRUE(blob == blobBefore);
  EXPECT_TRUE(std::equal(meshBefore.begin(), meshBefore.end(), t0->data));
  EXPECT_EQ(m.tileCount(), 1);
  // A different layer at the same place is fine.
  GridTileSpec l1 = s;
  l1.layer = 1;
  l1.baseY = 10;
  EXPECT_NE(addBlob(m, buildGridTile(l1)), 0u);
  // A tile with more polys than maxPolys is refused.
  nav::NavMesh small;
  ASSERT_TRUE(nav::statusSucceeded(small.init(gridMeshParams(s, 4, 8))));
  EXPECT_EQ(addBlob(small, buildGridTile(s), 0, &st, &why), 0u);
  EXPECT_NE(why.find("maxPolys"), std::string::npos) << why;
}

TEST(NavMeshLinks, InternalAndBorderLinks) {
  GridTileSpec s; // 4x4 quads per tile
  nav::NavMesh m;
  ASSERT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(s, 4, 64))));
  GridTileSpec e = s;
  e.tx = 1;
  const nav::TileRef r0 = addBlob(m, buildGridTile(s));
  const nav::MeshTile* t0 = m.getTileByRef(r0);
  // Before the neighbour exists: quad (3,0) (east column) has internal links only (-x and +z).
  const int east = 3;
  auto l = linksOf(t0, east);
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].ref, m.getPolyRefBase(t0) | 2); // edge 0 (-x) -> quad 2
  EXPECT_EQ(l[0].edge, 0);
  EXPECT_EQ(l[0].side, 0xff);
  EXPECT_EQ(l[1].ref, m.getPolyRefBase(t0) | 7); // edge 1 (+z) -> quad 7
  EXPECT_EQ(t0->polys[east].neis[2], nav::EXT_LINK | 0) << "+x border is side 0";
  EXPECT_EQ(t0->polys[0].neis[0], nav::EXT_LINK | 4) << "-x border is side 4";
  EXPECT_EQ(t0->polys[12].neis[1], nav::EXT_LINK | 2) << "+z border is side 2";
  EXPECT_EQ(t0->polys[0].neis[3], nav::EXT_LINK | 6) << "-z border is side 6";

  const nav::TileRef r1 = addBlob(m, buildGridTile(e));
  const nav::MeshTile* t1 = m.getTileByRef(r1);
  l = linksOf(t0, east);
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[0].ref, m.getPolyRefBase(t1) | 0) << "east quad links to the west quad of the next tile";
  EXPECT_EQ(l[0].edge, 2);
  EXPECT_EQ(l[0].side, 0);
  EXPECT_EQ(l[0].bmin, 0);
  EXPECT_EQ(l[0].bmax, 255);
  auto back = linksOf(t1, 0);
  ASSERT_FALSE(back.empty());
  EXPECT_EQ(back[0].ref, m.getPolyRefBase(t0) | 3);
  EXPECT_EQ(back[0].side, 4);
  // Removing tile 1 unlinks it from tile 0.
  ASSERT_TRUE(nav::statusSucceeded(m.removeTile(r1, nullptr, nullptr)));
  EXPECT_EQ(linksOf(t0, east).size(), 2u);
}

TEST(NavMeshLinks, PartialPortalsAndClimb) {
  GridTileSpec fine; // quads of 2 cells
  GridTileSpec coarse = fine;
  coarse.tx = 1;
  coarse.quadCells = 4; // quads of 4 cells: each west edge faces two fine quads
  nav::NavMesh m;
  ASSERT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(fine, 4, 64))));
  const nav::MeshTile* t0 = m.getTileByRef(addBlob(m, buildGridTile(fine)));
  const nav::MeshTile* t1 = m.getTileByRef(addBlob(m, buildGridTile(coarse)));
  auto l = linksOf(t1, 0); // coarse quad (0,0): west edge z in [0, 2] faces fine quads 3 and 7
  std::vector<LinkInfo> ext;
  for (const LinkInfo& k : l)
    if (k.side == 4) ext.push_back(k);
  ASSERT_EQ(ext.size(), 2u);
  std::set<std::pair<int, int>> ranges;
  for (const LinkInfo& k : ext) ranges.insert({k.bmin, k.bmax});
  // Edge 0 of the coarse quad runs from z=0 to z=2 (+z): the halves are 0..127 and 127..255
  // (0.5 * 255 truncated, as Detour does).
  std::string got;
  for (const auto& r : ranges) got += std::to_string(r.first) + ".." + std::to_string(r.second) + " ";
  EXPECT_TRUE(ranges.count({0, 127})) << "lower half; got " << got;
  EXPECT_TRUE(ranges.count({127, 255})) << "upper half";
  (void)t0;

  // Climb: portal ends may differ by up to 2 x climb (Detour's tolerance): with climb 0.5, a
  // neighbour 1.5 wu higher does not connect, 1.0 higher does.
  for (float dy : {1.5f, 1.0f}) {
    nav::NavMesh c;
    ASSERT_TRUE(nav::statusSucceeded(c.init(gridMeshParams(fine, 4, 64))));
    GridTileSpec hi = fine;
    hi.tx = 1;
    hi.baseY = dy;
    const nav::MeshTile* a = c.getTileByRef(addBlob(c, buildGridTile(fine)));
    addBlob(c, buildGridTile(hi));
    int extLinks = 0;
    for (const LinkInfo& k : linksOf(a, 3))
      if (k.side == 0) ++extLinks;
    EXPECT_EQ(extLinks, dy <= 1.0f ? 1 : 0) << "dy " << dy;
  }
}

TEST(NavMeshLinks, OffMeshConnectionsAcrossTiles) {
  GridTileSpec s;
  GridTileSpec e = s;
  e.tx = 1;
  // From the middle of quad (2,2) of tile 0 to quad (2,2) of tile 1, and a one-way one back.
  const float con[12] = {2.5f, 0.0f, 2.5f, 6.5f, 0.0f, 2.5f, 6.5f, 0.0f, 0.5f, 2.5f, 0.0f, 0.5f};
  nav::NavMesh m;
  ASSERT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(s, 4, 64))));
  const std::vector<uint8_t> b0 = buildGridTile(s, con, 2, 1), b1 = buildGridTile(e, con, 2, 0);
  EXPECT_EQ(reinterpret_cast<const nav::MeshHeader*>(b0.data())->offMeshConCount, 1);
  EXPECT_EQ(reinterpret_cast<const nav::MeshHeader*>(b1.data())->offMeshConCount, 1);
  const nav::MeshTile* t0 = m.getTileByRef(addBlob(m, b0));
  const nav::MeshTile* t1 = m.getTileByRef(addBlob(m, b1));
  const int offPoly = t0->header->offMeshBase;
  const nav::PolyRef offRef = m.getPolyRefBase(t0) | nav::PolyRef(offPoly);
  const auto l = linksOf(t0, offPoly);
  ASSERT_EQ(l.size(), 2u) << "start and end links";
  // Links are prepended: the end (tile 1, edge 1) comes first.
  EXPECT_EQ(l[0].edge, 1);
  EXPECT_EQ(l[0].side, 0);
  EXPECT_EQ(m.decodePolyIdTile(l[0].ref), m.decodePolyIdTile(m.getTileRef(t1)));
  EXPECT_EQ(l[1].edge, 0);
  EXPECT_EQ(l[1].ref, m.getPolyRefBase(t0) | 10) << "starts in quad (2,2)";
  // Bidirectional: the landing poly in tile 1 links back to the connection.
  bool back = false;
  for (int p = 0; p < t1->header->polyCount; ++p)
    for (const LinkInfo& k : linksOf(t1, p))
      if (k.ref == offRef) back = true;
  EXPECT_TRUE(back);
  // End points in travel order.
  float a[3], b[3];
  ASSERT_TRUE(nav::statusSucceeded(m.getOffMeshConnectionPolyEndPoints(l[1].ref, offRef, a, b)));
  EXPECT_FLOAT_EQ(a[0], 2.5f);
  EXPECT_FLOAT_EQ(b[0], 6.5f);
  ASSERT_TRUE(nav::statusSucceeded(m.getOffMeshConnectionPolyEndPoints(l[0].ref, offRef, a, b)));
  EXPECT_FLOAT_EQ(a[0], 6.5f);
  const nav::OffMeshConnection* c = m.getOffMeshConnectionByRef(offRef);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->userId, 1000u);
  EXPECT_EQ(c->flags, nav::OFFMESH_CON_BIDIR);
  EXPECT_EQ(m.getOffMeshConnectionByRef(m.getPolyRefBase(t0)), nullptr) << "a ground poly";
  // One-way (tile 1 -> tile 0): no link back from the landing poly.
  const nav::PolyRef off1 = m.getPolyRefBase(t1) | nav::PolyRef(t1->header->offMeshBase);
  for (int p = 0; p < t0->header->polyCount; ++p)
    for (const LinkInfo& k : linksOf(t0, p)) EXPECT_NE(k.ref, off1);
  // Removing tile 1 drops the cross-tile links.
  ASSERT_TRUE(nav::statusSucceeded(m.removeTile(m.getTileRef(t1), nullptr, nullptr)));
  EXPECT_EQ(linksOf(t0, offPoly).size(), 1u);
}

TEST(NavMeshGeometry, HeightsNearestAndBoxQueries) {
  GridTileSpec s;
  s.baseY = 1.0f;
  for (bool bv : {true, false}) {
    s.bvTree = bv;
    nav::NavMesh m;
    ASSERT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(s, 4, 64))));
    const nav::MeshTile* t = m.getTileByRef(addBlob(m, buildGridTile(s)));
    ASSERT_EQ(t->bvTree != nullptr, bv);
    const nav::PolyRef base = m.getPolyRefBase(t);
    // Quad 5 = (1,1) covers x, z in [1, 2].
    const float inside[3] = {1.5f, 5.0f, 1.25f};
    float h = 0;
    EXPECT_TRUE(m.getPolyHeight(t, &t->polys[5], inside, &h));
    EXPECT_FLOAT_EQ(h, 1.0f);
    EXPECT_FALSE(m.getPolyHeight(t, &t->polys[0], inside, &h));
    float c[3];
    bool over = false;
    m.closestPointOnPoly(base | 5, inside, c, &over);
    EXPECT_TRUE(over);
    EXPECT_FLOAT_EQ(c[1], 1.0f);
    const float outside[3] = {-1.0f, 1.0f, 1.5f};
    m.closestPointOnPoly(base | 4, outside, c, &over); // quad (0,1): x in [0,1]
    EXPECT_FALSE(over);
    EXPECT_FLOAT_EQ(c[0], 0.0f);
    EXPECT_FLOAT_EQ(c[2], 1.5f);
    const float ext[3] = {0.1f, 2.0f, 0.1f};
    const float near[3] = {1.5f, 1.5f, 1.25f};
    float np[3];
    EXPECT_EQ(m.findNearestPolyInTile(t, near, ext, np), base | 5);
    EXPECT_FLOAT_EQ(np[1], 1.0f);
    const float far[3] = {1.5f, 50.0f, 1.25f};
    EXPECT_EQ(m.findNearestPolyInTile(t, far, ext, np), 0u);
    // Box over quads (1,1)..(2,2).
    const float qmin[3] = {1.2f, 0.0f, 1.2f}, qmax[3] = {2.8f, 2.0f, 2.8f};
    nav::PolyRef polys[32];
    const int n = m.queryPolygonsInTile(t, qmin, qmax, polys, 32);
    std::set<nav::PolyRef> got(polys, polys + n);
    for (int p : {5, 6, 9, 10}) EXPECT_TRUE(got.count(base | nav::PolyRef(p))) << "poly " << p << " bv " << bv;
    if (!bv) {
      EXPECT_EQ(n, 4);
    }
    EXPECT_EQ(m.queryPolygonsInTile(t, qmin, qmax, polys, 2), 2) << "capped by maxPolys";
  }
}

TEST(NavMeshTiles, SingleTileInitAndAccessors) {
  GridTileSpec s;
  const std::vector<uint8_t> blob = buildGridTile(s);
  nav::NavMesh m;
  ASSERT_TRUE(nav::statusSucceeded(m.init(dupBlob(blob), int(blob.size()), nav::TILE_FREE_DATA)));
  EXPECT_EQ(m.tileCount(), 1);
  EXPECT_EQ(m.getParams().maxPolys, 16);
  const nav::MeshTile* t = m.getTile(0);
  const nav::PolyRef r = m.getPolyRefBase(t) | 3;
  uint16_t f = 0;
  uint8_t a = 0;
  ASSERT_TRUE(nav::statusSucceeded(m.setPolyFlags(r, 0x22)));
  ASSERT_TRUE(nav::statusSucceeded(m.getPolyFlags(r, &f)));
  EXPECT_EQ(f, 0x22);
  ASSERT_TRUE(nav::statusSucceeded(m.setPolyArea(r, 7)));
  ASSERT_TRUE(nav::statusSucceeded(m.getPolyArea(r, &a)));
  EXPECT_EQ(a, 7);
  EXPECT_EQ(t->polys[3].getType(), nav::POLYTYPE_GROUND);
  EXPECT_TRUE(nav::statusFailed(m.getPolyFlags(m.encodePolyId(t->salt + 1, 0, 3), &f))) << "wrong salt";
  EXPECT_TRUE(nav::statusFailed(m.getPolyFlags(0, &f)));
  int tx, ty;
  const float pos[3] = {4.5f, 0, -0.5f};
  m.calcTileLoc(pos, &tx, &ty);
  EXPECT_EQ(tx, 1);
  EXPECT_EQ(ty, -1);
  char buf[64];
  EXPECT_STREQ(nav::statusToString(m.addTile(nullptr, 0, 0, 0, nullptr), buf, sizeof buf), "failure | invalid param");
  // Swap moves the whole state.
  nav::NavMesh other;
  other.swap(m);
  EXPECT_EQ(m.tileCount(), 0);
  EXPECT_EQ(other.tileCount(), 1);
  EXPECT_TRUE(other.isValidPolyRef(r));
}

TEST(TileBuilder, RefusesUnusableInput) {
  GridTileSpec s;
  PolyMeshArrays m = makeGridPolyMesh(s);
  auto refused = [&](nav::TileBuildParams p, const char* expect) {
    uint8_t* data = reinterpret_cast<uint8_t*>(1);
    int size = 1;
    std::string why;
    EXPECT_FALSE(nav::buildTileData(p, &data, &size, &why)) << expect;
    EXPECT_EQ(data, nullptr);
    EXPECT_EQ(size, 0);
    EXPECT_NE(why.find(expect), std::string::npos) << why;
  };
  nav::TileBuildParams p = gridParams(s, m);
  p.nvp = 7;
  refused(p, "nvp");
  p = gridParams(s, m);
  p.polyCount = 0;
  refused(p, "no polygons");
  p = gridParams(s, m);
  p.cs = 0;
  refused(p, "cell size");
  PolyMeshArrays bad = m;
  bad.polys[2] = 500;
  refused(gridParams(s, bad), "poly 0 vertex 2 index 500");
  bad = m;
  bad.polys[7] = 99;
  refused(gridParams(s, bad), "poly 0 edge 1 neighbour 99");
  bad = m;
  bad.polys[2] = 0xffff; // a 2-vertex ground poly
  refused(gridParams(s, bad), "poly 0 has 2 vertices");
  p = gridParams(s, m);
  p.offMeshConCount = 1;
  refused(p, "off-mesh connection arrays missing");
  // The fan detail mesh: nv - 2 triangles per poly, boundary flags on the outer edges.
  const std::vector<uint8_t> blob = buildGridTile(s);
  const nav::MeshHeader* h = reinterpret_cast<const nav::MeshHeader*>(blob.data());
  EXPECT_EQ(h->detailTriCount, 2 * 16);
  EXPECT_EQ(h->detailVertCount, 0);
  EXPECT_EQ(h->maxLinkCount, 16 * 4 + 16 * 2); // 4 edges per quad + 2 per portal edge (16 on the border)
  const uint8_t* tris = blob.data() + nav::tileLayout(*h).detailTris;
  EXPECT_EQ(tris[3], (1 << 0) | (1 << 2)); // tri (0,1,2): edges 0-1 and 1-2 on the boundary
  EXPECT_EQ(tris[7], (1 << 2) | (1 << 4)); // tri (0,2,3): edges 2-3 and 3-0
}
