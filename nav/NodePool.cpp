#include "nav/NodePool.h"

#include <new>

namespace nav {

NodePool::~NodePool() { release(); }

void NodePool::release() {
  delete[] m_nodes;
  delete[] m_table;
  delete[] m_stamp;
  delete[] m_tileBase;
  delete[] m_tilePolys;
  m_nodes = nullptr;
  m_table = nullptr;
  m_stamp = nullptr;
  m_tileBase = nullptr;
  m_tilePolys = nullptr;
  m_direct = false;
  m_maxNodes = 0;
  m_count = 0;
  m_mask = 0;
  m_slotCount = 0;
  m_tileCount = 0;
}

bool NodePool::initDirect(const uint32_t* tileBase, const uint32_t* tilePolys, int tileCount, int polyBits,
                          int tileBits, int maxNodes) {
  if (!tileBase || !tilePolys || tileCount < 1 || maxNodes < 1 || polyBits < 1 || tileBits < 0 ||
      polyBits + tileBits > 31)
    return false;
  uint64_t slots = 0;
  for (int i = 0; i < tileCount; ++i) {
    const uint64_t end = (uint64_t(tileBase[i]) + tilePolys[i]) * MAX_STATES_PER_NODE;
    if (end > slots) slots = end;
  }
  if (slots >= UINT32_MAX || uint64_t(maxNodes) > slots + 1) return false;
  release();
  m_slotCount = size_t(slots ? slots : 1);
  m_nodes = new (std::nothrow) Node[size_t(maxNodes)];
  m_table = new (std::nothrow) uint32_t[m_slotCount];
  m_stamp = new (std::nothrow) uint32_t[m_slotCount]();
  m_tileBase = new (std::nothrow) uint32_t[size_t(tileCount)];
  m_tilePolys = new (std::nothrow) uint32_t[size_t(tileCount)];
  if (!m_nodes || !m_table || !m_stamp || !m_tileBase || !m_tilePolys) {
    release();
    return false;
  }
  for (int i = 0; i < tileCount; ++i) {
    m_tileBase[i] = tileBase[i];
    m_tilePolys[i] = tilePolys[i];
  }
  m_tileCount = uint32_t(tileCount);
  m_polyBits = uint32_t(polyBits);
  m_polyMask = (1u << polyBits) - 1;
  m_tileMask = tileBits ? (1u << tileBits) - 1 : 0;
  m_generation = 1;
  m_maxNodes = maxNodes;
  m_count = 0;
  m_direct = true;
  return true;
}

bool NodePool::init(int maxNodes) {
  if (maxNodes < 1 || maxNodes > 65535) return false;
  release();
  m_nodes = new (std::nothrow) Node[size_t(maxNodes)];
  // A bucket per 4 nodes (Detour's ratio): 512 buckets, 2 KB, for the default 2048 nodes.
  uint32_t tableSize = 2;
  uint32_t bits = 1;
  while (tableSize < uint32_t(maxNodes) / 4) {
    tableSize <<= 1;
    ++bits;
  }
  m_table = new (std::nothrow) uint32_t[tableSize]();
  if (!m_nodes || !m_table) {
    delete[] m_nodes;
    delete[] m_table;
    m_nodes = nullptr;
    m_table = nullptr;
    m_maxNodes = 0;
    return false;
  }
  m_mask = tableSize - 1;
  m_shift = 32 - bits;
  m_genHigh = 1u << 16; // the zeroed table holds generation 0: all empty
  m_maxNodes = maxNodes;
  m_count = 0;
  return true;
}

void NodePool::resetStamps() {
  if (m_direct) {
    for (size_t i = 0; i < m_slotCount; ++i) m_stamp[i] = 0;
    m_generation = 1;
  } else {
    for (uint32_t i = 0; m_table && i <= m_mask; ++i) m_table[i] = 0;
    m_genHigh = 1u << 16;
  }
}

Node* NodePool::findNode(PolyRef id, uint8_t state) const {
  if (!m_table) return nullptr;
  if (m_direct) {
    const uint32_t slot = directSlot(id, state);
    return slot != UINT32_MAX && m_stamp[slot] == m_generation ? &m_nodes[m_table[slot]] : nullptr;
  }
  uint32_t i = m_table[hash(id, state)] ^ m_genHigh;
  if (i > INDEX_MASK) return nullptr;
  while (i != NO_NODE) {
    Node* n = &m_nodes[i];
    if (n->id == id && n->state == state) return n;
    i = n->hashNext;
  }
  return nullptr;
}

int NodePool::findNodes(PolyRef id, Node** nodes, int maxNodes) const {
  Node* found[MAX_STATES_PER_NODE];
  int n = 0;
  for (int s = 0; s < MAX_STATES_PER_NODE; ++s)
    if (Node* node = findNode(id, uint8_t(s))) found[n++] = node;
  // Newest first (Detour's hash chains are newest first).
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && found[j] > found[j - 1]; --j) {
      Node* t = found[j];
      found[j] = found[j - 1];
      found[j - 1] = t;
    }
  int out = 0;
  for (int i = 0; i < n && out < maxNodes; ++i) nodes[out++] = found[i];
  return out;
}

size_t NodePool::memoryBytes() const {
  if (m_direct)
    return sizeof(Node) * size_t(m_maxNodes) + 2 * sizeof(uint32_t) * m_slotCount + 2 * sizeof(uint32_t) * m_tileCount;
  return m_table ? sizeof(Node) * size_t(m_maxNodes) + sizeof(uint32_t) * (m_mask + 1) : 0;
}

OpenList::~OpenList() {
  delete[] m_heap;
  delete[] m_pos;
}

bool OpenList::init(int capacity, Node* nodes) {
  if (capacity < 1 || !nodes) return false;
  delete[] m_heap;
  delete[] m_pos;
  m_heap = new (std::nothrow) Entry[size_t(capacity) + 1];
  m_pos = new (std::nothrow) uint32_t[size_t(capacity)]();
  if (!m_heap || !m_pos) {
    delete[] m_heap;
    delete[] m_pos;
    m_heap = nullptr;
    m_pos = nullptr;
    m_capacity = 0;
    return false;
  }
  m_nodes = nodes;
  m_capacity = capacity;
  m_size = 0;
  return true;
}

} // namespace nav
