// Level.h: the level geometry (an OBJ or glTF triangle soup) and ray picking on it.
//
// Loading is strict and reports the first problem as "<file>: <problem>" (line numbers where it
// helps); a failed load leaves the Level unchanged. No GL, SDL or ImGui here: the CLI and the tests
// use it too (target navbench_level).
#pragma once

#include "app/LevelLod.h"
#include "app/TriBvh.h"

#include <glm/glm.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <string>
#include <vector>

namespace navbench {

/// Plain triangle mesh: what an OBJ file gives after fan triangulation.
struct TriMesh {
  std::vector<float> verts; ///< [(x, y, z) * vertCount] [Unit: wu]
  std::vector<int> tris;    ///< [(a, b, c) * triCount], vertex indices, counter-clockwise seen from the front.
  int polygonCount = 0;     ///< OBJ faces before triangulation.
  /// Diffuse colours (Kd, linear 0..1) of the materials from the OBJ's .mtl files, if any.
  std::vector<glm::vec3> materialColors;
  /// [triCount] index into materialColors, or -1; empty when the file uses no materials.
  std::vector<int> triMaterial;
  glm::vec3 boundsMin{0.0f}, boundsMax{0.0f};
  /// What the reader skipped, for the Log (glTF points and lines).
  std::vector<std::string> notes;

  int vertCount() const { return int(verts.size() / 3); }
  int triCount() const { return int(tris.size() / 3); }
  glm::vec3 vert(int i) const { return {verts[size_t(i) * 3], verts[size_t(i) * 3 + 1], verts[size_t(i) * 3 + 2]}; }
};

/// Largest OBJ file loadObj reads by default: 512 MiB (the viewer holds the whole mesh, its BVH and
/// LOD: about 3.5 times the file's size in peak memory; an OBJ with materials is held whole as text
/// and parsed by tinyobjloader, several times that). Bigger files are refused with a message. (The
/// file bake, `navbench bake`, streams and has no such limit.)
constexpr long long MAX_OBJ_BYTES = 512ll << 20;

/// Reads an OBJ file: positions and faces (polygons are fan-triangulated:
/// (v0, v1, v2), (v0, v2, v3), ...; negative indices count back from the last vertex read).
/// Material diffuse colours (usemtl + mtllib next to the file) are kept for display; a missing
/// .mtl file is not an error. Normals, texture coordinates, lines and points are ignored.
/// When the build has nav_bake, a file without usemtl/mtllib records is read once, in 1 MiB
/// blocks, each validated (the messages below) and then parsed by nav_bake's streaming reader
/// (nav/bake/ObjMesh.h: same triangles as tinyobjloader): memory is the mesh, not the text. A file
/// with materials (or a problem to report) is read whole, validated, then parsed by tinyobjloader
/// (for the material colours; or by the streaming reader from the text read).
/// Fails with "<path>: <problem>" for the file and "<path>:<line>: <problem>" for a record (the
/// messages of nav/bake/ObjCheck.h, the bake's too): a missing/unreadable file, an empty or binary
/// file, a text file with no OBJ records, a malformed or non-finite vertex, a face with fewer than 3
/// (or, tinyobjloader's limit, more than 255) vertices, a face index of 0 or out of range, an OBJ
/// without faces, and a file over MAX_OBJ_BYTES.
bool loadObj(const std::string& path, TriMesh& out, std::string& error);

enum class LoadResult { Ok, Failed, Cancelled };

/// Progress of a load: (work done, work total), both in file bytes times the work per byte (read,
/// validate, parse: total = 3 * file size; the one-pass load does the three per block and reports
/// 3 units per byte read); `done` never decreases and ends at `total` on success. Called from the
/// loading thread, about every MiB. Return false to cancel the load.
using LoadProgress = std::function<bool(long long done, long long total)>;

/// loadObj with progress reports and cancel: Cancelled (error "<path>: loading cancelled", `out`
/// untouched) when `progress` returned false; Failed with `error` as above; Ok. `maxBytes` is the
/// size limit (MAX_OBJ_BYTES; a test passes a small one; negative: none).
LoadResult loadObj(const std::string& path, TriMesh& out, std::string& error, const LoadProgress& progress,
                   long long maxBytes = MAX_OBJ_BYTES);

/// loadObj for an OBJ; for .gltf / .glb, nav_bake's glTF reader (nav/bake/GltfMesh.h: the scene's
/// world-space triangles; messages "<path>: problem"), with progress in loadObj's units (reading
/// the file the first two thirds, placing the triangles the last). A build without nav_bake
/// refuses glTF with a message.
LoadResult loadMesh(const std::string& path, TriMesh& out, std::string& error, const LoadProgress& progress,
                    long long maxBytes = MAX_OBJ_BYTES);

/// The phases of Level::load, in order. The BVH and the LOD are built at the same time (two
/// threads); the phase reported is the BVH until it is done, then the LOD.
enum class LoadPhase { Reading, Parsing, Triangles, Bvh, Lod };

/// What the progress window shows for a phase: "Reading...", "Parsing...", "Setting up
/// triangles...", "Building BVH...", "Building LOD..." (ASCII dots: the viewer's font has no
/// U+2026).
const char* loadPhaseLabel(LoadPhase phase);

/// Progress of Level::load: the phase running and the fraction of the whole load done, in [0, 1]
/// (never decreasing; exactly 1 once, at the end of a successful load). Called from the loading
/// thread, a few hundred times per load at most. Return false to cancel (the last call, at 1,
/// comes after the Level was replaced: its answer is ignored).
/// Shares of the bar (measured on the 2.16 M-triangle 2 km world): reading and validating the
/// text 0.33, parsing 0.19 (an OBJ without materials is read, validated and parsed in one pass,
/// reported per 1 MiB block: "Reading..." for its first two thirds, "Parsing..." for the last; an
/// OBJ with materials goes through tinyobjloader, which reports nothing: LevelLoader then
/// estimates it from the time reading took), triangle set-up 0.06, BVH and LOD 0.42.
using LevelProgress = std::function<bool(LoadPhase phase, float fraction)>;

/// Where each phase starts on the bar (fraction of the whole load); the last one ends at 1.
float loadPhaseStart(LoadPhase phase);

/// A loaded level: its mesh plus a BVH for picking and the levels of detail for drawing.
class Level {
public:
  /// Loads `path`; on failure returns false with `error` set and keeps the previous contents.
  bool load(const std::string& path, std::string& error);
  /// load() with progress and cancel (see LevelProgress); the Level is unchanged unless Ok.
  LoadResult load(const std::string& path, std::string& error, const LevelProgress& progress);
  /// Takes an already built mesh (e.g. generated by a test); `name` is shown as its path.
  void set(TriMesh mesh, const std::string& name);
  void clear();

  bool empty() const { return m_mesh.tris.empty(); }
  const std::string& path() const { return m_path; }
  const TriMesh& mesh() const { return m_mesh; }
  const TriBvh& bvh() const { return m_bvh; }
  const LevelLod& lod() const { return m_lod; }

  /// Nearest hit of the ray origin + t * dir, t in [0, maxT], on the triangle sides `sides` allows
  /// (TriBvh::raycast).
  bool raycast(const glm::vec3& origin, const glm::vec3& dir, float maxT, PickSides sides, RayHit& hit) const {
    return m_bvh.raycast(origin, dir, maxT, sides, hit);
  }

private:
  /// set() with progress (phases Triangles, Bvh, Lod); false when cancelled (Level unchanged).
  bool build(TriMesh& mesh, const std::string& name, const LevelProgress& progress);

  std::string m_path;
  TriMesh m_mesh;
  TriBvh m_bvh;
  LevelLod m_lod;
};

/// Loads a Level on a worker thread while the caller's frame loop runs (the viewer's progress bar).
/// Owned and polled by one thread (the main thread); the loaded Level is handed over by take().
class LevelLoader {
public:
  LevelLoader() = default;
  LevelLoader(const LevelLoader&) = delete;
  LevelLoader& operator=(const LevelLoader&) = delete;
  ~LevelLoader(); ///< Cancels a running load and waits for it.

  /// Starts loading `path` (an OBJ) into a new Level; cancels and drops a previous load first.
  /// `tag` is kept for the caller (e.g. what was asked for: a level file rather than its OBJ).
  void start(const std::string& path, const std::string& tag = std::string());
  bool active() const { return m_thread.joinable(); } ///< Started and not taken yet.
  bool finished() const { return m_finished.load(); } ///< The worker is done: take() does not block.
  /// [0, 1], never decreasing during a load. While an OBJ with materials is parsed (no reports
  /// from inside tinyobjloader) it moves on by an estimate: parsing takes about kParseOverRead
  /// times as long as reading and validating took.
  float fraction() const;
  LoadPhase phase() const { return LoadPhase(m_phase.load()); }
  static constexpr double kParseOverRead = 1.6;
  double elapsedMs() const;
  void cancel() { m_cancel = true; }
  const std::string& path() const { return m_path; }
  const std::string& tag() const { return m_tag; }
  /// Waits for the worker, then: Ok moves the loaded Level into `level`; Failed/Cancelled leave
  /// `level` untouched and set `error`. Afterwards active() is false.
  LoadResult take(Level& level, std::string& error);

private:
  std::thread m_thread;
  std::atomic<bool> m_cancel{false}, m_finished{false};
  std::atomic<float> m_fraction{0.0f};
  std::atomic<int> m_phase{0};
  std::atomic<double> m_readMs{0.0}, m_parseStartMs{0.0}; ///< For the parse estimate.
  mutable std::atomic<float> m_shown{0.0f};                ///< Last fraction() returned.
  std::chrono::steady_clock::time_point m_start;
  std::string m_path, m_tag, m_error;
  Level m_level;
  LoadResult m_result = LoadResult::Failed;
};

} // namespace navbench
