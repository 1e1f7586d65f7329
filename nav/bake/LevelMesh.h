// LevelMesh.h: any level file a designer hands us -> plain triangle arrays for baking, with the
// names (node, mesh, material) each triangle came from, so a level file's `areaRules` can tag
// triangles by name.
//
// One entry point for every reader: `loadLevelMesh` picks the reader by the file's extension
// (meshFormatOf). Positions are in metres, +Y up, in world space (every reader applies its
// format's transforms and units). Messages are "<path>: problem" (the OBJ reader's own,
// ObjMesh.h, for OBJ).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace nav::bake {

/// What a triangle was named in the modelling tool: the names `areaRules` match against. Empty
/// strings where the format has no such name. OBJ: `o` (node), `g` (mesh), `usemtl` (material).
struct MeshGroup {
  std::string node;
  std::string mesh;
  std::string material;
};

struct LevelMesh {
  std::vector<float> verts;      ///< [(x, y, z) * vertCount] [Unit: m]
  std::vector<int> tris;         ///< [(a, b, c) * triCount], indices into verts
  std::vector<MeshGroup> groups; ///< distinct name triples; may be empty (no names read)
  std::vector<uint32_t> triGroup; ///< [triCount] index into groups, or empty when groups is empty
};

enum class MeshFormat {
  Obj,     ///< .obj (ObjMesh.h)
  Gltf,    ///< .gltf / .glb
  Foreign, ///< anything else a scene importer may read (FBX, Collada, 3DS, PLY, STL, ...)
};

/// The reader for `path`, by its extension (case-insensitive).
MeshFormat meshFormatOf(const std::string& path);

/// True when `path`'s extension names a level mesh NavBench reads (.obj, .gltf, .glb, and the
/// scene importer's formats). Used to tell a mesh from a level file (.json) or a tile set (.bin).
bool isLevelMeshPath(const std::string& path);

/// The extensions (lower case, no dot) of the MeshFormat::Foreign files that isLevelMeshPath
/// accepts: the scene importer's formats worth offering for a level (FBX, Collada, 3DS, PLY, STL, ...).
const std::vector<std::string>& foreignMeshExtensions();

/// Progress of a load: (done, total) in the reader's own units; false cancels.
using MeshProgress = std::function<bool(long long done, long long total)>;

/// Loads `path` with the reader its extension names. False with `why` = "<path>: problem".
bool loadLevelMesh(const std::string& path, LevelMesh* out, std::string* why, const MeshProgress& progress = {});

/// The reader of MeshFormat::Foreign files, with loadLevelMesh's contract. nav/bake holds no
/// scene importer (Assimp crashes on hostile files, so it runs in a child process, which is the
/// app's business): the viewer and the CLI install theirs at start-up (app/import/SceneImport.h).
/// Without one, a Foreign file fails with "<path>: FBX/Collada/... files need navbench-import".
using ForeignMeshLoader = bool (*)(const std::string& path, LevelMesh* out, std::string* why, const MeshProgress& progress);

/// Installs (or, with nullptr, removes) the Foreign reader; thread-safe, process-wide.
void setForeignMeshLoader(ForeignMeshLoader loader);

} // namespace nav::bake
