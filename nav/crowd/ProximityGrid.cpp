// ProximityGrid.cpp: see ProximityGrid.h.
#include "nav/crowd/ProximityGrid.h"

#include "nav/NavMath.h"

#include <cmath>
#include <cstring>
#include <new>

namespace nav {
namespace crowd {

namespace {

constexpr uint16_t END = 0xffff;

/// Spatial hash of cell (x, y) into n buckets (n a power of two); the products wrap as 32-bit ints.
inline int hashCell(int x, int y, int n) {
  return int(((uint32_t(x) * 73856093u) ^ (uint32_t(y) * 19349663u)) & uint32_t(n - 1));
}

} // namespace

bool ProximityGrid::init(int poolSize, float cellSize) {
  if (poolSize <= 0 || poolSize > 0xffff || !(cellSize > 0.0f) || !std::isfinite(cellSize)) return false;
  m_cellSize = cellSize;
  m_invCellSize = 1.0f / m_cellSize;

  m_bucketsSize = int(nextPow2(uint32_t(poolSize)));
  m_buckets.reset(new (std::nothrow) uint16_t[size_t(m_bucketsSize)]);
  m_pool.reset(new (std::nothrow) Item[size_t(poolSize)]);
  if (!m_buckets || !m_pool) {
    m_buckets.reset();
    m_pool.reset();
    m_bucketsSize = m_poolSize = 0;
    return false;
  }
  m_poolSize = poolSize;
  clear();
  return true;
}

void ProximityGrid::clear() {
  if (m_buckets) std::memset(m_buckets.get(), 0xff, sizeof(uint16_t) * size_t(m_bucketsSize));
  m_poolHead = 0;
  m_bounds[0] = 0xffff;
  m_bounds[1] = 0xffff;
  m_bounds[2] = -0xffff;
  m_bounds[3] = -0xffff;
}

void ProximityGrid::addItem(uint16_t id, float minx, float miny, float maxx, float maxy) {
  if (!m_pool) return;
  const int iminx = int(std::floor(minx * m_invCellSize));
  const int iminy = int(std::floor(miny * m_invCellSize));
  const int imaxx = int(std::floor(maxx * m_invCellSize));
  const int imaxy = int(std::floor(maxy * m_invCellSize));

  m_bounds[0] = navMin(m_bounds[0], iminx);
  m_bounds[1] = navMin(m_bounds[1], iminy);
  m_bounds[2] = navMax(m_bounds[2], imaxx);
  m_bounds[3] = navMax(m_bounds[3], imaxy);

  // Each covered cell gets an entry pushed on its bucket's chain (newest first).
  for (int y = iminy; y <= imaxy; ++y) {
    for (int x = iminx; x <= imaxx; ++x) {
      if (m_poolHead >= m_poolSize) continue;
      const int h = hashCell(x, y, m_bucketsSize);
      const uint16_t idx = uint16_t(m_poolHead++);
      Item& item = m_pool[idx];
      item.x = int16_t(x);
      item.y = int16_t(y);
      item.id = id;
      item.next = m_buckets[h];
      m_buckets[h] = idx;
    }
  }
}

int ProximityGrid::queryItems(float minx, float miny, float maxx, float maxy, uint16_t* ids, int maxIds) const {
  if (!m_pool) return 0;
  const int iminx = int(std::floor(minx * m_invCellSize));
  const int iminy = int(std::floor(miny * m_invCellSize));
  const int imaxx = int(std::floor(maxx * m_invCellSize));
  const int imaxy = int(std::floor(maxy * m_invCellSize));

  int n = 0;
  for (int y = iminy; y <= imaxy; ++y) {
    for (int x = iminx; x <= imaxx; ++x) {
      const int h = hashCell(x, y, m_bucketsSize);
      for (uint16_t idx = m_buckets[h]; idx != END; idx = m_pool[idx].next) {
        const Item& item = m_pool[idx];
        // A bucket mixes cells; the stored cell is compared as the 16-bit values widened.
        if (int(item.x) != x || int(item.y) != y) continue;
        int k = 0;
        while (k < n && ids[k] != item.id) ++k;
        if (k < n) continue; // already listed
        if (n >= maxIds) return n;
        ids[n++] = item.id;
      }
    }
  }
  return n;
}

int ProximityGrid::getItemCountAt(int x, int y) const {
  if (!m_pool) return 0;
  int n = 0;
  const int h = hashCell(x, y, m_bucketsSize);
  for (uint16_t idx = m_buckets[h]; idx != END; idx = m_pool[idx].next) {
    const Item& item = m_pool[idx];
    if (int(item.x) == x && int(item.y) == y) n++;
  }
  return n;
}

} // namespace crowd
} // namespace nav
