// StreamBake.h: a tiled bake from an OBJ file straight into a tile-set file, with memory bounded
// by the tiles in flight instead of the level's size (issue 10, "baking at that size").
//
// Three passes, two temporary files:
//   1. read:  the OBJ is streamed once (ObjMesh's streamObj); vertices go to a temporary vertex
//             file (12 B each), fan triangles to a temporary triangle file (12 B each); the bounds
//             are kept. Nothing grows in memory.
//   2. bin:   the triangle file is read in order; each triangle's three positions come through a
//             small LRU cache of vertex-file pages (FileBakeOptions::vertexCacheBytes) and the
//             triangle goes, as nine floats, to every tile whose rect (tile bounds + border, the
//             exact test the in-memory TriangleGrid query makes) its xz bounds overlap. Records
//             are gathered in a fixed buffer (binBufferBytes) and written out as runs grouped by
//             tile; each tile keeps only the offset of its last segment and its count (segments
//             chain backwards on disk), so per-tile memory is 16 bytes whatever the input.
//   3. tiles: workers take tiles in grid order, read their triangles (in level order, as the
//             grid query returns them) from the bin file, run Recast and nav::buildTileData, and
//             hand the blobs back in grid order. Tiles are added to a NavMesh at the slot a
//             whole-level bake gives them; a tile is written to the output as soon as its eight
//             neighbours are in (its links are final then) and removed from the mesh once they
//             are written, so the mesh holds about two rows of tiles. Workers wait rather than
//             run more than `window` tiles ahead of the writer.
// The file is byte-identical to Baker::bake + saveTileSetFile on the same input and settings
// (tests compare them). Memory: the fixed buffers + 16 B per tile + ~2 rows of output tiles +
// for each worker its tile's input (48 B per triangle-in-tile) and Recast's buffers.
//
// The temporary files are created beside the output (or in FileBakeOptions::tempDir) and unlinked
// at once (they vanish even if the process dies); a failure to create or write one fails the bake
// with a message naming the file and the system's reason (e.g. "No space left on device").
// Solo bakes (settings.tiled false) need the whole level in one tile: they load the level into
// memory and bake it with Baker, as before.
#pragma once

#include "nav/bake/Bake.h"

#include <cstddef>
#include <string>
#include <vector>

namespace nav::bake {

/// A level as a file bake reads it: the OBJ path and the designer's additions.
struct FileBakeInput {
  std::string objPath;
  std::vector<ConvexVolume> volumes;
  std::vector<OffMeshLink> links;
  /// The level file's areaRules (AreaRules.h): with any, the bake reads the OBJ's o / g / usemtl
  /// names and carries each triangle's rule code through its temporary files (4 more bytes per
  /// triangle in each); without, the files and the bake are as before.
  std::vector<AreaRule> areaRules;
};

/// Level file (".json") or bare OBJ -> FileBakeInput + settings (a bare OBJ: default settings, no
/// volumes or links). The OBJ is not read here (only checked to exist). Errors name the file.
/// A level with agents: as loadBakeInput (every item with its mask; see inputForAgent).
/// `level` (optional) receives the level file as read.
bool loadFileBakeInput(const std::string& path, FileBakeInput* input, BakeSettings* settings, std::string* why,
                       Level* level = nullptr);
/// The level of `input` read into memory as a BakeInput (the bakes that need the whole level:
/// solo, --layers): its mesh (loadLevelMesh), volumes, links and, with rules, the rules and the
/// mesh's names. False with "<path>: problem".
bool loadFileBakeMesh(const FileBakeInput& input, BakeInput* out, std::string* why);

struct FileBakeOptions {
  std::string tempDir;                   ///< Folder for the temporary files; "" = the output's folder.
  size_t vertexCacheBytes = size_t(2) << 20; ///< LRU cache of vertex-file pages (12 KiB each) for binning.
  size_t binBufferBytes = size_t(1) << 20;   ///< Records gathered before a run is written.
  int window = 0; ///< Tiles the workers may run ahead of the writer; 0 = 16 per thread.
};

/// What a file bake held and did (for the memory bound's tests and the benchmark).
struct FileBakeStats {
  long long verts = 0, tris = 0;
  long long degenerateTris = 0;
  long long binEntries = 0;        ///< (triangle, tile) records in the bin file.
  long long tempFileBytes = 0;     ///< Bytes written to the temporary files.
  long long vertexLookups = 0, vertexPageMisses = 0; ///< Binning's vertex cache.
  int largestTileTris = 0;         ///< The most triangles one tile read.
  size_t largestTileInputBytes = 0; ///< That tile's input in memory (positions + indices).
  size_t peakTileInputBytes = 0;   ///< The most bytes of tile input held at once (all workers).
  size_t fixedBytes = 0;           ///< Vertex cache + bin buffers + per-tile index: not per triangle.
  int peakWindowTiles = 0;         ///< The most output tiles held in the NavMesh at once.
  int peakPendingTiles = 0;        ///< The most finished tiles waiting for their turn to be added.
  double readMs = 0, binMs = 0;    ///< Passes 1 and 2 [Unit: ms]
};

/// Bakes `input` with `settings` into the tile-set file `outPath` (written atomically; the old
/// file stays on any failure). Progress: BakeStage::Prepare with inputDone / inputTotal while
/// reading and binning, then TileData per tile, AddTiles, Done; cancel is polled per block, per
/// 64k triangles and per tile. report: as Baker::bake (counts, times, log), ok / error /
/// cancelled. stats may be null.
bool bakeFileToTileSet(const FileBakeInput& input, const BakeSettings& settings, const std::string& outPath,
                       const BakeOptions& options, BakeReport* report, const FileBakeOptions& fileOptions = {},
                       FileBakeStats* stats = nullptr);

} // namespace nav::bake
