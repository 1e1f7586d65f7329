// The tester's common part, headless: start/end undo and redo, and the scenario JSON of every
// mode: saved, loaded into a fresh model and saved again is byte-identical (with the same
// results), and bad values are refused with the JSON path named, leaving the model unchanged.
#include "TesterFixture.h"

#include "app/model/StepperModel.h"
#include "app/model/TesterModes.h"

#include <functional>
#include <memory>

using navbench::test::stateOf;
using navbench::test::TesterFixture;
using nlohmann::json;

namespace {

std::vector<std::function<std::unique_ptr<navbench::TesterModel>()>> allModes() {
  return {[] { return std::make_unique<navbench::FollowModel>(); },
          [] { return std::make_unique<navbench::StraightModel>(); },
          [] { return std::make_unique<navbench::SlicedModel>(); },
          [] { return std::make_unique<navbench::StepperModel>(); },
          [] { return std::make_unique<navbench::RaycastModel>(); },
          [] { return std::make_unique<navbench::WallDistanceModel>(); },
          [] { return std::make_unique<navbench::PolysCircleModel>(); },
          [] { return std::make_unique<navbench::PolysShapeModel>(); },
          [] { return std::make_unique<navbench::LocalNeighbourhoodModel>(); },
          [] { return std::make_unique<navbench::RandomPointsModel>(); }};
}

} // namespace

TEST_F(TesterFixture, UndoRedoOfStartAndEnd) {
  navbench::StraightModel m;
  m.setNav(&nav);
  int changes = 0;
  m.inputChanged = [&] { ++changes; };
  EXPECT_FALSE(m.canUndo());
  m.setStart(start);
  m.setEnd(end);
  const json withEnd = stateOf(m);
  m.setEnd(unreachable);
  EXPECT_EQ(changes, 3) << "each input joins the app's history";
  m.undo();
  EXPECT_EQ(m.end(), end);
  EXPECT_EQ(stateOf(m), withEnd) << "undo gives the same path back";
  m.redo();
  EXPECT_EQ(m.end(), unreachable);
  m.undo();
  m.undo();
  EXPECT_TRUE(m.hasStart());
  EXPECT_FALSE(m.hasEnd());
  EXPECT_EQ(m.corridorSize(), 0);
  m.undo();
  EXPECT_FALSE(m.hasStart());
  EXPECT_FALSE(m.canUndo());
  m.undo(); // nothing left: no change
  EXPECT_FALSE(m.hasStart());
  m.redo();
  m.redo();
  EXPECT_EQ(stateOf(m), withEnd) << "redo replays the same inputs";
  m.click(start, true); // a new input drops the redo list
  EXPECT_FALSE(m.canRedo());
  m.clear();
  EXPECT_FALSE(m.hasStart());
  m.undo();
  EXPECT_EQ(stateOf(m), withEnd) << "Clear is undoable";
  m.levelChanged();
  EXPECT_FALSE(m.canUndo());
  EXPECT_FALSE(m.hasStart());
}

TEST_F(TesterFixture, ScenarioRoundTripIsByteIdenticalForEveryMode) {
  for (const auto& make : allModes()) {
    std::unique_ptr<navbench::TesterModel> a = make();
    SCOPED_TRACE(a->name());
    a->setNav(&nav);
    a->setStart(start);
    a->setEnd(end);
    if (a->hasShortestOption()) a->setShowShortest(true);
    if (auto* s = dynamic_cast<navbench::StepperModel*>(a.get())) s->goTo(s->total() / 2);
    if (auto* s = dynamic_cast<navbench::SlicedModel*>(a.get())) s->advance(3);
    if (auto* f = dynamic_cast<navbench::FollowModel*>(a.get())) f->step(), f->step();
    json saved;
    a->saveScenario(saved);
    const std::string text = saved.dump(2);
    std::unique_ptr<navbench::TesterModel> b = make();
    b->setNav(&nav);
    std::string error;
    ASSERT_TRUE(b->loadScenario(json::parse(text), error)) << error;
    json again;
    b->saveScenario(again);
    EXPECT_EQ(again.dump(2), text);
    EXPECT_EQ(stateOf(*b), stateOf(*a)) << "the loaded scenario replays to the same results";
    EXPECT_EQ(b->caption(), a->caption());
  }
}

TEST_F(TesterFixture, BadScenarioValuesAreRefusedWithTheirPath) {
  struct Case {
    int mode; // index into allModes()
    const char* json;
    const char* message;
  };
  const Case cases[] = {
      {1, R"({"options": {"crossing": 7}})", "options.crossing: must be in [0, 2], got 7"},
      {1, R"({"options": {"crossing": 1.5}})", "options.crossing: expected an integer"},
      {1, R"({"start": [1, 2]})", "start: expected [x, y, z]"},
      {1, R"({"end": [1, "a", 3]})", "end[1]: expected a number"},
      {1, R"({"start": [1e10, 0, 0]})", "start: coordinates must be within 1e9"},
      {1, R"({"shortest": 1})", "shortest: expected true or false"},
      {1, R"({"stat": [0, 0, 0]})", "stat: unknown key"},
      {1, R"({"options": []})", "options: expected an object"},
      {1, R"([])", "expected an object"},
      {4, R"({"shortest": true})", "shortest: unknown key"},
      {4, R"({"options": {"radius": 2}})", "options.radius: unknown key (Raycast has no options)"},
      {2, R"({"options": {"itersPerFrame": 0}})", "options.itersPerFrame: must be in [1, 64], got 0"},
      {2, R"({"options": {"paused": "yes"}})", "options.paused: expected true or false"},
      {0, R"({"options": {"steps": -1}})", "options.steps: must be in"},
      {5, R"({"options": {"radius": 0}})", "options.radius: must be in"},
      {8, R"({"options": {"radius": "big"}})", "options.radius: expected a number"},
      {9, R"({"options": {"count": 5000}})", "options.count: must be in [1, 2000]"},
      {9, R"({"options": {"colour": 1}})", "options.colour: unknown key"},
      {3, R"({"options": {"algorithm": "dijkstra"}})", "options.algorithm: expected one of findPath"},
      {3, R"({"options": {"index": -2}})", "options.index: must be in"},
  };
  const auto modes = allModes();
  for (const Case& c : cases) {
    std::unique_ptr<navbench::TesterModel> m = modes[size_t(c.mode)]();
    SCOPED_TRACE(std::string(m->name()) + " " + c.json);
    m->setNav(&nav);
    m->setStart(start);
    m->setEnd(end);
    json before;
    m->saveScenario(before);
    const json beforeState = stateOf(*m);
    std::string error;
    EXPECT_FALSE(m->loadScenario(json::parse(c.json), error));
    EXPECT_EQ(error.rfind(c.message, 0), 0u) << error;
    json after;
    m->saveScenario(after);
    EXPECT_EQ(after, before) << "a refused scenario changes nothing";
    EXPECT_EQ(stateOf(*m), beforeState);
  }
}
