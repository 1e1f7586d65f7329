// `navbench bake` and `navbench check` on glTF levels, through the CLI registry: a .glb bakes as
// its OBJ twin does, a level file may name a .glb, and a bad .glb is bad input (exit 2) with a
// message naming the file and the problem.
#include "BakeTestUtil.h"
#include "app/cli/Cli.h"
#include "nav/bake/GltfMesh.h"
#include "nav/bake/ObjMesh.h"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

namespace {

/// Runs `navbench ARGS...` (args[0] the subcommand) through the registry; -100 when unknown.
int run(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const navbench::cli::Subcommand* cmd = navbench::cli::findSubcommand(argv[0]);
  return cmd ? cmd->run(int(args.size()), argv.data()) : -100;
}

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_gltfcli_" + std::to_string(::getpid()) + "_" + name;
}

std::string readText(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

} // namespace

TEST(GltfCli, BakeAGlbAndALevelFileNamingOne) {
  nav::bake::ObjMesh obj;
  std::string why;
  ASSERT_TRUE(nav::bake::loadObj(baketest::defaultObj(), &obj, &why)) << why;
  const std::string glb = tempPath("level.glb"), fromObj = tempPath("obj.bin"), fromGlb = tempPath("glb.bin");
  ASSERT_TRUE(nav::bake::saveGlb(glb, obj.verts, obj.tris, "default", &why)) << why;
  ASSERT_EQ(run({"bake", baketest::defaultObj(), "-o", fromObj, "-q"}), 0);
  ASSERT_EQ(run({"bake", glb, "-o", fromGlb, "-q"}), 0);
  EXPECT_EQ(readText(fromGlb), readText(fromObj)); // the same floats: the same tiles
  const std::string level = tempPath("level.json"), fromLevel = tempPath("level.bin");
  ASSERT_TRUE(baketest::writeFile(level, "{\"obj\": \"" + glb.substr(glb.find_last_of('/') + 1) + "\"}"));
  ASSERT_EQ(run({"bake", level, "-o", fromLevel, "-q"}), 0);
  EXPECT_FALSE(readText(fromLevel).empty());
  ASSERT_EQ(run({"bake", glb, "--solo", "-o", fromGlb, "-q"}), 0);
  for (const std::string& p : {glb, fromObj, fromGlb, level, fromLevel}) std::remove(p.c_str());
}

TEST(GltfCli, BadGlbIsBadInputForBakeAndCheck) {
  const std::string bad = tempPath("bad.glb"), out = tempPath("bad.bin");
  ASSERT_TRUE(baketest::writeFile(bad, std::string("glTF\x02\0\0\0\xff\0\0\0", 12)));
  testing::internal::CaptureStderr();
  const int bake = run({"bake", bad, "-o", out});
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(bake, 2);
  EXPECT_NE(err.find(bad + ": truncated GLB: the header says 255 bytes, the file has 12"), std::string::npos) << err;
  EXPECT_FALSE(baketest::fileExists(out));
  testing::internal::CaptureStderr();
  const int check = run({"check", bad});
  const std::string checkErr = testing::internal::GetCapturedStderr();
  EXPECT_EQ(check, 2);
  EXPECT_NE(checkErr.find(bad + ": truncated GLB"), std::string::npos) << checkErr;
  std::remove(bad.c_str());
}
