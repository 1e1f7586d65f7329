#include "nav/PortalCache.h"

#include "nav/NavMath.h"
#include "nav/base/BitMath.h"

#include <cstring>
#include <new>

namespace nav {

bool PortalCache::init(int entries) {
  if (entries < 1) return false;
  const uint32_t n = base::nextPow2(uint32_t(entries));
  m_owned.reset(new (std::nothrow) Entry[n]());
  if (!m_owned) {
    m_entries = nullptr;
    m_mask = 0;
    return false;
  }
  initWith(m_owned.get(), n);
  return true;
}

void PortalCache::initWith(Entry* storage, uint32_t count) {
  m_entries = storage;
  m_mask = count - 1;
  m_nav = nullptr; // the first sync() empties the table
  m_generation = 0;
}

void PortalCache::clear() { m_nav = nullptr; }

void PortalCache::sync(const NavMeshQuery* navquery) {
  const NavMesh* nav = navquery->getAttachedNavMesh();
  if (!m_entries) return;
  if (!nav) {
    m_nav = nullptr;
    return;
  }
  if (nav != m_nav || nav->generation() != m_generation) {
    std::memset(static_cast<void*>(m_entries), 0, sizeof(Entry) * (size_t(m_mask) + 1));
    m_nav = nav;
    m_generation = nav->generation();
  }
}

Status PortalCache::miss(const NavMeshQuery* navquery, PolyRef from, PolyRef to, float* left, float* right,
                         uint8_t* toType, Entry* e) {
  const Status st = navquery->getPortalPoints(from, to, left, right, nullptr, toType);
  if (e && statusSucceeded(st)) {
    e->from = from;
    e->to = to;
    vcopy(e->left, left);
    vcopy(e->right, right);
    e->toType = *toType;
  }
  return st;
}

} // namespace nav
