// FuzzTileCacheFile.cpp: the tile cache loader (nav/tilecache/TileCacheFile.h, ".tcache") from
// memory. A load either succeeds or fails with a message, never a crash or sanitizer report. The
// file ends in a CRC-32 that random mutations almost never keep, so the input is also loaded with
// its CRC recomputed, to reach the checks behind it. A loaded file must save back to the same
// bytes, and open into a cache and navmesh (every layer built) that takes an obstacle and updates.
#include "nav/NavMesh.h"
#include "nav/tilecache/TileCacheFile.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

void check(const uint8_t* data, size_t size, const char* name) {
  using namespace nav::tilecache;
  TileCacheFileData d;
  std::string why;
  const nav::Status s = loadTileCache(data, size, &d, &why, name);
  if (nav::statusFailed(s)) {
    if (why.rfind(name, 0) != 0) __builtin_trap(); // a refusal names the source and says why
    return;
  }
  std::vector<uint8_t> out;
  if (nav::statusFailed(saveTileCache(d, out, &why))) __builtin_trap();
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) __builtin_trap(); // one encoding
  OpenTileCache tc;
  if (nav::statusFailed(openTileCache(std::move(d), 4, &tc, &why, name))) {
    if (why.empty()) __builtin_trap();
    return;
  }
  // One obstacle in the middle of the level, then updates until the cache is up to date.
  const TileCacheBakeSummary& b = tc.info.bake;
  const float pos[3] = {0.5f * (b.bmin[0] + b.bmax[0]), b.bmin[1], 0.5f * (b.bmin[2] + b.bmax[2])};
  ObstacleRef ref = 0;
  if (nav::statusFailed(tc.cache->addObstacle(pos, 1.0f, 2.0f, &ref))) return;
  for (int i = 0; i < 200; ++i) {
    bool upToDate = false;
    tc.cache->update(0, tc.mesh.get(), &upToDate);
    if (upToDate) break;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check(data, size, "fuzz");
  if (size >= nav::tilecache::TCACHE_FIXED_BYTES + nav::tilecache::TCACHE_CRC_BYTES) {
    std::vector<uint8_t> fixed(data, data + size);
    const uint32_t crc = nav::tilecache::tcacheCrc32(fixed.data(), size - 4);
    for (int i = 0; i < 4; ++i) fixed[size - 4 + size_t(i)] = uint8_t(crc >> (8 * i));
    check(fixed.data(), fixed.size(), "fuzz-crc");
  }
  return 0;
}
