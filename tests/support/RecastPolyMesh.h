// RecastPolyMesh.h: test support. Bakes a triangle soup with Recast the way RecastDemo's
// Sample_SoloMesh and Sample_TileMesh do (same steps, RecastDemo's default settings), and keeps the
// resulting poly mesh + detail mesh of every tile as plain arrays, ready to be fed to both
// nav::buildTileData and Detour's dtCreateNavMeshData. Independent of nav/ and nav/bake on purpose:
// the differential tests must not share code with what they check.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace navtest {

/// RecastDemo's sample area ids and poly flags.
enum SampleAreas : uint8_t { AREA_GROUND = 0, AREA_WATER = 1, AREA_ROAD = 2, AREA_DOOR = 3, AREA_GRASS = 4, AREA_JUMP = 5 };
enum SampleFlags : uint16_t { FLAG_WALK = 1, FLAG_SWIM = 2, FLAG_DOOR = 4, FLAG_JUMP = 8, FLAG_DISABLED = 16, FLAG_ALL = 0xffff };

/// Triangles [(x, y, z) * vertCount], [(a, b, c) * triCount].
struct TriMesh {
  std::vector<float> verts;
  std::vector<int> tris;
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
  int vertCount() const { return int(verts.size() / 3); }
  int triCount() const { return int(tris.size() / 3); }
  void calcBounds();
};

/// A tiny OBJ reader (v and f lines; faces fanned into triangles; 1-based or negative indices).
bool loadObj(const std::string& path, TriMesh& out, std::string* why);

/// RecastDemo's default build settings.
struct BakeSettings {
  float cs = 0.3f, ch = 0.2f;
  float agentHeight = 2.0f, agentRadius = 0.6f, agentMaxClimb = 0.9f, agentMaxSlope = 45.0f;
  int regionMinSize = 8, regionMergeSize = 20;
  float edgeMaxLen = 12.0f, edgeMaxError = 1.3f;
  int vertsPerPoly = 6;
  float detailSampleDist = 6.0f, detailSampleMaxError = 1.0f;
  int tileSize = 48; ///< cells, tiled builds only
};

/// The agent in voxels, as RecastDemo sizes its rcConfig: height and climb in cell heights (rounded
/// up, down), radius in cells (rounded up). cs, ch and the agent sizes in wu.
struct VoxelAgent {
  int height = 0, climb = 0, radius = 0;
};
inline VoxelAgent voxelAgent(float agentHeight, float agentMaxClimb, float agentRadius, float cs, float ch) {
  VoxelAgent v;
  v.height = int(std::ceil(agentHeight / ch));
  v.climb = int(std::floor(agentMaxClimb / ch));
  v.radius = int(std::ceil(agentRadius / cs));
  return v;
}

/// One tile's Recast output (rcPolyMesh + rcPolyMeshDetail, copied), flags set RecastDemo's way.
struct BakedTile {
  int tx = 0, ty = 0;
  int nverts = 0, npolys = 0, nvp = 6;
  std::vector<uint16_t> verts;  ///< [(x, y, z) * nverts] in cells
  std::vector<uint16_t> polys;  ///< [(verts[nvp], neis[nvp]) * npolys]
  std::vector<uint16_t> flags;  ///< [npolys]
  std::vector<uint8_t> areas;   ///< [npolys]
  float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
  float cs = 0, ch = 0;
  std::vector<uint32_t> dmeshes; ///< [(vertBase, vertCount, triBase, triCount) * npolys]
  std::vector<float> dverts;     ///< [(x, y, z) * ndverts]
  std::vector<uint8_t> dtris;    ///< [(a, b, c, flags) * ndtris]
  int ndverts = 0, ndtris = 0;
};

/// A baked level: its tiles and the tiled-mesh params RecastDemo would use.
struct BakedLevel {
  BakeSettings settings;
  bool tiled = false;
  std::vector<BakedTile> tiles; ///< tiles with polygons only, in row-major build order (y outer)
  float orig[3] = {0, 0, 0};
  float tileWidth = 0, tileHeight = 0;
  int maxTiles = 1, maxPolys = 0;
  int gridW = 1, gridH = 1;
};

/// Sample_SoloMesh: one tile covering the whole mesh.
bool bakeSolo(const TriMesh& mesh, const BakeSettings& s, BakedLevel& out, std::string* why);
/// Sample_TileMesh: tileSize x tileSize cells, border = walkableRadius + 3 cells.
bool bakeTiled(const TriMesh& mesh, const BakeSettings& s, BakedLevel& out, std::string* why);

} // namespace navtest
