// TestCaseJson.h: the JSON record of one run test case, as `navbench query --json` writes it (one
// object a line; coordinates with 4 decimals, t with 6, statuses as "0x..." hex). Header-only and
// std-only, templated on the case and result types, so the Detour harness
// (tests/bench/DetourQueryHarness.cpp) writes byte-comparable records from its own types.
//
// Case: s[3], e[3], inc, exc. Result: startRef, ns[3], endRef, ne[3], pathStatus, straightStatus,
// rayStatus, polys, straight [(x, y, z) * n], straightFlags, straightRefs, smooth [(x, y, z) * n],
// t, normal[3], hitPos[3]. The status bits PARTIAL_RESULT and OUT_OF_NODES are passed in (nav's and
// Detour's have the same values).
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace navbench::testcase_json {

inline void appendNum(std::string& o, const char* fmt, double v) {
  char b[64];
  std::snprintf(b, sizeof b, fmt, v);
  o += b;
}
inline void appendVec(std::string& o, const float* v) {
  char b[96];
  std::snprintf(b, sizeof b, "[%.4f,%.4f,%.4f]", double(v[0]), double(v[1]), double(v[2]));
  o += b;
}
/// [[x,y,z],...] of a flat [(x, y, z) * n] array.
inline void appendPts(std::string& o, const std::vector<float>& pts) {
  o += '[';
  for (size_t i = 0; i + 2 < pts.size(); i += 3) {
    if (i) o += ',';
    appendVec(o, &pts[i]);
  }
  o += ']';
}
template <class T> void appendInts(std::string& o, const std::vector<T>& v) {
  o += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) o += ',';
    o += std::to_string(uint64_t(v[i]));
  }
  o += ']';
}
inline void appendHex(std::string& o, uint32_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "\"0x%x\"", v);
  o += b;
}
/// Length of a polyline [(x, y, z) * n] [Unit: wu]
inline float polylineLength(const std::vector<float>& pts) {
  float len = 0;
  for (size_t i = 3; i + 2 < pts.size(); i += 3) {
    const float dx = pts[i] - pts[i - 3], dy = pts[i + 1] - pts[i - 2], dz = pts[i + 2] - pts[i - 1];
    len += std::sqrt(dx * dx + dy * dy + dz * dz);
  }
  return len;
}

/// Appends case i's record and a newline. `pfExtra` (",\"key\":value..." or "") goes at the end of
/// a pf record (navbench's --optimal fields).
template <class Case, class Result>
void appendRecord(std::string& o, size_t i, bool raycast, const Case& c, const Result& r, uint32_t partialBit,
                  uint32_t outOfNodesBit, const std::string& pfExtra = std::string()) {
  o += "{\"i\":" + std::to_string(i) + ",\"op\":\"" + (raycast ? "rc" : "pf") + "\",\"s\":";
  appendVec(o, c.s);
  o += ",\"e\":";
  appendVec(o, c.e);
  o += ",\"inc\":";
  appendHex(o, uint32_t(c.inc));
  o += ",\"exc\":";
  appendHex(o, uint32_t(c.exc));
  o += ",\"startRef\":" + std::to_string(uint64_t(r.startRef)) + ",\"ns\":";
  appendVec(o, r.ns);
  if (!raycast) {
    o += ",\"endRef\":" + std::to_string(uint64_t(r.endRef)) + ",\"ne\":";
    appendVec(o, r.ne);
    o += std::string(",\"found\":") + (!r.polys.empty() && r.polys.back() == r.endRef ? "true" : "false");
    o += ",\"pathStatus\":";
    appendHex(o, uint32_t(r.pathStatus));
    o += std::string(",\"partial\":") + ((uint32_t(r.pathStatus) & partialBit) ? "true" : "false");
    o += std::string(",\"outOfNodes\":") + ((uint32_t(r.pathStatus) & outOfNodesBit) ? "true" : "false");
    o += ",\"npolys\":" + std::to_string(r.polys.size()) + ",\"polys\":";
    appendInts(o, r.polys);
    o += ",\"straightStatus\":";
    appendHex(o, uint32_t(r.straightStatus));
    o += ",\"nstraight\":" + std::to_string(r.straightFlags.size()) + ",\"straightLen\":";
    appendNum(o, "%.4f", double(polylineLength(r.straight)));
    o += ",\"straight\":";
    appendPts(o, r.straight);
    o += ",\"straightFlags\":";
    appendInts(o, r.straightFlags);
    o += ",\"straightRefs\":";
    appendInts(o, r.straightRefs);
    o += ",\"nsmooth\":" + std::to_string(r.smooth.size() / 3) + ",\"smoothLen\":";
    appendNum(o, "%.4f", double(polylineLength(r.smooth)));
    o += ",\"smoothLast\":";
    if (r.smooth.size() >= 3) appendVec(o, &r.smooth[r.smooth.size() - 3]);
    else o += "null";
    o += pfExtra;
  } else {
    o += ",\"rayStatus\":";
    appendHex(o, uint32_t(r.rayStatus));
    o += ",\"t\":";
    if (r.t == FLT_MAX) o += "3.402823e+38";
    else appendNum(o, "%.6f", double(r.t));
    o += std::string(",\"hit\":") + (r.startRef && r.t <= 1 ? "true" : "false") + ",\"normal\":";
    appendVec(o, r.normal);
    o += ",\"npath\":" + std::to_string(r.polys.size()) + ",\"path\":";
    appendInts(o, r.polys);
    o += ",\"hitPos\":";
    appendVec(o, r.hitPos);
  }
  o += "}\n";
}

} // namespace navbench::testcase_json
