// Level LOD (app/LevelLod.h) and the per-cell level choice (render::selectLod), without GL:
// on a synthetic hilly height field and on a generated 1 km world (app/cli/WorldGen), the
// simplified levels cover the same ground, drop triangles by the expected factors, stay on the
// surface, a close camera keeps full detail and the whole-world view stays under its budget.
#include "TestUtil.h"

#include "app/Level.h"
#include "app/LevelLod.h"
#include "app/Scenario.h"
#include "app/cli/WorldGen.h"
#include "render/Camera.h"
#include "render/Frustum.h"
#include "render/MeshBuffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using navbench::LevelLod;
using navbench::TriMesh;

namespace {

float hill(float x, float z) { return 3.0f * std::sin(x * 0.05f) * std::cos(z * 0.04f); }

void setBounds(TriMesh& m) {
  m.boundsMin = glm::vec3(1e30f);
  m.boundsMax = glm::vec3(-1e30f);
  for (int i = 0; i < m.vertCount(); ++i) {
    m.boundsMin = glm::min(m.boundsMin, m.vert(i));
    m.boundsMax = glm::max(m.boundsMax, m.vert(i));
  }
}

// An n x n quad grid of step `h` over gentle hills: 2 n^2 triangles, counter-clockwise from above.
TriMesh heightField(int n, float h) {
  TriMesh m;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const float x = float(i) * h, z = float(j) * h;
      m.verts.insert(m.verts.end(), {x, hill(x, z), z});
    }
  auto at = [n](int i, int j) { return j * (n + 1) + i; };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      m.tris.insert(m.tris.end(), {at(i, j), at(i, j + 1), at(i + 1, j)});
      m.tris.insert(m.tris.end(), {at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)});
    }
  setBounds(m);
  return m;
}

// The bounds of the triangles of level k (all cells).
void levelBounds(const TriMesh& m, const LevelLod& lod, int k, glm::vec3& mn, glm::vec3& mx) {
  mn = glm::vec3(1e30f);
  mx = glm::vec3(-1e30f);
  for (const LevelLod::Cell& c : lod.cells)
    for (int i = c.first[k]; i < c.first[k] + c.count[k]; ++i)
      for (int v = 0; v < 3; ++v) {
        const glm::vec3 p = k == 0 ? m.vert(m.tris[size_t(lod.order[size_t(i)]) * 3 + size_t(v)])
                                   : lod.verts[size_t(lod.tris[size_t(i)].v[v])];
        mn = glm::min(mn, p);
        mx = glm::max(mx, p);
      }
}

// Triangles drawn for a camera: the cells in the frustum, each at the level selectLod picks.
struct Drawn {
  long long tris = 0;
  int cellsAt[LevelLod::kLevels] = {0, 0, 0, 0};
};
Drawn drawn(const LevelLod& lod, const render::Camera& cam, int w, int h, bool enabled) {
  render::LodView view;
  view.enabled = enabled;
  view.eye = cam.eye();
  view.pixelsPerUnit = float(h) / (2.0f * std::tan(cam.fovY * 0.5f));
  const render::Frustum fr(cam.viewProj(float(w) / float(h)));
  Drawn d;
  for (const LevelLod::Cell& c : lod.cells) {
    if (!fr.visible(c.bmin, c.bmax)) continue;
    const int k = render::selectLod(c.bmin, c.bmax, lod.clusterSize, LevelLod::kLevels, view);
    ++d.cellsAt[k];
    d.tris += c.count[k];
  }
  return d;
}

// The viewer's framing of a level (App::frameLevel: the default view angles, room for panels).
render::Camera framed(const TriMesh& m, int w, int h) {
  render::Camera cam;
  cam.yaw = 3.14159265f + 0.6f;
  cam.pitch = 0.72f;
  cam.frame(m.boundsMin, m.boundsMax, float(w) / float(h), glm::vec2(-0.6f, -0.62f), glm::vec2(0.6f, 0.86f));
  return cam;
}

} // namespace

TEST(LevelLod, CellsHoldEveryTriangleOnceAtFullDetail) {
  const TriMesh m = heightField(200, 1.0f); // 80k triangles, 200 m
  LevelLod lod;
  ASSERT_TRUE(navbench::buildLevelLod(m, lod));
  EXPECT_EQ(lod.grid, 4);
  EXPECT_EQ(lod.triangles(0), m.triCount());
  std::vector<int> seen(size_t(m.triCount()), 0);
  for (int t : lod.order) ++seen[size_t(t)];
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), m.triCount());
  // Each cell's bounds hold its triangles, and the cells together hold the mesh.
  glm::vec3 mn(1e30f), mx(-1e30f);
  for (const LevelLod::Cell& c : lod.cells) {
    for (int i = c.first[0]; i < c.first[0] + c.count[0]; ++i)
      for (int v = 0; v < 3; ++v) {
        const glm::vec3 p = m.vert(m.tris[size_t(lod.order[size_t(i)]) * 3 + size_t(v)]);
        EXPECT_TRUE(glm::all(glm::greaterThanEqual(p, c.bmin)) && glm::all(glm::lessThanEqual(p, c.bmax)));
      }
    mn = glm::min(mn, c.bmin);
    mx = glm::max(mx, c.bmax);
  }
  EXPECT_EQ(mn, m.boundsMin);
  EXPECT_EQ(mx, m.boundsMax);
}

TEST(LevelLod, CoarserLevelsCoverTheSameGroundWithFewerTriangles) {
  const float h = 1.0f;
  const TriMesh m = heightField(200, h);
  LevelLod lod;
  ASSERT_TRUE(navbench::buildLevelLod(m, lod));
  for (int k = 1; k < LevelLod::kLevels; ++k) {
    const float s = lod.clusterSize[k];
    ASSERT_GT(s, lod.clusterSize[k - 1]);
    // A height field clustered by cubes of edge s keeps ~2 (extent / s)^2 triangles: the count
    // drops by about (s / h)^2 from full detail (the hills add a few cubes across heights).
    const double expected = double(m.triCount()) * double(h * h) / double(s * s);
    EXPECT_GT(lod.triangles(k), 0.5 * expected) << "level " << k;
    EXPECT_LT(lod.triangles(k), 1.6 * expected) << "level " << k;
    EXPECT_LT(lod.triangles(k), lod.triangles(k - 1)) << "level " << k;
    // The same ground: the level's bounds within one cube of the mesh's.
    glm::vec3 mn, mx;
    levelBounds(m, lod, k, mn, mx);
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(mn[a], m.boundsMin[a], s) << "level " << k << " axis " << a;
      EXPECT_NEAR(mx[a], m.boundsMax[a], s) << "level " << k << " axis " << a;
    }
    // On the surface: every corner is a mean of nearby surface points, so within the hill's
    // curvature of it; and every triangle still faces up (no flipped ground).
    for (const LevelLod::Cell& c : lod.cells)
      for (int i = c.first[k]; i < c.first[k] + c.count[k]; ++i) {
        const LevelLod::Tri& t = lod.tris[size_t(i)];
        for (int v = 0; v < 3; ++v) {
          const glm::vec3 p = lod.verts[size_t(t.v[v])];
          ASSERT_NEAR(p.y, hill(p.x, p.z), 0.02f * s * s + 0.05f) << "level " << k;
        }
        const glm::vec3 a = lod.verts[size_t(t.v[0])], b = lod.verts[size_t(t.v[1])], cc = lod.verts[size_t(t.v[2])];
        ASSERT_GT(glm::cross(b - a, cc - a).y, 0.0f) << "level " << k;
        ASSERT_GE(t.source, 0);
        ASSERT_LT(t.source, m.triCount());
      }
  }
}

TEST(LevelLod, NeighbourCellsAtOneLevelShareTheirBorderVertices) {
  // The cubes are global: an edge on a cell border is used by the triangles on both sides (no
  // crack between two cells at the same level). Count edges used once: only the mesh's outline.
  const TriMesh m = heightField(120, 1.0f);
  LevelLod lod;
  ASSERT_TRUE(navbench::buildLevelLod(m, lod));
  ASSERT_GT(lod.cells.size(), 1u);
  for (int k = 1; k < LevelLod::kLevels; ++k) {
    std::vector<std::pair<int, int>> edges;
    for (const LevelLod::Cell& c : lod.cells)
      for (int i = c.first[k]; i < c.first[k] + c.count[k]; ++i)
        for (int e = 0; e < 3; ++e) {
          const int a = lod.tris[size_t(i)].v[e], b = lod.tris[size_t(i)].v[(e + 1) % 3];
          edges.emplace_back(std::min(a, b), std::max(a, b));
        }
    std::sort(edges.begin(), edges.end());
    int once = 0;
    glm::vec3 mn, mx;
    levelBounds(m, lod, k, mn, mx);
    for (size_t i = 0; i < edges.size(); ++i) {
      const bool single = (i == 0 || edges[i] != edges[i - 1]) && (i + 1 == edges.size() || edges[i] != edges[i + 1]);
      if (!single) continue;
      ++once;
      // A boundary edge lies on the outline of the whole mesh, not on an inner cell border.
      const glm::vec3 a = lod.verts[size_t(edges[i].first)], b = lod.verts[size_t(edges[i].second)];
      const float s = lod.clusterSize[k];
      const bool outline = (a.x < mn.x + s && b.x < mn.x + s) || (a.x > mx.x - s && b.x > mx.x - s) ||
                           (a.z < mn.z + s && b.z < mn.z + s) || (a.z > mx.z - s && b.z > mx.z - s);
      EXPECT_TRUE(outline) << "level " << k << ": open edge inside the mesh at " << a.x << "," << a.z;
    }
    EXPECT_GT(once, 0);
  }
}

TEST(LevelLod, SelectLodPicksFullDetailCloseAndCoarserFar) {
  const float err[LevelLod::kLevels] = {0.0f, 4.0f, 8.0f, 16.0f};
  const glm::vec3 bmin(0, 0, 0), bmax(100, 10, 100);
  render::LodView v;
  v.enabled = true;
  v.pixelsPerUnit = 869.0f; // 720 px high, 45 degrees
  v.maxErrorPx = 3.0f;
  v.eye = glm::vec3(50, 60, 50); // above the cell: inside its x/z, 50 m over it
  EXPECT_EQ(render::selectLod(bmin, bmax, err, 4, v), 0);
  v.eye = glm::vec3(50, 5, 50); // inside the box
  EXPECT_EQ(render::selectLod(bmin, bmax, err, 4, v), 0);
  // Level k is allowed from err[k] * 869 / 3 metres on: 1159, 2317, 4635.
  v.eye = glm::vec3(100 + 1100, 5, 50);
  EXPECT_EQ(render::selectLod(bmin, bmax, err, 4, v), 0);
  v.eye = glm::vec3(100 + 1200, 5, 50);
  EXPECT_EQ(render::selectLod(bmin, bmax, err, 4, v), 1);
  v.eye = glm::vec3(100 + 2400, 5, 50);
  EXPECT_EQ(render::selectLod(bmin, bmax, err, 4, v), 2);
  v.eye = glm::vec3(100 + 5000, 5, 50);
  EXPECT_EQ(render::selectLod(bmin, bmax, err, 4, v), 3);
  EXPECT_EQ(render::selectLod(bmin, bmax, err, 2, v), 1); // only the levels there are
  v.enabled = false;
  EXPECT_EQ(render::selectLod(bmin, bmax, err, 4, v), 0);
}

TEST(LevelLod, CancelStopsTheBuildAndLeavesItEmpty) {
  const TriMesh m = heightField(200, 1.0f);
  LevelLod lod;
  int calls = 0;
  float last = -1.0f;
  ASSERT_TRUE(navbench::buildLevelLod(m, lod, [&](float f) {
    EXPECT_GE(f, last);
    last = f;
    ++calls;
    return true;
  }));
  EXPECT_EQ(last, 1.0f);
  EXPECT_GE(calls, 4);
  for (int stopAt : {1, calls / 2, calls}) {
    int n = 0;
    EXPECT_FALSE(navbench::buildLevelLod(m, lod, [&](float) { return ++n < stopAt; })) << stopAt;
    EXPECT_TRUE(lod.empty());
    EXPECT_EQ(n, stopAt);
  }
}

// Vertices that never share a cube: the cube map was sized for ~4 vertices per cube and never
// grew, so a level like this (a fuzzer found one) probed a full table forever. Every level-1
// vertex is then one mesh vertex, and the full-detail triangles all survive at level 1.
TEST(LevelLod, VerticesThatDoNotMergeStillBuild) {
  TriMesh m;
  // 600 triangles over 60 m x 60 m (cubes ~2.5 m, from the x/z extent), every vertex 10 m above
  // the one before: no two vertices share a cube.
  for (int j = 0; j < 25; ++j)
    for (int i = 0; i < 24; ++i) {
      const float x = float(i) * 2.5f, z = float(j) * 2.4f;
      const int b = m.vertCount();
      auto y = [](int v) { return 10.0f * float(v); };
      m.verts.insert(m.verts.end(), {x, y(b), z, x, y(b + 1), z + 1.0f, x + 1.2f, y(b + 2), z});
      m.tris.insert(m.tris.end(), {b, b + 1, b + 2});
    }
  setBounds(m);
  ASSERT_EQ(m.triCount(), 600);
  LevelLod lod;
  ASSERT_TRUE(navbench::buildLevelLod(m, lod, nullptr));
  ASSERT_EQ(lod.grid, 1);
  EXPECT_EQ(lod.triangles(0), 600);
  EXPECT_EQ(lod.triangles(1), 600); // nothing merged
  // Level 1's vertices (first in out.verts) are the mesh's, one cube each.
  ASSERT_GE(lod.verts.size(), size_t(m.vertCount()));
  for (int i = 0; i < m.vertCount(); i += 37) EXPECT_NEAR(glm::length(lod.verts[size_t(i)] - m.vert(i)), 0.0f, 1e-4f) << i;
}

// A generated 1 km world (554k triangles; the 2 km one is what the viewer was slow on, too big
// for the regular suite): a close camera keeps full detail around it, the framed whole world
// draws under a third of the triangles (the 2 km world, twice as far away, under a tenth).
TEST(LevelLod, GeneratedWorldWholeViewUnderBudgetCloseViewFullDetail) {
  navbench::test::TempDir dir;
  navbench::worldgen::WorldParams p;
  p.size = std::getenv("NAVBENCH_LOD_TEST_WORLD") ? float(std::atof(std::getenv("NAVBENCH_LOD_TEST_WORLD"))) : 1000.0f;
  p.seed = 1;
  const std::string obj = dir.file("world.obj");
  std::string why;
  ASSERT_TRUE(navbench::worldgen::writeWorldObj(p, obj, nullptr, &why)) << why;
  navbench::Level level;
  std::string error;
  ASSERT_TRUE(level.load(obj, error)) << error;
  const TriMesh& m = level.mesh();
  const LevelLod& lod = level.lod();
  ASSERT_GT(m.triCount(), 500000);
  EXPECT_EQ(lod.triangles(0), m.triCount());
  for (int k = 1; k < LevelLod::kLevels; ++k) {
    EXPECT_LT(lod.triangles(k), lod.triangles(k - 1) * 2 / 3) << "level " << k;
    glm::vec3 mn, mx;
    levelBounds(m, lod, k, mn, mx);
    for (int a = 0; a < 3; a += 2) { // the same ground in x/z, within a cube
      EXPECT_NEAR(mn[a], m.boundsMin[a], lod.clusterSize[k]) << "level " << k;
      EXPECT_NEAR(mx[a], m.boundsMax[a], lod.clusterSize[k]) << "level " << k;
    }
  }
  EXPECT_LT(lod.triangles(3), m.triCount() / 20);

  const int w = 1280, h = 720;
  const render::Camera whole = framed(m, w, h);
  const Drawn all = drawn(lod, whole, w, h, false), reduced = drawn(lod, whole, w, h, true);
  EXPECT_EQ(all.tris, m.triCount()); // everything in view
  EXPECT_LT(reduced.tris, all.tris / 3);
  EXPECT_LT(reduced.tris, 300000);
  EXPECT_EQ(reduced.cellsAt[0], 0) << "no cell at full detail from this far";

  // Close: 60 m from the centre, as the frame benchmark's close view. The cells within 200 m of
  // the eye are at full detail, so what is seen up close is exactly the level's triangles.
  render::Camera close;
  close.target = glm::vec3(500.0f, 10.0f, 500.0f);
  close.yaw = 3.74f;
  close.pitch = 0.72f;
  close.distance = 60.0f;
  render::LodView v;
  v.enabled = true;
  v.eye = close.eye();
  v.pixelsPerUnit = float(h) / (2.0f * std::tan(close.fovY * 0.5f));
  const render::Frustum fr(close.viewProj(float(w) / float(h)));
  int near = 0;
  for (const LevelLod::Cell& c : lod.cells) {
    const glm::vec3 q = glm::clamp(v.eye, c.bmin, c.bmax);
    if (glm::length(q - v.eye) > 200.0f || !fr.visible(c.bmin, c.bmax)) continue;
    ++near;
    EXPECT_EQ(render::selectLod(c.bmin, c.bmax, lod.clusterSize, LevelLod::kLevels, v), 0);
  }
  EXPECT_GE(near, 1);
  const Drawn closeDrawn = drawn(lod, close, w, h, true), closeAll = drawn(lod, close, w, h, false);
  EXPECT_EQ(closeDrawn.cellsAt[0], closeAll.cellsAt[0]); // nothing in view was simplified
  std::printf("world %.0f m: %d triangles; whole view draws %lld (cells by level %d/%d/%d/%d), close view %lld of %lld\n",
              double(p.size), m.triCount(), reduced.tris, reduced.cellsAt[0], reduced.cellsAt[1], reduced.cellsAt[2],
              reduced.cellsAt[3], closeDrawn.tris, closeAll.tris);
}

// View > Level LOD is stored with the other view settings in scenario files; older files without
// it open with the default (on).
TEST(LevelLod, ScenarioFilesKeepTheLevelLodToggle) {
  navbench::Scenario s;
  s.level = "world.obj";
  s.toolName = "Pick";
  s.view.levelLod = false;
  const std::string text = navbench::toJson(s);
  navbench::Scenario r;
  std::string error;
  ASSERT_TRUE(navbench::parseScenario(text, r, error)) << error;
  EXPECT_FALSE(r.view.levelLod);
  auto j = nlohmann::json::parse(text);
  ASSERT_TRUE(j["view"].contains("levelLod"));
  j["view"].erase("levelLod");
  navbench::Scenario old;
  ASSERT_TRUE(navbench::parseScenario(j.dump(), old, error)) << error;
  EXPECT_TRUE(old.view.levelLod);
}
