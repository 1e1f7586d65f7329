#include "nav/bake/AreaRules.h"

#include "nav/NavAreas.h"

#include <cstddef>

namespace nav::bake {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

/// The set `[...]` starting at p[0] == '[': whether `c` is in it; *end is past the `]`. False
/// with *end = nullptr when the set is not closed.
bool inSet(const char* p, const char* e, char c, const char** end) {
  ++p;
  bool negate = false;
  if (p < e && (*p == '!' || *p == '^')) {
    negate = true;
    ++p;
  }
  bool hit = false;
  bool first = true;
  c = lower(c);
  for (; p < e; first = false) {
    if (*p == ']' && !first) {
      *end = p + 1;
      return hit != negate;
    }
    char lo = lower(*p), hi = lo;
    if (p + 2 < e && p[1] == '-' && p[2] != ']') {
      hi = lower(p[2]);
      p += 3;
    } else {
      ++p;
    }
    if (lo <= c && c <= hi) hit = true;
  }
  *end = nullptr;
  return false;
}

/// Iterative glob match with one backtrack point per `*` (linear in practice, never exponential).
bool match(const char* p, const char* pe, const char* t, const char* te) {
  const char* starP = nullptr;
  const char* starT = nullptr;
  while (t < te) {
    if (p < pe && *p == '*') {
      starP = ++p;
      starT = t;
      continue;
    }
    if (p < pe) {
      if (*p == '?') {
        ++p;
        ++t;
        continue;
      }
      if (*p == '[') {
        const char* end = nullptr;
        const bool in = inSet(p, pe, *t, &end);
        if (!end) return false;
        if (in) {
          p = end;
          ++t;
          continue;
        }
      } else if (lower(*p) == lower(*t)) {
        ++p;
        ++t;
        continue;
      }
    }
    if (!starP) return false;
    p = starP; // let the last `*` take one more character
    t = ++starT;
  }
  while (p < pe && *p == '*') ++p;
  return p == pe;
}

} // namespace

bool globMatch(const std::string& pattern, const std::string& text) {
  return match(pattern.data(), pattern.data() + pattern.size(), text.data(), text.data() + text.size());
}

bool checkGlob(const std::string& pattern, std::string* why) {
  if (pattern.empty()) {
    if (why) *why = "empty pattern (use \"*\" to match every triangle)";
    return false;
  }
  const char* e = pattern.data() + pattern.size();
  for (const char* p = pattern.data(); p < e; ++p) {
    if (*p != '[') continue;
    const char* end = nullptr;
    inSet(p, e, 'a', &end);
    if (!end) {
      if (why) *why = "unclosed '[' at character " + std::to_string(p - pattern.data() + 1) + " of \"" + pattern + "\"";
      return false;
    }
    p = end - 1;
  }
  return true;
}

bool checkAreaRule(const AreaRule& rule, std::string* why) {
  std::string problem;
  if (!checkGlob(rule.match, &problem)) {
    if (why) *why = "match: " + problem;
    return false;
  }
  if (!rule.exclude && rule.area >= AREA_LIMIT) {
    if (why) *why = "area " + std::to_string(rule.area) + " is not 0.." + std::to_string(AREA_LIMIT - 1);
    return false;
  }
  return true;
}

int matchAreaRule(const std::vector<AreaRule>& rules, const MeshGroup& g) {
  for (size_t i = 0; i < rules.size(); ++i) {
    const std::string& m = rules[i].match;
    if (globMatch(m, g.node) || globMatch(m, g.mesh) || globMatch(m, g.material)) return int(i);
  }
  return -1;
}

uint8_t ruleCode(const std::vector<AreaRule>& rules, int index) {
  if (index < 0 || size_t(index) >= rules.size()) return TRI_RULE_NONE;
  return rules[size_t(index)].exclude ? TRI_RULE_EXCLUDE : rules[size_t(index)].area;
}

void applyAreaRules(const std::vector<AreaRule>& rules, const std::vector<MeshGroup>& groups,
                    const std::vector<uint32_t>& triGroup, size_t triCount, std::vector<uint8_t>* codes,
                    std::vector<long long>* counts) {
  if (counts) counts->assign(rules.size() + 1, 0);
  if (codes) codes->clear();
  if (rules.empty()) {
    if (counts) (*counts)[0] = (long long)triCount;
    return;
  }
  // Rules are matched once per group (names are few), then looked up per triangle.
  const bool named = !groups.empty() && triGroup.size() == triCount;
  std::vector<int> groupRule(named ? groups.size() : 1);
  if (named) {
    for (size_t g = 0; g < groups.size(); ++g) groupRule[g] = matchAreaRule(rules, groups[g]);
  } else {
    groupRule[0] = matchAreaRule(rules, MeshGroup{});
  }
  std::vector<uint8_t> groupCode(groupRule.size());
  for (size_t g = 0; g < groupRule.size(); ++g) groupCode[g] = ruleCode(rules, groupRule[g]);
  if (codes) codes->resize(triCount);
  const size_t unmatched = rules.size();
  for (size_t t = 0; t < triCount; ++t) {
    size_t g = 0;
    if (named) {
      g = triGroup[t];
      if (g >= groupRule.size()) g = 0; // validated by BakeInput::validate; never out of range here
    }
    if (codes) (*codes)[t] = groupCode[g];
    if (counts) ++(*counts)[groupRule[g] < 0 ? unmatched : size_t(groupRule[g])];
  }
}

} // namespace nav::bake
