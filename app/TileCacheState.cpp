#include "app/TileCacheState.h"

#include "nav/NavMesh.h"
#include "nav/base/Json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace navbench {

namespace tc = nav::tilecache;

namespace {

double clockMs() { // the same clock as nowMs() (app/Document.h)
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

constexpr float kPi = 3.14159265358979f;
constexpr float kMaxSize = 1000.0f;

bool fail(std::string* why, const std::string& m) {
  if (why) *why = m;
  return false;
}

nlohmann::json vec3(const float* v) { return nlohmann::json::array({v[0], v[1], v[2]}); }

const char* stateName(uint8_t s) {
  switch (s) {
  case tc::OBSTACLE_PROCESSING: return "processing";
  case tc::OBSTACLE_PROCESSED: return "processed";
  case tc::OBSTACLE_REMOVING: return "removing";
  default: return "empty";
  }
}

} // namespace

const char* obstacleKindName(Obstacle::Kind k) {
  switch (k) {
  case Obstacle::Box: return "box";
  case Obstacle::OrientedBox: return "obox";
  default: return "cylinder";
  }
}

TileCacheState::TileCacheState() = default;
TileCacheState::~TileCacheState() = default;

bool TileCacheState::open(const std::string& path, std::string& error) {
  tc::OpenTileCache opened;
  std::string why;
  const nav::Status st = tc::openTileCacheFile(path, kMaxObstacles, &opened, &why);
  if (nav::statusFailed(st)) {
    char buf[128];
    error = why.empty() ? path + ": cannot open tile cache (" + nav::statusToString(st, buf, sizeof buf) + ")" : why;
    return false;
  }
  m_tc = std::move(opened);
  m_mesh = nullptr;
  m_obs.clear();
  m_refs.clear();
  m_watch.clear();
  m_rebuilt.clear();
  m_updates = 0;
  return true;
}

void TileCacheState::takeMesh(nav::NavMesh& into) {
  into.swap(*m_tc.mesh);
  m_mesh = &into;
}

bool TileCacheState::check(const Obstacle& o, std::string* why) {
  for (float v : o.pos)
    if (!std::isfinite(v)) return fail(why, "the obstacle's position is not a number");
  auto size = [&](float v, const char* what) {
    if (!std::isfinite(v) || v <= 0 || v > kMaxSize) return fail(why, std::string(what) + " must be in (0, 1000] wu");
    return true;
  };
  switch (o.kind) {
  case Obstacle::Cylinder: return size(o.radius, "radius") && size(o.height, "height");
  case Obstacle::Box:
  case Obstacle::OrientedBox:
    if (!std::isfinite(o.yawDeg)) return fail(why, "yaw is not a number");
    return size(o.half[0], "half extent x") && size(o.half[1], "half extent y") && size(o.half[2], "half extent z");
  }
  return fail(why, "unknown obstacle kind");
}

void TileCacheState::drainQueue() {
  if (!m_mesh || !m_tc.cache) return;
  for (int guard = 0; m_tc.cache->getRequestCount() >= tc::TileCache::MAX_REQUESTS && guard < 100000; ++guard) {
    bool upToDate = false;
    m_tc.cache->update(0, m_mesh, &upToDate);
    ++m_updates;
    checkWatched();
  }
}

bool TileCacheState::addToCache(const Obstacle& o, tc::ObstacleRef* ref, std::string* why) {
  if (!m_tc.cache || !m_mesh) return fail(why, "no tile cache open");
  if (!check(o, why)) return false;
  drainQueue();
  const float bottom = o.pos[1] - kSink;
  nav::Status st;
  if (o.kind == Obstacle::Cylinder) {
    const float p[3] = {o.pos[0], bottom, o.pos[2]};
    st = m_tc.cache->addObstacle(p, o.radius, o.height, ref);
  } else if (o.kind == Obstacle::Box) {
    const float bmin[3] = {o.pos[0] - o.half[0], bottom, o.pos[2] - o.half[2]};
    const float bmax[3] = {o.pos[0] + o.half[0], bottom + 2 * o.half[1], o.pos[2] + o.half[2]};
    st = m_tc.cache->addBoxObstacle(bmin, bmax, ref);
  } else {
    const float c[3] = {o.pos[0], bottom + o.half[1], o.pos[2]};
    st = m_tc.cache->addBoxObstacle(c, o.half, o.yawDeg * kPi / 180.0f, ref);
  }
  if (nav::statusFailed(st)) {
    if (nav::statusDetail(st, nav::OUT_OF_MEMORY))
      return fail(why, "every obstacle slot (" + std::to_string(kMaxObstacles) + ") is taken");
    char buf[128];
    return fail(why, std::string("the tile cache refused the obstacle (") + nav::statusToString(st, buf, sizeof buf) + ")");
  }
  watch(*ref);
  return true;
}

bool TileCacheState::removeFromCache(tc::ObstacleRef ref, std::string* why) {
  drainQueue();
  watch(ref);
  const nav::Status st = m_tc.cache->removeObstacle(ref);
  if (nav::statusFailed(st)) {
    char buf[128];
    return fail(why, std::string("the tile cache refused the removal (") + nav::statusToString(st, buf, sizeof buf) + ")");
  }
  return true;
}

bool TileCacheState::add(const Obstacle& o, std::string* why) {
  tc::ObstacleRef ref = 0;
  if (!addToCache(o, &ref, why)) return false;
  m_obs.push_back(o);
  m_refs.push_back(ref);
  return true;
}

bool TileCacheState::remove(int index, std::string* why) {
  if (index < 0 || index >= int(m_obs.size())) return fail(why, "no obstacle " + std::to_string(index));
  if (!removeFromCache(m_refs[size_t(index)], why)) return false;
  m_obs.erase(m_obs.begin() + index);
  m_refs.erase(m_refs.begin() + index);
  return true;
}

bool TileCacheState::move(int index, const float* pos, std::string* why) {
  if (index < 0 || index >= int(m_obs.size())) return fail(why, "no obstacle " + std::to_string(index));
  Obstacle o = m_obs[size_t(index)];
  std::copy(pos, pos + 3, o.pos);
  if (!check(o, why)) return false;
  if (!removeFromCache(m_refs[size_t(index)], why)) return false;
  tc::ObstacleRef ref = 0;
  if (!addToCache(o, &ref, why)) { // (cannot happen after a removal freed a slot; keep the list true)
    m_obs.erase(m_obs.begin() + index);
    m_refs.erase(m_refs.begin() + index);
    return false;
  }
  m_obs[size_t(index)] = o;
  m_refs[size_t(index)] = ref;
  return true;
}

bool TileCacheState::setAll(const std::vector<Obstacle>& obs, std::string* why) {
  if (int(obs.size()) > kMaxObstacles) return fail(why, "more than " + std::to_string(kMaxObstacles) + " obstacles");
  for (const Obstacle& o : obs)
    if (!check(o, why)) return false;
  while (!m_obs.empty())
    if (!remove(int(m_obs.size()) - 1, why)) return false;
  for (const Obstacle& o : obs)
    if (!add(o, why)) return false;
  return true;
}

int TileCacheState::obstacleAt(const float* p) const {
  for (int i = int(m_obs.size()) - 1; i >= 0; --i) {
    const Obstacle& o = m_obs[size_t(i)];
    const float dx = p[0] - o.pos[0], dz = p[2] - o.pos[2];
    const float top = o.pos[1] - kSink + (o.kind == Obstacle::Cylinder ? o.height : 2 * o.half[1]);
    if (p[1] < o.pos[1] - kSink - 1.0f || p[1] > top + 1.0f) continue;
    if (o.kind == Obstacle::Cylinder) {
      if (dx * dx + dz * dz <= o.radius * o.radius) return i;
    } else {
      const float a = o.kind == Obstacle::OrientedBox ? o.yawDeg * kPi / 180.0f : 0.0f;
      // Into the box's frame: rotate by -yaw about +y.
      const float c = std::cos(a), s = std::sin(a);
      const float lx = c * dx - s * dz, lz = s * dx + c * dz;
      if (std::fabs(lx) <= o.half[0] && std::fabs(lz) <= o.half[2]) return i;
    }
  }
  return -1;
}

void TileCacheState::watch(tc::ObstacleRef ref) {
  const tc::TileCacheObstacle* ob = m_tc.cache->getObstacleByRef(ref);
  if (!ob || !m_mesh) return;
  float bmin[3], bmax[3];
  m_tc.cache->getObstacleBounds(ob, bmin, bmax);
  tc::CompressedTileRef tiles[64];
  int n = 0;
  m_tc.cache->queryTiles(bmin, bmax, tiles, &n, 64);
  for (int i = 0; i < n; ++i) {
    const tc::CompressedTile* t = m_tc.cache->getTileByRef(tiles[i]);
    if (!t || !t->header) continue;
    const auto key = std::make_tuple(t->header->tx, t->header->ty, t->header->tlayer);
    if (m_watch.count(key)) continue;
    Watched w;
    w.ref = m_mesh->getTileRefAt(t->header->tx, t->header->ty, t->header->tlayer);
    m_tc.cache->calcTightTileBounds(t->header, w.bmin, w.bmax);
    w.bmin[1] = t->header->bmin[1];
    w.bmax[1] = t->header->bmax[1];
    m_watch[key] = w;
  }
}

int TileCacheState::checkWatched() {
  int n = 0;
  const double now = clockMs();
  for (auto& [key, w] : m_watch) {
    const nav::TileRef cur = m_mesh->getTileRefAt(std::get<0>(key), std::get<1>(key), std::get<2>(key));
    if (cur == w.ref) continue;
    w.ref = cur;
    RebuiltTile r{std::get<0>(key), std::get<1>(key), std::get<2>(key), {}, {}, now};
    std::copy(w.bmin, w.bmin + 3, r.bmin);
    std::copy(w.bmax, w.bmax + 3, r.bmax);
    m_rebuilt.push_back(r);
    ++n;
  }
  if (m_rebuilt.size() > 4096) m_rebuilt.erase(m_rebuilt.begin(), m_rebuilt.begin() + 2048);
  return n;
}

bool TileCacheState::busy() const {
  return m_tc.cache && m_mesh && (m_tc.cache->getRequestCount() > 0 || m_tc.cache->getUpdateCount() > 0);
}

int TileCacheState::poll(double budgetMs) {
  if (!m_tc.cache || !m_mesh) return 0;
  const double t0 = clockMs();
  int rebuilt = 0;
  for (bool first = true; busy(); first = false) {
    if (!first && budgetMs > 0 && clockMs() - t0 >= budgetMs) break;
    bool upToDate = false;
    m_tc.cache->update(0, m_mesh, &upToDate);
    ++m_updates;
    rebuilt += checkWatched();
    if (upToDate) break;
  }
  if (!busy()) m_watch.clear();
  m_lastUpdateMs = clockMs() - t0;
  return rebuilt;
}

void TileCacheState::saveObstacles(nlohmann::json& out) const {
  out = nlohmann::json::array();
  for (const Obstacle& o : m_obs) {
    nlohmann::json j = {{"kind", obstacleKindName(o.kind)}, {"pos", vec3(o.pos)}};
    if (o.kind == Obstacle::Cylinder) {
      j["radius"] = o.radius;
      j["height"] = o.height;
    } else {
      j["half"] = vec3(o.half);
      if (o.kind == Obstacle::OrientedBox) j["yaw"] = o.yawDeg;
    }
    out.push_back(j);
  }
}

bool TileCacheState::parseObstacles(const nlohmann::json& in, std::vector<Obstacle>* out, std::string* why) {
  base::JsonErrors errors;
  if (parseObstacles(base::JsonIn(in, errors, "obstacles"), out)) return true;
  return fail(why, errors.message);
}

bool TileCacheState::parseObstacles(const base::JsonIn& in, std::vector<Obstacle>* out) {
  if (!in.json().is_array()) return in.fail("not a list (expected an array)");
  if (in.size() > size_t(kMaxObstacles)) return in.fail("more than " + std::to_string(kMaxObstacles));
  std::vector<Obstacle> obs;
  for (size_t i = 0; i < in.size(); ++i) {
    const base::JsonIn j = in[i];
    std::string kind;
    if (!j.object() || !j.get("kind", kind, size_t(16))) return false;
    Obstacle o;
    if (kind == "cylinder") o.kind = Obstacle::Cylinder;
    else if (kind == "box") o.kind = Obstacle::Box;
    else if (kind == "obox") o.kind = Obstacle::OrientedBox;
    else return j["kind"].fail("'" + kind + "' is not cylinder, box or obox");
    for (const auto& item : j.json().items()) {
      const std::string& key = item.key();
      const bool known = key == "kind" || key == "pos" || (o.kind == Obstacle::Cylinder ? key == "radius" || key == "height"
                                                                                      : key == "half" || (o.kind == Obstacle::OrientedBox && key == "yaw"));
      if (!known) return j[key].fail("unknown key '" + key + "' for a " + kind);
    }
    if (!j["pos"].getVec3(o.pos)) return false;
    if (o.kind == Obstacle::Cylinder) {
      if (!j.get("radius", o.radius) || !j.get("height", o.height)) return false;
    } else if (!j["half"].getVec3(o.half) || (o.kind == Obstacle::OrientedBox && !j.get("yaw", o.yawDeg))) {
      return false;
    }
    std::string w;
    if (!check(o, &w)) return j.fail(w);
    obs.push_back(o);
  }
  *out = std::move(obs);
  return true;
}

void TileCacheState::dumpState(nlohmann::json& out) const {
  nlohmann::json obs;
  saveObstacles(obs);
  for (size_t i = 0; i < m_obs.size() && m_tc.cache; ++i) {
    obs[i]["ref"] = m_refs[i];
    const tc::TileCacheObstacle* ob = m_tc.cache->getObstacleByRef(m_refs[i]);
    obs[i]["state"] = ob ? stateName(ob->state) : "gone";
    nlohmann::json touched = nlohmann::json::array();
    for (int k = 0; ob && k < ob->ntouched; ++k)
      if (const tc::CompressedTile* t = m_tc.cache->getTileByRef(ob->touched[k]); t && t->header)
        touched.push_back({t->header->tx, t->header->ty, t->header->tlayer});
    obs[i]["touchedTiles"] = touched;
  }
  out["obstacles"] = obs;
  out["requests"] = m_tc.cache ? m_tc.cache->getRequestCount() : 0;
  out["pendingTiles"] = m_tc.cache ? m_tc.cache->getUpdateCount() : 0;
  out["upToDate"] = !busy();
  out["updates"] = m_updates;
  nlohmann::json rebuilt = nlohmann::json::array();
  for (const RebuiltTile& r : m_rebuilt) rebuilt.push_back({r.x, r.y, r.layer});
  out["rebuiltTiles"] = rebuilt;
  out["layers"] = 0;
  if (m_tc.cache) {
    int layers = 0;
    for (int i = 0; i < m_tc.cache->getTileCount(); ++i)
      if (m_tc.cache->getTile(i)->header) ++layers;
    out["layers"] = layers;
  }
  if (m_mesh) out["meshHash"] = navMeshHash(*m_mesh);
}

std::string navMeshHash(const nav::NavMesh& mesh) {
  std::vector<std::tuple<int, int, int, const nav::MeshTile*>> tiles;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (t && t->header) tiles.emplace_back(t->header->x, t->header->y, t->header->layer, t);
  }
  std::sort(tiles.begin(), tiles.end(),
            [](const auto& a, const auto& b) { return std::make_tuple(std::get<0>(a), std::get<1>(a), std::get<2>(a)) <
                                                      std::make_tuple(std::get<0>(b), std::get<1>(b), std::get<2>(b)); });
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const uint8_t* p, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      h ^= p[i];
      h *= 1099511628211ull;
    }
  };
  for (const auto& e : tiles) {
    const nav::MeshTile* t = std::get<3>(e);
    // The tile as built: the NavMesh writes its links (and each poly's first link) into the blob
    // when tiles connect, in an order that depends on which neighbour came first; those are left out.
    const nav::TileLayout l = nav::tileLayout(*t->header);
    mix(t->data, l.polys);
    for (int i = 0; i < t->header->polyCount; ++i) {
      const nav::Poly& p = t->polys[i];
      mix(reinterpret_cast<const uint8_t*>(p.verts), sizeof p.verts);
      mix(reinterpret_cast<const uint8_t*>(p.neis), sizeof p.neis);
      mix(reinterpret_cast<const uint8_t*>(&p.flags), sizeof p.flags);
      mix(&p.vertCount, 1);
      mix(&p.areaAndType, 1);
    }
    if (t->dataSize >= l.total) mix(t->data + l.detailMeshes, l.total - l.detailMeshes);
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

} // namespace navbench
