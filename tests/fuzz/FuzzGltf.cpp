// FuzzGltf.cpp: the glTF reader (nav/bake/GltfMesh.h) from memory: .glb (by its magic) or glTF
// JSON, external buffers refused (no folder), small limits so an input cannot ask for much memory.
// A loaded mesh must index only its own vertices, have finite positions and one group per triangle.
#include "nav/bake/GltfMesh.h"
#include "tests/fuzz/FuzzUtil.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nav::bake::GltfLimits limits;
  limits.maxFileBytes = 1 << 20;
  limits.maxJsonBytes = 1 << 20;
  limits.maxTriangles = 1 << 16;
  limits.maxVertices = 1 << 16;
  nav::bake::LevelMesh mesh;
  std::string why;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  if (fuzz::refused(nav::bake::readGltf("fuzz.gltf", bytes, "", &mesh, &why, limits), why)) return 0;
  const long long nv = (long long)mesh.verts.size() / 3;
  if (mesh.tris.empty() || mesh.tris.size() % 3 || mesh.verts.size() % 3) __builtin_trap();
  if ((long long)mesh.tris.size() / 3 > limits.maxTriangles || nv > limits.maxVertices) __builtin_trap();
  for (int i : mesh.tris)
    if (i < 0 || i >= nv) __builtin_trap();
  for (float f : mesh.verts)
    if (!std::isfinite(f)) __builtin_trap();
  if (mesh.triGroup.size() != mesh.tris.size() / 3) __builtin_trap();
  for (uint32_t g : mesh.triGroup)
    if (g >= mesh.groups.size()) __builtin_trap();
  return 0;
}
