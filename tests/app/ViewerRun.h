// ViewerRun.h: running the navbench viewer headless from a test and reading back its
// --dump-state JSON. Apart from TestUtil.h because it needs nlohmann_json (not every app test links it).
#pragma once

#include "TestUtil.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace navbench::test {

/// What a viewer run did, and the state it dumped (null when it wrote none or invalid JSON).
struct AppRun : CommandResult {
  nlohmann::json state;
};

/// Where one run writes: its screenshot (which ends the run), its state dump and its config
/// directory (XDG_CONFIG_HOME: no user settings are read); `cwd`, when not empty, is where it runs.
struct ViewerFiles {
  std::string png, dump, configDir, cwd;
};

/// Runs `exe args --screenshot png --dump-state dump` headless (a stale dump removed first) and
/// reads the dump back. Paths are single-quoted for the shell.
inline AppRun runViewer(const std::string& exe, const std::string& args, const ViewerFiles& f) {
  AppRun r;
  std::filesystem::remove(f.dump);
  const std::string cd = f.cwd.empty() ? std::string() : "cd '" + f.cwd + "' && ";
  static_cast<CommandResult&>(r) = runCommand(cd + headlessEnv(f.configDir) + "'" + exe + "' " + args + " --screenshot '" +
                                              f.png + "' --dump-state '" + f.dump + "'");
  std::ifstream in(f.dump);
  if (in) r.state = nlohmann::json::parse(in, nullptr, false);
  return r;
}

/// A folder of the running test's own (`root` / the test's name, emptied: ctest runs tests as
/// parallel processes) and viewer runs of `exe` at window size `size` ("1280x720") that write
/// their screenshot, dump (NAME.png, NAME.json) and config there. Made in a fixture's members.
struct TestViewer {
  TestViewer(std::string exe, const std::filesystem::path& root, std::string size)
      : exe(std::move(exe)), size(std::move(size)),
        dir(root / ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  AppRun run(const std::string& args, const std::string& name) const {
    return runViewer(exe, args + " --size " + size,
                     {(dir / (name + ".png")).string(), (dir / (name + ".json")).string(), (dir / "config").string(), ""});
  }
  std::string exe, size;
  std::filesystem::path dir;
};

} // namespace navbench::test
