#include "DualMesh.h"

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

struct OffMesh {
  std::vector<float> verts, rad;
  std::vector<uint16_t> flags;
  std::vector<uint8_t> areas, dir;
  std::vector<uint32_t> ids;
};
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
  OffMesh om;
  if (randomize) {
    std::vector<float> centres;
    for (const auto& t : level.tiles)
      for (int p = 0; p < t.npolys; ++p) {
        float c[3] = {0, 0, 0};
        int nv = 0;
        for (int k = 0; k < t.nvp; ++k) {
          const uint16_t vi = t.polys[size_t(p) * 2 * t.nvp + k];
          if (vi == 0xffff) break;
          c[0] += t.bmin[0] + t.verts[vi * 3 + 0] * t.cs;
          c[1] += t.bmin[1] + t.verts[vi * 3 + 1] * t.ch;
          c[2] += t.bmin[2] + t.verts[vi * 3 + 2] * t.cs;
          ++nv;
        }
        for (float& v : c) v /= float(nv);
        centres.insert(centres.end(), c, c + 3);
      }
    const int ncent = int(centres.size() / 3);
    for (int tries = 0; tries < 2000 && om.rad.size() < 24; ++tries) {
      const float* a = &centres[size_t(irand(ncent)) * 3];
      const float* b = &centres[size_t(irand(ncent)) * 3];
      const float dx = b[0] - a[0], dz = b[2] - a[2];
      const float d2 = dx * dx + dz * dz;
      if (d2 < 4.0f || d2 > 144.0f) continue;
      om.verts.insert(om.verts.end(), a, a + 3);
      om.verts.insert(om.verts.end(), b, b + 3);
      om.rad.push_back(0.6f);
      om.flags.push_back(navtest::FLAG_JUMP);
      om.areas.push_back(navtest::AREA_JUMP);
      om.dir.push_back(uint8_t(irand(2)));
      om.ids.push_back(uint32_t(1000 + om.rad.size()));
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
    dtNavMeshCreateParams p;
    std::memset(&p, 0, sizeof(p));
    p.verts = t.verts.data();
    p.vertCount = t.nverts;
    p.polys = t.polys.data();
    p.polyAreas = t.areas.data();
    p.polyFlags = t.flags.data();
    p.polyCount = t.npolys;
    p.nvp = t.nvp;
    p.detailMeshes = t.dmeshes.data();
    p.detailVerts = t.dverts.data();
    p.detailVertsCount = t.ndverts;
    p.detailTris = t.dtris.data();
    p.detailTriCount = t.ndtris;
    if (!om.rad.empty()) {
      p.offMeshConVerts = om.verts.data();
      p.offMeshConRad = om.rad.data();
      p.offMeshConDir = om.dir.data();
      p.offMeshConAreas = om.areas.data();
      p.offMeshConFlags = om.flags.data();
      p.offMeshConUserID = om.ids.data();
      p.offMeshConCount = int(om.rad.size());
    }
    p.walkableHeight = bs.agentHeight;
    p.walkableRadius = bs.agentRadius;
    p.walkableClimb = bs.agentMaxClimb;
    p.tileX = t.tx;
    p.tileY = t.ty;
    p.tileLayer = 0;
    std::memcpy(p.bmin, t.bmin, sizeof(p.bmin));
    std::memcpy(p.bmax, t.bmax, sizeof(p.bmax));
    p.cs = t.cs;
    p.ch = t.ch;
    p.buildBvTree = true;
    unsigned char* data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&p, &data, &size)) {
      if (why) *why = "dtCreateNavMeshData failed";
      return nullptr;
    }
    dm->blobs.push_back({t.tx, t.ty, std::vector<uint8_t>(data, data + size)});
    dtFree(data);
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
