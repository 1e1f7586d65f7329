// TriangleGrid.h: a uniform xz grid of triangle bins, so a tile's triangles are found without
// scanning the whole level (the role of RecastDemo's chunky triangle mesh).
//
// Compact: one int32 triangle index per (triangle, bin it overlaps) in a single array, and one
// offset per bin; no per-triangle bounds (a query recomputes a candidate's bounds from the
// vertices). For tile-sized bins that is ~4.3 bytes per triangle.
#pragma once

#include <cstddef>
#include <vector>

namespace nav::bake {

class TriangleGrid {
public:
  /// Indexes triangles [(a, b, c) * triCount] of verts [(x, y, z) * ...] in square bins of
  /// `binSize` wu over the triangles' xz bounds. binSize <= 0 picks one giving ~32 tris per bin.
  /// Triangles must index valid vertices (checked by the caller). The grid keeps the two pointers:
  /// the arrays must stay alive and unchanged while it is queried (rebuild after a change).
  void build(const float* verts, const int* tris, int triCount, float binSize);

  /// Indices of the triangles whose xz bounds overlap the closed rect [qmin, qmax] (x, z), in
  /// ascending order, each once. `out` is cleared first. Thread-safe (const, no shared scratch).
  void query(const float qmin[2], const float qmax[2], std::vector<int>& out) const;

  int triCount() const { return m_triCount; }
  int binCountX() const { return m_w; }
  int binCountZ() const { return m_h; }
  float binSize() const { return m_binSize; }
  /// Bin entries (a triangle counts once per bin it overlaps).
  size_t entryCount() const { return m_items.size(); }
  /// Heap bytes the grid holds.
  size_t memoryBytes() const { return (m_binStart.capacity() + m_items.capacity()) * sizeof(int); }

private:
  float m_orig[2] = {0, 0};
  float m_binSize = 1;
  int m_w = 0, m_h = 0;
  std::vector<int> m_binStart;    ///< CSR offsets [Size: w * h + 1]
  std::vector<int> m_items;       ///< Triangle indices per bin, ascending within a bin.
  const float* m_verts = nullptr; ///< The indexed triangles (not owned).
  const int* m_tris = nullptr;
  int m_triCount = 0;

  /// xz bounds of triangle t: (minx, minz, maxx, maxz).
  void triBounds(int t, float* b) const;
};

} // namespace nav::bake
