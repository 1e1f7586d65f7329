#include "DualMesh.h"

#include "tests/support/DetourTile.h"
#include "tests/support/RecastPolyMesh.h"

#include <DetourAlloc.h>
#include <DetourNavMeshBuilder.h>

#include <cstring>
#include <fstream>
#include <map>

namespace querytest {

namespace {
uint64_t g_rng = 0x9E3779B97F4A7C15ull;
uint64_t next() {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}
bool fileExists(const std::string& p) { return std::ifstream(p).good(); }
} // namespace

void seedRandom(uint64_t seed) {
  g_rng = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  if (!g_rng) g_rng = 1;
  for (int i = 0; i < 4; ++i) next();
}
float frand() { return float(next() >> 40) / float(1 << 24); }
int irand(int n) { return n <= 0 ? 0 : int(next() % uint64_t(n)); }

std::string sharedLevel(const char* file) {
  const std::string p = std::string(NAVBENCH_SHARED_DIR) + "/levels/" + file;
  return fileExists(p) ? p : std::string();
}
std::string defaultLevel() { return std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.obj"; }
std::string levelPath(const std::string& file) { return file == "default" ? defaultLevel() : sharedLevel(file.c_str()); }
std::string sharedLevelMissing(const std::string& file) {
  return "shared levels not found at " + std::string(NAVBENCH_SHARED_DIR) + "/levels (level " + file + ")";
}

bool initQueries(const DualMesh& mesh, dtNavMeshQuery* dq, nav::NavMeshQuery& nq, int nodes) {
  return dq && dtStatusSucceed(dq->init(mesh.dt, nodes)) && nav::statusSucceeded(nq.init(&mesh.nav, nodes));
}

void randomFilter(Filters& f, bool plain) {
  f.dt = dtQueryFilter();
  f.nav = nav::QueryFilter();
  if (plain) return;
  static const uint16_t incs[] = {0xffff, 0xffff, 0x0f, 0x09, 0x0d, 0x03};
  static const uint16_t excs[] = {0, 0, 0x10, 0x02, 0x04, 0x08};
  const uint16_t inc = incs[irand(6)], exc = excs[irand(6)];
  f.dt.setIncludeFlags(inc);
  f.dt.setExcludeFlags(exc);
  f.nav.setIncludeFlags(inc);
  f.nav.setExcludeFlags(exc);
  for (int a = 0; a < 6; ++a) {
    const float c = irand(3) == 0 ? 1.0f : 1.0f + frand() * 9.0f;
    f.dt.setAreaCost(a, c);
    f.nav.setAreaCost(a, c);
  }
}

DualMesh::~DualMesh() {
  if (dt) dtFreeNavMesh(dt);
}

const DualMesh* loadDual(const std::string& objPath, bool tiled, bool randomize, std::string* why, float cellSize,
                         const std::string& seedKey) {
  static std::map<std::string, std::unique_ptr<DualMesh>> cache;
  const std::string key = objPath + (tiled ? "#tiled" : "#solo") + (randomize ? "#rnd" : "") +
                          (cellSize > 0 ? "#cs" + std::to_string(cellSize) : std::string()) +
                          (seedKey.empty() ? std::string() : "#seed=" + seedKey);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second.get();

  navtest::TriMesh tm;
  if (!navtest::loadObj(objPath, tm, why)) return nullptr;
  navtest::BakeSettings bs;
  if (cellSize > 0) bs.cs = cellSize;
  navtest::BakedLevel level;
  const bool ok = tiled ? navtest::bakeTiled(tm, bs, level, why) : navtest::bakeSolo(tm, bs, level, why);
  if (!ok) return nullptr;
  if (level.tiles.empty()) {
    if (why) *why = "bake produced no tiles";
    return nullptr;
  }

  auto dm = std::make_unique<DualMesh>();
  dm->tiled = tiled;
  {
    std::string base = objPath.substr(objPath.find_last_of('/') + 1);
    dm->name = base + (tiled ? "/tiled" : "/solo") + (cellSize > 0 ? "/cs" + std::to_string(cellSize).substr(0, 4) : "");
  }
  std::memcpy(dm->bmin, tm.bmin, sizeof(dm->bmin));
  std::memcpy(dm->bmax, tm.bmax, sizeof(dm->bmax));

  // Seeded by the level's name, not its path, so every clone tests the same random data.
  seedRandom(std::hash<std::string>()(seedKey.empty() ? dm->name + (randomize ? "#rnd" : "") : seedKey));
  // Random off-mesh connections between polygon centres 2..12 wu apart.
  navtest::OffMeshArrays om;
  if (randomize) {
    std::vector<float> centres;
    for (const auto& t : level.tiles)
      for (int p = 0; p < t.npolys; ++p) {
        float c[3];
        navtest::bakedPolyCenter(t, p, c);
        centres.insert(centres.end(), c, c + 3);
      }
    const int ncent = int(centres.size() / 3);
    for (int tries = 0; tries < 2000 && om.count() < 24; ++tries) {
      const float* a = &centres[size_t(irand(ncent)) * 3];
      const float* b = &centres[size_t(irand(ncent)) * 3];
      const float dx = b[0] - a[0], dz = b[2] - a[2];
      const float d2 = dx * dx + dz * dz;
      if (d2 < 4.0f || d2 > 144.0f) continue;
      const uint8_t bidir = uint8_t(irand(2));
      om.add(a, b, 0.6f, navtest::FLAG_JUMP, navtest::AREA_JUMP, bidir, uint32_t(1000 + om.count() + 1));
    }
  }

  dm->params.orig[0] = level.orig[0];
  dm->params.orig[1] = level.orig[1];
  dm->params.orig[2] = level.orig[2];
  dm->params.tileWidth = level.tileWidth;
  dm->params.tileHeight = level.tileHeight;
  dm->params.maxTiles = level.maxTiles;
  dm->params.maxPolys = level.maxPolys;

  for (const auto& t : level.tiles) {
    std::vector<uint8_t> blob = navtest::detourBuild(navtest::bakedTileParams(t, bs, &om));
    if (blob.empty()) {
      if (why) *why = "dtCreateNavMeshData failed";
      return nullptr;
    }
    dm->blobs.push_back({t.tx, t.ty, std::move(blob)});
  }

  // Detour.
  dm->dt = dtAllocNavMesh();
  nav::NavMeshParams np;
  std::memcpy(&np, &dm->params, sizeof(np));
  if (!tiled) {
    auto& b = dm->blobs[0];
    unsigned char* d = static_cast<unsigned char*>(dtAlloc(b.bytes.size(), DT_ALLOC_PERM));
    std::memcpy(d, b.bytes.data(), b.bytes.size());
    if (dtStatusFailed(dm->dt->init(d, int(b.bytes.size()), DT_TILE_FREE_DATA))) {
      if (why) *why = "dtNavMesh::init failed";
      return nullptr;
    }
    uint8_t* d2 = new uint8_t[b.bytes.size()];
    std::memcpy(d2, b.bytes.data(), b.bytes.size());
    std::string w;
    if (nav::statusFailed(dm->nav.init(d2, int(b.bytes.size()), nav::TILE_FREE_DATA, &w))) {
      delete[] d2;
      if (why) *why = "nav::NavMesh::init failed: " + w;
      return nullptr;
    }
  } else {
    if (dtStatusFailed(dm->dt->init(&dm->params))) {
      if (why) *why = "dtNavMesh::init(params) failed";
      return nullptr;
    }
    std::string w;
    if (nav::statusFailed(dm->nav.init(np, &w))) {
      if (why) *why = "nav::NavMesh::init failed: " + w;
      return nullptr;
    }
    for (auto& b : dm->blobs) {
      unsigned char* d = static_cast<unsigned char*>(dtAlloc(b.bytes.size(), DT_ALLOC_PERM));
      std::memcpy(d, b.bytes.data(), b.bytes.size());
      if (dtStatusFailed(dm->dt->addTile(d, int(b.bytes.size()), DT_TILE_FREE_DATA, 0, nullptr))) {
        dtFree(d);
        if (why) *why = "dtNavMesh::addTile failed";
        return nullptr;
      }
      uint8_t* d2 = new uint8_t[b.bytes.size()];
      std::memcpy(d2, b.bytes.data(), b.bytes.size());
      if (nav::statusFailed(dm->nav.addTile(d2, int(b.bytes.size()), nav::TILE_FREE_DATA, 0, nullptr, &w))) {
        delete[] d2;
        if (why) *why = "nav::NavMesh::addTile failed: " + w;
        return nullptr;
      }
    }
  }

  // Random areas and flags on ground polygons, identical in both meshes.
  const dtNavMesh* cdt = dm->dt;
  for (int i = 0; i < cdt->getMaxTiles(); ++i) {
    const dtMeshTile* tile = cdt->getTile(i);
    if (!tile || !tile->header) continue;
    const dtPolyRef base = cdt->getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p) {
      if (tile->polys[p].getType() == DT_POLYTYPE_OFFMESH_CONNECTION) {
        ++dm->offMeshCount;
        continue;
      }
      if (!randomize) continue;
      const dtPolyRef ref = base | dtPolyRef(p);
      const int r = irand(100);
      uint8_t area = navtest::AREA_GROUND;
      uint16_t flags = navtest::FLAG_WALK;
      if (r < 8) { area = navtest::AREA_WATER; flags = navtest::FLAG_SWIM; }
      else if (r < 16) { area = navtest::AREA_ROAD; flags = navtest::FLAG_WALK; }
      else if (r < 20) { area = navtest::AREA_DOOR; flags = navtest::FLAG_WALK | navtest::FLAG_DOOR; }
      else if (r < 28) { area = navtest::AREA_GRASS; flags = navtest::FLAG_WALK; }
      else if (r < 30) { flags = navtest::FLAG_WALK | navtest::FLAG_DISABLED; }
      dm->dt->setPolyArea(ref, area);
      dm->dt->setPolyFlags(ref, flags);
      dm->nav.setPolyArea(ref, area);
      dm->nav.setPolyFlags(ref, flags);
    }
  }

  DualMesh* out = dm.get();
  cache[key] = std::move(dm);
  return out;
}

} // namespace querytest
