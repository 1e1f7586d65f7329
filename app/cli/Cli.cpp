#include "app/cli/Cli.h"

#include "nav/TileSetFile.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace navbench::cli {
namespace {
std::vector<Subcommand>& registry() {
  static std::vector<Subcommand> r;
  return r;
}
} // namespace

bool registerSubcommand(const Subcommand& cmd) {
  auto& r = registry();
  r.push_back(cmd);
  std::sort(r.begin(), r.end(), [](const Subcommand& a, const Subcommand& b) { return std::strcmp(a.name, b.name) < 0; });
  return true;
}

int subcommandCount() { return int(registry().size()); }
const Subcommand& subcommandAt(int i) { return registry()[size_t(i)]; }

const Subcommand* findSubcommand(const char* name) {
  for (const Subcommand& c : registry())
    if (std::strcmp(c.name, name) == 0) return &c;
  return nullptr;
}

bool loadTileSetOrSay(const char* program, const std::string& path, nav::NavMesh& mesh) {
  std::string why;
  if (nav::statusSucceeded(nav::loadTileSetFile(path, mesh, &why))) return true;
  std::fprintf(stderr, "%s: %s\n", program, why.empty() ? (path + ": cannot load tile set").c_str() : why.c_str());
  return false;
}

} // namespace navbench::cli
