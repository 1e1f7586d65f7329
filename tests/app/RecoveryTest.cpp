// "Nothing lost" (issue 26), end to end through the navbench binary on a copy of the default level:
// a volume drawn by scripted clicks in an offscreen viewer that keeps running, then SIGTERM: the
// viewer exits within 5 s and `--recover` brings the volume back (headless); a viewer with nothing
// unsaved exits on SIGTERM too and leaves no journal; a broken journal is refused naming the file;
// a 400-frame headless screenshot run holds its memory under 400 MB.
#include "tests/support/Sanitizers.h"
#include "app/model/Recovery.h"
#include "tests/app/TestUtil.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string q(const std::string& s) { return "'" + s + "'"; }

using navbench::test::levelDir;

/// The environment of every run in `dir`: offscreen video, and the settings and the recovery
/// journals in the test's folder, not the user's.
std::string env(const std::string& dir) {
  return navbench::test::headlessEnv(dir + "/config") + "XDG_STATE_HOME=" + q(dir + "/state") + " ";
}

std::string journalDir(const std::string& dir) { return dir + "/state/navbench/recovery"; }

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

/// A viewer started in the background (`sh -c 'exec env ... navbench ...'`: the pid is the
/// viewer's, as navbench execs it), killed if the test ends before it exits.
class Viewer {
public:
  Viewer(const std::string& dir, const std::string& args) : m_log(dir + "/viewer.log") {
    fs::remove(m_log); // (waits read it: not the last run's)
    const std::string cmd = "cd " + q(dir) + " && exec env " + env(dir) + q(NAVBENCH_EXE) + " " + args + " > " + q(m_log) + " 2>&1";
    m_pid = ::fork();
    if (m_pid == 0) {
      ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Viewer() {
    if (m_pid > 0 && !m_exited) {
      ::kill(m_pid, SIGKILL);
      ::waitpid(m_pid, nullptr, 0);
    }
  }
  Viewer(const Viewer&) = delete;
  Viewer& operator=(const Viewer&) = delete;
  pid_t pid() const { return m_pid; }
  bool running() {
    if (m_exited) return false;
    const pid_t r = ::waitpid(m_pid, &m_status, WNOHANG);
    if (r == m_pid) m_exited = true;
    return !m_exited;
  }
  /// Waits up to `seconds` for the viewer to exit; false if it still runs.
  bool waitExit(double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (running()) {
      if (std::chrono::steady_clock::now() > end) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
  }
  /// Waits for the exit; the process's resource use (its peak RSS) in `ru`.
  bool waitUsage(struct rusage* ru) {
    if (m_exited) return false;
    m_exited = ::wait4(m_pid, &m_status, 0, ru) == m_pid;
    return m_exited;
  }
  int status() const { return m_status; }
  std::string log() const { return readFile(m_log); }

private:
  std::string m_log;
  pid_t m_pid = -1;
  int m_status = 0;
  bool m_exited = false;
};

/// Waits up to `seconds` for `ready()`, while the viewer runs.
template <class F>
bool waitFor(Viewer& v, double seconds, F ready) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (ready()) return true;
    if (!v.running()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

/// The journal of `dir`'s default.json, parsed (null when there is none or it does not parse).
json journal(const std::string& dir) {
  std::ifstream f(navbench::recoveryPath(journalDir(dir), dir + "/default.json"));
  return f ? json::parse(f, nullptr, false) : json();
}

size_t journalVolumes(const std::string& dir) {
  const json j = journal(dir);
  return j.is_object() && j.contains("edits") && j["edits"].is_object() && j["edits"].contains("volumes") ? j["edits"]["volumes"].size() : 0;
}

/// A headless run in `dir` (screenshot + state dump), its output and dumped state.
struct AppRun : navbench::test::CommandResult {
  json state;
};
AppRun headless(const std::string& dir, const std::string& args) {
  AppRun r;
  const std::string dump = dir + "/state.json";
  fs::remove(dump);
  static_cast<navbench::test::CommandResult&>(r) = navbench::test::runCommand(
      "cd " + q(dir) + " && " + env(dir) + q(NAVBENCH_EXE) + " default.json --size 1280x720 " + args + " --screenshot " +
      q(dir + "/shot.png") + " --dump-state " + q(dump));
  std::ifstream f(dump);
  if (f) r.state = json::parse(f, nullptr, false);
  return r;
}

// Floor points of hall A at 1280x720 (tests/app/EditToolsTest.cpp): three clicks and Enter close a
// volume (the default area, grass) beside the level file's two.
const char* kVolume = "--click 700,400 --click 740,420 --click 720,450 --key return";

TEST(Recovery, VolumeComesBackAfterSigterm) {
  const std::string dir = levelDir("sigterm");
  Viewer v(dir, std::string("default.json --size 1280x720 --tool 'Convex Volumes' ") + kVolume);
  ASSERT_GT(v.pid(), 0);
  // The volume is journaled as soon as it is added: the viewer keeps running meanwhile.
  ASSERT_TRUE(waitFor(v, 150, [&] { return journalVolumes(dir) == 3; }))
      << "no journal with the new volume in " << journalDir(dir) << "; viewer running: " << v.running() << "\n" << v.log();
  EXPECT_TRUE(v.running()) << v.log();

  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(::kill(v.pid(), SIGTERM), 0);
  ASSERT_TRUE(v.waitExit(5.0)) << "still running 5 s after SIGTERM\n" << v.log();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 5.0);
  ASSERT_TRUE(WIFEXITED(v.status())) << "killed, not exited: signal " << WTERMSIG(v.status());
  EXPECT_EQ(WEXITSTATUS(v.status()), 128 + SIGTERM);
  EXPECT_NE(v.log().find("--recover"), std::string::npos) << "the exit says how to restore\n" << v.log();

  // The journal: a scenario of this level holding the volume.
  const json j = journal(dir);
  ASSERT_TRUE(j.is_object()) << "the journal is gone after SIGTERM";
  EXPECT_EQ(j["level"], (fs::path(dir) / "default.json").lexically_normal().string());
  ASSERT_EQ(j["edits"]["volumes"].size(), 3u) << j.dump();
  const json added = j["edits"]["volumes"][2];
  EXPECT_EQ(added["verts"].size(), 3u) << added.dump();

  // Opened again headless without --recover: the level file's two volumes, the journal kept.
  const AppRun plain = headless(dir, "");
  ASSERT_EQ(plain.exitCode, 0) << plain.output;
  EXPECT_EQ(plain.state["editor"]["volumes"].size(), 2u);
  EXPECT_NE(plain.output.find("--recover restores them"), std::string::npos) << plain.output;
  EXPECT_EQ(journalVolumes(dir), 3u) << "a headless run leaves the journal alone";

  // --recover: the volume is back, re-baked into the navmesh, unsaved (the level file unchanged).
  const std::string levelFile = readFile(dir + "/default.json");
  const AppRun rec = headless(dir, "--recover");
  ASSERT_EQ(rec.exitCode, 0) << rec.output;
  EXPECT_NE(rec.output.find("restored the unsaved edits"), std::string::npos) << rec.output;
  ASSERT_EQ(rec.state["editor"]["volumes"].size(), 3u) << rec.state["editor"].dump();
  EXPECT_EQ(rec.state["editor"]["volumes"][2], added);
  EXPECT_TRUE(rec.state["editor"]["unsaved"].get<bool>());
  EXPECT_GE(rec.state["editor"]["rebakes"].get<int>(), 1) << "the restored volume is baked in";
  EXPECT_EQ(rec.state["activeTool"], "Convex Volumes");
  EXPECT_EQ(readFile(dir + "/default.json"), levelFile);
  EXPECT_TRUE(rec.state["recovery"]["exists"].get<bool>());
}

// Opening a level with a journal asks: R restores (the journal is kept while the edits are
// unsaved), D discards (the journal is removed).
TEST(Recovery, ThePromptRestoresOrDiscards) {
  const std::string dir = levelDir("prompt");
  {
    Viewer v(dir, std::string("default.json --size 1280x720 --tool 'Convex Volumes' ") + kVolume);
    ASSERT_TRUE(waitFor(v, 150, [&] { return journalVolumes(dir) == 3; })) << v.log();
    ::kill(v.pid(), SIGTERM);
    ASSERT_TRUE(v.waitExit(5.0)) << v.log();
  }
  {
    Viewer v(dir, "default.json --size 1280x720 --key r");
    ASSERT_TRUE(waitFor(v, 120, [&] { return v.log().find("restored the unsaved edits") != std::string::npos; })) << v.log();
    ::kill(v.pid(), SIGTERM);
    ASSERT_TRUE(v.waitExit(5.0)) << v.log();
    EXPECT_EQ(journalVolumes(dir), 3u) << "restored, still unsaved: kept\n" << v.log();
  }
  {
    Viewer v(dir, "default.json --size 1280x720 --key d");
    ASSERT_TRUE(waitFor(v, 120, [&] { return v.log().find("discarded") != std::string::npos; })) << v.log();
    EXPECT_FALSE(fs::exists(navbench::recoveryPath(journalDir(dir), dir + "/default.json"))) << v.log();
    ::kill(v.pid(), SIGTERM);
    ASSERT_TRUE(v.waitExit(5.0)) << v.log();
    EXPECT_TRUE(journal(dir).is_null()) << "nothing unsaved after the discard: no journal";
  }
}

TEST(Recovery, SigtermWithNothingUnsavedExitsAndLeavesNoJournal) {
  const std::string dir = levelDir("clean");
  Viewer v(dir, "default.json --size 640x480");
  ASSERT_TRUE(waitFor(v, 120, [&] { return v.log().find("opened navmesh") != std::string::npos; })) << v.log();
  std::this_thread::sleep_for(std::chrono::milliseconds(300)); // in the frame loop
  ASSERT_EQ(::kill(v.pid(), SIGTERM), 0);
  ASSERT_TRUE(v.waitExit(5.0)) << "still running 5 s after SIGTERM\n" << v.log();
  ASSERT_TRUE(WIFEXITED(v.status()));
  EXPECT_EQ(WEXITSTATUS(v.status()), 128 + SIGTERM);
  std::error_code ec;
  EXPECT_TRUE(!fs::exists(journalDir(dir), ec) || fs::is_empty(journalDir(dir), ec)) << "nothing unsaved: no journal";
}

TEST(Recovery, SighupAndSigintStopAHeadlessRun) {
  const std::string dir = levelDir("headless_signal");
  for (int sig : {SIGHUP, SIGINT}) {
    Viewer v(dir, "default.json --size 640x480 --frames 1000 --screenshot shot.png");
    ASSERT_TRUE(waitFor(v, 120, [&] { return v.log().find("opened navmesh") != std::string::npos; })) << v.log();
    ASSERT_EQ(::kill(v.pid(), sig), 0);
    ASSERT_TRUE(v.waitExit(5.0)) << "signal " << sig << ": still running after 5 s\n" << v.log();
    ASSERT_TRUE(WIFEXITED(v.status()));
    EXPECT_EQ(WEXITSTATUS(v.status()), 128 + sig);
  }
}

TEST(Recovery, BrokenJournalIsRefusedNamingIt) {
  const std::string dir = levelDir("broken");
  const std::string path = navbench::recoveryPath(journalDir(dir), dir + "/default.json");
  fs::create_directories(journalDir(dir));
  std::ofstream(path) << R"({"navbenchScenario": 1, "level": 12, "navmesh": "", "camera": {}, "tool": {"name": "Pick"}, "filter": {}})";
  const AppRun r = headless(dir, "--recover");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find(path), std::string::npos) << "the message names the journal\n" << r.output;
  EXPECT_NE(r.output.find("level"), std::string::npos) << "and the problem\n" << r.output;
  EXPECT_TRUE(fs::exists(path)) << "left for the user";
}

TEST(Recovery, HeadlessScreenshotRunHoldsMemoryFlat) {
#ifdef NAVBENCH_RSS_MEANINGLESS
  GTEST_SKIP() << "a sanitizer's shadow memory and quarantine count in the RSS: the Release suite checks this limit";
#endif
  const std::string dir = levelDir("memory");
  // 400 frames at 1280x720 without waiting for each piled up 887 MB on software GL.
  Viewer v(dir, "default.obj --size 1280x720 --frames 400 --screenshot shot.png");
  ASSERT_GT(v.pid(), 0);
  struct rusage ru {};
  ASSERT_TRUE(v.waitUsage(&ru));
  ASSERT_TRUE(WIFEXITED(v.status()) && WEXITSTATUS(v.status()) == 0) << v.log();
  const double peakMb = double(ru.ru_maxrss) / 1024.0; // ru_maxrss: KiB on Linux
  std::printf("400 frames at 1280x720: peak RSS %.0f MB\n", peakMb);
  EXPECT_LT(peakMb, 400.0);
  EXPECT_TRUE(fs::exists(dir + "/shot.png"));
}

} // namespace
