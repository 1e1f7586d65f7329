// Explain.cpp: explainQuery (Explain.h). Every counterfactual is one more runQuery on the mesh (or
// on a copy with a link added): a query object per run, sized to the run's node budget.
#include "nav/explain/Explain.h"

#include "nav/NavAreas.h"
#include "nav/NavMath.h"
#include "nav/NavMesh.h"
#include "nav/NavMeshQuery.h"
#include "nav/ShortestPath.h"
#include "nav/check/NavCheck.h"
#include "nav/explain/AddLink.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace nav::explain {

namespace {

constexpr int kMaxPath = 2048;       // corridor and straight-path capacity, as `navbench query`
constexpr int kMaxBudget = 65535;    // NavMeshQuery::init's limit
constexpr float kShorterEps = 1e-3f; // a counterfactual path shorter by less is the same answer [wu]

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char b[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(b, sizeof(b), f, ap);
  va_end(ap);
  return b;
}

Vec3 v3(const float* p) { return Vec3{p[0], p[1], p[2]}; }

Evidence point(const char* name, const Vec3& p) {
  Evidence e;
  e.type = Evidence::POINT;
  e.name = name;
  e.point = p;
  return e;
}
Evidence poly(const char* name, PolyRef r) {
  Evidence e;
  e.type = Evidence::POLY;
  e.name = name;
  e.poly = r;
  return e;
}
Evidence number(const std::string& name, double v) {
  Evidence e;
  e.type = Evidence::NUMBER;
  e.name = name;
  e.number = v;
  return e;
}
Evidence word(const char* name, const std::string& t) {
  Evidence e;
  e.type = Evidence::TEXT;
  e.name = name;
  e.text = t;
  return e;
}

/// Flag bits as "walk|door" (unnamed bits as hex).
std::string flagWords(uint16_t flags) {
  std::string s;
  for (int b = 0; b < 16; ++b) {
    const uint16_t bit = uint16_t(1u << b);
    if (!(flags & bit)) continue;
    if (!s.empty()) s += "|";
    const char* n = flagName(bit);
    s += n ? std::string(n) : fmt("0x%x", unsigned(bit));
  }
  return s.empty() ? "none" : s;
}

std::string areaWord(int area) {
  const char* n = areaName(uint8_t(area));
  return n ? std::string(n) : fmt("area %d", area);
}

std::string pt(const Vec3& p) { return fmt("(%.2f, %.2f, %.2f)", double(p[0]), double(p[1]), double(p[2])); }

/// The same filter with every area cost 1 and no entering costs (hooks and flags kept).
QueryFilter uniformCosts(const QueryFilter& f) {
  QueryFilter u = f;
  for (int i = 0; i < MAX_AREAS; ++i) {
    u.setAreaCost(i, 1.0f);
    u.setAreaEnterCost(i, 0.0f);
  }
  return u;
}

bool costsUniform(const QueryFilter& f) {
  for (int i = 0; i < MAX_AREAS; ++i)
    if (f.getAreaCost(i) != 1.0f || f.getAreaEnterCost(i) != 0.0f) return false;
  return true;
}

float tileClimbAt(const NavMesh& mesh, PolyRef ref, const ExplainOptions& o) {
  if (o.walkableClimb >= 0) return o.walkableClimb;
  const MeshTile* t = nullptr;
  const Poly* p = nullptr;
  if (!ref || statusFailed(mesh.getTileAndPolyByRef(ref, &t, &p))) return 0.5f;
  return t->header->walkableClimb;
}

bool samePath(const Answer& a, const Answer& b) {
  return a.startRef == b.startRef && a.endRef == b.endRef && a.reached == b.reached && a.corridor == b.corridor &&
         std::fabs(a.length - b.length) <= kShorterEps;
}

/// Length per area of a path given by its corridor: the straight path with a corner at every poly
/// crossing, each segment charged to the area of the poly it starts in. [Size: MAX_AREAS]
std::vector<float> lengthPerArea(const NavMesh& mesh, const Answer& a) {
  std::vector<float> per(size_t(MAX_AREAS), 0.0f);
  if (a.corridor.empty()) return per;
  NavMeshQuery q;
  if (statusFailed(q.init(&mesh, 16))) return per;
  std::vector<float> pts(size_t(kMaxPath) * 3);
  std::vector<PolyRef> refs(static_cast<size_t>(kMaxPath));
  int n = 0;
  const float* endPos = a.straight.size() >= 3 ? &a.straight[a.straight.size() - 3] : a.endPos.data();
  q.findStraightPath(a.startPos.data(), endPos, a.corridor.data(), int(a.corridor.size()), pts.data(), nullptr,
                     refs.data(), &n, kMaxPath, STRAIGHTPATH_ALL_CROSSINGS);
  for (int i = 0; i + 1 < n; ++i) {
    uint8_t area = 0;
    if (!refs[size_t(i)] || statusFailed(mesh.getPolyArea(refs[size_t(i)], &area))) continue;
    per[area] += vdist(&pts[size_t(i) * 3], &pts[size_t(i + 1) * 3]);
  }
  return per;
}

/// How far the path pulled through `corridor` (from start to end) runs before it enters
/// `corridor[k]` (3D, along the straight path with a corner at every crossing); -1 when unknown.
float lengthToEnter(const NavMesh& mesh, const float* start, const float* end, const std::vector<PolyRef>& corridor,
                    size_t k) {
  if (k == 0 || k >= corridor.size()) return -1;
  NavMeshQuery q;
  if (statusFailed(q.init(&mesh, 16))) return -1;
  std::vector<float> pts(size_t(kMaxPath) * 3);
  std::vector<PolyRef> refs(static_cast<size_t>(kMaxPath));
  int n = 0;
  q.findStraightPath(start, end, corridor.data(), int(corridor.size()), pts.data(), nullptr, refs.data(), &n, kMaxPath,
                     STRAIGHTPATH_ALL_CROSSINGS);
  float len = 0;
  for (int i = 1; i < n; ++i) {
    len += vdist(&pts[size_t(i - 1) * 3], &pts[size_t(i) * 3]);
    if (refs[size_t(i)] == corridor[k]) return len; // corner i leads into corridor[k]: the portal crossing
  }
  return -1;
}

/// The exact shortest path between the answer's snapped ends (metric length, its polys); false when
/// the search does not finish.
bool exactPath(const NavMesh& mesh, const QueryFilter& filter, const Answer& a, int maxNodes, float* metric,
               std::vector<PolyRef>* polys, std::vector<float>* points) {
  ShortestPath sp;
  if (statusFailed(sp.init(&mesh, maxNodes))) return false;
  std::vector<float> pts(size_t(kMaxPath) * 3);
  std::vector<PolyRef> ps(static_cast<size_t>(kMaxPath));
  int n = 0, np = 0;
  float len = 0;
  const Status st = sp.findPath(a.startRef, a.endRef, a.startPos.data(), a.endPos.data(), &filter, pts.data(), nullptr,
                                nullptr, &n, kMaxPath, ps.data(), &np, kMaxPath, &len);
  if (statusFailed(st) || statusDetail(st, PARTIAL_RESULT | OUT_OF_NODES | BUFFER_TOO_SMALL) || n <= 0) return false;
  *metric = len;
  if (polys) polys->assign(ps.begin(), ps.begin() + np);
  if (points) points->assign(pts.begin(), pts.begin() + long(n) * 3);
  return true;
}

/// Records, for the last expansion of `parent`, the relaxations of two neighbours.
class PortalWatch : public SearchObserver {
public:
  PolyRef parent = 0, a = 0, b = 0;
  int expansions = 0;       ///< Expansions so far.
  int parentExpansion = -1; ///< Index of the last expansion of `parent`.
  bool inParent = false;
  struct Seen {
    bool seen = false;
    float cost = 0, total = 0;
    Vec3 pos{};
    uint8_t result = 0;
  } seenA, seenB;
  void onExpand(const Node& n) override {
    inParent = n.id == parent;
    if (inParent) {
      parentExpansion = expansions;
      seenA = Seen();
      seenB = Seen();
    }
    ++expansions;
  }
  void onRelax(const RelaxEvent& e) override {
    if (!inParent || e.parent != parent) return;
    Seen* s = e.neighbour == a ? &seenA : e.neighbour == b ? &seenB : nullptr;
    if (!s || s->seen || !e.node) return;
    // What A* holds for the neighbour after this relaxation (the cheaper of before and now).
    s->seen = true;
    s->cost = e.node->cost;
    s->total = e.node->total;
    s->result = e.result;
    s->pos = v3(e.node->pos);
  }
};

struct Explainer {
  const NavMesh& mesh;
  const QueryFilter& filter;
  const Query& query;
  const ExplainOptions& opts;
  Explanation& out;

  Answer run(const QueryFilter& f, const Query& q) const { return runQuery(mesh, f, q); }

  Counterfactual counterfactual(int change, const std::string& text, const Answer& result) const {
    Counterfactual c;
    c.change = change;
    c.text = text;
    c.result = result;
    c.checked = true;
    return c;
  }

  void add(int kind, const std::string& text, std::vector<Evidence> ev, Counterfactual c, int expansion = -1) {
    Cause cause;
    cause.kind = kind;
    cause.text = text;
    cause.evidence = std::move(ev);
    cause.counterfactual = std::move(c);
    cause.expansion = expansion;
    out.causes.push_back(std::move(cause));
  }

  // ---- snap ------------------------------------------------------------------------------------

  /// An end with no poly: the extents, doubled until a poly is found. False when none within
  /// maxSnapExtent (bad input).
  bool snapMissing(bool isStart, std::string* why) {
    const Vec3& click = isStart ? query.start : query.end;
    NavMeshQuery q;
    if (statusFailed(q.init(&mesh, 16))) return false;
    Vec3 e = query.halfExtents;
    PolyRef ref = 0;
    float near[3] = {0, 0, 0};
    for (int k = 0; k < 40 && !ref; ++k) {
      for (float& c : e) c = std::min(c * 2.0f, opts.maxSnapExtent);
      q.findNearestPoly(click.data(), e.data(), &filter, &ref, near);
      if (e[0] >= opts.maxSnapExtent && e[1] >= opts.maxSnapExtent && e[2] >= opts.maxSnapExtent) break;
    }
    const char* which = isStart ? "start" : "end";
    if (!ref) {
      if (why)
        *why = fmt("the %s %s has no poly the filter passes within %g m: it is not near the navmesh", which,
                   pt(click).c_str(), double(opts.maxSnapExtent));
      return false;
    }
    Query cq = query;
    cq.halfExtents = e;
    Counterfactual c =
        counterfactual(CHANGE_HALF_EXTENTS, fmt("half extents (%g, %g, %g)", double(e[0]), double(e[1]), double(e[2])),
                       run(filter, cq));
    c.halfExtents = e;
    const PolyRef got = isStart ? c.result.startRef : c.result.endRef;
    if (!got) return true;
    const float d = vdist(click.data(), near);
    add(CAUSE_SNAP,
        fmt("The %s %s has no poly within the half extents (%g, %g, %g); the nearest poly is %.2f m away, "
            "reached with half extents (%g, %g, %g).",
            which, pt(click).c_str(), double(query.halfExtents[0]), double(query.halfExtents[1]),
            double(query.halfExtents[2]), double(d), double(e[0]), double(e[1]), double(e[2])),
        {word("end", which), point("click", click), poly("nearestPoly", ref), point("nearestPoint", v3(near)),
         number("distance", d)},
        std::move(c));
    return true;
  }

  /// An end snapped to a poly beyond the climb from the click: the poly on the clicked floor.
  void snapOtherFloor(bool isStart) {
    const Answer& A = out.answer;
    const Vec3& click = isStart ? query.start : query.end;
    const PolyRef ref = isStart ? A.startRef : A.endRef;
    const Vec3& snapped = isStart ? A.startPos : A.endPos;
    const float climb = tileClimbAt(mesh, ref, opts);
    const float dy = snapped[1] - click[1];
    if (std::fabs(dy) <= climb) return;
    NavMeshQuery q;
    if (statusFailed(q.init(&mesh, 16))) return;
    for (float m = 1; m <= 8; m *= 2) { // the clicked floor within 8 times the extents, not anywhere
      Vec3 e{std::min(query.halfExtents[0] * m, opts.maxSnapExtent), climb,
             std::min(query.halfExtents[2] * m, opts.maxSnapExtent)};
      PolyRef own = 0;
      float near[3];
      q.findNearestPoly(click.data(), e.data(), &filter, &own, near);
      if (own && own != ref && std::fabs(near[1] - click[1]) <= climb) {
        Query cq = query;
        cq.halfExtents = e;
        Counterfactual c =
            counterfactual(CHANGE_HALF_EXTENTS,
                           fmt("half extents (%g, %g, %g)", double(e[0]), double(e[1]), double(e[2])), run(filter, cq));
        c.halfExtents = e;
        if (samePath(c.result, A)) return;
        const char* which = isStart ? "start" : "end";
        const float d = vdist(click.data(), near);
        add(CAUSE_SNAP,
            fmt("The %s snapped to a poly %.2f m %s the click (the climb is %.2f m); the poly on the clicked floor "
                "is %.2f m away.",
                which, double(std::fabs(dy)), dy > 0 ? "above" : "below", double(climb), double(d)),
            {word("end", which), point("click", click), poly("snappedPoly", ref), point("snappedPoint", snapped),
             number("heightDifference", dy), number("climb", climb), poly("clickedFloorPoly", own),
             point("clickedFloorPoint", v3(near)), number("clickedFloorDistance", d)},
            std::move(c));
        return;
      }
      if (e[0] >= opts.maxSnapExtent && e[2] >= opts.maxSnapExtent) return;
    }
  }

  // ---- budget ------------------------------------------------------------------------------------

  bool budget() {
    const Answer& A = out.answer;
    if (!statusDetail(A.status, OUT_OF_NODES) || query.nodeBudget >= kMaxBudget) return false;
    Query cq = query;
    int lo = query.nodeBudget, hi = 0;
    Answer hiAnswer;
    for (long b = long(query.nodeBudget) * 2;; b *= 2) {
      cq.nodeBudget = int(std::min<long>(b, kMaxBudget));
      Answer r = run(filter, cq);
      if (r.reached) {
        hi = cq.nodeBudget;
        hiAnswer = std::move(r);
        break;
      }
      if (!statusDetail(r.status, OUT_OF_NODES) || cq.nodeBudget >= kMaxBudget) return false;
      lo = cq.nodeBudget;
    }
    while (hi - lo > 1) {
      cq.nodeBudget = lo + (hi - lo) / 2;
      Answer r = run(filter, cq);
      if (r.reached) {
        hi = cq.nodeBudget;
        hiAnswer = std::move(r);
      } else {
        lo = cq.nodeBudget;
      }
    }
    Counterfactual c = counterfactual(CHANGE_NODE_BUDGET, fmt("node budget %d", hi), hiAnswer);
    c.nodeBudget = hi;
    const Vec3 stop = A.straight.size() >= 3 ? v3(&A.straight[A.straight.size() - 3]) : A.startPos;
    add(CAUSE_BUDGET,
        fmt("The search ran out of nodes (%d of %d used) %.2f m short of the end; with a budget of %d the path is "
            "complete, %.2f m.",
            A.nodes, query.nodeBudget, double(vdist(stop.data(), A.endPos.data())), hi, double(hiAnswer.length)),
        {number("nodesUsed", A.nodes), number("nodeBudget", query.nodeBudget), number("smallestBudget", hi),
         point("stoppedAt", stop)},
        std::move(c));
    return true;
  }

  // ---- filter --------------------------------------------------------------------------------------

  /// The filter with the flags of `polys` that fail it allowed: exclude loses their flags, include
  /// gains them where none was included. Returns the blocking polys.
  std::vector<PolyRef> allowPolys(const std::vector<PolyRef>& polys, QueryFilter& f) const {
    std::vector<PolyRef> blocking;
    for (PolyRef r : polys) {
      const MeshTile* t = nullptr;
      const Poly* p = nullptr;
      if (statusFailed(mesh.getTileAndPolyByRef(r, &t, &p)) || filter.passFilter(r, t, p)) continue;
      blocking.push_back(r);
      f.setExcludeFlags(uint16_t(f.getExcludeFlags() & ~p->flags));
      if (!(p->flags & f.getIncludeFlags())) f.setIncludeFlags(uint16_t(f.getIncludeFlags() | p->flags));
    }
    return blocking;
  }

  /// "No path / longer path because of the filter's flags": re-run with every flag allowed, then with
  /// only the flags of the polys that way needs. `longer`: the answer reached its end, and the
  /// filtered way counts only if shorter by the detour thresholds.
  bool filterFlags(bool longer) {
    if (filter.getIncludeFlags() == 0xffff && filter.getExcludeFlags() == 0) return false;
    const Answer& A = out.answer;
    QueryFilter relaxed = filter;
    relaxed.setIncludeFlags(0xffff);
    relaxed.setExcludeFlags(0);
    const Answer R = run(relaxed, query);
    if (!R.reached) return false;
    if (longer && !(A.metric - R.metric >= opts.detourMinExtra && A.metric >= R.metric * opts.detourRatio))
      return false;
    QueryFilter fixed = filter;
    const std::vector<PolyRef> blocking = allowPolys(R.corridor, fixed);
    if (blocking.empty()) return false;
    Answer F = run(fixed, query);
    if (!F.reached || (longer && !(F.metric < A.metric - kShorterEps))) return false;
    bool allLinks = true;
    uint16_t flags = 0;
    for (PolyRef r : blocking) {
      const MeshTile* t = nullptr;
      const Poly* p = nullptr;
      mesh.getTileAndPolyByRefUnsafe(r, &t, &p);
      flags |= p->flags;
      allLinks = allLinks && p->getType() == POLYTYPE_OFFMESH_CONNECTION;
    }
    const MeshTile* t = nullptr;
    const Poly* p = nullptr;
    mesh.getTileAndPolyByRefUnsafe(blocking[0], &t, &p);
    float c[3];
    calcPolyCenter(c, p->verts, p->vertCount, t->verts);
    const uint16_t addInc = uint16_t(fixed.getIncludeFlags() & ~filter.getIncludeFlags());
    const uint16_t dropExc = uint16_t(filter.getExcludeFlags() & ~fixed.getExcludeFlags());
    std::string change = fmt("filter 0x%x,0x%x", unsigned(fixed.getIncludeFlags()), unsigned(fixed.getExcludeFlags()));
    if (dropExc) change += " (" + flagWords(dropExc) + " no longer excluded)";
    if (addInc) change += " (" + flagWords(addInc) + " included)";
    Counterfactual cf = counterfactual(CHANGE_FILTER, change, F);
    cf.include = fixed.getIncludeFlags();
    cf.exclude = fixed.getExcludeFlags();
    std::vector<Evidence> ev = {number("blockingPolys", double(blocking.size())),
                                poly("firstBlockingPoly", blocking[0]),
                                point("firstBlockingAt", v3(c)),
                                word("blockingFlags", flagWords(flags)),
                                number("include", filter.getIncludeFlags()),
                                number("exclude", filter.getExcludeFlags())};
    std::string what =
        allLinks ? "an off-mesh link the filter refuses" : fmt("%d poly(s) the filter refuses", int(blocking.size()));
    std::string text;
    if (longer) {
      ev.push_back(number("length", A.length));
      ev.push_back(number("filteredOutLength", F.length));
      text = fmt("A shorter way crosses %s (flags %s, at %s); allowing them, the path is %.2f m instead of %.2f m.",
                 what.c_str(), flagWords(flags).c_str(), pt(v3(c)).c_str(), double(F.length), double(A.length));
    } else {
      text = fmt("The way to the end crosses %s (flags %s, at %s); allowing them, the path is found, %.2f m.",
                 what.c_str(), flagWords(flags).c_str(), pt(v3(c)).c_str(), double(F.length));
    }
    add(allLinks ? CAUSE_LINK : CAUSE_FILTER, text, std::move(ev), std::move(cf));
    return true;
  }

  /// The filter's area costs make Detour's path longer than the path with all costs 1.
  void areaCosts() {
    if (costsUniform(filter)) return;
    const Answer& A = out.answer;
    const QueryFilter u = uniformCosts(filter);
    Answer U = run(u, query);
    if (!U.reached || !(A.metric - U.metric >= opts.detourMinExtra && A.metric >= U.metric * opts.detourRatio)) return;
    const std::vector<float> pa = lengthPerArea(mesh, A), pu = lengthPerArea(mesh, U);
    std::vector<Evidence> ev = {number("length", A.length), number("uniformLength", U.length)};
    Counterfactual cf = counterfactual(CHANGE_AREA_COSTS, "every area cost 1", U);
    std::string dearer;
    for (int a = 0; a < MAX_AREAS; ++a) {
      if (pa[size_t(a)] <= 0 && pu[size_t(a)] <= 0) continue;
      const float cost = filter.getAreaCost(a);
      ev.push_back(number(areaWord(a) + ".cost", cost));
      ev.push_back(number(areaWord(a) + ".pathCost", pa[size_t(a)] * cost));
      ev.push_back(number(areaWord(a) + ".shorterPathCost", pu[size_t(a)] * cost));
      if (cost != 1.0f || filter.getAreaEnterCost(a) != 0.0f) cf.areaCosts.emplace_back(a, 1.0f);
      if (pu[size_t(a)] > pa[size_t(a)] + kShorterEps && cost > 1.0f) {
        if (!dearer.empty()) dearer += ", ";
        dearer +=
            fmt("%s (cost %g, %.2f m on the shorter way)", areaWord(a).c_str(), double(cost), double(pu[size_t(a)]));
      }
    }
    if (cf.areaCosts.empty()) return;
    add(CAUSE_FILTER,
        fmt("The area costs make the shorter way dearer%s%s; with every area cost 1 the path is %.2f m instead of %.2f "
            "m.",
            dearer.empty() ? "" : ": ", dearer.c_str(), double(U.length), double(A.length)),
        std::move(ev), std::move(cf));
  }

  // ---- links and islands ---------------------------------------------------------------------------

  /// The jump link flags and area for `filter`: FLAG_JUMP / AREA_JUMP when the filter passes it,
  /// else the lowest flag it passes; false when it passes none.
  bool linkFlags(uint16_t* flags, uint8_t* area) const {
    const uint16_t ok = uint16_t(filter.getIncludeFlags() & ~filter.getExcludeFlags());
    if (!ok) return false;
    *area = AREA_JUMP;
    *flags = (ok & FLAG_JUMP) ? uint16_t(FLAG_JUMP) : uint16_t(ok & uint16_t(-int(ok)));
    return true;
  }

  Answer runWithLink(const LinkSpec& L, bool* ok) const {
    NavMesh copy;
    *ok = statusSucceeded(copyWithLinks(mesh, &L, 1, copy));
    if (!*ok) return Answer();
    return runQuery(copy, filter, query);
  }

  void islandsAndLinks() {
    const Answer& A = out.answer;
    check::CheckOptions co;
    co.detours = co.budget = co.seams = co.narrow = co.surface = false;
    co.islands = co.links = true;
    co.pairs = 1;
    check::CheckResult cr;
    if (statusFailed(check::runChecks(mesh, filter, co, cr))) return;
    std::vector<std::pair<PolyRef, int>> byRef = cr.polyIslands; // (ref, island), sorted for lookups
    std::sort(byRef.begin(), byRef.end());
    auto islandOf = [&](PolyRef r) {
      const auto it = std::lower_bound(byRef.begin(), byRef.end(), std::make_pair(r, -1));
      return it != byRef.end() && it->first == r ? it->second : -1;
    };
    const int si = islandOf(A.startRef), ei = islandOf(A.endRef);
    if (si < 0 || ei < 0) return;

    // A link on the start's island that lands nowhere: its end moved onto the nearest poly.
    NavMeshQuery q;
    if (statusFailed(q.init(&mesh, 16))) return;
    int tried = 0;
    for (const check::LinkFinding& lf : cr.links) {
      if (!lf.startLinked || lf.endLinked || islandOf(lf.poly) != si || tried >= 8) continue;
      ++tried;
      const OffMeshConnection* con = mesh.getOffMeshConnectionByRef(lf.poly);
      const MeshTile* t = nullptr;
      const Poly* p = nullptr;
      if (!con || statusFailed(mesh.getTileAndPolyByRef(lf.poly, &t, &p))) continue;
      const float ext[3] = {opts.jumpGap, opts.jumpGap, opts.jumpGap};
      PolyRef land = 0;
      float near[3];
      q.findNearestPoly(lf.end.data(), ext, &filter, &land, near);
      if (!land) continue;
      LinkSpec L;
      L.start = lf.start;
      L.end = v3(near);
      L.radius = con->rad;
      L.bidirectional = (con->flags & OFFMESH_CON_BIDIR) != 0;
      L.flags = p->flags;
      L.area = p->getArea();
      bool ok = false;
      Answer r = runWithLink(L, &ok);
      if (!ok || !r.reached) continue;
      Counterfactual cf = counterfactual(CHANGE_LINK, fmt("the link's end moved to %s", pt(L.end).c_str()), r);
      cf.link = L;
      const float off = vdist(lf.end.data(), near);
      add(CAUSE_LINK,
          fmt("The off-mesh link from %s ends at %s, %.2f m from any poly, so it connects to nothing; with its end on "
              "the poly at %s the path is found, %.2f m.",
              pt(lf.start).c_str(), pt(lf.end).c_str(), double(off), pt(L.end).c_str(), double(r.length)),
          {poly("link", lf.poly), number("userId", lf.userId), point("linkStart", lf.start), point("linkEnd", lf.end),
           point("landing", L.end), number("endOffMesh", off)},
          std::move(cf));
      break;
    }
    if (si == ei) return;

    // Islands: the closest points of their borders, joined by a one-way link.
    std::vector<float> segA, segB;     // [(ax, ay, az, bx, by, bz) * n]
    std::vector<PolyRef> polyA, polyB; // the poly of each segment
    for (const auto& pi : cr.polyIslands) {
      if (pi.second != si && pi.second != ei) continue;
      const MeshTile* t = nullptr;
      const Poly* p = nullptr;
      mesh.getTileAndPolyByRefUnsafe(pi.first, &t, &p);
      if (p->getType() != POLYTYPE_GROUND) continue;
      for (int j = 0; j < p->vertCount; ++j) {
        bool open = false; // a link on this edge to a poly the filter passes
        for (uint32_t l = p->firstLink; l != NULL_LINK && !open; l = t->links[l].next) {
          if (t->links[l].edge != j) continue;
          const MeshTile* nt = nullptr;
          const Poly* np = nullptr;
          if (statusSucceeded(mesh.getTileAndPolyByRef(t->links[l].ref, &nt, &np)) &&
              filter.passFilter(t->links[l].ref, nt, np))
            open = true;
        }
        if (open) continue;
        std::vector<float>& s = pi.second == si ? segA : segB;
        (pi.second == si ? polyA : polyB).push_back(pi.first);
        const float* va = &t->verts[p->verts[j] * 3];
        const float* vb = &t->verts[p->verts[(j + 1) % p->vertCount] * 3];
        s.insert(s.end(), va, va + 3);
        s.insert(s.end(), vb, vb + 3);
      }
    }
    const size_t na = segA.size() / 6, nb = segB.size() / 6;
    if (!na || !nb) return;
    // Sample the longer list when the pairs exceed the cap (a fixed stride: deterministic).
    size_t strideA = 1, strideB = 1;
    while ((na / strideA) * (nb / strideB) > size_t(opts.maxEdgePairs))
      (na / strideA > nb / strideB ? strideA : strideB) *= 2;
    float best = 1e30f;
    Vec3 pa{}, pb{};
    PolyRef ra = 0, rb = 0;
    for (size_t i = 0; i < na; i += strideA)
      for (size_t j = 0; j < nb; j += strideB) {
        float c1[3], c2[3];
        const float d = closestSegSeg(&segA[i * 6], &segA[i * 6 + 3], &segB[j * 6], &segB[j * 6 + 3], c1, c2);
        if (d < best) {
          best = d;
          pa = v3(c1);
          pb = v3(c2);
          ra = polyA[i];
          rb = polyB[j];
        }
      }
    // The link's ends a little inside their polys: a point on a tile's border line would be
    // classified into the neighbour tile and connect to nothing.
    const Vec3 ea = inward(ra, pa), eb = inward(rb, pb);
    const check::Island& IA = cr.islands[size_t(si)];
    const check::Island& IB = cr.islands[size_t(ei)];
    LinkSpec L;
    L.start = ea;
    L.end = eb;
    L.radius = 0.5f;
    L.bidirectional = false;
    if (!linkFlags(&L.flags, &L.area)) return;
    bool ok = false;
    Answer r = runWithLink(L, &ok);
    if (!ok || !r.reached) return;
    const float gap = std::sqrt(best);
    const float horiz = vdist2D(pa.data(), pb.data()), drop = pb[1] - pa[1];
    const bool jumpable = gap <= opts.jumpGap;
    Counterfactual cf =
        counterfactual(CHANGE_LINK, fmt("a one-way off-mesh link %s -> %s", pt(ea).c_str(), pt(eb).c_str()), r);
    cf.link = L;
    add(CAUSE_ISLANDS,
        fmt("Start and end are on different islands (%d polys, %.0f m2; %d polys, %.0f m2); their closest points are "
            "%.2f m apart (%.2f m across, %.2f m %s)%s; with an off-mesh link there the path is found, %.2f m.",
            IA.polys, double(IA.area), IB.polys, double(IB.area), double(gap), double(horiz), double(std::fabs(drop)),
            drop < 0 ? "down" : "up", jumpable ? ", a jumpable gap" : "", double(r.length)),
        {number("startIsland.polys", IA.polys), number("startIsland.area", IA.area),
         number("endIsland.polys", IB.polys), number("endIsland.area", IB.area), point("startIslandPoint", pa),
         point("endIslandPoint", pb), number("gap", gap), number("horizontalGap", horiz),
         number("heightDifference", drop), word("jumpable", jumpable ? "yes" : "no")},
        std::move(cf));
  }

  /// p moved toward the centre of poly `ref` by at most 0.1 m (half the way when closer).
  Vec3 inward(PolyRef ref, const Vec3& p) const {
    const MeshTile* t = nullptr;
    const Poly* pp = nullptr;
    mesh.getTileAndPolyByRefUnsafe(ref, &t, &pp);
    float c[3];
    calcPolyCenter(c, pp->verts, pp->vertCount, t->verts);
    const float d = vdist(p.data(), c);
    if (d <= 1e-6f) return p;
    const float s = std::min(0.1f, 0.5f * d) / d;
    return Vec3{p[0] + (c[0] - p[0]) * s, p[1] + (c[1] - p[1]) * s, p[2] + (c[2] - p[2]) * s};
  }

  /// Closest points of segments p1q1 and p2q2 (3D); returns the squared distance.
  static float closestSegSeg(const float* p1, const float* q1, const float* p2, const float* q2, float* c1, float* c2) {
    float d1[3], d2[3], r[3];
    vsub(d1, q1, p1);
    vsub(d2, q2, p2);
    vsub(r, p1, p2);
    const float a = vdot(d1, d1), e = vdot(d2, d2), f = vdot(d2, r);
    float s = 0, t = 0;
    if (a <= 1e-12f && e <= 1e-12f) {
      s = t = 0;
    } else if (a <= 1e-12f) {
      t = clampf(f / e, 0, 1);
    } else {
      const float c = vdot(d1, r);
      if (e <= 1e-12f) {
        s = clampf(-c / a, 0, 1);
      } else {
        const float b = vdot(d1, d2), den = a * e - b * b;
        s = den > 1e-12f ? clampf((b * f - c * e) / den, 0, 1) : 0.0f;
        t = (b * s + f) / e;
        if (t < 0) {
          t = 0;
          s = clampf(-c / a, 0, 1);
        } else if (t > 1) {
          t = 1;
          s = clampf((b - c) / a, 0, 1);
        }
      }
    }
    vmad(c1, p1, d1, s);
    vmad(c2, p2, d2, t);
    return vdistSqr(c1, c2);
  }
  static float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

  // ---- detour ------------------------------------------------------------------------------------------

  void detour() {
    const Answer& A = out.answer;
    const QueryFilter u = uniformCosts(filter);
    std::vector<PolyRef> exactPolys;
    float exact = 0;
    if (!exactPath(mesh, u, A, opts.exactMaxNodes, &exact, &exactPolys, &out.exactStraight)) return;
    out.exactMetric = exact;
    // Detour's path under the same (uniform) costs as the exact one.
    const bool uniform = costsUniform(filter);
    const Answer base = uniform ? A : run(u, query);
    if (!base.reached || !(base.metric >= exact * opts.detourRatio && base.metric - exact >= opts.detourMinExtra))
      return;
    const std::vector<Evidence> common = {number("length", base.length), number("metric", base.metric),
                                          number("exactMetric", exact),
                                          number("ratio", base.metric / std::max(exact, 1e-6f))};
    // A heuristic scale above Detour's over-estimates and commits early.
    if (filter.getHeuristicScale() > QueryFilter::DEFAULT_HEURISTIC_SCALE + 1e-6f) {
      QueryFilter h = filter;
      h.setHeuristicScale(QueryFilter::DEFAULT_HEURISTIC_SCALE);
      Answer H = run(h, query);
      if (H.reached && H.metric < A.metric - kShorterEps) {
        Counterfactual cf = counterfactual(CHANGE_HEURISTIC_SCALE,
                                           fmt("heuristic scale %g", double(QueryFilter::DEFAULT_HEURISTIC_SCALE)), H);
        cf.heuristicScale = QueryFilter::DEFAULT_HEURISTIC_SCALE;
        std::vector<Evidence> ev = common;
        ev.push_back(number("heuristicScale", filter.getHeuristicScale()));
        add(CAUSE_DETOUR,
            fmt("The heuristic scale %g over-estimates the distance left, so the search settles for a longer way "
                "(%.2f m against %.2f m shortest); with %g the path is %.2f m.",
                double(filter.getHeuristicScale()), double(base.metric), double(exact),
                double(QueryFilter::DEFAULT_HEURISTIC_SCALE), double(H.length)),
            std::move(ev), std::move(cf));
        return;
      }
    }
    // Portal midpoints: where the corridors part, what A* saw of both neighbours.
    if (query.options & FINDPATH_ANY_ANGLE) return;
    Query aq = query;
    aq.options |= FINDPATH_ANY_ANGLE;
    Answer AA = run(filter, aq);
    if (!AA.reached || !(AA.metric < A.metric - kShorterEps)) return;
    std::vector<Evidence> ev = common;
    ev.push_back(number("anyAngleLength", AA.length));
    int expansion = -1;
    size_t k = 1;
    while (k < base.corridor.size() && k < exactPolys.size() && base.corridor[k] == exactPolys[k]) ++k;
    std::string where;
    if (k < base.corridor.size() && k < exactPolys.size()) {
      PortalWatch w;
      w.parent = base.corridor[k - 1];
      w.a = base.corridor[k];
      w.b = exactPolys[k];
      NavMeshQuery q;
      if (statusSucceeded(q.init(&mesh, query.nodeBudget))) {
        q.setSearchObserver(&w);
        std::vector<PolyRef> path(static_cast<size_t>(kMaxPath));
        int n = 0;
        const QueryFilter& f = uniform ? filter : u;
        q.findPath(base.startRef, base.endRef, base.startPos.data(), base.endPos.data(), &f, path.data(), &n, kMaxPath);
        q.setSearchObserver(nullptr);
      }
      if (w.parentExpansion >= 0 && w.seenA.seen && w.seenB.seen) {
        expansion = w.parentExpansion;
        ev.push_back(number("expansion", expansion));
        ev.push_back(poly("expandedPoly", w.parent));
        ev.push_back(poly("chosenPoly", w.a));
        ev.push_back(point("chosenPortal", w.seenA.pos));
        ev.push_back(number("chosenCost", w.seenA.cost));
        ev.push_back(number("chosenTotal", w.seenA.total));
        ev.push_back(poly("shortestPoly", w.b));
        ev.push_back(point("shortestPortal", w.seenB.pos));
        ev.push_back(number("shortestCost", w.seenB.cost));
        ev.push_back(number("shortestTotal", w.seenB.total));
        // The same two portals as the paths cross them: Detour's straight path and the shortest path.
        const float toChosen = lengthToEnter(mesh, base.startPos.data(), base.endPos.data(), base.corridor, k);
        const float toShortest = lengthToEnter(mesh, base.startPos.data(), base.endPos.data(), exactPolys, k);
        if (toChosen >= 0) ev.push_back(number("chosenPortalPathLength", toChosen));
        if (toShortest >= 0) ev.push_back(number("shortestPortalPathLength", toShortest));
        where =
            fmt(" At expansion %d A* held the poly it went on to at cost %.2f (estimate %.2f) and the poly the "
                "shortest path enters at cost %.2f (estimate %.2f), both measured through portal midpoints",
                expansion, double(w.seenA.cost), double(w.seenA.total), double(w.seenB.cost), double(w.seenB.total));
        if (toChosen >= 0 && toShortest >= 0)
          where +=
              fmt(" (the paths cross those portals after %.2f m and %.2f m)", double(toChosen), double(toShortest));
        where += fmt("; the shortest path through the latter is %.2f m, Detour's through the former %.2f m.",
                     double(exact), double(base.metric));
      }
    }
    Counterfactual cf =
        counterfactual(CHANGE_ANY_ANGLE, "FINDPATH_ANY_ANGLE (sliced search with raycast shortcuts)", AA);
    add(CAUSE_DETOUR,
        fmt("Detour's path is %.2f m where the shortest is %.2f m (x%.2f): A* costs polys at their portal midpoints.%s "
            "With FINDPATH_ANY_ANGLE the path is %.2f m.",
            double(base.metric), double(exact), double(base.metric / std::max(exact, 1e-6f)), where.c_str(),
            double(AA.length)),
        std::move(ev), std::move(cf), expansion);
  }
};

} // namespace

const char* changeName(int change) {
  static const char* const names[CHANGE_COUNT] = {"nodeBudget", "filter", "areaCosts",     "halfExtents",
                                                  "anyAngle",   "link",   "heuristicScale"};
  return change >= 0 && change < CHANGE_COUNT ? names[change] : "?";
}

const char* causeName(int kind) {
  static const char* const names[CAUSE_COUNT] = {"snap", "islands", "filter", "budget", "detour", "link"};
  return kind >= 0 && kind < CAUSE_COUNT ? names[kind] : "?";
}

bool ExplainOptions::validate(std::string* why) const {
  auto bad = [&](const char* m) {
    if (why) *why = m;
    return false;
  };
  if (!(detourRatio >= 1.0f && detourRatio < 1e6f)) return bad("detour ratio must be >= 1");
  if (!(detourMinExtra >= 0.0f && detourMinExtra < 1e9f)) return bad("detour minimum extra length must be >= 0");
  if (!(maxSnapExtent > 0.0f && maxSnapExtent <= 1e4f)) return bad("the largest snap extent must be in (0, 10000]");
  if (!(jumpGap >= 0.0f && jumpGap < 1e6f)) return bad("the jump gap must be >= 0");
  if (exactMaxNodes < 16 || exactMaxNodes > (1 << 24)) return bad("the exact search's pool must be 16..2^24 nodes");
  if (maxEdgePairs < 1) return bad("the edge pair cap must be >= 1");
  if (!std::isfinite(walkableClimb)) return bad("the climb must be finite");
  return true;
}

Answer runQuery(const NavMesh& mesh, const QueryFilter& filter, const Query& query) {
  Answer a;
  NavMeshQuery q;
  if (statusFailed(q.init(&mesh, std::max(1, std::min(query.nodeBudget, kMaxBudget))))) {
    a.status = FAILURE | OUT_OF_MEMORY;
    return a;
  }
  q.findNearestPoly(query.start.data(), query.halfExtents.data(), &filter, &a.startRef, a.startPos.data());
  q.findNearestPoly(query.end.data(), query.halfExtents.data(), &filter, &a.endRef, a.endPos.data());
  if (!a.startRef || !a.endRef) return a;
  a.corridor.resize(size_t(kMaxPath));
  int n = 0;
  a.status = q.findPath(a.startRef, a.endRef, a.startPos.data(), a.endPos.data(), &filter, a.corridor.data(), &n,
                        kMaxPath, query.options);
  a.nodes = q.searchView().nodeCount;
  a.corridor.resize(size_t(std::max(0, n)));
  if (n <= 0 || statusFailed(a.status)) return a;
  a.reached = !statusDetail(a.status, PARTIAL_RESULT) && a.corridor.back() == a.endRef;
  float endPos[3];
  vcopy(endPos, a.endPos.data());
  if (!a.reached) q.closestPointOnPoly(a.corridor.back(), a.endPos.data(), endPos, nullptr);
  a.straight.resize(size_t(kMaxPath) * 3);
  a.straightFlags.resize(size_t(kMaxPath));
  a.straightRefs.resize(size_t(kMaxPath));
  int ns = 0;
  q.findStraightPath(a.startPos.data(), endPos, a.corridor.data(), n, a.straight.data(), a.straightFlags.data(),
                     a.straightRefs.data(), &ns, kMaxPath);
  a.straight.resize(size_t(ns) * 3);
  a.straightFlags.resize(size_t(ns));
  a.straightRefs.resize(size_t(ns));
  float len = 0;
  for (int k = 1; k < ns; ++k) len += vdist(&a.straight[size_t(k - 1) * 3], &a.straight[size_t(k) * 3]);
  a.length = len;
  a.metric = ns > 0 ? straightPathLength(a.straight.data(), a.straightFlags.data(), ns) : -1.0f;
  return a;
}

Status explainQuery(const NavMesh& mesh, const QueryFilter& filter, const Query& query, const ExplainOptions& opts,
                    Explanation& out, std::string* why) {
  out = Explanation();
  if (!opts.validate(why)) return FAILURE | INVALID_PARAM;
  if (query.nodeBudget < 1 || query.nodeBudget > kMaxBudget) {
    if (why) *why = fmt("the node budget %d is outside 1..%d", query.nodeBudget, kMaxBudget);
    return FAILURE | INVALID_PARAM;
  }
  for (int c = 0; c < 3; ++c)
    if (!std::isfinite(query.start[size_t(c)]) || !std::isfinite(query.end[size_t(c)]) ||
        !(query.halfExtents[size_t(c)] > 0 && query.halfExtents[size_t(c)] < 1e6f)) {
      if (why) *why = "the start, end and half extents must be finite (extents > 0)";
      return FAILURE | INVALID_PARAM;
    }
  if (mesh.tileCount() <= 0) {
    if (why) *why = "the navmesh has no tiles";
    return FAILURE | INVALID_PARAM;
  }
  out.answer = runQuery(mesh, filter, query);
  if (statusDetail(out.answer.status, OUT_OF_MEMORY) && statusFailed(out.answer.status)) {
    if (why) *why = "cannot allocate the query's node pool";
    return FAILURE | OUT_OF_MEMORY;
  }
  Explainer x{mesh, filter, query, opts, out};
  const Answer& A = out.answer;
  if (!A.startRef && !x.snapMissing(true, why)) return FAILURE | INVALID_PARAM;
  if (!A.endRef && !x.snapMissing(false, why)) return FAILURE | INVALID_PARAM;
  if (!A.startRef || !A.endRef) return SUCCESS;
  x.snapOtherFloor(true);
  x.snapOtherFloor(false);
  if (!A.reached) {
    if (!x.budget() && !x.filterFlags(false)) x.islandsAndLinks();
    return SUCCESS;
  }
  x.areaCosts();
  x.filterFlags(true);
  x.detour();
  return SUCCESS;
}

std::vector<std::string> describeCauses(const Explanation& e) {
  std::vector<std::string> lines;
  for (const Cause& c : e.causes) {
    const Answer& r = c.counterfactual.result;
    lines.push_back(fmt("%s: %s [checked: %s -> %s, %.2f m]", causeName(c.kind), c.text.c_str(),
                        c.counterfactual.text.c_str(), r.reached ? "complete" : "not complete", double(r.length)));
  }
  return lines;
}

} // namespace nav::explain
