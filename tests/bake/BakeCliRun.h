// BakeCliRun.h: `navbench bake ARGS...` run in this process through the subcommand registry (the
// code the navbench binary runs), for the tests of bake_cli_tests.
#pragma once

#include "app/cli/Cli.h"

#include <string>
#include <vector>

namespace baketest {

/// The subcommand's exit status; -100 when `bake` is not linked.
inline int runBakeCli(std::vector<std::string> args) {
  const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand("bake");
  if (!cmd) return -100;
  args.insert(args.begin(), "bake");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return cmd->run(int(args.size()), argv.data());
}

} // namespace baketest
