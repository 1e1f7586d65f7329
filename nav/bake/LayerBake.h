// LayerBake.h: a level baked into tile cache layers (`navbench bake LEVEL --layers -o OUT.tcache`),
// RecastDemo's TempObstacles build (rasterizeTileLayers) on our worker pool.
//
// Per tile of the grid (tileSize cells from the level's bounds min, as the tiled bake): the tile
// plus a border of ceil(agentRadius / cellSize) + 3 cells is rasterized with slope marking, the
// three walkable filters the settings enable, compact heightfield, erosion by the agent radius,
// the level's convex volumes (a ground volume marks plain walkable cells, as the normal bake),
// then Recast's rcBuildHeightfieldLayers; each layer (at most TCACHE_MAX_LAYERS_PER_TILE per tile)
// becomes a blob through nav::tilecache::buildTileCacheLayer with the chosen compressor (LZ4 by
// default). Tiles run on options.threads workers with BakeStage::TileData progress; blobs are kept
// in grid order (rows of z, then x, then layer), so the file is byte-identical whatever the
// thread count. The partition, region, detail-mesh and vertsPerPoly settings do not apply: the
// tile cache builds its own monotone regions and 6-vertex polygons from the layers.
//
// Cache parameters (as TempObstacles): orig = bounds min, cs / ch, width = height = tileSize,
// agent height / radius / climb in wu, maxSimplificationError = edgeMaxError, maxTiles =
// tilesX * tilesY * 4 (at least the layer count), maxObstacles 128; navmesh: the same tile grid,
// tile bits min(log2(nextPow2(tilesX * tilesY * 4)), 14), poly bits 22 - tile bits. The level's
// off-mesh links go into the file (every rebuilt tile gets them, as TempObstacles); areas map to
// flags as the normal bake (flagsForArea, walkable -> ground).
#pragma once

#include "nav/bake/Bake.h"
#include "nav/tilecache/TileCacheFile.h"

namespace nav::bake {

/// RecastDemo's TempObstacles sample's tile size [Unit: cells]: what a layer bake of a bare OBJ
/// (no level file, so no settings of its own) uses; the rest are the usual defaults.
constexpr int TEMP_OBSTACLES_TILE_SIZE = 48;
/// Obstacle slots the file asks for (TempObstacles' maxObstacles).
constexpr int LAYER_BAKE_MAX_OBSTACLES = 128;
/// Layers expected per tile when sizing slots (TempObstacles' EXPECTED_LAYERS_PER_TILE).
constexpr int LAYER_BAKE_EXPECTED_LAYERS = 4;

struct LayerBakeOptions {
  uint32_t compressor = tilecache::TCACHE_COMPRESSOR_LZ4;
};

/// Bakes `input` into tile cache layers with `settings` (always tiled: settings.tiled is ignored,
/// tileSize must fit a layer, 16..255). On success `out` holds the whole file's data; on failure
/// (bad input or settings, a Recast failure, a tile with more layers than a file holds, cancel)
/// `out` is untouched and report->error says why. report: counts (tileCount = layers, dataBytes =
/// blob bytes), times per stage, log, as Baker::bake.
bool bakeLayers(const BakeInput& input, const BakeSettings& settings, const BakeOptions& options,
                tilecache::TileCacheFileData* out, BakeReport* report, const LayerBakeOptions& layerOptions = {});

} // namespace nav::bake
