#include "app/Log.h"
#include "app/NavState.h"
#include "app/model/AgentSet.h"
#include "app/model/BakeRunner.h"
#include "app/model/LevelEditorSteps.h"
#include "nav/TileSetFile.h"
#include "nav/bake/LevelFile.h"
#include "nav/base/Json.h"
#include "nav/NavAreas.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace navbench {

using nav::bake::ConvexVolume;
using nav::bake::OffMeshLink;
using nav::bake::TileCoord;
using namespace editor_detail;

bool LevelEditor::meshToSave(const nav::NavMesh& open, std::unique_ptr<nav::NavMesh>* out, std::string* why) {
  out->reset();
  if (!m_removeOnSave) return true;
  finish(); // (the unsaved prompt's Save comes here without saveLevel)
  auto fail = [why](const std::string& m) {
    if (why) *why = "removing the disabled polys: " + m;
    return false;
  };
  // The disabled polys, by tile: ground polys by index, off-mesh links by their index in the level.
  struct Drop {
    TileCoord tile;
    const nav::MeshTile* old = nullptr;
    std::vector<int> polys, links;
  };
  std::vector<Drop> drops;
  const std::vector<OffMeshLink>& levelLinks = links();
  for (int i = 0; i < open.getMaxTiles(); ++i) {
    const nav::MeshTile* tile = open.getTile(i);
    if (!tile || !tile->header) continue;
    Drop d;
    d.tile = {tile->header->x, tile->header->y};
    d.old = tile;
    const int ground = tile->header->polyCount - tile->header->offMeshConCount;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      if (!(tile->polys[p].flags & nav::FLAG_DISABLED)) continue;
      if (p < ground) {
        d.polys.push_back(p);
        continue;
      }
      const float* a = &tile->verts[tile->polys[p].verts[0] * 3];
      const float* b = &tile->verts[tile->polys[p].verts[1] * 3];
      int link = -1;
      for (size_t k = 0; k < levelLinks.size() && link < 0; ++k) {
        const OffMeshLink& l = levelLinks[k];
        bool same = true;
        for (int c = 0; c < 3; ++c) same = same && std::fabs(l.start[c] - a[c]) < 1e-3f && std::fabs(l.end[c] - b[c]) < 1e-3f;
        if (same) link = int(k);
      }
      if (link < 0) return fail("a disabled off-mesh link at (" + num(a[0]) + ", " + num(a[1]) + ", " + num(a[2]) + ") is not one of the level's");
      d.links.push_back(link);
    }
    if (!d.polys.empty() || !d.links.empty()) drops.push_back(std::move(d));
  }
  if (drops.empty()) return true;
  std::string err;
  if (!prepare(&err)) return fail(err);
  const nav::bake::BakeInput& in = m_bake.input();
  if (!m_baker->setVolumesAndLinks(in.volumes, in.links, &err)) return fail(err);
  std::vector<nav::bake::RebakedTile> tiles;
  for (const Drop& d : drops) {
    nav::bake::RebakedTile t;
    if (!m_baker->bakeTileWithout(m_settings, d.tile, d.polys, &t, &err, &d.links)) return fail(err);
    tiles.push_back(std::move(t));
  }
  // A copy of the open mesh (through the file format, as a save then a load gives it).
  std::vector<uint8_t> bytes;
  auto copy = std::make_unique<nav::NavMesh>();
  if (nav::statusFailed(nav::saveTileSet(open, bytes, &err)) || nav::statusFailed(nav::loadTileSet(bytes.data(), bytes.size(), *copy, &err)))
    return fail("copying the navmesh: " + err);
  if (!nav::bake::replaceTiles(*copy, tiles, &err)) return fail(err);
  // The kept polys must be the open tile's other polys, in order (a tile that is not what the
  // level bakes to now, e.g. loaded from an older .bin, is refused); they keep their flags.
  int removed = 0;
  for (const Drop& d : drops) {
    const int oldGround = d.old->header->polyCount - d.old->header->offMeshConCount;
    const nav::MeshTile* nt = copy->getTileAt(d.tile.x, d.tile.y, 0);
    const int newGround = nt ? nt->header->polyCount - nt->header->offMeshConCount : 0;
    const std::string tileName = "tile (" + std::to_string(d.tile.x) + ", " + std::to_string(d.tile.y) + ")";
    if (newGround != oldGround - int(d.polys.size()))
      return fail(tileName + " bakes to " + std::to_string(newGround + int(d.polys.size())) + " polys, the open one has " +
                  std::to_string(oldGround) + ": rebuild it (Tile tool) first");
    int n = 0;
    for (int p = 0; p < oldGround; ++p) {
      if (std::find(d.polys.begin(), d.polys.end(), p) != d.polys.end()) continue;
      float a[3], b[3];
      polyShape(d.old, d.old->polys[p], a, nullptr);
      polyShape(nt, nt->polys[n], b, nullptr);
      if (polyKey(a, d.old->polys[p].vertCount) != polyKey(b, nt->polys[n].vertCount))
        return fail(tileName + " is not what the level bakes to now (poly " + std::to_string(p) + "): rebuild it (Tile tool) first");
      copy->setPolyFlags(copy->getPolyRefBase(nt) | nav::PolyRef(n), d.old->polys[p].flags);
      ++n;
    }
    removed += int(d.polys.size() + d.links.size());
  }
  m_log.info("saving the navmesh without " + std::to_string(removed) + " disabled polys (" + std::to_string(drops.size()) +
             " tiles re-baked)");
  *out = std::move(copy);
  return true;
}

bool LevelEditor::unsaved() const { return m_bake.editsChanged(); }

bool LevelEditor::saveLevel(std::string* why) {
  finish(); // the navmesh saved is the one with every edit in
  if (!m_bake.hasSource()) {
    if (why) *why = "no level open";
    return false;
  }
  const bool navToo = m_bake.unsavedBake();
  if (!m_bake.saveSettings(m_log) || (navToo && !m_bake.save(m_nav, m_log))) {
    if (why) *why = "not saved (the log says why)";
    return false;
  }
  return true;
}

namespace {
/// (Plain floats, not base::exactVec3: the scenario files already written stay byte-identical.)
nlohmann::json vec3(const float* v) { return nlohmann::json::array({v[0], v[1], v[2]}); }
} // namespace

void LevelEditor::saveScenario(nlohmann::json& out) const {
  out = nlohmann::json::object();
  nlohmann::json vols = nlohmann::json::array(), ls = nlohmann::json::array();
  for (const ConvexVolume& v : volumes()) {
    nlohmann::json pts = nlohmann::json::array();
    for (size_t i = 0; i + 2 < v.verts.size(); i += 3) pts.push_back(vec3(&v.verts[i]));
    vols.push_back({{"area", int(v.area)}, {"hmin", v.hmin}, {"hmax", v.hmax}, {"verts", pts}});
    if (v.agents != nav::bake::kAllAgents) vols.back()["agents"] = v.agents; // (a mask: scenarios carry no names)
  }
  for (const OffMeshLink& l : links()) {
    ls.push_back({{"start", vec3(l.start)}, {"end", vec3(l.end)}, {"radius", l.radius}, {"bidirectional", l.bidirectional},
                  {"area", int(l.area)}, {"flags", int(l.flags)}, {"userId", l.userId}});
    if (l.agents != nav::bake::kAllAgents) ls.back()["agents"] = l.agents;
  }
  out["volumes"] = vols;
  out["links"] = ls;
  // With agent types each removed tile and disabled poly names its agent; agent by agent, so a
  // scenario opened and saved again lists them in the same order.
  const bool named = m_agents && m_agents->enabled();
  std::vector<std::pair<int, TileCoord>> byAgent = m_removed;
  std::stable_sort(byAgent.begin(), byAgent.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  nlohmann::json removed = nlohmann::json::array();
  for (const auto& [agent, t] : byAgent) {
    removed.push_back({t.x, t.y});
    if (named && agent >= 0 && agent < m_agents->count()) removed.back().push_back(m_agents->type(agent).name);
  }
  out["removedTiles"] = removed;
  nlohmann::json disabled = nlohmann::json::array();
  for (const Step& s : m_applied)
    if (s.kind == Step::Disable)
      for (const auto& c : s.polys) {
        disabled.push_back({{"pos", vec3(c.data())}, {"disabled", s.disabled}});
        if (named && s.agent >= 0 && s.agent < m_agents->count()) disabled.back()["agent"] = m_agents->type(s.agent).name;
      }
  out["disabledPolys"] = disabled;
  if (m_removeOnSave) out["removeOnSave"] = true; // (only when set: other scenarios stay byte-identical)
  if (!areaRules().empty()) out["areaRules"] = nav::bake::areaRulesToJson(areaRules()); // (likewise)
}

bool LevelEditor::loadScenario(const nlohmann::json& json, std::string* why) {
  base::JsonErrors errors;
  const base::JsonIn in(json, errors, "edits");
  auto failed = [&]() {
    if (why) *why = errors.message;
    return false;
  };
  if (!in.object()) return failed();
  std::vector<ConvexVolume> vols;
  std::vector<OffMeshLink> ls;
  const base::JsonIn jv = in["volumes"], jl = in["links"];
  if ((in.has("volumes") && !jv.array()) || (in.has("links") && !jl.array())) return failed();
  for (size_t i = 0; i < jv.size(); ++i) {
    const base::JsonIn v = jv[i];
    ConvexVolume cv;
    int area = 0;
    if (!v.object({"area", "hmin", "hmax", "verts", "agents"}) || !v.get("area", area, 0, 63) || !v.get("hmin", cv.hmin) ||
        !v.get("hmax", cv.hmax) || !v["verts"].array() ||
        (v.has("agents") && !nav::bake::agentMaskFromJson(v["agents"], nullptr, &cv.agents)))
      return failed();
    cv.area = uint8_t(area);
    for (size_t k = 0; k < v["verts"].size(); ++k) {
      float q[3];
      if (!v["verts"][k].getVec3(q)) return failed();
      cv.verts.insert(cv.verts.end(), q, q + 3);
    }
    std::string bad;
    if (!checkVolume(cv, &bad)) {
      v.fail(bad);
      return failed();
    }
    vols.push_back(std::move(cv));
  }
  for (size_t i = 0; i < jl.size(); ++i) {
    const base::JsonIn l = jl[i];
    OffMeshLink ol;
    int area = ol.area, flags = ol.flags;
    if (!l.object({"start", "end", "radius", "bidirectional", "area", "flags", "userId", "agents"}) ||
        (l.has("agents") && !nav::bake::agentMaskFromJson(l["agents"], nullptr, &ol.agents)) || !l["start"].getVec3(ol.start) ||
        !l["end"].getVec3(ol.end) || !l.opt("radius", ol.radius) || !l.opt("bidirectional", ol.bidirectional) ||
        !l.opt("area", area, 0, 63) || !l.opt("flags", flags, 0, 0xffff) || !l.opt("userId", ol.userId))
      return failed();
    ol.area = uint8_t(area);
    ol.flags = uint16_t(flags);
    ls.push_back(ol);
  }
  // An agent named by a removed tile or a disabled poly (without one: the active agent's).
  const int active = activeAgent();
  auto agentOf = [&](const base::JsonIn& name, int* agent) {
    std::string n;
    if (!name.get(n, 64)) return false;
    *agent = m_agents && m_agents->enabled() ? m_agents->find(n) : -1;
    if (*agent < 0) name.fail(m_agents && m_agents->enabled() ? "the level has no agent type '" + n + "'" : "the level has no agent types");
    return *agent >= 0;
  };
  std::vector<std::pair<int, TileCoord>> removed;
  if (in.has("removedTiles")) {
    const base::JsonIn jt = in["removedTiles"];
    if (!jt.array()) return failed();
    for (size_t i = 0; i < jt.size(); ++i) {
      TileCoord t;
      int agent = active;
      if (!jt[i].array(2, 3) || !jt[i][size_t(0)].get(t.x) || !jt[i][size_t(1)].get(t.y) ||
          (jt[i].size() == 3 && !agentOf(jt[i][size_t(2)], &agent)))
        return failed();
      removed.push_back({agent, t});
    }
  }
  struct Disabled {
    std::array<float, 3> pos;
    bool on = true;
    int agent = -1;
  };
  std::vector<Disabled> disabled;
  if (in.has("disabledPolys")) {
    const base::JsonIn jd = in["disabledPolys"];
    if (!jd.array()) return failed();
    for (size_t i = 0; i < jd.size(); ++i) {
      Disabled d;
      d.agent = active;
      if (!jd[i].object({"pos", "disabled", "agent"}) || !jd[i]["pos"].getVec3(d.pos.data()) || !jd[i].opt("disabled", d.on) ||
          (jd[i].has("agent") && !agentOf(jd[i]["agent"], &d.agent)))
        return failed();
      disabled.push_back(d);
    }
  }
  bool removeOnSave = false;
  if (!in.opt("removeOnSave", removeOnSave)) return failed();
  std::vector<nav::bake::AreaRule> rules;
  const bool hasRules = in.has("areaRules");
  if (hasRules && !nav::bake::areaRulesFromJson(in["areaRules"], &rules)) return failed();
  if (!prepare(why)) return false;
  // The rules come back as they were edited (the next Build bakes them); the same as the level
  // file's: nothing to do.
  if (hasRules && rules != areaRules() && !editRules(std::move(rules), "the scenario's area rules", why)) return false;
  // Unchanged from the level file: nothing to do (a scenario of a saved level).
  const nav::bake::BakeInput& cur = m_bake.input();
  const bool sameEdits = std::equal(vols.begin(), vols.end(), cur.volumes.begin(), cur.volumes.end(), sameVolume) &&
                         std::equal(ls.begin(), ls.end(), cur.links.begin(), cur.links.end(), sameLink);
  if (!sameEdits) {
    // Whatever changed is re-baked: the bounds of every volume and link before and after.
    float bmin[3] = {1e30f, 1e30f, 1e30f}, bmax[3] = {-1e30f, -1e30f, -1e30f};
    auto addAll = [&](const std::vector<ConvexVolume>& vs, const std::vector<OffMeshLink>& lks) {
      float a[3], b[3];
      for (const ConvexVolume& v : vs) {
        nav::bake::editBounds(v, a, b);
        grow(bmin, bmax, a, b);
      }
      for (const OffMeshLink& l : lks) {
        nav::bake::editBounds(l, a, b);
        grow(bmin, bmax, a, b);
      }
    };
    // (Only the volumes and links that differ: the others leave their tiles as they are.)
    std::vector<ConvexVolume> dv;
    std::vector<OffMeshLink> dl;
    for (const ConvexVolume& v : cur.volumes)
      if (std::none_of(vols.begin(), vols.end(), [&](const ConvexVolume& o) { return sameVolume(v, o); })) dv.push_back(v);
    for (const ConvexVolume& v : vols)
      if (std::none_of(cur.volumes.begin(), cur.volumes.end(), [&](const ConvexVolume& o) { return sameVolume(v, o); })) dv.push_back(v);
    for (const OffMeshLink& l : cur.links)
      if (std::none_of(ls.begin(), ls.end(), [&](const OffMeshLink& o) { return sameLink(l, o); })) dl.push_back(l);
    for (const OffMeshLink& l : ls)
      if (std::none_of(cur.links.begin(), cur.links.end(), [&](const OffMeshLink& o) { return sameLink(l, o); })) dl.push_back(l);
    addAll(dv, dl);
    if (!applyVolumesAndLinks(std::move(vols), std::move(ls), bmin, bmax, "the scenario's volumes and links", why)) return false;
  }
  // Removed tiles: one step per run of one agent's (the order saveScenario writes).
  for (size_t i = 0; i < removed.size();) {
    size_t j = i;
    std::vector<TileCoord> tiles;
    for (; j < removed.size() && removed[j].first == removed[i].first; ++j) tiles.push_back(removed[j].second);
    if (removed[i].first == active ? !removeTiles(tiles, why) : !removeTilesOf(removed[i].first, tiles, why)) return false;
    i = j;
  }
  finish();
  for (const Disabled& d : disabled) {
    const NavState* nav = navOf(d.agent);
    if (nav && polyAtCentre(nav->mesh(), d.pos.data()) && !setDisabledAt(d.agent, {d.pos}, d.on, why)) return false;
  }
  setRemoveOnSave(removeOnSave);
  return true;
}

bool LevelEditor::hasEdits() const {
  if (unsaved() || !m_removed.empty() || m_removeOnSave) return true;
  for (const Step& s : m_applied)
    if (s.kind == Step::Disable) return true;
  return false;
}

void LevelEditor::dumpState(nlohmann::json& out) const {
  saveScenario(out);
  out["removeOnSave"] = m_removeOnSave;
  out["unsaved"] = unsaved();
  out["undo"] = m_history.undoCount();
  out["redo"] = m_history.redoCount();
  out["rebakes"] = m_rebakes;
  out["busy"] = busy();
  nlohmann::json tiles = nlohmann::json::array();
  for (const TileCoord& t : m_lastTiles) tiles.push_back({t.x, t.y});
  out["lastTiles"] = tiles;
  int added = 0, removed = 0, changed = 0;
  for (const PolyChange& c : m_changes) (c.kind == PolyChange::Added ? added : c.kind == PolyChange::Removed ? removed : changed)++;
  out["lastChanges"] = {{"added", added}, {"removed", removed}, {"changed", changed}};
}

} // namespace navbench
