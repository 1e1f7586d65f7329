// AreaRules.h: a level file's `areaRules`: areas from the names a triangle had in the modelling
// tool (node, mesh, material: LevelMesh.h's MeshGroup), so a designer tags water, doors and props
// there and the bake honours it.
//
// A rule is a glob and either an area or "exclude". Rules are tried in order against each of a
// triangle's three names (an empty name included: `*` matches every triangle, a catch-all last
// rule); the first rule that matches any name decides. Triangles no rule matches bake as before.
//
// Globs: `*` any run of characters, `?` one character, `[abc]` / `[a-z]` one of a set, `[!a-z]`
// (or `[^a-z]`) one not in it; everything else is literal. Matching ignores ASCII case (modelling
// tools and exporters disagree on case: Blender's "Water" is "water" in another pipeline); names
// are compared byte for byte otherwise (UTF-8 names work, their non-ASCII letters case-sensitive).
//
// What a rule does in the bake (Bake.cpp, markTriangleAreas): a walkable triangle (slope under
// agentMaxSlope) a rule with an area matched gets that area; a steep triangle stays unwalkable.
// "exclude" marks the triangle not walkable (Recast's null area) but keeps it as geometry: it is
// still rasterized, so an excluded prop is an obstacle agents walk around, never a floor. Convex
// volumes are applied after, on the heightfield, and win over rules where they overlap.
#pragma once

#include "nav/bake/Agents.h"
#include "nav/bake/LevelMesh.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nav::bake {

struct AreaRule {
  std::string match;    ///< Glob over node, mesh and material names (see above)
  bool exclude = false; ///< True: matched triangles are not walkable; `area` is unused
  uint8_t area = 0;     ///< 0..62 (nav/NavAreas.h), when !exclude
  AgentMask agents = kAllAgents; ///< The agent types it applies to (Agents.h); the others skip it
  bool operator==(const AreaRule& o) const {
    return match == o.match && exclude == o.exclude && (exclude || area == o.area) && agents == o.agents;
  }
  bool operator!=(const AreaRule& o) const { return !(*this == o); }
};

/// Per-triangle result of the rules (what the bake reads): an area 0..62, or one of these.
constexpr uint8_t TRI_RULE_NONE = 0xff;    ///< No rule matched: the slope alone decides
constexpr uint8_t TRI_RULE_EXCLUDE = 0xfe; ///< An exclude rule matched: not walkable

/// Whether `text` matches the glob `pattern` (ASCII case ignored). A malformed pattern (an
/// unclosed `[`) matches nothing; checkGlob names the problem.
bool globMatch(const std::string& pattern, const std::string& text);
/// False with `why` when `pattern` is empty or has an unclosed `[`.
bool checkGlob(const std::string& pattern, std::string* why);
/// False with `why` ("match: ...", "area 70 is not 0..62") when the rule cannot be used.
bool checkAreaRule(const AreaRule& rule, std::string* why);

/// Index of the first rule matching `g`'s node, mesh or material name, or -1.
int matchAreaRule(const std::vector<AreaRule>& rules, const MeshGroup& g);
/// TRI_RULE_NONE, TRI_RULE_EXCLUDE or the area of rule `index` (-1: none).
uint8_t ruleCode(const std::vector<AreaRule>& rules, int index);

/// The rules applied to a mesh's triangles: `codes` [triCount] per triangle (TRI_RULE_NONE,
/// TRI_RULE_EXCLUDE or an area), `counts` (optional) [rules.size() + 1] triangles each rule
/// decided, the last entry those no rule matched. `groups` / `triGroup` as in LevelMesh: empty
/// triGroup means every triangle is unnamed (only a glob matching "" applies). No rules: `codes`
/// is left empty (the bake is then exactly as without rules).
void applyAreaRules(const std::vector<AreaRule>& rules, const std::vector<MeshGroup>& groups,
                    const std::vector<uint32_t>& triGroup, size_t triCount, std::vector<uint8_t>* codes,
                    std::vector<long long>* counts = nullptr);

} // namespace nav::bake
