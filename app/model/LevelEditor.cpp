#include "app/model/LevelEditor.h"

#include "app/Log.h"
#include "app/NavState.h"
#include "app/model/AgentSet.h"
#include "app/model/BakeRunner.h"
#include "app/model/LevelEditorSteps.h"
#include "nav/NavMath.h"
#include "nav/NavAreas.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <tuple>


namespace navbench {

using nav::bake::ConvexVolume;
using nav::bake::OffMeshLink;
using nav::bake::TileCoord;

namespace editor_detail {

void grow(float* bmin, float* bmax, const float* omin, const float* omax) {
  for (int i = 0; i < 3; ++i) {
    bmin[i] = std::min(bmin[i], omin[i]);
    bmax[i] = std::max(bmax[i], omax[i]);
  }
}

void polyShape(const nav::MeshTile* tile, const nav::Poly& p, float* centre, std::vector<float>* outline) {
  centre[0] = centre[1] = centre[2] = 0;
  for (int k = 0; k < p.vertCount; ++k) {
    const float* v = &tile->verts[p.verts[k] * 3];
    for (int i = 0; i < 3; ++i) centre[i] += v[i] / float(p.vertCount);
    if (outline) outline->insert(outline->end(), v, v + 3);
  }
}

PolyKey polyKey(const float* c, int n) {
  return {std::llround(c[0] * 1000.0), std::llround(c[1] * 1000.0), std::llround(c[2] * 1000.0), n};
}
nav::PolyRef polyAtCentre(const nav::NavMesh& mesh, const float* c) {
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* tile = mesh.getTile(i);
    if (!tile->header) continue;
    const float* bmin = tile->header->bmin;
    const float* bmax = tile->header->bmax;
    if (c[0] < bmin[0] - 1e-3f || c[0] > bmax[0] + 1e-3f || c[2] < bmin[2] - 1e-3f || c[2] > bmax[2] + 1e-3f) continue;
    const nav::PolyRef base = mesh.getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p) {
      float pc[3];
      polyShape(tile, tile->polys[p], pc, nullptr);
      if (std::fabs(pc[0] - c[0]) < 1e-3f && std::fabs(pc[1] - c[1]) < 1e-3f && std::fabs(pc[2] - c[2]) < 1e-3f)
        return base | nav::PolyRef(p);
    }
  }
  return 0;
}

std::string num(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", double(v));
  return buf;
}

bool checkVolume(const ConvexVolume& v, std::string* why) {
  auto fail = [why](const std::string& m) {
    if (why) *why = m;
    return false;
  };
  const size_t n = v.verts.size() / 3;
  if (v.verts.size() % 3 != 0 || n < 3) return fail("a volume needs at least 3 points (it has " + std::to_string(n) + ")");
  if (n > 12) return fail("a volume has at most 12 points (it has " + std::to_string(n) + ")");
  for (float f : v.verts)
    if (!std::isfinite(f)) return fail("a volume point is not a finite number");
  if (!std::isfinite(v.hmin) || !std::isfinite(v.hmax) || v.hmax <= v.hmin)
    return fail("the volume's top (" + num(v.hmax) + ") must be above its bottom (" + num(v.hmin) + ")");
  int distinct = 0;
  for (size_t i = 0; i < n; ++i) {
    bool same = false;
    for (size_t j = 0; j < i && !same; ++j)
      same = std::fabs(v.verts[i * 3] - v.verts[j * 3]) < 1e-3f && std::fabs(v.verts[i * 3 + 2] - v.verts[j * 3 + 2]) < 1e-3f;
    distinct += same ? 0 : 1;
  }
  if (distinct < 3) return fail("a volume needs 3 distinct points (it has " + std::to_string(distinct) + ")");
  float area2 = 0;
  for (size_t i = 0; i < n; ++i) {
    const float* a = &v.verts[i * 3];
    const float* b = &v.verts[((i + 1) % n) * 3];
    area2 += a[0] * b[2] - b[0] * a[2];
  }
  if (std::fabs(area2) < 1e-4f) return fail("the volume has no area (its points are in a line)");
  return true;
}

} // namespace editor_detail

using namespace editor_detail;

namespace {

struct PolyInfo {
  uint8_t area = 0;
  uint16_t flags = 0;
  float centre[3];
  std::vector<float> outline;
};
std::map<PolyKey, PolyInfo> groundPolys(const nav::NavMesh& mesh, const std::vector<TileCoord>& tiles) {
  std::map<PolyKey, PolyInfo> out;
  for (const TileCoord& t : tiles) {
    const nav::TileRef ref = mesh.getTileRefAt(t.x, t.y, 0);
    if (!ref) continue;
    const nav::MeshTile* tile = mesh.getTileByRef(ref);
    for (int i = 0; i < tile->header->polyCount; ++i) {
      const nav::Poly& p = tile->polys[i];
      if (p.getType() != nav::POLYTYPE_GROUND) continue;
      PolyInfo info;
      polyShape(tile, p, info.centre, &info.outline);
      info.area = p.getArea();
      info.flags = p.flags;
      out[polyKey(info.centre, p.vertCount)] = std::move(info);
    }
  }
  return out;
}

/// Sets (or clears) FLAG_DISABLED on the polys of `mesh` whose centres are `centres`.
void setDisabledFlag(nav::NavMesh& mesh, const std::vector<std::array<float, 3>>& centres, bool on) {
  for (const auto& c : centres)
    if (const nav::PolyRef ref = polyAtCentre(mesh, c.data())) {
      uint16_t flags = 0;
      mesh.getPolyFlags(ref, &flags);
      mesh.setPolyFlags(ref, on ? uint16_t(flags | nav::FLAG_DISABLED) : uint16_t(flags & ~nav::FLAG_DISABLED));
    }
}

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

} // namespace

LevelEditor::LevelEditor(BakeRunner& bake, NavState& nav, Log& log, History& history)
    : m_bake(bake), m_nav(nav), m_log(log), m_history(history) {
  m_bake.meshToSave = [this](const nav::NavMesh& open, std::unique_ptr<nav::NavMesh>* out, std::string* why) {
    return meshToSave(open, out, why);
  };
}

LevelEditor::~LevelEditor() {
  m_bake.meshToSave = nullptr;
  if (m_thread.joinable()) m_thread.join();
}

void LevelEditor::reset() {
  dropRebakes();
  m_applied.clear();
  m_undone.clear();
  m_history.reset();
  m_removed.clear();
  m_rulesBase.reset();
  m_removeOnSave = false;
  m_changes.clear();
  m_lastTiles.clear();
}

const std::vector<ConvexVolume>& LevelEditor::volumes() const { return m_bake.input().volumes; }
const std::vector<OffMeshLink>& LevelEditor::links() const { return m_bake.input().links; }

bool LevelEditor::prepare(std::string* why) {
  auto fail = [why](const std::string& msg) {
    if (why) *why = msg;
    return false;
  };
  if (!m_bake.hasSource()) return fail("no level to edit: open an OBJ or a level file (a tile set alone has no level)");
  if (!m_nav.loaded()) return fail("no navmesh yet: bake the level first (Bake panel, Ctrl+B)");
  if (m_bake.running()) return fail("a bake is running: edit when it is done");
  if (m_agents && m_agents->busy()) return fail("the agent types are still baking: edit when they are done");
  if (m_nav.tileCache()) {
    // Its tiles are rebuilt from the cache's layers whenever an obstacle touches them, so a tile
    // re-baked here would silently go back to the layers' version: these edits are refused.
    const std::string tcache = std::filesystem::path(m_nav.path()).filename().string();
    const std::string level = std::filesystem::path(m_bake.source()).filename().string();
    return fail("this navmesh comes from a tile cache (" + tcache + "): edit the level and bake layers again (navbench bake " +
                level + " --layers -o " + tcache + "), or open the .bin");
  }
  if (m_baker) return true;
  auto baker = std::make_unique<nav::bake::Baker>();
  std::string err;
  // Tiles re-baked here must match the open navmesh's others: rules edited since it was baked
  // wait for the next Build.
  nav::bake::BakeInput input = m_bake.input();
  if (m_rulesBase) input.areaRules = *m_rulesBase;
  nav::bake::BakeSettings s = m_bake.settings;
  if (m_agents) m_agents->forActive(&input.volumes, &input.links, &s);
  if (!baker->setInput(std::move(input), &err)) return fail("bake input: " + err);
  const nav::NavMeshParams& params = m_nav.mesh().getParams();
  float bmin[3], bmax[3];
  baker->bounds(bmin, bmax);
  if (s.tiled) {
    const float w = float(s.tileSize) * s.cellSize;
    if (std::fabs(params.tileWidth - w) > 1e-4f * w || std::fabs(params.orig[0] - bmin[0]) > 1e-3f ||
        std::fabs(params.orig[2] - bmin[2]) > 1e-3f)
      return fail("the open navmesh was not baked with the Bake panel's settings (tiles " + num(params.tileWidth) + " wu from (" +
                  num(params.orig[0]) + ", " + num(params.orig[2]) + "), the panel's " + num(w) + " wu from (" + num(bmin[0]) +
                  ", " + num(bmin[2]) + ")): Build it in the Bake panel first");
  } else if (params.maxTiles != 1) {
    return fail("the open navmesh is tiled but the Bake panel's settings are solo: Build it in the Bake panel first");
  }
  m_baker = std::move(baker);
  m_settings = s;
  return true;
}

bool LevelEditor::ready(std::string* why) { return prepare(why); }

void LevelEditor::gridSize(int* tilesX, int* tilesY) const {
  *tilesX = *tilesY = 0;
  if (m_baker) m_baker->tileGrid(m_settings, tilesX, tilesY);
}

bool LevelEditor::tileAt(const float* p, TileCoord* tile) const {
  if (!m_baker) return false;
  int tw = 0, th = 0;
  gridSize(&tw, &th);
  if (!m_settings.tiled) {
    float bmin[3], bmax[3];
    m_baker->bounds(bmin, bmax);
    *tile = {0, 0};
    return p[0] >= bmin[0] && p[0] <= bmax[0] && p[2] >= bmin[2] && p[2] <= bmax[2];
  }
  const nav::NavMeshParams& params = m_nav.mesh().getParams();
  const int x = int(std::floor((p[0] - params.orig[0]) / params.tileWidth));
  const int y = int(std::floor((p[2] - params.orig[2]) / params.tileHeight));
  *tile = {x, y};
  return x >= 0 && y >= 0 && x < tw && y < th;
}

void LevelEditor::tileBounds(const TileCoord& t, float* bmin, float* bmax) const {
  float lmin[3] = {0, 0, 0}, lmax[3] = {0, 0, 0};
  if (m_baker) m_baker->bounds(lmin, lmax);
  if (!m_settings.tiled) {
    std::copy(lmin, lmin + 3, bmin);
    std::copy(lmax, lmax + 3, bmax);
    return;
  }
  const float w = float(m_settings.tileSize) * m_settings.cellSize;
  bmin[0] = lmin[0] + float(t.x) * w;
  bmin[1] = lmin[1];
  bmin[2] = lmin[2] + float(t.y) * w;
  bmax[0] = bmin[0] + w;
  bmax[1] = lmax[1];
  bmax[2] = bmin[2] + w;
}

float LevelEditor::maxLinkLength() const {
  // A link lives in the tile of its start; its end is connected in that tile or one of its eight
  // neighbours only (Detour's rule), so a tiled bake allows up to one tile width.
  return m_settings.tiled ? float(m_settings.tileSize) * m_settings.cellSize : 1e30f;
}

// ---- edits -------------------------------------------------------------------------------------

bool LevelEditor::applyVolumesAndLinks(std::vector<ConvexVolume> newVolumes, std::vector<OffMeshLink> newLinks, const float* bmin,
                                       const float* bmax, const char* what, std::string* why) {
  std::string err;
  nav::bake::BakeInput check;
  check.verts = {0, 0, 0, 1, 0, 0, 0, 0, 1};
  check.tris = {0, 1, 2};
  check.volumes = newVolumes;
  check.links = newLinks;
  if (!check.validate(&err)) {
    if (why) *why = err;
    return false;
  }
  Step s;
  s.kind = Step::VolumesLinks;
  s.what = what;
  s.volBefore = volumes();
  s.linkBefore = links();
  s.volAfter = std::move(newVolumes);
  s.linkAfter = std::move(newLinks);
  std::copy(bmin, bmin + 3, s.bmin);
  std::copy(bmax, bmax + 3, s.bmax);
  apply(s, true);
  push(std::move(s));
  return true;
}


bool LevelEditor::addVolume(const ConvexVolume& v, std::string* why) {
  if (!prepare(why) || !checkVolume(v, why)) return false;
  std::vector<ConvexVolume> vols = volumes();
  vols.push_back(v);
  float bmin[3], bmax[3];
  nav::bake::editBounds(v, bmin, bmax);
  const std::string what = "added volume " + std::to_string(vols.size() - 1);
  return applyVolumesAndLinks(std::move(vols), links(), bmin, bmax, what.c_str(), why);
}

bool LevelEditor::setVolume(int index, const ConvexVolume& v, std::string* why) {
  if (!prepare(why) || !checkVolume(v, why)) return false;
  if (index < 0 || index >= int(volumes().size())) {
    if (why) *why = "no volume " + std::to_string(index);
    return false;
  }
  std::vector<ConvexVolume> vols = volumes();
  float bmin[3], bmax[3], omin[3], omax[3];
  nav::bake::editBounds(vols[size_t(index)], bmin, bmax);
  nav::bake::editBounds(v, omin, omax);
  grow(bmin, bmax, omin, omax);
  vols[size_t(index)] = v;
  const std::string what = "changed volume " + std::to_string(index);
  return applyVolumesAndLinks(std::move(vols), links(), bmin, bmax, what.c_str(), why);
}

bool LevelEditor::removeVolume(int index, std::string* why) {
  if (!prepare(why)) return false;
  if (index < 0 || index >= int(volumes().size())) {
    if (why) *why = "no volume " + std::to_string(index);
    return false;
  }
  std::vector<ConvexVolume> vols = volumes();
  float bmin[3], bmax[3];
  nav::bake::editBounds(vols[size_t(index)], bmin, bmax);
  vols.erase(vols.begin() + index);
  const std::string what = "removed volume " + std::to_string(index);
  return applyVolumesAndLinks(std::move(vols), links(), bmin, bmax, what.c_str(), why);
}

namespace {
bool checkLinkEnds(NavState& nav, float agentHeight, const OffMeshLink& l, float maxLen, std::string* why) {
  auto fail = [why](const std::string& m) {
    if (why) *why = m;
    return false;
  };
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(l.start[i]) || !std::isfinite(l.end[i])) return fail("a link end is not a finite number");
  if (!(l.radius > 0) || !std::isfinite(l.radius)) return fail("a link's radius must be above 0");
  const float dx = l.end[0] - l.start[0], dz = l.end[2] - l.start[2];
  const float len = std::sqrt(dx * dx + dz * dz);
  if (len > maxLen)
    return fail("the link is " + num(len) + " m long; the bake connects links up to one tile (" + num(maxLen) + " m)");
  if (len < 1e-3f) return fail("the link's ends are at the same place");
  // Each end over the navmesh: a poly within the link radius across and an agent's height up/down.
  const float ext[3] = {l.radius, agentHeight, l.radius};
  const char* names[2] = {"start", "end"};
  const float* ends[2] = {l.start, l.end};
  for (int e = 0; e < 2; ++e) {
    nav::PolyRef ref = 0;
    float nearest[3];
    nav::QueryFilter any;
    any.setIncludeFlags(0xffff);
    nav.query().findNearestPoly(ends[e], ext, &any, &ref, nearest);
    if (!ref)
      return fail(std::string("the link's ") + names[e] + " (" + num(ends[e][0]) + ", " + num(ends[e][1]) + ", " + num(ends[e][2]) +
                  ") is not over the navmesh");
  }
  return true;
}
} // namespace

bool LevelEditor::addLink(const OffMeshLink& l, std::string* why) {
  if (!prepare(why) || !checkLinkEnds(m_nav, m_bake.settings.agentHeight, l, maxLinkLength(), why)) return false;
  std::vector<OffMeshLink> ls = links();
  ls.push_back(l);
  float bmin[3], bmax[3];
  nav::bake::editBounds(l, bmin, bmax);
  const std::string what = "added link " + std::to_string(ls.size() - 1);
  return applyVolumesAndLinks(volumes(), std::move(ls), bmin, bmax, what.c_str(), why);
}

bool LevelEditor::setLink(int index, const OffMeshLink& l, std::string* why) {
  if (!prepare(why) || !checkLinkEnds(m_nav, m_bake.settings.agentHeight, l, maxLinkLength(), why)) return false;
  if (index < 0 || index >= int(links().size())) {
    if (why) *why = "no link " + std::to_string(index);
    return false;
  }
  std::vector<OffMeshLink> ls = links();
  float bmin[3], bmax[3], omin[3], omax[3];
  nav::bake::editBounds(ls[size_t(index)], bmin, bmax);
  nav::bake::editBounds(l, omin, omax);
  grow(bmin, bmax, omin, omax);
  ls[size_t(index)] = l;
  const std::string what = "changed link " + std::to_string(index);
  return applyVolumesAndLinks(volumes(), std::move(ls), bmin, bmax, what.c_str(), why);
}

bool LevelEditor::removeLink(int index, std::string* why) {
  if (!prepare(why)) return false;
  if (index < 0 || index >= int(links().size())) {
    if (why) *why = "no link " + std::to_string(index);
    return false;
  }
  std::vector<OffMeshLink> ls = links();
  float bmin[3], bmax[3];
  nav::bake::editBounds(ls[size_t(index)], bmin, bmax);
  ls.erase(ls.begin() + index);
  const std::string what = "removed link " + std::to_string(index);
  return applyVolumesAndLinks(volumes(), std::move(ls), bmin, bmax, what.c_str(), why);
}

bool LevelEditor::rebuildTiles(const std::vector<TileCoord>& tiles, std::string* why) {
  if (!prepare(why) || !m_baker->tilesInGrid(m_settings, tiles, why)) return false;
  // A rebuilt tile is no longer removed (not an undo step: it gives the bytes a bake gives).
  const size_t removedBefore = m_removed.size();
  for (const TileCoord& t : tiles)
    m_removed.erase(std::remove(m_removed.begin(), m_removed.end(), std::make_pair(activeAgent(), t)), m_removed.end());
  if (m_removed.size() != removedBefore) m_history.noteChange(); // what a scenario holds changed
  m_requestMs = nowMs();
  queueTiles(tiles);
  return true;
}

bool LevelEditor::rebuildAll(std::string* why) {
  if (!prepare(why)) return false;
  int tw = 0, th = 0;
  gridSize(&tw, &th);
  std::vector<TileCoord> all;
  for (int y = 0; y < th; ++y)
    for (int x = 0; x < tw; ++x) all.push_back({x, y});
  return rebuildTiles(all, why);
}

bool LevelEditor::removeTiles(const std::vector<TileCoord>& tiles, std::string* why) {
  if (!prepare(why)) return false;
  if (!m_baker->tilesInGrid(m_settings, tiles, why)) return false;
  return removeTilesOf(activeAgent(), tiles, why);
}

bool LevelEditor::removeTilesOf(int agent, const std::vector<TileCoord>& tiles, std::string* why) {
  NavState* nav = navOf(agent);
  Step s;
  s.kind = Step::RemoveTiles;
  s.agent = agent;
  for (const TileCoord& t : tiles)
    if (nav && nav->mesh().getTileRefAt(t.x, t.y, 0)) s.tiles.push_back(t);
  if (s.tiles.empty()) {
    if (why) *why = "no tile there to remove";
    return false;
  }
  s.what = "removed " + std::to_string(s.tiles.size()) + (s.tiles.size() == 1 ? " tile" : " tiles");
  if (agent != activeAgent()) s.what += " of agent " + m_agents->type(agent).name;
  apply(s, true);
  push(std::move(s));
  return true;
}

bool LevelEditor::setDisabled(const std::vector<nav::PolyRef>& polys, bool disabled, std::string* why) {
  if (!prepare(why)) return false;
  std::vector<std::array<float, 3>> centres;
  const nav::NavMesh& mesh = m_nav.mesh();
  for (nav::PolyRef ref : polys) {
    const nav::MeshTile* tile = nullptr;
    const nav::Poly* poly = nullptr;
    if (nav::statusFailed(mesh.getTileAndPolyByRef(ref, &tile, &poly))) continue;
    std::array<float, 3> c;
    polyShape(tile, *poly, c.data(), nullptr);
    centres.push_back(c);
  }
  return setDisabledAt(activeAgent(), std::move(centres), disabled, why);
}

bool LevelEditor::setDisabledAt(int agent, std::vector<std::array<float, 3>> centres, bool disabled, std::string* why) {
  NavState* nav = navOf(agent);
  Step s;
  s.kind = Step::Disable;
  s.agent = agent;
  s.disabled = disabled;
  for (const auto& c : centres)
    if (nav && polyAtCentre(nav->mesh(), c.data())) s.polys.push_back(c);
  if (s.polys.empty()) {
    if (why) *why = "no poly to " + std::string(disabled ? "disable" : "enable");
    return false;
  }
  s.what = std::string(disabled ? "disabled " : "enabled ") + std::to_string(s.polys.size()) + " polys";
  if (agent != activeAgent()) s.what += " of agent " + m_agents->type(agent).name;
  apply(s, true);
  push(std::move(s));
  return true;
}

void LevelEditor::setRemoveOnSave(bool on) {
  if (on == m_removeOnSave) return;
  m_removeOnSave = on;
  m_log.info(on ? "disabled polys will be removed from the saved navmesh" : "disabled polys will be saved (disabled)");
  if (m_nav.loaded()) m_bake.markEdited(); // the .bin to write changed
  m_history.noteChange();
}

void LevelEditor::edited() {
  m_bake.markEdited();
  m_nav.markEdited();
  if (navmeshEdited) navmeshEdited();
}

int LevelEditor::activeAgent() const { return m_agents && m_agents->enabled() ? m_agents->active() : -1; }

NavState* LevelEditor::navOf(int agent) {
  if (agent == activeAgent()) return &m_nav;
  return m_agents && agent >= 0 && agent < m_agents->count() ? m_agents->nav(agent) : nullptr;
}

bool LevelEditor::removed(int agent, const TileCoord& t) const {
  return std::find(m_removed.begin(), m_removed.end(), std::make_pair(agent, t)) != m_removed.end();
}

void LevelEditor::otherEdited() {
  m_bake.markEdited(); // Save writes every agent's navmesh
  if (agentsEdited) agentsEdited();
}

void LevelEditor::reapplyDisabled(int agent, nav::NavMesh& mesh) {
  for (const Step& s : m_applied)
    if (s.kind == Step::Disable && s.agent == agent) setDisabledFlag(mesh, s.polys, s.disabled);
}

bool LevelEditor::rebakeOthers(const float* bmin, const float* bmax) {
  if (!m_agents || !m_agents->enabled()) return true;
  const nav::bake::AgentMask mask = m_agents->inputChanged(m_bake.input());
  const int active = activeAgent();
  bool any = false;
  for (int i = 0; i < m_agents->count(); ++i) {
    NavState* nav = navOf(i);
    if (i == active || !(mask & nav::bake::agentBit(i)) || !nav) continue; // (no navmesh: its bake failed)
    std::vector<TileCoord> tiles;
    std::string why;
    if (!m_agents->tilesTouching(i, bmin, bmax, &tiles, &why)) {
      m_log.error("agent " + m_agents->type(i).name + ": rebake: " + why + " (the old tiles are kept)");
      continue;
    }
    tiles.erase(std::remove_if(tiles.begin(), tiles.end(), [&](const TileCoord& t) { return removed(i, t); }), tiles.end());
    if (tiles.empty()) continue;
    if (!m_agents->rebakeTiles(i, tiles, &why)) {
      m_log.error(why);
      continue;
    }
    reapplyDisabled(i, nav->mesh());
    any = true;
  }
  if (any) otherEdited();
  return active < 0 || (mask & nav::bake::agentBit(active)) != 0;
}

void LevelEditor::dropRebakes() {
  if (m_thread.joinable()) m_thread.join();
  m_running = false;
  m_done = false;
  m_result.clear();
  m_pending.clear();
  m_jobTiles.clear();
  m_baker.reset(); // prepare() makes it again, for the navmesh open then
}

void LevelEditor::agentSwitched() {
  dropRebakes();
  m_changes.clear();
  m_lastTiles.clear();
}

void LevelEditor::push(Step s) {
  m_log.info("edit: " + s.what);
  const std::string what = s.what;
  m_applied.push_back(std::move(s));
  m_undone.clear();
  m_history.push(this, what);
}

void LevelEditor::apply(const Step& s, bool forward) {
  switch (s.kind) {
  case Step::VolumesLinks: {
    m_bake.setEdits(forward ? s.volAfter : s.volBefore, forward ? s.linkAfter : s.linkBefore);
    std::vector<TileCoord> tiles;
    const bool mine = rebakeOthers(s.bmin, s.bmax);
    if (m_baker && mine) m_baker->tilesTouching(m_settings, s.bmin, s.bmax, &tiles);
    m_requestMs = nowMs();
    queueTiles(tiles);
    break;
  }
  case Step::RemoveTiles: {
    const bool active = s.agent == activeAgent();
    NavState* nav = navOf(s.agent);
    if (forward) {
      for (const TileCoord& t : s.tiles) {
        if (nav)
          if (const nav::TileRef ref = nav->mesh().getTileRefAt(t.x, t.y, 0)) nav->mesh().removeTile(ref, nullptr, nullptr);
        if (!removed(s.agent, t)) m_removed.push_back({s.agent, t});
        if (active) m_pending.erase(std::remove(m_pending.begin(), m_pending.end(), t), m_pending.end());
      }
      if (active) {
        m_lastTiles = s.tiles;
        m_changes.clear();
        edited();
      } else if (nav) {
        nav->markEdited();
        otherEdited();
      }
    } else {
      for (const TileCoord& t : s.tiles)
        m_removed.erase(std::remove(m_removed.begin(), m_removed.end(), std::make_pair(s.agent, t)), m_removed.end());
      if (active) {
        m_requestMs = nowMs();
        queueTiles(s.tiles);
      } else if (std::string why; !nav || !m_agents->rebakeTiles(s.agent, s.tiles, &why)) {
        m_log.error(nav ? why : "agent " + m_agents->type(s.agent).name + " has no navmesh: its tiles come back at its next bake");
      } else {
        reapplyDisabled(s.agent, nav->mesh());
        otherEdited();
      }
    }
    break;
  }
  case Step::Disable: {
    NavState* nav = navOf(s.agent);
    if (!nav) break; // (its bake failed: a new bake has no disabled polys anyway)
    setDisabledFlag(nav->mesh(), s.polys, forward ? s.disabled : !s.disabled);
    if (s.agent == activeAgent()) {
      edited();
    } else {
      nav->markEdited();
      otherEdited();
    }
    break;
  }
  case Step::Rules: // the next whole bake applies them (no tile is re-baked for them alone)
    m_bake.setAreaRules(forward ? s.rulesAfter : s.rulesBefore);
    break;
  }
}

void LevelEditor::undo() { replay(m_applied, m_undone, false); }

void LevelEditor::redo() { replay(m_undone, m_applied, true); }

void LevelEditor::replay(std::vector<Step>& from, std::vector<Step>& to, bool forward) {
  moveLast(from, to, [&](const Step& s) {
    m_log.info((forward ? "redo: " : "undo: ") + s.what);
    apply(s, forward);
  });
}

// ---- rebakes -----------------------------------------------------------------------------------

void LevelEditor::queueTiles(const std::vector<TileCoord>& tiles) {
  for (const TileCoord& t : tiles)
    if (std::find(m_pending.begin(), m_pending.end(), t) == m_pending.end()) m_pending.push_back(t);
  if (!m_running) startJob();
}

void LevelEditor::startJob() {
  if (m_running || !m_baker) return;
  m_jobTiles.clear();
  for (const TileCoord& t : m_pending)
    if (!removed(activeAgent(), t)) m_jobTiles.push_back(t);
  m_pending.clear();
  if (m_jobTiles.empty()) return;
  std::sort(m_jobTiles.begin(), m_jobTiles.end());
  std::string why;
  std::vector<nav::bake::ConvexVolume> volumes = m_bake.input().volumes;
  std::vector<nav::bake::OffMeshLink> links = m_bake.input().links;
  if (m_agents) m_agents->forActive(&volumes, &links, nullptr);
  if (!m_baker->setVolumesAndLinks(std::move(volumes), std::move(links), &why)) {
    m_log.error("rebake: " + why + " (the old tiles are kept)");
    return;
  }
  if (m_thread.joinable()) m_thread.join();
  m_done = false;
  m_tilesDone = 0;
  m_running = true;
  m_thread = std::thread([this]() {
    nav::bake::BakeOptions opt;
    opt.progress = [this](const nav::bake::BakeProgress& p) { m_tilesDone = p.tilesDone; };
    m_baker->bakeTiles(m_settings, m_jobTiles, opt, &m_result, &m_report);
    m_done = true;
  });
}

void LevelEditor::progress(int* done, int* total) const {
  *done = m_running ? m_tilesDone.load() : 0;
  *total = m_running ? int(m_jobTiles.size()) : 0;
}

void LevelEditor::poll() {
  if (m_running && m_done) {
    if (m_thread.joinable()) m_thread.join(); // (finish() may have joined it)
    m_running = false;
    swapIn();
  }
  if (!m_running && !m_pending.empty()) startJob();
}

void LevelEditor::finish() {
  while (busy()) {
    if (m_running && m_thread.joinable()) m_thread.join();
    poll();
  }
}

void LevelEditor::swapIn() {
  if (!m_report.ok) {
    m_log.error("rebake of " + std::to_string(m_jobTiles.size()) + " tiles failed: " + m_report.error + " (the old tiles are kept)");
    m_result.clear();
    return;
  }
  nav::NavMesh& mesh = m_nav.mesh();
  const std::map<PolyKey, PolyInfo> before = groundPolys(mesh, m_jobTiles);
  std::string why;
  if (!nav::bake::replaceTiles(mesh, m_result, &why)) {
    m_log.error("rebake: " + why + " (the old tiles are kept)");
    m_result.clear();
    return;
  }
  m_result.clear();
  // Polys disabled by the prune tool stay disabled in the tiles that came back.
  reapplyDisabled(activeAgent(), mesh);
  const std::map<PolyKey, PolyInfo> after = groundPolys(mesh, m_jobTiles);
  m_changes.clear();
  for (const auto& [key, info] : after) {
    auto it = before.find(key);
    if (it == before.end() || it->second.area != info.area || it->second.flags != info.flags) {
      PolyChange c{it == before.end() ? PolyChange::Added : PolyChange::Changed, {info.centre[0], info.centre[1], info.centre[2]}, info.outline};
      m_changes.push_back(std::move(c));
    }
  }
  for (const auto& [key, info] : before)
    if (!after.count(key)) m_changes.push_back({PolyChange::Removed, {info.centre[0], info.centre[1], info.centre[2]}, info.outline});
  m_lastTiles = m_jobTiles;
  ++m_rebakes;
  m_lastMs = nowMs() - m_requestMs;
  char buf[160];
  std::snprintf(buf, sizeof buf, "rebaked %d tile%s in %.1f ms: %d polys changed", int(m_jobTiles.size()),
                m_jobTiles.size() == 1 ? "" : "s", m_lastMs, int(m_changes.size()));
  m_log.info(buf);
  edited();
}

// ---- files -------------------------------------------------------------------------------------


} // namespace navbench
