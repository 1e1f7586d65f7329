// StepperTest.cpp: what the viewer's A* stepper relies on (issue 7). The search is stepped one
// expansion at a time, stepped back by replaying from the start, and explained through the
// SearchObserver's relax events. On the project's default level (its committed default.bin and a
// randomized bake of default.obj with random areas, flags and off-mesh links) and, when present,
// the shared levels:
//   (a) stepping k times one by one leaves the same open/closed sets, g and totals as a fresh
//       search run for k expansions at once (updateSlicedFindPath(k); findPath stopped by the
//       observer after k expansions equals the state its full run had at that point);
//   (b) stepping back (replay to k-1) then forward returns to the same state;
//   (c) the final corridor equals findPath's, for every cost model, with and without an observer;
//   (d) the relax events are consistent with what the expansion did to the nodes;
//   (e) a partial search ends at the node nearest the goal.
#include "DualMesh.h"

#include "nav/NavMath.h"
#include "nav/NodePool.h"
#include "nav/TileSetFile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace querytest;

namespace {

/// The ways the stepper can run A*.
enum Engine { FINDPATH, FINDPATH_CLOSEST, SLICED, SLICED_ANY_ANGLE, ENGINE_COUNT };
const char* const kEngineNames[ENGINE_COUNT] = {"findPath", "findPath closest point", "sliced", "sliced any-angle"};

bool isSliced(Engine e) { return e == SLICED || e == SLICED_ANY_ANGLE; }
int findPathOptions(Engine e) {
  return e == FINDPATH_CLOSEST ? nav::FINDPATH_CLOSEST_POINT : e == SLICED_ANY_ANGLE ? nav::FINDPATH_ANY_ANGLE : 0;
}

/// Records the last expansion's events; stops findPath after stopAt expansions.
struct Recorder : nav::SearchObserver {
  int stopAt = INT_MAX;
  int expansions = 0;
  const nav::Node* expanded = nullptr;
  std::vector<nav::RelaxEvent> events;
  std::function<void(int)> before; ///< Called at every beforeExpand (snapshots).
  std::function<void()> afterExpansion; ///< Called when an expansion's events are complete (next pop or end).
  bool beforeExpand(int done) override {
    if (afterExpansion && expanded) afterExpansion();
    if (before) before(done);
    return done < stopAt;
  }
  void onExpand(const nav::Node& n) override {
    ++expansions;
    expanded = &n;
    events.clear();
  }
  void onRelax(const nav::RelaxEvent& e) override { events.push_back(e); }
  void clear() {
    expansions = 0;
    expanded = nullptr;
    events.clear();
  }
};

/// One node as the stepper shows it.
struct NodeState {
  nav::PolyRef id;
  uint8_t state, flags;
  nav::PolyRef parentId;
  uint8_t parentState;
  float cost, total, pos[3];
  bool operator==(const NodeState& o) const {
    return id == o.id && state == o.state && flags == o.flags && parentId == o.parentId &&
           parentState == o.parentState && cost == o.cost && total == o.total && pos[0] == o.pos[0] &&
           pos[1] == o.pos[1] && pos[2] == o.pos[2];
  }
  bool operator<(const NodeState& o) const { return std::tie(id, state) < std::tie(o.id, o.state); }
};

struct SearchState {
  std::vector<NodeState> nodes; ///< Sorted by (id, state).
  std::vector<nav::PolyRef> open, closed;
  nav::PolyRef lastExpanded = 0, best = 0;
  bool operator==(const SearchState& o) const {
    return nodes == o.nodes && open == o.open && closed == o.closed && lastExpanded == o.lastExpanded && best == o.best;
  }
  bool operator!=(const SearchState& o) const { return !(*this == o); }
};

void PrintTo(const SearchState& s, std::ostream* os) {
  *os << s.nodes.size() << " nodes, " << s.open.size() << " open, " << s.closed.size() << " closed, last expanded "
      << s.lastExpanded << ", best " << s.best;
}

SearchState snapshot(const nav::SearchView& v) {
  SearchState s;
  for (int i = 0; i < v.nodeCount; ++i) {
    const nav::Node& n = v.pool->nodeAt(i);
    NodeState ns{};
    ns.id = n.id;
    ns.state = n.state;
    ns.flags = uint8_t(n.flags & (nav::NODE_OPEN | nav::NODE_CLOSED | nav::NODE_PARENT_DETACHED));
    if (const nav::Node* p = v.parentOf(n)) {
      ns.parentId = p->id;
      ns.parentState = p->state;
    }
    ns.cost = n.cost;
    ns.total = n.total;
    nav::vcopy(ns.pos, n.pos);
    s.nodes.push_back(ns);
    if (n.flags & nav::NODE_OPEN) s.open.push_back(n.id);
    if (n.flags & nav::NODE_CLOSED) s.closed.push_back(n.id);
  }
  std::sort(s.nodes.begin(), s.nodes.end());
  std::sort(s.open.begin(), s.open.end());
  std::sort(s.closed.begin(), s.closed.end());
  s.lastExpanded = v.lastExpanded ? v.lastExpanded->id : 0;
  s.best = v.bestNode ? v.bestNode->id : 0;
  return s;
}

/// A level to test on.
struct TestLevel {
  std::string name;
  const nav::NavMesh* mesh = nullptr;
};

/// The committed default.bin (what the viewer opens), loaded once.
const nav::NavMesh* defaultBin(std::string* why) {
  static std::unique_ptr<nav::NavMesh> mesh;
  static std::string error;
  static bool tried = false;
  if (!tried) {
    tried = true;
    auto m = std::make_unique<nav::NavMesh>();
    const std::string path = std::string(NAVBENCH_SOURCE_DIR) + "/assets/levels/default.bin";
    if (nav::statusSucceeded(nav::loadTileSetFile(path, *m, &error))) mesh = std::move(m);
    else error = path + ": " + error;
  }
  if (!mesh && why) *why = error;
  return mesh.get();
}

/// A query problem: two points and a filter.
struct Pair {
  nav::PolyRef a = 0, b = 0;
  float pa[3] = {0, 0, 0}, pb[3] = {0, 0, 0};
};

class Stepper : public ::testing::TestWithParam<const char*> {
protected:
  void SetUp() override {
    const std::string level = GetParam();
    std::string why;
    if (level == "default.bin") {
      mesh = defaultBin(&why);
      ASSERT_NE(mesh, nullptr) << why;
    } else if (level == "default") {
      const DualMesh* dm = loadDual(defaultLevel(), true, true, &why);
      ASSERT_NE(dm, nullptr) << why;
      mesh = &dm->nav;
    } else {
      const std::string path = sharedLevel((level + ".obj").c_str());
      if (path.empty()) GTEST_SKIP() << "shared levels not found at " << NAVBENCH_SHARED_DIR << "/levels";
      const DualMesh* dm = loadDual(path, true, true, &why);
      ASSERT_NE(dm, nullptr) << why;
      mesh = &dm->nav;
    }
    ASSERT_TRUE(nav::statusSucceeded(q.init(mesh, 4096)));
    ASSERT_TRUE(nav::statusSucceeded(fresh.init(mesh, 4096)));
    seedRandom(std::hash<std::string>()(level) ^ 0x5713);
  }
  void TearDown() override {
    q.setSearchObserver(nullptr);
    fresh.setSearchObserver(nullptr);
  }

  Pair randomPair() {
    Pair p;
    nav::QueryFilter all;
    while (!p.a || !p.b) {
      q.findRandomPoint(&all, frand, &p.a, p.pa);
      q.findRandomPoint(&all, frand, &p.b, p.pb);
    }
    return p;
  }
  /// Filter i: 0 = default; 1 = area costs 1..4 and a heuristic scale of 0.9; 2 = an excluded flag
  /// (FILTERED events, partial results); 3 = entering costs (the generic cost path).
  static nav::QueryFilter filter(int i) {
    nav::QueryFilter f;
    if (i == 1) {
      for (int a = 0; a < 8; ++a) f.setAreaCost(a, 1.0f + float(a % 4));
      f.setHeuristicScale(0.9f);
    } else if (i == 2) {
      f.setExcludeFlags(0x02 | 0x04);
    } else if (i == 3) {
      f.setAreaEnterCost(2, 3.0f);
      f.setAreaCost(1, 2.0f);
    }
    return f;
  }

  /// Runs `e` from scratch for k expansions (INT_MAX: to the end) on query `qq`. rec: observer (null:
  /// none, except that findPath needs one to stop before the end). corridor: the final (or, for a
  /// stopped findPath, best-so-far) corridor; finalizes a finished sliced search. Returns the status.
  static nav::Status runTo(nav::NavMeshQuery& qq, Engine e, const Pair& p, const nav::QueryFilter& f, int k,
                           Recorder* rec, std::vector<nav::PolyRef>* corridor = nullptr) {
    Recorder local;
    if (!rec && !isSliced(e) && k != INT_MAX) rec = &local;
    qq.setSearchObserver(rec);
    if (rec) {
      rec->clear();
      rec->stopAt = k;
    }
    nav::Status st;
    std::vector<nav::PolyRef> path(4096);
    int n = 0;
    if (isSliced(e)) {
      st = qq.initSlicedFindPath(p.a, p.b, p.pa, p.pb, &f, findPathOptions(e));
      if (k > 0 && nav::statusInProgress(st)) st = qq.updateSlicedFindPath(k, nullptr);
      if (corridor && !nav::statusInProgress(st)) {
        st = qq.finalizeSlicedFindPath(path.data(), &n, int(path.size()));
        corridor->assign(path.begin(), path.begin() + n);
      }
    } else {
      st = qq.findPath(p.a, p.b, p.pa, p.pb, &f, path.data(), &n, int(path.size()), findPathOptions(e));
      if (corridor) corridor->assign(path.begin(), path.begin() + n);
    }
    qq.setSearchObserver(nullptr);
    return st;
  }
  /// Expansions of the whole search.
  int totalExpansions(Engine e, const Pair& p, const nav::QueryFilter& f) {
    Recorder rec;
    runTo(fresh, e, p, f, INT_MAX, &rec);
    return rec.expansions;
  }

  const nav::NavMesh* mesh = nullptr;
  nav::NavMeshQuery q, fresh;
};

/// Links of a polygon with a neighbour (what an expansion considers).
int linkCount(const nav::NavMesh& mesh, nav::PolyRef ref) {
  const nav::MeshTile* tile = nullptr;
  const nav::Poly* poly = nullptr;
  if (nav::statusFailed(mesh.getTileAndPolyByRef(ref, &tile, &poly))) return -1;
  int n = 0;
  for (uint32_t i = poly->firstLink; i != nav::NULL_LINK; i = tile->links[i].next)
    if (tile->links[i].ref) ++n;
  return n;
}

// (a) sliced: k single steps == one update of k iterations; findPath: stopped after k == its full
// run's state after k expansions.
TEST_P(Stepper, SteppingOneByOneEqualsAFreshSearchOfKSteps) {
  int compared = 0;
  for (int e = 0; e < ENGINE_COUNT; ++e) {
    for (int i = 0; i < 12; ++i) {
      const Pair p = randomPair();
      const nav::QueryFilter f = filter(i % 4);
      const Engine engine = Engine(e);
      SCOPED_TRACE(std::string(kEngineNames[e]) + " pair " + std::to_string(i));
      if (isSliced(engine)) {
        nav::Status st = q.initSlicedFindPath(p.a, p.b, p.pa, p.pb, &f, findPathOptions(engine));
        int k = 0;
        while (nav::statusInProgress(st) && k < 400) {
          int done = 0;
          st = q.updateSlicedFindPath(1, &done);
          ASSERT_EQ(done, 1);
          ++k;
          runTo(fresh, engine, p, f, k, nullptr);
          ASSERT_EQ(snapshot(q.searchView()), snapshot(fresh.searchView())) << "after " << k << " steps";
          ++compared;
        }
      } else {
        // The states a full observed run passes through...
        std::vector<SearchState> states;
        Recorder rec;
        rec.before = [&](int done) {
          if (done < 400) states.push_back(snapshot(q.searchView()));
        };
        runTo(q, engine, p, f, INT_MAX, &rec);
        // beforeExpand runs before each pop: expansions 0 .. total-1.
        ASSERT_EQ(states.size(), size_t(std::min(rec.expansions, 400)));
        // ...equal a run stopped after k expansions, for every k.
        for (int k = 0; k < int(states.size()); ++k) {
          Recorder stop;
          const nav::Status st = runTo(fresh, engine, p, f, k, &stop);
          EXPECT_TRUE(nav::statusInProgress(st)) << k;
          EXPECT_EQ(stop.expansions, k);
          ASSERT_EQ(snapshot(fresh.searchView()), states[size_t(k)]) << "after " << k << " expansions";
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 100);
}

// (b) replaying to k-1 then stepping forward once gives the state of k.
TEST_P(Stepper, StepBackThenForwardReturnsToTheSameState) {
  int compared = 0;
  for (int e = 0; e < ENGINE_COUNT; ++e) {
    const Engine engine = Engine(e);
    for (int i = 0; i < 10; ++i) {
      const Pair p = randomPair();
      const nav::QueryFilter f = filter(i % 4);
      const int total = totalExpansions(engine, p, f);
      for (int k = 1; k <= total; k += std::max(1, total / 7)) {
        SCOPED_TRACE(std::string(kEngineNames[e]) + " k " + std::to_string(k));
        runTo(q, engine, p, f, k, nullptr);
        const SearchState atK = snapshot(q.searchView());
        runTo(q, engine, p, f, k - 1, nullptr); // back
        EXPECT_NE(snapshot(q.searchView()), atK);
        if (isSliced(engine)) {
          q.updateSlicedFindPath(1, nullptr); // forward: continue the replayed search
        } else {
          runTo(q, engine, p, f, k, nullptr); // forward: findPath cannot resume, it replays
        }
        ASSERT_EQ(snapshot(q.searchView()), atK);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 40);
}

// (c) the corridor at the end of a stepped search is the one-shot search's, and an observer changes
// no answer.
TEST_P(Stepper, FinalCorridorEqualsFindPath) {
  int compared = 0, slicedDiffersFromFindPath = 0, slicedCompared = 0;
  std::vector<nav::PolyRef> reference, observed, stepped, viaFindPath;
  for (int i = 0; i < 60; ++i) {
    const Pair p = randomPair();
    const nav::QueryFilter f = filter(i % 4);
    for (int e = 0; e < ENGINE_COUNT; ++e) {
      const Engine engine = Engine(e);
      SCOPED_TRACE(std::string(kEngineNames[e]) + " pair " + std::to_string(i));
      // The search without an observer, all at once (findPath: its inlined loop) is the reference.
      const nav::Status ref = runTo(fresh, engine, p, f, INT_MAX, nullptr, &reference);
      // findPath with the same options gives it too (findPath's any-angle runs the sliced search).
      if (engine != SLICED) {
        std::vector<nav::PolyRef> buf(4096);
        int n = 0;
        EXPECT_EQ(q.findPath(p.a, p.b, p.pa, p.pb, &f, buf.data(), &n, 4096, findPathOptions(engine)), ref);
        viaFindPath.assign(buf.begin(), buf.begin() + n);
        EXPECT_EQ(viaFindPath, reference);
      }
      // With an observer that never stops.
      Recorder rec;
      EXPECT_EQ(runTo(q, engine, p, f, INT_MAX, &rec, &observed), ref);
      EXPECT_EQ(observed, reference);
      // Stepped one expansion at a time (sliced: update(1); findPath: replay to k until done).
      nav::Status st;
      if (isSliced(engine)) {
        std::vector<nav::PolyRef> buf(4096);
        int n = 0;
        q.setSearchObserver(&rec);
        st = q.initSlicedFindPath(p.a, p.b, p.pa, p.pb, &f, findPathOptions(engine));
        while (nav::statusInProgress(st)) st = q.updateSlicedFindPath(1, nullptr);
        q.setSearchObserver(nullptr);
        st = q.finalizeSlicedFindPath(buf.data(), &n, 4096);
        stepped.assign(buf.begin(), buf.begin() + n);
        if (engine == SLICED && p.a != p.b) {
          // Detour's sliced search keeps one node per poly and skips neighbours already hanging off
          // the same parent, so it may pick another corridor than findPath: counted, not asserted.
          runTo(fresh, FINDPATH, p, f, INT_MAX, nullptr, &viaFindPath);
          ++slicedCompared;
          if (viaFindPath != stepped) ++slicedDiffersFromFindPath;
        }
      } else {
        const int total = rec.expansions;
        int k = 0;
        do {
          st = runTo(q, engine, p, f, ++k, nullptr, &stepped);
        } while (nav::statusInProgress(st) && k <= total + 1);
        EXPECT_EQ(k, std::max(total, 1));
      }
      EXPECT_EQ(st, ref);
      EXPECT_EQ(stepped, reference);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 60 * ENGINE_COUNT);
  RecordProperty("slicedCorridorDiffersFromFindPath", std::to_string(slicedDiffersFromFindPath) + "/" +
                                                         std::to_string(slicedCompared));
}

// (d) every link gets one event; accepted neighbours are exactly the nodes the expansion changed;
// the numbers explain the decision.
TEST_P(Stepper, RelaxEventsExplainTheExpansion) {
  int expansions = 0, accepted = 0, worse = 0, filtered = 0, better = 0, shortcuts = 0;
  for (int e = 0; e < ENGINE_COUNT; ++e) {
    const Engine engine = Engine(e);
    for (int i = 0; i < 12; ++i) {
      const Pair p = randomPair();
      const nav::QueryFilter f = filter(i % 4);
      SCOPED_TRACE(std::string(kEngineNames[e]) + " pair " + std::to_string(i));
      const int total = std::min(totalExpansions(engine, p, f), 150);
      SearchState before;
      runTo(q, engine, p, f, 0, nullptr);
      before = snapshot(q.searchView());
      for (int k = 1; k <= total; ++k) {
        Recorder rec;
        runTo(q, engine, p, f, k, &rec);
        const nav::SearchView v = q.searchView();
        const SearchState after = snapshot(v);
        ASSERT_NE(rec.expanded, nullptr);
        ASSERT_EQ(rec.expanded, v.lastExpanded);
        const nav::Node& x = *rec.expanded;
        ++expansions;
        // One event per link (none when the end was popped: the search stops there).
        if (x.id == p.b) {
          EXPECT_TRUE(rec.events.empty());
        } else {
          EXPECT_EQ(int(rec.events.size()), linkCount(*mesh, x.id)) << "k " << k;
        }
        // Nodes changed or created by this expansion, apart from the expanded node itself.
        std::set<std::pair<nav::PolyRef, uint8_t>> changed;
        std::map<std::pair<nav::PolyRef, uint8_t>, NodeState> old;
        for (const NodeState& n : before.nodes) old[{n.id, n.state}] = n;
        for (const NodeState& n : after.nodes) {
          if (n.id == x.id && n.state == x.state) continue;
          auto it = old.find({n.id, n.state});
          if (it == old.end() || !(it->second == n)) changed.insert({n.id, n.state});
        }
        std::set<std::pair<nav::PolyRef, uint8_t>> acceptedNodes;
        std::map<const nav::Node*, size_t> lastEventOf; // a node can be relaxed twice (two links)
        for (size_t j = 0; j < rec.events.size(); ++j)
          if (rec.events[j].node) lastEventOf[rec.events[j].node] = j;
        for (size_t j = 0; j < rec.events.size(); ++j) {
          const nav::RelaxEvent& ev = rec.events[j];
          const bool lastForNode = ev.node && lastEventOf[ev.node] == j;
          EXPECT_EQ(ev.parent, x.id);
          EXPECT_LT(ev.result, nav::RELAX_RESULT_COUNT);
          switch (ev.result) {
          case nav::RELAX_ACCEPT_NEW:
          case nav::RELAX_ACCEPT_BETTER: {
            ASSERT_NE(ev.node, nullptr);
            ++accepted;
            acceptedNodes.insert({ev.node->id, ev.node->state});
            EXPECT_EQ(ev.node->id, ev.neighbour);
            if (lastForNode) {
              EXPECT_EQ(ev.node->total, ev.total);
              EXPECT_EQ(ev.node->cost, ev.cost);
            }
            EXPECT_FLOAT_EQ(ev.cost + ev.heuristic, ev.total);
            EXPECT_TRUE(ev.node->flags & nav::NODE_OPEN);
            const nav::Node* parent = v.parentOf(*ev.node);
            if (!lastForNode) break;
            if (ev.shortcut) {
              ++shortcuts;
              EXPECT_EQ(parent, v.parentOf(x));
              EXPECT_TRUE(ev.node->flags & nav::NODE_PARENT_DETACHED);
            } else {
              EXPECT_EQ(parent, &x);
            }
            const bool reachedBefore = (ev.previousFlags & (nav::NODE_OPEN | nav::NODE_CLOSED)) != 0;
            EXPECT_EQ(ev.result == nav::RELAX_ACCEPT_BETTER, reachedBefore);
            if (reachedBefore) {
              ++better;
              EXPECT_LT(ev.total, ev.previousTotal);
            }
            break;
          }
          case nav::RELAX_REJECT_WORSE:
            ++worse;
            ASSERT_NE(ev.node, nullptr);
            EXPECT_TRUE(ev.previousFlags & (nav::NODE_OPEN | nav::NODE_CLOSED));
            EXPECT_FALSE(ev.total < ev.previousTotal);
            if (lastForNode) {
              EXPECT_EQ(ev.node->total, ev.previousTotal);
            }
            break;
          case nav::RELAX_REJECT_FILTERED: {
            ++filtered;
            EXPECT_EQ(ev.node, nullptr);
            const nav::MeshTile* t = nullptr;
            const nav::Poly* poly = nullptr;
            ASSERT_TRUE(nav::statusSucceeded(mesh->getTileAndPolyByRef(ev.neighbour, &t, &poly)));
            EXPECT_FALSE(f.passFilter(ev.neighbour, t, poly));
            break;
          }
          case nav::RELAX_REJECT_PARENT:
            ASSERT_NE(v.parentOf(x), nullptr);
            EXPECT_EQ(ev.neighbour, v.parentOf(x)->id);
            break;
          case nav::RELAX_REJECT_SAME_PARENT:
            EXPECT_TRUE(isSliced(engine));
            ASSERT_NE(ev.node, nullptr);
            if (lastForNode) {
              EXPECT_EQ(ev.node->parent, x.parent);
            }
            break;
          case nav::RELAX_REJECT_OUT_OF_NODES:
            ADD_FAILURE() << "a 4096-node pool ran out";
            break;
          default:
            break;
          }
        }
        EXPECT_EQ(acceptedNodes, changed) << "k " << k;
        before = after;
      }
    }
  }
  EXPECT_GT(expansions, 200);
  EXPECT_GT(accepted, 100);
  EXPECT_GT(worse, 20);
  EXPECT_GT(filtered, 0);
  RecordProperty("expansions", expansions);
  RecordProperty("filtered", filtered);
  RecordProperty("acceptedBetter", better);
  RecordProperty("shortcuts", shortcuts);
}

// (d) a tiny node budget: OUT_OF_NODES events exactly when the status says so.
TEST_P(Stepper, OutOfNodesIsReportedPerNeighbour) {
  nav::NavMeshQuery tiny;
  ASSERT_TRUE(nav::statusSucceeded(tiny.init(mesh, 6)));
  int outOfNodesSearches = 0;
  for (int e = 0; e < ENGINE_COUNT; ++e) {
    const Engine engine = Engine(e);
    for (int i = 0; i < 20; ++i) {
      const Pair p = randomPair();
      const nav::QueryFilter f = filter(0);
      Recorder rec;
      int events = 0;
      rec.afterExpansion = [&]() {
        for (const nav::RelaxEvent& ev : rec.events) {
          if (ev.result != nav::RELAX_REJECT_OUT_OF_NODES) continue;
          ++events;
          EXPECT_EQ(ev.node, nullptr);
          EXPECT_EQ(tiny.searchView().nodeCount, 6);
        }
      };
      nav::Status st;
      if (isSliced(engine)) {
        tiny.setSearchObserver(&rec);
        st = tiny.initSlicedFindPath(p.a, p.b, p.pa, p.pb, &f, findPathOptions(engine));
        while (nav::statusInProgress(st)) {
          st = tiny.updateSlicedFindPath(1, nullptr);
          rec.afterExpansion();
          rec.events.clear();
        }
        tiny.setSearchObserver(nullptr);
        std::vector<nav::PolyRef> path(64);
        int n = 0;
        st = tiny.finalizeSlicedFindPath(path.data(), &n, 64);
      } else {
        rec.stopAt = INT_MAX;
        tiny.setSearchObserver(&rec);
        std::vector<nav::PolyRef> path(64);
        int n = 0;
        st = tiny.findPath(p.a, p.b, p.pa, p.pb, &f, path.data(), &n, 64, findPathOptions(engine));
        tiny.setSearchObserver(nullptr);
        if (rec.expanded) rec.afterExpansion(); // the last expansion's events
      }
      EXPECT_EQ(events > 0, nav::statusDetail(st, nav::OUT_OF_NODES)) << kEngineNames[e] << " pair " << i;
      if (events > 0) ++outOfNodesSearches;
    }
  }
  RecordProperty("outOfNodesSearches", outOfNodesSearches);
  EXPECT_GT(outOfNodesSearches, 10);
}

// (e) a search that cannot reach the end stops at the node nearest the goal, stepped or not.
TEST_P(Stepper, PartialSearchEndsAtTheNodeNearestTheGoal) {
  int partial = 0;
  for (int e = 0; e < ENGINE_COUNT; ++e) {
    const Engine engine = Engine(e);
    for (int i = 0; i < 80 && partial < 12 * (e + 1); ++i) {
      const Pair p = randomPair();
      const nav::QueryFilter f = filter(2); // excluded flags: some ends are cut off
      std::vector<nav::PolyRef> corridor;
      const nav::Status st = runTo(q, engine, p, f, INT_MAX, nullptr, &corridor);
      if (!nav::statusDetail(st, nav::PARTIAL_RESULT)) continue;
      ++partial;
      SCOPED_TRACE(std::string(kEngineNames[e]) + " pair " + std::to_string(i));
      // Before finalizing (sliced finalize reverses the corridor's parent links) the view's best
      // node is the one with the smallest distance to the goal.
      runTo(q, engine, p, f, INT_MAX, nullptr);
      const nav::SearchView v = q.searchView();
      ASSERT_NE(v.bestNode, nullptr);
      float nearest = FLT_MAX;
      for (int n = 0; n < v.nodeCount; ++n) {
        const nav::Node& node = v.pool->nodeAt(n);
        if (node.flags & (nav::NODE_OPEN | nav::NODE_CLOSED)) nearest = std::min(nearest, nav::vdist(node.pos, p.pb));
      }
      // (The closest-point model moves nodes after they became the best, so only the others are exact.)
      if (engine != FINDPATH_CLOSEST) {
        EXPECT_LE(nav::vdist(v.bestNode->pos, p.pb), nearest * 1.0001f + 1e-4f);
      }
      ASSERT_FALSE(corridor.empty());
      EXPECT_EQ(corridor.back(), v.bestNode->id);
      EXPECT_EQ(corridor.front(), p.a);
    }
  }
  RecordProperty("partialSearches", partial);
  if (partial == 0) GTEST_SKIP() << "no pair on this level was cut off by the excluded flags";
}

INSTANTIATE_TEST_SUITE_P(Levels, Stepper, ::testing::Values("default.bin", "default", "dungeon", "nav_test"),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                           std::string s = p.param;
                           std::replace(s.begin(), s.end(), '.', '_');
                           return s;
                         });

} // namespace
