// FuzzHier.cpp: the hierarchical search (nav/HierPlanner.h) on hostile tile sets, with tiles
// removed, added back and rebaked while the planner is open.
// Input: a fixed 39-byte header read with fuzz::Bytes, then an MSET tile set (the rest):
//   u8 config (bits 0-2: cluster side in tiles, 0 = auto; bits 3-4: corridor radius; bit 5: a
//   filter whose hook blocks every polygon with a tile-border link, i.e. every entrance; bit 6:
//   area costs 1..16 for areas 0..3; bit 7: a heuristic scale of 1 for the refinement),
//   u16 include flags, u16 exclude flags, 4 x u8 area costs, u8 edit count (0..8),
//   8 x (u8 kind, u16 index) edits, u8 pair count (0..7), u32 point seed.
// Edits: remove a tile, add a removed one back, rebake (remove + add the same bytes), set a
// polygon's flags, update the planner now. Checked beyond "no crash, no sanitizer report":
//   - a refusal of the tile set says why;
//   - after the edits, the updated graphs (the default one and the filter's, built before the
//     edits) print as a fresh build's (HierPlanner::canonical);
//   - each pair (random points, filter-free): the planner's answer is complete exactly when a
//     polygon A* with a node per polygon (it cannot run out of nodes) is, never OUT_OF_NODES; a
//     complete corridor starts at the start polygon, ends at the end polygon and follows links.
#include "nav/HierPlanner.h"
#include "nav/TileSetFile.h"
#include "tests/fuzz/FuzzUtil.h"

#include <cstdint>
#include <string>
#include <vector>

namespace {

uint32_t g_rng = 1;
float frand() {
  g_rng = g_rng * 1664525u + 1013904223u;
  return float(g_rng >> 8) / float(1 << 24);
}

bool noBorderPass(const nav::QueryFilter&, nav::PolyRef, const nav::MeshTile* tile, const nav::Poly* poly) {
  for (uint32_t k = poly->firstLink; k != nav::NULL_LINK; k = tile->links[k].next)
    if (tile->links[k].side != 0xff) return false;
  return true;
}

bool complete(nav::Status st, const nav::PolyRef* path, int n, nav::PolyRef end) {
  return nav::statusSucceeded(st) && !(st & nav::PARTIAL_RESULT) && n > 0 && path[n - 1] == end;
}

constexpr int MAXP = 4096;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Bytes in(data, size);
  const uint8_t cfg = in.u8();
  nav::HierOptions opts;
  opts.clusterTiles = cfg & 7;
  opts.corridorRadius = (cfg >> 3) & 3;
  if (cfg & 128) opts.refineHeuristicScale = 1.0f;
  nav::QueryFilter filter;
  filter.setIncludeFlags(in.u16());
  filter.setExcludeFlags(in.u16());
  for (int a = 0; a < 4; ++a) {
    const uint8_t c = in.u8();
    if (cfg & 64) filter.setAreaCost(a, 1.0f + float(c & 15));
  }
  if (cfg & 32) filter.setPassFn(noBorderPass);
  const int edits = in.u8() % 9;
  uint8_t kind[8];
  uint16_t index[8];
  for (int e = 0; e < 8; ++e) {
    kind[e] = in.u8();
    index[e] = in.u16();
  }
  const int pairs = in.u8() % 8;
  g_rng = in.u32();
  const size_t header = size - in.remaining();
  if (header != 39) return 0; // too short for a tile set

  nav::NavMesh mesh;
  std::string why;
  if (fuzz::refused(nav::statusSucceeded(nav::loadTileSet(data + header, size - header, mesh, &why, "fuzz")), why))
    return 0;
  nav::HierPlanner hp;
  if (nav::statusFailed(hp.init(&mesh, nullptr, opts))) __builtin_trap(); // a loaded mesh has tile slots
  (void)hp.canonical(filter); // the filter's graph (when it gets one) built now, then kept up to date

  std::vector<std::vector<uint8_t>> removed;
  auto present = [&] {
    std::vector<int> s;
    for (int i = 0; i < mesh.getMaxTiles(); ++i)
      if (mesh.getTile(i)->header) s.push_back(i);
    return s;
  };
  auto addBack = [&](const std::vector<uint8_t>& bytes) {
    auto* copy = new uint8_t[bytes.size()];
    std::copy(bytes.begin(), bytes.end(), copy);
    if (nav::statusFailed(mesh.addTile(copy, int(bytes.size()), nav::TILE_FREE_DATA, 0, nullptr))) delete[] copy;
  };
  for (int e = 0; e < edits; ++e) {
    const std::vector<int> slots = present();
    const int k = kind[e] % 5;
    if ((k == 0 || k == 2) && !slots.empty()) {
      const nav::MeshTile* t = mesh.getTile(slots[index[e] % slots.size()]);
      std::vector<uint8_t> bytes(t->data, t->data + t->dataSize);
      if (nav::statusFailed(mesh.removeTile(mesh.getTileRef(t), nullptr, nullptr))) __builtin_trap();
      if (k == 2) addBack(bytes);
      else removed.push_back(std::move(bytes));
    } else if (k == 1 && !removed.empty()) {
      const size_t r = index[e] % removed.size();
      addBack(removed[r]);
      removed.erase(removed.begin() + long(r));
    } else if (k == 3 && !slots.empty()) {
      const nav::MeshTile* t = mesh.getTile(slots[index[e] % slots.size()]);
      if (t->header->polyCount > 0)
        mesh.setPolyFlags(mesh.getPolyRefBase(t) | nav::PolyRef((index[e] >> 4) % t->header->polyCount),
                          uint16_t(index[e] & 15));
    } else if (k == 4) {
      hp.update();
    }
  }
  hp.update();
  {
    nav::HierPlanner fresh;
    if (nav::statusFailed(fresh.init(&mesh, nullptr, hp.options()))) __builtin_trap();
    if (fresh.canonical() != hp.canonical()) __builtin_trap();
    if (fresh.canonical(filter) != hp.canonical(filter)) __builtin_trap();
  }

  nav::NavMeshQuery ref, rnd;
  if (nav::statusFailed(ref.initUnlimited(&mesh)) || nav::statusFailed(rnd.init(&mesh, 64))) return 0;
  const nav::QueryFilter all;
  std::vector<nav::PolyRef> rpath(MAXP), hpath(MAXP);
  for (int i = 0; i < pairs; ++i) {
    nav::PolyRef sr = 0, er = 0;
    float sp[3], ep[3];
    if (nav::statusFailed(rnd.findRandomPoint(&all, frand, &sr, sp)) ||
        nav::statusFailed(rnd.findRandomPoint(&all, frand, &er, ep)))
      break;
    int rn = 0, hn = 0;
    const nav::Status rs = ref.findPath(sr, er, sp, ep, &filter, rpath.data(), &rn, MAXP);
    const nav::Status hs = hp.findPath(sr, er, sp, ep, &filter, hpath.data(), &hn, MAXP);
    if (hs & nav::OUT_OF_NODES) __builtin_trap();
    if (hn < 0 || hn > MAXP) __builtin_trap();
    // A corridor longer than the buffer is cut short: complete says nothing then.
    if ((rs | hs) & nav::BUFFER_TOO_SMALL) continue;
    const bool rc = complete(rs, rpath.data(), rn, er), hc = complete(hs, hpath.data(), hn, er);
    if (rc != hc) __builtin_trap(); // complete across islands, or incomplete where a path exists
    if (!hc) continue;
    if (hpath[0] != sr) __builtin_trap();
    for (int k = 0; k + 1 < hn; ++k) {
      const nav::MeshTile* t = nullptr;
      const nav::Poly* p = nullptr;
      if (nav::statusFailed(mesh.getTileAndPolyByRef(hpath[size_t(k)], &t, &p))) __builtin_trap();
      bool linked = false;
      for (uint32_t l = p->firstLink; l != nav::NULL_LINK; l = t->links[l].next)
        linked |= t->links[l].ref == hpath[size_t(k + 1)];
      if (!linked) __builtin_trap();
    }
  }
  return 0;
}
