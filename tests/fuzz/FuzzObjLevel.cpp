// FuzzObjLevel.cpp: the viewer's OBJ loader (app/Level.h: OBJs without materials through the
// one-pass prescan + nav_bake's streaming reader, the others through tinyobjloader; built as
// navbench_core builds it, see CMakeLists.txt), the picking BVH and the LOD built over what it
// loads. Input goes to a temp file (path-only API).
#include "app/Level.h"
#include "tests/fuzz/FuzzUtil.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = fuzz::writeTemp(data, size, ".obj");
  navbench::TriMesh mesh;
  std::string error;
  if (fuzz::refused(navbench::loadObj(path, mesh, error), error)) return 0;
  for (int i : mesh.tris)
    if (i < 0 || i >= mesh.vertCount()) __builtin_trap();
  navbench::Level level;
  if (!level.load(path, error)) __builtin_trap(); // loadObj accepted it, so must Level
  navbench::RayHit hit;
  (void)level.raycast(glm::vec3(0, 100, 0), glm::vec3(0, -1, 0), 1000.0f, navbench::PickSides::Both, hit);
  return 0;
}
