// TileRebakeTest: an edit re-bakes only the tiles it touches (Baker::tilesTouching + bakeTiles),
// and the tiles swapped in (replaceTiles) make the same navmesh, byte for byte, as a whole bake of
// the edited level; undoing the edit gives back the original bytes; other tiles keep their refs.
// Runs on the project's own default level (tiled, 9.6 m tiles) and on a solo bake of it.
#include "BakeTestUtil.h"

#include "nav/NavMesh.h"
#include "nav/bake/Bake.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>

using namespace nav;
using namespace nav::bake;

namespace {

/// Each cell's tile (layer 0), by grid position: its blob as baked, with what linking writes into
/// it taken out (the link array and each poly's first link depend on the order tiles were added
/// in), followed by its links as a sorted list of (poly, neighbour tile x, y, neighbour poly, edge,
/// side, bmin, bmax), which says what the linking made of it independently of that order.
std::map<std::pair<int, int>, std::vector<uint8_t>> tileBytes(const NavMesh& mesh, bool withLinks = true) {
  std::map<std::pair<int, int>, std::vector<uint8_t>> out;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const MeshTile* t = mesh.getTile(i);
    if (!t->header) continue;
    std::vector<uint8_t> bytes(t->data, t->data + t->dataSize);
    const TileLayout lay = tileLayout(*t->header);
    for (int p = 0; p < t->header->polyCount; ++p)
      std::memset(bytes.data() + lay.polys + int64_t(p) * int64_t(sizeof(Poly)), 0, sizeof(uint32_t)); // firstLink
    std::memset(bytes.data() + lay.links, 0, size_t(lay.detailMeshes - lay.links));
    std::vector<std::array<uint32_t, 8>> links;
    for (int p = 0; p < t->header->polyCount && withLinks; ++p)
      for (uint32_t k = t->polys[p].firstLink; k != NULL_LINK; k = t->links[k].next) {
        const Link& l = t->links[k];
        const MeshTile* nt = mesh.getTile(int(mesh.decodePolyIdTile(l.ref)));
        links.push_back({uint32_t(p), uint32_t(nt->header->x), uint32_t(nt->header->y), mesh.decodePolyIdPoly(l.ref), l.edge,
                         l.side, l.bmin, l.bmax});
      }
    std::sort(links.begin(), links.end());
    for (const auto& l : links)
      bytes.insert(bytes.end(), reinterpret_cast<const uint8_t*>(l.data()), reinterpret_cast<const uint8_t*>(l.data() + 8));
    out[{t->header->x, t->header->y}] = std::move(bytes);
  }
  return out;
}

struct Fixture {
  BakeInput input;
  BakeSettings settings;
  Baker baker; ///< The "viewer's" baker: input set once, volumes and links edited.
  std::unique_ptr<NavMesh> mesh;
};

void setUp(Fixture& f, bool tiled) {
  std::string why;
  ASSERT_TRUE(baketest::loadLevel(baketest::defaultLevel(), &f.input, &f.settings, &why)) << why;
  f.settings.tiled = tiled;
  ASSERT_TRUE(f.baker.setInput(f.input, &why)) << why;
  BakeReport r;
  ASSERT_TRUE(f.baker.bake(f.settings, BakeOptions(), &r)) << r.error;
  f.mesh = f.baker.releaseNavMesh();
}

/// A whole bake of `input` (a fresh baker).
std::unique_ptr<NavMesh> wholeBake(const BakeInput& input, const BakeSettings& s) {
  Baker b;
  std::string why;
  EXPECT_TRUE(b.setInput(input, &why)) << why;
  BakeReport r;
  EXPECT_TRUE(b.bake(s, BakeOptions(), &r)) << r.error;
  return b.releaseNavMesh();
}

/// Applies an edit of the volumes and links the way the viewer does: the tiles touched by
/// [bmin, bmax] are re-baked and swapped into f.mesh. Returns the tiles re-baked.
std::vector<TileCoord> applyEdit(Fixture& f, const std::vector<ConvexVolume>& volumes, const std::vector<OffMeshLink>& links,
                                 const float* bmin, const float* bmax) {
  std::string why;
  EXPECT_TRUE(f.baker.setVolumesAndLinks(volumes, links, &why)) << why;
  std::vector<TileCoord> tiles;
  f.baker.tilesTouching(f.settings, bmin, bmax, &tiles);
  std::vector<RebakedTile> blobs;
  BakeReport r;
  BakeOptions opt;
  opt.threads = 2;
  EXPECT_TRUE(f.baker.bakeTiles(f.settings, tiles, opt, &blobs, &r)) << r.error;
  EXPECT_TRUE(replaceTiles(*f.mesh, blobs, &why)) << why;
  return tiles;
}

ConvexVolume grassPatch() { // a 3 m x 2 m patch on the floor, inside one or two tiles
  ConvexVolume v;
  v.verts = {20.0f, 0.0f, 20.0f, 23.0f, 0.0f, 20.0f, 23.0f, 0.0f, 22.0f, 20.0f, 0.0f, 22.0f};
  v.hmin = -0.5f;
  v.hmax = 1.0f;
  v.area = AREA_GRASS;
  return v;
}

void expectSameBytes(const NavMesh& a, const NavMesh& b) {
  const auto ta = tileBytes(a), tb = tileBytes(b);
  ASSERT_EQ(ta.size(), tb.size());
  for (const auto& [cell, bytes] : ta) {
    auto it = tb.find(cell);
    ASSERT_NE(it, tb.end()) << "tile (" << cell.first << ", " << cell.second << ") missing";
    EXPECT_TRUE(bytes == it->second) << "tile (" << cell.first << ", " << cell.second << ") differs";
  }
}

} // namespace

TEST(TileRebake, TilesTouchingAVolumeAreExactlyThoseWhoseBakeRectOverlapsIt) {
  Fixture f;
  setUp(f, true);
  const ConvexVolume v = grassPatch();
  float bmin[3], bmax[3];
  editBounds(v, bmin, bmax);
  std::vector<TileCoord> tiles;
  f.baker.tilesTouching(f.settings, bmin, bmax, &tiles);
  // Independently: tile (x, y) spans [bmin + x * w, bmin + (x + 1) * w] widened by its border of
  // ceil(r / cs) + 3 cells; the patch is touched by the tiles whose widened span overlaps it.
  BakeReport r;
  int tw = 0, th = 0;
  f.baker.tileGrid(f.settings, &tw, &th);
  const float w = float(f.settings.tileSize) * f.settings.cellSize;
  const float border = (std::ceil(f.settings.agentRadius / f.settings.cellSize) + 3.0f) * f.settings.cellSize;
  float lmin[3];
  {
    auto m = wholeBake(f.input, f.settings);
    std::memcpy(lmin, m->getParams().orig, sizeof lmin);
  }
  std::vector<TileCoord> expected;
  for (int y = 0; y < th; ++y)
    for (int x = 0; x < tw; ++x) {
      const float x0 = lmin[0] + float(x) * w - border, x1 = lmin[0] + float(x + 1) * w + border;
      const float z0 = lmin[2] + float(y) * w - border, z1 = lmin[2] + float(y + 1) * w + border;
      if (bmax[0] < x0 || bmin[0] > x1 || bmax[2] < z0 || bmin[2] > z1) continue;
      expected.push_back({x, y});
    }
  ASSERT_FALSE(expected.empty());
  EXPECT_LT(expected.size(), size_t(tw * th)) << "the patch should touch a few tiles, not all";
  EXPECT_EQ(tiles, expected);

  // Far outside the level: nothing.
  const float farMin[3] = {1e4f, 0, 1e4f}, farMax[3] = {1e4f + 1, 0, 1e4f + 1};
  f.baker.tilesTouching(f.settings, farMin, farMax, &tiles);
  EXPECT_TRUE(tiles.empty());
}

TEST(TileRebake, AVolumeAddedRebakesItsTilesToTheBytesOfAWholeBakeAndUndoRestoresThem) {
  Fixture f;
  setUp(f, true);
  const auto originalLinked = tileBytes(*f.mesh);
  const std::unique_ptr<NavMesh> originalMesh = wholeBake(f.input, f.settings);
  // Refs of the tiles the edit does not touch, before.
  std::map<std::pair<int, int>, TileRef> refsBefore;
  for (int i = 0; i < f.mesh->getMaxTiles(); ++i)
    if (const MeshTile* t = f.mesh->getTile(i); t->header)
      refsBefore[{t->header->x, t->header->y}] = f.mesh->getTileRef(t);

  BakeInput edited = f.input;
  edited.volumes.push_back(grassPatch());
  float bmin[3], bmax[3];
  editBounds(edited.volumes.back(), bmin, bmax);
  const std::vector<TileCoord> touched = applyEdit(f, edited.volumes, edited.links, bmin, bmax);
  ASSERT_FALSE(touched.empty());

  auto whole = wholeBake(edited, f.settings);
  expectSameBytes(*f.mesh, *whole);
  // The edit changed something, and only in the tiles it touched (their neighbours' links to them
  // may change too, not their own data); the others kept their refs.
  const auto original = tileBytes(*originalMesh, false);
  const auto after = tileBytes(*f.mesh, false);
  int changed = 0;
  for (const auto& [cell, bytes] : original) {
    const bool isTouched = std::find(touched.begin(), touched.end(), TileCoord{cell.first, cell.second}) != touched.end();
    const bool differs = after.count(cell) == 0 || after.at(cell) != bytes;
    if (differs) {
      ++changed;
      EXPECT_TRUE(isTouched) << "tile (" << cell.first << ", " << cell.second << ") changed but was not re-baked";
    }
    if (!isTouched) {
      EXPECT_EQ(f.mesh->getTileRefAt(cell.first, cell.second, 0), refsBefore[cell]);
    }
  }
  EXPECT_GT(changed, 0) << "the grass patch should change the polys under it";

  // Undo: the volume removed again gives back the original bytes.
  applyEdit(f, f.input.volumes, f.input.links, bmin, bmax);
  EXPECT_TRUE(tileBytes(*f.mesh) == originalLinked);
  // Redo: the edited bytes again.
  applyEdit(f, edited.volumes, edited.links, bmin, bmax);
  expectSameBytes(*f.mesh, *whole);
}

TEST(TileRebake, ALinkAddedChangedAndRemovedMatchesWholeBakes) {
  Fixture f;
  setUp(f, true);
  const auto original = tileBytes(*f.mesh);
  BakeInput edited = f.input;
  OffMeshLink l;
  const float s[3] = {12.0f, 0.0f, 30.0f}, e[3] = {16.0f, 0.0f, 30.5f};
  std::memcpy(l.start, s, sizeof s);
  std::memcpy(l.end, e, sizeof e);
  edited.links.push_back(l);

  float bmin[3], bmax[3];
  editBounds(l, bmin, bmax);
  applyEdit(f, edited.volumes, edited.links, bmin, bmax);
  expectSameBytes(*f.mesh, *wholeBake(edited, f.settings));
  EXPECT_FALSE(tileBytes(*f.mesh) == original);

  // Moved: both the old and the new place are re-baked.
  BakeInput moved = edited;
  moved.links.back().end[2] = 33.0f;
  float nmin[3], nmax[3];
  editBounds(moved.links.back(), nmin, nmax);
  for (int i = 0; i < 3; ++i) {
    nmin[i] = std::min(nmin[i], bmin[i]);
    nmax[i] = std::max(nmax[i], bmax[i]);
  }
  applyEdit(f, moved.volumes, moved.links, nmin, nmax);
  expectSameBytes(*f.mesh, *wholeBake(moved, f.settings));

  applyEdit(f, f.input.volumes, f.input.links, nmin, nmax);
  EXPECT_TRUE(tileBytes(*f.mesh) == original);
}

TEST(TileRebake, ASoloLevelRebakesWhole) {
  Fixture f;
  setUp(f, false);
  BakeInput edited = f.input;
  edited.volumes.push_back(grassPatch());
  float bmin[3], bmax[3];
  editBounds(edited.volumes.back(), bmin, bmax);
  const std::vector<TileCoord> touched = applyEdit(f, edited.volumes, edited.links, bmin, bmax);
  ASSERT_EQ(touched.size(), 1u);
  EXPECT_EQ(touched[0], (TileCoord{0, 0}));
  expectSameBytes(*f.mesh, *wholeBake(edited, f.settings));
}

TEST(TileRebake, BadTilesAreRefusedAndAFailedSwapKeepsTheOldTiles) {
  Fixture f;
  setUp(f, true);
  const auto original = tileBytes(*f.mesh);
  std::vector<RebakedTile> blobs;
  BakeReport r;
  EXPECT_FALSE(f.baker.bakeTiles(f.settings, {{-1, 0}}, BakeOptions(), &blobs, &r));
  EXPECT_NE(r.error.find("outside"), std::string::npos) << r.error;
  EXPECT_TRUE(blobs.empty());

  // A blob the mesh refuses (garbage) after a good one: the good one is rolled back too.
  ASSERT_TRUE(f.baker.bakeTiles(f.settings, {{0, 0}, {1, 0}}, BakeOptions(), &blobs, &r)) << r.error;
  ASSERT_EQ(blobs.size(), 2u);
  delete[] blobs[1].data;
  blobs[1].dataSize = 64;
  blobs[1].data = new uint8_t[64]();
  std::string why;
  EXPECT_FALSE(replaceTiles(*f.mesh, blobs, &why));
  EXPECT_NE(why.find("(1, 0)"), std::string::npos) << why;
  EXPECT_TRUE(tileBytes(*f.mesh) == original);
}
