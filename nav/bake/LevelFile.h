// LevelFile.h: what belongs to a level besides its OBJ (RecastDemo's .gset, as JSON): the OBJ
// path, bake settings, convex volumes, off-mesh links and reachability seeds.
//
//   {
//     "format": "navbench-level", "version": 1,
//     "obj": "default.obj",                       // relative to the level file
//     "settings": { "cellSize": 0.3, ..., "partition": "watershed", "tiled": true, "tileSize": 32 },
//     "convexVolumes": [ { "area": "water", "hmin": -0.6, "hmax": 0.2,
//                          "verts": [[38, 0, 7], [54, 0, 7], [54, 0, 13], [38, 0, 13]] } ],
//     "offMeshLinks": [ { "start": [35.2, 3, 40], "end": [40.3, 3, 40], "radius": 0.6,
//                         "bidirectional": true, "area": "jump", "flags": ["jump"] } ],
//     "seeds": [[35, 3, 40]],                     // optional: where agents start (navbench check)
//     "areaRules": [ { "match": "water*", "area": "water" },   // optional: areas from the OBJ's
//                    { "match": "prop_*", "exclude": true } ]  // o / g / usemtl names (AreaRules.h)
//   }
// Areas are names (ground, water, road, door, grass, jump) or numbers 0..62; flags a list of names
// (walk, swim, door, jump, disabled) or a number. Missing settings keep their defaults; unknown
// keys are errors (a typo would otherwise be silently ignored).
#pragma once

#include "nav/bake/Agents.h"
#include "nav/bake/Bake.h"
#include "nav/bake/BakeSettings.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <string>
#include <vector>

namespace base {
class JsonIn;
}

namespace nav::bake {

struct Level {
  std::string objPath; ///< As written in the file (relative to the level file, or absolute).
  BakeSettings settings;
  std::vector<ConvexVolume> volumes;
  std::vector<OffMeshLink> links;
  /// Points agents start from (x, y, z): `navbench check` floods reachability from them when no
  /// --seeds is given. Written only when non-empty.
  std::vector<std::array<float, 3>> seeds;
  /// Areas from the triangles' names, tried in order (AreaRules.h). Written only when non-empty.
  std::vector<AreaRule> areaRules;
  /// Agent types (Agents.h); empty: one agent with `settings`. Written only when non-empty.
  std::vector<AgentType> agents;
};

/// Reads a level file. Errors name the file and the problem ("default.json: convexVolumes[0].area:
/// unknown area 'lava'"). Does not open the OBJ (see resolveObjPath / loadLevelGeometry).
bool loadLevelFile(const std::string& path, Level* out, std::string* why);
/// Writes a level file atomically (temp file + rename). Settings are all written.
bool saveLevelFile(const std::string& path, const Level& level, std::string* why);
/// The OBJ path of a level read from `levelPath`, resolved against the level file's folder.
std::string resolveObjPath(const std::string& levelPath, const Level& level);

/// Level file or bare OBJ -> bake input + settings: a ".json" path is read as a level file and its
/// OBJ loaded (a missing OBJ is named); any other path is read as an OBJ with default settings
/// and no volumes or links. The input is validated. The mesh's names (o / g / usemtl) come with
/// it, for the level file's areaRules.
bool loadBakeInput(const std::string& path, BakeInput* input, BakeSettings* settings, std::string* why);

/// A level file's areaRules list <-> JSON, as the level file writes and reads it (the viewer's
/// scenarios and recovery journal carry edited rules the same way). Reading: false with the
/// problem recorded in `list`'s errors ("FILE: areaRules[1].area: unknown area 'lava' ...").
nlohmann::json areaRulesToJson(const std::vector<AreaRule>& rules);
bool areaRulesFromJson(const base::JsonIn& list, std::vector<AreaRule>* out);

/// Settings <-> JSON text. settingsFromJson accepts a settings object or a level file (it uses
/// its "settings"); fields missing keep the values already in *out.
std::string settingsToJson(const BakeSettings& s);
bool settingsFromJson(const std::string& text, BakeSettings* out, std::string* why);
/// Reads a settings file (settings object or level file) over *out.
bool loadSettingsFile(const std::string& path, BakeSettings* out, std::string* why);

} // namespace nav::bake
