// CaptureSessionTest.cpp: app/model/CaptureSession, the Captured queries panel's state without a
// window: a capture whose answers NavBench's nav made on the committed default.bin replays ok row
// by row; a planted difference shows as MISMATCH with its field; stale queries are not run; the
// replay re-runs only when the navmesh changes; the selection and its show request; the JSON the
// viewer's --dump-state holds (the game's path and NavBench's). The captures are NavBench's own
// answers recorded as a game records Detour's (tests/support/CaptureMaker.h).
#include "app/model/CaptureSession.h"

#include "TestCaseTestUtil.h"
#include "tests/support/DefaultLevelCapture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using navbench::CaptureOutcome;
using navbench::CaptureSession;
using navbench::testcase_test::kMeshPath;
using navbench::testcase_test::loadDefaultMesh;

const nav::NavMesh* defaultMesh() {
  static std::unique_ptr<nav::NavMesh> mesh = loadDefaultMesh();
  return mesh.get();
}

TEST(CaptureSession, OurOwnAnswersReplayOkRowByRow) {
  ASSERT_TRUE(defaultMesh()) << kMeshPath;
  nav::Capture cap = capturetest::defaultLevelCapture(*defaultMesh());
  ASSERT_EQ(cap.queries[0].path.size(), 29u) << "the committed case's corridor";
  ASSERT_TRUE(nav::statusDetail(cap.queries[1].pathStatus, nav::PARTIAL_RESULT)) << "8 nodes do not reach room D";
  ASSERT_LE(cap.queries[2].t, 1.0f) << "the ray hits the wall";

  CaptureSession s;
  EXPECT_FALSE(s.isOpen());
  s.open("three.nbcap", std::move(cap));
  EXPECT_TRUE(s.isOpen());
  EXPECT_EQ(s.path(), "three.nbcap");
  ASSERT_EQ(s.queries().size(), 3u);
  EXPECT_EQ(s.selected(), 0) << "the first query is selected on open";
  EXPECT_TRUE(s.showRequested()) << "... and shown";
  EXPECT_EQ(s.result(0), nullptr) << "not replayed yet";
  EXPECT_STREQ(navbench::captureRowLabel(s.result(0)), "-");
  EXPECT_TRUE(s.stale("mesh 1"));

  s.replay(*defaultMesh(), "mesh 1");
  EXPECT_FALSE(s.stale("mesh 1"));
  EXPECT_TRUE(s.stale("mesh 2")) << "another navmesh (or an edit): replay again";
  EXPECT_EQ(s.count(CaptureOutcome::Identical), 3);
  EXPECT_EQ(s.count(CaptureOutcome::Differs), 0);
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_NE(s.result(i), nullptr) << i;
    EXPECT_STREQ(navbench::captureRowLabel(s.result(i)), "ok") << i;
  }
  EXPECT_EQ(s.result(0)->ours.path, s.queries()[0].path);
  EXPECT_EQ(s.result(0)->ours.straight, s.queries()[0].straight);

  nlohmann::json j;
  s.toJson(j);
  EXPECT_EQ(j["ok"], 3);
  EXPECT_EQ(j["mismatch"], 0);
  ASSERT_EQ(j["queries"].size(), 3u);
  EXPECT_EQ(j["queries"][1]["note"], "tiny node budget");
  EXPECT_EQ(j["queries"][2]["kind"], "raycast");
  const nlohmann::json& sel = j["selectedQuery"];
  EXPECT_TRUE(sel["equal"].get<bool>());
  EXPECT_EQ(sel["game"], sel["ours"]) << "the game's corridor and straight path are NavBench's";
  EXPECT_EQ(sel["game"]["corridor"].size(), 29u);
  EXPECT_EQ(sel["game"]["straight"].size(), s.queries()[0].straight.size()) << "[(x, y, z) * corners], flat";
}

TEST(CaptureSession, APlantedDifferenceIsAMismatchNamingTheField) {
  ASSERT_TRUE(defaultMesh()) << kMeshPath;
  nav::Capture cap = capturetest::defaultLevelCapture(*defaultMesh());
  ASSERT_GE(cap.queries[0].straight.size(), 9u);
  cap.queries[0].straight[4] += 0.25f; // the second corner's y: the game "got" another straight path
  cap.queries[2].t *= 0.5f;             // and another hit
  CaptureSession s;
  s.open("planted.nbcap", std::move(cap));
  s.replay(*defaultMesh(), "mesh");
  EXPECT_EQ(s.count(CaptureOutcome::Differs), 2);
  EXPECT_EQ(s.count(CaptureOutcome::Identical), 1);
  EXPECT_STREQ(navbench::captureRowLabel(s.result(0)), "MISMATCH");
  EXPECT_EQ(s.result(0)->difference.field.rfind("straight", 0), 0u) << s.result(0)->difference.field;
  EXPECT_NE(s.result(0)->difference.game, s.result(0)->difference.ours);
  EXPECT_STREQ(navbench::captureRowLabel(s.result(1)), "ok");
  EXPECT_EQ(s.result(2)->difference.field, "t");

  nlohmann::json j;
  s.toJson(j);
  EXPECT_EQ(j["mismatch"], 2);
  EXPECT_EQ(j["queries"][0]["result"], "MISMATCH");
  EXPECT_EQ(j["queries"][0]["difference"]["field"], s.result(0)->difference.field);
  EXPECT_FALSE(j["queries"][1].contains("difference"));
  EXPECT_FALSE(j["selectedQuery"]["equal"].get<bool>());
  EXPECT_NE(j["selectedQuery"]["game"]["straight"], j["selectedQuery"]["ours"]["straight"]);
  EXPECT_EQ(j["selectedQuery"]["game"]["corridor"], j["selectedQuery"]["ours"]["corridor"]) << "the corridor is still the same";
}

TEST(CaptureSession, StaleQueriesAreNotReplayed) {
  ASSERT_TRUE(defaultMesh()) << kMeshPath;
  nav::Capture cap = capturetest::defaultLevelCapture(*defaultMesh());
  cap.queries[1].flags |= nav::CAPTURE_STALE;
  cap.queries[1].path.assign(3, 0xdeadbeefu); // refs that name nothing now: never looked at
  CaptureSession s;
  s.open("stale.nbcap", std::move(cap));
  s.replay(*defaultMesh(), "mesh");
  EXPECT_EQ(s.count(CaptureOutcome::Stale), 1);
  EXPECT_EQ(s.count(CaptureOutcome::Identical), 2);
  EXPECT_STREQ(navbench::captureRowLabel(s.result(1)), "stale");
  nlohmann::json j;
  s.toJson(j);
  EXPECT_EQ(j["stale"], 1);
  EXPECT_EQ(j["queries"][1]["result"], "stale");
}

TEST(CaptureSession, SelectionAndItsShowRequest) {
  ASSERT_TRUE(defaultMesh()) << kMeshPath;
  CaptureSession s;
  EXPECT_EQ(s.rowFrom(1), -1) << "no capture, no rows";
  EXPECT_EQ(s.selectedQuery(), nullptr);
  s.open("sel.nbcap", capturetest::defaultLevelCapture(*defaultMesh()));
  EXPECT_TRUE(s.takeShowRequest());
  EXPECT_FALSE(s.takeShowRequest()) << "taken once";
  EXPECT_EQ(s.rowFrom(+1), 1);
  EXPECT_EQ(s.rowFrom(-1), 0) << "clamped at the top";
  EXPECT_TRUE(s.select(2));
  EXPECT_TRUE(s.showRequested());
  EXPECT_EQ(s.selectedQuery(), &s.queries()[2]);
  EXPECT_EQ(s.rowFrom(+5), 2) << "clamped at the bottom";
  EXPECT_FALSE(s.select(3)) << "out of range";
  EXPECT_FALSE(s.select(-1));
  EXPECT_EQ(s.selected(), 2) << "unchanged";
  s.takeShowRequest();
  EXPECT_TRUE(s.select(1, false)) << "a scenario's selection";
  EXPECT_FALSE(s.showRequested()) << "brings its own tool state: nothing to show";

  s.setShowTool("A* Stepper");
  s.close();
  EXPECT_FALSE(s.isOpen());
  EXPECT_EQ(s.selected(), -1);
  EXPECT_TRUE(s.queries().empty());
  EXPECT_FALSE(s.stale("mesh")) << "nothing to replay";
  EXPECT_EQ(s.showTool(), "A* Stepper") << "the tool asked for stays for the next capture";
  nlohmann::json j;
  s.toJson(j);
  EXPECT_EQ(j["path"], "");
  EXPECT_FALSE(j.contains("selectedQuery"));
}

} // namespace
