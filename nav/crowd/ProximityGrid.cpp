// ProximityGrid.cpp: see ProximityGrid.h.
#include "nav/crowd/ProximityGrid.h"

#include "nav/NavMath.h"
#include "nav/base/BitMath.h"

#include <cmath>
#include <cstring>
#include <new>

namespace nav {
namespace crowd {

namespace {

constexpr uint16_t END = 0xffff;
constexpr int DENSE_CELLS_PER_ENTRY = 32; ///< Most cells per entry for the dense table (see buildDense).

/// Spatial hash of cell (x, y) into n buckets (n a power of two); the products wrap as 32-bit ints.
inline int hashCell(int x, int y, int n) {
  return int(((uint32_t(x) * 73856093u) ^ (uint32_t(y) * 19349663u)) & uint32_t(n - 1));
}

} // namespace

bool ProximityGrid::init(int poolSize, float cellSize) {
  if (poolSize <= 0 || poolSize > 0xffff || !(cellSize > 0.0f) || !std::isfinite(cellSize)) return false;
  m_cellSize = cellSize;
  m_invCellSize = 1.0f / m_cellSize;

  // Four buckets per pool entry, so few chains mix cells and most cells of a query are an empty
  // bucket. The ids a query returns do not depend on the bucket count: a cell's entries keep their
  // newest-first order whichever other cells share their chain, and the cells are walked in order.
  m_bucketsSize = int(base::nextPow2(uint32_t(poolSize))) * 4;
  m_buckets.reset(new (std::nothrow) uint16_t[size_t(m_bucketsSize)]);
  m_pool.reset(new (std::nothrow) Item[size_t(poolSize)]);
  m_listed.reset(new (std::nothrow) uint32_t[size_t(poolSize)]());
  m_query = 0;
  m_denseCap = navMax(poolSize * 16, 1 << 16);
  m_cellStart.reset(new (std::nothrow) uint16_t[size_t(m_denseCap) + 2]);
  m_cellIds.reset(new (std::nothrow) uint16_t[size_t(poolSize)]);
  if (!m_buckets || !m_pool || !m_listed || !m_cellStart || !m_cellIds) {
    m_buckets.reset();
    m_pool.reset();
    m_listed.reset();
    m_cellStart.reset();
    m_cellIds.reset();
    m_bucketsSize = m_poolSize = m_denseCap = 0;
    return false;
  }
  m_poolSize = poolSize;
  m_poolHead = 0;
  std::memset(m_buckets.get(), 0xff, sizeof(uint16_t) * size_t(m_bucketsSize));
  clear();
  return true;
}

void ProximityGrid::clear() {
  // Only the buckets the pool's entries went to can be non-empty: those are emptied, not the table.
  // An entry's bucket is found again from its stored cell unless a cell did not fit in 16 bits.
  if (m_buckets && m_poolHead > 0) {
    if (m_bounds[0] >= -32768 && m_bounds[1] >= -32768 && m_bounds[2] <= 32767 && m_bounds[3] <= 32767) {
      for (int i = 0; i < m_poolHead; ++i) m_buckets[hashCell(m_pool[i].x, m_pool[i].y, m_bucketsSize)] = END;
    } else {
      std::memset(m_buckets.get(), 0xff, sizeof(uint16_t) * size_t(m_bucketsSize));
    }
  }
  m_poolHead = 0;
  m_denseState = DENSE_STALE;
  m_bounds[0] = 0xffff;
  m_bounds[1] = 0xffff;
  m_bounds[2] = -0xffff;
  m_bounds[3] = -0xffff;
}

void ProximityGrid::addItem(uint16_t id, float minx, float miny, float maxx, float maxy) {
  if (!m_pool) return;
  m_denseState = DENSE_STALE;
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

void ProximityGrid::buildDense() const {
  m_denseState = DENSE_OFF;
  // Exact only when every entry's cell fits its 16-bit copy (then a bucket's entry belongs to the
  // queried cell exactly when its cell is that cell), and within the table's room.
  if (m_poolHead == 0) return;
  if (m_bounds[0] < -32768 || m_bounds[1] < -32768 || m_bounds[2] > 32767 || m_bounds[3] > 32767) return;
  const int w = m_bounds[2] - m_bounds[0] + 1;
  const int h = m_bounds[3] - m_bounds[1] + 1;
  // The build walks every cell of the bounds: worth it while the cells are not many more than the
  // entries (a sparse crowd on a wide level keeps the buckets).
  const int64_t cells = int64_t(w) * int64_t(h);
  if (cells > int64_t(m_denseCap) || cells > int64_t(DENSE_CELLS_PER_ENTRY) * m_poolHead) return;
  const int ncells = w * h;
  // start[c + 1] counts cell c's entries, then holds the end of cell c; placing the entries oldest
  // first from each cell's end backwards leaves every cell newest first (its chain's order) and
  // start[c + 1] at the cell's beginning, so cell c is [start[c + 1], start[c + 2]).
  uint16_t* start = m_cellStart.get();
  std::memset(start, 0, sizeof(uint16_t) * size_t(ncells + 2));
  const Item* pool = m_pool.get();
  for (int i = 0; i < m_poolHead; ++i) start[(pool[i].y - m_bounds[1]) * w + (pool[i].x - m_bounds[0]) + 1]++;
  for (int c = 1; c <= ncells; ++c) start[c] = uint16_t(start[c] + start[c - 1]);
  start[ncells + 1] = uint16_t(m_poolHead);
  uint16_t* ids = m_cellIds.get();
  for (int i = 0; i < m_poolHead; ++i) {
    const int c = (pool[i].y - m_bounds[1]) * w + (pool[i].x - m_bounds[0]);
    ids[--start[c + 1]] = pool[i].id;
  }
  m_denseW = w;
  m_denseState = DENSE_ON;
}

int ProximityGrid::queryItems(float minx, float miny, float maxx, float maxy, uint16_t* ids, int maxIds) const {
  if (!m_pool) return 0;
  const int iminx = int(std::floor(minx * m_invCellSize));
  const int iminy = int(std::floor(miny * m_invCellSize));
  const int imaxx = int(std::floor(maxx * m_invCellSize));
  const int imaxy = int(std::floor(maxy * m_invCellSize));

  if (++m_query == 0) { // wrapped: forget the old marks
    std::memset(m_listed.get(), 0, sizeof(uint32_t) * size_t(m_poolSize));
    m_query = 1;
  }
  const uint32_t q = m_query;
  uint32_t* listed = m_listed.get();
  int n = 0;
  // Lists id unless listed already; false when the list is full.
  auto list = [&](uint16_t id) {
    if (id < m_poolSize) {
      if (listed[id] == q) return true; // already listed
      if (n >= maxIds) return false;
      listed[id] = q;
    } else {
      int k = 0;
      while (k < n && ids[k] != id) ++k;
      if (k < n) return true;
      if (n >= maxIds) return false;
    }
    ids[n++] = id;
    return true;
  };

  if (m_denseState == DENSE_STALE) buildDense();
  if (m_denseState == DENSE_ON) {
    // The same cells in the same order as below, without the ones outside the bounds (empty); a
    // row's cells are consecutive in the table.
    const int x0 = navMax(iminx, m_bounds[0]) - m_bounds[0];
    const int x1 = navMin(imaxx, m_bounds[2]) - m_bounds[0];
    const int y0 = navMax(iminy, m_bounds[1]) - m_bounds[1];
    const int y1 = navMin(imaxy, m_bounds[3]) - m_bounds[1];
    if (x0 > x1) return 0;
    const uint16_t* start = m_cellStart.get();
    const uint16_t* cellIds = m_cellIds.get();
    for (int y = y0; y <= y1; ++y) {
      const int end = start[y * m_denseW + x1 + 2];
      for (int k = start[y * m_denseW + x0 + 1]; k < end; ++k)
        if (!list(cellIds[k])) return n;
    }
    return n;
  }

  const uint16_t* buckets = m_buckets.get();
  const Item* pool = m_pool.get();
  const uint32_t mask = uint32_t(m_bucketsSize - 1);
  for (int y = iminy; y <= imaxy; ++y) {
    // hashCell(x, y) with the x product stepped along the row (the same wrapped 32-bit values).
    const uint32_t hy = uint32_t(y) * 19349663u;
    uint32_t hx = uint32_t(iminx) * 73856093u;
    for (int x = iminx; x <= imaxx; ++x, hx += 73856093u) {
      for (uint16_t idx = buckets[(hx ^ hy) & mask]; idx != END; idx = pool[idx].next) {
        const Item& item = pool[idx];
        // A bucket mixes cells; the stored cell is compared as the 16-bit values widened.
        if (int(item.x) != x || int(item.y) != y) continue;
        if (!list(item.id)) return n;
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
