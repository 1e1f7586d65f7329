// QueryFilter.h: which polygons a query may visit and what crossing them costs (seed 001).
//
// With the defaults (include all flags, exclude none, area costs 1, entering costs 0, heuristic
// scale 0.999) every query gives Detour's dtQueryFilter answers bit for bit. Beyond Detour, as
// Unreal does: a fixed cost charged when a path enters a different area, and a heuristic scale per
// query (0 turns findPath's A* into Dijkstra).
//
// Custom behaviour goes through two optional plain function pointers (no virtual call, and only one
// predictable branch on the default path): PassFn replaces the flag test, CostFn replaces the cost
// of one segment.
#pragma once

#include "nav/NavMath.h"
#include "nav/NavMesh.h"

namespace nav {

class QueryFilter {
public:
  /// Replaces passFilter's flag test. `user` is QueryFilter::userData.
  using PassFn = bool (*)(const QueryFilter& filter, PolyRef ref, const MeshTile* tile, const Poly* poly);
  /// Replaces getCost. pa/pb: segment end points inside `cur` [(x, y, z)]; prev/next may be null.
  using CostFn = float (*)(const QueryFilter& filter, const float* pa, const float* pb,
                           PolyRef prevRef, const MeshTile* prevTile, const Poly* prevPoly,
                           PolyRef curRef, const MeshTile* curTile, const Poly* curPoly,
                           PolyRef nextRef, const MeshTile* nextTile, const Poly* nextPoly);

  /// Detour's H_SCALE.
  static constexpr float DEFAULT_HEURISTIC_SCALE = 0.999f;

  QueryFilter() {
    for (int i = 0; i < MAX_AREAS; ++i) {
      m_areaCost[i] = 1.0f;
      m_enterCost[i] = 0.0f;
    }
  }

  /// passFilter's flag test with the filter's flags copied: the search loops keep it in registers
  /// (their stores to node and byte arrays could alias the filter and force reloads). Bitwise,
  /// so the test is one branch at the caller.
  struct FlagTest {
    uint16_t include, exclude;
    bool passes(uint16_t flags) const { return ((flags & include) != 0) & ((flags & exclude) == 0); }
  };
  FlagTest flagTest() const { return FlagTest{m_includeFlags, m_excludeFlags}; }

  /// True if the polygon may be visited: (flags & include) != 0 && (flags & exclude) == 0.
  __attribute__((always_inline)) bool passFilter(PolyRef ref, const MeshTile* tile, const Poly* poly) const {
    if (m_passFn) return m_passFn(*this, ref, tile, poly);
    return flagTest().passes(poly->flags);
  }

  /// Cost of moving pa -> pb inside `curPoly`: distance * areaCost[cur area], plus the entering
  /// cost of next's area when next is a different area. [Unit: cost]
  float getCost(const float* pa, const float* pb, PolyRef prevRef, const MeshTile* prevTile, const Poly* prevPoly,
                PolyRef curRef, const MeshTile* curTile, const Poly* curPoly, PolyRef nextRef,
                const MeshTile* nextTile, const Poly* nextPoly) const {
    if (m_costFn)
      return m_costFn(*this, pa, pb, prevRef, prevTile, prevPoly, curRef, curTile, curPoly, nextRef, nextTile, nextPoly);
    const uint8_t area = curPoly->getArea();
    float c = vdist(pa, pb) * m_areaCost[area];
    if (m_hasEnterCost && nextPoly) {
      const uint8_t nextArea = nextPoly->getArea();
      if (nextArea != area) c += m_enterCost[nextArea];
    }
    return c;
  }

  float getAreaCost(int area) const { return m_areaCost[area]; }
  void setAreaCost(int area, float cost) { m_areaCost[area] = cost; }
  /// Fixed cost added when a path moves from another area into `area`. [Limit: >= 0 keeps A* admissible]
  float getAreaEnterCost(int area) const { return m_enterCost[area]; }
  void setAreaEnterCost(int area, float cost) {
    m_enterCost[area] = cost;
    m_hasEnterCost = false;
    for (int i = 0; i < MAX_AREAS; ++i)
      if (m_enterCost[i] != 0.0f) m_hasEnterCost = true;
  }
  uint16_t getIncludeFlags() const { return m_includeFlags; }
  void setIncludeFlags(uint16_t f) { m_includeFlags = f; }
  uint16_t getExcludeFlags() const { return m_excludeFlags; }
  void setExcludeFlags(uint16_t f) { m_excludeFlags = f; }
  /// Weight of the straight-line distance estimate in findPath. 0.999 = Detour; 0 = Dijkstra.
  float getHeuristicScale() const { return m_heuristicScale; }
  void setHeuristicScale(float s) { m_heuristicScale = s; }

  /// True when no hook and no entering cost is set: then passFilter is the flag test and getCost
  /// is distance * area cost, which the queries inline.
  bool isPlain() const { return !m_passFn && !m_costFn && !m_hasEnterCost; }
  /// The area cost table [Size: MAX_AREAS].
  const float* areaCosts() const { return m_areaCost; }

  void setPassFn(PassFn fn) { m_passFn = fn; }
  void setCostFn(CostFn fn) { m_costFn = fn; }
  PassFn passFn() const { return m_passFn; }
  CostFn costFn() const { return m_costFn; }
  /// Free for the hooks' use.
  void* userData = nullptr;

private:
  float m_areaCost[MAX_AREAS];
  float m_enterCost[MAX_AREAS];
  uint16_t m_includeFlags = 0xffff;
  uint16_t m_excludeFlags = 0;
  bool m_hasEnterCost = false;
  float m_heuristicScale = DEFAULT_HEURISTIC_SCALE;
  PassFn m_passFn = nullptr;
  CostFn m_costFn = nullptr;
};

} // namespace nav
