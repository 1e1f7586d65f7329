#include "app/model/AgentSet.h"

#include "app/Log.h"
#include "app/model/BakeRunner.h"
#include "nav/NavMesh.h"
#include "nav/QueryFilter.h"
#include "nav/base/Json.h"
#include "nav/bake/LevelFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace navbench {

using nav::bake::AgentMask;
using nav::bake::ConvexVolume;
using nav::bake::OffMeshLink;

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// Settings key `key` of `s` as the level file writes it ("0.3", "true", "\"monotone\"").
std::string settingText(const nav::bake::BakeSettings& s, const std::string& key) {
  const nlohmann::json j = nlohmann::json::parse(nav::bake::settingsToJson(s));
  return j.contains(key) ? j[key].dump() : std::string("?");
}

AgentMask bit(int agent) { return agent >= 0 && agent < nav::bake::kMaxAgentTypes ? AgentMask(1u) << agent : 0; }

/// The agents whose input differs between two lists: the masks of the items only one of them has.
template <class T, class Same>
AgentMask changedAgents(const std::vector<T>& a, const std::vector<T>& b, Same same) {
  AgentMask mask = 0;
  auto in = [&](const T& x, const std::vector<T>& list) {
    for (const T& y : list)
      if (x.agents == y.agents && same(x, y)) return true;
    return false;
  };
  for (const T& x : a)
    if (!in(x, b)) mask |= x.agents;
  for (const T& x : b)
    if (!in(x, a)) mask |= x.agents;
  return mask;
}

} // namespace

AgentSet::AgentSet(NavState& active, Log& log) : m_doc(active), m_log(log) {}

AgentSet::~AgentSet() { clear(); }

void AgentSet::clear() {
  for (Slot& s : m_slots)
    if (s.job) s.job->cancel();
  m_slots.clear(); // BakeJob's destructor waits for its worker
  m_active = 0;
  m_input = nav::bake::BakeInput{};
  m_paths.clear();
  clearReach();
  m_key.clear();
  ++m_revision;
}

void AgentSet::open(const nav::bake::BakeInput& all, std::vector<nav::bake::AgentType> types, int active, int threads) {
  clear();
  if (types.size() < 2) return;
  m_input = all;
  m_active = active >= 0 && active < int(types.size()) ? active : 0;
  for (size_t i = 0; i < types.size(); ++i) { // a scenario's agent wins
    if (types[i].name == m_pendingActive) m_active = int(i);
    if (types[i].name == m_pendingReach) reachTarget = int(i);
  }
  if (!m_pendingActive.empty() && types[size_t(m_active)].name != m_pendingActive)
    m_log.error("scenario: agents.active: the level has no agent type '" + m_pendingActive + "'");
  m_pendingActive.clear();
  m_pendingReach.clear();
  m_slots.resize(types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    Slot& s = m_slots[i];
    s.type = std::move(types[i]);
    s.nav = std::make_unique<NavState>();
    s.job = std::make_unique<nav::bake::BakeJob>();
    std::string why;
    if (s.job->start(nav::bake::inputForAgent(all, int(i)), s.type.settings, threads, &why)) {
      s.state = "baking";
    } else {
      s.state = "failed: " + why;
      s.job.reset();
      m_log.error("agent " + s.type.name + ": bake: " + why);
    }
  }
  m_log.info("baking " + std::to_string(m_slots.size()) + " agent types in the background");
}

int AgentSet::rebakeAll(const nav::bake::BakeInput& all, const nav::bake::BakeSettings& base, int threads) {
  if (!enabled()) return 0;
  m_input = all;
  int started = 0;
  for (size_t i = 0; i < m_slots.size(); ++i) {
    Slot& s = m_slots[i];
    nav::bake::BakeSettings settings;
    std::string why;
    // A type the new base makes invalid keeps its navmesh, its settings (those of that navmesh,
    // which the level editor re-bakes tiles with) and a bake still running for them.
    if (!nav::bake::applyAgentOverrides(base, s.type, &settings, &why)) {
      s.state = "not re-baked: " + why;
      m_log.error(why + " (the Bake panel's settings with its overrides): not re-baked, its navmesh is kept");
      continue;
    }
    auto job = std::make_unique<nav::bake::BakeJob>();
    if (!job->start(nav::bake::inputForAgent(all, int(i)), settings, threads, &why)) {
      s.state = "not re-baked: " + why;
      m_log.error("agent " + s.type.name + ": bake: " + why + ": its navmesh is kept");
      continue;
    }
    if (s.job) s.job->cancel();
    s.job = std::move(job); // the old job's destructor waits for its worker
    s.type.settings = settings;
    s.baker.reset(); // made again, with these settings, at the next edit
    s.tilesRebaked = s.lastRebaked = 0;
    s.state = "baking";
    if (int(i) != m_active) s.nav->clear(); // null while baking, as after open()
    ++started;
  }
  m_paths.clear();
  clearReach();
  m_key.clear();
  ++m_revision;
  m_log.info("baking " + std::to_string(started) + " of " + std::to_string(m_slots.size()) +
             " agent types in the background");
  return started;
}

std::string AgentSet::overrideSummary() const {
  if (!enabled()) return std::string();
  std::vector<std::pair<std::string, std::string>> keys; // key, the types overriding it
  for (const Slot& s : m_slots)
    for (const std::string& k : s.type.overrides) {
      auto it = std::find_if(keys.begin(), keys.end(), [&k](const auto& e) { return e.first == k; });
      if (it == keys.end()) keys.emplace_back(k, s.type.name);
      else it->second += ", " + s.type.name;
    }
  std::string out;
  std::vector<bool> done(keys.size(), false);
  for (size_t a = 0; a < keys.size(); ++a) {
    if (done[a]) continue;
    std::string group = keys[a].first;
    for (size_t b = a + 1; b < keys.size(); ++b)
      if (!done[b] && keys[b].second == keys[a].second) {
        group += ", " + keys[b].first;
        done[b] = true;
      }
    out += (out.empty() ? "" : "; ") + group + " (" + keys[a].second + ")";
  }
  return out;
}

std::string AgentSet::overrideValues(const std::string& key) const {
  std::string out;
  for (size_t i = 0; i < m_slots.size() && enabled(); ++i) {
    const nav::bake::AgentType& t = m_slots[i].type;
    if (std::find(t.overrides.begin(), t.overrides.end(), key) == t.overrides.end()) continue;
    out += (out.empty() ? "" : ", ") + t.name + " " + settingText(t.settings, key) + (int(i) == m_active ? " (active)" : "");
  }
  return out;
}

std::string AgentSet::activeOverrides() const {
  std::string out;
  if (!enabled()) return out;
  const nav::bake::AgentType& t = m_slots[size_t(m_active)].type;
  for (const std::string& k : t.overrides) out += (out.empty() ? "" : ", ") + k + " " + settingText(t.settings, k);
  return out;
}

int AgentSet::find(const std::string& name) const {
  for (size_t i = 0; i < m_slots.size(); ++i)
    if (m_slots[i].type.name == name) return int(i);
  return -1;
}

NavState* AgentSet::nav(int i) {
  if (i < 0 || i >= count()) return nullptr;
  if (i == m_active) return m_doc.loaded() ? &m_doc : nullptr;
  NavState* n = m_slots[size_t(i)].nav.get();
  return n && n->loaded() ? n : nullptr;
}

const NavState* AgentSet::nav(int i) const { return const_cast<AgentSet*>(this)->nav(i); }

bool AgentSet::busy() const {
  for (const Slot& s : m_slots)
    if (s.job) return true;
  return false;
}

float AgentSet::bakeFraction(int i) const {
  const Slot& s = m_slots[size_t(i)];
  if (!s.job) return 0;
  const nav::bake::BakeProgress p = s.job->progress();
  return p.tilesTotal > 0 ? float(p.tilesDone) / float(p.tilesTotal) : 0.0f;
}

bool AgentSet::handOver(int i, bool wait) {
  Slot& s = m_slots[size_t(i)];
  if (!s.job || (!wait && !s.job->finished())) return false;
  std::unique_ptr<nav::NavMesh> mesh;
  nav::bake::BakeReport rep;
  s.job->takeResult(&mesh, &rep);
  s.job.reset();
  if (!mesh) {
    s.state = rep.cancelled ? "cancelled" : "failed: " + rep.error;
    m_log.error("agent " + s.type.name + ": bake " + s.state);
    return false;
  }
  char buf[128];
  std::snprintf(buf, sizeof buf, "baked: %d tiles, %d polys, %.0f ms", rep.tileCount, rep.polyCount, rep.totalMs);
  s.state = buf;
  m_log.info("agent " + s.type.name + ": " + s.state);
  ++m_revision;
  const std::string name = "agent " + s.type.name + " (baked)";
  if (i == m_active) {
    m_doc.adopt(std::move(*mesh), name);
    return true;
  }
  s.nav->adopt(std::move(*mesh), name);
  return false;
}

bool AgentSet::poll() {
  bool changed = false;
  for (int i = 0; i < count(); ++i) changed |= handOver(i, false);
  if (enabled() && !busy() && !(m_pendingActive.empty() && m_pendingReach.empty())) {
    const std::string name = m_pendingActive, reachName = m_pendingReach;
    m_pendingActive.clear();
    m_pendingReach.clear();
    if (!reachName.empty()) reachTarget = find(reachName);
    const int i = name.empty() ? m_active : find(name);
    std::string why;
    if (i < 0) m_log.error("scenario: agents.active: the level has no agent type '" + name + "'");
    else if (i != m_active && setActive(i, &why)) changed = true;
    else if (i != m_active) m_log.error("scenario: agents.active: " + why);
  }
  return changed;
}

bool AgentSet::finish() {
  bool activeArrived = false;
  for (int i = 0; i < count(); ++i) activeArrived |= handOver(i, true);
  return activeArrived;
}

bool AgentSet::setActive(int i, std::string* why) {
  auto fail = [why](const std::string& msg) {
    if (why) *why = msg;
    return false;
  };
  if (i < 0 || i >= count()) return fail("no agent type " + std::to_string(i) + " (the level has " + std::to_string(count()) + ")");
  if (busy()) return fail("the agents are still baking: switch when they are done");
  if (i == m_active) return true;
  Slot& from = m_slots[size_t(m_active)];
  Slot& to = m_slots[size_t(i)];
  if (!to.nav->loaded()) return fail("agent " + to.type.name + " has no navmesh (" + to.state + ")");
  nav::NavMesh old;
  old.swap(m_doc.mesh());
  m_doc.adopt(std::move(to.nav->mesh()), "agent " + to.type.name + " (baked)");
  to.nav->clear();
  from.nav->adopt(std::move(old), "agent " + from.type.name + " (baked)");
  m_active = i;
  m_paths.clear();
  clearReach();
  ++m_revision;
  return true;
}

void AgentSet::forActive(std::vector<ConvexVolume>* volumes, std::vector<OffMeshLink>* links,
                         nav::bake::BakeSettings* settings) const {
  if (!enabled()) return;
  const AgentMask b = bit(m_active);
  if (volumes) volumes->erase(std::remove_if(volumes->begin(), volumes->end(), [b](const ConvexVolume& v) { return !(v.agents & b); }), volumes->end());
  if (links) links->erase(std::remove_if(links->begin(), links->end(), [b](const OffMeshLink& l) { return !(l.agents & b); }), links->end());
  if (settings) *settings = m_slots[size_t(m_active)].type.settings;
}

nav::bake::AgentMask AgentSet::inputChanged(const nav::bake::BakeInput& now) {
  if (!enabled()) return 0;
  const AgentMask mask =
      changedAgents(m_input.volumes, now.volumes, sameVolume) | changedAgents(m_input.links, now.links, sameLink);
  m_input.volumes = now.volumes;
  m_input.links = now.links;
  for (Slot& s : m_slots) s.inputStale = true;
  return mask;
}

nav::bake::Baker* AgentSet::bakerFor(int i, std::string* why) {
  Slot& s = m_slots[size_t(i)];
  if (!s.baker) {
    auto baker = std::make_unique<nav::bake::Baker>();
    if (!baker->setInput(nav::bake::inputForAgent(m_input, i), why)) return nullptr;
    s.baker = std::move(baker);
  } else if (s.inputStale) {
    nav::bake::BakeInput mine;
    mine.volumes = m_input.volumes;
    mine.links = m_input.links;
    mine = nav::bake::inputForAgent(mine, i);
    if (!s.baker->setVolumesAndLinks(std::move(mine.volumes), std::move(mine.links), why)) return nullptr;
  }
  s.inputStale = false;
  return s.baker.get();
}

bool AgentSet::tilesTouching(int i, const float* bmin, const float* bmax, std::vector<nav::bake::TileCoord>* tiles,
                             std::string* why) {
  tiles->clear();
  if (i < 0 || i >= count()) return false;
  nav::bake::Baker* baker = bakerFor(i, why);
  if (!baker) return false;
  baker->tilesTouching(m_slots[size_t(i)].type.settings, bmin, bmax, tiles);
  return true;
}

bool AgentSet::rebakeTiles(int i, const std::vector<nav::bake::TileCoord>& tiles, std::string* why) {
  if (i < 0 || i >= count() || i == m_active) {
    if (why) *why = "no other agent type " + std::to_string(i);
    return false;
  }
  Slot& s = m_slots[size_t(i)];
  if (!s.nav->loaded()) {
    if (why) *why = "agent " + s.type.name + " has no navmesh (" + s.state + ")";
    return false;
  }
  std::string err;
  nav::bake::Baker* baker = bakerFor(i, &err);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<nav::bake::RebakedTile> baked;
  nav::bake::BakeReport rep;
  if (!baker || !baker->bakeTiles(s.type.settings, tiles, nav::bake::BakeOptions{}, &baked, &rep) ||
      !nav::bake::replaceTiles(s.nav->mesh(), baked, &err)) {
    if (why) *why = "agent " + s.type.name + ": rebake: " + (rep.error.empty() ? err : rep.error) + " (the old tiles are kept)";
    return false;
  }
  s.nav->markEdited();
  s.lastRebaked = int(tiles.size());
  s.tilesRebaked += int(tiles.size());
  char buf[96];
  std::snprintf(buf, sizeof buf, ": rebaked %d tile%s in %.1f ms", int(tiles.size()), tiles.size() == 1 ? "" : "s", msSince(t0));
  m_log.info("agent " + s.type.name + buf);
  ++m_revision;
  return true;
}

void AgentSet::compare(const float* start, const float* end, const nav::QueryFilter& filter, int maxNodes, const float* extents) {
  const auto t0 = std::chrono::steady_clock::now();
  m_paths.resize(m_slots.size());
  for (int i = 0; i < count(); ++i) {
    AgentPath& p = m_paths[size_t(i)];
    NavState* n = nav(i);
    if (!n) {
      p = AgentPath{};
      p.reason = "no navmesh (" + m_slots[size_t(i)].state + ")";
      continue;
    }
    n->setMaxNodes(maxNodes);
    m_comparer.run(n->query(), filter, start, end, extents, p);
  }
  m_compareMs = msSince(t0);
}

void AgentSet::reach(int other, const float* start, const nav::QueryFilter& filter, const float* extents) {
  clearReach();
  NavState* a = nav(m_active);
  NavState* b = nav(other);
  if (!a || !b || other == m_active) return;
  m_reachOnly = polysOnlyAReaches(a->query(), b->query(), filter, start, extents, kReachFollowExtents, &m_reachedA);
  m_reachOther = other;
}

int AgentSet::reachAgent() const {
  if (reachTarget >= 0 && reachTarget < count() && reachTarget != m_active) return reachTarget;
  return count() >= 2 ? (m_active + 1) % count() : -1;
}

void AgentSet::update(const float* start, const float* end, const nav::QueryFilter& filter, int maxNodes, const float* extents) {
  if (!enabled()) return;
  std::string key;
  auto add = [&key](const void* p, size_t n) { key.append(static_cast<const char*>(p), n); };
  const int ints[] = {compareOn, reachOn, start != nullptr, end != nullptr, m_active, reachAgent(), m_revision, maxNodes,
                      m_doc.edits(), int(filter.getIncludeFlags()), int(filter.getExcludeFlags())};
  add(ints, sizeof ints);
  if (start) add(start, 3 * sizeof(float));
  if (end) add(end, 3 * sizeof(float));
  add(extents, 3 * sizeof(float));
  for (int a = 0; a < nav::MAX_AREAS; ++a) {
    const float c[2] = {filter.getAreaCost(a), filter.getAreaEnterCost(a)};
    add(c, sizeof c);
  }
  const float h = filter.getHeuristicScale();
  add(&h, sizeof h);
  if (key == m_key) return;
  m_key = key;
  if (compareOn && start && end) compare(start, end, filter, maxNodes, extents);
  else m_paths.clear();
  if (reachOn && start) reach(reachAgent(), start, filter, extents);
  else clearReach();
}

void AgentSet::saveScenario(nlohmann::json& out) const {
  if (!enabled()) return;
  out = nlohmann::json::object();
  out["active"] = m_slots[size_t(m_active)].type.name;
  out["compare"] = compareOn;
  out["reach"] = reachOn;
  if (reachAgent() >= 0) out["reachAgent"] = m_slots[size_t(reachAgent())].type.name;
}

bool AgentSet::loadScenario(const nlohmann::json& in, std::string* why) {
  base::JsonErrors errors;
  const base::JsonIn v(in, errors, "agents");
  std::string active, reachName;
  bool cmp = false, rch = false;
  if (!v.object({"active", "compare", "reach", "reachAgent"}) || !v.opt("active", active, 64) || !v.opt("compare", cmp) ||
      !v.opt("reach", rch) || !v.opt("reachAgent", reachName, 64)) {
    if (why) *why = errors.message;
    return false;
  }
  compareOn = cmp;
  reachOn = rch;
  m_pendingActive = active;
  m_pendingReach = reachName;
  m_key.clear();
  return true;
}

void AgentSet::dumpState(nlohmann::json& out) const {
  out = nlohmann::json::object();
  out["enabled"] = enabled();
  out["active"] = enabled() ? m_slots[size_t(m_active)].type.name : std::string();
  out["compare"] = compareOn;
  out["reach"] = reachOn;
  out["busy"] = busy();
  nlohmann::json agents = nlohmann::json::array();
  for (int i = 0; i < count(); ++i) {
    const Slot& s = m_slots[size_t(i)];
    const NavState* n = nav(i);
    char color[8];
    std::snprintf(color, sizeof color, "#%06x", unsigned(s.type.color & 0xffffffu));
    agents.push_back({{"name", s.type.name}, {"color", color}, {"visible", s.visible}, {"state", s.state},
                      {"polys", n ? n->polyCount() : 0}, {"tiles", n ? n->tileCount() : 0},
                      {"agentRadius", s.type.settings.agentRadius}, {"agentHeight", s.type.settings.agentHeight},
                      {"tilesRebaked", s.tilesRebaked}});
  }
  out["agents"] = agents;
  nlohmann::json paths = nlohmann::json::array();
  for (size_t i = 0; i < m_paths.size(); ++i) {
    const AgentPath& p = m_paths[i];
    paths.push_back({{"agent", m_slots[i].type.name}, {"status", agentPathStatusName(p.status)}, {"reason", p.reason},
                     {"length", p.length}, {"startRef", p.startRef}, {"endRef", p.endRef}, {"pathStatus", p.pathStatus},
                     {"corridor", p.polys}, {"straight", p.straight}});
  }
  out["paths"] = paths;
  out["compareMs"] = m_compareMs;
  out["reachAgent"] = m_reachOther >= 0 ? m_slots[size_t(m_reachOther)].type.name : std::string();
  out["reachedByActive"] = m_reachedA;
  out["reachOnly"] = int(m_reachOnly.size());
}

} // namespace navbench
