// AtomicWriteTest.cpp: no data loss (issue 8). Every file writer goes through nav/base/AtomicFile.h;
// when the write fails (the temporary file cannot be created, or the disk "fills up" half-way,
// simulated with RLIMIT_FSIZE, which also binds root) the old file is still there, byte for byte,
// no temporary file is left behind, and the error names the file.
#include "app/Settings.h"
#include "app/cli/WorldGen.h"
#include "nav/base/AtomicFile.h"
#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"
#include "render/Screenshot.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct TempDir {
  fs::path dir;
  TempDir() {
    dir = fs::path(::testing::TempDir()) / ("navbench_atomic_" + std::to_string(::getpid()) + "_" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string file(const char* name) const { return (dir / name).string(); }
};

/// Caps the size of files this process writes (EFBIG past it; SIGXFSZ ignored) while in scope.
struct FileSizeLimit {
  rlimit old{};
  explicit FileSizeLimit(rlim_t bytes) {
    std::signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &old);
    rlimit r = old;
    r.rlim_cur = bytes;
    EXPECT_EQ(setrlimit(RLIMIT_FSIZE, &r), 0);
  }
  ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &old); }
};

/// One writer under test: writes something (bigger than 256 bytes) to `path`, returns its error.
using Writer = std::function<bool(const std::string& path, std::string& error)>;

std::vector<std::pair<std::string, Writer>> writers() {
  std::vector<std::pair<std::string, Writer>> w;
  w.emplace_back("base::writeFileAtomic", [](const std::string& p, std::string& e) {
    return base::writeFileAtomic(p, std::string(4096, 'x'), e);
  });
  w.emplace_back("saveTileSetFile", [](const std::string& p, std::string& e) {
    nav::NavMesh mesh;
    if (nav::statusFailed(nav::loadTileSetFile(NAVBENCH_SOURCE_DIR "/assets/levels/default.bin", mesh, &e))) return false;
    return nav::statusSucceeded(nav::saveTileSetFile(mesh, p, &e));
  });
  w.emplace_back("saveLevelFile", [](const std::string& p, std::string& e) {
    nav::bake::Level level;
    if (!nav::bake::loadLevelFile(NAVBENCH_SOURCE_DIR "/assets/levels/default.json", &level, &e)) return false;
    return nav::bake::saveLevelFile(p, level, &e);
  });
  w.emplace_back("Settings::save", [](const std::string& p, std::string& e) {
    navbench::Settings s;
    for (int i = 0; i < 8; ++i) s.recentFiles.push_back("/levels/some/long/path/level_" + std::to_string(i) + ".obj");
    return s.save(p, e);
  });
  w.emplace_back("render::writePng", [](const std::string& p, std::string& e) {
    render::Image img;
    img.width = img.height = 64;
    img.rgba.resize(64 * 64 * 4);
    for (size_t i = 0; i < img.rgba.size(); ++i) img.rgba[i] = uint8_t((i * 2654435761u) >> 13); // incompressible-ish
    img.text.emplace_back("navbench-test", "x");
    return render::writePng(p, img, e);
  });
  w.emplace_back("writeWorldObj", [](const std::string& p, std::string& e) {
    navbench::worldgen::WorldParams wp;
    wp.size = 64;
    wp.terrainCell = 4;
    return navbench::worldgen::writeWorldObj(wp, p, nullptr, &e);
  });
  return w;
}

const char OLD[] = "the old file's content\n";

void writeOld(const std::string& path) {
  std::ofstream(path, std::ios::binary) << OLD;
}

TEST(AtomicWrite, EveryWriterReplacesTheFileWhenItCan) {
  TempDir t;
  for (const auto& [name, write] : writers()) {
    const std::string path = t.file("out.dat");
    writeOld(path);
    std::string error;
    EXPECT_TRUE(write(path, error)) << name << ": " << error;
    const std::string now = readAll(path);
    EXPECT_NE(now, OLD) << name;
    EXPECT_GT(now.size(), 256u) << name;
    EXPECT_FALSE(fs::exists(base::atomicTempPath(path))) << name;
    EXPECT_EQ(std::distance(fs::directory_iterator(t.dir), fs::directory_iterator()), 1) << name << ": stray files";
  }
}

TEST(AtomicWrite, TemporaryFileCannotBeCreatedKeepsTheOldFile) {
  // A directory where the temporary file should go: fopen fails, even for root.
  TempDir t;
  for (const auto& [name, write] : writers()) {
    const std::string path = t.file("out.dat");
    writeOld(path);
    fs::create_directory(base::atomicTempPath(path));
    std::string error;
    EXPECT_FALSE(write(path, error)) << name;
    EXPECT_NE(error.find(path), std::string::npos) << name << ": " << error;
    EXPECT_EQ(readAll(path), OLD) << name << ": the old file must survive";
    fs::remove(base::atomicTempPath(path));
  }
}

TEST(AtomicWrite, DiskFullHalfWayKeepsTheOldFileAndLeavesNoTemporary) {
  TempDir t;
  for (const auto& [name, write] : writers()) {
    const std::string path = t.file("out.dat");
    writeOld(path);
    std::string error;
    bool ok;
    {
      FileSizeLimit limit(256);
      ok = write(path, error);
    }
    EXPECT_FALSE(ok) << name;
    EXPECT_NE(error.find(path), std::string::npos) << name << ": " << error;
    EXPECT_EQ(readAll(path), OLD) << name << ": the old file must survive";
    EXPECT_FALSE(fs::exists(base::atomicTempPath(path))) << name << ": temporary file left behind";
  }
}

TEST(AtomicWrite, AtomicFileDiscardedBeforeCommitLeavesTheOldFile) {
  TempDir t;
  const std::string path = t.file("out.dat");
  writeOld(path);
  {
    base::AtomicFile out(path);
    std::string why;
    ASSERT_TRUE(out.open(why)) << why;
    std::fputs("half a new file", out.file());
    // Destroyed without commit (an exception, an early return).
  }
  EXPECT_EQ(readAll(path), OLD);
  EXPECT_FALSE(fs::exists(base::atomicTempPath(path)));
}

TEST(AtomicWrite, RenameOntoADirectoryFailsWithTheFileNamed) {
  TempDir t;
  const std::string path = t.file("taken");
  fs::create_directories(fs::path(path) / "child");
  std::string why;
  EXPECT_FALSE(base::writeFileAtomic(path, std::string("data"), why));
  EXPECT_NE(why.find(path), std::string::npos) << why;
  EXPECT_NE(why.find("rename"), std::string::npos) << why;
  EXPECT_TRUE(fs::is_directory(fs::path(path) / "child"));
  EXPECT_FALSE(fs::exists(base::atomicTempPath(path)));
}

} // namespace
