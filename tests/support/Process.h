// Process.h: test support for the tests that run a built binary (navbench, the Detour harness):
// per-process temp paths, running a command with its output captured, reading a file whole.
// Header only, std + POSIX.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace testproc {

/// The navbench executable the target was configured with (NAVBENCH_EXE), or null when the app is
/// not built in this configuration.
inline const char* navbenchExe() {
#ifdef NAVBENCH_EXE
  return NAVBENCH_EXE;
#else
  return nullptr;
#endif
}

/// $TMPDIR (else /tmp) / prefix + pid + "_" + name: one name per test process.
inline std::string tempPath(const std::string& prefix, const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + std::to_string(::getpid()) + "_" + name;
}

/// Runs cmd through the shell with stderr joined to stdout into *output; its exit code, or -1 when
/// it could not run or did not exit normally.
inline int runCommand(const std::string& cmd, std::string* output) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  output->clear();
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) output->append(buf, n);
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/// A file's bytes ("" when it cannot be read).
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace testproc
