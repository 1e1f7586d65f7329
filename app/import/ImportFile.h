// ImportFile.h: the file navbench-import (the scene importer's child process) hands its triangles
// and names back in. Both sides run on the same machine from the same build, so numbers are in
// the machine's byte order; the reader still checks everything (the writer may have been a
// process that went wrong).
//
// Layout, in order:
//   "NBIMPRT1"                     8 bytes: magic and version
//   u32 vertCount, triCount, groupCount
//   f32 verts[3 * vertCount]       [Unit: m], +Y up, world space
//   u32 tris[3 * triCount]         indices into verts, counter-clockwise seen from the front
//   u32 triGroup[triCount]         index into groups (all zero-length when groupCount is 0)
//   groupCount * 3 strings         node, mesh, material: u32 byte length + UTF-8 bytes
// Nothing may follow. Counts are limited by the file's size, so a reader never allocates more than
// the file could hold.
#pragma once

#include "nav/bake/LevelMesh.h"

#include <string>

namespace navbench::import {

/// Writes `mesh` to `path` (the file exists: the parent made it). False with `why`.
bool writeImportFile(const std::string& path, const nav::bake::LevelMesh& mesh, std::string* why);

/// Reads and checks what writeImportFile wrote: sizes, indices in range, finite positions. False
/// with `why` = the problem (no path: the caller names the file the importer read).
bool readImportFile(const std::string& path, nav::bake::LevelMesh* out, std::string* why);

} // namespace navbench::import
