// TestCasesTest.cpp: RecastDemo test-case files as regression tests (issue 7), through the real
// navbench binary: `navbench query MESH CASES --check` against the '# expect' lines of
// tests/app/data/default_cases.txt on the default level, doctored and malformed expectations,
// --write-expected, the shared RecastDemo files (skipped when ../shared is absent), and the
// viewer's Test cases panel driven headless (a dropped file, a click on its first row, a key).
// What the parser, the runner and the panel's session compute is checked without a binary in
// tests/model/TestCase*Test.cpp; these runs check the CLI's output and exit codes and the
// panel's input and pictures.
#include "TestUtil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using CmdRun = navbench::test::CommandResult;

CmdRun run(const std::string& args) {
  return navbench::test::runCommand(navbench::test::headlessEnv(std::string(NAVBENCH_TEST_TMP) + "/config") + "'" +
                                    NAVBENCH_EXE + "' " + args);
}

std::string tmp(const std::string& name) {
  fs::create_directories(NAVBENCH_TEST_TMP);
  return std::string(NAVBENCH_TEST_TMP) + "/" + name;
}
std::string q(const std::string& s) { return "'" + s + "'"; }

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
std::string writeText(const std::string& name, const std::string& text) {
  const std::string p = tmp(name);
  std::ofstream(p, std::ios::binary) << text;
  return p;
}
std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}
std::string join(const std::vector<std::string>& ls) {
  std::string o;
  for (const std::string& l : ls) o += l + "\n";
  return o;
}
bool isExpect(const std::string& l) { return l.rfind("# expect ", 0) == 0; }
bool isCase(const std::string& l) { return l.rfind("pf ", 0) == 0 || l.rfind("rc ", 0) == 0; }

const std::string kMesh = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";
const std::string kCases = std::string(NAVBENCH_SOURCE_DIR) + "/tests/app/data/default_cases.txt";

CmdRun check(const std::string& cases) { return run("query " + q(kMesh) + " " + q(cases) + " --check"); }

/// 1-based number of the line of the n-th (0-based) line matching `pred`.
template <class Pred> int nthLine(const std::vector<std::string>& ls, int n, Pred pred) {
  for (size_t i = 0; i < ls.size(); ++i)
    if (pred(ls[i]) && n-- == 0) return int(i) + 1;
  return -1;
}

/// `line` with key=value's value replaced by `value`.
std::string setKey(std::string line, const std::string& key, const std::string& value) {
  const size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return line;
  const size_t v = at + key.size() + 2, end = line.find(' ', v);
  return line.substr(0, v) + value + (end == std::string::npos ? "" : line.substr(end));
}
std::string keyValue(const std::string& line, const std::string& key) {
  const size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return "";
  const size_t v = at + key.size() + 2, end = line.find(' ', v);
  return line.substr(v, end == std::string::npos ? std::string::npos : end - v);
}

/// Runs the viewer with `args` and --dump-state; the dumped state (a non-object when the run or the
/// dump failed; the run's output is in *out).
json viewerState(const std::string& args, const std::string& tag, CmdRun* out) {
  const std::string dump = tmp(tag + ".json");
  fs::remove(dump);
  *out = run(args + " --dump-state " + q(dump));
  return out->exitCode == 0 ? json::parse(readText(dump), nullptr, false) : json();
}

} // namespace

// The committed cases on the committed default.bin: every case has an expectation and all hold.
TEST(TestCaseCheck, DefaultLevelCasesAsExpected) {
  const std::vector<std::string> ls = lines(readText(kCases));
  int ncase = 0, nexp = 0;
  for (const std::string& l : ls) ncase += isCase(l), nexp += isExpect(l);
  ASSERT_GT(ncase, 10);
  EXPECT_EQ(nexp, ncase);
  const CmdRun r = check(kCases);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find(std::to_string(ncase) + " of " + std::to_string(ncase) + " cases checked, 0 mismatch"),
            std::string::npos)
      << r.output;
}

// Edited expectations fail with "FILE:LINE:" of their case and the difference; a length inside
// the documented tolerance (1e-3 wu + 1e-4 * len) still passes.
TEST(TestCaseCheck, DoctoredExpectationsFailWithFileAndLine) {
  std::vector<std::string> ls = lines(readText(kCases));
  const int corridorLine = nthLine(ls, 1, isExpect);                                          // 2nd case (pf)
  const int rcLine = nthLine(ls, 0, [](const std::string& l) { return isExpect(l) && l.find(" t=") != std::string::npos; });
  const int nearLenLine = nthLine(ls, 0, isExpect);                                           // 1st case (pf)
  const int farLenLine = nthLine(ls, 3, isExpect);                                            // 4th case (pf)
  ASSERT_GT(rcLine, 0);
  std::string& cl = ls[size_t(corridorLine - 1)];
  cl = setKey(cl, "corridor", std::to_string(std::stoi(keyValue(cl, "corridor")) + 1));
  std::string& rl = ls[size_t(rcLine - 1)];
  rl = setKey(rl, "t", std::to_string(std::stod(keyValue(rl, "t")) + 0.01));
  char buf[64];
  std::string& nl = ls[size_t(nearLenLine - 1)];
  std::snprintf(buf, sizeof buf, "%.4f", std::stod(keyValue(nl, "len")) + 0.0005);
  nl = setKey(nl, "len", buf);
  std::string& fl = ls[size_t(farLenLine - 1)];
  std::snprintf(buf, sizeof buf, "%.4f", std::stod(keyValue(fl, "len")) + 0.05);
  fl = setKey(fl, "len", buf);
  const std::string doctored = writeText("doctored.txt", join(ls));

  const CmdRun r = check(doctored);
  EXPECT_EQ(r.exitCode, 1) << r.output;
  // Each mismatch names the case's line (the one above its expectation) and the difference.
  EXPECT_NE(r.output.find(doctored + ":" + std::to_string(corridorLine - 1) + ":"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("expectation on line " + std::to_string(corridorLine) + "): corridor"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(doctored + ":" + std::to_string(rcLine - 1) + ":"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("): t "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(doctored + ":" + std::to_string(farLenLine - 1) + ":"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("): len "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(doctored + ":" + std::to_string(nearLenLine - 1) + ":"), std::string::npos)
      << "0.0005 wu is within the tolerance\n" << r.output;
  EXPECT_NE(r.output.find(", 3 mismatch(es)"), std::string::npos) << r.output;
}

// A file the parser refuses (every refusal: tests/model/TestCaseFileTest.cpp): exit 1, the file,
// line and problem, and no case runs.
TEST(TestCaseCheck, AMalformedFileRunsNoCase) {
  const std::string f = writeText("malformed.txt", "pf 1 0 1 5 0 5 0xffff 0x0\n# expect visited=3\n");
  const CmdRun r = check(f);
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find(f + ":2: bad expectation: unknown key 'visited' for a pf case"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("operation"), std::string::npos) << "no cases may run on a bad file\n" << r.output;
}

// --write-expected on a file without expectations gives the committed ones back, keeps every other
// line, writes in place too, and a file RecastDemo's reader (emulated) still takes unchanged.
TEST(TestCaseCheck, WriteExpectedFillsTheFileIn) {
  const std::vector<std::string> committed = lines(readText(kCases));
  std::vector<std::string> bare, expects;
  for (const std::string& l : committed) (isExpect(l) ? expects : bare).push_back(l);
  const std::string in = writeText("bare.txt", join(bare));
  CmdRun r = check(in);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find("has no '# expect' lines"), std::string::npos) << r.output;

  const std::string out = tmp("filled.txt");
  fs::remove(out);
  r = run("query " + q(kMesh) + " " + q(in) + " --write-expected " + q(out));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  for (const auto& e : fs::directory_iterator(fs::path(out).parent_path()))
    EXPECT_NE(e.path().filename().string().rfind("filled.txt.tmp", 0), 0u) << "temporary file left: " << e.path();
  EXPECT_EQ(readText(out), join(committed)) << "same cases, same mesh: the committed expectations";
  EXPECT_EQ(check(out).exitCode, 0);

  // In place, over stale expectations: replaced, not duplicated.
  std::vector<std::string> stale = committed;
  const int first = nthLine(stale, 0, isExpect);
  stale[size_t(first - 1)] = setKey(stale[size_t(first - 1)], "corridor", "77");
  const std::string inplace = writeText("inplace.txt", join(stale));
  EXPECT_EQ(check(inplace).exitCode, 1);
  r = run("query " + q(kMesh) + " " + q(inplace) + " --write-expected " + q(inplace));
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(readText(inplace), join(committed));

  // An unwritable destination: a message naming it, no file.
  r = run("query " + q(kMesh) + " " + q(in) + " --write-expected " + q(tmp("no/such/dir/x.txt")));
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find(tmp("no/such/dir/x.txt")), std::string::npos) << r.output;

  // RecastDemo's TestCase::load, emulated: it looks at a row's first characters only ('s', 'f',
  // "pf", "rc") and scans 6 floats and 2 hex numbers; every other row is skipped.
  int recast = 0, ours = 0;
  for (const std::string& row : lines(readText(out))) {
    ours += isCase(row);
    if (row.size() < 2 || row[0] == 's' || row[0] == 'f') continue;
    if ((row[0] == 'p' && row[1] == 'f') || (row[0] == 'r' && row[1] == 'c')) {
      float v[6];
      unsigned short inc = 0, exc = 0;
      ASSERT_EQ(std::sscanf(row.c_str() + 2, "%f %f %f %f %f %f %hx %hx", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &inc, &exc), 8)
          << row;
      ++recast;
    }
  }
  EXPECT_EQ(recast, ours);
}

// RecastDemo's own files (../shared) on a nav_test.obj baked here: --write-expected then --check.
TEST(TestCaseCheck, SharedRecastDemoCases) {
  const fs::path shared = fs::path(NAVBENCH_SHARED_DIR) / "levels";
  const std::vector<std::string> files = {"nav_mesh_test.txt", "raycast_test.txt"};
  if (!fs::exists(shared / "nav_test.obj") || !fs::exists(shared / "testcases" / files[0]))
    GTEST_SKIP() << "shared levels not found at " << shared.string();
  const std::string bin = tmp("nav_test.bin");
  CmdRun r = run("bake " + q((shared / "nav_test.obj").string()) + " -o " + q(bin) + " -q --threads 1");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  for (const std::string& f : files) {
    const std::string src = (shared / "testcases" / f).string();
    if (!fs::exists(src)) continue;
    const std::string filled = tmp("filled_" + f);
    r = run("query " + q(bin) + " " + q(src) + " --write-expected " + q(filled));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    int ncase = 0, nexp = 0;
    for (const std::string& l : lines(readText(filled))) ncase += isCase(l), nexp += isExpect(l);
    EXPECT_GT(ncase, 0);
    EXPECT_EQ(nexp, ncase) << f;
    r = run("query " + q(bin) + " " + q(filled) + " --check --repeat 2");
    EXPECT_EQ(r.exitCode, 0) << f << "\n" << r.output;
  }
}

// The viewer: a dropped test-case file is run at once with the CLI's code (every expectation
// holds, as in `query --check`); a click on its first row shows case 0 in Pathfind Straight, and
// Down twice moves to case 2, an rc case, shown in Raycast with the case's exact start and end.
TEST(TestCasePanel, DropRunClickShowsTheCase) {
  const std::string level = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.obj";
  const std::string common = q(level) + " --drop " + q(kCases) + " --size 1280x720 --screenshot " + q(tmp("panel.png"));
  CmdRun r;
  const json s1 = viewerState(common, "panel1", &r);
  ASSERT_TRUE(s1.is_object()) << r.output;
  const json& tc = s1["testCases"];
  EXPECT_EQ(tc["path"], kCases);
  EXPECT_EQ(tc["error"], "");
  EXPECT_EQ(tc["geometry"], "default.obj");
  EXPECT_EQ(tc["levelNote"], "") << "made on the open level";
  ASSERT_TRUE(tc["ran"].get<bool>());
  ASSERT_EQ(tc["cases"].size(), 17u);
  for (const json& c : tc["cases"]) EXPECT_EQ(c["check"], 1) << c.dump();
  EXPECT_EQ(tc["cases"][0]["kind"], "pf");
  EXPECT_EQ(tc["cases"][2]["kind"], "rc");
  const float x = tc["firstRow"][0].get<float>(), y = tc["firstRow"][1].get<float>();
  ASSERT_GT(x, 0);
  ASSERT_GT(y, 0);

  char click[64];
  std::snprintf(click, sizeof click, " --click %.0f,%.0f", double(x), double(y));
  const json s2 = viewerState(common + click, "panel2", &r);
  ASSERT_TRUE(s2.is_object()) << r.output;
  EXPECT_EQ(s2["testCases"]["selected"], 0);
  EXPECT_EQ(s2["activeTool"], "Pathfind Straight");
  const json& c0 = tc["cases"][0];
  EXPECT_EQ(s2["toolState"]["start"], c0["s"]);
  EXPECT_EQ(s2["toolState"]["end"], c0["e"]);
  // The viewer's own query agrees with the table here (the ramp has the default area cost).
  EXPECT_EQ(s2["toolState"]["corridor"].size(), c0["polys"].get<size_t>());
  EXPECT_EQ(s2["toolState"]["straight"].size(), 3 * c0["straight"].get<size_t>());

  const json s3 = viewerState(common + click + " --key down --key down", "panel3", &r);
  ASSERT_TRUE(s3.is_object()) << r.output;
  EXPECT_EQ(s3["testCases"]["selected"], 2);
  EXPECT_EQ(s3["activeTool"], "Raycast");
  const json& c2 = tc["cases"][2];
  EXPECT_EQ(s3["toolState"]["start"], c2["s"]);
  EXPECT_EQ(s3["toolState"]["end"], c2["e"]);
  EXPECT_NEAR(s3["toolState"]["t"].get<double>(), c2["t"].get<double>(), 1e-6);
  // Export offers the shown case back as its own line.
  EXPECT_EQ(s3["testCases"]["exportLine"].get<std::string>().substr(0, 2), "rc");
}

// A bad file dropped on the viewer: the panel and the log name the file and line; the app goes on.
// A file whose `f` line names another level gets a note.
TEST(TestCasePanel, BadFileAndOtherLevelAreReported) {
  const std::string bad = writeText("bad_drop.txt", "s Solo Mesh\npf 1 0 1 5 0 5 0xffff 0x0\n# expect status=sideways\n");
  const std::string level = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.obj";
  CmdRun r;
  json s = viewerState(q(level) + " --drop " + q(bad) + " --size 640x480 --screenshot " + q(tmp("bad_drop.png")), "bad_drop", &r);
  ASSERT_TRUE(s.is_object()) << r.output;
  EXPECT_NE(s["testCases"]["error"].get<std::string>().find(bad + ":3: bad expectation"), std::string::npos) << s.dump();
  EXPECT_TRUE(s["testCases"]["cases"].empty());
  EXPECT_GE(s["logErrors"].get<int>(), 1);
  EXPECT_NE(r.output.find(bad + ":3"), std::string::npos) << r.output;

  // A good file made on another level: it runs, and the panel says which level it was made on.
  const std::string other = writeText("other_level.txt", "s Solo Mesh\nf nav_test.obj\npf 4 0 24 4 3 36 0x3 0x0\n");
  s = viewerState(q(level) + " --drop " + q(other) + " --size 640x480 --screenshot " + q(tmp("other_level.png")), "other_level", &r);
  ASSERT_TRUE(s.is_object()) << r.output;
  EXPECT_EQ(s["testCases"]["error"], "");
  EXPECT_EQ(s["testCases"]["cases"].size(), 1u);
  const std::string note = s["testCases"]["levelNote"];
  EXPECT_NE(note.find("nav_test.obj"), std::string::npos) << note;
  EXPECT_NE(note.find("default.obj"), std::string::npos) << note;
}

// "Append to file": the case shown (row 0, clicked) comes back as a pf line at the end of the
// file, written atomically; the panel re-reads and re-runs the file, and the CLI still checks it.
TEST(TestCasePanel, AppendExportsTheShownCase) {
  const std::string file = writeText("append.txt", readText(kCases));
  const std::string level = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.obj";
  const std::string common = q(level) + " --drop " + q(file) + " --size 1280x720 --screenshot " + q(tmp("append.png"));
  CmdRun r;
  auto state = [&](const std::string& extra, const std::string& tag) { return viewerState(common + extra, tag, &r); };
  json s = state("", "append1");
  ASSERT_TRUE(s.is_object());
  char click[64];
  std::snprintf(click, sizeof click, " --click %.0f,%.0f", s["testCases"]["firstRow"][0].get<double>(),
                s["testCases"]["firstRow"][1].get<double>());
  s = state(click, "append2");
  ASSERT_TRUE(s.is_object());
  const std::string line = s["testCases"]["exportLine"];
  EXPECT_EQ(line, "pf  4.000000 0.000000 24.000000  4.000000 3.000000 36.000000  0xffff 0x0");
  const double bx = s["testCases"]["appendButton"][0].get<double>(), by = s["testCases"]["appendButton"][1].get<double>();
  ASSERT_GT(bx, 0);
  EXPECT_EQ(readText(file), readText(kCases)) << "nothing written before the button is pressed";

  char click2[64];
  std::snprintf(click2, sizeof click2, " --click %.0f,%.0f", bx, by);
  s = state(std::string(click) + click2, "append3");
  ASSERT_TRUE(s.is_object());
  EXPECT_EQ(readText(file), readText(kCases) + line + "\n");
  const json& cases = s["testCases"]["cases"];
  ASSERT_EQ(cases.size(), 18u);
  EXPECT_EQ(cases[17]["s"], cases[0]["s"]);
  EXPECT_EQ(cases[17]["e"], cases[0]["e"]);
  EXPECT_EQ(cases[17]["status"], cases[0]["status"]);
  EXPECT_EQ(cases[17]["polys"], cases[0]["polys"]);
  EXPECT_EQ(cases[17]["check"], -1) << "the new case has no expectation yet";
  r = check(file);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("17 of 18 cases checked, 0 mismatch"), std::string::npos) << r.output;
}
