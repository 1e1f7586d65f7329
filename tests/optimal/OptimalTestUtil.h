// OptimalTestUtil.h: test support for the exact shortest-path tests and benchmark: hand-made meshes
// built with nav::buildTileData, Recast-baked levels, and the same tile blobs mirrored into Detour's
// dtNavMesh (the oracle: the layout is identical, so poly refs mean the same poly in both).
#pragma once

#include "nav/NavMesh.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class dtNavMesh;
class dtNavMeshQuery;

namespace opttest {

/// An off-mesh connection of a hand-made tile.
struct HandOffMesh {
  float a[3], b[3];
  float rad = 0.5f;
  bool bidir = true;
  uint8_t area = 5;
  uint16_t flags = 8;
};

/// One tile of a hand-made mesh. Vertices are world positions on the cell grid (cs, ch); polygons
/// are convex vertex lists in any winding (normalised to Recast's). Polygons sharing an edge are
/// linked unless the pair is listed in `walls`; edges on the tile's bounds become tile-border
/// portals in tiled meshes.
struct HandTile {
  int tx = 0, ty = 0;
  std::vector<float> verts; ///< [(x, y, z) * n] world
  std::vector<std::vector<int>> polys;
  std::vector<uint8_t> areas;  ///< per poly (default 0)
  std::vector<uint16_t> flags; ///< per poly (default 1)
  std::vector<std::pair<int, int>> walls;
  std::vector<HandOffMesh> cons;

  int addVert(float x, float y, float z);
  /// Adds a polygon from (x, z) corners at height y; returns its index.
  int addPoly(std::initializer_list<std::pair<float, float>> xz, float y = 0.0f, uint8_t area = 0,
              uint16_t flags = 1);
};

struct HandMesh {
  float cs = 0.5f, ch = 0.2f;
  float tileSize = 64.0f; ///< World size of a tile (tiles at tx * tileSize from the origin).
  std::vector<HandTile> tiles;
};

/// Both meshes of one test world: ours and Detour's, built from the same blobs.
struct World {
  nav::NavMesh mesh;
  dtNavMesh* dt = nullptr;
  dtNavMeshQuery* dtq = nullptr;
  World();
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;
};

bool buildHandMesh(const HandMesh& hm, World& out, std::string* why);

/// The project's default level (assets/levels/default.obj), a shared level by file name (the
/// path, present or not), and whether a file can be read.
std::string defaultLevelObj();
std::string sharedLevelObj(const std::string& file);
bool fileExists(const std::string& path);

/// Bakes an OBJ level (Recast, RecastDemo's defaults; tiled when `tiled`) into both meshes.
bool buildLevel(const std::string& objPath, bool tiled, World& out, std::string* why);

/// Bakes a triangle soup given as arrays (see navtest::TriMesh) into both meshes.
bool buildLevelFromTriangles(const std::vector<float>& verts, const std::vector<int>& tris, bool tiled, World& out,
                             std::string* why);

/// A larger generated level for benchmarks: a size x size floor with `obstacles` random walls and
/// boxes (2.5 m high, seeded), as triangles [(x, y, z) * n], [(a, b, c) * m].
void generateObstacleField(float size, int obstacles, uint32_t seed, std::vector<float>& verts,
                           std::vector<int>& tris);

/// The polygon containing (x, z) near height y (Detour's findNearestPoly with small extents).
nav::PolyRef findPoly(World& w, const float* pos, float* nearest = nullptr);

/// Deterministic [0, 1) random numbers for Detour's findRandomPoint.
void seedRandom(uint32_t seed);
float frand();

/// Detour's findPath + findStraightPath. Returns the straight path length (ShortestPath's metric)
/// or a negative value when Detour did not find a complete path.
float detourPath(World& w, nav::PolyRef s, nav::PolyRef e, const float* sp, const float* ep,
                 std::vector<float>* pts = nullptr, std::vector<uint8_t>* flags = nullptr,
                 std::vector<nav::PolyRef>* corridor = nullptr);

} // namespace opttest
