// CaptureExample.cpp: the capture header as a game uses it, in one small program (Detour and
// capture/navbench_capture.h only, C++11). Loads a tile set (.bin) into a dtNavMesh and captures
// path queries between the points given:
//   capture_example MESH.bin OUT.nbcap SX SY SZ EX EY EZ [SX SY SZ EX EY EZ ...]
// One pair: navbench::capturePath (the one call). Several: a navbench::Recorder records each
// (recordPath) and saves them all in one file. The filter costs area 1 (water in NavBench's bakes)
// 10; the node pool holds 2048 nodes. Exit 0 written, 1 not written, 2 bad arguments or mesh.
#include "navbench_capture.h"
#include "tests/support/DetourTileSet.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc < 9 || (argc - 3) % 6 != 0) {
    std::fprintf(stderr, "usage: capture_example MESH.bin OUT.nbcap SX SY SZ EX EY EZ [SX SY SZ EX EY EZ ...]\n");
    return 2;
  }
  dtNavMesh* nav = navtest::loadDetourTileSet(argv[1]);
  if (!nav) {
    std::fprintf(stderr, "capture_example: %s: not a tile set Detour can load\n", argv[1]);
    return 2;
  }
  dtNavMeshQuery* query = dtAllocNavMeshQuery();
  if (!query || dtStatusFailed(query->init(nav, 2048))) {
    std::fprintf(stderr, "capture_example: dtNavMeshQuery::init failed\n");
    return 2;
  }
  dtQueryFilter filter;
  filter.setAreaCost(1, 10.0f);
  const float halfExtents[3] = {2.0f, 4.0f, 2.0f};
  const int pairs = (argc - 3) / 6;
  bool ok = false;
  if (pairs == 1) {
    float p[6];
    for (int k = 0; k < 6; ++k) p[k] = float(std::atof(argv[3 + k]));
    ok = navbench::capturePath(argv[2], *query, filter, p, p + 3, halfExtents, "capture_example");
  } else {
    navbench::Recorder recorder(pairs);
    char note[32];
    for (int i = 0; i < pairs; ++i) {
      float p[6];
      for (int k = 0; k < 6; ++k) p[k] = float(std::atof(argv[3 + 6 * i + k]));
      std::snprintf(note, sizeof note, "capture_example %d", i);
      recorder.recordPath(*query, filter, p, p + 3, halfExtents, note);
    }
    ok = recorder.save(argv[2], *nav);
  }
  if (!ok) std::fprintf(stderr, "capture_example: %s: cannot be written\n", argv[2]);
  else std::printf("%s: %d path quer%s captured\n", argv[2], pairs, pairs == 1 ? "y" : "ies");
  dtFreeNavMeshQuery(query);
  dtFreeNavMesh(nav);
  return ok ? 0 : 1;
}
