// TileSetFile.cpp: MSET tile-set files (RecastDemo's format), with validation and atomic writes.
#include "nav/TileSetFile.h"

#include "nav/FileMessages.h"
#include "nav/base/AtomicFile.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

namespace nav {

using filemsg::fail;
using filemsg::fmt;

Status loadTileSet(const uint8_t* buf, size_t size, NavMesh& mesh, std::string* why, const char* name) {
  const std::string src = name ? name : "<memory>";
  if (!buf && size) return fail(why, FAILURE | INVALID_PARAM, src + ": no buffer");
  if (size < sizeof(TileSetHeader))
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": %lld bytes, too short for the %lld-byte tile-set header", (long long)size,
                          (long long)sizeof(TileSetHeader)));
  TileSetHeader header;
  std::memcpy(&header, buf, sizeof header);
  if (header.magic != TILESET_MAGIC)
    return fail(why, FAILURE | WRONG_MAGIC, src + fmt(": wrong magic 0x%08llx, expected 0x%08llx ('MSET')",
                                                      (long long)uint32_t(header.magic), (long long)TILESET_MAGIC));
  if (header.version != TILESET_VERSION)
    return fail(why, FAILURE | WRONG_VERSION,
                src + fmt(": tile-set version %lld, expected %lld", header.version, TILESET_VERSION));
  if (header.numTiles < 0 || header.numTiles > header.params.maxTiles)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": numTiles %lld not in 0..maxTiles (%lld)", header.numTiles, header.params.maxTiles));
  // Each tile needs at least its 8-byte record header plus a tile header: catches absurd counts
  // before any allocation.
  const size_t minTileBytes = sizeof(TileSetTileHeader) + sizeof(MeshHeader);
  if (uint64_t(header.numTiles) * minTileBytes > size - sizeof(TileSetHeader))
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": numTiles %lld cannot fit in %lld bytes", header.numTiles, (long long)size));

  // Slots are allocated up front by init: bound them by what the file holds (see TILESET_SLOT_FLOOR).
  const int64_t slotLimit = std::max<int64_t>(TILESET_SLOT_FLOOR, int64_t(TILESET_SLOTS_PER_TILE) * header.numTiles);
  if (int64_t(header.params.maxTiles) > slotLimit)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": maxTiles %lld asks for %lld MiB of tile slots for %lld tiles; the limit is %lld slots "
                          "(at least 65536, else 4 per tile in the file)",
                          header.params.maxTiles,
                          (long long)(int64_t(header.params.maxTiles) * int64_t(sizeof(MeshTile)) >> 20),
                          header.numTiles, (long long)slotLimit));

  NavMesh fresh;
  std::string err;
  Status s = fresh.init(header.params, &err);
  if (statusFailed(s)) return fail(why, s, src + ": " + err);

  size_t pos = sizeof(TileSetHeader);
  for (int i = 0; i < header.numTiles; ++i) {
    // "<name>: tile <i>", built only for a message (a per-tile snprintf was a tenth of a big load).
    const auto at = [&] { return src + fmt(": tile %lld", i); };
    if (size - pos < sizeof(TileSetTileHeader))
      return fail(why, FAILURE | INVALID_PARAM, at() + fmt(": truncated record header at byte %lld", (long long)pos));
    TileSetTileHeader th;
    std::memcpy(&th, buf + pos, sizeof th);
    pos += sizeof th;
    if (th.tileRef == 0) return fail(why, FAILURE | INVALID_PARAM, at() + ": tile ref is 0");
    if (th.dataSize < int32_t(sizeof(MeshHeader)))
      return fail(why, FAILURE | INVALID_PARAM,
                  at() + fmt(": data size %lld is smaller than a tile header", th.dataSize));
    if (size - pos < size_t(th.dataSize))
      return fail(why, FAILURE | INVALID_PARAM,
                  at() + fmt(": data size %lld but only %lld bytes left", th.dataSize, (long long)(size - pos)));
    uint8_t* data = new (std::nothrow) uint8_t[size_t(th.dataSize)];
    if (!data) return fail(why, FAILURE | OUT_OF_MEMORY, at() + ": out of memory");
    std::memcpy(data, buf + pos, size_t(th.dataSize));
    pos += size_t(th.dataSize);
    s = fresh.addTile(data, th.dataSize, TILE_FREE_DATA, th.tileRef, nullptr, &err);
    if (statusFailed(s)) {
      delete[] data;
      // addTile's message starts with "tile (x,y,layer)" when it could read the header.
      return fail(why, s, at() + ": " + err);
    }
  }
  if (pos != size)
    return fail(why, FAILURE | INVALID_PARAM,
                src + fmt(": %lld unexpected bytes after the last tile", (long long)(size - pos)));
  mesh.swap(fresh);
  return SUCCESS;
}

Status loadTileSetFile(const std::string& path, NavMesh& mesh, std::string* why) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return fail(why, FAILURE | INVALID_PARAM, path + ": cannot open: " + std::strerror(errno));
  // One read into an uninitialised buffer sized from the file. The size is only a hint: a file
  // that grew since, a stream with no size or a size past 1 GiB (a directory reports LONG_MAX) is
  // read on in chunks and appended.
  long size = -1;
  if (std::fseek(f, 0, SEEK_END) == 0) size = std::ftell(f);
  std::rewind(f);
  std::unique_ptr<uint8_t[]> whole;
  size_t n = 0;
  if (size > 0 && size <= (1L << 30)) {
    whole.reset(new (std::nothrow) uint8_t[size_t(size)]);
    if (whole) n = std::fread(whole.get(), 1, size_t(size), f);
  }
  std::vector<uint8_t> more;
  uint8_t chunk[4096];
  for (size_t k; (k = std::fread(chunk, 1, sizeof chunk, f)) > 0;) more.insert(more.end(), chunk, chunk + k);
  const bool err = std::ferror(f) != 0;
  std::fclose(f);
  if (err) return fail(why, FAILURE | INVALID_PARAM, path + ": read error");
  if (more.empty()) return loadTileSet(whole.get(), n, mesh, why, path.c_str());
  more.insert(more.begin(), whole.get(), whole.get() + n);
  return loadTileSet(more.data(), more.size(), mesh, why, path.c_str());
}

Status saveTileSet(const NavMesh& mesh, std::vector<uint8_t>& out, std::string* why) {
  out.clear();
  TileSetHeader header;
  std::memset(&header, 0, sizeof header);
  header.magic = TILESET_MAGIC;
  header.version = TILESET_VERSION;
  header.params = mesh.getParams();
  if (mesh.getMaxTiles() == 0) return fail(why, FAILURE | INVALID_PARAM, "save: the mesh is not initialised");
  size_t total = sizeof header;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const MeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header || !tile->dataSize) continue;
    header.numTiles++;
    total += sizeof(TileSetTileHeader) + size_t(tile->dataSize);
  }
  out.reserve(total);
  const uint8_t* h = reinterpret_cast<const uint8_t*>(&header);
  out.insert(out.end(), h, h + sizeof header);
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const MeshTile* tile = mesh.getTile(i);
    if (!tile || !tile->header || !tile->dataSize) continue;
    TileSetTileHeader th;
    th.tileRef = mesh.getTileRef(tile);
    th.dataSize = tile->dataSize;
    const uint8_t* t = reinterpret_cast<const uint8_t*>(&th);
    out.insert(out.end(), t, t + sizeof th);
    out.insert(out.end(), tile->data, tile->data + tile->dataSize);
  }
  return SUCCESS;
}

Status saveTileSetFile(const NavMesh& mesh, const std::string& path, std::string* why) {
  std::vector<uint8_t> buf;
  Status s = saveTileSet(mesh, buf, why);
  if (statusFailed(s)) return s;
  std::string err;
  if (!base::writeFileAtomic(path, buf.data(), buf.size(), err)) return fail(why, FAILURE | INVALID_PARAM, err);
  return SUCCESS;
}

std::vector<TileInfo> listTiles(const NavMesh& mesh) {
  std::vector<TileInfo> out;
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const MeshTile* tile = mesh.getTile(i);
    if (!tile->header) continue;
    const MeshHeader& h = *tile->header;
    TileInfo t{};
    t.slot = i;
    t.ref = mesh.getTileRef(tile);
    t.x = h.x;
    t.y = h.y;
    t.layer = h.layer;
    t.polys = h.polyCount;
    t.verts = h.vertCount;
    t.maxLinks = h.maxLinkCount;
    int freeLinks = 0;
    for (uint32_t l = tile->linksFreeList; l != NULL_LINK && freeLinks <= h.maxLinkCount; l = tile->links[l].next)
      ++freeLinks;
    t.usedLinks = h.maxLinkCount - freeLinks;
    t.detailVerts = h.detailVertCount;
    t.detailTris = h.detailTriCount;
    t.bvNodes = h.bvNodeCount;
    t.offMeshCons = h.offMeshConCount;
    t.bytes = tile->dataSize;
    out.push_back(t);
  }
  return out;
}

std::string describeTiles(const NavMesh& mesh) {
  std::string s = "slot  ref         x     y     layer polys verts links(used/max) dverts dtris bvnodes offmesh bytes\n";
  char line[256];
  long long bytes = 0;
  const std::vector<TileInfo> tiles = listTiles(mesh);
  for (const TileInfo& t : tiles) {
    std::snprintf(line, sizeof line, "%-5d 0x%08x %-5d %-5d %-5d %-5d %-5d %7d/%-7d %-6d %-5d %-7d %-7d %d\n", t.slot,
                  t.ref, t.x, t.y, t.layer, t.polys, t.verts, t.usedLinks, t.maxLinks, t.detailVerts, t.detailTris,
                  t.bvNodes, t.offMeshCons, t.bytes);
    s += line;
    bytes += t.bytes;
  }
  std::snprintf(line, sizeof line, "tiles %d, tile bytes %lld, mesh overhead bytes %lld\n", int(tiles.size()), bytes,
                (long long)mesh.overheadBytes());
  s += line;
  return s;
}

} // namespace nav
