#include "LevelMesh.h"

#include "ObjMesh.h"

#include <algorithm>
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

} // namespace

MeshFormat meshFormatOf(const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext == "gltf" || ext == "glb") return MeshFormat::Gltf;
  if (ext == "obj") return MeshFormat::Obj;
  return MeshFormat::Foreign;
}

bool isLevelMeshPath(const std::string& path) {
  const std::string ext = lowerExtension(path);
  return ext == "obj" || ext == "gltf" || ext == "glb";
}

bool loadLevelMesh(const std::string& path, LevelMesh* out, std::string* why, const MeshProgress& progress) {
  (void)progress;
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
  case MeshFormat::Foreign:
    break;
  }
  if (why) *why = path + ": not a level mesh NavBench reads (OBJ)";
  return false;
}

} // namespace nav::bake
