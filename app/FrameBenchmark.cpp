// FrameBenchmark.cpp: --bench-frames N, the headless frame benchmark: every overlay on, a path
// across the navmesh on the active tester tool, 3 warm-up frames, then N frames measured and one
// "bench: ..." line printed (CPU ms per frame, draw calls, vertices, the level's LOD).
#include "app/App.h"

#include "app/LevelMesh.h"
#include "app/tools/Tester.h"

#include <algorithm>
#include <cstdio>

namespace navbench {

void App::setBenchPath() {
  auto* tester = dynamic_cast<Tester*>(m_doc.tool());
  if (!tester || !m_doc.nav.loaded()) return;
  const nav::NavMesh& mesh = m_doc.nav.mesh();
  float lo = 1e30f, hi = -1e30f;
  glm::vec3 a(0.0f), b(0.0f);
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* tile = mesh.getTile(i);
    if (!tile->header) continue;
    const nav::PolyRef base = mesh.getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p) {
      if (tile->polys[p].getType() != nav::POLYTYPE_GROUND) continue;
      const glm::vec3 c = polyCenter(mesh, base | nav::PolyRef(p));
      if (c.x + c.z < lo) lo = c.x + c.z, a = c;
      if (c.x + c.z > hi) hi = c.x + c.z, b = c;
    }
  }
  if (lo > hi) return;
  tester->setStart(a);
  tester->setEnd(b);
}

bool App::benchFrame(int& frame, double finishMs, int w, int h) {
  if (frame == 0) setBenchPath(); // the path is drawn from the next frame on
  if (++frame > 3) {              // 3 warm-up frames (ImGui layout, buffer growth)
    m_benchMs.push_back(m_stats.cpuMs);
    m_benchCalls += m_stats.debugDrawCalls;
    m_benchVerts += m_stats.debugVertices;
    m_benchFinishMs += finishMs;
  }
  if (int(m_benchMs.size()) < m_opt.benchFrames) return false;
  double sum = 0;
  for (float v : m_benchMs) sum += double(v);
  const int n = int(m_benchMs.size());
  std::printf("bench: frames=%d cpu_ms_mean=%.4f cpu_ms_min=%.4f cpu_ms_max=%.4f draw_calls=%.1f "
              "debug_vertices=%.0f level_tris=%d polys=%d tiles=%d size=%dx%d static_vertices=%lld "
              "static_mb=%.2f static_build_ms=%.1f visible_tiles=%d culled_tiles=%d finish_ms_mean=%.4f "
              "level_tris_drawn=%d level_lod=%d level_cells_by_lod=%d,%d,%d,%d\n",
              n, sum / n, double(*std::min_element(m_benchMs.begin(), m_benchMs.end())),
              double(*std::max_element(m_benchMs.begin(), m_benchMs.end())), double(m_benchCalls) / n,
              double(m_benchVerts) / n, m_stats.levelTris, m_doc.nav.polyCount(), m_doc.nav.tileCount(), w, h,
              m_navCache.stats().vertices, double(m_navCache.stats().gpuBytes) / 1048576.0,
              m_navCache.stats().maxUpdateMs, m_navCache.stats().visibleTiles, m_navCache.stats().culledTiles,
              m_benchFinishMs / n, m_levelMesh.lastDrawnVertices() / 3, levelLodOn(m_doc.view) ? 1 : 0,
              m_levelMesh.lastCellsAtLevel(0), m_levelMesh.lastCellsAtLevel(1), m_levelMesh.lastCellsAtLevel(2),
              m_levelMesh.lastCellsAtLevel(3));
  std::fflush(stdout);
  return true;
}

} // namespace navbench
