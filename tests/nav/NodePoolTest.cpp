// NodePoolTest.cpp: the node pool forgets everything on clear(), including across the wrap of its
// generation counter (hash mode: a full reset once every 65,536 clears), and runs out of room
// exactly at maxNodes, as Detour's pool does.
#include "nav/NodePool.h"

#include <gtest/gtest.h>

namespace {

TEST(NodePool, FullAtMaxNodesAndNodesAreFoundAgain) {
  nav::NodePool pool;
  ASSERT_TRUE(pool.init(8));
  for (nav::PolyRef id = 1; id <= 8; ++id) ASSERT_NE(pool.getNode(id), nullptr) << id;
  EXPECT_EQ(pool.getNode(9), nullptr) << "a ninth node in an 8-node pool";
  for (nav::PolyRef id = 1; id <= 8; ++id) {
    nav::Node* n = pool.findNode(id, 0);
    ASSERT_NE(n, nullptr) << id;
    EXPECT_EQ(n->id, id);
    EXPECT_EQ(pool.getNode(id), n) << "the same node, not a new one";
  }
  EXPECT_EQ(pool.getNodeCount(), 8);
  EXPECT_EQ(pool.findNode(1, 1), nullptr) << "another state is another node";
}

// Every clear() forgets the nodes of the queries before, through 70,000 clears: the hash mode's
// generation (16 bits in each bucket) wraps after 65,535 of them, when a bucket untouched since a
// query 65,536 clears back would name that query's node again unless the pool resets.
TEST(NodePool, ClearForgetsEverythingAcrossTheGenerationWrap) {
  nav::NodePool pool;
  ASSERT_TRUE(pool.init(2048));
  pool.clear();
  const nav::PolyRef farBase = 1000000; // 1000 nodes in many buckets, left alone afterwards
  for (nav::PolyRef k = 0; k < 1000; ++k) ASSERT_NE(pool.getNode(farBase + k), nullptr);
  int stale = 0, missing = 0;
  for (int q = 1; q < 70000; ++q) {
    pool.clear();
    const nav::PolyRef prev = nav::PolyRef((q + 1) % 3 + 1), cur = nav::PolyRef(q % 3 + 1); // few buckets
    if (pool.findNode(prev, 0) || pool.getNodeCount() != 0) ++stale;
    const bool nearWrap = q > 65530 && q < 65545;
    for (nav::PolyRef k = 0; k < (nearWrap ? 1000u : 8u); ++k)
      if (pool.findNode(farBase + k, 0)) ++stale;
    nav::Node* n = pool.getNode(cur);
    if (!n || n->id != cur || pool.findNode(cur, 0) != n || pool.getNodeCount() != 1) ++missing;
  }
  EXPECT_EQ(stale, 0) << "nodes of an earlier query seen after clear()";
  EXPECT_EQ(missing, 0) << "a node added after clear() not found";
}

} // namespace
