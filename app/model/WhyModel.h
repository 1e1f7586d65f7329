// WhyModel.h: the Why panel's model, headless: nav/explain's explainQuery run for the current query
// of a path mode (its start and end as clicked, the open navmesh's filter, area costs, heuristic
// scale, node budget and half extents: NavState), again whenever any of them changes; and each
// cause's counterfactual applied to that NavState for a look, as one step of the app's undo
// history (undo puts back what it changed). An unreachable-island finding selected in the Check
// panel is explained instead, as `navbench check --why` explains it (ExplainFindings' query from the
// first seed to the island, the check's filter and thresholds); its fixes are shown (and a link
// added through the level editor), not applied to the tester's settings.
//
// The explanation runs on the caller's thread (the frame's) only when the query changed: its work is
// bounded by ExplainOptions' caps and the node budget (a few ms to tens of ms on the shipped levels).
// Counterfactuals the tester can take: node budget, filter flags, area costs, heuristic scale, half
// extents. The any-angle search and an off-mesh link are shown, not applied (applicable() false).
//
// No SDL, ImGui or GL: tests/model drive it on a NavState and a TesterModel.
#pragma once

#include "app/model/History.h"
#include "nav/explain/Explain.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace navbench {

class CheckModel;
class LevelEditor;
class NavState;
class TesterModel;

class WhyModel : public HistoryClient {
public:
  /// The Why panel is shown (view state, kept in scenarios as {"visible": bool}).
  bool shown = false;
  /// Called after apply / undo / redo changed the NavState's filter, budget or extents (the app
  /// re-runs every tool: Document::filterChanged). May be empty.
  std::function<void()> settingsChanged;

  /// Explains `tester`'s query on `nav` when it differs from the one explained last (the inputs,
  /// the settings, the navmesh's contents). A null tester, a mode that is not a path mode, no start
  /// or no end, or no navmesh: nothing to explain (cleared). True when the explanation changed.
  /// `check` (may be null): when its panel is shown and its selected finding is an unreachable
  /// island, that finding is explained instead of the tester's query.
  bool update(const NavState& nav, const TesterModel* tester, const CheckModel* check = nullptr);
  /// The explanation is of a selected Check finding (an island), not of the tester's query.
  bool explainsFinding() const { return m_finding >= 0; }
  /// Forgets the explanation (the next update() runs again).
  void clear();

  /// There is a query explained (hasQuery) and what it gave; error(): why explainQuery refused it.
  bool hasQuery() const { return m_hasQuery; }
  const nav::explain::Query& query() const { return m_query; }
  const nav::explain::Explanation& explanation() const { return m_expl; }
  const std::string& error() const { return m_error; }
  int runs() const { return m_runs; } ///< explainQuery calls since construction.

  /// Can cause `i`'s counterfactual be applied to the tester's settings?
  bool applicable(int i) const;
  /// Applies cause `i`'s counterfactual to `nav` (recorded as a step of `history`), then
  /// settingsChanged(). False with `why` when `i` is out of range or not applicable.
  bool apply(int i, NavState& nav, History& history, std::string* why = nullptr);
  /// Cause `i` proposes an off-mesh link (islands: the one that joins them; a link landing nowhere:
  /// the same link with its end on the floor): adds it to the open level through `editor` (its own
  /// undoable step; the tiles it touches are re-baked). False with `why` when there is no such link
  /// or the editor refuses it (no level open, an end over no navmesh, too long).
  bool addLink(int i, LevelEditor& editor, std::string* why = nullptr) const;
  /// HistoryClient: puts back the settings before / after the latest applied counterfactual.
  void undo() override;
  void redo() override;

  /// Where the view drew cause i's buttons last frame (window pixels, their centres; -1, -1 for
  /// none), for --dump-state: tests click them.
  struct Buttons {
    std::array<float, 2> apply{-1, -1}, stepper{-1, -1}; ///< Apply; "at expansion N".
  };
  std::vector<Buttons> buttons;

  /// --dump-state: {"visible", "hasQuery", "error", "runs", "reached", "length", "causes": [{"kind",
  /// "text", "change", "changeText", "checked", "applicable", "expansion", "result": {"reached",
  /// "length"}, "button": [x, y] (Apply), "stepperButton": [x, y]}]}.
  void dumpState(nlohmann::json& out) const;
  /// Scenarios: {"visible": bool}. loadScenario checks `in` first (unknown keys are errors naming
  /// the key); on an error nothing changes.
  void saveScenario(nlohmann::json& out) const;
  bool loadScenario(const nlohmann::json& in, std::string* why);

private:
  /// What a counterfactual changes on the NavState.
  struct Settings {
    uint16_t include = 0, exclude = 0;
    std::array<float, 64> areaCost{};
    float heuristicScale = 0;
    int maxNodes = 0;
    std::array<float, 3> extents{};
    bool operator==(const Settings& o) const;
  };
  static Settings read(const NavState& nav);
  static void write(const Settings& s, NavState& nav);
  struct Step {
    Settings before, after;
  };
  void restore(std::vector<Step>& from, std::vector<Step>& to, bool forward);

  bool m_hasQuery = false;
  int m_finding = -1;              ///< The island (CheckResult::islands index) explained, or -1.
  nav::explain::Query m_query;
  Settings m_settings;             ///< Of the explained query.
  std::string m_meshKey;           ///< NavState::contentKey() of the explained query.
  const void* m_mesh = nullptr;    ///< The mesh explained (generation compared as well).
  uint64_t m_generation = 0;
  nav::explain::Explanation m_expl;
  std::string m_error;
  int m_runs = 0;
  NavState* m_nav = nullptr;       ///< Where apply() wrote (undo / redo write there).
  std::vector<Step> m_undo, m_redo;
};

} // namespace navbench
