// CaptureReplay.h: path captures (nav/CaptureFile.h, docs/formats.md "Path capture") replayed on
// NavBench's nav. Shared by `navbench replay` and the viewer's capture rows, so both say the same.
// std + nav (+ navbench_navdiff for poly positions): no SDL, ImGui or GL.
//
// Two ways to run a captured query:
//   run()       stage by stage with the GAME's recorded inputs, on the captured navmesh: each stage
//               gets what the game's stage got (findPath the game's nearest refs and points,
//               findStraightPath the game's corridor), so a difference shows where it starts.
//               firstDifference() names the first field that differs (floats bit for bit).
//   runFresh()  from scratch, as the capture made it (nearest -> findPath -> findStraightPath, or
//               nearest -> raycast), on another navmesh (the level re-baked after a fix);
//               compareOnMesh() lists what changed against the game's answers. Corridors are
//               compared by poly position (app/NavDiff.h's NavPolyId), not by ref: refs shift when
//               tiles land in other slots or salts, positions do not where the bake did not change.
//
// Stale queries (CAPTURE_STALE) are never run: both return false.
#pragma once

#include "nav/CaptureFile.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace navbench {

/// NavBench's answers to a captured query, with the fields of nav::CapturedQuery's answers.
struct CaptureAnswer {
  nav::CapturedNearest nearestStart, nearestEnd;
  nav::Status pathStatus = 0;
  std::vector<nav::PolyRef> path;          ///< The corridor (raycast: the visited polys).
  nav::Status straightStatus = 0;
  std::vector<float> straight;             ///< [(x, y, z) * corners]
  std::vector<uint8_t> straightFlags;      ///< [corners]
  std::vector<nav::PolyRef> straightRefs;  ///< [corners]
  nav::Status rayStatus = 0;
  float t = 0, hitNormal[3] = {0, 0, 0};
  int hitEdgeIndex = 0;
  float pathCost = 0;

  /// Back to a default answer, keeping the vectors' capacity.
  void reset();
};

/// The first field where NavBench's answer differs from the game's.
struct CaptureDifference {
  std::string field; ///< "nearestStart.ref", "pathStatus", "path.count", "path[12]", "straight[3]", "t", ...
  std::string game;  ///< The game's value (refs in hex, statuses as bits, floats exact: %.9g).
  std::string ours;  ///< NavBench's.
};

/// The filter the capture recorded: include / exclude flags and the 64 area costs (Detour's
/// default dtQueryFilter: no entering costs, Detour's heuristic scale).
nav::QueryFilter captureFilter(const nav::CapturedQuery& q);

/// Runs captured queries. Owns NavMeshQuery objects (one per node budget, for up to
/// kCaptureQueryPools budgets) and scratch buffers: once each budget and capacity has been seen,
/// running queries allocates nothing (past that many budgets, one pool is re-sized as needed).
/// Node budgets a CaptureReplayer keeps a pool for (a recorder's queries usually share one or two).
constexpr int kCaptureQueryPools = 8;

class CaptureReplayer {
public:
  CaptureReplayer();
  ~CaptureReplayer();
  CaptureReplayer(const CaptureReplayer&) = delete;
  CaptureReplayer& operator=(const CaptureReplayer&) = delete;

  /// Runs q on `mesh` stage by stage with the game's recorded inputs (nearest from start / end;
  /// findPath from the game's nearest refs and pathStart / pathEnd; findStraightPath on the game's
  /// corridor to straightEnd; raycast from rayStartRef), with the captured filter, node budget,
  /// maxPath, maxStraight and options. CAPTURE_NO_NEAREST skips the nearest stage (out's nearest
  /// answers are then the game's); a stage whose recorded status is 0 (the game did not call it)
  /// is skipped too. False (out reset) for a stale query or when the query object
  /// cannot be set up (an allocation failed).
  bool run(const nav::NavMesh& mesh, const nav::CapturedQuery& q, CaptureAnswer& out);

  /// Runs q from scratch on `mesh`, as the capture made it: nearest from start / end, findPath
  /// from those refs and points, findStraightPath from the nearest start point to the nearest end
  /// point (or, for a partial corridor, the closest point on its last poly); a raycast from
  /// rayStart to rayEnd starts at the nearest poly of start. With CAPTURE_NO_NEAREST the nearest
  /// polys are those of pathStart / pathEnd (rayStart), and findPath gets pathStart / pathEnd
  /// themselves. Same filter, budget and capacities. False for a stale query or a query object
  /// that cannot be set up.
  bool runFresh(const nav::NavMesh& mesh, const nav::CapturedQuery& q, CaptureAnswer& out);

private:
  bool prepare(const nav::NavMesh& mesh, const nav::CapturedQuery& q);
  /// The raycast from startRef with the captured filter, options and capacity into `out`; `hit`
  /// holds what the fields the raycast does not write start as.
  void runRaycastFrom(const nav::CapturedQuery& q, nav::PolyRef startRef, const nav::QueryFilter& filter,
                      nav::RaycastHit hit, CaptureAnswer& out);
  void runPathFrom(const nav::CapturedQuery& q, nav::PolyRef startRef, nav::PolyRef endRef, const float* startPos,
                   const float* endPos, bool fresh, CaptureAnswer& out);

  struct Pool {
    int maxNodes = 0;
    std::unique_ptr<nav::NavMeshQuery> query;
  };
  std::vector<Pool> m_pools;      ///< [at most kCaptureQueryPools]
  nav::NavMeshQuery* m_query = nullptr; ///< The current query's (set by prepare).
  std::vector<nav::PolyRef> m_path, m_straightRefs;
  std::vector<float> m_straight;
  std::vector<uint8_t> m_straightFlags;
};

/// The first difference between the game's answers in q and `ours` (from CaptureReplayer::run),
/// in stage order: nearest (status, ref, point), path (status, count, refs), straight (status,
/// count, points, flags, refs), raycast (status, t, normal, edge, cost, visited count and refs).
/// A truncated record (CAPTURE_TRUNCATED) compares only the prefix it stored; CAPTURE_NO_NEAREST
/// skips the nearest stage. Floats compare bit for bit. False when identical (d untouched).
bool firstDifference(const nav::CapturedQuery& q, const CaptureAnswer& ours, CaptureDifference* d);

/// One captured query run from scratch on another navmesh (runFresh) against the game's answers.
struct CaptureChange {
  bool statusChanged = false;   ///< Path: findPath's or findStraightPath's status; raycast: its status.
  bool corridorChanged = false; ///< Corridor (raycast: visited polys) not the same polys by position, in order.
  bool straightChanged = false; ///< Straight path corners (count or any point, bit for bit); raycast: t or normal.
  bool lengthChanged = false;   ///< Straight path length moved by more than kCaptureLengthTol; raycast: never.
  float gameLength = 0, oursLength = 0; ///< Straight path lengths [Unit: wu]
  bool any() const { return statusChanged || corridorChanged || straightChanged || lengthChanged; }
  /// "status", "corridor", "straight", "length": the fields that changed, in that order.
  std::vector<std::string> fields() const;
};
/// Length change reported [Unit: wu] (as `navbench diff --cases`).
constexpr float kCaptureLengthTol = 1e-4f;

/// Compares q's game answers (refs resolved on `gameMesh`, the captured navmesh) with `ours` (from
/// runFresh on `otherMesh`). A truncated record compares its stored prefix only.
CaptureChange compareOnMesh(const nav::NavMesh& gameMesh, const nav::CapturedQuery& q, const nav::NavMesh& otherMesh,
                            const CaptureAnswer& ours);

/// What became of one captured query in a replay.
enum class CaptureOutcome : uint8_t {
  Identical, ///< run(): every compared field equal to the game's.
  Differs,   ///< run(): `difference` holds the first field that is not.
  Stale,     ///< Marked stale in the file: not run, not a failure.
  Unchanged, ///< On another mesh (runFresh): no change against the game's answers.
  Changed,   ///< On another mesh: `change` says what changed.
  Failed,    ///< Could not be run (the query object could not be set up: out of memory).
};
const char* captureOutcomeName(CaptureOutcome o); ///< "identical", "differs", "stale", ...

struct CaptureQueryResult {
  CaptureOutcome outcome = CaptureOutcome::Identical;
  CaptureDifference difference; ///< Differs only.
  CaptureChange change;         ///< Unchanged / Changed only.
  CaptureAnswer ours;           ///< NavBench's answers (empty for Stale / Failed).
};

/// Replays every query of `cap` (loaded with `mesh`): on `mesh` with run() + firstDifference(), or,
/// when `other` is given, on `other` with runFresh() + compareOnMesh(). One result per query.
std::vector<CaptureQueryResult> replayCapture(const nav::NavMesh& mesh, const nav::Capture& cap,
                                              const nav::NavMesh* other = nullptr);

/// Length of a straight path [(x, y, z) * n] [Unit: wu]
float captureStraightLength(const std::vector<float>& pts);
/// A status as its bits: "SUCCESS|PARTIAL_RESULT", "FAILURE|INVALID_PARAM", "0".
std::string captureStatusText(nav::Status s);

} // namespace navbench
