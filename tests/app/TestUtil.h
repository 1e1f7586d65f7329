// TestUtil.h: small helpers for the app tests (temporary files, running the binary).
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace navbench::test {

/// What a shell command did: its exit code (-1 when it did not exit normally) and its stdout +
/// stderr.
struct CommandResult {
  int exitCode = -1;
  std::string output;
};

/// Runs `cmd` with /bin/sh, stderr merged into the captured stdout.
inline CommandResult runCommand(const std::string& cmd) {
  CommandResult r;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int status = ::pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Environment assignments (with a trailing space) for running the viewer headless: offscreen
/// SDL video, and no leak check under AddressSanitizer (the GL driver's own allocations at exit are
/// not ours). A non-empty `configDir` becomes XDG_CONFIG_HOME, so no user settings are read.
inline std::string headlessEnv(const std::string& configDir = std::string()) {
  std::string env = "SDL_VIDEODRIVER=offscreen ";
  if (!configDir.empty()) env += "XDG_CONFIG_HOME='" + configDir + "' ";
  return env + "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" ";
}

/// A fresh directory under the system temp dir, removed with the object.
class TempDir {
public:
  TempDir() {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("navbench_") + (info ? info->test_suite_name() : "t") + "_" +
                       (info ? info->name() : "x") + "_" + std::to_string(::getpid());
    m_path = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  std::string file(const std::string& name) const { return (m_path / name).string(); }
  /// Writes `content` (binary-safe) to `name` and returns its path.
  std::string write(const std::string& name, const std::string& content) const {
    std::string p = file(name);
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  const std::filesystem::path& path() const { return m_path; }

private:
  std::filesystem::path m_path;
};

#if defined(NAVBENCH_TEST_TMP) && defined(NAVBENCH_DEFAULT_LEVEL)
/// A fresh folder NAVBENCH_TEST_TMP/`tag` holding a copy of the default level (OBJ, MTL, level file
/// and its .bin), for tests that edit, save or journal the level.
inline std::string levelDir(const std::string& tag) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(NAVBENCH_TEST_TMP) / tag;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path src = fs::path(NAVBENCH_DEFAULT_LEVEL).parent_path();
  for (const char* f : {"default.obj", "default.mtl", "default.json", "default.bin"}) fs::copy_file(src / f, dir / f);
  return dir.string();
}
#endif

} // namespace navbench::test
