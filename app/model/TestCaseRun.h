// TestCaseRun.h: runs one RecastDemo test case (app/model/TestCaseFile.h) and checks it against its
// expected result. Shared by `navbench query` and the viewer's Test cases panel, so both give
// the same numbers.
//
// RecastDemo's conventions: the raw case positions go to findPath / findStraightPath / raycast,
// nearest-poly half extents (2, 4, 2), a query with 2048 nodes, corridors and straight paths up to
// 2048; a QueryFilter with default area costs and the case's include/exclude flags. pf cases also
// run the smoothed path (nav/PathFollow.h), and the exact shortest path when asked.
//
// Check tolerances (counts and statuses are exact):
//   len     |actual - expected| <= 1e-3 wu + 1e-4 * expected  (the file stores 4 decimals)
//   t       |actual - expected| <= 1e-4
//   normal  each component within 1e-3
#pragma once
#include "app/model/TestCaseFile.h"

#include "nav/NavTypes.h"

#include <string>
#include <vector>

namespace nav {
class HierPlanner;
class NavMeshQuery;
class ShortestPath;
} // namespace nav

namespace navbench {

constexpr int kTestCaseMaxNodes = 2048; ///< Node pool of the query cases run with.
constexpr int kTestCaseMaxPolys = 2048; ///< Corridor / straight path / smooth path capacity.
constexpr float kTestCaseLenTolAbs = 1e-3f, kTestCaseLenTolRel = 1e-4f, kTestCaseTTol = 1e-4f,
                kTestCaseNormalTol = 1e-3f;

struct TestCaseResult {
  nav::PolyRef startRef = 0, endRef = 0;
  float ns[3] = {0, 0, 0}, ne[3] = {0, 0, 0}; ///< Nearest points on startRef / endRef.
  nav::Status pathStatus = 0, straightStatus = 0, rayStatus = 0, smoothStatus = 0;
  std::vector<nav::PolyRef> polys;  ///< pf: corridor; rc: visited polys.
  std::vector<float> straight;      ///< [(x, y, z) * corners]
  std::vector<uint8_t> straightFlags;
  std::vector<nav::PolyRef> straightRefs;
  std::vector<float> smooth;        ///< [(x, y, z) * points]
  float t = 0, normal[3] = {0, 0, 0}, hitPos[3] = {0, 0, 0}; ///< rc
  bool hasOpt = false;              ///< The exact shortest path was asked for and found.
  float optLen = 0;
  std::vector<float> optPath;
  double us = 0;                    ///< Wall time of all the case's queries [Unit: µs]

  /// Back to a default-constructed result, keeping the vectors' capacity (no allocation when a
  /// runner re-runs cases into the same results).
  void reset();
  /// pf: the corridor ends at the end poly.
  bool found() const { return !polys.empty() && polys.back() == endRef; }
  float straightLength() const;
};

/// Per-operation times and call counts, summed over cases.
enum TestCaseOp { TC_NEAREST, TC_PATH, TC_STRAIGHT, TC_SMOOTH, TC_RAYCAST, TC_OPTIMAL, TC_OP_COUNT };
extern const char* const kTestCaseOpNames[TC_OP_COUNT];
struct TestCaseTimes {
  double us[TC_OP_COUNT] = {};
  int calls[TC_OP_COUNT] = {};
};

/// Runs cases; owns the scratch buffers (no allocation per case beyond the result vectors).
class TestCaseRunner {
public:
  TestCaseRunner();
  /// Runs `c` on `q` (initialised with kTestCaseMaxNodes nodes for RecastDemo's numbers); `opt`
  /// (may be null) adds the exact shortest path to pf cases. `r` is overwritten; `times` (may be
  /// null) is added to.
  void run(nav::NavMeshQuery& q, nav::ShortestPath* opt, const TestCase& c, TestCaseResult& r, TestCaseTimes* times);
  /// pf cases search with this hierarchical planner (on q's mesh) instead of q.findPath; null =
  /// findPath. The straight and smooth paths still run on q.
  void setHierarchical(nav::HierPlanner* hier) { m_hier = hier; }

private:
  nav::HierPlanner* m_hier = nullptr;
  std::vector<nav::PolyRef> m_polys, m_srefs;
  std::vector<float> m_straight, m_smooth;
  std::vector<uint8_t> m_sflags;
};

/// The result as an expectation with every field (what --write-expected writes).
TestCaseExpect expectFromResult(const TestCase& c, const TestCaseResult& r);
/// Compares `r` with c.expect (the fields it has). Appends one text per difference to `diffs`
/// ("corridor 12, expected 11"); true when there is none (or no expectation).
bool checkExpect(const TestCase& c, const TestCaseResult& r, std::vector<std::string>* diffs);
/// The pf/rc status word of a result ("complete", "hit"...).
std::string resultStatus(const TestCase& c, const TestCaseResult& r);

} // namespace navbench
