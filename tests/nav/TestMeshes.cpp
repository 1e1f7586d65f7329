#include "TestMeshes.h"
#include "tests/support/TileParams.h"

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
  setPolyMesh(p, m, m.nvp);
  setTile(p, s.tx, s.ty, s.layer, m.bmin, m.bmax);
  setAgent(p, 2.0f, 0.5f, s.climb);
  setGrid(p, m.cs, m.ch, s.bvTree);
  return p;
}

std::vector<uint8_t> buildGridTile(const GridTileSpec& s, const float* offMeshVerts, int offMeshCount, uint8_t bidir) {
  PolyMeshArrays m = makeGridPolyMesh(s);
  nav::TileBuildParams p = gridParams(s, m);
  OffMeshArrays om;
  for (int i = 0; i < offMeshCount; ++i)
    om.add(offMeshVerts + 6 * i, offMeshVerts + 6 * i + 3, 0.4f, 8, 5, bidir, uint32_t(1000 + i));
  om.applyTo(p);
  std::string why;
  std::vector<uint8_t> out = navBuild(p, &why);
  if (out.empty()) throw std::runtime_error("buildGridTile: " + why);
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
