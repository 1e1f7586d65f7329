// FuzzCheck.cpp: `navbench check`'s checks (nav/check/NavCheck.h) on hostile tile sets (issue 27).
// Input: an options header read with fuzz::Bytes, then an MSET tile set (the rest of the input):
//   u8 checks mask (bit k: CheckKind k on; bit 7: give a level square for the surface check),
//   u8 pairs (1..8), u16 PRNG seed, u16 node budget (1..4096), range min width, range detour ratio,
//   range climb (or -1), u8 seed count (0..2) and each seed as 3 ranges, u16 include / u16 exclude
//   flags, range level height.
// The work per input stays small (at most 8 pairs, one thread, a 4096-node exact search) so
// libFuzzer makes progress. Checked beyond "no crash, no sanitizer report":
//   - a refusal (loader or checks) says why;
//   - islands: their polys add up to polyCount, biggest area first, unreachedPolys within polys and
//     reachable exactly when some poly was reached;
//   - every pair is run or skipped (none when no ground poly), every detour finding passes the
//     thresholds with the exact length not above Detour's, narrow portals are below minWidth, the
//     heatmap is in ref order with ratios > 0;
//   - the JSON report and JUnit XML are made; a baseline of the findings (when their positions are
//     finite) re-parses to the same entries and filters every finding out.
#include "nav/TileSetFile.h"
#include "nav/check/CheckReport.h"
#include "nav/check/NavCheck.h"
#include "tests/fuzz/FuzzUtil.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

bool finite3(const nav::check::Vec3& v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nav::check;
  fuzz::Bytes in(data, size);
  const uint8_t mask = in.u8();
  CheckOptions opts;
  opts.islands = mask & 1;
  opts.detours = mask & 2;
  opts.budget = mask & 4;
  opts.seams = mask & 8;
  opts.links = mask & 16;
  opts.narrow = mask & 32;
  opts.surface = mask & 64;
  opts.pairs = 1 + in.u8() % 8;
  opts.seed = in.u16();
  opts.nodeBudget = 1 + in.u16() % 4096;
  opts.minWidth = in.range(0.001f, 2.0f);
  opts.detourRatio = in.range(1.0f, 3.0f);
  opts.detourMinExtra = 0.5f;
  opts.walkableClimb = (in.u8() & 1) ? in.range(0.0f, 2.0f) : -1.0f;
  opts.exactMaxNodes = 4096;
  opts.threads = 1;
  const int seeds = in.u8() % 3;
  for (int s = 0; s < seeds; ++s) {
    const float x = in.range(-100, 100), y = in.range(-20, 20), z = in.range(-100, 100);
    opts.seeds.push_back(Vec3{x, y, z});
  }
  nav::QueryFilter filter = defaultCheckFilter();
  filter.setIncludeFlags(in.u16() | 1);
  filter.setExcludeFlags(in.u16() & 0xfffe);
  const float levelY = in.range(-10, 10);
  const size_t header = size - in.remaining();

  nav::NavMesh mesh;
  std::string why;
  if (fuzz::refused(nav::statusSucceeded(nav::loadTileSet(data + header, size - header, mesh, &why, "fuzz")), why))
    return 0;

  // A square under the mesh's origin area for the surface check (a level's triangles).
  const float verts[] = {-1000, levelY, -1000, 1000, levelY, -1000, 1000, levelY, 1000, -1000, levelY, 1000};
  const int tris[] = {0, 2, 1, 0, 3, 2};
  LevelTriangles level;
  level.verts = verts;
  level.vertCount = 4;
  level.tris = tris;
  level.triCount = 2;

  CheckResult r;
  why.clear();
  const nav::Status st = runChecks(mesh, filter, opts, r, &why, (mask & 128) ? &level : nullptr);
  if (fuzz::refused(nav::statusSucceeded(st), why)) return 0;

  int polys = 0;
  for (size_t k = 0; k < r.islands.size(); ++k) {
    const Island& i = r.islands[k];
    polys += i.polys;
    if (i.id != int(k) || i.polys <= 0 || i.unreachedPolys < 0 || i.unreachedPolys > i.polys) __builtin_trap();
    if (i.reachable != (i.unreachedPolys < i.polys)) __builtin_trap();
    if (k && r.islands[k - 1].area < i.area) __builtin_trap(); // NaN areas compare false: not flagged
  }
  if (polys != r.polyCount) __builtin_trap();
  const int pairs = r.pairsRun + r.pairsSkipped;
  if ((opts.detours || opts.budget) && pairs != 0 && pairs != opts.pairs) __builtin_trap();
  if (int(r.budget.size()) > opts.pairs || int(r.detours.size()) > r.pairsRun) __builtin_trap();
  for (const DetourFinding& d : r.detours)
    if (!(d.ratio >= opts.detourRatio) || !(d.detourMetric - d.exactLen >= opts.detourMinExtra)) __builtin_trap();
  for (const NarrowFinding& n : r.narrow)
    if (!(n.width < opts.minWidth)) __builtin_trap();
  for (size_t k = 0; k < r.heat.size(); ++k)
    if (!(r.heat[k].ratio > 0) || (k && r.heat[k - 1].ref >= r.heat[k].ref)) __builtin_trap();

  (void)reportJson("fuzz", r, opts).dump();
  (void)reportJunit({{"fuzz", &r}});
  for (int k = 0; k < CHECK_COUNT; ++k) (void)describeFindings(r, k, 3);

  const Baseline b = baselineOf(r);
  for (const BaselineEntry& e : b.entries)
    if (!finite3(e.pos) || (e.hasPos2 && !finite3(e.pos2))) return 0;
  Baseline again;
  if (!parseBaseline(baselineJson(b), "fuzz", again, &why) || again.entries.size() != b.entries.size()) __builtin_trap();
  if (filterNew(r, again) != int(b.entries.size())) __builtin_trap();
  for (int k = 0; k < CHECK_COUNT; ++k)
    if (k != CHECK_ISLANDS && findingCount(r, k) != 0) __builtin_trap();
  if (r.unreachableIslands() != 0 && r.ran[CHECK_ISLANDS]) __builtin_trap();
  return 0;
}
