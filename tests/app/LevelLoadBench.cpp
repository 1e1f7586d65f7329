// level_load_bench: time and peak memory of the viewer's level load (not a test).
//   level_load_bench MESH [obj|level]     (MESH: .obj, .glb or .gltf)
// obj:   navbench::loadMesh only (read, validate, parse: the part before the BVH and the LOD; for
//        glTF the binary read and the placing of the nodes' triangles);
// level: navbench::Level::load, what the viewer's background load runs (adds the BVH and the LOD).
// Prints one line: "load: <mode> <ms> ms, <tris> triangles, peak RSS <MiB> MiB, progress calls
// <n> (Reading <r>, Parsing <p>)". Peak RSS is the process's (getrusage), so run one mode per
// process; /usr/bin/time -v gives the same figure from outside.
#include "app/Level.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && std::strcmp(argv[2], "obj") != 0 && std::strcmp(argv[2], "level") != 0)) {
    std::fprintf(stderr, "usage: level_load_bench MESH [obj|level]\n");
    return 2;
  }
  const std::string path = argv[1];
  const bool levelMode = argc == 3 && std::strcmp(argv[2], "level") == 0;
  std::string error;
  long long calls = 0, reading = 0, parsing = 0;
  int tris = 0;
  const auto t0 = std::chrono::steady_clock::now();
  if (levelMode) {
    navbench::Level level;
    const navbench::LoadResult r = level.load(path, error, [&](navbench::LoadPhase phase, float) {
      ++calls;
      reading += phase == navbench::LoadPhase::Reading;
      parsing += phase == navbench::LoadPhase::Parsing;
      return true;
    });
    if (r != navbench::LoadResult::Ok) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
    tris = level.mesh().triCount();
  } else {
    navbench::TriMesh mesh;
    if (navbench::loadMesh(path, mesh, error, [&](long long, long long) {
          ++calls;
          return true;
        }) != navbench::LoadResult::Ok) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
    tris = mesh.triCount();
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("load: %s %.1f ms, %d triangles, peak RSS %.1f MiB, progress calls %lld (Reading %lld, Parsing %lld)\n",
              levelMode ? "level" : "obj", ms, tris, double(ru.ru_maxrss) / 1024.0, calls, reading, parsing);
  return 0;
}
