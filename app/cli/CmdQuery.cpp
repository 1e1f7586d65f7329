// CmdQuery.cpp: `navbench query MESH.bin CASES.txt [--json OUT.jsonl] [--repeat R] [--optimal]`
//
// Runs a RecastDemo test-case file (RecastDemo/Bin/TestCases format: `pf sx sy sz ex ey ez inc
// exc` and `rc ...` lines; `s`/`f` lines name the sample and level and are ignored here, the mesh
// comes from MESH.bin) with RecastDemo's conventions: the raw case positions go to findPath /
// findStraightPath / raycast, nearest-poly half extents (2, 4, 2), 2048 nodes, corridors and
// straight paths up to 2048. Prints a per-operation timing table (min over the repeats) and
// optionally writes one JSON object per case (coordinates with 4 decimals, statuses as hex).
// --optimal also runs the exact shortest-path search (nav/ShortestPath.h) per pf case and adds
// `optLen` and `optPath` to its record (null when no exact path was found).
#include "app/cli/Cli.h"
#include "app/cli/TestCaseFile.h"

#include "nav/NavMath.h"
#include "nav/NavMeshQuery.h"
#include "nav/PathFollow.h"
#include "nav/ShortestPath.h"
#include "nav/TileSetFile.h"

#include <cfloat>
#include <chrono>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int MAX_POLYS = 2048;
constexpr int MAX_SMOOTH = 2048;

struct Result {
  nav::PolyRef startRef = 0, endRef = 0;
  float ns[3] = {0, 0, 0}, ne[3] = {0, 0, 0};
  nav::Status pathStatus = 0, straightStatus = 0, rayStatus = 0, smoothStatus = 0;
  std::vector<nav::PolyRef> polys;
  std::vector<float> straight;
  std::vector<uint8_t> straightFlags;
  std::vector<nav::PolyRef> straightRefs;
  std::vector<float> smooth;
  float t = 0, normal[3] = {0, 0, 0}, hitPos[3] = {0, 0, 0};
  bool hasOpt = false; ///< --optimal found an exact path
  float optLen = 0;
  std::vector<float> optPath;
};

using Case = navbench::TestCase;

bool readCases(const std::string& path, std::vector<Case>& cases, std::string* why) {
  return navbench::readTestCaseFile(path, cases, why);
}

using Clock = std::chrono::steady_clock;
double usSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

enum Op { OP_NEAREST, OP_PATH, OP_STRAIGHT, OP_SMOOTH, OP_RAYCAST, OP_OPTIMAL, OP_COUNT };
const char* const OP_NAMES[OP_COUNT] = {"findNearestPoly", "findPath", "findStraightPath", "smoothPath", "raycast",
                                        "shortestPath"};

// Runs all cases once; adds each op's time to times[op] and counts to counts[op].
void runCases(nav::NavMeshQuery& q, nav::ShortestPath* opt, const std::vector<Case>& cases,
              std::vector<Result>& results, double* times, int* counts) {
  static const float ext[3] = {2, 4, 2};
  static std::vector<nav::PolyRef> polys(MAX_POLYS), srefs(MAX_POLYS);
  static std::vector<float> straight(MAX_POLYS * 3), smooth(MAX_SMOOTH * 3);
  static std::vector<uint8_t> sflags(MAX_POLYS);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    Result& r = results[i];
    nav::QueryFilter filter;
    filter.setIncludeFlags(c.inc);
    filter.setExcludeFlags(c.exc);

    auto t0 = Clock::now();
    q.findNearestPoly(c.s, ext, &filter, &r.startRef, r.ns);
    q.findNearestPoly(c.e, ext, &filter, &r.endRef, r.ne);
    times[OP_NEAREST] += usSince(t0);
    counts[OP_NEAREST] += 2;
    if (!r.startRef) continue;

    if (!c.raycast) {
      if (!r.endRef) continue;
      int npolys = 0;
      t0 = Clock::now();
      r.pathStatus = q.findPath(r.startRef, r.endRef, c.s, c.e, &filter, polys.data(), &npolys, MAX_POLYS);
      times[OP_PATH] += usSince(t0);
      counts[OP_PATH]++;
      r.polys.assign(polys.begin(), polys.begin() + npolys);
      if (!npolys) continue;
      int ns = 0;
      t0 = Clock::now();
      r.straightStatus = q.findStraightPath(c.s, c.e, polys.data(), npolys, straight.data(), sflags.data(),
                                            srefs.data(), &ns, MAX_POLYS);
      times[OP_STRAIGHT] += usSince(t0);
      counts[OP_STRAIGHT]++;
      r.straight.assign(straight.begin(), straight.begin() + ns * 3);
      r.straightFlags.assign(sflags.begin(), sflags.begin() + ns);
      r.straightRefs.assign(srefs.begin(), srefs.begin() + ns);
      int nsm = 0;
      t0 = Clock::now();
      r.smoothStatus = nav::findSmoothPath(&q, &filter, r.startRef, c.s, c.e, polys.data(), npolys, smooth.data(),
                                           &nsm, MAX_SMOOTH);
      times[OP_SMOOTH] += usSince(t0);
      counts[OP_SMOOTH]++;
      r.smooth.assign(smooth.begin(), smooth.begin() + nsm * 3);
      if (opt) {
        int nopt = 0;
        float len = 0;
        t0 = Clock::now();
        const nav::Status st = opt->findPath(r.startRef, r.endRef, c.s, c.e, &filter, straight.data(), sflags.data(),
                                             srefs.data(), &nopt, MAX_POLYS, nullptr, nullptr, 0, &len);
        times[OP_OPTIMAL] += usSince(t0);
        counts[OP_OPTIMAL]++;
        r.hasOpt = nav::statusSucceeded(st) && !(st & nav::PARTIAL_RESULT) && nopt > 0;
        r.optLen = len;
        r.optPath.assign(straight.begin(), straight.begin() + nopt * 3);
      }
    } else {
      int npath = 0;
      t0 = Clock::now();
      r.rayStatus = q.raycast(r.startRef, c.s, c.e, &filter, &r.t, r.normal, polys.data(), &npath, MAX_POLYS);
      times[OP_RAYCAST] += usSince(t0);
      counts[OP_RAYCAST]++;
      r.polys.assign(polys.begin(), polys.begin() + npath);
      if (r.t > 1) nav::vcopy(r.hitPos, c.e);
      else nav::vlerp(r.hitPos, c.s, c.e, r.t);
    }
  }
}

void appendVec(std::string& o, const float* v) {
  char b[96];
  std::snprintf(b, sizeof(b), "[%.4f,%.4f,%.4f]", double(v[0]), double(v[1]), double(v[2]));
  o += b;
}
void appendPts(std::string& o, const std::vector<float>& pts) {
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
std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof(b), "\"0x%x\"", v);
  return b;
}
float polylineLength(const std::vector<float>& pts) {
  float len = 0;
  for (size_t i = 3; i + 2 < pts.size(); i += 3) len += nav::vdist(&pts[i - 3], &pts[i]);
  return len;
}
std::string num(double v) {
  char b[48];
  std::snprintf(b, sizeof(b), "%.4f", v);
  return b;
}

std::string caseJson(size_t i, const Case& c, const Result& r, bool withOpt) {
  std::string o = "{\"i\":" + std::to_string(i) + ",\"op\":\"" + (c.raycast ? "rc" : "pf") + "\",\"s\":";
  appendVec(o, c.s);
  o += ",\"e\":";
  appendVec(o, c.e);
  o += ",\"inc\":" + hex(c.inc) + ",\"exc\":" + hex(c.exc);
  o += ",\"startRef\":" + std::to_string(r.startRef) + ",\"ns\":";
  appendVec(o, r.ns);
  if (!c.raycast) {
    o += ",\"endRef\":" + std::to_string(r.endRef) + ",\"ne\":";
    appendVec(o, r.ne);
    const bool found = !r.polys.empty() && r.polys.back() == r.endRef;
    o += std::string(",\"found\":") + (found ? "true" : "false");
    o += ",\"pathStatus\":" + hex(r.pathStatus);
    o += std::string(",\"partial\":") + ((r.pathStatus & nav::PARTIAL_RESULT) ? "true" : "false");
    o += std::string(",\"outOfNodes\":") + ((r.pathStatus & nav::OUT_OF_NODES) ? "true" : "false");
    o += ",\"npolys\":" + std::to_string(r.polys.size()) + ",\"polys\":";
    appendInts(o, r.polys);
    o += ",\"straightStatus\":" + hex(r.straightStatus);
    o += ",\"nstraight\":" + std::to_string(r.straightFlags.size());
    o += ",\"straightLen\":" + num(double(polylineLength(r.straight))) + ",\"straight\":";
    appendPts(o, r.straight);
    o += ",\"straightFlags\":";
    appendInts(o, r.straightFlags);
    o += ",\"straightRefs\":";
    appendInts(o, r.straightRefs);
    o += ",\"nsmooth\":" + std::to_string(r.smooth.size() / 3);
    o += ",\"smoothLen\":" + num(double(polylineLength(r.smooth))) + ",\"smoothLast\":";
    if (r.smooth.size() >= 3) appendVec(o, &r.smooth[r.smooth.size() - 3]);
    else o += "null";
    if (withOpt) {
      o += ",\"optLen\":" + (r.hasOpt ? num(double(r.optLen)) : std::string("null")) + ",\"optPath\":";
      if (r.hasOpt) appendPts(o, r.optPath);
      else o += "null";
    }
  } else {
    o += ",\"rayStatus\":" + hex(r.rayStatus);
    char b[48];
    if (r.t == FLT_MAX) std::snprintf(b, sizeof(b), "3.402823e+38");
    else std::snprintf(b, sizeof(b), "%.6f", double(r.t));
    o += std::string(",\"t\":") + b;
    o += std::string(",\"hit\":") + (r.startRef && r.t <= 1 ? "true" : "false") + ",\"normal\":";
    appendVec(o, r.normal);
    o += ",\"npath\":" + std::to_string(r.polys.size()) + ",\"path\":";
    appendInts(o, r.polys);
    o += ",\"hitPos\":";
    appendVec(o, r.hitPos);
  }
  o += "}\n";
  return o;
}

int usage(const char* msg) {
  if (msg) std::fprintf(stderr, "navbench query: %s\n", msg);
  std::fprintf(stderr, "usage: navbench query MESH.bin CASES.txt [--json OUT.jsonl] [--repeat R] [--optimal]\n");
  return 2;
}

int runQuery(int argc, char** argv) {
  std::string meshPath, casesPath, jsonPath;
  int repeat = 1;
  bool optimal = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") {
      if (++i >= argc) return usage("--json needs a file name");
      jsonPath = argv[i];
    } else if (a == "--optimal") {
      optimal = true;
    } else if (a == "--repeat") {
      if (++i >= argc) return usage("--repeat needs a number");
      char* end = nullptr;
      const long r = std::strtol(argv[i], &end, 10);
      if (!end || *end || r < 1 || r > 100000) return usage("--repeat needs a number in 1..100000");
      repeat = int(r);
    } else if (a == "-h" || a == "--help") {
      usage(nullptr);
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return usage(("unknown option " + a).c_str());
    } else if (meshPath.empty()) {
      meshPath = a;
    } else if (casesPath.empty()) {
      casesPath = a;
    } else {
      return usage(("unexpected argument " + a).c_str());
    }
  }
  if (meshPath.empty() || casesPath.empty()) return usage("needs MESH.bin and CASES.txt");

  nav::NavMesh mesh;
  std::string why;
  if (nav::statusFailed(nav::loadTileSetFile(meshPath, mesh, &why))) {
    std::fprintf(stderr, "navbench query: %s\n", why.empty() ? (meshPath + ": cannot load tile set").c_str() : why.c_str());
    return 1;
  }
  std::vector<Case> cases;
  if (!readCases(casesPath, cases, &why)) {
    std::fprintf(stderr, "navbench query: %s\n", why.c_str());
    return 1;
  }
  nav::NavMeshQuery q;
  if (nav::statusFailed(q.init(&mesh, 2048))) {
    std::fprintf(stderr, "navbench query: cannot initialise the query (2048 nodes)\n");
    return 1;
  }

  nav::ShortestPath shortest;
  if (optimal && nav::statusFailed(shortest.init(&mesh))) {
    std::fprintf(stderr, "navbench query: cannot initialise the exact shortest-path search\n");
    return 1;
  }

  std::vector<Result> results(cases.size());
  double best[OP_COUNT];
  int counts[OP_COUNT] = {};
  for (double& b : best) b = 1e300;
  for (int r = 0; r < repeat; ++r) {
    double times[OP_COUNT] = {};
    int cnt[OP_COUNT] = {};
    for (Result& res : results) res = Result();
    runCases(q, optimal ? &shortest : nullptr, cases, results, times, cnt);
    for (int op = 0; op < OP_COUNT; ++op) {
      if (times[op] < best[op]) best[op] = times[op];
      counts[op] = cnt[op];
    }
  }

  int npf = 0, nrc = 0, found = 0, hits = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].raycast) {
      ++nrc;
      if (results[i].startRef && results[i].t <= 1) ++hits;
    } else {
      ++npf;
      if (!results[i].polys.empty() && results[i].polys.back() == results[i].endRef) ++found;
    }
  }
  std::printf("%s: %d cases (%d pf, %d rc), %d paths reach their end, %d rays hit; %d repeat(s)\n", casesPath.c_str(),
              int(cases.size()), npf, nrc, found, hits, repeat);
  std::printf("%-18s %8s %12s %12s\n", "operation", "calls", "total ms", "avg us");
  for (int op = 0; op < OP_COUNT; ++op) {
    if (!counts[op]) continue;
    std::printf("%-18s %8d %12.3f %12.3f\n", OP_NAMES[op], counts[op], best[op] / 1000.0, best[op] / counts[op]);
  }

  if (!jsonPath.empty()) {
    std::string out;
    for (size_t i = 0; i < cases.size(); ++i) out += caseJson(i, cases[i], results[i], optimal);
    const std::string tmp = jsonPath + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) {
      std::fprintf(stderr, "navbench query: %s: cannot write (%s)\n", tmp.c_str(), std::strerror(errno));
      return 1;
    }
    const bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
    if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), jsonPath.c_str()) != 0) {
      std::fprintf(stderr, "navbench query: %s: write failed (%s)\n", jsonPath.c_str(), std::strerror(errno));
      std::remove(tmp.c_str());
      return 1;
    }
  }
  return 0;
}

} // namespace

NAVBENCH_SUBCOMMAND(query, "query", "run a RecastDemo test-case file (pf/rc lines) on a tile set, with timings",
                    runQuery);
