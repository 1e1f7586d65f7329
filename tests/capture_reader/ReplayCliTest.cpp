// ReplayCliTest.cpp: `navbench replay` end to end on captures made on the default level: exit codes
// 0 / 1 / 2, the per-query lines, the JSON report (parsed) and the JUnit XML (parsed by python3's
// xml.etree), and --mesh on the level with one tile removed, where exactly the queries whose
// answers really change (found by making each query again on that mesh) are listed.
#include "tests/support/CaptureMaker.h"
#include "tests/support/Process.h"

#include "nav/CaptureFile.h"
#include "nav/TileSetFile.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

using namespace nav;
using json = nlohmann::json;

namespace {

std::string tmp(const std::string& name) { return testproc::tempPath("replay_cli_", name); }

struct CliRun {
  int code;
  std::string out;
};
CliRun replay(const std::string& args) {
  CliRun r;
  r.code = testproc::runCommand("'" + std::string(testproc::navbenchExe()) + "' replay " + args, &r.out);
  return r;
}

/// The default level and a capture of `count` varied queries on it, saved to `path`.
void writeCapture(const std::string& path, NavMesh& mesh, Capture& cap, int count, uint32_t seed) {
  std::string why;
  ASSERT_TRUE(capturetest::loadDefaultMesh(mesh, &why)) << why;
  cap = capturetest::variedCapture(mesh, count, seed);
  ASSERT_TRUE(statusSucceeded(saveCaptureFile(mesh, cap, path, &why))) << why;
}

json readJson(const std::string& path) { return json::parse(testproc::readFile(path)); }

} // namespace

TEST(ReplayCli, OwnCapturesAreIdenticalAndTheReportsParse) {
  NavMesh mesh;
  Capture cap;
  const std::string a = tmp("a.nbcap"), b = tmp("b.nbcap"), js = tmp("r.json"), xml = tmp("r.xml");
  writeCapture(a, mesh, cap, 24, 5);
  cap.queries[3].flags |= CAPTURE_STALE;
  std::string why;
  ASSERT_TRUE(statusSucceeded(saveCaptureFile(mesh, cap, b, &why))) << why;

  const CliRun r = replay("'" + a + "' '" + b + "' --json '" + js + "' --junit '" + xml + "'");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find(a + ": 24 queries on "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("query 3 (path"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stale (not replayed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("48 queries: 47 identical, 0 differ, 1 stale"), std::string::npos) << r.out;

  const json j = readJson(js);
  EXPECT_TRUE(j["mesh"].is_null());
  ASSERT_EQ(j["captures"].size(), 2u);
  EXPECT_EQ(j["captures"][0]["file"], a);
  EXPECT_GT(j["captures"][0]["tiles"].get<int>(), 1);
  ASSERT_EQ(j["captures"][1]["queries"].size(), 24u);
  const json& q3 = j["captures"][1]["queries"][3];
  EXPECT_EQ(q3["i"], 3);
  EXPECT_EQ(q3["outcome"], "stale");
  EXPECT_EQ(q3["flags"], json::array({"stale"}));
  EXPECT_EQ(j["captures"][0]["queries"][0]["note"], cap.queries[0].note);
  EXPECT_EQ(j["captures"][0]["queries"][0]["kind"], cap.queries[0].kind == CAPTURE_PATH ? "path" : "raycast");
  EXPECT_EQ(j["summary"]["queries"], 48);
  EXPECT_EQ(j["summary"]["identical"], 47);
  EXPECT_EQ(j["summary"]["stale"], 1);

  const std::string parse = "python3 -c \"import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); "
                            "c = r.findall('./testsuite/testcase'); s = r.findall('./testsuite/testcase/skipped'); "
                            "f = r.findall('./testsuite/testcase/failure'); "
                            "sys.exit(0 if (len(c), len(s), len(f)) == (48, 1, 0) else 3)\" '" + xml + "'";
  std::string out;
  EXPECT_EQ(testproc::runCommand(parse, &out), 0) << out;
  for (const std::string& p : {a, b, js, xml}) std::remove(p.c_str());
}

TEST(ReplayCli, APlantedDifferenceExitsOneAndNamesTheField) {
  NavMesh mesh;
  Capture cap;
  const std::string a = tmp("planted.nbcap"), js = tmp("planted.json"), xml = tmp("planted.xml");
  writeCapture(a, mesh, cap, 12, 9);
  size_t k = 0;
  while (k < cap.queries.size() && (cap.queries[k].kind != CAPTURE_PATH || cap.queries[k].path.size() < 3)) ++k;
  ASSERT_LT(k, cap.queries.size());
  cap.queries[k].path[2] ^= 1;
  std::string why;
  ASSERT_TRUE(statusSucceeded(saveCaptureFile(mesh, cap, a, &why))) << why;
  const CliRun r = replay("'" + a + "' --json '" + js + "' --junit '" + xml + "'");
  EXPECT_EQ(r.code, 1) << r.out;
  char want[64];
  std::snprintf(want, sizeof want, "DIFFERS at path[2]: game 0x%08x, ours 0x%08x", cap.queries[k].path[2],
                cap.queries[k].path[2] ^ 1);
  EXPECT_NE(r.out.find("query " + std::to_string(k) + " (path"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
  const json j = readJson(js);
  const json& q = j["captures"][0]["queries"][k];
  EXPECT_EQ(q["outcome"], "differs");
  EXPECT_EQ(q["difference"]["field"], "path[2]");
  EXPECT_EQ(j["summary"]["differs"], 1);
  std::string out;
  EXPECT_EQ(testproc::runCommand("python3 -c \"import sys, xml.etree.ElementTree as E; "
                                 "sys.exit(0 if len(E.parse(sys.argv[1]).getroot().findall('./testsuite/testcase/failure')) == 1 else 3)\" '" +
                                     xml + "'",
                                 &out),
            0)
      << out;
  for (const std::string& p : {a, js, xml}) std::remove(p.c_str());
}

// A note is the game's bytes: invalid UTF-8 and control characters in it still give a JUnit
// report an XML parser reads, and the JSON report parses.
TEST(ReplayCli, AnyNoteBytesGiveWellFormedReports) {
  const std::string a = tmp("notes.nbcap"), js = tmp("notes.json"), xml = tmp("notes.xml");
  NavMesh mesh;
  Capture cap;
  std::string why;
  ASSERT_TRUE(capturetest::loadDefaultMesh(mesh, &why)) << why;
  cap = capturetest::variedCapture(mesh, 2, 7);
  cap.queries[0].note = "door \xff\xfe <a&b> \x01\x1b[31m stuck \xe2\x82";
  cap.queries[1].note = "caf\xc3\xa9";
  ASSERT_TRUE(statusSucceeded(saveCaptureFile(mesh, cap, a, &why))) << why;
  const CliRun r = replay("'" + a + "' --json '" + js + "' --junit '" + xml + "'");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("caf\xc3\xa9"), std::string::npos) << "valid UTF-8 is kept\n" << r.out;
  std::string py;
  EXPECT_EQ(testproc::runCommand("python3 -c \"import sys, xml.etree.ElementTree as E; "
                                 "n = [c.get('name') for c in E.parse(sys.argv[1]).getroot().iter('testcase')]; "
                                 "sys.exit(0 if n[0].startswith('query 0 (path, \\\"door \\ufffd\\ufffd <a&b> ??[31m') and "
                                 "n[1].endswith('caf\\u00e9\\\")') else 3)\" '" + xml + "'",
                                 &py),
            0)
      << py
      << testproc::readFile(xml);
  EXPECT_TRUE(json::parse(testproc::readFile(js), nullptr, false).is_object());
  for (const std::string& p : {a, js, xml}) std::remove(p.c_str());
}

TEST(ReplayCli, BadInputExitsTwoNamingTheFileAndWritesNoReport) {
  NavMesh mesh;
  Capture cap;
  const std::string good = tmp("good.nbcap"), bad = tmp("bad.nbcap"), js = tmp("bad.json");
  writeCapture(good, mesh, cap, 4, 2);
  std::string bytes = testproc::readFile(good);
  bytes[12] = 8; // refBytes 8
  std::FILE* f = std::fopen(bad.c_str(), "wb");
  ASSERT_TRUE(f);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  std::remove(js.c_str());
  CliRun r = replay("'" + good + "' '" + bad + "' --json '" + js + "'");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("navbench replay: " + bad + ": made by a Detour built with DT_POLYREF64"), std::string::npos) << r.out;
  EXPECT_FALSE(std::ifstream(js).good()) << "no report on bad input";
  r = replay("'" + tmp("missing.nbcap") + "'");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(tmp("missing.nbcap") + ": cannot open"), std::string::npos) << r.out;
  r = replay("'" + good + "' --mesh '" + tmp("missing.bin") + "'");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(tmp("missing.bin")), std::string::npos) << r.out;
  r = replay("");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("needs FILE.nbcap"), std::string::npos) << r.out;
  r = replay("'" + good + "' --json '" + good + "'");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("would overwrite an input"), std::string::npos) << r.out;
  for (const std::string& p : {good, bad}) std::remove(p.c_str());
}

TEST(ReplayCli, MeshListsExactlyTheQueriesWhoseAnswersChanged) {
  NavMesh mesh;
  Capture cap;
  const std::string a = tmp("level.nbcap"), other = tmp("other.bin"), js = tmp("other.json");
  writeCapture(a, mesh, cap, 60, 21);
  // The other tile set: the level without one tile in its middle.
  NavMesh cut;
  std::string why;
  ASSERT_TRUE(capturetest::loadDefaultMesh(cut, &why)) << why;
  int tiles = 0;
  for (int i = 0; i < cut.getMaxTiles(); ++i) tiles += cut.getTile(i)->header != nullptr;
  const MeshTile* victim = nullptr;
  for (int i = 0, seen = 0; i < cut.getMaxTiles() && !victim; ++i)
    if (cut.getTile(i)->header && seen++ == tiles / 2) victim = cut.getTile(i);
  ASSERT_TRUE(victim);
  ASSERT_TRUE(statusSucceeded(cut.removeTile(cut.getTileRef(victim), nullptr, nullptr)));
  ASSERT_TRUE(statusSucceeded(saveTileSetFile(cut, other, &why))) << why;
  NavMesh reloaded;
  ASSERT_TRUE(statusSucceeded(loadTileSetFile(other, reloaded, &why))) << why;

  // Expected independently: each query made again on the cut level, compared with the first.
  const std::vector<capturetest::QuerySpec> specs = capturetest::variedSpecs(mesh, 60, 21);
  std::set<int> expected;
  for (size_t i = 0; i < specs.size(); ++i)
    if (capturetest::answersDiffer(mesh, cap.queries[i], reloaded, capturetest::makeQuery(reloaded, specs[i])))
      expected.insert(int(i));
  ASSERT_FALSE(expected.empty()) << "the removed tile changes no query: the test shows nothing";
  ASSERT_LT(expected.size(), specs.size()) << "every query changed: the test shows nothing";

  const CliRun r = replay("'" + a + "' --mesh '" + other + "' --json '" + js + "'");
  EXPECT_EQ(r.code, 1) << r.out;
  const json j = readJson(js);
  EXPECT_EQ(j["mesh"], other);
  std::set<int> changed;
  for (const json& q : j["captures"][0]["queries"]) {
    if (q["outcome"] == "changed") {
      changed.insert(q["i"].get<int>());
      EXPECT_FALSE(q["changed"].empty());
      EXPECT_TRUE(q["game"].contains("status") && q["ours"].contains("status"));
    } else {
      EXPECT_EQ(q["outcome"], "unchanged") << q.dump();
    }
  }
  EXPECT_EQ(changed, expected);
  EXPECT_NE(r.out.find("CHANGED:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::to_string(expected.size()) + " changed"), std::string::npos) << r.out;

  // The level itself as --mesh: every query unchanged, exit 0.
  const std::string same = tmp("same.bin");
  ASSERT_TRUE(statusSucceeded(saveTileSetFile(mesh, same, &why))) << why;
  const CliRun s = replay("'" + a + "' --mesh '" + same + "'");
  EXPECT_EQ(s.code, 0) << s.out;
  EXPECT_NE(s.out.find("60 unchanged, 0 changed"), std::string::npos) << s.out;
  for (const std::string& p : {a, other, js, same}) std::remove(p.c_str());
}
