#include "nav/NodePool.h"

#include <new>

namespace nav {

NodePool::~NodePool() {
  delete[] m_nodes;
  delete[] m_table;
}

bool NodePool::init(int maxNodes) {
  if (maxNodes < 1 || maxNodes > 65535) return false;
  delete[] m_nodes;
  delete[] m_table;
  m_nodes = new (std::nothrow) Node[size_t(maxNodes)];
  uint32_t tableSize = 1;
  uint32_t bits = 0;
  while (tableSize < uint32_t(maxNodes) * 2) {
    tableSize <<= 1;
    ++bits;
  }
  if (bits < 1) {
    tableSize = 2;
    bits = 1;
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
  m_maxNodes = maxNodes;
  m_count = 0;
  return true;
}

void NodePool::clear() {
  for (int i = 0; i < m_count; ++i) m_table[m_nodes[i].hashSlot] = 0;
  m_count = 0;
}

Node* NodePool::findNode(PolyRef id, uint8_t state) const {
  if (!m_table) return nullptr;
  uint32_t h = hash(id, state);
  for (;;) {
    const uint32_t s = m_table[h];
    if (!s) return nullptr;
    Node* n = &m_nodes[s - 1];
    if (n->id == id && n->state == state) return n;
    h = (h + 1) & m_mask;
  }
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

size_t NodePool::memoryBytes() const { return sizeof(Node) * size_t(m_maxNodes) + sizeof(uint32_t) * (m_mask + 1); }

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
