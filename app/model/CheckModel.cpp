// CheckModel.cpp: see CheckModel.h.
#include "app/model/CheckModel.h"

#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "nav/base/Json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace navbench {

using namespace nav::check;

/// One run's inputs (a snapshot) and outputs, owned by the model, filled by the worker thread.
struct CheckModel::Run {
  std::vector<uint8_t> tiles;      ///< The mesh as a tile set (saveTileSet).
  std::vector<float> verts;        ///< The level's triangles (may be empty).
  std::vector<int> tris;
  CheckOptions options;
  uint16_t include = 0, exclude = 0;
  CheckResult result;
  nav::Status status = 0;
  std::string why;
  double seconds = 0;
};

namespace {

/// Check kinds in list order: errors first (seams, links, surface), then warnings, each group in
/// CheckKind order.
std::vector<int> listOrder() {
  std::vector<int> order;
  for (int sev : {SEVERITY_ERROR, SEVERITY_WARNING})
    for (int k = 0; k < CHECK_COUNT; ++k)
      if (checkSeverity(k) == sev) order.push_back(k);
  return order;
}

int kindByName(const std::string& name) {
  for (int k = 0; k < CHECK_COUNT; ++k)
    if (name == checkName(k)) return k;
  return -1;
}

void grow(Vec3& lo, Vec3& hi, const Vec3& p) {
  for (int i = 0; i < 3; ++i) {
    lo[size_t(i)] = std::min(lo[size_t(i)], p[size_t(i)]);
    hi[size_t(i)] = std::max(hi[size_t(i)], p[size_t(i)]);
  }
}

/// Bounds of the given points, padded by `pad` in x and z and at most 1 wu in y (a flat view).
void boundsOf(CheckFocus& f, std::initializer_list<Vec3> pts, float pad) {
  f.boundsMin = f.boundsMax = *pts.begin();
  for (const Vec3& p : pts) grow(f.boundsMin, f.boundsMax, p);
  for (int i = 0; i < 3; ++i) {
    const float d = i == 1 ? std::min(pad, 1.0f) : pad;
    f.boundsMin[size_t(i)] -= d;
    f.boundsMax[size_t(i)] += d;
  }
}

} // namespace

CheckModel::CheckModel() = default;

CheckModel::~CheckModel() {
  m_cancel = true;
  if (m_worker && m_worker->joinable()) m_worker->join();
}

bool CheckModel::start(const nav::NavMesh& mesh, const LevelTris& level, std::string* why) {
  std::string err;
  if (!options.validate(&err)) {
    if (why) *why = err;
    return false;
  }
  if (running()) {
    m_cancel = true;
    m_worker->join();
    m_worker.reset();
    m_run.reset();
  }
  auto run = std::make_unique<Run>();
  if (nav::statusFailed(nav::saveTileSet(mesh, run->tiles, &err)) || run->tiles.empty()) {
    if (why) *why = err.empty() ? "the navmesh has no tiles" : err;
    return false;
  }
  if (level.verts && level.tris) {
    run->verts = *level.verts;
    run->tris = *level.tris;
  }
  run->options = options;
  run->include = includeFlags;
  run->exclude = excludeFlags;
  m_checkedGen = m_seenGen = mesh.generation();
  m_pendingRun = false;
  m_cancel = false;
  m_done = false;
  m_progress = 0.0f;
  {
    std::lock_guard<std::mutex> lock(m_phaseMutex);
    m_phase = "starting";
  }
  m_run = std::move(run);
  Run* r = m_run.get();
  m_worker = std::make_unique<std::thread>([this, r]() {
    const auto t0 = std::chrono::steady_clock::now();
    nav::NavMesh copy;
    r->status = nav::loadTileSet(r->tiles.data(), r->tiles.size(), copy, &r->why, "navmesh");
    if (nav::statusSucceeded(r->status)) {
      nav::QueryFilter filter = defaultCheckFilter();
      filter.setIncludeFlags(r->include);
      filter.setExcludeFlags(r->exclude);
      LevelTriangles lv;
      lv.verts = r->verts.data();
      lv.vertCount = int(r->verts.size() / 3);
      lv.tris = r->tris.data();
      lv.triCount = int(r->tris.size() / 3);
      r->status = runChecks(copy, filter, r->options, r->result, &r->why, lv.triCount ? &lv : nullptr,
                            [this](const char* stage, float f) {
                              m_progress = f;
                              std::lock_guard<std::mutex> lock(m_phaseMutex);
                              m_phase = stage;
                            },
                            &m_cancel);
    }
    r->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    m_done = true;
  });
  return true;
}

void CheckModel::cancel() { m_cancel = true; }

std::string CheckModel::phase() const {
  std::lock_guard<std::mutex> lock(m_phaseMutex);
  return m_phase;
}

void CheckModel::wait() {
  if (!m_worker) return;
  m_worker->join();
  finish();
}

void CheckModel::finish() {
  if (m_worker && m_worker->joinable()) m_worker->join();
  m_worker.reset();
  std::unique_ptr<Run> r = std::move(m_run);
  if (!r) return;
  m_seconds = r->seconds;
  if (nav::statusFailed(r->status)) { // cancelled or bad input: the old results stay
    m_error = r->why.empty() ? std::string("the checks failed") : r->why;
    return;
  }
  m_error.clear();
  m_result = std::move(r->result);
  m_hasResult = true;
  ++m_runs;
  m_heat.clear();
  for (const HeatEntry& h : m_result.heat) m_heat.emplace_back(h.ref, h.ratio);
  std::sort(m_heat.begin(), m_heat.end());
  buildFindings();
  m_selected = -1;
  if (m_pendingKind >= 0) {
    for (size_t i = 0; i < m_findings.size(); ++i)
      if (m_findings[i].kind == m_pendingKind && m_findings[i].index == m_pendingIndex) m_selected = int(i);
    m_pendingKind = m_pendingIndex = -1;
  }
}

void CheckModel::buildFindings() {
  m_findings.clear();
  for (int k : listOrder()) {
    if (!m_result.ran[k]) continue;
    const std::vector<std::string> lines = describeFindings(m_result, k, 1 << 30);
    std::vector<int> index; // the result entries the lines are of
    if (k == CHECK_ISLANDS) {
      for (size_t i = 0; i < m_result.islands.size(); ++i)
        if (m_result.islands[i].isFinding()) index.push_back(int(i));
    } else {
      for (size_t i = 0; i < lines.size(); ++i) index.push_back(int(i));
    }
    for (size_t i = 0; i < lines.size() && i < index.size(); ++i)
      m_findings.push_back(CheckFinding{k, index[i], checkSeverity(k), lines[i]});
  }
}

bool CheckModel::poll(const nav::NavMesh* mesh, const LevelTris& level, double nowMs, bool wantFresh) {
  bool arrived = false;
  if (m_worker && m_done) {
    const int before = m_runs;
    finish();
    arrived = m_runs != before;
  }
  if (!mesh || mesh->getMaxTiles() <= 0) return arrived;
  const uint64_t gen = mesh->generation();
  if (gen != m_seenGen) {
    m_seenGen = gen;
    m_changedAt = nowMs;
    // The run under way checks a mesh that is gone: stop it, re-run after the debounce.
    if (running() && gen != m_checkedGen && autoRerun) cancel();
  }
  if (running()) return arrived;
  const bool want = m_pendingRun || (autoRerun && wantFresh && (m_hasResult || !m_error.empty()) && gen != m_checkedGen);
  if (want && nowMs - m_changedAt >= (m_pendingRun ? 0.0 : debounceMs)) {
    std::string why;
    if (!start(*mesh, level, &why)) {
      m_error = why;
      m_pendingRun = false;
      m_checkedGen = gen; // (not again until it changes)
    }
  }
  return arrived;
}

bool CheckModel::stale(const nav::NavMesh* mesh) const { return m_hasResult && mesh && mesh->generation() != m_checkedGen; }

int CheckModel::count(int kind) const { return m_hasResult ? findingCount(m_result, kind) : 0; }

bool CheckModel::select(int i) {
  if (i < -1 || i >= int(m_findings.size())) return false;
  m_selected = i;
  return true;
}

CheckFocus CheckModel::focus(int i) const {
  CheckFocus f;
  if (i < 0 || i >= int(m_findings.size())) return f;
  const CheckFinding& c = m_findings[size_t(i)];
  const size_t k = size_t(c.index);
  auto spot = [&f](const Vec3& pos, const Vec3& a, const Vec3& b) {
    f.kind = CheckFocus::Spot;
    f.pos = pos;
    f.a = a;
    f.b = b;
  };
  switch (c.kind) {
  case CHECK_ISLANDS: {
    const Island& is = m_result.islands[k];
    f.kind = CheckFocus::Island;
    f.pos = is.center;
    for (const auto& pi : m_result.polyIslands)
      if (pi.second == c.index) f.polys.push_back(pi.first);
    // Frame a square of about the island's size around its centre (its polys' extent is the view's).
    const float r = std::max(3.0f, std::sqrt(std::max(is.area, 0.0f)));
    boundsOf(f, {is.center}, r);
    break;
  }
  case CHECK_DETOURS:
  case CHECK_BUDGET: {
    const PairEnds& p = c.kind == CHECK_DETOURS ? static_cast<const PairEnds&>(m_result.detours[k])
                                                : static_cast<const PairEnds&>(m_result.budget[k]);
    f.kind = CheckFocus::Pair;
    f.pos = f.a = p.start;
    f.b = p.end;
    boundsOf(f, {p.start, p.end}, 3.0f);
    break;
  }
  case CHECK_SEAMS:
    spot(m_result.seams[k].pos, m_result.seams[k].a, m_result.seams[k].b);
    break;
  case CHECK_LINKS:
    spot(m_result.links[k].pos, m_result.links[k].start, m_result.links[k].end);
    break;
  case CHECK_NARROW:
    spot(m_result.narrow[k].pos, m_result.narrow[k].a, m_result.narrow[k].b);
    break;
  case CHECK_SURFACE: {
    const SurfaceFinding& s = m_result.surface[k];
    Vec3 below = s.pos;
    below[1] -= s.dist; // down (or up) to the level surface
    spot(s.pos, s.pos, below);
    break;
  }
  default:
    break;
  }
  if (f.kind == CheckFocus::Spot) boundsOf(f, {f.a, f.b, f.pos}, 4.0f);
  return f;
}

float CheckModel::heatOf(nav::PolyRef ref) const {
  const auto it = std::lower_bound(m_heat.begin(), m_heat.end(), std::make_pair(ref, 0.0f));
  return it != m_heat.end() && it->first == ref ? it->second : 0.0f;
}

void CheckModel::saveScenario(nlohmann::json& out) const {
  const CheckOptions& o = options;
  nlohmann::json checks = nlohmann::json::array();
  const bool on[CHECK_COUNT] = {o.islands, o.detours, o.budget, o.seams, o.links, o.narrow, o.surface};
  for (int k = 0; k < CHECK_COUNT; ++k)
    if (on[k]) checks.push_back(checkName(k));
  out = {{"options",
          {{"checks", checks},
           {"pairs", o.pairs},
           {"seed", o.seed},
           {"includeFlags", includeFlags},
           {"excludeFlags", excludeFlags},
           {"detourRatio", base::exactFloat(o.detourRatio)},
           {"detourMin", base::exactFloat(o.detourMinExtra)},
           {"nodeBudget", o.nodeBudget},
           {"minWidth", base::exactFloat(o.minWidth)}}},
         {"heatmap", heatmap},
         {"visible", shown},
         {"selected", nullptr}};
  if (m_selected >= 0) {
    const CheckFinding& f = m_findings[size_t(m_selected)];
    out["selected"] = {{"kind", checkName(f.kind)}, {"index", f.index}};
  }
}

void CheckModel::dumpState(nlohmann::json& out) const {
  auto vec = [](const Vec3& v) { return nlohmann::json::array({v[0], v[1], v[2]}); };
  nlohmann::json counts = nlohmann::json::object(), list = nlohmann::json::array();
  for (int k = 0; k < CHECK_COUNT; ++k)
    if (m_hasResult && m_result.ran[k]) counts[checkName(k)] = count(k);
  for (size_t i = 0; i < m_findings.size() && i < 20; ++i)
    list.push_back({{"kind", checkName(m_findings[i].kind)}, {"index", m_findings[i].index}, {"text", m_findings[i].text},
                    {"severity", severityName(m_findings[i].severity)}});
  out = {{"shown", shown},         {"running", running()},       {"runs", m_runs},
         {"error", m_error},       {"hasResult", m_hasResult},   {"counts", counts},
         {"findingCount", m_findings.size()}, {"findings", list}, {"selected", m_selected},
         {"heatmap", heatmap},     {"heatPolys", m_heat.size()}};
  if (m_selected >= 0) {
    const CheckFocus f = focus(m_selected);
    static const char* kinds[] = {"none", "pair", "island", "spot"};
    out["focus"] = {{"kind", kinds[f.kind]}, {"pos", vec(f.pos)}, {"a", vec(f.a)}, {"b", vec(f.b)}, {"polys", f.polys.size()},
                    {"boundsMin", vec(f.boundsMin)}, {"boundsMax", vec(f.boundsMax)}};
  }
}

bool CheckModel::loadScenario(const nlohmann::json& in, std::string* why) {
  base::JsonErrors errors("");
  const base::JsonIn j(in, errors, "check");
  CheckOptions o = options;
  long long seed = 0, include = 0, exclude = 0;
  bool heat = false;
  int kind = -1, index = -1;
  const base::JsonIn op = j["options"];
  bool shownIn = false;
  bool ok = j.object({"options", "heatmap", "selected", "visible"}) && j.opt("heatmap", heat) && j.opt("visible", shownIn) &&
       op.object({"checks", "pairs", "seed", "includeFlags", "excludeFlags", "detourRatio", "detourMin", "nodeBudget",
                  "minWidth"}) &&
       op.get("pairs", o.pairs, 1, 10000000) && op.get("seed", seed, 0, 1LL << 62) &&
       op.get("includeFlags", include, 0, 0xffff) && op.get("excludeFlags", exclude, 0, 0xffff) &&
       op.get("detourRatio", o.detourRatio, 1.0, 1000.0) && op.get("detourMin", o.detourMinExtra, 0.0, 1e6) &&
       op.get("nodeBudget", o.nodeBudget, 1, 65535) && op.get("minWidth", o.minWidth, 1e-6, 1e3) &&
       op["checks"].array(0, CHECK_COUNT);
  if (ok) {
    bool* flags[CHECK_COUNT] = {&o.islands, &o.detours, &o.budget, &o.seams, &o.links, &o.narrow, &o.surface};
    for (bool* f : flags) *f = false;
    for (size_t i = 0; ok && i < op["checks"].size(); ++i) {
      std::string name;
      ok = op["checks"][i].get(name, 32);
      const int k = ok ? kindByName(name) : -1;
      if (ok && k < 0) ok = op["checks"][i].fail("unknown check '" + name + "'");
      if (ok) *flags[k] = true;
    }
  }
  if (ok && j.has("selected") && !j.json()["selected"].is_null()) {
    const base::JsonIn s = j["selected"];
    std::string name;
    ok = s.object({"kind", "index"}) && s.get("kind", name, size_t(32)) && s.get("index", index, 0, 1 << 30);
    kind = ok ? kindByName(name) : -1;
    if (ok && kind < 0) ok = s["kind"].fail("unknown check '" + name + "'");
  }
  if (!ok || errors.failed()) {
    if (why) *why = errors.message;
    return false;
  }
  o.seed = uint64_t(seed);
  options = o;
  includeFlags = uint16_t(include);
  excludeFlags = uint16_t(exclude);
  heatmap = heat;
  shown = shownIn;
  m_pendingKind = kind;
  m_pendingIndex = index;
  m_pendingRun = kind >= 0 || shown;
  return true;
}

} // namespace navbench
