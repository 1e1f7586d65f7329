// EditBench.cpp: edit-to-new-path latency (issue 19). One cycle is what the viewer does for an edit
// of the volumes and links, minus the drawing: Baker::setVolumesAndLinks, tilesTouching the edit's
// bounds, bakeTiles (2 threads) of just those tiles, replaceTiles into the navmesh in place, then
// the path between two fixed points near the edit recomputed (nearest polys re-found, findPath,
// findStraightPath). Cycles alternate adding and removing the edit, so each one changes the mesh.
//
// Levels: nav_test (../shared/levels; skipped with a message when absent) tiled 32 cells at
// RecastDemo's defaults (cell size 0.3), and a generated world (app/cli/WorldGen, seed 1, 2 km by
// default) tiled 32 cells at cell size 0.5: at 0.3 a 2 km world needs 209 x 209 tiles, more than
// the 16384 32-bit poly refs allow (0.49 is the smallest cell size that fits); a 32-cell tile is
// the same 42 x 42 voxels (tile + border of 5 cells) at either cell size. Edits: a water volume of
// 3 m x 2 m (cost 10, so the path goes round it) and a 4 m off-mesh link, both in one tile.
// The edit site is found, not hard-coded: the tile nearest the level's centre whose middle is an
// open flat patch (all probe points over the mesh at one height, the path between the end points
// straight and complete).
//
// `edit/<level>/<kind>_3agents`: the same edit on three agent types (small r 0.3 h 1, the level's
// own, large r 1.2 h 3; nav/bake/Agents.h), each with its own baker and mesh: per type its items,
// tilesTouching with its border, bakeTiles, replaceTiles; the cycle is the sum (no path).
// Per level and edit kind: p50 / p95 / max of the cycle (Google Benchmark counters p50_ms, p95_ms,
// tiles; the time column is the mean), then tables. Per level also the one-time costs: reading the
// level, Baker::setInput (paid once per level in the viewer; `once/<level>/setInput` times it on a
// fresh baker, with the first re-bake after it, which builds the triangle index) and the whole
// bake the mesh comes from; and `tiles/<level>/every_tile`: every non-empty tile re-baked alone,
// so the cost of a one-tile edit anywhere, not only at the site, is known.
//
//   edit_bench [--reps N] [--world-size M] [--world-cs CS] [--world-tile CELLS] [--no-world] [--smoke]
//              [google benchmark flags]
//   --reps N: cycles per level and edit (default 200); --world-*: the world's size (2000 m), cell
//   size (0.5) and tile size (32 cells); --smoke: 6 cycles on a 256 m world (the ctest run).
// The world's OBJ is written beside the binary (world_<M>_1.obj) and reused when present.
#include "BakeTestUtil.h"

#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"
#include "nav/QueryFilter.h"
#include "nav/bake/Agents.h"
#include "nav/bake/Bake.h"
#ifdef NAVBENCH_HAVE_WORLDGEN
#include "app/cli/WorldGen.h"
#endif

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace nav;
using namespace nav::bake;

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

constexpr int MAX_PATH = 1024;
constexpr int MAX_STRAIGHT = 256;
constexpr int MAX_NODES = 4096;                 // the viewer's NavState pool
const float SNAP_EXTENTS[3] = {2.0f, 4.0f, 2.0f}; // the viewer's NavState::extents

/// Where the edits go: the middle of one tile, an open flat patch.
struct Site {
  TileCoord tile;
  float c[3] = {0, 0, 0};                    ///< Centre (on the mesh).
  float a[3] = {0, 0, 0}, b[3] = {0, 0, 0};  ///< Path ends, 4 m either side of c on x.
  ConvexVolume volume;                       ///< 3 m x 2 m of water round c.
  OffMeshLink link;                          ///< 4 m along z through c.
};

struct EditLevel {
  std::string name;    ///< "nav_test", "world_2000"
  std::string label;   ///< For the table: "nav_test, tile 32, cs 0.3".
  BakeSettings settings;
  BakeInput base;      ///< Volumes and links of the level itself (kept by every cycle).
  Baker baker;
  std::unique_ptr<NavMesh> mesh;
  NavMeshQuery query;
  QueryFilter filter;
  Site site;
  long long tris = 0;
  int tilesX = 0, tilesY = 0, meshTiles = 0;
  double readMs = 0, setInputMs = 0, wholeBakeMs = 0, genMs = -1;
  double firstRebakeMs = -1; ///< The site's tile re-baked right after setInput (builds the triangle index).
  std::string objPath;
  /// Three agent types on the level (edit/<level>/<kind>_3agents), made on first use: each with its
  /// own baker and whole-level mesh.
  struct Agent {
    std::string name;
    BakeSettings settings;
    Baker baker;
    std::unique_ptr<NavMesh> mesh;
  };
  std::vector<std::unique_ptr<Agent>> agents;
  double agentsBakeMs = 0; ///< The three whole bakes (not timed by the benchmark).
};

enum class EditKind { Volume, Link };
const char* kindName(EditKind k) { return k == EditKind::Volume ? "volume" : "link"; }

/// One cycle's timings [ms].
struct Cycle {
  double total = 0, prepare = 0, bake = 0, swap = 0, path = 0;
  int tiles = 0;
  float pathLength = 0; ///< Straight path length [wu]
};

struct Result {
  std::string level, label, kind;
  int n = 0, tiles = 0;
  double p50 = 0, p95 = 0, max = 0, bakeP50 = 0, swapP50 = 0, pathP50 = 0, prepareP50 = 0;
  float lenWithout = 0, lenWith = 0;
};
std::vector<Result> g_results;
std::vector<std::unique_ptr<EditLevel>> g_levels;

double percentile(std::vector<double> v, double p) { // nearest rank
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t rank = size_t(std::ceil(p / 100.0 * double(v.size())));
  return v[std::min(v.size(), std::max<size_t>(rank, 1)) - 1];
}


/// The path a -> b on the current mesh, as the viewer's tester recomputes it: nearest polys, then
/// findPath and findStraightPath. Returns the straight path's length, or -1 when it is not
/// complete.
float pathLength(EditLevel& lv, const float* a, const float* b) {
  PolyRef sref = 0, eref = 0;
  float sp[3], ep[3];
  lv.query.findNearestPoly(a, SNAP_EXTENTS, &lv.filter, &sref, sp);
  lv.query.findNearestPoly(b, SNAP_EXTENTS, &lv.filter, &eref, ep);
  if (!sref || !eref) return -1;
  PolyRef path[MAX_PATH];
  int n = 0;
  const Status st = lv.query.findPath(sref, eref, sp, ep, &lv.filter, path, &n, MAX_PATH);
  if (statusFailed(st) || (st & PARTIAL_RESULT) || n == 0) return -1;
  float straight[MAX_STRAIGHT * 3];
  int ns = 0;
  if (statusFailed(lv.query.findStraightPath(sp, ep, path, n, straight, nullptr, nullptr, &ns, MAX_STRAIGHT)) || ns < 2)
    return -1;
  float len = 0;
  for (int i = 1; i < ns; ++i) {
    const float* p = straight + 3 * (i - 1);
    const float* q = straight + 3 * i;
    len += std::sqrt((q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]) + (q[2] - p[2]) * (q[2] - p[2]));
  }
  return len;
}

/// True when (x, z) lies over the mesh within 0.25 wu of height y; *outY gets the height there.
bool overMeshAt(EditLevel& lv, float x, float y, float z, float* outY) {
  const float p[3] = {x, y, z}, ext[3] = {0.05f, 0.5f, 0.05f};
  PolyRef ref = 0;
  float q[3];
  bool over = false;
  lv.query.findNearestPoly(p, ext, &lv.filter, &ref, q, &over);
  if (!ref || !over || std::fabs(q[1] - y) > 0.25f) return false;
  if (outY) *outY = q[1];
  return true;
}

/// Tries the middle of tile (tx, ty) as the edit site.
bool trySite(EditLevel& lv, int tx, int ty, Site* out) {
  const NavMeshParams& mp = lv.mesh->getParams();
  float bmin[3], bmax[3];
  lv.baker.bounds(bmin, bmax);
  const float cx = mp.orig[0] + (float(tx) + 0.5f) * mp.tileWidth, cz = mp.orig[2] + (float(ty) + 0.5f) * mp.tileHeight;
  const float probe[3] = {cx, 0.5f * (bmin[1] + bmax[1]), cz};
  const float ext[3] = {0.5f, 0.5f * (bmax[1] - bmin[1]) + 1.0f, 0.5f};
  PolyRef ref = 0;
  float c[3];
  bool over = false;
  lv.query.findNearestPoly(probe, ext, &lv.filter, &ref, c, &over);
  if (!ref || !over) return false;
  // Flat and open: path ends, volume corners (with 1 m to spare round it), link ends.
  const float offsets[][2] = {{-4, 0}, {4, 0}, {0, 0}, {-2.5f, -2}, {2.5f, -2}, {2.5f, 2}, {-2.5f, 2}, {-1.5f, -1}, {1.5f, 1},
                              {0, -2}, {0, 2}, {-2.5f, 0}, {2.5f, 0}};
  for (const auto& o : offsets)
    if (!overMeshAt(lv, cx + o[0], c[1], cz + o[1], nullptr)) return false;
  Site s;
  s.tile = {tx, ty};
  s.c[0] = cx;
  s.c[1] = c[1];
  s.c[2] = cz;
  s.a[0] = cx - 4.0f;
  s.b[0] = cx + 4.0f;
  s.a[2] = s.b[2] = cz;
  overMeshAt(lv, s.a[0], c[1], s.a[2], &s.a[1]);
  overMeshAt(lv, s.b[0], c[1], s.b[2], &s.b[1]);
  const float len = pathLength(lv, s.a, s.b);
  if (len < 0 || len > 8.2f) return false; // a straight, complete path
  s.volume.verts = {cx - 1.5f, c[1], cz - 1.0f, cx + 1.5f, c[1], cz - 1.0f, cx + 1.5f, c[1], cz + 1.0f, cx - 1.5f, c[1], cz + 1.0f};
  s.volume.hmin = c[1] - 0.5f;
  s.volume.hmax = c[1] + 1.5f;
  s.volume.area = AREA_WATER;
  s.link.start[0] = s.link.end[0] = cx;
  s.link.start[2] = cz - 2.0f;
  s.link.end[2] = cz + 2.0f;
  overMeshAt(lv, cx, c[1], cz - 2.0f, &s.link.start[1]);
  overMeshAt(lv, cx, c[1], cz + 2.0f, &s.link.end[1]);
  *out = std::move(s);
  return true;
}

/// The site: tiles by distance from the level's centre tile, the first that fits.
bool findSite(EditLevel& lv, std::string* why) {
  float bmin[3], bmax[3];
  lv.baker.bounds(bmin, bmax);
  int ctx = 0, cty = 0;
  const float centre[3] = {0.5f * (bmin[0] + bmax[0]), 0, 0.5f * (bmin[2] + bmax[2])};
  lv.mesh->calcTileLoc(centre, &ctx, &cty);
  std::vector<std::pair<int, TileCoord>> order;
  for (int y = 0; y < lv.tilesY; ++y)
    for (int x = 0; x < lv.tilesX; ++x) {
      const int d = (x - ctx) * (x - ctx) + (y - cty) * (y - cty);
      if (d <= 30 * 30) order.push_back({d, {x, y}});
    }
  std::sort(order.begin(), order.end(), [](const auto& p, const auto& q) { return p.first != q.first ? p.first < q.first : p.second < q.second; });
  for (const auto& [d, t] : order)
    if (trySite(lv, t.x, t.y, &lv.site)) return true;
  *why = lv.name + ": no tile near the centre has an open flat patch for the edits";
  return false;
}

/// The level's volumes and links with the edit of `kind` when `present`, and the edit's bounds.
void editedItems(const EditLevel& lv, EditKind kind, bool present, std::vector<ConvexVolume>* volumes,
                 std::vector<OffMeshLink>* links, float* bmin, float* bmax) {
  *volumes = lv.base.volumes;
  *links = lv.base.links;
  if (kind == EditKind::Volume) {
    editBounds(lv.site.volume, bmin, bmax);
    if (present) volumes->push_back(lv.site.volume);
  } else {
    editBounds(lv.site.link, bmin, bmax);
    if (present) links->push_back(lv.site.link);
  }
}

/// One edit cycle: `present` says whether the edit is in the level after it.
bool cycle(EditLevel& lv, EditKind kind, bool present, Cycle* out, std::string* why) {
  std::vector<ConvexVolume> volumes;
  std::vector<OffMeshLink> links;
  float bmin[3], bmax[3];
  editedItems(lv, kind, present, &volumes, &links, bmin, bmax);
  const Clock::time_point t0 = Clock::now();
  if (!lv.baker.setVolumesAndLinks(std::move(volumes), std::move(links), why)) return false;
  std::vector<TileCoord> tiles;
  lv.baker.tilesTouching(lv.settings, bmin, bmax, &tiles);
  const Clock::time_point t1 = Clock::now();
  std::vector<RebakedTile> blobs;
  BakeOptions opt;
  opt.threads = 2;
  BakeReport report;
  if (!lv.baker.bakeTiles(lv.settings, tiles, opt, &blobs, &report)) {
    *why = "bakeTiles: " + report.error;
    return false;
  }
  const Clock::time_point t2 = Clock::now();
  if (!replaceTiles(*lv.mesh, blobs, why)) return false;
  const Clock::time_point t3 = Clock::now();
  const float len = pathLength(lv, lv.site.a, lv.site.b);
  const Clock::time_point t4 = Clock::now();
  if (len < 0) {
    *why = "no complete path between the fixed points after the edit";
    return false;
  }
  auto ms = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  out->prepare = ms(t0, t1);
  out->bake = ms(t1, t2);
  out->swap = ms(t2, t3);
  out->path = ms(t3, t4);
  out->total = ms(t0, t4);
  out->tiles = int(tiles.size());
  out->pathLength = len;
  return true;
}

/// The blobs bakeTiles makes for the edit's tiles with and without the edit differ (so every cycle
/// rebakes for real). Leaves the baker without the edit.
bool editChangesTiles(EditLevel& lv, EditKind kind, int* tileCount, std::string* why) {
  float bmin[3], bmax[3];
  if (kind == EditKind::Volume) editBounds(lv.site.volume, bmin, bmax);
  else editBounds(lv.site.link, bmin, bmax);
  std::vector<TileCoord> tiles;
  lv.baker.tilesTouching(lv.settings, bmin, bmax, &tiles);
  *tileCount = int(tiles.size());
  std::vector<std::vector<uint8_t>> bytes[2];
  for (int with = 1; with >= 0; --with) {
    std::vector<ConvexVolume> volumes = lv.base.volumes;
    std::vector<OffMeshLink> links = lv.base.links;
    if (with && kind == EditKind::Volume) volumes.push_back(lv.site.volume);
    if (with && kind == EditKind::Link) links.push_back(lv.site.link);
    if (!lv.baker.setVolumesAndLinks(std::move(volumes), std::move(links), why)) return false;
    std::vector<RebakedTile> blobs;
    BakeReport report;
    if (!lv.baker.bakeTiles(lv.settings, tiles, BakeOptions(), &blobs, &report)) {
      *why = "bakeTiles: " + report.error;
      return false;
    }
    for (const RebakedTile& t : blobs) bytes[with].emplace_back(t.data, t.data + t.dataSize);
  }
  if (bytes[0] == bytes[1]) {
    *why = std::string("the ") + kindName(kind) + " edit does not change the tiles it touches";
    return false;
  }
  return true;
}

int g_reps = 200;

void benchEdit(benchmark::State& state, EditLevel* lv, EditKind kind) {
  std::string why;
  int tileCount = 0;
  if (!editChangesTiles(*lv, kind, &tileCount, &why)) return state.SkipWithError(why.c_str());
  // Path lengths without and with the edit (and a first cycle each way, not timed).
  Cycle c;
  if (!cycle(*lv, kind, true, &c, &why)) return state.SkipWithError(why.c_str());
  const float lenWith = c.pathLength;
  if (!cycle(*lv, kind, false, &c, &why)) return state.SkipWithError(why.c_str());
  const float lenWithout = c.pathLength;

  std::vector<double> total, prepare, bake, swap, path;
  bool present = false;
  for (auto _ : state) {
    present = !present;
    if (!cycle(*lv, kind, present, &c, &why)) return state.SkipWithError(why.c_str());
    state.SetIterationTime(c.total / 1000.0);
    total.push_back(c.total);
    prepare.push_back(c.prepare);
    bake.push_back(c.bake);
    swap.push_back(c.swap);
    path.push_back(c.path);
  }
  if (present && !cycle(*lv, kind, false, &c, &why)) return state.SkipWithError(why.c_str()); // leave the level as found

  Result r;
  r.level = lv->name;
  r.label = lv->label;
  r.kind = kindName(kind);
  r.n = int(total.size());
  r.tiles = c.tiles;
  r.p50 = percentile(total, 50);
  r.p95 = percentile(total, 95);
  r.max = percentile(total, 100);
  r.prepareP50 = percentile(prepare, 50);
  r.bakeP50 = percentile(bake, 50);
  r.swapP50 = percentile(swap, 50);
  r.pathP50 = percentile(path, 50);
  r.lenWithout = lenWithout;
  r.lenWith = lenWith;
  state.counters["p50_ms"] = r.p50;
  state.counters["p95_ms"] = r.p95;
  state.counters["max_ms"] = r.max;
  state.counters["tiles"] = r.tiles;
  state.counters["bake_p50_ms"] = r.bakeP50;
  state.counters["path_p50_ms"] = r.pathP50;
  g_results.push_back(r);
}

/// The level's three agent types (small, the level's own, large; nav/bake/Agents.h), each set into
/// its own baker from the level's input and baked whole on 2 threads.
bool prepareAgents(EditLevel& lv, std::string* why) {
  if (!lv.agents.empty()) return true;
  BakeInput in;
  BakeSettings ignored;
  if (!baketest::loadLevel(lv.objPath, &in, &ignored, why)) return false;
  const Clock::time_point t0 = Clock::now();
  for (const AgentType& type : baketest::threeAgentTypes(lv.settings)) {
    auto ag = std::make_unique<EditLevel::Agent>();
    ag->name = type.name;
    ag->settings = type.settings;
    BakeInput mine = in; // (the level's volumes and links apply to every type)
    if (!ag->baker.setInput(std::move(mine), why)) return false;
    BakeOptions opt;
    opt.threads = 2;
    BakeReport r;
    if (!ag->baker.bake(ag->settings, opt, &r)) {
      *why = lv.name + " (" + ag->name + "): whole bake: " + r.error;
      return false;
    }
    ag->mesh = ag->baker.releaseNavMesh();
    lv.agents.push_back(std::move(ag));
  }
  lv.agentsBakeMs = msSince(t0);
  std::fprintf(stderr, "%s: three agent types baked whole in %.0f ms (2 threads)\n", lv.name.c_str(), lv.agentsBakeMs);
  return true;
}

/// Re-bakes the edit's tiles of agent type `a` (its items from itemsForAgent, tilesTouching with
/// its settings, bakeTiles on `threads`, replaceTiles); *tiles gets how many.
bool rebakeAgent(EditLevel& lv, size_t a, const std::vector<ConvexVolume>& volumes, const std::vector<OffMeshLink>& links,
                 const float* bmin, const float* bmax, int threads, int* tiles, std::string* why) {
  EditLevel::Agent& ag = *lv.agents[a];
  std::vector<ConvexVolume> v;
  std::vector<OffMeshLink> l;
  itemsForAgent(volumes, links, int(a), &v, &l);
  if (!ag.baker.setVolumesAndLinks(std::move(v), std::move(l), why)) return false;
  std::vector<TileCoord> touched;
  ag.baker.tilesTouching(ag.settings, bmin, bmax, &touched);
  std::vector<RebakedTile> blobs;
  BakeOptions opt;
  opt.threads = threads;
  BakeReport report;
  if (!ag.baker.bakeTiles(ag.settings, touched, opt, &blobs, &report)) {
    *why = ag.name + ": bakeTiles: " + report.error;
    return false;
  }
  *tiles = int(touched.size());
  return replaceTiles(*ag.mesh, blobs, why);
}

/// One edit cycle on every agent type, one type after the other (each its own baker and mesh;
/// bakeTiles on 2 threads; no path). (The types on 2 threads, one each, was slower on the 2 shared
/// cores: the second thread waits for a core.)
bool agentsCycle(EditLevel& lv, EditKind kind, bool present, Cycle* out, std::string* why) {
  std::vector<ConvexVolume> volumes;
  std::vector<OffMeshLink> links;
  float bmin[3], bmax[3];
  editedItems(lv, kind, present, &volumes, &links, bmin, bmax);
  const Clock::time_point t0 = Clock::now();
  out->tiles = 0;
  for (size_t a = 0; a < lv.agents.size(); ++a) {
    int tiles = 0;
    if (!rebakeAgent(lv, a, volumes, links, bmin, bmax, 2, &tiles, why)) return false;
    out->tiles += tiles;
  }
  out->total = msSince(t0);
  return true;
}

void benchEditAgents(benchmark::State& state, EditLevel* lv, EditKind kind) {
  std::string why;
  if (!prepareAgents(*lv, &why)) return state.SkipWithError(why.c_str());
  Cycle c;
  std::vector<double> total;
  bool present = false;
  for (auto _ : state) {
    present = !present;
    if (!agentsCycle(*lv, kind, present, &c, &why)) return state.SkipWithError(why.c_str());
    state.SetIterationTime(c.total / 1000.0);
    total.push_back(c.total);
  }
  if (present && !agentsCycle(*lv, kind, false, &c, &why)) return state.SkipWithError(why.c_str());
  Result r;
  r.level = lv->name;
  r.label = lv->label;
  r.kind = std::string(kindName(kind)) + ", 3 agent types";
  r.n = int(total.size());
  r.tiles = c.tiles;
  r.p50 = percentile(total, 50);
  r.p95 = percentile(total, 95);
  r.max = percentile(total, 100);
  r.bakeP50 = -1; // (the table's per-stage columns are for the one-type cycle)
  state.counters["p50_ms"] = r.p50;
  state.counters["p95_ms"] = r.p95;
  state.counters["max_ms"] = r.max;
  state.counters["tiles"] = r.tiles;
  g_results.push_back(r);
}

/// Baker::setInput on a copy of the level's input (the copy is not timed), then the first re-bake
/// of the site's tile on that baker (it builds the triangle index the tiles are gathered with: the
/// first edit after opening a baked .bin pays it; a whole bake builds it too).
void benchSetInput(benchmark::State& state, EditLevel* lv) {
  std::vector<double> first;
  for (auto _ : state) {
    BakeInput in = lv->baker.input();
    Baker b;
    std::string why;
    Clock::time_point t0 = Clock::now();
    if (!b.setInput(std::move(in), &why)) return state.SkipWithError(why.c_str());
    state.SetIterationTime(msSince(t0) / 1000.0);
    std::vector<RebakedTile> blobs;
    BakeOptions opt;
    opt.threads = 2;
    BakeReport report;
    t0 = Clock::now();
    if (!b.bakeTiles(lv->settings, {lv->site.tile}, opt, &blobs, &report)) return state.SkipWithError(report.error.c_str());
    first.push_back(msSince(t0));
  }
  lv->firstRebakeMs = percentile(first, 50);
  state.counters["tris"] = double(lv->tris);
  state.counters["first_rebake_ms"] = lv->firstRebakeMs;
}

/// Every non-empty tile of the level re-baked alone (bakeTiles, 1 thread, no edit): how much a
/// one-tile edit anywhere costs, not only at the site.
struct TileSweep {
  std::string label;
  int tiles = 0;
  double p50 = 0, p95 = 0, max = 0;
  TileCoord slowest;
};
std::vector<TileSweep> g_sweeps;

void benchEveryTile(benchmark::State& state, EditLevel* lv) {
  std::vector<double> ms;
  TileCoord slowest;
  double slowestMs = -1;
  for (auto _ : state) {
    ms.clear();
    double sum = 0;
    for (int y = 0; y < lv->tilesY; ++y)
      for (int x = 0; x < lv->tilesX; ++x) {
        const MeshTile* t = lv->mesh->getTileAt(x, y, 0);
        if (!t || !t->header) continue;
        std::vector<RebakedTile> blobs;
        BakeOptions opt;
        opt.threads = 1;
        BakeReport report;
        const Clock::time_point t0 = Clock::now();
        if (!lv->baker.bakeTiles(lv->settings, {{x, y}}, opt, &blobs, &report)) return state.SkipWithError(report.error.c_str());
        const double d = msSince(t0);
        ms.push_back(d);
        sum += d;
        if (d > slowestMs) {
          slowestMs = d;
          slowest = {x, y};
        }
      }
    state.SetIterationTime(sum / 1000.0);
  }
  TileSweep sw;
  sw.label = lv->label;
  sw.tiles = int(ms.size());
  sw.p50 = percentile(ms, 50);
  sw.p95 = percentile(ms, 95);
  sw.max = percentile(ms, 100);
  sw.slowest = slowest;
  state.counters["tiles"] = sw.tiles;
  state.counters["p50_ms"] = sw.p50;
  state.counters["p95_ms"] = sw.p95;
  state.counters["max_ms"] = sw.max;
  g_sweeps.push_back(sw);
}

/// Reads the level, sets it into the baker (timed: the viewer's one-time cost), bakes it whole and
/// finds the edit site.
bool prepare(EditLevel& lv, std::string* why) {
  Clock::time_point t0 = Clock::now();
  BakeInput in;
  BakeSettings ignored;
  if (!baketest::loadLevel(lv.objPath, &in, &ignored, why)) return false;
  lv.readMs = msSince(t0);
  lv.base.volumes = in.volumes;
  lv.base.links = in.links;
  lv.tris = in.triCount();
  t0 = Clock::now();
  if (!lv.baker.setInput(std::move(in), why)) return false;
  lv.setInputMs = msSince(t0);
  lv.baker.tileGrid(lv.settings, &lv.tilesX, &lv.tilesY);
  BakeOptions opt;
  opt.threads = 2;
  BakeReport r;
  t0 = Clock::now();
  if (!lv.baker.bake(lv.settings, opt, &r)) {
    *why = lv.name + ": whole bake: " + r.error;
    return false;
  }
  lv.wholeBakeMs = msSince(t0);
  lv.meshTiles = r.tileCount;
  lv.mesh = lv.baker.releaseNavMesh();
  applyDefaultAreaCosts(lv.filter); // the viewer's filter (NavState)
  lv.filter.setIncludeFlags(FLAG_ALL ^ FLAG_DISABLED);
  lv.filter.setExcludeFlags(0);
  if (statusFailed(lv.query.init(lv.mesh.get(), MAX_NODES))) {
    *why = lv.name + ": query init failed";
    return false;
  }
  if (!findSite(lv, why)) return false;
  std::fprintf(stderr,
               "%s: %lld tris, read %.0f ms, setInput %.2f ms, whole bake (2 threads) %.0f ms, grid %d x %d, %d tiles; "
               "edit site tile (%d, %d) at (%.1f, %.1f, %.1f)\n",
               lv.name.c_str(), lv.tris, lv.readMs, lv.setInputMs, lv.wholeBakeMs, lv.tilesX, lv.tilesY, lv.meshTiles,
               lv.site.tile.x, lv.site.tile.y, double(lv.site.c[0]), double(lv.site.c[1]), double(lv.site.c[2]));
  return true;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

void printTable() {
  if (g_results.empty()) return;
  std::printf("\nEdit to new path, ms (cycle = setVolumesAndLinks + tilesTouching + bakeTiles, 2 threads + replaceTiles + "
              "nearest polys + findPath + findStraightPath)\n");
  std::printf("| level | edit | tiles | cycles | p50 | p95 | max | bake p50 | swap p50 | path p50 | path m, without / with |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Result& r : g_results) {
    if (r.bakeP50 < 0) { // three agent types: the re-bake and swap of each type's tiles, no path
      std::printf("| %s | %s | %d | %d | %.2f | %.2f | %.2f | - | - | - | - |\n", r.label.c_str(), r.kind.c_str(), r.tiles, r.n,
                  r.p50, r.p95, r.max);
      continue;
    }
    std::printf("| %s | %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %.3f | %.3f | %.1f / %.1f |\n", r.label.c_str(), r.kind.c_str(),
                r.tiles, r.n, r.p50, r.p95, r.max, r.bakeP50, r.swapP50, r.pathP50, double(r.lenWithout), double(r.lenWith));
  }
  std::printf("\nOne-time costs per level, ms\n");
  std::printf("| level | triangles | read level | Baker::setInput | first re-bake after it | whole bake, 2 threads | tiles |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const auto& lv : g_levels)
    std::printf("| %s | %lld | %s | %.2f | %s | %.0f | %d |\n", lv->label.c_str(), lv->tris,
                (fmt("%.0f", lv->readMs) + (lv->genMs >= 0 ? " (+ " + fmt("%.0f", lv->genMs) + " generating)" : "")).c_str(),
                lv->setInputMs, lv->firstRebakeMs >= 0 ? fmt("%.2f", lv->firstRebakeMs).c_str() : "-", lv->wholeBakeMs,
                lv->meshTiles);
  if (g_sweeps.empty()) return;
  std::printf("\nEvery tile re-baked alone (bakeTiles, 1 thread, no edit), ms\n");
  std::printf("| level | tiles | p50 | p95 | max | slowest tile |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const TileSweep& sw : g_sweeps)
    std::printf("| %s | %d | %.2f | %.2f | %.2f | (%d, %d) |\n", sw.label.c_str(), sw.tiles, sw.p50, sw.p95, sw.max, sw.slowest.x,
                sw.slowest.y);
}

} // namespace

int main(int argc, char** argv) {
  bool smoke = false, world = true;
  int worldSize = 2000;
  float worldCs = 0.5f;
  int worldTile = 32;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) g_reps = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--world-size") && i + 1 < argc) worldSize = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--world-cs") && i + 1 < argc) worldCs = std::strtof(argv[++i], nullptr);
    else if (!std::strcmp(argv[i], "--world-tile") && i + 1 < argc) worldTile = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-world")) world = false;
    else if (!std::strcmp(argv[i], "--smoke")) smoke = true;
    else args.push_back(argv[i]);
  }
  if (smoke) {
    g_reps = 6;
    worldSize = 256;
  }
  {
    std::ifstream la("/proc/loadavg");
    std::string l1;
    if (la >> l1) std::fprintf(stderr, "load average %s\n", l1.c_str());
  }

  const std::string navTest = baketest::sharedLevelsDir() + "/nav_test.obj";
  if (baketest::fileExists(navTest)) {
    auto lv = std::make_unique<EditLevel>();
    lv->name = "nav_test";
    lv->label = "nav_test, tile 32, cs 0.3";
    lv->objPath = navTest;
    lv->settings = BakeSettings(); // RecastDemo's defaults: tiled, 32 cells, cell size 0.3
    g_levels.push_back(std::move(lv));
  } else {
    std::fprintf(stderr, "skipping nav_test: shared levels not found at %s\n", baketest::sharedLevelsDir().c_str());
  }
  if (world) {
#ifdef NAVBENCH_HAVE_WORLDGEN
    auto lv = std::make_unique<EditLevel>();
    lv->name = "world_" + std::to_string(worldSize);
    lv->label = (worldSize % 1000 == 0 ? std::to_string(worldSize / 1000) + " km" : std::to_string(worldSize) + " m") +
                " world, tile " + std::to_string(worldTile) + ", cs " + fmt("%.2g", double(worldCs));
    lv->objPath = std::string(NAVBENCH_EDIT_TMP) + "/world_" + std::to_string(worldSize) + "_1.obj";
    lv->settings = BakeSettings();
    lv->settings.cellSize = worldCs;
    lv->settings.tileSize = worldTile;
    if (!baketest::fileExists(lv->objPath)) { // written atomically: present means complete
      navbench::worldgen::WorldParams p;
      p.size = float(worldSize);
      p.seed = 1;
      std::string why;
      const Clock::time_point t0 = Clock::now();
      if (!navbench::worldgen::writeWorldObj(p, lv->objPath, nullptr, &why)) {
        std::fprintf(stderr, "edit_bench: %s\n", why.c_str());
        return 1;
      }
      lv->genMs = msSince(t0);
    }
    g_levels.push_back(std::move(lv));
#else
    std::fprintf(stderr, "skipping the generated world: built without app/cli/WorldGen\n");
#endif
  }
  for (auto& lv : g_levels) {
    std::string why;
    if (!prepare(*lv, &why)) {
      std::fprintf(stderr, "edit_bench: %s\n", why.c_str());
      return 1;
    }
  }

  for (auto& lv : g_levels) {
    for (EditKind k : {EditKind::Volume, EditKind::Link})
      benchmark::RegisterBenchmark(("edit/" + lv->name + "/" + kindName(k)).c_str(), benchEdit, lv.get(), k)
          ->Iterations(g_reps)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    for (EditKind k : {EditKind::Volume, EditKind::Link})
      benchmark::RegisterBenchmark(("edit/" + lv->name + "/" + kindName(k) + "_3agents").c_str(), benchEditAgents, lv.get(), k)
          ->Iterations(g_reps)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("once/" + lv->name + "/setInput").c_str(), benchSetInput, lv.get())
        ->Iterations(smoke ? 1 : 3)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("tiles/" + lv->name + "/every_tile").c_str(), benchEveryTile, lv.get())
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
  int bargc = int(args.size());
  benchmark::Initialize(&bargc, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  printTable();
  return 0;
}
