// TriangleGrid.h: a uniform xz grid of triangle bins, so a tile's triangles are found without
// scanning the whole level (the role of RecastDemo's chunky triangle mesh).
#pragma once

#include <cstddef>
#include <vector>

namespace nav::bake {

class TriangleGrid {
public:
  /// Indexes triangles [(a, b, c) * triCount] of verts [(x, y, z) * ...] in square bins of
  /// `binSize` wu over the triangles' xz bounds. binSize <= 0 picks one giving ~32 tris per bin.
  /// Triangles must index valid vertices (checked by the caller).
  void build(const float* verts, const int* tris, int triCount, float binSize);

  /// Indices of the triangles whose xz bounds overlap the closed rect [qmin, qmax] (x, z), in
  /// ascending order, each once. `out` is cleared first. Thread-safe (const, no shared scratch).
  void query(const float qmin[2], const float qmax[2], std::vector<int>& out) const;

  int triCount() const { return int(m_triBounds.size() / 4); }
  int binCountX() const { return m_w; }
  int binCountZ() const { return m_h; }
  float binSize() const { return m_binSize; }
  /// Bin entries (a triangle counts once per bin it overlaps).
  size_t entryCount() const { return m_items.size(); }

private:
  float m_orig[2] = {0, 0};
  float m_binSize = 1;
  int m_w = 0, m_h = 0;
  std::vector<int> m_binStart;    ///< CSR offsets [Size: w * h + 1]
  std::vector<int> m_items;       ///< Triangle indices per bin, ascending within a bin.
  std::vector<float> m_triBounds; ///< [(minx, minz, maxx, maxz) * triCount]
};

} // namespace nav::bake
