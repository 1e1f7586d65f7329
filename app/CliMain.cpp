// CliMain.cpp: the `navbench` executable. A subcommand (argv[1] names one, app/cli/Cli.h) runs
// here, in a process that links nav and the subcommands only; anything else (a level, viewer
// options, --help) is the viewer's: this process becomes `navbench-viewer` from the same folder
// with the same arguments (execv, same pid, so exit codes and signals are the viewer's).
//
// Why two executables: the viewer links SDL2, ImGui and GL, whose ~58 shared libraries take about
// 6 ms to load and relocate at start-up, more than a whole `navbench query` on a small test-case
// file (docs/performance.md, "Whole process").
#include "app/cli/Cli.h"
#include "app/import/SceneImport.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>

#include <unistd.h>

namespace {

/// The folder of this executable ("/proc/self/exe"), or of argv[0] when that cannot be read.
std::string selfDir(const char* argv0) {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  std::string self = n > 0 ? std::string(buf, size_t(n)) : std::string(argv0 ? argv0 : "");
  const size_t slash = self.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : self.substr(0, slash);
}

} // namespace

int main(int argc, char** argv) {
  navbench::import::installSceneImporter(); // FBX, Collada, ... through navbench-import beside this executable
  if (argc > 1) {
    if (const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand(argv[1]))
      return cmd->run(argc - 1, argv + 1);
  }
  const std::string viewer = selfDir(argc > 0 ? argv[0] : nullptr) + "/navbench-viewer";
  execv(viewer.c_str(), argv);
  std::fprintf(stderr,
               "navbench: cannot start the viewer %s: %s (it is built and installed beside navbench; "
               "subcommands run without it: navbench bake|query|... --help)\n",
               viewer.c_str(), std::strerror(errno));
  return 1;
}
