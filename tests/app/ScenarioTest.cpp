// Scenario files (app/Scenario.h), core API only: exact float round trips, byte-stable
// save -> parse -> save, one error per kind of bad field (naming the key), files and PNG text.
#include "app/Scenario.h"
#include "app/Settings.h"
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

namespace {

using navbench::Scenario;
using nlohmann::json;
namespace fs = std::filesystem;

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

Scenario sample() {
  Scenario s;
  s.level = "../assets/levels/default.json";
  s.navmesh = "../assets/levels/default.bin";
  s.bakeSettingsHash = navbench::bakeSettingsHash("{\"cellSize\": 0.3}");
  s.camera.target[0] = 31.7f;
  s.camera.target[1] = 0.1f;
  s.camera.target[2] = -12.123456f;
  s.camera.yaw = 3.7415927f;
  s.camera.pitch = 0.72f;
  s.camera.distance = 84.3f;
  s.camera.fovY = 0.785398185f;
  s.toolName = "Pathfind Straight";
  s.toolState = {{"start", navbench::exactVec3(s.camera.target)}, {"crossing", 1}};
  s.filter.includeFlags = 0x0f;
  s.filter.excludeFlags = 0x10;
  s.filter.heuristicScale = 0.999f;
  s.filter.maxNodes = 2048;
  s.filter.areas = {{1, 10.0f, 0.0f}, {5, 1.5f, 3.25f}};
  s.navDraw.detailMesh = true;
  s.navDraw.lift = 0.04f;
  s.view.wireframe = true;
  s.view.ambient = 0.45f;
  s.note = "door at (12, 0, 4) is skipped; \"quoted\" and unicode: \xc3\xa9";
  s.captureQuery = 3;
  return s;
}

TEST(Scenario, FloatsRoundTripBitExact) {
  // Read back as the scenario reader does (nav/base/Json.h).
  auto readFloat = [](const json& v, float& out, std::string& err) {
    base::JsonErrors errors;
    const bool ok = base::JsonIn(v, errors, "x").get(out);
    err = errors.message;
    return ok;
  };
  float aboveMax = 0;
  std::string err;
  EXPECT_FALSE(readFloat(json::parse("3.4028236e+38"), aboveMax, err)); // rounds to inf
  EXPECT_FALSE(readFloat(json::parse("1e39"), aboveMax, err));
  std::vector<float> vals = {0.0f, -0.0f, 0.1f, 0.6f, 1.0f / 3.0f, 50.0f, -1e-30f, FLT_MAX, -FLT_MAX, FLT_MIN,
                             std::numeric_limits<float>::denorm_min(), 16777217.0f, 3.14159265f};
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> any;
  while (vals.size() < 20000) {
    const uint32_t u = any(rng);
    float f;
    std::memcpy(&f, &u, 4);
    if (std::isfinite(f)) vals.push_back(f);
  }
  for (float f : vals) {
    const std::string text = navbench::exactFloat(f).dump();
    const json back = json::parse(text);
    float g = 0;
    ASSERT_TRUE(readFloat(back, g, err)) << err;
    ASSERT_EQ(bits(g), bits(f)) << text;
    ASSERT_EQ(navbench::exactFloat(g).dump(), text); // stable
  }
  // Short where it can be: 0.6f is written "0.6", not 0.6000000238418579.
  EXPECT_EQ(navbench::exactFloat(0.6f).dump(), "0.6");
  EXPECT_EQ(navbench::exactFloat(50.0f).dump(), "50.0");
}

TEST(Scenario, SaveParseSaveIsByteStable) {
  const Scenario s = sample();
  const std::string a = navbench::toJson(s);
  Scenario r;
  std::string err;
  ASSERT_TRUE(navbench::parseScenario(a, r, err)) << err << "\n" << a;
  EXPECT_EQ(navbench::toJson(r), a);
  EXPECT_EQ(r.level, s.level);
  EXPECT_EQ(r.navmesh, s.navmesh);
  EXPECT_EQ(r.bakeSettingsHash, s.bakeSettingsHash);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(bits(r.camera.target[i]), bits(s.camera.target[i]));
  EXPECT_EQ(bits(r.camera.yaw), bits(s.camera.yaw));
  EXPECT_EQ(bits(r.camera.distance), bits(s.camera.distance));
  EXPECT_EQ(r.toolName, s.toolName);
  EXPECT_EQ(r.toolState, s.toolState);
  EXPECT_EQ(r.captureQuery, 3);
  EXPECT_EQ(r.filter.includeFlags, 0x0f);
  EXPECT_EQ(r.filter.excludeFlags, 0x10);
  EXPECT_EQ(r.filter.maxNodes, 2048);
  ASSERT_EQ(r.filter.areas.size(), 2u);
  EXPECT_EQ(r.filter.areas[1].area, 5);
  EXPECT_EQ(r.filter.areas[1].enterCost, 3.25f);
  EXPECT_TRUE(r.navDraw.detailMesh);
  EXPECT_TRUE(r.view.wireframe);
  EXPECT_EQ(r.note, s.note);
  // The marker is there, keys are sorted, the text ends with a newline.
  EXPECT_NE(a.find("\"navbenchScenario\": 1"), std::string::npos);
  EXPECT_LT(a.find("\"bakeSettingsHash\""), a.find("\"camera\""));
  EXPECT_EQ(a.back(), '\n');
  EXPECT_TRUE(navbench::looksLikeScenario(a));
}

// Each kind of bad field: the message names the key (and the problem); `out` is left unchanged.
TEST(Scenario, BadFieldsAreRefusedNamingTheKey) {
  const json good = json::parse(navbench::toJson(sample()));
  struct Case {
    const char* what;
    std::function<void(json&)> edit;
    const char* expect; // substring of the error
  };
  const std::vector<Case> cases = {
      {"marker missing", [](json& j) { j.erase("navbenchScenario"); }, "navbenchScenario: missing"},
      {"marker not int", [](json& j) { j["navbenchScenario"] = "1"; }, "navbenchScenario: expected an integer"},
      {"newer version", [](json& j) { j["navbenchScenario"] = 2; }, "newer"},
      {"unknown top key", [](json& j) { j["levle"] = "x"; }, "levle: unknown key"},
      {"level not string", [](json& j) { j["level"] = 3; }, "level: expected a string"},
      {"no level nor navmesh", [](json& j) { j["level"] = ""; j["navmesh"] = ""; }, "level: neither"},
      {"navmesh missing", [](json& j) { j.erase("navmesh"); }, "navmesh: missing"},
      {"camera not object", [](json& j) { j["camera"] = json::array(); }, "camera: expected an object"},
      {"camera key missing", [](json& j) { j["camera"].erase("fovY"); }, "camera.fovY: missing"},
      {"camera unknown key", [](json& j) { j["camera"]["zoom"] = 1; }, "camera.zoom: unknown key"},
      {"target short", [](json& j) { j["camera"]["target"] = {1, 2}; }, "camera.target: expected [x, y, z]"},
      {"target string", [](json& j) { j["camera"]["target"][1] = "a"; }, "camera.target[1]: expected a number"},
      {"target null (NaN)", [](json& j) { j["camera"]["target"][2] = nullptr; }, "camera.target[2]: expected a number, got null"},
      {"target beyond float", [](json& j) { j["camera"]["target"][0] = 1e300; }, "camera.target[0]: not a finite float"},
      {"distance 0", [](json& j) { j["camera"]["distance"] = 0; }, "camera.distance: must be in (0"},
      {"pitch range", [](json& j) { j["camera"]["pitch"] = 2.0; }, "camera.pitch: must be in"},
      {"fov range", [](json& j) { j["camera"]["fovY"] = 0.01; }, "camera.fovY: must be in"},
      {"tool name empty", [](json& j) { j["tool"]["name"] = ""; }, "tool.name: empty"},
      {"tool state array", [](json& j) { j["tool"]["state"] = json::array(); }, "tool.state: expected an object"},
      {"tool unknown key", [](json& j) { j["tool"]["mode"] = 1; }, "tool.mode: unknown key"},
      {"include flags range", [](json& j) { j["filter"]["includeFlags"] = 70000; }, "filter.includeFlags: must be in [0, 65535]"},
      {"exclude flags float", [](json& j) { j["filter"]["excludeFlags"] = 1.5; }, "filter.excludeFlags: expected an integer"},
      {"negative flags", [](json& j) { j["filter"]["includeFlags"] = -1; }, "filter.includeFlags: must be in"},
      {"heuristic range", [](json& j) { j["filter"]["heuristicScale"] = -1; }, "filter.heuristicScale: must be in"},
      {"max nodes 0", [](json& j) { j["filter"]["maxNodes"] = 0; }, "filter.maxNodes: must be in [1, 65535]"},
      {"max nodes huge", [](json& j) { j["filter"]["maxNodes"] = 18446744073709551615ull; }, "filter.maxNodes: must be in"},
      {"areas not array", [](json& j) { j["filter"]["areas"] = 1; }, "filter.areas: expected an array"},
      {"area out of range", [](json& j) { j["filter"]["areas"][0]["area"] = 64; }, "filter.areas[0].area: must be in [0, 63]"},
      {"area cost 0", [](json& j) { j["filter"]["areas"][1]["cost"] = 0; }, "filter.areas[1].cost: must be in (0"},
      {"area enter negative", [](json& j) { j["filter"]["areas"][0]["enterCost"] = -2; }, "filter.areas[0].enterCost: must be in"},
      {"area twice", [](json& j) { j["filter"]["areas"][1]["area"] = 1; }, "filter.areas[1].area: areas must be listed once"},
      {"too many areas", [](json& j) { j["filter"]["areas"] = json::array(); for (int i = 0; i < 65; ++i) j["filter"]["areas"].push_back({{"area", i}, {"cost", 1}, {"enterCost", 0}}); }, "filter.areas: more than 64"},
      {"capture not object", [](json& j) { j["capture"] = 2; }, "capture: expected an object"},
      {"capture query missing", [](json& j) { j["capture"] = json::object(); }, "capture.query: missing"},
      {"capture query negative", [](json& j) { j["capture"] = {{"query", -1}}; }, "capture.query: must be in [0, 65535]"},
      {"capture unknown key", [](json& j) { j["capture"] = {{"query", 1}, {"row", 1}}; }, "capture.row: unknown key"},
      {"navDraw bool", [](json& j) { j["navDraw"]["polys"] = 1; }, "navDraw.polys: expected true or false"},
      {"navDraw unknown", [](json& j) { j["navDraw"]["sparkles"] = true; }, "navDraw.sparkles: unknown key"},
      {"view ambient", [](json& j) { j["view"]["ambient"] = 3; }, "view.ambient: must be in [0, 1]"},
      {"view unknown", [](json& j) { j["view"]["fog"] = 1; }, "view.fog: unknown key"},
      {"note type", [](json& j) { j["note"] = json::object(); }, "note: expected a string"},
      {"note too long", [](json& j) { j["note"] = std::string(70000, 'x'); }, "note: longer than"},
      {"hash too long", [](json& j) { j["bakeSettingsHash"] = std::string(100, 'a'); }, "bakeSettingsHash: longer than"},
      {"not an object", [](json& j) { j = json::array({1, 2}); }, "expected a JSON object"},
  };
  for (const Case& c : cases) {
    json j = good;
    c.edit(j);
    Scenario out = sample();
    out.note = "unchanged";
    std::string err;
    EXPECT_FALSE(navbench::parseScenario(j.dump(), out, err)) << c.what;
    EXPECT_NE(err.find(c.expect), std::string::npos) << c.what << ": got '" << err << "'";
    EXPECT_EQ(out.note, "unchanged") << c.what;
  }
}

TEST(Scenario, NotJsonDeepOrHugeAreRefused) {
  Scenario out;
  std::string err;
  EXPECT_FALSE(navbench::parseScenario("{\"navbenchScenario\": 1,", out, err));
  EXPECT_NE(err.find("not valid JSON"), std::string::npos) << err;
  EXPECT_FALSE(navbench::parseScenario("", out, err));
  EXPECT_FALSE(navbench::parseScenario(std::string(100000, '[') + std::string(100000, ']'), out, err));
  EXPECT_NE(err.find("nested deeper"), std::string::npos) << err;
  EXPECT_FALSE(navbench::parseScenario(std::string(navbench::kMaxScenarioBytes + 1, ' '), out, err));
  EXPECT_NE(err.find("larger than"), std::string::npos) << err;
  // Brackets inside strings do not count as nesting.
  json j = json::parse(navbench::toJson(sample()));
  j["note"] = std::string(500, '[');
  EXPECT_TRUE(navbench::parseScenario(j.dump(), out, err)) << err;
}

TEST(Scenario, LevelFileIsNotAScenario) {
  std::ifstream f(NAVBENCH_DEFAULT_LEVEL_JSON);
  ASSERT_TRUE(f) << NAVBENCH_DEFAULT_LEVEL_JSON;
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_FALSE(navbench::looksLikeScenario(ss.str()));
  Scenario out;
  std::string err;
  EXPECT_FALSE(navbench::parseScenario(ss.str(), out, err));
  EXPECT_NE(err.find("not a NavBench scenario"), std::string::npos) << err;
  EXPECT_FALSE(navbench::looksLikeScenario("not json at all"));
}

TEST(Scenario, FilesNameThemselvesAndAreWrittenAtomically) {
  navbench::test::TempDir dir;
  const std::string p = dir.file("bug.json");
  const Scenario s = sample();
  std::string err;
  ASSERT_TRUE(navbench::saveScenarioFile(p, s, err)) << err;
  for (const auto& e : fs::directory_iterator(dir.path())) EXPECT_EQ(e.path().filename(), "bug.json"); // no temp left
  Scenario r;
  ASSERT_TRUE(navbench::loadScenarioFile(p, r, err)) << err;
  // save -> open -> save through files: identical bytes.
  const std::string p2 = dir.file("again.json");
  ASSERT_TRUE(navbench::saveScenarioFile(p2, r, err)) << err;
  std::ifstream a(p, std::ios::binary), b(p2, std::ios::binary);
  std::stringstream sa, sb;
  sa << a.rdbuf();
  sb << b.rdbuf();
  EXPECT_EQ(sa.str(), sb.str());
  EXPECT_EQ(sa.str(), navbench::toJson(s));

  EXPECT_FALSE(navbench::loadScenarioFile(dir.file("missing.json"), r, err));
  EXPECT_NE(err.find("missing.json"), std::string::npos) << err;
  const std::string bad = dir.write("bad.json", "{\"navbenchScenario\": 1, \"level\": 5, \"navmesh\": \"\", \"camera\": {}, \"tool\": {}, \"filter\": {}}");
  EXPECT_FALSE(navbench::loadScenarioFile(bad, r, err));
  EXPECT_NE(err.find("bad.json: level: expected a string"), std::string::npos) << err;
  // An unwritable place: the error names the file, nothing is left behind.
  EXPECT_FALSE(navbench::saveScenarioFile(dir.file("no/such/dir/x.json"), s, err));
  EXPECT_NE(err.find("x.json"), std::string::npos) << err;
  // A failed save leaves the previous file as it was.
  fs::create_directory(dir.file("blocker.json"));
  EXPECT_FALSE(navbench::saveScenarioFile(dir.file("blocker.json"), s, err));
  EXPECT_TRUE(fs::is_directory(dir.file("blocker.json")));
}

TEST(Scenario, PngTextChunk) {
  const Scenario s = sample();
  std::vector<std::pair<std::string, std::string>> text = {{"Software", "navbench"},
                                                           {navbench::kScenarioPngKeyword, navbench::toJson(s)}};
  Scenario r;
  std::string err;
  ASSERT_TRUE(navbench::scenarioFromPngText(text, r, err)) << err;
  EXPECT_EQ(navbench::toJson(r), navbench::toJson(s));
  text.pop_back();
  EXPECT_FALSE(navbench::scenarioFromPngText(text, r, err));
  EXPECT_NE(err.find("no scenario inside"), std::string::npos) << err;
  text.push_back({navbench::kScenarioPngKeyword, "{\"navbenchScenario\": 1}"});
  EXPECT_FALSE(navbench::scenarioFromPngText(text, r, err));
  EXPECT_NE(err.find("navbench-scenario"), std::string::npos) << err;
  EXPECT_NE(err.find("level: missing"), std::string::npos) << err;
}

TEST(Scenario, RelativePaths) {
  EXPECT_EQ(navbench::relativeTo("/a/b/shots", "/a/b/levels/x.json"), "../levels/x.json");
  EXPECT_EQ(navbench::relativeTo("/a/b/shots/", "/a/b/shots/x.json"), "x.json");
  EXPECT_EQ(navbench::relativeTo("/a", ""), "");
  EXPECT_EQ(navbench::relativeTo("/tmp/x", "/work/levels/x.json"), "/work/levels/x.json"); // no climbing to /
  EXPECT_EQ(navbench::resolveFrom("/a/b/shots", "../levels/x.json"), "/a/b/levels/x.json");
  EXPECT_EQ(navbench::resolveFrom("/a/b/shots", "/abs/x.bin"), "/abs/x.bin");
  EXPECT_EQ(navbench::resolveFrom("/a", ""), "");
  EXPECT_NE(navbench::bakeSettingsHash("a"), navbench::bakeSettingsHash("b"));
  EXPECT_EQ(navbench::bakeSettingsHash("a").rfind("fnv1a64:", 0), 0u);
}

} // namespace

namespace {
// The F12 screenshot options persist in settings.ini.
TEST(Scenario, ScreenshotSettingsPersist) {
  navbench::test::TempDir dir;
  navbench::Settings s;
  s.screenshotDir = dir.file("my shots");
  s.screenshotCaption = true;
  std::string err;
  ASSERT_TRUE(s.save(dir.file("settings.ini"), err)) << err;
  navbench::Settings r;
  ASSERT_TRUE(r.load(dir.file("settings.ini"), err)) << err;
  EXPECT_EQ(r.screenshotDir, dir.file("my shots"));
  EXPECT_TRUE(r.screenshotCaption);
  EXPECT_FALSE(r.screenshotViewOnly);
}
} // namespace
