// NavDraw.h: nav data -> DebugDraw batches. The only app file that turns navmesh data into
// drawing (the tester tools draw their results through these helpers too). No GL calls of its
// own: it fills render::DebugDraw batches, which the app flushes, and (NavDrawCache) fills
// render::StaticBuffers that stay on the GPU across frames.
//
// The navmesh itself is drawn through NavDrawCache: each overlay group of each tile is recorded
// once (drawTileGroup into a CPU-only DebugDraw), the tiles are packed by chunks of NxN tiles
// into one static buffer per (chunk, primitive kind), and each frame only the tiles inside the
// camera frustum are drawn (one glMultiDrawArrays per buffer). A tile is re-recorded only when it
// changes (its slot's salt, its data or its shape differ: added, removed, rebaked), a group only
// when its toggle or the lift changes. Hover highlight and tool results stay immediate.
#pragma once

#include "app/NavDrawOptions.h"
#include "nav/NavMesh.h"
#include "render/Camera.h"
#include "render/DebugDraw.h"
#include "render/Frustum.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace navbench {

/// The overlay groups drawn per tile; each follows one NavDrawOptions toggle.
enum NavGroup {
  GROUP_POLYS,   ///< opt.polys
  GROUP_EDGES,   ///< opt.polyEdges: walls and inner edges
  GROUP_BORDERS, ///< opt.tileBorders
  GROUP_PORTALS, ///< opt.portals
  GROUP_OFFMESH, ///< opt.offMeshLinks
  GROUP_DETAIL,  ///< opt.detailMesh
  GROUP_BVTREE,  ///< opt.bvTree
  GROUP_COUNT
};
/// Whether group `g` is on in `opt`.
bool groupEnabled(const NavDrawOptions& opt, int g);
/// The group's name ("polys", "edges"...).
const char* groupName(int g);

/// One overlay group of one tile, recorded into dd's batches.
void drawTileGroup(render::DebugDraw& dd, const nav::NavMesh& mesh, const nav::MeshTile* tile, int group, float lift);

/// Fill colour of an area (RecastDemo-like palette; unknown areas hashed), alpha a.
uint32_t areaColor(uint8_t area, uint8_t a = 150);

/// The whole mesh, immediate (every tile recorded into dd now); `hovered` (if a valid ref) is
/// highlighted. The viewer uses NavDrawCache instead; this is for tests and one-off drawings.
void drawNavMesh(render::DebugDraw& dd, const nav::NavMesh& mesh, const NavDrawOptions& opt, nav::PolyRef hovered = 0);

/// The hover highlight of drawNavMesh alone (nothing when `hovered` is not a valid ref).
void drawHover(render::DebugDraw& dd, const nav::NavMesh& mesh, const NavDrawOptions& opt, nav::PolyRef hovered);

/// One polygon filled in `color` (its detail triangles), for corridors and found polys.
void drawPolyFill(render::DebugDraw& dd, const nav::NavMesh& mesh, nav::PolyRef ref, uint32_t color, float lift = 0.06f);

/// The centre of a polygon (mean of its vertices) [Unit: wu]; (0,0,0) for an invalid ref.
glm::vec3 polyCenter(const nav::NavMesh& mesh, nav::PolyRef ref);

/// A text label in the 3D view (the app projects and draws it).
struct NavLabel {
  glm::vec3 pos;
  char text[32];
};
/// Tile coordinate labels "x,y[:layer]" at the centre of each tile's bounds (top).
void tileLabels(const nav::NavMesh& mesh, std::vector<NavLabel>& out);
/// The same, only for the tiles inside the view of `cam` whose bounds span at least `minPx`
/// pixels on screen (a whole big world would otherwise be a wall of text, and cost a text per tile).
void tileLabels(const nav::NavMesh& mesh, std::vector<NavLabel>& out, const render::Camera& cam, float aspect,
                float viewportHeightPx, float minPx = 48.0f);

/// An arc from a to b rising `height`, with an arrow head at b (and at a when `bidir`).
void drawArc(render::DebugDraw& dd, const glm::vec3& a, const glm::vec3& b, float height, uint32_t color,
             bool bidir, float width = 2.0f);

/// An agent cylinder (radius r, height h) standing on p.
void drawAgent(render::DebugDraw& dd, const glm::vec3& p, float r, float h, uint32_t color);

/// The navmesh overlays as static GPU buffers, kept in step with the mesh and the options (see
/// the top of this file). Not copyable; the GL context must be current for update/draw and
/// destruction when built with gpu = true.
class NavDrawCache {
public:
  /// `gpu` false: records the vertices and packs the chunks without any GL call (for tests).
  /// `chunkTiles`: tiles per chunk side (tile coordinates x, y >> this grouping).
  /// The environment variable NAVBENCH_NAVDRAW=immediate turns the cache off: every frame records
  /// the whole mesh into the DebugDraw batches, as the viewer did before (for before/after
  /// measurements with the same binary).
  explicit NavDrawCache(bool gpu = true, int chunkTiles = 16);
  NavDrawCache(const NavDrawCache&) = delete;
  NavDrawCache& operator=(const NavDrawCache&) = delete;

  /// Brings the buffers in line with `mesh` and `opt`: records the (tile, group) pairs that are
  /// missing or stale and re-packs the chunks they are in. Cheap when nothing changed (a pass over
  /// the tile slots).
  void update(const nav::NavMesh& mesh, const NavDrawOptions& opt);
  /// Queues the buffers of the tiles inside `frustum` into dd (drawn at its next flush).
  /// Level of detail, when `pixelsPerUnit` > 0 (viewport pixels per world unit at distance 1 from
  /// `eye`: height / (2 tan(fovY / 2))): a tile whose bounds span fewer than lineLodPixels on screen
  /// gets its polygons only, no lines (at that size its edges, detail triangles and BV boxes are a
  /// blur of sub-pixel lines that cost the most to rasterise).
  void draw(render::DebugDraw& dd, const render::Frustum& frustum, const glm::vec3& eye = glm::vec3(0.0f),
            float pixelsPerUnit = 0.0f);
  /// Time update() may spend recording tiles [Unit: ms]; 0 = no limit (headless runs: the first
  /// frame is complete). Past it the remaining tiles wait for the next calls (Stats::pendingTiles),
  /// so a big world fills in over a few frames instead of freezing the first one.
  float buildBudgetMs = 0.0f;
  /// See draw(); NAVBENCH_NAVDRAW_LOD=N in the environment sets it (0 = lines always drawn).
  float lineLodPixels = 32.0f;
  /// Forgets every tile (a different mesh was swapped in); the next update rebuilds all. Frees
  /// the GPU buffers (GL context current when gpu).
  void invalidate();

  struct Stats {
    long long tileGroupBuilds = 0;              ///< (tile, group) recordings since construction.
    long long groupBuilds[GROUP_COUNT] = {};    ///< The same, per group.
    long long chunkPacks = 0;                   ///< Chunk re-packs (and uploads when gpu).
    double lastUpdateMs = 0;                    ///< Time of the last update() [Unit: ms].
    double maxUpdateMs = 0;                     ///< Longest update() so far (the first build) [Unit: ms].
    int tiles = 0, chunks = 0, buffers = 0;     ///< Tiles held, chunks, static buffers.
    int pendingTiles = 0;                       ///< Tiles still to record (buildBudgetMs spent).
    long long vertices = 0;                     ///< Vertices in the static buffers.
    size_t gpuBytes = 0;                        ///< Vertex data on the GPU [Unit: bytes].
    size_t cpuBytes = 0;                        ///< Recorded vertices kept for re-packing [Unit: bytes].
    int visibleTiles = 0, culledTiles = 0;      ///< Of the last draw().
    int lineTiles = 0;                          ///< Visible tiles drawn with their lines (LOD).
    int drawnBuffers = 0;                       ///< Static draws queued by the last draw().
  };
  const Stats& stats() const { return m_stats; }
  /// How many times the tile in slot `tileIndex` had group `g` recorded (0 for an unknown slot).
  int builds(int tileIndex, int g) const;
  /// Vertices of tile slot `tileIndex` currently packed in a chunk, all groups (tests).
  int packedVertices(int tileIndex) const;

private:
  struct Layer {
    int kind; ///< Index into m_kinds.
    std::vector<render::DebugVertex> verts;
  };
  struct Tile {
    bool present = false;
    uint32_t salt = 0;
    const void* header = nullptr;
    const void* data = nullptr;
    int dataSize = 0, polyCount = 0, vertCount = 0, x = 0, y = 0, layer = 0;
    int chunk = -1;
    bool built[GROUP_COUNT] = {};
    std::vector<Layer> layers[GROUP_COUNT];
    int builds[GROUP_COUNT] = {};
    glm::vec3 bmin{0.0f}, bmax{0.0f}; ///< Of its enabled groups' vertices.
  };
  struct KindBuffer {
    render::StaticBuffer buf;
    std::vector<int> first, count; ///< Per tile of the chunk (parallel to Chunk::tiles).
    long long vertices = 0;
  };
  struct Chunk {
    int cx = 0, cy = 0;
    std::vector<int> tiles; ///< Tile slots in it.
    bool dirty = true;
    std::vector<KindBuffer> kinds; ///< Indexed like m_kinds.
    glm::vec3 bmin{0.0f}, bmax{0.0f};
    bool empty = true;
  };
  struct Kind {
    render::Prim prim;
    float size;
    bool depthTest;
  };

  void dropTile(int i);
  void buildGroup(const nav::NavMesh& mesh, int i, int g);
  void clearGroup(int i, int g);
  int chunkFor(int x, int y);
  void pack(Chunk& c);
  int kindFor(const render::DebugDraw::Batch& b);

  bool m_gpu;
  int m_chunkTiles;
  bool m_immediate = false;
  const nav::NavMesh* m_immMesh = nullptr; ///< Immediate mode: what the last update() saw.
  NavDrawOptions m_immOpt;
  float m_lift = -1.0f;
  bool m_enabled[GROUP_COUNT] = {};
  std::vector<Tile> m_tiles;
  std::vector<Chunk> m_chunks;
  std::unordered_map<long long, int> m_chunkIndex; ///< (cx, cy) -> m_chunks index.
  std::vector<Kind> m_kinds;
  render::DebugDraw m_rec; ///< CPU-only recorder (never initialised).
  std::vector<int> m_first, m_count; ///< Scratch for draw().
  std::vector<char> m_vis, m_lines;  ///< Scratch for draw(): per tile of a chunk.
  Stats m_stats;
};

} // namespace navbench
