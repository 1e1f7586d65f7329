// FuzzObstacleFile.cpp: the obstacle list of `navbench obstacles` (nav/tilecache/ObstacleFile.h).
// A parse either succeeds with well-formed entries (finite numbers in range, positive sizes, boxes
// with max > min, every `remove` naming an earlier obstacle once) or fails with "fuzz:LINE: ..."
// lines and leaves the output untouched; never a crash or sanitizer report.
#include "nav/tilecache/ObstacleFile.h"

#include <cmath>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nav::tilecache;
  ObstacleList list;
  list.obstacleCount = -7;
  std::string why;
  if (!parseObstacles(reinterpret_cast<const char*>(data), size, "fuzz", &list, &why)) {
    if (why.rfind("fuzz:", 0) != 0) __builtin_trap();
    if (list.obstacleCount != -7) __builtin_trap();
    return 0;
  }
  if (int(list.entries.size()) != list.obstacleCount + list.removeCount) __builtin_trap();
  std::vector<char> removed(size_t(list.obstacleCount), 0);
  int obstacles = 0, lastLine = 0;
  for (const ObstacleEntry& e : list.entries) {
    if (e.line <= lastLine) __builtin_trap();
    lastLine = e.line;
    if (e.kind == ObstacleKind::Remove) {
      if (e.obstacle < 0 || e.obstacle >= obstacles || removed[size_t(e.obstacle)]) __builtin_trap();
      removed[size_t(e.obstacle)] = 1;
      continue;
    }
    if (e.obstacle != obstacles++) __builtin_trap();
    for (float v : e.v)
      if (!std::isfinite(v) || std::fabs(v) > OBSTACLE_MAX_COORD) __builtin_trap();
    if (e.kind == ObstacleKind::Cylinder && !(e.v[3] > 0 && e.v[4] > 0)) __builtin_trap();
    if (e.kind == ObstacleKind::Box && !(e.v[3] > e.v[0] && e.v[4] > e.v[1] && e.v[5] > e.v[2])) __builtin_trap();
    if (e.kind == ObstacleKind::OrientedBox && !(e.v[3] > 0 && e.v[4] > 0 && e.v[5] > 0)) __builtin_trap();
  }
  return 0;
}
