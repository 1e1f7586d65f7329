// bake_cli: `navbench bake` without the viewer's dependencies (same registry and code), for
// producing assets/levels/default.bin on machines or builds without SDL/GL.
#include "app/cli/Cli.h"

#include <cstdio>

int main(int argc, char** argv) {
  const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand("bake");
  if (!cmd) {
    std::fprintf(stderr, "bake_cli: the bake subcommand is not linked\n");
    return 1;
  }
  argv[0] = const_cast<char*>("bake");
  return cmd->run(argc, argv);
}
