// FuzzTile.cpp: one tile blob added to a mesh with fuzzed NavMeshParams (first 28 bytes), then
// removed and added again. addTile must validate everything: refuse with a message or link it.
#include "nav/NavMesh.h"

#include <cstdint>
#include <cstring>
#include <memory>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < sizeof(nav::NavMeshParams)) return 0;
  nav::NavMeshParams params;
  std::memcpy(&params, data, sizeof(params));
  data += sizeof(params);
  size -= sizeof(params);
  if (size > (1u << 24)) return 0;
  // The blob in its own 4-byte-aligned block of exactly its size (addTile requires alignment).
  std::unique_ptr<uint32_t[]> block(new uint32_t[(size + 3) / 4 + 1]);
  uint8_t* blob = reinterpret_cast<uint8_t*>(block.get());
  if (size) std::memcpy(blob, data, size);

  nav::NavMesh mesh;
  std::string why;
  if (nav::statusFailed(mesh.init(params, &why))) {
    if (why.empty()) __builtin_trap();
    // Also the single-tile init path (params from the tile header).
    nav::NavMesh single;
    (void)single.init(blob, int(size), 0, &why);
    return 0;
  }
  nav::TileRef ref = 0;
  const nav::Status s = mesh.addTile(blob, int(size), 0, 0, &ref, &why);
  if (nav::statusFailed(s)) {
    if (why.empty()) __builtin_trap();
    return 0;
  }
  // Accessors over the added tile.
  const nav::MeshTile* tile = mesh.getTileByRef(ref);
  if (!tile) __builtin_trap();
  const nav::PolyRef base = mesh.getPolyRefBase(tile);
  for (int i = 0; i < tile->header->polyCount; ++i) {
    const nav::MeshTile* t = nullptr;
    const nav::Poly* p = nullptr;
    if (nav::statusFailed(mesh.getTileAndPolyByRef(base | nav::PolyRef(i), &t, &p))) __builtin_trap();
  }
  uint8_t* back = nullptr;
  int backSize = 0;
  if (nav::statusFailed(mesh.removeTile(ref, &back, &backSize))) __builtin_trap();
  if (back != blob) __builtin_trap();
  // Re-adding at the stale ref must not resurrect it; a fresh add must work again.
  nav::TileRef ref2 = 0;
  if (nav::statusFailed(mesh.addTile(blob, int(size), 0, 0, &ref2, &why))) __builtin_trap();
  if (ref2 == ref) __builtin_trap(); // the salt must have changed
  (void)mesh.removeTile(ref2, &back, &backSize);
  return 0;
}
