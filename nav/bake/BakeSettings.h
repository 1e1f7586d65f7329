// BakeSettings.h: every knob of a bake, with RecastDemo's names, ranges and defaults.
//
// World units (wu) are the level's units; "cells" are voxels of cellSize x cellHeight.
// validate() checks each field against its range (the sliders of RecastDemo) and says which one
// is wrong; the bake refuses settings that do not validate.
#pragma once

#include <string>

namespace nav::bake {

/// How the walkable surface is split into regions before contours are traced.
enum class Partition : int {
  Watershed = 0, ///< Best tessellation, slowest; may leave holes/overlaps around small obstacles.
  Monotone = 1,  ///< Fastest; long thin polygons.
  Layers = 2,    ///< Non-overlapping layers; good for tiles with many levels.
};
const char* partitionName(Partition p); ///< "watershed", "monotone", "layers".
bool partitionFromName(const char* name, Partition* p);

struct BakeSettings {
  // Rasterization.
  float cellSize = 0.3f;   ///< Voxel size on xz [Unit: wu] [Limit: 0.1..1]
  float cellHeight = 0.2f; ///< Voxel size on y [Unit: wu] [Limit: 0.1..1]
  // Agent.
  float agentHeight = 2.0f;   ///< [Unit: wu] [Limit: 0.1..5]
  float agentRadius = 0.6f;   ///< [Unit: wu] [Limit: 0..5]
  float agentMaxClimb = 0.9f; ///< Ledge height the agent can step [Unit: wu] [Limit: 0.1..5]
  float agentMaxSlope = 45.f; ///< [Unit: degrees] [Limit: 0..90]
  // Region.
  int regionMinSize = 8;    ///< Regions smaller than size^2 cells are removed [Unit: cells] [Limit: 0..150]
  int regionMergeSize = 20; ///< Regions smaller than size^2 cells are merged [Unit: cells] [Limit: 0..150]
  Partition partition = Partition::Watershed;
  // Polygonization.
  float edgeMaxLen = 12.0f;  ///< Longest contour edge [Unit: wu] [Limit: 0..50]
  float edgeMaxError = 1.3f; ///< Contour simplification error [Unit: cells] [Limit: 0.1..3]
  int vertsPerPoly = 6;      ///< [Limit: 3..6] (RecastDemo's slider goes to 12, Detour tiles hold 6)
  // Detail mesh.
  float detailSampleDist = 6.0f;     ///< [Unit: cells; < 0.9 disables sampling] [Limit: 0..16]
  float detailSampleMaxError = 1.0f; ///< [Unit: cell heights] [Limit: 0..16]
  // Filters.
  bool filterLowHangingObstacles = true;
  bool filterLedgeSpans = true;
  bool filterWalkableLowHeightSpans = true;
  // Tiling.
  bool tiled = true; ///< false: one tile over the whole level (RecastDemo's Solo Mesh).
  int tileSize = 32; ///< Tile edge [Unit: cells] [Limit: 16..1024] (RecastDemo's Tile Mesh default)

  /// True if every field is in range; otherwise false and `why` names the field, its value and
  /// its range ("cellSize = 0 is out of range [0.1, 1]").
  bool validate(std::string* why = nullptr) const;

  bool operator==(const BakeSettings& o) const;
  bool operator!=(const BakeSettings& o) const { return !(*this == o); }
};

/// One field's range, for UIs (sliders) and validation.
struct SettingRange {
  const char* name; ///< Field name as in the struct and in level files.
  float min, max;
  const char* unit;
};
/// Ranges of the numeric fields, in declaration order. *count receives the number of entries.
const SettingRange* settingRanges(int* count);

} // namespace nav::bake
