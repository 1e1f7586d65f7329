// DualMesh.h: query test support. One Recast bake of a level loaded twice from the SAME tile blobs
// (made by Detour's dtCreateNavMeshData): into Detour's dtNavMesh (the oracle) and into our
// nav::NavMesh, with the same random off-mesh connections and the same random poly areas/flags,
// so any difference in a query's answer is the query's.
#pragma once

#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace querytest {

struct DualMesh {
  std::string name;     ///< "nav_test/solo" ...
  bool tiled = false;
  dtNavMesh* dt = nullptr;
  nav::NavMesh nav;
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
  int offMeshCount = 0; ///< Off-mesh connections stored in tiles.
  /// The raw tile blobs (Detour layout), for writing tile-set files: (tx, ty, bytes).
  struct Blob { int tx, ty; std::vector<uint8_t> bytes; };
  std::vector<Blob> blobs;
  dtNavMeshParams params{};
  ~DualMesh();
};

/// Bakes (once per process; cached) obj solo or tiled (tile size 48) and loads both meshes.
/// randomize: random areas 0..4 / flags and 24 random off-mesh connections (seeded by name).
/// Returns null and sets *why if the file is missing or the bake fails.
/// cellSize > 0 replaces RecastDemo's 0.3 (smaller cells: more, smaller polygons).
/// seedKey: seeds the random areas/links with this string instead of the level's name (regression
/// seeds: other random data on the same level).
const DualMesh* loadDual(const std::string& objPath, bool tiled, bool randomize, std::string* why,
                         float cellSize = 0.0f, const std::string& seedKey = std::string());

/// Deterministic random numbers (xorshift), one global stream for the frand() callbacks.
void seedRandom(uint64_t seed);
float frand();          ///< [0, 1)
int irand(int n);       ///< [0, n)

/// Path of the shared folder's levels ("" when absent) and of the project's default level.
std::string sharedLevel(const char* file);
std::string defaultLevel();
/// The level a test names: "default" (the project's) or a file of the shared levels ("" when absent).
std::string levelPath(const std::string& file);
/// Why a test skips when the shared level `file` is absent.
std::string sharedLevelMissing(const std::string& file);

/// Detour's and our query over one DualMesh, `nodes` search nodes each. False on failure.
bool initQueries(const DualMesh& mesh, dtNavMeshQuery* dq, nav::NavMeshQuery& nq, int nodes = 2048);

/// The same filter on both sides.
struct Filters {
  dtQueryFilter dt;
  nav::QueryFilter nav;
};
/// A random filter with Detour's semantics (include/exclude flags and area costs, drawn from the
/// global stream; no entering costs, default heuristic). plain: the default filter, no draws.
void randomFilter(Filters& f, bool plain);

} // namespace querytest
