// CliOnlyMain.cpp: navbench's subcommands linked without the viewer (no SDL, ImGui, GL, PNG), to
// measure what the viewer's shared libraries cost a `navbench query` process at start-up (issue
// 18's whole-process comparison, tests/bench/query_process_bench.py --cli-only). The same
// dispatch as app/main.cpp: argv[1] names the subcommand, which gets argv from there on.
#include "app/cli/Cli.h"

#include <cstdio>

int main(int argc, char** argv) {
  if (argc > 1) {
    if (const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand(argv[1]))
      return cmd->run(argc - 1, argv + 1);
  }
  std::fprintf(stderr, "usage: navbench_cli_only <subcommand> [args...] (navbench's subcommands, no viewer)\n");
  return 2;
}
