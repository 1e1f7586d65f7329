// Bake.h: level triangles -> navmesh tiles (Recast up to the detail mesh, then nav::buildTileData).
//
// The pipeline is RecastDemo's Sample_SoloMesh / Sample_TileMesh: rasterize with slope marking,
// the three walkable filters, compact heightfield, erode by the agent radius, mark convex volumes,
// regions (watershed / monotone / layers), contours, poly mesh, detail mesh; areas -> poly flags;
// then nav's tile creation and a linked NavMesh. Tiled bakes lay a grid of tileSize cells over the
// level bounds (border = ceil(radius / cs) + 3 cells), find each tile's triangles through a
// TriangleGrid, build tiles on a worker pool and add them in grid order, so the result is
// byte-identical whatever the thread count.
//
// Typical use (CLI or viewer):
//   nav::bake::Baker baker;
//   baker.setInput(std::move(input), &why);          // copies checked once here
//   nav::bake::BakeOptions opt;  opt.threads = 0;     // all cores
//   opt.progress = [](const nav::bake::BakeProgress& p) { ... };   // from worker threads, serialised
//   opt.cancel = &cancelFlag;                         // std::atomic<bool>, polled between stages
//   nav::bake::BakeReport report;
//   if (baker.bake(settings, opt, &report)) use(baker.navMesh());   // else report.error; old mesh kept
// A failed or cancelled bake leaves the previous mesh untouched (the new one is built aside and
// swapped in only on success). rebuildTile() re-bakes one tile of the current mesh in place.
// Baker holds the whole level (and the finished mesh) in memory: what the viewer needs to draw and
// rebuild tiles. To bake a level file straight to a tile-set file with memory bounded by the tiles
// in flight (navbench bake), see nav/bake/StreamBake.h: same bytes.
#pragma once

#include "nav/NavAreas.h"
#include "nav/NavMesh.h"
#include "nav/TileBuilder.h"
#include "nav/bake/AreaRules.h"
#include "nav/bake/BakeSettings.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace nav::bake {

/// An area volume: a convex polygon on xz (its y values are ignored) extruded from hmin to hmax;
/// walkable cells inside get `area` (RecastDemo's ConvexVolume).
struct ConvexVolume {
  std::vector<float> verts; ///< [(x, y, z) * n], n in 3..12, convex, either winding [Unit: wu]
  float hmin = 0, hmax = 0; ///< [Unit: wu]
  uint8_t area = AREA_GROUND;
  uint32_t agents = 0xffffffffu; ///< AgentMask (Agents.h): the agent types it applies to.
};

/// An off-mesh connection (a jump link). Baked into the tile that holds its start; Detour-style
/// linking connects its end in whatever tile that lies in.
struct OffMeshLink {
  float start[3] = {0, 0, 0}; ///< [Unit: wu]
  float end[3] = {0, 0, 0};   ///< [Unit: wu]
  float radius = 0.6f;        ///< End point snap radius [Unit: wu]
  bool bidirectional = true;
  uint8_t area = AREA_JUMP;
  uint16_t flags = FLAG_JUMP;
  uint32_t userId = 0;        ///< 0: 1000 + index, like RecastDemo.
  uint32_t agents = 0xffffffffu; ///< AgentMask (Agents.h): the agent types it applies to.
};

/// What a bake reads: the level's triangles and the level designer's additions.
struct BakeInput {
  std::vector<float> verts; ///< [(x, y, z) * vertCount] [Unit: wu]
  std::vector<int> tris;    ///< [(a, b, c) * triCount], counter-clockwise seen from above = up
  std::vector<ConvexVolume> volumes;
  std::vector<OffMeshLink> links;
  /// The level file's areaRules (AreaRules.h) and the triangles' names they match: groups as
  /// LevelMesh's, triGroup [triCount] or empty (no names). No rules: the bake ignores the names.
  std::vector<AreaRule> areaRules;
  std::vector<MeshGroup> groups;
  std::vector<uint32_t> triGroup;

  int vertCount() const { return int(verts.size() / 3); }
  int triCount() const { return int(tris.size() / 3); }
  /// Checks the input (non-empty, indices in range, finite coordinates, not all triangles
  /// degenerate, volumes, links and area rules well formed, triGroup sized and in range). On
  /// failure `why` says what and where.
  /// `warnings` (optional) receives notes that do not stop a bake (some degenerate triangles).
  bool validate(std::string* why, std::vector<std::string>* warnings = nullptr) const;
};

/// Bake stages, in pipeline order; timings and progress refer to these.
enum class BakeStage : int {
  Prepare,            ///< Input checks, bounds, triangle index.
  Rasterize,          ///< Slope marking + triangle rasterization.
  Filter,             ///< Low hanging obstacles, ledges, low height spans.
  CompactHeightfield, ///< Compact heightfield.
  Erode,              ///< Erode walkable area by the agent radius.
  MarkAreas,          ///< Convex volumes.
  Regions,            ///< Distance field + regions (or monotone / layers).
  Contours,
  PolyMesh,
  DetailMesh,
  TileData,           ///< nav::buildTileData (areas -> flags included).
  AddTiles,           ///< NavMesh init + addTile (linking).
  Done,
  Count
};
constexpr int BAKE_STAGE_COUNT = int(BakeStage::Count);
const char* bakeStageName(BakeStage s); ///< "rasterize", "contours", ...

struct BakeProgress {
  BakeStage stage = BakeStage::Prepare; ///< Solo: the stage just starting. Tiled: TileData while
                                        ///< tiles are baking, then AddTiles, then Done.
  int tilesDone = 0;
  int tilesTotal = 0;
  /// Prepare of a file bake (StreamBake.h): reading and binning the input, done of total
  /// (total 1000 while it runs, 0 otherwise).
  int inputDone = 0;
  int inputTotal = 0;
};

struct BakeOptions {
  int threads = 0; ///< Worker threads for tiles; 0 = std::thread::hardware_concurrency().
  /// Called from worker threads (never two at once); keep it short (copy into an atomic or post to
  /// the UI thread). May be empty.
  std::function<void(const BakeProgress&)> progress;
  /// Polled before each tile and between stages; when it becomes true the bake stops and fails
  /// with "cancelled", leaving the previous mesh in place. May be null.
  const std::atomic<bool>* cancel = nullptr;
};

/// What a bake did: counts, times and a log (the viewer's build log; the CLI prints it).
struct BakeReport {
  bool ok = false;
  bool cancelled = false;
  std::string error;              ///< Why the bake failed (empty on success).
  std::vector<std::string> log;   ///< Settings, grid, warnings, Recast messages.
  std::string grid;               ///< The log's "grid: ..." line (cells, agent in cells, partition, tiles).
  /// Time per stage summed over all tiles (so with N threads this is CPU time, > wall time)
  /// [Unit: ms].
  double stageMs[BAKE_STAGE_COUNT] = {};
  double totalMs = 0;            ///< Wall-clock time of the whole bake [Unit: ms]
  int threads = 1;               ///< Worker threads used.
  int tilesX = 0, tilesY = 0;    ///< Tile grid (1 x 1 for solo).
  int tileCount = 0;             ///< Non-empty tiles in the mesh.
  int polyCount = 0;             ///< Ground polys (off-mesh connection polys not counted).
  int offMeshConCount = 0;       ///< Off-mesh connections stored in tiles.
  int vertCount = 0;             ///< Tile vertices (off-mesh end points included).
  size_t dataBytes = 0;          ///< Sum of tile blob sizes.
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0}; ///< Bake bounds [Unit: wu]
};

/// A tile's Recast output as plain arrays (rcPolyMesh + rcPolyMeshDetail layouts), after areas
/// were turned into flags. For debugging views and for comparing tile creation against other
/// implementations (tests).
struct PolyMeshData {
  int tileX = 0, tileY = 0;
  int nvp = 0;                         ///< Max verts per poly.
  std::vector<uint16_t> verts;         ///< [(x, y, z) * vertCount] in cells from bmin
  std::vector<uint16_t> polys;         ///< [(verts[nvp], neis[nvp]) * polyCount]
  std::vector<uint16_t> flags;         ///< [Size: polyCount]
  std::vector<uint8_t> areas;          ///< [Size: polyCount]
  std::vector<uint32_t> detailMeshes;  ///< [(vertBase, vertCount, triBase, triCount) * polyCount]
  std::vector<float> detailVerts;      ///< [(x, y, z) * n] [Unit: wu]
  std::vector<uint8_t> detailTris;     ///< [(a, b, c, flags) * n]
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0}; ///< Tile bounds without the border [Unit: wu]
  float cs = 0, ch = 0;
  int vertCount() const { return int(verts.size() / 3); }
  int polyCount() const { return int(areas.size()); }
};

/// A tile of the bake grid (tiled: tileSize cells from the level's bounds min; solo: (0, 0)).
struct TileCoord {
  int x = 0, y = 0;
  bool operator==(const TileCoord& o) const { return x == o.x && y == o.y; }
  bool operator<(const TileCoord& o) const { return y != o.y ? y < o.y : x < o.x; }
};

/// A re-baked tile: its grid cell and its new blob (null: the tile is empty now). Owns the blob
/// until replaceTiles() hands it to a NavMesh (allocated with new[], as NavMesh frees it).
struct RebakedTile {
  TileCoord tile;
  uint8_t* data = nullptr;
  int dataSize = 0;
  RebakedTile() = default;
  RebakedTile(RebakedTile&& o) noexcept : tile(o.tile), data(o.data), dataSize(o.dataSize) { o.data = nullptr; }
  RebakedTile& operator=(RebakedTile&& o) noexcept;
  RebakedTile(const RebakedTile&) = delete;
  RebakedTile& operator=(const RebakedTile&) = delete;
  ~RebakedTile() { delete[] data; }
};

/// What an edit of a volume or a link touches: the volume's xz outline with its heights; a link's
/// two ends widened by its radius [Unit: wu]. (Baker::tilesTouching takes these.)
void editBounds(const ConvexVolume& v, float* bmin, float* bmax);
void editBounds(const OffMeshLink& l, float* bmin, float* bmax);

/// Swaps `tiles` into `mesh` in place: the tile at each cell (layer 0) is removed and the new one
/// added in the slot it freed (salt bumped, as RecastDemo's buildTile), or the cell is left empty;
/// every other tile keeps its ref. All or nothing: when the mesh refuses a tile, the tiles
/// already swapped are put back as they were and `why` says which tile and why. The blobs of
/// `tiles` belong to the mesh afterwards (their data pointers are cleared).
bool replaceTiles(NavMesh& mesh, std::vector<RebakedTile>& tiles, std::string* why);

class Baker {
public:
  Baker();
  ~Baker();
  Baker(const Baker&) = delete;
  Baker& operator=(const Baker&) = delete;

  /// Takes the level (validated here; on failure nothing changes and `why` explains).
  bool setInput(BakeInput input, std::string* why);
  const BakeInput& input() const { return m_input; }
  /// Replaces only the volumes and links (the viewer's tools); the mesh is re-baked by the caller.
  bool setVolumesAndLinks(std::vector<ConvexVolume> volumes, std::vector<OffMeshLink> links, std::string* why);

  /// Bakes the whole level. On success the new mesh replaces the current one and true is
  /// returned; otherwise the current mesh is untouched and report->error says why.
  bool bake(const BakeSettings& settings, const BakeOptions& options, BakeReport* report);

  /// Re-bakes tile (tx, ty) of the current tiled mesh with the settings it was baked with and the
  /// current volumes and links, and swaps it in place (same tile slot, salt bumped, as RecastDemo's
  /// buildTile). A tile that comes out empty is removed. False (mesh unchanged) if there is no
  /// tiled mesh, the tile is outside the grid, or the build fails.
  bool rebuildTile(int tx, int ty, BakeReport* report);

  /// The tiles an edit inside the xz rectangle [bmin, bmax] (world units; y ignored) can change in
  /// a bake with `settings` of the current input: those whose rasterized rectangle (the tile plus
  /// its border of ceil(radius / cs) + 3 cells) overlaps it, in grid order. Solo: (0, 0). Empty
  /// when the rectangle misses the grid.
  void tilesTouching(const BakeSettings& settings, const float* bmin, const float* bmax, std::vector<TileCoord>* out) const;
  /// Bakes `tiles` of the grid `settings` define, with the current volumes and links, into blobs
  /// on `options.threads` workers, without touching the current mesh: the same bytes as those tiles
  /// of a whole bake. Cancel and progress as bake(). False (report->error) when a tile fails or a
  /// tile lies outside the grid; `out` then holds nothing.
  bool bakeTiles(const BakeSettings& settings, const std::vector<TileCoord>& tiles, const BakeOptions& options,
                 std::vector<RebakedTile>* out, BakeReport* report);

  /// Runs the Recast part for one tile of the grid `settings` define and returns its poly mesh
  /// (empty polys if the tile is empty). Solo: (0, 0) is the whole level. Does not touch the mesh.
  bool buildPolyMesh(const BakeSettings& settings, int tx, int ty, PolyMeshData* out, std::string* why) const;
  /// Bakes tile `tile` of the grid `settings` define (current volumes and links, like bakeTiles)
  /// without the polys whose indices (into the tile's poly mesh, which are also the tile's ground
  /// poly indices) are in `polysToDrop`: a neighbour that was dropped becomes a wall, the kept polys
  /// keep their detail meshes and their order (new index i = the i-th kept index), unused vertices
  /// are dropped, and the blob is built as a normal tile (off-mesh links included). Every poly
  /// dropped: out->data is null (the tile is empty). The prune tool's "remove from the saved
  /// navmesh". False (`why`, out untouched) when the Recast build or the tile creation fails or an
  /// index is out of range.
  /// `linksToDrop` (optional): indices into input().links left out of this tile too (a link is
  /// stored in the tile holding its start).
  bool bakeTileWithout(const BakeSettings& settings, const TileCoord& tile, const std::vector<int>& polysToDrop,
                       RebakedTile* out, std::string* why, const std::vector<int>* linksToDrop = nullptr) const;
  /// True when every tile lies in the grid `settings` define; else `why` names the first one
  /// outside: "tile (x, y) is outside the W x H grid".
  bool tilesInGrid(const BakeSettings& settings, const std::vector<TileCoord>& tiles, std::string* why) const;
  /// The current input's bounds (the tile grid's origin is bmin) [Unit: wu].
  void bounds(float* bmin, float* bmax) const;
  /// Tile grid size of a tiled bake with `settings` over the current input.
  void tileGrid(const BakeSettings& settings, int* tilesX, int* tilesY) const;

  /// The current mesh (null before the first successful bake).
  const NavMesh* navMesh() const { return m_mesh.get(); }
  NavMesh* navMesh() { return m_mesh.get(); }
  /// Hands the current mesh over to the caller (the baker forgets it).
  std::unique_ptr<NavMesh> releaseNavMesh();
  /// Makes `mesh` (baked elsewhere from this baker's input with `settings`, e.g. by a BakeJob) the
  /// current mesh, so rebuildTile works on it. Ignored if mesh is null.
  void adoptNavMesh(std::unique_ptr<NavMesh> mesh, const BakeSettings& settings);
  /// Settings of the current mesh.
  const BakeSettings& bakedSettings() const { return m_bakedSettings; }

  /// Off-mesh arrays of the input in nav::TileBuildParams layout (shared by every tile).
  struct OffMeshArrays {
    std::vector<float> verts, rad;
    std::vector<uint16_t> flags;
    std::vector<uint8_t> areas, dir;
    std::vector<uint32_t> userIds;
  };
  const OffMeshArrays& offMeshArrays() const { return m_offMesh; }

private:
  struct Impl;
  BakeInput m_input;
  OffMeshArrays m_offMesh;
  std::unique_ptr<NavMesh> m_mesh;
  BakeSettings m_bakedSettings;
  std::unique_ptr<Impl> m_impl; ///< Triangle index cache.
};

/// Fills nav tile params from a poly mesh and the baker's off-mesh arrays (pointers into both; they
/// must outlive `params`). Agent sizes come from `settings` in world units, as RecastDemo passes.
void fillTileBuildParams(const PolyMeshData& pm, const Baker::OffMeshArrays& offMesh, const BakeSettings& settings,
                         nav::TileBuildParams* params);

/// `in` without the polys whose indices are in `drop` (see Baker::bakeTileWithout): neighbour
/// indices remapped (a dropped neighbour becomes a wall, MESH_NULL_IDX), detail meshes of kept
/// polys compacted, unused vertices removed. False (`why`) when an index is out of range.
bool dropPolys(const PolyMeshData& in, const std::vector<int>& drop, PolyMeshData* out, std::string* why);

/// Per-tile bounds RecastDemo uses for tile (tx, ty) of a grid over [bmin, bmax].
void tileBounds(const float* bmin, const float* bmax, const BakeSettings& settings, int tx, int ty, float* tbmin,
                float* tbmax);

} // namespace nav::bake
