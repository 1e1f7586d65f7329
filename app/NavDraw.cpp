#include "app/NavDraw.h"

#include "nav/bake/Areas.h"
#include "render/DebugDraw.h"

#include <cmath>
#include <cstdio>

namespace navbench {

namespace {

glm::vec3 V(const float* p) { return {p[0], p[1], p[2]}; }

/// Vertex k of a detail triangle of poly `pi`.
const float* detailVert(const nav::MeshTile* tile, const nav::Poly& poly, const nav::PolyDetail& pd, uint8_t k) {
  return k < poly.vertCount ? &tile->verts[poly.verts[k] * 3] : &tile->detailVerts[(pd.vertBase + k - poly.vertCount) * 3];
}

void fillPoly(render::DebugDraw& dd, const nav::MeshTile* tile, int pi, uint32_t color, float lift) {
  const nav::Poly& poly = tile->polys[pi];
  if (poly.getType() != nav::POLYTYPE_GROUND) return;
  const nav::PolyDetail& pd = tile->detailMeshes[pi];
  const glm::vec3 up(0, lift, 0);
  for (int j = 0; j < pd.triCount; ++j) {
    const uint8_t* t = &tile->detailTris[(pd.triBase + uint32_t(j)) * 4];
    for (int k = 0; k < 3; ++k) dd.vertex(V(detailVert(tile, poly, pd, t[k])) + up, color);
  }
}

} // namespace

uint32_t areaColor(uint8_t area, uint8_t a) {
  switch (area) {
  case nav::bake::AREA_GROUND: return render::rgba(0, 192, 255, a);
  case nav::bake::AREA_WATER: return render::rgba(0, 60, 230, a);
  case nav::bake::AREA_ROAD: return render::rgba(80, 80, 90, a);
  case nav::bake::AREA_DOOR: return render::rgba(170, 110, 30, a);
  case nav::bake::AREA_GRASS: return render::rgba(40, 190, 40, a);
  case nav::bake::AREA_JUMP: return render::rgba(255, 150, 0, a);
  default: {
    const uint32_t h = uint32_t(area) * 2654435761u;
    return render::rgba(uint8_t(80 + (h >> 8) % 170), uint8_t(80 + (h >> 16) % 170), uint8_t(80 + (h >> 24) % 170), a);
  }
  }
}

glm::vec3 polyCenter(const nav::NavMesh& mesh, nav::PolyRef ref) {
  const nav::MeshTile* tile = nullptr;
  const nav::Poly* poly = nullptr;
  if (nav::statusFailed(mesh.getTileAndPolyByRef(ref, &tile, &poly)) || poly->vertCount == 0) return glm::vec3(0);
  glm::vec3 c(0);
  for (int i = 0; i < poly->vertCount; ++i) c += V(&tile->verts[poly->verts[i] * 3]);
  return c / float(poly->vertCount);
}

void drawPolyFill(render::DebugDraw& dd, const nav::NavMesh& mesh, nav::PolyRef ref, uint32_t color, float lift) {
  const nav::MeshTile* tile = nullptr;
  const nav::Poly* poly = nullptr;
  if (nav::statusFailed(mesh.getTileAndPolyByRef(ref, &tile, &poly))) return;
  dd.begin(render::Prim::Tris);
  fillPoly(dd, tile, int(poly - tile->polys), color, lift);
  dd.end();
}

void drawArc(render::DebugDraw& dd, const glm::vec3& a, const glm::vec3& b, float height, uint32_t color, bool bidir,
             float width) {
  const int n = 16;
  dd.begin(render::Prim::Lines, width);
  glm::vec3 prev = a;
  for (int i = 1; i <= n; ++i) {
    const float u = float(i) / float(n);
    glm::vec3 p = glm::mix(a, b, u);
    p.y += height * 4.0f * u * (1.0f - u);
    dd.vertex(prev, color);
    dd.vertex(p, color);
    prev = p;
  }
  // Arrow heads: two short lines at the end, in the plane of the arc's ground direction.
  auto head = [&](const glm::vec3& tip, const glm::vec3& from) {
    glm::vec3 d = tip - from;
    float len = glm::length(d);
    if (len < 1e-4f) return;
    d /= len;
    glm::vec3 side = glm::normalize(glm::cross(d, glm::vec3(0, 1, 0)) + glm::vec3(1e-6f));
    const float s = 0.35f;
    dd.vertex(tip, color);
    dd.vertex(tip - d * s + side * s * 0.5f, color);
    dd.vertex(tip, color);
    dd.vertex(tip - d * s - side * s * 0.5f, color);
  };
  const float u1 = 1.0f - 1.0f / float(n);
  glm::vec3 nearB = glm::mix(a, b, u1);
  nearB.y += height * 4.0f * u1 * (1.0f - u1);
  head(b, nearB);
  if (bidir) {
    const float u0 = 1.0f / float(n);
    glm::vec3 nearA = glm::mix(a, b, u0);
    nearA.y += height * 4.0f * u0 * (1.0f - u0);
    head(a, nearA);
  }
  dd.end();
}

void drawAgent(render::DebugDraw& dd, const glm::vec3& p, float r, float h, uint32_t color) {
  dd.circle(p + glm::vec3(0, 0.05f, 0), r, color, 2.0f);
  dd.circle(p + glm::vec3(0, h, 0), r, color, 2.0f);
  dd.begin(render::Prim::Lines, 1.5f);
  for (int i = 0; i < 8; ++i) {
    const float a = float(i) * 6.2831853f / 8.0f;
    const glm::vec3 o(std::cos(a) * r, 0, std::sin(a) * r);
    dd.vertex(p + o, color);
    dd.vertex(p + o + glm::vec3(0, h, 0), color);
  }
  dd.end();
}

void tileLabels(const nav::NavMesh& mesh, std::vector<NavLabel>& out) {
  out.clear();
  for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
    const nav::MeshTile* tile = mesh.getTile(ti);
    if (!tile || !tile->header) continue;
    const nav::MeshHeader& h = *tile->header;
    NavLabel l;
    // The middle of the tile's vertices (its bounds include the border outside the level).
    if (h.vertCount <= 0) continue;
    glm::vec3 c(0.0f);
    for (int v = 0; v < h.vertCount; ++v) c += V(&tile->verts[v * 3]);
    l.pos = c / float(h.vertCount) + glm::vec3(0, 0.5f, 0);
    if (h.layer) std::snprintf(l.text, sizeof l.text, "%d,%d:%d", h.x, h.y, h.layer);
    else std::snprintf(l.text, sizeof l.text, "%d,%d", h.x, h.y);
    out.push_back(l);
  }
}

void drawNavMesh(render::DebugDraw& dd, const nav::NavMesh& mesh, const NavDrawOptions& opt, nav::PolyRef hovered) {
  const glm::vec3 up(0, opt.lift, 0);
  const uint32_t wallColor = render::rgba(20, 40, 60, 230), innerColor = render::rgba(20, 60, 90, 90),
                 tileColor = render::rgba(230, 60, 200, 200), detailColor = render::rgba(0, 0, 0, 50),
                 disabledColor = render::rgba(110, 110, 110, 170), offColor = render::rgba(255, 120, 0, 230);
  for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
    const nav::MeshTile* tile = mesh.getTile(ti);
    if (!tile || !tile->header) continue;
    const nav::MeshHeader& h = *tile->header;
    if (opt.polys) {
      dd.begin(render::Prim::Tris);
      for (int pi = 0; pi < h.polyCount; ++pi) {
        const nav::Poly& p = tile->polys[pi];
        const uint32_t c = (p.flags & nav::bake::FLAG_DISABLED) ? disabledColor : areaColor(p.getArea());
        fillPoly(dd, tile, pi, c, opt.lift);
      }
      dd.end();
    }
    if (opt.polyEdges || opt.tileBorders) {
      // Walls thick, inner edges thin, tile-border portals in their own colour.
      for (int pass = 0; pass < 3; ++pass) {
        if ((pass < 2 && !opt.polyEdges) || (pass == 2 && !opt.tileBorders)) continue;
        dd.begin(render::Prim::Lines, pass == 0 ? 2.5f : pass == 1 ? 1.0f : 2.0f);
        const uint32_t col = pass == 0 ? wallColor : pass == 1 ? innerColor : tileColor;
        for (int pi = 0; pi < h.polyCount; ++pi) {
          const nav::Poly& p = tile->polys[pi];
          if (p.getType() != nav::POLYTYPE_GROUND) continue;
          for (int e = 0; e < p.vertCount; ++e) {
            const uint16_t nei = p.neis[e];
            const int kind = nei == 0 ? 0 : (nei & nav::EXT_LINK) ? 2 : 1;
            if (kind != pass) continue;
            if (kind == 1 && (nei - 1) < pi) continue; // each inner edge once
            dd.vertex(V(&tile->verts[p.verts[e] * 3]) + up, col);
            dd.vertex(V(&tile->verts[p.verts[(e + 1) % p.vertCount] * 3]) + up, col);
          }
        }
        dd.end();
      }
    }
    if (opt.portals) {
      const uint32_t portalColor = render::rgba(255, 210, 40, 230);
      dd.begin(render::Prim::Lines, 2.0f);
      for (int pi = 0; pi < h.polyCount; ++pi) {
        const nav::Poly& p = tile->polys[pi];
        if (p.getType() != nav::POLYTYPE_GROUND) continue;
        for (uint32_t li = p.firstLink; li != nav::NULL_LINK; li = tile->links[li].next) {
          const nav::Link& l = tile->links[li];
          if (l.side != 0xff || l.edge >= p.vertCount) continue; // tile-border portal or off-mesh link
          const nav::MeshTile* nt = nullptr;
          const nav::Poly* np = nullptr;
          mesh.getTileAndPolyByRefUnsafe(l.ref, &nt, &np);
          if (nt != tile || np->getType() != nav::POLYTYPE_GROUND || int(np - tile->polys) < pi) continue; // once
          dd.vertex(V(&tile->verts[p.verts[l.edge] * 3]) + up * 1.1f, portalColor);
          dd.vertex(V(&tile->verts[p.verts[(l.edge + 1) % p.vertCount] * 3]) + up * 1.1f, portalColor);
        }
      }
      dd.end();
    }
    if (opt.detailMesh) {
      dd.begin(render::Prim::Lines, 1.0f);
      for (int pi = 0; pi < h.polyCount; ++pi) {
        const nav::Poly& p = tile->polys[pi];
        if (p.getType() != nav::POLYTYPE_GROUND) continue;
        const nav::PolyDetail& pd = tile->detailMeshes[pi];
        for (int j = 0; j < pd.triCount; ++j) {
          const uint8_t* t = &tile->detailTris[(pd.triBase + uint32_t(j)) * 4];
          for (int k = 0; k < 3; ++k) {
            dd.vertex(V(detailVert(tile, p, pd, t[k])) + up * 1.2f, detailColor);
            dd.vertex(V(detailVert(tile, p, pd, t[(k + 1) % 3])) + up * 1.2f, detailColor);
          }
        }
      }
      dd.end();
    }
    if (opt.bvTree && h.bvNodeCount > 0) {
      const float cs = 1.0f / h.bvQuantFactor;
      for (int i = 0; i < h.bvNodeCount; ++i) {
        const nav::BVNode& n = tile->bvTree[i];
        if (n.i < 0) continue;
        const glm::vec3 mn(h.bmin[0] + n.bmin[0] * cs, h.bmin[1] + n.bmin[1] * cs, h.bmin[2] + n.bmin[2] * cs);
        const glm::vec3 mx(h.bmin[0] + n.bmax[0] * cs, h.bmin[1] + n.bmax[1] * cs, h.bmin[2] + n.bmax[2] * cs);
        dd.wireBox(mn, mx, render::rgba(255, 255, 255, 60));
      }
    }
    if (opt.offMeshLinks) {
      for (int i = 0; i < h.offMeshConCount; ++i) {
        const nav::OffMeshConnection& c = tile->offMeshCons[i];
        const glm::vec3 a = V(&c.pos[0]), b = V(&c.pos[3]);
        drawArc(dd, a, b, 0.25f * glm::length(b - a) + 0.5f, offColor, (c.flags & nav::OFFMESH_CON_BIDIR) != 0);
        dd.circle(a + up, c.rad, offColor, 1.5f);
        dd.circle(b + up, c.rad, offColor, 1.5f);
      }
    }
  }
  if (hovered && mesh.isValidPolyRef(hovered)) drawPolyFill(dd, mesh, hovered, render::rgba(255, 255, 255, 110), opt.lift * 1.5f);
}

} // namespace navbench
