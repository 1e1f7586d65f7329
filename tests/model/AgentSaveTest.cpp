// Saving the navmesh of a level with agent types from the document (BakeRunner::save through
// Document's agentMeshes): every agent's navmesh goes to OUT.<name>.bin, each the agent's navmesh
// byte for byte, and a failure on one agent's file leaves none written.
#include "GapLevel.h"

#include "app/Document.h"
#include "nav/TileSetFile.h"
#include "nav/bake/Agents.h"
#include "tests/model/DocumentTestHost.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace navbench {
namespace {

namespace fs = std::filesystem;

using QuietHost = DocumentTestHost;

std::vector<uint8_t> bytesOf(const nav::NavMesh& mesh) {
  std::vector<uint8_t> out;
  std::string why;
  EXPECT_TRUE(nav::statusSucceeded(nav::saveTileSet(mesh, out, &why))) << why;
  return out;
}

std::vector<uint8_t> fileBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

TEST(AgentSave, EveryAgentsNavmeshIsSavedBesideTheOutputAllOrNone) {
  const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / "agent_save";
  fs::remove_all(dir);
  fs::create_directories(dir);
  writeGapObj((dir / "gap.obj").string());
  const std::string level = (dir / "gap.json").string();
  std::ofstream(level) << kGapLevel;
  Log log;
  QuietHost host;
  Document doc(log, host);
  doc.initTools([]() { return std::vector<std::unique_ptr<Tool>>(); });
  ASSERT_TRUE(doc.openAny(level));
  ASSERT_TRUE(doc.agents.enabled());
  doc.agents.finish();
  doc.pollBake();
  ASSERT_TRUE(doc.nav.loaded());
  ASSERT_TRUE(doc.setActiveAgent(1)); // the open navmesh is the soldier's: every agent is saved all the same

  const std::string out = (dir / "out.bin").string();
  const char* names[] = {"dog", "soldier", "truck"};
  // A failure on the second agent's file: nothing is written, not even the first agent's.
  fs::create_directories(nav::bake::agentFilePath(out, "soldier") + ".saving");
  doc.bake.setSavePath(out);
  EXPECT_FALSE(doc.bake.save(doc.nav, log));
  for (const char* n : names) EXPECT_FALSE(fs::exists(nav::bake::agentFilePath(out, n))) << n;
  EXPECT_FALSE(fs::exists(nav::bake::agentFilePath(out, "dog") + ".saving")) << "its temporary file is gone";
  EXPECT_FALSE(fs::exists(out));
  fs::remove_all(nav::bake::agentFilePath(out, "soldier") + ".saving");

  ASSERT_TRUE(doc.bake.save(doc.nav, log));
  EXPECT_FALSE(fs::exists(out)) << "no single-agent file";
  for (int i = 0; i < 3; ++i) {
    const std::string path = nav::bake::agentFilePath(out, names[i]);
    ASSERT_TRUE(fs::exists(path)) << path;
    ASSERT_NE(doc.agents.nav(i), nullptr);
    EXPECT_EQ(fileBytes(path), bytesOf(doc.agents.nav(i)->mesh())) << names[i];
    EXPECT_FALSE(fs::exists(path + ".saving"));
  }
  EXPECT_NE(fileBytes(nav::bake::agentFilePath(out, "dog")), fileBytes(nav::bake::agentFilePath(out, "truck")));
}

} // namespace
} // namespace navbench
