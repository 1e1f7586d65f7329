// NavAreas.h: the area ids, poly flags, their names and default area costs (RecastDemo's set):
// what the bake writes into polys, the tile cache rebuilds with, and filters and tools read.
//
// Areas live in the low 6 bits of a poly (0..62 user areas; Recast's RC_WALKABLE_AREA = 63 becomes
// AREA_GROUND when baking). Flags are 16 user bits that a query filter includes or excludes.
#pragma once

#include <cstdint>

namespace nav {

/// Area ids (RecastDemo's SAMPLE_POLYAREA_*).
enum Area : uint8_t {
  AREA_GROUND = 0,
  AREA_WATER = 1,
  AREA_ROAD = 2,
  AREA_DOOR = 3,
  AREA_GRASS = 4,
  AREA_JUMP = 5,
};
constexpr int AREA_NAMED_COUNT = 6;
/// Areas are 0..AREA_LIMIT - 1: 63 is Recast's walkable area id, which the bake turns into AREA_GROUND.
constexpr uint8_t AREA_LIMIT = 63;

/// Poly flags (RecastDemo's SAMPLE_POLYFLAGS_*).
enum PolyFlag : uint16_t {
  FLAG_WALK = 0x01,     ///< Ground, grass, road.
  FLAG_SWIM = 0x02,     ///< Water.
  FLAG_DOOR = 0x04,     ///< Doors (together with WALK).
  FLAG_JUMP = 0x08,     ///< Jump links (and polys marked AREA_JUMP).
  FLAG_DISABLED = 0x10, ///< Never set by the bake: a user flag a tool can toggle.
  FLAG_ALL = 0xffff,
};
constexpr int FLAG_NAMED_COUNT = 5;

/// Default traversal cost multiplier per area, for the query filter (RecastDemo's tester tool):
/// ground 1, water 10, road 1, door 1, grass 2, jump 1.5.
constexpr float DEFAULT_AREA_COST[AREA_NAMED_COUNT] = {1.0f, 10.0f, 1.0f, 1.0f, 2.0f, 1.5f};

/// Sets DEFAULT_AREA_COST on a query filter (nav::QueryFilter, or anything with setAreaCost(int, float)).
template <class Filter>
void applyDefaultAreaCosts(Filter& filter) {
  for (int i = 0; i < AREA_NAMED_COUNT; ++i) filter.setAreaCost(i, DEFAULT_AREA_COST[i]);
}

/// Poly flags that a baked poly of `area` gets: ground, grass, road -> WALK; water -> SWIM;
/// door -> WALK | DOOR; jump -> JUMP; other areas -> 0 (as RecastDemo, which leaves them unset).
constexpr uint16_t flagsForArea(uint8_t area) {
  switch (area) {
  case AREA_GROUND:
  case AREA_GRASS:
  case AREA_ROAD: return FLAG_WALK;
  case AREA_WATER: return FLAG_SWIM;
  case AREA_DOOR: return FLAG_WALK | FLAG_DOOR;
  case AREA_JUMP: return FLAG_JUMP;
  default: return 0;
  }
}

/// "ground", "water", ... for the named areas, null otherwise.
const char* areaName(uint8_t area);
/// Area id of a name ("water") or a decimal number ("7", 0..AREA_LIMIT - 1); false if neither.
bool areaFromName(const char* name, uint8_t* area);
/// "walk", "swim", "door", "jump", "disabled" for a single flag bit, null otherwise.
const char* flagName(uint16_t flag);
/// A flag bit from its name; false if unknown.
bool flagFromName(const char* name, uint16_t* flag);

} // namespace nav
