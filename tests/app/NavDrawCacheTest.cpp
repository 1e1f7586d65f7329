// NavDrawCache without GL (gpu = false): it records exactly the tiles that changed (a tile removed
// and added back: that slot only), a toggled option records that group only, a new lift records
// everything; the packed chunks hold the same vertices the immediate drawNavMesh queues; and the
// per-tile culling draws the tiles in view and skips the others.
#include "app/NavDraw.h"
#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "render/Camera.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::string defaultBin() {
  std::string p = NAVBENCH_DEFAULT_LEVEL;
  return p.substr(0, p.size() - 4) + ".bin";
}

/// Loads the default level's tile set into `mesh` (the loader's message when it fails).
::testing::AssertionResult loadDefault(nav::NavMesh& mesh) {
  std::string why;
  if (nav::statusSucceeded(nav::loadTileSetFile(defaultBin(), mesh, &why))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << why;
}

int liveTiles(const nav::NavMesh& m) {
  int n = 0;
  for (int i = 0; i < m.getMaxTiles(); ++i) n += m.getTile(i)->header != nullptr;
  return n;
}

int totalBuilds(const navbench::NavDrawCache& c, int maxTiles, int group) {
  int n = 0;
  for (int i = 0; i < maxTiles; ++i) n += c.builds(i, group);
  return n;
}

// Vertices the immediate path records for `opt` (no hover).
int immediateVertices(const nav::NavMesh& mesh, const navbench::NavDrawOptions& opt) {
  render::DebugDraw dd;
  navbench::drawNavMesh(dd, mesh, opt);
  return dd.queuedVertices();
}

navbench::NavDrawOptions everything() {
  navbench::NavDrawOptions o;
  o.polys = o.polyEdges = o.tileBorders = o.portals = o.offMeshLinks = o.detailMesh = o.bvTree = true;
  return o;
}

} // namespace

TEST(NavDrawCache, RebuildsOnlyTheTileThatChanged) {
  nav::NavMesh mesh;
  ASSERT_TRUE(loadDefault(mesh));
  std::string why;
  const int maxTiles = mesh.getMaxTiles(), tiles = liveTiles(mesh);
  ASSERT_GT(tiles, 4);
  navbench::NavDrawCache cache(false, 2); // 2x2 tiles per chunk: several chunks
  const navbench::NavDrawOptions opt = everything();
  cache.update(mesh, opt);
  for (int g = 0; g < navbench::GROUP_COUNT; ++g) EXPECT_EQ(totalBuilds(cache, maxTiles, g), tiles) << navbench::groupName(g);
  EXPECT_EQ(cache.stats().tiles, tiles);
  EXPECT_EQ(cache.stats().vertices, immediateVertices(mesh, opt));
  EXPECT_GT(cache.stats().chunks, 2);

  // Nothing changed: nothing recorded, nothing re-packed.
  const long long builds0 = cache.stats().tileGroupBuilds, packs0 = cache.stats().chunkPacks;
  cache.update(mesh, opt);
  EXPECT_EQ(cache.stats().tileGroupBuilds, builds0);
  EXPECT_EQ(cache.stats().chunkPacks, packs0);

  // Remove one tile (the one with most polys): no tile is recorded, its chunk is re-packed without it.
  int victim = -1;
  for (int i = 0; i < maxTiles; ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (t->header && (victim < 0 || t->header->polyCount > mesh.getTile(victim)->header->polyCount)) victim = i;
  }
  ASSERT_GE(victim, 0);
  const int victimVerts = cache.packedVertices(victim);
  EXPECT_GT(victimVerts, 0);
  uint8_t* data = nullptr;
  int dataSize = 0;
  // Keep the data: copy it out before removal frees it (the loaded mesh owns its tiles).
  const nav::MeshTile* vt = mesh.getTile(victim);
  std::vector<uint8_t> copy(vt->data, vt->data + vt->dataSize);
  ASSERT_TRUE(nav::statusSucceeded(mesh.removeTile(mesh.getTileRef(vt), &data, &dataSize)));
  cache.update(mesh, opt);
  EXPECT_EQ(cache.stats().tileGroupBuilds, builds0);
  EXPECT_EQ(cache.stats().chunkPacks, packs0 + 1);
  EXPECT_EQ(cache.stats().tiles, tiles - 1);
  EXPECT_EQ(cache.packedVertices(victim), 0);
  EXPECT_EQ(cache.stats().vertices, immediateVertices(mesh, opt));

  // Add it back (a new salt): exactly that tile is recorded again, every group once.
  uint8_t* blob = new uint8_t[copy.size()];
  std::copy(copy.begin(), copy.end(), blob);
  nav::TileRef ref = 0;
  ASSERT_TRUE(nav::statusSucceeded(mesh.addTile(blob, int(copy.size()), nav::TILE_FREE_DATA, 0, &ref, &why))) << why;
  const int slot = int(mesh.decodePolyIdTile(ref));
  cache.update(mesh, opt);
  EXPECT_EQ(cache.stats().tileGroupBuilds, builds0 + navbench::GROUP_COUNT);
  for (int g = 0; g < navbench::GROUP_COUNT; ++g) {
    EXPECT_EQ(cache.builds(slot, g), slot == victim ? 2 : 1) << navbench::groupName(g);
    EXPECT_EQ(totalBuilds(cache, maxTiles, g), tiles + 1) << navbench::groupName(g);
  }
  EXPECT_EQ(cache.packedVertices(slot), victimVerts);
  EXPECT_EQ(cache.stats().vertices, immediateVertices(mesh, opt));
}

TEST(NavDrawCache, ATogglesRebuildsItsGroupOnly) {
  nav::NavMesh mesh;
  ASSERT_TRUE(loadDefault(mesh));
  const int maxTiles = mesh.getMaxTiles(), tiles = liveTiles(mesh);
  navbench::NavDrawCache cache(false, 4);
  navbench::NavDrawOptions opt; // defaults: detail mesh and BV tree off
  ASSERT_FALSE(opt.detailMesh);
  cache.update(mesh, opt);
  EXPECT_EQ(totalBuilds(cache, maxTiles, navbench::GROUP_DETAIL), 0);
  const long long before = cache.stats().tileGroupBuilds;
  EXPECT_EQ(cache.stats().vertices, immediateVertices(mesh, opt));

  opt.detailMesh = true;
  cache.update(mesh, opt);
  EXPECT_EQ(cache.stats().tileGroupBuilds, before + tiles);
  EXPECT_EQ(cache.stats().groupBuilds[navbench::GROUP_DETAIL], tiles);
  EXPECT_EQ(cache.stats().groupBuilds[navbench::GROUP_POLYS], tiles); // still the first build only
  EXPECT_EQ(cache.stats().vertices, immediateVertices(mesh, opt));

  // Off: dropped, nothing recorded; on again: that group once more.
  opt.detailMesh = false;
  cache.update(mesh, opt);
  EXPECT_EQ(cache.stats().tileGroupBuilds, before + tiles);
  EXPECT_EQ(cache.stats().vertices, immediateVertices(mesh, opt));
  opt.detailMesh = true;
  cache.update(mesh, opt);
  EXPECT_EQ(cache.stats().groupBuilds[navbench::GROUP_DETAIL], 2 * tiles);
  EXPECT_EQ(cache.stats().groupBuilds[navbench::GROUP_EDGES], tiles);

  // A new lift moves every vertex: every enabled group of every tile is recorded again.
  const long long b2 = cache.stats().tileGroupBuilds;
  int enabled = 0;
  for (int g = 0; g < navbench::GROUP_COUNT; ++g) enabled += navbench::groupEnabled(opt, g);
  opt.lift = 0.1f;
  cache.update(mesh, opt);
  EXPECT_EQ(cache.stats().tileGroupBuilds, b2 + (long long)enabled * tiles);

  // invalidate (another mesh swapped in): all again.
  cache.invalidate();
  EXPECT_EQ(cache.stats().vertices, 0);
  cache.update(mesh, opt);
  EXPECT_EQ(cache.stats().tileGroupBuilds, b2 + 2LL * enabled * tiles);
  EXPECT_EQ(cache.stats().vertices, immediateVertices(mesh, opt));
}

TEST(NavDrawCache, CullsTilesOutsideTheView) {
  nav::NavMesh mesh;
  ASSERT_TRUE(loadDefault(mesh));
  const int tiles = liveTiles(mesh);
  navbench::NavDrawCache cache(false, 2);
  cache.update(mesh, everything());
  render::DebugDraw dd;

  // The whole level in view: every tile drawn.
  glm::vec3 mn(1e9f), mx(-1e9f);
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (!t->header) continue;
    mn = glm::min(mn, glm::vec3(t->header->bmin[0], t->header->bmin[1], t->header->bmin[2]));
    mx = glm::max(mx, glm::vec3(t->header->bmax[0], t->header->bmax[1], t->header->bmax[2]));
  }
  render::Camera cam;
  cam.frame(mn, mx, 1.0f);
  cache.draw(dd, render::Frustum(cam.viewProj(1.0f)));
  EXPECT_EQ(cache.stats().visibleTiles, tiles);
  EXPECT_EQ(cache.stats().culledTiles, 0);
  EXPECT_GT(cache.stats().drawnBuffers, 0);

  // Close over one corner, looking down: a few tiles drawn, the rest culled.
  cam.target = glm::vec3(mn.x + 2.0f, mn.y, mn.z + 2.0f);
  cam.pitch = 1.5f;
  cam.distance = 6.0f;
  cache.draw(dd, render::Frustum(cam.viewProj(1.0f)));
  EXPECT_GT(cache.stats().visibleTiles, 0);
  EXPECT_LT(cache.stats().visibleTiles, tiles / 4);
  EXPECT_EQ(cache.stats().visibleTiles + cache.stats().culledTiles, tiles);

  // Level of detail: far away (few pixels per unit) the tiles keep their polygons but lose their
  // lines; close up they have both.
  cam.frame(mn, mx, 1.0f);
  const render::Frustum whole(cam.viewProj(1.0f));
  cache.draw(dd, whole, cam.eye(), 1.0f); // ~1 px per unit at distance 1: tiles are a few px wide
  EXPECT_EQ(cache.stats().visibleTiles, tiles);
  EXPECT_EQ(cache.stats().lineTiles, 0);
  EXPECT_GT(cache.stats().drawnBuffers, 0); // the polygons
  cache.draw(dd, whole, cam.eye(), 1e5f);
  EXPECT_EQ(cache.stats().lineTiles, tiles);
  cache.lineLodPixels = 0.0f; // LOD off
  cache.draw(dd, whole, cam.eye(), 1.0f);
  EXPECT_EQ(cache.stats().lineTiles, tiles);

  // Looking away from the level (up into the sky from below it): nothing drawn.
  cam.target = glm::vec3((mn + mx) * 0.5f) + glm::vec3(0, -1000, 0);
  cam.pitch = -1.5f;
  cam.distance = 10.0f;
  cache.draw(dd, render::Frustum(cam.viewProj(1.0f)));
  EXPECT_EQ(cache.stats().visibleTiles, 0);
  EXPECT_EQ(cache.stats().drawnBuffers, 0);
}

// Tile labels with a camera: all of them with the level framed close, none for tiles out of view
// or only a few pixels wide (a far camera), the plain overload always all.
TEST(NavDraw, TileLabelsOnlyForTilesInViewAndLargeEnough) {
  nav::NavMesh mesh;
  ASSERT_TRUE(loadDefault(mesh));
  const int tiles = liveTiles(mesh);
  std::vector<navbench::NavLabel> all, some;
  navbench::tileLabels(mesh, all);
  EXPECT_EQ(int(all.size()), tiles);
  glm::vec3 mn(1e9f), mx(-1e9f);
  for (const navbench::NavLabel& l : all) {
    mn = glm::min(mn, l.pos);
    mx = glm::max(mx, l.pos);
  }
  render::Camera cam;
  cam.frame(mn, mx, 16.0f / 9.0f);
  navbench::tileLabels(mesh, some, cam, 16.0f / 9.0f, 720.0f, 20.0f);
  EXPECT_EQ(some.size(), all.size());
  navbench::tileLabels(mesh, some, cam, 16.0f / 9.0f, 720.0f, 2000.0f); // wider than the screen: none
  EXPECT_TRUE(some.empty());
  cam.distance *= 50.0f; // far away: every tile a few pixels
  navbench::tileLabels(mesh, some, cam, 16.0f / 9.0f, 720.0f, 20.0f);
  EXPECT_TRUE(some.empty());
  cam.distance /= 50.0f;
  // Out beyond the level's +x+z corner, looking further away from it: the level is behind the eye.
  cam.target = mx + glm::vec3(500.0f, 0.0f, 500.0f);
  cam.pitch = 0.0f;
  cam.yaw = 0.7853982f + 3.14159265f; // eye on the level's side of the target
  navbench::tileLabels(mesh, some, cam, 16.0f / 9.0f, 720.0f, 1.0f);
  EXPECT_TRUE(some.empty());
}

// With a build budget the tiles are recorded over several updates (at least one tile each), each
// exactly once, and the result is the same as without a budget.
TEST(NavDrawCache, BuildBudgetSpreadsTheFirstBuildOverUpdates) {
  nav::NavMesh mesh;
  ASSERT_TRUE(loadDefault(mesh));
  const int maxTiles = mesh.getMaxTiles(), tiles = liveTiles(mesh);
  navbench::NavDrawCache cache(false, 4);
  cache.buildBudgetMs = 1e-6f; // spent after the first tile
  const navbench::NavDrawOptions opt = everything();
  cache.update(mesh, opt);
  EXPECT_EQ(cache.stats().pendingTiles, tiles - 1);
  EXPECT_EQ(cache.stats().tileGroupBuilds, navbench::GROUP_COUNT);
  int calls = 1;
  while (cache.stats().pendingTiles > 0 && calls < 1000) {
    cache.update(mesh, opt);
    ++calls;
  }
  EXPECT_EQ(calls, tiles);
  for (int g = 0; g < navbench::GROUP_COUNT; ++g) EXPECT_EQ(totalBuilds(cache, maxTiles, g), tiles);
  EXPECT_EQ(cache.stats().vertices, immediateVertices(mesh, opt));
}
