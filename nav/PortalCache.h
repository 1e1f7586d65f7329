// PortalCache.h: portal points of polygon pairs, kept across calls for the string-pulling funnel
// (StraightPathFunnel.h) of the crowd's corridors and of the path follower. Internal to nav and
// nav_crowd.
#pragma once

#include "nav/NavMeshQuery.h"

#include <memory>

namespace nav {

/// Portal points (NavMeshQuery::getPortalPoints) of polygon pairs, remembered across calls: the
/// crowd shares one among its corridors (neighbouring agents walk the same portals, and an agent's
/// corridor changes little between updates); the path follower keeps one across its steps.
/// Direct-mapped [Size: a power of two]; everything is forgotten when the mesh's generation()
/// changes, so an entry is always what getPortalPoints would answer now. Only successful lookups
/// are kept (failures are asked again).
class PortalCache {
public:
  PortalCache() = default;
  PortalCache(const PortalCache&) = delete;
  PortalCache& operator=(const PortalCache&) = delete;

  struct Entry {
    PolyRef from, to; ///< from == 0: empty.
    float left[3], right[3];
    uint8_t toType;
  };

  /// Room for about `entries` portals [Limit: >= 1] (rounded up to a power of two), allocated here.
  bool init(int entries);
  /// The caller's storage [Size: count, a power of two; it outlives this cache]: no allocation.
  void initWith(Entry* storage, uint32_t count);
  /// As navquery->getPortalPoints(from, to, left, right, nullptr, toType).
  Status get(const NavMeshQuery* navquery, PolyRef from, PolyRef to, float* left, float* right, uint8_t* toType) {
    sync(navquery);
    return getSynced(navquery, from, to, left, right, toType);
  }
  /// Forgets everything when navquery's mesh, or its generation, changed since the last call.
  void sync(const NavMeshQuery* navquery);
  /// Forgets every entry: the next sync() empties the table.
  void clear();
  /// get() without the mesh check: for lookups right after sync() on the same navquery.
  Status getSynced(const NavMeshQuery* navquery, PolyRef from, PolyRef to, float* left, float* right,
                   uint8_t* toType) {
    if (!m_entries || !from || !m_nav) return miss(navquery, from, to, left, right, toType, nullptr);
    uint32_t h = from * 0x9E3779B1u ^ (to + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    Entry& e = m_entries[h & m_mask];
    if (e.from == from && e.to == to) {
      for (int k = 0; k < 3; ++k) {
        left[k] = e.left[k];
        right[k] = e.right[k];
      }
      *toType = e.toType;
      return SUCCESS;
    }
    return miss(navquery, from, to, left, right, toType, &e);
  }

private:
  /// Asks navquery and keeps a success in e (when given).
  Status miss(const NavMeshQuery* navquery, PolyRef from, PolyRef to, float* left, float* right, uint8_t* toType,
              Entry* e);
  std::unique_ptr<Entry[]> m_owned; // init(): the storage m_entries points to
  Entry* m_entries = nullptr;
  uint32_t m_mask = 0;
  const NavMesh* m_nav = nullptr;
  uint64_t m_generation = 0;
};

/// straightPathFunnel's portal source for a corridor, through a PortalCache (synced by the caller).
struct CachedCorridorPortals {
  const NavMeshQuery* q;
  PortalCache* cache;
  const PolyRef* path;
  Status get(int i, float* left, float* right, uint8_t* toType) {
    return cache->getSynced(q, path[i], path[i + 1], left, right, toType);
  }
};

} // namespace nav
