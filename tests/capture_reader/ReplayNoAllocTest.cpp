// ReplayNoAllocTest.cpp: CaptureReplayer (app/model/CaptureReplay.h) allocates nothing per query
// once warmed: a second pass over a capture with varied node budgets, capacities and filters, stage
// by stage and from scratch, into the same answer, counts no heap allocation.
#include "app/model/CaptureReplay.h"
#include "tests/support/AllocCounter.h"
#include "tests/support/CaptureMaker.h"

#include <gtest/gtest.h>

#include <set>

TEST(CaptureReplayNoAlloc, AWarmedReplayerAllocatesNothingPerQuery) {
  nav::NavMesh mesh;
  std::string why;
  ASSERT_TRUE(capturetest::loadDefaultMesh(mesh, &why)) << why;
  const nav::Capture cap = capturetest::variedCapture(mesh, 60, 13);
  std::set<int> budgets;
  for (const nav::CapturedQuery& q : cap.queries) budgets.insert(q.maxNodes);
  ASSERT_GT(budgets.size(), 1u);
  ASSERT_LE(budgets.size(), size_t(navbench::kCaptureQueryPools));
  navbench::CaptureReplayer replayer;
  navbench::CaptureAnswer ours;
  for (const nav::CapturedQuery& q : cap.queries) { // warm: pools, scratch and answer capacities
    ASSERT_TRUE(replayer.run(mesh, q, ours));
    ASSERT_TRUE(replayer.runFresh(mesh, q, ours));
  }
  int differ = 0;
  navtest::startCountingAllocs();
  for (const nav::CapturedQuery& q : cap.queries) {
    replayer.run(mesh, q, ours);
    differ += navbench::firstDifference(q, ours, nullptr);
    replayer.runFresh(mesh, q, ours);
  }
  const long allocs = navtest::stopCountingAllocs();
  EXPECT_EQ(allocs, 0);
  EXPECT_EQ(differ, 0);
}
