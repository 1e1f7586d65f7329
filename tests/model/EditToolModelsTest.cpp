// The edit tools' models without a window (app/model/Edit*.h): the clicks a view passes in, the
// edits they make through the level editor, the messages of refused input, on the default level.
#include "app/model/EditLinks.h"
#include "app/model/EditPrune.h"
#include "app/model/EditTiles.h"
#include "app/model/EditVolumes.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "tests/model/EditFixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>
#include <utility>

namespace {

using navbench::test::EditFixture;
using navbench::test::meshBytes;

/// An edit tool's model on the editing models of a copy of the default level.
template <class Model>
struct ModelOn : EditFixture {
  Model model;
  ::testing::AssertionResult open(const std::string& tag) {
    ::testing::AssertionResult r = EditFixture::open(tag);
    model.init(context());
    return r;
  }
};

const glm::vec3 kEye(0.0f, 60.0f, 0.0f); // a camera far enough that a click is "a few pixels" wide

/// A ground poly centre of some tile with polys.
glm::vec3 somePoly(const EditFixture& f, int* tx = nullptr, int* ty = nullptr) {
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      float c[3];
      if (f.polyCentre(x, y, 0, c)) {
        if (tx) *tx = x;
        if (ty) *ty = y;
        return glm::vec3(c[0], c[1], c[2]);
      }
    }
  return glm::vec3(0.0f);
}

TEST(EditVolumesModel, TheHullSkipsInnerPointsAndStartsAtTheLowestX) {
  const std::vector<float> pts = {0, 0, 0, 4, 0, 0, 4, 0, 4, 2, 0, 2, 0, 0, 4, -1, 0, 2};
  const std::vector<int> hull = navbench::EditVolumes::convexHull(pts);
  ASSERT_EQ(hull.size(), 5u);
  EXPECT_EQ(hull[0], 5) << "the lowest x";
  for (int i : hull) EXPECT_NE(i, 3) << "the inner point is not on the hull";
  EXPECT_LT(navbench::EditVolumes::convexHull({0, 0, 0, 1, 0, 0, 2, 0, 0}).size(), 3u) << "points in a line";
  EXPECT_TRUE(navbench::EditVolumes::convexHull({}).empty());
}

TEST(EditVolumesModel, ClickedPointsCloseIntoAVolumeThatAClickSelects) {
  ModelOn<navbench::EditVolumes> f;
  ASSERT_TRUE(f.open("model_volumes"));
  auto& m = f.model;
  const glm::vec3 c = somePoly(f);
  const size_t before = f.editor.volumes().size();
  m.click(kEye, c + glm::vec3(-2, 0, -2), false);
  m.click(kEye, c + glm::vec3(2, 0.5f, -2), false);
  m.click(kEye, c + glm::vec3(0.2f, 0, 0.1f), false); // inside: not on the hull
  m.click(kEye, c + glm::vec3(2, 0, 2), false);
  m.click(kEye, c + glm::vec3(-2, 0, 2), false);
  EXPECT_EQ(m.points().size(), 15u);
  EXPECT_EQ(m.hull().size(), 4u);
  m.area = nav::AREA_ROAD;
  m.click(kEye, c + glm::vec3(-2, 0, -2), false); // the first point again: closes it
  ASSERT_EQ(f.editor.volumes().size(), before + 1) << m.message.text;
  const nav::bake::ConvexVolume& v = f.editor.volumes().back();
  EXPECT_EQ(v.verts.size(), 12u);
  EXPECT_EQ(v.area, nav::AREA_ROAD);
  EXPECT_FLOAT_EQ(v.hmin, c.y - m.offset);
  EXPECT_FLOAT_EQ(v.hmax, c.y - m.offset + m.height);
  EXPECT_FALSE(m.message.error);
  EXPECT_EQ(m.message.text.rfind("added volume " + std::to_string(before) + ": road, 4 points", 0), 0u) << m.message.text;
  EXPECT_TRUE(m.points().empty());

  m.click(kEye, c, false);
  EXPECT_EQ(m.selected(), int(before)) << "a click inside the volume selects it";
  nav::bake::ConvexVolume higher = m.selectedVolume();
  higher.hmax += 1;
  EXPECT_TRUE(m.applySelected(higher, "top not changed"));
  EXPECT_EQ(f.editor.volumes().back().hmax, higher.hmax);
  ASSERT_TRUE(f.history.undo()); // the view follows the volume back to its old value
  m.syncSelection();
  EXPECT_EQ(m.selected(), -1) << "the selected value is gone after the undo";
  m.select(int(before));
  EXPECT_TRUE(m.removeSelected());
  EXPECT_EQ(f.editor.volumes().size(), before);
  EXPECT_EQ(m.message.text, "removed volume " + std::to_string(before));
}

TEST(EditVolumesModel, TooFewPointsAreRefusedAndChangeNothing) {
  ModelOn<navbench::EditVolumes> f;
  ASSERT_TRUE(f.open("model_volumes_refused"));
  auto& m = f.model;
  const glm::vec3 c = somePoly(f);
  const uint64_t version = f.history.version();
  m.click(kEye, c, true);
  m.click(kEye, c + glm::vec3(3, 0, 0), true);
  m.click(kEye, c + glm::vec3(3, 0, 0.0001f), true); // the same point in xz
  EXPECT_FALSE(m.close());
  EXPECT_TRUE(m.message.error);
  EXPECT_NE(m.message.text.find("at least 3 distinct points (it has 2)"), std::string::npos) << m.message.text;
  EXPECT_NE(f.lastLog().find("Convex Volumes: not added"), std::string::npos) << f.lastLog();
  EXPECT_EQ(m.points().size(), 9u) << "the points stay for another try";
  m.clear();
  EXPECT_TRUE(m.points().empty());
  EXPECT_EQ(f.history.version(), version);
  for (int i = 0; i <= navbench::EditVolumes::kMaxPoints; ++i) m.click(kEye, c + glm::vec3(float(i), 0, float(i * i) * 0.1f), true);
  EXPECT_EQ(int(m.points().size() / 3), navbench::EditVolumes::kMaxPoints);
  EXPECT_NE(m.message.text.find("at most 12 points"), std::string::npos) << m.message.text;
}

TEST(EditLinksModel, TwoClicksMakeALinkAndAClickNearAnEndSelectsIt) {
  ModelOn<navbench::EditLinks> f;
  ASSERT_TRUE(f.open("model_links"));
  auto& m = f.model;
  int tx = 0, ty = 0;
  const glm::vec3 a = somePoly(f, &tx, &ty);
  glm::vec3 b = a;
  for (int i = 1; i < 64; ++i) {
    float c[3];
    if (!f.polyCentre(tx, ty, i, c)) break;
    const float d = std::hypot(c[0] - a.x, c[2] - a.z);
    if (d > 2.0f && d < 0.8f * f.editor.maxLinkLength()) {
      b = glm::vec3(c[0], c[1], c[2]);
      break;
    }
  }
  ASSERT_NE(a, b);
  const size_t before = f.editor.links().size();
  m.next.bidirectional = false;
  m.click(kEye, a, true);
  EXPECT_TRUE(m.hasStart());
  m.click(kEye, b, false);
  ASSERT_EQ(f.editor.links().size(), before + 1) << m.message.text;
  EXPECT_FALSE(f.editor.links().back().bidirectional);
  EXPECT_NE(m.message.text.find("one way"), std::string::npos) << m.message.text;
  EXPECT_FALSE(m.hasStart());
  m.click(kEye, b + glm::vec3(0.1f, 0, 0), false);
  EXPECT_EQ(m.selected(), int(before));
  EXPECT_TRUE(m.removeSelected());
  EXPECT_EQ(f.editor.links().size(), before);

  // Too long: refused, the start dropped, nothing changed.
  const uint64_t version = f.history.version();
  m.click(kEye, a, true);
  m.click(kEye, a + glm::vec3(2 * f.editor.maxLinkLength(), 0, 0), false);
  EXPECT_TRUE(m.message.error);
  EXPECT_NE(m.message.text.find("Off-Mesh Links: not added"), std::string::npos) << m.message.text;
  EXPECT_FALSE(m.hasStart());
  EXPECT_EQ(f.history.version(), version);
  m.click(kEye, a, true);
  EXPECT_TRUE(m.tooLong(a + glm::vec3(2 * f.editor.maxLinkLength(), 0, 0)));
  EXPECT_FALSE(m.tooLong(a + glm::vec3(1, 0, 0)));
}

TEST(EditTilesModel, ShiftClickRemovesATileAClickRebuildsItAsBaked) {
  ModelOn<navbench::EditTiles> f;
  ASSERT_TRUE(f.open("model_tiles"));
  auto& m = f.model;
  const auto original = meshBytes(f.nav.mesh());
  int tx = 0, ty = 0;
  const glm::vec3 p = somePoly(f, &tx, &ty);
  m.update(true, p, false);
  ASSERT_TRUE(m.hovering());
  EXPECT_EQ(m.hoverTile().x, tx);
  EXPECT_EQ(m.hoverPolys(), f.nav.mesh().getTileAt(tx, ty, 0)->header->polyCount);
  m.click(p, true);
  EXPECT_EQ(f.nav.mesh().getTileAt(tx, ty, 0), nullptr);
  EXPECT_EQ(m.message.text, "removed tile " + navbench::tileName({tx, ty}) + " (Ctrl+Z brings it back)");
  m.update(true, p, true);
  EXPECT_EQ(m.hoverPolys(), -1);
  m.click(p, false);
  f.editor.finish();
  m.update(true, p, true);
  EXPECT_EQ(m.message.text.rfind("rebuilt tile " + navbench::tileName({tx, ty}) + ": ", 0), 0u) << m.message.text;
  EXPECT_EQ(meshBytes(f.nav.mesh()), original) << "the rebuilt tile is not the baked one";

  m.click(glm::vec3(-1000, 0, -1000), false);
  EXPECT_TRUE(m.message.error);
  EXPECT_NE(m.message.text.find("outside the"), std::string::npos) << m.message.text;
  m.update(true, p, true);  // that click's release
  m.update(false, p, true); // a click on the sky (it never reaches click())
  EXPECT_NE(m.message.text.find("no level under the click"), std::string::npos) << m.message.text;
  EXPECT_NE(f.lastLog().find("Tiles: "), std::string::npos);

  ASSERT_TRUE(m.removeAll());
  EXPECT_EQ(f.nav.tileCount(), 0);
  ASSERT_TRUE(m.rebuildAll());
  f.editor.finish();
  EXPECT_EQ(meshBytes(f.nav.mesh()), original) << "rebuild all after remove all";
}

/// Whether `target` is reachable from `start` with the default filter minus disabled polys
/// (an A* search of its own, not the tool's flood).
bool reachable(nav::NavMeshQuery& query, const nav::NavMesh& mesh, nav::PolyRef start, nav::PolyRef target) {
  nav::QueryFilter filter;
  filter.setIncludeFlags(nav::FLAG_ALL ^ nav::FLAG_DISABLED);
  const nav::MeshTile* tile = nullptr;
  const nav::Poly* poly = nullptr;
  float a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
  for (const auto& [ref, out] : {std::pair<nav::PolyRef, float*>{start, a}, {target, b}}) {
    mesh.getTileAndPolyByRef(ref, &tile, &poly);
    for (int k = 0; k < poly->vertCount; ++k)
      for (int i = 0; i < 3; ++i) out[i] += tile->verts[poly->verts[k] * 3 + i] / float(poly->vertCount);
  }
  nav::PolyRef path[512];
  int n = 0;
  const nav::Status s = query.findPath(start, target, a, b, &filter, path, &n, 512);
  return nav::statusSucceeded(s) && !(s & nav::PARTIAL_RESULT) && n > 0 && path[n - 1] == target;
}

TEST(EditPruneModel, ApplyDisablesWhatTheClickedPolyCannotReachAndUndoEnablesIt) {
  ModelOn<navbench::EditPrune> f;
  ASSERT_TRUE(f.open("model_prune"));
  auto& m = f.model;
  EXPECT_FALSE(m.apply());
  EXPECT_EQ(m.message.text, "apply: click a poly first");
  m.click(somePoly(f));
  ASSERT_TRUE(m.hasStart()) << m.message.text;
  int total = 0;
  for (int i = 0; i < f.nav.mesh().getMaxTiles(); ++i)
    if (const nav::MeshTile* t = f.nav.mesh().getTile(i); t && t->header) total += t->header->polyCount;
  EXPECT_EQ(int(m.reachable().size() + m.unreachable().size()), total);
  ASSERT_FALSE(m.unreachable().empty()) << "the default level has polys on block and crate tops no one reaches";
  EXPECT_EQ(m.countDisabled(nullptr), 0);
  ASSERT_TRUE(m.apply()) << m.message.text;
  EXPECT_EQ(m.countDisabled(nullptr), int(m.unreachable().size()));
  // The flag is on exactly the ground polys an A* search from the clicked poly cannot reach.
  const nav::NavMesh& mesh = f.nav.mesh();
  const nav::PolyRef start = m.reachable().front();
  int checked = 0;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header) continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      if (tile->polys[p].getType() != nav::POLYTYPE_GROUND) continue;
      const bool off = (tile->polys[p].flags & nav::FLAG_DISABLED) != 0;
      const nav::PolyRef ref = mesh.getPolyRefBase(tile) | nav::PolyRef(p);
      EXPECT_EQ(off, !reachable(f.nav.query(), mesh, start, ref)) << "poly " << ref;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_EQ(m.message.text, "disabled " + std::to_string(m.unreachable().size()) + " unreachable polys");
  ASSERT_TRUE(f.history.undo());
  EXPECT_EQ(m.countDisabled(nullptr), 0);
  EXPECT_FALSE(m.enableAll());
  EXPECT_EQ(m.message.text, "enable all: no poly is disabled");
  ASSERT_TRUE(f.history.redo());
  EXPECT_TRUE(m.enableAll());
  EXPECT_EQ(m.countDisabled(nullptr), 0);
  EXPECT_TRUE(m.setRemoveOnSave(true));
  EXPECT_TRUE(f.editor.removeOnSave());
  m.click(glm::vec3(0, 500, 0));
  EXPECT_TRUE(m.message.error);
  EXPECT_NE(m.message.text.find("no navmesh poly near the click"), std::string::npos) << m.message.text;
}

TEST(EditPruneModel, RemoveOnSaveSavesExactlyWhatTheClickedPolyReaches) {
  ModelOn<navbench::EditPrune> f;
  ASSERT_TRUE(f.open("model_prune_remove"));
  auto& m = f.model;
  m.click(somePoly(f));
  ASSERT_TRUE(m.setRemoveOnSave(true)) << m.message.text;
  ASSERT_TRUE(m.apply()) << m.message.text;
  std::unique_ptr<nav::NavMesh> saved;
  std::string why;
  ASSERT_TRUE(f.editor.meshToSave(f.nav.mesh(), &saved, &why)) << why;
  ASSERT_TRUE(saved);
  EXPECT_EQ(m.countDisabled(nullptr), int(m.unreachable().size())) << "the open navmesh keeps them, disabled";
  int total = 0, disabled = 0, checked = 0;
  nav::NavMeshQuery query;
  ASSERT_TRUE(nav::statusSucceeded(query.init(saved.get(), 4096)));
  const float* s = &m.start().x;
  const float ext[3] = {0.5f, 1.0f, 0.5f};
  nav::QueryFilter any;
  nav::PolyRef start = 0;
  float snapped[3];
  query.findNearestPoly(s, ext, &any, &start, snapped);
  ASSERT_NE(start, 0u);
  for (int i = 0; i < saved->getMaxTiles(); ++i) {
    const nav::MeshTile* tile = saved->getTile(i);
    if (!tile || !tile->header) continue;
    total += tile->header->polyCount;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      disabled += (tile->polys[p].flags & nav::FLAG_DISABLED) ? 1 : 0;
      if (tile->polys[p].getType() != nav::POLYTYPE_GROUND) continue;
      EXPECT_TRUE(reachable(query, *saved, start, saved->getPolyRefBase(tile) | nav::PolyRef(p)));
      ++checked;
    }
  }
  EXPECT_EQ(total, int(m.reachable().size()));
  EXPECT_EQ(disabled, 0);
  EXPECT_GT(checked, 100);
}

} // namespace
