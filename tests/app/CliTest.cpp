// The real navbench binary from the command line: --help (the viewer's and each subcommand's),
// bad input in screenshot mode, and bad options. Runs headless (SDL_VIDEODRIVER=offscreen is set by ctest).
#include "TestUtil.h"
#include "render/Screenshot.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

using Result = navbench::test::CommandResult;

// Runs navbench with `args` (shell syntax), optionally prefixed by environment assignments.
Result run(const std::string& args, const std::string& env = "") {
  return navbench::test::runCommand(navbench::test::headlessEnv() + env + "'" + NAVBENCH_EXE + "' " + args);
}

std::string tmpDir() {
  std::filesystem::create_directories(NAVBENCH_TEST_TMP);
  return NAVBENCH_TEST_TMP;
}

std::string writeFile(const std::string& name, const std::string& content) {
  const std::string p = tmpDir() + "/" + name;
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

// Screenshot mode with a bad level: exit 1, one message naming the file, and no PNG written.
void expectBadLevel(const std::string& level, const std::string& problem) {
  const std::string png = tmpDir() + "/should_not_exist.png";
  std::filesystem::remove(png);
  Result r = run("'" + level + "' --screenshot '" + png + "' --size 320x200");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find(level), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(problem), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(png));
}

} // namespace

TEST(Cli, HelpListsOptionsAndSubcommands) {
  Result r = run("--help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.output.find("--screenshot"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Subcommands"), std::string::npos) << r.output;
}

TEST(Cli, BadOptions) {
  Result r = run("--size 12by7");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("--size"), std::string::npos) << r.output;
  r = run("--no-such-option");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("unknown option"), std::string::npos) << r.output;
  r = run("a.obj b.obj");
  EXPECT_EQ(r.exitCode, 2);
}

// Every subcommand declares its options once (nav/base/Args.h): `navbench SUB --help` is generated
// from them (exit 0, stdout), and a usage error names the option, shows the usage line and exits 2.
TEST(Cli, SubcommandsHaveGeneratedHelpAndRefuseUnknownOptions) {
  // (...) keeps one stream: help on stdout, errors on stderr.
  auto only = [](const std::string& args, const char* redirect) {
    return navbench::test::runCommand("('" + std::string(NAVBENCH_EXE) + "' " + args + " " + redirect + ")");
  };
  for (const char* sub : {"bake", "crowd", "diff", "obstacles", "quality", "query", "replay", "worldgen"}) {
    Result r = only(std::string(sub) + " --help", "2>/dev/null");
    EXPECT_EQ(r.exitCode, 0) << sub << r.output;
    EXPECT_EQ(r.output.rfind(std::string("usage: navbench ") + sub + " ", 0), 0u) << r.output;
    EXPECT_NE(r.output.find("\n  -h, --help "), std::string::npos) << r.output;
    r = only(std::string(sub) + " --no-such-option x.bin", "2>&1 >/dev/null");
    EXPECT_EQ(r.exitCode, 2) << sub << r.output;
    EXPECT_EQ(r.output.rfind(std::string("navbench ") + sub + ": unknown option --no-such-option\nusage: navbench " + sub, 0), 0u)
        << r.output;
  }
  const Result r = run("query a.bin b.txt --repeat 0");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("--repeat needs a number in 1..100000, not '0'"), std::string::npos) << r.output;
}

TEST(Cli, BadLevelFilesFailWithAClearMessage) {
  expectBadLevel(tmpDir() + "/does_not_exist.obj", "cannot open");
  expectBadLevel(writeFile("binary.obj", std::string("\x89PNG\r\n\x1a\n\0\0\0", 11)), "not an OBJ file");
  expectBadLevel(writeFile("text.obj", "just some words\n"), "not an OBJ file");
  expectBadLevel(writeFile("nofaces.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\n"), "no faces");
  expectBadLevel(writeFile("range.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n"), "out of range");
  expectBadLevel(writeFile("nan.obj", "v 0 0 0\nv nan 0 0\nv 0 0 1\nf 1 2 3\n"), "not a finite number");
}

TEST(Cli, ScreenshotOfATinyLevelAtTheRequestedSize) {
  const std::string level = writeFile("quad.obj", "v -5 0 -5\nv 5 0 -5\nv 5 0 5\nv -5 0 5\nf 1 4 3 2\n");
  const std::string png = tmpDir() + "/quad.png";
  std::filesystem::remove(png);
  Result r = run("'" + level + "' --screenshot '" + png + "' --size 320x240 --frames 2");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  render::Image img;
  std::string error;
  ASSERT_TRUE(render::readPng(png, img, error)) << error;
  EXPECT_EQ(img.width, 320);
  EXPECT_EQ(img.height, 240);
  // Unwritable output: exit 1 with a message naming it.
  r = run("'" + level + "' --screenshot /nonexistent/dir/out.png --size 320x240 --frames 1");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.output.find("/nonexistent/dir/out.png"), std::string::npos) << r.output;
}

namespace {
// Pixels close to the pick marker's colour (255, 196, 0).
int markerPixels(const render::Image& img) {
  int n = 0;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4)
    n += (img.rgba[i] > 235 && img.rgba[i + 1] > 176 && img.rgba[i + 1] < 216 && img.rgba[i + 2] < 40) ? 1 : 0;
  return n;
}
} // namespace

TEST(Cli, ScriptedClickPicksTheLevelAndDrawsTheMarker) {
  const std::string withClick = tmpDir() + "/click.png", without = tmpDir() + "/noclick.png";
  Result r = run(std::string("'") + NAVBENCH_DEFAULT_LEVEL + "' --screenshot '" + withClick +
                 "' --size 640x360 --click 320,180");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  r = run(std::string("'") + NAVBENCH_DEFAULT_LEVEL + "' --screenshot '" + without + "' --size 640x360");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  render::Image a, b;
  std::string error;
  ASSERT_TRUE(render::readPng(withClick, a, error)) << error;
  ASSERT_TRUE(render::readPng(without, b, error)) << error;
  EXPECT_GT(markerPixels(a), 20); // the 10 px marker and the agent-radius circle
  EXPECT_EQ(markerPixels(b), 0);
  r = run("--click '1;2'");
  EXPECT_EQ(r.exitCode, 2);
}

namespace {
// A copy of the real shaders in a fresh directory, for breaking one of them.
std::string copyShaders(const std::string& name) {
  const std::filesystem::path src = std::filesystem::path(NAVBENCH_EXE).parent_path() / "shaders";
  const std::filesystem::path dst = std::filesystem::path(tmpDir()) / name;
  std::filesystem::remove_all(dst);
  std::filesystem::create_directories(dst);
  for (const auto& e : std::filesystem::directory_iterator(src)) std::filesystem::copy_file(e.path(), dst / e.path().filename());
  return dst.string();
}
} // namespace

TEST(Cli, BrokenShaderNamesTheFileAndTheGlslLog) {
  const std::string dir = copyShaders("broken_shaders");
  std::ofstream(dir + "/level.frag", std::ios::app) << "\nthis is not glsl;\n";
  Result r = run("--screenshot '" + tmpDir() + "/x.png' --size 64x64 --frames 1", "NAVBENCH_SHADER_DIR='" + dir + "' ");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find(dir + "/level.frag"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("failed to compile"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("error"), std::string::npos) << r.output; // the GLSL compiler's log
}

TEST(Cli, MissingShaderNamesTheFile) {
  const std::string dir = copyShaders("missing_shaders");
  std::filesystem::remove(dir + "/debug_line.geom");
  Result r = run("--screenshot '" + tmpDir() + "/x.png' --size 64x64 --frames 1", "NAVBENCH_SHADER_DIR='" + dir + "' ");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find(dir + "/debug_line.geom"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cannot read"), std::string::npos) << r.output;
}

TEST(Cli, ViewerKeepsItsLevelWhenADroppedFileIsBad) {
  // The viewer (not the CLI) gets a bad file by drag and drop: it logs the problem, keeps the
  // level it had and keeps running; the screenshot still shows the level.
  const std::string bad = writeFile("dropped_bad.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n");
  const std::string png = tmpDir() + "/after_bad_drop.png";
  std::filesystem::remove(png);
  Result r = run(std::string("'") + NAVBENCH_DEFAULT_LEVEL + "' --drop '" + bad + "' --screenshot '" + png +
                 "' --size 1280x720");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find(bad + ":3: face index 3 out of range"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("keeping"), std::string::npos) << r.output;
  render::Image img;
  std::string error;
  ASSERT_TRUE(render::readPng(png, img, error)) << error;
  // The default level is still drawn in the middle of the frame.
  int level = 0;
  for (int y = 220; y < 500; ++y)
    for (int x = 450; x < 830; ++x) {
      const uint8_t* p = &img.rgba[(size_t(y) * 1280 + size_t(x)) * 4];
      level += (p[0] + p[1] + p[2]) > 250 ? 1 : 0; // lit level surface: not the dark clear colour or UI
    }
  EXPECT_GT(level, 380 * 280 / 2);

  // A good file dropped on the viewer replaces the level.
  const std::string good = writeFile("dropped_good.obj", "v -1 0 -1\nv 1 0 -1\nv 1 0 1\nv -1 0 1\nf 1 4 3 2\n");
  r = run(std::string("'") + NAVBENCH_DEFAULT_LEVEL + "' --drop '" + good + "' --screenshot '" + png + "' --size 320x200");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("opened " + good), std::string::npos) << r.output;
}

TEST(Cli, ScriptedClickOnTheUiIsNotAPick) {
  // 1280x720 default layout: the View panel's "Wireframe" checkbox is at (1093, 427). Clicking it
  // turns the wireframe overlay on (the level pixels change) and must not pick the level behind.
  const std::string plain = tmpDir() + "/ui_plain.png", wire = tmpDir() + "/ui_wire.png";
  Result r = run(std::string("'") + NAVBENCH_DEFAULT_LEVEL + "' --screenshot '" + plain + "' --size 1280x720");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  r = run(std::string("'") + NAVBENCH_DEFAULT_LEVEL + "' --screenshot '" + wire + "' --size 1280x720 --click 1093,427");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  render::Image a, b;
  std::string error;
  ASSERT_TRUE(render::readPng(plain, a, error)) << error;
  ASSERT_TRUE(render::readPng(wire, b, error)) << error;
  EXPECT_EQ(markerPixels(b), 0) << "the click on the panel went through to the level";
  int changed = 0;
  for (int y = 100; y < 550; ++y)
    for (int x = 300; x < 1000; ++x) {
      const size_t i = (size_t(y) * 1280 + size_t(x)) * 4;
      changed += (std::abs(int(a.rgba[i]) - int(b.rgba[i])) + std::abs(int(a.rgba[i + 1]) - int(b.rgba[i + 1])) > 30) ? 1 : 0;
    }
  EXPECT_GT(changed, 2000) << "the wireframe overlay did not appear";
}

// Panel layout is remembered between runs: ImGui reads and writes $XDG_CONFIG_HOME/navbench/imgui.ini
// in an interactive run (ended by SIGTERM, which SDL turns into a normal quit); headless runs
// neither read nor write it.
TEST(Cli, PanelLayoutIsKeptInTheConfigDir) {
  namespace fs = std::filesystem;
  const std::string cfg = tmpDir() + "/layout_cfg";
  fs::remove_all(cfg);
  fs::create_directories(cfg + "/navbench");
  const std::string ini = cfg + "/navbench/imgui.ini";
  std::ofstream(ini) << "[Window][Tools]\nPos=333,222\nSize=250,300\nCollapsed=0\n\n";
  // Headless: the ini is left alone.
  Result shot = run("'" + std::string(NAVBENCH_DEFAULT_LEVEL) + "' --screenshot '" + tmpDir() +
                        "/layout.png' --size 640x400", "XDG_CONFIG_HOME='" + cfg + "' ");
  ASSERT_EQ(shot.exitCode, 0) << shot.output;
  auto slurp = [&] {
    std::ifstream in(ini);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  EXPECT_EQ(slurp().find("[Window][View]"), std::string::npos) << slurp();
  // Interactive (offscreen window), quit after 2 s: ImGui kept the Tools window where the ini put
  // it and saved every other panel too.
  run("'" + std::string(NAVBENCH_DEFAULT_LEVEL) + "' --size 640x400", "XDG_CONFIG_HOME='" + cfg + "' timeout -s TERM 2 ");
  const std::string after = slurp();
  const size_t tools = after.find("[Window][Tools]");
  ASSERT_NE(tools, std::string::npos) << after;
  EXPECT_EQ(after.find("Pos=333,222", tools), after.find("Pos=", tools)) << after;
  EXPECT_NE(after.find("[Window][View]"), std::string::npos) << after;
  EXPECT_TRUE(fs::exists(cfg + "/navbench/settings.ini"));
}
