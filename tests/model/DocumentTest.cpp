// The document (app/Document.h) without a window: a level file and its tile set opened, a
// scenario applied and captured back, bad scenarios refused with nothing changed, an edit and its
// undo, and the Check and Why models on the open navmesh. The tools are a path tester (the Pathfind
// Straight model, app/model/TesterModes.h, behind the Tool interface) and a tool with no state.
#include "app/Document.h"
#include "app/Settings.h"
#include "app/model/TesterModes.h"
#include "nav/bake/LevelFile.h"
#include "tests/model/EditFixture.h"
#include "tests/model/DocumentTestHost.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace navbench;
using nlohmann::json;

/// What the viewer would show, counted.
using TestHost = DocumentTestHost;

/// The Pathfind Straight model as a tool (what app/tools/Tester.h is, less its panel).
class PathTool : public Tool {
public:
  StraightModel model;
  const char* name() const override { return model.name(); }
  void init(ToolContext& ctx) override {
    Tool::init(ctx);
    model.setNav(ctx.nav);
    model.inputChanged = [this]() {
      if (m_ctx && m_ctx->inputChanged) m_ctx->inputChanged(this);
    };
  }
  void reset() override { model.reset(); }
  void onClick(const glm::vec3&, const glm::vec3& hit, bool shift) override { model.click(hit, shift); }
  void onLevelChanged() override { model.levelChanged(); }
  void onFilterChanged() override { model.recomputeAll(); }
  void undo() override { model.undo(); }
  void redo() override { model.redo(); }
  void saveScenario(json& out) const override { model.saveScenario(out); }
  bool loadScenario(const json& in, std::string& error) override { return model.loadScenario(in, error); }
};


std::vector<std::unique_ptr<Tool>> makeTools() {
  std::vector<std::unique_ptr<Tool>> tools;
  tools.push_back(std::make_unique<IdleTool>());
  tools.push_back(std::make_unique<PathTool>());
  return tools;
}

struct Doc {
  Log log;
  TestHost host;
  Document doc{log, host};
  Doc() { doc.initTools(makeTools); }
  PathTool& path() { return *static_cast<PathTool*>(doc.tools[1].get()); }
  std::string scenarioJson(const std::string& baseDir) const { return toJson(doc.currentScenario(baseDir)); }
  /// Pathfind Straight active, from `start` to `end`.
  void setPath(const glm::vec3& start, const glm::vec3& end) {
    doc.setActiveTool(1);
    path().model.setStart(start);
    path().model.setEnd(end);
  }
};

/// Two points on the open navmesh a complete path of several polys joins (found by the query).
bool pathEnds(NavState& nav, glm::vec3& a, glm::vec3& b) {
  nav::NavMeshQuery q;
  if (nav::statusFailed(q.init(&nav.mesh(), 4096))) return false;
  static unsigned seed;
  seed = 12345; // the same points on every call
  auto rnd = []() -> float {
    seed = seed * 1103515245u + 12345u;
    return float((seed >> 8) & 0xffff) / 65536.0f;
  };
  std::vector<glm::vec3> pts;
  for (int i = 0; i < 40; ++i) {
    nav::PolyRef ref = 0;
    float p[3];
    if (nav::statusSucceeded(q.findRandomPoint(&nav.filter(), rnd, &ref, p))) pts.emplace_back(p[0], p[1], p[2]);
  }
  for (size_t i = 1; i < pts.size(); ++i) {
    const nav::PolyRef s = nav.nearestPoly(pts[0]), e = nav.nearestPoly(pts[i]);
    nav::PolyRef path[256];
    int n = 0;
    const nav::Status st = q.findPath(s, e, &pts[0].x, &pts[i].x, &nav.filter(), path, &n, 256);
    if (s && e && nav::statusSucceeded(st) && !nav::statusDetail(st, nav::PARTIAL_RESULT) && n > 3) {
      a = pts[0];
      b = pts[i];
      return true;
    }
  }
  return false;
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST(Document, OpensALevelFileWithTheTileSetBesideIt) {
  const std::string dir = test::defaultLevelCopy("doc_open");
  Doc d;
  ASSERT_TRUE(d.doc.openAny(dir + "/default.json"));
  EXPECT_FALSE(d.doc.level.empty());
  EXPECT_FALSE(d.doc.levelFromNav);
  EXPECT_EQ(d.doc.levelArg, dir + "/default.json");
  ASSERT_TRUE(d.doc.nav.loaded());
  EXPECT_EQ(fs::path(d.doc.nav.path()).filename(), "default.bin");
  EXPECT_TRUE(d.doc.bake.hasSource());
  EXPECT_GE(d.host.levels, 1);
  EXPECT_GE(d.host.navmeshes, 1);
  EXPECT_EQ(d.host.bakes, 0) << "the .bin beside it is opened, not baked";
  // The scenario carries the hash of the level file's settings: as opened, then as saved into it
  // from the Bake panel; the file is not read again for it.
  auto fileHash = [&]() {
    nav::bake::Level lf;
    std::string why;
    EXPECT_TRUE(nav::bake::loadLevelFile(dir + "/default.json", &lf, &why)) << why;
    return bakeSettingsHash(nav::bake::settingsToJson(lf.settings));
  };
  const std::string opened = fileHash();
  EXPECT_EQ(d.doc.currentScenario(dir).bakeSettingsHash, opened);
  d.doc.bake.settings.cellSize += 0.05f;
  EXPECT_EQ(d.doc.currentScenario(dir).bakeSettingsHash, opened) << "settings edited, not saved: the file's";
  ASSERT_TRUE(d.doc.bake.saveSettings(d.log));
  const std::string saved = fileHash();
  EXPECT_NE(saved, opened);
  EXPECT_EQ(d.doc.currentScenario(dir).bakeSettingsHash, saved);
  writeText(dir + "/default.json", "{ broken");
  EXPECT_EQ(d.doc.currentScenario(dir).bakeSettingsHash, saved);
}

TEST(Document, AScenarioAppliedIsCapturedBackTheSame) {
  const std::string dir = test::defaultLevelCopy("doc_roundtrip");
  Doc a;
  ASSERT_TRUE(a.doc.openAny(dir + "/default.json"));
  glm::vec3 s, e;
  ASSERT_TRUE(pathEnds(a.doc.nav, s, e));
  a.setPath(s, e);
  ASSERT_TRUE(nav::statusSucceeded(a.path().model.status()));
  a.doc.navDraw.portals = true;
  a.doc.navDraw.polyEdges = false;
  a.doc.navDraw.lift = 0.25f;
  a.doc.view.wireframe = true;
  a.doc.nav.filter().setAreaCost(3, 7.5f);
  a.doc.nav.setMaxNodes(1000);
  a.doc.camera.yaw = 1.25f;
  a.doc.camera.distance = 33.0f;
  a.doc.scenarioNote = "the note";
  const std::string path = dir + "/bug.json";
  ASSERT_TRUE(a.doc.saveScenarioAs(path));
  const std::string saved = a.scenarioJson(dir);

  Doc b;
  ASSERT_TRUE(b.doc.openScenarioFile(path)) << (b.host.errors.empty() ? "" : b.host.errors.back());
  EXPECT_EQ(b.scenarioJson(dir), saved);
  EXPECT_EQ(b.doc.activeTool, 1);
  EXPECT_EQ(b.path().model.start(), s);
  EXPECT_EQ(b.path().model.end(), e);
  EXPECT_EQ(b.path().model.straightSize(), a.path().model.straightSize());
  EXPECT_EQ(b.path().model.straightLength(), a.path().model.straightLength());
  EXPECT_TRUE(b.doc.navDraw.portals);
  EXPECT_FALSE(b.doc.navDraw.polyEdges);
  EXPECT_EQ(b.doc.navDraw.lift, 0.25f);
  EXPECT_EQ(b.doc.nav.filter().getAreaCost(3), 7.5f);
  EXPECT_EQ(b.doc.nav.maxNodes(), 1000);
  EXPECT_EQ(b.doc.scenarioPath, path);
  EXPECT_TRUE(b.host.errors.empty());
  // Applied again on the same open files: nothing is re-opened, the scenario is the same.
  const size_t opened = b.host.opened.size();
  ASSERT_TRUE(b.doc.openScenarioFile(path));
  EXPECT_EQ(b.host.opened.size(), opened);
  EXPECT_EQ(b.scenarioJson(dir), saved);
}

TEST(Document, ABadScenarioChangesNothing) {
  const std::string dir = test::defaultLevelCopy("doc_bad");
  Doc d;
  ASSERT_TRUE(d.doc.openAny(dir + "/default.json"));
  glm::vec3 s, e;
  ASSERT_TRUE(pathEnds(d.doc.nav, s, e));
  d.setPath(s, e);
  const Scenario good = d.doc.currentScenario(dir);
  const std::string before = toJson(good);
  const std::string navPath = d.doc.nav.path();
  const int levels = d.host.levels, navmeshes = d.host.navmeshes;
  // Files for the scenarios below: a broken level file beside a good OBJ, a tile set that is not one.
  fs::copy_file(dir + "/default.obj", dir + "/other.obj");
  writeText(dir + "/other.json", "{\"format\": \"navbench-level\", \"version\": 1, \"obj\": \"other.obj\", \"settings\": {\"cellSize\": -1}}");
  writeText(dir + "/garbage.bin", "not a tile set");
  writeText(dir + "/nolevel.json", "{\"format\": \"navbench-level\", \"version\": 1, \"obj\": \"missing.obj\"}");

  struct Case {
    const char* what;
    std::function<void(Scenario&)> spoil;
    const char* message; ///< In the error shown.
  };
  const std::vector<Case> cases = {
      {"unknown tool", [](Scenario& x) { x.toolName = "No Such Tool"; }, "tool.name: unknown tool 'No Such Tool'"},
      {"bad tool state", [](Scenario& x) { x.toolState["start"] = "here"; }, "tool.state.start"},
      {"missing level", [](Scenario& x) { x.level = "gone.json"; }, "level 'gone.json' not found"},
      {"broken level file", [](Scenario& x) { x.level = "other.json"; x.navmesh = ""; }, "cellSize"},
      {"level file without its OBJ", [](Scenario& x) { x.level = "nolevel.json"; x.navmesh = ""; }, "missing.obj"},
      {"not a tile set", [](Scenario& x) { x.navmesh = "garbage.bin"; }, "garbage.bin"},
      {"obstacles without a tile cache",
       [](Scenario& x) { x.edits = json{{"obstacles", json::array({{{"kind", "cylinder"}, {"pos", {0, 0, 0}}, {"radius", 1}, {"height", 2}}})}}; },
       "obstacles need a tile cache"},
      {"a capture query without a capture", [](Scenario& x) { x.captureQuery = 0; }, "needs a path capture"},
  };
  for (const Case& c : cases) {
    Scenario bad = good;
    c.spoil(bad);
    const size_t errors = d.host.errors.size();
    EXPECT_FALSE(d.doc.applyScenario(bad, dir, "bad.json")) << c.what;
    ASSERT_EQ(d.host.errors.size(), errors + 1) << c.what;
    EXPECT_NE(d.host.errors.back().find(c.message), std::string::npos) << c.what << ": " << d.host.errors.back();
    EXPECT_EQ(toJson(d.doc.currentScenario(dir)), before) << c.what;
    EXPECT_EQ(d.doc.nav.path(), navPath) << c.what;
    EXPECT_EQ(d.host.levels, levels) << c.what;
    EXPECT_EQ(d.host.navmeshes, navmeshes) << c.what;
    EXPECT_TRUE(d.path().model.hasStart() && d.path().model.hasEnd()) << c.what;
  }
}

TEST(Document, AnEditIsUndoneThroughTheOneHistory) {
  const std::string dir = test::defaultLevelCopy("doc_edit");
  Doc d;
  ASSERT_TRUE(d.doc.openAny(dir + "/default.json"));
  std::string why;
  ASSERT_TRUE(d.doc.editor.ready(&why)) << why;
  const std::string clean = d.scenarioJson(dir);
  const std::map<std::pair<int, int>, std::string> tiles = test::meshBytes(d.doc.nav.mesh());
  glm::vec3 s, e;
  ASSERT_TRUE(pathEnds(d.doc.nav, s, e));
  nav::bake::ConvexVolume v;
  v.verts = {s.x - 2, s.y, s.z - 2, s.x + 2, s.y, s.z - 2, s.x + 2, s.y, s.z + 2, s.x - 2, s.y, s.z + 2};
  v.hmin = s.y - 1;
  v.hmax = s.y + 2;
  v.area = nav::AREA_WATER;
  const size_t volumes = d.doc.editor.volumes().size();
  ASSERT_TRUE(d.doc.editor.addVolume(v, &why)) << why;
  d.doc.editor.finish();
  d.doc.pollBake();
  EXPECT_EQ(d.doc.editor.volumes().size(), volumes + 1);
  EXPECT_TRUE(d.doc.editor.hasEdits());
  EXPECT_NE(test::meshBytes(d.doc.nav.mesh()), tiles) << "the volume's tiles were re-baked";
  const Scenario edited = d.doc.currentScenario(dir);
  ASSERT_TRUE(edited.edits.is_object());
  EXPECT_EQ(edited.edits["volumes"].size(), volumes + 1);

  ASSERT_TRUE(d.doc.history.undo());
  d.doc.editor.finish();
  d.doc.pollBake();
  EXPECT_EQ(d.doc.editor.volumes().size(), volumes);
  EXPECT_EQ(test::meshBytes(d.doc.nav.mesh()), tiles) << "undo re-bakes the tiles as they were";
  EXPECT_EQ(d.scenarioJson(dir), clean);

  // The edited scenario applied to a fresh document gives the edited navmesh again.
  Doc other;
  ASSERT_TRUE(other.doc.applyScenario(edited, dir, "edited.json"));
  other.doc.editor.finish();
  other.doc.pollBake();
  EXPECT_EQ(other.doc.editor.volumes().size(), volumes + 1);
  EXPECT_EQ(toJson(other.doc.currentScenario(dir)), toJson(edited));
}

TEST(Document, CheckAndWhyRunOnTheOpenNavmesh) {
  const std::string dir = test::defaultLevelCopy("doc_check");
  Doc d;
  ASSERT_TRUE(d.doc.openAny(dir + "/default.json"));
  std::string why;
  ASSERT_TRUE(d.doc.check.start(d.doc.nav.mesh(), {}, &why)) << why;
  d.doc.check.wait();
  ASSERT_TRUE(d.doc.check.hasResult()) << d.doc.check.error();
  EXPECT_FALSE(d.doc.check.stale(&d.doc.nav.mesh()));
  // The default level has islands (a roof, a platform only a link reaches...): findings to select.
  ASSERT_FALSE(d.doc.check.findings().empty());
  ASSERT_TRUE(d.doc.check.select(0));
  d.doc.check.shown = true;

  glm::vec3 s, e;
  ASSERT_TRUE(pathEnds(d.doc.nav, s, e));
  d.setPath(s, e);
  d.doc.why.shown = true;
  EXPECT_TRUE(d.doc.why.update(d.doc.nav, &d.path().model));
  EXPECT_TRUE(d.doc.why.hasQuery()) << d.doc.why.error();
  EXPECT_FALSE(d.doc.why.update(d.doc.nav, &d.path().model)) << "the same query is not explained twice";

  // Both panels travel with the scenario.
  const Scenario s1 = d.doc.currentScenario(dir);
  ASSERT_TRUE(s1.check.is_object());
  ASSERT_TRUE(s1.why.is_object());
  Doc other;
  ASSERT_TRUE(other.doc.applyScenario(s1, dir, "panels.json"));
  EXPECT_TRUE(other.doc.check.shown);
  EXPECT_TRUE(other.doc.why.shown);
  // The checks run again (as the Check panel polls them) and the finding is selected again.
  EXPECT_TRUE(other.doc.check.pendingRun());
  EXPECT_TRUE(other.doc.baking()) << "headless runs wait for the scenario's checks";
  other.doc.check.poll(&other.doc.nav.mesh(), {}, nowMs(), true);
  other.doc.check.wait();
  EXPECT_FALSE(other.doc.baking());
  EXPECT_EQ(other.doc.check.findings().size(), d.doc.check.findings().size());
  EXPECT_EQ(toJson(other.doc.currentScenario(dir)), toJson(s1));
}

} // namespace
