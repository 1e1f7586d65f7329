// WhyModel.cpp: see WhyModel.h.
#include "app/model/WhyModel.h"

#include "app/NavState.h"
#include "app/model/CheckModel.h"
#include "app/model/LevelEditor.h"
#include "app/model/TesterModel.h"
#include "nav/base/Json.h"
#include "nav/explain/ExplainFindings.h"

#include <nlohmann/json.hpp>

namespace navbench {

using namespace nav::explain;

namespace {

bool sameQuery(const Query& a, const Query& b) {
  return a.start == b.start && a.end == b.end && a.halfExtents == b.halfExtents && a.nodeBudget == b.nodeBudget &&
         a.options == b.options;
}

} // namespace

bool WhyModel::Settings::operator==(const Settings& o) const {
  return include == o.include && exclude == o.exclude && areaCost == o.areaCost && heuristicScale == o.heuristicScale &&
         maxNodes == o.maxNodes && extents == o.extents;
}

WhyModel::Settings WhyModel::read(const NavState& nav) {
  Settings s;
  const nav::QueryFilter& f = nav.filter();
  s.include = f.getIncludeFlags();
  s.exclude = f.getExcludeFlags();
  for (int a = 0; a < int(s.areaCost.size()); ++a) s.areaCost[size_t(a)] = f.getAreaCost(a);
  s.heuristicScale = f.getHeuristicScale();
  s.maxNodes = nav.maxNodes();
  s.extents = {nav.extents[0], nav.extents[1], nav.extents[2]};
  return s;
}

void WhyModel::write(const Settings& s, NavState& nav) {
  nav::QueryFilter& f = nav.filter();
  f.setIncludeFlags(s.include);
  f.setExcludeFlags(s.exclude);
  for (int a = 0; a < int(s.areaCost.size()); ++a) f.setAreaCost(a, s.areaCost[size_t(a)]);
  f.setHeuristicScale(s.heuristicScale);
  if (nav.maxNodes() != s.maxNodes) nav.setMaxNodes(s.maxNodes);
  for (int i = 0; i < 3; ++i) nav.extents[i] = s.extents[size_t(i)];
}

void WhyModel::clear() {
  m_hasQuery = false;
  m_finding = -1;
  buttons.clear();
  m_expl = Explanation();
  m_error.clear();
  m_mesh = nullptr;
}

bool WhyModel::update(const NavState& nav, const TesterModel* tester, const CheckModel* check) {
  // A selected island finding (the Check panel shown, its results of this very mesh).
  int island = -1;
  Query q;
  if (nav.loaded() && check && check->shown && check->hasResult() && !check->stale(&nav.mesh()) &&
      check->selected() >= 0) {
    const CheckFinding& f = check->findings()[size_t(check->selected())];
    if (f.kind == nav::check::CHECK_ISLANDS && islandQuery(nav.mesh(), check->options, check->result(), f.index, q))
      island = f.index;
  }
  const bool pathMode = dynamic_cast<const PathTesterModel*>(tester) != nullptr; // Follow, Straight, Sliced, Stepper
  if (island < 0 && (!nav.loaded() || !pathMode || !tester->hasStart() || !tester->hasEnd())) {
    const bool had = m_hasQuery || !m_error.empty();
    clear();
    return had;
  }
  if (island < 0) {
    q.start = {tester->start().x, tester->start().y, tester->start().z};
    q.end = {tester->end().x, tester->end().y, tester->end().z};
    q.halfExtents = {nav.extents[0], nav.extents[1], nav.extents[2]};
    q.nodeBudget = nav.maxNodes();
  }
  Settings s = read(nav);
  if (island >= 0) { // the check's filter (its flags, default area costs) is what the finding is about
    s.include = check->includeFlags;
    s.exclude = check->excludeFlags;
  }
  const std::string key = nav.contentKey();
  if (m_hasQuery && m_finding == island && sameQuery(q, m_query) && s == m_settings && key == m_meshKey &&
      m_mesh == &nav.mesh() && m_generation == nav.mesh().generation())
    return false;
  m_hasQuery = true;
  m_finding = island;
  m_query = q;
  m_settings = s;
  m_meshKey = key;
  m_mesh = &nav.mesh();
  m_generation = nav.mesh().generation();
  m_expl = Explanation();
  m_error.clear();
  buttons.clear();
  ++m_runs;
  nav::Status st;
  if (island >= 0) {
    nav::QueryFilter filter = nav::check::defaultCheckFilter();
    filter.setIncludeFlags(check->includeFlags);
    filter.setExcludeFlags(check->excludeFlags);
    st = explainQuery(nav.mesh(), filter, q, findingExplainOptions(check->options), m_expl, &m_error);
  } else {
    st = explainQuery(nav.mesh(), nav.filter(), q, ExplainOptions(), m_expl, &m_error);
  }
  if (nav::statusFailed(st)) {
    m_expl.causes.clear();
    if (m_error.empty()) m_error = "the query could not be explained";
  }
  return true;
}

bool WhyModel::applicable(int i) const {
  if (i < 0 || i >= int(m_expl.causes.size()) || m_finding >= 0) return false; // a finding's fix is no tester setting
  switch (m_expl.causes[size_t(i)].counterfactual.change) {
  case CHANGE_NODE_BUDGET:
  case CHANGE_FILTER:
  case CHANGE_AREA_COSTS:
  case CHANGE_HALF_EXTENTS:
  case CHANGE_HEURISTIC_SCALE:
    return true;
  default:
    return false; // the any-angle search and added links are no tester setting
  }
}

bool WhyModel::apply(int i, NavState& nav, History& history, std::string* why) {
  if (!applicable(i)) {
    if (why)
      *why = i < 0 || i >= int(m_expl.causes.size())
                 ? "no cause " + std::to_string(i)
                 : std::string("a '") + changeName(m_expl.causes[size_t(i)].counterfactual.change) +
                       "' change is shown, not applied";
    return false;
  }
  const Counterfactual& cf = m_expl.causes[size_t(i)].counterfactual;
  Step step;
  step.before = read(nav);
  step.after = step.before;
  Settings& a = step.after;
  switch (cf.change) {
  case CHANGE_NODE_BUDGET: a.maxNodes = cf.nodeBudget; break;
  case CHANGE_FILTER: a.include = cf.include; a.exclude = cf.exclude; break;
  case CHANGE_AREA_COSTS:
    for (const auto& ac : cf.areaCosts)
      if (ac.first >= 0 && ac.first < int(a.areaCost.size())) a.areaCost[size_t(ac.first)] = ac.second;
    break;
  case CHANGE_HALF_EXTENTS: a.extents = {cf.halfExtents[0], cf.halfExtents[1], cf.halfExtents[2]}; break;
  case CHANGE_HEURISTIC_SCALE: a.heuristicScale = cf.heuristicScale; break;
  default: break;
  }
  m_nav = &nav;
  write(a, nav);
  m_undo.push_back(step);
  m_redo.clear();
  history.push(this, std::string("applied: ") + cf.text);
  if (settingsChanged) settingsChanged();
  return true;
}

bool WhyModel::addLink(int i, LevelEditor& editor, std::string* why) const {
  if (i < 0 || i >= int(m_expl.causes.size()) || m_expl.causes[size_t(i)].counterfactual.change != CHANGE_LINK) {
    if (why) *why = "cause " + std::to_string(i) + " proposes no link";
    return false;
  }
  const LinkSpec& s = m_expl.causes[size_t(i)].counterfactual.link;
  nav::bake::OffMeshLink l;
  for (int k = 0; k < 3; ++k) {
    l.start[k] = s.start[size_t(k)];
    l.end[k] = s.end[size_t(k)];
  }
  l.radius = s.radius;
  l.bidirectional = s.bidirectional;
  l.area = s.area;
  l.flags = s.flags;
  std::string editorWhy;
  if (!editor.ready(&editorWhy) || !editor.addLink(l, &editorWhy)) {
    if (why) *why = editorWhy;
    return false;
  }
  return true;
}

void WhyModel::restore(std::vector<Step>& from, std::vector<Step>& to, bool forward) {
  moveLast(from, to, [&](const Step& s) {
    if (m_nav) write(forward ? s.after : s.before, *m_nav);
  });
  if (settingsChanged) settingsChanged();
}

void WhyModel::undo() { restore(m_undo, m_redo, false); }
void WhyModel::redo() { restore(m_redo, m_undo, true); }

void WhyModel::dumpState(nlohmann::json& out) const {
  out = nlohmann::json::object();
  out["visible"] = shown;
  out["hasQuery"] = m_hasQuery;
  out["finding"] = m_finding; // the island finding explained (CheckResult::islands index), or -1
  out["error"] = m_error;
  out["runs"] = m_runs;
  out["reached"] = m_expl.answer.reached;
  out["length"] = m_expl.answer.length;
  nlohmann::json causes = nlohmann::json::array();
  for (size_t i = 0; i < m_expl.causes.size(); ++i) {
    const Cause& c = m_expl.causes[i];
    const Buttons b = i < buttons.size() ? buttons[i] : Buttons();
    causes.push_back({{"kind", causeName(c.kind)},
                      {"text", c.text},
                      {"change", changeName(c.counterfactual.change)},
                      {"changeText", c.counterfactual.text},
                      {"checked", c.counterfactual.checked},
                      {"applicable", applicable(int(i))},
                      {"expansion", c.expansion},
                      {"result", {{"reached", c.counterfactual.result.reached}, {"length", c.counterfactual.result.length}}},
                      {"button", {b.apply[0], b.apply[1]}},
                      {"stepperButton", {b.stepper[0], b.stepper[1]}}});
  }
  out["causes"] = causes;
}

void WhyModel::saveScenario(nlohmann::json& out) const { out = {{"visible", shown}}; }

bool WhyModel::loadScenario(const nlohmann::json& in, std::string* why) {
  base::JsonErrors errors("");
  const base::JsonIn j(in, errors, "why");
  bool visible = false;
  if (!j.object({"visible"}) || !j.opt("visible", visible) || errors.failed()) {
    if (why) *why = errors.message;
    return false;
  }
  shown = visible;
  return true;
}

} // namespace navbench
