// TileSlotTest: which slot NavMesh::addTile gives a tile, with and without a chosen ref (lastRef),
// through long scrambled sequences of adds and removes; and that adding at a chosen slot does not
// cost a walk of the free list (the file bake adds every tile of a world that way).
//
// The expected slots come from the rule documented at NavMesh::addTile, kept here as a plain list
// of free slot indices: a fresh mesh's list is 0, 1, 2, ...; addTile(lastRef 0) takes its first
// entry; removeTile puts the slot at the front; addTile(lastRef) takes that slot out of the list
// wherever it is and leaves the order of the rest. Detour's dtNavMesh runs the same operations as
// a second witness (its refs and slots are what tile set files hold).
#include "DetourBridge.h"
#include "TestMeshes.h"

#include "nav/NavMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <list>
#include <random>

using namespace navtest;

namespace {

/// The free slot list of the documented rule, and each slot's salt (the next one a tile in a free
/// slot gets through lastRef 0: 1 in a fresh mesh, bumped by every remove, skipping 0).
struct SlotModel {
  std::list<int> free;
  std::vector<uint32_t> salt;
  uint32_t saltMask = 0;
  SlotModel(int maxTiles, uint32_t saltBits) : salt(size_t(maxTiles), 1u), saltMask((1u << saltBits) - 1) {
    for (int i = 0; i < maxTiles; ++i) free.push_back(i);
  }
  bool isFree(int slot) const { return std::find(free.begin(), free.end(), slot) != free.end(); }
  int takeFirst() {
    const int s = free.front();
    free.pop_front();
    return s;
  }
  void take(int slot, uint32_t newSalt) {
    free.remove(slot);
    salt[size_t(slot)] = newSalt;
  }
  void release(int slot) {
    salt[size_t(slot)] = (salt[size_t(slot)] + 1) & saltMask;
    if (salt[size_t(slot)] == 0) salt[size_t(slot)] = 1;
    free.push_front(slot);
  }
};

/// One tiny tile (a single quad) per grid location, built once.
struct Tiles {
  int w = 0;
  std::vector<std::vector<uint8_t>> blobs;
  Tiles(int w_, int h) : w(w_) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        GridTileSpec s;
        s.tx = x;
        s.ty = y;
        s.cells = 2;
        s.quadCells = 2;
        blobs.push_back(buildGridTile(s));
      }
  }
};

/// Ours and Detour's mesh, driven together.
class TwoMeshes {
public:
  TwoMeshes(int maxTiles, int maxPolys) {
    GridTileSpec s;
    s.cells = 2;
    const nav::NavMeshParams p = gridMeshParams(s, maxTiles, maxPolys);
    EXPECT_TRUE(nav::statusSucceeded(ours.init(p)));
    dtNavMeshParams dp;
    std::memcpy(dp.orig, p.orig, sizeof dp.orig);
    dp.tileWidth = p.tileWidth;
    dp.tileHeight = p.tileHeight;
    dp.maxTiles = p.maxTiles;
    dp.maxPolys = p.maxPolys;
    theirs = dtAllocNavMesh();
    EXPECT_TRUE(dtStatusSucceed(theirs->init(&dp)));
  }
  ~TwoMeshes() {
    dtFreeNavMesh(theirs); // frees nothing of ours: Detour's tiles are added without DT_TILE_FREE_DATA
  }
  TwoMeshes(const TwoMeshes&) = delete;
  TwoMeshes& operator=(const TwoMeshes&) = delete;

  /// Adds blob `b` to both meshes at `lastRef` (0: the first free slot); our ref, 0 if refused.
  /// Both must agree on success and on the ref.
  nav::TileRef add(const std::vector<uint8_t>& b, nav::TileRef lastRef, nav::Status* status = nullptr) {
    uint8_t* d = dupBlob(b);
    nav::TileRef ref = 0;
    const nav::Status st = ours.addTile(d, int(b.size()), nav::TILE_FREE_DATA, lastRef, &ref);
    if (nav::statusFailed(st)) delete[] d;
    if (status) *status = st;
    detourData.push_back(b);
    dtTileRef dref = 0;
    const dtStatus dst = theirs->addTile(detourData.back().data(), int(b.size()), 0, lastRef, &dref);
    EXPECT_EQ(nav::statusSucceeded(st), dtStatusSucceed(dst)) << "lastRef " << lastRef;
    EXPECT_EQ(ref, nav::TileRef(dref)) << "lastRef " << lastRef;
    return ref;
  }
  void remove(nav::TileRef ref) {
    EXPECT_TRUE(nav::statusSucceeded(ours.removeTile(ref, nullptr, nullptr)));
    EXPECT_TRUE(dtStatusSucceed(theirs->removeTile(ref, nullptr, nullptr)));
  }

  nav::NavMesh ours;
  dtNavMesh* theirs = nullptr;
  std::list<std::vector<uint8_t>> detourData; // Detour's tile blobs (stable addresses)
};

int slotOf(const nav::NavMesh& m, nav::TileRef ref) { return int(m.decodePolyIdTile(ref)); }

} // namespace

TEST(TileSlots, ChosenAndFirstFreeSlotsFollowTheFreeListRule) {
  constexpr int W = 16, H = 16, MAX_TILES = 512; // 9 tile bits; half the slots stay for plain adds
  const Tiles tiles(W, H);
  TwoMeshes two(MAX_TILES, 4);
  nav::NavMesh& m = two.ours;
  SlotModel model(MAX_TILES, m.saltBits());
  std::mt19937 rng(20261121);

  // Which slot holds the tile of each location (-1: not in the mesh) and its ref.
  std::vector<int> slotOfTile(tiles.blobs.size(), -1);
  std::vector<nav::TileRef> refOfTile(tiles.blobs.size(), 0);
  auto check = [&](int tile, nav::TileRef ref, int slot, uint32_t salt) {
    ASSERT_NE(ref, 0u) << "tile " << tile;
    EXPECT_EQ(slotOf(m, ref), slot) << "tile " << tile;
    EXPECT_EQ(m.decodePolyIdSalt(ref), salt) << "tile " << tile;
    const nav::MeshTile* t = m.getTileByRef(ref);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t, m.getTile(slot));
    EXPECT_EQ(t->header->x, tile % W);
    EXPECT_EQ(t->header->y, tile / W);
    EXPECT_EQ(m.getTileRefAt(tile % W, tile / W, 0), ref);
    slotOfTile[size_t(tile)] = slot;
    refOfTile[size_t(tile)] = ref;
  };
  // A chosen slot: a free slot picked at random (anywhere in the list), with a salt of our own.
  auto addChosen = [&](int tile) {
    std::vector<int> freeSlots(model.free.begin(), model.free.end());
    const int slot = freeSlots[std::uniform_int_distribution<size_t>(0, freeSlots.size() - 1)(rng)];
    const uint32_t salt = 1 + uint32_t(rng() % 1000);
    const nav::TileRef ref = two.add(tiles.blobs[size_t(tile)], m.encodePolyId(salt, uint32_t(slot), 0));
    model.take(slot, salt);
    check(tile, ref, slot, salt);
  };
  auto addFirstFree = [&](int tile) {
    const uint32_t salt = model.salt[size_t(model.free.front())];
    const int slot = model.takeFirst();
    check(tile, two.add(tiles.blobs[size_t(tile)], 0), slot, salt);
  };

  // Round 1: every location in scrambled order, three in four at chosen slots.
  std::vector<int> order(tiles.blobs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t i = 0; i < order.size(); ++i) {
    if (i % 4 == 3) addFirstFree(order[i]);
    else addChosen(order[i]);
    if (HasFatalFailure()) return;
  }
  EXPECT_EQ(m.tileCount(), W * H);
  EXPECT_EQ(compareMeshes(m, *two.theirs), "");

  // A chosen slot in use is refused and changes nothing.
  {
    const int busy = slotOfTile[size_t(order[0])];
    two.remove(refOfTile[size_t(order[1])]); // free a location to try
    model.release(slotOfTile[size_t(order[1])]);
    slotOfTile[size_t(order[1])] = -1;
    nav::Status st = 0;
    EXPECT_EQ(two.add(tiles.blobs[size_t(order[1])], m.encodePolyId(7, uint32_t(busy), 0), &st), 0u);
    EXPECT_TRUE(nav::statusDetail(st, nav::OUT_OF_MEMORY));
    EXPECT_EQ(m.tileCount(), W * H - 1);
  }

  // Rounds 2-4: remove a scrambled half (each freed slot goes to the front), re-add them in another
  // order, chosen and first-free mixed; the free list's order after all this is what plain adds get.
  for (int round = 0; round < 3; ++round) {
    std::vector<int> in;
    for (size_t t = 0; t < tiles.blobs.size(); ++t)
      if (slotOfTile[t] >= 0) in.push_back(int(t));
    std::shuffle(in.begin(), in.end(), rng);
    in.resize(in.size() / 2);
    for (int t : in) {
      two.remove(refOfTile[size_t(t)]);
      EXPECT_EQ(m.getTileByRef(refOfTile[size_t(t)]), nullptr);
      model.release(slotOfTile[size_t(t)]);
      slotOfTile[size_t(t)] = -1;
    }
    std::vector<int> out;
    for (size_t t = 0; t < tiles.blobs.size(); ++t)
      if (slotOfTile[t] < 0) out.push_back(int(t));
    std::shuffle(out.begin(), out.end(), rng);
    for (size_t i = 0; i < out.size(); ++i) {
      if ((i + size_t(round)) % 3 == 0) addFirstFree(out[i]);
      else addChosen(out[i]);
      if (HasFatalFailure()) return;
    }
    EXPECT_EQ(m.tileCount(), W * H);
    EXPECT_EQ(compareMeshes(m, *two.theirs), "") << "round " << round;
  }

  // Fill every remaining slot with plain adds (tiles of another layer): the slots come in the
  // free list's order, then the mesh is full.
  std::vector<std::vector<uint8_t>> layer1;
  while (!model.free.empty()) {
    GridTileSpec s;
    s.cells = 2;
    s.quadCells = 2;
    s.layer = 1;
    s.tx = int(layer1.size()) % W;
    s.ty = int(layer1.size()) / W;
    layer1.push_back(buildGridTile(s));
    const uint32_t salt = model.salt[size_t(model.free.front())];
    const int slot = model.takeFirst();
    const nav::TileRef ref = two.add(layer1.back(), 0);
    ASSERT_NE(ref, 0u);
    EXPECT_EQ(slotOf(m, ref), slot);
    EXPECT_EQ(m.decodePolyIdSalt(ref), salt);
  }
  EXPECT_EQ(m.tileCount(), MAX_TILES);
  EXPECT_EQ(compareMeshes(m, *two.theirs), "");
  GridTileSpec extra;
  extra.cells = 2;
  extra.quadCells = 2;
  extra.layer = 2;
  nav::Status st = 0;
  EXPECT_EQ(two.add(buildGridTile(extra), 0, &st), 0u);
  EXPECT_TRUE(nav::statusDetail(st, nav::OUT_OF_MEMORY));
}

// The file bake adds each tile at the slot a whole-level bake gives it while the tiles behind the
// writer are removed, so the free list holds every removed slot before the chosen one. With a walk
// of the free list that is O(N) per add, O(N^2) per bake (1.7 s of the 2 km world's bake). Here
// 16,384 tiles are added at chosen slots, each behind thousands of free slots, and timed against
// adding the same tiles at the first free slot: the two must cost about the same.
TEST(TileSlots, AddingAtAChosenSlotDoesNotWalkTheFreeList) {
  constexpr int N = 16384;
  const Tiles tiles(128, N / 128);
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point a) { return std::chrono::duration<double, std::milli>(Clock::now() - a).count(); };

  // Plain adds: the first free slot each time, then all removed (the free list is now N-1 ... 0).
  double plainMs = 0;
  double chosenMs = 0;
  for (int rep = 0; rep < 2; ++rep) { // best of two, against a busy machine
    nav::NavMesh m;
    GridTileSpec s;
    s.cells = 2;
    ASSERT_TRUE(nav::statusSucceeded(m.init(gridMeshParams(s, N, 4))));
    std::vector<nav::TileRef> refs(N);
    std::vector<uint8_t*> data(N);
    for (int i = 0; i < N; ++i) data[size_t(i)] = dupBlob(tiles.blobs[size_t(i)]);
    Clock::time_point t0 = Clock::now();
    for (int i = 0; i < N; ++i)
      ASSERT_TRUE(nav::statusSucceeded(m.addTile(data[size_t(i)], int(tiles.blobs[size_t(i)].size()),
                                                 nav::TILE_FREE_DATA, 0, &refs[size_t(i)])));
    const double plain = ms(t0);
    for (int i = 0; i < N; ++i) ASSERT_TRUE(nav::statusSucceeded(m.removeTile(refs[size_t(i)], nullptr, nullptr)));
    ASSERT_EQ(m.tileCount(), 0);

    // Chosen slots in the order 0, 2, 4, ... then 1, 3, 5, ...: with the free list N-1, ..., 1, 0
    // every one of them sits about half way down the list.
    for (int i = 0; i < N; ++i) data[size_t(i)] = dupBlob(tiles.blobs[size_t(i)]);
    t0 = Clock::now();
    for (int i = 0; i < N; ++i) {
      const int slot = i < N / 2 ? 2 * i : 2 * (i - N / 2) + 1;
      const nav::TileRef want = m.encodePolyId(m.getTile(slot)->salt, uint32_t(slot), 0);
      nav::TileRef got = 0;
      ASSERT_TRUE(nav::statusSucceeded(m.addTile(data[size_t(i)], int(tiles.blobs[size_t(i)].size()),
                                                 nav::TILE_FREE_DATA, want, &got)));
      ASSERT_EQ(got, want);
    }
    const double chosen = ms(t0);
    EXPECT_EQ(m.tileCount(), N);
    plainMs = rep == 0 ? plain : std::min(plainMs, plain);
    chosenMs = rep == 0 ? chosen : std::min(chosenMs, chosen);
  }
  std::printf("  %d tiles: first free slot %.1f ms, chosen slots %.1f ms\n", N, plainMs, chosenMs);
  // A walk of the free list costs ~0.6 N^2 = 160 M list steps here (many times the plain adds);
  // without one the two match.
  EXPECT_LT(chosenMs, 3 * plainMs + 20) << "adding at chosen slots costs " << chosenMs << " ms, plain adds " << plainMs
                                        << " ms: does addTile(lastRef) walk the free list?";
}
