// BakeTestUtil.h: levels and helpers shared by the bake tests and the benchmark.
#pragma once

#include "nav/NavMesh.h"
#include "nav/bake/Bake.h"
#include "nav/bake/LevelFile.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace baketest {

inline std::string sharedLevelsDir() { return std::string(NAVBENCH_SHARED_DIR) + "/levels"; }
inline std::string sourceDir() { return NAVBENCH_SOURCE_DIR; }
inline std::string defaultObj() { return sourceDir() + "/assets/levels/default.obj"; }
inline std::string defaultLevel() { return sourceDir() + "/assets/levels/default.json"; }

inline bool fileExists(const std::string& p) { return std::ifstream(p).good(); }

/// A file name in `dir` of this process only: dir/<prefix>_<pid>_<name>.
inline std::string processTempPath(const std::string& dir, const std::string& prefix, const std::string& name) {
  return dir + "/" + prefix + "_" + std::to_string(::getpid()) + "_" + name;
}

/// Writes `text` to `path` byte for byte; false when the file cannot be written.
inline bool writeFile(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

/// The three shared RecastDemo levels.
inline const std::vector<std::string>& sharedLevelNames() {
  static const std::vector<std::string> names = {"dungeon.obj", "nav_test.obj", "undulating.obj"};
  return names;
}

/// Loads a level (OBJ or level file) into input + settings; fails the test with the message.
inline bool loadLevel(const std::string& path, nav::bake::BakeInput* in, nav::bake::BakeSettings* s, std::string* why) {
  return nav::bake::loadBakeInput(path, in, s, why);
}

/// RecastDemo's Sample::saveAll over our NavMesh: MSET v1 header (magic, version, numTiles, params),
/// then (tileRef, dataSize, data) per tile in slot order.
inline std::vector<uint8_t> saveAllOurs(const nav::NavMesh& mesh) {
  std::vector<uint8_t> out;
  auto put = [&](const void* p, size_t n) {
    out.insert(out.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
  };
  const int32_t magic = 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T', version = 1;
  int32_t numTiles = 0;
  for (int i = 0; i < mesh.getMaxTiles(); ++i)
    if (mesh.getTile(i)->header && mesh.getTile(i)->dataSize) ++numTiles;
  put(&magic, 4);
  put(&version, 4);
  put(&numTiles, 4);
  put(&mesh.getParams(), sizeof(nav::NavMeshParams));
  for (int i = 0; i < mesh.getMaxTiles(); ++i) {
    const nav::MeshTile* t = mesh.getTile(i);
    if (!t->header || !t->dataSize) continue;
    const uint32_t ref = mesh.getTileRef(t);
    const int32_t size = t->dataSize;
    put(&ref, 4);
    put(&size, 4);
    put(t->data, size_t(size));
  }
  return out;
}

/// An agent type (nav/bake/Agents.h) over `base` with its own radius, height and climb.
inline nav::bake::AgentType agentType(const nav::bake::BakeSettings& base, const std::string& name, float radius,
                                      float height, float climb) {
  nav::bake::AgentType a;
  a.name = name;
  a.color = nav::bake::defaultAgentColor(0);
  a.settings = base;
  a.settings.agentRadius = radius;
  a.settings.agentHeight = height;
  a.settings.agentMaxClimb = climb;
  a.overrides = {"agentHeight", "agentMaxClimb", "agentRadius"};
  return a;
}

/// The three agent types the agents tests and benchmarks use: small (r 0.3, h 1, climb 0.5),
/// medium (`base`'s own) and large (r 1.2, h 3, climb 1.2).
inline std::vector<nav::bake::AgentType> threeAgentTypes(const nav::bake::BakeSettings& base) {
  return {agentType(base, "small", 0.3f, 1.0f, 0.5f), agentType(base, "medium", base.agentRadius, base.agentHeight, base.agentMaxClimb),
          agentType(base, "large", 1.2f, 3.0f, 1.2f)};
}

/// Index of the first differing byte, or -1.
inline long firstDiff(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return long(i);
  return a.size() == b.size() ? -1 : long(n);
}

} // namespace baketest

namespace baketest {

/// Name of the tile blob section holding byte `offset` ("header", "verts", "polys", "links",
/// "detail meshes", "detail verts", "detail tris", "bv tree", "off-mesh cons", "past end").
inline std::string tileSectionAt(const std::vector<uint8_t>& blob, long offset) {
  if (blob.size() < sizeof(nav::MeshHeader)) return "header";
  nav::MeshHeader h;
  std::memcpy(&h, blob.data(), sizeof(h));
  const size_t sizes[] = {nav::align4(sizeof(nav::MeshHeader)), nav::align4(12 * size_t(h.vertCount)),
                          nav::align4(32 * size_t(h.polyCount)), nav::align4(12 * size_t(h.maxLinkCount)),
                          nav::align4(12 * size_t(h.detailMeshCount)), nav::align4(12 * size_t(h.detailVertCount)),
                          nav::align4(4 * size_t(h.detailTriCount)), nav::align4(16 * size_t(h.bvNodeCount)),
                          nav::align4(36 * size_t(h.offMeshConCount))};
  const char* names[] = {"header", "verts", "polys", "links", "detail meshes", "detail verts", "detail tris", "bv tree", "off-mesh cons"};
  size_t at = 0;
  for (int i = 0; i < 9; ++i) {
    if (size_t(offset) < at + sizes[i]) return names[i];
    at += sizes[i];
  }
  return "past end";
}

} // namespace baketest

namespace baketest {

/// Where byte `offset` of an MSET file lies: "set header", or "tile <i> (x, y) <section> +<off>".
inline std::string tileSetLocation(const std::vector<uint8_t>& file, long offset) {
  const size_t headerSize = 12 + sizeof(nav::NavMeshParams);
  if (offset < 0) return "nowhere";
  if (size_t(offset) < headerSize) return "set header";
  size_t at = headerSize;
  for (int i = 0; at + 8 <= file.size(); ++i) {
    int32_t size = 0;
    std::memcpy(&size, &file[at + 4], 4);
    if (size_t(offset) < at + 8) return "tile " + std::to_string(i) + " record header";
    const size_t start = at + 8;
    if (size_t(offset) < start + size_t(size)) {
      std::vector<uint8_t> blob(file.begin() + long(start), file.begin() + long(start) + size);
      nav::MeshHeader h;
      std::memcpy(&h, blob.data(), sizeof(h));
      return "tile " + std::to_string(i) + " (" + std::to_string(h.x) + ", " + std::to_string(h.y) + ") " +
             tileSectionAt(blob, long(size_t(offset) - start)) + " +" + std::to_string(size_t(offset) - start);
    }
    at = start + size_t(size);
  }
  return "past end";
}

} // namespace baketest
