// Several agent types in one level (nav/bake/Agents.h): the level file's `agents` and per-item
// masks read, written and refused with messages naming the file, the agent and the key; each
// type's bake equals the level baked with that type's settings and items alone, and Recast +
// Detour's (RecastDemoRef) bake of it; an item restricted to one type changes only that type's
// tiles; `navbench bake` writes OUT.<name>.bin / .tcache per type, --agent one, exit 2 on bad input.
#include "BakeCliRun.h"
#include "BakeTestUtil.h"
#include "RecastDemoRef.h"

#include "nav/TileSetFile.h"
#include "nav/bake/Agents.h"
#include "nav/bake/LevelFile.h"

#include <DetourNavMesh.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unistd.h>

namespace {

using nav::bake::AgentType;
using nav::bake::BakeInput;
using nav::bake::BakeSettings;
using nav::bake::Level;

std::string tempPath(const std::string& name) {
  return testing::TempDir() + "navbench_agents_" + std::to_string(::getpid()) + "_" + name;
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::string readText(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// The default level with three agent types (small, medium = the level's own, large), its OBJ
/// path made absolute so the file can live in the temp folder.
Level threeAgentLevel() {
  Level lv;
  std::string why;
  EXPECT_TRUE(nav::bake::loadLevelFile(baketest::defaultLevel(), &lv, &why)) << why;
  lv.objPath = baketest::defaultObj();
  lv.agents = baketest::threeAgentTypes(lv.settings); // small, medium (the level's own), large
  return lv;
}

std::string saveLevel(const Level& lv, const std::string& name) {
  const std::string path = tempPath(name);
  std::string why;
  EXPECT_TRUE(nav::bake::saveLevelFile(path, lv, &why)) << why;
  return path;
}

/// The level file's problem message for `text` (written to a temp file), "" when it loads.
std::string levelProblem(const std::string& text, std::string* path = nullptr) {
  const std::string p = tempPath("bad.json");
  EXPECT_TRUE(baketest::writeFile(p, text));
  if (path) *path = p;
  Level lv;
  std::string why;
  const bool ok = nav::bake::loadLevelFile(p, &lv, &why);
  std::remove(p.c_str());
  return ok ? std::string() : why;
}

const char* kAgentsText = R"({
  "obj": "default.obj",
  "settings": {"agentRadius": 0.6},
  "agents": [
    {"name": "soldier", "color": "#3080ff", "agentRadius": 0.4},
    {"name": "dog", "color": [192, 128, 64], "agentRadius": 0.3, "agentHeight": 0.8, "partition": "monotone"},
    {"name": "truck", "agentRadius": 1.5, "agentHeight": 3}
  ],
  "convexVolumes": [{"area": "water", "hmin": 0, "hmax": 1, "verts": [[0,0,0],[1,0,0],[1,0,1]], "agents": ["truck"]}],
  "offMeshLinks": [{"start": [0,0,0], "end": [1,0,0]}, {"start": [2,0,0], "end": [3,0,0], "agents": ["soldier", "dog"]}],
  "areaRules": [{"match": "hedge*", "exclude": true, "agents": ["truck"]}],
  "seeds": [[1, 2, 3], {"pos": [4, 5, 6], "agents": ["dog"]}]
})";

TEST(AgentsLevelFile, ReadsAgentsMasksAndSeedsAndWritesThemBack) {
  const std::string path = tempPath("agents.json");
  ASSERT_TRUE(baketest::writeFile(path, kAgentsText));
  Level lv;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelFile(path, &lv, &why)) << why;
  ASSERT_EQ(lv.agents.size(), 3u);
  EXPECT_EQ(nav::bake::agentCount(lv), 3);
  EXPECT_EQ(nav::bake::findAgent(lv, "dog"), 1);
  EXPECT_EQ(nav::bake::findAgent(lv, "cat"), -1);
  EXPECT_EQ(nav::bake::agentName(lv, 2), "truck");
  EXPECT_EQ(lv.agents[0].color, 0x3080ffu);
  EXPECT_EQ(lv.agents[1].color, 0xc08040u);
  EXPECT_EQ(lv.agents[2].color, nav::bake::defaultAgentColor(2));
  EXPECT_EQ(nav::bake::agentSettings(lv, 0).agentRadius, 0.4f);
  EXPECT_EQ(nav::bake::agentSettings(lv, 0).agentHeight, lv.settings.agentHeight);
  EXPECT_EQ(nav::bake::agentSettings(lv, 1).partition, nav::bake::Partition::Monotone);
  EXPECT_EQ(nav::bake::agentSettings(lv, 2).agentHeight, 3.0f);
  EXPECT_EQ(lv.agents[1].overrides, (std::vector<std::string>{"agentHeight", "agentRadius", "partition"}));
  EXPECT_EQ(lv.volumes[0].agents, 4u);
  EXPECT_EQ(lv.links[0].agents, nav::bake::kAllAgents);
  EXPECT_EQ(lv.links[1].agents, 3u);
  EXPECT_EQ(lv.areaRules[0].agents, 4u);
  ASSERT_EQ(lv.seedAgents.size(), 2u);
  EXPECT_EQ(lv.seedAgents[0], nav::bake::kAllAgents);
  EXPECT_EQ(lv.seedAgents[1], 2u);

  // Written back: the same agents, overrides (no more keys), masks as names; read again equal.
  const std::string again = tempPath("agents_again.json");
  ASSERT_TRUE(nav::bake::saveLevelFile(again, lv, &why)) << why;
  const std::string text = readText(again);
  EXPECT_NE(text.find("\"agents\": [\n        \"truck\"\n      ]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"color\": \"#c08040\""), std::string::npos) << text;
  Level lv2;
  ASSERT_TRUE(nav::bake::loadLevelFile(again, &lv2, &why)) << why;
  ASSERT_EQ(lv2.agents.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(lv2.agents[i].name, lv.agents[i].name);
    EXPECT_EQ(lv2.agents[i].color, lv.agents[i].color);
    EXPECT_EQ(lv2.agents[i].settings, lv.agents[i].settings);
    EXPECT_EQ(lv2.agents[i].overrides, lv.agents[i].overrides);
  }
  EXPECT_EQ(lv2.volumes[0].agents, 4u);
  EXPECT_EQ(lv2.links[1].agents, 3u);
  EXPECT_EQ(lv2.areaRules, lv.areaRules);
  EXPECT_EQ(lv2.seedAgents, lv.seedAgents);

  // The level's settings change: each type keeps its overrides over the new settings.
  BakeSettings base = lv.settings;
  base.cellSize = 0.2f;
  base.agentRadius = 1.0f;
  BakeSettings dog;
  ASSERT_TRUE(nav::bake::applyAgentOverrides(base, lv.agents[1], &dog, &why)) << why;
  EXPECT_EQ(dog.cellSize, 0.2f);
  EXPECT_EQ(dog.agentRadius, 0.3f);
  base.cellHeight = 0.5f; // the dog's 0.8 height is under 3 cells now
  EXPECT_FALSE(nav::bake::applyAgentOverrides(base, lv.agents[1], &dog, &why));
  EXPECT_NE(why.find("agent \"dog\": agentHeight = 0.8 is less than 3 cells"), std::string::npos) << why;
  std::remove(path.c_str());
  std::remove(again.c_str());
}

TEST(AgentsLevelFile, AFileWithoutAgentsIsWrittenAsBefore) {
  Level lv;
  std::string why;
  ASSERT_TRUE(nav::bake::loadLevelFile(baketest::defaultLevel(), &lv, &why)) << why;
  EXPECT_TRUE(lv.agents.empty());
  EXPECT_TRUE(lv.seedAgents.empty());
  EXPECT_EQ(nav::bake::agentCount(lv), 1);
  EXPECT_EQ(nav::bake::agentName(lv, 0), "");
  EXPECT_EQ(nav::bake::agentSettings(lv, 0), lv.settings);
  const std::string path = saveLevel(lv, "plain.json");
  EXPECT_EQ(readText(path).find("agents"), std::string::npos);
  std::remove(path.c_str());
}

TEST(AgentsLevelFile, BadAgentsAreRefusedNamingTheFileTheAgentAndTheKey) {
  const std::string head = R"({"obj": "x.obj", )";
  struct Case {
    std::string body, message;
  };
  const Case cases[] = {
      {R"("agents": [{"name": "a"}, {"name": "b"}, {"name": "truck", "agentRadius": 9}]})",
       "agents[2] \"truck\": agentRadius = 9 is out of range [0, 5]"},
      {R"("agents": [{"name": "dog"}, {"name": "dog"}]})", "agents[1] \"dog\": duplicate name (agents[0] has it too)"},
      {R"("agents": [{"name": ""}]})", "agents[0].name: empty name"},
      {R"("agents": [{"color": "#000000"}]})", "agents[0].name: missing"},
      {R"("agents": [{"name": "Big Truck"}]})", "agents[0].name: name \"Big Truck\" may hold only a-z, 0-9"},
      {R"("agents": []})", "agents: empty"},
      {R"("agents": [{"name": "dog", "agentRadus": 1}]})", "agents[0] \"dog\": unknown key \"agentRadus\""},
      {R"("agents": [{"name": "dog", "agentHeight": "tall"}]})", "agents[0] \"dog\": agentHeight:"},
      {R"("agents": [{"name": "dog", "color": "red"}]})", "agents[0] \"dog\": color: expected \"#rrggbb\""},
      {R"("agents": [{"name": "dog", "cellHeight": 0.5, "agentHeight": 1}]})",
       "agents[0] \"dog\": agentHeight = 1 is less than 3 cells of cellHeight = 0.5"},
      {R"("agents": [{"name": "dog"}], "convexVolumes": [{"area": 1, "hmin": 0, "hmax": 1, "verts": [[0,0,0],[1,0,0],[1,0,1]], "agents": ["cat"]}]})",
       "convexVolumes[0].agents[0]: unknown agent \"cat\" (the level's agents: dog)"},
      {R"("agents": [{"name": "dog"}], "offMeshLinks": [{"start": [0,0,0], "end": [1,0,0], "agents": ["cat"]}]})",
       "offMeshLinks[0].agents[0]: unknown agent \"cat\""},
      {R"("agents": [{"name": "dog"}], "areaRules": [{"match": "*", "exclude": true, "agents": ["cat"]}]})",
       "areaRules[0].agents[0]: unknown agent \"cat\""},
      {R"("agents": [{"name": "dog"}], "seeds": [{"pos": [0, 0, 0], "agents": ["cat"]}]})",
       "seeds[0].agents[0]: unknown agent \"cat\""},
      {R"("agents": [{"name": "dog"}], "seeds": [{"pos": [0, 0, 0], "agents": []}]})", "seeds[0].agents: an empty list"},
      {R"("offMeshLinks": [{"start": [0,0,0], "end": [1,0,0], "agents": ["dog"]}]})",
       "offMeshLinks[0].agents[0]: unknown agent \"dog\": the level declares no agents"},
  };
  for (const Case& c : cases) {
    std::string path;
    const std::string why = levelProblem(head + c.body, &path);
    EXPECT_EQ(why.rfind(path + ": ", 0), 0u) << c.body << "\n -> " << why;
    EXPECT_NE(why.find(c.message), std::string::npos) << c.body << "\n -> " << why;
  }
}

TEST(AgentsInput, EachTypeSeesItsOwnItemsAndLinksKeepTheirIds) {
  BakeInput all;
  all.volumes.resize(3);
  all.volumes[1].agents = 2;
  all.links.resize(3);
  all.links[0].agents = 1;
  all.links[2].userId = 77;
  all.areaRules.resize(2);
  all.areaRules[0].agents = 1;
  const BakeInput a0 = nav::bake::inputForAgent(all, 0), a1 = nav::bake::inputForAgent(all, 1);
  EXPECT_EQ(a0.volumes.size(), 2u);
  EXPECT_EQ(a1.volumes.size(), 3u);
  ASSERT_EQ(a0.links.size(), 3u);
  ASSERT_EQ(a1.links.size(), 2u);
  EXPECT_EQ(a0.links[1].userId, 1001u);
  EXPECT_EQ(a1.links[0].userId, 1001u); // the id a bake of every link gives it, not 1000
  EXPECT_EQ(a1.links[1].userId, 77u);
  EXPECT_EQ(a0.areaRules.size(), 2u);
  EXPECT_EQ(a1.areaRules.size(), 1u);
  // The items alone (for an edit), picked the same way.
  std::vector<nav::bake::ConvexVolume> v;
  std::vector<nav::bake::OffMeshLink> l;
  nav::bake::itemsForAgent(all.volumes, all.links, 1, &v, &l);
  EXPECT_EQ(v.size(), a1.volumes.size());
  ASSERT_EQ(l.size(), a1.links.size());
  for (size_t i = 0; i < l.size(); ++i) EXPECT_EQ(l[i].userId, a1.links[i].userId);
  EXPECT_EQ(nav::bake::agentFilePath("out/level.bin", "dog"), "out/level.dog.bin");
  EXPECT_EQ(nav::bake::agentFilePath("out.d/level", "dog"), "out.d/level.dog");
}

// --- navbench bake ----------------------------------------------------------------------------

struct Cli {
  int code = 0;
  std::string out, err;
};

Cli bake(std::vector<std::string> args) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  Cli c;
  c.code = baketest::runBakeCli(std::move(args));
  c.out = testing::internal::GetCapturedStdout();
  c.err = testing::internal::GetCapturedStderr();
  return c;
}

/// The level as one type sees it, alone: its settings, its items, no agents.
Level aloneFor(const Level& lv, int a) {
  BakeInput all;
  all.volumes = lv.volumes;
  all.links = lv.links;
  all.areaRules = lv.areaRules;
  const BakeInput mine = nav::bake::inputForAgent(all, a);
  Level one;
  one.objPath = lv.objPath;
  one.settings = nav::bake::agentSettings(lv, a);
  one.volumes = mine.volumes;
  one.links = mine.links;
  one.areaRules = mine.areaRules;
  // (A level without agents: its items are for its one agent.)
  for (auto& v : one.volumes) v.agents = nav::bake::kAllAgents;
  for (auto& l : one.links) l.agents = nav::bake::kAllAgents;
  for (auto& r : one.areaRules) r.agents = nav::bake::kAllAgents;
  return one;
}

TEST(AgentsBakeCli, EachTypesFileIsItsLevelAloneAndRecastDemosBake) {
  Level lv = threeAgentLevel();
  lv.links[1].agents = 1u << 2; // the one-way drop: the large agent's only
  lv.volumes[0].agents = 1u << 0; // the water: the small agent's only
  const std::string level = saveLevel(lv, "three.json");
  const std::string out = tempPath("three.bin");
  const Cli c = bake({level, "-o", out, "--threads", "2"});
  ASSERT_EQ(c.code, 0) << c.out << c.err;
  BakeInput mesh;
  BakeSettings unused;
  std::string why;
  ASSERT_TRUE(nav::bake::loadBakeInput(level, &mesh, &unused, &why)) << why;
  std::vector<std::vector<uint8_t>> files;
  for (int a = 0; a < 3; ++a) {
    const std::string name = lv.agents[size_t(a)].name;
    const std::string mine = nav::bake::agentFilePath(out, name);
    EXPECT_NE(c.out.find("wrote " + mine), std::string::npos) << c.out;
    files.push_back(readBytes(mine));
    ASSERT_FALSE(files.back().empty()) << mine;
    // The level with this type's settings and items alone, baked by the same command.
    const std::string alone = saveLevel(aloneFor(lv, a), "alone_" + name + ".json");
    const std::string aloneOut = tempPath("alone_" + name + ".bin");
    ASSERT_EQ(bake({alone, "-o", aloneOut, "-q"}).code, 0);
    const std::vector<uint8_t> ref = readBytes(aloneOut);
    EXPECT_EQ(baketest::firstDiff(files.back(), ref), -1) << name;
    // Recast + Detour's bake of it (RecastDemo's Sample_TileMesh + saveAll).
    dtNavMesh* dt = bakeref::build(nav::bake::inputForAgent(mesh, a), nav::bake::agentSettings(lv, a));
    ASSERT_NE(dt, nullptr);
    const std::vector<uint8_t> theirs = bakeref::saveAll(dt);
    dtFreeNavMesh(dt);
    const long d = baketest::firstDiff(files.back(), theirs);
    EXPECT_EQ(d, -1) << name << ": differs from RecastDemo's at " << baketest::tileSetLocation(theirs, d);
    // --agent NAME: that type alone into OUT.
    const std::string one = tempPath("one.bin");
    ASSERT_EQ(bake({level, "--agent", name, "-o", one, "-q"}).code, 0);
    EXPECT_EQ(baketest::firstDiff(readBytes(one), files.back()), -1) << name;
    std::remove(one.c_str());
    std::remove(alone.c_str());
    std::remove(aloneOut.c_str());
    std::remove(mine.c_str());
  }
  // Different agents, different navmeshes.
  EXPECT_NE(files[0], files[1]);
  EXPECT_NE(files[1], files[2]);
  EXPECT_FALSE(baketest::fileExists(out)); // only the per-type files
  std::remove(level.c_str());
}

TEST(AgentsBakeCli, LayersArePerTypeToo) {
  Level lv = threeAgentLevel();
  lv.agents.resize(2);
  const std::string level = saveLevel(lv, "two.json");
  const std::string out = tempPath("two.tcache");
  const Cli c = bake({level, "--layers", "-o", out, "-q"});
  ASSERT_EQ(c.code, 0) << c.out << c.err;
  for (int a = 0; a < 2; ++a) {
    const std::string mine = nav::bake::agentFilePath(out, lv.agents[size_t(a)].name);
    const std::string alone = saveLevel(aloneFor(lv, a), "alone.json");
    const std::string aloneOut = tempPath("alone.tcache");
    ASSERT_EQ(bake({alone, "--layers", "-o", aloneOut, "-q"}).code, 0);
    const std::vector<uint8_t> bytes = readBytes(mine);
    ASSERT_FALSE(bytes.empty()) << mine;
    EXPECT_EQ(bytes, readBytes(aloneOut)) << mine;
    std::remove(mine.c_str());
    std::remove(alone.c_str());
    std::remove(aloneOut.c_str());
  }
  std::remove(level.c_str());
}

TEST(AgentsBakeCli, BadAgentsExitTwoNamingTheAgent) {
  const Level lv = threeAgentLevel();
  const std::string level = saveLevel(lv, "named.json");
  const std::string out = tempPath("bad.bin");
  Cli c = bake({level, "--agent", "giant", "-o", out});
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("--agent giant: unknown agent in " + level + " (its agents: small, medium, large)"), std::string::npos)
      << c.err;
  c = bake({baketest::defaultLevel(), "--agent", "small", "-o", out});
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("declares no agents"), std::string::npos) << c.err;
  // A level file with a bad agent: the file, the agent and the key.
  std::string text = readText(level);
  const size_t at = text.find("\"agentRadius\": 1.2");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 18, "\"agentRadius\": 9");
  ASSERT_TRUE(baketest::writeFile(level, text));
  c = bake({level, "-o", out});
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find(level + ": agents[2] \"large\": agentRadius = 9 is out of range [0, 5]"), std::string::npos) << c.err;
  EXPECT_FALSE(baketest::fileExists(nav::bake::agentFilePath(out, "small")));
  std::remove(level.c_str());
}

TEST(AgentsBakeCli, NothingIsWrittenUnlessEveryTypeBakes) {
  Level lv = threeAgentLevel();
  lv.agents.resize(2);
  lv.agents[1].settings.tileSize = 300; // valid settings, but a tile cache layer holds at most 255 cells
  lv.agents[1].overrides.push_back("tileSize");
  const std::string level = saveLevel(lv, "half.json");
  const std::string out = tempPath("half.tcache");
  const Cli c = bake({level, "--layers", "-o", out, "-q"});
  EXPECT_EQ(c.code, 1) << c.out << c.err;
  EXPECT_NE(c.err.find("medium"), std::string::npos) << c.err;
  EXPECT_FALSE(baketest::fileExists(nav::bake::agentFilePath(out, "small"))) << "the small type baked, but not every type did";
  EXPECT_FALSE(baketest::fileExists(nav::bake::agentFilePath(out, "medium")));
  EXPECT_FALSE(baketest::fileExists(nav::bake::agentFilePath(out, "small") + ".partial-" + std::to_string(::getpid())));
  std::remove(level.c_str());
}

// --- an item for one type changes that type's tiles only ------------------------------------------

/// Every tile of the grid baked alone (Baker::bakeTiles: the blobs before linking), by grid index.
std::vector<std::vector<uint8_t>> tileBlobs(const BakeInput& in, const BakeSettings& s, int* tx, int* ty) {
  nav::bake::Baker b;
  std::string why;
  EXPECT_TRUE(b.setInput(in, &why)) << why;
  b.tileGrid(s, tx, ty);
  std::vector<nav::bake::TileCoord> all;
  for (int y = 0; y < *ty; ++y)
    for (int x = 0; x < *tx; ++x) all.push_back({x, y});
  std::vector<nav::bake::RebakedTile> blobs;
  nav::bake::BakeReport r;
  nav::bake::BakeOptions o;
  o.threads = 2;
  EXPECT_TRUE(b.bakeTiles(s, all, o, &blobs, &r)) << r.error;
  std::vector<std::vector<uint8_t>> out(all.size());
  for (const nav::bake::RebakedTile& t : blobs)
    if (t.data) out[size_t(t.tile.y * *tx + t.tile.x)].assign(t.data, t.data + t.dataSize);
  return out;
}

/// The tiles (grid indices) where two bakes differ.
std::vector<int> changedTiles(const BakeInput& a, const BakeInput& b, const BakeSettings& s, int* tx, int* ty) {
  const auto ta = tileBlobs(a, s, tx, ty), tb = tileBlobs(b, s, tx, ty);
  std::vector<int> changed;
  for (size_t i = 0; i < ta.size() && i < tb.size(); ++i)
    if (ta[i] != tb[i]) changed.push_back(int(i));
  return changed;
}

TEST(AgentsBake, AnItemForOneTypeChangesOnlyThatTypesTiles) {
  const Level lv = threeAgentLevel();
  BakeInput base;
  BakeSettings unused;
  std::string why;
  const std::string level = saveLevel(lv, "items.json");
  ASSERT_TRUE(nav::bake::loadBakeInput(level, &base, &unused, &why)) << why;
  std::remove(level.c_str());
  // A door volume across the open floor for the large type, a jump link for the small one.
  nav::bake::ConvexVolume v;
  v.verts = {4, 0, 8, 10, 0, 8, 10, 0, 14, 4, 0, 14};
  v.hmin = -1;
  v.hmax = 3;
  v.area = nav::AREA_DOOR;
  v.agents = 1u << 2;
  nav::bake::OffMeshLink l;
  const float s0[3] = {5, 0, 16}, e0[3] = {9, 0, 16};
  std::copy(s0, s0 + 3, l.start);
  std::copy(e0, e0 + 3, l.end);
  l.agents = 1u << 0;
  BakeInput with = base;
  with.volumes.push_back(v);
  with.links.push_back(l);
  for (int a = 0; a < 3; ++a) {
    int tx = 0, ty = 0;
    const std::vector<int> changed = changedTiles(nav::bake::inputForAgent(with, a), nav::bake::inputForAgent(base, a),
                                                  nav::bake::agentSettings(lv, a), &tx, &ty);
    if (a == 1) {
      EXPECT_TRUE(changed.empty()) << "the medium type's tiles changed: " << changed.size();
      continue;
    }
    EXPECT_FALSE(changed.empty()) << lv.agents[size_t(a)].name;
    // Only the tiles the item touches.
    nav::bake::Baker b;
    ASSERT_TRUE(b.setInput(nav::bake::inputForAgent(with, a), &why)) << why;
    float bmin[3], bmax[3];
    if (a == 2) nav::bake::editBounds(v, bmin, bmax);
    else nav::bake::editBounds(l, bmin, bmax);
    std::vector<nav::bake::TileCoord> touched;
    b.tilesTouching(nav::bake::agentSettings(lv, a), bmin, bmax, &touched);
    for (int i : changed) {
      const nav::bake::TileCoord t{i % tx, i / tx};
      EXPECT_NE(std::find(touched.begin(), touched.end(), t), touched.end())
          << lv.agents[size_t(a)].name << ": tile " << t.x << "," << t.y << " changed but the item does not touch it";
    }
  }
}

} // namespace
