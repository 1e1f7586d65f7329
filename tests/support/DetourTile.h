// DetourTile.h: test support. The oracle side of TileParams.h: the same build params in Detour's
// dtNavMeshCreateParams, Detour's blob for them (dtCreateNavMeshData), and one blob added to a
// nav::NavMesh and a dtNavMesh side by side.
#pragma once

#include "nav/NavMesh.h"
#include "tests/support/TileParams.h"

#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>

#include <cstring>
#include <string>
#include <vector>

namespace navtest {

/// The scalar and pointer fields nav::TileBuildParams and dtNavMeshCreateParams share (bmin and
/// bmax, arrays, are copied apart).
#define NAVTEST_TILE_PARAM_FIELDS(X)                                                                       \
  X(verts) X(vertCount) X(polys) X(polyFlags) X(polyAreas) X(polyCount) X(nvp)                             \
  X(detailMeshes) X(detailVerts) X(detailVertsCount) X(detailTris) X(detailTriCount)                       \
  X(offMeshConVerts) X(offMeshConRad) X(offMeshConFlags) X(offMeshConAreas) X(offMeshConDir)                \
  X(offMeshConUserID) X(offMeshConCount) X(userId) X(tileX) X(tileY) X(tileLayer)                          \
  X(walkableHeight) X(walkableRadius) X(walkableClimb) X(cs) X(ch) X(buildBvTree)

/// Every field of one build-params struct into the other: nav::TileBuildParams and
/// dtNavMeshCreateParams, either way.
template <class To, class From> void copyTileParams(To& d, const From& p) {
#define NAVTEST_COPY_FIELD(f) d.f = p.f;
  NAVTEST_TILE_PARAM_FIELDS(NAVTEST_COPY_FIELD)
#undef NAVTEST_COPY_FIELD
  std::memcpy(d.bmin, p.bmin, sizeof d.bmin);
  std::memcpy(d.bmax, p.bmax, sizeof d.bmax);
}

/// The same params in Detour's struct.
inline dtNavMeshCreateParams toDetour(const nav::TileBuildParams& p) {
  dtNavMeshCreateParams d;
  std::memset(&d, 0, sizeof d);
  copyTileParams(d, p);
  return d;
}

/// Detour's blob for the params (dtCreateNavMeshData; empty on failure).
inline std::vector<uint8_t> detourBuild(const nav::TileBuildParams& p) {
  dtNavMeshCreateParams d = toDetour(p);
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&d, &data, &size)) return {};
  std::vector<uint8_t> out(data, data + size);
  dtFree(data);
  return out;
}

/// A copy of a blob in Detour's allocator (for dtNavMesh::init / addTile with DT_TILE_FREE_DATA).
inline unsigned char* dtDupBlob(const std::vector<uint8_t>& blob) {
  unsigned char* d = static_cast<unsigned char*>(dtAlloc(blob.size(), DT_ALLOC_PERM));
  std::memcpy(d, blob.data(), blob.size());
  return d;
}

/// Adds copies of one blob to both meshes. "" when both take it and give the same tile ref (*ref),
/// else what went wrong.
inline std::string addTileBoth(nav::NavMesh& ours, dtNavMesh& theirs, const std::vector<uint8_t>& blob,
                               nav::TileRef* ref = nullptr) {
  uint8_t* mine = new uint8_t[blob.size()];
  std::memcpy(mine, blob.data(), blob.size());
  nav::TileRef a = 0;
  std::string why;
  if (nav::statusFailed(ours.addTile(mine, int(blob.size()), nav::TILE_FREE_DATA, 0, &a, &why))) {
    delete[] mine;
    return "nav::NavMesh::addTile failed: " + why;
  }
  unsigned char* d = dtDupBlob(blob);
  dtTileRef b = 0;
  if (dtStatusFailed(theirs.addTile(d, int(blob.size()), DT_TILE_FREE_DATA, 0, &b))) {
    dtFree(d);
    return "dtNavMesh::addTile failed";
  }
  if (a != b) return "tile refs differ: " + std::to_string(a) + " vs " + std::to_string(b);
  if (ref) *ref = a;
  return "";
}

} // namespace navtest
