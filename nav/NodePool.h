// NodePool.h: the search nodes and the open list of the graph queries (findPath & co.).
//
// A node is one (polygon, state) pair: findPath gives a tile-border polygon one node per crossing
// side (state 0..3) so it can be reached from two sides, like Detour. The pool is a fixed array
// sized at init plus a chained hash: a bucket array (4 buckets a node, 4 bytes a bucket, so chains
// are short and their walks rarely mispredict) whose entries carry the pool's generation, so clear() is O(1) (a new
// generation makes every bucket stale), and the chains run through a key array beside the nodes
// (id, state and next: 8 bytes a node), so a walk past other polygons' nodes reads no node line
// (on long searches the nodes outgrow L1). The open list is a binary min-heap on Node::total that stores each node's heap
// index, so decrease-key is O(log n) instead of Detour's linear search. Its push/pop/modify
// follow the same sift order as Detour's dtNodeQueue, so equal totals are popped in the same order
// and searches visit polygons in exactly Detour's order.
#pragma once

#include "nav/NavTypes.h"

#include <cstddef>
#include <cstdint>

namespace nav {

/// Node::flags bits.
enum NodeFlags : uint8_t {
  NODE_OPEN = 0x01,             ///< In the open list.
  NODE_CLOSED = 0x02,           ///< Expanded.
  NODE_PARENT_DETACHED = 0x04,  ///< Parent is not adjacent (any-angle raycast shortcut).
};

/// Max states per polygon (crossing sides) a pool keeps apart.
constexpr int MAX_STATES_PER_NODE = 4;

/// One search node. Read-only for callers (see NavMeshQuery::searchView).
struct Node {
  float pos[3];        ///< Where the search enters the polygon (edge midpoint; start pos for the start node). [Unit: wu]
  float cost;          ///< Cost from the start to pos (g).
  float total;         ///< cost + heuristic (f); for the circle searches: cost only.
  uint32_t parent;     ///< Parent node index + 1; 0 = no parent.
  PolyRef id;          ///< The polygon.
  uint8_t state;       ///< Crossing side state (0..MAX_STATES_PER_NODE-1).
  uint8_t flags;       ///< NodeFlags.
  uint16_t reserved;   ///< Padding to 32 bytes (a node then never straddles two cache lines).
};

class NodePool {
public:
  NodePool() = default;
  ~NodePool();
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;

  /// Allocates room for maxNodes nodes [Limit: 1..65535]. False on bad size. Hash mode (Detour's).
  bool init(int maxNodes);
  /// Direct mode ("scale with the mesh"): a slot per (polygon, state) indexed straight from the
  /// ref, slot = (tileBase[tile] + poly) * MAX_STATES_PER_NODE + state, each slot stamped with a
  /// generation so clear() is O(1) (nothing is cleared per query). tileBase/tilePolys: per tile
  /// index [Size: tileCount], the first poly slot and the poly count of that tile when the pool
  /// was sized; a ref outside them gets no node (null, like a full pool). maxNodes = room for
  /// distinct (poly, state) nodes [Limit: >= 1]. polyBits/tileBits: the mesh's ref layout.
  bool initDirect(const uint32_t* tileBase, const uint32_t* tilePolys, int tileCount, int polyBits,
                  int tileBits, int maxNodes);
  /// True in direct mode.
  bool isDirect() const { return m_direct; }
  /// Forgets all nodes: O(1), a new generation (a full reset once every 2^16 / 2^32 clears).
  void clear() {
    m_count = 0;
    if (m_direct) {
      if (++m_generation == 0) resetStamps();
    } else {
      m_genHigh += 1u << 16;
      if (m_genHigh == 0) resetStamps();
    }
  }

  /// The node of (id, state), created (zeroed, id/state set) if new; null when the pool is full.
  Node* getNode(PolyRef id, uint8_t state = 0) {
    if (m_direct) return getNodeDirect(id, state);
    const uint32_t b = hash(id, state);
    uint32_t head = m_table[b] ^ m_genHigh;
    if (head > INDEX_MASK) head = NO_NODE; // empty or from an older generation
    for (uint32_t i = head; i != NO_NODE; i = m_keys[i].next)
      if (m_keys[i].id == id && m_keys[i].state == state) return &m_nodes[i];
    if (m_count >= m_maxNodes) return nullptr;
    m_table[b] = m_genHigh | uint32_t(m_count);
    m_keys[m_count] = Key{id, uint16_t(head), state, 0};
    Node* n = newNode(id, state);
    return n;
  }
  /// The node of (id, state) if it exists.
  Node* findNode(PolyRef id, uint8_t state) const;
  /// All nodes of polygon id (any state), newest first, up to maxNodes. Returns their number.
  int findNodes(PolyRef id, Node** nodes, int maxNodes) const;

  /// Index + 1 of a node (0 for null): the value stored in Node::parent.
  uint32_t getNodeIdx(const Node* n) const { return n ? uint32_t(n - m_nodes) + 1 : 0; }
  Node* getNodeAtIdx(uint32_t idx) const { return idx ? &m_nodes[idx - 1] : nullptr; }
  /// getNodeIdx / getNodeAtIdx for a node / an index known not to be null (the search loops).
  uint32_t nodeIdx(const Node* n) const { return uint32_t(n - m_nodes) + 1; }
  Node* nodeAtIdx(uint32_t idx) const { return &m_nodes[idx - 1]; }

  int getNodeCount() const { return m_count; }
  int getMaxNodes() const { return m_maxNodes; }
  /// Node i (0 <= i < getNodeCount()), in creation order.
  const Node& nodeAt(int i) const { return m_nodes[i]; }
  /// The node array (for the open list, which refers to nodes by index).
  Node* nodes() const { return m_nodes; }
  size_t memoryBytes() const;

private:
  /// Hash mode: a bucket is (generation << 16) | index of its newest node (maxNodes <= 65535, so
  /// indices stay below NO_NODE).
  static constexpr uint32_t INDEX_MASK = 0xffff;
  static constexpr uint32_t NO_NODE = 0xffff;

  Node* newNode(PolyRef id, uint8_t state) {
    Node* n = &m_nodes[m_count++];
    *n = Node{{0.0f, 0.0f, 0.0f}, 0.0f, 0.0f, 0, id, state, 0, 0};
    return n;
  }
  uint32_t hash(PolyRef id, uint8_t state) const {
    return ((id ^ (uint32_t(state) << 29)) * 0x9E3779B1u) >> m_shift;
  }
  /// Direct-mode slot of (id, state), or UINT32_MAX when the ref is outside the sized tiles.
  uint32_t directSlot(PolyRef id, uint8_t state) const {
    const uint32_t it = (id >> m_polyBits) & m_tileMask;
    const uint32_t ip = id & m_polyMask;
    if (it >= m_tileCount) return UINT32_MAX;
    const TileSlots ts = m_tiles[it];
    if (ip >= ts.polys || state >= MAX_STATES_PER_NODE) return UINT32_MAX;
    return (ts.base + ip) * MAX_STATES_PER_NODE + state;
  }
  Node* getNodeDirect(PolyRef id, uint8_t state) {
    const uint32_t slot = directSlot(id, state);
    if (slot == UINT32_MAX) return nullptr;
    Slot& s = m_slots[slot];
    if (s.stamp == m_generation) return &m_nodes[s.node];
    if (m_count >= m_maxNodes) return nullptr;
    s.stamp = m_generation;
    s.node = uint32_t(m_count);
    return newNode(id, state);
  }
  void release();
  /// clear() after its generation wrapped: old entries could alias the new generation.
  void resetStamps();

  /// Direct mode: a (polygon, state) slot; the stamp and the index share a cache line.
  struct Slot {
    uint32_t stamp; // generation when node was set
    uint32_t node;  // node index
  };

  /// Hash mode: a node's key and chain link, apart from the nodes so a chain walk reads 8 bytes
  /// a node (2048 nodes: 16 KB) instead of each node's line.
  struct Key {
    PolyRef id;
    uint16_t next; // next node in the bucket's chain, NO_NODE = none
    uint8_t state;
    uint8_t pad;
  };

  Node* m_nodes = nullptr;
  Key* m_keys = nullptr;       // hash mode, per node
  uint32_t* m_table = nullptr; // hash mode: buckets, m_genHigh | node index
  uint32_t m_genHigh = 1u << 16; // hash mode: the generation in an entry's high 16 bits
  uint32_t m_mask = 0;
  uint32_t m_shift = 32;
  int m_maxNodes = 0;
  int m_count = 0;
  // Direct mode.
  bool m_direct = false;
  Slot* m_slots = nullptr;
  /// Direct mode, per tile index: the first poly slot and the poly count (read together).
  struct TileSlots {
    uint32_t base;
    uint32_t polys;
  };
  TileSlots* m_tiles = nullptr;
  uint32_t m_tileCount = 0;
  uint32_t m_polyBits = 0, m_polyMask = 0, m_tileMask = 0;
  uint32_t m_generation = 1;
  size_t m_slotCount = 0;
};

/// Binary min-heap of a pool's nodes on Node::total with decrease-key. Entries hold the total
/// and the node's pool index (8 bytes, so sifting touches no node); a side array keeps each node's
/// heap position for modify().
class OpenList {
public:
  /// One heap entry: the node's total and its index in the pool (NodePool::nodeAt).
  struct Entry {
    float total;
    uint32_t node;
  };

  OpenList() = default;
  ~OpenList();
  OpenList(const OpenList&) = delete;
  OpenList& operator=(const OpenList&) = delete;

  /// capacity = the pool's max nodes; nodes = the pool's node array (NodePool::nodes()).
  bool init(int capacity, Node* nodes);
  void clear() { m_size = 0; }
  bool empty() const { return m_size == 0; }
  int size() const { return m_size; }
  int capacity() const { return m_capacity; }

  void push(Node* node) {
    ++m_size;
    bubbleUp(m_size - 1, uint32_t(node - m_nodes), node->total);
  }
  Node* pop() {
    Node* result = &m_nodes[m_heap[0].node];
    --m_size;
    const Entry last = m_heap[m_size];
    trickleDown(0, last.node, last.total);
    return result;
  }
  /// Re-sorts a node whose total decreased.
  void modify(Node* node) {
    const uint32_t idx = uint32_t(node - m_nodes);
    bubbleUp(int(m_pos[idx]), idx, node->total);
  }

  /// Heap array order (entry 0 is the next node to pop).
  const Entry* entries() const { return m_heap; }
  /// Heap position of an open node.
  int positionOf(const Node* node) const { return int(m_pos[node - m_nodes]); }

private:
  // Unsigned positions (a shift, not a signed division, per level) and the parent entry read
  // once; the same moves as Detour's dtNodeQueue.
  void bubbleUp(int start, uint32_t node, float total) {
    uint32_t i = uint32_t(start);
    while (i > 0) {
      const uint32_t parent = (i - 1) >> 1;
      const Entry p = m_heap[parent];
      if (!(p.total > total)) break;
      m_heap[i] = p;
      m_pos[p.node] = i;
      i = parent;
    }
    m_heap[i].total = total;
    m_heap[i].node = node;
    m_pos[node] = i;
  }
  // Moves the hole at i down to a leaf along the smaller children (the left one on ties), then
  // bubbles the node up from there (the same order as Detour's dtNodeQueue, so ties pop
  // identically).
  void trickleDown(int start, uint32_t node, float total) {
    const uint32_t size = uint32_t(m_size);
    uint32_t i = uint32_t(start);
    uint32_t child = i * 2 + 1;
    while (child + 1 < size) {
      child += m_heap[child].total > m_heap[child + 1].total ? 1u : 0u;
      const Entry c = m_heap[child];
      m_heap[i] = c;
      m_pos[c.node] = i;
      i = child;
      child = i * 2 + 1;
    }
    if (child < size) { // a last node with a single child
      const Entry c = m_heap[child];
      m_heap[i] = c;
      m_pos[c.node] = i;
      i = child;
    }
    bubbleUp(int(i), node, total);
  }

  void release();

  Entry* m_heap = nullptr;
  uint32_t* m_pos = nullptr; // heap position per pool index
  Node* m_nodes = nullptr;
  int m_capacity = 0;
  int m_size = 0;
};

} // namespace nav
