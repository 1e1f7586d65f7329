#include "CheckMeshes.h"

#include "nav/NavMath.h"
#include "nav/TileBuilder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

namespace checktest {

TestPoly rect(float x0, float z0, float x1, float z1, float y) {
  TestPoly p;
  p.xz = {{x0, z0}, {x0, z1}, {x1, z1}, {x1, z0}};
  p.y = y;
  return p;
}

TestMeshSpec twoTileField() {
  TestMeshSpec s;
  for (int t = 0; t < 2; ++t)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        const float x0 = float(t) * 10 + float(i) * 5, z0 = float(j) * 5;
        s.polys.push_back(rect(x0, z0, x0 + 5, z0 + 5));
      }
  return s;
}

namespace {

struct TileBuild {
  std::vector<int> polys; // indices into spec.polys
};

} // namespace

std::unique_ptr<nav::NavMesh> buildMesh(const TestMeshSpec& spec) {
  std::map<std::pair<int, int>, TileBuild> tiles;
  for (size_t i = 0; i < spec.polys.size(); ++i) {
    float cx = 0, cz = 0;
    for (const auto& v : spec.polys[i].xz) {
      cx += v[0];
      cz += v[1];
    }
    cx /= float(spec.polys[i].xz.size());
    cz /= float(spec.polys[i].xz.size());
    const int tx = int(std::floor((cx - spec.orig[0]) / spec.tileSize));
    const int ty = int(std::floor((cz - spec.orig[2]) / spec.tileSize));
    tiles[{tx, ty}].polys.push_back(int(i));
  }
  auto mesh = std::make_unique<nav::NavMesh>();
  nav::NavMeshParams mp{};
  for (int k = 0; k < 3; ++k) mp.orig[k] = spec.orig[k];
  mp.tileWidth = mp.tileHeight = spec.tileSize;
  mp.maxTiles = 64;
  mp.maxPolys = 256;
  std::string why;
  if (!nav::statusSucceeded(mesh->init(mp, &why))) {
    ADD_FAILURE() << why;
    return nullptr;
  }
  const int cells = int(std::lround(spec.tileSize / spec.cs));
  for (auto& [loc, tb] : tiles) {
    const float bmin[3] = {spec.orig[0] + float(loc.first) * spec.tileSize, -5.0f,
                           spec.orig[2] + float(loc.second) * spec.tileSize};
    std::vector<uint16_t> verts, polys, flags;
    std::vector<uint8_t> areas;
    std::map<std::array<int, 3>, uint16_t> vmap;
    std::vector<std::vector<uint16_t>> pv;
    for (int pi : tb.polys) {
      const TestPoly& p = spec.polys[size_t(pi)];
      std::vector<std::array<float, 2>> xz = p.xz;
      // Recast's winding: positive triArea2D.
      float area = 0;
      for (size_t j = 2; j < xz.size(); ++j) {
        const float a[3] = {xz[0][0], 0, xz[0][1]}, b[3] = {xz[j - 1][0], 0, xz[j - 1][1]}, c[3] = {xz[j][0], 0, xz[j][1]};
        area += nav::triArea2D(a, b, c);
      }
      if (area < 0) std::reverse(xz.begin(), xz.end());
      std::vector<uint16_t> idx;
      for (const auto& v : xz) {
        const std::array<int, 3> q = {int(std::lround((v[0] - bmin[0]) / spec.cs)), int(std::lround((p.y - bmin[1]) / spec.ch)),
                                      int(std::lround((v[1] - bmin[2]) / spec.cs))};
        auto it = vmap.find(q);
        if (it == vmap.end()) {
          it = vmap.emplace(q, uint16_t(verts.size() / 3)).first;
          verts.push_back(uint16_t(q[0]));
          verts.push_back(uint16_t(q[1]));
          verts.push_back(uint16_t(q[2]));
        }
        idx.push_back(it->second);
      }
      pv.push_back(idx);
      flags.push_back(p.flags);
      areas.push_back(0);
    }
    const int nvp = 6;
    for (size_t i = 0; i < pv.size(); ++i) {
      std::vector<uint16_t> rec(size_t(nvp) * 2, nav::MESH_NULL_IDX);
      const size_t n = pv[i].size();
      for (size_t j = 0; j < n; ++j) {
        rec[j] = pv[i][j];
        const uint16_t a = pv[i][j], b = pv[i][(j + 1) % n];
        uint16_t nei = 0x800f;
        for (size_t o = 0; o < pv.size() && nei == 0x800f; ++o) {
          if (o == i) continue;
          const size_t m = pv[o].size();
          for (size_t k = 0; k < m; ++k)
            if (pv[o][k] == b && pv[o][(k + 1) % m] == a) nei = uint16_t(o);
        }
        if (nei == 0x800f) {
          const uint16_t* va = &verts[size_t(a) * 3];
          const uint16_t* vb = &verts[size_t(b) * 3];
          int dir = -1;
          if (va[0] == 0 && vb[0] == 0) dir = 0;
          else if (va[2] == cells && vb[2] == cells) dir = 1;
          else if (va[0] == cells && vb[0] == cells) dir = 2;
          else if (va[2] == 0 && vb[2] == 0) dir = 3;
          const float mx = bmin[0] + 0.5f * float(va[0] + vb[0]) * spec.cs;
          const float mz = bmin[2] + 0.5f * float(va[2] + vb[2]) * spec.cs;
          for (const auto& w : spec.walledBorder)
            if (std::fabs(w[0] - mx) < 1e-3f && std::fabs(w[1] - mz) < 1e-3f) dir = -1;
          if (dir >= 0) nei = uint16_t(0x8000 | dir);
        }
        rec[size_t(nvp) + j] = nei;
      }
      polys.insert(polys.end(), rec.begin(), rec.end());
    }
    // Off-mesh connections starting in this tile.
    std::vector<float> omv, omr;
    std::vector<uint16_t> omf;
    std::vector<uint8_t> oma, omd;
    std::vector<uint32_t> omu;
    for (const TestOffMesh& o : spec.offMesh) {
      if (o.a[0] < bmin[0] || o.a[0] >= bmin[0] + spec.tileSize || o.a[2] < bmin[2] || o.a[2] >= bmin[2] + spec.tileSize)
        continue;
      omv.insert(omv.end(), o.a, o.a + 3);
      omv.insert(omv.end(), o.b, o.b + 3);
      omr.push_back(o.rad);
      omf.push_back(1);
      oma.push_back(0);
      omd.push_back(o.bidir ? 1 : 0);
      omu.push_back(o.userId);
    }
    nav::TileBuildParams p;
    p.verts = verts.data();
    p.vertCount = int(verts.size() / 3);
    p.polys = polys.data();
    p.polyFlags = flags.data();
    p.polyAreas = areas.data();
    p.polyCount = int(pv.size());
    p.nvp = nvp;
    p.offMeshConVerts = omv.empty() ? nullptr : omv.data();
    p.offMeshConRad = omr.empty() ? nullptr : omr.data();
    p.offMeshConFlags = omf.empty() ? nullptr : omf.data();
    p.offMeshConAreas = oma.empty() ? nullptr : oma.data();
    p.offMeshConDir = omd.empty() ? nullptr : omd.data();
    p.offMeshConUserID = omu.empty() ? nullptr : omu.data();
    p.offMeshConCount = int(omr.size());
    p.tileX = loc.first;
    p.tileY = loc.second;
    for (int k = 0; k < 3; ++k) p.bmin[k] = bmin[k];
    p.bmax[0] = bmin[0] + spec.tileSize;
    p.bmax[1] = 5.0f;
    p.bmax[2] = bmin[2] + spec.tileSize;
    p.walkableHeight = 2.0f;
    p.walkableRadius = 0.3f;
    p.walkableClimb = spec.climb;
    p.cs = spec.cs;
    p.ch = spec.ch;
    uint8_t* data = nullptr;
    int size = 0;
    if (!nav::buildTileData(p, &data, &size, &why)) {
      ADD_FAILURE() << "tile " << loc.first << "," << loc.second << ": " << why;
      return nullptr;
    }
    if (!nav::statusSucceeded(mesh->addTile(data, size, nav::TILE_FREE_DATA, 0, nullptr, &why))) {
      delete[] data;
      ADD_FAILURE() << why;
      return nullptr;
    }
  }
  return mesh;
}

} // namespace checktest
