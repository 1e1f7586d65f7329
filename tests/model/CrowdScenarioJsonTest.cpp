// The Crowd tool's scenario JSON and .crowd.txt files (app/model/CrowdModel.h) without a window:
// saved, opened and saved again byte-identical, reopened at the same tick with the same agents and
// selection; bad documents refused with "FILE: PATH: problem" and nothing changed; a bad
// .crowd.txt refused naming its file and line.
#include "app/Log.h"
#include "app/model/CrowdModel.h"
#include "nav/base/Json.h"
#include "tests/model/CrowdTestMesh.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using navbench::CrowdModel;
using nlohmann::json;

/// The agents as the state dump shows them.
json agentsOf(const CrowdModel& m) {
  json d;
  m.dumpState(d);
  return d["agents"];
}

/// A crowd of 12 agents sent somewhere, agent 3 selected, options changed, at tick 18 of 25.
void makeCrowd(CrowdModel& m) {
  m.bind(&navbench::test::crowdTestNav(), nullptr);
  ASSERT_TRUE(m.ensure());
  m.options.separation = true;
  m.options.quality = 2;
  m.options.separationWeight = 3.7f;
  m.addRandomAgents(12);
  m.randomTargets();
  m.select(3);
  m.mode = CrowdModel::MODE_SELECT;
  m.timeScale = 1.5f;
  m.setTicksPerSecond(25.0f);
  for (int i = 0; i < 25; ++i) m.step();
  m.goTo(18);
  ASSERT_EQ(m.tick(), 18);
}

/// Loads `doc` as the tool state of scenario "bug.json": the message, "" when accepted.
std::string load(CrowdModel& m, const json& doc) {
  base::JsonErrors errors("bug.json");
  const bool ok = m.loadScenario(base::JsonIn(doc, errors, "tool.state"));
  EXPECT_EQ(ok, !errors.failed()) << errors.message;
  return errors.message;
}

} // namespace

TEST(CrowdScenarioJson, RoundTripIsByteIdenticalAndReopensAtTheSameTick) {
  CrowdModel a;
  makeCrowd(a);
  json saved;
  a.saveScenario(saved);
  const std::string text = saved.dump(2);
  EXPECT_EQ(saved["tick"], 18);
  EXPECT_EQ(saved["selected"], 3);
  EXPECT_EQ(saved["mode"], "select");

  // Reopened through the JSON text, before a navmesh is there (the tick is reached once it is).
  json parsed;
  base::JsonErrors parseErrors("bug.json");
  ASSERT_TRUE(base::parseJson(text, parseErrors, parsed)) << parseErrors.message;
  CrowdModel b;
  EXPECT_EQ(load(b, parsed), "");
  b.bind(&navbench::test::crowdTestNav(), nullptr);
  ASSERT_TRUE(b.ensure());
  EXPECT_EQ(b.tick(), 18);
  EXPECT_EQ(b.totalTicks(), 25);
  EXPECT_EQ(b.selected(), 3);
  EXPECT_EQ(b.mode, CrowdModel::MODE_SELECT);
  EXPECT_TRUE(b.options.separation);
  EXPECT_EQ(b.options.quality, 2);
  EXPECT_EQ(b.options.separationWeight, 3.7f);
  EXPECT_EQ(b.tickDt(), a.tickDt());
  EXPECT_EQ(agentsOf(b), agentsOf(a));
  json again;
  b.saveScenario(again);
  EXPECT_EQ(again.dump(2), text);
  // Into a model that has a navmesh already: the same.
  CrowdModel c;
  c.bind(&navbench::test::crowdTestNav(), nullptr);
  ASSERT_TRUE(c.ensure());
  EXPECT_EQ(load(c, parsed), "");
  EXPECT_EQ(c.tick(), 18);
  EXPECT_EQ(agentsOf(c), agentsOf(a));
  // The same at the recorded end.
  a.goTo(25);
  c.goTo(25);
  EXPECT_EQ(agentsOf(c), agentsOf(a));
}

TEST(CrowdScenarioJson, EmptyStateIsAnEmptyCrowd) {
  CrowdModel m;
  m.bind(&navbench::test::crowdTestNav(), nullptr);
  EXPECT_EQ(load(m, json::object()), "");
  EXPECT_EQ(m.tick(), 0);
  EXPECT_EQ(m.totalTicks(), 0);
  EXPECT_EQ(m.activeAgents(), 0);
  json out;
  m.saveScenario(out);
  EXPECT_EQ(out["crowd"].get<std::string>().rfind("crowd 1024 0.6", 0), 0u) << out.dump();
}

TEST(CrowdScenarioJson, BadDocumentsAreRefusedNamingFileAndPath) {
  CrowdModel m;
  makeCrowd(m);
  json before;
  m.saveScenario(before);
  const std::string crowd = before["crowd"];
  const struct {
    json doc;
    std::string message;
  } cases[] = {
      {json::array(), "bug.json: tool.state: expected an object, got array"},
      {{{"tik", 3}}, "bug.json: tool.state.tik: unknown key"},
      {{{"tick", -1}}, "bug.json: tool.state.tick: must be in [0, 200000], got -1"},
      {{{"tick", 2.5}}, "bug.json: tool.state.tick: expected an integer, got number"},
      {{{"mode", "walk"}}, "bug.json: tool.state.mode: must be \"agents\", \"select\" or \"target\""},
      {{{"selected", 70000}}, "bug.json: tool.state.selected: must be in [-1, 65535], got 70000"},
      {{{"tickDt", 0}}, "bug.json: tool.state.tickDt: must be in [0.001, 10], got 0"},
      {{{"timeScale", nullptr}}, "bug.json: tool.state.timeScale: expected a number, got null (not a finite number?)"},
      {{{"separationWeight", 1e39}}, "bug.json: tool.state.separationWeight: not a finite float: 1e+39"},
      {{{"file", 3}}, "bug.json: tool.state.file: expected a string, got number"},
      {{{"crowd", 3}}, "bug.json: tool.state.crowd: expected a string, got number"},
      {{{"crowd", "crowd 16 0.6\nagent 1 2 3\nagent 1 2 nan\n"}}, "bug.json: tool.state.crowd: crowd:3: "},
      {{{"crowd", crowd}, {"tick", 26}}, "bug.json: tool.state.tick: 26 is past the crowd's 25 ticks"},
      {{{"tick", 1}}, "bug.json: tool.state.tick: 1 is past the crowd's 0 ticks"},
  };
  for (const auto& c : cases) {
    const std::string msg = load(m, c.doc);
    EXPECT_EQ(msg.substr(0, c.message.size()), c.message) << c.doc.dump();
    json after;
    m.saveScenario(after);
    EXPECT_EQ(after, before) << "unchanged by " << c.doc.dump();
    EXPECT_EQ(m.tick(), 18);
  }
}

TEST(CrowdScenarioJson, CrowdFilesSaveLoadAndABadOneIsRefusedNamingFileAndLine) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(NAVBENCH_MODEL_TEST_TMP) / "crowd_files";
  fs::remove_all(dir);
  fs::create_directories(dir);
  navbench::Log log;
  CrowdModel a;
  makeCrowd(a);
  a.bind(&navbench::test::crowdTestNav(), &log);
  a.path = (dir / "good.crowd.txt").string();
  a.saveFile();
  EXPECT_FALSE(a.isError()) << a.message();
  EXPECT_EQ(a.message(), "saved " + a.path + " (25 ticks)");

  CrowdModel b;
  b.bind(&navbench::test::crowdTestNav(), &log);
  b.path = a.path;
  b.loadFile();
  EXPECT_FALSE(b.isError()) << b.message();
  EXPECT_EQ(b.tick(), 0);
  EXPECT_EQ(b.totalTicks(), 25);
  b.goTo(b.totalTicks());
  a.goTo(25);
  EXPECT_EQ(agentsOf(b), agentsOf(a));

  const fs::path bad = dir / "bad.crowd.txt";
  std::ofstream(bad) << "crowd 16 0.6\nagent 1 2 3\nagent 1 2 nan\ntick 5 0.05\n";
  b.path = bad.string();
  const int errorsBefore = int(log.entries().size());
  b.loadFile();
  EXPECT_TRUE(b.isError());
  EXPECT_EQ(b.message().rfind("load: " + bad.string() + ":3: ", 0), 0u) << b.message();
  EXPECT_EQ(b.totalTicks(), 25) << "the crowd stays";
  EXPECT_EQ(b.tick(), 25);
  ASSERT_GT(int(log.entries().size()), errorsBefore);
  EXPECT_EQ(log.entries().back().text, "Crowd: " + b.message());

  b.path = (dir / "missing.crowd.txt").string();
  b.loadFile();
  EXPECT_TRUE(b.isError());
  EXPECT_EQ(b.message().rfind("load: " + b.path + ": cannot open", 0), 0u) << b.message();
}
