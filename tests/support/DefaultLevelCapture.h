// DefaultLevelCapture.h: a small path capture on the committed default level for the viewer's
// capture tests (tests/model/CaptureSessionTest.cpp, tests/app/CaptureViewerTest.cpp): three
// queries as a game asks them, answered by NavBench's nav (CaptureMaker.h).
#pragma once

#include "tests/support/CaptureMaker.h"

namespace capturetest {

/// Hall A -> room D (29 polys); the same with 8 nodes, walk flags only, door polys excluded and
/// area 1 at cost 10 (out of nodes: a partial path); a ray from the ramp foot into a wall (hit).
inline nav::Capture defaultLevelCapture(const nav::NavMesh& mesh) {
  const float a[3] = {2, 0, 2}, d[3] = {55, 0, 45}, rs[3] = {4, 0, 24}, re[3] = {30, 0, 10};
  auto spec = [](nav::CaptureKind kind, const float* s, const float* e, const char* note) {
    QuerySpec q;
    q.kind = kind;
    for (int k = 0; k < 3; ++k) {
      q.start[k] = s[k];
      q.end[k] = e[k];
    }
    q.note = note;
    return q;
  };
  QuerySpec tiny = spec(nav::CAPTURE_PATH, a, d, "tiny node budget");
  tiny.maxNodes = 8;
  tiny.include = 0x0001;
  tiny.exclude = 0x0010;
  tiny.costs[1] = 10.0f;
  nav::Capture cap;
  cap.queries.push_back(makeQuery(mesh, spec(nav::CAPTURE_PATH, a, d, "hall A to room D")));
  cap.queries.push_back(makeQuery(mesh, tiny));
  cap.queries.push_back(makeQuery(mesh, spec(nav::CAPTURE_RAYCAST, rs, re, "into the ramp room wall")));
  return cap;
}

} // namespace capturetest
