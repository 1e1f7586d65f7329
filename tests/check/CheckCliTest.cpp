// CheckCliTest.cpp: `navbench check` end to end: exit codes 0/1/2, the JSON and JUnit files,
// baselines turning known findings off, a level baked first, bad input refused with no output, a
// level file's seeds, and the HTML report (pages, scenarios, thumbnails carrying their scenario).
#include "CheckTempDir.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#ifdef NAVBENCH_EXE

namespace {

struct CliRun {
  int code = -1;
  std::string out;
};

/// `navbench check ARGS`. `viewer`: the run starts the viewer for thumbnails; under the sanitizer
/// build LeakSanitizer is off for it, as for the viewer's own tests (label app): Mesa's software
/// GL driver leaks at exit and is unloaded by then, so its leaks cannot be suppressed by name.
CliRun navbench(const std::string& args, bool viewer = false) {
  const std::string env = viewer ? "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 " : "";
  const std::string cmd = env + std::string(NAVBENCH_EXE) + " check " + args + " 2>&1";
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string readAll(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

class CheckCli : public checktest::TempDirTest {
protected:
  const std::string bin = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";
};

/// A point on default.bin's navmesh: the start of a drawn pair (every pair is a "detour" at ratio 1).
std::string pointOnMesh(const std::string& bin, const std::string& dir) {
  const std::string json = dir + "/p.json";
  const CliRun r = navbench(bin + " --pairs 3 --detour-ratio 1 --detour-min 0 --no-seams --no-links --no-narrow --json " + json);
  if (r.code != 0 && r.code != 1) return "";
  const nlohmann::json j = nlohmann::json::parse(readAll(json));
  if (j["detours"].empty()) return "";
  const auto& p = j["detours"][0]["start"];
  char b[128];
  std::snprintf(b, sizeof(b), "%.9g,%.9g,%.9g", p[0].get<double>(), p[1].get<double>(), p[2].get<double>());
  return b;
}

/// The text chunks' keywords of a PNG (tEXt, zTXt, iTXt); false when it is not a PNG.
bool pngTextKeywords(const std::string& path, std::set<std::string>& out) {
  const std::string d = readAll(path);
  static const char sig[] = "\x89PNG\r\n\x1a\n";
  if (d.size() < 8 || d.compare(0, 8, std::string(sig, 8)) != 0) return false;
  size_t p = 8;
  while (p + 12 <= d.size()) {
    const auto u = [&](size_t i) { return uint32_t(uint8_t(d[i])); };
    const uint32_t len = u(p) << 24 | u(p + 1) << 16 | u(p + 2) << 8 | u(p + 3);
    const std::string type = d.substr(p + 4, 4);
    if (p + 12 + len > d.size()) return false;
    if (type == "tEXt" || type == "zTXt" || type == "iTXt") out.insert(d.substr(p + 8, std::strlen(d.c_str() + p + 8)));
    if (type == "IEND") return true;
    p += 12 + len;
  }
  return false;
}

} // namespace

TEST_F(CheckCli, SeedsFromLevelFile) {
  const std::string at = pointOnMesh(bin, dir);
  ASSERT_FALSE(at.empty());
  const std::string obj = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.obj";
  auto level = [&](const std::string& seeds) {
    const std::string p = dir + "/level.json";
    std::ofstream(p) << "{\"obj\": \"" << obj << "\", \"seeds\": [" << seeds << "]}";
    return p;
  };
  const std::string common = " --pairs 20 --no-surface --no-detours --no-budget --json ";
  // Off the mesh: the level's seed is used, and refused naming it.
  std::string lv = level("[9999, 0, 9999]");
  CliRun r = navbench(bin + " --level " + lv + common + dir + "/a.json");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("seed 1 (9999, 0, 9999) is not on the navmesh"), std::string::npos) << r.out;
  // The level checked (baked first) brings its seeds too.
  r = navbench(lv + common + dir + "/a.json");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("seed 1 (9999, 0, 9999) is not on the navmesh"), std::string::npos) << r.out;
  // --seeds wins over the level file's.
  r = navbench(bin + " --level " + lv + " --seeds " + at + common + dir + "/a.json");
  EXPECT_TRUE(r.code == 0 || r.code == 1) << r.out;
  // On the mesh: the same islands and reachability as --seeds with that point.
  lv = level("[" + at + "]");
  r = navbench(bin + " --level " + lv + common + dir + "/b.json");
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.out;
  const CliRun r2 = navbench(bin + " --seeds " + at + common + dir + "/c.json");
  ASSERT_TRUE(r2.code == 0 || r2.code == 1) << r2.out;
  const nlohmann::json b = nlohmann::json::parse(readAll(dir + "/b.json")), c = nlohmann::json::parse(readAll(dir + "/c.json"));
  EXPECT_EQ(b["islands"], c["islands"]);
  EXPECT_EQ(r.code, r2.code);
  // A bad seeds entry in the level file is named.
  r = navbench(bin + " --level " + level("[1, 2]") + common + dir + "/d.json");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("seeds[0]"), std::string::npos) << r.out;
}

TEST_F(CheckCli, HtmlReport) {
  const std::string html = dir + "/report";
  std::filesystem::create_directories(html);
  std::ofstream(html + "/stale.txt") << "from an earlier run";
  // Errors off, so the four rows are the warning checks' worst: a detour pair and narrow portals.
  const CliRun r = navbench(bin + " --pairs 40 --detour-ratio 1 --detour-min 0 --min-width 3 --no-seams --no-links "
                                  "--html " + html + " --html-max 4",
                          /*viewer=*/true);
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.out;
  EXPECT_FALSE(exists(html + "/stale.txt")); // the folder was replaced as a whole
  const std::string page = readAll(html + "/index.html");
  ASSERT_FALSE(page.empty());
  for (const char* check : {"islands", "detours", "budget", "seams", "links", "narrow", "surface"})
    EXPECT_NE(page.find(std::string("<tr><td>") + check + "</td>"), std::string::npos) << check;
  EXPECT_EQ(page.find("http"), std::string::npos); // offline: no external links or assets
  EXPECT_EQ(page.find("<script"), std::string::npos);
  // Every link and image names a file of the folder.
  std::set<std::string> linked;
  const std::regex ref("(?:href|src)=\"([^\"]+)\"");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), ref); it != std::sregex_iterator(); ++it)
    linked.insert((*it)[1]);
  int scenarios = 0, pictures = 0;
  bool pairScenario = false;
  for (const std::string& f : linked) {
    EXPECT_EQ(f.find('/'), std::string::npos) << f;
    EXPECT_TRUE(exists(html + "/" + f)) << f;
    if (f.size() > 5 && f.compare(f.size() - 5, 5, ".json") == 0) {
      ++scenarios;
      const nlohmann::json s = nlohmann::json::parse(readAll(html + "/" + f));
      EXPECT_EQ(s["navbenchScenario"], 1);
      EXPECT_EQ(s["navmesh"].get<std::string>().find("default.bin"), s["navmesh"].get<std::string>().size() - 11);
      if (s["tool"]["name"] == "Pathfind Straight") {
        pairScenario = true;
        EXPECT_EQ(s["tool"]["state"]["shortest"], true);
      }
    }
    if (f.size() > 4 && f.compare(f.size() - 4, 4, ".png") == 0) {
      ++pictures;
      std::set<std::string> keys;
      EXPECT_TRUE(pngTextKeywords(html + "/" + f, keys)) << f;
      EXPECT_EQ(keys.count("navbench-scenario"), 1u) << f;
    }
  }
  EXPECT_EQ(scenarios, 4);
  EXPECT_TRUE(pairScenario);
  // The viewer is built beside navbench here: every row has its picture, and no note says otherwise.
  EXPECT_EQ(pictures, 4) << page;
  EXPECT_EQ(page.find("class=\"note\""), std::string::npos) << page;
  // No temporary folders left beside it.
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".report."), std::string::npos) << e.path();
}

TEST_F(CheckCli, HtmlWithoutViewerSaysWhy) {
  // navbench alone in a folder: no viewer beside it.
  const std::string lone = dir + "/navbench";
  std::filesystem::copy_file(NAVBENCH_EXE, lone);
  const std::string html = dir + "/out";
  const std::string cmd = lone + " check " + bin + " --pairs 20 --min-width 3 --html " + html + " --html-max 2 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  std::string out;
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  ASSERT_TRUE(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 1)) << out;
  const std::string page = readAll(html + "/index.html");
  EXPECT_NE(page.find("viewer (navbench-viewer) is not installed"), std::string::npos) << page;
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_TRUE(exists(html + "/finding-01.json"));
  EXPECT_FALSE(exists(html + "/finding-01.png"));
}

TEST_F(CheckCli, HtmlPicturesStopWhenTheirTimeIsUp) {
  const std::string html = dir + "/out";
  const CliRun r = navbench(bin + " --pairs 20 --min-width 3 --html " + html + " --html-max 2 --html-time 0");
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.out;
  const std::string page = readAll(html + "/index.html");
  EXPECT_NE(page.find("the time for pictures (0 s, --html-time) ran out"), std::string::npos) << page;
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_TRUE(exists(html + "/finding-02.json"));
  EXPECT_NE(r.out.find("--html: "), std::string::npos) << r.out; // said on stderr too
}

TEST_F(CheckCli, HtmlUnwritableExitsTwo) {
  const CliRun r = navbench(bin + " --pairs 20 --html " + dir + "/no/such/dir/report --json " + dir + "/r.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("no/such/dir"), std::string::npos) << r.out;
  EXPECT_FALSE(exists(dir + "/r.json"));
  EXPECT_FALSE(exists(dir + "/no"));
}

TEST_F(CheckCli, ReportsAndBaseline) {
  const std::string json = dir + "/r.json", xml = dir + "/r.xml", base = dir + "/b.json";
  CliRun r = navbench(bin + " --pairs 300 --json " + json + " --junit " + xml + " --write-baseline " + base);
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.out;
  const nlohmann::json j = nlohmann::json::parse(readAll(json));
  EXPECT_EQ(j["mesh"], bin);
  ASSERT_EQ(j["checks"].size(), 7u);
  bool anyFinding = false;
  for (const auto& c : j["checks"]) anyFinding = anyFinding || c["findings"].get<int>() > 0;
  EXPECT_EQ(r.code, anyFinding ? 1 : 0) << r.out;
  EXPECT_FALSE(j["islands"].empty());
  EXPECT_NE(readAll(xml).find("<testcase classname="), std::string::npos);
  // Everything found is in the baseline: a rerun against it passes.
  r = navbench(bin + " --pairs 300 --baseline " + base);
  EXPECT_EQ(r.code, 0) << r.out;
  // --fail-on error ignores warnings.
  r = navbench(bin + " --pairs 300 --fail-on error --no-seams --no-links --no-surface");
  EXPECT_EQ(r.code, 0) << r.out;
}

TEST_F(CheckCli, LevelIsBakedFirst) {
  const std::string obj = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.obj";
  const std::string json = dir + "/r.json";
  const CliRun r = navbench(obj + " --pairs 100 --json " + json);
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.out;
  const nlohmann::json j = nlohmann::json::parse(readAll(json));
  bool surfaceRan = false;
  for (const auto& c : j["checks"])
    if (c["name"] == "surface") surfaceRan = c["ran"].get<bool>();
  EXPECT_TRUE(surfaceRan); // the level's triangles came with it
}

TEST_F(CheckCli, GeneratedHelpAndUnknownOptions) {
  CliRun r = navbench("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("usage: navbench check ", 0), 0u) << r.out;
  for (const char* opt : {"--filter", "--seeds", "--pairs", "--seed", "--json", "--junit", "--write-baseline", "--baseline",
                          "--fail-on", "--min-width", "--node-budget", "--no-seams", "--html", "--html-max", "--html-time"})
    EXPECT_NE(r.out.find(std::string("\n  ") + opt + " "), std::string::npos) << opt;
  r = navbench("--no-such-option " + bin);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown option --no-such-option"), std::string::npos) << r.out;
  r = navbench(bin + " --fail-on sometimes");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--fail-on"), std::string::npos) << r.out;
  r = navbench(bin + " --filter 0xffef");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--filter"), std::string::npos) << r.out;
}

TEST_F(CheckCli, BadInputExitsTwoWithNoOutput) {
  const std::string json = dir + "/r.json";
  const std::string junk = dir + "/junk.bin";
  std::ofstream(junk) << "not a tile set";
  CliRun r = navbench(junk + " --json " + json);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("junk.bin"), std::string::npos) << r.out;
  EXPECT_FALSE(exists(json));
  r = navbench(bin + " --pairs 0 --json " + json);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--pairs"), std::string::npos) << r.out;
  r = navbench(bin + " --seeds 9999,0,9999 --json " + json);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("not on the navmesh"), std::string::npos) << r.out;
  r = navbench(bin + " --min-width -1");
  EXPECT_EQ(r.code, 2);
  r = navbench(bin + " --pairs 50 --json " + dir + "/no/such/dir/r.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("no/such/dir"), std::string::npos) << r.out;
  EXPECT_FALSE(exists(json));
}

#endif
