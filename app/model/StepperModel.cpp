#include "app/model/StepperModel.h"

#include "app/NavState.h"
#include "nav/NodePool.h"
#include "nav/ShortestPath.h"
#include "nav/base/Json.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>

namespace navbench {

namespace {
const char* const kAlgoKeys[StepperModel::ALGO_COUNT] = {"findPath", "closestPoint", "sliced", "anyAngle", "exact",
                                                               "hierarchical"};
glm::vec3 v3(const float* p) { return glm::vec3(p[0], p[1], p[2]); }
} // namespace

const char* StepperModel::resultKey(uint8_t r) {
  switch (r) {
  case nav::RELAX_ACCEPT_NEW: return "acceptNew";
  case nav::RELAX_ACCEPT_BETTER: return "acceptBetter";
  case nav::RELAX_REJECT_WORSE: return "rejectWorse";
  case nav::RELAX_REJECT_FILTERED: return "rejectFiltered";
  case nav::RELAX_REJECT_OUT_OF_NODES: return "rejectOutOfNodes";
  case nav::RELAX_REJECT_PARENT: return "rejectParent";
  case nav::RELAX_REJECT_SAME_PARENT: return "rejectSameParent";
  case nav::RELAX_REJECT_NO_PORTAL: return "rejectNoPortal";
  default: return "unknown";
  }
}

/// Records the last expansion's relaxations and stops findPath after stopAt expansions.
struct StepperModel::Observer : nav::SearchObserver {
  int stopAt = INT_MAX;
  int expansions = 0;
  std::vector<nav::RelaxEvent> events;
  bool beforeExpand(int done) override { return done < stopAt; }
  void onExpand(const nav::Node& /*node*/) override {
    ++expansions;
    events.clear();
  }
  void onRelax(const nav::RelaxEvent& e) override { events.push_back(e); }
  void restart(int stop) {
    stopAt = stop;
    expansions = 0;
    events.clear();
  }
};

StepperModel::StepperModel() : m_observer(std::make_unique<Observer>()) { m_observer->events.reserve(64); }
StepperModel::~StepperModel() = default;

const char* StepperModel::algoKey(int algo) { return algo >= 0 && algo < ALGO_COUNT ? kAlgoKeys[algo] : "?"; }

int StepperModel::options() const {
  if (m_algo == ALGO_CLOSEST) return nav::FINDPATH_CLOSEST_POINT;
  if (m_algo == ALGO_ANY_ANGLE) return nav::FINDPATH_ANY_ANGLE;
  return 0;
}

void StepperModel::setShowShortest(bool on) { setAlgorithm(on ? ALGO_EXACT : ALGO_FINDPATH); }

void StepperModel::setAlgorithm(int algo) {
  m_algo = algo;
  m_selected = -1; // an index into the other algorithm's nodes
  recomputeAll();
}

bool StepperModel::prepare() {
  NavState* nav = m_nav;
  if (!nav || !nav->loaded()) return false;
  const int budget = nav->maxNodes();
  if (!m_query) m_query = std::make_unique<nav::NavMeshQuery>();
  if (m_boundMesh != &nav->mesh() || m_boundNodes != budget || !m_query->getAttachedNavMesh()) {
    m_boundMesh = nullptr;
    m_exact.reset();
    if (nav::statusFailed(m_query->init(&nav->mesh(), budget))) return false;
    m_boundMesh = &nav->mesh();
    m_boundNodes = budget;
  }
  if (m_algo == ALGO_EXACT && !m_exact) {
    m_exact = std::make_unique<nav::ShortestPath>();
    if (nav::statusFailed(m_exact->init(&nav->mesh(), std::max(16, budget)))) {
      m_exact.reset();
      return false;
    }
  }
  return true;
}

void StepperModel::clearState() {
  m_nodes.clear();
  m_open.clear();
  m_relax.clear();
  m_expanded = m_best = -1;
  m_finished = false;
  m_corridor.clear();
  m_straight.clear();
  m_nstraight = 0;
  m_exactLen = 0;
  m_exactNodes.clear();
  m_exactOpen = 0;
  m_exactPrevCount = -1;
  m_exactExpanded = -1;
  m_searchStatus = 0;
}

void StepperModel::recompute() {
  clearState();
  m_total = 0;
  m_live = false;
  NavState* nav = m_nav;
  if (!nav || !nav->loaded() || !m_startRef || !m_endRef || !prepare()) {
    m_index = 0;
    m_selected = -1;
    return;
  }
  // A new query starts at expansion 0; a new filter, budget or algorithm keeps the index.
  if (m_startRef != m_lastStartRef || m_endRef != m_lastEndRef || m_start != m_lastStart || m_end != m_lastEnd) {
    m_index = 0;
    m_selected = -1;
    m_lastStartRef = m_startRef;
    m_lastEndRef = m_endRef;
    m_lastStart = m_start;
    m_lastEnd = m_end;
  }
  countTotal();
  goTo(m_index);
}

void StepperModel::countTotal() {
  NavState* nav = m_nav;
  int done = 0;
  m_total = 0;
  if (m_algo == ALGO_HIERARCHICAL) {
    countHier();
    return;
  }
  if (m_algo == ALGO_EXACT) {
    nav::Status st = m_exact->initSlicedFindPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter());
    if (nav::statusInProgress(st)) m_exact->updateSlicedFindPath(INT_MAX, &done);
  } else if (isSliced()) {
    nav::Status st = m_query->initSlicedFindPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter(), options());
    if (nav::statusInProgress(st)) m_query->updateSlicedFindPath(INT_MAX, &done);
  } else {
    std::vector<nav::PolyRef> path(static_cast<size_t>(kMaxPolys));
    int n = 0;
    m_observer->restart(INT_MAX);
    m_query->setSearchObserver(m_observer.get());
    m_query->findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter(), path.data(), &n, kMaxPolys, options());
    m_query->setSearchObserver(nullptr);
    done = m_observer->expansions;
  }
  m_total = done;
  m_live = false;
}

nav::Status StepperModel::runFresh(int k) {
  NavState* nav = m_nav;
  m_observer->restart(k);
  m_live = false;
  if (m_algo == ALGO_EXACT) {
    const nav::Status st = m_exact->initSlicedFindPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter());
    m_live = nav::statusInProgress(st);
    return k > 0 && m_live ? continueExact(0, k) : st;
  }
  m_query->setSearchObserver(m_observer.get());
  nav::Status st;
  if (isSliced()) {
    st = m_query->initSlicedFindPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter(), options());
    if (k > 0 && nav::statusInProgress(st)) st = m_query->updateSlicedFindPath(k, nullptr);
    m_live = nav::statusInProgress(st);
  } else {
    std::vector<nav::PolyRef> path(static_cast<size_t>(kMaxPolys));
    int n = 0;
    st = m_query->findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &nav->filter(), path.data(), &n, kMaxPolys,
                           options());
    if (!nav::statusInProgress(st)) m_corridor.assign(path.begin(), path.begin() + n);
  }
  m_query->setSearchObserver(nullptr);
  return st;
}

nav::Status StepperModel::continueExact(int from, int k) {
  // To k-1, then the k-th expansion alone: the nodes made after the count noted in between are the
  // ones the last expansion created.
  nav::Status st = nav::IN_PROGRESS;
  if (k - 1 > from) st = m_exact->updateSlicedFindPath(k - 1 - from, nullptr);
  if (nav::statusInProgress(st)) {
    m_exactPrevCount = m_exact->nodeCount();
    st = m_exact->updateSlicedFindPath(1, nullptr);
  }
  m_live = nav::statusInProgress(st);
  return st;
}

void StepperModel::goTo(int k) {
  k = std::max(0, std::min(k, m_total));
  if (!m_nav || !m_startRef || !m_endRef || !prepare()) return;
  if (m_algo == ALGO_EXACT && !m_exact) return;
  if (m_algo == ALGO_HIERARCHICAL) {
    goToHier(k);
    return;
  }
  m_active = m_query.get();
  clearState();
  nav::Status st;
  if (m_live && k > m_index) { // continue the live sliced search
    int done = 0;
    m_observer->restart(INT_MAX);
    if (m_algo == ALGO_EXACT) {
      st = continueExact(m_index, k);
    } else {
      m_query->setSearchObserver(m_observer.get());
      st = m_query->updateSlicedFindPath(k - m_index, &done);
      m_query->setSearchObserver(nullptr);
    }
    m_live = nav::statusInProgress(st);
  } else {
    st = runFresh(k);
  }
  m_index = k;
  capture(st);
}

void StepperModel::capture(nav::Status st) {
  m_searchStatus = st;
  m_status = st;
  const bool done = !nav::statusInProgress(st);
  std::vector<nav::PolyRef> path(static_cast<size_t>(kMaxPolys));
  int n = 0;
  if (m_algo == ALGO_EXACT) {
    nav::ShortestPathNodeView v;
    for (int i = 0; i < m_exact->nodeCount(); ++i) {
      if (!m_exact->getNode(i, &v)) continue;
      ExactNode e{};
      std::copy(v.left, v.left + 3, e.left);
      std::copy(v.right, v.right + 3, e.right);
      std::copy(v.root, v.root + 3, e.root);
      e.f = v.f;
      e.g = v.g;
      e.poly = v.poly;
      e.parent = v.parent;
      m_exactNodes.push_back(e);
    }
    m_exactOpen = m_exact->openCount();
    m_nodesUsed = m_exact->nodeCount();
    // The last expansion: the nodes it created (index >= the count before it) share its node as parent.
    if (m_exactPrevCount >= 0 && m_exactPrevCount < int(m_exactNodes.size()))
      m_exactExpanded = m_exactNodes[size_t(m_exactPrevCount)].parent;
    if (done && !nav::statusFailed(st)) {
      m_straight.resize(size_t(kMaxPolys) * 3);
      const nav::Status fs = m_exact->finalizeSlicedFindPath(m_straight.data(), nullptr, nullptr, &m_nstraight, kMaxPolys,
                                                             path.data(), &n, kMaxPolys, &m_exactLen);
      m_corridor.assign(path.begin(), path.begin() + n);
      m_status = fs | (st & nav::STATUS_DETAIL_MASK);
      m_finished = true;
      m_live = false;
    }
    return;
  }

  if (m_startRef != m_endRef) {
    const nav::SearchView v = m_active->searchView();
    const nav::Node* base = v.nodeCount > 0 ? &v.pool->nodeAt(0) : nullptr;
    m_nodes.resize(size_t(v.nodeCount));
    for (int i = 0; i < v.nodeCount; ++i) {
      const nav::Node& node = v.pool->nodeAt(i);
      NodeInfo& ni = m_nodes[size_t(i)];
      ni.ref = node.id;
      ni.state = node.state;
      ni.flags = node.flags;
      ni.parent = int(node.parent) - 1;
      std::copy(node.pos, node.pos + 3, ni.pos);
      ni.g = node.cost;
      ni.total = node.total;
      ni.h = node.total - node.cost;
    }
    for (int i = 0; i < v.openCount; ++i) m_open.push_back(int(v.open[i].node));
    // Sorted by total; ties keep heap order, so the next node to expand comes first.
    std::vector<int> heapPos(m_nodes.size(), 0);
    for (int i = 0; i < v.openCount; ++i) heapPos[size_t(v.open[i].node)] = i;
    std::stable_sort(m_open.begin(), m_open.end(), [&](int a, int b) {
      if (m_nodes[size_t(a)].total != m_nodes[size_t(b)].total) return m_nodes[size_t(a)].total < m_nodes[size_t(b)].total;
      return heapPos[size_t(a)] < heapPos[size_t(b)];
    });
    if (v.openCount > 0) { // the heap's top first, whatever the float ties
      auto it = std::find(m_open.begin(), m_open.end(), int(v.open[0].node));
      std::rotate(m_open.begin(), it, it + 1);
    }
    m_expanded = (v.lastExpanded && base) ? int(v.lastExpanded - base) : -1;
    m_best = (v.bestNode && base) ? int(v.bestNode - base) : -1;
    if (m_index > 0) {
      for (const nav::RelaxEvent& ev : m_observer->events) {
        Relax r;
        r.ev = ev;
        r.node = (ev.node && base) ? int(ev.node - base) : -1;
        if (r.node >= 0) std::copy(ev.node->pos, ev.node->pos + 3, r.pos);
        else m_active->getEdgeMidPoint(ev.parent, ev.neighbour, r.pos);
        r.ev.node = nullptr; // not kept: the pool changes with the next search
        m_relax.push_back(r);
      }
    }
    m_nodesUsed = v.nodeCount;
  }
  if (!done) return;
  m_finished = true;
  if (isSliced() && !nav::statusFailed(st)) {
    const nav::Status fs = m_active->finalizeSlicedFindPath(path.data(), &n, kMaxPolys);
    m_corridor.assign(path.begin(), path.begin() + n);
    m_status = fs | (st & nav::STATUS_DETAIL_MASK);
    m_live = false;
  }
  if (m_corridor.empty()) return;
  float endPos[3] = {m_end.x, m_end.y, m_end.z};
  if (m_corridor.back() != m_endRef) m_active->closestPointOnPoly(m_corridor.back(), &m_end.x, endPos, nullptr);
  m_straight.resize(size_t(kMaxPolys) * 3);
  m_active->findStraightPath(&m_start.x, endPos, m_corridor.data(), int(m_corridor.size()), m_straight.data(), nullptr,
                            nullptr, &m_nstraight, kMaxPolys);
}

void StepperModel::countHier() {
  // The planner's own answer says which refinement pass answered; the abstract search's pops and
  // that pass's expansions, counted by running them once, make the total.
  m_hierAbstract = m_hierPass = 0;
  m_hierReached = false;
  nav::HierPlanner* p = planner();
  if (!p) return;
  std::vector<nav::PolyRef> path(static_cast<size_t>(kMaxPolys));
  int n = 0;
  p->findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &m_nav->filter(), path.data(), &n, kMaxPolys);
  m_hierPass = p->lastRefinePass();
  bool finished = false;
  int last = -1;
  m_hierAbstract = std::max(0, p->searchAbstract(m_startRef, m_endRef, &m_start.x, &m_end.x, INT_MAX, &finished,
                                                 &m_hierReached, &last));
  m_total = m_hierAbstract;
  const nav::QueryFilter* f = m_hierReached ? p->refineFilter(&m_nav->filter(), m_hierPass) : nullptr;
  if (!f) return;
  m_observer->restart(INT_MAX);
  p->query().setSearchObserver(m_observer.get());
  p->query().findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, f, path.data(), &n, kMaxPolys);
  p->query().setSearchObserver(nullptr);
  m_total += m_observer->expansions;
}

void StepperModel::goToHier(int k) {
  clearState();
  m_hierNodes.clear();
  m_hierPath.clear();
  m_hierPathPts.clear();
  m_hierLast = -1;
  m_index = k;
  nav::HierPlanner* p = planner();
  if (!p) return;
  bool finished = false, reached = false;
  const int pops = std::min(k, m_hierAbstract);
  p->searchAbstract(m_startRef, m_endRef, &m_start.x, &m_end.x, pops, &finished, &reached, &m_hierLast);
  p->abstractNodes(&m_hierNodes);
  m_nodesUsed = int(m_hierNodes.size()); // the refinement's capture() counts its own nodes
  if (reached) {
    p->abstractPath(&m_hierPath);
    for (int id : m_hierPath) {
      const float* q = id == p->abstractStartId() ? &m_start.x : id == p->abstractGoalId() ? &m_end.x : p->entrance(id).pos;
      m_hierPathPts.insert(m_hierPathPts.end(), q, q + 3);
    }
  }
  nav::Status st = nav::IN_PROGRESS;
  if (k > m_hierAbstract) { // the refinement, stopped after k - abstractSteps() expansions
    const nav::QueryFilter* f = p->refineFilter(&m_nav->filter(), m_hierPass);
    if (!f) return;
    std::vector<nav::PolyRef> path(static_cast<size_t>(kMaxPolys));
    int n = 0;
    m_observer->restart(k - m_hierAbstract);
    p->query().setSearchObserver(m_observer.get());
    st = p->query().findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, f, path.data(), &n, kMaxPolys);
    p->query().setSearchObserver(nullptr);
    m_active = &p->query();
    capture(nav::IN_PROGRESS); // the nodes and the relaxations; the end is the planner's answer below
  }
  m_searchStatus = m_status = st;
  if (k < m_total) {
    m_searchStatus = m_status = nav::IN_PROGRESS;
    return;
  }
  std::vector<nav::PolyRef> path(static_cast<size_t>(kMaxPolys));
  int n = 0;
  m_searchStatus = m_status =
      p->findPath(m_startRef, m_endRef, &m_start.x, &m_end.x, &m_nav->filter(), path.data(), &n, kMaxPolys);
  m_corridor.assign(path.begin(), path.begin() + n);
  m_finished = true;
  if (m_corridor.empty()) return;
  float endPos[3] = {m_end.x, m_end.y, m_end.z};
  if (m_corridor.back() != m_endRef) m_nav->query().closestPointOnPoly(m_corridor.back(), &m_end.x, endPos, nullptr);
  m_straight.resize(size_t(kMaxPolys) * 3);
  m_nav->query().findStraightPath(&m_start.x, endPos, m_corridor.data(), int(m_corridor.size()), m_straight.data(),
                                  nullptr, nullptr, &m_nstraight, kMaxPolys);
}

int StepperModel::nodeNear(const glm::vec3& p) const {
  int best = -1;
  float bestD = 0.8f * 0.8f;
  if (!isAStar()) { // the exact search: the interval whose midpoint is nearest
    for (size_t i = 0; i < m_exactNodes.size(); ++i) {
      const ExactNode& e = m_exactNodes[i];
      const glm::vec3 mid = (v3(e.left) + v3(e.right)) * 0.5f;
      const float d = (mid.x - p.x) * (mid.x - p.x) + (mid.z - p.z) * (mid.z - p.z);
      if (d < bestD && std::fabs(mid.y - p.y) < 2.0f) {
        bestD = d;
        best = int(i);
      }
    }
    return best;
  }
  for (size_t i = 0; i < m_nodes.size(); ++i) {
    const NodeInfo& n = m_nodes[i];
    if (!(n.flags & (nav::NODE_OPEN | nav::NODE_CLOSED))) continue;
    const float dx = n.pos[0] - p.x, dz = n.pos[2] - p.z;
    const float d = dx * dx + dz * dz;
    if (d < bestD && std::fabs(n.pos[1] - p.y) < 2.0f) {
      bestD = d;
      best = int(i);
    }
  }
  return best;
}

std::string StepperModel::describe(const Relax& r) const {
  char buf[160];
  const size_t n = sizeof buf;
  const nav::RelaxEvent& e = r.ev;
  const char* cut = e.shortcut ? " (raycast shortcut)" : "";
  switch (e.result) {
  case nav::RELAX_ACCEPT_NEW:
    std::snprintf(buf, n, "poly %u accepted: new, g %.2f + h %.2f = %.2f%s", unsigned(e.neighbour), double(e.cost),
                  double(e.heuristic), double(e.total), cut);
    break;
  case nav::RELAX_ACCEPT_BETTER:
    std::snprintf(buf, n, "poly %u accepted: better total %.2f < %.2f%s%s", unsigned(e.neighbour), double(e.total),
                  double(e.previousTotal), (e.previousFlags & nav::NODE_CLOSED) ? ", re-opened" : "", cut);
    break;
  case nav::RELAX_REJECT_WORSE:
    std::snprintf(buf, n, "poly %u rejected: worse total %.2f >= %.2f%s", unsigned(e.neighbour), double(e.total),
                  double(e.previousTotal), cut);
    break;
  case nav::RELAX_REJECT_FILTERED: {
    uint16_t flags = 0;
    if (m_nav) m_nav->mesh().getPolyFlags(e.neighbour, &flags);
    std::snprintf(buf, n, "poly %u rejected: filtered out (flags 0x%x)", unsigned(e.neighbour), unsigned(flags));
    break;
  }
  case nav::RELAX_REJECT_OUT_OF_NODES:
    std::snprintf(buf, n, "poly %u rejected: out of nodes (budget %d)", unsigned(e.neighbour), m_boundNodes);
    break;
  case nav::RELAX_REJECT_PARENT:
    std::snprintf(buf, n, "poly %u skipped: it is the parent", unsigned(e.neighbour));
    break;
  case nav::RELAX_REJECT_SAME_PARENT:
    std::snprintf(buf, n, "poly %u skipped: already reached from the same parent (sliced rule)", unsigned(e.neighbour));
    break;
  case nav::RELAX_REJECT_NO_PORTAL:
    std::snprintf(buf, n, "poly %u rejected: no portal between the polys", unsigned(e.neighbour));
    break;
  default: std::snprintf(buf, n, "poly %u: ?", unsigned(e.neighbour)); break;
  }
  return buf;
}

void StepperModel::dumpResult(nlohmann::json& out) const {
  out["caption"] = caption(); // the screenshot caption strip's second line
  out["algorithm"] = algoKey(m_algo);
  out["index"] = m_index;
  out["total"] = m_total;
  out["finished"] = m_finished;
  out["searchStatus"] = m_searchStatus;
  out["corridor"] = m_corridor;
  out["straight"] = std::vector<float>(m_straight.begin(), m_straight.begin() + m_nstraight * 3);
  if (m_algo == ALGO_HIERARCHICAL) {
    int open = 0;
    for (const auto& n : m_hierNodes) open += n.open ? 1 : 0;
    out["abstract"] = {{"phase", inAbstractPhase() ? "abstract" : "refine"},
                       {"steps", m_hierAbstract},
                       {"refinePass", m_hierPass},
                       {"reached", m_hierReached},
                       {"nodes", int(m_hierNodes.size())},
                       {"open", open},
                       {"lastPopped", m_hierLast},
                       {"path", m_hierPath}};
  }
  if (m_algo == ALGO_EXACT) {
    out["exactNodes"] = int(m_exactNodes.size());
    out["exactOpen"] = m_exactOpen;
    out["exactLen"] = m_exactLen;
    out["exactNew"] = m_exactPrevCount >= 0 ? int(m_exactNodes.size()) - m_exactPrevCount : 0;
    out["exactExpanded"] = m_exactExpanded;
    out["selected"] = m_selected >= 0 && m_selected < int(m_exactNodes.size()) ? m_selected : -1;
    return;
  }
  nlohmann::json open = nlohmann::json::array(), closed = nlohmann::json::array(), relax = nlohmann::json::array();
  for (int i : m_open) {
    const NodeInfo& n = m_nodes[size_t(i)];
    open.push_back({{"ref", n.ref}, {"g", n.g}, {"h", n.h}, {"total", n.total},
                    {"parent", n.parent >= 0 ? m_nodes[size_t(n.parent)].ref : 0u}});
  }
  std::vector<nav::PolyRef> closedRefs;
  for (const NodeInfo& n : m_nodes)
    if (n.flags & nav::NODE_CLOSED) closedRefs.push_back(n.ref);
  std::sort(closedRefs.begin(), closedRefs.end());
  for (const Relax& r : m_relax) {
    const std::string line = describe(r);
    relax.push_back({{"neighbour", r.ev.neighbour}, {"result", resultKey(r.ev.result)}, {"cost", r.ev.cost},
                     {"heuristic", r.ev.heuristic}, {"total", r.ev.total}, {"previousTotal", r.ev.previousTotal},
                     {"shortcut", r.ev.shortcut}, {"text", line}});
  }
  out["open"] = open;
  out["closed"] = closedRefs;
  out["relax"] = relax;
  out["nodes"] = int(m_nodes.size());
  out["expanded"] = m_expanded >= 0 ? m_nodes[size_t(m_expanded)].ref : 0u;
  out["best"] = m_best >= 0 ? m_nodes[size_t(m_best)].ref : 0u;
  out["selected"] = m_selected >= 0 && m_selected < int(m_nodes.size()) ? m_nodes[size_t(m_selected)].ref : 0u;
}

void StepperModel::saveOptions(nlohmann::json& out) const {
  out["algorithm"] = algoKey(m_algo);
  out["index"] = m_index;
  out["stepN"] = m_stepN;
}

bool StepperModel::loadOptions(const base::JsonIn& in) {
  int algo = m_algo, index = 0, stepN = m_stepN;
  if (!in.object({"algorithm", "index", "stepN"}) || !in.opt("index", index, 0, 100000000) ||
      !in.opt("stepN", stepN, 1, 100000000))
    return false;
  if (in.has("algorithm")) {
    const nlohmann::json& a = in["algorithm"].json();
    algo = -1;
    for (int i = 0; i < ALGO_COUNT && a.is_string(); ++i)
      if (a.get<std::string>() == kAlgoKeys[i]) algo = i;
    if (algo < 0)
      return in["algorithm"].fail("expected one of findPath, closestPoint, sliced, anyAngle, exact, hierarchical; got " + a.dump());
  }
  if (algo != m_algo) m_selected = -1; // an index into the other algorithm's nodes
  m_algo = algo;          // the recompute that follows counts this algorithm's expansions
  m_stepN = stepN;
  m_restoreIndex = index; // then afterScenarioLoad() replays to the saved step
  return true;
}

void StepperModel::afterScenarioLoad() {
  goTo(m_restoreIndex);
  m_restoreIndex = 0;
}

std::string StepperModel::captionDetail() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, " (%s, step %d/%d)", algoKey(m_algo), m_index, m_total);
  return buf;
}

float StepperModel::resultLength() const {
  if (!m_finished) return -1.0f;
  return m_algo == ALGO_EXACT ? m_exactLen : polylineLength(m_straight.data(), m_nstraight);
}

} // namespace navbench
