// TileCacheState.h: a tile cache opened in the viewer (a .tcache file) and the obstacles placed on
// it. The navmesh the cache builds lives in NavState (swapped in on open, so every tool, overlay
// and query sees it unchanged); poll() runs the cache's update on that mesh once a frame within a
// time budget, and reports which navmesh tiles came back rebuilt (for the flash and for re-running
// the tools). No GL, SDL or ImGui: unit-testable headless.
//
// Obstacles are kept by value (kind, ground point, sizes) so they can be saved in scenarios and
// re-added after an undo; each holds its current tile cache ref. Shapes: every obstacle stands on
// its ground point sunk by kSink (as RecastDemo's TempObstacles: the shape must reach below the
// floor to cut it).
#pragma once

#include "nav/NavTypes.h"
#include "nav/tilecache/TileCacheFile.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace nav {
class NavMesh;
}

namespace base {
class JsonIn;
}

namespace navbench {

struct Obstacle {
  enum Kind : int { Cylinder = 0, Box = 1, OrientedBox = 2 };
  Kind kind = Cylinder;
  float pos[3] = {0, 0, 0};    ///< The ground point it stands on [Unit: wu]
  float radius = 1.0f;         ///< Cylinder [Unit: wu] [Limit: > 0]
  float height = 2.0f;         ///< Cylinder [Unit: wu] [Limit: > 0]
  float half[3] = {1.0f, 1.0f, 1.0f}; ///< Box half extents along x, y, z [Unit: wu] [Limit: > 0]
  float yawDeg = 0;            ///< Oriented box rotation about +y [Unit: degrees]
};

/// "cylinder", "box", "obox".
const char* obstacleKindName(Obstacle::Kind k);

/// A navmesh tile the cache rebuilt, with its layer's bounds [Unit: wu] and when [Unit: ms, nowMs clock].
struct RebuiltTile {
  int x, y, layer;
  float bmin[3], bmax[3];
  double whenMs;
};

class TileCacheState {
public:
  static constexpr float kSink = 0.5f;     ///< Shapes start this far below their ground point [Unit: wu]
  static constexpr int kMaxObstacles = 256; ///< Obstacle slots of a cache opened in the viewer.

  TileCacheState();
  ~TileCacheState();

  /// Opens a .tcache (all or nothing): the cache and its navmesh; the navmesh is handed over by
  /// takeMesh(). False with `error` naming the file and the problem.
  bool open(const std::string& path, std::string& error);
  /// Swaps the built navmesh into `into` (NavState's) and remembers `into` as the mesh the cache
  /// rebuilds from now on (its address must stay valid while this state lives).
  void takeMesh(nav::NavMesh& into);

  const nav::tilecache::OpenTileCache& file() const { return m_tc; }
  nav::tilecache::TileCache& cache() { return *m_tc.cache; }
  const nav::tilecache::TileCache& cache() const { return *m_tc.cache; }

  // ---- obstacles: false + `why` when refused (nothing changed) ----------------------------------
  const std::vector<Obstacle>& obstacles() const { return m_obs; }
  nav::tilecache::ObstacleRef ref(int i) const { return m_refs[size_t(i)]; }
  bool add(const Obstacle& o, std::string* why);
  bool remove(int index, std::string* why);
  /// Moves obstacle `index` (its ground point) to `pos`: removed and added again.
  bool move(int index, const float* pos, std::string* why);
  /// Replaces every obstacle (scenarios, undo).
  bool setAll(const std::vector<Obstacle>& obs, std::string* why);
  /// The obstacle whose footprint holds the level point `p` (the last placed first), -1 none.
  int obstacleAt(const float* p) const;
  /// Checks sizes (> 0, finite, not over 1000 wu).
  static bool check(const Obstacle& o, std::string* why);

  // ---- rebuilds ---------------------------------------------------------------------------------
  /// Requests queued or tiles waiting for a rebuild.
  bool busy() const;
  /// Runs the cache's update until it is up to date or `budgetMs` has passed (at least one step;
  /// budgetMs <= 0: until up to date). Returns the number of navmesh tiles rebuilt.
  int poll(double budgetMs);
  /// Tiles rebuilt since open, in order (the last ones flash).
  const std::vector<RebuiltTile>& rebuilt() const { return m_rebuilt; }
  int updates() const { return m_updates; } ///< Cache update steps run since open.
  double lastUpdateMs() const { return m_lastUpdateMs; } ///< Time of the last poll's updates [Unit: ms]

  // ---- files ------------------------------------------------------------------------------------
  /// [{"kind": "cylinder", "pos": [x, y, z], "radius": r, "height": h} | {"kind": "box" | "obox",
  /// "pos": [...], "half": [hx, hy, hz], "yaw": degrees (obox)}, ...]
  void saveObstacles(nlohmann::json& out) const;
  /// Errors name the JSON path ("obstacles[2].half: expected [x, y, z], got 2 values").
  static bool parseObstacles(const nlohmann::json& in, std::vector<Obstacle>* out, std::string* why);
  /// The same at `in` (its path and file in messages, nav/base/Json.h); `out` untouched on failure.
  static bool parseObstacles(const base::JsonIn& in, std::vector<Obstacle>* out);
  /// --dump-state: obstacles with refs and states, queue, rebuilt tiles, the navmesh's hash.
  void dumpState(nlohmann::json& out) const;

private:
  bool addToCache(const Obstacle& o, nav::tilecache::ObstacleRef* ref, std::string* why);
  bool removeFromCache(nav::tilecache::ObstacleRef ref, std::string* why);
  /// Makes room in the cache's request queue (runs updates while it is full).
  void drainQueue();
  /// Watches the navmesh tiles under an obstacle's bounds, to see them come back rebuilt.
  void watch(nav::tilecache::ObstacleRef ref);
  int checkWatched();

  nav::tilecache::OpenTileCache m_tc;
  nav::NavMesh* m_mesh = nullptr;
  std::vector<Obstacle> m_obs;
  std::vector<nav::tilecache::ObstacleRef> m_refs;
  struct Watched {
    nav::TileRef ref;
    float bmin[3], bmax[3];
  };
  std::map<std::tuple<int, int, int>, Watched> m_watch;
  std::vector<RebuiltTile> m_rebuilt;
  int m_updates = 0;
  double m_lastUpdateMs = 0;
};

/// FNV-1a (64-bit) of every navmesh tile's bytes in (x, y, layer) order, as 16 hex digits: equal
/// for byte-identical navmeshes whatever their tile slots. The runtime link data the NavMesh writes
/// into a blob (the links section, each poly's firstLink) is left out: it depends on the order the
/// tiles were connected in, not on what was built.
std::string navMeshHash(const nav::NavMesh& mesh);

} // namespace navbench
