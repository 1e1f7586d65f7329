#include "LevelMesh.h"

#include "GltfMesh.h"
#include "ObjMesh.h"

#include <algorithm>
#include <atomic>
#include <cctype>

namespace nav::bake {

namespace {

std::string lowerExtension(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

std::atomic<ForeignMeshLoader> g_foreignLoader{nullptr};

} // namespace

const std::vector<std::string>& foreignMeshExtensions() {
  // Assimp 5.2's mesh and scene formats a level may come in (not its animation, camera, texture
  // or archive-only ones, nor .obj/.gltf/.glb, which have their own readers here).
  static const std::vector<std::string> exts = {"fbx", "dae", "3ds", "ase", "ply", "stl", "off", "3mf", "lwo",
                                                "x", "x3d", "ac", "ms3d", "b3d", "blend", "ifc", "xgl"};
  return exts;
}

void setForeignMeshLoader(ForeignMeshLoader loader) { g_foreignLoader.store(loader); }

MeshFormat meshFormatOf(const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext == "gltf" || ext == "glb") return MeshFormat::Gltf;
  if (ext == "obj") return MeshFormat::Obj;
  return MeshFormat::Foreign;
}

bool isLevelMeshPath(const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext == "obj" || ext == "gltf" || ext == "glb") return true;
  const std::vector<std::string>& foreign = foreignMeshExtensions();
  return std::find(foreign.begin(), foreign.end(), ext) != foreign.end();
}

bool loadLevelMesh(const std::string& path, LevelMesh* out, std::string* why, const MeshProgress& progress) {
  switch (meshFormatOf(path)) {
  case MeshFormat::Obj: {
    ObjMesh mesh;
    if (!loadObj(path, &mesh, why, MAX_OBJ_BYTES, true)) return false;
    *out = LevelMesh();
    out->verts = std::move(mesh.verts);
    out->tris = std::move(mesh.tris);
    out->groups = std::move(mesh.groups); // o, g, usemtl
    out->triGroup = std::move(mesh.triGroup);
    return true;
  }
  case MeshFormat::Gltf:
    return loadGltf(path, out, why, progress);
  case MeshFormat::Foreign:
    if (const ForeignMeshLoader loader = g_foreignLoader.load()) return loader(path, out, why, progress);
    if (why) *why = path + ": FBX, Collada, 3DS, PLY, STL, ... files need navbench-import (the scene importer), which this program does not use";
    return false;
  }
  if (why) *why = path + ": not a level mesh NavBench reads";
  return false;
}

} // namespace nav::bake
