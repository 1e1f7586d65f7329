// CheckModel.cpp: see CheckModel.h.
#include "app/model/CheckModel.h"

#include "nav/NavMesh.h"
#include "nav/TileSetFile.h"
#include "nav/check/AgentSeeds.h"
#include "nav/base/Json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace navbench {

using namespace nav::check;

/// One run's inputs (a snapshot) and outputs, owned by the model, filled by the worker thread.
struct CheckModel::Run {
  struct Item {
    CheckReportOf report;       ///< Its agent, options, and (filled) result.
    std::vector<uint8_t> tiles; ///< The mesh as a tile set (saveTileSet).
  };
  std::vector<Item> items;         ///< One per agent type (one without types).
  std::vector<float> verts;        ///< The level's triangles (may be empty).
  std::vector<int> tris;
  uint16_t include = 0, exclude = 0;
  nav::Status status = nav::SUCCESS;
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
/// The generations of the meshes checked, as one key (a single mesh: its generation).
uint64_t keyOf(const std::vector<CheckAgent>& agents) {
  if (agents.size() == 1) return agents[0].mesh ? agents[0].mesh->generation() : 0;
  uint64_t h = 1469598103934665603ull;
  for (const CheckAgent& a : agents) h = (h ^ (a.mesh ? a.mesh->generation() : 0)) * 1099511628211ull;
  return h;
}

bool allMeshes(const std::vector<CheckAgent>& agents) {
  for (const CheckAgent& a : agents)
    if (!a.mesh || a.mesh->getMaxTiles() <= 0) return false;
  return !agents.empty();
}

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
  CheckAgent one;
  one.index = -1;
  one.mesh = &mesh;
  return startRun({one}, level, why);
}

bool CheckModel::start(const std::vector<CheckAgent>& agents, const LevelTris& level, std::string* why) {
  return startRun(agents, level, why);
}

bool CheckModel::startRun(const std::vector<CheckAgent>& agents, const LevelTris& level, std::string* why) {
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
  for (const CheckAgent& a : agents) {
    const std::string of = a.index >= 0 ? "agent " + a.name + ": " : "";
    if (!a.mesh) {
      if (why) *why = of + "no navmesh (still baking)";
      return false;
    }
    Run::Item item;
    if (nav::statusFailed(nav::saveTileSet(*a.mesh, item.tiles, &err)) || item.tiles.empty()) {
      if (why) *why = of + (err.empty() ? "the navmesh has no tiles" : err);
      return false;
    }
    item.report.index = a.index;
    item.report.name = a.name;
    item.report.color = a.color;
    item.report.options = options;
    if (a.index >= 0) { // the type's own seeds, as `navbench check LEVEL.json` takes them
      item.report.options.seeds.clear();
      nav::check::addAgentSeeds(item.report.options, levelSeeds, levelSeedAgents, a.index);
    }
    run->items.push_back(std::move(item));
  }
  if (run->items.empty()) {
    if (why) *why = "no navmesh to check";
    return false;
  }
  if (level.verts && level.tris) {
    run->verts = *level.verts;
    run->tris = *level.tris;
  }
  run->include = includeFlags;
  run->exclude = excludeFlags;
  m_checkedGen = m_seenGen = keyOf(agents);
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
    const float n = float(r->items.size());
    for (size_t i = 0; i < r->items.size() && nav::statusSucceeded(r->status); ++i) {
      Run::Item& item = r->items[i];
      const std::string of = item.report.index >= 0 ? "agent " + item.report.name + ": " : "";
      nav::NavMesh copy;
      r->status = nav::loadTileSet(item.tiles.data(), item.tiles.size(), copy, &r->why, "navmesh");
      if (nav::statusSucceeded(r->status)) {
        nav::QueryFilter filter = defaultCheckFilter();
        filter.setIncludeFlags(r->include);
        filter.setExcludeFlags(r->exclude);
        LevelTriangles lv;
        lv.verts = r->verts.data();
        lv.vertCount = int(r->verts.size() / 3);
        lv.tris = r->tris.data();
        lv.triCount = int(r->tris.size() / 3);
        r->status = runChecks(copy, filter, item.report.options, item.report.result, &r->why, lv.triCount ? &lv : nullptr,
                              [this, i, n, &of](const char* stage, float f) {
                                m_progress = (float(i) + f) / n;
                                std::lock_guard<std::mutex> lock(m_phaseMutex);
                                m_phase = of + stage;
                              },
                              &m_cancel);
      }
      if (nav::statusFailed(r->status) && !r->why.empty() && r->why != "cancelled") r->why = of + r->why;
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
  const int shownIndex = m_reports[size_t(m_current)].index;
  m_reports.clear();
  for (Run::Item& item : r->items) m_reports.push_back(std::move(item.report));
  m_hasResult = true;
  ++m_runs;
  buildFindings();
  m_selected = -1;
  m_current = -1; // (the heatmap of the new results)
  showAgent(shownIndex);
  if (m_pendingKind >= 0) {
    for (size_t i = 0; i < m_findings.size(); ++i)
      if (m_findings[i].kind == m_pendingKind && m_findings[i].index == m_pendingIndex &&
          (m_pendingAgent.empty() || m_reports[size_t(m_findings[i].report)].name == m_pendingAgent))
        select(int(i));
    m_pendingKind = m_pendingIndex = -1;
    m_pendingAgent.clear();
  }
}

void CheckModel::showAgent(int index) {
  int current = 0;
  for (size_t i = 0; i < m_reports.size(); ++i)
    if (m_reports[i].index == index) current = int(i);
  if (current == m_current) return;
  m_current = current;
  m_heat.clear();
  for (const HeatEntry& h : result().heat) m_heat.emplace_back(h.ref, h.ratio);
  std::sort(m_heat.begin(), m_heat.end());
}

void CheckModel::buildFindings() {
  m_findings.clear();
  for (size_t rep = 0; rep < m_reports.size(); ++rep) {
    const CheckResult& res = m_reports[rep].result;
    for (int k : listOrder()) {
      if (!res.ran[k]) continue;
      const std::vector<std::string> lines = describeFindings(res, k, 1 << 30);
      std::vector<int> index; // the result entries the lines are of
      if (k == CHECK_ISLANDS) {
        for (size_t i = 0; i < res.islands.size(); ++i)
          if (res.islands[i].isFinding()) index.push_back(int(i));
      } else {
        for (size_t i = 0; i < lines.size(); ++i) index.push_back(int(i));
      }
      for (size_t i = 0; i < lines.size() && i < index.size(); ++i)
        m_findings.push_back(CheckFinding{int(rep), k, index[i], checkSeverity(k), lines[i]});
    }
  }
}

bool CheckModel::poll(const nav::NavMesh* mesh, const LevelTris& level, double nowMs, bool wantFresh) {
  std::vector<CheckAgent> one(1);
  one[0].index = -1;
  one[0].mesh = mesh;
  return pollRun(one, level, nowMs, wantFresh);
}

bool CheckModel::poll(const std::vector<CheckAgent>& agents, const LevelTris& level, double nowMs, bool wantFresh) {
  return pollRun(agents, level, nowMs, wantFresh);
}

bool CheckModel::pollRun(const std::vector<CheckAgent>& agents, const LevelTris& level, double nowMs, bool wantFresh) {
  bool arrived = false;
  if (m_worker && m_done) {
    const int before = m_runs;
    finish();
    arrived = m_runs != before;
  }
  if (!allMeshes(agents)) return arrived;
  const uint64_t gen = keyOf(agents);
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
    if (!startRun(agents, level, &why)) {
      m_error = why;
      m_pendingRun = false;
      m_checkedGen = gen; // (not again until it changes)
    }
  }
  return arrived;
}

bool CheckModel::stale(const nav::NavMesh* mesh) const { return m_hasResult && mesh && mesh->generation() != m_checkedGen; }

bool CheckModel::stale(const std::vector<CheckAgent>& agents) const {
  return m_hasResult && allMeshes(agents) && keyOf(agents) != m_checkedGen;
}

void CheckModel::keepResults(const std::vector<CheckAgent>& agents) {
  if (running() || !allMeshes(agents)) return;
  m_checkedGen = m_seenGen = keyOf(agents);
}

int CheckModel::count(int kind) const { return count(m_current, kind); }

int CheckModel::count(int report, int kind) const {
  if (!m_hasResult || report < 0 || report >= int(m_reports.size())) return 0;
  return findingCount(m_reports[size_t(report)].result, kind);
}

bool CheckModel::select(int i) {
  if (i < -1 || i >= int(m_findings.size())) return false;
  m_selected = i;
  if (i >= 0) showAgent(m_reports[size_t(m_findings[size_t(i)].report)].index);
  return true;
}

CheckFocus CheckModel::focus(int i) const {
  CheckFocus f;
  if (i < 0 || i >= int(m_findings.size())) return f;
  const CheckFinding& c = m_findings[size_t(i)];
  const size_t k = size_t(c.index);
  const CheckResult& res = m_reports[size_t(c.report)].result; // (the finding's report)
  auto spot = [&f](const Vec3& pos, const Vec3& a, const Vec3& b) {
    f.kind = CheckFocus::Spot;
    f.pos = pos;
    f.a = a;
    f.b = b;
  };
  switch (c.kind) {
  case CHECK_ISLANDS: {
    const Island& is = res.islands[k];
    f.kind = CheckFocus::Island;
    f.pos = is.center;
    for (const auto& pi : res.polyIslands)
      if (pi.second == c.index) f.polys.push_back(pi.first);
    // Frame a square of about the island's size around its centre (its polys' extent is the view's).
    const float r = std::max(3.0f, std::sqrt(std::max(is.area, 0.0f)));
    boundsOf(f, {is.center}, r);
    break;
  }
  case CHECK_DETOURS:
  case CHECK_BUDGET: {
    const PairEnds& p = c.kind == CHECK_DETOURS ? static_cast<const PairEnds&>(res.detours[k])
                                                : static_cast<const PairEnds&>(res.budget[k]);
    f.kind = CheckFocus::Pair;
    f.pos = f.a = p.start;
    f.b = p.end;
    boundsOf(f, {p.start, p.end}, 3.0f);
    break;
  }
  case CHECK_SEAMS:
    spot(res.seams[k].pos, res.seams[k].a, res.seams[k].b);
    break;
  case CHECK_LINKS:
    spot(res.links[k].pos, res.links[k].start, res.links[k].end);
    break;
  case CHECK_NARROW:
    spot(res.narrow[k].pos, res.narrow[k].a, res.narrow[k].b);
    break;
  case CHECK_SURFACE: {
    const SurfaceFinding& s = res.surface[k];
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
    if (m_reports[size_t(f.report)].index >= 0) out["selected"]["agent"] = m_reports[size_t(f.report)].name;
  }
}

void CheckModel::dumpState(nlohmann::json& out) const {
  auto vec = [](const Vec3& v) { return nlohmann::json::array({v[0], v[1], v[2]}); };
  nlohmann::json counts = nlohmann::json::object(), list = nlohmann::json::array();
  for (int k = 0; k < CHECK_COUNT; ++k)
    if (m_hasResult && result().ran[k]) counts[checkName(k)] = count(k);
  for (size_t i = 0; i < m_findings.size() && i < 20; ++i) {
    list.push_back({{"kind", checkName(m_findings[i].kind)}, {"index", m_findings[i].index}, {"text", m_findings[i].text},
                    {"severity", severityName(m_findings[i].severity)}});
    if (m_reports[size_t(m_findings[i].report)].index >= 0) list.back()["agent"] = m_reports[size_t(m_findings[i].report)].name;
  }
  out = {{"shown", shown},         {"running", running()},       {"runs", m_runs},
         {"error", m_error},       {"hasResult", m_hasResult},   {"counts", counts},
         {"findingCount", m_findings.size()}, {"findings", list}, {"selected", m_selected},
         {"heatmap", heatmap},     {"heatPolys", m_heat.size()}};
  if (m_hasResult && m_reports.front().index >= 0) { // per agent type: its counts
    nlohmann::json agents = nlohmann::json::array();
    for (size_t r = 0; r < m_reports.size(); ++r) {
      nlohmann::json c = nlohmann::json::object();
      for (int k = 0; k < CHECK_COUNT; ++k)
        if (m_reports[r].result.ran[k]) c[checkName(k)] = count(int(r), k);
      agents.push_back({{"name", m_reports[r].name}, {"counts", c}});
    }
    out["agents"] = agents;
    out["shownAgent"] = m_reports[size_t(m_current)].name;
  }
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
  std::string agent;
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
    ok = s.object({"kind", "index", "agent"}) && s.get("kind", name, size_t(32)) && s.get("index", index, 0, 1 << 30) &&
         s.opt("agent", agent, size_t(32));
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
  m_pendingAgent = agent;
  m_pendingRun = kind >= 0 || shown;
  return true;
}

} // namespace navbench
