// CheckModelTest.cpp: the Check panel's model (app/model/CheckModel.h) on the committed default
// tile set: its results are those of a direct nav::check::runChecks (the CLI's code: same JSON
// report), findings come errors first in a stable order, cancel stops a run, an edit of the mesh
// re-runs the checks (debounced) and the new results show the edit, and a scenario's options and
// selected finding come back after the (deterministic) re-run.
#include "app/model/CheckModel.h"

#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "nav/check/CheckReport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <string>

namespace navbench {
namespace {

using namespace nav::check;

const std::string kBin = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";

class CheckModelTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(kBin, mesh, &why))) << why;
  }
  /// Runs the model to the end on `mesh` with `pairs` pairs.
  void runModel(CheckModel& m, int pairs = 300) {
    m.options.pairs = pairs;
    std::string why;
    ASSERT_TRUE(m.start(mesh, CheckModel::LevelTris(), &why)) << why;
    m.wait();
    ASSERT_TRUE(m.hasResult()) << m.error();
  }
  nav::NavMesh mesh;
};

TEST_F(CheckModelTest, ResultsAreTheCliChecksOnTheSameMesh) {
  CheckModel m;
  runModel(m);
  EXPECT_EQ(m.runs(), 1);
  EXPECT_TRUE(m.error().empty());
  CheckOptions o;
  o.pairs = 300;
  CheckResult direct;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(runChecks(mesh, defaultCheckFilter(), o, direct, &why))) << why;
  // The CLI writes reportJson of runChecks' result: the model's gives the same report, key by key.
  EXPECT_EQ(reportJson("default.bin", m.result(), o), reportJson("default.bin", direct, o));
  EXPECT_GT(m.result().polyCount, 100);
  EXPECT_FALSE(m.result().heat.empty());
  EXPECT_GT(m.heatOf(m.result().heat.front().ref), 0.0f);
  EXPECT_EQ(m.heatOf(0), 0.0f);
}

TEST_F(CheckModelTest, FindingsErrorsFirstStableAndCounted) {
  CheckModel m;
  m.options.minWidth = 1.0f; // portals under 1 m: narrow findings on the default level
  runModel(m);
  const auto& f = m.findings();
  ASSERT_FALSE(f.empty());
  size_t total = 0;
  for (int k = 0; k < CHECK_COUNT; ++k) total += size_t(m.count(k));
  EXPECT_EQ(f.size(), total);
  for (size_t i = 1; i < f.size(); ++i) {
    EXPECT_GE(int(f[i - 1].severity), int(f[i].severity)) << i; // errors, then warnings
    if (f[i - 1].severity == f[i].severity) {
      EXPECT_LE(f[i - 1].kind, f[i].kind) << i;
      if (f[i - 1].kind == f[i].kind) {
        EXPECT_LT(f[i - 1].index, f[i].index) << i;
      }
    }
  }
  // Each row says what describeFindings says of that finding (the CLI's line).
  for (int k = 0; k < CHECK_COUNT; ++k) {
    const auto lines = describeFindings(m.result(), k);
    size_t n = 0;
    for (const CheckFinding& c : f)
      if (c.kind == k) {
        EXPECT_EQ(c.text, lines[n++]);
      }
  }
  // Same inputs, same list.
  CheckModel again;
  again.options.minWidth = 1.0f;
  runModel(again);
  ASSERT_EQ(again.findings().size(), f.size());
  for (size_t i = 0; i < f.size(); ++i) EXPECT_EQ(again.findings()[i].text, f[i].text);
}

TEST_F(CheckModelTest, FocusOfEachKind) {
  CheckModel m;
  m.options.minWidth = 1.0f;
  m.options.detourRatio = 1.01f; // and detours: every pair a little longer than the shortest
  m.options.detourMinExtra = 0.0f;
  runModel(m);
  bool pair = false, spot = false;
  for (int i = 0; i < int(m.findings().size()); ++i) {
    const CheckFinding& c = m.findings()[size_t(i)];
    const CheckFocus f = m.focus(i);
    for (int a = 0; a < 3; ++a) {
      EXPECT_LE(f.boundsMin[size_t(a)], f.pos[size_t(a)]);
      EXPECT_GE(f.boundsMax[size_t(a)], f.pos[size_t(a)]);
    }
    if (c.kind == CHECK_DETOURS) {
      pair = true;
      EXPECT_EQ(f.kind, CheckFocus::Pair);
      EXPECT_EQ(f.a, m.result().detours[size_t(c.index)].start);
      EXPECT_EQ(f.b, m.result().detours[size_t(c.index)].end);
    } else if (c.kind == CHECK_NARROW) {
      spot = true;
      EXPECT_EQ(f.kind, CheckFocus::Spot);
      EXPECT_EQ(f.pos, m.result().narrow[size_t(c.index)].pos);
      EXPECT_EQ(f.a, m.result().narrow[size_t(c.index)].a);
    } else if (c.kind == CHECK_ISLANDS) {
      EXPECT_EQ(f.kind, CheckFocus::Island);
      EXPECT_EQ(int(f.polys.size()), m.result().islands[size_t(c.index)].polys);
    }
  }
  EXPECT_TRUE(pair);
  EXPECT_TRUE(spot);
  EXPECT_EQ(m.focus(-1).kind, CheckFocus::None);
  EXPECT_EQ(m.focus(int(m.findings().size())).kind, CheckFocus::None);
}

TEST_F(CheckModelTest, IslandFocusHoldsItsPolys) {
  // Disable (RecastDemo's 0x10 flag, excluded by the check's filter) a ring around one poly: it becomes
  // an island of one poly nobody reaches.
  const nav::MeshTile* t = nullptr;
  for (int i = 0; i < mesh.getMaxTiles() && !t; ++i)
    if (mesh.getTile(i)->header && mesh.getTile(i)->header->polyCount > 4) t = mesh.getTile(i);
  ASSERT_NE(t, nullptr);
  CheckModel m;
  runModel(m, 50);
  const int islandsBefore = int(m.result().islands.size());
  // The poly 0 of the tile: cut every neighbour.
  const nav::Poly& p = t->polys[0];
  nav::PolyRef p0 = 0;
  for (const auto& pi : m.result().polyIslands) {
    const nav::MeshTile* pt = nullptr;
    const nav::Poly* pp = nullptr;
    mesh.getTileAndPolyByRefUnsafe(pi.first, &pt, &pp);
    if (pt == t && pp == &p) p0 = pi.first;
  }
  ASSERT_NE(p0, 0u);
  int cut = 0;
  for (uint32_t l = p.firstLink; l != nav::NULL_LINK; l = t->links[l].next) {
    ASSERT_TRUE(nav::statusSucceeded(mesh.setPolyFlags(t->links[l].ref, 0x10)));
    ++cut;
  }
  ASSERT_GT(cut, 0);
  runModel(m, 50);
  EXPECT_GT(int(m.result().islands.size()), islandsBefore);
  int found = -1;
  for (int i = 0; i < int(m.findings().size()); ++i) {
    const CheckFocus f = m.focus(i);
    if (f.kind == CheckFocus::Island && std::find(f.polys.begin(), f.polys.end(), p0) != f.polys.end()) found = i;
  }
  ASSERT_GE(found, 0) << "the cut-off poly is in no island finding";
  EXPECT_EQ(m.findings()[size_t(found)].kind, CHECK_ISLANDS);
}

TEST_F(CheckModelTest, CancelStopsTheRunAndKeepsOldResults) {
  CheckModel m;
  m.options.pairs = 10000000;
  std::string why;
  ASSERT_TRUE(m.start(mesh, CheckModel::LevelTris(), &why)) << why;
  EXPECT_TRUE(m.running());
  const auto t0 = std::chrono::steady_clock::now();
  m.cancel();
  m.wait();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
  EXPECT_FALSE(m.running());
  EXPECT_FALSE(m.hasResult());
  EXPECT_EQ(m.error(), "cancelled");
  runModel(m, 50);
  const size_t n = m.findings().size();
  m.options.pairs = 10000000;
  ASSERT_TRUE(m.start(mesh, CheckModel::LevelTris(), &why));
  m.cancel();
  m.wait();
  EXPECT_TRUE(m.hasResult()); // the last good results stay
  EXPECT_EQ(m.findings().size(), n);
  EXPECT_EQ(m.runs(), 1);
}

TEST_F(CheckModelTest, AnEditRerunsTheChecksAfterTheDebounce) {
  CheckModel m;
  m.debounceMs = 400;
  runModel(m, 100);
  const int polysBefore = m.result().polyCount;
  double now = 1000;
  EXPECT_FALSE(m.poll(&mesh, CheckModel::LevelTris(), now, true));
  EXPECT_FALSE(m.running()); // nothing changed
  // The edit: the Prune tool's way of taking polys out (the disabled flag the check's filter excludes).
  const nav::MeshTile* t = nullptr;
  for (int i = 0; i < mesh.getMaxTiles() && !t; ++i)
    if (mesh.getTile(i)->header && mesh.getTile(i)->header->polyCount > 0) t = mesh.getTile(i);
  ASSERT_NE(t, nullptr);
  int disabled = 0;
  for (const auto& pi : m.result().polyIslands) {
    const nav::MeshTile* pt = nullptr;
    const nav::Poly* pp = nullptr;
    mesh.getTileAndPolyByRefUnsafe(pi.first, &pt, &pp);
    if (pt != t) continue;
    ASSERT_TRUE(nav::statusSucceeded(mesh.setPolyFlags(pi.first, 0x10)));
    ++disabled;
  }
  ASSERT_GT(disabled, 0);
  EXPECT_TRUE(m.stale(&mesh));
  m.poll(&mesh, CheckModel::LevelTris(), now += 16, true);
  EXPECT_FALSE(m.running()); // debounced
  m.poll(&mesh, CheckModel::LevelTris(), now += 100, false);
  EXPECT_FALSE(m.running()); // the panel is hidden: no re-run
  m.poll(&mesh, CheckModel::LevelTris(), now += 400, true);
  ASSERT_TRUE(m.running());
  m.wait();
  EXPECT_EQ(m.runs(), 2);
  EXPECT_FALSE(m.stale(&mesh));
  EXPECT_EQ(m.result().polyCount, polysBefore - disabled);
  // Same as a fresh run on the edited mesh.
  CheckOptions o;
  o.pairs = 100;
  CheckResult direct;
  ASSERT_TRUE(nav::statusSucceeded(runChecks(mesh, defaultCheckFilter(), o, direct)));
  EXPECT_EQ(reportJson("m", m.result(), o), reportJson("m", direct, o));
  // With autoRerun off, an edit leaves the results stale.
  m.autoRerun = false;
  ASSERT_TRUE(nav::statusSucceeded(mesh.setPolyFlags(m.result().polyIslands.front().first, 0x10)));
  m.poll(&mesh, CheckModel::LevelTris(), now += 10000, true);
  m.poll(&mesh, CheckModel::LevelTris(), now += 10000, true);
  EXPECT_FALSE(m.running());
  EXPECT_TRUE(m.stale(&mesh));
}

TEST_F(CheckModelTest, ScenarioBringsBackOptionsAndSelection) {
  CheckModel m;
  m.options.minWidth = 1.0f;
  m.options.seed = 7;
  m.heatmap = true;
  m.shown = true;
  runModel(m, 120);
  ASSERT_GE(m.findings().size(), 2u);
  const int pick = int(m.findings().size()) - 1;
  ASSERT_TRUE(m.select(pick));
  EXPECT_FALSE(m.select(int(m.findings().size())));
  nlohmann::json j;
  m.saveScenario(j);
  EXPECT_EQ(j["options"]["pairs"], 120);
  EXPECT_EQ(j["selected"]["kind"], checkName(m.findings()[size_t(pick)].kind));

  CheckModel back;
  std::string why;
  ASSERT_TRUE(back.loadScenario(j, &why)) << why;
  EXPECT_EQ(back.options.pairs, 120);
  EXPECT_EQ(back.options.seed, 7u);
  EXPECT_EQ(back.options.minWidth, 1.0f);
  EXPECT_TRUE(back.heatmap);
  EXPECT_TRUE(back.shown);
  EXPECT_TRUE(back.pendingRun());
  back.poll(&mesh, CheckModel::LevelTris(), 0, false); // a scenario's run starts at once
  ASSERT_TRUE(back.running());
  back.wait();
  EXPECT_EQ(back.selected(), pick);
  EXPECT_EQ(back.findings()[size_t(pick)].text, m.findings()[size_t(pick)].text);
  nlohmann::json again;
  back.saveScenario(again);
  EXPECT_EQ(again, j);

  // Bad values name the key; nothing changes.
  nlohmann::json bad = j;
  bad["options"]["pairs"] = 0;
  CheckModel untouched;
  EXPECT_FALSE(untouched.loadScenario(bad, &why));
  EXPECT_NE(why.find("check.options.pairs"), std::string::npos) << why;
  EXPECT_EQ(untouched.options.pairs, 2000);
  bad = j;
  bad["selected"]["kind"] = "holes";
  EXPECT_FALSE(untouched.loadScenario(bad, &why));
  EXPECT_NE(why.find("holes"), std::string::npos) << why;
  bad = j;
  bad["options"]["checks"] = {"islands", "typo"};
  EXPECT_FALSE(untouched.loadScenario(bad, &why));
  bad = j;
  bad["extra"] = 1;
  EXPECT_FALSE(untouched.loadScenario(bad, &why));
  EXPECT_FALSE(untouched.pendingRun());
}

TEST_F(CheckModelTest, BadOptionsDoNotStart) {
  CheckModel m;
  m.options.pairs = 0;
  std::string why;
  EXPECT_FALSE(m.start(mesh, CheckModel::LevelTris(), &why));
  EXPECT_FALSE(why.empty());
  EXPECT_FALSE(m.running());
  nav::NavMesh empty;
  m.options.pairs = 10;
  EXPECT_FALSE(m.start(empty, CheckModel::LevelTris(), &why));
  EXPECT_FALSE(m.running());
}

} // namespace
} // namespace navbench
