// RecastDemoRef.h: a RecastDemo-equivalent bake written directly on Recast + Detour (the oracle),
// independent of nav_bake's plumbing: Sample_SoloMesh::handleBuild, Sample_TileMesh::buildAllTiles
// and Sample::saveAll, followed step by step. Used by the differential tests and the benchmark.
#pragma once

#include "nav/bake/Bake.h"

#include <cstdint>
#include <vector>

class dtNavMesh;

namespace bakeref {

/// Builds RecastDemo's navmesh for the input (solo or tiled per settings.tiled). Tiles get their
/// triangles by a plain scan of all triangles' xz bounds (no index), in mesh order. Returns null
/// if the bake made nothing. Free with dtFreeNavMesh.
dtNavMesh* build(const nav::bake::BakeInput& in, const nav::bake::BakeSettings& s);

/// The bytes RecastDemo's Sample::saveAll writes for `mesh` (MSET v1: header with numTiles and
/// the mesh params, then (tileRef, dataSize, data) per tile in slot order).
std::vector<uint8_t> saveAll(const dtNavMesh* mesh);

/// dtCreateNavMeshData on nav tile params (same field meaning). Returns the blob (empty on failure).
std::vector<uint8_t> detourTileData(const nav::TileBuildParams& p);

} // namespace bakeref
