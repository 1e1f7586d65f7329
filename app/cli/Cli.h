// Cli.h: the command-line subcommands of navbench (`navbench bake ...`, `navbench query ...`).
//
// Each subcommand lives in its own file in app/cli/ and registers itself with a static
// NAVBENCH_SUBCOMMAND(...) line; app/cli is built as an OBJECT library so every registration is
// linked. Subcommands use nav/ and nav/bake only (no SDL, no ImGui, no GL), so the same queries
// the viewer shows run headless. They print errors to stderr and return a non-zero exit code.
//
// Options are declared with base::Args (nav/base/Args.h), which also writes `navbench SUB --help`:
// usage errors exit 2 with a message naming the option, input that cannot be read or used exits 1
// or 2 as each subcommand's header says.
#pragma once

#include <string>

namespace nav {
class NavMesh;
}

namespace navbench::cli {

using SubcommandFn = int (*)(int argc, char** argv); // argv[0] is the subcommand name

struct Subcommand {
  const char* name;
  const char* summary; ///< One line for `navbench --help`.
  SubcommandFn run;
};

/// Registers a subcommand (called from static initialisers).
bool registerSubcommand(const Subcommand& cmd);
/// The registered subcommands, sorted by name.
int subcommandCount();
const Subcommand& subcommandAt(int i);
/// The subcommand named `name`, or null.
const Subcommand* findSubcommand(const char* name);

/// Loads a tile set file (MSET) into `mesh`; false after printing "PROGRAM: PATH: problem" to stderr.
bool loadTileSetOrSay(const char* program, const std::string& path, nav::NavMesh& mesh);
/// Loads MESH.bin, or bakes a level (.obj, .gltf, .glb or level .json) as `navbench check` does
/// (app/cli/CmdCheck.cpp); false with `why` naming the file.
bool loadMeshOrLevel(const std::string& path, nav::NavMesh& mesh, std::string& why);

} // namespace navbench::cli

#define NAVBENCH_SUBCOMMAND(ident, name, summary, fn) \
  static const bool navbench_registered_##ident = ::navbench::cli::registerSubcommand({name, summary, fn})
