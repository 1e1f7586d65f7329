// ObjMesh.h: a Wavefront OBJ file -> plain triangle arrays for baking (positions only).
//
// A streaming reader: the file is read in 1 MiB blocks, `v` and `f` lines go straight into the
// two compact arrays (12 bytes per vertex, 12 per triangle, sized exactly by a counting pass
// first), nothing else is kept (no per-shape, per-face or per-index structures, no copy of the
// text). Faces are fanned (v0, vi-1, vi) in file order and vertices kept in file order, as
// RecastDemo's OBJ loader does, so a bake of the same file gives the same tiles as RecastDemo's;
// the triangles equal tinyobjloader's (the viewer's loader) on every level (a test checks it).
//
// Accepted: `v x y z [w | r g b]`, `f a b c ...` with `a`, `a/t`, `a//n`, `a/t/n` references,
// negative (relative) references, comments, the names `o`, `g` and `usemtl` (below), any other
// record (vt, vn, s, mtllib, l, p) ignored, LF / CRLF / CR line ends. A face may refer to a vertex
// defined later in the file.
//
// Names (for a level file's areaRules, AreaRules.h): the faces after `o NAME` belong to node NAME,
// after `g NAME` to mesh NAME, after `usemtl NAME` to material NAME; NAME is the rest of the line
// without its surrounding blanks (`g a b` names the mesh "a b"). `o` starts a new object: it
// clears the mesh name (a group of the previous object is not this one's); the material carries
// on across `o` and `g` until the next `usemtl`, as OBJ's material state does. Name records are
// rare, so reading them costs nothing measurable on a file's millions of `v` and `f` lines.
#pragma once

#include "nav/bake/LevelMesh.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nav::bake {

struct ObjMesh {
  std::vector<float> verts; ///< [(x, y, z) * vertCount] [Unit: wu]
  std::vector<int> tris;    ///< [(a, b, c) * triCount]
  /// With names read (loadObj's readNames) and the file naming anything: the distinct (o, g,
  /// usemtl) triples, the first one the triangles before any name carry. Else empty.
  std::vector<MeshGroup> groups;
  std::vector<uint32_t> triGroup; ///< [triCount] index into groups, or empty with groups
};

/// Largest OBJ file loadObj reads by default: 512 MiB (about 13 million triangles; the reader
/// itself needs ~24 bytes per triangle, so the limit is about what holds the mesh after it: the
/// in-memory bake, the viewer). Bigger files are refused. The file bake (StreamBake.h) streams
/// and passes NO_OBJ_SIZE_LIMIT.
constexpr long long MAX_OBJ_BYTES = 512ll << 20;
/// A size limit of none (loadObj / streamObj's maxBytes).
constexpr long long NO_OBJ_SIZE_LIMIT = -1;

/// Loads `path`. False with "<path>: problem" or, for a bad record, "<path>:<line>: problem" (the
/// checks and messages of ObjCheck.h, which the viewer's loader shares): missing or unreadable,
/// larger than `maxBytes` (NO_OBJ_SIZE_LIMIT: no limit), empty, a vertex without three finite
/// numbers, a face reference that is not a number, zero, or outside the vertices, no faces.
/// `readNames`: also fill out->groups / triGroup (4 more bytes per triangle when the file has names).
bool loadObj(const std::string& path, ObjMesh* out, std::string* why, long long maxBytes = MAX_OBJ_BYTES,
             bool readNames = false);

/// Receives an OBJ's content in file order from streamObj (nothing is kept by the reader).
class ObjSink {
public:
  virtual ~ObjSink() = default;
  /// A vertex [x, y, z] [Unit: wu]. False stops the reading; set `failure` to say why.
  virtual bool vertex(const float* xyz) = 0;
  /// A fan triangle of 0-based vertex indices, resolved as loadObj does. It may name a vertex
  /// not read yet (streamObj fails at the end if that vertex never comes). False stops.
  virtual bool triangle(int a, int b, int c) = 0;
  /// The names the following triangles carry changed (an `o`, `g` or `usemtl` record with a new
  /// name): `current` is the node, mesh and material now. Not called for a file without names.
  /// False stops.
  virtual bool names(const MeshGroup& current) {
    (void)current;
    return true;
  }
  /// Called as each block is read (bytesRead of fileBytes; fileBytes -1 if unknown). False
  /// stops the reading (a cancel); `failure` says why.
  virtual bool progress(long long bytesRead, long long fileBytes) {
    (void)bytesRead;
    (void)fileBytes;
    return true;
  }
  std::string failure; ///< Why a callback returned false (streamObj's message is "<path>: failure").
};

/// Where streamObj's bytes come from, in order: a file, text already in memory, or a caller's
/// reader that looks at the bytes as they pass (the viewer validates while the mesh is parsed).
class ObjSource {
public:
  virtual ~ObjSource() = default;
  /// Copies the next bytes (at most `n`, at least 1 unless at the end) to `dst`: their count, 0
  /// at the end (and on every call after it), or -1 to stop the reading (a read error, a cancel)
  /// with `failure` saying why (streamObj's message is then "<name>: failure", or "<name>: read
  /// error" when failure is empty).
  virtual long long read(char* dst, size_t n) = 0;
  std::string failure;
};

/// Reads `path` once, in 1 MiB blocks, handing every vertex and fan triangle to `sink`: the same
/// records, order, checks and messages as loadObj, with memory independent of the file's size.
/// A file over `maxBytes` is refused before any reading (NO_OBJ_SIZE_LIMIT: no limit; the file
/// bake passes it, the viewer keeps the 512 MiB default as it holds the mesh). Counts are set on
/// success.
bool streamObj(const std::string& path, ObjSink& sink, long long* vertCount, long long* triCount, std::string* why,
               long long maxBytes = MAX_OBJ_BYTES);

/// streamObj over any source (no size limit: the source ends the input). `name` is the file named
/// in messages, `sourceBytes` the total handed to sink.progress as fileBytes (-1 if unknown).
bool streamObj(const std::string& name, ObjSource& source, long long sourceBytes, ObjSink& sink, long long* vertCount,
               long long* triCount, std::string* why);

/// streamObj over OBJ text already read into memory ([text, text + size), e.g. by a caller that
/// had to look at the whole file first): the same records, checks and messages as reading the file
/// `name` from disk, without reading it again.
bool streamObjText(const std::string& name, const char* text, size_t size, ObjSink& sink, long long* vertCount,
                   long long* triCount, std::string* why);

} // namespace nav::bake
