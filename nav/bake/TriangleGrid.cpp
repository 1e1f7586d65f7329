#include "nav/bake/TriangleGrid.h"

#include <algorithm>
#include <cmath>

namespace nav::bake {

void TriangleGrid::triBounds(int t, float* b) const {
  const int* tri = &m_tris[size_t(t) * 3];
  const float* v0 = &m_verts[size_t(tri[0]) * 3];
  b[0] = b[2] = v0[0];
  b[1] = b[3] = v0[2];
  for (int k = 1; k < 3; ++k) {
    const float* v = &m_verts[size_t(tri[k]) * 3];
    b[0] = std::min(b[0], v[0]);
    b[1] = std::min(b[1], v[2]);
    b[2] = std::max(b[2], v[0]);
    b[3] = std::max(b[3], v[2]);
  }
}

void TriangleGrid::build(const float* verts, const int* tris, int triCount, float binSize) {
  m_verts = verts;
  m_tris = tris;
  m_triCount = triCount;
  m_binStart = std::vector<int>(); // release the old grid's memory before the new one is counted
  m_items = std::vector<int>();
  float bmin[2] = {0, 0}, bmax[2] = {0, 0};
  for (int i = 0; i < triCount; ++i) {
    float b[4];
    triBounds(i, b);
    if (i == 0) {
      bmin[0] = b[0]; bmin[1] = b[1]; bmax[0] = b[2]; bmax[1] = b[3];
    } else {
      bmin[0] = std::min(bmin[0], b[0]); bmin[1] = std::min(bmin[1], b[1]);
      bmax[0] = std::max(bmax[0], b[2]); bmax[1] = std::max(bmax[1], b[3]);
    }
  }
  const float ex = bmax[0] - bmin[0], ez = bmax[1] - bmin[1];
  if (binSize <= 0) {
    // About 32 triangles per bin for a level spread evenly.
    const float bins = std::max(1.0f, float(triCount) / 32.0f);
    binSize = std::sqrt(std::max(ex * ez, 1e-6f) / bins);
  }
  // Keep the grid at most 1024 x 1024 bins.
  binSize = std::max({binSize, ex / 1024.0f, ez / 1024.0f, 1e-3f});
  m_binSize = binSize;
  m_orig[0] = bmin[0];
  m_orig[1] = bmin[1];
  m_w = std::max(1, int(ex / binSize) + 1);
  m_h = std::max(1, int(ez / binSize) + 1);

  auto binRange = [&](const float* b, int* x0, int* z0, int* x1, int* z1) {
    *x0 = std::clamp(int((b[0] - m_orig[0]) / m_binSize), 0, m_w - 1);
    *z0 = std::clamp(int((b[1] - m_orig[1]) / m_binSize), 0, m_h - 1);
    *x1 = std::clamp(int((b[2] - m_orig[0]) / m_binSize), 0, m_w - 1);
    *z1 = std::clamp(int((b[3] - m_orig[1]) / m_binSize), 0, m_h - 1);
  };
  // Two passes (count, then fill) into compressed rows; triangles go in ascending order.
  m_binStart.assign(size_t(m_w) * m_h + 1, 0);
  float b[4];
  for (int i = 0; i < triCount; ++i) {
    int x0, z0, x1, z1;
    triBounds(i, b);
    binRange(b, &x0, &z0, &x1, &z1);
    for (int z = z0; z <= z1; ++z)
      for (int x = x0; x <= x1; ++x) ++m_binStart[size_t(z) * m_w + x + 1];
  }
  for (size_t i = 1; i < m_binStart.size(); ++i) m_binStart[i] += m_binStart[i - 1];
  m_items.assign(size_t(m_binStart.back()), 0);
  std::vector<int> fill(m_binStart.begin(), m_binStart.end() - 1);
  for (int i = 0; i < triCount; ++i) {
    int x0, z0, x1, z1;
    triBounds(i, b);
    binRange(b, &x0, &z0, &x1, &z1);
    for (int z = z0; z <= z1; ++z)
      for (int x = x0; x <= x1; ++x) m_items[size_t(fill[size_t(z) * m_w + x]++)] = i;
  }
}

void TriangleGrid::query(const float qmin[2], const float qmax[2], std::vector<int>& out) const {
  out.clear();
  if (m_w == 0 || qmax[0] < qmin[0] || qmax[1] < qmin[1]) return;
  const float fx0 = std::floor((qmin[0] - m_orig[0]) / m_binSize), fz0 = std::floor((qmin[1] - m_orig[1]) / m_binSize);
  const float fx1 = std::floor((qmax[0] - m_orig[0]) / m_binSize), fz1 = std::floor((qmax[1] - m_orig[1]) / m_binSize);
  // Clamping is safe: every candidate is checked against its exact bounds below.
  auto clampBin = [](float f, int hi) { return f <= 0 ? 0 : f >= float(hi) ? hi : int(f); };
  const int x0 = clampBin(fx0, m_w - 1), z0 = clampBin(fz0, m_h - 1);
  const int x1 = clampBin(fx1, m_w - 1), z1 = clampBin(fz1, m_h - 1);
  for (int z = z0; z <= z1; ++z)
    for (int x = x0; x <= x1; ++x) {
      const size_t bin = size_t(z) * m_w + x;
      for (int k = m_binStart[bin]; k < m_binStart[bin + 1]; ++k) {
        const int t = m_items[size_t(k)];
        float b[4];
        triBounds(t, b);
        if (b[0] <= qmax[0] && b[2] >= qmin[0] && b[1] <= qmax[1] && b[3] >= qmin[1]) out.push_back(t);
      }
    }
  // A triangle spanning several bins was collected once per bin.
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

} // namespace nav::bake
