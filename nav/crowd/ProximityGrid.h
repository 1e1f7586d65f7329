// ProximityGrid.h: a hashed 2D grid of agent ids for neighbour queries (DetourCrowd 1.5.1's
// dtProximityGrid: same hash, same bucket chains, so queryItems returns the same ids in the same
// order). Items are axis-aligned boxes in (x, z) [Unit: wu] added to every cell they cover.
// Nothing allocates after init().
#pragma once

#include <cstdint>
#include <memory>

namespace nav {
namespace crowd {

class ProximityGrid {
public:
  ProximityGrid() = default;
  ProximityGrid(const ProximityGrid&) = delete;
  ProximityGrid& operator=(const ProximityGrid&) = delete;

  /// poolSize: max (item, cell) entries [Limit: 1..65535]; cellSize > 0 [Unit: wu].
  /// The bucket count is 4 x the next power of two >= poolSize. False on bad input / out of memory.
  bool init(int poolSize, float cellSize);
  /// Removes every item; bounds reset to an empty box.
  void clear();
  /// Adds id to the cells covering [minx, maxx] x [miny, maxy]; entries beyond the pool are dropped.
  void addItem(uint16_t id, float minx, float miny, float maxx, float maxy);
  /// Unique ids of the items in the cells covering the box, at most maxIds; returns the count.
  /// Not for concurrent calls on one grid (it marks the ids it lists in a shared scratch array).
  int queryItems(float minx, float miny, float maxx, float maxy, uint16_t* ids, int maxIds) const;
  /// Entries stored in the bucket of cell (x, y) that belong to that cell.
  int getItemCountAt(int x, int y) const;
  /// Cell bounds of everything added since clear() [minx, miny, maxx, maxy].
  const int* getBounds() const { return m_bounds; }
  float getCellSize() const { return m_cellSize; }

private:
  struct Item {
    uint16_t id;
    int16_t x, y;
    uint16_t next; ///< Next entry in the bucket, 0xffff = end.
  };

  float m_cellSize = 0;
  float m_invCellSize = 0;
  std::unique_ptr<Item[]> m_pool;
  int m_poolHead = 0;
  int m_poolSize = 0;
  std::unique_ptr<uint16_t[]> m_buckets;
  int m_bucketsSize = 0;
  int m_bounds[4] = {0, 0, 0, 0};
  /// queryItems' "already listed" marks: m_listed[id] == m_query for ids < poolSize (larger ids
  /// are looked up in the result list). [Size: m_poolSize]
  mutable std::unique_ptr<uint32_t[]> m_listed;
  mutable uint32_t m_query = 0;

  /// The entries again as a dense table over m_bounds, built by the first query after a change:
  /// cell (x, y) (relative to the bounds' corner, c = y * m_denseW + x) holds ids
  /// m_cellIds[m_cellStart[c + 1] .. m_cellStart[c + 2]), newest first like its chain. Off when the
  /// bounds hold more than m_denseCap cells or many more cells than entries, or leave 16 bits; the
  /// queries then walk the buckets.
  void buildDense() const;
  enum DenseState : uint8_t { DENSE_STALE, DENSE_ON, DENSE_OFF };
  mutable DenseState m_denseState = DENSE_STALE;
  mutable int m_denseW = 0;
  int m_denseCap = 0;
  std::unique_ptr<uint16_t[]> m_cellStart; ///< [m_denseCap + 2]
  std::unique_ptr<uint16_t[]> m_cellIds;   ///< [poolSize]
};

} // namespace crowd
} // namespace nav
