// CheckDetourTest.cpp: nav_check against Detour 1.5.1 (the oracle), on tile sets Detour made:
//   - islands, counted the same way (filter-passing polys joined by links either way), match an
//     independent flood over dtNavMesh's links, poly count by poly count: the default level's
//     tile set (assets/levels/default.bin) loaded into dtNavMesh here, and Recast bakes of the
//     default and shared levels with random areas, flags and off-mesh links (querytest::loadDual);
//   - every reported detour is reproduced by dtNavMeshQuery findPath + findStraightPath (the same
//     3D straight-path length) and its exact length is not above Detour's.
#include "DualMesh.h"

#include "nav/NavMath.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"
#include "nav/check/NavCheck.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>

using namespace nav::check;

namespace {

/// Poly counts of the islands of a Detour mesh: union-find over the links of polys whose flags
/// pass (include, exclude), sorted descending.
std::vector<int> detourIslandSizes(const dtNavMesh& dt, uint16_t include, uint16_t exclude) {
  std::map<dtPolyRef, dtPolyRef> parent;
  auto passes = [&](dtPolyRef ref) {
    const dtMeshTile* t = nullptr;
    const dtPoly* p = nullptr;
    if (dtStatusFailed(dt.getTileAndPolyByRef(ref, &t, &p))) return false;
    return (p->flags & include) != 0 && (p->flags & exclude) == 0;
  };
  std::function<dtPolyRef(dtPolyRef)> find = [&](dtPolyRef r) {
    dtPolyRef root = r;
    while (parent[root] != root) root = parent[root];
    while (parent[r] != root) {
      const dtPolyRef n = parent[r];
      parent[r] = root;
      r = n;
    }
    return root;
  };
  for (int i = 0; i < dt.getMaxTiles(); ++i) {
    const dtMeshTile* t = dt.getTile(i);
    if (!t || !t->header) continue;
    const dtPolyRef base = dt.getPolyRefBase(t);
    for (int p = 0; p < t->header->polyCount; ++p)
      if (passes(base | dtPolyRef(p))) parent[base | dtPolyRef(p)] = base | dtPolyRef(p);
  }
  for (int i = 0; i < dt.getMaxTiles(); ++i) {
    const dtMeshTile* t = dt.getTile(i);
    if (!t || !t->header) continue;
    const dtPolyRef base = dt.getPolyRefBase(t);
    for (int p = 0; p < t->header->polyCount; ++p) {
      const dtPolyRef a = base | dtPolyRef(p);
      if (!parent.count(a)) continue;
      for (unsigned int l = t->polys[p].firstLink; l != DT_NULL_LINK; l = t->links[l].next) {
        const dtPolyRef b = t->links[l].ref;
        if (!b || !parent.count(b)) continue;
        const dtPolyRef ra = find(a), rb = find(b);
        if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
      }
    }
  }
  std::map<dtPolyRef, int> sizes;
  for (const auto& kv : parent) ++sizes[find(kv.first)];
  std::vector<int> out;
  for (const auto& kv : sizes) out.push_back(kv.second);
  std::sort(out.rbegin(), out.rend());
  return out;
}

std::vector<int> ourIslandSizes(const CheckResult& r) {
  std::vector<int> out;
  for (const Island& i : r.islands) out.push_back(i.polys);
  std::sort(out.rbegin(), out.rend());
  return out;
}

/// RecastDemo's tile-set file into a dtNavMesh (the file's tile blobs, as saved).
dtNavMesh* loadDetourTileSet(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> buf((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (buf.size() < sizeof(nav::TileSetHeader)) return nullptr;
  nav::TileSetHeader h;
  std::memcpy(&h, buf.data(), sizeof(h));
  dtNavMesh* dt = dtAllocNavMesh();
  dtNavMeshParams p;
  std::memcpy(&p, &h.params, sizeof(p));
  if (dtStatusFailed(dt->init(&p))) {
    dtFreeNavMesh(dt);
    return nullptr;
  }
  size_t off = sizeof(h);
  for (int i = 0; i < h.numTiles; ++i) {
    nav::TileSetTileHeader th;
    std::memcpy(&th, buf.data() + off, sizeof(th));
    off += sizeof(th);
    unsigned char* data = static_cast<unsigned char*>(dtAlloc(size_t(th.dataSize), DT_ALLOC_PERM));
    std::memcpy(data, buf.data() + off, size_t(th.dataSize));
    off += size_t(th.dataSize);
    if (dtStatusFailed(dt->addTile(data, th.dataSize, DT_TILE_FREE_DATA, th.tileRef, nullptr))) {
      dtFree(data);
      dtFreeNavMesh(dt);
      return nullptr;
    }
  }
  return dt;
}

CheckResult runOn(const nav::NavMesh& mesh, const nav::QueryFilter& filter, CheckOptions o) {
  CheckResult r;
  std::string why;
  EXPECT_TRUE(nav::statusSucceeded(runChecks(mesh, filter, o, r, &why))) << why;
  return r;
}

/// Every reported detour again with Detour: the same straight path length, the exact length not
/// above Detour's (same metric).
void expectDetoursReproduced(const dtNavMesh& dt, const CheckResult& r, const nav::QueryFilter& filter, int nodeBudget) {
  dtNavMeshQuery* q = dtAllocNavMeshQuery();
  ASSERT_TRUE(dtStatusSucceed(q->init(&dt, nodeBudget)));
  dtQueryFilter f;
  f.setIncludeFlags(filter.getIncludeFlags());
  f.setExcludeFlags(filter.getExcludeFlags());
  std::vector<dtPolyRef> path(2048);
  std::vector<float> pts(2048 * 3);
  std::vector<unsigned char> flags(2048);
  for (const DetourFinding& d : r.detours) {
    int n = 0;
    ASSERT_TRUE(dtStatusSucceed(q->findPath(d.startRef, d.endRef, d.start.data(), d.end.data(), &f, path.data(), &n, 2048)));
    int ns = 0;
    ASSERT_TRUE(dtStatusSucceed(q->findStraightPath(d.start.data(), d.end.data(), path.data(), n, pts.data(), flags.data(),
                                                    nullptr, &ns, 2048)));
    float len3d = 0;
    for (int k = 1; k < ns; ++k) len3d += nav::vdist(&pts[size_t(k - 1) * 3], &pts[size_t(k) * 3]);
    const float metric = nav::straightPathLength(pts.data(), flags.data(), ns);
    EXPECT_NEAR(d.detourLen, len3d, 1e-4f * std::max(1.0f, len3d)) << "pair " << d.pairIndex;
    EXPECT_NEAR(d.detourMetric, metric, 1e-4f * std::max(1.0f, metric)) << "pair " << d.pairIndex;
    EXPECT_LE(d.exactLen, metric * (1 + 1e-5f) + 1e-4f) << "pair " << d.pairIndex;
  }
  dtFreeNavMeshQuery(q);
}

} // namespace

TEST(CheckDetour, IslandsAndDetoursMatchDetourOnTheDefaultTileSet) {
  const std::string path = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";
  nav::NavMesh mesh;
  std::string why;
  ASSERT_TRUE(nav::statusSucceeded(nav::loadTileSetFile(path, mesh, &why))) << why;
  dtNavMesh* dt = loadDetourTileSet(path);
  ASSERT_NE(dt, nullptr);
  for (uint16_t exclude : {uint16_t(0), uint16_t(nav::check::defaultCheckFilter().getIncludeFlags() & 0x1)}) {
    nav::QueryFilter filter = defaultCheckFilter();
    filter.setExcludeFlags(exclude);
    CheckOptions o;
    o.detours = o.budget = false;
    const CheckResult r = runOn(mesh, filter, o);
    EXPECT_EQ(ourIslandSizes(r), detourIslandSizes(*dt, filter.getIncludeFlags(), exclude)) << "exclude " << exclude;
    if (exclude == 0) {
      EXPECT_GE(r.islands.size(), 1u);
    }
  }
  // The reported detours (every pair, with the thresholds at their floor) replay in Detour.
  CheckOptions o;
  o.pairs = 300;
  o.detourRatio = 1.0f;
  o.detourMinExtra = 0.0f;
  const nav::QueryFilter filter = defaultCheckFilter();
  const CheckResult r = runOn(mesh, filter, o);
  EXPECT_GT(r.detours.size(), 250u);
  expectDetoursReproduced(*dt, r, filter, o.nodeBudget);
  dtFreeNavMesh(dt);
}

TEST(CheckDetour, IslandsAndDetoursMatchDetourOnBakedLevels) {
  std::vector<std::string> levels = {querytest::defaultLevel()};
  for (const char* name : {"nav_test.obj", "dungeon.obj", "undulating.obj"}) {
    const std::string p = querytest::sharedLevel(name);
    if (p.empty()) std::printf("%s not found under %s/levels: skipped\n", name, NAVBENCH_SHARED_DIR);
    else levels.push_back(p);
  }
  if (levels.size() == 1) std::printf("../shared/levels is absent: only the default level is checked\n");
  int detoursChecked = 0;
  for (const std::string& level : levels) {
    for (bool tiled : {false, true}) {
      std::string why;
      const querytest::DualMesh* dm = querytest::loadDual(level, tiled, /*randomize=*/true, &why);
      ASSERT_NE(dm, nullptr) << why;
      SCOPED_TRACE(dm->name);
      nav::QueryFilter filter = defaultCheckFilter(); // random flags: some polys fail it
      CheckOptions o;
      o.pairs = 150;
      o.threads = 2;
      o.detourRatio = 1.0f; // report every pair: each is replayed with Detour
      o.detourMinExtra = 0.0f;
      const CheckResult r = runOn(dm->nav, filter, o);
      EXPECT_EQ(ourIslandSizes(r), detourIslandSizes(*dm->dt, filter.getIncludeFlags(), filter.getExcludeFlags()));
      EXPECT_GT(r.pairsRun, 0);
      // Recast's tiles meet cleanly and Detour linked them: no seam is reported (no false alarms).
      EXPECT_TRUE(r.seams.empty()) << r.seams.size() << " seams, first at " << r.seams[0].pos[0] << ", "
                                   << r.seams[0].pos[2];
      expectDetoursReproduced(*dm->dt, r, filter, o.nodeBudget);
      detoursChecked += int(r.detours.size());
    }
  }
  EXPECT_GT(detoursChecked, 100);
}
