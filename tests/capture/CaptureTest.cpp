// CaptureTest.cpp: the capture header seen from NavBench. The "game" (CaptureGame.cpp: Debian's
// Detour and capture/navbench_capture.h only) captures queries on several levels; every file is
// loaded with nav::loadCaptureFile and each field compared with what the game's own Detour calls
// returned (floats bit for bit), nav::saveCapture of what was loaded must give the file's bytes,
// and `navbench replay` must call every query identical.
#include "CaptureGame.h"
#include "DualMesh.h"
#include "navbench_capture.h"
#include "tests/support/DetourTileSet.h"

#include "nav/CaptureFile.h"
#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "tests/support/Process.h"
#ifdef NAVBENCH_REPLAY_MODEL
#include "app/model/CaptureReplay.h"
#endif

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

bool sameBits(const float* a, const float* b, int n) {
  return n <= 0 || std::memcmp(a, b, sizeof(float) * size_t(n)) == 0; // empty vectors' data() may be null
}

/// The viewer's environment: headless; in sanitizer builds no leak check (Mesa's GL driver leaks at
/// exit, as in tests/app).
const std::string kViewerEnv = "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 SDL_VIDEODRIVER=offscreen ";

/// The tile set a level's captures run on: the project's default.bin as it is, or a level baked
/// tiled with random areas, flags and off-mesh links (tests/query's DualMesh) written as a .bin.
/// "" with *skip set when a shared level is absent; "" with *why set when the bake fails.
std::string levelMesh(const std::string& level, const std::string& dir, std::string* skip, std::string* why) {
  if (level == "default.bin") return std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";
  const std::string obj = querytest::levelPath(level);
  if (obj.empty()) {
    *skip = querytest::sharedLevelMissing(level);
    return "";
  }
  const querytest::DualMesh* dual = querytest::loadDual(obj, true, true, why);
  if (!dual) return "";
  const std::string bin = dir + "/" + level + ".bin";
  if (nav::statusFailed(nav::saveTileSetFile(dual->nav, bin, why))) return "";
  return bin;
}

/// Every field of a loaded query against the game's log; failures name the file and the query.
void expectSame(const nav::CapturedQuery& q, const capgame::Answer& a, const std::string& where) {
  SCOPED_TRACE(where);
  EXPECT_EQ(int(q.kind), a.kind);
  EXPECT_EQ(int(q.flags), a.flags);
  EXPECT_EQ(q.note, a.note);
  EXPECT_EQ(q.includeFlags, a.includeFlags);
  EXPECT_EQ(q.excludeFlags, a.excludeFlags);
  EXPECT_TRUE(sameBits(q.areaCost, a.areaCost, 64));
  EXPECT_EQ(q.maxNodes, a.maxNodes);
  EXPECT_TRUE(sameBits(q.start, a.start, 3));
  EXPECT_TRUE(sameBits(q.end, a.end, 3));
  EXPECT_TRUE(sameBits(q.halfExtents, a.halfExtents, 3));
  const nav::CapturedNearest* n[2] = {&q.nearestStart, &q.nearestEnd};
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(n[k]->status, a.nearestStatus[k]) << "nearest " << k;
    EXPECT_EQ(n[k]->ref, a.nearestRef[k]) << "nearest " << k;
    EXPECT_TRUE(sameBits(n[k]->pt, a.nearestPt[k], 3)) << "nearest " << k;
  }
  EXPECT_EQ(q.path, a.path);
  EXPECT_EQ(q.maxPath, a.maxPath);
  if (a.kind == 0) {
    EXPECT_TRUE(sameBits(q.pathStart, a.pathStart, 3));
    EXPECT_TRUE(sameBits(q.pathEnd, a.pathEnd, 3));
    EXPECT_EQ(q.pathStatus, a.pathStatus);
    EXPECT_TRUE(sameBits(q.straightEnd, a.straightEnd, 3));
    EXPECT_EQ(q.straightOptions, a.straightOptions);
    EXPECT_EQ(q.maxStraight, a.maxStraight);
    EXPECT_EQ(q.straightStatus, a.straightStatus);
    ASSERT_EQ(q.straight.size(), a.straight.size());
    EXPECT_TRUE(sameBits(q.straight.data(), a.straight.data(), int(a.straight.size())));
    EXPECT_EQ(q.straightFlags, a.straightFlags);
    EXPECT_EQ(q.straightRefs, a.straightRefs);
  } else {
    EXPECT_TRUE(sameBits(q.rayStart, a.rayStart, 3));
    EXPECT_TRUE(sameBits(q.rayEnd, a.rayEnd, 3));
    EXPECT_EQ(q.rayStartRef, a.rayStartRef);
    EXPECT_EQ(q.rayOptions, a.rayOptions);
    EXPECT_EQ(q.rayStatus, a.rayStatus);
    EXPECT_TRUE(sameBits(&q.t, &a.t, 1));
    EXPECT_TRUE(sameBits(q.hitNormal, a.hitNormal, 3));
    EXPECT_EQ(q.hitEdgeIndex, a.hitEdgeIndex);
    EXPECT_TRUE(sameBits(&q.pathCost, &a.pathCost, 1));
  }
}

/// Loads one file and checks it against its log; the bytes NavBench's writer gives for what was
/// loaded must be the file's. With navmeshBytes false only the header's and the records' bytes are
/// compared: a tile removed and added again in the game, and its neighbours, hold their links in
/// another order than a fresh load builds (dtPoly::firstLink and the link pool differ; loading
/// rebuilds links, as Detour's addTile does).
void checkFile(const capgame::CaptureLog& log, bool navmeshBytes) {
  SCOPED_TRACE(log.file);
  nav::NavMesh mesh;
  nav::Capture cap;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadCaptureFile(log.file, mesh, cap, &why))) << why;
  EXPECT_EQ(cap.navmeshVersion, 7u);
  ASSERT_EQ(cap.queries.size(), log.queries.size());
  for (size_t i = 0; i < log.queries.size(); ++i)
    expectSame(cap.queries[i], log.queries[i], "query " + std::to_string(i));

#ifdef NAVBENCH_REPLAY_MODEL
  // NavBench's replay (the model `navbench replay` and the viewer share): every query identical,
  // stale ones not run.
  const std::vector<navbench::CaptureQueryResult> results = navbench::replayCapture(mesh, cap);
  ASSERT_EQ(results.size(), cap.queries.size());
  for (size_t i = 0; i < results.size(); ++i) {
    const navbench::CaptureOutcome want =
        cap.queries[i].stale() ? navbench::CaptureOutcome::Stale : navbench::CaptureOutcome::Identical;
    EXPECT_EQ(int(results[i].outcome), int(want))
        << "query " << i << " (" << cap.queries[i].note << "): " << navbench::captureOutcomeName(results[i].outcome)
        << " at " << results[i].difference.field << ": game " << results[i].difference.game << ", ours "
        << results[i].difference.ours;
  }
#endif

  std::vector<uint8_t> again;
  ASSERT_TRUE(nav::statusSucceeded(nav::saveCapture(mesh, cap, again, &why))) << why;
  const std::string bytes = testproc::readFile(log.file);
  ASSERT_GE(bytes.size(), 24u);
  ASSERT_EQ(again.size(), bytes.size());
  uint32_t meshBytes = 0;
  std::memcpy(&meshBytes, bytes.data() + 16, 4);
  const size_t from = navmeshBytes ? 0 : 24 + size_t(meshBytes);
  ASSERT_LE(from, bytes.size());
  EXPECT_TRUE(std::memcmp(again.data(), bytes.data(), 24) == 0) << "header bytes differ";
  EXPECT_TRUE(std::memcmp(again.data() + from, bytes.data() + from, bytes.size() - from) == 0)
      << "nav::saveCapture's bytes differ from the header's" << (navmeshBytes ? "" : " (records)");
}

class CaptureGameTest : public ::testing::TestWithParam<const char*> {};

TEST_P(CaptureGameTest, FilesHoldWhatTheGamesDetourAnswered) {
  const std::string level = GetParam();
  const std::string dir = testproc::tempPath("nbcap_", level);
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0) << dir;
  std::string skip, why;
  const std::string mesh = levelMesh(level, dir, &skip, &why);
  if (!skip.empty()) {
    std::remove(dir.c_str());
    GTEST_SKIP() << "SKIPPED: " << skip;
  }
  ASSERT_FALSE(mesh.empty()) << why;

  std::vector<capgame::CaptureLog> logs;
  capgame::SessionStats stats;
  const std::string err = capgame::runCaptureSession(mesh, dir, "q", logs, stats);
  ASSERT_EQ(err, "");
  std::printf("%s: %zu files; paths partial %d, out of nodes %d; no nearest %d; raycast hits %d\n", level.c_str(),
              logs.size(), stats.partial, stats.outOfNodes, stats.noNearest, stats.raycastHits);
  // The session reaches the cases the format exists for.
  EXPECT_GT(stats.partial, 0);
  EXPECT_GT(stats.outOfNodes, 0);
  EXPECT_GT(stats.noNearest, 0);
  EXPECT_GT(stats.raycastHits, 0);
  for (const capgame::CaptureLog& log : logs) checkFile(log, true);

  capgame::CaptureLog rec;
  capgame::SessionStats recStats;
  ASSERT_EQ(capgame::runRecorderSession(mesh, dir, "r", rec, recStats), "");
  std::printf("%s recorder: %zu records kept of 17; stale %d, handed in %d, truncated %d\n", level.c_str(),
              rec.queries.size(), recStats.stale, recStats.handedIn, recStats.truncated);
  EXPECT_EQ(rec.queries.size(), 12u);
  EXPECT_GT(recStats.stale, 0);
  EXPECT_LT(recStats.stale, 12);
  EXPECT_GT(recStats.handedIn, 0);
  EXPECT_GT(recStats.truncated, 0);
  checkFile(rec, false);
  logs.push_back(rec);

#ifdef NAVBENCH_REPLAY
  // navbench replay on every file the game wrote: exit 0, every query identical, the stale ones
  // listed and not run (its JSON report's summary against the game's log).
  const std::string json = dir + "/replay.json";
  std::string cmd = std::string(testproc::navbenchExe()) + " replay";
  for (const capgame::CaptureLog& log : logs) cmd += " '" + log.file + "'";
  cmd += " --json '" + json + "'";
  std::string out;
  EXPECT_EQ(testproc::runCommand(cmd, &out), 0) << out;
  int queries = 0, stale = 0;
  for (const capgame::CaptureLog& log : logs)
    for (const capgame::Answer& a : log.queries) {
      ++queries;
      stale += (a.flags & 1) ? 1 : 0;
    }
  const nlohmann::json report = nlohmann::json::parse(testproc::readFile(json), nullptr, false);
  ASSERT_TRUE(report.is_object()) << out;
  const nlohmann::json& sum = report["summary"];
  EXPECT_EQ(sum.value("queries", -1), queries) << out;
  EXPECT_EQ(sum.value("identical", -1), queries - stale) << out;
  EXPECT_EQ(sum.value("stale", -1), stale) << out;
  EXPECT_EQ(sum.value("differs", -1), 0) << out;
  std::remove(json.c_str());
#endif

  if (!HasFailure()) {
    for (const capgame::CaptureLog& log : logs) std::remove(log.file.c_str());
    if (mesh.compare(0, dir.size(), dir) == 0) std::remove(mesh.c_str());
    std::remove(dir.c_str());
  }
}

#ifdef NAVBENCH_REPLAY
// A file the Detour "game" wrote (capture_example: the header and Detour only, three path queries
// on the committed default.bin) opens in the viewer headless: every row ok, and --dump-state holds
// the game's path and NavBench's for the first query, equal and not empty.
TEST(GameCaptureInViewer, AGamesFileOpensWithBothPathsEqual) {
  const std::string dir = testproc::tempPath("nbcap_", "viewer");
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0) << dir;
  const std::string file = dir + "/game.nbcap", state = dir + "/state.json", png = dir + "/shot.png";
  std::string out;
  ASSERT_EQ(testproc::runCommand(std::string("'") + CAPTURE_EXAMPLE_EXE + "' '" + NAVBENCH_SOURCE_DIR +
                                     "/assets/levels/default.bin' '" + file +
                                     "' 4 0.2 9.1 57.1 0.2 47.5  10 0.2 50 50 0.2 10  30 0.2 20 30 0.2 45",
                                 &out),
            0)
      << out;
  ASSERT_EQ(testproc::runCommand(kViewerEnv + "XDG_CONFIG_HOME='" + dir + "' '" +
                                     testproc::navbenchExe() + "' '" + file + "' --size 640x360 --screenshot '" + png +
                                     "' --dump-state '" + state + "'",
                                 &out),
            0)
      << out;
  const nlohmann::json j = nlohmann::json::parse(testproc::readFile(state), nullptr, false);
  ASSERT_TRUE(j.is_object()) << out;
  const nlohmann::json& c = j["capture"];
  EXPECT_EQ(c.value("path", ""), file);
  EXPECT_EQ(c.value("ok", -1), 3) << c.dump(1);
  EXPECT_EQ(c.value("mismatch", -1), 0) << c.dump(1);
  EXPECT_EQ(c.value("selected", -1), 0);
  const nlohmann::json& sel = c["selectedQuery"];
  EXPECT_TRUE(sel.value("equal", false)) << sel.dump(1);
  EXPECT_EQ(sel["game"], sel["ours"]);
  EXPECT_GT(sel["game"]["corridor"].size(), 1u) << sel.dump(1);
  EXPECT_GT(sel["game"]["straight"].size(), 6u) << sel.dump(1);
  EXPECT_EQ(j.value("activeTool", ""), "Pathfind Straight");
  EXPECT_EQ(j["toolState"]["corridor"], sel["game"]["corridor"]);
  if (!HasFailure()) std::filesystem::remove_all(dir); // (the viewer's settings are written there too)
}

// A game's note is any bytes: one that is not UTF-8 is listed (as U+FFFD) and the viewer's
// --dump-state still written, not an exception that ends the viewer.
TEST(GameCaptureInViewer, ANoteOfAnyBytesIsShownAndDumped) {
  const std::string dir = testproc::tempPath("nbcap_", "note");
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0) << dir;
  const std::string file = dir + "/note.nbcap", state = dir + "/state.json";
  dtNavMesh* nav = navtest::loadDetourTileSet((std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin").c_str());
  ASSERT_TRUE(nav);
  dtNavMeshQuery* query = dtAllocNavMeshQuery();
  ASSERT_TRUE(dtStatusSucceed(query->init(nav, 2048)));
  const float start[3] = {4, 0.2f, 9.1f}, end[3] = {57.1f, 0.2f, 47.5f}, ext[3] = {2, 4, 2};
  const bool written = navbench::capturePath(file.c_str(), *query, dtQueryFilter(), start, end, ext, "door \xff\xfe 12");
  dtFreeNavMeshQuery(query);
  dtFreeNavMesh(nav);
  ASSERT_TRUE(written);
  std::string out;
  EXPECT_EQ(testproc::runCommand(kViewerEnv + "XDG_CONFIG_HOME='" + dir + "' '" + testproc::navbenchExe() +
                                     "' '" + file + "' --size 640x360 --screenshot '" + dir + "/shot.png' --dump-state '" +
                                     state + "'",
                                 &out),
            0)
      << out;
  const nlohmann::json j = nlohmann::json::parse(testproc::readFile(state), nullptr, false);
  ASSERT_TRUE(j.is_object()) << out;
  EXPECT_EQ(j["capture"]["queries"][0].value("note", ""), "door \xef\xbf\xbd\xef\xbf\xbd 12") << out;
  EXPECT_EQ(j["capture"].value("ok", -1), 1) << out;
  if (!HasFailure()) std::filesystem::remove_all(dir);
}
#endif

// default.bin: the project's level as shipped; "default": its OBJ baked tiled with random areas,
// flags and off-mesh links; the rest: the team's shared levels (SKIPPED when absent).
INSTANTIATE_TEST_SUITE_P(Levels, CaptureGameTest,
                         ::testing::Values("default.bin", "default", "dungeon.obj", "nav_test.obj", "undulating.obj"),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                           std::string n = p.param;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });

} // namespace
