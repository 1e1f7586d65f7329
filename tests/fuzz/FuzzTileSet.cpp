// FuzzTileSet.cpp: the tile-set loader (nav/TileSetFile.h, "MSET") from memory. A load either
// succeeds (then the mesh is saved back and reloaded: the round trip must succeed) or fails with
// a message; never a crash or sanitizer report.
#include "nav/TileSetFile.h"

#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nav::NavMesh mesh;
  std::string why;
  const nav::Status s = nav::loadTileSet(data, size, mesh, &why, "fuzz");
  if (nav::statusFailed(s)) {
    if (why.empty()) __builtin_trap(); // a refusal must say why
    return 0;
  }
  std::vector<uint8_t> out;
  if (nav::statusFailed(nav::saveTileSet(mesh, out, &why))) __builtin_trap();
  nav::NavMesh again;
  if (nav::statusFailed(nav::loadTileSet(out.data(), out.size(), again, &why, "resaved"))) __builtin_trap();
  (void)nav::describeTiles(again);
  return 0;
}
