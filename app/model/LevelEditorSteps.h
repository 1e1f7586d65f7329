// LevelEditorSteps.h: what LevelEditor.cpp (edits, steps, rebakes) and LevelEditorFiles.cpp
// (level file, scenario, saving without disabled polys) share. Internal to the level editor.
#pragma once

#include "app/model/LevelEditor.h"

#include <array>
#include <string>
#include <tuple>
#include <vector>

namespace navbench {

/// One edit: the editor's own record of a step of the history.
struct LevelEditor::Step {
  enum Kind { VolumesLinks, RemoveTiles, Disable, Rules } kind = VolumesLinks;
  std::string what; ///< For the log and the history: "added volume 3".
  int agent = -1;   ///< RemoveTiles, Disable: the agent type whose navmesh it edits (-1: none).
  std::vector<nav::bake::ConvexVolume> volBefore, volAfter;
  std::vector<nav::bake::OffMeshLink> linkBefore, linkAfter;
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0}; ///< VolumesLinks: what the change touches [Unit: wu].
  std::vector<nav::bake::TileCoord> tiles;        ///< RemoveTiles.
  std::vector<std::array<float, 3>> polys;        ///< Disable: poly centres [Unit: wu].
  bool disabled = true;
  std::vector<nav::bake::AreaRule> rulesBefore, rulesAfter; ///< Rules.
};

namespace editor_detail {

/// Grows the box [bmin, bmax] over [omin, omax].
void grow(float* bmin, float* bmax, const float* omin, const float* omax);
/// The centre of poly `p` of `tile` and (when given) its outline [(x, y, z) * vertCount].
void polyShape(const nav::MeshTile* tile, const nav::Poly& p, float* centre, std::vector<float>* outline);
/// Polys by quantised centre (1 mm) and vertex count: what a rebake keeps, adds or removes.
using PolyKey = std::tuple<long long, long long, long long, int>;
PolyKey polyKey(const float* c, int n);
/// The poly whose centre is `c` (within 1 mm), or 0.
nav::PolyRef polyAtCentre(const nav::NavMesh& mesh, const float* c);
/// "%.2f".
std::string num(float v);
/// A volume the tool drew: 3 to 12 points, at least 3 apart in xz, some area, top above bottom.
bool checkVolume(const nav::bake::ConvexVolume& v, std::string* why);

} // namespace editor_detail
} // namespace navbench
