#include "TestMeshes.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace navtest {

PolyMeshArrays makeGridPolyMesh(const GridTileSpec& s) {
  PolyMeshArrays m;
  m.cs = s.cs;
  m.ch = s.ch;
  const int nq = s.cells / s.quadCells; // quads per side
  const int nvs = nq + 1;               // verts per side
  const float tileW = float(s.cells) * s.cs;
  m.bmin[0] = float(s.tx) * tileW;
  m.bmin[1] = s.baseY;
  m.bmin[2] = float(s.ty) * tileW;
  m.bmax[0] = m.bmin[0] + tileW;
  m.bmax[1] = s.baseY + 2.0f;
  m.bmax[2] = m.bmin[2] + tileW;
  for (int j = 0; j < nvs; ++j)
    for (int i = 0; i < nvs; ++i) {
      m.verts.push_back(uint16_t(i * s.quadCells));
      m.verts.push_back(0);
      m.verts.push_back(uint16_t(j * s.quadCells));
    }
  m.nverts = nvs * nvs;
  auto vi = [&](int i, int j) { return uint16_t(j * nvs + i); };
  auto pi = [&](int i, int j) { return uint16_t(j * nq + i); };
  for (int qj = 0; qj < nq; ++qj)
    for (int qi = 0; qi < nq; ++qi) {
      uint16_t p[12];
      for (uint16_t& x : p) x = 0xffff;
      // Positive triArea2D order (as Recast): (x0,z0) (x0,z1) (x1,z1) (x1,z0).
      p[0] = vi(qi, qj);
      p[1] = vi(qi, qj + 1);
      p[2] = vi(qi + 1, qj + 1);
      p[3] = vi(qi + 1, qj);
      const uint16_t border = 0x800f;
      p[6] = qi > 0 ? pi(qi - 1, qj) : (s.portals ? uint16_t(0x8000 | 0) : border);      // -x
      p[7] = qj < nq - 1 ? pi(qi, qj + 1) : (s.portals ? uint16_t(0x8000 | 1) : border); // +z
      p[8] = qi < nq - 1 ? pi(qi + 1, qj) : (s.portals ? uint16_t(0x8000 | 2) : border); // +x
      p[9] = qj > 0 ? pi(qi, qj - 1) : (s.portals ? uint16_t(0x8000 | 3) : border);      // -z
      m.polys.insert(m.polys.end(), p, p + 12);
      m.flags.push_back(s.flags);
      m.areas.push_back(s.area);
    }
  m.npolys = nq * nq;
  return m;
}

nav::TileBuildParams gridParams(const GridTileSpec& s, const PolyMeshArrays& m) {
  nav::TileBuildParams p;
  p.verts = m.verts.data();
  p.vertCount = m.nverts;
  p.polys = m.polys.data();
  p.polyFlags = m.flags.data();
  p.polyAreas = m.areas.data();
  p.polyCount = m.npolys;
  p.nvp = m.nvp;
  p.tileX = s.tx;
  p.tileY = s.ty;
  p.tileLayer = s.layer;
  for (int k = 0; k < 3; ++k) {
    p.bmin[k] = m.bmin[k];
    p.bmax[k] = m.bmax[k];
  }
  p.walkableHeight = 2.0f;
  p.walkableRadius = 0.5f;
  p.walkableClimb = s.climb;
  p.cs = m.cs;
  p.ch = m.ch;
  p.buildBvTree = s.bvTree;
  return p;
}

std::vector<uint8_t> buildGridTile(const GridTileSpec& s, const float* offMeshVerts, int offMeshCount, uint8_t bidir) {
  PolyMeshArrays m = makeGridPolyMesh(s);
  nav::TileBuildParams p = gridParams(s, m);
  std::vector<float> rad(size_t(offMeshCount), 0.4f);
  std::vector<uint16_t> flags(size_t(offMeshCount), 8);
  std::vector<uint8_t> areas(size_t(offMeshCount), 5), dir(size_t(offMeshCount), bidir);
  std::vector<uint32_t> ids(static_cast<size_t>(offMeshCount));
  for (int i = 0; i < offMeshCount; ++i) ids[size_t(i)] = uint32_t(1000 + i);
  if (offMeshCount) {
    p.offMeshConVerts = offMeshVerts;
    p.offMeshConRad = rad.data();
    p.offMeshConFlags = flags.data();
    p.offMeshConAreas = areas.data();
    p.offMeshConDir = dir.data();
    p.offMeshConUserID = ids.data();
    p.offMeshConCount = offMeshCount;
  }
  uint8_t* data = nullptr;
  int size = 0;
  std::string why;
  if (!nav::buildTileData(p, &data, &size, &why)) throw std::runtime_error("buildGridTile: " + why);
  std::vector<uint8_t> out(data, data + size);
  delete[] data;
  return out;
}

nav::NavMeshParams gridMeshParams(const GridTileSpec& s, int maxTiles, int maxPolys) {
  nav::NavMeshParams p{};
  p.tileWidth = p.tileHeight = float(s.cells) * s.cs;
  p.maxTiles = maxTiles;
  p.maxPolys = maxPolys;
  return p;
}

uint8_t* dupBlob(const std::vector<uint8_t>& blob) {
  uint8_t* d = new uint8_t[blob.size()];
  std::memcpy(d, blob.data(), blob.size());
  return d;
}

} // namespace navtest
