#include "app/tools/ToolStepper.h"

#include "app/tools/TesterModes.h"

#include "app/NavDraw.h"
#include "app/NavState.h"
#include "nav/NodePool.h"
#include "nav/ShortestPath.h"
#include "render/DebugDraw.h"

#include <SDL.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>

namespace navbench {

namespace {

const char* const kAlgoKeys[ToolStepper::ALGO_COUNT] = {"findPath", "closestPoint", "sliced", "anyAngle", "exact"};
const char* const kAlgoLabels[ToolStepper::ALGO_COUNT] = {
    "findPath (Detour A*)", "findPath, closest-point cost", "Sliced findPath (Detour)", "Sliced, any-angle",
    "Exact search (shortest path)"};

const char* resultKey(uint8_t r) {
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

uint32_t resultColor(uint8_t r, uint8_t a = 255) {
  switch (r) {
  case nav::RELAX_ACCEPT_NEW: return render::rgba(40, 230, 60, a);
  case nav::RELAX_ACCEPT_BETTER: return render::rgba(170, 255, 110, a);
  case nav::RELAX_REJECT_WORSE: return render::rgba(255, 150, 0, a);
  case nav::RELAX_REJECT_FILTERED: return render::rgba(160, 160, 160, a);
  case nav::RELAX_REJECT_OUT_OF_NODES: return render::rgba(255, 30, 30, a);
  case nav::RELAX_REJECT_NO_PORTAL: return render::rgba(200, 80, 255, a);
  default: return render::rgba(90, 90, 90, a); // the parent, the same-parent rule
  }
}

ImVec4 toImVec4(uint32_t c) {
  // render::rgba packs r in the low byte.
  return ImVec4(float(c & 0xff) / 255.0f, float((c >> 8) & 0xff) / 255.0f, float((c >> 16) & 0xff) / 255.0f, 1.0f);
}

glm::vec3 v3(const float* p) { return glm::vec3(p[0], p[1], p[2]); }

/// A line a -> b with a small arrow head at b (drawn in the xz plane).
void arrow(render::DebugDraw& dd, const glm::vec3& a, const glm::vec3& b, uint32_t col, float width) {
  dd.line(a, b, col, width);
  glm::vec3 d = b - a;
  const float len = std::sqrt(d.x * d.x + d.z * d.z);
  if (len < 1e-3f) return;
  d /= len;
  const glm::vec3 side(-d.z, 0.0f, d.x);
  const float head = std::min(0.35f, len * 0.35f);
  const glm::vec3 base = b - d * head;
  dd.line(b, base + side * (head * 0.5f), col, width);
  dd.line(b, base - side * (head * 0.5f), col, width);
}

const glm::vec3 kUp(0.0f, 0.3f, 0.0f);

} // namespace

/// Records the last expansion's relaxations and stops findPath after stopAt expansions.
struct ToolStepper::Observer : nav::SearchObserver {
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

ToolStepper::ToolStepper() : m_observer(std::make_unique<Observer>()) { m_observer->events.reserve(64); }
ToolStepper::~ToolStepper() = default;

const char* ToolStepper::algoKey(int algo) { return algo >= 0 && algo < ALGO_COUNT ? kAlgoKeys[algo] : "?"; }

int ToolStepper::options() const {
  if (m_algo == ALGO_CLOSEST) return nav::FINDPATH_CLOSEST_POINT;
  if (m_algo == ALGO_ANY_ANGLE) return nav::FINDPATH_ANY_ANGLE;
  return 0;
}

void ToolStepper::setShowShortest(bool on) {
  m_algo = on ? ALGO_EXACT : ALGO_FINDPATH;
  m_selected = -1;
  recomputeAll();
}

bool ToolStepper::prepare() {
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
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

void ToolStepper::clearState() {
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

void ToolStepper::recompute() {
  clearState();
  m_total = 0;
  m_live = false;
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
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

void ToolStepper::countTotal() {
  NavState* nav = m_ctx->nav;
  int done = 0;
  m_total = 0;
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

nav::Status ToolStepper::runFresh(int k) {
  NavState* nav = m_ctx->nav;
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

nav::Status ToolStepper::continueExact(int from, int k) {
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

void ToolStepper::goTo(int k) {
  k = std::max(0, std::min(k, m_total));
  if (!m_ctx || !m_ctx->nav || !m_startRef || !m_endRef || !prepare()) return;
  if (m_algo == ALGO_EXACT && !m_exact) return;
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

void ToolStepper::capture(nav::Status st) {
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
    const nav::SearchView v = m_query->searchView();
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
        else m_query->getEdgeMidPoint(ev.parent, ev.neighbour, r.pos);
        r.ev.node = nullptr; // not kept: the pool changes with the next search
        m_relax.push_back(r);
      }
    }
    m_nodesUsed = v.nodeCount;
  }
  if (!done) return;
  m_finished = true;
  if (isSliced() && !nav::statusFailed(st)) {
    const nav::Status fs = m_query->finalizeSlicedFindPath(path.data(), &n, kMaxPolys);
    m_corridor.assign(path.begin(), path.begin() + n);
    m_status = fs | (st & nav::STATUS_DETAIL_MASK);
    m_live = false;
  }
  if (m_corridor.empty()) return;
  float endPos[3] = {m_end.x, m_end.y, m_end.z};
  if (m_corridor.back() != m_endRef) m_query->closestPointOnPoly(m_corridor.back(), &m_end.x, endPos, nullptr);
  m_straight.resize(size_t(kMaxPolys) * 3);
  m_query->findStraightPath(&m_start.x, endPos, m_corridor.data(), int(m_corridor.size()), m_straight.data(), nullptr,
                            nullptr, &m_nstraight, kMaxPolys);
}

int ToolStepper::hoveredNode() const {
  if (!m_ctx || !m_ctx->hoverHit || !m_ctx->hoverPos || !*m_ctx->hoverHit) return -1;
  const glm::vec3 p = *m_ctx->hoverPos;
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

void ToolStepper::drawResult(render::DebugDraw& dd) {
  NavState* nav = m_ctx ? m_ctx->nav : nullptr;
  if (!nav || !nav->loaded() || !m_startRef || !m_endRef) return;
  if (m_finished) {
    drawCorridor(dd, m_corridor.data(), int(m_corridor.size()));
    drawStraight(dd, m_straight.data(), nullptr, m_nstraight);
  }
  if (m_algo == ALGO_EXACT) { // intervals (cyan), roots (orange), parent links (yellow)
    for (size_t i = 0; i < m_exactNodes.size(); ++i) {
      const ExactNode& e = m_exactNodes[i];
      const glm::vec3 l = v3(e.left), r = v3(e.right), mid = (l + r) * 0.5f;
      const bool isNew = m_exactPrevCount >= 0 && int(i) >= m_exactPrevCount;
      dd.line(l + kUp, r + kUp, isNew ? render::rgba(40, 230, 60) : render::rgba(0, 200, 255), isNew ? 5.0f : 3.0f);
      dd.line(v3(e.root) + kUp, mid + kUp, render::rgba(255, 255, 255, 60), 1.0f);
      dd.point(v3(e.root) + kUp, render::rgba(255, 140, 0), 8.0f);
      if (e.parent >= 0 && e.parent < int(m_exactNodes.size())) {
        const ExactNode& p = m_exactNodes[size_t(e.parent)];
        arrow(dd, (v3(p.left) + v3(p.right)) * 0.5f + kUp, mid + kUp, render::rgba(255, 196, 0, 170), 1.5f);
      }
    }
    if (m_exactExpanded >= 0 && m_exactExpanded < int(m_exactNodes.size())) { // the node just expanded (red)
      const ExactNode& x = m_exactNodes[size_t(m_exactExpanded)];
      dd.line(v3(x.left) + kUp * 1.2f, v3(x.right) + kUp * 1.2f, render::rgba(255, 30, 30), 6.0f, false);
      dd.point((v3(x.left) + v3(x.right)) * 0.5f + kUp * 1.2f, render::rgba(255, 30, 30), 14.0f, false);
    }
    if (m_selected >= 0 && m_selected < int(m_exactNodes.size())) { // the table's pick and its parent chain
      int guard = 0;
      for (int i = m_selected; i >= 0 && i < int(m_exactNodes.size()) && guard++ < int(m_exactNodes.size());
           i = m_exactNodes[size_t(i)].parent) {
        const ExactNode& e = m_exactNodes[size_t(i)];
        dd.line(v3(e.left) + kUp * 1.3f, v3(e.right) + kUp * 1.3f, render::rgba(255, 255, 255), 4.0f, false);
        dd.line(v3(e.root) + kUp * 1.3f, (v3(e.left) + v3(e.right)) * 0.5f + kUp * 1.3f, render::rgba(255, 255, 255), 2.0f,
                false);
      }
    }
    const int hov = hoveredNode();
    if (hov >= 0)
      dd.circle((v3(m_exactNodes[size_t(hov)].left) + v3(m_exactNodes[size_t(hov)].right)) * 0.5f + kUp, 0.5f,
                render::rgba(255, 255, 0), 2.5f, false);
    if (m_finished && m_nstraight > 0) drawPartialMarker(dd, &m_straight[size_t(m_nstraight - 1) * 3]);
    return;
  }

  // The tree: every node with an arrow from its parent.
  for (const NodeInfo& n : m_nodes) {
    if (!(n.flags & (nav::NODE_OPEN | nav::NODE_CLOSED))) continue;
    const glm::vec3 p = v3(n.pos) + kUp;
    const bool closed = (n.flags & nav::NODE_CLOSED) != 0;
    dd.point(p, closed ? render::rgba(255, 196, 0) : render::rgba(0, 160, 255), closed ? 7.0f : 9.0f);
    if (n.parent >= 0 && n.parent < int(m_nodes.size())) {
      const bool detached = (n.flags & nav::NODE_PARENT_DETACHED) != 0;
      arrow(dd, v3(m_nodes[size_t(n.parent)].pos) + kUp, p,
            detached ? render::rgba(255, 80, 255, 200) : render::rgba(255, 230, 150, 170), 1.5f);
    }
  }
  // The last expansion: the node (red) and its neighbours coloured by result.
  if (m_expanded >= 0 && m_expanded < int(m_nodes.size())) {
    const glm::vec3 x = v3(m_nodes[size_t(m_expanded)].pos) + kUp;
    for (const Relax& r : m_relax) {
      const glm::vec3 q = v3(r.pos) + kUp * 1.3f;
      dd.line(x, q, resultColor(r.ev.result, 230), 3.0f, false);
      // Out of nodes shares the expanded node's red: drawn as a cross, not a dot, to tell them apart.
      if (r.ev.result == nav::RELAX_REJECT_OUT_OF_NODES) dd.cross(q, 0.6f, resultColor(r.ev.result), 4.0f, false);
      else dd.point(q, resultColor(r.ev.result), 13.0f, false);
    }
    dd.point(x, render::rgba(255, 30, 30), 16.0f, false);
    dd.circle(x, 0.45f, render::rgba(255, 30, 30), 2.5f, false);
  }
  // The next node to expand (the open list's top).
  if (!m_open.empty() && !m_finished)
    dd.circle(v3(m_nodes[size_t(m_open[0])].pos) + kUp, 0.45f, render::rgba(0, 200, 255), 2.5f, false);
  // The node nearest the goal when the search ended partial (or out of nodes).
  const bool partial = nav::statusDetail(m_status, nav::PARTIAL_RESULT) || nav::statusDetail(m_status, nav::OUT_OF_NODES);
  if (m_best >= 0 && m_best < int(m_nodes.size()) && (partial || !m_finished)) {
    const glm::vec3 b = v3(m_nodes[size_t(m_best)].pos) + kUp;
    dd.circle(b, 0.6f, partial ? render::rgba(255, 0, 200) : render::rgba(255, 0, 200, 110), 2.0f, false);
  }
  // The node picked in the table (with its parent chain) and the hovered one.
  if (m_selected >= 0 && m_selected < int(m_nodes.size())) {
    int guard = 0;
    for (int i = m_selected; i >= 0 && m_nodes[size_t(i)].parent >= 0 && guard++ < int(m_nodes.size());
         i = m_nodes[size_t(i)].parent)
      dd.line(v3(m_nodes[size_t(m_nodes[size_t(i)].parent)].pos) + kUp * 1.2f, v3(m_nodes[size_t(i)].pos) + kUp * 1.2f,
              render::rgba(255, 255, 255), 3.0f, false);
    const glm::vec3 s = v3(m_nodes[size_t(m_selected)].pos) + kUp;
    dd.circle(s, 0.55f, render::rgba(255, 255, 255), 3.0f, false);
    dd.cross(s, 0.35f, render::rgba(255, 255, 255), 2.0f, false);
  }
  const int hov = hoveredNode();
  if (hov >= 0) dd.circle(v3(m_nodes[size_t(hov)].pos) + kUp, 0.5f, render::rgba(255, 255, 0), 2.5f, false);
  if (m_finished) drawFinalChain(dd);
  if (m_finished && m_nstraight > 0) drawPartialMarker(dd, &m_straight[size_t(m_nstraight - 1) * 3]);
}

void ToolStepper::drawFinalChain(render::DebugDraw& dd) const {
  // The corridor's own branch of the tree: the search's last (best) node back to the start, over
  // every other arrow (the nodes were captured before a sliced finalize reversed the links).
  if (m_best < 0 || m_best >= int(m_nodes.size())) return;
  const uint32_t col = render::rgba(60, 255, 120);
  int guard = 0;
  for (int i = m_best; m_nodes[size_t(i)].parent >= 0 && guard++ < int(m_nodes.size()); i = m_nodes[size_t(i)].parent) {
    const NodeInfo& n = m_nodes[size_t(i)];
    dd.line(v3(m_nodes[size_t(n.parent)].pos) + kUp * 1.1f, v3(n.pos) + kUp * 1.1f, col, 4.0f, false);
    dd.point(v3(n.pos) + kUp * 1.1f, col, 8.0f, false);
  }
}

void ToolStepper::describe(const Relax& r, char* buf, size_t n) const {
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
    if (m_ctx && m_ctx->nav) m_ctx->nav->mesh().getPolyFlags(e.neighbour, &flags);
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
}

void ToolStepper::resultUi() {
  int algo = m_algo;
  if (ImGui::Combo("Algorithm", &algo, kAlgoLabels, ALGO_COUNT) && algo != m_algo) {
    m_algo = algo;
    m_selected = -1; // an index into the other algorithm's nodes
    recomputeAll();
  }
  // Keys (when no text field has the keyboard): Right / Left step, Page Down / Up step N,
  // Home / End first / last. Space steps too (the app's step key).
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantTextInput) {
    if (ImGui::IsKeyPressed(SDL_SCANCODE_RIGHT)) goTo(m_index + 1);
    if (ImGui::IsKeyPressed(SDL_SCANCODE_LEFT)) goTo(m_index - 1);
    if (ImGui::IsKeyPressed(SDL_SCANCODE_PAGEDOWN)) goTo(m_index + m_stepN);
    if (ImGui::IsKeyPressed(SDL_SCANCODE_PAGEUP)) goTo(m_index - m_stepN);
    if (ImGui::IsKeyPressed(SDL_SCANCODE_HOME, false)) goTo(0);
    if (ImGui::IsKeyPressed(SDL_SCANCODE_END, false)) goTo(m_total);
  }
  if (ImGui::Button("Step")) goTo(m_index + 1);
  ImGui::SameLine();
  if (ImGui::Button("Back")) goTo(m_index - 1);
  ImGui::SameLine();
  if (ImGui::Button("Run to end")) goTo(m_total);
  ImGui::SameLine();
  if (ImGui::Button("Restart")) goTo(0); // back to expansion 0 (the panel's Reset clears the points)
  if (ImGui::Button("Step N")) goTo(m_index + m_stepN);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("N", &m_stepN);
  m_stepN = std::max(1, m_stepN);
  int idx = m_index;
  if (ImGui::SliderInt("Expansion", &idx, 0, std::max(1, m_total)) && idx != m_index) goTo(idx);
  ImGui::Text("Expansion %d / %d%s", m_index, m_total, m_finished ? " (done)" : "");
  ImGui::SameLine();
  ImGui::TextDisabled("(keys)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Space / Right: step\nLeft: step back\nPage Down / Page Up: N steps\nHome / End: first / last");
  ImGui::SameLine();
  ImGui::TextDisabled("(colours)");
  if (ImGui::IsItemHovered()) {
    if (isAStar())
      ImGui::SetTooltip("Nodes at their edge midpoints: closed amber, open blue, next to expand ringed cyan\n"
                        "Arrows from each node's parent (magenta: a raycast-shortcut parent)\n"
                        "Just expanded: red dot and ring; its neighbours as relaxed:\n"
                        "  green accepted, orange worse total, grey filtered out, red cross out of nodes\n"
                        "Magenta ring: the node nearest the goal; white: the table's pick and its chain\n"
                        "At the end: the corridor's branch of the tree in green, the straight path in brown");
    else
      ImGui::SetTooltip("Intervals cyan (made by the last expansion: green), roots orange,\n"
                        "parent links amber; the node just expanded red; the table's pick and its chain white");
  }
  tableUi();
  // Hovering a node in the 3D view shows its numbers.
  const int hov = hoveredNode();
  if (hov >= 0 && !isAStar()) {
    const ExactNode& e = m_exactNodes[size_t(hov)];
    ImGui::SetTooltip("node %d: interval into poly %u\ng (start to root) %.3f  f %.3f\nparent %d", hov, unsigned(e.poly),
                      double(e.g), double(e.f), e.parent);
  } else if (hov >= 0) {
    const NodeInfo& n = m_nodes[size_t(hov)];
    ImGui::SetTooltip("poly %u%s\ng %.3f  h %.3f  total %.3f\nparent %u\n%s", unsigned(n.ref),
                      n.state ? " (tile-border side)" : "", double(n.g), double(n.h), double(n.total),
                      n.parent >= 0 ? unsigned(m_nodes[size_t(n.parent)].ref) : 0u,
                      (n.flags & nav::NODE_CLOSED) ? "closed" : "open");
  }
}

void ToolStepper::summaryUi() {
  ImGui::PushTextWrapPos(0.0f); // the notes wrap in the window instead of being cut
  if (isAStar()) {
    int closed = 0;
    for (const NodeInfo& n : m_nodes)
      if (n.flags & nav::NODE_CLOSED) ++closed;
    ImGui::Text("Step %d/%d: open %d, closed %d, nodes %d/%d", m_index, m_total, int(m_open.size()), closed,
                int(m_nodes.size()), m_boundNodes);
  } else {
    ImGui::Text("Step %d/%d: %d nodes, %d open", m_index, m_total, int(m_exactNodes.size()), m_exactOpen);
    const int made = m_exactPrevCount >= 0 ? int(m_exactNodes.size()) - m_exactPrevCount : 0;
    if (made > 0 && m_exactExpanded >= 0)
      ImGui::Text("Last expansion: node %d (red) made %d new intervals (green)", m_exactExpanded, made);
    else if (made > 0)
      ImGui::Text("Last expansion: the start made %d new intervals (green)", made);
    else if (m_exactPrevCount >= 0)
      ImGui::Text("Last expansion made no new interval (a dead end or pruned)");
    ImGui::TextDisabled("Intervals cyan, their roots orange, parent links amber; click a row: its chain in white");
  }
  if (m_finished) {
    ImGui::Text("Corridor %d polys, straight path %.2f m", int(m_corridor.size()),
                double(m_algo == ALGO_EXACT ? m_exactLen : polylineLength(m_straight.data(), m_nstraight)));
    if (nav::statusDetail(m_status, nav::PARTIAL_RESULT) && m_best >= 0 && m_best < int(m_nodes.size()))
      ImGui::TextColored(ImVec4(1, 0.3f, 0.9f, 1), "Partial: ends at poly %u, the node nearest the goal (magenta)",
                         unsigned(m_nodes[size_t(m_best)].ref));
  }
  if (nav::statusDetail(m_status, nav::OUT_OF_NODES))
    ImGui::TextColored(ImVec4(1, 0.3f, 0.2f, 1), "Out of nodes: the budget of %d was used up (Filter panel)", m_boundNodes);
  ImGui::PopTextWrapPos();
}

void ToolStepper::tableUi() {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  // First use: top right, under the stats overlay, above the Navmesh and View panels.
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - 420, vp->Pos.y + 112), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(410, 215), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("A* stepper")) {
    ImGui::End();
    return;
  }
  summaryUi();
  if (m_algo == ALGO_EXACT) {
    std::vector<int> order(m_exactNodes.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return m_exactNodes[size_t(a)].f < m_exactNodes[size_t(b)].f; });
    if (ImGui::BeginTable("exact", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV,
                          ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, ImGui::GetTextLineHeightWithSpacing() * 4)))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("node");
      ImGui::TableSetupColumn("poly");
      ImGui::TableSetupColumn("g (root)");
      ImGui::TableSetupColumn("f");
      ImGui::TableSetupColumn("parent");
      ImGui::TableHeadersRow();
      ImGuiListClipper clip;
      clip.Begin(int(order.size()));
      while (clip.Step())
        for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
          const int i = order[size_t(r)];
          const ExactNode& e = m_exactNodes[size_t(i)];
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          char label[32];
          std::snprintf(label, sizeof label, "%d%s##x%d", i, m_exactPrevCount >= 0 && i >= m_exactPrevCount ? " new" : "", i);
          if (ImGui::Selectable(label, m_selected == i, ImGuiSelectableFlags_SpanAllColumns))
            m_selected = m_selected == i ? -1 : i;
          ImGui::TableNextColumn();
          ImGui::Text("%u", unsigned(e.poly));
          ImGui::TableNextColumn();
          ImGui::Text("%.2f", double(e.g));
          ImGui::TableNextColumn();
          ImGui::Text("%.2f", double(e.f));
          ImGui::TableNextColumn();
          ImGui::Text("%d", e.parent);
        }
      ImGui::EndTable();
    }
    ImGui::End();
    return;
  }
  // The open list gets what the relaxation lines leave (3.5 to 10 rows).
  const float lh = ImGui::GetTextLineHeightWithSpacing();
  const float tableH = std::min(std::max(ImGui::GetContentRegionAvail().y - lh * float(m_relax.size() + 1), lh * 3.5f), lh * 10.0f);
  if (m_open.empty()) {
    ImGui::TextDisabled("Open list empty");
  } else if (ImGui::BeginTable("open", 5,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                            ImGuiTableFlags_SizingFixedFit,
                        ImVec2(0, tableH))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("open ref");
    ImGui::TableSetupColumn("g");
    ImGui::TableSetupColumn("h");
    ImGui::TableSetupColumn("total");
    ImGui::TableSetupColumn("parent");
    ImGui::TableHeadersRow();
    ImGuiListClipper clip;
    clip.Begin(int(m_open.size()));
    while (clip.Step())
      for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
        const int i = m_open[size_t(r)];
        const NodeInfo& n = m_nodes[size_t(i)];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        char label[32];
        std::snprintf(label, sizeof label, "%u%s##%d", unsigned(n.ref), r == 0 ? " next" : "", i);
        if (ImGui::Selectable(label, m_selected == i, ImGuiSelectableFlags_SpanAllColumns))
          m_selected = m_selected == i ? -1 : i;
        if (r == 0) { // where the first row is and the row pitch (--dump-state: tests click rows)
          m_firstRow[0] = (ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f;
          m_firstRow[1] = (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f;
        } else if (r == 1) {
          m_firstRow[2] = (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f - m_firstRow[1];
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Click: highlight this node and its parent chain");
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", double(n.g));
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", double(n.h));
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", double(n.total));
        ImGui::TableNextColumn();
        ImGui::Text("%u", n.parent >= 0 ? unsigned(m_nodes[size_t(n.parent)].ref) : 0u);
      }
    ImGui::EndTable();
  }
  if (m_expanded >= 0 && m_expanded < int(m_nodes.size())) {
    const NodeInfo& x = m_nodes[size_t(m_expanded)];
    ImGui::Text("Expanded %u (g %.2f, total %.2f), %d links:", unsigned(x.ref), double(x.g), double(x.total),
                int(m_relax.size()));
  } else {
    ImGui::TextDisabled("Nothing expanded yet: Step (Space)");
  }
  char line[160];
  for (const Relax& r : m_relax) {
    describe(r, line, sizeof line);
    ImGui::TextColored(toImVec4(resultColor(r.ev.result)), "%s", line);
  }
  ImGui::End();
}

void ToolStepper::dumpResult(nlohmann::json& out) const {
  out["caption"] = caption(); // the screenshot caption strip's second line
  out["algorithm"] = algoKey(m_algo);
  out["index"] = m_index;
  out["total"] = m_total;
  out["finished"] = m_finished;
  out["searchStatus"] = m_searchStatus;
  out["corridor"] = m_corridor;
  out["straight"] = std::vector<float>(m_straight.begin(), m_straight.begin() + m_nstraight * 3);
  const int hov = hoveredNode(); // the node under the mouse (--hover), whose numbers the tooltip shows
  if (hov >= 0) out["hovered"] = isAStar() ? nlohmann::json{{"ref", m_nodes[size_t(hov)].ref}, {"g", m_nodes[size_t(hov)].g}}
                                           : nlohmann::json{{"ref", m_exactNodes[size_t(hov)].poly}, {"g", m_exactNodes[size_t(hov)].g}};
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
    char line[160];
    describe(r, line, sizeof line);
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
  out["firstRow"] = {m_firstRow[0], m_firstRow[1], m_firstRow[2]};
}

void ToolStepper::saveOptions(nlohmann::json& out) const {
  out["algorithm"] = algoKey(m_algo);
  out["index"] = m_index;
  out["stepN"] = m_stepN;
}

bool ToolStepper::loadOptions(const nlohmann::json& in, std::string& error) {
  int algo = m_algo, index = 0, stepN = m_stepN;
  if (!optionKeys(in, {"algorithm", "index", "stepN"}, error) || !optionInt(in, "index", 0, 100000000, index, error) ||
      !optionInt(in, "stepN", 1, 100000000, stepN, error))
    return false;
  if (in.contains("algorithm")) {
    const nlohmann::json& a = in["algorithm"];
    algo = -1;
    for (int i = 0; i < ALGO_COUNT && a.is_string(); ++i)
      if (a.get<std::string>() == kAlgoKeys[i]) algo = i;
    if (algo < 0) {
      error = "options.algorithm: expected one of findPath, closestPoint, sliced, anyAngle, exact; got " + a.dump();
      return false;
    }
  }
  if (algo != m_algo) m_selected = -1; // an index into the other algorithm's nodes
  m_algo = algo;         // the recompute that follows counts this algorithm's expansions
  m_stepN = stepN;
  m_restoreIndex = index; // then afterScenarioLoad() replays to the saved step
  return true;
}

void ToolStepper::afterScenarioLoad() {
  goTo(m_restoreIndex);
  m_restoreIndex = 0;
}

std::string ToolStepper::captionDetail() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, " (%s, step %d/%d)", algoKey(m_algo), m_index, m_total);
  return buf;
}

float ToolStepper::resultLength() const {
  if (!m_finished) return -1.0f;
  return m_algo == ALGO_EXACT ? m_exactLen : polylineLength(m_straight.data(), m_nstraight);
}

} // namespace navbench
