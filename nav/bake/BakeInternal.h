// BakeInternal.h: the parts of Bake.cpp the file bake (StreamBake.cpp) shares. Not an API: only
// nav/bake's own sources include it.
#pragma once

#include "nav/bake/Bake.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class rcContext;
struct rcCompactHeightfield;
namespace nav::bake {
class TriangleGrid;
}

namespace nav::bake::detail {

using Clock = std::chrono::steady_clock;
inline double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// The report a bake fills: the caller's (reset) or a local one. fail() records an error (also as
/// the log's last line) and the time taken, and returns false, for `return fail(...)`.
struct ReportWriter {
  BakeReport local;
  BakeReport& r;
  Clock::time_point start = Clock::now();
  explicit ReportWriter(BakeReport* out) : r(out ? *out : local) { r = BakeReport(); }
  ReportWriter(const ReportWriter&) = delete;
  ReportWriter& operator=(const ReportWriter&) = delete;
  bool fail(const std::string& msg) {
    r.ok = false;
    r.error = msg;
    r.log.push_back("error: " + msg);
    r.totalMs = msSince(start);
    return false;
  }
};

/// Sends one progress report when the options ask for them.
inline void sendProgress(const BakeOptions& opt, BakeStage stage, int tilesDone, int tilesTotal, int inputDone = 0,
                         int inputTotal = 0) {
  if (!opt.progress) return;
  BakeProgress p;
  p.stage = stage;
  p.tilesDone = tilesDone;
  p.tilesTotal = tilesTotal;
  p.inputDone = inputDone;
  p.inputTotal = inputTotal;
  opt.progress(p);
}

/// Runs `worker` on `threads` threads (on the caller's alone when 1) and waits for them all.
inline void runWorkers(int threads, const std::function<void()>& worker) {
  if (threads <= 1) {
    worker();
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(size_t(threads));
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
}

/// Worker threads for `jobs` tiles: opt.threads (0 = one per hardware thread), at least 1 and at
/// most max(jobs, 1).
inline int workerThreads(const BakeOptions& opt, int jobs) {
  const int threads = opt.threads > 0 ? opt.threads : int(std::thread::hardware_concurrency());
  return std::max(1, std::min(threads, std::max(jobs, 1)));
}

/// The tile worker loop of the in-memory bakes: bakeTile(i) for i in [0, total) on `threads`
/// workers, each taking the next index, results in slots the caller indexes by i (so they are
/// the same whatever the thread count). Stops taking indices once a call returns false (a failed
/// tile) or opt.cancel is set. `progress`: TileData progress after each tile.
template <class BakeTile>
void bakeTilesOnWorkers(int threads, int total, const BakeOptions& opt, bool progress, const BakeTile& bakeTile) {
  std::atomic<int> next{0};
  std::atomic<bool> stop{false};
  std::mutex progressMutex;
  int done = 0;
  runWorkers(threads, [&]() {
    for (;;) {
      if (stop.load() || (opt.cancel && opt.cancel->load())) return;
      const int i = next.fetch_add(1);
      if (i >= total) return;
      if (!bakeTile(i)) stop.store(true);
      std::lock_guard<std::mutex> lock(progressMutex);
      ++done;
      if (progress) sendProgress(opt, BakeStage::TileData, done, total);
    }
  });
}

/// After bakeTilesOnWorkers: adds the slots' stage times and logs (each line named by
/// tileName(i)) to the report in tile order, then fails the bake (rw.fail) on a cancel or at the
/// first failed slot. Slot: .out (TileOutput) and .failed. True when every tile succeeded.
template <class Slot, class TileName>
bool mergeTileSlots(const std::vector<Slot>& slots, const TileName& tileName, const BakeOptions& opt,
                    ReportWriter& rw) {
  BakeReport& r = rw.r;
  for (size_t i = 0; i < slots.size(); ++i) {
    for (int k = 0; k < BAKE_STAGE_COUNT; ++k) r.stageMs[k] += slots[i].out.stageMs[k];
    for (const std::string& l : slots[i].out.log) r.log.push_back(tileName(int(i)) + ": " + l);
  }
  if (opt.cancel && opt.cancel->load()) {
    r.cancelled = true;
    return rw.fail("cancelled");
  }
  for (size_t i = 0; i < slots.size(); ++i)
    if (slots[i].failed) {
      if (slots[i].out.cancelled) {
        r.cancelled = true;
        return rw.fail("cancelled");
      }
      return rw.fail(tileName(int(i)) + ": " + slots[i].out.error);
    }
  return true;
}

/// A tile's input triangles as Recast takes them: verts [(x, y, z) * n], tris [(a, b, c) * m].
/// `held` (optional) counts the bytes while they are held: release() (or the destructor) frees
/// the arrays and takes `bytes` off it.
struct TileTriangles {
  std::vector<float> verts;
  std::vector<int> tris;
  std::vector<uint8_t> rules; ///< [triCount] the triangles' area rule codes, or empty (no rules)
  std::atomic<long long>* held = nullptr;
  long long bytes = 0;
  TileTriangles() = default;
  TileTriangles(const TileTriangles&) = delete;
  TileTriangles& operator=(const TileTriangles&) = delete;
  ~TileTriangles() { release(); }
  void release() {
    verts = std::vector<float>();
    tris = std::vector<int>();
    rules = std::vector<uint8_t>();
    if (held) held->fetch_sub(bytes);
    held = nullptr;
    bytes = 0;
  }
};

/// Everything a tile build reads; shared read-only by the workers.
struct TileJobContext {
  const BakeInput* input = nullptr;               ///< Volumes (and, unless fetch is set, the triangles).
  const BakeSettings* settings = nullptr;
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0}; ///< Level bounds.
  const TriangleGrid* grid = nullptr;       ///< Tiled, triangles in `input`.
  /// [input->triCount()] what the area rules decided per triangle of `input` (TRI_RULE_NONE,
  /// TRI_RULE_EXCLUDE or an area), or null: no rules. (Triangles fetched bring their own.)
  const uint8_t* triRules = nullptr;
  /// Tiled, triangles elsewhere: fills `out` with the triangles whose xz bounds overlap the closed
  /// rect [qmin, qmax] of tile (tx, ty), in level order. False on a read error (`why`).
  std::function<bool(int tx, int ty, TileTriangles* out, std::string* why)> fetch;
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(BakeStage)> onStage;         ///< Solo progress; may be empty.
};

/// Output of a tile build.
struct TileOutput {
  double stageMs[BAKE_STAGE_COUNT] = {};
  std::vector<std::string> log;
  std::string error;
  bool cancelled = false;
};

/// A tile build's stage clock: next(stage) adds the time since the previous call (or since
/// construction) to the current stage's out->stageMs and starts `stage`. False once *cancel is
/// set: out->cancelled, error "cancelled".
struct TileStages {
  TileOutput* out;
  const std::atomic<bool>* cancel;
  BakeStage current = BakeStage::Prepare;
  Clock::time_point t0 = Clock::now();
  bool next(BakeStage stage) {
    out->stageMs[int(current)] += msSince(t0);
    current = stage;
    t0 = Clock::now();
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      out->cancelled = true;
      out->error = "cancelled";
      return false;
    }
    return true;
  }
};

/// One tile, all the way to a blob. data stays null for an empty tile.
struct TileSlot {
  uint8_t* data = nullptr;
  int dataSize = 0;
  TileOutput out;
  bool failed = false;
  TileSlot() = default;
  TileSlot(const TileSlot&) = delete;
  TileSlot& operator=(const TileSlot&) = delete;
  ~TileSlot() { delete[] data; }
};

/// Recast + nav::buildTileData for tile (tx, ty) into `slot`.
void bakeTileToBlob(const TileJobContext& c, const Baker::OffMeshArrays& off, int tx, int ty, TileSlot* slot);

/// The closed xz rect [qmin, qmax] whose triangles tile (tx, ty) rasterizes: the tile's bounds
/// plus its border (the same float arithmetic the tile build uses).
void tileQueryRect(const float* bmin, const float* bmax, const BakeSettings& s, int tx, int ty, float qmin[2],
                   float qmax[2]);

/// Tile grid over the bounds (rcCalcGridSize then tiles of tileSize cells).
void tileGridFor(const float* bmin, const float* bmax, const BakeSettings& s, int* tilesX, int* tilesY);

/// NavMesh params of a tiled bake over the bounds; false (why) past the ref bits' tile limit.
bool tiledMeshParams(const float* bmin, const BakeSettings& s, int tilesX, int tilesY, NavMeshParams* params,
                     std::string* why);

/// The "input: ..." and "grid: ..." log lines of a bake, appended to report->log; the grid line also
/// goes to report->grid. `layers`: a tile cache layer bake, whose grid line names what its layers
/// are built with (the tile cache's monotone regions, 6-vertex polys, no detail mesh) instead of
/// the partition, which it does not use.
void logInputAndGrid(long long verts, long long tris, const BakeInput& extras, const BakeSettings& s, const float* bmin,
                     const float* bmax, int tilesX, int tilesY, BakeReport* report, bool layers = false);
/// The final "done: ..." log line.
std::string doneLine(const BakeReport& r);
/// "tile (x, y)" or "solo mesh".
std::string tileName(const BakeSettings& s, int tx, int ty);

/// The one place triangle areas are set, for every bake (solo, tiled, file, layers): Recast's
/// slope marking (walkable triangles get RC_WALKABLE_AREA, steep ones RC_NULL_AREA), then the area
/// rules' codes (`rules` [ntris], null: none): a walkable triangle gets its rule's area, an
/// excluded one RC_NULL_AREA (still rasterized: an obstacle, not a floor). With rules the ids are
/// shifted (ground 1, area a: a + 1) so that tagged surfaces win span merges over plain ground:
/// call restoreRuleAreas on the compact heightfield before anything reads areas as areas.
void markTriangleAreas(rcContext* ctx, float walkableSlopeAngle, const float* verts, int nverts, const int* tris,
                       int ntris, const uint8_t* rules, uint8_t* areas);
/// After markTriangleAreas with rules: the shifted ids back (1: RC_WALKABLE_AREA, a + 1: a).
void restoreRuleAreas(rcCompactHeightfield& chf);
/// The rule codes of triangles `ids` of the level (`rules` per level triangle) into *out: its
/// data, or null when `rules` is null.
const uint8_t* gatherRules(const uint8_t* rules, const std::vector<int>& ids, std::vector<uint8_t>* out);

/// A triangle's degenerate test, as BakeInput::validate makes it (zero cross product).
inline bool degenerate(const float* a, const float* b, const float* c) {
  const float e0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const float e1[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const float n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]};
  return n[0] == 0 && n[1] == 0 && n[2] == 0;
}

} // namespace nav::bake::detail
