// Area rules (nav/bake/AreaRules.h): globs, first match wins, the OBJ's o / g / usemtl names read,
// a level file's areaRules read, written and refused with the file and the rule named, and the
// bakes (in memory solo and tiled, the file bake, the layer bake) giving polys the rules' areas,
// excluded props no floor, and without rules the very bytes they gave before.
#include "BakeTestUtil.h"
#include "nav/TileSetFile.h"
#include "nav/bake/AreaRules.h"
#include "nav/bake/LayerBake.h"
#include "nav/bake/LevelFile.h"
#include "nav/bake/LevelMesh.h"
#include "nav/bake/ObjMesh.h"
#include "nav/bake/StreamBake.h"
#include "tests/support/Process.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

using namespace nav;
using namespace nav::bake;

namespace {

std::string tempPath(const std::string& name) { return testproc::tempPath("navbench_arearules_", name); }

std::vector<uint8_t> readBytes(const std::string& path) {
  const std::string bytes = testproc::readFile(path);
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

TEST(AreaRules, GlobMatching) {
  EXPECT_TRUE(globMatch("water", "water"));
  EXPECT_TRUE(globMatch("water", "WATER")); // ASCII case ignored
  EXPECT_TRUE(globMatch("Wat*", "water_pool"));
  EXPECT_FALSE(globMatch("water", "water_pool"));
  EXPECT_TRUE(globMatch("*_pool", "water_pool"));
  EXPECT_TRUE(globMatch("*", ""));
  EXPECT_FALSE(globMatch("?", ""));
  EXPECT_TRUE(globMatch("door??", "door01"));
  EXPECT_FALSE(globMatch("door??", "door1"));
  EXPECT_TRUE(globMatch("prop_[cb]*", "prop_crate"));
  EXPECT_TRUE(globMatch("prop_[cb]*", "PROP_Barrel"));
  EXPECT_FALSE(globMatch("prop_[cb]*", "prop_table"));
  EXPECT_TRUE(globMatch("lod[0-2]", "lod1"));
  EXPECT_FALSE(globMatch("lod[0-2]", "lod3"));
  EXPECT_TRUE(globMatch("lod[!0-2]", "lod3"));
  EXPECT_TRUE(globMatch("lod[^0-2]", "lod3"));
  EXPECT_TRUE(globMatch("a*b*c", "axxbyyc"));
  EXPECT_FALSE(globMatch("a*b*c", "axxbyy"));
  EXPECT_TRUE(globMatch("**x", "abx"));
  EXPECT_TRUE(globMatch("[]]", "]")); // a ']' first in a set is literal
  // Backtracking stays linear: a long name against many stars answers at once.
  EXPECT_FALSE(globMatch("*a*a*a*a*a*a*a*a*b", std::string(5000, 'a')));

  std::string why;
  EXPECT_TRUE(checkGlob("prop_[a-z]*", &why));
  EXPECT_FALSE(checkGlob("prop_[a-z", &why));
  EXPECT_NE(why.find("unclosed '['"), std::string::npos) << why;
  EXPECT_FALSE(checkGlob("", &why));
  EXPECT_FALSE(globMatch("prop_[a-z", "prop_a"));
}

TEST(AreaRules, FirstMatchingRuleWinsOverNodeMeshAndMaterial) {
  std::vector<AreaRule> rules(3);
  rules[0].match = "wat*";
  rules[0].area = AREA_ROAD;
  rules[1].match = "water";
  rules[1].area = AREA_WATER;
  rules[2].match = "crate";
  rules[2].exclude = true;
  EXPECT_EQ(matchAreaRule(rules, MeshGroup{"water", "", ""}), 0);
  EXPECT_EQ(matchAreaRule(rules, MeshGroup{"", "", "crate"}), 2); // the material
  EXPECT_EQ(matchAreaRule(rules, MeshGroup{"crate", "water", ""}), 0); // rule order, not name order
  EXPECT_EQ(matchAreaRule(rules, MeshGroup{"floor", "slab", "stone"}), -1);
  EXPECT_EQ(ruleCode(rules, 0), AREA_ROAD);
  EXPECT_EQ(ruleCode(rules, 2), TRI_RULE_EXCLUDE);
  EXPECT_EQ(ruleCode(rules, -1), TRI_RULE_NONE);

  // Per triangle, with counts per rule and the unmatched last.
  const std::vector<MeshGroup> groups = {{}, {"water", "", ""}, {"", "", "crate"}};
  const std::vector<uint32_t> triGroup = {0, 1, 1, 2, 0, 1};
  std::vector<uint8_t> codes;
  std::vector<long long> counts;
  applyAreaRules(rules, groups, triGroup, 6, &codes, &counts);
  EXPECT_EQ(codes, (std::vector<uint8_t>{TRI_RULE_NONE, AREA_ROAD, AREA_ROAD, TRI_RULE_EXCLUDE, TRI_RULE_NONE, AREA_ROAD}));
  EXPECT_EQ(counts, (std::vector<long long>{3, 0, 1, 2}));
  // No names: only a glob matching "" applies; no rules: no codes at all.
  std::vector<AreaRule> all = rules;
  all.push_back(AreaRule{"*", false, AREA_GRASS});
  applyAreaRules(all, {}, {}, 4, &codes, &counts);
  EXPECT_EQ(codes, std::vector<uint8_t>(4, AREA_GRASS));
  EXPECT_EQ(counts, (std::vector<long long>{0, 0, 0, 4, 0}));
  applyAreaRules({}, groups, triGroup, 6, &codes, &counts);
  EXPECT_TRUE(codes.empty());
  EXPECT_EQ(counts, (std::vector<long long>{6}));
}

// A strip of three 10 x 10 floors along x at y = 0: plain ground (with a crate on it), a water
// plane named `o water`, a doorway whose material is `door`; the crate is `g prop_crate`, 5 x 5 and
// 1.5 high (over agentMaxClimb, so only its top is a floor), its top walkable without rules.
const char* kNamedObj = R"(# named level
o ground
v 0 0 0
v 10 0 0
v 10 0 10
v 0 0 10
f 1 3 2
f 1 4 3
g prop_crate
v 2 0 2
v 7 0 2
v 7 0 7
v 2 0 7
v 2 1.5 2
v 7 1.5 2
v 7 1.5 7
v 2 1.5 7
f 9 11 10
f 9 12 11
f 5 6 10 9
f 6 7 11 10
f 7 8 12 11
f 8 5 9 12
o water
v 10 0 0
v 20 0 0
v 20 0 10
v 10 0 10
f 13 15 14
f 13 16 15
o doorway
usemtl door
v 20 0 0
v 30 0 0
v 30 0 10
v 20 0 10
f 17 19 18
f 17 20 19
)";

const char* kRules = R"([
    {"match": "water", "area": "water"},
    {"match": "door", "area": "door"},
    {"match": "prop_*", "exclude": true}
  ])";

/// Writes the named OBJ and a level file for it with `rules` (JSON text, "" for none) and
/// `settings` (JSON object text). Returns the level file's path.
std::string writeLevel(const std::string& tag, const std::string& rules, const std::string& settings) {
  const std::string obj = tempPath(tag + ".obj");
  EXPECT_TRUE(baketest::writeFile(obj, kNamedObj));
  std::string json = "{\"obj\": \"" + obj + "\", \"settings\": " + settings;
  if (!rules.empty()) json += ", \"areaRules\": " + rules;
  json += "}";
  const std::string level = tempPath(tag + ".json");
  EXPECT_TRUE(baketest::writeFile(level, json));
  return level;
}

const char* kSolo = R"({"tiled": false, "cellSize": 0.25, "agentRadius": 0.4})";
const char* kTiled = R"({"tiled": true, "tileSize": 16, "cellSize": 0.25, "agentRadius": 0.4})";

/// Every ground poly of `mesh`: area and centre.
struct PolyInfo {
  uint8_t area;
  uint16_t flags;
  float c[3];
};
std::vector<PolyInfo> polys(const NavMesh& mesh) {
  std::vector<PolyInfo> out;
  for (int t = 0; t < mesh.getMaxTiles(); ++t) {
    const MeshTile* tile = mesh.getTile(t);
    if (!tile->header) continue;
    for (int i = 0; i < tile->header->polyCount; ++i) {
      const Poly& p = tile->polys[i];
      if (p.getType() != POLYTYPE_GROUND) continue;
      PolyInfo info{p.getArea(), p.flags, {0, 0, 0}};
      for (int v = 0; v < p.vertCount; ++v)
        for (int k = 0; k < 3; ++k) info.c[k] += tile->verts[p.verts[v] * 3 + k] / float(p.vertCount);
      out.push_back(info);
    }
  }
  return out;
}

/// Polys by area: how many lie in each 10 m strip (0: ground, 1: water, 2: doorway) and how many
/// are on the crate's top (y > 1).
struct Census {
  std::map<int, std::map<int, int>> byStrip; // strip -> area -> polys
  int onCrate = 0;
};
Census census(const NavMesh& mesh) {
  Census c;
  for (const PolyInfo& p : polys(mesh)) {
    if (p.c[1] > 1.0f) {
      ++c.onCrate;
      continue;
    }
    ++c.byStrip[int(p.c[0] / 10)][p.area];
  }
  return c;
}

std::unique_ptr<NavMesh> bakeLevel(const std::string& level, int threads = 1) {
  BakeInput in;
  BakeSettings s;
  std::string why;
  EXPECT_TRUE(loadBakeInput(level, &in, &s, &why)) << why;
  Baker baker;
  EXPECT_TRUE(baker.setInput(std::move(in), &why)) << why;
  BakeOptions opt;
  opt.threads = threads;
  BakeReport r;
  EXPECT_TRUE(baker.bake(s, opt, &r)) << r.error;
  return baker.releaseNavMesh();
}

TEST(AreaRules, ObjNamesAreReadFromOGAndUsemtl) {
  const std::string obj = tempPath("names.obj");
  ASSERT_TRUE(baketest::writeFile(obj, kNamedObj));
  LevelMesh m;
  std::string why;
  ASSERT_TRUE(loadLevelMesh(obj, &m, &why)) << why;
  ASSERT_EQ(m.triGroup.size(), m.tris.size() / 3);
  ASSERT_EQ(m.tris.size() / 3, 2u + 10u + 2u + 2u);
  auto groupOf = [&](size_t t) { return m.groups[m.triGroup[t]]; };
  EXPECT_EQ(groupOf(0).node, "ground");
  EXPECT_EQ(groupOf(0).mesh, "");
  EXPECT_EQ(groupOf(2).node, "ground");
  EXPECT_EQ(groupOf(2).mesh, "prop_crate");
  EXPECT_EQ(groupOf(12).node, "water"); // `o` clears the mesh name
  EXPECT_EQ(groupOf(12).mesh, "");
  EXPECT_EQ(groupOf(14).node, "doorway");
  EXPECT_EQ(groupOf(14).material, "door");

  // Names before the first face, switching back, blanks and CRLF; a file without names has none.
  const std::string obj2 = tempPath("names2.obj");
  ASSERT_TRUE(baketest::writeFile(obj2, "v 0 0 0\r\nv 1 0 0\r\nv 0 0 1\r\nf 1 2 3\r\nusemtl  stone slab \r\nf 1 2 3\r\n"
                                        "usemtl grass\r\nf 1 2 3\r\nusemtl  stone slab\r\nf 1 2 3\r\n"));
  ASSERT_TRUE(loadLevelMesh(obj2, &m, &why)) << why;
  ASSERT_EQ(m.groups.size(), 3u);
  EXPECT_EQ(m.triGroup, (std::vector<uint32_t>{0, 1, 2, 1}));
  EXPECT_EQ(m.groups[1].material, "stone slab");
  const std::string obj3 = tempPath("plain.obj");
  ASSERT_TRUE(baketest::writeFile(obj3, "v 0 0 0\nv 1 0 0\nv 0 0 1\nvn 0 1 0\nf 1 2 3\n"));
  ASSERT_TRUE(loadLevelMesh(obj3, &m, &why)) << why;
  EXPECT_TRUE(m.groups.empty());
  EXPECT_TRUE(m.triGroup.empty());

  // The streaming reader hands the same names to a sink, in file order.
  struct Names : ObjSink {
    std::vector<std::string> seen;
    bool vertex(const float*) override { return true; }
    bool triangle(int, int, int) override { return true; }
    bool names(const MeshGroup& g) override {
      seen.push_back(g.node + "|" + g.mesh + "|" + g.material);
      return true;
    }
  } sink;
  long long nv = 0, nt = 0;
  ASSERT_TRUE(streamObj(obj, sink, &nv, &nt, &why)) << why;
  EXPECT_EQ(sink.seen, (std::vector<std::string>{"ground||", "ground|prop_crate|", "water||", "doorway||", "doorway||door"}));
}

TEST(AreaRules, NamedObjBakesToTheRulesAreasSoloAndTiled) {
  for (const char* settings : {kSolo, kTiled}) {
    SCOPED_TRACE(settings);
    // Without rules: all ground (one region across the strips), and the crate's top is a floor.
    const Census plain = census(*bakeLevel(writeLevel("plain", "", settings)));
    for (const auto& strip : plain.byStrip) {
      EXPECT_EQ(strip.second.size(), 1u) << strip.first;
      EXPECT_EQ(strip.second.begin()->first, AREA_GROUND) << strip.first;
    }
    EXPECT_GT(plain.onCrate, 0);

    const std::unique_ptr<NavMesh> mesh = bakeLevel(writeLevel("rules", kRules, settings));
    const Census ruled = census(*mesh);
    EXPECT_EQ(ruled.byStrip.at(0).size(), 1u);
    EXPECT_GT(ruled.byStrip.at(0).at(AREA_GROUND), 0);
    EXPECT_EQ(ruled.byStrip.at(1).size(), 1u); // the water plane: water polys only
    EXPECT_GT(ruled.byStrip.at(1).at(AREA_WATER), 0);
    EXPECT_EQ(ruled.byStrip.at(2).size(), 1u); // the doorway, by its material
    EXPECT_GT(ruled.byStrip.at(2).at(AREA_DOOR), 0);
    EXPECT_EQ(ruled.onCrate, 0); // excluded: no floor on the crate...
    for (const PolyInfo& p : polys(*mesh)) {
      EXPECT_EQ(p.flags, flagsForArea(p.area));
      // ...and still an obstacle: no poly centre on the ground under it.
      EXPECT_FALSE(p.c[0] > 2.2f && p.c[0] < 6.8f && p.c[2] > 2.2f && p.c[2] < 6.8f) << p.c[0] << ", " << p.c[2];
    }

    // Rule order: a broader rule first wins over the exact one after it.
    const Census first = census(*bakeLevel(writeLevel(
        "first", R"([{"match": "WAT*", "area": "road"}, {"match": "water", "area": "water"}])", settings)));
    EXPECT_EQ(first.byStrip.at(1).size(), 1u);
    EXPECT_GT(first.byStrip.at(1).at(AREA_ROAD), 0);
  }
}

// A road decal 2 cm over the floor: Recast merges the two into one span and keeps the larger area
// id, which would be plain ground's; with rules the tagged surface wins (and an excluded decal
// does not take the floor away).
TEST(AreaRules, ATaggedDecalOverTheFloorWinsTheMerge) {
  const std::string obj = tempPath("decal.obj");
  ASSERT_TRUE(baketest::writeFile(obj, "o floor\nv 0 0 0\nv 20 0 0\nv 20 0 20\nv 0 0 20\nf 1 3 2\nf 1 4 3\n"
                                       "o decal\nusemtl asphalt\nv 0 0.02 12\nv 20 0.02 12\nv 20 0.02 20\nv 0 0.02 20\n"
                                       "f 5 7 6\nf 5 8 7\n"));
  for (const char* settings : {kSolo, kTiled}) {
    SCOPED_TRACE(settings);
    auto bakeWith = [&](const std::string& rules) {
      const std::string level = tempPath("decal.json");
      EXPECT_TRUE(baketest::writeFile(level, "{\"obj\": \"" + obj + "\", \"settings\": " + settings + ", \"areaRules\": " + rules + "}"));
      return bakeLevel(level);
    };
    int road = 0, ground = 0;
    for (const PolyInfo& p : polys(*bakeWith(R"([{"match": "asphalt", "area": "road"}])"))) {
      if (p.area == AREA_ROAD) {
        ++road;
        EXPECT_GT(p.c[2], 11.5f);
      } else {
        ++ground;
        EXPECT_EQ(p.area, AREA_GROUND);
        EXPECT_LT(p.c[2], 12.5f);
      }
    }
    EXPECT_GT(road, 0);
    EXPECT_GT(ground, 0);
    // Excluding the decal leaves the floor under it walkable ground.
    float maxZ = 0;
    for (const PolyInfo& p : polys(*bakeWith(R"([{"match": "decal", "exclude": true}])"))) {
      EXPECT_EQ(p.area, AREA_GROUND);
      maxZ = std::max(maxZ, p.c[2]);
    }
    EXPECT_GT(maxZ, 14.0f);
  }
}

/// The bytes of a whole in-memory bake of `in`.
std::vector<uint8_t> bakeBytes(BakeInput in, const BakeSettings& s) {
  Baker baker;
  std::string why;
  EXPECT_TRUE(baker.setInput(std::move(in), &why)) << why;
  BakeReport r;
  EXPECT_TRUE(baker.bake(s, BakeOptions(), &r)) << r.error;
  std::vector<uint8_t> bytes;
  if (baker.navMesh()) {
    EXPECT_TRUE(nav::statusSucceeded(nav::saveTileSet(*baker.navMesh(), bytes, &why))) << why;
  }
  return bytes;
}

TEST(AreaRules, WithoutRulesTheBakeIsUnchanged) {
  // The default level (no rules): its names read or not, rules that match nothing: the same bytes.
  BakeInput in;
  BakeSettings s;
  std::string why;
  ASSERT_TRUE(loadBakeInput(baketest::defaultLevel(), &in, &s, &why)) << why;
  EXPECT_TRUE(in.areaRules.empty());
  BakeInput bare = in;
  bare.groups.clear();
  bare.triGroup.clear();
  const std::vector<uint8_t> ref = bakeBytes(bare, s);
  ASSERT_FALSE(ref.empty());
  EXPECT_EQ(bakeBytes(in, s), ref);
  BakeInput none = in;
  none.areaRules.push_back(AreaRule{"no such name", false, AREA_WATER});
  EXPECT_EQ(bakeBytes(none, s), ref);
  // The file bake of the level file without rules: the same bytes as before (StreamBakeTest), and
  // here against the in-memory bake of the same input.
  FileBakeInput fin;
  BakeSettings fs;
  ASSERT_TRUE(loadFileBakeInput(baketest::defaultLevel(), &fin, &fs, &why)) << why;
  const std::string out = tempPath("default.bin");
  BakeReport r;
  ASSERT_TRUE(bakeFileToTileSet(fin, fs, out, BakeOptions(), &r)) << r.error;
  EXPECT_EQ(readBytes(out), ref);
}

TEST(AreaRules, FileBakeAndLayerBakeHonourTheRules) {
  for (const char* settings : {kSolo, kTiled}) {
    SCOPED_TRACE(settings);
    const std::string level = writeLevel("file", kRules, settings);
    BakeInput in;
    BakeSettings s;
    std::string why;
    ASSERT_TRUE(loadBakeInput(level, &in, &s, &why)) << why;
    const std::vector<uint8_t> expected = bakeBytes(in, s);
    FileBakeInput fin;
    BakeSettings fs;
    ASSERT_TRUE(loadFileBakeInput(level, &fin, &fs, &why)) << why;
    ASSERT_EQ(fin.areaRules.size(), 3u);
    for (int threads : {1, 3}) {
      FileBakeOptions tiny; // many bin segments: codes must stay with their triangles
      tiny.binBufferBytes = 1;
      tiny.vertexCacheBytes = 1;
      const std::string out = tempPath("file.bin");
      BakeOptions opt;
      opt.threads = threads;
      BakeReport r;
      ASSERT_TRUE(bakeFileToTileSet(fin, fs, out, opt, &r, tiny)) << r.error;
      const std::vector<uint8_t> got = readBytes(out);
      EXPECT_EQ(baketest::firstDiff(got, expected), -1);
      EXPECT_EQ(got.size(), expected.size());
    }
    // And it differs from the bake without rules (the rules did something).
    BakeInput plain = in;
    plain.areaRules.clear();
    EXPECT_NE(bakeBytes(plain, s), expected);
  }
  // Layers: the layer bake marks the same triangles (the cache's layers differ with rules, and an
  // excluded-everything level has no walkable layer at all).
  const std::string level = writeLevel("layers", kRules, kTiled);
  FileBakeInput fin;
  BakeSettings s;
  std::string why;
  ASSERT_TRUE(loadFileBakeInput(level, &fin, &s, &why)) << why;
  BakeInput in;
  ASSERT_TRUE(loadFileBakeMesh(fin, &in, &why)) << why;
  ASSERT_FALSE(in.triGroup.empty());
  tilecache::TileCacheFileData ruled, plainData, none;
  BakeReport r;
  ASSERT_TRUE(bakeLayers(in, s, BakeOptions(), &ruled, &r)) << r.error;
  BakeInput plain = in;
  plain.areaRules.clear();
  ASSERT_TRUE(bakeLayers(plain, s, BakeOptions(), &plainData, &r)) << r.error;
  EXPECT_NE(ruled.layers, plainData.layers);
  BakeInput excluded = in;
  excluded.areaRules = {AreaRule{"*", true, 0}};
  EXPECT_FALSE(bakeLayers(excluded, s, BakeOptions(), &none, &r));
  EXPECT_NE(r.error.find("no walkable layers"), std::string::npos) << r.error;
}

TEST(AreaRules, LevelFileRulesAreReadWrittenAndRefusedByName) {
  const std::string level = writeLevel("roundtrip", kRules, kSolo);
  Level lv;
  std::string why;
  ASSERT_TRUE(loadLevelFile(level, &lv, &why)) << why;
  ASSERT_EQ(lv.areaRules.size(), 3u);
  EXPECT_EQ(lv.areaRules[0].match, "water");
  EXPECT_EQ(lv.areaRules[0].area, AREA_WATER);
  EXPECT_TRUE(lv.areaRules[2].exclude);
  const std::string saved = tempPath("saved.json");
  ASSERT_TRUE(saveLevelFile(saved, lv, &why)) << why;
  Level back;
  ASSERT_TRUE(loadLevelFile(saved, &back, &why)) << why;
  EXPECT_EQ(back.areaRules, lv.areaRules);
  // No rules: no key written (the files of levels without rules are as before).
  lv.areaRules.clear();
  ASSERT_TRUE(saveLevelFile(saved, lv, &why)) << why;
  const std::vector<uint8_t> text = readBytes(saved);
  EXPECT_EQ(std::string(text.begin(), text.end()).find("areaRules"), std::string::npos);

  struct Bad {
    const char* rules;
    const char* expect;
  };
  const Bad bad[] = {
      {R"([{"match": "water", "area": "water"}, {"match": "x", "area": "lava"}])", "areaRules[1].area: unknown area 'lava'"},
      {R"({"match": "x", "area": "water"})", "areaRules: expected an array"},
      {R"([{"area": "water"}])", "areaRules[0].match: missing"},
      {R"([{"match": "x"}])", "areaRules[0].area: missing"},
      {R"([{"match": "x", "area": "water", "exclude": true}])", "areaRules[0].area: a rule gives an area"},
      {R"([{"match": "x[a", "area": "water"}])", "areaRules[0].match: unclosed '['"},
      {R"([{"match": "", "area": "water"}])", "areaRules[0].match: empty pattern"},
      {R"([{"match": "x", "area": "water", "colour": 1}])", "areaRules[0].colour: unknown key"},
  };
  for (const Bad& b : bad) {
    const std::string path = writeLevel("bad", b.rules, kSolo);
    EXPECT_FALSE(loadLevelFile(path, &lv, &why)) << b.rules;
    EXPECT_NE(why.find(path), std::string::npos) << why;
    EXPECT_NE(why.find(b.expect), std::string::npos) << why;
    BakeInput in;
    BakeSettings s;
    EXPECT_FALSE(loadBakeInput(path, &in, &s, &why));
    EXPECT_NE(why.find(b.expect), std::string::npos) << why;
  }
  // A rule with an area out of range, given in memory: the bake input refuses it.
  BakeInput in;
  BakeSettings s;
  ASSERT_TRUE(loadBakeInput(level, &in, &s, &why)) << why;
  in.areaRules[1].area = 70;
  Baker baker;
  EXPECT_FALSE(baker.setInput(in, &why));
  EXPECT_NE(why.find("area rule 1: area 70"), std::string::npos) << why;
  in.areaRules[1].area = AREA_DOOR;
  in.triGroup.pop_back();
  EXPECT_FALSE(baker.setInput(in, &why));
  EXPECT_NE(why.find("names cover"), std::string::npos) << why;
}

} // namespace
