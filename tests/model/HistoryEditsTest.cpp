// The one history across the level editor's edits and a tool's input change, on the default level
// without the viewer: undo gives back the navmesh tiles byte for byte and the level's volumes and
// links; redo gives back the edited ones; every step moves the version counter.
#include "tests/model/EditFixture.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

using navbench::test::EditFixture;
using navbench::test::meshBytes;

/// The tile with the most ground polys, and another one (not `other`) with polys.
void pickTiles(const nav::NavMesh& mesh, int* bx, int* by, int avoidX, int avoidY) {
  int best = -1;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (!t || !t->header || (t->header->x == avoidX && t->header->y == avoidY)) continue;
    if (t->header->polyCount > best) {
      best = t->header->polyCount;
      *bx = t->header->x;
      *by = t->header->y;
    }
  }
}

TEST(HistoryEdits, UndoAndRedoAcrossEditsRestoreTheTilesByteForByte) {
  EditFixture f;
  ASSERT_TRUE(f.open("history_edits"));
  const auto original = meshBytes(f.nav.mesh());
  const auto volumes0 = f.editor.volumes();
  const auto links0 = f.editor.links();
  int tx = -1, ty = -1, rx = -1, ry = -1, dx = -1, dy = -1;
  pickTiles(f.nav.mesh(), &tx, &ty, -9, -9);
  pickTiles(f.nav.mesh(), &rx, &ry, tx, ty);
  ASSERT_GE(tx, 0);
  ASSERT_GE(rx, 0);
  uint64_t version = f.history.version();

  // A volume of water around a poly of the busiest tile.
  float c[3];
  ASSERT_TRUE(f.polyCentre(tx, ty, 0, c));
  nav::bake::ConvexVolume v;
  v.verts = {c[0] - 1, c[1], c[2] - 1, c[0] + 1, c[1], c[2] - 1, c[0] + 1, c[1], c[2] + 1, c[0] - 1, c[1], c[2] + 1};
  v.hmin = c[1] - 1;
  v.hmax = c[1] + 2;
  v.area = nav::AREA_WATER;
  std::string why;
  ASSERT_TRUE(f.editor.addVolume(v, &why)) << why;
  EXPECT_EQ(f.history.version(), ++version);
  f.editor.finish();
  EXPECT_EQ(f.editor.rebakes(), 1);
  const auto withVolume = meshBytes(f.nav.mesh());
  EXPECT_NE(withVolume, original) << "the volume changed no tile";
  EXPECT_TRUE(f.editor.unsaved());

  // A link between two polys of the same tile, a few metres apart.
  nav::bake::OffMeshLink l;
  bool found = false;
  const nav::MeshTile* tile = f.nav.mesh().getTileAt(tx, ty, 0);
  for (int i = 1; i < tile->header->polyCount && !found; ++i) {
    float e[3];
    if (!f.polyCentre(tx, ty, i, e)) break;
    const float d = std::hypot(e[0] - c[0], e[2] - c[2]);
    if (d < 2.5f || d > 0.8f * f.editor.maxLinkLength()) continue;
    std::copy(c, c + 3, l.start);
    std::copy(e, e + 3, l.end);
    found = f.editor.addLink(l, &why);
  }
  ASSERT_TRUE(found) << why;
  EXPECT_EQ(f.history.version(), ++version);
  f.editor.finish();
  const auto withLink = meshBytes(f.nav.mesh());
  EXPECT_NE(withLink, withVolume);

  // Another tile removed.
  ASSERT_TRUE(f.editor.removeTiles({{rx, ry}}, &why)) << why;
  EXPECT_EQ(f.history.version(), ++version);
  EXPECT_EQ(f.nav.mesh().getTileAt(rx, ry, 0), nullptr);
  const auto withRemoved = meshBytes(f.nav.mesh());

  // Polys of a third tile disabled.
  pickTiles(f.nav.mesh(), &dx, &dy, tx, ty);
  ASSERT_GE(dx, 0);
  const nav::MeshTile* dt = f.nav.mesh().getTileAt(dx, dy, 0);
  const nav::PolyRef base = f.nav.mesh().getPolyRefBase(dt);
  ASSERT_TRUE(f.editor.setDisabled({base | 0, base | 1}, true, &why)) << why;
  EXPECT_EQ(f.history.version(), ++version);
  uint16_t flags = 0;
  f.nav.mesh().getPolyFlags(base | 1, &flags);
  EXPECT_TRUE(flags & nav::FLAG_DISABLED);
  const auto withDisabled = meshBytes(f.nav.mesh());

  // A tester's start point moved: one more step of the same history.
  navbench::test::ValueClient<float> start; // a tester's start point
  start.history = &f.history;
  start.set(3.5f);
  EXPECT_EQ(f.history.version(), ++version);
  EXPECT_EQ(f.history.undoCount(), 5u);

  // Undo everything: the start point, then the edits in reverse order.
  ASSERT_TRUE(f.history.undo());
  EXPECT_EQ(start.value, 0.0f);
  EXPECT_EQ(meshBytes(f.nav.mesh()), withDisabled) << "undoing the tester's step touched the navmesh";
  ASSERT_TRUE(f.history.undo());
  EXPECT_EQ(meshBytes(f.nav.mesh()), withRemoved) << "the disabled flags are not cleared";
  ASSERT_TRUE(f.history.undo());
  f.editor.finish();
  EXPECT_EQ(meshBytes(f.nav.mesh()), withLink) << "the removed tile did not come back as it was";
  ASSERT_TRUE(f.history.undo());
  f.editor.finish();
  EXPECT_EQ(meshBytes(f.nav.mesh()), withVolume);
  ASSERT_TRUE(f.history.undo());
  f.editor.finish();
  EXPECT_EQ(meshBytes(f.nav.mesh()), original) << "undo did not give back the baked tiles";
  EXPECT_EQ(f.editor.volumes().size(), volumes0.size());
  EXPECT_EQ(f.editor.links().size(), links0.size());
  EXPECT_FALSE(f.editor.unsaved());
  EXPECT_FALSE(f.editor.hasEdits());
  EXPECT_EQ(f.history.version(), version + 5);
  EXPECT_FALSE(f.history.canUndo());

  // Redo everything: the edited navmesh again, and the start point.
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(f.history.redo());
    f.editor.finish();
  }
  EXPECT_EQ(meshBytes(f.nav.mesh()), withDisabled);
  EXPECT_EQ(start.value, 3.5f);
  EXPECT_EQ(f.editor.volumes().size(), volumes0.size() + 1);
  EXPECT_EQ(f.editor.links().size(), links0.size() + 1);
  EXPECT_EQ(f.history.version(), version + 10);
  EXPECT_GT(f.edited, 0) << "navmeshEdited was never called";
}

TEST(HistoryEdits, RefusedEditsChangeNothing) {
  EditFixture f;
  ASSERT_TRUE(f.open("history_refused"));
  const auto original = meshBytes(f.nav.mesh());
  const uint64_t version = f.history.version();
  std::string why;
  nav::bake::ConvexVolume two;
  two.verts = {0, 0, 0, 1, 0, 0};
  two.hmin = -1;
  two.hmax = 1;
  EXPECT_FALSE(f.editor.addVolume(two, &why));
  EXPECT_NE(why.find("at least 3 points"), std::string::npos) << why;
  nav::bake::ConvexVolume line;
  line.verts = {0, 0, 0, 1, 0, 0, 2, 0, 0};
  line.hmin = -1;
  line.hmax = 1;
  EXPECT_FALSE(f.editor.addVolume(line, &why));
  EXPECT_NE(why.find("no area"), std::string::npos) << why;
  nav::bake::OffMeshLink far;
  float c[3];
  ASSERT_TRUE(f.polyCentre(0, 0, 0, c) || f.polyCentre(1, 1, 0, c));
  std::copy(c, c + 3, far.start);
  std::copy(c, c + 3, far.end);
  far.end[0] += 3 * f.editor.maxLinkLength();
  EXPECT_FALSE(f.editor.addLink(far, &why));
  EXPECT_NE(why.find("long"), std::string::npos) << why;
  nav::bake::OffMeshLink sky = far;
  sky.end[0] = sky.start[0] + 1;
  sky.end[1] = sky.start[1] + 500;
  EXPECT_FALSE(f.editor.addLink(sky, &why));
  EXPECT_NE(why.find("not over the navmesh"), std::string::npos) << why;
  EXPECT_FALSE(f.editor.removeTiles({{-1, 0}}, &why));
  EXPECT_FALSE(f.editor.removeVolume(999, &why));
  EXPECT_EQ(why, "no volume 999");
  EXPECT_FALSE(f.editor.setDisabled({}, true, &why));
  f.editor.finish();
  EXPECT_EQ(f.history.version(), version);
  EXPECT_FALSE(f.history.canUndo());
  EXPECT_EQ(f.editor.rebakes(), 0);
  EXPECT_EQ(meshBytes(f.nav.mesh()), original);
  EXPECT_FALSE(f.editor.unsaved());
  EXPECT_FALSE(f.bake.unsavedBake());
}

} // namespace
