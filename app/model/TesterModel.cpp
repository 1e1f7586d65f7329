#include "app/model/TesterModel.h"

#include "app/NavState.h"
#include "app/model/HierSearch.h"
#include "nav/ShortestPath.h"
#include "nav/base/Json.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>

namespace navbench {

namespace {
double microsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

TesterModel::TesterModel() = default;
TesterModel::~TesterModel() = default;

void TesterModel::setShowShortest(bool on) {
  m_showShortest = on;
  recomputeAll();
}

void TesterModel::computeShortest(const nav::PolyRef* corridor, int ncorridor) {
  m_sp = ShortestComparison();
  if (!m_showShortest || !m_nav || !m_nav->loaded() || !m_startRef || !m_endRef) return;
  if (!m_spSearch || m_spMesh != &m_nav->mesh()) {
    m_spSearch = std::make_unique<nav::ShortestPath>();
    if (nav::statusFailed(m_spSearch->init(&m_nav->mesh(), 8192))) {
      m_spSearch.reset();
      return;
    }
    m_spMesh = &m_nav->mesh();
  }
  std::vector<float> pts(size_t(kMaxPolys) * 3);
  std::vector<nav::PolyRef> polys(size_t(kMaxPolys) * 4);
  int n = 0, np = 0;
  const auto t0 = std::chrono::steady_clock::now();
  m_sp.status = m_spSearch->findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &m_nav->filter(), pts.data(), nullptr,
                                     nullptr, &n, kMaxPolys, polys.data(), &np, int(polys.size()), &m_sp.len);
  m_sp.us = microsSince(t0);
  if (nav::statusFailed(m_sp.status)) return;
  m_sp.pts.assign(pts.begin(), pts.begin() + n * 3);
  m_sp.polys.assign(polys.begin(), polys.begin() + np);
  std::vector<nav::PolyRef> in(corridor, corridor + ncorridor);
  std::sort(in.begin(), in.end());
  for (nav::PolyRef r : m_sp.polys)
    if (!std::binary_search(in.begin(), in.end(), r) && std::find(m_sp.outside.begin(), m_sp.outside.end(), r) == m_sp.outside.end())
      m_sp.outside.push_back(r);
}

void TesterModel::dumpShortest(nlohmann::json& out) const {
  if (!m_showShortest) return;
  out["shortestStatus"] = m_sp.status;
  out["shortestLen"] = m_sp.len;
  out["shortestPath"] = m_sp.pts;
  out["shortestPolys"] = m_sp.polys;
  out["shortestPolysOutsideCorridor"] = m_sp.outside;
}

void TesterModel::reset() {
  m_hasStart = m_hasEnd = false;
  m_startRef = m_endRef = 0;
  m_status = 0;
  m_queryUs = 0;
  m_nodesUsed = 0;
  recompute();
  computeShortest(nullptr, 0); // clears (no start / end)
}

void TesterModel::levelChanged() {
  m_undo.clear();
  m_redo.clear();
  reset();
}

void TesterModel::pushUndo() {
  m_undo.push_back({m_hasStart, m_hasEnd, m_start, m_end});
  if (m_undo.size() > 256) m_undo.erase(m_undo.begin());
  m_redo.clear();
  if (inputChanged) inputChanged();
}

void TesterModel::restore(std::vector<Input>& from, std::vector<Input>& to) {
  if (from.empty()) return;
  to.push_back({m_hasStart, m_hasEnd, m_start, m_end});
  const Input in = from.back();
  from.pop_back();
  m_hasStart = in.hasStart;
  m_hasEnd = in.hasEnd;
  m_start = in.start;
  m_end = in.end;
  recomputeAll();
}

void TesterModel::undo() { restore(m_undo, m_redo); }
void TesterModel::redo() { restore(m_redo, m_undo); }

void TesterModel::setStart(const glm::vec3& p) {
  pushUndo();
  m_start = p;
  m_hasStart = true;
  recomputeAll();
}

void TesterModel::setEnd(const glm::vec3& p) {
  pushUndo();
  m_end = p;
  m_hasEnd = true;
  recomputeAll();
}

void TesterModel::click(const glm::vec3& p, bool shift) {
  if (shift || !needsEnd()) setStart(p);
  else setEnd(p);
}

void TesterModel::clear() {
  pushUndo();
  reset();
}

void TesterModel::recomputeAll() {
  m_startRef = m_endRef = 0;
  m_status = 0;
  m_nodesUsed = 0;
  if (m_nav && m_nav->loaded()) {
    if (m_hasStart) m_startRef = m_nav->nearestPoly(m_start);
    if (m_hasEnd) m_endRef = m_nav->nearestPoly(m_end);
  }
  const auto t0 = std::chrono::steady_clock::now();
  recompute();
  m_queryUs = microsSince(t0);
  const nav::PolyRef* corridor = nullptr;
  const int ncorridor = corridorForShortest(&corridor);
  if (ncorridor >= 0) computeShortest(corridor, ncorridor);
}

float TesterModel::polylineLength(const float* pts, int n) {
  float len = 0;
  for (int i = 1; i < n; ++i)
    len += std::sqrt((pts[i * 3] - pts[i * 3 - 3]) * (pts[i * 3] - pts[i * 3 - 3]) +
                     (pts[i * 3 + 1] - pts[i * 3 - 2]) * (pts[i * 3 + 1] - pts[i * 3 - 2]) +
                     (pts[i * 3 + 2] - pts[i * 3 - 1]) * (pts[i * 3 + 2] - pts[i * 3 - 1]));
  return len;
}

void TesterModel::dumpFoundPolys(nlohmann::json& out, const nav::PolyRef* refs, const nav::PolyRef* parents, int n) {
  out["found"] = std::vector<nav::PolyRef>(refs, refs + n);
  out["parents"] = std::vector<nav::PolyRef>(parents, parents + n);
}

void TesterModel::dumpState(nlohmann::json& out) const {
  out["tool"] = name();
  if (m_hasStart) out["start"] = {m_start.x, m_start.y, m_start.z};
  if (m_hasEnd) out["end"] = {m_end.x, m_end.y, m_end.z};
  out["startRef"] = m_startRef;
  out["endRef"] = m_endRef;
  out["status"] = m_status;
  char buf[160];
  out["statusText"] = m_status ? nav::statusToString(m_status, buf, sizeof buf) : "";
  out["queryUs"] = m_queryUs;
  out["nodesUsed"] = m_nodesUsed;
  dumpResult(out);
}

void TesterModel::saveScenario(nlohmann::json& out) const {
  if (m_hasStart) out["start"] = base::exactVec3(&m_start.x);
  if (m_hasEnd) out["end"] = base::exactVec3(&m_end.x);
  if (hasShortestOption()) out["shortest"] = m_showShortest;
  nlohmann::json opt = nlohmann::json::object();
  saveOptions(opt);
  out["options"] = opt;
}

bool TesterModel::loadOptions(const base::JsonIn& in) {
  if (in.size() == 0) return true;
  return in[in.json().begin().key()].fail(std::string("unknown key (") + name() + " has no options)");
}

bool TesterModel::loadScenario(const nlohmann::json& doc, std::string& error) {
  base::JsonErrors errors;
  const base::JsonIn in(doc, errors);
  glm::vec3 p[2] = {glm::vec3(0.0f), glm::vec3(0.0f)};
  bool shortest = m_showShortest;
  const char* const points[2] = {"start", "end"};
  bool ok = in.object({"start", "end", "options", "shortest"});
  if (ok && in.has("shortest") && !hasShortestOption()) ok = in["shortest"].fail("unknown key");
  for (int k = 0; k < 2 && ok; ++k) {
    ok = in.optVec3(points[k], &p[k].x);
    for (int i = 0; i < 3 && ok; ++i)
      if (std::fabs(p[k][i]) > 1e9f) ok = in[points[k]].fail("coordinates must be within 1e9");
  }
  ok = ok && in.opt("shortest", shortest);
  const nlohmann::json noOptions = nlohmann::json::object();
  const base::JsonIn opt = in.has("options") ? in["options"] : base::JsonIn(noOptions, errors, "options");
  ok = ok && opt.object() && loadOptions(opt); // the mode applies its options only when all are valid
  if (!ok) {
    error = errors.message;
    return false;
  }
  pushUndo();
  m_hasStart = in.has("start");
  m_hasEnd = in.has("end");
  m_start = p[0];
  m_end = p[1];
  m_showShortest = shortest;
  recomputeAll();
  afterScenarioLoad();
  return true;
}

std::string TesterModel::caption() const {
  std::string c = name() + captionDetail();
  char buf[256];
  if (m_hasStart) {
    std::snprintf(buf, sizeof buf, "  start (%.2f, %.2f, %.2f)", double(m_start.x), double(m_start.y), double(m_start.z));
    c += buf;
  }
  if (m_hasEnd && needsEnd()) {
    std::snprintf(buf, sizeof buf, "  end (%.2f, %.2f, %.2f)", double(m_end.x), double(m_end.y), double(m_end.z));
    c += buf;
  }
  if (m_status) c += std::string("  status: ") + nav::statusToString(m_status, buf, sizeof buf);
  else if (m_hasStart) c += "  status: -";
  const float len = resultLength();
  if (len >= 0 && m_status && !nav::statusFailed(m_status)) {
    std::snprintf(buf, sizeof buf, "  path %.2f m", double(len));
    c += buf;
  }
  return c;
}

PathTesterModel::~PathTesterModel() = default;

const char* PathTesterModel::pathAlgoKey(int algo) { return algo == PATH_HIERARCHICAL ? "hierarchical" : "detour"; }

void PathTesterModel::setPathAlgorithm(int algo) {
  m_algo = algo == PATH_HIERARCHICAL ? PATH_HIERARCHICAL : PATH_DETOUR;
  recomputeAll();
}

void PathTesterModel::setSideBySide(bool on) {
  m_sideBySide = on;
  recomputeAll();
}

void PathTesterModel::setShowGraph(bool on) {
  m_showGraph = on;
  recomputeAll(); // the abstract path is kept only while the overlay is on
}

nav::HierPlanner* PathTesterModel::planner() {
  if (!m_hier) {
    if (!m_ownHier) m_ownHier = std::make_unique<HierSearch>();
    m_ownHier->setNav(m_nav);
  }
  return (m_hier ? m_hier : m_ownHier.get())->planner();
}

void PathTesterModel::runAlgorithm(int algo, nav::PolyRef* polys, int* npolys, PathRun& run) {
  run = PathRun();
  run.ran = true;
  *npolys = 0;
  const auto t0 = std::chrono::steady_clock::now();
  if (algo == PATH_HIERARCHICAL) {
    nav::HierPlanner* p = planner();
    if (!p) {
      run.status = nav::FAILURE;
      return;
    }
    const auto t1 = std::chrono::steady_clock::now(); // the first use builds the graph: not the query's time
    run.status = p->findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &m_nav->filter(), polys, npolys, kMaxPolys);
    run.us = microsSince(t1);
    run.hier = p->lastStats();
    run.nodes = run.hier.abstractExpanded + run.hier.refineNodes;
  } else {
    run.status = m_nav->query().findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &m_nav->filter(), polys, npolys,
                                         kMaxPolys);
    run.us = microsSince(t0);
    run.nodes = m_nav->query().searchView().nodeCount;
  }
  run.corridor.assign(polys, polys + *npolys);
  run.complete = nav::statusSucceeded(run.status) && !(run.status & nav::PARTIAL_RESULT) && *npolys > 0 &&
                 polys[*npolys - 1] == m_endRef;
  if (*npolys == 0) return;
  float endPos[3] = {m_end.x, m_end.y, m_end.z};
  if (polys[*npolys - 1] != m_endRef) m_nav->query().closestPointOnPoly(polys[*npolys - 1], &m_end.x, endPos, nullptr);
  std::vector<float> pts(size_t(kMaxPolys) * 3);
  int n = 0;
  m_nav->query().findStraightPath(&m_start.x, endPos, polys, *npolys, pts.data(), nullptr, nullptr, &n, kMaxPolys);
  run.straight.assign(pts.begin(), pts.begin() + n * 3);
  run.len = polylineLength(pts.data(), n);
}

bool PathTesterModel::findCorridor(float* endPos) {
  m_npath = 0;
  m_runs[0] = m_runs[1] = PathRun();
  m_abstractPts.clear();
  if (!m_nav || !m_startRef || !m_endRef) return false;
  const int algo = m_offersAlgo ? m_algo : PATH_DETOUR;
  PathRun& run = m_runs[algo == PATH_HIERARCHICAL ? 1 : 0];
  runAlgorithm(algo, m_path.data(), &m_npath, run);
  m_status = run.status;
  m_nodesUsed = run.nodes;
  if (m_offersAlgo && m_sideBySide) {
    const int other = algo == PATH_HIERARCHICAL ? PATH_DETOUR : PATH_HIERARCHICAL;
    m_otherPath.resize(size_t(kMaxPolys));
    int n = 0;
    runAlgorithm(other, m_otherPath.data(), &n, m_runs[other == PATH_HIERARCHICAL ? 1 : 0]);
  }
  nav::HierPlanner* p = m_offersAlgo && m_showGraph && m_runs[1].ran ? planner() : nullptr;
  bool finished = false, reached = false;
  int last = -1;
  if (p && p->searchAbstract(m_startRef, m_endRef, &m_start.x, &m_end.x, INT_MAX, &finished, &reached, &last) > 0 &&
      reached) {
    std::vector<int> ids;
    p->abstractPath(&ids);
    for (int id : ids) {
      const float* q = id == p->abstractStartId() ? &m_start.x : id == p->abstractGoalId() ? &m_end.x : p->entrance(id).pos;
      m_abstractPts.insert(m_abstractPts.end(), q, q + 3);
    }
  }
  if (m_npath == 0) return false;
  corridorEnd(endPos);
  return true;
}

void PathTesterModel::dumpAlgorithm(nlohmann::json& out) const {
  out["algorithm"] = pathAlgoKey(m_algo);
  out["sideBySide"] = m_sideBySide;
  out["graph"] = m_showGraph;
  // Each algorithm's figures, times included, only where they are shown: other dumps stay
  // comparable run to run.
  if (!m_sideBySide && m_algo != PATH_HIERARCHICAL) return;
  nlohmann::json runs = nlohmann::json::object();
  for (int a = 0; a < PATH_ALGO_COUNT; ++a) {
    const PathRun& r = pathRun(a);
    if (!r.ran) continue;
    nlohmann::json j = {{"status", r.status},       {"complete", r.complete}, {"polys", int(r.corridor.size())},
                        {"corners", int(r.straight.size() / 3)}, {"len", r.len}, {"nodes", r.nodes},
                        {"us", r.us},               {"corridor", r.corridor}};
    if (a == PATH_HIERARCHICAL)
      j["hier"] = {{"abstractExpanded", r.hier.abstractExpanded}, {"abstractPathNodes", r.hier.abstractPathNodes},
                   {"corridorClusters", r.hier.corridorClusters}, {"refineNodes", r.hier.refineNodes},
                   {"connected", r.hier.connected},               {"widened", r.hier.widened},
                   {"fallback", r.hier.fallback}};
    runs[pathAlgoKey(a)] = j;
  }
  out["runs"] = runs;
  if (m_showGraph) out["abstractPath"] = m_abstractPts;
}

void PathTesterModel::saveAlgorithmOptions(nlohmann::json& out) const {
  out["algorithm"] = pathAlgoKey(m_algo);
  out["sideBySide"] = m_sideBySide;
  out["graph"] = m_showGraph;
}

bool PathTesterModel::parseAlgorithmOptions(const base::JsonIn& in, AlgoOptions* o) const {
  *o = AlgoOptions(); // keys a scenario lacks: Detour's A*, nothing beside it
  if (!in.opt("sideBySide", o->sideBySide) || !in.opt("graph", o->graph)) return false;
  if (!in.has("algorithm")) return true;
  const nlohmann::json& a = in["algorithm"].json();
  o->algo = -1;
  for (int i = 0; i < PATH_ALGO_COUNT && a.is_string(); ++i)
    if (a.get<std::string>() == pathAlgoKey(i)) o->algo = i;
  if (o->algo < 0) return in["algorithm"].fail("expected one of detour, hierarchical; got " + a.dump());
  return true;
}

void PathTesterModel::applyAlgorithmOptions(const AlgoOptions& o) {
  m_algo = o.algo;
  m_sideBySide = o.sideBySide;
  m_showGraph = o.graph;
}

std::string PathTesterModel::captionDetail() const {
  return m_offersAlgo && m_algo == PATH_HIERARCHICAL ? " (hierarchical)" : "";
}

void PathTesterModel::corridorEnd(float* endPos) const {
  endPos[0] = m_end.x;
  endPos[1] = m_end.y;
  endPos[2] = m_end.z;
  if (m_path[size_t(m_npath - 1)] != m_endRef)
    m_nav->query().closestPointOnPoly(m_path[size_t(m_npath - 1)], &m_end.x, endPos, nullptr);
}

void PathTesterModel::dumpPath(nlohmann::json& out) const {
  out["corridor"] = std::vector<nav::PolyRef>(m_path.begin(), m_path.begin() + m_npath);
  out["straight"] = std::vector<float>(m_straight.begin(), m_straight.begin() + m_nstraight * 3);
}

} // namespace navbench
