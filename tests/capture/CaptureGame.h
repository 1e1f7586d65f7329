// CaptureGame.h: the capture tests' "game" (CaptureGame.cpp), seen from the checking side. The
// game links Debian's Detour and includes only capture/navbench_capture.h and Detour's headers;
// this interface is C++11 and standard-library only, so the checker (which uses nav) and the game
// share no NavBench or Detour type. Every answer in a log comes from the game's own Detour calls,
// made apart from the header's, so a check of a file against its log does not trust the header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace capgame {

/// One query as the game ran it and what its Detour answered (fields of the other kind stay 0).
struct Answer {
  int kind = 0;  ///< 0 path, 1 raycast
  int flags = 0; ///< the flags the file must carry (1 stale, 2 handed in, 4 truncated, 8 no nearest)
  std::string note;
  uint16_t includeFlags = 0, excludeFlags = 0;
  float areaCost[64] = {};
  int maxNodes = 0;
  float start[3] = {}, end[3] = {}, halfExtents[3] = {};
  uint32_t nearestStatus[2] = {}, nearestRef[2] = {};
  float nearestPt[2][3] = {};
  float pathStart[3] = {}, pathEnd[3] = {};
  uint32_t pathStatus = 0;
  int maxPath = 0;
  std::vector<uint32_t> path; ///< corridor (raycast: visited polys), as stored (cut when truncated)
  float straightEnd[3] = {};
  int straightOptions = 0, maxStraight = 0;
  uint32_t straightStatus = 0;
  std::vector<float> straight;
  std::vector<uint8_t> straightFlags;
  std::vector<uint32_t> straightRefs;
  float rayStart[3] = {}, rayEnd[3] = {};
  uint32_t rayStartRef = 0;
  int rayOptions = 0;
  uint32_t rayStatus = 0;
  float t = 0, hitNormal[3] = {};
  int hitEdgeIndex = 0;
  float pathCost = 0;
};

/// A file the game wrote and the queries it must hold, in order.
struct CaptureLog {
  std::string file;
  std::vector<Answer> queries;
};

/// What a session made, for the checks.
struct SessionStats {
  int partial = 0;      ///< path queries whose findPath was partial
  int outOfNodes = 0;   ///< ... ran out of nodes
  int noNearest = 0;    ///< queries where findNearestPoly found nothing for start or end
  int raycastHits = 0;  ///< raycasts that hit a wall
  int stale = 0, truncated = 0, handedIn = 0;
};

/// Loads the tile set at meshPath into a dtNavMesh and captures path queries and raycasts on it,
/// one file each, into dir (names "<tag>_NN.nbcap"), with varied filters (include / exclude
/// flags, area costs), node budgets (2048 down to 8) and points (some off the mesh). "" on
/// success, else what went wrong.
std::string runCaptureSession(const std::string& meshPath, const std::string& dir, const std::string& tag,
                              std::vector<CaptureLog>& logs, SessionStats& stats);

/// A Recorder session on the tile set: queries run through the recorder and handed in (with and
/// without nearest answers, some longer than the slot), a tile removed and re-added between
/// records, the ring overrun; saved to dir/<tag>_recorder.nbcap. "" on success.
std::string runRecorderSession(const std::string& meshPath, const std::string& dir, const std::string& tag,
                               CaptureLog& log, SessionStats& stats);

} // namespace capgame
