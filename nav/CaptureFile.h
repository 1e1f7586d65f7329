// CaptureFile.h: path captures (.nbcap, docs/formats.md): a game's navmesh, the queries it ran and
// the answers its Detour gave, as capture/navbench_capture.h writes them inside the game.
//
// The navmesh part is a whole tile set (TileSetFile.h's MSET bytes) and goes through loadTileSet;
// the records are read into plain structs, every count, flag and float checked before use.
#pragma once

#include "nav/NavMesh.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nav {

constexpr uint32_t CAPTURE_MAGIC = 'N' | 'B' << 8 | 'C' << 16 | uint32_t('P') << 24; ///< "NBCP" in file order.
constexpr uint32_t CAPTURE_VERSION = 1;
constexpr uint32_t CAPTURE_NAVMESH_VERSION = 7; ///< Detour 1.5.1's DT_NAVMESH_VERSION.
constexpr int CAPTURE_MAX_COUNT = 65536;        ///< Refs / corners / queries per file, at most.
/// Tile cells (of the captured navmesh's grid) a query's nearest-poly box may cover, at most: the
/// search visits each (as Detour's does), so a hostile box would make a replay run for minutes.
constexpr int CAPTURE_MAX_SEARCH_CELLS = 1 << 20;

enum CaptureKind : uint8_t { CAPTURE_PATH = 0, CAPTURE_RAYCAST = 1 };
enum CaptureFlag : uint8_t {
  CAPTURE_STALE = 1,      ///< A ref no longer named a valid poly when saved: not replayed.
  CAPTURE_HANDED_IN = 2,  ///< The game ran the query and passed its answer to the recorder.
  CAPTURE_TRUNCATED = 4,  ///< An answer was longer than the recorder's slot: the prefix is stored.
  CAPTURE_NO_NEAREST = 8, ///< No findNearestPoly answers were handed in.
};

/// findNearestPoly's answer.
struct CapturedNearest {
  Status status = 0;
  PolyRef ref = 0;
  float pt[3] = {0, 0, 0};
};

/// One captured query with the game's answers (fields of the other kind stay empty).
struct CapturedQuery {
  CaptureKind kind = CAPTURE_PATH;
  uint8_t flags = 0;
  std::string note;
  uint16_t includeFlags = 0xffff, excludeFlags = 0;
  float areaCost[MAX_AREAS];
  int maxNodes = 2048;
  float start[3] = {0, 0, 0}, end[3] = {0, 0, 0}, halfExtents[3] = {2, 4, 2};
  CapturedNearest nearestStart, nearestEnd;

  // kind CAPTURE_PATH
  float pathStart[3] = {0, 0, 0}, pathEnd[3] = {0, 0, 0};
  Status pathStatus = 0;
  int maxPath = 256;
  std::vector<PolyRef> path;           ///< The corridor (raycast: the visited polys).
  float straightEnd[3] = {0, 0, 0};
  int straightOptions = 0, maxStraight = 256;
  Status straightStatus = 0;
  std::vector<float> straight;         ///< [(x, y, z) * corners]
  std::vector<uint8_t> straightFlags;  ///< [corners]
  std::vector<PolyRef> straightRefs;   ///< [corners]

  // kind CAPTURE_RAYCAST (path holds the visited polys, maxPath their capacity)
  float rayStart[3] = {0, 0, 0}, rayEnd[3] = {0, 0, 0};
  PolyRef rayStartRef = 0;
  int rayOptions = 0;
  Status rayStatus = 0;
  float t = 0, hitNormal[3] = {0, 0, 0};
  int hitEdgeIndex = 0;
  float pathCost = 0;

  CapturedQuery() {
    for (float& c : areaCost) c = 1.0f;
  }
  bool stale() const { return (flags & CAPTURE_STALE) != 0; }
};

/// A capture without its navmesh (that goes into the NavMesh the loader is given).
struct Capture {
  uint32_t navmeshVersion = CAPTURE_NAVMESH_VERSION;
  std::vector<CapturedQuery> queries;
};

/// Loads a capture from memory: the navmesh into `mesh` (through loadTileSet), the records into
/// `out`. All or nothing: on failure `mesh` and `out` are untouched and `why` says
/// "<name>: <problem>" (a record: "<name>: query <i>: <problem>").
Status loadCapture(const uint8_t* buf, size_t size, NavMesh& mesh, Capture& out, std::string* why = nullptr,
                   const char* name = "<memory>");
/// Reads the file and calls loadCapture.
Status loadCaptureFile(const std::string& path, NavMesh& mesh, Capture& out, std::string* why = nullptr);

/// Serialises `mesh` (saveTileSet's bytes) and `cap`'s records into `out`, the same bytes
/// capture/navbench_capture.h writes for the same navmesh and answers.
Status saveCapture(const NavMesh& mesh, const Capture& cap, std::vector<uint8_t>& out, std::string* why = nullptr);
/// Writes the capture atomically (nav/base/AtomicFile.h).
Status saveCaptureFile(const NavMesh& mesh, const Capture& cap, const std::string& path, std::string* why = nullptr);

} // namespace nav
