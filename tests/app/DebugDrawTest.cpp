// DebugDraw batching without a GL context: runs are grouped by (type, size, depth test),
// incomplete primitives are dropped, flush without GL empties the batches.
#include "render/DebugDraw.h"

#include <gtest/gtest.h>

TEST(DebugDraw, BatchesAndDropsIncompletePrimitives) {
  render::DebugDraw dd;
  EXPECT_EQ(dd.queuedVertices(), 0);
  dd.begin(render::Prim::Lines, 2.0f);
  for (int i = 0; i < 5; ++i) dd.vertex(float(i), 0, 0, render::rgba(255, 0, 0));
  dd.end();
  EXPECT_EQ(dd.queuedVertices(), 4); // two whole lines; the fifth vertex is dropped
  dd.begin(render::Prim::Tris);
  for (int i = 0; i < 7; ++i) dd.vertex(0, float(i), 0, render::rgba(0, 255, 0, 128));
  dd.end();
  EXPECT_EQ(dd.queuedVertices(), 4 + 6);
  dd.point(glm::vec3(1, 2, 3), render::rgba(0, 0, 255));
  dd.cross(glm::vec3(0), 1.0f, render::rgba(255, 255, 255));
  dd.wireBox(glm::vec3(0), glm::vec3(1), render::rgba(255, 255, 255), 1.0f, false);
  dd.circle(glm::vec3(0), 1.0f, render::rgba(255, 255, 255), 1.0f, true, 16);
  EXPECT_EQ(dd.queuedVertices(), 10 + 1 + 6 + 24 + 32);
  dd.flush(glm::mat4(1.0f), glm::vec2(100, 100)); // not initialised: nothing drawn, batches emptied
  EXPECT_EQ(dd.queuedVertices(), 0);
  EXPECT_EQ(dd.lastDrawCalls(), 0);
}

TEST(DebugDraw, Colours) {
  EXPECT_EQ(render::rgba(1, 2, 3, 4), 0x04030201u);
  EXPECT_EQ(render::rgbaf(1.0f, 0.0f, 0.5f), render::rgba(255, 0, 128, 255));
  EXPECT_EQ(render::withAlpha(render::rgba(9, 8, 7, 255), 10), render::rgba(9, 8, 7, 10));
}
