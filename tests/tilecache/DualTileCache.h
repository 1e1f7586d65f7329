// DualTileCache.h: test and benchmark support. One level's Recast layers (LayerTestUtil.h) fed to
// nav::tilecache::TileCache over a nav::NavMesh and to Debian's dtTileCache over a dtNavMesh, the
// same blobs on both sides (one compressor, ours, reached by Detour through an adapter) and the same
// mesh process (ours, reached the same way), so whatever differs is the tile cache itself.
#pragma once

#include "tests/nav/DetourBridge.h"
#include "tests/tilecache/LayerTestUtil.h"

#include "nav/NavMesh.h"
#include "nav/tilecache/Lz4Compressor.h"
#include "nav/tilecache/TileCache.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>

#include <cstring>
#include <string>
#include <vector>

namespace tctest {

/// Detour reaching our compressor (the status bits have the same values).
struct DtCompressorAdapter : dtTileCacheCompressor {
  DtCompressorAdapter() = default;
  explicit DtCompressorAdapter(nav::tilecache::TileCacheCompressor* c) : inner(c) {}
  nav::tilecache::TileCacheCompressor* inner = nullptr;
  int maxCompressedSize(const int bufferSize) override { return inner->maxCompressedSize(bufferSize); }
  dtStatus compress(const unsigned char* buffer, const int bufferSize, unsigned char* compressed,
                    const int maxCompressedSize, int* compressedSize) override {
    return inner->compress(buffer, bufferSize, compressed, maxCompressedSize, compressedSize);
  }
  dtStatus decompress(const unsigned char* compressed, const int compressedSize, unsigned char* buffer,
                      const int maxBufferSize, int* bufferSize) override {
    return inner->decompress(compressed, compressedSize, buffer, maxBufferSize, bufferSize);
  }
};

/// Detour reaching our mesh process: its create params as TileBuildParams (no detail mesh there,
/// as in dtTileCache::buildNavMeshTile), and the off-mesh connections the process sets handed back.
struct DtMeshProcessAdapter : dtTileCacheMeshProcess {
  nav::tilecache::TileCacheMeshProcess* inner = nullptr;
  void process(dtNavMeshCreateParams* p, unsigned char* polyAreas, unsigned short* polyFlags) override {
    nav::TileBuildParams q;
    navtest::copyTileParams(q, *p);
    inner->process(&q, polyAreas, polyFlags);
    p->offMeshConVerts = q.offMeshConVerts;
    p->offMeshConRad = q.offMeshConRad;
    p->offMeshConFlags = q.offMeshConFlags;
    p->offMeshConAreas = q.offMeshConAreas;
    p->offMeshConDir = q.offMeshConDir;
    p->offMeshConUserID = q.offMeshConUserID;
    p->offMeshConCount = q.offMeshConCount;
  }
};

/// Detour's scratch, the same strategy as TileCacheArena (RecastDemo's LinearAllocator, but grown
/// at reset() to the largest use seen instead of failing): bump allocation, free() a no-op.
class DtGrowingArena : public dtTileCacheAlloc {
public:
  ~DtGrowingArena() override {
    dtFree(m_block);
    for (void* p : m_overflow) dtFree(p);
  }
  void reset() override {
    const size_t used = m_top + m_overflowBytes;
    if (used > m_high) m_high = used;
    for (void* p : m_overflow) dtFree(p);
    m_overflow.clear();
    m_overflowBytes = 0;
    m_top = 0;
    if (m_high > m_cap) {
      dtFree(m_block);
      m_cap = m_high;
      m_block = static_cast<unsigned char*>(dtAlloc(m_cap, DT_ALLOC_PERM));
    }
  }
  void* alloc(const size_t size) override {
    const size_t sz = (size + 15) & ~size_t(15);
    if (m_block && m_top + sz <= m_cap) {
      void* p = m_block + m_top;
      m_top += sz;
      return p;
    }
    void* p = dtAlloc(sz, DT_ALLOC_TEMP);
    m_overflow.push_back(p);
    m_overflowBytes += sz;
    return p;
  }
  void free(void*) override {}

private:
  unsigned char* m_block = nullptr;
  size_t m_cap = 0, m_top = 0, m_high = 0, m_overflowBytes = 0;
  std::vector<void*> m_overflow;
};

/// The level's off-mesh links as TileBuildParams arrays.
struct LevelLinks {
  std::vector<float> verts, radii;
  std::vector<uint16_t> flags;
  std::vector<uint8_t> areas, dirs;
  std::vector<uint32_t> userIds;
  int count() const { return int(radii.size()); }
};

inline bool loadLevelLinks(const std::string& path, LevelLinks* out, std::string* why) {
  nav::bake::BakeInput in;
  nav::bake::BakeSettings s;
  if (!nav::bake::loadBakeInput(path, &in, &s, why)) return false;
  *out = LevelLinks();
  for (size_t i = 0; i < in.links.size(); ++i) {
    const nav::bake::OffMeshLink& l = in.links[i];
    out->verts.insert(out->verts.end(), l.start, l.start + 3);
    out->verts.insert(out->verts.end(), l.end, l.end + 3);
    out->radii.push_back(l.radius);
    out->flags.push_back(l.flags);
    out->areas.push_back(l.area);
    out->dirs.push_back(l.bidirectional ? 1 : 0);
    out->userIds.push_back(l.userId ? l.userId : uint32_t(1000 + i));
  }
  return true;
}

// Written apart from nav's bit tricks on purpose: this side stands for RecastDemo's sizing.
inline unsigned int nextPow2u(unsigned int v) {
  unsigned int p = 1;
  while (p < v) p <<= 1;
  return p;
}
inline unsigned int ilog2u(unsigned int v) {
  unsigned int r = 0;
  while (v >>= 1) ++r;
  return r;
}

/// Both tile caches over their navmeshes, every layer added and built.
struct DualCache {
  nav::tilecache::Lz4Compressor comp;
  DtCompressorAdapter dtComp;
  nav::tilecache::DefaultMeshProcess proc;
  DtMeshProcessAdapter dtProc;
  DtGrowingArena dtArena;
  nav::tilecache::TileCache ours;
  dtTileCache* theirs = nullptr;
  nav::NavMesh navOurs;
  dtNavMesh* navTheirs = nullptr;
  nav::tilecache::TileCacheParams params{};
  nav::NavMeshParams meshParams{};

  DualCache() {
    dtComp.inner = &comp;
    dtProc.inner = &proc;
    theirs = dtAllocTileCache();
    navTheirs = dtAllocNavMesh();
  }
  ~DualCache() {
    dtFreeTileCache(theirs);
    dtFreeNavMesh(navTheirs);
  }
  DualCache(const DualCache&) = delete;
  DualCache& operator=(const DualCache&) = delete;

  /// RecastDemo's TempObstacles sizes (4 layers expected per tile column, 22 bits of tile + poly
  /// index), our blobs checked equal to Detour's, each side owning its copy; every tile built.
  bool init(const LayerLevel& lev, const LevelLinks* links, int maxObstacles, std::string* why) {
    if (links && links->count() > 0)
      proc.setOffMeshConnections(links->verts.data(), links->radii.data(), links->flags.data(), links->areas.data(),
                                 links->dirs.data(), links->userIds.data(), links->count());
    const int columns = lev.tilesW * lev.tilesH;
    int maxTiles = columns * 4;
    if (maxTiles < int(lev.layers.size())) maxTiles = int(lev.layers.size());
    std::memset(&params, 0, sizeof params);
    std::memcpy(params.orig, lev.orig, sizeof params.orig);
    params.cs = lev.cs;
    params.ch = lev.ch;
    params.width = lev.tileSize;
    params.height = lev.tileSize;
    navtest::setAgent(params, lev.walkableHeight, lev.walkableRadius, lev.walkableClimb);
    params.maxSimplificationError = lev.maxSimplificationError;
    params.maxTiles = maxTiles;
    params.maxObstacles = maxObstacles;

    unsigned int tileBits = ilog2u(nextPow2u(unsigned(maxTiles)));
    if (tileBits > 14) tileBits = 14;
    const unsigned int polyBits = 22 - tileBits;
    std::memset(&meshParams, 0, sizeof meshParams);
    std::memcpy(meshParams.orig, lev.orig, sizeof meshParams.orig);
    meshParams.tileWidth = float(lev.tileSize) * lev.cs;
    meshParams.tileHeight = float(lev.tileSize) * lev.cs;
    meshParams.maxTiles = 1 << tileBits;
    meshParams.maxPolys = 1 << polyBits;

    if (nav::statusFailed(ours.init(params, &comp, &proc))) return fail(why, "TileCache::init failed");
    dtTileCacheParams dp;
    static_assert(sizeof dp == sizeof params, "TileCacheParams layout");
    std::memcpy(&dp, &params, sizeof dp);
    if (dtStatusFailed(theirs->init(&dp, &dtArena, &dtComp, &dtProc))) return fail(why, "dtTileCache::init failed");
    if (nav::statusFailed(navOurs.init(meshParams, why))) return false;
    dtNavMeshParams dmp;
    std::memcpy(&dmp, &meshParams, sizeof dmp);
    if (dtStatusFailed(navTheirs->init(&dmp))) return fail(why, "dtNavMesh::init failed");

    for (const RecastLayer& l : lev.layers) {
      dtTileCacheLayerHeader dh = l.header;
      unsigned char* dData = nullptr;
      int dSize = 0;
      if (dtStatusFailed(dtBuildTileCacheLayer(&dtComp, &dh, l.heights.data(), l.areas.data(), l.cons.data(), &dData,
                                               &dSize)))
        return fail(why, "dtBuildTileCacheLayer failed");
      nav::tilecache::TileCacheLayerHeader nh;
      std::memcpy(&nh, &l.header, sizeof nh);
      uint8_t* nData = nullptr;
      int nSize = 0;
      if (nav::statusFailed(nav::tilecache::buildTileCacheLayer(&comp, &nh, l.heights.data(), l.areas.data(),
                                                                l.cons.data(), &nData, &nSize))) {
        dtFree(dData);
        return fail(why, "buildTileCacheLayer failed");
      }
      const bool same = nSize == dSize && std::memcmp(nData, dData, size_t(nSize)) == 0;
      const nav::Status ns = ours.addTile(nData, nSize, nav::tilecache::COMPRESSEDTILE_FREE_DATA, nullptr);
      if (nav::statusFailed(ns)) delete[] nData;
      const dtStatus ds = theirs->addTile(dData, dSize, DT_COMPRESSEDTILE_FREE_DATA, nullptr);
      if (dtStatusFailed(ds)) dtFree(dData);
      if (!same) return fail(why, "layer blob (" + std::to_string(l.header.tx) + ", " + std::to_string(l.header.ty) +
                                      ", " + std::to_string(l.header.tlayer) + ") differs from Detour's");
      if (ns != ds) return fail(why, "addTile status differs: " + std::to_string(ns) + " vs " + std::to_string(ds));
      if (nav::statusFailed(ns)) return fail(why, "addTile failed");
    }
    for (int ty = 0; ty < lev.tilesH; ++ty)
      for (int tx = 0; tx < lev.tilesW; ++tx) {
        const nav::Status ns = ours.buildNavMeshTilesAt(tx, ty, &navOurs);
        const dtStatus ds = theirs->buildNavMeshTilesAt(tx, ty, navTheirs);
        if (ns != ds)
          return fail(why, "buildNavMeshTilesAt(" + std::to_string(tx) + ", " + std::to_string(ty) +
                               ") status " + std::to_string(ns) + " vs " + std::to_string(ds));
      }
    return true;
  }

  /// "" when both caches and navmeshes agree: every navmesh slot (salt, bytes, links: see
  /// navtest::compareMeshes), every layer slot's salt and occupancy, every obstacle slot (salt,
  /// state, type, touched and pending tiles in order).
  std::string compare() const {
    std::string d = navtest::compareMeshes(navOurs, *navTheirs);
    if (!d.empty()) return "navmesh: " + d;
    for (int i = 0; i < ours.getTileCount(); ++i) {
      const nav::tilecache::CompressedTile* a = ours.getTile(i);
      const dtCompressedTile* b = theirs->getTile(i);
      if (a->salt != b->salt || (a->header != nullptr) != (b->header != nullptr))
        return "layer slot " + std::to_string(i) + " differs";
    }
    for (int i = 0; i < ours.getObstacleCount(); ++i) {
      const nav::tilecache::TileCacheObstacle* a = ours.getObstacle(i);
      const dtTileCacheObstacle* b = theirs->getObstacle(i);
      const std::string at = "obstacle slot " + std::to_string(i) + ": ";
      if (a->salt != b->salt) return at + "salt " + std::to_string(a->salt) + " vs " + std::to_string(b->salt);
      if (a->state != b->state) return at + "state " + std::to_string(a->state) + " vs " + std::to_string(b->state);
      if (a->state == nav::tilecache::OBSTACLE_EMPTY) continue;
      if (a->type != b->type) return at + "type differs";
      if (a->ntouched != b->ntouched)
        return at + "touches " + std::to_string(a->ntouched) + " tiles vs " + std::to_string(b->ntouched);
      for (int j = 0; j < a->ntouched; ++j)
        if (a->touched[j] != b->touched[j]) return at + "touched tile #" + std::to_string(j) + " differs";
      if (a->npending != b->npending) return at + "pending count differs";
      for (int j = 0; j < a->npending; ++j)
        if (a->pending[j] != b->pending[j]) return at + "pending tile #" + std::to_string(j) + " differs";
    }
    return "";
  }

private:
  static bool fail(std::string* why, const std::string& msg) {
    if (why) *why = msg;
    return false;
  }
};

} // namespace tctest
