// NavCheck.h: the headless heart of `navbench check` (issue 27): finds the known kinds of navmesh
// defects in a nav::NavMesh and returns them as plain structs, for the CLI, the viewer's Check
// panel (which runs it on a thread: progress callback, cancel flag) and CI reports (CheckReport.h).
//
// Checks (each on by default, each with its thresholds in CheckOptions):
//   islands  connected components of the polys the filter passes, joined by links in either
//            direction (off-mesh connection polys included). Reachability follows link direction
//            from the seeds' polys (no seeds: every poly of the biggest island by xz area). An
//            island no seed reaches is a finding.
//   detours  seeded random pairs of points in the same island (deterministic: our own PRNG, so
//            every machine draws the same pairs). Detour's path (findPath with `nodeBudget` nodes +
//            findStraightPath) against the exact shortest path (nav/ShortestPath.h). Lengths are
//            compared in the metric ShortestPath minimises (xz on the mesh, 3D across off-mesh
//            links: straightPathLength); a pair whose ratio >= detourRatio and which is at least
//            detourMinExtra longer is a finding. detourLen is also given as `navbench query` prints
//            straightLen: the 3D polyline length of the straight path. The heatmap holds, per
//            poly, the worst ratio of the sampled corridors that cross it.
//   budget   pairs whose findPath with `nodeBudget` nodes ends PARTIAL_RESULT or OUT_OF_NODES, each
//            with whether the hierarchical search (nav/HierPlanner.h) completes it.
//   seams    a span of a tile's border where a walkable poly edge of this tile and one of the
//            neighbour tile lie on the border line, overlap, and are within walkableClimb in
//            height, but no link of this tile's poly covers it (reported per direction; a span
//            missing both ways is one finding with oneWay = false).
//   links    off-mesh connections whose start (link on edge 0) or end (edge 1) has no link.
//   narrow   portals between walkable ground polys (shared edges and tile-border links, the linked
//            part) narrower than minWidth in xz.
//   surface  (only with level triangles) detail-mesh points (poly and detail vertices) more than
//            walkableClimb above or below the nearest level surface at their (x, z); one finding
//            per poly (its worst point).
//
// Units: world units (metres), positions (x, y, z), y up. Nothing here throws: status codes and a
// `why` string. One NavMeshQuery + one ShortestPath per worker thread, buffers reused across pairs.
#pragma once

#include "nav/NavTypes.h"
#include "nav/QueryFilter.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace nav {
class NavMesh;
}

namespace nav::check {

using Vec3 = std::array<float, 3>;

/// Which checks run and their thresholds. validate() says which value is out of range.
struct CheckOptions {
  bool islands = true, detours = true, budget = true, seams = true, links = true, narrow = true,
       surface = true;
  std::vector<Vec3> seeds;             ///< Reachability seeds (snapped with seedExtents).
  /// A seed with no poly within seedExtents: false, bad input (runChecks fails naming it); true,
  /// an islands finding (CheckResult::unreachedSeeds): the agent type the seed is for cannot
  /// stand there (a level's per-agent seeds). When no seed lands, the biggest island seeds the
  /// flood, as without seeds.
  bool seedsOffMeshAreFindings = false;
  float seedExtents[3] = {2, 4, 2};    ///< Half extents of the nearest-poly search for seeds and pair ends.
  int pairs = 2000;                    ///< Random pairs for detours and budget [Limit: 1..10^7].
  uint64_t seed = 1;                   ///< PRNG seed of the pairs.
  float detourRatio = 1.15f;           ///< [Limit: >= 1]
  float detourMinExtra = 2.0f;         ///< [Unit: wu] [Limit: >= 0]
  int nodeBudget = 2048;               ///< findPath's node pool [Limit: 1..65535]
  int exactMaxNodes = 1 << 16;         ///< ShortestPath's pool; pairs it cannot finish are skipped.
  float walkableClimb = -1;            ///< [Unit: wu] < 0: each tile's header walkableClimb.
  float minWidth = 0.1f;               ///< [Unit: wu] [Limit: > 0]
  int threads = 0;                     ///< Pair workers; 0 = hardware threads (at most 8).
  /// Checks whether every value is in range; false with `why` naming the option.
  bool validate(std::string* why) const;
};

/// The level's triangles, for the surface check (optional).
struct LevelTriangles {
  const float* verts = nullptr; ///< [(x, y, z) * vertCount]
  int vertCount = 0;
  const int* tris = nullptr;    ///< [(a, b, c) * triCount]
  int triCount = 0;
};

/// A seed the navmesh has no poly at (CheckOptions::seedsOffMeshAreFindings).
struct SeedFinding {
  int index = 0; ///< Index in CheckOptions::seeds.
  Vec3 pos{};
};

struct Island {
  int id = 0;            ///< Index in CheckResult::islands (sorted by area, biggest first).
  int polys = 0;         ///< Polys, off-mesh connection polys included.
  float area = 0;        ///< xz area of its ground polys [Unit: wu^2]
  Vec3 center{};         ///< Area-weighted centre (y: mean of its vertices' heights).
  bool reachable = false;///< A seed reaches at least one of its polys.
  int unreachedPolys = 0;///< Polys a seed's flood (following link direction) does not reach.
  PolyRef firstPoly = 0; ///< Its poly with the smallest ref.
  bool baselined = false;///< Unreachable but in the baseline (filterNew): not a finding.
  bool isFinding() const { return !reachable && !baselined; }
};

/// The drawn pair a pair finding is about.
struct PairEnds {
  Vec3 start{}, end{};
  PolyRef startRef = 0, endRef = 0;
  int pairIndex = 0;     ///< Index in the drawn sequence (same seed: same pair).
};

struct DetourFinding : PairEnds {
  float detourLen = 0;   ///< 3D length of Detour's straight path (navbench query's straightLen).
  float detourMetric = 0;///< The same path in ShortestPath's metric (straightPathLength).
  float exactLen = 0;    ///< The exact shortest path, same metric.
  float ratio = 0;       ///< detourMetric / exactLen.
};

struct BudgetFinding : PairEnds {
  Status status = 0;     ///< findPath's status (PARTIAL_RESULT and/or OUT_OF_NODES set).
  bool hierarchical = false; ///< The hierarchical search (nav/HierPlanner.h) completes the pair.
};

struct SeamFinding {
  Vec3 a{}, b{};         ///< The unlinked span on the border line (heights of this tile's edge).
  Vec3 pos{};            ///< Its middle.
  PolyRef poly = 0;      ///< This tile's poly.
  PolyRef otherPoly = 0; ///< The neighbour tile's poly across the span.
  int tile[2] = {0, 0}, otherTile[2] = {0, 0};
  bool oneWay = true;    ///< Only this direction lacks the link (the other one has it).
};

struct LinkFinding {
  Vec3 pos{};            ///< The unlinked end point (the start when both are unlinked).
  Vec3 start{}, end{};
  PolyRef poly = 0;      ///< The connection's poly.
  uint32_t userId = 0;
  bool startLinked = false, endLinked = false;
};

struct NarrowFinding {
  Vec3 pos{};            ///< Middle of the portal.
  Vec3 a{}, b{};         ///< Portal ends.
  float width = 0;       ///< xz width [Unit: wu]
  PolyRef from = 0, to = 0;
};

struct SurfaceFinding {
  Vec3 pos{};            ///< The detail point.
  float dist = 0;        ///< Signed height above (+) / below (-) the nearest surface; 0 when none.
  bool noSurface = false;///< No level triangle lies under or over the point.
  PolyRef poly = 0;
};

/// The per-poly heatmap: worst sampled ratio of the corridors crossing a poly.
struct HeatEntry {
  PolyRef ref = 0;
  float ratio = 0;
};

struct CheckResult {
  std::vector<Island> islands;          ///< Biggest xz area first.
  std::vector<DetourFinding> detours;   ///< Worst ratio first.
  std::vector<BudgetFinding> budget;
  std::vector<SeamFinding> seams;
  std::vector<LinkFinding> links;
  std::vector<NarrowFinding> narrow;
  std::vector<SurfaceFinding> surface;
  std::vector<HeatEntry> heat;          ///< Polys crossed by a sampled corridor, ref order.
  /// Seeds off the navmesh (islands findings; only with seedsOffMeshAreFindings).
  std::vector<SeedFinding> unreachedSeeds;
  /// Every poly the filter passes with its island (index in `islands`), in tile slot order: what
  /// the viewer tints to show an island.
  std::vector<std::pair<PolyRef, int>> polyIslands;
  int polyCount = 0;                    ///< Polys the filter passes.
  int pairsRun = 0;                     ///< Pairs whose Detour path reached the end.
  int pairsSkipped = 0;                 ///< Pairs with no poly at an end or an unfinished exact search.
  float worstRatio = 0;                 ///< Over all pairs run.
  bool ran[7] = {false, false, false, false, false, false, false}; ///< CheckKind order.
  int unreachableIslands() const; ///< Islands that are findings (unreachable, not baselined).
};

/// The checks, in report order.
enum CheckKind : int { CHECK_ISLANDS, CHECK_DETOURS, CHECK_BUDGET, CHECK_SEAMS, CHECK_LINKS, CHECK_NARROW,
                       CHECK_SURFACE, CHECK_COUNT };
const char* checkName(int kind);

/// Progress: the check running and the fraction done overall [0, 1]. Called from the calling thread.
using ProgressFn = std::function<void(const char* stage, float fraction)>;

/// The filter `navbench check` uses by default: RecastDemo's include 0xffef, exclude 0.
QueryFilter defaultCheckFilter();

/// Runs the checks. SUCCESS, or FAILURE | INVALID_PARAM (bad options, a seed off the mesh: `why`
/// says which), FAILURE | OUT_OF_MEMORY (a query pool), FAILURE when cancelled (`why` = "cancelled";
/// `out` then holds what finished). `level` may be null (no surface check).
Status runChecks(const NavMesh& mesh, const QueryFilter& filter, const CheckOptions& opts, CheckResult& out,
                 std::string* why = nullptr, const LevelTriangles* level = nullptr,
                 const ProgressFn& progress = nullptr, const std::atomic<bool>* cancel = nullptr);

/// Deterministic PRNG (splitmix64): the same stream on every machine for a seed.
class SplitMix {
public:
  explicit SplitMix(uint64_t seed) : m_state(seed) {}
  uint64_t next() {
    uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// [0, 1) with 24 random bits (exact in float).
  float unit() { return float(next() >> 40) * (1.0f / 16777216.0f); }

private:
  uint64_t m_state;
};

} // namespace nav::check
