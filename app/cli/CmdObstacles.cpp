// navbench obstacles CACHE.tcache OBSTACLES.txt -o NAV.bin [-q]
//
// Opens a tile cache (nav/tilecache/TileCacheFile.h: every layer built into a navmesh), applies
// the obstacle file's lines in order (nav/tilecache/ObstacleFile.h: cylinder, box, obox, remove N)
// through TileCache's request queue and update(), until every touched tile is rebuilt, and writes
// the resulting navmesh as a tile set (MSET, atomically), so `navbench query` and every test-case
// check run on it. Lines are queued in batches of at most MAX_TOUCHED_TILES requests and the cache
// is brought up to date after each batch, so no batch can touch more tiles than the cache's
// update list (TileCache::MAX_UPDATE) holds.
#include "app/cli/Cli.h"
#include "nav/base/Args.h"
#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "nav/tilecache/ObstacleFile.h"
#include "nav/tilecache/TileCacheFile.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace nav::tilecache;

std::string statusText(nav::Status s) {
  char buf[128];
  return nav::statusToString(s, buf, sizeof buf);
}

/// Runs update() until the cache is up to date. False (why) on a failed rebuild or no progress.
bool flush(TileCache& cache, nav::NavMesh& mesh, int* steps, std::string* why) {
  // Each step rebuilds one tile; a batch touches at most MAX_UPDATE tiles, so this bound is generous.
  for (int guard = 0; guard < 16 * TileCache::MAX_UPDATE + 16; ++guard) {
    bool upToDate = false;
    const nav::Status s = cache.update(0, &mesh, &upToDate);
    ++*steps;
    if (nav::statusFailed(s)) {
      *why = "a tile rebuild failed (" + statusText(s) + ")";
      return false;
    }
    if (upToDate) return true;
  }
  *why = "the tile cache did not come up to date";
  return false;
}

int runObstacles(int argc, char** argv) {
  std::string cachePath, obstaclePath, out;
  bool quiet = false;
  base::Args args("navbench obstacles",
                  "Applies obstacles to a tile cache, rebuilds the touched tiles and writes the navmesh.");
  args.positional("CACHE.tcache", &cachePath, "tile cache layers (navbench bake LEVEL --layers -o CACHE.tcache)")
      .positional("OBSTACLES.txt", &obstaclePath,
                  "one a line, applied in order ('#' comments):\n"
                  "  cylinder X Y Z RADIUS HEIGHT\n"
                  "  box MINX MINY MINZ MAXX MAXY MAXZ\n"
                  "  obox CX CY CZ HX HY HZ YAW      (YAW in radians about +y)\n"
                  "  remove N                        (the N-th obstacle line, from 1)")
      .text("-o, --out", "NAV.bin", &out, "the navmesh with the obstacles, as a tile set (MSET)")
      .required("no output file given (-o NAV.bin)")
      .flag("-q, --quiet", &quiet, "only errors");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;

  const auto t0 = std::chrono::steady_clock::now();
  ObstacleList list;
  std::string why;
  if (!loadObstacleFile(obstaclePath, &list, &why)) {
    std::fprintf(stderr, "%s\n", why.c_str());
    std::fprintf(stderr, "navbench obstacles: %s refused, nothing written\n", obstaclePath.c_str());
    return 1;
  }
  OpenTileCache tc;
  nav::Status s = openTileCacheFile(cachePath, list.obstacleCount, &tc, &why);
  if (nav::statusFailed(s)) {
    std::fprintf(stderr, "navbench obstacles: %s\n", why.c_str());
    return 1;
  }
  TileCache& cache = *tc.cache;
  nav::NavMesh& mesh = *tc.mesh;
  const int tilesBefore = mesh.tileCount();
  const auto tOpen = std::chrono::steady_clock::now();

  std::vector<ObstacleRef> refs(size_t(list.obstacleCount), 0);
  int steps = 0, added = 0, removed = 0, inBatch = 0, firstLine = 0;
  std::vector<CompressedTileRef> under(256);
  for (const ObstacleEntry& e : list.entries) {
    const std::string at = obstaclePath + ":" + std::to_string(e.line) + ": ";
    if (inBatch == 0) firstLine = e.line;
    ObstacleRef ref = 0;
    switch (e.kind) {
    case ObstacleKind::Cylinder: s = cache.addObstacle(&e.v[0], e.v[3], e.v[4], &ref); break;
    case ObstacleKind::Box: s = cache.addBoxObstacle(&e.v[0], &e.v[3], &ref); break;
    case ObstacleKind::OrientedBox: s = cache.addBoxObstacle(&e.v[0], &e.v[3], e.v[6], &ref); break;
    case ObstacleKind::Remove: s = cache.removeObstacle(refs[size_t(e.obstacle)]); break;
    }
    if (nav::statusFailed(s)) {
      std::fprintf(stderr, "%sthe tile cache refused the %s (%s); nothing written\n", at.c_str(), obstacleKindName(e.kind),
                   statusText(s).c_str());
      return 1;
    }
    if (e.kind == ObstacleKind::Remove) {
      ++removed;
    } else {
      refs[size_t(e.obstacle)] = ref;
      ++added;
      // DetourTileCache carves an obstacle into its first MAX_TOUCHED_TILES layers only: say so.
      if (const TileCacheObstacle* ob = cache.getObstacleByRef(ref)) {
        float bmin[3], bmax[3];
        cache.getObstacleBounds(ob, bmin, bmax);
        int n = 0;
        cache.queryTiles(bmin, bmax, under.data(), &n, int(under.size()));
        if (n > MAX_TOUCHED_TILES)
          std::fprintf(stderr, "%swarning: the %s covers %d tile layers; only the first %d are carved (DetourTileCache's limit)\n",
                       at.c_str(), obstacleKindName(e.kind), n, MAX_TOUCHED_TILES);
        else if (n == 0 && !quiet)
          std::fprintf(stderr, "%swarning: the %s touches no tile of the cache\n", at.c_str(), obstacleKindName(e.kind));
      }
    }
    if (++inBatch == MAX_TOUCHED_TILES) {
      if (!flush(cache, mesh, &steps, &why)) {
        std::fprintf(stderr, "%s:%d..%d: %s; nothing written\n", obstaclePath.c_str(), firstLine, e.line, why.c_str());
        return 1;
      }
      inBatch = 0;
    }
  }
  if (!flush(cache, mesh, &steps, &why)) {
    std::fprintf(stderr, "%s: %s; nothing written\n", obstaclePath.c_str(), why.c_str());
    return 1;
  }
  const auto tApplied = std::chrono::steady_clock::now();

  if (nav::statusFailed(nav::saveTileSetFile(mesh, out, &why))) {
    std::fprintf(stderr, "navbench obstacles: %s\n", why.c_str());
    return 1;
  }
  if (!quiet) {
    int polys = 0, live = 0;
    for (int i = 0; i < mesh.getMaxTiles(); ++i)
      if (const nav::MeshTile* t = mesh.getTile(i); t && t->header) polys += t->header->polyCount - t->header->offMeshConCount;
    for (int i = 0; i < cache.getObstacleCount(); ++i)
      if (cache.getObstacle(i)->state != OBSTACLE_EMPTY) ++live;
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    int layers = 0;
    for (int i = 0; i < cache.getTileCount(); ++i)
      if (cache.getTile(i)->header) ++layers;
    std::printf("tile cache %s: %d layers in %d x %d tiles (%s), navmesh tiles %d\n", cachePath.c_str(), layers,
                tc.info.bake.tilesX, tc.info.bake.tilesY, compressorName(tc.info.compressor), tilesBefore);
    std::printf("obstacles %s: %d added, %d removed, %d left; %d update steps\n", obstaclePath.c_str(), added, removed, live,
                steps);
    std::printf("navmesh: tiles %d, polys %d\n", mesh.tileCount(), polys);
    std::printf("wrote %s\n", out.c_str());
    std::printf("time: open %.1f ms, obstacles %.1f ms\n", ms(t0, tOpen), ms(tOpen, tApplied));
  }
  return 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(obstacles, "obstacles",
                    "apply obstacles (cylinder, box, obox, remove) to a tile cache (.tcache) and write the navmesh", runObstacles);
