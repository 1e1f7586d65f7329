#include "nav/NodePool.h"

#include <new>

namespace nav {

namespace {

// The search arrays start on a cache line: a 32-byte node then never straddles two lines, and
// sibling heap entries share one.
constexpr size_t CACHE_LINE = 64;

template <class T> T* allocLines(size_t n) {
  void* p = ::operator new(sizeof(T) * n, std::align_val_t(CACHE_LINE), std::nothrow);
  if (!p) return nullptr;
  T* t = static_cast<T*>(p);
  for (size_t i = 0; i < n; ++i) new (&t[i]) T();
  return t;
}

template <class T> void freeLines(T* p) {
  if (p) ::operator delete(p, std::align_val_t(CACHE_LINE));
}

} // namespace

NodePool::~NodePool() { release(); }

void NodePool::release() {
  freeLines(m_nodes);
  freeLines(m_keys);
  freeLines(m_table);
  freeLines(m_slots);
  delete[] m_tiles;
  m_nodes = nullptr;
  m_keys = nullptr;
  m_table = nullptr;
  m_slots = nullptr;
  m_tiles = nullptr;
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
  m_nodes = allocLines<Node>(size_t(maxNodes));
  m_slots = allocLines<Slot>(m_slotCount);
  m_tiles = new (std::nothrow) TileSlots[size_t(tileCount)];
  if (!m_nodes || !m_slots || !m_tiles) {
    release();
    return false;
  }
  for (int i = 0; i < tileCount; ++i) {
    m_tiles[i].base = tileBase[i];
    m_tiles[i].polys = tilePolys[i];
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
  m_nodes = allocLines<Node>(size_t(maxNodes));
  // 4 buckets per node: 8192 buckets, 32 KB, for the default 2048 nodes. Detour has one per 4
  // nodes; a full 2048-node search then walks chains of about 4 keys per lookup, and each walk's
  // exit is a mispredicted branch (world findPath 1.54x -> 1.77x Detour with 4 per node, 1.74x
  // with 2). Only the chain lengths change: a lookup finds the same node in any table.
  uint32_t tableSize = 2;
  uint32_t bits = 1;
  while (tableSize < uint32_t(maxNodes) * 4) {
    tableSize <<= 1;
    ++bits;
  }
  m_keys = allocLines<Key>(size_t(maxNodes));
  m_table = allocLines<uint32_t>(tableSize);
  if (!m_nodes || !m_keys || !m_table) {
    freeLines(m_nodes);
    freeLines(m_keys);
    freeLines(m_table);
    m_nodes = nullptr;
    m_keys = nullptr;
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
    for (size_t i = 0; i < m_slotCount; ++i) m_slots[i].stamp = 0;
    m_generation = 1;
  } else {
    for (uint32_t i = 0; m_table && i <= m_mask; ++i) m_table[i] = 0;
    m_genHigh = 1u << 16;
  }
}

Node* NodePool::findNode(PolyRef id, uint8_t state) const {
  if (m_direct) {
    const uint32_t slot = directSlot(id, state);
    return slot != UINT32_MAX && m_slots[slot].stamp == m_generation ? &m_nodes[m_slots[slot].node] : nullptr;
  }
  if (!m_table) return nullptr;
  uint32_t i = m_table[hash(id, state)] ^ m_genHigh;
  if (i > INDEX_MASK) return nullptr;
  for (; i != NO_NODE; i = m_keys[i].next)
    if (m_keys[i].id == id && m_keys[i].state == state) return &m_nodes[i];
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
  return m_table ? (sizeof(Node) + sizeof(Key)) * size_t(m_maxNodes) + sizeof(uint32_t) * (m_mask + 1) : 0;
}

OpenList::~OpenList() { release(); }

void OpenList::release() {
  freeLines(m_heap ? m_heap - 1 : nullptr);
  freeLines(m_pos);
  m_heap = nullptr;
  m_pos = nullptr;
  m_capacity = 0;
  m_size = 0;
}

bool OpenList::init(int capacity, Node* nodes) {
  if (capacity < 1 || !nodes) return false;
  release();
  // One spare entry in front: a node's two children (2i+1, 2i+2) then share a 16-byte block.
  Entry* heap = allocLines<Entry>(size_t(capacity) + 2);
  m_pos = allocLines<uint32_t>(size_t(capacity));
  if (!heap || !m_pos) {
    freeLines(heap);
    freeLines(m_pos);
    m_pos = nullptr;
    return false;
  }
  m_heap = heap + 1;
  m_nodes = nodes;
  m_capacity = capacity;
  m_size = 0;
  return true;
}

} // namespace nav
