#include "app/LevelMesh.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <thread>
#include <vector>

namespace navbench {

bool levelLodOn(const ViewSettings& view) {
  static const char* env = std::getenv("NAVBENCH_LEVEL_LOD");
  return env ? std::atoi(env) != 0 : view.levelLod;
}

void uploadLevelMesh(const Level& level, float walkableSlopeDeg, render::MeshBuffer& mesh) {
  const TriMesh& m = level.mesh();
  const LevelLod& lod = level.lod();
  const float cosSlope = std::cos(glm::radians(walkableSlopeDeg));
  // Walkable-looking surfaces in sand, brighter and warmer the higher they are; steep ones blue-grey.
  const glm::vec3 floorLow(0.74f, 0.71f, 0.64f), floorHigh(0.93f, 0.82f, 0.60f), wallColor(0.58f, 0.62f, 0.69f),
      underColor(0.38f, 0.40f, 0.45f);
  const float y0 = m.boundsMin.y, yRange = std::max(m.boundsMax.y - m.boundsMin.y, 1e-3f);
  // One flat-shaded triangle into `out`; `source` gives the material (simplified triangles: the
  // one they come from).
  auto addTri = [&](std::vector<render::MeshVertex>& out, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                    int source) {
    glm::vec3 n = glm::cross(b - a, c - a);
    float len = glm::length(n);
    n = len > 0 ? n / len : glm::vec3(0, 1, 0);
    const float hy = std::clamp(((a.y + b.y + c.y) / 3.0f - y0) / yRange, 0.0f, 1.0f);
    glm::vec3 rgb = n.y >= cosSlope ? glm::mix(floorLow, floorHigh, hy) : n.y < -0.5f ? underColor : wallColor;
    if (!m.triMaterial.empty() && m.triMaterial[size_t(source)] >= 0) { // the level's own material colour
      rgb = m.materialColors[size_t(m.triMaterial[size_t(source)])];
      if (n.y < cosSlope) rgb *= 0.85f; // steep sides a little darker than tops
    }
    const uint32_t col = render::rgbaf(rgb.r, rgb.g, rgb.b);
    out.push_back({a, n, col});
    out.push_back({b, n, col});
    out.push_back({c, n, col});
  };
  if (lod.empty()) {
    std::vector<render::MeshVertex> verts;
    verts.reserve(size_t(m.triCount()) * 3);
    for (int t = 0; t < m.triCount(); ++t)
      addTri(verts, m.vert(m.tris[size_t(t) * 3]), m.vert(m.tris[size_t(t) * 3 + 1]), m.vert(m.tris[size_t(t) * 3 + 2]), t);
    mesh.upload(verts);
  } else { // LevelLod's cells: every cell at full detail, then every cell at level 1, ...
    // Written straight into the GPU buffer, by two threads (halves of the (level, cell) blocks).
    std::vector<render::MeshCell> cells(lod.cells.size());
    size_t total = 0;
    for (int k = 0; k < LevelLod::kLevels; ++k)
      for (size_t c = 0; c < lod.cells.size(); ++c) {
        cells[c].bmin = lod.cells[c].bmin;
        cells[c].bmax = lod.cells[c].bmax;
        cells[c].first[k] = int(total);
        cells[c].count[k] = lod.cells[c].count[k] * 3;
        total += size_t(cells[c].count[k]);
      }
    render::MeshVertex* dst = mesh.beginUpload(total);
    auto fill = [&](size_t fromVertex, size_t toVertex) {
      std::vector<render::MeshVertex> tri; // reused: addTri appends to `out`
      for (int k = 0; k < LevelLod::kLevels; ++k)
        for (size_t c = 0; c < lod.cells.size(); ++c) {
          const size_t at = size_t(cells[c].first[k]);
          if (at < fromVertex || at >= toVertex) continue;
          render::MeshVertex* out = dst + at;
          const LevelLod::Cell& lc = lod.cells[c];
          for (int i = lc.first[k]; i < lc.first[k] + lc.count[k]; ++i) {
            tri.clear();
            if (k == 0) {
              const int t = lod.order[size_t(i)];
              addTri(tri, m.vert(m.tris[size_t(t) * 3]), m.vert(m.tris[size_t(t) * 3 + 1]), m.vert(m.tris[size_t(t) * 3 + 2]), t);
            } else {
              const LevelLod::Tri& t = lod.tris[size_t(i)];
              addTri(tri, lod.verts[size_t(t.v[0])], lod.verts[size_t(t.v[1])], lod.verts[size_t(t.v[2])], t.source);
            }
            std::copy(tri.begin(), tri.end(), out);
            out += 3;
          }
        }
    };
    if (dst) {
      std::thread half([&] { fill(total / 2, total); });
      fill(0, total / 2);
      half.join();
    }
    static_assert(LevelLod::kLevels <= render::kMaxLod, "MeshBuffer holds every level");
    mesh.endUpload(std::move(cells), lod.clusterSize, LevelLod::kLevels);
  }
}

} // namespace navbench
