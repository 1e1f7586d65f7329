// ObjMesh.h: a Wavefront OBJ file -> plain triangle arrays for baking (positions only).
//
// Faces are fanned (v0, vi-1, vi) in file order and vertices kept in file order, as RecastDemo's
// OBJ loader does, so a bake of the same file gives the same tiles as RecastDemo's.
#pragma once

#include <string>
#include <vector>

namespace nav::bake {

struct ObjMesh {
  std::vector<float> verts; ///< [(x, y, z) * vertCount] [Unit: wu]
  std::vector<int> tris;    ///< [(a, b, c) * triCount]
};

/// Largest OBJ file loadObj reads: 512 MiB (a few million triangles more than any level we bake;
/// above it tinyobjloader's parse would need several GiB). Bigger files are refused with a message.
constexpr long long MAX_OBJ_BYTES = 512ll << 20;

/// Loads `path`. False with a message naming the file and the problem (missing, unreadable,
/// larger than MAX_OBJ_BYTES, no triangles, face index out of range).
bool loadObj(const std::string& path, ObjMesh* out, std::string* why);

} // namespace nav::bake
