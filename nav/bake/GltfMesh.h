// GltfMesh.h: a glTF 2.0 scene (.gltf with external or data: buffers, or .glb) -> world-space
// triangles for baking, with the node, mesh and material name of every triangle.
//
// Our own strict reader on base::JsonIn (nav/base/Json.h): triangles are all NavBench needs, and
// every problem is reported as "<path>: problem" (the JSON layer's "<path>: accessors[3].count:
// ..." for a bad value).
//
// Read: the default scene (`scene`, else scene 0, else every root node) and its node trees, each
// node's transform (`matrix`, or translation * rotation * scale) composed parent * child; every
// primitive of mode 4 (triangles), 5 (strip) and 6 (fan), converted to triangles as the
// specification orders their vertices; modes 0-3 (points, lines) are skipped with a note. Indices
// uint8/16/32 or none; POSITION float, or (KHR_mesh_quantization) int8/uint8/int16/uint16,
// normalized or not; byteStride; sparse accessors. A mesh used by several nodes is placed once per
// node. A node whose transform mirrors (negative determinant) has its triangles' winding flipped,
// as the specification says, so floors keep facing up. Positions are metres, +Y up (glTF's units
// and axes are NavBench's: no conversion). Everything else (materials beyond their names, normals,
// textures, skins, morph targets, cameras, animations, images) is not read.
//
// Refused, with the message naming the problem: a truncated GLB, a bad magic, version or chunk
// length, JSON that is not glTF 2.0, an index or offset outside its array, an accessor reading past
// its buffer view or a view past its buffer, a buffer URI that leaves the file's folder or a
// missing buffer file, an index outside its primitive's vertices, a NaN position, a node with two
// parents or in a cycle, an extension the file requires that we do not read (Draco, meshopt), and
// files or results over GltfLimits (checked before anything that size is allocated).
#pragma once

#include "LevelMesh.h"

#include <string>
#include <vector>

namespace nav::bake {

struct GltfLimits {
  /// Largest .glb / .gltf file, and largest external buffer file [Unit: bytes]. 1 GiB: the 2 km
  /// world is a 40 MiB .glb.
  long long maxFileBytes = 1ll << 30;
  /// Largest JSON (the .gltf file or the GLB's JSON chunk) [Unit: bytes]: parsed JSON takes several
  /// times its text; a .gltf whose data: buffers make it bigger should be a .glb.
  long long maxJsonBytes = 64ll << 20;
  /// Most triangles and vertices placed in the world (a mesh used by N nodes counts N times).
  long long maxTriangles = 32ll << 20;
  long long maxVertices = 32ll << 20;
};

/// Loads `path` (.glb by its magic, else glTF JSON; external buffers relative to its folder).
/// `progress(done, total)`: total = 2 * file size; reading the file is the first half, placing
/// the triangles the second; false cancels ("<path>: loading cancelled"). Skipped primitives are
/// listed in out->notes. False with `why` = "<path>: problem".
bool loadGltf(const std::string& path, LevelMesh* out, std::string* why, const MeshProgress& progress = {},
              const GltfLimits& limits = GltfLimits());

/// loadGltf over bytes already in memory. `name` is the file named in messages; `folder` is where
/// external buffer files are looked up ("" = external buffers are refused).
bool readGltf(const std::string& name, const std::string& bytes, const std::string& folder, LevelMesh* out,
              std::string* why, const GltfLimits& limits = GltfLimits());

/// A GLB file's bytes: the 12-byte header, the JSON chunk (padded with spaces) and, if `bin` is
/// not empty, the BIN chunk (padded with zeros).
std::string glbContainer(const std::string& json, const std::string& bin);

/// Writes `verts`/`tris` as a .glb of one node and one mesh (float positions, uint32 indices),
/// atomically. `name` names the node and mesh. False with `why` naming the file.
bool saveGlb(const std::string& path, const std::vector<float>& verts, const std::vector<int>& tris,
             const std::string& name, std::string* why);

} // namespace nav::bake
