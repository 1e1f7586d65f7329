#include "app/NavDraw.h"

#include "app/DetailTris.h"

#include "nav/NavAreas.h"
#include "render/DebugDraw.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace navbench {

namespace {

glm::vec3 V(const float* p) { return {p[0], p[1], p[2]}; }

void fillPoly(render::DebugDraw& dd, const nav::MeshTile* tile, int pi, uint32_t color, float lift) {
  const glm::vec3 up(0, lift, 0);
  forEachDetailTri(*tile, pi, [&](const float* const* v) {
    for (int k = 0; k < 3; ++k) dd.vertex(V(v[k]) + up, color);
  });
}

} // namespace

uint32_t areaColor(uint8_t area, uint8_t a) {
  switch (area) {
  case nav::AREA_GROUND: return render::rgba(0, 192, 255, a);
  case nav::AREA_WATER: return render::rgba(0, 60, 230, a);
  case nav::AREA_ROAD: return render::rgba(80, 80, 90, a);
  case nav::AREA_DOOR: return render::rgba(170, 110, 30, a);
  case nav::AREA_GRASS: return render::rgba(40, 190, 40, a);
  case nav::AREA_JUMP: return render::rgba(255, 150, 0, a);
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

namespace {
void tileLabelsIf(const nav::NavMesh& mesh, std::vector<NavLabel>& out, const render::Camera* cam, float aspect,
                  float viewportHeightPx, float minPx) {
  out.clear();
  render::Frustum frustum;
  glm::vec3 eye(0.0f);
  float ppu = 0.0f;
  if (cam) {
    frustum = render::Frustum(cam->viewProj(aspect));
    eye = cam->eye();
    ppu = viewportHeightPx / (2.0f * std::tan(cam->fovY * 0.5f));
  }
  for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
    const nav::MeshTile* tile = mesh.getTile(ti);
    if (!tile || !tile->header) continue;
    const nav::MeshHeader& h = *tile->header;
    if (cam) {
      const glm::vec3 mn(h.bmin[0], h.bmin[1], h.bmin[2]), mx(h.bmax[0], h.bmax[1], h.bmax[2]);
      if (!frustum.visible(mn, mx)) continue;
      const float radius = 0.5f * glm::length(mx - mn);
      const float dist = std::max(glm::length(0.5f * (mn + mx) - eye) - radius, 1e-3f);
      if (2.0f * radius * ppu / dist < minPx) continue;
    }
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
} // namespace

void tileLabels(const nav::NavMesh& mesh, std::vector<NavLabel>& out) { tileLabelsIf(mesh, out, nullptr, 1.0f, 1.0f, 0.0f); }

void tileLabels(const nav::NavMesh& mesh, std::vector<NavLabel>& out, const render::Camera& cam, float aspect,
                float viewportHeightPx, float minPx) {
  tileLabelsIf(mesh, out, &cam, aspect, viewportHeightPx, minPx);
}

bool groupEnabled(const NavDrawOptions& opt, int g) {
  switch (g) {
  case GROUP_POLYS: return opt.polys;
  case GROUP_EDGES: return opt.polyEdges;
  case GROUP_BORDERS: return opt.tileBorders;
  case GROUP_PORTALS: return opt.portals;
  case GROUP_OFFMESH: return opt.offMeshLinks;
  case GROUP_DETAIL: return opt.detailMesh;
  case GROUP_BVTREE: return opt.bvTree;
  default: return false;
  }
}

const char* groupName(int g) {
  static const char* names[GROUP_COUNT] = {"polys", "edges", "borders", "portals", "offmesh", "detail", "bvtree"};
  return g >= 0 && g < GROUP_COUNT ? names[g] : "?";
}

void drawTileGroup(render::DebugDraw& dd, const nav::NavMesh& mesh, const nav::MeshTile* tile, int group, float lift) {
  if (!tile || !tile->header) return;
  const nav::MeshHeader& h = *tile->header;
  const glm::vec3 up(0, lift, 0);
  const uint32_t wallColor = render::rgba(20, 40, 60, 230), innerColor = render::rgba(20, 60, 90, 90),
                 tileColor = render::rgba(230, 60, 200, 200), detailColor = render::rgba(0, 0, 0, 50),
                 disabledColor = render::rgba(110, 110, 110, 170), offColor = render::rgba(255, 120, 0, 230);
  switch (group) {
  case GROUP_POLYS:
    dd.begin(render::Prim::Tris);
    for (int pi = 0; pi < h.polyCount; ++pi) {
      const nav::Poly& p = tile->polys[pi];
      const uint32_t c = (p.flags & nav::FLAG_DISABLED) ? disabledColor : areaColor(p.getArea());
      fillPoly(dd, tile, pi, c, lift);
    }
    dd.end();
    break;
  case GROUP_EDGES:
  case GROUP_BORDERS:
    // Walls thick, inner edges thin (edges group); tile-border portals in their own colour.
    for (int pass = group == GROUP_EDGES ? 0 : 2; pass < (group == GROUP_EDGES ? 2 : 3); ++pass) {
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
    break;
  case GROUP_PORTALS: {
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
    break;
  }
  case GROUP_DETAIL:
    dd.begin(render::Prim::Lines, 1.0f);
    forEachDetailTri(*tile, [&](const float* const* v) {
      for (int k = 0; k < 3; ++k) {
        dd.vertex(V(v[k]) + up * 1.2f, detailColor);
        dd.vertex(V(v[(k + 1) % 3]) + up * 1.2f, detailColor);
      }
    });
    dd.end();
    break;
  case GROUP_BVTREE:
    if (h.bvNodeCount > 0) {
      const float cs = 1.0f / h.bvQuantFactor;
      for (int i = 0; i < h.bvNodeCount; ++i) {
        const nav::BVNode& n = tile->bvTree[i];
        if (n.i < 0) continue;
        const glm::vec3 mn(h.bmin[0] + n.bmin[0] * cs, h.bmin[1] + n.bmin[1] * cs, h.bmin[2] + n.bmin[2] * cs);
        const glm::vec3 mx(h.bmin[0] + n.bmax[0] * cs, h.bmin[1] + n.bmax[1] * cs, h.bmin[2] + n.bmax[2] * cs);
        dd.wireBox(mn, mx, render::rgba(255, 255, 255, 60));
      }
    }
    break;
  case GROUP_OFFMESH:
    for (int i = 0; i < h.offMeshConCount; ++i) {
      const nav::OffMeshConnection& c = tile->offMeshCons[i];
      const glm::vec3 a = V(&c.pos[0]), b = V(&c.pos[3]);
      drawArc(dd, a, b, 0.25f * glm::length(b - a) + 0.5f, offColor, (c.flags & nav::OFFMESH_CON_BIDIR) != 0);
      dd.circle(a + up, c.rad, offColor, 1.5f);
      dd.circle(b + up, c.rad, offColor, 1.5f);
    }
    break;
  default: break;
  }
}

void drawNavMesh(render::DebugDraw& dd, const nav::NavMesh& mesh, const NavDrawOptions& opt, nav::PolyRef hovered) {
  for (int ti = 0; ti < mesh.getMaxTiles(); ++ti) {
    const nav::MeshTile* tile = mesh.getTile(ti);
    if (!tile || !tile->header) continue;
    for (int g = 0; g < GROUP_COUNT; ++g)
      if (groupEnabled(opt, g)) drawTileGroup(dd, mesh, tile, g, opt.lift);
  }
  drawHover(dd, mesh, opt, hovered);
}

void drawHover(render::DebugDraw& dd, const nav::NavMesh& mesh, const NavDrawOptions& opt, nav::PolyRef hovered) {
  if (hovered && mesh.isValidPolyRef(hovered)) drawPolyFill(dd, mesh, hovered, render::rgba(255, 255, 255, 110), opt.lift * 1.5f);
}

// --- NavDrawCache ---------------------------------------------------------------------------

NavDrawCache::NavDrawCache(bool gpu, int chunkTiles) : m_gpu(gpu), m_chunkTiles(chunkTiles < 1 ? 1 : chunkTiles) {
  const char* mode = std::getenv("NAVBENCH_NAVDRAW");
  m_immediate = mode && std::strcmp(mode, "immediate") == 0;
  if (const char* lod = std::getenv("NAVBENCH_NAVDRAW_LOD")) lineLodPixels = float(std::atof(lod));
}

int NavDrawCache::builds(int tileIndex, int g) const {
  if (tileIndex < 0 || tileIndex >= int(m_tiles.size()) || g < 0 || g >= GROUP_COUNT) return 0;
  return m_tiles[size_t(tileIndex)].builds[g];
}

int NavDrawCache::packedVertices(int tileIndex) const {
  if (tileIndex < 0 || tileIndex >= int(m_tiles.size())) return 0;
  const Tile& t = m_tiles[size_t(tileIndex)];
  if (!t.present || t.chunk < 0) return 0;
  const Chunk& c = m_chunks[size_t(t.chunk)];
  int n = 0;
  for (size_t k = 0; k < c.tiles.size(); ++k) {
    if (c.tiles[k] != tileIndex) continue;
    for (const KindBuffer& kb : c.kinds)
      if (k < kb.count.size()) n += kb.count[k];
  }
  return n;
}

void NavDrawCache::invalidate() {
  m_immMesh = nullptr;
  m_tiles.clear();
  m_chunks.clear(); // releases the GPU buffers
  m_chunkIndex.clear();
  m_lift = -1.0f;
  for (bool& e : m_enabled) e = false;
  const Stats keep = m_stats;
  m_stats = Stats();
  m_stats.tileGroupBuilds = keep.tileGroupBuilds;
  for (int g = 0; g < GROUP_COUNT; ++g) m_stats.groupBuilds[g] = keep.groupBuilds[g];
  m_stats.chunkPacks = keep.chunkPacks;
  m_stats.maxUpdateMs = keep.maxUpdateMs;
}

int NavDrawCache::kindFor(const render::DebugDraw::Batch& b) {
  for (size_t k = 0; k < m_kinds.size(); ++k)
    if (m_kinds[k].prim == b.prim && m_kinds[k].size == b.size && m_kinds[k].depthTest == b.depthTest) return int(k);
  m_kinds.push_back({b.prim, b.size, b.depthTest});
  for (Chunk& c : m_chunks) c.kinds.resize(m_kinds.size());
  return int(m_kinds.size() - 1);
}

int NavDrawCache::chunkFor(int x, int y) {
  auto floorDiv = [](int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  const int cx = floorDiv(x, m_chunkTiles), cy = floorDiv(y, m_chunkTiles);
  const long long key = (static_cast<long long>(cx) << 32) ^ static_cast<long long>(static_cast<uint32_t>(cy));
  auto it = m_chunkIndex.find(key);
  if (it != m_chunkIndex.end()) return it->second;
  Chunk c;
  c.cx = cx;
  c.cy = cy;
  c.kinds.resize(m_kinds.size());
  m_chunks.push_back(std::move(c));
  const int idx = int(m_chunks.size() - 1);
  m_chunkIndex.emplace(key, idx);
  return idx;
}

void NavDrawCache::clearGroup(int i, int g) {
  Tile& t = m_tiles[size_t(i)];
  if (!t.built[g]) return;
  t.built[g] = false;
  t.layers[g].clear();
  t.layers[g].shrink_to_fit();
  if (t.chunk >= 0) m_chunks[size_t(t.chunk)].dirty = true;
}

void NavDrawCache::dropTile(int i) {
  Tile& t = m_tiles[size_t(i)];
  if (!t.present) return;
  if (t.chunk >= 0) {
    Chunk& c = m_chunks[size_t(t.chunk)];
    c.tiles.erase(std::remove(c.tiles.begin(), c.tiles.end(), i), c.tiles.end());
    c.dirty = true;
  }
  const Tile old = std::move(t);
  t = Tile();
  for (int g = 0; g < GROUP_COUNT; ++g) t.builds[g] = old.builds[g]; // the counts follow the slot
}

void NavDrawCache::buildGroup(const nav::NavMesh& mesh, int i, int g) {
  Tile& t = m_tiles[size_t(i)];
  m_rec.clear();
  drawTileGroup(m_rec, mesh, mesh.getTile(i), g, m_lift);
  t.layers[g].clear();
  for (const render::DebugDraw::Batch& b : m_rec.batches()) {
    if (b.verts.empty()) continue;
    t.layers[g].push_back({kindFor(b), b.verts});
  }
  m_rec.clear();
  t.built[g] = true;
  ++t.builds[g];
  ++m_stats.tileGroupBuilds;
  ++m_stats.groupBuilds[g];
  if (t.chunk >= 0) m_chunks[size_t(t.chunk)].dirty = true;
}

void NavDrawCache::pack(Chunk& c) {
  c.dirty = false;
  c.empty = true;
  std::vector<render::DebugVertex> verts;
  for (size_t k = 0; k < m_kinds.size(); ++k) {
    KindBuffer& kb = c.kinds[k];
    kb.first.assign(c.tiles.size(), 0);
    kb.count.assign(c.tiles.size(), 0);
    verts.clear();
    for (size_t ti = 0; ti < c.tiles.size(); ++ti) {
      const Tile& t = m_tiles[size_t(c.tiles[ti])];
      kb.first[ti] = int(verts.size());
      for (int g = 0; g < GROUP_COUNT; ++g)
        for (const Layer& l : t.layers[g])
          if (l.kind == int(k)) verts.insert(verts.end(), l.verts.begin(), l.verts.end());
      kb.count[ti] = int(verts.size()) - kb.first[ti];
    }
    kb.vertices = (long long)verts.size();
    if (m_gpu) {
      if (verts.empty()) kb.buf.release();
      else kb.buf.upload(m_kinds[k].prim, m_kinds[k].size, m_kinds[k].depthTest, verts.data(), verts.size());
    }
  }
  // Bounds of each tile (from its vertices) and of the chunk.
  for (int ti : c.tiles) {
    Tile& t = m_tiles[size_t(ti)];
    bool any = false;
    for (int g = 0; g < GROUP_COUNT; ++g)
      for (const Layer& l : t.layers[g])
        for (const render::DebugVertex& v : l.verts) {
          if (!any) t.bmin = t.bmax = v.pos;
          t.bmin = glm::min(t.bmin, v.pos);
          t.bmax = glm::max(t.bmax, v.pos);
          any = true;
        }
    if (!any) continue;
    if (c.empty) {
      c.bmin = t.bmin;
      c.bmax = t.bmax;
    }
    c.bmin = glm::min(c.bmin, t.bmin);
    c.bmax = glm::max(c.bmax, t.bmax);
    c.empty = false;
  }
  ++m_stats.chunkPacks;
}

void NavDrawCache::update(const nav::NavMesh& mesh, const NavDrawOptions& opt) {
  if (m_immediate) {
    m_immMesh = &mesh;
    m_immOpt = opt;
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const int maxTiles = mesh.getMaxTiles();
  for (int i = maxTiles; i < int(m_tiles.size()); ++i) dropTile(i);
  if (int(m_tiles.size()) != maxTiles) m_tiles.resize(size_t(maxTiles));

  // A new lift moves every vertex: everything is recorded again. A toggle: only its group.
  const bool liftChanged = opt.lift != m_lift;
  m_lift = opt.lift;
  for (int g = 0; g < GROUP_COUNT; ++g) {
    const bool on = groupEnabled(opt, g);
    if ((!on && m_enabled[g]) || liftChanged)
      for (int i = 0; i < maxTiles; ++i) clearGroup(i, g);
    m_enabled[g] = on;
  }

  // With a budget, tiles are recorded until it is spent (at least one per call); the rest wait
  // for the next calls (pendingTiles), registered but not drawn yet.
  int built = 0, pending = 0;
  auto mayBuild = [&]() {
    if (buildBudgetMs <= 0.0f || built == 0) return true;
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < buildBudgetMs;
  };
  auto buildMissing = [&](int i) {
    Tile& t = m_tiles[size_t(i)];
    bool missing = false;
    for (int g = 0; g < GROUP_COUNT; ++g) missing = missing || (m_enabled[g] && !t.built[g]);
    if (!missing) return;
    if (!mayBuild()) {
      ++pending;
      return;
    }
    for (int g = 0; g < GROUP_COUNT; ++g)
      if (m_enabled[g] && !t.built[g]) buildGroup(mesh, i, g);
    ++built;
  };
  for (int i = 0; i < maxTiles; ++i) {
    const nav::MeshTile* mt = mesh.getTile(i);
    Tile& t = m_tiles[size_t(i)];
    const bool present = mt && mt->header;
    if (t.present) {
      const bool same = present && mt->salt == t.salt && mt->header == t.header && mt->data == t.data &&
                        mt->dataSize == t.dataSize && mt->header->polyCount == t.polyCount &&
                        mt->header->vertCount == t.vertCount && mt->header->x == t.x && mt->header->y == t.y &&
                        mt->header->layer == t.layer;
      if (same) {
        buildMissing(i);
        continue;
      }
      dropTile(i);
    }
    if (!present) continue;
    t.present = true;
    t.salt = mt->salt;
    t.header = mt->header;
    t.data = mt->data;
    t.dataSize = mt->dataSize;
    t.polyCount = mt->header->polyCount;
    t.vertCount = mt->header->vertCount;
    t.x = mt->header->x;
    t.y = mt->header->y;
    t.layer = mt->header->layer;
    t.chunk = chunkFor(t.x, t.y);
    m_chunks[size_t(t.chunk)].tiles.push_back(i);
    m_chunks[size_t(t.chunk)].dirty = true;
    buildMissing(i);
  }
  m_stats.pendingTiles = pending;

  bool repacked = false;
  for (Chunk& c : m_chunks)
    if (c.dirty) {
      pack(c);
      repacked = true;
    }
  if (repacked) {
    m_stats.tiles = 0;
    m_stats.buffers = 0;
    m_stats.vertices = 0;
    m_stats.gpuBytes = 0;
    m_stats.cpuBytes = 0;
    m_stats.chunks = int(m_chunks.size());
    for (const Tile& t : m_tiles) {
      if (!t.present) continue;
      ++m_stats.tiles;
      for (int g = 0; g < GROUP_COUNT; ++g)
        for (const Layer& l : t.layers[g]) m_stats.cpuBytes += l.verts.capacity() * sizeof(render::DebugVertex);
    }
    for (const Chunk& c : m_chunks)
      for (const KindBuffer& kb : c.kinds) {
        if (kb.vertices == 0) continue;
        ++m_stats.buffers;
        m_stats.vertices += kb.vertices;
        m_stats.gpuBytes += kb.buf.bytes();
      }
  }
  m_stats.lastUpdateMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  m_stats.maxUpdateMs = std::max(m_stats.maxUpdateMs, m_stats.lastUpdateMs);
}

void NavDrawCache::draw(render::DebugDraw& dd, const render::Frustum& frustum, const glm::vec3& eye, float pixelsPerUnit) {
  m_stats.visibleTiles = m_stats.culledTiles = m_stats.drawnBuffers = m_stats.lineTiles = 0;
  if (m_immediate) {
    if (m_immMesh) drawNavMesh(dd, *m_immMesh, m_immOpt);
    return;
  }
  const bool lod = pixelsPerUnit > 0.0f && lineLodPixels > 0.0f;
  std::vector<char>& vis = m_vis;
  std::vector<char>& lines = m_lines;
  for (const Chunk& c : m_chunks) {
    if (c.empty || c.tiles.empty()) continue;
    const render::Frustum::Result r = frustum.classify(c.bmin, c.bmax);
    if (r == render::Frustum::Outside) {
      m_stats.culledTiles += int(c.tiles.size());
      continue;
    }
    // Per tile: visible (all of them when the chunk is inside) and big enough for its lines.
    const int n = int(c.tiles.size());
    vis.assign(size_t(n), 1);
    lines.assign(size_t(n), 1);
    int nvis = n, nlines = n;
    for (int ti = 0; ti < n; ++ti) {
      const Tile& t = m_tiles[size_t(c.tiles[size_t(ti)])];
      if (r == render::Frustum::Intersect && !frustum.visible(t.bmin, t.bmax)) {
        vis[size_t(ti)] = lines[size_t(ti)] = 0;
        --nvis;
        --nlines;
        continue;
      }
      if (lod) {
        const float radius = 0.5f * glm::length(t.bmax - t.bmin);
        const float dist = std::max(glm::length(0.5f * (t.bmin + t.bmax) - eye) - radius, 1e-3f);
        if (2.0f * radius * pixelsPerUnit / dist < lineLodPixels) {
          lines[size_t(ti)] = 0;
          --nlines;
        }
      }
    }
    m_stats.visibleTiles += nvis;
    m_stats.lineTiles += nlines;
    m_stats.culledTiles += n - nvis;
    if (nvis == 0) continue;
    for (size_t k = 0; k < c.kinds.size(); ++k) {
      const KindBuffer& kb = c.kinds[k];
      if (kb.vertices == 0) continue;
      const bool isLines = m_kinds[k].prim != render::Prim::Tris;
      const std::vector<char>& use = isLines ? lines : vis;
      const int nuse = isLines ? nlines : nvis;
      if (nuse == 0) continue;
      if (nuse == n) {
        if (m_gpu) dd.drawStatic(kb.buf);
        ++m_stats.drawnBuffers;
        continue;
      }
      // The chosen tiles' vertex ranges, adjacent ones merged.
      m_first.clear();
      m_count.clear();
      for (int ti = 0; ti < n; ++ti) {
        if (!use[size_t(ti)] || kb.count[size_t(ti)] == 0) continue;
        if (!m_first.empty() && m_first.back() + m_count.back() == kb.first[size_t(ti)]) m_count.back() += kb.count[size_t(ti)];
        else {
          m_first.push_back(kb.first[size_t(ti)]);
          m_count.push_back(kb.count[size_t(ti)]);
        }
      }
      if (m_first.empty()) continue;
      if (m_gpu) dd.drawStatic(kb.buf, m_first.data(), m_count.data(), int(m_first.size()));
      ++m_stats.drawnBuffers;
    }
  }
}

} // namespace navbench
