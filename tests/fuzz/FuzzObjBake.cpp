// FuzzObjBake.cpp: the baking OBJ loader (nav/bake/ObjMesh.h), which only reads paths: the input
// goes to a temp file first. Loaded meshes must index only their own vertices.
#include "nav/bake/ObjMesh.h"
#include "tests/fuzz/FuzzUtil.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = fuzz::writeTemp(data, size, ".obj");
  nav::bake::ObjMesh mesh;
  std::string why;
  if (fuzz::refused(nav::bake::loadObj(path, &mesh, &why), why)) return 0;
  const int nv = int(mesh.verts.size() / 3);
  if (mesh.tris.empty() || mesh.tris.size() % 3) __builtin_trap();
  for (int i : mesh.tris)
    if (i < 0 || i >= nv) __builtin_trap();
  return 0;
}
