// SceneImport.h: FBX, Collada, 3DS, PLY, STL and Assimp's other formats for nav/bake's
// loadLevelMesh (its MeshFormat::Foreign branch), read by `navbench-import` in a child process.
//
// Why a child: Assimp crashes (and can hang) on hostile files. The child reads the file and writes
// its triangles and names to a temporary file (ImportFile.h); this side waits for it, with a time
// limit, and turns every way it can end into "<path>: problem": the importer's own message, "the
// importer crashed (signal 11, Segmentation fault)", "the importer did not finish within N s", or a
// problem with the data it wrote. The calling process (viewer, `navbench bake`) never crashes.
//
// POSIX (posix_spawn, poll, waitpid): app-side, nav/bake stays std-only.
#pragma once

#include "nav/bake/LevelMesh.h"

#include <string>

namespace navbench::import {

/// Installs importForeignMesh as nav/bake's Foreign reader, with the importer `navbench-import`
/// found in the folder of this process's executable (/proc/self/exe). Call once at start-up.
void installSceneImporter();

/// As installSceneImporter, with the importer's path given (tests: the build's navbench-import).
void installSceneImporter(const std::string& importerPath);

/// The importer's path installSceneImporter chose.
std::string sceneImporterPath();

/// Default time limit of one import, seconds; NAVBENCH_IMPORT_TIMEOUT_S (a positive number)
/// overrides it. A level of millions of triangles imports in well under a minute.
constexpr int DEFAULT_IMPORT_TIMEOUT_S = 300;

/// Runs the importer on `path`. Progress is (done, 1000) as the importer reports it; a false
/// return from `progress` kills the child and fails with "<path>: loading cancelled".
bool importForeignMesh(const std::string& path, nav::bake::LevelMesh* out, std::string* why,
                       const nav::bake::MeshProgress& progress);

} // namespace navbench::import
