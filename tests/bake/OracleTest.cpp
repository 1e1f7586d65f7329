// Differential tests: nav_bake's tiles and tile sets against Detour's (the oracle) built from the
// same Recast output, and against a RecastDemo-equivalent bake done directly on Recast + Detour.
#include "BakeTestUtil.h"
#include "RecastDemoRef.h"
#include "nav/TileSetFile.h"

#include <DetourNavMesh.h>
#include <gtest/gtest.h>

using namespace nav::bake;
using baketest::firstDiff;

namespace {

struct LevelCase {
  std::string name;
  std::string path; ///< OBJ or level file
  bool shared;
};

std::vector<LevelCase> levels() {
  std::vector<LevelCase> v;
  v.push_back({"default", baketest::fileExists(baketest::defaultLevel()) ? baketest::defaultLevel() : baketest::defaultObj(), false});
  for (const std::string& n : baketest::sharedLevelNames()) v.push_back({n.substr(0, n.size() - 4), baketest::sharedLevelsDir() + "/" + n, true});
  return v;
}

struct Case {
  LevelCase level;
  bool tiled;
  Partition partition;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.level.name << (c.tiled ? " tiled " : " solo ") << partitionName(c.partition);
}

std::string caseName(const testing::TestParamInfo<Case>& info) {
  return info.param.level.name + (info.param.tiled ? "_tiled_" : "_solo_") + partitionName(info.param.partition);
}

std::vector<Case> cases() {
  std::vector<Case> v;
  for (const LevelCase& l : levels())
    for (bool tiled : {false, true}) v.push_back({l, tiled, Partition::Watershed});
  // The other partitions on one shared level and the default level.
  for (const LevelCase& l : levels())
    if (l.name == "default" || l.name == "nav_test")
      for (Partition p : {Partition::Monotone, Partition::Layers}) v.push_back({l, true, p});
  return v;
}

class BakeOracle : public testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    const Case& c = GetParam();
    if (c.level.shared && !baketest::fileExists(c.level.path))
      GTEST_SKIP() << "shared levels not found at " << baketest::sharedLevelsDir();
    std::string why;
    ASSERT_TRUE(baketest::loadLevel(c.level.path, &input, &settings, &why)) << why;
    settings.tiled = c.tiled;
    settings.partition = c.partition;
    ASSERT_TRUE(baker.setInput(input, &why)) << why;
  }
  BakeInput input;
  BakeSettings settings;
  Baker baker;
};

// Every tile: nav::buildTileData and dtCreateNavMeshData on the same Recast output give the same
// bytes; and the baked, linked mesh saves to the same tile set file as the RecastDemo-equivalent
// bake on Recast + Detour (same tile refs, same links).
TEST_P(BakeOracle, TilesAndTileSetEqualDetour) {
  BakeOptions opt;
  opt.threads = 2;
  BakeReport report;
  ASSERT_TRUE(baker.bake(settings, opt, &report)) << report.error;
  ASSERT_NE(baker.navMesh(), nullptr);
  EXPECT_GT(report.polyCount, 0);

  int tw = 0, th = 0;
  baker.tileGrid(settings, &tw, &th);
  int nonEmpty = 0;
  for (int ty = 0; ty < th; ++ty)
    for (int tx = 0; tx < tw; ++tx) {
      PolyMeshData pm;
      std::string why;
      ASSERT_TRUE(baker.buildPolyMesh(settings, tx, ty, &pm, &why)) << why;
      if (pm.polyCount() == 0) {
        EXPECT_EQ(baker.navMesh()->getTileAt(tx, ty, 0), nullptr) << "tile " << tx << "," << ty;
        continue;
      }
      ++nonEmpty;
      nav::TileBuildParams params;
      fillTileBuildParams(pm, baker.offMeshArrays(), settings, &params);
      uint8_t* data = nullptr;
      int size = 0;
      ASSERT_TRUE(nav::buildTileData(params, &data, &size, &why)) << why;
      std::vector<uint8_t> ours(data, data + size);
      delete[] data;
      const std::vector<uint8_t> theirs = bakeref::detourTileData(params);
      ASSERT_FALSE(theirs.empty());
      const long d = firstDiff(ours, theirs);
      EXPECT_EQ(d, -1) << "tile " << tx << "," << ty << ": first difference at byte " << d << " ("
                       << baketest::tileSectionAt(theirs, d) << "), sizes " << ours.size() << " / " << theirs.size();
      // The baked mesh holds this tile.
      const nav::MeshTile* t = baker.navMesh()->getTileAt(tx, ty, 0);
      ASSERT_NE(t, nullptr);
      EXPECT_EQ(t->dataSize, size);
    }
  EXPECT_EQ(nonEmpty, report.tileCount);

  dtNavMesh* ref = bakeref::build(input, settings);
  ASSERT_NE(ref, nullptr);
  const std::vector<uint8_t> refFile = bakeref::saveAll(ref);
  dtFreeNavMesh(ref);
  // Our tile set file, as nav's MSET writer (used by `navbench bake`) writes it.
  std::vector<uint8_t> ourFile;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::saveTileSet(*baker.navMesh(), ourFile, &why))) << why;
  const long d = firstDiff(ourFile, refFile);
  EXPECT_EQ(d, -1) << "tile set files differ at byte " << d << " of " << refFile.size() << " / " << ourFile.size() << ": "
                    << baketest::tileSetLocation(refFile, d);
}

INSTANTIATE_TEST_SUITE_P(Levels, BakeOracle, testing::ValuesIn(cases()), caseName);

} // namespace
