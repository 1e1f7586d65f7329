// Soak.cpp: `fuzz_soak [N] [LEVEL...]`: N random queries (default 1,000,000) with random filters on
// each level, baked tiled (OBJ or level JSON via loadBakeInput; a .bin tile set is loaded as is).
// Default levels: assets/levels/default.bin and the shared levels when present. Prints RSS before
// and after the queries (after a warm-up of N/10 queries, so first-touch allocations are not
// counted) and fails when RSS grew by more than 4 MiB. Meant for the sanitizer build; ctest runs a
// small count (label fuzz), the full million is run by hand.
#include "nav/NavMeshQuery.h"
#include "nav/PathFollow.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"
#include "nav/bake/Bake.h"
#include "nav/bake/LevelFile.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

long rssKiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

std::mt19937 rng(8);
float frand() { return std::uniform_real_distribution<float>(0.0f, 0.9999f)(rng); }

struct Soaker {
  const nav::NavMesh& mesh;
  nav::NavMeshQuery q;
  nav::ShortestPath opt;
  std::vector<nav::PolyRef> refs;
  float bmin[3] = {1e30f, 1e30f, 1e30f}, bmax[3] = {-1e30f, -1e30f, -1e30f};
  std::vector<nav::PolyRef> path = std::vector<nav::PolyRef>(2048);
  std::vector<nav::PolyRef> refs2 = std::vector<nav::PolyRef>(2048);
  std::vector<float> pts = std::vector<float>(2048 * 3);
  std::vector<float> costs = std::vector<float>(2048);
  std::vector<uint8_t> flags = std::vector<uint8_t>(2048);

  explicit Soaker(const nav::NavMesh& m) : mesh(m) {
    for (int i = 0; i < m.getMaxTiles(); ++i) {
      const nav::MeshTile* t = m.getTile(i);
      if (!t->header) continue;
      for (int p = 0; p < t->header->polyCount; ++p) refs.push_back(m.getPolyRefBase(t) | nav::PolyRef(p));
      for (int k = 0; k < 3; ++k)
        bmin[k] = std::min(bmin[k], t->header->bmin[k]), bmax[k] = std::max(bmax[k], t->header->bmax[k]);
    }
    if (nav::statusFailed(q.init(&mesh, 2048)) || nav::statusFailed(opt.init(&mesh, 8192))) std::abort();
  }
  nav::PolyRef ref() {
    const uint32_t r = rng();
    if (r % 16 == 0) return rng(); // garbage
    if (r % 16 == 1) return 0;
    return refs[r / 16 % refs.size()];
  }
  void pos(float* p) {
    for (int k = 0; k < 3; ++k) p[k] = bmin[k] + (bmax[k] - bmin[k]) * frand();
  }
  void one() {
    nav::QueryFilter f;
    f.setIncludeFlags(uint16_t(rng() % 4 == 0 ? rng() : 0xffff));
    f.setExcludeFlags(uint16_t(rng() % 4 == 0 ? rng() : 0));
    for (int i = 0; i < 4; ++i) f.setAreaCost(int(rng() % nav::MAX_AREAS), 0.5f + 4.0f * frand());
    float a[3], b[3], out[3], out2[3];
    pos(a), pos(b);
    int n = 0, m = 0;
    const int cap = 1 + int(rng() % 2048);
    switch (rng() % 10) {
    case 0: {
      const float ext[3] = {2, 4, 2};
      nav::PolyRef r = 0;
      (void)q.findNearestPoly(a, ext, &f, &r, out);
      break;
    }
    case 1:
    case 2: {
      const nav::PolyRef s = ref();
      (void)q.findPath(s, ref(), a, b, &f, path.data(), &n, cap, rng() % 4 == 0 ? nav::FINDPATH_ANY_ANGLE : 0);
      (void)q.findStraightPath(a, b, path.data(), n, pts.data(), flags.data(), refs2.data(), &m, cap, int(rng() % 3));
      if (rng() % 8 == 0) {
        nav::PathFollower pf;
        if (nav::statusSucceeded(pf.init(&q, &f, s, a, b, path.data(), n)))
          for (int k = 0; k < 4096 && pf.step(); ++k) {
          }
      }
      break;
    }
    case 3: {
      float t = 0;
      (void)q.raycast(ref(), a, b, &f, &t, out, path.data(), &n, cap);
      break;
    }
    case 4:
      (void)q.moveAlongSurface(ref(), a, b, &f, out, path.data(), &n, std::min(cap, 64));
      break;
    case 5:
      (void)q.findPolysAroundCircle(ref(), a, 10 * frand(), &f, path.data(), refs2.data(), costs.data(), &n, cap);
      break;
    case 6: {
      float d = 0;
      (void)q.findDistanceToWall(ref(), a, 10 * frand(), &f, &d, out, out2);
      break;
    }
    case 7: {
      nav::PolyRef r = 0;
      (void)q.findRandomPoint(&f, &frand, &r, out);
      (void)q.findRandomPointAroundCircle(ref(), a, 10 * frand(), &f, &frand, &r, out);
      break;
    }
    case 8:
      (void)q.findLocalNeighbourhood(ref(), a, 5 * frand(), &f, path.data(), refs2.data(), &n, std::min(cap, 64));
      (void)q.getPolyWallSegments(ref(), &f, pts.data(), refs2.data(), &n, std::min(cap, 256));
      break;
    case 9:
      if (rng() % 16 == 0) // the exact search is the slowest: a few
        (void)opt.findPath(ref(), ref(), a, b, &f, pts.data(), flags.data(), refs2.data(), &n, cap);
      break;
    }
  }
};

bool loadLevel(const std::string& path, std::unique_ptr<nav::NavMesh>& mesh, nav::bake::Baker& baker) {
  std::string why;
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".bin") == 0) {
    mesh = std::make_unique<nav::NavMesh>();
    if (nav::statusFailed(nav::loadTileSetFile(path, *mesh, &why))) {
      std::fprintf(stderr, "%s\n", why.c_str());
      return false;
    }
    return true;
  }
  nav::bake::BakeInput input;
  nav::bake::BakeSettings settings;
  if (!nav::bake::loadBakeInput(path, &input, &settings, &why) || !baker.setInput(std::move(input), &why)) {
    std::fprintf(stderr, "%s\n", why.c_str());
    return false;
  }
  settings.tiled = true;
  nav::bake::BakeReport report;
  if (!baker.bake(settings, nav::bake::BakeOptions(), &report)) {
    std::fprintf(stderr, "%s: bake failed: %s\n", path.c_str(), report.error.c_str());
    return false;
  }
  mesh = baker.releaseNavMesh();
  return true;
}

} // namespace

int main(int argc, char** argv) {
  const long count = argc > 1 ? std::atol(argv[1]) : 1000000;
  std::vector<std::string> levels;
  for (int i = 2; i < argc; ++i) levels.push_back(argv[i]);
  if (levels.empty()) {
    levels.push_back(NAVBENCH_SOURCE_DIR "/assets/levels/default.bin");
    for (const char* l : {"nav_test.obj", "dungeon.obj", "undulating.obj"}) {
      const std::string p = std::string(NAVBENCH_SHARED_DIR) + "/levels/" + l;
      if (std::ifstream(p)) levels.push_back(p);
      else std::printf("%s: absent, skipped\n", p.c_str());
    }
  }
  int failures = 0;
  for (const std::string& level : levels) {
    std::unique_ptr<nav::NavMesh> mesh;
    nav::bake::Baker baker;
    if (!loadLevel(level, mesh, baker)) return 2;
    Soaker s(*mesh);
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < count / 10; ++i) s.one();
    const long before = rssKiB();
    for (long i = 0; i < count; ++i) s.one();
    const long after = rssKiB();
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const bool flat = after - before <= 4096;
    std::printf("%s: %zu polys, %ld queries (+%ld warm-up) in %.1f s, RSS %ld KiB -> %ld KiB (%+ld KiB) %s\n",
                level.c_str(), s.refs.size(), count, count / 10, sec, before, after, after - before,
                flat ? "flat" : "GREW");
    std::fflush(stdout);
    failures += flat ? 0 : 1;
  }
  return failures ? 1 : 0;
}
