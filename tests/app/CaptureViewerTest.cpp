// CaptureViewerTest.cpp: path captures (.nbcap) in the viewer, through the real binary headless.
// The captures are made here: queries on the committed default.bin answered by NavBench's own nav
// and written with nav::saveCaptureFile, so the game's answers are
// known to be NavBench's (tests/support/DefaultLevelCapture.h). Checked: the capture opens (command line, drop), --dump-state holds the
// game's path and NavBench's and they are equal, the tester shows the query with the captured filter
// and node budget; a planted difference shows MISMATCH; bad captures change nothing and exit 2 at
// start-up; a viewer without a display exits with the error on a file it cannot open; scenarios
// and F12 screenshots reopen the capture with its selected query.
// (The session's own logic without a binary: tests/model/CaptureSessionTest.cpp.)
#include "ViewerRun.h"
#include "tests/support/DefaultLevelCapture.h"

#include "nav/TileSetFile.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using navbench::test::AppRun;
using navbench::test::TempDir;
using nlohmann::json;

const std::string kMesh = fs::path(NAVBENCH_DEFAULT_LEVEL).replace_extension(".bin").string();

std::string q(const std::string& s) { return "'" + s + "'"; }

AppRun runApp(const TempDir& dir, const std::string& args, const std::string& tag) {
  return navbench::test::runViewer(NAVBENCH_EXE, args + " --size 1280x720",
                                   {dir.file(tag + ".png"), dir.file(tag + ".json"), dir.file("config"), ""});
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Each test: the default navmesh, its capture (capturetest::defaultLevelCapture) and a scratch folder.
class CaptureViewer : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    ASSERT_FALSE(nav::statusFailed(nav::loadTileSetFile(kMesh, mesh, &why))) << why;
    cap = capturetest::defaultLevelCapture(mesh);
  }
  /// Writes `cap` with the default navmesh to dir/name.
  std::string writeCapture(const std::string& name) {
    const std::string path = dir.file(name);
    std::string why;
    EXPECT_FALSE(nav::statusFailed(nav::saveCaptureFile(mesh, cap, path, &why))) << why;
    return path;
  }
  nav::NavMesh mesh;
  nav::Capture cap;
  TempDir dir;
};

std::vector<float> floats(const json& a) {
  std::vector<float> v;
  for (const json& x : a) v.push_back(x.get<float>());
  return v;
}

TEST_F(CaptureViewer, OpensHeadlessWithTheGamesPathAndNavBenchsEqual) {
  const std::string file = writeCapture("game.nbcap");
  const AppRun r = runApp(dir, q(file), "open");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_TRUE(r.state.is_object()) << r.output;
  EXPECT_EQ(r.state["nav"], file) << "the capture's navmesh is the open navmesh";
  EXPECT_TRUE(r.state["levelFromNav"].get<bool>()) << "drawn and clicked as a .bin alone";
  EXPECT_EQ(r.state["logErrors"], 0) << r.output;
  const json& c = r.state["capture"];
  EXPECT_EQ(c["path"], file);
  EXPECT_TRUE(c["visible"].get<bool>());
  EXPECT_EQ(c["ok"], 3) << c.dump(1);
  EXPECT_EQ(c["mismatch"], 0);
  EXPECT_EQ(c["selected"], 0) << "the first query is selected on open";
  const json& sel = c["selectedQuery"];
  EXPECT_TRUE(sel["equal"].get<bool>());
  EXPECT_EQ(sel["game"], sel["ours"]);
  EXPECT_EQ(sel["game"]["corridor"].size(), 29u);
  EXPECT_EQ(floats(sel["game"]["straight"]), cap.queries[0].straight);
  EXPECT_NE(r.output.find("3 queries replayed: 3 ok, 0 MISMATCH, 0 stale"), std::string::npos) << r.output;

  // ... shown in Pathfind Straight from the points the game's findPath got, with the captured filter and budget:
  // the tester's own path on the open navmesh is the game's too.
  EXPECT_EQ(r.state["activeTool"], "Pathfind Straight");
  const json& t = r.state["toolState"];
  EXPECT_EQ(floats(t["start"]), std::vector<float>(cap.queries[0].pathStart, cap.queries[0].pathStart + 3));
  EXPECT_EQ(floats(t["end"]), std::vector<float>(cap.queries[0].pathEnd, cap.queries[0].pathEnd + 3));
  EXPECT_EQ(t["corridor"], sel["game"]["corridor"]);
  EXPECT_EQ(floats(t["straight"]), cap.queries[0].straight);
  const json& s = r.state["scenario"];
  EXPECT_EQ(s["navmesh"], file);
  EXPECT_EQ(s["capture"]["query"], 0);
  EXPECT_EQ(s["filter"]["maxNodes"], 2048);
  EXPECT_EQ(s["filter"]["includeFlags"], 0xffff);
  EXPECT_EQ(s["filter"]["excludeFlags"], 0);
}

TEST_F(CaptureViewer, AClickedRowIsShownWithItsFilterAndNodeBudget) {
  const std::string file = writeCapture("rows.nbcap");
  // The second row of the panel: 127 px under its top left corner (rows 17 px apart), wherever the
  // layout put it (read from a run without the click).
  const AppRun shown = runApp(dir, q(file), "rows");
  ASSERT_EQ(shown.exitCode, 0) << shown.output;
  const json* panel = nullptr;
  for (const json& w : shown.state["windows"])
    if (w["name"] == "Captured queries") panel = &w;
  ASSERT_NE(panel, nullptr) << "the Captured queries panel is not shown";
  const std::string click = " --click " + std::to_string(int((*panel)["x"].get<float>()) + 60) + "," +
                            std::to_string(int((*panel)["y"].get<float>()) + 127);
  const AppRun r = runApp(dir, q(file) + click, "row1");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_EQ(r.state["capture"]["selected"], 1) << "the click missed the row\n" << r.output;
  const nav::CapturedQuery& c = cap.queries[1];
  const json& filter = r.state["scenario"]["filter"];
  EXPECT_EQ(filter["includeFlags"], c.includeFlags);
  EXPECT_EQ(filter["excludeFlags"], c.excludeFlags);
  EXPECT_EQ(filter["maxNodes"], 8);
  ASSERT_EQ(filter["areas"].size(), 1u) << filter.dump();
  EXPECT_EQ(filter["areas"][0]["area"], 1);
  EXPECT_EQ(filter["areas"][0]["cost"], 10.0);
  // The tester's search with that budget stops where the game's did.
  EXPECT_EQ(r.state["toolState"]["corridor"], r.state["capture"]["selectedQuery"]["game"]["corridor"]);
  EXPECT_EQ(floats(r.state["toolState"]["straight"]), c.straight);
  EXPECT_TRUE(r.state["capture"]["selectedQuery"]["equal"].get<bool>());
}

TEST_F(CaptureViewer, APlantedDifferenceShowsMismatch) {
  cap.queries[0].straight[4] += 0.25f; // the game "got" another second corner
  const std::string file = writeCapture("planted.nbcap");
  const AppRun r = runApp(dir, q(file), "planted");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const json& c = r.state["capture"];
  EXPECT_EQ(c["mismatch"], 1) << c.dump(1);
  EXPECT_EQ(c["ok"], 2);
  EXPECT_EQ(c["queries"][0]["result"], "MISMATCH");
  EXPECT_EQ(c["queries"][0]["difference"]["field"].get<std::string>().rfind("straight", 0), 0u) << c.dump(1);
  EXPECT_FALSE(c["selectedQuery"]["equal"].get<bool>());
  EXPECT_NE(r.output.find("capture: query 0: straight"), std::string::npos) << "the log names the difference\n" << r.output;
}

TEST_F(CaptureViewer, BadCapturesAreRefusedNamingThem) {
  const std::string good = writeCapture("good.nbcap");
  std::string bytes = readText(good);
  const std::string truncated = dir.write("truncated.nbcap", bytes.substr(0, bytes.size() / 2));
  const std::string garbage = dir.write("garbage.nbcap", "this is not a capture at all");
  const std::string missing = dir.file("missing.nbcap");
  for (const std::string& bad : {truncated, garbage, missing}) {
    // At start-up: the message and exit 2, no screenshot.
    const AppRun r = runApp(dir, q(bad), "bad");
    EXPECT_EQ(r.exitCode, 2) << bad << "\n" << r.output;
    EXPECT_NE(r.output.find(bad), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(dir.file("bad.png")));
  }
  // Dropped on a viewer showing a capture: a Log line, and the capture stays as it was.
  const AppRun d = runApp(dir, q(good) + " --drop " + q(garbage), "dropped");
  ASSERT_EQ(d.exitCode, 0) << d.output;
  EXPECT_EQ(d.state["nav"], good);
  EXPECT_EQ(d.state["capture"]["path"], good);
  EXPECT_EQ(d.state["capture"]["ok"], 3);
  EXPECT_EQ(d.state["logErrors"], 1) << d.output;
  EXPECT_NE(d.output.find(garbage + ": "), std::string::npos) << d.output;
  EXPECT_NE(d.output.find("(keeping " + good + ")"), std::string::npos) << d.output;
}

TEST_F(CaptureViewer, DroppedOnALevelItReplacesTheNavmesh) {
  const std::string file = writeCapture("drop.nbcap");
  const AppRun r = runApp(dir, q(NAVBENCH_DEFAULT_LEVEL) + " --drop " + q(file), "drop");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.state["level"], NAVBENCH_DEFAULT_LEVEL) << "the level stays";
  EXPECT_EQ(r.state["nav"], file);
  EXPECT_EQ(r.state["capture"]["ok"], 3);
  EXPECT_EQ(r.state["activeTool"], "Pathfind Straight");
}

TEST_F(CaptureViewer, OtherToolsWorkOnTheCapturedNavmesh) {
  const std::string file = writeCapture("tools.nbcap");
  // The A* Stepper asked for on the command line: the query is shown there.
  const AppRun st = runApp(dir, q(file) + " --tool 'A* Stepper'", "stepper");
  ASSERT_EQ(st.exitCode, 0) << st.output;
  EXPECT_EQ(st.state["activeTool"], "A* Stepper");
  EXPECT_EQ(floats(st.state["toolState"]["start"]), std::vector<float>(cap.queries[0].pathStart, cap.queries[0].pathStart + 3));
  EXPECT_EQ(st.state["scenario"]["filter"]["maxNodes"], 2048);
  // The shortest path beside the captured query's.
  const AppRun sp = runApp(dir, q(file) + " --shortest", "shortest");
  ASSERT_EQ(sp.exitCode, 0) << sp.output;
  EXPECT_TRUE(nav::statusSucceeded(sp.state["toolState"]["shortestStatus"].get<nav::Status>())) << sp.state["toolState"].dump(1);
  EXPECT_GE(sp.state["toolState"]["shortestPath"].size(), 6u) << sp.state["toolState"].dump(1);
  // The Check panel (F5) runs its checks on the captured navmesh.
  const AppRun ck = runApp(dir, q(file) + " --key f5", "check");
  ASSERT_EQ(ck.exitCode, 0) << ck.output;
  EXPECT_TRUE(ck.state["check"]["shown"].get<bool>());
  EXPECT_EQ(ck.state["check"]["runs"], 1) << ck.state["check"].dump(1);
  EXPECT_EQ(ck.state["check"]["error"], "");
}

TEST_F(CaptureViewer, ScenariosAndScreenshotsReopenTheSelectedQuery) {
  const std::string file = writeCapture("scn.nbcap");
  const std::string s1 = dir.file("s1.json");
  const AppRun a = runApp(dir, q(file) + " --save-scenario " + q(s1), "save");
  ASSERT_EQ(a.exitCode, 0) << a.output;
  json j = json::parse(readText(s1), nullptr, false);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["navmesh"], "scn.nbcap") << "relative to the scenario";
  EXPECT_EQ(j["capture"]["query"], 0);

  // Another selected query: restored, and saved again byte for byte.
  j["capture"]["query"] = 2;
  const std::string s2 = dir.write("s2.json", j.dump(2) + "\n");
  const std::string s3 = dir.file("s3.json");
  const AppRun b = runApp(dir, q(s2) + " --save-scenario " + q(s3), "reopen");
  ASSERT_EQ(b.exitCode, 0) << b.output;
  EXPECT_EQ(b.state["capture"]["path"], file);
  EXPECT_EQ(b.state["capture"]["selected"], 2);
  EXPECT_EQ(b.state["capture"]["selectedQuery"]["game"]["t"], b.state["capture"]["selectedQuery"]["ours"]["t"]);
  EXPECT_EQ(b.state["activeTool"], "Pathfind Straight") << "the scenario's tool, not the query's mode";
  const json k = json::parse(readText(s3), nullptr, false);
  EXPECT_EQ(k["capture"]["query"], 2);
  EXPECT_EQ(k["tool"], j["tool"]);
  EXPECT_EQ(k["filter"], j["filter"]);

  // The screenshot of the first run carries its scenario: opening it reopens the capture.
  const AppRun c = runApp(dir, q(dir.file("save.png")), "png");
  ASSERT_EQ(c.exitCode, 0) << c.output;
  EXPECT_EQ(c.state["nav"], file);
  EXPECT_EQ(c.state["capture"]["selected"], 0);
  EXPECT_EQ(c.state["toolState"]["corridor"], a.state["toolState"]["corridor"]);

  // A query the capture does not have: refused naming it (exit 1, as any bad scenario).
  j["capture"]["query"] = 7;
  const std::string bad = dir.write("bad.json", j.dump(2) + "\n");
  const AppRun e = runApp(dir, q(bad), "badscn");
  EXPECT_EQ(e.exitCode, 1) << e.output;
  EXPECT_NE(e.output.find("capture.query: 7 is past the capture's last query (it has 3)"), std::string::npos) << e.output;
}

/// The viewer (no --screenshot: not headless) on a file it cannot open, with `env` in front.
navbench::test::CommandResult startInteractive(const std::string& env, const std::string& file, const TempDir& dir) {
  return navbench::test::runCommand("cd " + q(dir.path().string()) + " && XDG_CONFIG_HOME=" + q(dir.file("config")) + " " + env +
                                    " timeout 60 " + q(NAVBENCH_EXE) + " " + q(file));
}

TEST_F(CaptureViewer, WithoutADisplayAFileItCannotOpenEndsTheViewer) {
  const std::string garbage = dir.write("garbage.nbcap", "not a capture");
  const std::string badObj = dir.write("bad.obj", "v 1 2\nf 1 2 9\n");
  for (const std::string& file : {dir.file("bogus"), garbage, badObj}) {
    for (const char* env : {"SDL_VIDEODRIVER=offscreen", "env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER"}) {
      const auto t0 = std::chrono::steady_clock::now();
      const navbench::test::CommandResult r = startInteractive(env, file, dir);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      EXPECT_EQ(r.exitCode, 2) << env << " " << file << "\n" << r.output;
      EXPECT_NE(r.output.find(file), std::string::npos) << "the message names the file\n" << r.output;
      EXPECT_LT(s, 30.0) << "promptly, not at the timeout";
    }
  }
}

} // namespace
