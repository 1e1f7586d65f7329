// DetourQueryHarness.cpp: `detour_query_harness MESH.bin CASES.txt [--json OUT.jsonl] [--repeat R]`
//
// `navbench query` (app/cli/CmdQuery.cpp) done the Detour way, for whole-process comparisons
// (tests/bench/query_process_bench.py) and as an oracle for the CLI (tests/query/QueryHarnessTest.cpp
// diffs the two outputs). Same work per case: findNearestPoly on start and end (half extents
// (2, 4, 2)), then for pf findPath -> findStraightPath -> RecastDemo's smooth-path loop
// (tests/query/RefSmoothPath.h), for rc raycast; one dtNavMeshQuery with 2048 nodes, buffers of
// 2048, a dtQueryFilter with the case's include/exclude flags. Same output: the summary line, the
// per-operation table (min over the repeats) and, with --json, the same records byte for byte.
//
// MESH is RecastDemo's MSET tile set, loaded as RecastDemo's Sample_TileMesh::loadAll does (one
// fread per record, dtNavMesh::addTile at the stored ref). CASES is parsed as RecastDemo's
// TestCase::load does (whole file, one row at a time): `s`/`f` lines and `#` comments skipped, pf/rc
// rows with 6 floats and 2 flag numbers (strtoul base 0, as navbench reads them). A test tool: bad
// input gets a message and exit code 1, without navbench's finer diagnostics.
#include "RefSmoothPath.h"
#include "app/model/TestCaseJson.h"
#include "nav/base/Args.h"

#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <cerrno>
#include <cfloat>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int MAX_NODES = 2048, MAX_POLYS = 2048;

struct Case {
  bool rc = false;
  float s[3] = {0, 0, 0}, e[3] = {0, 0, 0};
  unsigned short inc = 0xffff, exc = 0;
};

struct Result {
  dtPolyRef startRef = 0, endRef = 0;
  float ns[3] = {0, 0, 0}, ne[3] = {0, 0, 0};
  dtStatus pathStatus = 0, straightStatus = 0, rayStatus = 0;
  std::vector<dtPolyRef> polys, straightRefs;
  std::vector<float> straight, smooth;
  std::vector<unsigned char> straightFlags;
  float t = 0, normal[3] = {0, 0, 0}, hitPos[3] = {0, 0, 0};

  /// Default values, the vectors emptied with their capacity kept (as navbench's runner does).
  void reset() {
    Result fresh;
    fresh.polys.swap(polys);
    fresh.straightRefs.swap(straightRefs);
    fresh.straight.swap(straight);
    fresh.smooth.swap(smooth);
    fresh.straightFlags.swap(straightFlags);
    fresh.polys.clear();
    fresh.straightRefs.clear();
    fresh.straight.clear();
    fresh.smooth.clear();
    fresh.straightFlags.clear();
    *this = std::move(fresh);
  }
};

enum Op { OP_NEAREST, OP_PATH, OP_STRAIGHT, OP_SMOOTH, OP_RAYCAST, OP_COUNT };
const char* const kOpNames[OP_COUNT] = {"findNearestPoly", "findPath", "findStraightPath", "smoothPath", "raycast"};
struct Times {
  double us[OP_COUNT] = {};
  int calls[OP_COUNT] = {};
};

using Clock = std::chrono::steady_clock;
double usSince(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

// --- loading -------------------------------------------------------------------------------------

struct SetHeader {
  int magic, version, numTiles;
  dtNavMeshParams params;
};
struct TileHeader {
  dtTileRef tileRef;
  int dataSize;
};
constexpr int MSET_MAGIC = 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T';

dtNavMesh* loadAll(const char* path, std::string* why) {
  FILE* fp = std::fopen(path, "rb");
  if (!fp) {
    *why = std::string(path) + ": cannot open: " + std::strerror(errno);
    return nullptr;
  }
  dtNavMesh* mesh = nullptr;
  SetHeader header;
  if (std::fread(&header, sizeof header, 1, fp) != 1 || header.magic != MSET_MAGIC || header.version != 1) {
    *why = std::string(path) + ": not an MSET tile set";
  } else if (!(mesh = dtAllocNavMesh()) || dtStatusFailed(mesh->init(&header.params))) {
    *why = std::string(path) + ": dtNavMesh::init failed";
  } else {
    for (int i = 0; i < header.numTiles; ++i) {
      TileHeader th;
      if (std::fread(&th, sizeof th, 1, fp) != 1 || !th.tileRef || th.dataSize <= 0) {
        *why = std::string(path) + ": bad tile record " + std::to_string(i);
        break;
      }
      unsigned char* data = static_cast<unsigned char*>(dtAlloc(size_t(th.dataSize), DT_ALLOC_PERM));
      if (!data || std::fread(data, size_t(th.dataSize), 1, fp) != 1 ||
          dtStatusFailed(mesh->addTile(data, th.dataSize, DT_TILE_FREE_DATA, th.tileRef, nullptr))) {
        dtFree(data);
        *why = std::string(path) + ": cannot add tile " + std::to_string(i);
        break;
      }
    }
  }
  std::fclose(fp);
  if (!why->empty()) {
    dtFreeNavMesh(mesh);
    return nullptr;
  }
  return mesh;
}

bool readCases(const char* path, std::vector<Case>& cases, std::string* why) {
  FILE* fp = std::fopen(path, "rb");
  if (!fp) {
    *why = std::string(path) + ": cannot open test-case file";
    return false;
  }
  std::string text;
  char chunk[65536];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, fp)) > 0) text.append(chunk, n);
  std::fclose(fp);
  int lineNo = 0;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string row = text.substr(at, end - at);
    at = end + 1;
    ++lineNo;
    const char* p = row.c_str();
    while (*p == ' ' || *p == '\t') ++p;
    const bool pf = p[0] == 'p' && p[1] == 'f', rc = p[0] == 'r' && p[1] == 'c';
    if (!(pf || rc) || (p[2] != ' ' && p[2] != '\t')) continue; // s, f, comments, blank lines
    Case c;
    c.rc = rc;
    char* q = const_cast<char*>(p + 2);
    bool ok = true;
    for (int i = 0; i < 6 && ok; ++i) {
      char* e = nullptr;
      const float v = std::strtof(q, &e);
      ok = e != q;
      (i < 3 ? c.s[i] : c.e[i - 3]) = v;
      q = e;
    }
    for (int i = 0; i < 2 && ok; ++i) {
      char* e = nullptr;
      const unsigned long v = std::strtoul(q, &e, 0);
      ok = e != q && v <= 0xffff;
      (i ? c.exc : c.inc) = static_cast<unsigned short>(v);
      q = e;
    }
    if (!ok) {
      *why = std::string(path) + ":" + std::to_string(lineNo) + ": bad " + (rc ? "rc" : "pf") + " line";
      return false;
    }
    cases.push_back(c);
  }
  return true;
}

// --- running -------------------------------------------------------------------------------------

struct Runner {
  std::vector<dtPolyRef> polys = std::vector<dtPolyRef>(MAX_POLYS), srefs = std::vector<dtPolyRef>(MAX_POLYS);
  std::vector<float> straight = std::vector<float>(MAX_POLYS * 3), smooth = std::vector<float>(MAX_POLYS * 3);
  std::vector<unsigned char> sflags = std::vector<unsigned char>(MAX_POLYS);

  void run(dtNavMeshQuery* q, const Case& c, Result& r, Times& tm) {
    static const float ext[3] = {2, 4, 2};
    r.reset();
    dtQueryFilter filter;
    filter.setIncludeFlags(c.inc);
    filter.setExcludeFlags(c.exc);
    auto t0 = Clock::now();
    q->findNearestPoly(c.s, ext, &filter, &r.startRef, r.ns);
    q->findNearestPoly(c.e, ext, &filter, &r.endRef, r.ne);
    tm.us[OP_NEAREST] += usSince(t0);
    tm.calls[OP_NEAREST] += 2;
    if (!r.startRef) return;
    if (!c.rc) {
      if (!r.endRef) return;
      int npolys = 0;
      t0 = Clock::now();
      r.pathStatus = q->findPath(r.startRef, r.endRef, c.s, c.e, &filter, polys.data(), &npolys, MAX_POLYS);
      tm.us[OP_PATH] += usSince(t0);
      tm.calls[OP_PATH]++;
      r.polys.assign(polys.begin(), polys.begin() + npolys);
      if (!npolys) return;
      int ns = 0;
      t0 = Clock::now();
      r.straightStatus = q->findStraightPath(c.s, c.e, polys.data(), npolys, straight.data(), sflags.data(),
                                             srefs.data(), &ns, MAX_POLYS);
      tm.us[OP_STRAIGHT] += usSince(t0);
      tm.calls[OP_STRAIGHT]++;
      r.straight.assign(straight.begin(), straight.begin() + ns * 3);
      r.straightFlags.assign(sflags.begin(), sflags.begin() + ns);
      r.straightRefs.assign(srefs.begin(), srefs.begin() + ns);
      t0 = Clock::now();
      const int nsm = querytest::referenceSmoothPath(q, &filter, r.startRef, c.s, c.e, polys.data(), npolys,
                                                     smooth.data(), MAX_POLYS, false, nullptr);
      tm.us[OP_SMOOTH] += usSince(t0);
      tm.calls[OP_SMOOTH]++;
      r.smooth.assign(smooth.begin(), smooth.begin() + nsm * 3);
    } else {
      int npath = 0;
      t0 = Clock::now();
      r.rayStatus = q->raycast(r.startRef, c.s, c.e, &filter, &r.t, r.normal, polys.data(), &npath, MAX_POLYS);
      tm.us[OP_RAYCAST] += usSince(t0);
      tm.calls[OP_RAYCAST]++;
      r.polys.assign(polys.begin(), polys.begin() + npath);
      if (r.t > 1) dtVcopy(r.hitPos, c.e);
      else dtVlerp(r.hitPos, c.s, c.e, r.t);
    }
  }
};

// --- output (navbench's --json records: app/model/TestCaseJson.h) ---------------------------------

bool writeFile(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  FILE* fp = std::fopen(tmp.c_str(), "wb");
  if (!fp) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), fp) == text.size();
  if (std::fclose(fp) != 0 || !ok) {
    std::remove(tmp.c_str());
    return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

} // namespace

int main(int argc, char** argv) {
  std::string meshPath, casesPath, jsonPath;
  int repeat = 1;
  base::Args args("detour_query_harness", "navbench query's cases and --json records, run by Detour.");
  args.positional("MESH.bin", &meshPath, "tile set (MSET)")
      .positional("CASES.txt", &casesPath, "RecastDemo test cases")
      .text("--json", "OUT.jsonl", &jsonPath, "write one JSON object per case")
      .integer("--repeat", "R", &repeat, 1, 100000, "run the whole file R times; times are the fastest run's");
  int code = 0;
  if (!args.parseOrReport(argc, argv, &code)) return code;

  std::string why;
  dtNavMesh* mesh = loadAll(meshPath.c_str(), &why);
  if (!mesh) {
    std::fprintf(stderr, "detour_query_harness: %s\n", why.c_str());
    return 1;
  }
  std::vector<Case> cases;
  if (!readCases(casesPath.c_str(), cases, &why)) {
    std::fprintf(stderr, "detour_query_harness: %s\n", why.c_str());
    return 1;
  }
  dtNavMeshQuery* q = dtAllocNavMeshQuery();
  if (!q || dtStatusFailed(q->init(mesh, MAX_NODES))) {
    std::fprintf(stderr, "detour_query_harness: cannot initialise the query (2048 nodes)\n");
    return 1;
  }

  std::vector<Result> results(cases.size());
  double best[OP_COUNT];
  int counts[OP_COUNT] = {};
  for (double& b : best) b = 1e300;
  Runner runner;
  for (int r = 0; r < repeat; ++r) {
    Times times;
    for (size_t i = 0; i < cases.size(); ++i) runner.run(q, cases[i], results[i], times);
    for (int op = 0; op < OP_COUNT; ++op) {
      if (times.us[op] < best[op]) best[op] = times.us[op];
      counts[op] = times.calls[op];
    }
  }

  int npf = 0, nrc = 0, found = 0, hits = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Result& r = results[i];
    if (cases[i].rc) {
      ++nrc;
      if (r.startRef && r.t <= 1) ++hits;
    } else {
      ++npf;
      if (!r.polys.empty() && r.polys.back() == r.endRef) ++found;
    }
  }
  std::printf("%s: %d cases (%d pf, %d rc), %d paths reach their end, %d rays hit; %d repeat(s)\n", casesPath.c_str(),
              int(cases.size()), npf, nrc, found, hits, repeat);
  std::printf("%-18s %8s %12s %12s\n", "operation", "calls", "total ms", "avg us");
  for (int op = 0; op < OP_COUNT; ++op) {
    if (!counts[op]) continue;
    std::printf("%-18s %8d %12.3f %12.3f\n", kOpNames[op], counts[op], best[op] / 1000.0, best[op] / counts[op]);
  }

  int rc = 0;
  if (!jsonPath.empty()) {
    std::string out;
    for (size_t i = 0; i < cases.size(); ++i)
      navbench::testcase_json::appendRecord(out, i, cases[i].rc, cases[i], results[i], DT_PARTIAL_RESULT, DT_OUT_OF_NODES);
    if (!writeFile(jsonPath, out)) {
      std::fprintf(stderr, "detour_query_harness: %s: cannot write\n", jsonPath.c_str());
      rc = 1;
    }
  }
  dtFreeNavMeshQuery(q);
  dtFreeNavMesh(mesh);
  return rc;
}
