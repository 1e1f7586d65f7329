#include "app/cli/Cli.h"

#include <algorithm>
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

} // namespace navbench::cli
