// TestCaseRun.cpp: see TestCaseRun.h.
#include "app/model/TestCaseRun.h"

#include "nav/HierPlanner.h"
#include "nav/NavMath.h"
#include "nav/NavMeshQuery.h"
#include "nav/PathFollow.h"
#include "nav/ShortestPath.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>

namespace navbench {
namespace {

using Clock = std::chrono::steady_clock;
double usSince(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

} // namespace

const char* const kTestCaseOpNames[TC_OP_COUNT] = {"findNearestPoly", "findPath", "findStraightPath",
                                                   "smoothPath",      "raycast",  "shortestPath"};

float TestCaseResult::straightLength() const {
  float len = 0;
  for (size_t i = 3; i + 2 < straight.size(); i += 3) len += nav::vdist(&straight[i - 3], &straight[i]);
  return len;
}

void TestCaseResult::reset() {
  TestCaseResult fresh;
  fresh.polys.swap(polys);
  fresh.straight.swap(straight);
  fresh.straightFlags.swap(straightFlags);
  fresh.straightRefs.swap(straightRefs);
  fresh.smooth.swap(smooth);
  fresh.optPath.swap(optPath);
  fresh.polys.clear();
  fresh.straight.clear();
  fresh.straightFlags.clear();
  fresh.straightRefs.clear();
  fresh.smooth.clear();
  fresh.optPath.clear();
  *this = std::move(fresh);
}

TestCaseRunner::TestCaseRunner()
    : m_polys(kTestCaseMaxPolys), m_srefs(kTestCaseMaxPolys), m_straight(size_t(kTestCaseMaxPolys) * 3),
      m_smooth(size_t(kTestCaseMaxPolys) * 3), m_sflags(kTestCaseMaxPolys) {}

void TestCaseRunner::run(nav::NavMeshQuery& q, nav::ShortestPath* opt, const TestCase& c, TestCaseResult& r,
                         TestCaseTimes* times) {
  static const float ext[3] = {2, 4, 2};
  TestCaseTimes local;
  TestCaseTimes& tm = times ? *times : local;
  r.reset();
  nav::QueryFilter filter;
  filter.setIncludeFlags(c.inc);
  filter.setExcludeFlags(c.exc);
  const auto caseStart = Clock::now();
  struct Total { // r.us = the whole case, however it returns
    TestCaseResult& r;
    Clock::time_point t0;
    ~Total() { r.us = usSince(t0); }
  } total{r, caseStart};

  auto t0 = Clock::now();
  q.findNearestPoly(c.s, ext, &filter, &r.startRef, r.ns);
  q.findNearestPoly(c.e, ext, &filter, &r.endRef, r.ne);
  tm.us[TC_NEAREST] += usSince(t0);
  tm.calls[TC_NEAREST] += 2;
  if (!r.startRef) return;

  if (!c.raycast) {
    if (!r.endRef) return;
    int npolys = 0;
    t0 = Clock::now();
    r.pathStatus = m_hier ? m_hier->findPath(r.startRef, r.endRef, c.s, c.e, &filter, m_polys.data(), &npolys,
                                             kTestCaseMaxPolys)
                          : q.findPath(r.startRef, r.endRef, c.s, c.e, &filter, m_polys.data(), &npolys,
                                       kTestCaseMaxPolys);
    tm.us[TC_PATH] += usSince(t0);
    tm.calls[TC_PATH]++;
    r.polys.assign(m_polys.begin(), m_polys.begin() + npolys);
    if (!npolys) return;
    int ns = 0;
    t0 = Clock::now();
    r.straightStatus = q.findStraightPath(c.s, c.e, m_polys.data(), npolys, m_straight.data(), m_sflags.data(),
                                          m_srefs.data(), &ns, kTestCaseMaxPolys);
    tm.us[TC_STRAIGHT] += usSince(t0);
    tm.calls[TC_STRAIGHT]++;
    r.straight.assign(m_straight.begin(), m_straight.begin() + ns * 3);
    r.straightFlags.assign(m_sflags.begin(), m_sflags.begin() + ns);
    r.straightRefs.assign(m_srefs.begin(), m_srefs.begin() + ns);
    int nsm = 0;
    t0 = Clock::now();
    r.smoothStatus = nav::findSmoothPath(&q, &filter, r.startRef, c.s, c.e, m_polys.data(), npolys, m_smooth.data(),
                                         &nsm, kTestCaseMaxPolys);
    tm.us[TC_SMOOTH] += usSince(t0);
    tm.calls[TC_SMOOTH]++;
    r.smooth.assign(m_smooth.begin(), m_smooth.begin() + nsm * 3);
    if (opt) {
      int nopt = 0;
      float len = 0;
      t0 = Clock::now();
      const nav::Status st = opt->findPath(r.startRef, r.endRef, c.s, c.e, &filter, m_straight.data(), m_sflags.data(),
                                           m_srefs.data(), &nopt, kTestCaseMaxPolys, nullptr, nullptr, 0, &len);
      tm.us[TC_OPTIMAL] += usSince(t0);
      tm.calls[TC_OPTIMAL]++;
      r.hasOpt = nav::statusSucceeded(st) && !(st & nav::PARTIAL_RESULT) && nopt > 0;
      r.optLen = len;
      r.optPath.assign(m_straight.begin(), m_straight.begin() + nopt * 3);
    }
  } else {
    int npath = 0;
    t0 = Clock::now();
    r.rayStatus = q.raycast(r.startRef, c.s, c.e, &filter, &r.t, r.normal, m_polys.data(), &npath, kTestCaseMaxPolys);
    tm.us[TC_RAYCAST] += usSince(t0);
    tm.calls[TC_RAYCAST]++;
    r.polys.assign(m_polys.begin(), m_polys.begin() + npath);
    if (r.t > 1) nav::vcopy(r.hitPos, c.e);
    else nav::vlerp(r.hitPos, c.s, c.e, r.t);
  }
}

std::string resultStatus(const TestCase& c, const TestCaseResult& r) {
  if (!r.startRef) return "nostart";
  if (c.raycast) {
    if (nav::statusFailed(r.rayStatus)) return "failed";
    return r.t <= 1 ? "hit" : "clear";
  }
  if (!r.endRef) return "noend";
  if (nav::statusFailed(r.pathStatus)) return "failed";
  return r.found() && !(r.pathStatus & nav::PARTIAL_RESULT) ? "complete" : "partial";
}

TestCaseExpect expectFromResult(const TestCase& c, const TestCaseResult& r) {
  TestCaseExpect e;
  e.present = true;
  e.status = resultStatus(c, r);
  if (!c.raycast) {
    e.corridor = int(r.polys.size());
    e.straight = int(r.straightFlags.size());
    e.hasLen = true;
    e.len = r.straightLength();
  } else {
    e.visited = int(r.polys.size());
    if (e.status == "hit") {
      e.hasT = e.hasNormal = true;
      e.t = r.t;
      for (int i = 0; i < 3; ++i) e.normal[i] = r.normal[i];
    }
  }
  return e;
}

bool checkExpect(const TestCase& c, const TestCaseResult& r, std::vector<std::string>* diffs) {
  const TestCaseExpect& x = c.expect;
  if (!x.present) return true;
  const size_t before = diffs->size();
  const std::string status = resultStatus(c, r);
  if (!x.status.empty() && x.status != status) diffs->push_back("status " + status + ", expected " + x.status);
  if (!c.raycast) {
    if (x.corridor >= 0 && x.corridor != int(r.polys.size()))
      diffs->push_back("corridor " + std::to_string(r.polys.size()) + " polys, expected " + std::to_string(x.corridor));
    if (x.straight >= 0 && x.straight != int(r.straightFlags.size()))
      diffs->push_back("straight " + std::to_string(r.straightFlags.size()) + " corners, expected " +
                       std::to_string(x.straight));
    if (x.hasLen) {
      const float len = r.straightLength(), tol = kTestCaseLenTolAbs + kTestCaseLenTolRel * x.len;
      if (!(std::fabs(len - x.len) <= tol))
        diffs->push_back("len " + fmt("%.4f", double(len)) + ", expected " + fmt("%.4f", double(x.len)) + " (tolerance " +
                         fmt("%.4f", double(tol)) + ")");
    }
  } else {
    const bool hit = status == "hit";
    if (x.visited >= 0 && x.visited != int(r.polys.size()))
      diffs->push_back("visited " + std::to_string(r.polys.size()) + " polys, expected " + std::to_string(x.visited));
    if (x.hasT) {
      if (!hit) diffs->push_back("t: no hit (" + status + "), expected t=" + fmt("%.6f", double(x.t)));
      else if (!(std::fabs(r.t - x.t) <= kTestCaseTTol))
        diffs->push_back("t " + fmt("%.6f", double(r.t)) + ", expected " + fmt("%.6f", double(x.t)) + " (tolerance " +
                         fmt("%g", double(kTestCaseTTol)) + ")");
    }
    if (x.hasNormal && hit) {
      bool same = true;
      for (int i = 0; i < 3; ++i) same = same && std::fabs(r.normal[i] - x.normal[i]) <= kTestCaseNormalTol;
      if (!same) {
        char b[160];
        std::snprintf(b, sizeof b, "normal %.5f,%.5f,%.5f, expected %.5f,%.5f,%.5f (tolerance %g)", double(r.normal[0]),
                      double(r.normal[1]), double(r.normal[2]), double(x.normal[0]), double(x.normal[1]),
                      double(x.normal[2]), double(kTestCaseNormalTol));
        diffs->push_back(b);
      }
    }
  }
  return diffs->size() == before;
}

} // namespace navbench
