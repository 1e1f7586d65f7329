// DetailTris.h: walking a navmesh tile's detail triangles (the height detail of its ground polys),
// for the code that draws them, outlines them or copies them into a mesh.
#pragma once

#include "nav/NavMesh.h"

#include <cstdint>

namespace navbench {

/// Calls fn(v) for each detail triangle of poly `pi` of `tile`, in order, when that poly is a
/// ground poly (an off-mesh link has none); v[0..2] are its corners (3 floats each: x, y, z in
/// world units), pointers into the tile's polygon or detail vertices.
template <class Fn>
void forEachDetailTri(const nav::MeshTile& tile, int pi, Fn&& fn) {
  const nav::Poly& poly = tile.polys[pi];
  if (poly.getType() != nav::POLYTYPE_GROUND) return;
  const nav::PolyDetail& pd = tile.detailMeshes[pi];
  for (int j = 0; j < pd.triCount; ++j) {
    const uint8_t* t = &tile.detailTris[(pd.triBase + uint32_t(j)) * 4];
    const float* v[3];
    for (int k = 0; k < 3; ++k)
      v[k] = t[k] < poly.vertCount ? &tile.verts[poly.verts[t[k]] * 3] : &tile.detailVerts[(pd.vertBase + t[k] - poly.vertCount) * 3];
    fn(v);
  }
}

/// The same for every poly of `tile` (which must have a header), in poly order.
template <class Fn>
void forEachDetailTri(const nav::MeshTile& tile, Fn&& fn) {
  for (int pi = 0; pi < tile.header->polyCount; ++pi) forEachDetailTri(tile, pi, fn);
}

} // namespace navbench
