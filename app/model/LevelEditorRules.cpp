// LevelEditorRules.cpp: the level editor's area rules (LevelEditor.h, "area rules"): edits as steps
// of the history, and the triangles each rule decides in the open level.
#include "app/Log.h"
#include "app/model/BakeRunner.h"
#include "app/model/LevelEditorSteps.h"

namespace navbench {

using nav::bake::AreaRule;

namespace {

/// "water* -> water", "prop_* -> exclude".
std::string describe(const AreaRule& r) {
  const char* name = nav::areaName(r.area);
  return r.match + " -> " + (r.exclude ? std::string("exclude") : name ? std::string(name) : std::to_string(r.area));
}

bool refuse(std::string* why, const std::string& msg) {
  if (why) *why = msg;
  return false;
}

} // namespace

const std::vector<AreaRule>& LevelEditor::areaRules() const { return m_bake.input().areaRules; }

bool LevelEditor::editRules(std::vector<AreaRule> after, const std::string& what, std::string* why) {
  if (!m_bake.hasSource()) return refuse(why, "no level open: open an OBJ or a level file (rules match its names)");
  for (size_t i = 0; i < after.size(); ++i) {
    std::string problem;
    if (!nav::bake::checkAreaRule(after[i], &problem)) return refuse(why, "area rule " + std::to_string(i) + ": " + problem);
  }
  if (!m_rulesBase) m_rulesBase = std::make_unique<std::vector<AreaRule>>(areaRules());
  Step s;
  s.kind = Step::Rules;
  s.what = what;
  s.rulesBefore = areaRules();
  s.rulesAfter = std::move(after);
  apply(s, true);
  push(std::move(s));
  return true;
}

bool LevelEditor::addRule(const AreaRule& rule, std::string* why) {
  std::vector<AreaRule> after = areaRules();
  after.push_back(rule);
  return editRules(std::move(after), "added area rule " + std::to_string(after.size() - 1) + " (" + describe(rule) + ")", why);
}

bool LevelEditor::setRule(int index, const AreaRule& rule, std::string* why) {
  if (index < 0 || size_t(index) >= areaRules().size()) return refuse(why, "no area rule " + std::to_string(index));
  if (areaRules()[size_t(index)] == rule) return true; // nothing to undo
  std::vector<AreaRule> after = areaRules();
  after[size_t(index)] = rule;
  return editRules(std::move(after), "changed area rule " + std::to_string(index) + " (" + describe(rule) + ")", why);
}

bool LevelEditor::removeRule(int index, std::string* why) {
  if (index < 0 || size_t(index) >= areaRules().size()) return refuse(why, "no area rule " + std::to_string(index));
  std::vector<AreaRule> after = areaRules();
  const std::string what = "removed area rule " + std::to_string(index) + " (" + describe(after[size_t(index)]) + ")";
  after.erase(after.begin() + index);
  return editRules(std::move(after), what, why);
}

bool LevelEditor::moveRule(int from, int to, std::string* why) {
  const int n = int(areaRules().size());
  if (from < 0 || from >= n || to < 0 || to >= n)
    return refuse(why, "cannot move area rule " + std::to_string(from) + " to " + std::to_string(to) + " of " + std::to_string(n));
  if (from == to) return true;
  std::vector<AreaRule> after = areaRules();
  const AreaRule r = after[size_t(from)];
  after.erase(after.begin() + from);
  after.insert(after.begin() + to, r);
  return editRules(std::move(after), "moved area rule " + std::to_string(from) + " to " + std::to_string(to), why);
}

const std::vector<long long>& LevelEditor::ruleTriangleCounts() {
  const nav::bake::BakeInput& in = m_bake.input();
  const void* tris = in.tris.data();
  const size_t n = size_t(in.triCount());
  if (m_countedTris != tris || m_countedTriCount != n || m_countedRules != in.areaRules) {
    nav::bake::applyAreaRules(in.areaRules, in.groups, in.triGroup, n, nullptr, &m_ruleCounts);
    m_countedTris = tris;
    m_countedTriCount = n;
    m_countedRules = in.areaRules;
  }
  return m_ruleCounts;
}

bool LevelEditor::levelHasNames() const { return !m_bake.input().groups.empty(); }

} // namespace navbench
