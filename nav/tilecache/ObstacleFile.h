// ObstacleFile.h: the obstacle list `navbench obstacles` applies to a tile cache (issue 17).
//
// Text, one entry a line, applied in order; `#` starts a comment (whole line or trailing), blank
// lines are skipped, fields are separated by spaces or tabs, LF or CRLF line ends:
//   cylinder X Y Z RADIUS HEIGHT        a cylinder standing on (X, Y, Z)           [Unit: wu]
//   box MINX MINY MINZ MAXX MAXY MAXZ   an axis-aligned box                        [Unit: wu]
//   obox CX CY CZ HX HY HZ YAW          a box of half extents H, turned by YAW about y [Unit: wu, radians]
//   remove N                            removes the N-th obstacle line (1-based, counting only
//                                       cylinder / box / obox lines, as written) above this line
// Every bad line is refused with "FILE:LINE: problem": an unknown kind, a wrong number of fields,
// a field that is not a number, NaN, infinite or beyond +-OBSTACLE_MAX_COORD, a radius, height or
// half extent <= 0, a box whose max is not above its min, a `remove` of a number that is not an
// obstacle line above it or of an obstacle already removed. Standard library only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nav::tilecache {

/// Largest magnitude of any number in an obstacle file [Unit: wu, radians].
constexpr float OBSTACLE_MAX_COORD = 1e7f;
/// Most obstacle lines (cylinder / box / obox) a file may hold: obstacle refs index 16 bits.
constexpr int OBSTACLE_MAX_COUNT = 65535;
/// Largest obstacle file read [Unit: bytes].
constexpr long long OBSTACLE_MAX_FILE_BYTES = 64ll << 20;
/// Errors reported before the rest are summarised ("... and N more").
constexpr int OBSTACLE_MAX_ERRORS = 20;

enum class ObstacleKind : uint8_t { Cylinder, Box, OrientedBox, Remove };
const char* obstacleKindName(ObstacleKind k); ///< "cylinder", "box", "obox", "remove".

/// One line of the file.
struct ObstacleEntry {
  ObstacleKind kind = ObstacleKind::Cylinder;
  int line = 0; ///< 1-based line in the file.
  /// Cylinder: pos[3], radius, height. Box: bmin[3], bmax[3]. OrientedBox: center[3],
  /// halfExtents[3], yaw. Remove: unused. [Unit: wu, radians]
  float v[7] = {0, 0, 0, 0, 0, 0, 0};
  /// Obstacle lines: this obstacle's number (0-based, in the order the obstacle lines come).
  /// Remove: the number of the obstacle it removes (0-based, i.e. N - 1).
  int obstacle = -1;
};

struct ObstacleList {
  std::vector<ObstacleEntry> entries; ///< In file order.
  int obstacleCount = 0;              ///< Cylinder / box / obox lines.
  int removeCount = 0;
};

/// Parses obstacle text. `name` labels messages ("FILE:LINE: ..."). On any bad line: false, `out`
/// untouched, and `why` lists every bad line (one a line, at most OBSTACLE_MAX_ERRORS).
bool parseObstacles(const char* text, size_t size, const std::string& name, ObstacleList* out, std::string* why);
/// Reads `path` (at most OBSTACLE_MAX_FILE_BYTES) and parses it.
bool loadObstacleFile(const std::string& path, ObstacleList* out, std::string* why);

} // namespace nav::tilecache
